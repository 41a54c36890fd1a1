"""Game specs and the registry that loads them by name.

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

from collections.abc import Callable
from dataclasses import dataclass

from fastttt.errors import GameSpecError

MAX_CELLS = 64  # positions are two uint64 bitboards


@dataclass(frozen=True)
class GameSpec:
    """An m,n,k-game: ``rows`` x ``cols`` board, ``k`` in a row wins, optional gravity."""

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
        for alias, spec in _ALIASES.items():
            if spec == self:
                return alias
        suffix = ",gravity" if self.gravity else ""
        return f"mnk(rows={self.rows},cols={self.cols},k={self.k}{suffix})"

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

_ALIASES: dict[str, GameSpec] = {"tictactoe": tictactoe, "connect4": connect4}


def _load_ultimate():
    from fastttt.ultimate import ULTIMATE

    return ULTIMATE


# Games that are not m,n,k-games, loaded on first use.
_LOADERS: dict[str, Callable[..., object]] = {"ultimate": _load_ultimate}


def register(name: str, loader: Callable[..., object]) -> None:
    """Make ``load_game(name, **params)`` call ``loader(**params)``."""
    _LOADERS[name] = loader


def game_names() -> list[str]:
    """Every name ``load_game`` accepts."""
    return sorted([*_ALIASES, "mnk", "connect", *_LOADERS])


def load_game(
    name: str = "tictactoe",
    *,
    rows: int | None = None,
    cols: int | None = None,
    k: int | None = None,
    gravity: bool | None = None,
):
    """Load a game by name, optionally overriding its size.

    Names: ``tictactoe`` (3x3, k=3), ``connect4`` (6 rows x 7 cols, k=4, gravity), ``mnk``
    (needs rows, cols and k), ``connect`` (gravity; needs rows, cols and k), the compact form
    ``RxC`` / ``RxCkK`` / ``RxCkKg`` (``4x4k3``, ``5x4k4``, ``4x5k4g``: rows x cols, k defaults to
    min(rows, cols), trailing ``g`` = gravity), and registered extras such as ``ultimate``.
    """
    if not isinstance(name, str):
        raise GameSpecError(f"a game name is a string, got {name!r}")
    key = name.strip().lower().replace("-", "").replace("_", "")
    if key in _LOADERS:
        if any(v is not None for v in (rows, cols, k, gravity)):
            raise GameSpecError(f"game {name!r} takes no --rows/--cols/-k/--gravity")
        return _LOADERS[key]()
    if key in _ALIASES:
        base = _ALIASES[key]
    elif key in ("mnk", "connect"):
        missing = [n for n, v in (("rows", rows), ("cols", cols), ("k", k)) if v is None]
        if missing:
            raise GameSpecError(f"game {name!r} needs {', '.join(missing)}")
        base = mnk(rows, cols, k, gravity=(key == "connect"))  # type: ignore[arg-type]
    else:
        base = _parse_compact(key, name)
    return mnk(
        base.rows if rows is None else rows,
        base.cols if cols is None else cols,
        base.k if k is None else k,
        base.gravity if gravity is None else gravity,
    )


def as_spec(game: GameSpec | str) -> GameSpec:
    """Accept a :class:`GameSpec` or a name understood by :func:`load_game`."""
    if isinstance(game, GameSpec):
        return game
    if isinstance(game, str):
        spec = load_game(game)
        if not isinstance(spec, GameSpec):
            raise GameSpecError(f"game {game!r} is not an m,n,k-game")
        return spec
    raise GameSpecError(f"expected a GameSpec or a game name, got {game!r}")


def _parse_compact(key: str, original: str) -> GameSpec:
    import re

    match = re.fullmatch(r"(\d+)x(\d+)(?:k(\d+))?(g?)", key) or re.fullmatch(
        r"mnk\(rows=(\d+),cols=(\d+),k=(\d+)(,gravity)?\)", key
    )
    if not match:
        raise GameSpecError(
            f"unknown game {original!r}; known: {', '.join(game_names())}, or RxC[kK][g] "
            "such as 4x4k3"
        )
    if any(len(g or "") > 4 for g in match.groups()[:3]):  # int() of a huge digit string
        raise GameSpecError(f"game {original[:24]!r}...: at most {MAX_CELLS} cells are supported")
    r, c = int(match.group(1)), int(match.group(2))
    k = int(match.group(3)) if match.group(3) else min(r, c)
    return mnk(r, c, k, gravity=bool(match.group(4)))
