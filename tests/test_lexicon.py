"""A segment's terms held end to end in one bytes object (vocabulary.Words): what a list of bytes gave."""

from __future__ import annotations

import random
import sys
from array import array
from bisect import bisect_left

import pytest

from readinglist.index import vocabulary
from readinglist.index.vocabulary import Lexicon


def _terms(n: int, seed: int = 4) -> list[bytes]:
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyzé"
    found = {"".join(rng.choice(letters) for _ in range(rng.randint(1, 9))).encode("utf-8") for _ in range(n)}
    return sorted(found)


def _lexicon(terms: list[bytes]) -> Lexicon:
    ends, end = array("Q"), 0
    for t in terms:
        end += len(t)
        ends.append(end)
    n = len(terms)
    return Lexicon(b"".join(terms), ends, array("I", range(n)), array("Q", range(n)), array("I", [1] * n))


@pytest.mark.parametrize("n", [0, 1, 31, 32, 33, 1000, 5000])
def test_the_terms_read_search_and_walk_as_a_list_of_them(n):
    terms = _terms(n)
    lex = _lexicon(terms)
    assert len(lex.words) == len(terms)
    assert list(lex.words) == terms
    assert [lex.words[j] for j in range(len(terms))] == terms
    assert lex.words[1:7] == terms[1:7]
    if terms:
        assert lex.words[-1] == terms[-1]
    with pytest.raises(IndexError):
        lex.words[len(terms)]
    rng = random.Random(n)
    probes = [*terms, *(t + b"a" for t in terms[::7]), b"", b"\xff", b"a", b"zzzzzzzzzz"]
    probes += [t[:-1] for t in terms[::5]]
    for probe in probes + [bytes(rng.choice(b"abcz") for _ in range(3)) for _ in range(200)]:
        assert lex.words.bisect(probe) == bisect_left(terms, probe), probe
        j = lex.find(probe)
        assert (j is not None and terms[j] == probe) == (probe in terms)
    for prefix in [b"", b"a", b"ab", b"\xc3", b"zz", *(t[:2] for t in terms[::11])]:
        assert [lex.words[j] for j in lex.span(prefix)] == [t for t in terms if t.startswith(prefix)], prefix


def test_the_terms_cost_their_bytes_not_an_object_each():
    terms = _terms(20000)
    lex = _lexicon(terms)
    held = sys.getsizeof(lex.words.blob) + lex.words.ends.itemsize * len(lex.words.ends)
    held += sum(map(sys.getsizeof, lex.words.sample)) + sys.getsizeof(lex.words.sample)
    as_list = sum(map(sys.getsizeof, terms)) + sys.getsizeof(terms)
    assert held < as_list / 2.5
    assert len(lex.words.sample) == -(-len(terms) // vocabulary.SAMPLE)
