"""Typed errors of the public API: each says what was wrong and where."""

import math
import numbers
from collections.abc import Iterable, Mapping, Set


class FastTTTError(Exception):
    """Base class of every error fastttt raises on purpose."""


class GameSpecError(FastTTTError, ValueError):
    """A game description is invalid (unknown name, k larger than the board, size < 1, ...)."""


class InvalidPositionError(FastTTTError, ValueError):
    """A position text, code or move list does not describe a legal position of the game."""


class IllegalMoveError(InvalidPositionError):
    """A move is off the board, on a taken cell or column, or made after the game ended."""


class UnknownPlayerError(FastTTTError, ValueError):
    """A player name is not one :func:`fastttt.play.players.make_player` knows, or its depth is not
    a number >= 1."""


class SearchBudgetError(FastTTTError, RuntimeError):
    """An exact value was asked for but the position's tree does not fit the node budget."""


class MemoryBudgetError(FastTTTError, MemoryError):
    """A solve would need more memory than allowed; the message carries the estimate."""


class TableFileError(FastTTTError, OSError):
    """A saved table is missing, damaged, of another format version or of another game."""


class NoDepthError(FastTTTError, LookupError):
    """A depth (or anything made from depths) was asked of a table that holds win/draw/loss
    only (``solve --wdl``); the message names the table."""


class MissingDependencyError(FastTTTError, ImportError):
    """An optional dependency a feature needs is not installed; the message says what to
    install."""


class InvalidArgumentError(FastTTTError, ValueError):
    """An argument of a public function has the wrong type or an unsupported value (a size out
    of range, a player that is not 0 or 1, a budget that is not a positive integer, ...)."""


def require_int(value, name: str, low: int, high: int) -> int:
    """``value`` as an int when it is an integer (not a bool) in ``low..high``, else
    InvalidArgumentError naming ``name`` and the range."""
    if isinstance(value, bool) or not isinstance(value, int) and not hasattr(value, "__index__"):
        raise InvalidArgumentError(f"{name} must be an integer, got {value!r}")
    value = int(value.__index__())
    if not low <= value <= high:
        raise InvalidArgumentError(f"{name} must be in {low:,}..{high:,}, got {value:,}")
    return value


def require_number(value, name: str, low: float, high: float) -> float:
    """``value`` as a float when it is a finite real number (not a bool) in ``low..high``, else
    InvalidArgumentError naming ``name`` and the range."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidArgumentError(f"{name} must be a number, got {value!r}")
    number = float(value)
    if not (math.isfinite(number) and low <= number <= high):
        raise InvalidArgumentError(f"{name} must be in {low:,}..{high:,}, got {value!r}")
    return number


def require_type(value, kind: type, name: str):
    """``value`` when it is a ``kind``, else InvalidArgumentError naming ``name``."""
    if not isinstance(value, kind):
        raise InvalidArgumentError(
            f"{name} must be of type {kind.__name__}, got {type(value).__name__}"
        )
    return value


def require_moves(moves, kind: str = "integers"):
    """``moves`` when it is an ordered iterable (a list, tuple, range, array, iterator) of
    moves, each ``kind``; else InvalidPositionError: text, a non-iterable, or a set or a
    mapping (their order does not say who played what)."""
    if isinstance(moves, (str, bytes)) or not isinstance(moves, Iterable):
        raise InvalidPositionError(f"moves are a sequence of {kind}, got {moves!r}")
    if isinstance(moves, (Set, Mapping)):
        raise InvalidPositionError(
            f"moves must be an ordered sequence of {kind} (a list or a tuple), got a "
            f"{type(moves).__name__}, whose order does not say who played what"
        )
    return moves


class OutputFileError(FastTTTError, OSError):
    """A file fastttt was asked to write (a picture, a plot) cannot be written there."""


class DiskBudgetError(FastTTTError, OSError):
    """A solve would need, or has come to need, more disk than its folder's file system has
    free; the message says how much, and that the finished layers are kept for ``--resume``."""
