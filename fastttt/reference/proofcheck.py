"""An independent checker of proof files (:mod:`fastttt.search.prooftree`), on the plain rules only.

Nothing here comes from the rest of fastttt: no bitboards, no kernels, no search. The board is
a list of cells, ``rows`` x ``cols`` read row by row from the top-left (cell ``r * cols + c``);
a move is a cell, or a 0-based column with gravity, where the stone lands on the lowest empty
cell of the column; the first player is ``X``. A player wins on completing ``k`` or more
stones in a row, a column or a diagonal; a full board without a line is a draw. A position is
written as its rows from the top, joined by ``/`` (``"X../.O./..."``).

A claim says "``attacker`` wins from the root" or "``attacker`` does not win" and comes with a
strategy for its prover (the attacker, or its opponent): one move for each position where the
prover is to move, but where the checker picks the move itself (:func:`forced_move`): a move
that completes a line of the prover's, or else, when exactly one move would complete a line of
the other side's, that move (the block: any other move lets the other side complete a line at
once). :func:`check_claim` plays every move of the other side and the prover's move, from the
root to the end of every game, and fails at the first position the strategy lacks, an illegal
move, or a game that ends against the claim. Whoever picks the prover's moves, every reply is
played: the strategy and the checker's picks together must win (or hold) against all. For
"the attacker does not win", a game may also stop where every line holds a stone of the attacker's
opponent (:func:`attacker_is_blocked`): the attacker can no longer complete one; or, on a
board without gravity, at a position with a pairing certificate (:func:`check_pairing`):
disjoint pairs of empty cells such that every line with no stone of the opponent holds both
cells of a pair. The opponent then answers each move of the attacker in a pair with the
other cell (and plays anywhere otherwise), so every such line gets one of its stones.

A strategy may name a position by any of its images under a symmetry of the rules
(:func:`symmetries`: the board's mirrors and turns that map every line onto a line, with gravity
only the left-right mirror): the move stored for an image, mapped back, is the move here. The
checker also visits one position of each set of images (:func:`canonical_text`): the game from
a position is the game from its image, mirrored, so a claim that holds at one holds at the other.

There is no check of a win "through a smaller board inside" (format 3's windows): the argument
that a first-player win on a smaller board carries to a bigger one does not hold, since the
second player may complete a line outside the smaller board first (it holds only for the
Maker-Breaker game, where the second player's lines do not count).
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral

from fastttt.errors import FastTTTError

FIRST, SECOND = 1, 2
SYMBOLS = {0: ".", FIRST: "X", SECOND: "O"}


class ProofCheckError(FastTTTError, ValueError):
    """A proof that does not hold: the message names the position and what failed there."""


@dataclass(frozen=True)
class Rules:
    """The rules of one m,n,k game, from scratch."""

    rows: int
    cols: int
    k: int
    gravity: bool

    def lines(self) -> list[tuple[int, ...]]:
        """Every run of ``k`` cells in a row, a column or a diagonal."""
        found = []
        for r in range(self.rows):
            for c in range(self.cols):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_r, end_c = r + dr * (self.k - 1), c + dc * (self.k - 1)
                    if 0 <= end_r < self.rows and 0 <= end_c < self.cols:
                        found.append(
                            tuple((r + dr * i) * self.cols + c + dc * i for i in range(self.k))
                        )
        return found

    def cell_of(self, board: list[int], move: int) -> int | None:
        """The cell a move fills, or None when the move is not legal."""
        if self.gravity:
            if not 0 <= move < self.cols:
                return None
            for r in range(self.rows - 1, -1, -1):
                if board[r * self.cols + move] == 0:
                    return r * self.cols + move
            return None
        if 0 <= move < self.rows * self.cols and board[move] == 0:
            return move
        return None

    def moves(self, board: list[int]) -> list[int]:
        """The legal moves, in increasing order."""
        span = self.cols if self.gravity else self.rows * self.cols
        return [m for m in range(span) if self.cell_of(board, m) is not None]

    def text(self, board: list[int]) -> str:
        chars = [SYMBOLS[v] for v in board]
        return "/".join(
            "".join(chars[r * self.cols : (r + 1) * self.cols]) for r in range(self.rows)
        )


@dataclass(frozen=True)
class CheckReport:
    """A claim that holds: ``positions`` positions visited (one of each set of images),
    ``games_end`` of them finished games, ``pairings`` of them closed by a pairing
    certificate."""

    positions: int
    games_end: int
    pairings: int = 0


def symmetries(rules: Rules) -> list[list[int]]:
    """The cell maps (``cell_map[cell]``: where the cell goes) under which the game is the
    same: the identity first, then each mirror or turn of the board that maps the set of lines
    onto itself; with gravity, where a stone falls to the bottom, only the left-right mirror
    may join it."""
    rows, cols = rules.rows, rules.cols
    moves = [
        lambda r, c: (r, c),
        lambda r, c: (r, cols - 1 - c),
        lambda r, c: (rows - 1 - r, c),
        lambda r, c: (rows - 1 - r, cols - 1 - c),
    ]
    if rows == cols:
        moves += [
            lambda r, c: (c, r),
            lambda r, c: (cols - 1 - c, r),
            lambda r, c: (c, rows - 1 - r),
            lambda r, c: (cols - 1 - c, rows - 1 - r),
        ]
    if rules.gravity:
        moves = moves[:2]
    lines = {frozenset(line) for line in rules.lines()}
    found = []
    for to in moves:
        cell_map = [
            r * cols + c for r, c in (to(*divmod(cell, cols)) for cell in range(rows * cols))
        ]
        same = {frozenset(cell_map[c] for c in line) for line in lines} == lines
        if same and cell_map not in found:
            found.append(cell_map)
    return found


def mapped_board(board: list[int], cell_map: list[int]) -> list[int]:
    """The image of ``board``: its stone on ``cell`` moved to ``cell_map[cell]``."""
    out = [0] * len(board)
    for cell, value in enumerate(board):
        out[cell_map[cell]] = value
    return out


def image_texts(rules: Rules, board: list[int], cell_maps: list[list[int]]) -> list[str]:
    """The texts of ``board``'s images under ``cell_maps`` (:func:`symmetries`, the identity
    first: ``board``'s own text)."""
    return [rules.text(mapped_board(board, cell_map)) for cell_map in cell_maps]


