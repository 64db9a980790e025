"""Duplicates: the same paper from two sources is one paper; uncertain pairs are the user's to decide."""

from __future__ import annotations

import json

from readinglist.importers.duplicates import (
    Candidate,
    Verdict,
    abstract_similarity,
    authors_compatible,
    compare,
    surname,
    text_key,
    title_key,
    title_key_of_raw,
)

ABSTRACT = (
    "We study linear regression when the noise has heavy tails and only a few moments exist. We propose a "
    "truncated minimisation estimator, prove excess risk bounds that match the sub-Gaussian case up to "
    "logarithmic factors, and show in experiments that it is far more robust than least squares on real data."
)


def cand(title="Regression with Heavy-tailed Distributions", authors=("Lijun Zhang", "Zhi-Hua Zhou"), year=2018,
         venue="NeurIPS", text=ABSTRACT) -> Candidate:  # fmt: skip
    return Candidate(title, list(authors), year, venue, text)


# ---- the rules, both ways ----


def test_title_key_ignores_case_punctuation_accents_and_markup():
    assert title_key("Regression with Heavy-Tailed Distributions.") == "regression with heavy tailed distributions"
    assert title_key("Étude   de Cas") == title_key("etude de cas")
    assert title_key_of_raw(r"{$\ell_1$}-Regression with {H}eavy-tailed Distributions") == title_key_of_raw(
        r"$\ell_1$-regression with Heavy-tailed Distributions"
    )
    assert title_key_of_raw(r"Learning to {\"O}rder") == title_key_of_raw("Learning to Örder")
    # the letters NFKD leaves whole, as search folds them (a trial's "Łukasz" and "Jørgensen" matched nothing)
    assert title_key("Łukasz and Jørgensen on Æther") == "lukasz and jorgensen on aether"
    assert title_key("Straße") == title_key("Strasse") == title_key_of_raw(r"Stra{\ss}e")
    assert title_key_of_raw(r"{\L}ukasz J{\o}rgensen") == title_key("Łukasz Jørgensen")


def test_a_words_closing_pluses_are_part_of_the_title():
    # "Hyperbolic Neural Networks" and "…Networks++" were "the same title at two venues" (a trial)
    assert title_key("Hyperbolic Neural Networks++") != title_key("Hyperbolic Neural Networks")
    assert (
        title_key("PointNet++: Deep Hierarchical Feature Learning") == "pointnet++ deep hierarchical feature learning"
    )
    assert title_key("C++ templates, a+b") == "c++ templates a b"
    older = cand(title="Hyperbolic Neural Networks", authors=["Octavian Ganea"], text="Hyperbolic spaces. " * 9)
    newer = cand(title="Hyperbolic Neural Networks++", authors=["Ryohei Shimizu"], year=2021, venue="ICLR",
                 text="Generalized operations in the Poincaré ball model. " * 5)  # fmt: skip
    assert compare(older, newer)[0] is Verdict.DISTINCT
    assert compare(older, cand(title="Hyperbolic Neural Networks", authors=["Ryohei Shimizu"], year=2021,
                               venue="ICLR", text=newer.text))[0] is Verdict.POSSIBLE  # fmt: skip


def test_migration_0022_writes_the_keys_of_titles_with_pluses_again(empty_lib, tmp_path):
    f = tmp_path / "plus.jsonl"
    f.write_text('{"title": "PointNet++: Deep Learning on Point Sets", "abstract": "Points.", "authors": ["C. Qi"]}\n')
    empty_lib.import_files([f])
    db = empty_lib.store.db
    with empty_lib.store.transaction() as tx:  # as a library of session 26 holds it
        tx.execute("UPDATE paper_keys SET title_key = 'pointnet deep learning on point sets'")
    from readinglist.store import _m0022_title_keys_with_pluses

    with empty_lib.store.transaction() as tx:
        _m0022_title_keys_with_pluses(tx)
        _m0022_title_keys_with_pluses(tx)  # idempotent
    assert db.execute("SELECT title_key FROM paper_keys").fetchone()[0] == "pointnet++ deep learning on point sets"
    [again] = empty_lib.import_files([f])
    assert (again.added, empty_lib.store.count()) == (0, 1)


def test_surnames_are_read_from_both_name_orders():
    assert surname("Zhang, Lijun") == surname("Lijun Zhang") == "zhang"
    assert authors_compatible(["Zhang, Lijun", "Zhou, Zhi-Hua"], ["Lijun Zhang"])
    assert authors_compatible([], ["Lijun Zhang"])  # a source without authors says nothing against
    assert not authors_compatible(["Alice Smith"], ["Bob Jones"])


def test_same_title_authors_and_year_is_the_same_paper():
    bib = cand(title="regression with heavy tailed distributions", authors=["Zhang, Lijun", "Zhou, Zhi-Hua"], text="")
    assert compare(cand(), bib)[0] is Verdict.SAME
    assert compare(cand(), cand(year=2019))[0] is Verdict.SAME  # within one year
    assert compare(cand(), cand(year=None, authors=[]))[0] is Verdict.SAME  # one side without authors or year


def test_same_title_by_other_authors_stays_apart():
    other = cand(authors=["Alice Smith", "Bob Jones"], text="An entirely different abstract about graphs " * 5)
    assert compare(cand(), other)[0] is Verdict.DISTINCT
    # … unless the abstracts agree too: then the user is asked
    assert compare(cand(), cand(authors=["Alice Smith"]))[0] is Verdict.POSSIBLE


def test_a_workshop_and_a_main_track_paper_of_one_title_are_only_possible_duplicates():
    verdict, why = compare(cand(), cand(venue="NeurIPS Workshop on Robust Statistics"))
    assert verdict is Verdict.POSSIBLE and "workshop" in why
    assert compare(cand(venue="ICML Workshop"), cand(venue="ICML Workshop"))[0] is Verdict.SAME


