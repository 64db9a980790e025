"""Search that finds what a researcher types (issue 11) and costs what it should (issue 13, point 6)."""

from __future__ import annotations

import json

import pytest
from conftest import library_of

from readinglist.library import Library
from readinglist.papers import QueryError

PAPERS = [
    {
        "title": "Attention is All you Need",
        "authors": ["Ashish Vaswani", "Noam Shazeer"],
        "abstract": "The dominant sequence transduction models are based on complex recurrent or convolutional "
        "networks. We propose a new simple network architecture, the Transformer, based solely on "
        "attention mechanisms.",
    },
    {
        "title": "Binary Coding in Auditory Cortex",
        "authors": ["Michael DeWeese", "Anthony Zador"],
        "abstract": "Cortical neurons have been reported to use both rate and temporal codes.",
    },
    {
        "title": "You Only Look Once: Unified, Real-Time Object Detection",
        "authors": ["Joseph Redmon"],
        "abstract": "We present YOLO, a new approach to object detection.",
    },
    {
        "title": "To Be or Not To Be: Deciding When to Stop",
        "authors": ["Carla Quinn"],
        "abstract": "Whether an agent should stop, and when it need not.",
    },
    {"title": "What is the Question?", "authors": ["Dana Reed"], "abstract": "Questions about questions."},
    {
        "title": "Learning to Learn by Gradient Descent by Gradient Descent",
        "authors": ["Marcin Andrychowicz"],
        "abstract": "The move from hand-designed features to learned features has been wildly successful.",
    },
    {
        "title": "Multi-Agent Reinforcement Learning via Double Averaging",
        "authors": ["Wai To", "Hoi-To Wai"],
        "abstract": "We consider multi-agent reinforcement learning with a learner per agent.",
    },
    {
        "title": "Spatial Transformer Networks",
        "authors": ["Max Jaderberg"],
        "abstract": "A learnable module that explicitly allows the spatial manipulation of data within the network.",
    },
    {
        "title": "Adaptive Transform Coding",
        "authors": ["Cynthia Archer"],
        "abstract": "Coding with a transform adapted to the data; the transform is learned.",
    },
    {
        "title": r"Sparse $\ell_1$-regression",
        "authors": ["Rita Ell"],
        "abstract": r"We study $\ell_1$-regression: robust fitting under the $\ell_1$ loss.",
    },
    {
        "title": "Budgeted exits for fast inference",
        "authors": ["Ann Exit"],
        "abstract": "An early exit lets a network stop. Exits cost nothing; we exit when sure, early or late.",
    },
    {"title": "Late fusion", "authors": ["A. Smith"], "abstract": "Early fusion and a late exit are compared."},
]
FILLER = [  # papers that make "convolution" a common word and "convolutoin" a rare slip of it
    {
        "title": f"Filler paper {i}",
        "authors": ["Filler Author"],
        "abstract": "A convolution layer, then another convolution." + (" A convolutoin too." if i == 0 else ""),
    }
    for i in range(32)
]


@pytest.fixture
def library(tmp_path):
    lib = library_of(tmp_path, PAPERS + FILLER, "data")
    yield lib
    lib.close()


def titles(lib, text, **kw):
    return [p.title for p in lib.papers(lib.search(text, **kw).ids)]


def plain(title: str) -> str:
    return " ".join("".join(c if c.isalnum() else " " for c in title.lower()).split())


# ---- 1. every word means the same in every field; pasted titles ----


@pytest.mark.parametrize("paper", [p for p in PAPERS if "$" not in p["title"]], ids=lambda p: p["title"][:30])
def test_a_pasted_title_in_any_case_with_or_without_punctuation_finds_its_paper_first(library, paper):
    assert titles(library, paper["title"])[0] == paper["title"]
    assert titles(library, plain(paper["title"]))[0] == paper["title"]
    assert titles(library, paper["title"].upper())[0] == paper["title"]


def test_stop_words_need_no_author_to_match(library):
    """They were dropped from titles and abstracts but not from authors, so `learning to learn` found only
    papers by an author named To, and `a` only authors with the initial A."""
    assert titles(library, "learning to learn")[0] == "Learning to Learn by Gradient Descent by Gradient Descent"
    found = titles(library, "a")
    assert len(found) > 2 and "Spatial Transformer Networks" in found  # "a" in its abstract; no author A.


@pytest.mark.parametrize("text, first", [("to be or not to be", "To Be or Not To Be: Deciding When to Stop"),
                                         ("what is", "What is the Question?")])  # fmt: skip
def test_a_query_of_stop_words_finds_the_papers_that_have_them(library, text, first):
    result = library.search(text)
    assert titles(library, text)[0] == first and not result.partial


# ---- 2. closest matches when no paper has every word ----


def test_when_no_paper_has_every_word_the_closest_matches_come_most_words_first(library):
    result = library.search("binary coding auditory cortex xyzzy")
    assert result.partial and result.unknown == ["xyzzy"]
    assert library.papers(result.ids[:1])[0].title == "Binary Coding in Auditory Cortex"
    assert result.word_count == 5 and result.matched[0] == 4
    assert result.matched == sorted(result.matched, reverse=True)


def test_more_words_matched_beat_a_higher_score_for_fewer(library):
    """ "early exit late" is in no paper whole: the paper with all three words apart beats the one whose
    title and abstract repeat two of them."""
    result = library.search("early fusion exit budgeted")
    assert result.partial
    counts = dict(zip([p.title for p in library.papers(result.ids)], result.matched, strict=True))
    assert counts["Late fusion"] == 3 and counts["Budgeted exits for fast inference"] == 3
    assert all(result.matched[i] >= result.matched[i + 1] for i in range(len(result.matched) - 1))


def _closest_library(tmp_path, papers: list[dict]) -> Library:
    common = "Generating images of networks trained on data, via a method."  # words many papers have
    filler = [{"title": f"Filler {i}", "abstract": common} for i in range(20)]
    return library_of(tmp_path, papers + filler, "closest")


def test_a_paper_one_word_short_that_fits_the_words_far_better_can_come_first(tmp_path):
    """ "Generating steganographic images via adversarial training": the paper about steganographic images,
    whose abstract never says "generating" or "via", comes before one that has every word but the rare one,
    once each in a longer abstract (it came after: more words matched always won)."""
    codes = [{"title": f"Codes {i}", "abstract": "Steganographic codes."} for i in range(6)]  # not a rare slip
    lib = _closest_library(tmp_path, [
        {"title": "A common recipe", "abstract": "Generating images via adversarial training is common in work "
                                                 "on networks; we study it on data, with a method of our own."},
        {"title": "Hidden notes", "abstract": "Steganographic images hide messages. We use adversarial training "
         "to make steganographic images; the steganographic images fool a steganalyser."},
        *codes,
    ])  # fmt: skip
    try:
        result = lib.search("Generating steganographic images via adversarial training")
        assert result.partial and not result.corrections
        found = lib.papers(result.ids)
        assert found[0].title == "Hidden notes"
        counts = dict(zip([p.title for p in found], result.matched, strict=True))
        assert counts["Hidden notes"] == 4 and counts["A common recipe"] == 5
        assert max(result.matched) == 5  # what the line under the field reports: the most words any paper has
    finally:
        lib.close()


def test_where_papers_have_every_word_the_strict_meaning_holds(library):
    result = library.search("spatial network")
    assert not result.partial and not result.matched
    assert titles(library, "spatial network") == ["Spatial Transformer Networks"]


# ---- 3. typos corrected from the library's own words ----


def test_a_misspelt_word_is_corrected_from_the_librarys_words(library):
    result = library.search("Spatial Transformr Networks")
    assert result.correction == "Spatial Transformer Networks"
    assert result.corrections == {"transformr": "transformer"}
    assert result.partial and library.papers(result.ids[:1])[0].title == "Spatial Transformer Networks"
    assert library.search("Attention is all you nead").correction == "Attention is all you need"


def test_a_rare_word_beside_a_common_neighbour_is_offered_a_correction_but_keeps_its_results(library):
    result = library.search("convolutoin")
    assert result.ids and not result.partial  # the one paper that has the slip
    assert result.correction == "convolution"


def test_words_that_are_in_the_library_are_not_corrected(library):
    for text in ("transform coding", "budgeted exits", "Zador"):
        assert library.search(text).correction is None, text


def test_fuzzy_terms_work_as_before(library):
    assert "Spatial Transformer Networks" in titles(library, "transformr~")


# ---- 4. exact forms ----


def test_the_form_typed_ranks_above_other_forms_of_its_stem(library):
    """ "Adaptive Transform Coding" says "transform" three times, Spatial Transformer Networks "transformer"
    once: for `transformer` the form typed comes first, for `transform` the other way round."""
    found = titles(library, "transformer")
    assert found.index("Spatial Transformer Networks") < found.index("Adaptive Transform Coding")
    assert found.index("Attention is All you Need") < found.index("Adaptive Transform Coding")
    found = titles(library, "transform")
    assert found[0] == "Adaptive Transform Coding" and "Spatial Transformer Networks" in found
    assert "Adaptive Transform Coding" in titles(library, "transformers")  # still every form of the stem


def test_a_quoted_phrase_or_an_equals_sign_matches_the_exact_form(library):
    with_the_word = {"Spatial Transformer Networks", "Attention is All you Need"}  # "…, the Transformer, …"
    assert set(titles(library, "=transformer")) == with_the_word
    assert set(titles(library, '"transformer"')) == with_the_word
    assert "Adaptive Transform Coding" in titles(library, "transformer")
    assert set(titles(library, "exit")) >= {"Budgeted exits for fast inference", "Late fusion"}
    assert titles(library, "=exits") == ["Budgeted exits for fast inference"]
    assert titles(library, '"early exit"') == ["Budgeted exits for fast inference"]


def test_a_phrase_highlights_the_phrase_not_its_words_alone(library):
    from readinglist import markup

    result = library.search('"early exit"')
    match = library.highlighter(result.terms)
    shown = markup.to_html("An early exit lets it stop; we exit late, or early.", match)
    mark = '<span style="background-color:#ffd54f;color:#000">'
    assert shown.count(mark) == 1 and f"{mark}early exit</span>" in shown
    words = library.highlighter(library.search("exit").terms)
    assert all(words(w) for w in ("exit", "exits", "Exit")) and not words("early")


# ---- 5. titles converted as abstracts are ----


def test_a_titles_math_is_shown_as_abstracts_show_it_and_found_as_typed(library):
    (paper,) = library.papers(library.search("l1 regression").ids[:1])
    assert paper.title == "Sparse ℓ₁-regression"
    assert titles(library, "ℓ₁-regression")[0] == "Sparse ℓ₁-regression"


def test_existing_libraries_get_their_math_titles_derived_again(tmp_path):
    import sqlite3

    from readinglist.store import Store

    f = tmp_path / "p.jsonl"
    f.write_text(json.dumps({"title": r"Sparse $\ell_1$-regression", "abstract": "x"}) + "\n")
    lib = Library.open(tmp_path / "data", seed=False)
    lib.import_files([f])
    lib.close()
    db = sqlite3.connect(tmp_path / "data" / "library.db")  # as an earlier version stored it
    db.execute("UPDATE papers SET auto_title = 'Sparse ℓ_1-regression'")
    db.execute("DELETE FROM schema_migrations WHERE name = '0011_titles_with_math'")
    db.commit()
    db.close()
    store = Store(tmp_path / "data" / "library.db")
    assert [p.title for p in store.papers(store.ordered_ids("added"))] == ["Sparse ℓ₁-regression"]
    store.close()


