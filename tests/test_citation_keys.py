"""Citation keys (issue 17.1): Better BibTeX style, unique, stored once, never changed by an export or a
re-import, editable by the user through the library and the command line."""

from __future__ import annotations

import json
import sqlite3

import pytest

from readinglist import citekeys
from readinglist.cli import main
from readinglist.library import Library
from readinglist.papers import StoreError
from readinglist.store import MIGRATIONS, Store


def test_better_bibtex_style_keys():
    assert citekeys.base_key("Attention Is All You Need", ["Ashish Vaswani", "Noam Shazeer"], 2017) == (
        "vaswani2017attention"
    )
    assert citekeys.base_key("On the Origin of Species", ["Darwin, Charles"], 1859) == "darwin1859origin"
    assert citekeys.base_key("A Note", ["Łukasz Kaiser Jr."], None) == "kaisernote"
    assert citekeys.base_key("Über Ähnlichkeit", ["José Müller-Øst"], 2020) == "mullerost2020uber"
    assert citekeys.base_key("Deep Residual Learning", [], 2016) == "deep2016residual"
    assert [citekeys.suffixed("k", n) for n in (0, 1, 2, 26, 27)] == ["k", "ka", "kb", "kz", "kaa"]


def _write(tmp_path, records, name="papers.jsonl"):
    path = tmp_path / name
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path


RECORDS = [
    {"id": "1", "title": "Attention Is All You Need", "authors": ["Ashish Vaswani"], "year": 2017},
    {"id": "2", "title": "Attention is all you need, again", "authors": ["A. Vaswani"], "year": 2017},
    {"id": "3", "title": "The Attention Mechanism", "authors": ["Ann Vaswani"], "year": 2017},
]


def test_keys_are_unique_and_given_at_import(empty_lib, tmp_path):
    empty_lib.import_files([_write(tmp_path, RECORDS)])
    papers = empty_lib.papers(empty_lib.search("").ids)
    assert sorted(p.citation_key for p in papers) == [
        "vaswani2017attention",
        "vaswani2017attentiona",
        "vaswani2017attentionb",
    ]


def test_keys_survive_exports_reimports_and_revised_records(empty_lib, tmp_path):
    from readinglist.export import ExportOptions, render

    source = _write(tmp_path, RECORDS)
    empty_lib.import_files([source])
    ids = empty_lib.search("").ids
    before = empty_lib.citation_keys(ids)
    render(empty_lib.papers(ids), ExportOptions(format="bibtex"))
    revised = [dict(r, abstract="A revised abstract.") for r in RECORDS]
    source.write_text("\n".join(json.dumps(r) for r in revised) + "\n", encoding="utf-8")
    empty_lib.import_files([source])
    assert empty_lib.citation_keys(ids) == before
    # a new paper whose key would be a taken one gets the next free suffix, the old ones keep theirs
    empty_lib.import_files([_write(tmp_path, [dict(RECORDS[0], id="4", title="Attention again")], "more.jsonl")])
    keys = empty_lib.citation_keys(empty_lib.search("").ids)
    assert len(set(keys.values())) == 4 and "vaswani2017attentionc" in keys.values()


def test_the_user_edits_a_key_uniquely(empty_lib, tmp_path):
    empty_lib.import_files([_write(tmp_path, RECORDS)])
    a, b, _ = empty_lib.search("").ids
    old = empty_lib.citation_keys([a])[a]
    assert empty_lib.set_citation_key(a, " transformer2017 ") == old
    assert empty_lib.paper(a).citation_key == "transformer2017"
    with pytest.raises(StoreError, match="taken by paper"):
        empty_lib.set_citation_key(b, "Transformer2017")  # unique whatever the case (bibtex compares so)
    with pytest.raises(StoreError, match="cannot be a citation key"):
        empty_lib.set_citation_key(b, "has space")
    with pytest.raises(StoreError, match="cannot be a citation key"):
        empty_lib.set_citation_key(b, "brace{")
    assert empty_lib.set_citation_key(a, old) == "transformer2017"  # undo


