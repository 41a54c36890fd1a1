"""``fastttt solve --search``: the value of one position by search, no table: pairing,
threat-space, df-pn and alpha-beta under one ``--budget``
(:func:`fastttt.search.portfolio.prove`)."""

from __future__ import annotations

import sys
import time

import click

from fastttt.cli.moves import format_line, query_state
from fastttt.cli.output import emit
from fastttt.errors import FastTTTError

_BUDGET_UNITS = {"s": 1.0, "sec": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0}
_BUDGET_HELP = (
    "a time (30s, 2m, 1.5h), a node count (1e7nodes) or both, comma-separated (60s,1e8nodes)"
)
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
                raise click.BadParameter(
                    f"{part!r}: a node count is a whole number from 1 to 1e15, given once",
                    param_hint="--budget",
                )
            nodes = int(value)
        else:
            value *= _BUDGET_UNITS[unit]
            if seconds is not None or not 0 < value <= 1e9:
                raise click.BadParameter(
                    f"{part!r}: a time is more than 0 and at most 1e9 seconds, given once",
                    param_hint="--budget",
                )
            seconds = value
    return nodes, seconds


def default_threads() -> int:
    """The portfolio's threads by default: 2 where this process may run on 2 cores or more."""
    import os

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return 2 if (cores or 1) > 1 else 1


class _SearchProgress:
    """A line on stderr after each step of the portfolio, once the search has run for
    PROGRESS_AFTER seconds (at once on a terminal)."""

    def __init__(self, player: str):
        self.start = time.perf_counter()
        self.eager = sys.stderr.isatty()
        self.player = player

    def __call__(self, step, bounds) -> None:
        from fastttt.search.portfolio import VALUE_WORDS

        elapsed = time.perf_counter() - self.start
        if not self.eager and elapsed < PROGRESS_AFTER:
            return
        low, high = VALUE_WORDS[bounds[0]], VALUE_WORDS[bounds[1]]
        span = low if low == high else f"{low} .. {high}"
        click.echo(
            f"{elapsed:8.1f} s  {step.method:<17} {step.question}: {step.answer} "
            f"({step.nodes:,} nodes, {step.seconds:.2f} s); {self.player}: {span}",
            err=True,
        )


