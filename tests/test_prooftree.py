"""Proof files (fastttt.search.prooftree) and their independent checker
(fastttt.reference.proofcheck): values equal the tables', every proof replays on the plain rules,
the checker's rules are fastttt's, and a strategy or file that is wrong in any way is refused."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from click.testing import CliRunner

from fastttt.cli import main
from fastttt.errors import InvalidPositionError, SearchBudgetError, TableFileError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import as_spec
from fastttt.reference.proofcheck import (
    ProofCheckError,
    Rules,
    canonical_text,
    check_claim,
    check_pairing,
    forced_move,
    lines_through,
    mapped_board,
    read_position,
    symmetries,
)
from fastttt.search import prooftree
from fastttt.search.dfpn import ProofSearch
from fastttt.search.prooftree import Claim, Proof, check, load, prove_with_strategies, save
from fastttt.tables.dense import solve

from proving import random_positions


def table_value(table, pos: Position) -> int:
    """The table's value for the side to move (1 win, 0 draw, -1 loss)."""
    return table.value(pos) * (1 if pos.to_move == 0 else -1)


@pytest.mark.parametrize(
    "game, count",
    [("tictactoe", 40), ("3x4k3g", 40), ("4x4k3", 25), ("4x4k4g", 20), ("4x4k4", 6)],
)
def test_values_match_the_tables_and_every_proof_holds(game, count):
    spec = as_spec(game)
    table = solve(spec)
    positions = [Position.empty(spec)] + random_positions(spec, count, seed=7)
    for pos in positions:
        proof = prove_with_strategies(pos, tt_bits=16)
        assert proof.value == table_value(table, pos), pos
        reports = check(proof)
        assert len(reports) == (2 if proof.value == 0 else 1)
        assert all(r.positions >= 1 for r in reports)


def test_the_empty_4x4_k4_draw_needs_both_strategies_and_pairings_close_them():
    """Without certificates the two strategies held 5,829 moves; pairings close the games
    early, and every certificate is a position the table says the attacker does not win."""
    spec = as_spec("4x4k4")
    proof = prove_with_strategies(Position.empty(spec), tt_bits=18)
    assert proof.value == 0
    assert {(c.attacker, c.attacker_wins) for c in proof.claims} == {(0, False), (1, False)}
    assert all(c.strategy and c.pairings for c in proof.claims)
    assert proof.positions < 100
    reports = check(proof)
    assert sum(r.pairings for r in reports) == proof.pairings
    table = solve(spec)
    for claim in proof.claims:
        for text in claim.pairings:
            pos = Position.from_text(spec, text)
            value = table.value(pos)  # the first player's
            assert (value if claim.attacker == 0 else -value) < 1, (text, claim.attacker)


def test_a_broken_pairing_certificate_is_caught():
    proof = prove_with_strategies(Position.empty(as_spec("4x4k4")), tt_bits=18)
    claim = proof.claims[0]
    text, pairs = next(iter(claim.pairings.items()))

    def checked(bad, attacker_wins=False):
        broken = Claim(claim.attacker, attacker_wins, claim.strategy, {**claim.pairings, text: bad})
        check_claim(
            Rules(4, 4, 4, False),
            proof.root,
            claim.attacker,
            attacker_wins,
            broken.strategy,
            broken.pairings,
        )

    with pytest.raises(ProofCheckError, match="no pair of the certificate lies on the line"):
        checked(pairs[1:])
    with pytest.raises(ProofCheckError, match="not disjoint"):
        checked(pairs + ((pairs[0][0], pairs[1][1]),))
    taken = next(c for c, ch in enumerate(text.replace("/", "")) if ch != ".")
    with pytest.raises(ProofCheckError, match="not empty"):
        checked(((taken, pairs[0][1]),) + pairs[1:])
    with pytest.raises(ProofCheckError, match="only that an attacker does not win"):
        checked(pairs, attacker_wins=True)
    with pytest.raises(ProofCheckError, match="with gravity"):
        check_pairing(Rules(4, 4, 4, True), [0] * 16, [], 0, ((0, 1),))


