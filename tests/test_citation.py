"""A paper as a citation (Copy Citation) and as a reading list's line (the Markdown export): a paper with a
bibliographic record is cited as its kind is, with its DOI's link; one without, as before."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_bibliographic import BIB
from test_bibtex_export import paper

from readinglist.citation import html_citation, html_citations, record_details, text_citation, text_citations
from readinglist.export import ExportOptions, render
from readinglist.importers import parse_file
from readinglist.library import Library

VASWANI = ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit", "Llion Jones", "Aidan N. Gomez",
           "Lukasz Kaiser", "Illia Polosukhin"]  # fmt: skip


def test_a_paper_without_a_record_is_cited_as_before():
    p = paper(title="Attention is all you need", authors=VASWANI, url="https://papers.nips.cc/paper/7181")
    assert text_citation(p) == (
        "Vaswani, A., Shazeer, N., Parmar, N., Uszkoreit, J., Jones, L., Gomez, A. N., Kaiser, L., & Polosukhin, I. "
        "(2017). Attention is all you need. NeurIPS. https://papers.nips.cc/paper/7181"
    )
    assert text_citation(paper(title="A title.", authors=[], venue="", year=None)) == "A title. (n.d.)."


def test_a_title_derived_from_the_abstract_is_cited_as_a_description_in_square_brackets():
    """A trial: citing a bundled ICML paper gave its derived title as the paper's own. APA 7 describes an
    untitled work in square brackets, in the title's place (the author's, with no author); the reader's own
    title (F2) is cited as a title."""
    derived = paper(title="Nash equilibrium in potential games", authors=[], venue="ICML", year=2026)
    derived = replace(derived, raw_title="")
    assert derived.title_derived
    assert text_citation(derived) == "[Nash equilibrium in potential games]. (2026). ICML."
    assert text_citation(replace(derived, authors=["Ann Smith"])) == (
        "Smith, A. (2026). [Nash equilibrium in potential games]. ICML."
    )
    own = replace(derived, user_title="FTRL takes exponential time", title="FTRL takes exponential time")
    assert text_citation(own) == "FTRL takes exponential time. (2026). ICML."


def test_a_sentence_that_ends_in_a_full_stop_or_a_question_mark_gets_no_second_one():
    """ "Smith, A.." (no year) and "Why?." were written."""
    assert text_citation(paper(title="Why?", authors=["Ann Smith"], year=None, venue="Proc.")) == (
        "Smith, A. (n.d.). Why? Proc.")  # fmt: skip


@pytest.fixture
def cited(tmp_path):
    f = tmp_path / "refs.bib"
    f.write_text(BIB, encoding="utf-8")
    return {r.citation_key: paper(title=r.title, authors=r.authors, venue=r.venue, year=r.year, url=r.url, bib=r.bib,
                                  citation_key=r.citation_key) for r in parse_file(f).records}  # fmt: skip


def test_a_journal_article_is_cited_by_its_journal_volume_issue_and_pages_and_linked_by_its_doi(cited):
    """A JabRef @article was cited as a conference paper: "… (1989). Title. Physica C: Superconductivity."."""
    assert text_citation(cited["Adachi_1989"]) == (
        "Adachi, H., & Takano, M. (1989). Cluster model investigation of the electronic state in cuprous oxide. "
        "Physica C: Superconductivity, 157(1), 169–179. https://doi.org/10.1016/0921-4534(89)90484-X"
    )


def test_a_paper_in_proceedings_a_thesis_a_report_and_a_book_are_cited_as_a_reader_expects(cited):
    assert text_citation(cited["lovelace2020"]) == (
        "Lovelace, A., & Babbage, C. (2020). Notes on the Analytical Engine. In L. Menabrea & R. Taylor (Eds.), "
        "Proceedings of the Österreichische Conference on Engines (pp. 1–9). Springer. "
        "https://doi.org/10.1007/978-3-030_12345"
    )
    assert text_citation(cited["turing1938"]) == (
        "Turing, A. (1938). Systems of Logic Based on Ordinals [Doctoral dissertation, Princeton University]."
    )
    report = paper(title="A report", bib={"type": "techreport", "number": "TR-7", "institution": "MIT"})
    assert text_citation(report) == "Lovelace, A. (2017). A report (Technical report No. TR-7). MIT."
    book = paper(title="The Art of Programming", venue="", bib={"type": "book", "edition": "3", "volume": "1",
                                                                "publisher": "Addison-Wesley"})  # fmt: skip
    assert text_citation(book) == "Lovelace, A. (2017). The Art of Programming (3rd ed., Vol. 1). Addison-Wesley."
    edited = paper(
        title="Feature Extraction",
        authors=[],
        venue="",
        bib={"type": "collection", "editor": "Isabelle Guyon; Steve Gunn", "publisher": "Springer"},
    )
    assert text_citation(edited) == "Guyon, I., & Gunn, S. (Eds.). (2017). Feature Extraction. Springer."
    chapter = paper(title="A chapter", venue="", bib={"type": "incollection", "booktitle": "The Book", "chapter": "4",
                                                      "pages": "12"})  # fmt: skip
    assert text_citation(chapter) == "Lovelace, A. (2017). A chapter. In The Book (Chap. 4, p. 12)."
    preprint = paper(title="A preprint", venue="", bib={"type": "misc", "eprint": "2101.00001", "eprinttype": "arXiv"})
    assert text_citation(preprint) == "Lovelace, A. (2017). A preprint. arXiv:2101.00001."


def test_a_doi_takes_the_place_of_the_url_and_a_record_that_says_nothing_more_keeps_the_venue():
    p = paper(title="T", url="https://example.org/t", bib={"doi": "10.1000/xyz"})
    assert text_citation(p) == "Lovelace, A. (2017). T. NeurIPS. https://doi.org/10.1000/xyz"


def test_the_reading_list_shows_what_the_record_says_and_links_the_doi_and_reads_back_as_before(cited, tmp_path):
    papers = [cited["Adachi_1989"], cited["turing1938"], paper(title="No record", url="https://example.org/n")]
    for n, p in enumerate(papers):
        p.id, p.uid, p.tags = n, f"u{n}", ["to cite"]
    text = render(papers, ExportOptions(group="none"))
    assert (
        "— H. Adachi, M. Takano · Physica C: Superconductivity 1989 · *157(1), pp. 169–179 (Elsevier)* · "
        "[doi:10.1016/0921-4534(89)90484-X](https://doi.org/10.1016/0921-4534%2889%2990484-X) · `to cite` · "
        "key `Adachi_1989`\n" in text
    )
    thesis = "— Alan Turing · 1938 · *Doctoral dissertation, Princeton University* · `to cite` · key `turing1938`\n"
    assert thesis in text
    bare = "- [ ] **[No record](https://example.org/n)** — Ada Lovelace · NeurIPS 2017 · `to cite`"
    assert bare + " · key `lovelace2017no`\n" in text
    f = tmp_path / "list.md"
    f.write_text(text, encoding="utf-8")
    got = [(r.title, r.authors, r.venue, r.year, r.tags) for r in parse_file(f).records]
    assert got == [(p.title, [" ".join(a.split(", ")[::-1]) for a in p.authors], p.venue, p.year, p.tags)
                   for p in papers]  # fmt: skip


def test_a_reading_list_line_of_only_a_record_reads_back_with_no_authors_venue_or_year(tmp_path):
    p = paper(title="Alone", authors=[], venue="", year=None, bib={"type": "phdthesis", "school": "MIT",
                                                                   "doi": "10.1000/a_b(c)[d]"})  # fmt: skip
    text = render([p], ExportOptions(group="none"))
    assert "**Alone** — *Doctoral dissertation, MIT* · [doi:10.1000/a\\_b(c)\\[d\\]](https://doi.org/" in text
    f = tmp_path / "list.md"
    f.write_text(text, encoding="utf-8")
    (r,) = parse_file(f).records
    assert (r.title, r.authors, r.venue, r.year) == ("Alone", [], "", None)


def test_record_details_say_only_what_the_venue_does_not():
    assert record_details(paper(title="T")) == ""
    book = "Advances in Neural Information Processing Systems 30"
    neurips = paper(title="T", bib={"type": "inproceedings", "pages": "5998-6008", "booktitle": book})
    assert record_details(neurips) == "in Advances in Neural Information Processing Systems 30, pp. 5998–6008"


def test_the_html_citation_has_apas_italics_and_escapes_the_rest(cited):
    """Copy Citation's text lost APA's italics in a word processor: its HTML sets in <i> a journal and its
    volume, the book a paper in proceedings is in, a book's (a thesis's, a report's) title; the rest escaped."""
    assert html_citation(cited["Adachi_1989"]) == (
        "Adachi, H., &amp; Takano, M. (1989). Cluster model investigation of the electronic state in cuprous oxide. "
        "<i>Physica C: Superconductivity, 157</i>(1), 169–179. https://doi.org/10.1016/0921-4534(89)90484-X"
    )
    assert html_citation(cited["lovelace2020"]) == (
        "Lovelace, A., &amp; Babbage, C. (2020). Notes on the Analytical Engine. In L. Menabrea &amp; R. Taylor "
        "(Eds.), <i>Proceedings of the Österreichische Conference on Engines</i> (pp. 1–9). Springer. "
        "https://doi.org/10.1007/978-3-030_12345"
    )
    assert html_citation(cited["turing1938"]) == (
        "Turing, A. (1938). <i>Systems of Logic Based on Ordinals</i> [Doctoral dissertation, Princeton University]."
    )
    book = paper(title="C++ <templates> & you", venue="", bib={"type": "book", "edition": "2", "publisher": "A&W"})
    assert html_citation(book) == "Lovelace, A. (2017). <i>C++ &lt;templates&gt; &amp; you</i> (2nd ed.). A&amp;W."
    assert text_citation(book) == "Lovelace, A. (2017). C++ <templates> & you (2nd ed.). A&W."
    why = paper(title="Why?", authors=[], venue="", bib={"type": "book"})  # no author: the title first, in italics
    assert html_citation(why) == "<i>Why?</i> (2017)."
    # an article without a volume: only its journal in italics; a paper without a record: none
    issue_only = paper(title="A <b>", venue="", bib={"type": "article", "journal": "J & K", "number": "3"})
    assert html_citation(issue_only) == "Lovelace, A. (2017). A &lt;b&gt;. <i>J &amp; K</i>, no. 3."
    assert html_citation(paper(title="Plain & <simple>")) == "Lovelace, A. (2017). Plain &amp; &lt;simple&gt;. NeurIPS."
    two = html_citations([cited["turing1938"], book])
    assert two.count("<p>") == 2 and two.startswith("<p>Turing, A.") and two.endswith("A&amp;W.</p>")


