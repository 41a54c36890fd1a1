"""Plots of benchmark results, with matplotlib (the ``plot`` extra: ``pip install
'fastttt[plot]'``); the figure's format follows the file name (``.svg``, ``.png``, ``.pdf``).

:func:`plot_benchmarks` reads pytest-benchmark JSON (``pytest benchmarks/ --benchmark-enable
--benchmark-json FILE``) and draws, from what the benchmarks recorded in ``extra_info``:

- speed-ups against the reference (the handouts' naive dict version, or the prototype a
  benchmark names): every ``speedup_vs_<reference>`` entry, one bar per benchmark, log scale;
- solve time against positions, log-log: benchmarks with ``positions`` (or ``reachable``),
  time = the minimum of the rounds;
- peak memory against positions, log-log: those that also have ``peak_rss_mib`` (a whole
  process's peak resident set) or ``peak_traced_mib`` (the peak of what Python and NumPy
  allocated during a solve in the benchmark's own process, ``tracemalloc``); the legend says
  which (``RSS`` or ``traced``).

:func:`plot_bench` draws a ``fastttt bench`` result (:func:`fastttt.cli.bench.run_bench`):
nodes against time per position, log-log, one colour per game.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from fastttt.errors import InvalidArgumentError, MissingDependencyError, OutputFileError
from fastttt.files import check_picture_target, write_atomic

PLOT_EXTRA = "plots need the plot extra: pip install 'fastttt[plot]' (matplotlib)"


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise MissingDependencyError(PLOT_EXTRA) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def require() -> None:
    """Raise :class:`MissingDependencyError` now when matplotlib is missing (call it before a
    long run whose result is to be plotted)."""
    _pyplot()


def load_benchmarks(path: str | Path) -> list[dict]:
    """The ``benchmarks`` list of a pytest-benchmark JSON file."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise InvalidArgumentError(
            f"{path}: not a pytest-benchmark JSON file (no 'benchmarks' list)"
        )
    return data["benchmarks"]


def _label(bench: dict) -> str:
    group = bench.get("group") or ""
    name = bench.get("name", "?").removeprefix("test_")
    return f"{group}: {name}" if group else name


def speedups(benchmarks: list[dict]) -> list[tuple[str, str, float]]:
    """(benchmark, reference, speed-up) for every ``speedup_vs_<reference>`` entry."""
    rows = []
    for bench in benchmarks:
        for key, value in (bench.get("extra_info") or {}).items():
            if key.startswith("speedup_vs_") and isinstance(value, (int, float)) and value > 0:
                rows.append((_label(bench), key.removeprefix("speedup_vs_"), float(value)))
    return rows


MEMORY_KEYS = (("peak_rss_mib", "RSS"), ("peak_traced_mib", "traced"))


def scaling(benchmarks: list[dict]) -> list[tuple[str, int, float, float | None, str | None]]:
    """(benchmark, positions, seconds, peak MiB or None, ``"RSS"``, ``"traced"`` or None) for
    benchmarks that count positions (:data:`MEMORY_KEYS`: the first memory figure recorded)."""
    rows = []
    for bench in benchmarks:
        info = bench.get("extra_info") or {}
        positions = info.get("positions", info.get("reachable"))
        if isinstance(positions, (int, float)) and positions > 0:
            peak, kind = next(
                (
                    (float(info[key]), kind)
                    for key, kind in MEMORY_KEYS
                    if isinstance(info.get(key), (int, float))
                ),
                (None, None),
            )
            rows.append((_label(bench), int(positions), float(bench["stats"]["min"]), peak, kind))
    return rows


def plot_benchmarks(benchmarks: list[dict], path: str | Path) -> Path:
    """Speed-up bars and log-log scaling plots of ``benchmarks`` (see the module docstring),
    written to ``path``; panels without data say which ``extra_info`` field they need."""
    plt = _pyplot()
    ups, sizes = speedups(benchmarks), scaling(benchmarks)
    fig, axes = plt.subplots(1, 3, figsize=(17, max(4.5, 0.35 * len(ups) + 1.5)))
    bars, times, memory = axes
    if ups:
        labels = [f"{name}  (vs {ref})" for name, ref, _ in ups]
        bars.barh(range(len(ups)), [r for *_, r in ups], color="#2E7D32")
        bars.set_yticks(range(len(ups)), labels, fontsize=8)
        bars.set_xscale("log")
        bars.axvline(1, color="#555555", lw=0.8)
        for i, (*_, ratio) in enumerate(ups):
            bars.text(
                ratio,
                i,
                f" {ratio:,.0f}x" if ratio >= 10 else f" {ratio:.1f}x",
                va="center",
                fontsize=8,
            )
        bars.invert_yaxis()
    _empty(bars, not ups, "speedup_vs_<reference>")
    bars.set_title("speed-up against the reference, same run")
    for ax, rows, unit, title in (
        (times, [(n, p, s) for n, p, s, *_ in sizes], "solve time (s)", "solve time"),
        (
            memory,
            [(f"{n} ({k})", p, m) for n, p, _, m, k in sizes if m is not None],
            "peak memory (MiB)",
            "peak memory",
        ),
    ):
        for name, positions, y in rows:
            ax.loglog([positions], [y], "o", label=name)
        ax.set_xlabel("positions")
        ax.set_ylabel(unit)
        ax.set_title(f"{title} against positions (log-log)")
        if rows:
            ax.legend(fontsize=7)
            ax.grid(True, which="both", alpha=0.3)
        _empty(
            ax,
            not rows,
            "positions" + (" and peak_rss_mib or peak_traced_mib" if ax is memory else ""),
        )
    fig.tight_layout()
    return _save(fig, plt, path)


def plot_bench(result: dict[str, Any], path: str | Path) -> Path:
    """Nodes against seconds for each position of a ``fastttt bench`` result, log-log, one
    colour per game; the title carries the total node count and the speed."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 5))
    games: dict[str, list[tuple[float, int]]] = {}
    for row in result["positions"]:
        games.setdefault(row["game"], []).append((max(row["seconds"], 1e-7), max(row["nodes"], 1)))
    for game, points in games.items():
        ax.loglog([s for s, _ in points], [n for _, n in points], "o", label=game)
    ax.set_xlabel("seconds per position")
    ax.set_ylabel("nodes")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(
        f"Bench: {result['nodes']:,} nodes, {result['nodes_per_second'] / 1e6:.2f} M nodes/s"
    )
    fig.tight_layout()
    return _save(fig, plt, path)


def _empty(ax, empty: bool, field: str) -> None:
    if empty:
        ax.text(
            0.5,
            0.5,
            f"no benchmark recorded\nextra_info {field}",
            ha="center",
            va="center",
            transform=ax.transAxes,
            color="#777777",
        )


PLOT_SUFFIXES = (".svg", ".png", ".pdf")


def check_plot_target(path: str | Path) -> Path:
    """OutputFileError unless ``path`` can take a plot (a suffix of PLOT_SUFFIXES; see
    :func:`fastttt.files.check_picture_target`); call it before a long run."""
    return check_picture_target(path, PLOT_SUFFIXES, OutputFileError)


def _save(fig, plt, path: str | Path) -> Path:
    path = check_plot_target(path)
    buffer = io.BytesIO()
    suffix = path.suffix.lower()
    fig.savefig(buffer, format=suffix[1:], metadata={"Date": None} if suffix == ".svg" else None)
    plt.close(fig)
    return write_atomic(path, lambda f: f.write(buffer.getvalue()), OutputFileError)
