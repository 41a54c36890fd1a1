"""The df-pn scripts of ``benchmarks/`` refuse a bad flag's value, move or board with one line
and exit status 2, as argparse refuses a bad flag, and run on a good one; frontier_run's long
runs go on from their snapshots."""

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import as_spec
from fastttt.search.dfpn import ProofSearch
from fastttt.search.dfpn_snapshot import load_snapshot, save_snapshot

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "dfpn_rate.py"


def run_script(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (["4x4k3", "--zone-nodes", "-1"], "zone_nodes must be in 0..1,073,741,824, got -1"),
        (["4x4k3", "--tt-bits", "40"], "tt_bits must be in 4..32, got 40"),
        (["4x4k3", "--moves", "99"], "move 1 (99): cell 99 is off the board (0..15)"),
        (["4x4k3", "--moves", "5,a"], "--moves '5,a': cells are numbers, comma-separated"),
        (["4x4k0"], "k must be at least 1, got 0"),
    ],
)
def test_a_refusal_is_one_line_and_status_2(args, message):
    done = run_script(*args)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("dfpn_rate.py: error: ") and message in done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1


def test_a_good_run_prints_the_answer():
    done = run_script("3x3k3", "--nodes", "1e5")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("3x3k3 []: proven=False ")


FRONTIER = SCRIPT.with_name("frontier_run.py")


def run_frontier(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(FRONTIER), "--log", str(tmp_path / "run.jsonl"), *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=300,
        cwd=tmp_path,
    )


def _lines(tmp_path: Path) -> list[dict]:
    return [json.loads(line) for line in (tmp_path / "run.jsonl").read_text().splitlines()]


def test_a_long_run_goes_on_from_its_snapshot(tmp_path):
    """frontier_run --snapshot keeps df-pn's table; --resume goes on counting from it (nodes
    and CPU), skips the threat pass, and settles 7x7 k=5's "X cannot win"; a second start
    without --resume, or a resume of another question, is refused without touching the file."""
    flags = ["7x7k5", "--tt-bits", "18", "--checkpoint", "0.2", "--snapshot", "t.dfpn"]
    first = run_frontier(tmp_path, *flags, "--hours", "0.0001")
    assert first.returncode == 0, first.stderr
    assert "snapshot: 0.01 GiB in t.dfpn" in first.stdout
    before = _lines(tmp_path)
    assert before[0]["phase"] == "threats" and before[-1]["proven"] is None
    snapshot = (tmp_path / "t.dfpn").read_bytes()

    again = run_frontier(tmp_path, *flags)
    assert again.returncode == 2 and "t.dfpn: exists" in again.stderr
    other = run_frontier(tmp_path, *flags, "--resume", "--moves", "24")
    assert other.returncode == 2 and "a snapshot of the question" in other.stderr
    assert (tmp_path / "t.dfpn").read_bytes() == snapshot
    nowhere = run_frontier(tmp_path, "7x7k5", "--snapshot", "missing/t.dfpn")
    assert nowhere.returncode == 2 and "no such folder, cannot write t.dfpn" in nowhere.stderr
    (tmp_path / "sub").mkdir()
    folder = run_frontier(tmp_path, "7x7k5", "--snapshot", "sub")
    assert folder.returncode == 2 and "is a directory" in folder.stderr

    bigger = [*flags[:1], "--tt-bits", "19", *flags[3:]]  # the table goes on in 2**19 rows
    resumed = run_frontier(tmp_path, *bigger, "--resume", "--hours", "0.05")
    assert resumed.returncode == 0, resumed.stderr
    assert f"resuming from t.dfpn: {before[-1]['nodes']:,} nodes" in resumed.stdout
    assert load_snapshot(ProofSearch("7x7k5", tt_bits=19), tmp_path / "t.dfpn")["tt_bits"] == 19
    after = _lines(tmp_path)[len(before) :]
    assert all(line["phase"] == "dfpn" for line in after)
    assert after[0]["nodes"] > before[-1]["nodes"] and after[0]["cpu"] >= before[-1]["cpu"]
    assert after[-1]["proven"] is False  # Hsu et al.: 7x7 k=5 is a draw


def _sigint_ignored() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # as nohup or a script's `&` starts a job


