"""The portfolio prover: win, draw or loss of one position, by whichever method proves it
first under one budget, and which method that was.

Value scheme (draw-aware, from the side to move: +1 win, 0 draw, -1 loss, the weak search
scores of :mod:`fastttt.values`): the value lies in ``bounds = (low, high)``,
starting at (-1, +1) (loss .. win). Two binary questions narrow it: "does the mover win?"
(proven: +1; disproven: high = 0) and, once the mover cannot win, "does the opponent win?"
(proven: -1; disproven: low = 0). Other arguments close a bound at no search cost: on the
empty free board the first player cannot lose (strategy stealing: low = 0), and a pairing
that blocks every line of a player proves that player cannot win (:mod:`fastttt.search.pairing` on
the empty board, :func:`fastttt.kernels.threats.pairing_holds` elsewhere; df-pn also ends its
lines at such positions). The value is known when ``low == high``.

Methods, in order (``methods`` restricts them):

1. ``strategy-stealing`` and ``pairing`` (free boards): instant bounds;
2. ``threats``: threat-space search for a win of the mover (:mod:`fastttt.search.threats`), with a
   tenth of the budget (at least 100,000 nodes or 0.2 s when the budget allows);
3. ``dfpn`` (:mod:`fastttt.search.dfpn`), ``dfpn-narrowed`` (free boards) and ``alphabeta``
   (:mod:`fastttt.search.alphabeta`, weak mode) in rounds: each gets a slice of the budget in
   turn, the slices doubling from 20,000 nodes or 0.25 s (at most 30 s each, so that
   progress is reported); each keeps its table from one slice to the next, so a slice
   resumes the last. Whatever the better method on a position, the portfolio spends at most
   about four times its effort. ``dfpn-narrowed`` asks df-pn's open question with the
   attacker kept within :data:`NARROWED_REACH` cells of a stone, with relevance zones and
   threat probes (its own table): a win found is a win of the real game, and the step stops
   once it has searched every such win in vain; it is what proves wide boards (4 x 30
   k = 4), where the plain question drowns in far moves. With ``threads=2`` and no node
   budget, the methods run side by side: alpha-beta on this thread, each df-pn step on a
   helper thread of its own (the kernels release the GIL; three threads share two cores,
   and two once the narrowed step has nothing left), each in its own doubling slices of
   time (the narrowed step's in nodes, :data:`NARROWED_SLICE_NODES` at most, so that its
   search is the same in every run); the first to know the value stops the others. A node
   budget keeps the turns, whose answer does not depend on timing. Gravity boards that the
   64-bit Connect Four engine holds skip df-pn (it settles next to nothing there):
   alpha-beta gets the whole budget at once.

The value is returned as soon as it is proven; a principal line (for a win or a loss) is
extra work with its own bound, :data:`LINE_SHARE` of the nodes the value took (at least
:data:`LINE_MIN_NODES`) and, without a node budget, of its time (at least
:data:`LINE_MIN_SECONDS`): df-pn's own line when df-pn proved the value, the narrowed search's
when it did, else a walk that asks alpha-beta, move by move, for a winning move of the winner
(df-pn on boards alpha-beta cannot hold). ``line_note`` says why no line was given.

The answer names the method of each bound (``lower_by``, ``upper_by``) and ``method`` the one
(or the two) that proved the value. Nodes are counted across methods (df-pn: positions
expanded; alpha-beta: nodes searched; pairing: search nodes). A budget that runs out gives
``value None`` ("unknown within budget") with the bounds proven so far, and so do methods
with nothing left to try ("unknown to the methods chosen": a threat search or a narrowed
df-pn alone); Ctrl-C raises KeyboardInterrupt within a fraction of a second.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from fastttt.errors import (
    InvalidArgumentError,
    InvalidPositionError,
    SearchBudgetError,
    require_int,
)
from fastttt.memory import require_memory
from fastttt.search.dfpn import ProofSearch, memory_advice, memory_needed, memory_words
from fastttt.values import RESULT_WORDS, relative, value_name

METHODS = ("strategy-stealing", "pairing", "threats", "dfpn", "dfpn-narrowed", "alphabeta")
DFPN_STEPS = ("dfpn", "dfpn-narrowed")  # the steps that ask df-pn's open question
# dfpn-split: df-pn's questions split at the root on workers (prove(workers=N)); not a choice
PAIRING_NODES = 20_000  # the empty board's pairing search (a fraction of a second)
THREAT_SHARE = 0.1
THREAT_MIN_NODES, THREAT_MIN_SECONDS = 100_000, 0.2
FIRST_SLICE_NODES, FIRST_SLICE_SECONDS = 20_000, 0.25
MAX_SLICE_SECONDS = 30.0
# dfpn-narrowed: the attacker's reach, and the nodes of the null-move probes (zones) and of the
# threat probes. 4 x 30 k = 4 "X wins" with these and a 2**23 table (one core): proven in
# 223 s, 109.9 M nodes (344 CPU-s, 179.8 M before the zones' walks counted as nodes). Before
# threes were read from the line counts: 446.6 CPU-s; zones of 64 539 CPU-s; no threat
# probes unknown after 897 s; no reach unknown after 554 s.
NARROWED_REACH = 2
NARROWED_ZONE_NODES = NARROWED_THREAT_NODES = 16
# How both probes search: 8 plies depth first, then df-pn. 4 x 30 k = 4 "X wins" with a 2**23
# table, one call: 52.4 M nodes (85.5 M depth first, 329.8 M with df-pn for both); 4 x 10 k = 4
# 42.4 M (41.6 M), 4 x 9 k = 4 25.9 M (23.5 M), 7 x 7 k = 5 "X cannot win" 1.40 M (1.40 M);
# the step alone (solve --method dfpn-narrowed) on 4 x 30 k = 4 58.2 M nodes, 170 s (102.9 M,
# 364 s).
NARROWED_PROBE_SEARCH = "short-first"
# The narrowed step keeps plain df-pn's numbers (every new child at 1): with the move order's
# (ProofSearch's default weight 4) the same 4 x 30 k = 4 question was still unknown after
# 400 M nodes (2**23 table, one core, 2026-11-29).
NARROWED_ORDER_WEIGHT = 0
# Side by side, the narrowed step's slices end on node counts, doubling up to this (about 25 s
# on 4 x 30 k = 4), so that its search is the same in every run: in slices of time, where each
# one stops it moves the next, and 4 x 30 k = 4 took from 108 M to 240 M nodes over four runs
# (in slices of at most 8 M nodes 102.7 M, 170.4 M before the zones' walks counted as nodes;
# before that too, in slices of at most 32 M 185.2 M, in one call 179.8 M).
NARROWED_SLICE_NODES = 8_000_000
LINE_SHARE, LINE_MIN_NODES, LINE_MIN_SECONDS = 0.1, 20_000, 1.0
HEARTBEAT_SECONDS = 5.0  # a long alpha-beta search reports its nodes after this, then less often
VALUE_WORDS = RESULT_WORDS  # the words of a value from the side to move (fastttt.values)


@dataclass(frozen=True)
class Step:
    """One piece of the portfolio's work: ``method``, the ``question`` it took, its
    ``answer`` (``"proven"``, ``"disproven"``, ``"unknown"`` within its slice, the value
    found, or that nothing is left to try: ``"no threat win"``, ``"no win within reach"``,
    a pairing ``"not found"``), ``nodes`` and ``seconds`` spent."""

    method: str
    question: str
    answer: str
    nodes: int
    seconds: float


@dataclass(frozen=True)
class ProofResult:
    """The value of a position from its side to move: ``value`` +1 win, 0 draw, -1 loss (the
    weak search scores of :mod:`fastttt.values`), or None (unknown within the budget);
    ``bounds``: the least and greatest values still possible (equal when the value is
    known); ``lower_by``, ``upper_by``: the methods that proved each bound (None while open);
    ``method``: the method that proved the value (two, joined by " + ", when the bounds came
    from two); ``nodes`` and ``seconds`` of all the work; ``proof_size``: positions in the
    df-pn or threat-space proof graphs that closed the bounds (0 for arguments: pairing,
    strategy stealing; None when alpha-beta closed one, or when not counted);
    ``proof_size_threats``: how many of those positions lie inside threat-space proofs (a
    threat probe's, or the threat search's; None when ``proof_size`` is); ``line``: for a
    win (or a loss), the principal line, moves in API form (cells, or 0-based columns with
    gravity), ending on the winner's completed line; ``line_note``: why a win or loss has no
    line (its bounded search ran out, or the budget had); ``line_start``: then the moves its
    walk got through (df-pn's: the winner's each proven to win), or None; ``pairs``: a
    pairing certificate when a pairing closed a bound on the empty board; ``steps``: every
    piece of work, in order; ``threads``: the threads the methods ran on side by side (2 or
    3), else 1;
    ``out_of_budget``: the value is unknown because the budget, or a method's share of it,
    ran out (False when the value is known, or when the methods chosen had nothing left
    to try: a threat search or a narrowed df-pn alone)."""

    value: int | None
    bounds: tuple[int, int]
    method: str | None
    lower_by: str | None
    upper_by: str | None
    nodes: int
    seconds: float
    to_move: int
    proof_size: int | None = None
    line: tuple[int, ...] | None = None
    pairs: tuple[tuple[int, int], ...] | None = None
    steps: tuple[Step, ...] = field(default_factory=tuple)
    line_note: str | None = None
    threads: int = 1
    out_of_budget: bool = False
    line_start: tuple[int, ...] | None = None
    proof_size_threats: int | None = None

    @property
    def winner(self) -> str | None:
        """``"first"``, ``"second"`` or ``"draw"`` (table words), None when unknown."""
        if self.value is None:
            return None
        return value_name(relative(self.value, self.to_move))

    def verdict(self) -> str:
        """One line: the value from the side to move, or the bounds when unknown."""
        if self.value is not None:
            return VALUE_WORDS[self.value]
        low, high = (VALUE_WORDS[b] for b in self.bounds)
        return f"{self.unknown_words()} ({low} .. {high})"

    def unknown_words(self) -> str:
        """Why the value is unknown, in words."""
        if self.out_of_budget:
            return "unknown within budget"
        return "unknown to the methods chosen"


class _Budget:
    """Nodes and seconds left of one budget (None: unlimited)."""

    def __init__(self, nodes: int | None, seconds: float | None):
        self.nodes, self.seconds = nodes, seconds
        self.start = time.perf_counter()
        self.spent = 0

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def left(self) -> tuple[int | None, float | None]:
        nodes = None if self.nodes is None else self.nodes - self.spent
        seconds = None if self.seconds is None else self.seconds - self.elapsed()
        return nodes, seconds

    def spent_all(self) -> bool:
        nodes, seconds = self.left()
        return (nodes is not None and nodes <= 0) or (seconds is not None and seconds <= 0)

    def slice(self, nodes: int | None, seconds: float | None) -> tuple[int | None, float | None]:
        """A slice of at most ``nodes`` and ``seconds`` (None: no cap) within what is left."""
        left_nodes, left_seconds = self.left()
        if nodes is None:
            nodes = left_nodes
        elif left_nodes is not None:
            nodes = min(nodes, left_nodes)
        if seconds is None:
            seconds = left_seconds
        elif left_seconds is not None:
            seconds = min(seconds, left_seconds)
        return nodes, seconds


def _check_budget(nodes, seconds) -> tuple[int | None, float | None]:
    if nodes is not None:
        if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1:
            raise InvalidArgumentError(f"budget_nodes must be a positive integer, got {nodes!r}")
    if seconds is not None:
        if (
            isinstance(seconds, bool)
            or not isinstance(seconds, (int, float))
            or not (0 < seconds < float("inf"))
        ):
            raise InvalidArgumentError(f"budget_seconds must be a positive number, got {seconds!r}")
        seconds = float(seconds)
    return nodes, seconds


def _searcher_for(spec):
    """The alpha-beta searcher of ``spec``, or None when no search kernel holds the board."""
    from fastttt.errors import FastTTTError
    from fastttt.search.alphabeta import searcher

    try:
        return searcher(spec)
    except (FastTTTError, MemoryError):
        return None


def prove(
    pos,
    *,
    budget_nodes: int | None = None,
    budget_seconds: float | None = None,
    methods: tuple[str, ...] | None = None,
    proof_size: bool = True,
    progress: Callable[[Step, tuple[int, int]], None] | None = None,
    dfpn_tt_bits: int | None = None,
    workers: int = 1,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
    threads: int = 1,
) -> ProofResult:
    """Win, draw or loss of the live position ``pos`` from its side to move (see the module
    docstring: methods, schedule, value scheme), within ``budget_nodes`` nodes and
    ``budget_seconds`` seconds (None: no limit). ``methods``: a subset of :data:`METHODS`
    (default: all that apply to the board). ``proof_size``: count the proof graphs (a walk of
    the proof, cheap next to the search). ``progress(step, bounds)`` is called after every
    step. ``dfpn_tt_bits``: the df-pn table's size (2**bits rows of 32 bytes; default by
    board size, at most 2**23: 256 MiB; free boards have a second one of that size for the
    narrowed step). ``workers`` above 1, or a Dask ``scheduler``: df-pn's
    questions are split at the root, one task a root move (:mod:`fastttt.search.split`, method
    ``dfpn-split``), with their answers kept in ``checkpoint`` (a JSON file) when given; each
    worker process has a table of that size too, counted with the others before any is made.
    ``threads``: 1, the methods take turns; 2, they run side by side (each on a thread of its
    own) when the budget has no node bound (module docstring)."""
    spec = getattr(pos, "spec", None)
    if spec is None or not hasattr(pos, "first"):
        raise InvalidArgumentError(f"expected an m,n,k position, got {pos!r}")
    if pos.is_over():
        raise InvalidPositionError(f"the game is already over in {pos!r}")
    budget_nodes, budget_seconds = _check_budget(budget_nodes, budget_seconds)
    threads = require_int(threads, "threads", 1, 2)
    workers = require_int(workers, "workers", 1, 1024)
    chosen = METHODS if methods is None else tuple(methods)
    unknown = [m for m in chosen if m not in METHODS]
    if unknown:
        raise InvalidArgumentError(f"unknown method {unknown[0]!r}; methods: {', '.join(METHODS)}")
    free = not spec.gravity
    budget = _Budget(budget_nodes, budget_seconds)
    state = _State(pos, budget, progress)

    if "strategy-stealing" in chosen and free and pos.ply == 0:
        state.bound(0, None, "strategy-stealing", "first player cannot lose", 0, 0.0)
    if "pairing" in chosen and free and not state.known():
        _pairing_bounds(state, chosen)
    ab = _searcher_for(spec) if "alphabeta" in chosen else None
    engine = spec.gravity and ab is not None and not ab.wide
    if engine:  # the Connect Four engine, df-pn's slices would only slow it: the whole budget
        chosen = tuple(m for m in chosen if m != "dfpn")
        if not state.known() and not budget.spent_all():
            _alphabeta_step(state, ab, *budget.left())
    dfpn = narrowed = None
    if not state.known() and any(m in chosen for m in ("threats", *DFPN_STEPS)):
        if dfpn_tt_bits is None:
            dfpn_tt_bits = min(23, max(16, spec.cells // 2 + 10))
        dfpn_tt_bits = require_int(dfpn_tt_bits, "dfpn_tt_bits", 4, 32)
        narrowing = "dfpn-narrowed" in chosen and free
        tasks = 0  # the root split's processes (at most), each with a table beside this one's
        if workers != 1 and scheduler is None and "dfpn" in chosen:
            from fastttt.search.split import root_moves

            tasks = min(workers, len(root_moves(pos)))
        need = (1 + tasks) * memory_needed(spec.cells, dfpn_tt_bits, 0)
        if narrowing:
            need += memory_needed(spec.cells, dfpn_tt_bits, NARROWED_ZONE_NODES)
        tables = 1 + tasks + narrowing
        words = memory_words(dfpn_tt_bits, tables, int(narrowing))
        require_memory(need, words, memory_advice(tasks > 0))
        dfpn = ProofSearch(spec, tt_bits=dfpn_tt_bits)
        if narrowing:
            narrowed = _Narrowed(spec, dfpn_tt_bits)
    if dfpn is not None and "threats" in chosen and free and not budget.spent_all():
        _threat_step(state, dfpn, proof_size)
    split = workers != 1 or scheduler is not None
    if split and "dfpn" in chosen and not engine:
        while not state.known() and not budget.spent_all():
            if not _split_step(state, workers, scheduler, checkpoint, dfpn_tt_bits):
                break
        chosen = tuple(m for m in chosen if m != "dfpn")
    rounds = [m for m in (*DFPN_STEPS, "alphabeta") if m in chosen and not engine]
    if ab is None and "alphabeta" in rounds:
        rounds.remove("alphabeta")
    if narrowed is None and "dfpn-narrowed" in rounds:
        rounds.remove("dfpn-narrowed")
    turns = _Turns(state, dfpn, narrowed, ab, proof_size)
    side_by_side = (
        "alphabeta" in rounds and len(rounds) >= 2 and threads == 2 and budget.nodes is None
    )
    if side_by_side and not state.known() and not budget.spent_all():
        helper_steps = [m for m in rounds if m != "alphabeta"]
        _side_by_side(state, turns, helper_steps)
        state.threads, rounds = 1 + len(helper_steps), []
    slice_nodes, slice_seconds = FIRST_SLICE_NODES, FIRST_SLICE_SECONDS
    while turns.open(rounds) and not state.known() and not budget.spent_all():
        for method in turns.open(rounds):
            if state.known() or budget.spent_all():
                break
            turns.step(
                method,
                *budget.slice(
                    slice_nodes if budget.nodes is not None else None,
                    slice_seconds if budget.nodes is None else None,
                ),
            )
        slice_nodes *= 2
        slice_seconds = min(2 * slice_seconds, MAX_SLICE_SECONDS)
    if state.value() in (1, -1) and state.line is None:
        _principal_line(state, ab, dfpn, narrowed)
    return state.result()


class _State:
    """The bounds proven so far, who proved them, and the steps taken."""

    def __init__(self, pos, budget: _Budget, progress):
        self.pos, self.budget, self.progress = pos, budget, progress
        self.low, self.high = -1, 1
        self.lower_by: str | None = None
        self.upper_by: str | None = None
        self.steps: list[Step] = []
        self.low_size: int | None = None
        self.high_size: int | None = None
        self.low_size_threats: int | None = None
        self.high_size_threats: int | None = None
        self.line: tuple[int, ...] | None = None
        self.line_note: str | None = None
        self.line_start: tuple[int, ...] | None = None
        self.pairs: tuple[tuple[int, int], ...] | None = None
        self.lock = threading.RLock()  # side by side, several threads record steps
        self.threads = 1

    def known(self) -> bool:
        return self.low == self.high

    def value(self) -> int | None:
        return self.low if self.known() else None

    def bound(
        self,
        low: int | None,
        high: int | None,
        method: str,
        question: str,
        nodes: int,
        seconds: float,
        answer: str = "proven",
        size: int | None = 0,
        size_threats: int | None = 0,
    ) -> None:
        """Record a step; raise the lower bound to ``low`` and lower the upper one to
        ``high`` (None: unchanged) when they narrow the value. ``size``: the positions of the
        proof graph behind it (0 for an argument, None when unknown), ``size_threats`` those
        of them inside threat-space proofs."""
        with self.lock:
            if low is not None and low > self.low:
                self.low, self.lower_by = low, method
                self.low_size, self.low_size_threats = size, size_threats
            if high is not None and high < self.high:
                self.high, self.upper_by = high, method
                self.high_size, self.high_size_threats = size, size_threats
            if self.low > self.high:  # two methods disagree: a bug, never a silent answer
                raise AssertionError(f"{method} contradicts the bounds proven before: {self.steps}")
            self.note(Step(method, question, answer, nodes, seconds))

    def note(self, step: Step) -> None:
        with self.lock:
            self.steps.append(step)
            self.budget.spent += step.nodes
            self.report(step)

    def report(self, step: Step) -> None:
        """Tell ``progress`` of ``step`` without recording it (a search still running)."""
        with self.lock:
            if self.progress is not None:
                self.progress(step, (self.low, self.high))

    def result(self) -> ProofResult:
        value = self.value()
        method = None
        if value is not None:
            by = (
                [self.lower_by]
                if value == 1
                else [self.upper_by]
                if value == -1
                else [self.upper_by, self.lower_by]
            )
            method = " + ".join(dict.fromkeys(m for m in by if m))
        size = self._size(value, self.low_size, self.high_size)
        size_threats = self._size(value, self.low_size_threats, self.high_size_threats)
        return ProofResult(
            value,
            (self.low, self.high),
            method,
            self.lower_by,
            self.upper_by,
            sum(s.nodes for s in self.steps),
            self.budget.elapsed(),
            self.pos.to_move,
            size,
            self.line if value in (1, -1) else None,
            self.pairs,
            tuple(self.steps),
            self.line_note if value in (1, -1) else None,
            self.threads,
            value is None and self.out_of_budget(),
            self.line_start if value in (1, -1) else None,
            size_threats if size is not None else None,
        )

    @staticmethod
    def _size(value: int | None, low: int | None, high: int | None) -> int | None:
        """The size behind ``value``: the lower bound's for a win, the upper's for a loss,
        both summed for a draw; None when one of those is unknown or the value is."""
        sizes: dict[int | None, list[int | None]] = {1: [low], -1: [high], 0: [low, high]}
        behind = sizes.get(value, [None])
        return None if None in behind else sum(s for s in behind if s is not None)

    def out_of_budget(self) -> bool:
        """True when the budget is spent, or a method's last slice ended unknown."""
        last = {step.method: step.answer for step in self.steps}
        return self.budget.spent_all() or "unknown" in last.values()


