"""tp-arbres-de-jeu: the handout's ``TTT`` class, with its names and its exact answers.

``contenu`` is a 3x3 list of ``' '``, ``'x'``, ``'o'`` (``contenu[i][j]``: row i, column j);
cells are numbered ``0 1 2 / 3 4 5 / 6 7 8`` (``case // 3``, ``case % 3``).

``minmax(joueur, autre, moi, coupsPossibles, racine)``: ``joueur`` moves; values are +1 / 0 /
-1 from the side of "me" (``joueur`` when ``moi`` is true, ``autre`` otherwise), under perfect
play. At the root (``racine`` true, game not over) it returns the best cell: the first of
``coupsPossibles`` (in the caller's order) with the highest value when ``moi``, the lowest
otherwise; elsewhere, or when the game is already over, the value.

Fast path: on a legal position where ``coupsPossibles`` lists exactly the empty cells, each
move's value is read from the solved tic-tac-toe table (through
:func:`fastttt.play.players.move_outcomes`). Any other call (odd move lists, impossible boards) runs
the handout's recursion itself, memoised (:func:`minmax_reference`); the tests check both agree
on every reachable position.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from fastttt.codes import bitboard_of
from fastttt.errors import IllegalMoveError, InvalidArgumentError, InvalidPositionError
from fastttt.games.mnk.board import has_line
from fastttt.games.mnk.spec import tictactoe

# The handout's names.
__all__ = [
    "TTT",
    "jouer",
]

_MARKS = ("x", "o")


class TTT:
    """The handout's tic-tac-toe board."""

    def __init__(self) -> None:
        self.contenu = [[" " for j in range(3)] for i in range(3)]

    def __str__(self) -> str:
        res = ""
        for i in range(3):
            res = res + "\n+---+---+---+\n| "
            for j in range(3):
                res = res + str(self.contenu[i][j]) + " | "
        return res + "\n+---+---+---+\n"

    def __repr__(self) -> str:
        return f"<TTT {''.join(''.join(r) for r in self.contenu)!r}>"

    def joue(self, what: str, x: int, y: int):
        """Put ``what`` (``'x'`` or ``'o'``) on row ``x``, column ``y`` if that cell is empty;
        bad input is ignored (returns ``()``, as in the handout)."""
        if not (_is_int(x) and _is_int(y)):
            return ()
        if x < 0 or x > 2:
            return ()
        if y < 0 or y > 2:
            return ()
        if what != "o" and what != "x":
            return ()
        if self.contenu[x][y] == " ":
            self.contenu[x][y] = what
        return None

    def agagne(self, joueur: str) -> bool:
        """True when ``joueur`` has a full row, column or diagonal."""
        return _agagne(_flat(self.contenu), joueur)

    def minmax(self, joueur: str, autre: str, moi: bool, coupsPossibles, racine: bool):  # noqa: N803
        """Best cell at the root, else the value (+1 / 0 / -1 from "me"'s side; see the module
        docstring)."""
        cells = _flat(self.contenu)
        if not isinstance(joueur, str) or not isinstance(autre, str):
            raise InvalidArgumentError(f"joueur and autre are marks ('x', 'o'), got {joueur!r}")
        try:
            coups = tuple(coupsPossibles)
        except TypeError:
            raise InvalidArgumentError(
                f"coupsPossibles: a list of cells, got {coupsPossibles!r}"
            ) from None
        if not all(_is_int(c) and 0 <= c <= 8 for c in coups):
            raise IllegalMoveError(f"coupsPossibles: cells 0..8, got {coupsPossibles!r}")
        coups = tuple(int(c) for c in coups)
        fast = _fast_values(cells, joueur, autre, moi, coups)
        if fast is None:
            return minmax_reference(cells, joueur, autre, moi, coups, racine)
        if not racine:
            return max(fast) if moi else min(fast)
        which, v = coups[0], fast[0]
        for coup, value in zip(coups, fast, strict=True):
            if (value > v) if moi else (value < v):
                which, v = coup, value
        return which


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _flat(contenu) -> tuple:
    try:
        cells = tuple(contenu[i][j] for i in range(3) for j in range(3))
        hash(cells)
    except (TypeError, LookupError):
        raise InvalidPositionError(f"contenu is 3 rows of 3 marks, got {contenu!r}") from None
    return cells


