"""The web explorer's Starlette app: the page, and a JSON API over games, positions and jobs.

Positions travel as a game name and a move list as people write it (:mod:`fastttt.games.movetext`,
the README's "Move numbering": ``?game=tictactoe&moves=2,2+1,1``, ``?game=connect4&moves=4455``,
``?game=ultimate&moves=5,5+5,1``), or as ``position`` text. Responses give each move twice: in
API form (``move_list``, ``legal``, ``move``: cells, 0-based columns, 0..80), which the page
clicks and the pictures' ``data-move`` use, and as people's text (``moves``, ``move_texts``,
``labels``, ``label``), which the page shows and puts in its URLs.

``GET /favicon.ico``                the icon (SVG, as ``/static/favicon.svg``)
``GET /api/games``                  suggested games and the players each offers, and the
                                    colours of the page's legend (:func:`fastttt.views.svg.palette`)
``GET /api/state?game=&moves=``     the position: status, legal moves, picture, attractor ranks
``POST /api/values``                job: the value of every legal move (JSON body: game, moves,
                                    seconds), its cell (``short`` label, ``fill``) and the
                                    heat-map picture (no legend in it: the page has one)
``POST /api/move``                  job: the move a named player picks (game, moves, player)
``GET /api/jobs/{id}``              a job's state, progress text and result
``DELETE /api/jobs/{id}``           cancel a job (the page does when the position changes)

Bad input gets a 4xx JSON ``{"error": "..."}`` in people's numbering (``moves: move 3 ('10'):
column 10 is off the board (columns 1 to 7)``); searches run on worker threads
(:mod:`fastttt.views.web.jobs`), never on the event loop. Every job has a wall-clock limit: a values
job ``seconds`` + :data:`VALUES_GRACE`, a move job ``seconds`` + :data:`MOVE_SECONDS`; past
it the search is stopped (its stop word) and the job's state is ``timeout``, with a message.
Player parameters are capped (each game's :meth:`~fastttt.games.registry.Game.player_caps`) so that
a move answers well within it. Everything here goes through the Game protocol
(:mod:`fastttt.games.registry`): no game family is named.
"""

from __future__ import annotations

import contextlib
import random
import re
import string
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

from fastttt.errors import FastTTTError, GameSpecError
from fastttt.games.movetext import format_line, load_state, move_list_text
from fastttt.games.registry import game_of, load_game
from fastttt.play.move_values import ESTIMATE_UNIT, MoveValue, move_values
from fastttt.views import svg
from fastttt.views.web.jobs import Halted, Job, Jobs

STATIC = Path(__file__).parent / "static"
SYMBOLS = ("X", "O")

GAMES = (  # labels short enough for the header's select (about 20 characters)
    ("tictactoe", "Tic-tac-toe (3x3)"),
    ("3x4k3", "3x4, 3 in a row"),
    ("4x4k3", "4x4, 3 in a row"),
    ("4x4k4", "4x4, 4 in a row"),
    ("4x4k4g", "4x4 gravity, 4 in a row"),
    ("4x5k4g", "4x5 gravity, 4 in a row"),
    ("connect4", "Connect Four (6x7)"),
    ("5x5k4", "5x5, 4 in a row (search)"),
    ("ultimate", "Ultimate tic-tac-toe"),
    ("ultimate-open", "Ultimate (open rule)"),
)
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
    """(game, state, moves or None) from request parameters; BadRequest on bad text."""
    moves_text, position = params.get("moves"), params.get("position")
    if position in ("", None):
        position = None
    elif moves_text:
        raise BadRequest("give moves or a position, not both")
    try:
        return load_state(
            params.get("game", "tictactoe"),
            None if position is not None else moves_text or "",
            position,
        )
    except GameSpecError as err:  # names the value: "game: unknown game 'nosuch'; known: ..."
        game = params.get("game")
        raise BadRequest(
            f"game: {err}" if repr(game) in str(err) else f"game {game!r}: {err}"
        ) from None
    except (FastTTTError, ValueError) as err:
        raise BadRequest(str(err)) from None


def _status(state: Any) -> str:
    if state.is_over():
        w = state.winner()
        return "draw" if w is None else f"{SYMBOLS[w]} wins"
    return f"{SYMBOLS[state.to_move]} to move"


