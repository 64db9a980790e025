"""The library: what the command line and the window call. Files → importers → store → index → search.

Neither caller runs SQL or touches Whoosh: every operation here keeps the store and the index in step.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from readinglist import markup, paths
from readinglist.importers import ImportContext, ImportFailure, Record, parse_file
from readinglist.importers.base import base_name
from readinglist.matching import Existing, Incoming, match
from readinglist.results import QueryError, SearchResult
from readinglist.store import STATES, NewPaper, Paper, StoreError, open_store
from readinglist.titles import derive_title, make_unique

if TYPE_CHECKING:
    from readinglist.index import Index
    from readinglist.index_writer import WriterProcess

__all__ = ["ImportCancelled", "ImportFailure", "ImportSummary", "Library", "QueryError", "StoreError"]

Progress = Callable[[int, int, str], None]
BUNDLED_PREFIX = "bundled:"
CHUNK = 2000  # papers prepared, stored and handed to the index writer at a time


class ImportCancelled(Exception):
    pass


@dataclass
class ImportSummary:
    path: Path
    kind: str = ""
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    skipped: int = 0
    missing: int = 0  # papers the file no longer has: kept, with their annotations
    warnings: list[str] = field(default_factory=list)

    def line(self) -> str:
        text = (
            f"{self.path.name}: {self.added} added, {self.updated} updated, "
            f"{self.unchanged} unchanged, {self.skipped} skipped"
        )
        if self.missing:
            text += f", {self.missing} no longer in the file (kept)"
        return text


def content_hash(r: Record) -> str:
    h = hashlib.sha1()
    for part in (r.title, r.abstract, "\x1e".join(r.authors), r.venue, str(r.year or "")):
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\x1f")
    return h.hexdigest()


def to_new_paper(r: Record, chash: str | None = None) -> NewPaper:
    """Derived forms are computed once, here: plain text for the index, links, and the display title."""
    plain = markup.to_plain(r.abstract)
    auto_title = markup.title_plain(r.title) if r.title else derive_title(r.abstract)
    seed = hashlib.sha1(f"{r.venue}\x1f{r.year}\x1f{r.title}\x1f{r.abstract}".encode()).hexdigest()
    links = markup.extract_links(r.abstract)
    if r.url and r.url not in links:
        links.insert(0, r.url)
    return NewPaper(
        uid_seed=seed,
        content_hash=chash or content_hash(r),
        source_key=r.key,
        title=r.title,
        auto_title=auto_title or "Untitled",
        abstract=r.abstract,
        plain_abstract=plain,
        authors=r.authors,
        venue=r.venue,
        year=r.year,
        url=r.url,
        links=links,
        tags=r.tags,
    )


class IndexUpdater:
    """Applies annotation changes to the index in the background, coalescing bursts.

    Marking a paper read is a millisecond in SQLite but a Whoosh commit (and now and then a merge of
    seconds at 100k papers); the window must not wait for that, nor share its interpreter lock with it.
    A thread hands the changed ids to a writer process (index_writer) and renews the searcher when it
    has written; if that process cannot run, the thread writes itself. Searches call flush() first, so
    a search still sees every change made before it."""

    POLL_SECONDS = 0.5  # how often an idle updater looks whether the writer process merged segments

    def __init__(self, library: Library, use_process: bool = True):
        self.library = library
        self._pending: set[int] = set()
        self._busy = False
        self._stop = False
        self._cond = threading.Condition()
        self._use_process = use_process
        self._prepare = False
        self._merge = False
        self._writer: WriterProcess | None = None
        self._thread = threading.Thread(target=self._run, name="readinglist-index-writer", daemon=True)
        self._thread.start()

    def settle(self) -> None:
        """Wait until every change is written and any merge has finished, and search the result."""
        from readinglist.index_writer import WriterError

        self.flush()
        index = self.library.index
        with index._write_lock:
            if self._writer is not None:
                with suppress(WriterError):
                    self._writer.sync()
        self._look_for_merges()  # sync() read any "merged" that came before "synced": reloads if so

    def request_merge(self) -> None:
        """An import committed without merging (see Index.offloaded): the writer process merges."""
        with self._cond:
            self._merge = True
            self._cond.notify_all()

    def prepare(self) -> None:
        """Start the writer process now (the window calls this once it is up), not at the first edit."""
        with self._cond:
            self._prepare = True
            self._cond.notify_all()

    def submit(self, ids: Sequence[int]) -> None:
        with self._cond:
            self._pending.update(ids)
            self._cond.notify_all()

    def flush(self, timeout: float | None = None) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: not self._pending and not self._busy, timeout)

    def stop(self) -> None:
        self.flush()
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        self._thread.join()

    @property
    def writer_pid(self) -> int | None:
        """The writer process's id while it runs (tests look at it)."""
        return self._writer._proc.pid if self._writer is not None else None

    def _run(self) -> None:
        try:
            while True:
                with self._cond:
                    self._cond.wait_for(
                        lambda: self._pending or self._stop or self._prepare or self._merge, self.POLL_SECONDS
                    )
                    if self._stop and not self._pending:
                        return
                    ids, self._pending = list(self._pending), set()
                    prepare, self._prepare = self._prepare, False
                    merge, self._merge = self._merge, False
                    self._busy = bool(ids)
                try:
                    if prepare:
                        self._writer_process(self.library.index)
                    if ids:
                        self._apply(ids)
                    if merge:
                        self._ask_for_merge()
                    if not ids and self._writer is not None:
                        self._look_for_merges()
                except Exception as exc:  # the store has the change; the index catches up on the next open
                    self.library.notify(f"The search index could not be updated ({exc}); it will be on restart.")
                finally:
                    with self._cond:
                        self._busy = False
                        self._cond.notify_all()
        finally:
            self._close_writer()

    def _apply(self, ids: list[int]) -> None:
        from readinglist.index_writer import WriterError  # imported here: start-up does not need it

        index = self.library.index
        writer = self._writer_process(index)
        if writer is None:
            self.library._reindex_now(ids)
            return
        with index._write_lock:
            rev = self.library.store.current_rev()
            try:
                writer.update(ids, rev)
            except WriterError as exc:
                self._give_up_process(exc)
                self.library._reindex_now(ids)
                return
            index.reload(rev)

    def _ask_for_merge(self) -> None:
        from readinglist.index_writer import WriterError

        index = self.library.index
        with index._write_lock:
            if self._writer is not None:
                with suppress(WriterError):  # gone: the next edit finds out and writes in-process
                    self._writer.request_merge()

    def _look_for_merges(self) -> None:
        """Renew the searcher once the writer process has merged segments (the pipe is only ever used
        with the index's write lock held)."""
        from readinglist.index_writer import WriterError

        index = self.library.index
        with index._write_lock:
            try:
                if self._writer is not None and self._writer.poll_merged():
                    index.reload()
            except WriterError as exc:  # it died between requests: the next edit is written in-process
                self._give_up_process(exc)
                index.reload()

    def _writer_process(self, index: Index) -> WriterProcess | None:
        if self._writer is None and self._use_process:
            from readinglist.index_writer import WriterError, WriterProcess

            try:
                self._writer = WriterProcess(self.library.data_dir)
            except (WriterError, OSError) as exc:
                self._give_up_process(exc)
                return None
            index.before_write = self._quiesce
            index.offloaded = True
        return self._writer

    def _quiesce(self) -> None:
        """Called by the index, write lock held, before this process writes: the child must be idle."""
        from readinglist.index_writer import WriterError

        writer = self._writer
        if writer is not None and threading.current_thread() is not self._thread:
            with suppress(WriterError):  # gone: it writes nothing any more
                writer.sync()

    def _give_up_process(self, exc: Exception) -> None:
        """From now on this thread writes the index itself; the user is told why."""
        self.library.notify(f"Writing the search index in-process ({exc}).")
        self._close_writer()
        self._use_process = False

    def _close_writer(self) -> None:
        writer, self._writer = self._writer, None
        if writer is not None:
            if self.library._index is not None:
                self.library._index.before_write = None
                self.library._index.offloaded = False
            writer.close()


