"""``fastttt solve ultimate``: games without tables (Ultimate tic-tac-toe), solved by their
engine's exact search from ``--moves`` within ``--max-nodes``, else an estimate."""

from __future__ import annotations

import re
from typing import Any

import click

from fastttt.cli.moves import format_line, parse_moves
from fastttt.cli.output import emit
from fastttt.cli.progress import Progress
from fastttt.errors import FastTTTError

SIDES = ("first", "second")
_OUTCOME = {"win": 1, "draw": 0, "loss": -1}


def solve_exact(game: Any, moves: str | None, as_json: bool, max_nodes: int) -> None:
    """The verdict of the position after ``moves`` (people's text) by
    :func:`fastttt.ultimate.solve_exact`: "win in N" / "draw" / "loss in N" for the side to
    move when the tree fits ``max_nodes`` nodes, else "estimate" and the engine's score."""
    from fastttt.search.ultimate.engine import Engine
    from fastttt.ultimate import solve_exact as engine_solve

    start, _ = parse_moves(game, "")
    state, played = parse_moves(game, moves)
    engine = Engine(tt_bits=22)

    def searched() -> str:
        return f"{engine.progress()} of {max_nodes:,}"

    try:
        with Progress(f"searching {game.name}", poll=searched):
            verdict, score, best, nodes = engine_solve(state, max_nodes, engine)
    except FastTTTError as err:
        raise click.UsageError(str(err)) from None
    word, _, depth = verdict.partition(" in ")
    value = word if word in _OUTCOME else "unknown"
    winner = None
    if value == "draw":
        winner = "draw"
    elif value != "unknown":
        winner = SIDES[state.to_move if value == "win" else 1 - state.to_move]
    best_moves = [game.format_move(state, best)] if best >= 0 else []
    out = {
        "game": game.name,
        "engine": "ultimate",
        "position": str(state),
        "to_move": SIDES[state.to_move],
        "value": value,
        "winner": winner,
        "depth": int(depth) if re.fullmatch(r"\d+", depth) else None,
        "moves": format_line(game, start, played),
        "verdict": verdict,
        "score": score,
        "best_moves": best_moves,
        "nodes": nodes,
    }
    if as_json:
        emit("solve", out)
        return
    rows = [
        ("game", f"{game.name}  ({game.describe()})"),
        ("moves", " ".join(out["moves"]) or "none (the empty board)"),
        ("position", f"{state}  ({out['to_move']} player to move)"),
        ("verdict", verdict),
        ("score", str(score)),
        ("best move", best_moves[0] if best_moves else "none (the game is over)"),
        ("nodes", f"{nodes:,}"),
    ]
    for label, text in rows:
        click.echo(f"{label:>12}  {text}")
