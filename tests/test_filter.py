"""The line filter read in chunks (:mod:`fastttt.filter`) and its Connect Four kernels
(:mod:`fastttt.kernels.movelines`): the same lines answered and refused, with the same
messages, whether they come as a list, a text stream, a binary stream cut anywhere, or one by
one from a terminal or a program that waits for each answer.
"""

from __future__ import annotations

import io
import os
import select
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fastttt import filter as lf
from fastttt.errors import FastTTTError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import connect4, mnk
from fastttt.kernels import movelines as ml
from fastttt.search.alphabeta import Searcher, move_scores
from fastttt.search.connect4 import _parse_line, from_move_string, run_filter

GRAVITY = mnk(4, 4, 3, gravity=True)
FUZZ = settings(
    max_examples=200, deadline=None, suppress_health_check=list(HealthCheck), database=None
)
ODD = [
    "\x00",
    "\x1f",
    "\x7f",
    "\x85",
    "\u00a0",
    "\u3000",
    "\ufeff",
    "\t",
    " ",
    "\r",
    "\n",
    "\r\n",
    "\v",
    "é",
    "\udcff",
    "\ud800",
]
lines = st.lists(
    st.builds(
        lambda moves, odd, where, tail: moves[:where] + odd + moves[where:] + tail,
        st.text(alphabet="123456", max_size=12),
        st.sampled_from(["", *ODD]),
        st.integers(0, 12),
        st.sampled_from(["", "\n", "\r\n", "\r", " 7", "\t-1\n"]),
    ),
    max_size=8,
)


def filtered(spec, source, **options) -> tuple[str, str, int]:
    out, err = io.StringIO(), io.StringIO()
    bad = run_filter(spec, source, out, err, **options)
    return out.getvalue(), err.getvalue(), bad


def as_stream(text_lines: list[str]) -> io.TextIOWrapper:
    """The lines as a text stream over bytes (as ``sys.stdin``): each string one line."""
    data = "".join(line if line.endswith("\n") else line + "\n" for line in text_lines)
    return io.TextIOWrapper(
        io.BytesIO(data.encode("utf-8", "surrogateescape")),
        encoding="utf-8",
        errors="surrogateescape",
    )


@FUZZ
@given(lines=lines)
def test_the_kernel_refuses_exactly_what_python_refuses(lines):
    s = Searcher(GRAVITY)
    chunk = lf.Chunk.from_lines(lines, 1)
    n = len(chunk)
    curs, masks = np.zeros(n, np.uint64), np.zeros(n, np.uint64)
    plies, field_ends, ok = np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.bool_)
    ml.parse_lines(chunk.array, chunk.starts, s.work, curs, masks, plies, field_ends, ok)
    for i, line in enumerate(lines):
        try:
            pos = _parse_line(GRAVITY, line)
            good = not pos.is_over()
        except FastTTTError:
            good = False
        assert ok[i] == good, line
        if good:
            assert (int(curs[i]), int(masks[i]), int(plies[i])) == s.internal(pos)
            field = lf.position_field(line).encode()
            assert chunk.data[chunk.starts[i] : field_ends[i]] == field


@FUZZ
@given(lines=lines, weak=st.booleans(), all_moves=st.booleans())
def test_a_stream_is_answered_as_a_list(lines, weak, all_moves):
    # one line each, and bytes a stream can hold (a lone surrogate other than \udcXX cannot)
    lines = [line.removesuffix("\n") for line in lines]
    lines = [line for line in lines if "\n" not in line and "\ud800" not in line]
    expected = filtered(GRAVITY, [line + "\n" for line in lines], weak=weak, all_moves=all_moves)
    assert filtered(GRAVITY, as_stream(lines), weak=weak, all_moves=all_moves) == expected


