"""The bundle's entry point (PyInstaller needs a script, not a module)."""

import multiprocessing
import sys

from readinglist.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # the index's writer processes start from this executable too
    sys.exit(main())
