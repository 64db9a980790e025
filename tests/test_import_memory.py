"""An import's memory is bounded by its chunk, not by its file: the indexing workers start as fresh
interpreters (not copies of the importing process), and the importing process keeps nothing per record."""

from __future__ import annotations

import json
import os
import random
import sys
import threading
from pathlib import Path

import pytest

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def write_records(path: Path, n: int, seed: int = 1) -> Path:
    """n distinct papers (titles, abstracts of a few thousand words' vocabulary, authors) as JSON Lines."""
    rng = random.Random(seed)
    words = [f"w{k}x" for k in range(3000)]
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n):
            record = {"title": f"Study {i} of " + " ".join(rng.choices(words, k=6)),
                      "abstract": " ".join(rng.choices(words, k=120)),
                      "authors": [f"Ann Author{i % 97}", f"Bo Writer{i % 89}"], "year": 2020, "venue": "V"}  # fmt: skip
            f.write(json.dumps(record) + "\n")
    return path


def _children_rss_mb(parent: int) -> dict[int, float]:
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if int(fields.get("PPid", "0").strip() or 0) == parent and "VmRSS" in fields:
            found[int(entry.name)] = int(fields["VmRSS"].split()[0]) / 1024
    return found


@linux_only
def test_indexing_workers_do_not_start_as_copies_of_the_importing_process(empty_lib, tmp_path, monkeypatch):
    """A forked worker's resident set includes the importer's heap (here 200 MB of ballast); a spawned one
    holds only what it indexes."""
    from readinglist.index import background

    monkeypatch.setattr(background, "BULK_PROCS_MIN_DOCS", 100)  # workers for a small file
    path = write_records(tmp_path / "papers.jsonl", 600)
    ballast = b"x" * (200 << 20)  # written, so resident
    peak: dict[int, float] = {}
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            for pid, mb in _children_rss_mb(os.getpid()).items():
                peak[pid] = max(peak.get(pid, 0.0), mb)
            done.wait(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        [summary] = empty_lib.import_files([path])
    finally:
        done.set()
        sampler.join()
    assert summary.added == 600 and len(ballast) == 200 << 20
    workers = [mb for mb in peak.values() if mb > 20]  # Whoosh's workers (not multiprocessing's small tracker)
    assert workers, "the import started no indexing worker"
    assert max(workers) < 150, peak
    assert len(empty_lib.search("w5x").ids) > 0 and len(empty_lib.search("").ids) == 600
