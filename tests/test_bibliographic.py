"""A paper's bibliographic record (readinglist.biblio): kept from every format that has one, written back by
every export that can say it, carried by whatever carries the paper, and the DOI the strongest duplicate sign."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3

import bibtexparser
import pytest
from test_bibtex_export import paper

from readinglist import biblio
from readinglist.export import ExportOptions, render
from readinglist.importers import parse_file
from readinglist.library import Library
from readinglist.papers import Paper
from readinglist.store import Store
from tests.conftest import corpus

BIB = r"""
@Article{Adachi_1989,
  Title    = {Cluster model investigation of the electronic state in cuprous oxide},
  Author   = {Adachi, H. and Takano, M.},
  Journal  = {Physica {C}: Superconductivity},
  Year     = {1989},
  Month    = jan,
  Number   = {1},
  Pages    = {169--179},
  Volume   = {157},
  Publisher = {Elsevier},
  Doi      = {https://doi.org/10.1016/0921-4534(89)90484-X},
  ISSN     = {0921-4534},
}

@InProceedings{lovelace2020,
  title     = {Notes on the Analytical Engine},
  author    = {Ada Lovelace and Charles Babbage},
  booktitle = {Proceedings of the {\"O}sterreichische Conference on Engines},
  editor    = {Menabrea, Luigi and Taylor, Richard},
  year      = {2020},
  pages     = {1--9},
  publisher = {Springer},
  address   = {Wien},
  series    = {LNCS},
  doi       = {10.1007/978-3-030\_12345},
  eprint    = {2001.00001},
  archivePrefix = {arXiv},
  primaryClass = {cs.LG},
}

@phdthesis{turing1938,
  title  = {Systems of Logic Based on Ordinals},
  author = {Alan Turing},
  school = {Princeton University},
  year   = {1938},
}
"""
KEPT = ("type", "journal", "booktitle", "volume", "number", "pages", "doi", "publisher")


def _bib_file(tmp_path, text: str = BIB, name: str = "refs.bib"):
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    return f


def _by_key(records) -> dict[str, dict[str, str]]:
    return {r.citation_key: r.bib for r in records}


def _entries(text: str) -> dict[str, tuple[str, dict[str, str]]]:
    parsed = bibtexparser.parse_string(text)
    assert not parsed.failed_blocks, text
    return {e.key: (e.entry_type, {f.key: f.value for f in e.fields}) for e in parsed.entries}


# ---- import --------------------------------------------------------------------------------------------


def test_bibtex_keeps_type_container_volume_pages_doi_and_decodes_latex(tmp_path):
    got = _by_key(parse_file(_bib_file(tmp_path)).records)
    assert got["Adachi_1989"] == {
        "type": "article", "journal": "Physica C: Superconductivity", "volume": "157", "number": "1",
        "pages": "169-179", "month": "1", "publisher": "Elsevier", "issn": "0921-4534",
        "doi": "10.1016/0921-4534(89)90484-X",
    }  # fmt: skip
    assert got["lovelace2020"] == {
        "type": "inproceedings", "booktitle": "Proceedings of the Österreichische Conference on Engines",
        "editor": "Luigi Menabrea; Richard Taylor", "pages": "1-9", "publisher": "Springer", "address": "Wien",
        "series": "LNCS", "doi": "10.1007/978-3-030_12345", "eprint": "2001.00001", "eprinttype": "arXiv",
        "eprintclass": "cs.LG",
    }  # fmt: skip
    assert got["turing1938"] == {"type": "phdthesis", "school": "Princeton University"}


def test_ris_reads_type_doi_volume_issue_pages_publisher_and_journal(tmp_path):
    f = tmp_path / "refs.ris"
    f.write_text(
        "TY  - JOUR\nTI  - Cluster model investigation\nAU  - Adachi, H.\nJO  - Physica C\nPY  - 1989\n"
        "DA  - 1989/01/15\nVL  - 157\nIS  - 1\nSP  - 169\nEP  - 179\nPB  - Elsevier\nSN  - 0921-4534\n"
        "DO  - doi:10.1016/0921-4534(89)90484-X\nER  - \n\n"
        "TY  - CHAP\nTI  - A chapter\nT2  - The Book of Engines\nED  - Menabrea, Luigi\nPB  - Springer\n"
        "SN  - 978-3-030-12345-6\nSP  - 1-9\nER  - \n\n"
        "TY  - THES\nTI  - Systems of Logic\nPB  - Princeton University\nER  - \n",
        encoding="utf-8",
    )
    a, chapter, thesis = (r.bib for r in parse_file(f).records)
    assert a == {"type": "article", "journal": "Physica C", "volume": "157", "number": "1", "pages": "169-179",
                 "month": "1", "publisher": "Elsevier", "issn": "0921-4534",
                 "doi": "10.1016/0921-4534(89)90484-X"}  # fmt: skip
    assert chapter == {"type": "incollection", "booktitle": "The Book of Engines", "editor": "Luigi Menabrea",
                       "pages": "1-9", "publisher": "Springer", "isbn": "978-3-030-12345-6"}  # fmt: skip
    assert thesis == {"type": "phdthesis", "school": "Princeton University"}


def test_csl_json_reads_type_doi_names_dates_and_container(tmp_path):
    f = tmp_path / "zotero.json"
    item = {
        "id": "vaswani2017", "citation-key": "vaswani2017", "type": "article-journal",
        "title": "Attention Is All You Need",
        "author": [{"family": "Vaswani", "given": "Ashish"}, {"family": "Maaten", "given": "Laurens",
                                                             "non-dropping-particle": "van der"}],
        "container-title": "Journal of Attention", "issued": {"date-parts": [[2017, 6]]}, "DOI": "10.1000/ATT",
        "volume": 30, "issue": "2", "page": "5998-6008", "publisher": "Curran", "ISSN": ["1234-5678"],
        "editor": [{"family": "Guyon", "given": "Isabelle"}], "URL": "https://example.org/att",
    }  # fmt: skip
    f.write_text(json.dumps([item]), encoding="utf-8")
    (r,) = parse_file(f).records
    assert r.authors == ["Ashish Vaswani", "Laurens van der Maaten"] and r.year == 2017
    assert r.venue == "Journal of Attention" and r.citation_key == "vaswani2017" and r.url == "https://example.org/att"
    assert r.bib == {"type": "article", "journal": "Journal of Attention", "editor": "Isabelle Guyon",
                     "volume": "30", "number": "2", "pages": "5998-6008", "month": "6", "publisher": "Curran",
                     "issn": "1234-5678", "doi": "10.1000/ATT"}  # fmt: skip
    conf = dict(item, type="paper-conference", **{"container-title": "Proc. NeurIPS"})
    f.write_text(json.dumps([conf]), encoding="utf-8")
    (r,) = parse_file(f).records
    assert r.bib["type"] == "inproceedings" and r.bib["booktitle"] == "Proc. NeurIPS" and "journal" not in r.bib


def test_a_paper_list_without_a_record_gets_none(tmp_path):
    """A paper list's "number" (an OpenReview submission's) or "type" ("poster") is no bibliographic record."""
    f = tmp_path / "papers.jsonl"
    f.write_text(json.dumps({"title": "A paper", "abstract": "Text.", "number": 42, "type": "poster"}) + "\n")
    (r,) = parse_file(f).records
    assert r.bib == {}


def test_csv_columns_are_read_where_present(tmp_path):
    f = tmp_path / "zotero.csv"
    f.write_text(
        "Item Type,Title,Author,Publication Title,Publication Year,DOI,Volume,Issue,Pages,Publisher,ISSN\n"
        "journalArticle,A paper,Ada Lovelace,Physica C,1989,10.1000/x,157,1,169-179,Elsevier,0921-4534\n"
        "conferencePaper,Another,Ada Lovelace,Proc. Engines,2020,,,,,,\n",
        encoding="utf-8",
    )
    a, b = parse_file(f).records
    assert a.bib == {"type": "article", "journal": "Physica C", "volume": "157", "number": "1",
                     "pages": "169-179", "publisher": "Elsevier", "issn": "0921-4534", "doi": "10.1000/x"}  # fmt: skip
    assert b.bib == {"type": "inproceedings", "booktitle": "Proc. Engines"}


def test_dois_are_normalised_and_what_is_not_one_is_refused():
    assert biblio.normalize_doi("https://doi.org/10.1000/A%2FB") == "10.1000/A/B"
    assert biblio.normalize_doi(" doi: 10.1000/xyz. ") == "10.1000/xyz"
    assert biblio.normalize_doi("{10.1000/a\\_b}") == "10.1000/a_b"
    for bad in ("j.desal.2005.02.017", "javascript:alert(1)", "10.1000/a b", "10.12/x", "10.1000/" + "x" * 400, ""):
        assert biblio.normalize_doi(bad) == ""
    assert biblio.doi_key("10.1000/ABC") == biblio.doi_key("https://dx.doi.org/10.1000/abc") == "10.1000/abc"
    assert biblio.doi_url("10.1002/(SICI)1097<461::AID>3.0.CO;2-H") == (
        "https://doi.org/10.1002/(SICI)1097%3C461::AID%3E3.0.CO;2-H"
    )


def test_bad_fields_are_left_out_and_said_without_a_traceback(tmp_path):
    f = _bib_file(
        tmp_path,
        "@article{x, title = {A paper}, journal = {J {\\'e}t\\'e $\\alpha$}, doi = {not a doi},\n"
        f"  volume = {{{'9' * 100_000}}}, pages = {{{{1}}--{{2}}}}, month = {{Summer}}}}\n",
    )
    parsed = parse_file(f)
    (r,) = parsed.records
    assert r.bib == {"type": "article", "journal": "J été α", "pages": "1-2", "month": "Summer"}
    (warning,) = parsed.warnings
    assert "volume is longer than 2,048 characters" in warning and "“not a doi” is not a DOI" in warning
    assert "line 1" in warning and len(warning) < 400


def test_a_huge_record_field_past_the_field_limit_fails_the_file_as_any_field_does(empty_lib, tmp_path):
    from readinglist import importing
    from readinglist.importers.limits import Limits
    from readinglist.papers import ImportFailure

    f = _bib_file(tmp_path, "@article{x, title = {A paper}, publisher = {" + "p" * 5000 + "}}\n")
    with pytest.raises(ImportFailure, match="limit"):
        importing.import_files(empty_lib.store, empty_lib.updater, [f], limits=Limits(field_chars=4096))
    assert empty_lib.store.count() == 0


# ---- export --------------------------------------------------------------------------------------------


def _recorded(**kw) -> Paper:
    bib = {"type": "article", "journal": "Physica C", "volume": "157", "number": "1", "pages": "169-179",
           "month": "1", "publisher": "Elsevier", "issn": "0921-4534", "doi": "10.1016/0921_4534",
           "editor": "Luigi Menabrea; Richard Taylor"}  # fmt: skip
    return paper(title="Cluster model", venue="Physica C", year=1989, bib=kw.pop("bib", bib), **kw)


def test_bibtex_writes_the_entry_type_journal_and_fields():
    for fmt in ("bibtex", "biblatex"):
        [(kind, fields)] = _entries(render([_recorded(citation_key="a1989")], ExportOptions(format=fmt))).values()
        assert kind == "article" and fields["journal"] == "Physica C" and "booktitle" not in fields
        assert (fields["volume"], fields["number"], fields["pages"]) == ("157", "1", "169--179")
        assert fields["doi"] == "10.1016/0921_4534"  # as it is: biblatex reads a DOI verbatim
        assert fields["publisher"] == "Elsevier" and fields["issn"] == "0921-4534"
        assert fields["editor"] == "Luigi Menabrea and Richard Taylor"
    text = render([_recorded(citation_key="a1989")], ExportOptions(format="bibtex"))
    assert "  month = jan,\n" in text


def test_bibtex_writes_biblatex_types_and_eprints_as_each_dialect_has_them():
    p = _recorded(bib={"type": "online", "eprint": "2001.00001", "eprinttype": "arXiv", "eprintclass": "cs.LG"})
    [(kind, fields)] = _entries(render([p], ExportOptions(format="biblatex"))).values()
    assert kind == "online" and fields["eprinttype"] == "arXiv" and fields["eprintclass"] == "cs.LG"
    [(kind, fields)] = _entries(render([p], ExportOptions(format="bibtex"))).values()
    assert kind == "online" and fields["archivePrefix"] == "arXiv" and fields["primaryClass"] == "cs.LG"


def test_a_paper_without_a_record_is_written_as_before():
    p = paper(title="T", citation_key="k")
    assert render([p], ExportOptions(format="bibtex")).startswith("@inproceedings{k,\n  title = {{T}},\n  author = ")
    assert "  booktitle = {NeurIPS},\n  year = {2017}\n}" in render([p], ExportOptions(format="bibtex"))
    (item,) = json.loads(render([p], ExportOptions(format="csljson")))
    assert item["type"] == "paper-conference" and set(item) == {"id", "citation-key", "type", "title", "author",
                                                                  "container-title", "issued"}  # fmt: skip
    assert render([p], ExportOptions(format="ris")).startswith("TY  - CPAPER\r\n")
    assert "bib" not in json.loads(render([p], ExportOptions(format="json")))[0]


def test_csl_json_writes_type_doi_volume_issue_page_publisher_and_container():
    (item,) = json.loads(render([_recorded(citation_key="a1989")], ExportOptions(format="csljson")))
    assert item["type"] == "article-journal" and item["container-title"] == "Physica C"
    assert (item["DOI"], item["volume"], item["issue"], item["page"]) == ("10.1016/0921_4534", "157", "1", "169-179")
    assert item["publisher"] == "Elsevier" and item["ISSN"] == "0921-4534"
    assert item["issued"] == {"date-parts": [[1989, 1]]}
    assert item["editor"] == [{"family": "Menabrea", "given": "Luigi"}, {"family": "Taylor", "given": "Richard"}]
    thesis = _recorded(bib={"type": "phdthesis", "school": "Princeton"})
    (item,) = json.loads(render([thesis], ExportOptions(format="csljson")))
    assert item["type"] == "thesis" and item["publisher"] == "Princeton"


def test_ris_writes_type_doi_volume_issue_pages_publisher_and_journal():
    lines = render([_recorded(citation_key="a1989")], ExportOptions(format="ris")).split("\r\n")
    assert lines[0] == "TY  - JOUR"
    for line in ("T2  - Physica C", "DO  - 10.1016/0921_4534", "VL  - 157", "IS  - 1", "SP  - 169", "EP  - 179",
                 "PB  - Elsevier", "SN  - 0921-4534", "DA  - 1989/01", "ED  - Menabrea, Luigi"):  # fmt: skip
        assert line in lines


# ---- round trips ----------------------------------------------------------------------------------------


def _export(lib: Library, fmt: str, path) -> None:
    from readinglist import export

    export.export(lib.papers(lib.search("").ids), ExportOptions(format=fmt), path)


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex", "csljson", "ris", "json", "csv"])
def test_a_round_trip_keeps_the_record(empty_lib, tmp_path, fmt):
    empty_lib.import_files([_bib_file(tmp_path)])
    want = {p.title: p.bib for p in empty_lib.papers(empty_lib.search("").ids)}
    assert len(want) == 3 and all(want.values())
    out = tmp_path / ("out" + {"bibtex": ".bib", "biblatex": ".bib", "ris": ".ris", "csv": ".csv"}.get(fmt, ".json"))
    _export(empty_lib, fmt, out)
    fresh = Library.open(tmp_path / "fresh", seed=False)
    try:
        fresh.import_files([out])
        got = {p.title: p.bib for p in fresh.papers(fresh.search("").ids)}
    finally:
        fresh.close()
    for title, bib in want.items():
        kept = {k: v for k, v in bib.items() if k in KEPT}
        if fmt == "ris":  # RIS has one tag for a thesis's school and a publisher
            kept.pop("publisher", None) if bib["type"] == "phdthesis" else None
        assert {k: v for k, v in got[title].items() if k in KEPT} == kept, (fmt, title)
    if fmt in ("bibtex", "biblatex", "json", "csv"):
        assert got == want


SPECIAL_DOI = "10.1000/abc%20def#x_y&z~$^;(1)"
SPECIAL_URL = "https://example.org/a%20b?x=1&y=2#frag_1~u%"


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
def test_a_doi_and_a_url_with_percent_signs_and_hashes_are_written_verbatim_and_come_back(tmp_path, fmt):
    """Inside braces `%` starts no comment and `#` no concatenation (bibtex, biber, bibtexparser), and biblatex
    reads doi and url verbatim: escaped, biber would keep the backslash. tests/test_tex_compile.py compiles them."""
    p = paper(citation_key="k", title="T", url=SPECIAL_URL, bib={"type": "article", "doi": SPECIAL_DOI})
    text = render([p], ExportOptions(format=fmt))
    assert f"  doi = {{{SPECIAL_DOI}}}" in text and f"  url = {{{SPECIAL_URL}}}" in text
    (_, fields) = _entries(text)["k"]
    assert (fields["doi"], fields["url"]) == (SPECIAL_DOI, SPECIAL_URL)
    (r,) = parse_file(_bib_file(tmp_path, text)).records
    assert (r.bib["doi"], r.url) == (SPECIAL_DOI, SPECIAL_URL)


UNICODE_DOI = "10.1000/café–Ü"
UNICODE_DOI_LINK = "https://doi.org/10.1000/caf%C3%A9%E2%80%93%C3%9C"


@pytest.mark.parametrize("own_url", ["", "https://example.org/paper"])
def test_a_doi_that_is_not_ascii_is_percent_encoded_in_an_ascii_file_and_comes_back(empty_lib, tmp_path, own_url):
    """The plain-ASCII export wrote "10.1000/café" as it is (biber then refused the whole file as not ASCII), and
    no escape can do in a doi field, which biblatex reads verbatim: it is written percent-encoded, as its link
    is (what doi.org resolves), and read back to the DOI; a paper's own link stays its url (a review: the DOI's
    link took its place, then the DOI was lost). BibLaTeX's UTF-8 keeps it as it is (tests/test_tex_compile.py
    compiles both)."""
    p = paper(citation_key="k", title="T", url=own_url, bib={"type": "article", "doi": UNICODE_DOI})
    ascii_text = render([p], ExportOptions(format="bibtex"))
    encoded = UNICODE_DOI_LINK.removeprefix("https://doi.org/")
    assert ascii_text.isascii() and f"  doi = {{{encoded}}}" in ascii_text
    assert ("  url = " in ascii_text) == bool(own_url)
    utf8_text = render([p], ExportOptions(format="biblatex"))
    assert f"  doi = {{{UNICODE_DOI}}}" in utf8_text and ("  url = " in utf8_text) == bool(own_url)
    for name, text in (("ascii.bib", ascii_text), ("utf8.bib", utf8_text)):
        (r,) = parse_file(_bib_file(tmp_path, text, name)).records
        assert (r.bib["doi"], r.url) == (UNICODE_DOI, own_url or UNICODE_DOI_LINK), name


def test_a_url_or_doi_a_file_escaped_for_latex_is_read_without_the_escapes(tmp_path):
    """JabRef's file has `…/abs07.html\\#talk9`, an old AI file `…/\\~wilkins/`: a URL has no backslash (kept,
    it was a link to …%5C#talk9 in every export)."""
    f = _bib_file(tmp_path, "@misc{a, title = {A}, url = {http://www.ip-sl.org/procs/abs07.html\\#talk9}}\n"
                            "@misc{b, title = {B}, url = {http://www.ai.sri.com/\\~{}wilkins/a\\_b\\%20c\\&d.ps}}\n"
                            "@misc{c, title = {C}, doi = {10.1000/a\\~b\\%20c\\#d}}\n")  # fmt: skip
    a, b, c = parse_file(f).records
    assert a.url == "http://www.ip-sl.org/procs/abs07.html#talk9"
    assert b.url == "http://www.ai.sri.com/~wilkins/a_b%20c&d.ps"
    assert c.bib["doi"] == "10.1000/a~b%20c#d" and c.url == "https://doi.org/10.1000/a~b%2520c%23d"


