"""``fastttt verify``: solve the boards of the known-facts file and compare."""

from __future__ import annotations

import sys

import click


@click.command()
@click.option("--slow", is_flag=True, help="Also the boards marked slow (minutes, ~1 GiB).")
def verify(slow):
    """Solve every board of the known-facts file and check each fact."""
    from fastttt.facts import known_boards
    from fastttt.solver import solve

    failures = 0
    for board in known_boards():
        if board.slow and not slow:
            click.echo(f"skip  {board.game} (slow; use --slow)")
            continue
        solution = solve(board.spec)
        problems = board.check(solution.summary())
        failures += bool(problems)
        status = "FAIL" if problems else "ok"
        click.echo(f"{status:<5} {board.game} ({solution.seconds:.2f} s)")
        for problem in problems:
            click.echo(f"      {problem}")
    sys.exit(1 if failures else 0)
