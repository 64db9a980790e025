import gc
import sys

if __name__ == "__main__":  # the guard matters: the index's writer process re-imports this module
    if getattr(sys, "frozen", False):  # a frozen bundle's child processes start through this executable
        import multiprocessing  # not imported otherwise: it slows start-up

        multiprocessing.freeze_support()  # (a child runs its task here and exits, collecting as usual)
    # start-up makes ~100k objects that live as long as the process (modules, classes, Qt wrappers):
    # collecting them on the way only walks them; the window freezes them once built
    # (ui.runtime.freeze_long_lived) and a command turns collection back on at once (cli.main)
    gc.disable()
    from readinglist.cli import main

    sys.exit(main())
