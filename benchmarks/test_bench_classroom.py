"""Classroom layer: the reference dict version against fastttt.compat, in the same run.

Run: ``.venv/bin/pytest benchmarks/test_bench_classroom.py --benchmark-enable``
(add ``-m slow`` for EvaluerStrategieMiniMax_heur(9, 3), whose reference takes ~25 s).
Every timed call starts cold: the reference's memo dicts and every compat cache (graphs,
solved tables, search tables) are cleared before each round; compiled kernels stay warm
(they are compiled once in ``warm``). Benchmarks of one function share a group, so the
reference/compat ratio reads off one table.
"""

import pytest
from ratio import record, speedup

from fastttt.compat import grilles as cg
from fastttt.compat import morpion as cm
from fastttt.reference import grilles as rg
from fastttt.reference import morpion as rm

IMPLS = {"reference": rm, "compat": cm}


def cold():
    rm._G.clear()
    rm._memo_minimax.clear()
    cm.vider_caches()


@pytest.fixture(scope="module", autouse=True)
def warm():
    """Compile and load every kernel once, outside the timings."""
    for n in (2, 3, 4):
        cm.minimax_heur(("." * n * n, 0), 2, n)
        cm.strategieMiniMax_heur(("." * n * n, 0), 2, n)
    cm.jeu_OXO(3, 0)
    cm.inverse(cm.successeurs)
    cm.attracteur(0)
    cm.minimax(cm.etat_initial)
    cm.minimax(("OXOXXOXOO.......", 0))
    cg.strategie(cg.grille1)
    cm.compte_lcd("." * 9, 0, 3)
    cold()


def run(benchmark, fn, rounds=5, setup=cold):
    """Time ``fn`` cold; when the group has a reference and a compat run, report the ratio."""
    result = benchmark.pedantic(fn, setup=setup, rounds=rounds, iterations=1, warmup_rounds=0)
    name = benchmark.name
    impl = "reference" if "reference" in name else "compat"
    key = f"{benchmark.group} [{impl}]"
    if impl == "reference":
        record(key, benchmark)
    else:
        speedup(f"{benchmark.group} [reference]", key, benchmark)
    return result


def pipeline(m, n):
    successeurs = m.jeu_OXO(n, 0)[0]
    m.inverse(successeurs)
    if n == 3:
        m.attracteur(0)
        m.attracteur(1)
    return [m.minimax(s) for s in successeurs]


@pytest.mark.parametrize("impl", list(IMPLS))
@pytest.mark.parametrize("n", [2, 3])
def test_pipeline(benchmark, impl, n):
    """jeu_OXO(n, 0) + inverse + both attractors (n = 3) + minimax on every state."""
    benchmark.group = f"pipeline n={n}"
    values = run(benchmark, lambda: pipeline(IMPLS[impl], n))
    assert len(values) == {2: 29, 3: 5478}[n]


@pytest.mark.parametrize("impl", list(IMPLS))
@pytest.mark.parametrize("n", [2, 3])
def test_jeu_OXO(benchmark, impl, n):
    benchmark.group = f"jeu_OXO n={n}"
    run(benchmark, lambda: IMPLS[impl].jeu_OXO(n, 0))


@pytest.mark.parametrize("impl", list(IMPLS))
def test_attracteurs(benchmark, impl):
    """Both attractors from the (already built) globals: the graph is built in setup."""
    benchmark.group = "attracteur(0) + attracteur(1) n=3"
    m = IMPLS[impl]

    def setup():
        cold()
        m.predecesseurs  # noqa: B018  builds the graph globals

    run(benchmark, lambda: (m.attracteur(0), m.attracteur(1)), setup=setup)


@pytest.mark.parametrize("impl", list(IMPLS))
def test_heuristique_all_states(benchmark, impl):
    """heuristique(s, 0, 3) and compte_lcd on all 5478 states."""
    benchmark.group = "heuristique + compte_lcd, 5478 states"
    m = IMPLS[impl]
    states = list(rm.jeu_OXO(3, 0)[0])
    run(benchmark, lambda: [(m.heuristique(s, 0, 3), m.compte_lcd(s[0], 1, 3)) for s in states])


