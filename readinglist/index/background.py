"""The one writer of the search index in a process: every index write goes through `IndexUpdater`.

Whoosh allows one writer at a time. `IndexUpdater` holds that rule for its process (a lock every write
takes), keeps the index caught up with the store, and — in the window — writes annotation changes in the
background, by a separate writer process when one can run and on a thread of this process when not.

Why a process: a Whoosh commit is pure Python, and merging small segments takes seconds in a large library. On
a thread of the window's process it shared the interpreter lock with the UI and stretched the event loop's
pauses while marking papers (figures in docs/performance-changes.md). A child has an interpreter of its own.

The parent writes (imports, rebuilds) only while holding the lock and after `sync()`, which returns once
the child is idle; the child merges segments only right after an update, so it stays idle until the next
request. While a child keeps the index, an import indexes in Whoosh's writer processes from fewer papers on
and leaves merging to the child.

Protocol over a pipe: ("update", ids, rev) → ("updated", rev) [then ("merged",) if it merged];
("merge",) → [("merged",) if it merged]; ("sync",) → ("synced",); None → the child exits.
Any failure → ("error", message).

Over 400 lines: the updater and its writer process are two halves of one protocol (requests, acks, the
lock, death of either side) and are read together.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import suppress
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from readinglist.index.engine import BULK_PROCS_MIN_DOCS, BULK_PROCS_MIN_DOCS_WINDOW, Index, IndexBusy
from readinglist.papers import describe_error
from readinglist.priority import be_nicer

if TYPE_CHECKING:
    from whoosh.writing import SegmentWriter

    from readinglist.papers import Paper
    from readinglist.store import Store

START_TIMEOUT = 60.0  # seconds for the child to start and open the index (a cold disk, a slow machine)
REPLY_TIMEOUT = 600.0  # seconds for one update or merge before the child is given up
POLL_SECONDS = 0.5  # how often the background thread looks at the journal and the writer process
EDIT_WAIT = 5.0  # seconds an edit's index write waits for another process's writer; then the journal keeps it
BULK_WAIT = 0.5  # seconds an import waits for the index's writer; then its papers reach the index from the journal
SEARCH_WAIT = 30.0  # seconds a search waits for the journal to be written before searching without it
CHILD_WAIT = 1.0  # seconds the writer process waits for the lock before saying "busy" (it is asked again)
JOURNAL_CHUNK = 2000  # journal entries written per index commit
# seconds closing waits for the index to take in what is pending (and for the writer process to end) before
# it stops anyway: the journal keeps the rest for the next start, so a close never waits on the index
STOP_WAIT = 2.0


class IndexUpdater:
    """Keeps `index` in step with `store`, from the store's index journal: every change that the index does
    not hold yet is recorded there in the change's own transaction, and an entry is cleared only after the
    index commit that contains it, so no crash, kill or busy lock loses one.

    Without `start_background()` changes are written in the caller's thread (the command line), waiting a
    little for another process's writer and otherwise leaving the change to the journal; with it, a
    background thread writes them, through a writer process when one can run, and also picks up what other
    processes left in the journal."""

    def __init__(self, index: Index, store: Store, notify: Callable[[str], None], writable: bool = True):
        self.index = index
        self.store = store
        self.writable = writable  # False for a read-only library's own index: it is searched as it is
        self._notify = notify
        self._complete_at = -1  # journal entries up to this revision are in the index (see ensure_current)
        self._lock = threading.RLock()  # the one writer of this process; the writer process counts as it
        self._writer: WriterProcess | None = None  # while a child keeps the index
        self._use_process = True
        self._thread: threading.Thread | None = None
        self._cond = threading.Condition()
        self._requested = 0  # passes over the journal asked for …
        self._done = 0  # … and done
        self._stop = False
        self._prepare = False
        self._merge = False
        self._told: set[str] = set()  # messages already given (a failing disk is said once, not twice a second)

    def notify(self, message: str) -> None:
        if message not in self._told:
            self._told.add(message)
            self._notify(message)

    # ---- keeping the index trustworthy ----

    def catch_up(self) -> bool:
        """Open the index, rebuilding it if it cannot be trusted, and write what the journal says it lacks.
        False if it can be neither opened nor rebuilt (a read-only library's missing or outdated index)."""
        with self._lock:
            if not self.index.open():
                if not self.writable:
                    return False
                with self.index.rebuilding():
                    if not self.index.open():  # not rebuilt by another process while this one waited
                        snapshot = self.store.current_rev()
                        count = self.store.count()
                        if count:
                            self._notify(f"Building the search index for {count:,} papers…")
                        self.index.rebuild(self._all_papers(), snapshot, total=count)
                        self.store.clear_index_journal_upto(snapshot)  # the rebuild read every change up to it
                        self._complete_at = snapshot
            if not self.writable:
                return True
            since = self.store.journal_since()
            if self.index.rev < since:  # written before the journal existed: caught up from the revisions once

                def legacy(writer: SegmentWriter) -> int:
                    self.index.put(writer, self.store.papers(self.store.changed_since(self.index.rev)))
                    return since

                self.index.write(legacy, timeout=EDIT_WAIT)
        self.changed()
        return True

    def _all_papers(self, chunk: int = 2000) -> Iterator[Paper]:
        ids = self.store.all_ids()
        for i in range(0, len(ids), chunk):
            yield from self.store.papers(ids[i : i + chunk])

    # ---- writing ----

    def changed(self) -> None:
        """The store has changes the index lacks (they are in the journal): write them now, or wake the
        background thread. An index that cannot be written never fails the change: the journal keeps it."""
        if self._thread is not None:
            self._request()
            return
        try:
            self.write_now(EDIT_WAIT)
        except IndexBusy:
            self.notify(
                "The search index is busy (another readinglist process is writing it): the change is saved, "
                "and searches include it once the index is free."
            )
        except Exception as exc:  # the change is in the store and in the journal
            self.notify(f"The search index could not be updated ({describe_error(exc, self.index.folder)}); "
                        "the change is saved and will be indexed later.")  # fmt: skip

    def write_now(self, timeout: float | None) -> None:
        """Write every change the journal holds, in this thread (the child, if any, idle first), a chunk per
        commit. What to write is read with the index's lock held (see Index.write). Raises IndexBusy when
        another process holds the lock longer than `timeout` seconds."""
        if not self.writable:
            return
        with self._lock:
            self._quiesce()
            after = (self._complete_at, 1 << 62)
            while not self._stop:  # closing: the journal keeps the rest for the next start
                if not self.store.index_journal(1, after):  # nothing to write: no writer opened (a cancelled
                    break  # one leaves its empty segment's files behind until the next commit)
                chunk: list[tuple[int, int]] = []
                self.index.write(partial(self._fill_from_journal, after=after, chunk=chunk), timeout=timeout)
                if not chunk:
                    break
                self.store.clear_index_journal(chunk)
                after = (chunk[-1][1], chunk[-1][0])
            if self.store.read_only:  # its journal cannot be cleared: remember that every entry so far is in
                self._complete_at = max(self._complete_at, after[0])

    def _fill_from_journal(
        self, writer: SegmentWriter, after: tuple[int, int], chunk: list[tuple[int, int]]
    ) -> int | None:
        """Index.write's fill: the next chunk of the journal (into `chunk`), and its papers as they are now."""
        chunk.extend(self.store.index_journal(JOURNAL_CHUNK, after))
        if not chunk:
            return None
        ids = [pid for pid, _ in chunk]
        papers = self.store.papers(ids)
        found = {p.id for p in papers}
        self.index.put(writer, papers, remove=[i for i in ids if i not in found])
        return self.store.current_rev()

    def ensure_current(self, timeout: float | None = None) -> int:
        """Before a search: every committed change written to the index, waiting at most `timeout` seconds
        (SEARCH_WAIT) for a busy index. Returns how many changes it still lacks (0 normally)."""
        if not self.store.journal_size(after=self._complete_at):
            return 0
        timeout = SEARCH_WAIT if timeout is None else timeout
        if self._thread is not None:
            self.flush(timeout)
        else:
            try:
                self.write_now(timeout)
            except IndexBusy:
                pass
            except Exception as exc:  # the search goes on over what the index has, and says so
                self.notify(f"The search index could not be updated ({describe_error(exc, self.index.folder)}).")
        return self.store.journal_size(after=self._complete_at)

    def begin_bulk(self, expected: int) -> SegmentWriter | None:
        """A writer for many new documents, held until commit_bulk or cancel_bulk (the lock is taken here);
        None when the index is busy beyond BULK_WAIT (this process's background pass, or another process's
        writer): the import holds the library meanwhile, and waited without end for another process's writer,
        every edit waiting with it. Its papers are in the journal: the caller asks for them to be indexed once
        the library is committed (changed()). A child's merge still runs to its end first (_quiesce)."""
        if not self._lock.acquire(timeout=BULK_WAIT):
            return None
        try:
            self._quiesce()
            procs_from = BULK_PROCS_MIN_DOCS_WINDOW if self._writer is not None else BULK_PROCS_MIN_DOCS
            writer = self.index.bulk_writer(expected, procs_from, timeout=BULK_WAIT)
        except IndexBusy:
            self._lock.release()
            return None
        except BaseException:
            self._lock.release()
            raise
        return writer

    def commit_bulk(self, writer: SegmentWriter, written: Iterable[tuple[int, int]] = ()) -> None:
        """Commit an import's documents; `written` are the journal entries (paper id, revision) they hold
        (read once, as they come: an import's are not made into a list).
        With a writer process, merging is left to it."""
        try:
            offloaded = self._writer is not None
            self.index.commit(writer, self.store.current_rev(), merge=not offloaded)
            self.store.clear_index_journal(written)
        finally:
            self._lock.release()
        if offloaded:
            self.request_merge()

    def cancel_bulk(self, writer: SegmentWriter) -> None:
        try:
            self.index.cancel(writer)
        finally:
            self._lock.release()

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
        self._request()  # whatever the journal holds from before

    @property
    def background(self) -> bool:
        return self._thread is not None

    def _request(self) -> None:
        with self._cond:
            self._requested += 1
            self._cond.notify_all()

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
        """Wait until the background thread has been through the journal once since now; False if `timeout`
        passed first. (Changes another process's writer holds up stay in the journal: see ensure_current.)"""
        if self._thread is None:
            return True
        with self._cond:
            wanted = self._requested = self._requested + 1
            self._cond.notify_all()
            return self._cond.wait_for(lambda: self._done >= wanted or self._thread is None, timeout)

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
        """Write what is pending, for STOP_WAIT at most, then stop the thread (after the journal chunk it is
        writing) and the writer process; what is left stays in the journal, which the next start writes."""
        if self._thread is None:
            return
        self.flush(STOP_WAIT)
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        self._thread.join(STOP_WAIT)
        if self._thread.is_alive():  # waiting on the writer process (a merge it began): ended, not waited for
            writer = self._writer
            if writer is not None:
                writer.kill()
            self._thread.join()
        self._thread = None

    def _has_work(self) -> bool:
        return self._requested > self._done or self._stop or self._prepare or self._merge

    def _run(self) -> None:
        try:
            while True:
                with self._cond:
                    self._cond.wait_for(self._has_work, POLL_SECONDS)
                    if self._stop:
                        return
                    requested = self._requested
                    prepare, self._prepare = self._prepare, False
                    merge, self._merge = self._merge, False
                try:
                    if prepare:
                        self._writer_process()
                    if self.store.journal_size():  # this process's changes, or another's left behind
                        self._write_journal()
                    if merge:
                        self._ask_for_merge()
                    if self._writer is not None:
                        self.poll()
                except IndexBusy:
                    pass  # another process writes the index: the journal keeps the changes; next poll
                except Exception as exc:  # the store has the change; the journal keeps it
                    self.notify(f"The search index could not be updated "
                                f"({describe_error(exc, self.index.folder)}); it will be caught up.")  # fmt: skip
                finally:
                    with self._cond:
                        self._done = max(self._done, requested)
                        self._cond.notify_all()
        finally:
            self._close_writer()

    def _write_journal(self) -> None:
        writer = self._writer_process()
        if writer is None:
            self.write_now(CHILD_WAIT)
            return
        with self._lock:
            after = (self._complete_at, 1 << 62)
            while not self._stop and (chunk := self.store.index_journal(JOURNAL_CHUNK, after)):
                after = (chunk[-1][1], chunk[-1][0])
                rev = self.store.current_rev()
                try:
                    writer.update([pid for pid, _ in chunk], rev)  # the child reads the papers under its lock
                except WriterError as exc:
                    if exc.busy:
                        raise IndexBusy(str(exc)) from None
                    if self._stop:
                        return  # closing ended it (stop): the journal keeps the rest
                    self._give_up_process(exc)
                    self.write_now(CHILD_WAIT)
                    return
                self.store.clear_index_journal(chunk)
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
        self._notify(f"Writing the search index in-process ({exc}).")
        self._close_writer()
        self._use_process = False

    def _close_writer(self) -> None:
        with self._lock:
            writer, self._writer = self._writer, None
        if writer is not None:
            writer.close()


def die_with_parent(parent: int) -> None:
    """A child process (the writer process, Whoosh's indexing workers) must not outlive the process that
    started it: it would hold the index's write lock, and wait for work forever. On Linux the kernel kills
    it when the parent dies (PR_SET_PDEATHSIG); everywhere, a watchdog thread checks the parent's id."""
    if sys.platform.startswith("linux"):
        with suppress(Exception):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # already gone before the line above took effect
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="readinglist-parent-watch", daemon=True).start()