def test_copy_citation_in_the_window_cites_the_record(qtbot, data_dir, tmp_path):
    from PySide6.QtWidgets import QApplication

    from tests.conftest import open_window

    f = tmp_path / "refs.bib"
    f.write_text(BIB, encoding="utf-8")
    lib = Library.open(data_dir, seed=False)
    lib.import_files([f])
    lib.close()
    w = open_window(qtbot, data_dir, 3)
    try:
        # (by the library's titles: a row's cells are filled just before it is painted, so may still be empty)
        [wanted] = [p.id for p in w.library.papers(w.library.search("").ids) if "Cluster" in p.title]
        w.table.view.setFocus()
        assert w.table.go_to(wanted)
        qtbot.waitUntil(lambda: w.detail.paper_id == wanted)
        pid = w.table.current_id
        w.actionCopyCitation.trigger()
        cited = QApplication.clipboard().text()
        assert cited == text_citations(w.library.papers([pid]))
        assert "Physica C: Superconductivity, 157(1), 169–179. https://doi.org/10.1016/" in cited
        # several papers: the text a line each, the HTML (which a word processor pastes) a paragraph each
        ids = w.library.search("").ids
        assert len(w.table.select_ids(ids)) == 3
        w.actionCopyCitation.trigger()
        data = QApplication.clipboard().mimeData()
        assert data.hasHtml() and data.hasText()
        chosen = w.library.papers(w.target_ids())
        assert data.text() == text_citations(chosen) and data.text().count("\n") == 2
        assert data.html().count("<p>") == 3 and html_citations(chosen) in data.html()
        assert "<i>Physica C: Superconductivity, 157</i>(1)" in data.html()
        assert "<i>Systems of Logic Based on Ordinals</i>" in data.html()
    finally:
        w.runner.wait()
        w.library.close()


