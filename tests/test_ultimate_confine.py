"""Confined df-pn for Ultimate (``Prover(confine=True)``): the kernel's narrowing against a plain
restatement, the open variant's empty board proven a first-player win (Bertholon et al. 2020)
and its strategy replayed against the plain rules reference, a confined failure is "unknown",
and the command line's ``--confine``."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from click.testing import CliRunner

from fastttt.cli import main
from fastttt.errors import InvalidArgumentError
from fastttt.games.movetext import move_list_text
from fastttt.kernels import ultimate as K
from fastttt.kernels import ultimate_dfpn as D
from fastttt.search.ultimate import proof as P
from fastttt.ultimate import UltimateState

from test_ultimate_proof import reference_rules
from ultimate_reference import RefState


def plain_confined(state: UltimateState, attacker: int) -> list[int]:
    """The attacker's moves that win the game or a board, or that send the defender to an
    open board with the most defender's stones among such targets (all when none does)."""
    defender = 1 - attacker
    children = {m: state.play(m) for m in state.legal_moves()}

    def stones(child) -> int | None:
        target = None if child.is_over() else child.forced_board
        if target is None:
            return None
        return sum(child.cell(target * 9 + c) == defender for c in range(9))

    held = {m: stones(child) for m, child in children.items()}
    counts = [h for h in held.values() if h is not None]
    if not counts:
        return sorted(children)
    most = max(counts)
    kept = []
    for m, child in children.items():
        board = m // 9
        won_board = child.claims()[board] == attacker and state.claims()[board] is None
        if child.winner() == attacker or won_board or held[m] == most:
            kept.append(m)
    return sorted(kept)


@pytest.mark.parametrize("open_won_boards", [False, True])
def test_the_kernel_keeps_the_moves_the_rule_names(open_won_boards):
    rng = random.Random(5)
    moves = np.zeros(81, dtype=np.int32)
    child = np.zeros(K.NS, dtype=np.int32)
    narrowed = 0
    for _ in range(300):
        state = UltimateState(open_won_boards)
        for _ in range(rng.randrange(60)):
            if state.is_over():
                break
            state = state.play(rng.choice(state.legal_moves()))
        if state.is_over():
            continue
        s = state.array()
        n = K.gen_moves(s, moves)
        kept = D.confine(s, moves, n, child, np.zeros((2, 81), dtype=np.int64), state.to_move)
        assert sorted(moves[:kept].tolist()) == plain_confined(state, state.to_move), state
        narrowed += kept < n
    assert narrowed > 100


@pytest.fixture(scope="module")
def open_variant_proof():
    """Bertholon et al. (2020): won boards stay open, the first player wins."""
    prover = P.Prover(tt_bits=24, confine=True)  # 400 MiB: the walk finds what it proved
    result = prover.prove(UltimateState(open_won_boards=True), 0, 20_000_000)
    return prover, result


@pytest.fixture(scope="module")
def open_variant_strategy(open_variant_proof):
    """X's strategy read off the confined prover's table (positions it lost proven again)."""
    prover, result = open_variant_proof
    return P.proof_tree(result, prover, 2_000_000)


def test_the_open_variants_empty_board_is_a_first_player_win(open_variant_proof):
    prover, result = open_variant_proof
    assert result.status == "proven" and result.nodes > 100_000


def test_the_open_variants_strategy_holds_under_both_rules(open_variant_strategy):
    tree = open_variant_strategy
    assert tree.position == str(UltimateState(open_won_boards=True)) and tree.claim == "proven"
    assert tree.size > 10_000  # X's positions: a move for each
    met: list[int] = []
    games = P.replay(tree, progress=met.append)
    assert games.finished > 1_000
    assert games.positions - tree.size - games.finished > 10_000  # O's turns: every reply is met
    every = P.REPLAY_PROGRESS_EVERY
    assert met == list(range(every, games.positions + 1, every))
    assert P.verify(tree, reference_rules(RefState(open_won_boards=True))) == games.finished


def plies_along(tree: P.ProofTree, plies: int) -> str:
    """The moves of a position ``plies`` (even) plies along ``tree``'s strategy, O playing its
    first legal move, as a move list of the command line."""
    start = state = UltimateState.from_text(tree.position)
    moves = []
    for _ in range(plies // 2):
        moves.append(tree.strategy[str(state)])
        state = state.play(moves[-1])
        moves.append(state.legal_moves()[0])
        state = state.play(moves[-1])
    return move_list_text("ultimate-open", start, moves)


def test_a_confined_failure_is_unknown():
    prover = P.Prover(tt_bits=18, confine=True)
    plain = P.Prover(tt_bits=18)
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = UltimateState()
        while state.ply < 50 and not state.is_over():
            state = state.play(rng.choice(state.legal_moves()))
        if state.is_over():
            continue
        for attacker in (0, 1):
            truth = plain.prove(state, attacker, 5_000_000).status
            confined = prover.prove(state, attacker, 5_000_000).status
            assert truth != "unknown"
            if truth == "disproven":  # a confined search never claims a disproof
                assert confined == "unknown", (state, attacker)
                checked += 1
            else:  # a confined win is a win; the win may also lie outside the confined moves
                assert confined in ("proven", "unknown"), (state, attacker)
    assert checked > 5


def test_bad_requests():
    with pytest.raises(InvalidArgumentError, match="confine"):
        P.Prover(confine=1)


def test_the_command_line_confines(tmp_path, monkeypatch, open_variant_strategy):
    monkeypatch.chdir(tmp_path)
    along = plies_along(open_variant_strategy, 16)  # a strategy of thousands of positions
    for extra in (["--split", "1"], ["--suite"]):
        out = CliRunner().invoke(main, ["prove", "ultimate-open", "--confine", *extra])
        assert out.exit_code == 2 and "--confine" in out.stderr
    assert not any(tmp_path.iterdir())
    out = CliRunner().invoke(
        main,
        [
            *("prove", "ultimate-open", "--confine", "--moves", along),
            *("--tt-bits", "20", "--proof", "p.json", "--json"),
        ],
    )
    assert out.exit_code == 0, out.output
    got = json.loads(out.stdout)
    assert got["verdict"] == "X wins" and got["confined"] is True
    assert got["proof"]["claim"] == "proven" and got["proof"]["size"] == P.load("p.json").size
    out = CliRunner().invoke(main, ["prove", "--check", "p.json"])
    assert out.exit_code == 0 and "p.json: valid: X wins from " in out.stdout
    out = CliRunner().invoke(main, ["prove", "--confine", "--check", "p.json"])
    assert out.exit_code == 2 and "--confine" in out.stderr
    out = CliRunner().invoke(main, ["prove", "ultimate", "--confine", "--max-nodes", "20000"])
    assert out.exit_code == 0, out.output
    assert "ultimate: unknown within budget" in out.stdout
    # 30 plies into a random game, where neither side wins keeping to the confined moves
    late = (
        "6,5 5,7 7,1 1,5 5,9 9,7 7,6 6,9 9,6 6,6 6,2 2,9 9,2 2,5 5,2 2,8 8,2 2,6 6,4 4,9 9,9 9,8 "
        "8,4 4,5 5,1 1,2 2,3 3,8 8,7 7,2"
    )
    out = CliRunner().invoke(main, ["prove", "ultimate", "--confine", "--moves", late])
    assert out.exit_code == 0, out.output
    assert "unknown: no win keeps to the confined moves" in out.stdout
