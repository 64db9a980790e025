"""A file's keywords (BibTeX keywords, RIS KW, a keywords column) are tags kept apart from the user's own, as
Zotero's automatic tags are: the sidebar lists them under Keywords, a click makes them the user's, and every
edit keeps which tags are keywords (undo included). A name is one tag: the user's on one paper is theirs on
every paper that has it (a trial found a name under Tags on one paper and a keyword on twelve confusing)."""

import json
import sqlite3
from dataclasses import replace

import pytest
from PySide6.QtCore import QModelIndex, Qt

from readinglist.collation import name_key
from readinglist.library import Library
from readinglist.papers import StoreError
from readinglist.store import Store

BIB = """@inproceedings{a, title = {Deep Residual Learning}, author = {He, Kaiming}, year = {2016},
  keywords = {vision, residual networks}}
@inproceedings{b, title = {Attention Is All You Need}, author = {Vaswani, Ashish}, year = {2017},
  keywords = {attention, vision}}
"""


def _import(lib: Library, tmp_path, text: str = BIB, name: str = "k.bib") -> dict[str, int]:
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    lib.import_files([f])
    return {p.title: p.id for p in lib.papers(lib.search("").ids)}


def test_a_files_keywords_are_tags_kept_apart_and_found_as_tags(empty_lib, tmp_path):
    ids = _import(empty_lib, tmp_path)
    resnet = empty_lib.paper(ids["Deep Residual Learning"])
    assert resnet.tags == ["residual networks", "vision"] and resnet.keywords == resnet.tags
    assert resnet.own_tags == []
    assert empty_lib.keyword_tags() == {"attention", "residual networks", "vision"}
    assert dict(empty_lib.tag_counts())["vision"] == 2
    assert len(empty_lib.search("tag:vision").ids) == 2  # searched and filtered as any tag


def test_a_tag_the_user_gives_is_theirs_on_every_paper_and_a_reimport_keeps_it_so(empty_lib, tmp_path):
    ids = _import(empty_lib, tmp_path)
    a, b = ids["Deep Residual Learning"], ids["Attention Is All You Need"]
    empty_lib.add_tags([a], ["vision"])  # typed by the user on one of the two papers
    assert empty_lib.paper(a).own_tags == ["vision"] and empty_lib.paper(b).own_tags == ["vision"]
    assert empty_lib.paper(b).keywords == ["attention"]
    assert empty_lib.keyword_tags() == {"attention", "residual networks"}  # "vision" is theirs now
    _import(empty_lib, tmp_path, BIB.replace("vision, residual", "Vision, residual"))  # the file again, revised
    assert empty_lib.paper(a).own_tags == ["vision"]  # nor respelt by the file
    assert empty_lib.keyword_tags() == {"attention", "residual networks"}


def test_an_edit_keeps_where_each_kept_tag_came_from_and_undo_puts_it_back(empty_lib, tmp_path):
    ids = _import(empty_lib, tmp_path)
    a = ids["Deep Residual Learning"]
    was = empty_lib.imported_of([a])
    before = empty_lib.set_tags({a: ["vision", "mine"]})  # the tag editor: one keyword dropped, one tag typed
    p = empty_lib.paper(a)
    assert p.keywords == ["vision"] and p.own_tags == ["mine"]
    empty_lib.set_tags(before, was)  # undo
    p = empty_lib.paper(a)
    assert p.tags == ["residual networks", "vision"] and p.keywords == p.tags


def test_keywords_made_tags_and_back_and_removed(empty_lib, tmp_path):
    ids = _import(empty_lib, tmp_path)
    links = [(pid, t) for pid, t in empty_lib.keyword_links() if t == "vision"]
    empty_lib.make_keywords_tags(links)
    assert empty_lib.keyword_tags() == {"attention", "residual networks"}
    assert empty_lib.paper(ids["Attention Is All You Need"]).own_tags == ["vision"]
    empty_lib.make_keywords_tags(links, own=False)  # undo
    assert empty_lib.keyword_tags() == {"attention", "residual networks", "vision"}
    empty_lib.add_tags([ids["Deep Residual Learning"]], ["mine"])
    after = empty_lib.plan_remove_keywords()
    assert after == {ids["Deep Residual Learning"]: ["mine"], ids["Attention Is All You Need"]: []}
    empty_lib.set_tags(after)
    assert empty_lib.tag_counts() == [("mine", 1)] and empty_lib.keyword_tags() == set()


def test_a_removed_paper_and_a_merged_duplicate_keep_their_keywords_as_keywords(empty_lib, tmp_path):
    ids = _import(empty_lib, tmp_path)
    a, b = ids["Deep Residual Learning"], ids["Attention Is All You Need"]
    empty_lib.add_tags([a], ["mine"])
    removed = empty_lib.remove([a])  # its keyword "residual networks" leaves the library with it
    assert "residual networks" not in empty_lib.keyword_tags()
    p = empty_lib.paper(empty_lib.restore_removed(removed)[a])
    assert p.own_tags == ["mine"] and p.keywords == ["residual networks", "vision"]
    empty_lib.add_tags([b], ["theirs"])
    merged = empty_lib.merge(p.id, b)
    kept = empty_lib.paper(p.id)
    assert set(kept.own_tags) == {"mine", "theirs"} and set(kept.keywords) == {
        "attention",
        "residual networks",
        "vision",
    }
    empty_lib.unmerge(merged)
    assert empty_lib.paper(p.id).keywords == ["residual networks", "vision"]


def test_a_keyword_renamed_stays_a_keyword_and_renamed_onto_a_tag_is_that_tag(empty_lib, tmp_path):
    ids = _import(empty_lib, tmp_path)
    a, b = ids["Deep Residual Learning"], ids["Attention Is All You Need"]

    def rename(old: str, new: str) -> None:
        after = empty_lib.plan_rename_tag(old, new)
        empty_lib.set_tags(after, empty_lib.keywords_after_rename(old, new, after))

    rename("residual networks", "ResNets")
    assert empty_lib.paper(a).keywords == ["ResNets", "vision"] and empty_lib.paper(a).own_tags == []
    empty_lib.add_tags([b], ["mine"])
    rename("ResNets", "mine")  # onto the user's tag: merged into it
    assert empty_lib.paper(a).own_tags == ["mine"] and empty_lib.paper(a).keywords == ["vision"]
    assert empty_lib.paper(b).own_tags == ["mine"] and empty_lib.keyword_tags() == {"attention", "vision"}


