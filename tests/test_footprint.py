"""What keeps the library small on disk (issue 18): posting blocks in a compact binary form, and abstracts
packed against a preset dictionary. Each reads back exactly what was written."""

import json
import sqlite3
from array import array
from itertools import pairwise

import pytest

from readinglist import store as store_mod
from readinglist.index import patches, schema
from readinglist.library import Library
from readinglist.packed_text import PackedTextError, pack, unpack
from readinglist.papers import NewPaper, StoreError
from readinglist.store import Store

# ---- posting blocks ------------------------------------------------------------------------------------


def _whoosh_tuple(ids, weights, values, fixedsize):
    """A block as Whoosh's writer minifies it before pickling (first docnum and gaps, weights, values)."""
    gaps = (ids[0], *(b - a for a, b in pairwise(ids)))
    w = array("f", weights)
    if all(x == 1.0 for x in w):
        mini_w = None
    elif all(x == w[0] for x in w):
        mini_w = w[0]
    else:
        mini_w = tuple(w)
    if fixedsize is None or fixedsize < 0:
        mini_v = tuple(values)
    elif fixedsize == 0:
        mini_v = None
    else:
        mini_v = b"".join(values)
    return gaps, mini_w, mini_v


@pytest.mark.parametrize(
    ("ids", "weights", "values", "fixedsize"),
    [
        ([3], [1.0], [b"\x05"], None),  # one posting, the most common block
        ([0, 1, 2, 400, 70_000, 70_001], [1.0, 2.0, 3.0, 1.0, 255.0, 6.0], [b"\x01"] * 6, None),  # wide gaps
        ([5, 9], [3.0, 3.0], [b"\x02\x03", b"\x07"], None),  # all equal (the title's boost)
        ([1, 2, 3], [0.5, 1.25, 300.0], [b"x" * 300, b"", b"yz"], None),  # fractions, long and empty values
        ([10, 20, 30], [1.0, 1.0, 1.0], [], 0),  # an ID field: no values
        ([7, 8], [1.0, 2.0], [b"abcd", b"efgh"], 4),  # fixed-size values
        (list(range(0, 128 * 1000, 1000)), [float(i % 7 + 1) for i in range(128)], [b"\x01\x02"] * 128, None),
    ],
)
def test_a_compact_block_reads_back_as_whoosh_unpickles_its_own(ids, weights, values, fixedsize):
    block = patches.encode_block(array("I", ids), array("f", weights), values, fixedsize)
    assert patches.decode_block(block, len(ids), fixedsize) == _whoosh_tuple(ids, weights, values, fixedsize)


def _documents(lib):
    papers = lib.papers(lib.search("").ids)
    assert len(papers) == 19
    docs = [schema.document(p) for p in papers]
    copies = [{**d, "pid": 100 * k + n} for k in range(3) for n, d in enumerate(docs)]  # 57
    return [*copies, {**docs[0], "pid": 999, "note": "a singular quuxword"}]  # a term of one document


def _write_index(folder, docs):
    from whoosh import index as windex

    folder.mkdir()
    ix = windex.create_in(str(folder), schema.make_schema())
    w = ix.writer(compound=False)  # as the engine writes them (engine.new_writer)
    for doc in docs:
        w.add_document(**doc)
    w.commit()
    return ix


def _postings(ix):
    out = {}
    with ix.reader() as r:
        for field in r.indexed_field_names():
            for term in r.lexicon(field):
                m = r.postings(field, term)
                got = []
                while m.is_active():
                    got.append((m.id(), m.weight(), m.value()))
                    m.next()
                out[field, term] = got
    return out


def test_the_index_writes_compact_blocks_with_whooshs_postings(lib, tmp_path):
    """The same documents indexed with Whoosh's pickled blocks and with the compact ones: every term's
    postings (docnums, weights, positions) are the same, read through Whoosh's matcher, and the postings
    file is less than half the size."""
    docs = _documents(lib)
    compact = _write_index(tmp_path / "compact", docs)
    with patches.whoosh_own_postings():
        pickled = _write_index(tmp_path / "pickled", docs)
    assert _postings(compact) == _postings(pickled)  # and the patched reader still reads Whoosh's own blocks
    compact_pst = sum(f.stat().st_size for f in (tmp_path / "compact").glob("*.pst"))
    pickled_pst = sum(f.stat().st_size for f in (tmp_path / "pickled").glob("*.pst"))
    assert compact_pst < pickled_pst / 2
    both = {
        name: sum(f.stat().st_size for f in (tmp_path / name).glob("*.[pt][sr][tm]")) for name in ("compact", "pickled")
    }
    assert both["compact"] < both["pickled"] * 0.7  # postings and term tables together
    with compact.reader() as r:  # a term in one document has its posting in its term entry
        for field in r.indexed_field_names():
            for t in r.lexicon(field):
                assert r.term_info(field, t).is_inlined() == (r.doc_frequency(field, t) == 1)
        assert r.term_info("note", b"quuxword").is_inlined()
    assert (tmp_path / "compact").glob("*.pst") and all(
        f.read_bytes()[:4] in (patches.COMPACT_MAGIC, b"") for f in (tmp_path / "compact").glob("*.pst")
    )
    compact.close()
    pickled.close()


