"""A large result held as arrays (readinglist.index.scores) must rank and score exactly as the dictionaries do."""

from __future__ import annotations

import heapq
import random

import numpy as np
import pytest

from readinglist.index import engine, patches, ranking, scores
from readinglist.index.ranking import Ranker, ranked, ranked_ids
from readinglist.index.scores import ArrayScores
from tests.test_ranking import QUERIES


def _array(d: dict[int, float]) -> ArrayScores:
    docs = sorted(d)
    return ArrayScores(np.array(docs, dtype=np.int64), np.array([d[x] for x in docs], dtype=np.float64))


def _random_scores(rng: random.Random, n: int, universe: int = 400) -> dict[int, float]:
    docs = rng.sample(range(universe), n)  # a dictionary in no particular order, as a restricted read makes one
    return {d: rng.choice([rng.uniform(0.1, 9.0), 1.0, 2.5]) for d in docs}


def _dict_or(parts: list[dict[int, float]]) -> dict[int, float]:
    """The ranker's dictionary OR, as it was."""
    acc = dict(parts[0])
    for other in parts[1:]:
        for d, s in other.items():
            acc[d] = acc.get(d, 0.0) + s
    return acc


def _dict_alternatives(parts: list[dict[int, float]]) -> dict[int, float]:
    acc = dict(parts[0])
    for other in parts[1:]:
        for d, s in other.items():
            if s > acc.get(d, 0.0):
                acc[d] = s
    return acc


@pytest.mark.parametrize("seed", range(8))
def test_the_array_operations_give_the_dictionaries_floats(seed):
    rng = random.Random(seed)
    parts = [_random_scores(rng, rng.randint(1, 300)) for _ in range(rng.randint(1, 4))]
    mixed = [_array(p) if i % 2 == 0 else p for i, p in enumerate(parts)]  # either kind may come in
    assert dict(scores.summed(mixed).items()) == _dict_or(parts)
    # a later part's score of 0 or less adds no document (the dictionary's get(d, 0.0))
    with_low = [*parts, {d: -1.0 for d in range(400, 410)} | {500: 0.0}]
    assert dict(scores.best_of([_array(p) for p in with_low]).items()) == _dict_alternatives(with_low)
    acc, other = parts[0], _random_scores(rng, 200)
    assert dict(scores.both(_array(acc), other).items()) == {d: s + other[d] for d, s in acc.items() if d in other}
    assert dict(scores.without(_array(acc), other, 2).items()) == {d: s + 2 for d, s in acc.items() if d not in other}
    assert dict(scores.without(acc, set(other)).items()) == {d: s for d, s in acc.items() if d not in other}
    wanted = np.array(sorted(rng.sample(range(450), 100)), dtype=np.int64)
    assert dict(scores.among(_array(acc), wanted).items()) == {d: acc[d] for d in wanted.tolist() if d in acc}
    assert scores.held(_array(acc), wanted.tolist()) == {d for d in wanted.tolist() if d in acc}
    some = rng.sample(sorted(acc), min(5, len(acc)))
    assert scores.scores_of(_array(acc), some) == [acc[d] for d in some]
    extra = {d: rng.uniform(0, 3) for d in some} | {999: 5.0}  # a document without a score stays out
    expected = dict(acc)
    for d in some:
        expected[d] += extra[d]
    assert dict(scores.plus(_array(acc), extra).items()) == expected == scores.plus(acc, extra)
    groups = [set(some[:3]), set(some[1:]) | {998}]
    lowered = dict(acc)
    for group in groups:
        for d in group:
            if d in lowered:
                lowered[d] -= 7.5
    assert dict(scores.minus_each(_array(acc), groups, 7.5).items()) == lowered
    assert scores.top_score(_array(acc)) == max(acc.values()) == scores.top_score(acc)
    assert dict(scores.with_added(_array(acc), other).items()) == {d: s + other.get(d, 0.0) for d, s in acc.items()}
    missing = next(d for d in range(1000) if d not in acc)
    with pytest.raises(KeyError):  # a neighbour's score is not a missing document's
        scores.scores_of(_array(acc), [*some, missing])


@pytest.mark.parametrize("seed", range(6))
def test_the_best_few_of_arrays_are_ranked_as_the_dictionarys(seed):
    """Ties (many equal scores here) by the tie order, else by docnum, as ranking.ranked orders a dictionary."""
    rng = random.Random(seed)
    d = {doc: float(rng.randint(0, 5)) for doc in rng.sample(range(1000), 300)}
    order = list(range(1000))
    rng.shuffle(order)  # docnum → paper id
    for limit in (1, 7, 50, 299, 300, 400):
        by_heap = [x for x, _ in heapq.nlargest(limit, d.items(), key=lambda item: (item[1], -order[item[0]]))]
        assert ranked(_array(d), limit, order) == by_heap
        assert ranked(_array(d), limit) == ranked(d, limit)
    assert ranked(_array(d), 0, order) == []


