"""The window's export dialog offers every export format of the vocabulary (papers.EXPORT_FORMATS)."""

from __future__ import annotations

from PySide6.QtCore import QSettings

from readinglist.papers import EXPORT_FORMATS
from readinglist.ui.dialogs import ExportDialog


def test_export_dialog_offers_every_format_and_returns_the_chosen_one(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    dialog = ExportDialog(None, has_selection=False, settings=settings)
    qtbot.addWidget(dialog)
    box = dialog.formatBox
    offered = [box.itemData(i) for i in range(box.count())]
    assert offered == list(EXPORT_FORMATS)
    assert {"csljson", "ris", "biblatex"} <= set(offered)
    for name in ("csljson", "ris", "biblatex"):
        box.setCurrentIndex(box.findData(name))
        assert dialog.options().format == name
        assert not dialog.groupBox.isEnabled()  # grouping is Markdown's
