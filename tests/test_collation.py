"""Titles and authors sort as a reader expects, by keys the store keeps in an index."""

from __future__ import annotations

import json
import sqlite3

from readinglist.collation import authors_key, authors_short, surname, title_key
from readinglist.papers import NewPaper
from readinglist.store import Store


def test_titles_sort_among_the_letters_whatever_they_start_with():
    titles = [
        "Zebra models",
        "“Why should I trust you?” Explaining predictions",
        "Σ-delta networks",
        "θ-divergences for inference",
        "ℓ1 regularization revisited",
        "α-Rank and beyond",
        "Éclair: accented first letters",
        "apple of discord",
        "Beta-VAE",
        "βeta sparsity",
        "10 things",
    ]
    ordered = sorted(titles, key=title_key)
    assert ordered == [
        "10 things",
        "α-Rank and beyond",
        "apple of discord",
        "Beta-VAE",
        "βeta sparsity",  # read "betaeta": after "beta vae", word by word
        "Éclair: accented first letters",
        "ℓ1 regularization revisited",
        "Σ-delta networks",
        "θ-divergences for inference",
        "“Why should I trust you?” Explaining predictions",
        "Zebra models",
    ]
    assert ordered[-1] == "Zebra models"  # nothing after Z


def test_case_accents_and_punctuation_do_not_order_words_do():
    assert title_key("resume") == title_key("Résumé") == title_key("RESUME!") < title_key("resumes")
    assert title_key("self-attention") == title_key("Self Attention") < title_key("selfish")  # word by word
    assert title_key("ﬁne-tuning") == title_key("fine tuning")


def test_author_names():
    assert surname("Laurens van der Maaten") == "van der Maaten"
    assert surname("Guy L. Steele Jr.") == "Steele"
    assert surname("Plato") == "Plato"
    names = ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit", "Llion Jones", "Aidan N. Gomez",
             "Łukasz Kaiser", "Illia Polosukhin"]  # fmt: skip
    assert authors_short(names) == "Vaswani, Shazeer, … (8)"
    assert authors_short(names[:2]) == "Vaswani, Shazeer" and authors_short([]) == ""
    assert sorted([["Yann LeCun"], ["Yoshua Bengio"], ["Geoffrey Hinton"]], key=authors_key) == [
        ["Yoshua Bengio"], ["Geoffrey Hinton"], ["Yann LeCun"]
    ]  # fmt: skip


def _paper(n: int, title: str, authors: list[str]) -> NewPaper:
    return NewPaper(f"seed{n:04d}abcdef", f"h{n}", f"k{n}", title, title, "a", "a", authors, "V", 2020, "", [], [])


def test_the_store_sorts_by_the_keys_through_their_index_and_follows_title_edits(tmp_path):
    s = Store(tmp_path / "l.db")
    src = s.source_id("x", "x", "jsonl")
    s.insert_papers(src, [_paper(1, "Zeta", ["B Z"]), _paper(2, "θ-VAE", ["A Y"]), _paper(3, "“Alpha”", ["C X"])], 1)
    assert s.ordered_ids("title") == [3, 2, 1]
    assert s.ordered_ids("title", descending=True) == [1, 2, 3]
    assert s.ordered_ids("authors") == [3, 2, 1]  # X, Y, Z
    seen: list[str] = []
    s.db.set_trace_callback(seen.append)
    s.ordered_ids("title")
    s.db.set_trace_callback(None)
    sql = next(q for q in seen if "ORDER BY" in q)
    plan = " ".join(str(r[3]) for r in s.db.execute(f"EXPLAIN QUERY PLAN {sql}"))
    assert "paper_columns_title" in plan and "TEMP B-TREE" not in plan  # read in order, not sorted
    s.set_user_title(1, "Aardvark")
    assert s.ordered_ids("title") == [1, 3, 2]
    assert s.rows([2])[2].authors == "Y" and s.rows([2])[2].added
    s.close()


