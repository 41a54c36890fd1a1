"""Compile the heaviest kernels into Numba's cache before a whole-suite run on workers
(``tests/conftest.py``): ``python tests/kernel_warmup.py GROUP`` for each group of
:data:`GROUPS`, the groups side by side. Each group takes about 2 minutes from a cold cache
here and a few seconds from a warm one."""

import sys
import tempfile
from pathlib import Path


def dfpn() -> None:
    from fastttt.search.dfpn import warmup

    warmup()


def dense() -> None:
    from fastttt.tables.dense import warmup

    warmup()


def alphabeta() -> None:
    from fastttt.search.alphabeta import warmup

    warmup(wide=True)


def ultimate() -> None:
    from fastttt.play.ultimate_players import warmup

    warmup()


def layered(game: str) -> None:
    from fastttt.tables.layered import solve_layered

    with tempfile.TemporaryDirectory() as folder:
        solve_layered(game, out=Path(folder) / "table", chunk=64)


GROUPS = (
    (dfpn, lambda: layered("3x3k3")),  # about 105 s and 20 s cold
    (dense, alphabeta, ultimate, lambda: layered("4x4k3g")),  # 26, 27, 20 and 30 s
)

if __name__ == "__main__":
    for warm in GROUPS[int(sys.argv[1])]:
        warm()
