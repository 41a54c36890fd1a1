"""Table files: round trip, atomic writes, and refusal of damaged or mismatched files."""

import json
import struct

import numpy as np
import pytest

from fastttt import mnk
from fastttt.errors import TableFileError
from fastttt.solver import solve
from fastttt.store import MAGIC, load, read_header, save


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


@pytest.mark.parametrize(
    "header",
    [[1, 2], {"format": 1, "game": {"rows": 7, "cols": 7, "k": 4, "gravity": False},
              "slots": 10, "crc32": 0}],
    ids=["list", "huge-game"],
)
def test_hand_made_headers_are_refused_without_building_a_layout(tmp_path, header):
    blob = json.dumps(header).encode()
    path = tmp_path / "h.fttt"
    path.write_bytes(MAGIC + struct.pack("<I", len(blob)) + blob + b"\0" * 10)
    with pytest.raises(TableFileError, match="damaged header|do not match"):
        load(path)
