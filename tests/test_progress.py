"""Progress of long commands (issue 23): on stderr only, one convention
(:mod:`fastttt.cli.progress`), the memory of big in-memory solves said first, and refusals that
name what works instead. Jobs are made "long" by a zero delay, never by running long; no
assertion is on timing."""

import json
import re

import pytest
from click.testing import CliRunner

from fastttt.cli import main, solve_table
from fastttt.cli import progress as P

LINE = re.compile(r"^\d\d:\d\d:\d\d (.*) \([\d,]+\.\d s\)$")  # a plain progress line


@pytest.fixture
def eager(monkeypatch):
    """Every step shown at once as a plain line; no heartbeat within a test."""
    monkeypatch.setattr(P, "DELAY_SECONDS", 0.0)
    monkeypatch.setattr(P, "LINE_SECONDS", 0.0)
    monkeypatch.setattr(P, "HEARTBEAT_SECONDS", 3600.0)


def shown(stderr: str) -> list[str]:
    """The texts of the progress lines in ``stderr``."""
    return [m.group(1) for m in map(LINE.match, stderr.splitlines()) if m]


def invoke(*args):
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result


def without_times(out: dict) -> dict:
    """A JSON answer without what varies from run to run (times, peak memory)."""
    if isinstance(out, dict):
        return {
            k: without_times(v)
            for k, v in out.items()
            if "seconds" not in k and k not in ("peak_rss_bytes",)
        }
    if isinstance(out, list):
        return [without_times(v) for v in out]
    return out


# --- the convention ----------------------------------------------------------------------


def test_steps_are_lines_with_counts_and_notes(eager, capsys):
    with P.Progress("suite", total=3, unit="positions", terminal=False) as p:
        p.update(1, note="X wins")
        p.update(2, what="suite again")
    assert shown(capsys.readouterr().err) == [
        "suite",
        "suite: 1/3 positions, X wins",
        "suite again: 2/3 positions, X wins",
    ]


def test_short_work_is_quiet(capsys):
    with P.Progress("quick", total=2, terminal=False) as p:
        p.update(1)
        p.update(2)
    assert capsys.readouterr() == ("", "")


def test_counts_within_a_step_wait_for_the_heartbeat(eager, capsys):
    with P.Progress("reach layer 3", unit="slots", poll=lambda: "polled", terminal=False) as p:
        p.update(10, 100, step=False)
    assert shown(capsys.readouterr().err) == ["reach layer 3: polled"]


def test_a_line_said_while_the_rich_line_shows_goes_above_it(eager, capsys, monkeypatch):
    """The layered solve's plan, printed after the drains or windows were measured with a rich
    line showing: on a line of its own, never glued to the bar."""
    with P.Progress("drains layer 5", total=2, unit="slots", terminal=True) as p:
        p.update(1)
        p.say("solving the plan")
    err = capsys.readouterr().err
    assert "solving the plan" in err.splitlines()
    monkeypatch.setattr(P, "DELAY_SECONDS", 3600.0)
    with P.Progress("quick", terminal=True) as p:  # before anything shows: a plain line
        p.say("a plan")
    assert capsys.readouterr().err == "a plan\n"


def test_rates_need_a_second_of_work():
    assert P.rate_text(5_000_000, 0.5, "slots") == ""  # was "0.0 M slots/s" and an ETA
    assert P.rate_text(0, 3.0, "slots") == ""
    assert P.rate_text(24_600_000, 2.0, "slots") == "12.3 M slots/s"
    assert P.rate_text(1_500, 1.0, "slots") == "1.5 k slots/s"
    assert P.rate_text(12, 2.0, "nodes") == "6 nodes/s"


# --- the commands ------------------------------------------------------------------------


def test_prove_reports_nodes_and_keeps_its_json(eager, monkeypatch):
    args = ("prove", "--max-nodes", "1000", "--json")
    loud = invoke(*args)
    lines = shown(loud.stderr)
    assert lines[0] == "does X win?: 0 of 1,000 nodes"
    assert any(line.startswith("does O win?: ") for line in lines)
    monkeypatch.setattr(P, "DELAY_SECONDS", 3600.0)
    quiet = invoke(*args)
    assert quiet.stderr == ""
    assert without_times(json.loads(loud.stdout)) == without_times(json.loads(quiet.stdout))


def test_prove_split_reports_tasks(eager):
    result = invoke("prove", "--moves", "5,5", "--split", "1", "--max-nodes", "200", "--json")
    assert "does O win?: 8/8 tasks" in shown(result.stderr)  # O's 8 moves in the centre
    assert json.loads(result.stdout)["frontier"] == 8


