"""The library: what the command line and the window call. Files → importers → store → index → search.

Neither caller runs SQL or touches Whoosh: every operation here keeps the store and the index in step. The
index is opened at the first search (or when the window warms it up), so listing papers needs only SQLite.

Over 400 lines because it is the facade: one short method per operation the CLI and the window share;
the work behind each is in importing, store, index, interest, topics, backup and export.
"""

from __future__ import annotations

import json
import re
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from readinglist import paths
from readinglist.heap import return_freed
from readinglist.papers import (
    STATES,
    DuplicatePair,
    ImportCancelled,
    ImportFailure,
    Merge,
    NothingToLearn,
    Paper,
    QueryError,
    RemovedPaper,
    SearchResult,
    SmartList,
    StoreBusy,
    StoreError,
    TableRow,
    Topic,
    TopicsCancelled,
    TopicsStatus,
    clean_tags,
    describe_view,
    normalise_tags,
    same_tag,
    tag_key,
)
from readinglist.store import now, open_store, unwritable

if TYPE_CHECKING:
    from readinglist.backup import RestoreSummary
    from readinglist.importing import ImportSummary, Progress
    from readinglist.index import Index, IndexUpdater
    from readinglist.interest import InterestRanker, Interests, Ranking, Suggestion
    from readinglist.library_map import LibraryMap
    from readinglist.notes_folder import MergeSummary

__all__ = ["Library"]


CLOSE_WRITE_WAIT = 1.0  # seconds closing waits to write the automatic backup's mark beside another writer
_NO_BUNDLED_CORPUS = "no_bundled_corpus"  # meta: the library began with an import of the reader's own


MIN_SCANNED_WORD = 3  # letters of a word the search read while the index is built looks for (Library.search)


