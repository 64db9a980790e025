import pytest
from whoosh.analysis import StemmingAnalyzer

from readinglist.analysis import FastStemAnalyzer

TEXTS = [
    "We propose Budgeted EXit Actor (BEXA), a novel actor-critic architecture; it's 3.5x faster.",
    "The learning of learners who learn: a study of U.S. e-mail in the 1990s and of the U.K.",
    "Ünïcode wörds, CJK 深度学习 and ligatures ﬁ; a an the of to be",
    "",
    "x y z ab cd *wild* card*s",
    "Reinforcment",
    "the",
]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("options", [{}, {"positions": True}, {"positions": True, "chars": True},
                                     {"removestops": False, "positions": True}, {"mode": "query"},
                                     {"tokenize": False}, {"tokenize": False, "removestops": False}])  # fmt: skip
def test_same_tokens_as_stemming_analyzer(text, options):
    def tokens(analyzer):
        return [(t.text, getattr(t, "pos", None), getattr(t, "startchar", None), t.stopped)
                for t in analyzer(text, **options)]  # fmt: skip

    assert tokens(FastStemAnalyzer()) == tokens(StemmingAnalyzer())


def test_same_tokens_on_real_abstracts():
    from pathlib import Path

    text = (Path(__file__).parent.parent / "corpus" / "icml2026.txt").read_text()
    fast = [(t.text, t.pos) for t in FastStemAnalyzer()(text, positions=True)]
    stock = [(t.text, t.pos) for t in StemmingAnalyzer()(text, positions=True)]
    assert fast == stock and len(fast) > 2000
