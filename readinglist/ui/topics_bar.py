"""Topics computed in the background: after an import, and when a library that has none (or whose papers
changed since) is opened. Progress shows in the status bar as an import's does, with a Stop button.

The computation runs in a child process (readinglist.topics_job); a thread of its own waits for it and
stores the result, so the window's worker pool stays free for searches and the window's thread only
shows progress. Whether topics are due is asked on that thread too (it reads the whole papers table).
"""

from __future__ import annotations

import threading

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from readinglist.library import Library
from readinglist.papers import TopicsCancelled, TopicsStatus
from readinglist.ui.workers import Runner

MIN_AUTO_PAPERS = 50  # smaller libraries are grouped when asked (the Topics section offers it), not on their own


class TopicsBar(QWidget):
    """The topics computation's progress in the status bar, and the computation itself."""

    started = Signal()  # a computation began (the bar is shown)
    computed = Signal(object)  # TopicsStatus: new topics are stored
    stopped = Signal()  # a computation ended, however it went (or none was due)
    message = Signal(str, int)  # for the status bar: text, milliseconds
    _progressed = Signal(int, int, str)  # from the worker: done, total, what is happening
    _began = Signal()  # from the worker: topics are due and their computation starts

    def __init__(self, library: Library, parent: QWidget | None = None):
        super().__init__(parent)
        self._library = library
        self._runner = Runner(self, threads=1)  # waits on the child process, for long in a large library
        self._cancel: threading.Event | None = None
        self._again: str | None = None  # asked while one ran: "due" (check again after it), "force" (compute again)
        self.use_process = True  # tests may compute in the worker thread instead (spawning is slow there)
        self.count: int | None = None  # how many topics (None: by library size)
        self.setObjectName("topicsProgress")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel("Grouping papers into topics…", self)
        self.progress = QProgressBar(self)
        self.progress.setMaximumWidth(160)
        self.stopButton = QPushButton("Stop", self)
        self.stopButton.setObjectName("topicsStop")
        self.stopButton.setToolTip("Stop computing topics (they are computed again after the next import)")
        for widget in (self.label, self.progress, self.stopButton):
            layout.addWidget(widget)
        self.hide()
        self.stopButton.clicked.connect(self.cancel)
        self._progressed.connect(self._show_progress)  # queued: reported from the worker's thread
        self._began.connect(self._show_started)

    @property
    def running(self) -> bool:
        return self._cancel is not None

    def update_if_due(self) -> None:
        """Compute topics if papers came or changed since they were computed (or there are none), in a
        library of MIN_AUTO_PAPERS or more."""
        self._start(force=False)

    def recompute(self) -> None:
        """Compute topics now, whether or not papers changed (the user asked)."""
        self._start(force=True)

    def _start(self, force: bool) -> None:
        if self._library.read_only:
            return
        if self._cancel is not None:  # asked while one runs: once more when it is done, if papers came meanwhile
            # (an import elsewhere committing its second file while the first one's papers were being grouped
            # left its papers out of every topic until the next start: a trial)
            self._again = "force" if force or self._again == "force" else "due"
            return
        cancel = threading.Event()
        self._cancel = cancel
        library, report, began = self._library, self._progressed.emit, self._began.emit
        use_process, count = self.use_process, self.count

        def work() -> TopicsStatus | None:
            if not force and (library.counts()["all"] < MIN_AUTO_PAPERS or not library.topics_status().outdated):
                return None
            began()
            return library.compute_topics(progress=report, cancel=cancel, count=count, use_process=use_process)

        self._runner.run(work, self._done, self._failed)

    def cancel(self) -> None:
        """Stop the computation (its child process ends; the topics stored before stay)."""
        if self._cancel is not None:
            self._cancel.set()
            self._again = None
            self.stopButton.setEnabled(False)
            self.label.setText("Stopping…")

    def wait(self, msecs: int = 30000) -> bool:
        return self._runner.wait(msecs)

    def _show_started(self) -> None:
        if self._cancel is None or self._cancel.is_set():
            return
        self.progress.setRange(0, 0)  # busy until the first report
        self.label.setText("Grouping papers into topics…")
        self.stopButton.setEnabled(True)
        self.show()
        self.started.emit()

    def _show_progress(self, done: int, total: int, message: str) -> None:
        if self._cancel is None or self._cancel.is_set():
            return
        self.label.setText(f"Topics: {message}" if message else "Grouping papers into topics…")
        self.progress.setRange(0, total)
        self.progress.setValue(min(done, total) if total else 0)

    def _finish(self) -> None:
        self._cancel = None
        self.hide()
        self.stopped.emit()
        again, self._again = self._again, None
        if again is not None:
            self._start(force=again == "force")

    def _done(self, status: TopicsStatus | None) -> None:
        self._finish()
        if status is not None:
            self.computed.emit(status)

    def _failed(self, exc: Exception) -> None:
        cancelled = isinstance(exc, TopicsCancelled)
        self._finish()
        if not cancelled:
            self.message.emit(f"Topics could not be computed: {exc}", 15000)
