"""The index's own words: what a plain query word stands for, and what a misspelt one was meant to be.

`Vocabulary.forms` finds every form of a word's stem in a field (learning → learn, learned, learner, …)
by walking the field's sorted terms from the stem's prefix, and keeps those of the word typed itself (up
to a plural: `plural_stem`) apart, as its exact forms. `Vocabulary.suggestions` offers, for a word the
library does not hold or holds rarely, the words one edit away (a letter dropped, added, changed or two
swapped) from the titles, abstracts and author names, likeliest first (frequency weighted by the kind of
slip; the index then picks among them in context, see engine.Index._corrections); only words of three
letters or more, found in two papers or more, are corrections.

Both read a field's terms from its `Lexicon`: the terms of one field of one segment, read once in one
piece, then searched in memory (a prefix walk or a lookup in Whoosh's term file costs a dozen file reads).
Segments never change once written, so lexicons, a stem's forms and a field's words are kept for as long
as the segment is in the index (bounded), across searchers: after an edit only the edit's own small
segment is new.
"""

from __future__ import annotations

import threading
from array import array
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import suppress
from string import ascii_lowercase
from typing import Any, overload

from whoosh import query
from whoosh.analysis.filters import STOP_WORDS
from whoosh.reading import TermNotFound
from whoosh.searching import Searcher

from readinglist.index import patches
from readinglist.index.analysis import american, british_prefixes, stem, stem_prefix, word_stem
from readinglist.index.schema import ACRONYM, LONG_FORM

SUGGESTION_FIELDS = ("title", "abstract", "authors")
MIN_SUGGESTION_DF = 2  # a correction is a word of at least two papers
MIN_SUGGESTION_LENGTH = 3
BIG_SEGMENT = 2000  # documents
RARE_DF = 3  # a word in at most this many papers may be a misspelling...
RARE_RATIO = 30  # ...of a word in this many times more papers
FORMS_CACHE = 50_000  # (segment, field, stem) entries kept
WORDS_CACHE = 48  # (segment, field) word lists kept
SLIP_ENDING = 3  # a slip that stems like a word ends as it does: "converge" is no slip of "converged"
SHORT_STEM_ENDINGS = ("", "s", "es", "ed", "ing", "e", "er", "ers", "ly", "y", "ies", "ied")
# a derivation Porter keeps apart (predictor / predict, learner / learn, private / privacy): a stem that
# shares at least RELATED_PREFIX letters with the word's, the two differing in at most RELATED_TAIL letters
# after what they share (see related_stems)
RELATED_PREFIX = 5
RELATED_TAIL = 3

# what a word may be looked up in (and the acronyms the abstracts define: Vocabulary.long_forms, acronyms)
LEXICON_FIELDS = {"title", "abstract", "authors", "note", "venue", "tags", "acronyms"}
LEXICONS_CACHE = 96  # (segment, field) lexicons kept
SAMPLE = 32  # a lexicon keeps every SAMPLE-th term apart, to search its terms in C (see Words)

_lock = threading.Lock()
_lexicons: OrderedDict[tuple[str, str], Lexicon | None] = OrderedDict()
_segment_forms: OrderedDict[tuple[str, str, str], dict[bytes, Any]] = OrderedDict()  # form → TermInfo
_segment_words: OrderedDict[tuple[str, str], WordCounts] = OrderedDict()
_segment_related: OrderedDict[tuple[str, str, str], dict[bytes, int]] = OrderedDict()  # form → document frequency
_PER_SEGMENT: tuple[OrderedDict[Any, Any], ...] = (_lexicons, _segment_forms, _segment_words, _segment_related)


def plural_stem(word: str) -> str:
    """Harman's S-stemmer: a word's singular, as far as its spelling shows (networks → network, studies →
    study, classes → class): the forms a plain word counts as typed exactly."""
    if word.endswith("ies") and not word.endswith(("eies", "aies")) and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("es") and not word.endswith(("aes", "ees", "oes")) and len(word) > 3:
        return word[:-1]
    if word.endswith("s") and not word.endswith(("us", "ss")) and len(word) > 3:
        return word[:-1]
    return word