def test_years_far_apart_make_only_a_possible_duplicate():
    assert compare(cand(), cand(year=2015))[0] is Verdict.POSSIBLE


def test_a_short_title_without_authors_is_not_enough():
    assert compare(cand(title="Introduction", authors=[]), cand(title="Introduction"))[0] is Verdict.POSSIBLE


def test_near_identical_abstract_under_another_title():
    edited = ABSTRACT.replace("far more robust", "much more robust")
    assert abstract_similarity(ABSTRACT, edited) >= 0.8
    assert compare(cand(), cand(title="Robust heavy-tailed regression", text=edited))[0] is Verdict.SAME
    # the same text under another title by other authors: an error in a source, for the user to see
    verdict = compare(cand(), cand(title="Another paper", authors=["Alice Smith"], text=ABSTRACT))[0]
    assert verdict is Verdict.POSSIBLE
    unrelated = cand(title="Graph networks", text="We propose graph networks for molecules " * 6)
    assert compare(cand(), unrelated)[0] is Verdict.DISTINCT
    assert text_key(ABSTRACT) == text_key(edited) and text_key("too short") == ""


def test_text_key_is_the_first_words_folded_however_long_the_text() -> None:
    """The key is folded from the start of a long abstract only: it must equal the key of the whole text
    folded, with accents, ligatures and a word cut where the start ends."""
    import hashlib
    import re
    import unicodedata

    def reference(text: str) -> str:
        decomposed = unicodedata.normalize("NFKD", text).translate(PLAIN_LETTERS)
        folded = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
        words = re.findall(r"[^\W_]+", folded)
        return hashlib.sha1(" ".join(words[:24]).encode()).hexdigest()[:20] if len(words) >= 25 else ""

    from readinglist.collation import PLAIN_LETTERS

    accented = "Schölkopf’s ﬁrst Éléments de géométrie Jørgensen " * 3 + "naïve " * 10
    for text in [ABSTRACT, accented, accented + ABSTRACT * 40, "é" * 500 + " " + ABSTRACT,
                 "word " * 24, "word " * 25, "a_b " * 30, "x" * 383 + "é " + ABSTRACT]:  # fmt: skip
        assert text_key(text) == reference(text)
    assert text_key(accented) != ""


# ---- at import: a record another file brought is merged into that paper ----


def _bib_of(lib, ids) -> str:
    from readinglist.export import ExportOptions, render

    return render(lib.papers(ids), ExportOptions(format="bibtex", abstracts=True))


def test_the_apps_own_bibtex_export_imported_again_adds_no_paper(lib, tmp_path):
    ids = lib.search("").ids
    pid = ids[0]
    lib.add_tags([pid], ["mine"])
    lib.set_note(pid, "keep this note")
    bib = tmp_path / "export.bib"
    bib.write_text(_bib_of(lib, ids), encoding="utf-8")
    [summary] = lib.import_files([bib])
    # the app's own export is found by its ids and keys (issue 17): nothing added, merged or changed
    assert (summary.added, summary.merged, summary.unchanged) == (0, 0, len(ids)) and lib.store.count() == len(ids)
    p = lib.paper(pid)
    assert p.tags == ["mine"] and p.note == "keep this note"  # annotations kept
    # a re-import of the second file finds them unchanged: no paper is added or merged twice
    [again] = lib.import_files([bib])
    assert (again.added, again.merged, again.unchanged) == (0, 0, len(ids)) and lib.store.count() == len(ids)
    assert lib.search("state:unread").ids  # the index still answers


def _write_jsonl(path, records):
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path


def _records():
    return [
        {"title": "Deep Sets", "authors": ["Manzil Zaheer", "Satwik Kottur"], "year": 2017, "venue": "NeurIPS",
         "abstract": ABSTRACT},
        {"title": "Attention is all you need", "authors": ["Ashish Vaswani"], "year": 2017, "venue": "NeurIPS",
         "abstract": "We propose the transformer, a model architecture relying entirely on attention " * 3},
        {"title": "Graph Attention Networks", "authors": ["Petar Velickovic"], "year": 2018, "venue": "ICLR",
         "abstract": "We present graph attention networks operating on graph-structured data " * 3},
    ]  # fmt: skip


def test_a_second_source_is_merged_same_title_other_authors_and_workshops_stay_apart(empty_lib, tmp_path):
    first = _write_jsonl(tmp_path / "first.jsonl", _records())
    second = _records()
    second[0] |= {"title": "{D}eep {S}ets.", "authors": ["Zaheer, Manzil"], "abstract": ""}  # the BibTeX view
    second[1] |= {"authors": ["Someone Else"], "abstract": "A different paper about attention in vision " * 4}
    second[2] |= {"venue": "ICLR Workshop on Graphs"}
    second.append({"title": "A new paper", "authors": ["New Author"], "year": 2018, "venue": "ICLR"})
    empty_lib.import_files([first])
    [summary] = empty_lib.import_files([_write_jsonl(tmp_path / "second.jsonl", second)])
    assert (summary.added, summary.merged, summary.possible) == (3, 1, 1)
    assert empty_lib.store.count() == 6
    [pair] = empty_lib.possible_duplicates()
    titles = {p.title for p in empty_lib.papers([pair.a, pair.b])}
    assert titles == {"Graph Attention Networks"} and "workshop" in pair.why
    deep = empty_lib.search('"deep sets"').ids
    assert len(deep) == 1 and empty_lib.sources_of(deep[0]) == ["first", "second"]


