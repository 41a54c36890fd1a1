"""fastttt.compat.morpion against the reference on every state, plus random states n = 2, 3, 4."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fastttt.compat import morpion as c
from fastttt.errors import FastTTTError, InvalidPositionError
from fastttt.reference import morpion as r


def _same(a, b):
    """Equal values AND equal dict orders, recursively."""
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(map(_same, a, b))
    return a == b and type(a) is type(b)


@pytest.mark.parametrize("n, i", [(2, 0), (2, 1), (3, 0), (3, 1)])
def test_jeu_OXO_and_inverse_identical(n, i):
    got, want = c.jeu_OXO(n, i), r.jeu_OXO(n, i)
    assert _same(got, want)
    assert _same(c.inverse(got[0]), r.inverse(want[0]))


def test_inverse_of_any_dict():
    d = {"a": ["b", "c"], "b": ["c"], "c": [], "d": ["a"]}
    assert _same(c.inverse(d), r.inverse(d))
    s = c.jeu_OXO(2, 0)[0]
    s[("zz", 0)] = []  # resized: the plain loop, still the reference's answer
    assert _same(c.inverse(s), r.inverse(s))


def test_globals_identical():
    for name in ("successeurs", "gagnants0", "gagnants1", "nuls", "predecessurs",
                 "predecesseurs", "region_nulle", "attracteurs"):  # fmt: skip
        assert _same(getattr(c, name), getattr(r, name)), name
    assert _same(c.attracteur(0), r.attracteur(0))
    assert _same(c.attracteur(1), r.attracteur(1))


@pytest.fixture(scope="module")
def all_states():
    return list(r.jeu_OXO(3, 0)[0]) + list(r.jeu_OXO(3, 1)[0]) + list(r.jeu_OXO(2, 0)[0])


def test_functions_of_a_state_on_every_state(all_states):
    for e in all_states:
        n = 3 if len(e[0]) == 9 else 2
        assert c.partie_finie(n, e[0]) == r.partie_finie(n, e[0])
        assert c.suivants(e) == r.suivants(e)
        assert c.minimax(e) == r.minimax(e), e
        for i in (0, 1):
            assert c.compte_lcd(e[0], i, n) == r.compte_lcd(e[0], i, n)
            assert c.heuristique(e, i, n) == r.heuristique(e, i, n)
        for p in (0, 1):
            assert c.minimax_heur(e, p, n) == r.minimax_heur(e, p, n), (e, p)
        if r.suivants(e):
            assert _same(c.strategieMinMax(e), r.strategieMinMax(e))
            assert c.strategieMiniMax_heur(e, 1, n) == r.strategieMiniMax_heur(e, 1, n)


def test_strategie1_same_choices_with_the_same_seed():
    states = [s for s in r.successeurs if r.suivants(s)]
    for k, e in enumerate(random.Random(3).sample(states, 400)):
        assert c.strategie1(e, random.Random(k)) == r.strategie1(e, random.Random(k))
    for seed in range(20):
        assert _same(c.JeuxAvecStrategie1(r.etat_initial, 3, seed),
                     r.JeuxAvecStrategie1(r.etat_initial, 3, seed))  # fmt: skip


def test_games_from_every_state_sample():
    states = random.Random(5).sample(list(r.successeurs), 300)
    for e in states:
        assert _same(c.JeuxAvecStrategieMiniMax(e, 3), r.JeuxAvecStrategieMiniMax(e, 3))


def test_methods_agree_and_alphabeta_visits_fewer():
    e = ("." * 9, 0)
    counts = {}
    for methode in ("minimax", "memo", "alphabeta"):
        c.vider_memo()
        before = int(c.NOEUDS[0])
        assert c.minimax_heur(e, 9, 3, methode) == 0
        counts[methode] = int(c.NOEUDS[0]) - before
    assert counts["minimax"] == 549946  # the full game tree: every node of every game
    assert counts["alphabeta"] < counts["memo"] < counts["minimax"]


def test_outside_the_game_falls_back_to_the_recursion():
    e = ("OO.......", 0)  # J0 moves again: no game reaches this
    assert c.minimax(e) == r.minimax(e) == 1


def test_bad_input_raises_typed_errors():
    with pytest.raises(InvalidPositionError):
        c.suivants(("OX?", 0))
    with pytest.raises(InvalidPositionError):
        c.suivants(("OX.", 0))  # not a square
    with pytest.raises(InvalidPositionError):
        c.minimax(("." * 9, 2))
    with pytest.raises(InvalidPositionError):
        c.strategie1(("OOOXX....", 1))
    with pytest.raises(InvalidPositionError):
        c.heuristique(("." * 9, 0), 0, 4)
    with pytest.raises(FastTTTError):
        c.minimax_heur(("." * 9, 0), "3", 3)


def test_n4_arrays_and_values():
    g = c.jeu_OXO_tableaux(2, 0)
    assert len(g.codes) == 29 and (g.kinds == 0).sum() == 12
    e = ("OXOXXOXOO.......", 0)
    assert c.minimax(e) == r.minimax(e)


@pytest.mark.slow
def test_n4_graph_size():
    g = c.jeu_OXO_tableaux(4, 0)  # ~12 s, 1.1 GB peak
    assert len(g.codes) == 9_722_011 and len(g.child_ids) == 51_562_424
    assert [int((g.kinds == k).sum()) for k in (0, 1, 2)] == [401_096, 252_940, 5_356]


# --- random states, n = 2, 3, 4 ---------------------------------------------------------
@st.composite
def states(draw, n=None, min_stones=0):
    n = draw(st.sampled_from([2, 3, 4])) if n is None else n
    cells = draw(st.lists(st.sampled_from(".OX"), min_size=n * n, max_size=n * n))
    if sum(ch != "." for ch in cells) < min_stones:
        idx = draw(st.permutations(range(n * n)))
        for k in idx[:min_stones]:
            cells[k] = draw(st.sampled_from("OX"))
    return n, ("".join(cells), draw(st.integers(0, 1)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(states(), st.integers(0, 1))
def test_heuristics_random(ne, i):
    n, e = ne
    assert c.partie_finie(n, e[0]) == r.partie_finie(n, e[0])
    assert c.compte_lcd(e[0], i, n) == r.compte_lcd(e[0], i, n)
    assert c.heuristique(e, i, n) == r.heuristique(e, i, n)
    assert c.suivants(e) == r.suivants(e)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(states(), st.integers(0, 3))
def test_minimax_heur_random(ne, p):
    n, e = ne
    if n == 4:
        p = min(p, 2)
    assert c.minimax_heur(e, p, n) == r.minimax_heur(e, p, n)
    if r.suivants(e) and p >= 1:
        assert c.strategieMiniMax_heur(e, p, n) == r.strategieMiniMax_heur(e, p, n)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(states(n=4, min_stones=8))
def test_minimax_random_4x4(ne):
    _, e = ne
    assert c.minimax(e) == r.minimax(e)


@pytest.mark.parametrize("n, p", [(2, 1), (2, 3), (3, 1), (3, 2), (3, 3)])
def test_evaluer_equals_reference(n, p):
    printed = []
    assert c.EvaluerStrategieMiniMax_heur(p, n, sortie=lambda *a: printed.append(a)) == (
        r.EvaluerStrategieMiniMax_heur(p, n)
    )
    assert len(printed) == 3


# --- issue 10, item 8: the handout's examples exactly as printed, and ``import *`` -------------
HANDOUT_STRATEGIE1 = [
    # (call as printed in td-jeu-de-morpion, header, winner, types of the winner's moves)
    ("JeuxAvecStrategie1(etat_initial, 3)", "position_initiale_nulle / J0 commence", None),
    (
        "JeuxAvecStrategie1(('..XO.....', 0),3)",
        "position_initiale_gagnante_J0 / J0 commence",
        0,
    ),
    (
        "JeuxAvecStrategie1(('X..O...O.', 1),3)",
        "position_initiale_gagnante_J1 / J1 commence",
        1,
    ),
    (
        "JeuxAvecStrategie1(('..O.OX...', 1),3)",
        "position_initiale_gagnante_J0 / J1 commence",
        0,
    ),
    (
        "JeuxAvecStrategie1(('.O...OX.X', 0),3)",
        "position_initiale_gagnante_J1 / J0 commence",
        1,
    ),
]


@pytest.mark.parametrize("appel, entete, gagnant", HANDOUT_STRATEGIE1)
def test_handout_JeuxAvecStrategie1_without_seed(appel, entete, gagnant):
    ns: dict = {}
    exec("from fastttt.compat.morpion import *", ns)
    partie, joueur_gagnant = eval(appel, ns)
    assert partie[0] == entete
    assert joueur_gagnant == gagnant
    coups, (fin, marque) = partie[1:-1], partie[-1]
    assert marque == "fin partie"
    etats = [e for e, _ in coups] + [fin]
    for avant, apres in zip(etats, etats[1:], strict=False):
        assert apres in ns["suivants"](avant)
    for etat, type_ in coups:
        if gagnant is None:
            assert type_ == "position_nulle"
        else:
            assert type_ == ("position_gagnante" if etat[1] == gagnant else "position_perdante")
    assert ns["partie_finie"](3, fin[0]) == (True, gagnant)


def test_JeuxAvecStrategie1_uses_the_random_module_like_the_reference():
    for graine in range(5):
        random.seed(graine)
        got = c.JeuxAvecStrategie1(c.etat_initial, 3)
        random.seed(graine)
        want = r.JeuxAvecStrategie1(r.etat_initial, 3)
        assert _same(got, want)
    random.seed(1)
    assert c.strategie1(c.etat_initial)[1] == "position_nulle"


def test_import_star_brings_the_handout_globals():
    ns: dict = {}
    exec("from fastttt.compat.morpion import *", ns)
    for nom in (
        "successeurs",
        "predecesseurs",
        "attracteurs",
        "region_nulle",
        "gagnants0",
        "gagnants1",
        "nuls",
        "etat_initial",
        "rangees",
        "partie_finie",
        "suivants",
        "jeu_OXO",
        "inverse",
        "attracteur",
        "strategie1",
        "JeuxAvecStrategie1",
        "minimax",
        "strategieMinMax",
        "JeuxAvecStrategieMiniMax",
        "compte_lcd",
        "heuristique",
        "minimax_heur",
        "strategieMiniMax_heur",
        "EvaluerStrategieMiniMax_heur",
    ):
        assert nom in ns, nom
    assert len(ns["successeurs"]) == 5478
    assert len(ns["region_nulle"]) == 1068
    assert [len(ns["attracteurs"][k]) for k in (0, 1)] == [2936, 1474]
    assert (len(ns["gagnants0"]), len(ns["gagnants1"]), len(ns["nuls"])) == (626, 316, 16)


@pytest.mark.parametrize("module", ["morpion", "grilles", "minimax_tp", "ttt", "morpionception"])
def test_every_compat_module_has_all_without_internal_names(module):
    import importlib

    mod = importlib.import_module(f"fastttt.compat.{module}")
    assert isinstance(mod.__all__, list) and mod.__all__
    ns: dict = {}
    exec(f"from fastttt.compat.{module} import *", ns)
    ns.pop("__builtins__")
    assert sorted(ns) == sorted(mod.__all__)
    assert not [n for n in ns if n.startswith("_")]
    for absent in ("np", "random", "gc", "annotations", "C", "K", "mnk"):
        assert absent not in ns
