"""The import bar: an import's progress and its Cancel button in the status bar, and how it went.

It lives in the status bar, built at start and shown when needed: a progress dialog appearing mid-import
held up the event loop (a new top-level window; docs/performance-changes.md).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from readinglist.library import Library
from readinglist.papers import INDEXING, ImportCancelled, ImportFailure, import_file_filter
from readinglist.ui.notice import Notice
from readinglist.ui.workers import Runner

if TYPE_CHECKING:
    from readinglist.importing import ImportSummary
    from readinglist.notes_folder import MergeSummary

IMPORT_FILTER = import_file_filter()


def ask_import(parent: QWidget, settings: QSettings) -> list[Path]:
    """The files to import, chosen in a file dialog that opens where the last import was (none: cancelled)."""
    from PySide6.QtWidgets import QFileDialog  # the dialogs' classes: when first used, not before the first paint

    folder = str(settings.value("importFolder", str(Path.home())))
    files, _ = QFileDialog.getOpenFileNames(parent, "Import Papers", folder, IMPORT_FILTER)
    if files:
        settings.setValue("importFolder", str(Path(files[0]).parent))
    return [Path(f) for f in files]


def ask_notes_folder(parent: QWidget, settings: QSettings) -> Path | None:
    """A notes folder (an Obsidian/Logseq vault, or a folder in one) to merge back: the import's file dialog
    picks files only, and a folder exported had to be merged as its every file chosen (a trial)."""
    from PySide6.QtWidgets import QFileDialog

    folder = str(settings.value("notesFolder", settings.value("exportFolder", str(Path.home()))))
    chosen = QFileDialog.getExistingDirectory(parent, "Merge a Notes Folder", folder)
    if chosen:
        settings.setValue("notesFolder", chosen)
    return Path(chosen) if chosen else None


def details(summaries: Sequence[ImportSummary | MergeSummary], failures: Sequence[ImportFailure] = ()) -> list[str]:
    """Every file that failed and why, then every warning and every skipped record, file by file, for the
    details view; when a file failed, every file is listed, so that the view accounts for all of them (a
    trial's Details… listed the files that went well and left out the one that did not)."""
    lines: list[str] = []
    for exc in failures:
        lines.append(f"{exc.path.name}: not imported (the library was not changed by this file)")
        lines.append("  " + (f"line {exc.line}: " if exc.line else "") + exc.problem)
    for s in summaries:
        if not s.warnings and not s.skipped_why and not failures:
            continue
        lines.append(s.line())
        lines += [f"  {w}" for w in s.warnings]
        lines += [f"  skipped {where}: {why}" for where, why in s.skipped_why]
        if s.skipped > len(s.skipped_why):
            lines.append(f"  … and {s.skipped - len(s.skipped_why):,} more skipped")
    return lines


CHILD_FROM_BYTES = 1_000_000  # files this large in all are imported in a child process (see in_child)


def in_child(files: Sequence[Path]) -> bool:
    """Whether an import is large enough for a child process (Library.import_or_merge_in_child): parsing and
    indexing some thousand papers on a worker thread takes the interpreter from the window often enough to
    freeze it, and a child's start (about a second) is worth paying only then."""
    size = 0
    for path in files:
        with contextlib.suppress(OSError):  # the import says what is wrong with it
            size += path.stat().st_size if path.is_file() else 0
    return size >= CHILD_FROM_BYTES


class ImportBar(QWidget):
    stopped = Signal()  # the import is over (done, failed or cancelled): what the window shows may be stale
    finished = Signal(object)  # list[ImportSummary] | Exception, once the outcome has been reported
    _progressed = Signal(int, int, str)  # from the worker: done, total, what is happening

    def __init__(self, runner: Runner, library: Library, notice: Notice, parent: QWidget | None = None):
        """How an import went is said in `notice` (the status bar's), with Details… for what it skipped and
        the files it could not import."""
        super().__init__(parent)
        self._runner = runner
        self._library = library
        self._notice = notice
        self._cancel: threading.Event | None = None
        self.setObjectName("importProgress")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel("Importing…", self)
        self.progress = QProgressBar(self)
        self.progress.setMaximumWidth(220)
        self.cancelButton = QPushButton("Cancel", self)
        self.cancelButton.setObjectName("importCancel")
        for widget in (self.label, self.progress, self.cancelButton):
            layout.addWidget(widget)
        layout.addStretch(1)
        self.hide()
        self.cancelButton.clicked.connect(self.cancel)
        self._progressed.connect(self._show_progress)  # queued: the report comes from the worker's thread

    @property
    def running(self) -> bool:
        return self._cancel is not None

    def start(self, files: Sequence[Path]) -> bool:
        """Import on a worker, one import at a time; False if one is running already."""
        if self._cancel is not None:
            return False
        cancel = threading.Event()
        self._cancel = cancel
        self.progress.setRange(0, 0)  # busy until the first progress report
        self.label.setText("Importing…")
        self.cancelButton.setEnabled(True)
        self.show()
        library, report = self._library, self._progressed.emit

        elsewhere = in_child(files)

        def work() -> tuple[list[ImportSummary | MergeSummary], list[ImportFailure]]:
            failures: list[ImportFailure] = []  # a bad file is said; the others are imported
            if elsewhere:  # (a notes folder dropped or chosen is merged back)
                return library.import_or_merge_in_child(files, report, cancel, failures), failures
            return library.import_or_merge(files, report, cancel, failures), failures

        self._runner.run(work, self._done, self._failed)
        return True

    def cancel(self) -> None:
        """Stop at the next chunk; the import rolls back and the library is unchanged."""
        if self._cancel is not None:
            self._cancel.set()
            self.cancelButton.setEnabled(False)
            self.label.setText("Cancelling…")

    def _show_progress(self, done: int, total: int, message: str) -> None:
        if self._cancel is None or self._cancel.is_set():
            return
        # a file's papers are saved once its index is written: too late to cancel that file (a trial clicked
        # Cancel at "Indexing …" and the papers came all the same, unexplained)
        saved = message.startswith(INDEXING)
        self.cancelButton.setEnabled(not saved)
        self.cancelButton.setToolTip("Its papers are saved; the search index is being written" if saved else "")
        self.label.setText(message)
        self.progress.setRange(0, total)
        self.progress.setValue(min(done, total) if total else 0)

    def _stop(self) -> None:
        self._cancel = None
        self.hide()
        self.stopped.emit()

    def _done(self, outcome: tuple[list[ImportSummary | MergeSummary], list[ImportFailure]]) -> None:
        self._stop()
        summaries, failures = outcome
        if summaries:
            text = "Imported " + "; ".join(s.line(compact=True) for s in summaries)
            if failures:
                text += f"; {len(failures)} {'file' if len(failures) == 1 else 'files'} not imported"
            lines = details(summaries, failures)
            if lines:
                self._notice.show_message(text, 30000, "Details…", lambda: self._details(lines))
            else:
                self._notice.show_message(text, 15000)
        if failures:
            self._tell_failures(failures, imported=bool(summaries))
        self.finished.emit(summaries if summaries or not failures else failures[0])

    def _details(self, lines: list[str]) -> None:
        from readinglist.ui.dialogs import ImportDetails

        ImportDetails(self.window(), lines).show()

    def _tell_failures(self, failures: list[ImportFailure], imported: bool) -> None:
        from PySide6.QtWidgets import QMessageBox

        texts = [
            f"Could not import {exc.path}:\n\n" + (f"Line {exc.line}: " if exc.line else "") + exc.problem
            for exc in failures
        ]
        rest = " The other files were imported." if imported else ""
        tail = (
            "The library was not changed by this file."
            if len(failures) == 1
            else "The library was not changed by these files."
        )
        QMessageBox.critical(self.window(), "Import", "\n\n".join(texts) + f"\n\n{tail}{rest}")

    def _failed(self, exc: Exception) -> None:
        self._stop()
        if isinstance(exc, ImportCancelled):
            self._notice.show_message("Import cancelled; the library is unchanged.", 10000)
        elif isinstance(exc, ImportFailure):  # (a file's own failure comes to _done, in its list)
            self._tell_failures([exc], imported=False)
        else:
            from PySide6.QtWidgets import QMessageBox

            text = f"Import failed: {exc}\n\nThe library was not changed by this file."
            QMessageBox.critical(self.window(), "Import", text)
        self.finished.emit(exc)
