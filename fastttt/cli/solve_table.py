"""``fastttt solve`` of a board game into a table: dense or layered (``--out``, Dask), or a
saved one read back (``--load``), with a position's value on request."""

from __future__ import annotations

import os
import sys
import time

import click

from fastttt.cli.memory import memory_limit, peak_rss_bytes
from fastttt.cli.moves import format_line, query_state
from fastttt.cli.output import emit
from fastttt.cli.progress import Progress, rate_text
from fastttt.errors import FastTTTError, MemoryBudgetError
from fastttt.games.registry import as_game
from fastttt.values import RESULT_WORDS

PROGRESS_MIN_SLOTS = 20_000_000  # announce solves above ~1 s of work
BIG_SOLVE_BYTES = 2**30  # an in-memory solve above this names --out (disk-backed) first
_OUT_HINT = "; --out DIR solves it layer by layer on disk, with two layers in memory"
SIDES = ("first", "second")


def _run_solve(spec, max_bytes, show_progress: bool):
    from fastttt.memory import format_bytes
    from fastttt.tables.dense import estimate_memory, fits_in_memory, solve
    from fastttt.tables.layout import slot_count

    memory = estimate_memory(spec)
    announce = slot_count(spec) >= PROGRESS_MIN_SLOTS or memory >= BIG_SOLVE_BYTES
    if announce and fits_in_memory(spec, max_bytes):  # else solve() refuses it
        hint = _OUT_HINT if memory >= BIG_SOLVE_BYTES else ""
        click.echo(
            f"solving {spec.name} ({spec.describe()}) in memory: about "
            f"{format_bytes(memory)}{hint}",
            err=True,
        )
    with Progress(f"solving {spec.name}", unit="slots", terminal=show_progress) as shown:

        def report(phase: str, done: int, total: int) -> None:
            shown.update(done, total, what=phase)

        return solve(spec, report, max_bytes=max_bytes)


def _size_refusal(err: BaseException, note: str, spec) -> str:
    """One line for a solve that does not fit: the estimate and what works instead."""
    text = " ".join(str(err).split()).rstrip(".") + note
    if isinstance(err, MemoryBudgetError):
        text = text.split(". Use exact search")[0]  # the dense solver's hint: named below
    else:  # MemoryError from an allocation
        text = f"out of memory ({text or 'allocation failed'}); lower --max-memory"
    return f"{text}. Instead: {alternatives(spec)}"


def alternatives(spec) -> str:
    """What answers questions about ``spec`` without its whole table: search for one position
    (``--search``), the ``--stdin`` filter, and an opening book on gravity boards it takes."""
    from fastttt.search.book import MAX_DEPTH, can_have_book

    ways = [
        "--search values one position (--position/--moves; --budget bounds it)",
        "--stdin values positions read one per line",
    ]
    if can_have_book(spec):
        name = spec.short_name
        ways.append(
            f"fastttt book build {name} --depth N (up to {MAX_DEPTH}) keeps the exact "
            "score of every opening of N plies"
        )
    return ", ".join(ways)


