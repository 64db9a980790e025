"""Running a topic computation off the caller's thread: in a child process by default.

A child process, not a thread: reading and tokenising the papers is a Python loop, which would take turns
with the window's thread for the interpreter lock; the child's memory (the most of any part) is handed
back to the system when it ends, so the window stays small; and a cancel ends it at once. The child reads
the library itself (read-only) and sends back the result; the caller stores it (one short transaction).
Nothing here imports numpy at the top: the child sets its BLAS to one thread before numpy loads (OpenBLAS's
threads on a shared 2-core machine slowed a QR many times over: performance-changes.md), and the process
that stores the result never loads numpy.
"""

from __future__ import annotations

import os
import sys
import threading
import traceback
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from readinglist.papers import StoreError, TopicsCancelled

if TYPE_CHECKING:
    from readinglist.topics import Previous, TopicsResult


@dataclass
class Computed:
    """A computation's result in plain Python and bytes, so the process storing it never loads numpy."""

    topics: list[tuple[int, list[str], int, float, float]]  # (id, phrases, size, x, y), largest first
    paper_ids: bytes  # little-endian int64
    topic_ids: bytes  # little-endian int64, aligned
    xy: bytes  # little-endian float32 pairs, aligned
    next_id: int
    seconds: dict[str, float]
    papers_read: int

    def pairs(self) -> Iterator[tuple[int, int]]:
        """(paper id, topic id) of the papers with a topic (not those with too little text: −1 on the map),
        streamed into the store's insert."""
        ids, topics = array("q"), array("q")
        ids.frombytes(self.paper_ids)
        topics.frombytes(self.topic_ids)
        if sys.byteorder != "little":
            ids.byteswap()
            topics.byteswap()
        return ((pid, tid) for pid, tid in zip(ids, topics, strict=True) if tid >= 0)


def _plain(result: TopicsResult) -> Computed:
    import numpy as np

    return Computed(
        topics=[(t.id, t.phrases, t.size, t.x, t.y) for t in result.topics],
        paper_ids=result.paper_ids.astype("<i8").tobytes(),
        topic_ids=result.topic_ids.astype("<i8").tobytes(),
        xy=np.ascontiguousarray(result.xy, dtype="<f4").tobytes(),
        next_id=result.next_id,
        seconds=result.seconds,
        papers_read=result.papers_read,
    )


Progress = Callable[[int, int, str], None]  # (done, total, message), as an import's
_ONE_THREAD = {v: "1" for v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}


def compute(
    db_path: Path,
    count: int | None = None,
    use_process: bool = True,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
    seed: int = 0,
) -> Computed:
    """Compute topics and the map for the library at db_path; raises TopicsCancelled or StoreError."""
    if not use_process:
        return _plain(compute_result(db_path, count, seed, progress, cancel))
    from readinglist import child_process

    try:
        return child_process.run(
            _in_child, (str(db_path), count, seed), progress, cancel,
            name="readinglist-topics", cancelled=TopicsCancelled, end_on_cancel=True, daemon=True, nicer=True,
        )  # fmt: skip
    except TopicsCancelled:
        raise
    except StoreError as exc:
        raise StoreError(f"topics could not be computed: {exc}") from None
    except MemoryError:
        raise StoreError("topics could not be computed: out of memory") from None
    except Exception as exc:  # a bug in the child: say what, as a message the window shows
        raise StoreError(f"topics could not be computed: {type(exc).__name__}: {exc}") from None


def compute_result(
    db_path: Path,
    count: int | None = None,
    seed: int = 0,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
    fresh: bool = False,
) -> TopicsResult:
    """The computation itself, in this thread, with numpy's arrays (benchmarks read them); `fresh` ignores
    the stored topics (no ids or places carried over)."""
    from readinglist import topics
    from readinglist.store import open_store

    def tell(share: float, message: str) -> None:
        if cancel is not None and cancel.is_set():
            raise TopicsCancelled()
        if progress is not None:
            progress(round(100 * share), 100, message)

    store = open_store(Path(db_path), read_only=True)
    try:
        previous = None if fresh else load_previous(store)

        def texts_of(ids: list[int] | Any) -> list[tuple[str, str]]:
            found = store.texts(ids)
            return [found.get(i, ("", "")) for i in ids]

        return topics.compute(store.topic_rows(), texts_of, previous, count, tell, seed, expected=store.count())
    finally:
        store.close()


def load_previous(store: Any) -> Previous | None:
    """What the last computation stored, for ids and map places to carry over."""
    import numpy as np

    from readinglist.topics import Previous

    pairs = store.paper_topic_pairs()
    stored = store.topics()
    if not pairs or not stored:
        return None
    meta = store.topics_meta()
    arr = np.asarray(pairs, dtype=np.int64)
    return Previous(
        paper_ids=arr[:, 0],
        topic_ids=arr[:, 1],
        phrases={t.id: t.phrases for t in stored},
        centres={t.id: (t.x, t.y) for t in stored},
        next_id=int(meta.get("next_id", max(t.id for t in stored) + 1)),
    )


def _in_child(
    db_path: str, count: int | None, seed: int, progress: Progress | None = None, cancel: Any = None
) -> Computed:
    """The child process: one BLAS thread, no glibc arenas held after numpy frees them, then compute."""
    os.environ.update(_ONE_THREAD)
    _fixed_malloc_thresholds()
    try:
        return _plain(compute_result(Path(db_path), count, seed, progress, cancel))
    except Exception as exc:
        if not isinstance(exc, StoreError | MemoryError | TopicsCancelled):  # a bug: its traceback on stderr
            traceback.print_exc(file=sys.stderr)
        raise


def _fixed_malloc_thresholds() -> None:
    """glibc raises its mmap threshold as large blocks are freed, after which numpy's temporaries come from
    the heap and are not returned, and the peak memory grows (performance-changes.md). A fixed threshold keeps them
    mapped (Linux only; elsewhere nothing changes)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-3, 128 * 1024)  # M_MMAP_THRESHOLD
        libc.mallopt(-1, 128 * 1024)  # M_TRIM_THRESHOLD
    except (OSError, AttributeError):
        pass