@pytest.mark.parametrize("game", ["tictactoe", "3x4k3g", "4x5k4", "5x4k4g"])
def test_the_checker_rules_are_fastttt_rules(game):
    """Plain rules against Position over random games: legal moves, the cell a move fills,
    the text, and when a game ends."""
    spec = as_spec(game)
    rules = Rules(spec.rows, spec.cols, spec.k, spec.gravity)
    lines = rules.lines()
    rng = random.Random(3)
    for _ in range(30):
        pos = Position.empty(spec)
        board = [0] * spec.cells
        while True:
            assert rules.text(board) == str(pos)
            ended = any(
                board[line[0]] and all(board[c] == board[line[0]] for c in line) for line in lines
            )
            assert ended == (pos.winner() is not None)
            if pos.is_over():
                break
            assert rules.moves(board) == sorted(pos.legal_moves())
            move = rng.choice(pos.legal_moves())
            cell = rules.cell_of(board, move)
            assert cell is not None
            board[cell] = 1 + pos.to_move
            pos = pos.play(move)


@pytest.mark.parametrize(
    "game, text, stone, expected",
    [
        ("4x4k3", "XX../O.../O.../....", 1, 2),  # X completes its row at once
        ("4x4k3", "XX../O.../..../....", 2, 2),  # O has no line to complete: the one block
        ("4x4k3", "XX../.XO./O.../....", 2, None),  # two threats of X's: no move saves O
        ("4x4k3", "X.../O.../..../....", 1, None),  # nothing at once: the strategy's move
        ("4x4k3g", "..../..../O.../XX..", 2, 2),  # gravity: the block is column 2
    ],
)
def test_the_checker_picks_wins_and_the_only_block(game, text, stone, expected):
    spec = as_spec(game)
    rules = Rules(spec.rows, spec.cols, spec.k, spec.gravity)
    board, _ = read_position(rules, text)
    assert forced_move(rules, board, stone, lines_through(rules)) == expected


def test_win_strategies_leave_the_checker_its_picks():
    proof = prove_with_strategies(Position.empty(as_spec("4x4k3")), tt_bits=16)
    spec = as_spec("4x4k3")
    rules = Rules(spec.rows, spec.cols, spec.k, spec.gravity)
    through = lines_through(rules)
    strategy = proof.claims[0].strategy
    assert strategy and all(
        forced_move(rules, read_position(rules, text)[0], 1, through) is None for text in strategy
    )
    assert check(proof)[0].positions > 10 * len(strategy)  # the picks' games are replayed too


@pytest.mark.parametrize("game, value", [("3x6k3", 1), ("4x5k4", 0), ("4x4k4g", 0)])
def test_strategies_follow_the_tables_cheapest_answer(game, value, monkeypatch):
    """The prover's move is df-pn's own (the child whose answer the table holds with the least
    work): strategies come out smaller than with the heuristic order alone, and still hold."""
    pos = Position.empty(as_spec(game))
    followed = prove_with_strategies(pos, tt_bits=18)
    monkeypatch.setattr(prooftree, "_table_rank", lambda search, child, claim: (0, 0))
    heuristic = prove_with_strategies(pos, tt_bits=18)
    assert followed.value == heuristic.value == value
    assert 0 < followed.positions < heuristic.positions
    assert all(r.positions >= 1 for r in check(followed))


@pytest.mark.parametrize(
    "game, count",
    [
        ("3x3k3", 8),
        ("4x5k4", 4),
        ("5x4k3", 4),
        ("4x4k4g", 2),
        ("2x2k2", 8),
        ("1x5k3", 2),
        ("4x1k2g", 1),
    ],
)
def test_the_checkers_symmetries_map_lines_onto_lines(game, count):
    spec = as_spec(game)
    rules = Rules(spec.rows, spec.cols, spec.k, spec.gravity)
    cell_maps = symmetries(rules)
    assert len(cell_maps) == count and cell_maps[0] == list(range(spec.cells))
    lines = {frozenset(line) for line in rules.lines()}
    bottom = set(range(spec.cells - spec.cols, spec.cells))
    for cell_map in cell_maps:
        assert sorted(cell_map) == list(range(spec.cells))
        assert {frozenset(cell_map[c] for c in line) for line in lines} == lines
        if spec.gravity:  # stones fall to the bottom row, wherever the map takes them
            assert {cell_map[c] for c in bottom} == bottom


