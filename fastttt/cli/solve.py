"""``fastttt solve``: strong solution of a board, a position query, or a search filter."""

from __future__ import annotations

import json
import os
import resource
import sys
import time

import click

from fastttt.errors import FastTTTError, GameSpecError, MemoryBudgetError
from fastttt.games import GameSpec
from fastttt.registry import load_game

PROGRESS_MIN_SLOTS = 20_000_000  # show a progress bar above ~1 s of work


def _spec_from_args(game, rows, cols, k, gravity):
    try:
        return load_game(game, rows=rows, cols=cols, k=k, gravity=gravity or None)
    except GameSpecError as err:
        raise click.UsageError(str(err)) from None


def _peak_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _parse_moves(spec, text: str) -> list[int]:
    """--moves in API form (:func:`fastttt.movetext.parse_moves`: with gravity 1-based columns,
    as digits "4455" or comma-separated; otherwise comma-separated 0-based cells, "0 4"
    refused)."""
    from fastttt.movetext import parse_moves

    try:
        return parse_moves(spec, text)
    except FastTTTError as err:
        raise click.BadParameter(str(err), param_hint="--moves") from None


# The options each mode of ``solve`` reads (click parameter names; GAME is read by all), and
# what the mode does. An option given on the command line that its mode does not read is
# refused with a one-line usage error, never ignored.
_GAME = {"rows", "cols", "k", "gravity"}
_LAYERED = {"engine", "out_dir", "resume", "symmetry", "workers", "scheduler"}
MODE_OPTIONS = {
    "ultimate": {"moves", "as_json", "max_nodes"},
    "--stdin": _GAME | {"stdin", "all_moves", "weak", "nodes"},
    "--search": _GAME | {"search", "position", "moves", "as_json", "budget", "method"},
    "--load": _GAME | {"load_path", "save_path", "force", "position", "moves", "as_json"},
    "a table solve": _GAME | _LAYERED | {"save_path", "force", "position", "moves", "as_json",
                                         "max_memory"},
}
MODE_WORDS = {
    "ultimate": "ultimate is solved by search from --moves",
    "--stdin": "--stdin reads one position per line",
    "--search": "--search uses no table",
    "--load": "--load reads a solved table",
    "a table solve": "solving a table",
}


def _solve_mode(game, stdin, search, load_path) -> str:
    if game is not None and game.strip().lower() == "ultimate":
        return "ultimate"
    if stdin:
        return "--stdin"
    if search:
        return "--search"
    return "--load" if load_path else "a table solve"


def _refuse_unread_options(ctx: click.Context, mode: str) -> None:
    """A one-line usage error naming the options given that ``mode`` would ignore."""
    from click.core import ParameterSource

    flags = {p.name: "/".join(p.opts[:1] + p.secondary_opts[:1])
             for p in ctx.command.params if isinstance(p, click.Option)}
    given = [name for name in flags
             if ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)]
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
            sorted(flags[name] for name in read - _GAME if flags[name] != mode))
        if read & _GAME:
            hint += " and the game options"
    raise click.UsageError(f"{MODE_WORDS[mode]}: drop {', '.join(flags[n] for n in unread)} "
                           f"({hint})")


def _run_solve(spec: GameSpec, max_bytes, show_progress: bool):
    from fastttt.layout import slot_count
    from fastttt.solver import solve

    if not show_progress or slot_count(spec) < PROGRESS_MIN_SLOTS:
        return solve(spec, max_bytes=max_bytes)
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from fastttt.solver import estimate_memory, format_bytes

    click.echo(f"solving {spec.name} ({spec.describe()}): about "
               f"{format_bytes(estimate_memory(spec))} of memory", err=True)

    columns = (
        TextColumn("{task.description:<13}"),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f}%"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, transient=True) as bar:
        task = bar.add_task("reachability", total=1.0)

        def report(phase: str, done: int, total: int) -> None:
            bar.update(task, description=phase, completed=done / total)

        return solve(spec, report, max_bytes=max_bytes)


