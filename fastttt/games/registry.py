"""Every game by name, and the Game/State protocol that every family implements.

``load_game(name)`` returns a :class:`Game`: an m,n,k-game (free or gravity,
:class:`~fastttt.families.mnk.MnkGame`) or Ultimate tic-tac-toe (``ultimate``, ``ultimate-open``,
:class:`~fastttt.families.ultimate.UltimateGame`). Families other than m,n,k are loaded on first
use, so importing this module does not import them. The game loop, matches, players, hints, the
CLI, the pictures (:mod:`fastttt.views.svg`), the move values (:mod:`fastttt.play.move_values`) and
the web explorer go through the protocol and never ask which family a game is.

Specs and positions are plain: a spec (:class:`~fastttt.games.mnk.spec.GameSpec`,
:class:`~fastttt.games.ultimate.spec.UltimateSpec`) holds rules and geometry, a state's ``spec`` is
one. The Game protocol is a thin adapter per family that lives above the players and views it
uses; each family's adapter is registered here from above (:func:`register_family`: the package
does it when imported, ``fastttt/__init__.py``), and :func:`as_game` / :func:`game_of` find a
spec's or a state's game through it. Likewise the notebook picture of a state
(:func:`notebook_picture`) is the one the views register (:mod:`fastttt.views.svg`).

Conventions shared by every family: the first player (0, drawn X) moves first; moves are
integers in API form (0-based: a cell, a column with gravity, ``board * 9 + cell`` in Ultimate);
people type and read them through ``parse_move`` / ``format_move`` (1-based, see the README).
"""

from __future__ import annotations

import difflib
import random
import threading
from collections.abc import Callable, Iterable
from typing import Any, Protocol, runtime_checkable

from fastttt.errors import GameSpecError
from fastttt.games.mnk.spec import ALIASES, COMPACT_HELP, GameSpec, name_key, spec_from_name


@runtime_checkable
class State(Protocol):
    """A position of some game. Never mutated: ``play`` returns a new state."""

    @property
    def spec(self) -> Any:
        """Its game's spec: plain rules and geometry (:func:`game_of` gives the Game)."""

    @property
    def to_move(self) -> int:
        """0 when the first player (X) moves, 1 for the second (O)."""

    @property
    def ply(self) -> int: ...

    def legal_moves(self) -> list[int]:
        """Moves in API form, increasing; empty once the game is over."""

    def play(self, move: int) -> State: ...

    def is_over(self) -> bool: ...

    def winner(self) -> int | None:
        """0 or 1 for the side that completed a line, None otherwise (ongoing or drawn)."""

    def move_cell(self, move: int) -> int:
        """The cell that ``move`` fills (what a drawing highlights)."""


class Player(Protocol):
    name: str

    def choose(self, state: Any, rng: random.Random) -> int: ...


class SpecGame:
    """What every family's adapter shares with the plain spec it wraps (``spec``): equality and
    hash (a game equals its spec, so either keys the same caches), its name, and the grid a
    picture draws (``rows`` x ``cols``, ``gravity``)."""

    spec: Any

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SpecGame):
            return self.spec == other.spec
        if isinstance(other, type(self.spec)):
            return self.spec == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.spec)

    def __str__(self) -> str:
        return self.spec.name

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def rows(self) -> int:
        return self.spec.rows

    @property
    def cols(self) -> int:
        return self.spec.cols

    @property
    def cells(self) -> int:
        return self.spec.cells

    @property
    def gravity(self) -> bool:
        return self.spec.gravity

    def describe(self) -> str:
        return self.spec.describe()


@runtime_checkable
class Game(Protocol):
    """A game: its rules' entry points, its text forms and the players it offers."""

    @property
    def name(self) -> str:
        """The name ``load_game`` takes back."""

    @property
    def move_help(self) -> str:
        """What a person types for a move."""

    @property
    def supports_hints(self) -> bool:
        """Whether perfect-play hints exist for it."""

    @property
    def gravity(self) -> bool:
        """Whether a move is a column that a piece drops down (then a move is one number)."""

    @property
    def rows(self) -> int:
        """Rows of the grid a picture of the game draws (Ultimate: 9)."""

    @property
    def cols(self) -> int:
        """Columns of that grid (Ultimate: 9)."""

    @property
    def cells(self) -> int:
        """``rows * cols``: the cells of the grid (Ultimate: 81)."""

    def describe(self) -> str: ...

    def initial(self) -> State: ...

    def state_from_text(self, text: str) -> State:
        """Inverse of ``str(state)``."""

    def state_from_moves(self, moves: Iterable[int]) -> State: ...

    def parse_move(self, state: Any, text: str) -> int:
        """A typed move (people's numbering) in API form; raises a FastTTTError or
        IndexError saying what is wrong."""

    def format_move(self, state: Any, move: int) -> str:
        """``move`` (API form, ``state`` before it) in people's numbering."""

    def render(self, state: Any, last_cell: int | None = None, *, color: bool = False) -> str:
        """``state`` as text for a terminal, ``last_cell`` marked (with ``color``)."""

    def render_svg(
        self,
        state: Any,
        *,
        values: dict | None,
        source: str | None,
        coordinates: bool,
        last_move: int | None,
        cell: int,
        legend: bool,
    ) -> str:
        """``state`` as an SVG document; :func:`fastttt.views.svg.render` (the entry point) says
        what the arguments mean."""

    def move_values(
        self,
        state: Any,
        seconds: float,
        progress: Callable[[str], None] | None,
        cancel: threading.Event | None,
    ) -> Any:
        """The value of every legal move of ``state`` within about ``seconds``:
        :func:`fastttt.play.move_values.move_values` (the entry point) says how."""

    def player_names(self) -> tuple[str, ...]: ...

    def make_player(self, name: str) -> Player:
        """The player called ``name``; raises UnknownPlayerError."""

    def default_player(self) -> str:
        """The strongest engine that answers a move within about a second."""

    def suggested_players(self) -> list[str]:
        """What a menu of players offers, each a name ``make_player`` takes: ``human`` first,
        then engines, strongest first, each answering a move within seconds."""

    def player_caps(self) -> dict[str, int]:
        """The largest parameter each parametrised player may take to answer a move within
        about 2 s, keyed by its name pattern as ``player_names()`` writes them (``alphabeta:P``,
        ``engine:nNODES``): the cap bounds the number written in place of the capitals."""


