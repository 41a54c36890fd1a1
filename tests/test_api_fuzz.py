"""Property tests of the public Python API: bad input raises only fastttt's typed errors.

Any argument of any type goes in; the call either returns or raises a
:class:`fastttt.errors.FastTTTError` subclass, never an IndexError, AttributeError, TypeError,
OverflowError ... from deep inside. About 20 s in all (``max_examples`` kept small); ``-m slow``
runs 30 times as many examples.
"""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fastttt import Position, load_game, mnk, ultimate
from fastttt.compat import grilles, minimax_tp, morpion, morpionception, ttt
from fastttt.errors import FastTTTError
from fastttt.play.players import make_player
from fastttt.search import heuristic
from fastttt.search.alphabeta import Searcher
from fastttt.search.ultimate import engine
from fastttt.ultimate import UltimateState

from fuzzing import fuzz, long_run

FUZZ = fuzz(600)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.binary(max_size=4),
)
junk = st.one_of(
    scalars,
    st.lists(st.one_of(st.integers(-2, 90), st.text(max_size=2), st.none()), max_size=10),
    st.tuples(scalars, scalars),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)
# never n = 4: jeu_OXO(4, i) builds an 8 GB dict
small_n = st.one_of(st.integers(-2, 3), st.integers(5, 12), scalars).filter(lambda v: v != 4)


def only_typed(call, *args, **kwargs):
    """Call; a FastTTTError is fine, anything else propagates and fails the test."""
    try:
        call(*args, **kwargs)
    except FastTTTError:
        pass


names = st.one_of(
    st.sampled_from(["tictactoe", "connect4", "mnk", "connect", "4x4k3", "3x4k3g", "9x9", "0x3"]),
    st.from_regex(r"[0-9]{1,6}x[0-9]{1,6}(k[0-9]{1,6})?g?", fullmatch=True),
    junk,
)
specs = st.one_of(st.sampled_from(["tictactoe", "connect4", "3x4k3g", "2x2k2"]), junk)


@FUZZ
@given(names, junk, junk, junk, junk)
def test_load_game(name, rows, cols, k, gravity):
    only_typed(load_game, name)
    only_typed(load_game, name, rows=rows, cols=cols, k=k, gravity=gravity)


@FUZZ
@given(junk, junk, junk, junk)
def test_mnk(rows, cols, k, gravity):
    only_typed(mnk, rows, cols, k)
    only_typed(mnk, rows, cols, k, gravity)


@FUZZ
@given(specs, st.one_of(st.text(alphabet=".XOxo/ -_|\n", max_size=45), junk))
def test_position_from_text(spec, text):
    only_typed(Position.from_text, spec, text)


@FUZZ
@given(specs, st.one_of(st.lists(st.integers(-2, 12), max_size=12), junk))
def test_position_from_moves(spec, moves):
    only_typed(Position.from_moves, spec, moves)


@FUZZ
@given(specs, st.one_of(st.integers(-10, 3**42 + 10), junk))
def test_position_from_code_and_bitboards(spec, code):
    only_typed(Position.from_code, spec, code)
    only_typed(Position, spec, code, 0)


@pytest.fixture(scope="module")
def ttt_solution():
    from fastttt.tables.cache import solved

    return solved("tictactoe")


@fuzz(400)
@given(
    st.one_of(
        st.text(alphabet=".XO/", max_size=12), st.lists(st.integers(-1, 9), max_size=10), junk
    )
)
def test_solution_value_on_tictactoe(ttt_solution, pos):
    only_typed(ttt_solution.value, pos)
    only_typed(ttt_solution.best_moves, pos)


etats = st.one_of(
    junk,
    st.tuples(st.text(alphabet=".OX", max_size=10), st.one_of(st.integers(-1, 2), scalars)),
    st.tuples(scalars, st.integers(0, 1)),
)
depths = st.one_of(st.integers(-2, 3), scalars)


@fuzz(1000)
@given(etats, small_n, junk, depths)
def test_compat_morpion(etat, n, other, p):
    only_typed(morpion.partie_finie, n, other)
    only_typed(morpion.suivants, etat)
    only_typed(morpion.minimax, etat)
    only_typed(morpion.strategieMinMax, etat)
    only_typed(morpion.JeuxAvecStrategieMiniMax, etat, n)
    only_typed(morpion.strategie1, etat, random.Random(0))
    only_typed(morpion.JeuxAvecStrategie1, etat, n, random.Random(0))
    only_typed(morpion.attracteur, other)
    only_typed(morpion.jeu_OXO, n, other)
    only_typed(morpion.inverse, other)
    only_typed(morpion.compte_lcd, other, other, n)
    only_typed(morpion.heuristique, etat, other, n)
    only_typed(morpion.minimax_heur, etat, p, n)
    only_typed(morpion.strategieMiniMax_heur, etat, p, n)


grids = st.one_of(
    junk,
    st.lists(st.lists(st.integers(-1, 3), max_size=4), max_size=4),
    st.lists(st.lists(st.sampled_from([0, 1, 2]), min_size=3, max_size=3), min_size=3, max_size=3),
)


