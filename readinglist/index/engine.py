"""The Whoosh index: opened if it can be trusted, rebuilt if not, searched, and written through primitives.

Only the paper id is stored; text is read from SQLite, never re-read per hit. The index records the store
revision it has seen, so changes made while it was closed or broken are caught up on the next open.

The write methods here take no lock and know nothing of other writers: `background.IndexUpdater` is their
only caller, and owns the one-writer rule, the writer process and merging.

Over 400 lines: opening, trusting, rebuilding and searching one Whoosh index share its state (the open
searcher, the schema version, the rebuild lock); the ranking, query and background parts are modules of
their own.
"""

from __future__ import annotations

import heapq
import json
import math
import os
import re
import shutil
import struct
import sys
import threading
import time
from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import replace
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from whoosh import index as windex
from whoosh import query, scoring
from whoosh.analysis.filters import STOP_WORDS
from whoosh.fields import COLUMN
from whoosh.searching import Searcher
from whoosh.util.numeric import byte_to_length, length_to_byte
from whoosh.writing import NO_MERGE, SegmentWriter

from readinglist.heap import return_freed
from readinglist.index import patches
from readinglist.index.analysis import WordAnalyzer, word_stem
from readinglist.index.query import (
    KNOWN_FIELDS,
    MIN_NAME_PREFIX,
    TYPED_WORDS,
    ExactTerm,
    NamePrefix,
    Stemmed,
    any_form,
    either_spelling,
    highlight_terms,
    hyphen_chains,
    hyphenated_words,
    left_out_stop_words,
    make_parser,
    name_prefixes,
    negating_minuses,
    parse,
    resolve,
    spelt_otherwise,
    top_level,
    typed_acronyms,
    typed_prefixes,
    with_acronyms,
    with_compounds,
    with_hyphen_phrases,
    words_apart,
)
from readinglist.index.ranking import ARRAY_SORT_FROM, Ranker, ranked, ranked_ids
from readinglist.index.schema import document, make_schema, schema_fingerprint
from readinglist.index.scores import ArrayScores, Scores, held, minus_each, plus, scores_of, top_score
from readinglist.index.vocabulary import (
    MIN_SUGGESTION_LENGTH,
    RARE_DF,
    RARE_RATIO,
    Vocabulary,
    edits,
    forget_segments,
    segment_id,
    segment_ids,
    stem_slip,
)
from readinglist.papers import Paper, QueryError, SearchResult

MAX_NAME_CORRECTED = 24  # letters of an author's name no paper has that a correction is looked for
BULK_PROCS_MIN_DOCS = 2000  # below this, starting Whoosh's writer processes costs more time than it saves
# ...but with a window open, time is not the point: a writer in the window's process sorts its postings in
# one call that holds the interpreter lock (even a small import froze the window)
BULK_PROCS_MIN_DOCS_WINDOW = 100
BULK_WORKER_MB = 32  # each indexing worker's posting buffer (Whoosh's limitmb), sorted to a run file when full
# ...but an import this small is indexed whole in memory: with the small buffer the 8k NeurIPS file spilled to
# run files, and merging them at commit doubled the workers' CPU (performance-changes.md, session 8)
SMALL_IMPORT_DOCS = 10_000
SMALL_IMPORT_WORKER_MB = 96
MERGE_FACTOR = 4  # this many segments of one size class are merged into one
MERGE_LIMITS = (4, 16, 64, 256, 1024)  # the size classes: segments under this many documents
KEY_TERMS = 10  # words of a paper searched for its related papers
RELATED_SHARED_TERMS = 2  # ...of which a related paper has at least this many
RELATED_CANDIDATES = 3  # ...looked for among this many times as many papers as are shown, the best first
SEARCH_CACHE = 64  # results of this many recent queries are kept (until the next write)
# ...holding this many matches at most: a result of 33k hits is 2.4 MB of Python ids and scores, and
# typing a few common words fills 64 entries with such results
SEARCH_CACHE_HITS = 200_000
OPEN_RETRIES = 5  # a searcher opened while another process commits can miss a file it just merged away
TITLE_PHRASE_CANDIDATES = 200  # the best this many matches are looked at for the title-phrase bonus
# a title that is the query ranks first if its phrase scores at least this share of the best title's that holds it
WHOLE_TITLE_SHARE = 0.5
TITLE_PHRASE_WORDS = 40  # queries of up to this many words get the title-phrase bonus (see title_phrase)
CLOSEST_WORD_SHARE = 7  # in the closest matches a word missing costs the best score / this (see rank_keys)
STEM_ONLY_COST = 0.75  # ...and a word held only in another form, or a derivation, this much of a missing word
# a query of this many plain words or more (a pasted title) ranks its best PROXIMITY_CANDIDATES matches
# higher for each pair of its successive words that stands within PROXIMITY_GAP positions in a paper's title
# or abstract: a pair is worth PROXIMITY_SHARE of the best score over the query's pairs (Ranker.proximity)
PROXIMITY_WORDS = 4
PROXIMITY_MOST = 10  # ...and at most this many (a title; a pasted sentence is longer)
PROXIMITY_CANDIDATES = 5
PROXIMITY_GAP = 2
PROXIMITY_SHARE = 0.4
# a query of two or three plain words ("dataset shift") ranks its best PHRASE_CANDIDATES matches higher where
# its words stand one after the other, in any form (an abstract's phrase; a title's has its own bonus): the one
# paper with the phrase ranked 9th of 12, under papers with "dataset" and "shift" apart (a trial)
PHRASE_WORDS = 2
PHRASE_CANDIDATES = 50
# ...and those of them that have the words as typed, one after the other (any form of each, a stop word typed
# standing for any word), in the title or the abstract, all come before the papers that have them apart:
# "evidence lower bound" put a title with "Lower Bounds" (its abstract: "evidence", "bounds") second, above 10 of
# the 11 papers with the phrase — a title's words outweighed the phrase's bonus (Index._phrase_tier)
TYPING_PREFIX = 2  # the last word, typed without a space after it, reads as a word's start from this many letters
PREFIX_DOMINATES = 10  # ...or, a word papers have, when the words it begins are this many times as frequent
CONTEXT_SHARE = 0.1  # corrections at least this likely, relative to the likeliest, are tried in context
# a search that decoded this many postings (or found this many matches) returns the memory its temporaries
# freed to the system: glibc would keep it, and the window would hold each big search's peak
RETURN_FREED_AFTER = 20_000


class IndexBusy(Exception):
    """Another writer (another readinglist process, or an import) holds the index's write lock."""


def new_writer(
    ix: windex.Index, expected: int = 0, procs_from: int = BULK_PROCS_MIN_DOCS, timeout: float | None = 0.0
) -> SegmentWriter:
    """From `procs_from` documents on, Whoosh's multi-process writer indexes batches in worker processes,
    each into its own segment (no merge at commit): on two cores that is most of an import's indexing time.
    Segments are never compound: reading a compound segment copies each of its files into memory.
    Waits up to `timeout` seconds for another process's writer (None: as long as it takes)."""
    wait = 10.0**9 if timeout is None else timeout
    deadline = time.monotonic() + wait
    while True:
        try:
            if expected >= procs_from:  # two, even on one core: the point may be to keep the work off this process
                from readinglist.index.workers import SpawningMpWriter

                limitmb = SMALL_IMPORT_WORKER_MB if expected <= SMALL_IMPORT_DOCS else BULK_WORKER_MB
                writer = SpawningMpWriter(ix, procs=2, multisegment=True, limitmb=limitmb, batchsize=256,
                                          compound=False, timeout=wait, delay=0.05)  # fmt: skip
            else:
                writer = ix.writer(limitmb=128, compound=False, timeout=wait, delay=0.05)
        except windex.LockError:
            raise IndexBusy("another readinglist process is writing the search index") from None
        if _lock_is_current(writer):
            return writer
        writer.cancel()  # the folder was swapped by a rebuild while this waited: lock the new one
        wait = max(0.0, deadline - time.monotonic())


def _lock_is_current(writer: SegmentWriter) -> bool:
    """Does the lock this writer holds belong to the folder its path names now? A rebuild swaps folders, and a
    writer that waited on the old folder's lock file would write into the new one unguarded."""
    lock = getattr(writer, "writelock", None)
    fd, name = getattr(lock, "fd", None), getattr(lock, "filename", None)
    if fd is None or name is None:
        return True
    try:
        return os.fstat(fd).st_ino == os.stat(name).st_ino
    except OSError:
        return False


