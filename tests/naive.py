"""A slow, obviously-correct strong solver: recursion over Position objects with a memo dict.

value: +1 first player wins, 0 draw, -1 second player wins; depth: plies to the end when the
winner hurries and the loser delays (draws: plies to the full board).
"""

from __future__ import annotations

from fastttt.board import Position


def solve_naive(spec) -> dict[int, tuple[int, int]]:
    """base-3 code -> (value, depth) for every position reachable from the empty board."""
    memo: dict[int, tuple[int, int]] = {}

    def visit(pos: Position) -> tuple[int, int]:
        code = pos.code
        if code in memo:
            return memo[code]
        winner = pos.winner()
        if winner is not None:
            result = (1 if winner == 0 else -1, 0)
        elif pos.is_full():
            result = (0, 0)
        else:
            sign = 1 if pos.to_move == 0 else -1  # +1: the mover wants a larger value
            outcomes = [visit(child) for _, child in pos.children()]
            best = max(sign * v for v, _ in outcomes)
            depths = [d for v, d in outcomes if sign * v == best]
            # winning: fastest; losing: slowest; drawing: all draws end on a full board
            depth = min(depths) if best == 1 else max(depths)
            result = (sign * best, depth + 1)
        memo[code] = result
        return result

    visit(Position.empty(spec))
    return memo
