"""Property tests of the ``fastttt`` command: generated argument lists over every subcommand.

Whatever the arguments, the command exits 0, 1, 2 or 130; a usage error (2) is one line
``Error: ...`` on stderr; no exception escapes (no traceback). Every case is kept quick:
boards of at most 12 cells, small node budgets and game counts, and the commands that always
run a long job (``bench``, ``verify``) only with arguments that they must refuse or ``--help``.
Every file option points inside the example's own folder under ``tmp_path``, which is also the
working directory. About 20 s in all; ``-m slow`` runs many more examples.
"""

from __future__ import annotations

import os
import tempfile

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fastttt.cli import main

FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None
)
LONG = settings(FUZZ, max_examples=1500)
EXITS: list[int] = []

odd_text = st.one_of(
    st.sampled_from(
        [
            "",
            " ",
            "\t",
            "\x00",
            "\x1b[2J",
            "\u3000",
            "\u00a0",
            "\u200b",
            "\r",
            "-1",
            "0",
            "1e9",
            "nan",
            "--json",
            "é",
        ]
    ),
    st.text(max_size=6),
)
small_int = st.one_of(st.integers(-2, 3).map(str), odd_text)
games = st.one_of(
    st.sampled_from(
        [
            "tictactoe",
            "3x3k3",
            "3x4k3",
            "3x3k3g",
            "3x4k3g",
            "2x2k2",
            "mnk",
            "connect",
            "ultimate",
            "ULTIMATE ",
            "nosuchgame",
            "0x3",
            "99x99k5",
        ]
    ),
    odd_text,
)
# the sizes that the game options may give keep boards at 12 cells or fewer
size_options = st.lists(
    st.tuples(st.sampled_from(["--rows", "--cols", "-k"]), small_int), max_size=3
).map(lambda pairs: [x for pair in pairs for x in pair])
paths = st.sampled_from(["a.fttt", "d", "d/x.fttt", ".", "missing/t.fttt", ""])
move_lists = st.one_of(
    st.lists(st.integers(0, 12).map(str), max_size=5).map(",".join),
    st.sampled_from(
        [
            "0 4",
            "4 0",
            "1,,2",
            "12",
            "3,",
            " 1 , 2 ",
            "99999999",
            "\u30001",
            "2,2 1,1",
            "5,5 1",
            "r5c5",
            "1,1,1",
            "4455",
            "0,0",
        ]
    ),
    odd_text,
)
players = st.one_of(
    st.sampled_from(
        [
            "random",
            "human",
            "perfect",
            "heuristic:1",
            "alphabeta:2",
            "minimax:1",
            "engine:n200",
            "mcts:20",
            "alphabeta:0",
            "heuristic",
            "perfekt",
        ]
    ),
    odd_text,
)


small_games = st.sampled_from(["tictactoe", "3x4k3", "3x3k3g", "3x4k3g", "2x2k2", "2x3k2g"])
# moves as the play screen types them: a column (gravity) or row,col, from 1
good_moves = st.lists(
    st.one_of(
        st.integers(1, 4).map(str),
        st.tuples(st.integers(1, 3), st.integers(1, 4)).map(lambda t: f"{t[0]},{t[1]}"),
    ),
    max_size=4,
).map(" ".join)


def _pick(*choices: list[str]) -> st.SearchStrategy[list[str]]:
    """Any subset of ``choices`` (each a list of arguments), flattened."""
    return st.lists(st.sampled_from(choices), max_size=len(choices), unique_by=tuple).map(
        lambda picked: [x for args in picked for x in args]
    )


