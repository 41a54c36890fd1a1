"""Every subcommand's ``--json`` output validates against ``fastttt/data/output.schema.json``.

The subcommands with a ``--json`` option are found in the click group itself, so a new one
fails here until it has examples below (and a definition in the schema)."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

jsonschema = pytest.importorskip("jsonschema")

from fastttt.cli import main  # noqa: E402
from fastttt.cli.output import SCHEMA_VERSION, load_schema  # noqa: E402


def json_commands() -> list[str]:
    """The subcommands of ``fastttt`` that take ``--json``."""
    ctx = click.Context(main)
    found = []
    for name in main.list_commands(ctx):
        command = main.get_command(ctx, name)
        commands = [command]
        if isinstance(command, click.Group):  # fastttt book build ...: the group's name
            commands = [command.get_command(ctx, sub) for sub in command.list_commands(ctx)]
        options = [p for c in commands for p in c.params if isinstance(p, click.Option)]
        if any("--json" in p.opts for p in options):
            found.append(name)
    return found


# command -> (arguments, stdin) of quick runs that cover each shape of its output ("{tmp}":
# a folder of the test; runs of one command share it, in order)
EXAMPLES: dict[str, list[tuple[list[str], str | None]]] = {
    "solve": [
        (["solve", "--json"], None),
        (["solve", "tictactoe", "--moves", "2,2 1,1", "--save", "{tmp}/t.fttt", "--json"], None),
        (["solve", "--load", "{tmp}/t.fttt", "--position", "X../.O./...", "--json"], None),
        (["solve", "--load", "{tmp}/t.fttt", "--stdin", "--json"], "2,2 1,1\nXXX/OOO/...\n\n4,4\n"),
        (["solve", "3x3k3g", "--engine", "layered", "--moves", "2 2", "--json"], None),
        (["solve", "3x3k3g", "--wdl", "--out", "{tmp}/w", "--moves", "2 2", "--json"], None),
        (["solve", "--load", "{tmp}/w", "--stdin", "--json"], "2 2\n2 2 2 2 2 2 2\n"),
        (["solve", "4x4k3", "--search", "--json"], None),
        (["solve", "5x5k5", "--search", "--json"], None),  # pairs
        (["solve", "4x4k3g", "--search", "--moves", "1 2", "--budget", "50nodes", "--json"], None),
        (["solve", "ultimate", "--moves", "5,5 5,1", "--max-nodes", "300", "--json"], None),
        (["solve", "3x3k3g", "--stdin", "--json"], "2\n22\n9\n\n"),
        (
            ["solve", "tictactoe", "--stdin", "--json", "--all-moves", "--nodes", "--weak"],
            "X../.O./...\nXXX/OO./...\nX..\n",
        ),
    ],
    "prove": [
        (["prove", "--moves", "5,5 5,1", "--max-nodes", "200", "--tt-bits", "12", "--json"], None),
        (["prove", "--suite", "--max-nodes", "100", "--tt-bits", "12", "--json"], None),
        (
            ["prove", "--moves", "5,5 5,1", "--split", "1", "--max-nodes", "200"]
            + ["--tt-bits", "12", "--json"],
            None,
        ),
    ],
    "match": [
        (["match", "--x", "random", "--o", "random", "-n", "2", "--seed", "1", "--json"], None),
        (
            ["match", "ultimate", "--x", "random", "--o", "random", "-n", "2", "--swap", "--json"],
            None,
        ),
    ],
    "bench": [(["bench", "--tt-bits", "17", "--json"], None)],
    "book": [
        (["book", "build", "4x4k3g", "--depth", "3", "--out", "{tmp}/b.book", "--json"], None),
        (["book", "build", "4x4k3g", "--depth", "4", "--out", "{tmp}/d.book", "--json"], None),
        (
            ["book", "extend", "{tmp}/d.book", "--lines", "5", "--reuse", "{tmp}/b.book"]
            + ["--json"],
            None,
        ),
    ],
    "count": [
        (["count", "--json"], None),
        (["count", "4x4k4g", "--plies", "6", "--no-symmetry", "--json"], None),
    ],
    "proof": [
        (["proof", "build", "3x4k3g", "--out", "{tmp}/p.proof", "--json"], None),
        (["proof", "check", "{tmp}/p.proof", "--json"], None),
    ],
}


def documents(stdout: str) -> list[dict]:
    """One JSON object (possibly indented), or JSON Lines."""
    text = stdout.strip()
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines()]


@pytest.fixture(scope="module")
def validator():
    schema = load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_every_json_command_has_examples_and_a_definition():
    schema = load_schema()
    commands = json_commands()
    assert {"solve", "prove", "match", "bench"} <= set(commands)
    assert set(commands) == set(EXAMPLES)
    assert set(commands) == set(schema["properties"]["command"]["enum"])
    assert all(name in schema["$defs"] for name in commands)


@pytest.mark.parametrize("command", json_commands())
def test_json_output_follows_the_schema(command, validator, tmp_path):
    seen_engines = set()
    for args, stdin in EXAMPLES[command]:
        args = [a.format(tmp=tmp_path) for a in args]
        result = CliRunner().invoke(main, args, input=stdin)
        assert result.exit_code in (0, 1), (args, result.output)  # 1: a refused filter line
        docs = documents(result.stdout)
        assert docs, args
        for doc in docs:
            errors = [
                f"{'/'.join(map(str, e.path))}: {e.message}" for e in validator.iter_errors(doc)
            ]
            assert not errors, (args, doc, errors)
            assert doc["schema"] == SCHEMA_VERSION and doc["command"] == command
            seen_engines.add(doc.get("engine"))
        if "--stdin" in args:  # JSON Lines: one object per input line, in order
            assert [d["input_line"] for d in docs] == list(range(1, stdin.count("\n") + 1))
    if command == "solve":
        assert seen_engines == {"dense", "layered", "search", "ultimate", "filter", "probe"}


def test_the_schema_rejects_what_it_does_not_describe(validator):
    good = {
        "schema": 1,
        "command": "solve",
        "game": "tictactoe",
        "engine": "filter",
        "input_line": 1,
        "position": "X........",
        "value": "draw",
        "score": 0,
        "weak": False,
    }
    assert validator.is_valid(good)
    assert not validator.is_valid({**good, "schema": 2})
    assert not validator.is_valid({**good, "surprise": 1})
    assert not validator.is_valid({k: v for k, v in good.items() if k != "engine"})
    assert not validator.is_valid({**good, "command": "nope"})


def test_stdin_json_lines_name_refused_lines_and_moves_for_people():
    result = CliRunner().invoke(
        main, ["solve", "3x3k3g", "--stdin", "--json", "--all-moves"], input="2\n9\n"
    )
    first, refused = documents(result.stdout)
    assert result.exit_code == 1
    assert first["position"] == "2" and [m["move"] for m in first["move_scores"]] == ["1", "2", "3"]
    assert refused["input_line"] == 2 and "9" in refused["error"] and refused["value"] is None
    assert "line 2:" in result.stderr  # the error stream still says it


@pytest.mark.parametrize(
    "game, moves, best_in",
    [
        ("tictactoe", ["2,2", "1,1"], {"1,2", "1,3", "2,1", "2,3", "3,1", "3,2", "3,3"}),
        ("3x4k3g", ["2", "2"], {"1", "2", "3", "4"}),
    ],
)
def test_json_moves_read_back_as_moves(game, moves, best_in):
    """What --json prints as a move, --moves reads: one numbering for people."""
    result = CliRunner().invoke(main, ["solve", game, "--moves", " ".join(moves), "--json"])
    assert result.exit_code == 0, result.output
    query = json.loads(result.stdout)["query"]
    assert query["moves"] == moves and set(query["best_moves"]) <= best_in
    again = CliRunner().invoke(
        main, ["solve", game, "--moves", " ".join([*moves, query["best_moves"][0]]), "--json"]
    )
    assert again.exit_code == 0, again.output


def test_ultimate_json_moves_are_board_cell_from_1():
    result = CliRunner().invoke(
        main, ["solve", "ultimate", "--moves", "5,5 5,1", "--json", "--max-nodes", "300"]
    )
    out = json.loads(result.stdout)
    assert out["moves"] == ["5,5", "5,1"]
    (best,) = out["best_moves"]
    assert best.startswith("1,")  # 5,1 sends X to board 1
