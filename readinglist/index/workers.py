"""Whoosh's multi-process writer with its indexing workers spawned, not forked.

A forked worker starts as a copy of the importing process: every page of its heap (the window's Qt objects,
the import's chunk, the modules) is counted in the worker's resident set too, and Python's reference counts
copy those pages one by one as the worker runs. A spawned worker is a fresh interpreter holding only
Whoosh and the index's modules, so an import's memory is the importing process plus what the workers
index. Spawning is also what a process with Qt and threads needs (see background.py's writer process).

Everything else is Whoosh's MpWriter and SubWriterTask as they are (and patches.py's safety net: the
workers die with the process that started them).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.context
from typing import Any

from whoosh import multiproc

_SPAWN = multiprocessing.get_context("spawn")


class SpawnedSubWriter(multiproc.SubWriterTask):
    """One indexing worker, started in a new interpreter."""

    _start_method = "spawn"
    _Popen = staticmethod(multiprocessing.context.SpawnProcess._Popen)

    def run(self) -> None:
        from readinglist.index import patches

        patches.apply()  # the same byte-identical fast paths as the parent, and dying with it
        self._readinglist_lock_fds: list[int] = []  # spawned: it inherited no descriptor of the write lock to close
        super().run()


class SpawningMpWriter(multiproc.MpWriter):
    """Whoosh's MpWriter whose workers are SpawnedSubWriter: its job queues are the spawn context's (a
    fork context's semaphores cannot be handed to a spawned process)."""

    def __init__(self, ix: Any, **kwargs: Any) -> None:
        super().__init__(ix, **kwargs)
        self.jobqueue = _SPAWN.Queue(self.procs * 4)
        self.resultqueue = _SPAWN.Queue()
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
        task = SpawnedSubWriter(
            self.storage, self.indexname, self.jobqueue, self.resultqueue, self.subargs, self.multisegment
        )
        self.tasks.append(task)
        task.start()
        return task
