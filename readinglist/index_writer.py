"""Annotation changes written to the search index by a separate process.

Why a process: a Whoosh commit is pure Python (about 15 ms for one paper, and merging small segments
takes seconds at 94k papers). On a thread of the window's process it shared the interpreter lock with
the UI, and the longest pause of the event loop while marking papers read went from 13–21 ms (index
writing switched off) to 22–61 ms. A child process has an interpreter of its own.

Whoosh allows one writer at a time. The parent writes (imports, rebuilds) only while holding the index's
write lock and after `sync()`, which returns once the child is idle; the child merges segments only
right after an update, so it stays idle until the next request.

Protocol over a pipe: ("update", ids, rev) → ("updated", rev) [then ("merged",) if it merged];
("merge",) → [("merged",) if it merged]; ("sync",) → ("synced",); None → the child exits.
Any failure → ("error", message).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path

START_TIMEOUT = 60.0  # seconds for the child to start and open the index (a cold disk, a slow machine)
REPLY_TIMEOUT = 600.0  # seconds for one update or merge before the child is given up


class WriterError(RuntimeError):
    """The writer process failed or went away; the caller writes in-process instead."""


class WriterProcess:
    def __init__(self, data_dir: Path):
        # spawn, not fork: the window's process has Qt and threads, which a forked child must not inherit
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._proc = ctx.Process(
            target=serve, args=(child, str(data_dir)), name="readinglist-index-writer", daemon=True
        )
        self._proc.start()
        child.close()
        self.merged = False  # a merge finished since the caller last looked
        self._expect("ready", START_TIMEOUT)

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


def serve(conn: multiprocessing.connection.Connection, data_dir: str) -> None:
    """The child: apply updates from SQLite to the index, one request at a time."""
    try:
        from readinglist.index import Index
        from readinglist.store import open_store

        folder = Path(data_dir)
        store = open_store(folder / "library.db", read_only=True)
        index = Index(folder / "index", keep_searcher=False)
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
