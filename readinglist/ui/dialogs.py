"""Dialogs: what to export, and what an import skipped. Loaded when one is first opened."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from readinglist.papers import EXPORT_FORMATS, ExportOptions
from readinglist.ui.wording import papers

GROUPS = [("Reading state", "state"), ("Tag", "tag"), ("None", "none")]
SCOPES = [("Current results", "results"), ("Selected papers", "selection"), ("All papers", "all")]


class ExportDialog(QDialog):
    """`counts`: how many papers each scope holds ("results", "selection", "all"), said beside its name so
    the reader sees what the file will hold; a selection of none is not offered."""

    def __init__(
        self, parent: QWidget | None, has_selection: bool, settings: QSettings, counts: Mapping[str, int] | None = None
    ):
        super().__init__(parent)
        self.setObjectName("exportDialog")
        self.setWindowTitle("Export Reading List")
        self.settings = settings
        form = QFormLayout(self)
        self.scopeBox = QComboBox(self)
        self.scopeBox.setObjectName("exportScope")
        for label, key in SCOPES:
            if key != "selection" or has_selection:
                n = counts.get(key) if counts else None
                self.scopeBox.addItem(label if n is None else f"{label} ({papers(n)})", key)
        self.formatBox = QComboBox(self)
        self.formatBox.setObjectName("exportFormat")
        for f in EXPORT_FORMATS.values():
            self.formatBox.addItem(f.label, f.name)
        self.groupBox = QComboBox(self)
        self.groupBox.setObjectName("exportGroup")
        for label, key in GROUPS:
            self.groupBox.addItem(label, key)
        self.abstractsBox = QCheckBox("Include abstracts", self)
        self.notesBox = QCheckBox("Include notes", self)
        self._select(self.formatBox, settings.value("export/format", "markdown"))
        self._select(self.groupBox, settings.value("export/group", "state"))
        self.abstractsBox.setChecked(bool(settings.value("export/abstracts", False, type=bool)))
        self.notesBox.setChecked(bool(settings.value("export/notes", True, type=bool)))
        self.formatBox.currentIndexChanged.connect(self._format_changed)
        form.addRow("Papers:", self.scopeBox)
        form.addRow("Format:", self.formatBox)
        form.addRow("Group by:", self.groupBox)
        form.addRow("", self.abstractsBox)
        form.addRow("", self.notesBox)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self._format_changed()

    @staticmethod
    def _select(box: QComboBox, key: object) -> None:
        i = box.findData(key)
        if i >= 0:
            box.setCurrentIndex(i)

    def _format_changed(self) -> None:
        fmt = self.formatBox.currentData()
        self.groupBox.setEnabled(fmt == "markdown")
        self.abstractsBox.setEnabled(fmt in ("markdown", "obsidian"))  # a notes folder may hold the abstracts

    def options(self) -> ExportOptions:
        opts = ExportOptions(
            format=self.formatBox.currentData(),
            group=self.groupBox.currentData(),
            abstracts=self.abstractsBox.isChecked(),
            notes=self.notesBox.isChecked(),
        )
        self.settings.setValue("export/format", opts.format)
        self.settings.setValue("export/group", opts.group)
        self.settings.setValue("export/abstracts", opts.abstracts)
        self.settings.setValue("export/notes", opts.notes)
        return opts

    def scope(self) -> str:
        return str(self.scopeBox.currentData())


class ImportDetails(QDialog):
    """What an import skipped and warned about, in a window that stays open beside the papers."""

    def __init__(self, parent: QWidget, lines: Sequence[str]):
        super().__init__(parent)
        self.setObjectName("importDetails")
        self.setWindowTitle("Import Details")
        self.setModal(False)
        layout = QVBoxLayout(self)
        self.text = QPlainTextEdit("\n".join(lines), self)
        self.text.setReadOnly(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
        self.resize(720, 420)