def test_editors_in_zoteros_family_given_form_are_read_as_names_and_cited_so(tmp_path):
    """A review: Zotero's CSV gives editors "Menabrea, Luigi; Taylor, Richard", kept as they were and cited
    "In M. Luigi & T. Richard (Eds.)". The import keeps names as people write them, from CSV, JSON and RIS
    alike, and a record stored before (or a name kept as "Family, Given") is read so too."""
    from readinglist import biblio

    f = tmp_path / "zotero.csv"
    f.write_text(
        "Title,Author,Editor,Item Type,Publication Title,Date,Pages\n"
        '"Csv chap","Jane Doe","Menabrea, Luigi; Taylor, Richard",bookSection,The Book,2002,1-5\n'
        '"One editor","Jane Doe","Menabrea, Luigi",bookSection,The Book,2002,\n',
        encoding="utf-8",
    )
    two, one = parse_file(f).records
    assert two.bib["editor"] == "Luigi Menabrea; Richard Taylor" and one.bib["editor"] == "Luigi Menabrea"
    cited = paper(title="Csv chap", authors=two.authors, year=two.year, venue="", bib=two.bib)
    assert text_citation(cited) == "Doe, J. (2002). Csv chap. In L. Menabrea & R. Taylor (Eds.), The Book (pp. 1–5)."
    f = tmp_path / "items.json"
    f.write_text('[{"title": "J", "type": "chapter", "container-title": "B", "editor": "Menabrea, Luigi"}]')
    assert parse_file(f).records[0].bib["editor"] == "Luigi Menabrea"
    kept = {"type": "incollection", "booktitle": "B", "editor": "Menabrea, Luigi; Taylor, Richard"}
    stored = paper(title="Old", authors=["Doe, Jane"], venue="", bib=kept)
    assert text_citation(stored) == "Doe, J. (2017). Old. In L. Menabrea & R. Taylor (Eds.), B."
    assert biblio.name_list("Menabrea, Luigi and Taylor, R.") == ["Luigi Menabrea", "R. Taylor"]
    assert biblio.name_list("L. Menabrea, R. Taylor") == ["L. Menabrea", "R. Taylor"]  # two names
    assert biblio.name_list("Steele, Jr., Guy L.; van der Berg, Jan") == ["Guy L. Steele Jr.", "Jan van der Berg"]
    assert biblio.name_list("John Smith, Jr.") == ["John Smith Jr."]
    assert biblio.editor_names("Google, Inc.; Menabrea, L.") == ["Google Inc.", "L. Menabrea"]
    assert biblio.editor_names("Department of Physics, MIT; Menabrea, L.") == [
        "Department of Physics, MIT",
        "L. Menabrea",
    ]


