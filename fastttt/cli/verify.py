"""``fastttt verify``: solve the boards of the known-facts file, count the plies of the known
counts file, and compare."""

from __future__ import annotations

import sys

import click


def solve_board(spec):
    """Solve ``spec`` through the front door, with the engine ``fastttt solve`` picks: the
    dense table for small free boards, the layered solver (in RAM) for gravity boards and
    boards the dense table does not fit."""
    from fastttt.tables.cache import choose_engine

    if choose_engine(spec) == "layered":
        from fastttt.tables.layered import solve_layered

        return solve_layered(spec)
    from fastttt.tables.dense import solve

    return solve(spec)


@click.command()
@click.option("--slow", is_flag=True, help="Also the boards marked slow (minutes, ~1 GiB).")
def verify(slow):
    """Solve every board of the known-facts file and check each fact; count the first plies
    of every game of the known counts file (fastttt/data/known_counts.txt) and compare."""
    from fastttt.cli.progress import Progress
    from fastttt.games.facts import known_boards

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
    failures += _verify_counts()
    sys.exit(1 if failures else 0)


def _verify_counts() -> int:
    """Count the first plies of every line of the counts file (``fastttt count``) and compare;
    returns the number of lines that failed."""
    from fastttt.cli.progress import Progress
    from fastttt.games.facts import known_counts
    from fastttt.tables.count import count_positions

    failures = 0
    for line in known_counts():
        with Progress(f"counting {line.game}"):
            got = count_positions(line.game, line.fast)
        problems = [
            f"{line.game}: ply {p.ply} has {p.reachable:,} positions, expected {n:,}"
            for p, n in zip(got.by_ply, line.by_ply, strict=False)
            if p.reachable != n
        ]
        if line.classes is not None:
            problems += [
                f"{line.game}: ply {p.ply} has {p.classes:,} classes, expected {n:,}"
                for p, n in zip(got.by_ply, line.classes, strict=False)
                if p.classes != n
            ]
        failures += bool(problems)
        status = "FAIL" if problems else "ok"
        click.echo(f"{status:<5} {line.game} (count to ply {got.plies}, {got.seconds:.2f} s)")
        for problem in problems:
            click.echo(f"      {problem}")
    return failures
