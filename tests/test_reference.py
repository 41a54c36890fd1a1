"""Every printed value of SPEC.md sections 1 and 2, through both the reference and compat."""

import pytest

from fastttt.compat import grilles as compat_grilles
from fastttt.compat import morpion as compat_morpion
from fastttt.reference import grilles as ref_grilles
from fastttt.reference import morpion as ref_morpion


@pytest.fixture(params=[ref_morpion, compat_morpion], ids=["reference", "compat"])
def m(request):
    return request.param


@pytest.fixture(params=[ref_grilles, compat_grilles], ids=["reference", "compat"])
def g(request):
    return request.param


def test_rangees_and_globals(m):
    assert m.rangees(3) == [
        [0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]
    ]  # fmt: skip
    assert m.joueurs == {"O": 0, "X": 1} and m.symboles == {0: "O", 1: "X"}
    assert m.etat_initial == (".........", 0)


def test_partie_finie(m):
    assert m.partie_finie(3, m.c_victoire_J0_1ligne) == (True, 0)
    assert m.partie_finie(3, m.c_victoire_J1_colonne) == (True, 1)
    assert m.partie_finie(3, m.c_victoire_J0_diag) == (True, 0)
    assert m.partie_finie(3, m.c_match_nul) == (True, None)
    assert m.partie_finie(3, m.c_en_cours) == (False, None)


def test_suivants(m):
    assert m.suivants(("OX.XOO.X.", 0)) == [
        ("OXOXOO.X.", 1), ("OX.XOOOX.", 1), ("OX.XOO.XO", 1)
    ]  # fmt: skip
    assert m.suivants(m.etat_initial) == [("." * i + "O" + "." * (8 - i), 1) for i in range(9)]
    assert m.suivants(("OOOXX....", 1)) == []


@pytest.mark.parametrize(
    "n, i, counts",
    [(3, 0, (5478, 626, 316, 16)), (3, 1, (5478, 316, 626, 16)), (2, 0, (29, 12, 0, 0))],
)
def test_jeu_OXO_counts(m, n, i, counts):
    assert tuple(len(x) for x in m.jeu_OXO(n, i)) == counts


def test_n2_dict_orders_follow_the_handout_pictures(m):
    successeurs = m.jeu_OXO(2, 0)[0]
    # successeurs as printed in the handout (stack order), first keys
    assert list(successeurs)[:12] == [
        ("....", 0), ("...O", 1), ("..XO", 0), ("O.XO", 1), (".OXO", 1), (".X.O", 0),
        ("OX.O", 1), (".XOO", 1), ("X..O", 0), ("XO.O", 1), ("X.OO", 1), ("..O.", 1),
    ]  # fmt: skip
    assert successeurs[("..XO", 0)] == [("O.XO", 1), (".OXO", 1)]
    assert list(successeurs)[-1] == ("OX..", 0)
    inv = m.inverse(successeurs)
    assert [s for s, _ in list(inv)[:10]] == [
        "....", "O...", ".O..", "..O.", "...O", "X..O", ".X.O", "..XO", "O.XO", ".OXO"
    ]  # fmt: skip
    assert inv[("....", 0)] == []
    assert inv[("O.XO", 1)] == [("..XO", 0), ("O.X.", 0)]
    assert list(inv.items())[-1] == (("O..X", 0), [("O...", 1)])


def test_attractors_and_draw_region(m):
    assert len(m.attracteur(0)) == 2936
    assert len(m.attracteur(1)) == 1474
    assert len(m.region_nulle) == 1068
    assert set(m.attracteurs) == {0, 1, None}
    assert m.predecessurs is m.predecesseurs
    assert len(m.predecesseurs) == 5478


def test_minimax_counts(m):
    from collections import Counter

    counts = Counter(m.minimax(s) for s in m.successeurs)
    assert counts == {1: 2936, -1: 1474, 0: 1068}
    assert m.minimax(m.etat_initial) == 0


def test_strategie_min_max_first_move(m):
    assert m.strategieMinMax(m.etat_initial) == (("O........", 1), "position_MAX", 0)


GAMES = [
    (("." * 9, 0), "position_initiale_nulle / J0 commence",
     [".........", "O........", "O...X....", "OO..X....", "OOX.X....", "OOX.X.O..", "OOXXX.O..",
      "OOXXXOO..", "OOXXXOOX."], "OOXXXOOXO", None, 0),
    (("..XO.....", 0), "position_initiale_gagnante_J0 / J0 commence",
     ["..XO.....", "O.XO.....", "OXXO.....", "OXXOO....", "OXXOOX..."], "OXXOOXO..", 0, 1),
    (("X..O...O.", 1), "position_initiale_gagnante_J1 / J1 commence",
     ["X..O...O.", "X.XO...O.", "XOXO...O.", "XOXOX..O.", "XOXOXO.O."], "XOXOXOXO.", 1, -1),
    (("..O.OX...", 1), "position_initiale_gagnante_J0 / J1 commence",
     ["..O.OX...", "X.O.OX...", "XOO.OX...", "XOOXOX..."], "XOOXOXO..", 0, 1),
    ((".O...OX.X", 0), "position_initiale_gagnante_J1 / J0 commence",
     [".O...OX.X", "OO...OX.X", "OOX..OX.X", "OOXO.OX.X"], "OOXOXOX.X", 1, -1),
]  # fmt: skip


