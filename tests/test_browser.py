"""End-to-end: ``fastttt serve`` in a subprocess, driven by Debian's Chromium through Playwright.

Run alone with ``pytest -m browser``; skipped (with the reason) when Chromium or Playwright
is missing. Screenshots are saved under ``tmp_path`` (and in the folder ``$FASTTTT_SCREENSHOTS``
when that is set, to look at by hand).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from fastttt.games.mnk.board import Position
from fastttt.play.move_values import MoveValue
from fastttt.play.players import move_outcomes
from fastttt.views.svg import value_color

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 90_000  # a cold Numba cache compiles the kernels on first use (seconds)

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "fastttt", "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(base + "/api/games", timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"serve did not start: {proc.stderr.read()!r}") from None
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    yield pg
    context.close()


def wait_idle(page, ply: int) -> None:
    page.wait_for_selector(f'body[data-idle="1"][data-ply="{ply}"]')


def click_move(page, move: int) -> None:
    """Click a move's topmost target (its heat-map cell when values are shown)."""
    page.locator(f'#board svg [data-move="{move}"]').last.click()


def heat_colours(page) -> dict[int, str]:
    cells = page.locator("#board rect.heat")
    return {
        int(cells.nth(i).get_attribute("data-move")): cells.nth(i).get_attribute("fill")
        for i in range(cells.count())
    }


def expected_colours(pos: Position) -> dict[int, str]:
    horizon = pos.spec.cells - pos.ply
    return {
        m: value_color(MoveValue(o.result, o.plies), horizon) for m, o in move_outcomes(pos).items()
    }


def test_tictactoe_game_to_the_end_with_table_colours(server, page, tmp_path):
    page.goto(f"{server}/?game=tictactoe")
    wait_idle(page, 0)
    moves = [4, 1, 0, 8, 6, 3, 2]  # X wins on the 2-4-6 diagonal
    pos = Position.empty("tictactoe")
    for ply, move in enumerate(moves):
        assert heat_colours(page) == expected_colours(pos)
        click_move(page, move)
        pos = pos.play(move)
        wait_idle(page, ply + 1)
    assert page.text_content("#status") == "X wins"
    assert page.locator("#board rect.cell.win").count() == 3
    assert page.locator("#board .stone").count() == len(moves)
    assert page.locator("#board rect.heat").count() == 0

    screenshot(page, tmp_path, "tictactoe-won.png")
    page.click("#undo")
    wait_idle(page, 6)
    assert page.text_content("#status") == "X to move"
    assert heat_colours(page) == expected_colours(Position.from_moves("tictactoe", moves[:6]))

    shared = page.url  # people's move list, as `fastttt solve --moves` reads it
    assert "moves=2,2+1,2+1,1+3,3+3,1+2,1&" in shared, shared
    other = page.context.new_page()
    other.goto(shared)
    wait_idle(other, 6)
    assert other.text_content("#moves") == "2,2 1,2 1,1 3,3 3,1 2,1"
    wins_now = other.locator('#attractor div[data-region="X"][data-rank="0"]')  # X wins at once
    assert wins_now.count() >= 1 and wins_now.first.text_content() == "W1"
    other.close()

    page.select_option("#player-o", "perfect")
    page.click("#new")
    wait_idle(page, 0)
    click_move(page, 0)
    wait_idle(page, 2)  # perfect O answered by itself
    assert page.locator("#board .stone.o").count() == 1


