"""tp-minimax (``fastttt.compat.minimax_tp``) and tp-arbres-de-jeu (``fastttt.compat.ttt``)
against literal transcriptions of the handouts' code."""

from __future__ import annotations

import copy
import random

import pytest

from fastttt.compat import minimax_tp as tp
from fastttt.compat.ttt import TTT, jouer, minmax_reference
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import tictactoe
from fastttt.play.players import solution_for

# --- literal tp-minimax: lists, deepcopy, the pseudo-code as printed ----------------------


def lit_moves(g, gravite=False):
    if not gravite:
        return tuple((x, y) for x in range(len(g)) for y in range(len(g[0])) if g[x][y] == " ")
    out = []
    for y in range(len(g[0])):
        xs = [x for x in range(len(g)) if g[x][y] == " "]
        if xs:
            out.append((max(xs), y))
    return tuple(out)


def lit_aligned(g, k):
    rows, cols, found = len(g), len(g[0]), []
    for m in ("x", "o"):
        for x in range(rows):
            for y in range(cols):
                for dx, dy in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(x + i * dx, y + i * dy) for i in range(k)]
                    if all(0 <= a < rows and 0 <= b < cols and g[a][b] == m for a, b in cells):
                        if m not in found:
                            found.append(m)
    return tuple(found)


def lit_eval(g, marque, k):
    found = lit_aligned(g, k)
    return 1 if marque in found else -1 if found else 0


def lit_minimax(g, profondeur, tour_adversaire, marque, k, gravite=False):
    moves = lit_moves(g, gravite)
    if profondeur == 0 or lit_aligned(g, k) or not moves:
        return lit_eval(g, marque, k)
    mover = marque if not tour_adversaire else ("o" if marque == "x" else "x")
    v = []
    for x, y in moves:
        new = copy.deepcopy(g)
        new[x][y] = mover
        v.append(lit_minimax(new, profondeur - 1, not tour_adversaire, marque, k, gravite))
    return min(v) if tour_adversaire else max(v)


def random_grid(rows, cols, k, rng, gravite=False, stones=None):
    g = tp.creer_grille(rows, cols)
    n = rng.randrange(rows * cols) if stones is None else stones
    mark = "x"
    for _ in range(n):
        moves = lit_moves(g, gravite)
        if not moves or lit_aligned(g, k):
            break
        x, y = rng.choice(moves)
        g[x][y] = mark
        mark = "o" if mark == "x" else "x"
    return g


# --- tp-minimax ---------------------------------------------------------------------------


def test_affichage_is_the_handouts_frame():
    g = [[" ", "x", " "], ["x", "o", "o"], ["o", "x", " "]]
    out = []
    assert tp.affichage(g, out.append) is None
    assert out == ["*-----*\n|   x   |\n| x o o |\n| o x   |\n*-----*"]


def test_coups_possibles_is_a_tuple_in_row_order():
    g = [[" ", "x", " "], ["x", "o", "o"], ["o", "x", " "]]
    assert tp.coups_possibles(g) == ((0, 0), (0, 2), (2, 2))
    c4 = tp.creer_grille(6, 7)
    c4[5][0] = "x"
    c4[4][0] = "o"
    assert tp.coups_possibles(c4, gravite=True) == ((3, 0),) + tuple((5, y) for y in range(1, 7))
    assert tp.coups_possibles(c4) == lit_moves(c4)


def test_jouer_coups_copies_and_marks_the_side_to_move():
    g = [[" ", "x", " "], ["x", "o", "o"], ["o", "x", " "]]
    before = copy.deepcopy(g)
    grids = tp.jouer_coups(g, tp.coups_possibles(g))
    assert g == before and len(grids) == 3
    assert grids[1][0] == [" ", "x", "x"] and grids[2][2] == ["o", "x", "x"]
    assert tp.jouer_coups(g, [(0, 0)], "o")[0][0][0] == "o"


def test_evaluation_and_alignements():
    g = [["x", "x", "x"], ["o", "o", " "], [" ", " ", " "]]
    assert tp.alignements(g) == ("x",)
    assert tp.evaluation(g, "x") == 1 and tp.evaluation(g, "o") == -1
    assert tp.evaluation(tp.creer_grille(3), "x") == 0
    rng = random.Random(1)
    for rows, cols, k in ((3, 3, 3), (4, 4, 4), (4, 5, 3), (6, 7, 4)):
        for _ in range(60):
            g = random_grid(rows, cols, k, rng)
            kk = None if k == min(rows, cols) else k
            assert tp.alignements(g, kk) == lit_aligned(g, k)
            for m in "xo":
                assert tp.evaluation(g, m, kk) == lit_eval(g, m, k)


