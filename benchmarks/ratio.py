"""Speed-ups against the reference measured in the same pytest run (minimum time of each)."""

_BEST: dict[str, float] = {}


def record(name: str, benchmark) -> float:
    """Remember the best time of a finished benchmark under ``name``; return it (seconds)."""
    best = benchmark.stats.stats.min
    _BEST[name] = best
    return best


def speedup(reference: str, name: str, benchmark) -> float | None:
    """Record ``name`` and store its speed-up over ``reference`` in the benchmark's extra_info."""
    best = record(name, benchmark)
    if reference not in _BEST:
        return None
    ratio = _BEST[reference] / best
    benchmark.extra_info[f"speedup_vs_{reference}"] = round(ratio, 1)
    print(f"\n{name}: {ratio:,.0f}x faster than {reference}")
    return ratio