def test_a_title_spelt_with_or_without_letters_that_do_not_decompose_is_one_paper(empty_lib, tmp_path):
    # NFKD leaves ł, ø and ß whole: "Łukasz" was not "Lukasz", nor "Straße" "Strasse" to the duplicate finder
    names = {"Łukasz": "Lukasz", "Jørgensen": "Jorgensen", "Straße": "Strasse"}
    first = [{"title": f"What {name} Learned from Sparse Transformers", "authors": ["Ada Kaiser"], "year": 2020,
              "venue": "ICML", "abstract": f"A paper about {name} and attention."} for name in names]  # fmt: skip
    second = [r | {"title": r["title"].replace(old, new), "abstract": ""} for r, (old, new) in
              zip(first, names.items(), strict=True)]  # fmt: skip
    empty_lib.import_files([_write_jsonl(tmp_path / "first.jsonl", first)])
    [summary] = empty_lib.import_files([_write_jsonl(tmp_path / "second.jsonl", second)])
    assert (summary.added, summary.merged) == (0, 3) and empty_lib.store.count() == 3
    assert {p.title for p in empty_lib.papers(empty_lib.search("").ids)} == {r["title"] for r in first}  # spelt first


def test_a_merged_record_fills_what_the_paper_lacks(empty_lib, tmp_path):
    bare = [{"title": "Attention Is All You Need!", "year": 2017, "venue": "NeurIPS"}]
    empty_lib.import_files([_write_jsonl(tmp_path / "titles.jsonl", bare)])
    full = _records()[1:2]
    [summary] = empty_lib.import_files([_write_jsonl(tmp_path / "full.jsonl", full)])
    assert summary.merged == 1
    [pid] = empty_lib.search("").ids
    p = empty_lib.paper(pid)
    assert p.authors == ["Ashish Vaswani"] and p.abstract == full[0]["abstract"].strip()
    assert p.title == "Attention Is All You Need!"  # what the paper had stays
    assert empty_lib.search("transformer").ids == [pid]


def test_an_author_list_cut_short_is_carried_on_by_a_source_that_has_it_whole(empty_lib, tmp_path):
    """Our Markdown list writes three names and "et al."; the BibTeX file of the same paper has all eight."""
    eight = ["A. Vaswani", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit", "Llion Jones", "Aidan N. Gomez",
             "Lukasz Kaiser", "Illia Polosukhin"]  # fmt: skip
    cut = [{"title": "Attention Is All You Need", "authors": ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar"],
            "year": 2017, "venue": "NeurIPS"}]  # fmt: skip
    empty_lib.import_files([_write_jsonl(tmp_path / "list.jsonl", cut)])
    whole = [{"title": "Attention Is All You Need", "authors": eight, "year": 2017, "venue": "NeurIPS"}]
    [summary] = empty_lib.import_files([_write_jsonl(tmp_path / "refs.jsonl", whole)])
    assert summary.merged == 1
    [pid] = empty_lib.search("").ids
    assert empty_lib.paper(pid).authors == ["Ashish Vaswani", *eight[1:]]  # the fuller spelling of each name
    assert empty_lib.search("Polosukhin").ids == [pid]
    cut[0]["abstract"] = "We propose the transformer, a model architecture relying entirely on attention."
    [revised] = empty_lib.import_files([_write_jsonl(tmp_path / "list.jsonl", cut)])  # the list, revised
    assert revised.updated == 1 and empty_lib.paper(pid).abstract.startswith("We propose the transformer")
    assert empty_lib.paper(pid).authors == ["Ashish Vaswani", *eight[1:]]  # what the merge carried on stays


def test_a_files_own_author_list_shortened_is_the_papers_when_no_merge_gave_more(empty_lib, tmp_path):
    four = [{"title": "Four Author Paper", "authors": ["Ann Alpha", "Bob Beta", "Cy Gamma", "Di Delta"],
             "year": 2020, "venue": "J"}]  # fmt: skip
    empty_lib.import_files([_write_jsonl(tmp_path / "refs.jsonl", four)])
    four[0]["authors"] = four[0]["authors"][:3]  # the file itself corrected
    empty_lib.import_files([_write_jsonl(tmp_path / "refs.jsonl", four)])
    [pid] = empty_lib.search("").ids
    assert empty_lib.paper(pid).authors == ["Ann Alpha", "Bob Beta", "Cy Gamma"]


def test_fuller_authors_only_carries_on_the_same_names_in_order():
    from readinglist.importers.duplicates import fuller_authors

    assert fuller_authors(["A. Smith", "B. Jones"], ["Alice Smith", "Bob Jones", "C. Wu"]) == [
        "Alice Smith", "Bob Jones", "C. Wu"]  # fmt: skip
    assert fuller_authors(["Smith, Alice"], ["Alice Smith", "Carl Wu"]) == ["Smith, Alice", "Carl Wu"]
    assert fuller_authors(["A. Smith", "B. Jones"], ["B. Jones", "A. Smith", "C. Wu"]) is None  # another order
    assert fuller_authors(["A. Smith"], ["Z. Smith", "C. Wu"]) is None  # another Smith
    assert fuller_authors(["A. Smith", "B. Jones"], ["A. Smith"]) is None  # shorter: the paper's own stays
    assert fuller_authors([], ["A. Smith"]) is None  # an empty list is filled as a gap, not here


def test_covering_authors_is_a_longer_list_naming_every_kept_author():
    from readinglist.importers.duplicates import covering_authors

    assert covering_authors(["Bob Jones"], ["Alice Smith", "B. Jones"]) == ["Alice Smith", "B. Jones"]
    assert covering_authors(["A. Smith"], ["Alice Smith", "Carl Wu"]) == ["Alice Smith", "Carl Wu"]  # fuller_authors'
    assert covering_authors(["A. Smith", "B. Jones"], ["A. Smith", "C. Jones", "D. Wu"]) is None  # another Jones
    assert covering_authors(["A. Smith", "B. Jones"], ["B. Jones", "A. Smith"]) is None  # not longer


