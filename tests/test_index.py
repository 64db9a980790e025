import json
import shutil
from itertools import pairwise

import pytest
from conftest import library_of

from readinglist.library import Library
from readinglist.papers import QueryError


def titles(lib, query, **kw):
    return [p.title for p in lib.papers(lib.search(query, **kw).ids)]


def test_stemming_and_latex_decoded_text_is_found(lib):
    assert lib.search("self-feedback").ids  # \emph{self-feedback} in the abstract
    assert len(lib.search("learn").ids) >= len(lib.search("learning").ids) > 0


def test_title_outranks_abstract(empty_lib, tmp_path):
    f = tmp_path / "t.jsonl"
    f.write_text(
        json.dumps({"title": "Other things", "abstract": "We talk about a widget once here."})
        + "\n"
        + json.dumps({"title": "The widget paper", "abstract": "Nothing else to see."})
        + "\n"
    )
    empty_lib.import_files([f])
    assert titles(empty_lib, "widget")[0] == "The widget paper"


def test_fields_phrases_prefix_fuzzy_boolean(lib):
    assert len(lib.search('"early exit"').ids) == 1
    assert lib.search("reinforc*").ids
    assert lib.search("reinforcment~").ids  # one typo
    both = set(lib.search("diffusion OR hallucination").ids)
    assert set(lib.search("diffusion").ids) | set(lib.search("hallucination").ids) == both
    none = set(lib.search("learning NOT diffusion").ids)
    assert not none & set(lib.search("diffusion").ids)
    assert lib.search("venue:icml").ids and not lib.search("venue:neurips").ids
    assert len(lib.search("year:2020..2030").ids) == 19 and not lib.search("year:1990..2000").ids
    assert len(lib.search("year:2026..").ids) == 19 and len(lib.search("year:..2026").ids) == 19  # open ends
    assert not lib.search("year:..2025").ids and not lib.search("year:2027..").ids
    assert lib.search("abstract:MuJoCo").ids
    assert lib.search("title:BEXA").ids


def test_a_comparison_sign_pasted_from_an_abstract_is_text(lib):
    """ "<50 F1" (copied from an abstract) was Whoosh's comparison with no field: "cannot read that query
    (list index out of range)", in the window and on the command line (a new user's trial)."""
    for pasted in ("<50 F1", "< 1%", ">=5 points"):
        lib.search(pasted)  # no QueryError
    assert lib.search("<50 F1").ids and lib.search("<50 F1").ids == lib.search("50 F1").ids
    assert len(lib.search("year:>=2026").ids) == 19 and not lib.search("year:<2026").ids  # a field's: a comparison


def test_latex_typed_as_the_abstract_has_it_is_searched_as_shown(lib):
    """`\\ell_2` found nothing where `l2` found the paper whose abstract has `$\\ell_2$ norms` (a new user's trial)."""
    found = lib.search("l2 norms").ids
    assert found and lib.search("\\ell_2 norms").ids == found == lib.search("$\\ell_2$ norms").ids
    assert lib.search("\\emph").unknown == ["emph"]  # a command that is no symbol, or one being typed: its letters


def test_a_notes_words_between_markdown_stars_are_found(lib):
    """Whoosh's word pattern keeps a star inside a word: "*hierarchy*" was indexed as itself, and
    `note:hierarchy` found nothing (found by a new user's trial)."""
    pid = lib.search("BEXA").ids[0]
    lib.set_note(pid, "Uses **memory-based** RL with a *hierarchy*.\n- compare *x*y with ***both***")
    for query in ("note:hierarchy", "hierarchy", 'note:"memory-based"', "note:memory", "note:both"):
        assert lib.search(query).ids == [pid], query


