"""Whoosh's BM25F ranking, computed a posting list at a time instead of a posting at a time.

Whoosh matches and scores through a tree of matcher objects that advances one document per chain of
Python calls (several µs a posting: a common word's search is most of a keystroke's budget; figures in
docs/performance-changes.md). `Ranker` evaluates the same parsed query with set algebra over whole posting lists,
decoded block by block through Whoosh's own codec, and scores them with the formula and collection
statistics Whoosh's BM25F uses; `tests/test_ranking.py` checks every result and score against Whoosh's own
search. Query types not handled here (spans, sloppy phrases, …) go to Whoosh's matcher for that sub-query
only, so whatever Whoosh accepts still works. One deliberate difference: numeric ranges match exact values
(Whoosh's trie ranges are wrong for a 16-bit field, see `_numeric_range`).

Score dictionaries map a searcher-wide docnum to a score. Those of single terms are cached per searcher
(bounded), so a query that grows by a keystroke re-reads only its new word.
"""

from __future__ import annotations

import heapq
from collections import OrderedDict
from collections.abc import Callable, Sequence
from itertools import accumulate
from pickle import loads

from whoosh import query
from whoosh.codec.whoosh3 import W3LeafMatcher
from whoosh.formats import Positions
from whoosh.matching import FilterMatcher, Matcher
from whoosh.searching import Searcher
from whoosh.system import _INT_SIZE
from whoosh.util.numeric import byte_to_length

from readinglist.index.patches import column_lengths, fast_paths

