"""The event loop's stalls, measured one way in every benchmark: a 5 ms QTimer whose gaps are recorded; the
longest gap while something happens is that thing's worst stall (a timer on time shows 5 ms)."""

from __future__ import annotations


class Heartbeat:
    """A 5 ms timer on the calling thread's event loop. `reset()` starts a phase, `worst()` ends it."""

    def __init__(self, interval_ms: int = 5) -> None:
        from PySide6.QtCore import QElapsedTimer, QTimer  # made after the QApplication, on its thread

        self.gaps: list[float] = []
        self._clock = QElapsedTimer()
        self._clock.start()
        self._last = self._clock.elapsed()
        self._timer = QTimer()
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._beat)

    def _beat(self) -> None:
        now = self._clock.elapsed()
        self.gaps.append(now - self._last)
        self._last = now

    def start(self) -> None:
        self.reset()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def reset(self) -> None:
        """A new phase: the gaps so far are forgotten and the next is counted from now."""
        self.gaps.clear()
        self._last = self._clock.elapsed()

    def worst(self) -> float:
        """The longest gap (ms) since the last reset; 0 when there was none."""
        return max(self.gaps, default=0.0)
