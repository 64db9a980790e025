"""readinglist.index.ranking must give exactly Whoosh's own BM25F results: same documents, same scores."""

from __future__ import annotations

import pytest
from whoosh import query
from whoosh.collectors import UnlimitedCollector

from readinglist.index import patches, ranking
from readinglist.index.engine import _column_ints, _read_pids
from readinglist.index.ranking import FIT_TIERS, Ranker, ranked
from readinglist.index.scores import ArrayScores

QUERIES = [
    "learning",
    "language model",
    "reinforcement learning policy",
    '"language model"',
    '"large language models"',
    '"reward model" OR diffusion',
    "learn*",
    "optimi?ation",
    "optimzation~",
    "optimzation~2",
    "bayesian OR variational",
    "learning NOT diffusion",
    "learning AND NOT (bandit OR regret)",
    "(graph OR network) AND neural",
    "title:learning",
    "abstract:bandit^3 regret",
    "author:wang",
    "venue:colt",
    "tag:reading",
    "state:read",
    "note:revisit",
    "tag:reading learning",
    "state:read OR tag:reading",
    '"sample complexity"~3',
    "xyzzy",
    "learning xyzzy",
]


def whoosh_results(searcher, q) -> dict[int, float]:
    collector = UnlimitedCollector()
    searcher.search_with_collector(q, collector)
    return {docnum: score for score, docnum in collector.results().top_n}


@pytest.mark.parametrize("array_from", [10**9, 1])  # no word read into arrays (readinglist.index.scores), or every one
def test_same_documents_and_scores_as_whoosh(busy_lib, monkeypatch, array_from):
    monkeypatch.setattr(ranking, "ARRAY_FROM", array_from)
    index = busy_lib.index
    with index.searching() as s:
        assert len(s.leaf_searchers()) > 1 and any(r.has_deletions() for r, _ in _readers(s))
        ranker = Ranker(s)
        assert isinstance(ranker.evaluate(index.parse("learning")), ArrayScores) == (array_from == 1)
        for text in QUERIES:
            q = index.parse(text)
            expected = whoosh_results(s, q)
            got = ranker.evaluate(q)
            assert set(got) == set(expected), text
            for d, score in expected.items():
                assert got[d] == pytest.approx(score, rel=1e-9, abs=1e-12), (text, d)
            again = ranker.evaluate(q)  # from the term cache
            assert again == got, text
    assert busy_lib.search("learning").ids  # and through the library


@pytest.mark.parametrize(
    "text, lo, hi",
    [("year:2025..2026", 2025, 2026), ("year:..2025", None, 2025), ("year:2026..", 2026, None),
     ("year:1000..2025", 1000, 2025), ("year:<2026", None, 2025), ("year:>2025", 2026, None),
     ("year:2026", 2026, 2026), ("year:1990..2000", 1990, 2000)],
)  # fmt: skip
def test_year_ranges_match_exactly_the_years_in_range(busy_lib, text, lo, hi):
    """Not Whoosh's trie ranges, which for a 16-bit field let 2026 into year:1000..2025."""
    everything = busy_lib.papers(busy_lib.search("").ids)
    expected = {p.id for p in everything if p.year and (lo is None or p.year >= lo) and (hi is None or p.year <= hi)}
    assert set(busy_lib.search(text).ids) == expected
    with_word = {p.id for p in busy_lib.papers(busy_lib.search("bound").ids)} & expected
    assert set(busy_lib.search(text + " AND bound").ids) == with_word


def _readers(searcher):
    return [(leaf.reader(), offset) for leaf, offset in searcher.leaf_searchers()]


def test_rank_order_matches_whoosh_ties_in_docnum_order():
    scores = {5: 1.0, 2: 3.0, 9: 1.0, 1: 1.0, 7: 2.0}
    assert ranked(scores) == [2, 7, 1, 5, 9]
    assert ranked(scores, 3) == [2, 7, 1]
    assert ranked({}, 10) == []


