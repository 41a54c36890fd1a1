"""A line filter: one position per line in, one answer line per line out (``solve --stdin``).

What every filter here does, whatever the game (connect4's main.cpp is the model):

* One line out per line in, in order: the answer, or an empty line when the line is refused,
  with ``line N: <reason>`` (N counted from 1) on the error stream; the filter goes on.
* A line is read by :func:`position_field`: the position starts at its first character;
  once one ASCII line ending is removed, only printable ASCII and tabs may follow, and
  anything after the first space or tab (a benchmark's score) is ignored.
* Input is read in chunks (:data:`CHUNK_BYTES`) when it is not a terminal: a chunk is what the
  stream holds at the moment (``read1``), up to its last complete line, so that a program
  that writes one line and waits for its answer gets it, and a file is answered a few
  thousand lines a call. On a terminal each line is answered as soon as it is typed. Output
  is flushed whenever a group of answers is written.
* Ctrl-C: the answers finished before it are written, then ``KeyboardInterrupt`` goes on up.

A game supplies an *answerer*, ``answer(chunk, emit)``: it answers the lines of a
:class:`Chunk` in order and calls ``emit(text, refusals)`` each time it has finished some
consecutive lines, ``text`` their output lines (each ending with ``\\n``, empty for a refused
line) and ``refusals`` the ``(index in the chunk, reason)`` of the refused ones among them.
It must emit every line of the chunk, and, when interrupted, the lines it finished before
re-raising ``KeyboardInterrupt``. :func:`per_line` makes one from a function of one line.
:func:`fastttt.search.connect4.run_filter` answers whole chunks in Numba kernels
(:mod:`fastttt.kernels.movelines`) and searches them in batches.
"""

from __future__ import annotations

import codecs
import io
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, Any

import numpy as np

from fastttt.errors import InvalidPositionError

CHUNK_BYTES = 1 << 16  # the most a chunk reads at once (about 1,700 End-Easy lines)
CHUNK_LINES = 2048  # lines a chunk takes from a list or an iterator of strings
# encodings whose bytes 0x00-0x7f are ASCII and never part of another character: their
# streams are read as bytes and split at b"\n"; other text streams are read as text
_ASCII_SAFE = frozenset({"utf-8", "ascii", "latin-1", "iso8859-1", "cp1252"})

Emit = Callable[[str, Sequence[tuple[int, str]]], None]
Answerer = Callable[["Chunk", Emit], None]


def position_field(line: str) -> str:
    """The position field of one filter line. Once the ASCII line ending (``\\n``,
    ``\\r\\n``, ``\\r``) is removed, the line is the position, starting at its first character,
    then optionally one ASCII space or tab and further printable ASCII fields (a benchmark's
    score), which are ignored. Anything else (leading spaces, control characters, Unicode
    spaces, a line that was only ``\r``: blank, where only a truly empty line is the empty
    board) raises :class:`InvalidPositionError` naming the column.
    :func:`fastttt.kernels.movelines.parse_lines` applies the same rule to bytes."""
    if line.endswith("\r\n"):
        text = line[:-2]
    else:
        text = line[:-1] if line.endswith(("\n", "\r")) else line
    if not text and line not in ("", "\n"):
        raise InvalidPositionError(
            "column 1: a blank line (only a carriage return); only an empty line is the empty board"
        )
    for i, ch in enumerate(text):
        if not (" " <= ch <= "~" or ch == "\t"):
            raise InvalidPositionError(f"column {i + 1}: {ch!r} is not printable ASCII")
    field = text.replace("\t", " ").partition(" ")[0]
    if text and not field:
        raise InvalidPositionError("column 1: the position must start the line (no spaces)")
    return field


class Chunk:
    """Consecutive input lines as bytes: line ``i`` is ``data[starts[i]:starts[i + 1]]``, its
    line ending included (the last line of the input may have none); ``first`` is the number
    of line 0 in the whole input (from 1). ``array`` is ``data`` as a read-only uint8 array
    for the kernels; :meth:`line` gives a line as text (for messages and Python answerers):
    the string it came from, or its bytes decoded as the stream decodes them."""

    __slots__ = ("data", "array", "starts", "first", "_lines", "_encoding", "_errors")

    def __init__(
        self,
        data: bytes,
        starts: np.ndarray,
        first: int,
        *,
        lines: Sequence[str] | None = None,
        encoding: str = "utf-8",
        errors: str = "surrogateescape",
    ):
        self.data = data
        self.array = np.frombuffer(data, dtype=np.uint8)
        self.starts = starts
        self.first = first
        self._lines = lines
        self._encoding = encoding
        self._errors = errors

    def __len__(self) -> int:
        return self.starts.size - 1

    def line(self, i: int) -> str:
        if self._lines is not None:
            return self._lines[i]
        raw = self.data[self.starts[i] : self.starts[i + 1]]
        return raw.decode(self._encoding, self._errors)

    @classmethod
    def from_bytes(cls, data: bytes, first: int, **decoding: str) -> Chunk:
        """The lines of ``data``, split after each ``\\n`` (a lone ``\\r`` ends no line)."""
        ends = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10) + 1
        if len(data) and (ends.size == 0 or ends[-1] != len(data)):
            ends = np.append(ends, len(data))
        starts = np.zeros(ends.size + 1, dtype=np.int64)
        starts[1:] = ends
        return cls(data, starts, first, **decoding)

    @classmethod
    def from_lines(cls, lines: Sequence[str], first: int) -> Chunk:
        """One line per string, whatever it holds (a ``\\n`` inside a string is a character
        of that line). Surrogates are kept as non-ASCII bytes, so such a line is refused."""
        parts = [line.encode("utf-8", "surrogatepass") for line in lines]
        starts = np.zeros(len(parts) + 1, dtype=np.int64)
        np.cumsum([len(p) for p in parts], out=starts[1:])
        return cls(b"".join(parts), starts, first, lines=lines)


