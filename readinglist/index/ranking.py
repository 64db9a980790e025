"""Whoosh's BM25F ranking, computed a posting list at a time instead of a posting at a time.

Whoosh matches and scores through a tree of matcher objects that advances one document per chain of
Python calls (several µs a posting: a common word's search is most of a keystroke's budget; figures in
docs/performance-changes.md). `Ranker` evaluates the same parsed query with set algebra over whole posting lists,
decoded block by block through Whoosh's own codec, and scores them with the formula and collection
statistics Whoosh's BM25F uses; `tests/test_ranking.py` checks every result and score against Whoosh's own
search. Query types not handled here (spans, sloppy phrases, …) go to Whoosh's matcher for that sub-query
only, so whatever Whoosh accepts still works. Deliberate differences, each tested:

- numeric ranges match exact values (Whoosh's trie ranges are wrong for a 16-bit field, see `_numeric_range`);
- a plain word (`query.Stemmed`: every form of its stem) is scored as one stemmed term, as BM25F scores a
  term of a stemmed field: its forms' weights summed per document, the idf of its most frequent form (as
  Lucene's SynonymQuery does). Whoosh's matchers would sum each form's own BM25, a rare form's idf
  outweighing the word typed. Which documents hold only other forms than the one typed (up to a plural)
  is kept (`stem_only_docs`): the index ranks them after those with the form typed (engine.rank_keys);
- a prefix, wildcard or fuzzy term that expands to more than MAX_EXPANSION words searches the most frequent
  of them that fit in MAX_EXPANSION_POSTINGS, and says so (`notes`): `a*` would read every posting of
  thousands of words;
- `partial` ranks the papers that have most of a query's words (the fallback when none has them all).

An And evaluates its cheapest part first and looks up the others only in the documents still in the
running (`within`): a posting block none of them is in is skipped unread, so a pasted sentence's "the" and
"of" cost a few block headers, not every posting. Scores of the documents looked up are exactly those of a
full evaluation.

Scores map a searcher-wide docnum to a score: a dictionary, or for a word in ARRAY_FROM papers or more two
numpy arrays (`scores.ArrayScores`: the OR, AND, NOT and boosts below work on them in C). Those of single
terms and words are cached per searcher (bounded), so a query that grows by a keystroke re-reads only its new
word.

Over 400 lines because it is one algorithm with one contract (Whoosh's own scores, tested result for result):
the term, phrase, prefix and numeric evaluators share the posting-list reader and the statistics.
"""

from __future__ import annotations

import heapq
import re
from array import array
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from itertools import accumulate, pairwise, product
from math import log, prod
from pickle import loads
from typing import Any

from whoosh import query
from whoosh.analysis.filters import STOP_WORDS
from whoosh.codec.whoosh3 import W3LeafMatcher
from whoosh.formats import Positions
from whoosh.matching import FilterMatcher
from whoosh.reading import TermNotFound
from whoosh.searching import Searcher
from whoosh.system import _INT_SIZE
from whoosh.util.numeric import byte_to_length

from readinglist.index.analysis import word_stem
from readinglist.index.patches import DeferredValues, column_lengths, fast_paths, postings_from_info
from readinglist.index.query import (
    RELATED_WEIGHT,
    Alternatives,
    Compound,
    HyphenPhrase,
    LightPhrase,
    Stemmed,
    TypedPrefix,
    WordsApart,
)
from readinglist.index.schema import CompactPositions
from readinglist.index.scores import (
    ARRAY_FROM,
    ArrayScores,
    Scores,
    among,
    best_of,
    boosted,
    both,
    held,
    numpy,
    scores_of,
    summed,
    top_docs,
    with_added,
    without,
)
from readinglist.index.vocabulary import Vocabulary, lexicon

TermInfos = dict[tuple[int, str, bytes], Any]
TOGETHER_BLOCK = 256  # papers whose positions are read at a time, looking for a hyphenated word's words side by side
# a hyphenated word whose words more papers than this have (anywhere) is taken as its words: reading every one's
# positions costs a keystroke too much ("state-of-the-art" alone at 94k: 17k papers, 60 → 300 ms)
HYPHEN_CHECKED = 10_000
APART_CHECKED = 3000  # ...and a joined word's halves more papers than this share are not looked for apart
TOGETHER_SAMPLE = 256  # papers with both halves of a joined word whose positions are read to tell how often they join
TERM_CACHE_POSTINGS = 150_000  # ≈ 15–20 MB of cached term scores at most (a dictionary entry, its int and its float)
# ...or this many postings a paper in a larger library: a common word's postings grow with the library, and
# a cache of a fixed size held fewer of a query's words the larger it was (at 283k papers "learning" alone
# filled it, so each keystroke read the query's other words again)
TERM_CACHE_PER_PAPER = 2
MAX_EXPANSION = 300  # words a prefix, wildcard or fuzzy term is searched for, the most frequent first
MAX_EXPANSION_POSTINGS = 15_000  # ...and postings, per field, past that: `a*` is "a", "and", "are", …
# Look a term up only in the candidates (rather than read it whole, and cache it) when it has this many
# times more documents than there are candidates. Even where the candidates are in most posting blocks
# this beats a whole read (no score for every posting); but a whole read is kept for the next keystroke,
# so the words of a query being typed are read whole (see evaluate's `settled`).
RESTRICT_RATIO = 4
# a quoted phrase's words' forms are looked at a combination at a time up to this many combinations (_light_phrase)
LIGHT_COMBINATIONS = 16
# ...and only when fewer papers than this have the phrase as typed in the field: a quoted phrase that common
# ("neural network": 596 abstracts) is matched as typed (its other number's papers would all rank below these)
LIGHT_ENOUGH = 50
BLOCKS_KEPT = 4 << 20  # the bytes of posting blocks a searcher keeps for proximities (Ranker._blocks)


class Within:
    """The documents still in the running (a searcher-wide docnum set), and per segment its local docnums
    in order — what a restricted read of a posting list needs. From a result held as arrays, the set is
    made only if asked for (`docs`)."""

    def __init__(self, docs: Collection[int], leaves: list[tuple[Searcher, int]], counts: list[int]):
        self.local: list[list[int]] = []
        self._docs: Collection[int] | None = None
        self._array: Any = None
        if isinstance(docs, ArrayScores):
            self._array = docs.docs
            starts = [offset for _, offset in leaves]
            lo = numpy().searchsorted(docs.docs, starts).tolist()
            hi = numpy().searchsorted(docs.docs, [o + c for o, c in zip(starts, counts, strict=True)]).tolist()
            for n, offset in enumerate(starts):
                self.local.append((docs.docs[lo[n] : hi[n]] - offset).tolist())
            self._size = len(docs)
            return
        self._docs = docs if isinstance(docs, set | frozenset | dict) else set(docs)
        self._size = len(self._docs)
        ordered = sorted(self._docs)
        for (_, offset), count in zip(leaves, counts, strict=True):
            lo, hi = bisect_left(ordered, offset), bisect_left(ordered, offset + count)
            self.local.append([d - offset for d in ordered[lo:hi]])

    @property
    def docs(self) -> Collection[int]:
        if self._docs is None:
            self._docs = set(self._array.tolist())
        return self._docs

    def array(self) -> Any:
        """The documents as an ascending int64 array."""
        if self._array is None:
            np = numpy()
            self._array = np.array(sorted(self.docs), dtype=np.int64)
        return self._array

    def __len__(self) -> int:
        return self._size


