"""tp-positions-gagnantes, written plainly with the handout's own names (the reference version).

A grid is a list of 3 lists of 0 (empty), 1 (X, player 1, who starts), 2 (O, player 2).
``gagnant`` is corrected: the handout's version returns 0 as soon as it meets an EMPTY line.
``estGagnante`` fills its memo dict after evaluating every child (``any``/``all`` over full
lists), so ``attracteur`` lists the winning positions of player 1 in post-order.
"""

from __future__ import annotations

grille1 = [[1, 0, 0], [0, 1, 0], [2, 0, 2]]
grille2 = [[1, 0, 2], [2, 1, 0], [0, 0, 1]]


def afficher(grille, sortie=print):
    """Print the grid as the handout does (``sortie`` replaces ``print``)."""
    conversion = {0: " ", 1: "X", 2: "O"}
    sortie(" _ _ _")
    for ligne in grille:
        sortie("|" + "".join(conversion[elem] + "|" for elem in ligne))
    sortie(" - - -")


def gagnant(grille):
    """1 or 2 when that player has a line, else 0 (empty lines are skipped, unlike the handout)."""
    for k in (0, 1, 2):
        if grille[k][0] == grille[k][1] == grille[k][2] != 0:
            return grille[k][0]
        if grille[0][k] == grille[1][k] == grille[2][k] != 0:
            return grille[0][k]
    for k in (0, 2):
        if grille[k][0] == grille[1][1] == grille[2 - k][2] != 0:
            return grille[1][1]
    return 0


def grilleVersTuple(grille):
    """The 9-tuple of the grid, row by row."""
    return tuple(grille[0] + grille[1] + grille[2])


def tupleVersGrille(tuple_):
    """The 3x3 grid (list of lists) of a 9-tuple."""
    return [[tuple_[3 * i + j] for j in range(3)] for i in range(3)]


def copie(grille):
    """A copy of the grid (the rows are new lists)."""
    return [ligne.copy() for ligne in grille]


def casesLibres(grille):
    """The empty cells ``(i, j)`` in row order."""
    return [(i, j) for i in range(3) for j in range(3) if grille[i][j] == 0]


def joueur(grille):
    """The player to move: 1 when the number of empty cells is odd, else 2."""
    return 1 if len(casesLibres(grille)) % 2 == 1 else 2


def successeurs(grille):
    """The grids after each move of the player to move, in row order of the cell played."""
    j = joueur(grille)
    resultat = []
    for i, k in casesLibres(grille):
        g = copie(grille)
        g[i][k] = j
        resultat.append(g)
    return resultat


def estGagnante(g, dico):
    """True when ``g`` is winning for player 1; memoised in ``dico`` (tuple -> bool), post-order."""
    t = grilleVersTuple(g)
    if t not in dico:
        qui = gagnant(g)
        if qui == 1:
            dico[t] = True
        elif qui == 2:
            dico[t] = False
        elif joueur(g) == 1:
            dico[t] = any([estGagnante(s, dico) for s in successeurs(g)])
        else:
            suivants = successeurs(g)
            dico[t] = len(suivants) > 0 and all([estGagnante(s, dico) for s in suivants])
    return dico[t]


def attracteur(grille):
    """Tuples of the positions reachable from ``grille`` that are winning for player 1."""
    dico = {}
    estGagnante(grille, dico)
    return [t for t in dico if dico[t]]


def strategie(grille):
    """dict tuple -> grid of the first successor that stays winning, where player 1 moves."""
    gagnantes = attracteur(grille)
    ensemble = set(gagnantes)
    dico = {}
    for t in gagnantes:
        g = tupleVersGrille(t)
        if gagnant(g) == 0 and joueur(g) == 1:
            for s in successeurs(g):
                if grilleVersTuple(s) in ensemble:
                    dico[t] = s
                    break
    return dico


def _lire_coup(grille, saisie):
    while True:
        texte = saisie("Coordonnées de votre coup de la forme ij (ligne, colonne de 1 à 3) : ")
        try:
            i, j = map(int, list(texte.strip()))
        except ValueError:
            continue
        if i in (1, 2, 3) and j in (1, 2, 3) and grille[i - 1][j - 1] == 0:
            return i, j


def jeu(grille, saisie=input, sortie=print):
    """Play against the strategy: the human is player 2 (``saisie`` reads, ``sortie`` writes)."""
    jouer_contre(strategie(grille), grille, saisie, sortie)


def jouer_contre(dico, grille, saisie=input, sortie=print):
    """``jeu``'s loop with a ready strategy dict (the compat module passes its fast one)."""
    grille = copie(grille)
    while gagnant(grille) == 0 and len(casesLibres(grille)) > 0:
        t = grilleVersTuple(grille)
        if joueur(grille) == 2:
            afficher(grille, sortie)
            i, j = _lire_coup(grille, saisie)
            grille[i - 1][j - 1] = 2
        else:
            if t not in dico:
                sortie("Pas de stratégie gagnante")
                return
            grille = copie(dico[t])
    gagne = gagnant(grille)
    afficher(grille, sortie)
    if gagne != 0:
        sortie(f"Le joueur {gagne} a gagné !")
    else:
        sortie("Match nul.")
