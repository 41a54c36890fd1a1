"""Opening books (fastttt.search.book): every entry exact against a plain recursion, files that
refuse damage and other games, builds that resume to the same bytes and do not depend on the
workers, and perfect play that reads the book."""

from __future__ import annotations

import numpy as np
import pytest

from fastttt.errors import GameSpecError, InvalidArgumentError, TableFileError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import as_spec
from fastttt.search import book as B
from fastttt.search.alphabeta import Searcher

from naive import benchmark_score_naive


def test_every_entry_is_exact(tmp_path):
    spec = as_spec("4x4k3g")  # 16 cells: the benchmark formula is the search's convention
    book = B.build(spec, 5, tmp_path / "b.book")
    memo: dict[int, int] = {}
    layers = B._layers(spec, 5)
    assert len(book) == sum(len(layer) for layer in layers)
    for layer in layers:
        for pos in layer.values():
            assert book.score(pos) == benchmark_score_naive(pos, memo), pos
    empty = Position.empty(spec)
    assert book.move_scores(empty) == Searcher(spec).move_scores(empty)
    deep = Position.from_moves(spec, [0, 1, 2, 3, 0, 1, 2])
    assert book.score(deep) is None and book.move_scores(deep) is None  # past the depth


def test_the_deepest_positions_keep_a_best_move_in_either_orientation(tmp_path):
    spec = as_spec("4x4k3g")
    book = B.build(spec, 4, tmp_path / "b.book")
    mirror = [spec.cols - 1 - c for c in range(spec.cols)]
    memo: dict[int, int] = {}
    kept = 0
    for layer in B._layers(spec, 4):
        for pos in layer.values():
            move = book.best_move(pos)
            if pos.ply < book.depth:
                assert move is None, pos  # shallower positions have their children's scores
                continue
            kept += 1
            scores = B.scores_of_moves(pos, lambda child: benchmark_score_naive(child, memo))
            assert scores[move] == book.score(pos), (pos, move)
            image = Position.from_text(spec, "/".join(row[::-1] for row in str(pos).split("/")))
            if str(image) != str(pos):  # a symmetric position may keep either twin move
                assert book.best_move(image) == mirror[move], pos
    assert kept == len(B._layers(spec, 4)[4])


def test_one_stone_past_the_depth_the_kept_moves_give_exact_scores(tmp_path):
    spec = as_spec("4x4k3g")
    book = B.build(spec, 4, tmp_path / "b.book")
    memo: dict[int, int] = {}
    layers = B._layers(spec, 5)
    known = {key: book.score(pos) for key, pos in layers[5].items()}
    for key, pos in layers[5].items():
        if known[key] is not None:
            assert known[key] == benchmark_score_naive(pos, memo), pos
    for parent in layers[4].values():
        child = parent.play(book.best_move(parent))
        assert child.is_over() or known[B.position_key(child)] is not None, parent
    assert 0 < sum(v is not None for v in known.values()) < len(known)
    some = next(pos for key, pos in layers[5].items() if known[key] is not None)
    assert B.Book(spec, 4, book.keys, book.scores).score(some) is None  # no moves kept


def test_mirrored_positions_share_an_entry():
    spec = as_spec("4x5k4g")
    left, right = Position.from_moves(spec, [0, 1]), Position.from_moves(spec, [4, 3])
    assert B.position_key(left) == B.position_key(right)
    assert B.position_key(left) != B.position_key(Position.from_moves(spec, [1, 0]))


def test_a_saved_book_loads_and_damage_is_refused(tmp_path):
    path = tmp_path / "b.book"
    book = B.build("4x5k4g", 3, path)
    loaded = B.load(path, "4x5k4g")
    assert loaded.depth == 3 and (loaded.keys == book.keys).all()
    assert (loaded.scores == book.scores).all() and (loaded.moves == book.moves).all()
    data = path.read_bytes()
    off_board = bytearray(data[:-5] + bytes([9]))  # the last entry's move: column 10 of 5
    off_board += B.zlib.crc32(bytes(off_board)).to_bytes(4, "little")
    cases = {
        "flip": data[:-20] + bytes([data[-20] ^ 1]) + data[-19:],
        "short": data[:-9],
        "other": b"not a book at all",
        "off-board": bytes(off_board),
    }
    for name, blob in cases.items():
        (tmp_path / name).write_bytes(blob)
        with pytest.raises(TableFileError):
            B.load(tmp_path / name)
    with pytest.raises(TableFileError, match="expected connect4"):
        B.load(path, "connect4")
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(TableFileError):
        B.build("4x5k4g", 1, tmp_path / "notes.txt")  # never replaces what is not a book
    assert (tmp_path / "notes.txt").read_text() == "mine"
    with pytest.raises(GameSpecError, match="gravity"):
        B.build("4x4k3", 1, tmp_path / "free.book")


