"""df-pn snapshots (:mod:`fastttt.search.dfpn_snapshot`): a searcher loaded from a file goes on
node for node as the saving searcher would have, and files of another searcher, damaged or not
snapshots at all are refused with a message that names what differs."""

from __future__ import annotations

import numpy as np
import pytest

from fastttt.errors import InvalidArgumentError, TableFileError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import as_spec
from fastttt.kernels import dfpn as K
from fastttt.search.dfpn import ProofSearch
from fastttt.search.dfpn_snapshot import (
    MAGIC,
    load_snapshot,
    open_snapshot,
    read_snapshot_header,
    save_snapshot,
    settings,
)

NARROWED = dict(
    zone_nodes=64,
    threat_nodes=16,
    dependent_threats=True,
    threat_probe_search="df-pn",
    zone_probe_search="short-first",
)


def _answer(search: ProofSearch, r) -> tuple:
    return (
        r.proven,
        r.nodes,
        r.phi,
        r.delta,
        search.nodes,
        search.threat_probe_nodes,
        search.zone_cuts,
        search.zone_moves_pruned,
        search.zone_cache_hits,
    )


@pytest.mark.parametrize(
    "game, moves, kwargs, reach, first, then",
    [
        ("5x5k4", [], {}, 0, 1_500, 20_000),
        ("6x6k4", [], NARROWED, 2, 400, 20_000),
    ],
    ids=["plain", "narrowed"],
)
def test_a_loaded_snapshot_goes_on_as_the_saver_would(
    game, moves, kwargs, reach, first, then, tmp_path
):
    """One searcher asks ``first`` nodes then ``then`` more; another asks the first part, is
    saved, and a fresh searcher loaded from the file asks the rest: the same answers, node
    counts, probe and zone counters, and tables."""
    spec = as_spec(game)
    pos = Position.from_moves(spec, moves)
    attacker = pos.to_move

    def ask(search, nodes):
        return search.prove(pos, attacker, max_nodes=nodes, line=False, attacker_reach=reach)

    straight = ProofSearch(spec, tt_bits=16, **kwargs)
    head = ask(straight, first)
    assert head.proven is None  # the snapshot is taken mid-proof
    halfway = _answer(straight, head)
    whole = _answer(straight, ask(straight, then))

    saver = ProofSearch(spec, tt_bits=16, **kwargs)
    assert _answer(saver, ask(saver, first)) == halfway
    path = save_snapshot(saver, tmp_path / "run.dfpn", info={"cpu": 1.5})
    resumed = ProofSearch(spec, tt_bits=16, **kwargs)
    header = load_snapshot(resumed, path)
    assert header["nodes"] == saver.nodes > 0 and header["info"] == {"cpu": 1.5}
    assert np.array_equal(resumed.tt, saver.tt) and np.array_equal(resumed.ctl, saver.ctl)
    assert resumed.nodes == saver.nodes
    assert _answer(resumed, ask(resumed, then)) == whole
    assert whole[0] is not None  # and the rest settles it
    assert np.array_equal(resumed.tt, straight.tt)
    assert np.array_equal(resumed.zone_cache, straight.zone_cache)


