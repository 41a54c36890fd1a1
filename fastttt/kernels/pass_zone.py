"""The relevance zone of a full proof after a pass (Hsu et al.): kernel.

The side to move passes, and df-pn (:func:`fastttt.kernels.dfpn.search`, no relevance or
pairing zones of its own) proves the other side's goal, the *prover*'s: the attacker wins
(the defender passed) or the attacker does not win (the attacker passed;
:meth:`fastttt.search.dfpn.ProofSearch.pass_zone`). :func:`proof_zone` walks the proof the
table holds and computes, bottom up, each node's zone: cells such that a stone of the side
that passed on an empty cell m outside them leaves the node proven by the same moves. A move
m of the passer off the root's zone then fails: the prover answers as if m were not there.
Rules, for a node of the proof (k the line length, "lines" those with no stone of the other
side; the passer is "its opponent" to the prover):

- the root: the passer's winning cells (m there wins at once);
- the prover to move and a winning cell: that cell;
- the prover to move otherwise: its move (a child whose mover fails in the table; a node
  that a threat probe proved for the attacker is read in threat mode, under
  ``ctl[C_TSS_TAG]``; one that the table lost is searched again) and the child's zone;
- the passer to move: its lines of k-2 or more stones (m would give it a win now); under the
  prover's four (a winning cell: the passer's one move is the block), also the prover's
  winning cells; otherwise, where the rules of :func:`fastttt.kernels.dfpn.expand` prune its
  moves (fewer moves than empty cells) or leave it none, also the prover's lines of k-2 or
  more (the threats the pruning reads) and the passer's lines of k-3 or more (m would give
  it a new four); and the zones of all its children. (A four that the block makes with m is
  on a line of k-2 at the next node of the passer, or on a pairing leaf's pair, marked
  there.)
- when the prover is the defender, a node where a pairing blocks every open line of the
  attacker (its pairing leaves): the pairs' cells alone (a line through m keeps its pair).

A move m of the passer at a node of the proof only removes a child; the prover's moves are
in the zone, so a reached position never has m taken by the prover; and the lines above keep
every leaf and every pruning as it was. Free boards only.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fastttt.config import JIT
from fastttt.kernels.dfpn import (
    _LEAF,
    C_ATTACKER,
    C_MODE,
    C_PAIR_NODES,
    C_PAIRING,
    C_TAG,
    C_TSS_TAG,
    C_TTBITS,
    F_FLAGS,
    F_I,
    F_N,
    F_PAIR,
    F_WANT,
    FLAG_NO_PAIRING,
    MODE_FULL,
    MODE_THREATS,
    NF,
    ST_DONE,
    ST_STOPPED,
    _play_next,
    _proof_children,
    _take_back_last,
    expand,
    mark_line_cells,
    pairing_budget,
    tt_get,
)
from fastttt.kernels.lines import (
    H_CELLS,
    H_EMPTY,
    H_K,
    H_NWIN,
    H_PLY,
    H_SCRATCH,
    canonical_key,
    child_key,
)
from fastttt.kernels.stop import is_stopped
from fastttt.kernels.threats import pairing_holds

# proof_zone's outcomes
Z_FOUND, Z_NO_PROOF, Z_CAP, Z_STOPPED = 0, 1, 2, 3


@njit(**JIT)
def _proving_move(B, Z, tt, ctl, row, tag):
    """The index in ``row`` of a child whose entry under ``tag`` says its mover (the side
    that passed) fails, or -1."""
    s = B[H_PLY] & 1
    bits = ctl[C_TTBITS]
    for i in range(row[F_N]):
        found, phi, delta, work, flags = tt_get(tt, child_key(B, Z, tag, row[NF + i], s), bits)
        if found and delta == 0:
            return i
    return -1


@njit(**JIT)
def _expand_in(B, Z, ctl, row, covered, used, mode, flags):
    row[F_FLAGS] = flags
    row[F_PAIR] = 0
    ctl[C_MODE] = mode
    return expand(B, Z, ctl, row, covered, used)


@njit(**JIT)
def _pairing_leaf(B, Z, tt, ctl, covered, used, zone):
    """Does a pairing block every open line of the attacker here (the greedy pass, then at
    the attacker's turn the search that df-pn's table records for the node)? If so, mark its
    pairs' cells in ``zone``."""
    n = B[H_CELLS]
    a = ctl[C_ATTACKER]
    budget = 0
    if B[H_PLY] & 1 == a:
        found, phi, delta, work, flags = tt_get(
            tt, canonical_key(B, Z, np.uint64(ctl[C_TAG])), ctl[C_TTBITS]
        )
        budget = pairing_budget(ctl, flags if found else np.int64(0))
    held, nodes = pairing_holds(B, a, covered, used, budget)
    ctl[C_PAIR_NODES] += nodes
    if not held:
        return False
    pairs = B[H_SCRATCH] + 3 * n
    for i in range(n):
        c = B[pairs + i]
        if c < 0:
            break
        zone[c] = 1
    return True


