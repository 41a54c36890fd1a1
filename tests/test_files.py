"""Files users name (pictures, plots; tables in test_store.py): refused targets, atomic writes."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from fastttt.cli import main
from fastttt.errors import OutputFileError
from fastttt.files import check_picture_target, write_atomic


def test_picture_targets_are_checked_before_any_work(tmp_path):
    os.mkfifo(tmp_path / "pipe.svg")
    (tmp_path / "folder.svg").mkdir()
    (tmp_path / "notes.svg").write_text("my notes, not a picture")
    (tmp_path / "old.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"></svg>')
    refused = {
        "pipe.svg": "is a FIFO",
        "folder.svg": "is a directory",
        "notes.svg": "exists and is not a picture",
        "picture.txt": "a picture is written as",
        "missing/x.svg": "no such folder",
    }
    for name, message in refused.items():
        with pytest.raises(OutputFileError, match=message):
            check_picture_target(tmp_path / name, (".svg", ".png"), OutputFileError)
    assert check_picture_target(tmp_path / "old.svg", (".svg",), OutputFileError).exists()
    assert (tmp_path / "notes.svg").read_text() == "my notes, not a picture"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "p.svg"
    target.write_text("<svg>old</svg>")

    def fails(f):
        f.write(b"<svg>half")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, fails, OutputFileError)
    assert target.read_text() == "<svg>old</svg>"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.svg"]
    write_atomic(target, lambda f: f.write(b"<svg>new</svg>"), OutputFileError)
    assert target.read_text() == "<svg>new</svg>"


def test_render_refuses_a_target_that_is_not_a_picture(tmp_path):
    notes = tmp_path / "notes.svg"
    notes.write_text("keep me")
    result = CliRunner().invoke(main, ["render", "tictactoe", "-o", str(notes)])
    assert result.exit_code == 2 and "not a picture" in result.output
    assert notes.read_text() == "keep me"
    out = tmp_path / "board.svg"
    assert (
        CliRunner()
        .invoke(main, ["render", "tictactoe", "--moves", "1,1 2,2", "-o", str(out)])
        .exit_code
        == 0
    )
    assert out.read_text().startswith("<svg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.svg", "notes.svg"]


def test_bench_plot_checks_its_file_before_the_run(tmp_path):
    result = CliRunner().invoke(main, ["bench", "--plot", str(tmp_path / "b.txt")])
    assert result.exit_code == 2 and "a picture is written as" in result.output
    assert "Bench:" not in result.output
    assert list(tmp_path.iterdir()) == []
