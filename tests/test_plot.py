"""Benchmark plots: pytest-benchmark JSON and ``fastttt bench`` results to figures."""

from __future__ import annotations

import json
import runpy
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from fastttt.errors import MissingDependencyError
from fastttt.views.plot import (
    PLOT_EXTRA,
    load_benchmarks,
    plot_bench,
    plot_benchmarks,
    require,
    scaling,
    speedups,
)

ROOT = Path(__file__).resolve().parent.parent


def bench(name, group, seconds, **extra):
    return {
        "name": name,
        "group": group,
        "stats": {"min": seconds, "mean": seconds},
        "extra_info": extra,
    }


BENCHMARKS = [
    bench("test_tictactoe_reference_dict_pipeline", "tictactoe strong solve", 0.226),
    bench(
        "test_tictactoe_dense_solve_warm",
        "tictactoe strong solve",
        7.3e-5,
        speedup_vs_reference=3100.0,
        positions=5478,
    ),
    bench(
        "test_4x4_k4",
        "4x4 k=4",
        0.137,
        speedup_vs_prototype=3.3,
        positions=9722011,
        peak_traced_mib=12.9,
    ),
    bench(
        "test_5x4_k4_time_and_peak_memory", "5x4 k=4", 18.6, positions=674794169, peak_rss_mib=861.0
    ),
]


def test_rows_from_extra_info():
    assert [r[2] for r in speedups(BENCHMARKS)] == [3100.0, 3.3]
    assert [(p, m, k) for _, p, _, m, k in scaling(BENCHMARKS)] == [
        (5478, None, None),
        (9722011, 12.9, "traced"),
        (674794169, 861.0, "RSS"),
    ]


def test_benchmark_plot_script(tmp_path):
    pytest.importorskip("matplotlib")
    data = tmp_path / "b.json"
    data.write_text(json.dumps({"benchmarks": BENCHMARKS}))
    out = tmp_path / "plot.svg"
    argv = sys.argv
    try:
        sys.argv = ["plot.py", str(data), "-o", str(out)]
        with pytest.raises(SystemExit) as done:
            runpy.run_path(str(ROOT / "benchmarks/plot.py"), run_name="__main__")
    finally:
        sys.argv = argv
    assert done.value.code == 0
    text = ET.parse(out).getroot()
    assert text.tag.endswith("svg")
    assert len(load_benchmarks(data)) == 4


def test_bench_plot(tmp_path):
    pytest.importorskip("matplotlib")
    result = {
        "positions": [
            {"game": "connect4", "seconds": 0.01, "nodes": 12000},
            {"game": "mnk(rows=5,cols=5,k=4)", "seconds": 0.3, "nodes": 2300000},
        ],
        "nodes": 2312000,
        "nodes_per_second": 7.5e6,
    }
    path = plot_bench(result, tmp_path / "bench.png")
    assert path.read_bytes()[:4] == b"\x89PNG"
    assert plot_benchmarks([], tmp_path / "empty.svg").exists()  # panels say what is missing


def test_missing_matplotlib(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(MissingDependencyError, match=r"fastttt\[plot\]"):
        plot_benchmarks(BENCHMARKS, tmp_path / "x.svg")
    with pytest.raises(MissingDependencyError):
        require()
    assert "pip install" in PLOT_EXTRA


def test_not_a_benchmark_file(tmp_path):
    (tmp_path / "x.json").write_text("[]")
    with pytest.raises(ValueError, match="pytest-benchmark"):
        load_benchmarks(tmp_path / "x.json")


class _FakeBenchmark:
    """Enough of pytest-benchmark's fixture to run a benchmark function once, untimed."""

    def __init__(self):
        self.extra_info = {}
        self.stats = type("S", (), {"stats": type("M", (), {"min": 1.0})()})()

    def __call__(self, fn, *args, **kwargs):
        return fn(*args, **kwargs)

    def pedantic(self, fn, args=(), kwargs=None, rounds=1, iterations=1):
        return fn(*args, **(kwargs or {}))


@pytest.fixture
def bench_modules(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    yield lambda name: runpy.run_path(str(ROOT / "benchmarks" / f"{name}.py"))


def test_solver_benchmarks_record_positions_and_peak_memory(bench_modules):
    """The figures the plot's scaling and memory panels need (were never recorded)."""
    layered = bench_modules("test_bench_layered")
    run = _FakeBenchmark()
    layered["test_symmetry"](run, "4x4k4g", True)
    assert run.extra_info["positions"] == 161_029 and run.extra_info["peak_traced_mib"] > 0
    solver = bench_modules("test_bench_solver")
    run = _FakeBenchmark()
    solver["test_tictactoe_dense_solve_warm"](run)
    assert run.extra_info["positions"] == 5478 and run.extra_info["peak_traced_mib"] >= 0
    run = _FakeBenchmark()
    solver["test_warm_start"](run)
    assert run.extra_info["positions"] == 5478 and run.extra_info["peak_rss_mib"] > 10
    rows = scaling([{"name": "x", "stats": {"min": 1.0}, "extra_info": run.extra_info}])
    assert rows[0][3:] == (run.extra_info["peak_rss_mib"], "RSS")