# ---- merging by hand, undo, keeping apart ----


def test_merge_combines_annotations_and_unmerge_restores_both(lib):
    a, b = lib.search("").ids[:2]
    lib.add_tags([a], ["x", "shared"])
    lib.add_tags([b], ["y", "shared"])
    lib.set_note(a, "note a")
    lib.set_note(b, "note b")
    lib.set_state([b], "read")
    lib.set_priority([b], 1)
    lib.set_title(b, "Their own title")
    before_a, before_b = lib.paper(a), lib.paper(b)
    merged = lib.merge(a, b)
    p = lib.paper(a)
    assert lib.paper(b) is None and lib.store.count() == 18
    assert sorted(p.tags) == ["shared", "x", "y"] and p.state == "read" and p.priority == 1
    assert p.note == "note a\n\n---\n\nnote b" and p.title == "Their own title"
    assert b not in [r.id for r in lib.removed_papers()]  # merged, not removed: not offered back
    assert lib.search('tag:"y"').ids == [a]
    back = lib.unmerge(merged)
    assert back == b and lib.store.count() == 19
    after_a, after_b = lib.paper(a), lib.paper(b)
    for before, after in ((before_a, after_a), (before_b, after_b)):
        assert (after.tags, after.note, after.state, after.priority, after.title) == (
            before.tags, before.note, before.state, before.priority, before.title)  # fmt: skip


GADGETS = {"title": "Deep Gadget Networks", "authors": ["Alice Smith"], "year": 2024, "venue": "X"}
GADGETS_FULL = {"title": "Deep Gadget Networks", "authors": ["Alice Smith", "Bob Jones"], "year": 2019, "venue": "Y",
                "url": "https://example.org/g",
                "abstract": "We study flibbertigibbet widgets and how their gadgets learn to fold. " * 2}  # fmt: skip


def _record(p):
    return (p.abstract, p.authors, p.year, p.venue, p.url, p.links)


def test_a_merge_by_hand_fills_what_the_kept_paper_lacks_and_unmerge_takes_it_out(empty_lib, tmp_path):
    """As an import's merge does (fill_missing): a trial's kept paper had no abstract, link or second author
    after the merge, and its abstract's words found nothing."""
    empty_lib.import_files([_write_jsonl(tmp_path / "c.jsonl", [GADGETS])])
    empty_lib.import_files([_write_jsonl(tmp_path / "d.jsonl", [GADGETS_FULL])])
    [pair] = empty_lib.possible_duplicates()
    keep, other = sorted((pair.a, pair.b))
    before_keep, before_other = _record(empty_lib.paper(keep)), _record(empty_lib.paper(other))
    merged = empty_lib.merge(keep, other)
    p = empty_lib.paper(keep)
    assert p.abstract == GADGETS_FULL["abstract"].strip() and p.authors == ["Alice Smith", "Bob Jones"]
    assert p.url == "https://example.org/g" and p.links == ["https://example.org/g"]
    assert (p.year, p.venue) == (2024, "X")  # what the kept paper has stays
    assert empty_lib.search("flibbertigibbet").ids == [keep]
    assert empty_lib.search("author:jones").ids == [keep]
    back = empty_lib.unmerge(merged)
    assert _record(empty_lib.paper(keep)) == before_keep and _record(empty_lib.paper(back)) == before_other
    assert empty_lib.search("flibbertigibbet").ids == [back]
    assert empty_lib.search("author:jones").ids == [back]


def test_a_merge_by_hand_keeps_both_papers_links_and_a_fuller_author_list(empty_lib, tmp_path):
    """The window's merge of a COLT paper into its arXiv version lost the proceedings link; a list that names
    every kept author and more is the fuller one, in whatever order (the user said the two are one paper)."""
    arxiv = {"title": "Regret Bounds for Gadgets", "authors": ["Bob Jones"], "venue": "",
             "url": "https://arxiv.org/abs/2401.00001", "abstract": "We bound the regret of gadgets. " * 3}  # fmt: skip
    colt = {"title": "Regret Bounds for Gadgets (Extended Abstract)", "authors": ["Alice Smith", "B. Jones"],
            "year": 2024, "venue": "COLT", "url": "https://proceedings.mlr.press/v247/jones24a.html",
            "abstract": "An extended abstract on the regret of gadgets. " * 3}  # fmt: skip
    empty_lib.import_files([_write_jsonl(tmp_path / "both.jsonl", [arxiv, colt])])  # one file: never merged
    keep, other = sorted(empty_lib.search("").ids)
    before = _record(empty_lib.paper(keep))
    merged = empty_lib.merge(keep, other)
    p = empty_lib.paper(keep)
    assert p.links == [arxiv["url"], colt["url"]] and p.url == arxiv["url"]
    assert p.abstract == arxiv["abstract"].strip()  # the kept paper's own, not replaced
    assert p.authors == ["Alice Smith", "B. Jones"] and (p.year, p.venue) == (2024, "COLT")
    empty_lib.unmerge(merged)
    assert _record(empty_lib.paper(keep)) == before