def test_notes_indexed_with_their_stars_are_indexed_again(tmp_path, monkeypatch):
    from readinglist.index import schema
    from readinglist.store import Store

    lib = Library.open(tmp_path / "data")
    pid = lib.search("BEXA").ids[0]
    with monkeypatch.context() as m:
        m.setattr(schema, "note_text", lambda note: note)  # as an earlier version indexed notes
        lib.set_note(pid, "a *hierarchy* of exits")
        lib.sync_index()
        assert not lib.search("note:hierarchy").ids
    lib.close()
    store = Store(tmp_path / "data" / "library.db")
    store.db.execute("DELETE FROM schema_migrations WHERE name = '0019_note_words'")
    store.db.commit()
    store.close()
    lib = Library.open(tmp_path / "data")
    try:
        assert lib.search("note:hierarchy").ids == [pid]
    finally:
        lib.close()


def test_tag_note_state_fields_follow_annotations(lib):
    pid = lib.search("BEXA").ids[0]
    lib.add_tags([pid], ["Deep RL"])
    lib.set_note(pid, "check the amortised solver")
    lib.set_state([pid], "skimmed")
    assert lib.search('tag:"deep rl"').ids == [pid]
    assert lib.search("note:solver").ids == [pid]
    assert lib.search("state:skimmed").ids == [pid]
    assert pid in lib.search("solver").ids  # the default search covers notes
    assert lib.search("", state="skimmed").ids == [pid]
    assert lib.search("exit", tag="deep rl").ids == [pid]
    # one document changed, none duplicated
    assert lib.index.doc_count() == 19


def test_query_errors_are_clear(lib):
    with pytest.raises(QueryError, match="unknown field"):
        lib.search("colour:red")
    with pytest.raises(QueryError, match="state:"):
        lib.search("state:done")
    assert lib.search('"early exit').ids  # an unbalanced quote is closed, not an error


@pytest.mark.parametrize("typed", ["exit title:", "exit (title:", "exit author: ", "Title: exit", "exit TAG:"])
def test_a_field_named_with_nothing_after_it_is_no_word(lib, typed):
    # "diffusion (title:" searched the word "title" (a trial): while a field is being typed, the rest is searched
    found, exit_ = lib.search(typed), lib.search("exit")
    assert found.ids == exit_.ids != [] and not found.partial and found.word_count == exit_.word_count
    with pytest.raises(QueryError, match="year:"):
        lib.search("exit year: 2020")  # (a year given apart from its field is said, as before)


def test_a_field_name_inside_a_quoted_phrase_stays_a_word(lib):
    from readinglist.index.query import preprocess

    assert preprocess('"Beyond the Title: Generating Captions"') == '"Beyond the Title: Generating Captions"'
    assert preprocess('"a note: on x" title:') == '"a note: on x"  '


@pytest.mark.parametrize("damage", ["missing", "schema", "corrupt", "stale"])
def test_index_rebuilds_or_catches_up(data_dir, damage):
    messages = []
    lib = Library.open(data_dir)
    pid = lib.search("BEXA").ids[0]
    lib.close()
    folder = data_dir / "index"
    if damage == "missing":
        shutil.rmtree(folder)
    elif damage == "schema":
        state = json.loads((folder / "readinglist-index.json").read_text())
        (folder / "readinglist-index.json").write_text(json.dumps({**state, "schema": "old"}))
    elif damage == "corrupt":
        for f in folder.glob("*.seg"):
            f.write_bytes(b"garbage")
        for f in folder.glob("_MAIN_*.toc"):
            f.write_bytes(b"garbage")
    else:  # a change made while the index was not updated (a crash between the two writes)
        from readinglist.store import Store

        s = Store(data_dir / "library.db")
        s.add_tags([pid], ["offline"])
        s.close()
    lib = Library.open(data_dir, notify=messages.append)
    assert lib.search("BEXA").ids == [pid]
    assert lib.index.doc_count() == 19
    if damage == "stale":
        assert lib.search("tag:offline").ids == [pid]
    elif damage != "missing":
        assert messages  # the user was told why the index was rebuilt
    lib.close()


def test_related_papers(lib):
    pid = lib.search("hallucination").ids[0]
    related = lib.related(pid)
    assert 0 < len(related) <= 5 and pid not in related


