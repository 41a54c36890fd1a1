"""Threat-space search: a fast prover of wins by continuous threats (free boards).

After Allis (Go-Moku and threat-space search, 1993-94): the winner plays only threats, moves
that leave the opponent a single useful answer or a handful of them. Here, for any ``k``:

* a **four** makes a winning cell (k-1 stones and an empty cell on a line): the opponent must
  block it (or win at once, which ends the search as a failure);
* a **three** makes a double-threat cell: a cell that would give two winning cells at once.
  The opponent's answers are every cell of the intersection, over the double-threat cells
  ``g``, of ``{g}`` and ``g``'s winning cells (Allis's cost squares), plus its own fours;
  any other answer loses in three plies, so the search needs no separate verification.

The search is the proof-number search of :mod:`fastttt.search.dfpn` in its threat mode: a proof is
a proof of the real game (a win for the mover), with the winning threat line; a failure only
says that no threat sequence wins (the position may still be won by quiet moves).
Kernel: :func:`fastttt.kernels.dfpn.search` with ``MODE_THREATS``; the threats themselves:
:mod:`fastttt.kernels.threats`.
"""

from __future__ import annotations

from dataclasses import dataclass

from fastttt.errors import InvalidArgumentError, InvalidPositionError
from fastttt.search.dfpn import ProofSearch


@dataclass(frozen=True)
class ThreatResult:
    """``won``: True when the side to move wins by a threat sequence (proven), False when no
    threat sequence wins (the threat space is exhausted; the position may still be won),
    None when the budget ran out. ``line``: for a win, the moves (0-based cells) from the
    position to the completed line, the defender resisting longest by the search's measure.
    ``nodes``, ``seconds``, ``proof_size`` (positions of the proof graph, None when not
    counted)."""

    won: bool | None
    line: tuple[int, ...] | None
    nodes: int
    seconds: float
    proof_size: int | None = None


def threat_search(
    pos,
    *,
    max_nodes: int | None = None,
    seconds: float | None = None,
    proof_size: bool = True,
    searcher: ProofSearch | None = None,
) -> ThreatResult:
    """Does the side to move of ``pos`` (a live position of a free board) win by threats?
    ``max_nodes``, ``seconds``: the budget (None: none; Ctrl-C raises KeyboardInterrupt).
    ``searcher``: a :class:`~fastttt.search.dfpn.ProofSearch` of the game to share its table (one of
    a default size, 64 MiB, otherwise)."""
    spec = getattr(pos, "spec", None)
    if spec is None:
        raise InvalidArgumentError(f"expected a position, got {pos!r}")
    if spec.gravity:
        raise InvalidArgumentError("threat-space search needs a free board (no gravity)")
    if pos.is_over():
        raise InvalidPositionError(f"the game is already over in {pos!r}")
    if searcher is None:
        searcher = ProofSearch(spec, tt_bits=21)
    result = searcher.prove(
        pos,
        pos.to_move,
        mode="threats",
        max_nodes=max_nodes,
        seconds=seconds,
        proof_size=proof_size,
    )
    return ThreatResult(
        result.proven,
        result.line,
        result.nodes,
        result.seconds,
        result.proof_size if result.proven else None,
    )
