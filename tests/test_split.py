"""The root split of a proof (fastttt.search.split): one df-pn question a root move, answers
equal to the tables' values, moves asked once per symmetry class, a checkpoint that resumes
and refuses another split's, and ``solve --search --workers``."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from fastttt.cli import main
from fastttt.errors import InvalidArgumentError, TableFileError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import as_spec
from fastttt.search import split as S
from fastttt.search.portfolio import prove
from fastttt.tables.dense import solve

from proving import random_positions


def test_root_moves_one_per_symmetry_class():
    assert S.root_moves(Position.empty(as_spec("3x3k3"))) == [0, 1, 4]
    assert S.root_moves(Position.empty(as_spec("4x4k3g"))) == [0, 1]  # the mirror only
    assert len(S.root_moves(Position.empty(as_spec("7x7k5")))) == 10
    lopsided = Position.from_text(as_spec("3x3k3"), "X../.../...")
    assert S.root_moves(lopsided) == [1, 2, 4, 5, 8]  # the diagonal through X fixes it
    broken = Position.from_text(as_spec("3x3k3"), "XO./.../...")
    assert S.root_moves(broken) == broken.legal_moves()


@pytest.mark.parametrize("game, count", [("4x4k3", 20), ("3x4k3g", 20), ("tictactoe", 30)])
def test_split_answers_match_the_tables(game, count):
    spec = as_spec(game)
    table = solve(spec)
    for pos in random_positions(spec, count, seed=31):
        x_value = table.value(pos)  # the first player's value
        assert S.ask_split(pos, 0, workers=1).proven is (x_value == 1), pos
        assert S.ask_split(pos, 1, workers=1).proven is (x_value == -1), pos


@pytest.mark.parametrize("game, count", [("4x4k3", 5), ("3x4k3g", 5), ("tictactoe", 6)])
def test_split_on_worker_processes_gives_the_tables_values(game, count):
    spec = as_spec(game)
    table = solve(spec)
    for pos in random_positions(spec, count, seed=31):
        result = prove(pos, methods=("dfpn",), workers=2)
        expected = table.value(pos) * (1 if pos.to_move == 0 else -1)
        assert result.value == expected, pos
        assert "dfpn-split" in result.method


def test_a_win_stops_at_the_first_winning_move():
    pos = Position.empty(as_spec("4x4k3"))  # the first player wins
    answer = S.ask_split(pos, 0, workers=1)
    found = list(answer.answers.values())  # in order: one process asks them one by one
    assert answer.proven is True and found.count(True) == 1
    assert found[found.index(True) + 1 :] == [None] * (len(found) - found.index(True) - 1)
    assert S.ask_split(pos, 1, workers=1).proven is False  # nor does the second player win


def test_a_checkpoint_resumes_and_refuses_another_split(tmp_path, monkeypatch):
    spec = as_spec("4x4k4")
    pos = Position.empty(spec)
    path = tmp_path / "split.json"
    first = S.ask_split(pos, 0, workers=2, checkpoint=path)
    assert first.proven is False
    saved = json.loads(path.read_text())
    assert saved["format"] == "fastttt-split" and saved["answers"]["0"] == {
        str(m): False for m in S.root_moves(pos)
    }

    def no_tasks(*args):
        raise AssertionError("a move answered in the checkpoint was asked again")
        yield

    monkeypatch.setattr(S, "_run", no_tasks)
    again = S.ask_split(pos, 0, workers=2, checkpoint=path)
    assert again.proven is False and again.answers == first.answers
    with pytest.raises(TableFileError, match="another split"):
        S.ask_split(pos.play(5), 0, workers=2, checkpoint=path)
    notes = tmp_path / "notes.json"
    notes.write_text('{"mine": true}')
    with pytest.raises(TableFileError, match="not a split checkpoint"):
        S.ask_split(pos, 0, workers=2, checkpoint=notes)
    assert notes.read_text() == '{"mine": true}'  # never replaced


def test_solve_search_with_workers():
    runner = CliRunner()
    out = runner.invoke(main, ["solve", "4x4k4", "--search", "--workers", "2", "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.stdout)  # a progress line may go to stderr under load
    assert result["value"] == "draw" and "dfpn-split" in [s["method"] for s in result["steps"]]
    out = runner.invoke(main, ["solve", "4x4k3", "--search", "--checkpoint", "c.json"])
    assert out.exit_code == 2 and "--checkpoint keeps a root split's answers" in out.output


def test_the_workers_tables_are_counted_before_any_starts(monkeypatch, tmp_path):
    """Each worker process builds a df-pn table: the split refuses up front, with the
    estimate, when the tables of the tasks that run at once do not fit; so does ``solve
    --search --workers``, which counts them beside its own."""
    import fastttt.memory as memory

    monkeypatch.setattr(memory, "available_memory", lambda: 256 << 20)  # 230.4 MiB usable
    pos = Position.empty(as_spec("4x4k3"))  # 3 root moves
    notes = tmp_path / "answers.json"
    with pytest.raises(MemoryError, match=r"\(3 tables of 2\*\*22 rows .*\) needs 384\.0 MiB"):
        S.ask_split(pos, 0, workers=4, tt_bits=22, checkpoint=notes)
    assert not notes.exists()  # refused before anything ran
    with pytest.raises(MemoryError, match=r"\(2 tables .* and 2 zone caches\) needs 260\.0 MiB"):
        S.ask_split(pos, 0, workers=2, tt_bits=22, zone_nodes=16)
    assert S.ask_split(pos, 0, workers=1, tt_bits=22).proven is True  # one table fits
    with pytest.raises(InvalidArgumentError, match="tt_bits"):
        S.ask_split(pos, 0, workers=2, tt_bits=40)
    command = ["solve", "4x4k3", "--search", "--tt-bits", "21"]
    out = CliRunner().invoke(main, [*command, "--workers", "3"])
    assert out.exit_code == 2  # this process's 2 tables, and 3 workers'
    assert "(5 tables of 2**21 rows of 32 bytes and a zone cache) needs 321.0 MiB" in out.stderr
    assert CliRunner().invoke(main, [*command, "--json"]).exit_code == 0  # 2 tables fit
    out = CliRunner().invoke(main, [*command, "--workers", "64"])  # as many tasks as root moves
    assert out.exit_code == 2 and "ask for fewer bits or fewer workers" in out.stderr
    assert "(5 tables of 2**21 rows of 32 bytes and a zone cache) needs 321.0 MiB" in out.stderr
    S.ask_split(pos, 0, workers=1, tt_bits=22, checkpoint=notes)
    assert S.ask_split(pos, 0, workers=4, tt_bits=22, checkpoint=notes).proven is True  # answered
    with pytest.raises(InvalidArgumentError, match="workers"):
        prove(pos, workers=0)


def test_narrowed_splits_keep_the_tables_values(tmp_path):
    spec = as_spec("4x5k4")
    table = solve(spec)
    narrowed = {"zone_nodes": 16, "threat_nodes": 16}
    proofs = 0
    for pos in random_positions(spec, 12, seed=7):
        x_wins = table.value(pos) == 1
        assert S.ask_split(pos, 0, workers=1, **narrowed).proven is x_wins, pos
        reached = S.ask_split(pos, 0, workers=1, attacker_reach=1, **narrowed).proven
        assert reached is None or reached is x_wins, pos  # a failure within the reach: None
        proofs += reached is True
    assert proofs >= 3
    path = tmp_path / "narrowed.json"
    pos = Position.empty(as_spec("4x4k4"))
    assert S.ask_split(pos, 0, workers=1, checkpoint=path, **narrowed).proven is False
    with pytest.raises(TableFileError, match="another split .*where this one is by nothing"):
        S.ask_split(pos, 0, workers=1, checkpoint=path)  # answers of another search
    with pytest.raises(TableFileError, match="where this one is by .*'dependent_threats': 1"):
        S.ask_split(pos, 0, workers=1, checkpoint=path, dependent_threats=True, **narrowed)
    with pytest.raises(TableFileError, match="where this one is by .*'threat_offence': 3"):
        S.ask_split(pos, 0, workers=1, checkpoint=path, threat_offence=3, **narrowed)
    dependent = S.ask_split(Position.empty(spec), 0, workers=1, dependent_threats=True, **narrowed)
    assert dependent.proven is (table.value(Position.empty(spec)) == 1)
    with pytest.raises(TableFileError, match="where this one is by .*'sibling_zone_work': 1"):
        S.ask_split(pos, 0, workers=1, checkpoint=path, sibling_zone_work=1, **narrowed)
    with pytest.raises(TableFileError, match="where this one is by .*'zone_probe_search': 'df-pn'"):
        S.ask_split(pos, 0, workers=1, checkpoint=path, zone_probe_search="df-pn", **narrowed)
    for pos in random_positions(spec, 6, seed=3):
        sibling = S.ask_split(pos, 0, workers=1, sibling_zone_work=1, **narrowed).proven
        assert sibling is (table.value(pos) == 1), pos
    for pos in random_positions(spec, 6, seed=4):
        searches = {"threat_probe_search": "df-pn", "zone_probe_search": "short-first"}
        by_dfpn = S.ask_split(pos, 0, workers=1, **searches, **narrowed).proven
        assert by_dfpn is (table.value(pos) == 1), pos
    with pytest.raises(InvalidArgumentError, match="free boards"):
        S.ask_split(Position.empty(as_spec("4x4k3g")), 0, workers=1, attacker_reach=2)


def test_only_the_moves_asked():
    draw = Position.empty(as_spec("4x4k4"))  # X's moves all fail
    some = S.root_moves(draw)[:2]
    asked = S.ask_split(draw, 0, workers=1, only=some)
    assert list(asked.answers) == some and set(asked.answers.values()) == {False}
    assert asked.proven is None  # a move not asked may still win
    assert S.ask_split(draw, 0, workers=1, only=S.root_moves(draw)).proven is False
    win = Position.empty(as_spec("4x4k3"))
    assert S.ask_split(win, 0, workers=1, only=[5]).proven is True  # a centre cell wins
    with pytest.raises(InvalidArgumentError, match=r"not root moves .*\[6\]"):
        S.ask_split(win, 0, workers=1, only=[5, 6])  # 6 is an image of 5


@pytest.mark.parametrize("mover_attacks", [False, True])
def test_a_pass_proof_answers_the_moves_off_its_zone(mover_attacks):
    """The moves off the zone of the proof after the mover's pass are answered without a
    task (progress reports 0 nodes), each as the table says (the defender's lose, the
    attacker's do not win); the root's answers stay the table's."""
    spec = as_spec("4x5k4")
    table = solve(spec)
    settled = 0
    for pos in random_positions(spec, 40, seed=5):
        attacker = pos.to_move if mover_attacks else 1 - pos.to_move
        wins = 1 if attacker == 0 else -1
        free = []
        result = S.ask_split(
            pos,
            attacker,
            workers=1,
            pass_nodes=100_000,
            progress=lambda m, a, n, free=free: free.append((m, a)) if n == 0 else None,
        )
        assert result.proven is (table.value(pos) == wins), pos
        for move, answer in free:
            assert result.pass_zone is not None and pos.move_cell(move) not in result.pass_zone
            assert answer is not mover_attacks
            assert (table.value(pos.play(move)) == wins) is answer, (pos, move)
        settled += len(free)
    assert settled >= 20
    with pytest.raises(InvalidArgumentError, match="free board"):
        S.ask_split(Position.empty(as_spec("4x4k3g")), 0, workers=1, pass_nodes=10)


def test_a_bad_scheduler_address_is_refused_in_one_line():
    pos = Position.from_moves(as_spec("4x4k3"), [5])
    with pytest.raises(InvalidArgumentError, match="--scheduler 'notanaddress'"):
        S.ask_split(pos, 0, scheduler="notanaddress")


def test_a_task_left_unknown_goes_on_from_its_snapshot(tmp_path):
    """With ``snapshots``, a task left unknown saves its searcher, and the same task in the
    next split goes on from it: its answer and nodes are those of one searcher asked twice
    (fastttt.search.dfpn_snapshot); a settled task removes its file."""
    from fastttt.search.dfpn import ProofSearch

    pos = Position.empty(as_spec("5x5k4"))
    folder = tmp_path / "tasks"
    folder.mkdir()
    first: dict[int, int] = {}
    S.ask_split(
        pos,
        0,
        workers=1,
        max_nodes=300,
        tt_bits=14,
        snapshots=folder,
        progress=lambda m, a, n: first.update({m: n}),
    )
    left = sorted(int(p.stem.split("move")[1]) for p in folder.glob("*.dfpn"))
    assert left and set(left) <= set(first)  # some tasks are open, each with its file
    then: dict[int, tuple] = {}
    second = S.ask_split(
        pos,
        0,
        workers=1,
        max_nodes=20_000,
        tt_bits=14,
        snapshots=folder,
        only=left,
        progress=lambda m, a, n: then.update({m: (a, n)}),
    )
    assert set(second.answers.values()) == {False}  # 5x5 k=4 is a draw
    assert not list(folder.iterdir())  # settled: no file left
    for move in left:
        search = ProofSearch("5x5k4", tt_bits=14)
        child = pos.play(move)
        assert search.prove(child, 0, max_nodes=300, line=False).proven is None
        again = search.prove(child, 0, max_nodes=20_000, line=False)
        assert then[move] == (again.proven, again.nodes), move


def test_a_snapshot_of_another_task_is_refused(tmp_path):
    pos = Position.empty(as_spec("5x5k4"))
    S.ask_split(pos, 0, workers=1, max_nodes=300, tt_bits=14, snapshots=tmp_path, only=[0])
    (tmp_path / "attacker0-move0.dfpn").rename(tmp_path / "attacker0-move1.dfpn")
    with pytest.raises(TableFileError, match="a snapshot of the task .*'move': 0"):
        S.ask_split(pos, 0, workers=1, max_nodes=300, tt_bits=14, snapshots=tmp_path, only=[1])
    (tmp_path / "attacker0-move1.dfpn").rename(tmp_path / "attacker0-move0.dfpn")
    with pytest.raises(TableFileError, match="other settings: zone_nodes 0 \\(here 16\\)"):
        S.ask_split(
            pos,
            0,
            workers=1,
            max_nodes=300,
            tt_bits=14,
            snapshots=tmp_path,
            only=[0],
            zone_nodes=16,
        )
    with pytest.raises(InvalidArgumentError, match="is not a folder"):
        S.ask_split(pos, 0, workers=1, snapshots=tmp_path / "attacker0-move1.dfpn")


def test_a_task_stopped_by_ctrl_c_saves_its_snapshot(tmp_path, monkeypatch):
    """Ctrl-C in a task of this process (one worker) saves its searcher before it stops the
    split: the kernel leaves the table valid (fastttt.interrupt)."""
    from fastttt.search.dfpn import ProofSearch
    from fastttt.search.dfpn_snapshot import load_snapshot

    made = S._searcher

    def stopped_after_some_work(*args, **kwargs):
        search = made(*args, **kwargs)
        prove = search.prove

        def interrupted(*a, **k):
            prove(*a, **dict(k, max_nodes=300))
            raise KeyboardInterrupt

        search.prove = interrupted
        return search

    monkeypatch.setattr(S, "_searcher", stopped_after_some_work)
    pos = Position.empty(as_spec("5x5k4"))
    with pytest.raises(KeyboardInterrupt):
        S.ask_split(pos, 0, workers=1, tt_bits=14, snapshots=tmp_path, only=[0])
    search = ProofSearch("5x5k4", tt_bits=14)
    assert load_snapshot(search, tmp_path / "attacker0-move0.dfpn")["nodes"] == search.nodes > 0


def test_snapshots_without_room_on_the_disk_are_refused_before_any_task(tmp_path, monkeypatch):
    class Usage:
        free = 2**20  # 1 MiB: less than two tables of 2**14 rows and their replacements

    monkeypatch.setattr(shutil, "disk_usage", lambda path: Usage)
    monkeypatch.setattr(S, "_run", lambda *a: pytest.fail("a task ran"))
    pos = Position.empty(as_spec("5x5k4"))
    with pytest.raises(InvalidArgumentError, match="snapshots: each takes .* GiB free in"):
        S.ask_split(pos, 0, workers=2, tt_bits=14, snapshots=tmp_path)


_INTERRUPTED_SPLIT = """
import sys
from fastttt.games.mnk.board import Position
from fastttt.search.split import ask_split
pos = Position.empty("8x8k5")
print("asking", flush=True)
try:
    ask_split(pos, 0, workers=2, max_nodes=10**12, tt_bits=16, snapshots=sys.argv[1],
              only=[0, 9], zone_nodes=16)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(130)
"""


@pytest.mark.parametrize("to", ["caller", "group"])
def test_ctrl_c_lets_the_running_workers_save_their_snapshots(tmp_path, to):
    """Ctrl-C, to the caller alone or to the whole process group as a terminal sends it,
    stops the two worker processes' tasks, and each saves its snapshot before the split
    raises KeyboardInterrupt (the workers ignore the signal; the caller asks them)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from fastttt.search.dfpn import ProofSearch
    from fastttt.search.dfpn_snapshot import load_snapshot

    proc = subprocess.Popen(
        [sys.executable, "-c", _INTERRUPTED_SPLIT, str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        start_new_session=True,  # its own process group, which the signal may go to
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "asking\n"
        time.sleep(12)  # the workers start (a second or two each) and search
        if to == "caller":
            proc.send_signal(signal.SIGINT)
        else:
            os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=200)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert out == "interrupted\n" and "Traceback" not in err
    for move in (0, 9):
        search = ProofSearch("8x8k5", tt_bits=16, zone_nodes=16)
        header = load_snapshot(search, tmp_path / f"attacker0-move{move}.dfpn")
        assert header["info"]["move"] == move and search.nodes > 0