def test_unmerge_leaves_what_was_changed_since_the_merge(empty_lib, tmp_path):
    empty_lib.import_files([_write_jsonl(tmp_path / "c.jsonl", [GADGETS])])
    empty_lib.import_files([_write_jsonl(tmp_path / "d.jsonl", [GADGETS_FULL])])
    [pair] = empty_lib.possible_duplicates()
    keep, other = sorted((pair.a, pair.b))
    merged = empty_lib.merge(keep, other)
    revised = GADGETS | {"abstract": GADGETS_FULL["abstract"] + "Revised in its own file."}  # the file has it now
    [summary] = empty_lib.import_files([_write_jsonl(tmp_path / "c.jsonl", [revised])])
    assert summary.updated == 1
    empty_lib.unmerge(merged)
    p = empty_lib.paper(keep)
    assert p.abstract == revised["abstract"].strip() and p.authors == ["Alice Smith"]


UNTITLED = {
    "authors": ["Alice Smith"],
    "year": 2024,
    "venue": "X",
    "abstract": "We propose GadgetNet, a network that folds flibbertigibbet widgets into gadgets. " * 3,
}
TITLED = UNTITLED | {"title": "GadgetNet: Folding Widgets", "abstract": "Gadgets fold widgets, we show. " * 3}


def test_a_merge_by_hand_gives_a_derived_title_way_to_a_real_one_and_unmerge_brings_it_back(empty_lib, tmp_path):
    """The kept paper's title was derived from its abstract and the merged one's came from its file: the merge
    kept the derived one."""
    empty_lib.import_files([_write_jsonl(tmp_path / "both.jsonl", [UNTITLED, TITLED])])  # one file: never merged
    keep, other = sorted(empty_lib.search("").ids)
    derived = empty_lib.paper(keep).title
    assert empty_lib.paper(keep).title_derived and derived != TITLED["title"]
    merged = empty_lib.merge(keep, other)
    p = empty_lib.paper(keep)
    assert p.title == TITLED["title"] and not p.title_derived
    assert empty_lib.search('"folding widgets"').ids == [keep]
    empty_lib.unmerge(merged)
    p = empty_lib.paper(keep)
    assert p.title == derived and p.title_derived
    assert empty_lib.search('"folding widgets"').ids == [other]


def test_a_merge_by_hand_keeps_the_users_own_title_over_the_imported_one(empty_lib, tmp_path):
    empty_lib.import_files([_write_jsonl(tmp_path / "both.jsonl", [UNTITLED, TITLED])])
    keep, other = sorted(empty_lib.search("").ids)
    empty_lib.set_title(keep, "My Name For It")
    merged = empty_lib.merge(keep, other)
    assert empty_lib.paper(keep).title == "My Name For It"  # the user's, over the file's
    empty_lib.unmerge(merged)
    assert empty_lib.paper(keep).title == "My Name For It"
    empty_lib.set_title(keep, None)
    empty_lib.set_title(other, "Their Own Name")
    merged = empty_lib.merge(keep, other)
    assert empty_lib.paper(keep).title == "Their Own Name"  # the merged paper's own title, over the file's
    empty_lib.unmerge(merged)
    assert empty_lib.paper(keep).title_derived


def test_an_imported_merge_gives_a_derived_title_way_to_the_files_and_a_revision_keeps_it(empty_lib, tmp_path):
    """The same gap at import (fill_missing): a record merged by its abstract left the paper its derived title;
    and the paper's own file revised, still without a title, would bring the derived one back."""
    untitled = _write_jsonl(tmp_path / "abstracts.jsonl", [UNTITLED])
    empty_lib.import_files([untitled])
    [summary] = empty_lib.import_files([_write_jsonl(tmp_path / "refs.jsonl", [UNTITLED | {"title": TITLED["title"]}])])
    assert summary.merged == 1
    [pid] = empty_lib.search("").ids
    assert empty_lib.paper(pid).title == TITLED["title"] and not empty_lib.paper(pid).title_derived
    assert empty_lib.search('"folding widgets"').ids == [pid]
    assert empty_lib.sources_of(pid) == ["abstracts", "refs"]
    [revised] = empty_lib.import_files([_write_jsonl(untitled, [UNTITLED | {"year": 2025}])])
    assert revised.updated == 1 and empty_lib.paper(pid).year == 2025
    assert empty_lib.paper(pid).title == TITLED["title"]  # the file still gives none: the merge's stays
    [retitled] = empty_lib.import_files([_write_jsonl(untitled, [UNTITLED | {"title": "Widgets Folded"}])])
    assert retitled.updated == 1 and empty_lib.paper(pid).title == "Widgets Folded"  # the file's own, once it has one


def test_an_imported_merge_adds_the_url_it_fills_in_to_the_papers_links(empty_lib, tmp_path):
    """fill_missing set the url but not the links (the detail pane lists the links), and an abstract it
    filled in replaced the paper's links with the record's."""
    empty_lib.import_files([_write_jsonl(tmp_path / "c.jsonl", [GADGETS | {"abstract": GADGETS_FULL["abstract"]}])])
    empty_lib.import_files([_write_jsonl(tmp_path / "d.jsonl", [GADGETS_FULL | {"year": 2024, "venue": "X"}])])
    [pid] = empty_lib.search("").ids
    p = empty_lib.paper(pid)
    assert p.url == "https://example.org/g" and p.links == ["https://example.org/g"]
    own = {"url": "https://example.org/own"}
    empty_lib.import_files([_write_jsonl(tmp_path / "e.jsonl", [GADGETS | own | {"title": "Widget Gadget Networks"}])])
    bare = [p for p in empty_lib.papers(empty_lib.search("").ids) if p.url == own["url"]]
    assert len(bare) == 1 and bare[0].links == [own["url"]]
    linked = "We study the gadgets at https://example.org/data and their widgets. " * 2
    record = {"title": "Widget Gadget Networks", "authors": ["Alice Smith"], "year": 2024, "venue": "X",
              "url": "https://example.org/other", "abstract": linked}  # fmt: skip
    [summary] = empty_lib.import_files([_write_jsonl(tmp_path / "f.jsonl", [record])])
    assert summary.merged == 1
    p = empty_lib.paper(bare[0].id)
    assert p.url == own["url"] and p.abstract == linked.strip()
    assert p.links[0] == own["url"] and "https://example.org/data" in p.links  # its own first, the abstract's after