def test_the_csv_export_has_a_column_for_each_record_field_and_reads_back_whole(tmp_path):
    """The CSV had no DOI: a column for each of the record's fields (the DOI first) after the paper's own, read
    back whole by the CSV import (a formula guard taken off, as on any cell); a paper without a record has
    them empty, and a re-import gives it none."""
    from readinglist.export import export
    from readinglist.papers import CSV_COLUMNS

    record = {"type": "techreport", "journal": "J", "booktitle": "B", "editor": "A. Editor; B. Other",
              "volume": "3", "number": "TR-7", "pages": "1-9", "month": "6", "publisher": "=Publisher",
              "address": "Wien", "edition": "2", "series": "LNCS", "chapter": "4", "institution": "MIT",
              "school": "-School", "organization": "@Org", "howpublished": "Online", "isbn": "978-0-387-95284-5",
              "issn": "0921-4534", "doi": "10.1000/x%20y#z", "eprint": "2101.00001", "eprinttype": "arXiv",
              "eprintclass": "cs.LG", "moreauthors": "yes"}  # fmt: skip
    assert set(record) == set(biblio.FIELDS)
    papers = [paper(title="A report", bib=record), paper(uid="def456", title="No record")]
    header, first, second = csv.reader(io.StringIO(render(papers, ExportOptions(format="csv"))))
    own = ["id", "citation_key", "title", "authors", "venue", "year", "state", "priority", "tags", "note", "url",
           "links", "abstract", "keywords"]  # fmt: skip
    assert header == CSV_COLUMNS and header[:15] == [*own, "doi"]
    assert sorted(header[14:]) == sorted(biblio.FIELDS) and len(header) == len(set(header))
    assert first[14] == "10.1000/x%20y#z" and "'=Publisher" in first and not any(second[14:])
    f = tmp_path / "list.csv"
    export(papers, ExportOptions(format="csv"), f)
    parsed = parse_file(f)
    assert [r.bib for r in parsed.records] == [record, {}] and parsed.warnings == []


