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


def test_the_abstracts_and_notes_boxes_say_what_each_format_writes(qtbot, tmp_path, empty_lib):
    """BibLaTeX showed "Include abstracts" unticked and disabled while its file held them (a trial): for every
    format, a box is ticked and disabled, with why, where the export writes the field whatever it is asked, and
    the reader's own choice otherwise, kept across formats and in the settings."""
    import json

    from readinglist.export import render
    from readinglist.papers import ExportOptions

    (tmp_path / "p.jsonl").write_text(json.dumps({"title": "Widgets", "abstract": "Sparse widgets abound."}) + "\n")
    empty_lib.import_files([tmp_path / "p.jsonl"])
    papers = empty_lib.papers(empty_lib.search("").ids)
    empty_lib.set_note(papers[0].id, "Mine to remember")
    papers = empty_lib.papers([papers[0].id])
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("export/abstracts", False)
    settings.setValue("export/notes", False)
    dialog = ExportDialog(None, has_selection=False, settings=settings)
    qtbot.addWidget(dialog)
    for name in EXPORT_FORMATS:
        dialog.formatBox.setCurrentIndex(dialog.formatBox.findData(name))
        text = render(papers, ExportOptions(format=name, abstracts=False, notes=False))
        for box, written in ((dialog.abstractsBox, "Sparse widgets" in text), (dialog.notesBox, "Mine to" in text)):
            assert (box.isChecked(), box.isEnabled()) == (written, not written), (name, box.text())
            assert ("always includes" in box.toolTip()) is written
    dialog.formatBox.setCurrentIndex(dialog.formatBox.findData("markdown"))
    dialog.abstractsBox.setChecked(True)  # the reader's choice
    dialog.notesBox.setChecked(False)
    dialog.formatBox.setCurrentIndex(dialog.formatBox.findData("csv"))
    assert dialog.notesBox.isChecked() and not dialog.notesBox.isEnabled()
    assert dialog.options().notes and settings.value("export/notes", type=bool) is False  # the choice is kept
    dialog.formatBox.setCurrentIndex(dialog.formatBox.findData("markdown"))
    assert dialog.abstractsBox.isChecked() and not dialog.notesBox.isChecked() and dialog.notesBox.isEnabled()


def test_a_scope_of_no_papers_cannot_be_exported(qtbot, tmp_path):
    """An export of none, saved over a reading list, emptied it (a trial): a scope without papers is shown but
    cannot be chosen, another is chosen for the reader, and with no papers anywhere Save is off."""
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    dialog = ExportDialog(None, has_selection=False, settings=settings, counts={"results": 0, "all": 19})
    qtbot.addWidget(dialog)
    box = dialog.scopeBox
    assert [box.itemText(i) for i in range(box.count())] == ["Current results (0 papers)", "All papers (19 papers)"]
    assert not box.model().item(0).isEnabled() and box.model().item(1).isEnabled()
    assert dialog.scope() == "all" and dialog.saveButton.isEnabled()
    empty = ExportDialog(None, has_selection=False, settings=settings, counts={"results": 0, "all": 0})
    qtbot.addWidget(empty)
    assert not empty.saveButton.isEnabled() and empty.saveButton.toolTip() == "No papers to export"
    shown = ExportDialog(None, has_selection=True, settings=settings, counts={"results": 3, "selection": 1, "all": 19})
    qtbot.addWidget(shown)
    assert shown.scope() == "results" and shown.saveButton.isEnabled()