def test_a_misspelt_authors_name_is_corrected_from_the_names(library):
    """The spelling corrections come from the content words; `author:redmn` found nothing and offered
    nothing (a new user's trial), where a plain "redmn" was corrected."""
    result = library.search("author:redmn")
    assert result.correction == "author:redmon" and result.partial
    assert titles(library, "author:redmn") == ["You Only Look Once: Unified, Real-Time Object Detection"]
    assert library.search("author:jadrberg stop").correction == "author:jaderberg stop"  # with other words
    assert library.search("author:redmon").correction is None  # a name the library has: nothing to offer
    nothing = library.search("author:qqzzx convolution")  # a name no paper comes near, said of the names
    assert nothing.unknown == ["authors:qqzzx"] and "qqzzx" not in (nothing.correction or "")


NAMES = [  # a garbled import's names ("Abramson_D" is held as "abramsond", and its part "abramson") beside real ones
    {"title": "Timetables by annealing", "authors": ["Abramson_D"], "abstract": "School timetables, annealed."},
    {"title": "Parallel annealing", "authors": ["Abramson_D", "Dorigo_M"], "abstract": "Annealing in parallel."},
    {"title": "Slavic names", "authors": ["Nora Abramsonova"], "abstract": "Names and more names."},
    {"title": "Boltzmann machines", "authors": ["Geoffrey Hinton"], "abstract": "Machines that learn."},
    {"title": "Deep belief nets", "authors": ["G. Hinton", "Ruth Lerner"], "abstract": "Nets that learn beliefs."},
]


def test_a_name_no_paper_has_that_begins_real_names_finds_them_and_is_never_corrected(tmp_path):
    """A trial: in a garbled library `author:Abramson` was "corrected" to "Abramsond" (a letter added at the
    end weighs as a letter left out, the likeliest slip, and the one name one edit away won). A surname typed
    that begins the names papers have finds those papers, in the author field or as a plain word; a real
    typo is still corrected, and a plain word's likelier correction of the content words still wins. (Since
    a name joined by an underscore is held with its parts, "Abramson_D" is the name Abramson, as in a library
    that writes it so: `author:Abramson` finds it, and not the names it begins.)"""
    lib = library_of(tmp_path, NAMES)
    for text in ("author:abramso", "abramso", "author:Abramso"):
        result = lib.search(text)
        assert result.correction is None and not result.corrections and not result.unknown, text
        assert sorted(titles(lib, text)) == ["Parallel annealing", "Slavic names", "Timetables by annealing"]
        assert any("read as the start of an author's name" in note for note in result.notes)
    for text in ("author:Abramson", "Abramson"):
        result = lib.search(text)
        assert result.correction is None and not result.corrections and not result.unknown, text
        assert sorted(titles(lib, text)) == ["Parallel annealing", "Timetables by annealing"]
    assert lib.search("author:hinto").correction is None
    assert sorted(titles(lib, "author:hinto")) == ["Boltzmann machines", "Deep belief nets"]
    assert titles(lib, "author:abramson annealing") == ["Timetables by annealing", "Parallel annealing"]
    assert lib.search("author:hintn").correction == "author:hinton"  # a typo, not a name's start
    assert lib.search('author:"abramso"').ids == []  # a quoted name stays exact
    assert lib.search("lern").correction == "learn"  # a content word's slip, though "Lerner" begins so
    assert lib.search("author:ab").ids == []  # two letters begin too many names to mean one
    lib.close()
    real = library_of(tmp_path, [*NAMES, {"title": "Annealing again", "authors": ["David Abramson"]}], "real")
    assert real.search("author:abramsn").correction == "author:abramson"  # a typo of a name papers have
    # a name papers have means that name (Abramson_D's too), not the names it begins
    assert sorted(titles(real, "author:abramson")) == [
        "Annealing again",
        "Parallel annealing",
        "Timetables by annealing",
    ]
    real.close()


SMOLA = [  # a common name and rarer ones it begins: BM25's idf ranks a rarer name's papers higher
    *({"title": f"Kernel methods {i}", "authors": ["Alex Smola", "Bernhard Schoelkopf", "Arthur Gretton",
                                                   "Le Song"], "abstract": f"Kernels, part {i}."} for i in range(6)),
    {"title": "Harmonic grammars", "authors": ["Paul Smolensky"], "abstract": "Grammars of harmony."},
    {"title": "Tensor product representations", "authors": ["Paul Smolensky"], "abstract": "Tensors and kernels."},
    {"title": "Light fields", "authors": ["Aljosa Smolic"], "abstract": "Light fields for video, with kernels."},
    {"title": "Deep learning", "authors": ["Yoshua Bengio", "Aaron Courville"], "abstract": "Deep networks."},
    {"title": "Greedy layer-wise training", "authors": ["Yoshua Bengio", "Pascal Lamblin", "Dan Popovici",
                                                        "Hugo Larochelle"], "abstract": "Deep networks, greedily."},
    {"title": "Counterspeech", "authors": ["Bengisu Cagiltay"], "abstract": "Speech against speech."},
]  # fmt: skip


def test_a_name_read_as_a_start_ranks_the_commonest_name_it_begins_first(tmp_path):
    """A trial: author:smol put the first of Smola's papers 19th of 112 though 85 are his (Smolentsev,
    Smolensky, Smoljkic first), author:bengi Bengisu's 3 papers before Bengio's 191: the names it begins were
    scored by BM25, whose idf ranks the rarer name higher. The papers of the name most papers have come first,
    then the others' by how many papers each has; the note names it."""
    lib = library_of(tmp_path, SMOLA)
    smola = [f"Kernel methods {i}" for i in range(6)]
    assert titles(lib, "author:smol")[:6] == titles(lib, "author:smola")
    assert sorted(titles(lib, "author:smol")[:6]) == smola
    assert titles(lib, "author:smol")[6:] == ["Harmonic grammars", "Tensor product representations", "Light fields"]
    assert lib.search("author:smol").notes == ["“smol” read as the start of an author's name: “smola” first, "
                                               "then 2 other names."]  # fmt: skip
    assert titles(lib, "author:smol kernels")[-2:] == ["Tensor product representations", "Light fields"]
    assert titles(lib, "author:bengi")[-1] == "Counterspeech"
    assert titles(lib, "bengi")[-1] == "Counterspeech"  # a plain word read so too
    assert lib.search("author:bengis").notes == ["“bengis” read as the start of an author's name: “bengisu”."]
    lib.close()


def test_rank_keys_put_a_rarer_names_papers_after_the_commoner_names():
    """Index._name_ranks's ranks (0, the commonest name, left out) order the papers before BM25F does, as a
    word held in another form does, in a large result (arrays) as in a small one; in the closest matches of
    a pasted text (`fit`) all a name's ranks cost less than one word held in another form."""
    import numpy as np

    from readinglist.index.engine import CLOSEST_WORD_SHARE, STEM_ONLY_COST, rank_keys
    from readinglist.index.scores import ArrayScores, arrays

    scores = {0: 1.0, 1: 5.0, 2: 9.0, 3: 3.0}
    names = {1: 1, 2: 2}
    for found in (scores, ArrayScores(np.array([0, 1, 2, 3]), np.array([1.0, 5.0, 9.0, 3.0]))):
        keys = dict(zip(*(a.tolist() for a in arrays(rank_keys(found, [], {}, names=names))), strict=True))
        assert sorted(keys, key=lambda d: -keys[d]) == [3, 0, 1, 2]
    keys = dict(rank_keys(scores, [{3}], {}, names=names))  # (a word in another form counts as one rank)
    assert sorted(keys, key=lambda d: -keys[d]) == [0, 1, 3, 2]
    matched = dict.fromkeys(scores, 2)
    matched[2] = 3
    keys = dict(rank_keys(scores, [], matched, names=names))  # (closest matches: the number of words first)
    assert sorted(keys, key=lambda d: -keys[d]) == [2, 3, 0, 1]
    fit = dict(rank_keys(scores, [], dict.fromkeys(scores, 2), fit=True, names=names))
    cost = {d: 2 * 9.0 / CLOSEST_WORD_SHARE - (fit[d] - scores[d]) for d in scores}
    assert cost[0] == pytest.approx(0.0) and cost[3] == pytest.approx(0.0)
    assert 0 < cost[1] < cost[2] < 9.0 / CLOSEST_WORD_SHARE * STEM_ONLY_COST


def test_titles_with_tex_logos_are_derived_again(tmp_path):
    """pylatexenc drops \\TeX: "The {\\TeX book}" was imported as "The book" (a new user's trial)."""
    import sqlite3

    f = tmp_path / "p.bib"
    f.write_text("@book{knuth,title={The {\\TeX book}},author={Knuth, Donald},year={1984}}\n")
    lib = Library.open(tmp_path / "data", seed=False)
    lib.import_files([f])
    assert titles(lib, "texbook") == ["The TeXbook"]
    lib.close()
    db = sqlite3.connect(tmp_path / "data" / "library.db")  # as an earlier version stored it
    db.execute("UPDATE papers SET auto_title = 'The book'")
    db.execute("UPDATE paper_columns SET title_key = 'book'")
    db.execute("UPDATE paper_keys SET title_key = 'the book'")
    db.execute("DELETE FROM schema_migrations WHERE name = '0020_titles_with_latex'")
    db.commit()
    db.close()
    lib = Library.open(tmp_path / "data", seed=False)
    try:
        assert titles(lib, "texbook") == ["The TeXbook"]  # the index took the title again
        assert lib.papers(lib.search("").ids)[0].title == "The TeXbook"
        key = lib.store.db.execute("SELECT title_key FROM paper_columns").fetchone()[0]
        assert key != "book"
        again = tmp_path / "again.bib"  # the same book from another file: matched, not added twice
        again.write_text("@book{k2,title={The {\\TeX book}},author={Knuth, Donald},year={1984}}\n")
        lib.import_files([again])
        assert lib.store.count() == 1
    finally:
        lib.close()


def _title_read_again(tmp_path, f, want: str, stored: str, migration: str) -> None:
    """`f` imported gives the title `want`; a library an earlier version made, which stored `stored`, gets
    `want` from the migration, and importing `f` again still matches the paper (its keys follow)."""
    import sqlite3

    lib = Library.open(tmp_path / "data", seed=False)
    lib.import_files([f])
    assert lib.papers(lib.search("").ids)[0].title == want
    lib.close()
    db = sqlite3.connect(tmp_path / "data" / "library.db")  # as an earlier version stored it
    db.execute("UPDATE papers SET auto_title = ?", (stored,))
    db.execute("DELETE FROM schema_migrations WHERE name = ?", (migration,))
    db.commit()
    db.close()
    lib = Library.open(tmp_path / "data", seed=False)
    try:
        assert lib.papers(lib.search("").ids)[0].title == want
        [again] = lib.import_files([f])
        assert (again.added, lib.store.count()) == (0, 1)
    finally:
        lib.close()


def test_titles_with_scripts_are_derived_again(tmp_path):
    """A title's exponent lost its group: "$\\mathcal{O}(\\epsilon^{-4/7})$" read "𝒪(ϵ^-4/7)" (a trial). A library
    imported before keeps no such title: migration 0021 derives it again, and an import still matches it."""
    f = tmp_path / "p.bib"
    f.write_text(
        "@article{a,title={Rates of ${\\mathcal{O}}(\\epsilon^{-4/7})$ for smooth games},author={Doe, Jane},"
        "year={2025},abstract={We prove rates.}}\n"
    )
    want = "Rates of 𝒪(ϵ^(-4/7)) for smooth games"
    _title_read_again(tmp_path, f, want, "Rates of 𝒪(ϵ^-4/7) for smooth games", "0021_titles_with_scripts")


def test_a_title_with_a_tilde_sign_is_read_again(tmp_path):
    """ "~100 classes" read as a tie said "100 classes"; migration 0030 reads the stored titles again."""
    f = tmp_path / "p.csv"
    f.write_text('title,abstract\n"Learning ~100 classes from Table~1","We learn about 100 classes here."\n')
    want = "Learning ~100 classes from Table 1"
    _title_read_again(tmp_path, f, want, "Learning 100 classes from Table 1", "0030_tilde_as_written")