def test_a_paper_sharing_one_key_word_is_not_related(tmp_path):
    """In a mixed library a paper on trauma warnings was "related" to one on planning by the one word
    "decisions" (a trial): a related paper shares two of the paper's key words at least."""
    from conftest import library_of

    rows = [
        {"title": "Planning under uncertainty", "abstract": "Sequential decisions by a planner: planning horizons, "
         "rollouts and value estimates for planning agents."},
        {"title": "Rollout planners", "abstract": "Planning with rollouts: a planner estimates values."},
        {"title": "Trigger warnings", "abstract": "Readers' decisions after trigger warnings in trauma studies."},
        *[{"title": f"Filler {i}", "abstract": f"Graph kernels and spectra {i}."} for i in range(8)],
    ]  # fmt: skip
    lib = library_of(tmp_path, rows, "mixed")
    try:
        [planning] = lib.search('title:"planning under uncertainty"').ids
        assert [p.title for p in lib.papers(lib.related(planning))] == ["Rollout planners"]
    finally:
        lib.close()


def test_related_papers_give_way_to_a_search(lib):
    import threading

    pid = lib.search("hallucination").ids[0]
    stop = threading.Event()
    stop.set()  # a search started: the courtesy search stops and returns nothing
    assert lib.related(pid, cancel=stop) == []
    assert lib.related(pid, cancel=threading.Event())  # left alone it finds them


def test_edits_write_small_segments_and_merge_them_by_size_class(lib):
    from readinglist.index.engine import MERGE_FACTOR, MERGE_LIMITS

    assert lib.index.ix is not None
    big = max(seg.doc_count_all() for seg in lib.index.ix._segments())
    ids = lib.search("").ids
    counts = []
    edits = MERGE_FACTOR * MERGE_FACTOR
    assert len(ids) >= edits
    for i in range(edits):
        lib.set_state([ids[i]], "read")
        counts.append(sorted(seg.doc_count_all() for seg in lib.index.ix._segments()))
    steps = [len(b) - len(a) for a, b in pairwise(counts)]
    assert steps.count(1) >= len(steps) // 2  # most edits just add their own one-paper segment
    assert any(step < 0 for step in steps)  # now and then a size class is merged
    for limit in MERGE_LIMITS:  # never MERGE_FACTOR segments left in one size class
        assert len([n for n in counts[-1] if n < limit]) < MERGE_FACTOR
    assert max(counts[-1]) >= big  # the bundled corpus's segment was not rewritten for an edit
    assert set(lib.search("state:read").ids) == set(ids[:edits])  # nothing lost in merging


@pytest.mark.parametrize("scanned", [32, 0])  # each paper looked for by a scan of the column; many at once
def test_a_papers_document_is_replaced_and_removed_by_its_pid_across_segments(lib, monkeypatch, scanned):
    """No unique id term since schema 12: a paper's earlier document is found by the pid column, in
    whichever segment it lies (the bundled corpus's, or an edit's own), and only that paper's is deleted."""
    from readinglist.index import engine

    monkeypatch.setattr(engine, "SCANNED_PIDS", scanned)
    ids = lib.search("").ids
    a, b, c = ids[:3]
    for word in ("zebra", "yacht", "xylophone"):  # each edit a small segment of its own, over the big one
        for pid in (a, b):
            lib.set_note(pid, f"quillwort{pid} {word}")
    assert lib.index.doc_count() == len(ids)  # replaced, never duplicated
    for pid in (a, b):
        assert lib.search(f"quillwort{pid}").ids == [pid]
    assert set(lib.search("note:xylophone").ids) == {a, b}
    assert not lib.search("note:zebra").ids and not lib.search("note:yacht").ids
    lib.remove([b, c])
    lib.flush_index()
    assert lib.index.doc_count() == len(ids) - 2
    assert lib.search(f"quillwort{a}").ids == [a] and not lib.search(f"quillwort{b}").ids
    assert set(lib.search("").ids) == set(ids) - {b, c}
    text = lib.paper(a).abstract
    assert lib.index.more_like(a, text) and a not in lib.index.more_like(a, text)  # older documents deleted
    assert lib.index.more_like(b, text) == []  # its document deleted: no paper to be like
    assert "id" not in lib.index.schema.names()


