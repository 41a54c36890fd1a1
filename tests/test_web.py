"""The web explorer's JSON API through Starlette's TestClient: states, jobs, and a 4xx JSON
error (never a 500) for every kind of bad input."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

import warnings  # noqa: E402

from click.testing import CliRunner  # noqa: E402

with warnings.catch_warnings():  # Starlette >= 1.0 would rather use httpx2 than httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from fastttt.games.mnk.board import Position  # noqa: E402
from fastttt.play.players import move_outcomes  # noqa: E402
from fastttt.views.web.app import create_app  # noqa: E402


@pytest.fixture(scope="module")
def client():
    # Jobs have wall-clock limits of seconds: compile the search and Ultimate kernels first, so
    # that a cold Numba cache (a fresh clone, another test worker) does not spend them.
    from fastttt.play.ultimate_players import warmup as warm_ultimate
    from fastttt.search.alphabeta import warmup as warm_search

    warm_search()
    warm_ultimate()
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        yield c


# a Connect Four position at the shipped book's depth (8 plies), off its lines: its moves'
# values (9 plies) are searched but the kept move's (column 4), 0.2 to 1.6 CPU-s each
PAST_THE_BOOK = {"game": "connect4", "moves": "1 1 1 1 2 2 2 2"}
# A position no job settles in seconds, even on a searcher whose table earlier jobs filled (the
# pool keeps searchers and their tables): for tests that need a job still running.
UNSETTLED = {"game": "7x7k5", "moves": "4,4"}


def finish(client, response, seconds: float = 120) -> dict:
    assert response.status_code == 202, response.text
    job = response.json()
    deadline = time.monotonic() + seconds
    while job["state"] == "running":
        assert time.monotonic() < deadline, job
        time.sleep(0.05)
        job = client.get(f"/api/jobs/{job['id']}").json()
    return job


def test_page_and_static_files(client):
    page = client.get("/")
    assert page.status_code == 200 and "fastttt explorer" in page.text
    assert client.get("/static/app.js").status_code == 200
    games = client.get("/api/games").json()["games"]
    assert {"tictactoe", "connect4", "ultimate"} <= {g["name"] for g in games}


def test_favicon(client):
    """The icon the page links (an SVG) is also at /favicon.ico, which browsers ask for."""
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.text.startswith("<svg") and len(icon.content) < 1000
    assert 'rel="icon" href="/static/favicon.svg"' in client.get("/").text
    assert client.get("/static/favicon.svg").content == icon.content


def test_state_of_a_tictactoe_position(client):
    st = client.get("/api/state", params={"game": "tictactoe", "moves": "2,2 1,1"}).json()
    assert st["position"] == "O../.X./..."
    assert st["legal"] == [1, 2, 3, 5, 6, 7, 8] and st["to_move"] == "X"
    assert st["labels"]["1"] == "1,2" and st["moves"] == "2,2 1,1"
    assert st["move_list"] == [4, 0] and st["move_texts"] == ["2,2", "1,1"]
    assert st["svg"].startswith("<svg") and st["attractor"]["position"]["region"] == "draw"


def test_attractor_ranks_match_the_table(client):
    st = client.get(
        "/api/state", params={"game": "tictactoe", "moves": "2,2 1,2 1,1 3,3 3,1 2,1"}
    ).json()
    pos = Position.from_moves("tictactoe", [4, 1, 0, 8, 6, 3])
    for move, outcome in move_outcomes(pos).items():
        info = st["attractor"]["moves"][str(move)]
        if outcome.result > 0:  # X wins: the child is in X's attractor, rank = plies left
            assert (info["region"], info["rank"]) == ("X", outcome.plies - 1)
        elif outcome.result == 0:
            assert info["region"] == "draw"
    assert client.get("/api/state", params={"game": "connect4"}).json()["attractor"] is None


@pytest.mark.parametrize(
    "game, moves",
    [
        ("tictactoe", ""),
        ("tictactoe", "2,2"),
        ("tictactoe", "1,1 1,2"),
        ("tictactoe", "2,2 1,2 1,1 3,3 3,1 2,1"),
        ("3x4k3", ""),
        ("3x4k3", "2,2 2,3"),
    ],
)
def test_attractor_grid_says_what_the_board_says(client, game, moves):
    """One convention (issue 23): each move's attractor cell has the board's label and fill,
    the mover's value with plies counting the move (W5), and its rank is one less: W5 in the
    board is rank 4 of the mover's attractor, L5 rank 4 of the opponent's, D the draw region."""
    st = client.get("/api/state", params={"game": game, "moves": moves}).json()
    job = finish(client, client.post("/api/values", json={"game": game, "moves": moves}))
    values, grid = job["result"]["values"], st["attractor"]["moves"]
    assert sorted(values) == sorted(grid) == sorted(str(m) for m in st["legal"])
    board = _svg_labels(job["result"]["svg"])
    for move, value in values.items():
        cell = grid[move]
        assert cell["short"] == value["short"] == board[int(move)], (move, cell, value)
        assert cell["fill"] == value["fill"] and cell["ink"] == value["ink"]
        if value["result"] == 0:
            assert cell["region"] == "draw"
        else:
            mover, other = st["to_move"], "XO"[st["to_move"] == "X"]
            assert cell["region"] == (mover if value["result"] > 0 else other)
            assert cell["rank"] == value["plies"] - 1


def _svg_labels(picture: str) -> dict[int, str]:
    """move -> the label the board draws in its heat cell (the text after the cell)."""
    import xml.etree.ElementTree as ET

    ns = "{http://www.w3.org/2000/svg}"
    out, move = {}, None
    for element in ET.fromstring(picture):
        if element.tag == f"{ns}rect" and "heat" in element.get("class", ""):
            move = int(element.get("data-move"))
        elif element.tag == f"{ns}text" and element.get("class") == "label" and move is not None:
            out[move], move = element.text, None
    return out


@pytest.mark.parametrize(
    "game, moves, api, text",
    [
        ("connect4", "4,4,5", [3, 3, 4], "4 4 5"),
        ("connect4", "4455", [3, 3, 4, 4], "4 4 5 5"),
        ("connect4", "4 4,5", [3, 3, 4], "4 4 5"),
        ("tictactoe", " 2,2  1,3 ", [4, 2], "2,2 1,3"),
        ("ultimate", "5,5 5,1", [40, 36], "5,5 5,1"),
        ("ultimate", "5,5 1", [40, 36], "5,5 5,1"),
        ("ultimate", "r5c5", [40], "5,5"),
    ],
)
def test_moves_are_people_move_lists(client, game, moves, api, text):
    """The ``moves`` parameter reads what ``solve --moves`` reads (the README's "Move
    numbering"); the state sends them back in API form and as people's text."""
    st = client.get("/api/state", params={"game": game, "moves": moves}).json()
    assert st["move_list"] == api and st["moves"] == text, st.get("error")
    back = client.get("/api/state", params={"game": game, "moves": st["moves"]}).json()
    assert back["move_list"] == api


def test_values_job_equals_the_table(client):
    job = finish(client, client.post("/api/values", json={"game": "tictactoe", "moves": "1,1"}))
    assert job["state"] == "done", job
    result = job["result"]
    assert result["source"] == "table" and result["complete"]
    pos = Position.from_moves("tictactoe", [0])
    for move, outcome in move_outcomes(pos).items():
        value = result["values"][str(move)]
        assert (value["result"], value["plies"]) == (outcome.result, outcome.plies)
    assert 'class="legend"' not in result["svg"]  # the page has one legend for all


def test_values_job_on_connect4_keeps_its_budget(client):
    start = time.monotonic()
    job = finish(client, client.post("/api/values", json=PAST_THE_BOOK | {"seconds": 0.3}))
    assert job["state"] == "done" and time.monotonic() - start < 10
    assert job["result"]["source"] == "search"
    assert "moves valued" in job["progress"] or job["result"]["complete"] is False


def test_engine_players_move(client):
    job = finish(
        client,
        client.post(
            "/api/move", json={"game": "tictactoe", "moves": "1,1", "player": "perfect", "seed": 1}
        ),
    )
    assert job["state"] == "done" and job["result"]["move"] == 4
    assert job["result"]["label"] == "2,2"
    job = finish(
        client,
        client.post("/api/move", json={"game": "ultimate", "moves": "5,5", "player": "engine:100"}),
    )
    assert job["state"] == "done" and 36 <= job["result"]["move"] < 45
    assert job["result"]["label"].startswith("5,")


def test_perfect_without_a_table_says_when_it_fell_back(client):
    job = finish(
        client,
        client.post(
            "/api/move",
            json=PAST_THE_BOOK
            | {"moves": "1 1 1 1 2 2 2 2 3", "player": "perfect", "seconds": 0.1},
        ),
    )
    assert job["state"] == "done" and 0 <= job["result"]["move"] < 7
    assert "not proven" in job["result"]["note"]
    st = client.get("/api/state", params={"game": "connect4"}).json()
    assert st["players"][0] == "human" and any(p.startswith("alphabeta:") for p in st["players"])


def test_the_event_loop_answers_while_a_search_runs(client):
    running = client.post("/api/values", json=UNSETTLED | {"seconds": 2}).json()
    start = time.monotonic()
    assert client.get("/api/state", params={"game": "tictactoe"}).status_code == 200
    assert time.monotonic() - start < 1.5
    assert client.get(f"/api/jobs/{running['id']}").json()["state"] == "running"


@pytest.mark.parametrize(
    "path, params",
    [
        ("/api/state", {"game": "nope"}),
        ("/api/state", {"game": "tictactoe", "moves": "4,4"}),
        ("/api/state", {"game": "tictactoe", "moves": "2,2 2,2"}),
        ("/api/state", {"game": "tictactoe", "moves": "a"}),
        ("/api/state", {"game": "tictactoe", "moves": "4"}),
        ("/api/state", {"game": "tictactoe", "moves": "1" * 5000}),
        ("/api/state", {"game": "tictactoe", "moves": "1" * 7000}),
        ("/api/state", {"game": "tictactoe", "moves": "-1,1"}),
        ("/api/state", {"game": "connect4", "moves": "8"}),
        ("/api/state", {"game": "connect4", "moves": "0"}),
        ("/api/state", {"game": "connect4", "moves": "1111111"}),
        ("/api/state", {"game": "ultimate", "moves": "10,1"}),
        ("/api/state", {"game": "ultimate", "moves": "5,5 1,1"}),
        ("/api/state", {"game": "ultimate", "moves": "5"}),
        ("/api/state", {"game": "tictactoe", "position": "XXX/OO./..Z"}),
        ("/api/state", {"game": "tictactoe", "position": "XXX/XXX/OOO"}),
        ("/api/state", {"game": "tictactoe", "moves": "0", "position": "........."}),
        ("/api/state", {"game": "mnk"}),
        ("/api/state", {"game": "99999x99999"}),
        ("/api/state", {"game": "ultimate", "position": "junk"}),
    ],
)
def test_bad_state_requests_are_400(client, path, params):
    r = client.get(path, params=params)
    assert r.status_code == 400, r.text
    assert r.json()["error"]


@pytest.mark.parametrize(
    "path, body",
    [
        ("/api/values", b"{"),
        ("/api/values", b"[1, 2]"),
        ("/api/values", b'{"game":' * 100000),  # nesting past Python's recursion limit
        ("/api/move", b"[" * 100000),
        ("/api/values", b'{"game": "tictactoe", "seconds": NaN}'),
        ("/api/values", {"game": 7}),
        ("/api/values", {"game": "tictactoe", "moves": 4}),
        ("/api/values", {"game": "tictactoe", "seconds": "fast"}),
        ("/api/values", {"game": "tictactoe", "seconds": 1e9}),
        ("/api/values", {"game": "tictactoe", "seconds": True}),
        ("/api/move", {"game": "tictactoe"}),
        ("/api/move", {"game": "tictactoe", "player": "human"}),
        ("/api/move", {"game": "tictactoe", "player": "wizard"}),
        ("/api/move", {"game": "tictactoe", "player": "heuristic:100"}),
        ("/api/move", {"game": "tictactoe", "player": "heuristic:0"}),
        ("/api/move", {"game": "ultimate", "player": "mcts:99999999"}),
        ("/api/move", {"game": "ultimate", "player": "engine:n999999999999"}),
        ("/api/move", {"game": "tictactoe", "player": "perfect", "seed": "x"}),
        ("/api/move", {"game": "tictactoe", "moves": "1,1 2,1 1,2 2,2 1,3", "player": "perfect"}),
        ("/api/move", {"game": "tictactoe", "player": ["perfect"]}),
    ],
)
def test_bad_job_requests_are_400(client, path, body):
    if isinstance(body, bytes):
        r = client.post(path, content=body, headers={"Content-Type": "application/json"})
    else:
        r = client.post(path, json=body)
    assert r.status_code == 400, r.text
    assert r.json()["error"]


def test_unknown_routes_and_jobs_are_404_json(client):
    r = client.get("/api/jobs/values-999999")
    assert r.status_code == 404 and "no job" in r.json()["error"]
    assert client.get("/api/nothing").status_code == 404
    assert client.get("/api/values").status_code == 405


def test_serve_command_refuses_without_the_extra(monkeypatch):
    import sys

    from fastttt.cli.serve import WEB_EXTRA, serve

    monkeypatch.setitem(sys.modules, "uvicorn", None)
    result = CliRunner().invoke(serve, ["--port", "0"])
    assert result.exit_code == 1 and WEB_EXTRA in result.output


TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    game=st.one_of(st.sampled_from(["tictactoe", "connect4", "ultimate", "4x4k3g"]), TEXT),
    moves=st.one_of(
        st.none(),
        TEXT,
        st.lists(st.integers(0, 90), max_size=12).map(lambda ms: ",".join(map(str, ms))),
        st.lists(st.tuples(st.integers(0, 10), st.integers(0, 10)), max_size=12).map(
            lambda ms: " ".join(f"{r},{c}" for r, c in ms)
        ),
    ),
    position=st.one_of(st.none(), TEXT),
)
def test_fuzzed_states_are_200_or_400(client, game, moves, position):
    params = {
        k: v for k, v in (("game", game), ("moves", moves), ("position", position)) if v is not None
    }
    r = client.get("/api/state", params=params)
    assert r.status_code in (200, 400), (params, r.text)
    assert r.status_code == 200 or r.json()["error"]


