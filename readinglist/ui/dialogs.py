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
    the reader sees what the file will hold; a selection of none is not offered, and a scope of no papers is
    shown but cannot be chosen (an export of none, saved over a reading list, emptied it: a trial); with no
    papers anywhere, Save is off."""

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
                if n == 0:
                    item = self.scopeBox.model().item(self.scopeBox.count() - 1)  # type: ignore[attr-defined]
                    item.setEnabled(False)
                    item.setToolTip("No papers to export")
        chosen = next((i for i in range(self.scopeBox.count()) if not counts or counts.get(self.scopeBox.itemData(i))
                       != 0), -1)  # fmt: skip
        self.scopeBox.setCurrentIndex(chosen)
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
        # the reader's choices, kept while a format that always writes the field shows its box ticked
        self._wanted = {
            "abstracts": bool(settings.value("export/abstracts", False, type=bool)),
            "notes": bool(settings.value("export/notes", True, type=bool)),
        }
        self.abstractsBox.setChecked(self._wanted["abstracts"])
        self.notesBox.setChecked(self._wanted["notes"])
        for name, box in self._option_boxes():
            box.toggled.connect(lambda on, name=name, box=box: self._chosen(name, box, on))
        self.formatBox.currentIndexChanged.connect(self._format_changed)
        form.addRow("Papers:", self.scopeBox)
        form.addRow("Format:", self.formatBox)
        form.addRow("Group by:", self.groupBox)
        form.addRow("", self.abstractsBox)
        form.addRow("", self.notesBox)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.saveButton = buttons.button(QDialogButtonBox.StandardButton.Save)
        if chosen < 0:
            self.saveButton.setEnabled(False)
            self.saveButton.setToolTip("No papers to export")
        form.addRow(buttons)
        self._format_changed()

    @staticmethod
    def _select(box: QComboBox, key: object) -> None:
        i = box.findData(key)
        if i >= 0:
            box.setCurrentIndex(i)

    def _option_boxes(self) -> tuple[tuple[str, QCheckBox], ...]:
        return ("abstracts", self.abstractsBox), ("notes", self.notesBox)

    def _chosen(self, name: str, box: QCheckBox, on: bool) -> None:
        if box.isEnabled():  # the reader's click, not a format's forced tick
            self._wanted[name] = on

    def _format_changed(self) -> None:
        """Grouping is Markdown's. A box the format ignores says what the file will hold: BibTeX, CSL-JSON and
        RIS always hold the abstracts, CSV and JSON the notes too (a trial found "Include abstracts" unticked
        and greyed out for BibLaTeX, whose file held them): ticked and disabled, with why."""
        fmt = EXPORT_FORMATS[self.formatBox.currentData()]
        self.groupBox.setEnabled(fmt.name == "markdown")
        for name, box in self._option_boxes():
            always = name in fmt.always
            box.setEnabled(not always)
            box.setChecked(always or self._wanted[name])
            box.setToolTip(
                f"A {fmt.label} export always includes the {name} (Markdown can leave them out)" if always else ""
            )

    def options(self) -> ExportOptions:
        opts = ExportOptions(
            format=self.formatBox.currentData(),
            group=self.groupBox.currentData(),
            abstracts=self.abstractsBox.isChecked(),
            notes=self.notesBox.isChecked(),
        )
        self.settings.setValue("export/format", opts.format)
        self.settings.setValue("export/group", opts.group)
        self.settings.setValue("export/abstracts", self._wanted["abstracts"])  # the reader's choice, not a forced tick
        self.settings.setValue("export/notes", self._wanted["notes"])
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