def _pairing_bounds(state: _State, chosen) -> None:
    """A pairing blocking a player's every line: that player cannot win."""
    pos = state.pos
    t0 = time.perf_counter()
    if pos.ply == 0:
        from fastttt.search.pairing import find_pairing

        nodes, _ = state.budget.slice(PAIRING_NODES, None)
        proof = find_pairing(pos.spec, node_budget=max(1, min(PAIRING_NODES, nodes or 1)))
        seconds = time.perf_counter() - t0
        if proof.found:
            state.pairs = proof.pairs
            state.bound(None, 0, "pairing", "first player cannot win", proof.nodes, seconds)
        else:
            state.note(
                Step(
                    "pairing",
                    "first player cannot win",
                    "disproven" if proof.complete else "unknown",
                    proof.nodes,
                    seconds,
                )
            )
        return
    search = ProofSearch(pos.spec, tt_bits=4)
    for attacker in (pos.to_move, 1 - pos.to_move):
        holds = search.pairing_blocks(pos, attacker)
        question = f"{'first' if attacker == 0 else 'second'} player cannot win"
        seconds = time.perf_counter() - t0
        if not holds:
            state.note(Step("pairing", question, "not found", 0, seconds))
        elif attacker == pos.to_move:
            state.bound(None, 0, "pairing", question, 0, seconds)
        else:
            state.bound(0, None, "pairing", question, 0, seconds)