def _agagne(cells: tuple, joueur: str) -> bool:
    return has_line(tictactoe, bitboard_of(cells, joueur))


def _fast_values(cells: tuple, joueur: str, autre: str, moi: bool, coups: tuple) -> list | None:
    """Each move's value from the solved table, or None when the fast path does not apply."""
    if {joueur, autre} != set(_MARKS) or any(c not in (" ", *_MARKS) for c in cells):
        return None
    empty = [i for i, c in enumerate(cells) if c == " "]
    if not coups or sorted(coups) != empty or _agagne(cells, joueur) or _agagne(cells, autre):
        return None
    nj, na = cells.count(joueur), cells.count(autre)
    if nj not in (na, na - 1):
        return None
    from fastttt.games.mnk.board import Position
    from fastttt.play.players import move_outcomes

    first = joueur if nj == na else autre  # the mark that moved first is X
    text = "".join("X" if c == first else "O" if c != " " else "." for c in cells)
    outcomes = move_outcomes(Position.from_text(tictactoe, text))  # joueur's side
    sign = 1 if moi else -1  # -> "me"
    return [sign * outcomes[c].result for c in coups]


def minmax_reference(cells: tuple, joueur: str, autre: str, moi: bool, coups: tuple, racine: bool):
    """The handout's recursive ``minmax`` on a flat 9-tuple, literally, memoised."""
    if _agagne(cells, joueur):
        return 1 if moi else -1
    if _agagne(cells, autre):
        return -1 if moi else 1
    if coups == ():
        return 0
    if not racine:
        return _minmax_value(cells, joueur, autre, moi, coups)
    return _minmax_body(cells, joueur, autre, moi, coups, True)


@lru_cache(maxsize=1 << 18)
def _minmax_value(cells: tuple, joueur: str, autre: str, moi: bool, coups: tuple) -> int:
    return _minmax_body(cells, joueur, autre, moi, coups, False)


def _minmax_body(cells: tuple, joueur: str, autre: str, moi: bool, coups: tuple, racine: bool):
    valeur = [0 for i in range(9)]
    for coup in coups:
        new = list(cells)
        x, y = coup // 3, coup % 3
        if 0 <= x <= 2 and 0 <= y <= 2 and joueur in _MARKS and new[coup] == " ":
            new[coup] = joueur  # TTT.joue
        cp = list(coups)
        cp.remove(coup)
        valeur[coup] = minmax_reference(tuple(new), autre, joueur, not moi, tuple(cp), False)
    v = valeur[coups[0]]
    which = coups[0]
    for coup in coups:
        if (valeur[coup] > v) if moi else (valeur[coup] < v):
            v = valeur[coup]
            which = coup
    return which if racine else v


def jouer(lire: Callable[[str], str] = input, ecrire: Callable[[str], None] = print) -> str | None:
    """The handout's game: you are ``'x'`` and type a cell 0..8, the computer (``'o'``) answers
    with ``minmax``. Returns ``'x'``, ``'o'`` or None (draw or end of input). A non-number is
    asked again (the handout's ``int(input(...))`` would stop on it)."""
    jeu = TTT()
    joueur, autre = "x", "o"
    coups = [0, 1, 2, 3, 4, 5, 6, 7, 8]
    try:
        while True:
            while True:
                try:
                    case = int(lire("où jouez-vous ? "))
                except ValueError:
                    continue
                if case in coups:
                    break
            jeu.joue(joueur, case // 3, case % 3)
            ecrire(str(jeu))
            if jeu.agagne(joueur):
                ecrire(joueur + " a gagné")
                return joueur
            coups.remove(case)
            if coups == []:
                ecrire("partie nulle")
                return None
            case_a_jouer = jeu.minmax(autre, joueur, False, coups, True)
            ecrire(autre + " joue en " + str(case_a_jouer))
            coups.remove(case_a_jouer)
            jeu.joue(autre, case_a_jouer // 3, case_a_jouer % 3)
            ecrire(str(jeu))
            if jeu.agagne(autre):
                ecrire(autre + " a gagné")
                return autre
    except (EOFError, KeyboardInterrupt):
        ecrire("partie abandonnée")
        return None