def test_the_same_paper_from_another_file_adds_its_keywords_as_keywords(empty_lib, tmp_path):
    ids = _import(empty_lib, tmp_path)
    a = ids["Deep Residual Learning"]
    empty_lib.add_tags([a], ["mine"])
    ris = (
        "TY  - CONF\nTI  - Deep Residual Learning\nAU  - He, Kaiming\nPY  - 2016\nKW  - mine\nKW  - shortcuts\nER  - \n"
    )
    (tmp_path / "k.ris").write_text(ris, encoding="utf-8")
    empty_lib.import_files([tmp_path / "k.ris"])
    p = empty_lib.paper(a)
    assert p.own_tags == ["mine"] and p.keywords == ["residual networks", "shortcuts", "vision"]


def test_tags_differing_in_a_non_ascii_letters_case_are_two_tags_and_each_keeps_its_origin(empty_lib, tmp_path):
    # SQLite's NOCASE folds ASCII letters only: "Éducation" and "éducation" are two tags of one paper
    ids = _import(empty_lib, tmp_path, "@article{e, title = {Schools}, keywords = {éducation}}\n")
    pid = ids["Schools"]
    empty_lib.add_tags([pid], ["Éducation"])
    assert empty_lib.plan_remove_keywords() == {pid: ["Éducation"]}
    empty_lib.set_tags({pid: ["Éducation", "new"]})  # a tag typed: the user's "Éducation" is not taken for the keyword
    p = empty_lib.paper(pid)
    assert p.own_tags == ["Éducation", "new"] and p.keywords == []  # in the sidebar's order


def test_undo_puts_back_the_marks_an_edit_changed_and_only_those(qapp, empty_lib, tmp_path):
    from readinglist.ui.undo import SetTagsCommand

    ids = _import(empty_lib, tmp_path)
    a, b = ids["Deep Residual Learning"], ids["Attention Is All You Need"]
    # "residual networks" typed on b: the user's tag on a too; undo makes it a keyword again on a
    cmd = SetTagsCommand(empty_lib, {b: ["attention", "residual networks", "vision"]}, "Tag", lambda _: None,
                         {b: {"attention", "vision"}})  # fmt: skip
    cmd.redo()
    assert empty_lib.paper(a).own_tags == ["residual networks"]
    cmd.undo()
    assert empty_lib.paper(a).keywords == ["residual networks", "vision"] and empty_lib.paper(b).tags == [
        "attention",
        "vision",
    ]
    # a mark changed since (the command line made "vision" the user's) is left as it is
    cmd = SetTagsCommand(empty_lib, {a: ["residual networks"]}, "Untag", lambda _: None)
    cmd.redo()
    empty_lib.add_tags([b], ["vision"])
    cmd.undo()
    assert empty_lib.paper(a).own_tags == ["vision"] and empty_lib.paper(b).own_tags == ["vision"]


def test_the_users_tag_renamed_onto_a_keyword_makes_it_theirs(empty_lib, tmp_path):
    ids = _import(empty_lib, tmp_path)
    a, b = ids["Deep Residual Learning"], ids["Attention Is All You Need"]
    empty_lib.add_tags([b], ["ml"])
    after = empty_lib.plan_rename_tag("ml", "vision")
    empty_lib.set_tags(after, empty_lib.keywords_after_rename("ml", "vision", after))
    assert empty_lib.paper(b).own_tags == ["vision"] and empty_lib.paper(a).own_tags == ["vision"]


def test_exports_say_which_are_keywords_and_a_new_library_reads_them_so(empty_lib, tmp_path, data_dir):
    from readinglist import export
    from readinglist.papers import ExportOptions

    ids = _import(empty_lib, tmp_path)
    empty_lib.add_tags([ids["Deep Residual Learning"]], ["mine"])
    papers = empty_lib.papers(list(ids.values()))
    row = json.loads(json.dumps(papers[0].to_json()))
    assert row["tags"] == ["mine"] and row["keywords"] == ["residual networks", "vision"]
    for fmt, suffix in (("json", "json"), ("csv", "csv"), ("bibtex", "bib"), ("biblatex", "bib")):
        out = tmp_path / f"out-{fmt}.{suffix}"
        out.write_text(export.render(papers, ExportOptions(format=fmt)), encoding="utf-8")
        other = Library.open(tmp_path / f"other-{fmt}", seed=False)
        try:
            other.import_files([out])
            back = {p.title: p for p in other.papers(other.search("").ids)}["Deep Residual Learning"]
            assert back.own_tags == ["mine"] and back.keywords == ["residual networks", "vision"], fmt
        finally:
            other.close()


KEYWORDS = ["Graphs; trees", "Learning", "Optimization, convex"]  # (sorted as the library lists them)


def test_a_keyword_with_a_comma_or_a_semicolon_survives_every_export_that_writes_keywords(empty_lib, tmp_path):
    """A trial: "Optimization, convex" came back from a BibTeX, CSV or CSL-JSON export as two keywords (each
    writes the keywords as one text, "a, b", which the importer splits at commas and semicolons). BibTeX braces
    such a keyword (the importer splits outside braces), CSV and CSL-JSON write one a line; RIS (a KW line
    each) and JSON (a list) kept it already. Markdown writes the user's tags only, which hold no comma."""
    from readinglist import export
    from readinglist.papers import ExportOptions

    f = tmp_path / "in.json"
    f.write_text(json.dumps([{"title": "Convex things", "abstract": "On convexity.", "keywords": KEYWORDS}]))
    empty_lib.import_files([f])
    (pid,) = empty_lib.search("").ids
    empty_lib.add_tags([pid], ["mine"])
    p = empty_lib.paper(pid)
    assert p.keywords == KEYWORDS and p.own_tags == ["mine"]
    bib = export.render([p], ExportOptions(format="bibtex"))
    assert "keywords = {{Graphs; trees}, Learning, mine, {Optimization, convex}}" in bib
    for fmt, back in _through_every_keyword_format(p, tmp_path):
        # (CSL-JSON and RIS have no field that tells the user's tags from keywords: every tag is one)
        every = sorted([*KEYWORDS, "mine"], key=str.casefold)
        assert back.tags == every and back.keywords == (every if fmt in ("csljson", "ris") else KEYWORDS), fmt


