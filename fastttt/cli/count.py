"""``fastttt count``: positions per ply by the forward pass alone (:mod:`fastttt.tables.count`)."""

from __future__ import annotations

import sys
import time

import click

from fastttt.cli.output import emit
from fastttt.cli.progress import Progress, rate_text
from fastttt.cli.types import FiniteFloat

ANNOUNCE_SLOTS = 20_000_000  # say the plan before counts of more slots than this (~1 s)
COLUMNS = ("ply", "positions", "won by first", "won by second", "drawn", "classes")


def _row(cells: tuple) -> str:
    return f"{cells[0]:>4}  " + "  ".join(f"{c:>17}" for c in cells[1:])


def _ply_row(count) -> str:
    t = count.terminal
    numbers = (count.reachable, t["first"], t["second"], t["draw"], count.classes)
    return _row((count.ply, *(f"{n:,}" for n in numbers)))


def _print_table(spec, by_ply, symmetry: str) -> None:
    click.echo(f"{spec.name} ({spec.describe()}), positions after each ply from the empty board")
    click.echo(_row(COLUMNS))
    for count in by_ply:
        click.echo(_ply_row(count))
    if len(by_ply) > 1:
        total = sum(c.reachable for c in by_ply)
        won = [sum(c.terminal[s] for c in by_ply) for s in ("first", "second", "draw")]
        classes = sum(c.classes for c in by_ply)
        click.echo(_row(("all", *(f"{n:,}" for n in (total, *won, classes)))))
    if symmetry != "none":
        click.echo(f"classes: positions up to the board's symmetry ({symmetry})")


@click.command()
@click.argument("game", default="tictactoe")
@click.option(
    "--plies",
    type=click.IntRange(min=0),
    help="Count up to this ply (default: every ply, to the full board).",
)
@click.option(
    "--symmetry/--no-symmetry",
    default=True,
    show_default=True,
    help="Compute one position per symmetry class (the counts are of positions either way).",
)
@click.option(
    "--max-memory",
    type=FiniteFloat(min=0, min_open=True, max=1e6),
    help="Refuse counts needing more than this many GiB.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def count(game, plies, symmetry, max_memory, as_json) -> None:
    """Count the positions of GAME (default tictactoe) after each ply from the empty board:
    all of them, the finished ones (won by each side, drawn) and their symmetry classes.

    Runs only the forward (reach) pass of the layered solver, a ply at a time, holding one
    bit per slot of two plies; it says first what memory it needs and refuses when that will
    not fit. GAME is as for solve: tictactoe, connect4, 4x4k3, 4x5k4g (g = gravity)...
    """
    from fastttt.cli.memory import memory_limit, peak_rss_bytes
    from fastttt.errors import FastTTTError, GameSpecError
    from fastttt.games.mnk.spec import as_spec
    from fastttt.memory import format_bytes
    from fastttt.tables.count import count_positions

    try:
        spec = as_spec(game)
    except GameSpecError as err:
        raise click.UsageError(str(err)) from None
    max_bytes, capped = memory_limit(max_memory)
    show = sys.stderr.isatty() and not as_json
    plan_box: list = []
    done: list = []

    def announce(plan) -> None:
        plan_box.append(plan)
        if plan.slots >= ANNOUNCE_SLOTS:
            click.echo(
                f"counting {spec.name} ({spec.describe()}) to ply {plan.plies}: "
                f"{plan.slots:,} slots, index {plan.index.kind}, symmetry "
                f"{plan.index.symmetry}; about {format_bytes(plan.memory_bytes)} of memory "
                "(a bit a slot of two plies)",
                err=True,
            )

    started = time.perf_counter()
    try:
        with Progress(f"counting {spec.name}", unit="slots", terminal=show) as shown:
            ply_start = [0, started]

            def report(ply: int, slots_done: int, slots: int) -> None:
                now = time.perf_counter()
                if ply_start[0] != ply:
                    ply_start[:] = [ply, now]
                rate = rate_text(slots_done, now - ply_start[1], "slots")
                what = f"counting {spec.name}, ply {ply}"
                shown.update(slots_done, slots, what=what, note=rate, step=what != shown.what)

            result = count_positions(
                spec,
                plies,
                symmetry=symmetry,
                max_bytes=max_bytes,
                progress=report,
                on_plan=announce,
                on_ply=done.append,
            )
    except KeyboardInterrupt:
        if done and not as_json:  # what was finished before Ctrl-C, on stdout
            _print_table(spec, done, plan_box[0].index.symmetry if plan_box else "none")
        raise
    except FastTTTError as err:
        raise click.ClickException(f"{' '.join(str(err).split())}{capped}") from None
    plan = plan_box[0]
    if as_json:
        emit(
            "count",
            {
                "game": spec.name,
                "rows": spec.rows,
                "cols": spec.cols,
                "k": spec.k,
                "gravity": spec.gravity,
                "index": plan.index.kind,
                "symmetry": result.symmetry,
                "plies": result.plies,
                "complete": result.complete,
                "reachable": result.reachable,
                "terminal": result.terminal,
                "by_ply": [c.as_dict() for c in result.by_ply],
                "seconds": round(result.seconds, 6),
                "memory_bytes": plan.memory_bytes,
                "peak_bytes": peak_rss_bytes(),
            },
        )
        return
    _print_table(spec, result.by_ply, result.symmetry)
    upto = "every ply" if result.complete else f"to ply {result.plies} of {spec.cells}"
    click.echo(
        f"counted {upto} in {result.seconds:.3f} s; memory: about "
        f"{format_bytes(plan.memory_bytes)} planned, peak {format_bytes(peak_rss_bytes())}"
    )
