"""td-jeu-de-morpion with the handout's names and outputs, computed by kernels and tables.

Same conventions as :mod:`fastttt.reference.morpion`: a state is ``(s, J)``, ``s`` a string of
``'.'``, ``'O'`` (J0), ``'X'`` (J1), ``J`` the player to move; values from J0's side (+1 J0
wins, -1 J1 wins, 0 draw). Every function returns what the reference returns, in the same
order (lists, dict insertion order, tuple shapes, strings); the tests check it on all 5478
states of n = 3.

Where the values come from:

- ``jeu_OXO``, ``inverse``, ``attracteur``: the handout's traversals replayed by the kernels
  of :mod:`fastttt.kernels.classroom` (same orders), then the Python structures are built.
- ``minimax``: the dense table of :func:`fastttt.tables.dense.solve` for ``mnk(n, n, n)``; the
  handout's J_i is the solver's first player when J_i started the game. States outside the
  game (wrong stone counts) fall back to the plain recursion.
- ``compte_lcd``, ``heuristique``, ``minimax_heur``, ``strategieMiniMax_heur``: the kernels of
  :mod:`fastttt.kernels.heuristic`, with the handout's rule for depth-0 leaves (the QUIRK
  option), alpha-beta and a transposition table kept per ``n`` (same values, fewer nodes).

Functions that take ``n`` work for n = 2, 3 and 4. For n = 4, ``jeu_OXO(4, i)`` builds a
9,722,011-key dict: about 0.86 KB a state, so some 8 GB and minutes; use
:func:`jeu_OXO_tableaux` (arrays: 9,722,011 states, 51,562,424 edges, about 0.4 GB kept,
1.1 GB peak, 12 s) unless you really want the dict.
The handout's globals (``successeurs``, ``gagnants0``, ``gagnants1``, ``nuls``,
``predecessurs`` / ``predecesseurs``, ``attracteurs``, ``region_nulle``) are n = 3 with J0
starting, computed on first access.
"""

from __future__ import annotations

import gc
import random
from math import isqrt
from typing import NamedTuple

import numpy as np

from fastttt.codes import MAX_CODE_CELLS, bitboards_of_cells, code_of_cells
from fastttt.codes import pow3 as powers_of_3
from fastttt.errors import InvalidArgumentError, InvalidPositionError
from fastttt.games.mnk.board import contains_line
from fastttt.games.mnk.spec import mnk
from fastttt.kernels import classroom as C
from fastttt.kernels import heuristic as K
from fastttt.reference import morpion as _ref

# The handout's globals (n = 3), built by ``__getattr__`` on first access.
_GLOBAUX_DU_TD = (
    "successeurs",
    "gagnants0",
    "gagnants1",
    "nuls",
    "predecesseurs",
    "attracteurs",
    "region_nulle",
)
# The handout's names (``import *`` computes the n = 3 globals, a few ms).
__all__ = [
    "joueurs",
    "symboles",
    "etat_initial",
    "c_victoire_J0_1ligne",
    "c_victoire_J1_colonne",
    "c_victoire_J0_diag",
    "c_match_nul",
    "c_en_cours",
    "rangees",
    "partie_finie",
    "suivants",
    "jeu_OXO",
    "inverse",
    "attracteur",
    "strategie1",
    "JeuxAvecStrategie1",
    "minimax",
    "strategieMinMax",
    "JeuxAvecStrategieMiniMax",
    "compte_lcd",
    "heuristique",
    "minimax_heur",
    "strategieMiniMax_heur",
    "EvaluerStrategieMiniMax_heur",
    *_GLOBAUX_DU_TD,
]

joueurs = {"O": 0, "X": 1}
symboles = {0: "O", 1: "X"}
etat_initial = ("." * 9, 0)
c_victoire_J0_1ligne = _ref.c_victoire_J0_1ligne
c_victoire_J1_colonne = _ref.c_victoire_J1_colonne
c_victoire_J0_diag = _ref.c_victoire_J0_diag
c_match_nul = _ref.c_match_nul
c_en_cours = _ref.c_en_cours

