"""Command-line arguments shared by the df-pn scripts of this folder: the position asked about,
df-pn's narrowing (:class:`fastttt.search.dfpn.ProofSearch`'s ``zone_nodes``,
``threat_nodes``, ``sibling_zone_work``, ``threat_probe_search`` and ``zone_probe_search``,
``prove``'s ``attacker_reach``) and its ``order_weight``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from fastttt.errors import FastTTTError, InvalidPositionError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import as_spec
from fastttt.interrupt import stop_on_terminate
from fastttt.search.dfpn import (
    DEFAULT_ORDER_WEIGHT,
    DEFAULT_PROBE_SEARCH,
    PROBE_SEARCHES,
    THREAT_OFFENCE_MAX,
    ProofSearch,
)


def add_position(parser: argparse.ArgumentParser) -> None:
    """``game``, ``--moves`` (cells played first) and ``--attacker``."""
    parser.add_argument("game", help="an m,n,k board name, e.g. 15x15k5")
    parser.add_argument("--moves", default="", help="cells played first, comma-separated")
    parser.add_argument("--attacker", type=int, default=0, help="0: does X win? 1: does O?")


def add_narrowing(parser: argparse.ArgumentParser) -> None:
    """``--zone-nodes``, ``--threat-nodes``, ``--dependent-threats``, ``--threat-offence``,
    ``--reach``, ``--sibling-work`` (0: off), ``--threat-probe-search`` and
    ``--zone-probe-search``."""
    parser.add_argument("--zone-nodes", type=int, default=0, help="relevance zones' probes")
    parser.add_argument("--threat-nodes", type=int, default=0, help="threat probes")
    parser.add_argument(
        "--dependent-threats",
        action="store_true",
        help="the probes' threes after the first only through the attacker's last stone",
    )
    parser.add_argument(
        "--threat-offence",
        type=int,
        default=0,
        choices=range(THREAT_OFFENCE_MAX + 1),
        metavar="N",
        help="in threat mode the attacker's own lines weigh 2**N times more than those it blocks"
        f" (0 to {THREAT_OFFENCE_MAX})",
    )
    parser.add_argument("--reach", type=int, default=0, help="the attacker's reach (0: none)")
    parser.add_argument(
        "--sibling-work",
        type=int,
        default=0,
        help="zones of refuted defender's moves, at nodes with this much work (0: off)",
    )
    for flag, probes in (
        ("--threat-probe-search", "threat probes"),
        ("--zone-probe-search", "zones' probes"),
    ):
        parser.add_argument(
            flag,
            default=DEFAULT_PROBE_SEARCH,
            choices=tuple(PROBE_SEARCHES),
            help=f"how the {probes} search (default {DEFAULT_PROBE_SEARCH})",
        )


def add_order_weight(parser: argparse.ArgumentParser) -> None:
    """``--order-weight``: how much dearer each later move of the order starts (0: plain)."""
    parser.add_argument(
        "--order-weight",
        type=float,
        default=DEFAULT_ORDER_WEIGHT,
        help="a new child's delta is 1 + its rank times this (0: every child starts at 1)",
    )


def position(args: argparse.Namespace) -> Position:
    """The position of ``args.game`` after ``args.moves``."""
    try:
        cells = [int(m) for m in args.moves.split(",") if m]
    except ValueError:
        raise InvalidPositionError(
            f"--moves {args.moves!r}: cells are numbers, comma-separated"
        ) from None
    return Position.from_moves(as_spec(args.game), cells)


def run(main: Callable[[], None]) -> None:
    """Call a script's ``main``: a refusal of fastttt's (a flag's value, a move, a board name)
    ends it with that one line and exit status 2, as argparse ends a bad flag. SIGTERM stops
    it as Ctrl-C does (:func:`fastttt.interrupt.stop_on_terminate`), so that a run in the
    background, where Ctrl-C is ignored, still saves its snapshots when told to stop."""
    stop_on_terminate()
    try:
        main()
    except FastTTTError as err:
        print(f"{Path(sys.argv[0]).name}: error: {err}", file=sys.stderr)
        sys.exit(2)


def narrowing(args: argparse.Namespace) -> dict:
    """The narrowing flags of :func:`add_narrowing` but the reach, by :class:`ProofSearch`'s
    (and ``ask_split``'s) argument names."""
    return {
        "zone_nodes": args.zone_nodes,
        "threat_nodes": args.threat_nodes,
        "dependent_threats": args.dependent_threats,
        "threat_offence": args.threat_offence,
        "sibling_zone_work": args.sibling_work,
        "threat_probe_search": args.threat_probe_search,
        "zone_probe_search": args.zone_probe_search,
    }


def narrowed_search(spec, args: argparse.Namespace, **more) -> ProofSearch:
    """A fresh searcher of ``args.tt_bits`` with ``args``' narrowing (and order weight, where the
    script takes one); ``more``: other :class:`ProofSearch` arguments."""
    return ProofSearch(
        spec,
        tt_bits=args.tt_bits,
        order_weight=getattr(args, "order_weight", DEFAULT_ORDER_WEIGHT),
        **narrowing(args),
        **more,
    )
