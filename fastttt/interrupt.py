"""Ctrl-C that stops Numba kernels: :func:`run` calls a kernel that polls a stop word.

Python delivers SIGINT as ``KeyboardInterrupt`` only between bytecodes, so a kernel that
runs for a minute would ignore Ctrl-C for a minute. Under :func:`run`, a watcher thread,
woken by the signal through :func:`signal.set_wakeup_fd`, writes the running kernel's stop
word: one slot of an array that the kernel reads between bounded pieces of work (a search
node, a playout). The kernel then unwinds without storing anything it computed after the
word was set (tables and caches stay valid), and :func:`run` raises ``KeyboardInterrupt``
instead of returning its partial result. Kernels are ``nogil`` (:mod:`fastttt.config`), so
the watcher runs while they do. Work that splits into bounded kernel calls (the dense solve,
:mod:`fastttt.tables.dense`) needs none of this: Python delivers Ctrl-C between the calls.

One Ctrl-C raises one ``KeyboardInterrupt``, whichever of two paths sees it first: Python's
SIGINT handler (wrapped, it still raises) or the watcher (through :func:`run`). Both count the
signals they saw, and a ``KeyboardInterrupt`` raised for them pays for all seen so far: the
other path then raises nothing more, and the watcher stops no kernel for a signal already
raised. The watcher's path also covers a handler that runs late (the main thread runs it
only when it next checks for signals): :func:`run` raises at its start for a signal the
watcher saw and nothing raised yet. A ``KeyboardInterrupt`` that Python could not raise (it
landed in a finalizer or a C callback, and went to :data:`sys.unraisablehook`) is sent
again, not lost.

Kernels run unstoppable, as before, outside the main thread, when SIGINT is not handled by
Python (``SIG_IGN``, ``SIG_DFL``), and while another library listens on the wakeup fd.

:func:`stop_on_terminate` (opt-in, for long runs that save their work on Ctrl-C) makes SIGTERM
one more Ctrl-C: a job started in the background by a script or ``nohup`` has SIGINT ignored,
and a batch system sends SIGTERM before it kills. SIGINT keeps its own handling (ignored where
it was).
"""

from __future__ import annotations

import _thread
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")


class _StopWord:
    """``array[slot]``, set to ``value`` by the watcher; ``fired`` once it did."""

    __slots__ = ("array", "slot", "value", "fired")

    def __init__(self, array: np.ndarray, slot: int, value: int):
        self.array, self.slot, self.value, self.fired = array, slot, value, False

    def fire(self) -> None:
        self.array[self.slot] = self.value
        self.fired = True


_lock = threading.RLock()  # re-entered by the SIGINT handler when it interrupts its holder
_running: list[_StopWord] = []  # stop words of the kernels running now
_watching = False
_received = 0  # SIGINTs the watcher has read from the wakeup fd
_handled = 0  # SIGINTs Python's handler ran for (under sigint_held too)
_raised = 0  # SIGINTs paid for by a KeyboardInterrupt (the largest count seen when raised)
_sockets: list[socket.socket] = []  # the wakeup socket pair, open for the process's life
_terminate = False  # stop_on_terminate: SIGTERM counts as a SIGINT
RESEND_SECONDS = 0.05  # a Ctrl-C Python could not raise is sent again this much later


def _watch(reader: socket.socket) -> None:
    global _received
    while True:
        try:
            data = reader.recv(256)
        except OSError:
            return
        if not data:
            return
        with _lock:  # the wakeup fd receives one byte per signal: its number
            _received += data.count(signal.SIGINT)
            if _terminate:
                _received += data.count(signal.SIGTERM)
            if _owed():
                for word in _running:
                    word.fire()


def _owed() -> bool:
    """A SIGINT was seen (by the watcher or the handler) that no KeyboardInterrupt paid for.
    Call with ``_lock`` held."""
    return max(_received, _handled) > _raised


def _pay() -> None:
    """Count every SIGINT seen so far as raised; the caller raises KeyboardInterrupt. Call
    with ``_lock`` held."""
    global _raised
    _raised = max(_received, _handled)


def _counting(handler: Callable[..., Any]) -> Callable[..., Any]:
    """``handler`` (Python's SIGINT handler), counting the signals it runs for. Python's own
    handler runs only for a signal that no KeyboardInterrupt paid for yet (:func:`run` may
    have raised it); another program's handler runs for every signal."""

    def on_sigint(signum: int, frame: Any) -> Any:
        global _handled
        with _lock:
            _handled += 1
            owed = _owed()
            _pay()
        if owed or handler is not signal.default_int_handler:
            return handler(signum, frame)
        return None

    return on_sigint


