"""An import's index build: segments written a term at a time hold Whoosh's bytes, abstracts packed by a
copied compressor hold a fresh one's, and the indexing workers start with their writer (nicer than it) and stop
with it."""

from __future__ import annotations

import ast
import os
import random
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from whoosh import index as windex
from whoosh import writing
from whoosh.codec import whoosh3
from whoosh.writing import SegmentWriter

from readinglist import packed_text
from readinglist.index import patches
from readinglist.index.schema import DERIVED_TITLE_WEIGHT, TITLE_BOOST, _document, make_schema


def _documents(count: int) -> list[dict[str, object]]:
    """Documents with words in many documents (several blocks of postings), in one (an inlined posting),
    repeated in a field (positions, weights), tags, years and states."""
    rng = random.Random(5)
    common = [f"w{n}" for n in range(60)]
    docs = []
    for pid in range(1, count + 1):
        words = [*rng.choices(common, k=rng.randint(5, 80)), f"only{pid}"]
        title = " ".join(rng.choices(common, k=rng.randint(1, 9)))
        authors = [f"Author {rng.randint(1, 40)}", f"Écrivain {pid}"]
        tags = rng.sample(["vision", "must read", "rl"], k=rng.randint(0, 2))
        docs.append(_document(pid, title, " ".join(words), authors, tags, "a note" if pid % 7 == 0 else "",
                              "NeurIPS", 1990 + pid % 30, "new", pid % 3 or None))  # fmt: skip
    return docs


def _segment_files(folder: Path, docs: list[dict[str, object]], limitmb: float) -> tuple[dict[str, bytes], int]:
    ix = windex.create_in(str(folder), make_schema())
    writer = SegmentWriter(ix, _lk=False, limitmb=limitmb, compound=False)
    for doc in docs:
        writer.add_document(**doc)
    runs = len(writer.pool.runs)
    writer._finalize_segment()
    segment = writer.get_segment().segment_id()
    files = {p.name.replace(segment, ""): p.read_bytes() for p in folder.iterdir() if segment in p.name}
    return files, runs


@pytest.mark.parametrize("limitmb", [64, 0.05])  # held whole; spilled to run files and merged
def test_postings_written_a_term_at_a_time_are_whooshs_bytes(tmp_path, limitmb):
    """The grouped pool and the term-at-a-time add_postings against Whoosh's pool and add_postings: the
    same term table, postings and columns, byte for byte, and the same number of run files."""
    assert patches.apply()
    docs = _documents(700)
    ours = (whoosh3.W3FieldWriter.add_postings, writing.PostingPool)
    theirs = (whoosh3.W3FieldWriter._readinglist_original, writing._readinglist_original_pool)
    assert ours != theirs
    try:
        whoosh3.W3FieldWriter.add_postings, writing.PostingPool = theirs
        (tmp_path / "whoosh").mkdir()
        want, want_runs = _segment_files(tmp_path / "whoosh", docs, limitmb)
    finally:
        whoosh3.W3FieldWriter.add_postings, writing.PostingPool = ours
    (tmp_path / "ours").mkdir()
    got, runs = _segment_files(tmp_path / "ours", docs, limitmb)
    assert (runs > 1) == (limitmb < 1) and runs == want_runs
    assert {".trm", ".pst", ".pid.col", "._abstract_len.col"} <= set(got)
    assert got == want


@pytest.mark.parametrize("limitmb", [64, 0.05])
def test_terms_written_directly_are_whooshs_objects_bytes(tmp_path, monkeypatch, limitmb):
    """The direct term writer against the postings writer, W3TermInfo and the term table's writer it copies:
    the same files byte for byte — with its buffers flushed every few terms, and with every third term left
    to Whoosh's objects in between (the files' ends move under it). Some titles are derived: their weights
    are no whole numbers (a float32's rounding shows)."""
    assert patches.apply()
    docs = _documents(700)
    for doc in docs[::5]:
        doc["_title_boost"] = DERIVED_TITLE_WEIGHT / TITLE_BOOST
    with monkeypatch.context() as m:
        m.setattr(patches._DirectTerms, "of", classmethod(lambda cls, fw: None))
        (tmp_path / "objects").mkdir()
        want, _ = _segment_files(tmp_path / "objects", docs, limitmb)
    written = []
    original_term = patches._DirectTerms.term

    def term(self, btext, rows, docnums, lens):
        if len(written) % 3 == 2:
            written.append(False)
            return False
        written.append(original_term(self, btext, rows, docnums, lens))
        return written[-1]

    for name, changes in {"direct": {}, "mixed": {"term": term, "FLUSH": 200}}.items():
        with monkeypatch.context() as m:
            for attr, value in changes.items():
                m.setattr(patches._DirectTerms, attr, value)
            (tmp_path / name).mkdir()
            got, _ = _segment_files(tmp_path / name, docs, limitmb)
        assert got == want, name
    assert written.count(True) > 1000 and written.count(False) > 500