def _threat_step(state: _State, dfpn: ProofSearch, proof_size: bool) -> None:
    budget = state.budget
    nodes = seconds = None
    if budget.nodes is not None:
        nodes = max(THREAT_MIN_NODES, int(budget.nodes * THREAT_SHARE))
    if budget.seconds is not None:
        seconds = max(THREAT_MIN_SECONDS, budget.seconds * THREAT_SHARE)
    if budget.nodes is None and budget.seconds is None:
        nodes = None  # unbounded: the threat space is finite, let it finish
    nodes, seconds = budget.slice(nodes, seconds)
    r = dfpn.prove(
        state.pos,
        state.pos.to_move,
        mode="threats",
        max_nodes=nodes,
        seconds=seconds,
        proof_size=proof_size,
        after_seconds=budget.left()[1],
    )
    answer = "proven" if r.proven else "unknown" if r.proven is None else "no threat win"
    question = "mover wins by threats"
    if r.proven:
        state.line = r.line
        state.bound(
            1,
            None,
            "threats",
            question,
            r.nodes,
            r.seconds,
            size=r.proof_size,
            size_threats=r.proof_size_threats,
        )
    else:
        state.note(Step("threats", question, answer, r.nodes, r.seconds))


def _dfpn_step(state: _State, dfpn: ProofSearch, nodes, seconds, proof_size: bool) -> None:
    pos = state.pos
    attacker, question = _question(state)
    r = dfpn.prove(
        pos,
        attacker,
        max_nodes=nodes,
        seconds=seconds,
        proof_size=proof_size,
        after_seconds=state.budget.left()[1],
    )
    if r.proven is None:
        state.note(Step("dfpn", question, "unknown", r.nodes, r.seconds))
        return
    if r.proven:
        state.line = r.line
    _answered(state, "dfpn", question, attacker, r, r.proof_size, r.proof_size_threats)


