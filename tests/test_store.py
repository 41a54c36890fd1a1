"""Table files: round trip, atomic writes, and refusal of damaged or mismatched files."""

import json
import os
import stat
import struct
import threading
import zlib

import numpy as np
import pytest

from fastttt import mnk
from fastttt.errors import TableFileError
from fastttt.tables.dense import solve
from fastttt.tables.dense_store import (
    FORMAT_VERSION,
    MAGIC,
    check_save_target,
    load,
    read_header,
    save,
)


@pytest.fixture(scope="module")
def solution():
    return solve(mnk(3, 4, 3, gravity=True))


def test_round_trip(tmp_path, solution):
    path = save(solution, tmp_path / "t.fttt")
    loaded = load(path, mnk(3, 4, 3, gravity=True))
    assert loaded.spec == solution.spec
    assert np.array_equal(loaded.table, solution.table)
    assert loaded.summary()["values"] == solution.summary()["values"]
    assert read_header(path)["counts"] == solution.counts()
    assert [p.name for p in tmp_path.iterdir()] == ["t.fttt"]  # no temporary file left


def _failing_fsync(fd):
    raise OSError("io error")


def test_failed_write_leaves_no_file(tmp_path, solution, monkeypatch):
    monkeypatch.setattr("os.fsync", _failing_fsync)
    with pytest.raises(OSError, match="io error"):
        save(solution, tmp_path / "t.fttt")
    assert list(tmp_path.iterdir()) == []


