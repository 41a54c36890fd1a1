"""Engine matches: N games between two named players, results as a dataclass and JSON.

Player A is the one given as ``--x`` and B the ``--o``. Without ``swap`` A plays X (moves first)
in every game; with ``swap`` A plays X in even-numbered games and O in odd ones. Game ``i``
draws its random choices from ``random.Random(f"{seed}/{i}")``, so one seed replays the whole
match and any single game of it. Results are counted from A's side: wins, draws, losses.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from fastttt.errors import InvalidArgumentError
from fastttt.games.registry import as_game
from fastttt.play.loop import play_game


@dataclass
class SideResult:
    """Games A played on one side, from A's view."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    plies: int = 0

    def add(self, a_result: int, plies: int) -> None:
        self.games += 1
        self.plies += plies
        if a_result > 0:
            self.wins += 1
        elif a_result < 0:
            self.losses += 1
        else:
            self.draws += 1

    @property
    def mean_plies(self) -> float:
        return self.plies / self.games if self.games else 0.0


@dataclass
class MatchResult:
    """A match between A (``players[0]``) and B (``players[1]``); counts from A's side.

    ``as_x``: games where A moved first; ``as_o``: games where B moved first (only with swap).
    ``lengths``: plies of each game, in order.
    """

    game: str
    players: tuple[str, str]
    seed: int
    swap: bool
    as_x: SideResult = field(default_factory=SideResult)
    as_o: SideResult = field(default_factory=SideResult)
    lengths: list[int] = field(default_factory=list)

    @property
    def games(self) -> int:
        return self.as_x.games + self.as_o.games

    @property
    def total(self) -> SideResult:
        t = SideResult()
        for side in (self.as_x, self.as_o):
            t.games += side.games
            t.wins += side.wins
            t.draws += side.draws
            t.losses += side.losses
            t.plies += side.plies
        return t

    @property
    def mean_plies(self) -> float:
        return self.total.mean_plies

    def to_dict(self) -> dict[str, Any]:
        sides = {"a_as_x": asdict(self.as_x), "a_as_o": asdict(self.as_o)}
        for key, side in (("a_as_x", self.as_x), ("a_as_o", self.as_o)):
            sides[key]["mean_plies"] = side.mean_plies
        return {
            "game": self.game,
            "a": self.players[0],
            "b": self.players[1],
            "games": self.games,
            "seed": self.seed,
            "swap": self.swap,
            **sides,
            "total": {**asdict(self.total), "mean_plies": self.mean_plies},
            "lengths": self.lengths,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    def table(self) -> str:
        """Aligned text table: one row per side A played, then the total."""
        a, b = self.players
        head = ("", "games", "A wins", "draws", "B wins", "mean plies")
        rows = [("A=X " + a + " vs B=O " + b, self.as_x)]
        if self.as_o.games:
            rows.append(("B=X " + b + " vs A=O " + a, self.as_o))
        rows.append(("total", self.total))
        body = [
            (label, str(s.games), str(s.wins), str(s.draws), str(s.losses), f"{s.mean_plies:.2f}")
            for label, s in rows
        ]
        widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]
        fmt = [f"{{:<{widths[0]}}}"] + [f"{{:>{w}}}" for w in widths[1:]]
        lines = ["  ".join(f.format(v) for f, v in zip(fmt, r, strict=True)) for r in [head, *body]]
        lines.insert(1, "-" * len(lines[0]))
        return "\n".join(lines)


def run_match(
    game: Any,
    a: str,
    b: str,
    games: int,
    *,
    seed: int | None = None,
    swap: bool = False,
    progress: Callable[[int], None] | None = None,
) -> MatchResult:
    """Play ``games`` games between the players named ``a`` and ``b`` (engines, not ``human``).

    ``progress(i)`` is called after each game. Raises ``ValueError`` for a non-positive
    ``games`` or a human player, :class:`~fastttt.play.players.UnknownPlayerError` for a bad name.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidArgumentError(f"the number of games must be a positive integer, got {games!r}")
    game = as_game(game)
    pa, pb = game.make_player(a), game.make_player(b)
    for p in (pa, pb):
        if getattr(p, "is_human", False):
            raise InvalidArgumentError("a match is between engines: 'human' cannot play one")
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    name = game.name
    result = MatchResult(name, (pa.name, pb.name), seed, swap)
    for i in range(games):
        a_first = not (swap and i % 2)
        players = (pa, pb) if a_first else (pb, pa)
        record = play_game(
            game.initial(),
            players,
            rng=random.Random(f"{seed}/{i}"),
            show=False,
            write=_silent,
        )
        a_side = 0 if a_first else 1
        a_result = 0 if record.winner is None else (1 if record.winner == a_side else -1)
        (result.as_x if a_first else result.as_o).add(a_result, record.plies)
        result.lengths.append(record.plies)
        if progress is not None:
            progress(i + 1)
    return result


def _silent(text: str) -> None:
    pass
