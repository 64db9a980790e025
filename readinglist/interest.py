"""Interest ranking: the untriaged papers ordered by how much the user will care, learned from their marks.

Each paper is a tf-idf vector over the stems the search index uses and over pairs of neighbouring stems
("graph neural", "neural network"), its title counted TITLE_WEIGHT times. The marks — positive (read, skimmed,
queued, prioritised) and negative (skipped) — and an optional "my interests" text make one query vector,
Rocchio's relevance feedback with each term weighed by the share of the positive papers that carry it (what
several of the user's papers have in common outweighs what one of them happens to say), then once more with
the best papers of that first ranking as weak positives (pseudo-relevance feedback); every paper's score is
its dot product with that vector. benchmarks/triage.py chose this over plain Rocchio, a logistic model
over the same vectors (arxiv-sanity's kind) and a low-rank projection, by measurement.

The features of the whole library are derived data, like the search index: built once, extended after an
import from the papers whose content changed, cached in the data folder and rebuilt whenever the cache is
missing, stale or unreadable. Terms are hashed into a fixed space, so no vocabulary of millions of phrases
is held in memory; each paper keeps its TOP_TERMS heaviest terms for ranking. A re-rank is a handful of
numpy operations over blocks of rows — numpy releases the interpreter lock in those, so a re-rank on a
worker thread leaves the window's event loop free. Qt-free.

Over 400 lines: the features (build, extend, cache) and the ranking over them are one data structure with
its one consumer; apart, each would expose the other's arrays.
"""

from __future__ import annotations

import contextlib
import json
import mmap
import os
import re
import threading
import zlib
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import numpy as np

from readinglist.heap import return_freed

FORMAT = 1  # the cache's layout and the text analysis: a cache of another format is rebuilt
HASH_BITS = 22  # 4.2M buckets for stems and stem pairs
TITLE_WEIGHT = 5  # a title's terms count this many times
MIN_DF = 2  # a term in one paper alone cannot tie two papers together
MAX_DF = 0.5  # terms most papers share ("we propose", "results") say nothing of a topic...
MAX_DF_FLOOR = 10  # ...but in a small library a topic may well fill half of it
TOP_TERMS = 128  # terms a paper keeps for ranking (its heaviest): bounds memory at any library size
NEGATIVE_WEIGHT = 0.5  # Rocchio's beta: how hard a skipped paper's terms push down
BACKGROUND_WEIGHT = 0.5  # the library's centroid subtracted: a paper about everything is about nothing
FEEDBACK_PAPERS = 20  # pseudo-relevance feedback: the first ranking's best papers join the positives...
FEEDBACK_WEIGHT = 0.5  # ...at this weight, and the papers are ranked again
# A paper with few terms (a title, an "abstract" that is an author's name or "Part of"): its unit-length row
# puts all its weight on them, and one shared rare word put it at the top (4 of the first 7 suggestions, a
# trial). Its score is scaled by sqrt(terms / SHORT_TERMS) below that many terms.
SHORT_TERMS = 40
BLOCK = 1 << 19  # entries per numpy block: each holds the interpreter lock for a few ms at most
SCORE_BLOCK = 1 << 17  # entries scored at a time: a block's temporaries (and mapped pages) are ~8 MB at 1 << 19
ROWS_AT_ONCE = 32  # rows gathered at a time from the mapped rows (see Features.rows)
READ = 1 << 22  # raw entries counted at a time (16 MB read from the cache)
CHUNK = 500  # papers analysed at a time: turning their codes into an array holds the interpreter lock
RAW = ("ids", "digests", "indptr", "terms", "counts")  # the cache's files
DERIVED = ("row_ptr", "row_terms", "row_data", "vocab", "vocab_idf", "centroid")  # and the rows derived from them
# The derived rows read back through read-only maps of their files (see Features.release): where a file may
# be replaced while mapped (save() renames new files over them) and pages can be dropped from a map
MAP_ROWS = os.name == "posix" and hasattr(mmap, "MADV_DONTNEED")

Row = tuple[np.ndarray, np.ndarray]  # a paper's (dense terms, weights)
Block = tuple[np.ndarray, ...]  # counted papers: (ids, digests, row lengths, buckets, counts)
TextRow = tuple[int, str, str, str]  # (paper id, content hash, title, abstract as plain text)

_ANALYSIS = {"format": FORMAT, "hash_bits": HASH_BITS, "title_weight": TITLE_WEIGHT}  # a cache of others is rebuilt
_M1, _M2, _M3 = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F), np.uint64(0x165667B19E3779F9)
_SHIFT = np.uint64(64 - HASH_BITS)


# ---- text → terms -----------------------------------------------------------------------------------


def analyse(text: str) -> list[tuple[str, str]]:
    """(word as written, lower-cased; its stem) for each word the ranking counts: the search index's words,
    less bare numbers."""
    from readinglist.index.analysis import kept_words, stem

    return [(w, stem(w)) for w in kept_words(text) if not w.isdigit()]


@lru_cache(maxsize=400_000)
def _code(stem: str) -> int:
    return zlib.crc32(stem.encode("utf-8", "surrogatepass"))


@lru_cache(maxsize=400_000)
def _word_code(word: str) -> int:
    """A word's stem's code, or -1 for a bare number (not counted)."""
    from readinglist.index.analysis import stem

    return -1 if word.isdigit() else _code(stem(word))


def _codes(text: str) -> list[int]:
    from readinglist.index.analysis import kept_words

    return [c for c in map(_word_code, kept_words(text)) if c >= 0]