def exact_forms(word: str, forms: Iterable[bytes]) -> set[bytes]:
    """Those of a stem's forms that are the word typed, up to a plural (`plural_stem`) and its British or
    American spelling (`analysis.american`): "normalising flows" typed is "normalizing flow" as exactly."""
    singular = plural_stem(american(word))
    return {form for form in forms if plural_stem(american(form.decode("utf-8"))) == singular}


# How likely each kind of slip is, as a weight on a candidate's frequency: a letter left out (the word meant
# has one more) and two letters swapped are the commonest typing errors; a letter typed for another is
# less common, and an extra letter least (and it is what a word being typed looks like: "transformr" is
# "transformer" more often than "transform").
LEFT_OUT, SWAPPED, CHANGED, EXTRA = 1.0, 1.0, 0.6, 0.3


def edits(word: str) -> Iterator[tuple[str, float]]:
    """Every string one edit from the word, with the weight of that kind of slip."""
    letters = ascii_lowercase + "".join(sorted({c for c in word if not c.isascii() and c.isalpha()}))
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    for a, b in splits:
        if b:
            yield a + b[1:], EXTRA
            if len(b) > 1 and b[0] != b[1]:
                yield a + b[1] + b[0] + b[2:], SWAPPED
            for c in letters:
                if c != b[0]:
                    yield a + c + b[1:], CHANGED
        for c in letters:
            yield a + c + b, LEFT_OUT


def stem_slip(word: str, forms: dict[bytes, int]) -> str | None:
    """The word meant, when the word typed is in no paper but its stem is: "reinforcment" stems like
    "reinforcement" (Porter drops -ment and -ement alike), so it finds what that finds and was never offered a
    correction — "reinforcment lerning" read "Did you mean reinforcment learning". The commonest form of the
    stem (`forms`: form → papers) one edit away that ends as the word does (an inflection the library lacks
    is not a slip), in MIN_SUGGESTION_DF papers or more."""
    if len(word) < MIN_SUGGESTION_LENGTH or not word.isalpha() or len(word) <= SLIP_ENDING:
        return None
    near = {candidate for candidate, _ in edits(word)}
    meant = [
        (df, text)
        for form, df in forms.items()
        if df >= MIN_SUGGESTION_DF
        and (text := form.decode("utf-8")) in near
        and text[-SLIP_ENDING:] == word[-SLIP_ENDING:]
    ]
    return max(meant)[1] if meant else None


def related_stems(a: str, b: str) -> bool:
    """Are two different stems derivations of one word (see RELATED_PREFIX)?"""
    if a == b:
        return False
    shared = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        shared += 1
    return shared >= RELATED_PREFIX and len(a) + len(b) - 2 * shared <= RELATED_TAIL


def segment_id(reader) -> str:
    """What names a segment for as long as it exists (an empty index's reader has none: its id)."""
    segment = reader.segment() if callable(getattr(reader, "segment", None)) else None
    return str(segment.segment_id()) if segment is not None else f"reader-{id(reader)}"


def _remember(cache: OrderedDict, key: tuple, value: object, limit: int) -> None:
    with _lock:
        cache[key] = value
        while len(cache) > limit:
            cache.popitem(last=False)


def _recall(cache: OrderedDict, key: tuple) -> object | None:
    with _lock:
        got = cache.get(key)
        if got is not None:
            cache.move_to_end(key)
        return got


def forget_segments(segment_ids: Iterable[str]) -> None:
    """Drop what was read of segments that are gone (merged into a new one, or the index rebuilt): the caches
    are bounded by count, not size, and a 94k library's big segment holds ~20 MB of lexicons and words that
    would otherwise stay beside its successor's until pushed out."""
    gone = set(segment_ids)
    if not gone:
        return
    with _lock:
        for cache in _PER_SEGMENT:
            for key in [k for k in cache if k[0] in gone]:
                del cache[key]


