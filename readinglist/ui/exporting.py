"""Exporting a reading list from the window: what to export and where (the dialogs), the file written on a
worker (rendering thousands of papers would hold up the window) with its progress, and how it went."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from readinglist.library import Library
from readinglist.papers import EXPORT_FORMATS, ExportOptions
from readinglist.ui.dialogs import ExportDialog
from readinglist.ui.notice import Notice
from readinglist.ui.wording import papers
from readinglist.ui.workers import Runner


def file_stem(name: str) -> str:
    """A list's or a tag's name as a file's ("Hinton must-reads" → hinton-must-reads), "reading-list" if none."""
    stem = "-".join("".join(c if c.isalnum() else " " for c in name.casefold()).split())
    return stem[:60].strip("-") or "reading-list"


def ask_export(
    parent: QWidget, settings: QSettings, counts: dict[str, int], name: str = ""
) -> tuple[Path, ExportOptions, str] | None:
    """The export dialog (`counts`: the papers of each scope), then the file to write (named after `name`, the
    list or tag shown): (path, options, scope), or None if the user cancelled."""
    dialog = ExportDialog(parent, has_selection=counts.get("selection", 0) > 0, settings=settings, counts=counts)
    if not dialog.exec():
        return None
    options, scope = dialog.options(), dialog.scope()
    folder = str(settings.value("exportFolder", str(Path.home())))
    if options.format == "obsidian":  # a folder of notes, one per paper (a vault, or a folder in one)
        chosen = QFileDialog.getExistingDirectory(parent, "Export Notes to Folder", folder)
        return (Path(chosen), options, scope) if chosen else None
    ext = EXPORT_FORMATS[options.format].extension
    path, _ = QFileDialog.getSaveFileName(
        parent,
        "Export Reading List",
        str(Path(folder) / f"{file_stem(name if scope == 'results' else '')}{ext}"),  # the list's papers, named so
        f"{options.format} (*{ext})",
    )
    return (Path(path), format_of_name(Path(path), options), scope) if path else None


def format_of_name(path: Path, options: ExportOptions) -> ExportOptions:
    """The options with the format the file's extension names, when it names another than the one chosen: RIS
    chosen (remembered from the last export) and "list.csv" typed wrote RIS into list.csv (a trial). An
    extension two formats share (.bib, .json) keeps the one chosen of them; an unknown one, the choice."""
    named = [f.name for f in EXPORT_FORMATS.values() if f.extension and f.extension == path.suffix.lower()]
    return replace(options, format=named[0]) if named and options.format not in named else options


class Exporter(QObject):
    """Writes one export at a time on the worker pool, and says how it goes in the status bar's notice: its
    progress when it is large, then where it went, with Open Folder. A failure is a message box: it needs
    the reader's eyes."""

    started = Signal()
    progressed = Signal(int, int)  # papers read so far, of how many (from the worker)
    finished = Signal(object)  # int (papers written) | Exception
    CHUNK = 2000  # papers read at a time; progress is said after each chunk
    LARGE = 2000  # papers past which the progress shows

    def __init__(self, runner: Runner, library: Library, settings: QSettings, notice: Notice, parent: QWidget):
        super().__init__(parent)
        self._runner = runner
        self._library = library
        self._settings = settings
        self._notice = notice
        self._parent = parent
        self.progressed.connect(self._show_progress)  # queued: the worker reports

    def write(self, path: Path, options: ExportOptions, ids: Sequence[int] | None) -> None:
        """Write these papers (None: every paper, listed on the worker) to `path`."""
        library, report, chunk = self._library, self.progressed.emit, self.CHUNK

        def work() -> int:
            from readinglist.export import export  # on the worker, the first time: not at start-up

            chosen = list(ids) if ids is not None else library.search("").ids
            papers = []
            for start in range(0, len(chosen), chunk):
                papers += library.papers(chosen[start : start + chunk])
                report(len(papers), len(chosen))
            export(papers, options, path)
            return len(papers)

        self.started.emit()
        count = len(ids) if ids is not None else self._library.counts()["all"]
        if count > self.LARGE:
            self._notice.show_progress(f"Exporting {papers(count)}…", 0, count, kind="export")
        self._runner.run(work, lambda n: self._done(path, n), lambda exc: self._failed(path, exc))

    def _show_progress(self, done: int, total: int) -> None:
        if total > self.LARGE and self._notice.kind == "export":
            text = f"Exporting {papers(total)}…" if done < total else f"Writing {papers(total)}…"
            self._notice.show_progress(text, done, total if done < total else 0, kind="export")

    def _done(self, path: Path, n: int) -> None:
        self._settings.setValue("exportFolder", str(path.parent))
        self._notice.show_message(f"Exported {papers(n)} to {path}", 20000, "Open Folder", partial(open_folder, path))
        self.finished.emit(n)

    def _failed(self, path: Path, exc: Exception) -> None:
        if isinstance(exc, OSError):
            text = f"Could not write {path}:\n\n{exc.strerror or exc}"
        else:
            text = f"Export to {path} failed: {exc}"
        self._notice.clear("export")
        QMessageBox.critical(self._parent, "Export", text)
        self.finished.emit(exc)


def open_folder(path: Path) -> None:
    QDesktopServices.openUrl(QUrl.fromLocalFile(str(path if path.is_dir() else path.parent)))