def test_an_interrupted_build_resumes_to_the_same_bytes(tmp_path, monkeypatch):
    monkeypatch.setattr(B, "CHUNK", 8)
    whole = tmp_path / "whole.book"
    B.build("4x5k4g", 3, whole)

    class Stop(Exception):
        pass

    def stop_after_two(phase, done, total):
        if done == 2:
            raise Stop

    cut = tmp_path / "cut.book"
    with pytest.raises(Stop):
        B.build("4x5k4g", 3, cut, progress=stop_after_two)
    assert not cut.exists() and len(list((tmp_path / "cut.book.parts").glob("*.npy"))) == 2
    with pytest.raises(TableFileError, match="--resume it"):
        B.build("4x5k4g", 3, cut)
    with pytest.raises(TableFileError, match="another build"):
        B.build("4x5k4g", 2, cut, resume=True)
    B.build("4x5k4g", 3, cut, resume=True)
    assert cut.read_bytes() == whole.read_bytes()
    assert not (tmp_path / "cut.book.parts").exists()


def test_resuming_a_finished_book_keeps_it_and_its_extension(tmp_path):
    # --resume on a finished, extended book rebuilt it and dropped the extension
    path = tmp_path / "b.book"
    B.build("4x5k4g", 2, path)
    B.extend(path, 4)
    extended = path.read_bytes()
    book = B.build("4x5k4g", 2, path, resume=True)
    assert path.read_bytes() == extended and book.lines == 4 and book.past_keys.size > 0
    deeper = B.build("4x5k4g", 3, path, resume=True)  # another depth: built, as without resume
    assert deeper.depth == 3 and deeper.lines == 0 and B.load(path).depth == 3


def test_two_workers_build_the_same_book(tmp_path, monkeypatch):
    monkeypatch.setattr(B, "CHUNK", 16)
    B.build("4x5k4g", 3, tmp_path / "one.book")
    B.build("4x5k4g", 3, tmp_path / "two.book", workers=2)
    assert (tmp_path / "one.book").read_bytes() == (tmp_path / "two.book").read_bytes()


def test_perfect_play_reads_the_book(tmp_path, monkeypatch):
    import fastttt.play.players as P

    spec = as_spec("4x5k4g")
    book = B.build(spec, 4, tmp_path / "b.book")
    table = P.move_outcomes(Position.from_moves(spec, [2]))  # the solved table's answer
    monkeypatch.setattr(P, "uses_table", lambda spec: False)
    monkeypatch.setattr(B, "shipped", lambda s: book if s == spec else None)
    monkeypatch.setattr("fastttt.search.alphabeta.move_scores", _no_search)
    assert P.move_outcomes(Position.from_moves(spec, [2])) == table


def test_a_version_1_book_still_loads_without_moves(tmp_path):
    book = B.build("4x5k4g", 2, tmp_path / "b.book")
    old = B.Book(book.spec, book.depth, book.keys, book.scores)  # written as version 1 was:
    header = {"format": "fastttt-book", "version": 1, "game": B.game_fields(book.spec)}
    header |= {"depth": book.depth, "count": len(book)}
    parts = [book.keys.astype("<u8"), book.scores]
    B.write_framed(tmp_path / "v1.book", B.MAGIC, header, parts, TableFileError)
    loaded = B.load(tmp_path / "v1.book")
    assert loaded.moves is None and (loaded.scores == old.scores).all()
    assert loaded.best_move(Position.from_moves(book.spec, [2, 2])) is None


def test_perfect_play_takes_the_books_move_at_its_depth(tmp_path, monkeypatch):
    import fastttt.play.players as P

    spec = as_spec("4x5k4g")
    book = B.build(spec, 3, tmp_path / "b.book")
    pos = Position.from_moves(spec, [2, 2, 1])
    monkeypatch.setattr(P, "uses_table", lambda spec: False)
    monkeypatch.setattr(B, "shipped", lambda s: book if s == spec else None)
    monkeypatch.setattr(Searcher, "first_best_move", _no_search)
    assert P.PerfectPlayer().choose(pos, __import__("random").Random(0)) == book.best_move(pos)