def test_the_jabref_file_round_trips_through_bibtex(empty_lib, tmp_path):
    source = corpus("bib/zotero-bbt-fixtures/jabref210_groups_issue97.bib")
    empty_lib.import_files([source])
    urls = [p.url for p in empty_lib.papers(empty_lib.search("").ids)]
    assert "http://www.ip-sl.org/procs/abs07.html#talk9" in urls and not [u for u in urls if "\\" in u]
    before = {p.citation_key: p.bib for p in empty_lib.papers(empty_lib.search("").ids)}
    assert (
        sum("doi" in b for b in before.values()) > 300
        and sum(b.get("type") == "article" for b in before.values()) > 700
    )
    out = tmp_path / "out.bib"
    _export(empty_lib, "bibtex", out)
    entries = _entries(out.read_text(encoding="utf-8"))
    (kind, fields) = entries["Abu-Zeid_1986"]
    assert kind == "article" and fields["journal"] == "Physica Status Solidi (a)" and fields["pages"] == "613--620"
    assert fields["volume"] == "93" and fields["doi"] == "10.1002/pssa.2210930226"
    again = {r.citation_key: r.bib for r in parse_file(out).records}
    assert {k: {f: v for f, v in b.items() if f in KEPT} for k, b in again.items()} == {
        k: {f: v for f, v in b.items() if f in KEPT} for k, b in before.items()
    }


# ---- the library ----------------------------------------------------------------------------------------


def test_an_old_library_is_migrated_and_a_reimport_gives_its_papers_their_records(tmp_path):
    data = tmp_path / "old"
    f = _bib_file(tmp_path)
    lib = Library.open(data, seed=False)
    lib.import_files([f])
    pid = lib.search("Cluster").ids[0]
    lib.set_note(pid, "mine")
    lib.close()
    db = sqlite3.connect(data / "library.db")  # as a library was before records were kept
    db.execute("DROP INDEX papers_doi")
    db.execute("ALTER TABLE papers DROP COLUMN bib")
    db.execute("ALTER TABLE papers DROP COLUMN source_bib")
    db.execute("DELETE FROM schema_migrations WHERE name IN ('0025_bibliographic_records', '0026_source_records')")
    db.commit()
    db.close()
    ro = Store(data / "library.db", read_only=True)  # another window has it: no migration, no records
    assert ro.paper(pid).bib == {} and ro.source_papers(1)[0][5] == ""
    ro.close()
    lib = Library.open(data, seed=False)
    try:
        assert {"0025_bibliographic_records", "0026_source_records"} <= set(lib.store.applied_migrations())
        assert lib.paper(pid).bib == {} and lib.paper(pid).note == "mine"
        [summary] = lib.import_files([f])
        assert (summary.added, summary.updated, summary.unchanged) == (0, 3, 0)
        assert lib.paper(pid).bib["doi"] == "10.1016/0921-4534(89)90484-X" and lib.paper(pid).note == "mine"
        [summary] = lib.import_files([f])
        assert (summary.updated, summary.unchanged) == (0, 3)
    finally:
        lib.close()


