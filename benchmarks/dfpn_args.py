"""Command-line arguments shared by the df-pn scripts of this folder: the position asked about
and df-pn's narrowing (:class:`fastttt.search.dfpn.ProofSearch`'s ``zone_nodes`` and
``threat_nodes``, ``prove``'s ``attacker_reach``)."""

from __future__ import annotations

import argparse

from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import as_spec


def add_position(parser: argparse.ArgumentParser) -> None:
    """``game``, ``--moves`` (cells played first) and ``--attacker``."""
    parser.add_argument("game", help="an m,n,k board name, e.g. 15x15k5")
    parser.add_argument("--moves", default="", help="cells played first, comma-separated")
    parser.add_argument("--attacker", type=int, default=0, help="0: does X win? 1: does O?")


def add_narrowing(parser: argparse.ArgumentParser) -> None:
    """``--zone-nodes``, ``--threat-nodes`` and ``--reach`` (0: off)."""
    parser.add_argument("--zone-nodes", type=int, default=0, help="relevance zones' probes")
    parser.add_argument("--threat-nodes", type=int, default=0, help="threat probes")
    parser.add_argument("--reach", type=int, default=0, help="the attacker's reach (0: none)")


def position(args: argparse.Namespace) -> Position:
    """The position of ``args.game`` after ``args.moves``."""
    return Position.from_moves(as_spec(args.game), [int(m) for m in args.moves.split(",") if m])
