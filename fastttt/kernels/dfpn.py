"""Depth-first proof-number search (df-pn) on a line-count board: kernels.

The question asked is binary: "does the attacker ``a`` win?" (``ctl[C_ATTACKER]``, 0 the
first player, 1 the second). Proof and disproof numbers are kept from the side to move s, in
the negamax form of Nagai's df-pn: at every node ``phi`` is the cost of proving that s reaches
its goal and ``delta`` the cost of disproving it, where the goal of s is "a wins" when s is the
attacker and "a does not win" (a draw or a win of the defender) otherwise::

    phi(n) = min over children c of delta(c)         delta(n) = sum over children of phi(c)
    proven: phi = 0, delta = INF                     disproven: phi = INF, delta = 0

Leaves: s can complete a line now (proven); the opponent holds two winning cells that s
cannot both block, or every move loses at once (disproven); a full board (a draw: proven for
the defender, disproven for the attacker). Moves pruned before search, all sound on the rules
(:mod:`fastttt.kernels.threats`): an opponent's single winning cell must be blocked; with
gravity never play under an opponent's winning cell; on free boards, against double-threat
cells only their defences and the mover's fours; and (``ctl[C_PAIRING]``) a position where a
pairing blocks every line of the attacker is a leaf that the attacker does not win (a greedy
pass at every node, then at the attacker's nodes a search of ``ctl[C_PAIR_BUDGET]`` nodes;
a position found without one is flagged in the table and tried again, with 4 times the
budget, once its work passes 8 times the last budget: :func:`_next_pairing`). The pairing
searches' nodes count in ``ctl[C_PAIR_NODES]``, not in ``ctl[C_NODES]``: such a node picks a
line and lists its pairs, a smaller step than a position's expansion, and after a node's
first search each one has at most half the df-pn work the node has had. Up to
``DEDUP_PLY`` stones, children that are one position under a symmetry are searched once.

Threat-space mode (``ctl[C_MODE] == MODE_THREATS``, free boards): the attacker plays only
fours and threes (and the defences that the defender's threats force), in the move order
with its own lines weighing ``2**ctl[C_OFFENCE]`` times more than the lines they block, and
a defender's node where the attacker threatens nothing is a leaf that the attacker fails.
The proof is still a proof of the real game (every defender reply that is not searched
loses in three plies); a disproof only says that no threat sequence wins. Each mode and
attacker has its own key tag, so one table serves every question.

Threat probes (``ctl[C_TSS_BUDGET] > 0``, full mode, free boards): at an attacker's node the
search first asks :func:`threat_probe` whether the attacker wins by threats, within that many
nodes (deepening 8, 16, 32 plies, then no limit), and again, with 4 times the budget, each
time the node's work passes 8 times the last probe's budget (at most :data:`TSS_LEVELS`
probes, counted in the row's flags). A threat win proves the node at once. The probes' nodes
count in ``ctl[C_NODES]``; their solved positions go to the table under the threat mode's tag,
and the walks over a proof (:func:`walk`, :func:`principal_line`) read such a node, and all
below it, in threat mode: the probe's proof (:func:`_enter_threat_proof`).

Dependent threats (``ctl[C_DEPENDENT]``, the threat probes; Allis' dependency-based search):
after its first threat, a probe's attacker makes threes only on lines through its previous
stone (each three uses the cell the threat before gained), fours anywhere. The probes then
cover a narrower tree, deeper for the same nodes; a win they find is a threat win all the
same (the defender's moves are not restricted), but a failure depends on the path, so the
probes keep only wins in the table. The walks read a probe's proof with every three listed,
its moves among them.

df-pn probes (``ctl[C_THREAT_PROBE]`` for the threat probes, ``ctl[C_ZONE_PROBE]`` for the
zones' probes, ``PROBE_DFPN``): the probe is :func:`threat_dfpn`, df-pn in threat mode with
every three (dependent threats do not apply), best first where the depth-first probe follows
its move order to the end of each line. Its numbers go to the table under the probe's tag (the
threat mode's, or the zones' own), as a threat-mode question's would, so a node probed again
with a bigger budget goes on from them; its proof is read by the walks and the zones as a
depth-first probe's. ``PROBE_SHORT_FIRST``: a depth-first probe of the first depth (8 plies)
first, within the same budget, then df-pn on what is left when it found no win within those
plies, nor a loss (with dependent threats a loss of the depth-first probe is its own threes',
so df-pn goes on).

Relevance zones (``ctl[C_ZONE_BUDGET] > 0``, full mode, free boards; Allis' restriction of
the defender, with the zone of Hsu et al.): at a defender's node the attacker is asked, as if
the defender passed, whether it wins by threats (:func:`threat_probe`, that many nodes, under
its own tag) with *local defences* (``ctl[C_LOCAL]``): at a defender's node only the
double-threat cells sharing a line with the attacker's last move are answered, so the
defender tries more moves than the threat mode's, and each move left out still loses to one
of those threats. If the attacker wins, the proof is walked again from the table
(:func:`_threat_proof_marks`: every node re-expanded, every leaf checked, each position
counted as a probe's node), marking the lines
it reads (:func:`_mark_threat_lines`): the attacker's lines of k-1 stones, and at each
defender's node the lines of k-2 or more through the attacker's last move and the lines of
k-2 through the double-threat cells answered. A defender's stone on a cell m then leaves the
proof as it is when m is empty in all of it, on none of those lines, and on none of the lines
:func:`_mark_defender_lines` marks at each defender's node (where m could give the defender a
winning cell or, answering a three, a new four; at the root, a line m completes). Such moves lose
and are not searched (:func:`_restrict_to_zone`); the zone is the other cells. The proof must
leave two empty cells at every node (no board filled by m). df-pn enters a node many times,
so a zone found is kept in the zone cache (:func:`keep_zone`; the row is the key's low
bits, and a new zone replaces the row's), and a node visited again reads it there instead of
probing and walking again
(``ctl[C_ZONE_HITS]``). The key is the hash of the board as it lies (the cells are read in
place, so not the canonical key) with the question's tag. A zone is a fact of the game, so a
kept one stays right whatever the table has lost since.

Zones from refuted siblings (``ctl[C_SIBLING] > 0``, with zones): at a defender's node whose
visit has done ``ctl[C_SIBLING]`` nodes or more, a move m the attacker has just proven is
probed again (:func:`sibling_zone`): the attacker, to move after m, asked for a threat win
with local defences (its own tag, no pass), whose proof's zone is read as above. A defender's
stone m' off that zone leaves the proof as it is after m and m', and a stone of the defender's
never hurts it, so m' alone loses too. The zone is intersected with the node's kept one (a
relevance zone, or an earlier sibling's) and kept (also where the pass found none), and the
open children off it are proven for the attacker at once (:func:`_cut_by_sibling`). The work
bound leaves the cheap nodes, where a probe would cost more than the search it saves, alone.

Pairing zones (``ctl[C_PZONE_TRIES] > 0``, full mode, free boards, pairings on; the zones
of Hsu et al. for draws): at an attacker's node, the defender is given a move d as if the
attacker had passed, and the attacker's pairing search (its first budget) asked whether a
pairing P then blocks every open line of the attacker (:func:`pairing_zone`). If so, an
attacker's move m off d and off P's cells does not win: m completes no line (each open line
has two free cells of P, a line through d is no longer open), the defender answers d, and P
still blocks every open line, m being in no pair. Only the moves on d or P are searched
(:func:`_restrict_to_pairing_zone`); with none left the attacker does not win here.

Reach (``ctl[C_REACH] > 0``, full mode, free boards): the attacker's moves, where it is not
forced, are only the cells within that many rows and columns of a stone (any cell on the
empty board). The question is then another one (its own tag): a proof is a proof of the
real game, a disproof only says that no win keeps to the reach.

Initial numbers from the move order (``ctl[C_ORDER]``; df-pn+ of Nagai, with the static
move order of :func:`move_score` as the estimate): a child not yet in the table starts with
phi 1 and delta ``1 + rank * ctl[C_ORDER] // ORDER_SCALE``, rank its place in its parent's
order (0 the first), so that a node deepens its first moves before it tries the later ones,
which it does once those have grown as dear. With 0 every new child has delta 1, and a node
expands each of its children once before it searches any of them deeper. The numbers only
steer the search: a node is proven or disproven by its leaves alone.

Weak sums (``ctl[C_WEAK]``; Ueda, Hashimoto, Hashimoto and Iida, 2008): ``delta(n)`` is the
largest ``phi`` of the open children plus one for each other open child, instead of the sum.
A sum counts a position reached by several move orders once per order, and such double
counting makes a search that must refute every move avoid the moves whose replies transpose.

Thresholds: the child searched is the one of least ``delta``; it gets ``thphi = thdelta(n) -
delta(n) + phi(c)`` (with weak sums the largest open ``phi`` instead of ``phi(c)``: the
child's ``phi`` at which ``delta(n)`` reaches its threshold) and ``thdelta = min(thphi(n),
delta2 * (1 + eps) + 1)`` with ``delta2`` the second least ``delta`` (the 1 + epsilon trick
of Pawlewicz and Lew, 2007: fewer switches between siblings; ``eps = C_EPS_NUM /
C_EPS_DEN``). The search is iterative (an explicit stack, one row per ply) so that it
unwinds at once on a node budget or a stop word.

Transposition table: int64 ``tt[2**bits, 4]`` rows ``(key, phi, delta, work)``, in buckets of
4 rows; a new position replaces the row of least work (nodes searched below it). Keys are the
canonical Zobrist keys of :mod:`fastttt.kernels.lines` with the question's tag. A lookup
could match another position sharing all 64 bits and corrupt a result: odds about 4 in 2**64
a lookup (2e-10 over a billion lookups).

Stack rows (``stk[depth]``, int64): ``NF`` frame fields, then the children's cells, their phi,
their delta (N slots each).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fastttt.config import INLINE_JIT, JIT
from fastttt.kernels.lines import (
    H_BOARD,
    H_CELLS,
    H_CLINES,
    H_CLSTART,
    H_CNT,
    H_COLS,
    H_EMPTY,
    H_GRAV,
    H_K,
    H_LCELLS,
    H_LINES,
    H_NWIN,
    H_PLY,
    H_ROWS,
    H_SCRATCH,
    H_TC,
    H_WC,
    canonical_key,
    child_key,
    is_playable,
    place,
    playable_wins,
    take_back,
)
from fastttt.kernels.stop import is_stopped
from fastttt.kernels.threats import defences, is_four, is_three, pairing_holds

INF = 1 << 40  # an infinite proof or disproof number
DEDUP_PLY = 8  # up to this many stones, symmetric siblings are searched once
# more children than this are sorted by a merge sort: insertion sort's quadratic time was
# most of a 15 x 15 node's expansion (about 13 of its 17 microseconds)
SORT_BY_INSERTION = 24

# ctl (int64) slots
C_NODES, C_MAXNODES, C_ATTACKER, C_MODE, C_TAG, C_PAIRING, C_EPS_NUM, C_EPS_DEN = range(8)
C_PHI, C_DELTA, C_STATUS, C_TTBITS, C_DEEPEST, C_THPHI, C_THDELTA = range(8, 15)
C_SIZE, C_SIZE_CAP, C_LINE_LEN, C_ROOT_MOVES, C_ROOT_SOLVED = 15, 16, 17, 18, 19
C_PAIR_BUDGET = 20  # nodes of the pairing search after the greedy pass fails
# threat probes at the attacker's nodes (full mode, free boards): the threat mode's key tag,
# the first probe's node budget (0: no probes), and counters of their nodes and wins
C_TSS_TAG, C_TSS_BUDGET, C_TSS_NODES, C_TSS_WINS = 21, 22, 23, 24
# relevance zones at the defender's nodes (full mode, free boards): the null-move probe's node
# budget (0: no zones), the nodes restricted and the moves pruned so far
C_ZONE_BUDGET, C_ZONE_CUTS, C_ZONE_PRUNED = 25, 26, 27
C_REACH = 28  # the attacker's moves within this distance of a stone (0: every move)
# threat mode with local defences (the zones' probes): 1 or 0, and the move that led to the
# position being expanded (-1: none)
C_LOCAL, C_LAST = 29, 30
C_WEAK = 31  # 1: weak sums (the largest child's number plus one for each other open child)
C_PAIR_NODES = 32  # nodes of the pairing searches so far (not in C_NODES)
# pairing zones at the attacker's nodes (full mode, free boards): the defender's moves tried
# as the answer to the attacker's pass (0: no pairing zones), the nodes restricted and the
# moves pruned so far
C_PZONE_TRIES, C_PZONE_CUTS, C_PZONE_PRUNED = 33, 34, 35
# a child absent from the table starts at delta 1 + rank * ctl[C_ORDER] // ORDER_SCALE
C_ORDER = 36
C_ZONE_HITS = 37  # defender's nodes whose zone came from the zone cache
C_SIZE_THREATS = 38  # positions of the proof walked (C_SIZE) read in threat mode
C_DEPENDENT = 39  # 1: dependent threats in the threat probes
C_LAST_OWN = 40  # a dependent probe's attacker's previous stone (-1: every three)
C_OFFENCE = 41  # threat mode: the attacker's own lines weigh 2**this times more
# zones from refuted siblings (full mode, free boards, with zones): the work of a defender's
# node's visit from which a refuted move's zone is probed (0: never), the zones found and the
# moves they cut
C_SIBLING, C_SIBLING_ZONES, C_SIBLING_PRUNED = 42, 43, 44
# how the threat probes at the attacker's nodes and the zones' probes search: PROBE_DEPTH_FIRST,
# PROBE_DFPN or PROBE_SHORT_FIRST
C_THREAT_PROBE, C_ZONE_PROBE = 45, 46
CTL_SIZE = 47
PROBE_DEPTH_FIRST, PROBE_DFPN, PROBE_SHORT_FIRST = 0, 1, 2
ORDER_SCALE = 8  # ctl[C_ORDER] is the order weight in eighths
PZONE_MAX_TRIES = 4

MODE_FULL, MODE_THREATS = 0, 1
# statuses
ST_DONE, ST_BUDGET, ST_STOPPED, ST_CAP = 0, 1, 2, 3
# stack frame fields
F_N, F_THPHI, F_THDELTA, F_SEL, F_NODES0, F_KEY, F_I, F_WANT, F_FLAGS, F_PAIR = range(10)
F_MODE = 10  # walks over a proof: the mode the row's position is read in
NF = 11
# table flags, above the work count in a row's last column
WORK_MASK = (1 << 48) - 1
FLAG_NO_PAIRING = 1 << 48  # expanded before and no pairing was found
# the schedule of the searches a node may have again (threat probes, pairing searches): each
# has 2**GROWTH_BITS times the last one's budget, once the node's work passes WORK_RATIO
# times the last budget
GROWTH_BITS = 2
WORK_RATIO = 8
TSS_SHIFT = 49  # 4 bits: how many threat probes the node has had
TSS_LEVELS = 6  # probes of one node at most
TSS_DEPTHS = (8, 16, 32)  # iterative deepening of a probe (plies), then no limit
FLAG_NO_ZONE = 1 << 53  # no zone here: the null-move probe won nothing, or no pairing zone
PAIR_SHIFT = 54  # 3 bits: how many pairing searches the attacker's node has had
PAIR_LEVELS = 6  # searches of one node at most
# xor'd into the threat mode's tag for the positions after the defender's pass: there the
# attacker is to move with the stones of a position where the defender is
ZONE_TAG = np.uint64(0x6A09E667F3BCC908)
SIBLING_TAG = np.uint64(0xBB67AE8584CAA73B)
ZONE_WALK_NODES = 1 << 12  # positions a zone's proof walk may visit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_LEAF, _INNER = 0, 1
_ENTER, _RETURN, _LOOP = 0, 1, 2


@njit(**INLINE_JIT)
def _bucket(tt, key, bits):
    return np.int64((key * _GOLDEN) >> np.uint64(64 - bits)) & ~np.int64(3)


@njit(**INLINE_JIT)
def tt_get(tt, key, bits):
    """``(found, phi, delta, work, flags)`` of ``key``."""
    b = _bucket(tt, key, bits)
    ik = np.int64(key)
    for j in range(4):
        if tt[b + j, 0] == ik:
            w = tt[b + j, 3]
            return True, tt[b + j, 1], tt[b + j, 2], w & WORK_MASK, w & ~WORK_MASK
    return False, np.int64(1), np.int64(1), np.int64(0), np.int64(0)


@njit(**INLINE_JIT)
def tt_put(tt, key, bits, phi, delta, work, flags):
    """Store ``key``'s numbers in its bucket: over its own row, else over the row of least
    work."""
    b = _bucket(tt, key, bits)
    ik = np.int64(key)
    victim = b
    least = tt[b, 3] & WORK_MASK
    for j in range(4):
        if tt[b + j, 0] == ik:
            victim = b + j
            break
        if tt[b + j, 3] & WORK_MASK < least:
            least = tt[b + j, 3] & WORK_MASK
            victim = b + j
    tt[victim, 0] = ik
    tt[victim, 1] = phi
    tt[victim, 2] = delta
    tt[victim, 3] = min(work, np.int64(WORK_MASK)) | flags


@njit(**JIT)
def regrow_table(old, tt, bits):
    """Put every row of the table ``old`` into the empty table ``tt`` of 2**``bits`` rows, at
    least as many. A bucket is the top bits of a key's hash, so the rows of one new bucket all
    come from one old bucket: none is lost."""
    for i in range(old.shape[0]):
        ik = old[i, 0]
        if ik == 0:
            continue
        b = _bucket(tt, np.uint64(ik), bits)
        j = 0
        while j < 3 and tt[b + j, 0] != 0:
            j += 1
        tt[b + j, :] = old[i, :]


@njit(**JIT)
def regrow_zone_cache(old, zone_cache):
    """Put every zone kept in ``old`` into the empty zone cache ``zone_cache``, of at least as
    many rows: a row is the low bits of its key, so each old row has a new row of its own."""
    mask = np.uint64(zone_cache.shape[0] - 1)
    for i in range(old.shape[0]):
        ik = old[i, 0]
        if ik != 0:
            zone_cache[np.int64(np.uint64(ik) & mask), :] = old[i, :]


@njit(**INLINE_JIT)
def move_score(B, s, c, offence=0):
    """Static order of a move of ``s`` on ``c``: its own fours first, then blocks of the
    opponent's, then the open lines through ``c`` (fuller lines weigh more; ``s``'s own
    ``2**offence`` times more than the opponent's)."""
    n = B[H_CELLS]
    nl = B[H_LINES]
    mine = B[H_CNT] + s * nl
    theirs = B[H_CNT] + (1 - s) * nl
    cl = B[H_CLINES]
    score = np.int64(0)
    for i in range(B[B[H_CLSTART] + c], B[B[H_CLSTART] + c + 1]):
        line = B[cl + i]
        a = B[mine + line]
        b = B[theirs + line]
        if b == 0:
            score += np.int64(1) << min(2 * a + offence, 40)
        if a == 0:
            score += np.int64(1) << min(2 * b, 40)
    if B[B[H_TC] + s * n + c] >= 1:
        score += np.int64(1) << 52
    if B[B[H_TC] + (1 - s) * n + c] >= 1:
        score += np.int64(1) << 51
    return score


