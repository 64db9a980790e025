"""The event loop's stalls, measured one way in every benchmark: a 5 ms QTimer whose gaps are recorded; the
longest gap while something happens is that thing's worst stall (a timer on time shows 5 ms).

With `watch_ms`, a watchdog thread also records what every thread was running when a gap grew past it (once
per gap): a rare stall (once in a dozen runs) can then be attributed from the run that had it. The watchdog
wakes every 10 ms and reads a clock; it takes the interpreter lock only then."""

from __future__ import annotations

import sys
import threading
import traceback

STACK_FRAMES = 8  # innermost frames kept per thread
STACKS_KEPT = 3  # gaps recorded per phase


class Heartbeat:
    """A 5 ms timer on the calling thread's event loop. `reset()` starts a phase, `worst()` ends it."""

    def __init__(self, interval_ms: int = 5, watch_ms: float | None = None) -> None:
        from PySide6.QtCore import QElapsedTimer, QTimer  # made after the QApplication, on its thread

        self.gaps: list[float] = []
        self._clock = QElapsedTimer()
        self._clock.start()
        self._last = self._clock.elapsed()
        self._timer = QTimer()
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._beat)
        self._stacks: list[dict] = []
        self._watch_ms = watch_ms
        self._main = threading.get_ident()
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None

    def _beat(self) -> None:
        now = self._clock.elapsed()
        self.gaps.append(now - self._last)
        self._last = now

    def _watch(self) -> None:
        assert self._watch_ms is not None
        seen = -1.0  # the last beat whose gap was recorded: once per gap
        while not self._stop.wait(0.01):
            last = self._last
            late = self._clock.elapsed() - last
            if late > self._watch_ms and last != seen and self._timer.isActive():
                seen = last
                if len(self._stacks) < STACKS_KEPT:
                    self._stacks.append({"late_ms": round(late), "threads": self._threads()})

    def _threads(self) -> dict[str, list[str]]:
        names = {t.ident: t.name for t in threading.enumerate()}
        me = threading.get_ident()
        out = {}
        for ident, frame in sys._current_frames().items():
            if ident == me:
                continue
            name = "main" if ident == self._main else names.get(ident, str(ident))
            out[name] = [f"{f.filename.rsplit('/', 1)[-1]}:{f.lineno} {f.name}"
                         for f in traceback.extract_stack(frame)[-STACK_FRAMES:]]  # fmt: skip
        return out

    def start(self) -> None:
        self.reset()
        self._timer.start()
        if self._watch_ms is not None and self._watcher is None:
            self._watcher = threading.Thread(target=self._watch, name="heartbeat-watch", daemon=True)
            self._watcher.start()

    def stop(self) -> None:
        self._timer.stop()
        self._stop.set()

    def reset(self) -> None:
        """A new phase: the gaps so far are forgotten and the next is counted from now."""
        self.gaps.clear()
        self._stacks = []
        self._last = self._clock.elapsed()

    def worst(self) -> float:
        """The longest gap (ms) since the last reset; 0 when there was none."""
        return max(self.gaps, default=0.0)

    def stacks(self) -> list[dict]:
        """What each thread ran when a gap of this phase passed `watch_ms` (the first STACKS_KEPT such gaps)."""
        return list(self._stacks)
