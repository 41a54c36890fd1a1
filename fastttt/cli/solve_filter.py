"""``fastttt solve --stdin``: the line filter (:func:`fastttt.search.connect4.run_filter`), one
answer per input line; with ``--json`` one JSON object per input line (JSON Lines), refused lines
included (with ``"error"``), built from the filter's text answers as they are written."""

from __future__ import annotations

import json
import sys
from typing import IO, Any

import click

from fastttt.cli.output import document
from fastttt.errors import FastTTTError


def solve_filter(
    game: Any, all_moves: bool, weak: bool, nodes: bool, as_json: bool, source: Any = None
) -> None:
    """The filter over ``source`` (default: standard input); exits 1 when a line was refused.
    With ``all_moves``, positions in the opening book shipped for the game are read from it
    (score lines search, as the benchmark solver does)."""
    from fastttt.search.book import shipped
    from fastttt.search.connect4 import run_filter

    out: Any = sys.stdout  # a text stream, or JSON Lines written through one
    err: Any = sys.stderr
    if as_json:
        out = _JsonLines(game, sys.stdout, all_moves=all_moves, weak=weak, nodes=nodes)
        err = out.errors(sys.stderr)
    try:
        bad = run_filter(
            game,
            sys.stdin if source is None else source,
            out,
            err,
            all_moves=all_moves,
            weak=weak,
            nodes=nodes,
            book=shipped(game) if all_moves else None,
        )
    except FastTTTError as exc:
        raise click.UsageError(str(exc)) from None
    sys.exit(1 if bad else 0)


def one_position_line(game: Any, position: str | None, moves: str | None) -> str:
    """The filter's input line for ``solve --all-moves`` on one position: its moves in Connect
    Four notation with gravity (columns from 1, at most 9 columns), else its text form."""
    from fastttt.cli.moves import query_state

    pos, played = query_state(game, position, moves)
    if pos.is_over():
        raise click.UsageError(f"the game is already over in {pos}: no move to score")
    if not game.gravity:
        return f"{pos}\n"
    if game.cols > 9 or (position is not None and pos.ply):
        raise click.UsageError(
            "--all-moves on a gravity board takes --moves, on boards of at most 9 columns"
        )
    return "".join(str(c + 1) for c in played or ()) + "\n"


def _value(score: int) -> str:
    return "win" if score > 0 else "loss" if score < 0 else "draw"


class _JsonLines:
    """A text stream for the filter's answers that writes each answer line as one JSON
    object: ``position`` (the line's position field), ``score`` (from the side to move),
    ``value``, with ``--all-moves`` ``move_scores`` (every legal move in people's text and
    its score), with ``--nodes`` ``nodes`` and ``microseconds``; a refused line (an empty
    answer) becomes ``{"input_line": N, "error": reason}``, the reason taken from the line the
    filter writes to the error stream just before (:meth:`errors`), which still gets it."""

    def __init__(self, game: Any, out: IO[str], *, all_moves: bool, weak: bool, nodes: bool):
        self.game, self.out = game, out
        self.all_moves, self.weak, self.nodes = all_moves, weak, nodes
        self.line = 0  # input lines answered so far
        self.pending = ""  # a partial answer line
        self.reasons: dict[int, str] = {}
        if all_moves:
            # a move's text does not depend on the position (a cell's row,col; a column)
            empty = game.initial()
            fields = game.cols if game.gravity else game.rows * game.cols
            self.labels = [game.format_move(empty, m) for m in range(fields)]

    def errors(self, err: IO[str]) -> _Reasons:
        return _Reasons(self, err)

    def write(self, text: str) -> int:
        lines = (self.pending + text).split("\n")
        self.pending = lines.pop()
        for answer in lines:
            self.line += 1
            self.out.write(json.dumps(self._record(answer)) + "\n")
        return len(text)

    def flush(self) -> None:
        self.out.flush()

    def _record(self, answer: str) -> dict[str, Any]:
        fields: dict[str, Any] = {
            "game": self.game.name,
            "engine": "filter",
            "input_line": self.line,
        }
        if not answer.strip():
            reason = self.reasons.pop(self.line, "refused")
            return document("solve", {**fields, "position": None, "value": None, "error": reason})
        position, _, tail = answer.partition(" ")  # "" is the empty board
        fields["position"] = position
        rest = tail.split()
        if self.all_moves:
            scores, rest = rest[: len(self.labels)], rest[len(self.labels) :]
            moves = [
                {"move": label, "score": int(score)}
                for label, score in zip(self.labels, scores, strict=True)
                if score != "-"
            ]
            best = max((m["score"] for m in moves), default=None)
            fields["value"] = _value(best) if best is not None else None
            fields["move_scores"] = moves
        else:
            fields["score"] = int(rest[0])
            fields["value"] = _value(fields["score"])
            rest = rest[1:]
        fields["weak"] = self.weak
        if self.nodes:
            fields["nodes"], fields["microseconds"] = int(rest[0]), int(rest[1])
        return document("solve", fields)


class _Reasons:
    """The filter's error stream: ``line N: reason`` passed on, the reason kept for N."""

    def __init__(self, lines: _JsonLines, err: IO[str]):
        self.lines, self.err = lines, err

    def write(self, text: str) -> int:
        for line in text.splitlines():
            number, sep, reason = line.partition(": ")
            if sep and number.startswith("line ") and number[5:].isascii() and number[5:].isdigit():
                self.lines.reasons[int(number[5:])] = reason
        return self.err.write(text)

    def flush(self) -> None:
        self.err.flush()