@pytest.mark.parametrize("limitmb", [64, 0.05])
def test_documents_added_a_field_at_a_time_are_whooshs_bytes(tmp_path, limitmb):
    """add_document with a text field's words made into pool items in one pass, against Whoosh's
    add_document: the same segment files and the same number of run files (the pool spills at the same
    postings). Words seen twice, derived titles' fractional boosts, non-ASCII names, empty notes."""
    assert patches.apply()
    docs = _documents(700)
    for doc in docs[::5]:
        doc["_title_boost"] = DERIVED_TITLE_WEIGHT / TITLE_BOOST
    ours = SegmentWriter.add_document
    assert ours is not SegmentWriter._readinglist_original
    try:
        SegmentWriter.add_document = SegmentWriter._readinglist_original
        (tmp_path / "whoosh").mkdir()
        want, want_runs = _segment_files(tmp_path / "whoosh", docs, limitmb)
    finally:
        SegmentWriter.add_document = ours
    (tmp_path / "ours").mkdir()
    got, runs = _segment_files(tmp_path / "ours", docs, limitmb)
    assert runs == want_runs and (runs > 1) == (limitmb < 1)
    assert got == want


def test_whoosh_own_postings_are_not_written_directly(tmp_path):
    """Within whoosh_own_postings (Whoosh's pickled blocks) the direct writer, which writes the compact form,
    stands aside."""
    assert patches.apply()
    ix = windex.create_in(str(tmp_path), make_schema())
    writer = SegmentWriter(ix, _lk=False, limitmb=64, compound=False)
    assert patches._DirectTerms.of(writer.fieldwriter) is not None
    with patches.whoosh_own_postings():
        assert patches._DirectTerms.of(writer.fieldwriter) is None
    writer.cancel()


def test_a_pool_read_back_in_whooshs_order(tmp_path):
    """The grouped pool iterated as Whoosh's items: every posting once, sorted as Whoosh sorts them."""
    assert patches.apply()
    ix = windex.create_in(str(tmp_path), make_schema())
    writer = SegmentWriter(ix, _lk=False, limitmb=64, compound=False)
    for doc in _documents(50):
        writer.add_document(**doc)
    items = list(writer.pool.items())
    assert items == sorted(items) and len(items) > 500
    writer.cancel()


def _spilled_writer(folder: Path, docs: list[dict[str, object]]) -> SegmentWriter:
    ix = windex.create_in(str(folder), make_schema())
    writer = SegmentWriter(ix, _lk=False, limitmb=0.02, compound=False)
    for doc in docs:
        writer.add_document(**doc)
    return writer


def test_a_pool_spilled_to_many_runs_reads_back_as_whooshs(tmp_path):
    """Runs written a term at a time, read back: merged through reduce_to (more runs than files it may open),
    the same postings in the same order as Whoosh's pool gives; one run read alone, Whoosh's tuples (what
    Whoosh's MpWriter merges its workers' runs by)."""
    assert patches.apply()
    docs = _documents(300)
    (tmp_path / "whoosh").mkdir()
    (tmp_path / "ours").mkdir()
    try:
        writing.PostingPool = writing._readinglist_original_pool
        theirs = _spilled_writer(tmp_path / "whoosh", docs)
    finally:
        writing.PostingPool = patches._grouped_pool_class()
    ours = _spilled_writer(tmp_path / "ours", docs)
    assert type(ours.pool) is not type(theirs.pool)
    assert len(ours.pool.runs) == len(theirs.pool.runs) > 6
    first = list(ours.pool._read_run(ours.pool.runs.pop(0)))
    assert first == list(theirs.pool._read_run(theirs.pool.runs.pop(0)))
    assert all(len(item) == 5 for item in first) and first == sorted(first)
    want = list(theirs.pool.items(maxfiles=3))
    assert list(ours.pool.items(maxfiles=3)) == want and len(want) > 5000
    theirs.cancel()
    ours.cancel()