def test_cli_key_prints_and_sets(tmp_path, capsys):
    data = str(tmp_path / "data")
    assert main(["--data-dir", data, "import", str(_write(tmp_path, RECORDS[:1]))]) == 0
    lib = Library.open(tmp_path / "data", seed=False)
    try:
        uid = next(p.uid for p in lib.papers(lib.search("").ids) if p.citation_key == "vaswani2017attention")
    finally:
        lib.close()
    capsys.readouterr()
    assert main(["--data-dir", data, "key", uid]) == 0
    assert capsys.readouterr().out.strip() == "vaswani2017attention"
    assert main(["--data-dir", data, "key", uid, "mine2017"]) == 0
    assert "vaswani2017attention → mine2017" in capsys.readouterr().out
    assert main(["--data-dir", data, "key", uid, "bad key"]) == 1
    assert "cannot be a citation key" in capsys.readouterr().err
    assert main(["--data-dir", data, "show", uid]) == 0
    assert "key mine2017" in capsys.readouterr().out


def test_migration_gives_existing_papers_keys_once_and_is_idempotent(tmp_path):
    path = tmp_path / "library.db"
    store = Store(path)
    store.close()
    db = sqlite3.connect(path)
    db.execute("DELETE FROM schema_migrations WHERE name = '0004_citation_keys'")
    db.execute("DROP INDEX papers_citation_key")
    db.execute("ALTER TABLE papers DROP COLUMN citation_key")
    for i, (title, author) in enumerate([("Deep Learning", "Yann LeCun"), ("Deep Learning", "Yann LeCun")]):
        db.execute(
            "INSERT INTO papers(uid, content_hash, title, auto_title, authors, year, added_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, 2015, 'now', 'now')",
            (f"u{i}", f"h{i}", title, title, json.dumps([author])),
        )
    db.commit()
    db.close()
    store = Store(path)
    keys = sorted(store.citation_keys([1, 2]).values())
    assert keys == ["lecun2015deep", "lecun2015deepa"]
    migrate = dict(MIGRATIONS)["0004_citation_keys"]
    with store.transaction() as tx:
        migrate(tx)  # again: nothing changes
    assert sorted(store.citation_keys([1, 2]).values()) == keys
    store.close()


def test_ascii_text_is_its_own_fold_without_decomposing_it(monkeypatch):
    """ASCII names and title words (most of an import's keys) skip the replacements and NFKD: every ASCII
    character folds to itself, and the fold of other text is the decomposition's as before."""
    import unicodedata

    every = "".join(map(chr, range(128)))
    assert unicodedata.normalize("NFKD", every).encode("ascii", "ignore").decode() == every

    def refused(form: str, text: str) -> str:
        raise AssertionError(f"decomposed ASCII text {text!r}")

    with monkeypatch.context() as m:
        m.setattr(citekeys.unicodedata, "normalize", refused)
        assert citekeys.ascii_fold(every) == every
        assert citekeys.base_key("Attention Is All You Need", ["Ashish Vaswani"], 2017) == "vaswani2017attention"
    assert citekeys.ascii_fold("Gödel–Straße Øre Łukasz") == "GodelStrasse Ore Lukasz"  # the dash dropped
    assert citekeys.ascii_fold("Þórðarson Ǿ ıi") == "Thordarson O ii"  # ð, þ, ı and a marked ø too


# keys as files have them (JabRef's Family_Year, colons, a slash, a plus, a hyphen first) and two a library
# gives: a key the file spells twice whatever the case, one that cannot be a key
KEYED_BIB = r"""
@article{Agekyan_1974, title = {The Fine Structure of Excitons}, author = {Agekyan, V. T.}, year = 1974,
  journal = {Physica Status Solidi (b)}, volume = {66}}
@inproceedings{Rich:83, title = {Default Reasoning}, author = {Rich, E.}, year = 1983, booktitle = {IJCAI}}
@book{rich:83, title = {Artificial Intelligence}, author = {Rich, E.}, year = 1983, publisher = {McGraw-Hill}}
@misc{doe+2020/a.b, title = {A Note}, author = {Doe, J.}, year = 2020}
@misc{-dash2021, title = {Formula-like}, author = {Dash, A.}, year = 2021}
@misc{doe 2020, title = {A Spaced Key}, author = {Doe, J.}, year = 2020}
"""


