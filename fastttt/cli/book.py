"""``fastttt book``: build, describe and probe opening books (:mod:`fastttt.search.book`)."""

from __future__ import annotations

import sys
import time

import click

from fastttt.cli.output import emit
from fastttt.cli.progress import Progress
from fastttt.cli.types import NonEmptyPath, SchedulerAddress
from fastttt.errors import FastTTTError
from fastttt.games.registry import as_game


@click.group()
def book() -> None:
    """Opening books: exact scores of every position up to a depth (gravity boards)."""


@book.command()
@click.argument("game", default="connect4")
@click.option(
    "--depth", type=click.IntRange(0, 16), required=True, help="Plies from the empty board."
)
@click.option(
    "--out", "out_path", type=NonEmptyPath(dir_okay=False), help="The file (default GAME.book)."
)
@click.option(
    "--resume",
    is_flag=True,
    help="Keep the chunks an interrupted build finished (a finished book is kept as it is).",
)
@click.option(
    "--reuse",
    "reuse_path",
    type=NonEmptyPath(dir_okay=False, exists=True),
    help="Take the scores this other book knows instead of searching them.",
)
@click.option("--workers", type=click.IntRange(1, 256), help="Search the chunks on N processes.")
@click.option(
    "--scheduler",
    type=SchedulerAddress(),
    help="Search the chunks as tasks on this Dask scheduler.",
)
@click.option("--force", is_flag=True, help="Replace a file that is not a book.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def build(game, depth, out_path, resume, reuse_path, workers, scheduler, force, as_json) -> None:
    """Build the book of GAME (default connect4) to --depth plies: every position searched or
    derived exactly, resumable after a kill (--resume)."""
    from fastttt.games.mnk.spec import as_spec
    from fastttt.search.book import build as build_book

    try:
        spec = as_spec(game)
    except FastTTTError as err:
        raise click.ClickException(str(err)) from None
    path = out_path or f"{spec.name}.book"

    def run(progress):
        return build_book(
            spec,
            depth,
            path,
            resume=resume,
            reuse=_reused(reuse_path),
            workers=workers,
            scheduler=scheduler,
            force=force,
            progress=progress,
        )

    _write_book(f"book of {spec.name}", path, as_json, run)


@book.command()
@click.argument("path", type=NonEmptyPath(dir_okay=False, exists=True))
@click.option(
    "--lines", type=click.IntRange(1, 16), required=True, help="Plies from the empty board."
)
@click.option("--resume", is_flag=True, help="Keep the chunks an interrupted extension finished.")
@click.option(
    "--reuse",
    "reuse_path",
    type=NonEmptyPath(dir_okay=False, exists=True),
    help="Take the positions this other book keeps a move for instead of searching them.",
)
@click.option("--workers", type=click.IntRange(1, 256), help="Search the chunks on N processes.")
@click.option(
    "--scheduler",
    type=SchedulerAddress(),
    help="Search the chunks as tasks on this Dask scheduler.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def extend(path, lines, resume, reuse_path, workers, scheduler, as_json) -> None:
    """Add to the book at PATH the positions perfect play meets past its depth, to --lines
    plies (the perfect side plays the book's best moves, the other any move), each with its
    exact score and a best move, so that `perfect` answers them at once."""
    from fastttt.search.book import extend as extend_book

    def run(progress):
        return extend_book(
            path,
            lines,
            resume=resume,
            reuse=_reused(reuse_path),
            workers=workers,
            scheduler=scheduler,
            progress=progress,
        )

    _write_book(f"lines of {path}", path, as_json, run)


def _reused(path):
    """The book at ``path`` (``--reuse``), or None."""
    from fastttt.search.book import load

    return None if path is None else load(path)


def _write_book(title: str, path, as_json: bool, write) -> None:
    """Run ``write(progress)`` (a book build or extension) with a progress bar, then say what
    the book at ``path`` holds, in one line or one JSON object."""
    started, cpu = time.perf_counter(), time.process_time()
    try:
        with Progress(title, unit="chunks") as shown:
            made = write(lambda phase, done, total: shown.update(done, total, note=phase))
    except FastTTTError as err:
        raise click.ClickException(str(err)) from None
    out = {
        "game": made.spec.name,
        "book": str(path),
        "depth": made.depth,
        "positions": len(made),
        "seconds": round(time.perf_counter() - started, 3),
        "cpu_seconds": round(time.process_time() - cpu, 3),
    }
    lines = ""
    if made.lines:
        out |= {"lines": made.lines, "past_positions": int(made.past_keys.size)}
        lines = f", and {out['past_positions']:,} on perfect play's lines to {made.lines} plies"
    if as_json:
        emit("book", out)
    else:
        click.echo(
            f"{path}: {len(made):,} positions of {made.spec.name} to depth {made.depth}{lines}, "
            f"{out['seconds']:.1f} s"
        )


@book.command()
@click.argument("path", type=NonEmptyPath(dir_okay=False, exists=True))
@click.option("--moves", default="", help="The position, as the play screen writes moves.")
def probe(path, moves) -> None:
    """The exact score of the position after --moves and of each of its moves (at the book's
    depth: the best move it keeps), from a book."""
    from fastttt.cli.moves import query_state
    from fastttt.search.book import load

    try:
        opened = load(path)
        game = as_game(opened.spec)
        pos, _ = query_state(game, None, moves or None)
        score = opened.score(pos)
        moves_scores = opened.move_scores(pos)
        kept = opened.best_move(pos)
    except FastTTTError as err:
        raise click.ClickException(str(err)) from None
    if score is None:
        raise click.ClickException(
            f"{pos}: {pos.ply} stones, past the book's {opened.depth} and not on its lines"
        )
    click.echo(f"{pos}  score {score}")
    if moves_scores:
        fields = (f"{game.format_move(pos, m)}:{v}" for m, v in moves_scores.items())
        click.echo(" ".join(fields))
    elif kept is not None:
        click.echo(f"best move {game.format_move(pos, kept)}")
    sys.stdout.flush()
