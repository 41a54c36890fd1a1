"""Depth-first proof-number search (df-pn): does a player win, proven or disproven.

:class:`ProofSearch` asks binary questions of a position: "does the ``attacker`` win?"
(``attacker`` 0 is the first player, 1 the second, whoever is to move). The answer is proven
(True), disproven (False) or unknown within the budget (None), with the nodes searched, the
size of the proof (positions in the proof graph, transpositions counted once) and, for a
proven win, a principal line ending on the completed line. Win, draw or loss of a position is
two questions (:func:`fastttt.search.portfolio.prove` asks them): the mover wins; else the opponent
wins; else a draw.

Two modes share one table (their entries carry different tags): ``"full"`` searches every
move (:mod:`fastttt.kernels.dfpn` lists the sound prunings), ``"threats"`` is the threat-space
search of :mod:`fastttt.search.threats` (free boards). The table persists between calls, so a
question asked again with a larger budget resumes where the last one stopped.

Boards: any m,n,k board free or with gravity held as line counts
(:mod:`fastttt.search.lineboard`), with no 64-bit limit. Kernels:
:func:`fastttt.kernels.dfpn.search`, :func:`~fastttt.kernels.dfpn.walk`,
:func:`~fastttt.kernels.dfpn.principal_line`. Compiling them takes about a minute from a cold
Numba cache (55 s measured at load 2: the small helpers are inlined, which makes a move about
6 times faster), 0.4 s to load from a warm one (:func:`warmup`).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import numpy as np

from fastttt.errors import (
    InvalidArgumentError,
    InvalidPositionError,
    require_int,
    require_number,
    require_type,
)
from fastttt.games.mnk.board import has_line
from fastttt.interrupt import compile_kernel, new_stop, run
from fastttt.kernels import dfpn as K
from fastttt.kernels import lines as L
from fastttt.kernels import pass_zone as P
from fastttt.kernels.threats import blocking_pairs
from fastttt.memory import require_memory
from fastttt.search.lineboard import LineBoard, geometry_of

MODES = {"full": K.MODE_FULL, "threats": K.MODE_THREATS}
DEFAULT_TT_BITS = 22  # 4 Mi rows of 32 bytes: 128 MiB
TT_ROW_BYTES = 32
DEFAULT_EPSILON = 0.25
# The first pairing search's nodes at an attacker's node, after the greedy pass. Measured
# (2-core Xeon, load 1-2): 7x7 k=5 "X cannot win" 12.8 CPU-s with 200, 5.9 with 32, 8.6
# with 16 (a 2**22 table); 4x9 k=4 "X wins" 50.2 s with 200, 24.1 with 32 (2**24).
DEFAULT_PAIRING_NODES = 32
BLOCKING_PAIRS_NODES = 200  # at least this many for ProofSearch.blocking_pairs by default
# Proof files' certificates: 7x7 k=5's draw, strategy moves + certificates / build CPU-s of
# prove_with_strategies (one run each, load 4): 200 nodes 26,904 + 38,013 / 193; 2,000
# 10,613 + 11,718 / 78; 20,000 6,329 + 6,002 / 57; 200,000 4,971 + 4,285 / 56; 2,000,000
# 4,754 + 4,016 / 53. 5x5 k=4: 1,983 + 790 at 200, 1,965 + 775 at 20,000. A failed search
# costs its budget.
CERTIFICATE_PAIRING_NODES = 20_000
# The first threat probe's nodes at an attacker's node (free boards; 0: no probes). Off by
# default: measured (2-core Xeon, load 2-3) 4x9 k=4 "X wins" 12.9 CPU-s without, 13.6 with 16,
# 18.7 with 64; 7x7 k=5 "X wins?" disproven in 5.9 s without, 6.2 with 16 (no probe won).
DEFAULT_THREAT_NODES = 0
DEFAULT_ZONE_NODES = 0  # the null-move probe's nodes at a defender's node (0: no zones)
DEFAULT_SIBLING_ZONE_WORK = 0  # a defender's node's work before refuted moves' zones (0: none)
DEFAULT_DEPENDENT_THREATS = False  # the threat probes' threes: any (False) or dependent
# How a probe searches (ProofSearch's threat_probe_search, zone_probe_search): depth first,
# df-pn in threat mode, or 8 plies depth first then df-pn. Measured (docs/benchmarks.md,
# "df-pn probes", "Short wins first"): df-pn for both proves Huayue's reply 83 in 22 M nodes
# (unknown after 250 M depth first) but takes 3.9 times the nodes of 4x30 k=4's narrowed
# proof; short-first for both takes 0.61 times them there and loses Go-Moku's hard replies.
# Depth first stays the default; the portfolio's narrowed step asks short-first.
PROBE_SEARCHES = {
    "depth-first": K.PROBE_DEPTH_FIRST,
    "df-pn": K.PROBE_DFPN,
    "short-first": K.PROBE_SHORT_FIRST,
}
DEFAULT_PROBE_SEARCH = "depth-first"
# Threat mode's attacker orders its threats with its own lines 2**offence times heavier than
# the lines they block. Measured on the Huayue opening's replies (docs/search.md, "Threat
# order"): 3 halves the median reply's nodes, but more of the replies next to the stones
# need over 20 M nodes; 0, the plain move order, stays the default.
DEFAULT_THREAT_OFFENCE = 0
THREAT_OFFENCE_MAX = 8
# the zone cache's size beside the table (zone_cache_shape)
ZONE_CACHE_SHIFT = 5
ZONE_CACHE_MAX_BITS = 20
# Weak sums, measured (nodes, `prove(empty, 0)`, a 2**24 table): 7x7 k=5 "X cannot win"
# 136,921 against 313,780 with plain sums, 5x5 k=4 7,212 against 7,603; but 4x9 k=4 "X wins"
# 4.96 M against 4.69 M and 4x10 k=4 26.3 M against 17.3 M; 8x8 k=5 "X wins?" (a 2**28
# table) refuted none of X's 10 first moves in 30 CPU-minutes, where plain sums refute four.
# Off by default: a question's answer is not known before it is asked.
DEFAULT_WEAK_SUMS = False
# A child not yet searched starts with delta 1 + rank * weight, rank its place in the move
# order (fastttt.kernels.dfpn, "Initial numbers"). The best weight changes from board to
# board: 4 is the best measured on 7x7 k=5 and 4x9 k=4 and near the best on Go-Moku (15 to 57
# times fewer nodes than plain), worse than plain on 4x10 k=4 (the table in docs/search.md).
DEFAULT_ORDER_WEIGHT = 4.0
ORDER_WEIGHT_MAX = 1 << 20
DEFAULT_PAIRING_ZONES = 0  # the defender's moves tried at an attacker's node (0: no pairing zones)
SIZE_CAP = 1 << 22  # the proof-size walk counts at most this many positions
_TAGS = np.array([0, 0x243F6A8885A308D3, 0x13198A2E03707344, 0xA4093822299F31D0], dtype=np.uint64)
_REACH_TAG = 0x2545F4914F6CDD1D  # times the reach, xor'd into the tag: another question
# xor'd into the tags of the positions after a pass (ProofSearch.pass_zone): there one side
# is to move with the stones of a position where the other is
_PASS_TAG = np.uint64(0xB7E151628AED2A6B)
PASS_ZONE_WALK = 1 << 20  # positions the walk of a pass proof may visit by default
_BUDGET_WORD = 2  # stop-word value written when the time budget runs out (Ctrl-C writes 1)


def probe_search_code(value, name: str) -> int:
    """The kernel's code of a probe search named in :data:`PROBE_SEARCHES`, else
    InvalidArgumentError naming ``name``."""
    if not isinstance(value, str) or value not in PROBE_SEARCHES:
        raise InvalidArgumentError(f"{name} must be one of {tuple(PROBE_SEARCHES)}, got {value!r}")
    return PROBE_SEARCHES[value]


@dataclass(frozen=True)
class PassZone:
    """The answer of :meth:`ProofSearch.pass_zone`. ``proven``: does the attacker win after
    the pass of the side to move (None: unknown within the budget); ``zone``: the empty
    cells where a move of that side can stop the proof of the other side's goal (every other
    move fails: loses, or for the attacker does not win), None when no proof was read (the
    goal not proven, the walk over its cap, an entry lost); ``nodes``: df-pn's positions and
    the walk's; ``walked``: positions the walk visited (a tree: transpositions once per
    path); ``seconds``: wall time."""

    proven: bool | None
    zone: frozenset[int] | None
    nodes: int
    walked: int
    seconds: float


@dataclass(frozen=True)
class LineStep:
    """One move of :meth:`ProofSearch.promising_line`: the table's ``proof`` and ``disproof``
    numbers after it, from the attacker's side, and the children of the position it was
    chosen in that the table holds (``held``) and, of those, not settled (``open``)."""

    move: int
    proof: int
    disproof: int
    held: int
    open: int


@dataclass(frozen=True)
class DfpnResult:
    """One question's answer.

    ``proven``: True (the attacker wins), False (it does not: a draw or a loss for it; in
    threat mode only "no winning threat sequence"), None (unknown: the budget ran out).
    ``attacker``: 0 first player, 1 second. ``nodes``: positions expanded by this call,
    ``seconds``: wall time. ``proof_size``: positions in the proof graph of a proven or
    disproven answer (None when not asked, or when over :data:`SIZE_CAP`: then
    ``proof_size_at_least`` holds the count reached); below a node that threat-space search
    proved (a threat probe, or a threat-mode question on this table), its proof, whose
    left-out defender's replies lose in three plies and are not counted, nor are the moves a
    relevance zone leaves out; ``proof_size_threats``: how many of those positions lie inside
    such threat-space proofs (the others form df-pn's own tree, whose leaves include the
    nodes they proved). ``line``: for a proven win, moves (cells, or columns with gravity,
    0-based) from the position to the attacker's completed line, the defender resisting
    longest by the search's measure (of its replies the table holds). ``phi``, ``delta``:
    the root's proof and disproof numbers from the side to move (``INF`` of
    :mod:`fastttt.kernels.dfpn` for infinite). ``deepest``: the deepest ply reached below the
    root; ``root_moves``, ``root_solved``: the root's moves searched and how many of them are
    solved (how far an unfinished search got; transposed moves count separately).
    ``beyond_reach``: with ``attacker_reach``, the search ended without a win that keeps to
    the reach (``proven`` None: the attacker may still win with moves farther out).
    ``line_start``: when the line's bound ended its walk, the moves walked so far (the
    winner's each proven to win, the loser's any), else None.
    """

    proven: bool | None
    attacker: int
    mode: str
    nodes: int
    seconds: float
    proof_size: int | None = None
    proof_size_at_least: int | None = None
    line: tuple[int, ...] | None = None
    phi: int = 1
    delta: int = 1
    deepest: int = 0
    root_moves: int = 0
    root_solved: int = 0
    beyond_reach: bool = False
    line_start: tuple[int, ...] | None = None
    proof_size_threats: int | None = None


def _tag(attacker: int, mode: int, reach: int = 0, passed: bool = False) -> np.uint64:
    """The table tag of a question: "does ``attacker`` win?" in ``mode``, within ``reach``
    (0: none), in the positions after a pass (``passed``)."""
    flip = np.uint64(reach * _REACH_TAG % (1 << 64)) ^ (_PASS_TAG if passed else np.uint64(0))
    return np.uint64(_TAGS[attacker + 2 * mode]) ^ flip


def _threat_tag(attacker: int) -> np.int64:
    """The table tag of the threat mode's entries for ``attacker`` (shared by its probes)."""
    return np.int64(_tag(attacker, K.MODE_THREATS).view(np.int64))


