"""Progress of long work, the one convention of every command: on stderr only (stdout and
``--json`` stay as they are), and quiet for short work.

Nothing is shown for the first :data:`DELAY_SECONDS`. After that, on a terminal: one rich line
(what is being done, a bar when the total is known, counts, elapsed time), redrawn in place
and erased when the work ends. Elsewhere (a pipe, a log file): plain lines
``HH:MM:SS what: done/total unit, note (elapsed)``, one at each step but at most one every
:data:`LINE_SECONDS`, and a heartbeat line every :data:`HEARTBEAT_SECONDS` while a step runs
on. A ``poll`` callback is read on every refresh: the node count of a kernel that runs for
minutes in one call (kernels are ``nogil``, so their counters move while Python waits).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import click

DELAY_SECONDS = 1.0  # work shorter than this shows nothing
LINE_SECONDS = 1.0  # off a terminal: at most one line a second...
HEARTBEAT_SECONDS = 5.0  # ...and one at least this often while the work runs
TICK_SECONDS = 0.2  # how often the display is refreshed (and ``poll`` read)


class Progress:
    """A context showing the progress of ``what`` on stderr (see the module's convention).

    ``total`` and ``unit`` make the counts ``done/total unit`` (``done`` given by
    :meth:`update`); ``poll()`` returns a note read at every refresh (``"1,234 nodes"``);
    ``terminal`` (default: whether stderr is one) picks the rich line or plain lines."""

    def __init__(
        self,
        what: str,
        *,
        total: float | None = None,
        unit: str = "",
        poll: Callable[[], str] | None = None,
        terminal: bool | None = None,
    ):
        self.what, self.total, self.unit, self.poll = what, total, unit, poll
        self.terminal = sys.stderr.isatty() if terminal is None else terminal
        self.done: float | None = None
        self.note = ""
        self.started = time.perf_counter()
        self._lock = threading.RLock()
        self._halt = threading.Event()
        self._thread: threading.Thread | None = None
        self._bar: Any = None  # a rich Progress once shown
        self._task: Any = None
        self._last_line: float | None = None  # when the last plain line was written
        self._news = False  # an update not yet in a plain line

    def __enter__(self) -> Progress:
        self.started = time.perf_counter()
        self._show()  # at once when DELAY_SECONDS is 0
        self._thread = threading.Thread(target=self._watch, name="fastttt-progress", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._halt.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            if self._bar is not None:
                self._bar.stop()  # transient: the line goes away

    def update(
        self,
        done: float | None = None,
        total: float | None = None,
        *,
        what: str | None = None,
        note: str | None = None,
        step: bool = True,
    ) -> None:
        """``done`` of ``total`` (None: unchanged), a new ``what`` or ``note``; ``step=False``:
        a count within the current step, drawn on a terminal but left to the heartbeat off
        one (a layer's chunks: a line per layer, not per chunk)."""
        with self._lock:
            if done is not None:
                self.done = done
            if total is not None:
                self.total = total
            if what is not None:
                self.what = what
            if note is not None:
                self.note = note
            self._news = self._news or step
        self._show()

    def say(self, text: str) -> None:
        """Write the line ``text`` on stderr: above the rich line when it is shown (which stays
        below), else as it is."""
        with self._lock:
            if self._bar is not None:
                self._bar.console.print(text, markup=False, highlight=False, soft_wrap=True)
            else:
                click.echo(text, err=True)

    def text(self) -> str:
        """What the display says now: ``what: done/total unit, note, poll()``."""
        parts = []
        if self.done is not None:
            of = f"/{self.total:,}" if self.total is not None else ""
            parts.append(f"{self.done:,}{of} {self.unit}".rstrip())
        if self.note:
            parts.append(self.note)
        if self.poll is not None:
            parts.append(self.poll())
        return f"{self.what}: {', '.join(parts)}" if parts else self.what

    def _watch(self) -> None:
        while not self._halt.wait(TICK_SECONDS):
            self._show()

    def _show(self) -> None:
        with self._lock:
            now = time.perf_counter()
            elapsed = now - self.started
            if elapsed < DELAY_SECONDS or self._halt.is_set():
                return
            if self.terminal:
                self._draw()
                return
            last = self._last_line
            if (
                last is None
                or (self._news and now - last >= LINE_SECONDS)
                or now - last >= HEARTBEAT_SECONDS
            ):
                stamp = time.strftime("%H:%M:%S")
                click.echo(f"{stamp} {self.text()} ({elapsed:,.1f} s)", err=True)
                self._last_line, self._news = now, False

    def _draw(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, SpinnerColumn, TextColumn, TimeElapsedColumn
        from rich.progress import Progress as Bar

        if self._bar is None:
            self._bar = Bar(
                SpinnerColumn(),
                TextColumn("{task.description}", markup=False),
                BarColumn(),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
                redirect_stdout=False,  # stdout is the command's answer, never progress
            )
            self._bar.start()
            self._task = self._bar.add_task(self.text(), total=None)
        known = self.total is not None and self.done is not None
        self._bar.update(
            self._task,
            description=self.text(),
            total=self.total if known else None,
            completed=self.done if known else 0,
        )


def rate_text(count: float, seconds: float, unit: str) -> str:
    """``count`` per second for people (``"12.3 M slots/s"``), or ``""`` when ``seconds`` is
    under a second or nothing was counted (too little to measure a rate)."""
    if seconds < 1 or count <= 0:
        return ""
    rate = count / seconds
    for scale, prefix in ((1e9, "G "), (1e6, "M "), (1e3, "k ")):
        if rate >= scale:
            return f"{rate / scale:,.1f} {prefix}{unit}/s"
    return f"{rate:,.0f} {unit}/s"
