"""The probes searched by df-pn in threat mode (``ProofSearch(dfpn_probes=True)``): values kept
on small boards and the pass wins after Go-Moku's hard reply that the depth-first probes miss
(every defender's move off such a probe's zone is checked with alpha-beta in test_dfpn)."""

from __future__ import annotations

import pytest
from test_dfpn import dfpn_value

from fastttt.errors import InvalidArgumentError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import as_spec
from fastttt.kernels import dfpn as K
from fastttt.search.alphabeta import Searcher
from fastttt.search.dfpn import ProofSearch

from proving import check_line, random_positions


@pytest.mark.parametrize(
    "game, count, zone_nodes", [("4x4k3", 150, 0), ("5x5k4", 80, 0), ("4x5k4", 80, 16)]
)
def test_dfpn_probes_keep_the_values(game, count, zone_nodes):
    """Threat probes (and zones' probes) by df-pn prove attacker's nodes (and restrict
    defender's): the values, principal lines and proof walks stay alpha-beta's."""
    spec = as_spec(game)
    reference = Searcher(spec)
    search = ProofSearch(spec, tt_bits=18, threat_nodes=8, zone_nodes=zone_nodes, dfpn_probes=True)
    for pos in random_positions(spec, count, seed=6):
        assert dfpn_value(search, pos) == reference.solve(pos, weak=True).score, pos
    assert search.threat_probe_wins > 0
    if zone_nodes:
        assert search.zone_cuts > 0 and search.zone_moves_pruned > 0


def test_a_dfpn_probe_finds_the_pass_win_that_depth_first_misses():
    """Huayue's reply 113, then X's quiet 66: X wins by threats if O passes, in a proof that
    takes the answers O leaves (docs/benchmarks.md). The depth-first probe of 16,384 nodes
    finds no such win; df-pn's finds one within them (8,589 nodes and its walk), and its zone
    leaves some of O's moves out."""
    spec = as_spec("15x15k5")
    pos = Position.from_moves(spec, [112, 97, 98, 113, 66])
    narrowed = {"tt_bits": 20, "zone_nodes": 16384}
    assert ProofSearch(spec, **narrowed).relevance_zone(pos, 0) is None
    search = ProofSearch(spec, dfpn_probes=True, **narrowed)
    zone = search.relevance_zone(pos, 0)
    assert zone is not None and len(zone) < 218 - 40  # of 218 empty cells
    assert search.threat_probe_nodes < 16384


def test_the_walks_read_the_dfpn_probes_proofs():
    """Huayue's far reply 36 with df-pn probes: the proof-size walk and the principal line
    read the probes' proofs from the table (a line of legal moves to X's five) instead of
    searching those nodes again."""
    spec = as_spec("15x15k5")
    pos = Position.from_moves(spec, [112, 97, 98, 36])
    narrowed = {"tt_bits": 20, "zone_nodes": 64, "threat_nodes": 16, "dfpn_probes": True}
    budget = {"max_nodes": 2_000_000, "attacker_reach": 2}
    bare = ProofSearch(spec, **narrowed).prove(pos, 0, line=False, **budget)
    search = ProofSearch(spec, **narrowed)
    walked = search.prove(pos, 0, proof_size=True, **budget)
    assert bare.proven is True and walked.proven is True
    assert walked.proof_size is not None and 100 < walked.proof_size < bare.nodes // 10
    assert 0 < walked.proof_size_threats < walked.proof_size
    assert walked.nodes - bare.nodes < 1_000
    check_line(pos, walked.line, 0)
    assert search.ctl[K.C_MODE] == K.MODE_FULL and search.ctl[K.C_TAG] != search.ctl[K.C_TSS_TAG]


def test_dfpn_probes_must_be_a_bool():
    with pytest.raises(InvalidArgumentError, match="dfpn_probes"):
        ProofSearch("5x5k4", tt_bits=8, dfpn_probes=1)
