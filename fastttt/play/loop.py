"""The game loop: players take turns until a line, a full board, or the person stops.

The loop is pure: it reads through ``read(prompt) -> str`` and writes through ``write(text)``,
so tests drive it with scripted input. Human moves are typed ``row,col`` counted from 1 (a
column alone on gravity boards, see :mod:`fastttt.views.text`); a malformed move, coordinates off
the board and a taken cell (or full column) each get their own one-line message and a new
prompt. ``q`` quits; end of input (``EOFError``) or Ctrl-C (``KeyboardInterrupt``) end the
game cleanly with a message.

The same loop plays every game: states follow :class:`fastttt.games.registry.State`, and the game's
:class:`~fastttt.games.registry.Game` draws them and parses typed moves (:func:`game_ui`).
"""

from __future__ import annotations

import random
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from fastttt.errors import FastTTTError, IllegalMoveError, InvalidArgumentError
from fastttt.games.mnk.board import SYMBOLS, Position
from fastttt.games.registry import as_game, game_of

QUIT_WORDS = ("q", "quit", "exit")
THINKING_DELAY = 1.0  # seconds an engine thinks before the status line appears


@dataclass(frozen=True)
class GameUI:
    """How a game is drawn and typed: ``render(state, last_move)``, ``parse(state, text)``,
    ``format(state, move)`` (``state`` before the move), and the help shown at the prompt."""

    render: Callable[[Any, Any], str]
    parse: Callable[[Any, str], int]
    format: Callable[[Any, int], str]
    move_help: str
    supports_hints: bool


def game_ui(game: Any, *, color: bool = False) -> GameUI:
    """The :class:`GameUI` of any game (:class:`fastttt.games.registry.Game`, or its spec or name:
    :func:`~fastttt.games.registry.as_game`)."""
    game = as_game(game)

    def draw(state: Any, last: Any) -> str:
        return game.render(state, last, color=color)

    return GameUI(draw, game.parse_move, game.format_move, game.move_help, game.supports_hints)


@dataclass
class GameRecord:
    """What happened: the moves (API form), the winner (0 first player, 1 second, None for a
    draw or an unfinished game), and why the game ended: ``"win"``, ``"draw"``, ``"quit"``,
    ``"eof"`` (end of input) or ``"interrupt"`` (Ctrl-C)."""

    moves: list[int] = field(default_factory=list)
    winner: int | None = None
    reason: str = ""
    final: Any = None

    @property
    def finished(self) -> bool:
        return self.reason in ("win", "draw")

    @property
    def plies(self) -> int:
        return len(self.moves)


def hint_lines(pos: Position, ui: GameUI) -> list[str]:
    """One line per legal move with its perfect-play outcome (best moves marked ``*``)."""
    from fastttt.play.players import best_outcome_moves, move_outcomes

    outcomes = move_outcomes(pos)
    best = set(best_outcome_moves(outcomes))
    width = max(len(ui.format(pos, m)) for m in outcomes)
    lines = ["Hints (perfect play; plies to the end, this move included):"]
    for move in sorted(outcomes):
        mark = "*" if move in best else " "
        lines.append(f"  {mark} {ui.format(pos, move):>{width}}  {outcomes[move]}")
    return lines


def _read_human_move(
    state: Any, ui: GameUI, read: Callable[[str], str], write: Callable[[str], None], label: str
) -> int | None:
    """Ask until a legal move is typed; None when the person types ``q``."""
    while True:
        text = read(f"{label}, your move ({ui.move_help}, q to quit): ")
        if text.strip().lower() in QUIT_WORDS:
            return None
        try:
            return ui.parse(state, text)
        except IllegalMoveError as err:
            write(f"Illegal move: {err}. Try again.")
        except IndexError as err:
            write(f"Off the board: {err}. Try again.")
        except (ValueError, FastTTTError) as err:
            write(f"Invalid input: {err}. Try again.")


