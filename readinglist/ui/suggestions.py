"""Suggestions in the window: the interest ranking kept up to date in the background, the order it gives a
view, and the dialog that edits "my interests".

`Suggester` re-ranks on the window's worker pool after the marks change (an edit, its undo, another process,
an import, new interests). Marks come in bursts — x, x, x while triaging — so a re-rank starts once they
pause for COALESCE_MS (at most MAX_WAIT_MS after the first), one runs at a time, and a change meanwhile
starts one more after it. An edit that leaves the marks and interests as they were (a tag, a note) costs one
read of the marks and no ranking. The UI thread only receives the finished Ranking (`rankingChanged`) and
orders a view's ids by it (`arrange`: a set look-up or one numpy sort).
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QSettings, QTimer, Signal
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
from readinglist.papers import NOTHING_TO_LEARN, ImportFailure, NothingToLearn, SearchResult, StoreError
from readinglist.ui import runtime
from readinglist.ui.workers import Runner

if TYPE_CHECKING:
    from readinglist.interest import Ranking, Suggestion

COALESCE_MS = 120  # marks closer together than this are one change
MAX_WAIT_MS = 400  # …but a steady stream of marks still re-ranks this soon after the first


class Suggester(QObject):
    """The latest interest ranking of the library (`ranking`, None while there is nothing to learn from or
    before the first), re-ranked in the background when the marks or the interests change."""

    rankingChanged = Signal()  # a new ranking (or none: see `reason`) has been taken in
    failed = Signal(str)

    def __init__(self, library: Library, runner: Runner, parent: QObject | None = None):
        super().__init__(parent)
        self._library = library
        self._runner = runner
        self._ranking: Ranking | None = None
        self._reason: str | None = NOTHING_TO_LEARN
        self._running = False
        self._due = False  # a change came while a re-rank ran: one more after it
        self._force = False  # the next re-rank runs even if the marks are as they were (new papers, new text)
        self._forced = False  # the re-rank running is such a one
        self._seen: object = None  # the marks and interests the ranking was made from
        self._first_change: float | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._start)
        self.reranks = 0  # rankings made (benchmarks and tests count them)

    @property
    def ranking(self) -> Ranking | None:
        return self._ranking

    @property
    def reason(self) -> str | None:
        """Why there is no ranking (nothing to learn from yet, or a failure), else None."""
        return self._reason

    @property
    def idle(self) -> bool:
        return not self._running and not self._timer.isActive() and not self._due

    def schedule(self, force: bool = False) -> None:
        """The marks may have changed: re-rank once they pause. `force`: even if they are as they were (papers
        imported, interests edited)."""
        self._force = self._force or force
        now = time.monotonic()
        if not self._timer.isActive():
            self._first_change = now
        waited_ms = (now - (self._first_change or now)) * 1000
        self._timer.start(max(0, min(COALESCE_MS, int(MAX_WAIT_MS - waited_ms))))

    def stop(self) -> None:
        """No more re-ranks (the window closes)."""
        self._timer.stop()
        self._due = False

    def _start(self) -> None:
        if self._running:
            self._due = True
            return
        self._running = True
        force, self._force = self._force, False
        self._forced = force
        library, seen = self._library, self._seen

        def rank() -> tuple[object, Ranking | None, str | None] | None:
            marks = library.marks()
            key = (marks, tuple(library.interests()))
            if key == seen and not force:
                return None  # a tag or a note: the ranking stands
            try:
                ranking = library.suggestions(marks=marks)
            except NothingToLearn as exc:
                return key, None, str(exc)
            ranking.every_score()  # here, not on the UI thread when a view is sorted by it
            if len(ranking):
                ranking.explain(ranking.head(1)[0])  # the first explanation gathers the marked papers' terms
            return key, ranking, None

        self._runner.run(rank, self._ranked, self._rank_failed)

    def _finish(self) -> None:
        self._running = False
        if self._due:
            self._due = False
            self._start()

    def _ranked(self, outcome: tuple[object, Ranking | None, str | None] | None) -> None:
        if outcome is not None:
            self._seen, self._ranking, self._reason = outcome
            self.reranks += 1
            if self._forced:  # the first ranking (or one after an import) loaded what the session keeps:
                runtime.freeze_long_lived()  # the cyclic collector's full passes skip it from now on
        self._finish()
        if outcome is not None:
            self.rankingChanged.emit()

    def _rank_failed(self, exc: Exception) -> None:
        self._ranking, self._reason, self._seen = None, f"Suggestions failed: {exc}", None
        self._finish()
        self.failed.emit(str(exc))
        self.rankingChanged.emit()

    # ---- what the window asks of the ranking ----

    def arrange(self, result: SearchResult, untriaged_only: bool) -> SearchResult:
        """The results in predicted-interest order, with the ranking's scores: only the untriaged papers
        (the Suggested view), or every paper of the results (the Suggested sort of any view). Without a
        ranking the results stay as they are."""
        ranking = self._ranking
        if ranking is None:
            return result
        if untriaged_only:
            ids, scores = ranking.among(result.ids)
        else:
            ids, scores = ranking.order(result.ids)
        return replace(result, ids=ids, scores=scores, matched=[])

    def explain(self, paper_id: int) -> Suggestion | None:
        """Why this paper is suggested, if it is one of the ranking's (untriaged) papers."""
        ranking = self._ranking
        if ranking is None or ranking.score(paper_id) is None:
            return None
        return ranking.explain(paper_id)


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


def reason_text(reason: str | None) -> str:
    """What the Suggested view says while it has no ranking."""
    if reason is None or reason == NOTHING_TO_LEARN:
        return ("Nothing to learn from yet: mark a few papers read/skipped (r, x) or set your interests "
                "(Paper → My Interests…); the untriaged papers are in library order meanwhile.")  # fmt: skip
    return reason