def _buckets(codes: np.ndarray, segment: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Buckets of the stems (codes), then of each pair of neighbours within a segment; and which stem each
    pair starts at."""
    c = codes.astype(np.uint64)
    same = np.flatnonzero(segment[1:] == segment[:-1])
    with np.errstate(over="ignore"):
        single = (c * _M3) >> _SHIFT
        pair = (c[same] * _M1 + c[same + 1] * _M2) >> _SHIFT
    return np.concatenate([single, pair]).astype(np.uint32), same


def text_terms(text: str) -> tuple[np.ndarray, list[tuple[int, str]]]:
    """A text's buckets (with repeats), and each distinct bucket with its words as the text writes them: a
    stem ("graph") or a pair ("graph neural")."""
    words = analyse(text)
    if not words:
        return np.zeros(0, np.uint32), []
    buckets, starts = _buckets(np.asarray([_code(s) for _, s in words], np.uint32), np.zeros(len(words), np.int64))
    surfaces: dict[int, str] = {}
    for i, (w, _) in enumerate(words):
        surfaces.setdefault(int(buckets[i]), w)
    for k, i in enumerate(starts.tolist()):
        surfaces.setdefault(int(buckets[len(words) + k]), f"{words[i][0]} {words[i + 1][0]}")
    return buckets, list(surfaces.items())


def _digest(content_hash: str) -> int:
    try:
        return int(content_hash[:16], 16)
    except ValueError:
        return _code(content_hash)


def _count(rows: list[TextRow]) -> Block:
    """A block of papers as (ids, digests, row lengths, buckets, counts), each row's buckets sorted. The
    title is a segment of its own TITLE_WEIGHT − 1 more times (pairs never span two segments)."""
    codes: list[int] = []
    lengths: list[int] = []  # of each segment: a paper's title and abstract, then its title's copies
    for _, _, title, abstract in rows:
        heading = _codes(title)
        body = heading + _codes(abstract)
        codes += body
        codes += heading * (TITLE_WEIGHT - 1)
        lengths += [len(body)] + [len(heading)] * (TITLE_WEIGHT - 1)
    per_segment = np.asarray(lengths, np.int64)
    segment = np.repeat(np.arange(len(per_segment)), per_segment)
    doc = np.repeat(np.arange(len(rows), dtype=np.int64), per_segment.reshape(len(rows), TITLE_WEIGHT).sum(axis=1))
    buckets, starts = _buckets(np.asarray(codes, np.uint32), segment)  # CHUNK bounds this list's conversion
    owner = np.concatenate([doc, doc[starts]])
    keys, counts = np.unique(owner << HASH_BITS | buckets.astype(np.int64), return_counts=True)
    doc_of, bucket_of = keys >> HASH_BITS, keys & ((1 << HASH_BITS) - 1)
    ids = np.asarray([r[0] for r in rows], np.int64)
    digests = np.asarray([_digest(r[1]) for r in rows], np.uint64)
    row_lengths = np.bincount(doc_of, minlength=len(rows)).astype(np.int64)
    return ids, digests, row_lengths, bucket_of.astype(np.uint32), np.minimum(counts, 255).astype(np.uint8)


def _chunks(rows: Iterable[TextRow]) -> Iterator[list[TextRow]]:
    """The rows CHUNK at a time: turning a chunk's codes into an array holds the interpreter lock."""
    pending: list[TextRow] = []
    for row in rows:
        pending.append(row)
        if len(pending) == CHUNK:
            yield pending
            pending = []
    if pending:
        yield pending


def _gather(ptr: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """The entry numbers of some rows, row after row."""
    lo, hi = ptr[positions], ptr[positions + 1]
    lengths = hi - lo
    return np.repeat(lo - (np.cumsum(lengths) - lengths), lengths) + np.arange(int(lengths.sum()))


class _Column:
    """A cached .npy array read a slice at a time from its file: mapped instead, every page derive() reads
    stays resident (and counted against the window) until the map is dropped."""

    def __init__(self, path: Path):
        with open(path, "rb") as f:
            version = np.lib.format.read_magic(f)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
            elif version == (2, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(f)
            else:
                raise ValueError(f"{path.name}: .npy version {version}")
            self.offset = f.tell()
        if fortran or len(shape) != 1 or dtype.hasobject:
            raise ValueError(f"{path.name}: not a flat array")
        self.path, self.dtype, self.length = path, dtype, int(shape[0])
        if path.stat().st_size < self.offset + self.length * dtype.itemsize:
            raise ValueError(f"{path.name}: cut short")

    def __len__(self) -> int:
        return self.length

    def mapped(self, maps: list[mmap.mmap]) -> np.ndarray:
        """The whole array over a read-only map of its file (the map appended to `maps`, to drop its pages
        from memory later: see Features.release)."""
        if not self.length:
            return np.zeros(0, self.dtype)
        with open(self.path, "rb") as f:
            view = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        maps.append(view)
        return np.frombuffer(view, self.dtype, self.length, self.offset)

    def __getitem__(self, part: slice) -> np.ndarray:
        lo, hi, _ = part.indices(self.length)
        count = max(0, hi - lo)
        return np.fromfile(self.path, self.dtype, count, offset=self.offset + lo * self.dtype.itemsize)


# ---- the library's features ---------------------------------------------------------------------------


class Features:
    """Every paper's term counts (rows in id order: the raw data, cached on disk and read back only to be
    extended) and the tf-idf rows the ranking reads."""

    def __init__(self) -> None:
        self.ids = np.zeros(0, np.int64)
        self.digests = np.zeros(0, np.uint64)  # what each row was built from: a changed paper is read again
        self.indptr = np.zeros(1, np.int64)
        self.terms: np.ndarray | None = np.zeros(0, np.uint32)  # buckets; None while only on disk
        self.counts: np.ndarray | None = np.zeros(0, np.uint8)
        self.rev = 0  # the store revision these rows have seen
        self._maps: list[mmap.mmap] = []  # the files the derived rows are read through, when mapped
        self.derive()

    # ---- building and extending ----

    def update(self, rows: Iterable[TextRow], rev: int, cancel: threading.Event | None = None) -> int:
        """Take in the rows of papers that are new or may have changed; returns how many rows were (re)built
        (0 also when cancelled: then nothing changed). The raw counts must be in memory (see load_counts)."""
        blocks = self.changes(rows, cancel)
        if blocks is None:
            return 0
        self.rev = max(self.rev, rev)
        return self.apply(blocks)

    def changes(self, rows: Iterable[TextRow], cancel: threading.Event | None = None) -> list[Block] | None:
        """The rows whose content differs from what their row was built from, counted (None if cancelled).
        Needs only the ids and digests: a mark reads its paper back and finds nothing to do."""
        blocks: list[Block] = []
        for chunk in _chunks(rows):
            if cancel is not None and cancel.is_set():
                return None
            blocks += self._changed(chunk)
        return None if cancel is not None and cancel.is_set() else blocks

    def content_changed(self, rows: Iterable[TextRow], cancel: threading.Event | None = None) -> bool | None:
        """Whether any of the rows differs from what its row was built from, found without counting them
        (None if cancelled): the window asks this before a child counts them."""
        for chunk in _chunks(rows):
            if cancel is not None and cancel.is_set():
                return None
            if self._different(chunk):
                return True
        return None if cancel is not None and cancel.is_set() else False

    def apply(self, blocks: list[Block]) -> int:
        """Merge counted rows in and derive the ranking's rows again; returns how many rows came in."""
        if not blocks:
            return 0
        self._merge(blocks)
        self.derive()
        return sum(len(b[0]) for b in blocks)

    def _changed(self, rows: list[TextRow]) -> list[Block]:
        """The rows counted, less those whose content is what their row was built from (annotated only)."""
        rows = self._different(rows)
        return [_count(rows)] if rows else []

    def _different(self, rows: list[TextRow]) -> list[TextRow]:
        """The rows whose content is not what their row was built from: new papers, revised records."""
        if not self.n:
            return rows
        ids = np.asarray([r[0] for r in rows], np.int64)
        digests = np.asarray([_digest(r[1]) for r in rows], np.uint64)
        where = np.minimum(np.searchsorted(self.ids, ids), self.n - 1)
        same = (self.ids[where] == ids) & (self.digests[where] == digests)
        return [r for r, s in zip(rows, same.tolist(), strict=True) if not s]

    def _merge(self, blocks: list[Block]) -> None:
        """The new rows replace any old rows of the same papers; all rows end up in id order."""
        assert self.terms is not None and self.counts is not None, "load_counts() first"
        new_ids = np.concatenate([b[0] for b in blocks])
        keep = ~np.isin(self.ids, new_ids)
        old_lengths = np.diff(self.indptr)
        entry_keep = np.repeat(keep, old_lengths)
        ids = np.concatenate([self.ids[keep], new_ids])
        digests = np.concatenate([self.digests[keep], *[b[1] for b in blocks]])
        lengths = np.concatenate([old_lengths[keep], *[b[2] for b in blocks]])
        terms = np.concatenate([self.terms[entry_keep], *[b[3] for b in blocks]])
        counts = np.concatenate([self.counts[entry_keep], *[b[4] for b in blocks]])
        order = np.argsort(ids, kind="stable")
        if np.any(order != np.arange(len(order))):
            entries = _gather(np.concatenate([[0], np.cumsum(lengths)]), order)
            terms, counts, ids, digests, lengths = (
                terms[entries],
                counts[entries],
                ids[order],
                digests[order],
                lengths[order],
            )
        self.ids, self.digests, self.terms, self.counts = ids, digests, terms, counts
        self.indptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)

    # ---- the rows ranking reads ----

    def derive(self) -> None:
        """tf-idf (log tf, smoothed idf) over the terms that can tell topics apart, each row of unit length
        and cut to its TOP_TERMS heaviest; terms renumbered densely (`vocab` holds their buckets). Done a
        block of rows at a time, with lookups over the bucket space rather than sorts and searches, into
        arrays sized once from the rows' lengths: memory stays near the result's size (not twice it, as
        blocks kept and then joined were) and the time near linear. Raises ValueError for a bucket outside
        the space (a cache that does not add up)."""
        assert self.terms is not None and self.counts is not None, "load_counts() first"
        n, space = len(self.ids), 1 << HASH_BITS
        df = np.zeros(space, np.int32)
        for lo in range(0, len(self.terms), READ):
            chunk = np.asarray(self.terms[lo : lo + READ])
            if len(chunk) and int(chunk.max()) >> HASH_BITS:
                raise ValueError("a term outside the hashed space")
            if len(chunk) < space >> 3:  # few terms (a small library): counted by a sort, not over the space
                found, counts = np.unique(chunk, return_counts=True)
                df[found] += counts.astype(np.int32)
                continue
            df += np.bincount(chunk, minlength=space)  # int64 into int32: same kind, in place
        useful = (df >= MIN_DF) & (df <= max(MAX_DF * n, MAX_DF_FLOOR))
        idf = np.empty(space, np.float32)
        for lo in range(0, space, BLOCK):  # in float64 a block at a time: over the whole space at once it took
            idf[lo : lo + BLOCK] = np.log((1.0 + n) / (1.0 + df[lo : lo + BLOCK])) + 1.0  # three 34 MB temporaries
        del df
        row_lengths = np.zeros(n, np.int64)  # what each row keeps: its useful terms, at most TOP_TERMS
        for lo, hi, first, last in self._blocks(self.indptr):
            rows = np.repeat(np.arange(last - first, dtype=np.int64), np.diff(self.indptr[first : last + 1]))
            row_lengths[first:last] = np.bincount(rows[useful[np.asarray(self.terms[lo:hi])]], minlength=last - first)
        np.minimum(row_lengths, TOP_TERMS, out=row_lengths)
        size = int(row_lengths.sum())
        row_terms = np.empty(size, np.uint32)  # buckets first, made dense terms in place below
        row_data = np.empty(size, np.float16)  # half precision: weights in (0, 1], ranking needs three digits
        filled = 0
        present = np.zeros(space, bool)
        for lo, hi, first, last in self._blocks(self.indptr):
            rows = np.repeat(np.arange(last - first, dtype=np.int64), np.diff(self.indptr[first : last + 1]))
            terms = np.asarray(self.terms[lo:hi])
            entry = useful[terms]
            rows, terms = rows[entry], terms[entry]
            weight = (1.0 + np.log(np.asarray(self.counts[lo:hi])[entry].astype(np.float32))) * idf[terms]
            norms = np.sqrt(np.bincount(rows, weights=weight.astype(np.float64) ** 2, minlength=last - first))
            weight /= np.where(norms > 0, norms, 1.0).astype(np.float32)[rows]
            # rows stay in order, heaviest first within a row, in one key per entry (row, weight to half
            # precision, term) sorted by np.sort: argsort would hold the interpreter lock throughout
            half = weight.astype(np.float16).view(np.uint16).astype(np.int64)  # positive: bits sort as values
            keys = np.sort(rows << 38 | (0xFFFF - half) << HASH_BITS | terms.astype(np.int64))
            rows, terms = keys >> 38, (keys & ((1 << HASH_BITS) - 1)).astype(np.uint32)
            weight = (0xFFFF - ((keys >> HASH_BITS) & 0xFFFF)).astype(np.uint16).view(np.float16)
            lengths = np.bincount(rows, minlength=last - first)
            top = np.arange(len(rows)) - np.repeat(np.cumsum(lengths) - lengths, lengths) < TOP_TERMS
            kept = int(top.sum())
            present[terms[top]] = True
            row_terms[filled : filled + kept] = terms[top]
            row_data[filled : filled + kept] = weight[top]
            filled += kept
        assert filled == size
        del useful
        self.vocab = np.flatnonzero(present).astype(np.uint32)  # the bucket of each dense term, sorted
        del present
        dense_of = np.full(space, -1, np.int32)
        dense_of[self.vocab] = np.arange(len(self.vocab), dtype=np.int32)
        self.vocab_idf = idf[self.vocab]
        del idf
        dense = row_terms.view(np.int32)  # the same memory: every bucket kept has a dense term below 2^31
        total = np.zeros(len(self.vocab), np.float64)
        for lo in range(0, filled, BLOCK):
            dense[lo : lo + BLOCK] = dense_of[row_terms[lo : lo + BLOCK]]
            total += np.bincount(dense[lo : lo + BLOCK], weights=row_data[lo : lo + BLOCK], minlength=len(self.vocab))
        self.n = n
        self.row_ptr = np.concatenate([[0], np.cumsum(row_lengths)]).astype(np.int64)
        self.row_terms, self.row_data = dense, row_data
        self.centroid = (total / max(1, n)).astype(np.float32)
        self._maps = []  # the rows are in memory now (a map still in use by a Ranking lives on with it)
        del dense_of
        return_freed()  # the blocks' temporaries: the window would go on holding the derive's peak

    @staticmethod
    def _blocks(ptr: np.ndarray, size: int | None = None) -> Iterable[tuple[int, int, int, int]]:
        """(first entry, end entry, first row, end row) of consecutive blocks of about `size` (BLOCK) entries."""
        size = size or BLOCK
        n = len(ptr) - 1
        start = 0
        while start < n:
            stop = min(n, max(start + 1, int(np.searchsorted(ptr, ptr[start] + size, side="right")) - 1))
            yield int(ptr[start]), int(ptr[stop]), start, stop
            start = stop

    def positions(self, ids: Iterable[int]) -> list[int]:
        """The rows of those papers that have one, in the order given."""
        wanted = np.fromiter(ids, np.int64)
        where = np.minimum(np.searchsorted(self.ids, wanted), max(0, self.n - 1))
        found = self.ids[where] == wanted if self.n else np.zeros(len(wanted), bool)
        return where[found].tolist()

    def scores(self, query: np.ndarray) -> np.ndarray:
        """Every row's dot product with a dense vector over the terms, a block of rows at a time (a mapped
        block's pages dropped once read: see release)."""
        out = np.zeros(self.n, np.float32)
        ptr, terms, data = self.row_ptr, self.row_terms, self.row_data
        for lo, hi, first, last in self._blocks(ptr, SCORE_BLOCK):
            if hi > lo:
                products = data[lo:hi].astype(np.float32) * query[terms[lo:hi]]
                filled = np.diff(ptr[first : last + 1]) > 0  # reduceat gives an empty row its neighbour's value
                out[first:last][filled] = np.add.reduceat(products, ptr[first:last][filled] - lo)
                self.release()
        return out

    def release(self) -> None:
        """Drop the pages of the mapped derived rows from this process's memory (they stay in the system's
        file cache, and the next read maps them again): a window reads every row at each ranking, and would
        otherwise go on holding all of them (76 MB at 94k papers) between rankings. Nothing when the rows
        are in memory (built here, or a platform without the maps)."""
        for view in self._maps:
            with contextlib.suppress(OSError, ValueError):
                view.madvise(mmap.MADV_DONTNEED)

    def row(self, position: int) -> tuple[np.ndarray, np.ndarray]:
        lo, hi = self.row_ptr[position], self.row_ptr[position + 1]
        terms, data = self.row_terms[lo:hi].copy(), self.row_data[lo:hi].astype(np.float32)
        self.release()
        return terms, data

    def rows(self, positions: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The terms and weights of some rows, row after row. Read ROWS_AT_ONCE rows at a time, the maps'
        pages dropped between: reading a mapped row maps the file's next 64 kB too, so the 470 scattered rows
        of a ranking's marks at 94k papers held 70 MB of the file at once."""
        positions = np.asarray(positions, np.int64)
        terms, data = [np.zeros(0, self.row_terms.dtype)], [np.zeros(0, np.float32)]
        for lo in range(0, len(positions), ROWS_AT_ONCE):
            entries = _gather(self.row_ptr, positions[lo : lo + ROWS_AT_ONCE])
            terms.append(self.row_terms[entries])
            data.append(self.row_data[entries].astype(np.float32))
            self.release()
        return np.concatenate(terms), np.concatenate(data)

    def weighted_mean(
        self, positions: Sequence[int], extra: Sequence[tuple[np.ndarray, np.ndarray]] = ()
    ) -> np.ndarray:
        """The mean of some rows (and of `extra` rows from outside the library), each term weighed by the
        share of those rows that carry it."""
        count = len(positions) + len(extra)
        if not count:
            return np.zeros(len(self.vocab), np.float32)
        terms, data = self.rows(positions)
        terms = np.concatenate([terms, *[t for t, _ in extra]])
        data = np.concatenate([data, *[d for _, d in extra]])
        # counted over the terms these rows have, not over every term of the library: two float64 and int64
        # counts the vocabulary's size (962k terms at 94k papers) were a re-rank's largest temporaries
        present, where = np.unique(terms, return_inverse=True)
        total = np.bincount(where, weights=data, minlength=len(present))
        carried = np.bincount(where, minlength=len(present))
        out = np.zeros(len(self.vocab), np.float32)
        out[present] = (total * carried / count**2).astype(np.float32)
        return out

    def vectorise(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """A text from outside the library (the user's interests) as a row over these terms."""
        buckets, _ = text_terms(text)
        found, counts = np.unique(buckets, return_counts=True)
        dense = self.dense_terms(found)
        known = dense >= 0
        terms, counts = dense[known].astype(np.int32), counts[known]
        if not len(terms):
            return terms, np.zeros(0, np.float32)
        data = (1.0 + np.log(counts.astype(np.float32))) * self.vocab_idf[terms]
        return terms, (data / float(np.linalg.norm(data))).astype(np.float32)

    def dense_terms(self, buckets: np.ndarray) -> np.ndarray:
        """Each bucket's dense term, or -1 for a bucket no paper keeps."""
        if not len(self.vocab) or not len(buckets):
            return np.full(len(buckets), -1, np.int64)
        where = np.minimum(np.searchsorted(self.vocab, buckets), len(self.vocab) - 1)
        return np.where(self.vocab[where] == buckets, where, -1)

    def nbytes(self) -> int:
        """The size of the features' arrays (the mapped derived rows counted whole, though only pages being read
        are in memory: see release)."""
        arrays = [self.ids, self.digests, self.indptr, self.row_ptr, self.row_terms, self.row_data, self.vocab,
                  self.vocab_idf, self.centroid, self.terms, self.counts]  # fmt: skip
        return sum(a.nbytes for a in arrays if isinstance(a, np.ndarray))

    # ---- the cache: plain .npy files, written beside and moved into place ----

    def save(self, folder: Path) -> None:
        """The raw counts, and the rows derived from them: a window reads those back as they are, without
        deriving them again (derive's temporaries were most of a 94k-paper window's peak)."""
        assert self.terms is not None and self.counts is not None
        folder.mkdir(parents=True, exist_ok=True)
        tag = f".{os.getpid()}.{threading.get_ident()}.tmp"
        for name in RAW + DERIVED:
            with open(folder / f"{name}{tag}", "wb") as f:
                np.save(f, getattr(self, name), allow_pickle=False)
        (folder / "meta.json").unlink(missing_ok=True)  # no meta, no cache: while the files are replaced
        for name in RAW + DERIVED:
            os.replace(folder / f"{name}{tag}", folder / f"{name}.npy")
        self.save_meta(folder)

    def save_meta(self, folder: Path) -> None:
        """The revision seen moves on (the rows it read were only annotated): the files stay as they are."""
        meta = {**_ANALYSIS, "rev": self.rev, "papers": len(self.ids), "entries": int(self.indptr[-1]),
                "derived": {"rows": int(self.row_ptr[-1]), "vocab": len(self.vocab)}}  # fmt: skip
        tmp = folder / f"meta.{os.getpid()}.{threading.get_ident()}.tmp"
        tmp.write_text(json.dumps(meta))
        os.replace(tmp, folder / "meta.json")

    @classmethod
    def load(cls, folder: Path) -> Features | None:
        """The cached features, derived and with the raw counts left on disk; None when there are none of
        this format, or they do not add up."""
        f = cls.__new__(cls)
        f._maps = []
        meta = f._read(folder, ("ids", "digests", "indptr", "terms", "counts"), lazy=True)
        if meta is None:
            return None
        f.rev = int(meta.get("rev", 0))
        if not f._read_derived(folder, meta.get("derived")):
            try:
                f.derive()  # a cache from before the derived rows were kept, or with them damaged
            except ValueError:
                return None
        f.drop_counts()
        return f

    def _read_derived(self, folder: Path, expected: object) -> bool:
        """The derived rows as saved, if they are there and add up with the raw rows read."""
        if not isinstance(expected, dict):
            return False
        maps: list[mmap.mmap] = []
        try:
            arrays = {name: _Column(folder / f"{name}.npy").mapped(maps) if MAP_ROWS
                      else np.load(folder / f"{name}.npy", allow_pickle=False) for name in DERIVED}  # fmt: skip
        except (OSError, ValueError, EOFError):
            return False
        ptr, terms, data, vocab = arrays["row_ptr"], arrays["row_terms"], arrays["row_data"], arrays["vocab"]
        n = len(self.ids)
        if (ptr.dtype != np.int64 or terms.dtype != np.int32 or data.dtype != np.float16 or vocab.dtype != np.uint32
                or arrays["vocab_idf"].dtype != np.float32 or arrays["centroid"].dtype != np.float32
                or len(ptr) != n + 1 or int(ptr[0]) != 0 or int(ptr[-1]) != len(terms) or len(data) != len(terms)
                or expected.get("rows") != len(terms) or expected.get("vocab") != len(vocab)
                or len(arrays["vocab_idf"]) != len(vocab) or len(arrays["centroid"]) != len(vocab)
                or np.any(np.diff(ptr) < 0)):  # fmt: skip
            return False
        self._maps = maps
        for lo in range(0, len(terms), BLOCK):  # a block at a time, its pages dropped after (see release)
            chunk = terms[lo : lo + BLOCK]
            bad = int(chunk.min()) < 0 or int(chunk.max()) >= len(vocab)
            self.release()
            if bad:
                return False
        for name, value in arrays.items():
            setattr(self, name, value)
        self.n = n
        self.release()
        return True

    def load_counts(self, folder: Path) -> bool:
        """Read the raw counts back (to extend the features); False if the cache no longer matches."""
        copy = Features.__new__(Features)
        meta = copy._read(folder, RAW, lazy=False)
        if meta is None or not np.array_equal(copy.ids, self.ids) or not np.array_equal(copy.indptr, self.indptr):
            return False
        self.terms, self.counts = copy.terms, copy.counts
        return True

    def drop_counts(self) -> None:
        self.terms = self.counts = None

    def _read(self, folder: Path, names: Sequence[str], lazy: bool) -> dict | None:
        """The cache's arrays into this object (lazy: the raw counts stay in their files, read a slice at a
        time by derive()), and its meta; None if it is of another format or does not add up."""
        try:
            meta = json.loads((folder / "meta.json").read_text())
            if (meta.get("format"), meta.get("hash_bits"), meta.get("title_weight")) != (
                FORMAT,
                HASH_BITS,
                TITLE_WEIGHT,
            ):
                return None
            for name in names:
                path = folder / f"{name}.npy"
                setattr(self, name, _Column(path) if lazy and name in ("terms", "counts")
                        else np.load(path, allow_pickle=False))  # fmt: skip
        except (OSError, ValueError, KeyError, EOFError, TypeError, AttributeError):
            return None
        n = len(self.ids)
        assert self.terms is not None and self.counts is not None
        if (n != meta.get("papers") or len(self.digests) != n or len(self.indptr) != n + 1
                or int(self.indptr[0]) != 0 or int(self.indptr[-1]) != len(self.terms)
                or len(self.terms) != meta.get("entries") or len(self.counts) != len(self.terms)
                or self.ids.dtype != np.int64 or self.digests.dtype != np.uint64 or self.indptr.dtype != np.int64
                or self.terms.dtype != np.uint32 or self.counts.dtype != np.uint8
                or np.any(np.diff(self.indptr) < 0) or np.any(np.diff(self.ids) <= 0)):  # fmt: skip
            return None
        if not lazy and len(self.terms) and int(self.terms.max()) >> HASH_BITS:  # lazy: derive() checks
            return None
        return meta


# ---- ranking --------------------------------------------------------------------------------------


# a marked paper is named as close to a suggestion only with a cosine of their rows this high: on ICLR 2021's
# abstracts, four molecular papers marked, the molecular suggestions were 0.06–0.14 from them, reinforcement
# learning and adversarial papers 0.005–0.04 (one RL paper 0.056 from an RL paper on molecular design)
NEAR_COSINE = 0.05


@dataclass(frozen=True)
class Suggestion:
    """A suggested paper and why: the words and phrases that weighed most (as the paper writes them) and
    the positively marked papers it is closest to (ids, closest first)."""

    id: int
    score: float
    why: list[str] = field(default_factory=list)
    near: list[int] = field(default_factory=list)
    # where the ranking puts it, 1 the best, of how many candidates (0: not a candidate): a reader can tell
    # "3rd of 8,259" from a raw score (0.167) that means nothing on its own
    rank: int = 0
    of: int = 0

    def to_json(self) -> dict[str, object]:
        return {"score": round(self.score, 4), "rank": self.rank, "of": self.of, "why": self.why, "near": self.near}

    def place(self) -> str:
        """ "3rd of 8,259", or "" for a paper the ranking did not rank."""
        return f"{ordinal(self.rank)} of {self.of:,}" if self.rank else ""


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n:,}{suffix}"


def short_damped(f: Features, scores: np.ndarray) -> np.ndarray:
    """The scores with a short paper's positive score scaled down (see SHORT_TERMS)."""
    lengths = np.diff(f.row_ptr)
    short = (lengths < SHORT_TERMS) & (scores > 0)
    if not short.any():
        return scores
    scores = scores.copy()
    scores[short] *= np.sqrt(lengths[short].astype(np.float32) / SHORT_TERMS)
    return scores


class Ranking:
    """One ranking of the candidates (best first) and the model behind it, to explain any of them.

    The candidates and their scores are kept as arrays, 16 bytes a paper: as lists of Python numbers, with
    the id → score dictionary an explanation needs, a ranking of the 94k library took 12 MB, and a
    re-rank holds two (the window's until the new one is taken in)."""

    def __init__(self, features: Features, query: np.ndarray, positive: list[int], ids: np.ndarray,
                 scores: np.ndarray, text_of: Callable[[Sequence[int]], dict[int, str]]):  # fmt: skip
        self._features = features
        self._query = query
        self._positive = positive  # row positions of the positive papers
        self._text_of = text_of
        self._ids = np.asarray(ids, np.int64)
        self._scores = np.asarray(scores, np.float64)
        self._by_id: np.ndarray | None = None  # the positions in id order (score, rank), sorted on first use
        self._positive_entries: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._every: np.ndarray | None = None  # every paper's score, marked or not (see order)

    @property
    def ids(self) -> list[int]:
        """The candidates, best first (a new list on each call)."""
        return self._ids.tolist()

    @property
    def scores(self) -> list[float]:
        """Their scores, in the same order (a new list on each call)."""
        return self._scores.tolist()

    def head(self, count: int) -> list[int]:
        """The best `count` candidates."""
        return self._ids[:count].tolist()

    def among(self, ids: Collection[int]) -> tuple[list[int], list[float]]:
        """Those of these papers that are candidates, best first, with their scores."""
        keep = np.isin(self._ids, np.fromiter(ids, np.int64, count=len(ids)))
        return self._ids[keep].tolist(), self._scores[keep].tolist()

    def __len__(self) -> int:
        return len(self._ids)

    def _position(self, paper_id: int) -> int | None:
        """Where the candidate is in rank order (0 the best); None for a paper not among the candidates."""
        if not len(self._ids):
            return None
        if self._by_id is None:
            self._by_id = np.argsort(self._ids, kind="stable")
        at = int(np.searchsorted(self._ids, paper_id, sorter=self._by_id))
        if at < len(self._ids) and self._ids[self._by_id[at]] == paper_id:
            return int(self._by_id[at])
        return None

    def score(self, paper_id: int) -> float | None:
        """The candidate's score; None for a paper not among the candidates."""
        at = self._position(paper_id)
        return None if at is None else float(self._scores[at])

    def rank(self, paper_id: int) -> int:
        """1 for the best candidate; 0 for a paper that is not one."""
        at = self._position(paper_id)
        return 0 if at is None else at + 1

    def every_score(self) -> np.ndarray:
        """Every paper's score under this model, in the features' row order, marked papers too: what sorting
        any view by predicted interest needs. Computed once (a worker calls it before the window sorts)."""
        if self._every is None:
            self._every = short_damped(self._features, self._features.scores(self._query))
        return self._every

    def order(self, ids: Sequence[int]) -> tuple[list[int], list[float]]:
        """Any papers (a view's, marked or not) by predicted interest, best first, with their scores; a
        paper the features lack (none expected) last, in the order given."""
        f = self._features
        wanted = np.asarray(list(ids), np.int64)
        if not len(wanted):
            return [], []
        scores = np.full(len(wanted), -np.inf, np.float32)
        if f.n:
            where = np.minimum(np.searchsorted(f.ids, wanted), f.n - 1)
            found = f.ids[where] == wanted
            scores[found] = self.every_score()[where[found]]
        order = np.argsort(-scores, kind="stable")
        kept = scores[order]
        return wanted[order].tolist(), np.where(np.isfinite(kept), kept, 0.0).astype(float).tolist()

    def top(self, limit: int | None = None, words: int = 5, near: int = 3) -> list[Suggestion]:
        """The best `limit` candidates, each explained."""
        ids = self.head(limit) if limit is not None else self.ids
        texts = self._text_of(ids)
        return [self._explain(pid, texts.get(pid, ""), words, near, rank) for rank, pid in enumerate(ids, 1)]

    def explain(self, paper_id: int, words: int = 5, near: int = 3) -> Suggestion:
        """Why this paper scored as it did (any paper of the library, ranked or not)."""
        return self._explain(paper_id, self._text_of([paper_id]).get(paper_id, ""), words, near, self.rank(paper_id))

    def _explain(self, paper_id: int, text: str, words: int, near: int, rank: int) -> Suggestion:
        f = self._features
        found = f.positions([paper_id])
        score = self.score(paper_id)
        of = len(self._ids) if rank else 0
        if not found:
            return Suggestion(paper_id, score or 0.0, rank=rank, of=of)
        position = found[0]
        terms, data = f.row(position)
        contribution = dict(zip(terms.tolist(), (data * self._query[terms]).tolist(), strict=True))
        if score is None:
            score = float(sum(contribution.values()))
        why, closest = _reasons(f, text, contribution, words), self._nearest(position, near)
        return Suggestion(paper_id, score, why, closest, rank=rank, of=of)

    def _nearest(self, position: int, near: int) -> list[int]:
        """The positive papers most like this one (cosine of their rows), in one pass over all their terms: only
        those really close, a cosine of NEAR_COSINE at least. Any term shared was enough, and "Reinforcement
        Learning for Trading" was said to be closest to three molecular papers (a trial): none close, none named.
        (Sharing one of the terms that weighed most is no test: they weigh because marked papers have them.)"""
        f = self._features
        if self._positive_entries is None:
            owner = np.repeat(np.arange(len(self._positive)), np.diff(f.row_ptr)[self._positive])
            self._positive_entries = (*f.rows(self._positive), owner)
        terms, data = f.row(position)
        if not len(terms) or not self._positive:
            return []
        order = np.argsort(terms)
        terms, data = terms[order], data[order]
        their_terms, their_data, owner = self._positive_entries
        where = np.minimum(np.searchsorted(terms, their_terms), len(terms) - 1)
        shared = terms[where] == their_terms
        sims = np.bincount(
            owner[shared], weights=their_data[shared] * data[where[shared]], minlength=len(self._positive)
        )
        sims[[i for i, p in enumerate(self._positive) if p == position]] = 0.0
        best = [i for i in np.argsort(-sims, kind="stable")[:near] if sims[i] >= NEAR_COSINE]
        return [int(f.ids[self._positive[i]]) for i in best]

    def profile(self, limit: int = 10) -> list[str]:
        """The words and phrases that weigh most in the model, as the positive papers write them."""
        f = self._features
        top = np.argsort(-self._query)[: limit * 3]
        top = top[self._query[top] > 0]
        if not len(top):
            return []
        texts = self._text_of([int(f.ids[p]) for p in self._positive[:50]])
        surfaces: dict[int, str] = {}
        for text in texts.values():
            for bucket, surface in text_terms(text)[1]:
                surfaces.setdefault(bucket, surface)
        weight = {int(f.vocab[t]): float(self._query[t]) for t in top}
        ranked = sorted(((w, surfaces[b]) for b, w in weight.items() if b in surfaces), reverse=True)
        return _merge_phrases([s for _, s in ranked], limit, "\n".join(texts.values()))


def _reasons(f: Features, text: str, contribution: dict[int, float], limit: int) -> list[str]:
    """The paper's words and phrases whose terms added most to its score, heaviest first."""
    written = text_terms(text)[1]
    if not written:
        return []
    dense = f.dense_terms(np.asarray([b for b, _ in written], np.uint32))
    scored = []
    pairs = set()  # the paper's own word pairs among its terms that weigh nothing against it: a phrase grows by them
    for (_, surface), term in zip(written, dense.tolist(), strict=True):
        gain = contribution.get(term, 0.0) if term >= 0 else 0.0
        if gain > 0:
            scored.append((gain, surface))
        if term in contribution and gain >= 0 and " " in surface:
            pairs.add(surface)
    scored.sort(key=lambda x: -x[0])
    return _merge_phrases([s for _, s in scored], limit, text, pairs)


# Words that read as glue at the edge of a shown phrase ("our backdoor", "gnn architecture through"): only the
# explanations drop them; the ranking counts every word the index keeps.
_FUNCTION_TEXT = (
    "about above across after against all almost along also although among an another any approach approaches "
    "around based because been before being below between both but called cannot could despite different do "
    "does doing done due during each either else enable enables etc even every existing few first fail fails "
    "further given has having here how however into its itself just large less like made make makes many more "
    "most much must new no nor novel often one only other others our ours over paper per previous propose "
    "proposed provide provides rather recent same several shall should show shows shown significant "
    "significantly since so some such than their them then there these they those though three through thus "
    "too two under up upon use used uses using various very via was were what whether which while who whose "
    "why within without work would achieve achieved achieves great popular success successful"
)
_FUNCTION_WORDS = frozenset(_FUNCTION_TEXT.split())
# alone, words that say how much or how good, not what: never a reason by themselves (a trial saw "level",
# "high", and "art" of "state-of-the-art"); in a phrase they stay ("high fidelity", "low-rank")
_DEGREE_WORDS = frozenset(["art", "high", "higher", "low", "lower", "level", "levels"])
_ADVERB_ENDINGS = ("ically", "ively", "ously", "ently", "antly", "ingly", "edly")  # empirically, provably…


def _glue(word: str) -> bool:
    """A word that says how a paper writes, not what it is about ("empirically", "obtain", "results"): left
    out of a reason, or cut from a phrase's edge."""
    from readinglist.importers.titles.lexicon import ABSTRACT_SPEAK

    return word in _FUNCTION_WORDS or word in ABSTRACT_SPEAK or word.endswith(_ADVERB_ENDINGS)


def _literal(phrase: str, text: str) -> str | None:
    """The phrase as the text writes it (words joined by a space or a hyphen), or None if it never does."""
    words = phrase.split()
    for sep in (" ", "-"):
        joined = sep.join(words)
        if joined in text:
            return joined
    if len(words) > 2:  # "self-supervised learning"
        for k in range(1, len(words)):
            joined = "-".join(words[:k]) + " " + " ".join(words[k:])
            if joined in text:
                return joined
            joined = " ".join(words[:k]) + " " + "-".join(words[k:])
            if joined in text:
                return joined
    return None


def _merge_phrases(surfaces: list[str], limit: int, text: str, pairs: Iterable[str] = ()) -> list[str]:
    """Heaviest first: a pair of words only where the text writes them together; two chosen pairs that
    overlap ("graph neural", "neural networks") become one phrase where the text has it ("graph neural
    networks"), and a chosen phrase grows by any of `pairs` the same way (a generic "neural networks"
    weighs little, yet completes "graph neural"); a word a chosen phrase already shows is left out."""
    lowered = " ".join(text.lower().split())
    phrases: list[list[str]] = []
    for s in surfaces[: limit * 4]:
        words = s.split()
        if len(words) > 1 and _literal(s, lowered) is None:
            continue
        merged = False
        for i, p in enumerate(phrases):
            if len(words) == 2 and len(p) < 5:
                for candidate in ([*p, words[1]] if p[-1] == words[0] else None,
                                  [words[0], *p] if p[0] == words[1] else None):  # fmt: skip
                    if candidate and _literal(" ".join(candidate), lowered):
                        phrases[i] = candidate
                        merged = True
                        break
            if merged:
                break
        if not merged:
            phrases.append(words)
    growth = [pair.split() for pair in pairs]
    for i, p in enumerate(phrases):
        while 1 < len(p) < 4:
            longer = next(
                (
                    c
                    for a, b in growth
                    for c in ([*p, b] if a == p[-1] else None, [a, *p] if b == p[0] else None)
                    if c and _literal(" ".join(c), lowered)
                ),
                None,
            )
            if longer is None:
                break
            p = longer
        phrases[i] = p
    out: list[str] = []
    for p in phrases:
        while p and _glue(p[0]):
            p = p[1:]
        while p and _glue(p[-1]):
            p = p[:-1]
        if not p or (len(p) == 1 and p[0] in _DEGREE_WORDS):
            continue
        shown = _literal(" ".join(p), lowered) or " ".join(p) if len(p) > 1 else p[0]
        if shown not in out:
            out.append(shown)
    longer = [o for o in out if " " in o or "-" in o]
    out = [o for o in out if o in longer or not any(o in re.split(r"[ -]", x) for x in longer)]
    return out[:limit]


Interests = str | Sequence[str]  # one text, or several (the abstracts of the user's own papers)


def interest_texts(interests: Interests) -> list[str]:
    """The non-empty texts of an interests argument."""
    texts = [interests] if isinstance(interests, str) else list(interests)
    return [t for t in texts if t.strip()]


def query_vector(
    f: Features, positive: Sequence[int], negative: Sequence[int], interests: Interests = ""
) -> np.ndarray:
    """Rocchio's query from the marks (row positions) and the interests texts: the positives' mean with each
    term weighed by the share of positives that carry it, less the negatives' (weighed alike) and the
    library's centroid. The interests together count as many positives as the papers marked (at least one):
    what the reader says they care about stays as strong as their marks, where as one more paper it was
    drowned out by the first few (benchmarks/triage.py: with the label typed too, 5+5 marks 0.448 → 0.461,
    10+10 0.418 → 0.425; a keyword search 0.445 and 0.412)."""
    seeds = [row for row in map(f.vectorise, interest_texts(interests)) if len(row[0])]
    if seeds:
        seeds *= max(1, round(len(positive) / len(seeds)))
    query = np.zeros(len(f.vocab), np.float32)
    if positive or seeds:
        query += f.weighted_mean(positive, seeds) - BACKGROUND_WEIGHT * f.centroid
    if negative:
        query -= NEGATIVE_WEIGHT * f.weighted_mean(negative)
    return query


def _counted(rows: Iterable[TextRow], read: list[int]) -> Iterator[TextRow]:
    for row in rows:
        read[0] += 1
        yield row


class StoreLike(Protocol):
    """What the ranker reads of the store (readinglist.store.Store has it)."""

    def current_rev(self) -> int: ...

    def count(self) -> int: ...

    def texts_since(self, rev: int) -> Iterable[TextRow]: ...


class InterestRanker:
    """The interest ranking of one library: its features, kept in step with the store and cached in
    `folder` (None: not cached), and rankings from marks. refresh and rank may run on any thread."""

    def __init__(self, folder: Path | None, read_only: bool = False, in_child: bool = False):
        self.folder = folder
        self.read_only = read_only
        # the window's: a library of CHILD_FROM papers or more has its features built and extended in a child
        # process, which saves them; this process only reads the rows back (see refresh)
        self.in_child = in_child
        self._features: Features | None = None
        self._lock = threading.Lock()

    @property
    def features(self) -> Features | None:
        """The features as last refreshed (None before the first refresh)."""
        return self._features

    def refresh(self, store: StoreLike, cancel: threading.Event | None = None) -> Features:
        """Features for every paper in the store: the cache read on first use, then extended from the papers
        changed since (an import, a revised record); rebuilt whenever the cache is unusable. Cheap when
        nothing changed: one read of the store's revision, and after a mark one row read back."""
        with self._lock:
            f = self._features
            if f is None and self.folder is not None:
                f = Features.load(self.folder)
            rev = store.current_rev()
            if f is None or rev != f.rev:
                done = self._refresh_in_child(store, f, rev, cancel)
                if done is not None:
                    self._features = done
                    return done
            if f is None or rev < f.rev:  # no cache, or one from another library (a database restored)
                f = Features()
            if rev != f.rev:
                read = [0]
                blocks = f.changes(_counted(store.texts_since(f.rev), read), cancel)
                if blocks is None:  # cancelled: nothing changed
                    return self._features or f
                if blocks and f.terms is None and not (self.folder is not None and f.load_counts(self.folder)):
                    f = Features()  # the cache changed under us (another process): start again
                    blocks = f.changes(store.texts_since(0), cancel)
                    if blocks is None:
                        return self._features or f
                f.rev = max(f.rev, rev)
                changed = f.apply(blocks)
                if f.n != store.count():  # papers are never deleted: a cache of another library
                    f = Features()
                    changed = f.update(store.texts_since(0), rev, cancel)
                self._keep(f, changed, read[0])
            self._features = f
            return f

    def _refresh_in_child(
        self, store: StoreLike, f: Features | None, rev: int, cancel: threading.Event | None
    ) -> Features | None:
        """In a child process when this ranker runs them there: counting, merging and deriving a large
        library's rows holds several times their size for a moment (a 94k-paper window peaked at 637 MB),
        and a child hands that back to the system when it ends. A mark (the papers' content unchanged)
        costs no child: its rows stand. None when this process should do it itself (small library, no
        cache folder, the child failed)."""
        path = getattr(store, "path", None)
        if not self.in_child or self.folder is None or self.read_only or path is None or store.count() < CHILD_FROM:
            return None
        if f is not None and f.rev <= rev:
            changed = f.content_changed(store.texts_since(f.rev), cancel)  # the child counts what changed
            if changed is None:
                return None  # cancelled: the caller's own pass returns at once
            if not changed:  # only annotations: the rows stand, the revision seen moves on
                f.rev = rev
                with contextlib.suppress(OSError):
                    f.save_meta(self.folder)
                return f
        if not _run_child(self.folder, Path(path), cancel):
            return None
        done = Features.load(self.folder)
        return done if done is not None and done.rev >= rev else None

    def _keep(self, f: Features, changed: int, read: int) -> None:
        """Save what changed (derived data: a failure only means a rebuild next time); with a cache on disk
        the raw counts leave memory."""
        if self.folder is None or self.read_only:
            return  # the counts stay in memory: the disk has no copy of these rows
        try:
            if changed:
                f.save(self.folder)
                f.drop_counts()
            elif read > 200:  # only annotations: the files stand, the revision seen moves on
                f.save_meta(self.folder)
        except OSError:
            pass

    def invalidate(self) -> None:
        """Forget the features in memory: the next refresh checks the cache on disk against the store."""
        with self._lock:
            self._features = None

    def rank(
        self,
        store: StoreLike,
        positive: Sequence[int],
        negative: Sequence[int] = (),
        interests: Interests = "",
        candidates: Sequence[int] | None = None,
        text_of: Callable[[Sequence[int]], dict[int, str]] | None = None,
        cancel: threading.Event | None = None,
    ) -> Ranking:
        """Rank `candidates` (default: every paper not marked) by predicted interest, best first. A paper
        marked both ways counts as positive; the interests texts weigh as the positives do together
        (query_vector). With no marks and no interests text every score is 0 and the order is the library's."""
        f = self.refresh(store, cancel)
        positive = list(dict.fromkeys(positive))
        marked = set(positive) | set(negative)
        pos = f.positions(positive)
        neg = f.positions(i for i in dict.fromkeys(negative) if i not in set(positive))
        if candidates is None:
            eligible = np.ones(f.n, bool)
            eligible[pos + neg] = False
            where = np.flatnonzero(eligible)
        else:
            where = np.asarray(f.positions(i for i in dict.fromkeys(candidates) if i not in marked), np.int64)
        query = query_vector(f, pos, neg, interests)
        if pos or interest_texts(interests):
            scores = f.scores(query)
            unmarked = np.ones(f.n, bool)
            unmarked[pos + neg] = False
            best = np.flatnonzero(unmarked)
            if len(best) > FEEDBACK_PAPERS:
                best = best[np.argpartition(-scores[best], FEEDBACK_PAPERS)[:FEEDBACK_PAPERS]]
            query = query + FEEDBACK_WEIGHT * (f.weighted_mean(best.tolist()) - BACKGROUND_WEIGHT * f.centroid)
            scores = f.scores(query)
        elif neg:
            scores = f.scores(query)
        else:
            scores = np.zeros(f.n, np.float32)
        scores = short_damped(f, scores)
        order = where[np.argsort(-scores[where], kind="stable")]
        ranking = Ranking(f, query, pos, f.ids[order], scores[order].astype(np.float64), text_of or (lambda ids: {}))
        del scores, order, where
        f.release()  # what the marks' and the feedback papers' rows read
        return_freed()  # the blocks' products and the sort's temporaries: a window re-ranks often
        return ranking


CHILD_FROM = 5000  # papers: see InterestRanker.in_child (below it a child's start costs more than it saves)


def _child_refresh(folder: str, db_path: str, progress: object = None, cancel: object = None) -> None:
    """The child: the features of the library at db_path brought up to date in `folder`, read-only."""
    from readinglist.store import open_store

    store = open_store(Path(db_path), read_only=True)
    try:
        InterestRanker(Path(folder)).refresh(store)
    finally:
        store.close()


def _run_child(folder: Path, db_path: Path, cancel: threading.Event | None) -> bool:
    """Run _child_refresh in a child process; whether it brought the cache up to date (False if cancelled,
    or if it failed: the caller then does the work itself)."""
    from readinglist import child_process

    try:
        child_process.run(_child_refresh, (str(folder), str(db_path)), cancel=cancel,
                          name="readinglist-suggestions", end_on_cancel=True, daemon=True, nicer=True)  # fmt: skip
    except Exception:
        return False
    return True