def test_a_revision_of_the_papers_own_file_keeps_the_abstract_year_and_link_a_merged_file_gave(empty_lib, tmp_path):
    """A list of titles merged with a fuller file: the list's next version, still without an abstract, a year
    or a link, took the ones the fuller file had filled in (the paper's authors were kept so, never the rest).
    What the revision gives replaces them; a paper no other file was merged into is as its file has it."""
    titles = tmp_path / "titles.jsonl"
    bare = {"title": "Deep Gadget Networks", "authors": ["Alice Smith"], "venue": "X"}
    empty_lib.import_files([_write_jsonl(titles, [bare])])
    full = GADGETS_FULL | {
        "abstract": GADGETS_FULL["abstract"] + "Data at https://example.org/data.",
        "year": 2024,
        "venue": "X",
    }
    [summary] = empty_lib.import_files([_write_jsonl(tmp_path / "refs.jsonl", [full])])
    assert summary.merged == 1
    [pid] = empty_lib.search("").ids
    [revised] = empty_lib.import_files([_write_jsonl(titles, [bare | {"venue": "X 2024"}])])
    assert revised.updated == 1
    p = empty_lib.paper(pid)
    assert (p.venue, p.year, p.url, p.abstract) == ("X 2024", 2024, full["url"], full["abstract"].strip())
    assert p.links == [full["url"], "https://example.org/data"]
    assert empty_lib.search("flibbertigibbet").ids == [pid]
    empty_lib.import_files([_write_jsonl(titles, [bare | {"year": 2023, "url": "https://example.org/own"}])])
    p = empty_lib.paper(pid)
    assert (p.year, p.url, p.links[0]) == (2023, "https://example.org/own", "https://example.org/own")
    alone = tmp_path / "alone.jsonl"  # no merge: the file's revision is the paper
    empty_lib.import_files([_write_jsonl(alone, [{"title": "Lonely Widgets", "year": 2020, "url": "https://e.org/l"}])])
    empty_lib.import_files([_write_jsonl(alone, [{"title": "Lonely Widgets", "abstract": "Now with a text."}])])
    [lonely] = empty_lib.papers(empty_lib.search('"lonely widgets"').ids)
    assert (lonely.year, lonely.url) == (None, "")


def test_the_kept_papers_own_triaged_state_and_priority_win(lib):
    a, b = lib.search("").ids[:2]
    lib.set_state([a], "skimmed")
    lib.set_state([b], "read")
    lib.set_priority([a], 3)
    lib.set_priority([b], 1)
    lib.merge(a, b)
    p = lib.paper(a)
    assert (p.state, p.priority) == ("skimmed", 3)


def test_keep_apart_is_remembered_and_not_listed_again(empty_lib, tmp_path):
    first = _write_jsonl(tmp_path / "first.jsonl", _records()[2:])
    ws = [_records()[2] | {"venue": "ICLR Workshop"}]
    empty_lib.import_files([first])
    empty_lib.import_files([_write_jsonl(tmp_path / "ws.jsonl", ws)])
    [pair] = empty_lib.possible_duplicates()
    assert sorted(empty_lib.search("", duplicates=True).ids) == sorted([pair.a, pair.b])
    assert sorted(empty_lib.search("graph", duplicates=True).ids) == sorted([pair.a, pair.b])
    assert empty_lib.search("nothing like it", duplicates=True).ids == []
    empty_lib.keep_apart(pair.a, pair.b)
    assert empty_lib.search("", duplicates=True).ids == []
    assert empty_lib.possible_duplicates() == []
    assert empty_lib.store.add_possible_duplicates([(pair.b, pair.a, "again")]) == 0  # stays apart
    empty_lib.keep_apart(pair.a, pair.b, apart=False)
    assert empty_lib.store.add_possible_duplicates([(pair.a, pair.b, "again")]) == 1


def test_migration_0014_gives_existing_papers_their_keys(lib):
    assert "0014_duplicates" in lib.store.applied_migrations()
    rows = lib.store.db.execute("SELECT count(*) FROM paper_keys WHERE text_key != ''").fetchone()[0]
    assert rows == lib.store.count()
    lib.store.db.execute("DELETE FROM paper_keys")
    from readinglist.store import _m0014_duplicates

    with lib.store.transaction() as db:
        _m0014_duplicates(db)
        _m0014_duplicates(db)  # idempotent
    assert lib.store.db.execute("SELECT count(*) FROM paper_keys").fetchone()[0] == lib.store.count()


# ---- the command line ----


