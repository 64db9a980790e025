"""The one writer of the search index in a process: every index write goes through `IndexUpdater`.

Whoosh allows one writer at a time. `IndexUpdater` holds that rule for its process (a lock every write
takes), keeps the index caught up with the store, and — in the window — writes annotation changes in the
background, by a separate writer process when one can run and on a thread of this process when not.

Why a process: a Whoosh commit is pure Python, and merging small segments takes seconds at 94k papers. On
a thread of the window's process it shared the interpreter lock with the UI and stretched the event loop's
pauses while marking papers (figures in docs/performance-changes.md). A child has an interpreter of its own.

The parent writes (imports, rebuilds) only while holding the lock and after `sync()`, which returns once
the child is idle; the child merges segments only right after an update, so it stays idle until the next
request. While a child keeps the index, an import indexes in Whoosh's writer processes from fewer papers on
and leaves merging to the child.

Protocol over a pipe: ("update", ids, rev) → ("updated", rev) [then ("merged",) if it merged];
("merge",) → [("merged",) if it merged]; ("sync",) → ("synced",); None → the child exits.
Any failure → ("error", message).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING

from readinglist.index.engine import BULK_PROCS_MIN_DOCS, BULK_PROCS_MIN_DOCS_WINDOW, Index

if TYPE_CHECKING:
    from whoosh.writing import SegmentWriter

    from readinglist.papers import Paper
    from readinglist.store import Store

START_TIMEOUT = 60.0  # seconds for the child to start and open the index (a cold disk, a slow machine)
REPLY_TIMEOUT = 600.0  # seconds for one update or merge before the child is given up
POLL_SECONDS = 0.5  # how often an idle background updater looks whether the writer process merged segments


class IndexUpdater:
    """Keeps `index` in step with `store`. Without `start_background()` every write happens in the caller's
    thread (the command line); with it, changes are handed to a background thread that coalesces bursts
    and passes them to a writer process. `flush()` waits until every change handed over is written, so a
    search after it sees every change made before it."""

    def __init__(self, index: Index, store: Store, notify: Callable[[str], None]):
        self.index = index
        self.store = store
        self.notify = notify
        self._lock = threading.RLock()  # the one writer of this process; the writer process counts as it
        self._writer: WriterProcess | None = None  # while a child keeps the index
        self._use_process = True
        self._thread: threading.Thread | None = None
        self._pending: set[int] = set()
        self._busy = False
        self._stop = False
        self._prepare = False
        self._merge = False
        self._cond = threading.Condition()

    # ---- keeping the index trustworthy ----

    def catch_up(self, read_only: bool = False) -> None:
        """Open the index, rebuilding it if it cannot be trusted, and write what it missed while closed."""
        with self._lock:
            rev = self.store.current_rev()
            if not self.index.open():
                if read_only:
                    return
                count = self.store.count()
                if count:
                    self.notify(f"Building the search index for {count:,} papers…")
                self.index.rebuild(self._all_papers(), rev, total=count)
                return
            if self.index.rev < rev and not read_only:
                changed = self.store.changed_since(self.index.rev)
                if changed:
                    self.index.update(self.store.papers(changed), rev)

    def _all_papers(self, chunk: int = 2000) -> Iterator[Paper]:
        ids = self.store.all_ids()
        for i in range(0, len(ids), chunk):
            yield from self.store.papers(ids[i : i + chunk])

    # ---- writing ----

    def changed(self, ids: Sequence[int]) -> None:
        """These papers changed in the store: write them now, or hand them to the background."""
        if not ids:
            return
        if self._thread is not None:
            with self._cond:
                self._pending.update(ids)
                self._cond.notify_all()
        else:
            self.write_now(ids)

    def write_now(self, ids: Sequence[int]) -> None:
        """Write these papers' documents in this thread (the child, if any, idle first)."""
        with self._lock:
            self._quiesce()
            self.index.update(self.store.papers(list(ids)), self.store.current_rev())

    def begin_bulk(self, expected: int) -> SegmentWriter:
        """A writer for many new documents, held until commit_bulk or cancel_bulk (the lock is taken here)."""
        self._lock.acquire()
        try:
            self._quiesce()
            offloaded = self._writer is not None
            return self.index.bulk_writer(expected, BULK_PROCS_MIN_DOCS_WINDOW if offloaded else BULK_PROCS_MIN_DOCS)
        except BaseException:
            self._lock.release()
            raise

    def commit_bulk(self, writer: SegmentWriter) -> None:
        """Commit an import's documents; with a writer process, merging is left to it."""
        try:
            offloaded = self._writer is not None
            self.index.commit(writer, self.store.current_rev(), merge=not offloaded)
        finally:
            self._lock.release()
        if offloaded:
            self.request_merge()

    def cancel_bulk(self, writer: SegmentWriter) -> None:
        try:
            self.index.cancel(writer)
        finally:
            self._lock.release()

    def rebuild(self, papers: Iterable[Paper], total: int | None = None) -> None:
        with self._lock:
            self._quiesce()
            self.index.rebuild(papers, self.store.current_rev(), total=total)

    def _quiesce(self) -> None:
        """Lock held, before this process writes: a child's merge must be over."""
        writer = self._writer
        if writer is not None and threading.current_thread() is not self._thread:
            with suppress(WriterError):  # gone: it writes nothing any more
                writer.sync()

    # ---- in the background ----

    def start_background(self, use_process: bool = True) -> None:
        """From now on changes are written by a background thread (and a writer process if `use_process`)."""
        if self._thread is not None:
            return
        self._use_process = use_process
        self._thread = threading.Thread(target=self._run, name="readinglist-index-writer", daemon=True)
        self._thread.start()

    @property
    def background(self) -> bool:
        return self._thread is not None

    def prepare(self) -> None:
        """Start the writer process now (the window calls this once it is up), not at the first edit."""
        with self._cond:
            self._prepare = True
            self._cond.notify_all()

    def request_merge(self) -> None:
        """An import committed without merging: the writer process merges, in its own time."""
        with self._cond:
            self._merge = True
            self._cond.notify_all()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every change handed over is written; False if `timeout` passed first."""
        if self._thread is None:
            return True
        with self._cond:
            return self._cond.wait_for(lambda: not self._pending and not self._busy, timeout)

    def settle(self) -> None:
        """Wait until every change is written and any merge has finished, and search the result."""
        self.flush()
        with self._lock:
            if self._writer is not None:
                with suppress(WriterError):
                    self._writer.sync()
        self.poll()  # sync() read any "merged" that came before "synced": reloads if so

    def poll(self) -> None:
        """Renew the searcher once the writer process has merged segments (what the idle background thread
        does every POLL_SECONDS; the pipe is only ever used with the lock held)."""
        with self._lock:
            try:
                if self._writer is not None and self._writer.poll_merged():
                    self.index.reload()
            except WriterError as exc:  # it died between requests: the next edit is written in-process
                self._give_up_process(exc)
                self.index.reload()

    @property
    def writer_pid(self) -> int | None:
        """The writer process's id while it runs."""
        return self._writer.pid if self._writer is not None else None

    def stop(self) -> None:
        """Write what is pending, stop the thread and the writer process."""
        if self._thread is None:
            return
        self.flush()
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        self._thread.join()
        self._thread = None

    def _run(self) -> None:
        try:
            while True:
                with self._cond:
                    self._cond.wait_for(
                        lambda: self._pending or self._stop or self._prepare or self._merge, POLL_SECONDS
                    )
                    if self._stop and not self._pending:
                        return
                    ids, self._pending = list(self._pending), set()
                    prepare, self._prepare = self._prepare, False
                    merge, self._merge = self._merge, False
                    self._busy = bool(ids)
                try:
                    if prepare:
                        self._writer_process()
                    if ids:
                        self._apply(ids)
                    if merge:
                        self._ask_for_merge()
                    if not ids and self._writer is not None:
                        self.poll()
                except Exception as exc:  # the store has the change; the index catches up on the next open
                    self.notify(f"The search index could not be updated ({exc}); it will be on restart.")
                finally:
                    with self._cond:
                        self._busy = False
                        self._cond.notify_all()
        finally:
            self._close_writer()

    def _has_work(self) -> bool:
        return bool(self._pending or self._stop or self._prepare or self._merge)

    def _apply(self, ids: list[int]) -> None:
        writer = self._writer_process()
        if writer is None:
            self.write_now(ids)
            return
        with self._lock:
            rev = self.store.current_rev()
            try:
                writer.update(ids, rev)
            except WriterError as exc:
                self._give_up_process(exc)
                self.write_now(ids)
                return
            self.index.reload(rev)

    def _ask_for_merge(self) -> None:
        with self._lock:
            if self._writer is not None:
                with suppress(WriterError):  # gone: the next edit finds out and writes in-process
                    self._writer.request_merge()

    def _writer_process(self) -> WriterProcess | None:
        if self._writer is None and self._use_process:
            try:
                writer = WriterProcess(self.index.folder, self.store.path)
            except (WriterError, OSError) as exc:
                self._give_up_process(exc)
                return None
            with self._lock:
                self._writer = writer
        return self._writer

    def _give_up_process(self, exc: Exception) -> None:
        """From now on this process writes the index itself; the user is told why."""
        self.notify(f"Writing the search index in-process ({exc}).")
        self._close_writer()
        self._use_process = False

    def _close_writer(self) -> None:
        with self._lock:
            writer, self._writer = self._writer, None
        if writer is not None:
            writer.close()