HANDOUT_SYMBOLS = "OX"  # J0 plays 'O' and starts: codes and bitboards of the handout's strings
_CHARS = np.frombuffer(b".OX", dtype=np.uint8)


# --- geometry ---------------------------------------------------------------------------
class _Geo(NamedTuple):
    n: int
    masks: np.ndarray  # uint64, rangees(n) order
    mask_list: list  # the same as Python ints
    geo: np.ndarray
    pow3: np.ndarray  # 3**c per cell; empty for n >= 7 (codes overflow int64), where unused


N_MAX = 8  # largest n: an n x n board is one uint64 bitboard per player
_GEOS: dict[int, _Geo] = {}


def _geo(n: int) -> _Geo:
    # checked before the cache: 3.0 and True hash like 3 and 1
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= n <= N_MAX:
        raise InvalidArgumentError(
            f"n must be an integer from 1 to {N_MAX} (the largest supported board is "
            f"{N_MAX}x{N_MAX}), got {n!r}"
        )
    n = int(n)
    g = _GEOS.get(n)
    if g is None:
        lines = [sum(1 << c for c in r) for r in _ref.rangees(n)]
        # base-3 codes are int64 (n <= 6); only n <= 4 uses them
        pow3 = powers_of_3(n * n if n * n <= MAX_CODE_CELLS else 0)
        g = _Geo(
            n,
            np.array(lines, dtype=np.uint64),
            lines,
            K.geometry(n, n, False),
            pow3,
        )
        _GEOS[n] = g
    return g


def _bits(s: str) -> tuple[int, int]:
    """(J0's 'O', J1's 'X') bitboards of a state string."""
    return bitboards_of_cells(s, HANDOUT_SYMBOLS)


def _size(s: str) -> int:
    n = isqrt(len(s))
    if n * n != len(s) or n == 0:
        raise InvalidPositionError(f"state string {s!r} has {len(s)} cells, not a square")
    return n


_SANS_N = object()


def _check_state(etat, n=_SANS_N) -> int:
    """The board size of ``etat`` after checking it (and that it is ``n`` x ``n`` when given)."""
    if n is not _SANS_N:
        _geo(n)
    try:
        s, j = etat
    except (TypeError, ValueError):
        raise InvalidPositionError(f"a state is a pair (string, player), got {etat!r}") from None
    if not isinstance(s, str) or s.strip(".OX"):
        raise InvalidPositionError(f"state string {s!r}: use only '.', 'O' and 'X'")
    if isinstance(j, bool) or not isinstance(j, int) or j not in (0, 1):
        raise InvalidPositionError(f"player to move must be 0 or 1, got {j!r}")
    size = _size(s)
    if n is not _SANS_N and size != n:
        raise InvalidPositionError(f"state {etat!r} is not a {n}x{n} board")
    return size


# --- the game -----------------------------------------------------------------------------
def rangees(n):
    """Every winning line: rows, then columns, then the main diagonal, then the anti-diagonal."""
    return _ref.rangees(n)


def _finie(g: _Geo, s: str) -> tuple[bool, int | None]:
    o, x = _bits(s)
    if contains_line(g.mask_list, o):
        return (True, 0)
    if contains_line(g.mask_list, x):
        return (True, 1)
    if "." not in s:
        return (True, None)
    return (False, None)


def partie_finie(n, c):
    """(True, 0) J0 has a line, (True, 1) J1 has one, (True, None) a full board, else
    (False, None)."""
    _check_state((c, 0), n)
    return _finie(_geo(n), c)


def suivants(etat):
    """Successors: the mover's symbol on each empty cell in cell order; [] for a finished game."""
    n = _check_state(etat)
    s, j = etat
    if _finie(_geo(n), s)[0]:
        return []
    c = symboles[j]
    k = 1 - j
    return [(s[:i] + c + s[i + 1 :], k) for i in range(len(s)) if s[i] == "."]