def _through_every_keyword_format(p, tmp_path):
    """(format, the paper as a fresh library imports it back) for each export that writes keywords."""
    from readinglist import export
    from readinglist.papers import ExportOptions

    formats = {"bibtex": "bib", "biblatex": "bib", "csv": "csv", "json": "json", "csljson": "json", "ris": "ris"}
    for fmt, suffix in formats.items():
        out = tmp_path / f"out-{fmt}.{suffix}"
        out.write_text(export.render([p], ExportOptions(format=fmt)), encoding="utf-8")
        other = Library.open(tmp_path / f"other-{fmt}", seed=False)
        try:
            other.import_files([out])
            (back,) = other.papers(other.search("").ids)
            yield fmt, back
        finally:
            other.close()


@pytest.mark.parametrize(
    ("keywords", "own"),
    [(["Optimization, convex"], []), (["Graphs; trees"], []), (["Learning", "Optimization, convex"], []),
     (["Optimization, convex"], ["Optimization, convex"]),
     (["Graphs; trees", "Optimization, convex"], ["Graphs; trees"])],
)  # fmt: skip
def test_a_single_keyword_with_a_comma_survives_every_export_that_writes_keywords(empty_lib, tmp_path, keywords, own):
    """A review: a paper whose only keyword held a comma lost it through CSV and CSL-JSON (one keyword "a line"
    is one line, which split_tags split at the comma). Each such keyword is followed by a line break there; the
    same for a user's tag (a keyword made theirs), which CSV, BibTeX and JSON write apart."""

    f = tmp_path / "in.json"
    f.write_text(json.dumps([{"title": "Convex things", "abstract": "On convexity.", "keywords": keywords}]))
    empty_lib.import_files([f])
    (pid,) = empty_lib.search("").ids
    empty_lib.make_keywords_tags([(pid, t) for t in own])
    p = empty_lib.paper(pid)
    assert p.tags == keywords and p.own_tags == own
    keywords = [k for k in keywords if k not in own]
    every = sorted([*keywords, *own], key=str.casefold)
    assert p.keywords == keywords
    for fmt, back in _through_every_keyword_format(p, tmp_path):
        mixed = fmt in ("csljson", "ris")  # (no field that tells the user's tags from keywords)
        assert (back.tags, back.own_tags) == (every, [] if mixed else own), fmt


def test_a_bibtex_keyword_in_braces_is_one_keyword(tmp_path):
    """BibTeX groups by braces: a braced keyword holding a comma is one; an unbraced list is split at commas
    and semicolons alike, as files write both (IEEE's "a;b;c", a physics index's "Excitons; spectra, Films"
    holding semicolons in keywords separated by commas: which one separates cannot be told)."""
    from readinglist.importers import parse_file

    f = tmp_path / "k.bib"
    f.write_text(
        "@article{a, title = {T}, keywords = {{Learning, Deep}; {Graphs, Neural}; {\\'E}cole, x\\,y}}\n"
        "@article{b, title = {U}, keywords = {graph theory;local search, smac}}\n",
        encoding="utf-8",
    )
    first, second = parse_file(f).records
    assert first.keywords == ["Learning, Deep", "Graphs, Neural", "École", "x y"]
    assert second.keywords == ["graph theory", "local search", "smac"]


def test_braces_inside_a_keyword_protect_its_case_and_group_no_keywords(tmp_path):
    """A brace group is one keyword only when it is the whole item: tools brace capitals across the separator
    for their case (IRIDIA's articles.bib: "Ant colony {optimization,Car-sequencing} problem", four keywords
    in all, read as one when braces grouped whatever held them)."""
    from readinglist.importers import parse_file

    f = tmp_path / "k.bib"
    f.write_text(
        "@article{a, title = {T}, keywords = {Ant colony {optimization,Car-sequencing} problem,Pheromone trail,"
        "Scheduling}}\n"
        "@article{b, title = {U}, keywords = {{ACO,Customer} order {scheduling,Genetic}\n"
        "  {algorithms,Meta-heuristics,Simulated} {annealing,Tabu}\n  search}}\n"
        "@article{c, title = {V}, keywords = { {Optimization, convex} , {Graphs; trees};Learning}}\n",
        encoding="utf-8",
    )
    a, b, c = parse_file(f).records
    assert a.keywords == ["Ant colony optimization", "Car-sequencing problem", "Pheromone trail", "Scheduling"]
    assert b.keywords == ["ACO", "Customer order scheduling", "Genetic algorithms", "Meta-heuristics",
                          "Simulated annealing", "Tabu search"]  # fmt: skip
    assert c.keywords == ["Optimization, convex", "Graphs; trees", "Learning"]


def test_a_keywords_text_of_several_lines_is_a_keyword_a_line_unless_it_is_a_list_wrapped():
    from readinglist.importers.base import split_tags

    assert split_tags("Optimization, convex\n") == ["Optimization, convex"]  # one line a line break ends
    assert split_tags("Optimization, convex\nGraphs; trees\n") == ["Optimization, convex", "Graphs; trees"]
    assert split_tags("a, b,\n") == ["a", "b"] and split_tags("  \n") == []

    assert split_tags("Optimization, convex\nGraphs; trees") == ["Optimization, convex", "Graphs; trees"]
    assert split_tags("vision, residual networks") == ["vision", "residual networks"]  # one line: as before
    assert split_tags("a, b,\nc, d") == ["a", "b", "c", "d"]  # a list wrapped at its separator
    assert split_tags("a; b;\nc, d") == ["a", "b", "c, d"]  # … at its semicolons: they part it, not its comma


SEMICOLONS = "graph neural networks; robustness, certified"


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("p.tsv", f"title\tabstract\tkeywords\nA paper\tWords.\t{SEMICOLONS}\nB paper\tMore.\tlasso, sparsity\n"),
        ("p.csv", f'title,abstract,keywords\nA paper,Words.,"{SEMICOLONS}"\nB paper,More.,"lasso, sparsity"\n'),
        (
            "p.json",
            json.dumps(
                [
                    {"type": "paper-conference", "title": "A paper", "keyword": SEMICOLONS},
                    {"type": "paper-conference", "title": "B paper", "keyword": "lasso, sparsity"},
                ]
            ),
        ),
    ],
    ids=["tsv", "csv", "csl-json"],
)
def test_a_keywords_text_parted_by_semicolons_keeps_its_commas(empty_lib, tmp_path, name, text):
    """A TSV's "graph neural networks; robustness, certified" gave three keywords, "robustness" and "certified"
    apart: semicolons part a text that has them, commas one that has none."""
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    empty_lib.import_files([f])
    papers = {p.title: p for p in empty_lib.papers(empty_lib.search("").ids)}
    assert papers["A paper"].keywords == ["graph neural networks", "robustness, certified"]
    assert papers["B paper"].keywords == ["lasso", "sparsity"]