@njit(**JIT)
def _sort_children(row, n, count):
    """Sort ``row``'s children by the scores held in their phi slots, highest first, equal
    scores in their listed order."""
    if count > SORT_BY_INSERTION:
        order = np.argsort(-row[NF + n : NF + n + count], kind="mergesort")  # stable
        cells = row[NF : NF + count].copy()
        scores = row[NF + n : NF + n + count].copy()
        for i in range(count):
            row[NF + i] = cells[order[i]]
            row[NF + n + i] = scores[order[i]]
        return
    for i in range(1, count):
        c = row[NF + i]
        sc = row[NF + n + i]
        j = i
        while j > 0 and row[NF + n + j - 1] < sc:
            row[NF + j] = row[NF + j - 1]
            row[NF + n + j] = row[NF + n + j - 1]
            j -= 1
        row[NF + j] = c
        row[NF + n + j] = sc


@njit(**INLINE_JIT)
def _near_a_stone(B, c, reach):
    """True when a stone lies within ``reach`` rows and columns of cell ``c``."""
    cols = B[H_COLS]
    r, q = divmod(c, cols)
    board = B[H_BOARD]
    for y in range(max(0, r - reach), min(B[H_ROWS], r + reach + 1)):
        for x in range(max(0, q - reach), min(cols, q + reach + 1)):
            if B[board + y * cols + x] != 0:
                return True
    return False