class Graphe(NamedTuple):
    """The game graph of ``jeu_OXO(n, i)`` as arrays, states numbered in the dict's order.

    ``codes`` base-3 codes (digit 1 'O', 2 'X'), ``movers`` player to move, ``kinds`` -1
    unfinished / 0 J0 won / 1 J1 won / 2 draw, children of state ``k``:
    ``child_ids[child_start[k]:child_start[k+1]]``.
    """

    n: int
    codes: np.ndarray
    movers: np.ndarray
    kinds: np.ndarray
    child_start: np.ndarray
    child_ids: np.ndarray


_GRAPHES: dict = {}


def jeu_OXO_tableaux(n, i) -> Graphe:
    """The array form of ``jeu_OXO(n, i)`` (kernel ``classroom.oxo_graph``); cached."""
    g = _geo(n)
    if isinstance(i, bool) or i not in (0, 1):
        raise InvalidArgumentError(f"the starting player must be 0 or 1, got {i!r}")
    key = (n, i)
    if key not in _GRAPHES:
        if n > 4:
            raise InvalidArgumentError(f"n = {n}: only n <= 4 fits the traversal's dense index")
        _GRAPHES[key] = Graphe(n, *C.oxo_graph(n * n, i, g.masks, g.pow3))
    return _GRAPHES[key]


def _strings(codes: np.ndarray, n: int) -> list[str]:
    # codes -> state strings by a kernel: millions of states for n = 4 (jeu_OXO)
    cells = n * n
    text = C.state_chars(codes, cells).tobytes().decode("ascii")
    return [text[k : k + cells] for k in range(0, len(text), cells)]


class _sans_gc:
    """Pause the cyclic garbage collector while building large nests of lists and tuples
    (they hold no cycles; collecting them mid-build only costs time)."""

    def __enter__(self):
        self.was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc):
        if self.was:
            gc.enable()


def _etats(graphe: Graphe) -> list:
    return list(zip(_strings(graphe.codes, graphe.n), graphe.movers.tolist(), strict=True))


_DERNIER: dict = {}  # the last successeurs dict returned, for inverse's fast path


def jeu_OXO(n, i):
    """(successeurs, gagnants0, gagnants1, nuls) for every game from ('.'*n*n, i).

    Same dict order as the reference (kernel ``classroom.oxo_graph``). n = 3: 5478 states in
    a few ms. n = 4: 9,722,011 keys, about 8 GB of Python objects: prefer
    :func:`jeu_OXO_tableaux`.
    """
    graphe = jeu_OXO_tableaux(n, i)
    with _sans_gc():
        etats = _etats(graphe)
        get = etats.__getitem__
        enfants = list(map(get, graphe.child_ids.tolist()))
        st = graphe.child_start.tolist()
        listes = [enfants[a:b] for a, b in zip(st, st[1:], strict=False)]
        successeurs = dict(zip(etats, listes, strict=True))
        kinds = graphe.kinds
        gagnants = [list(map(get, np.flatnonzero(kinds == k).tolist())) for k in (0, 1, 2)]
    _DERNIER.clear()
    _DERNIER.update(dico=successeurs, size=len(successeurs), graphe=graphe, etats=etats)
    return successeurs, gagnants[0], gagnants[1], gagnants[2]


def inverse(dico):
    """The predecessor dict: every key of ``dico`` is a key, [] where it has no predecessor.

    Fast path (kernel ``classroom.inverse_graph``) when ``dico`` is the dict the last
    ``jeu_OXO`` call returned, unresized; any other dict goes through the plain loop.
    """
    if _DERNIER.get("dico") is dico and len(dico) == _DERNIER["size"]:
        graphe, etats = _DERNIER["graphe"], _DERNIER["etats"]
        order, pstart, preds = _inverse_arrays(graphe)
        with _sans_gc():
            get = etats.__getitem__
            tous = list(map(get, preds.tolist()))
            ps = pstart.tolist()
            return {etats[k]: tous[ps[k] : ps[k + 1]] for k in order.tolist()}
    if not isinstance(dico, dict) or not all(isinstance(v, list) for v in dico.values()):
        raise InvalidArgumentError(f"inverse takes a dict state -> list of states, got {dico!r}")
    try:
        return _ref.inverse(dico)
    except TypeError:  # an unhashable successor
        raise InvalidArgumentError("inverse: every successor must be hashable") from None


