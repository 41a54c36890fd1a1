"""Known facts about solved boards (``fastttt/data/known_boards.txt``) and checking them."""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources

from fastttt.games import GameSpec
from fastttt.registry import load_game


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
                names = ("first", "second", "draw") if key == "terminal" else (
                    "first", "draw", "second")
                got = "/".join(str(summary[key][n]) for n in names)
            else:
                got = str(summary[key])
            if got != expected:
                problems.append(f"{self.game}: {key} is {got}, expected {expected}")
        return problems


def known_boards() -> list[KnownBoard]:
    text = resources.files("fastttt").joinpath("data/known_boards.txt").read_text()
    boards = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        game, *fields = line.split()
        facts = dict(f.split("=", 1) for f in fields)
        slow = facts.pop("slow", "0") == "1"
        boards.append(KnownBoard(game, facts, slow))
    return boards