@njit(**INLINE_JIT)
def _level_budget(first, level):
    """The budget of a search at ``level`` (1 the first) of the regrowth schedule: ``first``,
    times 2**GROWTH_BITS a level past the first."""
    return first << (GROWTH_BITS * (level - 1))


@njit(**INLINE_JIT)
def pairing_budget(ctl, flags):
    """Nodes of the pairing search at an attacker's node at the level its table ``flags``
    record (at least the first): ``ctl[C_PAIR_BUDGET]``, times 4 a level past the first."""
    return _level_budget(ctl[C_PAIR_BUDGET], max((flags >> PAIR_SHIFT) & 7, np.int64(1)))


@njit(**INLINE_JIT)
def _next_probe(ctl, row, flags, work):
    """The threat probe's budget at the attacker's node in ``row`` (0: no probe now), from its
    table ``flags`` and ``work``: a new node has the first, ``ctl[C_TSS_BUDGET]``; a node
    probed before has the next level's (4 times the budget) once its work passes 8 times the
    last, at most :data:`TSS_LEVELS` in all. The level goes to ``row[F_FLAGS]``."""
    level = (flags >> TSS_SHIFT) & 15
    if level > 0 and (
        level >= TSS_LEVELS or work < WORK_RATIO * _level_budget(ctl[C_TSS_BUDGET], level)
    ):
        return np.int64(0)
    row[F_FLAGS] = (flags & ~(np.int64(15) << TSS_SHIFT)) | (np.int64(level + 1) << TSS_SHIFT)
    return _level_budget(ctl[C_TSS_BUDGET], level + 1)


@njit(**INLINE_JIT)
def _next_pairing(ctl, row, flags, work):
    """Set the pairing search of the attacker's node in ``row`` from its table ``flags`` and
    ``work``: a new node has its first; a node that had one and found no pairing has the
    next level's (4 times the budget) once its work passes 8 times the last budget, at most
    :data:`PAIR_LEVELS` in all. The level goes to ``row[F_FLAGS]``, the budget to
    ``row[F_PAIR]``."""
    level = (flags >> PAIR_SHIFT) & 7
    if level == 0 or (
        level < PAIR_LEVELS
        and flags & FLAG_NO_PAIRING != 0
        and work >= WORK_RATIO * pairing_budget(ctl, flags)
    ):
        flags = (flags & ~(np.int64(7) << PAIR_SHIFT) & ~np.int64(FLAG_NO_PAIRING)) | (
            (level + 1) << PAIR_SHIFT
        )
        row[F_FLAGS] = flags
    row[F_PAIR] = pairing_budget(ctl, flags)


@njit(**INLINE_JIT)
def _table_pairing(B, Z, tt, ctl, row):
    """``row[F_PAIR]`` for a walk over solved positions: the budget of the level the table
    records for the position on the board, so that a pairing the search found is found
    again; where that search found none, ``row[F_FLAGS]`` says so and none is tried."""
    found, phi, delta, work, flags = tt_get(
        tt, canonical_key(B, Z, np.uint64(ctl[C_TAG])), ctl[C_TTBITS]
    )
    row[F_PAIR] = pairing_budget(ctl, flags)
    row[F_FLAGS] |= flags & FLAG_NO_PAIRING


@njit(**JIT)
def expand(B, Z, ctl, row, covered, used):
    """Evaluate the position on the board: ``(_LEAF, phi, delta)`` for a leaf, else
    ``(_INNER, 0, 0)`` with its moves listed in ``row`` (``row[F_N]`` of them, in search
    order; their phi slots hold scores, not yet numbers). At the attacker's nodes the
    pairing search has ``row[F_PAIR]`` nodes."""
    n = B[H_CELLS]
    s = B[H_PLY] & 1
    o = 1 - s
    a = ctl[C_ATTACKER]
    threats_only = ctl[C_MODE] == MODE_THREATS
    gravity = B[H_GRAV] != 0
    cells = row[NF:]
    if playable_wins(B, s, cells) > 0:
        return _LEAF, np.int64(0), np.int64(INF)
    if B[H_EMPTY] == 0:
        if s == a:
            return _LEAF, np.int64(INF), np.int64(0)
        return _LEAF, np.int64(0), np.int64(INF)
    wins = playable_wins(B, o, cells)
    if wins >= 2:
        return _LEAF, np.int64(INF), np.int64(0)
    wc_o = B[H_WC] + o * n
    cols = B[H_COLS]
    if wins == 1:  # block the one winning cell (already in cells[0])
        c = cells[0]
        if gravity and c >= cols and B[wc_o + c - cols] > 0:
            return _LEAF, np.int64(INF), np.int64(0)  # blocking lets o win above
        row[F_N] = 1
        row[NF + n] = 0
        return _INNER, np.int64(0), np.int64(0)
    count = 0
    if gravity:
        for c in range(n - cols, n):  # bottom row; climb each column to its lowest free cell
            x = c
            while x >= 0 and B[B[H_BOARD] + x] != 0:
                x -= cols
            if x < 0:
                continue
            if x >= cols and B[wc_o + x - cols] > 0:
                continue  # o would complete a line on top of it
            cells[count] = x
            row[NF + n + count] = move_score(B, s, x)
            count += 1
        if count == 0:
            return _LEAF, np.int64(INF), np.int64(0)
        _sort_children(row, n, count)
        row[F_N] = count
        return _INNER, np.int64(0), np.int64(0)
    if ctl[C_PAIRING] != 0 and not threats_only and row[F_FLAGS] & FLAG_NO_PAIRING == 0:
        held, pair_nodes = pairing_holds(B, a, covered, used, row[F_PAIR] if s == a else 0)
        ctl[C_PAIR_NODES] += pair_nodes
        if held:
            if s == a:
                return _LEAF, np.int64(INF), np.int64(0)
            return _LEAF, np.int64(0), np.int64(INF)
        row[F_FLAGS] |= FLAG_NO_PAIRING
    local = threats_only and s != a and ctl[C_LOCAL] != 0
    threats, count = defences(B, o, cells, ctl[C_LAST] if local else -1)
    board = B[H_BOARD]
    if threats > 0:
        # the defences are listed; add the mover's fours not among them
        for i in range(count):
            used[cells[i]] = 1
        listed = count
        for c in range(n):
            if B[board + c] == 0 and not used[c] and is_four(B, s, c):
                cells[count] = c
                count += 1
        for i in range(listed):
            used[cells[i]] = 0
        if count == 0:
            return _LEAF, np.int64(INF), np.int64(0)
    elif threats_only:
        if s != a:
            return _LEAF, np.int64(0), np.int64(INF)  # the attacker threatens nothing
        if ctl[C_LAST_OWN] >= 0:  # dependent threats: threes by the last stone, fours anywhere
            _mark_lines_through(B, s, B[H_K] - 3, ctl[C_LAST_OWN], used)
            tc_s = B[H_TC] + s * n
            for c in range(n):
                if B[tc_s + c] >= 1 and B[board + c] == 0:
                    used[c] = 1
        else:
            mark_line_cells(B, s, B[H_K] - 3, used)
        for c in range(n):
            if used[c]:
                used[c] = 0
                if is_four(B, s, c) or is_three(B, s, c):
                    cells[count] = c
                    count += 1
        if count == 0:
            return _LEAF, np.int64(INF), np.int64(0)
    else:
        reach = ctl[C_REACH] if s == a and B[H_PLY] > 0 else 0
        for c in range(n):
            if B[board + c] == 0 and (reach == 0 or _near_a_stone(B, c, reach)):
                cells[count] = c
                count += 1
        if count == 0:
            return _LEAF, np.int64(INF), np.int64(0)
    offence = ctl[C_OFFENCE] if s == a and threats_only else 0
    for i in range(count):
        row[NF + n + i] = move_score(B, s, cells[i], offence)
    _sort_children(row, n, count)
    row[F_N] = count
    return _INNER, np.int64(0), np.int64(0)


@njit(**INLINE_JIT)
def _mark_open_line(B, p, at_least, line, marks):
    """Set ``marks[c]`` on the empty cells of ``line`` when it holds ``at_least`` or more
    stones of ``p`` and none of the opponent's."""
    k = B[H_K]
    nl = B[H_LINES]
    if B[B[H_CNT] + p * nl + line] < at_least or B[B[H_CNT] + (1 - p) * nl + line] != 0:
        return
    board = B[H_BOARD]
    first = B[H_LCELLS] + line * k
    for t in range(k):
        c = B[first + t]
        if B[board + c] == 0:
            marks[c] = 1


@njit(**INLINE_JIT)
def mark_line_cells(B, p, at_least, marks):
    """Set ``marks[c]`` on the empty cells of the lines holding ``at_least`` or more stones
    of ``p`` and none of the opponent's (with k-3: the cells where a stone of ``p`` could be
    a four or a three, which make such a line hold k-2 or more)."""
    for line in range(B[H_LINES]):
        _mark_open_line(B, p, at_least, line, marks)


@njit(**INLINE_JIT)
def _mark_lines_through(B, p, at_least, c, marks):
    """:func:`mark_line_cells` on the lines through cell ``c`` only."""
    cl = B[H_CLINES]
    for i in range(B[B[H_CLSTART] + c], B[B[H_CLSTART] + c + 1]):
        _mark_open_line(B, p, at_least, B[cl + i], marks)


@njit(**JIT)
def _play_next(B, Z, row):
    """Play the next untried move of the stack row ``row`` (its ``F_I`` counts the tried)."""
    c = row[NF + row[F_I]]
    row[F_I] += 1
    place(B, Z, c, B[H_PLY] & 1)


