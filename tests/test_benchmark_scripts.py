"""The df-pn scripts of ``benchmarks/`` refuse a bad flag's value, move or board with one line
and exit status 2, as argparse refuses a bad flag, and run on a good one."""

import subprocess
import sys
from pathlib import Path

import pytest

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