class _Narrowed:
    """The ``dfpn-narrowed`` step: df-pn's open question with the attacker kept within
    :data:`NARROWED_REACH` cells of a stone, with relevance zones and threat probes, on its
    own table; ``beyond_reach`` holds the attackers whose every such win was searched in
    vain (for them the step has nothing left to do)."""

    def __init__(self, spec, tt_bits: int):
        self.search = ProofSearch(
            spec,
            tt_bits=tt_bits,
            zone_nodes=NARROWED_ZONE_NODES,
            threat_nodes=NARROWED_THREAT_NODES,
            threat_probe_search=NARROWED_PROBE_SEARCH,
            zone_probe_search=NARROWED_PROBE_SEARCH,
            order_weight=NARROWED_ORDER_WEIGHT,
        )
        self.beyond_reach: set[int] = set()

    def open(self, state: _State) -> bool:
        return _question(state)[0] not in self.beyond_reach

    def finished(self, state: _State) -> bool:
        """No question left to ask: the opponent's (the last one) is beyond the reach."""
        return state.high < 1 and not self.open(state)

    def step(self, state: _State, nodes, seconds, proof_size: bool) -> None:
        """One slice of ``nodes`` and ``seconds``; ``proof_size``: count a proof found
        (the walk reads the threat probes' proofs from the table and searches again what it
        lost, within the slice's nodes more and :func:`_walk_seconds`: on 4x30 k=4 it runs
        out, and the size is None). Its line comes after, within the line's bound
        (:func:`_principal_line`)."""
        if not self.open(state):
            return
        attacker, question = _question(state)
        question = f"{question} within {NARROWED_REACH} cells of a stone"
        r = self.search.prove(
            state.pos,
            attacker,
            max_nodes=nodes,
            seconds=seconds,
            line=False,
            proof_size=proof_size,
            after_seconds=_walk_seconds(state.budget),
            attacker_reach=NARROWED_REACH,
        )
        if r.proven:
            size, size_threats = r.proof_size, r.proof_size_threats
            _answered(state, "dfpn-narrowed", question, attacker, r, size, size_threats)
            return
        if r.beyond_reach:
            self.beyond_reach.add(attacker)
        answer = "no win within reach" if r.beyond_reach else "unknown"
        state.note(Step("dfpn-narrowed", question, answer, r.nodes, r.seconds))