def test_prove_suite_reports_each_position(eager):
    result = invoke("prove", "--suite", "--max-nodes", "100", "--json")
    lines = shown(result.stderr)
    assert lines[0] == "suite"
    assert [line.split(",")[0] for line in lines[1:]] == [
        f"suite: {i}/20 positions" for i in range(1, 21)
    ]
    assert len(json.loads(result.stdout)["suite"]["positions"]) == 20


def test_render_values_reports_the_moves(eager, tmp_path):
    out = tmp_path / "t.svg"
    result = invoke("render", "tictactoe", "--moves", "2,2", "--values", "-o", str(out))
    assert shown(result.stderr)[0] == "move values" and result.stdout == ""
    assert out.read_text().startswith("<svg")


def test_solve_ultimate_reports_the_engine(eager):
    result = invoke("solve", "ultimate", "--max-nodes", "2000", "--json")
    assert shown(result.stderr)[0] == "searching ultimate: depth 0, 0 nodes of 2,000"
    assert json.loads(result.stdout)["nodes"] >= 2000


def test_match_reports_each_game(eager):
    result = invoke("match", "tictactoe", "--x", "random", "-n", "3", "--seed", "1", "--json")
    lines = shown(result.stderr)
    assert lines == ["random vs random"] + [f"random vs random: {i}/3 games" for i in (1, 2, 3)]
    assert json.loads(result.stdout)["games"] == 3


def test_book_build_reports_its_chunks(eager, tmp_path):
    out = tmp_path / "b.book"
    result = invoke("book", "build", "4x4k3g", "--depth", "3", "--out", str(out), "--json")
    assert shown(result.stderr)[-1] == "book of mnk(rows=4,cols=4,k=3,gravity): 1/1 chunks, search"
    assert json.loads(result.stdout)["positions"] == 37 and out.exists()


def test_layered_solve_reports_layers_without_a_rate_for_short_phases(eager):
    result = invoke("solve", "4x4k3g", "--json")
    lines = shown(result.stderr)
    assert lines[0] == "reach layer 0" and lines[-1].startswith("value layer 0: ")
    assert all("slots/s" not in line and "ETA" not in line for line in lines)  # under 1 s
    assert json.loads(result.stdout)["engine"] == "layered"


# --- big in-memory solves say their memory first; refusals name what works ----------------


def test_a_big_dense_solve_says_its_memory_and_names_out(monkeypatch):
    quiet = invoke("solve", "3x3k3", "--json")
    monkeypatch.setattr(solve_table, "BIG_SOLVE_BYTES", 100 * 2**20)
    big = invoke("solve", "3x3k3", "--json")
    assert big.stderr.splitlines() == [
        "solving tictactoe (3 rows x 3 cols, 3 in a row) in memory: about 201.5 MiB; "
        "--out DIR solves it layer by layer on disk, with two layers in memory"
    ]
    assert quiet.stderr == ""
    assert without_times(json.loads(big.stdout)) == without_times(json.loads(quiet.stdout))
    refused = CliRunner().invoke(
        main, ["solve", "3x3k3", "--engine", "dense", "--max-memory", "1e-4"]
    )
    assert refused.exit_code == 1 and refused.stderr.startswith("Error: solving tictactoe")


def test_a_big_layered_solve_in_memory_names_out(monkeypatch):
    monkeypatch.setattr(solve_table, "BIG_SOLVE_BYTES", 0)
    result = invoke("solve", "4x4k3g", "--json")
    first = result.stderr.splitlines()[0]
    assert first.startswith("solving mnk(rows=4,cols=4,k=3,gravity) ") and "in memory" in first
    assert first.endswith("--out DIR solves it layer by layer on disk, with two layers in memory")


@pytest.mark.parametrize(
    "game, book",
    [
        ("connect4", "fastttt book build connect4 --depth N"),
        ("5x6k4g", "fastttt book build 5x6k4g --depth N"),
        ("7x7k5", None),
    ],
)
def test_a_refusal_names_what_works_instead(game, book):
    result = CliRunner().invoke(main, ["solve", game, "--max-memory", "0.25"])
    assert result.exit_code == 1
    (line,) = result.stderr.splitlines()
    estimate, instead = line.split(". Instead: ")
    assert estimate.startswith("Error: ") and "needs about" in estimate
    assert "--search values one position" in instead
    assert "--stdin values positions read one per line" in instead
    assert (book in instead) if book else ("book" not in instead)