@njit(**JIT)
def proof_zone(B, Z, tt, ctl, stop, stk, zones, covered, used, zone_cache, prover, cap):
    """The zone (module docstring) of the proof that the table holds of ``prover``'s goal
    from the board (``prover`` to move; its goal: ``ctl[C_ATTACKER]`` wins when it is the
    attacker, else does not win; full-mode entries under ``ctl[C_TAG]``, threat probes'
    under ``ctl[C_TSS_TAG]``), into ``zones[0]`` (int8, 1 on the zone's cells); ``zones``
    has a row per stack row. Returns ``(outcome, positions walked)``: Z_FOUND, Z_NO_PROOF (an
    entry lost, or a leaf where the prover fails), Z_CAP (over ``cap`` positions) or
    Z_STOPPED (the stop word). A prover's node whose proof the table lost is searched again
    (df-pn, counted in ``ctl[C_NODES]``). The board and ``ctl[C_MODE]`` are restored."""
    full_tag = np.uint64(ctl[C_TAG])
    tss_tag = np.uint64(ctl[C_TSS_TAG])
    mode0 = ctl[C_MODE]
    a = ctl[C_ATTACKER]
    q = 1 - prover  # the side that passed: its stone m is the one the zone is about
    pairings = ctl[C_PAIRING] != 0 and prover != a
    k = B[H_K]
    visited = 0
    outcome = Z_FOUND
    d = 0
    stk[0, F_WANT] = MODE_FULL
    entering = True
    while True:
        row = stk[d]
        if entering:
            entering = False
            visited += 1
            if visited > cap:
                outcome = Z_CAP
                break
            if is_stopped(stop):
                outcome = Z_STOPPED
                break
            zone = zones[d]
            zone[:] = 0
            row[F_N] = 0
            row[F_I] = 0
            if pairings and _pairing_leaf(B, Z, tt, ctl, covered, used, zone):
                continue  # m off the pairs leaves every open line of the attacker paired
            s = B[H_PLY] & 1
            mode = row[F_WANT]
            kind, phi, delta = _expand_in(
                B, Z, ctl, row, covered, used, mode, FLAG_NO_PAIRING if pairings else 0
            )
            if d == 0:
                mark_line_cells(B, q, k - 1, zone)  # m itself completes a line
            if s == q:
                mark_line_cells(B, q, k - 2, zone)
                if B[H_NWIN + prover] > 0:
                    mark_line_cells(B, prover, k - 1, zone)
                elif kind == _LEAF or row[F_N] < B[H_EMPTY]:
                    mark_line_cells(B, prover, k - 2, zone)
                    mark_line_cells(B, q, k - 3, zone)
            if kind == _LEAF:
                if (phi == 0) != (s == prover):
                    outcome = Z_NO_PROOF
                    break
                if s == prover and B[H_EMPTY] > 0:  # the winning cell expand listed first
                    zone[row[NF]] = 1
                row[F_N] = 0
            elif s == prover:
                pick = _proving_move(B, Z, tt, ctl, row, tss_tag if mode else full_tag)
                if pick < 0 and mode == MODE_FULL and prover == a:
                    found, phi, delta, work, flags = tt_get(
                        tt, canonical_key(B, Z, tss_tag), ctl[C_TTBITS]
                    )
                    if found and phi == 0:  # a threat probe proved it: read its proof
                        row[F_WANT] = MODE_THREATS
                        _expand_in(B, Z, ctl, row, covered, used, MODE_THREATS, 0)
                        pick = _proving_move(B, Z, tt, ctl, row, tss_tag)
                if pick < 0:  # the table lost the proof here: search the moves again
                    row[F_WANT] = MODE_FULL
                    _expand_in(B, Z, ctl, row, covered, used, MODE_FULL, 0)
                    status = _proof_children(
                        B,
                        Z,
                        tt,
                        ctl,
                        stop,
                        stk[d + 1 :],
                        covered,
                        used,
                        zone_cache,
                        row,
                        True,
                        False,
                    )
                    if status == ST_STOPPED:
                        outcome = Z_STOPPED
                        break
                    pick = 0 if status == ST_DONE else -1
                if pick < 0:
                    outcome = Z_NO_PROOF
                    break
                c = row[NF + pick]
                row[NF] = c
                row[F_N] = 1
                zone[c] = 1
            row[F_I] = 0
        if row[F_I] < row[F_N]:
            _play_next(B, Z, row)
            d += 1
            stk[d, F_WANT] = row[F_WANT]
            entering = True
            continue
        if d == 0:
            break
        zones[d - 1] |= zones[d]
        d -= 1
        _take_back_last(B, Z, stk[d])
    while d > 0:
        d -= 1
        _take_back_last(B, Z, stk[d])
    ctl[C_MODE] = mode0
    return outcome, visited