def _run_layered(
    spec,
    max_bytes,
    show_progress,
    out_dir,
    resume,
    symmetry,
    workers,
    scheduler,
    wdl=None,
    index="heights",
    live=None,
    keep_every=None,
    chunk=None,
):
    """Layered solve with its plan announced, progress by layer, and Dask when asked."""
    from fastttt.memory import format_bytes
    from fastttt.tables.layered import solve_layered

    shown = _layer_progress(show_progress)

    def announce(plan):
        big = not out_dir and plan.memory_bytes >= BIG_SOLVE_BYTES
        if plan.slots >= PROGRESS_MIN_SLOTS or out_dir or big:
            live = plan.positions == "live"
            where = f"in {out_dir}" if out_dir else "in memory"
            disk = f", about {format_bytes(plan.disk_bytes)} of disk" if out_dir else ""
            disk += _OUT_HINT if big else ""
            if plan.on_disk and plan.mode == "windowed":  # the whole layers do not fit
                disk += (
                    "; windowed: only the neighbour chunks each chunk reads are held, and "
                    f"{format_bytes(plan.spare_bytes)} of those used last"
                )
            shown.say(
                f"solving {spec.name} ({spec.describe()}) layer by layer {where}: "
                f"{plan.slots:,} slots in {len(plan.sizes)} layers, index "
                f"{plan.index.kind}, symmetry {plan.index.symmetry}"
                f"{', win/draw/loss only' if plan.values == 'wdl' else ''}"
                f"{', every position with no line (no forward pass)' if live else ''}"
                f"{_kept(plan.keep_every)}; about "
                f"{format_bytes(plan.memory_bytes)} of memory{disk}"
            )

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

    kwargs = dict(
        symmetry=symmetry,
        out=out_dir,
        resume=resume,
        max_bytes=max_bytes,
        runner_factory=runner_factory,
        on_plan=announce,
        values={True: "wdl", False: "depth", None: None}[wdl],
        index=index,
        positions={True: "live", False: "reachable", None: None}[live],
        keep_every=keep_every,
        chunk=chunk,
    )
    try:
        with shown as report:
            return solve_layered(spec, progress=report, **kwargs)
    except KeyboardInterrupt:
        if not out_dir:
            raise  # the command's one line: "Interrupted."
        from fastttt.tables.layer_store import MANIFEST

        if os.path.lexists(os.path.join(out_dir, MANIFEST)):
            said = (
                f"the finished layers and chunks are in {out_dir}; the same command with "
                "--resume goes on from there"
            )
        else:
            said = f"nothing was written to {out_dir} yet"
        click.echo(f"Interrupted: {said}.", err=True)
        from fastttt.cli import INTERRUPTED_EXIT

        sys.exit(INTERRUPTED_EXIT)
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()


def _kept(keep_every: int) -> str:
    """The layers a table keeps, in words (nothing when it keeps them all)."""
    return f", one value layer in {keep_every} kept" if keep_every > 1 else ""


class _layer_progress:
    """A context giving the layered solve's progress callback, shown the way of every command
    (:class:`fastttt.cli.progress.Progress`) from the first report: the phase and layer, slots
    of the phase, their rate and the phase's ETA (drains and windows, measured before the plan
    is printed when layers drain or the solve goes windowed, then reach and value)."""

    def __init__(self, on_terminal: bool):
        self.shown = Progress("", unit="slots of the phase", terminal=on_terminal)
        self.entered = False
        self.phase: tuple[str, float, int] | None = None  # name, start time, slots done then

    def __enter__(self):
        return self.report

    def say(self, text: str) -> None:
        """A line on stderr, above the progress line once it is shown."""
        if self.entered:
            self.shown.say(text)
        else:
            click.echo(text, err=True)

    def report(self, phase: str, layer: int, done: int, total: int) -> None:
        now = time.perf_counter()
        if self.phase is None or self.phase[0] != phase:
            self.phase = (phase, now, done)
        seconds, counted = now - self.phase[1], done - self.phase[2]
        rate = rate_text(counted, seconds, "slots")
        eta = ""
        if rate and counted >= total // 100:  # a first layer's rate says little of the rest
            eta = f"phase ETA {(total - done) * seconds / counted:,.0f} s"
        note = ", ".join(part for part in (rate, eta) if part)
        what = f"{phase} layer {layer}"
        if not self.entered:
            self.shown.what = what
            self.shown.__enter__()
            self.entered = True
        self.shown.update(done, total, what=what, note=note, step=what != self.shown.what)

    def __exit__(self, *exc):
        if self.entered:
            self.shown.__exit__(*exc)
        return False


