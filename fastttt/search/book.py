"""Opening books: the exact score of every position up to a depth of a gravity board, built by
search, in a file that says what it is.

A book of depth ``D`` holds every live position with at most ``D`` stones reachable from the
empty board, a position and its left-right mirror once (keyed by :func:`position_key`), with its
exact search score from the side to move (:mod:`fastttt.values`: ``score_base - s`` for a win
with the winner's ``s``-th stone). :func:`build` searches the positions of depth ``D`` exactly
(:class:`fastttt.search.alphabeta.Searcher`, in chunks that are checkpointed, so a killed build
resumes), then scores the shallower ones by negamax over their children, which are all in the book
or end the game. Each depth-``D`` position also keeps a best move (the first that keeps its score
in the search's root order, :meth:`~fastttt.search.alphabeta.Searcher.root_order`), so that
perfect play answers there without a search; shallower positions have their children's scores.
:func:`extend` adds perfect play's lines past the depth (:func:`perfect_lines`): the positions
``perfect`` meets whatever the other side plays, each with its score and a kept move.

File layout (little-endian): ``MAGIC``, a uint32 header length, the header (JSON: ``format``,
``version``, ``game`` as rows/cols/k/gravity, ``depth``, ``count``, (version 3) ``lines`` and
``past``), ``count`` uint64 keys in increasing order, ``count`` int8 scores, (version 2)
``count`` int8 best moves, the column in the orientation whose ``cur + mask`` code is the key or
-1 (none kept), (version 3) the same three arrays for the ``past`` positions past the depth, and
the CRC-32 of everything before it. Versions 1 (no moves) and 2 still load. A damaged,
truncated or foreign file is refused with :class:`~fastttt.errors.TableFileError`.
"""

from __future__ import annotations

import json
import os
import struct
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from fastttt.codes import to_layout
from fastttt.errors import GameSpecError, InvalidArgumentError, TableFileError, require_int
from fastttt.files import check_target, file_head, write_atomic, write_framed
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import GameSpec, as_spec, game_fields
from fastttt.search.alphabeta import scores_of_moves

MAGIC = b"FTTTBOOK"
VERSION = 3  # 2: a best move for each deepest position; 3: positions past the depth
READS = (1, 2, 3)
NO_MOVE = -1
CHUNK = 64  # depth-D positions per search task (one checkpoint file each)
MAX_DEPTH = 16
Progress = Callable[[str, int, int], None]  # (phase, done, total)


def can_have_book(spec: GameSpec) -> bool:
    """Whether ``spec`` takes an opening book: a gravity board with ``(rows + 1) * cols <= 63``
    (the column-major keys of :func:`position_key` fit 64 bits)."""
    return spec.gravity and (spec.rows + 1) * spec.cols <= 63


def _check_spec(spec: GameSpec) -> None:
    if not can_have_book(spec):
        raise GameSpecError(
            f"opening books are for gravity boards with (rows + 1) * cols <= 63; {spec.name} is "
            f"{spec.describe()}"
        )


def position_key(pos: Position) -> int:
    """The key of a position of a gravity board, the same for its left-right mirror: the
    smaller of the two ``cur + mask`` codes (stones of the side to move plus all stones, column
    by column with a free bit on top: unique per position)."""
    return min(_codes(pos))