def test_ranked_ids_takes_every_match_from_the_arrays():
    d = {5: 1.0, 2: 3.0, 9: 1.0, 1: 1.0, 7: 2.0}
    pids = np.array([50, 10, 20, 30, 40, 90, 60, 70, 80, 0], dtype=np.int64)
    keys = scores.plus(_array(d), {2: 0.5})  # keys apart from the scores, on the same documents
    ids, found, docs = ranked_ids(keys, _array(d), pids)
    assert docs.tolist() == [2, 7, 9, 1, 5] and ids == [20, 70, 0, 10, 90]  # ties by paper id
    assert found == [3.0, 2.0, 1.0, 1.0, 1.0]
    assert ranked_ids(keys, d, pids)[:2] == (ids, found)  # the scores as a dictionary


def test_array_scores_read_as_a_mapping():
    a = _array({7: 1.5, 3: 2.0})
    assert list(a) == [3, 7] and len(a) == 2 and a[7] == 1.5 and 3 in a and 4 not in a
    assert a.get(4, 0.0) == 0.0 and a == {3: 2.0, 7: 1.5} and sorted(a.values()) == [1.5, 2.0]
    assert dict.fromkeys(a, 1.0) == {3: 1.0, 7: 1.0}


SEARCHES = [
    *QUERIES,
    "Diffusion models for",  # a title's start: the phrase bonus
    "reinforcement learning policy gradient",  # proximity of the words
    "regret bandit zzyzxq",  # closest matches
    "reinforcment lerning",  # corrected
    "learning AND NOT neural",
]


@pytest.mark.parametrize("sort_from", [1, 10**9])  # every match sorted by numpy (ranked_ids), or none
def test_a_search_is_the_same_on_arrays_and_on_dictionaries(busy_lib, monkeypatch, sort_from):
    """Through Index.search (rank keys, stem-only papers, title bonus, proximity, the sort, the best few of a
    limited search): the same ids, scores and word counts, float for float, whether every word is read into
    arrays or none is."""
    monkeypatch.setattr(engine, "ARRAY_SORT_FROM", sort_from)

    def results(threshold: int) -> list[tuple]:
        monkeypatch.setattr(ranking, "ARRAY_FROM", threshold)
        out = []
        for text in SEARCHES:
            for typing, limit in ((False, None), (True, None), (False, 10)):
                busy_lib.index.drop_caches()
                r = busy_lib.index.search(text, limit=limit, typing=typing)
                out.append((text, r.ids, r.scores, r.matched, r.partial, r.correction))
        return out

    on_arrays, on_dicts = results(1), results(10**9)
    assert on_arrays == on_dicts
    assert sum(1 for _, ids, *_ in on_arrays if len(ids) > 10) > 5


def test_a_phrase_keeps_its_common_words_cached_as_arrays(busy_lib, monkeypatch):
    """A phrase reads its words whole with their positions: a word already cached as arrays stays arrays, and
    the cache counts it once."""
    monkeypatch.setattr(ranking, "ARRAY_FROM", 1)
    index = busy_lib.index
    with index.searching() as s:
        ranker = Ranker(s)
        word = ranker.evaluate(index.parse("abstract:language"))
        for _ in range(2):
            assert ranker.evaluate(index.parse('abstract:"language model"'))
        again = ranker.evaluate(index.parse("abstract:language"))
        assert isinstance(again, ArrayScores) and again == word
        assert ranker._cached_postings == sum(ranker._sizes.values())


def test_a_whole_word_read_leaves_the_positions_undecoded(busy_lib, monkeypatch):
    """A word's postings are read for their docnums and weights; the positions beside them are decoded only
    for what needs them (a phrase)."""
    decoded = []
    real = patches.DeferredValues.decode
    monkeypatch.setattr(patches.DeferredValues, "decode", lambda self, *a: decoded.append(1) or real(self, *a))
    index = busy_lib.index
    with index.searching() as s:
        assert Ranker(s).evaluate(index.parse("abstract:language AND abstract:model"))
        assert decoded == []
        assert Ranker(s).evaluate(index.parse('abstract:"language model"'))
        assert decoded


def test_a_deferred_blocks_values_are_those_decoded_at_once():
    ids, weights = [3, 9, 40], [1.0, 2.0, 1.0]
    values = [b"\x00\x01", b"", b"\x05\x06\x07"]
    block = patches.encode_block(ids, weights, values, None, level=0)
    eager = patches.decode_block(block, 3, None)
    lazy = patches.decode_block(block, 3, None, with_values=False)
    assert isinstance(lazy[2], patches.DeferredValues) and lazy[:2] == eager[:2]
    assert lazy[2].decode(3, None) == eager[2] == tuple(values)