def _solve_mode_args() -> st.SearchStrategy[list[str]]:
    """Arguments that one mode of ``solve`` reads: mostly accepted, so that the fuzz also
    reaches the solves, searches and filters themselves."""
    table = st.builds(
        lambda g, m, o: ["solve", g, "--moves", m, *o],
        small_games,
        good_moves,
        _pick(
            ["--json"],
            ["--save", "a.fttt"],
            ["--out", "d/o"],
            ["--engine", "layered"],
            ["--engine", "dense"],
            ["--no-symmetry"],
            ["--max-memory", "0.5"],
            ["--force"],
        ),
    )
    stdin = st.builds(
        lambda g, o: ["solve", g, "--stdin", *o],
        small_games,
        _pick(["--weak"], ["--nodes"], ["--all-moves"], ["--json"]),
    )
    search = st.builds(
        lambda g, m, o: ["solve", g, "--search", "--moves", m, *o],
        small_games,
        good_moves,
        _pick(["--json"]),
    )
    ultimate = st.builds(
        lambda m, o: ["solve", "ultimate", "--moves", m, "--max-nodes", "300", *o],
        st.lists(
            st.tuples(st.integers(1, 9), st.integers(1, 9)).map(lambda t: f"{t[0]},{t[1]}"),
            max_size=4,
        ).map(" ".join),
        _pick(["--json"]),
    )
    return st.one_of(table, stdin, search, ultimate)


def _solve_args() -> st.SearchStrategy[list[str]]:
    flags = st.sampled_from(
        [
            "--json",
            "--gravity",
            "--force",
            "--stdin",
            "--all-moves",
            "--weak",
            "--nodes",
            "--search",
            "--resume",
            "--no-symmetry",
            "--symmetry",
        ]
    )
    valued = st.one_of(
        st.tuples(st.just("--save"), paths),
        st.tuples(st.just("--load"), paths),
        st.tuples(st.just("--out"), paths),
        st.tuples(st.just("--moves"), move_lists),
        st.tuples(st.just("--position"), st.one_of(st.just("X../.O./..."), odd_text)),
        st.tuples(st.just("--max-memory"), st.one_of(st.just("0.001"), small_int)),
        st.tuples(st.just("--engine"), st.sampled_from(["auto", "dense", "layered", "x"])),
        st.tuples(st.just("--max-nodes"), st.sampled_from(["1", "200", "0", "x"])),
    )
    options = st.lists(st.one_of(flags.map(lambda f: [f]), valued.map(list)), max_size=4)
    return st.builds(
        lambda g, s, o: ["solve", g, *s, *[x for opt in o for x in opt]],
        games,
        size_options,
        options,
    )


def _play_args(command: str) -> st.SearchStrategy[list[str]]:
    valued = st.one_of(
        st.tuples(st.just("--x"), players),
        st.tuples(st.just("--o"), players),
        st.tuples(st.just("--seed"), small_int),
        st.tuples(st.just("-n"), st.sampled_from(["1", "2", "0", "x"])),
    )
    flags = st.sampled_from(
        ["--hints", "--swap", "--json", "--color", "--no-color", "--gravity", "--no-gravity"]
    )
    options = st.lists(st.one_of(flags.map(lambda f: [f]), valued.map(list)), max_size=4)

    def build(game, sizes, opts):
        args = [command, game, *sizes, *[x for opt in opts for x in opt]]
        if command == "match" and "-n" not in args:
            args += ["-n", "2"]  # the default is 100 games
        for flag in ("--x", "--o") if command == "match" else ("--o",):
            if flag not in args:  # defaults may think for a second a move: too slow here
                args += [flag, "random"]
        return args

    good = st.builds(
        lambda g, x, o, seed: [command, g, "--x", x, "--o", o, "--seed", seed],
        small_games,
        st.sampled_from(["random", "perfect", "alphabeta:2"]),
        st.sampled_from(["random", "heuristic:1", "perfect"]),
        st.integers(0, 9).map(str),
    )
    return st.one_of(
        st.builds(build, games, size_options, options), good.map(lambda a: build(a[1], [], [a[2:]]))
    )


