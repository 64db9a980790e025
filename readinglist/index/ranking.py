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
  outweighing the word typed. Which documents hold the word in the form typed (up to a plural) is kept
  (`exact_docs`): the index ranks those first (see engine.rank_keys);
- a prefix, wildcard or fuzzy term that expands to more than MAX_EXPANSION words searches the most frequent
  of them, and says so (`notes`): `a*` would read every posting of thousands of words;
- `partial` ranks the papers that have most of a query's words (the fallback when none has them all).

An And evaluates its cheapest part first and looks up the others only in the documents still in the
running (`within`): a posting block none of them is in is skipped unread, so a pasted sentence's "the" and
"of" cost a few block headers, not every posting. Scores of the documents looked up are exactly those of a
full evaluation.

Score dictionaries map a searcher-wide docnum to a score. Those of single terms and words are cached per
searcher (bounded), so a query that grows by a keystroke re-reads only its new word.
"""

from __future__ import annotations

import heapq
import re
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterator, Sequence
from itertools import accumulate
from math import log
from pickle import loads

from whoosh import query
from whoosh.codec.whoosh3 import W3LeafMatcher
from whoosh.formats import Positions
from whoosh.matching import FilterMatcher, Matcher
from whoosh.reading import TermNotFound
from whoosh.searching import Searcher
from whoosh.system import _INT_SIZE
from whoosh.util.numeric import byte_to_length

from readinglist.index.patches import column_lengths, fast_paths
from readinglist.index.query import Stemmed
from readinglist.index.vocabulary import SUGGESTION_FIELDS, segment_words

Scores = dict[int, float]
TERM_CACHE_POSTINGS = 400_000  # ≈ 40 MB of cached term scores at most
MAX_EXPANSION = 200  # words a prefix, wildcard or fuzzy term is searched for, the most frequent first
MAX_EXPANSION_POSTINGS = 60_000  # ...and postings, per field: `a*` is "a", "and", "are", … (~1 µs each to read)
RESTRICT_RATIO = 4  # look a term up only in the candidates when it has this many times more documents


class Within:
    """The documents still in the running (a searcher-wide docnum set), and per segment its local docnums
    in order — what a restricted read of a posting list needs."""

    def __init__(self, docs: Collection[int], leaves: list[tuple[Searcher, int]], counts: list[int]):
        self.docs = docs if isinstance(docs, set | frozenset | dict) else set(docs)
        ordered = sorted(self.docs)
        self.local: list[list[int]] = []
        for (_, offset), count in zip(leaves, counts, strict=True):
            lo, hi = bisect_left(ordered, offset), bisect_left(ordered, offset + count)
            self.local.append([d - offset for d in ordered[lo:hi]])

    def __len__(self) -> int:
        return len(self.docs)


class Ranker:
    """Evaluates parsed queries against one Whoosh searcher. Not thread-safe: the index serialises
    searches, and builds a new Ranker with each new searcher."""

    def __init__(self, searcher: Searcher, pause: Callable[[], None] | None = None):
        self.searcher = searcher
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
        self._terms: OrderedDict[tuple[str, bytes], Scores] = OrderedDict()
        self._cached_postings = 0
        self.check: Callable[[], None] = _never
        self._unscored = 0  # inside a constant-score query: only the matching documents matter
        self._values: dict[str, list[tuple[object, bytes]]] = {}  # numeric field → values present
        self._df: dict[tuple[str, bytes], int] = {}
        # the words each prefix/wildcard/fuzzy term of the last query expanded to (the highlighter reads
        # them instead of expanding the term a second time: 11 ms of a 40 ms fuzzy search at 8k papers)
        self.expanded: dict[query.Query, set[bytes]] = {}
        self.notes: list[str] = []  # what the last evaluation did not do as asked (a capped expansion)
        # (field, word) → the documents, of those looked at, that hold a form of a plain word as typed
        self.exact: dict[tuple[str, str], set[int]] = {}
        self._exact_cache: dict[tuple[str, bytes], set[int]] = {}  # beside the cached stemmed scores
        self._capped: dict[str, tuple[int, int]] = {}  # a capped term as typed → (words found, words kept)
        self._leading: set[str] = set()  # wildcards that start with one, as typed

    # ---- the public part ----

    def evaluate(self, q: query.Query, check: Callable[[], None] | None = None) -> Scores:
        """Every matching document with its score, as Whoosh's BM25F would score it (but for the
        differences in the module's docstring). `check` is called now and then and may raise to abandon
        the evaluation. The result may be shared: do not modify it."""
        self.check = check or _never
        self.expanded = {}
        self.notes = []
        self.exact = {}
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
    ) -> tuple[Scores, dict[int, int]]:
        """The closest matches when no document has every word: the documents with the most of `words`
        (and all of `required`, none of `excluded`), scored by the words they have, with how many each has.

        Tier by tier: the documents missing at most j of the words all hold one of the j + 1 rarest, so
        those few posting lists give every candidate, and the other words are looked up in the candidates
        only. The first j that finds documents ends the search (each tier found is complete); at most half
        the words may be missing (beyond that a match says little). Words no document has never count.
        `all_known_fail`: the caller knows no document has every word (so the first tier is skipped)."""
        self.check = check or _never
        self.expanded = {}
        self.notes = []
        self.exact = {}
        try:
            return self._partial(list(words), list(required), list(excluded), all_known_fail)
        finally:
            self.check = _never
            self._note_caps()

    def evaluate_within(self, q: query.Query, docs: Collection[int]) -> Scores:
        """The query's scores in these documents only (the others are not looked up)."""
        self.expanded = {}
        self.notes = []
        try:
            return (
                self._eval(q, self._within(docs)) if self.fast else _restricted(self._fallback(q), self._within(docs))
            )
        finally:
            self._note_caps()

    def exact_docs(self, q: query.Query) -> set[int] | None:
        """The documents that, in the last evaluation, held some plain word of `q` in the form typed (None
        when `q` has no plain word: then every match is as exact as any other)."""
        keys = [(leaf.fieldname, leaf.text) for leaf in q.leaves() if isinstance(leaf, Stemmed)]
        if not keys:
            return None
        out: set[int] = set()
        for key in keys:
            out |= self.exact.get(key, set())
        return out

    def estimate(self, q: query.Query) -> int:
        """How many documents the query may match (an upper bound where cheap to know; 0 means none)."""
        return self._estimate(q)

    # ---- posting lists ----

    def _postings(self, leaf: Searcher, fieldname: str, btext: bytes, values: bool = False,
                  targets: list[int] | None = None):  # fmt: skip
        """One segment's postings of a term: docnums (deleted ones left out), weights and, if asked, the
        encoded values (positions). Whole blocks are decoded at once. With `targets` (local docnums, in
        order) only those documents are looked up, and a block none of them is in is skipped unread."""
        reader = leaf.reader()
        ids: list[int] = []
        weights: list[float] = []
        vals: list[bytes] = []
        if (fieldname, btext) not in reader or targets == []:
            return ids, weights, vals
        m: Matcher = reader.postings(fieldname, btext)
        deleted: frozenset[int] | set[int] = frozenset()
        if isinstance(m, FilterMatcher):
            deleted = m._ids
            m = m.child
        if isinstance(m, W3LeafMatcher) and targets is not None:
            self._postings_within(m, targets, ids, weights, vals, values)
        elif isinstance(m, W3LeafMatcher):
            while m.is_active():
                self.pause()
                m._read_data()
                block_ids, block_weights = m._data[0], m._data[1]
                n = m._blocklength
                ids.extend(block_ids if m._byteids else accumulate(block_ids))
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
        else:  # another codec, or postings inlined in the term's entry: the slow, general way
            wanted = set(targets) if targets is not None else None
            while m.is_active():
                if wanted is None or m.id() in wanted:
                    ids.append(m.id())
                    weights.append(m.weight())
                    if values:
                        vals.append(m.value())
                m.next()
        if deleted:
            keep = [i for i, d in enumerate(ids) if d not in deleted]
            ids = [ids[i] for i in keep]
            weights = [weights[i] for i in keep]
            vals = [vals[i] for i in keep] if values else vals
        return ids, weights, vals

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
            block_weights = m._data[1]
            if values:
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
                    if values:
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

    def _doc_frequency(self, fieldname: str, btext: bytes) -> int:
        key = (fieldname, btext)
        df = self._df.get(key)
        if df is None:
            df = self._df[key] = int(self.searcher.doc_frequency(fieldname, btext))
        return df

    def _cache(self, key: tuple[str, bytes], scores: Scores) -> None:
        self._terms[key] = scores
        self._cached_postings += len(scores)
        while self._cached_postings > TERM_CACHE_POSTINGS and len(self._terms) > 1:
            old, dropped = self._terms.popitem(last=False)
            self._cached_postings -= len(dropped)
            self._exact_cache.pop(old, None)

    def _cached(self, key: tuple[str, bytes], within: Within | None) -> Scores | None:
        cached = self._terms.get(key)
        if cached is None:
            return None
        self._terms.move_to_end(key)
        return cached if within is None else _restricted(cached, within)

    def _restrict(self, fieldname: str, btext: bytes, within: Within | None) -> bool:
        """Whether to look the term up in the candidates only (rather than read it whole, and cache it)."""
        return within is not None and self._doc_frequency(fieldname, btext) > RESTRICT_RATIO * len(within)

    def _term(self, fieldname: str, btext: bytes, values: dict[int, bytes] | None = None,
              within: Within | None = None) -> Scores:  # fmt: skip
        """The term's score in each document it is in (with `within`, in those of them). With `values`,
        also fills it with each document's encoded positions, from the same read of the posting blocks (a
        phrase needs both)."""
        key = (fieldname, btext)
        if values is None:
            cached = self._cached(key, within)
            if cached is not None:
                return cached
        restrict = self._restrict(fieldname, btext, within)
        out: Scores = {}
        scorable = self.schema[fieldname].scorable
        if scorable:
            idf = self.searcher.idf(fieldname, btext)
            k = idf * (self.K1 + 1)
            norm, lengths = self._norm(fieldname)
        for i, (leaf, offset) in enumerate(self.leaves):
            targets = within.local[i] if restrict and within is not None else None
            ids, ws, vals = self._postings(leaf, fieldname, btext, values=values is not None, targets=targets)
            if values is not None:
                values.update(zip([d + offset for d in ids] if offset else ids, vals, strict=False))
            self.check()
            if scorable:
                length = lengths[i]
                out.update({d + offset: k * w / (w + norm[length[d]]) for d, w in zip(ids, ws, strict=False)})
            else:  # Whoosh's WeightScorer: the posting's weight
                out.update({d + offset: w for d, w in zip(ids, ws, strict=False)})
        if not restrict:
            self._cache(key, out)
            if within is not None:
                return _restricted(out, within)
        return out

    # ---- evaluation ----

    def _eval(self, q: query.Query, within: Within | None = None) -> Scores:
        self.check()
        if isinstance(q, Stemmed):
            return self._stemmed(q, within)
        if isinstance(q, query.Term):
            return self._boosted(self._term_text(q.fieldname, q.text, within), q.boost)
        if isinstance(q, query.And):
            return self._and(q, within)
        if type(q) in (query.Or, query.DefaultOr) and not q.scale:
            return self._or(q, within)
        if isinstance(q, query.AndNot):
            pos = self._eval(q.a, within)
            neg = self._eval(q.b, self._within(pos))
            return self._boosted({d: s for d, s in pos.items() if d not in neg}, q.boost)
        if isinstance(q, query.AndMaybe):
            req = self._eval(q.a, within)
            opt = self._eval(q.b, self._within(req))
            return self._boosted({d: s + opt.get(d, 0.0) for d, s in req.items()}, q.boost)
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
        return scores if boost == 1.0 else {d: s * boost for d, s in scores.items()}

    def _estimate(self, q: query.Query) -> int:
        if isinstance(q, Stemmed):
            return sum(q.forms.values())
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
        if not required:
            return _maybe_restricted(self._fallback(q), within)
        ordered = sorted(required, key=self._estimate)
        if self._estimate(ordered[0]) == 0:
            return {}  # a word no document has
        acc = self._eval(ordered[0], within)
        for sub in ordered[1:]:
            if not acc:
                return {}
            other = self._eval(sub, self._within(acc))
            acc = {d: s + other[d] for d, s in acc.items() if d in other}
        for sub in excluded:
            if not acc:
                break
            other = self._eval(sub.query, self._within(acc))
            acc = {d: s for d, s in acc.items() if d not in other}
        if excluded:  # Whoosh's matcher for a NOT inside an AND scores 1 for every document it lets through
            acc = {d: s + len(excluded) for d, s in acc.items()}
        return self._boosted(acc, q.boost)

    def _or(self, q: query.Or, within: Within | None = None) -> Scores:
        parts = sorted((self._eval(sub, within) for sub in q.subqueries), key=len, reverse=True)
        parts = [p for p in parts if p]
        if not parts:
            return {}
        acc = dict(parts[0])
        get = acc.get
        for other in parts[1:]:
            for d, s in other.items():
                acc[d] = get(d, 0.0) + s
        return self._boosted(acc, q.boost)

    def _stemmed(self, q: Stemmed, within: Within | None = None) -> Scores:
        """A plain word as one stemmed term (see the module's docstring): per document the weights of its
        forms summed and scored with BM25F's formula and the idf of the most frequent form, plus
        which documents hold one of the forms of the word typed (`exact`)."""
        fieldname = q.fieldname
        if fieldname not in self.schema or not q.forms:
            return {}
        key = (fieldname, b"\x00stem:" + q.text.encode("utf-8"))
        cached = self._cached(key, within)
        if cached is not None:
            everywhere = self._exact_cache.get(key, set())
            self.exact[(fieldname, q.text)] = (
                everywhere if within is None else {d for d in everywhere if d in within.docs}
            )
            return self._boosted(cached, q.boost)
        idf = log(self._doc_count_all / (max(q.forms.values()) + 1)) + 1
        k = self.K1 + 1
        exact_docs: set[int] = set()
        norm, lengths = self._norm(fieldname)
        restrict = within is not None and sum(q.forms.values()) > RESTRICT_RATIO * len(within)
        out: Scores = {}
        for i, (leaf, offset) in enumerate(self.leaves):
            targets = within.local[i] if restrict and within is not None else None
            total: dict[int, float] = {}
            for form in q.forms:
                ids, ws, _ = self._postings(leaf, fieldname, form, targets=targets)
                get = total.get
                for d, w in zip(ids, ws, strict=False):
                    total[d] = get(d, 0.0) + w
                if form in q.exact:
                    exact_docs.update([d + offset for d in ids] if offset else ids)
                self.check()
            length = lengths[i]
            out.update({d + offset: idf * k * w / (w + norm[length[d]]) for d, w in total.items()})
        if not restrict:
            self._cache(key, out)
            self._exact_cache[key] = exact_docs
            if within is not None:
                out = _restricted(out, within)
                exact_docs = {d for d in exact_docs if d in within.docs}
        self.exact[(fieldname, q.text)] = exact_docs
        return self._boosted(out, q.boost)

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
            found: Scores = {}
            for w in words:
                found.update(dict.fromkeys(self._term(fieldname, w, within=within), 1.0))
            return found
        if len(words) == 1:
            return self._boosted(self._term(fieldname, next(iter(words)), within=within), q.boost)
        return self._or(query.Or([query.Term(fieldname, w) for w in sorted(words)], boost=q.boost), within)

    def _expand(self, q: query.MultiTerm) -> set[bytes]:
        """The words of each segment the term matches; past MAX_EXPANSION words or postings, the most
        frequent of them, with a note saying so."""
        fieldname = q.field()
        if isinstance(q, query.Wildcard) and not q._find_prefix(q.text) and fieldname in SUGGESTION_FIELDS:
            self._leading.add(_shown(q))
        found: dict[bytes, int] = {}
        for leaf, _ in self.leaves:
            for w, df in _expansions(q, leaf.reader()):
                found[w] = found.get(w, 0) + df
            self.check()
        if len(found) <= MAX_EXPANSION and sum(found.values()) <= MAX_EXPANSION_POSTINGS:
            return set(found)
        kept: set[bytes] = set()
        postings = 0
        for w in sorted(found, key=lambda w: (-found[w], w))[:MAX_EXPANSION]:
            if kept and postings + found[w] > MAX_EXPANSION_POSTINGS:
                break
            kept.add(w)
            postings += found[w]
        for w in kept:
            self._df[(fieldname, w)] = found[w]
        shown = _shown(q)
        before = self._capped.get(shown, (0, 0))
        self._capped[shown] = (max(before[0], len(found)), max(before[1], len(kept)))
        return kept

    def _note_caps(self) -> None:
        for shown, (found, kept) in self._capped.items():
            self.notes.append(f"“{shown}” matches {found:,} words; searched for the {kept:,} most frequent "
                              "(more letters narrow it)")  # fmt: skip
        for shown in self._leading:
            self.notes.append(f"“{shown}” starts with a wildcard: it matched words found in two papers or more")
        self._capped = {}
        self._leading = set()

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
        out: Scores = {}
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
            candidates = self._within(scores[i] if candidates is None else scores[i].keys() & candidates.docs)
            if not candidates.docs:
                return {}
        assert candidates is not None
        decode = _decode_positions if type(field.format) is Positions else field.format.decode_positions
        matched: list[int] = []
        if len(btexts) == 2:  # the common case, kept tight: 10k candidates at 94k papers
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
        out = dict.fromkeys(matched, 0.0)
        for word_scores in scores:
            out = {d: s + word_scores[d] for d, s in out.items()}
        return self._boosted(out, q.boost)

    def _partial(
        self, words: list[query.Query], required: list[query.Query], excluded: list[query.Query], all_known_fail: bool
    ) -> tuple[Scores, dict[int, int]]:
        evaluate = self._eval if self.fast else self._slow
        sizes = [self._estimate(w) for w in words]
        known = sorted((i for i, size in enumerate(sizes) if size > 0), key=sizes.__getitem__)
        if not known:
            return {}, {}
        most_missing = len(known) - 1 if len(known) <= 3 else len(known) // 2
        # all the words a document can have first, unless the caller knows no document has them all
        missing = 1 if all_known_fail and len(known) == len(words) else 0
        while missing <= most_missing:
            candidates: set[int] = set()
            for i in known[: missing + 1]:  # the rarest
                candidates.update(evaluate(words[i]))
            base: Scores = dict.fromkeys(candidates, 0.0)
            for sub in required:
                if not base:
                    break
                got = evaluate(sub, self._within(base))
                base = {d: s + got[d] for d, s in base.items() if d in got}
            for sub in excluded:
                if not base:
                    break
                got = evaluate(sub, self._within(base))
                base = {d: s for d, s in base.items() if d not in got}
            if base:
                scope = self._within(base)
                counts = dict.fromkeys(base, 0)
                scores = dict(base)
                for i in known:
                    for d, s in evaluate(words[i], scope).items():
                        counts[d] += 1
                        scores[d] += s
                need = len(known) - missing
                kept = {d: s for d, s in scores.items() if counts[d] >= need}
                if kept:
                    return kept, {d: counts[d] for d in kept}
            missing += 1
        return {}, {}

    def _slow(self, q: query.Query, within: Within | None = None) -> Scores:
        return _maybe_restricted(self._fallback(q), within)

    def _fallback(self, q: query.Query) -> Scores:
        """Whoosh's own matcher, for a sub-query this module does not evaluate itself."""
        out: Scores = {}
        context = self.searcher.context()
        for leaf, offset in self.leaves:
            m = q.matcher(leaf, context)
            while m.is_active():
                out[m.id() + offset] = m.score()
                m.next()
            self.check()
        return out


