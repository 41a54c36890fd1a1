"""Fuzz of the table loader (issue 10): a damaged table file never loads as another table.

Random bit flips, truncations, appended bytes and header edits of a small saved table either
raise :class:`fastttt.errors.TableFileError` or load the identical table; no other exception
type escapes. Every file lives in the test's own temporary folder. A few seconds in all;
``-m slow`` runs 30 times as many examples.
"""

import json
import struct

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fastttt import mnk
from fastttt.errors import TableFileError
from fastttt.tables.dense import solve
from fastttt.tables.dense_store import load, read_header, save

from fuzzing import fuzz, long_run

FUZZ = fuzz(500)
SPEC = mnk(3, 3, 3)


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """(folder, original bytes, solution, header length) of a saved tic-tac-toe table."""
    folder = tmp_path_factory.mktemp("fuzz")
    solution = solve(SPEC)
    raw = save(solution, folder / "orig.fttt").read_bytes()
    (length,) = struct.unpack("<I", raw[8:12])
    return folder, raw, solution, length


def _check(folder, data: bytes, solution) -> None:
    """Load ``data`` as a file: refused with TableFileError, or the very same table."""
    path = folder / "case.fttt"
    path.write_bytes(data)
    for expected in (None, SPEC, mnk(3, 3, 2)):
        try:
            loaded = load(path, expected)
        except TableFileError:
            continue
        assert loaded.spec == solution.spec
        assert np.array_equal(loaded.table, solution.table)
    try:
        read_header(path)
    except TableFileError:
        pass


positions = st.integers(0, 2**16)  # reduced modulo the file size: the header is often hit


@FUZZ
@given(
    flips=st.lists(st.tuples(positions, st.integers(0, 7)), min_size=1, max_size=4),
    in_header=st.booleans(),
)
def test_bit_flips(saved, flips, in_header):
    folder, raw, solution, length = saved
    data = bytearray(raw)
    span = 12 + length if in_header else len(data)
    for pos, bit in flips:
        data[pos % span] ^= 1 << bit
    _check(folder, bytes(data), solution)


@FUZZ
@given(cut=positions, tail=st.binary(max_size=8))
def test_truncations_and_appended_bytes(saved, cut, tail):
    folder, raw, solution, _ = saved
    _check(folder, raw[: cut % (len(raw) + 1)] + tail, solution)


header_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 70),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.text(max_size=6),
    st.lists(st.integers(0, 9), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(0, 9), max_size=2),
)
header_keys = st.sampled_from(
    [
        "format",
        "game",
        "name",
        "slots",
        "seconds",
        "counts",
        "extra",
        "game.rows",
        "game.cols",
        "game.k",
        "game.gravity",
        "game.extra",
    ]
)


@FUZZ
@given(
    edits=st.lists(st.tuples(header_keys, header_values), min_size=1, max_size=3),
    fix_length=st.booleans(),
)
def test_header_edits(saved, edits, fix_length):
    folder, raw, solution, length = saved
    header = json.loads(raw[12 : 12 + length])
    for key, value in edits:
        where, _, sub = key.partition(".")
        if sub and isinstance(header.get(where), dict):
            header[where][sub] = value
        elif not sub:
            header[where] = value
    blob = json.dumps(header, sort_keys=True).encode()
    size = len(blob) if fix_length else length
    _check(folder, raw[:8] + struct.pack("<I", size) + blob + raw[12 + length :], solution)


@pytest.mark.parametrize(
    "old, new",
    [
        (b'"k": 3', b'"k": 2'),
        (b'"rows": 3', b'"rows": 1'),
        (b'"gravity": false', b'"gravity": true '),
    ],
)
def test_same_length_header_edits(saved, old, new):
    folder, raw, solution, _ = saved
    assert raw.count(old) == 1
    _check(folder, raw.replace(old, new), solution)
    with pytest.raises(TableFileError):
        load(folder / "case.fttt")


@pytest.mark.slow
def test_long_fuzz():
    """The properties above with 30 times the examples."""
    long_run(__file__)
