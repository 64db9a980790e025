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


def test_word_counts_give_each_words_frequency_as_a_dictionary_does():
    rng = random.Random(8)
    counts = {t.decode("utf-8"): rng.randint(1, 500) for t in _terms(3000)}
    table = vocabulary.WordCounts(counts.items())
    assert len(table) == len(counts)
    probes = [*counts, "", "zzzzzzzzzzz", *(w + "q" for w in list(counts)[:300])]
    assert [table.get(w) for w in probes] == [counts.get(w, 0) for w in probes]
    import numpy as np

    got = table.frequencies_of(np.fromiter((hash(w) for w in probes), np.int64, len(probes)))
    assert got.tolist() == [counts.get(w, 0) for w in probes]
    assert vocabulary.WordCounts().get("abc") == 0
    assert table.hashes.nbytes + table.frequencies.nbytes == 16 * len(counts)  # 85 bytes a word as a dict


def test_corrections_come_from_the_segments_words_as_before(tmp_path):
    """The correction words' frequencies summed over segments and fields, and the likeliest corrections,
    are those the words' own dictionaries give."""
    import json

    from whoosh.analysis.filters import STOP_WORDS

    from readinglist.library import Library

    rng = random.Random(2)
    words = ["transformer", "transform", "attention", "network", "networks", "learning", "leaning", "graph"]
    papers = [{"title": " ".join(rng.choice(words) for _ in range(4)), "abstract": " ".join(rng.choice(words)
               for _ in range(30)), "authors": ["Ann Lerner"], "year": 2020} for _ in range(40)]  # fmt: skip
    (tmp_path / "a.jsonl").write_text("".join(json.dumps(p) + "\n" for p in papers))
    (tmp_path / "b.jsonl").write_text(json.dumps({"title": "Graph transformers", "abstract": "networks"}) + "\n")
    lib = Library.open(tmp_path / "data", seed=False)
    try:
        lib.import_files([tmp_path / "a.jsonl"])
        lib.import_files([tmp_path / "b.jsonl"])  # a second segment
        with lib.index.searching():
            voc = lib.index._vocabulary
            assert voc is not None and len(voc.readers) >= 2
            reference = [dict(vocabulary._read_words(reader, field)) for _, reader in voc.readers
                         for field in vocabulary.SUGGESTION_FIELDS]  # fmt: skip
            for typo in ["transfomer", "atention", "netwrk", "lerning", "grah", "lener", "xyz"]:
                expected: dict[str, float] = {}
                for candidate, weight in vocabulary.edits(typo):
                    df = sum(t.get(candidate, 0) for t in reference)
                    if candidate not in STOP_WORDS and df >= vocabulary.MIN_SUGGESTION_DF:
                        expected[candidate] = max(expected.get(candidate, 0.0), df * weight)
                best = sorted(expected.items(), key=lambda item: (-item[1], item[0]))[:5]
                assert voc.suggestions(typo, 0) == best, typo
            assert voc.suggestions("transfomer", 0)[0][0] == "transformer"
    finally:
        lib.close()