_INVERSES: dict = {}


def _inverse_arrays(graphe: Graphe):
    key = (graphe.n, int(graphe.movers[0]))
    if _INVERSES.get(key, (None,))[0] is not graphe:
        _INVERSES[key] = (graphe, *C.inverse_graph(graphe.child_start, graphe.child_ids))
    return _INVERSES[key][1:]


# --- the handout's globals (n = 3, J0 starts) -----------------------------------------------
_NOMS_GLOBAUX = _ref._NOMS_GLOBAUX
_G: dict = {}


def _globaux() -> dict:
    if "attracteurs" not in _G:
        successeurs, g0, g1, nuls = jeu_OXO(3, 0)
        _G.update(successeurs=successeurs, gagnants0=g0, gagnants1=g1, nuls=nuls)
        pred = inverse(successeurs)
        _G.update(
            predecessurs=pred,
            predecesseurs=pred,
            _graphe=_DERNIER["graphe"],
            _etats=_DERNIER["etats"],
        )
        a0 = attracteur(0)
        a1 = attracteur(1)
        classe = dict.fromkeys(_G["_etats"], None)
        classe.update(dict.fromkeys(a0, 0))
        classe.update(dict.fromkeys(a1, 1))
        region = [s for s in _G["_etats"] if classe[s] is None]
        _G.update(region_nulle=region, attracteurs={0: a0, 1: a1, None: region}, _classe=classe)
    return _G


def __getattr__(name: str):
    if name in _NOMS_GLOBAUX:
        return _globaux()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def attracteur(joueur):
    """The attractor of the player's winning final states (n = 3 globals), in joining order.

    Kernel ``classroom.attractor_order`` replays the handout's growing-list loop.
    """
    if joueur not in (0, 1):
        raise InvalidArgumentError(f"joueur must be 0 or 1, got {joueur!r}")
    if "_graphe" not in _G:
        _globaux()
    graphe, etats = _G["_graphe"], _G["_etats"]
    _, pstart, preds = _inverse_arrays(graphe)
    ids = C.attractor_order(
        joueur, graphe.movers, graphe.kinds, graphe.child_start, graphe.child_ids, pstart, preds
    )
    return list(map(etats.__getitem__, ids.tolist()))


def _rng(rng):
    if rng is None or rng is random:
        return random
    if isinstance(rng, random.Random):
        return rng
    return random.Random(rng)


def strategie1(etat, rng=None):
    """(position, type): a random best successor, own attractor > draw region > opponent's.

    ``rng``: None (module ``random``), a seed, or a ``random.Random``; the same generator state
    gives the same choice as the reference.
    """
    classe = _globaux()["_classe"]
    L = suivants(etat)
    if not L:
        raise InvalidPositionError(f"state {etat!r} is finished: no move to choose")
    rng = _rng(rng)
    j = etat[1]
    gagnantes = [s for s in L if classe.get(s, -1) == j]
    if gagnantes:
        return (rng.choice(gagnantes), "position_gagnante")
    nulles = [s for s in L if s in classe and classe[s] is None]
    if nulles:
        return (rng.choice(nulles), "position_nulle")
    return (rng.choice(L), "position_perdante")


def JeuxAvecStrategie1(etat, n, rng=None):
    """(partie, joueur_gagnant): a game played with ``strategie1`` from ``etat`` (n = 3)."""
    _check_state(etat, n)
    rng = _rng(rng)
    entete = _ref._entete(etat, _globaux()["_classe"].get(etat))
    return _ref.jouer_partie(etat, n, entete, lambda e: strategie1(e, rng), partie_finie)