def _images_apart(proof: Proof) -> bool:
    """Whether no two positions of each strategy are images of each other."""
    spec = proof.spec
    rules = Rules(spec.rows, spec.cols, spec.k, spec.gravity)
    cell_maps = symmetries(rules)
    for claim in proof.claims:
        for table in (claim.strategy, claim.pairings):
            keys = [canonical_text(rules, read_position(rules, t)[0], cell_maps) for t in table]
            if len(set(keys)) != len(keys):
                return False
    return True


def _mirrored(proof: Proof, which: int, map_moves: bool = True, map_pairs: bool = True) -> Proof:
    """``proof`` with every strategy position and certificate position replaced by its image
    under the checker's symmetry ``which``, and their moves and pairs with them unless not
    ``map_moves`` or ``map_pairs``."""
    import dataclasses

    spec = proof.spec
    rules = Rules(spec.rows, spec.cols, spec.k, spec.gravity)
    cell_map = symmetries(rules)[which]

    def moved(text: str) -> str:
        return rules.text(mapped_board(read_position(rules, text)[0], cell_map))

    def move(m: int) -> int:
        if not map_moves:
            return m
        if spec.gravity:
            return cell_map[(spec.rows - 1) * spec.cols + m] % spec.cols
        return cell_map[m]

    def pairs(ps):
        return tuple((cell_map[x], cell_map[y]) for x, y in ps) if map_pairs else ps

    claims = tuple(
        dataclasses.replace(
            c,
            strategy={moved(t): move(m) for t, m in c.strategy.items()},
            pairings={moved(t): pairs(ps) for t, ps in c.pairings.items()},
        )
        for c in proof.claims
    )
    return dataclasses.replace(proof, claims=claims)


@pytest.mark.parametrize("game, image", [("4x5k4", 3), ("4x4k3", 5), ("4x4k4g", 1)])
def test_strategies_hold_one_position_of_each_set_of_images(game, image):
    """The builder answers one position of each set of images, and the checker maps that
    answer back: a proof holds as well with every position named by another image, and is
    caught when the moves are not mapped with them."""
    proof = prove_with_strategies(Position.empty(as_spec(game)), tt_bits=18)
    assert _images_apart(proof)
    assert [r.positions for r in check(_mirrored(proof, image))] == [
        r.positions for r in check(proof)
    ]
    with pytest.raises(ProofCheckError):
        check(_mirrored(proof, image, map_moves=False))
    claim = proof.claims[0]
    moved = _mirrored(proof, image).claims[0].strategy
    text, image_text = next(
        (t, m) for t, m in zip(claim.strategy, moved, strict=True) if t != m
    )  # the same order: one entry and its image
    broken = {t: m for t, m in claim.strategy.items() if t != text} | {image_text: 999}
    rules = Rules(proof.spec.rows, proof.spec.cols, proof.spec.k, proof.spec.gravity)
    with pytest.raises(ProofCheckError, match="move 999 is not legal .the move 999 of its image"):
        check_claim(rules, proof.root, claim.attacker, claim.attacker_wins, broken, claim.pairings)
    if proof.pairings:
        with pytest.raises(ProofCheckError, match="certificate of its image"):
            check(_mirrored(proof, image, map_pairs=False))


@pytest.mark.parametrize(
    "game, text, expected",
    [
        ("3x3k3", "X.X/.XO/O..", True),  # X completes a line on 1 or 8, O on none
        ("3x3k3", "X.X/.X./.OO", False),  # X completes a line on 1 or 6, but O on 6 first
        ("2x5k3g", "...../.XX.O", True),  # two playable ends of the bottom row
        ("3x4k3g", "..../.X../OXXO", False),  # one playable; the diagonal's end floats
    ],
)
def test_wins_in_two_needs_two_playable_cells_and_none_for_the_other(game, text, expected):
    spec = as_spec(game)
    lines = Rules(spec.rows, spec.cols, spec.k, spec.gravity).lines()
    assert prooftree._wins_in_two(Position.from_text(spec, text), 0, lines) is expected


