"""The bundle's entry point (PyInstaller needs a script, not a module)."""

import gc
import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()  # the index's writer processes start from this executable too
    gc.disable()  # the window's start-up, as readinglist/__main__.py (a child never gets here)
    from readinglist.cli import main

    sys.exit(main())
