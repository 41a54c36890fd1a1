"""Worker processes are spawned: a lock that another thread of the parent holds is free in the
child (a forked child would inherit it held and wait forever)."""

from __future__ import annotations

import threading

from fastttt.processes import killable_pool, process_pool

LOCK = threading.Lock()


def lock_is_free() -> bool:
    taken = LOCK.acquire(timeout=2)
    if taken:
        LOCK.release()
    return taken


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
        pool2 = killable_pool(1)
        try:
            assert pool2.apply_async(lock_is_free).get(timeout=60) is True
        finally:
            pool2.terminate()
            pool2.join()
    finally:
        done.set()
        holder.join()
