"""A proof split into subtrees: the Ultimate df-pn question asked of every position a few plies
below the root, one task each, on this machine or on a Dask cluster, and the answers combined.

:func:`prove_split` expands the game tree ``depth`` plies below a position (finished games are
leaves the rules settle), keeps each position at that depth once (transpositions meet there:
a position's depth is its number of stones), and asks "does ``attacker`` win from here?" of
each with its own :class:`~fastttt.search.ultimate.proof.Prover` and ``max_nodes`` nodes. A task is
:func:`prove_task`: it takes a position's text (the variant is part of it) and plain numbers and
returns a dict of plain values, so that it runs the same in this process and on a Dask worker
(``client.submit``); the answers are gathered by position, never by the order tasks finish in,
so the result does not depend on the scheduling. Combining goes up the expanded tree as df-pn
does: where the attacker moves, proof number the least of the children's and disproof number
their sum; where the defender moves, the other way round (sums saturate at
:data:`~fastttt.kernels.ultimate_dfpn.INF`). A node is proven when its proof number is 0 (the
attacker has a proven child; every defender child is proven), disproven when its disproof
number is 0, unknown otherwise: a frontier task that ran out of nodes makes an ancestor unknown
unless a settled sibling decides it, never a wrong answer.

:func:`assemble_tree` turns a settled :class:`SplitResult` into a
:class:`~fastttt.search.ultimate.proof.ProofTree` (same encoding, same :func:`~.proof.verify`):
above the frontier the strategy's side plays its smallest settled move; at each frontier position
the strategy reaches, the one its task built (:func:`~.proof.proof_tree` in the worker) joins it.
Where two tasks' strategies meet the same position the first task's move is kept: each leads to a
position that goes the strategy's way, so the joined strategy still holds, and the positions it no
longer reaches are dropped (:func:`~.proof.reached`). Building a proof tree can cost far more than
the search (a disproof follows every attacker move to the end of the game), so tasks build theirs
only when asked (``prove_split(..., tree=True)``); by default :func:`assemble_tree` runs tree tasks
for just the frontier positions its strategy reaches (a fresh Prover gives the same answer and tree
again: the result does not depend on which way).
On a ply-50 suite position at depth 2 every task building its tree took 17 s, these few 5 s.

Dask is optional (``pip install 'fastttt[distributed]'``); the cluster helpers are
:mod:`fastttt.tables.distributed`'s.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastttt.errors import InvalidArgumentError, require_int
from fastttt.games.ultimate.state import UltimateState
from fastttt.kernels import ultimate_dfpn as D
from fastttt.search.ultimate import proof as P

MAX_DEPTH = 6
DEFAULT_DEPTH = 2
DEFAULT_TASK_NODES = 1_000_000
DEFAULT_TASK_TT_BITS = 20
STATUSES = ("proven", "disproven", "unknown")
INF = int(D.INF)


@dataclass(frozen=True)
class FrontierResult:
    """One task's answer: "does the attacker win from ``position`` (text)?"."""

    position: str
    status: str  # "proven", "disproven" or "unknown"
    pn: int
    dn: int
    nodes: int
    seconds: float
    strategy: dict[str, int] | None  # its ProofTree.strategy when settled and asked for


@dataclass(frozen=True)
class SplitResult:
    """The answer to "does ``attacker`` win from ``state``?" combined from the answers of the
    ``frontier`` positions ``depth`` plies below (in the order the expansion met them, the
    smallest moves first). ``nodes`` sums the tasks' nodes; ``seconds`` is wall time."""

    state: UltimateState
    attacker: int
    depth: int
    max_nodes: int  # each task's budget
    tt_bits: int  # each task's table: 2**tt_bits entries
    status: str
    pn: int  # the root's proof number from the frontier's (0 when proven)
    dn: int  # the root's disproof number from the frontier's (0 when disproven)
    frontier: tuple[FrontierResult, ...]
    finished: int  # distinct finished games above the frontier (leaves the rules settle)
    nodes: int
    seconds: float

    @property
    def frontier_size(self) -> int:
        return len(self.frontier)

    @property
    def counts(self) -> dict[str, int]:
        """How many frontier tasks ended each way: ``{"proven", "disproven", "unknown"}``."""
        return {s: sum(r.status == s for r in self.frontier) for s in STATUSES}