def _physical_memory() -> int | None:
    """Bytes of RAM of this machine, None when unknown."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def _memory_limit(max_memory) -> tuple[int | None, str]:
    """--max-memory in bytes, and a note for a refusal. Above this machine's physical memory
    it is capped at 90% of the memory available now (the default limit): more would end in
    MemoryError or the OOM killer."""
    if max_memory is None:
        return None, ""
    max_bytes = int(max_memory * 2**30)
    physical = _physical_memory()
    if physical is not None and max_bytes > physical:
        from fastttt.solver import available_memory, format_bytes

        cap = min(physical, int(0.9 * available_memory()))
        return cap, (f" (--max-memory {max_memory:g} GiB is more than this machine's "
                     f"{format_bytes(physical)} of memory)")
    return max_bytes, ""


def _size_refusal(err: BaseException, note: str) -> str:
    """One line for a solve that does not fit: the estimate and what to use instead."""
    text = " ".join(str(err).split()).rstrip(".") + note
    if isinstance(err, MemoryBudgetError):
        if "exact search" in text:
            text = text.replace("exact search", "exact search (--search)", 1)
        elif "--search" not in text:
            text += "; for the value of one position use --search"
    else:  # MemoryError from an allocation
        text = (f"out of memory ({text or 'allocation failed'}); lower --max-memory, or use "
                "--search for one position")
    return text


def _load(path, expected):
    """A saved table: a folder is a layered table (opened lazily), a file a dense one
    (anything else is refused before it is opened: a FIFO would block)."""
    from pathlib import Path

    if Path(path).is_dir():
        from fastttt.tables.probe import open_table

        return open_table(path, expected)
    from fastttt.store import load

    return load(path, expected)


def _run_layered(spec, max_bytes, show_progress, out_dir, resume, symmetry, workers,
                 scheduler):
    """Layered solve with its plan announced, progress by layer, and Dask when asked."""
    from fastttt.solver import format_bytes
    from fastttt.tables.layered import solve_layered

    def announce(plan):
        if plan.slots >= PROGRESS_MIN_SLOTS or out_dir:
            where = f"in {out_dir}" if out_dir else "in memory"
            disk = f", at most {format_bytes(plan.disk_bytes)} of disk" if out_dir else ""
            click.echo(f"solving {spec.name} ({spec.describe()}) layer by layer {where}: "
                       f"{plan.slots:,} slots in {len(plan.sizes)} layers, index "
                       f"{plan.index.kind}, symmetry {plan.index.symmetry}; about "
                       f"{format_bytes(plan.memory_bytes)} of memory{disk}", err=True)

    cluster = client = None
    runner_factory = None
    if workers or scheduler:
        from fastttt.tables import distributed

        if workers:
            cluster, client = distributed.local_cluster(workers)
        else:
            client = distributed.connect(scheduler)

        def runner_factory(work):
            return distributed.DaskRunner(work, client)

    kwargs = dict(symmetry=symmetry, out=out_dir, resume=resume, max_bytes=max_bytes,
                  runner_factory=runner_factory, on_plan=announce)
    try:
        with _layer_progress(show_progress) as report:
            return solve_layered(spec, progress=report, **kwargs)
    except KeyboardInterrupt:
        if not out_dir:
            raise  # the command's one line: "Interrupted."
        click.echo(f"Interrupted: the finished layers are in {out_dir}; the same command "
                   "with --resume goes on from there.", err=True)
        from fastttt.cli import INTERRUPTED_EXIT

        sys.exit(INTERRUPTED_EXIT)
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()


class _layer_progress:
    """A context giving a progress callback: a rich bar on a terminal (started at the first
    report, so after the plan is printed), else one line per layer on stderr for long solves
    (logs of background runs). Rates and ETAs are per phase (reach, then value)."""

    def __init__(self, on_terminal: bool):
        self.on_terminal = on_terminal
        self.bar = None
        self.started = time.perf_counter()
        self.layer = None
        self.phase_start = (self.started, 0)

    def __enter__(self):
        return self.report

    def _start_bar(self) -> None:
        from rich.progress import (
            BarColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.bar = Progress(TextColumn("{task.description:<16}"), BarColumn(),
                            TextColumn("{task.percentage:>3.0f}%"),
                            TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
                            TextColumn("ETA"), TimeRemainingColumn(), transient=True)
        self.bar.__enter__()
        self.task = self.bar.add_task("", total=1.0, rate="")

    def report(self, phase: str, layer: int, done: int, total: int) -> None:
        new_phase = self.layer is None or self.layer[0] != phase
        if new_phase:
            self.phase_start = (time.perf_counter(), done)
        seconds = time.perf_counter() - self.phase_start[0]
        rate = (done - self.phase_start[1]) / seconds if seconds > 1 else 0.0
        if self.on_terminal:
            if self.bar is None:
                self._start_bar()
            elif new_phase:
                self.bar.reset(self.task)
            self.layer = (phase, layer)
            self.bar.update(self.task, description=f"{phase} layer {layer}",
                            completed=done / total, rate=f"{rate / 1e6:,.1f} M slots/s")
        elif (phase, layer) != self.layer and total >= PROGRESS_MIN_SLOTS:
            self.layer = (phase, layer)
            elapsed = time.perf_counter() - self.started
            eta = f", phase ETA {(total - done) / rate:,.0f} s" if rate else ""
            click.echo(f"{time.strftime('%H:%M:%S')} {phase} layer {layer}: {done:,}/{total:,} "
                       f"slots of the phase, {rate / 1e6:,.1f} M slots/s, {elapsed:,.0f} s in "
                       f"all{eta}", err=True)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
        return False


def _print_summary(solution, summary: dict, saved) -> None:
    from fastttt.solver import format_bytes

    term, vals = summary["terminal"], summary["values"]
    verdict = {"first": "first player (X) wins", "second": "second player (O) wins",
               "draw": "draw"}[summary["value"]]
    rows = [
        ("game", f"{summary['game']}  ({solution.spec.describe()})"),
        ("empty board", f"{verdict}, {summary['depth']} plies under perfect play"),
        ("reachable", f"{summary['reachable']:,} positions"),
        ("by value", f"first {vals['first']:,} · draw {vals['draw']:,} · "
                     f"second {vals['second']:,}"),
        ("finished", f"first {term['first']:,} · second {term['second']:,} · "
                     f"draw {term['draw']:,}"),
        ("time", f"{summary['seconds']:.3f} s"),
        ("memory", f"table {format_bytes(summary['table_bytes'])}, "
                   f"peak {format_bytes(_peak_rss_bytes())}"),
    ]
    if summary.get("engine") == "layered":
        rows.insert(1, ("engine", f"layered: {summary['layers']} layers, index "
                                  f"{summary['index']}, symmetry {summary['symmetry']}"))
        if summary["disk_bytes"]:
            rows.append(("disk", format_bytes(summary["disk_bytes"])))
    if saved:
        rows.append(("saved", str(saved)))
    for label, text in rows:
        click.echo(f"{label:>12}  {text}")


def _query_position(spec, position, moves):
    """The position of --position or --moves (the empty board without them); a usage error
    when the text is not a position of ``spec``."""
    from fastttt.board import Position

    try:
        if position is not None:
            return Position.from_text(spec, position)
        return Position.from_moves(spec, _parse_moves(spec, moves or ""))
    except FastTTTError as err:
        raise click.UsageError(str(err)) from None


def _query(solution, spec, position, moves) -> dict:
    from fastttt.values import value_name

    pos = _query_position(spec, position, moves)
    try:
        value, depth = solution.value(pos), solution.depth(pos)
    except FastTTTError as err:
        raise click.UsageError(str(err)) from None
    best = solution.best_moves(pos)
    return {
        "position": str(pos),
        "to_move": "first" if pos.to_move == 0 else "second",
        "value": value_name(value),
        "depth": depth,
        "best_moves": [m + 1 for m in best] if spec.gravity else best,
    }


@click.command()
@click.argument("game", required=False)
@click.option("--rows", type=int, help="Number of rows (overrides the game's).")
@click.option("--cols", type=int, help="Number of columns (overrides the game's).")
@click.option("-k", type=int, help="Stones in a row needed to win.")
@click.option("--gravity", is_flag=True, help="Stones drop to the lowest empty cell (Connect-k).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--save", "save_path", type=click.Path(dir_okay=False), help="Write the table here.")
@click.option("--force", is_flag=True,
              help="overwrite FILE even if it is not a fastttt table")
@click.option("--load", "load_path", type=click.Path(),
              help="Read a saved table instead of solving: a file (--save) or a layered "
              "table's folder (--out), opened lazily.")
@click.option("--position", help="Also report this position (text form, e.g. X.O/.X./..O).")
@click.option("--moves", help="Also report the position after these moves "
              "(gravity: 1-based column digits such as 4455; else comma-separated 0-based cells; "
              "ultimate: comma-separated moves 0..80).")
@click.option("--max-memory", type=click.FloatRange(min=0, min_open=True, max=1e6),
              help="Refuse solves needing more than this many GiB.")
@click.option("--stdin", is_flag=True, help="Filter: solve one position per input line by search.")
@click.option("--all-moves", is_flag=True, help="With --stdin: the score of every move.")
@click.option("--weak", is_flag=True, help="With --stdin: win/draw/loss only (faster).")
@click.option("--nodes", is_flag=True, help="With --stdin: add node count and microseconds.")
@click.option("--max-nodes", type=click.IntRange(min=1), default=5_000_000, show_default=True,
              help="ultimate: node budget of the exact search before it settles for an estimate.")
@click.option("--search", is_flag=True,
              help="Value of the empty board (or --position/--moves) by search, no table: "
              "pairing, threat-space, df-pn and alpha-beta under one budget.")
@click.option("--budget", help="With --search: stop with the bounds proven so far after this "
              "much work: a time (30s, 2m, 1.5h), a node count (1e7nodes), or both "
              "(60s,1e8nodes: whichever comes first). Default: until solved.")
@click.option("--method", type=click.Choice(["auto", "pairing", "threats", "dfpn", "alphabeta"]),
              default="auto", show_default=True,
              help="With --search: the portfolio (auto) or one method alone.")
@click.option("--engine", type=click.Choice(["auto", "dense", "layered"]), default="auto",
              show_default=True, help="dense: one table in RAM (small free boards); layered: "
              "layer by layer (gravity, bigger boards, --out); auto picks.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False),
              help="Layered: keep the layers in this folder (chunked, checksummed, resumable); "
              "only two layers are then in memory.")
@click.option("--resume", is_flag=True, help="Layered: go on with the solve already in --out.")
@click.option("--symmetry/--no-symmetry", default=True, show_default=True,
              help="Layered: store one position per symmetry class.")
@click.option("--workers", type=click.IntRange(min=1, max=1024),
              help="Layered: run the chunks on a local Dask cluster of N processes (needs --out).")
@click.option("--scheduler", help="Layered: run the chunks on the Dask cluster at this address "
              "(needs --out on a folder every worker sees).")
def solve(game, rows, cols, k, gravity, as_json, save_path, force, load_path, position, moves,
          max_memory, stdin, all_moves, weak, nodes, max_nodes, search, engine, out_dir, resume,
          symmetry, workers, scheduler, budget, method):
    """Solve GAME (default tictactoe): value and depth of every reachable position.

    GAME is tictactoe, connect4, mnk or connect (with --rows/--cols/-k), a compact form such as
    4x4k3 or 4x5k4g (rows x cols, k, g = gravity), or ultimate.
    """
    mode = _solve_mode(game, stdin, search, load_path)
    _refuse_unread_options(click.get_current_context(), mode)
    game_given = game is not None or any(v is not None for v in (rows, cols, k)) or gravity
    game = "tictactoe" if game is None else game
    if force and not save_path:
        raise click.UsageError("--force goes with --save FILE")
    if mode == "ultimate":
        return _solve_ultimate(moves, as_json, max_nodes)
    spec = _spec_from_args(game, rows, cols, k, gravity)
    if stdin:
        from fastttt.connect4 import run_filter

        try:
            bad = run_filter(spec, sys.stdin, sys.stdout, sys.stderr,
                             all_moves=all_moves, weak=weak, nodes=nodes)
        except FastTTTError as err:
            raise click.UsageError(str(err)) from None
        sys.exit(1 if bad else 0)
    if position is not None and moves is not None:
        raise click.UsageError("give --position or --moves, not both")
    if search:
        return _solve_by_search(spec, position, moves, as_json, budget, method)
    if not load_path and (position is not None or moves is not None):
        _query_position(spec, position, moves)  # a bad query is refused before the solve

    if max_memory is not None and max_memory != max_memory:  # NaN passes FloatRange
        raise click.BadParameter("must be a number of GiB", param_hint="--max-memory")
    max_bytes, capped = _memory_limit(max_memory)
    if resume and not out_dir:
        raise click.UsageError("--resume goes on with the solve in --out DIR: give --out")
    if (workers or scheduler) and not out_dir:
        raise click.UsageError("--workers and --scheduler share the layers through a folder: "
                               "give --out DIR")
    if workers and scheduler:
        raise click.UsageError("give --workers (a local cluster) or --scheduler, not both")
    started = time.perf_counter()
    try:
        if save_path:  # before any work: a refused target would lose the solve
            from fastttt.store import check_save_target

            check_save_target(save_path, force)
        if load_path:
            solution = _load(load_path, spec if game_given else None)
            spec = solution.spec
        else:
            from fastttt.tables.layered import choose_engine

            try:
                engine = choose_engine(spec, engine, out=out_dir,
                                       distributed=bool(workers or scheduler),
                                       max_bytes=max_bytes, save=bool(save_path))
            except ValueError as err:
                raise click.UsageError(str(err)) from None
            if engine == "layered" and save_path:
                raise click.UsageError("a layered table is kept with --out DIR, not --save FILE")
            source = click.get_current_context().get_parameter_source("symmetry")
            if engine == "dense" and source == click.core.ParameterSource.COMMANDLINE:
                raise click.UsageError("--symmetry/--no-symmetry: not used by the dense engine "
                                       "(it goes with the layered one)")
            show = sys.stderr.isatty() and not as_json
            if engine == "dense":
                solution = _run_solve(spec, max_bytes, show)
            else:
                solution = _run_layered(spec, max_bytes, show, out_dir, resume, symmetry,
                                        workers, scheduler)
        saved = None
        if save_path:
            from fastttt.solver import Solution
            from fastttt.store import save

            if not isinstance(solution, Solution):
                raise click.UsageError("a layered table is kept with --out DIR, not --save FILE")
            saved = save(solution, save_path, force=force)
    except MemoryError as err:  # MemoryBudgetError (the estimate) or a failed allocation
        click.echo(f"Error: {_size_refusal(err, capped)}", err=True)
        sys.exit(1)
    except (FastTTTError, OSError) as err:
        click.echo(f"Error: {err}", err=True)
        sys.exit(1)
    summary = solution.summary()
    summary.setdefault("engine", "dense")
    summary.setdefault("layers", None)
    summary.setdefault("disk_bytes", 0)
    if load_path:  # this command's time; the table's own solve time stays beside it
        summary["solve_seconds"] = summary["seconds"]
        summary["seconds"] = round(time.perf_counter() - started, 6)
    if position is not None or moves is not None:
        summary["query"] = _query(solution, spec, position, moves)
    if as_json:
        click.echo(json.dumps(summary))
        return
    _print_summary(solution, summary, saved)
    if "query" in summary:
        q = summary["query"]
        click.echo(f"{'position':>12}  {q['position']} ({q['to_move']} to move): {q['value']} "
                   f"in {q['depth']} plies, best moves {q['best_moves']}")


_BUDGET_UNITS = {"s": 1.0, "sec": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0}
_BUDGET_HELP = ("a time (30s, 2m, 1.5h), a node count (1e7nodes) or both, comma-separated "
                "(60s,1e8nodes)")
PROGRESS_AFTER = 2.0  # seconds: a search that runs longer reports each step on stderr


def parse_budget(text: str | None) -> tuple[int | None, float | None]:
    """``--budget`` as ``(nodes, seconds)`` (None: no limit of that kind). Accepts times
    ``30s``, ``2m``, ``1.5h``, node counts ``1e7nodes`` (or ``1e7n``), and both joined by a
    comma; raises click.BadParameter naming what is wrong."""
    import math
    import re

    if text is None:
        return None, None
    nodes = seconds = None
    parts = [p.strip() for p in text.split(",")]
    if not text.strip() or any(not p for p in parts) or len(parts) > 2:
        raise click.BadParameter(f"expected {_BUDGET_HELP}, got {text!r}", param_hint="--budget")
    for part in parts:
        match = re.fullmatch(r"([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([a-zA-Z]+)", part)
        unit = match.group(2).lower() if match else ""
        if not match or unit not in (*_BUDGET_UNITS, "n", "nodes"):
            raise click.BadParameter(f"{part!r} is not {_BUDGET_HELP}", param_hint="--budget")
        value = float(match.group(1))
        if unit in ("n", "nodes"):
            if nodes is not None or not 1 <= value <= 1e15 or value != math.floor(value):
                raise click.BadParameter(f"{part!r}: a node count is a whole number from 1 to "
                                         "1e15, given once", param_hint="--budget")
            nodes = int(value)
        else:
            value *= _BUDGET_UNITS[unit]
            if seconds is not None or not 0 < value <= 1e9:
                raise click.BadParameter(f"{part!r}: a time is more than 0 and given once",
                                         param_hint="--budget")
            seconds = value
    return nodes, seconds


def _move_words(spec, moves) -> list[int]:
    """Moves as the command line writes them: 1-based columns with gravity, else cells."""
    return [m + 1 for m in moves] if spec.gravity else list(moves)


class _SearchProgress:
    """A line on stderr after each step of the portfolio, once the search has run for
    PROGRESS_AFTER seconds (at once on a terminal)."""

    def __init__(self, player: str):
        self.start = time.perf_counter()
        self.eager = sys.stderr.isatty()
        self.player = player

    def __call__(self, step, bounds) -> None:
        from fastttt.prove import VALUE_WORDS

        elapsed = time.perf_counter() - self.start
        if not self.eager and elapsed < PROGRESS_AFTER:
            return
        low, high = VALUE_WORDS[bounds[0]], VALUE_WORDS[bounds[1]]
        span = low if low == high else f"{low} .. {high}"
        click.echo(f"{elapsed:8.1f} s  {step.method:<17} {step.question}: {step.answer} "
                   f"({step.nodes:,} nodes, {step.seconds:.2f} s); {self.player}: {span}",
                   err=True)


def _solve_by_search(spec, position, moves, as_json, budget, method):
    """``solve --search``: the value of one position by the portfolio of
    :func:`fastttt.prove.prove` (or one of its methods), within ``--budget``."""
    from fastttt.players import QUICK_SEARCH_CELLS
    from fastttt.prove import VALUE_WORDS, prove

    budget_nodes, budget_seconds = parse_budget(budget)
    pos = _query_position(spec, position, moves)
    if pos.is_over():
        raise click.UsageError(f"the game is already over in {pos}: nothing to search")
    methods = None
    if method != "auto":
        if spec.gravity and method in ("pairing", "threats"):
            raise click.UsageError(f"--method {method} needs a free board (no gravity)")
        methods = ("strategy-stealing", method) if method == "pairing" else (method,)
    empty = spec.cells - pos.ply
    quick = QUICK_SEARCH_CELLS[spec.gravity]
    if budget is None and empty > quick:
        click.echo(f"Warning: exact search with {empty} empty cells can take minutes to hours "
                   f"(quick up to about {quick}); Ctrl-C stops it, --budget bounds it",
                   err=True)
    player = "first player (X)" if pos.to_move == 0 else "second player (O)"
    if budget_seconds is not None:  # a first run compiles the provers: not on the budget
        from fastttt import dfpn, search

        if sys.stderr.isatty():
            sys.stderr.write("Loading the search kernels (the first run on a machine compiles "
                             "them: a minute or two)...")
            sys.stderr.flush()
        dfpn.warmup()
        search.warmup(wide=not search.fits_64(spec))
        if sys.stderr.isatty():
            sys.stderr.write("\r\x1b[K")
    try:
        result = prove(pos, budget_nodes=budget_nodes, budget_seconds=budget_seconds,
                       methods=methods, progress=_SearchProgress(f"{player} to move"))
    except FastTTTError as err:
        raise click.UsageError(str(err)) from None
    low, high = (VALUE_WORDS[b] for b in result.bounds)
    out = {
        "game": spec.name, "position": str(pos),
        "to_move": "first" if pos.to_move == 0 else "second",
        "value": VALUE_WORDS[result.value] if result.value is not None else "unknown",
        "winner": result.winner, "method": result.method,
        "nodes": result.nodes, "seconds": round(result.seconds, 6),
        "proof_size": result.proof_size,
        "line": _move_words(spec, result.line) if result.line is not None else None,
        "bounds": {"low": low, "high": high, "low_by": result.lower_by,
                   "high_by": result.upper_by},
        "budget": {"nodes": budget_nodes, "seconds": budget_seconds},
        "steps": [{"method": st.method, "question": st.question, "answer": st.answer,
                   "nodes": st.nodes, "seconds": round(st.seconds, 6)} for st in result.steps],
    }
    if result.pairs is not None:
        out["pairs"] = [list(p) for p in result.pairs]
    if as_json:
        click.echo(json.dumps(out))
        return
    if result.value is None:
        verdict = f"unknown within budget: {low} .. {high} for the {player}"
    else:
        verdict = f"{VALUE_WORDS[result.value]} for the {player}"
        if result.winner in ("first", "second"):
            verdict += f" ({result.winner} player wins)"
    rows = [
        ("game", f"{spec.name}  ({spec.describe()})"),
        ("position", f"{pos}  ({player} to move)"),
        ("value", verdict),
        ("method", result.method or "none proved it (bounds by "
         f"{result.lower_by or '-'} / {result.upper_by or '-'})"),
        ("nodes", f"{result.nodes:,}"),
        ("seconds", f"{result.seconds:.3f}"),
    ]
    if result.proof_size:  # 0: arguments only (pairing, strategy stealing), no search graph
        rows.append(("proof size", f"{result.proof_size:,} positions"))
    if out["line"] is not None:
        rows.append(("line", ",".join(str(m) for m in out["line"])))
    if result.pairs is not None:
        rows.append(("pairs", " ".join(f"{a}-{b}" for a, b in result.pairs)))
    for label, text in rows:
        click.echo(f"{label:>12}  {text}")


def _print_fields(out: dict, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(out))
    else:
        for key, val in out.items():
            click.echo(f"{key:>12}  {val}")


def _solve_ultimate(moves, as_json, max_nodes):
    from fastttt import ultimate

    parsed = _parse_moves(ultimate.ULTIMATE, moves or "")
    try:
        state = ultimate.UltimateState.from_moves(parsed)
    except ValueError as err:
        raise click.UsageError(f"--moves: {err}") from None
    verdict, score, best, nodes = ultimate.solve_exact(state, node_budget=max_nodes)
    out = {"game": "ultimate", "moves": parsed, "verdict": verdict, "score": score,
           "best_move": best, "nodes": nodes}
    _print_fields(out, as_json)
