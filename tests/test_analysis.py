from pathlib import Path

import pytest
from whoosh.analysis import RegexTokenizer

from readinglist.index.analysis import (
    TAG_SEPARATOR,
    WORD_PATTERN,
    FoldFilter,
    TagAnalyzer,
    WordAnalyzer,
    fold,
    spelt_out,
    stem,
    stem_prefix,
    tag_key,
)

TEXTS = [
    "We propose Budgeted EXit Actor (BEXA), a novel actor-critic architecture; it's 3.5x faster.",
    "The learning of learners who learn: a study of U.S. e-mail in the 1990s and of the U.K.",
    "Ünïcode wörds, CJK 深度学习 and ligatures ﬁ; a an the of to be",
    "",
    "x y z ab cd *wild* card*s",
    "Reinforcment",
    "the",
    "ℓ₁-regression, ℓ_1 and α_i; x² __init__ _ a_b __",
    "Klaus-Robert Müller, Mørup and Å. Grünewälder on Schrödinger (MÜLLER)",
    "A M\u0332ask, Se\u0301bastien's cafe\u0301 and x\u0302 a\u20dd; हिन्दी भाषा",
    "t_mix of x_(train), θ_(t+1), x_(i,j), snake_case_name, p_data and x_(train)^2 a_(b_c) _(x)",
]
CORPUS = (Path(__file__).parent.parent / "corpus" / "icml2026.txt").read_text()


def reference():
    """The Whoosh chain the one-pass analyzer stands for."""
    return RegexTokenizer(WORD_PATTERN) | FoldFilter()


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("options", [{}, {"positions": True}, {"positions": True, "chars": True},
                                     {"removestops": False, "positions": True}, {"mode": "query"},
                                     {"mode": "index", "positions": True}])  # fmt: skip
def test_same_tokens_as_the_whoosh_chain(text, options):
    def tokens(analyzer):
        return [(t.text, getattr(t, "pos", None), getattr(t, "startchar", None)) for t in analyzer(text, **options)]

    assert tokens(WordAnalyzer()) == tokens(reference())


def test_every_word_kept_in_its_own_form_and_folded():
    """Stop words, one-letter words and unstemmed forms are all in the index: a pasted title's "is" and
    "of" are found, and the exact form of a word can be told from its stem's other forms."""
    words = [w for w, _ in WordAnalyzer().words("Attention Is All You Need: the Learners of ℓ₁ in Schölkopf's café")]
    assert words == ["attention", "is", "all", "you", "need", "the", "learners", "of", "l1", "in", "scholkopf", "s",
                     "cafe"]  # fmt: skip
    assert fold("ℓ_1") == fold("ℓ₁") == fold("L1") == "l1"  # $\ell_1$'s plain text, a title's ℓ₁ and L1
    assert fold("ﬁne") == "fine" and fold("STRASSE") == fold("straße") == "strasse"
    # letters NFKD leaves whole, as a reader types them in ASCII
    assert fold("Høgsgaard") == "hogsgaard" and fold("Łukasz") == "lukasz" and fold("Ærø") == "aero"
    assert fold("ǿ") == "o" and fold("Ǽ") == "ae"  # such a letter with a mark of its own
    # a formula's letters (\mathsf{Attn}, \mathcal{X}, \mathbb{R}) have no lower case: folded after NFKC
    assert fold("𝖠𝗍𝗍𝗇") == "attn" and fold("𝒳") == "x" and fold("ℝ") == "r" and fold("𝐖𝖾𝗂𝗀𝗁𝗍") == "weight"


def test_a_word_with_an_umlaut_is_also_held_spelt_out():
    """Müller is "muller" and, at the same place, "mueller": German and Scandinavian names typed in ASCII."""
    words = WordAnalyzer().words("Klaus-Robert Müller, Mørup and Grünewälder", spell_out=True)
    assert words == [("klaus", 0), ("robert", 1), ("muller", 2), ("mueller", 2), ("morup", 3), ("moerup", 3),
                     ("and", 4), ("grunewalder", 5), ("gruenewaelder", 5)]  # fmt: skip
    indexed = [(t.text, t.pos) for t in WordAnalyzer()("Klaus-Robert Müller", positions=True, mode="index")]
    assert indexed == [("klaus", 0), ("robert", 1), ("muller", 2), ("mueller", 2)]
    # a query's text, and any text not being indexed, keeps one word a place (a pasted title's phrase)
    assert WordAnalyzer().words("Müller") == [("muller", 0)]
    assert spelt_out("Schrödinger") == "schroedinger" and spelt_out("Muller") == spelt_out("Łódź") == ""
    assert spelt_out("Mu\u0308ller") == "mueller"  # a decomposed ü too
    for mode in ("query", ""):
        assert [t.text for t in WordAnalyzer()("Müller", mode=mode)] == ["muller"]


