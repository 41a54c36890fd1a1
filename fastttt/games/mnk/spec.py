"""m,n,k game specs (free and gravity): the geometry, stated once, and the names boards go by
(``tictactoe``, ``4x5k4g``, ``connect4``); :mod:`fastttt.games.registry` loads every game by name.

Geometry convention, used everywhere in fastttt: a board has ``rows`` horizontal rows and
``cols`` vertical columns (``rows x cols``, so "5x4" is 5 rows of 4 cells). Cells are numbered
row by row from the top-left corner, as in the handouts::

    cell = row * cols + col          (row 0 is the top row, col 0 the leftmost column)

    rows=3, cols=4:   0  1  2  3
                      4  5  6  7
                      8  9 10 11

With ``gravity`` a piece drops to the lowest empty cell of its column (the highest row number),
as in Connect Four; a move is then a column. ``k`` stones in a row, column or diagonal win.
The first player moves first and is drawn ``X``; the second player is drawn ``O``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from fastttt.errors import GameSpecError

MAX_CELLS = 1024  # positions are Python-int bitboards; the tables and the 64-bit search
# take boards of at most 64 cells, exact search (fastttt.search.alphabeta.WideSearcher) any up to
# this


@dataclass(frozen=True)
class GameSpec:
    """An m,n,k-game: ``rows`` x ``cols`` board, ``k`` in a row wins, optional gravity.

    Plain rules and geometry: its positions are :class:`fastttt.games.mnk.board.Position`
    (``Position.empty(spec)``), and the Game protocol (positions made, players, pictures, move
    values, move text) is :class:`fastttt.families.mnk.MnkGame`'s, which wraps a spec;
    ``load_game`` returns one (equal to its spec, with the same hash)."""

    family: ClassVar[str] = "mnk"  # the adapter fastttt.games.registry.as_game finds for it
    rows: int
    cols: int
    k: int
    gravity: bool = False

    def __post_init__(self) -> None:
        for field, value in (("rows", self.rows), ("cols", self.cols), ("k", self.k)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise GameSpecError(f"{field} must be an integer, got {value!r}")
            if value < 1:
                raise GameSpecError(f"{field} must be at least 1, got {value}")
        if not isinstance(self.gravity, bool):
            raise GameSpecError(f"gravity must be True or False, got {self.gravity!r}")
        if self.k > max(self.rows, self.cols):
            raise GameSpecError(
                f"k={self.k} is larger than the board ({self.rows} rows x {self.cols} cols): "
                "nobody could ever win"
            )
        if self.rows * self.cols > MAX_CELLS:
            raise GameSpecError(
                f"{self.rows}x{self.cols} has {self.rows * self.cols} cells; at most "
                f"{MAX_CELLS} are supported"
            )

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def name(self) -> str:
        """``tictactoe``, ``connect4``, else ``mnk(rows=R,cols=C,k=K[,gravity])``."""
        for alias, spec in ALIASES.items():
            if spec == self:
                return alias
        suffix = ",gravity" if self.gravity else ""
        return f"mnk(rows={self.rows},cols={self.cols},k={self.k}{suffix})"

    @property
    def short_name(self) -> str:
        """``tictactoe``, ``connect4``, else the compact form ``RxCkK`` (``g``: gravity)."""
        if self.name.isalnum():
            return self.name
        return f"{self.rows}x{self.cols}k{self.k}{'g' if self.gravity else ''}"

    def __str__(self) -> str:
        return self.name

    def describe(self) -> str:
        """Human-readable one-liner, e.g. ``5 rows x 4 cols, 4 in a row, gravity``."""
        grav = ", gravity" if self.gravity else ""
        return f"{self.rows} rows x {self.cols} cols, {self.k} in a row{grav}"


def mnk(rows: int, cols: int, k: int, gravity: bool = False) -> GameSpec:
    """The m,n,k-game on ``rows`` x ``cols`` cells with ``k`` in a row to win."""
    return GameSpec(rows, cols, k, gravity)


tictactoe = mnk(3, 3, 3)
connect4 = mnk(6, 7, 4, gravity=True)

ALIASES: dict[str, GameSpec] = {"tictactoe": tictactoe, "connect4": connect4}
# other names people write, after name_key: Connect Four's in words, and the French classroom's
SYNONYMS: dict[str, str] = {"connectfour": "connect4", "morpion": "tictactoe"}
COMPACT_HELP = "RxC[kK][g] such as 4x4k3 (rows x cols, k in a row, g = gravity)"


def spec_from_name(
    name: str,
    *,
    rows: int | None = None,
    cols: int | None = None,
    k: int | None = None,
    gravity: bool | None = None,
) -> GameSpec:
    """The m,n,k-game called ``name``, with optional overrides (see
    :func:`fastttt.games.registry.load_game`, which also knows the other families)."""
    if not isinstance(name, str):
        raise GameSpecError(f"a game name is a string, got {name!r}")
    key = name_key(name)
    key = SYNONYMS.get(key, key)
    if key in ALIASES:
        base = ALIASES[key]
    elif key in ("mnk", "connect"):
        missing = [n for n, v in (("rows", rows), ("cols", cols), ("k", k)) if v is None]
        if missing:
            raise GameSpecError(f"game {name!r} needs {', '.join(missing)}")
        base = mnk(rows, cols, k, gravity=(key == "connect"))  # type: ignore[arg-type]
    else:
        base = _parse_compact(name.strip().lower(), name)
    return mnk(
        base.rows if rows is None else rows,
        base.cols if cols is None else cols,
        base.k if k is None else k,
        base.gravity if gravity is None else gravity,
    )


def name_key(name: str) -> str:
    """A game name as looked up among the named games: case, spaces, ``-`` and ``_`` dropped
    (``Connect-Four``, ``connect_four``). The compact forms (``4x4k3``) are read as written:
    ``-`` there is a sign, and refused."""
    return name.strip().lower().replace("-", "").replace("_", "").replace(" ", "")


def game_fields(spec: GameSpec) -> dict:
    """The canonical form of a game in a file header: ``{"rows", "cols", "k", "gravity"}``
    (what ``GameSpec(**fields)`` and :func:`mnk` take back)."""
    return {"rows": spec.rows, "cols": spec.cols, "k": spec.k, "gravity": spec.gravity}


def as_spec(game: Any) -> GameSpec:
    """Accept a :class:`GameSpec`, a game that wraps one (``load_game``'s
    :class:`~fastttt.families.mnk.MnkGame`: its ``spec``) or the name of an m,n,k-game
    (:func:`spec_from_name`)."""
    if isinstance(game, GameSpec):
        return game
    if isinstance(getattr(game, "spec", None), GameSpec) and hasattr(game, "initial"):
        return game.spec  # a game, not a position (which has a spec too)
    if isinstance(game, str):
        return spec_from_name(game)
    raise GameSpecError(f"expected a GameSpec or a game name, got {game!r}")


def _parse_compact(key: str, original: str) -> GameSpec:
    import re

    match = re.fullmatch(r"(\d+)x(\d+)(?:k(\d+))?(g?)", key) or re.fullmatch(
        r"mnk\(rows=(\d+),cols=(\d+),k=(\d+)(,gravity)?\)", key
    )
    if not match:
        raise GameSpecError(
            f"unknown game {original!r}: not an m,n,k-game (tictactoe, connect4, mnk, connect, "
            f"or {COMPACT_HELP}, positive whole numbers)"
        )
    if any(len((g or "").lstrip("0")) > 4 for g in match.groups()[:3]):  # int() of a huge string
        raise GameSpecError(f"game {original[:24]!r}...: at most {MAX_CELLS} cells are supported")
    r, c = int(match.group(1)), int(match.group(2))
    k = int(match.group(3)) if match.group(3) else min(r, c)
    return mnk(r, c, k, gravity=bool(match.group(4)))
