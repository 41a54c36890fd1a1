"""The web explorer's Starlette app: the page, and a JSON API over games, positions and jobs.

Positions travel as a game name and a move list in the text form of :mod:`fastttt.movetext`
(``?game=tictactoe&moves=4,0,8``; gravity boards 1-based columns, Ultimate 0..80), or as
``position`` text. Moves in every response are in API form (cells, 0-based columns, 0..80).

``GET /api/games``                  suggested games and the players each offers
``GET /api/state?game=&moves=``     the position: status, legal moves, picture, attractor ranks
``POST /api/values``                job: the value of every legal move (JSON body: game, moves,
                                    seconds) and the heat-map picture
``POST /api/move``                  job: the move a named player picks (game, moves, player)
``GET /api/jobs/{id}``              a job's state, progress text and result
``DELETE /api/jobs/{id}``           cancel a job (the page does when the position changes)

Bad input gets a 4xx JSON ``{"error": "..."}``; searches run on worker threads
(:mod:`fastttt.web.jobs`), never on the event loop. Every job has a wall-clock limit: a values
job ``seconds`` + :data:`VALUES_GRACE`, a move job ``seconds`` + :data:`MOVE_SECONDS`; past
it the search is stopped (its stop word) and the job's state is ``timeout``, with a message.
Player parameters are capped (:func:`player_caps`) so that a move answers well within it.
People-facing messages number gravity columns from 1, as the page does.
"""

from __future__ import annotations

import contextlib
import math
import random
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from fastttt import svg
from fastttt.board import Position
from fastttt.errors import FastTTTError, IllegalMoveError
from fastttt.games import GameSpec
from fastttt.move_values import move_values
from fastttt.movetext import format_moves, load_state, parse_moves
from fastttt.registry import load_game
from fastttt.web.jobs import Halted, Job, Jobs

STATIC = Path(__file__).parent / "static"
SYMBOLS = ("X", "O")

GAMES = (
    ("tictactoe", "Tic-tac-toe (3x3, 3 in a row)"),
    ("3x4k3", "3x4, 3 in a row"),
    ("4x4k3", "4x4, 3 in a row"),
    ("4x4k4", "4x4, 4 in a row"),
    ("4x4k4g", "4x4 with gravity, 4 in a row"),
    ("connect4", "Connect Four (6x7, gravity)"),
    ("5x5k4", "5x5, 4 in a row (search)"),
    ("ultimate", "Ultimate tic-tac-toe"),
)
ULTIMATE_PLAYERS = ("human", "engine:500", "mcts:2000", "minimax:3", "random")
# The largest parameter an Ultimate player may carry here (engine: milliseconds, or nNODES
# nodes); each answers in about 2 s at most on this machine kind
ULTIMATE_CAPS = {"minimax": 5, "mcts": 50_000, "engine": 5_000, "enginen": 3_000_000}
# Depth caps of heuristic:P (plain minimax) and alphabeta:P keep the positions the search
# visits from the empty board under this (about a second or two: 8 x 8 k=5 took 123 s at
# alphabeta:6 and 5 s at heuristic:4)
CAP_NODES = 5_000_000
MAX_DEPTH = 8
VALUE_SECONDS = (0.05, 10.0)  # the range a job's budget (``seconds``) may take
DEFAULT_VALUE_SECONDS = 2.0
VALUES_GRACE = 5.0  # a values job's limit beyond its budget (building a table, the picture)
MOVE_SECONDS = 8.0  # a move job's limit beyond ``seconds``, which perfect play may spend
ATTRACTOR_MAX_CELLS = 12  # the attractor view is for small boards (handouts: 3x3)


class BadRequest(HTTPException):
    def __init__(self, message: str, status: int = 400):
        super().__init__(status_code=status, detail=message)


# --- positions -----------------------------------------------------------------------------

