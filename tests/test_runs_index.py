"""The column-runs index of gravity boards: a bijection between each layer's slots and the
allowed colourings, every reachable position in it, sizes equal to a brute-force count."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from fastttt.errors import GameSpecError, InvalidPositionError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import as_spec
from fastttt.tables.index import LayerIndex
from fastttt.tables.runs_index import ColumnRunsIndex, column_runs_sizes

STRICTNESS = [pytest.param(True, id="strict"), pytest.param(False, id="buried")]


def column_allowed(column: str, k: int, last_mover: str, strict: bool) -> bool:
    """The rule, read off a column's text bottom to top ('XXO...'): runs below the top one
    shorter than k; strict: the top run at most k long, and of k only for the last mover."""
    runs = [(colour, len(list(group))) for colour, group in itertools.groupby(column)]
    if any(length >= k for _, length in runs[:-1]):
        return False
    if strict and runs and runs[-1][1] >= k:
        return runs[-1] == (last_mover, k)
    return True


def columns_of(pos: Position) -> list[str]:
    """Each column's stones bottom to top, read from the position's text."""
    rows = str(pos).split("/")
    return ["".join(row[c] for row in reversed(rows)).rstrip(".") for c in range(pos.spec.cols)]


def is_allowed(pos: Position, strict: bool) -> bool:
    spec = pos.spec
    last_mover = "X" if pos.ply % 2 else "O"
    columns = columns_of(pos)
    if not all(column_allowed(col, spec.k, last_mover, strict) for col in columns):
        return False
    long_columns = sum(len(col) >= spec.k and len(set(col[-spec.k :])) == 1 for col in columns)
    return not strict or long_columns <= 1


def brute_force_sizes(game: str, strict: bool, mirror: bool = False) -> list[int]:
    """Allowed colourings of every layer, by trying every colouring of every height vector
    (mirror: of the height vectors no larger than their mirror image, as tuples)."""
    spec = as_spec(game)
    sizes = [0] * (spec.cells + 1)
    for heights in itertools.product(range(spec.rows + 1), repeat=spec.cols):
        if mirror and heights[::-1] < heights:
            continue
        n = sum(heights)
        cells = [
            (spec.rows - 1 - j) * spec.cols + c for c in range(spec.cols) for j in range(heights[c])
        ]
        for xs in itertools.combinations(cells, (n + 1) // 2):
            first = sum(1 << cell for cell in xs)
            second = sum(1 << cell for cell in cells) ^ first
            sizes[n] += is_allowed(Position(spec, first, second), strict)
    return sizes


def reachable_by_ply(game: str) -> list[set[Position]]:
    """Positions after each ply from the empty board (a game stops at its first line)."""
    layers = [{Position.empty(game)}]
    while layers[-1]:
        layers.append({p.play(m) for p in layers[-1] if not p.is_over() for m in p.legal_moves()})
    return layers[:-1]


@pytest.mark.parametrize("strict", STRICTNESS)
@pytest.mark.parametrize("game", ["3x3k2g", "3x4k3g", "4x3k3g", "2x4k2g"])
def test_layer_sizes_are_a_brute_force_count(game, strict):
    sizes = brute_force_sizes(game, strict)
    assert column_runs_sizes(game, strict) == sizes
    assert ColumnRunsIndex(game, strict).layer_sizes == sizes
    assert column_runs_sizes(game, strict, mirror=True) == brute_force_sizes(game, strict, True)


@pytest.mark.parametrize("strict", STRICTNESS)
@pytest.mark.parametrize("game", ["4x4k4g", "5x4k3g", "3x5k3g", "4x3k2g"])
def test_rank_inverts_unrank_over_whole_layers(game, strict):
    index = ColumnRunsIndex(game, strict)
    for n in range(index.layer_count):
        slots = np.arange(index.layer_size(n), dtype=np.int64)
        firsts, seconds = index.unrank_many(n, slots)
        np.testing.assert_array_equal(index.rank_many(n, firsts, seconds), slots)
        assert np.all(np.bitwise_count(firsts) == (n + 1) // 2)
        assert np.all(np.bitwise_count(seconds) == n // 2)


@pytest.mark.parametrize("strict", STRICTNESS)
@pytest.mark.parametrize("game", ["4x4k3g", "3x5k4g"])
def test_unranked_positions_are_legal_and_allowed(game, strict):
    index = ColumnRunsIndex(game, strict)
    spec = index.spec
    rng = np.random.default_rng(7)
    for n in range(index.layer_count):
        slots = np.unique(rng.integers(0, index.layer_size(n), 300))
        firsts, seconds = index.unrank_many(n, slots)
        for first, second in zip(firsts.tolist(), seconds.tolist(), strict=True):
            pos = Position(spec, first, second)  # raises on floating stones or bad counts
            assert pos.ply == n
            assert is_allowed(pos, strict)


@pytest.mark.parametrize("strict", STRICTNESS)
@pytest.mark.parametrize("game", ["4x4k4g", "3x4k3g", "5x3k3g", "6x3k3g", "6x2k2g"])
def test_every_reachable_position_has_a_slot(game, strict):
    index = ColumnRunsIndex(game, strict)
    layers = reachable_by_ply(game)
    if game == "4x4k4g":
        assert sum(map(len, layers)) == 161_029  # Tromp's count
    for n, layer in enumerate(layers):
        positions = sorted(layer, key=lambda p: (p.first, p.second))
        firsts = np.array([p.first for p in positions], dtype=np.uint64)
        seconds = np.array([p.second for p in positions], dtype=np.uint64)
        slots = index.rank_many(n, firsts, seconds)
        assert np.all(slots >= 0)
        back_first, back_second = index.unrank_many(n, slots)
        np.testing.assert_array_equal(back_first, firsts)
        np.testing.assert_array_equal(back_second, seconds)


def test_left_out_positions_rank_to_no_slot():
    index = ColumnRunsIndex("4x4k3g")
    buried = Position.from_text("4x4k3g", "O.../X.../X.../XOO.")  # a line under an O
    assert (
        index.rank_many(
            6, np.array([buried.first], np.uint64), np.array([buried.second], np.uint64)
        )[0]
        == -1
    )
    with pytest.raises(InvalidPositionError, match="no slot"):
        index.rank(buried.first, buried.second)
    two_lines = Position.from_text("4x4k3g", "..../XOO./XOO./XOXX")  # X and O lines, O last
    assert not is_allowed(two_lines, strict=True)
    with pytest.raises(InvalidPositionError, match="no slot"):
        index.rank(two_lines.first, two_lines.second)
    layer, slot = ColumnRunsIndex("4x4k3g", strict=False).rank(two_lines.first, two_lines.second)
    assert layer == 10 and slot >= 0
    with pytest.raises(InvalidPositionError, match="no slot"):
        index.rank(1 << 0, 1 << 12)  # X floats in the top row


def test_bad_input_is_refused():
    with pytest.raises(GameSpecError, match="gravity"):
        ColumnRunsIndex("4x4k4")
    index = ColumnRunsIndex("4x4k4g")
    with pytest.raises(InvalidPositionError, match="outside"):
        index.unrank(3, index.layer_size(3))
    with pytest.raises(InvalidPositionError, match="not a position of layer"):
        index.rank_many(2, np.array([1], np.uint64), np.array([0], np.uint64))


def test_fewer_slots_than_the_heights_index_on_connect_four():
    heights = LayerIndex("6x7k4g", symmetry=False).layer_sizes
    loose = column_runs_sizes("6x7k4g", strict=False)
    strict = column_runs_sizes("6x7k4g")
    assert all(s <= b <= a for a, b, s in zip(heights, loose, strict, strict=True))
    assert loose[:7] == heights[:7] and loose[7] < heights[7]  # XXXXO needs 7 stones
    assert sum(strict) < sum(loose) < sum(heights)


def mirrored(spec, masks: np.ndarray) -> np.ndarray:
    """Left-right mirror images of bitboards (cell row * cols + col)."""
    out = np.zeros_like(masks)
    for cell in range(spec.cells):
        r, c = divmod(cell, spec.cols)
        target = r * spec.cols + spec.cols - 1 - c
        out |= ((masks >> np.uint64(cell)) & np.uint64(1)) << np.uint64(target)
    return out


@pytest.mark.parametrize("game", ["4x4k4g", "3x5k3g", "5x3k3g", "3x4k3g"])
def test_with_the_mirror_a_position_and_its_image_share_one_slot(game):
    index = ColumnRunsIndex(game, symmetry=True)
    assert index.layer_sizes == column_runs_sizes(game, mirror=True)
    spec = index.spec
    for n, layer in enumerate(reachable_by_ply(game)):
        firsts = np.array([p.first for p in layer], dtype=np.uint64)
        seconds = np.array([p.second for p in layer], dtype=np.uint64)
        slots = index.rank_many(n, firsts, seconds)
        assert np.all((0 <= slots) & (slots < index.layer_size(n)))
        mirror_slots = index.rank_many(n, mirrored(spec, firsts), mirrored(spec, seconds))
        np.testing.assert_array_equal(mirror_slots, slots)
        back_first, back_second = index.unrank_many(n, slots)  # the canonical form
        same = (back_first == firsts) & (back_second == seconds)
        image = (back_first == mirrored(spec, firsts)) & (back_second == mirrored(spec, seconds))
        assert np.all(same | image)
    for n in range(index.layer_count):  # every slot is its own slot or a canonical one's
        slots = np.arange(index.layer_size(n), dtype=np.int64)
        firsts, seconds = index.unrank_many(n, slots)
        ranked = index.rank_many(n, firsts, seconds)
        assert np.all((ranked == slots) | (ranked < slots) & (ranked >= 0))