def test_a_combining_mark_stays_in_its_word_and_is_folded_away():
    """A letter with a mark NFC cannot compose ("M̲ask": M and U+0332), or an accent left decomposed, was two
    words ("m", "ask"): \\w matches no mark. The mark belongs to the word and folds away as an accent does, in
    the index and in a query alike."""
    analyzer = WordAnalyzer()
    assert analyzer.words("A M\u0332ask token", spell_out=True) == [("a", 0), ("mask", 1), ("token", 2)]
    assert analyzer.words("Se\u0301bastien's cafe\u0301") == [("sebastien", 0), ("s", 1), ("cafe", 2)]
    assert analyzer.words("Sébastien") == analyzer.words("Se\u0301bastien")  # composed or not, one word
    assert analyzer.words("v\u20d7 and a\u20dd") == [("v", 0), ("and", 1), ("a", 2)]  # an arrow over, a circle around
    for mode in ("query", "index", ""):
        assert [t.text for t in analyzer("M\u0332ask", mode=mode)] == ["mask"]
    assert fold("M\u0332ask") == fold("mask") == "mask"
    assert len(analyzer.words("हिन्दी भाषा")) == 2  # a script's vowel signs are marks too: two words, not seven


def test_a_word_joined_by_underscores_is_held_joined_and_with_its_parts():
    """Plain text writes $t_{\\mathrm{mix}}$ "t_mix" and $x_{train}$ "x_(train)": held as the joined word
    ("tmix", what a query's "t_mix" or "x_{train}" is) and, at its place, its parts ("mix"), so a search for the
    part finds it; a query's text keeps one word a place (a phrase's words)."""
    analyzer = WordAnalyzer()
    text = "the time t_mix of x_(train) and p_data"
    assert analyzer.words(text, spell_out=True) == [
        ("the", 0), ("time", 1), ("tmix", 2), ("mix", 2), ("of", 3), ("xtrain", 4), ("train", 4), ("and", 5),
        ("pdata", 6), ("data", 6)
    ]  # fmt: skip
    assert analyzer.words(text) == [("the", 0), ("time", 1), ("tmix", 2), ("of", 3), ("xtrain", 4), ("and", 5),
                                    ("pdata", 6)]  # fmt: skip
    indexed = [(t.text, t.pos) for t in analyzer("x_(train) loss", positions=True, mode="index")]
    assert indexed == [("xtrain", 0), ("train", 0), ("loss", 1)]
    assert [t.text for t in analyzer("t_mix", mode="query")] == ["tmix"]
    # a part of one letter says nothing alone; the parentheses of a formula are no subscript's
    assert analyzer.words("x_i ℓ_1 __init__ θ_(t+1)", spell_out=True) == [("xi", 0), ("l1", 1), ("init", 2),
                                                                          ("θ", 3), ("t", 4), ("1", 5)]  # fmt: skip
    assert analyzer.words("snake_case_name", spell_out=True) == [("snakecasename", 0), ("snake", 0), ("case", 0),
                                                                 ("name", 0)]  # fmt: skip


def test_the_analyzer_pickles_small_and_applies_the_patches_when_unpickled(monkeypatch):
    """The schema, analyzer included, is pickled into every commit's table of contents and unpickled in
    Whoosh's writer processes, which must apply the patches (`words()`): the pattern (16 kB of mark ranges) is
    not pickled, and unpickling still reaches __setstate__ (an object pickled without a state never does)."""
    import pickle

    from readinglist.index import patches

    applied = []
    monkeypatch.setattr(patches, "apply", lambda *args: applied.append(args) or True)
    data = pickle.dumps(WordAnalyzer(), 2)
    assert len(data) < 200
    copy = pickle.loads(data)
    assert applied and copy.expression is WORD_PATTERN and copy == WordAnalyzer()
    assert [t.text for t in copy("M\u0332ask t_mix", mode="index")] == ["mask", "tmix", "mix"]


def test_a_whole_value_is_one_folded_token():
    """A prefix's or wildcard's text is folded, not split (tokenize=False)."""
    assert [t.text for t in WordAnalyzer()("Schöl*", tokenize=False)] == ["schol*"]


