"""Background work yields the CPU: a child process doing work nobody waits for (the index's writer and
indexing workers, the topics, the suggestions' features) runs nicer than the window, so that on two cores the
window's thread gets the CPU first when it wakes (docs/performance-changes.md, sessions 17 and 20).

A module of its own, importing nothing of the project: an indexing worker calls it as it starts, and a worker
starts for every import."""

from __future__ import annotations

import contextlib
import os

NICER_BY = 5  # how much nicer than the window (or the importing process) background work runs


def be_nicer(by: int = NICER_BY) -> None:
    """Lower this process's priority (called first thing in a child): what the reader waits for, in the
    window or the command line, goes before background work. A sandbox may refuse: the work runs all the same."""
    if not hasattr(os, "nice"):  # not on Windows
        return
    with contextlib.suppress(OSError):
        os.nice(by)
    # Linux gives each thread its own priority: threads started before this call (numpy's BLAS threads,
    # started when the target's module was imported) are lowered to it too
    with contextlib.suppress(OSError):
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        for tid in os.listdir("/proc/self/task"):
            with contextlib.suppress(OSError, ValueError):
                if os.getpriority(os.PRIO_PROCESS, int(tid)) < mine:
                    os.setpriority(os.PRIO_PROCESS, int(tid), mine)