def _state(params: Any) -> tuple[Any, Any, list[int] | None]:
    """(spec, state, moves or None) from request parameters; BadRequest on bad text."""
    game = params.get("game", "tictactoe")
    moves_text, position = params.get("moves"), params.get("position")
    if position in ("", None):
        position = None
    elif moves_text:
        raise BadRequest("give moves or a position, not both")
    try:
        spec, state = load_state(game, None if position is not None else moves_text or "",
                                 position)
    except (FastTTTError, ValueError) as err:
        spec = _spec_or_none(game)
        if isinstance(err, IllegalMoveError) and getattr(spec, "gravity", False):
            raise BadRequest(_gravity_move_message(spec, moves_text)) from None
        raise BadRequest(str(err)) from None
    moves = None
    if position is None:
        moves = parse_moves(spec, moves_text or "")
    return spec, state, moves


def _spec_or_none(game: Any) -> Any:
    try:
        return load_game(game)
    except (FastTTTError, ValueError, TypeError):
        return None


def _gravity_move_message(spec: GameSpec, moves_text: str) -> str:
    """The first illegal move of a move list on a gravity board, its column counted from 1 (the
    board's own message counts from 0: ``column 3 is full`` for the 4th)."""
    moves = parse_moves(spec, moves_text)
    text = format_moves(spec, moves)
    pos = Position.empty(spec)
    for i, move in enumerate(moves):
        if pos.is_over():
            return f"moves {text!r}: move {i + 1} ({move + 1}): the game is already over"
        if move not in pos.legal_moves():
            return f"moves {text!r}: move {i + 1} ({move + 1}): column {move + 1} is full"
        pos = pos.play(move)
    return f"moves {text!r}: an illegal move"


def _status(state: Any) -> str:
    if state.is_over():
        w = state.winner()
        return "draw" if w is None else f"{SYMBOLS[w]} wins"
    return f"{SYMBOLS[state.to_move]} to move"


def state_json(spec: Any, state: Any, moves: list[int] | None) -> dict:
    """Everything the page shows of a position, but the move values (a job)."""
    last = moves[-1] if moves else None
    legal = state.legal_moves()
    out = {
        "game": spec.name,
        "describe": spec.describe(),
        "moves": format_moves(spec, moves) if moves is not None else None,
        "move_list": moves,
        "position": str(state),
        "ply": state.ply,
        "to_move": SYMBOLS[state.to_move],
        "over": state.is_over(),
        "winner": None if state.winner() is None else SYMBOLS[state.winner()],
        "status": _status(state),
        "legal": legal,
        "labels": {str(m): spec.format_move(state, m) for m in legal},
        "ultimate": not isinstance(spec, GameSpec),
        "gravity": isinstance(spec, GameSpec) and spec.gravity,
        "players": players_for(spec),
        "svg": svg.render(state, coordinates=True, last_move=last),
        "attractor": attractor_view(state),
    }
    return out


@lru_cache(maxsize=4)
def _attractor_ranks(spec: GameSpec) -> dict[int, tuple[int, int]]:
    """code -> (player, rank) over both players' attractors (the handouts' ``attracteur``)."""
    from fastttt.solver import solved

    solution = solved(spec)
    ranks: dict[int, tuple[int, int]] = {}
    for player in (0, 1):
        codes, rank = solution.attractor(player)
        ranks.update(zip(codes.tolist(), ((player, int(r)) for r in rank), strict=True))
    return ranks


def attractor_view(state: Any) -> dict | None:
    """For small boards: the position's and each move's region (the attractor of X, of O, or
    the draw region) and rank (plies to the win under the winner's fastest play)."""
    if not isinstance(state, Position) or state.spec.cells > ATTRACTOR_MAX_CELLS:
        return None
    ranks = _attractor_ranks(state.spec)

    def region(pos: Position) -> dict:
        player, rank = ranks.get(pos.code, (None, None))
        name = "draw" if player is None else SYMBOLS[player]
        return {"region": name, "rank": rank}

    spec = state.spec
    moves = {}
    for move in state.legal_moves():
        child = state.play(move)
        cell = state.move_cell(move)
        moves[str(move)] = {**region(child), "cell": cell}
    return {"position": region(state), "moves": moves, "rows": spec.rows, "cols": spec.cols,
            "cells": [state.cell_char(c) for c in range(spec.cells)]}