class Ranker:
    """Evaluates parsed queries against one Whoosh searcher. Not thread-safe: the index serialises
    searches, and builds a new Ranker with each new searcher."""

    def __init__(
        self, searcher: Searcher, pause: Callable[[], None] | None = None, vocabulary: Vocabulary | None = None
    ):
        self.searcher = searcher
        self.vocabulary = Vocabulary(searcher) if vocabulary is None else vocabulary  # the searcher's words
        # (segment number, field, term) → its TermInfo, or None where the segment lacks it: one lookup in a
        # segment's term file per term (shared with the searcher's Vocabulary, whose prefix walks fill it)
        self.infos: TermInfos = self.vocabulary.infos
        self.pause = pause or _never  # between posting blocks: may wait while the window paints
        self.fast = fast_paths()  # off for another Whoosh release: every query goes to Whoosh's matchers
        self.schema = searcher.schema
        weighting = searcher.weighting
        self.K1: float = getattr(weighting, "K1", 1.2)
        self.B: float = getattr(weighting, "B", 0.75)
        self._field_B: dict[str, float] = getattr(weighting, "_field_B", {})
        self.leaves: list[tuple[Searcher, int]] = list(searcher.leaf_searchers())
        self._counts = [leaf.reader().doc_count_all() for leaf, _ in self.leaves]
        self._doc_count_all = searcher.doc_count_all()
        self._norms: dict[str, tuple[list[float], list[bytes]]] = {}
        self._norm_arrays: dict[str, tuple[Any, list[Any]]] = {}  # the same as numpy arrays (uint8 lengths)
        self._terms: OrderedDict[tuple[str, bytes], Scores] = OrderedDict()
        self._cached_postings = 0
        self.cache_postings = max(TERM_CACHE_POSTINGS, TERM_CACHE_PER_PAPER * self._doc_count_all)
        self.check: Callable[[], None] = _never
        self.settled: Collection[str] = ()  # words read whole (see evaluate)
        self._unscored = 0  # inside a constant-score query: only the matching documents matter
        self._values: dict[str, list[tuple[object, bytes]]] = {}  # numeric field → values present
        self._df: dict[tuple[str, bytes], int] = {}
        # the words each prefix/wildcard/fuzzy term of the last query expanded to (the highlighter reads
        # them instead of expanding the term a second time, a large part of a fuzzy search)
        self.expanded: dict[query.Query, set[bytes]] = {}
        self.notes: list[str] = []  # what the last evaluation did not do as asked (a capped expansion)
        # (field, word) → the documents, of those a plain word was looked up in, that hold another form of
        # its stem and not the word typed, and the documents it matched in that field
        self.stem_only: dict[tuple[str, str], tuple[set[int], Scores]] = {}
        # the positions the last proximity read: per field, per word, per document (in_a_row reads them)
        self._near_places: dict[str, list[dict[int, list[int]]]] = {}
        # the blocks read whole, their positions not decoded (a term's docnums, where each block ends in them,
        # each block's values): a proximity finds its candidates' positions there, not reading the postings
        # again — at this keystroke or the next (the term's scores cached). The latest BLOCKS_KEPT bytes.
        self._blocks: OrderedDict[tuple[int, str, bytes], tuple[Sequence[int], list[int], list[DeferredValues]]] = (
            OrderedDict()
        )
        self._blocks_size = 0
        # beside a stem's cached scores, each of its forms' documents (per segment: offset, docnums)
        self._form_docs: dict[tuple[str, bytes], dict[bytes, list[tuple[int, array]]]] = {}
        self._sizes: dict[tuple[str, bytes], int] = {}  # postings each cached entry holds
        self._stem_only_memo: dict[tuple[tuple[str, bytes], frozenset[bytes]], set[int]] = {}
        self._together: dict[tuple[str, ...], bool] = {}  # a hyphenated word's words side by side anywhere
        self._in_phrase = 0  # evaluating a hyphenated word's words (see _hyphen_phrase)
        self._together_shares: dict[tuple[str, str, str], tuple[float, int]] = {}  # see together_share
        self._capped: dict[str, tuple[int, int]] = {}  # a capped term as typed → (words found, words kept)
        # postings decoded and matches scored, ever: what a search's temporaries are proportional to (the index
        # returns freed memory after a search that did much, see engine.RETURN_FREED_AFTER)
        self.work = 0
        # the last closest matches' words per document, each counted by its idf over the words' mean (_tier)
        self.matched_weight: dict[int, float] = {}

    # ---- the public part ----

    def evaluate(
        self, q: query.Query, check: Callable[[], None] | None = None, settled: Collection[str] = ()
    ) -> Scores:
        """Every matching document with its score, as Whoosh's BM25F would score it (but for the
        differences in the module's docstring). `check` is called now and then and may raise to abandon
        the evaluation. The words in `settled` are read whole, never only in the candidates: a query being
        typed keeps them, and the next keystroke finds them cached. The result may be shared: do not
        modify it."""
        self.check = check or _never
        self.settled = settled
        self.expanded = {}
        self.notes = []
        self.stem_only = {}
        try:
            return self._eval(q) if self.fast else self._fallback(q)
        finally:
            self.check = _never
            self._note_caps()

    def partial(
        self,
        words: Sequence[query.Query],
        required: Sequence[query.Query] = (),
        excluded: Sequence[query.Query] = (),
        check: Callable[[], None] | None = None,
        all_known_fail: bool = False,
        fit: bool = False,
    ) -> tuple[Scores, dict[int, int]]:
        """The closest matches when no document has every word: the documents with the most of `words`
        (and all of `required`, none of `excluded`), scored by the words they have, with how many each has.
        With `fit` (for the best fit, not only the most words: engine.rank_keys), those with up to FIT_TIERS fewer too.

        Tier by tier: the documents missing at most j of the words all hold one of the j + 1 rarest, so
        those few posting lists give every candidate, and the other words are looked up in the candidates
        only. The first j that finds documents ends the search (with `fit`, the FIT_TIERS after it; each tier
        found is complete); at most half the words may be missing (beyond that a match says little). Words
        no document has never count.
        `all_known_fail`: the caller knows no document has every word (so the first tier is skipped)."""
        self.check = check or _never
        self.expanded = {}
        self.notes = []
        self.stem_only = {}
        self.settled = ()
        try:
            return self._partial(list(words), list(required), list(excluded), all_known_fail, fit)
        finally:
            self.check = _never
            self._note_caps()

    def matches(self, q: query.Query) -> bool:
        """Does the query match any document? The last evaluation's notes, expansions and stem-only
        documents stay as they were (a search asks this after its own evaluation)."""
        return self.count(q) > 0

    def count(self, q: query.Query) -> int:
        """How many documents the query matches, the last evaluation's state kept (see `matches`)."""
        kept = (self.notes, self.expanded, self.stem_only)
        self.notes, self.expanded, self.stem_only = [], {}, {}
        try:
            return len(self._eval(q))
        finally:
            self.notes, self.expanded, self.stem_only = kept

    def evaluate_within(self, q: query.Query, docs: Collection[int]) -> Scores:
        """The query's scores in these documents only (the others are not looked up)."""
        self.expanded = {}
        self.notes = []
        self.settled = ()
        try:
            return (
                self._eval(q, self._within(docs)) if self.fast else _restricted(self._fallback(q), self._within(docs))
            )
        finally:
            self._note_caps()

    def doc_frequency(self, fieldname: str, text: str) -> int:
        """How many documents hold the term (deleted ones too), from the term infos already looked up."""
        btext = self._btext(fieldname, text)
        return 0 if btext is None else self._doc_frequency(fieldname, btext)

    def term_docs(self, fieldname: str, text: bytes) -> Collection[int]:
        """The documents holding the term (the last evaluation's state kept; the read is cached)."""
        return self._term(fieldname, text) if fieldname in self.schema else ()

    def stem_only_docs(self, q: query.Query) -> set[int]:
        """The documents that, in the last evaluation, matched a plain word of `q` only in other forms of
        its stem, in every field they matched it in ("transform" for `transformer`). Few, as a rule."""
        keys = {(leaf.fieldname, leaf.text) for leaf in q.leaves() if isinstance(leaf, Stemmed)}
        keys |= {(leaf.fieldname, leaf.key) for leaf in q.leaves() if isinstance(leaf, LightPhrase)}
        found = [self.stem_only[key] for key in keys if key in self.stem_only]
        if not found:
            return set()
        suspects: set[int] = set().union(*(docs for docs, _ in found))
        for docs, scores in found:  # a field where the document holds the form typed clears it
            if suspects:
                suspects -= held(scores, suspects) - docs
        return suspects

    def proximity(
        self, words: Sequence[query.Query], docs: Collection[int], fieldnames: Sequence[str], gap: int
    ) -> dict[int, int]:
        """In each of `docs`, how many pairs of the query's successive words (`words`, plain words in the
        query's order) stand within `gap` positions of each other in one of the fields, in any form of their
        stems: a pasted title's words stand together in its paper's title or abstract ("constrained
        cross-entropy method"), scattered in another's."""
        together: set[tuple[int, int]] = set()  # (document, pair)
        within = self._within(docs) if docs else None
        self._near_places = {}
        for fieldname in fieldnames:
            field = self._field(fieldname)
            if within is None or field is None or not field.format or not field.format.supports("positions"):
                continue
            decode = _decode_positions if type(field.format) is Positions else field.format.decode_positions
            places: list[dict[int, list[int]]] = []
            for word in words:
                leaf = next((x for x in word.leaves() if isinstance(x, Stemmed) and x.fieldname == fieldname), None)
                where: dict[int, list[int]] = {}
                for form in (*leaf.forms, *leaf.related) if leaf is not None else ():
                    for i, (_, offset) in enumerate(self.leaves):  # the candidates' postings only, never cached
                        if within.local[i]:
                            ids, values = self._kept_values(i, fieldname, form, within.local[i])
                            for d, value in zip(ids, values, strict=True):
                                where.setdefault(d + offset, []).extend(decode(value))
                places.append(where)
            self._near_places[fieldname] = places
            for j, (before, after) in enumerate(pairwise(places)):
                for d, first in before.items():
                    second = after.get(d)
                    if second is not None and any(0 < b - a <= gap for a in first for b in second):
                        together.add((d, j))
        out: dict[int, int] = {}
        for d, _ in together:
            out[d] = out.get(d, 0) + 1
        return out

    def _keep_blocks(
        self, key: tuple[int, str, bytes], entry: tuple[Sequence[int], list[int], list[DeferredValues]]
    ) -> None:
        """Keep a term's blocks (see `_blocks`), the least recently used let go past BLOCKS_KEPT bytes."""
        old = self._blocks.pop(key, None)
        if old is not None:
            self._blocks_size -= _blocks_size(old)
        self._blocks[key] = entry
        self._blocks_size += _blocks_size(entry)
        while self._blocks_size > BLOCKS_KEPT and len(self._blocks) > 1:
            _, gone = self._blocks.popitem(last=False)
            self._blocks_size -= _blocks_size(gone)

    def _kept_values(self, i: int, fieldname: str, btext: bytes, targets: list[int]) -> tuple[list[int], list[bytes]]:
        """Segment i's postings of a term in these documents (local docnums, in order): their docnums and
        encoded positions, sliced out of the blocks the evaluation read whole where it did (`_blocks`), else
        read."""
        kept = self._blocks.get((i, fieldname, btext))
        if kept is not None:
            self._blocks.move_to_end((i, fieldname, btext))
        else:
            ids, _, values, _ = self._postings(i, fieldname, btext, values=True, targets=targets)
            return ids, values
        docs, ends, blocks = kept
        found: list[int] = []
        values = []
        bounds: dict[int, tuple[bytes, list[int]] | None] = {}
        for d in targets:
            j = bisect_left(docs, d)
            if j == len(docs) or docs[j] != d:
                continue
            b = bisect_right(ends, j)
            if b not in bounds:
                bounds[b] = blocks[b].bounds(ends[b] - (ends[b - 1] if b else 0))
            sliced = bounds[b]
            if sliced is None:
                return self._kept_values_read(i, fieldname, btext, targets)
            body, at = sliced
            k = j - (ends[b - 1] if b else 0)
            found.append(d)
            values.append(body[at[k] : at[k + 1]])
        return found, values

    def _kept_values_read(
        self, i: int, fieldname: str, btext: bytes, targets: list[int]
    ) -> tuple[list[int], list[bytes]]:
        ids, _, values, _ = self._postings(i, fieldname, btext, values=True, targets=targets)
        return ids, values

    def field_lengths(self, fieldname: str, docs: Collection[int]) -> dict[int, int]:
        """How many words each of `docs` holds in the field, as Whoosh keeps it (one byte a document: exact
        up to 10 words, within one word beyond). A segment's lengths have a byte for each of its documents, as
        the scorers read them."""
        _, lengths = self._norm(fieldname)
        within = self._within(docs)
        return {
            d + offset: byte_to_length(lengths[i][d])
            for i, (_, offset) in enumerate(self.leaves)
            for d in within.local[i]
        }

    def estimate(self, q: query.Query) -> int:
        """How many documents the query may match (an upper bound where cheap to know; 0 means none)."""
        return self._estimate(q)

    # ---- posting lists ----

    def _info(self, i: int, fieldname: str, btext: bytes):
        key = (i, fieldname, btext)
        try:
            return self.infos[key]
        except KeyError:
            pass
        reader = self.leaves[i][0].reader()
        words = lexicon(reader, fieldname)
        if words is not None:
            j = words.find(btext)
            info = None if j is None else words.info(reader, j)
        else:
            try:
                info = reader.term_info(fieldname, btext)
            except TermNotFound:
                info = None
        self.infos[key] = info
        return info

    def _postings(self, i: int, fieldname: str, btext: bytes, values: bool = False,
                  targets: list[int] | None = None):  # fmt: skip
        """Segment i's postings of a term: docnums, weights and, if asked, the encoded values (positions),
        and the segment's deleted docnums, which the caller drops (a few pops from its result, where
        filtering here cost a Python pass over every posting). Whole blocks are decoded at once. With
        `targets` (local docnums of live documents, in order) only those documents are looked up, and a
        block none of them is in is skipped unread."""
        reader = self.leaves[i][0].reader()
        ids: list[int] = []
        weights: list[float] = []
        vals: list[bytes] = []
        info = self._info(i, fieldname, btext)
        if info is None or targets == []:
            return ids, weights, vals, _NONE
        direct = postings_from_info(reader, fieldname, btext, info)
        deleted: frozenset[int] | set[int] = _NONE
        if direct is not None:
            m, deleted = direct
        else:
            m = reader.postings(fieldname, btext)
            if isinstance(m, FilterMatcher):
                deleted = m._ids
                m = m.child
        if isinstance(m, W3LeafMatcher) and targets is not None:
            self._postings_within(m, targets, ids, weights, vals, values)
            return ids, weights, vals, _NONE  # the targets are live
        if isinstance(m, W3LeafMatcher):
            ends: list[int] = []
            kept: list[DeferredValues] | None = [] if not values else None
            while m.is_active():
                self.pause()
                m._read_data()
                block_ids, block_weights = m._data[0], m._data[1]
                n = m._blocklength
                self.work += n
                ids.extend(block_ids if m._byteids else accumulate(block_ids))
                if kept is not None:
                    if type(m._data[2]) is DeferredValues:
                        kept.append(m._data[2])
                        ends.append(len(ids))
                    else:
                        kept = None
                if block_weights is None:
                    weights.extend([1.0] * n)
                elif isinstance(block_weights, float):
                    weights.extend([block_weights] * n)
                else:
                    weights.extend(block_weights)
                if values:
                    m._read_values()
                    vals.extend(m._values)
                m._next_block()
            if kept and not m._byteids:
                self._keep_blocks((i, fieldname, btext), (array("I", ids), ends, kept))
        else:  # another codec, or postings inlined in the term's entry: the slow, general way
            wanted = set(targets) if targets is not None else None
            while m.is_active():
                self.work += 1
                if wanted is None or m.id() in wanted:
                    ids.append(m.id())
                    weights.append(m.weight())
                    if values:
                        vals.append(m.value())
                m.next()
        return ids, weights, vals, deleted

    def _postings_within(self, m: W3LeafMatcher, targets: list[int], ids: list[int], weights: list[float],
                         vals: list[bytes], values: bool) -> None:  # fmt: skip
        """The postings of the target documents only: a block whose last docnum comes before the next
        target is passed over on its header alone."""
        t, n = 0, len(targets)
        while m.is_active() and t < n:
            if m._maxid < targets[t]:
                m._next_block()
                continue
            self.pause()
            m._read_data()
            block_ids = m._data[0] if m._byteids else list(accumulate(m._data[0]))
            self.work += len(block_ids)
            block_weights = m._data[1]
            sliced = None  # a few documents' values sliced out, not the block's every value made bytes
            if values:
                deferred = m._data[2]
                if type(deferred) is DeferredValues:
                    sliced = deferred.bounds(m._blocklength)
                if sliced is None:
                    m._read_values()
            end = bisect_right(targets, m._maxid, t)
            for d in targets[t:end]:
                i = bisect_left(block_ids, d)
                if i < len(block_ids) and block_ids[i] == d:
                    ids.append(d)
                    if block_weights is None:
                        weights.append(1.0)
                    elif isinstance(block_weights, float):
                        weights.append(block_weights)
                    else:
                        weights.append(block_weights[i])
                    if sliced is not None:
                        body, at = sliced
                        vals.append(body[at[i] : at[i + 1]])
                    elif values:
                        vals.append(m._values[i])
            t = end
            m._next_block()

    def _norm(self, fieldname: str) -> tuple[list[float], list[bytes]]:
        """BM25's length normaliser K1·((1−B) + B·length/average) for each of the 256 one-byte lengths
        Whoosh stores (a missing length counts as 1, as in Whoosh's scorer), and per segment the lengths."""
        norm = self._norms.get(fieldname)
        if norm is None:
            B = self._field_B.get(fieldname, self.B)
            avgfl = self.searcher.avg_field_length(fieldname) or 1
            table = [self.K1 * ((1 - B) + B * (byte_to_length(b) or 1) / avgfl) for b in range(256)]
            lengths = [_length_bytes(leaf.reader(), fieldname) for leaf, _ in self.leaves]
            norm = self._norms[fieldname] = (table, lengths)
        return norm

    def _norm_array(self, fieldname: str) -> tuple[Any, list[Any]]:
        """_norm's table and lengths as numpy arrays (the lengths viewed, not copied)."""
        norm = self._norm_arrays.get(fieldname)
        if norm is None:
            np = numpy()
            table, lengths = self._norm(fieldname)
            norm = self._norm_arrays[fieldname] = (
                np.array(table, dtype=np.float64),
                [np.frombuffer(length, dtype=np.uint8) for length in lengths],
            )
        return norm

    def _doc_frequency(self, fieldname: str, btext: bytes) -> int:
        """Over all segments, deleted documents included (as Whoosh counts it for idf)."""
        key = (fieldname, btext)
        df = self._df.get(key)
        if df is None:
            infos = (self._info(i, fieldname, btext) for i in range(len(self.leaves)))
            df = self._df[key] = sum(info.doc_frequency() for info in infos if info is not None)
        return df

    def _idf(self, df: int) -> float:
        """Whoosh's idf (WeightingModel.idf), from a document frequency at hand; an empty index (no paper to
        score) counts as one document, where Whoosh's formula takes the log of zero."""
        return log(max(self._doc_count_all, 1) / (df + 1)) + 1

    def _cache(self, key: tuple[str, bytes], scores: Scores, extra: int = 0) -> None:
        """Keep a whole read (with `extra` more postings kept beside it: a stem's forms' documents)."""
        self._cached_postings -= self._sizes.get(key, 0)  # read again (a phrase reads its words whole)
        self._terms[key] = scores
        self._sizes[key] = len(scores) + extra
        self._cached_postings += self._sizes[key]
        while self._cached_postings > self.cache_postings and len(self._terms) > 1:
            old, _ = self._terms.popitem(last=False)
            self._cached_postings -= self._sizes.pop(old, 0)
            self._form_docs.pop(old, None)
            self._stem_only_memo = {m: docs for m, docs in self._stem_only_memo.items() if m[0] != old}

    def _cached(self, key: tuple[str, bytes], within: Within | None) -> Scores | None:
        cached = self._terms.get(key)
        if cached is None:
            return None
        self._terms.move_to_end(key)
        return cached if within is None else _restricted(cached, within)

    def _restrict(self, fieldname: str, btext: bytes, within: Within | None, ratio: float = RESTRICT_RATIO) -> bool:
        """Whether to look the term up in the candidates only (rather than read it whole, and cache it)."""
        if self.settled and btext.decode("utf-8", "replace") in self.settled:
            return False
        return within is not None and self._doc_frequency(fieldname, btext) > ratio * len(within)

    def _term(self, fieldname: str, btext: bytes, values: dict[int, bytes] | None = None,
              within: Within | None = None, ratio: float = RESTRICT_RATIO) -> Scores:  # fmt: skip
        """The term's score in each document it is in (with `within`, in those of them). With `values`,
        also fills it with each document's encoded positions, from the same read of the posting blocks (a
        phrase needs both). `ratio`: how many times the candidates a term's documents are to be read whole."""
        key = (fieldname, btext)
        if values is None:
            cached = self._cached(key, within)
            if cached is not None:
                return cached
        restrict = self._restrict(fieldname, btext, within, ratio)
        out: dict[int, float] = {}
        scorable = self.schema[fieldname].scorable
        k = 0.0
        if scorable:
            idf = self._idf(self._doc_frequency(fieldname, btext))
            k = idf * (self.K1 + 1)
            norm, lengths = self._norm(fieldname)
        if not restrict and self._doc_frequency(fieldname, btext) >= ARRAY_FROM:
            whole = self._term_arrays(fieldname, btext, k if scorable else None, values)
            self._cache(key, whole)
            return whole if within is None else _restricted(whole, within)
        for i, (_, offset) in enumerate(self.leaves):
            targets = within.local[i] if restrict and within is not None else None
            ids, ws, vals, deleted = self._postings(i, fieldname, btext, values=values is not None, targets=targets)
            if values is not None:
                values.update(zip([d + offset for d in ids] if offset else ids, vals, strict=False))
            self.check()
            if scorable:
                length = lengths[i]
                part = {d + offset: k * w / (w + norm[length[d]]) for d, w in zip(ids, ws, strict=False)}
            else:  # Whoosh's WeightScorer: the posting's weight
                part = {d + offset: w for d, w in zip(ids, ws, strict=False)}
            _drop(part, deleted, offset)
            out.update(part)
        if not restrict:
            self._cache(key, out)
            if within is not None:
                return _restricted(out, within)
        return out

    def _term_arrays(self, fieldname: str, btext: bytes, k: float | None,
                     values: dict[int, bytes] | None = None) -> ArrayScores:  # fmt: skip
        """_term's whole read as arrays (a common word): the same BM25 formula, in numpy, no dictionary.
        `k` is idf·(K1 + 1), or None for an unscored field (the posting's weight is the score); `values` as
        in _term."""
        np = numpy()
        docs: list[Any] = []
        vals: list[Any] = []
        table, lengths = self._norm_array(fieldname) if k is not None else (numpy().zeros(0), [])
        for i, (_, offset) in enumerate(self.leaves):
            ids, ws, vals_read, deleted = self._postings(i, fieldname, btext, values=values is not None)
            if values is not None:
                values.update(zip([d + offset for d in ids] if offset else ids, vals_read, strict=False))
            self.check()
            if not ids:
                continue
            d = np.array(ids, dtype=np.int64)
            w = np.array(ws, dtype=np.float64)
            if deleted:
                keep = _live(d, deleted)
                d, w = d[keep], w[keep]
            docs.append(d + offset if offset else d)
            vals.append(w if k is None else k * w / (w + table[lengths[i][d]]))
        return _joined(docs, vals)

    # ---- evaluation ----

    def _eval(self, q: query.Query, within: Within | None = None) -> Scores:
        self.check()
        if isinstance(q, Stemmed):
            return self._stemmed(q, within)
        if isinstance(q, query.Term):
            return self._boosted(self._term_text(q.fieldname, q.text, within), q.boost)
        if isinstance(q, HyphenPhrase):
            return self._hyphen_phrase(q, within)
        if isinstance(q, query.Not):  # "NOT multitask" alone
            return self._and(query.And([q]), within)
        if isinstance(q, query.And):
            return self._and(q, within)
        if type(q) in (Alternatives, Compound):
            return self._alternatives(q, within)
        if type(q) in (query.Or, query.DefaultOr) and not q.scale:
            return self._or(q, within)
        if isinstance(q, query.AndNot):
            pos = self._eval(q.a, within)
            neg = self._eval(q.b, self._within(pos))
            if isinstance(pos, ArrayScores) or isinstance(neg, ArrayScores):
                return self._boosted(without(pos, neg), q.boost)
            return self._boosted({d: s for d, s in pos.items() if d not in neg}, q.boost)
        if isinstance(q, query.AndMaybe):
            req = self._eval(q.a, within)
            opt = self._eval(q.b, self._within(req))
            if isinstance(req, ArrayScores) or isinstance(opt, ArrayScores):
                return self._boosted(with_added(req, opt), q.boost)
            return self._boosted({d: s + opt.get(d, 0.0) for d, s in req.items()}, q.boost)
        if isinstance(q, LightPhrase):
            return self._light_phrase(q, within)
        if isinstance(q, query.Phrase) and q.slop == 1:
            return self._phrase(q, within)
        if isinstance(q, query.MultiTerm) and (not q.constantscore or self._unscored):
            return self._multiterm(q, within)
        if isinstance(q, query.NumericRange):
            return _maybe_restricted(self._numeric_range(q), within)
        if isinstance(q, query.ConstantScoreQuery):
            return _maybe_restricted(self._constant(q), within)
        if isinstance(q, query.NullQuery.__class__):
            return {}
        return _maybe_restricted(self._fallback(q), within)

    def _within(self, docs: Collection[int]) -> Within:
        return Within(docs, self.leaves, self._counts)

    def _field(self, name: str):
        """The schema's field, or None (Whoosh's Schema has no get())."""
        return self.schema[name] if name in self.schema.names() else None

    def _btext(self, fieldname: str, text: object) -> bytes | None:
        if fieldname not in self.schema:
            return None
        try:
            return self.schema[fieldname].to_bytes(text)
        except ValueError:
            return None

    def _term_text(self, fieldname: str, text: object, within: Within | None = None) -> Scores:
        btext = self._btext(fieldname, text)
        return {} if btext is None else self._term(fieldname, btext, within=within)

    @staticmethod
    def _boosted(scores: Scores, boost: float) -> Scores:
        if boost == 1.0:
            return scores
        if isinstance(scores, ArrayScores):
            return boosted(scores, boost)
        return {d: s * boost for d, s in scores.items()}

    def _estimate(self, q: query.Query) -> int:
        if type(q) is Compound:  # both spellings' papers: looked up last, among the other words' papers
            return min(self._doc_count_all, sum(self._estimate(sub) for sub in q.subqueries))
        if type(q) is Alternatives:  # the word's own papers (its worth to the closest matches), if any
            return self._estimate(q.subqueries[0]) or sum(self._estimate(sub) for sub in q.subqueries[1:])
        if isinstance(q, Stemmed):
            return sum(q.forms.values()) + sum(q.related.values())
        if isinstance(q, query.Term):
            btext = self._btext(q.fieldname, q.text)
            if btext is None:
                return 0
            cached = self._terms.get((q.fieldname, btext))
            return len(cached) if cached is not None else self._doc_frequency(q.fieldname, btext)
        if isinstance(q, query.And):
            parts = [self._estimate(sub) for sub in q.subqueries if not isinstance(sub, query.Not)]
            return min(parts) if parts else self._doc_count_all
        if type(q) in (query.Or, query.DefaultOr):
            return min(self._doc_count_all, sum(self._estimate(sub) for sub in q.subqueries))
        if isinstance(q, query.AndNot | query.AndMaybe):
            return self._estimate(q.a)
        if isinstance(q, query.Phrase):
            btexts = [self._btext(q.fieldname, w) for w in q.words]
            if any(b is None for b in btexts) or not btexts:
                return 0
            return min(self._doc_frequency(q.fieldname, b) for b in btexts if b is not None)
        if q is query.NullQuery:
            return 0
        return self._doc_count_all  # prefixes, ranges, everything else: not known cheaply

    def _and(self, q: query.And, within: Within | None = None) -> Scores:
        """The cheapest part first, then each other part looked up in the documents still in the running."""
        required: list[query.Query] = []
        excluded: list[query.Query] = []
        for sub in q.subqueries:
            (excluded if isinstance(sub, query.Not) else required).append(sub)
        if not required:  # "NOT multitask": every paper but those, the excluded as this module reads them (a
            # hyphenated word's words together: Whoosh's own And would take them anywhere)
            every = _maybe_restricted(self._fallback(query.Every()), within)
            return self._without(dict.fromkeys(every, 0.0), excluded, q.boost)
        ordered = sorted(required, key=self._estimate)
        if self._estimate(ordered[0]) == 0:
            self._warm(ordered[1:])
            return {}  # a word no document has
        acc = self._eval(ordered[0], within)
        for n, sub in enumerate(ordered[1:], 1):
            if not acc:
                self._warm(ordered[n:])
                return {}
            other = self._eval(sub, self._within(acc))
            if isinstance(acc, ArrayScores) or isinstance(other, ArrayScores):
                acc = both(acc, other)
            else:
                acc = {d: s + other[d] for d, s in acc.items() if d in other}
        return self._without(acc, excluded, q.boost)

    def _without(self, acc: Scores, excluded: list[query.Query], boost: float) -> Scores:
        """The documents of `acc` that none of the excluded (NOT) parts match."""
        for n, sub in enumerate(excluded, 1):
            if not acc:
                break
            other = self._eval(sub.query, self._within(acc))
            # Whoosh's matcher for a NOT inside an AND scores 1 for every document it lets through: added in
            # the last pass (one pass fewer over every match: a large dictionary built costs per entry)
            bump = len(excluded) if n == len(excluded) else 0
            if isinstance(acc, ArrayScores) or isinstance(other, ArrayScores):
                acc = without(acc, other, bump)
            else:
                acc = {d: s + bump for d, s in acc.items() if d not in other}
        return self._boosted(acc, boost)

    def _warm(self, parts: Sequence[query.Query]) -> None:
        """Read the settled words among parts left unread whole (cached): the next keystroke needs them."""
        if not self.settled:
            return
        for sub in parts:
            texts = [getattr(leaf, "text", None) for leaf in sub.leaves()]
            if texts and all(isinstance(t, str) and t in self.settled for t in texts):
                self._eval(sub)

    def _or(self, q: query.Or, within: Within | None = None) -> Scores:
        parts = sorted((self._eval(sub, within) for sub in q.subqueries), key=len, reverse=True)
        parts = [p for p in parts if p]
        if not parts:
            return {}
        if any(isinstance(p, ArrayScores) for p in parts):
            return self._boosted(parts[0] if len(parts) == 1 else summed(parts), q.boost)
        acc = dict(parts[0])
        get = acc.get
        for other in parts[1:]:
            for d, s in other.items():
                acc[d] = get(d, 0.0) + s
        return self._boosted(acc, q.boost)

    def _hyphen_phrase(self, q: HyphenPhrase, within: Within | None = None) -> Scores:
        """The papers with both words (any form of each) where a form of the first stands right before one of
        the second, scored as the two words: the And first, then the positions read for its papers only. If
        no paper of the library has them together in this field, those with both words in it (what a hyphen
        matched before): a word no paper writes so still finds the papers that use its parts (not so a
        joined word's halves, WordsApart). Decided over the whole field, not the papers still in the running,
        so that the answer does not hang on which word of the query was looked up first; and not for words
        more than HYPHEN_CHECKED papers have. A stop word of the word ("of", "the" in "state-of-the-art") is
        not read, only its place kept: every paper has it, and reading its positions cost as much as the rest.
        A prefix typed last ("multi-tas") expands to its most frequent words however many papers they have
        (`_expand`): it is looked up in the other words' papers only — so not when they are stop words, which
        are not read ("in-c*" is a prefix as any other)."""
        looked_up_after = any(isinstance(w, Stemmed) for w in _content(q).subqueries)
        self._in_phrase += looked_up_after
        try:
            return self._phrase_papers(q, within, looked_up_after)
        finally:
            self._in_phrase -= looked_up_after

    def _phrase_papers(self, q: HyphenPhrase, within: Within | None, words: bool) -> Scores:
        both = self._and(_content(q), within)
        field = self._field(q.subqueries[0].fieldname)
        if not both or field is None or not field.format.supports("positions") or not words:
            return both  # (a prefix after stop words alone, "in-cont*": no place of theirs is read)
        if isinstance(q, WordsApart) and len(both) > APART_CHECKED:
            return {}  # "data set" for "dataset": the joined spelling alone, not every paper's positions read
        if not isinstance(q, WordsApart) and (len(both) > HYPHEN_CHECKED or not self._together_somewhere(q)):
            return both
        kept = self._side_by_side(q, self._within(both))
        if isinstance(both, ArrayScores):
            return _restricted(both, self._within(kept))
        return {d: both[d] for d in kept}

    def _together_somewhere(self, q: HyphenPhrase) -> bool:
        """Does any paper have the two words side by side in this field? (once a searcher for each pair: its
        papers with both words are looked at a block at a time, until one has them so)"""
        words = q.subqueries
        key = (words[0].fieldname, *(f"{type(w).__name__}:{w.text}" if isinstance(w, query.MultiTerm) else w.text
                                     for w in words))  # fmt: skip
        known = self._together.get(key)
        if known is None:
            docs = self._with_every_word(q)
            known = any(
                self._side_by_side(q, self._within(docs[k : k + TOGETHER_BLOCK]))
                for k in range(0, len(docs), TOGETHER_BLOCK)
            )
            self._together[key] = known
        return known

    def together_share(self, first: Stemmed, second: Stemmed) -> tuple[float, int]:
        """Of the papers with both words (any form) in this field, the share that have them side by side, and
        how many papers have both: looked at in the first TOGETHER_SAMPLE of them, once a searcher for each
        pair (is "mini batch" a spelling of "minibatch"? see query._apart)."""
        key = (first.fieldname, first.text, second.text)
        known = self._together_shares.get(key)
        if known is None:
            q = HyphenPhrase([first, second])
            docs = self._with_every_word(q)
            sample = docs[:TOGETHER_SAMPLE]
            share = len(self._side_by_side(q, self._within(sample))) / len(sample) if sample else 0.0
            known = self._together_shares[key] = (share, len(docs))
        return known

    def _with_every_word(self, q: HyphenPhrase) -> list[int]:
        """The papers with every word of a hyphenated word (but its stop words) in its field, in docnum order."""
        both = self._and(_content(q))
        return sorted(both.docs.tolist() if isinstance(both, ArrayScores) else both)

    def _side_by_side(self, q: HyphenPhrase, among: Within) -> list[int]:
        """Of these papers (which have every word), those where forms of the words stand one after the other,
        in docnum order. The rarest word is read first, so that a common one ("of", "the" in
        "state-of-the-art") is read only in the papers still in the running."""
        words = q.subqueries
        decode = self.schema[words[0].fieldname].format.decode_positions
        forms = [self._forms_of(word) for word in words]
        order = sorted(_content_places(q), key=lambda k: sum(forms[k].values()))
        starts: dict[int, set[int]] = {}  # where the chain could start, in each paper still in the running
        for n, k in enumerate(order):
            word = words[k]
            found: dict[int, set[int]] = {}
            current = among if n == 0 else self._within(starts.keys())
            for i, (_, offset) in enumerate(self.leaves):
                targets = current.local[i]
                if not targets:
                    continue
                for form in forms[k]:
                    ids, _, vals, _ = self._postings(i, word.fieldname, form, values=True, targets=targets)
                    for d, v in zip(ids, vals, strict=True):
                        doc = d + offset
                        at = [p - k for p in decode(v)]
                        hits = set(at) if n == 0 else starts.get(doc, _NONE).intersection(at)
                        if hits:
                            found.setdefault(doc, set()).update(hits)
                    self.check()
            starts = found
            if not starts:
                return []
        return sorted(starts)

    def in_a_row(self, fieldname: str, offsets: Sequence[int], docs: Iterable[int]) -> list[int]:
        """Of these documents (of the last `proximity`'s), those where its words (any form of each) stand in
        the field at these places from one another — `offsets`, one a word: "learning to rank" is 0, 2 —, from
        the positions that proximity read (no reading again): the typed phrase's papers
        (engine.Index._phrase_tier)."""
        places = self._near_places.get(fieldname)
        if places is None or len(places) != len(offsets):
            return []
        out: list[int] = []
        for d in docs:
            starts: set[int] | None = None
            for where, k in zip(places, offsets, strict=True):
                at = where.get(d)
                if not at:
                    break
                moved = {p - k for p in at}
                starts = moved if starts is None else starts & moved
                if not starts:
                    break
            else:
                out.append(d)
        return out

    def _forms_of(self, word: query.Query) -> dict[bytes, int]:
        """A hyphenated word's word as the index's words with their document frequencies: a stemmed word's
        forms (and related forms), or the words a prefix typed last ("multi-task*") expands to."""
        if isinstance(word, Stemmed):
            return {**word.forms, **word.related}
        if isinstance(word, query.MultiTerm):
            expanded = self.expanded.get(word)
            if expanded is None:
                expanded = self.expanded[word] = self._expand(word)
            return {w: self._doc_frequency(word.field(), w) for w in expanded}
        return {}

    def _alternatives(self, q: Alternatives, within: Within | None = None) -> Scores:
        """The best of the alternatives per document, not their sum: a paper that has both a long form and
        its acronym has the word once."""
        parts = sorted((self._eval(sub, within) for sub in q.subqueries), key=len, reverse=True)
        if any(isinstance(p, ArrayScores) for p in parts):
            return self._boosted(best_of(parts), q.boost)
        acc = dict(parts[0]) if parts else {}
        get = acc.get
        for other in parts[1:]:
            for d, s in other.items():
                if s > get(d, 0.0):
                    acc[d] = s
        return self._boosted(acc, q.boost)

    def _stemmed(self, q: Stemmed, within: Within | None = None) -> Scores:
        """A plain word as one stemmed term (see the module's docstring): per document the weights of its
        forms summed and scored with BM25F's formula and the idf of the most frequent form; and which
        documents hold only forms other than those of the word typed (`stem_only`). A whole read is cached
        by stem, with each form's documents: "learning" finds what "learn" read."""
        fieldname = q.fieldname
        related = q.related
        if fieldname not in self.schema or not (q.forms or related):
            return {}
        key = (fieldname, (b"\x00related:" if related else b"\x00stem:") + word_stem(q.text).encode("utf-8"))
        cached = self._cached(key, within)
        if cached is not None and key in self._form_docs:
            memo = (key, q.exact)
            everywhere = self._stem_only_memo.get(memo)
            if everywhere is None:
                everywhere = self._stem_only_memo[memo] = self._stem_only_from(self._form_docs[key], q.exact)
            self.stem_only[(fieldname, q.text)] = (
                everywhere if within is None else {d for d in everywhere if d in within.docs},
                cached,
            )
            return self._boosted(cached, q.boost)
        idf = self._idf(max((q.forms or related).values()))
        k = self.K1 + 1
        size = sum(q.forms.values()) + sum(related.values())
        restrict = within is not None and q.text not in self.settled and size > RESTRICT_RATIO * len(within)
        out: Scores
        form_docs: dict[bytes, list[tuple[int, array]]] = {}  # form → (offset, its segment's docnums)
        forms = sorted(q.forms, key=q.forms.__getitem__, reverse=True)  # the biggest is taken whole, in C
        forms += sorted(related, key=related.__getitem__, reverse=True)
        if not restrict and size >= ARRAY_FROM:
            out = self._stemmed_arrays(fieldname, forms, related, idf * k, form_docs)
        else:
            out = self._stemmed_dict(fieldname, forms, related, idf * k, form_docs, within if restrict else None)
        stem_only = self._stem_only_from(form_docs, q.exact)
        if not restrict:
            self._cache(key, out, sum(len(docs) for parts in form_docs.values() for _, docs in parts))
            self._form_docs[key] = form_docs
            if within is not None:
                out = _restricted(out, within)
                stem_only = {d for d in stem_only if d in within.docs}
        self.stem_only[(fieldname, q.text)] = (stem_only, out)
        return self._boosted(out, q.boost)

    def _stemmed_dict(self, fieldname: str, forms: list[bytes], related: Collection[bytes], k: float,
                      form_docs: dict[bytes, list[tuple[int, array]]],
                      within: Within | None) -> dict[int, float]:  # fmt: skip
        """A stem's forms summed per document and scored (k: idf·(K1 + 1)); each form's documents into
        `form_docs`. With `within`, only those documents are looked up."""
        norm, lengths = self._norm(fieldname)
        out: dict[int, float] = {}
        for i, (_, offset) in enumerate(self.leaves):
            targets = within.local[i] if within is not None else None
            total: dict[int, float] = {}
            deleted: frozenset[int] | set[int] = _NONE
            for form in forms:
                ids, ws, _, dropped = self._postings(i, fieldname, form, targets=targets)
                deleted = dropped or deleted
                if form in related:  # a derivation's occurrence counts for less
                    ws = [w * RELATED_WEIGHT for w in ws]
                if not total:
                    total = dict(zip(ids, ws, strict=False))
                else:
                    get = total.get
                    for d, w in zip(ids, ws, strict=False):
                        total[d] = get(d, 0.0) + w
                if ids:
                    form_docs.setdefault(form, []).append((offset, array("I", ids)))
                self.check()
            if deleted:
                _drop(total, deleted, 0)
            length = lengths[i]
            out.update({d + offset: k * w / (w + norm[length[d]]) for d, w in total.items()})
        return out

    def _stemmed_arrays(self, fieldname: str, forms: list[bytes], related: Collection[bytes], k: float,
                        form_docs: dict[bytes, list[tuple[int, array]]]) -> ArrayScores:  # fmt: skip
        """_stemmed_dict's whole read as arrays (a common word): each document's forms' weights summed in
        the forms' order (bincount adds in the order given), then the same formula in numpy."""
        np = numpy()
        table, lengths = self._norm_array(fieldname)
        docs: list[Any] = []
        vals: list[Any] = []
        for i, (_, offset) in enumerate(self.leaves):
            ids_parts: list[Any] = []
            ws_parts: list[Any] = []
            deleted: frozenset[int] | set[int] = _NONE
            for form in forms:
                ids, ws, _, dropped = self._postings(i, fieldname, form)
                deleted = dropped or deleted
                if ids:
                    w = np.array(ws, dtype=np.float64)
                    ws_parts.append(w * RELATED_WEIGHT if form in related else w)  # a derivation counts for less
                    ids_parts.append(np.array(ids, dtype=np.int64))
                    form_docs.setdefault(form, []).append((offset, array("I", ids)))
                self.check()
            if not ids_parts:
                continue
            all_ids = np.concatenate(ids_parts)
            size = self._counts[i]
            d = np.flatnonzero(np.bincount(all_ids, minlength=size))
            if deleted:
                d = d[_live(d, deleted)]
            w = np.bincount(all_ids, np.concatenate(ws_parts), minlength=size)[d]
            docs.append(d + offset if offset else d)
            vals.append(k * w / (w + table[lengths[i][d]]))
        return _joined(docs, vals)

    @staticmethod
    def _stem_only_from(form_docs: dict[bytes, list[tuple[int, array]]], exact: Collection[bytes]) -> set[int]:
        """The documents with a form of the stem but none of the word typed (deleted ones may be among them:
        callers look them up in a result)."""
        out: set[int] = set()
        offsets = {offset for parts in form_docs.values() for offset, _ in parts}
        for offset in offsets:
            others = [docs for form, parts in form_docs.items() if form not in exact
                      for o, docs in parts if o == offset]  # fmt: skip
            if not others:
                continue
            typed = [docs for form in exact for o, docs in form_docs.get(form, ()) if o == offset]
            if sum(map(len, others)) + sum(map(len, typed)) >= ARRAY_FROM:  # a common word's forms: a mask
                np = numpy()
                kind = np.dtype(f"u{others[0].itemsize}")
                other_arrays = [np.frombuffer(docs, dtype=kind) for docs in others]
                size = max(int(a[-1]) for a in other_arrays if len(a)) + 1  # (each form's docnums ascend)
                mask = np.zeros(size, dtype=bool)
                for a in other_arrays:
                    mask[a] = True
                for docs in typed:
                    a = np.frombuffer(docs, dtype=kind)
                    mask[a[a < size]] = False
                out.update((np.flatnonzero(mask) + offset).tolist())
                continue
            other: set[int] = set()
            for docs in others:
                other.update(docs)
            for docs in typed:
                other.difference_update(docs)
            out.update([d + offset for d in other] if offset else other)
        return out

    def _multiterm(self, q: query.MultiTerm, within: Within | None = None) -> Scores:
        """A prefix, wildcard, fuzzy term or term range: the sum of the scores of the words it expands to
        (the most frequent MAX_EXPANSION of them). Each segment expands it in its own terms, as Whoosh does
        (a fuzzy match over all segments at once can find words no segment's own expansion finds)."""
        fieldname = q.field()
        if fieldname not in self.schema:
            return {}
        words = self._expand(q)
        self.expanded[q] = words
        if self._unscored:
            found: dict[int, float] = {}
            for w in words:
                found.update(dict.fromkeys(self._term(fieldname, w, within=within), 1.0))
            return found
        if len(words) == 1:
            return self._boosted(self._term(fieldname, next(iter(words)), within=within), q.boost)
        return self._or(query.Or([query.Term(fieldname, w) for w in sorted(words)], boost=q.boost), within)

    def _expand(self, q: query.MultiTerm) -> set[bytes]:
        """The words of each segment the term matches. Past MAX_EXPANSION words (`a*`, `co*`), the most
        frequent of them that fit in MAX_EXPANSION_POSTINGS (a word that alone does not is left out; but the
        word being typed inside a hyphenated word keeps its few most frequent, which are read in its other
        words' papers only), with a note saying so; a prefix of fewer words is searched whole (`learn*`)."""
        fieldname = q.field()
        found: dict[bytes, int] = {}
        for leaf, _ in self.leaves:
            for w, df in _expansions(q, leaf.reader()):
                found[w] = found.get(w, 0) + df
            self.check()
        most = q.most if isinstance(q, TypedPrefix) else MAX_EXPANSION
        if len(found) <= most:
            return set(found)
        kept: set[bytes] = set()
        postings = 0
        for w in sorted(found, key=lambda w: (-found[w], w)):
            if len(kept) == most:
                break
            if postings + found[w] <= MAX_EXPANSION_POSTINGS or (self._in_phrase and isinstance(q, TypedPrefix)):
                kept.add(w)
                postings += found[w]
        for w in kept:
            self._df[(fieldname, w)] = found[w]
        if isinstance(q, TypedPrefix):
            # a form too rare to be among the most frequent ("self-sup": "supervise" beside "supervised") is
            # still a form of the word being typed towards
            for w in list(kept):
                for form in self.vocabulary.forms(fieldname, w.decode("utf-8"))[0]:
                    if form in found and form not in kept:
                        kept.add(form)
                        self._df[(fieldname, form)] = found[form]
            return kept
        shown = _shown(q)
        before = self._capped.get(shown, (0, 0))
        self._capped[shown] = (max(before[0], len(found)), max(before[1], len(kept)))
        return kept

    def _note_caps(self) -> None:
        for shown, (found, kept) in self._capped.items():
            self.notes.append(f"“{shown}” matches {found:,} words; searched for {kept:,} of the most frequent "
                              "(more letters narrow it)")  # fmt: skip
        self._capped = {}

    def _numeric_range(self, q: query.NumericRange) -> Scores:
        """The documents whose exact value lies in the range, scored `boost` (Whoosh's constant score).
        Not Whoosh's trie decomposition: for this schema's 16-bit years it matched values outside the range
        (year:1000..2025 found 2026)."""
        field = self._field(q.fieldname)
        if field is None:
            return {}
        values = self._values.get(q.fieldname)
        if values is None:
            found: set[bytes] = set()
            for leaf, _ in self.leaves:
                found.update(field.sortable_terms(leaf.reader(), q.fieldname))
            values = self._values[q.fieldname] = [(field.from_bytes(b), b) for b in sorted(found)]
        out: dict[int, float] = {}
        for value, btext in values:
            if q.start is not None and (value < q.start or (q.startexcl and value == q.start)):
                continue
            if q.end is not None and (value > q.end or (q.endexcl and value == q.end)):
                continue
            out.update(dict.fromkeys(self._term(q.fieldname, btext), q.boost))
        return out

    def _constant(self, q: query.ConstantScoreQuery) -> Scores:
        """Only which documents match counts (Whoosh's numeric ranges compile to this)."""
        self._unscored += 1
        try:
            matched = self._eval(q.child)
        finally:
            self._unscored -= 1
        return dict.fromkeys(matched, q.score)

    def _phrase(self, q: query.Phrase, within: Within | None = None) -> Scores:
        """Words at consecutive positions (Whoosh's slop 1), scored as the sum of the words' scores."""
        field = self._field(q.fieldname)
        if field is None or not q.words:
            return {}
        if not field.format or not field.format.supports("positions"):
            return self._fallback(q)  # Whoosh's own error message
        try:
            btexts = [field.to_bytes(w) for w in q.words]
        except ValueError:
            return {}
        if len(btexts) == 1:
            return self._boosted(self._term(q.fieldname, btexts[0], within=within), q.boost)
        # the rarest word first: the others are read only in its documents
        order = sorted(range(len(btexts)), key=lambda i: self._doc_frequency(q.fieldname, btexts[i]))
        encoded: list[dict[int, bytes]] = [{} for _ in btexts]
        scores: list[Scores] = [{} for _ in btexts]
        candidates: Within | None = within
        for i in order:
            scores[i] = self._term(q.fieldname, btexts[i], encoded[i], within=candidates)
            if not scores[i]:
                return {}
            if candidates is None:
                candidates = self._within(scores[i])
            elif isinstance(scores[i], ArrayScores):
                candidates = self._within(among(scores[i], candidates.array()))
            else:
                candidates = self._within(scores[i].keys() & candidates.docs)
            if not candidates.docs:
                return {}
        assert candidates is not None
        decode = _decode_positions if type(field.format) is Positions else field.format.decode_positions
        matched: list[int] = []
        if len(btexts) == 2:  # the common case, kept tight: candidates can be many thousands
            first, second = encoded
            for d in candidates.docs:
                a, b = decode(first[d]), decode(second[d])
                if len(a) == 1 and len(b) == 1:
                    if b[0] == a[0] + 1:
                        matched.append(d)
                elif not set(a).isdisjoint([p - 1 for p in b]):
                    matched.append(d)
        else:
            rest = list(enumerate(encoded[1:], 1))
            for d in candidates.docs:
                starts = set(decode(encoded[0][d]))
                for i, positions in rest:
                    starts.intersection_update([p - i for p in decode(positions[d])])
                    if not starts:
                        break
                if starts:
                    matched.append(d)
        totals = [0.0] * len(matched)
        for word_scores in scores:  # (looked up by scores_of: a common word's arrays are not made a dictionary)
            totals = [s + x for s, x in zip(totals, scores_of(word_scores, matched), strict=True)]
        return self._boosted(dict(zip(matched, totals, strict=True)), q.boost)

    def _light_phrase(self, q: LightPhrase, within: Within | None = None) -> Scores:
        """A quoted phrase whose words may be in another number or spelling (LightPhrase): words at
        consecutive positions, each in any of its forms, scored as the sum of the forms' scores; the papers
        that have it only in other forms than typed are noted in `stem_only`, so that the phrase as typed
        ranks first (engine.rank_keys)."""
        field = self._field(q.fieldname)
        if field is None or not q.words:
            return {}
        if not field.format or not field.format.supports("positions"):
            return self._fallback(q)
        decode = _decode_positions if type(field.format) is Positions else field.format.decode_positions
        typed = [self._btext(q.fieldname, w) if isinstance(w, str) else None for w in q.words]
        if None not in typed and min(self._doc_frequency(q.fieldname, b) for b in typed) >= LIGHT_ENOUGH:  # type: ignore[arg-type]
            # a common phrase: as typed first, and when LIGHT_ENOUGH papers have it so (in this field), that is
            # all (its other forms' papers would rank below them all, and reading them doubled the cost)
            exact = self._phrase(query.Phrase(q.fieldname, list(q.words), slop=1, boost=q.boost), within)
            if len(exact) >= LIGHT_ENOUGH:
                return exact
        words = [[b for b in (self._btext(q.fieldname, f) for f in forms) if b is not None] for forms in q.forms]
        order = sorted(range(len(words)), key=lambda i: sum(self._doc_frequency(q.fieldname, b) for b in words[i]))
        # each word's forms' encoded positions, per document (the typed form's first, {} when the index lacks
        # it): decoded only for the papers with every word, the typed forms' first (_phrase's reading)
        encoded: list[list[dict[int, bytes]]] = [[] for _ in words]
        scores: list[list[Scores]] = [[] for _ in words]
        candidates: Within | None = within
        for i in order:
            docs: set[int] = set()
            for btext in words[i]:
                values: dict[int, bytes] = {}
                # (a word after the rarest is looked up in its papers only, unless it is rarer still: its other
                # forms are read whole, positions and all, for nothing else)
                found = self._term(q.fieldname, btext, values, within=candidates, ratio=1)
                encoded[i].append(values if found else {})
                if not found:
                    continue
                scores[i].append(found)
                inside = candidates.docs if candidates is not None else None
                if isinstance(found, ArrayScores):
                    docs |= held(found, values.keys() if inside is None else [d for d in values if d in inside])
                else:  # (its documents are those of `values` but the deleted: set operations in C)
                    docs |= found.keys() if inside is None else found.keys() & inside
            if not docs:
                return {}
            candidates = self._within(docs)
        assert candidates is not None
        if prod(len(forms) for forms in encoded) <= LIGHT_COMBINATIONS:
            compact = type(field.format) is CompactPositions  # (a one-byte value is the position)
            matched, other = self._in_a_row_by_forms(encoded, candidates.docs, decode, compact)
        else:  # (many forms: each paper's positions of any form)
            matched, other = [], set()
            for d in sorted(candidates.docs):
                at = [[p for values in forms if (v := values.get(d)) is not None for p in decode(v)]
                      for forms in encoded]  # fmt: skip
                if _in_a_row(at):
                    matched.append(d)
                    typed = [forms[0].get(d) for forms in encoded]
                    if None in typed or not _in_a_row([decode(v) for v in typed]):  # type: ignore[arg-type]
                        other.add(d)
        out: dict[int, float] = dict.fromkeys(matched, 0.0)
        for word_scores in scores:
            for form_scores in word_scores:  # (a form's scores may be arrays: looked up for the matches only)
                if isinstance(form_scores, ArrayScores):
                    have = sorted(held(form_scores, matched))
                    for d, score in zip(have, scores_of(form_scores, have), strict=True):
                        out[d] += score
                    continue
                get = form_scores.get
                for d in matched:
                    got = get(d)
                    if got is not None:
                        out[d] += got
        self.stem_only[(q.fieldname, q.key)] = (other, out)
        return self._boosted(out, q.boost)

    @staticmethod
    def _in_a_row_by_forms(encoded: list[list[dict[int, bytes]]], docs: Collection[int],
                           decode: Callable[[bytes], Sequence[int]],
                           compact: bool) -> tuple[list[int], set[int]]:  # fmt: skip
        """_light_phrase's matches (in docnum order) and those of them with the phrase in other forms only: each
        combination of the words' forms looked at as a phrase of its own, in the papers with all of them
        (as _phrase reads one), the forms typed first: a paper is decoded for the combinations it has only."""
        matched: set[int] = set()
        other: set[int] = set()
        among = set(docs)
        for n, combination in enumerate(product(*encoded)):
            both = among.intersection(*(values.keys() for values in combination)) - matched
            if not both:
                continue
            if len(combination) == 2 and compact:  # the common case, kept tight (as _phrase's)
                first, second = combination
                found = set()
                for d in both:
                    a, b = first[d], second[d]
                    if len(a) == 1 and len(b) == 1:  # (one position each, under 128: the byte is the position)
                        if b[0] == a[0] + 1:
                            found.add(d)
                    elif not set(decode(a)).isdisjoint([p - 1 for p in decode(b)]):
                        found.add(d)
            else:
                found = {d for d in both if _in_a_row([decode(values[d]) for values in combination])}
            matched |= found
            if n:
                other |= found
        return sorted(matched), other

    def _partial(
        self,
        words: list[query.Query],
        required: list[query.Query],
        excluded: list[query.Query],
        all_known_fail: bool,
        fit: bool,
    ) -> tuple[Scores, dict[int, int]]:
        sizes = [self._estimate(w) for w in words]
        known = sorted((i for i, size in enumerate(sizes) if size > 0), key=sizes.__getitem__)
        if not known:
            return {}, {}
        most_missing = len(known) - 1 if len(known) <= 3 else len(known) // 2
        # all the words a document can have first, unless the caller knows no document has them all
        missing = 1 if all_known_fail and len(known) == len(words) else 0
        while missing <= most_missing:
            found = self._tier(words, known, required, excluded, missing)
            if found[0]:
                if fit and missing < most_missing:  # the next tier too: a paper a word short may fit better
                    return self._tier(words, known, required, excluded, min(most_missing, missing + FIT_TIERS))
                return found
            missing += 1
        return {}, {}

    def _tier(
        self,
        words: list[query.Query],
        known: list[int],
        required: list[query.Query],
        excluded: list[query.Query],
        missing: int,
    ) -> tuple[Scores, dict[int, int]]:
        """Every document with all of `required`, none of `excluded`, and missing at most `missing` of the
        known words: its summed score and how many of them it has."""
        evaluate = self._eval if self.fast else self._slow
        candidates: set[int] = set()
        for i in known[: missing + 1]:  # the rarest: every document missing at most `missing` holds one
            candidates.update(evaluate(words[i]))
        scores: dict[int, float] = dict.fromkeys(candidates, 0.0)
        for sub in required:
            if not scores:
                break
            got = evaluate(sub, self._within(scores))
            scores = {d: s + got[d] for d, s in scores.items() if d in got}
        for sub in excluded:
            if not scores:
                break
            got = evaluate(sub, self._within(scores))
            scores = {d: s for d, s in scores.items() if d not in got}
        # the words rarest first, each looked up in the documents still in the running: one that has
        # missed more than `missing` words leaves it, so the common words are read for few documents
        misses = dict.fromkeys(scores, 0)
        # each word's worth, its idf over the query words' mean: a paper lacking a common word ("learning",
        # "deep": words a title has and its abstract often not) fits better than one lacking a rare one
        idfs = {i: self._idf(self._estimate(words[i])) for i in known}
        mean = sum(idfs.values()) / len(idfs)
        worth = {i: idf / mean for i, idf in idfs.items()}
        weights = dict.fromkeys(misses, 0.0)
        for i in known:
            if not misses:
                break
            got = evaluate(words[i], self._within(misses))
            for d in list(misses):
                if d in got:
                    scores[d] += got[d]
                    weights[d] += worth[i]
                elif misses[d] == missing:
                    del misses[d]
                else:
                    misses[d] += 1
        self.matched_weight = {d: weights[d] for d in misses}
        return {d: scores[d] for d in misses}, {d: len(known) - m for d, m in misses.items()}

    def _slow(self, q: query.Query, within: Within | None = None) -> Scores:
        return _maybe_restricted(self._fallback(q), within)

    def _fallback(self, q: query.Query) -> Scores:
        """Whoosh's own matcher, for a sub-query this module does not evaluate itself."""
        out: dict[int, float] = {}
        context = self.searcher.context()
        for leaf, offset in self.leaves:
            m = q.matcher(leaf, context)
            while m.is_active():
                out[m.id() + offset] = m.score()
                self.work += 1
                m.next()
            self.check()
        return out