def test_a_doi_corrected_in_the_file_is_the_papers_and_a_retitled_entry_stays_the_paper(empty_lib, tmp_path):
    f = _bib_file(tmp_path)
    empty_lib.import_files([f])
    pid = empty_lib.search("Cluster").ids[0]
    empty_lib.set_note(pid, "kept")
    f.write_text(BIB.replace("10.1016/0921-4534(89)90484-X", "10.1016/0921-4534(89)90485-0"), encoding="utf-8")
    [summary] = empty_lib.import_files([f])
    assert (summary.added, summary.updated) == (0, 1)
    assert empty_lib.paper(pid).doi == "10.1016/0921-4534(89)90485-0"
    # a title corrected in the file, no abstract to compare: the DOI says it is the same paper
    f.write_text(BIB.replace("90484-X", "90485-0").replace("Cluster model", "A cluster model"), encoding="utf-8")
    [summary] = empty_lib.import_files([f])
    assert (summary.added, summary.updated, summary.missing) == (0, 1, 0)
    assert empty_lib.paper(pid).title.startswith("A cluster model") and empty_lib.paper(pid).note == "kept"


def test_one_doi_in_two_files_is_one_paper_and_two_dois_are_not(empty_lib, tmp_path):
    empty_lib.import_files([_bib_file(tmp_path)])
    other = (
        "@article{preprint, title = {Electronic states of cuprous oxide clusters}, author = {H. Adachi},"
        " year = 1989, doi = {10.1016/0921-4534(89)90484-x}}\n"
        "@inproceedings{again, title = {Notes on the Analytical Engine}, author = {Ada Lovelace},"
        " booktitle = {Proceedings of the Österreichische Conference on Engines}, year = 2020,"
        " doi = {10.1007/other}}\n"
    )
    [summary] = empty_lib.import_files([_bib_file(tmp_path, other, "other.bib")])
    assert (summary.added, summary.merged, summary.possible) == (1, 1, 1)
    assert empty_lib.store.count() == 4
    (pair,) = empty_lib.possible_duplicates()
    assert "different DOIs" in pair.why


def test_one_doi_is_one_paper_when_titles_abstracts_or_authors_agree_too():
    from readinglist.importers.duplicates import Candidate, Verdict, compare

    a = Candidate("Attention is all you need", ["Ashish Vaswani", "Noam Shazeer"], 2017, "NeurIPS", doi="10.1000/A")
    retitled = Candidate("Transformers", ["A. Vaswani", "N. Shazeer"], 2017, "arXiv", doi="https://doi.org/10.1000/a")
    assert compare(a, retitled) == (Verdict.SAME, "same DOI and authors")
    untitled = Candidate("Attention Is All You Need", [], doi="10.1000/a")
    assert compare(a, untitled) == (Verdict.SAME, "same DOI and title")
    # a DOI and nothing else agreeing is no paper: other authors, or none to compare
    assert compare(a, Candidate("Transformers", ["Someone Else"], doi="10.1000/a"))[0] is Verdict.POSSIBLE
    assert compare(a, Candidate("Transformers", [], doi="10.1000/a"))[0] is Verdict.POSSIBLE
    twin = Candidate("Attention is all you need", ["Ashish Vaswani"], 2017, "NeurIPS", doi="10.1000/b")
    assert compare(a, twin) == (Verdict.POSSIBLE, "same title and authors, but different DOIs")
    assert compare(a, Candidate("Attention is all you need", ["Ashish Vaswani"], 2017, "NeurIPS"))[0] is Verdict.SAME


def test_a_volume_doi_on_papers_sharing_a_surname_is_not_one_paper():
    """A proceedings volume's DOI on two of its papers, one surname shared (a "Wang"), and the real pair of a
    Mendeley export: two unrelated articles with one DOI, a lone author one of the other's fifteen."""
    from readinglist.importers.duplicates import Candidate, Verdict, compare

    doi = "10.1109/CONF.2020.00001"
    graphs = Candidate("Learning Sparse Graphs with Diffusion Kernels", ["Wei Wang", "John Smith"], 2020, doi=doi)
    robust = Candidate("Robust Reinforcement Learning under Adversarial Rewards", ["Li Wang", "Alice Brown"], 2020,
                       doi=doi)  # fmt: skip
    assert compare(graphs, robust) == (Verdict.POSSIBLE, "same DOI, but different titles and authors")
    doi = "10.1080/0309877910150304"
    review = Candidate("The Art of Book Reviewing", ["Adrian Furnham"], 1991, doi=doi)
    many = [f"Author{i} Name{i}" for i in range(14)]
    herd = Candidate("Herd behavior in purchasing books online", [*many, "Adrian Furnham"], 2018, doi=doi)
    assert compare(review, herd)[0] is Verdict.POSSIBLE


def test_a_preprint_servers_doi_does_not_part_the_published_paper():
    from readinglist import biblio
    from readinglist.importers.duplicates import Candidate, Verdict, compare

    published = Candidate("Attention is all you need", ["Ashish Vaswani"], 2017, "NeurIPS", doi="10.5555/3295222")
    for preprint in ("10.48550/arXiv.1706.03762", "10.1101/2020.01.01.123456", "10.2139/ssrn.123456",
                     "10.31219/osf.io/abcde", "10.31234/osf.io/abcde", "10.31235/osf.io/abcde"):  # fmt: skip
        arxiv = Candidate("Attention Is All You Need", ["Ashish Vaswani"], 2017, "", doi=preprint)
        assert compare(published, arxiv) == (Verdict.SAME, "same title and authors"), preprint
        assert not biblio.dois_conflict(preprint, "10.5555/3295222")
    assert biblio.dois_conflict("10.1101/gr.123.1", "10.5555/3295222")  # Genome Research, a journal


def test_a_doi_copied_onto_another_paper_does_not_merge_it_there(empty_lib, tmp_path):
    """b.bib's paper has a.bib's first paper's DOI (a volume's) and exactly a.bib's second paper's title: it is
    the second paper; alone, it is only a possible duplicate of the first."""
    a = (
        "@inproceedings{wang1, title = {Learning Sparse Graphs with Diffusion Kernels}, author = {Wang, Wei and"
        " Smith, John}, booktitle = {Proc. Conf 2020}, year = 2020, doi = {10.1109/CONF.2020.00001}}\n"
        "@inproceedings{wang2, title = {Robust Reinforcement Learning under Adversarial Rewards}, author = {Wang,"
        " Li and Brown, Alice}, booktitle = {Proc. Conf 2020}, year = 2020}\n"
    )
    b = (
        "@inproceedings{x2, title = {Robust Reinforcement Learning under Adversarial Rewards}, author = {Wang, Li"
        " and Brown, Alice}, booktitle = {Proc. Conf 2020}, year = 2020, doi = {10.1109/CONF.2020.00001}}\n"
    )
    empty_lib.import_files([_bib_file(tmp_path, a, "a.bib")])
    [summary] = empty_lib.import_files([_bib_file(tmp_path, b, "b.bib")])
    assert summary.merged == 1
    robust = empty_lib.search("Robust Reinforcement").ids[0]
    graphs = empty_lib.search("Sparse Graphs").ids[0]
    assert empty_lib.store.paper_sources(robust) == ["a", "b"]
    assert empty_lib.store.paper_sources(graphs) == ["a"]
    alone = tmp_path / "alone"
    alone.mkdir()
    lib = Library.open(alone / "lib", seed=False)
    try:
        lib.import_files([_bib_file(alone, a.split("@inproceedings{wang2")[0], "a.bib")])
        [summary] = lib.import_files([_bib_file(alone, b, "b.bib")])
        assert (summary.added, summary.merged, summary.possible) == (1, 0, 1)
        (pair,) = lib.possible_duplicates()
        assert pair.why == "same DOI, but different titles and authors"
    finally:
        lib.close()