def cached_segments() -> set[str]:
    """The segments something is cached of (tests and benchmarks ask)."""
    with _lock:
        return {key[0] for cache in _PER_SEGMENT for key in cache}


def segment_ids(vocabulary: Vocabulary) -> set[str]:
    """The segments a vocabulary's searcher reads."""
    return {segid for segid, _ in vocabulary.readers}


class Words(Sequence[bytes]):
    """A segment's terms of one field in order, as one bytes object and where each term ends in it: as a
    list of bytes objects each term cost 41 bytes more (a 94k library's 323k terms, 13 MB in the window)."""

    def __init__(self, blob: bytes, ends: array):
        self.blob, self.ends = blob, ends
        # every SAMPLE-th term as its own bytes object: a search bisects these in C, then SAMPLE terms
        self.sample = [self[j] for j in range(0, len(ends), SAMPLE)]

    def __len__(self) -> int:
        return len(self.ends)

    @overload
    def __getitem__(self, j: int) -> bytes: ...

    @overload
    def __getitem__(self, j: slice) -> list[bytes]: ...

    def __getitem__(self, j: int | slice) -> bytes | list[bytes]:
        if isinstance(j, slice):
            return [self[i] for i in range(*j.indices(len(self.ends)))]
        ends = self.ends
        if j < 0:
            j += len(ends)
        return self.blob[ends[j - 1] if j else 0 : ends[j]]  # IndexError past the end, as a list says

    def __iter__(self) -> Iterator[bytes]:
        blob, start = self.blob, 0
        for end in self.ends:
            yield blob[start:end]
            start = end

    def bisect(self, btext: bytes) -> int:
        """Where btext goes in the terms (bisect_left)."""
        k = bisect_right(self.sample, btext)
        return bisect_left(self, btext, max(0, (k - 1) * SAMPLE), min(len(self.ends), k * SAMPLE))


class Lexicon:
    """The terms of one field of one segment, in order, with their document frequencies and where their
    TermInfos lie in the segment's term file (see patches.field_lexicon)."""

    def __init__(self, blob: bytes, ends: array, frequencies: array, positions: array, lengths: array):
        self.words = Words(blob, ends)
        self.frequencies, self.positions, self.lengths = frequencies, positions, lengths

    def find(self, btext: bytes) -> int | None:
        j = self.words.bisect(btext)
        return j if j < len(self.words) and self.words[j] == btext else None

    def span(self, prefix: bytes) -> range:
        """The places of the terms that start with `prefix` (no UTF-8 byte is 0xff)."""
        return range(self.words.bisect(prefix), self.words.bisect(prefix + b"\xff"))

    def info(self, reader, j: int) -> Any:
        """The TermInfo of the j-th term, read from `reader` (any open reader of the segment)."""
        return patches.term_info_at(reader, self.positions[j], self.lengths[j])


def lexicon(reader, fieldname: str) -> Lexicon | None:
    """The field's lexicon in this segment, read once (None where the fast paths are off)."""
    if fieldname not in LEXICON_FIELDS:
        return None
    key = (segment_id(reader), fieldname)
    with _lock:
        if key in _lexicons:
            _lexicons.move_to_end(key)
            return _lexicons[key]
    read = patches.field_lexicon(reader, fieldname)
    found = Lexicon(*read) if read is not None else None
    _remember(_lexicons, key, found, LEXICONS_CACHE)
    return found