class Library:
    def __init__(
        self,
        data_dir: Path,
        notify: Callable[[str], None] | None = None,
        read_only: bool = False,
        read_only_reason: str | None = None,
    ):
        self.data_dir = Path(data_dir)
        self.notify = notify or (lambda message: None)
        database = self.data_dir / "library.db"
        if not read_only and not database.exists():
            try:
                self.data_dir.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"{self.data_dir}: cannot create the data folder ({exc.strerror})") from None
            why = unwritable(self.data_dir)
            if why:
                raise StoreError(f"{self.data_dir}: cannot create a library here ({why})")
        self.store = open_store(database, read_only=read_only, reason=read_only_reason)
        self.read_only = self.store.read_only
        self.read_only_reason = self.store.read_only_reason
        self._index: Index | None = None
        self._updater: IndexUpdater | None = None
        self._edit_thread = threading.local()  # .on: this thread is inside editing()
        self._index_lock = threading.Lock()  # held while the index opens (it may be rebuilt)
        self._import_lock = threading.Lock()  # one import at a time
        self._background: bool | None = None  # None: write in the caller's thread; else use a writer process?
        self._checkpoint: Callable[[], None] | None = None
        self._interest: InterestRanker | None = None
        self._interest_lock = threading.Lock()
        self._interest_in_child = False

    def start_background_indexing(self, use_process: bool = True) -> None:
        """Apply annotation changes to the index in the background (the window wants this): by a writer
        process, or with use_process=False on a thread of this process."""
        if self.read_only:
            return
        self._background = use_process
        if self._updater is not None:
            self._updater.start_background(use_process)

    def prepare_background_indexing(self) -> None:
        """Start the writer process now rather than at the first edit."""
        if self._updater is not None and self._updater.background:
            self._updater.prepare()

    def settle_index(self) -> None:
        """Every change written and background merges done (benchmarks measure a library at rest)."""
        if self._updater is not None:
            self._updater.settle()

    def flush_index(self, timeout: float | None = None) -> bool:
        """Wait until every change handed to the background is in the index; False if `timeout` passed."""
        return self._updater.flush(timeout) if self._updater is not None else True

    def index_writer_pid(self) -> int | None:
        """The background writer process's id while one runs (`readinglist check` asks)."""
        return self._updater.writer_pid if self._updater is not None else None

    def set_search_checkpoint(self, checkpoint: Callable[[], None] | None) -> None:
        """A function every search calls between blocks of work; it may wait (the window paints meanwhile)."""
        self._checkpoint = checkpoint
        if self._index is not None:
            self._index.set_checkpoint(checkpoint)

    @classmethod
    def open(
        cls,
        data_dir: Path | str | None = None,
        notify: Callable[[str], None] | None = None,
        seed: bool = True,
        read_only: bool = False,
        defer_index: bool = False,
        read_only_reason: str | None = None,
    ) -> Library:
        """Open (creating on first use, with the bundled corpus) and make the index trustworthy — now, or
        with defer_index at its first use."""
        lib = cls(paths.data_dir(data_dir), notify=notify, read_only=read_only, read_only_reason=read_only_reason)
        new = not lib.read_only and lib.is_new()
        if new and not seed:
            # the reader's first command imports their own papers: the library never takes the bundled corpus,
            # even when that import fails (the next command found it empty and took it: a trial)
            lib.store.set_meta(_NO_BUNDLED_CORPUS, "1")
        if new and seed:
            lib.import_files([paths.bundled_corpus()], bundled=True)
        elif not defer_index:
            lib.sync_index()
        return lib

    def is_new(self) -> bool:
        """Never used: no paper, no source, and not begun without the bundled corpus (see `open`)."""
        return self.store.is_empty() and self.store.meta(_NO_BUNDLED_CORPUS) is None

    def close(self) -> None:
        """Write what is pending to the index (for a moment: the journal keeps the rest for the next start),
        keep today's automatic backup of the annotations, close everything."""
        if not self.read_only:
            from readinglist.backup import auto_backup  # (backup.py and gzip load at the first backup)

            self.store.set_write_wait(CLOSE_WRITE_WAIT)  # not a command line's long wait for an import
            try:
                auto_backup(self.store, self.data_dir)
            except StoreBusy:  # another writer has the library: a later close keeps the backup
                pass
            except (OSError, StoreError) as exc:  # a backup is a courtesy: never fail a close over it
                self.notify(f"The automatic backup of your annotations could not be written ({exc}).")
        if self._updater is not None:
            self._updater.stop()
        if self._index is not None:
            self._index.close()
        self.store.close()

    # ---- keeping the index in step ----

    @property
    def index(self) -> Index:
        """The Whoosh index, opened (and rebuilt or caught up) on first use: listing papers needs only
        SQLite, so the window paints before Whoosh is even imported."""
        if self._index is None:
            self._open_index()
        assert self._index is not None
        return self._index

    @property
    def updater(self) -> IndexUpdater:
        """The one writer of the index (opened with it)."""
        if self._updater is None:
            self._open_index()
        assert self._updater is not None
        return self._updater

    def _open_index(self) -> None:
        with self._index_lock:
            if self._index is not None:
                return
            from readinglist.index import Index, IndexUpdater

            tell = self._tell  # not self.notify itself: a caller may replace that later
            index = Index(self.data_dir / "index", notify=tell, read_only=self.read_only)
            updater = IndexUpdater(index, self.store, tell, writable=not self.read_only)
            if not updater.catch_up():  # read-only, and its index missing or made by another version
                tell("The library is read-only and its search index is missing or out of date: searching a "
                     "temporary index built now.")  # fmt: skip
                index = Index(Path(tempfile.mkdtemp(prefix="readinglist-index-")), notify=tell)
                updater = IndexUpdater(index, self.store, tell)
                updater.catch_up()
            index.set_checkpoint(self._checkpoint)
            if self._background is not None:
                updater.start_background(self._background)
            self._index, self._updater = index, updater

    def _tell(self, message: str) -> None:
        self.notify(message)

    def highlighter(self, terms: set[str]) -> Callable[[str], bool]:
        """A word test for a search's terms (the detail pane highlights what matched); its `spans(text)`
        gives where the search's phrases stand, which markup highlights whole."""
        from readinglist.index import highlighter

        return highlighter(terms)

    def sync_index(self) -> None:
        """Make sure the index is open and trustworthy now (rather than at the first search)."""
        self.index  # noqa: B018 - the property opens it

    def warm_search(self) -> None:
        """Open the index and read the words spelling corrections come from, now (a worker's job at
        start-up), rather than in the first search with a misspelt word."""
        self.index.warm()

    def set_write_wait(self, seconds: float | None) -> None:
        """How long this thread's edits wait for another writer before StoreBusy (Store.set_write_wait)."""
        self.store.set_write_wait(seconds)

    def wait_for_writers(self, seconds: float, say: Callable[[str], None]) -> None:
        """This thread's edits wait up to `seconds` for another writer, and say once that they wait: an import
        holds the library for the whole file (minutes, for a large one), and a command-line edit beside one
        failed after 30 s ("busy … try again"; a trial)."""
        self.store.set_write_wait(seconds)
        self.store.on_wait = lambda: say(
            "Waiting for the library: another readinglist process is writing it (an import)… Ctrl+C stops."
        )

    @contextmanager
    def editing(self, wait: float | None = None) -> Iterator[None]:
        """Edits made inside as one transaction, begun only once the library can be written: StoreBusy, and
        nothing done, when another writer (an import) holds it longer than `wait` seconds (else this thread's
        write wait). The index is told after the commit, when what changed can be read."""
        outer = not getattr(self._edit_thread, "on", False)
        with self.store.transaction(wait=wait):
            self._edit_thread.on = True
            try:
                yield
            finally:
                self._edit_thread.on = not outer
        if outer and self._updater is not None:
            self._updater.changed()

    def _reindex(self, ids: Sequence[int]) -> None:
        """The store's journal has these changes; the index, once open, catches up from it (after an edit's
        transaction commits, not inside it: the index never holds what the library may yet roll back)."""
        if ids and self._updater is not None and not getattr(self._edit_thread, "on", False):
            self._updater.changed()

    # ---- importing ----

    def import_files(
        self,
        files: Sequence[Path | str],
        progress: Progress | None = None,
        cancel: threading.Event | None = None,
        bundled: bool = False,
        failures: list[ImportFailure] | None = None,
    ) -> list[ImportSummary]:
        """Import each file in its own transaction (see importing.import_files; with `failures`, a bad file
        is added to it and the next files are imported). One import at a time, across processes too: a
        second waits for the first (cancellable), and says so."""
        from whoosh.util.filelock import FileLock

        if self.read_only:
            raise StoreError(f"cannot import: {self.read_only_reason or 'the library is open read-only'}")
        with self._import_lock:
            lock = FileLock(str(self.data_dir / "import.lock"))
            if not lock.acquire():
                self.notify("Waiting for another import into this library to finish…")
                if progress:
                    progress(0, 0, "Waiting for another import to finish…")
                while not lock.acquire():
                    if cancel is not None and cancel.wait(0.2):
                        raise ImportCancelled("waiting for another import")
                    time.sleep(0.2 if cancel is None else 0)
            try:
                from readinglist import importing  # not at start-up: the window opens without the importers

                return importing.import_files(
                    self.store, self.updater, files, progress, cancel, bundled, failures=failures
                )
            finally:
                lock.release()

    # ---- backups ----

    def backup(self, path: Path | str) -> int:
        """Every annotation, with the papers it belongs to, in one file; returns how many papers."""
        from readinglist.backup import write_backup

        return write_backup(self.store, Path(path))

    def restore(self, path: Path | str, overwrite: bool = False) -> RestoreSummary:
        """A backup's annotations (and the papers the library lacks) brought into this library. Today's
        automatic backup is brought up to date first, so that what the restore changes can be put back."""
        if self.read_only:
            raise StoreError(f"cannot restore: {self.read_only_reason or 'the library is open read-only'}")
        from readinglist.backup import auto_backup
        from readinglist.backup import restore as restore_backup

        try:
            auto_backup(self.store, self.data_dir)
        except (OSError, StoreError) as exc:
            self.notify(f"The automatic backup before the restore could not be written ({exc}).")
        summary = restore_backup(self, Path(path), overwrite)
        self._reindex([1])  # the journal has every paper the restore touched
        return summary

    def import_or_merge(
        self,
        paths: Sequence[Path | str],
        progress: Progress | None = None,
        cancel: threading.Event | None = None,
        failures: list[ImportFailure] | None = None,
    ) -> list[ImportSummary | MergeSummary]:
        """What the window's import does with what it is given: a notes folder, or a note of one, merged back
        (merge_notes); any other file imported (import_files; the files between two notes folders together).
        In the order given. With `failures`, a file that cannot be imported or merged is added there and the
        rest go on."""
        from readinglist.notes_folder import is_notes

        out: list[ImportSummary | MergeSummary] = []
        files: list[Path] = []
        notes: list[Path] = []  # note files chosen together merge as one (19 files chosen: one line, not 19)

        def merge() -> None:
            try:
                out.append(self.merge_notes(notes))
            except ImportFailure as exc:
                if failures is None:
                    raise
                failures.append(exc)
            notes.clear()

        for path in map(Path, paths):
            if is_notes(path):
                if files:
                    out += self.import_files(files, progress, cancel, failures=failures)
                    files = []
                if path.is_dir() and notes:
                    merge()
                notes.append(path)
                if path.is_dir():
                    merge()
            else:
                if notes:
                    merge()
                files.append(path)
        if notes:
            merge()
        if files:
            out += self.import_files(files, progress, cancel, failures=failures)
        return out

    def import_or_merge_in_child(
        self,
        paths: Sequence[Path | str],
        progress: Progress | None = None,
        cancel: threading.Event | None = None,
        failures: list[ImportFailure] | None = None,
    ) -> list[ImportSummary | MergeSummary]:
        """import_or_merge in a child process (see child_process): the window's thread keeps the interpreter
        to itself while a large file is parsed, matched and indexed. The child opens this library as the
        command line would; what it wrote reaches this process as another process's changes do (the store
        read afresh, the index's searcher swapped)."""
        if self.read_only:
            raise StoreError(f"cannot import: {self.read_only_reason or 'the library is open read-only'}")
        from readinglist import child_process

        done, failed = child_process.run(
            _import_or_merge, (str(self.data_dir), [str(p) for p in paths], failures is not None), progress, cancel,
            name="readinglist-import", cancelled=lambda: ImportCancelled("the import did not stop: ended"),
        )  # fmt: skip
        if failures is not None:
            failures += failed
        return done

    def merge_notes(self, paths: Sequence[Path | str]) -> MergeSummary:
        """A notes folder (export --format obsidian), or some of its files, merged back: see notes_folder."""
        from readinglist.notes_folder import merge

        if self.read_only:
            raise StoreError(f"cannot merge notes: {self.read_only_reason or 'the library is open read-only'}")
        summary = merge(self, [Path(p) for p in paths])
        if summary.changed:
            self._reindex([1])  # the journal has every paper the merge touched
        return summary

    # ---- reading and searching ----

    def search(
        self,
        text: str = "",
        limit: int | None = None,
        state: str | None = None,
        tag: str | None = None,
        topic: int | None = None,
        within: str = "",
        duplicates: bool = False,
        typing: bool = False,
        wait: bool = True,
    ) -> SearchResult:
        """Matches in rank order; with no query, every paper (filtered) in library order (the queued ones by
        priority first: a reader's queue is read P1 first). `topic` (the
        sidebar's choice) and the query's own topic: clauses keep the papers of those topics. `within` is a
        smart list's query: the matches are searched among its papers. `duplicates`: only the papers of the
        possible duplicates (without a query, each pair's papers together). `typing`: the text is being typed
        (Index.search: its last word may be read as a word's start). `wait=False`: an index that is being opened
        or must be rebuilt first is not waited for; the store's text is read instead (SearchResult.provisional,
        the window's search field: its warm-up opens the index and searches again)."""
        if duplicates:
            pairs = self.duplicate_ids()
            if not text.strip():
                return SearchResult(pairs, [], text)
            found = self.search(text, state=state, tag=tag, topic=topic, within=within, typing=typing, wait=wait)
            return self._among(found, set(pairs))
        words, wanted, unwanted = self._topic_filters(text, topic)
        if not words.strip() and not within.strip():
            ids = self.store.ordered_ids(
                "priority" if state == "queued" else "added",  # the reading queue: P1 first, then as queued
                state=state,
                tag=tag,
                topics=None if wanted is None else sorted(wanted),
                not_topics=sorted(unwanted),
            )
            return SearchResult(ids[:limit] if limit else ids, [], text)
        if not wait and not self.index_ready():  # being opened, or to be rebuilt (minutes): no wait
            return self._search_unindexed(text, words, limit, state, tag, wanted, unwanted, within)
        index = self.index
        behind = self.updater.ensure_current()  # see every change committed before this search
        if wanted is None and not unwanted:
            result = index.search(words, limit=limit, state=state, tag=tag, within=within, typing=typing)
        else:
            # topics live in SQLite, not in the index (a recompute would rewrite every document): rank every
            # match, then keep those of the topics
            found = index.search(words, state=state, tag=tag, within=within, typing=typing)
            keep = self.store.papers_in_topics(sorted(wanted)) if wanted is not None else None
            drop = self.store.papers_in_topics(sorted(unwanted))
            scores = found.scores or [0.0] * len(found.ids)
            matched = found.matched or [0] * len(found.ids)
            kept = [
                (i, sc, m)
                for i, sc, m in zip(found.ids, scores, matched, strict=True)
                if (keep is None or i in keep) and i not in drop
            ][:limit]  # (a slice to None keeps all)
            result = replace(
                found,
                ids=[i for i, _, _ in kept],
                scores=[sc for _, sc, _ in kept],
                matched=[m for _, _, m in kept] if found.matched else [],
                query=text,
            )
        if behind:
            result = replace(result, unindexed=behind)
        return result

    def index_ready(self) -> bool:
        """Whether the index can be used now, without waiting for another thread to open it or for a rebuild
        (a worker's question: it may read the index's state file)."""
        if self._index is not None:
            return True
        if self._index_lock.locked():
            return False
        from readinglist.index import Index

        return Index.current(self.data_dir / "index")

    def _search_unindexed(
        self,
        text: str,
        words: str,
        limit: int | None,
        state: str | None,
        tag: str | None,
        wanted: set[int] | None,
        unwanted: set[int],
        within: str,
    ) -> SearchResult:
        """The search while another thread opens the index: the store's text read through (scan_search),
        marked provisional. A reader typing during a rebuild sees papers at once, not after minutes."""
        from readinglist.scan_search import LooseQuery, read_query, scan

        q = read_query(words)
        if within.strip():  # a saved list's query: each part of it with each of the typed query's
            inner = read_query(within)
            if inner and q:
                q = LooseQuery([g + h for g in q.groups for h in inner.groups])
            elif inner:
                q = inner
        among: set[int] | None = None
        if state or tag:
            among = set(self.store.ordered_ids(state=state, tag=tag))
        if wanted is not None or unwanted:
            ids = set(
                self.store.ordered_ids(topics=None if wanted is None else sorted(wanted), not_topics=sorted(unwanted))
            )
            among = ids if among is None else among & ids
        # a word's first letters (a search runs at each key typed) would read every paper for most of them; a
        # query of filters alone ("tag:theory", a list's) is the papers they keep, as the index gives them
        counted = q.words
        typed_on = bool(counted) and all(len(w) < MIN_SCANNED_WORD for w in counted) and len(q.groups) == 1
        typed_on = typed_on and all(t.field is None and not t.negated for t in q.groups[0])
        every = True
        if not q:
            found = [(pid, 0) for pid in (sorted(among) if among is not None else self.store.all_ids())]
        elif typed_on:
            found = []
        else:
            found, every = scan(self.store.search_rows(), q, among)
        found = found[:limit]
        count = max((len(q.counted(g)) for g in q.groups), default=0)
        partial = bool(found) and not every
        note = ("The search index is being built: these papers were found by reading every paper, titles first,"
                " not ranked yet. The search runs again once the index is ready.")  # fmt: skip
        if typed_on:
            note = (f"The search index is being built: type {MIN_SCANNED_WORD} letters or more of a word to search"
                    " meanwhile.")  # fmt: skip
        return SearchResult(
            [pid for pid, _ in found],
            [float(n) for _, n in found],
            text,
            terms=set(counted),
            partial=partial,
            matched=[n for _, n in found] if partial else [],
            word_count=count if partial else 0,
            notes=[note],
            provisional=True,
        )

    @staticmethod
    def _among(found: SearchResult, ids: set[int]) -> SearchResult:
        """The results that are among these papers, in their order."""
        at = [n for n, i in enumerate(found.ids) if i in ids]
        scores = [found.scores[n] for n in at] if found.scores else []
        matched = [found.matched[n] for n in at] if found.matched else []
        return replace(found, ids=[found.ids[n] for n in at], scores=scores, matched=matched)

    def _topic_filters(self, text: str, topic: int | None) -> tuple[str, set[int] | None, set[int]]:
        """The query without its topic: clauses, the topics a paper must be in (None: any), those it must not."""
        wanted: set[int] | None = {topic} if topic is not None else None
        if "topic:" not in text.lower():
            return text, wanted, set()
        from readinglist.index.query import split_topics

        words, clauses = split_topics(text)
        unwanted: set[int] = set()
        for value, negated in clauses:
            ids = self.find_topics(value)
            if negated:
                unwanted |= ids
            else:
                wanted = ids if wanted is None else wanted & ids
        return words, wanted, unwanted

    def find_topics(self, value: str) -> set[int]:
        """The topics `topic:value` means: the topic with that id, or those with a word of their name starting
        with it (topic:graph, topic:"sparse attention")."""
        value = value.strip().strip('"').strip()
        topics = self.store.topics()
        if not topics:
            raise QueryError("topic: needs topics, and none are computed yet (readinglist topics computes them)")
        if value.isdigit():
            if any(t.id == int(value) for t in topics):
                return {int(value)}
            raise QueryError(f"there is no topic {value}; readinglist topics lists them")
        pattern = re.compile(r"(?<!\w)" + re.escape(value.lower()))
        found = {t.id for t in topics if value and pattern.search(t.label.lower())}
        if not found:
            raise QueryError(f"no topic's name has “{value}”; readinglist topics lists them")
        return found

    def papers(self, ids: Sequence[int]) -> list[Paper]:
        return self.store.papers(ids)

    def paper(self, paper_id: int) -> Paper | None:
        return self.store.paper(paper_id)

    def rows(self, ids: Sequence[int]) -> dict[int, TableRow]:
        """Table rows (title, venue, year, state, tags) without abstracts: cheap enough to fetch by page."""
        return self.store.rows(ids)

    def ordered_ids(
        self,
        sort: str,
        descending: bool = False,
        state: str | None = None,
        tag: str | None = None,
        topic: int | None = None,
    ) -> list[int]:
        return self.store.ordered_ids(sort, descending, state=state, tag=tag, topics=None if topic is None else [topic])

    def has_authors(self) -> bool:
        return self.store.has_authors()

    def empty_columns(self, ids: Sequence[int], columns: Iterable[str]) -> set[str]:
        """Of these table columns ("authors", "venue", "year", "tags"), those none of these papers has a value
        for (the table gives their room to the titles)."""
        return self.store.empty_columns(ids, columns)

    def tag_names(self) -> list[str]:
        return [name for name, _ in self.store.tag_counts()]

    def tags_of(self, ids: Sequence[int]) -> dict[int, list[str]]:
        return self.store.tags_of(ids)

    def resolve(self, uid: str) -> int:
        """The paper a command names: by its id as shown (or an unambiguous start of it), else by its citation
        key ("Alexander:2009do", "vaswani2017attention"); StoreError says why neither names one (no paper,
        ambiguous, removed). A key named whole comes before an id it happens to start ("dead2019")."""
        keyed = self.store.id_of_key(uid)
        try:
            pid = self.store.resolve_uid(uid)
        except StoreError:
            if keyed is None:
                raise
            return keyed
        if keyed is not None and keyed != pid and self.store.uids([pid]).get(pid) != uid.strip().lower():
            return keyed
        return pid

    def related(
        self, paper_id: int, top: int = 5, cancel: threading.Event | None = None, wait: bool = True
    ) -> list[int] | None:
        """The papers most like this one. `wait=False`: None while the index is being opened or rebuilt (the
        detail pane asks again later: a worker waiting minutes for it held a thread the window's searches need)."""
        if not wait and not self.index_ready():
            return None
        p = self.store.paper(paper_id)
        if p is None:
            return []
        return self.index.more_like(paper_id, f"{p.title}. {p.plain_abstract}", top=top, cancel=cancel)

    def revision(self) -> int:
        """Moves on with every change to the library, by any process."""
        return self.store.current_rev()

    def changed_elsewhere(self, since: int) -> list[int]:
        """The papers another process (the command line, another window) changed after revision `since`."""
        own = self.store.own_revs
        return [pid for pid, rev in self.store.changes_since(since) if rev not in own]

    def changed_only_here(self, since: int, until: int) -> bool:
        """Was every change after revision `since`, up to `until`, made by this process? (Revisions are
        consecutive: each write takes the next.)"""
        own = self.store.own_revs
        return all(rev in own for rev in range(since + 1, until + 1))

    # ---- the interest ranking (readinglist.interest) ----

    @property
    def interest(self) -> InterestRanker:
        """The interest ranking's features, cached in the data folder's `interest/` (derived data, rebuilt
        whenever it is missing or stale; numpy is imported on first use, never at start-up)."""
        with self._interest_lock:
            if self._interest is None:
                from readinglist.interest import InterestRanker

                self._interest = InterestRanker(
                    self.data_dir / "interest", read_only=self.read_only, in_child=self._interest_in_child
                )
            return self._interest

    def rank_in_child_process(self) -> None:
        """Build and extend a large library's suggestion features in a child process, which saves them, and
        only read the rows back here (the window wants this: its memory stays near what it keeps)."""
        with self._interest_lock:
            self._interest_in_child = True
            if self._interest is not None:
                self._interest.in_child = True

    def prepare_interest(self, cancel: threading.Event | None = None) -> None:
        """Bring the ranking's features up to date now (the window calls this on a worker thread at start-up
        and after an import, so that the first ranking after it is quick)."""
        self.interest.refresh(self.store, cancel)

    def interest_ranking(
        self,
        positive: Sequence[int],
        negative: Sequence[int] = (),
        interests: Interests = "",
        candidates: Sequence[int] | None = None,
        cancel: threading.Event | None = None,
    ) -> Ranking:
        """Papers ranked by predicted interest, best first: `candidates` (default: every paper in neither
        list) scored by a model of the positive papers (read, skimmed, queued, prioritised), the negative
        ones (skipped) and the user's interests: a text, or several (see interests_from_file), together
        weighing as much as the positive papers (interest.query_vector). `ranking.explain(id)` says why any
        paper scored as it did. Safe on a worker thread; the features are brought up to date with the store first."""
        return self.interest.rank(self.store, positive, negative, interests, candidates, self._texts, cancel)

    def suggest(
        self,
        positive: Sequence[int],
        negative: Sequence[int] = (),
        interests: Interests = "",
        limit: int | None = 50,
        candidates: Sequence[int] | None = None,
    ) -> list[Suggestion]:
        """The best `limit` suggestions, each with its score and why: the words and phrases that weighed
        most and the positive papers it is closest to."""
        return self.interest_ranking(positive, negative, interests, candidates).top(limit)

    def marks(self) -> tuple[list[int], list[int]]:
        """The papers the ranking learns from: (positive — read, skimmed, queued or prioritised; negative —
        skipped)."""
        return self.store.interest_marks()

    def interests(self) -> list[str]:
        """The stored "my interests" texts (none: not set)."""
        return self.store.interests()[0]

    def interests_source(self) -> str:
        """Where the stored interests came from: the file they were read from, or '' (typed, or none)."""
        return self.store.interests()[1]

    def set_interests(self, interests: Interests, source: str = "") -> list[str]:
        """Keep these interests (a text, or several: see interests_from_file; empty clears them); every
        suggestion uses them from now on. Returns the texts before, for undo."""
        from readinglist.interest import interest_texts

        if self.read_only:
            raise StoreError(f"cannot set interests: {self.read_only_reason or 'the library is open read-only'}")
        return self.store.set_interests(interest_texts(interests), source if interest_texts(interests) else "")[0]

    def untriaged_count(self) -> int:
        """Papers unread with no priority: those the ranking suggests."""
        return self.store.untriaged_count()

    def suggestions(
        self,
        candidates: Sequence[int] | None = None,
        cancel: threading.Event | None = None,
        marks: tuple[list[int], list[int]] | None = None,
    ) -> Ranking:
        """The untriaged papers (unread, no priority; of `candidates` if given, a search's results) ranked by
        predicted interest from the user's marks (see marks) and stored interests. NothingToLearn when there
        are neither (the order would mean nothing). Safe on a worker thread."""
        positive, negative = marks if marks is not None else self.marks()
        interests = self.interests()
        if not positive and not negative and not interests:
            raise NothingToLearn()
        return self.interest_ranking(positive, negative, interests, candidates, cancel)

    @staticmethod
    def interests_from_file(path: Path | str) -> list[str]:
        """The title and abstract of each paper in a file of the user's own papers (BibTeX or any format an
        import reads), as plain text: interests to seed the ranking with. Raises ImportFailure as an import
        does; nothing is added to the library."""
        from readinglist import markup
        from readinglist.importers import open_file

        records = open_file(Path(path)).records()  # streamed, with an import's limits: only the texts are kept
        texts = [f"{markup.title_plain(r.title)}. {markup.to_plain(r.abstract)}" for r in records]
        return [t for t in texts if t.strip(". ")]

    def _texts(self, ids: Sequence[int]) -> dict[int, str]:
        """The text the ranking analyses, for explaining a paper's score."""
        return {p.id: f"{p.auto_title}. {p.plain_abstract}" for p in self.store.papers(ids)}

    def related_explained(
        self, paper_id: int, top: int = 5, cancel: threading.Event | None = None, wait: bool = True
    ) -> list[tuple[int, list[str]]] | None:
        """Related papers, each with the key phrases it shares with this one (why it is related); None as
        `related` says."""
        related = self.related(paper_id, top=top, cancel=cancel, wait=wait)
        if related is None:
            return None
        return [(other, self.shared_phrases(paper_id, other)) for other in related]

    def shared_phrases(self, paper_id: int, other_id: int, top: int = 5) -> list[str]:
        """The key phrases two papers share, most telling first (keyphrases.shared_phrases), weighed by how
        few papers of the library use their words."""
        from readinglist.keyphrases import shared_phrases

        texts = self.store.texts([paper_id, other_id])
        if paper_id not in texts or other_id not in texts:
            return []
        return shared_phrases(texts[paper_id], texts[other_id], self.index.word_frequencies, top=top)

    def counts(self) -> dict[str, int]:
        """Papers in each state, "all" of them, how many are "untriaged" (unread with no priority: the
        Suggested papers) and "triaged" (the rest: marked, or given a priority)."""
        counts = self.store.state_counts()
        counts["all"] = sum(counts[s] for s in STATES)
        counts["untriaged"] = self.store.untriaged_count()  # unread with no priority: what is suggested
        counts["triaged"] = counts["all"] - counts["untriaged"]
        return counts

    def triaged_among(self, ids: Sequence[int]) -> dict[int, str]:
        """The papers among `ids` (a view's papers) that have been triaged (marked, or given a priority), with
        their states: what "triaged N of M" counts. It costs the triaged papers and a look-up per id in C, not a
        query per id."""
        triaged = self.store.triaged_states()
        if len(ids) >= self.store.count():  # every paper (ids are distinct): no look-ups at all
            return dict(triaged)
        return {pid: triaged[pid] for pid in triaged.keys() & ids}

    def states(self, ids: Sequence[int]) -> dict[int, str]:
        return self.store.states(ids)

    def priorities(self, ids: Sequence[int]) -> dict[int, int | None]:
        return self.store.priorities(ids)

    def tag_counts(self) -> list[tuple[str, int]]:
        return self.store.tag_counts()

    # ---- topics and the map ----

    def compute_topics(
        self,
        progress: Progress | None = None,
        cancel: threading.Event | None = None,
        count: int | None = None,
        use_process: bool = True,
    ) -> TopicsStatus:
        """Group the library into topics and lay out its map, and store both (readinglist.topics). The work
        runs in a child process (use_process=False: in this thread), so the caller — a worker thread of the
        window — only waits; the store is written in one short transaction at the end. Topics keep their ids
        where their papers mostly stay. Raises TopicsCancelled when `cancel` is set (nothing changes) and
        StoreError when it fails. `progress(done, total, message)` as an import's (total 100)."""
        from readinglist import topics_job

        if self.read_only:
            raise StoreError("the library is open read-only (another readinglist window has it)")
        started = time.perf_counter()
        fingerprint = self.store.content_fingerprint()  # taken first: papers added meanwhile make it outdated
        result = topics_job.compute(self.store.path, count, use_process, progress, cancel)
        if cancel is not None and cancel.is_set():
            raise TopicsCancelled()
        while True:  # an import may hold the library for minutes: waited for a second at a time, cancellable
            try:
                with self.store.transaction(wait=1.0):
                    self.store.save_topics(
                        result.topics,
                        result.pairs(),
                        (result.paper_ids, result.xy, result.topic_ids),
                        {
                            "computed_at": now(),
                            "run": uuid.uuid4().hex,  # tells a window that the topics it shows were replaced
                            "fingerprint": fingerprint,
                            "papers": str(result.papers_read),
                            "next_id": str(result.next_id),
                            "seconds": f"{time.perf_counter() - started:.2f}",
                            "phases": json.dumps(result.seconds),
                        },
                    )
                break
            except StoreBusy:
                if cancel is not None and cancel.is_set():  # (closing the window waited for it: a trial)
                    raise TopicsCancelled() from None
        del result
        return_freed()  # what came from the child (every paper's place and topic) is stored, not kept
        return self.topics_status()

    def topics(self) -> list[Topic]:
        """Every topic, largest first, with its papers counted by reading state, and of the unread those with
        a priority ("140 · 12 to triage")."""
        return self.store.topics()

    def topics_status(self) -> TopicsStatus:
        """When topics were computed, and whether papers came or changed since (recompute then)."""
        meta = self.store.topics_meta()
        computed = meta.get("computed_at")
        stored = meta.get("fingerprint")
        # the papers alone, as stored before removed papers counted: the same papers since then are current too
        current = (self.store.content_fingerprint(), self.store.content_fingerprint(removed=False))
        outdated = computed is None or stored not in current
        return TopicsStatus(computed, int(meta.get("papers", 0)), outdated, float(meta.get("seconds", 0)))

    def topics_stamp(self) -> str | None:
        """What identifies the topics stored now (None: none computed): another process's recompute (the
        command line's) changes it, and a window showing the topics reads them again. One small read."""
        meta = self.store.topics_meta()
        return meta.get("run") or meta.get("computed_at")

    def unplaced(self) -> int:
        """Papers added since the topics were computed (0 with none computed): in no topic and not on the map
        until the next computation. Two small reads (the stored fingerprint's last id, a range of ids)."""
        stored = self.store.topics_meta().get("fingerprint", "")
        parts = stored.split(":")
        if len(parts) < 2 or not parts[1].isdigit():
            return 0
        return self.store.papers_after(int(parts[1]))

    def topic_papers(self, topic_id: int) -> set[int]:
        """The papers of a topic now (through the topic's index)."""
        return self.store.papers_in_topics([topic_id])

    def topic_of(self, paper_id: int) -> Topic | None:
        """The paper's topic (the detail pane names it), or None."""
        tid = self.store.topic_of([paper_id]).get(paper_id)
        return next((t for t in self.store.topics() if t.id == tid), None) if tid is not None else None

    def topics_of(self, ids: Sequence[int]) -> dict[int, int]:
        """Each paper's topic id (papers without one are left out)."""
        return self.store.topic_of(ids)

    def library_map(self) -> LibraryMap | None:
        """The stored map (None until topics are computed): paper places in [-1, 1]² with their topic ids,
        and each topic's name and label place, for the papers in the library now. Loads numpy."""
        import numpy as np

        from readinglist.library_map import LibraryMap

        blobs = self.store.topic_map()
        if blobs is None:
            return None
        paper_ids = np.frombuffer(blobs[0], dtype="<i8").astype(np.int64)
        xy = np.frombuffer(blobs[1], dtype="<f4").astype(np.float32).reshape(-1, 2)
        topic_ids = np.frombuffer(blobs[2], dtype="<i8").astype(np.int64)
        # a paper removed since keeps its place in the stored map (undo brings it back there): not shown
        here = np.isin(paper_ids, np.fromiter(self.store.all_ids(), dtype=np.int64))
        if not here.all():
            paper_ids, xy, topic_ids = paper_ids[here], xy[here], topic_ids[here]
        labels = [(t.id, t.label, t.x, t.y) for t in self.store.topics()]
        return LibraryMap(paper_ids, xy, topic_ids, labels)

    # ---- removing papers: their annotations are kept, and undo or a re-import brings them back ----

    def remove(self, ids: Sequence[int]) -> list[int]:
        """Take papers out of the library (every list, count, search, export and related papers); returns
        the ids removed."""
        removed = self.store.remove_papers(ids)
        self._reindex(removed)
        return removed

    def restore_removed(self, ids: Sequence[int]) -> dict[int, int]:
        """Bring removed papers back, annotations and all: {removed id: its id now} (the same, normally)."""
        restored = self.store.restore_papers(ids)
        self._reindex(list(restored.values()))
        return restored

    def unremove(self, ids: Sequence[int]) -> tuple[dict[int, int], dict[int, int], list[str]]:
        """The command line's `unremove`: removed papers back, as `restore_removed`; a paper merged into another
        also takes the merge back from that paper where it is still as the merge left it (Store.unremove_papers:
        it kept the merged paper's tags, note and files, and both papers carried them). Returns {removed id: its
        id now}, {removed id: the paper its merge was taken back from} (not one merged into a paper removed
        since, nor by a version that kept no record of the merge) and what of a merge stays on the paper it was
        merged into, in words."""
        restored, unmerged, said = self.store.unremove_papers(ids)
        self._reindex(list(dict.fromkeys([*restored.values(), *unmerged.values()])))
        return restored, unmerged, said

    def removed_papers(self) -> list[RemovedPaper]:
        return self.store.removed_papers()

    def merged_papers(self) -> list[RemovedPaper]:
        """The papers merged into others: not removed (a re-import does not offer them back), yet kept whole,
        so that undo, or `restore_removed`, brings them back."""
        return self.store.merged_papers()

    def resolve_removed(self, uid: str) -> int:
        return self.store.resolve_removed_uid(uid)

    # ---- duplicates: one paper from several sources; the pairs the user decides ----

    def possible_duplicates(self) -> list[DuplicatePair]:
        """Pairs an import found possibly the same paper, still to be merged or kept apart."""
        return self.store.possible_duplicates()

    def duplicates_of(self, paper_id: int) -> list[DuplicatePair]:
        """The possible duplicates' pairs this paper is one of (what `possible_duplicates` lists of it)."""
        return self.store.duplicates_of(paper_id)

    def duplicate_ids(self) -> list[int]:
        """The papers of the possible duplicates, each pair's together."""
        return list(dict.fromkeys(i for d in self.possible_duplicates() for i in (d.a, d.b)))

    def merge(self, keep: int, other: int) -> Merge:
        """Merge `other` into `keep`, annotations combined (tags united, a triaged state, a priority and the
        user's title kept, notes joined) and `keep`'s gaps filled from `other`'s record (an abstract, authors,
        links …: Store.merge_papers); returns what `unmerge` needs."""
        merged = self.store.merge_papers(keep, other)
        self._reindex([keep, other])
        return merged

    def unmerge(self, merged: Merge) -> int:
        """Take a merge back; returns the id of the paper that was merged (its old one, normally)."""
        back = self.store.unmerge_papers(merged)
        self._reindex([merged.kept, back])
        return back

    def keep_apart(self, a: int, b: int, apart: bool = True) -> tuple[str, str] | None:
        """Remember that two papers are distinct (an import will not list them again); apart=False forgets
        it. Returns the pair's (status, why) before, for undo."""
        if a == b:
            raise StoreError("a paper is not a duplicate of itself")
        before = self.store.pair(a, b)
        return self.store.set_pair(a, b, ("apart", before[1] if before else "kept apart") if apart else None)

    def restore_pair(self, a: int, b: int, state: tuple[str, str] | None) -> None:
        self.store.set_pair(a, b, state)

    def sources_of(self, paper_id: int) -> list[str]:
        """The names of the files a paper came from, its first source first."""
        return self.store.paper_sources(paper_id)

    # ---- annotating: each returns what undo needs ----

    def set_state(self, ids: Sequence[int], state: str) -> dict[int, str]:
        before = self.store.set_state(ids, state)
        self._reindex(ids)
        return before

    def restore_states(self, states: dict[int, str]) -> None:
        self.store.restore_states(states)
        self._reindex(list(states))

    def set_priority(self, ids: Sequence[int], priority: int | None) -> dict[int, int | None]:
        """Priority 1–3 (1 first) or None; returns the priorities before, for undo."""
        before = self.store.set_priority(ids, priority)
        self._reindex(ids)
        return before

    def restore_priorities(self, priorities: dict[int, int | None]) -> None:
        self.store.restore_priorities(priorities)
        self._reindex(list(priorities))

    def spelt_tags(self, typed: Sequence[str], whole: Sequence[str] = ()) -> list[str]:
        """The tags as typed, where one typed all in lower case takes the spelling its tag has ("llm" is
        "LLM" when the library has LLM): capitals are typed on purpose, their lack seldom is. A tag is spelt
        as it was last typed with capitals, or renamed (`set_tags` takes the spelling it is given). Commas
        part them, except in a tag the library has or one of `whole` (the tags a field showed)."""
        names = self.tag_names()
        tags = normalise_tags(typed, [*names, *whole])
        known = {t.casefold(): t for t in names} if any(t == t.lower() for t in tags) else {}
        return [known.get(t.casefold(), t) if t == t.lower() else t for t in tags]

    def add_tags(self, ids: Sequence[int], tags: Sequence[str]) -> dict[int, list[str]]:
        """Adds the tags as `spelt_tags` spells them; returns each paper's tags before, for undo."""
        before = self.store.add_tags(ids, self.spelt_tags(tags))
        self._reindex(ids)
        return before

    def remove_tags(self, ids: Sequence[int], tags: Sequence[str]) -> dict[int, list[str]]:
        before = self.store.remove_tags(ids, normalise_tags(tags, self.tag_names()))
        self._reindex(ids)
        return before

    def set_tags(
        self, tags_by_paper: dict[int, list[str]], imported: Mapping[int, Iterable[str]] | None = None
    ) -> dict[int, list[str]]:
        """Each paper gets exactly these tags; a tag stays a keyword or the user's as it was, and `imported`
        (a keyword typed as a tag, one renamed) says which are keywords. Returns the tags before."""
        before = self.store.set_tags({pid: clean_tags(t) for pid, t in tags_by_paper.items()}, imported)
        self._reindex(list(tags_by_paper))
        return before

    # ---- keywords: the tags imported files gave (BibTeX keywords, RIS KW, a keywords column) ----

    def tag_summary(self) -> tuple[list[tuple[str, int]], set[str]]:
        """`tag_counts` and `keyword_tags` in one pass over the tags (the sidebar asks after every edit)."""
        return self.store.tag_summary()

    def keyword_tags(self) -> set[str]:
        """The keywords: tags files gave that the user has not made theirs (the sidebar shows them apart)."""
        return self.store.keyword_tags()

    def imported_of(self, ids: Sequence[int]) -> dict[int, set[str]]:
        """Each paper's keywords (by tag_key)."""
        return self.store.imported_of(ids)

    def own_tags_of(self, ids: Sequence[int]) -> dict[int, list[str]]:
        """Each paper's tags the user gave (or made theirs): what the tag editor shows and edits."""
        return self.store.tags_of(ids, keywords=False)

    def keywords_of(self, ids: Sequence[int]) -> dict[int, list[str]]:
        """Each paper's keywords (tags files gave that the user has not made theirs)."""
        return self.store.tags_of(ids, keywords=True)

    def keywords_after_rename(self, old: str, new: str, after: dict[int, list[str]]) -> dict[int, set[str]]:
        """Which tags of each paper (`after`: plan_rename_tag's) are keywords once `old` is `new` (for
        `set_tags`): a keyword renamed stays one unless renamed onto the user's tag; theirs stays theirs."""
        names = {tag_key(t) for t in self.tag_names()}
        keywords = {tag_key(t) for t in self.store.keyword_tags()}
        new_names = clean_tags([new])
        old_key, new_key = tag_key(old), tag_key(new_names[0]) if new_names else ""
        onto = new_key in names and new_key != old_key
        # a keyword renamed stays one, onto another keyword too; the user's tag renamed (onto a keyword or not),
        # or a keyword renamed onto theirs, is theirs
        is_keyword = old_key in keywords and (not onto or new_key in keywords)
        was = self.store.imported_of(list(after))
        return {pid: (was[pid] - {old_key, new_key}) | ({new_key} if is_keyword else set()) for pid in after}

    def tag_marks(self, names: Iterable[str]) -> dict[str, tuple[str, bool]]:
        """Of these names, the tags the library has (by tag_key): each one's name and whether it is a keyword
        (what undo of a tag edit compares: a mark the edit changed goes back, if nothing changed it since)."""
        return self.store.tag_marks(names)

    def set_keyword_marks(self, marks: dict[str, bool]) -> None:
        """These tags (by name) become keywords (True) or the user's (False)."""
        for value in (True, False):
            self.store.mark_imported([name for name, kw in marks.items() if kw is value], value)

    def keyword_links(self) -> list[tuple[int, str]]:
        """Every (paper, keyword): what the sidebar's Keywords hold."""
        return self.store.imported_links()

    def make_keywords_tags(self, links: Sequence[tuple[int, str]], own: bool = True) -> None:
        """The keywords of these (paper, keyword) links become the user's tags, on every paper (own=False: back
        to keywords, for undo). The papers' tags and the index stay as they are."""
        self.store.mark_imported(dict.fromkeys(name for _, name in links), not own)

    def plan_remove_keywords(self) -> dict[int, list[str]]:
        """Each paper that has keywords, with its tags without them (for `set_tags`, undoable)."""
        return self.store.tags_of(list(dict.fromkeys(pid for pid, _ in self.store.imported_links())), keywords=False)

    def plan_rename_tag(self, old: str, new: str) -> dict[int, list[str]]:
        """Each affected paper's tags after renaming `old` to `new` (onto an existing tag: a merge). The name is
        one tag, a comma in it kept: a rename dialog names one tag, and "Reading group, 2024" is not "Reading
        group" (clean_tags)."""
        name = self.rename_target(old, new)
        current = self.store.tags_of(self.store.papers_with_tag(old))
        return {
            pid: list(dict.fromkeys(name if same_tag(t, old) else t for t in tags)) for pid, tags in current.items()
        }

    def rename_target(self, old: str, new: str) -> str:
        """The name a tag renamed `new` gets: cleaned (clean_tags), and, merged into a tag the library has, one
        typed all in lower case takes that tag's spelling, as the tag editor spells it (spelt_tags): "the"
        merged into "rl" joined RL and respelt its papers "rl". A rename of the tag itself ("rl" to "RL")
        keeps the case typed. StoreError for a name that is empty."""
        new_name = clean_tags([new])
        if not new_name or not new_name[0].strip(", "):
            raise StoreError("a tag needs a name")
        name = new_name[0]
        if name == name.lower() and not same_tag(name, old):
            name = next((t for t in self.tag_names() if same_tag(t, name)), name)
        return name

    def plan_delete_tag(self, name: str) -> dict[int, list[str]]:
        current = self.store.tags_of(self.store.papers_with_tag(name))
        return {pid: [t for t in tags if not same_tag(t, name)] for pid, tags in current.items()}

    def respell_tags(self, names: Iterable[str]) -> None:
        """Spell each of these tags so on every paper that has it (a name no tag has, in any case, is left
        out): the undo of an edit that respelt a tag on papers it did not otherwise change."""
        self._reindex(self.store.respell_tags(names))

    def rename_tag(self, old: str, new: str) -> dict[int, list[str]]:
        """Rename a tag; onto an existing tag this merges the two. The saved lists that look it up follow it
        (retag_lists), in the same transaction. Returns the tags before, for undo."""
        after = self.plan_rename_tag(old, new)
        with self.editing():
            before = self.set_tags(after)
            self.retag_lists(old, self.rename_target(old, new))
        return before

    def delete_tag(self, name: str) -> dict[int, list[str]]:
        return self.set_tags(self.plan_delete_tag(name))

    def set_note(self, paper_id: int, note: str) -> str:
        """Replace a paper's note (StoreError, changing nothing, if it is too long: _check_note)."""
        _check_note(note)
        before = self.store.set_note(paper_id, note)
        if before != note:
            self._reindex([paper_id])
        return before

    def save_note(self, paper_id: int, note: str, base: str, keep_both: bool = True) -> tuple[str, str]:
        """The window's save of a note it loaded as `base` (see Store.save_note: a note another process changed
        meanwhile is kept beside it, not overwritten). Returns the note stored before and the one stored now.
        StoreError, changing nothing, for a note too long (_check_note)."""
        _check_note(note)
        before, after = self.store.save_note(paper_id, note, base, keep_both)
        if before != after:
            self._reindex([paper_id])
        return before, after

    def set_citation_key(self, paper_id: int, key: str) -> str:
        """The user's own citation key (unique in the library; StoreError says why not); returns the old one,
        for undo. Keys are otherwise given once and never changed (see citekeys)."""
        before = self.store.set_citation_key(paper_id, key)
        self._reindex([paper_id])  # the store moved its revision on, as for any edit
        return before

    def citation_keys(self, ids: Sequence[int]) -> dict[int, str]:
        return self.store.citation_keys(ids)

    def set_title(self, paper_id: int, title: str | None) -> str | None:
        """The reader's own title ('' or None: the imported one again). Its formulas ($\\epsilon$-greedy) are
        kept as the imported titles' are, as text (ϵ-greedy); the rest as typed, braces and backslashes too, but
        for control characters (a pasted NUL or escape), which an import takes out of a file's titles too."""
        if title:
            from readinglist.biblio import without_controls

            title = without_controls(title)
        if title and ("$" in title or "\\(" in title):
            from readinglist.markup import formulas_as_text

            title = formulas_as_text(title)
        before = self.store.set_user_title(paper_id, title)
        self._reindex([paper_id])
        return before

    # ---- smart lists: saved views, counted live ----

    def smart_lists(self) -> list[SmartList]:
        return self.store.smart_lists()

    def smart_list(self, name: str) -> SmartList:
        """The list of that name (any case); a StoreError naming the lists there are if none."""
        return self.store.smart_list(name)

    def check_smart_list(self, name: str, query: str = "", list_id: int | None = None) -> None:
        """Raise a StoreError or QueryError that says why a list of this name and query cannot be saved
        (no name, the name taken by another list, a query that cannot be searched)."""
        if not " ".join(name.split()):
            raise StoreError("a list needs a name")
        clash = [sl for sl in self.smart_lists() if sl.name.casefold() == " ".join(name.split()).casefold()]
        if clash and clash[0].id != list_id:
            raise StoreError(f"there is a list named “{clash[0].name}” already")
        if query.strip():
            from readinglist.index.query import preprocess

            preprocess(query)

    def add_smart_list(self, name: str, query: str = "", state: str | None = None, tag: str | None = None) -> SmartList:
        """Save a view as a list. Its query is checked first: a list that cannot be searched is not saved."""
        self.check_smart_list(name, query)
        return self.store.add_smart_list(name, query, state, tag)

    def restore_smart_list(self, sl: SmartList, place: int) -> SmartList:
        """Put a deleted list back where it was (undo)."""
        return self.store.add_smart_list(sl.name, sl.query, sl.state, sl.tag, position=place, list_id=sl.id)

    def update_smart_list(self, sl: SmartList) -> SmartList:
        """Rename or redefine a list; returns it as it was, for undo."""
        return self.store.update_smart_list(sl)

    def delete_smart_list(self, list_id: int) -> tuple[SmartList, int] | None:
        return self.store.delete_smart_list(list_id)

    def move_smart_list(self, list_id: int, place: int) -> int:
        return self.store.move_smart_list(list_id, place)

    def search_list(self, sl: SmartList, text: str = "", limit: int | None = None) -> SearchResult:
        """The list's papers (matching `text` too, if given) in rank order, or library order without a query."""
        return self.search(text, limit=limit, state=sl.state, tag=sl.tag, within=sl.query)

    def retag_lists(self, old: str, new: str) -> list[tuple[SmartList, SmartList]]:
        """The saved lists that look up the tag `old` look up `new` instead, as one edit: a list's sidebar tag,
        the `tag:` terms of its query (retag_query: the rest of the query as typed), and a name that was the
        query's own (describe_view: what a list is first called) renamed with it; a name the user gave stays.
        A tag renamed or merged takes its lists along. Returns each list changed as it was and as it is (what
        `unretag_lists` puts back)."""
        with self.store.transaction():
            changed = self.retagged_lists(self.smart_lists(), old, new)
            for _, after in changed:
                self.store.update_smart_list(after)
        return changed

    @classmethod
    def retagged_lists(cls, lists: Sequence[SmartList], old: str, new: str) -> list[tuple[SmartList, SmartList]]:
        """Each of `lists` that `retag_lists` changes, as it was and as it leaves it (nothing written): a name
        the query gave follows the tag unless another list has the new name, when the list keeps its own (two
        lists of one name cannot be told apart). What the sidebar shows of a list chosen during the rename."""
        changed = []
        names = {sl.name.casefold() for sl in lists}
        for sl in lists:
            after = cls.retagged_list(sl, old, new)
            if after == sl:
                continue
            if after.name != sl.name and after.name.casefold() in names - {sl.name.casefold()}:
                after = replace(after, name=sl.name)  # another list has that name: this one keeps its own
            names = (names - {sl.name.casefold()}) | {after.name.casefold()}
            changed.append((sl, after))
        return changed

    @classmethod
    def names_kept(cls, changed: Sequence[tuple[SmartList, SmartList]], old: str, new: str) -> dict[str, str]:
        """{a list's name: the name its query would have given it} of the lists `retag_lists` changed that kept
        their name because another list had that one (`changed`: what it returned)."""
        return {
            before.name: wanted.name
            for before, after in changed
            if (wanted := cls.retagged_list(before, old, new)).name != after.name
        }

    @staticmethod
    def retagged_list(sl: SmartList, old: str, new: str) -> SmartList:
        """The list `sl` as `retag_lists` leaves it once the tag `old` is `new` (nothing written)."""
        from readinglist.index.query import retag_query

        tag = new if same_tag(sl.tag, old) else sl.tag
        query = retag_query(sl.query, old, new) if sl.query else sl.query
        named = " ".join(sl.name.split()) == describe_view(sl.query, sl.state, sl.tag)
        name = describe_view(query, sl.state, tag) if named else sl.name
        return SmartList(sl.id, name, query, sl.state, tag)

    def unretag_lists(self, changed: Sequence[tuple[SmartList, SmartList]]) -> bool:
        """Undo of `retag_lists`: each list it changed, if still as it left it, as it was. Whether any was."""
        now = {sl.id: sl for sl in self.smart_lists()}
        back = [before for before, after in changed if now.get(after.id) == after]
        with self.store.transaction():
            for sl in back:
                self.store.update_smart_list(sl)
        return bool(back)

    def missing_list_tags(self, lists: Sequence[SmartList]) -> dict[int, str]:
        """{list id: its tag} of the lists that filter on a tag no paper has now (deleted, taken off its papers,
        or never given), by the list's tag or by a `tag:` term its query requires (index.query.required_tags):
        such a list shows nothing, and the sidebar and `lists` say why rather than a bare 0."""
        from readinglist.index.query import required_tags

        missing: dict[int, str] = {}
        tagged = [sl for sl in lists if sl.tag]
        if tagged:
            present = self.store.tag_marks(sl.tag for sl in tagged if sl.tag)
            missing = {sl.id: sl.tag for sl in tagged if sl.tag and tag_key(sl.tag) not in present}
        # the tags their queries require, as the index holds them (`tag:must-read` is "must read", folded): looked
        # up by name first, and only those not found so among every tag's index key (a tag gone is rare)
        asked = {sl.id: names for sl in lists if sl.id not in missing and (names := required_tags(sl.query))}
        if asked:
            from readinglist.index.analysis import tag_key as index_key

            found = self.store.tag_marks(t for names in asked.values() for t in names)
            unfound = {index_key(t) for names in asked.values() for t in names if tag_key(t) not in found}
            if unfound:
                unfound -= {index_key(name) for name in self.tag_names()}
            for lid, names in asked.items():
                if gone := [t for t in names if index_key(t) in unfound]:
                    missing[lid] = gone[0]
        return missing

    def list_count(self, sl: SmartList) -> int:
        """How many papers the list holds now: from SQLite when it has no query, else from the index."""
        if not sl.query.strip():
            return self.store.count_where(sl.state, sl.tag)
        return len(self.search_list(sl).ids)