def canonical_text(rules: Rules, board: list[int], cell_maps: list[list[int]]) -> str:
    """One text for a position and its images under ``cell_maps`` (:func:`symmetries`): the
    least of their texts."""
    return min(image_texts(rules, board, cell_maps))


def _is_index(value, size: int) -> bool:
    """Whether ``value`` is an integer (not a bool) in ``0 .. size - 1``."""
    return isinstance(value, Integral) and not isinstance(value, bool) and 0 <= int(value) < size


def _stored(texts: list[str], table: dict, cell_maps: list[list[int]]):
    """``table``'s entry for the position whose :func:`image_texts` are ``texts``, stored
    for it or else for the first of its images that has one, as ``(entry, back,
    image_text)``: ``back`` maps the image's cells back onto the position's (None for the
    position itself). None when there is none."""
    for i, (text, cell_map) in enumerate(zip(texts, cell_maps, strict=True)):
        if text not in table:
            continue
        if i == 0:
            return table[text], None, text
        back = [0] * len(cell_map)
        for cell, to in enumerate(cell_map):
            back[to] = cell
        return table[text], back, text
    return None


def _mapped_cell(cell, back: list[int]):
    """``cell`` of an image mapped back by ``back``; a value that is not a cell is kept, for
    the caller to refuse."""
    return back[int(cell)] if _is_index(cell, len(back)) else cell


def _mapped_move(rules: Rules, move, back: list[int]):
    """A move stored for an image, mapped back by ``back`` (a column with gravity: its bottom
    cell's); a move that is not a cell or column is kept, for the caller to refuse."""
    if rules.gravity:
        if not _is_index(move, rules.cols):
            return move
        return back[(rules.rows - 1) * rules.cols + int(move)] % rules.cols
    return _mapped_cell(move, back)


def attacker_is_blocked(board: list[int], lines: list[tuple[int, ...]], attacker: int) -> bool:
    """Whether every line holds a stone of ``attacker``'s opponent (0 first player, 1 second)."""
    other = SECOND if attacker == 0 else FIRST
    return all(any(board[c] == other for c in line) for line in lines)


def check_pairing(
    rules: Rules, board: list[int], lines: list[tuple[int, ...]], attacker: int, pairs
) -> None:
    """Raise :class:`ProofCheckError` unless ``pairs`` are disjoint pairs of empty cells and
    every line with no stone of ``attacker``'s opponent holds both cells of one of them."""
    text = rules.text(board)
    if rules.gravity:
        raise ProofCheckError(f"{text}: a pairing certificate on a board with gravity")
    cells = [c for pair in pairs for c in pair]
    if any(len(pair) != 2 for pair in pairs) or len(set(cells)) != len(cells):
        raise ProofCheckError(f"{text}: the certificate's pairs are not disjoint pairs")
    if any(not _is_index(c, len(board)) or board[c] for c in cells):
        raise ProofCheckError(f"{text}: the certificate pairs a cell that is not empty")
    other = SECOND if attacker == 0 else FIRST
    for line in lines:
        if any(board[c] == other for c in line):
            continue
        if not any(x in line and y in line for x, y in pairs):
            raise ProofCheckError(f"{text}: no pair of the certificate lies on the line {line}")


def _winner(board: list[int], lines: list[tuple[int, ...]]) -> int:
    for line in lines:
        first = board[line[0]]
        if first and all(board[c] == first for c in line):
            return first
    return 0


