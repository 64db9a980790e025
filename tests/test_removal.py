"""Removing papers from the library: hidden from everything, annotations kept, brought back by undo or a re-import."""

from __future__ import annotations

import json
import sqlite3

import pytest

from readinglist import importing, paths
from readinglist.cli import main
from readinglist.export import ExportOptions, render
from readinglist.store import Store


def _annotate(lib, pid):
    lib.add_tags([pid], ["keep me"])
    lib.set_note(pid, "my note on it")
    lib.set_state([pid], "read")
    lib.set_title(pid, "My own title")


def test_a_removed_paper_is_in_no_list_count_search_export_or_related_papers(lib):
    pid = lib.search("BEXA").ids[0]
    other = lib.search("").ids[1]
    _annotate(lib, pid)
    lib.add_tags([other], ["keep me"])
    assert lib.related(other)  # the index is open: its documents must go too
    assert lib.remove([pid]) == [pid]
    assert lib.counts() == {
        "unread": 18,
        "queued": 0,
        "skimmed": 0,
        "read": 0,
        "skipped": 0,
        "all": 18,
        "triaged": 0,
        "untriaged": 18,
    }
    assert lib.store.count() == 18  # the cached count moved on
    assert pid not in lib.search("").ids and len(lib.search("").ids) == 18
    assert lib.search("BEXA").ids == [] and lib.search('tag:"keep me"').ids == [other]
    assert lib.search("state:read").ids == []
    assert lib.tag_counts() == [("keep me", 1)]
    assert lib.paper(pid) is None and lib.papers([pid, other])[0].id == other
    assert pid not in lib.ordered_ids("title") and pid not in lib.ordered_ids("added", descending=True)
    assert all(pid not in lib.related(i) for i in lib.search("").ids[:5])
    assert "BEXA" not in render(lib.papers(lib.search("").ids), ExportOptions())
    assert [r.id for r in lib.removed_papers()] == [pid] and lib.removed_papers()[0].title == "My own title"


def test_undo_of_a_removal_brings_back_every_annotation_under_the_same_id(lib):
    pid = lib.search("BEXA").ids[0]
    uid = lib.paper(pid).uid
    _annotate(lib, pid)
    lib.remove([pid])
    assert lib.restore_removed([pid]) == {pid: pid}
    p = lib.paper(pid)
    assert (p.uid, p.tags, p.note, p.state, p.title) == (uid, ["keep me"], "my note on it", "read", "My own title")
    assert lib.search("BEXA").ids == [pid] and lib.search('tag:"keep me"').ids == [pid]
    assert lib.counts()["all"] == 19 and lib.removed_papers() == []
    assert lib.ordered_ids("added") == list(range(1, 20))


def test_a_reimport_of_the_same_record_brings_a_removed_paper_back_with_its_annotations(lib):
    pid = lib.search("BEXA").ids[0]
    _annotate(lib, pid)
    lib.remove([pid])
    (summary,) = lib.import_files([paths.bundled_corpus()], bundled=True)
    assert (summary.added, summary.restored, summary.missing) == (0, 1, 0)
    assert "1 brought back" in summary.line()
    p = lib.paper(pid)
    assert (p.tags, p.note, p.state, p.title) == (["keep me"], "my note on it", "read", "My own title")
    assert lib.search("BEXA").ids == [pid] and lib.counts()["all"] == 19


def test_a_reimport_of_a_file_without_the_removed_paper_leaves_it_removed(empty_lib, tmp_path):
    f = tmp_path / "two.jsonl"
    f.write_text('{"title": "First paper", "abstract": "About one."}\n{"title": "Second paper", "abstract": "Two."}\n')
    empty_lib.import_files([f])
    first = empty_lib.search("First").ids[0]
    empty_lib.remove([first])
    f.write_text('{"title": "Second paper", "abstract": "Two."}\n')
    (summary,) = empty_lib.import_files([f])
    assert (summary.added, summary.unchanged, summary.missing, summary.restored) == (0, 1, 0, 0)
    assert empty_lib.paper(first) is None and [r.id for r in empty_lib.removed_papers()] == [first]


def test_a_new_paper_never_takes_a_removed_papers_id(empty_lib, tmp_path):
    f = tmp_path / "a.jsonl"
    f.write_text('{"title": "Alpha paper", "abstract": "One."}\n{"title": "Beta paper", "abstract": "Two."}\n')
    empty_lib.import_files([f])
    last = max(empty_lib.search("").ids)
    empty_lib.remove([last])  # SQLite would give the next paper max(id) + 1: this one's id
    g = tmp_path / "b.jsonl"
    g.write_text('{"title": "Gamma paper", "abstract": "Three."}\n')
    empty_lib.import_files([g])
    assert last not in empty_lib.search("").ids
    assert empty_lib.restore_removed([last]) == {last: last}
    assert empty_lib.search("Beta").ids == [last]


