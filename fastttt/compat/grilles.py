"""tp-positions-gagnantes with the handout's names and outputs, computed by kernels.

Same conventions as :mod:`fastttt.reference.grilles`: a grid is a list of 3 lists of 0
(empty), 1 (X, player 1, who starts), 2 (O, player 2); ``gagnant`` is the corrected one (an
empty line is no win). ``attracteur`` and ``strategie`` replay the handout's memoised
recursion (``estGagnante``, post-order, every child evaluated) in the kernels
:func:`fastttt.kernels.classroom.grid_attractor` and ``grid_strategy``, so their lists and dicts
come out in the reference's order.
"""

from __future__ import annotations

import numpy as np

from fastttt.codes import code_count, code_of_digits, digits_of_codes, pow3
from fastttt.errors import InvalidPositionError
from fastttt.kernels import classroom as C
from fastttt.reference import grilles as _ref

# The handout's names.
__all__ = [
    "grille1",
    "grille2",
    "afficher",
    "gagnant",
    "grilleVersTuple",
    "tupleVersGrille",
    "copie",
    "casesLibres",
    "joueur",
    "successeurs",
    "estGagnante",
    "attracteur",
    "strategie",
    "jeu",
]

grille1 = [[1, 0, 0], [0, 1, 0], [2, 0, 2]]
grille2 = [[1, 0, 2], [2, 1, 0], [0, 0, 1]]


def afficher(grille, sortie=print):
    """Print the grid as the handout does (``sortie`` replaces ``print``)."""
    _code(grille)
    return _ref.afficher(grille, sortie)


def gagnant(grille):
    """1 or 2 when that player has a line, else 0 (empty lines are skipped)."""
    _code(grille)
    return _ref.gagnant(grille)


def grilleVersTuple(grille):
    """The 9-tuple of the grid, row by row."""
    _code(grille)
    return _ref.grilleVersTuple([list(ligne) for ligne in grille])


def tupleVersGrille(tuple_):
    """The 3x3 grid (list of lists) of a 9-tuple."""
    if not isinstance(tuple_, tuple | list) or len(tuple_) != 9:
        raise InvalidPositionError(f"a grid tuple has 9 cells, got {tuple_!r}")
    grille = _ref.tupleVersGrille(tuple_)
    _code(grille)
    return grille


def copie(grille):
    """A copy of the grid (the rows are new lists)."""
    _code(grille)
    return [list(ligne) for ligne in grille]


def casesLibres(grille):
    """The empty cells ``(i, j)`` in row order."""
    _code(grille)
    return _ref.casesLibres(grille)


def joueur(grille):
    """The player to move: 1 when the number of empty cells is odd, else 2."""
    _code(grille)
    return _ref.joueur(grille)


def successeurs(grille):
    """The grids after each move of the player to move, in row order of the cell played."""
    _code(grille)
    return _ref.successeurs(copie(grille))


# Lines in the order the handout's gagnant checks them: row k, column k (k = 0, 1, 2), then
# the diagonal and the anti-diagonal.
_LINES = np.array(
    [[0, 1, 2], [0, 3, 6], [3, 4, 5], [1, 4, 7], [6, 7, 8], [2, 5, 8], [0, 4, 8], [2, 4, 6]],
    dtype=np.int64,
)
_POW3 = pow3(9)
_DIGITS = digits_of_codes(np.arange(code_count(9)), 9)  # a grid's cells are its code's digits


def _code(grille) -> int:
    try:
        if len(grille) != 3 or any(len(ligne) != 3 for ligne in grille):
            raise TypeError
        cells = [grille[i][j] for i in range(3) for j in range(3)]
    except (TypeError, IndexError, KeyError):
        raise InvalidPositionError(
            f"a grid is a list of 3 lists of 3 cells, got {grille!r}"
        ) from None
    if any(c not in (0, 1, 2) or isinstance(c, bool) for c in cells):
        raise InvalidPositionError(f"grid cells must be 0, 1 or 2, got {grille!r}")
    return code_of_digits(cells)


def _tuples(codes: np.ndarray) -> list[tuple]:
    return list(map(tuple, _DIGITS[codes].tolist()))


def estGagnante(g, dico):
    """True when ``g`` is winning for player 1; memoised in ``dico`` (tuple -> bool), post-order.

    With an empty ``dico`` the kernel fills it in the reference's order; with a non-empty one
    (earlier results to reuse) the plain recursion runs.
    """
    if not isinstance(dico, dict):
        raise InvalidPositionError(f"dico is a dict tuple -> bool, got {dico!r}")
    if dico:
        _code(g)
        return _ref.estGagnante(g, dico)
    codes, values = C.grid_attractor(_code(g), _LINES, _POW3)
    dico.update(zip(_tuples(codes), values.tolist(), strict=True))
    return bool(values[-1])


def _winning_codes(grille) -> np.ndarray:
    codes, values = C.grid_attractor(_code(grille), _LINES, _POW3)
    return codes[values]


def attracteur(grille):
    """Tuples of the positions reachable from ``grille`` that are winning for player 1."""
    return _tuples(_winning_codes(grille))


def strategie(grille):
    """dict tuple -> grid of the first successor that stays winning, where player 1 moves."""
    winning = _winning_codes(grille)
    choix = C.grid_strategy(winning, _LINES, _POW3)
    keep = choix >= 0
    cles = _tuples(winning[keep])
    grilles = [[d[0:3], d[3:6], d[6:9]] for d in _DIGITS[choix[keep]].tolist()]
    return dict(zip(cles, grilles, strict=True))


def jeu(grille, saisie=input, sortie=print):
    """Play against the strategy: the human is player 2 (``saisie`` reads, ``sortie`` writes)."""
    _code(grille)
    _ref.jouer_contre(strategie(grille), grille, saisie, sortie)
