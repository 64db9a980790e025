"""A pasted real title finds its title-less paper (issue 19): a derived title — the abstract's own words
again — weighs less than an imported or a user's title, so that another paper whose derived title happens
to repeat the query's words does not outrank the paper whose abstract is about them."""

from __future__ import annotations

from conftest import library_of

from readinglist.index.schema import DERIVED_TITLE_WEIGHT, TITLE_BOOST, document
from readinglist.library import Library

# its derived title holds the query's words; its abstract, once each
ASIDE = ("Spectral clustering of graphs is a classic problem. We study kernel bandwidths for density estimation "
         "in high dimensions instead, with bounds on their error and a method to choose them.")  # fmt: skip
# about the query's words throughout, though its derived title is not made of them
ABOUT = ("We propose a sampling scheme for large networks. With it, spectral clustering of graphs with millions "
         "of nodes runs in minutes; spectral embeddings of the sampled graphs keep the clustering exact, and "
         "spectral clustering of dense graphs too.")  # fmt: skip
FILLER = "We train networks on data and report results of a method on benchmarks."
QUERY = "Spectral clustering of graphs"


def _library(tmp_path, aside_title: str = "") -> Library:
    rows = [{"abstract": ASIDE, "title": aside_title, "url": "https://example.invalid/aside"},
            {"abstract": ABOUT, "url": "https://example.invalid/about"}]  # fmt: skip
    rows += [{"abstract": f"{FILLER} Item {i}.", "title": f"Filler {i}"} for i in range(20)]
    return library_of(tmp_path, rows)


def _first_url(lib: Library, text: str) -> str:
    return lib.papers(lib.search(text).ids[:1])[0].url


def test_a_paper_whose_abstract_is_about_the_words_beats_one_whose_derived_title_repeats_them(tmp_path):
    lib = _library(tmp_path)
    try:
        aside, about = (next(p for p in lib.papers(lib.search("").ids) if p.url.endswith(end))
                        for end in ("/aside", "/about"))  # fmt: skip
        # the premise: the aside's derived title holds every word of the query, the other's does not
        assert {"spectral", "clustering", "graphs"} <= set(aside.title.lower().split())
        assert "spectral" not in about.title.lower()
        assert _first_url(lib, QUERY) == about.url
    finally:
        lib.close()


def test_an_imported_or_a_users_title_keeps_its_full_weight(tmp_path):
    lib = _library(tmp_path, aside_title=QUERY)  # the aside's title imported: it is that paper's title
    try:
        assert _first_url(lib, QUERY) == "https://example.invalid/aside"
    finally:
        lib.close()
    lib = _library(tmp_path / "edited")
    try:
        aside = next(p for p in lib.papers(lib.search("").ids) if p.url.endswith("/aside"))
        lib.set_title(aside.id, QUERY)  # the user's own title, re-indexed at full weight
        assert _first_url(lib, QUERY) == aside.url
        lib.set_title(aside.id, None)  # back to the derived one: it weighs less again
        assert _first_url(lib, QUERY) == "https://example.invalid/about"
    finally:
        lib.close()


def test_only_a_derived_title_is_boosted_down(tmp_path):
    lib = _library(tmp_path)
    try:
        papers = {p.url: p for p in lib.papers(lib.search("").ids)}
        derived = document(papers["https://example.invalid/about"])
        assert derived["_title_boost"] == DERIVED_TITLE_WEIGHT / TITLE_BOOST < 1
        assert "_title_boost" not in document(next(p for u, p in papers.items() if "example.invalid" not in u))
    finally:
        lib.close()