def test_an_index_of_schema_8_is_rebuilt_with_compact_blocks(data_dir, monkeypatch):
    """An index made before the compact blocks (schema 8, Whoosh's pickled blocks) is rebuilt when the
    library opens, and searches the same afterwards."""
    with monkeypatch.context() as m, patches.whoosh_own_postings():  # the library as schema 8 left it
        m.setattr(schema, "SCHEMA_VERSION", 8)
        old = schema.schema_fingerprint(schema.make_schema())
        lib = Library.open(data_dir)
        before = {q: lib.search(q).ids for q in ("learning", '"early exit"', "reinforc*", "title:BEXA")}
        lib.close()
    state = json.loads((data_dir / "index" / "readinglist-index.json").read_text())
    assert state["schema"] == old
    assert not any(f.read_bytes().startswith(patches.COMPACT_MAGIC) for f in (data_dir / "index").glob("*.pst"))

    messages: list[str] = []
    lib = Library.open(data_dir, notify=messages.append)
    assert {q: lib.search(q).ids for q in before} == before
    lib.close()
    assert any("rebuilding" in m for m in messages)
    assert all(f.read_bytes().startswith(patches.COMPACT_MAGIC) for f in (data_dir / "index").glob("*.pst"))


# ---- packed abstracts ----------------------------------------------------------------------------------

ABSTRACTS = [
    " ".join(["We bound the $\\ell_1$ risk of **sparse** models; see https://example.org/code, `pip install x`."] * 12),
    " ".join(["Schölkopf's kernels: ℓ₁-regularised, ﬁne — 日本語の要約も。"] * 20),
    "Short.",
    "",
    "A" * 200_000,  # a huge one
]


def _paper(n, abstract):
    from readinglist.markup import to_plain

    return NewPaper(f"{n:04d}seedabcdef", f"h{n}", f"k{n}", f"Title {n}", f"Title {n}", abstract, to_plain(abstract),
                    ["A. Author"], "V", 2020, "", [], [])  # fmt: skip


def test_an_abstract_packs_smaller_and_reads_back_the_same():
    for text in ABSTRACTS:
        value = pack(text)
        assert unpack(value) == text
        assert isinstance(value, bytes) == (len(text) >= 64)
        if isinstance(value, bytes):
            assert len(value) < len(text.encode("utf-8")) * 0.8
    assert unpack(None) == ""


def test_a_damaged_packed_abstract_says_so():
    value = pack(ABSTRACTS[0])
    assert isinstance(value, bytes)
    with pytest.raises(StoreError, match="damaged"):
        unpack(value[:1] + b"\xff" * 20)
    with pytest.raises(PackedTextError, match="unknown dictionary"):
        unpack(b"\x09" + value[1:])


def test_migration_0017_packs_every_abstract_and_readers_get_the_same_text(tmp_path, monkeypatch):
    """A library from before 0017 stored its abstracts as text: after it each is packed (those that shrink),
    every reader gets the same text back, a removed paper comes back with its abstract, the file is
    smaller, and the old one is kept as a backup."""
    path = tmp_path / "library.db"
    monkeypatch.setattr(store_mod, "MIGRATIONS", [m for m in store_mod.MIGRATIONS if m[0] < "0017"])
    monkeypatch.setattr(store_mod, "pack", lambda text: text)  # the old code stored the text
    s = Store(path)
    texts = [ABSTRACTS[n % len(ABSTRACTS)] + (str(n) if n % len(ABSTRACTS) != 3 else "") for n in range(400)]
    ids = s.insert_papers(s.source_id("x", "x", "jsonl"), [_paper(n, t) for n, t in enumerate(texts)], 1)
    want = dict(zip(ids, texts, strict=True))
    s.close()
    monkeypatch.undo()
    before = path.stat().st_size

    s = Store(path)
    assert "0017_packed_abstracts" in s.applied_migrations()
    kinds = dict(s.db.execute("SELECT id, typeof(abstract) FROM papers"))
    assert {kinds[pid] for pid, t in want.items() if len(t) >= 64} == {"blob"}
    assert {kinds[pid] for pid, t in want.items() if len(t) < 64} == {"text"}
    from readinglist.markup import to_plain

    assert {p.id: p.abstract for p in s.papers(ids)} == want
    plain = {pid: to_plain(t) for pid, t in want.items()}
    assert {pid: text for pid, _, text in s.topic_rows()} == plain
    assert {pid: text for pid, (_, text) in s.texts(ids).items()} == plain
    assert {row[0]: row[3] for row in s.texts_since(0)} == plain
    source = s.source_id("x", "x", "jsonl")
    assert {r[0]: r[3] for r in s.source_papers(source)} == want
    store_mod._m0017_packed_abstracts(s.db)  # idempotent: run again, nothing changes
    assert dict(s.db.execute("SELECT id, typeof(abstract) FROM papers")) == kinds

    gone = ids[:5]
    assert s.remove_papers(gone) == gone  # the removed record is kept as JSON, its abstract as text
    s.restore_papers(gone)
    assert {p.id: p.abstract for p in s.papers(gone)} == {pid: want[pid] for pid in gone}
    assert {r[0]: r[1] for r in s.db.execute("SELECT id, typeof(abstract) FROM papers")} == kinds
    s.close()
    assert path.stat().st_size < before * 0.6  # VACUUMed: the text's pages are gone
    backup = sqlite3.connect(tmp_path / "library.before-0017_packed_abstracts.db")
    assert {r[0] for r in backup.execute("SELECT typeof(abstract) FROM papers")} == {"text"}
    backup.close()