class Thinking:
    """A status line while an engine chooses: nothing for ``THINKING_DELAY`` seconds, then
    ``X (engine) is thinking... 3.2 s, depth 9, 1,234,567 nodes`` redrawn in place four times a
    second until the move comes, then erased. ``progress()`` (optional) says how far the engine
    has got; it is called from the drawing thread while the engine runs (kernels release the
    GIL). Use as a context manager around the engine's ``choose``."""

    def __init__(self, stream: IO[str], label: str, progress: Callable[[], str] | None = None):
        self.stream, self.label, self.progress = stream, label, progress
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._draw, name="fastttt-thinking", daemon=True)
        self._drawn = False

    def __enter__(self) -> Thinking:
        self._start = time.perf_counter()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()
        if self._drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

    def line(self) -> str:
        text = f"{self.label} is thinking... {time.perf_counter() - self._start:.1f} s"
        how_far = self.progress() if self.progress is not None else ""
        return f"{text}, {how_far}" if how_far else text

    def _draw(self) -> None:
        if self._done.wait(THINKING_DELAY):
            return
        while True:
            self.stream.write(f"\r{self.line()}\x1b[K")
            self.stream.flush()
            self._drawn = True
            if self._done.wait(0.25):
                return


def _progress_of(player: Any) -> Callable[[], str] | None:
    """How far ``player`` has got while it chooses: its own ``progress()``, if it has one."""
    return player.progress if callable(getattr(player, "progress", None)) else None


def play_game(
    state: Any,
    players: Sequence[Any],
    *,
    rng: random.Random | None = None,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    hints: bool = False,
    ui: GameUI | None = None,
    show: bool = True,
    status: IO[str] | None = None,
) -> GameRecord:
    """Play from ``state`` with ``players[0]`` as the first player (X) and ``players[1]`` (O).

    Engines choose with ``rng`` (one :class:`random.Random` for the whole game: a seed replays
    it). Humans (players with ``is_human``) type their moves through ``read``; with ``hints``
    every legal move's perfect-play outcome is shown first. ``show=False`` draws nothing (engine
    matches). An engine that takes over ``THINKING_DELAY`` seconds gets a :class:`Thinking`
    line on ``status`` (default: standard output when it is a terminal and ``show``). Returns a
    :class:`GameRecord`; never raises on end of input, nor on Ctrl-C
    (``KeyboardInterrupt``) in a game shown or with a human player, including while an engine
    thinks; Ctrl-C in a silent engine match propagates, so the whole match stops.
    """
    rng = rng if rng is not None else random.Random()
    ui = ui if ui is not None else game_ui(game_of(state))
    if hints and not ui.supports_hints:
        raise InvalidArgumentError(f"hints are not available on {state.spec.name}")
    record = GameRecord(final=state)
    last = None
    if status is None and show and sys.stdout.isatty():
        status = sys.stdout
    try:
        while not state.is_over():
            side = state.to_move
            player = players[side]
            label = f"{SYMBOLS[side]} ({player.name})"
            human = getattr(player, "is_human", False)
            if show or human:
                write(ui.render(state, last))
            if human:
                if hints:
                    write("\n".join(hint_lines(state, ui)))
                move = _read_human_move(state, ui, read, write, label)
                if move is None:
                    record.reason = "quit"
                    write("Game abandoned.")
                    return record
            elif status is not None:
                with Thinking(status, label, _progress_of(player)):
                    move = player.choose(state, rng)
            else:
                move = player.choose(state, rng)
            if not human and show:
                write(f"{label} plays {ui.format(state, move)}")
            last = state.move_cell(move)
            state = state.play(move)
            record.moves.append(move)
            record.final = state
    except EOFError:
        record.reason = "eof"
        write("\nEnd of input: game abandoned.")
        return record
    except KeyboardInterrupt:
        if not (show or any(getattr(p, "is_human", False) for p in players)):
            raise  # an engine match: Ctrl-C stops the whole match, not one game
        record.reason = "interrupt"
        write("\nInterrupted: game abandoned.")
        return record
    record.winner = state.winner()
    record.reason = "draw" if record.winner is None else "win"
    if show:
        write(ui.render(state, last))
        if record.winner is None:
            write(f"Draw after {record.plies} plies.")
        else:
            who = players[record.winner].name
            write(f"{SYMBOLS[record.winner]} ({who}) wins in {record.plies} plies.")
    return record
