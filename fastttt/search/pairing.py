"""Pairing strategies: a proof, without search, that the second player cannot lose.

A *pairing* of a free m,n,k board is a set of disjoint pairs of cells such that every line of
``k`` cells contains both cells of at least one pair. The second player answers each move in
a pair with the other cell of that pair (and anything when the move is in no pair); then the
first player never holds both cells of a pair, so never a whole line (Hales and Jewett, 1963).
As the first player cannot lose either on a free board (an extra stone never hurts: strategy
stealing), a pairing proves the empty board a draw. It says nothing about gravity boards,
where a cell cannot be answered at will.

:func:`find_pairing` looks first for two private cells per line (a bipartite b-matching, in
polynomial time, which settles the boards whose lines are whole rows, columns and diagonals),
then, when lines overlap (``k`` shorter than the board), for pairs that several lines share,
by a depth-first search within a node budget. Cells are numbered as everywhere in fastttt
(``row * cols + col``, from 0).
"""

from __future__ import annotations

from dataclasses import dataclass

from fastttt.errors import GameSpecError
from fastttt.games.mnk.board import line_masks
from fastttt.games.mnk.spec import GameSpec, as_spec

DEFAULT_NODE_BUDGET = 200_000


@dataclass(frozen=True)
class PairingResult:
    """The outcome of a search for a pairing.

    ``pairs``: the certificate (disjoint pairs of cells, each line holding one), or None;
    ``complete``: True when the answer is final (a pairing, or a proof that none exists),
    False when the node budget ran out first; ``method``: "matching" or "search".
    """

    spec: GameSpec
    pairs: tuple[tuple[int, int], ...] | None
    complete: bool
    method: str
    nodes: int

    @property
    def found(self) -> bool:
        return self.pairs is not None

    def verdict(self) -> str:
        if self.pairs is not None:
            return (
                f"draw: a pairing of {len(self.pairs)} pairs covers all "
                f"{len(_lines(self.spec))} lines (the second player cannot lose)"
            )
        if self.complete:
            return "no pairing exists"
        return f"no pairing found within {self.nodes:,} nodes (unknown)"


def _lines(spec: GameSpec) -> list[int]:
    return list(line_masks(spec))


def _bits(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


def find_pairing(spec: GameSpec | str, *, node_budget: int = DEFAULT_NODE_BUDGET) -> PairingResult:
    """A pairing of ``spec``'s empty board, a proof that none exists, or "unknown" when the
    search needs more than ``node_budget`` nodes. Raises GameSpecError for gravity boards."""
    spec = as_spec(spec)
    if spec.gravity:
        raise GameSpecError(f"{spec.name}: a pairing strategy needs a free board (no gravity)")
    if not isinstance(node_budget, int) or isinstance(node_budget, bool) or node_budget < 1:
        raise GameSpecError(f"node_budget must be a positive integer, got {node_budget!r}")
    lines = _lines(spec)
    pairs = _private_pairs(lines)
    if pairs is not None:
        return PairingResult(spec, pairs, True, "matching", len(lines))
    if not _lines_overlap(lines):  # no pair can serve two lines: the matching was exact
        return PairingResult(spec, None, True, "matching", len(lines))
    return _search(spec, lines, node_budget)


def _lines_overlap(lines: list[int]) -> bool:
    """True when two lines share two cells (so a pair may serve both)."""
    return any((a & b).bit_count() >= 2 for i, a in enumerate(lines) for b in lines[i + 1 :])


def _private_pairs(lines: list[int]) -> tuple[tuple[int, int], ...] | None:
    """Two cells of its own for every line (Kuhn's augmenting paths on two copies of each
    line), as pairs; None when no such assignment exists."""
    owner: dict[int, int] = {}  # cell -> slot (line index * 2 + copy)
    cells_of = [_bits(m) for m in lines]

    def augment(slot: int, seen: set[int]) -> bool:
        for cell in cells_of[slot // 2]:
            if cell in seen:
                continue
            seen.add(cell)
            if cell not in owner or augment(owner[cell], seen):
                owner[cell] = slot
                return True
        return False

    for slot in range(2 * len(lines)):
        if not augment(slot, set()):
            return None
    held: dict[int, list[int]] = {}
    for cell, slot in owner.items():
        held.setdefault(slot // 2, []).append(cell)
    return tuple(sorted((min(cells), max(cells)) for cells in held.values()))


def _search(spec: GameSpec, lines: list[int], node_budget: int) -> PairingResult:
    """Depth-first search for disjoint pairs covering every line, pairs shared by lines."""
    nodes = 0
    chosen: list[tuple[int, int]] = []

    def candidates(line: int, used: int) -> list[tuple[int, int]]:
        free = _bits(line & ~used)
        return [(a, b) for i, a in enumerate(free) for b in free[i + 1 :]]

    def solve(open_lines: list[int], used: int) -> bool | None:
        nonlocal nodes
        if not open_lines:
            return True
        nodes += 1
        if nodes > node_budget:
            return None
        # the line with the fewest free pairs first; a line with none fails at once
        best = min(open_lines, key=lambda m: (m & ~used).bit_count())
        options = candidates(best, used)
        options.sort(key=lambda p: -sum(1 for m in open_lines if m >> p[0] & 1 and m >> p[1] & 1))
        unknown = False
        for a, b in options:
            pair = 1 << a | 1 << b
            rest = [m for m in open_lines if m & pair != pair]
            chosen.append((a, b))
            result = solve(rest, used | pair)
            if result:
                return True
            chosen.pop()
            if result is None:
                unknown = True
                break
        return None if unknown else False

    result = solve(sorted(lines), 0)
    if result:
        return PairingResult(spec, tuple(sorted(chosen)), True, "search", nodes)
    return PairingResult(spec, None, result is False, "search", nodes)
