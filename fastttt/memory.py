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


def format_bytes(n: float) -> str:
    """``n`` bytes for people: ``512 B``, ``1.5 GiB``; beyond 1024 PiB in powers of ten."""
    size = n
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if size < 1024:
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n:.1e} bytes"


def require_memory(nbytes: int, what: str, advice: str = "ask for fewer bits") -> None:
    """Raise :class:`~fastttt.errors.MemoryBudgetError` with the estimate and ``advice`` when
    ``nbytes`` for ``what`` (``"a 2**32-entry search table"``) exceed :data:`SHARE` of the
    memory available."""
    limit = int(SHARE * available_memory())
    if nbytes > limit:
        raise MemoryBudgetError(
            f"{what} needs {format_bytes(nbytes)}; {format_bytes(limit)} is available (90% of "
            f"the free memory): {advice}"
        )