def _restricted(scores: Scores, within: Within) -> Scores:
    docs = within.docs
    if len(docs) < len(scores):
        return {d: scores[d] for d in docs if d in scores}
    return {d: s for d, s in scores.items() if d in docs}


def _maybe_restricted(scores: Scores, within: Within | None) -> Scores:
    return scores if within is None else _restricted(scores, within)


def _expansions(q: query.MultiTerm, reader) -> Iterator[tuple[bytes, int]]:
    """The words of one segment a multi-term query matches, with their document frequencies (read from
    the term entries a prefix walks anyway: looking each word up again costs ~11 µs)."""
    fieldname = q.field()
    if isinstance(q, query.Prefix | query.Wildcard) and isinstance(q.text, str):
        if isinstance(q, query.Prefix):
            prefix, pattern = q.text, None
        else:
            prefix, pattern = q._find_prefix(q.text), re.compile(q._get_pattern())
        if not prefix and fieldname in SUGGESTION_FIELDS:
            # a leading wildcard would walk every term of a big field (0.6 s at 8k papers): it looks
            # among the words the spelling corrections come from instead (see the note)
            assert pattern is not None
            for text, df in segment_words(reader, fieldname).items():
                if pattern.match(text):
                    yield text.encode("utf-8"), df
            return
        try:
            items = reader.iter_prefix(fieldname, prefix) if prefix else reader.iter_field(fieldname)
            for btext, info in items:
                if pattern is None or pattern.match(btext.decode("utf-8")):
                    yield btext, info.doc_frequency()
        except TermNotFound:
            return
        return
    for btext in q._btexts(reader):
        if btext:
            yield btext, reader.doc_frequency(fieldname, btext)


