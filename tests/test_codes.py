"""Position codes (fastttt.codes): scalar, vectorised and Position agree, both ways."""

from __future__ import annotations

import random

import numpy as np
import pytest

from fastttt import codes
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import mnk
from fastttt.search.alphabeta import Searcher

SPECS = [
    mnk(1, 1, 1),
    mnk(3, 3, 3),
    mnk(4, 4, 3, gravity=True),
    mnk(3, 5, 3),
    mnk(6, 6, 4),
    mnk(5, 7, 4, gravity=True),
]


def random_positions(spec, count, seed):
    """Positions of random games (finished ones included), the empty board first."""
    rng = random.Random(seed)
    out = [Position.empty(spec)]
    while len(out) < count:
        pos = Position.empty(spec)
        for _ in range(rng.randrange(spec.cells + 1)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.play(rng.choice(moves))
        out.append(pos)
    return out


def naive_code(pos: Position) -> int:
    return sum(
        (1 if pos.first >> c & 1 else 2 if pos.second >> c & 1 else 0) * 3**c
        for c in range(pos.spec.cells)
    )


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_round_trips_scalar_vectorised_position(spec):
    positions = random_positions(spec, 60, seed=spec.cells)
    firsts = np.array([p.first for p in positions], dtype=np.uint64)
    seconds = np.array([p.second for p in positions], dtype=np.uint64)
    expected = [naive_code(p) for p in positions]
    for pos, code in zip(positions, expected, strict=True):
        assert codes.code_of_bitboards(pos.first, pos.second) == pos.code == code
        assert codes.bitboards_of_code(code) == (pos.first, pos.second)
        assert codes.bitboards_of_code(code, spec.cells) == (pos.first, pos.second)
        assert Position.from_code(spec, code) == pos
        text = str(pos).replace("/", "")
        assert codes.code_of_cells(text) == code
        assert codes.bitboards_of_cells(text) == (pos.first, pos.second)
        assert codes.code_of_cells(text.translate(str.maketrans("XO", "OX")), "OX") == code
        digits = [(code // 3**c) % 3 for c in range(spec.cells)]
        assert codes.code_of_digits(digits) == code
        assert codes.cells_of(pos.first) == [c for c in range(spec.cells) if pos.first >> c & 1]
    arr = np.array(expected, dtype=np.int64)
    f, s = codes.bitboards_of_codes(arr, spec.cells)
    assert f.dtype == s.dtype == np.uint64
    assert (f == firsts).all() and (s == seconds).all()
    assert (codes.codes_of_bitboards(firsts, seconds, spec.cells) == arr).all()
    d = codes.digits_of_codes(arr, spec.cells)
    assert d.shape == (len(expected), spec.cells)
    assert [codes.code_of_digits(row) for row in d.tolist()] == expected


def test_edge_cases():
    assert codes.code_count(0) == 1 and codes.code_count(9) == 19683
    assert codes.code_of_bitboards(0, 0) == 0 and codes.bitboards_of_code(0) == (0, 0)
    assert codes.code_of_cells("") == 0 and codes.code_of_digits([]) == 0
    assert codes.bitboards_of_cells("") == (0, 0) and codes.cells_of(0) == []
    assert codes.pow3(0).shape == (0,)
    empty = np.zeros(0, dtype=np.int64)
    f, s = codes.bitboards_of_codes(empty, 9)
    assert f.shape == s.shape == (0,)
    assert codes.codes_of_bitboards(f, s, 9).shape == (0,)
    assert codes.to_layout_many(f, [0, 1]).shape == (0,)
    assert codes.digits_of_codes(empty, 9).shape == (0, 9)
    # zero cells: every array of codes is the empty board
    f, s = codes.bitboards_of_codes(np.zeros(3, dtype=np.int64), 0)
    assert (f == 0).all() and (s == 0).all()
    assert (codes.codes_of_bitboards(f, s, 0) == 0).all()
    # X on cell 0, O on cell 1: 1 + 2 * 3; the largest code of 39 cells fits int64
    assert codes.code_of_bitboards(0b01, 0b10) == 7 == Position.from_text(mnk(1, 3, 3), "XO.").code
    top = codes.code_count(codes.MAX_CODE_CELLS) - 1
    f, s = codes.bitboards_of_codes(np.array([top]), codes.MAX_CODE_CELLS)
    assert int(s[0]) == (1 << codes.MAX_CODE_CELLS) - 1 and int(f[0]) == 0
    assert codes.codes_of_bitboards(f, s, codes.MAX_CODE_CELLS)[0] == top
    # marks other than characters, as the handouts' grids hold them
    assert codes.bitboards_of_cells(["x", " ", "o", "x"], ("x", "o")) == (0b1001, 0b0100)


@pytest.mark.parametrize(
    "spec", [mnk(5, 6, 4, gravity=True), mnk(4, 5, 4), mnk(1, 33, 4)], ids=lambda s: s.name
)
def test_search_layout_agrees_with_searcher(spec):
    """to_layout (scalar and vectorised) against Searcher.internal and batch_from_codes, on a
    gravity board, a free board and a transposed free board (codes: at most 39 cells)."""
    s = Searcher(spec, tt_bits=17)
    assert s.transposed == (spec.rows == 1)
    live = [p for p in random_positions(spec, 80, seed=7) if not p.is_over()]
    for pos in live:
        cur, mask, ply = s.internal(pos)
        first, second = (
            codes.to_layout(pos.first, s.cell_bit),
            codes.to_layout(pos.second, s.cell_bit),
        )
        assert mask == first | second and ply == pos.ply
        assert cur == (first if pos.to_move == 0 else second)
        # a stone's layout bit maps back to its cell
        bit_cell = {b: c for c, b in enumerate(s.cell_bit)}
        assert sorted(bit_cell[b] for b in codes.cells_of(mask)) == codes.cells_of(pos.occupied)
    batch = s.batch_from_codes(np.array([p.code for p in live], dtype=np.int64))
    assert batch.curs.tolist() == [s.internal(p)[0] for p in live]
    assert batch.masks.tolist() == [s.internal(p)[1] for p in live]
    assert batch.plies.tolist() == [p.ply for p in live]
    firsts = np.array([p.first for p in live], dtype=np.uint64)
    assert codes.to_layout_many(firsts, s.cell_bit).tolist() == [
        codes.to_layout(p.first, s.cell_bit) for p in live
    ]