@njit(**JIT)
def _take_back_last(B, Z, row):
    """Take back the move :func:`_play_next` played last from ``row``."""
    take_back(B, Z, row[NF + row[F_I] - 1], (B[H_PLY] - 1) & 1)


_T_WIN, _T_LOSS, _T_CUT, _T_BUDGET = 1, 0, 2, 3


@njit(**INLINE_JIT)
def _attacker_numbers(s, a, won):
    """phi, delta of a solved node from its mover ``s``'s side: the attacker ``a`` won or not."""
    if (s == a) == won:
        return np.int64(0), np.int64(INF)
    return np.int64(INF), np.int64(0)


@njit(**INLINE_JIT)
def _keep_probe_result(tt, key, ctl, s, res, work):
    """Store a threat probe's solved position (``s`` to move, ``res`` the attacker's
    ``_T_WIN`` or ``_T_LOSS``); with dependent threats only a win, a loss depending on the
    moves that led to it."""
    if res == _T_WIN or ctl[C_DEPENDENT] == 0:
        phi, delta = _attacker_numbers(s, ctl[C_ATTACKER], res == _T_WIN)
        tt_put(tt, key, ctl[C_TTBITS], phi, delta, work, 0)


@njit(**INLINE_JIT)
def _last_move(stk, d):
    """The move that led from stack row ``d - 1`` to row ``d`` (-1 at the root)."""
    if d == 0:
        return np.int64(-1)
    return stk[d - 1, NF + stk[d - 1, F_I] - 1]


@njit(**JIT)
def threat_probe(B, Z, tt, ctl, stk, covered, used, budget, depth):
    """Does the attacker, to move, win by threats (``MODE_THREATS`` moves) within ``budget``
    nodes and ``depth`` plies? Depth first, moves in :func:`expand`'s order; solved positions
    go to the table under ``ctl[C_TSS_TAG]`` (the threat mode's entries, shared with the
    threat-mode search), positions cut by ``depth`` do not. ``ctl[C_MODE]`` must be
    ``MODE_THREATS``. Returns ``(result, nodes)``: ``_T_WIN``, ``_T_LOSS`` (no threat sequence
    wins), ``_T_CUT`` (none within ``depth``) or ``_T_BUDGET``; the board is restored."""
    tag = np.uint64(ctl[C_TSS_TAG])
    bits = ctl[C_TTBITS]
    a = ctl[C_ATTACKER]
    nodes = np.int64(0)
    d = 0
    res = _T_CUT
    state = _ENTER
    while True:
        if state == _ENTER:
            row = stk[d]
            s = B[H_PLY] & 1
            key = canonical_key(B, Z, tag)
            found, phi, delta, work, flags = tt_get(tt, key, bits)
            if found and (phi == 0 or delta == 0):
                res = _T_WIN if (phi == 0) == (s == a) else _T_LOSS
                state = _RETURN
                continue
            if nodes >= budget:
                while d > 0:
                    d -= 1
                    _take_back_last(B, Z, stk[d])
                return _T_BUDGET, nodes
            nodes += 1
            row[F_KEY] = np.int64(key)
            row[F_NODES0] = nodes
            row[F_FLAGS] = 0
            row[F_PAIR] = 0
            ctl[C_LAST] = _last_move(stk, d)
            ctl[C_LAST_OWN] = _last_move(stk, d - 1) if ctl[C_DEPENDENT] and d >= 2 else -1
            kind, phi, delta = expand(B, Z, ctl, row, covered, used)
            ctl[C_LAST_OWN] = -1
            if kind == _LEAF:
                res = _T_WIN if (phi == 0) == (s == a) else _T_LOSS
                _keep_probe_result(tt, key, ctl, s, res, 1)
                state = _RETURN
                continue
            if d >= depth:
                res = _T_CUT
                state = _RETURN
                continue
            row[F_I] = 0
            row[F_WANT] = 0  # 1 once a child was cut
            state = _LOOP
        elif state == _RETURN:
            if d == 0:
                return res, nodes
            d -= 1
            row = stk[d]
            _take_back_last(B, Z, row)
            s = B[H_PLY] & 1
            mover_succeeds = (res == _T_WIN) if s == a else (res == _T_LOSS)
            if mover_succeeds:
                _keep_probe_result(
                    tt, np.uint64(row[F_KEY]), ctl, s, res, nodes - row[F_NODES0] + 1
                )
                state = _RETURN
                continue
            if res == _T_CUT:
                row[F_WANT] = 1
            state = _LOOP
        else:
            row = stk[d]
            if row[F_I] >= row[F_N]:
                s = B[H_PLY] & 1
                if row[F_WANT] != 0:
                    res = _T_CUT
                else:  # every move tried: the mover failed
                    res = _T_LOSS if s == a else _T_WIN
                    work = nodes - row[F_NODES0] + 1
                    _keep_probe_result(tt, np.uint64(row[F_KEY]), ctl, s, res, work)
                state = _RETURN
                continue
            _play_next(B, Z, row)
            d += 1
            state = _ENTER


@njit(**JIT)
def threat_dfpn(B, Z, tt, ctl, stk, covered, used, budget):
    """Does the attacker, to move, win by threats (``MODE_THREATS`` moves, every three)?
    df-pn within ``budget`` nodes and the rows of ``stk``, its numbers in the table under
    ``ctl[C_TSS_TAG]`` (threat mode's own question), so that a probe asked again goes on from
    them. ``ctl[C_MODE]`` must be ``MODE_THREATS``. Returns ``(result, nodes)``: ``_T_WIN``,
    ``_T_LOSS`` (no threat sequence wins) or ``_T_BUDGET`` (also when the stack's rows run
    out); the board is restored."""
    n = B[H_CELLS]
    tag = np.uint64(ctl[C_TSS_TAG])
    bits = ctl[C_TTBITS]
    question_tag = ctl[C_TAG]
    ctl[C_TAG] = ctl[C_TSS_TAG]  # read by _children_numbers
    rows = stk.shape[0]
    nodes = np.int64(0)
    d = 0
    stk[0, F_THPHI] = INF
    stk[0, F_THDELTA] = INF
    rphi = np.int64(0)
    rdelta = np.int64(0)
    result = _T_BUDGET
    state = _ENTER
    while True:
        if state == _ENTER:
            row = stk[d]
            key = canonical_key(B, Z, tag)
            row[F_KEY] = np.int64(key)
            row[F_NODES0] = nodes
            found, phi, delta, work, flags = tt_get(tt, key, bits)
            if found and (phi >= row[F_THPHI] or delta >= row[F_THDELTA]):
                rphi, rdelta = phi, delta
                state = _RETURN
                continue
            if nodes >= budget or d + 1 >= rows:
                _unwind(B, Z, stk, d)
                break
            nodes += 1
            row[F_FLAGS] = 0
            row[F_PAIR] = 0
            ctl[C_LAST] = -1 if d == 0 else stk[d - 1, NF + stk[d - 1, F_SEL]]
            kind, phi, delta = expand(B, Z, ctl, row, covered, used)
            if kind == _LEAF:
                tt_put(tt, key, bits, phi, delta, 1, 0)
                rphi, rdelta = phi, delta
                state = _RETURN
                continue
            _children_numbers(B, Z, tt, ctl, row)
            state = _LOOP
        elif state == _RETURN:
            if d == 0:
                s = B[H_PLY] & 1
                if rphi == 0 or rdelta == 0:
                    won = (rphi == 0) == (s == ctl[C_ATTACKER])
                    result = _T_WIN if won else _T_LOSS
                break
            d -= 1
            row = stk[d]
            sel = row[F_SEL]
            take_back(B, Z, row[NF + sel], (B[H_PLY] - 1) & 1)
            row[NF + n + sel] = rphi
            row[NF + 2 * n + sel] = rdelta
            state = _LOOP
        else:
            row = stk[d]
            phi, delta, best, child_thphi, child_thdelta = _most_proving_child(row, n, ctl)
            if best < 0:
                work = nodes - row[F_NODES0] + 1
                tt_put(tt, np.uint64(row[F_KEY]), bits, phi, delta, work, 0)
                rphi, rdelta = phi, delta
                state = _RETURN
                continue
            d = _descend(B, Z, stk, d, best, child_thphi, child_thdelta)
            state = _ENTER
    ctl[C_TAG] = question_tag
    return result, nodes


@njit(**JIT)
def _threat_win(B, Z, tt, ctl, stk, covered, used, budget):
    """Does the attacker, to move, win by threats within ``budget`` nodes in all, asked from a
    full-mode search? The probe searches as ``ctl[C_ZONE_PROBE]`` says for a zones' probe
    (``ctl[C_LOCAL]``), ``ctl[C_THREAT_PROBE]`` otherwise: :func:`threat_probe` deepening
    (:data:`TSS_DEPTHS`, then unlimited), :func:`threat_dfpn`, or the first depth then
    :func:`threat_dfpn` (the module docstring). Counts the nodes in ``ctl[C_NODES]`` and
    ``ctl[C_TSS_NODES]``."""
    kind = ctl[C_ZONE_PROBE] if ctl[C_LOCAL] != 0 else ctl[C_THREAT_PROBE]
    mode = ctl[C_MODE]
    ctl[C_MODE] = MODE_THREATS
    depths = 0  # df-pn
    if kind == PROBE_DEPTH_FIRST:
        depths = len(TSS_DEPTHS) + 1
    elif kind == PROBE_SHORT_FIRST:
        depths = 1
    res = _T_CUT
    for step in range(depths):
        depth = TSS_DEPTHS[step] if step < len(TSS_DEPTHS) else B[H_EMPTY]
        res, nodes = threat_probe(B, Z, tt, ctl, stk, covered, used, budget, depth)
        budget -= nodes
        ctl[C_NODES] += nodes
        ctl[C_TSS_NODES] += nodes
        if res != _T_CUT:
            break
    # a dependent probe's failure holds for its own threes only; df-pn tries every three
    unsettled = res == _T_CUT or (res == _T_LOSS and ctl[C_DEPENDENT] != 0)
    if unsettled and kind != PROBE_DEPTH_FIRST:
        last_own = ctl[C_LAST_OWN]
        ctl[C_LAST_OWN] = -1
        res, nodes = threat_dfpn(B, Z, tt, ctl, stk, covered, used, budget)
        ctl[C_LAST_OWN] = last_own
        ctl[C_NODES] += nodes
        ctl[C_TSS_NODES] += nodes
    ctl[C_MODE] = mode
    if res == _T_WIN:
        ctl[C_TSS_WINS] += 1
    return res == _T_WIN