class Vocabulary:
    """The words of one searcher's segments. Not thread-safe on its own: the index serialises searches."""

    def __init__(self, searcher: Searcher):
        self.readers = [(segment_id(leaf.reader()), leaf.reader()) for leaf, _ in searcher.leaf_searchers()]
        self._forms: dict[tuple[str, str], dict[bytes, int]] = {}
        self._related: dict[tuple[str, str], dict[bytes, int]] = {}
        self._near: dict[tuple[str, str, float, int], set[str]] = {}  # a fuzzy term's words
        self._defined: dict[str, dict[str, int]] = {}  # an acronyms prefix → what follows it, with frequencies
        # (segment number, field, term) → TermInfo or None: what the prefix walks found, for the Ranker
        self.infos: dict[tuple[int, str, bytes], object] = {}

    # ---- a stem's forms ----

    def forms(self, fieldname: str, word: str) -> tuple[dict[bytes, int], set[bytes]]:
        """Every form of the word's stem in the field, with its document frequency, and those of them that
        are the word typed, up to a plural."""
        stemmed = word_stem(word)
        key = (fieldname, stemmed)
        found = self._forms.get(key)
        if found is None:
            found = {}
            per_segment = [self._segment_forms(segid, reader, fieldname, stemmed) for segid, reader in self.readers]
            for infos in per_segment:
                for form, info in infos.items():
                    found[form] = found.get(form, 0) + info.doc_frequency()
            for i, infos in enumerate(per_segment):
                for form in found:
                    self.infos[(i, fieldname, form)] = infos.get(form)
            self._forms[key] = found
        return found, exact_forms(word, found)

    def related(self, fieldname: str, word: str) -> dict[bytes, int]:
        """The forms of the stems derived from the word's, or it from theirs (`related_stems`), in the
        field, with their document frequencies: what a pasted title's word matches, weighing less, when its
        paper's abstract says it another way ("predictor" for "we predict")."""
        stemmed = stem(word)
        if len(stemmed) < RELATED_PREFIX or not stemmed.isalpha():
            return {}
        key = (fieldname, stemmed)
        found = self._related.get(key)
        if found is not None:
            return found
        found = {}
        for segid, reader in self.readers:
            for btext, df in self._segment_related(segid, reader, fieldname, stemmed).items():
                found[btext] = found.get(btext, 0) + df
        self._related[key] = found
        return found

    def prefix_frequency(self, fieldname: str, prefix: str) -> int:
        """The document frequencies of the field's words that begin with `prefix`, summed (a paper holding
        two of them counts twice, as a stem's forms are counted): how much a word being typed would widen to."""
        total, btext = 0, prefix.encode("utf-8")
        for _, reader in self.readers:
            words = lexicon(reader, fieldname)
            if words is not None:
                span = words.span(btext)
                total += sum(words.frequencies[span.start : span.stop])
            elif fieldname in reader.indexed_field_names():
                total += sum(info.doc_frequency() for _, info in reader.iter_prefix(fieldname, prefix))
        return total

    def long_forms(self, key: str) -> dict[str, int]:
        """The long forms the library's abstracts define the acronym by (`key`: acronym_key's), each with
        how many papers define it so: the words as the index holds them, joined by spaces."""
        return self._definitions(f"{LONG_FORM}{key}=")

    def acronyms(self, long_key: str) -> dict[str, int]:
        """The acronyms whose long form has these stems (schema.long_form_key), with how many papers define
        each so."""
        return self._definitions(f"{ACRONYM}{long_key}=")

    def begins_long_form(self, stems: str) -> bool:
        """Does some long form begin with these stems (the first two of a run of query words)? Most runs
        begin none, and their longer runs are then not looked up."""
        return bool(self._definitions(f"{ACRONYM}{stems}"))

    def _definitions(self, prefix: str) -> dict[str, int]:
        found = self._defined.get(prefix)
        if found is None:
            found = self._defined[prefix] = self._read_definitions(prefix)
        return found

    def _read_definitions(self, prefix: str) -> dict[str, int]:
        found: dict[str, int] = {}
        btext = prefix.encode("utf-8")
        for _, reader in self.readers:
            words = lexicon(reader, "acronyms")
            items: Iterable[tuple[bytes, int]] = ()
            if words is not None:
                items = ((words.words[j], words.frequencies[j]) for j in words.span(btext))
            elif "acronyms" in reader.indexed_field_names():
                items = ((b, info.doc_frequency()) for b, info in reader.iter_prefix("acronyms", prefix))
            for term, df in items:
                meant = term[len(btext) :].decode("utf-8")
                found[meant] = found.get(meant, 0) + df
        return found

    @staticmethod
    def _segment_related(segid: str, reader, fieldname: str, stemmed: str) -> dict[bytes, int]:
        """One segment's part of `related`, read once (a segment never changes)."""
        key = (segid, fieldname, stemmed)
        got = _recall(_segment_related, key)
        if isinstance(got, dict):
            return got
        out: dict[bytes, int] = {}
        prefix = stemmed[: max(RELATED_PREFIX, len(stemmed) - RELATED_TAIL)]
        words = lexicon(reader, fieldname)
        items: Iterable[tuple[bytes, int]] = ()
        if words is not None:
            items = ((words.words[j], words.frequencies[j]) for j in words.span(prefix.encode("utf-8")))
        elif fieldname in reader.indexed_field_names():
            items = ((btext, info.doc_frequency()) for btext, info in reader.iter_prefix(fieldname, prefix))
        for btext, df in items:
            text = btext.decode("utf-8")
            if text.isalpha() and related_stems(stemmed, stem(text)):
                out[btext] = df
        _remember(_segment_related, key, out, FORMS_CACHE)
        return out

    def _segment_forms(self, segid: str, reader, fieldname: str, stemmed: str) -> dict[bytes, Any]:
        key = (segid, fieldname, stemmed)
        got = _recall(_segment_forms, key)
        if isinstance(got, dict):
            return got
        out: dict[bytes, Any] = {}
        words = lexicon(reader, fieldname)
        prefix = stem_prefix(stemmed)
        prefixes = [prefix, *british_prefixes(prefix)]  # (the British spellings' terms: "behaviour" for behavior)
        if words is not None:
            if len(prefix) < 3:  # a short word: its forms are few, and the terms of its prefix many
                places = [words.find(b.encode("utf-8")) for b in _short_forms(stemmed, prefix)]
            else:
                places = [
                    j
                    for start in prefixes
                    for j in words.span(start.encode("utf-8"))
                    if word_stem(words.words[j].decode("utf-8")) == stemmed
                ]
            for j in places:
                if j is not None:
                    out[words.words[j]] = words.info(reader, j)
        elif fieldname in reader.indexed_field_names():
            if len(prefix) < 3:
                for candidate in _short_forms(stemmed, prefix):
                    btext = candidate.encode("utf-8")
                    with suppress(TermNotFound):
                        out[btext] = reader.term_info(fieldname, btext)
            else:
                for start in prefixes:
                    for btext, info in reader.iter_prefix(fieldname, start):
                        if word_stem(btext.decode("utf-8")) == stemmed:
                            out[btext] = info
        _remember(_segment_forms, key, out, FORMS_CACHE)
        return out

    def near(self, q: query.FuzzyTerm) -> set[str]:
        """The words of the fuzzy term's field within its distance, in any segment (each segment's own
        expansion, as Whoosh does; the automaton is built once per word, see patches._patch_fuzzy)."""
        key = (q.fieldname, q.text, q.maxdist, q.prefixlength)
        found = self._near.get(key)
        if found is None:
            found = set()
            for _, reader in self.readers:
                if q.fieldname in reader.indexed_field_names():
                    found.update(w.decode("utf-8") if isinstance(w, bytes) else w for w in q._btexts(reader))
            self._near[key] = found
        return found

    # ---- spelling ----

    def words(self) -> list[WordCounts]:
        """Per segment and field, the words a misspelling may be corrected to, with their frequencies."""
        return [segment_words(reader, fieldname) for _, reader in self.readers for fieldname in SUGGESTION_FIELDS]

    def suggestions(self, word: str, frequency: int, most: int = 5) -> list[tuple[str, float]]:
        """What a word in `frequency` papers may have been meant to be, likeliest first: words one edit
        away, with their frequency weighted by the kind of slip — if the word is in no paper, or in at most
        RARE_DF and the word meant in at least RARE_RATIO times as many."""
        if len(word) < MIN_SUGGESTION_LENGTH or not word.isalpha() or frequency > RARE_DF:
            return []
        import numpy as np

        tables = self.words()
        found: dict[str, float] = {}
        # a stop word means nothing beside other words
        candidates = [(candidate, weight) for candidate, weight in edits(word) if candidate not in STOP_WORDS]
        hashes = np.fromiter((hash(c) for c, _ in candidates), np.int64, len(candidates))
        frequencies = np.zeros(len(candidates), np.int64)
        for table in tables:
            frequencies += table.frequencies_of(hashes)
        for (candidate, weight), df in zip(candidates, frequencies.tolist(), strict=True):
            if df >= MIN_SUGGESTION_DF and (not frequency or df >= max(10, RARE_RATIO * frequency)):
                found[candidate] = max(found.get(candidate, 0.0), df * weight)
        return sorted(found.items(), key=lambda item: (-item[1], item[0]))[:most]

    def warm(self) -> None:
        """Read the words corrections come from now (on a worker at start-up), rather than at the first
        misspelt word."""
        self.words()


