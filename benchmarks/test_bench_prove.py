"""Proof search speed: the portfolio (fastttt.search.portfolio), df-pn, threat-space search, against
alpha-beta (the exact search ``solve --search`` ran before) measured in the same run.

Run: ``.venv/bin/pytest benchmarks/test_bench_prove.py --benchmark-enable -s`` (a few
minutes); ``-m slow`` adds 7 x 7 k = 5 (its published draw) and the boards beyond reach,
each capped at ``FASTTTT_PROVE_CAP`` seconds (default 300) and reported with how far the
provers got. Every value is checked; times are printed and stored (``extra_info``), never
asserted. Node counts repeat from run to run (fixed Zobrist keys, no threads): they are the
deterministic figure to compare between commits.
"""

from __future__ import annotations

import os
import time

import pytest
from ratio import record, speedup

from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import as_spec
from fastttt.search.alphabeta import Searcher
from fastttt.search.alphabeta import warmup as search_warmup
from fastttt.search.dfpn import ProofSearch
from fastttt.search.dfpn import warmup as dfpn_warmup
from fastttt.search.portfolio import (
    NARROWED_PROBE_SEARCH,
    NARROWED_REACH,
    NARROWED_THREAT_NODES,
    NARROWED_ZONE_NODES,
    prove,
)
from fastttt.search.threats import threat_search

CAP = float(os.environ.get("FASTTTT_PROVE_CAP", "300"))
WORDS = {1: "first", 0: "draw", -1: "second"}


@pytest.fixture(scope="module", autouse=True)
def compiled():
    """Kernels compiled (or loaded) before any timing."""
    return {"dfpn": dfpn_warmup(), "search": search_warmup()}


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _report(benchmark, name: str, **info) -> None:
    info["load"] = _load()
    benchmark.extra_info.update(info)
    print(f"\n{name:<34} " + "  ".join(f"{k}={v}" for k, v in info.items()))


# --- k >= 5 square boards with a pairing: proven at once ----------------------------------

PAIRED = ["5x5k5", "6x6k6", "7x7k6", "7x7k7", "8x8k7", "8x8k8", "9x9k8", "12x12k11", "16x16k15"]


def test_alphabeta_5x5k5_reference(benchmark):
    """The reference: alpha-beta from the empty 5 x 5 k = 5 board (what ``solve --search``
    ran before the pairing step; the other paired boards are beyond it)."""
    s = Searcher("5x5k5")
    out = {}

    def run():
        s.reset()
        out["r"] = s.solve(Position.empty("5x5k5"), weak=True)

    benchmark.pedantic(run, rounds=1, iterations=1)
    assert out["r"].score == 0
    record("alphabeta 5x5k5", benchmark)
    _report(
        benchmark,
        "alphabeta 5x5k5 (reference)",
        nodes=out["r"].nodes,
        seconds=round(out["r"].seconds, 3),
    )


@pytest.mark.parametrize("game", PAIRED)
def test_paired_square_boards(benchmark, game):
    pos = Position.empty(as_spec(game))
    result = benchmark.pedantic(prove, args=(pos,), rounds=3, iterations=1)
    assert result.value == 0 and "pairing" in result.method
    if game == "5x5k5":
        speedup("alphabeta 5x5k5", f"prove {game}", benchmark)
    _report(
        benchmark,
        f"prove {game}",
        method=result.method,
        nodes=result.nodes,
        seconds=round(benchmark.stats.stats.min, 4),
        pairs=len(result.pairs),
    )


# --- df-pn against alpha-beta on fixed positions ------------------------------------------

POSITIONS = [  # game, moves, value for the side to move
    ("5x5k4", [], 0),
    ("4x5k4", [], 0),
    ("5x6k4", [], 1),
    ("4x6k4", [], 0),
    ("5x5k4", [12, 6], 0),
    ("5x4k4g", [], 0),
    ("5x5k4g", [], 0),
    ("6x5k4g", [2, 2], None),
]


@pytest.mark.parametrize(
    "game, moves, value",
    POSITIONS,
    ids=[f"{g}-{','.join(map(str, m)) or 'empty'}" for g, m, _ in POSITIONS],
)
def test_dfpn_against_alphabeta(benchmark, game, moves, value):
    spec = as_spec(game)
    pos = Position.from_moves(spec, moves)
    s = Searcher(spec)
    t0 = time.perf_counter()
    ab = s.solve(pos, weak=True)
    ab_seconds = time.perf_counter() - t0
    if value is not None:
        assert ab.score == value
    out = {}

    def run():
        search = ProofSearch(spec, tt_bits=22)
        first = search.prove(pos, pos.to_move, proof_size=False, line=False)
        nodes = first.nodes
        got = 1 if first.proven else None
        if not first.proven:
            second = search.prove(pos, 1 - pos.to_move, proof_size=False, line=False)
            nodes += second.nodes
            got = -1 if second.proven else 0
        out["value"], out["nodes"] = got, nodes

    benchmark.pedantic(run, rounds=1, iterations=1)
    assert out["value"] == ab.score
    seconds = benchmark.stats.stats.min
    _report(
        benchmark,
        f"dfpn {game} {moves}",
        value=WORDS[out["value"]],
        dfpn_nodes=out["nodes"],
        dfpn_s=round(seconds, 3),
        alphabeta_nodes=ab.nodes,
        alphabeta_s=round(ab_seconds, 3),
        dfpn_over_alphabeta=round(seconds / ab_seconds, 2),
    )