# ---- the writer process ---------------------------------------------------------------------------------


class WriterError(RuntimeError):
    """The writer process failed or went away (the caller writes in-process instead), or, with `busy`, it
    found another process writing the index (the caller asks again later)."""

    def __init__(self, message: str, busy: bool = False):
        super().__init__(message)
        self.busy = busy


class WriterProcess:
    def __init__(self, index_folder: Path, database: Path):
        # spawn, not fork: the window's process has Qt and threads, which a forked child must not inherit
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._proc = ctx.Process(
            target=serve,
            args=(child, str(index_folder), str(database), os.getpid()),
            name="readinglist-index-writer",
            daemon=True,
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

    def kill(self) -> None:
        """End the child now (a merge it is in is lost, not the index: a commit is whole or not at all); the
        parent waiting on its answer hears its pipe close."""
        with suppress(OSError, ValueError):
            self._proc.kill()

    def close(self) -> None:
        with suppress(OSError, ValueError):
            self._conn.send(None)
        self._proc.join(STOP_WAIT)
        if self._proc.is_alive():  # mid-merge: Whoosh commits a merge whole or not at all, so it may be ended
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
        if kind == "busy":
            raise WriterError(message[1], busy=True)
        if kind == "merged":
            self.merged = True
        return str(kind)


def serve(conn: multiprocessing.connection.Connection, index_folder: str, database: str, parent: int) -> None:
    """The child: apply updates from SQLite to the index, one request at a time. It dies with its parent,
    and a parent gone mid-reply ends it quietly (the parent's own restart catches up from the journal)."""
    die_with_parent(parent)
    be_nicer()  # an import's merge takes a core for seconds: the window's thread, waking, goes first
    with suppress(BrokenPipeError, EOFError, ConnectionError):
        _serve(conn, index_folder, database)


def _serve(conn: multiprocessing.connection.Connection, index_folder: str, database: str) -> None:
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

                def fill(writer: SegmentWriter, ids: list[int] = ids, rev: int = rev) -> int:
                    papers = store.papers(ids)  # read now, with the lock held (see Index.write)
                    found = {p.id for p in papers}
                    index.put(writer, papers, remove=[i for i in ids if i not in found])
                    return rev

                index.write(fill, merge=False, timeout=CHILD_WAIT)
                conn.send(("updated", rev))
                if not conn.poll() and index.merge_small():
                    conn.send(("merged",))
            elif message[0] == "merge":
                if index.merge_small():
                    conn.send(("merged",))
            elif message[0] == "sync":
                conn.send(("synced",))
        except IndexBusy as exc:
            conn.send(("busy", str(exc)))
        except (BrokenPipeError, EOFError, ConnectionError):
            raise
        except Exception as exc:
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
    index.close()
    store.close()