def segments_to_merge(segments: list) -> list:
    """Size-tiered, as Lucene's policy: once MERGE_FACTOR segments are under a class's limit, they are
    merged. An edit writes a one-document segment; merging rewrites each document about once per class,
    so the cost stays small and a big segment (an import) is never rewritten for an edit. Whoosh's
    MERGE_SMALL could rewrite a whole import's segment on a tag change."""
    for limit in MERGE_LIMITS:
        small = [seg for seg in segments if seg.doc_count_all() < limit]
        if len(small) >= MERGE_FACTOR:
            return small
    return []


def merge_small_segments(writer: SegmentWriter, segments: list) -> list:
    """The merge policy of every commit that merges (see segments_to_merge)."""
    from whoosh.reading import SegmentReader

    small = segments_to_merge(segments)
    for seg in small:
        reader = SegmentReader(writer.storage, writer.schema, seg)
        writer.add_reader(reader)
        reader.close()
    merged = {seg.segment_id() for seg in small}
    return [seg for seg in segments if seg.segment_id() not in merged]


def _never() -> None:
    return None


STATE_FILE = "readinglist-index.json"  # the schema's fingerprint and the revision the index holds


@cache
def _fingerprint() -> str:
    return schema_fingerprint(make_schema())


class Index:
    def __init__(
        self,
        folder: Path,
        notify: Callable[[str], None] | None = None,
        read_only: bool = False,
        keep_searcher: bool = True,
    ):
        self.folder = Path(folder)
        self.keep_searcher = keep_searcher  # False in the writer process, which never searches
        self.notify = notify or (lambda message: None)
        patches.apply(self.notify)
        self.read_only = read_only
        self.schema = make_schema()
        self.fingerprint = schema_fingerprint(self.schema)
        self.parser = make_parser(self.schema)
        # called between posting blocks of a search: the window makes a search wait while it paints
        self._checkpoint: Callable[[], None] = _never
        self._search_lock = threading.RLock()
        self._searcher: Searcher | None = None
        self._pids: list[int] | None = None  # docnum → paper id for the current searcher
        self._pid_array: tuple[list[int], Any] | None = None  # those, as an array (_tie_order)
        self._ranker: Ranker | None = None  # scores queries for the current searcher
        self._vocabulary: Vocabulary | None = None  # its words: stems' forms, spelling suggestions
        self._cache: dict[
            tuple[tuple[str, frozenset[str], frozenset[tuple[str, ...]]], int | None, bool], SearchResult
        ] = {}
        self._cached_hits = 0  # the matches the cached results hold
        self._segment_pids: dict[str, list[int]] = {}  # segment id → its pid column (_read_pids)
        self.ix: windex.Index | None = None
        self.rev = -1

    # ---- opening, validating, rebuilding ----

    @property
    def state_file(self) -> Path:
        return self.folder / STATE_FILE

    @staticmethod
    def current(folder: Path) -> bool:
        """Whether the index in `folder` says it is of this version's schema, so that opening it rebuilds
        nothing (unless its files turn out damaged). Cheap: its state file is read, nothing opened."""
        try:
            state = json.loads((Path(folder) / STATE_FILE).read_text())
        except (OSError, ValueError):
            return False
        return bool(state.get("schema") == _fingerprint())

    def open(self) -> bool:
        """Open the index if it can be trusted; False when it has to be rebuilt (missing, other schema, corrupt)."""
        try:
            state = json.loads(self.state_file.read_text())
        except FileNotFoundError:
            return False
        except (OSError, ValueError):
            self.notify("The search index's state file is unreadable; rebuilding the index.")
            return False
        if state.get("schema") != self.fingerprint:
            self.notify("The search index was made by another version; rebuilding it.")
            return False
        for attempt in range(OPEN_RETRIES):
            try:
                self.ix = windex.open_dir(str(self.folder), readonly=self.read_only)
                with self.ix.searcher() as s:
                    s.doc_count()
                break
            except FileNotFoundError:  # another process merged a segment away meanwhile: look again
                self.ix = None
                if attempt == OPEN_RETRIES - 1:
                    self.notify("The search index is damaged (files missing); rebuilding it.")
                    return False
                time.sleep(0.05 * (attempt + 1))
            except Exception as exc:  # whoosh raises many kinds for a damaged index
                self.notify(f"The search index is damaged ({type(exc).__name__}); rebuilding it.")
                self.ix = None
                return False
        self.rev = int(state.get("rev", -1))
        return True

    def rebuild(self, papers: Iterable[Paper], rev: int, total: int | None = None) -> None:
        """A fresh index built beside the old one and swapped in, so a failure leaves the old one. The
        caller holds `rebuilding()`."""
        self.close()
        tmp = self.folder.with_name(self.folder.name + ".new")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        ix = windex.create_in(str(tmp), self.schema)
        writer = new_writer(ix, total or 0)
        try:
            for p in papers:
                writer.add_document(**document(p))
            writer.commit()
        except BaseException:
            writer.cancel()
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        ix.close()
        old = self.folder.with_name(self.folder.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        if self.folder.exists():
            self.folder.rename(old)
        tmp.rename(self.folder)
        shutil.rmtree(old, ignore_errors=True)
        self.ix = windex.open_dir(str(self.folder))
        self._save_state(rev)

    @contextmanager
    def rebuilding(self, timeout: float | None = None) -> Iterator[None]:
        """Held while the index is rebuilt: one rebuild at a time across processes (a lock file beside the
        index folder, which the swap does not replace), and no writer in the old folder meanwhile."""
        from whoosh.filedb.filestore import FileStorage
        from whoosh.util.filelock import try_for

        self.folder.parent.mkdir(parents=True, exist_ok=True)
        outer = FileStorage(str(self.folder.parent)).lock(self.folder.name + ".rebuild.lock")
        if not try_for(outer.acquire, timeout=10.0**9 if timeout is None else timeout, delay=0.1):
            raise IndexBusy("another readinglist process is rebuilding the search index")
        inner = None
        try:
            if self.folder.is_dir() and any(self.folder.glob("_MAIN_*.toc")):
                inner = FileStorage(str(self.folder)).lock("MAIN_WRITELOCK")
                if not try_for(inner.acquire, timeout=10.0**9 if timeout is None else timeout, delay=0.1):
                    raise IndexBusy("another readinglist process is writing the search index")
            yield
        finally:
            if inner is not None and inner.fd is not None:
                inner.release()
            outer.release()

    def _save_state(self, rev: int) -> None:
        self.rev = max(rev, self.rev)
        tmp = self.state_file.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")  # writers in other processes
        tmp.write_text(json.dumps({"schema": self.fingerprint, "rev": self.rev}))
        tmp.replace(self.state_file)

    def close(self) -> None:
        with self._search_lock:
            if self._searcher is not None:
                self._searcher.close()
                self._searcher = None
            self._pids = None
            self._ranker = None
            self._vocabulary = None
            self._forget_results()
        if self.ix is not None:
            self.ix.close()
            self.ix = None

    # ---- writing: primitives for background.IndexUpdater, which holds the one-writer lock ----

    def _open(self) -> windex.Index:
        if self.ix is None:
            raise RuntimeError("index not open")
        return self.ix

    def write(
        self, fill: Callable[[SegmentWriter], int | None], merge: bool = True, timeout: float | None = 0.0
    ) -> bool:
        """One commit: a writer is opened (waiting up to `timeout` seconds for another process's, else
        IndexBusy), then `fill` writes into it and returns the store revision to record, or None for nothing
        to write (the writer is dropped). `fill` must read what it writes only now, with the lock held: data
        read before could overwrite a newer document another process wrote meanwhile. True if it committed."""
        writer = new_writer(self._open(), timeout=timeout)
        try:
            rev = fill(writer)
        except BaseException:
            writer.cancel()
            raise
        if rev is None:
            writer.cancel()
            return False
        self.commit(writer, rev, merge)
        return True

    @staticmethod
    def put(writer: SegmentWriter, papers: Iterable[Paper], remove: Iterable[int] = ()) -> None:
        """Into an open writer: these papers' documents replaced, those of papers no longer in the store gone.
        A paper's documents are found by the pid column (schema 12 has no unique id term)."""
        papers = papers if isinstance(papers, list) else list(papers)
        for docnum in _docnums_of(writer, {p.id for p in papers} | set(remove)):
            writer.delete_document(docnum)
        for p in papers:
            writer.add_document(**document(p))

    def update(
        self,
        papers: Iterable[Paper],
        rev: int,
        merge: bool = True,
        remove: Iterable[int] = (),
        timeout: float | None = 0.0,
    ) -> None:
        """Replace these papers' documents and drop those of `remove`, in one commit. Only for papers read with
        the index's lock held, or when no other process can write (a rebuild's catch-up, tests)."""

        def fill(writer: SegmentWriter) -> int:
            self.put(writer, papers, remove)
            return rev

        self.write(fill, merge, timeout)

    def bulk_writer(
        self, expected: int, procs_from: int = BULK_PROCS_MIN_DOCS, timeout: float | None = None
    ) -> SegmentWriter:
        """A writer for many new documents (an import), committed with commit() or dropped with cancel()."""
        return new_writer(self._open(), expected, procs_from, timeout)

    def commit(self, writer: SegmentWriter, rev: int, merge: bool = True) -> None:
        """Commit, record the revision, and swap in a searcher that sees what was written. A commit that fails
        (its writer processes gone) gives the index's lock back, so the next write can take it."""
        try:
            writer.commit(mergetype=merge_small_segments if merge else NO_MERGE)
        except BaseException:
            with suppress(Exception):
                writer.cancel()
            raise
        self._save_state(rev)
        if self.keep_searcher:
            self._swap_searcher()

    @staticmethod
    def cancel(writer: SegmentWriter) -> None:
        writer.cancel()

    def merge_small(self, timeout: float | None = 0.0) -> bool:
        """Merge small segments if enough have gathered (see segments_to_merge); True if it did."""
        if self.ix is None or not segments_to_merge(self.ix._segments()):
            return False
        writer = new_writer(self.ix, timeout=timeout)
        writer.commit(mergetype=merge_small_segments)
        if self.keep_searcher:
            self._swap_searcher()
        return True

    def reload(self, rev: int | None = None) -> None:
        """Another process wrote the index (the writer process): search what it wrote from now on."""
        if rev is not None:
            self.rev = rev
        if self.ix is not None and self.keep_searcher:
            self._swap_searcher()

    def _swap_searcher(self) -> None:
        """Open and warm the next searcher here, on the writing thread, then swap it in: the next search
        does not pay for opening it. A new searcher, not Searcher.refresh(): refresh() can keep a segment's
        old deletions and return both versions of an updated document."""
        fresh, pids, ranker, vocabulary = self._open_searcher()
        with self._search_lock:
            old, old_vocabulary = self._searcher, self._vocabulary
            self._searcher, self._pids, self._ranker, self._vocabulary = fresh, pids, ranker, vocabulary
            self._forget_results()
        if old_vocabulary is not None:  # a segment merged away: what was read of it goes
            forget_segments(segment_ids(old_vocabulary) - segment_ids(vocabulary))
        if old is not None:
            old.close()

    def _open_searcher(self) -> tuple[Searcher, list[int], Ranker, Vocabulary]:
        """A searcher with what every search needs from it: docnum → paper id, its ranker and words. Opening
        one while another process commits can find a segment merged away between reading the table of
        contents and opening the segment: then the latest table of contents is read again."""
        assert self.ix is not None
        for attempt in range(OPEN_RETRIES):
            try:
                searcher = self.ix.searcher(weighting=scoring.BM25F())
                vocabulary = Vocabulary(searcher)
                pids, self._segment_pids = _read_pids(searcher, self._segment_pids)
                return searcher, pids, Ranker(searcher, self._pause, vocabulary), vocabulary
            except FileNotFoundError:
                if attempt == OPEN_RETRIES - 1:
                    raise
                time.sleep(0.02 * (attempt + 1))
        raise AssertionError("unreachable")

    def drop_caches(self, terms: bool = True) -> None:
        """Forget cached results (and, with `terms`, the ranker's cached term scores): for measuring."""
        with self._search_lock:
            self._forget_results()
            if terms and self._searcher is not None:
                self._vocabulary = Vocabulary(self._searcher)  # (what was read of each segment stays)
                self._ranker = Ranker(self._searcher, self._pause, self._vocabulary)
                patches.forget_fuzzy_automata()

    def _forget_results(self) -> None:
        self._cache.clear()
        self._cached_hits = 0

    def segments(self) -> set[str]:
        """The segments the current searcher reads (tests and benchmarks ask)."""
        with self.searching():
            assert self._vocabulary is not None
            return segment_ids(self._vocabulary)

    def doc_count(self) -> int:
        with self.searching() as s:
            return int(s.doc_count())

    # ---- searching ----

    @contextmanager
    def searching(self) -> Iterator[Searcher]:
        """One searcher reused across searches (opening one per query costs more than most queries)."""
        if self.ix is None:
            raise RuntimeError("index not open")
        with self._search_lock:
            self._see_other_writers()
            if self._searcher is None:
                self._searcher, self._pids, self._ranker, self._vocabulary = self._open_searcher()
            yield self._searcher

    def _see_other_writers(self) -> None:
        """Another process committed: search what it wrote (the caller holds the search lock)."""
        if self._searcher is not None and self.keep_searcher and not self._searcher.up_to_date():
            self._swap_searcher()

    def parse(self, text: str, state: str | None = None, tag: str | None = None, within: str = "") -> query.Query:
        return parse(self.parser, text, state, tag, within)

    def set_checkpoint(self, checkpoint: Callable[[], None] | None) -> None:
        """A function a search calls between posting blocks; it may wait (the window paints meanwhile)."""
        self._checkpoint = checkpoint or _never

    def _pause(self) -> None:
        self._checkpoint()

    def search(
        self, text: str, limit: int | None = None, state: str | None = None, tag: str | None = None,
        within: str = "", typing: bool = False,
    ) -> SearchResult:  # fmt: skip
        """Matches in rank order (Whoosh's BM25F, computed by `Ranker`): all of them, or the best `limit`;
        `within` is a smart list's query, which the matches must match too. `typing`: the text is being
        typed (the window's search field), so its last word may be read as a word's start (_as_started); a
        query given whole (the command line, a saved list) means its words as they are.

        When no paper has every word, the closest matches instead (`SearchResult.partial`); a word the
        library lacks or holds rarely gets a correction from its own words (`SearchResult.correction`),
        which the closest matches use. A paper found with every word is never displaced by them."""
        notes: list[str] = []
        try:
            q = self.parse(text, state, tag, within)
        except QueryError:
            raise
        except Exception as exc:  # whoosh's parser rejects some odd syntax: pasted text is read as words
            try:
                q = self.parse(_plain_words(text), state, tag, within)
            except Exception:
                raise QueryError(f"cannot read that query ({exc})") from None
            notes.append("The query's punctuation was read as plain text.")
        # keyed by what the query means: closing a phrase's quote or typing a space finds it cached; a text
        # whose last word is being typed may read it as a prefix (_as_started), which a space ends: it has a
        # key of its own, and its result serves the text with the space too unless a prefix was read
        typing_word = _typing_word(text) if typing else None
        typing = typing_word is not None
        # "MDPs" also matches its long form, "mdps" does not; "multi-task" is its words side by side, "multi--task"
        # (no hyphenated word) is not, though both parse alike
        meaning = (repr(q), typed_acronyms(text), frozenset(hyphen_chains(text)))
        key = (meaning, limit, typing)
        with self._search_lock:
            self._see_other_writers()  # the cache holds this searcher's results: another process's commit
            cached = self._cache.get(key)  # (the command line, an import's child) makes them stale
            if cached is None and not typing:
                cached = self._cache.get((meaning, limit, True))
                cached = None if cached is None or cached.started else cached
        if cached is not None:
            # (the query's stop words are no part of its meaning: "budget of x" is cached as "budget x")
            return cached if cached.query == text else self._with_stop_words(replace(cached, query=text))
        with self.searching():
            assert self._ranker is not None
            ranker, work = self._ranker, self._ranker.work
            try:
                result = self._search(q, text, limit, state, tag, notes, within, typing_word)
            except QueryError:
                raise
            except Exception as exc:  # a query Whoosh cannot evaluate (the kinds known are mended at parse)
                raise QueryError(f"cannot search for that ({exc})") from None
            finally:
                work = ranker.work - work
        with self._search_lock:
            if len(self._cache) > SEARCH_CACHE or self._cached_hits + len(result.ids) > SEARCH_CACHE_HITS:
                self._forget_results()
            self._cache[key] = result
            self._cached_hits += len(result.ids)
        if work + len(result.ids) >= RETURN_FREED_AFTER:
            return_freed()  # (its temporaries are gone: the result holds the ids, not the score dictionaries)
        return self._with_stop_words(result)

    def _with_stop_words(self, result: SearchResult) -> SearchResult:
        """Closest matches, with the stop words their count of words leaves out (SearchResult.stop_words)."""
        if not result.partial:
            return result if not result.stop_words else replace(result, stop_words=[])
        return replace(result, stop_words=left_out_stop_words(self.parser, result.query))

    def _phrase_tier(self, text: str, plain: list[query.Query], candidates: list[int]) -> list[int]:
        """Of the candidates, those whose title or abstract has the query's words (`plain`, each a plain word)
        as typed, one after the other, each in any form of its stem; a stop word typed keeps its place and
        stands for any word there ("learning to rank"). None when a word is no plain word (a prefix being typed,
        an acronym's long form, a compound's other spelling: the words typed are not all the query). Read from
        the positions the proximity just read of these words in the candidates (Ranker.in_a_row)."""
        assert self._ranker is not None
        typed = [w for w, _ in _ANALYZER.words(text)]
        if not candidates or len(typed) > PROXIMITY_WORDS + 2:
            return []
        found: set[int] = set()
        for fieldname in ("title", "abstract"):
            places: dict[str, int] = {}  # each plain word's text → its place in the query
            for part in plain:
                leaf = next((x for x in part.leaves() if isinstance(x, Stemmed) and x.fieldname == fieldname), None)
                if leaf is None or type(part) not in (query.Or, query.DefaultOr):
                    return []
                places[leaf.text] = -1
            for k, w in enumerate(typed):
                if w in places and places[w] < 0:
                    places[w] = k
                elif w not in STOP_WORDS:
                    return []
            if len(places) < PHRASE_WORDS or len(places) != len(plain) or min(places.values()) < 0:
                return []
            offsets = list(places.values())  # (in the order of `plain`, as the proximity read them)
            found.update(self._ranker.in_a_row(fieldname, offsets, candidates))
        return [d for d in candidates if d in found]

    def _tie_order(self, matches: int, limit: int | None) -> Any:
        """What breaks ties between equal scores (ranking.ranked): the paper ids, as the docnum → id list, or
        for a large unlimited sort (ranking.ranked_ids) as an array of it, made once per searcher (an array
        of the 94k ids is 0.8 MB; numpy is imported only then)."""
        pids = self._pids
        if pids is None or limit is not None or matches < ARRAY_SORT_FROM:
            return pids
        if self._pid_array is None or self._pid_array[0] is not pids:
            import numpy as np

            self._pid_array = (pids, np.array(pids, dtype=np.int64))
        return self._pid_array[1]

    def word_frequencies(self, words: Sequence[str]) -> tuple[dict[str, int], int]:
        """How many papers' abstracts have each word (as this index analyses it), and how many papers there
        are: how telling a phrase two papers share is (keyphrases.shared_phrases)."""
        analyzer = self.schema["abstract"].analyzer
        out: dict[str, int] = {}
        with self.searching() as s:
            total = int(s.doc_count())
            for word in words:
                stems = [t.text for t in analyzer(word)]
                out[word] = max((int(s.doc_frequency("abstract", t)) for t in stems), default=0)
        return out, total

    def _search(
        self, q: query.Query, text: str, limit: int | None, state: str | None, tag: str | None, notes: list[str],
        within: str = "", typing_word: str | None = None,
    ) -> SearchResult:  # fmt: skip
        assert self._ranker is not None and self._vocabulary is not None and self._searcher is not None
        ranker, vocabulary = self._ranker, self._vocabulary
        resolved = self._spellings(resolve(q, vocabulary), text, within)
        # (the word being typed is read as the start of any word, names' too: _as_started)
        started_names = self._names_started(resolved) - {t.text for t in _ANALYZER(typing_word or "")}
        if started_names:  # (the query as parsed too: the closest matches and corrections resolve it again)
            q, resolved = name_prefixes(q, started_names), name_prefixes(resolved, started_names)
        settled = self._settled_words(text)
        found = ranker.evaluate(resolved, settled=settled)
        if started_names:  # (said once the names they begin are known)
            notes += [_started_name_note(name, ranker.expanded, ranker) for name in sorted(started_names)]
        typed = self._typed_words(resolved)
        started_word = started_folded = None
        started = None
        if typing_word is not None:
            started = self._as_started(text, typing_word, state, tag, within, typed, bool(found))
        if started is not None:
            as_typed = (list(ranker.notes), dict(ranker.expanded))
            more = ranker.evaluate(started[1], settled=settled)
            # else the word as typed (and a correction of it) says as much; after a hyphen the words read as
            # started stand together, so they may find fewer: "self-sup" is self-supervised, not "self … sup"
            hyphen = _AFTER_A_WORD.search(text[: len(text) - len(typing_word or "")]) is not None
            if len(more) > len(found) or (hyphen and more and self._begins_more(started[2])):
                q, resolved, found = started[0], started[1], more
                started_word, started_folded = typing_word, started[2]
                typed = self._typed_words(resolved)
                notes.append(f"“{started_word}” read as the start of a word.")
            else:
                ranker.notes, ranker.expanded = as_typed
        notes += ranker.notes
        expanded = dict(ranker.expanded)
        words, required, excluded = split_words(resolved)
        corrections = self._corrections(typed, q, context=len(words) > 1 and not found, resolved=resolved,
                                        hint=len(text.split()) < TYPED_WORDS)  # fmt: skip
        corrections = _of_words_typed(corrections, text, bool(found))
        names_unknown: list[str] = []
        fields = _fields_of_words(resolved)
        if not found:
            corrections |= self._name_corrections(resolved, fields, corrections, names_unknown)
        otherwise = spelt_otherwise(resolved)  # "semisupervised", found as "semi-supervised", is no unknown word
        corrections = {w: c for w, c in corrections.items() if w not in otherwise or self._more_common(c, otherwise[w])}
        correction = apply_corrections(text, corrections) if corrections else None
        shown, partial = resolved, False
        counts: dict[int, int] = {}
        fit = False
        if not found and (len(words) > 1 or corrections):
            used, used_words, used_required, used_excluded = resolved, words, required, excluded
            if corrections:
                used = resolve(q, vocabulary, corrections)
                used_words, used_required, used_excluded = split_words(used)
            # a correction of the same stem (vocabulary.stem_slip) matches what the word typed matched; the
            # best fit too, unless a misspelt word was corrected: that query is of a paper's words as written
            same = used is resolved or all(word_stem(c) == word_stem(w) for w, c in corrections.items())
            fit = same
            if fit:  # a word matches its derivations too, weighing less (Stemmed.related): then a paper may
                # have every word after all
                used = resolve(q, vocabulary, corrections or None, related=True)
                used_words, used_required, used_excluded = split_words(used)
            # an acronym of the title pasted may be spelt out in its paper's abstract, or the other way round
            acronyms = with_acronyms(used, vocabulary, text)
            if acronyms is not used:
                used = acronyms
                used_words, used_required, used_excluded = split_words(used)
            known_fail = same and not fit
            scores, counts = ranker.partial(
                used_words, used_required, used_excluded, all_known_fail=known_fail, fit=fit
            )
            notes += [n for n in ranker.notes if n not in notes]
            if scores:
                found, partial, shown = scores, True, used
                expanded.update(ranker.expanded)
        stem_only = [ranker.stem_only_docs(w) for w in split_words(shown)[0]]
        names = self._name_ranks(shown, expanded, found) if started_names else {}
        keys = rank_keys(found, stem_only, counts, fit and partial, ranker.matched_weight if partial else {}, names)
        phrase_text = correction if partial and correction else text
        guessed = False  # the phrase ends on a word the typing was taken for, not on one typed
        if started_word and started_folded and (completed := _completion(started_folded, expanded, ranker)):
            phrase_text = text[: len(text) - len(started_word)] + completed  # a title the words begin
            guessed = completed != started_folded
        phrase = title_phrase(phrase_text)
        bonus: Scores = {}
        other: set[int] = set()  # the titles that hold the phrase in its other spelling only
        candidates: list[int] = []
        if phrase is not None and found:
            # looked up in the best few only: a title that holds the phrase holds its words, so it is among them
            candidates = ranked(keys, TITLE_PHRASE_CANDIDATES, self._pids)
            spelt = either_spelling(phrase, vocabulary)
            bonus = ranker.evaluate_within(spelt, candidates)
            if spelt is not phrase and bonus:  # (a title holding it in both spellings holds it as typed)
                other = held(bonus, ranker.stem_only_docs(spelt))
        plain = split_words(shown)[0]
        # "dataset shift" typed (every word found): its words as a phrase
        few = PHRASE_WORDS <= len(plain) < PROXIMITY_WORDS and not partial
        tier: list[int] = []
        if found and (few or (not bonus and PROXIMITY_WORDS <= len(plain) <= PROXIMITY_MOST)) and not _has_syntax(text):
            # (a title holding the whole query decides alone: a pasted title in a titled library pays nothing)
            best = ranked(keys, PHRASE_CANDIDATES if few else PROXIMITY_CANDIDATES, self._pids)
            gap = _typed_gap(text) if few else PROXIMITY_GAP
            near = ranker.proximity(plain, best, ("title", "abstract"), gap)
            if near and not bonus:
                step = PROXIMITY_SHARE * top_score(found) / (len(plain) - 1)
                keys = plus(keys, {d: step * pairs for d, pairs in near.items()})
            # the papers with every pair near are looked at for the phrase as typed
            whole = [d for d in best if near.get(d) == len(plain) - 1] if few else []
            tier = self._phrase_tier(text, plain, whole) if whole else []
            if tier:  # the papers with the phrase before every other, in their own order
                lift = top_score(keys) - min(scores_of(keys, tier)) + 1.0
                keys = plus(keys, dict.fromkeys(tier, lift))
        if bonus:
            # (each at most the document's score, its title words': see rank_keys)
            same = keys is found
            found = plus(found, bonus)
            keys = found if same else plus(keys, bonus)
            assert phrase is not None
            as_spelt = [d for d in bonus if d not in other]
            if as_spelt and other:  # the titles holding the phrase as typed before those holding it otherwise
                lift = max(scores_of(keys, sorted(other))) - min(scores_of(keys, as_spelt)) + 1.0
                if lift > 0:
                    keys = plus(keys, dict.fromkeys(as_spelt, lift))
            whole = [] if guessed else whole_titles(bonus, ranker.field_lengths("title", bonus), len(phrase.words))
            if whole:  # the papers the query is the title of, before the rest, in their own order
                # the best of all: the candidates are the best few (or a paper with the phrase, lifted)
                above = top_score(keys) if tier else max(scores_of(keys, candidates))
                lift = above - min(scores_of(keys, whole)) + 1.0
                keys = plus(keys, dict.fromkeys(whole, lift))
        tie = self._tie_order(len(keys), limit)
        top: Sequence[int]
        if tie is not None and not isinstance(tie, list):  # every match of many
            ids, scores_list, top = ranked_ids(keys, found, tie)
        else:
            top = ranked(keys, limit, tie)
            ids = list(map((self._pids or []).__getitem__, top))
            scores_list = scores_of(found, top)
        return SearchResult(
            ids,
            scores_list,
            text,
            highlight_terms(shown, self._searcher, expanded),
            partial=partial,
            matched=[counts[d] for d in top] if partial else [],
            word_count=len(words),
            correction=correction,
            corrections=corrections,
            unknown=[
                _in_field(w, fields)
                for w, f in typed.items()
                if f == 0 and w not in corrections and not ranker.estimate(otherwise.get(w, query.NullQuery))
            ]
            + names_unknown,
            notes=notes,
            started=started_word,
        )

    def _corrections(
        self, typed: dict[str, int], q: query.Query, context: bool, resolved: query.Query | None = None,
        hint: bool = False,
    ) -> dict[str, str]:  # fmt: skip
        """A correction for each word the library lacks or holds rarely (see Vocabulary.suggestions), or
        lacks in the form typed though it holds its stem (vocabulary.stem_slip: the `resolved` query's
        forms), or — with `context` — holds rarely as typed though its stem is common through other words, by
        a word of another stem ("proces": "process"). With `context` (no paper has every word), of several
        likely corrections the one with which the query fits some paper best (the highest BM25F of the
        corrected query) wins, in its likeliest form: "attention is all you nead" is "need", though "near" is
        about as common; "multi-armd" is "multi-armed", not "multi-arm". A rare word of a title is a word, not a slip
        (titles are edited), unless it was typed (`hint`: a query of a few words, every one found) and a word
        one slip away is far more common: "baysian optimization" found the one paper whose title misspells
        it, and is offered "bayesian optimization", its results as typed."""
        assert self._vocabulary is not None and self._ranker is not None
        ranker, vocabulary = self._ranker, self._vocabulary
        options: dict[str, list[tuple[str, float]]] = {}

        def a_name(word: str) -> bool:  # a name among the authors or tags is a word, whatever it stems like
            return any(ranker.doc_frequency(f, word) for f in ("authors", "tags"))

        slips = {
            word: meant
            for word, meant in (self._stem_slips(resolved) if resolved is not None else {}).items()
            if not a_name(word)
        }
        as_typed = self._typed_as_is(resolved) if resolved is not None else {}
        for word, frequency in typed.items():
            if frequency and not hint and ranker.doc_frequency("title", word):
                continue  # a rare word in a title is a word, not a slip (titles are edited)
            if frequency and a_name(word):
                continue  # "Gergely Neu" found his papers and was offered "Gergely New" (a trial)
            found = []
            if frequency <= RARE_DF:
                found = vocabulary.suggestions(word, frequency)
                if frequency and hint:  # a title's word typed: not its stem with an ending ("speedy": "speed")
                    found = [(c, w) for c, w in found if not (word.startswith(c) and word[len(c) :] in _ENDINGS)]
            elif context and word not in slips and as_typed.get(word, 1) == 0 and not a_name(word):
                # no paper has every word, and none this one as typed, though its stem is common: "proces"
                # stems as "proce" (a PDF's "pro-ces"), whose forms proceed, proceeds hide that it is a slip of
                # "process" (another stem: the stem's own forms are stem_slip's, and an inflection the library
                # lacks is no slip; a name of the authors or tags is a word, and so is one a paper has: "rounded")
                forms, typed_forms = vocabulary.forms("abstract", word)
                exact = sum(forms[form] for form in typed_forms)  # (up to a plural: "proces" is "proce"'s)
                own = word_stem(word)
                found = [(c, w) for c, w in vocabulary.suggestions(word, exact) if word_stem(c) != own]
            if found:
                options[word] = found
        chosen = {**slips, **{word: found[0][0] for word, found in options.items()}}
        if not context:
            return chosen
        for word, found in options.items():
            close = [(c, w) for c, w in found if w >= CONTEXT_SHARE * found[0][1]]
            # the context picks the word, the slip's likelihood its form: forms of one stem fit alike, and
            # "multi-armd" is "multi-armed" (a letter left out) more often than "multi-arm" (one too many)
            likeliest: dict[str, tuple[str, float]] = {}
            for c, w in close:
                likeliest.setdefault(word_stem(c), (c, w))
            if len(likeliest) < 2:
                chosen[word] = close[0][0] if close else chosen[word]
                continue

            def fit(candidate: str, word: str = word) -> float:
                trial = resolve(q, vocabulary, {**chosen, word: candidate}, instead=True)
                return top_score(ranker.evaluate(trial))

            chosen[word] = max(likeliest.values(), key=lambda item: (fit(item[0]), item[1]))[0]
        return chosen

    @staticmethod
    def _typed_as_is(resolved: query.Query) -> dict[str, int]:
        """The query's plain words with the papers that hold them exactly as typed, each field's counted."""
        out: dict[str, int] = {}
        for leaf in resolved.leaves():
            if isinstance(leaf, Stemmed):
                out[leaf.text] = out.get(leaf.text, 0) + leaf.forms.get(leaf.text.encode("utf-8"), 0)
        return out

    def _more_common(self, meant: str, other: query.Query) -> bool:
        """Is the word meant far more common (RARE_RATIO times) than the papers another spelling of the word
        typed finds? A line break's leftover splits a slip into words ("Gau-sian", "reinforce-ment" in a
        PDF's text): "gausian" found the two papers that have "gau sian", and was never offered "gaussian"."""
        assert self._ranker is not None and self._vocabulary is not None
        if any(len(apart.subqueries[0].text) < 2 for apart in words_apart(other)):
            return False  # a one-letter head is no line break's (TeX breaks two letters in): "tsne" is "t-SNE"
        found = self._ranker.count(other)
        if not found:
            return True
        # (a spelling many papers write apart is the word: "q learning" for "qlearning", "t sne" for "tsne")
        return found <= RARE_DF and any_form(meant, self._vocabulary) >= RARE_RATIO * found

    @staticmethod
    def _stem_slips(resolved: query.Query) -> dict[str, str]:
        """Words of the query no field holds in the form typed (up to a plural), though it holds forms of
        their stem, with the form meant (see vocabulary.stem_slip)."""
        forms: dict[str, dict[bytes, int]] = {}
        typed_somewhere: set[str] = set()
        for leaf in resolved.leaves():
            if isinstance(leaf, Stemmed):
                merged = forms.setdefault(leaf.text, {})
                for form, df in leaf.forms.items():
                    merged[form] = merged.get(form, 0) + df
                if leaf.exact:
                    typed_somewhere.add(leaf.text)
        out = {}
        for word, found in forms.items():
            if found and word not in typed_somewhere and (meant := stem_slip(word, found)) is not None:
                out[word] = meant
        return out

    def _spellings(self, resolved: query.Query, text: str, within: str) -> query.Query:
        """The resolved query with its words' other spellings ("multitask" is "multi-task" too) and its
        hyphenated words' words together ("q-learning"), as the reader wrote them: the text typed, and the saved
        list's query it is searched within. Whether a joined word is written apart is asked of a typed query
        only: a pasted text is matched as written."""
        assert self._vocabulary is not None
        written = f"{within} {text}" if within.strip() else text
        together = self._together if len(written.split()) < TYPED_WORDS else None
        return with_hyphen_phrases(with_compounds(resolved, self._vocabulary, written, together), written)

    def _together(self, fieldname: str, head: str, tail: str) -> tuple[float, int]:
        """query.Together for this searcher: how often its papers with both words have them side by side."""
        assert self._vocabulary is not None and self._ranker is not None
        vocabulary = self._vocabulary
        (head_forms, head_exact), (tail_forms, tail_exact) = (vocabulary.forms(fieldname, w) for w in (head, tail))
        if not head_forms or not tail_forms:
            return 0.0, 0
        first = Stemmed(fieldname, head, head_forms, head_exact)
        return self._ranker.together_share(first, Stemmed(fieldname, tail, tail_forms, tail_exact))

    def _as_started(
        self, text: str, word: str, state: str | None, tag: str | None, within: str, typed: dict[str, int],
        found: bool,
    ) -> tuple[query.Query, query.Query, str] | None:  # fmt: skip
        """The query `text` with its last word (`word`, see _typing_word) read as a prefix, resolved, and that word
        as the index folds it — for a word still being typed ("gaussian proc", "neural netw") or cut short
        ("gaussian proces"): when no paper has every word as typed, or when the last word is one of at most
        RARE_DF papers' (a slip, or a line-break hyphen's leftover: "proces", "netw"), whose papers the
        prefix keeps, or when the words it begins are far more frequent than it (_begins_more: "neural net",
        "self-sup"). `typed`: the query's plain words with their frequencies (_typed_words)."""
        folded = [t.text for t in _ANALYZER(word)]
        if len(folded) != 1 or any(not n for w, n in typed.items() if w != folded[0]):
            return None  # another word no paper has: no reading of the last one finds every word
        assert self._vocabulary is not None
        if found and typed.get(folded[0], 0) > RARE_DF and not self._begins_more(folded[0]):
            return None
        head = text[: len(text) - len(word)]  # "self-sup*": the words side by side, the last a prefix (parse)
        if head.endswith("-") and not _AFTER_A_WORD.search(head) and len(head) - 1 not in negating_minuses(text):
            head = head[:-1] + " "  # "a deep learning model -sup": no word before the hyphen (a slip), nor a NOT
        try:
            widened = typed_prefixes(self.parse(head + word + "*", state, tag, within), folded[0])
        except Exception:  # the text as typed parsed; with a star it may not (then the word stays a word)
            return None
        return widened, self._spellings(resolve(widened, self._vocabulary), text, within), folded[0]

    def _begins_more(self, folded: str) -> bool:
        """Whether the words `folded` begins are far more frequent in the abstracts than its own stem's forms
        (PREFIX_DOMINATES times): "net" of "graph neural net" is "network" on its way, "sup" of "self-sup"
        "supervised"; "graph" (graphs, graphical) or "train" (training) is a word typed."""
        assert self._vocabulary is not None
        own = sum(self._vocabulary.forms("abstract", folded)[0].values())
        return self._vocabulary.prefix_frequency("abstract", folded) >= PREFIX_DOMINATES * max(own, 1)

    @staticmethod
    def _settled_words(text: str) -> set[str]:
        """In a query short enough to be typed (a longer one is pasted), the words before the one being
        typed: read whole, they are cached for the next keystrokes. A pasted query looks its common words
        up in the candidates of its rare ones only."""
        cut = len(text) if text[-1:].isspace() else max(text.rfind(" "), 0)
        words = {t.text for t in _ANALYZER(text[:cut])}
        return words if len(words) < TYPED_WORDS else set()

    def _names_started(self, q: query.Query) -> set[str]:
        """The words of the query read as the start of authors' names (query.NamePrefix), never corrected: a
        name looked for among the authors only (`author:hinto`) that no paper has but that begins names papers
        have; and a plain word no paper has anywhere whose likeliest correction would only complete such a
        name ("abramson": "Abramsond", a garbled import's "Abramson_D"), or which has none."""
        assert self._ranker is not None and self._vocabulary is not None
        ranker, vocabulary = self._ranker, self._vocabulary
        fields = _fields_of_words(q)
        out: set[str] = set()
        typed: dict[str, int] | None = None
        for leaf in q.leaves():
            word = getattr(leaf, "text", None)
            if type(leaf) is not query.Term or leaf.fieldname != "authors" or not isinstance(word, str):
                continue
            if word in out or len(word) < MIN_NAME_PREFIX or not word.isalpha():
                continue
            if ranker.doc_frequency("authors", word) or not vocabulary.prefix_frequency("authors", word):
                continue  # a name papers have means that name; one no name begins may be a typo
            if fields.get(word) == {"authors"}:
                out.add(word)
                continue
            typed = self._typed_words(q) if typed is None else typed
            if typed.get(word) == 0:  # a plain word no paper has: unless a correction is likelier
                meant = vocabulary.suggestions(word, 0, most=1)
                if not meant or (meant[0][0].startswith(word) and self._mostly_a_name(meant[0][0])):
                    out.add(word)
        return out

    def _name_ranks(self, q: query.Query, expanded: dict[query.Query, set[bytes]], found: Scores) -> dict[int, int]:
        """Of the papers found through a name read as the start of names (NamePrefix: `author:smol`), those
        whose name is not the commonest of the names it begins, each with how many of those names have more
        papers than the commonest it holds (equally common names, the same; with several such words, the
        sum): Smola's papers first, then Smolensky's, …, where BM25's idf put the rarest names first."""
        assert self._ranker is not None
        ranker = self._ranker
        out: dict[int, int] = {}
        for leaf in q.leaves():
            words = expanded.get(leaf) if isinstance(leaf, NamePrefix) else None
            if not words or len(words) < 2:
                continue
            frequency = {w: ranker.doc_frequency(leaf.fieldname, w.decode("utf-8")) for w in words}
            levels = sorted(set(frequency.values()), reverse=True)
            seen: set[int] = set()
            for word in sorted(words, key=lambda w: (-frequency[w], w)):
                docs = held(found, ranker.term_docs(leaf.fieldname, word)) - seen
                seen |= docs
                rank = levels.index(frequency[word])
                for d in docs if rank else ():
                    out[d] = out.get(d, 0) + rank
        return out

    def _mostly_a_name(self, word: str) -> bool:
        """Do more papers have the word among their authors than in their titles and abstracts?"""
        assert self._ranker is not None
        frequency = self._ranker.doc_frequency
        return frequency("authors", word) >= frequency("title", word) + frequency("abstract", word)

    def _name_corrections(
        self, q: query.Query, fields: dict[str, set[str]], corrections: dict[str, str], unknown: list[str]
    ) -> dict[str, str]:
        """For an author's name no paper has, the name one edit away the most papers have, weighed by the
        kind of slip ("author:hintn" → hinton): corrections come from the content words' vocabulary
        (Vocabulary.suggestions), which holds no names. A name with none is added to `unknown`. `fields`:
        _fields_of_words(q)."""
        assert self._ranker is not None
        frequency = self._ranker.doc_frequency
        out: dict[str, str] = {}
        for leaf in q.leaves():
            word = getattr(leaf, "text", None)
            if type(leaf) is not query.Term or not isinstance(word, str) or fields.get(word) != {"authors"}:
                continue  # an author's name asked for (a plain word is looked for among the names too)
            if (
                word in corrections
                or not MIN_SUGGESTION_LENGTH <= len(word) <= MAX_NAME_CORRECTED
                or not word.isalpha()
            ):
                continue  # (each edit of a name is a look-up: a pasted paragraph is no name)
            if frequency("authors", word):
                continue
            weight, best = max(((frequency("authors", c) * w, c) for c, w in edits(word)), default=(0.0, ""))
            if weight > 0:
                out[word] = best
            else:
                unknown.append(f"authors:{word}")
        return out

    def _typed_words(self, q: query.Query) -> dict[str, int]:
        """The plain words of the query (those a misspelling may hide in), with the number of papers that
        hold them in some default field (an upper bound: a paper may hold a word in several fields). A word
        read as the start of names (NamePrefix) is none: it is no misspelling."""
        assert self._ranker is not None
        out: dict[str, int] = {}
        started: set[str] = set()
        for leaf in q.leaves():
            if isinstance(leaf, Stemmed):
                out[leaf.text] = out.get(leaf.text, 0) + sum(leaf.forms.values())
            elif isinstance(leaf, NamePrefix) and isinstance(leaf.text, str):
                started.add(leaf.text)
        for word in out:
            for fieldname in ("authors", "tags"):
                out[word] += self._ranker.doc_frequency(fieldname, word)
        return {word: n for word, n in out.items() if word not in started}

    def warm(self) -> None:
        """Read what a first misspelt word would need (the words corrections come from) now."""
        with self.searching():
            assert self._vocabulary is not None
            self._vocabulary.warm()
        return_freed()  # what reading the term files took and left

    def more_like(self, paper_id: int, text: str, top: int = 5, cancel: threading.Event | None = None) -> list[int]:
        """Related papers: the key terms of this paper's text (its words by tf·idf), searched over the
        abstracts.

        `cancel` stops the search part-way (returning []): related papers are a courtesy, and a search the
        user is waiting for must not share the CPU with one (nor wait for its lock: Whoosh's own key terms
        looked every word of the text up in the term files)."""
        with self.searching() as s:
            if not _has_live_document(s, self._pids or [], paper_id) or not text.strip():
                return []
            if cancel is not None and cancel.is_set():
                return []
            assert self._ranker is not None
            terms = key_terms(text, self._ranker, int(s.doc_count_all()))
            if not terms or (cancel is not None and cancel.is_set()):
                return []
            q = query.Or([query.Term("abstract", word, boost=weight) for word, weight in terms])

            def check() -> None:
                if cancel is not None and cancel.is_set():
                    raise _Cancelled

            ranker = self._ranker
            assert ranker is not None
            try:
                best = ranked(ranker.evaluate(q, check), RELATED_CANDIDATES * top + 1, self._pids)
                # a paper sharing one key word only is no relation: "decisions" put a paper on trauma warnings
                # beside one on planning in a mixed library (a trial)
                shared = dict.fromkeys(best, 0)
                for word, _weight in terms:
                    check()
                    for d in ranker.evaluate_within(query.Term("abstract", word), best):
                        shared[d] += 1
            except _Cancelled:
                return []
            pids = self._pids or []
            kept = [pids[d] for d in best if shared[d] >= RELATED_SHARED_TERMS]
            return [pid for pid in kept if pid != paper_id][:top]


def _has_live_document(s: Searcher, pids: list[int], paper_id: int) -> bool:
    """Does the searcher hold a document of this paper that is not deleted (an edit's older one is, until
    a merge drops it)?"""
    reader = s.reader()
    at = -1
    with suppress(ValueError):
        while True:
            at = pids.index(paper_id, at + 1)
            if not reader.is_deleted(at):
                return True
    return False


class _Cancelled(Exception):
    pass


_CONSTRAINT_FIELDS = {"year", "state"}


def _fields_of_words(q: query.Query) -> dict[str, set[str]]:
    """Each word of the query with the fields it is looked for in (a plain word: every default field)."""
    fields: dict[str, set[str]] = {}
    for leaf in q.leaves():
        text = getattr(leaf, "text", None)
        if isinstance(text, str):
            fields.setdefault(text, set()).add(getattr(leaf, "fieldname", ""))
    return fields


def _in_field(word: str, fields: dict[str, set[str]]) -> str:
    """An unknown word as the results say it: "note:hierarchy" when the query looked for it in one field
    only (no paper's note has it; abstracts may), else the word."""
    found = fields.get(word, set())
    return f"{next(iter(found))}:{word}" if len(found) == 1 else word


def key_terms(text: str, ranker: Ranker, documents: int, count: int = KEY_TERMS) -> list[tuple[str, float]]:
    """A text's most telling words for the abstracts: tf·idf, stop words, numbers and words of two letters
    left out; weights relative to the first."""
    tf: dict[str, int] = {}
    for word, _ in _ANALYZER.words(text):
        if len(word) > 2 and word.isalpha() and word not in STOP_WORDS:
            tf[word] = tf.get(word, 0) + 1
    scored = []
    for word, n in tf.items():
        df = ranker.doc_frequency("abstract", word)
        if df:
            scored.append((n * math.log(documents / (df + 1) + 1), word))
    best = heapq.nlargest(count, scored)
    return [(word, weight / best[0][0]) for weight, word in best] if best else []


def split_words(q: query.Query) -> tuple[list[query.Query], list[query.Query], list[query.Query]]:
    """A query's top-level parts: its words (what a closest match may lack), the constraints every match
    keeps (years, states, a tag: or the sidebar's tag), and what no match may have (NOT)."""
    words, required, excluded = [], [], []
    for part in top_level(q):
        if isinstance(part, query.Not):
            excluded.append(part.query)
        elif _is_constraint(part):
            required.append(part)
        else:
            words.append(part)
    return words, required, excluded


def _is_constraint(q: query.Query) -> bool:
    if isinstance(q, query.Every):
        return True
    if type(q) in (query.Term, ExactTerm) and q.fieldname == "tags":
        return True
    fields = {getattr(leaf, "fieldname", None) for leaf in q.leaves()}
    return bool(fields) and fields <= _CONSTRAINT_FIELDS


def rank_keys(
    scores: Scores, stem_only: list[set[int]], matched: dict[int, int], fit: bool = False,
    weights: dict[int, float] | None = None, names: dict[int, int] | None = None,
) -> Scores:  # fmt: skip
    """What the results are sorted by: for closest matches, the number of words each paper has first (with
    `fit`, the number and BM25F together, a word missing costing 1/CLOSEST_WORD_SHARE of the best score: a
    paper a word short but with far more of the query's weight fits a pasted title better; with `weights`,
    each paper's words counted by their worth, Ranker.partial's matched_weight: a common word missing costs
    less than a rare one); then how many
    plain words it holds in the form typed (a "transformer" before a paper that only has "transform"), a name
    read as the start of names counting as such a word once for each name commoner than the paper's (`names`,
    Index._name_ranks: Smola's papers before Smolensky's); then BM25F. One number per paper, so that the sort
    stays in C: each key weighs more than everything after it can add up to (with `fit`, a word held only in
    another form costs STEM_ONLY_COST of a missing word, and a paper's name ranks all together less)."""
    names = names or {}
    if not any(stem_only) and not matched and not names:
        return scores
    best = top_score(scores)
    # twice the best score: the title-phrase bonus, added to the keys later, is at most a paper's score
    top = 2 * best + 1.0
    if isinstance(scores, ArrayScores) and not matched:  # (closest matches come as a dictionary)
        lowered = minus_each(scores, stem_only, top)
        return plus(lowered, {d: -top * rank for d, rank in names.items()}) if names else lowered
    keys = dict(scores)
    if matched and fit:
        step = best / CLOSEST_WORD_SHARE or 1.0
        weights = weights or {}
        for d, count in matched.items():
            keys[d] += step * weights.get(d, count)
        for docs in stem_only:
            for d in docs:
                if d in keys:
                    keys[d] -= step * STEM_ONLY_COST
        most = max(names.values(), default=0) + 1
        for d, rank in names.items():
            if d in keys:
                keys[d] -= step * STEM_ONLY_COST * rank / most
        return keys
    for docs in stem_only:
        for d in docs:
            if d in keys:
                keys[d] -= top
    for d, rank in names.items():
        if d in keys:
            keys[d] -= top * rank
    if matched:
        tier = top * (len(stem_only) + max(names.values(), default=0) + 1)
        for d, count in matched.items():
            keys[d] += tier * count
    return keys


def _started_name_note(name: str, expanded: dict[query.Query, set[bytes]], ranker: Ranker) -> str:
    """How a name read as the start of authors' names (NamePrefix) was searched: for the names it begins, the
    commonest first (Index._name_ranks), which the note names."""
    words = [w.decode("utf-8") for leaf, found in expanded.items()
             if isinstance(leaf, NamePrefix) and leaf.text == name for w in found]  # fmt: skip
    note = f"“{name}” read as the start of an author's name"
    if not words:
        return note + "."
    commonest = min(words, key=lambda w: (-ranker.doc_frequency("authors", w), w))
    others = len(set(words)) - 1
    return note + (f": “{commonest}” first, then {others:,} other name{'s' if others > 1 else ''}." if others
                   else f": “{commonest}”.")  # fmt: skip


_ANALYZER = WordAnalyzer()
_AFTER_A_WORD = re.compile(r"\w-$")  # a hyphen that joins the word being typed to the one before it
_LAST_WORD_RE = re.compile(rf"(?:^|[\s-])([^\W\d_]{{{TYPING_PREFIX},}})$")


def _completion(folded: str, expanded: dict[query.Query, set[bytes]], ranker: Ranker) -> str | None:
    """The title word most titles hold of those a word read as a prefix (`folded`, as the index holds it)
    matched ("detectio" → "detection"): what the title-phrase bonus looks for in its place."""
    words = [
        w.decode("utf-8")
        for leaf, found in expanded.items()
        if isinstance(leaf, query.Prefix) and leaf.fieldname == "title" and leaf.text == folded
        for w in found
    ]
    return max(words, key=lambda w: (ranker.doc_frequency("title", w), w), default=None)


def _typing_word(text: str) -> str | None:
    """The plain word a query ends on with no space after it (the word perhaps still being typed), outside
    a phrase and any syntax; None if there is none."""
    last = _LAST_WORD_RE.search(text)
    if last is None or text.count('"') % 2 or _SYNTAX_RE.search(last.group(1)):
        return None
    return last.group(1)


_SYNTAX_RE = re.compile(r'["*~()\[\]{}^=<>]|\?(?=\w)|\b(?:AND|OR|NOT)\b|(?i:\b(?:' + "|".join(KNOWN_FIELDS) + r"):)")


def _has_syntax(text: str) -> bool:
    """Does the query hold syntax (a minus that is a NOT, "-video", too), not only plain words?"""
    return _SYNTAX_RE.search(text) is not None or bool(negating_minuses(text))


def _typed_gap(text: str) -> int:
    """How far apart two successive content words of the query stand at most ("learning to rank": 2)."""
    places = [pos for w, pos in _ANALYZER.words(text) if w not in STOP_WORDS]
    return max((b - a for a, b in pairwise(places)), default=1) or 1


def title_phrase(text: str) -> query.Phrase | None:
    """For a query of plain words (a title, or its start, typed or pasted), the phrase of all its words,
    stop words too, in the title: the papers whose title holds it rank above those that only hold the
    words (by the phrase's BM25F, added)."""
    if _has_syntax(text):
        return None
    words = [w for w, _ in _ANALYZER.words(text)]
    return query.Phrase("title", words) if 1 < len(words) <= TITLE_PHRASE_WORDS else None


def whole_titles(bonus: Scores, lengths: dict[int, int], words: int) -> list[int]:
    """Of the papers whose title holds the query's phrase (`bonus`, by the phrase's score), those whose
    title is the phrase and nothing more: "Generative Adversarial Nets" is the title of one paper, and only
    held by "Triple Generative Adversarial Nets", whose abstract says it more often. A derived title (an
    abstract's, weighing DERIVED_TITLE_WEIGHT) does not count beside a real one: its phrase scores far less."""
    if byte_to_length(length_to_byte(words)) != words:
        return []  # Whoosh keeps a length in a byte, exact up to 10 words: 11 reads back as 12, as 12 does
    best = max(bonus.values(), default=0.0)
    return [d for d, score in bonus.items() if lengths.get(d) == words and score >= WHOLE_TITLE_SHARE * best]


_ENDINGS = frozenset(("s", "y", "ly", "er", "ed", "ing", "es", "ness", "al"))  # a word's own, not a slip


def _of_words_typed(corrections: dict[str, str], text: str, found: bool) -> dict[str, str]:
    """The corrections of words the reader typed as words: not of a spelling the search made of them
    ("qlearning", the joined "q-learning": "Did you mean q-learning?" offered the query itself), nor of a
    word typed in capitals, a name ("t-SNE" is no "t-ONE"), nor of a part of a hyphenated word the papers
    found have ("t-sne")."""
    if not corrections:
        return corrections
    typed = {token.text: text[token.startchar : token.endchar] for token in _ANALYZER(text, chars=True)}
    parts = {w for pair in hyphenated_words(text) for w in pair} if found else set()
    return {
        word: meant
        for word, meant in corrections.items()
        if word in typed and word not in parts and not (typed[word].isupper() and len(typed[word]) > 1)
    }


def apply_corrections(text: str, corrections: dict[str, str]) -> str:
    """The query as typed with each misspelt word replaced, in the case it was typed in."""
    out, pos = [], 0
    for token in _ANALYZER(text, chars=True):
        correction = corrections.get(token.text)
        if correction is None:
            continue
        typed = text[token.startchar : token.endchar]
        if typed.isupper() and len(typed) > 1:
            correction = correction.upper()
        elif typed[:1].isupper():
            correction = correction[:1].upper() + correction[1:]
        out += [text[pos : token.startchar], correction]
        pos = token.endchar
    out.append(text[pos:])
    return "".join(out)


def _plain_words(text: str) -> str:
    """The text without anything Whoosh's parser reads as syntax."""
    text = re.sub(r'["():\[\]{}^~*?\\]', " ", text)
    return re.sub(r"\b(AND|OR|NOT|ANDNOT|ANDMAYBE|TO)\b", lambda m: m.group(0).lower(), text)


def _read_pids(searcher: Searcher, kept: dict[str, list[int]] | None = None) -> tuple[list[int], dict[str, list[int]]]:
    """The pid column as a list indexed by docnum (an empty index has no column at all), and each segment's
    part of it by segment id. `kept` is that of an earlier searcher: a segment never changes, so an edit's
    searcher swap reads only its own small segment, not the big one's whole column again (which, on the
    writer thread, held the interpreter while the window answered a triage key)."""
    pids: list[int] = []
    seen: dict[str, list[int]] = {}
    for leaf, _ in searcher.leaf_searchers():
        reader = leaf.reader()
        count = reader.doc_count_all()
        if count == 0:
            continue
        segid = segment_id(reader)
        column = (kept or {}).get(segid)
        if column is None or len(column) != count:
            # (no column cannot happen with this schema: zeros keep the docnums aligned)
            column = _column_ints(reader, "pid", count) if reader.has_column("pid") else [0] * count
        seen[segid] = column
        pids.extend(column)
    return pids, seen


SCANNED_PIDS = 32  # up to this many papers' documents are looked for by a C-speed scan of the column each


def _docnums_of(writer: SegmentWriter, pids: set[int]) -> list[int]:
    """The docnums, in the writer, of these papers' documents in the segments it started with; an edit's
    older documents, deleted already, are listed too (deleting one again changes nothing). An edit's few
    papers are each found by a byte search of the column (a dict of a 94k library's column took 40 ms to build)."""
    if not pids or not writer.segments:
        return []
    out: list[int] = []
    with writer.reader() as reader:
        for leaf, offset in reader.leaf_readers():
            count = leaf.doc_count_all()
            if not count or not leaf.has_column("pid"):
                continue
            column = _pid_column(leaf, count)
            if len(pids) > SCANNED_PIDS:
                out += [docnum for docnum, pid in enumerate(memoryview(column).cast("I"), offset) if pid in pids]
                continue
            for pid in pids:  # the pid's four bytes found by bytes.find (memchr), at a multiple of four
                if not 0 <= pid < 1 << 32:  # not a paper id this column can hold
                    continue
                needle = _PID.pack(pid)
                at = column.find(needle)
                while at >= 0:
                    if at % 4 == 0:
                        out.append(offset + at // 4)
                        at = column.find(needle, at + 4)
                    else:
                        at = column.find(needle, at + 1)
    return out


_PID = struct.Struct("=I")  # a pid as _pid_column holds it
_PID_COLUMNS: OrderedDict[str, bytes] = OrderedDict()  # segment id → its pid column, the latest used last
_PID_COLUMNS_KEPT = 64
_pid_columns_lock = threading.Lock()


def _pid_column(reader, count: int) -> bytes:
    """A segment's pid column as unsigned 32-bit integers in this machine's order (the column's own type),
    kept (a segment never changes): an edit's write reads only the small segments written since."""
    key = segment_id(reader)
    with _pid_columns_lock:
        column = _PID_COLUMNS.get(key)
        if column is not None and len(column) == _PID.size * count:
            _PID_COLUMNS.move_to_end(key)
            return column
    column = array("I", _column_ints(reader, "pid", count)).tobytes()
    with _pid_columns_lock:
        _PID_COLUMNS[key] = column
        while len(_PID_COLUMNS) > _PID_COLUMNS_KEPT:
            _PID_COLUMNS.popitem(last=False)
    return column


def _column_ints(reader, name: str, count: int) -> list[int]:
    """An unsigned integer column read in one piece (see raw_column; paid on every searcher swap).
    Unsigned numbers are stored as they are."""
    field = reader.schema[name]
    as_stored = isinstance(field, COLUMN) or (getattr(field, "numtype", None) is int and not field.signed)
    if not as_stored:
        return list(reader.column_reader(name))
    column = reader.column_reader(name, translate=False)
    code: Any = getattr(column, "_typecode", "")  # struct codes; these four mean the same to array
    if code in ("B", "H", "I", "Q") and getattr(column, "_count", None) == count:
        raw = patches.raw_column(column, array(code).itemsize)
        if raw is not None:
            values = array(code, raw)
            if sys.byteorder == "little":
                values.byteswap()  # Whoosh packs big-endian ("!")
            return values.tolist()
    return list(column)