def test_a_query_that_means_the_same_is_not_searched_again(lib, monkeypatch):
    first = lib.search('"early exit')  # still typing: the phrase is read as if closed
    calls = []
    real = lib.index._ranker.evaluate
    monkeypatch.setattr(lib.index._ranker, "evaluate", lambda *a, **k: calls.append(a) or real(*a, **k))
    closed = lib.search('"early exit"')
    assert closed.ids == first.ids and closed.query == '"early exit"' and not calls
    assert lib.search('"early exit" ').ids == first.ids and not calls
    lib.search('"early exit" model')
    assert calls  # a different query is searched


def test_title_lengths_are_read_for_documents_in_every_segment(lib):
    """Ranker.field_lengths (what tells a title that is the query) maps each searcher-wide docnum to its
    segment's length column: the same lengths as Whoosh's own per-document reads, in segments past the first."""
    from readinglist.index.ranking import Ranker

    ids = lib.search("").ids
    for n, pid in enumerate(ids[:3]):  # each edit a small segment of its own, after the corpus's
        lib.set_title(pid, " ".join(["quillwort"] * (n + 2)))
    lib.flush_index()
    with lib.index.ix.searcher() as searcher:
        assert len(list(searcher.leaf_searchers())) > 1
        docs = [d for d in range(searcher.doc_count_all()) if not searcher.reader().is_deleted(d)]
        lengths = Ranker(searcher).field_lengths("title", docs)
        assert lengths == {d: searcher.reader().doc_field_length(d, "title", 0) for d in docs}
        assert sorted(lengths.values()).count(2) >= 1 and 4 in lengths.values()


@pytest.mark.parametrize(
    ("title", "second", "length", "typed"),
    [
        ("Schrödinger Bridges for Müller", "mueller", 4, "schroedinger bridges for mueller"),
        ("Bounds on t_mix for walks", "mix", 5, "bounds on t_mix for walks"),
    ],
)
def test_a_word_held_twice_shares_its_place_in_the_fields_length(lib, title, second, length, typed):
    """Müller is held as "muller" and "mueller" at one place, "t_mix" as "tmix" and "mix": the title's length
    counts the place once, as BM25 and "the title is the query" (its length equals the query's words) read it."""
    pid = lib.search("").ids[0]
    lib.set_title(pid, title)
    lib.flush_index()
    with lib.index.ix.searcher() as searcher:
        (docnum,) = [d for d in searcher.postings("title", second).all_ids() if not searcher.reader().is_deleted(d)]
        assert searcher.reader().doc_field_length(docnum, "title", 0) == length
    assert titles(lib, typed)[0] == title


MARKED = [
    {"title": "Patch tokens", "abstract": "A M\u0332ask token is placed over each patch before decoding."},
    {"title": "Mixing by the gap", "abstract": "We bound the mixing time $t_{\\mathrm{mix}}$ by the spectral gap."},
    {"title": "Cutoff of walks", "abstract": "The relaxation time $t_{mix}$ and the cutoff of random walks."},
    {"title": "Graph families", "abstract": "We report t_mix for every graph family considered here."},
    {"title": "Held-out loss", "abstract": "Given samples $x_{train}$ we fit the model and report its loss."},
    {"title": "Mask tokens", "abstract": "Each token is masked with some probability."},
    {"title": "Filler", "abstract": "Nothing to do with any of the other papers at all."},
]


