"""What the paper actions do outside the window: open a paper's page in the browser, copy papers as
citations, BibTeX or ids. The window decides which papers (MainWindow.target_ids) and says what was done."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QMimeData, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QApplication

from readinglist.citation import bibtex_citations, html_citations, text_citations
from readinglist.papers import Paper
from readinglist.ui.wording import papers

COPIES = {"citation": "citation", "bibtex": "BibTeX", "id": "id"}


def web_links(paper: Paper | None) -> list[str]:
    """The paper's URL, then the links in its abstract: those a browser opens."""
    if paper is None:
        return []
    return list(dict.fromkeys(u for u in [paper.url, *paper.links] if u.startswith(("http://", "https://"))))


def open_in_browser(url: str) -> None:
    QDesktopServices.openUrl(QUrl(url))


def copy(chosen: Sequence[Paper], what: str) -> str:
    """Put the papers on the clipboard as `what` ("citation", "bibtex", "id"); returns what to say. A citation
    goes as HTML too, which a word processor pastes with APA's italics (the plain text lost them), and as text
    for anything else."""
    if what == "bibtex":
        QApplication.clipboard().setText(bibtex_citations(chosen))
    elif what == "id":
        QApplication.clipboard().setText("\n".join(p.uid for p in chosen))
    else:
        data = QMimeData()
        # its encoding said, as a browser's copy says it: a paste need not guess it
        data.setHtml(f'<meta charset="utf-8">{html_citations(chosen)}')
        data.setText(text_citations(chosen))
        QApplication.clipboard().setMimeData(data)
    n = len(chosen)
    plural = "s" if n > 1 and what != "bibtex" else ""
    return f"Copied the {COPIES.get(what, what)}{plural} of {papers(n)}."