def test_library_order_without_reading_the_table_knows_the_removed_ids(lib):
    store = lib.store
    lib.remove([3, 7])
    queries: list[str] = []
    store.db.set_trace_callback(queries.append)
    ids = store.ordered_ids("added")
    store.db.set_trace_callback(None)
    assert ids == [i for i in range(1, 20) if i not in (3, 7)]
    assert not any("ORDER BY" in q for q in queries)  # no scan of the papers' records
    assert store.ordered_ids("added", descending=True) == ids[::-1]


def test_a_library_that_others_change_counts_what_they_removed(tmp_path, lib):
    other = Store(lib.store.path)
    assert lib.store.count() == 19
    other.remove_papers([1, 2])
    other.close()
    assert lib.store.count() == 17 and lib.counts()["all"] == 17


def test_removing_keeps_the_database_consistent(lib):
    lib.add_tags([5], ["only here"])
    lib.remove([5])
    db = sqlite3.connect(lib.store.path)
    assert db.execute("SELECT count(*) FROM paper_tags WHERE paper_id = 5").fetchone() == (0,)
    assert db.execute("SELECT count(*) FROM tags WHERE name = 'only here'").fetchone() == (0,)
    assert db.execute("SELECT count(*) FROM paper_columns WHERE paper_id = 5").fetchone() == (0,)
    assert db.execute("SELECT paper_id FROM index_journal WHERE paper_id = 5").fetchone() is None  # written
    db.close()
    lib.restore_removed([5])
    assert lib.tag_counts() == [("only here", 1)]


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_remove_list_and_unremove(capsys, tmp_path):
    dd = str(tmp_path / "cli")
    code, out, _ = run(capsys, "--data-dir", dd, "search", "BEXA", "--json")
    import json

    uid = json.loads(out)[0]["id"]
    run(capsys, "--data-dir", dd, "tag", uid, "later")
    code, out, err = run(capsys, "--data-dir", dd, "remove", uid)
    assert code == 0 and f"{uid}: removed" in out and "annotations are kept" in err
    code, out, err = run(capsys, "--data-dir", dd, "list")
    assert "BEXA" not in out and len(out.strip().splitlines()) == 18
    code, out, err = run(capsys, "--data-dir", dd, "show", uid)
    assert code == 1 and "was removed" in err and f"unremove {uid}" in err
    code, out, _ = run(capsys, "--data-dir", dd, "removed")
    assert uid in out and "BEXA" in out
    code, out, _ = run(capsys, "--data-dir", dd, "unremove", uid[:4])
    assert code == 0 and f"{uid}: back in the library" in out
    code, out, _ = run(capsys, "--data-dir", dd, "show", uid)
    assert code == 0 and "tags: later" in out
    code, _, err = run(capsys, "--data-dir", dd, "unremove", uid)
    assert code == 1 and "no removed paper" in err


@pytest.mark.parametrize("chunk", [None, 1], ids=["kept-from-the-first-read", "read-again-from-the-file"])
def test_a_revised_record_of_a_removed_paper_brings_it_back_revised(empty_lib, tmp_path, monkeypatch, chunk):
    """Removed papers take part in every step of the matching: by content, by title (the text read again
    when the file is over one chunk) and by a similar abstract."""
    if chunk is not None:
        monkeypatch.setattr(importing, "CHUNK", chunk)
        monkeypatch.setattr(importing, "KEEP_RECORDS", chunk)  # over it: read again
    same = {"title": "Same paper", "abstract": "Kept exactly as it was.", "authors": ["A B"]}
    titled = {"title": "Titled paper", "abstract": "Sparse coding of natural images with learned dictionaries."}
    similar = {"title": "Old name", "abstract": "Bandit algorithms for online advertising with delayed feedback "
               "and budget constraints in large auction markets."}  # fmt: skip
    other = {"title": "Other paper", "abstract": "Stays in the library throughout."}
    f = tmp_path / "conf.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in (same, titled, similar, other)))
    empty_lib.import_files([f])
    ids = {t: empty_lib.search(f'"{t}"').ids[0] for t in ("Same paper", "Titled paper", "Old name")}
    for pid in ids.values():
        _annotate(empty_lib, pid)
    empty_lib.remove(list(ids.values()))
    revised_title = dict(titled, abstract=titled["abstract"] + " Extended version.")
    revised_similar = dict(similar, title="New name")
    f.write_text("".join(json.dumps(r) + "\n" for r in (same, revised_title, revised_similar, other)))
    (summary,) = empty_lib.import_files([f])
    assert (summary.added, summary.updated, summary.unchanged, summary.restored) == (0, 2, 2, 3)
    assert empty_lib.removed_papers() == [] and empty_lib.counts()["all"] == 4
    for pid in ids.values():
        p = empty_lib.paper(pid)
        assert (p.tags, p.note, p.state, p.title) == (["keep me"], "my note on it", "read", "My own title")
    assert "Extended version" in empty_lib.paper(ids["Titled paper"]).abstract
    assert empty_lib.search("auction").ids == [ids["Old name"]]
