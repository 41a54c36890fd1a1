"""Numba's on-disk cache of the kernels, cleared when any kernel module changes.

Numba checks a cached function against its own source file only (numba issue #1833): a
kernel that inlines a function of another module kept the old one from the cache after that
module was edited (a df-pn kernel and ``threats.is_three``). So on import the kernels'
sources are stamped (each module's name, size and modification time); when the stamp differs
from the one kept in ``__pycache__``, the cache files of these modules are removed there and
the new stamp is written. Only files named after a kernel module are removed. A cache kept
elsewhere (``NUMBA_CACHE_DIR``, or Numba's user-wide folder when the package's folder is
read-only) is left alone; its sources do not change between installs. Errors are ignored:
the cache only saves compile time.
"""

from __future__ import annotations

import os
from pathlib import Path

STAMP_NAME = "kernels.stamp"
CACHE_SUFFIXES = (".nbi", ".nbc")  # Numba's index and compiled-code files


def sources_stamp(directory: Path) -> str:
    """One line per module of ``directory``: its name, size and modification time (ns)."""
    lines = []
    for path in sorted(directory.glob("*.py")):
        st = path.stat()
        lines.append(f"{path.name} {st.st_size} {st.st_mtime_ns}\n")
    return "".join(lines)


def clear_if_stale(directory: Path) -> bool:
    """Remove the Numba cache files of ``directory``'s modules from its ``__pycache__`` when
    the sources differ from the stamp kept there (or there is none), and keep the new stamp.
    True when the cache was stale."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return False
    cache = directory / "__pycache__"
    stamp_path = cache / STAMP_NAME
    try:
        stamp = sources_stamp(directory)
        if stamp_path.is_file() and stamp_path.read_text() == stamp:
            return False
        modules = {path.stem for path in directory.glob("*.py")}
        if cache.is_dir():
            for path in cache.iterdir():
                if path.suffix in CACHE_SUFFIXES and path.name.split(".", 1)[0] in modules:
                    path.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        partial = cache / f"{STAMP_NAME}.{os.getpid()}.tmp"
        partial.write_text(stamp)
        os.replace(partial, stamp_path)
    except OSError:
        return False
    return True