def test_a_larger_table_takes_every_row_of_a_smaller_snapshot(tmp_path):
    """Loaded into 2**16 rows, a snapshot of 2**12 gives the same numbers for every position
    it held, the same zones and control words (but the table size), and the question goes on
    to the value the searcher that kept its small table finds."""
    spec = as_spec("5x5k4")
    pos = Position.from_moves(spec, [])

    def ask(search, nodes):
        return search.prove(pos, 0, max_nodes=nodes, line=False)

    small = ProofSearch(spec, tt_bits=12, **NARROWED)
    assert ask(small, 20_000).proven is None
    rows = int(np.count_nonzero(small.tt[:, 0]))
    assert rows > 3_900  # the 4,096 rows are nearly all taken
    path = save_snapshot(small, tmp_path / "small.dfpn")
    big = ProofSearch(spec, tt_bits=16, **NARROWED)
    load_snapshot(big, path)
    assert int(np.count_nonzero(big.tt[:, 0])) == rows
    for key, phi, delta, word in small.tt[small.tt[:, 0] != 0]:
        found = K.tt_get(big.tt, np.uint64(int(key) % 2**64), 16)
        assert found[:3] == (True, phi, delta)
        assert found[3] | found[4] == word
    zones = small.zone_cache[small.zone_cache[:, 0] != 0]
    assert len(zones) > 0
    grown = big.zone_cache[big.zone_cache[:, 0] != 0]
    assert sorted(map(tuple, grown)) == sorted(map(tuple, zones))
    differ = np.flatnonzero(big.ctl != small.ctl)
    assert list(differ) == [K.C_TTBITS] and big.ctl[K.C_TTBITS] == 16
    assert big.nodes == small.nodes
    assert ask(big, 500_000).proven == ask(small, 500_000).proven is False


def test_a_smaller_snapshot_that_fails_its_checksum_leaves_the_larger_search(tmp_path):
    search = ProofSearch("5x5k4", tt_bits=12, zone_nodes=16)
    search.prove(Position.from_moves(as_spec("5x5k4"), [12]), 1, max_nodes=2_000, line=False)
    data = save_snapshot(search, tmp_path / "s.dfpn").read_bytes()
    bad = tmp_path / "bad.dfpn"
    bad.write_bytes(data[:5000] + bytes([data[5000] ^ 1]) + data[5001:])
    big = ProofSearch("5x5k4", tt_bits=14, zone_nodes=16)
    big.prove(Position.from_moves(as_spec("5x5k4"), [6]), 0, max_nodes=500, line=False)
    tt, ctl, nodes = big.tt.copy(), big.ctl.copy(), big.nodes
    with pytest.raises(TableFileError, match="checksum mismatch"):
        load_snapshot(big, bad)
    assert np.array_equal(big.tt, tt) and np.array_equal(big.ctl, ctl) and big.nodes == nodes


@pytest.fixture
def snapshot(tmp_path):
    search = ProofSearch("5x5k4", tt_bits=12, zone_nodes=16)
    search.prove(Position.from_moves(as_spec("5x5k4"), [12]), 1, max_nodes=2_000, line=False)
    return search, save_snapshot(search, tmp_path / "s.dfpn", info={"moves": "12"})


def test_the_header_names_the_settings(snapshot):
    search, path = snapshot
    header = read_snapshot_header(path)
    assert header["game"] == {"rows": 5, "cols": 5, "k": 4, "gravity": False}
    assert header["tt_bits"] == 12 and header["nodes"] == search.nodes > 0
    assert header["settings"] == settings(search)
    assert header["settings"]["zone_nodes"] == 16 and header["info"] == {"moves": "12"}


@pytest.mark.parametrize(
    "other, message",
    [
        (
            lambda: ProofSearch("5x5k3", tt_bits=12, zone_nodes=16),
            "a snapshot of 5x5k4, this search is of 5x5k3",
        ),
        (
            lambda: ProofSearch("5x5k4", tt_bits=11, zone_nodes=16),
            "2\\*\\*12 rows does not fit this search's 2\\*\\*11 \\(tt_bits 12 or more",
        ),
        (lambda: ProofSearch("5x5k4", tt_bits=12, zone_nodes=32), "zone_nodes 16 \\(here 32\\)"),
        (
            lambda: ProofSearch("5x5k4", tt_bits=12, zone_nodes=16, threat_probe_search="df-pn"),
            "threat_probe_search 'depth-first' \\(here 'df-pn'\\)",
        ),
    ],
    ids=["game", "tt_bits", "zone_nodes", "probes"],
)
def test_another_searchers_snapshot_is_refused_and_leaves_the_search(snapshot, other, message):
    _, path = snapshot
    search = other()
    search.tt[0, 0] = 7
    nodes = search.nodes
    with pytest.raises(TableFileError, match=message):
        load_snapshot(search, path)
    assert search.tt[0, 0] == 7 and search.nodes == nodes