def _run(capsys, *args):
    from readinglist.cli import main

    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_duplicates_merge_and_keep_apart(capsys, tmp_path):
    dd = str(tmp_path / "cli")
    recs = _records()
    main_track = _write_jsonl(tmp_path / "main.jsonl", recs)
    ws = [r | {"venue": f"{r['venue']} Workshop"} for r in recs]
    assert _run(capsys, "--data-dir", dd, "import", str(main_track))[0] == 0
    code, out, _ = _run(capsys, "--data-dir", dd, "import", str(_write_jsonl(tmp_path / "ws.jsonl", ws)))
    assert code == 0 and "3 possible duplicates to decide" in out
    code, out, _ = _run(capsys, "--data-dir", dd, "duplicates", "--json")
    pairs = json.loads(out)
    assert code == 0 and len(pairs) == 3 and all("workshop" in p["why"] for p in pairs)
    (a, b), (c, d) = ([p["id"] for p in pair["papers"]] for pair in pairs[:2])
    code, out, _ = _run(capsys, "--data-dir", dd, "merge", a, b)
    assert code == 0 and f"{b}: merged into {a}" in out
    code, out, _ = _run(capsys, "--data-dir", dd, "show", a)
    assert code == 0 and "sources: main, ws" in out
    code, out, _ = _run(capsys, "--data-dir", dd, "show", a, "--json")
    assert json.loads(out)["sources"] == ["main", "ws"]
    code, out, _ = _run(capsys, "--data-dir", dd, "merge", "--apart", c, d)
    assert code == 0 and "kept apart" in out
    code, out, err = _run(capsys, "--data-dir", dd, "duplicates")
    assert code == 0 and out.count("workshop") == 1 and "1 possible duplicate:" in err
    code, out, _ = _run(capsys, "--data-dir", dd, "list", "--json")
    assert len(json.loads(out)) == 5  # 3 + 3 imported, one merged (a first import brings no bundled papers)
    code, _, err = _run(capsys, "--data-dir", dd, "merge", a, a)
    assert code == 1 and "one paper" in err and "Traceback" not in err


def test_cli_merge_fills_the_kept_paper_and_removed_names_the_merged_one(capsys, tmp_path):
    """A trial's steps: the kept paper lacked the other's abstract, link and author, a search by the
    abstract's words found nothing, and `removed` said "No papers have been removed" of a paper that
    `unremove` brought back."""
    dd = str(tmp_path / "cli")
    _run(capsys, "--data-dir", dd, "import", str(_write_jsonl(tmp_path / "c.jsonl", [GADGETS])))
    _run(capsys, "--data-dir", dd, "import", str(_write_jsonl(tmp_path / "d.jsonl", [GADGETS_FULL])))
    keep, other = (p["id"] for p in json.loads(_run(capsys, "--data-dir", dd, "duplicates", "--json")[1])[0]["papers"])
    assert _run(capsys, "--data-dir", dd, "merge", keep, other)[0] == 0
    shown = json.loads(_run(capsys, "--data-dir", dd, "show", keep, "--json")[1])
    assert shown["authors"] == ["Alice Smith", "Bob Jones"] and shown["links"] == ["https://example.org/g"]
    assert shown["abstract"] == GADGETS_FULL["abstract"].strip() and (shown["year"], shown["venue"]) == (2024, "X")
    code, out, _ = _run(capsys, "--data-dir", dd, "search", "flibbertigibbet")
    assert code == 0 and keep in out
    code, out, err = _run(capsys, "--data-dir", dd, "removed")
    assert code == 0 and other in out and f"merged into {keep}" in out and "No papers" not in err
    code, _, err = _run(capsys, "--data-dir", dd, "show", other)
    assert code == 1 and f"merged into {keep}" in err and "removed from the library" not in err
    assert _run(capsys, "--data-dir", dd, "unremove", other)[0] == 0
    code, out, err = _run(capsys, "--data-dir", dd, "removed")
    assert out == "" and "No papers have been removed" in err


def test_a_merged_files_revision_or_removal_leaves_the_paper_as_its_own_file_has_it(empty_lib, tmp_path):
    recs = _records()
    empty_lib.import_files([_write_jsonl(tmp_path / "first.jsonl", recs)])
    second = tmp_path / "second.jsonl"
    [merged] = empty_lib.import_files([_write_jsonl(second, recs[1:])])
    assert merged.merged == 2
    revised = [recs[1] | {"abstract": recs[1]["abstract"] + " Revised in the second file."}]
    [again] = empty_lib.import_files([_write_jsonl(second, revised)])  # one record revised, one gone
    assert (again.added, again.merged) == (0, 0) and empty_lib.store.count() == 3
    [pid] = empty_lib.search('"attention is all you need"').ids
    p = empty_lib.paper(pid)
    assert "Revised" not in p.abstract and p.in_source  # the paper's own file still has it as it was
    assert all(q.in_source for q in empty_lib.papers(empty_lib.search("").ids))


def test_one_title_at_two_conferences_is_only_possible_but_one_venue_named_two_ways_is_the_same():
    from readinglist.importers.duplicates import venues_compatible

    verdict, why = compare(cand(venue="NeurIPS", year=2014), cand(venue="ICLR", year=2014))
    assert verdict is Verdict.POSSIBLE and "ICLR" in why
    assert venues_compatible("Advances in Neural Information Processing Systems 31", "NeurIPS")
    assert venues_compatible("NIPS 2018", "NeurIPS") and venues_compatible("", "ICML")
    assert compare(cand(venue="Advances in Neural Information Processing Systems"), cand())[0] is Verdict.SAME
    assert not venues_compatible("ICML", "ICLR")


