"""Run work off the UI thread and hand the result back on it (after Picard's util/thread.py).

Tests replace `Runner.pool` with `SynchronousPool` to run tasks inline, or keep the real pool and wait with
qtbot; `Runner.wait()` joins outstanding tasks before teardown.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot


class _Relay(QObject):
    """Lives on the UI thread; queued signals carry results back to it."""

    done = Signal(object, object)  # callback, result
    failed = Signal(object, object)  # errback, exception


class _Task(QRunnable):
    def __init__(self, fn: Callable[[], Any], relay: _Relay, callback: Callable, errback: Callable | None):
        super().__init__()
        self.fn, self.relay, self.callback, self.errback = fn, relay, callback, errback
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            result = self.fn()
        except Exception as exc:  # handed to the errback on the UI thread
            exc.__traceback_text__ = traceback.format_exc()  # type: ignore[attr-defined]
            self.relay.failed.emit(self.errback, exc)
        else:
            self.relay.done.emit(self.callback, result)


class SynchronousPool:
    """A stand-in for QThreadPool that runs each task at once, on the calling thread."""

    def start(self, runnable: QRunnable) -> None:
        runnable.run()

    def waitForDone(self, msecs: int = -1) -> bool:
        return True

    def activeThreadCount(self) -> int:
        return 0


class Runner(QObject):
    def __init__(self, parent: QObject | None = None, threads: int = 2):
        super().__init__(parent)
        self.pool: QThreadPool | SynchronousPool = QThreadPool(self)
        if isinstance(self.pool, QThreadPool):
            self.pool.setMaxThreadCount(threads)
            # the threads live as long as the runner: the store keeps a connection per thread, and a pool
            # that retired idle threads after 30 s would leave one behind with each
            self.pool.setExpiryTimeout(-1)
        self._relay = _Relay(self)
        self._relay.done.connect(self._deliver)
        self._relay.failed.connect(self._fail)
        self.closed = False

    def run(self, fn: Callable[[], Any], callback: Callable[[Any], None], errback: Callable | None = None) -> None:
        """`fn` on the pool, its result to `callback` (its exception to `errback`) on this thread; nothing once
        closed."""
        if self.closed:
            return
        self.pool.start(_Task(fn, self._relay, callback, errback))

    def close(self, msecs: int = 30000) -> bool:
        """No more work, and the work started joined: the window is closing. Qt deletes the pool with its
        window, waiting for its threads in C++ with the interpreter lock held, so a task a timer started
        after the close (a map render, a recount) hung the process: its thread waited for the lock to call
        run()."""
        self.closed = True
        return self.wait(msecs)

    @Slot(object, object)
    def _deliver(self, callback: Callable[[Any], None], result: Any) -> None:
        callback(result)

    @Slot(object, object)
    def _fail(self, errback: Callable | None, exc: Exception) -> None:
        if errback is not None:
            errback(exc)
        else:
            raise exc

    def wait(self, msecs: int = 30000) -> bool:
        return bool(self.pool.waitForDone(msecs))
