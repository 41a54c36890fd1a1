"""Compile the heaviest kernels into Numba's cache before a whole-suite run on workers
(``tests/conftest.py``): ``python tests/kernel_warmup.py GROUP`` for each group of
:data:`GROUPS`, the groups side by side. Each group takes under 2 minutes from a cold cache
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


def layered() -> None:
    from fastttt.tables.layered import solve_layered

    with tempfile.TemporaryDirectory() as folder:
        for game in ("3x3k3", "3x3k3g"):
            solve_layered(game, out=Path(folder) / game, chunk=64)


GROUPS = (  # seconds from a cold cache here
    (dfpn,),  # about 105
    (dense, alphabeta, ultimate, layered),  # 26, 27, 20 and 25
)

if __name__ == "__main__":
    for warm in GROUPS[int(sys.argv[1])]:
        warm()