def test_cli_unremove_of_a_merged_paper_takes_the_merge_back_from_the_kept_one(capsys, tmp_path):
    """A trial: `merge A B`, then `unremove B`: A kept "note A --- note B", B's tag and B's file as a source,
    so both papers carried them. Now A is as before the merge, and B back with its own."""
    dd = str(tmp_path / "cli")
    _run(capsys, "--data-dir", dd, "import", str(_write_jsonl(tmp_path / "c.jsonl", [GADGETS])))
    _run(capsys, "--data-dir", dd, "import", str(_write_jsonl(tmp_path / "d.jsonl", [GADGETS_FULL])))
    a, b = (p["id"] for p in json.loads(_run(capsys, "--data-dir", dd, "duplicates", "--json")[1])[0]["papers"])
    before = json.loads(_run(capsys, "--data-dir", dd, "show", a, "--json")[1])
    for pid, note, tag in ((a, "note A", "alpha"), (b, "note B", "beta")):
        assert _run(capsys, "--data-dir", dd, "note", pid, "--set", note)[0] == 0
        assert _run(capsys, "--data-dir", dd, "tag", pid, tag)[0] == 0
    assert _run(capsys, "--data-dir", dd, "merge", a, b)[0] == 0
    merged = json.loads(_run(capsys, "--data-dir", dd, "show", a, "--json")[1])
    assert merged["note"] == "note A\n\n---\n\nnote B" and merged["tags"] == ["alpha", "beta"]
    code, out, err = _run(capsys, "--data-dir", dd, "unremove", b)
    assert code == 0 and f"{b}: back in the library (its merge into {a} taken back)" in out and err == ""
    shown_a = json.loads(_run(capsys, "--data-dir", dd, "show", a, "--json")[1])
    shown_b = json.loads(_run(capsys, "--data-dir", dd, "show", b, "--json")[1])
    assert (shown_a["note"], shown_a["tags"], shown_a["sources"]) == ("note A", ["alpha"], before["sources"])
    assert shown_a["abstract"] == before["abstract"] and shown_a["authors"] == before["authors"]
    assert (shown_b["note"], shown_b["tags"]) == ("note B", ["beta"])
    assert len(json.loads(_run(capsys, "--data-dir", dd, "duplicates", "--json")[1])) == 1  # the pair again


def test_unremove_of_a_merged_paper_keeps_what_the_kept_one_was_given_since(empty_lib, tmp_path):
    """What the kept paper got after the merge stays: a tag, a line added to the joined note, a state."""
    lib = empty_lib
    lib.import_files([_write_jsonl(tmp_path / "c.jsonl", [GADGETS])])
    lib.import_files([_write_jsonl(tmp_path / "d.jsonl", [GADGETS_FULL])])
    pair = lib.possible_duplicates()[0]
    a, b = pair.a, pair.b
    lib.set_note(a, "note A")
    lib.set_note(b, "note B")
    lib.add_tags([a], ["alpha"])
    lib.add_tags([b], ["beta"])
    lib.set_state([b], "read")
    lib.merge(a, b)
    lib.add_tags([a], ["gamma"])
    lib.set_note(a, lib.paper(a).note + "\n\nlater")
    lib.set_priority([a], 1)
    back, _, said = lib.unremove([b])
    assert back == {b: b} and said == []
    kept = lib.paper(a)
    assert (kept.note, kept.tags, kept.state, kept.priority) == ("note A\n\nlater", ["alpha", "gamma"], "unread", 1)
    assert (lib.paper(b).note, lib.paper(b).tags, lib.paper(b).state) == ("note B", ["beta"], "read")
    lib.merge(a, b)
    lib.set_state([a], "skimmed")  # changed since the merge: stays, and said
    _, _, said = lib.unremove([b])
    assert lib.paper(a).state == "skimmed" and said == [
        f"{lib.store.uids([a])[a]}: its state, changed since the merge, stays"
    ]


def test_unremove_of_a_paper_merged_before_merges_were_kept_says_the_kept_one_keeps_it(empty_lib, tmp_path):
    """A merge made by an earlier version left no record of what it changed: the paper comes back, and
    unremove says the paper it was merged into keeps what the merge gave it (nothing is guessed away)."""
    lib = empty_lib
    lib.import_files([_write_jsonl(tmp_path / "c.jsonl", [GADGETS])])
    lib.import_files([_write_jsonl(tmp_path / "d.jsonl", [GADGETS_FULL])])
    pair = lib.possible_duplicates()[0]
    lib.add_tags([pair.b], ["beta"])
    lib.merge(pair.a, pair.b)
    with lib.store.transaction() as db:  # as an earlier version kept it
        (text,) = db.execute("SELECT paper FROM removed_papers WHERE id = ?", (pair.b,)).fetchone()
        record = json.loads(text)
        del record["_merge"]
        db.execute("UPDATE removed_papers SET paper = ? WHERE id = ?", (json.dumps(record), pair.b))
    back, unmerged, said = lib.unremove([pair.b])
    assert unmerged == {}  # (no record of the merge: nothing taken back)
    assert back == {pair.b: pair.b} and lib.paper(pair.a).tags == ["beta"] == lib.paper(pair.b).tags
    assert said == [
        f"{lib.store.uids([pair.a])[pair.a]}: keeps what the merge gave it (an earlier version merged"
        " them and kept no record of what it changed): take the merged paper's tags or note off it by hand"
    ]


def test_cli_unremove_says_a_merge_taken_back_only_where_it_was(capsys, tmp_path):
    """The paper it was merged into removed since: the merged paper comes back as any removed one, and
    `unremove` does not say the merge was taken back from a paper not in the library (it said so whenever
    the paper had been merged)."""
    dd = str(tmp_path / "cli")
    _run(capsys, "--data-dir", dd, "import", str(_write_jsonl(tmp_path / "c.jsonl", [GADGETS])))
    _run(capsys, "--data-dir", dd, "import", str(_write_jsonl(tmp_path / "d.jsonl", [GADGETS_FULL])))
    a, b = (p["id"] for p in json.loads(_run(capsys, "--data-dir", dd, "duplicates", "--json")[1])[0]["papers"])
    assert _run(capsys, "--data-dir", dd, "merge", a, b)[0] == 0
    assert _run(capsys, "--data-dir", dd, "remove", a)[0] == 0
    code, out, _ = _run(capsys, "--data-dir", dd, "unremove", b)
    assert (code, out) == (0, f"{b}: back in the library\n")