@pytest.mark.parametrize(
    "rows, cols, k, gravite, max_depth",
    [(3, 3, 3, False, 3), (4, 4, 4, False, 2), (4, 4, 3, False, 2), (5, 5, 4, True, 3)],
)
def test_minimax_equals_the_pseudo_code(rows, cols, k, gravite, max_depth):
    rng = random.Random(rows * 100 + k)
    for _ in range(40):
        g = random_grid(rows, cols, k, rng, gravite)
        depth = rng.randrange(max_depth + 1)
        adverse, marque = rng.random() < 0.5, rng.choice("xo")
        got = tp.minimax(g, depth, adverse, marque, k, gravite)
        assert got == lit_minimax(g, depth, adverse, marque, k, gravite)


def test_minimax_full_depth_is_the_game_value():
    sol = solution_for(tictactoe)
    rng = random.Random(3)
    for _ in range(60):
        g = random_grid(3, 3, 3, rng)
        if tp.alignements(g) or not tp.coups_possibles(g):
            continue
        text = "/".join("".join({" ": ".", "x": "X", "o": "O"}[c] for c in row) for row in g)
        value = sol.value(Position.from_text(tictactoe, text))  # +1 x wins
        x_moves = tp.joueur_actif(g) == "x"
        assert tp.minimax(g, 9, not x_moves, "x") == value
        assert tp.minimax(g, 9) == (value if tp.joueur_actif(g) == "x" else -value)


def test_the_handouts_example_has_one_saving_move():
    g = [[" ", "x", " "], ["x", "o", "o"], ["o", "x", " "]]
    rng = random.Random(0)
    assert {tp.meilleur_coup(g, 3, "x", rng) for _ in range(20)} == {(0, 2)}
    # depth 1 sees no difference between the moves: random among all three
    assert {tp.minimax_p1(g, "x", rng) for _ in range(60)} == set(tp.coups_possibles(g))


def test_minimax_p1_takes_a_win_and_coup_aleatoire_is_legal():
    g = [["x", "x", " "], ["o", "o", " "], [" ", " ", " "]]
    assert tp.minimax_p1(g, "x") == (0, 2)
    assert tp.minimax_p1(g, "o") == (1, 2)
    rng = random.Random(5)
    picks = {tp.coup_aleatoire(g, rng) for _ in range(100)}
    assert picks == set(tp.coups_possibles(g))


def _script(lines):
    lines = list(lines)

    def lire(prompt):
        if not lines:
            raise EOFError
        return lines.pop(0)

    return lire


def test_saisie_catches_each_error():
    g = [["x", " ", " "], [" ", " ", " "], [" ", " ", " "]]
    out = []
    coup = tp.saisie(g, _script(["a,b", "1", "3,0", "-1,0", "0,0", "1,2"]), out.append)
    assert coup == (1, 2)
    assert out == [
        "Saisie invalide 'a,b' : tapez x,y",
        "Saisie invalide '1' : tapez x,y",
        "Coup '3,0' hors de la grille.",
        "Coup '-1,0' hors de la grille.",
        "La case 0,0 est déjà occupée.",
    ]
    c4 = tp.creer_grille(2, 3)
    c4[1][1], c4[0][1] = "x", "o"
    out = []
    assert tp.saisie(c4, _script(["1", "7", "x", "2"]), out.append, gravite=True) == (1, 2)
    assert out == [
        "La colonne 1 est pleine.",
        "Coup '7' hors de la grille.",
        "Saisie invalide 'x' : tapez y",
    ]


def test_jouer_human_game_and_end_of_input():
    out = []
    winner = tp.jouer(
        3, "humain", "humain", lire=_script(["0,0", "1,0", "0,1", "1,1", "0,2"]), ecrire=out.append
    )
    assert winner == "x" and out[-1] == "x a gagné !"
    assert out[-2] == "*-----*\n| x x x |\n| o o   |\n|       |\n*-----*"
    out = []
    assert tp.jouer(3, "humain", "aleatoire", lire=_script(["1,1"]), ecrire=out.append) is None
    assert out[-1] == "\nPartie abandonnée."


def test_jouer_computers_and_connect_four():
    wins = {
        tp.jouer(3, "minimax", "aleatoire", 9, ecrire=lambda t: None, rng=random.Random(s))
        for s in range(6)
    }
    assert wins <= {"x", None}  # full-depth minimax never loses
    out = []
    w = tp.jouer_puissance4("aleatoire", "minimax_p1", ecrire=out.append, rng=random.Random(2))
    assert w in ("x", "o", None)
    last_grid = [t for t in out if t.startswith("*")][-1].splitlines()
    assert len(last_grid) == 8 and len(last_grid[1]) == 2 * 7 + 3
    with pytest.raises(ValueError, match="joueur inconnu"):
        tp.jouer(3, "robot")


# --- tp-arbres-de-jeu: the TTT class ------------------------------------------------------