@pytest.mark.parametrize("impl", list(IMPLS))
@pytest.mark.parametrize("n, p", [(2, 4), (3, 5)])
def test_minimax_heur(benchmark, impl, n, p):
    benchmark.group = f"minimax_heur(empty, {p}, {n})"
    value = run(benchmark, lambda: IMPLS[impl].minimax_heur(("." * n * n, 0), p, n), rounds=3)
    assert value == cm.minimax_heur(("." * n * n, 0), p, n, "minimax")


@pytest.mark.parametrize("n, p", [(4, 4), (4, 6)])
def test_minimax_heur_compat_4x4(benchmark, n, p):
    benchmark.group = f"minimax_heur(empty, {p}, {n}) compat only"
    run(benchmark, lambda: cm.minimax_heur(("." * n * n, 0), p, n), rounds=3)


@pytest.mark.parametrize("impl", list(IMPLS))
@pytest.mark.parametrize("n, p", [(2, 3), (3, 4)])
def test_strategie_minimax_heur(benchmark, impl, n, p):
    benchmark.group = f"strategieMiniMax_heur(empty, {p}, {n})"
    run(benchmark, lambda: IMPLS[impl].strategieMiniMax_heur(("." * n * n, 0), p, n), rounds=3)


@pytest.mark.parametrize("impl", list(IMPLS))
@pytest.mark.parametrize("p", [1, 3, 5])
def test_evaluer(benchmark, impl, p, capsys):
    benchmark.group = f"EvaluerStrategieMiniMax_heur({p}, 3)"
    m = IMPLS[impl]
    rounds = 5 if p <= 3 else 1
    choix, tout = run(benchmark, lambda: m.EvaluerStrategieMiniMax_heur(p, 3), rounds=rounds)
    assert tout == [100, 276, 128]


def minimax_warm():
    """Keep what a session keeps between two calls: the reference's minimax memo (the
    handout's is module-level) and compat's solved table; clear compat's search tables."""
    cm.vider_memo()
    cm._memo.clear()


@pytest.mark.parametrize("impl", list(IMPLS))
@pytest.mark.parametrize("p", [1, 3])
def test_evaluer_minimax_warm(benchmark, impl, p, capsys):
    benchmark.group = f"EvaluerStrategieMiniMax_heur({p}, 3), minimax warm"
    m = IMPLS[impl]
    m.EvaluerStrategieMiniMax_heur(p, 3)
    run(benchmark, lambda: m.EvaluerStrategieMiniMax_heur(p, 3), rounds=5, setup=minimax_warm)


@pytest.mark.slow
@pytest.mark.parametrize("impl", list(IMPLS))
def test_evaluer_p9(benchmark, impl, capsys):
    benchmark.group = "EvaluerStrategieMiniMax_heur(9, 3)"
    m = IMPLS[impl]
    choix, tout = run(benchmark, lambda: m.EvaluerStrategieMiniMax_heur(9, 3), rounds=1)
    assert choix == [0, 140, 128]


@pytest.mark.parametrize("p", [3, 5])
def test_evaluer_compat_4x4(benchmark, p, capsys):
    benchmark.group = f"EvaluerStrategieMiniMax_heur({p}, 4) compat only"
    run(benchmark, lambda: cm.EvaluerStrategieMiniMax_heur(p, 4), rounds=1)


GRIDS = {"grille1": rg.grille1, "empty": [[0, 0, 0], [0, 0, 0], [0, 0, 0]]}


@pytest.mark.parametrize("impl", ["reference", "compat"])
@pytest.mark.parametrize("grid", list(GRIDS))
def test_grid_strategie(benchmark, impl, grid):
    """attracteur(grid) + strategie(grid) (tp-positions-gagnantes)."""
    benchmark.group = f"grilles attracteur + strategie ({grid})"
    m = {"reference": rg, "compat": cg}[impl]
    g = GRIDS[grid]
    run(benchmark, lambda: (m.attracteur(g), m.strategie(g)), setup=None)
