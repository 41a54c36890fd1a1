"""``fastttt play`` and ``fastttt match``: people and engines on every registered board.

Players are named (``human``, ``random``, ``heuristic:P``, ``alphabeta:P``, ``perfect``; see
:mod:`fastttt.play.players`). A person types ``row,col`` counted from 1, or a column alone on
gravity boards. Bad options end with a one-line error and exit code 2. A player left out is the
strongest that answers within seconds (:func:`fastttt.play.players.default_player`); ``perfect`` on
a board where it is a long exact search is played as asked, after a one-line warning.
"""

from __future__ import annotations

import random
import sys
from typing import Any

import click

from fastttt.errors import FastTTTError

_GAME_HELP = (
    "Game name: tictactoe, connect4, ultimate, RxC[kK][g] such as 4x4k3 or 4x4k4g "
    "(rows x cols, k in a row, g = gravity)."
)


def _load(game: str, rows: int | None, cols: int | None, k: int | None, gravity: bool | None):
    from fastttt.games.registry import load_game

    try:
        return load_game(game, rows=rows, cols=cols, k=k, gravity=gravity)
    except FastTTTError as err:
        raise click.BadParameter(str(err), param_hint="GAME") from None


def _players(game: Any, x: str, o: str) -> tuple[Any, Any]:
    out = []
    for flag, name in (("--x", x), ("--o", o)):
        try:
            out.append(game.make_player(name))
        except FastTTTError as err:
            raise click.BadParameter(str(err), param_hint=flag) from None
    return out[0], out[1]


def _prepare_table(spec: Any, needed: bool) -> None:
    """Solve the table up front (with a note on stderr) when perfect play or hints need it
    (m,n,k boards: the only ones with ``perfect`` and hints); warn, on stderr, when they are a
    long exact search instead."""
    from fastttt.play.players import perfect_play_cost
    from fastttt.tables.cache import solution_for, uses_table

    if not needed:
        return
    warning = perfect_play_cost(spec)
    if warning:
        click.echo(f"Warning: {warning}.", err=True)
    elif uses_table(spec):
        click.echo(f"Solving {spec.name} for perfect play...", err=True)
        try:
            solution_for(spec)
        except FastTTTError as err:
            raise click.ClickException(str(err)) from None


def _game_options(f):
    f = click.option("--gravity/--no-gravity", default=None, help="Override gravity.")(f)
    f = click.option("-k", type=click.IntRange(min=1), default=None, help="Override k.")(f)
    f = click.option("--cols", type=click.IntRange(min=1), default=None, help="Override cols.")(f)
    f = click.option("--rows", type=click.IntRange(min=1), default=None, help="Override rows.")(f)
    return click.argument("game", default="tictactoe")(f)


@click.command()
@_game_options
@click.option("--x", "x_name", default="human", show_default=True, help="First player (X).")
@click.option(
    "--o",
    "o_name",
    default=None,
    help="Second player (O) [default: the strongest that answers within seconds: perfect on "
    "small boards, alphabeta:P on bigger ones, engine on ultimate].",
)
@click.option("--seed", type=int, default=None, help="Seed for the engines' random choices.")
@click.option("--hints", is_flag=True, help="Show every move's perfect-play outcome to humans.")
@click.option("--color/--no-color", default=None, help="Colour the board (default: on a TTY).")
def play(game, rows, cols, k, gravity, x_name, o_name, seed, hints, color):
    """Play GAME: humans type moves counted from 1 (row,col; a column alone with gravity;
    board,cell on Ultimate).

    Players: human, random, heuristic:P, alphabeta:P, perfect on m,n,k boards; human, random,
    engine, engine:MS, engine:nNODES, mcts:N, minimax:P on Ultimate.
    """
    from fastttt.play.loop import game_ui, play_game
    from fastttt.play.players import perfect_play_reach

    spec = _load(game, rows, cols, k, gravity)
    px, po = _players(spec, x_name, spec.default_player() if o_name is None else o_name)
    if hints and not spec.supports_hints:
        raise click.BadParameter(f"hints are not available on {spec.name}", param_hint="--hints")
    if seed is not None and all(getattr(p, "is_human", False) for p in (px, po)):
        raise click.BadParameter(
            "seeds the engines' choices, and both players are human", param_hint="--seed"
        )
    unreachable = hints and perfect_play_reach(spec, "hints", "need")
    if unreachable:
        raise click.BadParameter(unreachable, param_hint="--hints")
    if hints and not any(getattr(p, "is_human", False) for p in (px, po)):
        raise click.BadParameter(
            "hints are shown to human players, and neither --x nor --o is human",
            param_hint="--hints",
        )
    _prepare_table(spec, hints or "perfect" in (px.name, po.name))
    if color is None:
        color = sys.stdout.isatty()
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    click.echo(f"{spec.name}: {spec.describe()}. X = {px.name}, O = {po.name}, seed {seed}.")
    try:
        record = play_game(
            spec.initial(),
            (px, po),
            rng=random.Random(seed),
            read=input,
            write=click.echo,
            hints=hints,
            ui=game_ui(spec, color=color),
        )
    except FastTTTError as err:
        raise click.ClickException(str(err)) from None
    if record.reason == "interrupt":  # the game said "Interrupted: game abandoned."
        from fastttt.cli import INTERRUPTED_EXIT

        sys.exit(INTERRUPTED_EXIT)


@click.command()
@_game_options
@click.option(
    "--x",
    "x_name",
    default=None,
    help="Player A (X) [default: the strongest that answers within seconds, as for play --o].",
)
@click.option("--o", "o_name", default="random", show_default=True, help="Player B (O).")
@click.option("--games", "-n", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--seed", type=int, default=None, help="Seed: replays the whole match.")
@click.option("--swap", is_flag=True, help="Alternate who starts (A is X in even games).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def match(game, rows, cols, k, gravity, x_name, o_name, games, seed, swap, as_json):
    """Engine against engine: GAMES games, then wins/draws/losses and the mean game length."""
    from fastttt.cli.progress import Progress
    from fastttt.play.match import run_match

    if swap and games < 2:
        raise click.BadParameter(
            "alternates who starts: give --games 2 or more", param_hint="--swap"
        )
    spec = _load(game, rows, cols, k, gravity)
    x_name = spec.default_player() if x_name is None else x_name
    px, po = _players(spec, x_name, o_name)
    for flag, p in (("--x", px), ("--o", po)):
        if getattr(p, "is_human", False):
            raise click.BadParameter("a match is between engines, not 'human'", param_hint=flag)
    _prepare_table(spec, "perfect" in (px.name, po.name))
    try:
        with Progress(f"{px.name} vs {po.name}", total=games, unit="games") as shown:
            result = run_match(
                spec, x_name, o_name, games, seed=seed, swap=swap, progress=shown.update
            )
    except FastTTTError as err:
        raise click.ClickException(str(err)) from None
    if as_json:
        from fastttt.cli.output import emit

        emit("match", result.to_dict(), indent=2)
        return
    click.echo(f"{result.game}: {result.games} games, seed {result.seed}")
    click.echo(result.table())
