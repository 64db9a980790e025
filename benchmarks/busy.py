"""One CPU-bound process beside the app, as a browser tab is on a laptop (issue 18's "loaded" mode):
`python -m benchmarks.busy` spins until it is ended; `beside()` runs one for the length of a `with`."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def beside(on: bool = True) -> Iterator[None]:
    """A busy-loop process for the block (nothing when `on` is False); ended by its own pid afterwards."""
    if not on:
        yield
        return
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "benchmarks.busy"], stdout=subprocess.DEVNULL, cwd=ROOT, env=env)
    time.sleep(0.2)  # it is spinning before the measure starts
    if proc.poll() is not None:
        raise RuntimeError(f"the busy-loop process ended at once (exit code {proc.returncode})")
    try:
        yield
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def spin() -> None:
    x = 0
    while True:  # pure Python arithmetic: one core at 100 %, no memory, no I/O
        x = (x * 1103515245 + 12345) & 0xFFFFFFFF


if __name__ == "__main__":
    spin()
