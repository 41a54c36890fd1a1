"""Relevance zones of draws, the attacker passing at every node (after Hsu, Ko, Wei et al.,
Theoretical Computer Science 815, 2020): a plain reference in Python over df-pn's answers.

The question is "``a`` (the attacker) does not win" on a free board, ``d`` the defender. The
proof is read as the defender's strategy, and each of its positions P gets a *zone*: a set of
P's empty cells such that the strategy still keeps ``a`` from winning when attacker's stones
are added on any empty cells off the zone (the zone's *claim*; the side to move unchanged).
"Open lines" are ``a``'s lines with no defender's stone. Zones, from the leaves up:

- the board is full: no cell;
- a pairing (disjoint pairs of empty cells, one pair in each open line: the defender answers
  a pair's cell with the other) blocks every open line: the pairs' cells;
- the defender to move can complete a line on w: w, and one empty cell of each open line;
- the attacker to move, the defender holding two winning cells: both, and two empty cells of
  each open line;
- the defender to move: its move c whose child df-pn disproves (the table's answer first, then
  a search), with the child's zone: {c} and Z(P + c);
- the attacker to move: it *passes*. When df-pn disproves its win after the pass, the pass
  position's zone Zp is read first, and only the attacker's moves on Zp are children: a move m
  off Zp gives the pass position with one more attacker's stone off Zp, which its claim
  covers. When the attacker wins after the pass, every move is a child. The zone: Zp, and
  each child's zone and move.

Why the claim holds, from the leaves up. Stones added off a zone are off every zone below it
(a zone holds its children's and its pass zone), so the defender's moves, all in zones, stay
legal, and the added stones never take a pair's cell or a defender's winning cell. Every zone
holds an empty cell of each open line (the leaves add them; a defender's zone holds its move
and its child's zone; an attacker's, its pass zone or every empty cell), so the added stones
complete no line by themselves; and where the attacker's move would complete one with them,
the child it leads to (or the pass position, for a move off Zp) has a zone holding a cell of
that line that is still empty, a contradiction. Only at a leaf where the attacker is to move
is there no child to argue from: there two empty cells of each open line are in the zone.
The pass rule is where zones prune: the attacker's moves off Zp are not searched.

Positions after passes have one side to move whatever the stone count says; df-pn keys them
apart (:meth:`fastttt.search.dfpn.ProofSearch.prove_stones`). This module is slow (Python at
every node of the zone proof) and is the reference that measures how small such zones get on
k-in-a-row, before a kernel is built for them (docs/search.md).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from fastttt.errors import InvalidArgumentError, InvalidPositionError, require_int
from fastttt.games.mnk.board import line_masks
from fastttt.search.dfpn import ProofSearch

DEFAULT_QUERY_NODES = 1 << 22  # df-pn nodes for one question of the zone proof
DEFAULT_MAX_POSITIONS = 1 << 20  # positions of the zone proof at most


class OutOfBudget(Exception):
    """The zone proof passed its positions, or a question its df-pn nodes."""


@dataclass(frozen=True)
class DrawZone:
    """The answer of :meth:`DrawZones.zone`. ``zone``: the root's empty cells such that
    attacker's stones added on any cells off them leave it without a win (the same strategy
    holds), None when the attacker wins or a budget ran out (``complete`` False);
    ``positions``: positions of the zone proof (each once); ``passes``, ``passes_held``: the
    attacker's passes asked and those it does not win after; ``moves_pruned``: attacker's
    moves off a pass zone, not searched; ``pass_moves``: the attacker's moves at the nodes
    where its pass held (``moves_pruned`` of them pruned); ``pairing_leaves`` and
    ``pairing_share``: the leaves closed by a pairing and the mean share of their empty cells
    that the pairs take; ``dfpn_nodes``: df-pn's positions for the answers; ``seconds``: wall
    time."""

    zone: frozenset[int] | None
    complete: bool
    positions: int
    passes: int
    passes_held: int
    moves_pruned: int
    pass_moves: int
    pairing_leaves: int
    pairing_share: float
    dfpn_nodes: int
    seconds: float


class DrawZones:
    """The zones of :mod:`fastttt.search.draw_zones` on one free board, df-pn's table kept
    between questions (``search``: a :class:`ProofSearch` of that board, or one of
    ``tt_bits``). ``query_nodes``: df-pn's nodes for one answer; ``max_positions``: positions
    of one zone proof."""

    def __init__(
        self,
        spec,
        *,
        search: ProofSearch | None = None,
        tt_bits: int | None = None,
        query_nodes: int = DEFAULT_QUERY_NODES,
        max_positions: int = DEFAULT_MAX_POSITIONS,
    ):
        if spec.gravity:
            raise InvalidArgumentError("draw zones need a free board (no gravity)")
        self.spec = spec
        self.search = search if search is not None else ProofSearch(spec, tt_bits=tt_bits)
        self.query_nodes = require_int(query_nodes, "query_nodes", 1, 1 << 50)
        self.max_positions = require_int(max_positions, "max_positions", 1, 1 << 40)
        self.lines = line_masks(spec)
        self.full = (1 << spec.cells) - 1
        # zones by (attacker's stones, defender's, defender to move): the rules are the same
        # for either player as the attacker, so they are kept between questions
        self._memo: dict[tuple[int, int, int], int] = {}
        self._a = 0
        self._counts = [0] * 6
        self._pair_share = 0.0

    def zone(self, pos, attacker: int) -> DrawZone:
        """The zone of "``attacker`` does not win from ``pos``" (a live position)."""
        if pos.spec != self.spec:
            raise InvalidPositionError(f"a position of {pos.spec}, zones of {self.spec}")
        if pos.is_over():
            raise InvalidPositionError(f"the game is already over in {pos!r}")
        attacker = require_int(attacker, "attacker", 0, 1)
        return self.zone_of_stones(pos.first, pos.second, pos.to_move, attacker)

    def zone_of_stones(self, first: int, second: int, to_move: int, attacker: int) -> DrawZone:
        """:meth:`zone` for the stones ``first``, ``second`` (bitboards of a live position)
        with either side to move, whatever their count says (as after passes)."""
        to_move = require_int(to_move, "to_move", 0, 1)
        attacker = require_int(attacker, "attacker", 0, 1)
        first = require_int(first, "first", 0, self.full)
        second = require_int(second, "second", 0, self.full)
        if first & second:
            raise InvalidPositionError(f"cells {sorted(_cells(first & second))} hold both sides")
        if first | second == self.full or any(
            line & stones == line for line in self.lines for stones in (first, second)
        ):
            raise InvalidPositionError("the game is already over: a line or a full board")
        stones = (first, second)
        self._a = attacker
        # positions, passes, passes held, moves pruned, pass moves, pairing leaves
        self._counts = [0, 0, 0, 0, 0, 0]
        self._pair_share = 0.0
        nodes0, t0 = self.search.nodes, time.perf_counter()
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 8 * self.spec.cells + 200))
        try:
            if self._ask(stones[attacker], stones[1 - attacker], to_move != attacker):
                mask = None  # the attacker wins
            else:
                mask = self._node(stones[attacker], stones[1 - attacker], to_move != attacker)
            complete = True
        except OutOfBudget:
            mask, complete = None, False
        finally:
            sys.setrecursionlimit(limit)
        zone = None if mask is None else frozenset(_cells(mask & ~(first | second)))
        positions, passes, held, pruned, pass_moves, leaves = self._counts
        return DrawZone(
            zone,
            complete and zone is not None,
            positions,
            passes,
            held,
            pruned,
            pass_moves,
            leaves,
            self._pair_share / leaves if leaves else 0.0,
            self.search.nodes - nodes0,
            time.perf_counter() - t0,
        )

    # --- the zone proof: A the attacker's stones, D the defender's ---------------------------
    def _stones(self, A: int, D: int, defender_to_move: bool) -> tuple[int, int, int]:
        """``(first, second, to_move)``: the players' stones and side for the searcher."""
        a = self._a
        first, second = (A, D) if a == 0 else (D, A)
        return first, second, 1 - a if defender_to_move else a

    def _ask(self, A: int, D: int, defender_to_move: bool) -> bool:
        """Does the attacker win (df-pn, the table first)?"""
        known, _ = self._known(A, D, defender_to_move)
        if known is None:
            stones = self._stones(A, D, defender_to_move)
            known = self.search.prove_stones(*stones, self._a, self.query_nodes)
        if known is None:
            raise OutOfBudget
        return known

    def _known(self, A: int, D: int, defender_to_move: bool) -> tuple[bool | None, int]:
        """The table's answer to "does the attacker win?" (None if it has none), its work."""
        return self.search.table_stones(*self._stones(A, D, defender_to_move), self._a)

    def _node(self, A: int, D: int, defender_to_move: bool) -> int:
        """The zone (a bitboard) of a position where the attacker does not win."""
        key = (A, D, int(defender_to_move))
        if key in self._memo:
            return self._memo[key]
        self._counts[0] += 1
        if self._counts[0] > self.max_positions:
            raise OutOfBudget
        empty = self.full & ~(A | D)
        pairs = self._pairs(A, D, defender_to_move) if empty else None
        if not empty:
            zone = 0  # a full board
        elif pairs is not None:
            zone = pairs
        elif defender_to_move:
            zone = self._defender_node(A, D, empty)
        else:
            zone = self._attacker_node(A, D, empty)
        self._memo[key] = zone
        return zone

    def _defender_node(self, A: int, D: int, empty: int) -> int:
        wins = self._winning_cells(D, A)
        if wins:
            return (wins & -wins) | self._cover(0, A, D, 1)
        # the moves the table already settles first (df-pn's proof), the least work first
        moves = []
        for c in _cells(empty):
            known, work = self._known(A, D | 1 << c, False)
            moves.append((known is not False, work, c, known))
        for _, _, c, known in sorted(moves):
            if known is False or known is None and not self._ask(A, D | 1 << c, False):
                return 1 << c | self._node(A, D | 1 << c, False)
        raise AssertionError("a defender's node that df-pn disproved has no drawing move")

    def _attacker_node(self, A: int, D: int, empty: int) -> int:
        if self._winning_cells(A, D):
            raise AssertionError("an attacker's node that df-pn disproved has a winning move")
        wins = self._winning_cells(D, A)
        if wins & (wins - 1):  # two cells or more: the attacker blocks one
            two = wins & -wins
            two |= (wins ^ two) & -(wins ^ two)
            return self._cover(two, A, D, 2)
        self._counts[1] += 1
        zone, moves = 0, empty
        if not self._ask(A, D, True):
            self._counts[2] += 1
            zone = self._node(A, D, True)
            moves = empty & zone
            self._counts[3] += (empty & ~zone).bit_count()
            self._counts[4] += empty.bit_count()
        for m in _cells(moves):
            zone |= 1 << m | self._node(A | 1 << m, D, True)
        return zone

    def _pairs(self, A: int, D: int, defender_to_move: bool) -> int | None:
        """The cells of a pairing that blocks every open line, None when none is found."""
        pairs = self.search.pairs_of_stones(*self._stones(A, D, defender_to_move), self._a)
        if pairs is None:
            return None
        self._counts[5] += 1
        self._pair_share += 2 * len(pairs) / (self.full & ~(A | D)).bit_count()
        return sum(1 << c for pair in pairs for c in pair)

    def _winning_cells(self, mine: int, theirs: int) -> int:
        """The empty cells where ``mine`` completes a line."""
        cells = 0
        for line in self.lines:
            if line & theirs == 0:
                gap = line & ~mine
                if gap and gap & (gap - 1) == 0:
                    cells |= gap
        return cells

    def _cover(self, zone: int, A: int, D: int, need: int) -> int:
        """``zone`` with ``need`` empty cells (all, if fewer) of each open line of the
        attacker: greedily, the cell on most lines still short first."""
        empty = self.full & ~(A | D)
        short: dict[int, int] = {}  # the open cells of a short line, the cells it lacks
        for line in self.lines:
            if line & D == 0:
                gap = line & empty
                missing = min(need, gap.bit_count()) - (gap & zone).bit_count()
                if missing > 0:
                    short[gap & ~zone] = max(short.get(gap & ~zone, 0), missing)
        while short:
            best, count = 0, 0
            for c in _cells(empty & ~zone):
                on = sum(1 for gap in short if gap >> c & 1)
                if on > count:
                    best, count = c, on
            zone |= 1 << best
            short = {
                gap & ~(1 << best): missing - (gap >> best & 1)
                for gap, missing in short.items()
                if missing - (gap >> best & 1) > 0
            }
        return zone


def _cells(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
