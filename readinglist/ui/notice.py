"""The status bar's notice: what just happened, with what follows from it one click away — Undo after an action
on several papers, Open Folder after an export, Details… after an import — and progress while a long job runs.

Not a message box: the reader goes on working, and the notice gives way to the next one. Not
QStatusBar.showMessage either: that hides the status bar's widgets while it shows, and has no button. A message
too long for the status bar is cut with "…" at a word's end, the whole of it in its tooltip (it was clipped
mid-word at 700×500: "… mark a few papers read (r) …" read "…: ma").
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QToolButton, QWidget

from readinglist.ui.fitting import ElidedLabel

DEFAULT_MS = 10000


class Notice(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("statusNotice")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.label = ElidedLabel("", self)
        self.label.setObjectName("statusMessage")
        self.progress = QProgressBar(self)
        self.progress.setObjectName("statusProgress")
        self.progress.setMaximumWidth(200)
        self.progress.hide()
        self.button = QToolButton(self)
        self.button.setObjectName("statusAction")
        self.button.hide()
        self.button.clicked.connect(self._act)
        layout.addWidget(self.label)
        layout.addWidget(self.progress)
        layout.addWidget(self.button)
        layout.addStretch(1)
        self._action: Callable[[], None] | None = None
        self.kind = ""  # what the notice is about ("undo", "export", …): its owner may withdraw it
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.clear)

    def text(self) -> str:
        """The message, whole (the label may show it cut)."""
        return self.label.full_text()

    @property
    def action_text(self) -> str:
        """The button's text ('' when there is none)."""
        return self.button.text() if self.button.isVisibleTo(self) else ""

    def show_message(
        self,
        text: str,
        timeout_ms: int = DEFAULT_MS,
        action_text: str = "",
        action: Callable[[], None] | None = None,
        kind: str = "",
    ) -> None:
        """Say `text` for `timeout_ms` (0: until the next notice), with a button doing `action` if given."""
        self.label.set_full_text(text)
        self._action = action
        self.kind = kind
        self.button.setText(action_text)
        self.button.setVisible(bool(action_text and action))
        self.progress.hide()
        if timeout_ms:
            self._timer.start(timeout_ms)
        else:
            self._timer.stop()

    def show_progress(self, text: str, done: int, total: int, kind: str = "") -> None:
        """A long job's progress (total 0: busy), until the next notice."""
        self.show_message(text, 0, kind=kind)
        self.progress.setRange(0, total)
        self.progress.setValue(min(done, total) if total else 0)
        self.progress.show()

    def clear(self, kind: str | None = None) -> None:
        """Withdraw the notice (only if it is about `kind`, when given)."""
        if (kind is not None and kind != self.kind) or (not self.kind and not self.label.full_text()):
            return  # not about that, or nothing shown: every edit asks, and a label cleared still relays out
        self._timer.stop()
        self.label.set_full_text("")
        self.button.hide()
        self.progress.hide()
        self._action = None
        self.kind = ""

    def _act(self) -> None:
        action = self._action
        self.clear()
        if action is not None:
            action()
