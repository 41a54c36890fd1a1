"""Ultimate proofs: df-pn values against the alpha-beta engine and the plain minimax, proof
trees replayed against the plain rules reference, the proof file."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from fastttt.errors import InvalidArgumentError, TableFileError
from fastttt.search.ultimate import proof as P
from fastttt.search.ultimate.engine import solve_exact
from fastttt.ultimate import UltimateState

from ultimate_reference import LINES, RefState, TreeTooLarge, minimax


def late_position(seed: int, ply: int, open_won_boards: bool = False):
    """(state, its RefState twin) after ``ply`` random moves, or None when the game ended."""
    rng = random.Random(seed)
    state, ref = UltimateState(open_won_boards), RefState(open_won_boards=open_won_boards)
    while state.ply < ply:
        if state.is_over():
            return None
        move = rng.choice(state.legal_moves())
        state, ref = state.play(move), ref.play(move)
    return (state, ref) if not state.is_over() else None


def positions(count: int, ply: int, open_won_boards: bool = False):
    found = (late_position(seed, ply, open_won_boards) for seed in range(200))
    return [p for p in found if p is not None][:count]


def reference_rules(ref: RefState) -> P.Rules:
    """The plain reference behind the verifier's interface: an independent replay."""
    return P.Rules(
        lambda text: ref,
        lambda s: s.legal_moves(),
        lambda s, m: s.play(m),
        lambda s: None if s.winner() is None else "XO".index(s.winner()),
        lambda s: "XO".index(s.player),
        lambda s: s.text(),
    )


ENGINE_WINNER = {"win": 0, "loss": 1}  # from the side to move


@pytest.mark.parametrize("open_won_boards", [False, True])
def test_values_equal_the_alpha_beta_engine(open_won_boards):
    seen = set()
    for state, _ in positions(8, 58, open_won_boards):
        value = P.solve(state, max_nodes=5_000_000)
        assert value.proved
        verdict = solve_exact(state, node_budget=50_000_000)[0]
        if verdict == "draw":
            assert value.winner is None
        else:
            side = ENGINE_WINNER[verdict.split()[0]]
            assert value.winner == (state.to_move + side) % 2
        seen.add(value.verdict)
    assert len(seen) >= 2  # the sample has more than one kind of result


@pytest.mark.parametrize("open_won_boards", [False, True])
def test_values_equal_the_plain_minimax(open_won_boards):
    compared = 0
    for state, ref in positions(12, 66, open_won_boards):
        try:
            v, _ = minimax(ref, limit=5_000)
        except TreeTooLarge:
            continue
        assert P.solve(state).winner == {1: 0, 0: None, -1: 1}[v]
        compared += 1
    assert compared >= 3


@pytest.mark.parametrize("open_won_boards", [False, True])
def test_proof_trees_replay_against_the_plain_rules(open_won_boards):
    checked = {"proven": 0, "disproven": 0}
    for state, ref in positions(6, 58, open_won_boards):
        prover = P.Prover(tt_bits=18)
        result = prover.prove(state, max_nodes=5_000_000)
        assert result.status != "unknown"
        tree = P.proof_tree(result, prover)
        assert P.verify(tree) == P.verify(tree, reference_rules(ref)) >= 1
        checked[tree.claim] += 1
        first, move = next(iter(tree.strategy.items()))
        for text, other in (  # a wrong first move, a missing one, one never reached
            (first, (move + 1) % 81),
            (first, None),
            (str(UltimateState(open_won_boards)), move),
        ):
            wrong = {**tree.strategy, text: other}
            if other is None:
                del wrong[text]
            with pytest.raises(InvalidArgumentError):
                P.verify(P.ProofTree(tree.position, tree.attacker, tree.claim, wrong))
        flipped = "disproven" if tree.claim == "proven" else "proven"
        with pytest.raises(InvalidArgumentError):  # the same moves do not prove the opposite
            P.verify(
                P.ProofTree(tree.position, tree.attacker, flipped, tree.strategy),
                reference_rules(ref),
            )
    assert checked["proven"] and checked["disproven"]