def test_connect4_and_ultimate_two_moves_each(server, page, tmp_path):
    page.goto(f"{server}/?game=connect4&seconds=0.2")
    wait_idle(page, 0)
    assert page.input_value("#seconds") == "0.2"
    click_move(page, 3)
    wait_idle(page, 1)
    click_move(page, 3)
    wait_idle(page, 2)
    assert page.text_content("#moves") == "4 4"
    assert page.locator("#board .stone").count() == 2
    assert "seconds=0.2" in page.url and "moves=4+4&" in page.url
    heat = heat_colours(page)  # within the shipped book: every move exact at once
    assert sorted(heat) == list(range(7)) and "opening book" in page.text_content("#source")
    assert page.locator("#board rect.heat.unknown").count() == 0
    exact = page.locator("#board rect.heat:not(.unknown)")
    pos = Position.from_moves("connect4", [3, 3])
    for i in range(exact.count()):  # a move valued in time has its exact colour
        cell = exact.nth(i)
        value = MoveValue(
            int(cell.get_attribute("data-result")), int(cell.get_attribute("data-plies"))
        )
        assert cell.get_attribute("fill") == value_color(value, pos.spec.cells - pos.ply)

    page.goto(f"{server}/?game=connect4&seconds=0.2&values=0&moves=4455")  # Connect Four notation
    wait_idle(page, 4)
    assert page.text_content("#moves") == "4 4 5 5"

    # 26 moves in, exact search values every move at once: the colours of fastttt's search
    deep = "2,5,5,2,3,5,4,6,5,1,5,1,7,4,3,5,2,2,7,4,6,6,4,4,7,2"
    page.goto(f"{server}/?game=connect4&seconds=5&moves={deep}")
    wait_idle(page, 26)
    pos = Position.from_moves("connect4", [int(c) - 1 for c in deep.split(",")])
    colours = heat_colours(page)
    assert colours == expected_colours(pos) and len(set(colours.values())) == 3
    assert "Values: exact search." in page.text_content("#source")
    screenshot(page, tmp_path, "connect4.png")

    # a gravity board with a table: every colour checked against it
    pos = Position.empty("4x5k4g")
    expected_colours(pos)  # the layered kernels compiled here, into the cache the server reads
    page.goto(f"{server}/?game=4x5k4g&seconds=10")
    wait_idle(page, 0)
    for ply, column in enumerate([0, 3]):
        assert heat_colours(page) == expected_colours(pos)
        click_move(page, column)
        pos = pos.play(column)
        wait_idle(page, ply + 1)
    assert page.text_content("#moves") == "1 4"
    colours = heat_colours(page)
    assert colours == expected_colours(pos) and len(set(colours.values())) == 3
    screenshot(page, tmp_path, "gravity-4x5k4.png")

    page.goto(f"{server}/?game=ultimate")
    wait_idle(page, 0)
    click_move(page, 40)
    wait_idle(page, 1)
    assert page.locator("#board rect.forced").count() == 1
    click_move(page, 36)
    wait_idle(page, 2)
    assert page.text_content("#moves") == "5,5 5,1" and "moves=5,5+5,1&" in page.url
    heat = page.locator("#board rect.heat")
    assert heat.count() == 9  # O sent X to the empty board 0
    estimate = page.locator("#legend-estimate")  # the unit of ~+5, said once for the page
    assert estimate.is_visible() and "in points for the side to move" in estimate.inner_text()
    assert page.locator("#board svg .legend").count() == 0
    assert "points" in page.locator("#board rect.heat.estimate title").first.text_content()
    screenshot(page, tmp_path, "ultimate.png")


def test_a_bad_url_shows_the_error_and_the_start_position(server, page, tmp_path):
    page.goto(f"{server}/?game=tictactoe&moves=2,2%202,2")
    wait_idle(page, 0)
    error = page.text_content("#error")
    assert (
        error
        == "moves: move 2 ('2,2'): row 2, column 2 is taken (showing the start position instead)"
    )
    assert page.text_content("#status") == "X to move"
    assert len(heat_colours(page)) == 9
    for side in ("x", "o"):
        assert "perfect" in page.locator(f"#player-{side} option").all_text_contents()
    screenshot(page, tmp_path, "bad-url.png")
    page.goto(f"{server}/?game=connect4&moves=4444444&values=0")
    wait_idle(page, 0)
    assert "move 7 ('4'): column 4 is full" in page.text_content("#error")
    page.goto(f"{server}/?game=nosuchgame")
    wait_idle(page, 0)
    error = page.text_content("#error")
    assert error.startswith("game: unknown game 'nosuchgame'; known: "), error
    assert (
        error.endswith("(showing tic-tac-toe instead)") and page.input_value("#game") == "tictactoe"
    )
    assert page.locator("#board rect.cell").count() == 9
    page.goto(f"{server}/?game=4x4k9&values=0")
    wait_idle(page, 0)
    error = page.text_content("#error")
    assert error.startswith("game '4x4k9': k=9 is larger than the board"), error
    page.goto(f"{server}/?game=tictactoe&seconds=abc")
    wait_idle(page, 0)
    assert "seconds=abc in the link is not a number" in page.text_content("#note")


@pytest.mark.parametrize(
    "game, selected, text",
    [
        ("connect4", "connect4", "Connect Four"),
        ("6x7k4g", "connect4", "Connect Four"),
        ("Connect4", "connect4", "Connect Four"),
        ("3x3k3", "tictactoe", "Tic-tac-toe"),
        ("4x5k4g", "4x5k4g", "4x5 gravity"),
        ("ultimate-open", "ultimate-open", "Ultimate (open rule)"),
        ("5x4k4g", "5x4k4g", "5x4k4g: 5 rows x 4 cols, 4 in a row, gravity"),
    ],
)
def test_the_game_select_shows_named_boards(server, page, game, selected, text):
    """The Game select is never blank: a listed game whatever name the URL gives it, else an
    option added for the board the URL names."""
    page.goto(f"{server}/?game={game}&values=0")
    wait_idle(page, 0)
    assert page.input_value("#game") == selected
    assert text in page.eval_on_selector("#game", "s => s.options[s.selectedIndex].text")
    assert not page.text_content("#error")


BOARD_CELLS = """() => Object.fromEntries([...document.querySelectorAll('#board rect.heat')]
    .map((r) => [r.dataset.move, [r.nextElementSibling.textContent, r.getAttribute('fill')]]))"""