def test_a_backslash_and_hyphen_outside_a_word_is_read_again_as_written(tmp_path):
    """ "grep \\-v" read "grep v" (\\- taken for LaTeX's break point anywhere); migration 0035 reads the
    stored titles again."""
    f = tmp_path / "p.csv"
    f.write_text('title,abstract\n"Fast grep \\-v for long\\-lines","We search."\n')
    want = "Fast grep \\-v for longlines"
    _title_read_again(tmp_path, f, want, "Fast grep v for longlines", "0035_backslash_hyphen_as_written")


def test_an_abstract_with_a_backslash_and_hyphen_gets_its_match_key_and_revision_again(tmp_path):
    """Migration 0035's abstracts (a reviewer: only its titles were tested): an abstract holding "\\-" has its
    match key written again and a new revision, so that the index reads it again; one without is left alone."""
    import sqlite3

    f = tmp_path / "p.csv"
    f.write_text('title,abstract\n"Fast grep","We run grep \\-v over logs."\n"Plain","We search logs."\n')
    lib = Library.open(tmp_path / "data", seed=False)
    lib.import_files([f])
    lib.close()
    db = sqlite3.connect(tmp_path / "data" / "library.db")
    keys = dict(db.execute("SELECT p.title, k.text_key FROM papers p JOIN paper_keys k ON k.paper_id = p.id"))
    revs = dict(db.execute("SELECT title, rev FROM papers"))
    db.execute("UPDATE paper_keys SET text_key = 'as 0033 left it'")  # "\\-" dropped: another key
    db.execute("DELETE FROM schema_migrations WHERE name = '0035_backslash_hyphen_as_written'")
    db.commit()
    db.close()
    Library.open(tmp_path / "data", seed=False).close()
    db = sqlite3.connect(tmp_path / "data" / "library.db")
    after = dict(db.execute("SELECT p.title, k.text_key FROM papers p JOIN paper_keys k ON k.paper_id = p.id"))
    revs_after = dict(db.execute("SELECT title, rev FROM papers"))
    db.close()
    assert after == {"Fast grep": keys["Fast grep"], "Plain": "as 0033 left it"}
    assert revs_after["Fast grep"] > revs["Fast grep"] and revs_after["Plain"] == revs["Plain"]


def test_formulas_with_accents_and_an_authors_commands_are_read_again(tmp_path):
    """A title's \\widetilde{O} read O and an author's \\poly vanished, in titles and abstracts (a trial). A
    library imported before keeps those titles and match keys: migration 0031 reads the titles again, writes
    the abstracts' keys again and indexes both again, and an import of the file still matches the papers."""
    import sqlite3

    from readinglist.importers.duplicates import text_key, title_key

    words = " ".join(f"w{i}" for i in range(30))
    f = tmp_path / "p.jsonl"
    records = [{"title": r"Regret $\widetilde{O}(\poly(d)\sqrt{T})$ for bandits", "abstract": "Short."},
               {"title": "Bandits in polynomial time", "abstract": rf"In $\poly(d)$ time, {words}."}]  # fmt: skip
    f.write_text("".join(json.dumps(r) + "\n" for r in records))
    lib = Library.open(tmp_path / "data", seed=False)
    lib.import_files([f])
    ids = sorted(lib.search("").ids)
    assert lib.paper(ids[0]).title == "Regret Õ(poly(d)√(T)) for bandits"

    def stored() -> list[tuple]:
        return lib.store.db.execute(
            "SELECT p.auto_title, c.title_key, k.title_key, k.text_key FROM papers p JOIN paper_columns c"
            " ON c.paper_id = p.id JOIN paper_keys k ON k.paper_id = p.id ORDER BY p.id"
        ).fetchall()

    now, rev = stored(), lib.store.current_rev()
    lib.close()
    db = sqlite3.connect(tmp_path / "data" / "library.db")  # as an earlier version stored them
    old_title = "Regret O((d)√(T)) for bandits"
    db.execute("UPDATE papers SET auto_title = ? WHERE id = ?", (old_title, ids[0]))
    db.execute("UPDATE paper_columns SET title_key = 'regret o d t for bandits' WHERE paper_id = ?", (ids[0],))
    db.execute("UPDATE paper_keys SET title_key = ? WHERE paper_id = ?", (title_key(old_title), ids[0]))
    db.execute("UPDATE paper_keys SET text_key = ? WHERE paper_id = ?", (text_key(f"In (d) time, {words}."), ids[1]))
    db.execute("DELETE FROM schema_migrations WHERE name = '0031_math_accents_and_names'")
    db.commit()
    db.close()
    lib = Library.open(tmp_path / "data", seed=False)
    try:
        assert stored() == now and lib.paper(ids[0]).title == "Regret Õ(poly(d)√(T)) for bandits"
        assert all(r > rev for (r,) in lib.store.db.execute("SELECT rev FROM papers"))  # both indexed again
        assert sorted(lib.search("poly").ids) == ids
        [again] = lib.import_files([f])
        assert (again.added, lib.store.count()) == (0, 2)
    finally:
        lib.close()


def test_hyphen_commands_and_formula_fonts_are_read_again(tmp_path):
    """biblatex's \\hyphen showed as written and {\\cal X} as X, in titles, names and abstracts; the index
    held 𝒳 as "X". A library imported before keeps them: migration 0033 reads the titles and names again,
    writes the keys again and indexes the papers again, and an import of the file still matches them."""
    import sqlite3

    from readinglist.importers.duplicates import text_key, title_key

    words = " ".join(f"w{i}" for i in range(30))
    f = tmp_path / "p.jsonl"
    records = [{"title": r"Self\hyphen{}Supervised ${\cal X}$-$\mathsf{Attn}$", "abstract": "Short.",
                "authors": [r"Jean\nbhyphen Pierre Dupont"]},
               {"title": "Bounds on classes", "abstract": rf"On ${{\cal H}}$ and $\mathbb{{R}}$, {words}."},
               {"title": "Plain", "abstract": "Nothing to read again."},
               {"title": "Tagged", "abstract": "A tag."}, {"title": "Noted", "abstract": "A note."}]  # fmt: skip
    f.write_text("".join(json.dumps(r) + "\n" for r in records))
    lib = Library.open(tmp_path / "data", seed=False)
    lib.import_files([f])
    ids = sorted(lib.search("").ids)
    lib.add_tags([ids[3]], ["ℝ-valued"])
    lib.set_note(ids[4], "Over 𝔽₂.")
    assert lib.paper(ids[0]).title == "Self-Supervised 𝒳-𝖠𝗍𝗍𝗇" and lib.paper(ids[0]).authors == ["Jean-Pierre Dupont"]

    def stored() -> list[tuple]:
        return lib.store.db.execute(
            "SELECT p.auto_title, p.authors, c.title_key, c.authors_key, k.title_key, k.text_key FROM papers p"
            " JOIN paper_columns c ON c.paper_id = p.id JOIN paper_keys k ON k.paper_id = p.id ORDER BY p.id"
        ).fetchall()

    now, rev = stored(), lib.store.current_rev()
    lib.close()
    db = sqlite3.connect(tmp_path / "data" / "library.db")  # as an earlier version stored them
    old_title = "Self\\hyphenSupervised X-Attn"
    db.execute("UPDATE papers SET auto_title = ?, authors = ? WHERE id = ?",
               (old_title, json.dumps([r"Jean\nbhyphen Pierre Dupont"]), ids[0]))  # fmt: skip
    db.execute("UPDATE paper_columns SET title_key = ?, authors_key = 'jean' WHERE paper_id = ?", (old_title, ids[0]))
    db.execute("UPDATE paper_keys SET title_key = ? WHERE paper_id = ?", (title_key(old_title), ids[0]))
    db.execute("UPDATE paper_keys SET text_key = ? WHERE paper_id = ?", (text_key(f"On H and R, {words}."), ids[1]))
    db.execute("DELETE FROM schema_migrations WHERE name = '0033_hyphens_and_formula_fonts'")
    db.commit()
    db.close()
    lib = Library.open(tmp_path / "data", seed=False)
    try:
        assert stored() == now and lib.paper(ids[0]).title == "Self-Supervised 𝒳-𝖠𝗍𝗍𝗇"
        revs = [r for (r,) in lib.store.db.execute("SELECT rev FROM papers ORDER BY id")]
        assert revs[2] <= rev and all(r > rev for r in revs[:2] + revs[3:])  # all but the plain one indexed again
        assert lib.search("attn").ids == [ids[0]] and lib.search("author:jean-pierre").ids == [ids[0]]
        assert lib.search("tag:r-valued").ids == [ids[3]] and lib.search("note:f2").ids == [ids[4]]
        [again] = lib.import_files([f])
        assert (again.added, lib.store.count()) == (0, 5)
    finally:
        lib.close()


# ---- 7. tags as the CLI and the sidebar show them ----


def test_tag_accepts_what_the_cli_and_the_sidebar_show(library):
    from readinglist.cli import paper_line

    pid = library.search("Spatial Transformer Networks").ids[0]
    library.add_tags([pid], ["must read"])
    shown = paper_line(library.paper(pid), 120)
    assert "#must-read" in shown
    for text in ("tag:must-read", "tag:#must-read", 'tag:"must read"', 'tag:"Must Read"'):
        assert library.search(text).ids == [pid], text
    assert library.search("spatial", tag="must read").ids == [pid]  # the sidebar's filter


def test_a_tag_with_a_comma_is_one_tag(tmp_path):
    """A file's keyword kept whole ("Optimization, convex", braced in BibTeX) was two words in the index, cut
    at its comma: `tag:convex` found its paper, and the tag itself — typed, the sidebar's filter beside a query,
    a saved list of it with a query — found nothing. Each tag is one word; plain tags as before."""
    lib = library_of(
        tmp_path,
        [
            {"title": "Convex losses", "abstract": "Convexity of losses.", "keywords": ["Optimization, convex"]},
            {"title": "Convex splits", "abstract": "Convexity of losses.", "keywords": ["convex", "Optimization"]},
            {"title": "Plain losses", "abstract": "Convexity of losses.", "keywords": ["Learning", "to read"]},
        ],
    )
    try:
        assert titles(lib, "tag:convex") == titles(lib, "tag:optimization") == ["Convex splits"]
        # (the comma spaced as typed: a word typed holds no space, "tag:Optimization,convex"; a helper found it
        # found nothing)
        for typed in ('tag:"Optimization, convex"', 'tag:"optimization,  Convex"', "tag:#Optimization,-convex",
                      "tag:Optimization,convex"):  # fmt: skip
            assert titles(lib, typed) == ["Convex losses"], typed
        assert titles(lib, 'tag:"Optimization, convex" losses') == ["Convex losses"]
        assert titles(lib, "losses", tag="Optimization, convex") == ["Convex losses"]  # the sidebar's filter
        assert titles(lib, "", tag="Optimization, convex") == ["Convex losses"]  # (no query: from SQLite)
        listed = lib.add_smart_list("Convex", "losses", tag="Optimization, convex")
        assert [p.title for p in lib.papers(lib.search_list(listed).ids)] == ["Convex losses"]
        assert lib.list_count(listed) == 1
        assert titles(lib, "tag:learning") == titles(lib, 'tag:"to read"') == ["Plain losses"]
        assert titles(lib, "losses", tag="Learning") == ["Plain losses"]
        assert titles(lib, "tag:optimization OR tag:learning") == ["Convex splits", "Plain losses"]
        assert titles(lib, "learning,") == ["Plain losses"]  # a pasted word's comma is no part of a tag
    finally:
        lib.close()


# ---- issue 13, point 6: queries have a cost bound ----


