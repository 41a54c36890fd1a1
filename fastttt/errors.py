"""Typed errors of the public API: each says what was wrong and where."""


class FastTTTError(Exception):
    """Base class of every error fastttt raises on purpose."""


class GameSpecError(FastTTTError, ValueError):
    """A game description is invalid (unknown name, k larger than the board, size < 1, ...)."""


class InvalidPositionError(FastTTTError, ValueError):
    """A position text, code or move list does not describe a legal position of the game."""


class IllegalMoveError(InvalidPositionError):
    """A move is off the board, on a taken cell or column, or made after the game ended."""


class UnknownPlayerError(FastTTTError, ValueError):
    """A player name is not one :func:`fastttt.players.make_player` knows, or its depth is not
    a number >= 1."""


class SearchBudgetError(FastTTTError, RuntimeError):
    """An exact value was asked for but the position's tree does not fit the node budget."""


class MemoryBudgetError(FastTTTError, MemoryError):
    """A solve would need more memory than allowed; the message carries the estimate."""


class TableFileError(FastTTTError, OSError):
    """A saved table is missing, damaged, of another format version or of another game."""


class MissingDependencyError(FastTTTError, ImportError):
    """An optional dependency a feature needs is not installed; the message says what to
    install."""


class InvalidArgumentError(FastTTTError, ValueError):
    """An argument of a public function has the wrong type or an unsupported value (a size out
    of range, a player that is not 0 or 1, a budget that is not a positive integer, ...)."""


class OutputFileError(FastTTTError, OSError):
    """A file fastttt was asked to write (a picture, a plot) cannot be written there."""