def _used_search() -> ProofSearch:
    search = ProofSearch("5x5k4", tt_bits=12, zone_nodes=16)
    search.prove(Position.from_moves(as_spec("5x5k4"), [6]), 0, max_nodes=500, line=False)
    assert search.tt.any() and search.nodes > 0
    return search


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda b: b[:-1000], "its header says .* \\(truncated\\?\\)"),
        (lambda b: b + b"x", "extra bytes at the end"),
        (lambda b: b[:12] + b.replace(b'"nodes": ', b'"nodes":-')[12:], "damaged header"),
    ],
    ids=["truncated", "extra", "edited-header"],
)
def test_a_snapshot_of_the_wrong_size_is_refused_before_reading(
    snapshot, tmp_path, damage, message
):
    """The searcher is left as it was: table, control words and nodes."""
    _, path = snapshot
    bad = tmp_path / "bad.dfpn"
    bad.write_bytes(damage(path.read_bytes()))
    search = _used_search()
    tt, ctl, nodes = search.tt.copy(), search.ctl.copy(), search.nodes
    with pytest.raises(TableFileError, match=message):
        load_snapshot(search, bad)
    assert np.array_equal(search.tt, tt) and np.array_equal(search.ctl, ctl)
    assert search.nodes == nodes


def test_a_flipped_byte_is_refused_by_the_checksum_and_empties_the_table(snapshot, tmp_path):
    """The table was read in place, so it is emptied (as ``reset`` does); the control words
    and the node count stay the searcher's own."""
    _, path = snapshot
    data = path.read_bytes()
    bad = tmp_path / "bad.dfpn"
    bad.write_bytes(data[:5000] + bytes([data[5000] ^ 1]) + data[5001:])
    search = _used_search()
    ctl, nodes = search.ctl.copy(), search.nodes
    with pytest.raises(TableFileError, match="checksum mismatch"):
        load_snapshot(search, bad)
    assert not search.tt.any() and not search.zone_cache.any()
    assert np.array_equal(search.ctl, ctl) and search.nodes == nodes


def test_what_is_not_a_snapshot_is_neither_read_nor_replaced(snapshot, tmp_path):
    search, _ = snapshot
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    with pytest.raises(TableFileError, match="not a df-pn snapshot"):
        load_snapshot(search, notes)
    with pytest.raises(TableFileError, match="exists and is not a df-pn snapshot"):
        save_snapshot(search, notes)
    assert notes.read_text() == "my notes\n"
    with pytest.raises(TableFileError, match="is a directory"):
        save_snapshot(search, tmp_path)
    with pytest.raises(TableFileError, match="no such file"):
        load_snapshot(search, tmp_path / "missing.dfpn")
    with pytest.raises(InvalidArgumentError, match="info must be a dict"):
        save_snapshot(search, tmp_path / "x.dfpn", info=["not", "a", "dict"])  # type: ignore[arg-type]
    assert not (tmp_path / "x.dfpn").exists()
    again = save_snapshot(search, tmp_path / "s.dfpn")  # its own kind of file is replaced
    assert again.read_bytes().startswith(MAGIC)


def test_open_snapshot_builds_the_searcher_the_file_names(snapshot):
    """The game, settings and nodes of the file, its table as it was or in a larger one."""
    saver, path = snapshot
    search, header = open_snapshot(path)
    assert search.geometry == saver.geometry and settings(search) == settings(saver)
    assert search.tt_bits == 12 and np.array_equal(search.tt, saver.tt)
    assert search.nodes == saver.nodes == header["nodes"]
    bigger, _ = open_snapshot(path, tt_bits=14)
    assert bigger.tt_bits == 14 and np.count_nonzero(bigger.tt[:, 0]) == np.count_nonzero(
        saver.tt[:, 0]
    )
    with pytest.raises(TableFileError, match="does not fit"):
        open_snapshot(path, tt_bits=11)