def test_term_cache_is_bounded(busy_lib, monkeypatch):
    monkeypatch.setattr(ranking, "TERM_CACHE_POSTINGS", 50)
    monkeypatch.setattr(ranking, "TERM_CACHE_PER_PAPER", 0)
    with busy_lib.index.searching() as s:
        ranker = Ranker(s)
        for word in ("learning", "model", "data", "bound", "regret"):
            ranker.evaluate(query.Term("abstract", word))
        assert ranker._cached_postings <= 50 or len(ranker._terms) == 1
        assert ranker._cached_postings == sum(len(v) for v in ranker._terms.values())


def test_cancel_stops_an_evaluation(busy_lib):
    class Stop(Exception):
        pass

    def stop():
        raise Stop

    with busy_lib.index.searching() as s, pytest.raises(Stop):
        Ranker(s).evaluate(busy_lib.index.parse("learning"), stop)


def test_fast_pid_column_equals_whoosh_column(busy_lib):
    with busy_lib.index.searching() as s:
        slow = list(s.reader().column_reader("pid"))
        assert _read_pids(s)[0] == slow
        for reader, offset in _readers(s):
            count = reader.doc_count_all()
            assert _column_ints(reader, "pid", count) == slow[offset : offset + count]


def test_field_lengths_from_memory_equal_whoosh_reading_them_from_disk(busy_lib):
    from whoosh.codec.whoosh3 import W3PerDocReader

    original = W3PerDocReader._readinglist_original
    with busy_lib.index.searching() as s:
        checked = 0
        for reader, _ in _readers(s):
            perdoc = reader._perdoc
            for field in ("title", "abstract", "authors", "note", "tags", "venue"):
                for d in range(reader.doc_count_all()):
                    assert perdoc.doc_field_length(d, field, 7) == original(perdoc, d, field, 7)
                    checked += 1
        assert checked > 100


def test_fuzzy_automaton_is_built_once_and_its_words_highlighted(busy_lib, monkeypatch):
    """Whoosh built the Levenshtein automaton for every segment and field; the highlighter expanded the
    term once more. Now one automaton per analysed word serves them all, and the highlighted words are
    those matched: the words near it and, in the stemmed fields, their stems' other forms."""
    from whoosh.automata import lev

    built = []
    real = lev.levenshtein_automaton
    monkeypatch.setattr(lev, "levenshtein_automaton", lambda *a: built.append(a) or real(*a))
    index = busy_lib.index
    index.drop_caches()
    result = busy_lib.search("optimzation~")
    with index.searching() as s:
        assert len(s.leaf_searchers()) > 1
        q = index.parse("optimzation~")
        fuzzy = [leaf for leaf in q.leaves() if isinstance(leaf, query.FuzzyTerm)]
        assert len(fuzzy) > 1  # one per searched field
    assert len(built) == len({leaf.text for leaf in fuzzy}) < len(fuzzy) * len(s.leaf_searchers())
    patches.forget_fuzzy_automata()
    monkeypatch.setattr(lev, "levenshtein_automaton", real)
    with index.searching() as s:
        expected = {w.decode() if isinstance(w, bytes) else w for leaf in fuzzy for w in leaf._btexts(s.reader())}
    assert result.ids and expected and expected <= result.terms
    assert all(busy_lib.highlighter(result.terms)(w) for w in expected)


def test_a_fuzzy_word_finds_what_the_word_near_it_finds(busy_lib):
    """`optimzation~` is `optimization`, any form of it (as when the index held stems)."""
    near = set(busy_lib.search("optimzation~").ids)
    assert near and near == set(busy_lib.search("optimization").ids) | set(busy_lib.search("optimzation").ids)


