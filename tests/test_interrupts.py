"""Ctrl-C stops long kernels promptly (fastttt.interrupt) and the CLI exits 130 with one line.

The CLI tests run the real command in a subprocess on work that would take minutes, send
SIGINT once the work has started, and check the exit: code 130, ``Interrupted.`` alone on
stderr, no traceback, no file left behind, long before the work would have ended (a
functional bound, not a benchmark). The in-process tests send SIGINT to their process while a
kernel runs, then check that the interrupted searcher, engine or solve leaves nothing wrong.
Each runs in a fresh interpreter of its own (:func:`in_own_process`): a KeyboardInterrupt that
lands while Numba compiles or loads a kernel (the first run on a machine) breaks Numba's
typing registry for the rest of that process, and every later test in it would fail.
"""

from __future__ import annotations

import functools
import io
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from fastttt import interrupt
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import mnk
from fastttt.kernels import heuristic as hk
from fastttt.kernels import negamax as nk
from fastttt.kernels import ultimate as uk
from fastttt.play.loop import play_game
from fastttt.search.alphabeta import Searcher
from fastttt.search.ultimate.engine import Engine, two_table
from fastttt.tables import cache
from fastttt.tables import dense as solver
from fastttt.ultimate import UltimateState

FASTTTT = [sys.executable, "-m", "fastttt"]
PROMPT = 10.0  # seconds: an interrupted command must be gone well within this
IN_CHILD = "FASTTTT_TEST_CHILD"  # set in the interpreter that runs an in-process test


def answer_ctrl_c() -> None:
    """In a child before exec: SIGINT back to its default action, so that Python installs
    its handler even when this test run inherited SIGINT ignored (a job started in the
    background by a non-interactive shell, or under nohup)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt_cli(
    args, cwd: Path, *, delay: float = 3.0, stdin: str | None = None, signum=signal.SIGINT
):
    """Run ``fastttt ARGS``, send ``signum`` after ``delay`` seconds (start-up and kernel
    loading take about 1 s); return (exit code, stdout, stderr, seconds from it to exit)."""
    proc = subprocess.Popen(
        [*FASTTTT, *args],
        cwd=cwd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=answer_ctrl_c,
    )
    if stdin is not None:
        proc.stdin.write(stdin)
        proc.stdin.flush()
    time.sleep(delay)
    assert proc.poll() is None, f"finished before the interrupt: {proc.communicate()}"
    sent = time.perf_counter()
    proc.send_signal(signum)
    try:
        out, err = proc.communicate(timeout=PROMPT * 3)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    return proc.returncode, out, err, time.perf_counter() - sent


def assert_interrupted(rc, err, seconds, folder: Path):
    """Exit 130; Ctrl-C added one line to stderr (after any warning printed before it)."""
    assert rc == 130, err
    lines = err.splitlines()
    assert lines[-1] == "Interrupted." and "Interrupted." not in lines[:-1]
    assert "Traceback" not in err and "" not in lines
    assert seconds < PROMPT
    assert list(folder.iterdir()) == []  # nothing written, not even a temporary file


def warm(args, stdin: str | None = None) -> None:
    """Run ``fastttt ARGS`` on short work to its end, so that the kernels the interrupted
    command runs are compiled and cached first: a SIGINT that lands while Numba compiles is
    held back until the compilation ends (tens of seconds on a cold cache under load)."""
    subprocess.run(
        [*FASTTTT, *args], input=stdin, capture_output=True, text=True, timeout=600, check=True
    )


EASY = "2252576253462244111563365343671351441"  # the first End-Easy position


@pytest.mark.parametrize(
    "args, stdin, warm_args, warm_stdin",
    [
        # hours of search
        (["solve", "connect4", "--search"], None, ["solve", "4x4k4g", "--search"], None),
        # minutes: alpha-beta, df-pn and the narrowed df-pn side by side, three threads
        (
            ["solve", "4x30k4", "--search", "--threads", "2"],
            None,
            ["solve", "9x9k5", "--search", "--budget", "3e5nodes"],
            None,
        ),
        # the filter, one stone played: minutes
        (["solve", "connect4", "--stdin"], "4\n", ["solve", "connect4", "--stdin"], EASY + "\n"),
        # alpha-beta, minutes
        (
            ["solve", "ultimate", "--max-nodes", "1000000000"],
            None,
            ["solve", "ultimate", "--max-nodes", "1000"],
            None,
        ),
        # minutes a move
        (
            ["match", "ultimate", "--x", "minimax:9", "-n", "100"],
            None,
            ["match", "ultimate", "--x", "minimax:1", "--o", "minimax:1", "-n", "1"],
            None,
        ),
    ],
    ids=["search", "search-side-by-side", "filter", "ultimate", "match"],
)
def test_cli_interrupted_exits_130_with_one_line(tmp_path, args, stdin, warm_args, warm_stdin):
    warm(warm_args, warm_stdin)
    rc, _out, err, seconds = interrupt_cli(args, tmp_path, stdin=stdin)
    assert_interrupted(rc, err, seconds, tmp_path)


def test_cli_takes_sigterm_as_ctrl_c(tmp_path):
    """``kill PID`` stops a long search as Ctrl-C does: one line, exit code 130."""
    warm(["solve", "4x4k4g", "--search"])
    rc, _out, err, seconds = interrupt_cli(
        ["solve", "connect4", "--search"], tmp_path, signum=signal.SIGTERM
    )
    assert_interrupted(rc, err, seconds, tmp_path)


def test_cli_dense_solve_interrupted_leaves_no_file(tmp_path):
    warm(["solve", "3x3k3"])
    target = tmp_path / "t.ttt"
    rc, _out, err, seconds = interrupt_cli(["solve", "5x4k4", "--save", str(target)], tmp_path)
    assert_interrupted(rc, err, seconds, tmp_path)


def test_cli_heuristic_match_interrupted(tmp_path):
    warm(["match", "3x3k3", "--x", "alphabeta:2", "--o", "alphabeta:2", "-n", "1"])
    rc, _out, err, seconds = interrupt_cli(
        ["match", "5x5k4", "--x", "alphabeta:9", "-n", "10"], tmp_path
    )
    assert_interrupted(rc, err, seconds, tmp_path)


def test_cli_play_interrupted_while_the_engine_thinks(tmp_path):
    """Ctrl-C while ``perfect`` searches the first move of Connect Four on 8 columns (no book
    there, minutes of search): the game is abandoned."""
    warm(["solve", "4x4k4g", "--search"])
    rc, out, err, seconds = interrupt_cli(
        ["play", "connect4", "--cols", "8", "--x", "perfect", "--o", "perfect"], tmp_path
    )
    assert rc == 130 and seconds < PROMPT
    assert "Traceback" not in err
    assert "Interrupted" in out + err


# --- in process -------------------------------------------------------------------------


def in_own_process(test):
    """Run ``test`` in a pytest of its own (a fresh interpreter), so that SIGINT sent to the
    process cannot leave this one's libraries half-updated; its output is shown on failure."""

    @functools.wraps(test)
    def run_in_child(*args, **kwargs):
        if os.environ.get(IN_CHILD) == test.__name__:
            return test(*args, **kwargs)
        node = f"{Path(__file__).resolve()}::{test.__name__}"
        child = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", node],
            env={**os.environ, IN_CHILD: test.__name__},
            capture_output=True,
            text=True,
            preexec_fn=answer_ctrl_c,
            timeout=300,
        )
        assert child.returncode == 0, child.stdout + child.stderr
        assert "1 passed" in child.stdout, child.stdout

    return run_in_child