def test_zoteros_csv_authors_are_one_author_each(tmp_path):
    """Zotero's CSV writes "Doe, Jane" for one author, "Doe, Jane; Roe, Richard" for two: the first was read as
    two authors ("Doe" and "Jane", cited "Doe, Jane (2002)"), the second kept "Doe, Jane" as it was."""
    f = tmp_path / "zotero.csv"
    f.write_text(
        'Title,Author,Item Type,Date\n"One","Doe, Jane",book,2002\n"Two","Doe, Jane; Roe, Richard",book,2002\n'
        '"Three","J. Doe, R. Roe",book,2002\n',
        encoding="utf-8",
    )
    one, two, three = parse_file(f).records
    assert one.authors == ["Jane Doe"] and two.authors == ["Jane Doe", "Richard Roe"]
    assert three.authors == ["J. Doe", "R. Roe"]  # names of their own form: a list, as before
    assert text_citation(paper(title="Two", authors=two.authors, venue="", year=2002)).startswith("Doe, J., ")


def test_an_edited_book_is_cited_by_its_editors_as_editors(tmp_path):
    """The BibTeX import gives a book with editors and no authors its editors for authors: it was cited "One,
    E., Two, E. (2012). My Book." without "(Eds.)"; a book its authors wrote is cited by them."""
    f = tmp_path / "b.bib"
    f.write_text(
        "@book{b, title = {My Book}, editor = {Ed One and Ed Two}, publisher = {Springer}, year = {2012}}\n"
        "@book{c, title = {Edited}, editor = {Two, Ed}, year = {2012}}\n"
        "@book{d, title = {Written}, author = {Ann Writer}, editor = {Ed One}, publisher = {P}, year = {2012}}\n",
        encoding="utf-8",
    )
    cited = [
        paper(title=r.title, authors=r.authors, venue=r.venue, year=r.year, bib=r.bib) for r in parse_file(f).records
    ]
    assert [text_citation(p) for p in cited] == [
        "One, E., & Two, E. (Eds.). (2012). My Book. Springer.",
        "Two, E. (Ed.). (2012). Edited.",
        "Writer, A. (2012). Written. P.",
    ]