GRID_CELLS = """() => Object.fromEntries([...document.querySelectorAll('#attractor [data-move]')]
    .map((d) => [d.dataset.move, [d.textContent, d.style.background]]))"""


def _rgb(colour: str) -> str:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


@pytest.mark.parametrize("moves", ["", "2,2", "1,1 1,2", "2,2 1,2 1,1 3,3 3,1 2,1"])
def test_the_attractor_grid_says_what_the_board_says(server, page, moves):
    """Every move's attractor cell shows the board's label in the board's colour (issue 23:
    the same move was a green W5 on the board and a pink X·4 in the grid)."""
    page.goto(f"{server}/?game=tictactoe&moves={moves}")
    wait_idle(page, len(moves.split()))
    board, grid = page.evaluate(BOARD_CELLS), page.evaluate(GRID_CELLS)
    assert board and sorted(board) == sorted(grid)
    for move, (label, fill) in board.items():
        assert grid[move] == [label, _rgb(fill)], (move, board[move], grid[move])


def test_one_legend_for_the_page(server, page, tmp_path):
    """Stones and values in one legend, and no stone in a value colour (issue 23: Connect
    Four's red and yellow discs were the loss and draw colours)."""
    page.goto(f"{server}/?game=connect4&seconds=5&moves=4455")
    wait_idle(page, 4)
    assert page.locator("#legend").is_visible() and page.locator("#board svg .legend").count() == 0
    legend = page.text_content("#legend")
    assert "X disc" in legend and "O disc" in legend and "W5" in legend
    swatches = page.eval_on_selector_all(
        "#legend .swatch.value", "ss => ss.map((s) => s.style.background)"
    )
    assert len(swatches) == 6
    discs = page.eval_on_selector_all(
        "#board circle.stone", "cs => cs.map((c) => c.getAttribute('fill'))"
    )
    assert len(discs) == 4 and not {_rgb(d) for d in discs} & set(swatches)
    heat = set(heat_colours(page).values())
    assert heat and not heat & set(discs)
    screenshot(page, tmp_path, "connect4-legend.png")
    page.goto(f"{server}/?game=tictactoe&moves=2,2")
    wait_idle(page, 1)
    assert "Stones: X O" in " ".join(page.text_content("#legend-stones").split())


HEADER_CENTRES = """() => [...document.querySelector('header').children].map((e) => {
    const r = e.getBoundingClientRect(); return [r.top + r.height / 2, r.right]; })"""


@pytest.mark.parametrize("width, height", [(1000, 800), (1200, 800), (1400, 900), (390, 844)])
def test_layout_fits_the_width(server, browser, tmp_path, width, height):
    """No horizontal scrolling at 1000 to 1400 px nor on a phone (390 x 844); from 1000 px
    the header is one line (it wrapped at 1200 px: issue 23)."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        for game in ("tictactoe", "connect4", "5x4k4g", "ultimate-open"):
            page.goto(f"{server}/?game={game}&values=0")
            wait_idle(page, 0)
            scroll, inner = page.evaluate(
                "[document.documentElement.scrollWidth, window.innerWidth]"
            )
            assert scroll <= inner, (game, scroll, inner)
            centres = page.evaluate(HEADER_CENTRES)
            assert max(right for _, right in centres) <= inner, (game, centres)
            if width >= 1000:
                middles = [middle for middle, _ in centres]
                assert max(middles) - min(middles) < 2, (game, centres)
            screenshot(page, tmp_path, f"{game}-{width}.png")
    finally:
        context.close()


def test_a_new_position_cancels_the_running_job(server, page):
    """Values of a Connect Four position off the book's lines within 10 s (its moves searched
    for 0.2 to 1.6 s each): a click before they finish cancels that job (its DELETE is seen)
    and the new position's job runs (its moves searched too, none of them by the first job)."""
    deleted = []
    page.on("request", lambda r: deleted.append(r.url) if r.method == "DELETE" else None)
    page.goto(f"{server}/?game=connect4&seconds=10&moves=11112222")
    page.wait_for_selector('body[data-idle="0"]')
    page.wait_for_function("document.getElementById('progress').textContent.includes('valuing')")
    page.locator('#board svg rect.move[data-move="6"]').click()
    page.wait_for_function("document.body.dataset.ply === '9'")
    page.wait_for_function("document.getElementById('progress').textContent.includes('valuing')")
    assert any("/api/jobs/values-" in url for url in deleted), deleted
    page.goto(f"{server}/?game=tictactoe")  # leaves the second job to be cancelled
    wait_idle(page, 0)


def screenshot(page, tmp_path: Path, name: str) -> None:
    """Save the page under ``tmp_path``, and under ``$FASTTTT_SCREENSHOTS`` (a folder) if set."""
    shot = tmp_path / name
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    if os.environ.get("FASTTTT_SCREENSHOTS"):
        page.screenshot(path=str(Path(os.environ["FASTTTT_SCREENSHOTS"]) / name), full_page=True)