@njit(**JIT)
def _threat_proof_marks(B, Z, tt, ctl, stk, covered, used, marks):
    """Walk the threat-mode proof that the table holds of the attacker's win from the board
    (the attacker to move, entries under ``ctl[C_TSS_TAG]``) and mark the cells each side plays
    in it: ``B[marks + c] |= 1`` for the attacker's stones, 2 for the defender's. Every node is
    expanded again and every leaf checked by :func:`expand`; the table only picks the
    attacker's move. Returns the deepest ply of the walk, or -1 when it fails (an entry lost,
    a leaf the attacker does not win, over :data:`ZONE_WALK_NODES` positions); the board is
    restored. The positions visited count in ``ctl[C_NODES]`` and ``ctl[C_TSS_NODES]``."""
    tag = np.uint64(ctl[C_TSS_TAG])
    bits = ctl[C_TTBITS]
    a = ctl[C_ATTACKER]
    visited = 0
    deepest = 0
    d = 0
    ok = True
    state = _ENTER
    while True:
        if state == _ENTER:
            row = stk[d]
            visited += 1
            deepest = max(deepest, d)
            if visited > ZONE_WALK_NODES:
                ok = False
                break
            s = B[H_PLY] & 1
            row[F_FLAGS] = 0
            row[F_PAIR] = 0
            last = _last_move(stk, d)
            ctl[C_LAST] = last
            _mark_threat_lines(B, a, last if s != a else -1, marks)
            if s != a:
                _mark_defender_lines(B, a, marks)
            elif d == 0:
                _mark_open_lines(B, 1 - a, B[H_K] - 1, marks)  # m itself completes a line
            kind, phi, delta = expand(B, Z, ctl, row, covered, used)
            if kind == _LEAF:
                if (phi == 0) != (s == a):
                    ok = False
                    break
                state = _RETURN
                continue
            if s == a:  # one proving move: a child whose defender fails
                pick = -1
                for i in range(row[F_N]):
                    found, cphi, cdelta, work, flags = tt_get(
                        tt, child_key(B, Z, tag, row[NF + i], s), bits
                    )
                    if found and cdelta == 0:
                        pick = i
                        break
                if pick < 0:
                    ok = False
                    break
                row[NF] = row[NF + pick]
                row[F_N] = 1
            row[F_I] = 0
            state = _LOOP
        elif state == _RETURN:
            if d == 0:
                break
            d -= 1
            _take_back_last(B, Z, stk[d])
            state = _LOOP
        else:
            row = stk[d]
            if row[F_I] >= row[F_N]:
                state = _RETURN
                continue
            B[marks + row[NF + row[F_I]]] |= 1 if B[H_PLY] & 1 == a else 2
            _play_next(B, Z, row)
            d += 1
            state = _ENTER
    while d > 0:
        d -= 1
        _take_back_last(B, Z, stk[d])
    ctl[C_NODES] += visited
    ctl[C_TSS_NODES] += visited
    return deepest if ok else -1


@njit(**INLINE_JIT)
def _mark_line(B, line, marks):
    """Add bit 4 to the marks of ``line``'s cells."""
    k = B[H_K]
    first = B[H_LCELLS] + line * k
    for t in range(k):
        B[marks + B[first + t]] |= 4


@njit(**INLINE_JIT)
def _mark_open_lines(B, p, at_least, marks):
    """:func:`_mark_line` on every line with ``at_least`` or more stones of ``p`` and none of
    the opponent's."""
    nl = B[H_LINES]
    own = B[H_CNT] + p * nl
    other = B[H_CNT] + (1 - p) * nl
    for line in range(nl):
        if B[own + line] >= at_least and B[other + line] == 0:
            _mark_line(B, line, marks)


@njit(**JIT)
def _mark_threat_lines(B, a, last, marks):
    """Mark (bit 4) the lines the threat mode reads of the attacker ``a`` here: every line
    with k-1 of its stones and none of the defender's (a winning cell); with ``last >= 0``
    (a defender's node, ``last`` the attacker's move), the lines through ``last`` with k-2 or
    more of its stones and none of the defender's, and every such line with k-2 through a
    double-threat cell sharing a line with ``last`` (the threats :func:`defences` answers)."""
    n = B[H_CELLS]
    nl = B[H_LINES]
    k = B[H_K]
    att = B[H_CNT] + a * nl
    dfd = B[H_CNT] + (1 - a) * nl
    _mark_open_lines(B, a, k - 1, marks)
    if last < 0:
        return
    cl = B[H_CLINES]
    clstart = B[H_CLSTART]
    first = B[H_LCELLS]
    for i in range(B[clstart + last], B[clstart + last + 1]):
        line = B[cl + i]
        if B[att + line] < k - 2 or B[dfd + line] != 0:
            continue
        _mark_line(B, line, marks)
    tc = B[H_TC] + a * n
    board = B[H_BOARD]
    for i in range(B[clstart + last], B[clstart + last + 1]):
        through = B[cl + i]
        for t in range(k):
            g = B[first + through * k + t]
            if B[board + g] != 0 or B[tc + g] < 2:
                continue
            for j in range(B[clstart + g], B[clstart + g + 1]):
                line = B[cl + j]
                if B[att + line] == k - 2 and B[dfd + line] == 0:
                    _mark_line(B, line, marks)


@njit(**JIT)
def _mark_defender_lines(B, a, marks):
    """At a defender's node of a threat proof, mark (bit 4) the lines where a defender's stone
    m would change the node: those with k-2 or more of its stones and none of the attacker's
    (m gives it a winning cell) and, when the attacker has no winning cell here (the defender
    answers a three), those with k-3 (m and its answer make a four the node does not list).
    Under a four the defender's one answer is the block; a four that the block makes with m
    lies on a line of k-2 at the next defender's node, and is marked there."""
    k = B[H_K]
    _mark_open_lines(B, 1 - a, k - 2 if B[H_NWIN + a] > 0 else k - 3, marks)


@njit(**JIT)
def _probe_zone(B, Z, tt, ctl, stk, covered, used, zone_tag):
    """The zone of a threat win of ``ctl[C_ATTACKER]``, to move on the board, with local
    defences and the threat tag xor ``zone_tag``: the marks of :func:`relevance_zone`, and
    True, or False when the probe (``ctl[C_ZONE_BUDGET]`` nodes) or its walk gives none."""
    n = B[H_CELLS]
    marks = B[H_SCRATCH] + 3 * n
    for c in range(n):
        B[marks + c] = 0
    budget = min(ctl[C_ZONE_BUDGET], ctl[C_MAXNODES] - ctl[C_NODES])
    if budget <= 0:
        return False
    tag = ctl[C_TSS_TAG]
    ctl[C_TSS_TAG] = tag ^ np.int64(zone_tag)
    ctl[C_LOCAL] = 1
    deepest = -1
    if _threat_win(B, Z, tt, ctl, stk, covered, used, budget):
        mode = ctl[C_MODE]
        ctl[C_MODE] = MODE_THREATS
        deepest = _threat_proof_marks(B, Z, tt, ctl, stk, covered, used, marks)
        ctl[C_MODE] = mode
    ctl[C_LOCAL] = 0
    ctl[C_TSS_TAG] = tag
    return deepest >= 0 and B[H_EMPTY] - deepest >= 2


@njit(**JIT)
def relevance_zone(B, Z, tt, ctl, stk, covered, used):
    """The relevance zone of the defender, to move on the board, against ``ctl[C_ATTACKER]``
    (the module docstring): marks in ``B[marks + c]`` (non-zero: in the zone) and True, or
    False when the null-move probe (``ctl[C_ZONE_BUDGET]`` nodes) or its walk gives none.
    Marks live in the board's scratch slots [3N, 4N)."""
    B[H_PLY] += 1  # the defender passes
    found = _probe_zone(B, Z, tt, ctl, stk, covered, used, ZONE_TAG)
    B[H_PLY] -= 1
    return found


@njit(**JIT)
def sibling_zone(B, Z, tt, ctl, stk, covered, used, move):
    """The zone of the defender's ``move``, to be played on the board, when it loses to a
    threat win of ``ctl[C_ATTACKER]`` (the module docstring): the marks of
    :func:`relevance_zone` and True, or False (no such win found, or no zone from it); the
    board is restored. A defender's move off the zone loses too."""
    s = B[H_PLY] & 1
    place(B, Z, move, s)
    found = _probe_zone(B, Z, tt, ctl, stk, covered, used, SIBLING_TAG)
    take_back(B, Z, move, s)
    return found


@njit(**JIT)
def pairing_zone(B, Z, ctl, covered, used):
    """The pairing zone of the attacker ``a`` (``ctl[C_ATTACKER]``), to move on the board (the
    module docstring): a defender's move d, among the ``ctl[C_PZONE_TRIES]`` empty cells on
    the most lines open to ``a``, after which :func:`fastttt.kernels.threats.pairing_holds`
    (the greedy pass, then a search of ``ctl[C_PAIR_BUDGET]`` nodes, counted in
    ``ctl[C_PAIR_NODES]``) pairs every open line of ``a`` as if ``a`` had passed. Marks d and
    the pairs' cells in ``used`` and returns True, or returns False (``used`` left
    zeroed)."""
    n = B[H_CELLS]
    nl = B[H_LINES]
    a = ctl[C_ATTACKER]
    d_side = 1 - a
    board = B[H_BOARD]
    theirs = B[H_CNT] + d_side * nl
    cl = B[H_CLINES]
    clstart = B[H_CLSTART]
    pairs = B[H_SCRATCH] + 3 * n
    tries = min(ctl[C_PZONE_TRIES], np.int64(PZONE_MAX_TRIES))
    best = np.full(PZONE_MAX_TRIES, -1, dtype=np.int64)
    best_open = np.zeros(PZONE_MAX_TRIES, dtype=np.int64)
    for c in range(n):
        if B[board + c] != 0:
            continue
        m = 0
        for i in range(B[clstart + c], B[clstart + c + 1]):
            if B[theirs + B[cl + i]] == 0:
                m += 1
        at = tries
        while at > 0 and m > best_open[at - 1]:
            at -= 1
        if at < tries:
            for j in range(tries - 1, at, -1):
                best[j] = best[j - 1]
                best_open[j] = best_open[j - 1]
            best[at] = c
            best_open[at] = m
    for t in range(tries):
        d = best[t]
        if d < 0:
            break
        place(B, Z, d, d_side)
        held, nodes = pairing_holds(B, a, covered, used, ctl[C_PAIR_BUDGET])
        ctl[C_PAIR_NODES] += nodes
        take_back(B, Z, d, d_side)
        if not held:
            continue
        used[d] = 1
        for i in range(0, n - 1, 2):
            x = B[pairs + i]
            if x < 0:
                break
            used[x] = 1
            used[B[pairs + i + 1]] = 1
        return True
    return False