def _attackers_answer(phi: int, delta: int, to_move: int, attacker: int) -> bool | None:
    """Does ``attacker`` win, from the mover's ``phi``, ``delta`` (None: not settled)?"""
    won, lost = (phi, delta) if to_move == attacker else (delta, phi)
    return True if won == 0 else False if lost == 0 else None


def zone_cache_shape(cells: int, tt_bits: int, zone_nodes: int) -> tuple[int, int]:
    """Rows and int64 words of the zone cache beside a table of 2**``tt_bits`` rows: a row for
    each 2**ZONE_CACHE_SHIFT of the table, at most 2**ZONE_CACHE_MAX_BITS (one with zones off);
    a word for the key, then a bit a cell (:func:`fastttt.kernels.dfpn.keep_zone`)."""
    bits = min(max(tt_bits - ZONE_CACHE_SHIFT, 0), ZONE_CACHE_MAX_BITS) if zone_nodes else 0
    return 1 << bits, 1 + (cells + 63) // 64


def memory_needed(cells: int, tt_bits: int, zone_nodes: int) -> int:
    """Bytes of a :class:`ProofSearch`'s table and zone cache (its stacks are a few MiB)."""
    rows, words = zone_cache_shape(cells, tt_bits, zone_nodes)
    return (TT_ROW_BYTES << tt_bits) + 8 * rows * words