def _keys_by_title(lib: Library) -> dict[str, str]:
    return {p.title: p.citation_key for p in lib.papers(lib.search("").ids)}


def _through(tmp_path, source, fmt: str, suffix: str) -> tuple[dict[str, str], dict[str, str]]:
    """The keys a library gave the BibTeX file's papers, and those a fresh library importing its `fmt` export
    gave them."""
    from readinglist.export import ExportOptions, export

    lib = Library.open(tmp_path / "from-bib", seed=False)
    fresh = Library.open(tmp_path / f"from-{fmt}", seed=False)
    try:
        lib.import_files([source])
        out = tmp_path / f"out{suffix}"
        export(lib.papers(lib.search("").ids), ExportOptions(format=fmt), out)
        [summary] = fresh.import_files([out])
        assert summary.added == lib.store.count()
        return _keys_by_title(lib), _keys_by_title(fresh)
    finally:
        lib.close()
        fresh.close()


@pytest.mark.parametrize(("fmt", "suffix"), [("csv", ".csv"), ("markdown", ".md")])
def test_a_bibtex_files_keys_come_back_from_a_csv_or_markdown_export(tmp_path, fmt, suffix):
    """A BibTeX library exported to CSV or Markdown and imported into a fresh library came back with keys made
    anew (895 `Agekyan_1974` as `agekyan1974fine`: a trial): both carry the key, read back as a BibTeX
    entry's is (kept when valid and free)."""
    source = tmp_path / "keys.bib"
    source.write_text(KEYED_BIB, encoding="utf-8")
    before, after = _through(tmp_path, source, fmt, suffix)
    assert after == before
    assert before["The Fine Structure of Excitons"] == "Agekyan_1974" and before["Formula-like"] == "-dash2021"
    assert before["Default Reasoning"] == "Rich:83" and before["Artificial Intelligence"] != "rich:83"
    assert before["A Spaced Key"] == "doe2020spaced"


@pytest.mark.parametrize(("fmt", "suffix"), [("csv", ".csv"), ("markdown", ".md")])
def test_a_real_bibtex_files_keys_come_back_from_a_csv_or_markdown_export(tmp_path, fmt, suffix):
    """JabRef's 901 entries (the trial's keys) through each export into a fresh library: every key kept."""
    from tests.conftest import corpus

    before, after = _through(tmp_path, corpus("bib/zotero-bbt-fixtures/jabref210_groups_issue97.bib"), fmt, suffix)
    assert len(before) > 800 and after == before


def test_a_key_read_back_goes_the_way_a_bibtex_entrys_does(empty_lib, tmp_path):
    """A CSV's or a Markdown list's key is the file's word as a BibTeX entry's is: one another paper has, or
    that is no key, is given a new one and named in the import's messages; a foreign CSV without a key
    column imports as before (keys made from the paper)."""
    (tmp_path / "a.csv").write_text("title,authors,year,citation_key\nFirst,Ann Lee,2020,lee:20\n")
    (tmp_path / "b.csv").write_text("title,authors,year,citekey\nSecond,Ann Lee,2020,LEE:20\n")
    (tmp_path / "c.csv").write_text("title,authors,year,key\nThird,Ann Lee,2020,x7\n")
    summaries = [s for name in ("a.csv", "b.csv", "c.csv") for s in empty_lib.import_files([tmp_path / name])]
    assert _keys_by_title(empty_lib) == {"First": "lee:20", "Second": "lee2020second", "Third": "lee2020third"}
    assert "LEE:20 → lee2020second" in " ".join(summaries[1].warnings)
    md = tmp_path / "list.md"
    item = "- [ ] **Fourth** — Ann Lee · V 2020 · key `bad key`"
    md.write_text(f"# Reading list\n\n2026-01-01 · 1 paper · 0 read\n\n{item}\n")
    [summary] = empty_lib.import_files([md])
    assert summary.added == 1 and _keys_by_title(empty_lib)["Fourth"] == "lee2020fourth"
    assert "bad key → lee2020fourth" in " ".join(summary.warnings)