def _ultimate() -> Any:
    from fastttt.games.ultimate.spec import ULTIMATE

    return ULTIMATE


def _ultimate_open() -> Any:
    from fastttt.games.ultimate.spec import ULTIMATE_OPEN

    return ULTIMATE_OPEN


# Games other than m,n,k-games, by normalised name, as a spec or a game; loaded on first use.
_LOADERS: dict[str, Callable[[], Any]] = {"ultimate": _ultimate, "ultimateopen": _ultimate_open}
# Each family's adapter (a spec's ``family`` -> its Game), registered from above
_FAMILIES: dict[str, Callable[[Any], Game]] = {}
# The notebook picture of a state, registered by the views (fastttt.views.svg)
_PICTURES: list[Callable[[Any], str]] = []
_DISPLAY = {"ultimate": "ultimate", "ultimateopen": "ultimate-open"}


def _key(name: str) -> str:
    return name_key(name)


def register(name: str, loader: Callable[[], Any]) -> None:
    """Make ``load_game(name)`` return ``loader()`` (a Game, or a spec of a registered family:
    then its game, :func:`as_game`)."""
    _LOADERS[_key(name)] = loader
    _DISPLAY[_key(name)] = name


def register_family(family: str, adapter: Callable[[Any], Game]) -> None:
    """Make ``adapter(spec)`` the Game of every spec whose ``family`` is ``family`` (``mnk``,
    ``ultimate``): what :func:`load_game`, :func:`as_game` and :func:`game_of` return for it.
    The adapters live above the players and views they use, so they register themselves from
    above: the package does it when imported (``fastttt/__init__.py``)."""
    _FAMILIES[family] = adapter


def register_picture(draw: Callable[[Any], str]) -> None:
    """Make ``draw(state)`` the picture a notebook shows of a state of any game
    (:func:`notebook_picture`); :mod:`fastttt.views.svg` registers its own when imported."""
    _PICTURES[:] = [draw]


def notebook_picture(state: Any) -> str | None:
    """The SVG picture a notebook shows of ``state`` (its ``_repr_svg_``): the registered
    view's (:func:`fastttt.views.svg.repr_svg`), or None (the notebook then shows its text) when no
    view has registered one."""
    return _PICTURES[0](state) if _PICTURES else None


def game_names() -> list[str]:
    """Every name ``load_game`` accepts, besides the compact m,n,k forms (``4x4k3``)."""
    return sorted([*ALIASES, "mnk", "connect", *_DISPLAY.values()])


def load_game(
    name: str = "tictactoe",
    *,
    rows: int | None = None,
    cols: int | None = None,
    k: int | None = None,
    gravity: bool | None = None,
) -> Any:
    """The game called ``name``: ``tictactoe``, ``connect4``, ``mnk`` / ``connect`` (with
    rows, cols and k), the compact form ``RxC[kK][g]`` (``4x5k4g``: rows x cols, k in a row,
    ``g`` = gravity), ``ultimate``, ``ultimate-open``, or a registered extra. Size overrides
    apply to m,n,k-games only. Raises :class:`~fastttt.errors.GameSpecError`."""
    if not isinstance(name, str):
        raise GameSpecError(f"a game name is a string, got {name!r}")
    loader = _LOADERS.get(_key(name))
    if loader is not None:
        if any(v is not None for v in (rows, cols, k, gravity)):
            raise GameSpecError(f"game {name!r} takes no --rows/--cols/-k/--gravity")
        return as_game(loader())
    try:
        spec = spec_from_name(name, rows=rows, cols=cols, k=k, gravity=gravity)
    except GameSpecError as err:
        if "unknown game" not in str(err):
            raise
        close = difflib.get_close_matches(_key(name), [_key(n) for n in game_names()], n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise GameSpecError(
            f"unknown game {name!r}; {hint}known: {', '.join(game_names())}, or {COMPACT_HELP}"
        ) from None
    return as_game(spec)


def as_game(game: Any) -> Any:
    """A game object (:class:`Game`) from itself, its spec (through its family's adapter,
    :func:`register_family`) or its name (:func:`load_game`)."""
    if isinstance(game, str):
        return load_game(game)
    adapter = _FAMILIES.get(getattr(type(game), "family", None))  # type: ignore[arg-type]
    if adapter is not None:
        return adapter(game)
    if isinstance(game, Game):
        return game
    raise GameSpecError(f"expected a game or a game name, got {game!r}")


def game_of(state: State) -> Any:
    """The game (:class:`Game`) ``state`` is a position of: its spec's, :func:`as_game`."""
    return as_game(state.spec)


__all__ = [
    "Game",
    "GameSpec",
    "Player",
    "State",
    "as_game",
    "game_names",
    "game_of",
    "load_game",
    "notebook_picture",
    "register",
    "register_family",
    "register_picture",
]