def _print_summary(solution, summary: dict, saved) -> None:
    from fastttt.memory import format_bytes

    term, vals = summary["terminal"], summary["values"]
    verdict = {
        "first": "first player (X) wins",
        "second": "second player (O) wins",
        "draw": "draw",
    }[summary["value"]]
    if summary["depth"] is None:
        played = "win/draw/loss table: no depths"
    else:
        played = f"{summary['depth']} plies under perfect play"
    rows = [
        ("game", f"{summary['game']}  ({solution.spec.describe()})"),
        ("empty board", f"{verdict}, {played}"),
        ("reachable", f"{summary['reachable']:,} positions")
        if summary.get("positions") != "live"
        else ("live", f"{summary['reachable']:,} positions with no line, reachable or not"),
        (
            "by value",
            f"first {vals['first']:,} · draw {vals['draw']:,} · second {vals['second']:,}",
        ),
        (
            "finished",
            f"first {term['first']:,} · second {term['second']:,} · draw {term['draw']:,}",
        ),
        ("time", f"{summary['seconds']:.3f} s"),
        (
            "memory",
            f"peak {format_bytes(peak_rss_bytes())}"  # a table on disk: the process alone
            if summary.get("disk_bytes")
            else f"table {format_bytes(summary['table_bytes'])}, "
            f"peak {format_bytes(peak_rss_bytes())}",
        ),
    ]
    if summary.get("positions") == "live":  # a live table keeps no finished game but draws
        rows = [row for row in rows if row[0] != "finished"]
    if summary.get("engine") == "layered":
        rows.insert(
            1,
            (
                "engine",
                f"layered: {summary['layers']} layers, index "
                f"{summary['index']}, symmetry {summary['symmetry']}"
                f"{', win/draw/loss' if summary.get('wdl') else ''}"
                f"{_kept(summary.get('keep_every', 1))}",
            ),
        )
        if summary["disk_bytes"]:
            table = format_bytes(summary["table_bytes"])
            rows.append(("disk", f"{format_bytes(summary['disk_bytes'])} ({table} uncompressed)"))
    if saved:
        rows.append(("saved", str(saved)))
    for label, text in rows:
        click.echo(f"{label:>12}  {text}")


def _query(solution, spec, state, played) -> dict:
    """The fields of one position of a solved table (``--position`` / ``--moves``); a
    win/draw/loss table's depth and best moves are searched (:mod:`fastttt.search.table_depths`)."""
    from fastttt.search.table_depths import with_depths
    from fastttt.values import relative, value_name

    searched = not getattr(solution, "has_depth", True)
    solution = with_depths(solution)
    try:
        value = solution.value(state)
        depth = solution.depth(state)
        best = [spec.format_move(state, m) for m in solution.best_moves(state)]
    except FastTTTError as err:
        raise click.UsageError(str(err)) from None
    out = {
        "position": str(state),
        "to_move": SIDES[state.to_move],
        "value": RESULT_WORDS[relative(value, state.to_move)],
        "winner": value_name(value),
        "depth": depth,
        "depth_searched": searched,
        "best_moves": best,
    }
    if played is not None:
        out["moves"] = format_line(spec, spec.initial(), played)
    return out


def solve_table(spec, args) -> None:
    """Solve ``spec`` into a table (dense or layered, or ``--load`` one) and print its summary,
    and the position of ``--position`` / ``--moves`` when asked. ``args``: the command line
    (:class:`fastttt.cli.solve.SolveArgs`)."""
    query = None
    if not args.load_path and (args.position is not None or args.moves is not None):
        query = query_state(spec, args.position, args.moves)  # refused before the solve
    max_bytes, capped = memory_limit(args.max_memory)
    _check_layered_options(args)
    started = time.perf_counter()
    try:
        if args.save_path:  # before any work: a refused target would lose the solve
            from fastttt.tables.dense_store import check_save_target

            check_save_target(args.save_path, args.force)
        if args.load_path:
            from fastttt.tables.probe import open_table

            solution = open_table(args.load_path, spec if args.game_given else None)
            spec = as_game(solution.spec)
        else:
            solution = _compute(spec, args, max_bytes)
        saved = None
        if args.save_path:
            from fastttt.tables.dense import Solution
            from fastttt.tables.dense_store import save

            if not isinstance(solution, Solution):
                raise click.UsageError("a layered table is kept with --out DIR, not --save FILE")
            saved = save(solution, args.save_path, force=args.force)
    except MemoryError as err:  # MemoryBudgetError (the estimate) or a failed allocation
        click.echo(f"Error: {_size_refusal(err, capped, spec)}", err=True)
        sys.exit(1)
    except (FastTTTError, OSError) as err:
        click.echo(f"Error: {err}", err=True)
        sys.exit(1)
    summary = solution.summary()
    summary.setdefault("engine", "dense")
    summary.setdefault("layers", None)
    summary.setdefault("disk_bytes", 0)
    if args.load_path:  # this command's time; the table's own solve time stays beside it
        summary["solve_seconds"] = summary["seconds"]
        summary["seconds"] = round(time.perf_counter() - started, 6)
    if args.position is not None or args.moves is not None:
        if query is None:  # a loaded table: its own game reads the query
            query = query_state(spec, args.position, args.moves)
        summary["query"] = _query(solution, spec, *query)
    if args.as_json:
        emit("solve", _json_fields(spec, summary, saved))
        return
    _print_summary(solution, summary, saved)
    if "query" in summary:
        q = summary["query"]
        searched = " (searched: a win/draw/loss table)" if q["depth_searched"] else ""
        best = " ".join(q["best_moves"]) or "none"
        played = f" in {q['depth']} plies{searched}, best moves {best}"
        click.echo(
            f"{'position':>12}  {q['position']} ({q['to_move']} player to move): "
            f"{q['value']}{played}"
        )