# --- players -------------------------------------------------------------------------------

def players_for(spec: Any) -> list[str]:
    """The players the page offers for ``spec``: people, then engines, strongest first."""
    if not isinstance(spec, GameSpec):
        return list(ULTIMATE_PLAYERS)
    from fastttt.players import bounded_depth, default_player

    names = ["human", default_player(spec), "perfect", f"alphabeta:{bounded_depth(spec)}",
             "heuristic:2", "random"]
    return list(dict.fromkeys(names))


def player_caps(spec: Any) -> dict[str, int]:
    """The largest parameter each parametrised player may take on ``spec`` (``enginen``: the
    node budget of ``engine:nNODES``): :data:`ULTIMATE_CAPS` on Ultimate; on m,n,k boards the
    deepest ``heuristic`` and ``alphabeta`` searches expected to visit at most
    :data:`CAP_NODES` positions from the empty board (branching ``b``: the empty cells, or the
    columns with gravity; plain minimax visits about ``b (b-1) ... (b-P+1)`` positions,
    alpha-beta about ``b ** (0.75 P)``)."""
    if not isinstance(spec, GameSpec):
        return dict(ULTIMATE_CAPS)
    b = spec.cols if spec.gravity else spec.cells
    minimax = alphabeta = 1
    for depth in range(2, MAX_DEPTH + 1):
        nodes = math.prod(b if spec.gravity else b - i for i in range(depth))
        if nodes <= CAP_NODES:
            minimax = depth
        if b ** (0.75 * depth) <= CAP_NODES:
            alphabeta = depth
    return {"heuristic": minimax, "minimax": minimax, "alphabeta": alphabeta}


def check_player(spec: Any, name: Any) -> str:
    """A player name the server will run: known to the game's ``make_player``, not
    ``human``, its parameter within :func:`player_caps`."""
    if not isinstance(name, str) or len(name) > 40:
        raise BadRequest(f"a player is a short name such as 'perfect', got {name!r}")
    key = name.strip().lower()
    if key == "human":
        raise BadRequest("'human' moves by clicking; ask for an engine player")
    match = re.fullmatch(r"([a-z]+):(n?)(\d+)", key)
    if match:
        cap = player_caps(spec).get(match.group(1) + match.group(2))
        if cap is not None and int(match.group(3)) > cap:
            what = f"{match.group(1)}:{match.group(2)}{cap}"
            raise BadRequest(f"player {name!r}: at most {what} on {spec.name} here "
                             "(a move must answer within seconds)")
    try:
        spec.make_player(key)
    except FastTTTError as err:
        raise BadRequest(str(err)) from None
    return key


def choose_move(
    spec: Any, state: Any, name: str, seconds: float, seed: int | None, job: Job
) -> tuple[int, str | None]:
    """(move, note): the move player ``name`` picks, its search stopped when ``job`` halts
    (players with a ``stop`` method). ``perfect`` on boards without a table searches every
    move exactly within ``seconds``; when that budget runs out it plays ``alphabeta:P``
    (:func:`fastttt.players.bounded_depth`) instead, and the note says so."""
    from fastttt.players import Outcome, best_outcome_moves, bounded_depth, uses_table

    rng = random.Random(seed)
    note = None
    if isinstance(state, Position) and name == "perfect" and not uses_table(spec):
        found = move_values(state, seconds, cancel=job.halt)
        if job.halt.is_set():
            raise Halted
        if found.complete:
            outcomes = {m: Outcome(v.result, v.plies) for m, v in found.values.items()
                        if v.result is not None and v.plies is not None}  # all, when complete
            return rng.choice(best_outcome_moves(outcomes)), None
        name = f"alphabeta:{bounded_depth(spec)}"
        note = f"perfect play was not proven within {seconds:g} s: {name} moved"
    player = spec.make_player(name)
    stop = getattr(player, "stop", None)
    with job.stopping(stop) if stop else contextlib.nullcontext():
        return int(player.choose(state, rng)), note


# --- handlers ------------------------------------------------------------------------------

async def index(request: Request) -> FileResponse:
    return FileResponse(STATIC / "index.html")