def test_runs_merged_by_whooshs_multiprocess_writer_are_whooshs_bytes(tmp_path):
    """Whoosh's MpWriter merging its workers' runs into one segment (its serial form, without processes)
    reads the runs a term at a time as Whoosh's own: the same segment, byte for byte."""
    from whoosh.multiproc import SerialMpWriter

    assert patches.apply()
    docs = _documents(300)

    def build(folder: Path) -> dict[str, bytes]:
        folder.mkdir()
        ix = windex.create_in(str(folder), make_schema())
        writer = SerialMpWriter(ix, procs=2, limitmb=0.02, compound=False)
        for doc in docs:
            writer.add_document(**doc)
        writer.commit()
        return {p.suffix: p.read_bytes() for p in folder.iterdir() if p.suffix in (".trm", ".pst")}

    try:
        writing.PostingPool = writing._readinglist_original_pool
        want = build(tmp_path / "whoosh")
    finally:
        writing.PostingPool = patches._grouped_pool_class()
    got = build(tmp_path / "ours")
    assert got == want and len(got) == 2


def test_an_abstract_packed_by_a_copied_compressor_is_a_fresh_compressors_bytes():
    rng = random.Random(3)
    words = ["we", "propose", "a", "method", "for", "learning", "deep", "neural", "networks", "on", "graphs"]
    packed = 0
    for n in range(200):
        text = " ".join(rng.choices(words, k=rng.randint(5, 300))) + f" ({n}) é ∑"
        raw = text.encode("utf-8")
        c = zlib.compressobj(6, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY, packed_text.dictionary(1))
        fresh = bytes([1]) + c.compress(raw) + c.flush()
        assert packed_text.pack(text) == (fresh if len(text) >= 64 and len(fresh) < len(raw) else text)
        assert packed_text.unpack(packed_text.pack(text)) == text
        packed += isinstance(packed_text.pack(text), bytes)
    assert packed > 150


def test_an_imports_workers_start_with_its_writer_and_stop_when_it_is_cancelled(lib):
    """Started with the writer (not at its first batch of documents), and stopped by a cancel: Whoosh's
    cancel only flagged its copies of them, and a spawned worker waited for work until the app quit."""
    writer = lib.updater.begin_bulk(5000)
    tasks = list(writer.tasks)
    assert len(tasks) == 2 and all(t.is_alive() for t in tasks)
    lib.updater.cancel_bulk(writer)
    assert not any(t.is_alive() for t in tasks)
    assert lib.search("").ids  # the index is as it was


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="niceness is POSIX's")
def test_an_imports_workers_run_nicer_than_the_process_feeding_them(lib):
    """The importing process (and the window's event loop) goes first; the workers take the CPU left."""
    import time

    from readinglist.priority import NICER_BY

    mine = os.getpriority(os.PRIO_PROCESS, 0)
    if mine + NICER_BY > 19:
        pytest.skip("the tests run too nice for a worker to run nicer still")
    writer = lib.updater.begin_bulk(5000)
    try:
        wanted = mine + NICER_BY
        deadline = time.monotonic() + 30  # a worker sets it as it starts: an interpreter takes a while
        pids = [t.pid for t in writer.tasks]
        while time.monotonic() < deadline and any(os.getpriority(os.PRIO_PROCESS, p) != wanted for p in pids):
            time.sleep(0.05)
        assert len(pids) == 2 and [os.getpriority(os.PRIO_PROCESS, p) for p in pids] == [wanted, wanted]
        assert os.getpriority(os.PRIO_PROCESS, 0) == mine
    finally:
        lib.updater.cancel_bulk(writer)


def test_an_indexing_worker_imports_no_search_module():
    """A worker is a new interpreter that unpickles its task (readinglist.index.workers) and the schema: the
    package's search modules (the engine, the ranker, the updater) are not imported for it."""
    code = (
        "import sys, pickle, readinglist.index.workers, readinglist.index.schema as s; "
        "pickle.loads(pickle.dumps(s.make_schema())); "
        "print(sorted(m for m in sys.modules if m.startswith('readinglist.index.')))"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}  # this checkout's code
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    loaded = set(ast.literal_eval(out))
    assert {"readinglist.index.workers", "readinglist.index.schema", "readinglist.index.patches"} <= loaded
    assert not loaded & {"readinglist.index.engine", "readinglist.index.ranking", "readinglist.index.background"}