def test_failed_overwrite_keeps_the_old_file(tmp_path, solution, monkeypatch):
    path = save(solution, tmp_path / "t.fttt")
    before = path.read_bytes()
    monkeypatch.setattr("os.fsync", _failing_fsync)
    with pytest.raises(OSError):
        save(solution, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["t.fttt"]


def _corrupt(path, offset_from_end, data=b"\x7f"):
    raw = bytearray(path.read_bytes())
    raw[len(raw) - offset_from_end] ^= data[0]
    path.write_bytes(bytes(raw))


def test_damaged_payload_is_refused(tmp_path, solution):
    path = save(solution, tmp_path / "t.fttt")
    _corrupt(path, 10)
    with pytest.raises(TableFileError, match="checksum"):
        load(path)


def test_truncated_file_is_refused(tmp_path, solution):
    path = save(solution, tmp_path / "t.fttt")
    path.write_bytes(path.read_bytes()[:-5])
    with pytest.raises(TableFileError, match="truncated"):
        load(path)


def test_wrong_game_and_version_and_magic(tmp_path, solution):
    path = save(solution, tmp_path / "t.fttt")
    with pytest.raises(TableFileError, match="expected tictactoe"):
        load(path, "tictactoe")
    raw = path.read_bytes()
    (length,) = struct.unpack("<I", raw[8:12])
    header = json.loads(raw[12 : 12 + length])
    header["format"] = 99
    blob = json.dumps(header).encode()
    rest = raw[12 + length :]
    (tmp_path / "v.fttt").write_bytes(MAGIC + struct.pack("<I", len(blob)) + blob + rest)
    with pytest.raises(TableFileError, match="format 99"):
        load(tmp_path / "v.fttt")
    (tmp_path / "m.fttt").write_bytes(b"NOTATABLE" + raw)
    with pytest.raises(TableFileError, match="not a fastttt table"):
        load(tmp_path / "m.fttt")
    with pytest.raises(TableFileError, match="no such file"):
        load(tmp_path / "missing.fttt")


def _header(header: dict) -> dict:
    full = {"format": FORMAT_VERSION, "name": "x", "seconds": 0.0, "counts": {}}
    full.update(header)
    return full


@pytest.mark.parametrize(
    "header",
    [
        [1, 2],
        _header(
            {
                "game": {"rows": 7, "cols": 7, "k": 4, "gravity": False},
                "name": "mnk(rows=7,cols=7,k=4)",
                "slots": 10,
            }
        ),
        _header({"game": {"rows": 3, "cols": 3, "k": 3, "gravity": False}, "slots": 10}),
    ],
    ids=["list", "huge-game", "wrong-name"],
)
def test_hand_made_headers_are_refused_without_building_a_layout(tmp_path, header):
    blob = json.dumps(header).encode()
    path = tmp_path / "h.fttt"
    path.write_bytes(MAGIC + struct.pack("<I", len(blob)) + blob + b"\0" * 10)
    with pytest.raises(TableFileError, match="damaged header|do not match"):
        load(path)


# --- issue 10: the checksum covers the header; the game is checked -----------------------
@pytest.fixture(scope="module")
def free34():
    return solve(mnk(3, 4, 3))


def test_header_edited_to_another_k_is_refused(tmp_path, free34):
    """The issue's one-bit attack: "k": 3 -> "k": 2 in a saved 3x4 k=3 table."""
    path = save(free34, tmp_path / "t.fttt")
    raw = path.read_bytes()
    assert raw.count(b'"k": 3') == 1
    edited = tmp_path / "edited.fttt"
    edited.write_bytes(raw.replace(b'"k": 3', b'"k": 2'))
    for expected in (None, mnk(3, 4, 2), mnk(3, 4, 3)):
        with pytest.raises(TableFileError, match="damaged header|checksum mismatch"):
            load(edited, expected)
    assert load(path, mnk(3, 4, 3)).spec == mnk(3, 4, 3)


def test_header_edited_with_a_matching_name_is_refused(tmp_path, free34):
    path = save(free34, tmp_path / "t.fttt")
    raw = path.read_bytes()
    edited = tmp_path / "edited.fttt"
    (length,) = struct.unpack("<I", raw[8:12])
    header = json.loads(raw[12 : 12 + length])
    header["game"]["k"], header["name"] = 2, "mnk(rows=3,cols=4,k=2)"
    blob = json.dumps(header, sort_keys=True).encode()
    edited.write_bytes(MAGIC + struct.pack("<I", len(blob)) + blob + raw[12 + length :])
    with pytest.raises(TableFileError, match="checksum mismatch"):
        load(edited)


def _format_1_file(path, solution):
    """A table as fastttt 0.2 wrote it: CRC-32 of the body in the header, no trailer."""
    spec = solution.spec
    header = {
        "format": 1,
        "crc32": zlib.crc32(solution.table.tobytes()),
        "game": {"rows": spec.rows, "cols": spec.cols, "k": spec.k, "gravity": spec.gravity},
        "name": spec.name,
        "slots": int(solution.table.shape[0]),
        "seconds": 0.1,
        "counts": solution.counts(),
    }
    blob = json.dumps(header, sort_keys=True).encode()
    path.write_bytes(MAGIC + struct.pack("<I", len(blob)) + blob + solution.table.tobytes())


def test_format_1_files_are_refused_with_a_re_solve_message(tmp_path, free34):
    path = tmp_path / "old.fttt"
    _format_1_file(path, free34)
    with pytest.raises(TableFileError, match=r"table format 1, .*solve the game again"):
        load(path)


def test_another_game_is_refused_after_the_checksum(tmp_path, free34):
    path = save(free34, tmp_path / "t.fttt")
    with pytest.raises(
        TableFileError,
        match=r"holds mnk\(rows=3,cols=4,k=3\), expected "
        "tictactoe",
    ):
        load(path, "tictactoe")


def test_trailing_bytes_are_refused(tmp_path, free34):
    path = save(free34, tmp_path / "t.fttt")
    path.write_bytes(path.read_bytes() + b"\0")
    with pytest.raises(TableFileError, match="extra bytes"):
        load(path)


# --- issue 10: saving refuses what it must not clobber ------------------------------------
def test_save_refuses_a_fifo_and_leaves_it_a_fifo(tmp_path, free34):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(TableFileError, match="is a FIFO"):
        save(free34, fifo)
    with pytest.raises(TableFileError, match="is a FIFO"):
        save(free34, fifo, force=True)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_save_refuses_a_link_to_a_fifo(tmp_path, free34):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "link.fttt"
    link.symlink_to(fifo)
    with pytest.raises(TableFileError, match="is a FIFO"):
        save(free34, link, force=True)
    assert link.is_symlink() and stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_save_refuses_a_directory(tmp_path, free34):
    folder = tmp_path / "d"
    folder.mkdir()
    with pytest.raises(TableFileError, match="is a directory"):
        save(free34, folder, force=True)
    assert folder.is_dir() and list(folder.iterdir()) == []


def test_save_refuses_a_file_that_is_not_a_table_unless_forced(tmp_path, free34):
    path = tmp_path / "notes.txt"
    path.write_text("my notes\n")
    with pytest.raises(TableFileError, match="not a fastttt table.*--force"):
        save(free34, path)
    assert path.read_text() == "my notes\n"
    save(free34, path, force=True)
    assert load(path).spec == free34.spec


def test_save_overwrites_a_table(tmp_path, free34, solution):
    path = save(solution, tmp_path / "t.fttt")
    save(free34, path)
    assert load(path).spec == free34.spec


def test_save_through_a_link_replaces_the_table_it_names_and_keeps_the_link(
    tmp_path, free34, solution
):
    (tmp_path / "tables").mkdir()
    table = save(solution, tmp_path / "tables" / "v1.fttt")
    link = tmp_path / "latest.fttt"
    link.symlink_to(table)
    assert save(free34, link) == table
    assert link.is_symlink() and os.readlink(link) == str(table)
    assert load(table).spec == free34.spec and load(link).spec == free34.spec
    notes = tmp_path / "notes.txt"
    notes.write_text("keep me")
    link.unlink()
    link.symlink_to(notes)
    with pytest.raises(TableFileError, match="not a fastttt table"):
        save(free34, link)
    assert link.is_symlink() and notes.read_text() == "keep me"


def test_save_refuses_a_link_to_nothing_and_leaves_it(tmp_path, free34):
    link = tmp_path / "t.fttt"
    link.symlink_to(tmp_path / "nowhere.fttt")
    with pytest.raises(TableFileError, match="a symbolic link to .*nowhere.fttt, which does not"):
        save(free34, link, force=True)
    assert link.is_symlink() and sorted(p.name for p in tmp_path.iterdir()) == ["t.fttt"]


@pytest.mark.parametrize("where", ["missing/t.fttt", "file/t.fttt"])
def test_save_names_the_missing_folder_not_a_temp_file(tmp_path, free34, where):
    (tmp_path / "file").write_text("x")
    target = tmp_path / where
    with pytest.raises(TableFileError) as err:
        check_save_target(target)
    assert str(target.parent) in str(err.value) and ".tmp" not in str(err.value)
    with pytest.raises(TableFileError, match="cannot write t.fttt"):
        save(free34, target)


def test_save_cleans_its_stale_temp_files(tmp_path, free34):
    dead = tmp_path / "t.fttt.tmp999999999"  # above any pid_max: no such process
    alive = tmp_path / "t.fttt.tmp1"  # init is alive: its file is left alone
    other = tmp_path / "u.fttt.tmp999999999"
    for p in (dead, alive, other):
        p.write_bytes(b"partial")
    save(free34, tmp_path / "t.fttt")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["t.fttt", alive.name, other.name])


def test_load_refuses_a_fifo_without_blocking(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    outcome = []

    def attempt():
        try:
            load(fifo)
        except BaseException as err:  # noqa: BLE001 - reported below
            outcome.append(err)

    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(10)
    if thread.is_alive():  # the old code blocks in open(): a writer lets it go
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(10)
        pytest.fail("load() of a FIFO blocked")
    assert len(outcome) == 1 and isinstance(outcome[0], TableFileError)
    assert "is a FIFO" in str(outcome[0])
    with pytest.raises(TableFileError, match="is a FIFO"):
        read_header(fifo)