@pytest.mark.parametrize(
    "game",
    [
        "4x6k4",  # 754 moves held, 4,921 without
        pytest.param("5x5k4", marks=pytest.mark.slow),  # 1,965 held, over 10 times more without
    ],
)
def test_strategies_play_the_moves_that_win_in_two_first(monkeypatch, game):
    """A draw's prover (kept from losing by df-pn) that can win in two moves does: the game
    ends there, where any other move needs a strategy below it. 5x5 k=4 held 41,050 moves
    without it (with 200-node certificate searches)."""
    pos = Position.empty(as_spec(game))
    first = prove_with_strategies(pos, tt_bits=20)
    assert first.value == 0 and all(r.positions >= 1 for r in check(first))
    monkeypatch.setattr(prooftree, "_wins_in_two", lambda *args: False)
    with pytest.raises(SearchBudgetError, match="more than"):
        prove_with_strategies(pos, tt_bits=20, max_positions=2 * first.positions)


def test_table_work_reads_the_answer_the_table_holds():
    spec = as_spec("4x4k3")
    search = ProofSearch(spec, tt_bits=16)
    empty = Position.empty(spec)
    assert search.table_work(empty, 0, True) is None  # nothing asked yet
    assert search.prove(empty, 0).proven
    assert search.table_work(empty, 0, True) > 0
    assert search.table_work(empty, 0, False) is None
    assert search.table_work(empty, 1, True) is None  # another question's entries
    with pytest.raises(InvalidPositionError, match="already over"):
        search.table_work(Position.from_moves(spec, [0, 4, 1, 5, 2]), 0, True)


def _win_proof() -> Proof:
    pos = Position.from_moves(as_spec("4x4k3"), [5])
    proof = prove_with_strategies(pos, tt_bits=16)
    assert proof.value == -1  # 4x4 k=3: the first player wins; O to move here loses
    return proof


def test_a_wrong_move_in_the_strategy_is_caught():
    proof = _win_proof()
    claim = proof.claims[0]
    spec = proof.spec
    broken = 0
    for text, move in list(claim.strategy.items()):
        pos = Position.from_text(spec, text)
        for other in pos.legal_moves():
            if other == move:
                continue
            wrong = dict(claim.strategy)
            wrong[text] = other
            try:
                check(Proof(spec, proof.root, proof.value, (Claim(claim.attacker, True, wrong),)))
            except ProofCheckError:
                broken += 1
        if broken >= 5:
            break
    assert broken >= 5  # some other moves still win; the checker refuses those that do not


def test_a_missing_or_illegal_move_and_a_wrong_value_are_caught():
    proof = _win_proof()
    claim = proof.claims[0]
    text = next(iter(claim.strategy))
    missing = {t: m for t, m in claim.strategy.items() if t != text}
    with pytest.raises(ProofCheckError, match="has no move here"):
        check(Proof(proof.spec, proof.root, proof.value, (Claim(claim.attacker, True, missing),)))
    taken = next(c for c, ch in enumerate(text.replace("/", "")) if ch != ".")
    illegal = {**claim.strategy, text: taken}
    with pytest.raises(ProofCheckError, match="not legal"):
        check(Proof(proof.spec, proof.root, proof.value, (Claim(claim.attacker, True, illegal),)))
    with pytest.raises(ProofCheckError, match="do not make the value"):
        check(Proof(proof.spec, proof.root, 1, proof.claims))
    last = "XOX/XOO/OX."  # X's last move draws
    with pytest.raises(ProofCheckError, match="ends a draw, against the claim"):
        check(Proof(as_spec("tictactoe"), last, 1, (Claim(0, True, {last: 8}),)))