def layout_keys(spec: GameSpec, curs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """:func:`position_key` of positions given as bitboards (uint64 arrays) in the column
    layout of :func:`_layouts` (the Connect Four search's): the side to move's stones and all
    stones."""
    codes = np.asarray(curs, dtype=np.uint64) + np.asarray(masks, dtype=np.uint64)
    return np.minimum(codes, _mirror(spec, codes))


def _mirror(spec: GameSpec, codes):
    """``cur + mask`` codes left-right mirrored: column c's ``rows + 1`` bits go to column
    ``cols - 1 - c`` (a column's sum never carries into the next: its free bit is above).
    ``codes``: a uint64 array, or one code as a plain int (a NumPy array of one is far slower)."""
    h1 = spec.rows + 1
    column = (1 << h1) - 1
    out = codes & 0
    for c in range(spec.cols):
        out |= ((codes >> (c * h1)) & column) << ((spec.cols - 1 - c) * h1)
    return out


def _codes(pos: Position) -> tuple[int, int]:
    """The ``cur + mask`` codes of ``pos`` as is and left-right mirrored."""
    column_bits = _layouts(pos.spec)
    cur = to_layout(pos.first if pos.to_move == 0 else pos.second, column_bits)
    code = cur + to_layout(pos.first | pos.second, column_bits)
    return code, _mirror(pos.spec, code)


def _key_move(pos: Position, move: int) -> int:
    """A column of ``pos`` in the orientation of its key, and back (a mirror is its own
    inverse)."""
    as_is, mirrored = _codes(pos)
    return move if as_is <= mirrored else pos.spec.cols - 1 - move


def _parents(pos: Position) -> Iterable[tuple[int, Position]]:
    """``(column, parent)`` for each column of ``pos`` (a gravity board) whose top stone is the
    last mover's: ``parent`` is ``pos`` without it, live or not, reachable or not."""
    spec = pos.spec
    last = pos.second if pos.to_move == 0 else pos.first
    for column in range(spec.cols):
        for cell in range(column, spec.cells, spec.cols):  # top row first
            if pos.occupied >> cell & 1:
                if last >> cell & 1:
                    bit = ~(1 << cell)
                    parent = Position(spec, pos.first & bit, pos.second & bit, check=False)
                    if not parent.is_over():
                        yield column, parent
                break


@cache
def _layouts(spec: GameSpec) -> list[int]:
    """Where each cell goes in the column-major layout (``rows + 1`` bits a column, bottom row
    first)."""
    return [
        (c % spec.cols) * (spec.rows + 1) + spec.rows - 1 - c // spec.cols
        for c in range(spec.cells)
    ]


def _no_entries(dtype) -> np.ndarray:
    return np.zeros(0, dtype=dtype)


@dataclass(frozen=True)
class Book:
    """Exact scores of every position up to ``depth`` stones of ``spec``: ``keys`` (uint64,
    increasing, :func:`position_key`), ``scores`` (int8, side to move) and ``moves`` (int8: a
    best move in the key's orientation, :data:`NO_MOVE` where none is kept; None for a version 1
    book). ``past_keys``, ``past_scores``, ``past_moves``: the same for some positions past the
    depth, up to ``lines`` stones (0: none): those perfect play meets (:func:`extend`)."""

    spec: GameSpec
    depth: int
    keys: np.ndarray
    scores: np.ndarray
    moves: np.ndarray | None = None
    lines: int = 0
    past_keys: np.ndarray = field(default_factory=lambda: _no_entries(np.uint64))
    past_scores: np.ndarray = field(default_factory=lambda: _no_entries(np.int8))
    past_moves: np.ndarray = field(default_factory=lambda: _no_entries(np.int8))

    def __len__(self) -> int:
        """The positions up to the depth (those past it: ``past_keys.size``)."""
        return int(self.keys.size)

    def score(self, pos: Position) -> int | None:
        """The exact score of ``pos`` (a live position of the book's game), or None when the
        book does not know it: past the depth, neither among the positions kept there nor
        reached by a kept best move (:meth:`best_move`; its score is minus its parent's)."""
        if pos.spec != self.spec or pos.is_over():
            return None
        if pos.ply <= self.depth:
            return int(self.scores[self._entry(pos)])
        found = self._entry_past(pos)
        if found is not None:
            return found[0]
        for move, parent in _parents(pos):
            kept = self.kept_entry(parent)
            if kept is not None and _key_move(parent, kept[1]) == move:
                return -kept[0]
        return None

    def best_move(self, pos: Position) -> int | None:
        """A best move of ``pos`` (a column) kept by the book, or None: the book keeps one for its
        deepest positions (version 2) and those past the depth; shallower ones have
        :meth:`move_scores`."""
        if pos.spec != self.spec or pos.is_over():
            return None
        if pos.ply <= self.depth:
            move = NO_MOVE if self.moves is None else int(self.moves[self._entry(pos)])
        else:
            found = self._entry_past(pos)
            move = NO_MOVE if found is None else found[1]
        return None if move == NO_MOVE else _key_move(pos, move)

    def _entry(self, pos: Position) -> int:
        at = _find(self.keys, pos)
        if at is None:
            raise TableFileError(f"the book of {self.spec.name} lacks {pos} (a damaged book?)")
        return at

    def _entry_at(self, pos: Position) -> tuple[int, int] | None:
        """(score, kept move in the key's orientation) of ``pos`` within the depth, or None for
        a position the book does not hold (one that cannot be reached)."""
        at = _find(self.keys, pos)
        if at is None:
            return None
        return int(self.scores[at]), NO_MOVE if self.moves is None else int(self.moves[at])

    def kept_entry(self, pos: Position) -> tuple[int, int] | None:
        """(score, best move in the key's orientation) of ``pos`` where the book keeps a move
        for it (at its depth or on its lines), else None."""
        if pos.spec != self.spec or pos.is_over() or pos.ply < self.depth:
            return None
        found = self._entry_past(pos) if pos.ply > self.depth else self._entry_at(pos)
        return None if found is None or found[1] == NO_MOVE else found

    def _entry_past(self, pos: Position) -> tuple[int, int] | None:
        at = _find(self.past_keys, pos)
        return None if at is None else (int(self.past_scores[at]), int(self.past_moves[at]))

    def lookup(
        self, curs: np.ndarray, masks: np.ndarray, plies: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(found, scores)`` of live positions given as bitboards (:func:`layout_keys`) with
        ``plies`` stones: ``found`` where the book holds them (every one up to :attr:`depth`
        stones, some past it), ``scores`` their exact scores there (0 elsewhere)."""
        keys = layout_keys(self.spec, curs, masks)
        within = np.asarray(plies) <= self.depth
        found, scores = _find_many(self.keys, self.scores, keys)
        found &= within
        if (within & ~found).any():
            raise TableFileError(f"the book of {self.spec.name} lacks a position (a damaged book?)")
        past, past_scores = _find_many(self.past_keys, self.past_scores, keys)
        past &= ~within
        return found | past, np.where(found, scores, np.where(past, past_scores, 0))

    def move_scores(self, pos: Position) -> dict[int, int] | None:
        """The exact score of each legal move of ``pos`` from the mover's side (as
        :meth:`fastttt.search.alphabeta.Searcher.move_scores`), or None when a child is past the
        book."""
        if pos.spec != self.spec or pos.ply >= self.depth or pos.is_over():
            return None
        return scores_of_moves(pos, self._stored)

    def _stored(self, pos: Position) -> int:
        score = self.score(pos)
        assert score is not None  # a child of a position above the depth
        return score


def _find(keys: np.ndarray, pos: Position) -> int | None:
    key = np.uint64(position_key(pos))
    at = int(np.searchsorted(keys, key))
    return at if at < keys.size and keys[at] == key else None


def _find_many(keys: np.ndarray, scores: np.ndarray, wanted: np.ndarray):
    """``(found, scores)`` of ``wanted`` keys in increasing ``keys`` (scores 0 where absent)."""
    if not keys.size:
        return np.zeros(wanted.shape, dtype=bool), np.zeros(wanted.shape, dtype=np.int64)
    at = np.minimum(np.searchsorted(keys, wanted), keys.size - 1)
    found = keys[at] == wanted
    return found, np.where(found, scores[at], 0).astype(np.int64)


# --- building ----------------------------------------------------------------------------------
def _layers(spec: GameSpec, depth: int) -> list[dict[int, Position]]:
    """For each ply up to ``depth``: key -> a live position with that many stones."""
    layers: list[dict[int, Position]] = [{position_key(Position.empty(spec)): Position.empty(spec)}]
    for _ in range(depth):
        nxt: dict[int, Position] = {}
        for pos in layers[-1].values():
            for move in pos.legal_moves():
                child = pos.play(move)
                if not child.is_over():
                    nxt.setdefault(position_key(child), child)
        layers.append(nxt)
    return layers


def _solve_chunk(
    game: dict, texts: list[str], scores: list[int | None] | None = None
) -> list[tuple[int, int]]:
    """(exact score, a best move in the key's orientation) of positions given by their text
    (one task; a fresh searcher); ``scores``: those already known (None: search it). The move
    is the first in the search's root order that keeps the score: the table of the solve just
    done usually proves it at once."""
    from fastttt.search.alphabeta import Searcher

    spec = GameSpec(**game)
    searcher = Searcher(spec)
    answers = []
    for i, text in enumerate(texts):
        pos = Position.from_text(spec, text)
        known = None if scores is None else scores[i]
        score = searcher.solve(pos).score if known is None else known
        move = searcher.first_best_move(pos, searcher.root_order(pos), score)
        answers.append((score, _key_move(pos, move)))
    return answers


def build(
    spec: GameSpec | str,
    depth: int,
    path: str | os.PathLike,
    *,
    resume: bool = False,
    reuse: Book | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    force: bool = False,
    progress: Progress | None = None,
) -> Book:
    """Build the book of ``spec`` to ``depth`` plies and write it to ``path`` (atomically; a file
    there that is not a book is refused unless ``force``). The depth-``depth`` positions are
    searched in chunks of :data:`CHUNK`, each saved in ``<path>.parts/`` as it finishes;
    ``resume`` keeps the chunks found there (their game and depth must match); with no chunks
    there and a book of this game and depth at ``path``, that book is finished: it is returned
    as it is, its extension (:func:`extend`) kept. ``reuse``:
    another book of the game whose scores (:meth:`Book.score`: a shallower book's lines and
    kept moves) are taken instead of searched; only the kept move is then looked for.
    ``workers``: that many processes; ``scheduler``: the address of a Dask scheduler (the
    chunks as tasks; ``pip install 'fastttt[distributed]'``). ``progress(phase, done, total)``
    after each chunk."""
    spec = as_spec(spec)
    _check_spec(spec)
    _check_reuse(reuse, spec)
    depth = require_int(depth, "depth", 0, min(MAX_DEPTH, spec.cells - 1))
    target = check_target(path, _is_book, "a fastttt book", TableFileError, force=force)
    parts = Path(f"{target}.parts")
    if resume and not parts.exists():
        finished = _finished_book(target, spec, depth)
        if finished is not None:
            return finished
    layers = _layers(spec, depth)
    leaves = sorted(layers[depth].items())
    plan = {
        "game": game_fields(spec),
        "depth": depth,
        "leaves": len(leaves),
        "chunk": CHUNK,
        "version": VERSION,
    } | _reuse_plan(reuse)
    _prepare_parts(parts, plan, resume)
    chunks = [leaves[i : i + CHUNK] for i in range(0, len(leaves), CHUNK)]
    searched = _search_chunks(spec, chunks, parts, "", progress, workers, scheduler, reuse)
    known: dict[int, int] = {}
    best: dict[int, int] = {}
    for chunk, answers in zip(chunks, searched, strict=True):
        keys_of_chunk = [key for key, _ in chunk]
        known.update(zip(keys_of_chunk, answers[:, 0].tolist(), strict=True))
        best.update(zip(keys_of_chunk, answers[:, 1].tolist(), strict=True))
    for ply in range(depth - 1, -1, -1):
        for key, pos in layers[ply].items():
            children = scores_of_moves(pos, lambda child: known[position_key(child)])
            known[key] = max(children.values())
    keys = np.array(sorted(known), dtype=np.uint64)
    scores = np.array([known[int(k)] for k in keys], dtype=np.int8)
    moves = np.array([best.get(int(k), NO_MOVE) for k in keys], dtype=np.int8)
    book = Book(spec, depth, keys, scores, moves)
    save(book, target, force=True)
    for part in parts.glob("*"):
        part.unlink()
    parts.rmdir()
    return book


def _finished_book(path: Path, spec: GameSpec, depth: int) -> Book | None:
    """The book at ``path`` when it is one of ``spec`` to ``depth`` plies, else None (none
    there, another book, or one that does not read)."""
    if not path.is_file():
        return None
    try:
        book = load(path, spec)
    except TableFileError:
        return None
    return book if book.depth == depth else None


def perfect_lines(book: Book, ply: int) -> dict[int, Position]:
    """Key -> a live position with ``ply`` stones, past ``book``'s depth, that perfect play
    meets when the side to move there is the perfect player: that side plays ``book``'s best
    moves (all of them where it has the children's scores, as
    :func:`fastttt.play.players.perfect_move` chooses uniformly among them, else the kept one),
    the other side any move. None of them may lie past what ``book`` keeps."""
    perfect = ply % 2
    layer = {position_key(Position.empty(book.spec)): Position.empty(book.spec)}
    for _ in range(ply):
        nxt: dict[int, Position] = {}
        for pos in layer.values():
            if pos.to_move != perfect:
                moves = pos.legal_moves()
            elif (scores := book.move_scores(pos)) is not None:
                top = max(scores.values())
                moves = [m for m, score in scores.items() if score == top]
            elif (kept := book.best_move(pos)) is not None:
                moves = [kept]
            else:
                raise InvalidArgumentError(f"the book keeps no move for {pos}: extend it first")
            for move in moves:
                child = pos.play(move)
                if not child.is_over():
                    nxt.setdefault(position_key(child), child)
        layer = nxt
    return layer


def extend(
    path: str | os.PathLike,
    lines: int,
    *,
    resume: bool = False,
    reuse: Book | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> Book:
    """Add to the book at ``path`` the positions perfect play meets past its depth, to
    ``lines`` stones (:func:`perfect_lines`), each with its exact score and kept best move, so
    that ``perfect`` answers them without a search; the book is rewritten in place
    (atomically). Ply by ply, in chunks of :data:`CHUNK` saved in ``<path>.parts/`` as they
    finish (``resume`` keeps them); ``workers``/``scheduler`` as :func:`build`. ``reuse``:
    another book of the same game whose kept entries (score and best move) are taken instead
    of searching those positions again (the lines of a shallower book, say)."""
    book = load(path)
    lines = require_int(lines, "lines", book.depth + 1, min(MAX_DEPTH, book.spec.cells - 1))
    if book.moves is None:
        raise TableFileError(f"{path}: a version 1 book keeps no moves: build it again")
    _check_reuse(reuse, book.spec)
    parts = Path(f"{path}.parts")
    plan = {"game": game_fields(book.spec), "depth": book.depth, "count": len(book)}
    _prepare_parts(parts, plan | _reuse_plan(reuse) | {"lines": lines, "chunk": CHUNK}, resume)
    for ply in range(max(book.depth, book.lines) + 1, lines + 1):
        found = dict(zip(book.past_keys.tolist(), book.past_scores.tolist(), strict=True))
        kept = dict(zip(book.past_keys.tolist(), book.past_moves.tolist(), strict=True))
        leaves = []
        for key, pos in sorted(perfect_lines(book, ply).items()):
            if reuse is not None and (entry := reuse.kept_entry(pos)) is not None:
                found[key], kept[key] = entry
            else:
                leaves.append((key, pos))
        chunks = [leaves[i : i + CHUNK] for i in range(0, len(leaves), CHUNK)]
        answers = _search_chunks(book.spec, chunks, parts, f"{ply}-", progress, workers, scheduler)
        for chunk, rows in zip(chunks, answers, strict=True):
            for (key, _), (score, move) in zip(chunk, rows.tolist(), strict=True):
                found[key], kept[key] = score, move
        keys = np.array(sorted(found), dtype=np.uint64)
        book = replace(
            book,
            lines=ply,
            past_keys=keys,
            past_scores=np.array([found[int(k)] for k in keys], dtype=np.int8),
            past_moves=np.array([kept[int(k)] for k in keys], dtype=np.int8),
        )
    save(book, path)
    for part in parts.glob("*"):
        part.unlink()
    parts.rmdir()
    return book


def _check_reuse(reuse: Book | None, spec: GameSpec) -> None:
    if reuse is not None and reuse.spec != spec:
        raise InvalidArgumentError(f"the book to reuse is of {reuse.spec.name}, not of {spec.name}")


def _reuse_plan(reuse: Book | None) -> dict:
    """What a chunk folder records of the book it reused (a resume must reuse the same)."""
    if reuse is None:
        return {}
    return {"reuse": [reuse.depth, len(reuse), reuse.lines, int(reuse.past_keys.size)]}


def _search_chunks(
    spec: GameSpec,
    chunks: list[list[tuple[int, Position]]],
    parts: Path,
    prefix: str,
    progress: Progress | None,
    workers: int | None,
    scheduler: str | None,
    reuse: Book | None = None,
) -> list[np.ndarray]:
    """The ``(score, kept move)`` rows (int8) of each chunk's positions, searched (the score
    read from ``reuse`` where it knows it) and saved as ``parts/<prefix><i>.npy`` where not
    already there."""
    files = [parts / f"{prefix}{i}.npy" for i in range(len(chunks))]
    todo = [i for i, file in enumerate(files) if not file.is_file()]
    done = len(chunks) - len(todo)
    phase = f"search {prefix.rstrip('-')}".rstrip()
    if progress:
        progress(phase, done, len(chunks))
    tasks = [
        (
            i,
            [str(pos) for _, pos in chunks[i]],
            None if reuse is None else [reuse.score(pos) for _, pos in chunks[i]],
        )
        for i in todo
    ]
    for index, answers in _run_tasks(spec, tasks, workers, scheduler):
        _save_part(files[index], np.array(answers, dtype=np.int8).reshape(-1, 2))
        done += 1
        if progress:
            progress(phase, done, len(chunks))
    out = []
    for file, chunk in zip(files, chunks, strict=True):
        answers = np.load(file)
        if answers.shape != (len(chunk), 2):
            raise TableFileError(f"{file}: {answers.shape} answers, expected ({len(chunk)}, 2)")
        out.append(answers)
    return out


def _run_tasks(spec, tasks, workers, scheduler) -> Iterable[tuple[int, list[tuple[int, int]]]]:
    game = game_fields(spec)
    if scheduler is not None:
        from fastttt.tables.distributed import connect, require_distributed

        distributed = require_distributed()
        with connect(scheduler) as client:
            futures = {
                client.submit(_solve_chunk, game, texts, scores, pure=False): i
                for i, texts, scores in tasks
            }
            for future in distributed.as_completed(futures):
                yield futures[future], future.result()
        return
    if workers is not None and workers > 1:
        from concurrent.futures import as_completed

        from fastttt.processes import process_pool

        with process_pool(workers) as pool:
            pending = {
                pool.submit(_solve_chunk, game, texts, scores): i for i, texts, scores in tasks
            }
            for future in as_completed(pending):
                yield pending[future], future.result()
        return
    for i, texts, scores in tasks:
        yield i, _solve_chunk(game, texts, scores)


def _prepare_parts(parts: Path, plan: dict, resume: bool) -> None:
    plan_file = parts / "plan.json"
    if parts.exists():
        if not resume:
            raise TableFileError(f"{parts} holds an earlier build: --resume it, or remove it")
        try:
            found = json.loads(plan_file.read_text())
        except (OSError, ValueError):
            found = None
        if found != plan:
            raise TableFileError(f"{parts} holds another build ({found}), not {plan}")
        return
    parts.mkdir()
    write_atomic(plan_file, lambda f: f.write(json.dumps(plan).encode()), TableFileError)


def _save_part(path: Path, scores: np.ndarray) -> None:
    write_atomic(path, lambda f: np.save(f, scores), TableFileError)


# --- the file ----------------------------------------------------------------------------------
def _is_book(path: Path) -> bool:
    return file_head(path, len(MAGIC)) == MAGIC


def save(book: Book, path: str | os.PathLike, *, force: bool = False) -> Path:
    """Write ``book`` atomically (a file there that is not a book is refused unless ``force``)."""
    target = check_target(path, _is_book, "a fastttt book", TableFileError, force=force)
    header = {
        "format": "fastttt-book",
        "version": VERSION,
        "game": game_fields(book.spec),
        "depth": book.depth,
        "count": len(book),
        "lines": book.lines,
        "past": int(book.past_keys.size),
    }
    moves = book.moves if book.moves is not None else np.full(len(book), NO_MOVE, np.int8)
    parts = [
        array
        for keys, scores, kept in (
            (book.keys, book.scores, moves),
            (book.past_keys, book.past_scores, book.past_moves),
        )
        for array in (keys.astype("<u8"), scores.astype(np.int8), kept.astype(np.int8))
    ]
    return write_framed(target, MAGIC, header, parts, TableFileError)


def load(path: str | os.PathLike, game: GameSpec | str | None = None) -> Book:
    """Read a book written by :func:`save`; ``game`` (optional) must be the book's. Refuses
    (TableFileError) a file that is not a book, damaged (CRC-32), truncated, of another version
    or game, or whose keys are not increasing."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise TableFileError(f"{path}: cannot read the book ({err.strerror})") from None
    if not data.startswith(MAGIC):
        raise TableFileError(f"{path}: not a fastttt book (bad magic bytes)")
    if len(data) < len(MAGIC) + 8 or zlib.crc32(data[:-4]) != struct.unpack("<I", data[-4:])[0]:
        raise TableFileError(f"{path}: the book is damaged (checksum mismatch or truncated)")
    (length,) = struct.unpack("<I", data[len(MAGIC) : len(MAGIC) + 4])
    start = len(MAGIC) + 4
    try:
        header = json.loads(data[start : start + length])
        spec = GameSpec(**header["game"])
        depth, count = int(header["depth"]), int(header["count"])
        lines, past = int(header.get("lines", 0)), int(header.get("past", 0))
    except (ValueError, KeyError, TypeError, GameSpecError):
        raise TableFileError(f"{path}: the book's header is damaged") from None
    version = header.get("version")
    if header.get("format") != "fastttt-book" or version not in READS:
        raise TableFileError(f"{path}: book format {version!r}, this reads {READS}")
    body = data[start + length : -4]
    width = 9 if version == 1 else 10
    if count < 0 or past < 0 or len(body) != width * (count + past):
        raise TableFileError(
            f"{path}: {len(body)} bytes of entries, {count + past} need {width * (count + past)}"
        )
    keys, scores, moves = _entries(path, spec, body[: width * count], count, version > 1)
    past_keys, past_scores, past_moves = _entries(path, spec, body[width * count :], past, True)
    if game is not None and as_spec(game) != spec:
        raise TableFileError(f"{path}: a book of {spec.name}, expected {as_spec(game).name}")
    return Book(spec, depth, keys, scores, moves, lines, past_keys, past_scores, past_moves)


def _entries(path: Path, spec: GameSpec, body: bytes, count: int, with_moves: bool):
    """(keys, scores, moves or None) of ``count`` entries written by :func:`save`, checked."""
    keys = np.frombuffer(body[: 8 * count], dtype="<u8").astype(np.uint64)
    scores = np.frombuffer(body[8 * count : 9 * count], dtype=np.int8).copy()
    moves = np.frombuffer(body[9 * count :], dtype=np.int8).copy() if with_moves else None
    if count and not (keys[1:] > keys[:-1]).all():
        raise TableFileError(f"{path}: the book's keys are not in increasing order")
    if moves is not None and not ((moves == NO_MOVE) | ((moves >= 0) & (moves < spec.cols))).all():
        raise TableFileError(f"{path}: the book holds a move off the board")
    return keys, scores, moves


@cache
def shipped(spec: GameSpec) -> Book | None:
    """The book shipped with fastttt for ``spec`` (``fastttt/data/books/<name>.book``), if any
    (None for boards that take no book: :func:`can_have_book`)."""
    if not can_have_book(spec) or not spec.name.isidentifier():
        return None
    name = f"{spec.name}.book"
    resource = resources.files("fastttt") / "data" / "books" / name
    if not resource.is_file():
        return None
    with resources.as_file(resource) as path:
        return load(path, spec)
