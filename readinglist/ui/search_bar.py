"""The search bar: the query field, the hint under it when a query cannot be parsed, and the searches it runs.

Searches run on the worker pool and coalesce: one is in flight, and the latest query waits for it (the
queries typed in between are never searched after the fact), so no debounce is needed. The hint is always
about the text in the field: it goes as soon as the text changes, and comes back if the new text has a
problem too; its line is kept free, so nothing below it moves when it appears.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLabel, QLineEdit, QSizePolicy, QVBoxLayout, QWidget

from readinglist.library import Library
from readinglist.papers import STATES, QueryError, SearchResult
from readinglist.ui.sidebar import Filter
from readinglist.ui.workers import Runner

Scope = Callable[[], Filter]  # the sidebar's filter, read when a search starts
TopicScope = Callable[[], int | None]  # the Topics section's topic (None: all), read when a search starts


class SearchBar(QWidget):
    resultsReady = Signal(object, bool)  # SearchResult, whether it is the same query as the results before
    failed = Signal(str)  # the message shown under the field; the last results stay
    runningChanged = Signal(bool)  # True as each search starts, False once none is running or queued
    resultsFocusRequested = Signal()  # Down or Enter in the field while there are results

    def __init__(
        self,
        runner: Runner,
        library: Library,
        scope: Scope,
        parent: QWidget | None = None,
        topic: TopicScope | None = None,
    ):
        super().__init__(parent)
        self._runner = runner
        self._library = library
        self._scope = scope
        self._topic = topic
        self._gen = 0
        self._searching = False
        self._pending = False
        self._last: SearchResult | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self.field = QLineEdit(self)
        self.field.setObjectName("searchField")
        self.field.setClearButtonEnabled(True)
        self.field.setPlaceholderText(
            'Search titles, abstracts, authors, tags and notes — e.g. diffusion "early exit" author:bengio year:2024'
        )
        self.field.setToolTip(
            'words (stemmed) · "phrase" · prefix* · fuzzy~ · a OR b · NOT c · title: abstract: author: tag: '
            "note: venue: year:2020..2024 · state:" + "|".join(STATES) + " · priority:1|2|3|none · topic:name"
        )
        self.field.installEventFilter(self)
        self._error_line = QWidget(self)  # the hint's line, there whether or not the hint shows
        line = QVBoxLayout(self._error_line)
        line.setContentsMargins(0, 0, 0, 0)
        self.error = QLabel(self._error_line)
        self.error.setObjectName("queryError")
        self.error.setStyleSheet("color: #d32f2f;")
        self.error.setWordWrap(False)
        self.error.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.error.hide()
        line.addWidget(self.error)
        self._error_line.setFixedHeight(self.error.fontMetrics().height() + 2)
        self._error_query: str | None = None  # the text the hint is about
        layout.addWidget(self.field)
        layout.addWidget(self._error_line)
        # the search starts on the next turn of the loop: every change made in this one is searched once
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.run)
        self.field.textChanged.connect(self._text_changed)

    # ---- the field ----

    def text(self) -> str:
        return self.field.text()

    def set_text(self, text: str) -> None:
        self.field.setText(text)

    def clear(self) -> None:
        self.field.clear()

    def focus(self) -> None:
        self.field.setFocus()
        self.field.selectAll()

    def type_text(self, text: str) -> None:
        """Keys typed where they were no shortcut: they start a new query, as if typed after `/`."""
        self.focus()
        self.field.insert(text)

    def _text_changed(self, text: str) -> None:
        if self._error_query is not None and text != self._error_query:
            self._show_error(None)  # about other text; the search of this text says if it has a problem too
        self._timer.start()

    def _show_error(self, message: str | None, query: str | None = None) -> None:
        self._error_query = query if message is not None else None
        self.error.setText(message or "")
        self.error.setToolTip(message or "")
        self.error.setVisible(message is not None)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if (
            obj is self.field
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Down, Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and self.has_results
        ):
            self.resultsFocusRequested.emit()
            return True
        return super().eventFilter(obj, event)

    # ---- searching ----

    @property
    def last_result(self) -> SearchResult | None:
        """The results shown now (a query that failed leaves them in place)."""
        return self._last

    @property
    def has_results(self) -> bool:
        return self._last is not None and bool(self._last.ids)

    @property
    def searching(self) -> bool:
        return self._searching

    @property
    def idle(self) -> bool:
        """No search running, queued, or about to start."""
        return not self._searching and not self._pending and not self._timer.isActive()

    def run(self) -> None:
        """Search for what the field says now, within the sidebar's filter; a search already running
        finishes first, then the latest query runs once."""
        self._gen += 1
        if self._searching:
            self._pending = True
            return
        self._start(self._gen, self.field.text())

    def _start(self, gen: int, text: str) -> None:
        scope = self._scope().search_args()
        topic = self._topic() if self._topic is not None else None
        self._searching = True
        self.runningChanged.emit(True)
        self._runner.run(
            lambda: self._library.search(text, topic=topic, **scope),
            lambda result: self._done(gen, result),
            lambda exc: self._failed(gen, exc, text),
        )

    def _finished_one(self) -> bool:
        """A search ended; True if the queued query started (what this one found is stale)."""
        self._searching = False
        if self._pending:
            self._pending = False
            self.run()
            return True
        self.runningChanged.emit(False)
        return False

    def _done(self, gen: int, result: SearchResult) -> None:
        if self._finished_one() or gen != self._gen:
            return  # stale: a newer query is on its way
        self._show_error(None)
        previous = self._last.query if self._last is not None else None
        self._last = result
        self.resultsReady.emit(result, result.query == previous)

    def _failed(self, gen: int, exc: Exception, text: str) -> None:
        if self._finished_one() or gen != self._gen:
            return
        message = str(exc) if isinstance(exc, QueryError) else f"Search failed: {exc}"
        if text == self.field.text():
            self._show_error(message, text)
        self.failed.emit(message)