@pytest.mark.parametrize("etat, entete, avant, final, gagnant, cote", GAMES)
def test_jeux_avec_strategie_minimax(m, etat, entete, avant, final, gagnant, cote):
    partie, joueur_gagnant = m.JeuxAvecStrategieMiniMax(etat, 3)
    assert partie[0] == entete
    assert [e[0][0] for e in partie[1:-1]] == avant
    assert [e[1] for e in partie[1:-1]] == [
        "position_MAX" if e[0][1] == 0 else "position_MIN" for e in partie[1:-1]
    ]
    assert all(e[2] == cote for e in partie[1:-1])
    assert partie[-1] == ((final, 1 - partie[-2][0][1]), "fin partie")
    assert joueur_gagnant == gagnant


@pytest.mark.parametrize("etat, entete, _avant, _final, gagnant, _cote", GAMES)
def test_jeux_avec_strategie1(m, etat, entete, _avant, _final, gagnant, _cote):
    partie, joueur_gagnant = m.JeuxAvecStrategie1(etat, 3, rng=7)
    assert partie[0] == entete
    assert joueur_gagnant == gagnant  # the attractor strategy keeps the theoretical result
    assert partie[1][0] == etat and partie[-1][1] == "fin partie"
    for (avant, type_), (apres, _) in zip(partie[1:-1], partie[2:], strict=True):
        assert apres in m.suivants(avant)
        v = m.minimax(apres) * (1 if avant[1] == 0 else -1)
        assert type_ == {1: "position_gagnante", 0: "position_nulle", -1: "position_perdante"}[v]


def test_heuristique(m):
    assert m.heuristique(m.etat_initial, 0, 3) == 0
    assert m.heuristique(("XO..O....", 0), 0, 3) == 2
    assert m.heuristique(("XO..O....", 0), 1, 3) == -2
    assert m.heuristique(("OXXOOXO..", 1), 0, 3) == 9
    assert m.heuristique(("OXXOOXO..", 1), 1, 3) == -9
    assert m.compte_lcd("XO..O....", 0, 3) == 5 and m.compte_lcd("XO..O....", 1, 3) == 3
    assert m.compte_lcd("." * 9, 0, 3) == 8


MINIMAX_HEUR = [
    (("OOOXX....", 1), 0, 9), (("OOOXX....", 1), 4, 9), (("XXXOO....", 0), 4, -9),
    (("XXXOO....", 0), 6, -9), (("OO.XX....", 0), 1, 9), (("OO.XX....", 0), 4, 9),
    (("XX.OO.O..", 1), 1, -9), (("O...X...O", 0), 1, -2), (("O...X...O", 0), 2, 0),
    (("O...X...O", 0), 3, 9), (("..XO.....", 0), 1, 0), (("..XO.....", 0), 4, 1),
    (("..XO.....", 0), 5, 9), (("XOXO...O.", 1), 1, -2), (("XOXO...O.", 1), 4, -9),
]  # fmt: skip


@pytest.mark.parametrize("etat, p, value", MINIMAX_HEUR)
def test_minimax_heur_printed_values(m, etat, p, value):
    assert m.minimax_heur(etat, p, 3) == value


def test_minimax_heur_empty_board_p9_compat():
    assert compat_morpion.minimax_heur(compat_morpion.etat_initial, 9, 3) == 0


@pytest.mark.slow
def test_minimax_heur_empty_board_p9_reference():
    assert ref_morpion.minimax_heur(ref_morpion.etat_initial, 9, 3) == 0  # ~25 s


@pytest.mark.parametrize(
    "etat, p, best",
    [
        (("OO.XX....", 0), 1, [("OOOXX....", 1)]),
        (("XX.OO.O..", 1), 1, [("XXXOO.O..", 0)]),
        (("..XO.....", 0), 1, [("..XO.O...", 1)]),
        (("..XO.....", 0), 3, [("..XO.O...", 1)]),
        (("..XO.....", 0), 5, [("O.XO.....", 1)]),
    ],
)
def test_strategie_minimax_heur(m, etat, p, best):
    assert m.strategieMiniMax_heur(etat, p, 3) == best
    assert (("O.XO.....", 1) in m.attracteurs[0]) and (("..XO.O...", 1) not in m.attracteurs[0])


