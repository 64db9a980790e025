import pytest
from whoosh.analysis import StemmingAnalyzer

from readinglist.index.analysis import FastStemAnalyzer

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


@pytest.mark.parametrize("boost", [1.0, 3.0])
def test_postings_from_words_equal_whoosh_positions_word_values(boost):
    """The patched Positions.word_values gives Whoosh's own postings — words, frequencies, weights and
    the encoded positions byte for byte — for ASCII and Unicode text, repeated words and stop words first."""
    from pathlib import Path

    from whoosh.formats import Positions

    from readinglist.index import patches

    assert patches.apply()
    original = Positions._readinglist_original  # type: ignore[attr-defined]
    assert Positions.word_values is not original
    corpus = (Path(__file__).parent.parent / "corpus" / "icml2026.txt").read_text().split("\n\n")
    texts = [*TEXTS, *corpus, "İstanbul e.g. the U.S.A. naïve x.y.z 3.5 a.b. __init__ " * 3, "the of " * 300]
    fmt = Positions(field_boost=boost)
    analyzer = FastStemAnalyzer()
    for text in texts:
        assert fmt.word_values(text, analyzer, mode="index") == list(original(fmt, text, analyzer, mode="index"))
    # anything else goes to Whoosh unchanged
    stock = StemmingAnalyzer()
    assert list(fmt.word_values(TEXTS[0], stock, mode="index")) == list(original(fmt, TEXTS[0], stock, mode="index"))


def test_words_equal_stemming_analyzer_on_unicode_edge_cases(monkeypatch):
    """words() takes no Token objects for any text: lower-casing can change a non-ASCII word's length
    (İ → i̇) or split it, so it finds the words first and lower-cases each, as the analyzer chain does."""
    from pathlib import Path

    from readinglist.index.analysis import FastStemAnalyzer

    corpus = (Path(__file__).parent.parent / "corpus" / "icml2026.txt").read_text().split("\n\n")
    edge = ["İstanbul İİ straße ΣΊΣΥΦΟΣ ﬁne café naïve e\u0301t\u00e9 ǅemal Ⅻ x² the of a", "É a", "ÀB"]
    analyzer, stock = FastStemAnalyzer(), StemmingAnalyzer()
    texts = [*TEXTS, *corpus, *edge]
    expected = [[(t.text, t.pos) for t in stock(text, positions=True)] for text in texts]

    def no_tokens(*_args, **_kwargs):
        raise AssertionError("words() went through Token objects")

    monkeypatch.setattr(FastStemAnalyzer, "__call__", no_tokens)
    for text, want in zip(texts, expected, strict=True):
        assert analyzer.words(text) == want, text
