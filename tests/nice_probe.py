"""A target for child_process tests whose module starts a thread as it is imported in a child, as numpy's BLAS
does: the child's priority must reach that thread too."""

from __future__ import annotations

import multiprocessing
import os
import threading

if multiprocessing.current_process().name != "MainProcess":  # a child (named as it unpickles its target)
    threading.Thread(target=threading.Event().wait, daemon=True, name="started-on-import").start()


def priorities(progress=None, cancel=None) -> list[int]:
    """The priority of every thread of this process."""
    return [os.getpriority(os.PRIO_PROCESS, int(tid)) for tid in os.listdir("/proc/self/task")]