@pytest.mark.parametrize(
    "text, words",
    [
        ("XX../..../..../....", "cannot be reached"),
        ("..../..../..../...", "not 4 rows"),
        ("X.../..../..../..?.", "'.', 'X' or 'O'"),
        ("XXX./OO../..../....", "already over"),
    ],
)
def test_roots_that_are_not_positions_are_refused(text, words):
    with pytest.raises(ProofCheckError, match=words):
        read_position(Rules(4, 4, 3, False), text)


def test_a_floating_stone_is_refused_with_gravity():
    with pytest.raises(ProofCheckError, match="over an empty cell"):
        read_position(Rules(3, 3, 3, True), "X../.../O..")


def test_a_version_1_file_without_certificates_still_loads(tmp_path):
    from fastttt.search.prooftree import _digest

    proof = _win_proof()
    content = {
        "format": "fastttt-proof",
        "version": 1,
        "game": {"rows": 4, "cols": 4, "k": 3, "gravity": False},
        "root": proof.root,
        "value": proof.value,
        "claims": [
            {
                "attacker": proof.claims[0].attacker,
                "attacker_wins": True,
                "strategy": proof.claims[0].strategy,
            }
        ],
    }
    path = tmp_path / "old.proof"
    path.write_text(json.dumps({**content, "sha256": _digest(content)}))
    assert load(path) == proof and check(load(path))


@pytest.mark.parametrize(
    "where, bad, words",
    [
        ("value", 0.5, "the value is an integer, not 0.5"),
        ("value", "1", "the value is an integer, not '1'"),
        ("value", True, "the value is an integer, not True"),
        ("value", 2, "the value is one of 1, 0, -1, not 2"),
        ("attacker", 2, "a claim's attacker is one of 0, 1, not 2"),
        ("attacker_wins", "false", "a claim's attacker_wins is true or false, not 'false'"),
        ("attacker_wins", 1, "a claim's attacker_wins is true or false, not 1"),
    ],
)
def test_a_field_of_another_kind_is_refused_even_with_a_good_checksum(tmp_path, where, bad, words):
    """A hand-edited field that still carries a matching SHA-256 is refused, not rounded or
    read as true (``int(0.5)``, ``bool("false")``)."""
    from fastttt.search.prooftree import _digest

    path = save(_win_proof(), tmp_path / "p.proof")
    data = json.loads(path.read_text())
    del data["sha256"]
    if where == "value":
        data["value"] = bad
    else:
        data["claims"][0][where] = bad
    path.write_text(json.dumps({**data, "sha256": _digest(data)}))
    with pytest.raises(TableFileError) as caught:
        load(path)
    assert f"fields are damaged ({words})" in str(caught.value)


def test_files_round_trip_and_damage_is_refused(tmp_path):
    proof = _win_proof()
    path = save(proof, tmp_path / "p.proof")
    again = load(path)
    assert again == proof
    assert check(again)
    data = json.loads(path.read_text())
    first = next(iter(data["claims"][0]["strategy"]))
    data["claims"][0]["strategy"][first] = (data["claims"][0]["strategy"][first] + 1) % 16
    path.write_text(json.dumps(data))
    with pytest.raises(TableFileError, match="SHA-256"):
        load(path)
    from fastttt.search.prooftree import _digest

    del data["sha256"]
    data["claims"][0]["strategy"][first] = "5"
    path.write_text(json.dumps({**data, "sha256": _digest(data)}))
    with pytest.raises(TableFileError, match="a strategy's move is an integer, not '5'"):
        load(path)
    data["claims"][0]["strategy"] = [[first, 5]]
    path.write_text(json.dumps({**data, "sha256": _digest(data)}))
    with pytest.raises(TableFileError, match="fields are damaged"):
        load(path)
    (tmp_path / "n.proof").write_text("[1, 2]")
    with pytest.raises(TableFileError, match="not a fastttt proof"):
        load(tmp_path / "n.proof")
    other = tmp_path / "notes.txt"
    other.write_text("mine")
    with pytest.raises(TableFileError, match="not a fastttt proof; refusing"):
        save(proof, other)
    assert other.read_text() == "mine"


