"""The Whoosh index: derived from the store, rebuilt whenever it cannot be trusted.

Only the paper id is stored; text is read from SQLite, never re-read per hit. Every write goes through
`Index.write()` (Whoosh allows one writer), and the index records the store revision it has seen, so
changes made while it was closed or broken are caught up on the next open.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
import threading
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from whoosh import index as windex
from whoosh import qparser, query, scoring
from whoosh.analysis import StandardAnalyzer
from whoosh.columns import NumericColumn
from whoosh.fields import COLUMN, ID, KEYWORD, NUMERIC, TEXT, Schema
from whoosh.searching import Searcher
from whoosh.writing import NO_MERGE, SegmentWriter

from readinglist.analysis import FastStemAnalyzer
from readinglist.ranking import (
    Ranker,
    forget_fuzzy_automata,
    patch_whoosh_fuzzy,
    patch_whoosh_lengths,
    ranked,
    raw_column,
)
from readinglist.results import QueryError, SearchResult
from readinglist.store import STATES, NewPaper, Paper

patch_whoosh_lengths()  # before any writer or reader exists (see ranking.patch_whoosh_lengths)
patch_whoosh_fuzzy()

SCHEMA_VERSION = 5  # 2: FastStemAnalyzer; 3: the pid column; 4: non-compound segments; 5: pid a bare column,
# year without trie terms (12% fewer postings to write: pid was never searched, and year ranges match exact
# values, see ranking.Ranker._numeric_range)
BULK_PROCS_MIN_DOCS = 2000  # below this, starting writer processes costs more time than it saves
# ...but with a window open, time is not the point: a writer in the window's process sorts its postings in
# one call that holds the interpreter lock (a 517-paper import froze the window for 140 ms)
BULK_PROCS_MIN_DOCS_WINDOW = 100
TEXT_FIELDS = ["title", "abstract", "authors", "tags", "note"]
FIELD_ALIASES = {"author": "authors", "tag": "tags"}
KNOWN_FIELDS = {
    "title",
    "abstract",
    "authors",
    "author",
    "tags",
    "tag",
    "note",
    "venue",
    "year",
    "state",
    "id",
}
TITLE_BOOST = 3.0


# Segments are written as separate files, not Whoosh's default compound file: reading a compound segment
# copies each of its files into memory (measured at 94k papers: 186 MB on the first search).
def make_schema() -> Schema:
    stem = FastStemAnalyzer()
    names = StandardAnalyzer(stoplist=None, minsize=1)
    return Schema(
        id=ID(stored=True, unique=True),
        pid=COLUMN(NumericColumn("I")),  # docnum → paper id without stored reads; never searched
        title=TEXT(analyzer=stem, field_boost=TITLE_BOOST),
        abstract=TEXT(analyzer=stem),
        authors=TEXT(analyzer=names),
        tags=KEYWORD(commas=True, lowercase=True, scorable=True),
        note=TEXT(analyzer=stem),
        venue=TEXT(analyzer=names),
        year=NUMERIC(int, bits=16, signed=False, shift_step=0),
        state=ID,
    )


def schema_fingerprint(schema: Schema) -> str:
    # names and types only (reprs carry memory addresses); bump SCHEMA_VERSION when an analyzer changes
    desc = [(name, type(f).__name__, getattr(f, "field_boost", 1.0)) for name, f in schema.items()]
    return hashlib.sha1(json.dumps([SCHEMA_VERSION, desc], default=str).encode()).hexdigest()[:16]


def _document(
    pid: int, title: str, abstract: str, authors: list[str], tags: list[str], note: str, venue: str,
    year: int | None, state: str,
) -> dict[str, object]:  # fmt: skip
    doc: dict[str, object] = {
        "id": str(pid),
        "pid": pid,
        "title": title,
        "abstract": abstract,
        "authors": " ; ".join(authors),
        "tags": ",".join(tags),
        "note": note,
        "venue": venue,
        "state": state,
    }
    if year:
        doc["year"] = year
    return doc


def document(p: Paper) -> dict[str, object]:
    return _document(p.id, p.title, p.plain_abstract, p.authors, p.tags, p.note, p.venue, p.year, p.state)


def new_document(paper_id: int, p: NewPaper) -> dict[str, object]:
    """The document of a just-imported paper, from what the import prepared (no read-back from SQLite)."""
    return _document(paper_id, p.auto_title, p.plain_abstract, p.authors, p.tags, "", p.venue, p.year, "unread")


def _new_writer(ix: windex.Index, expected: int = 0, procs_from: int = BULK_PROCS_MIN_DOCS) -> SegmentWriter:
    """From `procs_from` documents on, Whoosh's multi-process writer indexes batches in worker
    processes, each into its own segment (no merge at commit): on two cores that is most of an import's
    indexing time. Segments are never compound (see make_schema)."""
    if expected >= procs_from:  # two, even on one core: the point may be to keep the work off this process
        return ix.writer(procs=2, multisegment=True, limitmb=128, batchsize=256, compound=False)
    return ix.writer(limitmb=128, compound=False)


MERGE_FACTOR = 4  # this many segments of one size class are merged into one
MERGE_LIMITS = (4, 16, 64, 256, 1024)  # the size classes: segments under this many documents


def segments_to_merge(segments: list) -> list:
    """Size-tiered, as Lucene's policy: once MERGE_FACTOR segments are under a class's limit, they are
    merged. An edit writes a one-document segment; merging rewrites each document about once per class,
    so the cost stays small and a big segment (an import) is never rewritten for an edit. Whoosh's
    MERGE_SMALL could rewrite a 517-paper segment on a tag change; Whoosh merges at ~4 ms a document."""
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


# ---- query parsing ----------------------------------------------------------------------------------

FUZZY_PREFIX = 3  # fuzzy terms keep their first letters: 3.6 s → 0.26 s for a typo'd word at 94k papers
_FUZZY_RE = re.compile(r"(?<=\w)~(\d)?(?![\d/])")
_RANGE_RE = re.compile(r"\byear:(\d{4})?\s*\.\.(?:\s*(\d{4}))?")
_FIELD_RE = re.compile(r'(?<![\w"\\])([A-Za-z_]+):(?=[^\s])')


def preprocess(text: str) -> str:
    """Our shorthand into Whoosh syntax: year:2020..2024 → year:[2020 TO 2024], quotes balanced."""
    text = _RANGE_RE.sub(lambda m: "year:[" + " ".join(x for x in (m.group(1), "TO", m.group(2)) if x) + "]", text)
    if "~" in text:
        text = _FUZZY_RE.sub(lambda m: f"~{m.group(1) or 1}/{FUZZY_PREFIX}", text)
    if text.count('"') % 2:
        text += '"'  # an unfinished phrase (still being typed) is read as if closed
    outside = re.sub(r'"[^"]*"', '""', text)
    for m in _FIELD_RE.finditer(outside):
        name = m.group(1).lower()
        if name not in KNOWN_FIELDS:
            known = "title, abstract, author, tag, note, venue, year, state"
            raise QueryError(f"unknown field “{m.group(1)}:” — use one of {known}")
    state = re.search(r"\bstate:(\S+)", outside)
    if state and state.group(1).lower().strip('"') not in STATES:
        raise QueryError(f"state:{state.group(1)} — use state:unread, state:skimmed or state:read")
    # field names are case-insensitive for the user
    return _FIELD_RE.sub(lambda m: m.group(1).lower() + ":", text) if _FIELD_RE.search(text) else text


def make_parser(schema: Schema) -> qparser.QueryParser:
    parser = qparser.MultifieldParser(TEXT_FIELDS, schema, group=qparser.AndGroup)
    parser.add_plugin(qparser.FuzzyTermPlugin())
    parser.add_plugin(qparser.GtLtPlugin())
    parser.add_plugin(qparser.FieldAliasPlugin({"authors": ["author"], "tags": ["tag"]}))
    return parser


# ---- the index --------------------------------------------------------------------------------------


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
        self.before_write: Callable[[], None] | None = None  # called with the write lock held, before writing
        # set while a writer process keeps the index (see index_writer): imports then index in Whoosh's
        # writer processes from BULK_PROCS_MIN_DOCS_WINDOW papers on, and leave merging to that process
        self.offloaded = False
        self.notify = notify or (lambda message: None)
        self.read_only = read_only
        self.schema = make_schema()
        self.fingerprint = schema_fingerprint(self.schema)
        self.parser = make_parser(self.schema)
        self._write_lock = threading.RLock()
        self._search_lock = threading.RLock()
        self._searcher: Searcher | None = None
        self._pids: list[int] | None = None  # docnum → paper id for the current searcher
        self._ranker: Ranker | None = None  # scores queries for the current searcher
        self._cache: dict[tuple[str, int | None], SearchResult] = {}
        self.ix: windex.Index | None = None
        self.rev = -1

    # ---- opening, validating, rebuilding ----

    @property
    def state_file(self) -> Path:
        return self.folder / "readinglist-index.json"

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
        try:
            self.ix = windex.open_dir(str(self.folder))
            with self.ix.searcher() as s:
                s.doc_count()
        except Exception as exc:  # whoosh raises many kinds for a damaged index
            self.notify(f"The search index is damaged ({type(exc).__name__}); rebuilding it.")
            self.ix = None
            return False
        self.rev = int(state.get("rev", -1))
        return True

    def rebuild(self, papers: Iterable[Paper], rev: int, total: int | None = None) -> None:
        """A fresh index built beside the old one and swapped in, so a failure leaves the old one."""
        self.close()
        tmp = self.folder.with_name(self.folder.name + ".new")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        ix = windex.create_in(str(tmp), self.schema)
        writer = _new_writer(ix, total or 0)
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

    def _save_state(self, rev: int) -> None:
        self.rev = rev
        tmp = self.state_file.with_suffix(".tmp")
        tmp.write_text(json.dumps({"schema": self.fingerprint, "rev": rev}))
        tmp.replace(self.state_file)

    def close(self) -> None:
        with self._search_lock:
            if self._searcher is not None:
                self._searcher.close()
                self._searcher = None
            self._pids = None
            self._ranker = None
            self._cache.clear()
        if self.ix is not None:
            self.ix.close()
            self.ix = None

    # ---- writing: one place ----

    @contextmanager
    def write(self, rev: int, merge: bool = True) -> Iterator[SegmentWriter]:
        """The single writer for a few documents: commits, records the revision, swaps in a new searcher."""
        if self.ix is None:
            raise RuntimeError("index not open")
        with self._write_lock:
            self._before_write()
            writer = _new_writer(self.ix)
            try:
                yield writer
            except BaseException:
                writer.cancel()
                raise
            self._commit(writer, rev, merge)

    def _before_write(self) -> None:
        if self.before_write is not None:
            self.before_write()

    def _commit(self, writer: SegmentWriter, rev: int, merge: bool = True) -> None:
        writer.commit(mergetype=merge_small_segments if merge else NO_MERGE)
        self._save_state(rev)
        if self.keep_searcher:
            self._swap_searcher()

    def merge_small(self) -> bool:
        """Merge small segments if enough have gathered (see segments_to_merge); True if it did."""
        if self.ix is None:
            return False
        with self._write_lock:
            if not segments_to_merge(self.ix._segments()):
                return False
            self._before_write()
            writer = _new_writer(self.ix)
            writer.commit(mergetype=merge_small_segments)
            if self.keep_searcher:
                self._swap_searcher()
            return True

    def reload(self, rev: int | None = None) -> None:
        """Another process wrote the index (see index_writer): search what it wrote from now on."""
        if rev is not None:
            self.rev = rev
        if self.ix is not None and self.keep_searcher:
            self._swap_searcher()

    def _swap_searcher(self) -> None:
        """Open and warm the next searcher here, on the writing thread, then swap it in: the next search
        does not pay for opening it. A new searcher, not Searcher.refresh(): refresh() can keep a segment's
        old deletions and return both versions of an updated document."""
        fresh, pids, ranker = self._open_searcher()
        with self._search_lock:
            old = self._searcher
            self._searcher, self._pids, self._ranker = fresh, pids, ranker
            self._cache.clear()
        if old is not None:
            old.close()

    def _open_searcher(self) -> tuple[Searcher, list[int], Ranker]:
        """A searcher with what every search needs from it: docnum → paper id, and its ranker."""
        assert self.ix is not None
        searcher = self.ix.searcher(weighting=scoring.BM25F())
        return searcher, _read_pids(searcher), Ranker(searcher)

    def update(self, papers: Sequence[Paper], rev: int, merge: bool = True) -> None:
        """Replace these papers' documents: a tag, note or state change touches one document."""
        with self.write(rev, merge) as writer:
            for p in papers:
                writer.update_document(**document(p))

    def begin_bulk(self, expected: int) -> SegmentWriter:
        """A writer for many new documents, held until commit_bulk or cancel_bulk (the one write lock is
        taken here). From BULK_PROCS_MIN_DOCS documents on (BULK_PROCS_MIN_DOCS_WINDOW while offloaded),
        Whoosh's writer processes do the indexing."""
        if self.ix is None:
            raise RuntimeError("index not open")
        self._write_lock.acquire()
        try:
            self._before_write()
            return _new_writer(self.ix, expected, BULK_PROCS_MIN_DOCS_WINDOW if self.offloaded else BULK_PROCS_MIN_DOCS)
        except BaseException:
            self._write_lock.release()
            raise

    def commit_bulk(self, writer: SegmentWriter, rev: int) -> None:
        try:
            self._commit(writer, rev, merge=not self.offloaded)
        finally:
            self._write_lock.release()

    def cancel_bulk(self, writer: SegmentWriter) -> None:
        try:
            writer.cancel()
        finally:
            self._write_lock.release()

    def drop_caches(self, terms: bool = True) -> None:
        """Forget cached results (and, with `terms`, the ranker's cached term scores): for measuring."""
        with self._search_lock:
            self._cache.clear()
            if terms and self._searcher is not None:
                self._ranker = Ranker(self._searcher)
                forget_fuzzy_automata()

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
            if self._searcher is None:
                self._searcher, self._pids, self._ranker = self._open_searcher()
            yield self._searcher

    def parse(self, text: str, state: str | None = None, tag: str | None = None) -> query.Query:
        q = self.parser.parse(preprocess(text)) if text.strip() else query.Every()
        if q is query.NullQuery and text.strip():
            raise QueryError("that query has no words to search for")
        for leaf in q.leaves():
            if isinstance(leaf, query.MultiTerm):
                # rank a prefix or fuzzy match by the words it matched (BM25F), not a constant 1 per field
                leaf.constantscore = False
        filters: list[query.Query] = []
        if state:
            filters.append(query.Term("state", state))
        if tag:
            filters.append(query.Term("tags", tag.lower()))
        return query.And([q, *filters]) if filters else q

    def search(
        self, text: str, limit: int | None = None, state: str | None = None, tag: str | None = None
    ) -> SearchResult:
        """Matches in rank order (Whoosh's BM25F, computed by `Ranker`): all of them, or the best `limit`."""
        try:
            q = self.parse(text, state, tag)
        except QueryError:
            raise
        except Exception as exc:  # whoosh's parser rejects some odd syntax
            raise QueryError(f"cannot read that query ({exc})") from None
        # keyed by what the query means: closing a phrase's quote or typing a space finds it cached
        key = (repr(q), limit)
        with self._search_lock:
            cached = self._cache.get(key)
        if cached is not None:
            return cached if cached.query == text else replace(cached, query=text)
        with self.searching() as s:
            assert self._ranker is not None
            try:
                found = self._ranker.evaluate(q)
                top = ranked(found, limit)
            except QueryError:
                raise
            except Exception as exc:  # e.g. a phrase on a field without positions
                raise QueryError(f"cannot search for that ({exc})") from None
            ids = list(map((self._pids or []).__getitem__, top))
            scores = list(map(found.__getitem__, top))
            terms = self._highlight_terms(q, s, self._ranker.expanded)
        result = SearchResult(ids, scores, text, terms)
        with self._search_lock:
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[key] = result
        return result

    def _highlight_terms(self, q: query.Query, s: Searcher, expanded: dict[query.Query, set[bytes]]) -> set[str]:
        """The analysed words a hit shows for this query: terms, phrase words, and the expansions of
        prefix, wildcard and fuzzy terms (capped, so a broad prefix cannot stall the search), as the ranker
        found them where it did."""
        terms: set[str] = set()
        reader = s.reader()
        try:
            for leaf in q.leaves():
                if getattr(leaf, "fieldname", None) not in {"title", "abstract", "authors", "note"}:
                    continue
                if isinstance(leaf, query.MultiTerm):
                    words = expanded.get(leaf)
                    for i, btext in enumerate(sorted(words) if words is not None else leaf._btexts(reader)):
                        if i >= 200:
                            break
                        terms.add(btext.decode("utf-8") if isinstance(btext, bytes) else str(btext))
                elif isinstance(leaf, query.Phrase):
                    terms.update(str(w) for w in leaf.words)
                elif isinstance(leaf, query.Term):
                    text = leaf.text
                    terms.add(text.decode("utf-8") if isinstance(text, bytes) else str(text))
        except Exception:  # highlighting is a courtesy; never fail a search over it
            pass
        return terms

    def more_like(self, paper_id: int, text: str, top: int = 5, cancel: threading.Event | None = None) -> list[int]:
        """Related papers: Whoosh's key terms of this paper's text, searched over the abstracts.

        `cancel` stops the search part-way (returning []): related papers are a courtesy, and a search the
        user is waiting for must not share the CPU with one."""
        with self.searching() as s:
            docnum = s.document_number(id=str(paper_id))
            if docnum is None or not text.strip():
                return []
            terms = s.key_terms_from_text("abstract", text, numterms=10)
            if not terms or (cancel is not None and cancel.is_set()):
                return []
            q = query.Or([query.Term("abstract", word, boost=weight) for word, weight in terms])

            def check() -> None:
                if cancel is not None and cancel.is_set():
                    raise _Cancelled

            assert self._ranker is not None
            try:
                best = ranked(self._ranker.evaluate(q, check), top + 1)
            except _Cancelled:
                return []
            pids = self._pids or []
            return [pids[d] for d in best if d != docnum][:top]


class _Cancelled(Exception):
    pass


def _read_pids(searcher: Searcher) -> list[int]:
    """The pid column as a list indexed by docnum (an empty index has no column at all)."""
    pids: list[int] = []
    for leaf, _ in searcher.leaf_searchers():
        reader = leaf.reader()
        count = reader.doc_count_all()
        if count == 0:
            continue
        if not reader.has_column("pid"):
            pids.extend([0] * count)  # cannot happen with this schema; keeps docnums aligned
            continue
        pids.extend(_column_ints(reader, "pid", count))
    return pids


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
        raw = raw_column(column, array(code).itemsize)
        if raw is not None:
            values = array(code, raw)
            if sys.byteorder == "little":
                values.byteswap()  # Whoosh packs big-endian ("!")
            return values.tolist()
    return list(column)


_STEM = FastStemAnalyzer()


def highlighter(terms: set[str]) -> Callable[[str], bool]:
    """A word test for the detail pane: does the word's analysed form appear among the query's terms?"""
    lowered = {t.lower() for t in terms}

    def match(word: str) -> bool:
        w = word.lower()
        if w in lowered:
            return True
        return any(tok.text in lowered for tok in _STEM(w))

    return match
