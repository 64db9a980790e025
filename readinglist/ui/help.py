"""The Help menu's pages: the keys (made from the window's own actions, so a new key is listed where it is
added), the search syntax, and About (version, data folder, licence). Each opens in a window of its own
that stays open beside the papers."""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from readinglist import __version__
from readinglist.papers import STATES
from readinglist.ui.search_bar import CORRECTION_KEY

SEARCH_SYNTAX = [
    (
        "diffusion transformer",
        "both words, stemmed (learn finds learning), in title, abstract, authors, tags or "
        "notes; title matches rank higher",
    ),
    ('"early exit"', "the phrase"),
    ("multitask, multi-task", "either spelling: joined finds hyphenated or apart, and the other way round"),
    ("red team, drop out", "two words typed also find them joined (RedTeam, Dropout)"),
    ("transform*", "a prefix"),
    ("reinforcment~", "fuzzy: one edit away (~2 for two)"),
    ("a OR b, a NOT b, (a OR b) c", "boolean; AND is implied"),
    (
        '-video, -"video generation", -author:smith',
        "leaves it out, as NOT does (in a query of up to 5 words, or one joining fields with OR or AND)",
    ),
    ("title: abstract: author: tag: note: venue:", 'one field: author:bengio, tag:"to read", venue:icml'),
    ("year:2024, year:2020..2024, year:2020.., year:..2019, year:>2020", "years"),
    ("=transformer", "the exact form only (not transform, transformers)"),
    (" ".join(f"state:{s}" for s in STATES), "reading state"),
    ("priority:1 priority:2 priority:3 priority:none", "priority"),
    ('topic:12, topic:"graph neural"', "a topic, by its number or a phrase of its name (outside parentheses)"),
]

EXTRA_KEYS = [
    ("Typing in the list", "starts a search with what you type"),
    (
        "Esc",
        "clears the search and puts the cursor in it; in the tags or the note: back to the papers "
        "(the tags as they were)",
    ),
    ("Enter in the tags", "applies them and goes back to the papers"),
    ("↑ ↓, Home, End, Page Up/Down", "move through the papers; Shift or Ctrl to select several"),
    ("Ctrl+A", "select every paper shown"),
    ("Mouse Back / Forward buttons", "back, forward"),
]


def _keys(action: QAction) -> str:
    """The action's keys as a reader presses them: a letter key in lower case (Qt writes "Q", which reads
    like Shift+Q)."""
    names = [s.toString(QKeySequence.SequenceFormat.NativeText) for s in action.shortcuts()]
    return ", ".join(n.lower() if len(n) == 1 and n.isalpha() else n for n in names)


def shortcuts_html(groups: Sequence[tuple[str, Sequence[QAction]]], table_keys: Sequence[QAction]) -> str:
    """A table per menu of every action with a key; `table_keys` are those that act only in the list."""
    only_in_list = set(map(id, table_keys))
    parts = ["<h2>Keyboard shortcuts</h2>",
             "<p>Letter keys act on the selected papers while the list has the focus; anywhere else they are "
             "text. A state's key (r, s, q, x) marks the paper and moves on to the next one, so that a run of keys "
             "works through the list (<i>Advance After Marking</i>, in the Paper menu, turns that off); a "
             "priority's (1, 2, 3) stays on it, so that a state can follow.</p>"]  # fmt: skip
    for title, actions in groups:
        rows = [
            f"<tr><td><b>{html.escape(_keys(a))}</b></td><td>{html.escape(a.text().replace('&', ''))}"
            f"{' <i>(in the list)</i>' if id(a) in only_in_list else ''}</td></tr>"
            for a in actions
            if a.shortcuts() and a.text()
        ]
        if rows:
            parts.append(
                f"<h3>{html.escape(title.replace('&', ''))}</h3><table cellpadding='3'>{''.join(rows)}</table>"
            )
    extra = "".join(f"<tr><td><b>{html.escape(k)}</b></td><td>{html.escape(v)}</td></tr>" for k, v in EXTRA_KEYS)
    parts.append(f"<h3>More</h3><table cellpadding='3'>{extra}</table>")
    return "".join(parts)


def search_syntax_html() -> str:
    rows = "".join(
        f"<tr><td><code>{html.escape(q)}</code></td><td>{html.escape(what)}</td></tr>" for q, what in SEARCH_SYNTAX
    )
    return (
        "<h2>Search syntax</h2><table cellpadding='3'>"
        f"<tr><th align='left'>query</th><th align='left'>finds</th></tr>{rows}</table>"
        '<p>An unknown field is an error that names the known fields; an unfinished <code>"phrase</code> is read as '
        "if closed. When no paper has every word, the closest matches are shown, and the line under the field says "
        f"so; a misspelt word gets a <i>Did you mean …</i> there (a click, or {CORRECTION_KEY}, searches it).</p>"
        "<p>Results come in rank order; a click on a column's header sorts by it, for that query: a new query "
        "comes in rank order again. <i>View → Sort by Relevance</i> (also in the header's right-click menu) and a "
        "third click on the sorted header go back to it.</p>"
    )


def about_html(data_dir: Path) -> str:
    url = QUrl.fromLocalFile(str(data_dir)).toString()
    return (
        f"<h2>readinglist {html.escape(__version__)}</h2>"
        "<p>Work through a conference's papers: search, read, tag, annotate, triage and export a reading list.</p>"
        f"<p><b>Data folder:</b> <a href='{html.escape(url, quote=True)}'>{html.escape(str(data_dir))}</a><br>"
        "(the library, <code>library.db</code>; its search index; the window's settings; daily backups of your "
        "annotations)</p>"
        "<p><b>Licence:</b> MIT. Built on Qt 6 through PySide6 (LGPLv3), Whoosh-Reloaded (BSD), bibtexparser "
        "(MIT), pylatexenc (MIT) and platformdirs (MIT). The bundled ICML 2026 abstracts are their authors'.</p>"
    )


class HelpWindow(QDialog):
    """A page of help that stays open beside the window (not modal); its links open outside."""

    def __init__(self, parent: QWidget, name: str, title: str, page: str):
        super().__init__(parent)
        self.setObjectName(name)
        self.setWindowTitle(title)
        self.setModal(False)
        layout = QVBoxLayout(self)
        self.browser = QTextBrowser(self)
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(QDesktopServices.openUrl)
        self.browser.setHtml(page)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        self.resize(620, 520)