def test_progress_counts_the_claims_together(monkeypatch):
    monkeypatch.setattr(prooftree, "PROGRESS_EVERY", 10)
    seen: list[int] = []
    proof = prove_with_strategies(Position.empty(as_spec("4x5k4")), progress=seen.append)
    assert proof.value == 0 and len(proof.claims) == 2
    assert seen == sorted(set(seen)) and len(seen) > 2
    assert seen[-1] > len(proof.claims[0].strategy) and seen[-1] <= proof.positions


def test_budgets_stop_with_a_clear_error():
    pos = Position.empty(as_spec("4x5k4"))
    with pytest.raises(SearchBudgetError, match="node budget"):
        prove_with_strategies(pos, max_nodes=50, tt_bits=16)
    with pytest.raises(SearchBudgetError, match="more than 10 positions"):
        prove_with_strategies(pos, max_positions=10, tt_bits=16)


def test_cli_builds_and_checks(tmp_path):
    out = tmp_path / "t.proof"
    result = CliRunner().invoke(
        main, ["proof", "build", "tictactoe", "--moves", "2,2", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "draw for the side to move" in result.stdout
    result = CliRunner().invoke(main, ["proof", "check", str(out), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["value"] == "draw" and doc["claims"] == 2 and doc["checked_positions"] > 0
    data = json.loads(out.read_text())
    data["value"] = 1
    data.pop("sha256")
    from fastttt.search.prooftree import _digest

    data["sha256"] = _digest(data)
    out.write_text(json.dumps(data))
    result = CliRunner().invoke(main, ["proof", "check", str(out)])
    assert result.exit_code == 1
    assert result.stderr.strip().startswith("Error:") and "value 1" in result.stderr


# --- boards inside: the withdrawn argument -------------------------------------------------


def test_a_proof_through_a_board_inside_is_refused(tmp_path):
    """Format 3 could stand a first-player win on a smaller board inside; that argument does
    not hold (the second player may complete a line outside first), so such files are
    refused with the reason, not checked."""
    small = prove_with_strategies(Position.empty(as_spec("3x4k3")), tt_bits=16)
    data = json.loads(save(small, tmp_path / "small.proof").read_text())
    data.pop("sha256")
    inner = {key: data[key] for key in ("game", "root", "value", "claims")}
    content = {
        "format": "fastttt-proof",
        "version": 3,
        "game": {"rows": 4, "cols": 5, "k": 3, "gravity": False},
        "root": "...../...../...../.....",
        "value": 1,
        "claims": [],
        "inside": {"row": 0, "col": 0, "turned": False, "proof": inner},
    }
    digest = hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()
    path = tmp_path / "inside.proof"
    path.write_text(json.dumps({**content, "sha256": digest}))
    with pytest.raises(TableFileError, match="smaller board inside .* withdrawn"):
        load(path)
    result = CliRunner().invoke(main, ["proof", "check", str(path)])
    assert result.exit_code == 1 and "withdrawn" in result.stderr


# --- published values as checkable files ---------------------------------------------------

_PUBLISHED = {  # game: slow (the default suite keeps free draws, a free win, a gravity draw)
    "4x5k4": False,
    "4x6k4": False,
    "5x5k4": True,
    "5x6k4": False,
    "5x4k4g": False,
    "6x4k4g": True,
    "4x6k4g": True,
    "5x5k4g": True,
    "7x7k5": True,
}


def _published():
    from fastttt.games.facts import known_values

    found = [known for known in known_values() if known.game in _PUBLISHED]
    assert {known.game for known in found} == set(_PUBLISHED)
    for known in found:
        marks = [pytest.mark.slow] if _PUBLISHED[known.game] else []
        yield pytest.param(known, id=known.game, marks=marks)


@pytest.mark.parametrize("known", list(_published()))
def test_published_values_are_files_that_check(known, tmp_path):
    """The literature file's values (fastttt/data/known_boards.txt) as proof files: built,
    saved, loaded and replayed on the plain rules."""
    proof = prove_with_strategies(Position.empty(known.spec))
    assert {1: "first", 0: "draw", -1: "second"}[proof.value] == known.value, known
    again = load(save(proof, tmp_path / f"{known.game}.proof"))
    reports = check(again)
    assert len(reports) == (2 if known.value == "draw" else 1)