@njit(**JIT)
def _restrict_to_pairing_zone(B, Z, ctl, row, covered, used):
    """At an attacker's node in full mode on a free board, keep in ``row`` only the moves in
    the pairing zone (:func:`pairing_zone`; none tried when ``row[F_FLAGS]`` says none was
    found here). Returns the moves kept."""
    count = row[F_N]
    if (
        ctl[C_PZONE_TRIES] == 0
        or ctl[C_PAIRING] == 0
        or ctl[C_MODE] != MODE_FULL
        or B[H_GRAV] != 0
        or count < 2
        or row[F_FLAGS] & FLAG_NO_ZONE != 0
    ):
        return count
    if not pairing_zone(B, Z, ctl, covered, used):
        row[F_FLAGS] |= FLAG_NO_ZONE
        return count
    n = B[H_CELLS]
    kept = 0
    for i in range(count):
        c = row[NF + i]
        if used[c]:
            row[NF + kept] = c
            row[NF + n + kept] = row[NF + n + i]
            kept += 1
    used[:] = 0
    row[F_N] = kept
    ctl[C_PZONE_CUTS] += 1
    ctl[C_PZONE_PRUNED] += count - kept
    return kept


@njit(**INLINE_JIT)
def _zone_slot(Z, ctl, zone_cache):
    """``(row, key)`` of the position on the board in the zone cache ``zone_cache`` (the key
    and why it is not the canonical one: the module docstring)."""
    key = Z[0] ^ np.uint64(ctl[C_TAG])
    if key == 0:
        key = np.uint64(1)
    return np.int64(key & np.uint64(zone_cache.shape[0] - 1)), np.int64(key)


@njit(**JIT)
def keep_zone(zone_cache, slot, key, marks, n):
    """Write the zone ``marks`` (non-zero: in the zone; cells 0..n-1) to row ``slot`` of the
    zone cache under ``key``: cell c is bit ``c % 64`` of word ``1 + c // 64``."""
    zone_cache[slot, 0] = key
    zone_cache[slot, 1:] = 0
    for c in range(n):
        if marks[c] != 0:
            zone_cache[slot, 1 + (c >> 6)] |= np.int64(1) << (c & 63)


@njit(**INLINE_JIT)
def _kept_cell(zone_cache, slot, c):
    """1 when cell ``c`` is in the zone kept in row ``slot`` (:func:`keep_zone`), else 0."""
    return (zone_cache[slot, 1 + (c >> 6)] >> (c & 63)) & 1


@njit(**JIT)
def read_zone(zone_cache, slot, marks, n):
    """The zone kept in row ``slot`` of the zone cache into ``marks`` (1: in the zone)."""
    for c in range(n):
        marks[c] = _kept_cell(zone_cache, slot, c)


@njit(**JIT)
def _restrict_to_zone(B, Z, tt, ctl, row, covered, used, zone_cache, stk):
    """Keep in ``row`` only the moves in the node's zone: at a defender's node in full mode
    on a free board the relevance zone (:func:`relevance_zone`), at an attacker's node the
    pairing zone (:func:`_restrict_to_pairing_zone`). A defender's zone comes from the zone
    cache where it holds the position (a relevance zone, or one cut by refuted siblings:
    :func:`_cut_by_sibling`), else from a probe, and is then kept there; none is probed when
    ``row[F_FLAGS]`` says the probe found none before. Returns the moves kept."""
    count = row[F_N]
    if B[H_PLY] & 1 == ctl[C_ATTACKER]:
        return _restrict_to_pairing_zone(B, Z, ctl, row, covered, used)
    if ctl[C_ZONE_BUDGET] == 0 or ctl[C_MODE] != MODE_FULL or B[H_GRAV] != 0 or count < 2:
        return count
    n = B[H_CELLS]
    marks = B[H_SCRATCH] + 3 * n
    slot, key = _zone_slot(Z, ctl, zone_cache)
    if zone_cache[slot, 0] == key:
        read_zone(zone_cache, slot, B[marks : marks + n], n)
        ctl[C_ZONE_HITS] += 1
    elif row[F_FLAGS] & FLAG_NO_ZONE != 0:
        return count
    elif relevance_zone(B, Z, tt, ctl, stk, covered, used):
        keep_zone(zone_cache, slot, key, B[marks : marks + n], n)
    else:
        row[F_FLAGS] |= FLAG_NO_ZONE
        return count
    kept = 0
    for i in range(count):
        c = row[NF + i]
        if B[marks + c] != 0:
            row[NF + kept] = c
            row[NF + n + kept] = row[NF + n + i]
            kept += 1
    row[F_N] = kept
    ctl[C_ZONE_CUTS] += 1
    ctl[C_ZONE_PRUNED] += count - kept
    return kept


@njit(**JIT)
def _cut_by_sibling(B, Z, tt, ctl, row, sel, covered, used, zone_cache, stk):
    """At a defender's node whose child ``sel`` the attacker has just proven: when the
    node's visit has done ``ctl[C_SIBLING]`` nodes or more, the zone of that move
    (:func:`sibling_zone`) is intersected with the node's kept zone, and the open children
    off it are proven for the attacker in ``row``."""
    if (
        ctl[C_SIBLING] == 0
        or ctl[C_ZONE_BUDGET] == 0
        or ctl[C_MODE] != MODE_FULL
        or B[H_GRAV] != 0
        or ctl[C_NODES] - row[F_NODES0] < ctl[C_SIBLING]
    ):
        return
    n = B[H_CELLS]
    open_children = 0
    for i in range(row[F_N]):
        if row[NF + n + i] != 0 and row[NF + 2 * n + i] != 0:
            open_children += 1
    if open_children == 0 or not sibling_zone(B, Z, tt, ctl, stk, covered, used, row[NF + sel]):
        return
    marks = B[H_SCRATCH] + 3 * n
    slot, key = _zone_slot(Z, ctl, zone_cache)
    if zone_cache[slot, 0] == key:
        for c in range(n):
            if _kept_cell(zone_cache, slot, c) == 0:
                B[marks + c] = 0
    keep_zone(zone_cache, slot, key, B[marks : marks + n], n)
    ctl[C_SIBLING_ZONES] += 1
    for i in range(row[F_N]):
        if B[marks + row[NF + i]] == 0 and row[NF + n + i] != 0 and row[NF + 2 * n + i] != 0:
            row[NF + n + i] = 0
            row[NF + 2 * n + i] = INF
            ctl[C_SIBLING_PRUNED] += 1


@njit(**JIT)
def _children_numbers(B, Z, tt, ctl, row):
    """Fill the phi and delta slots of ``row``'s children from the table; a child absent
    from it gets phi 1 and delta ``1 + rank * ctl[C_ORDER] // ORDER_SCALE``, rank its place in
    the list (the move order).
    Up to :data:`DEDUP_PLY` stones, children that are one position under a symmetry of the
    board are kept once (the empty 7 x 7 board has 10 moves, not 49): their numbers would
    otherwise be summed several times into the parent's."""
    n = B[H_CELLS]
    s = B[H_PLY] & 1
    tag = np.uint64(ctl[C_TAG])
    bits = ctl[C_TTBITS]
    count = row[F_N]
    keys = NF + 2 * n  # the delta slots hold the children's keys meanwhile
    if B[H_PLY] <= DEDUP_PLY:
        size = 4
        while size < 2 * count:
            size *= 2
        seen = np.zeros(size, dtype=np.uint64)
        kept = 0
        for i in range(count):
            key = child_key(B, Z, tag, row[NF + i], s)
            if _seen_add(seen, key):
                row[NF + kept] = row[NF + i]
                row[keys + kept] = np.int64(key)
                kept += 1
        row[F_N] = kept
    else:
        for i in range(count):
            row[keys + i] = np.int64(child_key(B, Z, tag, row[NF + i], s))
    slope = ctl[C_ORDER]
    for i in range(row[F_N]):
        found, phi, delta, work, flags = tt_get(tt, np.uint64(row[keys + i]), bits)
        if not found:
            delta = 1 + (i * slope) // ORDER_SCALE
        row[NF + n + i] = phi
        row[NF + 2 * n + i] = delta


@njit(**JIT)
def _unwind(B, Z, stk, d):
    """Take back the moves of the stack rows below ``d``."""
    while d > 0:
        d -= 1
        take_back(B, Z, stk[d, NF + stk[d, F_SEL]], (B[H_PLY] - 1) & 1)


@njit(**INLINE_JIT)
def _children_phi(row, n, weak):
    """``delta`` of the node in ``row`` from its children's ``phi``: their sum, or with
    ``weak`` sums the largest open one plus one for each other open child (INF when one is
    infinite); and the largest open ``phi``."""
    total = np.int64(0)
    largest = np.int64(0)
    open_children = 0
    for i in range(row[F_N]):
        cp = row[NF + n + i]
        if cp >= INF:
            return np.int64(INF), largest
        total += cp
        if cp > 0:
            largest = max(largest, cp)
            open_children += 1
    if weak and open_children > 0:
        total = largest + open_children - 1
    return min(total, np.int64(INF - 1)), largest