_NONE: frozenset[int] = frozenset()


def _content_places(q: HyphenPhrase) -> list[int]:
    """Where a hyphenated word's words but its stop words stand in it (all of them if it has nothing else)."""
    words = q.subqueries
    return [k for k, w in enumerate(words) if w.text not in STOP_WORDS] or list(range(len(words)))


def _content(q: HyphenPhrase) -> query.And:
    """A hyphenated word's words but its stop words, as the And read (see _content_places)."""
    places = _content_places(q)
    return q if len(places) == len(q.subqueries) else query.And([q.subqueries[k] for k in places], boost=q.boost)


def _drop(scores: dict[int, float], deleted: Collection[int], offset: int) -> None:
    """Deleted documents out of one segment's part of a result: the segment's deleted docnums looked up in
    the part, or the part's in them when the part is the smaller (a rare word of a prefix's hundreds, in a
    segment where many papers were edited, popped every deleted docnum for each word)."""
    if len(deleted) > len(scores):
        for d in [d for d in scores if d - offset in deleted]:
            del scores[d]
        return
    for d in deleted:
        scores.pop(d + offset, None)


def _live(docs: Any, deleted: Collection[int]) -> Any:
    """Which of a segment's docnums (an array) are not deleted: a mask over them."""
    np = numpy()
    return ~np.isin(docs, np.fromiter(deleted, np.int64, len(deleted)))