def test_budget_ends_with_bounds():
    state = UltimateState.from_moves([40, 36])
    result = P.prove(state, max_nodes=500)
    assert result.status == "unknown" and result.pn > 0 and result.dn > 0
    assert 500 <= result.nodes <= 600
    value = P.solve(state, max_nodes=500)
    assert not value.proved and value.verdict == "unknown within budget"
    with pytest.raises(InvalidArgumentError, match="not settled"):
        P.proof_tree(result)


def test_proof_file_round_trip_and_damage(tmp_path):
    state, _ = positions(1, 56)[0]
    prover = P.Prover(tt_bits=16)
    tree = P.proof_tree(prover.prove(state, max_nodes=5_000_000), prover)
    path = tmp_path / "proof.json"
    tree.save(path)
    assert P.load(path) == tree
    body = json.loads(path.read_text())
    body["claim"] = "disproven" if tree.claim == "proven" else "proven"
    path.write_text(json.dumps(body))
    with pytest.raises(TableFileError, match="checksum"):
        P.load(path)
    other = tmp_path / "notes.txt"
    other.write_text("my notes")
    with pytest.raises(TableFileError):
        tree.save(other)
    assert other.read_text() == "my notes"
    tree.save(other, force=True)
    assert P.load(other) == tree


def preorder(tree: P.ProofTree) -> list[int]:
    """``tree``'s strategy as format 1 wrote it: the tree in preorder, transpositions again."""
    out, stack = [], [UltimateState.from_text(tree.position)]
    while stack:
        state = stack.pop()
        if state.is_over():
            continue
        if state.to_move == tree.chooser:
            out.append(tree.strategy[str(state)])
            stack.append(state.play(out[-1]))
        else:
            stack.extend(state.play(m) for m in reversed(state.legal_moves()))
    return out


def preorder_with_other_moves(tree: P.ProofTree, prover: P.Prover) -> tuple[list[int], int]:
    """``tree``'s question as format 1 could write it when a table lost entries: a position
    met again gets the next of its moves that go the strategy's way (a tree holding two moves
    for it). Returns the moves and how many positions got a second move."""
    met: dict[str, int] = {}
    out, second = [], 0
    stack = [UltimateState.from_text(tree.position)]

    def good(child: UltimateState) -> bool:
        if child.is_over():
            return (child.winner() == tree.attacker) == (tree.claim == "proven")
        return prover.prove(child, tree.attacker, 5_000_000).status == tree.claim

    while stack:
        state = stack.pop()
        if state.is_over():
            continue
        if state.to_move == tree.chooser:
            text = str(state)
            met[text] = met.get(text, -1) + 1
            moves = [m for m in state.legal_moves() if good(state.play(m))]
            out.append(moves[met[text] % len(moves)])
            second += met[text] == 1 and len(moves) > 1
            stack.append(state.play(out[-1]))
        else:
            stack.extend(state.play(m) for m in reversed(state.legal_moves()))
    return out, second


def format_1_file(path, tree: P.ProofTree, moves: list[int]):
    """Write ``moves`` as a format 1 file of ``tree``'s question (checksum included)."""
    import zlib

    body = {
        "format": P.FORMAT,
        "version": 1,
        "game": "ultimate",
        "position": tree.position,
        "attacker": "XO"[tree.attacker],
        "claim": tree.claim,
        "moves": moves,
    }
    body["crc32"] = zlib.crc32(json.dumps(body, sort_keys=True).encode())
    path.write_text(json.dumps(body))
    return path


def late_tree() -> tuple[P.ProofTree, P.Prover, RefState]:
    """The strategy of a position 52 plies into a random game, its prover and its twin."""
    state, ref = positions(1, 52)[0]
    prover = P.Prover(tt_bits=16)
    return P.proof_tree(prover.prove(state, max_nodes=5_000_000), prover), prover, ref


def test_format_1_trees_with_two_moves_for_a_position_check(tmp_path):
    tree, prover, ref = late_tree()
    moves, second = preorder_with_other_moves(tree, prover)
    assert second >= 5  # the tree does hold two moves for some positions
    read = P.load(format_1_file(tmp_path / "old.json", tree, moves))
    assert P.verify(read) >= 1 and P.verify(read, reference_rules(ref)) >= 1