def _short_forms(stemmed: str, prefix: str) -> set[str]:
    """The words a short stem may stand for (walking the terms of a two-letter prefix costs too much)."""
    bases = {stemmed, prefix, stemmed + "e", prefix + "y"}
    return {w for w in (base + ending for base in bases for ending in SHORT_STEM_ENDINGS) if word_stem(w) == stemmed}


class WordCounts:
    """Words with their document frequencies, held as the words' hashes (sorted) beside the frequencies: a
    correction is looked up among them, never listed, and as a dictionary of strings a 94k library's 167k
    correction words held 14 MB in the window, 2 MB this way. Two words of one hash would share a count
    (64-bit hashes: not among a library's words in practice)."""

    def __init__(self, words: Iterable[tuple[str, int]] = ()):
        import numpy as np

        hashes, frequencies = array("q"), array("q")
        for word, df in words:
            hashes.append(hash(word))
            frequencies.append(df)
        order = np.argsort(np.frombuffer(hashes, np.int64), kind="stable")
        self.hashes = np.frombuffer(hashes, np.int64)[order]
        self.frequencies = np.frombuffer(frequencies, np.int64)[order]

    def __len__(self) -> int:
        return len(self.hashes)

    def get(self, word: str, default: int = 0) -> int:
        import numpy as np

        found = int(self.frequencies_of(np.asarray([hash(word)], np.int64))[0])
        return found if found else default

    def frequencies_of(self, hashes: Any) -> Any:
        """Each hash's word's frequency (0 where none of the words has it), for an int64 array of hashes."""
        import numpy as np

        if not len(self.hashes):
            return np.zeros(len(hashes), np.int64)
        where = np.minimum(np.searchsorted(self.hashes, hashes), len(self.hashes) - 1)
        return np.where(self.hashes[where] == hashes, self.frequencies[where], 0)