def _walk_seconds(budget: _Budget) -> float | None:
    """Seconds for walking a proof once found (the narrowed step's count, a principal line):
    under a time budget, or none, the line's share of the time spent so far
    (:data:`LINE_SHARE`, at least :data:`LINE_MIN_SECONDS`) within what is left; under a node
    budget only the time left (the nodes bound the walk, so that the answer does not depend on
    timing)."""
    if budget.nodes is not None:
        return budget.left()[1]
    share = max(LINE_MIN_SECONDS, LINE_SHARE * budget.elapsed())
    left = budget.left()[1]
    return share if left is None else min(share, left)


class _Turns:
    """The methods that take turns (df-pn, df-pn narrowed, alpha-beta): one slice of each,
    which of them have work left, and how to halt one from another thread."""

    def __init__(self, state: _State, dfpn, narrowed, ab, proof_size: bool):
        self.state, self.dfpn, self.narrowed, self.ab = state, dfpn, narrowed, ab
        self.proof_size = proof_size

    def step(self, method: str, nodes: int | None, seconds: float | None) -> None:
        if method == "dfpn":
            _dfpn_step(self.state, self.dfpn, nodes, seconds, self.proof_size)
        elif method == "dfpn-narrowed":
            self.narrowed.step(self.state, nodes, seconds, self.proof_size)
        else:
            _alphabeta_step(self.state, self.ab, nodes, seconds)

    def open(self, methods: list[str]) -> list[str]:
        """``methods`` but the narrowed step while it has nothing to do on the open question."""
        return [m for m in methods if m != "dfpn-narrowed" or self.narrowed.open(self.state)]

    def finished(self, method: str) -> bool:
        """``method`` has nothing to do on any question still to come."""
        return method == "dfpn-narrowed" and self.narrowed.finished(self.state)

    def halt(self, method: str) -> None:
        if method == "dfpn-narrowed":
            self.narrowed.search.halt()
        else:
            {"dfpn": self.dfpn, "alphabeta": self.ab}[method].halt()


