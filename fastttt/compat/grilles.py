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

afficher = _ref.afficher
gagnant = _ref.gagnant
grilleVersTuple = _ref.grilleVersTuple
tupleVersGrille = _ref.tupleVersGrille
copie = _ref.copie
casesLibres = _ref.casesLibres
joueur = _ref.joueur
successeurs = _ref.successeurs

# Lines in the order the handout's gagnant checks them: row k, column k (k = 0, 1, 2), then
# the diagonal and the anti-diagonal.
_LINES = np.array(
    [[0, 1, 2], [0, 3, 6], [3, 4, 5], [1, 4, 7], [6, 7, 8], [2, 5, 8], [0, 4, 8], [2, 4, 6]],
    dtype=np.int64,
)
_POW3 = np.array([3**c for c in range(9)], dtype=np.int64)
_DIGITS = (np.arange(3**9, dtype=np.int64)[:, None] // _POW3[None, :]) % 3


def _code(grille) -> int:
    try:
        cells = [grille[i][j] for i in range(3) for j in range(3)]
    except (TypeError, IndexError, KeyError):
        raise InvalidPositionError(
            f"a grid is a list of 3 lists of 3 cells, got {grille!r}"
        ) from None
    if any(c not in (0, 1, 2) or isinstance(c, bool) for c in cells):
        raise InvalidPositionError(f"grid cells must be 0, 1 or 2, got {grille!r}")
    return sum(c * 3**k for k, c in enumerate(cells))


def _tuples(codes: np.ndarray) -> list[tuple]:
    return list(map(tuple, _DIGITS[codes].tolist()))


def estGagnante(g, dico):
    """True when ``g`` is winning for player 1; memoised in ``dico`` (tuple -> bool), post-order.

    With an empty ``dico`` the kernel fills it in the reference's order; with a non-empty one
    (earlier results to reuse) the plain recursion runs.
    """
    if dico:
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