@pytest.mark.parametrize("text, message", [("a~99", "at most 2"), ("transformer~3", "at most 2"),
                                           ("*", "no letters"), ("?*?*?*", "no letters"),
                                           ("title:*", "no letters")])  # fmt: skip
def test_unbounded_queries_get_a_clear_message(library, text, message):
    with pytest.raises(QueryError, match=message):
        library.search(text)


def test_a_prefix_matching_too_many_words_is_capped_with_a_note(library, monkeypatch):
    monkeypatch.setattr("readinglist.index.ranking.MAX_EXPANSION", 2)
    library.index.drop_caches()
    result = library.search("a*")
    assert result.ids and any("a*" in note and "most frequent" in note for note in result.notes)
    everything = library.search("a*", limit=None)
    assert everything.notes == result.notes
    monkeypatch.setattr("readinglist.index.ranking.MAX_EXPANSION", 10_000)
    library.index.drop_caches()
    uncapped = library.search("a*")
    assert not uncapped.notes and len(uncapped.ids) >= len(result.ids)


def test_a_leading_wildcard_finds_its_words(library):
    assert set(titles(library, "*former")) == {"Spatial Transformer Networks", "Attention is All you Need"}
    assert titles(library, "?inary") == ["Binary Coding in Auditory Cortex"]


def test_pasted_text_that_looks_like_syntax_is_read_as_text(library):
    assert titles(library, "BERT: attention mechanisms")[0] == "Attention is All you Need"  # no field "BERT:"
    assert titles(library, "the transformer, based solely on attention mechanisms (cid:2) = --")[0] == (
        "Attention is All you Need"
    )
    assert titles(library, "What is the Question?")[0] == "What is the Question?"  # "?" is no wildcard here
    with pytest.raises(QueryError, match="unknown field"):
        library.search("colour:red")  # a short query with an unknown field is still an error


def test_pasted_sentences_with_stray_syntax_are_searched(library):
    """Three slips of real abstracts (NeurIPS) that made a pasted sentence an error: a stray quote before a
    comma ('Fusion" (NF), samples …') made a phrase the tags field (no positions) could not search, once a
    paper had a tag; "w~" (a one-letter fuzzy word) broke Whoosh's automaton; "LRTA * to …" read the star
    as a wildcard with no letters."""
    library.add_tags(library.search("binary").ids[:1], ["vision"])
    library.flush_index()
    assert titles(library, '"binary, coding"')[0] == "Binary Coding in Auditory Cortex"
    assert titles(library, 'tag:"vision, robotics" coding') == []  # typed, it is one tag (no paper has it)
    assert titles(library, 'tag:"vision," coding') == ["Binary Coding in Auditory Cortex"]
    assert titles(library, "w~ transduction models")[0] == "Attention is All you Need"
    assert titles(library, "we apply the Transformer * based solely on attention mechanisms")[0] == (
        "Attention is All you Need"
    )
    with pytest.raises(QueryError, match="no letters"):
        library.search("attention *")  # typed, a lone star is still a question


def test_a_fuzzy_word_as_long_as_its_prefix_stays_fuzzy(tmp_path):
    """Only a fuzzy word shorter than the kept prefix (FUZZY_PREFIX letters) is searched as typed, since
    Whoosh's automaton fails below it; "gan~" is as long as the prefix and still finds "gans" and "gang"."""
    papers = [
        {"title": "Training GANs stably", "abstract": "Generative adversarial networks, GANs, are unstable."},
        {"title": "A gang of agents", "abstract": "Agents that act as a gang."},
        {"title": "Gains of boosting", "abstract": "Boosting gains accuracy."},
    ]
    lib = library_of(tmp_path, papers, "fuzzy")
    try:
        assert sorted(titles(lib, "gan~")) == ["A gang of agents", "Training GANs stably"]
        assert titles(lib, "ga~") == []  # shorter than the prefix: the word as typed, which no paper has
    finally:
        lib.close()


def test_what_was_read_of_a_segment_merged_away_is_forgotten(library):
    """The typo vocabulary's per-segment caches (bounded by count, not size) held merged-away segments'
    lexicons and words beside their successor's: a 94k library's big segment is ~20 MB of them."""
    from readinglist.index import vocabulary

    ids = library.search("").ids
    ours: set[str] = set()  # this library's segments, ever (the caches are the process's: other tests' too)
    for i, pid in enumerate(ids[:8]):  # each edit a segment of its own until Whoosh merges the small ones
        library.set_note(pid, f"quasar galaxy note {i}")
        library.search("quasr galaxi")  # an unknown word: every segment's words read for corrections
        live = library.index.segments()
        ours |= live
        cached = vocabulary.cached_segments() & ours
        assert cached and cached <= live
    assert len(ours) > len(live)  # segments were merged away on the way


# ---- a slip that stems like a word ----

SLIP_PAPERS = [
    {"title": f"Paper {i}", "abstract": f"Deep reinforcement learning for task {i}; the policy converged."}
    for i in range(3)
]


@pytest.fixture
def slip_library(tmp_path):
    path = tmp_path / "slips.json"
    path.write_text(json.dumps(SLIP_PAPERS), encoding="utf-8")
    lib = Library.open(tmp_path / "data", seed=False)
    lib.import_files([path])
    yield lib
    lib.close()


def test_a_misspelling_that_stems_like_a_word_is_offered_that_word(slip_library):
    """ "reinforcment" stems like "reinforcement" (Porter drops -ment and -ement): it always found those
    papers, but was never offered a correction, so a second slip's hint kept the first."""
    alone = slip_library.search("reinforcment")
    assert len(alone.ids) == 3 and alone.correction == "reinforcement"
    both = slip_library.search("reinforcment lerning")
    assert both.correction == "reinforcement learning" and len(both.ids) == 3


def _slips_of_other_kinds(tmp_path):
    rows = [
        {"title": f"Gaussian process regression {i}", "abstract": "A Gaussian process prior; we tune it; bounded."}
        for i in range(70)
    ]
    rows += [{"title": f"t-SNE maps {i}", "abstract": "We draw t-SNE maps."} for i in range(2)]
    rows += [{"title": "Corners", "abstract": "Rounded corners in each round of play."}]
    rows += [{"title": f"Round robin {i}", "abstract": "Each round, a robin."} for i in range(5)]
    rows += [{"title": f"Scanned {i}", "abstract": "A Gau sian proce dure from a scanned page."} for i in range(2)]
    rows += [{"title": f"Proceedings {i}", "abstract": "We proceed; it proceeds."} for i in range(4)]
    rows += [{"title": f"Multi arm bandit {i}", "abstract": "Multi arm bandit."} for i in range(3)]
    rows += [
        {"title": f"Regret of multi-armed bandits {i}", "abstract": "Multi-armed bandits with many arms, in theory "
         "and in practice, over a long horizon of pulls."}
        for i in range(3)
    ]  # fmt: skip
    return library_of(tmp_path, rows, "slips")


def test_a_slip_hidden_by_a_line_breaks_leftovers_is_offered_the_word(tmp_path):
    """Three slips the 8k library answered badly: "gausian process" found the one paper whose PDF text has
    "Gau sian" (the split spelling of a joined word) and offered nothing; "gaussian proces" offered nothing,
    "proces" stemming as a PDF's "proce" (of "proce dure"), whose forms "proceed", "proceeds" made it look
    common; "multi-armd bandit" offered "multi-arm bandit" (a slip one letter too many) where "multi-armed" (a
    letter left out) is likelier and fits as well."""
    lib = _slips_of_other_kinds(tmp_path)
    try:
        assert lib.search("gausian process").correction == "gaussian process"
        assert lib.search("gaussian proces").correction == "gaussian process"
        assert lib.search("multi-armd bandit").correction == "multi-armed bandit"
        assert lib.search("proceeds").correction is None and lib.search("gaussian").correction is None
        # no correction of a real word, however rare, or of a one-letter head written apart (a line break
        # never leaves one: "t-SNE"); the review found "tsne" offered "tune", "rounded …" "bounded …"
        tsne = lib.search("tsne")
        assert tsne.correction is None and len(tsne.ids) == 2
        assert lib.search("rounded quokka").correction is None
        assert lib.search("rounded gaussian").correction is None
    finally:
        lib.close()


def test_an_inflection_the_library_lacks_is_not_a_slip(slip_library):
    """ "converge" shares its stem with "converged" and is one letter from it, but it is a word of its own:
    no correction (the papers are still found through the stem)."""
    result = slip_library.search("converge")
    assert len(result.ids) == 3 and result.correction is None
    assert slip_library.search("reinforcement").correction is None


def test_a_search_cached_before_another_process_wrote_is_searched_again(tmp_path):
    """The window caches recent results; the command line (or an import's child process) adding papers made
    the cached query answer without them until some other write."""
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.write_text(json.dumps([{"title": "Wombat one", "abstract": "Wombat burrows."}]), encoding="utf-8")
    second.write_text(json.dumps([{"title": "Wombat two", "abstract": "Wombat diets."}]), encoding="utf-8")
    window = Library.open(tmp_path / "data", seed=False)
    window.import_files([first])
    assert len(window.search("wombat").ids) == 1  # now cached
    elsewhere = Library.open(tmp_path / "data", seed=False)  # another process, as far as the index can tell
    elsewhere.import_files([second])
    elsewhere.close()
    assert len(window.search("wombat").ids) == 2
    window.close()


def test_papers_that_match_equally_come_in_the_order_they_were_added(tmp_path):
    """A filter ("venue:…", "year:…") scores every match alike; their order was the index's document order,
    which follows the segments its writer processes made and changes when a paper is re-indexed (a tag, a
    title), so the first paper added could come anywhere. Equal scores now come in the order added."""
    f = tmp_path / "p.json"
    papers = [{"title": f"Paper {i}", "abstract": f"Text {i}.", "venue": "Wombat Conf", "year": 2020} for i in range(8)]
    f.write_text(json.dumps(papers), encoding="utf-8")
    lib = Library.open(tmp_path / "data", seed=False)
    lib.import_files([f])
    added = lib.search("venue:wombat").ids
    assert len(added) == 8
    for pid in (added[0], added[3]):  # re-indexed: their documents go to the index's end
        lib.add_tags([pid], ["seen"])
        lib.set_title(pid, f"Retitled {pid}")
    lib.flush_index()
    assert lib.search("venue:wombat").ids == sorted(added)
    assert lib.search("year:2020", limit=3).ids == sorted(added)[:3]
    lib.close()


# ---- the word being typed ----


def _typing_library(tmp_path) -> Library:
    papers = [
        {"title": f"Gaussian process regression {i}", "abstract": "A Gaussian process prior over functions."}
        for i in range(3)
    ]
    papers += [
        {"title": "Sequential decisions", "abstract": "Markov decision pro- ces ses, as the scan kept it."},
        {"title": "Neural networks for speech", "abstract": "Neural networks read speech."},
        {"title": "Neural networks for vision", "abstract": "Neural networks see; the netw ork layer."},
    ]
    papers += [
        {"title": "Support vector method for novelty detection", "abstract": "One class of data is learnt."},
        {
            "title": "Novelty detection methods for support vector machines",
            "abstract": "Novelty detection, support vector method: novelty detection for support vector method.",
        },
    ]
    papers += [{"title": f"Filler {i}", "abstract": "Kernel methods for data."} for i in range(10)]
    return library_of(tmp_path, papers, "typing")