def sigint_when_running(after: float = 0.3) -> threading.Thread:
    """Send SIGINT to this process ``after`` seconds once a kernel runs under
    :func:`fastttt.interrupt.run`. The test compiles that kernel first: SIGINT while Numba
    loads a kernel from its cache can leave Numba's state broken (a segfault was seen)."""

    def send():
        deadline = time.monotonic() + 30
        while not interrupt._running and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(after)
        os.kill(os.getpid(), signal.SIGINT)

    thread = threading.Thread(target=send, daemon=True)
    thread.start()
    return thread


def interrupted(call, after: float = 0.3) -> float:
    """Seconds ``call()`` ran until SIGINT, sent ``after`` seconds into its first kernel,
    stopped it with KeyboardInterrupt."""
    sender = sigint_when_running(after)
    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        call()
    sender.join()
    return time.perf_counter() - t0


@in_own_process
def test_search_interrupted_then_usable():
    spec = mnk(5, 5, 5)
    pos = Position.from_moves(spec, [12, 6, 7, 13, 11, 17, 16, 8])
    fresh = Searcher(spec).solve(pos).score  # the kernel compiled before any SIGINT
    s = Searcher(spec)
    assert interrupted(lambda: s.solve(Position.from_moves(spec, []))) < 5
    assert s.work[nk.S_STOP] == 0
    assert s.solve(pos).score == fresh


def signal_seen_by_the_watcher_only() -> None:
    """What the watcher reads when SIGINT arrives (its byte on the wakeup fd) without Python's
    handler running, as when the main thread has not checked for signals yet."""
    before = interrupt._received
    interrupt._sockets[1].send(bytes([signal.SIGINT]))
    deadline = time.monotonic() + 5
    while interrupt._received == before and time.monotonic() < deadline:
        time.sleep(0.001)
    assert interrupt._received == before + 1