def test_a_library_from_before_the_keys_gets_them(tmp_path):
    path = tmp_path / "l.db"
    s = Store(path)
    src = s.source_id("x", "x", "jsonl")
    s.insert_papers(src, [_paper(1, "Zeta", []), _paper(2, "“Beta”", [])], 1)
    s.close()
    old = sqlite3.connect(path)
    old.execute("DROP TABLE paper_columns")
    old.execute("DELETE FROM schema_migrations WHERE name = '0012_paper_columns'")
    old.commit()
    old.close()
    ro = Store(path, read_only=True)  # not migrated: SQLite's lower() order (“ after Z), rows without authors
    assert ro.ordered_ids("title") == [1, 2] and ro.rows([1])[1].authors == ""
    ro.close()
    s = Store(path)
    assert s.ordered_ids("title") == [2, 1] and s.db.execute("SELECT count(*) FROM paper_columns").fetchone() == (2,)
    s.close()


def test_papers_with_a_blank_column_sort_last_either_way(tmp_path):
    # a paper without authors (or venue, year, tags) listed first when sorting by them hid the ones with
    s = Store(tmp_path / "l.db")
    src = s.source_id("x", "x", "jsonl")
    s.insert_papers(src, [_paper(1, "One", []), _paper(2, "Two", ["A Young"]), _paper(3, "Three", ["B Xu"])], 1)
    s.db.execute("UPDATE papers SET venue = CASE id WHEN 1 THEN '' WHEN 2 THEN 'ICML' ELSE 'AAAI' END")
    s.db.execute("UPDATE papers SET year = CASE id WHEN 1 THEN NULL WHEN 2 THEN 2019 ELSE 2021 END")
    s.add_tags([3], ["zeta"])
    s.add_tags([2], ["alpha"])
    assert s.ordered_ids("authors") == [3, 2, 1] and s.ordered_ids("authors", descending=True) == [2, 3, 1]
    assert s.ordered_ids("venue") == [3, 2, 1] and s.ordered_ids("venue", descending=True) == [2, 3, 1]
    assert s.ordered_ids("year") == [2, 3, 1] and s.ordered_ids("year", descending=True) == [3, 2, 1]
    assert s.ordered_ids("tags") == [2, 3, 1] and s.ordered_ids("tags", descending=True) == [3, 2, 1]
    assert s.ordered_ids("authors", state="unread") == [3, 2, 1]  # with a filter too
    seen: list[str] = []
    s.db.set_trace_callback(seen.append)
    s.ordered_ids("authors")
    s.db.set_trace_callback(None)
    for sql in (q for q in seen if "ORDER BY" in q):  # both halves read the key's index in order
        plan = " ".join(str(r[3]) for r in s.db.execute(f"EXPLAIN QUERY PLAN {sql}"))
        assert "paper_columns_authors" in plan and "TEMP B-TREE" not in plan, plan
    s.db.execute("DELETE FROM paper_columns WHERE paper_id = 3")  # a library without the keys: SQL's own order
    assert s.ordered_ids("authors") == [2, 3, 1] and s.ordered_ids("authors", descending=True) == [3, 2, 1]
    s.close()


def test_letters_that_do_not_decompose_sort_as_a_reader_types_them(tmp_path):
    # NFKD leaves ø, ł, æ, þ … whole: "Høgsgaard" sorted after "Hz", "Łukasz" after "Zhang"
    assert title_key("Łukasz") == title_key("Lukasz") and title_key("Straße") == title_key("STRASSE")
    assert title_key("Æther") == "aether" and title_key("Þór") == "thor" and title_key("Đorđe") == "dorde"
    s = Store(tmp_path / "l.db")
    src = s.source_id("x", "x", "jsonl")
    names = ["Wei Hz", "Sam Huang", "Ida Høgsgaard", "Eva Hofmann", "Łukasz Kaiser", "Zoe Zhang"]
    s.insert_papers(src, [_paper(i, name.split()[1], [name]) for i, name in enumerate(names, 1)], 1)
    hofmann, hogsgaard, huang, hz, kaiser, zhang = 4, 3, 2, 1, 5, 6
    assert s.ordered_ids("authors") == s.ordered_ids("title") == [hofmann, hogsgaard, huang, hz, kaiser, zhang]
    s.close()