@pytest.mark.parametrize("stop", ["ctrl-c", "sigterm-in-the-background"])
def test_ctrl_c_saves_the_table(tmp_path, stop):
    """Ctrl-C during df-pn writes the snapshot, the interrupted question's nodes counted, and
    ends with one line and status 130; so does SIGTERM to a run whose Ctrl-C is ignored."""
    background = stop != "ctrl-c"
    proc = subprocess.Popen(
        [sys.executable, str(FRONTIER), "8x8k5", "--tt-bits", "18", "--checkpoint", "10"]
        + ["--log", "run.jsonl", "--snapshot", "c.dfpn"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        cwd=tmp_path,
        preexec_fn=_sigint_ignored if background else None,
    )
    try:
        assert proc.stdout is not None
        while '"phase": "dfpn"' not in proc.stdout.readline():  # df-pn is running
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        time.sleep(0.5)  # inside the next question of 10 s
        proc.send_signal(signal.SIGTERM if background else signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "interrupted: the table is in c.dfpn; --resume goes on" in out
    assert "Traceback" not in err
    search = ProofSearch("8x8k5", tt_bits=18)
    header = load_snapshot(search, tmp_path / "c.dfpn")  # complete: its checksum holds
    assert search.nodes == header["nodes"] > _lines(tmp_path)[-1]["nodes"] > 0
    assert header["info"]["moves"] == "" and header["info"]["phase"] == "dfpn"


def test_a_snapshot_saved_elsewhere_is_not_resumed(tmp_path):
    """A snapshot that frontier_run did not write (no run so far in its info) is refused."""
    save_snapshot(ProofSearch("7x7k5", tt_bits=18), tmp_path / "mine.dfpn", info={"by": "me"})
    done = run_frontier(tmp_path, "7x7k5", "--tt-bits", "18", "--snapshot", "mine.dfpn", "--resume")
    assert done.returncode == 2 and "not a snapshot of frontier_run's" in done.stderr


LINE = Path(__file__).resolve().parent.parent / "benchmarks" / "snapshot_line.py"


def test_snapshot_line_prints_the_promising_line_of_the_snapshots_question(tmp_path):
    """The script reads the question from the snapshot's info (frontier_run's moves, or a
    split task's position and move) and prints the searcher's promising line; a snapshot
    that names no question is refused in one line."""
    spec = as_spec("6x6k5")
    search = ProofSearch(spec, tt_bits=14, zone_nodes=16)
    pos = Position.from_moves(spec, [14])
    assert search.prove(pos, 0, max_nodes=3_000, line=False, attacker_reach=2).proven is None
    expected = search.promising_line(pos, 0, 2, plies=5)
    assert expected
    frontier = {"moves": "14", "attacker": 0, "reach": 2}
    task = {"position": str(Position.empty(spec)), "move": 14, "attacker": 0, "reach": 2}
    for info in (frontier, task):
        save_snapshot(search, tmp_path / "s.dfpn", info=info)
        out = subprocess.run(
            [sys.executable, str(LINE), str(tmp_path / "s.dfpn"), "--plies", "5"],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=120,
        )
        assert out.returncode == 0, out.stderr
        rows = out.stdout.splitlines()
        assert rows[0].endswith(f"{search.nodes:,} nodes; attacker X, reach 2")
        assert [int(row.split()[1]) for row in rows[1:]] == [step.move for step in expected]
        first = expected[0]
        assert f"proof {first.proof:,} disproof {first.disproof:,}" in rows[1]
    save_snapshot(search, tmp_path / "s.dfpn", info={"by": "me"})
    bad = subprocess.run(
        [sys.executable, str(LINE), str(tmp_path / "s.dfpn")],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert bad.returncode == 2 and "does not name a question" in bad.stderr
    assert "Traceback" not in bad.stderr


SPLIT = Path(__file__).resolve().parent.parent / "benchmarks" / "root_split_run.py"


def test_a_split_run_stopped_in_the_background_saves_its_tasks(tmp_path):
    """SIGTERM to root_split_run whose Ctrl-C is ignored: the running task (in this process)
    saves its table, and the run ends with one line and status 130."""
    proc = subprocess.Popen(
        [sys.executable, str(SPLIT), "8x8k5", "--only", "0", "--max-nodes", "1e12"]
        + ["--tt-bits", "16", "--zone-nodes", "16", "--snapshots", ".", "--log", "s.jsonl"]
        + ["--checkpoint", "split.json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        cwd=tmp_path,
        preexec_fn=_sigint_ignored,
    )
    try:
        time.sleep(8)  # started, and searching
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert out == "interrupted: the answers so far are in split.json; the tasks' tables are in .\n"
    assert "Traceback" not in err
    search = ProofSearch("8x8k5", tt_bits=16, zone_nodes=16)
    header = load_snapshot(search, tmp_path / "attacker0-move0.dfpn")
    assert header["info"]["move"] == 0 and search.nodes > 0
