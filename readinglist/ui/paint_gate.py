"""Background work makes way while the window paints.

A paint of the paper table runs Python first (the rows coming into view get their items), and while a
search runs on another thread that Python waits for the interpreter lock. The table says when it starts
painting; a search calls `make_way()` between posting blocks (the gate is handed to the core as its
checkpoint) and, while a paint is on, waits for it to end — never longer than MAX_WAIT_S after it began,
so a flag left set costs one short wait, not a stuck search. The UI thread itself never waits.

Qt-free: the core sees only a callable.
"""

from __future__ import annotations

import threading
import time

MAX_WAIT_S = 0.1


class PaintGate:
    def __init__(self) -> None:
        self._clear = threading.Event()
        self._clear.set()
        self._since = 0.0

    def painting(self, on: bool) -> None:
        """Called on the UI thread: a paint begins (True) or is over (False)."""
        if on:
            self._since = time.monotonic()
            self._clear.clear()
        else:
            self._clear.set()

    @property
    def open(self) -> bool:
        """No paint is on: background work goes on without waiting."""
        return self._clear.is_set()

    def make_way(self) -> None:
        """A safe point in background work: wait while the window paints (the UI thread never waits)."""
        if self._clear.is_set() or threading.current_thread() is threading.main_thread():
            return
        left = MAX_WAIT_S - (time.monotonic() - self._since)
        if left > 0:
            self._clear.wait(left)