def memory_words(tt_bits: int, tables: int, zone_caches: int) -> str:
    """What :func:`memory_needed` counts, for a refusal: ``"df-pn's memory (a table of 2**22
    rows of 32 bytes)"``, with ``tables`` of them and ``zone_caches`` zone caches."""
    what = "a table" if tables == 1 else f"{tables} tables"
    cache = {0: "", 1: " and a zone cache"}.get(zone_caches, f" and {zone_caches} zone caches")
    return f"df-pn's memory ({what} of 2**{tt_bits} rows of {TT_ROW_BYTES} bytes{cache})"


def memory_advice(workers: bool) -> str:
    """A refusal's advice: fewer bits, and fewer workers where their tables were counted."""
    return "ask for fewer bits or fewer workers" if workers else "ask for fewer bits"


class ProofSearch:
    """df-pn over one board geometry, with a transposition table kept between questions.

    ``tt_bits``: 2**bits table rows of 32 bytes (default 22: 128 MiB); ``epsilon``: the
    threshold growth of the 1 + epsilon trick (0.25); ``pairing``: leaves where a pairing
    blocks every open line of the attacker (free boards), found by a greedy pass then, at the
    attacker's nodes, a search of ``pairing_nodes`` nodes, and again with 4 times more each
    time the node's df-pn work passes 8 times the last budget (up to 6 searches;
    :func:`fastttt.kernels.threats.pairing_holds`; ``pairing_search_nodes`` counts their
    nodes, which ``nodes`` leaves out: the module docstring of :mod:`fastttt.kernels.dfpn`);
    ``threat_nodes``: in full mode on free boards, each attacker's node is first probed by a
    threat-space search of that many nodes (0: never), and again with 4 times more each time
    its df-pn work passes 8 times the last probe's budget (up to 6 probes); a threat win
    proves the node (:func:`fastttt.kernels.dfpn.threat_probe`). ``threat_probe_nodes`` and
    ``threat_probe_wins`` count the probes' nodes (part of ``nodes``) and wins.
    ``zone_nodes``: at each defender's node (full mode, free boards) the attacker is asked,
    in that many nodes, whether it would win by threats if the defender passed; if so only
    the defender's moves in the proof's relevance zone are searched, the others losing by the
    same proof (:func:`fastttt.kernels.dfpn.relevance_zone`; 0: never); a zone found is kept
    in a cache (:func:`zone_cache_shape`), and a node visited again reads it there
    (``zone_cache_hits``). ``zone_cuts`` and
    ``zone_moves_pruned`` count the nodes restricted and the moves left out; the probes'
    nodes, and the positions of the walks that read a zone off a probe's proof, count in
    ``threat_probe_nodes``. ``weak_sums``: a node's number that sums its
    children's is the largest plus one for each other open child (Ueda et al. 2008), so that
    children whose subtrees transpose into each other do not add up: on the boards measured,
    fewer nodes to refute and more to prove (docs/search.md). ``pairing_zones`` (free boards,
    with ``pairing``; 0: off, at most 4): at each attacker's node, that many defender's moves
    (those on the most lines open to the attacker) are tried as the answer to a pass; when a
    pairing (greedy pass, then ``pairing_nodes``) then blocks every open line, the
    attacker's moves off that answer and the pairs lose, and only the others are searched
    (the module docstring of :mod:`fastttt.kernels.dfpn`); ``pairing_zone_cuts`` and
    ``pairing_zone_moves_pruned`` count them. ``order_weight``: a child not yet searched
    starts with a disproof number of 1 plus its rank in the node's move order times this
    weight, kept to an eighth (df-pn+ with the move order as the estimate; 0, or under 1/16:
    every child starts at 1, so a node expands all its children before it deepens any).
    ``dependent_threats`` (with ``threat_nodes``): after its first threat, a probe's attacker
    makes threes only on lines through its previous stone, fours anywhere (Allis'
    dependency-based search; the module docstring of :mod:`fastttt.kernels.dfpn`): a
    narrower, deeper probe for the same nodes. ``threat_offence``: in threat mode (threat
    probes, zones' probes, ``mode="threats"``) the attacker's fours and threes are ordered
    with its own lines weighing ``2**threat_offence`` times more than the defender's lines they
    block (0: the plain move order). ``sibling_zone_work`` (with ``zone_nodes``; 0: off): at a
    defender's node whose visit has done that many nodes or more, each move the attacker
    refutes is probed (``zone_nodes`` nodes) for the zone of its threat win
    (:meth:`sibling_zone`); the node's moves off it lose too, and are not searched
    (``sibling_zones`` and ``sibling_zone_moves_pruned`` count them).
    ``threat_probe_search`` and ``zone_probe_search`` (one of :data:`PROBE_SEARCHES`): how
    the threat probes and the zones' probes search. ``"depth-first"`` deepens 8, 16, 32 plies,
    then without limit; ``"df-pn"`` is df-pn in threat mode with every three
    (:func:`fastttt.kernels.dfpn.threat_dfpn`; ``dependent_threats`` does not apply to it),
    its numbers kept in the table so that a probe asked again goes on where the last one
    stopped; ``"short-first"`` searches 8 plies depth first, then df-pn on the rest of the
    budget when those plies settled nothing.
    """

    def __init__(
        self,
        spec,
        *,
        tt_bits: int | None = None,
        epsilon: float = DEFAULT_EPSILON,
        pairing: bool = True,
        pairing_nodes: int = DEFAULT_PAIRING_NODES,
        threat_nodes: int = DEFAULT_THREAT_NODES,
        zone_nodes: int = DEFAULT_ZONE_NODES,
        weak_sums: bool = DEFAULT_WEAK_SUMS,
        pairing_zones: int = DEFAULT_PAIRING_ZONES,
        order_weight: float = DEFAULT_ORDER_WEIGHT,
        dependent_threats: bool = DEFAULT_DEPENDENT_THREATS,
        threat_offence: int = DEFAULT_THREAT_OFFENCE,
        sibling_zone_work: int = DEFAULT_SIBLING_ZONE_WORK,
        threat_probe_search: str = DEFAULT_PROBE_SEARCH,
        zone_probe_search: str = DEFAULT_PROBE_SEARCH,
    ):
        self.board = LineBoard(spec)
        self.geometry = self.board.geometry
        bits = DEFAULT_TT_BITS if tt_bits is None else require_int(tt_bits, "tt_bits", 4, 32)
        self.tt_bits = bits
        n = self.geometry.cells
        zone_nodes = require_int(zone_nodes, "zone_nodes", 0, 1 << 30)
        require_memory(
            memory_needed(n, bits, zone_nodes), memory_words(bits, 1, int(zone_nodes > 0))
        )
        self.tt = np.zeros((1 << bits, 4), dtype=np.int64)
        self.zone_cache = np.zeros(zone_cache_shape(n, bits, zone_nodes), dtype=np.int64)
        self.stk = np.zeros((n + 2, K.NF + 3 * n), dtype=np.int64)
        self.wstk = np.zeros((n + 2, K.NF + 3 * n), dtype=np.int64)
        self.covered = np.zeros(self.board.lines, dtype=np.int8)
        self.used = np.zeros(n, dtype=np.int8)
        self.ctl = np.zeros(K.CTL_SIZE, dtype=np.int64)
        self.ctl[K.C_EPS_NUM] = round(require_number(epsilon, "epsilon", 0, 16) * 1024)
        self.ctl[K.C_EPS_DEN] = 1024
        self.ctl[K.C_TTBITS] = bits
        self.ctl[K.C_PAIRING] = int(pairing)
        self.ctl[K.C_PAIR_BUDGET] = require_int(pairing_nodes, "pairing_nodes", 0, 1 << 30)
        self.ctl[K.C_TSS_BUDGET] = require_int(threat_nodes, "threat_nodes", 0, 1 << 30)
        self.ctl[K.C_ZONE_BUDGET] = zone_nodes
        self.ctl[K.C_WEAK] = int(require_type(weak_sums, bool, "weak_sums"))
        self.ctl[K.C_PZONE_TRIES] = require_int(
            pairing_zones, "pairing_zones", 0, K.PZONE_MAX_TRIES
        )
        weight = require_number(order_weight, "order_weight", 0, ORDER_WEIGHT_MAX)
        self.ctl[K.C_ORDER] = round(weight * K.ORDER_SCALE)
        dependent = require_type(dependent_threats, bool, "dependent_threats")
        self.ctl[K.C_DEPENDENT] = int(dependent)
        self.ctl[K.C_LAST_OWN] = -1
        self.ctl[K.C_OFFENCE] = require_int(threat_offence, "threat_offence", 0, THREAT_OFFENCE_MAX)
        self.ctl[K.C_SIBLING] = require_int(sibling_zone_work, "sibling_zone_work", 0, 1 << 40)
        self.ctl[K.C_THREAT_PROBE] = probe_search_code(threat_probe_search, "threat_probe_search")
        self.ctl[K.C_ZONE_PROBE] = probe_search_code(zone_probe_search, "zone_probe_search")
        self.stop = new_stop()
        self._lock = threading.Lock()
        self._armed = False
        self.nodes = 0  # every node expanded by this searcher

    @property
    def threat_probe_nodes(self) -> int:
        """Nodes of the threat probes at attacker's nodes, over every question so far."""
        return int(self.ctl[K.C_TSS_NODES])

    @property
    def pairing_search_nodes(self) -> int:
        """Nodes of the pairing searches (after the greedy pass), over every question so far."""
        return int(self.ctl[K.C_PAIR_NODES])

    @property
    def threat_probe_wins(self) -> int:
        """Attacker's nodes proven by a threat probe, over every question so far."""
        return int(self.ctl[K.C_TSS_WINS])

    @property
    def zone_cuts(self) -> int:
        """Defender's nodes whose moves a relevance zone restricted, over every question."""
        return int(self.ctl[K.C_ZONE_CUTS])

    @property
    def zone_moves_pruned(self) -> int:
        """Defender's moves left out by relevance zones, over every question."""
        return int(self.ctl[K.C_ZONE_PRUNED])

    @property
    def zone_cache_hits(self) -> int:
        """Defender's nodes whose relevance zone came from the zone cache, over every question
        (a node visited again has it kept instead of probed and walked again)."""
        return int(self.ctl[K.C_ZONE_HITS])

    @property
    def sibling_zones(self) -> int:
        """Zones found from refuted defender's moves (``sibling_zone_work``), over every
        question."""
        return int(self.ctl[K.C_SIBLING_ZONES])

    @property
    def sibling_zone_moves_pruned(self) -> int:
        """Defender's moves proven lost by a refuted sibling's zone, over every question."""
        return int(self.ctl[K.C_SIBLING_PRUNED])

    @property
    def pairing_zone_cuts(self) -> int:
        """Attacker's nodes whose moves a pairing zone restricted, over every question."""
        return int(self.ctl[K.C_PZONE_CUTS])

    @property
    def pairing_zone_moves_pruned(self) -> int:
        """Attacker's moves left out by pairing zones, over every question."""
        return int(self.ctl[K.C_PZONE_PRUNED])

    def relevance_zone(self, pos, attacker: int) -> frozenset[int] | None:
        """The cells of ``pos`` (the defender, ``1 - attacker``, to move; a free board) where
        a defender's stone can stop the attacker's threat win that a null-move probe of
        ``zone_nodes`` nodes finds; a stone elsewhere loses to the same proof. None when there
        is no such win (or zones are off)."""
        return self._defender_zone(pos, attacker, "relevance zone", None)

    def sibling_zone(self, pos, attacker: int, move: int) -> frozenset[int] | None:
        """The cells of ``pos`` (the defender, ``1 - attacker``, to move; a free board) off
        which a defender's move loses when ``move`` loses to the attacker's threat win that a
        probe of ``zone_nodes`` nodes finds after it: a stone elsewhere, instead of ``move``,
        leaves that win standing. None when there is no such win (or zones are off)."""
        move = require_int(move, "move", 0, self.geometry.cells - 1)
        return self._defender_zone(pos, attacker, "sibling zone", move)

    def _defender_zone(self, pos, attacker, what: str, move: int | None):
        """:meth:`relevance_zone` (``move`` None) or :meth:`sibling_zone` of ``move``."""
        attacker = require_int(attacker, "attacker", 0, 1)
        if self.geometry.gravity:
            raise InvalidArgumentError(f"{what}s need a free board (no gravity)")
        self._load(pos)
        if pos.to_move == attacker:
            raise InvalidArgumentError(f"player {attacker} is to move: a {what} is the defender's")
        if move is not None and pos.occupied >> move & 1:
            raise InvalidArgumentError(f"cell {move} is not empty")
        ctl = self.ctl
        ctl[K.C_ATTACKER] = attacker
        ctl[K.C_MODE] = K.MODE_FULL
        ctl[K.C_TSS_TAG] = _threat_tag(attacker)
        ctl[K.C_MAXNODES] = 1 << 62
        args = (self.board.B, self.board.Z, self.tt, ctl, self.stk, self.covered, self.used)
        found = K.relevance_zone(*args) if move is None else K.sibling_zone(*args, move)
        if not found:
            return None
        marks = self.board.B[L.H_SCRATCH] + 3 * self.geometry.cells
        zone = self.board.B[marks : marks + self.geometry.cells]
        return frozenset(int(c) for c in np.flatnonzero(zone))

    def pairing_zone(self, pos, attacker: int) -> frozenset[int] | None:
        """The cells of ``pos`` (``attacker`` to move; a free board) that a pairing zone
        keeps: the defender's answer to a pass and the cells of a pairing that then blocks
        every open line of ``attacker``; a move elsewhere does not win. None when the
        ``pairing_zones`` answers tried give no pairing (or pairing zones are off)."""
        attacker = require_int(attacker, "attacker", 0, 1)
        if self.geometry.gravity:
            raise InvalidArgumentError("pairing zones need a free board (no gravity)")
        self._load(pos)
        if pos.to_move != attacker:
            raise InvalidArgumentError(
                f"player {attacker} is not to move: a pairing zone is the attacker's"
            )
        self.ctl[K.C_ATTACKER] = attacker
        if self.ctl[K.C_PZONE_TRIES] == 0 or not K.pairing_zone(
            self.board.B, self.board.Z, self.ctl, self.covered, self.used
        ):
            return None
        zone = frozenset(int(c) for c in np.flatnonzero(self.used))
        self.used[:] = 0
        return zone

    # --- positions -------------------------------------------------------------------------
    def _load(self, pos, to_move: int | None = None) -> bool:
        """Load the live ``pos`` with ``to_move`` to move (None: its own side to move; the
        other: the position after a pass); True after a pass (:meth:`_load_stones`)."""
        geo = self.geometry
        spec = getattr(pos, "spec", None)
        if spec is None:
            raise InvalidArgumentError(f"expected a position, got {pos!r}")
        if geometry_of(spec) != geo:
            raise InvalidPositionError(f"a position of {spec}, a searcher of {geo.name}")
        if pos.is_over():
            raise InvalidPositionError(f"the game is already over in {pos!r}")
        side = pos.to_move if to_move is None else to_move
        return self._load_stones(int(pos.first), int(pos.second), side)

    def pairing_blocks(self, pos, attacker: int, nodes: int = BLOCKING_PAIRS_NODES) -> bool:
        """True when a pairing of the empty cells blocks every open line of ``attacker``
        in ``pos`` (free boards): then ``attacker`` cannot win, whoever moves (the greedy
        pass and search of :func:`fastttt.kernels.threats.pairing_holds`: False is "not
        found"). ``nodes``: as for :meth:`blocking_pairs`."""
        return self.blocking_pairs(pos, attacker, nodes) is not None

    def blocking_pairs(
        self, pos, attacker: int, nodes: int = BLOCKING_PAIRS_NODES
    ) -> tuple[tuple[int, int], ...] | None:
        """The pairs of empty cells (disjoint, every open line of ``attacker`` holding one)
        that :meth:`pairing_blocks` finds in ``pos`` (free boards; a search of at least
        ``nodes`` nodes, and at the attacker's turn at least the budget df-pn's own search
        there last had), or None: a certificate that ``attacker`` cannot win, whoever
        moves. Proof files' certificates use :data:`CERTIFICATE_PAIRING_NODES`."""
        if self.geometry.gravity:
            return None
        attacker = require_int(attacker, "attacker", 0, 1)
        nodes = require_int(nodes, "nodes", 0, 1 << 40)
        self._load(pos)
        budget = max(self.ctl[K.C_PAIR_BUDGET], nodes)
        if pos.to_move == attacker:  # the budget df-pn's own search here last had
            found, _, _, _, flags = K.tt_get(self.tt, self._key(attacker), self.tt_bits)
            if found:
                budget = max(budget, int(K.pairing_budget(self.ctl, flags)))
        return self._loaded_pairs(attacker, int(budget))

    def table_work(self, pos, attacker: int, won: bool) -> int | None:
        """The work (nodes searched below it) behind the table's answer that ``attacker``
        wins (``won``) or does not win from the live ``pos`` (the full-mode question, no
        reach); None when the table holds no such answer. A proof's builder follows the
        cheapest."""
        attacker = require_int(attacker, "attacker", 0, 1)
        self._load(pos)
        found, phi, delta, work, _ = K.tt_get(self.tt, self._key(attacker), self.tt_bits)
        mine, theirs = (phi, delta) if pos.to_move == attacker else (delta, phi)
        settled = mine == 0 if won else theirs == 0
        return int(work) if found and settled else None

    def child_numbers(
        self, pos, attacker: int, attacker_reach: int = 0
    ) -> dict[int, tuple[int, int]]:
        """``{move: (proof, disproof)}``: the numbers the table holds for "does ``attacker``
        win?" after each legal move of the live ``pos`` (full mode, with the reach a search
        used), from the attacker's side (proof 0: it wins there); children the table does not
        hold, and moves that end the game, are left out; a position a threat probe settled
        keeps its proof in the probes' entries, which this does not read. After an unsettled
        search it says which moves df-pn found most promising."""
        attacker = require_int(attacker, "attacker", 0, 1)
        attacker_reach = require_int(attacker_reach, "attacker_reach", 0, 64)
        numbers = {}
        for move in pos.legal_moves():
            child = pos.play(move)
            if child.is_over():
                continue
            self._load(child)
            key = self._key(attacker, attacker_reach)
            found, phi, delta, _, _ = K.tt_get(self.tt, key, self.tt_bits)
            if found:
                mine, theirs = (phi, delta) if child.to_move == attacker else (delta, phi)
                numbers[move] = (int(mine), int(theirs))
        return numbers

    def promising_line(
        self, pos, attacker: int, attacker_reach: int = 0, plies: int | None = None
    ) -> list[LineStep]:
        """The line df-pn finds most promising from the live ``pos`` (as
        :meth:`child_numbers` reads the table): the attacker's child of least proof number,
        the defender's of least disproof number, down to ``plies`` moves (default: no limit),
        a settled child or a position whose children the table does not hold. Where a stopped
        search is still deep below the root, the numbers above it are those it went down with;
        the line shows where its work went, and the subtree that keeps a long question open."""
        cells = self.geometry.cells
        plies = cells if plies is None else min(require_int(plies, "plies", 0, 1 << 30), cells)
        line: list[LineStep] = []
        while len(line) < plies:
            numbers = self.child_numbers(pos, attacker, attacker_reach)
            if not numbers:
                break
            side = 0 if pos.to_move == attacker else 1
            move, best = min(numbers.items(), key=lambda kv: (kv[1][side], kv[1][1 - side]))
            unsettled = sum(1 for proof, disproof in numbers.values() if proof and disproof)
            line.append(LineStep(move, best[0], best[1], len(numbers), unsettled))
            if 0 in best:
                break
            pos = pos.play(move)
        return line

    def _key(self, attacker: int, reach: int = 0) -> np.uint64:
        """The table key of the loaded position for the full-mode question (within ``reach``;
        0: none)."""
        tag = _tag(attacker, K.MODE_FULL, reach)
        return np.uint64(L.canonical_key(self.board.B, self.board.Z, tag))

    def _move_of(self, cell: int) -> int:
        return cell % self.geometry.cols if self.geometry.gravity else cell

    # --- budget ----------------------------------------------------------------------------
    def halt(self) -> None:
        """Stop the :meth:`prove` that another thread runs: it returns ``proven`` None, as
        when its time runs out (the table kept). A call of :meth:`prove` that starts later
        clears the word: call again until the other thread is done."""
        self.stop[0] = _BUDGET_WORD

    def _arm(self, seconds: float | None):
        """A timer that writes the stop word when ``seconds`` have passed (None: no timer)."""
        self.stop[0] = 0
        if seconds is None:
            return None
        self._armed = True

        def fire():
            with self._lock:
                if self._armed:
                    self.stop[0] = _BUDGET_WORD

        timer = threading.Timer(max(0.0, seconds), fire)
        timer.daemon = True
        timer.start()
        return timer

    def _disarm(self, timer) -> None:
        if timer is not None:
            timer.cancel()
        with self._lock:
            self._armed = False
        self.stop[0] = 0

    def _kernel(self, kernel, *args):
        return run(kernel, *args, stop=self.stop, slot=0)

    # --- the question ----------------------------------------------------------------------
    def prove(
        self,
        pos,
        attacker: int,
        *,
        mode: str = "full",
        max_nodes: int | None = None,
        seconds: float | None = None,
        proof_size: bool = False,
        line: bool = True,
        after_seconds: float | None = None,
        attacker_reach: int = 0,
    ) -> DfpnResult:
        """Does ``attacker`` win from ``pos`` (a live position: no line, not full)? Within
        ``max_nodes`` expanded positions and ``seconds`` of wall time (None: no limit; Ctrl-C
        raises KeyboardInterrupt, the table kept). ``proof_size``: also count the proof
        graph; ``line``: the principal line of a proven win; both walk the proof once it is
        found, within ``after_seconds`` more (None: no limit) and ``max_nodes`` more nodes for
        their searches again of entries the table lost. ``attacker_reach`` (full mode, free
        boards; 0: off): the attacker plays only within that many rows and columns of a stone
        (its forced blocks excepted), which narrows the search for a win; a win found is won
        in the real game, but a failure proves nothing (``proven`` None). Kernel:
        :func:`fastttt.kernels.dfpn.search`."""
        if mode not in MODES:
            raise InvalidArgumentError(f"mode must be one of {sorted(MODES)}, got {mode!r}")
        if mode == "threats" and self.geometry.gravity:
            raise InvalidArgumentError("threat-space search needs a free board (no gravity)")
        attacker = require_int(attacker, "attacker", 0, 1)
        attacker_reach = require_int(attacker_reach, "attacker_reach", 0, 64)
        if attacker_reach and (mode != "full" or self.geometry.gravity):
            raise InvalidArgumentError("attacker_reach is for full mode on a free board")
        limit = (1 << 62) if max_nodes is None else require_int(max_nodes, "max_nodes", 0, 1 << 62)
        self._load(pos)
        ctl = self.ctl
        start_nodes = self._set_question(attacker, MODES[mode], attacker_reach, limit)
        t0 = time.perf_counter()
        timer = self._arm(seconds)
        try:
            status = self._kernel(
                K.search,
                self.board.B,
                self.board.Z,
                self.tt,
                ctl,
                self.stop,
                self.stk,
                self.covered,
                self.used,
                self.zone_cache,
            )
            phi, delta = int(ctl[K.C_PHI]), int(ctl[K.C_DELTA])
            reach = (int(ctl[K.C_DEEPEST]), int(ctl[K.C_ROOT_MOVES]), int(ctl[K.C_ROOT_SOLVED]))
            proven = None
            beyond_reach = False
            if status == K.ST_DONE:
                proven = _attackers_answer(phi, delta, pos.to_move, attacker)
                if attacker_reach and proven is False:
                    proven, beyond_reach = None, True  # lost within the reach only
            size = at_least = in_threats = None
            moves = line_start = None
            if proven is not None and (proof_size or proven and line):
                self._disarm(timer)
                self._load_walks(proof_size, proven and line)
                timer = self._arm(after_seconds)
                ctl[K.C_MAXNODES] = min(int(ctl[K.C_NODES]) + limit, 1 << 62)
            if proven is not None and proof_size:
                size, at_least = self._proof_size()
                in_threats = int(ctl[K.C_SIZE_THREATS]) if size is not None else None
            if proven and line:
                out = np.zeros(self.geometry.cells + 1, dtype=np.int64)
                got = self._kernel(K.principal_line, *self._walk_args(), out)
                walked = tuple(self._move_of(int(c)) for c in out[: ctl[K.C_LINE_LEN]])
                if got == K.ST_DONE:
                    moves = walked
                elif walked:
                    line_start = walked
        finally:
            self._disarm(timer)
            nodes = int(ctl[K.C_NODES]) - start_nodes
            self.nodes += nodes  # an interrupted question's too: its work stays in the table
        return DfpnResult(
            proven,
            attacker,
            mode,
            nodes,
            time.perf_counter() - t0,
            size,
            at_least,
            moves,
            phi,
            delta,
            *reach,
            beyond_reach=beyond_reach,
            line_start=line_start,
            proof_size_threats=in_threats,
        )

    def _set_question(self, attacker: int, mode: int, reach: int, limit: int, passed=False) -> int:
        """Set ``ctl`` for "does ``attacker`` win?" (``passed``: in the positions after a
        pass) within ``limit`` more nodes; returns the node count so far."""
        ctl = self.ctl
        ctl[K.C_ATTACKER] = attacker
        ctl[K.C_MODE] = mode
        ctl[K.C_TAG] = np.int64(_tag(attacker, mode, reach, passed).view(np.int64))
        threat_tag = _tag(attacker, K.MODE_THREATS, 0, passed)
        ctl[K.C_TSS_TAG] = np.int64(threat_tag.view(np.int64))
        ctl[K.C_REACH] = reach
        ctl[K.C_THPHI] = ctl[K.C_THDELTA] = K.INF
        ctl[K.C_DEEPEST] = 0
        start_nodes = int(ctl[K.C_NODES])
        ctl[K.C_MAXNODES] = start_nodes + limit
        return start_nodes

    def refute_group(
        self,
        pos,
        cells,
        attacker: int,
        *,
        max_nodes: int | None = None,
        attacker_reach: int = 0,
    ) -> bool | None:
        """The defender, to move in ``pos`` (a free board), is given a stone on every cell of
        ``cells`` (empty cells) at once, and the attacker moves: does it still win? True
        means that each of those cells, played alone, loses for the defender: a player's
        extra stones never hurt it (its strategy ignores them, and plays elsewhere where it
        would play on one), so the attacker's win against them all is a win against any one.
        False: it does not win against them all (a defender's line among them, or a full
        board, included), which says nothing of one cell; None: unknown within ``max_nodes``
        (or, with ``attacker_reach`` as in :meth:`prove`, no win within the reach). One
        :meth:`prove_stones` question, in this searcher's table."""
        attacker = require_int(attacker, "attacker", 0, 1)
        if self.geometry.gravity:
            raise InvalidArgumentError("a group of the defender's moves needs a free board")
        self._load(pos)  # checks the position
        if pos.to_move == attacker:
            raise InvalidArgumentError(f"the defender ({'XO'[1 - attacker]}) must be to move")
        if isinstance(cells, (str, bytes)) or not hasattr(cells, "__iter__"):
            raise InvalidArgumentError(f"cells must be a collection of cells, got {cells!r}")
        group = 0
        for c in cells:
            c = require_int(c, "cell", 0, self.geometry.cells - 1)
            if (pos.first | pos.second | group) >> c & 1:
                raise InvalidArgumentError(f"cell {c} is not empty, or named twice")
            group |= 1 << c
        if not group:
            raise InvalidArgumentError("the group holds no cell")
        if attacker == 0:
            first, second = pos.first, pos.second | group
        else:
            first, second = pos.first | group, pos.second
        full = (1 << self.geometry.cells) - 1
        if first | second == full or has_line(pos.spec, second if attacker == 0 else first):
            return False
        return self.prove_stones(first, second, attacker, attacker, max_nodes, attacker_reach)

    def pass_zone(
        self,
        pos,
        attacker: int,
        *,
        max_nodes: int | None = None,
        seconds: float | None = None,
        attacker_reach: int = 0,
        walk_cap: int = PASS_ZONE_WALK,
    ) -> PassZone:
        """The side to move in ``pos`` (a free board) passes: does ``attacker`` win then, and
        where could a move of the side that passed stop that proof? df-pn in full mode (this
        searcher's threat probes and pairings; no relevance or pairing zones) within
        ``max_nodes`` and ``seconds`` (None: no limit; Ctrl-C raises KeyboardInterrupt), then
        a walk of at most ``walk_cap`` positions that reads the zone of the proof of the
        other side's goal (:func:`fastttt.kernels.pass_zone.proof_zone`, whose docstring
        gives the rules): when the defender is to move, the attacker's win, and the
        defender's moves off the zone lose; when the attacker is to move, its failure, and
        its moves off the zone do not win. ``attacker_reach`` as in :meth:`prove`, for the
        attacker's win only (a failure within it: ``proven`` None)."""
        attacker = require_int(attacker, "attacker", 0, 1)
        if self.geometry.gravity:
            raise InvalidArgumentError("a pass zone needs a free board (no gravity)")
        attacker_reach = require_int(attacker_reach, "attacker_reach", 0, 64)
        walk_cap = require_int(walk_cap, "walk_cap", 1, 1 << 40)
        limit = (1 << 62) if max_nodes is None else require_int(max_nodes, "max_nodes", 0, 1 << 62)
        prover = 1 - pos.to_move  # to move after the pass
        self._load(pos, prover)
        if attacker_reach and prover != attacker:
            raise InvalidArgumentError(
                "attacker_reach is for the attacker's win: here the attacker passes"
            )
        start_nodes = self._set_question(attacker, K.MODE_FULL, attacker_reach, limit, True)
        ctl, B = self.ctl, self.board.B
        zones = np.zeros((self.stk.shape[0], self.geometry.cells), dtype=np.int8)
        zoning = (int(ctl[K.C_ZONE_BUDGET]), int(ctl[K.C_PZONE_TRIES]))
        ctl[K.C_ZONE_BUDGET] = ctl[K.C_PZONE_TRIES] = 0  # they leave out moves the walk reads
        t0 = time.perf_counter()
        timer = self._arm(seconds)
        walked, outcome, proven = 0, P.Z_NO_PROOF, None
        try:
            args = (B, self.board.Z, self.tt, ctl)
            status = self._kernel(
                K.search, *args, self.stop, self.stk, self.covered, self.used, self.zone_cache
            )
            if status == K.ST_DONE:
                won = bool(ctl[K.C_PHI] == 0)  # the prover's goal
                proven = won == (prover == attacker)
                if attacker_reach and proven is False:
                    proven = None  # lost within the reach only
                elif won:
                    outcome, walked = self._kernel(
                        P.proof_zone,
                        *args,
                        self.stop,
                        self.stk,
                        zones,
                        self.covered,
                        self.used,
                        self.zone_cache,
                        prover,
                        walk_cap,
                    )
                    ctl[K.C_NODES] += walked
        finally:
            self._disarm(timer)
            ctl[K.C_ZONE_BUDGET], ctl[K.C_PZONE_TRIES] = zoning
            nodes = int(ctl[K.C_NODES]) - start_nodes
            self.nodes += nodes
        zone = None
        if outcome == P.Z_FOUND:
            cells = (int(c) for c in np.flatnonzero(zones[0]))
            zone = frozenset(c for c in cells if not pos.occupied >> c & 1)
        return PassZone(proven, zone, nodes, walked, time.perf_counter() - t0)

    # --- stones with either side to move, as after passes (:mod:`fastttt.search.draw_zones`) --
    def _load_stones(self, first: int, second: int, to_move: int) -> bool:
        """Load the stones with ``to_move`` to move; True when their count gives the move to
        the other side (after an odd number of passes: keyed with the pass tag)."""
        self.board.load(first, second)
        passed = int(self.board.B[L.H_PLY]) & 1 != to_move
        self.board.B[L.H_PLY] += int(passed)
        return passed

    def prove_stones(
        self,
        first: int,
        second: int,
        to_move: int,
        attacker: int,
        max_nodes: int | None = None,
        attacker_reach: int = 0,
    ) -> bool | None:
        """:meth:`prove`'s full-mode answer for the stones ``first``, ``second`` (bitboards of
        a live position the caller has checked) with ``to_move`` to move, whatever their
        count says (positions after passes); None when ``max_nodes`` ran out, or when
        ``attacker_reach`` (as in :meth:`prove`) is on and the attacker does not win."""
        limit = (1 << 62) if max_nodes is None else require_int(max_nodes, "max_nodes", 0, 1 << 62)
        reach = require_int(attacker_reach, "attacker_reach", 0, 64)
        if reach and self.geometry.gravity:
            raise InvalidArgumentError("attacker_reach is for full mode on a free board")
        passed = self._load_stones(first, second, to_move)
        start_nodes = self._set_question(attacker, K.MODE_FULL, reach, limit, passed)
        ctl = self.ctl
        args = (self.board.B, self.board.Z, self.tt, ctl, self.stop, self.stk)
        try:
            status = self._kernel(K.search, *args, self.covered, self.used, self.zone_cache)
        finally:
            self.nodes += int(ctl[K.C_NODES]) - start_nodes
        if status != K.ST_DONE:
            return None
        won = _attackers_answer(int(ctl[K.C_PHI]), int(ctl[K.C_DELTA]), to_move, attacker)
        return None if reach and not won else won

    def _stones_entry(self, first: int, second: int, to_move: int, attacker: int):
        """The table row (``tt_get``'s tuple) of :meth:`prove_stones`' question."""
        passed = self._load_stones(first, second, to_move)
        tag = _tag(attacker, K.MODE_FULL, 0, passed)
        key = np.uint64(L.canonical_key(self.board.B, self.board.Z, tag))
        return K.tt_get(self.tt, key, self.tt_bits)

    def table_stones(
        self, first: int, second: int, to_move: int, attacker: int
    ) -> tuple[bool | None, int]:
        """The table's answer to :meth:`prove_stones`' question (None when it holds none) and
        the work behind it (nodes searched below the position)."""
        found, phi, delta, work, _ = self._stones_entry(first, second, to_move, attacker)
        if not found:
            return None, 0
        return _attackers_answer(int(phi), int(delta), to_move, attacker), int(work)

    def pairs_of_stones(
        self,
        first: int,
        second: int,
        to_move: int,
        attacker: int,
        nodes: int = BLOCKING_PAIRS_NODES,
    ) -> tuple[tuple[int, int], ...] | None:
        """:meth:`blocking_pairs` for the stones ``first``, ``second`` with ``to_move`` to
        move (as after passes)."""
        budget = max(int(self.ctl[K.C_PAIR_BUDGET]), nodes)
        if to_move == attacker:  # the budget df-pn's own search here last had
            found, _, _, _, flags = self._stones_entry(first, second, to_move, attacker)
            if found:
                budget = max(budget, int(K.pairing_budget(self.ctl, flags)))
        else:
            self.board.load(first, second)
        return self._loaded_pairs(attacker, budget)

    def _loaded_pairs(self, attacker: int, budget: int) -> tuple[tuple[int, int], ...] | None:
        out = np.zeros(self.geometry.cells, dtype=np.int64)
        count = blocking_pairs(self.board.B, attacker, self.covered, self.used, budget, out)
        if count < 0:
            return None
        return tuple((int(out[2 * i]), int(out[2 * i + 1])) for i in range(count))

    def _walk_args(self) -> tuple:
        """The arguments of the kernels that walk a proof, all but the last (the walk's output)."""
        b = self.board
        return (
            b.B,
            b.Z,
            self.tt,
            self.ctl,
            self.stop,
            self.stk,
            self.wstk,
            self.covered,
            self.used,
            self.zone_cache,
        )

    def _load_walks(self, size: bool, line: bool) -> None:
        """Compile (or load) the walks about to run, before their clock starts."""
        if size:
            compile_kernel(K.walk, *self._walk_args(), np.zeros(2, dtype=np.uint64))
        if line:
            compile_kernel(K.principal_line, *self._walk_args(), np.zeros(2, dtype=np.int64))

    def _proof_size(self) -> tuple[int | None, int | None]:
        """``(size, None)``, or ``(None, at_least)`` over :data:`SIZE_CAP` or when a search
        again of a lost entry ran out of budget. Kernel: :func:`fastttt.kernels.dfpn.walk`,
        with a set of seen positions 4 times bigger on each try."""
        cap = 1 << 10
        while True:
            self.ctl[K.C_SIZE_CAP] = cap
            seen = np.zeros(2 * cap, dtype=np.uint64)
            walked = self._kernel(K.walk, *self._walk_args(), seen)
            count = int(self.ctl[K.C_SIZE])
            if walked == K.ST_DONE:
                return count, None
            if walked != K.ST_CAP or cap >= SIZE_CAP:
                return None, count
            cap *= 4

    def reset(self) -> None:
        """Empty the transposition table and the zone cache."""
        self.tt[:] = 0
        self.zone_cache[:] = 0


def warmup() -> float:
    """Compile (or load from Numba's cache) the df-pn kernels; returns the seconds taken."""
    from fastttt.games.mnk.board import Position
    from fastttt.games.mnk.spec import mnk

    t0 = time.perf_counter()
    for spec, moves in ((mnk(3, 3, 3), [4]), (mnk(3, 4, 3, gravity=True), [1])):
        search = ProofSearch(spec, tt_bits=10)
        pos = Position.from_moves(spec, moves)
        search.prove(pos, 0, proof_size=True)
        search.prove(pos, 1, proof_size=True)
        if not spec.gravity:
            search.prove(pos, 0, mode="threats", proof_size=True)
    return time.perf_counter() - t0