_WEIGHTS = [1.0, 0.0, -0.0, 2.0, 3.0, 255.0, 256.0, -1.0, 0.5, 2.5, 255.5, 1e9, -1e9, 1.1, 3.4028234663852886e38]
_SPECIAL = [float("nan"), float("inf"), float("-inf")]


@pytest.mark.parametrize("seed", range(4))
def test_a_blocks_weights_checked_in_c_are_checked_as_floats_one_by_one(seed):
    """encode_block given a float array (as the workers give it) checks its weights with array.count and
    bytes (_whole_bytes): the same block as the same weights given as a list, which are checked a float at a
    time — all 1, all equal, whole numbers 0–255, anything else — NaN, infinities, -0.0 and fractions
    included."""
    from array import array

    rng = random.Random(seed)
    kinds = [[1.0], [2.0], [0.0, 1.0, 2.0, 255.0], _WEIGHTS, _WEIGHTS + _SPECIAL, [0.5, 1.5], [-0.0, 0.0]]
    checked = 0
    for _ in range(400):
        n = rng.randint(1, 130)
        weights = array("f", rng.choices(rng.choice(kinds), k=n))
        ids = sorted(rng.sample(range(1, 1 << 20), n))
        values = [bytes([rng.randint(1, 200)]) * rng.randint(1, 3) for _ in range(n)]
        whole = all(w.is_integer() and 0 <= w < 256 for w in weights)
        assert patches._whole_bytes(weights) == (bytes(int(w) for w in weights) if whole else None)
        for fixed, vals in ((None, values), (0, [])):
            got = patches.encode_block(array("I", ids), weights, vals, fixed)
            assert got == patches.encode_block(ids, list(weights), vals, fixed)
            assert got == patches.encode_block(ids, tuple(weights), vals, fixed)
            checked += 1
    assert checked == 800


def test_an_import_never_waits_for_the_index(lib, data_dir, tmp_path):
    """Another process writing the index (here a second library's held writer) made an import wait for it, the
    library held all the while (a window's import sat at "Reading …" for 20 s, its marks waiting): the papers
    are stored at once and reach the index from the journal once it is free."""
    import json
    import threading

    from readinglist.library import Library

    rows = [{"title": f"Zanzibar hyperloop study {i}", "abstract": "Gravel flux in zanzibar.", "year": 2024}
            for i in range(3)]  # fmt: skip
    source = tmp_path / "new.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    other = Library.open(data_dir)
    held = other.updater.begin_bulk(5000)
    assert held is not None
    done = threading.Event()
    result: list = []
    worker = threading.Thread(target=lambda: (result.append(lib.import_files([source])), done.set()), daemon=True)
    try:
        worker.start()
        assert done.wait(20), "the import waited for the index"
        assert result[0][0].added == 3
    finally:
        other.updater.cancel_bulk(held)
        other.close()
    assert len(lib.search("zanzibar hyperloop").ids) == 3  # caught up from the journal


def test_papers_an_index_commit_failed_to_take_are_indexed_from_the_journal(lib, tmp_path, monkeypatch):
    """The bulk commit failing (a full disk) left the papers in the journal with nothing asking for them: only
    the next search wrote them (a review)."""
    import json

    rows = [{"title": f"Quokka gradient study {i}", "abstract": "Quokka flux.", "year": 2024} for i in range(3)]
    source = tmp_path / "new.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    real_commit = lib.index.commit

    def failing(writer, *args, **kwargs):
        monkeypatch.setattr(lib.index, "commit", real_commit)  # once: the catch-up after it writes
        writer.cancel()
        raise OSError(28, "No space left on device")

    before = lib.index.doc_count()
    monkeypatch.setattr(lib.index, "commit", failing)
    [summary] = lib.import_files([source])
    assert summary.added == 3 and any("could not be written" in w for w in summary.warnings)
    assert lib.index.doc_count() == before + 3  # written at once, not left for a search to find in the journal
    assert len(lib.search("quokka gradient").ids) == 3