class HandoutTTT:
    """The handout's class as printed (deepcopy and all)."""

    def __init__(self):
        self.contenu = [[" " for j in range(3)] for i in range(3)]

    def joue(self, what, x, y):
        if x < 0 or x > 2:
            return ()
        if y < 0 or y > 2:
            return ()
        if what != "o" and what != "x":
            return ()
        if self.contenu[x][y] == " ":
            self.contenu[x][y] = what

    def agagne(self, joueur):
        for i in range(0, 3):
            if self.contenu[i] == [joueur, joueur, joueur]:
                return True
        for i in range(0, 3):
            if all(self.contenu[r][i] == joueur for r in range(3)):
                return True
        if all(self.contenu[i][i] == joueur for i in range(3)):
            return True
        return all(self.contenu[i][2 - i] == joueur for i in range(3))

    def minmax(self, joueur, autre, moi, coupsPossibles, racine):  # noqa: N803
        if self.agagne(joueur):
            return 1 if moi else -1
        if self.agagne(autre):
            return -1 if moi else 1
        if coupsPossibles == []:
            return 0
        valeur = [0 for i in range(9)]
        for coup in coupsPossibles:
            newPos = copy.deepcopy(self)  # noqa: N806
            newPos.joue(joueur, coup // 3, coup % 3)
            cp = copy.deepcopy(coupsPossibles)
            cp.remove(coup)
            valeur[coup] = newPos.minmax(autre, joueur, not moi, cp, False)
        v, which = valeur[coupsPossibles[0]], coupsPossibles[0]
        for coup in coupsPossibles:
            if (valeur[coup] > v) if moi else (valeur[coup] < v):
                v, which = valeur[coup], coup
        return which if racine else v


def _board(cls, text, first="x"):
    second = "o" if first == "x" else "x"
    t = cls()
    for i, ch in enumerate(text.replace("/", "")):
        if ch != ".":
            t.contenu[i // 3][i % 3] = first if ch == "X" else second
    return t


def test_str_and_joue_as_in_the_handout():
    toto = TTT()
    toto.joue("x", 1, 0)
    toto.joue("o", 0, 0)
    toto.joue("x", 1, 1)
    assert str(toto) == (
        "\n+---+---+---+\n| o |   |   | \n+---+---+---+\n| x | x |   | "
        "\n+---+---+---+\n|   |   |   | \n+---+---+---+\n"
    )
    assert toto.joue("x", 3, 0) == () and toto.joue("z", 2, 2) == () and toto.joue("o", 2, -1) == ()
    toto.joue("o", 1, 0)  # taken: ignored
    assert toto.contenu == [["o", " ", " "], ["x", "x", " "], [" ", " ", " "]]
    assert not toto.agagne("x")
    toto.joue("x", 1, 2)
    assert toto.agagne("x") and not toto.agagne("o")


def test_minmax_equals_the_handouts_recursion_on_every_reachable_position():
    sol = solution_for(tictactoe)
    rng = random.Random(0)
    count = 0
    for code in sol.reachable_codes():
        pos = Position.from_code(tictactoe, int(code))
        text = str(pos)
        first = "x" if count % 2 else "o"  # the first player's mark alternates
        t = _board(TTT, text, first)
        mover = first if pos.to_move == 0 else ("o" if first == "x" else "x")
        other = "o" if mover == "x" else "x"
        empty = [i for i, c in enumerate(text.replace("/", "")) if c == "."]
        coups = empty if count % 3 == 0 else rng.sample(empty, len(empty))
        cells = tuple(c for r in t.contenu for c in r)
        if True:
            for moi in (True, False):
                for racine in (True, False):
                    got = t.minmax(mover, other, moi, list(coups), racine)
                    want = minmax_reference(cells, mover, other, moi, tuple(coups), racine)
                    assert got == want, (text, mover, moi, racine, coups)
        count += 1
    assert count == 5478


def test_reference_equals_the_printed_code():
    rng = random.Random(4)
    for _ in range(40):
        pos = Position.empty(tictactoe)
        for _ in range(rng.randrange(4, 8)):
            if pos.is_over():
                break
            pos = pos.play(rng.choice(pos.legal_moves()))
        text = str(pos)
        mine, theirs = _board(TTT, text), _board(HandoutTTT, text)
        mover = "x" if pos.to_move == 0 else "o"
        other = "o" if mover == "x" else "x"
        coups = [i for i, c in enumerate(text.replace("/", "")) if c == "."]
        coups = coups + [coups[0]] if rng.random() < 0.3 and coups else coups  # odd lists too
        for moi in (True, False):
            for racine in (True, False):
                want = theirs.minmax(mover, other, moi, list(coups), racine)
                assert mine.minmax(mover, other, moi, list(coups), racine) == want


def test_empty_board_and_the_handouts_loop():
    assert TTT().minmax("x", "o", True, list(range(9)), True) == 0  # first cell of value 0
    out = []
    lines = ["a", "4", "4", "0", "8", "2", "6", "7", "1", "3", "5"]
    winner = jouer(_script(lines), out.append)
    assert winner in ("o", None)  # minmax never loses
    assert out[-1] in ("o a gagné", "partie nulle")
    assert jouer(_script([]), out.append) is None and out[-1] == "partie abandonnée"
