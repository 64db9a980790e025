"""The note's preview: Qt's Markdown, and what it cannot do by itself. A display formula ($$…$$) is centred
on a line of its own, as TeX sets it (Markdown has no centring: markup.note_markdown marks its paragraph),
and code — spans and blocks — is in a fixed-pitch font: Qt asks for the platform's fixed font by a name
("monospace") that a system without that alias, or a bundle without fontconfig, draws in the text's own
proportional font (a trial). Headings are set a size or two smaller than a page's: Qt gives `#` the
xx-large size, which in the note's small pane took a line of its own for a two-word heading (a trial).

Loaded with the first preview, not before the first paint.
"""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontDatabase, QFontMetricsF, QTextCharFormat, QTextCursor, QTextDocument, QTextFormat

from readinglist.markup import DISPLAY_MATH, note_markdown

# Qt's GitHub dialect turns on md4c's underline extension (MD_FLAG_UNDERLINE, 0x4000): `_x_` came out
# underlined, where CommonMark, GitHub and the notes apps a note goes to (Obsidian, Logseq) make it emphasis
NOTE_MARKDOWN = QTextDocument.MarkdownFeature(QTextDocument.MarkdownFeature.MarkdownDialectGitHub.value & ~0x4000)

# fixed-pitch families to try, in order, when the platform's fixed font is not one: Linux, macOS, Windows
_FIXED_FAMILIES = (
    "DejaVu Sans Mono",
    "Noto Sans Mono",
    "Liberation Mono",
    "Ubuntu Mono",
    "Menlo",
    "SF Mono",
    "Monaco",
    "Consolas",
    "Cascadia Mono",
    "Courier New",
    "Nimbus Mono PS",
    "Courier",
)


def show_note(document: QTextDocument, note: str) -> None:
    """Render the note's Markdown (its math as the abstract shows it) into `document`, display math centred
    and code in a fixed-pitch font."""
    document.setMarkdown(note_markdown(note), NOTE_MARKDOWN)
    _centre_display_math(document)
    _fix_code_font(document)
    _tame_headings(document)


# Qt's size step for each heading level (QTextCharFormat.FontSizeAdjustment: h1 +3 … h6 −2) as the note shows it:
# # and ## one step up, the others the text's own size (bold, as Qt makes every heading)
HEADING_SIZE_STEPS = {1: 1, 2: 1, 3: 0, 4: 0, 5: 0, 6: 0}


def _tame_headings(document: QTextDocument) -> None:
    """Each heading's text in HEADING_SIZE_STEPS' size."""
    cursor = QTextCursor(document)
    block = document.begin()
    while block.isValid():
        level = block.blockFormat().headingLevel()
        if level:
            size = QTextCharFormat()
            size.setProperty(QTextFormat.Property.FontSizeAdjustment, HEADING_SIZE_STEPS.get(level, 0))
            cursor.setPosition(block.position())
            cursor.setPosition(block.position() + block.length() - 1, QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(size)
        block = block.next()


def _centre_display_math(document: QTextDocument) -> None:
    """Each paragraph note_markdown opened with DISPLAY_MATH centred, and the mark taken out."""
    cursor = document.find(DISPLAY_MATH)
    while not cursor.isNull():
        centred = cursor.blockFormat()
        centred.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        cursor.setBlockFormat(centred)
        cursor.removeSelectedText()
        cursor = document.find(DISPLAY_MATH, cursor)


def _fix_code_font(document: QTextDocument) -> None:
    """The code spans and blocks (Qt's importer gives their text a fixed-pitch property, and nothing else)
    in a font that is fixed-pitch here, whatever the platform's fixed font resolves to."""
    spans: list[tuple[int, int]] = []
    block = document.begin()
    while block.isValid():
        fragments = block.begin()
        while not fragments.atEnd():
            fragment = fragments.fragment()
            if fragment.charFormat().hasProperty(QTextFormat.Property.FontFixedPitch):
                spans.append((fragment.position(), fragment.position() + fragment.length()))
            fragments += 1
        block = block.next()
    if not spans:
        return
    code = QTextCharFormat()
    code.setFontFamilies(list(code_families()))
    code.setFontFixedPitch(True)
    code.setFontStyleHint(QFont.StyleHint.TypeWriter)
    cursor = QTextCursor(document)
    for start, end in spans:
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        cursor.mergeCharFormat(code)


@cache
def code_families() -> tuple[str, ...]:
    """The font families code is shown in: the platform's fixed font if it draws fixed-pitch here, else the
    first fixed-pitch family installed (a known one, then any), then the platform's as a fallback."""
    system = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    fallback = tuple(system.families()) or (system.family(),)
    if is_fixed_pitch(system):
        return fallback
    installed = QFontDatabase.families()
    known = [family for family in _FIXED_FAMILIES if family in installed]
    others = [family for family in installed if family not in known and QFontDatabase.isFixedPitch(family)]
    for family in (*known, *others):
        if is_fixed_pitch(QFont(family)):
            return (family, *fallback)
    return fallback


def is_fixed_pitch(font: QFont) -> bool:
    """Whether the font as this system draws it gives a narrow and a wide letter the same width (what
    QFontInfo.fixedPitch says is not to be trusted: False for Noto Sans Mono under fontconfig)."""
    metrics = QFontMetricsF(font)
    return abs(metrics.horizontalAdvance("iiii") - metrics.horizontalAdvance("WWWW")) < 0.5