def _json_fields(spec, summary: dict, saved) -> dict:
    """The table's summary in the shape of every ``solve --json``: the empty board's
    ``value`` from the first player's view beside the ``winner``."""
    out = {
        "game": summary["game"],
        "engine": summary["engine"],
        "position": str(spec.initial()),
        "to_move": "first",
        "value": {"first": "win", "draw": "draw", "second": "loss"}[summary["value"]],
        "winner": summary["value"],
    }
    out.update((key, val) for key, val in summary.items() if key not in out and key != "value")
    if saved:
        out["saved"] = str(saved)
    return out


def _check_layered_options(args) -> None:
    if args.resume and not args.out_dir:
        raise click.UsageError("--resume goes on with the solve in --out DIR: give --out")
    if args.wdl is not None and args.engine == "dense":
        raise click.UsageError("--wdl/--depth go with the layered engine (--engine layered)")
    if args.live is not None and args.engine == "dense":
        raise click.UsageError("--live/--reachable go with the layered engine (--engine layered)")
    if args.chunk is not None and not args.out_dir:
        raise click.UsageError("--chunk cuts the layers kept in --out DIR: give --out")
    if args.keep_every is not None and args.engine == "dense":
        raise click.UsageError("--keep-every goes with the layered engine (--engine layered)")
    if args.keep_every is not None and args.keep_every > 1 and args.live is False:
        raise click.UsageError("--keep-every keeps layers of a live table, not --reachable")
    if args.keep_every is not None and args.keep_every > 1 and args.wdl is False:
        raise click.UsageError("--keep-every keeps layers of a win/draw/loss table, not --depth")
    if args.live and args.index == "column-runs":
        raise click.UsageError("--live takes the heights index, not --index column-runs")
    if (args.workers or args.scheduler) and not args.out_dir:
        raise click.UsageError(
            "--workers and --scheduler share the layers through a folder: give --out DIR"
        )
    if args.workers and args.scheduler:
        raise click.UsageError("give --workers (a local cluster) or --scheduler, not both")
    if args.index == "column-runs" and (args.engine == "dense" or args.out_dir):
        raise click.UsageError(
            "--index column-runs goes with the layered engine in memory (no --out)"
        )


def _compute(spec, args, max_bytes):
    """A new table of ``spec``, by the engine ``--engine`` picks."""
    from fastttt.tables.cache import choose_engine

    distributed = bool(args.workers or args.scheduler)
    try:
        engine = choose_engine(
            spec,
            # only the layered engine keeps WDL or takes the column-runs index
            "layered"
            if args.wdl or args.live or args.keep_every or args.index == "column-runs"
            else args.engine,
            out=args.out_dir,
            distributed=distributed,
            max_bytes=max_bytes,
            save=bool(args.save_path),
        )
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    if engine == "layered" and args.save_path:
        raise click.UsageError("a layered table is kept with --out DIR, not --save FILE")
    source = click.get_current_context().get_parameter_source("symmetry")
    if engine == "dense" and source == click.core.ParameterSource.COMMANDLINE:
        raise click.UsageError(
            "--symmetry/--no-symmetry: not used by the dense engine (it goes with the layered one)"
        )
    show = sys.stderr.isatty() and not args.as_json
    if engine == "dense":
        return _run_solve(spec, max_bytes, show)
    return _run_layered(
        spec,
        max_bytes,
        show,
        args.out_dir,
        args.resume,
        args.symmetry,
        args.workers,
        args.scheduler,
        args.wdl,
        args.index,
        # --keep-every implies --live on a new table (a resumed one keeps its own)
        True if args.live is None and (args.keep_every or 1) > 1 and not args.resume else args.live,
        args.keep_every,
        args.chunk,
    )