def test_a_reimport_does_not_put_a_papers_note_on_another_of_its_doi(empty_lib, tmp_path):
    """Two papers of a file with one DOI and no authors; the file's next version replaces one by an unrelated
    paper of that DOI: the note and tags stay with the paper gone from the file, the new one is added."""
    entry = "@inproceedings{{{}, title={{{}}}, booktitle={{Proc. X 2020}}, year={{2020}}, doi={{10.1145/3368089}},"
    entry += " abstract={{{}}}}}\n"
    alpha = entry.format("a", "Alpha Paper on Graphs", "Graphs are studied here with spectral tools.")
    f = _bib_file(tmp_path, alpha + entry.format("b", "Beta Paper on Kernels", "Kernels are studied here."))
    empty_lib.import_files([f])
    beta = empty_lib.search("Beta Paper").ids[0]
    empty_lib.set_note(beta, "beta's note")
    empty_lib.add_tags([beta], ["kernels"])
    f.write_text(alpha + entry.format("d", "Delta Paper on Robots", "Robots grasp objects by touch."))
    [summary] = empty_lib.import_files([f])
    assert (summary.added, summary.updated, summary.missing) == (1, 0, 1)
    assert empty_lib.paper(beta).title == "Beta Paper on Kernels" and empty_lib.paper(beta).note == "beta's note"
    delta = empty_lib.search("Delta Paper").ids[0]
    assert empty_lib.paper(delta).note == "" and empty_lib.paper(delta).tags == []


def test_an_arxiv_copy_and_the_published_paper_are_one_paper(empty_lib, tmp_path):
    entry = ("@article{{{}, title = {{Deep Kernel Learning at Scale}}, author = {{Wilson, Andrew and Hu, Zhiting}},"
             " journal = {{{}}}, year = 2016, doi = {{{}}}}}\n")  # fmt: skip
    empty_lib.import_files([_bib_file(tmp_path, entry.format("pub", "JMLR", "10.5555/1234.5678"), "pub.bib")])
    arxiv = entry.format("arx", "JMLR", "10.48550/arXiv.1511.02222")  # as arXiv's BibTeX gives its DOI
    [summary] = empty_lib.import_files([_bib_file(tmp_path, arxiv, "arxiv.bib")])
    assert (summary.added, summary.merged, summary.possible) == (0, 1, 0)


def test_merge_keeps_the_fuller_record_and_unmerge_gives_it_back(empty_lib, tmp_path):
    empty_lib.import_files([_bib_file(tmp_path)])
    bare = "@misc{bare, title = {Cluster model investigation of the electronic state, again}, year = 1989}\n"
    empty_lib.import_files([_bib_file(tmp_path, bare, "bare.bib")])
    full = empty_lib.search("Cluster model investigation of the electronic state in cuprous oxide").ids[0]
    thin = next(p.id for p in empty_lib.papers(empty_lib.search("").ids) if p.bib == {"type": "misc"})
    record = empty_lib.paper(full).bib
    merged = empty_lib.merge(thin, full)
    assert empty_lib.paper(thin).bib == record
    back = empty_lib.unmerge(merged)
    assert empty_lib.paper(thin).bib == {"type": "misc"} and empty_lib.paper(back).bib == record
    empty_lib.merge(full, thin)  # the fuller one kept: its record stays
    assert empty_lib.paper(full).bib == record


def test_a_reimport_keeps_the_fuller_record_a_merge_gave_while_the_files_is_unchanged(empty_lib, tmp_path):
    """A bare @misc merged with the full @article of another file: importing the bare one's file again, as it
    was or with its text revised, keeps the merged record; the file's own record changed is the paper's."""
    bare = "@misc{bare, title = {Cluster model investigation of the electronic state}, author={H. Adachi}, year=1989}\n"
    full = ("@article{full, title = {Cluster model investigation of the electronic state in cuprous oxide},"
            " author={H. Adachi}, journal={Physica C}, volume={157}, pages={169--179}, year = 1989,"
            " doi={10.1016/0921-4534(89)90484-X}}\n")  # fmt: skip
    a = _bib_file(tmp_path, bare, "a.bib")
    empty_lib.import_files([a])
    empty_lib.import_files([_bib_file(tmp_path, full, "b.bib")])
    papers = empty_lib.papers(empty_lib.search("").ids)
    thin, rich = next(p.id for p in papers if not p.doi), next(p.id for p in papers if p.doi)
    empty_lib.merge(thin, rich)
    record = empty_lib.paper(thin).bib
    assert record["doi"] == "10.1016/0921-4534(89)90484-X"
    [summary] = empty_lib.import_files([a])
    assert (summary.updated, summary.unchanged) == (0, 1) and empty_lib.paper(thin).bib == record
    a.write_text(bare.replace("author={H. Adachi}", "author={H. Adachi and M. Takano}"), encoding="utf-8")
    [summary] = empty_lib.import_files([a])  # revised (its authors), its record as it was
    assert summary.updated == 1 and empty_lib.paper(thin).bib == record
    a.write_text(bare.replace("@misc", "@techreport"), encoding="utf-8")  # the file's record changed
    empty_lib.import_files([a])
    assert empty_lib.paper(thin).bib == {"type": "techreport"}
    [summary] = empty_lib.import_files([a])
    assert (summary.updated, summary.unchanged) == (0, 1)


def test_a_reimport_keeps_a_record_the_user_gave_or_a_merged_record_filled_in(empty_lib, tmp_path):
    listing = tmp_path / "papers.jsonl"
    listing.write_text(json.dumps({"title": "Notes on the Analytical Engine", "authors": ["Ada Lovelace"]}) + "\n")
    empty_lib.import_files([listing])
    [summary] = empty_lib.import_files([_bib_file(tmp_path)])
    assert summary.merged == 1
    pid = empty_lib.search("Analytical Engine").ids[0]
    filled = empty_lib.paper(pid).bib
    assert filled["type"] == "inproceedings"
    [summary] = empty_lib.import_files([listing])  # the list gives no record: the one filled in stays
    assert (summary.updated, summary.unchanged) == (0, 1) and empty_lib.paper(pid).bib == filled
    f = _bib_file(tmp_path, BIB, "own.bib")
    lib2 = tmp_path / "two"
    lib = Library.open(lib2, seed=False)
    try:
        lib.import_files([f])
        cluster = lib.search("Cluster").ids[0]
        mine = {**lib.paper(cluster).bib, "pages": "170-179"}
        before = lib.store.set_record(cluster, mine)
        [summary] = lib.import_files([f])
        assert (summary.updated, summary.unchanged) == (0, 3) and lib.paper(cluster).bib == mine
        lib.store.set_record(cluster, before)  # undone: the record is the file's again, and follows it
        f.write_text(BIB.replace("169--179", "169--180"), encoding="utf-8")
        lib.import_files([f])
        assert lib.paper(cluster).bib["pages"] == "169-180"
    finally:
        lib.close()


def test_remove_and_restore_keep_the_record(empty_lib, tmp_path):
    empty_lib.import_files([_bib_file(tmp_path)])
    pid = empty_lib.search("Cluster").ids[0]
    record = empty_lib.paper(pid).bib
    empty_lib.store.remove_papers([pid])
    assert empty_lib.paper(pid) is None
    moved = empty_lib.store.restore_papers([pid])
    assert empty_lib.paper(moved[pid]).bib == record


def test_a_backup_keeps_the_record_and_a_restore_fills_a_library_without_it(empty_lib, tmp_path):
    f = _bib_file(tmp_path)
    empty_lib.import_files([f])
    pid = empty_lib.search("Cluster").ids[0]
    record = empty_lib.paper(pid).bib
    empty_lib.set_note(pid, "mine")
    backup = tmp_path / "b.json.gz"
    empty_lib.backup(backup)
    fresh = Library.open(tmp_path / "fresh", seed=False)
    try:
        fresh.restore(backup)  # added from the backup
        (p,) = fresh.papers(fresh.search("Cluster").ids)
        assert p.bib == record and p.note == "mine"
    finally:
        fresh.close()
    empty_lib.store.set_record(pid, {})  # a paper imported before records were kept
    assert empty_lib.paper(pid).bib == {}
    empty_lib.restore(backup)
    assert empty_lib.paper(pid).bib == record