# a note's characters each take at most this many in a BibTeX export ("\\" is "\\textbackslash{}"): a note this
# much shorter than an import's field limit needs no export written to know that it imports back
_MOST_ESCAPED = 20


def _check_note(note: str) -> None:
    """StoreError if the note, as a BibTeX export writes it (its escapes the longest of every format's), is over
    what an import reads of one field: a 1 MB note was kept, and the export of it refused whole (a trial)."""
    from readinglist.importers.limits import DEFAULT_LIMITS
    from readinglist.latex import note_to_bibtex

    limit = DEFAULT_LIMITS.field_chars
    if len(note) * _MOST_ESCAPED <= limit:
        return
    written = len(note_to_bibtex(note, True)) if len(note) <= limit else len(note)
    if written > limit:
        raise StoreError(
            f"This note is too long to export and import back: {written:,} characters as a BibTeX export writes "
            f"it, where an import reads at most {limit:,}. Shorten it, or keep the long text in a file and link "
            "it from the note."
        )


def _import_or_merge(
    data_dir: str,
    paths: list[str],
    keep_going: bool,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
) -> tuple[list[ImportSummary | MergeSummary], list[ImportFailure]]:
    """The child of Library.import_or_merge_in_child: what it imported, and (`keep_going`) what it could not."""
    lib = Library.open(data_dir, seed=False, defer_index=True)
    failures: list[ImportFailure] = []
    try:
        return lib.import_or_merge(paths, progress, cancel, failures if keep_going else None), failures
    finally:
        lib.close()
