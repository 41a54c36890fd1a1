"""Known facts about solved boards (``fastttt/data/known_boards.txt``) and checking them.

Two kinds of lines: facts about a board's strong solution (reachable positions, values by
class, ...), checked against a table solve (:func:`known_boards`), and values from the
literature checked by search (``by=search``, :func:`known_values`), each with its ``source``:
a key defined on a ``# @key citation`` comment line (:func:`sources`). A second file,
``fastttt/data/known_counts.txt``, holds positions per ply (:func:`known_counts`), checked by
``fastttt count`` (:mod:`fastttt.tables.count`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from fastttt.games.mnk.spec import GameSpec
from fastttt.games.registry import load_game


@dataclass(frozen=True)
class KnownBoard:
    """One line of the facts file: a game and what is known about its solution."""

    game: str
    facts: dict = field(default_factory=dict)
    slow: bool = False

    @property
    def spec(self) -> GameSpec:
        return load_game(self.game)

    def check(self, summary: dict) -> list[str]:
        """Differences between the facts and a solve summary (``Solution.summary()``)."""
        problems = []
        for key, expected in self.facts.items():
            if key in ("terminal", "values"):
                names = (
                    ("first", "second", "draw")
                    if key == "terminal"
                    else ("first", "draw", "second")
                )
                got = "/".join(str(summary[key][n]) for n in names)
            else:
                got = str(summary[key])
            if got != expected:
                problems.append(f"{self.game}: {key} is {got}, expected {expected}")
        return problems


BOARDS_FILE = "known_boards.txt"
COUNTS_FILE = "known_counts.txt"


def _text(name: str = BOARDS_FILE) -> str:
    return resources.files("fastttt").joinpath(f"data/{name}").read_text()


def _lines(name: str = BOARDS_FILE) -> list[tuple[str, dict]]:
    """``(game, fields)`` of every fact line."""
    out = []
    for line in _text(name).splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            game, *fields = line.split()
            out.append((game, dict(f.split("=", 1) for f in fields)))
    return out


def known_boards() -> list[KnownBoard]:
    """The lines checked against a table solve (not ``by=search``)."""
    boards = []
    for game, facts in _lines():
        if facts.get("by") == "search":
            continue
        facts.pop("source", None)
        slow = facts.pop("slow", "0") == "1"
        boards.append(KnownBoard(game, facts, slow))
    return boards


@dataclass(frozen=True)
class KnownValue:
    """A game's value from the literature, checked by search (tests/test_literature.py:
    :func:`fastttt.search.portfolio.prove` on m,n,k boards, the confined df-pn of
    :mod:`fastttt.search.ultimate.proof` on Ultimate, which proves wins): ``value`` of the
    empty board (``first``, ``draw`` or ``second``); ``source``: a key of :func:`sources`;
    ``slow``: minutes (``-m slow``); ``reach``: False when beyond this project's reach (kept for
    the record: the test skips it); ``budget``: the seconds the portfolio's check may take;
    ``methods``: the portfolio's methods for it (None: all); ``tt_bits``: its df-pn table's
    size, 2**bits rows (None: the portfolio's default)."""

    game: str
    value: str
    source: str
    slow: bool = False
    reach: bool = True
    budget: float = 60.0
    methods: tuple[str, ...] | None = None
    tt_bits: int | None = None

    @property
    def spec(self) -> Any:
        """The game (:func:`fastttt.games.registry.load_game`)."""
        return load_game(self.game)


def known_values() -> list[KnownValue]:
    """The ``by=search`` lines of the facts file."""
    values = []
    for game, facts in _lines():
        if facts.get("by") != "search":
            continue
        values.append(
            KnownValue(
                game,
                facts["value"],
                facts["source"],
                facts.get("slow", "0") == "1",
                facts.get("reach") != "no",
                float(facts.get("budget", 60)),
                tuple(facts["methods"].split(",")) if "methods" in facts else None,
                int(facts["tt_bits"]) if "tt_bits" in facts else None,
            )
        )
    return values


def sources(name: str = BOARDS_FILE) -> dict[str, str]:
    """``key -> citation`` from the ``# @key citation`` lines (continued on ``#   `` lines) of
    the facts file ``name`` (:data:`BOARDS_FILE` or :data:`COUNTS_FILE`)."""
    found: dict[str, str] = {}
    key = None
    for line in _text(name).splitlines():
        if line.startswith("# @"):
            key, _, text = line[3:].partition(" ")
            found[key] = text.strip()
        elif key and line.startswith("#   "):
            found[key] += " " + line[4:].strip()
        else:
            key = None
    return found


@dataclass(frozen=True)
class KnownCounts:
    """One line of the counts file: positions of ``game`` after each ply from the empty board
    (``by_ply[n]``: after n plies, a game stopping at its first line), the same up to the
    board's symmetry where known (``classes``), the ``source`` keys (:func:`sources` of
    :data:`COUNTS_FILE`) and ``fast``: the plies the default tests count (the rest are
    checked by the slow ones, or by hand: see the file)."""

    game: str
    by_ply: tuple[int, ...]
    source: tuple[str, ...]
    classes: tuple[int, ...] | None = None
    fast: int = 0

    @property
    def spec(self) -> GameSpec:
        return load_game(self.game)


def known_counts() -> list[KnownCounts]:
    """The lines of the counts file (``fastttt/data/known_counts.txt``)."""

    def numbers(text: str) -> tuple[int, ...]:
        return tuple(int(n) for n in text.split(","))

    out = []
    for game, facts in _lines(COUNTS_FILE):
        by_ply = numbers(facts["by_ply"])
        classes = numbers(facts["classes"]) if "classes" in facts else None
        fast = int(facts.get("fast", len(by_ply) - 1))
        out.append(KnownCounts(game, by_ply, tuple(facts["source"].split(",")), classes, fast))
    return out