# --- minimax through the solver's dense table ------------------------------------------------
_DENSE: dict = {}


def _solution(n: int):
    from fastttt.tables.cache import solved

    return solved(mnk(n, n, n))


def _dense_values(n: int) -> np.ndarray:
    """values[mover, code] of every state of both games (J0 or J1 starting); 2 = not a state."""
    if n not in _DENSE:
        sol = _solution(n)
        codes = sol.reachable_codes()
        values, _ = sol.lookup(codes)
        table = C.state_values(codes, values, n * n, _geo(n).pow3)
        _DENSE[n] = table
    return _DENSE[n]


def _minimax_table(n: int, s: str, j: int) -> int | None:
    code = code_of_cells(s, HANDOUT_SYMBOLS)
    if n <= 3:
        v = int(_dense_values(n)[j, code])
        return None if v == 2 else v
    no, nx = s.count("O"), s.count("X")
    if no == nx:
        starter = j
    elif no == nx + 1 and j == 1:
        starter = 0
    elif nx == no + 1 and j == 0:
        starter = 1
    else:
        return None
    if starter == 1:
        code = code_of_cells(s, HANDOUT_SYMBOLS[::-1])  # J1 started: 'X' is first
    sol = _solution(n)
    if not sol.is_reachable(np.array([code], dtype=np.int64))[0]:
        return None
    v = int(sol.lookup(np.array([code], dtype=np.int64))[0][0])
    return v if starter == 0 else -v


_memo: dict = {}


def _minimax_rapide(etat) -> int | None:
    """The dense table's value of a 2x2 or 3x3 state of either game, None elsewhere."""
    if type(etat) is not tuple or len(etat) != 2:
        return None
    s, j = etat
    if type(s) is not str or len(s) not in (4, 9) or type(j) is not int or j not in (0, 1):
        return None
    if s.strip(".OX"):
        return None
    v = int(_dense_values(2 if len(s) == 4 else 3)[j, code_of_cells(s, HANDOUT_SYMBOLS)])
    if v == 2:
        return None
    _memo[etat] = v
    return v


def _prefill() -> bool:
    """Memoise the value of every state of the last ``jeu_OXO`` graph at once (n <= 3)."""
    graphe, etats = _DERNIER["graphe"], _DERNIER["etats"]
    _DERNIER["prefilled"] = True
    if graphe.n > 3:
        return False
    values = _dense_values(graphe.n)[graphe.movers.astype(np.int64), graphe.codes]
    with _sans_gc():
        _memo.update(zip(etats, values.tolist(), strict=True))
    return True


def minimax(etat):
    """Value from J0's side: +1 J0 wins, -1 J1 wins, 0 draw (J0 maximises), from the table."""
    try:
        v = _memo.get(etat)
    except TypeError:
        raise InvalidPositionError(f"a state is a pair (string, player), got {etat!r}") from None
    if v is not None:
        return v
    if _DERNIER and not _DERNIER.get("prefilled") and etat in _DERNIER["dico"]:
        _prefill()
        v = _memo.get(etat)
        if v is not None:
            return v
    v = _minimax_rapide(etat)
    if v is not None:
        return v
    n = _check_state(etat)
    s, j = etat
    fini, gagnant = _finie(_geo(n), s)
    if fini:
        v = 1 if gagnant == 0 else -1 if gagnant == 1 else 0
    else:
        v = _minimax_table(n, s, j)
        if v is None:  # outside both games (wrong stone counts): the plain recursion
            cotes = [minimax(t) for t in suivants(etat)]
            v = max(cotes) if j == 0 else min(cotes)
    _memo[etat] = v
    return v