def _side_by_side(state: _State, turns: _Turns, helper_steps: list[str]) -> None:
    """Alpha-beta on this thread (Ctrl-C reaches it here) and each of ``helper_steps`` (df-pn's)
    on a helper thread of its own, each in doubling slices of time, until the value is known
    or the time is spent; the first to know the value halts the others (module docstring)."""
    budget = state.budget
    this_done = threading.Event()
    failure: list[BaseException] = []

    def step(method: str, nodes: int | None, seconds: float | None) -> None:
        """One slice; a question answered in it ends the df-pn steps' slices on it."""
        asked = _question(state)
        turns.step(method, *budget.slice(nodes, seconds))
        if _question(state) != asked:
            for other in helper_steps:
                if other != method:
                    turns.halt(other)

    def helper_rounds(method: str) -> None:
        try:
            sizes = _side_slices(method)
            while not this_done.is_set() and not state.known() and not budget.spent_all():
                if not turns.open([method]):  # until the question changes, if it can
                    if turns.finished(method) or this_done.wait(0.05):
                        break
                    continue
                step(method, *next(sizes))
        except BaseException as err:  # raised again on this thread
            failure.append(err)
        finally:
            # the value known, the time spent or a failure: alpha-beta may be inside a slice
            # (with nothing left here it goes on alone)
            while not this_done.is_set() and (failure or state.known() or budget.spent_all()):
                turns.halt("alphabeta")
                this_done.wait(0.01)

    helpers = [
        threading.Thread(target=helper_rounds, args=(m,), name=f"fastttt-{m}", daemon=True)
        for m in helper_steps
    ]
    try:
        for helper in helpers:
            helper.start()
        for nodes, seconds in _side_slices("alphabeta"):
            if failure or state.known() or budget.spent_all():
                break
            step("alphabeta", nodes, seconds)
    except BaseException:
        with state.lock:
            state.progress = None  # Ctrl-C (or an error): the slices it cut short are not news
        raise
    finally:
        this_done.set()
        for helper in helpers:
            while helper.is_alive():
                for method in helper_steps:
                    turns.halt(method)
                helper.join(0.01)
    if failure:
        raise failure[0]


