"""td-jeu-de-morpion, written plainly with the handout's own names (the reference version).

Conventions of the handout: an n x n board is a string of n*n characters ``'.'``, ``'O'``,
``'X'``, cells numbered row by row; a state is ``(s, J)`` with ``J`` the player to move; player
J0 plays ``'O'``, J1 plays ``'X'``. Values (``minimax``, ``minimax_heur``) are from J0's side:
+1 J0 wins, -1 J1 wins, 0 draw.

The handout's globals (``successeurs``, ``gagnants0``, ``gagnants1``, ``nuls``,
``predecessurs``/``predecesseurs``, ``attracteurs``, ``region_nulle``) describe n = 3 with J0
starting; they are computed on first access (about 0.3 s), not at import.

``jeu_OXO`` explores the game with a stack (last in, first out); a final successor is entered
in the dict as soon as it is met, an unfinished one when it is popped. This is the order the
handout's printed n = 2 dicts show (``successeurs`` and ``inverse(successeurs)``), and the order
:mod:`fastttt.compat.morpion` reproduces.
"""

from __future__ import annotations

import random
from math import isqrt

joueurs = {"O": 0, "X": 1}
symboles = {0: "O", 1: "X"}
etat_initial = ("." * 9, 0)  # grille vide et J0 commence

# Chaînes de test de partie_finie (n = 3).
c_victoire_J0_1ligne = "OOOXX...."
c_victoire_J1_colonne = "XOOX.OX.."
c_victoire_J0_diag = "OX.XO...O"
c_match_nul = "OXOOXXXOO"
c_en_cours = "XO..O...."

_NOMS_GLOBAUX = (
    "successeurs",
    "gagnants0",
    "gagnants1",
    "nuls",
    "predecessurs",
    "predecesseurs",
    "attracteurs",
    "region_nulle",
)
_G: dict = {}


def _globaux() -> dict:
    """The handout's globals for n = 3, J0 starting, built once."""
    if "attracteurs" not in _G:
        successeurs, gagnants0, gagnants1, nuls = jeu_OXO(3, 0)
        _G.update(successeurs=successeurs, gagnants0=gagnants0, gagnants1=gagnants1, nuls=nuls)
        predecesseurs = inverse(successeurs)
        _G.update(predecessurs=predecesseurs, predecesseurs=predecesseurs)
        a0 = attracteur(0)
        a1 = attracteur(1)
        dans = set(a0) | set(a1)
        region_nulle = [s for s in successeurs if s not in dans]
        _G["region_nulle"] = region_nulle
        _G["attracteurs"] = {0: a0, 1: a1, None: region_nulle}
    return _G


def __getattr__(name: str):
    if name in _NOMS_GLOBAUX:
        return _globaux()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def rangees(n):
    """Every winning line: rows, then columns, then the main diagonal, then the anti-diagonal."""
    lignes = [[i * n + j for j in range(n)] for i in range(n)]
    colonnes = [[i * n + j for i in range(n)] for j in range(n)]
    diagonale = [i * n + i for i in range(n)]
    anti_diagonale = [i * n + (n - 1 - i) for i in range(n)]
    return lignes + colonnes + [diagonale, anti_diagonale]


def partie_finie(n, c):
    """(True, 0) J0 has a line, (True, 1) J1 has one, (True, None) a full board, else
    (False, None)."""
    for r in rangees(n):
        if all(c[i] == "O" for i in r):
            return (True, 0)
    for r in rangees(n):
        if all(c[i] == "X" for i in r):
            return (True, 1)
    if "." not in c:
        return (True, None)
    return (False, None)


def suivants(etat):
    """Successors: the mover's symbol on each empty cell in cell order; [] for a finished game."""
    s, j = etat
    n = isqrt(len(s))
    if partie_finie(n, s)[0]:
        return []
    return [(s[:i] + symboles[j] + s[i + 1 :], 1 - j) for i in range(len(s)) if s[i] == "."]


