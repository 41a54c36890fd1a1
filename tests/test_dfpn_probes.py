"""How the probes search (``ProofSearch(threat_probe_search=..., zone_probe_search=...)``):
df-pn in threat mode, or 8 plies depth first then df-pn ("short-first"). Values kept on small
boards, the pass wins after Go-Moku's hard reply that the depth-first probes miss, and each
side's probe set on its own (every defender's move off such a probe's zone is checked with
alpha-beta in test_dfpn)."""

from __future__ import annotations

import pytest
from test_dfpn import dfpn_value

from fastttt.errors import InvalidArgumentError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import as_spec
from fastttt.kernels import dfpn as K
from fastttt.kernels import lines as L
from fastttt.search.alphabeta import Searcher
from fastttt.search.dfpn import ProofSearch

from proving import check_line, random_positions


@pytest.mark.parametrize(
    "game, count, zone_nodes, threats, zones, dependent",
    [
        ("4x4k3", 150, 0, "df-pn", "depth-first", False),
        ("5x5k4", 80, 0, "df-pn", "depth-first", False),
        ("4x5k4", 80, 16, "df-pn", "df-pn", False),
        ("4x4k3", 150, 0, "short-first", "depth-first", True),
        ("5x5k4", 80, 16, "short-first", "short-first", True),
        ("4x5k4", 80, 16, "depth-first", "short-first", True),
    ],
)
def test_probes_keep_the_values(game, count, zone_nodes, threats, zones, dependent):
    """Threat probes (and zones' probes) by df-pn or short-first prove attacker's nodes (and
    restrict defender's): the values, principal lines and proof walks stay alpha-beta's. With
    dependent threats short-first's df-pn runs after the depth-first failures, so its probes
    differ from depth first's."""
    spec = as_spec(game)
    reference = Searcher(spec)
    narrowed = {"tt_bits": 18, "threat_nodes": 8, "zone_nodes": zone_nodes}
    narrowed["dependent_threats"] = dependent
    search = ProofSearch(spec, threat_probe_search=threats, zone_probe_search=zones, **narrowed)
    depth_first = ProofSearch(spec, **narrowed)
    for pos in random_positions(spec, count, seed=6):
        assert dfpn_value(search, pos) == reference.solve(pos, weak=True).score, pos
        dfpn_value(depth_first, pos)
    assert search.threat_probe_wins > 0
    assert search.threat_probe_nodes != depth_first.threat_probe_nodes
    if zone_nodes:
        assert search.zone_cuts > 0 and search.zone_moves_pruned > 0


def test_a_dfpn_probe_finds_the_pass_win_that_depth_first_misses():
    """Huayue's reply 113, then X's quiet 66: X wins by threats if O passes, in a proof that
    takes the answers O leaves (docs/benchmarks.md). The depth-first probe of 16,384 nodes
    finds no such win; df-pn's finds one within them (8,589 nodes and its walk), and its zone
    leaves some of O's moves out. The threat probes' setting does not reach the zones'."""
    spec = as_spec("15x15k5")
    pos = Position.from_moves(spec, [112, 97, 98, 113, 66])
    narrowed = {"tt_bits": 20, "zone_nodes": 16384}
    assert ProofSearch(spec, **narrowed).relevance_zone(pos, 0) is None
    other_side = ProofSearch(spec, threat_probe_search="df-pn", **narrowed)
    assert other_side.relevance_zone(pos, 0) is None
    search = ProofSearch(spec, zone_probe_search="df-pn", **narrowed)
    zone = search.relevance_zone(pos, 0)
    assert zone is not None and len(zone) < 220 - 40  # of 220 empty cells
    assert search.threat_probe_nodes < 16384


def test_threat_dfpn_wins_where_the_depth_first_probe_runs_out():
    """The kernel itself, X to move after 113, 66 and O's pass (an O stone on 224): df-pn in
    threat mode wins within 20,000 nodes where the depth-first probe runs out of them; a
    probe stopped by its budget leaves the board and the question's tag as they were."""
    spec = as_spec("15x15k5")
    search = ProofSearch(spec, tt_bits=20, threat_nodes=16)
    pos = Position.from_moves(spec, [112, 97, 98, 113, 66, 224])
    search.board.load(pos.first, pos.second)
    ctl = search.ctl
    ctl[K.C_ATTACKER], ctl[K.C_MODE], ctl[K.C_LAST_OWN] = 0, K.MODE_THREATS, -1
    ctl[K.C_TSS_TAG] = 12345
    board = search.board.B[: search.board.B[L.H_SCRATCH]].copy()  # all but the work space
    tag = ctl[K.C_TAG]
    args = (search.board.B, search.board.Z, search.tt, ctl, search.stk, search.covered)
    assert K.threat_probe(*args, search.used, 20_000, 400) == (K._T_BUDGET, 20_000)
    assert K.threat_dfpn(*args, search.used, 100) == (K._T_BUDGET, 100)
    assert (search.board.B[: search.board.B[L.H_SCRATCH]] == board).all()
    assert ctl[K.C_TAG] == tag and ctl[K.C_MODE] == K.MODE_THREATS
    result, nodes = K.threat_dfpn(*args, search.used, 20_000)
    assert result == K._T_WIN and nodes < 20_000
    assert (search.board.B[: search.board.B[L.H_SCRATCH]] == board).all()


