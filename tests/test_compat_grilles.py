"""fastttt.compat.grilles against the reference: every position reachable from grille1 and more."""

import pytest

from fastttt.compat import grilles as c
from fastttt.errors import InvalidPositionError
from fastttt.reference import grilles as r

EMPTY = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]


def reachable(grille):
    seen, todo, out = set(), [grille], []
    while todo:
        g = todo.pop()
        t = r.grilleVersTuple(g)
        if t in seen:
            continue
        seen.add(t)
        out.append(g)
        if r.gagnant(g) == 0:
            todo.extend(r.successeurs(g))
    return out


@pytest.mark.parametrize(
    "start", [r.grille1, [[1, 0, 0], [0, 0, 0], [0, 0, 0]], [[0, 2, 0], [0, 1, 0], [0, 0, 0]]]
)
def test_every_reachable_position(start):
    positions = reachable(start)
    assert len(positions) > 1
    for g in positions:
        for name in ("gagnant", "grilleVersTuple", "casesLibres", "joueur", "successeurs"):
            assert getattr(c, name)(g) == getattr(r, name)(g)
        assert c.attracteur(g) == r.attracteur(g)
        assert list(c.strategie(g).items()) == list(r.strategie(g).items())
        d1, d2 = {}, {}
        assert c.estGagnante(g, d1) == r.estGagnante(g, d2)
        assert list(d1.items()) == list(d2.items())


def test_empty_grid():
    a = c.attracteur(EMPTY)
    assert a == r.attracteur(EMPTY) and len(a) == 2936
    assert list(c.strategie(EMPTY).items()) == list(r.strategie(EMPTY).items())


def test_estGagnante_with_a_filled_memo_reuses_it():
    d1, d2 = {}, {}
    r.estGagnante(r.grille1, d1)
    r.estGagnante(r.grille1, d2)
    assert c.estGagnante(EMPTY, d1) == r.estGagnante(EMPTY, d2)
    assert list(d1.items()) == list(d2.items())


def _script(moves):
    it = iter(moves)
    return lambda prompt="": next(it)


@pytest.mark.parametrize("m", [r, c], ids=["reference", "compat"])
def test_jeu_scripted(m):
    out = []
    # the human (player 2) answers; "ab" (not digits) and "11" (taken) are asked again
    m.jeu([[1, 0, 2], [0, 1, 1], [2, 1, 2]], _script(["ab", "11", "12"]), out.append)
    assert out[-1] == "Le joueur 1 a gagné !"
    assert out[-5:-1] == ["|X|O|O|", "|X|X|X|", "|O|X|O|", " - - -"]
    out2 = []
    r.jeu([[1, 0, 2], [0, 1, 1], [2, 1, 2]], _script(["ab", "11", "12"]), out2.append)
    assert out == out2


@pytest.mark.parametrize("m", [r, c], ids=["reference", "compat"])
def test_jeu_without_strategy(m):
    out = []
    m.jeu([row[:] for row in EMPTY], _script([]), out.append)
    assert out == ["Pas de stratégie gagnante"]


def test_bad_grid():
    with pytest.raises(InvalidPositionError):
        c.attracteur([[1, 0], [0, 0]])
    with pytest.raises(InvalidPositionError):
        c.strategie([[1, 0, 3], [0, 0, 0], [0, 0, 0]])