# ---- the writer process ---------------------------------------------------------------------------------


class WriterError(RuntimeError):
    """The writer process failed or went away; the caller writes in-process instead."""


class WriterProcess:
    def __init__(self, index_folder: Path, database: Path):
        # spawn, not fork: the window's process has Qt and threads, which a forked child must not inherit
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._proc = ctx.Process(
            target=serve, args=(child, str(index_folder), str(database)), name="readinglist-index-writer", daemon=True
        )
        self._proc.start()
        child.close()
        self.merged = False  # a merge finished since the caller last looked
        self._expect("ready", START_TIMEOUT)

    @property
    def pid(self) -> int | None:
        return self._proc.pid

    def update(self, ids: Sequence[int], rev: int) -> None:
        self._send(("update", list(ids), rev))
        self._expect("updated", REPLY_TIMEOUT)

    def request_merge(self) -> None:
        """Merge small segments if due, in the child's own time; ("merged",) comes when it did."""
        self._send(("merge",))

    def sync(self) -> None:
        """Return once the child is idle (no merge running): the parent may write then."""
        self._send(("sync",))
        self._expect("synced", REPLY_TIMEOUT)

    def poll_merged(self) -> bool:
        """Read what the child said meanwhile; True if it merged segments (the searcher may be renewed)."""
        try:
            while self._conn.poll():
                self._handle(self._conn.recv())
        except (EOFError, OSError) as exc:
            raise WriterError(f"the index writer process stopped ({exc})") from None
        merged, self.merged = self.merged, False
        return merged

    def close(self) -> None:
        with suppress(OSError, ValueError):
            self._conn.send(None)
        self._proc.join(10)
        if self._proc.is_alive():
            self._proc.terminate()
            self._proc.join(5)
        self._conn.close()

    def _send(self, message: object) -> None:
        try:
            self._conn.send(message)
        except (OSError, ValueError) as exc:
            raise WriterError(f"the index writer process is gone ({exc})") from None

    def _expect(self, kind: str, timeout: float) -> None:
        while True:
            try:
                if not self._conn.poll(timeout):
                    raise WriterError(f"the index writer process did not answer within {timeout:.0f} s")
                message = self._conn.recv()
            except (EOFError, OSError) as exc:
                raise WriterError(f"the index writer process stopped ({exc})") from None
            if self._handle(message) == kind:
                return

    def _handle(self, message: tuple) -> str:
        kind = message[0]
        if kind == "error":
            raise WriterError(message[1])
        if kind == "merged":
            self.merged = True
        return str(kind)


def serve(conn: multiprocessing.connection.Connection, index_folder: str, database: str) -> None:
    """The child: apply updates from SQLite to the index, one request at a time."""
    try:
        from readinglist.store import open_store

        store = open_store(Path(database), read_only=True)
        index = Index(Path(index_folder), keep_searcher=False)
        if not index.open():
            conn.send(("error", "the search index could not be opened by the writer process"))
            return
        conn.send(("ready",))
    except Exception as exc:  # reported to the parent, which then writes in-process
        conn.send(("error", f"the index writer process could not start ({type(exc).__name__}: {exc})"))
        return
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return  # the parent is gone
        if message is None:
            break
        try:
            if message[0] == "update":
                _, ids, rev = message
                index.update(store.papers(ids), rev, merge=False)
                conn.send(("updated", rev))
                if not conn.poll() and index.merge_small():
                    conn.send(("merged",))
            elif message[0] == "merge":
                if index.merge_small():
                    conn.send(("merged",))
            elif message[0] == "sync":
                conn.send(("synced",))
        except Exception as exc:
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
    index.close()
    store.close()
