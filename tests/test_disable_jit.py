"""``NUMBA_DISABLE_JIT=1`` (the README's debugging advice) runs the search kernels and the
dense solver's as plain Python and gives the compiled kernels' answers."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from fastttt import Position, load_game
from fastttt.search.alphabeta import searcher

SCRIPT = """
import json, warnings
warnings.simplefilter("ignore")
from fastttt import Position, load_game
from fastttt.search.alphabeta import searcher
from fastttt.ultimate import Engine, UltimateState
out = {}
for name in ("tictactoe", "3x4k3g"):
    game = load_game(name)
    out[name] = searcher(game).solve(Position.empty(game)).score
out["ultimate"] = Engine(tt_bits=10).search(UltimateState.from_moves([40, 36]), max_depth=3).move
from fastttt.tables.dense import solve
table = solve("tictactoe")  # its second player's bytes once overflowed a uint8 sum
out["table"] = [table.value([]), table.depth([]), table.value([0]), table.depth([0, 4])]
print(json.dumps(out))
"""


def test_search_kernels_run_as_plain_python():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=600,
    )
    plain = json.loads(run.stdout)
    for name in ("tictactoe", "3x4k3g"):
        game = load_game(name)
        assert plain[name] == searcher(game).solve(Position.empty(game)).score
    from fastttt.ultimate import Engine, UltimateState

    state = UltimateState.from_moves([40, 36])
    assert plain["ultimate"] == Engine(tt_bits=10).search(state, max_depth=3).move
    from fastttt.tables.dense import solve

    table = solve("tictactoe")
    assert plain["table"] == [
        table.value([]),
        table.depth([]),
        table.value([0]),
        table.depth([0, 4]),
    ]
