"""Freed memory handed back to the system.

glibc keeps the blocks a large computation frees in its heaps (its mmap threshold grows after the first
large free, so later temporaries of a few MB come from the heap too), and a long-lived process goes on
holding each computation's peak rather than its result: the window after a search of tens of thousands of
hits, a pasted sentence's closest matches, or the suggestion features derived. `return_freed()` gives the
free pages of every heap back (malloc_trim); elsewhere than glibc it does nothing.
"""

from __future__ import annotations

import contextlib
import ctypes
import sys
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def _trim() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None).malloc_trim  # AttributeError: not glibc (musl has no malloc_trim)
    except (OSError, AttributeError):
        return None


def return_freed() -> bool:
    """Hand the free pages of every malloc arena back to the system; True where it could (glibc)."""
    trim = _trim()
    if trim is None:
        return False
    with contextlib.suppress(OSError):
        trim(0)
    return True
