"""The game loop: players take turns until a line, a full board, or the person stops.

The loop is pure: it reads through ``read(prompt) -> str`` and writes through ``write(text)``,
so tests drive it with scripted input. Human moves are typed ``row,col`` counted from 1 (a
column alone on gravity boards, see :mod:`fastttt.render`); a malformed move, coordinates off
the board and a taken cell (or full column) each get their own one-line message and a new
prompt. ``q`` quits; end of input (``EOFError``) or Ctrl-C (``KeyboardInterrupt``) end the
game cleanly with a message.

The same loop plays Ultimate tic-tac-toe: any state object with ``legal_moves()``, ``play(m)``,
``is_over()``, ``winner()`` (0 first player, 1 second, None), ``to_move`` and ``ply`` works,
given a :class:`GameUI` that draws it and parses typed moves (:func:`game_ui`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from fastttt.board import SYMBOLS, Position
from fastttt.errors import FastTTTError, IllegalMoveError
from fastttt.games import GameSpec

QUIT_WORDS = ("q", "quit", "exit")


@dataclass(frozen=True)
class GameUI:
    """How a game is drawn and typed: ``render(state, last_move)``, ``parse(text, state)``,
    ``format(state, move)`` (``state`` before the move), and the help shown at the prompt."""

    render: Callable[[Any, Any], str]
    parse: Callable[[str, Any], int]
    format: Callable[[Any, int], str]
    move_help: str
    supports_hints: bool


def game_ui(game: Any, *, color: bool = False) -> GameUI:
    """The :class:`GameUI` of an m,n,k ``GameSpec``, or of Ultimate tic-tac-toe."""
    if isinstance(game, GameSpec):
        from fastttt import render

        def draw(pos: Position, last: Any) -> str:
            return render.render(pos, last, color=color)

        help_ = "column" if game.gravity else "row,col"
        return GameUI(draw, render.parse_move, render.format_move, help_, True)
    from fastttt import ultimate

    def draw_u(state: Any, last: Any) -> str:
        return ultimate.render(state, last_move=last, color=color)

    fmt = getattr(ultimate, "format_move", lambda state, move: str(move))
    help_u = getattr(ultimate, "MOVE_HELP", "board row,col then cell row,col")
    return GameUI(draw_u, ultimate.parse_move, fmt, help_u, False)


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


def _last_cell(before: Any, move: int) -> Any:
    """What the renderer highlights: the cell of an m,n,k move, the move itself otherwise."""
    return before.move_cell(move) if isinstance(before, Position) else move


def hint_lines(pos: Position, ui: GameUI) -> list[str]:
    """One line per legal move with its perfect-play outcome (best moves marked ``*``)."""
    from fastttt.players import best_outcome_moves, move_outcomes

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
            return ui.parse(text, state)
        except IllegalMoveError as err:
            write(f"Illegal move: {err}. Try again.")
        except IndexError as err:
            write(f"Off the board: {err}. Try again.")
        except (ValueError, FastTTTError) as err:
            write(f"Invalid input: {err}. Try again.")


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
) -> GameRecord:
    """Play from ``state`` with ``players[0]`` as the first player (X) and ``players[1]`` (O).

    Engines choose with ``rng`` (one :class:`random.Random` for the whole game: a seed replays
    it). Humans (players with ``is_human``) type their moves through ``read``; with ``hints``
    every legal move's perfect-play outcome is shown first. ``show=False`` draws nothing (engine
    matches). Returns a :class:`GameRecord`; never raises on end of input or Ctrl-C.
    """
    rng = rng if rng is not None else random.Random()
    game = state.spec if isinstance(state, Position) else getattr(state, "spec", None)
    ui = ui if ui is not None else game_ui(game if isinstance(game, GameSpec) else None)
    if hints and not ui.supports_hints:
        raise ValueError("hints are only available on m,n,k boards")
    record = GameRecord(final=state)
    last = None
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
            else:
                move = player.choose(state, rng)
                if show:
                    write(f"{label} plays {ui.format(state, move)}")
            last = _last_cell(state, move)
            state = state.play(move)
            record.moves.append(move)
            record.final = state
    except EOFError:
        record.reason = "eof"
        write("\nEnd of input: game abandoned.")
        return record
    except KeyboardInterrupt:
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
