"""``fastttt verify``: solve the boards of the known-facts file and compare."""

from __future__ import annotations

import sys

import click


def solve_board(spec):
    """Solve ``spec`` through the front door, with the engine ``fastttt solve`` picks: the
    dense table for small free boards, the layered solver (in RAM) for gravity boards and
    boards the dense table does not fit."""
    from fastttt.tables.layered import choose_engine

    if choose_engine(spec) == "layered":
        from fastttt.tables.layered import solve_layered

        return solve_layered(spec)
    from fastttt.solver import solve

    return solve(spec)


@click.command()
@click.option("--slow", is_flag=True, help="Also the boards marked slow (minutes, ~1 GiB).")
def verify(slow):
    """Solve every board of the known-facts file and check each fact."""
    from fastttt.cli.progress import Progress
    from fastttt.facts import known_boards

    failures = 0
    for board in known_boards():
        if board.slow and not slow:
            click.echo(f"skip  {board.game} (slow; use --slow)")
            continue
        with Progress(f"solving {board.game}"):
            solution = solve_board(board.spec)
        problems = board.check(solution.summary())
        failures += bool(problems)
        status = "FAIL" if problems else "ok"
        engine = getattr(solution, "engine", "dense")
        click.echo(f"{status:<5} {board.game} ({engine}, {solution.seconds:.2f} s)")
        for problem in problems:
            click.echo(f"      {problem}")
    sys.exit(1 if failures else 0)
