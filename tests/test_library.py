import json
import threading

import pytest
from conftest import corpus

from readinglist.library import Library
from readinglist.papers import ImportCancelled, ImportFailure


def test_first_start_imports_bundled_corpus(lib):
    assert lib.counts()["all"] == 19
    papers = lib.papers(lib.search("").ids)
    assert all(p.venue == "ICML" and p.year == 2026 for p in papers)
    assert len({p.title for p in papers}) == 19  # titles unique within the source
    bexa = lib.papers(lib.search("BEXA").ids)[0]
    assert bexa.title.startswith("BEXA: ")


def test_reimport_changes_nothing(lib, data_dir):
    from readinglist import paths

    summaries = lib.import_files([paths.bundled_corpus()], bundled=True)
    assert (summaries[0].added, summaries[0].updated, summaries[0].unchanged) == (0, 0, 19)
    assert lib.counts()["all"] == 19


def _write_seed(path, abstracts):
    path.write_text("ICML 2026 Papers\n\n" + "\n\n".join(abstracts) + "\n")


def test_revised_file_updates_in_place_and_keeps_annotations(empty_lib, tmp_path):
    from readinglist import paths

    abstracts = paths.bundled_corpus().read_text().split("\n\n")[1:]
    abstracts = [a.strip() for a in abstracts if a.strip()]
    f = tmp_path / "icml.txt"
    _write_seed(f, abstracts)
    empty_lib.import_files([f])
    pid = empty_lib.search("BEXA").ids[0]
    empty_lib.add_tags([pid], ["exits"])
    empty_lib.set_note(pid, "my note")
    empty_lib.set_state([pid], "read")
    uid = empty_lib.store.uids([pid])[pid]
    # an erratum: a few words of one abstract change
    abstracts[0] = abstracts[0].replace("substantial improvement", "considerable improvement")
    _write_seed(f, abstracts)
    (summary,) = empty_lib.import_files([f])
    assert (summary.added, summary.updated, summary.unchanged) == (0, 1, 18)
    p = empty_lib.paper(pid)
    assert p is not None and "considerable improvement" in p.abstract
    assert (p.tags, p.note, p.state, p.uid) == (["exits"], "my note", "read", uid)
    assert empty_lib.search("considerable").ids == [pid]


def test_paper_that_left_its_source_keeps_annotations(empty_lib, tmp_path):
    f = tmp_path / "a.jsonl"
    f.write_text(json.dumps({"title": "Keep me", "abstract": "A."}) + "\n" + json.dumps({"title": "B"}) + "\n")
    empty_lib.import_files([f])
    pid = empty_lib.search("keep").ids[0]
    empty_lib.set_note(pid, "precious")
    f.write_text(json.dumps({"title": "B"}) + "\n")
    (summary,) = empty_lib.import_files([f])
    assert summary.missing == 1
    p = empty_lib.paper(pid)
    assert p is not None and p.note == "precious" and not p.in_source
    assert empty_lib.search("precious").ids == [pid]