def test_a_last_word_no_paper_has_beside_the_others_is_read_as_the_start_of_one(tmp_path):
    """ "gaussian proces": "proces" is a word here (a line-break hyphen's leftover), but no paper has it beside
    "gaussian": the word being typed reads as a prefix, and the Gaussian process papers come, not the closest
    matches with one word of two."""
    lib = _typing_library(tmp_path)
    try:
        for text in ("gaussian proc", "gaussian proces"):
            result = lib.search(text, typing=True)
            assert not result.partial
            assert [p.title for p in lib.papers(result.ids)] == [f"Gaussian process regression {i}" for i in range(3)]
            assert any("start of a word" in n for n in result.notes)
            assert "process" in result.terms and result.started == text.split()[-1]  # highlighted as matched
        # a space after it: the word is finished, and read as typed
        typed_on = lib.search("gaussian proces ", typing=True)
        assert typed_on.partial and not any("start of a word" in n for n in typed_on.notes)
        assert lib.search('"gaussian proc', typing=True).ids == []  # inside a phrase a word is a word
        # a word no paper has beside it: no reading of the last word finds every word, none is tried
        assert lib.search("gaussian xyzzy proc", typing=True).started is None
    finally:
        lib.close()


def test_a_rare_last_word_keeps_its_papers_and_gains_the_words_it_begins(tmp_path):
    """ "neural netw": one paper has "netw" (a split word); reading it as a prefix keeps that paper and adds
    those the reader is typing towards. A common last word is read as typed."""
    lib = _typing_library(tmp_path)
    try:
        titles_found = titles(lib, "neural netw", typing=True)
        assert set(titles_found) == {"Neural networks for speech", "Neural networks for vision"}
        assert titles(lib, "neural networks", typing=True) == titles(lib, "neural networks", limit=None, typing=True)
        assert not any("start of a word" in n for n in lib.search("gaussian process", typing=True).notes)
    finally:
        lib.close()


def _fragment_library(tmp_path) -> Library:
    """ "net" and "sup" are words a few papers have (more than a slip's RARE_DF), and the words they begin
    ("networks", "supervised") are in ten times as many."""
    papers = [{"title": f"A neural net for chess {i}", "abstract": "A neural net plays chess."} for i in range(4)]
    papers += [{"title": f"Neural networks {i}", "abstract": "Neural networks learn features."} for i in range(44)]
    papers += [{"title": f"Self-supervised learning {i}", "abstract": "Self-supervised learning of features."}
               for i in range(2)]  # fmt: skip
    papers += [{"title": f"Sup norm bounds {i}", "abstract": "The sup norm of a self map."} for i in range(4)]
    papers += [{"title": f"Supervised learning {i}", "abstract": "Supervised learning from labels."} for i in range(40)]
    return library_of(tmp_path, papers, "fragments")


def test_a_common_last_word_far_rarer_than_the_words_it_begins_is_read_as_their_start(tmp_path):
    """ "neural net": "net" is a word papers have, but one typed on its way to "networks", which are ten
    times as frequent; after a hyphen too ("self-sup", which the parser would read as one prefix no word
    has). A space ends the word; a word the longer words do not outnumber stays as typed."""
    lib = _fragment_library(tmp_path)
    try:
        typing = lib.search("neural net", typing=True)
        assert len(typing.ids) == 48 and typing.started == "net"
        assert any("“net” read as the start of a word" in n for n in typing.notes)
        finished = titles(lib, "neural net ", limit=None, typing=True)
        assert set(finished) == {f"A neural net for chess {i}" for i in range(4)}
        hyphen = lib.search("self-sup", typing=True)  # its words side by side: not "the sup norm of a self map"
        assert hyphen.started == "sup" and len(hyphen.ids) == 2
        assert titles(lib, "self-sup", limit=2, typing=True) == [f"Self-supervised learning {i}" for i in range(2)]
        assert len(lib.search("self-sup ", typing=True).ids) == 4  # the word as typed: the sup-norm papers
        assert lib.search("neural networks", typing=True).started is None
        # from two letters: "neural ne" found the papers with a word "ne", if any, until a third was typed
        two = lib.search("neural ne", typing=True)
        assert two.started == "ne" and len(two.ids) == 48
    finally:
        lib.close()


def test_a_word_being_typed_is_searched_for_its_most_frequent_completions_only(tmp_path):
    """A short fragment begins hundreds of words in a large library ("pro"): read as a word's start it is
    searched for the TypedPrefix.most most frequent of them (what the reader is likely typing towards),
    which bounds a keystroke's work, with no note of a cap; a star typed searches the usual many."""
    from string import ascii_lowercase

    words = [f"qux{a}{b}" for a in ascii_lowercase[:5] for b in ascii_lowercase[:7]]  # 35 words
    frequent, rare = words[:30], words[30:]
    papers = [{"title": f"Kernel {w} {i}", "abstract": f"Kernel {w}."} for w in frequent for i in range(2)]
    papers += [{"title": f"Kernel {w}", "abstract": f"Kernel {w}."} for w in rare]
    lib = library_of(tmp_path, papers, "completions")
    try:
        typing = lib.search("kernel qux", typing=True)
        assert typing.started == "qux" and len(typing.ids) == 60
        assert not any("matches" in n for n in typing.notes)
        assert len(lib.search("kernel qux*", typing=True).ids) == 65
    finally:
        lib.close()


def test_a_pasted_title_cut_short_finds_its_paper_first(tmp_path):
    """The title-phrase bonus looks for the title the words begin ("… Novelty Detectio" as "… Novelty
    Detection"): the paper with that title comes before one whose abstract repeats the words."""
    lib = _typing_library(tmp_path)
    try:
        found = titles(lib, "Support Vector Method for Novelty Detectio", typing=True)
        assert found[:2] == [
            "Support vector method for novelty detection",
            "Novelty detection methods for support vector machines",
        ]
    finally:
        lib.close()


def test_an_empty_library_searches_to_nothing_not_an_error(empty_lib):
    """Every word looked up in an index with no document: the idf took the log of zero ("cannot search for
    that (math domain error)"), for a library whose papers were all removed, or one not seeded yet."""
    for text in ("quokka", "neural networks", '"early exit"', "optim*", "reinforcment~", "title:graph"):
        assert empty_lib.search(text).ids == []


def test_a_title_that_is_the_query_comes_before_titles_that_hold_it_among_more_words(tmp_path):
    """Pasted, "Generative Adversarial Nets" finds Goodfellow et al.'s paper before "Triple Generative
    Adversarial Nets", whose abstract says the phrase over and over (it ranked first by BM25F), and before the
    title-less paper whose abstract does too."""
    triple = (
        "Generative adversarial nets (GANs) are good. Our generative adversarial nets play a three-player game: "
        "triple generative adversarial nets, with generative adversarial nets as the two-player case."
    )
    gan = "We propose a framework in which two models are trained: a generative and a discriminative model."
    untitled = "Generative adversarial nets. We study generative adversarial nets and generative adversarial nets."
    papers = [
        {"title": "Triple Generative Adversarial Nets", "abstract": triple},
        {"title": "Generative Adversarial Nets", "abstract": gan},
        {"title": "Dual Discriminator Generative Adversarial Nets", "abstract": "Two discriminators."},
        {"title": "", "abstract": untitled},
    ]
    lib = library_of(tmp_path, papers, "gans")
    try:
        for text in ("Generative Adversarial Nets", "generative adversarial nets", "Generative Adversarial Nets."):
            found = titles(lib, text)
            assert found[:2] == ["Generative Adversarial Nets", "Triple Generative Adversarial Nets"], (text, found)
        assert titles(lib, "Triple Generative Adversarial Nets")[0] == "Triple Generative Adversarial Nets"
    finally:
        lib.close()


def test_a_derived_title_that_is_the_query_does_not_count_beside_a_real_title_holding_it():
    """A derived title's words weigh DERIVED_TITLE_WEIGHT of a real title's, so its phrase scores far less:
    it is not lifted above the real titles that hold the phrase; alone among the holders, it is."""
    from readinglist.index.engine import whole_titles

    lengths = {1: 4, 2: 3, 3: 3}  # 1: a real title holding the phrase among more words; 2: real; 3: derived
    assert whole_titles({1: 8.0, 2: 9.0, 3: 0.6}, lengths, 3) == [2]
    assert whole_titles({1: 8.0, 3: 0.6}, lengths, 3) == []
    assert whole_titles({3: 0.6}, lengths, 3) == [3]
    assert whole_titles({1: 8.0, 2: 9.0}, {1: 4, 2: 4}, 3) == []


def test_a_long_title_is_the_query_only_when_the_index_keeps_its_length_exactly():
    """Whoosh keeps a field's length in one byte, exact up to 10 words: 11 and 12 words both read back as 12,
    so an 11-word query could be a 12-word title's start; 12 words are told apart (no title holding the
    phrase is shorter)."""
    from readinglist.index.engine import whole_titles

    assert whole_titles({1: 5.0}, {1: 12}, 11) == []
    assert whole_titles({1: 5.0}, {1: 12}, 12) == [1]
    assert whole_titles({1: 5.0}, {1: 10}, 10) == [1] and whole_titles({1: 5.0}, {1: 12}, 10) == []


def test_titles_that_are_the_query_keep_their_own_order(tmp_path):
    """Two papers titled as pasted (from two files) rank first, by their scores among themselves: the lift
    moves them together, and the better match, imported last, comes first."""
    lib = library_of(tmp_path, [
        {"title": "Deep Learning", "abstract": "Lecture notes on networks and their training."},
        {"title": "Deep Learning for Vision", "abstract": "Deep learning, deep learning, deep learning of images."},
    ], "deep")  # fmt: skip
    second = tmp_path / "review.jsonl"
    second.write_text(
        '{"title": "Deep Learning", "abstract": "A review of deep learning: its methods, deep learning."}\n'
    )
    lib.import_files([second])
    try:
        found = lib.papers(lib.search("Deep Learning").ids)
        assert [p.title for p in found] == ["Deep Learning", "Deep Learning", "Deep Learning for Vision"]
        assert "review" in found[0].plain_abstract
    finally:
        lib.close()


def test_a_title_the_last_word_typed_was_only_taken_for_is_not_lifted(tmp_path):
    """While typing, "Deep Netwo" is read as "Deep Networks" for the title-phrase bonus; that guess does not
    lift the paper titled "Deep Networks" above the rest, as the title pasted whole does."""
    lib = library_of(tmp_path, [
        {"title": "Deep Networks", "abstract": "Layers of units."},
        {"title": "Training Deep Networks", "abstract": "Deep networks: training deep networks, deep networks."},
    ], "networks")  # fmt: skip
    try:
        assert titles(lib, "Deep Networks")[0] == "Deep Networks"
        typing = lib.search("Deep Netwo", typing=True)
        assert typing.started == "Netwo"
        assert lib.papers(typing.ids)[0].title == "Training Deep Networks"
    finally:
        lib.close()


def test_a_typed_slip_that_a_title_misspells_too_is_offered_the_common_word(tmp_path):
    """Typed, "baysian optimization" found only the paper whose title misspells Bayesian, and offered nothing
    (a rare title word was never a slip): now it is offered "bayesian optimization", its results as typed. A
    pasted title keeps its words as written, and a name no common word is one slip from is left alone."""
    papers = [{"title": f"Bayesian optimization of model {i}", "abstract": "Bayesian optimization."} for i in range(31)]
    papers.append({"title": "A Variational Baysian Framework for Graphical Models", "abstract": "An optimization."})
    papers.append({"title": "Pegasos: primal estimated sub-gradient solver", "abstract": "A solver."})
    lib = library_of(tmp_path, papers, "slips")
    try:
        typed = lib.search("baysian optimization")
        assert typed.correction == "bayesian optimization"
        assert [p.title for p in lib.papers(typed.ids)] == ["A Variational Baysian Framework for Graphical Models"]
        assert lib.search("A Variational Baysian Framework for Graphical Models").correction is None
        assert lib.search("pegasos solver").correction is None
    finally:
        lib.close()