def test_the_command_line_shows_the_record(capsys, tmp_path):
    from readinglist.cli import main

    dd = str(tmp_path / "cli-data")
    assert main(["--data-dir", dd, "import", str(_bib_file(tmp_path))]) == 0
    capsys.readouterr()
    assert main(["--data-dir", dd, "search", "Cluster", "--json"]) == 0
    (hit,) = json.loads(capsys.readouterr().out)
    assert hit["bib"]["doi"] == "10.1016/0921-4534(89)90484-X" and hit["bib"]["type"] == "article"
    assert main(["--data-dir", dd, "show", hit["id"]]) == 0
    out = capsys.readouterr().out
    assert "record: type article, journal Physica C: Superconductivity, volume 157" in out
    assert "doi 10.1016/0921-4534(89)90484-X (https://doi.org/10.1016/0921-4534(89)90484-X)" in out
    assert main(["--data-dir", dd, "show", hit["id"], "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["bib"]["pages"] == "169-179"


def test_the_detail_pane_links_the_doi(qtbot, empty_lib, tmp_path):
    from readinglist.ui.detail import DetailPane
    from readinglist.ui.workers import Runner

    empty_lib.import_files([_bib_file(tmp_path)])
    runner = Runner(threads=1)
    pane = DetailPane(empty_lib, runner)
    qtbot.addWidget(pane)
    try:
        pid = empty_lib.search("Cluster").ids[0]
        pane.follow(pid)
        qtbot.waitUntil(lambda: pane.paper_id == pid)
        html = pane.toHtml()
        assert 'href="https://doi.org/10.1016/0921-4534%2889%2990484-X"' in html  # (mdtext.safe_url's encoding)
        text = pane.toPlainText()
        assert (
            "DOI: 10.1016/0921-4534(89)90484-X" in text and "Physica C: Superconductivity 157(1), pp. 169–179" in text
        )
        assert "doi.org" not in text.split("Links")[-1] if "Links" in text else True  # not listed twice
        none = empty_lib.search("Ordinals").ids[0]
        pane.follow(none)
        qtbot.waitUntil(lambda: pane.paper_id == none)
        assert "DOI" not in pane.toPlainText()
    finally:
        runner.close()


# ---- what a file may hold: hostile or odd values ------------------------------------------------------


def test_a_doi_behind_another_resolver_or_prefix_is_read():
    """Forms the papers3 library of Better BibTeX's fixtures has; a DOI only in a query is none."""
    assert biblio.normalize_doi("http://doi.acm.org/10.1145/1168987.1169002") == "10.1145/1168987.1169002"
    assert biblio.normalize_doi("info:doi/10.1076/jnmr.32.4.395.18858") == "10.1076/jnmr.32.4.395.18858"
    proxied = "http://doi.acm.org.www.library.gatech.edu:2048/10.1145/1322192.1322216"
    assert biblio.normalize_doi(proxied) == "10.1145/1322192.1322216"
    assert biblio.normalize_doi("urn:doi:10.1000/x") == "10.1000/x"
    for bad in ("https://example.org/x?u=10.1000/x", "javascript:10.1000/x", "10.1000/a\x00b", "ftp://h/10.1000/x"):
        assert biblio.normalize_doi(bad) == "", bad


def test_an_eprint_that_is_no_identifier_is_left_out_and_never_written_verbatim(tmp_path):
    f = tmp_path / "e.json"
    f.write_text(json.dumps([
        {"title": "Eprint hostile", "type": "article-journal", "eprint": "2101.0001} @misc{evil, title={pwn}"},
        {"title": "Eprint pct", "type": "article-journal", "eprint": "arXiv:2101.0002 % comment \\foo"},
        {"title": "Eprint fine", "type": "article-journal", "eprint": "hep-th/9901001v2"},
    ]), encoding="utf-8")  # fmt: skip
    parsed = parse_file(f)
    assert [r.bib.get("eprint") for r in parsed.records] == [None, None, "hep-th/9901001v2"]
    assert len(parsed.warnings) == 2 and all("is not an eprint identifier" in w for w in parsed.warnings)
    # a record stored before the check: an export leaves out what it cannot write verbatim
    stored = paper(citation_key="k", bib={"type": "misc", "eprint": "1} @misc{evil, title={pwn}",
                                              "doi": "10.1000/x} @misc{evil2,"})  # fmt: skip
    for fmt in ("bibtex", "biblatex"):
        entries = _entries(render([stored], ExportOptions(format=fmt)))
        assert list(entries) == ["k"] and "eprint" not in entries["k"][1] and "doi" not in entries["k"][1]


def test_months_are_1_to_12_in_every_format_and_a_superscript_digit_fails_nothing(tmp_path):
    bib = _bib_file(tmp_path, "@article{a, title={Superscript month paper}, journal={J}, year={2020}, month={²}}\n")
    ris = tmp_path / "r.ris"
    ris.write_text("TY  - JOUR\nTI  - RIS month paper\nDA  - 2020/²/01\nER  - \n", encoding="utf-8")
    csl = tmp_path / "c.json"
    csl.write_text(json.dumps([
        {"title": "Day only", "type": "article-journal", "issued": {"date-parts": [[2020, None, 15]]}},
        {"title": "Month 13", "type": "article-journal", "issued": {"date-parts": [[2020, 13]]}},
        {"title": "Month 0", "type": "article-journal", "issued": {"date-parts": [[2020, 0, 1]]}},
        {"title": "June", "type": "article-journal", "issued": {"date-parts": [[2020, "6"]]}},
    ]), encoding="utf-8")  # fmt: skip
    for f, where in ((bib, "entry 'a'"), (ris, "record at line 1")):
        parsed = parse_file(f)
        assert "month" not in parsed.records[0].bib
        (warning,) = parsed.warnings
        assert "month “²” is not a month" in warning and where in warning
    parsed = parse_file(csl)
    assert [r.bib.get("month") for r in parsed.records] == [None, None, None, "6"]
    assert len(parsed.warnings) == 2
    for month in ("13", "0", "²", "Summer"):  # as a record stored before the check may have it
        p = _recorded(citation_key="k", bib={"type": "article", "month": month})
        assert "month = {" not in render([p], ExportOptions(format="bibtex")) or month == "Summer"
        assert "DA  - " not in render([p], ExportOptions(format="ris"))
        (item,) = json.loads(render([p], ExportOptions(format="csljson")))
        assert item["issued"] == {"date-parts": [[1989]]}


def test_a_json_number_is_a_value_only_when_whole(tmp_path):
    f = tmp_path / "h.json"
    f.write_text('[{"title": "T2 paper", "DOI": "10.1234/abc", "issue": 1e400, "page": 1.5e300,'
                 ' "volume": 12345678901234567890123, "edition": 2}]', encoding="utf-8")  # fmt: skip
    parsed = parse_file(f)
    (r,) = parsed.records
    assert r.bib == {"volume": "12345678901234567890123", "edition": "2", "doi": "10.1234/abc"}
    (warning,) = parsed.warnings
    assert "number is not text or a whole number" in warning and "pages is not text or a whole number" in warning


def test_control_characters_are_taken_out_of_the_record_and_ris(tmp_path):
    f = tmp_path / "c.json"
    f.write_text(json.dumps([{"title": "Ctl", "type": "book", "ISBN": "\x00\x1b[31mred", "publisher": "a\tb\x9bc"}]))
    (r,) = parse_file(f).records
    assert r.bib == {"type": "book", "publisher": "a bc", "isbn": "red"}
    p = paper(citation_key="k", title="Ctl \x1b[31m x \x00 y", bib={"type": "book", "isbn": "\x1b[31mred"})
    text = render([p], ExportOptions(format="ris"))
    assert "TI  - Ctl x y\r\n" in text and "SN  - red\r\n" in text
    assert "\x1b" not in text and "\x00" not in text


def test_a_paper_lists_number_column_is_no_issue(tmp_path):
    f = tmp_path / "neurips2024.csv"
    f.write_text("number,title,authors,abstract,type\n17,Poster paper one,Jane Doe,Some abstract,Poster\n"
                 "18,Oral paper two,Rick Roe,Another abstract,Oral\n19,A journal paper,Al Bo,Text,journalArticle\n",
                 encoding="utf-8")  # fmt: skip
    a, b, c = parse_file(f).records
    assert a.bib == {} and b.bib == {} and c.bib == {"type": "article", "number": "19"}
    assert "IS  - " not in render([paper(title="T", bib=a.bib)], ExportOptions(format="ris"))


def test_a_reimported_records_doi_finds_its_paper_only_with_a_title_or_both_authors_agreeing():
    """The matcher's DOI step: a retitled record with the authors of the stored paper of its DOI is that paper;
    one with no authors (or a stored paper without) is not, unless the titles match; a preprint's DOI does
    not keep a record from the stored paper of its title."""
    from readinglist.importers.matching import Existing, Matcher

    stored = [Existing(1, "h1", "Cluster model", "", ["H. Adachi"], doi="10.1000/a"),
              Existing(2, "h2", "Spin waves", "", [], doi="10.1000/b"),
              Existing(3, "h3", "Deep kernels", "", ["A. Wilson"], doi="10.48550/arXiv.1511.02222")]  # fmt: skip
    records = [("A cluster model", ["H. Adachi"], "10.1000/a"), ("Unrelated", [], "10.1000/b"),
               ("Deep kernels", ["A. Wilson"], "10.5555/1234.5678")]  # fmt: skip
    m = Matcher(stored, ["x1", "x2", "x3"], [t for t, _, _ in records], [d for _, _, d in records])
    m.settle_ties(lambda i: ("", records[i][1]))
    assert m.revised == {0: 1, 2: 3}
    m = Matcher(stored[:1], ["x1"], ["Another paper"], ["10.1000/a"])
    m.settle_ties(lambda i: ("", []))
    assert m.revised == {}


TIES = r"""
@article{glashow, title = {Partial Symmetries}, author = {Glashow, Sheldon}, journal = {Nucl.~Phys.}, volume = {22},
  pages = {579--588}, year = {1961}, url = {http://www.ip-sl.org/procs/abs07.html\#talk9}}
@book{hannes, title = {Commentarius}, editor = {Ludwig Hannes}, publisher = {C.~A. Kaemmerer}, year = {1892},
  howpublished = {http://example.org/~me/book}, address = {Halle~an der Saale}}
@article{gone, title = {Removed one}, author = {Ann Bee}, journal = {J.~Chem. Phys.}, year = {2006},
  url = {http://example.org/a\_b\%20c}}
"""


def test_latex_ties_in_a_record_are_spaces_but_a_urls_tilde_stays(tmp_path):
    """A review: "Nucl.~Phys." was kept as it was (a field was decoded only with a backslash, a brace or a
    dollar), and cited "Nucl.~Phys., 22, 579–588"; the Markdown line said "J.\\~Chem. Phys."."""
    from readinglist.citation import text_citation

    f = tmp_path / "ties.bib"
    f.write_text(TIES, encoding="utf-8")
    glashow, hannes, gone = parse_file(f).records
    assert glashow.bib["journal"] == "Nucl. Phys." and gone.bib["journal"] == "J. Chem. Phys."
    assert hannes.bib["publisher"] == "C. A. Kaemmerer" and hannes.bib["address"] == "Halle an der Saale"
    assert hannes.bib["howpublished"] == "http://example.org/~me/book"
    cited = paper(title=glashow.title, authors=glashow.authors, venue=glashow.venue, year=1961, bib=glashow.bib)
    assert text_citation(cited) == "Glashow, S. (1961). Partial Symmetries. Nucl. Phys., 22, 579–588."
    row = paper(title=gone.title, venue=gone.venue, year=2006, bib=gone.bib)
    assert "~" not in render([row], ExportOptions(group="none")) + render([row], ExportOptions(format="csv"))


def test_migration_0027_unties_stored_records_and_unescapes_stored_urls(tmp_path):
    """A library that imported such files before keeps what they gave: a re-import finds the papers' text
    unchanged and leaves url and links as they are, and a record kept aside (source_bib) would differ from the
    file's. 0027 cleans papers, records kept aside and removed papers; a re-import then changes nothing."""
    assert biblio.untied("see http://x.org/~me or www.x.org/~you, Nucl.~Phys.") == (
        "see http://x.org/~me or www.x.org/~you, Nucl. Phys."
    )
    from readinglist.store import _m0027_record_ties_and_url_escapes

    data = tmp_path / "old"
    f = tmp_path / "ties.bib"
    f.write_text(TIES, encoding="utf-8")
    lib = Library.open(data, seed=False)
    lib.import_files([f])
    ids = {p.citation_key: p.id for p in lib.papers(lib.search("").ids)}
    mine = {"type": "book", "publisher": "My Press"}
    lib.store.set_record(ids["hannes"], mine)  # the file's record kept aside
    lib.remove([ids["gone"]])
    lib.close()
    escaped = "http://www.ip-sl.org/procs/abs07.html\\#talk9"
    db = sqlite3.connect(data / "library.db")  # as the import before this session stored them
    db.execute(
        "UPDATE papers SET url = ?, links = ?, bib = replace(bib, 'Nucl. Phys.', 'Nucl.~Phys.') WHERE id = ?",
        (escaped, json.dumps([escaped]), ids["glashow"]),
    )
    db.execute("UPDATE papers SET source_bib = replace(source_bib, 'C. A.', 'C.~A.') WHERE id = ?", (ids["hannes"],))
    (removed,) = db.execute("SELECT paper FROM removed_papers").fetchone()
    record = json.loads(removed)
    url = "http://example.org/a\\_b\\%20c"
    record |= {"url": url, "links": json.dumps([url]), "bib": record["bib"].replace("J. Chem.", "J.~Chem.")}
    db.execute("UPDATE removed_papers SET paper = ?", (json.dumps(record),))
    db.execute("DELETE FROM schema_migrations WHERE name = '0027_record_ties_and_url_escapes'")
    db.commit()
    db.close()
    lib = Library.open(data, seed=False)
    try:
        assert "0027_record_ties_and_url_escapes" in lib.store.applied_migrations()
        glashow = lib.paper(ids["glashow"])
        assert glashow.url == "http://www.ip-sl.org/procs/abs07.html#talk9" and glashow.links == [glashow.url]
        assert glashow.bib["journal"] == "Nucl. Phys."
        assert lib.paper(ids["hannes"]).bib == mine
        (back,) = lib.restore_removed([ids["gone"]]).values()
        assert lib.paper(back).url == "http://example.org/a_b%20c"
        assert lib.paper(back).bib["journal"] == "J. Chem. Phys."
        [summary] = lib.import_files([f])
        assert (summary.added, summary.updated, summary.unchanged) == (0, 0, 3)
        assert lib.paper(ids["hannes"]).bib == mine  # the file's record as kept aside: the user's stays
        rev = lib.store.current_rev()
        with lib.store.transaction() as db:
            _m0027_record_ties_and_url_escapes(db)  # idempotent: a second run finds nothing to change
        assert lib.store.current_rev() == rev
    finally:
        lib.close()


def test_the_detail_panes_record_line_puts_a_comma_before_pages_after_a_book(empty_lib, tmp_path):
    """A trial: "Advances in Neural Information Processing Systems 38 pp. 1–9" (a book's title, no volume)."""
    from readinglist.ui.detail import citation_line

    f = tmp_path / "p.bib"
    f.write_text(
        "@inproceedings{a, title = {A}, author = {Doe, J.}, year = {2025}, pages = {1--9},\n"
        "  booktitle = {Advances in Neural Information Processing Systems 38}}\n"
        "@article{b, title = {B}, author = {Doe, J.}, year = {1989}, journal = {Physica C}, volume = {157},\n"
        "  number = {1}, pages = {169--179}}\n",
        encoding="utf-8",
    )
    empty_lib.import_files([f])
    lines = {p.title: citation_line(p) for p in empty_lib.papers(empty_lib.search("").ids)}
    assert lines == {
        "A": "Advances in Neural Information Processing Systems 38, pp. 1–9",
        "B": "Physica C 157(1), pp. 169–179",
    }


SCHOLAR_ARXIV = """@article{kingma2014adam,
  title={Adam: A method for stochastic optimization},
  author={Kingma, Diederik P and Ba, Jimmy},
  journal={arXiv preprint arXiv:1412.6980},
  year={2014}
}
@article{old2006,
  title={An old identifier},
  author={Roe, Rick},
  journal={arXiv preprint cs/0605123v2},
  year={2006}
}
"""


def test_google_scholars_arxiv_journal_is_an_arxiv_preprint_with_its_link(empty_lib, tmp_path):
    """Scholar names an arXiv paper's journal "arXiv preprint arXiv:1412.6980" and gives no eprint nor url: the
    venue is arXiv, the link and eprint are the identifier's, and the citation names the preprint as Scholar's."""
    f = tmp_path / "scholar.bib"
    f.write_text(SCHOLAR_ARXIV, encoding="utf-8")
    adam, old = parse_file(f).records
    assert (adam.venue, adam.url) == ("arXiv", "https://arxiv.org/abs/1412.6980")
    assert adam.bib == {"type": "article", "journal": "arXiv preprint arXiv:1412.6980", "eprint": "1412.6980",
                        "eprinttype": "arXiv"}  # fmt: skip
    assert (old.venue, old.url, old.bib["eprint"]) == ("arXiv", "https://arxiv.org/abs/cs/0605123v2", "cs/0605123v2")
    empty_lib.import_files([f])
    (p,) = empty_lib.papers(empty_lib.search('"stochastic optimization"').ids)
    assert (p.venue, p.links) == ("arXiv", ["https://arxiv.org/abs/1412.6980"])
    from readinglist.citation import text_citations

    assert text_citations([p]).startswith(
        "Kingma, D. P., & Ba, J. (2014). Adam: A method for stochastic optimization. arXiv preprint arXiv:1412.6980."
    )
    bib = render([p], ExportOptions(format="bibtex"))
    assert "journal = {arXiv preprint arXiv:1412.6980}" in bib and "eprint = {1412.6980}" in bib


def test_a_bibtex_author_list_ending_and_others_is_cited_as_cut_short(empty_lib, tmp_path):
    """Google Scholar ends a long author list "and others": the import dropped it, and the APA citation and the
    BibTeX written back gave ten names as all of them. The marker is kept with the record (not as an author, so
    a search for "others" finds nothing), "et al." in APA, "and others" again in BibTeX and biblatex."""
    f = tmp_path / "scholar.bib"
    f.write_text(
        "@article{mnih2015human,\n  title={Human-level control through deep reinforcement learning},\n"
        "  author={Mnih, Volodymyr and Kavukcuoglu, Koray and Ostrovski, Georg and others},\n"
        "  journal={nature},\n  volume={518},\n  year={2015}\n}\n",
        encoding="utf-8",
    )
    (r,) = parse_file(f).records
    assert r.authors == ["Volodymyr Mnih", "Koray Kavukcuoglu", "Georg Ostrovski"]
    assert r.bib["moreauthors"] == "yes"
    empty_lib.import_files([f])
    (p,) = empty_lib.papers(empty_lib.search("").ids)
    assert empty_lib.search("author:others").ids == [] and empty_lib.search("others").ids == []
    from readinglist.citation import bibtex_citations, text_citations

    assert text_citations([p]).startswith("Mnih, V., Kavukcuoglu, K., Ostrovski, G., et al. (2015). Human-level")
    for fmt in ("bibtex", "biblatex"):
        text = render([p], ExportOptions(format=fmt))
        assert "author = {Volodymyr Mnih and Koray Kavukcuoglu and Georg Ostrovski and others}" in text, fmt
        assert "moreauthors" not in text, fmt
    assert "and others}" in bibtex_citations([p])
    assert "Georg Ostrovski et al." in render([p], ExportOptions(format="markdown"))
    back = tmp_path / "back.bib"
    back.write_text(render([p], ExportOptions(format="bibtex")), encoding="utf-8")
    (again,) = parse_file(back).records
    assert (again.authors, again.bib["moreauthors"]) == (r.authors, "yes")


SCHOLAR = (
    "@article{mnih2015human,\n  title={Human-level control through deep reinforcement learning},\n"
    "  author={Mnih, Volodymyr and Kavukcuoglu, Koray and Ostrovski, Georg and others},\n"
    "  journal={nature},\n  year={2015}\n}\n"
)


def test_csl_json_and_ris_say_an_author_list_was_cut_short_and_read_it_back(empty_lib, tmp_path):
    """BibTeX, APA and Markdown said "and others"; CSL-JSON and RIS gave the names listed as all the authors.
    CSL-JSON ends the list with {"literal": "others"}, as pandoc writes BibTeX's "and others" (its citeproc
    renders it "et al."); RIS with "AU  - et al.", as EndNote does. Each import reads the mark back as the
    record's, not as an author; a list not cut short has no mark."""
    f = tmp_path / "scholar.bib"
    f.write_text(SCHOLAR, encoding="utf-8")
    empty_lib.import_files([f])
    (p,) = empty_lib.papers(empty_lib.search("").ids)
    names = ["Volodymyr Mnih", "Koray Kavukcuoglu", "Georg Ostrovski"]
    (item,) = json.loads(render([p], ExportOptions(format="csljson")))
    assert item["author"][-1] == {"literal": "others"} and len(item["author"]) == 4
    ris = render([p], ExportOptions(format="ris"))
    assert "AU  - Ostrovski, Georg\r\nAU  - et al.\r\n" in ris
    for fmt, text in (("json", json.dumps([item])), ("ris", ris)):
        back = tmp_path / f"back.{fmt}"
        back.write_text(text, encoding="utf-8")
        (again,) = parse_file(back).records
        assert (again.authors, again.bib.get("moreauthors")) == (names, "yes"), fmt
    whole = paper(authors=names, bib={"type": "article"})
    assert json.loads(render([whole], ExportOptions(format="csljson")))[0]["author"][-1]["family"] == "Ostrovski"
    assert "et al." not in render([whole], ExportOptions(format="ris"))


def test_an_author_list_cut_short_reads_et_al_in_the_authors_column_and_0034_writes_it_again(data_dir, tmp_path):
    """The table's Authors column gave a list the file cut short ("and others") the count of the names listed,
    "Mnih, Kavukcuoglu, … (3)", as if they were all. It reads "Mnih, Kavukcuoglu, et al." now, follows the
    record when it is replaced (a merge's, a backup's), and migration 0034 writes it again for a library
    imported before; run again, it changes nothing."""
    from readinglist.collation import authors_short
    from readinglist.store import MIGRATIONS

    assert authors_short(["Ashish Vaswani"], more=True) == "Vaswani et al."
    assert authors_short(["A Vaswani", "N Shazeer", "N Parmar"], more=True) == "Vaswani, Shazeer, et al."
    assert authors_short(["A Vaswani", "N Shazeer", "N Parmar"]) == "Vaswani, Shazeer, … (3)"
    assert authors_short([], more=True) == ""
    f = tmp_path / "scholar.bib"
    f.write_text(SCHOLAR, encoding="utf-8")
    lib = Library.open(data_dir, seed=False)
    lib.import_files([f])
    pid = lib.search("").ids[0]
    assert lib.rows([pid])[pid].authors == "Mnih, Kavukcuoglu, et al."
    record = lib.paper(pid).bib
    lib.store.set_record(pid, {k: v for k, v in record.items() if k != "moreauthors"})
    assert lib.rows([pid])[pid].authors == "Mnih, Kavukcuoglu, … (3)"
    lib.store.set_record(pid, record)
    assert lib.rows([pid])[pid].authors == "Mnih, Kavukcuoglu, et al."
    lib.close()
    db = sqlite3.connect(data_dir / "library.db")  # as an earlier version stored it
    db.execute("UPDATE paper_columns SET authors = 'Mnih, Kavukcuoglu, … (3)' WHERE paper_id = ?", (pid,))
    db.execute("DELETE FROM schema_migrations WHERE name = '0034_authors_cut_short'")
    db.commit()
    db.close()
    lib = Library.open(data_dir, seed=False)
    try:
        assert "0034_authors_cut_short" in lib.store.applied_migrations()
        assert lib.rows([pid])[pid].authors == "Mnih, Kavukcuoglu, et al."
        before = lib.store.db.execute("SELECT * FROM paper_columns ORDER BY paper_id").fetchall()
        dict(MIGRATIONS)["0034_authors_cut_short"](lib.store.db)  # idempotent
        assert lib.store.db.execute("SELECT * FROM paper_columns ORDER BY paper_id").fetchall() == before
    finally:
        lib.close()


def test_string_macros_for_authors_and_a_journal_are_exported_as_their_text(tmp_path):
    """An old note asked whether the BibTeX export wrote an author's or a journal's @string macro as text
    (`{jmlr}`) or bare without its definition. Neither: the import expands them (a concatenation too) and
    the export writes the text, which bibtexparser reads without a macro of its own."""
    f = tmp_path / "macros.bib"
    f.write_text(
        '@STRING{JMLR = "Journal of Machine Learning Research"}\n@string{smith = "Smith, John"}\n'
        '@article{a, title = {Macros}, author = smith # " and Doe, Jane and others", journal = jmlr # " (JMLR)",'
        " year = 2020, month = jun, editor = smith}\n",
        encoding="utf-8",
    )
    (r,) = parse_file(f).records
    p = paper(title=r.title, authors=r.authors, venue=r.venue, year=r.year, bib=r.bib, citation_key="a")
    text = render([p], ExportOptions(format="bibtex"))
    assert "  journal = {Journal of Machine Learning Research (JMLR)},\n" in text
    assert "  author = {John Smith and Jane Doe and others},\n" in text and "  editor = {John Smith},\n" in text
    assert "  month = jun\n}" in text  # BibTeX's own month macro, bare, as before
    parsed = bibtexparser.parse_string(text)  # no macro left that the file does not define
    assert not parsed.failed_blocks and not parsed.strings and len(parsed.entries) == 1
    assert not re.search(r"(?i)[{=] ?(jmlr|smith)[},\n]", text)  # no macro name, braced or bare