def test_a_phrase_reads_each_posting_block_once(busy_lib, monkeypatch):
    """Scores and positions of a phrase's words come from one read of their posting blocks."""
    from whoosh.codec.whoosh3 import W3LeafMatcher

    reads = []
    real = W3LeafMatcher._read_data
    monkeypatch.setattr(W3LeafMatcher, "_read_data", lambda self: reads.append(1) or real(self))
    index = busy_lib.index
    with index.searching() as s:
        phrase = index.parse('abstract:"language model"')
        words = index.parse("abstract:language AND abstract:model")
        assert isinstance(phrase, query.Phrase) and Ranker(s).evaluate(phrase)
        for_phrase, reads[:] = len(reads), []
        assert Ranker(s).evaluate(words)
        assert for_phrase == len(reads) > 0


def test_a_plain_word_is_scored_as_one_stemmed_term(busy_lib):
    """A deliberate difference from Whoosh (see ranking's docstring): the forms' weights are summed per
    document and scored with Whoosh's BM25 formula, lengths and averages, with the idf of the most frequent
    form; and which documents hold the word as typed (up to a plural) is told apart."""
    from math import log

    from whoosh.scoring import bm25

    from readinglist.index.query import Stemmed
    from readinglist.index.vocabulary import Vocabulary

    index = busy_lib.index
    with index.searching() as s:
        ranker = Ranker(s)
        checked = 0
        for word in ("learning", "models", "bounds", "regret"):
            forms, exact = Vocabulary(s).forms("abstract", word)
            assert word.encode() in exact
            weights: dict[int, float] = {}
            holding: set[int] = set()
            for form in forms:
                m = s.reader().postings("abstract", form)
                while m.is_active():
                    weights[m.id()] = weights.get(m.id(), 0.0) + m.weight()
                    if form in exact:
                        holding.add(m.id())
                    m.next()
            stem_only = set(weights) - holding
            idf = log(s.doc_count_all() / (max(forms.values()) + 1)) + 1
            avgfl = s.avg_field_length("abstract")
            expected = {d: bm25(idf, w, s.doc_field_length(d, "abstract"), avgfl, ranker.B, ranker.K1)
                        for d, w in weights.items()}  # fmt: skip
            got = ranker.evaluate(Stemmed("abstract", word, forms, exact))
            assert set(got) == set(expected), word
            for d, score in expected.items():
                assert got[d] == pytest.approx(score, rel=1e-9), (word, d)
            assert ranker.stem_only[("abstract", word)][0] & got.keys() == stem_only  # (deleted ones aside)
            checked += len(forms) > 1
        assert checked  # some word had several forms


def test_an_and_reads_only_the_posting_blocks_holding_candidates(busy_lib, monkeypatch, tmp_path):
    """The rarest part first; a common word is then looked up in its few documents: the blocks none of
    them is in are passed over on their headers (the scores equal Whoosh's: see the test above)."""
    import json

    from whoosh.codec.whoosh3 import W3LeafMatcher

    # "the" in enough papers to span several blocks even without ../shared's PMLR papers (a word of one
    # paper in a segment keeps its posting in the term entry: no block to read)
    filler = tmp_path / "filler.jsonl"
    filler.write_text("".join(json.dumps({"title": f"Filler {i}", "abstract": f"The filler paper {i}."}) + "\n"
                              for i in range(600)))  # fmt: skip
    busy_lib.import_files([filler])

    reads = []
    real = W3LeafMatcher._read_data
    monkeypatch.setattr(W3LeafMatcher, "_read_data", lambda self: reads.append(1) or real(self))
    with busy_lib.index.searching() as s:
        common, rare = query.Term("abstract", "the"), query.Term("abstract", "hallucination")
        Ranker(s).evaluate(common)
        whole, reads[:] = len(reads), []
        Ranker(s).evaluate(rare)
        alone, reads[:] = len(reads), []
        both = Ranker(s).evaluate(query.And([common, rare]))
        assert both and whole > 3 and len(reads) < alone + whole


