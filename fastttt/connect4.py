"""Connect Four (and any gravity or m,n,k game) by search: move strings, benchmark files and
the ``solve --stdin`` filter.

Move strings are the columns played from the empty board as 1-based digits (``"4455"``;
boards of at most 9 columns). Free (non-gravity) boards are given in the text form of
:class:`fastttt.board.Position` (``"X.O/.X./..O"``). Scores are from the side to move in the
benchmark convention (see :mod:`fastttt.search`): 0 draw, ``score_base - s`` for a win whose
winner completes its line with its ``s``-th stone (22 - s on 7 x 6), negative for a loss;
``weak`` gives -1/0/+1.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from pathlib import Path
from typing import IO

import numpy as np

from fastttt.board import Position
from fastttt.errors import GameSpecError, IllegalMoveError, InvalidPositionError
from fastttt.games import GameSpec, as_spec
from fastttt.kernels import negamax as nk
from fastttt.search import Batch, Searcher, searcher, warmup

_ERRORS = {1: "is off the board", 2: "is in a full column", 3: "comes after the game ended"}


def from_move_string(spec: GameSpec | str, moves: str) -> Position:
    """Position after ``moves`` (1-based column digits) on a gravity board; the first bad move is
    named in the :class:`IllegalMoveError`."""
    spec = as_spec(spec)
    if not spec.gravity:
        raise GameSpecError(f"{spec.name} has no gravity: give positions as text, not columns")
    if spec.cols > 9:
        raise GameSpecError(f"move strings need at most 9 columns; {spec.name} has {spec.cols}")
    pos = Position.empty(spec)
    for i, ch in enumerate(moves):
        if not ("1" <= ch <= "9") or int(ch) > spec.cols:
            raise IllegalMoveError(f"move {i + 1} ({ch!r}) is not a column 1..{spec.cols}")
        col = int(ch) - 1
        if pos.is_over():
            raise IllegalMoveError(f"move {i + 1} ({ch}) comes after the game ended")
        if col not in pos.legal_moves():
            raise IllegalMoveError(f"move {i + 1} ({ch}) is in a full column")
        pos = pos.play(col)
    return pos


def to_move_string(moves: Iterable[int]) -> str:
    """1-based digits of 0-based columns."""
    return "".join(str(int(c) + 1) for c in moves)


def parse_move_lines(s: Searcher, lines: list[str]) -> tuple[Batch, list[str | None]]:
    """Play each move string (first whitespace-separated field of each line) in the kernel.
    Returns the batch and, per line, ``None`` or an error message (its batch slot is then 0)."""
    spec = s.spec
    n = len(lines)
    curs = np.zeros(n, dtype=np.uint64)
    masks = np.zeros(n, dtype=np.uint64)
    plies = np.zeros(n, dtype=np.int64)
    errors: list[str | None] = []
    for i, line in enumerate(lines):
        fields = line.split()
        text = fields[0] if fields else ""
        cols = np.zeros(len(text), dtype=np.int64)
        bad = None
        for j, ch in enumerate(text):
            if not ("1" <= ch <= "9") or int(ch) > spec.cols:
                bad = f"move {j + 1} ({ch!r}) is not a column 1..{spec.cols}"
                break
            cols[j] = int(ch) - 1
        if bad is None:
            cur, mask, at, code = nk.play_columns(cols, len(text), s.work)
            if at >= len(text):
                bad = "the game is already over after the last move"
            elif at >= 0:
                bad = f"move {at + 1} ({text[at]}) {_ERRORS[int(code)]}"
            else:
                curs[i], masks[i], plies[i] = cur, mask, len(text)
        errors.append(bad)
    return Batch(curs, masks, plies), errors


def read_benchmark(path: str | Path) -> tuple[list[str], np.ndarray]:
    """A benchmark file: move strings and expected scores (``<moves> <score>`` per line)."""
    moves, scores = [], []
    for line in Path(path).read_text().splitlines():
        if line.strip():
            m, sc = line.split()
            moves.append(m)
            scores.append(int(sc))
    return moves, np.array(scores, dtype=np.int64)


def _position_field(line: str) -> str:
    """The position field of one filter line. Once the ASCII line ending (``\n``, ``\r\n``,
    ``\r``) is removed, the line is the position, starting at its first character, then
    optionally one ASCII space or tab and further printable ASCII fields (a benchmark's
    score), which are ignored. Anything else (leading spaces, control characters, Unicode
    spaces, ...) raises :class:`InvalidPositionError` naming the column."""
    if line.endswith("\r\n"):
        text = line[:-2]
    else:
        text = line[:-1] if line.endswith(("\n", "\r")) else line
    for i, ch in enumerate(text):
        if not (" " <= ch <= "~" or ch == "\t"):
            raise InvalidPositionError(f"column {i + 1}: {ch!r} is not printable ASCII")
    field = text.replace("\t", " ").partition(" ")[0]
    if text and not field:
        raise InvalidPositionError("column 1: the position must start the line (no spaces)")
    return field


def _parse_line(spec: GameSpec, line: str) -> Position:
    """The position of one filter line (:func:`_position_field`): 1-based column digits with
    gravity, the text form on free boards. An empty line is the empty move sequence: the empty
    board with gravity, refused on free boards (their text form names every cell)."""
    field = _position_field(line)
    if spec.gravity:
        return from_move_string(spec, field)
    pos = Position.from_text(spec, field)
    if pos.is_over():
        raise InvalidPositionError("the game is already over")
    return pos


def run_filter(
    spec: GameSpec | str,
    lines: Iterable[str],
    out: IO[str],
    err: IO[str],
    *,
    all_moves: bool = False,
    weak: bool = False,
    nodes: bool = False,
) -> int:
    """Read positions from ``lines`` (iterable of str), write answers to ``out``, errors to
    ``err``; return the number of bad lines.

    One position per line: 1-based column digits on gravity boards, the text form
    (``X.O/.X./..O``) on free boards; further fields on a line are ignored, so benchmark files
    can be piped in. Out, one line per line in: ``<position> <score>`` (score from the side to
    move, module convention; ``weak``: -1/0/+1). ``all_moves``: ``<position>`` then the score of
    each move from the mover's view, one field per column (gravity) or cell (free boards),
    ``-`` where no move is possible. ``nodes``: appends the node count and the microseconds.
    A bad line writes ``line N: <reason>`` to ``err`` and an empty line to ``out``.
    """
    spec = as_spec(spec)
    s = searcher(spec)
    warmup()  # load the kernels now, so that --nodes times searches only
    bad = 0
    fast = spec.gravity and spec.cols <= 9 and not all_moves
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        shown = line.split()[0] if line.split() else ""
        before = s.nodes
        t0 = time.perf_counter()
        if fast:  # parse in the kernel: no Position objects on the way
            try:
                shown = _position_field(raw)
                batch, errors = parse_move_lines(s, [shown])
                if errors[0] is not None:
                    raise InvalidPositionError(errors[0])
            except InvalidPositionError as exc:
                err.write(f"line {number}: {exc}\n")
                out.write("\n")
                bad += 1
                continue
            answer = str(s.solve_internal(batch.curs[0], batch.masks[0], len(shown), weak=weak))
        else:
            try:
                pos = _parse_line(spec, line)
                if pos.is_over():
                    raise InvalidPositionError("the game is already over after the last move")
            except (InvalidPositionError, GameSpecError) as exc:
                err.write(f"line {number}: {exc}\n")
                out.write("\n")
                bad += 1
                continue
            if all_moves:
                scores = s.move_scores(pos, weak=weak)
                n_fields = spec.cols if spec.gravity else spec.cells
                answer = " ".join(str(scores[m]) if m in scores else "-" for m in range(n_fields))
            else:
                answer = str(s.solve(pos, weak=weak).score)
        micros = (time.perf_counter() - t0) * 1e6
        extra = f" {s.nodes - before} {micros:.0f}" if nodes else ""
        out.write(f"{shown} {answer}{extra}\n")
    return bad