def test_the_attackers_probe_searches_as_threat_probe_search_says():
    """The same position through ``prove``: with df-pn or short-first threat probes the
    root's probe proves it at once; the depth-first probe of the same budget does not, nor
    the search after it within 30,000 nodes, nor with df-pn for the zones' probes alone."""
    spec = as_spec("15x15k5")
    pos = Position.from_moves(spec, [112, 97, 98, 113, 66, 224])
    answers = []
    for searches in (
        {},
        {"zone_probe_search": "df-pn"},
        {"threat_probe_search": "df-pn"},
        {"threat_probe_search": "short-first"},
    ):
        search = ProofSearch(spec, tt_bits=20, threat_nodes=16384, **searches)
        r = search.prove(pos, 0, max_nodes=30_000, line=False, proof_size=False)
        answers.append((r.proven, search.threat_probe_wins))
    assert answers == [(None, 0), (None, 0), (True, 1), (True, 1)]


def _probe(spec, moves, kind, budget, dependent=False):
    """``_threat_win`` for X, to move after ``moves``, with threat probes searched by
    ``kind``: (won, the probe's nodes)."""
    search = ProofSearch(
        spec, tt_bits=20, threat_nodes=16, threat_probe_search=kind, dependent_threats=dependent
    )
    pos = Position.from_moves(spec, moves)
    search.board.load(pos.first, pos.second)
    ctl = search.ctl
    ctl[K.C_ATTACKER], ctl[K.C_MODE], ctl[K.C_LAST_OWN] = 0, K.MODE_FULL, -1
    ctl[K.C_TSS_TAG] = 12345
    args = (search.board.B, search.board.Z, search.tt, ctl, search.stk, search.covered)
    won = K._threat_win(*args, search.used, budget)
    assert ctl[K.C_MODE] == K.MODE_FULL
    return won, int(ctl[K.C_TSS_NODES])


def test_short_first_is_the_shallow_depth_first_probe_then_dfpn():
    """A short win (X's open three in 7x7 k=5's middle row: an open four, then five) costs
    short-first what the depth-first probe costs, node for node; on Go-Moku after 113, 66
    and O's 224, where 8 plies settle nothing, its df-pn wins where depth first runs out.
    With dependent threats the depth-first probe fails there at once (its own threes run
    out), and short-first's df-pn goes on to the win."""
    spec = as_spec("7x7k5")
    short = [22, 0, 23, 6, 24, 42]  # X on 22, 23, 24 of the middle row; O in the corners
    depth_first = _probe(spec, short, "depth-first", 20_000)
    assert depth_first[0] is True
    assert _probe(spec, short, "short-first", 20_000) == depth_first
    assert _probe(spec, short, "df-pn", 20_000)[0] is True
    hard = [112, 97, 98, 113, 66, 224]
    spec = as_spec("15x15k5")
    assert _probe(spec, hard, "depth-first", 20_000) == (False, 20_000)
    won, nodes = _probe(spec, hard, "short-first", 20_000)
    assert won is True and nodes < 20_000
    failed, first = _probe(spec, hard, "depth-first", 20_000, dependent=True)
    assert failed is False and first < 1_000
    won, nodes = _probe(spec, hard, "short-first", 20_000, dependent=True)
    assert won is True and first < nodes < 20_000


def test_the_walks_read_the_dfpn_probes_proofs():
    """Huayue's far reply 36 with df-pn probes: the proof-size walk and the principal line
    read the probes' proofs from the table (a line of legal moves to X's five) instead of
    searching those nodes again."""
    spec = as_spec("15x15k5")
    pos = Position.from_moves(spec, [112, 97, 98, 36])
    narrowed = {"tt_bits": 20, "zone_nodes": 64, "threat_nodes": 16}
    narrowed |= {"threat_probe_search": "df-pn", "zone_probe_search": "df-pn"}
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


@pytest.mark.parametrize("value", ["dfpn", 1, True, None])
def test_a_probe_search_is_one_of_the_names(value):
    for name in ("threat_probe_search", "zone_probe_search"):
        with pytest.raises(InvalidArgumentError, match=f"{name} must be one of .*'short-first'"):
            ProofSearch("5x5k4", tt_bits=8, **{name: value})
