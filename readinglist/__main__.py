import multiprocessing
import sys

from readinglist.cli import main

if __name__ == "__main__":  # the guard matters: the index's writer processes may re-import this module
    multiprocessing.freeze_support()
    sys.exit(main())