def _no_search(pos, **kw):
    raise AssertionError("perfect play searched a position the book holds")


def _shipped_connect4():
    from fastttt.games.mnk.spec import connect4

    book = B.shipped(connect4)
    if book is None:
        pytest.skip("no Connect Four book is shipped")
    return book


def _plies_of_keys(spec, keys: np.ndarray) -> np.ndarray:
    """The stones of each position given by its :func:`B.position_key` (a column of height h
    reads ``cur + mask`` in ``[2**h - 1, 2**(h + 1) - 2]``)."""
    h1 = spec.rows + 1
    plies = np.zeros(keys.shape, dtype=np.int64)
    for c in range(spec.cols):
        column = ((keys >> np.uint64(c * h1)) & np.uint64((1 << h1) - 1)).astype(np.int64)
        plies += np.floor(np.log2(column + 1)).astype(np.int64)
    return plies


def test_the_shipped_connect4_book_holds_every_shallow_position():
    """The default-suite part of the wholeness check below (-m slow): the book's entries of
    up to 7 stones are exactly the live positions of up to 7 stones, none lies past its
    depth, and the lines of its deepest ply are kept."""
    book = _shipped_connect4()
    shallow = 7
    layers = B._layers(book.spec, shallow)
    plies = _plies_of_keys(book.spec, book.keys)
    assert plies.max() == book.depth
    for ply, layer in enumerate(layers):
        assert set(book.keys[plies == ply].tolist()) == set(layer), ply
    empty = Position.empty(book.spec)
    assert book.score(empty) == 1  # the first player wins with its 21st stone (move 41)
    assert max(book.move_scores(empty).items(), key=lambda kv: kv[1]) == (3, 1)  # the centre
    past = _plies_of_keys(book.spec, book.past_keys)
    assert set(past.tolist()) == set(range(book.depth + 1, book.lines + 1))
    assert set(B.perfect_lines(book, book.lines)) == set(
        book.past_keys[past == book.lines].tolist()
    )


@pytest.mark.slow
def test_the_shipped_connect4_book_is_whole():
    book = _shipped_connect4()
    layers = B._layers(book.spec, book.depth)
    assert len(book) == sum(len(layer) for layer in layers)  # every position, mirrors once
    empty = Position.empty(book.spec)
    assert book.score(empty) == 1  # the first player wins with its 21st stone (move 41)
    assert max(book.move_scores(empty).items(), key=lambda kv: kv[1]) == (3, 1)  # the centre
    lines = {
        key for ply in range(book.depth + 1, book.lines + 1) for key in B.perfect_lines(book, ply)
    }
    assert lines == set(book.past_keys.tolist())  # every position perfect play meets, no other


@pytest.mark.slow
def test_a_sample_of_the_shipped_connect4_book_against_search():
    book = _shipped_connect4()
    rng = np.random.default_rng(4)
    layer = sorted(B._layers(book.spec, book.depth)[book.depth].items())
    searcher = Searcher(book.spec)
    past = [
        pos
        for p in range(book.depth + 1, book.lines + 1)
        for pos in B.perfect_lines(book, p).values()
    ]
    for at in rng.choice(len(layer), 12, replace=False):
        pos = layer[int(at)][1]
        assert book.score(pos) == searcher.solve(pos).score, pos
    for at in rng.choice(len(past), min(12, len(past)), replace=False):
        pos = past[int(at)]
        score = searcher.solve(pos).score
        assert book.score(pos) == score, pos
        assert searcher.best_moves(pos, score).count(book.best_move(pos)) == 1, pos


def test_lookup_of_bitboards_agrees_with_score(tmp_path):
    spec = as_spec("4x5k4g")
    book = B.build(spec, 4, tmp_path / "b.book")
    s = Searcher(spec)
    positions = [pos for layer in B._layers(spec, 5) for pos in layer.values()]
    internal = [s.internal(pos) for pos in positions]
    curs = np.array([cur for cur, _, _ in internal], dtype=np.uint64)
    masks = np.array([mask for _, mask, _ in internal], dtype=np.uint64)
    plies = np.array([ply for _, _, ply in internal], dtype=np.int64)
    found, scores = book.lookup(curs, masks, plies)
    for pos, f, score in zip(positions, found, scores, strict=True):
        expected = book.score(pos) if pos.ply <= book.depth else None  # lookup: to the depth
        assert f == (expected is not None) and (not f or score == expected), pos


