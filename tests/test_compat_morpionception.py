"""The morpionception handout's functions (fastttt.compat.morpionception)."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

from fastttt.compat.morpionception import (
    CROIX,
    MATCH_NUL,
    RONDS,
    VICTOIRE_CROIX,
    VICTOIRE_RONDS,
    MinMax,
    MinMax_AlphaBeta,
    MinMax_heuristique,
    MinMax_heuristique_AlphaBeta,
    SearchBudgetError,
    avance_configuration_morpionception,
    coups_disponibles_morpion,
    coups_disponibles_morpionception,
    etat,
    nouveau_morpion,
    victoire_morpion,
)
from fastttt.errors import IllegalMoveError
from fastttt.ultimate import UltimateState

from ultimate_reference import RefState, TreeTooLarge, minimax


def test_victoire_morpion():
    assert victoire_morpion([[1, 1, 1], [0, 2, 0], [2, 0, 0]]) == VICTOIRE_CROIX
    assert victoire_morpion([[2, 1, 1], [0, 2, 0], [1, 0, 2]]) == VICTOIRE_RONDS
    assert victoire_morpion([["x", "o", "x"], ["x", "o", "o"], ["o", "x", "x"]]) == MATCH_NUL
    assert victoire_morpion([[1, 3, 2], [3, 3, 1], [2, 1, 3]]) == MATCH_NUL  # frame: all done
    assert victoire_morpion(np.zeros((3, 3), dtype=int)) == "En cours"


def test_coups_disponibles():
    assert coups_disponibles_morpion([[1, 0, 2], [0, 0, 0], [0, 0, 0]]) == [
        (0, 1),
        (1, 0),
        (1, 1),
        (1, 2),
        (2, 0),
        (2, 1),
        (2, 2),
    ]
    assert coups_disponibles_morpion([[1, 1, 1], [2, 2, 0], [0, 0, 0]]) == []  # won board
    Morpion, _ = nouveau_morpion()
    assert len(coups_disponibles_morpionception(Morpion)) == 81
    Morpion[1, 1] = [[1, 1, 1], [2, 2, 0], [0, 0, 0]]
    moves = coups_disponibles_morpionception(Morpion)
    assert len(moves) == 72 and all((a, b) != (1, 1) for a, b, _, _ in moves)


def _handout_game(seed: int):
    """A random game in the handout's arrays, checked against UltimateState move by move."""
    rng = random.Random(seed)
    Morpion, inter = nouveau_morpion()
    state = UltimateState()
    a = b = None
    joueur = CROIX
    while not state.is_over():
        if a is not None and coups_disponibles_morpion(Morpion[a, b]) and inter[a, b] == 0:
            coups = [(a, b, c, d) for c, d in coups_disponibles_morpion(Morpion[a, b])]
        else:
            coups = coups_disponibles_morpionception(Morpion)
        legal = state.legal_moves()
        assert sorted((3 * a_ + b_) * 9 + 3 * c + d for a_, b_, c, d in coups) == legal
        assert etat(Morpion, inter, joueur, a, b) == state
        coup = rng.choice(coups)
        avance_configuration_morpionception(Morpion, inter, joueur, coup)
        state = state.play((3 * coup[0] + coup[1]) * 9 + 3 * coup[2] + coup[3])
        a, b = coup[2], coup[3]
        joueur = RONDS if joueur == CROIX else CROIX
    verdict = victoire_morpion(inter)
    expected = {0: VICTOIRE_CROIX, 1: VICTOIRE_RONDS, None: MATCH_NUL}[state.winner()]
    assert verdict == expected
    return Morpion, inter


def test_handout_functions_follow_the_rules():
    for seed in range(40):
        _handout_game(seed)


def test_avance_configuration_refuses_bad_moves():
    Morpion, inter = nouveau_morpion()
    avance_configuration_morpionception(Morpion, inter, CROIX, (1, 1, 1, 1))
    assert Morpion[1, 1, 1, 1] == 1
    with pytest.raises(IllegalMoveError, match="taken"):
        avance_configuration_morpionception(Morpion, inter, RONDS, (1, 1, 1, 1))
    with pytest.raises(IllegalMoveError, match="0 to 2"):
        avance_configuration_morpionception(Morpion, inter, RONDS, (3, 1, 1, 1))
    with pytest.raises(ValueError, match="Croix"):
        avance_configuration_morpionception(Morpion, inter, "croix", (0, 0, 0, 0))