@njit(**INLINE_JIT)
def _most_proving_child(row, n, ctl):
    """The numbers of the node in ``row`` from its children's, and the child to search:
    ``(phi, delta, best, child_thphi, child_thdelta)``, ``best`` -1 when a number reached
    its threshold (the node returns). The child is the one of least ``delta``; its thresholds
    are those of the module docstring (the 1 + epsilon trick, weak sums)."""
    best = 0
    least = np.int64(INF + 1)
    second = np.int64(INF + 1)
    for i in range(row[F_N]):
        cd = row[NF + 2 * n + i]
        if cd < least:
            second = least
            least = cd
            best = i
        elif cd < second:
            second = cd
    phi = min(least, np.int64(INF))
    delta, largest = _children_phi(row, n, ctl[C_WEAK])
    if phi >= row[F_THPHI] or delta >= row[F_THDELTA]:
        return phi, delta, -1, np.int64(0), np.int64(0)
    second = min(second, np.int64(INF))
    # the child's phi at which delta reaches its threshold (with weak sums the largest phi
    # sets delta, so a smaller child may grow to it first)
    grows_from = largest if ctl[C_WEAK] else row[NF + n + best]
    child_thphi = min(row[F_THDELTA] - delta + grows_from, np.int64(INF))
    if second >= INF:
        child_thdelta = row[F_THPHI]
    else:
        num = ctl[C_EPS_NUM]
        child_thdelta = min(row[F_THPHI], second + 1 + (second * num) // ctl[C_EPS_DEN])
    return phi, delta, best, child_thphi, child_thdelta


@njit(**INLINE_JIT)
def _descend(B, Z, stk, d, best, child_thphi, child_thdelta):
    """Play the child ``best`` of the node at depth ``d`` and give it its thresholds;
    returns the child's depth."""
    stk[d, F_SEL] = best
    place(B, Z, stk[d, NF + best], B[H_PLY] & 1)
    stk[d + 1, F_THPHI] = child_thphi
    stk[d + 1, F_THDELTA] = child_thdelta
    return d + 1


@njit(**JIT)
def _root_report(n, ctl, stk):
    """How far the search got: the root's moves, how many are solved, and the root's numbers
    from its children (phi = least child delta, delta: :func:`_children_phi`), into ``ctl``."""
    row = stk[0]
    count = row[F_N]
    solved = 0
    least = np.int64(INF)
    for i in range(count):
        cp = row[NF + n + i]
        cd = row[NF + 2 * n + i]
        if cp == 0 or cd == 0:
            solved += 1
        least = min(least, cd)
    total, _ = _children_phi(row, n, ctl[C_WEAK])
    ctl[C_ROOT_MOVES] = count
    ctl[C_ROOT_SOLVED] = solved
    if count > 0:
        ctl[C_PHI] = least
        ctl[C_DELTA] = total


@njit(**JIT)
def search(B, Z, tt, ctl, stop, stk, covered, used, zone_cache):
    """df-pn from the position on the board with thresholds ``ctl[C_THPHI]``,
    ``ctl[C_THDELTA]`` (INF, INF: until solved). Writes the root's numbers to ``ctl[C_PHI]``,
    ``ctl[C_DELTA]`` and returns a status: ST_DONE, or ST_BUDGET (``ctl[C_NODES]`` reached
    ``ctl[C_MAXNODES]``) or ST_STOPPED (the stop word), the board restored either way and
    nothing stored after the stop. One node per expanded position (``ctl[C_NODES]``)."""
    n = B[H_CELLS]
    tag = np.uint64(ctl[C_TAG])
    bits = ctl[C_TTBITS]
    d = 0
    stk[0, F_THPHI] = ctl[C_THPHI]
    stk[0, F_THDELTA] = ctl[C_THDELTA]
    rphi = np.int64(0)
    rdelta = np.int64(0)
    stk[0, F_N] = 0
    ctl[C_PHI] = 1
    ctl[C_DELTA] = 1
    state = _ENTER
    while True:
        if state == _ENTER:
            if ctl[C_NODES] >= ctl[C_MAXNODES] or is_stopped(stop):
                _unwind(B, Z, stk, d)
                _root_report(n, ctl, stk)
                status = ST_BUDGET if ctl[C_NODES] >= ctl[C_MAXNODES] else ST_STOPPED
                ctl[C_STATUS] = status
                return status
            ctl[C_NODES] += 1
            if d > ctl[C_DEEPEST]:
                ctl[C_DEEPEST] = d
            row = stk[d]
            key = canonical_key(B, Z, tag)
            row[F_KEY] = np.int64(key)
            row[F_NODES0] = ctl[C_NODES]
            found, phi, delta, work, flags = tt_get(tt, key, bits)
            row[F_FLAGS] = flags
            if found and (phi >= row[F_THPHI] or delta >= row[F_THDELTA]):
                rphi, rdelta = phi, delta
                state = _RETURN
                continue
            if (
                ctl[C_TSS_BUDGET] > 0
                and ctl[C_MODE] == MODE_FULL
                and B[H_PLY] & 1 == ctl[C_ATTACKER]
                and B[H_GRAV] == 0
            ):
                budget = min(_next_probe(ctl, row, flags, work), ctl[C_MAXNODES] - ctl[C_NODES])
                if budget > 0 and _threat_win(B, Z, tt, ctl, stk[d + 1 :], covered, used, budget):
                    tt_put(tt, key, bits, np.int64(0), np.int64(INF), work + 1, row[F_FLAGS])
                    rphi, rdelta = np.int64(0), np.int64(INF)
                    state = _RETURN
                    continue
            if B[H_PLY] & 1 == ctl[C_ATTACKER]:
                _next_pairing(ctl, row, row[F_FLAGS], work)
            kind, phi, delta = expand(B, Z, ctl, row, covered, used)
            if (
                kind == _INNER
                and _restrict_to_zone(B, Z, tt, ctl, row, covered, used, zone_cache, stk[d + 1 :])
                == 0
            ):
                kind, phi, delta = _LEAF, np.int64(INF), np.int64(0)  # every move loses
            if kind == _LEAF:
                tt_put(tt, key, bits, phi, delta, 1, row[F_FLAGS])
                rphi, rdelta = phi, delta
                state = _RETURN
                continue
            _children_numbers(B, Z, tt, ctl, row)
            state = _LOOP
        elif state == _RETURN:
            if d == 0:
                _root_report(n, ctl, stk)
                ctl[C_PHI] = rphi
                ctl[C_DELTA] = rdelta
                ctl[C_STATUS] = ST_DONE
                return ST_DONE
            d -= 1
            row = stk[d]
            sel = row[F_SEL]
            take_back(B, Z, row[NF + sel], (B[H_PLY] - 1) & 1)
            row[NF + n + sel] = rphi
            row[NF + 2 * n + sel] = rdelta
            if rphi == 0 and B[H_PLY] & 1 != ctl[C_ATTACKER]:
                _cut_by_sibling(B, Z, tt, ctl, row, sel, covered, used, zone_cache, stk[d + 1 :])
            state = _LOOP
        else:  # the loop of the node at depth d: stop, or search its most proving child
            row = stk[d]
            phi, delta, best, child_thphi, child_thdelta = _most_proving_child(row, n, ctl)
            if best < 0:
                work = ctl[C_NODES] - row[F_NODES0] + 1
                tt_put(tt, np.uint64(row[F_KEY]), bits, phi, delta, work, row[F_FLAGS])
                rphi, rdelta = phi, delta
                state = _RETURN
                continue
            d = _descend(B, Z, stk, d, best, child_thphi, child_thdelta)
            state = _ENTER


@njit(**JIT)
def _solve_here(B, Z, tt, ctl, stop, stk, covered, used, zone_cache):
    """Search the position on the board until solved (INF thresholds); the root's numbers in
    ``ctl`` are kept. Returns the status and the position's numbers."""
    keep = (ctl[C_PHI], ctl[C_DELTA], ctl[C_THPHI], ctl[C_THDELTA])
    ctl[C_THPHI] = INF
    ctl[C_THDELTA] = INF
    status = search(B, Z, tt, ctl, stop, stk, covered, used, zone_cache)
    phi, delta = ctl[C_PHI], ctl[C_DELTA]
    ctl[C_PHI], ctl[C_DELTA], ctl[C_THPHI], ctl[C_THDELTA] = keep
    return status, phi, delta


@njit(**JIT)
def _child_entry(B, Z, tt, ctl, row, i):
    """``(found, phi, delta, work)`` of child ``i`` of ``row`` in the table."""
    s = B[H_PLY] & 1
    key = child_key(B, Z, np.uint64(ctl[C_TAG]), row[NF + i], s)
    return tt_get(tt, key, ctl[C_TTBITS])


@njit(**JIT)
def _search_child(B, Z, tt, ctl, stop, stk, covered, used, zone_cache, row, i):
    """Search child ``i`` of ``row`` until solved: ``(status, phi, delta)``."""
    s = B[H_PLY] & 1
    c = row[NF + i]
    place(B, Z, c, s)
    status, phi, delta = _solve_here(B, Z, tt, ctl, stop, stk, covered, used, zone_cache)
    take_back(B, Z, c, s)
    return status, phi, delta


@njit(**JIT)
def _table_child(B, Z, tt, ctl, row, want_proven):
    """The index in ``row`` of the child the table holds settled, of least work whose mover
    fails (``want_proven``), else of most work won by its mover; -1 when none."""
    pick = -1
    pick_work = np.int64(0)
    for i in range(row[F_N]):
        found, phi, delta, work, flags = _child_entry(B, Z, tt, ctl, row, i)
        if (
            found
            and (delta if want_proven else phi) == 0
            and (pick < 0 or (work < pick_work if want_proven else work > pick_work))
        ):
            pick = i
            pick_work = work
    return pick


@njit(**JIT)
def _proof_children(B, Z, tt, ctl, stop, stk, covered, used, zone_cache, row, want_proven, longest):
    """Keep in ``row`` the children a proof needs: when ``want_proven`` one child whose mover
    fails (of those the table holds, the least work; else the node is searched again, its
    entry forgotten, and df-pn's new proof gives the move; else the first child that a new
    search solves so); with ``longest`` one child won by its mover (of those the table holds,
    the most work; else the first that a new search solves so: a principal line's loser
    resisting longest by the search's measure); otherwise every child (each won by its mover,
    searched again when the table lost it). Returns a status; ST_CAP when no child fits (the
    table and a new search disagree: should not happen)."""
    count = row[F_N]
    if want_proven or longest:
        pick = _table_child(B, Z, tt, ctl, row, want_proven)
        if pick < 0 and want_proven:  # the node searched again: df-pn finds the move
            bits = ctl[C_TTBITS]
            key = canonical_key(B, Z, np.uint64(ctl[C_TAG]))
            found, phi, delta, work, flags = tt_get(tt, key, bits)
            tt_put(tt, key, bits, np.int64(1), np.int64(1), np.int64(0), np.int64(0))
            status = _solve_here(B, Z, tt, ctl, stop, stk, covered, used, zone_cache)[0]
            if status != ST_DONE:
                if found:  # the proof stays known
                    tt_put(tt, key, bits, phi, delta, work, flags)
                return status
            pick = _table_child(B, Z, tt, ctl, row, want_proven)
        if pick < 0:
            for i in range(count):
                status, phi, delta = _search_child(
                    B, Z, tt, ctl, stop, stk, covered, used, zone_cache, row, i
                )
                if status != ST_DONE:
                    return status
                if (delta if want_proven else phi) == 0:
                    pick = i
                    break
            if pick < 0:
                return ST_CAP
        row[NF] = row[NF + pick]
        row[F_N] = 1
        return ST_DONE
    for i in range(count):
        found, phi, delta, work, flags = _child_entry(B, Z, tt, ctl, row, i)
        if not found or phi != 0:
            status, phi, delta = _search_child(
                B, Z, tt, ctl, stop, stk, covered, used, zone_cache, row, i
            )
            if status != ST_DONE:
                return status
            if phi != 0:
                return ST_CAP
    return ST_DONE


@njit(**JIT)
def _node_proven(B, Z, tt, ctl, stop, stk, covered, used, zone_cache):
    """``(status, proven)`` of the position on the board, from the table or a new search."""
    found, phi, delta, work, flags = tt_get(
        tt, canonical_key(B, Z, np.uint64(ctl[C_TAG])), ctl[C_TTBITS]
    )
    if not found or (phi != 0 and delta != 0):
        status, phi, delta = _solve_here(B, Z, tt, ctl, stop, stk, covered, used, zone_cache)
        if status != ST_DONE:
            return status, False
    return ST_DONE, phi == 0


@njit(**JIT)
def _read_in(ctl, mode, question_tag, tss_tag):
    """Read the positions that follow in ``mode``: its moves, and its table entries (the
    question's tag in full mode, the threat mode's in threat mode)."""
    ctl[C_MODE] = mode
    ctl[C_TAG] = np.int64(tss_tag if mode == MODE_THREATS else question_tag)


@njit(**JIT)
def _enter_threat_proof(B, Z, tt, ctl, row, question_tag, tss_tag):
    """At a node of a proof of the attacker's win read in full mode, the attacker to move:
    when threat-space search proved it (the threat mode's entry: a threat probe's, or a
    threat-mode question's on the same table), read it and all below it in threat mode, that
    proof (``row[F_MODE]`` and ``ctl``)."""
    if ctl[C_MODE] != MODE_FULL or B[H_PLY] & 1 != ctl[C_ATTACKER]:
        return
    found, phi, delta, work, flags = tt_get(tt, canonical_key(B, Z, tss_tag), ctl[C_TTBITS])
    if found and phi == 0:
        row[F_MODE] = MODE_THREATS
        _read_in(ctl, MODE_THREATS, question_tag, tss_tag)


@njit(**JIT)
def principal_line(B, Z, tt, ctl, stop, stk, wstk, covered, used, zone_cache, out):
    """The moves of a proven position's principal line into ``out`` (``ctl[C_LINE_LEN]`` of
    them): the winner's first proving move (least work below it), the loser's reply of most
    work (of those the table holds: the loser's other replies are not searched again), down
    to the move that completes the winner's line. Returns a status."""
    row = wstk[0]
    length = 0
    status = ST_DONE
    question_tag = np.uint64(ctl[C_TAG])
    tss_tag = np.uint64(ctl[C_TSS_TAG])
    tag0, mode0 = ctl[C_TAG], ctl[C_MODE]
    while True:
        s = B[H_PLY] & 1
        row[F_FLAGS] = 0
        _enter_threat_proof(B, Z, tt, ctl, row, question_tag, tss_tag)
        _table_pairing(B, Z, tt, ctl, row)
        kind, phi, delta = expand(B, Z, ctl, row, covered, used)
        if (
            kind == _INNER
            and _restrict_to_zone(B, Z, tt, ctl, row, covered, used, zone_cache, stk) == 0
        ):
            for c in range(B[H_CELLS]):  # every move loses: any of them
                if is_playable(B, c):
                    row[NF] = c
                    row[F_N] = 1
                    break
        if kind == _LEAF:
            if B[H_EMPTY] == 0:
                break
            if phi == 0:  # the winner completes its line
                if playable_wins(B, s, row[NF:]) > 0:
                    out[length] = row[NF]
                    length += 1
                break
            # the loser: block a winning cell of the winner if it has one, else any move
            if playable_wins(B, 1 - s, row[NF:]) == 0:
                for c in range(B[H_CELLS]):
                    if is_playable(B, c):
                        row[NF] = c
                        break
            out[length] = row[NF]
            length += 1
            place(B, Z, row[NF], s)
            continue
        status, proven = _node_proven(B, Z, tt, ctl, stop, stk, covered, used, zone_cache)
        if status != ST_DONE:
            break
        status = _proof_children(
            B, Z, tt, ctl, stop, stk, covered, used, zone_cache, row, proven, not proven
        )
        if status != ST_DONE:
            break
        out[length] = row[NF]
        length += 1
        place(B, Z, row[NF], s)
    for i in range(length - 1, -1, -1):
        if B[B[H_BOARD] + out[i]] != 0:
            take_back(B, Z, out[i], B[B[H_BOARD] + out[i]] - 1)
    ctl[C_TAG], ctl[C_MODE] = tag0, mode0
    ctl[C_LINE_LEN] = length
    return status


@njit(**JIT)
def _seen_add(seen, key):
    """Insert ``key`` (non-zero) into the open-addressing set ``seen``; False if present."""
    size = seen.shape[0]
    bits = 0
    while (1 << bits) < size:
        bits += 1
    i = np.int64((key * _GOLDEN) >> np.uint64(64 - bits))
    while True:
        if seen[i] == key:
            return False
        if seen[i] == 0:
            seen[i] = key
            return True
        i = (i + 1) & (size - 1)


@njit(**JIT)
def walk(B, Z, tt, ctl, stop, stk, wstk, covered, used, zone_cache, seen):
    """Count the positions of the proof graph of a solved position (``ctl[C_SIZE]``; those
    inside threat-space proofs, :func:`_enter_threat_proof`, also in ``ctl[C_SIZE_THREATS]``):
    at a node whose mover succeeds one child where the opponent fails, at a node whose mover
    fails every child; transpositions once in each mode (a position read in both counts
    twice; ``seen``, a zeroed uint64 set of a power-of-two size
    at least twice ``ctl[C_SIZE_CAP]``). Children the table lost are searched again. Returns
    ST_DONE, ST_CAP (over ``ctl[C_SIZE_CAP]`` positions) or the status of a stopped search;
    the board is restored."""
    question_tag = np.uint64(ctl[C_TAG])
    tss_tag = np.uint64(ctl[C_TSS_TAG])
    tag0, mode0 = ctl[C_TAG], ctl[C_MODE]
    cap = ctl[C_SIZE_CAP]
    count = 0
    in_threats = 0
    d = 0
    status, proven = _node_proven(B, Z, tt, ctl, stop, stk, covered, used, zone_cache)
    if status != ST_DONE:
        return status
    wstk[0, F_WANT] = 1 if proven else 0
    wstk[0, F_MODE] = mode0
    state = _ENTER
    while True:
        if state == _ENTER:
            row = wstk[d]
            state = _LOOP
            row[F_I] = 0
            row[F_N] = 0
            row[F_FLAGS] = 0
            _read_in(ctl, row[F_MODE], question_tag, tss_tag)
            if row[F_WANT] == 1:
                _enter_threat_proof(B, Z, tt, ctl, row, question_tag, tss_tag)
            if _seen_add(seen, canonical_key(B, Z, np.uint64(ctl[C_TAG]))):
                count += 1
                in_threats += row[F_MODE] == MODE_THREATS
                if count > cap:
                    status = ST_CAP
                    break
                _table_pairing(B, Z, tt, ctl, row)
                kind, phi, delta = expand(B, Z, ctl, row, covered, used)
                if (
                    kind == _INNER
                    and _restrict_to_zone(B, Z, tt, ctl, row, covered, used, zone_cache, stk) > 0
                ):
                    status = _proof_children(
                        B,
                        Z,
                        tt,
                        ctl,
                        stop,
                        stk,
                        covered,
                        used,
                        zone_cache,
                        row,
                        row[F_WANT] == 1,
                        False,
                    )
                    if status != ST_DONE:
                        break
                else:
                    row[F_N] = 0
        elif state == _RETURN:
            if d == 0:
                break
            d -= 1
            row = wstk[d]
            _take_back_last(B, Z, row)
            state = _LOOP
        else:
            row = wstk[d]
            if row[F_I] >= row[F_N]:
                state = _RETURN
                continue
            _play_next(B, Z, row)
            d += 1
            wstk[d, F_WANT] = 1 - row[F_WANT]
            wstk[d, F_MODE] = row[F_MODE]
            state = _ENTER
    while d > 0:
        d -= 1
        _take_back_last(B, Z, wstk[d])
    ctl[C_TAG], ctl[C_MODE] = tag0, mode0
    ctl[C_SIZE] = count
    ctl[C_SIZE_THREATS] = in_threats
    return status
