"""Process-wide tuning for a responsive window, in one place: both settings change how the whole interpreter
behaves, not one pane, and both were chosen by measuring the window (docs/performance-changes.md).

- The switch interval: while a search runs on a worker, every Qt→Python callback on the UI thread (a paint
  filling rows, a key) has to take the interpreter lock back, waiting up to the switch interval. Python's
  default turned paints into stalls; a short interval hands the lock over promptly.
- Freezing what lives for the whole session: a full collection of the cyclic garbage collector walks every
  object it tracks — the modules, Qt wrappers and the index's tables loaded at start — on whichever thread
  allocates next, which may be the UI thread mid-paint. Frozen objects are skipped.
"""

from __future__ import annotations

import gc
import sys

SWITCH_INTERVAL_S = 0.0001


def tune_interpreter() -> None:
    """Called once, before the window is built."""
    sys.setswitchinterval(SWITCH_INTERVAL_S)


def freeze_long_lived() -> None:
    """Move what is loaded by now out of the cyclic collector's sight (called once the window is built,
    after the index warm-up and after each import). Young garbage is collected first; what lives on is in
    use for the whole session anyway."""
    if gc.isenabled():
        gc.collect(1)
    gc.freeze()
    gc.enable()  # paused for the start-up (readinglist/__main__.py): all of it is long-lived, frozen now