def prove_task(
    position: str, attacker: int, max_nodes: int, tt_bits: int, tree: bool
) -> dict[str, Any]:
    """One frontier position proved by a fresh Prover (a Dask task, or called in this process):
    position text in, plain values out (``status``, ``pn``, ``dn``, ``nodes``, ``seconds``, and
    ``strategy``: the settled position's :attr:`~.proof.ProofTree.strategy` when ``tree``, else
    None)."""
    state = UltimateState.from_text(position)
    prover = P.Prover(tt_bits)
    result = prover.prove(state, attacker, max_nodes)
    strategy = None
    if tree and result.status != "unknown":
        strategy = P.proof_tree(result, prover, max_nodes).strategy
    return {
        "position": position,
        "status": result.status,
        "pn": result.pn,
        "dn": result.dn,
        "nodes": result.nodes,
        "seconds": result.seconds,
        "strategy": strategy,
    }


@dataclass(frozen=True)
class _Expansion:
    """The tree above the frontier: each live position above it with its moves and children
    (texts), the frontier's texts in the order met, and the finished games' texts."""

    children: dict[str, tuple[tuple[int, str], ...]]
    states: dict[str, UltimateState]
    frontier: tuple[str, ...]
    finished: tuple[str, ...]


def _expand(root: UltimateState, depth: int) -> _Expansion:
    children: dict[str, tuple[tuple[int, str], ...]] = {}
    states: dict[str, UltimateState] = {}
    frontier: dict[str, None] = {}  # insertion-ordered sets
    finished: dict[str, None] = {}

    def visit(state: UltimateState, left: int) -> str:
        text = str(state)
        if text in states:
            return text
        states[text] = state
        if state.is_over():
            finished[text] = None
        elif left == 0:
            frontier[text] = None
        else:
            children[text] = tuple((m, visit(state.play(m), left - 1)) for m in state.legal_moves())
        return text

    visit(root, depth)
    return _Expansion(children, states, tuple(frontier), tuple(finished))


def _combine(
    expansion: _Expansion, root: str, attacker: int, answers: dict[str, tuple[int, int]]
) -> dict[str, tuple[int, int]]:
    """(pn, dn) of every position of the expansion, from the frontier's ``answers``."""
    numbers = dict(answers)

    def numbers_of(text: str) -> tuple[int, int]:
        if text in numbers:
            return numbers[text]
        state = expansion.states[text]
        if state.is_over():
            got = (0, INF) if state.winner() == attacker else (INF, 0)
        else:
            kids = [numbers_of(child) for _, child in expansion.children[text]]
            pns, dns = [k[0] for k in kids], [k[1] for k in kids]
            if state.to_move == attacker:
                got = (min(pns), min(sum(dns), INF))
            else:
                got = (min(sum(pns), INF), min(dns))
        numbers[text] = got
        return got

    numbers_of(root)
    return numbers


def _status(pn: int, dn: int) -> str:
    return "proven" if pn == 0 else "disproven" if dn == 0 else "unknown"


def _run_tasks(
    texts: tuple[str, ...],
    args: tuple[int, int, int, bool],
    client: Any,
    progress: Callable[[int, int], None] | None,
) -> list[dict[str, Any]]:
    """Every frontier task's answer, in the order of ``texts``."""
    total = len(texts)
    if client is None:
        answers = []
        for i, text in enumerate(texts):
            answers.append(prove_task(text, *args))
            if progress is not None:
                progress(i + 1, total)
        return answers
    from fastttt.tables.distributed import require_distributed

    distributed = require_distributed()
    tag = uuid.uuid4().hex
    futures = [
        client.submit(prove_task, text, *args, pure=False, key=f"fastttt-prove-{i}-{tag}")
        for i, text in enumerate(texts)
    ]
    index = {f.key: i for i, f in enumerate(futures)}
    results: list[dict[str, Any]] = [{} for _ in texts]
    try:
        for done, future in enumerate(distributed.as_completed(futures), 1):
            results[index[future.key]] = future.result()  # re-raises a task's error here
            if progress is not None:
                progress(done, total)
    except BaseException:
        client.cancel(futures)
        raise
    return results


