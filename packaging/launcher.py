"""The bundle's entry point (PyInstaller needs a script, not a module)."""

import sys

from readinglist.cli import main

if __name__ == "__main__":
    sys.exit(main())
