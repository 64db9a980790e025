"""Peak memory of a process and every process it starts (Whoosh's writer processes during an import, the
index writer and the topics job beside the window): getrusage sees only one process at a time, so the tree's
resident set is sampled and its largest sum kept."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from benchmarks.reliability import descendants


def _status_mb(pid: int, field: str) -> float:
    try:
        for line in (Path("/proc") / str(pid) / "status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def rss_mb(pid: int) -> float:
    """A process's resident set now (MB); 0 when it is gone."""
    return _status_mb(pid, "VmRSS")


def high_water_mb(pid: int) -> float:
    """A process's peak resident set so far (MB)."""
    return _status_mb(pid, "VmHWM")


def pss_mb(pid: int) -> float:
    """A process's proportional set (MB): each page shared with other processes counted as its share, so a
    tree's sum counts shared libraries (and, after a fork, the pages the child still shares) once."""
    try:
        for line in (Path("/proc") / str(pid) / "smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def tree_mb(pid: int) -> float:
    return rss_mb(pid) + sum(rss_mb(child) for child in descendants(pid))


def tree_pss_mb(pid: int) -> float:
    return pss_mb(pid) + sum(pss_mb(child) for child in descendants(pid))


class TreePeak:
    """Samples this process's tree every `interval` seconds on a daemon thread, from start() to stop(): the
    largest sum of resident sets (the goal's measure: a page two processes share counts twice) and the
    largest sum of proportional sets (`peak_pss_mb`: each shared page once)."""

    def __init__(self, interval: float = 0.1) -> None:
        self.interval = interval
        self.peak_mb = 0.0
        self.peak_pss_mb = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        pid = os.getpid()
        while True:
            self.peak_mb = max(self.peak_mb, tree_mb(pid))
            self.peak_pss_mb = max(self.peak_pss_mb, tree_pss_mb(pid))
            if self._stop.wait(self.interval):
                return

    def start(self) -> TreePeak:
        self._thread.start()
        return self

    def stop(self) -> float:
        self._stop.set()
        self._thread.join()
        self.peak_mb = max(self.peak_mb, tree_mb(os.getpid()))
        return round(self.peak_mb, 1)