def state_json(spec: Any, state: Any, moves: list[int] | None) -> dict:
    """Everything the page shows of a position, but the move values (a job). Moves in API
    form (``move_list``, ``legal``: what the picture's ``data-move`` holds) and in people's
    text (``moves``, ``move_texts``, ``labels``: what the page shows and puts in its URL)."""
    last = moves[-1] if moves else None
    legal = state.legal_moves()
    start = spec.initial()
    out = {
        "game": spec.name,
        "describe": spec.describe(),
        "moves": move_list_text(spec, start, moves) if moves is not None else None,
        "move_texts": format_line(spec, start, moves) if moves is not None else None,
        "move_list": moves,
        "position": str(state),
        "ply": state.ply,
        "to_move": SYMBOLS[state.to_move],
        "over": state.is_over(),
        "winner": None if state.winner() is None else SYMBOLS[state.winner()],
        "status": _status(state),
        "legal": legal,
        "labels": {str(m): spec.format_move(state, m) for m in legal},
        "gravity": spec.gravity,
        "players": spec.suggested_players(),
        "svg": svg.render(state, coordinates=True, last_move=last),
        "attractor": attractor_view(state),
    }
    return out


@lru_cache(maxsize=4)
def _attractor_ranks(spec: Any) -> dict[int, tuple[int, int]]:
    """code -> (player, rank) over both players' attractors (the handouts' ``attracteur``)."""
    from fastttt.tables.cache import solved

    solution = solved(spec)
    ranks: dict[int, tuple[int, int]] = {}
    for player in (0, 1):
        codes, rank = solution.attractor(player)
        ranks.update(zip(codes.tolist(), ((player, int(r)) for r in rank), strict=True))
    return ranks


def cell_view(state: Any, value: MoveValue) -> dict:
    """How the board draws a move's ``value`` (:mod:`fastttt.views.svg`): its label (``W5``,
    ``D``, ``~+5``), fill and text colour; the attractor grid shows the same."""
    fill = svg.value_color(value, svg.value_horizon(state))
    return {"short": svg.value_label(value), "fill": fill, "ink": svg.text_color(fill)}


def attractor_view(state: Any) -> dict | None:
    """For small boards with solved tables (games that offer hints, of at most
    :data:`ATTRACTOR_MAX_CELLS` cells): the position's and each move's region (the attractor of
    X, of O, or the draw region) and rank (plies to the win under the winner's fastest play).

    One convention with the board (the page's legend): each move is also given as the board
    labels it, from the mover's side, plies to the end counting the move itself
    (:func:`cell_view`): a move into the mover's attractor at rank r is ``W(r+1)``, into the
    opponent's ``L(r+1)``, into the draw region ``D``."""
    spec = game_of(state)
    if not spec.supports_hints or spec.cells > ATTRACTOR_MAX_CELLS:
        return None
    ranks = _attractor_ranks(spec)

    def region(pos: Any) -> dict:
        player, rank = ranks.get(pos.code, (None, None))
        name = "draw" if player is None else SYMBOLS[player]
        return {"region": name, "rank": rank}

    moves = {}
    for move in state.legal_moves():
        child = region(state.play(move))
        if child["region"] == "draw":
            value = MoveValue(0)
        else:
            mover_wins = child["region"] == SYMBOLS[state.to_move]
            value = MoveValue(1 if mover_wins else -1, child["rank"] + 1)
        moves[str(move)] = {**child, **cell_view(state, value), "cell": state.move_cell(move)}
    return {
        "position": region(state),
        "moves": moves,
        "rows": spec.rows,
        "cols": spec.cols,
        "cells": [state.cell_char(c) for c in range(spec.cells)],
    }


# --- players -------------------------------------------------------------------------------


def _over_cap(spec: Any, key: str) -> str | None:
    """``kind:NUMBER`` at its cap when player ``key``'s parameter is over the game's
    :meth:`~fastttt.games.registry.Game.player_caps` (``engine:n5000`` is read against
    ``engine:nNODES``: the lowercase letters of the pattern, then the number); else None."""
    kind, _, param = key.partition(":")
    for pattern, cap in spec.player_caps().items():
        pattern_kind, _, placeholder = pattern.partition(":")
        prefix = placeholder.rstrip(string.ascii_uppercase)  # "nNODES" -> "n", "P" -> ""
        number = re.fullmatch(re.escape(prefix) + r"(\d+)", param)
        if pattern_kind == kind and number and int(number.group(1)) > cap:
            return f"{kind}:{prefix}{cap}"
    return None