def solve_by_search(
    spec,
    position,
    moves,
    as_json,
    budget,
    method,
    split=(1, None, None),
    threads=None,
    tt_bits=None,
):
    """``solve --search``: the value of one position by the portfolio of
    :func:`fastttt.search.portfolio.prove` (or one of its methods), within ``--budget``;
    ``split``: ``(workers, scheduler, checkpoint)`` of df-pn's root split; ``threads``: the
    portfolio's (None: 2 where this process may use 2 cores or more); ``tt_bits``: df-pn's
    table size (None: the portfolio's default)."""
    from fastttt.play.players import QUICK_SEARCH_CELLS
    from fastttt.search.portfolio import VALUE_WORDS, prove

    budget_nodes, budget_seconds = parse_budget(budget)
    pos, played = query_state(spec, position, moves)
    if pos.is_over():
        raise click.UsageError(f"the game is already over in {pos}: nothing to search")
    methods = None
    if tt_bits is not None and method in ("alphabeta", "pairing"):
        raise click.UsageError(f"--tt-bits sizes df-pn's tables: --method {method} has none")
    if method != "auto":
        if spec.gravity and method in ("pairing", "threats", "dfpn-narrowed"):
            raise click.UsageError(f"--method {method} needs a free board (no gravity)")
        methods = ("strategy-stealing", method) if method == "pairing" else (method,)
    empty = spec.cells - pos.ply
    quick = QUICK_SEARCH_CELLS[spec.gravity]
    if budget is None and empty > quick:
        click.echo(
            f"Warning: exact search with {empty} empty cells can take minutes to hours "
            f"(quick up to about {quick}); Ctrl-C stops it, --budget bounds it",
            err=True,
        )
    player = "first player (X)" if pos.to_move == 0 else "second player (O)"
    if budget_seconds is not None:  # a first run compiles the provers: not on the budget
        from fastttt.search import alphabeta as search
        from fastttt.search import dfpn

        if sys.stderr.isatty():
            sys.stderr.write(
                "Loading the search kernels (the first run on a machine compiles "
                "them: a minute or two)..."
            )
            sys.stderr.flush()
        dfpn.warmup()
        search.warmup(wide=not search.fits_64(spec))
        if sys.stderr.isatty():
            sys.stderr.write("\r\x1b[K")
    try:
        result = prove(
            pos,
            budget_nodes=budget_nodes,
            budget_seconds=budget_seconds,
            methods=methods,
            progress=_SearchProgress(f"{player} to move"),
            workers=split[0],
            scheduler=split[1],
            checkpoint=split[2],
            threads=default_threads() if threads is None else threads,
            dfpn_tt_bits=tt_bits,
        )
    except FastTTTError as err:
        raise click.UsageError(str(err)) from None
    low, high = (VALUE_WORDS[b] for b in result.bounds)
    out = {
        "game": spec.name,
        "engine": "search",
        "position": str(pos),
        "to_move": "first" if pos.to_move == 0 else "second",
        "value": VALUE_WORDS[result.value] if result.value is not None else "unknown",
        "winner": result.winner,
        "method": result.method,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 6),
        "threads": result.threads,
        "proof_size": result.proof_size,
        "proof_size_threats": result.proof_size_threats,
        "line": format_line(spec, pos, result.line) if result.line is not None else None,
        "line_note": result.line_note,
        "line_start": (
            format_line(spec, pos, result.line_start) if result.line_start is not None else None
        ),
        "bounds": {"low": low, "high": high, "low_by": result.lower_by, "high_by": result.upper_by},
        "budget": {
            "nodes": budget_nodes,
            "seconds": budget_seconds,
            "out_of_budget": result.out_of_budget,
        },
        "steps": [
            {
                "method": st.method,
                "question": st.question,
                "answer": st.answer,
                "nodes": st.nodes,
                "seconds": round(st.seconds, 6),
            }
            for st in result.steps
        ],
    }
    if played is not None:
        out["moves"] = format_line(spec, spec.initial(), played)
    if result.pairs is not None:
        out["pairs"] = [
            [spec.format_move(pos, a), spec.format_move(pos, b)] for a, b in result.pairs
        ]
    if as_json:
        emit("solve", out)
        return
    if result.value is None:
        verdict = f"{result.unknown_words()}: {low} .. {high} for the {player}"
    else:
        verdict = f"{VALUE_WORDS[result.value]} for the {player}"
        if result.winner in ("first", "second"):
            verdict += f" ({result.winner} player wins)"
    rows = [
        ("game", f"{spec.name}  ({spec.describe()})"),
        ("position", f"{pos}  ({player} to move)"),
        ("value", verdict),
        (
            "method",
            result.method
            or f"none proved it (bounds by {result.lower_by or '-'} / {result.upper_by or '-'})",
        ),
        ("nodes", f"{result.nodes:,}"),
        ("seconds", f"{result.seconds:.3f}"),
    ]
    if result.threads > 1:
        rows.append(("threads", f"{result.threads} (the methods side by side)"))
    if result.proof_size:  # 0: arguments only (pairing, strategy stealing), no search graph
        size = f"{result.proof_size:,} positions"
        if result.proof_size_threats:
            size += f" ({result.proof_size_threats:,} of them in threat sequences)"
        rows.append(("proof size", size))
    if out["line"] is not None:
        rows.append(("line", " ".join(out["line"])))
    elif result.line_note is not None:
        rows.append(("line", result.line_note))
        if out["line_start"] is not None:
            rows.append(("line starts", " ".join(out["line_start"])))
    if result.pairs is not None:
        rows.append(("pairs", " ".join(f"{a}-{b}" for a, b in out["pairs"])))
    for label, text in rows:
        click.echo(f"{label:>12}  {text}")
