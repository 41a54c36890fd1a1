"""What the commands say about memory: the peak resident size so far, and the
``--max-memory`` option read as a limit in bytes."""

from __future__ import annotations

import os
import resource


def peak_rss_bytes() -> int:
    """The largest resident size this process has had, in bytes."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def physical_memory() -> int | None:
    """Bytes of RAM of this machine, None when unknown."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def memory_limit(max_memory) -> tuple[int | None, str]:
    """--max-memory in bytes, and a note for a refusal. Above this machine's physical memory
    it is capped at 90% of the memory available now (the default limit): more would end in
    MemoryError or the OOM killer."""
    if max_memory is None:
        return None, ""
    max_bytes = int(max_memory * 2**30)
    physical = physical_memory()
    if physical is not None and max_bytes > physical:
        from fastttt.memory import format_bytes
        from fastttt.tables.dense import available_memory

        cap = min(physical, int(0.9 * available_memory()))
        return cap, (
            f" (--max-memory {max_memory:g} GiB is more than this machine's "
            f"{format_bytes(physical)} of memory)"
        )
    return max_bytes, ""
