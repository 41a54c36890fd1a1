"""tp-minimax: the handout's game loop and AIs, with its names, for any board size.

Conventions of the handout (SPEC section 3): a grid is a list of rows, ``grille[x][y]`` is row
``x``, column ``y`` (0-based, ``grille[0][0]`` top left); a cell holds ``' '`` (empty), ``'x'``
(player 1, who moves first) or ``'o'`` (player 2). A move is the tuple ``(x, y)``. The side to
move follows from the counts: ``'x'`` when both have as many marks, else ``'o'``.

``k`` is the number of marks in a row that wins: by default the length of the grid's side
(the smaller side of a rectangle), as in the handout. Connect Four plays through the same
functions with ``gravite=True`` (a mark falls to the lowest empty cell of its column) and
``k=4``; :func:`jouer_puissance4` sets both up on 6 rows x 7 columns.

Values: :func:`evaluation` is +1 when ``marque`` has a line, -1 when the other mark has one,
else 0 (the handout's first evaluation); :func:`minimax` returns such values from ``marque``'s
side. The search runs on bitboards (the lines of :func:`fastttt.games.mnk.board.win_masks`) with a
memo, and returns exactly what the handout's pseudo-code returns (checked against a literal
transcription in the tests).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from functools import cache, lru_cache

from fastttt.codes import bitboards_of_cells
from fastttt.errors import (
    IllegalMoveError,
    InvalidArgumentError,
    InvalidPositionError,
    UnknownPlayerError,
)
from fastttt.games.mnk.board import BITBOARD_CELLS as MAX_CELLS  # the handout grids: uint64 masks
from fastttt.games.mnk.board import contains_line, win_masks
from fastttt.games.mnk.spec import mnk

# The handout's game loop and AIs, by the names this module gives them.
__all__ = [
    "VIDE",
    "JOUEUR1",
    "JOUEUR2",
    "JOUEURS",
    "creer_grille",
    "texte_grille",
    "affichage",
    "joueur_actif",
    "coups_possibles",
    "saisie",
    "jouer_coup",
    "jouer_coups",
    "coup_aleatoire",
    "alignements",
    "evaluation",
    "minimax",
    "meilleur_coup",
    "minimax_p1",
    "jouer",
    "jouer_puissance4",
]

VIDE, JOUEUR1, JOUEUR2 = " ", "x", "o"
_AUTRE = {JOUEUR1: JOUEUR2, JOUEUR2: JOUEUR1}

Coup = tuple[int, int]


# --- checks at the boundary (typed errors instead of IndexError / TypeError) ---------------


def _grille(grille) -> list[list[str]]:
    """``grille`` itself after checking it: a list of equal rows of ' ', 'x', 'o'."""
    if not isinstance(grille, (list, tuple)) or not grille:
        raise InvalidPositionError(f"a grid is a non-empty list of rows, got {grille!r}")
    cols = 0
    for ligne in grille:
        if not isinstance(ligne, (list, tuple)) or not ligne:
            raise InvalidPositionError(f"a grid row is a non-empty list, got {ligne!r}")
        if cols and len(ligne) != cols:
            raise InvalidPositionError(f"grid rows have different lengths: {grille!r}")
        cols = len(ligne)
        if any(not isinstance(c, str) or c not in (VIDE, JOUEUR1, JOUEUR2) for c in ligne):
            raise InvalidPositionError(f"grid cells are ' ', 'x' or 'o', got {ligne!r}")
    if len(grille) * cols > MAX_CELLS:
        raise InvalidPositionError(f"a grid has at most {MAX_CELLS} cells")
    return grille  # type: ignore[return-value]  # checked above: rows of ' ', 'x', 'o'


def _marque(marque) -> str:
    if not isinstance(marque, str) or marque not in (JOUEUR1, JOUEUR2):
        raise InvalidArgumentError(f"a mark is 'x' or 'o', got {marque!r}")
    return marque


def _entier(valeur, nom: str, minimum: int | None = None) -> int:
    if isinstance(valeur, bool) or not isinstance(valeur, int):
        raise InvalidArgumentError(f"{nom} must be an integer, got {valeur!r}")
    if minimum is not None and valeur < minimum:
        raise InvalidArgumentError(f"{nom} must be at least {minimum}, got {valeur}")
    return valeur


def _coup(grille, coup) -> Coup:
    if not isinstance(coup, tuple | list) or len(coup) != 2:
        raise IllegalMoveError(f"a move is a pair (x, y), got {coup!r}")
    x, y = (_entier(v, "a move coordinate") for v in coup)
    if not (0 <= x < len(grille) and 0 <= y < len(grille[0])):
        raise IllegalMoveError(f"move {coup!r} is off the grid")
    return x, y


# --- grids -----------------------------------------------------------------------------


def creer_grille(lignes: int = 3, colonnes: int | None = None) -> list[list[str]]:
    """An empty grid of ``lignes`` rows and ``colonnes`` columns (square by default)."""
    lignes = _entier(lignes, "lignes", 1)
    colonnes = lignes if colonnes is None else _entier(colonnes, "colonnes", 1)
    if lignes * colonnes > MAX_CELLS:
        raise InvalidArgumentError(f"a grid has at most {MAX_CELLS} cells")
    return [[VIDE] * colonnes for _ in range(lignes)]


def texte_grille(grille: list[list[str]]) -> str:
    """The drawing :func:`affichage` prints (the handout's ``*-----*`` frame)."""
    cols = len(_grille(grille)[0])
    bord = "*" + "-" * (2 * cols - 1) + "*"
    return "\n".join([bord, *("| " + " ".join(ligne) + " |" for ligne in grille), bord])


def affichage(grille: list[list[str]], ecrire: Callable[[str], None] = print) -> None:
    """Print the grid in the handout's frame: ``*-----*`` above and below, each row as
    ``| x o o |`` (cells separated by one space)."""
    ecrire(texte_grille(grille))


def joueur_actif(grille: list[list[str]]) -> str:
    """``'x'`` when both players have as many marks, else ``'o'``."""
    nx = sum(ligne.count(JOUEUR1) for ligne in _grille(grille))
    no = sum(ligne.count(JOUEUR2) for ligne in grille)
    return JOUEUR1 if nx == no else JOUEUR2


def coups_possibles(grille: list[list[str]], gravite: bool = False) -> tuple[Coup, ...]:
    """Every legal move as a tuple of ``(x, y)``: empty cells in row order; with ``gravite``
    the lowest empty cell of each column that is not full, in column order."""
    _grille(grille)
    if not gravite:
        return tuple(
            (x, y) for x, ligne in enumerate(grille) for y, c in enumerate(ligne) if c == VIDE
        )
    coups = []
    for y in range(len(grille[0])):
        for x in reversed(range(len(grille))):
            if grille[x][y] == VIDE:
                coups.append((x, y))
                break
    return tuple(coups)


def saisie(
    grille: list[list[str]],
    lire: Callable[[str], str] = input,
    ecrire: Callable[[str], None] = print,
    gravite: bool = False,
) -> Coup:
    """Ask for a move ``x,y`` (row, column, from 0 as in ``grille[x][y]``; a column ``y`` alone
    with ``gravite``) until a legal one is typed; returns ``(x, y)``.

    Malformed text (``ValueError``), coordinates off the grid (``IndexError``) and a taken cell
    or full column each print their own message and ask again. ``EOFError`` is left to the
    caller (:func:`jouer` ends the game on it).
    """
    while True:
        texte = lire("Votre coup (colonne y) : " if gravite else "Votre coup (x,y) : ")
        try:
            if gravite:
                y = int(texte)
                if y < 0:
                    raise IndexError(y)
                grille[0][y]  # noqa: B018  (IndexError off the grid, as the handout asks)
                coup = next((c for c in coups_possibles(grille, True) if c[1] == y), None)
                if coup is None:
                    ecrire(f"La colonne {y} est pleine.")
                    continue
                return coup
            x, y = (int(v) for v in texte.split(","))
            if x < 0 or y < 0:
                raise IndexError((x, y))
            if grille[x][y] != VIDE:
                ecrire(f"La case {x},{y} est déjà occupée.")
                continue
            return (x, y)
        except ValueError:
            ecrire(f"Saisie invalide {texte.strip()!r} : tapez " + ("y" if gravite else "x,y"))
        except IndexError:
            ecrire(f"Coup {texte.strip()!r} hors de la grille.")


def jouer_coup(grille: list[list[str]], coup: Coup, marque: str) -> None:
    """Put ``marque`` on ``coup`` (in place)."""
    x, y = _coup(_grille(grille), coup)
    grille[x][y] = _marque(marque)


def jouer_coups(grille: list[list[str]], coups, marque: str | None = None) -> list[list[list[str]]]:
    """One new grid per move of ``coups``: a deep copy of ``grille`` with ``marque`` (the side
    to move by default) on that move. ``grille`` itself is not modified."""
    marque = joueur_actif(grille) if marque is None else _marque(marque)
    grilles = []
    for coup in coups:
        g = copy.deepcopy(grille)
        jouer_coup(g, coup, marque)
        grilles.append(g)
    return grilles


def coup_aleatoire(
    grille: list[list[str]], rng: random.Random | None = None, gravite: bool = False
) -> Coup:
    """A legal move chosen at random (``rng``, or the ``random`` module)."""
    coups = coups_possibles(grille, gravite)
    if not coups:
        raise IllegalMoveError("no move left: the grid is full")
    return (rng or random).choice(coups)


# --- evaluation and minimax on bitboards ------------------------------------------------


def _k(grille: list[list[str]], k: int | None) -> int:
    return min(len(grille), len(grille[0])) if k is None else _entier(k, "k", 1)


@cache
def _lines(rows: int, cols: int, k: int) -> tuple[int, ...]:
    return tuple(int(m) for m in win_masks(mnk(rows, cols, k)))


def _bits(grille: list[list[str]]) -> tuple[int, int]:
    """(x, o) bitboards of a grid (cell ``x * cols + y``)."""
    return bitboards_of_cells([c for ligne in grille for c in ligne], (JOUEUR1, JOUEUR2))


def alignements(grille: list[list[str]], k: int | None = None) -> tuple[str, ...]:
    """The marks that have ``k`` in a row (row, column or diagonal), as a tuple; ``()`` when
    nobody has (the handout's evaluation function of ``mecanique.py``)."""
    _grille(grille)
    rows, cols = len(grille), len(grille[0])
    lines = _lines(rows, cols, _k(grille, k))
    bx, bo = _bits(grille)
    return tuple(m for m, b in ((JOUEUR1, bx), (JOUEUR2, bo)) if contains_line(lines, b))


def evaluation(grille: list[list[str]], marque: str, k: int | None = None) -> int:
    """+1 when ``marque`` has a line, -1 when the other mark has one, else 0."""
    found = alignements(grille, k)
    _marque(marque)
    if marque in found:
        return 1
    return -1 if _AUTRE[marque] in found else 0


@lru_cache(maxsize=1 << 20)
def _search(
    rows: int,
    cols: int,
    k: int,
    gravite: bool,
    me: int,
    bx: int,
    bo: int,
    depth: int,
    adverse: bool,
) -> int:
    """The handout's minimax on bitboards (``me`` 0 for 'x', 1 for 'o'), memoised."""
    lines = _lines(rows, cols, k)
    x_won = contains_line(lines, bx)
    o_won = contains_line(lines, bo)
    occupied = bx | bo
    if depth <= 0 or x_won or o_won or occupied == (1 << rows * cols) - 1:
        mine, theirs = (x_won, o_won) if me == 0 else (o_won, x_won)
        return 1 if mine else -1 if theirs else 0
    mover = me if not adverse else 1 - me
    values = []
    for cell in _moves(occupied, rows, cols, gravite):
        bit = 1 << cell
        nx, no = (bx | bit, bo) if mover == 0 else (bx, bo | bit)
        values.append(_search(rows, cols, k, gravite, me, nx, no, depth - 1, not adverse))
    return min(values) if adverse else max(values)


def _moves(occupied: int, rows: int, cols: int, gravite: bool) -> list[int]:
    """Cells of the legal moves in :func:`coups_possibles` order."""
    if not gravite:
        return [c for c in range(rows * cols) if not occupied >> c & 1]
    out = []
    for y in range(cols):
        for x in reversed(range(rows)):
            if not occupied >> (x * cols + y) & 1:
                out.append(x * cols + y)
                break
    return out


def minimax(
    grille: list[list[str]],
    profondeur: int,
    tour_adversaire: bool = False,
    marque: str | None = None,
    k: int | None = None,
    gravite: bool = False,
) -> int:
    """The handout's ``minimax(grille, profondeur, tour_adversaire)``: the value, from
    ``marque``'s side (+1 its line, -1 the other's, 0 otherwise), of ``grille`` searched
    ``profondeur`` plies deep; ``marque`` moves when ``tour_adversaire`` is false, the other mark
    when it is true. ``marque`` defaults to the side to move. Stops at depth 0 or a final grid
    (a line or no move left) and returns :func:`evaluation` there."""
    if marque is None:
        marque = joueur_actif(grille)
        if tour_adversaire:
            marque = _AUTRE[marque]
    _marque(marque)
    _grille(grille)
    profondeur = _entier(profondeur, "profondeur")
    mnk(len(grille), len(grille[0]), _k(grille, k))  # checks k (GameSpecError)
    bx, bo = _bits(grille)
    me = 0 if marque == JOUEUR1 else 1
    return _search(
        len(grille),
        len(grille[0]),
        _k(grille, k),
        gravite,
        me,
        bx,
        bo,
        int(profondeur),
        bool(tour_adversaire),
    )


def meilleur_coup(
    grille: list[list[str]],
    profondeur: int,
    marque: str | None = None,
    rng: random.Random | None = None,
    k: int | None = None,
    gravite: bool = False,
) -> Coup:
    """A move of best :func:`minimax` value at depth ``profondeur`` for ``marque`` (the side to
    move by default), chosen at random among equal best moves (question 13)."""
    marque = joueur_actif(grille) if marque is None else _marque(marque)
    profondeur = _entier(profondeur, "profondeur")
    coups = coups_possibles(grille, gravite)
    if not coups:
        raise IllegalMoveError("no move left: the grid is full")
    valeurs = [
        minimax(g, profondeur - 1, True, marque, k, gravite)
        for g in jouer_coups(grille, coups, marque)
    ]
    best = max(valeurs)
    return (rng or random).choice([c for c, v in zip(coups, valeurs, strict=True) if v == best])


def minimax_p1(
    grille: list[list[str]],
    marque: str,
    rng: random.Random | None = None,
    k: int | None = None,
    gravite: bool = False,
) -> Coup:
    """Depth 1: the move whose grid evaluates best for ``marque`` (random among equals)."""
    return meilleur_coup(grille, 1, marque, rng, k, gravite)


# --- the game loop -----------------------------------------------------------------------

JOUEURS = ("humain", "aleatoire", "minimax_p1", "minimax")


def jouer(
    taille_grille: int = 3,
    joueur1: str = "humain",
    joueur2: str = "aleatoire",
    profondeur: int = 3,
    *,
    colonnes: int | None = None,
    k: int | None = None,
    gravite: bool = False,
    lire: Callable[[str], str] = input,
    ecrire: Callable[[str], None] = print,
    rng: random.Random | None = None,
) -> str | None:
    """Play a game on a ``taille_grille`` x ``taille_grille`` grid (``colonnes`` for a
    rectangle); returns the winning mark, ``None`` for a draw or an abandoned game.

    ``joueur1`` (``'x'``, moves first) and ``joueur2`` (``'o'``) are each ``"humain"``,
    ``"aleatoire"``, ``"minimax_p1"`` or ``"minimax"`` (depth ``profondeur``): two computers may
    play each other. The loop follows the handout: draw the grid, get the active player's
    move, play it, evaluate, stop on a line (or a full grid), else switch player. End of input
    or Ctrl-C end the game with a message.
    """
    for j in (joueur1, joueur2):
        if j not in JOUEURS:
            raise UnknownPlayerError(f"joueur inconnu {j!r} ; au choix : {', '.join(JOUEURS)}")
    rng = rng or random.Random()
    grille = creer_grille(taille_grille, colonnes)
    k = _k(grille, k)
    mnk(len(grille), len(grille[0]), k)  # validates the size (GameSpecError)
    joueurs = {JOUEUR1: joueur1, JOUEUR2: joueur2}
    marque = JOUEUR1
    try:
        while True:
            affichage(grille, ecrire)
            qui = joueurs[marque]
            if qui == "humain":
                ecrire(f"Au tour de {marque}.")
                coup = saisie(grille, lire, ecrire, gravite)
            elif qui == "aleatoire":
                coup = coup_aleatoire(grille, rng, gravite)
            elif qui == "minimax_p1":
                coup = minimax_p1(grille, marque, rng, k, gravite)
            else:
                coup = meilleur_coup(grille, profondeur, marque, rng, k, gravite)
            if coup not in coups_possibles(grille, gravite):  # the handout's check
                raise AssertionError(f"coup illégal {coup}")
            if qui != "humain":
                ecrire(f"{marque} ({qui}) joue {coup[0]},{coup[1]}")
            jouer_coup(grille, coup, marque)
            gagnants = alignements(grille, k)
            if gagnants:
                affichage(grille, ecrire)
                ecrire(f"{marque} a gagné !")
                return marque
            if not coups_possibles(grille, gravite):
                affichage(grille, ecrire)
                ecrire("Partie nulle.")
                return None
            marque = _AUTRE[marque]
    except (EOFError, KeyboardInterrupt):
        ecrire("\nPartie abandonnée.")
        return None


def jouer_puissance4(
    joueur1: str = "humain", joueur2: str = "aleatoire", profondeur: int = 3, **options
) -> str | None:
    """Connect Four through the same loop: 6 rows x 7 columns, gravity, 4 in a row."""
    return jouer(6, joueur1, joueur2, profondeur, colonnes=7, k=4, gravite=True, **options)