def test_strategie_minimax_heur_p9_follows_the_definition():
    # the handout prints three moves; its own definition gives the only winning move
    assert compat_morpion.strategieMiniMax_heur(("..XO.....", 0), 9, 3) == [("O.XO.....", 1)]


def test_evaluer_strategie_p1(m, capsys):
    choix, tout = m.EvaluerStrategieMiniMax_heur(1, 3)
    assert tout == [100, 276, 128]
    assert sum(choix) >= 72
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "Ordre : [J1 gagne, nul, J0 gagne] = [-1, 0, 1]",
        f"Coups choisis par la stratégie heuristique : {choix}",
        "Tous les coups possibles : [100, 276, 128]",
    ]


# --- tp-positions-gagnantes ---------------------------------------------------------------
ATTRACTEUR_GRILLE1 = [
    (1, 1, 2, 2, 1, 1, 2, 1, 2), (1, 1, 2, 2, 1, 1, 2, 0, 2), (1, 1, 2, 0, 1, 0, 2, 1, 2),
    (1, 1, 2, 0, 1, 0, 2, 0, 2), (1, 1, 1, 2, 1, 0, 2, 0, 2), (1, 1, 0, 2, 1, 0, 2, 1, 2),
    (1, 1, 0, 2, 1, 0, 2, 0, 2), (1, 1, 1, 0, 1, 2, 2, 0, 2), (1, 1, 0, 0, 1, 2, 2, 1, 2),
    (1, 1, 0, 0, 1, 2, 2, 0, 2), (1, 1, 1, 2, 1, 2, 2, 1, 2), (1, 0, 1, 2, 1, 2, 2, 1, 2),
    (1, 0, 1, 2, 1, 0, 2, 0, 2), (1, 0, 1, 0, 1, 2, 2, 0, 2), (1, 2, 0, 1, 1, 1, 2, 0, 2),
    (1, 2, 2, 1, 1, 1, 2, 1, 2), (1, 2, 2, 1, 1, 0, 2, 1, 2), (1, 2, 0, 1, 1, 0, 2, 0, 2),
    (1, 0, 2, 1, 1, 1, 2, 0, 2), (1, 0, 2, 1, 1, 0, 2, 0, 2), (1, 2, 2, 0, 1, 1, 2, 1, 2),
    (1, 2, 0, 0, 1, 1, 2, 0, 2), (1, 0, 2, 2, 1, 1, 2, 1, 2), (1, 0, 2, 0, 1, 1, 2, 1, 2),
    (1, 0, 2, 0, 1, 1, 2, 0, 2), (1, 0, 2, 0, 1, 0, 2, 1, 2), (1, 0, 0, 2, 1, 0, 2, 1, 2),
    (1, 0, 0, 0, 1, 2, 2, 1, 2),
]  # fmt: skip


def test_grid_basics(g, capsys):
    assert g.gagnant(g.grille1) == 0 and g.gagnant(g.grille2) == 1
    assert g.gagnant([[0, 0, 0], [2, 2, 2], [1, 1, 0]]) == 2  # the handout's version says 0
    t = g.grilleVersTuple(g.grille1)
    assert t == (1, 0, 0, 0, 1, 0, 2, 0, 2)
    assert g.tupleVersGrille(t) == g.grille1
    c = g.copie(g.grille1)
    c[0][0] = 2
    assert g.grille1[0][0] == 1
    assert g.casesLibres(g.grille1) == [(0, 1), (0, 2), (1, 0), (1, 2), (2, 1)]
    assert g.joueur(g.grille1) == 1 and g.joueur(g.grille2) == 2
    assert g.successeurs(g.grille1)[0] == [[1, 1, 0], [0, 1, 0], [2, 0, 2]]
    g.afficher(g.grille1)
    assert capsys.readouterr().out.splitlines() == [
        " _ _ _",
        "|X| | |",
        "| |X| |",
        "|O| |O|",
        " - - -",
    ]


def test_grid_attractor(g):
    assert g.attracteur(g.grille1) == ATTRACTEUR_GRILLE1
    dico = {}
    assert g.estGagnante(g.grille1, dico) is False
    assert [t for t in dico if dico[t]] == ATTRACTEUR_GRILLE1


def test_grid_strategy(g):
    s = g.strategie(g.grille1)
    assert len(s) == 17
    items = list(s.items())
    assert items[0] == ((1, 1, 2, 2, 1, 1, 2, 0, 2), [[1, 1, 2], [2, 1, 1], [2, 1, 2]])
    assert items[1] == ((1, 1, 2, 0, 1, 0, 2, 0, 2), [[1, 1, 2], [0, 1, 0], [2, 1, 2]])
    assert items[-1] == ((1, 0, 0, 0, 1, 2, 2, 1, 2), [[1, 1, 0], [0, 1, 2], [2, 1, 2]])
