"""The dialog that edits "my interests": a paragraph typed, or the abstracts of the user's own papers.

Its own module, loaded when the dialog is first opened: its Qt classes (a dialog, its buttons, the file
dialog, message boxes) are no part of the window's first paint.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from readinglist.library import Library
from readinglist.papers import ImportFailure, StoreError


class InterestsDialog(QDialog):
    """My interests: a paragraph typed, or the titles and abstracts of a file of the user's own papers (shown
    in the box, each paper a paragraph, and editable like typed text)."""

    def __init__(self, library: Library, settings: QSettings, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("interestsDialog")
        self.setWindowTitle("My Interests")
        self._library = library
        self._settings = settings
        self._source = library.interests_source()
        self._loading = False  # the box is being filled from a file, not typed in
        layout = QVBoxLayout(self)
        intro = QLabel(
            "What you work on, in a paragraph or a few: the suggestions start from it before you have marked any "
            "paper, and go on using it beside your marks. Or load the abstracts of your own papers from a file.",
            self,
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.textBox = QPlainTextEdit(self)
        self.textBox.setObjectName("interestsText")
        self.textBox.setPlaceholderText("e.g. diffusion models for protein structure; equivariant graph networks")
        self.textBox.setPlainText("\n\n".join(library.interests()))
        self.textBox.textChanged.connect(self._edited)
        layout.addWidget(self.textBox, 1)
        self.sourceLabel = QLabel(self)
        self.sourceLabel.setObjectName("interestsSource")
        layout.addWidget(self.sourceLabel)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self)
        self.loadButton = QPushButton("Load from BibTeX…", self)
        self.loadButton.setObjectName("loadInterests")
        self.loadButton.setToolTip("The titles and abstracts of your own papers (BibTeX, or any file Import reads)")
        self.loadButton.clicked.connect(lambda: self.load())
        buttons.addButton(self.loadButton, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self._show_source()
        self.resize(560, 380)

    def _show_source(self) -> None:
        self.sourceLabel.setText(f"From {Path(self._source).name}" if self._source else "")
        self.sourceLabel.setVisible(bool(self._source))

    def _edited(self) -> None:
        if self._source and not self._loading:
            self._source = ""  # typed over: the user's text now
            self._show_source()

    def load(self, path: Path | None = None) -> bool:
        """Fill the box from a file of the user's own papers (asking for it if not given)."""
        if path is None:
            start = str(self._settings.value("importFolder", "") or "")
            name, _ = QFileDialog.getOpenFileName(self, "Load Your Papers", start,
                                                  "BibTeX (*.bib);;All files (*)")  # fmt: skip
            if not name:
                return False
            path = Path(name)
        try:
            texts = self._library.interests_from_file(path)
        except ImportFailure as exc:
            QMessageBox.warning(self, "Load Your Papers", f"Cannot read {exc}")
            return False
        if not texts:
            QMessageBox.warning(self, "Load Your Papers", f"{path.name}: no titles or abstracts to learn from.")
            return False
        self._loading = True
        try:
            self.textBox.setPlainText("\n\n".join(" ".join(t.split()) for t in texts))  # a paper a paragraph
        finally:
            self._loading = False
        self._source = str(path)
        self._show_source()
        return True

    def texts(self) -> list[str]:
        """The interests as the box holds them: one text per paragraph (a loaded paper each)."""
        return [p.strip() for p in self.textBox.toPlainText().split("\n\n") if p.strip()]

    def save(self) -> bool:
        """Keep the box's interests in the library; False (and says why) if they cannot be."""
        try:
            self._library.set_interests(self.texts(), self._source)
        except StoreError as exc:
            QMessageBox.warning(self, "My Interests", str(exc))
            return False
        return True

    def accept(self) -> None:
        if self.save():
            super().accept()