# bench and verify run their whole suite when they accept their arguments: only refusals here
bench_args = st.one_of(
    st.tuples(st.just("--tt-bits"), st.sampled_from(["16", "31", "x", "", "-1", "1e3"])).map(
        lambda t: ["bench", *t]
    ),
    st.lists(st.sampled_from(["--help", "--nope", "extra"]), min_size=1, max_size=2).map(
        lambda a: ["bench", *a]
    ),
)
verify_args = st.lists(
    st.sampled_from(["--help", "--nope", "extra", "-x"]), min_size=1, max_size=2
).map(lambda a: ["verify", *a])


def _render_args() -> st.SearchStrategy[list[str]]:
    outputs = st.sampled_from(["p.svg", "p.png", "d/p.svg", "p.txt", "d", "missing/p.svg", "", "p"])
    valued = st.one_of(
        st.tuples(st.just("--moves"), move_lists),
        st.tuples(st.just("--position"), st.sampled_from(["X../.../...", "XX", "", "\x00"])),
        st.tuples(st.just("--seconds"), st.sampled_from(["0.05", "0", "x", "1e9"])),
        st.tuples(st.just("--cell"), st.sampled_from(["8", "7", "40", "x"])),
    )
    flags = st.sampled_from(["--values", "--no-coordinates", "--json"])
    options = st.lists(st.one_of(flags.map(lambda f: [f]), valued.map(list)), max_size=3)
    return st.tuples(st.one_of(small_games, st.just("ultimate"), games), outputs, options).map(
        lambda t: ["render", t[0], "-o", t[1], "--seconds", "0.05"] + [x for o in t[2] for x in o]
    )  # a fuzzed --seconds wins


def _run(tmp_path, args: list[str], stdin: str) -> None:
    if args[0] == "solve" and args[1].strip().lower() == "ultimate" and "--max-nodes" not in args:
        args = [*args, "--max-nodes", "300"]  # the default budget takes seconds
    before = os.getcwd()
    with tempfile.TemporaryDirectory(dir=tmp_path) as folder:
        os.makedirs(os.path.join(folder, "d"))
        os.chdir(folder)  # relative paths (all of them) land in the example's folder
        try:
            result = CliRunner().invoke(main, args, input=stdin)
        finally:
            os.chdir(before)
        _check(result, args)
    EXITS.append(result.exit_code)


def _check(result, args) -> None:
    context = f"args {args!r}\nstdout {result.stdout!r}\nstderr {result.stderr!r}"
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(context) from result.exception
    assert result.exit_code in (0, 1, 2, 130), context
    assert "Traceback" not in result.output, context
    if result.exit_code == 2:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), context
    elif result.exit_code == 1 and "--stdin" not in args:  # the filter reports line by line
        assert result.stderr.strip().splitlines()[-1].startswith("Error: "), context


stdin_text = st.one_of(
    st.lists(
        st.one_of(move_lists, st.sampled_from(["1,1", "2,2", "q", "4", "X../.../..."])), max_size=4
    ).map(lambda lines: "\n".join(lines) + "\n"),
    st.text(max_size=20),
)


@settings(FUZZ, max_examples=80)  # each example solves or searches: under a second each
@given(args=st.one_of(_solve_args(), _solve_mode_args()), stdin=stdin_text)
def test_solve(tmp_path, args, stdin):
    _run(tmp_path, args, stdin)


@FUZZ
@given(args=st.one_of(_play_args("play"), _play_args("match")), stdin=stdin_text)
def test_play_and_match(tmp_path, args, stdin):
    _run(tmp_path, args, stdin)


@FUZZ
@given(args=st.one_of(bench_args, verify_args))
def test_bench_and_verify_refusals(tmp_path, args):
    _run(tmp_path, args, "")


@FUZZ
@given(args=_render_args())
def test_render(tmp_path, args):
    _run(tmp_path, args, "")


@pytest.mark.slow
@LONG
@given(
    args=st.one_of(
        _solve_args(),
        _solve_mode_args(),
        _play_args("play"),
        _play_args("match"),
        bench_args,
        verify_args,
        _render_args(),
    ),
    stdin=stdin_text,
)
def test_every_command_long(tmp_path, args, stdin):
    _run(tmp_path, args, stdin)