def _raising_again(hook: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``hook`` (:data:`sys.unraisablehook`), but a KeyboardInterrupt Python could not raise
    (it landed in a finalizer or a C callback) is not reported: Ctrl-C is sent again a moment
    later, once this hook has returned (one landing in the hook itself would be lost), to be
    raised in the main thread's next Python code."""

    def report(unraisable: Any) -> None:
        if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
            again = threading.Timer(RESEND_SECONDS, _thread.interrupt_main, (signal.SIGINT,))
            again.daemon = True
            again.start()
            return
        hook(unraisable)

    return report


def _start_watching() -> bool:
    """Install the wakeup fd and its watcher once per process; False where it cannot."""
    global _watching
    if _watching:
        return True
    if threading.current_thread() is not threading.main_thread():
        return False
    handler = signal.getsignal(signal.SIGINT)
    if not callable(handler) and not _terminate:
        return False
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    try:
        previous = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    except ValueError:
        reader.close()
        writer.close()
        return False
    if previous != -1:  # someone else (an asyncio loop) listens: leave the fd to it
        signal.set_wakeup_fd(previous)
        reader.close()
        writer.close()
        return False
    if callable(handler):
        signal.signal(signal.SIGINT, _counting(handler))
    if _terminate:
        _take_sigterm()
    sys.unraisablehook = _raising_again(sys.unraisablehook)
    threading.Thread(target=_watch, args=(reader,), name="fastttt-interrupt", daemon=True).start()
    _sockets.extend((reader, writer))
    _watching = True
    return True


def _forget_after_fork() -> None:
    global _watching, _received, _handled, _raised, _lock
    _watching = False  # the watcher thread did not survive the fork
    _running.clear()
    _received = _handled = _raised = 0
    _lock = threading.RLock()
    try:
        signal.set_wakeup_fd(-1)
    except ValueError:
        pass


os.register_at_fork(after_in_child=_forget_after_fork)


def watch() -> bool:
    """Start counting SIGINTs (and stopping kernels under :func:`run`) now rather than at the
    first kernel: the CLI calls it at start-up so that :func:`sigint_count` also counts a
    Ctrl-C that landed while Numba compiled a kernel. False where SIGINT cannot be watched."""
    return _start_watching()


def stop_on_terminate() -> bool:
    """From now on SIGTERM stops this process as Ctrl-C does (a ``KeyboardInterrupt``, the
    running kernel stopped first), even where SIGINT is ignored; call it from the main thread
    at start-up. False, and SIGTERM left as it was, outside the main thread, where SIGTERM
    has a handler already, or where the wakeup fd is another library's."""
    global _terminate
    if threading.current_thread() is not threading.main_thread():
        return False
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return _terminate
    _terminate = True
    if _watching:
        _take_sigterm()
    elif not _start_watching():
        _terminate = False
    return _terminate


def _take_sigterm() -> None:
    """SIGTERM raises KeyboardInterrupt as Python's SIGINT handler does, counted with them."""
    signal.signal(signal.SIGTERM, _counting(signal.default_int_handler))


def sigint_count() -> int:
    """SIGINTs this process received since :func:`watch` (or the first :func:`run`): a caller
    compares two counts to learn whether Ctrl-C came in between."""
    return max(_received, _handled)


@contextmanager
def sigint_held() -> Iterator[None]:
    """Run the block with Ctrl-C held back, then raise the KeyboardInterrupt it held: for work
    that a KeyboardInterrupt must not cut in two, such as Numba's compiler (it can leave LLVM
    half-updated) or a zarr write (its I/O thread would go on after the interpreter shut down,
    and print a traceback). Outside the main thread, a plain block."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def hold(signum: int, frame: Any) -> None:
        global _handled
        with _lock:
            _handled += 1  # raised at the end of the block

    held = [signal.SIGINT] + ([signal.SIGTERM] if _terminate else [])
    previous = [signal.signal(signum, hold) for signum in held]
    try:
        yield
    finally:
        for signum, handler in zip(held, previous, strict=True):
            signal.signal(signum, handler)
    _raise_owed()


def _raise_owed() -> None:
    """Raise KeyboardInterrupt for a SIGINT seen and not yet raised."""
    with _lock:
        if not _owed():
            return
        _pay()
    raise KeyboardInterrupt


def compile_kernel(kernel: Any, *args: Any) -> None:
    """Compile ``kernel`` for ``args`` (or load it from Numba's cache) now, under
    :func:`sigint_held`, if it has no compiled signature yet: a clock started after it counts
    the kernel's work, not its loading. Plain functions (``NUMBA_DISABLE_JIT=1``) have nothing
    to compile. Only a kernel's first compilation is made here: typing the arguments of every
    call would cost tens of microseconds, and the kernels are called with one signature."""
    if getattr(kernel, "overloads", True):  # compiled already, or not a Numba dispatcher
        return
    signature = tuple(kernel.typeof_pyval(a) for a in args)
    with sigint_held():
        kernel.compile(signature)


def run(kernel: Callable[..., T], *args: Any, stop: np.ndarray, slot: int = 0, value: int = 1) -> T:
    """``kernel(*args)``, stopped by Ctrl-C: on SIGINT ``stop[slot] = value`` is written while
    the kernel runs, the kernel unwinds, ``stop[slot]`` gets its old value back and
    ``KeyboardInterrupt`` is raised; the kernel's result is then never returned.

    The kernel must poll ``stop[slot]`` (through ``args``) often enough to return within a
    fraction of a second once it changes, and must not store results computed after it did.
    """
    if threading.current_thread() is not threading.main_thread() or not _start_watching():
        return kernel(*args)  # Python delivers SIGINT to the main thread only
    compile_kernel(kernel, *args)
    word = _StopWord(stop, slot, value)
    old = stop[slot]
    with _lock:
        if _owed():  # Python's handler is late (module docstring): raise for it
            _pay()
            raise KeyboardInterrupt
        _running.append(word)
    try:
        result = kernel(*args)
    finally:
        with _lock:
            _running.remove(word)
        if word.fired:
            stop[slot] = old
    if word.fired:  # Python's own handler usually raised already, as the kernel returned
        _raise_owed()
        raise KeyboardInterrupt
    return result


def new_stop() -> np.ndarray:
    """A fresh stop word for kernels that take one: ``uint8[1]``, 0 = go on, 1 = stop."""
    return np.zeros(1, dtype=np.uint8)