def test_apa_details_the_ampersand_editions_pages_and_a_titles_last_mark():
    """A review: no "&" before the last author (APA 7 has it, with a comma, of two authors too); "Revised" and
    "Limited" editions without "ed." (they hold the letters "ed"); pages "1,5" as "p. 1,5"; "Wait..." lost its
    ellipsis, and "Foo," was written "Foo,."."""
    two = paper(title="T", authors=["Ann Bertram", "Richard Wentworth"], year=1996, venue="")
    assert text_citation(two) == "Bertram, A., & Wentworth, R. (1996). T."
    three = paper(title="T", authors=["A One", "B Two", "C Three"], venue="")
    assert text_citation(three) == "One, A., Two, B., & Three, C. (2017). T."
    seven = paper(title="T", authors=VASWANI[:7], venue="")
    assert text_citation(seven).startswith("Vaswani, A., Shazeer, N., Parmar, N., Uszkoreit, J., Jones, L., Gomez, "
                                           "A. N., & Kaiser, L. (2017).")  # fmt: skip
    for named, shown in (("Revised", "Revised ed."), ("Limited", "Limited ed."), ("2", "2nd ed."),
                         ("Second edition", "Second edition"), ("3rd ed.", "3rd ed.")):  # fmt: skip
        book = paper(title="B", venue="", bib={"type": "book", "edition": named})
        assert text_citation(book) == f"Lovelace, A. (2017). B ({shown}).", named
    chapter = paper(title="C", venue="", bib={"type": "incollection", "booktitle": "Book", "pages": "1,5"})
    assert text_citation(chapter) == "Lovelace, A. (2017). C. In Book (pp. 1, 5)."
    assert record_details(chapter) == "in Book, pp. 1, 5"
    assert text_citation(paper(title="Wait...", venue="J")) == "Lovelace, A. (2017). Wait... J."
    assert text_citation(paper(title="Wait…", venue="J")) == "Lovelace, A. (2017). Wait… J."
    assert text_citation(paper(title="Foo,", venue="J")) == "Lovelace, A. (2017). Foo. J."
    assert text_citation(paper(title="Foo,", venue="", bib={"type": "article", "journal": "J"})) == (
        "Lovelace, A. (2017). Foo. J."
    )
    assert text_citation(paper(title="A title.", venue="J")) == "Lovelace, A. (2017). A title. J."


def test_apa_7_names_twenty_authors_and_cuts_more_with_the_last_and_puts_a_title_without_authors_first():
    """A trial: an eight-author paper was cut to six and "et al."; a paper without authors began "(2026)."."""
    names = [f"Ann Author{chr(65 + i)}" for i in range(25)]
    twenty = text_citation(paper(title="T", authors=names[:20], venue="V"))
    assert twenty.startswith("AuthorA, A., AuthorB, A.,") and ", & AuthorT, A. (2017). T. V." in twenty
    many = text_citation(paper(title="T", authors=names, venue="V"))
    assert "AuthorS, A., . . . AuthorY, A. (2017). T. V." in many and "AuthorT" not in many
    assert "et al." not in twenty + many
    assert text_citation(paper(title="BEXA: Budgeted exit actor", authors=[], venue="ICML")) == (
        "BEXA: Budgeted exit actor. (2017). ICML.")  # fmt: skip


def test_a_test_run_that_copied_a_citation_exits_cleanly(tmp_path):
    """The suite's exit status is CI's verdict: a run that put a citation on the clipboard must exit 0, not
    crash while Python shuts down (the offscreen clipboard outlived the interpreter; conftest empties it)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--basetemp",
            str(tmp_path / "t"),
            "tests/test_citation.py::test_copy_citation_in_the_window_cites_the_record",
        ],
        cwd=root,
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "1 passed" in run.stdout
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]


@pytest.mark.parametrize(
    ("kind", "cited"),
    [
        ("article", "A title. (2020). J. Foo, 3(7), 1–9."),
        ("inproceedings", "A title. (2020). In Proc Bar (Vol. 3, pp. 1–9). Pub."),
        ("phdthesis", "A title [Doctoral dissertation, MIT]. (2020). Venue."),
        ("techreport", "A title (Technical report No. 7). (2020). Inst."),
        ("book", "A title (Vol. 3). (2020). Pub."),
        ("misc", "A title. (2020). J. Foo. Pub."),
        ("", "A title. (2020). Venue."),
    ],
)
def test_a_paper_without_authors_is_cited_with_its_year_and_its_title_takes_what_apa_writes_after_it(kind, cited):
    """Without authors the title takes the author's place, before the year, in every kind (APA 7); with it
    goes what APA writes after a title: a report's "(Technical report No. 7)" came after the year, "A title.
    (2020). (Technical report No. 7). Inst.", and a book's volume, a thesis's description too."""
    bib = {"type": kind, "journal": "J. Foo", "booktitle": "Proc Bar", "volume": "3", "pages": "1-9", "number": "7",
           "publisher": "Pub", "school": "MIT", "institution": "Inst"} if kind else {}  # fmt: skip
    p = paper(title="A title", authors=[], venue="Venue", year=2020, bib=bib)
    assert text_citation(p) == cited
    with_author = text_citation(replace(p, authors=["Ann Lee"]))
    assert with_author.startswith("Lee, A. (2020). A title") and "(2020)" not in with_author[16:]