# --- threat-space search against full df-pn -----------------------------------------------

THREATS = [  # positions won by threats (checked against alpha-beta on the small ones)
    ("7x7k5", "......./......./.XXX.../......./O....../O....../O......"),
    ("7x7k4", "......O/.XX..../....X../....X../O....../......O/O......"),
    (
        "9x9k5",
        "........./........./....O..../.....X.../......O../.....X.../...O..X../........./.........",
    ),  # a 35-ply threat line
]


@pytest.mark.parametrize("game, text", THREATS, ids=[g for g, _ in THREATS])
def test_threats_against_dfpn(benchmark, game, text):
    spec = as_spec(game)
    pos = Position.from_text(spec, text)
    full = ProofSearch(spec, tt_bits=22).prove(pos, pos.to_move, proof_size=False)
    assert full.proven
    result = benchmark.pedantic(threat_search, args=(pos,), rounds=3, iterations=1)
    assert result.won
    seconds = benchmark.stats.stats.min
    _report(
        benchmark,
        f"threats {game}",
        threat_nodes=result.nodes,
        threat_s=round(seconds, 4),
        line=",".join(map(str, result.line)),
        dfpn_nodes=full.nodes,
        dfpn_s=round(full.seconds, 4),
    )


# --- the big boards (slow) --------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("threads", [2, 1])
def test_7x7k5_published_draw(benchmark, threads):
    """Hsu et al. 2020: a draw. The portfolio, as ``solve 7x7k5 --search --threads N`` runs it:
    alpha-beta, df-pn and the narrowed df-pn side by side on three threads (2, the command's
    default on 2 cores) or in turns (1)."""
    out = {}

    def run():
        cpu = time.process_time()
        out["r"] = prove(Position.empty("7x7k5"), budget_seconds=max(CAP, 600.0), threads=threads)
        out["cpu"] = time.process_time() - cpu

    benchmark.pedantic(run, rounds=1, iterations=1)
    r = out["r"]
    assert r.value == 0 and r.threads == {2: 3, 1: 1}[threads], r.verdict()
    _report(
        benchmark,
        f"prove 7x7k5 (threads={threads})",
        method=r.method,
        nodes=r.nodes,
        seconds=round(r.seconds, 1),
        cpu_seconds=round(out["cpu"], 1),
        proof_size=r.proof_size,
    )


@pytest.mark.slow
def test_7x7k5_dfpn_alone(benchmark):
    spec = as_spec("7x7k5")
    out = {}

    def run():
        out["r"] = ProofSearch(spec, tt_bits=23).prove(
            Position.empty(spec), 0, seconds=max(CAP, 600.0)
        )

    benchmark.pedantic(run, rounds=1, iterations=1)
    r = out["r"]
    assert r.proven is False
    _report(
        benchmark,
        "dfpn 7x7k5 (X cannot win)",
        nodes=r.nodes,
        seconds=round(r.seconds, 1),
        proof_size=r.proof_size,
    )


@pytest.mark.slow
def test_4x30k4_narrowed(benchmark):
    """Lustenberger 1967: a first-player win, proven on the whole board by df-pn with relevance
    zones and threat probes of 16 nodes and the attacker kept within 2 cells of a stone (a
    proof of the real game; one core, a 1 GiB table)."""
    spec = as_spec("4x30k4")
    out = {}

    def run():
        search = ProofSearch(
            spec,
            tt_bits=25,
            zone_nodes=NARROWED_ZONE_NODES,
            threat_nodes=NARROWED_THREAT_NODES,
            threat_probe_search=NARROWED_PROBE_SEARCH,
            zone_probe_search=NARROWED_PROBE_SEARCH,
        )
        cpu = time.process_time()
        out["r"] = search.prove(
            Position.empty(spec),
            0,
            seconds=max(CAP, 1800.0),
            line=False,
            proof_size=True,
            after_seconds=CAP,  # the proof's walk: it searches again what the table lost
            attacker_reach=NARROWED_REACH,
        )
        out["cpu"] = time.process_time() - cpu
        out["probes"] = search.threat_probe_nodes
        out["pairing"] = search.pairing_search_nodes

    benchmark.pedantic(run, rounds=1, iterations=1)
    r = out["r"]
    assert r.proven is not False  # a failure within the reach is "unknown", never "no"
    _report(
        benchmark,
        "dfpn 4x30k4 narrowed (X wins)",
        proven=r.proven,
        nodes=r.nodes,
        probe_nodes=out["probes"],
        pairing_search_nodes=out["pairing"],
        cpu_seconds=round(out["cpu"], 1),
        proof_size=r.proof_size,
        proof_size_at_least=r.proof_size_at_least,
    )