class Library:
    def __init__(self, data_dir: Path, notify: Callable[[str], None] | None = None, read_only: bool = False):
        self.data_dir = Path(data_dir)
        self.notify = notify or (lambda message: None)
        self.read_only = read_only
        if not read_only:
            try:
                self.data_dir.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"{self.data_dir}: cannot create the data folder ({exc.strerror})") from None
        self.store = open_store(self.data_dir / "library.db", read_only=read_only)
        self._index: Index | None = None
        self._index_lock = threading.Lock()
        self._import_lock = threading.Lock()
        self._updater: IndexUpdater | None = None

    def start_background_indexing(self, use_process: bool = True) -> None:
        """Apply annotation changes to the index in the background (the window wants this): by a writer
        process, or with use_process=False on a thread of this process."""
        if self._updater is None and not self.read_only:
            self._updater = IndexUpdater(self, use_process)

    def prepare_background_indexing(self) -> None:
        if self._updater is not None:
            self._updater.prepare()

    def settle_index(self) -> None:
        """Every change written and background merges done (benchmarks measure a library at rest)."""
        if self._updater is not None:
            self._updater.settle()

    def flush_index(self) -> None:
        if self._updater is not None:
            self._updater.flush()

    @classmethod
    def open(
        cls,
        data_dir: Path | str | None = None,
        notify: Callable[[str], None] | None = None,
        seed: bool = True,
        read_only: bool = False,
        defer_index: bool = False,
    ) -> Library:
        """Open (creating on first use, with the bundled corpus) and make the index trustworthy — now, or
        with defer_index at its first use."""
        lib = cls(paths.data_dir(data_dir), notify=notify, read_only=read_only)
        if seed and not read_only and lib.is_new():
            lib.import_files([paths.bundled_corpus()], bundled=True)
        elif not defer_index:
            lib.sync_index()
        return lib

    def is_new(self) -> bool:
        return self.store.is_empty()

    def close(self) -> None:
        if self._updater is not None:
            self._updater.stop()
            self._updater = None
        if self._index is not None:
            self._index.close()
        self.store.close()

    # ---- keeping the index in step ----

    @property
    def index(self) -> Index:
        """The Whoosh index, opened (and rebuilt or caught up) on first use: listing papers needs only
        SQLite, so the window paints before Whoosh is even imported."""
        if self._index is None:
            with self._index_lock:
                if self._index is None:
                    from readinglist.index import Index

                    index = Index(self.data_dir / "index", notify=self.notify, read_only=self.read_only)
                    self._sync(index)
                    self._index = index
        return self._index

    def sync_index(self) -> None:
        """Make sure the index is open and trustworthy now (rather than at the first search)."""
        self.index  # noqa: B018 - the property opens it

    def _sync(self, index: Index) -> None:
        rev = self.store.current_rev()
        if not index.open():
            if self.read_only:
                return
            count = self.store.count()
            if count:
                self.notify(f"Building the search index for {count:,} papers…")
            index.rebuild(self._iter_papers(), rev, total=count)
            return
        if index.rev < rev and not self.read_only:
            changed = self.store.changed_since(index.rev)
            if changed:
                index.update(self.store.papers(changed), rev)

    def _iter_papers(self, chunk: int = 2000):
        ids = self.store.all_ids()
        for i in range(0, len(ids), chunk):
            yield from self.store.papers(ids[i : i + chunk])

    def _reindex(self, ids: Sequence[int]) -> None:
        if not ids:
            return
        if self._updater is not None:
            self._updater.submit(ids)
        else:
            self._reindex_now(ids)

    def _reindex_now(self, ids: Sequence[int]) -> None:
        self.index.update(self.store.papers(list(ids)), self.store.current_rev())

    # ---- importing ----

    def import_files(
        self,
        files: Sequence[Path | str],
        progress: Progress | None = None,
        cancel: threading.Event | None = None,
        bundled: bool = False,
    ) -> list[ImportSummary]:
        """Import each file in its own transaction. A bad file raises ImportFailure and leaves the library
        as it was before that file; files before it stay imported."""
        context = ImportContext()
        summaries = []
        with self._import_lock:
            for n, f in enumerate(files):
                path = Path(f)
                if progress:
                    progress(0, 0, f"Reading {path.name} ({n + 1} of {len(files)})")
                parsed = parse_file(path, context)
                location = BUNDLED_PREFIX + path.name if bundled else str(path.resolve())
                summaries.append(self._import_records(path, location, parsed.kind, parsed.records, progress, cancel))
                summaries[-1].skipped = parsed.skipped
                summaries[-1].warnings = parsed.warnings
        return summaries

    def _import_records(
        self,
        path: Path,
        location: str,
        kind: str,
        records: list[Record],
        progress: Progress | None,
        cancel: threading.Event | None,
    ) -> ImportSummary:
        """Match, then store and index new papers a chunk at a time: the index's writer processes work on
        one chunk while this process prepares the next, and only a chunk's derived text is in memory.
        Whoosh commits only after SQLite has, so the index never holds a paper the library lacks."""
        summary = ImportSummary(path, kind)
        total = len(records)
        store = self.store

        def check_cancel() -> None:
            if cancel is not None and cancel.is_set():
                raise ImportCancelled(path.name)  # rolls the whole file back

        hashes = [content_hash(r) for r in records]
        fresh: list[int] = []
        writer = None
        try:
            with store.transaction() as db:
                source_id = store.source_id(location, base_name(path), kind)
                existing = [Existing(pid, h, t, a) for pid, h, t, a in store.source_papers(source_id)]
                known = {e.content_hash for e in existing}
                # plain text (for similarity) only where a revised record could match a stored paper
                incoming = [
                    Incoming(h, r.title, markup.to_plain(r.abstract) if existing and h not in known else "")
                    for h, r in zip(hashes, records, strict=True)
                ]
                unchanged, revised = match(existing, incoming)
                del incoming
                rev = store.next_rev(db)
                taken = store.source_titles(source_id)
                revised_ids = []
                for i, pid in revised.items():
                    store.update_content(pid, to_new_paper(records[i], hashes[i]), rev)
                    revised_ids.append(pid)
                fresh = [i for i in range(total) if i not in unchanged and i not in revised]
                added_ids: list[int] = []
                if fresh:
                    from readinglist.index import new_document

                    writer = self.index.begin_bulk(len(fresh))
                for start in range(0, len(fresh), CHUNK):
                    check_cancel()
                    chunk = [to_new_paper(records[i], hashes[i]) for i in fresh[start : start + CHUNK]]
                    for paper, title in zip(chunk, make_unique([p.auto_title for p in chunk], taken), strict=True):
                        paper.auto_title = title
                        taken.add(title)
                    ids = store.insert_papers(source_id, chunk, rev)
                    for pid, paper in zip(ids, chunk, strict=True):
                        writer.add_document(**new_document(pid, paper))  # type: ignore[union-attr]
                    added_ids += ids
                    if progress:
                        progress(start + len(chunk), len(fresh), f"Importing {path.name}")
                seen = set(unchanged.values()) | set(revised.values()) | set(added_ids)
                gone = [e.id for e in existing if e.id not in seen]
                store.set_in_source(gone, False, rev)
                store.set_in_source(list(unchanged.values()), True, rev)
                check_cancel()  # the last moment to take it all back
        except BaseException:
            if writer is not None:
                self.index.cancel_bulk(writer)
            raise
        if writer is not None:
            if progress:
                progress(len(fresh), len(fresh), f"Indexing {path.name}")
            self.index.commit_bulk(writer, store.current_rev())
            if self._updater is not None and self.index.offloaded:
                self._updater.request_merge()
        if revised_ids:
            self.index.update(store.papers(revised_ids), store.current_rev())
        summary.added, summary.updated, summary.unchanged = len(added_ids), len(revised_ids), len(unchanged)
        summary.missing = len(gone)
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
        self.flush_index()  # see every change made before this search
        return self.index.search(text, limit=limit, state=state, tag=tag)

    def papers(self, ids: Sequence[int]) -> list[Paper]:
        return self.store.papers(ids)

    def paper(self, paper_id: int) -> Paper | None:
        return self.store.paper(paper_id)

    def rows(self, ids: Sequence[int]) -> dict[int, tuple[str, str, int | None, str, str]]:
        """Table rows (title, venue, year, state, tags) without abstracts: cheap enough to fetch by page."""
        return self.store.rows(ids)

    def ordered_ids(
        self, sort: str, descending: bool = False, state: str | None = None, tag: str | None = None
    ) -> list[int]:
        return self.store.ordered_ids(sort, descending, state=state, tag=tag)

    def tag_names(self) -> list[str]:
        return [name for name, _ in self.store.tag_counts()]

    def tags_of(self, ids: Sequence[int]) -> dict[int, list[str]]:
        return self.store.tags_of(ids)

    def resolve(self, uid: str) -> int:
        return self.store.resolve_uid(uid)

    def related(self, paper_id: int, top: int = 5, cancel: threading.Event | None = None) -> list[int]:
        self.flush_index()
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


def normalise_tags(tags: Sequence[str]) -> list[str]:
    """Tags are trimmed, single-spaced and lower-case; commas separate tags, so none is kept inside one."""
    out: dict[str, None] = {}
    for tag in tags:
        for part in tag.split(","):
            clean = " ".join(part.split()).lower()
            if clean:
                out.setdefault(clean, None)
    return list(out)