def _joined(docs: list[Any], vals: list[Any]) -> ArrayScores:
    """Segments' arrays as one result (segments follow one another in docnum order)."""
    np = numpy()
    if not docs:
        return ArrayScores(np.zeros(0, dtype=np.int64), np.zeros(0))
    return ArrayScores(np.concatenate(docs), np.concatenate(vals)) if len(docs) > 1 else ArrayScores(docs[0], vals[0])


def _restricted(scores: Scores, within: Within) -> Scores:
    if isinstance(scores, ArrayScores):
        return among(scores, within.array())
    docs = within.docs
    if len(docs) < len(scores):
        return {d: scores[d] for d in docs if d in scores}
    return {d: s for d, s in scores.items() if d in docs}


def _maybe_restricted(scores: Scores, within: Within | None) -> Scores:
    return scores if within is None else _restricted(scores, within)


def _expansions(q: query.MultiTerm, reader) -> Iterator[tuple[bytes, int]]:
    """The words of one segment a multi-term query matches, with their document frequencies (read from
    the term entries a prefix walks anyway, rather than looking each word up again)."""
    fieldname = q.field()
    if isinstance(q, query.Prefix | query.Wildcard) and isinstance(q.text, str):
        if isinstance(q, query.Prefix):
            prefix, pattern = q.text, None
        else:
            prefix, pattern = q._find_prefix(q.text), re.compile(q._get_pattern())
        words = lexicon(reader, fieldname)
        if words is not None:  # in memory: a leading wildcard walked every term of the term file
            places = words.span(prefix.encode("utf-8")) if prefix else range(len(words.words))
            for j in places:
                btext = words.words[j]
                if pattern is None or pattern.match(btext.decode("utf-8")):
                    yield btext, words.frequencies[j]
            return
        try:
            items = reader.iter_prefix(fieldname, prefix) if prefix else reader.iter_field(fieldname)
            for btext, info in items:
                if pattern is None or pattern.match(btext.decode("utf-8")):
                    yield btext, info.doc_frequency()
        except TermNotFound:
            return
        return
    for btext in q._btexts(reader):  # (a fuzzy term's are str)
        if btext:
            btext = btext.encode("utf-8") if isinstance(btext, str) else btext
            yield btext, reader.doc_frequency(fieldname, btext)