FAR = [
    ("8x8k5", "draw"),
    ("15x15k5", "first"),
    ("4x9k4", "first"),
    ("4x10k4", "first"),
    ("4x30k4", "first"),
]


@pytest.mark.slow
@pytest.mark.parametrize("game, published", FAR, ids=[g for g, _ in FAR])
def test_beyond_reach_how_far(benchmark, game, published):
    """How far df-pn gets on the question the published value settles (8 x 8 k = 5: "X
    cannot win"; the others: "X wins") within ``CAP`` seconds, after threat-space search:
    the root's proof and disproof numbers, its moves solved, the deepest ply."""
    spec = as_spec(game)
    pos = Position.empty(spec)
    out = {}

    def run():
        search = ProofSearch(spec, tt_bits=23)
        out["threats"] = search.prove(pos, 0, mode="threats", seconds=CAP / 10, proof_size=False)
        out["dfpn"] = search.prove(pos, 0, seconds=CAP, proof_size=False)

    benchmark.pedantic(run, rounds=1, iterations=1)
    t, d = out["threats"], out["dfpn"]
    answer = {True: "first", False: "draw", None: "unknown"}[d.proven]
    assert answer in ("unknown", published)
    _report(
        benchmark,
        f"far {game}",
        published=published,
        answer=answer,
        cap_s=CAP,
        threats=t.proven,
        threat_nodes=t.nodes,
        nodes=d.nodes,
        seconds=round(d.seconds, 1),
        phi=d.phi,
        delta=d.delta,
        root_solved=f"{d.root_solved}/{d.root_moves}",
        deepest=d.deepest,
        nodes_per_s=round(d.nodes / max(d.seconds, 1e-9)),
    )


# --- proof files: the builder follows df-pn's own proof ------------------------------------


def _bench_proof_build(
    benchmark, game: str, tt_bits: int, rounds: int, variant: str, reference: str
):
    """Time ``prove_with_strategies`` on ``game``'s empty board (a draw) as ``variant``; the
    first variant run is the ``reference`` the others' speed-up is measured against."""
    from fastttt.search.prooftree import prove_with_strategies

    pos = Position.empty(as_spec(game))
    out = {}

    def run():
        out["proof"] = prove_with_strategies(pos, tt_bits=tt_bits)

    benchmark.pedantic(run, rounds=rounds, iterations=1)
    proof = out["proof"]
    assert proof.value == 0
    if variant == reference:
        record(f"proof_build_{reference}", benchmark)
    else:
        speedup(f"proof_build_{reference}", f"proof_build_{variant}", benchmark)
    _report(
        benchmark, f"proof build {game}, {variant}", moves=proof.positions, pairings=proof.pairings
    )


@pytest.mark.parametrize("order", ["heuristic", "table"])
def test_proof_file_build(benchmark, order, monkeypatch):
    """``proof build 4x5k4g`` (a draw, no certificates with gravity): the prover's moves in
    the heuristic order alone (the reference) against df-pn's own proof first
    (``prooftree._table_rank``). Strategy moves are the deterministic figure."""
    import fastttt.search.prooftree as prooftree

    if order == "heuristic":
        monkeypatch.setattr(prooftree, "_table_rank", lambda search, child, claim: (0, 0))
    _bench_proof_build(benchmark, "4x5k4g", 20, 2, order, "heuristic")


@pytest.mark.parametrize("keys", ["exact", "images"])
def test_proof_file_images(benchmark, keys, monkeypatch):
    """``proof build 5x5k4`` (a draw with pairing certificates; the board has 8 symmetries):
    a move for every position (the reference) against one for each set of images
    (``proofcheck.symmetries``). Strategy moves are the deterministic figure: 9,435 and 1,965
    (3,564 and 775 certificates) on 2026-11-27."""
    import fastttt.search.prooftree as prooftree
    from fastttt.reference.proofcheck import symmetries

    if keys == "exact":
        monkeypatch.setattr(prooftree, "symmetries", lambda rules: symmetries(rules)[:1])
    _bench_proof_build(benchmark, "5x5k4", 22, 1, keys, "exact")
