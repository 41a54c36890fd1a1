"""Background jobs of the web explorer: searches run on worker threads, never on the event
loop; the page polls a job for its progress and its result, and cancels a job it no longer
needs.

A job is a function ``work(job)`` that may set ``job.progress`` (text the page shows) and
returns a JSON-ready dict. Its ``state`` is ``running``, then one of ``done``, ``failed``
(errors of the API, :class:`~fastttt.errors.FastTTTError` or ``ValueError``, give their
message; anything else "internal error", logged), ``cancelled`` (:meth:`Jobs.cancel`) or
``timeout`` (still running ``limit`` seconds after it started). The last two are final at
once: ``job.halt`` is set, and a watchdog thread calls the stop functions the work
registered (:meth:`Job.stopping`, e.g. a player's ``stop``) every :data:`TICK` seconds until
the work returns, so a search stops within milliseconds and frees its worker; what it
returns then is dropped.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from fastttt.errors import FastTTTError

log = logging.getLogger(__name__)

KEEP = 256  # finished jobs kept for polling; older ones are forgotten
WORKERS = 4
TICK = 0.02  # seconds between the watchdog's rounds


class Halted(Exception):
    """Raised by work that finds its job halted (``job.halt``): the job keeps its state."""


class Job:
    """One piece of work, stopped ``limit`` seconds after it starts (see the module docstring);
    ``what`` names it in the timeout message."""

    def __init__(self, job_id: str, kind: str, limit: float, what: str):
        self.id = job_id
        self.kind = kind
        self.limit = limit
        self.what = what
        self.state = "running"
        self.progress = "queued"
        self.result: dict | None = None
        self.error: str | None = None
        self.started: float | None = None
        self.seconds = 0.0
        self.halt = threading.Event()  # set when the job is cancelled or out of time
        self.working = False  # its work function is running on a worker
        self._stops: list[Callable[[], None]] = []
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def stopping(self, stop: Callable[[], None]) -> Iterator[None]:
        """While the block runs, ``stop()`` is called again and again once the job halts."""
        with self._lock:
            self._stops.append(stop)
        try:
            yield
        finally:
            with self._lock:
                self._stops.remove(stop)

    def end(self, state: str, result: dict | None = None, error: str | None = None) -> bool:
        """Record the job's final state, unless it has one already; True if this call did."""
        with self._lock:
            if self.state != "running":
                return False
            self.state, self.result, self.error = state, result, error
            if self.started is not None:
                self.seconds = time.monotonic() - self.started
        if state in ("cancelled", "timeout"):
            self.halt.set()
        return True

    def fire(self) -> None:
        with self._lock:
            stops = list(self._stops)
        for stop in stops:
            stop()

    def as_json(self) -> dict:
        if self.state == "running" and self.started is not None:
            elapsed = time.monotonic() - self.started
        else:
            elapsed = self.seconds
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "state": self.state,
            "progress": self.progress,
            "seconds": round(elapsed, 3),
        }
        if self.result is not None:
            out["result"] = self.result
        if self.error is not None:
            out["error"] = self.error
        return out


class Jobs:
    """A thread pool, the jobs it ran by id, and the watchdog that stops late jobs."""

    def __init__(self, workers: int = WORKERS):
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="fastttt-job")
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._closed = threading.Event()
        self._watchdog = threading.Thread(target=self._watch, name="fastttt-watchdog", daemon=True)
        self._watchdog.start()

    def submit(
        self, kind: str, work: Callable[[Job], dict], limit: float, what: str = "the search"
    ) -> Job:
        """Queue ``work``; it is stopped ``limit`` seconds after it starts."""
        with self._lock:
            job = Job(f"{kind}-{next(self._ids)}", kind, limit, what)
            self._jobs[job.id] = job
            while len(self._jobs) > KEEP:
                self._jobs.popitem(last=False)
        self._pool.submit(self._run, job, work)
        return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        """Cancel a job (a no-op on a finished one); None when there is no such job."""
        job = self.get(job_id)
        if job is not None and job.end("cancelled", error="cancelled"):
            job.fire()
        return job

    def shutdown(self) -> None:
        self._closed.set()
        with self._lock:
            jobs = list(self._jobs.values())
        for job in jobs:
            if job.end("cancelled", error="the server is shutting down"):
                job.fire()
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _watch(self) -> None:
        while not self._closed.wait(TICK):
            now = time.monotonic()
            with self._lock:
                jobs = [j for j in self._jobs.values() if j.working]
            for job in jobs:
                if job.started is not None and now - job.started > job.limit:
                    job.end(
                        "timeout",
                        error=f"{job.what} did not finish within "
                        f"{job.limit:g} s (the server's limit): it was stopped",
                    )
                if job.halt.is_set():
                    job.fire()

    @staticmethod
    def _run(job: Job, work: Callable[[Job], dict]) -> None:
        if job.halt.is_set():  # cancelled while queued
            return
        job.started = time.monotonic()
        job.progress = "started"
        job.working = True
        try:
            result = work(job)
        except (FastTTTError, ValueError) as err:
            job.end("failed", error=str(err))
        except Exception:  # stopped (its work may fail then), or a bug: the log has it
            if not job.halt.is_set():
                log.exception("job %s failed", job.id)
                job.end("failed", error="internal error (see the server's log)")
        else:
            job.end("done", result=result)
        finally:
            job.working = False