def test_serve_through_the_fastttt_command():
    from fastttt import cli

    result = CliRunner().invoke(cli.main, ["serve", "--help"], standalone_mode=False)
    assert result.exit_code == 0 and "127.0.0.1" in result.output


def test_one_move_parser_for_the_command_line_and_the_page():
    """The page's ``moves`` and ``solve --moves`` are read by the same code
    (:mod:`fastttt.games.movetext`): whitespace inside a move is refused, not glued or skipped."""
    from fastttt.cli import moves as cli_moves
    from fastttt.games.movetext import MoveListError, parse_moves, split_moves
    from fastttt.games.registry import load_game

    c4, ttt = load_game("connect4"), load_game("tictactoe")
    assert parse_moves(c4, "4455")[1] == parse_moves(c4, "4, 4,5 ,5")[1] == [3, 3, 4, 4]
    assert parse_moves(ttt, "1,1 2,2")[1] == [0, 4]
    assert cli_moves.split_moves is split_moves and split_moves(c4, "45") == ["4", "5"]
    for spec, text in ((ttt, "1, 1"), (ttt, "1 1"), (c4, "8"), (ttt, "2,2 2,2")):
        with pytest.raises(MoveListError, match=r"^move \d+ \('"):
            parse_moves(spec, text)


# --- budgets, cancelling, caps -----------------------------------------------------------


