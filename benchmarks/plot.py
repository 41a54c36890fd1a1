"""Turn pytest-benchmark JSON into ratio plots (needs ``pip install 'fastttt[plot]'``).

    .venv/bin/pytest benchmarks/test_bench_solver.py --benchmark-enable --benchmark-json b.json
    .venv/bin/python benchmarks/plot.py b.json -o benchmarks.svg

Speed-ups against the naive dict version (``extra_info["speedup_vs_..."]``, measured in the
same run, see ``ratio.py``) as bars; solve time and peak memory against positions
(``extra_info["positions"]``, ``extra_info["peak_rss_mib"]``) log-log. Drawing:
:func:`fastttt.views.plot.plot_benchmarks`.
"""

from __future__ import annotations

import argparse
import sys

from fastttt.errors import MissingDependencyError
from fastttt.views.plot import load_benchmarks, plot_benchmarks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", nargs="+", help="pytest-benchmark JSON files (merged)")
    parser.add_argument(
        "-o",
        "--output",
        default="benchmarks.svg",
        help="figure file: .svg, .png or .pdf (default benchmarks.svg)",
    )
    args = parser.parse_args(argv)
    try:
        benchmarks = [b for path in args.json for b in load_benchmarks(path)]
        path = plot_benchmarks(benchmarks, args.output)
    except (OSError, ValueError, MissingDependencyError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