def strategieMinMax(etat):
    """(position, type, cote): the FIRST successor (cell order) of best value for the mover."""
    L = suivants(etat)
    if not L:
        raise InvalidPositionError(f"state {etat!r} is finished: no move to choose")
    cotes = [minimax(s) for s in L]
    if etat[1] == 0:
        meilleure, type_ = max(cotes), "position_MAX"
    else:
        meilleure, type_ = min(cotes), "position_MIN"
    return (L[cotes.index(meilleure)], type_, meilleure)


def JeuxAvecStrategieMiniMax(etat, n):
    """(partie, joueur_gagnant): entries (state_before, type, cote), then (final, 'fin partie')."""
    _check_state(etat, n)
    v = minimax(etat)
    entete = _ref._entete(etat, 0 if v == 1 else 1 if v == -1 else None)
    return _ref.jouer_partie(etat, n, entete, strategieMinMax, partie_finie)


# --- heuristic search (kernels of fastttt.kernels.heuristic, handout's QUIRK rule) ------------
def compte_lcd(grille, joueur, n):
    """Number of lines holding no symbol of the player's opponent (kernel count_free_lines)."""
    if joueur not in (0, 1):
        raise InvalidArgumentError(f"joueur must be 0 or 1, got {joueur!r}")
    _check_state((grille, 0), n)
    o, x = _bits(grille)
    return int(K.count_free_lines(np.uint64(x if joueur == 0 else o), _geo(n).masks))


def heuristique(etat, i, n):
    """From J_i's side: 2n+3 if J_i has won, -(2n+3) if the other has, else the lcd difference."""
    if i not in (0, 1):
        raise InvalidArgumentError(f"i must be 0 or 1, got {i!r}")
    _check_state(etat, n)
    g = _geo(n)
    fini, gagnant = _finie(g, etat[0])
    if fini and gagnant is not None:
        return 2 * n + 3 if gagnant == i else -(2 * n + 3)
    o, x = _bits(etat[0])
    free0 = int(K.count_free_lines(np.uint64(x), g.masks))
    free1 = int(K.count_free_lines(np.uint64(o), g.masks))
    return free0 - free1 if i == 0 else free1 - free0


_TABLES: dict = {}
NOEUDS = np.zeros(2, dtype=np.int64)  # [positions visited, table hits] since import


def _table(n: int):
    if n not in _TABLES:
        _TABLES[n] = K.new_table(14 if n <= 3 else 21)
    return _TABLES[n]


def vider_memo() -> None:
    """Forget the heuristic search tables (the next searches start cold)."""
    _TABLES.clear()


def vider_caches() -> None:
    """Forget every cache (graphs, globals, solved tables, memos): the next calls start cold.

    Compiled kernels stay compiled. Used by the benchmarks to time cold calls.
    """
    from fastttt.tables.cache import forget_solved

    forget_solved()
    for cache in (_GRAPHES, _INVERSES, _DERNIER, _G, _memo, _DENSE, _TABLES):
        cache.clear()


def _depth(p) -> int:
    if isinstance(p, bool) or not isinstance(p, (int, np.integer)):
        raise InvalidArgumentError(f"the depth p must be an integer, got {p!r}")
    return max(int(p), -60)  # a negative p never reaches 0: the search runs to the end


OPTIONS = K.OPT_ALPHABETA | K.OPT_MEMO | K.OPT_QUIRK


def minimax_heur(etat, p, n, methode="alphabeta"):
    """Depth-limited minimax from J0's side with the handout's rule (see SPEC.md).

    Finished state: ``heuristique(etat, 0, n)``; unfinished at ``p == 0``:
    ``heuristique(etat, etat[1], n)`` (the mover's side, the handout's quirk); otherwise max
    over successors when J0 moves, min when J1 moves, with ``p - 1``. ``methode``:
    ``"alphabeta"`` (default; alpha-beta with a per-n memo table), ``"memo"`` or ``"minimax"``
    (the handout's full tree): the same value. Kernel ``heuristic.search_kernel``.
    """
    _check_state(etat, n)
    p = _depth(p)
    opts = {"alphabeta": OPTIONS, "memo": K.OPT_MEMO | K.OPT_QUIRK, "minimax": K.OPT_QUIRK}[methode]
    tt = _table(n) if methode == "alphabeta" else K.new_table(18 if opts & K.OPT_MEMO else 0)
    o, x = _bits(etat[0])
    g = _geo(n)
    return int(
        K.search_kernel(
            np.uint64(o), np.uint64(x), etat[1], p, -K.INF, K.INF, g.masks, g.geo, opts, tt, NOEUDS
        )
    )


