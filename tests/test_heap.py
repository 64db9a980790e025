"""Freed memory goes back to the system after big work (issue 18: the window's peak at 94k papers)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from readinglist import heap
from readinglist.index import engine
from readinglist.library import Library

GLIBC = sys.platform.startswith("linux") and heap._trim() is not None


@pytest.mark.skipif(not GLIBC, reason="malloc_trim is glibc's")
def test_freed_heap_blocks_go_back_to_the_system():
    """Blocks under glibc's mmap threshold come from the heap; once freed, with a live block after them,
    glibc keeps their pages (the process's resident set stays at its peak) until they are given back."""
    script = textwrap.dedent(
        """
        import json
        from pathlib import Path
        from readinglist.heap import return_freed

        def rss():
            for line in Path("/proc/self/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024

        blocks = [bytearray(64 * 1024) for _ in range(640)]  # 40 MB, written
        pin = bytearray(64 * 1024)  # after them in the heap: no trim of its top
        del blocks
        held = rss()
        returned = return_freed()
        print(json.dumps({"held": held, "after": rss(), "returned": returned}))
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    got = json.loads(out.stdout)
    assert got["returned"]
    assert got["held"] - got["after"] > 30  # MB of the 40 freed


@pytest.fixture
def big_library(tmp_path):
    """Papers that all share the word "learning" (a search of it decodes every posting), few "graph"."""
    f = tmp_path / "papers.jsonl"
    rows = [
        {
            "title": f"Learning paper {i}" + (" on graphs" if i < 3 else ""),
            "authors": [f"Author {i}"],
            "abstract": f"We study learning number {i}, and more learning.",
        }
        for i in range(400)
    ]
    f.write_text("".join(json.dumps(r) + "\n" for r in rows))
    lib = Library.open(tmp_path / "data", seed=False)
    lib.import_files([f])
    yield lib
    lib.close()


def test_a_big_search_returns_what_its_temporaries_freed_and_a_small_one_does_not(big_library, monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(engine, "return_freed", lambda: calls.append("returned") or True)
    monkeypatch.setattr(engine, "RETURN_FREED_AFTER", 600)  # 400 papers: "learning" decodes 800 postings
    assert len(big_library.search("learning").ids) == 400
    assert calls == ["returned"]
    assert len(big_library.search("graph").ids) == 3
    assert calls == ["returned"]  # a few postings: nothing to give back, no call
    big_library.search("learning")
    assert calls == ["returned"]  # cached: no work done
