"""The window's memory after big work (issue 18: its peak at 94k papers): freed memory goes back to the
system, and what searches keep is bounded by their matches."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from readinglist import heap, interest
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


def test_reading_the_correction_words_returns_what_it_freed(big_library, monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(engine, "return_freed", lambda: calls.append("returned") or True)
    big_library.warm_search()
    assert calls == ["returned"]


def test_a_ranking_of_the_suggestions_returns_what_it_freed(big_library, monkeypatch):
    """Each re-rank scores every paper a block at a time and sorts them: a window re-ranks after marks."""
    ids = big_library.store.all_ids()
    big_library.interest_ranking(ids[:3])  # the features built (which returns its own temporaries)
    calls: list[str] = []
    monkeypatch.setattr(interest, "return_freed", lambda: calls.append("returned") or True)
    ranking = big_library.interest_ranking(ids[:3], ids[3:5])
    assert len(ranking) == len(ids) - 5
    assert calls == ["returned"]


def test_computing_topics_and_loading_the_map_return_what_they_freed(empty_lib, tmp_path, monkeypatch):
    from readinglist import library as library_module
    from readinglist.ui import map_view
    from tests.test_topics import planted, write_jsonl

    empty_lib.import_files([write_jsonl(tmp_path / "planted.jsonl", planted(20))])
    calls: list[str] = []
    monkeypatch.setattr(library_module, "return_freed", lambda: calls.append("topics") or True)
    monkeypatch.setattr(map_view, "return_freed", lambda: calls.append("map") or True)
    empty_lib.compute_topics(count=4, use_process=False)
    assert calls == ["topics"]
    data = map_view.load(empty_lib)
    assert data is not None and len(data.ids) == 80
    assert calls == ["topics", "map"]


def test_the_cached_results_hold_a_bounded_number_of_matches(big_library, monkeypatch):
    """64 cached results of a common word's thousands of matches each held 150 MB at 94k papers."""
    import gc
    import tracemalloc

    monkeypatch.setattr(engine, "SEARCH_CACHE_HITS", 1000, raising=False)  # two and a half results of 400
    big_library.search("learning OR nothing0")
    gc.collect()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        big_library.search("learning OR nothing1")  # what one more cached result holds
        gc.collect()
        one = tracemalloc.get_traced_memory()[0] - start
        for i in range(2, 40):
            assert len(big_library.search(f"learning OR nothing{i}").ids) == 400
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert held < 10 * one  # measured 6 (each query also leaves its words' look-ups); before: 35, 39 results kept
    again = big_library.search("learning OR nothing39")  # the latest results are still cached
    assert again is big_library.search("learning OR nothing39")