@pytest.mark.parametrize("weak", [False, True])
def test_the_filter_reads_every_move_from_the_book(tmp_path, weak):
    from io import StringIO

    from fastttt.search.connect4 import run_filter

    spec = as_spec("4x5k4g")
    book = B.build(spec, 3, tmp_path / "b.book")
    lines = ["", "1", "12", "33", "123", "1234", "12345"]  # plies 0 to 5
    answers = []
    for with_book in (None, book):
        out, err = StringIO(), StringIO()
        options = dict(all_moves=True, weak=weak, nodes=True, book=with_book)
        assert run_filter(spec, [line + "\n" for line in lines], out, err, **options) == 0
        answers.append([row.split() for row in out.getvalue().splitlines()])
    searched, read = answers  # each row: position (none when empty), scores, nodes, time
    assert [row[:-2] for row in read] == [row[:-2] for row in searched]
    for line, row in zip(lines, read, strict=True):
        nodes = int(row[-2])
        assert (nodes == 0) == (len(line) < book.depth), (line, row)  # children in the book


def test_extended_lines_hold_exact_scores_and_moves_that_keep_them(tmp_path):
    spec = as_spec("4x4k3g")  # 16 cells: the benchmark formula is the search's convention
    path = tmp_path / "b.book"
    book = B.build(spec, 3, path)
    extended = B.extend(path, 6)
    assert extended.lines == 6 and B.load(path).lines == 6
    assert extended.past_keys.size == sum(len(B.perfect_lines(extended, p)) for p in (4, 5, 6))
    memo: dict[int, int] = {}
    for ply in (4, 5, 6):
        for pos in B.perfect_lines(extended, ply).values():
            score = benchmark_score_naive(pos, memo)
            assert extended.score(pos) == score, pos
            scores = B.scores_of_moves(pos, lambda child: benchmark_score_naive(child, memo))
            assert scores[extended.best_move(pos)] == score, pos
    assert (B.load(path).keys == book.keys).all() and len(extended) == len(book)
    assert extended.score(Position.from_moves(spec, [0, 1, 2, 3, 0, 1, 2, 3])) is None


def test_a_deeper_book_reuses_the_lines_of_a_shallower_one(tmp_path, monkeypatch):
    spec = as_spec("4x4k3g")
    shallow = B.build(spec, 3, tmp_path / "shallow.book")
    shallow = B.extend(tmp_path / "shallow.book", 6)
    deep_path = tmp_path / "deep.book"
    B.build(spec, 4, deep_path)
    searched: list[str] = []
    real = B._solve_chunk
    monkeypatch.setattr(
        B,
        "_solve_chunk",
        lambda game, texts, scores: searched.extend(texts) or real(game, texts, scores),
    )
    deep = B.extend(deep_path, 6, reuse=shallow)
    lines = {key: pos for p in (5, 6) for key, pos in B.perfect_lines(deep, p).items()}
    assert sorted(lines) == deep.past_keys.tolist()
    reused = [pos for pos in lines.values() if shallow.kept_entry(pos) is not None]
    assert reused and len(searched) == len(lines) - len(reused)
    memo: dict[int, int] = {}
    for pos in lines.values():
        score = benchmark_score_naive(pos, memo)
        assert deep.score(pos) == score, pos
        scores = B.scores_of_moves(pos, lambda child: benchmark_score_naive(child, memo))
        assert scores[deep.best_move(pos)] == score, pos
    with pytest.raises(InvalidArgumentError, match="of 4x5k4g|reuse"):
        B.extend(deep_path, 7, reuse=B.build("4x5k4g", 2, tmp_path / "other.book"))


def test_a_deeper_build_takes_the_scores_a_shallower_book_knows(tmp_path, monkeypatch):
    spec = as_spec("4x4k3g")
    B.build(spec, 3, tmp_path / "shallow.book")
    shallow = B.extend(tmp_path / "shallow.book", 5)
    plain = B.build(spec, 4, tmp_path / "plain.book")
    solved: list[int] = []
    real = Searcher.solve
    monkeypatch.setattr(
        Searcher, "solve", lambda self, pos: solved.append(pos.ply) or real(self, pos)
    )
    deep = B.build(spec, 4, tmp_path / "deep.book", reuse=shallow)
    leaves = B._layers(spec, 4)[4].values()
    known = [pos for pos in leaves if shallow.score(pos) is not None]
    assert known and solved.count(4) == len(leaves) - len(known)
    assert (deep.keys == plain.keys).all() and (deep.scores == plain.scores).all()
    memo: dict[int, int] = {}
    for pos in leaves:
        scores = B.scores_of_moves(pos, lambda child: benchmark_score_naive(child, memo))
        assert scores[deep.best_move(pos)] == deep.score(pos), pos
    with pytest.raises(InvalidArgumentError, match="reuse"):
        B.build("4x5k4g", 3, tmp_path / "other.book", reuse=shallow)


