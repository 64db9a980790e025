import sys

from readinglist.cli import main

if __name__ == "__main__":  # the guard matters: the index's writer process re-imports this module
    if getattr(sys, "frozen", False):  # a frozen bundle's child processes start through this executable
        import multiprocessing  # not imported otherwise: it slows start-up

        multiprocessing.freeze_support()
    sys.exit(main())