def _side_slices(method: str) -> Iterator[tuple[int | None, float | None]]:
    """Side by side, ``method``'s slices as ``(nodes, seconds)``, doubling: the narrowed
    step's in nodes (to :data:`NARROWED_SLICE_NODES`), the others' in time (to
    :data:`MAX_SLICE_SECONDS`)."""
    nodes, seconds = FIRST_SLICE_NODES, FIRST_SLICE_SECONDS
    while True:
        if method == "dfpn-narrowed":
            yield nodes, None
            nodes = min(2 * nodes, NARROWED_SLICE_NODES)
        else:
            yield None, seconds
            seconds = min(2 * seconds, MAX_SLICE_SECONDS)


def _question(state: _State) -> tuple[int, str]:
    """The open question: "does the mover win?" until disproven, then "does the opponent?"."""
    if state.high == 1:
        return state.pos.to_move, "mover wins"
    return 1 - state.pos.to_move, "opponent wins"


def _answered(state, method, question, attacker, r, size=None, size_threats=None) -> None:
    """Record the answer ``r`` (its ``proven``, ``nodes`` and ``seconds``) to "does
    ``attacker`` win?" as the bound it proves, with its proof's ``size`` and ``size_threats``
    (:meth:`_State.bound`)."""
    low, high = {
        (True, True): (1, None),
        (True, False): (None, -1),
        (False, True): (None, 0),
        (False, False): (0, None),
    }[(r.proven, attacker == state.pos.to_move)]
    answer = "proven" if r.proven else "disproven"
    state.bound(low, high, method, question, r.nodes, r.seconds, answer, size, size_threats)


def _split_step(state: _State, workers, scheduler, checkpoint, tt_bits) -> bool:
    """The current question asked by the root split; False when it stays unknown."""
    from fastttt.search.split import ask_split

    pos = state.pos
    attacker, question = _question(state)
    nodes, seconds = state.budget.left()
    r = ask_split(
        pos,
        attacker,
        workers=workers,
        scheduler=scheduler,
        seconds=seconds,
        max_nodes=nodes,
        checkpoint=checkpoint,
        tt_bits=tt_bits,
    )
    if r.proven is None:
        state.note(Step("dfpn-split", question, "unknown", r.nodes, r.seconds))
        return False
    _answered(state, "dfpn-split", question, attacker, r)
    return True


def _alphabeta_step(state: _State, ab, nodes, seconds) -> None:
    """Alpha-beta (weak) under ``nodes`` and ``seconds``; a search longer than
    :data:`HEARTBEAT_SECONDS` reports its node count then, and again at doubling intervals up
    to a minute (a progress step with the answer ``"searching"``, not in the result)."""
    before = ab.nodes
    t0 = time.perf_counter()
    done = threading.Event()

    def heartbeat() -> None:
        wait = HEARTBEAT_SECONDS
        while not done.wait(wait):
            wait = min(2 * wait, 60.0)
            if state.progress is not None:
                elapsed = time.perf_counter() - t0
                state.report(Step("alphabeta", "value", "searching", ab.nodes - before, elapsed))

    watcher = threading.Thread(target=heartbeat, daemon=True)
    if state.progress is not None:
        watcher.start()
    try:
        score = ab.solve(state.pos, weak=True, max_nodes=nodes, seconds=seconds).score
    except SearchBudgetError:
        state.note(
            Step("alphabeta", "value", "unknown", ab.nodes - before, time.perf_counter() - t0)
        )
        return
    finally:
        done.set()
        if watcher.is_alive():
            watcher.join()
    state.bound(
        score,
        score,
        "alphabeta",
        "value",
        ab.nodes - before,
        time.perf_counter() - t0,
        VALUE_WORDS[score],
        None,
    )


