"""A pasted title finds its paper when the abstract says the title's words another way (issue 19): a
derivation Porter keeps apart ("predictor" for "we predict") counts, for less; a paper lacking a common
word of the title fits better than one lacking a rare one; and a paper whose abstract has the title's
words together ranks above one that has them scattered."""

from __future__ import annotations

from conftest import library_of

from readinglist.index.vocabulary import related_stems
from readinglist.library import Library

FILLER = "We train networks on data and report results of a method on benchmarks."


def _library(tmp_path, papers: list[dict], fillers: int = 20) -> Library:
    rows = papers + [{"title": f"Filler {i}", "abstract": f"{FILLER} Item {i}."} for i in range(fillers)]
    return library_of(tmp_path, rows)


def _first(lib: Library, text: str) -> str:
    result = lib.search(text)
    return lib.papers(result.ids[:1])[0].title


def test_derived_stems_are_related_and_unrelated_ones_are_not():
    assert related_stems("predictor", "predict") and related_stems("learner", "learn")
    assert related_stems("constrain", "constraint") and related_stems("privat", "privaci")
    assert not related_stems("constrain", "construct")  # they share six letters, then part ways
    assert not related_stems("state", "static")  # four letters shared: too few to tell
    assert not related_stems("predict", "predict")


def test_a_title_word_the_abstract_has_as_a_derivation_counts_for_the_paper(tmp_path):
    """The title says "predictor", the paper's abstract "predict": with the derivation counted it has every
    word of the title, and comes before a paper with the other words more often."""
    lib = _library(tmp_path, [
        {"title": "Ours", "abstract": "We predict yields of chemical reactions from molecular graphs."},
        {"title": "Other", "abstract": "Chemical reactions and their yields: molecular graphs of chemical "
                                       "reactions, yields of reactions, molecular reactions."},
    ])  # fmt: skip
    try:
        result = lib.search("A yield predictor for chemical reactions on molecular graphs")
        assert result.partial and not result.corrections  # no paper says "predictor"
        assert lib.papers(result.ids[:1])[0].title == "Ours"
        assert result.matched[0] == result.word_count
        assert "predict" in result.terms  # shown highlighted, as the word matched
    finally:
        lib.close()


def test_a_derivation_alone_does_not_widen_a_search_that_finds_every_word(tmp_path):
    lib = _library(tmp_path, [
        {"title": "Ours", "abstract": "We predict yields of chemical reactions."},
        {"title": "Other", "abstract": "A predictor of yields of chemical reactions."},
    ])  # fmt: skip
    try:
        result = lib.search("predictor yields chemical reactions")
        assert not result.partial
        assert [p.title for p in lib.papers(result.ids)] == ["Other"]
    finally:
        lib.close()


def test_a_paper_lacking_a_common_title_word_fits_better_than_one_lacking_a_rare_one(tmp_path):
    """ "Steganographic networks for hiding messages in images": the filler papers all say "networks". One
    paper lacks "networks", another "steganographic", and the second scores a little higher on the words
    it has (a shorter abstract); the first lacks the word that says little, and fits better."""
    lib = _library(tmp_path, [
        {"title": "Lacks the rare word", "abstract": "Hiding messages in images, by networks."},
        {"title": "Lacks the common word", "abstract": "Steganographic hiding of messages in images, with codes "
                                                       "for senders and receivers."},
        {"title": "Steganography", "abstract": "Steganographic codes, and steganographic keys."},
    ], fillers=40)  # fmt: skip
    try:
        result = lib.search("Steganographic networks for hiding messages in images")
        assert result.partial
        pairs = zip(result.matched, result.scores, strict=True)
        found = dict(zip([p.title for p in lib.papers(result.ids)], pairs, strict=True))
        assert found["Lacks the rare word"][0] == found["Lacks the common word"][0] == result.word_count - 1
        assert found["Lacks the rare word"][1] > found["Lacks the common word"][1]  # the premise
        assert lib.papers(result.ids[:1])[0].title == "Lacks the common word"
    finally:
        lib.close()


def test_a_paper_with_the_title_words_together_ranks_above_one_with_them_scattered(tmp_path):
    lib = _library(tmp_path, [
        {"title": "Scattered", "abstract": "Entropy of policies; a constrained problem; a cross check; the safe "
                                           "method."},
        {"title": "Together", "abstract": "We study safe control and propose the constrained cross entropy "
                                          "method for it, with bounds."},
    ])  # fmt: skip
    try:
        result = lib.search("Constrained cross entropy method for safe")
        assert not result.partial and result.scores[1] > result.scores[0]  # Scattered, shorter, scores higher
        assert _first(lib, "Constrained cross entropy method for safe") == "Together"
        assert _first(lib, "safe entropy") == "Scattered"  # a short query is ranked as before: by BM25F
    finally:
        lib.close()


def test_a_paper_lacking_three_common_words_can_fit_better_than_one_lacking_a_rare_one(tmp_path):
    """The filler papers all say "deep neural networks": a paper lacking those three words, but with every
    rare word of the title, is looked at beside the paper lacking one rare word only (two tiers past it)."""
    lib = _library(tmp_path, [
        {"title": "Lacks the common words", "abstract": "Steganographic hiding of messages in images."},
        {"title": "Lacks a rare word", "abstract": "Hiding messages in images, with deep neural networks."},
        {"title": "Steganography", "abstract": "Steganographic codes, and steganographic keys."},
        *({"title": f"Deep {i}", "abstract": f"We train deep neural networks on data. Item {i}."} for i in range(40)),
    ], fillers=0)  # fmt: skip
    try:
        result = lib.search("Steganographic hiding of messages in images with deep neural networks")
        assert result.partial
        counts = dict(zip([p.title for p in lib.papers(result.ids)], result.matched, strict=True))
        assert counts["Lacks a rare word"] == result.word_count - 1
        assert counts["Lacks the common words"] == result.word_count - 3
        assert lib.papers(result.ids[:1])[0].title == "Lacks the common words"
    finally:
        lib.close()
