import contextlib
import csv
import io
import json
from datetime import date

import bibtexparser
import pytest

from readinglist.export import ExportOptions, export, render


def _setup(lib):
    ids = lib.search("").ids
    lib.set_state(ids[:2], "read")
    lib.set_state([ids[2]], "skimmed")
    lib.add_tags(ids[:3], ["to cite"])
    lib.set_note(ids[0], "Line one\nLine two")
    lib.set_title(ids[1], "A *starred* [title]")
    return lib.papers(ids)


def test_markdown_task_list_grouped_by_state(lib):
    papers = _setup(lib)
    md = render(papers, ExportOptions(query="x", abstracts=True), today=date(2026, 11, 30))
    assert md.startswith("# Reading list — ICML 2026\n")
    assert "query `x` · 2026-11-30 · 19 papers · 2 read" in md
    assert md.index("## Read (2)") < md.index("## Skimmed (1)") < md.index("## Unread (16)")
    assert "- [x] **" in md and "*(skimmed)*" in md and "- [ ] **" in md
    assert r"A \*starred\* \[title\]" in md
    assert "  Line one\n  Line two" in md
    assert "`to cite`" in md
    assert "[code](https://github.com/" in md
    assert "\\emph" not in md and "*self-feedback*" in md  # abstract converted to Markdown
    assert "$" in md  # math kept as $…$


def test_markdown_grouped_by_tag(lib):
    papers = _setup(lib)
    md = render(papers, ExportOptions(group="tag"))
    assert "## `to cite` (3)" in md and "## Untagged (16)" in md


def test_bibtex_reparses(lib):
    papers = _setup(lib)
    text = render(papers, ExportOptions(format="bibtex"))
    parsed = bibtexparser.parse_string(text)
    assert len(parsed.entries) == 19 and not parsed.failed_blocks
    keys = {e.key for e in parsed.entries}
    assert len(keys) == 19


def test_csv_and_json(lib, tmp_path):
    papers = _setup(lib)
    out = tmp_path / "list.csv"
    export(papers, ExportOptions(format="csv"), out)
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # spreadsheets read the BOM as UTF-8
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    assert len(rows) == 19 and rows[0]["state"] == "read" and rows[0]["note"] == "Line one\nLine two"
    data = json.loads(render(papers, ExportOptions(format="json")))
    assert data[0]["tags"] == ["to cite"] and isinstance(data[0]["links"], list)


def test_export_is_atomic(lib, tmp_path, monkeypatch):
    papers = _setup(lib)
    out = tmp_path / "list.md"
    out.write_text("old list")

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr("os.replace", boom)
    with contextlib.suppress(OSError):
        export(papers, ExportOptions(), out)
    assert out.read_text() == "old list"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_an_export_of_no_papers_does_not_empty_a_file(lib, tmp_path):
    """The window writes through export() too: an export of none over a reading list is refused, the file kept."""
    from readinglist.papers import ExportError

    papers = _setup(lib)
    for fmt, name in (("bibtex", "k.bib"), ("markdown", "k.md"), ("ris", "k.ris")):
        out = tmp_path / name
        export(papers, ExportOptions(format=fmt), out)
        before = out.read_bytes()
        with pytest.raises(ExportError, match="no papers to export"):
            export([], ExportOptions(format=fmt), out)
        assert out.read_bytes() == before


def test_markdown_lists_each_states_priorities_first(lib):
    # a trial's "## Queued" put an unprioritised paper before a P1: a reading list reads P1 first
    ids = lib.search("").ids
    lib.set_state(ids[:4], "queued")
    lib.set_priority([ids[3]], 1)
    lib.set_priority([ids[2]], 2)
    md = render(lib.papers(ids), ExportOptions())
    queued = md.split("## Queued (4)")[1].split("## ")[0]
    titles = [p.title for p in lib.papers([ids[3], ids[2], ids[0], ids[1]])]
    at = [queued.index(t[:40]) for t in titles]
    assert at == sorted(at), queued


def test_copy_bibtex_carries_none_of_the_readers_own_fields(lib):
    # Copy BibTeX (Ctrl+Shift+B) wrote `priority = {prio1}`; its state, tags and note were already left out
    from readinglist.citation import bibtex_citations

    [pid] = lib.search("").ids[:1]
    lib.set_title(pid, "Why readstatus matters")  # a title is not a reader's field: it stays, whatever it says
    lib.set_state([pid], "read")
    lib.set_priority([pid], 1)
    lib.add_tags([pid], ["to cite"])
    lib.set_note(pid, "my note")
    [p] = lib.papers([pid])
    assert "priority = {prio1}" in render([p], ExportOptions(format="bibtex"))  # the export carries them
    entry = bibtex_citations([p])
    [parsed] = bibtexparser.parse_string(entry).entries
    assert set(parsed.fields_dict) == {"title", "booktitle", "year"}, entry
    assert "readstatus" in parsed.fields_dict["title"].value
    assert parsed.key == p.citation_key
