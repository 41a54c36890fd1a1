"""Worker processes (fastttt.processes): spawned, so a lock that another thread of the parent
holds is free in the child (a forked child inherits it held and waits forever); killed when
the caller leaves early."""

from __future__ import annotations

import os
import threading
import time

import pytest

from fastttt.processes import process_pool

LOCK = threading.Lock()


def lock_is_free() -> bool:
    taken = LOCK.acquire(timeout=2)
    if taken:
        LOCK.release()
    return taken


def sleep_then_pid(seconds: float, note: str | None = None) -> int:
    if note is not None:
        with open(note, "w") as f:
            f.write(str(os.getpid()))
    time.sleep(seconds)
    return os.getpid()


def test_workers_do_not_inherit_a_lock_held_by_another_thread():
    held, done = threading.Event(), threading.Event()

    def hold():
        with LOCK:
            held.set()
            done.wait()

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait()
    try:
        with process_pool(1) as pool:
            assert pool.submit(lock_is_free).result(timeout=60) is True
    finally:
        done.set()
        holder.join()


def test_leaving_normally_waits_for_the_tasks():
    with process_pool(2) as pool:
        futures = [pool.submit(sleep_then_pid, 0.2) for _ in range(4)]
    assert all(f.done() and f.result() != os.getpid() for f in futures)


def test_leaving_early_kills_the_running_tasks(tmp_path):
    note = tmp_path / "pid"

    def first_answer():
        with process_pool(2) as pool:
            slow = pool.submit(sleep_then_pid, 600, str(note))
            fast = pool.submit(sleep_then_pid, 0)
            yield fast.result(timeout=60)
            yield slow.result()

    answers = first_answer()
    next(answers)
    while not note.exists() or not note.read_text():
        time.sleep(0.05)
    answers.close()  # what a consumer that stopped reading does
    with pytest.raises(ProcessLookupError):
        os.kill(int(note.read_text()), 0)  # gone, and reaped
    with pytest.raises(StopIteration):
        next(answers)