def test_an_authors_name_typed_is_offered_no_correction(tmp_path):
    """ "Gergely Neu" found his paper and was offered "Gergely New" (a trial, COLT 2025): a word of the authors
    is a word, however rare, beside a common one a slip away."""
    papers = [{"title": f"A new method {i}", "abstract": "A new bound, new rates."} for i in range(31)]
    papers.append({"title": "Optimistic exploration", "abstract": "Regret bounds.", "authors": ["Gergely Neu"]})
    lib = library_of(tmp_path, papers, "names")
    try:
        for text in ("Gergely Neu", "neu"):
            found = lib.search(text)
            assert found.correction is None
            assert [p.title for p in lib.papers(found.ids)] == ["Optimistic exploration"]
        assert lib.search("nwe method").correction == "new method"  # a slip is still offered its word
    finally:
        lib.close()


def test_an_author_quoted_last_name_first_finds_the_papers_by_that_name(tmp_path):
    """author:"Bengio, Yoshua", as a reference list writes him, found only the paper where "Samy Bengio,
    Yoshua Bengio" stood next to each other (a trial): it is the phrase "Yoshua Bengio"."""
    by = {
        "Parallel mixtures of SVMs": ["R. Collobert", "Samy Bengio", "Yoshua Bengio"],
        "A neural probabilistic language model": ["Yoshua Bengio", "R. Ducharme"],
        "Torch": ["Samy Bengio"],
        "t-SNE": ["Laurens van der Maaten", "Geoffrey Hinton"],
    }
    papers = [{"title": title, "abstract": "Text.", "authors": authors} for title, authors in by.items()]
    lib = library_of(tmp_path, papers, "names")
    try:
        found = lib.papers(lib.search('author:"Bengio, Yoshua"').ids)
        assert sorted(p.title for p in found) == ["A neural probabilistic language model", "Parallel mixtures of SVMs"]
        assert [p.title for p in lib.papers(lib.search('author:"van der Maaten, Laurens"').ids)] == ["t-SNE"]
    finally:
        lib.close()


COMPOUNDS = [
    {"title": "Multi-Task Feature Learning", "abstract": "Features shared by related tasks, learnt jointly."},
    {"title": "Multitask learning with kernels", "abstract": "One kernel for every task at once."},
    {"title": "Tasks done many times", "abstract": "A multi step procedure; each task runs again."},
    {"title": "Semi-supervised clustering", "abstract": "A few labels guide the clusters."},
    *[
        {"title": f"Multi filler {i}", "abstract": f"Multi armed bandits, task {i}, supervised learning, networks."}
        for i in range(6)
    ],
    {"title": "Wiring", "abstract": "The net works as a sieve, though the networks differ."},
    {"title": "Mesh", "abstract": "A fine net works as a filter."},
    # "networks" is a common word: in 13 papers, "net works" in 2 (the papers write it apart in under a fifth as
    # many as write it joined: query.TOGETHER_SHARE)
    *[{"title": f"Graph filler {i}", "abstract": f"Graph networks {i}."} for i in range(6)],
]


def test_a_word_typed_joined_finds_it_hyphenated_and_the_other_way_round(tmp_path):
    """ "multitask" and "multi-task" are one term spelt two ways, which papers use about equally: each finds
    both ("multi-task" in the index is two words, one after the other); a common word is not split into two
    ("networks" is no "net works")."""
    lib = library_of(tmp_path, COMPOUNDS, "compounds")
    try:
        both = {"Multi-Task Feature Learning", "Multitask learning with kernels"}
        assert set(titles(lib, "multitask")) == both  # not "a multi step procedure … task"
        assert both <= set(titles(lib, "multi-task"))
        assert titles(lib, "multitask feature learning")[0] == "Multi-Task Feature Learning"
        assert titles(lib, "semisupervised") == ["Semi-supervised clustering"]
        typing = lib.search("multitask featu", typing=True)  # the last word read as the start of one
        assert not typing.partial and lib.papers(typing.ids)[0].title == "Multi-Task Feature Learning"
        assert set(titles(lib, "networks")) == {  # no "Mesh"
            "Wiring",
            *(f"Multi filler {i}" for i in range(6)),
            *(f"Graph filler {i}" for i in range(6)),
        }
        found = lib.search("semisupervised")
        assert found.unknown == []  # found as "semi-supervised": not a word "no paper has"
        assert "Multi-Task Feature Learning" not in titles(lib, "learning NOT multitask")  # neither spelling
        assert both <= set(titles(lib, "multi\u2010task"))  # a hyphen pasted from a PDF (U+2010)
    finally:
        lib.close()


def test_two_words_typed_apart_find_the_word_they_make_joined(tmp_path):
    """ "red team" typed for Self-RedTeam found nothing (session 25): two words typed one after the other find
    the word they make joined too, as a word of both ("red teaming" is a form of it), and are no words "no
    paper has"; the papers with both words apart are found as before, and a stop word joins nothing."""
    rows = [
        {"title": "Self-play attacks", "abstract": "We introduce Self-RedTeam, an online self-play algorithm."},
        {"title": "Red and blue", "abstract": "The red agent and the blue team compete."},
        {"title": "A new dataset", "abstract": "We release a dataset of images."},
        {"title": "Online learning", "abstract": "Regret of online learners."},
        {"title": "Coordinate descent", "abstract": "One coordinate at a time."},
        *[{"title": f"Filler {i}", "abstract": f"Policies {i} and values; the line is on top."} for i in range(6)],
    ]
    lib = library_of(tmp_path, rows, "apart")
    try:
        assert set(titles(lib, "red team")) == {"Self-play attacks", "Red and blue"}
        assert titles(lib, "self red team") == ["Self-play attacks"]
        assert "Self-play attacks" in titles(lib, "red teaming")
        found = lib.search("self red team")
        assert found.unknown == [] and not found.partial
        assert titles(lib, "data set") == ["A new dataset"]
        assert titles(lib, "co ordinate descent") == ["Coordinate descent"]  # a two-letter head
        assert "Online learning" not in titles(lib, "on line")  # "on" is a stop word: no "online"
        assert titles(lib, "team red") == ["Red and blue"]  # the words in their order only: no "teamred"
    finally:
        lib.close()


def test_two_words_typed_rank_the_papers_with_them_side_by_side_first(tmp_path):
    """ "dataset shift": the one paper with the phrase ranked 9th of 12, under papers that say "dataset" and
    "shift" apart, more often (a trial). Two or three words typed rank a paper with them side by side higher;
    a title with them keeps its own bonus."""
    rows = [
        {
            "title": f"Scattered {i}",
            "abstract": f"A dataset, a large dataset {i}; then a shift, a shift in the dataset.",
        }
        for i in range(10)
    ]
    rows.append({"title": "Uncertainty of ensembles", "abstract": "We evaluate under dataset shift."})
    rows += [{"title": f"Filler {i}", "abstract": f"Graph kernels {i}."} for i in range(6)]
    lib = library_of(tmp_path, rows, "phrase")
    try:
        assert titles(lib, "dataset shift")[0] == "Uncertainty of ensembles"
        assert len(titles(lib, "dataset shift")) == 11  # every paper with both words still
        assert titles(lib, "shift dataset")[0] != "Uncertainty of ensembles"  # the words in their order
    finally:
        lib.close()


def test_a_hyphenated_word_finds_its_words_together(tmp_path):
    """ "q-learning" found every paper with a "Q" and "learning" anywhere (its Q-function, its learning rate):
    at 8k, 67 papers of which 27 say Q-learning, the others among the first twenty. Now the two words stand
    together, in any form of each ("pre-trained" finds "pre-training"); a hyphenated word no paper writes so
    still finds the papers with its words."""
    rows = [
        {"title": "Double Q-learning", "abstract": "Q-learning overestimates action values."},
        {"title": "Speedy Q-Learning", "abstract": "A faster variant of the classic algorithm."},
        {"title": "Learning the Q function", "abstract": "We fit Q by regression; learning is stable."},
        {"title": "Pre-training language models", "abstract": "Models are pre-trained on text."},
        {"title": "Training before the test", "abstract": "A pre step, then the training."},
        *[{"title": f"Filler {i}", "abstract": "Policies and values."} for i in range(6)],
    ]
    lib = library_of(tmp_path, rows, "hyphens")
    try:
        assert set(titles(lib, "q-learning")) == {"Double Q-learning", "Speedy Q-Learning"}
        assert titles(lib, "q-learning overestimates") == ["Double Q-learning"]
        assert set(titles(lib, "q-learning OR policies")) == {"Double Q-learning", "Speedy Q-Learning"} | {
            f"Filler {i}" for i in range(6)
        }
        assert titles(lib, "pre-trained") == ["Pre-training language models"]
        assert titles(lib, "abstract:pre-training") == ["Pre-training language models"]
        assert titles(lib, "q-regression") == ["Learning the Q function"]  # nowhere together: its words
        # "together somewhere" is the library's answer, not the papers a rarer word left: "regression" alone
        # leaves a paper with Q and learning apart, which is still no Q-learning paper
        assert lib.search("q-learning regression").partial
        # under ANDNOT, ANDMAYBE and a NOT alone too, and in a saved list's query
        assert set(titles(lib, "q-learning ANDMAYBE policies")) == {"Double Q-learning", "Speedy Q-Learning"}
        assert titles(lib, "q-learning ANDNOT overestimates") == ["Speedy Q-Learning"]
        everything = {r["title"] for r in rows}
        assert set(titles(lib, "NOT q-learning")) == everything - {"Double Q-learning", "Speedy Q-Learning"}
        assert set(titles(lib, "NOT pretraining")) == everything - {"Pre-training language models"}
        saved = lib.add_smart_list("Q-learning", "q-learning", None)
        assert lib.list_count(saved) == 2
        # highlighted as the phrase it is, not every "learning" of an abstract
        terms = lib.search("pre-trained").terms
        assert "pre trained" in terms and "pre training" in terms and "training" not in terms
    finally:
        lib.close()


def test_a_word_of_several_hyphens_is_its_words_in_order(tmp_path):
    """ "end-to-end" was "end" and "to" anywhere (the parser keeps a word once): at 8k 227 papers, 103 of
    them saying end-to-end, the others "to this end" or "front end". Now the words in order."""
    rows = [
        {"title": "End-to-end memory networks", "abstract": "Trained end to end."},
        {"title": "Sequence-to-sequence models", "abstract": "A sequence to sequence model."},
        {"title": "A front end", "abstract": "To this end, we build a front end for parsers."},
        *[{"title": f"Filler {i}", "abstract": f"Sequences {i}; models {i}."} for i in range(6)],
    ]
    lib = library_of(tmp_path, rows, "chains")
    try:
        assert titles(lib, "end-to-end") == ["End-to-end memory networks"]
        assert titles(lib, "end-to-en*") == ["End-to-end memory networks"]  # a prefix as the last word
        assert titles(lib, "sequence-to-sequence") == ["Sequence-to-sequence models"]
        assert "A front end" in titles(lib, "NOT end-to-end")
    finally:
        lib.close()