def test_an_imported_abstract_is_stored_packed_and_exported_as_written(empty_lib, tmp_path):
    from readinglist.export import render
    from readinglist.papers import ExportOptions

    f = tmp_path / "p.jsonl"
    f.write_text("".join(json.dumps({"title": f"Paper {n}", "abstract": ABSTRACTS[n]}) + "\n" for n in range(3)))
    empty_lib.import_files([f])
    papers = empty_lib.papers(empty_lib.search("").ids)
    assert sorted(p.abstract for p in papers) == sorted(ABSTRACTS[:3])
    kinds = dict(empty_lib.store.db.execute("SELECT auto_title, typeof(abstract) FROM papers"))
    assert kinds == {"Paper 0": "blob", "Paper 1": "blob", "Paper 2": "text"}
    out = render(papers, ExportOptions(format="markdown", abstracts=True))
    assert "ℓ₁-regularised" in out and "日本語の要約も" in out
    assert empty_lib.search('"sparse models"').ids and empty_lib.search("日本語の要約も").ids


def _plans(s, call):
    """The query plans of the SELECTs `call` runs on the store's connection."""
    statements: list[str] = []
    s.db.set_trace_callback(statements.append)
    try:
        call()
    finally:
        s.db.set_trace_callback(None)
    return [
        " / ".join(r[3] for r in s.db.execute("EXPLAIN QUERY PLAN " + q))
        for q in statements
        if q.lstrip().upper().startswith("SELECT")
    ]


def test_duplicate_candidates_are_found_through_the_keys_indexes(tmp_path):
    """The keys' indexes are partial (keys that are not empty): a query SQLite cannot prove to ask only for
    such keys reads every paper's record instead, for each chunk of an import."""
    s = Store(tmp_path / "library.db")
    texts = [f"{n} " + ABSTRACTS[n % 2] for n in range(40)]
    s.insert_papers(s.source_id("x", "x", "jsonl"), [_paper(n, t) for n, t in enumerate(texts)], 1)
    keys = list(s.db.execute("SELECT title_key, text_key FROM paper_keys LIMIT 5"))
    assert all(k[0] and k[1] for k in keys)
    source = s.source_id("elsewhere", "elsewhere", "jsonl")
    found = []
    plans = _plans(s, lambda: found.extend(s.duplicate_candidates([k[0] for k in keys], [k[1] for k in keys], source)))
    assert len(found) == 5
    joined = [p for p in plans if "paper_keys" in p or " k " in p or "SCAN p" in p]
    assert len(joined) == 2, plans
    assert "USING INDEX paper_keys_title" in joined[0] and "USING INDEX paper_keys_text" in joined[1]
    assert not any("SCAN p" in p for p in joined)
    s.close()


def test_migration_0018_indexes_a_sources_papers_by_the_source_alone(tmp_path, monkeypatch):
    path = tmp_path / "library.db"
    monkeypatch.setattr(store_mod, "MIGRATIONS", [m for m in store_mod.MIGRATIONS if m[0] < "0018"])
    s = Store(path)
    source = s.source_id("x", "x", "jsonl")
    s.insert_papers(source, [_paper(n, ABSTRACTS[0]) for n in range(50)], 1)
    s.db.execute("DROP INDEX papers_source")  # as 0001 made it before 0018
    s.db.execute("CREATE INDEX papers_source ON papers(source_id, content_hash)")
    before = s.source_papers(source)
    s.close()
    monkeypatch.undo()

    s = Store(path)
    assert "0018_source_index" in s.applied_migrations()
    assert [r[2] for r in s.db.execute("PRAGMA index_info(papers_source)")] == ["source_id"]
    assert sorted(s.source_papers(source)) == sorted(before)  # no order asked for
    plans = _plans(s, lambda: (s.source_papers(source), s.source_titles(source)))
    assert sum("USING INDEX papers_source (source_id=?)" in p for p in plans) == 2, plans
    store_mod._m0018_source_index(s.db)  # idempotent
    assert [r[2] for r in s.db.execute("PRAGMA index_info(papers_source)")] == ["source_id"]
    s.close()
