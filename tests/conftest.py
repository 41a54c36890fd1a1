"""Test-run set-up shared by every test module."""

import signal

import pytest


def pytest_configure(config):
    """A run started in the background by a non-interactive shell (or under nohup) inherits
    SIGINT ignored, and Python then installs no KeyboardInterrupt handler: give the run the
    handler an interactive one has, before any test, so that the Ctrl-C tests test fastttt
    and not the way the run was started."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture
def listed(monkeypatch):
    """``listed(*games)``: the literature file's first-player wins replaced by ``games``, the
    boards the sub-board argument (fastttt.search.subboard) may then try."""
    import fastttt.search.subboard as subboard
    from fastttt.games.facts import KnownValue

    def use(*games):
        values = [KnownValue(g, "first", "test") for g in games]
        monkeypatch.setattr(subboard, "known_values", lambda: values)

    return use