def test_format_1_trees_are_read_as_strategies(tmp_path):
    tree, _, _ = late_tree()
    moves = preorder(tree)
    assert len(moves) > tree.size  # the tree meets some positions twice
    for written, expected in ((moves, tree), (moves[:-1], None), ([*moves, 0], None)):
        path = format_1_file(tmp_path / "old.json", tree, written)
        if expected is None:
            with pytest.raises(TableFileError, match="malformed proof"):
                P.load(path)
        else:
            assert P.load(path) == expected and P.verify(P.load(path)) >= 1


def test_finished_and_bad_inputs():
    rng = random.Random(5)
    state = UltimateState()
    while not state.is_over():
        state = state.play(rng.choice(state.legal_moves()))
    result = P.prove(state, attacker=0)
    assert result.status == ("proven" if state.winner() == 0 else "disproven")
    with pytest.raises(InvalidArgumentError):
        P.prove("not a state")
    with pytest.raises(InvalidArgumentError):
        P.prove(UltimateState(), attacker=2)
    with pytest.raises(InvalidArgumentError):
        P.prove(UltimateState(), max_nodes=0)
    with pytest.raises(InvalidArgumentError, match="estimate must be of type bool"):
        P.Prover(10, estimate="yes")


def test_open_variant_hashes_tell_who_claimed_a_board_first():
    # board 0 holds a line of each side: in the open variant it belongs to whoever made the
    # first one, which the stones alone do not say (the search tables once mixed them up)
    from fastttt.kernels import ultimate as K

    grid = "XXX....../OOO....../" + "/".join(["........."] * 7)
    keys = K.zobrist_keys()
    first_x = UltimateState.from_text(f"{grid} X........ * open")
    first_o = UltimateState.from_text(f"{grid} O........ * open")
    assert first_x != first_o
    assert K.state_hash(first_x.array(), keys) != K.state_hash(first_o.array(), keys)


@pytest.mark.parametrize("open_won_boards", [False, True])
def test_a_childs_hash_from_its_parents_equals_its_own(open_won_boards):
    from fastttt.kernels import ultimate as K

    keys = K.zobrist_keys()
    claims = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = UltimateState(open_won_boards)
        while not state.is_over():
            parent = state.array()
            h = K.state_hash(parent, keys)
            for move in state.legal_moves():
                child = state.play(move)
                got = K.child_hash(h, parent, child.array(), move, keys)
                assert got == K.state_hash(child.array(), keys), (state, move)
                claims += child.claims() != state.claims()
            state = state.play(rng.choice(state.legal_moves()))
    assert claims > 100  # moves that claim a board are among them


def _moves_to(ply: int, seed: int) -> str:
    """The moves of a random game to ``ply``, as ``prove --moves`` reads them (board,cell)."""
    rng = random.Random(seed)
    state, moves = UltimateState(), []
    while state.ply < ply:
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.play(move)
    return " ".join(f"{m // 9 + 1},{m % 9 + 1}" for m in moves)