Scores = dict[int, float]
TERM_CACHE_POSTINGS = 400_000  # ≈ 40 MB of cached term scores at most


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
        self._norms: dict[str, tuple[list[float], list[bytes]]] = {}
        self._terms: OrderedDict[tuple[str, bytes], Scores] = OrderedDict()
        self._cached_postings = 0
        self.check: Callable[[], None] = _never
        self._unscored = 0  # inside a constant-score query: only the matching documents matter
        self._values: dict[str, list[tuple[object, bytes]]] = {}  # numeric field → values present
        # the words each prefix/wildcard/fuzzy term of the last query expanded to (the highlighter reads
        # them instead of expanding the term a second time: 11 ms of a 40 ms fuzzy search at 8k papers)
        self.expanded: dict[query.Query, set[bytes]] = {}

    # ---- the public part ----

    def evaluate(self, q: query.Query, check: Callable[[], None] | None = None) -> Scores:
        """Every matching document with its score, as Whoosh's BM25F would score it. `check` is called
        now and then and may raise to abandon the evaluation. The result may be shared: do not modify it."""
        self.check = check or _never
        self.expanded = {}
        try:
            return self._eval(q) if self.fast else self._fallback(q)
        finally:
            self.check = _never

    # ---- posting lists ----

    def _postings(self, leaf: Searcher, fieldname: str, btext: bytes, values: bool = False):
        """One segment's postings of a term: docnums (deleted ones left out), weights and, if asked, the
        encoded values (positions). Whole blocks are decoded at once."""
        reader = leaf.reader()
        ids: list[int] = []
        weights: list[float] = []
        vals: list[bytes] = []
        if (fieldname, btext) not in reader:
            return ids, weights, vals
        m: Matcher = reader.postings(fieldname, btext)
        deleted: frozenset[int] | set[int] = frozenset()
        if isinstance(m, FilterMatcher):
            deleted = m._ids
            m = m.child
        if isinstance(m, W3LeafMatcher):
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
        else:  # another codec: the slow, general way
            while m.is_active():
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

    def _term(self, fieldname: str, btext: bytes, values: dict[int, bytes] | None = None) -> Scores:
        """The term's score in each document it is in. With `values`, also fills it with each document's
        encoded positions, from the same read of the posting blocks (a phrase needs both)."""
        key = (fieldname, btext)
        cached = self._terms.get(key)
        if cached is not None:
            self._terms.move_to_end(key)
            if values is None:
                return cached
        out: Scores = {}
        scorable = self.schema[fieldname].scorable
        if scorable and cached is None:
            idf = self.searcher.idf(fieldname, btext)
            k = idf * (self.K1 + 1)
            norm, lengths = self._norm(fieldname)
        for i, (leaf, offset) in enumerate(self.leaves):
            ids, ws, vals = self._postings(leaf, fieldname, btext, values=values is not None)
            if values is not None:
                values.update(zip([d + offset for d in ids] if offset else ids, vals, strict=False))
            self.check()
            if cached is not None:
                continue
            if scorable:
                length = lengths[i]
                out.update({d + offset: k * w / (w + norm[length[d]]) for d, w in zip(ids, ws, strict=False)})
            else:  # Whoosh's WeightScorer: the posting's weight
                out.update({d + offset: w for d, w in zip(ids, ws, strict=False)})
        if cached is not None:
            return cached
        self._terms[key] = out
        self._cached_postings += len(out)
        while self._cached_postings > TERM_CACHE_POSTINGS and len(self._terms) > 1:
            _, dropped = self._terms.popitem(last=False)
            self._cached_postings -= len(dropped)
        return out

    # ---- evaluation ----

    def _eval(self, q: query.Query) -> Scores:
        self.check()
        if isinstance(q, query.Term):
            return self._boosted(self._term_text(q.fieldname, q.text), q.boost)
        if isinstance(q, query.And):
            return self._and(q)
        if type(q) in (query.Or, query.DefaultOr) and not q.scale:
            return self._or(q)
        if isinstance(q, query.AndNot):
            pos, neg = self._eval(q.a), self._eval(q.b)
            return self._boosted({d: s for d, s in pos.items() if d not in neg}, q.boost)
        if isinstance(q, query.AndMaybe):
            req, opt = self._eval(q.a), self._eval(q.b)
            return self._boosted({d: s + opt.get(d, 0.0) for d, s in req.items()}, q.boost)
        if isinstance(q, query.Phrase) and q.slop == 1:
            return self._phrase(q)
        if isinstance(q, query.MultiTerm) and (not q.constantscore or self._unscored):
            return self._multiterm(q)
        if isinstance(q, query.NumericRange):
            return self._numeric_range(q)
        if isinstance(q, query.ConstantScoreQuery):
            return self._constant(q)
        if isinstance(q, query.NullQuery.__class__):
            return {}
        return self._fallback(q)

    def _field(self, name: str):
        """The schema's field, or None (Whoosh's Schema has no get())."""
        return self.schema[name] if name in self.schema.names() else None

    def _term_text(self, fieldname: str, text: object) -> Scores:
        if fieldname not in self.schema:
            return {}
        try:
            btext = self.schema[fieldname].to_bytes(text)
        except ValueError:
            return {}
        return self._term(fieldname, btext)

    @staticmethod
    def _boosted(scores: Scores, boost: float) -> Scores:
        return scores if boost == 1.0 else {d: s * boost for d, s in scores.items()}

    def _and(self, q: query.And) -> Scores:
        required, excluded = [], []
        for sub in q.subqueries:
            if isinstance(sub, query.Not):
                excluded.append(self._eval(sub.query))
            else:
                required.append(self._eval(sub))
        if not required:
            return self._fallback(q)
        required.sort(key=len)
        acc = required[0]
        for other in required[1:]:
            acc = {d: s + other[d] for d, s in acc.items() if d in other}
        for other in excluded:
            acc = {d: s for d, s in acc.items() if d not in other}
        if excluded:  # Whoosh's matcher for a NOT inside an AND scores 1 for every document it lets through
            acc = {d: s + len(excluded) for d, s in acc.items()}
        return self._boosted(acc, q.boost)

    def _or(self, q: query.Or) -> Scores:
        parts = sorted((self._eval(sub) for sub in q.subqueries), key=len, reverse=True)
        parts = [p for p in parts if p]
        if not parts:
            return {}
        acc = dict(parts[0])
        get = acc.get
        for other in parts[1:]:
            for d, s in other.items():
                acc[d] = get(d, 0.0) + s
        return self._boosted(acc, q.boost)

    def _multiterm(self, q: query.MultiTerm) -> Scores:
        """A prefix, wildcard, fuzzy term or term range: the sum of the scores of the words it expands to.
        Each segment expands it in its own terms, as Whoosh does (a fuzzy match over all segments at once
        can find words no segment's own expansion finds)."""
        fieldname = q.field()
        if fieldname not in self.schema:
            return {}
        words: set[bytes] = set()
        for leaf, _ in self.leaves:
            words.update(w for w in q._btexts(leaf.reader()) if w)
            self.check()
        self.expanded[q] = words
        if self._unscored:
            return dict.fromkeys((d for w in words for d in self._term(fieldname, w)), 1.0)
        if len(words) == 1:
            return self._boosted(self._term(fieldname, next(iter(words))), q.boost)
        return self._or(query.Or([query.Term(fieldname, w) for w in sorted(words)], boost=q.boost))

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

    def _phrase(self, q: query.Phrase) -> Scores:
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
            return self._boosted(self._term(q.fieldname, btexts[0]), q.boost)
        encoded: list[dict[int, bytes]] = [{} for _ in btexts]
        scores = [self._term(q.fieldname, b, values) for b, values in zip(btexts, encoded, strict=True)]
        smallest, *others = sorted(scores, key=len)
        candidates = set(smallest)
        for other in others:
            candidates.intersection_update(other)
        if not candidates:
            return {}
        decode = _decode_positions if type(field.format) is Positions else field.format.decode_positions
        matched: list[int] = []
        if len(btexts) == 2:  # the common case, kept tight: 10k candidates at 94k papers
            first, second = encoded
            for d in candidates:
                a, b = decode(first[d]), decode(second[d])
                if len(a) == 1 and len(b) == 1:
                    if b[0] == a[0] + 1:
                        matched.append(d)
                elif not set(a).isdisjoint([p - 1 for p in b]):
                    matched.append(d)
        else:
            rest = list(enumerate(encoded[1:], 1))
            for d in candidates:
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