def prove_split(
    state: UltimateState,
    attacker: int | None = None,
    *,
    depth: int = DEFAULT_DEPTH,
    max_nodes: int = DEFAULT_TASK_NODES,
    tt_bits: int = DEFAULT_TASK_TT_BITS,
    client: Any = None,
    tree: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> SplitResult:
    """Does ``attacker`` (default: the side to move) win from ``state``? Asked of each distinct
    live position ``depth`` plies below, ``max_nodes`` nodes and a ``2**tt_bits`` table each:
    one Dask task each on ``client``'s cluster (a ``distributed.Client``), or one after another
    in this process when ``client`` is None. ``tree``: settled tasks also return their proof
    trees, for :func:`assemble_tree`. ``progress(done, total)`` after each task."""
    if not isinstance(state, UltimateState):
        raise InvalidArgumentError(f"expected an UltimateState, got {state!r}")
    attacker = state.to_move if attacker is None else require_int(attacker, "attacker", 0, 1)
    depth = require_int(depth, "depth", 0, MAX_DEPTH)
    max_nodes = require_int(max_nodes, "max_nodes", 1, P.MAX_NODES)
    tt_bits = require_int(tt_bits, "tt_bits", 4, 32)
    t0 = time.perf_counter()
    expansion = _expand(state, depth)
    answers = _run_tasks(
        expansion.frontier, (attacker, max_nodes, tt_bits, bool(tree)), client, progress
    )
    frontier = tuple(
        FrontierResult(
            a["position"],
            a["status"],
            int(a["pn"]),
            int(a["dn"]),
            int(a["nodes"]),
            float(a["seconds"]),
            a["strategy"],
        )
        for a in answers
    )
    numbers = _combine(
        expansion, str(state), attacker, {r.position: (r.pn, r.dn) for r in frontier}
    )
    pn, dn = numbers[str(state)]
    return SplitResult(
        state,
        attacker,
        depth,
        max_nodes,
        tt_bits,
        _status(pn, dn),
        pn,
        dn,
        frontier,
        len(expansion.finished),
        sum(r.nodes for r in frontier),
        time.perf_counter() - t0,
    )


def assemble_tree(
    result: SplitResult,
    *,
    client: Any = None,
    progress: Callable[[int, int], None] | None = None,
) -> P.ProofTree:
    """The strategy behind a settled ``result`` as a :class:`~.proof.ProofTree`: above the
    frontier the strategy's side plays its smallest move that goes its way, the other side
    every move; at the frontier positions this strategy reaches, their tasks' strategies
    (joined as the module docstring says). Strategies the tasks did not keep
    (``prove_split(..., tree=False)``) are built by new tasks for just those positions (on
    ``client``'s cluster, or here when None; a fresh Prover answers the same, so the strategy
    does not depend on how it was run)."""
    if result.status == "unknown":
        raise InvalidArgumentError("the question was not settled: there is no proof tree")
    want_win = result.status == "proven"
    attacker = result.attacker
    chooser = P.strategy_side(attacker, result.status)
    root = str(result.state)
    expansion = _expand(result.state, result.depth)
    answers = {r.position: (r.pn, r.dn) for r in result.frontier}
    numbers = _combine(expansion, root, attacker, answers)
    good = 0 if want_win else 1  # the number that is 0 where the strategy's side gets its way

    strategy: dict[str, int] = {}  # the moves above the frontier
    used: dict[str, None] = {}  # the frontier positions the strategy reaches, in order
    stack = [root]
    while stack:
        text = stack.pop()
        if text in answers:
            used[text] = None
            continue
        state = expansion.states[text]
        if state.is_over() or text in strategy:
            continue
        kids = expansion.children[text]
        if state.to_move == chooser:
            move, child = next((m, c) for m, c in kids if numbers[c][good] == 0)
            strategy[text] = move
            stack.append(child)
        else:
            stack.extend(child for _, child in reversed(kids))
    strategies = {r.position: r.strategy for r in result.frontier if r.strategy is not None}
    missing = tuple(text for text in used if text not in strategies)
    args = (attacker, result.max_nodes, result.tt_bits, True)
    for answer in _run_tasks(missing, args, client, progress):
        if answer["status"] != result.status or answer["strategy"] is None:
            raise RuntimeError(f"{answer['position']}: a second proof disagrees with the first")
        strategies[answer["position"]] = answer["strategy"]
    for text in used:
        for position, move in strategies[text].items():
            strategy.setdefault(position, move)
    return P.reached(P.ProofTree(root, attacker, result.status, strategy))