def check_player(spec: Any, name: Any) -> str:
    """A player name the server will run: known to the game's ``make_player``, not
    ``human``, its parameter within the game's ``player_caps``."""
    if not isinstance(name, str) or len(name) > 40:
        raise BadRequest(f"a player is a short name such as 'perfect', got {name!r}")
    key = name.strip().lower()
    if key == "human":
        raise BadRequest("'human' moves by clicking; ask for an engine player")
    most = _over_cap(spec, key)
    if most is not None:
        raise BadRequest(
            f"player {name!r}: at most {most} on {spec.name} here "
            "(a move must answer within seconds)"
        )
    try:
        spec.make_player(key)
    except FastTTTError as err:
        raise BadRequest(str(err)) from None
    return key


def choose_move(
    spec: Any, state: Any, name: str, seconds: float, seed: int | None, job: Job
) -> tuple[int, str | None]:
    """(move, note): the move player ``name`` picks, its search stopped when ``job`` halts
    (players with a ``stop`` method). ``perfect`` plays a best move of
    :func:`~fastttt.play.move_values.move_values` (the solved table, or exact search within
    ``seconds``); when the search does not value every move in time, the strongest other engine
    the game suggests (:func:`fallback_player`) moves instead, and the note says so."""
    from fastttt.play.players import Outcome, best_outcome_moves

    rng = random.Random(seed)
    note = None
    if name == "perfect":
        found = move_values(state, seconds, cancel=job.halt)
        if job.halt.is_set():
            raise Halted
        if found.complete:
            outcomes = {
                m: Outcome(v.result, v.plies)
                for m, v in found.values.items()
                if v.result is not None and v.plies is not None
            }  # all, when complete
            return rng.choice(best_outcome_moves(outcomes)), None
        name = fallback_player(spec)
        note = f"perfect play was not proven within {seconds:g} s: {name} moved"
    player = spec.make_player(name)
    stop = getattr(player, "stop", None)
    with job.stopping(stop) if stop else contextlib.nullcontext():
        return int(player.choose(state, rng)), note


def fallback_player(spec: Any) -> str:
    """The strongest engine the game suggests besides perfect play (``alphabeta:P`` at
    :func:`~fastttt.play.players.bounded_depth` on m,n,k boards of up to 64 cells)."""
    engines = [p for p in spec.suggested_players() if p not in ("human", "perfect")]
    return engines[0] if engines else "random"


# --- handlers ------------------------------------------------------------------------------


async def index(request: Request) -> FileResponse:
    return FileResponse(STATIC / "index.html")


async def favicon(request: Request) -> FileResponse:
    """The page's icon (an SVG: ``<link rel=icon>``), also at ``/favicon.ico``, which browsers
    and tools ask for by themselves."""
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


async def games(request: Request) -> JSONResponse:
    return JSONResponse(
        {
            "palette": svg.palette(),  # the page's one legend: stones and values
            "estimate_unit": ESTIMATE_UNIT,
            "games": [
                {
                    "name": name,
                    "label": label,
                    "spec": load_game(name).name,  # what /api/state's "game" says of it
                    "players": load_game(name).suggested_players(),
                }
                for name, label in GAMES
            ],
        }
    )


async def get_state(request: Request) -> JSONResponse:
    spec, state, moves = _state(request.query_params)
    return JSONResponse(await run_in_threadpool(state_json, spec, state, moves))


async def _body(request: Request) -> dict:
    try:
        body = await request.json()
    except (ValueError, RecursionError):  # RecursionError: nesting deeper than Python's stack
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
        def progress(text: str) -> None:
            job.progress = text

        found = move_values(state, seconds, progress, cancel=job.halt)
        return {
            "position": str(state),
            "source": found.source,
            "complete": found.complete,
            "values": {
                str(m): {**v.as_json(), **cell_view(state, v)} for m, v in found.values.items()
            },
            "svg": svg.render(state, values=found, coordinates=True, last_move=last, legend=False),
        }

    job = request.app.state.jobs.submit("values", work, seconds + VALUES_GRACE, "valuing the moves")
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
        return {
            "position": str(state),
            "move": move,
            "label": spec.format_move(state, move),
            "note": note,
        }

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
            Route("/favicon.ico", favicon),
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