def test_closest_matches_are_every_paper_of_the_best_tiers(busy_lib):
    """Ranker.partial against counting every word in every paper: the papers it returns are all those with
    at least as many of the words as the fewest it returns, each with its count and summed score; for the
    best fit, the best tier and up to FIT_TIERS after it."""
    from collections import Counter

    from readinglist.index.query import resolve
    from readinglist.index.vocabulary import Vocabulary

    index = busy_lib.index
    with index.searching() as s:
        vocabulary = Vocabulary(s)
        for text in ("regret bandit diffusion hallucination", "bound xyzzy regret", "language model reward xyzzy"):
            words = [resolve(index.parse(w), vocabulary) for w in text.split()]
            ranker = Ranker(s)
            full = [ranker.evaluate(w) for w in words]
            for fit in (False, True):
                count = Counter(d for f in full for d in f)
                scores, counts = Ranker(s).partial(words, fit=fit)
                assert scores, text
                least = min(counts.values())
                assert set(scores) == {d for d, c in count.items() if c >= least}, text
                assert max(counts.values()) == max(count.values())
                tiers = 1 + min(FIT_TIERS, max(counts.values()) - least) if fit else 1
                assert len(set(counts.values())) == tiers, text
                for d, score in scores.items():
                    assert counts[d] == count[d]
                    assert score == pytest.approx(sum(f[d] for f in full if d in f), rel=1e-9)


def _counting_block_reads(monkeypatch) -> list:
    from whoosh.codec.whoosh3 import W3LeafMatcher

    reads: list = []
    real = W3LeafMatcher._read_data
    monkeypatch.setattr(W3LeafMatcher, "_read_data", lambda self: reads.append(1) or real(self))
    return reads


def test_a_word_read_for_one_form_of_its_stem_serves_the_others(busy_lib, monkeypatch):
    """Typing "learn", then "learning": the stem's postings are read once; the second search only sorts
    out which papers hold the form typed."""
    index = busy_lib.index
    index.drop_caches()
    fresh = busy_lib.search("learning")
    index.drop_caches()
    busy_lib.search("learn")
    reads = _counting_block_reads(monkeypatch)
    again = busy_lib.search("learning")
    assert not reads and again.ids == fresh.ids and again.scores == fresh.scores


def test_the_words_before_the_one_being_typed_are_read_whole_for_the_next_keystroke(busy_lib, monkeypatch):
    """ "learning model regre" finds nothing past its rare last word, yet reads "learning" and "model" whole
    (and keeps them), so that "learning model regret" reads only what is new."""
    index = busy_lib.index
    index.drop_caches()
    reads = _counting_block_reads(monkeypatch)
    busy_lib.search("learning model regret")
    cold, reads[:] = len(reads), []
    index.drop_caches()
    busy_lib.search("learning model regre")
    reads[:] = []
    warm = busy_lib.search("learning model regret")
    assert warm.ids and len(reads) < cold / 2


def test_equal_scores_come_in_the_ties_order_whichever_way_they_are_sorted():
    """Ties are broken by the paper ids: a large unlimited sort does it in numpy from an array of them
    (ranked_ids), a limited one with a heap, a small one with sorted(): all three give one order."""
    import random

    import numpy as np

    from readinglist.index.ranking import ARRAY_SORT_FROM, ranked, ranked_ids

    rng = random.Random(7)
    docs = rng.sample(range(3 * ARRAY_SORT_FROM), ARRAY_SORT_FROM + 10)
    scores = {d: float(rng.randint(0, 5)) for d in docs}  # many ties
    order = list(range(3 * ARRAY_SORT_FROM))
    rng.shuffle(order)
    expected = sorted(scores, key=lambda d: (-scores[d], order[d]))
    ids, values, top = ranked_ids(scores, scores, np.array(order))
    assert top.tolist() == expected
    assert ids == [order[d] for d in expected] and values == [scores[d] for d in expected]
    assert ranked(scores, None, order) == expected
    assert ranked(scores, 50, order) == expected[:50]
    small = {d: scores[d] for d in docs[:100]}
    assert ranked(small, None, order) == sorted(small, key=lambda d: (-small[d], order[d]))
    assert ranked(small, None) == sorted(small, key=lambda d: (-small[d], d))  # no ids: docnum order