def test_a_cancelled_values_job_stops_and_says_so(client):
    """DELETE /api/jobs/ID (the page's request when the position changes): the job is
    cancelled at once, and its search stops, freeing the searcher for the next job."""
    running = client.post("/api/values", json=UNSETTLED | {"seconds": 10}).json()
    r = client.delete(f"/api/jobs/{running['id']}")
    assert r.status_code == 200 and r.json()["state"] == "cancelled"
    assert client.get(f"/api/jobs/{running['id']}").json()["error"] == "cancelled"
    assert client.delete("/api/jobs/values-999999").status_code == 404
    done = finish(
        client, client.post("/api/values", json=UNSETTLED | {"seconds": 0.2}), seconds=60
    )  # 10 s of the cancelled search would not block it
    assert done["state"] == "done" and done["result"]["source"] == "search"
    assert done["result"]["complete"] is False


def test_a_player_over_the_time_limit_times_out_with_a_message():
    app = create_app(move_seconds=0.2)
    with TestClient(app, raise_server_exceptions=False) as c:
        job = finish(
            c,
            c.post(
                "/api/move", json={"game": "ultimate", "player": "engine:5000", "seconds": 0.05}
            ),
        )
        assert job["state"] == "timeout" and "engine:5000" in job["error"]
        assert "within 0.25 s" in job["error"] and "result" not in job