def _principal_line(
    state: _State, ab, dfpn: ProofSearch | None, narrowed: _Narrowed | None
) -> None:
    """A principal line for the win or loss just proven, within its own bound (module
    docstring): the narrowed search's own when it proved the value (alpha-beta could not
    reach where it did), else alpha-beta's walk or df-pn's; sets ``state.line`` or
    ``state.line_note``."""
    budget = state.budget
    cap = max(LINE_MIN_NODES, int(LINE_SHARE * sum(st.nodes for st in state.steps)))
    # and in time: a walk also does work that no node counts (the pairing searches)
    nodes, seconds = budget.slice(cap, None)[0], _walk_seconds(budget)
    if (nodes is not None and nodes <= 0) or (seconds is not None and seconds <= 0):
        state.line_note = "the budget ran out before a line could be searched"
        return
    t0 = time.perf_counter()
    pos = state.pos
    attacker = pos.to_move if state.value() == 1 else 1 - pos.to_move
    proved_by = state.lower_by if state.value() == 1 else state.upper_by
    searcher: ProofSearch | None = None  # df-pn's line, walked from the table that proved it
    reach = 0
    if proved_by == "dfpn-narrowed" and narrowed is not None:
        searcher, reach, method = narrowed.search, NARROWED_REACH, "dfpn-narrowed"
    elif ab is not None:
        method = "alphabeta"
    elif dfpn is not None:
        searcher, method = dfpn, "dfpn"
    else:
        state.line_note = "no method that gives lines was chosen"
        return
    start = None
    if searcher is None:
        line, spent = _line_by_alphabeta(pos, state.value() == 1, ab, nodes, seconds)
    else:
        r = searcher.prove(
            pos,
            attacker,
            max_nodes=nodes,
            seconds=seconds,
            after_seconds=seconds,
            attacker_reach=reach,
        )
        line, start, spent = r.line, r.line_start, r.nodes
    found = line is not None
    seconds_spent = time.perf_counter() - t0
    state.note(
        Step(method, "principal line", "found" if found else "unknown", spent, seconds_spent)
    )
    if found:
        state.line = line
    else:
        bound = f"{nodes:,} nodes" + ("" if seconds is None else f" or {seconds:.1f} s")
        state.line_note = f"no line within {bound} (its bound: a tenth of the value's)"
        state.line_start = start


def _line_by_alphabeta(pos, mover_wins: bool, ab, nodes: int | None, seconds: float | None):
    """``(line, nodes)``: a line from ``pos`` to the winner's completed line, the winner
    taking a move that alpha-beta (weak) proves still wins, the loser one that does not lose
    at once when it has one; ``line`` None when ``nodes``/``seconds`` ran out first."""
    ab.load_kernels()  # before the clock: loading them may take the whole second
    deadline = None if seconds is None else time.perf_counter() + seconds
    spent = 0
    line: list[int] = []
    winner = pos.to_move if mover_wins else 1 - pos.to_move
    while pos.winner() is None:
        moves = pos.legal_moves()
        hint = ab.table_move(pos)
        if hint in moves:  # the table's best move: most often the winning one
            moves = [hint] + [m for m in moves if m != hint]
        children = [(m, pos.play(m)) for m in moves]
        if not children:
            return None, spent  # a full board: the proven value was not a win (a bug)
        if pos.to_move != winner:
            safe = [m for m, c in children if not _wins_at_once(c)]
            choice: int | None = (safe or [children[0][0]])[0]
        else:
            choice = next((m for m, c in children if c.winner() is not None), None)
            for m, child in children:
                if choice is not None:
                    break
                if child.is_over():
                    continue
                left = None if nodes is None else nodes - spent
                wait = None if deadline is None else deadline - time.perf_counter()
                if (left is not None and left <= 0) or (wait is not None and wait <= 0):
                    return None, spent
                before = ab.nodes
                try:
                    r = ab.solve(child, weak=True, max_nodes=left, seconds=wait)
                except SearchBudgetError:
                    return None, spent + ab.nodes - before
                spent += r.nodes
                if r.score == -1:
                    choice = m
        if choice is None:
            return None, spent  # no winning move found: the proven value was wrong (a bug)
        line.append(choice)
        pos = pos.play(choice)
    return tuple(line), spent


def _wins_at_once(pos) -> bool:
    """True when the side to move in ``pos`` completes a line with one move."""
    return any(pos.play(m).winner() is not None for m in pos.legal_moves())