def test_migration_0029_writes_the_keys_of_letters_that_do_not_decompose_again(tmp_path, monkeypatch):
    # a library of 0028 holds them unfolded: its table sorted Høgsgaard after Hz, and its match keys missed
    # a second file's "Lukasz", "Jorgensen" (in the abstract's first words) and "Kjaer"
    from readinglist import collation
    from readinglist.importers import duplicates
    from readinglist.library import Library
    from readinglist.store import _m0029_keys_with_plain_letters, _set_columns, _set_keys

    words = " and then some more words about sparse attention in transformers for long documents" * 3
    rows = [{"title": "Sparse Attention", "authors": ["Ida Høgsgaard"], "abstract": f"Sparse{words}."},
            {"title": "Dense Attention", "authors": ["Eva Hofmann"], "abstract": f"Dense{words}."},
            {"title": "Local Attention", "authors": ["Sam Huang"], "abstract": f"Local{words}."},
            {"title": r"{\L}ukasz and the Transformers", "authors": ["Zoe Zhang"], "abstract": "Short."},
            {"title": "Global Attention", "authors": ["Wei Hz"], "abstract": f"Jørgensen{words}."},
            {"title": "Kjær’s Attention", "authors": [], "abstract": "Short."}]  # fmt: skip
    f = tmp_path / "first.jsonl"
    f.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    data = tmp_path / "lib"
    lib = Library.open(data, seed=False)
    lib.import_files([f])
    ids = lib.search("").ids

    def keys() -> list[tuple]:
        return lib.store.db.execute(
            "SELECT c.paper_id, c.title_key, c.authors_key, k.title_key, k.text_key FROM paper_columns c"
            " JOIN paper_keys k ON k.paper_id = c.paper_id ORDER BY c.paper_id"
        ).fetchall()

    now = keys()
    with monkeypatch.context() as m:  # the keys as the code before wrote them
        m.setattr(collation, "PLAIN_LETTERS", {})
        m.setattr(duplicates, "PLAIN_LETTERS", {})
        with lib.store.transaction() as db:
            _set_columns(db, ids)
            _set_keys(db, ids)
            db.execute("DELETE FROM schema_migrations WHERE name = '0029_keys_with_plain_letters'")
    before = keys()
    assert [r[0] for r in before if r[1:] != next(n for n in now if n[0] == r[0])[1:]] == sorted(
        [ids[0], ids[3], ids[4], ids[5]]
    )  # all but Hofmann's and Huang's
    assert {r[2] for r in before} >= {"høgsgaard"} and {r[3] for r in before} >= {"łukasz and the transformers"}
    rev = lib.store.current_rev()
    lib.close()
    lib = Library.open(data, seed=False)
    try:
        assert "0029_keys_with_plain_letters" in lib.store.applied_migrations()
        assert keys() == now and lib.store.current_rev() == rev  # keys only: nothing to index again
        by_author = [lib.paper(i).authors for i in lib.store.ordered_ids("authors")]
        assert by_author == [["Eva Hofmann"], ["Ida Høgsgaard"], ["Sam Huang"], ["Wei Hz"], ["Zoe Zhang"], []]
        with lib.store.transaction() as db:
            _m0029_keys_with_plain_letters(db)  # idempotent
        assert keys() == now
        second = [{"title": "Lukasz and the Transformers", "authors": ["Zoe Zhang"], "abstract": "Short."},
                  {"title": "Global Attention Revisited", "authors": ["Wei Hz"], "abstract": f"Jorgensen{words}."},
                  {"title": "Kjaer's Attention", "abstract": "Short."}]  # fmt: skip
        f2 = tmp_path / "second.jsonl"
        f2.write_text("\n".join(json.dumps(r) for r in second) + "\n", encoding="utf-8")
        [summary] = lib.import_files([f2])
        assert (summary.added, summary.merged) == (0, 3) and lib.store.count() == 6
    finally:
        lib.close()