async def games(request: Request) -> JSONResponse:
    return JSONResponse({"games": [
        {"name": name, "label": label, "players": players_for(load_game(name))}
        for name, label in GAMES
    ]})


async def get_state(request: Request) -> JSONResponse:
    spec, state, moves = _state(request.query_params)
    return JSONResponse(await run_in_threadpool(state_json, spec, state, moves))


async def _body(request: Request) -> dict:
    try:
        body = await request.json()
    except ValueError:
        raise BadRequest("the request body must be a JSON object") from None
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    return body


def _seconds(body: dict) -> float:
    seconds = body.get("seconds", DEFAULT_VALUE_SECONDS)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise BadRequest(f"seconds must be a number, got {seconds!r}")
    lo, hi = VALUE_SECONDS
    if not lo <= seconds <= hi:
        raise BadRequest(f"seconds must be between {lo} and {hi}, got {seconds}")
    return float(seconds)


async def post_values(request: Request) -> JSONResponse:
    body = await _body(request)
    spec, state, moves = _state(body)
    seconds = _seconds(body)
    last = moves[-1] if moves else None

    def work(job) -> dict:
        def progress(done: int, total: int) -> None:
            job.progress = f"{done} of {total} moves valued"

        if isinstance(state, Position):
            from fastttt.players import table_ready, uses_table

            if uses_table(spec) and not table_ready(spec):
                job.progress = f"solving {spec.name} (once per server)"
        found = move_values(state, seconds, progress, cancel=job.halt)
        return {
            "position": str(state),
            "source": found.source,
            "complete": found.complete,
            "values": {str(m): v.as_json() for m, v in found.values.items()},
            "svg": svg.render(state, values=found, coordinates=True, last_move=last),
        }

    job = request.app.state.jobs.submit("values", work, seconds + VALUES_GRACE,
                                        "valuing the moves")
    return JSONResponse(job.as_json(), status_code=202)


async def post_move(request: Request) -> JSONResponse:
    body = await _body(request)
    spec, state, _moves = _state(body)
    name = check_player(spec, body.get("player"))
    if state.is_over():
        raise BadRequest("the game is over: no move to choose")
    seed = body.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise BadRequest(f"seed must be an integer, got {seed!r}")
    seconds = _seconds(body)

    def work(job) -> dict:
        job.progress = f"{name} is thinking"
        move, note = choose_move(spec, state, name, seconds, seed, job)
        return {"position": str(state), "move": move, "label": spec.format_move(state, move),
                "note": note}

    limit = seconds + request.app.state.move_seconds
    job = request.app.state.jobs.submit("move", work, limit, f"player {name}")
    return JSONResponse(job.as_json(), status_code=202)


async def get_job(request: Request) -> JSONResponse:
    jobs = request.app.state.jobs
    if request.method == "DELETE":
        job = jobs.cancel(request.path_params["job_id"])
    else:
        job = jobs.get(request.path_params["job_id"])
    if job is None:
        raise BadRequest(f"no job {request.path_params['job_id']!r}", 404)
    return JSONResponse(job.as_json())


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)  # Starlette's handler signature takes Exception
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code)


async def api_error(request: Request, exc: Exception) -> JSONResponse:
    return JSONResponse({"error": str(exc)}, status_code=400)


def create_app(move_seconds: float = MOVE_SECONDS) -> Starlette:
    """The explorer's app; its jobs run on a small thread pool closed at shutdown. A move job
    is stopped ``seconds`` + ``move_seconds`` after it starts."""
    jobs = Jobs()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        yield
        jobs.shutdown()

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/api/games", games),
            Route("/api/state", get_state),
            Route("/api/values", post_values, methods=["POST"]),
            Route("/api/move", post_move, methods=["POST"]),
            Route("/api/jobs/{job_id}", get_job, methods=["GET", "DELETE"]),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        exception_handlers={HTTPException: http_error, FastTTTError: api_error},
        lifespan=lifespan,
    )
    app.state.jobs = jobs
    app.state.move_seconds = move_seconds
    return app