def segment_words(reader, fieldname: str) -> WordCounts:
    """A segment's words of a field that may be corrections (three letters or more, no digits, in two
    papers or more), with their document frequencies; read once per segment."""
    key = (segment_id(reader), fieldname)
    got = _recall(_segment_words, key)
    if not isinstance(got, WordCounts):
        got = WordCounts(_read_words(reader, fieldname))
        _remember(_segment_words, key, got, WORDS_CACHE)
    return got


def _read_words(reader, fieldname: str) -> Iterator[tuple[str, int]]:
    if fieldname not in reader.indexed_field_names():
        return
    words = lexicon(reader, fieldname)
    items: Iterable[tuple[bytes, int]]
    if words is not None:
        items = zip(words.words, words.frequencies, strict=True)
    else:
        items = ((btext, info.doc_frequency()) for btext, info in reader.iter_field(fieldname))
    # a big segment keeps the words of two papers or more (its words of one paper are mostly slips and
    # half its vocabulary); a small one keeps every word, which counts with the other segments' and fields'
    least = MIN_SUGGESTION_DF if reader.doc_count_all() >= BIG_SEGMENT else 1
    for btext, df in items:
        if df >= least and len(btext) >= MIN_SUGGESTION_LENGTH:
            text = btext.decode("utf-8")
            if text.isalpha():
                yield text, df