def _shown(q: query.MultiTerm) -> str:
    text = getattr(q, "text", "")
    if isinstance(q, query.Prefix):
        return f"{text}*"
    if isinstance(q, query.FuzzyTerm):
        return f"{text}~{q.maxdist:g}"
    return str(text)


ARRAY_SORT_FROM = 4096  # matches from which they are sorted by numpy (figures: docs/performance-changes.md)


def ranked(scores: Scores, limit: int | None = None, order: Sequence[int] | None = None) -> list[int]:
    """The docnums, best first. Equal scores come in `order`'s order (docnum → paper id: the order the papers
    were added), else in docnum order, as Whoosh's collectors order them: docnums follow the segments an
    index's writer processes made, so without `order` a filter's matches ("venue:neurips", all equal) came
    in an order no reader could name, different after each import. Only the order: callers map it to what
    they need in C (no (score, docnum) pair per match: building and unpacking them was most of a large
    search). Every match of many: ranked_ids."""
    if isinstance(scores, ArrayScores) and limit is not None:
        return top_docs(scores, limit, order)
    tie = order.__getitem__ if order is not None else None
    if limit is not None and limit < len(scores):
        # a Python key, so the interpreter lock changes hands while it runs (related papers are computed
        # in the background, and a sort in C of many documents held it long enough to stall a paint)
        if tie is None:
            best = heapq.nlargest(limit, scores.items(), key=lambda item: (item[1], -item[0]))
        else:
            best = heapq.nlargest(limit, scores.items(), key=lambda item: (item[1], -tie(item[0])))
        return [d for d, _ in best]
    return sorted(sorted(scores, key=tie), key=scores.__getitem__, reverse=True)


