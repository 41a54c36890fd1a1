"""Ultimate proofs split into subtrees: the combined answer against a plain df-pn of the root,
assembled trees replayed against the plain rules reference, unknown tasks never giving a wrong
answer, a 2-process Dask cluster giving what one process gives, and ``prove --split``."""

from __future__ import annotations

import json
import random
import sys

import pytest
from click.testing import CliRunner

from fastttt.cli.prove import prove
from fastttt.errors import InvalidArgumentError
from fastttt.search.ultimate import proof as P
from fastttt.search.ultimate import split as S
from fastttt.ultimate import UltimateState

from test_ultimate_proof import reference_rules
from ultimate_reference import RefState


def late_position(seed: int, ply: int):
    """(state, its RefState twin, the moves) after ``ply`` random moves, or None when the game
    ended first."""
    rng = random.Random(seed)
    state, ref, moves = UltimateState(), RefState(), []
    while state.ply < ply:
        if state.is_over():
            return None
        move = rng.choice(state.legal_moves())
        state, ref = state.play(move), ref.play(move)
        moves.append(move)
    return None if state.is_over() else (state, ref, moves)


def positions(count: int, ply: int):
    found = (late_position(seed, ply) for seed in range(100))
    return [p for p in found if p is not None][:count]


def people(moves: list[int]) -> str:
    """``moves`` as ``prove --moves`` reads them (board,cell from 1)."""
    return " ".join(f"{m // 9 + 1},{m % 9 + 1}" for m in moves)


def same_answers(a: S.SplitResult, b: S.SplitResult) -> bool:
    """Equal but for the times."""

    def answers(r: S.SplitResult) -> tuple:
        tasks = tuple((t.position, t.status, t.pn, t.dn, t.nodes, t.strategy) for t in r.frontier)
        return (r.status, r.pn, r.dn, r.nodes, r.finished, tasks)

    return answers(a) == answers(b)


# --- 1. the split answer is the plain answer, and its tree replays -------------------------
@pytest.mark.parametrize("depth", [1, 2])
def test_split_answers_equal_a_plain_proof_and_trees_replay(depth):
    seen = set()
    for state, ref, _ in positions(5, 54):
        for attacker in (state.to_move, 1 - state.to_move):
            plain = P.prove(state, attacker, max_nodes=5_000_000, tt_bits=18)
            result = S.prove_split(state, attacker, depth=depth, max_nodes=50_000, tt_bits=14)
            assert plain.status != "unknown" and result.status == plain.status
            assert result.frontier_size == sum(result.counts.values()) >= 1
            assert result.nodes == sum(r.nodes for r in result.frontier)
            assert len({r.position for r in result.frontier}) == result.frontier_size
            assert all(r.strategy is None for r in result.frontier)  # tree=False keeps none
            tree = S.assemble_tree(result)
            assert (tree.position, tree.attacker, tree.claim) == (
                str(state),
                attacker,
                plain.status,
            )
            assert P.verify(tree) == P.verify(tree, reference_rules(ref)) >= 1
            seen.add(tree.claim)
    assert seen == {"proven", "disproven"}


def test_trees_kept_by_the_tasks_give_the_same_tree():
    for state, ref, _ in positions(3, 54):
        lean = S.prove_split(state, depth=2, max_nodes=50_000, tt_bits=14)
        full = S.prove_split(state, depth=2, max_nodes=50_000, tt_bits=14, tree=True)
        settled = [r for r in full.frontier if r.status != "unknown"]
        assert settled and all(r.strategy is not None for r in settled)
        assert S.assemble_tree(lean) == S.assemble_tree(full)
        P.verify(S.assemble_tree(full), reference_rules(ref))


def test_depth_zero_is_one_plain_task_and_finished_games_need_none():
    state, _, _ = positions(1, 52)[0]
    plain = P.prove(state, max_nodes=50_000, tt_bits=14)
    result = S.prove_split(state, depth=0, max_nodes=50_000, tt_bits=14)
    assert result.frontier_size == 1 and result.frontier[0].position == str(state)
    assert (result.status, result.pn, result.dn, result.nodes) == (
        plain.status,
        plain.pn,
        plain.dn,
        plain.nodes,
    )
    rng = random.Random(3)
    over = UltimateState()
    while not over.is_over():
        over = over.play(rng.choice(over.legal_moves()))
    result = S.prove_split(over, 0, depth=2)
    assert result.frontier_size == 0 and result.nodes == 0 and result.finished == 1
    assert result.status == ("proven" if over.winner() == 0 else "disproven")
    assert P.verify(S.assemble_tree(result)) == 1


def test_transpositions_are_proved_once():
    state, _, _ = positions(3, 54)[2]
    paths = 0
    for a in state.legal_moves():
        after_a = state.play(a)
        for b in after_a.legal_moves():
            after_b = after_a.play(b)
            paths += sum(not after_b.play(c).is_over() for c in after_b.legal_moves())
    result = S.prove_split(state, depth=3, max_nodes=1, tt_bits=10)
    assert 0 < result.frontier_size < paths


def test_bad_arguments():
    with pytest.raises(InvalidArgumentError):
        S.prove_split("not a state")
    with pytest.raises(InvalidArgumentError):
        S.prove_split(UltimateState(), depth=S.MAX_DEPTH + 1)
    with pytest.raises(InvalidArgumentError):
        S.prove_split(UltimateState(), attacker=2)


