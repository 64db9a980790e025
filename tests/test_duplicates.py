"""Duplicates: the same paper from two sources is one paper; uncertain pairs are the user's to decide."""

from __future__ import annotations

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
