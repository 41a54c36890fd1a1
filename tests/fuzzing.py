"""Hypothesis settings of the fuzz modules: ``fuzz(n)`` runs ``n`` examples in the default
suite, ``n * FASTTTT_FUZZ_SCALE`` when that variable is set (the slow tests' long runs)."""

import os

from hypothesis import HealthCheck, settings

SCALE = int(os.environ.get("FASTTTT_FUZZ_SCALE", "1"))


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
    )


def long_run(module: str, scale: int = 30) -> None:
    """Run the default tests of ``module`` (a path) in a child pytest with ``scale`` times the
    examples; fail with its output when they fail."""
    import subprocess
    import sys

    child = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow", module],
        env={**os.environ, "FASTTTT_FUZZ_SCALE": str(scale)},
        capture_output=True,
        text=True,
    )
    assert child.returncode == 0, child.stdout[-5000:] + child.stderr[-2000:]
