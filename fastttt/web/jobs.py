"""Background jobs of the web explorer: searches run on worker threads, never on the event
loop; the page polls a job for its progress and its result.

A job is a function ``work(job)`` that may set ``job.progress`` (text the page shows) and
returns a JSON-ready dict. Errors of the API (:class:`~fastttt.errors.FastTTTError`, ``ValueError``)
fail the job with their message; anything else fails it with "internal error" (and is logged).
Every job is budgeted by its caller (move values by time, players by capped parameters).
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from fastttt.errors import FastTTTError

log = logging.getLogger(__name__)

KEEP = 256  # finished jobs kept for polling; older ones are forgotten
WORKERS = 2


class Job:
    """One piece of work: ``state`` is ``running``, ``done`` or ``failed``."""

    def __init__(self, job_id: str, kind: str):
        self.id = job_id
        self.kind = kind
        self.state = "running"
        self.progress = "queued"
        self.result: dict | None = None
        self.error: str | None = None
        self.started = time.monotonic()
        self.seconds = 0.0

    def as_json(self) -> dict:
        elapsed = self.seconds if self.state != "running" else time.monotonic() - self.started
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "state": self.state,
                               "progress": self.progress, "seconds": round(elapsed, 3)}
        if self.result is not None:
            out["result"] = self.result
        if self.error is not None:
            out["error"] = self.error
        return out


class Jobs:
    """A thread pool and the jobs it ran, by id."""

    def __init__(self, workers: int = WORKERS):
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="fastttt-job")
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)

    def submit(self, kind: str, work: Callable[[Job], dict]) -> Job:
        with self._lock:
            job = Job(f"{kind}-{next(self._ids)}", kind)
            self._jobs[job.id] = job
            while len(self._jobs) > KEEP:
                self._jobs.popitem(last=False)
        self._pool.submit(self._run, job, work)
        return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    @staticmethod
    def _run(job: Job, work: Callable[[Job], dict]) -> None:
        job.progress = "started"
        try:
            job.result = work(job)
            job.state = "done"
        except (FastTTTError, ValueError) as err:
            job.error, job.state = str(err), "failed"
        except Exception:  # a bug: the page says so, the log has the traceback
            log.exception("job %s failed", job.id)
            job.error, job.state = "internal error (see the server's log)", "failed"
        job.seconds = time.monotonic() - job.started
