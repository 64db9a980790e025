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


def quick_feature_scan() -> bool:
    """Let PySide6 tell which modules use it without reading each one's source through `inspect`.

    shiboken's `__feature__` support asks, for every module imported once PySide6 is (and for every module
    imported before it, at its first import), whether its source mentions "PySide6" — through
    inspect.getsource, which tokenizes the file and keeps its lines in `linecache` for the life of the
    process (PYSIDE-2029). Reading the file's bytes answers the same question; a module without a .py
    file is asked as before. Call before the first `import PySide6.QtCore`. Returns whether it applied."""
    import shiboken6  # noqa: F401  (loads shibokensupport, whose feature module holds the scan)

    feature = sys.modules.get("shibokensupport.feature")
    upstream = getattr(feature, "_mod_uses_pyside", None)
    if feature is None or upstream is None or getattr(upstream, "quick", False):
        return False

    def uses_pyside(module: object) -> bool:
        path = getattr(module, "__file__", None)
        if not isinstance(path, str) or not path.endswith(".py"):
            return bool(upstream(module))
        try:
            with open(path, "rb") as source:
                return b"PySide6" in source.read()
        except OSError:
            return bool(upstream(module))

    uses_pyside.quick = True  # type: ignore[attr-defined]
    feature._mod_uses_pyside = uses_pyside  # type: ignore[attr-defined]
    return True
