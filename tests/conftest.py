"""Test-run set-up shared by every test module."""

import signal


def pytest_configure(config):
    """A run started in the background by a non-interactive shell (or under nohup) inherits
    SIGINT ignored, and Python then installs no KeyboardInterrupt handler: give the run the
    handler an interactive one has, before any test, so that the Ctrl-C tests test fastttt
    and not the way the run was started."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
