"""The note's preview: Qt's Markdown, and what it cannot do by itself. A display formula ($$…$$) is centred
on a line of its own, as TeX sets it (Markdown has no centring: markup.note_markdown marks its paragraph).

Loaded with the first preview, not before the first paint.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument

from readinglist.markup import DISPLAY_MATH, note_markdown

# Qt's GitHub dialect turns on md4c's underline extension (MD_FLAG_UNDERLINE, 0x4000): `_x_` came out
# underlined, where CommonMark, GitHub and the notes apps a note goes to (Obsidian, Logseq) make it emphasis
NOTE_MARKDOWN = QTextDocument.MarkdownFeature(QTextDocument.MarkdownFeature.MarkdownDialectGitHub.value & ~0x4000)


def show_note(document: QTextDocument, note: str) -> None:
    """Render the note's Markdown (its math as the abstract shows it) into `document`, display math centred."""
    document.setMarkdown(note_markdown(note), NOTE_MARKDOWN)
    _centre_display_math(document)


def _centre_display_math(document: QTextDocument) -> None:
    """Each paragraph note_markdown opened with DISPLAY_MATH centred, and the mark taken out."""
    cursor = document.find(DISPLAY_MATH)
    while not cursor.isNull():
        centred = cursor.blockFormat()
        centred.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        cursor.setBlockFormat(centred)
        cursor.removeSelectedText()
        cursor = document.find(DISPLAY_MATH, cursor)