def test_a_prefix_of_a_hyphenated_word_finds_its_words_together(tmp_path):
    """ "multi-task*" was one prefix, "multi-task", which no word of the index begins (it holds "multi" and
    "task"): nothing was found. Now its words side by side, the last a prefix, or the word written joined."""
    rows = [
        {"title": "Multi-task learning for speech", "abstract": "We study multi-task learning."},
        {"title": "Multi-tasking agents", "abstract": "Agents that multi-task well."},
        {"title": "Multitask networks", "abstract": "A multitask network."},
        {"title": "Multi-agent task allocation", "abstract": "Agents allocate a task."},
        {"title": "Off-policy evaluation", "abstract": "Off-policy methods."},
        *[{"title": f"Filler {i}", "abstract": "Policies and values."} for i in range(6)],
    ]
    lib = library_of(tmp_path, rows, "prefixes")
    try:
        wanted = {"Multi-task learning for speech", "Multi-tasking agents", "Multitask networks"}
        assert set(titles(lib, "multi-task*")) == wanted  # not "Multi-agent task allocation": apart
        assert set(titles(lib, "multi-ta*")) == wanted
        assert set(titles(lib, "title:multi-task*")) == wanted
        assert titles(lib, "off-pol*") == ["Off-policy evaluation"]
        assert set(titles(lib, "multi-task* NOT speech")) == wanted - {"Multi-task learning for speech"}
        assert {"multi task", "multi tasking"} <= lib.search("multi-task*").terms  # highlighted as phrases
        # typed, the last word read as a start keeps the hyphen too
        typed = lib.search("multi-tas", typing=True)
        assert typed.started == "tas" and {p.title for p in lib.papers(typed.ids)} == wanted
        # a hyphen with no word before it is no hyphenated word: in a pasted sentence (a minus there is text)
        # "tas" is read as a start still; typed, "agents -tas" is agents NOT tas (a minus), no start of a word
        assert lib.search("agents allocate a task to -tas", typing=True).started == "tas"
        typed = lib.search("agents -tas", typing=True)
        assert typed.started is None and typed.ids == lib.search("agents NOT tas", typing=True).ids != []
        # a wildcard, an en dash, a saved list's query, and a chain's last word
        assert set(titles(lib, "multi-ta?k")) == wanted  # not "Multi-agent task allocation" either
        assert set(titles(lib, "multi\u2013task*")) == wanted
        assert {p.title for p in lib.papers(lib.search("", within="multi-task*").ids)} == wanted
        # cached by what the hyphens mean: "multi--task*" (no hyphenated word) first does not answer for it
        lib.search("multi--task*")
        assert set(titles(lib, "multi-task*")) == wanted
    finally:
        lib.close()


def test_a_prefix_inside_a_hyphenated_word_keeps_its_frequent_words(tmp_path, monkeypatch):
    """A prefix leaves out a word with more postings than MAX_EXPANSION_POSTINGS (at 94k "task" for "tas*",
    so "multi-tas" being typed found 553 of the 1,040 multi-task papers); the word being typed inside a
    hyphenated word is read in the other words' papers only, and keeps it. A prefix given whole keeps the cap
    (a one-letter "non-c*" would read every "c" word's postings)."""
    rows = [{"title": f"Task {i}", "abstract": "A task and its tasks."} for i in range(8)]
    rows += [{"title": "Multi-task learning", "abstract": "We study multi-task learning."}]
    rows += [{"title": "Multi-tasty dishes", "abstract": "Multi-tasty food."}]
    lib = library_of(tmp_path, rows, "frequent")
    try:
        monkeypatch.setattr("readinglist.index.ranking.MAX_EXPANSION", 1)  # a word's worth, as "a*" is capped
        monkeypatch.setattr("readinglist.index.query.TypedPrefix.most", 1)
        monkeypatch.setattr("readinglist.index.ranking.MAX_EXPANSION_POSTINGS", 3)
        lib.index.drop_caches()
        assert "Task 0" not in titles(lib, "tas*")  # alone: "task" is left out
        assert titles(lib, "multi-tas*") == ["Multi-tasty dishes"]  # capped, and says so
        assert any("most frequent" in note for note in lib.search("multi-tas*").notes)
        typed = lib.search("multi-tas", typing=True)
        assert typed.started == "tas" and titles(lib, "multi-tas", typing=True) == ["Multi-task learning"]
    finally:
        lib.close()


def test_a_typed_prefix_keeps_the_rare_forms_of_its_frequent_words(tmp_path, monkeypatch):
    """The word being typed is searched for its TypedPrefix.most most frequent words only; "self-sup" at 8k
    kept "supervised" but not "supervise" (one paper), which "self-supe" found. A form of a kept word's stem
    is now kept with it, however rare; a word of another stem is not."""
    rows = [{"title": f"Supervised {i}", "abstract": "Self-supervised and supervised learning."} for i in range(5)]
    rows += [{"title": "Agents at play", "abstract": "Agents that self-supervise their play."}]
    rows += [{"title": "Support", "abstract": "A self-support structure."}]
    lib = library_of(tmp_path, rows, "stems")
    try:
        monkeypatch.setattr("readinglist.index.query.TypedPrefix.most", 1)
        lib.index.drop_caches()
        found = titles(lib, "self-sup", typing=True)
        assert "Agents at play" in found and "Support" not in found
        assert len(found) == 6
    finally:
        lib.close()


def test_did_you_mean_offers_only_a_real_correction_of_what_was_typed(tmp_path):
    """ "q-learning" was offered "Did you mean q-learning?" (a correction of its joined spelling, "qlearning",
    which the reader never typed); "Speedy Q-Learning", pasted, "Speed Q-Learning"; "t-SNE" "t-ONE". A slip
    is still offered its word."""
    rows = [
        {"title": "Speedy Q-Learning", "abstract": "Q-learning, faster."},
        {"title": "Visualizing data using t-SNE", "abstract": "We embed data with t-SNE in two dimensions."},
        *[{"title": f"Speed and learning {i}", "abstract": f"Speed matters; learning {i} is one option."}
          for i in range(40)],
    ]  # fmt: skip
    lib = library_of(tmp_path, rows, "corrections")
    try:
        for typed in ("q-learning", "Speedy Q-Learning", "t-SNE", "t-sne", "speedy"):
            found = lib.search(typed)
            assert found.ids and found.correction is None, (typed, found.correction)
        assert lib.search("lerning speed").correction == "learning speed"
    finally:
        lib.close()


def test_a_slip_that_splits_into_two_rarer_words_is_still_corrected(tmp_path):
    """ "classifir" splits into "classi" and "fir", two words rarer papers have: its other spelling matched
    nothing, yet counted as found (an estimate), so no "classifier" was offered and the paper came second."""
    rows = [
        {"title": "The manifold tangent classifier", "abstract": "A classifier on manifolds."},
        *[{"title": f"Classifier {i}", "abstract": f"A linear classifier {i}."} for i in range(30)],
        {"title": "FIR filters", "abstract": "Finite impulse response (fir) filters."},
        {"title": "Classi notes", "abstract": "The word classi, alone."},
    ]
    lib = library_of(tmp_path, rows, "split-slip")
    try:
        assert lib.search("manifold tangent classifir").correction == "manifold tangent classifier"
    finally:
        lib.close()


def test_a_word_the_papers_write_apart_as_often_is_split_though_common(tmp_path):
    """ "minibatch" was split only when far rarer than "mini" and "batch": at 8k it found 12 papers, "mini-batch"
    41; "nonparametric" 221 and 325; "qlearning", "kmeans" (a one-letter head) were "corrected" to other words.
    Now a word is also split where the papers write it apart at least a fifth as often as joined."""
    rows = [
        *[{"title": f"Mini-batch training {i}", "abstract": f"A mini-batch of size {i}."} for i in range(4)],
        {"title": "Minibatch selection", "abstract": "Choosing each minibatch."},
        *[{"title": f"K-means seeding {i}", "abstract": f"Seeding k-means {i}."} for i in range(3)],
        *[{"title": f"Batch filler {i}", "abstract": f"A batch; a mini model; means {i}; k {i}."} for i in range(8)],
    ]
    lib = library_of(tmp_path, rows, "written-apart")
    try:
        joined = {"Minibatch selection", *(f"Mini-batch training {i}" for i in range(4))}
        assert set(titles(lib, "minibatch")) == joined == set(titles(lib, "mini-batch"))
        found = lib.search("kmeans")
        assert {p.title for p in lib.papers(found.ids)} == {f"K-means seeding {i}" for i in range(3)}
        assert found.correction is None
    finally:
        lib.close()


def test_a_word_typed_joined_finds_every_form_of_its_halves(tmp_path):
    """ "pretraining" found "pre-training" but not "pre-trained", and "multitasks" only "multi tasks" (at 8k:
    "pretraining" 18 papers, "pre-training" 38; "multitasks" 25, "multi-tasks" 83): the halves apart were one
    exact phrase. Now each half is any form of its stem, as a hyphenated word's are."""
    rows = [
        {"title": "Pre-trained encoders", "abstract": "Encoders are pre-trained on text."},
        {"title": "Pre-training at scale", "abstract": "A study of pre-training."},
        {"title": "Pretraining revisited", "abstract": "Pretraining helps."},
        {"title": "Training before the test", "abstract": "A pre step, then the training."},
        *[{"title": f"Filler {i}", "abstract": f"Pre {i} and post {i}; training {i}, trained {i}."} for i in range(9)],
    ]
    lib = library_of(tmp_path, rows, "joined-forms")
    try:
        wanted = {"Pre-trained encoders", "Pre-training at scale", "Pretraining revisited"}
        for typed in ("pretraining", "pretrained", "pre-training", "pre-trained"):
            assert set(titles(lib, typed)) == wanted, typed  # not "a pre step, then the training"
        assert "training" not in lib.search("pretrained").terms  # its halves lit together, not each alone
    finally:
        lib.close()


def test_compounds_inside_an_or_and_in_a_fields_word(tmp_path):
    """Inside an OR or after a field ("title:multitask"), a word typed joined or hyphenated found only that
    spelling: "semisupervised OR multitask" found fewer papers than "multitask" alone."""
    lib = library_of(tmp_path, COMPOUNDS, "compounds-or")
    try:
        both = {"Multi-Task Feature Learning", "Multitask learning with kernels"}
        assert set(titles(lib, "semisupervised OR multitask")) == both | {"Semi-supervised clustering"}
        assert set(titles(lib, "multi-task OR semisupervised")) >= both | {"Semi-supervised clustering"}
        assert set(titles(lib, "title:multitask")) == both
        assert set(titles(lib, "title:multi-task")) == both
        assert set(titles(lib, "title:(multitask OR wiring)")) == both | {"Wiring"}
        assert titles(lib, "abstract:multitask") == []  # the field's own: no abstract has it either way
        assert set(titles(lib, "(kernels multitask) OR semisupervised")) == {
            "Multitask learning with kernels",
            "Semi-supervised clustering",
        }
    finally:
        lib.close()


def test_a_surname_typed_finds_that_persons_papers_before_papers_that_cite_them(tmp_path):
    """A name among a paper's authors weighs more than the same name in an abstract ("as Bengio et al.
    showed"): typing a surname lists that person's papers first."""
    rows = [
        {
            "title": "Citing work",
            "authors": ["Carl Other"],
            "abstract": "As Bengio et al. showed, depth helps; we compare schedules.",
        },
        {
            "title": "Greedy layer-wise training",
            "authors": ["Yoshua Bengio", "Pascal Lamblin", "Dan Popovici", "Hugo Larochelle"],
            "abstract": "Deep networks trained greedily, layer by layer, with unsupervised pre-training of each layer.",
        },
        *[{"title": f"Filler {i}", "authors": ["Filler Author"], "abstract": "Layers of a network."} for i in range(8)],
    ]
    lib = library_of(tmp_path, rows, "authors")
    try:
        assert titles(lib, "bengio") == ["Greedy layer-wise training", "Citing work"]
    finally:
        lib.close()


def test_a_year_filter_says_what_it_takes_and_reads_a_range_either_way(tmp_path):
    """year:abc or a year half typed is an error that says what year: takes (it found nothing, silently); a
    range typed the other way round is the same years."""
    rows = [{"title": f"Paper {y}", "abstract": f"Written in {y}.", "year": y} for y in (2014, 2016, 2018, 2020)]
    lib = library_of(tmp_path, rows, "years")
    try:
        for wrong in ("year:abc", "year:20", "bandit year:"):
            with pytest.raises(QueryError, match=r"use a year \(year:2024\), a range"):
                lib.search(wrong)
        assert (
            set(titles(lib, "year:2019..2015")) == set(titles(lib, "year:2015..2019")) == {"Paper 2016", "Paper 2018"}
        )
        assert titles(lib, "year:>=2018") and set(titles(lib, "year:>=2018")) == {"Paper 2018", "Paper 2020"}
        lib.search("We found, in year: the second, that papers were written")  # pasted text: no error raised
    finally:
        lib.close()