def test_prove_command(tmp_path):
    from click.testing import CliRunner

    from fastttt.cli.prove import prove

    runner = CliRunner()
    path = tmp_path / "p.json"
    moves = _moves_to(52, 7)
    result = runner.invoke(prove, ["--moves", moves, "--proof", str(path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    played = [(int(b) - 1) * 9 + int(c) - 1 for b, c in (m.split(",") for m in moves.split())]
    state = UltimateState.from_moves(played)
    assert out["moves"] == moves.split()
    assert out["verdict"] == P.solve(state).verdict != "unknown within budget"
    assert out["proof"]["size"] == P.load(path).size
    result = runner.invoke(prove, ["--check", str(path)])
    assert result.exit_code == 0 and ": valid: " in result.output
    body = json.loads(path.read_text())
    first = next(iter(body["strategy"]))
    body["strategy"][first] = (body["strategy"][first] + 1) % 81
    body.pop("crc32")
    import zlib

    body["crc32"] = zlib.crc32(json.dumps(body, sort_keys=True).encode())
    path.write_text(json.dumps(body))  # a consistent file with a wrong strategy
    result = runner.invoke(prove, ["--check", str(path)])
    assert result.exit_code == 1 and "Error:" in result.output
    notes = tmp_path / "notes.txt"
    notes.write_text("keep me")
    result = runner.invoke(prove, ["--moves", moves, "--proof", str(notes)])
    assert result.exit_code == 2 and "--force overwrites" in result.output
    assert notes.read_text() == "keep me"
    result = runner.invoke(prove, ["--moves", "5,5 1,1"])
    assert result.exit_code == 2
    assert "--moves: move 2 ('1,1'): 1,1: the move must be in board 5" in result.output
    result = runner.invoke(prove, ["--moves", "5,5 5,1", "--max-nodes", "300"])
    assert result.exit_code == 0 and "unknown within budget" in result.output


def test_prove_suite_signature_is_deterministic():
    from click.testing import CliRunner

    from fastttt.cli.prove import prove

    runs = [
        CliRunner().invoke(prove, ["--suite", "--max-nodes", "2000", "--tt-bits", "16"])
        for _ in range(2)
    ]
    assert runs[0].exit_code == 0, runs[0].output
    bench = [line for line in runs[0].output.splitlines() if line.startswith("Bench: ")]

    def without_times(output):
        return [line.rsplit("nodes", 1)[0] for line in output.splitlines()]

    assert bench and without_times(runs[0].output) == without_times(runs[1].output)
    assert int(bench[0].split()[1]) > 20 * 2000  # every position asked twice or proved


def test_the_table_keeps_the_shallower_state_of_a_bucket():
    from fastttt.kernels import ultimate_dfpn as D

    keys = np.zeros(8, dtype=np.uint64)
    pn, dn = np.zeros(8, dtype=np.int64), np.zeros(8, dtype=np.int64)
    ply = np.zeros(8, dtype=np.uint8)

    def store(h, p, at):
        D._tt_store(keys, pn, dn, ply, np.uint64(h), np.int64(p), np.int64(p + 1), np.uint8(at))

    def stored(h):
        got_pn, got_dn, found = D.tt_lookup(keys, pn, dn, np.uint64(h))
        return (int(got_pn), int(got_dn)) if found else None

    store(16, 1, 10)  # 16, 32, 48 and 64 share bucket 0 of this 8-entry table
    store(32, 2, 20)
    assert stored(16) == (1, 2) and stored(32) == (2, 3)
    store(48, 3, 30)  # deeper: takes the second entry, the shallower one stays
    assert stored(16) == (1, 2) and stored(32) is None and stored(48) == (3, 4)
    store(64, 4, 5)  # shallower: first entry; the state it displaces goes second
    assert stored(64) == (4, 5) and stored(16) == (1, 2) and stored(48) is None
    store(16, 7, 10)  # a state already stored is updated where it is
    assert stored(16) == (7, 8) and stored(64) == (4, 5)


def test_a_tiny_table_gives_the_same_verdicts():
    states = P.suite_positions(False)[:8]  # plies 60 and 50: settled within the budget
    for state in states:
        big = P.solve(state, max_nodes=2_000_000, tt_bits=22)
        small = P.solve(state, max_nodes=2_000_000, tt_bits=8)
        assert big.proved and small.proved and small.verdict == big.verdict


def reference_distance(ref: RefState, who: str, far: int) -> int:
    """The stones ``who`` lacks for three boards in a row, from the plain rules: over the lines
    of boards, the least sum of the stones each board lacks; ``far`` when none can be made."""
    other = "O" if who == "X" else "X"

    def lacks(b: int) -> int:
        if ref.claims[b] == who:
            return 0
        if ref.claims[b] is not None or ref.board_finished(b):
            return far
        cells = ref.grid[b]
        open_lines = [line for line in LINES if all(cells[i] != other for i in line)]
        return min((sum(cells[i] != who for i in line) for line in open_lines), default=far)

    return min(far, *(sum(lacks(b) for b in line) for line in LINES))


@pytest.mark.parametrize("open_won_boards", [False, True])
def test_the_distance_estimate_equals_the_plain_rules_count(open_won_boards):
    from fastttt.kernels import ultimate_dfpn as D

    seen = set()
    for ply in (10, 30, 45, 64):
        for state, ref in positions(10, ply, open_won_boards):
            for side in (0, 1):
                got = D.distance(state.array(), side)
                assert got == reference_distance(ref, "XO"[side], D.FAR), (state, side)
                seen.add(got)
    assert D.FAR in seen and len(seen) >= 5


@pytest.mark.parametrize("open_won_boards", [False, True])
def test_the_searchs_estimate_from_its_parent_equals_the_distances(open_won_boards):
    from fastttt.kernels import ultimate_dfpn as D

    cut = 0
    for seed in range(20):
        rng = random.Random(seed)
        state = UltimateState(open_won_boards)
        while not state.is_over():
            lacks = np.zeros((2, 9), dtype=np.int64)
            for side in (0, 1):
                D.fill_lacks(state.array(), side, lacks[side])
            before = lacks.copy()
            for move in state.legal_moves():
                child = state.play(move).array()
                for attacker in (0, 1):
                    mine, theirs = D.distance(child, attacker), D.distance(child, 1 - attacker)
                    want = (D.INF, 0) if mine >= D.FAR else (max(mine, 1), max(theirs, 1))
                    assert D.estimate(child, move // 9, lacks, attacker) == want
                    cut += mine >= D.FAR
            assert (lacks == before).all()
            state = state.play(rng.choice(state.legal_moves()))
    assert cut > 10


@pytest.mark.parametrize("open_won_boards", [False, True])
def test_the_estimate_changes_the_work_not_the_values(open_won_boards):
    from fastttt.kernels import ultimate_dfpn as D

    cut = 0
    for state, _ in positions(16, 60, open_won_boards):
        plain = P.solve(state, max_nodes=3_000_000, estimate=False)
        guided = P.solve(state, max_nodes=3_000_000)
        assert plain.proved and guided.proved and guided.verdict == plain.verdict, state
        cut += any(D.distance(state.array(), side) == D.FAR for side in (0, 1))
    assert cut >= 1  # some position is one where a side can no longer win


def test_check_says_what_is_wrong_with_a_file_once(tmp_path):
    import zlib

    from click.testing import CliRunner

    from fastttt.cli.prove import prove

    empty = str(UltimateState(open_won_boards=True))
    base = {"format": P.FORMAT, "version": 2, "game": "ultimate", "attacker": "X"}
    cases = {
        "position text 'garbage'": {"position": "garbage", "claim": "proven", "strategy": {}},
        "malformed proof (strategy)": {
            "position": empty,
            "claim": "proven",
            "strategy": {"x": True},
        },
        "malformed proof (claim 'won')": {"position": empty, "claim": "won", "strategy": {}},
        "the strategy has no move for": {"position": empty, "claim": "proven", "strategy": {}},
    }
    state, _ = positions(1, 56)[0]
    prover = P.Prover(tt_bits=16)
    tree = P.proof_tree(prover.prove(state, max_nodes=5_000_000), prover)
    cases["positions it never reaches"] = {
        "position": tree.position,
        "claim": tree.claim,
        "attacker": "XO"[tree.attacker],
        "strategy": {**tree.strategy, empty: 40},
    }
    for i, (message, fields) in enumerate(cases.items()):
        body = {**base, **fields}
        body["crc32"] = zlib.crc32(json.dumps(body, sort_keys=True).encode())
        path = tmp_path / f"bad{i}.json"
        path.write_text(json.dumps(body))
        result = CliRunner().invoke(prove, ["--check", str(path)])
        assert result.exit_code == 1 and message in result.output, (message, result.output)
        assert result.output.count(str(path)) == 1, result.output


@pytest.mark.parametrize("open_won_boards", [False, True])
def test_the_reference_names_positions_as_the_engine_does(open_won_boards):
    # proof files key positions by their text: the checker's rules must spell it the same
    rng = random.Random(12)
    named = 0
    for _ in range(150):
        state, ref = UltimateState(open_won_boards), RefState(open_won_boards=open_won_boards)
        while True:
            assert str(state) == ref.text(), (state, ref.text())
            named += 1
            if state.is_over():
                break
            move = rng.choice(state.legal_moves())
            state, ref = state.play(move), ref.play(move)
    assert named > 5_000
