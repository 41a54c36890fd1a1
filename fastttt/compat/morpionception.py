"""The morpionception handout's functions, with its names, on top of :mod:`fastttt.ultimate`.

Representation (the handout indexes ``Morpion[a, b]`` and a 3x3 ``morpion_intermediaire``)::

    Morpion[a, b][c, d]          cell (c, d) of board (a, b): a, c rows, b, d columns, 0..2
                                 0 empty, 1 croix (X, moves first), 2 ronds (O);
                                 'x' / 'o' / ' ' / '.' are accepted on input
    morpion_intermediaire[a, b]  0 board in play, 1 claimed by croix, 2 claimed by ronds,
                                 3 full without a line (a drawn board)
    Joueur                       "Croix" or "Ronds"
    coup                         (a, b, c, d); the next player must play in board (c, d)
    (a, b) arguments             the board the player to move is sent to; None (or a board
                                 that is finished) for a free choice

Values are the handout's: +1 croix wins, -1 ronds win, 0 draw (absolute, not side to move).
``MinMax`` and ``MinMax_AlphaBeta`` are exact: they call :func:`fastttt.ultimate.solve_exact`
and raise :class:`SearchBudgetError` when the position's tree does not fit ``budget`` nodes
(the empty board does not). The handout's ``AlphaBeta`` bound is accepted and ignored: the
exact value is valid for any bound. Deviation from the handout's code: a won board takes no
more moves (the handout's ``coups_disponibles_morpion`` does not say; the standard rule).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fastttt.errors import (
    FastTTTError,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidPositionError,
    SearchBudgetError,
)
from fastttt.games.ultimate.state import UltimateState
from fastttt.search.ultimate.engine import Coeffs, Engine
from fastttt.search.ultimate.engine import solve_exact as _solve_exact
from fastttt.values import mate_sign, relative

# The handout's names, and ``nouveau_morpion`` to start a game.
__all__ = [
    "victoire_morpion",
    "coups_disponibles_morpion",
    "coups_disponibles_morpionception",
    "nouveau_morpion",
    "avance_configuration_morpionception",
    "MinMax",
    "MinMax_AlphaBeta",
    "MinMax_heuristique",
    "MinMax_heuristique_AlphaBeta",
]

CROIX, RONDS = "Croix", "Ronds"
VICTOIRE_CROIX, VICTOIRE_RONDS, MATCH_NUL, EN_COURS = (
    "Victoire croix",
    "Victoire ronds",
    "Match nul",
    "En cours",
)
LIGNES = [
    [(0, 0), (0, 1), (0, 2)],
    [(1, 0), (1, 1), (1, 2)],
    [(2, 0), (2, 1), (2, 2)],
    [(0, 0), (1, 0), (2, 0)],
    [(0, 1), (1, 1), (2, 1)],
    [(0, 2), (1, 2), (2, 2)],
    [(0, 0), (1, 1), (2, 2)],
    [(0, 2), (1, 1), (2, 0)],
]
_CODES = {0: 0, 1: 1, 2: 2, 3: 3, " ": 0, ".": 0, "": 0, "x": 1, "X": 1, "o": 2, "O": 2}


def _code(v: Any) -> int:
    try:
        key = v if isinstance(v, str) else int(v)
    except (TypeError, ValueError, OverflowError):
        key = None
    if key not in _CODES:
        raise InvalidPositionError(f"cell value {v!r}: use 0/1/2 (or ' ', 'x', 'o')")
    return _CODES[key]


def _grille(g: Any) -> list[list[int]]:
    try:
        return [[_code(g[i][j]) for j in range(3)] for i in range(3)]
    except FastTTTError:
        raise
    except (TypeError, ValueError, LookupError):
        raise InvalidPositionError(f"a board is 3 rows of 3 cells, got {g!r}") from None


def _entier(v: Any, nom: str, limite: int = 2**31) -> int:
    """``v`` as an int of absolute value below ``limite`` (ints, NumPy integers and integral
    numbers only)."""
    if isinstance(v, bool | str | bytes):
        raise InvalidArgumentError(f"{nom} must be an integer, got {v!r}")
    try:
        i = int(v)
    except (TypeError, ValueError, OverflowError):
        raise InvalidArgumentError(f"{nom} must be an integer, got {v!r}") from None
    if i != v:
        raise InvalidArgumentError(f"{nom} must be an integer, got {v!r}")
    if abs(i) >= limite:
        raise InvalidArgumentError(f"{nom} must be below {limite} in absolute value, got {i}")
    return i


def _case(Morpion: Any, a: int, b: int, c: int | None = None, d: int | None = None) -> Any:
    try:
        v = Morpion[a][b]
        return v if c is None else v[c][d]
    except (TypeError, LookupError):
        raise InvalidPositionError(
            "Morpion is a 3x3 frame of 3x3 boards (Morpion[a][b][c][d])"
        ) from None


def victoire_morpion(grille: Any) -> str:
    """ "Victoire croix" / "Victoire ronds" for a line of 1 / 2, "Match nul" when no cell is 0
    (a full local board, or a frame where every board is finished), else "En cours"."""
    g = _grille(grille)
    for code, text in ((1, VICTOIRE_CROIX), (2, VICTOIRE_RONDS)):
        if any(all(g[i][j] == code for i, j in ligne) for ligne in LIGNES):
            return text
    if all(g[i][j] != 0 for i in range(3) for j in range(3)):
        return MATCH_NUL
    return EN_COURS


def coups_disponibles_morpion(grille: Any) -> list[tuple[int, int]]:
    """Empty cells (c, d) of a local board, row by row; [] when the board is won or full."""
    if victoire_morpion(grille) != EN_COURS:
        return []
    g = _grille(grille)
    return [(i, j) for i in range(3) for j in range(3) if g[i][j] == 0]


def coups_disponibles_morpionception(Morpion: Any) -> list[tuple[int, int, int, int]]:
    """Every move (a, b, c, d) of a free choice: empty cells of every board not won or full."""
    return [
        (a, b, c, d)
        for a in range(3)
        for b in range(3)
        for c, d in coups_disponibles_morpion(_case(Morpion, a, b))
    ]


def nouveau_morpion() -> tuple[np.ndarray, np.ndarray]:
    """An empty ``(Morpion, morpion_intermediaire)`` pair (int8 arrays (3,3,3,3) and (3,3))."""
    return np.zeros((3, 3, 3, 3), dtype=np.int8), np.zeros((3, 3), dtype=np.int8)


def avance_configuration_morpionception(
    Morpion: Any, morpion_intermediaire: Any, Joueur: str, coup: tuple[int, int, int, int]
) -> None:
    """Play ``coup`` = (a, b, c, d) for ``Joueur`` in place: the stone, then the board's claim
    (1 / 2) or 3 when it is full without a line. Raises IllegalMoveError on a taken cell or a
    finished board (the forced board is the caller's business, as in the handout)."""
    code = _joueur(Joueur)
    if not isinstance(coup, tuple | list) or len(coup) != 4:
        raise IllegalMoveError(f"coup {coup!r}: a move is (a, b, c, d)")
    try:
        a, b, c, d = (_entier(v, "a coordinate") for v in coup)
    except InvalidArgumentError as err:
        raise IllegalMoveError(f"coup {coup!r}: {err}") from None
    if not all(0 <= v < 3 for v in (a, b, c, d)):
        raise IllegalMoveError(f"coup {coup!r}: coordinates go from 0 to 2")
    if _code(_case(morpion_intermediaire, a, b)) != 0:
        raise IllegalMoveError(f"coup {coup!r}: board ({a}, {b}) is finished")
    if _code(_case(Morpion, a, b, c, d)) != 0:
        raise IllegalMoveError(f"coup {coup!r}: the cell is taken")
    try:
        Morpion[a][b][c][d] = code
    except (TypeError, ValueError):
        raise InvalidPositionError("Morpion's boards must be mutable (lists or arrays)") from None
    verdict = victoire_morpion(Morpion[a][b])
    if verdict in (VICTOIRE_CROIX, VICTOIRE_RONDS):
        morpion_intermediaire[a][b] = code
    elif verdict == MATCH_NUL:
        morpion_intermediaire[a][b] = 3


def _joueur(Joueur: str) -> int:
    if not isinstance(Joueur, str) or Joueur not in (CROIX, RONDS):
        raise InvalidArgumentError(f"Joueur must be {CROIX!r} or {RONDS!r}, got {Joueur!r}")
    return 1 if Joueur == CROIX else 2


def etat(Morpion: Any, morpion_intermediaire: Any, Joueur: str, a: Any = None, b: Any = None):
    """The :class:`~fastttt.ultimate.UltimateState` of a handout position (standard rules)."""
    _joueur(Joueur)
    a = None if a is None else _entier(a, "a")
    b = None if b is None else _entier(b, "b")
    rows = []
    for r in range(9):
        row = ""
        for col in range(9):
            v = _code(_case(Morpion, r // 3, col // 3, r % 3, col % 3))
            row += ".XO"[v] if v < 3 else "?"
        rows.append(row)
    frame = ""
    for i in range(3):
        for j in range(3):
            v = _code(_case(morpion_intermediaire, i, j))
            frame += "X" if v == 1 else "O" if v == 2 else "."
    forced = "*"
    if a is not None and b is not None and 0 <= a < 3 and 0 <= b < 3:
        if _code(morpion_intermediaire[a][b]) == 0 and coups_disponibles_morpion(Morpion[a][b]):
            forced = str(3 * int(a) + int(b))
    state = UltimateState.from_text(f"{'/'.join(rows)} {frame} {forced}")
    if not state.is_over() and state.to_move != _joueur(Joueur) - 1:
        raise InvalidPositionError(
            f"Joueur is {Joueur!r} but the stone counts say {(CROIX, RONDS)[state.to_move]!r}"
        )
    return state


def _absolute(state: UltimateState, score: int) -> int:
    """The handout's value (croix's side) of a side-to-move mate score: 0 unless proven."""
    return relative(mate_sign(score), state.to_move)


def _terminal(morpion_intermediaire: Any) -> int | None:
    v = victoire_morpion(morpion_intermediaire)
    return {VICTOIRE_CROIX: 1, VICTOIRE_RONDS: -1, MATCH_NUL: 0}.get(v)


def MinMax(
    Morpion: Any,
    morpion_intermediaire: Any,
    Joueur: str,
    a: Any = None,
    b: Any = None,
    budget: int = 10_000_000,
) -> int:
    """Exact value (+1 croix wins, 0 draw, -1 ronds win) of the position with ``Joueur`` to
    move in board (a, b); SearchBudgetError when the tree exceeds ``budget`` nodes."""
    t = _terminal(morpion_intermediaire)
    if t is not None:
        return t
    state = etat(Morpion, morpion_intermediaire, Joueur, a, b)
    verdict, score, _, nodes = _solve_exact(state, budget)
    if verdict == "estimate":
        raise SearchBudgetError(
            f"the position was not solved within {budget} nodes ({nodes} searched)"
        )
    return _absolute(state, score)


def MinMax_AlphaBeta(
    Morpion: Any,
    morpion_intermediaire: Any,
    Joueur: str,
    a: Any = None,
    b: Any = None,
    AlphaBeta: Any = None,
    budget: int = 10_000_000,
) -> int:
    """Same exact value as :func:`MinMax` (alpha-beta with a transposition table, the
    handout's memoisation); ``AlphaBeta`` is accepted for compatibility."""
    return MinMax(Morpion, morpion_intermediaire, Joueur, a, b, budget)


def _coeffs(jeu_de_coeffs: Any) -> Coeffs:
    if jeu_de_coeffs is None:
        return Coeffs()
    if isinstance(jeu_de_coeffs, Coeffs):
        return jeu_de_coeffs
    if isinstance(jeu_de_coeffs, dict):
        unknown = set(jeu_de_coeffs) - set(Coeffs._fields)
        if unknown:
            raise InvalidArgumentError(
                f"unknown coefficients {sorted(unknown)}; known: {', '.join(Coeffs._fields)}"
            )
        return Coeffs(**{k: _entier(v, k) for k, v in jeu_de_coeffs.items()})
    if isinstance(jeu_de_coeffs, str | bytes) or not hasattr(jeu_de_coeffs, "__iter__"):
        raise InvalidArgumentError(f"jeu_de_coeffs: Coeffs, dict or numbers, got {jeu_de_coeffs!r}")
    values = [_entier(v, "a coefficient") for v in jeu_de_coeffs]
    if len(values) != len(Coeffs._fields):
        raise InvalidArgumentError(
            f"jeu_de_coeffs needs {len(Coeffs._fields)} values: {Coeffs._fields}"
        )
    return Coeffs(*values)


def MinMax_heuristique(
    Morpion: Any,
    morpion_intermediaire: Any,
    Joueur: str,
    a: Any,
    b: Any,
    profondeur: int,
    jeu_de_coeffs: Any,
    Delta: int,
    valeur_stop_exploration: int,
    budget: int = 10_000_000,
) -> int:
    """The handout's selective search to the end of the game: at each node only the moves
    whose value (plain ``profondeur``-ply minimax with ``jeu_de_coeffs``, from the mover's
    view) is less than ``Delta`` below the best and above ``-valeur_stop_exploration`` are explored;
    a node with none counts as lost. Returns +1 / 0 / -1 (croix's view) like the handout.
    ``jeu_de_coeffs``: a :class:`~fastttt.ultimate.Coeffs`, a dict of its fields or 8 numbers.
    SearchBudgetError when the selective tree, look-ahead positions included (estimated, see
    :func:`_lookahead_cost`), exceeds ``budget`` positions: at once when one node's
    look-ahead alone does (``profondeur`` 8 from an open position)."""
    t = _terminal(morpion_intermediaire)
    if t is not None:
        return t
    if _entier(profondeur, "profondeur") < 1:
        raise InvalidArgumentError(f"profondeur must be at least 1, got {profondeur!r}")
    budget = _entier(budget, "budget", 2**62)
    state = etat(Morpion, morpion_intermediaire, Joueur, a, b)
    engine = Engine(
        _coeffs(jeu_de_coeffs),
        prune=(_entier(Delta, "Delta"), _entier(valeur_stop_exploration, "valeur_stop")),
        lookahead=int(profondeur),
    )
    per_node = _lookahead_cost(state, int(profondeur), budget)
    if per_node > budget:
        raise SearchBudgetError(
            f"one node's {profondeur}-ply look-ahead visits more positions than the budget of "
            f"{budget:,} (estimated from random paths)"
        )
    full = 81 - state.ply
    score, _, nodes, done = engine.search_depth(state, full, max(budget // per_node, 1))
    if not done:
        each = f", each with a look-ahead of about {per_node:,} positions" if per_node > 1 else ""
        raise SearchBudgetError(
            f"the selective search did not finish within {budget:,} positions ({nodes:,} "
            f"nodes{each})"
        )
    return _absolute(state, score)


LOOKAHEAD_PROBES = 32


def _lookahead_cost(state: UltimateState, depth: int, budget: int) -> int:
    """Positions one node's ``depth``-ply look-ahead visits beyond its children, at least 1:
    Knuth's estimate of the tree size (mean over random paths from ``state`` of the products
    of the branching factors), capped just above ``budget``. The engine counts nodes, not the
    look-ahead's positions: dividing the budget by this keeps the total work near it."""
    import random

    rng = random.Random(0)
    total = 0
    for _ in range(LOOKAHEAD_PROBES):
        s, width, size = state, 1, 0
        for level in range(1, depth + 1):
            moves = s.legal_moves()
            if not moves:
                break
            width *= len(moves)
            if level >= 2:
                size += width
            if size > budget:
                return budget + 1
            s = s.play(rng.choice(moves))
        total += size
    return max(total // LOOKAHEAD_PROBES, 1)


def MinMax_heuristique_AlphaBeta(
    Morpion: Any,
    morpion_intermediaire: Any,
    Joueur: str,
    a: Any,
    b: Any,
    profondeur: int,
    jeu_de_coeffs: Any,
    Delta: int,
    valeur_stop_exploration: int,
    AlphaBeta: Any = None,
    budget: int = 10_000_000,
) -> int:
    """:func:`MinMax_heuristique` (already alpha-beta inside); ``AlphaBeta`` is accepted."""
    return MinMax_heuristique(
        Morpion,
        morpion_intermediaire,
        Joueur,
        a,
        b,
        profondeur,
        jeu_de_coeffs,
        Delta,
        valeur_stop_exploration,
        budget,
    )