def test_words_equal_the_analyzer_on_real_abstracts_and_unicode_edge_cases(monkeypatch):
    """words() takes no Token objects for any text: lower-casing can change a non-ASCII word's length
    (İ → i̇) or split it, so it finds the words first and folds each, as the chain does."""
    edge = ["İstanbul İİ straße ΣΊΣΥΦΟΣ ﬁne café naïve e\u0301t\u00e9 ǅemal Ⅻ x² the of a", "É a", "ÀB"]
    texts = [*TEXTS, *CORPUS.split("\n\n"), *edge]
    expected = [[(t.text, t.pos) for t in reference()(text, positions=True)] for text in texts]
    analyzer = WordAnalyzer()

    def no_tokens(*_args, **_kwargs):
        raise AssertionError("words() went through Token objects")

    monkeypatch.setattr(WordAnalyzer, "__call__", no_tokens)
    for text, want in zip(texts, expected, strict=True):
        assert analyzer.words(text) == want, text
    assert sum(len(w) for w in expected) > 2000


@pytest.mark.parametrize("boost", [1.0, 3.0])
def test_postings_from_words_equal_whoosh_positions_word_values(boost):
    """The patched Positions.word_values gives Whoosh's own postings — words, frequencies, weights and
    the encoded positions byte for byte — for ASCII and Unicode text and repeated words."""
    from whoosh.analysis import StemmingAnalyzer
    from whoosh.formats import Positions

    from readinglist.index import patches

    assert patches.apply()
    original = Positions._readinglist_original  # type: ignore[attr-defined]
    assert Positions.word_values is not original
    texts = [
        *TEXTS,
        *CORPUS.split("\n\n"),
        "İstanbul e.g. the U.S.A. naïve x.y.z 3.5 a.b. __init__ " * 3,
        "the of " * 300,
    ]
    fmt = Positions(field_boost=boost)
    analyzer = WordAnalyzer()
    for text in texts:
        assert fmt.word_values(text, analyzer, mode="index") == list(original(fmt, text, analyzer, mode="index"))
    # anything else goes to Whoosh unchanged
    stock = StemmingAnalyzer()
    assert list(fmt.word_values(TEXTS[0], stock, mode="index")) == list(original(fmt, TEXTS[0], stock, mode="index"))


def test_every_form_of_a_stem_starts_with_its_prefix():
    """What Vocabulary.forms relies on to find a stem's forms by walking the sorted terms from a prefix."""
    words = {w for w, _ in WordAnalyzer().words(CORPUS) if w.isalpha()}
    words |= {"hoping", "hope", "studies", "study", "happiness", "happy", "relational", "conflated", "agreed"}
    missed = [w for w in words if not w.startswith(stem_prefix(stem(w)))]
    assert not missed


def test_tags_are_found_as_the_command_line_and_sidebar_show_them():
    """The CLI shows the tag "must read" as #must-read; tag: takes that, the sidebar's "must read", any case."""
    assert tag_key("#must-read") == tag_key("must read") == tag_key("Must  Read") == "must read"
    analyzer = TagAnalyzer()
    tags = TAG_SEPARATOR.join(["must read", "Deep RL", "to-do", "Optimization, convex"])
    assert [t.text for t in analyzer(tags, mode="index")] == ["must read", "deep rl", "to do", "optimization, convex"]
    assert tag_key("nlp,") == tag_key(",NLP") == "nlp"  # a pasted word's comma is no part of it
    # a query's piece that is no word is no tag (a pasted "=" or "--" must not become a required word)
    assert [t.text for t in analyzer("--", mode="query")] == [] and [t.text for t in analyzer("c++", mode="query")]


def test_compact_positions_round_trip_and_postings_as_whoosh_makes_them():
    """The index's positions (varint deltas) decode to what was encoded, count as Whoosh's frequency, and
    the patched word_values gives what Whoosh's own (Token) path gives with that format."""
    from whoosh.formats import Positions

    from readinglist.index import patches
    from readinglist.index.schema import CompactPositions, make_schema

    assert patches.apply()
    fmt = CompactPositions(field_boost=3.0)
    for poslist in [[0], [5], [127], [128], [16383], [16384], [3, 4, 90, 91, 5000, 10**7], list(range(0, 3000, 7))]:
        value = fmt.encode(poslist)
        assert fmt.decode_positions(value) == poslist
        assert fmt.decode_frequency(value) == len(poslist) and fmt.decode_weight(value) == 3.0 * len(poslist)
    assert len(fmt.encode([17])) == 1 and len(Positions().encode([17])) > 10
    assert fmt.decode_positions(fmt.combine([fmt.encode([1, 9]), fmt.encode([4])])) == [1, 4, 9]
    original = Positions._readinglist_original  # type: ignore[attr-defined]
    analyzer = WordAnalyzer()
    for text in [*TEXTS, *CORPUS.split("\n\n"), "the of " * 300]:
        assert fmt.word_values(text, analyzer, mode="index") == list(original(fmt, text, analyzer, mode="index"))
    schema = make_schema()
    assert all(type(schema[name].format) is CompactPositions for name in ("title", "abstract", "authors", "note"))
