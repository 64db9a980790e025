"""The search bar: the query field, the line under it (how the query was read), and the searches it runs.

Searches run on the worker pool and coalesce: one is in flight, and the latest query waits for it (the
queries typed in between are never searched after the fact), so no debounce is needed. The line under the
field says what a reader should know about the results of the text in it: that it cannot be parsed (the
last results stay), or "Did you mean …" (a click or CORRECTION_KEY searches the correction), that no paper
has every word and these are the closest matches, the words no paper has, and notes on how it was read.
It is always about the text in the field: it goes as soon as the text changes, and comes back if the new
text's results have something to say too; the line is kept free, so nothing below it moves.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from readinglist.library import Library
from readinglist.papers import STATES, QueryError, SearchResult, no_paper_has, words_counted
from readinglist.ui.sidebar import Filter
from readinglist.ui.workers import Runner

Scope = Callable[[], Filter]  # the sidebar's filter, read when a search starts
TopicScope = Callable[[], int | None]  # the Topics section's topic (None: all), read when a search starts

CORRECTION_KEY = "Alt+D"  # searches the "Did you mean" correction (the window's action has it)


class _LinkButton(QToolButton):
    """A tool button as wide as its text: the style's own margins put a gap in the sentence it stands in
    ("Did you mean  gaussian process  ?")."""

    def sizeHint(self) -> QSize:
        self.ensurePolished()  # (its style sheet's font, also for a text set before it was first shown)
        width = self.fontMetrics().horizontalAdvance(self.text().replace("&&", "&")) + 2  # (padding 0 1px)
        return QSize(width, super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()


def link_button(text: str, parent: QWidget) -> QToolButton:
    """A button that looks like a link in a line of text (no frame, the link colour), as tall as the text."""
    button = _LinkButton(parent)
    button.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)  # never wider than its text
    button.setText(text)
    button.setAutoRaise(True)
    button.setCursor(Qt.CursorShape.PointingHandCursor)
    button.setStyleSheet(
        "QToolButton { border: none; padding: 0px 1px; margin: 0px; color: palette(link); text-decoration: underline; }"
    )
    return button


def hint_text(result: SearchResult) -> str:
    """What the results of a query should be read with: closest matches, the words no paper has, notes."""
    parts: list[str] = []
    unknown = no_paper_has(result.unknown) if result.unknown else ""
    if result.partial:
        best = max(result.matched, default=0)
        counted = words_counted(result)
        # the best may have every word once a misspelt one counts its correction: not "13 of 13"
        every = "every word" if counted or not best else "every word as typed"
        head = unknown or f"No paper has {every}"
        parts.append(f"{head} — closest matches{counted}")
    elif unknown:
        parts.append(unknown)
    parts.extend(result.notes)
    return " · ".join(parts)


_Std = QKeySequence.StandardKey
_FIELD_KEYS = (_Std.Copy, _Std.Paste, _Std.Cut, _Std.Undo, _Std.Redo, _Std.SelectAll)  # a text field's own keys


class SearchBar(QWidget):
    resultsReady = Signal(object, bool)  # SearchResult, whether it is the same query as the results before
    failed = Signal(str)  # the message shown under the field; the last results stay
    runningChanged = Signal(bool)  # True as each search starts, False once none is running or queued
    resultsFocusRequested = Signal()  # Down or Enter in the field while there are results
    correctionOffered = Signal(object)  # the "Did you mean" query offered now, or None when none is

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
        self._hint_layout = line = QHBoxLayout(self._error_line)
        line.setContentsMargins(0, 0, 0, 0)
        line.setSpacing(0)  # "Did you mean ", the link and "?" read as one sentence
        self.error = QLabel(self._error_line)
        self.error.setObjectName("queryError")
        self.error.setStyleSheet("color: #d32f2f;")
        self.error.setWordWrap(False)
        self.error.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.error.hide()
        self._did_you_mean = QLabel("Did you mean ", self._error_line)
        self.suggestion = link_button("", self._error_line)  # the correction: a click searches it
        self.suggestion.setObjectName("didYouMean")
        self.suggestion.clicked.connect(self.apply_correction)
        self._suggestion_key = QLabel(f"? <span style='color: gray'>({CORRECTION_KEY})</span>", self._error_line)
        self.hint = QLabel(self._error_line)  # closest matches, the words no paper has, notes
        self.hint.setObjectName("searchHint")
        self.hint.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        for widget in (self._did_you_mean, self.suggestion, self._suggestion_key, self.hint):
            widget.hide()
        line.addWidget(self.error, 1)
        line.addWidget(self._did_you_mean)
        line.addWidget(self.suggestion)
        line.addWidget(self._suggestion_key)
        line.addWidget(self.hint, 1)
        line.addStretch()  # with no hint the room is left here: "Did you mean", the link and "?" stay together
        self._error_line.setFixedHeight(max(self.error.fontMetrics().height() + 2, self.suggestion.sizeHint().height()))
        self._error_query: str | None = None  # the text the hint is about
        self._hint_query: str | None = None  # the text the closest-matches line and Did you mean are about
        self._correction: str | None = None
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
        if self._hint_query is not None and text != self._hint_query:
            self._show_hints(None)  # so is Did you mean: its correction is of a query no longer there
        self._timer.start()

    def _show_error(self, message: str | None, query: str | None = None) -> None:
        self._error_query = query if message is not None else None
        if message is not None:
            self._show_hints(None)
        self.error.setText(message or "")
        self.error.setToolTip(message or "")
        self.error.setVisible(message is not None)

    def add_to_hint_line(self, widget: QWidget) -> None:
        """A widget at the right end of the line under the field (the window's note of the order in force)."""
        widget.setParent(self._error_line)
        self._hint_layout.addWidget(widget, 0, Qt.AlignmentFlag.AlignRight)  # at the right, whatever shows
        self._error_line.setFixedHeight(max(self._error_line.minimumHeight(), widget.sizeHint().height()))

    def _show_hints(self, result: SearchResult | None) -> None:
        """The line about these results (None: nothing), which must be the results of the field's text."""
        self._hint_query = result.query if result is not None else None
        correction = result.correction if result is not None else None
        text = hint_text(result) if result is not None else ""
        self.hint.setText(f"  ·  {text}" if text and correction else text)
        self.hint.setToolTip(text)
        self.hint.setVisible(bool(text))
        shown = self._short_correction(result).strip() if result is not None and correction else ""
        self.suggestion.setText(shown.replace("&", "&&"))
        self.suggestion.setToolTip(f"Search “{correction}” instead ({CORRECTION_KEY})" if correction else "")
        for widget in (self._did_you_mean, self.suggestion, self._suggestion_key):
            widget.setVisible(correction is not None)
        if correction != self._correction:
            self._correction = correction
            self.correctionOffered.emit(correction)

    def _short_correction(self, result: SearchResult) -> str:
        """The correction as shown: whole if it fits in less than half the line (a pasted sentence does
        not), else the words it corrects, "…learning…" (the tooltip has it all)."""
        correction = result.correction or ""
        metrics = self.suggestion.fontMetrics()
        room = max(240, self.width() * 2 // 5)
        if metrics.horizontalAdvance(correction) <= room:
            return correction
        words = " … ".join(dict.fromkeys(result.corrections.values())) or correction
        return metrics.elidedText(f"…{words}…", Qt.TextElideMode.ElideRight, room)

    @property
    def correction(self) -> str | None:
        """The "Did you mean" query offered for the text in the field, if any."""
        return self._correction

    def apply_correction(self) -> bool:
        """Put the correction offered in the field and search it; False if none is offered."""
        correction = self._correction
        if correction is None:
            return False
        self.field.setText(correction)  # the search of it follows, as for any text typed
        return True

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if (
            obj is self.field
            and event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and self._window_key(event)
        ):
            return True  # the window's: Ctrl+E exports (the field took it as End, and Ctrl+E did nothing)
        if obj is self.field and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            if event.key() in (Qt.Key.Key_Down, Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.has_results:
                self.resultsFocusRequested.emit()
                return True
            if QKeySequence(event.keyCombination()) == QKeySequence(CORRECTION_KEY):
                self.apply_correction()  # with none offered the key is still no text (Qt would type a "d")
                return True
        return super().eventFilter(obj, event)

    def _window_key(self, event: QKeyEvent) -> bool:
        """Is the key a shortcut of one of the window's actions, with Ctrl or Alt, and not one a text field keeps
        (copy, paste, cut, undo, redo, select all)? The field otherwise takes some as its own editing keys."""
        wanted = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
        keys = QKeySequence(event.keyCombination())
        exact = QKeySequence.SequenceMatch.ExactMatch
        if not (event.modifiers() & wanted) or any(
            keys.matches(kept) == exact for key in _FIELD_KEYS for kept in QKeySequence.keyBindings(key)
        ):
            return False
        return any(
            keys.matches(shortcut) == exact
            for action in self.window().findChildren(QAction)
            if action.isEnabled()
            for shortcut in action.shortcuts()
        )

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
            lambda: self._library.search(text, topic=topic, typing=True, wait=False, **scope),
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
        self._show_hints(result if result.query == self.field.text() else None)  # never about older text
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