def test_bibtex_keywords_are_keywords_but_a_readers_mendeley_tags_are_tags(empty_lib, tmp_path):
    _import(
        empty_lib,
        tmp_path,
        "@article{m, title = {Mendeley paper}, keywords = {Internet, to read, eWOM}, mendeley-tags = {to read}}\n"
        "@article{r, title = {Only mine}, keywords = {mine}, readinglist-tags = {mine}}\n",
    )
    papers = {p.title: p for p in empty_lib.papers(empty_lib.search("").ids)}
    assert papers["Mendeley paper"].own_tags == ["to read"] and papers["Mendeley paper"].keywords == [
        "eWOM",
        "Internet",
    ]
    assert papers["Only mine"].own_tags == ["mine"] and papers["Only mine"].keywords == []


def test_a_keyword_spelt_several_ways_in_a_file_takes_its_commonest_spelling(empty_lib, tmp_path):
    # an ICLR file: "Graph Neural Networks" 33 times, "graph neural networks" 31, "Graph Neural networks" once,
    # first: the tag took that one
    entries = [("Graph Neural networks", 1), ("graph neural networks", 2), ("Graph Neural Networks", 3)]
    n = 0
    text = ""
    for spelling, times in entries:
        for _ in range(times):
            n += 1
            text += f"@article{{p{n}, title = {{Paper {n}}}, keywords = {{{spelling}}}}}\n"
    _import(empty_lib, tmp_path, text)
    assert empty_lib.keyword_tags() == {"Graph Neural Networks"}
    assert dict(empty_lib.tag_counts()) == {"Graph Neural Networks": 6}


def test_csl_json_keyword_is_read_as_keywords(empty_lib, tmp_path):
    f = tmp_path / "csl.json"
    f.write_text(json.dumps([{"type": "paper-conference", "title": "A paper", "keyword": "Deep Learning, GNN"}]))
    empty_lib.import_files([f])
    (p,) = empty_lib.papers(empty_lib.search("").ids)
    assert p.keywords == ["Deep Learning", "GNN"] and p.own_tags == []


LATEX_KEYWORDS = ["$\\ell_1$ norm", "$Q$-Learning", "{001}"]
READ_KEYWORDS = ["ℓ₁ norm", "Q-Learning", "{001}"]  # as a title from these formats reads: braces are characters


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("p.tsv", "title\tabstract\tkeywords\nA paper\tWords.\t" + ", ".join(LATEX_KEYWORDS) + "\n"),
        ("p.csv", 'title,abstract,keywords\nA paper,Words.,"' + "; ".join(LATEX_KEYWORDS) + '"\n'),
        ("p.jsonl", json.dumps({"title": "A paper", "abstract": "Words.", "keywords": LATEX_KEYWORDS}) + "\n"),
        (
            "p.json",
            json.dumps([{"type": "paper-conference", "title": "A paper", "keyword": ", ".join(LATEX_KEYWORDS)}]),
        ),
        ("p.ris", "TY  - CONF\nTI  - A paper\n" + "".join(f"KW  - {k}\n" for k in LATEX_KEYWORDS) + "ER  - \n"),
    ],
    ids=["tsv", "csv", "jsonl", "csl-json", "ris"],
)
def test_keywords_read_as_titles_do_in_every_format(empty_lib, tmp_path, name, text):
    """An ICLR TSV's keywords showed as "$\\ell_1$ norm" and "$Q$-Learning" (a trial), where a BibTeX file's
    read as its titles do: every format's do now, so tag: finds them as shown."""
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    empty_lib.import_files([f])
    (p,) = empty_lib.papers(empty_lib.search("").ids)
    assert p.keywords == sorted(READ_KEYWORDS, key=name_key) and p.own_tags == []  # in the sidebar's order
    assert empty_lib.search('tag:"ℓ₁ norm"').ids == [p.id]


