"""Backing up and restoring the annotations from the window's File menu (the CLI's `backup` and `restore`).

Both run on the worker pool — a backup of a large library reads every annotated paper — and say how they went
in the status bar's notice. A restore asks first what to do where the library and the backup disagree (keep the
library's value, or take the backup's), and the window then shows the library as it is after it.
"""

from __future__ import annotations

from datetime import date
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from readinglist.backup import RestoreSummary
from readinglist.library import Library
from readinglist.papers import describe_error
from readinglist.ui.exporting import open_folder
from readinglist.ui.notice import Notice
from readinglist.ui.wording import papers
from readinglist.ui.workers import Runner

FILTER = "readinglist backup (*.json.gz *.json);;All files (*)"


class Backups(QObject):
    """One backup or restore at a time; `restored` fires after a restore that went through."""

    busy = Signal(bool)
    restored = Signal(object)  # RestoreSummary

    def __init__(self, runner: Runner, library: Library, settings: QSettings, notice: Notice, parent: QWidget):
        super().__init__(parent)
        self._runner, self._library, self._settings = runner, library, settings
        self._notice, self._parent = notice, parent

    def _folder(self) -> str:
        return str(self._settings.value("backupFolder", str(Path.home())))

    def backup_dialog(self) -> None:
        name = Path(self._folder()) / f"readinglist-backup-{date.today().isoformat()}.json.gz"
        path, _ = QFileDialog.getSaveFileName(self._parent, "Back Up Annotations", str(name), FILTER)
        if path:
            self.backup(Path(path))

    def backup(self, path: Path) -> None:
        """Write the backup on the worker pool; the notice says where it went."""
        self.busy.emit(True)
        self._notice.show_progress("Backing up the annotations…", 0, 0, kind="backup")
        self._runner.run(partial(self._library.backup, path), partial(self._backed_up, path),
                         partial(self._failed, "Back up", path))  # fmt: skip

    def _backed_up(self, path: Path, n: int) -> None:
        self._settings.setValue("backupFolder", str(path.parent))
        self.busy.emit(False)
        lists = len(self._library.smart_lists())
        saved = f" and {lists} saved list{'s' if lists != 1 else ''}" if lists else ""
        self._notice.show_message(f"Backed up the annotations of {papers(n)}{saved} to {path}", 20000,
                                  "Open Folder", partial(open_folder, path), kind="backup")  # fmt: skip

    def restore_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self._parent, "Restore Annotations", self._folder(), FILTER)
        if not path:
            return
        box = QMessageBox(self._parent)
        box.setWindowTitle("Restore Annotations")
        box.setIcon(QMessageBox.Icon.Question)
        box.setText(
            f"Bring the tags, notes, states, priorities, titles and saved lists of {Path(path).name} into this library?"
        )
        box.setInformativeText(
            "Papers and lists the library lacks are added. Where a paper's annotation, or a list of the same name, "
            "differs from the backup's, choose which to keep. Today's automatic backup (the data folder's backups/) "
            "is brought up to date first."
        )
        keep = box.addButton("Keep the Library's", QMessageBox.ButtonRole.AcceptRole)
        take = box.addButton("Use the Backup's", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(keep)
        box.exec()
        if box.clickedButton() in (keep, take):
            self.restore(Path(path), overwrite=box.clickedButton() is take)

    def restore(self, path: Path, overwrite: bool = False) -> None:
        self.busy.emit(True)
        self._notice.show_progress(f"Restoring {path.name}…", 0, 0, kind="backup")
        self._runner.run(partial(self._library.restore, path, overwrite), self._restored,
                         partial(self._failed, "Restore", path))  # fmt: skip

    def _restored(self, summary: RestoreSummary) -> None:
        self._settings.setValue("backupFolder", str(summary.path.parent))
        self.busy.emit(False)
        self._notice.show_message(summary.line(), 30000, kind="backup")
        self.restored.emit(summary)

    def _failed(self, what: str, path: Path, exc: Exception) -> None:
        self.busy.emit(False)
        self._notice.clear("backup")
        QMessageBox.critical(self._parent, what, f"{what} failed: {describe_error(exc, path)}")
