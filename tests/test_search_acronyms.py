"""An acronym and its long form are one word to a pasted title's closest matches (issue 19): the library's
abstracts define them ("Markov decision processes (MDPs)"), so a title "… for constrained MDPs" finds the
paper that only spells them out, and a title "… in graph neural networks" the paper that only says GNNs."""

from __future__ import annotations

from conftest import library_of
from whoosh import query

from readinglist.acronyms import acronym_key, definitions
from readinglist.index.query import Alternatives
from readinglist.index.ranking import Ranker
from readinglist.library import Library

FILLER = "We train networks on data and report results of a method on benchmarks."


def _library(tmp_path, papers: list[dict], fillers: int = 20) -> Library:
    rows = papers + [{"title": f"Filler {i}", "abstract": f"{FILLER} Item {i}."} for i in range(fillers)]
    return library_of(tmp_path, rows)


def _found(lib: Library, text: str) -> dict[str, int]:
    """Each paper found, by title, with how many of the query's words it has (in the order found)."""
    result = lib.search(text)
    assert result.partial
    return dict(zip([p.title for p in lib.papers(result.ids)], result.matched, strict=True))


def test_an_abstract_defines_acronyms_by_their_long_forms():
    text = (
        "We study Markov decision processes (MDPs) and graph neural networks (GNNs), with a Transformer (TF) "
        "and Q-learning (QL); large language models (LLMs) again as large language models (LLMs)."
    )
    assert definitions(text) == {
        "mdp": "markov decision processes",
        "gnn": "graph neural networks",
        "llm": "large language models",
    }  # a long form of one word ("Q-learning", "Transformer") is no phrase to look for
    assert definitions("A method (ABC) at the start.") == {}  # no words spell ABC
    assert definitions("Written without a space: neural networks(NN).") == {}
    assert acronym_key("MDPs") == "mdp" and acronym_key("GNN") == "gnn" and acronym_key("RWKV7") == "rwkv7"
    assert acronym_key("Learning") is None and acronym_key("k-NN") is None


def test_an_acronym_pasted_finds_the_paper_whose_abstract_spells_it_out(tmp_path):
    papers = [
        {"title": "Ours", "abstract": "Value iteration for constrained Markov decision processes, with bounds."},
        {"title": "Other", "abstract": "Constrained value iteration with bounds for games."},
        {"title": "Defines", "abstract": "Markov decision processes (MDPs) model planning under uncertainty."},
        {"title": "Uses", "abstract": "Exploration in MDPs by optimism."},
    ]
    lib = _library(tmp_path, papers)
    try:
        found = _found(lib, "Value iteration bounds for constrained MDPs")
        assert next(iter(found)) == "Ours" and found["Ours"] == 5  # "MDPs" counted, by its long form
        assert found["Other"] == 4
        # in lower case it is a word like any other ("clip", "sam"): only an acronym typed as one is spelt out
        assert _found(lib, "value iteration bounds for constrained mdps")["Ours"] == 4
        terms = lib.search("Value iteration bounds for constrained MDPs").terms
        assert "markov decision processes" in terms and "markov" not in terms  # highlighted as the phrase
    finally:
        lib.close()


def test_an_acronym_no_abstract_defines_counts_only_as_itself(tmp_path):
    papers = [
        {"title": "Ours", "abstract": "Value iteration for constrained Markov decision processes, with bounds."},
        {"title": "Other", "abstract": "Constrained value iteration with bounds for games."},
        {"title": "Uses", "abstract": "Exploration in MDPs by optimism."},
    ]
    lib = _library(tmp_path, papers)
    try:
        assert _found(lib, "Value iteration bounds for constrained MDPs")["Ours"] == 4
    finally:
        lib.close()


def test_a_long_form_pasted_finds_the_paper_whose_abstract_says_only_the_acronym(tmp_path):
    papers = [
        {"title": "Ours", "abstract": "Oversmoothing in GNNs, studied with a spectral view of message passing."},
        {"title": "Other", "abstract": "A spectral view of message passing in deep graph models."},
        {"title": "Defines", "abstract": "Graph neural networks (GNNs) learn node embeddings."},
    ]
    lib = _library(tmp_path, papers)
    try:
        text = "Oversmoothing in graph neural networks: a spectral view of message passing"
        found = _found(lib, text)
        assert next(iter(found)) == "Ours" and found["Ours"] == lib.search(text).word_count
    finally:
        lib.close()


def test_a_long_form_an_acronym_mostly_stands_for_something_else_does_not_match_it(tmp_path):
    """ "DP" is differential privacy in most of the papers that define it: a title's "dynamic programming"
    does not match every paper that says DP."""
    papers = [
        {"title": "Ours", "abstract": "Dynamic programming for sequence alignment with gaps."},
        {"title": "Says DP", "abstract": "Sequence alignment with gaps under DP noise."},
        *(
            {"title": f"Privacy {i}", "abstract": f"Differential privacy (DP) for counting queries {i}."}
            for i in range(3)
        ),
        {"title": "Programming", "abstract": "Dynamic programming (DP) solves shortest paths."},
    ]
    lib = _library(tmp_path, papers)
    try:
        found = _found(lib, "Dynamic programming for sequence alignment with gaps and noise")
        assert next(iter(found)) == "Ours"
        assert found["Says DP"] == found["Ours"] - 1  # "noise", not "dynamic" or "programming"
    finally:
        lib.close()


def test_a_paper_with_both_the_acronym_and_its_long_form_has_the_word_once(tmp_path):
    """Alternatives score the best of their parts per paper, not the sum: a paper that defines the acronym
    would otherwise outrank every paper that uses only one of the two."""
    papers = [
        {"title": "Both", "abstract": "Graph neural networks (GNNs): GNNs and GNN layers."},
        {"title": "Long", "abstract": "Graph neural networks for molecules."},
    ]
    lib = _library(tmp_path, papers)
    try:
        with lib.index.searching() as s:
            ranker = Ranker(s)
            gnn = lib.index.parse("abstract:gnns")
            graph = lib.index.parse("abstract:graph")
            alone = [ranker.evaluate(q) for q in (gnn, graph)]
            both = ranker.evaluate(Alternatives([gnn, graph]))
            assert set(both) == set(alone[0]) | set(alone[1])
            for d, score in both.items():
                assert score == max(part.get(d, 0.0) for part in alone)
            assert ranker.evaluate(query.Or([gnn, graph])) != both  # the sum, which Alternatives is not
    finally:
        lib.close()