def test_keywords_sort_by_the_name_shown(qtbot, window, tmp_path):
    """ "$\\ell_1$ norm" and "$Q$-Learning" came first in the sidebar for their "$": a keyword sorts by what it
    shows, ℓ among the l's, as titles sort; a tag the user began with "_" to keep it on top stays there."""
    lib = window.library
    rows = [
        "title\tabstract\tkeywords",
        "A\tWords.\t$\\ell_1$ norm, $Q$-Learning, lasso",
        "B\tMore.\tattention, Markov",
    ]
    (tmp_path / "p.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    lib.import_files([tmp_path / "p.tsv"])
    lib.add_tags(lib.search("").ids[:1], ["_inbox", "zeta"])
    window.update_counts()
    assert _keyword_labels(window) == ["attention  (1)", "ℓ₁ norm  (1)", "lasso  (1)", "Markov  (1)", "Q-Learning  (1)"]
    from test_ui import tag_labels

    own = [label for label in tag_labels(window) if label.startswith(("_inbox", "zeta"))]
    assert own == ["_inbox  (1)", "zeta  (1)"]


def test_keywords_stored_raw_before_are_read_by_migration_0032(tmp_path):
    """A library an earlier version made holds a TSV's keywords raw: migration 0032 names them as they read, a
    keyword meeting a tag of its name is merged into it, and the lists on one and a removed paper's follow."""
    data = tmp_path / "data"
    rows = ["title\tabstract\tkeywords", "A\tWords about norms.\tl1 placeholder, Q placeholder",
            "B\tMore words.\tQ-learning", "C\tOther words.\tl1 placeholder"]  # fmt: skip
    (tmp_path / "p.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    lib = Library.open(data, seed=False)
    lib.import_files([tmp_path / "p.tsv"])
    ids = {p.title: p.id for p in lib.papers(lib.search("").ids)}
    lib.add_tags([ids["B"]], ["Q-learning"])  # the user's tag now, on every paper that has it
    lib.add_smart_list("Sparse", tag="l1 placeholder")
    removed = lib.remove([ids["C"]])
    lib.close()
    db = sqlite3.connect(data / "library.db")  # as the version before stored the file's keywords
    db.execute("UPDATE tags SET name = '$\\ell_1$ norm' WHERE name = 'l1 placeholder'")
    db.execute("UPDATE tags SET name = '$Q$-Learning' WHERE name = 'Q placeholder'")
    db.execute("UPDATE smart_lists SET tag = '$\\ell_1$ norm'")
    db.execute("UPDATE removed_papers SET tags = replace(tags, 'l1 placeholder', '$\\\\ell_1$ norm'),"
               " paper = replace(paper, 'l1 placeholder', '$\\\\ell_1$ norm')")  # fmt: skip
    db.execute("DELETE FROM schema_migrations WHERE name = '0032_keywords_with_latex'")
    db.commit()
    db.close()
    lib = Library.open(data, seed=False)
    try:
        assert "0032_keywords_with_latex" in lib.store.applied_migrations()
        a = lib.paper(ids["A"])
        assert a.keywords == ["ℓ₁ norm"] and a.own_tags == ["Q-learning"]  # merged into the user's tag
        assert lib.keyword_tags() == {"ℓ₁ norm"} and lib.search('tag:"ℓ₁ norm"').ids == [ids["A"]]
        assert set(lib.search('tag:"Q-learning"').ids) == {ids["A"], ids["B"]}
        assert [sl.tag for sl in lib.smart_lists()] == ["ℓ₁ norm"]
        back = lib.paper(lib.restore_removed(removed)[ids["C"]])
        assert back.keywords == ["ℓ₁ norm"] and len(lib.search_list(lib.smart_list("Sparse")).ids) == 2
    finally:
        lib.close()


def test_a_csv_export_from_before_the_keywords_column_is_still_the_apps_own(empty_lib, tmp_path):
    from readinglist.papers import OWN_CSV_HEADERS

    f = tmp_path / "old.csv"
    old = ",".join(OWN_CSV_HEADERS[1])  # nor before the citation key's column
    f.write_text(old + "\r\nx1,A paper,,V,2020,read,,mine,,,,An abstract.\r\n", encoding="utf-8")
    empty_lib.import_files([f])
    (p,) = empty_lib.papers(empty_lib.search("").ids)
    assert p.own_tags == ["mine"] and p.state == "read"


def test_a_library_from_before_keeps_its_tags_as_the_users(tmp_path):
    path = tmp_path / "l.db"
    s = Store(path)
    s.close()
    old = sqlite3.connect(path)
    old.execute("ALTER TABLE tags DROP COLUMN imported")
    old.execute("DELETE FROM schema_migrations WHERE name = '0024_keyword_tags'")
    old.commit()
    old.close()
    ro = Store(path, read_only=True)  # another window has it: no migration, and no keywords to show
    assert ro.keyword_tags() == set() and ro.imported_links() == []
    ro.close()
    s = Store(path)
    assert "imported" in {r[1] for r in s.db.execute("PRAGMA table_info(tags)")}
    s.close()


def test_a_backup_restores_keywords_as_keywords_and_a_restore_changes_nothing_twice(empty_lib, tmp_path):
    ids = _import(empty_lib, tmp_path)
    a = ids["Deep Residual Learning"]
    empty_lib.add_tags([a], ["mine"])
    file = tmp_path / "b.json.gz"
    empty_lib.backup(file)
    fresh = Library.open(tmp_path / "fresh", seed=False)
    try:
        fresh.restore(file)
        (p,) = fresh.papers(fresh.search("Residual").ids)
        assert p.own_tags == ["mine"] and p.keywords == ["residual networks", "vision"]
        again = fresh.restore(file)
        assert (again.changed, again.conflicts) == (0, [])
    finally:
        fresh.close()
    # a keyword made the user's tag, backed up, comes back theirs into a library that has it as a keyword
    empty_lib.make_keywords_tags([(a, "vision")])
    empty_lib.backup(file)
    other = Library.open(tmp_path / "other", seed=False)
    try:
        _import(other, tmp_path)
        other.restore(file)
        assert "vision" not in other.keyword_tags()
    finally:
        other.close()


def test_the_command_line_shows_keywords_apart(capsys, tmp_path):
    from readinglist.cli import main

    dd = str(tmp_path / "cli-data")
    f = tmp_path / "k.bib"
    f.write_text(BIB, encoding="utf-8")
    assert main(["--data-dir", dd, "import", str(f)]) == 0
    capsys.readouterr()
    assert main(["--data-dir", dd, "search", "Residual", "--json"]) == 0
    (hit,) = json.loads(capsys.readouterr().out)
    assert hit["tags"] == [] and hit["keywords"] == ["residual networks", "vision"]
    assert main(["--data-dir", dd, "tag", hit["id"], "mine"]) == 0
    capsys.readouterr()
    assert main(["--data-dir", dd, "show", hit["id"]]) == 0
    out = capsys.readouterr().out
    assert "tags: mine" in out and "keywords: residual networks, vision" in out


ORDERED = ["alpha", "Éducation", "ℓ₁ norm", "lasso", "θ-method", "Zeta"]  # as the sidebar lists them


def test_a_papers_keywords_and_tags_are_listed_in_the_sidebars_order_wherever_it_is_shown(qapp, capsys, tmp_path):
    """`show`, the CSV and JSON exports and the detail pane listed a paper's keywords as SQLite's NOCASE orders
    them ("Éducation", "θ-method" and "ℓ₁ norm" after "Zeta"), the sidebar as titles sort: one order now."""
    import csv

    from PySide6.QtGui import QPalette

    from readinglist.cli import main
    from readinglist.ui.detail import paper_html

    dd = tmp_path / "cli-data"
    f = tmp_path / "p.tsv"
    given = "$\\ell_1$ norm, Éducation, lasso, Zeta, θ-method, alpha"
    f.write_text(f"title\tabstract\tkeywords\nA paper\tWords.\t{given}\n", encoding="utf-8")
    assert main(["--data-dir", str(dd), "import", str(f)]) == 0
    lib = Library.open(dd, seed=False)
    try:
        [pid] = lib.search("").ids
        tags, keywords = lib.tag_summary()
        assert [name for name, _ in tags if name in keywords] == ORDERED  # the sidebar's Keywords
        lib.add_tags([pid], ["Über", "zeta-mine", "alpha-mine"])
        p = lib.paper(pid)
        assert p.keywords == ORDERED and p.own_tags == ["alpha-mine", "Über", "zeta-mine"]
        assert "Keywords: " + " · ".join(ORDERED) in paper_html(p, QPalette())
        assert lib.rows([pid])[pid].tags == "alpha-mine, Über, zeta-mine"  # the table's Tags column
        uid = p.uid
    finally:
        lib.close()
    capsys.readouterr()
    assert main(["--data-dir", str(dd), "show", uid]) == 0
    assert "keywords: " + ", ".join(ORDERED) in capsys.readouterr().out
    assert main(["--data-dir", str(dd), "show", uid, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["keywords"] == ORDERED
    out = tmp_path / "out.csv"
    assert main(["--data-dir", str(dd), "export", "--format", "csv", "-o", str(out)]) == 0
    [row] = csv.DictReader(out.open(encoding="utf-8"))
    assert row["keywords"] == ", ".join(ORDERED) and row["tags"] == "alpha-mine, Über, zeta-mine"
    md = tmp_path / "out.md"
    assert main(["--data-dir", str(dd), "export", "--format", "markdown", "--group", "tag", "-o", str(md)]) == 0
    text = md.read_text(encoding="utf-8")
    assert text.index("## `alpha-mine`") < text.index("## `Über`") < text.index("## `zeta-mine`")  # its groups


# ---- the window ----


def test_the_table_and_a_reading_list_show_the_users_tags_not_a_files_keywords(empty_lib, tmp_path):
    from readinglist import export
    from readinglist.papers import ExportOptions

    ids = _import(empty_lib, tmp_path)
    a = ids["Deep Residual Learning"]
    empty_lib.add_tags([a], ["mine"])
    assert empty_lib.rows([a])[a].tags == "mine"
    text = export.render(empty_lib.papers(list(ids.values())), ExportOptions(format="markdown", group="tag"))
    assert "`mine`" in text and "vision" not in text


def _keyword_labels(w) -> list[str]:
    root = w.sidebar.entries.keywords_root
    return [root.child(r).text() for r in range(root.rowCount())]


def test_the_sidebar_lists_keywords_apart_and_makes_them_tags_or_removes_them_with_undo(qtbot, window, tmp_path):
    from test_ui import tag_labels

    lib = window.library
    _import(lib, tmp_path)
    window.update_counts()
    assert _keyword_labels(window) == ["attention  (1)", "residual networks  (1)", "vision  (2)"]
    assert window.sidebar.entries.keywords_root.text() == "Keywords (3) ▾"  # few: open
    assert "vision  (2)" not in tag_labels(window)
    window.sidebar.set_filter(replace(window.sidebar.filter, tag="vision"))
    qtbot.waitUntil(lambda: window.view_summary.caption.text() == "All · keyword vision")  # the words say so
    window.sidebar.set_filter(replace(window.sidebar.filter, tag=None))
    window.sidebar.make_keywords_tags("vision")
    assert window.notice.text() == "Made keyword “vision” a tag (2 papers)."
    assert "vision  (2)" in tag_labels(window) and _keyword_labels(window) == [
        "attention  (1)",
        "residual networks  (1)",
    ]
    window.actionUndo.trigger()
    assert "vision  (2)" in _keyword_labels(window)
    window.sidebar.remove_keywords()
    assert _keyword_labels(window) == [] and lib.keyword_tags() == set()
    assert window.sidebar.isRowHidden(window.sidebar.entries.keywords_root.row(), QModelIndex())  # none: no heading
    window.actionUndo.trigger()  # back, and still keywords
    assert lib.keyword_tags() == {"attention", "residual networks", "vision"}
    assert _keyword_labels(window) == ["attention  (1)", "residual networks  (1)", "vision  (2)"]
    window.sidebar.delete_tag("vision")  # the menu's Delete Keyword: the notice calls it one too (a helper)
    assert window.notice.text() == "Deleted keyword “vision” (2 papers)."
    window.actionUndo.trigger()
    assert window.notice.text() == "Undone: Deleted keyword “vision” (2 papers)."


def test_the_caption_says_tag_once_a_keyword_chosen_is_made_the_users_tag(qtbot, window, tmp_path):
    """Make It My Tag on the keyword the view is filtered by left the caption saying "keyword vision" (a user
    trial): it says what the view is now, after the undo and the redo too, and after the tag editor makes it
    theirs; so does an empty table's message."""
    from PySide6.QtWidgets import QLabel
    from test_ui import select_paper

    _import(window.library, tmp_path)
    window.update_counts()
    caption, empty = window.view_summary.caption, window.findChild(QLabel, "emptyLabel")
    with qtbot.waitSignal(window.searchFinished):
        window.sidebar.set_filter(replace(window.sidebar.filter, tag="vision"))
    assert caption.text() == "All · keyword vision" and "with the keyword “vision”" in caption.toolTip()
    window.sidebar.make_keywords_tags("vision")
    assert caption.text() == "All · tag vision" and "tagged “vision”" in caption.toolTip()
    window.actionUndo.trigger()
    assert caption.text() == "All · keyword vision"
    with qtbot.waitSignal(window.searchFinished):
        window.sidebar.set_filter(replace(window.sidebar.filter, state="read"))  # none read: the table is empty
    assert "with the keyword “vision”" in empty.text()
    window.actionRedo.trigger()
    assert caption.text() == "Read · tag vision" and "tagged “vision”" in empty.text()
    window.actionUndo.trigger()
    assert caption.text() == "Read · keyword vision" and "with the keyword “vision”" in empty.text()
    with qtbot.waitSignal(window.searchFinished):
        window.sidebar.set_filter(replace(window.sidebar.filter, state=None))
    pid = select_paper(qtbot, window, "Deep Residual Learning")
    window.editors.tagEditor.setFocus()
    qtbot.keyClicks(window.editors.tagEditor, "vision")  # typed as a tag: the user's on every paper
    qtbot.keyClick(window.editors.tagEditor, Qt.Key.Key_Return)
    assert "vision" in window.library.paper(pid).own_tags and caption.text() == "All · tag vision"


def test_a_keyword_renamed_in_the_sidebar_stays_a_keyword_and_undo_puts_it_back(qtbot, window, tmp_path):
    lib = window.library
    _import(lib, tmp_path)
    window.update_counts()
    window.sidebar.rename_tag("residual networks", "ResNets")
    assert "ResNets  (1)" in _keyword_labels(window) and lib.keyword_tags() == {"attention", "ResNets", "vision"}
    window.actionUndo.trigger()
    assert lib.keyword_tags() == {"attention", "residual networks", "vision"}


def test_the_tag_editor_shows_the_users_tags_and_a_keyword_typed_there_becomes_theirs(qtbot, window, tmp_path):
    from test_ui import select_paper

    lib = window.library
    _import(lib, tmp_path)
    window.update_counts()
    pid = select_paper(qtbot, window, "Deep Residual Learning")
    assert window.editors.tagEditor.text() == ""  # the paper's keywords are not in the field
    window.editors.tagEditor.setFocus()
    qtbot.keyClicks(window.editors.tagEditor, "vision, mine")
    qtbot.keyClick(window.editors.tagEditor, Qt.Key.Key_Return)
    p = lib.paper(pid)
    assert p.own_tags == ["mine", "vision"] and p.keywords == ["residual networks"]
    window.actionUndo.trigger()
    p = lib.paper(pid)
    assert p.own_tags == [] and p.keywords == ["residual networks", "vision"]


def test_many_keywords_start_closed_and_the_heading_opens_them(qtbot, window, tmp_path):
    from readinglist.ui.sidebar import KEYWORDS_OPEN

    words = ", ".join(f"kw{i:02d}" for i in range(KEYWORDS_OPEN + 1))
    _import(window.library, tmp_path, f"@article{{z, title = {{Many}}, keywords = {{{words}}}}}\n")
    window.update_counts()
    root = window.sidebar.entries.keywords_root.index()
    assert window.sidebar.entries.keywords_root.rowCount() == KEYWORDS_OPEN + 1
    assert not window.sidebar.isExpanded(root)
    assert window.sidebar.entries.keywords_root.text() == f"Keywords ({KEYWORDS_OPEN + 1}) ▸"
    window.sidebar.clicked.emit(root)
    assert window.sidebar.isExpanded(root) and window.sidebar.entries.keywords_root.text().endswith("▾")
    window.sidebar.setFocus()
    window.sidebar.setCurrentIndex(root)
    qtbot.keyClick(window.sidebar, Qt.Key.Key_Return)  # the keyboard opens and closes it too
    assert not window.sidebar.isExpanded(root)
    qtbot.keyClick(window.sidebar, Qt.Key.Key_Space)
    assert window.sidebar.isExpanded(root)
    assert not window.sidebar.expandsOnDoubleClick()  # a double click is two clicks: open, then closed
    window.sidebar.clicked.emit(root)
    assert not window.sidebar.isExpanded(root)
    window.sidebar.set_filter(replace(window.sidebar.filter, tag="kw05"))  # a keyword chosen: shown
    assert window.sidebar.isExpanded(root)


def test_the_paper_shows_its_keywords_apart_from_its_tags(qapp, empty_lib, tmp_path):
    from PySide6.QtGui import QPalette

    from readinglist.ui.detail import paper_html

    ids = _import(empty_lib, tmp_path)
    pid = ids["Deep Residual Learning"]
    empty_lib.add_tags([pid], ["mine"])
    shown = paper_html(empty_lib.paper(pid), QPalette())
    assert "Keywords: residual networks · vision" in shown
    assert "&nbsp;mine&nbsp;" in shown and "&nbsp;vision&nbsp;" not in shown  # a chip for the user's tag only


COMMA_BIB = """@article{a, title = {Convex Things}, year = {2020}, keywords = {{Optimization, convex}, other}}
"""


def test_an_edit_of_other_tags_keeps_a_keyword_with_a_comma_whole_and_a_keyword(empty_lib, tmp_path):
    """Deleting or renaming another tag, or adding one, gave each paper its tags through the typed-text
    cleaning, which parts at commas: "Optimization, convex" became the user's "Optimization" and "convex"."""
    pid = _import(empty_lib, tmp_path, COMMA_BIB)["Convex Things"]
    empty_lib.add_tags([pid], ["mine"])
    empty_lib.rename_tag("mine", "ours")
    empty_lib.delete_tag("other")
    p = empty_lib.paper(pid)
    assert p.keywords == ["Optimization, convex"] and p.own_tags == ["ours"]
    assert empty_lib.search('tag:"Optimization, convex"').ids == [pid]


def test_typed_tags_part_at_commas_but_keep_a_known_tag_that_holds_one(empty_lib, tmp_path):
    from readinglist.papers import normalise_tags

    assert normalise_tags(["a, b,, c "]) == ["a", "b", "c"]
    assert normalise_tags(["optimization,  convex, mine"], ["Optimization, convex"]) == ["Optimization, convex", "mine"]
    # a tag holding a comma without the space (BibTeX's {Optimization,convex}) is found however it is typed
    assert normalise_tags(["Optimization, convex2,mine"], ["Optimization,convex2"]) == ["Optimization,convex2", "mine"]
    # a tag spelt as typed is taken before one whose comma is spaced otherwise (a review: "A, B" was "A,B")
    assert normalise_tags(["A, B"], ["A, B", "A,B"]) == ["A, B"] and normalise_tags(["a,b"], ["A, B", "A,B"]) == ["A,B"]
    assert normalise_tags(["x, y, z, w"], ["x, y", "x, y, z"]) == ["x, y, z", "w"]  # the longest
    assert normalise_tags([",", " , ,"]) == []
    pid = _import(empty_lib, tmp_path, COMMA_BIB)["Convex Things"]
    assert empty_lib.spelt_tags(["optimization, convex, mine"]) == ["Optimization, convex", "mine"]
    empty_lib.remove_tags([pid], ["Optimization, convex"])
    assert empty_lib.paper(pid).tags == ["other"]


def test_a_backup_and_the_notes_folder_keep_a_tag_with_a_comma_whole(empty_lib, tmp_path):
    from readinglist import export
    from readinglist.export import ExportOptions

    pid = _import(empty_lib, tmp_path, COMMA_BIB)["Convex Things"]
    empty_lib.make_keywords_tags([(pid, "Optimization, convex")])
    file = tmp_path / "b.json.gz"
    empty_lib.backup(file)
    fresh = Library.open(tmp_path / "fresh", seed=False)
    try:
        _import(fresh, tmp_path, COMMA_BIB)
        fresh.restore(file)
        (p,) = fresh.papers(fresh.search("Convex").ids)
        assert p.own_tags == ["Optimization, convex"] and p.keywords == ["other"]
    finally:
        fresh.close()
    # the notes folder's front matter lists it as one item; an edit there merges back whole
    folder = tmp_path / "notes"
    export.export(empty_lib.papers([pid]), ExportOptions(format="obsidian"), folder)
    (note,) = folder.glob("*.md")
    note.write_text(note.read_text(encoding="utf-8").replace("---\n\n", "---\n\nRead it.\n", 1), encoding="utf-8")
    assert empty_lib.merge_notes([folder]).changed == 1
    p = empty_lib.paper(pid)
    assert p.own_tags == ["Optimization, convex"] and p.note.startswith("Read it.")


def test_a_rename_names_one_tag_a_comma_in_it_kept(empty_lib, tmp_path):
    """A review: the Rename dialog, opened on "Optimization, convex" and confirmed, cut it to "Optimization";
    "Reading group, 2024" became "Reading group", merged into another tag (a trial)."""
    pid = _import(empty_lib, tmp_path, COMMA_BIB)["Convex Things"]
    empty_lib.rename_tag("Optimization, convex", "Optimization, convex")
    assert empty_lib.paper(pid).keywords == ["Optimization, convex", "other"]
    empty_lib.add_tags([pid], ["mine"])
    empty_lib.rename_tag("mine", "Reading group, 2024")
    assert empty_lib.paper(pid).own_tags == ["Reading group, 2024"]
    empty_lib.remove_tags([pid], ["reading group,2024"])
    assert empty_lib.paper(pid).own_tags == []
    with pytest.raises(StoreError):  # a name of commas alone names no tag
        empty_lib.rename_tag("other", " , ")


def test_an_imports_summary_says_the_users_tags_and_the_states_the_file_gave(empty_lib, tmp_path, capsys):
    """Both follow documented rules, but the summary mentioned neither: a file's keyword "RL" where the user has
    a tag RL gave papers the user's tag, and a Papers3 BibTeX's `read = {Yes}` marked 2,292 papers read. The
    summary (the command line's line, and the window's: ImportSummary.line) says both, and a keyword that is no
    tag of the user's, or a state the file leaves unread, is not said."""
    from readinglist.cli import main

    ids = _import(empty_lib, tmp_path)
    empty_lib.add_tags([ids["Deep Residual Learning"]], ["RL"])
    papers3 = (
        "@article{c, title = {Deep RL for quokkas}, author = {A, B}, year = 2020, read = {Yes},"
        " keywords = {RL, quokka}}\n"
        "@article{d, title = {Shallow RL for wombats}, author = {C, D}, year = 2021, read = {No}, keywords = {rl}}\n"
        "@article{e, title = {Planning for numbats}, author = {E, F}, year = 2022, read = {Yes}}\n"
        "@article{f, title = {Acting for bilbies}, author = {G, H}, year = 2022, readstatus = {skimmed},"
        " priority = {prio1}, keywords = {vision}}\n"
    )
    (tmp_path / "papers3.bib").write_text(papers3)
    [summary] = empty_lib.import_files([tmp_path / "papers3.bib"])
    assert summary.your_tags == {"RL": 2}  # (its spelling "rl" is the user's tag RL; "vision" is a keyword)
    assert dict(summary.states) == {("read", "read field"): 2, ("skimmed", "readstatus field"): 1}
    assert summary.priorities == 1
    assert summary.line() == (
        "papers3.bib: 4 added, 0 updated, 0 unchanged, 0 skipped; 2 marked read from the file's read field; "
        "1 marked skimmed from the file's readstatus field; 1 given a priority by the file; tagged 2 papers RL "
        "(your tag, which the file has as a keyword)"
    )
    assert summary.line(compact=True).endswith("; tagged 2 papers RL (your tag, which the file has as a keyword)")
    # a record merged into a paper here (another file of it) says the user's tags its keywords gave it too
    (tmp_path / "again.bib").write_text(
        "@article{g, title = {Deep Residual Learning}, author = {He, Kaiming}, year = {2016}, keywords = {RL}}\n"
        "@article{h, title = {Attention Is All You Need}, author = {Vaswani, Ashish}, year = {2017}, keywords = {RL}}\n"
    )
    [again] = empty_lib.import_files([tmp_path / "again.bib"])
    assert again.merged == 2 and again.your_tags == {"RL": 1}  # (the other had it already)
    assert not again.states and again.line().endswith("; tagged 1 paper RL (your tag, which the file has as a keyword)")
    data = str(empty_lib.data_dir)
    empty_lib.close()
    (tmp_path / "csv.csv").write_text("title,readstatus\nA csv paper,read\nAnother,\n")
    capsys.readouterr()
    assert main(["--data-dir", data, "import", str(tmp_path / "csv.csv")]) == 0
    assert capsys.readouterr().out == (
        "csv.csv: 2 added, 0 updated, 0 unchanged, 0 skipped; 1 marked read from the file's readstatus column\n"
    )


def test_an_imports_summary_says_the_tags_the_file_gave_as_tags(empty_lib, tmp_path, capsys):
    """A .bib's `mendeley-tags = {theory-rl}` tagged a paper, and the app's own exports read back gave papers
    the user's tags RL and Theory-RL, unsaid (a trial): the summary says the tags a file added to papers, new
    or merged into papers here — not one a paper had."""
    from readinglist.cli import main

    (tmp_path / "m.bib").write_text(
        "@article{a, title = {Regret bounds for tabular RL}, author = {Smith, Ann}, year = 2020,"
        " mendeley-tags = {theory-rl}}\n"
        "@article{b, title = {Planning for numbats}, author = {E, F}, year = 2022, mendeley-tags = {theory-rl, Plan}}\n"
    )
    [summary] = empty_lib.import_files([tmp_path / "m.bib"])
    assert summary.file_tags == {"theory-rl": 2, "Plan": 1}
    assert summary.line() == (
        "m.bib: 2 added, 0 updated, 0 unchanged, 0 skipped; tagged 2 papers theory-rl, 1 paper Plan (from the "
        "file's tags)"
    )
    # another file of a paper here, merged into it: only the tag it added is said
    (tmp_path / "n.bib").write_text(
        "@article{c, title = {Regret bounds for tabular RL}, author = {Smith, Ann}, year = 2020,"
        " mendeley-tags = {Theory-RL, bounds}}\n"
    )
    [merged] = empty_lib.import_files([tmp_path / "n.bib"])
    assert merged.merged == 1 and merged.file_tags == {"bounds": 1}
    assert merged.line().endswith("; tagged 1 paper bounds (from the file's tags)")
    [again] = empty_lib.import_files([tmp_path / "m.bib"])  # nothing added: nothing said
    assert again.file_tags == {} and again.line() == "m.bib: 0 added, 0 updated, 2 unchanged, 0 skipped"
    data = str(empty_lib.data_dir)
    empty_lib.close()
    # the app's own export read into another library: its papers come with the user's tags, said
    for name in ("own.csv", "own.md"):
        assert main(["--data-dir", data, "export", "tag:theory-rl", "-o", str(tmp_path / name)]) == 0
        capsys.readouterr()
        assert main(["--data-dir", str(tmp_path / f"other-{name}"), "import", str(tmp_path / name)]) == 0
        assert capsys.readouterr().out == (
            f"{name}: 2 added, 0 updated, 0 unchanged, 0 skipped; tagged 2 papers theory-rl, 1 paper bounds, 1 paper"
            " Plan (from the file's tags)\n"
        )
