"""``fastttt solve``: strong solution of a board, a position query, or a search filter.

The command reads its options and picks a path by what the game offers: a board game (rows,
cols, k, gravity: :class:`BoardGame`) is solved by a table (:mod:`fastttt.cli.solve_table`),
by search (``--search``, :mod:`fastttt.cli.solve_search`) or as a line filter (``--stdin``,
:mod:`fastttt.cli.solve_filter`; with ``--load``, looked up in a saved table:
:mod:`fastttt.cli.solve_probe`); any other game (Ultimate) by its engine's exact search from
``--moves`` (:mod:`fastttt.cli.solve_exact`). Each path reads only the options it uses; an
option given that the path would ignore is refused (:data:`MODE_OPTIONS`).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import click

from fastttt.cli.types import FiniteFloat, NonEmptyPath, SchedulerAddress
from fastttt.errors import GameSpecError
from fastttt.games.registry import load_game


@runtime_checkable
class BoardGame(Protocol):
    """What the tables, ``--search`` and the ``--stdin`` filter take: a game on a ``rows`` x
    ``cols`` board, ``k`` in a row, with or without gravity (the m,n,k games of the registry,
    or any game that offers the same)."""

    rows: int
    cols: int
    k: int
    gravity: bool


@dataclass(frozen=True)
class SolveArgs:
    """The command line of ``fastttt solve``, one field per click parameter."""

    game: str | None
    rows: int | None
    cols: int | None
    k: int | None
    gravity: bool
    as_json: bool
    save_path: str | None
    force: bool
    load_path: str | None
    position: str | None
    moves: str | None
    max_memory: float | None
    stdin: bool
    all_moves: bool
    weak: bool
    nodes: bool
    max_nodes: int
    search: bool
    engine: str
    out_dir: str | None
    resume: bool
    symmetry: bool
    workers: int | None
    scheduler: str | None
    wdl: bool | None
    live: bool | None
    keep_every: int | None
    chunk: int | None
    index: str
    budget: str | None
    method: str
    checkpoint: str | None
    threads: int | None
    tt_bits: int | None

    @property
    def game_given(self) -> bool:
        """Whether the command line names a game (else a loaded table names it)."""
        sizes = (self.rows, self.cols, self.k)
        return self.game is not None or any(v is not None for v in sizes) or self.gravity


# The options each mode of ``solve`` reads (click parameter names; GAME is read by all), and
# what the mode does. An option given on the command line that its mode does not read is
# refused with a one-line usage error, never ignored.
_GAME = {"rows", "cols", "k", "gravity"}
_LAYERED = {
    "engine",
    "out_dir",
    "resume",
    "symmetry",
    "workers",
    "scheduler",
    "wdl",
    "live",
    "keep_every",
    "chunk",
    "index",
}
MODE_OPTIONS = {
    "ultimate": {"moves", "as_json", "max_nodes"},
    "--stdin": _GAME | {"stdin", "all_moves", "weak", "nodes", "as_json"},
    "--load --stdin": _GAME | {"load_path", "stdin", "as_json"},
    "--all-moves": _GAME | {"all_moves", "position", "moves", "weak", "nodes", "as_json"},
    "--search": _GAME
    | {"search", "position", "moves", "as_json", "budget", "method", "threads", "tt_bits"}
    | {"workers", "scheduler", "checkpoint"},
    "--load": _GAME | {"load_path", "save_path", "force", "position", "moves", "as_json"},
    "a table solve": _GAME
    | _LAYERED
    | {"save_path", "force", "position", "moves", "as_json", "max_memory"},
}
MODE_WORDS = {
    "ultimate": "ultimate is solved by search from --moves",
    "--stdin": "--stdin reads one position per line",
    "--load --stdin": "--load --stdin looks up one position per line in a table",
    "--all-moves": "--all-moves scores the moves of one position by search",
    "--search": "--search uses no table",
    "--load": "--load reads a solved table",
    "a table solve": "solving a table",
}


def _game_without_board(name: str) -> Any:
    """The game ``name`` when it is not a :class:`BoardGame` (its own engine solves it), else
    None: board games are loaded with the size options, after the options are checked."""
    try:
        game = load_game(name)
    except GameSpecError:
        return None  # "mnk" needs its sizes; an unknown name is refused with them
    return None if isinstance(game, BoardGame) else game


def _board_game(args: SolveArgs) -> BoardGame:
    try:
        return load_game(
            args.game or "tictactoe",
            rows=args.rows,
            cols=args.cols,
            k=args.k,
            gravity=args.gravity or None,
        )
    except GameSpecError as err:
        raise click.UsageError(str(err)) from None


def _solve_mode(args: SolveArgs, board: bool) -> str:
    if not board:
        return "ultimate"
    if args.stdin:
        return "--load --stdin" if args.load_path else "--stdin"
    if args.all_moves:
        return "--all-moves"
    if args.search:
        return "--search"
    return "--load" if args.load_path else "a table solve"


def _refuse_unread_options(ctx: click.Context, mode: str) -> None:
    """A one-line usage error naming the options given that ``mode`` would ignore."""
    from click.core import ParameterSource

    flags = {
        p.name: "/".join(p.opts[:1] + p.secondary_opts[:1])
        for p in ctx.command.params
        if isinstance(p, click.Option)
    }
    given = [
        name
        for name in flags
        if ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)
    ]
    unread = [name for name in given if name not in MODE_OPTIONS[mode]]
    if not unread:
        return
    first = flags[unread[0]]
    homes = [m for m, read in MODE_OPTIONS.items() if unread[0] in read]
    if first in MODE_OPTIONS:
        hint = f"{first} and {mode} are separate modes: give one"
    elif len(homes) <= 2:
        hint = f"{first} goes with {' or '.join(homes)}"
    else:
        read = MODE_OPTIONS[mode]
        hint = "it takes " + ", ".join(
            sorted(flags[name] for name in read - _GAME if flags[name] != mode)
        )
        if read & _GAME:
            hint += " and the game options"
    raise click.UsageError(
        f"{MODE_WORDS[mode]}: drop {', '.join(flags[n] for n in unread)} ({hint})"
    )


@click.command()
@click.argument("game", required=False)
@click.option("--rows", type=int, help="Number of rows (overrides the game's).")
@click.option("--cols", type=int, help="Number of columns (overrides the game's).")
@click.option("-k", type=int, help="Stones in a row needed to win.")
@click.option("--gravity", is_flag=True, help="Stones drop to the lowest empty cell (Connect-k).")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print one JSON object (with --stdin: one per input line).",
)
@click.option(
    "--save", "save_path", type=NonEmptyPath(dir_okay=False), help="Write the table here."
)
@click.option("--force", is_flag=True, help="overwrite FILE even if it is not a fastttt table")
@click.option(
    "--load",
    "load_path",
    type=NonEmptyPath(),
    help="Read a saved table instead of solving: a file (--save) or a layered "
    "table's folder (--out), opened lazily.",
)
@click.option("--position", help="Also report this position (text form, e.g. X.O/.X./..O).")
@click.option(
    "--moves",
    help="Also report the position after these moves, typed as on the "
    'play screen and separated by spaces: "2,2 1,1" (row,col from 1), gravity '
    'columns from 1 (4455 or "4 4 5 5"), ultimate board,cell ("5,5 5,1").',
)
@click.option(
    "--max-memory",
    type=FiniteFloat(min=0, min_open=True, max=1e6),
    help="Refuse solves needing more than this many GiB.",
)
@click.option(
    "--stdin",
    is_flag=True,
    help="Filter: one position per input line, solved by search; with --load a move list "
    "(as --moves) or a position (as --position) per line, looked up in the table.",
)
@click.option(
    "--all-moves",
    is_flag=True,
    help="The exact score of every move (by search): of each --stdin line, or of the position of "
    "--moves/--position (default: the empty board).",
)
@click.option("--weak", is_flag=True, help="With --stdin: win/draw/loss only (faster).")
@click.option("--nodes", is_flag=True, help="With --stdin: add node count and microseconds.")
@click.option(
    "--max-nodes",
    type=click.IntRange(min=1),
    default=5_000_000,
    show_default=True,
    help="ultimate: node budget of the exact search before it settles for an estimate.",
)
@click.option(
    "--search",
    is_flag=True,
    help="Value of the empty board (or --position/--moves) by search, no table: "
    "pairing, threat-space, df-pn and alpha-beta under one budget.",
)
@click.option(
    "--budget",
    help="With --search: stop with the bounds proven so far after this "
    "much work: a time (30s, 2m, 1.5h), a node count (1e7nodes), or both "
    "(60s,1e8nodes: whichever comes first). Default: until solved.",
)
@click.option(
    "--method",
    type=click.Choice(["auto", "pairing", "threats", "dfpn", "dfpn-narrowed", "alphabeta"]),
    default="auto",
    show_default=True,
    help="With --search: the portfolio (auto) or one method alone.",
)
@click.option(
    "--threads",
    type=click.IntRange(min=1, max=2),
    help="With --search: 2 runs the methods side by side on 2 cores (alpha-beta and each "
    "df-pn step on a thread of its own: up to 3 threads); 1 gives them turns. A node "
    "budget keeps the turns (its answer does not depend on timing).  "
    "[default: 2 on 2 cores or more]",
)
@click.option(
    "--tt-bits",
    type=click.IntRange(16, 32),
    help="With --search: df-pn's table of 2**N rows of 32 bytes (a free board's narrowed "
    "step has a second one; alpha-beta and the Connect Four engine keep their own).  "
    "[default: by board size, at most 23: 256 MiB]",
)
@click.option(
    "--engine",
    type=click.Choice(["auto", "dense", "layered"]),
    default="auto",
    show_default=True,
    help="dense: one table in RAM (small free boards); layered: "
    "layer by layer (gravity, bigger boards, --out); auto picks.",
)
@click.option(
    "--out",
    "out_dir",
    type=NonEmptyPath(file_okay=False),
    help="Layered: keep the layers in this folder (chunked, checksummed, resumable); "
    "only two layers are then in memory.",
)
@click.option("--resume", is_flag=True, help="Layered: go on with the solve already in --out.")
@click.option(
    "--symmetry/--no-symmetry",
    default=True,
    show_default=True,
    help="Layered: store one position per symmetry class.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=1024),
    help="Layered: run the chunks on a local Dask cluster of N processes (needs --out). "
    "With --search: df-pn's questions split at the root on N processes.",
)
@click.option(
    "--scheduler",
    type=SchedulerAddress(),
    help="Layered: run the chunks on the Dask cluster at this address "
    "(needs --out on a folder every worker sees). With --search: the root split's tasks.",
)
@click.option(
    "--checkpoint",
    type=NonEmptyPath(dir_okay=False),
    help="With --search --workers/--scheduler: keep the root split's answers in this JSON "
    "file, and go on from the answers already in it.",
)
@click.option(
    "--wdl/--depth",
    default=None,
    help="Layered: keep win/draw/loss only, four positions a byte (a quarter of the value "
    "layers; depths are searched when asked), or value and depth a byte.  [default: --depth, "
    "--wdl past 2**33 slots (Connect Four 6x6), a resumed table's own]",
)
@click.option(
    "--live/--reachable",
    default=None,
    help="Layered: solve every position with no line, reachable or not, with no forward "
    "pass (no reach layers; on Connect Four 99% of them are reachable), or find the "
    "reachable positions first and count them.  [default: --reachable, a resumed table's own]",
)
@click.option(
    "--keep-every",
    type=click.IntRange(min=1, max=8),
    default=None,
    metavar="K",
    help="Layered (implies --live --wdl): keep only the value layers that are multiples of K, "
    "each other one deleted once the layer below it is solved (a finished table about K times "
    "smaller; a probe searches at most K - 1 plies down to a kept layer).  [default: 1, a "
    "resumed table's own]",
)
@click.option(
    "--chunk",
    type=click.IntRange(min=1),
    default=None,
    metavar="SLOTS",
    help="Layered: slots a chunk (a file and a task each; a multiple of 4 with --wdl). Larger "
    "chunks mean fewer files on the biggest boards (each takes up to 8 KiB of blocks) and more "
    "memory a task.  [default: 1048576, 16777216 past 2**33 slots (Connect Four 6x6), a "
    "resumed table's own]",
)
@click.option(
    "--index",
    type=click.Choice(["heights", "column-runs"]),
    default="heights",
    show_default=True,
    help="Layered: the layer index; column-runs (gravity boards, in memory) leaves out the "
    "colourings no game reaches (fewer slots, slower sweeps).",
)
def solve(**params) -> None:
    """Solve GAME (default tictactoe): value and depth of every reachable position.

    GAME is tictactoe, connect4, mnk or connect (with --rows/--cols/-k), a compact form such as
    4x4k3 or 4x5k4g (rows x cols, k, g = gravity), or ultimate.
    """
    args = SolveArgs(**params)
    exact_game = _game_without_board(args.game or "tictactoe")
    mode = _solve_mode(args, board=exact_game is None)
    _refuse_unread_options(click.get_current_context(), mode)
    if args.force and not args.save_path:
        raise click.UsageError("--force goes with --save FILE")
    if args.checkpoint and not (args.workers or args.scheduler):
        raise click.UsageError("--checkpoint keeps a root split's answers: give --workers N")
    if exact_game is not None:
        from fastttt.cli.solve_exact import solve_exact

        return solve_exact(exact_game, args.moves, args.as_json, args.max_nodes)
    game = _board_game(args)
    if args.stdin and args.load_path:
        from fastttt.cli.solve_probe import probe_filter

        return probe_filter(args.load_path, game if args.game_given else None, args.as_json)
    if args.stdin:
        from fastttt.cli.solve_filter import solve_filter

        return solve_filter(game, args.all_moves, args.weak, args.nodes, args.as_json)
    if args.position is not None and args.moves is not None:
        raise click.UsageError("give --position or --moves, not both")
    if args.all_moves:
        from fastttt.cli.solve_filter import one_position_line, solve_filter

        line = one_position_line(game, args.position, args.moves)
        return solve_filter(
            game, True, args.weak, args.nodes, args.as_json, source=io.StringIO(line)
        )
    if args.search:
        from fastttt.cli.solve_search import solve_by_search

        return solve_by_search(
            game,
            args.position,
            args.moves,
            args.as_json,
            args.budget,
            args.method,
            split=(args.workers or 1, args.scheduler, args.checkpoint),
            threads=args.threads,
            tt_bits=args.tt_bits,
        )
    from fastttt.cli.solve_table import solve_table

    return solve_table(game, args)