def jeu_OXO(n, i):
    """(successeurs, gagnants0, gagnants1, nuls) for every game from ('.'*n*n, i)."""
    successeurs = {}
    gagnants0, gagnants1, nuls = [], [], []

    def classer(etat):
        fini, gagnant = partie_finie(n, etat[0])
        if fini:
            successeurs[etat] = []
            if gagnant == 0:
                gagnants0.append(etat)
            elif gagnant == 1:
                gagnants1.append(etat)
            else:
                nuls.append(etat)
        return fini

    depart = ("." * (n * n), i)
    pile = [] if classer(depart) else [depart]
    while pile:
        etat = pile.pop()
        if etat in successeurs:
            continue
        successeurs[etat] = suivants(etat)
        for s in successeurs[etat]:
            if s not in successeurs and not classer(s):
                pile.append(s)
    return successeurs, gagnants0, gagnants1, nuls


def inverse(dico):
    """The predecessor dict: every key of ``dico`` is a key, [] where it has no predecessor."""
    inv = {}
    for c in dico:
        if c not in inv:
            inv[c] = []
        for c2 in dico[c]:
            if c2 not in inv:
                inv[c2] = []
            inv[c2].append(c)
    return inv


def attracteur(joueur):
    """The attractor of the player's winning final states (n = 3 globals), in joining order."""
    g = _G if "predecessurs" in _G else _globaux()
    A = g["gagnants0"][:] if joueur == 0 else g["gagnants1"][:]
    dans_A = set(A)  # the membership test of the list A, kept as a set for speed

    def aux(s):
        for p in g["predecessurs"][s]:
            if p not in dans_A:
                if p[1] == joueur or all(q in dans_A for q in g["successeurs"][p]):
                    A.append(p)
                    dans_A.add(p)

    for s in A:
        aux(s)
    return A


def strategie1(etat, rng=None):
    """(position, type): a random best successor, own attractor > draw region > opponent's.

    ``rng``: None (module ``random``), a seed, or a ``random.Random``.
    """
    if rng is None:
        rng = random
    elif not isinstance(rng, random.Random):
        rng = random.Random(rng)
    attracteurs = _globaux()["attracteurs"]
    j = etat[1]
    L = suivants(etat)
    gagnantes = [s for s in L if s in attracteurs[j]]
    if gagnantes:
        return (rng.choice(gagnantes), "position_gagnante")
    nulles = [s for s in L if s in attracteurs[None]]
    if nulles:
        return (rng.choice(nulles), "position_nulle")
    return (rng.choice(L), "position_perdante")


def _entete(etat, gagnant):
    if gagnant == 0:
        debut = "position_initiale_gagnante_J0"
    elif gagnant == 1:
        debut = "position_initiale_gagnante_J1"
    else:
        debut = "position_initiale_nulle"
    return debut + " / J" + str(etat[1]) + " commence"


def jouer_partie(etat, n, entete, coup, finie):
    """The handouts' game loop: ``[entete]``, then ``(state_before, *info)`` for each move
    ``coup(state) -> (next_state, *info)``, then ``(final_state, "fin partie")``; returns
    ``(partie, joueur_gagnant)``. ``finie`` is a ``partie_finie``. The compat module plays its
    fast strategies through this same loop."""
    partie = [entete]
    fin_partie, joueur_gagnant = finie(n, etat[0])
    while not fin_partie:
        suivant, *info = coup(etat)
        partie.append((etat, *info))
        etat = suivant
        fin_partie, joueur_gagnant = finie(n, etat[0])
    partie.append((etat, "fin partie"))
    return partie, joueur_gagnant


def JeuxAvecStrategie1(etat, n, rng=None):
    """(partie, joueur_gagnant): a game played with ``strategie1`` from ``etat`` (n = 3)."""
    if rng is not None and not isinstance(rng, random.Random):
        rng = random.Random(rng)
    attracteurs = _globaux()["attracteurs"]
    if etat in attracteurs[0]:
        entete = _entete(etat, 0)
    elif etat in attracteurs[1]:
        entete = _entete(etat, 1)
    else:
        entete = _entete(etat, None)
    return jouer_partie(etat, n, entete, lambda e: strategie1(e, rng), partie_finie)


_memo_minimax: dict = {}


