"""Numba's on-disk cache of the kernels, cleared when any kernel module changes.

Numba checks a cached function against its own source file only (numba issue #1833): a
kernel that inlines a function of another module kept the old one from the cache after that
module was edited (a df-pn kernel and ``threats.is_three``). So importing
:mod:`fastttt.config` (every kernel module does) stamps the kernel modules and the config,
whose options every kernel compiles with (each file's name, size and modification time);
when the stamp differs from the one kept in the kernels' ``__pycache__``, the cache files of
the kernel modules are removed there and the new stamp is written. Only files named after a
kernel module are removed. A cache kept elsewhere (``NUMBA_CACHE_DIR``, or Numba's user-wide
folder when the package's folder is read-only) is left alone. Errors are ignored: the cache
only saves compile time.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path

STAMP_NAME = "kernels.stamp"
CACHE_SUFFIXES = (".nbi", ".nbc")  # Numba's index and compiled-code files


def sources_stamp(sources: Iterable[Path]) -> bytes:
    """One line per file of ``sources``: its name, size and modification time (ns)."""
    lines = []
    for path in sources:
        st = path.stat()
        lines.append(f"{path.name} {st.st_size} {st.st_mtime_ns}\n")
    return "".join(lines).encode()


def clear_if_stale(kernels: Path, also: Iterable[Path] = ()) -> bool:
    """Remove the Numba cache files of the modules in the folder ``kernels`` from its
    ``__pycache__`` when they, or the files ``also``, differ from the stamp kept there (or
    there is none), and keep the new stamp. True when the cache was cleared."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return False
    cache = kernels / "__pycache__"
    stamp_path = cache / STAMP_NAME
    partial = cache / f"{STAMP_NAME}.{os.getpid()}.tmp"
    try:
        modules = sorted(kernels.glob("*.py"))
        stamp = sources_stamp([*modules, *also])
        if stamp_path.is_file() and stamp_path.read_bytes() == stamp:
            return False
        names = {path.stem for path in modules}
        if cache.is_dir():
            for path in cache.iterdir():
                if path.suffix in CACHE_SUFFIXES and path.name.split(".", 1)[0] in names:
                    path.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        partial.write_bytes(stamp)
        os.replace(partial, stamp_path)
    except OSError:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        return False
    return True