def test_bad_file_leaves_library_unchanged(lib, tmp_path):
    before = lib.counts()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"title": "ok"}\n{"title": broken\n')
    with pytest.raises(ImportFailure, match=r"bad\.jsonl, line 2"):
        lib.import_files([bad])
    assert lib.counts() == before
    assert lib.store.db.execute("SELECT count(*) FROM sources").fetchone()[0] == 1


def test_cancel_rolls_back(empty_lib):
    cancel = threading.Event()

    def progress(done, total, message):
        if message.startswith("Importing"):
            cancel.set()

    with pytest.raises(ImportCancelled):
        empty_lib.import_files([corpus("pmlr_colt2025_uai2025_l4dc2026.jsonl")], progress=progress, cancel=cancel)
    assert empty_lib.counts()["all"] == 0
    assert empty_lib.index.doc_count() == 0


def test_tags_keep_the_case_they_were_typed_in(lib):
    # "LLM" stays LLM; typed in lower case it is the same tag, spelt as the library has it; typed with other
    # capitals, or renamed, every paper shows the new spelling; undo puts the old back; search ignores case
    a, b, c = lib.search("").ids[:3]
    lib.add_tags([a], ["LLM", "Reinforcement Learning"])
    assert lib.paper(a).tags == ["LLM", "Reinforcement Learning"]
    lib.add_tags([b], ["llm", "reinforcement learning"])
    assert lib.paper(b).tags == ["LLM", "Reinforcement Learning"]
    assert lib.tag_counts() == [("LLM", 2), ("Reinforcement Learning", 2)]
    assert set(lib.search("tag:llm").ids) == set(lib.search("tag:LLM").ids) == {a, b}
    lib.add_tags([c], ["LLMs", "RL", "Llm"])  # capitals typed on purpose: the tag is spelt so now
    assert lib.paper(a).tags == ["Llm", "Reinforcement Learning"] and lib.paper(c).tags == ["Llm", "LLMs", "RL"]
    before = lib.rename_tag("Llm", "llm")  # a rename spells it as given, lower case too
    assert [t for t, _ in lib.tag_counts()] == ["llm", "LLMs", "Reinforcement Learning", "RL"]
    lib.set_tags(before)  # undo
    assert lib.paper(b).tags == ["Llm", "Reinforcement Learning"]
    assert lib.spelt_tags(["reinforcement  learning, new tag, NEW TAG"]) == ["Reinforcement Learning", "new tag"]


def test_tag_rename_merge_delete(lib):
    a, b = lib.search("").ids[:2]
    lib.add_tags([a], ["ml"])
    lib.add_tags([b], ["machine learning"])
    lib.rename_tag("ml", "machine learning")  # merge
    assert lib.tag_counts() == [("machine learning", 2)]
    before = lib.delete_tag("machine learning")
    assert lib.tag_counts() == []
    lib.set_tags(before)  # undo
    assert lib.tag_counts() == [("machine learning", 2)]
    assert set(lib.search('tag:"machine learning"').ids) == {a, b}


def test_user_title_and_fallback(lib):
    pid = lib.search("BEXA").ids[0]
    derived = lib.paper(pid).title
    lib.set_title(pid, "Early exits for actors")
    assert lib.paper(pid).title == "Early exits for actors"
    assert lib.search('title:"early exits for actors"').ids == [pid]
    lib.set_title(pid, None)
    assert lib.paper(pid).title == derived


def test_a_users_title_shows_its_formulas_as_imported_titles_do(lib):
    """A title set with F2 holding $\\epsilon$ showed "$\\epsilon$" in the table (a trial); the rest of what
    was typed stays as typed (a price's "$5", braces, "C#")."""
    pid = lib.search("BEXA").ids[0]
    lib.set_title(pid, "$\\epsilon$-greedy exits at $5")
    assert lib.paper(pid).title == "ϵ-greedy exits at $5"
    lib.set_title(pid, "A {B} of \\(x_1^{2}\\) in C#")
    assert lib.paper(pid).title == "A {B} of x₁² in C#"
    assert lib.search("greedy").ids == []  # the old title's words are gone from the index


def test_whole_neurips_corpus(empty_lib):
    (summary,) = empty_lib.import_files([corpus("neurips_1987_2018.jsonl.gz")])
    assert summary.added == 8263
    assert empty_lib.index.doc_count() == 8263
    assert len(empty_lib.search("backgammon").ids) >= 1
    again = Library.open(empty_lib.data_dir)
    assert again.counts()["all"] == 8263
    again.close()


def test_counts_follow_state_changes(lib):
    ids = lib.search("").ids
    lib.set_state(ids[:3], "read")
    lib.set_state(ids[3:5], "skimmed")
    assert lib.counts() == {
        "unread": 14,
        "queued": 0,
        "skimmed": 2,
        "read": 3,
        "skipped": 0,
        "all": 19,
        "triaged": 5,
        "untriaged": 14,
    }
    lib.restore_states({ids[0]: "unread", ids[3]: "read"})
    assert lib.counts() == {
        "unread": 15,
        "queued": 0,
        "skimmed": 1,
        "read": 3,
        "skipped": 0,
        "all": 19,
        "triaged": 4,
        "untriaged": 15,
    }


def test_a_citation_key_another_paper_has_is_renamed_and_the_import_says_so(empty_lib, tmp_path):
    """Two entries keyed Rich:83 (a trial's legacy file) became Rich:83 and rich1983default without a word:
    a \\cite{Rich:83} in the user's LaTeX would find one of them."""
    f = tmp_path / "legacy.bib"
    f.write_text(
        "@book{Rich:83, title={Artificial Intelligence}, author={Rich, Elaine}, year={1983}}\n"
        "@article{Rich:83, title={Default Reasoning as Likelihood Reasoning}, author={Rich, Elaine}, year={1983}}\n"
        "@article{Other:90, title={Something Else Entirely}, author={Doe, Jane}, year={1990}}\n"
    )
    (summary,) = empty_lib.import_files([f])
    assert summary.added == 3
    (warning,) = [w for w in summary.warnings if "citation key" in w]
    assert warning.startswith("legacy.bib: 1 entry could not keep its citation key (another paper has it, or")
    assert "Rich:83 → rich1983default" in warning, warning
    keys = empty_lib.store.citation_keys(empty_lib.search("").ids)
    assert sorted(keys.values()) == ["Other:90", "Rich:83", "rich1983default"]


@pytest.mark.parametrize(
    ("query", "want"),
    [
        ("tag:theory", "tag:pg-theory"),
        ('TAG:Theory  diffusion "exact words"', 'TAG:pg-theory  diffusion "exact words"'),
        ('tag:"theory" OR tags:#theory', 'tag:"pg-theory" OR tags:pg-theory'),
        ("a OR (b AND NOT tag:theory)", "a OR (b AND NOT tag:pg-theory)"),
        ("-tag:theory tag:theoryx", "-tag:pg-theory tag:theoryx"),  # another tag that starts so stays
        ("tag:(theory OR rl) tag:theory^2", "tag:(pg-theory OR rl) tag:pg-theory^2"),
        ('title:"tag:theory" theory tag:theo*', 'title:"tag:theory" theory tag:theo*'),  # no tag: term of it
        ("tag:(ml -theory) tag:=theory", "tag:(ml -pg-theory) tag:=pg-theory"),  # its NOT stays a NOT (a review)
    ],
)
def test_retag_query_renames_only_the_tag_terms_and_keeps_the_rest_as_typed(query, want):
    from readinglist.index.query import retag_query

    assert retag_query(query, "Theory", "pg-theory") == want


def test_retag_query_quotes_a_name_that_needs_it():
    from readinglist.index.query import retag_query

    assert retag_query("tag:theory x", "theory", "policy gradient") == 'tag:"policy gradient" x'
    assert retag_query('tag:"two words" x', "Two Words", "AND") == 'tag:"AND" x'


def test_a_tag_renamed_or_merged_takes_the_lists_whose_query_names_it(lib):
    """A list whose query had `tag:theory` showed nothing once the tag was renamed (a user trial); a list
    saved with the tag as its filter followed. Now both do, a name the query gave follows too, a name the user
    typed stays, and the undo (unretag_lists) puts each back as it was."""
    a, b = lib.search("").ids[:2]
    lib.add_tags([a], ["theory"])
    lib.add_tags([b], ["pg-theory"])
    auto = lib.add_smart_list("tag:theory", "tag:theory")
    typed = lib.add_smart_list("Theory papers", 'NOT state:skipped (tag:"Theory" OR tag:pg-theory)')
    other = lib.add_smart_list("tag:rl", "tag:rl")
    before = lib.smart_lists()
    lib.set_tags(lib.plan_rename_tag("theory", "pg-theory"))  # a merge, as the window does it
    changed = lib.retag_lists("theory", "pg-theory")
    assert [(sl.id, sl.name, sl.query) for sl in lib.smart_lists()] == [
        (auto.id, "tag:pg-theory", "tag:pg-theory"),
        (typed.id, "Theory papers", 'NOT state:skipped (tag:"pg-theory" OR tag:pg-theory)'),
        (other.id, "tag:rl", "tag:rl"),
    ]
    assert lib.list_count(lib.smart_lists()[0]) == 2
    assert lib.unretag_lists(changed) and lib.smart_lists() == before
    lib.rename_tag("theory", "Theories")  # the library's own rename takes the lists along too
    assert [sl.query for sl in lib.smart_lists()][:1] == ["tag:Theories"]


def test_a_list_named_by_its_query_keeps_its_name_when_another_list_has_the_new_one(lib):
    lib.add_tags(lib.search("").ids[:1], ["theory"])
    first = lib.add_smart_list("tag:theory", "tag:theory")
    lib.add_smart_list("tag:pg-theory", "tag:pg-theory")
    lib.rename_tag("theory", "pg-theory")
    assert [(sl.name, sl.query) for sl in lib.smart_lists()] == [
        ("tag:theory", "tag:pg-theory"),
        ("tag:pg-theory", "tag:pg-theory"),
    ]
    assert lib.smart_lists()[0].id == first.id


def test_a_tag_merged_into_one_typed_in_lower_case_keeps_that_tags_spelling(lib):
    # merging "the" into "rl" while the library has "RL" respelt the five RL papers "rl" (a trial); a name typed
    # all in lower case takes the library's spelling, as the tag editor gives it. A rename of the tag itself
    # keeps the case typed, and capitals typed on purpose are kept
    ids = lib.search("").ids[:4]
    lib.add_tags(ids[:3], ["RL"])
    lib.add_tags([ids[3]], ["the"])
    assert lib.rename_target("the", "rl") == "RL" and lib.rename_target("the", "  rl ") == "RL"
    before = lib.rename_tag("the", "rl")
    assert lib.tag_counts() == [("RL", 4)]
    lib.set_tags(before)  # undo
    assert lib.tag_counts() == [("RL", 3), ("the", 1)]
    assert lib.rename_target("RL", "rl") == "rl"  # the tag itself respelt, as typed
    assert lib.rename_target("the", "Rl") == "Rl"  # capitals typed on purpose
    assert lib.rename_target("the", "new name") == "new name"