def test_a_timed_out_search_stops_and_frees_its_worker():
    """alphabeta:6 on an empty 8 x 8 k=5 board searches for about two minutes; stopped at its
    limit, the single worker takes the next job at once."""
    from fastttt.games.mnk.spec import mnk
    from fastttt.play.players import make_player
    from fastttt.views.web.jobs import Jobs

    pos = Position.empty(mnk(8, 8, 5))
    player = make_player("alphabeta:6", pos.spec)

    def slow(job):
        with job.stopping(player.stop):
            player.choose(pos, __import__("random").Random(0))
        return {"finished": True}

    jobs = Jobs(workers=1)
    try:
        first = jobs.submit("move", slow, 0.3, "player alphabeta:6")
        second = jobs.submit("values", lambda job: {"quick": True}, 60)
        deadline = time.monotonic() + 60
        while second.state == "running":
            assert time.monotonic() < deadline, (first.as_json(), second.as_json())
            time.sleep(0.05)
        assert first.state == "timeout" and "alphabeta:6" in first.error
        assert first.result is None and second.result == {"quick": True}
    finally:
        jobs.shutdown()


@pytest.mark.parametrize(
    "game, player, ok",
    [
        ("8x8k5", "alphabeta:8", False),
        ("8x8k5", "alphabeta:4", True),
        ("8x8k5", "heuristic:4", False),
        ("8x8k5", "heuristic:3", True),
        ("connect4", "alphabeta:8", True),
        ("ultimate", "mcts:100000", False),
        ("ultimate", "engine:n20000000", False),
        ("ultimate", "engine:10000", False),
    ],
)
def test_player_parameters_are_capped_per_game(client, game, player, ok):
    r = client.post("/api/move", json={"game": game, "player": player, "seconds": 0.05})
    if ok:
        job = finish(client, r)
        assert job["state"] == "done", job
    else:
        assert r.status_code == 400 and "at most" in r.json()["error"]