_VALS = np.zeros(64, dtype=np.int64)
_BITS = np.zeros(64, dtype=np.uint64)


def strategieMiniMax_heur(etat, p, n):
    """Every successor whose ``minimax_heur(s, p-1, n)`` is best for the mover, in cell order.

    Kernel ``heuristic.root_kernel`` (alpha-beta; ties searched exactly).
    """
    _check_state(etat, n)
    p = _depth(p)
    L = suivants(etat)
    if not L:
        raise InvalidPositionError(f"state {etat!r} is finished: no move to choose")
    o, x = _bits(etat[0])
    g = _geo(n)
    nm, best = K.root_kernel(
        np.uint64(o),
        np.uint64(x),
        etat[1],
        p - 1,
        g.masks,
        g.geo,
        OPTIONS,
        _table(n),
        NOEUDS,
        _BITS,
        _VALS,
    )
    vals = _VALS[:nm].tolist()
    return [s for s, v in zip(L, vals, strict=True) if v == best]


def _evaluer_dense(p: int, n: int) -> tuple[list[int], list[int]]:
    """EvaluerStrategieMiniMax_heur's counts for n <= 3 without building any state string.

    The states two plies from the empty board are J0's 'O' on c1 then J1's 'X' on c2; their
    moves and the heuristic choice come from ``root_kernel``, the children's true values from
    the dense table (children: J1 to move, base-3 digit 1 = 'O').
    """
    g = _geo(n)
    values_j1 = _dense_values(n)[1]
    table = _table(n)
    pow3 = g.pow3
    choix = np.zeros(3, dtype=np.int64)
    tout = np.zeros(3, dtype=np.int64)
    for c1 in range(n * n):
        for c2 in range(n * n):
            if c2 == c1:
                continue
            nm, best = K.root_kernel(
                np.uint64(1 << c1),
                np.uint64(1 << c2),
                0,
                p - 1,
                g.masks,
                g.geo,
                OPTIONS,
                table,
                NOEUDS,
                _BITS,
                _VALS,
            )
            cells = np.log2(_BITS[:nm].astype(np.float64)).astype(np.int64)
            vals = values_j1[pow3[c1] + 2 * pow3[c2] + pow3[cells]]
            choix += np.bincount(vals[_VALS[:nm] == best] + 1, minlength=3)
            tout += np.bincount(vals + 1, minlength=3)
    return choix.tolist(), tout.tolist()


def EvaluerStrategieMiniMax_heur(p, n, sortie=print):
    """Print and return ``(nbre_choix, nbre_tout)``: true values [-1, 0, +1] of chosen / all moves.

    The states two plies from the empty n x n board (J0 starts); ``sortie`` replaces ``print``.
    """
    if n in (2, 3):
        nbre_choix, nbre_tout = _evaluer_dense(_depth(p), n)
    else:
        nbre_choix = [0, 0, 0]
        nbre_tout = [0, 0, 0]
        depart = ("." * (n * n), 0)
        for etat1 in suivants(depart):
            for etat2 in suivants(etat1):
                for s in strategieMiniMax_heur(etat2, p, n):
                    nbre_choix[minimax(s) + 1] += 1
                for s in suivants(etat2):
                    nbre_tout[minimax(s) + 1] += 1
    sortie("Ordre : [J1 gagne, nul, J0 gagne] = [-1, 0, 1]")
    sortie("Coups choisis par la stratégie heuristique :", nbre_choix)
    sortie("Tous les coups possibles :", nbre_tout)
    return nbre_choix, nbre_tout
