"""A slow, obviously-correct strong solver: recursion over Position objects with a memo dict.

value: +1 first player wins, 0 draw, -1 second player wins; depth: plies to the end when the
winner hurries and the loser delays (draws: plies to the full board).
"""

from __future__ import annotations

from fastttt.games.mnk.board import Position


def solve_naive(spec) -> dict[int, tuple[int, int]]:
    """base-3 code -> (value, depth) for every position reachable from the empty board."""
    memo: dict[int, tuple[int, int]] = {}
    naive_outcome(Position.empty(spec), memo)
    return memo


def naive_outcome(pos: Position, memo: dict[int, tuple[int, int]]) -> tuple[int, int]:
    """(value, depth) of ``pos`` (any position, reachable or not) by plain recursion; ``memo``
    gets every position visited, by base-3 code."""
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
        outcomes = [naive_outcome(child, memo) for _, child in pos.children()]
        best = max(sign * v for v, _ in outcomes)
        depths = [d for v, d in outcomes if sign * v == best]
        # winning: fastest; losing: slowest; drawing: all draws end on a full board
        depth = min(depths) if best == 1 else max(depths)
        result = (sign * best, depth + 1)
    memo[code] = result
    return result


def benchmark_score_naive(pos: Position, memo: dict[int, int] | None = None) -> int:
    """The benchmark solver's score of a live position, by its definition: from the side to
    move, a win on move ``n`` (counted from 1, the winning stone included) scores
    ``(cells + 2 - n) // 2``, a loss the negative of the opponent's, a draw 0; best play."""
    memo = {} if memo is None else memo
    if pos.code in memo:
        return memo[pos.code]
    cells = pos.spec.cells
    best = None
    for _, child in pos.children():
        if child.winner() is not None:
            value = (cells + 2 - (pos.ply + 1)) // 2
        elif child.is_full():
            value = 0
        else:
            value = -benchmark_score_naive(child, memo)
        best = value if best is None else max(best, value)
    assert best is not None, "a finished position has no score"
    memo[pos.code] = best
    return best


def positions_by_ply_naive(spec) -> list[tuple[int, dict[str, int]]]:
    """(positions, finished ones by result) after each ply 0..cells from the empty board, by
    breadth-first search over pairs of plain int bitboards (cell ``r * cols + c``, row 0 at
    the top, gravity drops to the bottom row): a won or full position has no children. Knows
    nothing of fastttt but the spec's sizes."""
    rows, cols, k, cells = spec.rows, spec.cols, spec.k, spec.rows * spec.cols
    lines = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                places = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= rr < rows and 0 <= cc < cols for rr, cc in places):
                    lines.append(sum(1 << (rr * cols + cc) for rr, cc in places))

    def won(stones: int) -> bool:
        return any(stones & line == line for line in lines)

    def moves(occupied: int):
        for c in range(cols):
            for r in range(rows - 1, -1, -1) if spec.gravity else range(rows):
                cell = r * cols + c
                if not occupied >> cell & 1:
                    yield cell
                    if spec.gravity:
                        break  # the lowest empty cell of the column only

    layer = {(0, 0)}  # (first player's stones, second player's stones)
    out = []
    for ply in range(cells + 1):
        terminal = {"first": 0, "second": 0, "draw": 0}
        following = set()
        for first, second in layer:
            if won(first):
                terminal["first"] += 1
            elif won(second):
                terminal["second"] += 1
            elif ply == cells:
                terminal["draw"] += 1
            else:
                for cell in moves(first | second):
                    if ply % 2 == 0:
                        following.add((first | 1 << cell, second))
                    else:
                        following.add((first, second | 1 << cell))
        out.append((len(layer), terminal))
        layer = following
    return out
