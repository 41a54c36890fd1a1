"""``fastttt solve --load PATH --stdin``: a solved table as a line filter.

One position per input line, once its line ending is removed: a move list as ``--moves`` reads
it (people's numbering: ``2,2 1,1`` on free boards, ``4455`` or ``4 4 5 5`` with gravity; an
empty line is the empty board) or a position's text as ``--position`` reads it
(``X.O/.X./..O``: a line holding X, O, ``.``, ``-``, ``_``, ``/`` or ``|``). One answer line
per input line, in order: ``<position> <value> <depth>``, the position's text form, its value
(+1 first player wins, 0 draw, -1 second player wins, :mod:`fastttt.values`) and its depth
(plies to the end, winner hurrying, loser delaying; ``-``, JSON null, from a win/draw/loss
table); with ``--json`` one object per line
(engine ``probe``: ``input_line``, ``position``, ``to_move``, ``value`` for the side to move,
``winner``, ``depth``). A refused line (bad move text, a position of another board, one that
is not reachable) answers an empty line (JSON: ``position`` and ``value`` null and ``error``)
and writes ``line N: reason`` to the error stream; the command exits 1 when a line was refused.
Input is read in chunks (:mod:`fastttt.filter`); a chunk's plain move lists are read and
played in Numba, and all its positions looked up at once.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click
import numpy as np

from fastttt.cli.output import document
from fastttt.cli.solve_table import SIDES
from fastttt.codes import texts_of_bitboards
from fastttt.errors import FastTTTError
from fastttt.filter import Chunk, Emit
from fastttt.games.movetext import parse_moves, play_lines
from fastttt.games.registry import as_game
from fastttt.values import RESULT_WORDS, relative, value_name, values_of_bytes

TEXT_MARKS = frozenset("XxOo.-_/|")  # a line holding one of these is a position's text


def probe_filter(path: str, expected: Any, as_json: bool, source: Any = None) -> None:
    """Answer each line of ``source`` (default: standard input) from the table at ``path``
    (``expected``: the game it must hold, or None); exits 1 when a line was refused."""
    from fastttt.filter import run
    from fastttt.tables.probe import open_table

    try:
        table = open_table(path, expected)
    except (FastTTTError, OSError, MemoryError) as err:  # MemoryError: a dense file too big
        click.echo(f"Error: {err}", err=True)
        sys.exit(1)
    source = sys.stdin if source is None else source
    bad = run(_answerer(table, as_json), source, sys.stdout, sys.stderr)
    sys.exit(1 if bad else 0)


def position_of_line(game: Any, line: str) -> Any:
    """The position of one input line (its line ending removed): a position's text when it
    holds one of :data:`TEXT_MARKS`, else a move list; InvalidPositionError says what is
    wrong."""
    text = line.removesuffix("\n").removesuffix("\r")
    if TEXT_MARKS.intersection(text):
        return game.state_from_text(text)
    return parse_moves(game, text)[0]


def _answerer(table: Any, as_json: bool):
    """The filter's answerer (:mod:`fastttt.filter`): a chunk's plain move lists read and
    played in Numba (:func:`~fastttt.games.movetext.play_lines`), its other lines in Python, then
    all its positions looked up at once
    (:meth:`~fastttt.tables.queries.PositionQueries.bytes_of`)."""
    game = as_game(table.spec)

    def record(number: int, fields: dict[str, Any]) -> str:
        head = {"game": game.name, "engine": "probe", "input_line": number}
        return json.dumps(document("solve", {**head, **fields})) + "\n"

    def answer(chunk: Chunk, emit: Emit) -> None:
        firsts, seconds, ok = play_lines(game, chunk)
        reasons = {}
        for i in np.flatnonzero(~ok).tolist():  # texts, other spellings, errors
            try:
                pos = position_of_line(game, chunk.line(i))
            except FastTTTError as err:
                reasons[i] = str(err)
                continue
            firsts[i], seconds[i], ok[i] = pos.first, pos.second, True
        good = np.flatnonzero(ok)
        firsts, seconds = firsts[good], seconds[good]
        stored = table.bytes_of(firsts, seconds)
        values, depths = values_of_bytes(stored)
        if not getattr(table, "has_depth", True):  # a win/draw/loss table
            depths = np.full(depths.shape, -1, dtype=np.int8)
        movers = (np.bitwise_count(firsts) != np.bitwise_count(seconds)).astype(np.int8)
        texts = texts_of_bitboards(firsts, seconds, game.rows, game.cols)
        lines = [""] * len(chunk)
        rows = zip(
            good.tolist(),
            texts,
            stored.tolist(),
            values.tolist(),
            depths.tolist(),
            movers.tolist(),
            strict=True,
        )
        for i, text, byte, value, depth, mover in rows:
            if byte == 0:
                reasons[i] = (
                    f"position {text} is not reachable from the empty board of {game.name} "
                    "(a game stops at the first line)"
                )
            elif as_json:
                fields = {
                    "position": text,
                    "to_move": SIDES[mover],
                    "value": RESULT_WORDS[relative(value, mover)],
                    "winner": value_name(value),
                    "depth": None if depth < 0 else depth,
                }
                lines[i] = record(chunk.first + i, fields)
            else:
                lines[i] = f"{text} {value} {'-' if depth < 0 else depth}\n"
        for i, reason in reasons.items():
            fields = {"position": None, "value": None, "error": reason}
            lines[i] = record(chunk.first + i, fields) if as_json else "\n"
        emit("".join(lines), sorted(reasons.items()))

    return answer