def test_ranked_ids_sorts_by_the_keys_and_gives_the_scores():
    """The sort keys may differ from the scores shown (a title-phrase bonus, a word held only in another
    form): the order is the keys', each paper's score its own, whatever order the two dictionaries were
    built in."""
    import random

    import numpy as np

    from readinglist.index.ranking import ARRAY_SORT_FROM, ranked_ids

    rng = random.Random(3)
    docs = rng.sample(range(2 * ARRAY_SORT_FROM), ARRAY_SORT_FROM)
    scores = {d: rng.random() for d in docs}
    keys = {d: -scores[d] if d % 3 == 0 else scores[d] for d in reversed(docs)}  # another order, other values
    pids = np.arange(10_000, 10_000 + 2 * ARRAY_SORT_FROM)
    ids, values, top = ranked_ids(keys, scores, pids)
    expected = sorted(keys, key=lambda d: (-keys[d], pids[d]))
    assert top.tolist() == expected
    assert ids == [int(pids[d]) for d in expected]
    assert values == [scores[d] for d in expected] and values != sorted(values, reverse=True)


def test_the_term_cache_grows_with_the_library_so_a_querys_words_stay_cached(lib, monkeypatch):
    """A common word's postings grow with the library: a cache of a fixed size held fewer of a query's words
    the larger the library was, and every keystroke read the others again. It holds TERM_CACHE_PER_PAPER
    postings a paper (TERM_CACHE_POSTINGS at the least): the words of a query typed stay read."""
    monkeypatch.setattr(ranking, "TERM_CACHE_POSTINGS", 1)  # the floor out of the way: the per-paper share
    index = lib.index
    with index.searching() as s:
        ranker = Ranker(s)
        assert ranker.cache_postings == ranking.TERM_CACHE_PER_PAPER * s.doc_count_all() > 1
        first = index.parse("learning model")
        ranker.evaluate(first)
        work = ranker.work
        assert ranker.evaluate(first) and ranker.work == work  # both words from the cache: nothing decoded


def test_a_searcher_swap_reads_the_pid_column_of_new_segments_only(busy_lib):
    """Each segment's pids are kept by segment id: after an edit only the edit's segment is read, and the
    docnum → paper id list is still Whoosh's own column."""
    with busy_lib.index.searching() as s:
        _, kept = _read_pids(s)
    paper = busy_lib.search("learning").ids[0]
    busy_lib.set_state([paper], "skimmed")
    busy_lib.flush_index()
    with busy_lib.index.searching() as s:
        pids, now = _read_pids(s, kept)
        assert pids == list(s.reader().column_reader("pid"))
    assert set(now) - set(kept) and set(now) & set(kept)  # the edit's own segment, read, beside older ones
    for segid in set(now) & set(kept):
        assert now[segid] is kept[segid]  # not read again


def test_a_search_ranks_the_same_when_numpy_sorts_every_match(lib, monkeypatch):
    """Index.search sorts every match of many with ranking.ranked_ids: the same papers in the same order
    with the same scores and word counts as the sort of a few (here forced either way on the bundled corpus),
    for plain words, a title's words (the phrase bonus), and closest matches."""
    from readinglist.index import engine

    queries = ["learning", "reinforcement learning policy", "Diffusion models for", "regret bandit zzyzxq"]

    def results(threshold: int) -> list[tuple]:
        monkeypatch.setattr(engine, "ARRAY_SORT_FROM", threshold)
        out = []
        for q in queries:
            lib.index.drop_caches()
            r = lib.search(q)
            out.append((r.ids, r.scores, r.matched, r.partial))
        return out

    by_numpy, by_sorted = results(1), results(10**9)
    assert by_numpy == by_sorted
    assert all(ids for ids, *_ in by_numpy) and by_numpy[-1][3]  # every query found papers; the last, closest
    assert all(isinstance(i, int) for i in by_numpy[0][0]) and isinstance(by_numpy[0][1][0], float)