def test_chunks_cut_anywhere(monkeypatch):
    lines = [
        "4455",
        "",
        "44455554221 -15",
        "8",
        " 4",
        "44\r55",
        "4455\r",
        "1212121",
        "é",
        "4455\t18",
        "\udcff12",
        "23",
        "1" * 300,
        "3344",
    ] * 3
    stream_lines = [line + "\n" for line in lines]
    expected = filtered(GRAVITY, stream_lines)
    for size in (1, 2, 3, 7, 64, 1 << 16):
        monkeypatch.setattr(lf, "CHUNK_BYTES", size)
        assert filtered(GRAVITY, as_stream(lines)) == expected, size
    monkeypatch.setattr(lf, "CHUNK_LINES", 4)
    assert filtered(GRAVITY, stream_lines) == expected
    assert filtered(GRAVITY, iter(stream_lines)) == expected


def test_line_endings_and_the_last_line():
    from fastttt.search.alphabeta import solve_position

    raw = b"4433\r\n33\n44\r33\n12\r"  # a lone \r ends no line; the last line has no \n
    out, err, bad = filtered(GRAVITY, io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
    score = {m: solve_position(from_move_string(GRAVITY, m)).score for m in ("4433", "33", "12")}
    assert out.split("\n")[:-1] == [
        f"4433 {score['4433']}",
        f"33 {score['33']}",
        "",
        f"12 {score['12']}",
    ]
    assert err == "line 3: column 3: '\\r' is not printable ASCII\n" and bad == 1


def test_bytes_that_are_not_utf8_are_refused_with_the_line_number():
    raw = b"12\n\xff12\n\xc3\xa9\n21\n"
    for errors in ("strict", "surrogateescape"):
        source = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", errors=errors)
        out, err, bad = filtered(GRAVITY, source)
        assert bad == 2 and out.split("\n")[1:3] == ["", ""]
        assert err.splitlines() == [
            "line 2: column 1: '\\udcff' is not printable ASCII",
            "line 3: column 1: 'é' is not printable ASCII",
        ]


def test_a_terminal_is_read_line_by_line():
    class Terminal(io.BytesIO):
        def isatty(self):
            return True

    source = io.TextIOWrapper(Terminal(b"12\n21\n3"), encoding="utf-8")
    chunks = list(lf.read_chunks(source))
    assert [len(c) for c in chunks] == [1, 1, 1]
    assert [c.first for c in chunks] == [1, 2, 3] and chunks[2].line(0) == "3"


def test_all_moves_match_move_scores():
    spec = mnk(4, 5, 4, gravity=True)
    rng = np.random.default_rng(5)
    positions = []
    for _ in range(12):
        moves = "".join(str(c) for c in rng.integers(1, 6, size=rng.integers(0, 9)))
        try:
            pos = from_move_string(spec, moves)
        except FastTTTError:
            continue
        if not pos.is_over():
            positions.append((moves, pos))
    for weak in (False, True):
        out, err, bad = filtered(spec, [m for m, _ in positions], all_moves=True, weak=weak)
        assert bad == 0 and err == ""
        for (moves, pos), line in zip(positions, out.splitlines(), strict=True):
            scores = move_scores(pos, weak=weak)
            assert line.split(" ") == [moves] + [
                str(scores[c]) if c in scores else "-" for c in range(spec.cols)
            ]


def test_a_program_that_waits_for_each_answer_gets_it():
    # a pipe, not a terminal: the filter must answer what it has read without waiting for
    # a full chunk (or for the end of its input)
    proc = subprocess.Popen(
        [sys.executable, "-m", "fastttt", "solve", "connect4", "--stdin"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        for line, answer in [
            (b"4455\n", b"4455 18\n"),
            (b"8\n", b"\n"),
            (b"44455554221\n", b"44455554221 -15\n"),
        ]:
            proc.stdin.write(line)
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 300)  # a cold cache compiles
            assert ready, f"no answer to {line!r}"
            assert os.read(proc.stdout.fileno(), 100) == answer
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    assert proc.stderr.read().decode().splitlines() == ["line 2: move 1 ('8') is not a column 1..7"]


@pytest.mark.parametrize(
    "spec, plies", [(GRAVITY, (4, 9)), (connect4, (22, 31))], ids=["4x4k3g", "connect4"]
)
def test_weak_is_the_sign_of_exact(spec, plies):
    # on Connect Four weak mode also searches fewer nodes in all (not always per position:
    # its first probes are not exactly the exact mode's)
    rng = np.random.default_rng(3)
    s = Searcher(spec)
    nodes = {False: 0, True: 0}
    found = 0
    while found < 40:
        moves = rng.integers(1, spec.cols + 1, size=rng.integers(*plies))
        try:
            pos = from_move_string(spec, "".join(map(str, moves)))
        except FastTTTError:
            continue
        if pos.is_over():
            continue
        found += 1
        results = {}
        for weak in (False, True):
            s.reset()
            results[weak] = s.solve(pos, weak=weak)
            nodes[weak] += results[weak].nodes
        exact = results[False].score
        assert results[True].score == (exact > 0) - (exact < 0), str(pos)
    if spec == connect4:
        assert nodes[True] <= nodes[False]


@pytest.mark.parametrize(
    "spec", [mnk(3, 5, 3, gravity=True), mnk(5, 3, 3, gravity=True), mnk(3, 3, 3)], ids=str
)
def test_scores_follow_the_benchmark_formula_on_odd_boards(spec):
    """Issue 23: a win on move n scores (cells + 2 - n) // 2, the benchmark solver's formula
    (second-player wins on odd boards score one less than score_base - s)."""
    from naive import benchmark_score_naive

    rng = np.random.default_rng(3)
    positions, lines = [], []
    while len(positions) < 60:
        pos, played = Position.empty(spec), []
        for _ in range(int(rng.integers(0, spec.cells - 2))):
            moves = pos.legal_moves()
            played.append(moves[int(rng.integers(len(moves)))])
            pos = pos.play(played[-1])
            if pos.is_over():
                break
        if not pos.is_over():
            positions.append(pos)
            text = "".join(str(c + 1) for c in played) if spec.gravity else str(pos)
            lines.append(text + "\n")
    memo: dict[int, int] = {}
    out, err, bad = filtered(spec, lines)
    assert bad == 0, err
    answered = [int(line.split(" ")[1]) for line in out.splitlines()]  # "" is the empty board
    assert answered == [benchmark_score_naive(p, memo) for p in positions]
    out, err, bad = filtered(spec, lines, all_moves=True)
    for line, p in zip(out.splitlines(), positions, strict=True):
        fields = line.split(" ")[1:]
        best = max(int(f) for f in fields if f != "-")
        assert best == benchmark_score_naive(p, memo)


def test_all_moves_of_one_position_from_the_command_line():
    """Issue 20, item 4: solve --all-moves --moves M scores every move of one position."""
    import json

    from click.testing import CliRunner

    from fastttt.cli import main

    result = CliRunner().invoke(
        main, ["solve", "connect4", "--all-moves", "--moves", "4 4 5 5", "--json"]
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    pos = from_move_string(connect4, "4455")
    expected = move_scores(pos)
    assert {int(m["move"]) - 1: m["score"] for m in out["move_scores"]} == expected
    assert out["value"] == "win" and out["position"] == "4455"
    text = CliRunner().invoke(main, ["solve", "4x4k3", "--all-moves", "--moves", "2,2"])
    assert text.exit_code == 0 and text.stdout.startswith("..../.X../..../.... ")
    for args, words in [
        (["connect4", "--all-moves", "--search"], "drop --search"),
        (["connect4", "--all-moves", "--moves", "44", "--budget", "1s"], "drop --budget"),
        (["4x10k4g", "--all-moves", "--moves", "1"], "at most 9 columns"),
        (["tictactoe", "--all-moves", "--moves", "1,1 2,1 1,2 2,2 1,3"], "already over"),
    ]:
        refused = CliRunner().invoke(main, ["solve", *args])
        assert refused.exit_code == 2 and words in refused.stderr, (args, refused.stderr)