@FUZZ
@given(grids, junk)
def test_compat_grilles(grille, other):
    for f in (
        grilles.gagnant,
        grilles.grilleVersTuple,
        grilles.copie,
        grilles.casesLibres,
        grilles.joueur,
        grilles.successeurs,
        grilles.attracteur,
        grilles.strategie,
    ):
        only_typed(f, grille)
    only_typed(grilles.tupleVersGrille, other)
    only_typed(grilles.estGagnante, grille, {})


boards = st.one_of(
    junk,
    st.lists(st.lists(st.sampled_from([" ", "x", "o", "?", 1]), max_size=4), max_size=4),
)


@FUZZ
@given(boards, st.one_of(st.sampled_from(["x", "o"]), junk), junk, st.integers(-1, 3))
def test_compat_minimax_tp(grille, marque, other, p):
    only_typed(minimax_tp.creer_grille, other, other)
    only_typed(minimax_tp.texte_grille, grille)
    only_typed(minimax_tp.joueur_actif, grille)
    only_typed(minimax_tp.coups_possibles, grille)
    only_typed(minimax_tp.alignements, grille, other)
    only_typed(minimax_tp.evaluation, grille, marque)
    only_typed(minimax_tp.jouer_coup, grille, other, marque)
    only_typed(minimax_tp.coup_aleatoire, grille, random.Random(0))
    only_typed(minimax_tp.minimax, grille, p, False, marque)
    only_typed(minimax_tp.meilleur_coup, grille, p, marque, random.Random(0))


@FUZZ
@given(junk, junk, junk)
def test_compat_ttt_and_morpionception(a, b, c):
    jeu = ttt.TTT()
    only_typed(jeu.joue, a, b, c)
    only_typed(jeu.agagne, a)
    only_typed(jeu.minmax, a, b, True, c, True)
    only_typed(morpionception.victoire_morpion, a)
    only_typed(morpionception.coups_disponibles_morpion, a)
    only_typed(morpionception.coups_disponibles_morpionception, a)
    morpion_, inter = morpionception.nouveau_morpion()
    only_typed(morpionception.avance_configuration_morpionception, morpion_, inter, a, b)
    only_typed(morpionception.etat, morpion_, inter, a, b, c)
    only_typed(morpionception.etat, a, inter, "Croix")
    only_typed(morpionception.MinMax, morpion_, inter, a, b, c, budget=1000)
    # depth 1 only: the lookahead of a deeper selective search is not bounded by the budget
    only_typed(morpionception.MinMax_heuristique, morpion_, inter, "Croix", 4, 4, 1, a, b, c, 100)


# Valid values are kept small: a valid huge budget or table would search for hours or
# allocate gigabytes, which is what was asked for, not an error.
budgets = st.one_of(st.integers(-3, 2000), st.integers(2**62 + 1, 2**70), junk)
times = st.one_of(st.floats(max_value=20), st.just(float("nan")), st.text(max_size=3), st.none())
ultimate_states = st.one_of(st.sampled_from([UltimateState(), UltimateState(True)]), junk)


def small(value):
    """``value``, or 100 when it is a valid integer budget over 2000."""
    return (
        100
        if isinstance(value, int) and not isinstance(value, bool) and 2000 < value <= 2**62
        else value
    )


@fuzz(300)
@given(ultimate_states, budgets, budgets, st.one_of(st.integers(-3, 12), junk), times, junk)
def test_ultimate_engine(state, nodes, depth, tt_bits, time_ms, name):
    nodes, depth, tt_bits = small(nodes), small(depth), small(tt_bits)
    only_typed(UltimateState, name)
    only_typed(engine.evaluate, state)
    only_typed(engine.Engine, tt_bits=tt_bits if tt_bits not in range(13, 31) else 8)
    only_typed(engine.Engine(tt_bits=8).search, state, nodes=100 if nodes is None else nodes)
    only_typed(engine.Engine(tt_bits=8).search, state, nodes=100, max_depth=depth)
    only_typed(engine.Engine(tt_bits=8).search, state, time_ms=time_ms, nodes=2000)
    # a valid budget (None: the default) solves for 0.1 s to seconds: errors only
    if nodes is not None and (not isinstance(nodes, int) or isinstance(nodes, bool) or nodes < 1):
        only_typed(engine.solve_exact, state, node_budget=nodes)
    only_typed(ultimate.make_player, name)
    only_typed(ultimate.make_player, f"mcts:{name}")


@FUZZ
@given(
    specs,
    st.one_of(st.integers(-3, 20), st.integers(33, 40), junk),
    junk,
    st.one_of(st.integers(-2, 3), junk),
)
def test_search_and_players(spec, tt_bits, pos, depth):
    only_typed(Searcher, spec, tt_bits=small(tt_bits))
    only_typed(Searcher("tictactoe").solve, pos)
    only_typed(heuristic.search, Position.from_moves("tictactoe", [4]), small(depth))
    only_typed(heuristic.search, pos, 2)
    only_typed(make_player, f"alphabeta:{depth}", mnk(3, 3, 3))
    only_typed(make_player, pos, spec)


@pytest.mark.slow
def test_long_fuzz():
    """The properties above with 30 times the examples (several minutes)."""
    long_run(__file__)
