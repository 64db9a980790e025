"""Peak memory of a process and every process it starts (Whoosh's writer processes during an import, the
index writer and the topics job beside the window): getrusage sees only one process at a time, so the tree's
resident set is sampled and its largest sum kept."""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path

from benchmarks.reliability import descendants

ROOT = Path(__file__).resolve().parent.parent
PSS_EVERY = 5  # TreePeak's proportional sets: every fifth sample


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
    """Samples this process's tree every `interval` seconds from start() to stop(): the largest sum of
    resident sets (the goal's measure: a page two processes share counts twice) and the largest sum of
    proportional sets (`peak_pss_mb`: each shared page once).

    The sampler is a process of its own (`python -m benchmarks.memory`), not a thread: a thread reading
    /proc took the measured process's interpreter lock every 0.1 s, and made the 8k import it timed ~10 %
    slower than the naive build it is compared with, which runs unsampled (docs/performance-changes.md,
    session 16). Even so it reads /proc at ~6 % of a core, so the imports the naive build is timed against run
    without it, and memory is sampled in an import of its own (session 17). The sampler leaves itself out of
    the tree it sums."""

    def __init__(self, interval: float = 0.1) -> None:
        self.interval = interval
        self.peak_mb = 0.0
        self.peak_pss_mb = 0.0
        self._sampler: subprocess.Popen[str] | None = None

    def start(self) -> TreePeak:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        self._sampler = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.memory", str(os.getpid()), str(self.interval)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT,
        )  # fmt: skip
        assert self._sampler.stdout is not None
        self._sampler.stdout.readline()  # "ready": its first sample is taken
        return self

    def stop(self) -> float:
        assert self._sampler is not None
        out, _ = self._sampler.communicate("")  # stdin closed: it takes a last sample and prints its peaks
        rss, pss = (float(x) for x in out.split())
        self.peak_mb = max(rss, tree_mb(os.getpid()))
        self.peak_pss_mb = pss
        return round(self.peak_mb, 1)


def _sample(pid: int, interval: float) -> None:
    """The sampler process: samples `pid`'s tree (less itself) until its stdin closes, then prints the peaks."""
    me = os.getpid()

    def tree() -> list[int]:
        return [pid, *(p for p in descendants(pid) if p != me)]

    peak = peak_pss = 0.0
    n = 0
    while True:
        pids = tree()
        peak = max(peak, sum(rss_mb(p) for p in pids))
        if n % PSS_EVERY == 0:  # the kernel walks every page table for it: not at every sample
            peak_pss = max(peak_pss, sum(pss_mb(p) for p in pids))
        if n == 0:
            print("ready", flush=True)
        n += 1
        if select.select([sys.stdin], [], [], interval)[0]:  # readable: closed (nothing is ever written)
            break
    pids = tree()
    peak = max(peak, sum(rss_mb(p) for p in pids))
    print(f"{peak:.1f} {peak_pss:.1f}", flush=True)


if __name__ == "__main__":
    _sample(int(sys.argv[1]), float(sys.argv[2]))