def _endgame(seed: int, back: int):
    rng = random.Random(seed)
    moves = []
    s = UltimateState()
    while not s.is_over():
        moves.append(rng.choice(s.legal_moves()))
        s = s.play(moves[-1])
    moves = moves[: len(moves) - back]
    Morpion, inter = nouveau_morpion()
    s = UltimateState()
    for m in moves:
        b, c = divmod(m, 9)
        coup = (b // 3, b % 3, c // 3, c % 3)
        avance_configuration_morpionception(
            Morpion, inter, "Croix" if s.to_move == 0 else "Ronds", coup
        )
        s = s.play(m)
    last = moves[-1] % 9
    return Morpion, inter, ("Croix", "Ronds")[s.to_move], last // 3, last % 3, s


def test_minmax_values_match_exhaustive_reference():
    checked = 0
    for seed in range(40):
        Morpion, inter, joueur, a, b, s = _endgame(seed, 2 + seed % 4)
        ref = RefState()
        for bb in range(9):
            for c in range(9):
                who = s.cell(bb * 9 + c)
                if who is not None:
                    ref.grid[bb][c] = "XO"[who]
            cl = s.claims()[bb]
            ref.claims[bb] = None if cl is None else "XO"[cl]
        ref.forced = s.forced_board
        ref.player = "XO"[s.to_move]
        try:
            value, _ = minimax(ref, limit=3000)
        except TreeTooLarge:
            continue
        assert MinMax(Morpion, inter, joueur, a, b) == value
        assert MinMax_AlphaBeta(Morpion, inter, joueur, a, b, 0) == value
        checked += 1
    assert checked >= 20


def test_minmax_budget_and_finished_games():
    Morpion, inter = nouveau_morpion()
    with pytest.raises(SearchBudgetError, match="1000 nodes"):
        MinMax(Morpion, inter, CROIX, None, None, budget=1000)
    inter[0] = [1, 1, 1]
    assert MinMax(Morpion, inter, RONDS, None, None) == 1


def test_minmax_heuristique():
    Morpion, inter, joueur, a, b, s = _endgame(3, 4)
    exact = MinMax(Morpion, inter, joueur, a, b)
    # an enormous Delta and stop value explore every move: the exact value
    assert MinMax_heuristique(Morpion, inter, joueur, a, b, 1, None, 10**6, 10**6) == exact
    assert (
        MinMax_heuristique_AlphaBeta(
            Morpion, inter, joueur, a, b, 2, {"frame_two": 50}, 10**6, 10**6, 0
        )
        == exact
    )
    # a stop value above every evaluation explores nothing: the mover counts as lost
    lost = -1 if joueur == CROIX else 1
    assert MinMax_heuristique(Morpion, inter, joueur, a, b, 1, None, 10**6, -(10**6)) == lost
    # a narrow Delta follows only the best-looking lines: a value, found with fewer nodes
    Morpion, inter, joueur, a, b, s = _endgame(5, 12)
    assert MinMax_heuristique(Morpion, inter, joueur, a, b, 1, None, 1, 10**6) in (-1, 0, 1)
    Morpion, inter = nouveau_morpion()
    with pytest.raises(ValueError, match="coefficients"):
        MinMax_heuristique(Morpion, inter, CROIX, None, None, 1, {"nope": 1}, 1, 10)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("back", [None, 30])
def test_minmax_heuristique_deep_lookahead_keeps_its_budget(back):
    # The look-ahead's positions count against the budget: profondeur 8 used to run its
    # look-aheads uncounted (hours); now it answers or refuses within the budget's time.
    if back is None:  # the empty board
        Morpion, inter = nouveau_morpion()
        joueur, a, b = CROIX, None, None
    else:
        Morpion, inter, joueur, a, b, _s = _endgame(7, back)
    started = time.perf_counter()
    try:
        value = MinMax_heuristique(Morpion, inter, joueur, a, b, 8, None, 10, 100, budget=200_000)
    except SearchBudgetError as err:
        assert "200,000" in str(err)
    else:
        assert value in (-1, 0, 1)
    assert time.perf_counter() - started < 20