def minimax(etat):
    """Memoised value from J0's side: +1 J0 wins, -1 J1 wins, 0 draw; J0 maximises."""
    if etat not in _memo_minimax:
        n = isqrt(len(etat[0]))
        fini, gagnant = partie_finie(n, etat[0])
        if fini:
            _memo_minimax[etat] = 1 if gagnant == 0 else -1 if gagnant == 1 else 0
        elif etat[1] == 0:
            _memo_minimax[etat] = max(minimax(s) for s in suivants(etat))
        else:
            _memo_minimax[etat] = min(minimax(s) for s in suivants(etat))
    return _memo_minimax[etat]


def strategieMinMax(etat):
    """(position, type, cote): the FIRST successor (cell order) of best value for the mover."""
    L = suivants(etat)
    cotes = [minimax(s) for s in L]
    if etat[1] == 0:
        meilleure, type_ = max(cotes), "position_MAX"
    else:
        meilleure, type_ = min(cotes), "position_MIN"
    return (L[cotes.index(meilleure)], type_, meilleure)


def JeuxAvecStrategieMiniMax(etat, n):
    """(partie, joueur_gagnant): entries (state_before, type, cote), then (final, 'fin partie')."""
    v = minimax(etat)
    entete = _entete(etat, 0 if v == 1 else 1 if v == -1 else None)
    return jouer_partie(etat, n, entete, strategieMinMax, partie_finie)


def compte_lcd(grille, joueur, n):
    """Number of lines holding no symbol of the player's opponent (``grille``: the string)."""
    adverse = symboles[1 - joueur]
    return sum(1 for r in rangees(n) if all(grille[i] != adverse for i in r))


def heuristique(etat, i, n):
    """From J_i's side: 2n+3 if J_i has won, -(2n+3) if the other has, else the lcd difference."""
    fini, gagnant = partie_finie(n, etat[0])
    if fini and gagnant == i:
        return 2 * n + 3
    if fini and gagnant == 1 - i:
        return -(2 * n + 3)
    return compte_lcd(etat[0], i, n) - compte_lcd(etat[0], 1 - i, n)


def minimax_heur(etat, p, n):
    """Depth-limited minimax from J0's side, with the handout's rule (see SPEC.md).

    Finished state: ``heuristique(etat, 0, n)``; unfinished at ``p == 0``:
    ``heuristique(etat, etat[1], n)`` (the mover's side, the handout's quirk); otherwise max over
    successors when J0 moves, min when J1 moves, with ``p - 1``.
    """
    if partie_finie(n, etat[0])[0]:
        return heuristique(etat, 0, n)
    if p == 0:
        return heuristique(etat, etat[1], n)
    cotes = [minimax_heur(s, p - 1, n) for s in suivants(etat)]
    return max(cotes) if etat[1] == 0 else min(cotes)


def strategieMiniMax_heur(etat, p, n):
    """Every successor whose ``minimax_heur(s, p-1, n)`` is best for the mover, in cell order."""
    L = suivants(etat)
    cotes = [minimax_heur(s, p - 1, n) for s in L]
    meilleure = max(cotes) if etat[1] == 0 else min(cotes)
    return [s for s, c in zip(L, cotes, strict=True) if c == meilleure]


def EvaluerStrategieMiniMax_heur(p, n):
    """Print and return ``(nbre_choix, nbre_tout)``: true values [-1, 0, +1] of chosen/all moves."""
    # ordre des cases : [minimax = -1, minimax = 0, minimax = 1]
    nbre_choix = [0, 0, 0]
    nbre_tout = [0, 0, 0]
    depart = ("." * (n * n), 0)
    for etat1 in suivants(depart):
        for etat2 in suivants(etat1):
            choix = strategieMiniMax_heur(etat2, p, n)
            for s in choix:
                nbre_choix[minimax(s) + 1] += 1
            for s in suivants(etat2):
                nbre_tout[minimax(s) + 1] += 1
    print("Ordre : [J1 gagne, nul, J0 gagne] = [-1, 0, 1]")
    print("Coups choisis par la stratégie heuristique :", nbre_choix)
    print("Tous les coups possibles :", nbre_tout)
    return nbre_choix, nbre_tout
