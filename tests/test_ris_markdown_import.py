"""RIS import and the Markdown reading list read back: fields, bad input, a note's headings."""

from __future__ import annotations

import pytest

from readinglist import export, mdtext
from readinglist.export import ExportOptions
from readinglist.importers import parse_file
from readinglist.papers import ImportFailure

ZOTERO_RIS = """\ufeffTY  - JOUR
T1  - Deep learning for the
  wrapped title
A1  - LeCun, Yann
AU  - Bengio, Yoshua
AU  - Hinton, Geoffrey
Y1  - 2015///
N2  - An abstract.
KW  - Neural networks
KW  - Review
N1  - Read this first
JO  - Nature
DO  - 10.1038/nature14539
ER  -

TY  - CPAPER
TI  - Second
AU  - Smith, J., Jr.
PY  - 2020
T2  - ICML
UR  - https://example.org/p
ID  - smith2020second
ER  -\x20
"""


def test_ris_fields(tmp_path):
    f = tmp_path / "z.ris"
    f.write_text(ZOTERO_RIS, encoding="utf-8")
    parsed = parse_file(f)
    assert parsed.kind == "ris"
    a, b = parsed.records
    assert a.title == "Deep learning for the wrapped title"
    assert a.authors == ["Yann LeCun", "Yoshua Bengio", "Geoffrey Hinton"]
    assert (a.year, a.venue, a.abstract, a.note) == (2015, "Nature", "An abstract.", "Read this first")
    assert a.keywords == ["Neural networks", "Review"]  # in the case the file gives
    assert a.tags == []
    assert a.url == "https://doi.org/10.1038/nature14539"
    assert (b.authors, b.year, b.venue, b.url, b.citation_key) == (
        ["J. Smith Jr."],
        2020,
        "ICML",
        "https://example.org/p",
        "smith2020second",
    )


@pytest.mark.parametrize(
    ("text", "problem", "line"),
    [
        ("TI  - a\nER  - \n", "comes before any record", 1),
        ("TY  - JOUR\nTI  - a\nTY  - JOUR\nER  - \n", "starts before the one at line 1 ends", 3),
        ("just some text\n", "is not RIS here", 1),
        ("TY  - JOUR\nTI  - a\nER  - \n\nnot a tag\n", "is not RIS here", 5),
    ],
)
def test_bad_ris_names_the_file_and_line(tmp_path, text, problem, line):
    f = tmp_path / "bad.ris"
    f.write_text(text)
    with pytest.raises(ImportFailure) as info:
        parse_file(f)
    assert problem in str(info.value) and info.value.path == f
    assert f"line {line}" in str(info.value)


def test_a_last_ris_record_without_er_is_read_to_the_end_of_the_file(empty_lib, tmp_path):
    """Zotero and EndNote accept it; refusing the whole file for the last line lost every record."""
    f = tmp_path / "noer.ris"
    f.write_text(
        "TY  - JOUR\nTI  - First\nER  - \n\nTY  - JOUR\nTI  - RIS without end record\nAU  - Smith, J\nPY  - 2019\n"
    )
    parsed = parse_file(f)
    assert [(r.title, r.authors, r.year) for r in parsed.records] == [
        ("First", [], None),
        ("RIS without end record", ["J Smith"], 2019),
    ]
    assert parsed.warnings == ["noer.ris, line 5: the last record has no “ER  - ”; read to the end of the file"]
    [summary] = empty_lib.import_files([f])
    assert summary.added == 2 and "has no “ER  - ”" in summary.warnings[0]


def test_a_huge_ris_record_stops_at_the_limit(tmp_path):
    from readinglist.importers import ImportContext, Limits

    f = tmp_path / "big.ris"
    f.write_text("TY  - JOUR\n" + "AB  - " + "x" * 5000 + "\n" + ("  more words\n" * 500) + "ER  - \n")
    with pytest.raises(ImportFailure, match="longer than the limit"):
        parse_file(f, ImportContext(limits=Limits(record_chars=4096)))


def test_ris_import_into_a_library(empty_lib, tmp_path):
    f = tmp_path / "z.ris"
    f.write_text(ZOTERO_RIS)
    [summary] = empty_lib.import_files([f])
    assert summary.added == 2
    [p] = empty_lib.papers(empty_lib.search("tag:review").ids)
    assert p.note == "Read this first" and p.authors[0] == "Yann LeCun"


def test_the_reading_list_demotes_a_notes_headings(lib):
    [pid, *_] = lib.search("").ids
    lib.set_note(pid, "# Idea\n\ntext\n\nSetext\n======\n\n```\n# not a heading\n```")
    text = export.render(lib.papers([pid]), ExportOptions(format="markdown"))
    assert "  ### Idea" in text and "  ### Setext" in text and "  # not a heading" in text
    assert "\n  # Idea" not in text


def test_shift_headings_goes_both_ways():
    note = "# A\n\n## B\n\n    # indented code stays\n\n```\n# fenced\n```"
    down = mdtext.shift_headings(note, 2)
    assert down.startswith("### A\n\n#### B")
    assert "    # indented code stays" in down and "\n# fenced" in down
    assert mdtext.shift_headings(down, -2) == note


