"""Workarounds for bugs in the libraries under the window, each with the evidence that it is needed."""

from __future__ import annotations

import ctypes
import sys

IMMORTAL = 1 << 40


def immortalize_singletons() -> bool:
    """Make None, True and False impossible to deallocate on Python < 3.12, as 3.12 itself does.

    PySide6 6.12 on Python 3.11 drops one reference each time a null QVariant or a bool comes back to
    Python on some paths (measured: QModelIndex().data() ×1000 → None's refcount −1000; a 94k-paper
    session of searching and scrolling ends in "Fatal Python error: none_dealloc"). Python 3.12 made
    these objects immortal; here their counts are raised far beyond any session's leak instead.
    Returns whether anything was changed."""
    if sys.version_info >= (3, 12) or hasattr(sys, "gettotalrefcount"):  # immortal already / debug layout
        return False
    for obj in (None, True, False):
        refcount = ctypes.c_ssize_t.from_address(id(obj))  # ob_refcnt is a PyObject's first field
        if refcount.value < IMMORTAL:
            refcount.value += IMMORTAL
    return True
