"""Memory a computation may use: what the machine has free, and the check made before any
allocation that a user's number sizes (tables of ``2**tt_bits`` entries, solved tables)."""

from __future__ import annotations

from fastttt.errors import MemoryBudgetError

SHARE = 0.9  # of the memory available now: more would end in swapping or the OOM killer


def available_memory() -> int:
    """MemAvailable from /proc/meminfo (bytes); a large number when it cannot be read."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 1 << 62


def gib(nbytes: float) -> str:
    """``nbytes`` in GiB for messages (``32.0 GiB``)."""
    return f"{nbytes / 2**30:.1f} GiB"


def require_memory(nbytes: int, what: str) -> None:
    """Raise :class:`~fastttt.errors.MemoryBudgetError` with the estimate when ``nbytes`` for
    ``what`` (``"a 2**32-entry search table"``) exceed :data:`SHARE` of the memory available."""
    limit = int(SHARE * available_memory())
    if nbytes > limit:
        raise MemoryBudgetError(
            f"{what} needs {gib(nbytes)}; {gib(limit)} is available (90% of the free memory): "
            "ask for fewer bits"
        )
