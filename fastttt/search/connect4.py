"""Connect Four (and any gravity or m,n,k game) by search: move strings, benchmark files and
what the ``solve --stdin`` filter does with a line (the filter itself, reading, chunks,
refusals and Ctrl-C, is :mod:`fastttt.filter`).

Move strings are the columns played from the empty board as 1-based digits (``"4455"``;
boards of at most 9 columns). Free (non-gravity) boards are given in the text form of
:class:`fastttt.games.mnk.board.Position` (``"X.O/.X./..O"``). Scores are from the side to move in
the benchmark convention (defined in :mod:`fastttt.values`): 0 draw, ``score_base - s`` for a win
whose winner completes its line with its ``s``-th stone (22 - s on 7 x 6), negative for a loss;
``weak`` gives -1/0/+1.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import numpy as np

from fastttt.errors import GameSpecError, IllegalMoveError, InvalidPositionError, require_moves
from fastttt.filter import Chunk, Emit, per_line, position_field
from fastttt.filter import run as filter_lines
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import GameSpec, as_spec
from fastttt.kernels import movelines as ml
from fastttt.kernels import negamax as nk
from fastttt.search.alphabeta import Batch, Searcher, searcher, warmup
from fastttt.values import benchmark_score

if TYPE_CHECKING:
    from fastttt.search.book import Book

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
    """1-based digits of 0-based columns (in order: not a set or a dict)."""
    return "".join(str(int(c) + 1) for c in require_moves(moves))


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


_position_field = position_field  # the filter line rule (fastttt.filter)


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


def _refusal(spec: GameSpec, line: str) -> str:
    """Why the filter refuses ``line`` (:func:`_parse_line`'s message; the kernels only say
    that it does)."""
    try:
        pos = _parse_line(spec, line)
        if pos.is_over():
            return "the game is already over after the last move"
    except (InvalidPositionError, GameSpecError) as exc:
        return str(exc)
    raise AssertionError(f"the filter kernels refused a good line: {line!r}")


class MoveLines:
    """The filter's answerer (:mod:`fastttt.filter`) for move strings on a gravity board of
    the 64-bit search layout: each chunk is read and checked in one kernel call
    (:func:`fastttt.kernels.movelines.parse_lines`), its searches run in order in batches of
    :func:`fastttt.kernels.negamax.solve_many` (sharing the searcher's table), and the answer
    lines are written by :func:`fastttt.kernels.movelines.format_lines`. A batch holds as many
    searches as take about :attr:`BATCH_SECONDS` (doubling or halving from one batch to the
    next), so that slow positions are answered one by one as they finish; with ``nodes``
    each line is its own batch, timed. Refused lines get :func:`_refusal`'s message. With a
    ``book`` (:class:`fastttt.search.book.Book`), the positions it holds are read from it (no
    search, 0 nodes)."""

    BATCH_SECONDS = 0.05

    def __init__(
        self, s: Searcher, *, all_moves: bool, weak: bool, nodes: bool, book: Book | None = None
    ):
        self.s, self.all_moves, self.weak, self.nodes = s, all_moves, weak, nodes
        self.book = book
        self.width = s.spec.cols if all_moves else 1
        self.batch = 1  # searches in the next batch: one, then doubling while quick
        self(Chunk.from_lines(["0"], 1), lambda text, refusals: None)  # load the kernels

    def __call__(self, chunk: Chunk, emit: Emit) -> None:
        s, n = self.s, len(chunk)
        curs = np.zeros(n, dtype=np.uint64)
        masks = np.zeros(n, dtype=np.uint64)
        plies = np.zeros(n, dtype=np.int64)
        field_ends = np.zeros(n, dtype=np.int64)
        ok = np.zeros(n, dtype=np.bool_)
        ml.parse_lines(chunk.array, chunk.starts, s.work, curs, masks, plies, field_ends, ok)
        kinds = np.full((n, self.width), ml.NONE, dtype=np.int64)
        fixed = np.zeros((n, self.width), dtype=np.int64)
        if self.all_moves:
            size = n * self.width
            jobs: tuple[np.ndarray, ...] = (
                np.zeros(size, np.uint64),
                np.zeros(size, np.uint64),
                np.zeros(size, np.int64),
            )
            n_jobs = ml.list_moves(curs, masks, plies, ok, self.weak, s.work, kinds, fixed, *jobs)
            jobs = tuple(a[:n_jobs] for a in jobs)
            ends = np.cumsum((kinds >= 0).sum(axis=1))  # searches up to each line's last
        else:
            good = np.flatnonzero(ok)
            kinds[good, 0] = np.arange(good.size)
            jobs = (curs[good], masks[good], plies[good])
            ends = np.cumsum(ok)
        n_jobs = jobs[0].size
        scores = np.zeros(n_jobs, dtype=np.int64)
        job_nodes = np.full(n_jobs, -1, dtype=np.int64)
        searched = np.ones(n_jobs, dtype=np.bool_)
        if self.book is not None:
            found, known = self.book.lookup(jobs[0], jobs[1], jobs[2])
            scores[found] = np.sign(known[found]) if self.weak else known[found]
            job_nodes[found] = 0
            searched = ~found
        out = np.empty(chunk.array.size + n * (1 + ml.FIELD_BYTES * self.width), dtype=np.uint8)
        odd = s.spec.cells % 2 == 1 and not self.weak  # scores in the benchmark formula

        def write(first: int, last: int, extra: str = "") -> None:
            """Emit lines first .. last - 1 (their searches are done); ``extra`` ends line
            ``first`` when it is good (``--nodes``)."""
            size = ml.format_lines(
                chunk.array,
                chunk.starts,
                field_ends,
                ok,
                kinds,
                fixed,
                scores,
                self.all_moves,
                plies,
                odd,
                first,
                last,
                out,
            )
            text = out[:size].tobytes().decode("ascii")
            if extra and ok[first]:
                text = text[:-1] + extra + "\n"
            emit(
                text,
                [
                    (int(i), _refusal(s.spec, chunk.line(int(i))))
                    for i in np.flatnonzero(~ok[first:last]) + first
                ],
            )

        def search(j: int, stop: int) -> None:
            """Searches j .. stop - 1 (those not read from the book); on Ctrl-C, emit the
            lines they finished, re-raise."""
            todo = np.flatnonzero(searched[j:stop]) + j
            if todo.size == 0:
                return
            some_scores, some_nodes = scores[todo], job_nodes[todo]
            try:
                s._run(
                    nk.solve_many,
                    *(a[todo] for a in jobs),
                    self.weak,
                    s.work,
                    s.tt,
                    some_scores,
                    some_nodes,
                )
            except KeyboardInterrupt:
                scores[todo], job_nodes[todo] = some_scores, some_nodes
                finished = j + int(np.argmin(np.append(job_nodes[j:stop], -1) >= 0))
                last = int(np.searchsorted(ends, finished, side="right"))
                if last > done and not self.nodes:
                    write(done, last)
                raise
            scores[todo], job_nodes[todo] = some_scores, some_nodes

        done = 0  # lines emitted
        if self.nodes:  # each line its own batch, timed
            for done in range(n):
                j = int(ends[done - 1]) if done else 0
                t0 = time.perf_counter()
                if ends[done] > j:
                    search(j, int(ends[done]))
                micros = (time.perf_counter() - t0) * 1e6
                spent = int(job_nodes[j : ends[done]].sum())
                write(done, done + 1, f" {spent} {micros:.0f}")
            return
        j = 0  # searches done
        while True:
            last = n if j >= n_jobs else int(np.searchsorted(ends, j, side="right"))
            if last > done:
                write(done, last)
                done = last
            if j >= n_jobs:
                return
            stop = min(n_jobs, j + self.batch)
            t0 = time.perf_counter()
            search(j, stop)
            seconds = time.perf_counter() - t0
            if seconds < self.BATCH_SECONDS / 4:
                self.batch = min(2 * self.batch, 1 << 20)
            elif seconds > self.BATCH_SECONDS:
                self.batch = max(1, self.batch // 2)
            j = stop


def run_filter(
    spec: GameSpec | str,
    lines: Iterable[str] | IO[Any],
    out: IO[str],
    err: IO[str],
    *,
    all_moves: bool = False,
    weak: bool = False,
    nodes: bool = False,
    book: Book | None = None,
) -> int:
    """Read positions from ``lines``, write answers to ``out``, errors to ``err``; return the
    number of bad lines. The line filter of :mod:`fastttt.filter`: ``lines`` is a text or
    binary stream (read in chunks, line by line from a terminal) or an iterable of strings
    (each one line).

    One position per line: 1-based column digits on gravity boards, the text form
    (``X.O/.X./..O``) on free boards; further fields on a line are ignored, so benchmark files
    can be piped in. Out, one line per line in: ``<position> <score>`` (score from the side to
    move in the benchmark solver's formula, :func:`fastttt.values.benchmark_score`: the module
    convention except second-player wins on boards with an odd number of cells, one less;
    ``weak``: -1/0/+1). ``all_moves``: ``<position>`` then the score of
    each move from the mover's view, one field per column (gravity) or cell (free boards),
    ``-`` where no move is possible. ``nodes``: appends the node count and the microseconds.
    A bad line writes ``line N: <reason>`` to ``err`` and an empty line to ``out``. ``book``
    (:class:`fastttt.search.book.Book`, gravity boards of at most 9 columns): the positions it
    holds are read from it, not searched (0 nodes).

    Gravity boards of at most 9 columns in the 64-bit search layout are answered a chunk at a
    time in Numba (:class:`MoveLines`); other boards one line at a time in Python.
    """
    spec = as_spec(spec)
    s = searcher(spec)
    warmup()  # load the kernels now, so that --nodes times searches only
    if spec.gravity and spec.cols <= 9 and not getattr(s, "wide", False):
        # fault the table's pages in now (a write per 4 KiB page, contents kept), as the C++
        # solver zeroes its table at start: 15-90 ms once per process (huge pages zeroed on
        # first touch) rather than a millisecond here and there in the first searches
        s.tt[:: 4096 // s.tt.itemsize] |= np.uint64(0)
        answer = MoveLines(s, all_moves=all_moves, weak=weak, nodes=nodes, book=book)
        return filter_lines(answer, lines, out, err)

    def answer_line(raw: str) -> str:
        line = raw.rstrip("\r\n")
        shown = line.split()[0] if line.split() else ""
        before = s.nodes
        t0 = time.perf_counter()
        pos = _parse_line(spec, line)
        if pos.is_over():
            raise InvalidPositionError("the game is already over after the last move")
        convert = (lambda v: v) if weak else (lambda v: benchmark_score(spec, pos.ply, v))
        if all_moves:
            scores = s.move_scores(pos, weak=weak)
            n_fields = spec.cols if spec.gravity else spec.cells
            answer = " ".join(
                str(convert(scores[m])) if m in scores else "-" for m in range(n_fields)
            )
        else:
            answer = str(convert(s.solve(pos, weak=weak).score))
        micros = (time.perf_counter() - t0) * 1e6
        extra = f" {s.nodes - before} {micros:.0f}" if nodes else ""
        return f"{shown} {answer}{extra}"

    refused = (InvalidPositionError, GameSpecError)
    return filter_lines(per_line(answer_line, refused), lines, out, err)