def _shown(q: query.MultiTerm) -> str:
    text = getattr(q, "text", "")
    if isinstance(q, query.Prefix):
        return f"{text}*"
    if isinstance(q, query.FuzzyTerm):
        return f"{text}~{q.maxdist:g}"
    return str(text)


def ranked(scores: Scores, limit: int | None = None) -> list[int]:
    """The docnums, best first, equal scores in docnum order, as Whoosh's collectors order them. Only
    the order: callers map it to what they need in C (no (score, docnum) pair per match: 30 ms of a
    33k-match search at 94k papers went to building and unpacking them)."""
    if limit is not None and limit < len(scores):
        # a Python key, so the interpreter lock changes hands while it runs (related papers are computed
        # in the background, and a sort in C of 30k documents held it for ~10 ms)
        best = heapq.nlargest(limit, scores.items(), key=lambda item: (item[1], -item[0]))
        return [d for d, _ in best]
    return sorted(sorted(scores), key=scores.__getitem__, reverse=True)


def _length_bytes(reader, fieldname: str) -> bytes:
    """A segment's one-byte field lengths, one per document (zero where the field is empty)."""
    count = reader.doc_count_all()
    perdoc = getattr(reader, "_perdoc", None)
    lengths = column_lengths(perdoc, fieldname, count) if perdoc is not None else None
    return lengths if lengths is not None else bytes(count)


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


def _never() -> None:
    return None