def ranked_ids(keys: Scores, scores: Scores, pids: Any) -> tuple[list[int], list[float], Any]:
    """Every match sorted by numpy (from ARRAY_SORT_FROM of them): by `keys`, ties in paper-id order as in
    ranked(); with each one's paper id (`pids`, the docnum → id array) and score (`scores`, the same
    documents as `keys`). Ids and scores are taken from arrays in rank order, where looking each match up in
    a dictionary in that order was a cache miss per match: the cost per match grew with the result (figures:
    docs/performance-changes.md). Returns the ids, the scores and the docnums (an array), best first."""
    np = numpy()
    n = len(keys)
    if isinstance(keys, ArrayScores):
        docs, values = keys.docs, keys.vals
        if scores is keys:
            found = values
        elif isinstance(scores, ArrayScores) and scores.docs is docs:
            found = scores.vals
        else:
            found = np.array(scores_of(scores, docs.tolist()), dtype=np.float64)
    else:
        docs = np.fromiter(keys.keys(), np.int64, n)
        values = np.fromiter(keys.values(), np.float64, n)
        # in the keys' order: the lookups walk the dictionary as it was built, not at random
        found = values if scores is keys else np.fromiter(map(scores.__getitem__, keys), np.float64, n)
    ids = np.asarray(pids)[docs]
    best = np.lexsort((ids, -values))
    return ids[best].tolist(), found[best].tolist(), docs[best]


