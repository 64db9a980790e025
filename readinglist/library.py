"""The library: what the command line and the window call. Files → importers → store → index → search.

Neither caller runs SQL or touches Whoosh: every operation here keeps the store and the index in step. The
index is opened at the first search (or when the window warms it up), so listing papers needs only SQLite.
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from readinglist import importing, paths
from readinglist.backup import RestoreSummary, auto_backup, write_backup
from readinglist.backup import restore as restore_backup
from readinglist.importing import ImportSummary, Progress
from readinglist.papers import (
    STATES,
    ImportCancelled,
    Paper,
    RemovedPaper,
    SearchResult,
    StoreError,
    TableRow,
    normalise_tags,
)
from readinglist.store import open_store, unwritable

if TYPE_CHECKING:
    from readinglist.index import Index, IndexUpdater

__all__ = ["ImportSummary", "Library"]


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
        self._index_lock = threading.Lock()  # held while the index opens (it may be rebuilt)
        self._import_lock = threading.Lock()  # one import at a time
        self._background: bool | None = None  # None: write in the caller's thread; else use a writer process?
        self._checkpoint: Callable[[], None] | None = None

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
        if seed and not lib.read_only and lib.is_new():
            lib.import_files([paths.bundled_corpus()], bundled=True)
        elif not defer_index:
            lib.sync_index()
        return lib

    def is_new(self) -> bool:
        return self.store.is_empty()

    def close(self) -> None:
        """Write what is pending, keep today's automatic backup of the annotations, close everything."""
        if not self.read_only:
            try:
                auto_backup(self.store, self.data_dir)
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
        """A word test for a search's terms (the detail pane highlights what matched)."""
        from readinglist.index import highlighter

        return highlighter(terms)

    def sync_index(self) -> None:
        """Make sure the index is open and trustworthy now (rather than at the first search)."""
        self.index  # noqa: B018 - the property opens it

    def _reindex(self, ids: Sequence[int]) -> None:
        """The store's journal has these changes; the index, once open, catches up from it."""
        if ids and self._updater is not None:
            self._updater.changed()

    # ---- importing ----

    def import_files(
        self,
        files: Sequence[Path | str],
        progress: Progress | None = None,
        cancel: threading.Event | None = None,
        bundled: bool = False,
    ) -> list[ImportSummary]:
        """Import each file in its own transaction (see importing.import_files). One import at a time, across
        processes too: a second waits for the first (cancellable), and says so."""
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
                return importing.import_files(self.store, self.updater, files, progress, cancel, bundled)
            finally:
                lock.release()

    # ---- backups ----

    def backup(self, path: Path | str) -> int:
        """Every annotation, with the papers it belongs to, in one file; returns how many papers."""
        return write_backup(self.store, Path(path))

    def restore(self, path: Path | str, overwrite: bool = False) -> RestoreSummary:
        """A backup's annotations (and the papers the library lacks) brought into this library."""
        if self.read_only:
            raise StoreError(f"cannot restore: {self.read_only_reason or 'the library is open read-only'}")
        summary = restore_backup(self, Path(path), overwrite)
        self._reindex([1])  # the journal has every paper the restore touched
        return summary

    # ---- reading and searching ----

    def search(
        self,
        text: str = "",
        limit: int | None = None,
        state: str | None = None,
        tag: str | None = None,
    ) -> SearchResult:
        """Matches in rank order; with no query, every paper (filtered) in library order."""
        if not text.strip():
            ids = self.store.ordered_ids("added", state=state, tag=tag)
            return SearchResult(ids[:limit] if limit else ids, [], text)
        index = self.index
        behind = self.updater.ensure_current()  # see every change committed before this search
        result = index.search(text, limit=limit, state=state, tag=tag)
        if behind:
            result = replace(result, unindexed=behind)
        return result

    def papers(self, ids: Sequence[int]) -> list[Paper]:
        return self.store.papers(ids)

    def paper(self, paper_id: int) -> Paper | None:
        return self.store.paper(paper_id)

    def rows(self, ids: Sequence[int]) -> dict[int, TableRow]:
        """Table rows (title, venue, year, state, tags) without abstracts: cheap enough to fetch by page."""
        return self.store.rows(ids)

    def ordered_ids(
        self, sort: str, descending: bool = False, state: str | None = None, tag: str | None = None
    ) -> list[int]:
        return self.store.ordered_ids(sort, descending, state=state, tag=tag)

    def has_authors(self) -> bool:
        return self.store.has_authors()

    def tag_names(self) -> list[str]:
        return [name for name, _ in self.store.tag_counts()]

    def tags_of(self, ids: Sequence[int]) -> dict[int, list[str]]:
        return self.store.tags_of(ids)

    def resolve(self, uid: str) -> int:
        return self.store.resolve_uid(uid)

    def related(self, paper_id: int, top: int = 5, cancel: threading.Event | None = None) -> list[int]:
        p = self.store.paper(paper_id)
        if p is None:
            return []
        return self.index.more_like(paper_id, f"{p.title}. {p.plain_abstract}", top=top, cancel=cancel)

    def counts(self) -> dict[str, int]:
        counts = self.store.state_counts()
        counts["all"] = sum(counts[s] for s in STATES)
        return counts

    def tag_counts(self) -> list[tuple[str, int]]:
        return self.store.tag_counts()

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

    def removed_papers(self) -> list[RemovedPaper]:
        return self.store.removed_papers()

    def resolve_removed(self, uid: str) -> int:
        return self.store.resolve_removed_uid(uid)

    # ---- annotating: each returns what undo needs ----

    def set_state(self, ids: Sequence[int], state: str) -> dict[int, str]:
        before = self.store.set_state(ids, state)
        self._reindex(ids)
        return before

    def restore_states(self, states: dict[int, str]) -> None:
        self.store.restore_states(states)
        self._reindex(list(states))

    def add_tags(self, ids: Sequence[int], tags: Sequence[str]) -> dict[int, list[str]]:
        before = self.store.add_tags(ids, normalise_tags(tags))
        self._reindex(ids)
        return before

    def remove_tags(self, ids: Sequence[int], tags: Sequence[str]) -> dict[int, list[str]]:
        before = self.store.remove_tags(ids, normalise_tags(tags))
        self._reindex(ids)
        return before

    def set_tags(self, tags_by_paper: dict[int, list[str]]) -> dict[int, list[str]]:
        before = self.store.set_tags({pid: normalise_tags(t) for pid, t in tags_by_paper.items()})
        self._reindex(list(tags_by_paper))
        return before

    def plan_rename_tag(self, old: str, new: str) -> dict[int, list[str]]:
        """Each affected paper's tags after renaming `old` to `new` (onto an existing tag: a merge)."""
        new_name = normalise_tags([new])
        if not new_name:
            raise StoreError("a tag needs a name")
        current = self.store.tags_of(self.store.papers_with_tag(old))
        return {
            pid: list(dict.fromkeys(new_name[0] if t.casefold() == old.casefold() else t for t in tags))
            for pid, tags in current.items()
        }

    def plan_delete_tag(self, name: str) -> dict[int, list[str]]:
        current = self.store.tags_of(self.store.papers_with_tag(name))
        return {pid: [t for t in tags if t.casefold() != name.casefold()] for pid, tags in current.items()}

    def rename_tag(self, old: str, new: str) -> dict[int, list[str]]:
        """Rename a tag; onto an existing tag this merges the two. Returns the tags before, for undo."""
        return self.set_tags(self.plan_rename_tag(old, new))

    def delete_tag(self, name: str) -> dict[int, list[str]]:
        return self.set_tags(self.plan_delete_tag(name))

    def set_note(self, paper_id: int, note: str) -> str:
        before = self.store.set_note(paper_id, note)
        if before != note:
            self._reindex([paper_id])
        return before

    def set_title(self, paper_id: int, title: str | None) -> str | None:
        before = self.store.set_user_title(paper_id, title)
        self._reindex([paper_id])
        return before