def test_offered_players_are_within_the_caps(client):
    for game in client.get("/api/games").json()["games"]:
        for player in game["players"]:
            if player != "human":
                r = client.post(
                    "/api/move",
                    json={"game": game["name"], "player": player, "moves": "", "seconds": 0.05},
                )
                assert r.status_code == 202, (game["name"], player, r.text)
                client.delete(f"/api/jobs/{r.json()['id']}")


@pytest.mark.parametrize(
    "game, moves, message",
    [
        ("connect4", "4444444", "move 7 ('4'): column 4 is full"),
        ("connect4", "4 4 10", "move 3 ('10'): column 10 is off the board (columns 1 to 7)"),
        ("4x4k4g", "1,2,1,2,1,2,1,2", "move 8 ('2'): the game is already over"),
        ("tictactoe", "2,2 2,2", "move 2 ('2,2'): row 2, column 2 is taken"),
        ("tictactoe", "0,1", "move 1 ('0,1'): row 0 is off the board (rows 1 to 3)"),
        ("ultimate", "5,5 1,5", "move 2 ('1,5'): 1,5: the move must be in board 5"),
    ],
)
def test_errors_name_moves_as_people_write_them(client, game, moves, message):
    """The explorer's messages are the command line's (``--moves: move 3 ...``), for the
    ``moves`` parameter."""
    r = client.get("/api/state", params={"game": game, "moves": moves})
    assert r.status_code == 400 and r.json()["error"] == f"moves: {message}", r.text
    r = client.post("/api/values", json={"game": game, "moves": moves})
    assert r.status_code == 400 and message in r.json()["error"], r.text


@pytest.mark.parametrize(
    "game, message",
    [
        ("nosuchgame", "unknown game 'nosuchgame'"),
        ("4x4k9", "4x4k9"),
        ("", "game"),
    ],
)
def test_a_bad_game_is_400_naming_it(client, game, message):
    """A bad ``game`` is answered 400 with the reason, the value named in it (never the
    tic-tac-toe default in its place)."""
    for r in (
        client.get("/api/state", params={"game": game}),
        client.post("/api/values", json={"game": game}),
    ):
        assert r.status_code == 400, r.text
        error = r.json()["error"]
        assert error.startswith("game") and message in error, error


def test_games_are_listed_under_the_name_the_state_gives(client):
    """Each listed game's ``spec`` is what /api/state calls it (the page selects the listed
    game whatever name the URL used: connect4, 6x7k4g, Connect4)."""
    games = client.get("/api/games").json()["games"]
    by_spec = {g["spec"]: g["name"] for g in games}
    assert len(by_spec) == len(games)
    for name in ("connect4", "6x7k4g", "Connect4", "4x5k4g", "3x3k3", "ultimate-open"):
        spec = client.get("/api/state", params={"game": name}).json()["game"]
        assert spec in by_spec, (name, spec)


def test_serve_on_port_0_names_the_port_it_listens_on():
    """``serve --port 0`` lets the system choose a free port and prints that port, not 0."""
    import json
    import re
    import subprocess
    import sys
    import urllib.request

    proc = subprocess.Popen(
        [sys.executable, "-m", "fastttt", "serve", "--port", "0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = proc.stderr.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", first)
        assert match and int(match.group(1)) > 0, first
        url = f"http://127.0.0.1:{match.group(1)}/api/games"
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(url, timeout=1) as reply:
                    games = json.load(reply)["games"]
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
                time.sleep(0.1)
        assert "tictactoe" in {g["name"] for g in games}
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_serve_on_a_busy_port_is_one_line_naming_it():
    import socket

    from fastttt.cli import main

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", str(port)])
    assert result.exit_code == 1
    assert (
        result.stderr.strip() == f"Error: cannot listen on 127.0.0.1:{port}: Address already in use"
    )
