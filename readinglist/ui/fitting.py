"""Text fitted to the room it has: a name too long for its row is cut with "…" at the end of a word where that
keeps most of it ("neural networks…", not "neural networks · patt…"), a count after a name stays ("reinforce…
(2)"), and a word too long for a wrapped caption's line is cut rather than clipped mid-letter. The whole text
is always in the widget's tooltip: what is cut here can be read there.

One place, so that the sidebar, the topics and the captions cut alike (a trial: names cut mid-word at small
window sizes, a tag's count lost with its name's end)."""

from __future__ import annotations

import re

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget

ELLIPSIS = "…"
# where a name may be cut short: after a word, before a separator (" · ", a hyphen, a slash, …)
_BREAK = re.compile(r"[\s·\-_/;:]+|,(?!\d)")  # (not a number's thousands: "8,263")
_KEEP_SHARE = 0.5  # a cut at a word's end keeps at least half of what a cut anywhere keeps


def elide(metrics: QFontMetrics, text: str, width: int) -> str:
    """`text` if it fits in `width` pixels, else its start and "…", cut after a whole word when that keeps
    most of what fits ("neural networks · pattern recognition" → "neural networks…"), else mid-word."""
    if metrics.horizontalAdvance(text) <= width:
        return text
    cut = metrics.elidedText(text, Qt.TextElideMode.ElideRight, max(width, 0))
    for mark in (ELLIPSIS, "..."):  # Qt's ellipsis: the character, or three dots where the font has none
        if cut.endswith(mark):
            kept = cut[: -len(mark)]
            break
    else:
        return cut  # nothing fits, not even the ellipsis
    # the ends of the words kept (a separator's run starts there), the last first
    ends = [m.start() for m in _BREAK.finditer(text) if 0 < m.start() <= len(kept)]
    in_number = kept[-1:].isdigit() and text[len(kept) : len(kept) + 1] in {*"0123456789,."}  # "8,2…" of 8,263
    if ends and (ends[-1] >= _KEEP_SHARE * len(kept) or in_number):
        return kept[: ends[-1]].rstrip() + ELLIPSIS
    return kept.rstrip() + ELLIPSIS


def elide_counted(metrics: QFontMetrics, label: str, count: str, width: int) -> str:
    """A name with its count, "label  (count)", fitted to `width`: the name is cut and the count kept
    ("reinforcement-learning… (2)"); only where not even a letter of the name would be left is the whole
    cut as one."""
    whole = f"{label}  ({count})"
    if metrics.horizontalAdvance(whole) <= width:
        return whole
    tail = f" ({count})"
    room = width - metrics.horizontalAdvance(tail)
    if room < metrics.horizontalAdvance(label[:1] + ELLIPSIS):
        return elide(metrics, whole, width)
    return elide(metrics, label, room) + tail


def fit_words(metrics: QFontMetrics, text: str, width: int) -> str:
    """`text` for a label that wraps at `width`: a word too wide for a line of its own, one that wrapping
    cannot break (no hyphen to break after), is cut with "…" to fit; a label clips such a word mid-letter,
    and its width becomes the label's minimum (a long tag's name widened the sidebar)."""

    def fits(word: str) -> bool:
        return all(metrics.horizontalAdvance(piece) <= width for piece in re.split(r"(?<=-)", word))

    return " ".join(word if fits(word) else elide(metrics, word, width) for word in text.split(" "))


class _FittedLabel(QLabel):
    """A label that keeps its whole text and shows it cut to its width (`_cut`), again at each resize; its
    minimum width is 1 pixel, not its text's (a long name must not widen its pane)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._full = ""
        self.setMinimumWidth(1)

    def full_text(self) -> str:
        """The text as given, before any of it was cut."""
        return self._full

    def set_full_text(self, text: str) -> None:
        self._full = text
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _cut(self, text: str, width: int) -> str:
        raise NotImplementedError

    def _fit(self) -> None:
        shown = self._cut(self._full, self.contentsRect().width())
        if shown != self.text():
            self.setText(shown)


class WrappingLabel(_FittedLabel):
    """A word-wrapped label whose words too wide for a line of their own are cut with "…" to its width
    (fit_words), again at each resize. Its minimum width is not its longest word's: a tag's long name in the
    sidebar's caption widened the sidebar, and the pane beside it was squeezed until its buttons were cut."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWordWrap(True)  # (a wrapped label's own minimum is its longest word: hence the 1 pixel)

    def _cut(self, text: str, width: int) -> str:
        return fit_words(self.fontMetrics(), text, width)


class ElidedLabel(_FittedLabel):
    """A one-line label cut with "…" (elide) to its width where its text is too long, the whole of it in its
    tooltip; its minimum width is 1 pixel, not its text's (a hint that must not widen its pane)."""

    def __init__(self, text: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.set_full_text(text)

    def set_full_text(self, text: str) -> None:
        self.setToolTip(text)
        super().set_full_text(text)
        self.updateGeometry()  # its size hint is the whole text's: the layout learns of the new one

    def sizeHint(self) -> QSize:
        """As wide as the whole text (the layout gives it that when it has the room)."""
        hint = super().sizeHint()
        return QSize(self.fontMetrics().horizontalAdvance(self._full) + 2 * self.margin() + 1, hint.height())

    def _cut(self, text: str, width: int) -> str:
        return elide(self.fontMetrics(), text, width)