def _is_tty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _byte_source(source: Any) -> tuple[Any, dict[str, str]] | None:
    """``(binary stream, decoding)`` to read ``source`` as bytes, or None to read it as text:
    a binary stream itself, or the buffer of a text stream whose encoding keeps ASCII."""
    if isinstance(source, (io.BufferedIOBase, io.RawIOBase)):
        return source, {"encoding": "utf-8", "errors": "surrogateescape"}
    buffer = getattr(source, "buffer", None)
    encoding = getattr(source, "encoding", None)
    if buffer is None or not isinstance(encoding, str):
        return None
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        return None
    if name not in _ASCII_SAFE:
        return None
    errors = getattr(source, "errors", None) or "strict"
    # strict decoding would end the filter at the first bad byte: that line is refused instead
    return buffer, {"encoding": name, "errors": "surrogateescape" if errors == "strict" else errors}


def _read_bytes(raw: Any, decoding: dict[str, str], interactive: bool) -> Iterator[Chunk]:
    first = 1
    if interactive:  # a terminal: each line as soon as it is typed
        for line in iter(raw.readline, b""):
            yield Chunk.from_bytes(line, first, **decoding)
            first += 1
        return
    read = getattr(raw, "read1", raw.read)
    pending = bytearray()
    while True:
        data = read(CHUNK_BYTES)
        if not data:
            break
        pending += data
        cut = pending.rfind(b"\n") + 1
        if cut == 0:  # no complete line yet (or a line longer than a chunk): read on
            continue
        chunk = Chunk.from_bytes(bytes(pending[:cut]), first, **decoding)
        del pending[:cut]
        first += len(chunk)
        yield chunk
    if pending:
        yield Chunk.from_bytes(bytes(pending), first, **decoding)


def read_chunks(source: Iterable[str] | IO[Any]) -> Iterator[Chunk]:
    """The lines of ``source`` in :class:`Chunk` s: a text stream with an ASCII-safe encoding
    (``sys.stdin``) or a binary stream is read as bytes, :data:`CHUNK_BYTES` at most at a
    time and what is there (one line at a time on a terminal); a list or an iterable of
    strings, :data:`CHUNK_LINES` strings at a time, each string one line (one at a time from
    a terminal)."""
    byte_source = _byte_source(source)
    if byte_source is not None:
        raw, decoding = byte_source
        yield from _read_bytes(raw, decoding, _is_tty(source) or _is_tty(raw))
        return
    size = 1 if _is_tty(source) else CHUNK_LINES
    if isinstance(source, (list, tuple)):
        groups: Iterator[Sequence[str]] = (
            source[i : i + size] for i in range(0, len(source), size)
        )
    else:
        lines = iter(source)
        groups = iter(lambda: list(itertools.islice(lines, size)), [])
    first = 1
    for group in groups:
        yield Chunk.from_lines(group, first)
        first += len(group)


def per_line(
    answer_line: Callable[[str], str], refused: tuple[type[BaseException], ...]
) -> Answerer:
    """An answerer that calls ``answer_line(line)`` on each line (its text, line ending
    included) and emits the answer as it comes; an exception of a ``refused`` type refuses
    the line with its message."""

    def answer(chunk: Chunk, emit: Emit) -> None:
        for i in range(len(chunk)):
            try:
                text = answer_line(chunk.line(i))
            except refused as exc:
                emit("\n", [(i, str(exc))])
                continue
            emit(text + "\n", ())

    return answer


class _Sink:
    """Where a filter's answers go: ``emit`` writes a group of answer lines to ``out`` (then
    flushes it) and one ``line N: reason`` to ``err`` per refused line, counted in ``bad``;
    ``first`` is the number of the current chunk's first line."""

    def __init__(self, out: IO[str], err: IO[str]):
        self.out, self.err, self.bad, self.first = out, err, 0, 1

    def emit(self, text: str, refusals: Sequence[tuple[int, str]]) -> None:
        for i, reason in refusals:
            self.err.write(f"line {self.first + i}: {reason}\n")
        self.bad += len(refusals)
        self.out.write(text)
        self.out.flush()


def run(answer: Answerer, source: Iterable[str] | IO[Any], out: IO[str], err: IO[str]) -> int:
    """Answer every line of ``source`` (see the module docstring) with ``answer``, writing
    answers to ``out`` and reasons to ``err``; returns the number of refused lines."""
    sink = _Sink(out, err)
    for chunk in read_chunks(source):
        sink.first = chunk.first
        answer(chunk, sink.emit)
    return sink.bad