def read_position(rules: Rules, text: str) -> tuple[list[int], int]:
    """The board and the number of stones of a live position's text; raises
    :class:`ProofCheckError` for a text that is not one (shape, symbols, stone counts, stones
    floating over an empty cell with gravity, a line already completed)."""
    rows = text.split("/")
    if len(rows) != rules.rows or any(len(row) != rules.cols for row in rows):
        raise ProofCheckError(f"root {text!r}: not {rules.rows} rows of {rules.cols} cells")
    codes = {symbol: value for value, symbol in SYMBOLS.items()}
    if any(ch not in codes for ch in "".join(rows)):
        raise ProofCheckError(f"root {text!r}: cells are '.', 'X' or 'O'")
    board = [codes[ch] for ch in "".join(rows)]
    xs, os_ = board.count(FIRST), board.count(SECOND)
    if xs - os_ not in (0, 1):
        raise ProofCheckError(f"root {text!r}: {xs} X and {os_} O cannot be reached")
    if rules.gravity:
        for cell in range(rules.cols, len(board)):
            if board[cell - rules.cols] and not board[cell]:
                raise ProofCheckError(f"root {text!r}: a stone over an empty cell")
    if _winner(board, rules.lines()) or all(board):
        raise ProofCheckError(f"root {text!r}: the game is already over")
    return board, xs + os_


def lines_through(rules: Rules) -> list[list[tuple[int, ...]]]:
    """For each cell, the lines (:meth:`Rules.lines`) that hold it."""
    through: list[list[tuple[int, ...]]] = [[] for _ in range(rules.rows * rules.cols)]
    for line in rules.lines():
        for cell in line:
            through[cell].append(line)
    return through


def forced_move(
    rules: Rules, board: list[int], stone: int, through: list[list[tuple[int, ...]]]
) -> int | None:
    """The move the checker picks for ``stone`` (module docstring): the first, in
    :meth:`Rules.moves` order, that completes a line of ``stone``'s; else the only move that
    would complete one of the other side's; else None. ``through``: :func:`lines_through`."""
    other = FIRST + SECOND - stone
    theirs = []
    for move in rules.moves(board):
        cell = rules.cell_of(board, move)
        assert cell is not None  # a legal move
        for who in (stone, other):
            if any(all(board[c] == who for c in line if c != cell) for line in through[cell]):
                if who == stone:
                    return move
                theirs.append(move)
                break
    return theirs[0] if len(theirs) == 1 else None


def check_claim(
    rules: Rules,
    root: str,
    attacker: int,
    attacker_wins: bool,
    strategy: dict[str, int],
    pairings: dict | None = None,
) -> CheckReport:
    """Check that ``attacker`` (0 first player, 1 second) wins from the position ``root``
    (``attacker_wins``), or does not win (draws or loses), when its prover plays ``strategy``
    (position text -> move) against every reply; ``pairings`` (position text -> pairs of
    cells) close positions of a claim that the attacker does not win. Either may name a
    position by one of its images (module docstring). Raises :class:`ProofCheckError` at the
    first failure."""
    pairings = pairings or {}
    if attacker_wins and pairings:
        raise ProofCheckError("pairing certificates prove only that an attacker does not win")
    lines = rules.lines()
    through = lines_through(rules)
    cell_maps = symmetries(rules)
    board, stones = read_position(rules, root)
    attacker_stone = FIRST if attacker == 0 else SECOND
    prover = attacker if attacker_wins else 1 - attacker
    seen: set[str] = set()
    ends = paired = 0
    stack = [(board, stones)]
    while stack:
        board, ply = stack.pop()
        texts = image_texts(rules, board, cell_maps)
        text, key = texts[0], min(texts)
        if key in seen:
            continue
        seen.add(key)
        winner = _winner(board, lines)
        if winner or all(board):
            ends += 1
            if (winner == attacker_stone) != attacker_wins:
                result = "a draw" if not winner else f"won by {SYMBOLS[winner]}"
                raise ProofCheckError(f"{text}: the game ends {result}, against the claim")
            continue
        if not attacker_wins and attacker_is_blocked(board, lines, attacker):
            ends += 1
            continue
        certificate = _stored(texts, pairings, cell_maps) if pairings else None
        if certificate is not None:
            pairs, back, where = certificate
            if back is not None:
                pairs = [[_mapped_cell(c, back) for c in pair] for pair in pairs]
            try:
                check_pairing(rules, board, lines, attacker, pairs)
            except ProofCheckError as err:
                if back is None:
                    raise
                raise ProofCheckError(f"{err} (the certificate of its image {where})") from None
            paired += 1
            continue
        to_move = ply % 2
        stone = FIRST if to_move == 0 else SECOND
        source = ""
        if to_move == prover:
            picked = forced_move(rules, board, stone, through)
            if picked is None:
                stored = _stored(texts, strategy, cell_maps)
                if stored is None:
                    raise ProofCheckError(f"{text}: the strategy has no move here")
                picked, back, where = stored
                if back is not None:
                    source = f" (the move {picked!r} of its image {where})"
                    picked = _mapped_move(rules, picked, back)
            replies = [picked]
        else:
            replies = rules.moves(board)
        for move in replies:
            legal = isinstance(move, Integral) and not isinstance(move, bool)
            cell = rules.cell_of(board, int(move)) if legal else None
            if cell is None:
                raise ProofCheckError(f"{text}: the strategy's move {move!r} is not legal{source}")
            child = board.copy()
            child[cell] = stone
            stack.append((child, ply + 1))
    return CheckReport(len(seen), ends, paired)