# --- 2. unknown tasks give unknown, not a wrong answer ---------------------------------------
def test_tasks_out_of_budget_leave_the_root_unknown():
    state, _, _ = positions(1, 52)[0]
    result = S.prove_split(state, depth=1, max_nodes=1, tt_bits=10)
    assert result.status == "unknown" and result.pn > 0 and result.dn > 0
    assert result.counts["unknown"] >= 1
    with pytest.raises(InvalidArgumentError, match="not settled"):
        S.assemble_tree(result)


def test_one_unknown_task_decides_only_what_it_must(monkeypatch):
    # the attacker moves at the root (depth 1: the frontier is its children): a disproof
    # needs every child, a proof needs one
    real = S.prove_task
    checked = {"proven": 0, "disproven": 0}
    for state, _, _ in positions(8, 54):
        truth = S.prove_split(state, depth=1, max_nodes=50_000, tt_bits=14)
        settled = [r.position for r in truth.frontier if r.status == "proven"]
        if truth.status == "disproven" and truth.frontier_size >= 2:
            lost = truth.frontier[-1].position  # any one of them
        elif truth.status == "proven" and len(settled) >= 2:
            lost = settled[0]  # another proven child still decides it
        else:
            continue

        def budget_gone(position, *args, lost=lost):
            if position == lost:
                return {**real(position, *args), "status": "unknown", "pn": 1, "dn": 1}
            return real(position, *args)

        monkeypatch.setattr(S, "prove_task", budget_gone)
        result = S.prove_split(state, depth=1, max_nodes=50_000, tt_bits=14)
        monkeypatch.setattr(S, "prove_task", real)
        assert result.counts["unknown"] == truth.counts["unknown"] + 1
        assert result.status == ("unknown" if truth.status == "disproven" else "proven")
        checked[truth.status] += 1
    assert checked["proven"] and checked["disproven"]


# --- 3. a Dask cluster gives what one process gives ----------------------------------------
def test_a_two_process_cluster_gives_the_same_result_and_tree():
    pytest.importorskip("distributed")
    from fastttt.tables.distributed import local_cluster

    cases = [positions(5, 54)[i][0] for i in (3, 4)]  # the first has unknown tasks
    here = [S.prove_split(s, depth=2, max_nodes=1_000, tt_bits=14) for s in cases]
    cluster, client = local_cluster(2)
    try:
        calls: list = []
        there = [
            S.prove_split(
                s,
                depth=2,
                max_nodes=1_000,
                tt_bits=14,
                client=client,
                progress=lambda done, total: calls.append((done, total)),
            )
            for s in cases
        ]
        trees = [S.assemble_tree(r, client=client) for r in there]
        workers = client.run(lambda: 1)
    finally:
        client.close()
        cluster.close()
    assert len(workers) == 2 and here[0].counts["unknown"] > 0
    for a, b, tree in zip(here, there, trees, strict=True):
        assert same_answers(a, b)
        assert tree == S.assemble_tree(a)
        assert P.verify(tree) >= 1
    total = [s.frontier_size for s in there]
    assert calls == [(i, t) for t in total for i in range(1, t + 1)]


# --- 4. the command ------------------------------------------------------------------------
def test_prove_split_command(tmp_path):
    runner = CliRunner()
    state, _, moves = positions(3, 52)[2]
    path = tmp_path / "p.json"
    args = ["--moves", people(moves), "--split", "2", "--max-nodes", "50000", "--tt-bits", "14"]
    result = runner.invoke(prove, [*args, "--proof", str(path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["verdict"] == P.solve(state).verdict != "unknown within budget"
    assert (
        out["split"] == 2
        and out["frontier"] == S.prove_split(state, depth=2, max_nodes=1).frontier_size
    )
    assert sum(out["tasks"].values()) == out["frontier"] * len(out["questions"])
    assert out["nodes"] == sum(q["nodes"] for q in out["questions"])
    assert all(sum(q["tasks"].values()) == out["frontier"] for q in out["questions"])
    assert out["proof"]["size"] == P.load(path).size
    result = runner.invoke(prove, ["--check", str(path), "--json"])
    assert result.exit_code == 0, result.output
    check = json.loads(result.stdout)["check"]
    assert check["valid"] and check["position"] == str(state)

    result = runner.invoke(prove, args)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"ultimate: {out['verdict']} (")
    assert f"df-pn split at depth 2: {out['frontier']:,} tasks a question)" in lines[0]
    assert "; tasks " in lines[1] and " proven, " in lines[1] and " unknown" in lines[1]

    result = runner.invoke(prove, ["--moves", "5,5 5,1", "--split", "1", "--max-nodes", "50"])
    assert result.exit_code == 0 and "unknown within budget" in result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["--split", "1", "--suite"], "--split goes with a search, not with --check or --suite"),
        (["--split", "1", "--check", "{proof}"], "--split goes with a search"),
        (["--workers", "2"], "give --split"),
        (["--scheduler", "tcp://127.0.0.1:1"], "give --split"),
        (["--split", "1", "--workers", "2", "--scheduler", "tcp://x:1"], "not both"),
        (["--split", "7"], "--split"),
    ],
)
def test_prove_split_refusals(args, message, tmp_path):
    proof = tmp_path / "p.json"
    proof.write_text("{}")
    result = CliRunner().invoke(prove, [a.format(proof=proof) for a in args])
    assert result.exit_code == 2 and message in result.output


def test_prove_split_without_dask_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    result = CliRunner().invoke(prove, ["--moves", "5,5", "--split", "1", "--workers", "2"])
    assert result.exit_code == 1
    assert "pip install 'fastttt[distributed]'" in result.output
    assert len(result.output.strip().splitlines()) == 1