def test_markdown_reading_list_fields(lib, tmp_path):
    ids = lib.search("").ids
    lib.set_state([ids[0]], "skimmed")
    lib.set_priority([ids[0]], 2)
    lib.add_tags([ids[0]], ["a tag", "x`y"])
    lib.set_note(ids[0], "# Heading\n\n- point")
    f = tmp_path / "list.md"
    export.export(lib.papers(ids), ExportOptions(format="markdown", abstracts=True, group="tag"), f)
    records = {r.title: r for r in parse_file(f).records}
    p = lib.paper(ids[0])
    assert p is not None
    r = records[p.title]
    assert (r.state, r.priority, sorted(r.tags), r.note) == ("skimmed", 2, ["a tag", "x`y"], "# Heading\n\n- point")
    assert (r.venue, r.year) == (p.venue, p.year)
    assert r.abstract  # the exported abstract comes back as Markdown
    assert len(records) == len(ids)


def test_a_markdown_file_that_is_not_ours_is_refused_with_a_message(tmp_path):
    f = tmp_path / "readme.md"
    f.write_text("# Project\n\n- [x] **done**\n")
    with pytest.raises(ImportFailure, match="not a readinglist export"):
        parse_file(f)


def test_a_list_grouped_by_tag_gives_a_paper_under_two_tags_once(lib, tmp_path):
    """A paper listed under each of its tags was imported once a tag (a fresh library got 22 papers of 19, and
    the library it came from 3 more): its items carry one key, which is one paper."""
    from readinglist.library import Library

    ids = lib.search("").ids
    lib.add_tags(ids[:3], ["a", "b"])
    file = tmp_path / "by-tag.md"
    export.export(lib.papers(ids), ExportOptions(format="markdown", group="tag"), file)
    assert file.read_text(encoding="utf-8").count(f"key `{lib.paper(ids[0]).citation_key}`") == 2
    fresh = Library.open(tmp_path / "fresh", seed=False)
    try:
        [summary] = fresh.import_files([file])
        assert (summary.added, summary.warnings) == (19, [])
        assert len(fresh.search("tag:a").ids) == 3 and set(fresh.search("tag:b").ids) == set(fresh.search("tag:a").ids)
    finally:
        fresh.close()
    [back] = lib.import_files([file])
    assert (back.added, back.unchanged) == (0, 19)


def test_a_ris_author_et_al_is_no_author_but_a_list_cut_short(tmp_path):
    f = tmp_path / "cut.ris"
    f.write_text("TY  - JOUR\nTI  - A paper\nAU  - Smith, Ann\nAU  - et al.\nJO  - Nature\nPY  - 2015\nER  - \n")
    (r,) = parse_file(f).records
    assert r.authors == ["Ann Smith"] and r.bib["moreauthors"] == "yes"


def test_a_ris_export_of_a_series_without_a_venue_reads_back_without_a_venue(empty_lib, tmp_path):
    """A BibTeX book with a series and no journal or booktitle (Zotero's fixture Alexander:2009do): RIS writes
    the series as T3, which the import took for the venue when no T2 was there (a trial). T3 is the series."""
    bib = tmp_path / "a.bib"
    bib.write_text(
        "@book{Alexander:2009do,\n  title = {Revisiting Read Wear: Analysis, Design, and Evaluation of a Footprints"
        " Scrollbar},\n  author = {Alexander, Jason and Cockburn, Andy},\n  year = 2009,\n  publisher = {ACM},\n"
        "  series = {Analysis, Design, and Evaluation of a Footprints Scrollbar},\n}\n",
        encoding="utf-8",
    )
    empty_lib.import_files([bib])
    [p] = empty_lib.papers(empty_lib.search("").ids)
    assert (p.venue, p.bib.get("series")) == ("", "Analysis, Design, and Evaluation of a Footprints Scrollbar")
    ris = tmp_path / "a.ris"
    export.export([p], ExportOptions(format="ris"), ris)
    assert "T3  - Analysis, Design" in ris.read_text(encoding="utf-8")
    [r] = parse_file(ris).records
    assert (r.venue, r.year, r.bib.get("series"), r.bib.get("type")) == ("", 2009, p.bib["series"], "book")


def test_a_markdown_venue_without_a_year_reads_back_as_it_was(empty_lib, tmp_path):
    """A venue ending in a year ("…Wireless Pervasive Computing 2010") of a paper without one came back as the
    venue "…Computing" and the year 2010 (a trial); one of a paper without authors, as its authors. The list
    marks such a venue "n.d." (no date), which the import reads as the venue alone; any other stays as it was."""
    import json

    venue = "IEEE International Symposium on Wireless Pervasive Computing 2010"
    rows = [
        {"title": "Energy harvesting", "abstract": "About energy.", "authors": ["Ann Lee"], "venue": venue},
        {"title": "Anonymous venue", "abstract": "About no one.", "venue": "Workshop on Things"},
        {"title": "Venue and year", "abstract": "About time.", "authors": ["Bo Chen"], "venue": venue, "year": 2010},
        {"title": "Plain venue", "abstract": "About plain.", "authors": ["Cy Dee"], "venue": "NeurIPS"},
        {"title": "Year alone", "abstract": "About a year.", "year": 1999},
    ]
    source = tmp_path / "v.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    empty_lib.import_files([source])
    papers = empty_lib.papers(empty_lib.search("").ids)
    f = tmp_path / "list.md"
    export.export(papers, ExportOptions(format="markdown"), f)
    text = f.read_text(encoding="utf-8")
    assert f"Ann Lee · {venue} n.d. ·" in text and "— NeurIPS" not in text and "Cy Dee · NeurIPS ·" in text
    back = {r.title: (r.authors, r.venue, r.year) for r in parse_file(f).records}
    assert back == {p.title: (p.authors, p.venue, p.year) for p in papers}
