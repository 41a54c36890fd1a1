"""Test-run set-up shared by every test module."""

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from kernel_warmup import GROUPS

WARMUP = Path(__file__).with_name("kernel_warmup.py")


def pytest_configure(config):
    """A run started in the background by a non-interactive shell (or under nohup) inherits
    SIGINT ignored, and Python then installs no KeyboardInterrupt handler: give the run the
    handler an interactive one has, before any test, so that the Ctrl-C tests test fastttt
    and not the way the run was started."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def whole_suite_on_workers(config: pytest.Config) -> bool:
    """True in the controller of an xdist run over the configured test paths."""
    return bool(
        getattr(config.option, "numprocesses", None)
        and not hasattr(config, "workerinput")
        and config.args_source == pytest.Config.ArgsSource.TESTPATHS
    )


def pytest_sessionstart(session):
    """Before the workers start on the whole suite, compile the heaviest kernels into Numba's
    cache, a process for each group of :data:`kernel_warmup.GROUPS`, side by side: each
    worker would otherwise compile what its first tests need, both workers the same kernels
    at the same time. A warm cache takes a few seconds. A failing warm-up is reported and
    the run goes on (its tests will fail)."""
    if not whole_suite_on_workers(session.config):
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    say = reporter.write_line if reporter is not None else lambda line: print(line, file=sys.stderr)
    say(f"compiling the heaviest kernels into Numba's cache ({len(GROUPS)} processes) ...")
    start = time.perf_counter()
    runs = [
        subprocess.Popen([sys.executable, WARMUP, str(g)], stderr=subprocess.PIPE, text=True)
        for g in range(len(GROUPS))
    ]
    try:
        errors = [run.communicate()[1] for run in runs]
    finally:
        for run in runs:
            run.kill()
    for g, (run, err) in enumerate(zip(runs, errors, strict=True)):
        if run.returncode != 0:
            say(f"kernel warm-up {g} failed (exit {run.returncode}):\n{err}")
    say(f"kernels compiled or loaded in {time.perf_counter() - start:.0f} s")
