"""Whoosh's multi-process writer with its indexing workers spawned, not forked.

A forked worker starts as a copy of the importing process: every page of its heap (the window's Qt objects,
the import's chunk, the modules) is counted in the worker's resident set too, and Python's reference counts
copy those pages one by one as the worker runs. A spawned worker is a fresh interpreter holding only
Whoosh and the index's modules, so an import's memory is the importing process plus what the workers
index. Spawning is also what a process with Qt and threads needs (see background.py's writer process).

A worker runs a little nicer than the process that feeds it (readinglist.priority): on two cores, the importing
process, which prepares every paper in turn, and the window's event loop go first; the workers take what CPU is
left.

Everything else is Whoosh's MpWriter and SubWriterTask as they are (and patches.py's safety net: the
workers die with the process that started them).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.context
import queue
from typing import Any

from whoosh import multiproc

from readinglist.priority import be_nicer

_SPAWN = multiprocessing.get_context("spawn")
LIVENESS_S = 1.0  # how often a put to a full job queue, or the wait for a worker's segment, checks the workers


class WorkersStopped(OSError):
    """The indexing workers stopped before their work was done (killed, out of memory): an import fails with
    this rather than waiting for them for ever, and its papers stay in the index's journal to be indexed."""

    def __init__(self) -> None:
        super().__init__("the search index's writer processes stopped before they were done")


class _Watched:
    """A queue as the importing process uses it: a put to the full job queue, or the commit's wait for a
    worker's segment, goes on only while a worker is alive (Whoosh's put waited for ever, and its commit gave
    up on a missing segment after a second, leaving those papers out of the index)."""

    def __init__(self, q: Any, tasks: list[Any]) -> None:
        self._q, self._tasks = q, tasks

    def _alive(self) -> bool:
        return any(task.is_alive() for task in self._tasks)

    def put(self, item: object) -> None:
        while True:
            try:
                self._q.put(item, timeout=LIVENESS_S)
                return
            except queue.Full:
                if not self._alive():
                    raise WorkersStopped() from None

    def get(self, timeout: float | None = None) -> Any:
        while True:
            alive = self._alive()  # before the wait: a worker may put its segment just before it ends
            try:
                return self._q.get(timeout=LIVENESS_S)
            except queue.Empty:
                if not alive:
                    raise WorkersStopped() from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._q, name)


class SpawnedSubWriter(multiproc.SubWriterTask):
    """One indexing worker, started in a new interpreter."""

    _start_method = "spawn"
    _Popen = staticmethod(multiprocessing.context.SpawnProcess._Popen)

    def run(self) -> None:
        from readinglist.index import patches

        be_nicer()  # the importing process (and the window's event loop) before the indexing
        patches.apply()  # the same byte-identical fast paths as the parent, and dying with it
        self._readinglist_lock_fds: list[int] = []  # spawned: it inherited no descriptor of the write lock to close
        super().run()


class SpawningMpWriter(multiproc.MpWriter):
    """Whoosh's MpWriter whose workers are SpawnedSubWriter: its job queues are the spawn context's (a
    fork context's semaphores cannot be handed to a spawned process)."""

    def __init__(self, ix: Any, **kwargs: Any) -> None:
        super().__init__(ix, **kwargs)
        self._jobs = _SPAWN.Queue(self.procs * 4)  # what the workers are given; this process puts through
        self._results = _SPAWN.Queue()  # the watched wrappers
        self.jobqueue = _Watched(self._jobs, self.tasks)
        self.resultqueue = _Watched(self._results, self.tasks)
        for _ in range(self.procs):  # started now, not at the first batch: an interpreter takes a while to
            self._new_task()  # start, and meanwhile the import prepares its first papers

    def cancel(self) -> None:
        """Whoosh's cancel only flags its copy of each worker: a spawned worker would wait for a job until
        the importing process exits. They are stopped instead (what they wrote is the writer's to drop)."""
        try:
            for task in self.tasks:
                if task.is_alive():
                    task.terminate()
                task.join(5)
        finally:
            super().cancel()

    def _new_task(self) -> SpawnedSubWriter:
        args = (self.storage, self.indexname, self._jobs, self._results, self.subargs, self.multisegment)
        task = SpawnedSubWriter(*args)
        self.tasks.append(task)
        task.start()
        return task
