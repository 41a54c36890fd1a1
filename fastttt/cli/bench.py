"""``fastttt bench``: a deterministic search benchmark (node count and time).

A fixed list of positions (random games from a fixed seed, generated the same way on every
machine) is searched in order from an empty transposition table; the total node count changes
only when the search's behaviour changes (ordering, pruning, table), so it belongs in commit
messages next to the speed (``Bench: N``). Time is reported, never asserted.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import click

from fastttt.cli.progress import Progress
from fastttt.cli.types import NonEmptyPath
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import GameSpec, connect4, mnk

# (game, number of positions, stones in each, seed): every entry is a deterministic list
SUITE: tuple[tuple[GameSpec, int, int, int], ...] = (
    (connect4, 6, 24, 1),
    (connect4, 6, 18, 2),
    (connect4, 3, 12, 3),
    (mnk(6, 5, 4, gravity=True), 3, 8, 4),
    (mnk(4, 4, 4), 2, 2, 5),
    (mnk(5, 5, 4), 2, 6, 6),
    (mnk(5, 5, 4), 1, 0, 7),  # the empty 5 x 5 board, k = 4: a draw
)


def _wins_at_once(pos: Position) -> bool:
    return any(pos.play(m).winner() is not None for m in pos.legal_moves())


def bench_positions() -> list[Position]:
    """The positions of :data:`SUITE`: random games of the given length from the given seed,
    redrawn until the game is live and the side to move cannot win at once."""
    out = []
    for spec, count, stones, seed in SUITE:
        rng = random.Random(seed)
        made = 0
        while made < count:
            pos = Position.empty(spec)
            while pos.ply < stones and not pos.is_over():
                pos = pos.play(rng.choice(pos.legal_moves()))
            if not pos.is_over() and not _wins_at_once(pos):
                out.append(pos)
                made += 1
    return out


TT_ENTRY_BYTES = 8  # one transposition-table entry of :class:`fastttt.search.alphabeta.Searcher`


def table_bytes(tt_bits: int) -> int:
    """Memory of the bench's transposition tables at ``2**tt_bits`` entries: one table per
    game of :data:`SUITE`, all alive at once."""
    games = len({spec for spec, *_ in SUITE})
    return games * TT_ENTRY_BYTES * 2**tt_bits


def run_bench(
    *,
    weak: bool = False,
    tt_bits: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """Search every bench position from empty tables; returns per-position and total figures
    (scores from the side to move, see :mod:`fastttt.search.alphabeta`). ``progress(done, total)``
    after each position."""
    from fastttt.search.alphabeta import Searcher, warmup

    compile_seconds = warmup()
    positions = bench_positions()
    searchers: dict[GameSpec, Searcher] = {}
    for pos in positions:
        if pos.spec not in searchers:
            searchers[pos.spec] = Searcher(pos.spec, tt_bits=tt_bits)
            searchers[pos.spec].reset()  # touch the table's pages before timing
    rows: list[dict] = []
    t_total = time.perf_counter()
    cpu_total = time.process_time()
    for pos in positions:
        r = searchers[pos.spec].solve(pos, weak=weak)
        rows.append(
            {
                "game": pos.spec.name,
                "position": str(pos),
                "score": r.score,
                "nodes": r.nodes,
                "seconds": r.seconds,
            }
        )
        if progress is not None:
            progress(len(rows), len(positions))
    cpu = time.process_time() - cpu_total
    nodes = sum(row["nodes"] for row in rows)
    return {
        "positions": rows,
        "nodes": nodes,
        "seconds": time.perf_counter() - t_total,
        "cpu_seconds": cpu,
        "nodes_per_second": nodes / cpu if cpu > 0 else 0.0,
        "warmup_seconds": compile_seconds,
        "weak": weak,
    }


@click.command()
@click.option("--weak", is_flag=True, help="Win/draw/loss only (searches fewer nodes).")
@click.option(
    "--tt-bits",
    type=click.IntRange(17, 30),
    default=None,
    help="Transposition table of 2**BITS entries (default 23 on big boards).",
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option(
    "--plot",
    "plot_path",
    type=NonEmptyPath(dir_okay=False),
    help="Also draw nodes against time per position: FILE.svg/.png/.pdf "
    "(pip install 'fastttt[plot]').",
)
def bench(weak: bool, tt_bits: int | None, as_json: bool, plot_path: str | None) -> None:
    """Search a fixed list of positions; print the total node count and the time."""
    if plot_path:  # before the run, not after it
        from fastttt.errors import MissingDependencyError, OutputFileError
        from fastttt.views.plot import check_plot_target, require

        try:
            check_plot_target(plot_path)
        except OutputFileError as err:
            raise click.BadParameter(str(err), param_hint="--plot") from None
        try:
            require()
        except MissingDependencyError as err:
            raise click.ClickException(str(err)) from None
    if tt_bits is not None:
        from fastttt.memory import format_bytes
        from fastttt.tables.dense import available_memory

        need, free = table_bytes(tt_bits), available_memory()
        if need > 0.9 * free:
            raise click.BadParameter(
                f"{tt_bits} bits need about {format_bytes(need)} of tables (one per game), "
                f"more than the {format_bytes(0.9 * free)} this machine has free (90% of "
                "available)",
                param_hint="--tt-bits",
            )
    with Progress("bench", unit="positions") as shown:
        result = run_bench(weak=weak, tt_bits=tt_bits, progress=shown.update)
    if plot_path:
        from fastttt.views.plot import plot_bench

        plot_bench(result, plot_path)
    if as_json:
        from fastttt.cli.output import emit

        emit("bench", result, indent=1)
        return
    width = max(len(row["game"]) for row in result["positions"])
    for row in result["positions"]:
        click.echo(
            f"{row['game']:<{width}}  {row['position']:<50}  score {row['score']:>3}  "
            f"nodes {row['nodes']:>10,}  {row['seconds'] * 1e3:9.2f} ms"
        )
    click.echo(f"warm-up (compile or cache load): {result['warmup_seconds']:.2f} s")
    click.echo(
        f"Bench: {result['nodes']} nodes  {result['cpu_seconds']:.3f} s CPU  "
        f"{result['nodes_per_second'] / 1e6:.2f} M nodes/s"
    )
