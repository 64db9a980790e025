"""What keeps the library small on disk (issue 18): posting blocks in a compact binary form. It reads back
exactly what was written."""

import json
from array import array
from itertools import pairwise

import pytest

from readinglist.index import patches, schema
from readinglist.library import Library

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
    return [schema.document(p) for p in papers] * 3  # 57 documents: terms with longer posting lists


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


def test_the_index_writes_compact_blocks_with_whooshs_postings(lib, tmp_path, monkeypatch):
    """The same documents indexed with Whoosh's pickled blocks and with the compact ones: every term's
    postings (docnums, weights, positions) are the same, read through Whoosh's matcher, and the postings
    file is less than half the size."""
    from whoosh.codec.whoosh3 import W3PostingsWriter

    docs = _documents(lib)
    compact = _write_index(tmp_path / "compact", docs)
    with monkeypatch.context() as m:
        m.setattr(W3PostingsWriter, "_write_block", W3PostingsWriter._readinglist_original)
        pickled = _write_index(tmp_path / "pickled", docs)
    assert _postings(compact) == _postings(pickled)  # and the patched reader still reads Whoosh's own blocks
    compact_pst = sum(f.stat().st_size for f in (tmp_path / "compact").glob("*.pst"))
    pickled_pst = sum(f.stat().st_size for f in (tmp_path / "pickled").glob("*.pst"))
    assert compact_pst < pickled_pst / 2
    assert (tmp_path / "compact").glob("*.pst") and all(
        f.read_bytes()[:4] in (patches.COMPACT_MAGIC, b"") for f in (tmp_path / "compact").glob("*.pst")
    )
    compact.close()
    pickled.close()


def test_an_index_of_schema_8_is_rebuilt_with_compact_blocks(data_dir, monkeypatch):
    """An index made before the compact blocks (schema 8, Whoosh's pickled blocks) is rebuilt when the
    library opens, and searches the same afterwards."""
    from whoosh.codec.whoosh3 import W3PostingsWriter

    with monkeypatch.context() as m:  # the library as the previous version left it
        m.setattr(W3PostingsWriter, "_write_block", W3PostingsWriter._readinglist_original)
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