def test_a_word_with_a_mark_nfc_cannot_compose_is_found_and_highlighted(tmp_path):
    """ "M\u0332ask" (an underlined M) was indexed as "m" and "ask": "mask" found nothing. Typed plain or
    with the mark, it finds the paper, and the word shows highlighted whole."""
    from readinglist.markup import to_html

    lib = library_of(tmp_path, MARKED)
    try:
        for query in ("mask", "M\u0332ask", "Mask token", '"mask token"'):
            assert "Patch tokens" in titles(lib, query), query
        abstract = MARKED[0]["abstract"]
        shown = to_html(abstract, lib.highlighter(lib.search("mask").terms))
        assert '<span style="background-color:#ffd54f;color:#000">M\u0332ask</span>' in shown
        shown = to_html(abstract, lib.highlighter(lib.search('"mask token"').terms))
        assert '<span style="background-color:#ffd54f;color:#000">M\u0332ask token</span>' in shown
    finally:
        lib.close()


def test_a_subscript_is_found_joined_as_typed_and_by_its_part(tmp_path):
    """$t_{\\mathrm{mix}}$ (plain text "t_mix"), $t_{mix}$ ("t_(mix)") and a plain t_mix are one word, found
    however it is typed (as LaTeX too: "$t_{\\mathrm{mix}}$" was "t_{mix}", two words); the part "mix" finds
    them as well (it found none: "tmix" alone was held, or "t" and "mix" apart), and shows highlighted in it."""
    from readinglist.index.query import preprocess
    from readinglist.markup import highlight_text

    lib = library_of(tmp_path, MARKED)
    subscripted = {"Mixing by the gap", "Cutoff of walks", "Graph families"}
    try:
        for query in ("t_mix", "tmix", "t_{mix}", "$t_{\\mathrm{mix}}$", "t_{\\mathrm{mix}}", "$t_{mix}$"):
            assert set(titles(lib, query)) == subscripted, query
        assert subscripted <= set(titles(lib, "mix"))
        assert titles(lib, "mix report") == ["Graph families"]  # the part is a word of the abstract's
        assert titles(lib, '"mixing time t_mix"') == ["Mixing by the gap"]  # a phrase holding the joined word
        for query in ("x_train", "x_{train}", "$x_{train}$", "xtrain", "train samples"):
            assert titles(lib, query) == ["Held-out loss"], query
        assert preprocess("from $5 to $10, x_{i,j}") == "from $5 to $10, x_{i,j}"  # prices; no one word
        mark = '<span style="background-color:#ffd54f;color:#000">{}</span>'
        text = "We report t_mix for every graph"
        assert mark.format("mix") in highlight_text(text, lib.highlighter(lib.search("mix").terms))
        assert mark.format("t_mix") in highlight_text(text, lib.highlighter(lib.search("t_mix").terms))
        assert mark.format("t_mix") not in highlight_text(text, lib.highlighter(lib.search("mix").terms))
    finally:
        lib.close()


def test_an_index_of_schema_15_is_rebuilt_and_finds_the_words_it_split(tmp_path, monkeypatch):
    """An index written before words kept their marks and subscripts their parts (schema 15) is made by
    another version: the library rebuilds it when it opens (the window does so on a worker), and then finds
    what the old one could not."""
    from readinglist.index import analysis, schema

    with monkeypatch.context() as m:  # the index as schema 15 left it: Whoosh's word pattern, no parts
        m.setattr(schema, "SCHEMA_VERSION", 15)
        m.setattr(analysis, "_WORDS", analysis._PLAIN_WORDS)
        m.setattr(analysis.WordAnalyzer, "expression", analysis._PLAIN_WORDS)
        m.setattr(analysis, "subscript_parts", lambda word: ())
        lib = library_of(tmp_path, MARKED)
        assert "Patch tokens" not in titles(lib, "mask") and "Graph families" not in titles(lib, "mix")
        lib.close()
    messages: list[str] = []
    lib = Library.open(tmp_path / "lib", notify=messages.append)
    try:
        assert any("rebuilding" in message for message in messages), messages
        assert "Patch tokens" in titles(lib, "mask") and "Graph families" in titles(lib, "mix")
    finally:
        lib.close()