def test_perfect_play_meets_no_search_within_the_lines(tmp_path, monkeypatch):
    import random

    import fastttt.play.players as P

    spec = as_spec("4x5k4g")
    path = tmp_path / "b.book"
    B.build(spec, 3, path)
    book = B.extend(path, 7)
    monkeypatch.setattr(P, "uses_table", lambda spec: False)
    monkeypatch.setattr(B, "shipped", lambda s: book if s == spec else None)
    searched = []
    real = Searcher.first_best_move
    monkeypatch.setattr(
        Searcher,
        "first_best_move",
        lambda self, pos, *a: searched.append(pos.ply) or real(self, pos, *a),
    )
    rng = random.Random(3)
    for game in range(24):
        pos, perfect = Position.empty(spec), game % 2
        while not pos.is_over():
            if pos.to_move == perfect:
                move = P.perfect_move(pos, rng)
            else:
                move = rng.choice(pos.legal_moves())
            pos = pos.play(move)
    assert searched and min(searched) > 7  # past the lines only


def test_an_interrupted_extension_resumes_to_the_same_bytes(tmp_path, monkeypatch):
    monkeypatch.setattr(B, "CHUNK", 8)
    whole, cut = tmp_path / "whole.book", tmp_path / "cut.book"
    B.build("4x5k4g", 3, whole)
    cut.write_bytes(whole.read_bytes())
    B.extend(whole, 5)

    class Stop(Exception):
        pass

    def stop_in_ply_5(phase, done, total):
        if phase == "search 5" and done == 1:
            raise Stop

    with pytest.raises(Stop):
        B.extend(cut, 5, progress=stop_in_ply_5)
    assert B.load(cut).lines == 0  # untouched until the end
    with pytest.raises(TableFileError, match="--resume it"):
        B.extend(cut, 5)
    B.extend(cut, 5, resume=True)
    assert cut.read_bytes() == whole.read_bytes()
    with pytest.raises(InvalidArgumentError, match="lines"):
        B.extend(cut, 3)


def test_a_damaged_line_entry_is_refused(tmp_path):
    path = tmp_path / "b.book"
    B.build("4x5k4g", 2, path)
    extended = B.extend(path, 4)
    loaded = B.load(path)
    assert loaded.lines == 4 and (loaded.past_keys == extended.past_keys).all()
    assert (loaded.past_moves == extended.past_moves).all()
    data = path.read_bytes()
    off_board = bytearray(data[:-5] + bytes([9]))  # the last line entry's move: column 10 of 5
    off_board += B.zlib.crc32(bytes(off_board)).to_bytes(4, "little")
    (tmp_path / "off.book").write_bytes(bytes(off_board))
    with pytest.raises(TableFileError, match="off the board"):
        B.load(tmp_path / "off.book")


def test_extend_refuses_a_file_to_reuse_that_is_not_a_book(tmp_path):
    from click.testing import CliRunner

    from fastttt.cli import main

    path, other = tmp_path / "b.book", tmp_path / "notes.txt"
    B.build("4x5k4g", 2, path)
    other.write_text("not a book\n")
    before = path.read_bytes()
    args = ["book", "extend", str(path), "--lines", "3", "--reuse", str(other)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert str(other) in result.output and path.read_bytes() == before


@pytest.mark.parametrize("game", ["connect4", "4x5k4g", "5x6k4g"])
def test_one_code_mirrors_as_an_array_of_codes_does(game):
    spec = as_spec(game)
    rng = np.random.default_rng(7)
    codes = rng.integers(0, 1 << ((spec.rows + 1) * spec.cols), 2000, dtype=np.uint64)
    mirrored = B._mirror(spec, codes)
    assert mirrored.dtype == np.uint64
    assert [B._mirror(spec, int(c)) for c in codes] == mirrored.tolist()
