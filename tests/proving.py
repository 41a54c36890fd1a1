"""Helpers of the proof-search tests (df-pn, threat-space search, the portfolio): positions to
check, a plain minimax of any stones, and a replay of principal lines against the rules."""

from __future__ import annotations

import functools
import random

from fastttt.games.mnk.board import Position, line_masks


def live_positions(spec) -> list[Position]:
    """Every live position reachable from the empty board (breadth first)."""
    seen, frontier, found = set(), [Position.empty(spec)], []
    while frontier:
        nxt = []
        for pos in frontier:
            if pos.is_over():
                continue
            found.append(pos)
            for _, child in pos.children():
                if child.code not in seen:
                    seen.add(child.code)
                    nxt.append(child)
        frontier = nxt
    return found


def random_positions(spec, count: int, seed: int, min_ply: int = 0) -> list[Position]:
    """Live positions after random games of random lengths (at least ``min_ply`` stones)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        pos = Position.empty(spec)
        for _ in range(rng.randrange(spec.cells)):
            child = pos.play(rng.choice(pos.legal_moves()))
            if child.is_over():
                break
            pos = child
        if pos.ply >= min_ply:
            found.append(pos)
    return found


def check_line(pos: Position, line, winner: int) -> None:
    """The line is a legal game from ``pos`` that ends with ``winner``'s completed line."""
    assert line, "a proven win comes with its line"
    for move in line:
        assert not pos.is_over()
        pos = pos.play(move)
    assert pos.winner() == winner


def check_line_start(pos: Position, moves, winner: int, reference) -> None:
    """The first moves of a line: legal from ``pos``, the game still on after them, and
    ``winner`` still winning there by ``reference`` (an alpha-beta ``Searcher``)."""
    assert moves, "a line cut short keeps the moves it walked"
    after = pos
    for move in moves:
        assert not after.is_over()
        after = after.play(move)
    assert not after.is_over()
    score = reference.solve(after, weak=True).score
    assert score == (1 if after.to_move == winner else -1), (pos, moves)


def plain_attacker_wins(spec):
    """Does the attacker win from stones ``A``, ``D`` with the attacker to move or not? Plain
    minimax over every move, any stone counts (positions after passes)."""
    lines = line_masks(spec)
    full = (1 << spec.cells) - 1

    @functools.cache
    def wins(A: int, D: int, attacker_to_move: bool) -> bool:
        if any(line & A == line for line in lines):
            return True
        if any(line & D == line for line in lines) or A | D == full:
            return False
        empty = full & ~(A | D)
        moves = [c for c in range(spec.cells) if empty >> c & 1]
        if attacker_to_move:
            return any(wins(A | 1 << c, D, False) for c in moves)
        return all(wins(A, D | 1 << c, True) for c in moves)

    return wins


# 9x9 k=5, O to move: after O's pass X wins at once by fours (a double four at row 4, col 5,
# or an open four); O has two stones in the bottom row's first five cells, or three
_X_FOURS = "O.......O/.....X.../.....X.../.....X.../..XXX..../........./........./........./"
FOURS_BESIDE_A_TWO = _X_FOURS + "OO......O"
FOURS_BESIDE_A_THREE = _X_FOURS + "OOO......"