# ---- a minus before a word leaves it out, as on a search engine ----

MINUS_ROWS = [
    {"title": "Fast video diffusion", "abstract": "A diffusion model for video generation, made fast.",
     "authors": ["Bo Chen"], "year": 2024},
    {"title": "Diffusion models for tabular data", "abstract": "Denoising diffusion based on tables.",
     "authors": ["Ann Smith"], "year": 2023},
    {"title": "Diffusion policies for control", "abstract": "Diffusion as a policy class: self attention over "
     "states, trained supervised.", "authors": ["Cy Park"], "year": 2022},
    {"title": "Self-supervised diffusion", "abstract": "A self-supervised objective for diffusion models.",
     "authors": ["Di Lee"], "year": 2021},
    {"title": "Diffusion for video editing", "abstract": "We edit video with diffusion.", "authors": ["Ed Wu"],
     "year": 2020},
    {"title": "Contrastive learning", "abstract": "Self-supervised contrastive learning of images.",
     "authors": ["Fay Lin"], "year": 2019},
    *[{"title": f"Filler {i}", "abstract": "Graphs and kernels."} for i in range(6)],
]  # fmt: skip


@pytest.fixture
def minus_lib(tmp_path):
    lib = library_of(tmp_path, MINUS_ROWS, "minus")
    lib.add_tags(lib.search('"tabular data"').ids, ["tables"])
    lib.flush_index()
    yield lib
    lib.close()


def assert_read_alike(lib, text, meant, typing=False):
    """`text` found what `meant` finds, in the same order, with the same words highlighted and the same
    things said about it (closest matches, notes, words no paper has)."""
    got, want = lib.search(text, typing=typing), lib.search(meant, typing=typing)
    assert got.ids == want.ids and got.scores == want.scores, (text, meant)
    for name in ("terms", "partial", "matched", "word_count", "corrections", "unknown", "notes", "started"):
        assert getattr(got, name) == getattr(want, name), (text, name)
    assert got.query == text


@pytest.mark.parametrize(
    "text, meant",
    [
        ("diffusion -video", "diffusion NOT video"),
        ("-video", "NOT video"),
        ("-video diffusion", "NOT video diffusion"),
        ('diffusion -"video generation"', 'diffusion NOT "video generation"'),
        ("diffusion -author:smith", "diffusion NOT author:smith"),
        ("diffusion -tag:tables", "diffusion NOT tag:tables"),
        ("diffusion -year:2020..2022", "diffusion NOT year:2020..2022"),
        ("diffusion -self-supervised", "diffusion NOT self-supervised"),
        ("diffusion -vid*", "diffusion NOT vid*"),
        ("(diffusion -video) OR contrastive", "(diffusion NOT video) OR contrastive"),
        ("diffusion -video -tables", "diffusion NOT video NOT tables"),
    ],
)
def test_a_minus_before_a_word_leaves_it_out_as_not_does(minus_lib, text, meant):
    """ "diffusion -video" (a search engine's habit) found only the video papers: the minus was read as a
    hyphen, and "video" as a word every match needs. A minus at the start of the query or after a space, right
    before a word, a phrase or a field, is NOT, whether the query is typed or given whole."""
    assert_read_alike(minus_lib, text, meant)
    assert_read_alike(minus_lib, text, meant, typing=True)


def test_what_a_minus_leaves_out(minus_lib):
    assert set(titles(minus_lib, "diffusion -video")) == {
        "Diffusion models for tabular data", "Diffusion policies for control", "Self-supervised diffusion",
    }  # fmt: skip
    assert "Diffusion for video editing" in titles(minus_lib, 'diffusion -"video generation"')
    assert "Diffusion models for tabular data" not in titles(minus_lib, "diffusion -author:smith")
    # the hyphenated word's words together: "self attention … supervised" is no self-supervised paper
    assert "Diffusion policies for control" in titles(minus_lib, "diffusion -self-supervised")


def test_a_word_left_out_by_a_minus_while_typed_is_not_read_as_one_every_match_has(minus_lib):
    """Every "fast" paper has "video": "fast -video" finds nothing, and the last word, read as the start of a
    word while typing, must not turn into "fast video*" (which finds the very paper left out)."""
    for typing in (False, True):
        assert titles(minus_lib, "fast -video", typing=typing) == []
        assert titles(minus_lib, "fast -vid", typing=typing) == titles(minus_lib, "fast NOT vid", typing=typing)


def test_a_minus_before_a_topic_leaves_the_topic_out():
    from readinglist.index.query import split_topics

    assert split_topics("diffusion -topic:12") == ("diffusion", [("12", True)])
    assert split_topics('-topic:"sparse attention" video') == ("video", [('"sparse attention"', True)])
    assert split_topics("diffusion topic:12") == ("diffusion", [("12", False)])


@pytest.mark.parametrize(
    "text, same_as",
    [
        ("self-supervised diffusion", None),  # a hyphen inside a word
        ("q-learning", None),
        ("end-to-end diffusion", None),
        ("diffusion -1", "diffusion 1"),  # a number
        ("diffusion year:2020..2024", None),
        ("diffusion <50 F1", None),  # pasted: "<" is text
        ("diffusion - video", "diffusion video"),  # a dash alone
        ("diffusion – video", "diffusion video"),
        ("diffusion –video", None),  # an en dash is no minus
        ("diffusion --video", None),
        ("diffusion\n-based", "diffusion based"),  # a line break's hyphen
        (r"diffusion $-\log p$", None),  # math
        ("exp(-x) diffusion", None),
        ('"diffusion -video"', '"diffusion video"'),  # inside a phrase
        # a pasted sentence (TYPED_WORDS words or more): its minus is text
        ("we propose a diffusion -based model for tables", "we propose a diffusion based model for tables"),
        ("a denoising diffusion model -video generation", "a denoising diffusion model video generation"),
    ],
)
def test_a_minus_that_is_no_not_reads_as_before(minus_lib, text, same_as):
    parsed = repr(minus_lib.index.parse(text))
    assert "Not(" not in parsed, text
    if same_as is not None:
        assert parsed == repr(minus_lib.index.parse(same_as))
    minus_lib.search(text)  # (no error)
    minus_lib.search(text, typing=True)


def test_a_pasted_sentence_with_a_minus_finds_its_paper(minus_lib):
    assert titles(minus_lib, "Denoising diffusion -based on tables for tabular data")[0] == (
        "Diffusion models for tabular data"
    )
    assert titles(minus_lib, "Diffusion\n-based on tables")[0] == "Diffusion models for tabular data"


def test_letters_without_a_mark_to_drop_are_found_as_typed_in_ascii(tmp_path):
    """ø, ł and æ are letters of their own to NFKD: "author:hogsgaard" found nothing for Høgsgaard."""
    lib = library_of(
        tmp_path,
        [
            {"title": "Optimal weak to strong learning", "authors": ["Kasper Green Larsen", "Mikael Møller Høgsgaard"],
             "abstract": "Boosting a weak learner to a strong one with few samples."},
            {"title": "Sparse coding in Łódź", "authors": ["Łukasz Kaiser"], "abstract": "A study of codes by Ærø."},
            {"title": "Kernels on graphs", "authors": ["Klaus-Robert Müller", "Steffen Grünewälder"],
             "abstract": "Kernel methods for Schrödinger bridges on graphs."},
            {"title": "Kernels on sets", "authors": ["Jan Mueller"], "abstract": "Kernel methods on sets."},
            {"title": "Schrödinger Bridges on Graphs", "authors": ["Ana Smith"],
             "abstract": "We bridge two distributions over the nodes of a graph."},
        ],
    )  # fmt: skip
    try:
        # ä, ö, ü as German writes them in ASCII, or without their dots: both find the name
        for query in (
            "author:mueller",
            "mueller",
            "author:muller",
            "Müller",
            '"Klaus-Robert Müller"',
            "author:gruenewaelder",
            "schroedinger",
            "schrodinger",
            'author:"Robert Mueller"',
        ):
            found = titles(lib, query)
            assert "Kernels on graphs" in found, (query, found)
        assert sorted(titles(lib, "author:mueller")) == ["Kernels on graphs", "Kernels on sets"]
        assert titles(lib, "author:muller") == ["Kernels on graphs"]  # "Mueller" is not written with a ü
        # the spelt-out word is the index's alone: a pasted title with an umlaut is still its phrase, first
        assert titles(lib, "Schrödinger Bridges on Graphs")[0] == "Schrödinger Bridges on Graphs"
        assert titles(lib, "schrodinger bridges on graphs")[0] == "Schrödinger Bridges on Graphs"
        assert lib.highlighter({"mueller"})("Müller")  # what "mueller" found shows in the paper
        text = "by Klaus-Robert Müller and others"
        (span,) = lib.highlighter({"robert mueller"}).spans(text)  # and a phrase of it, as a phrase
        assert text[span[0] : span[1]] == "Robert Müller"
        # a word being typed with an umlaut is still read as the start of a word ("Grünewä" of Grünewälder)
        typed = lib.search("kernels Grünewä", typing=True)
        assert any("read as the start of a word" in n for n in typed.notes), typed.notes
        assert lib.papers(typed.ids)[0].title == "Kernels on graphs"
        for query in ("author:hogsgaard", "hogsgaard", "Høgsgaard", "author:moller"):
            assert titles(lib, query) == ["Optimal weak to strong learning"], query
        for query in ("author:lukasz", "Lukasz Kaiser", "lodz", "aero"):
            assert titles(lib, query) == ["Sparse coding in Łódź"], query
    finally:
        lib.close()


def test_a_query_that_joins_fields_with_or_is_typed_however_long(library):
    """A pasted sentence of more than PASTED_WORDS words reads "name:" as text; a query that joins fields
    with AND or OR does not (`tag:RL OR … OR id:18cbc1` listed unrelated closest matches): its unknown field
    is an error, and its minus NOT."""
    from readinglist.index.query import minus_as_not, written_as_syntax

    for typed in (
        "tag:RL OR state:queued OR tag:foo OR state:read OR id:18cbc1",
        "(title:binary AND year:2020) OR colour:red OR tag:x OR tag:y",
    ):
        assert written_as_syntax(typed)
        with pytest.raises(QueryError, match="unknown field"):
            library.search(typed)
    for pasted in (
        "BERT: Pre-training of deep bidirectional transformers OR not",  # a colon, no field
        "see https://example.org OR the appendix for the full proof",  # a link
        'the "tag:x OR y" text that we write in our paper here',  # in a phrase
        "Results on cid:2 and more for the Transformer model",  # no AND or OR
    ):
        assert not written_as_syntax(pasted), pasted
        library.search(pasted)  # no error
    long = "title:binary OR title:attention OR title:spatial OR title:networks -title:transformer"
    assert minus_as_not(long).endswith("title:networks NOT title:transformer")
    pasted = "we propose a diffusion -based model for tables"
    assert minus_as_not(pasted) == pasted


def test_closest_matches_say_the_stop_words_their_count_leaves_out(library):
    """ "binary of xyzzy" (three words) said "closest matches (1 of 2 words)": "of" is a stop word, left out of
    the search and the count. The count names it, also when the result comes from the cache of the query
    without it (the same meaning), and a query without one names none."""
    from readinglist.papers import words_counted

    plain = library.search("binary xyzzy")
    assert plain.partial and (plain.word_count, plain.stop_words) == (2, [])
    assert words_counted(plain) == " (1 of 2 words)"
    result = library.search("binary of the xyzzy")
    assert result.partial and result.stop_words == ["of", "the"]
    assert words_counted(result) == " (1 of 2 words, not counting “of”, “the”)"
    assert library.search("binary xyzzy").stop_words == []  # (and back from the cache)
    assert library.search("binary coding").stop_words == []  # every word found: no count said
