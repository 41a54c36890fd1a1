"""Ultimate tic-tac-toe ("Morpionception", the course's last handout).

Nine 3x3 boards in a 3x3 frame; moves 0..80 = board * 9 + cell, both numbered row by row;
crosses (X, player 0) move first. Rules, text form and bit layout:
:mod:`fastttt.games.ultimate.state` and :mod:`fastttt.kernels.ultimate`. Engine and scores (side to
move; "win in N" / "draw" / "loss in N" / "estimate"): :mod:`fastttt.search.ultimate.engine`.
Players by name: :func:`make_player`. Drawing and human input: :mod:`fastttt.views.ultimate_text`.
"""

from __future__ import annotations

from fastttt.games.ultimate.spec import ULTIMATE, ULTIMATE_OPEN, UltimateSpec
from fastttt.games.ultimate.state import UltimateState
from fastttt.play.ultimate_players import PLAYER_NAMES, make_player, warmup
from fastttt.search.ultimate.engine import (
    MATE,
    MATE_BOUND,
    Coeffs,
    Engine,
    SearchResult,
    evaluate,
    solve_exact,
)
from fastttt.views.ultimate_text import MOVE_HELP, format_move, parse_move, render

__all__ = [
    "MATE",
    "MATE_BOUND",
    "MOVE_HELP",
    "PLAYER_NAMES",
    "ULTIMATE",
    "ULTIMATE_OPEN",
    "Coeffs",
    "Engine",
    "SearchResult",
    "UltimateSpec",
    "UltimateState",
    "evaluate",
    "format_move",
    "make_player",
    "parse_move",
    "render",
    "solve_exact",
    "warmup",
]