def late_handler_raises_nothing() -> None:
    """Python's handler, run at last for a signal already raised, raises nothing more."""
    signal.getsignal(signal.SIGINT)(signal.SIGINT, None)


def no_interrupt_for(seconds: float) -> None:
    """Python code that a second KeyboardInterrupt for one Ctrl-C would cut."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pass


@in_own_process
def test_one_ctrl_c_raises_one_keyboard_interrupt_whichever_path_sees_it_first():
    spec = mnk(5, 5, 5)
    empty = Position.from_moves(spec, [])  # minutes of search
    s = Searcher(spec)
    s.solve(Position.from_moves(spec, [12, 6, 7, 13, 11, 17, 16, 8]))  # compiled first
    interrupt.watch()
    # the handler is late and no kernel runs: the next kernel does not start
    signal_seen_by_the_watcher_only()
    nodes = s.nodes
    with pytest.raises(KeyboardInterrupt):
        s.solve(empty)
    assert s.nodes == nodes and s.work[nk.S_STOP] == 0
    late_handler_raises_nothing()
    # the handler is late and a kernel runs: the watcher stops it
    sender = threading.Thread(
        target=lambda: (time.sleep(0.3), signal_seen_by_the_watcher_only()), daemon=True
    )
    sender.start()
    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        s.solve(empty)
    sender.join()
    assert time.perf_counter() - t0 < 5 and s.work[nk.S_STOP] == 0
    late_handler_raises_nothing()
    no_interrupt_for(0.3)
    # a real Ctrl-C while a kernel runs: both paths see it, one KeyboardInterrupt
    assert interrupted(lambda: s.solve(empty)) < 5
    no_interrupt_for(0.5)
    assert interrupt.sigint_count() == 3


@in_own_process
def test_a_ctrl_c_python_could_not_raise_is_raised_again():
    """SIGINT whose KeyboardInterrupt lands in a finalizer (Python only reports it, to
    sys.unraisablehook) is sent again and raised in the code that runs next."""
    interrupt.watch()

    class Finalized:
        def __del__(self):
            os.kill(os.getpid(), signal.SIGINT)
            no_interrupt_for(0.5)  # the KeyboardInterrupt is raised here, and cannot leave

    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        Finalized()
        no_interrupt_for(10)
    assert time.perf_counter() - t0 < 5


@in_own_process
def test_filter_interrupted_writes_no_answer_for_the_stopped_line():
    from fastttt.search.connect4 import run_filter

    easy = "2252576253462244111563365343671351441"  # the first End-Easy position

    run_filter("connect4", [easy], io.StringIO(), io.StringIO())  # kernels compiled first
    out, err = io.StringIO(), io.StringIO()
    # the first line takes milliseconds, "4" minutes
    assert interrupted(lambda: run_filter("connect4", [easy, "4"], out, err), 2.0) < 7
    assert out.getvalue().startswith(easy + " ") and out.getvalue().count("\n") == 1
    assert err.getvalue() == ""


@in_own_process
def test_ultimate_engine_interrupted_then_usable():
    engine = Engine(tt_bits=16)
    start = UltimateState()
    Engine(tt_bits=16).search(start, nodes=1000)  # kernels compiled first
    assert interrupted(lambda: engine.search(start, max_depth=30)) < 5
    assert engine.ctl[uk.C_LIMIT] != -1
    rng = random.Random(3)
    state = UltimateState()
    while len(state.legal_moves()) and state.ply < 50:  # near the end: searches prove the value
        state = state.play(rng.choice(state.legal_moves()))
    proof = Engine(tt_bits=16).search(state)
    assert proof.verdict != "estimate"
    assert engine.search(state)[1:3] == proof[1:3]


@in_own_process
def test_dense_solve_interrupted_is_not_kept(monkeypatch):
    """Ctrl-C between the pieces of a solve: ``solved`` keeps only complete tables."""
    spec = mnk(4, 4, 4)
    expected = solver.solve(spec).table
    solver.solve(spec, parallel=True)  # both kernels compiled before any SIGINT
    monkeypatch.setattr(solver, "PIECE_SLOTS", 1 << 12)

    def solve_forever():
        while True:
            cache.forget_solved()
            cache.solved(spec)  # serial: in pieces
            solver.solve(spec, parallel=True)  # parallel: stop word between blocks

    sender = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    sender.start()
    with pytest.raises(KeyboardInterrupt):
        solve_forever()
    sender.join()
    if cache.is_solved(spec):  # stopped between two solves
        assert np.array_equal(cache.solved(spec).table, expected)
    cache.forget_solved()


@in_own_process
def test_heuristic_kernel_stops_on_its_stop_word():
    """The kernel side of ``fastttt.search.heuristic.search`` under Ctrl-C (``stats[2]``)."""
    from fastttt.search.heuristic import _geometry

    masks, geo = _geometry(mnk(5, 5, 4))
    stats = np.zeros(3, dtype=np.int64)
    args = (
        np.uint64(0),
        np.uint64(0),
        0,
        14,
        masks,
        geo,
        hk.OPT_ALPHABETA,
        hk.new_table(0),
        stats,
        np.zeros(64, dtype=np.uint64),
        np.zeros(64, dtype=np.int64),
    )
    stats[hk.STATS_STOP] = 1
    hk.root_kernel(*args)  # compiled, returning at once, before any SIGINT
    stats[:] = 0
    assert (
        interrupted(lambda: interrupt.run(hk.root_kernel, *args, stop=stats, slot=hk.STATS_STOP))
        < 5
    )
    assert stats[hk.STATS_STOP] == 0


# --- the kernels' stop words --------------------------------------------------------------


def test_stopped_kernels_return_at_once():
    """A stop word already set: every kernel returns without doing the work."""
    spec = mnk(5, 5, 5)
    s = Searcher(spec)
    s.work[nk.S_STOP] = 1
    cur, mask, ply = s.internal(Position.from_moves(spec, []))
    nk.solve_kernel(np.uint64(cur), np.uint64(mask), ply, False, s.work, s.tt)
    assert s.nodes < 1000
    assert not s.tt.any()  # nothing stored

    stop = interrupt.new_stop()
    stop[0] = 1
    moves = np.zeros(81, dtype=np.int32)
    visits = np.zeros(81, dtype=np.float64)
    rng = uk.rng_state(1)
    start = UltimateState().array()
    assert uk.mcts(start, 100_000, 1.4, rng, moves, visits, stop) == 0  # no playout
    scores = np.zeros(81, dtype=np.int64)
    coeffs = np.array(Engine().coeffs, dtype=np.int64)
    go = interrupt.new_stop()
    uk.minimax_root(start, 1, coeffs, two_table(), moves, scores, go)  # compiled beforehand
    t0 = time.perf_counter()
    uk.minimax_root(start, 12, coeffs, two_table(), moves, scores, stop)  # hours unstopped
    assert time.perf_counter() - t0 < PROMPT

    pos = Position.from_moves(mnk(5, 5, 4), [])
    from fastttt.search.heuristic import _geometry

    masks, geo = _geometry(pos.spec)
    stats = np.array([0, 0, 1], dtype=np.int64)
    bits = np.zeros(64, dtype=np.uint64)
    vals = np.zeros(64, dtype=np.int64)
    hk.root_kernel(
        np.uint64(0),
        np.uint64(0),
        0,
        12,
        masks,
        geo,
        hk.OPT_ALPHABETA,
        hk.new_table(0),
        stats,
        bits,
        vals,
    )
    assert stats[0] <= 25 * 13  # one path down per root move


def test_dense_pieces_cover_every_block_once_in_order(monkeypatch):
    spec = mnk(4, 4, 4)
    plan = solver._plan(spec)
    expected = solver.solve(spec, parallel=False).table
    monkeypatch.setattr(solver, "PIECE_SLOTS", 1 << 14)
    pieces = solver._pieces(plan.layout, plan.order)
    assert len(pieces) > 10
    assert np.array_equal(np.concatenate(pieces), plan.order)
    for parallel in (False, True):
        assert np.array_equal(solver.solve(spec, parallel=parallel).table, expected)


# --- play: the thinking line and Ctrl-C while an engine thinks ----------------------------


class SlowPlayer:
    name = "slow"

    def __init__(self, seconds: float):
        self.seconds = seconds

    def choose(self, state, rng):
        time.sleep(self.seconds)
        return state.legal_moves()[0]

    def progress(self) -> str:
        return "depth 3"


class InterruptedPlayer:
    name = "stopped"

    def choose(self, state, rng):
        raise KeyboardInterrupt


def test_play_shows_a_thinking_line_only_for_slow_moves(monkeypatch):
    monkeypatch.setattr("fastttt.play.loop.THINKING_DELAY", 0.1)
    pos = Position.from_moves(mnk(3, 3, 3), [0, 1, 2, 3, 4, 5, 7])
    status = io.StringIO()
    play_game(pos, (SlowPlayer(0.4), SlowPlayer(0.4)), show=False, status=status, write=print)
    text = status.getvalue()
    assert "O (slow) is thinking... 0." in text and ", depth 3" in text
    assert text.endswith("\r\x1b[K")  # erased once the move came
    # A move well inside the delay draws nothing (the delay is generous: CI machines stall).
    monkeypatch.setattr("fastttt.play.loop.THINKING_DELAY", 5.0)
    status = io.StringIO()
    play_game(pos, (SlowPlayer(0), SlowPlayer(0)), show=False, status=status, write=print)
    assert status.getvalue() == ""


def test_play_ctrl_c_while_an_engine_thinks_abandons_the_game(monkeypatch):
    monkeypatch.setattr("fastttt.play.loop.THINKING_DELAY", 0.0)
    pos = Position.from_moves(mnk(3, 3, 3), [])
    lines = []
    record = play_game(
        pos,
        (InterruptedPlayer(), SlowPlayer(0)),
        status=io.StringIO(),
        write=lines.append,
        rng=random.Random(0),
    )
    assert record.reason == "interrupt"
    assert lines[-1] == "\nInterrupted: game abandoned."
    assert not [t for t in threading.enumerate() if t.name == "fastttt-thinking"]


def test_silent_match_game_lets_ctrl_c_through():
    pos = Position.from_moves(mnk(3, 3, 3), [])
    with pytest.raises(KeyboardInterrupt):
        play_game(pos, (InterruptedPlayer(), SlowPlayer(0)), show=False, write=print)


class CompilingKernel:
    """A stand-in for a Numba dispatcher whose compilation receives Ctrl-C half-way."""

    def __init__(self):
        self.overloads = {}
        self.compiled = self.called = False

    def typeof_pyval(self, value):
        return type(value)

    def compile(self, signature):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.2)  # Python code: a KeyboardInterrupt would be raised here
        self.overloads[signature] = "compiled"
        self.compiled = True

    def __call__(self, *args):
        self.called = True
        return 0


def test_ctrl_c_while_a_kernel_compiles_is_held_until_it_is_compiled():
    """SIGINT during Numba's compile or cache load is delivered once it is done (a
    KeyboardInterrupt inside the loader crashed it), and the kernel then does not run."""
    kernel = CompilingKernel()
    with pytest.raises(KeyboardInterrupt):
        interrupt.run(kernel, 1, 2.0, stop=interrupt.new_stop())
    assert kernel.compiled and not kernel.called
    assert kernel.overloads == {(int, float): "compiled"}
    assert interrupt.run(kernel, 1, 2.0, stop=interrupt.new_stop()) == 0  # compiled: runs
    assert kernel.called


def test_an_earlier_ctrl_c_does_not_turn_later_errors_into_interrupts(monkeypatch):
    """Only a SIGINT during a command makes its error an interrupt (CliRunner runs many
    commands in one process)."""
    from click.testing import CliRunner

    from fastttt.cli import main

    earlier = interrupt.sigint_count() + 5
    monkeypatch.setattr(interrupt, "_handled", earlier)
    monkeypatch.setattr(interrupt, "_raised", earlier)
    result = CliRunner().invoke(main, ["bench", "--tt-bits", "3"])
    assert result.exit_code == 2 and "tt-bits" in result.output


_TERMINATED = """
import sys
from fastttt import interrupt
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import mnk
from fastttt.search.alphabeta import Searcher
assert interrupt.stop_on_terminate()
spec = mnk(5, 5, 5)
s = Searcher(spec)
s.solve(Position.from_moves(spec, [12, 6, 7, 13, 11, 17, 16, 8]))  # compiled first
print("ready", flush=True)
try:
    s.solve(Position.from_moves(spec, []))  # minutes of search
except KeyboardInterrupt:
    print("stopped", flush=True)
    sys.exit(130)
print("finished", flush=True)
"""


def test_sigterm_stops_a_kernel_as_ctrl_c_does_where_ctrl_c_is_ignored():
    """After stop_on_terminate, in a process started with SIGINT ignored (as ``nohup`` or a
    script's ``&`` start it): SIGINT stays ignored, and SIGTERM stops the running kernel at
    once with a KeyboardInterrupt the program catches."""
    proc = subprocess.Popen(
        [sys.executable, "-c", _TERMINATED],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "ready\n", proc.stderr.read() if proc.stderr else ""
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        time.sleep(1.5)
        assert proc.poll() is None  # ignored
        sent = time.perf_counter()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=PROMPT * 3)
    finally:
        proc.kill()
    assert time.perf_counter() - sent < PROMPT
    assert proc.returncode == 130 and out == "stopped\n", err
    assert "Traceback" not in err