def _length_bytes(reader, fieldname: str) -> bytes:
    """A segment's one-byte field lengths, one per document (zero where the field is empty)."""
    count = reader.doc_count_all()
    perdoc = getattr(reader, "_perdoc", None)
    lengths = column_lengths(perdoc, fieldname, count) if perdoc is not None else None
    return lengths if lengths is not None else bytes(count)


def _blocks_size(entry: tuple[Sequence[int], list[int], list[DeferredValues]]) -> int:
    """About how many bytes a term's kept blocks hold (Ranker._blocks): their bodies and docnums."""
    return sum(len(b.body) for b in entry[2]) + 4 * len(entry[0])


def _in_a_row(places: Sequence[Sequence[int]]) -> bool:
    """Whether the words, at these positions each, stand one after the other somewhere."""
    if len(places) == 2:
        first, second = places
        if len(first) == 1 and len(second) == 1:
            return second[0] == first[0] + 1
        return not set(first).isdisjoint([p - 1 for p in second])
    starts = set(places[0])
    for k in range(1, len(places)):
        starts.intersection_update([p - k for p in places[k]])
        if not starts:
            return False
    return bool(starts)


def _decode_positions(value: bytes) -> Sequence[int]:
    """Whoosh's Positions.decode_positions, faster: a 4-byte count, then the pickled position deltas
    (whose final STOP byte Whoosh may trim). Most words occur once in an abstract: that case, a single
    position under 256, is read straight from the bytes."""
    if value[3] == 1 and value[9] == _BININT1 and not (value[0] or value[1] or value[2]):
        return (value[10],)
    if value[-1] != _STOP:
        return list(accumulate(loads(value[_INT_SIZE:] + b".")))
    return list(accumulate(loads(memoryview(value)[_INT_SIZE:])))


_BININT1, _STOP = ord("K"), ord(".")  # pickle opcodes


FIT_TIERS = 2  # with `fit`, the tiers looked at past the first found: papers this many words short


def _never() -> None:
    return None
