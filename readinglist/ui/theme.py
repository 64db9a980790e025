"""Light and dark: Fusion in the scheme the reader picked (View → Appearance), or the system's.

The choice is kept in the window's settings; READINGLIST_COLOR_SCHEME=light|dark overrides it (the
screenshots use that).
"""

from __future__ import annotations

import os

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QLabel

SCHEMES = {"system": "Follow the &System", "light": "&Light", "dark": "&Dark"}

_DARK = {
    QPalette.ColorRole.Window: "#202124",
    QPalette.ColorRole.WindowText: "#e8eaed",
    QPalette.ColorRole.Base: "#17181a",
    QPalette.ColorRole.AlternateBase: "#26282b",
    QPalette.ColorRole.ToolTipBase: "#303134",
    QPalette.ColorRole.ToolTipText: "#e8eaed",
    QPalette.ColorRole.Text: "#e8eaed",
    QPalette.ColorRole.Button: "#2b2c2f",
    QPalette.ColorRole.ButtonText: "#e8eaed",
    QPalette.ColorRole.BrightText: "#ffffff",
    QPalette.ColorRole.Highlight: "#3d6fb4",
    QPalette.ColorRole.HighlightedText: "#ffffff",
    QPalette.ColorRole.Link: "#8ab4f8",
    QPalette.ColorRole.PlaceholderText: "#9aa0a6",
}

_chosen = "system"


def chosen() -> str:
    """The scheme in force: "system", "light" or "dark"."""
    return _chosen


def apply(app: QApplication, choice: object = None) -> str:
    """Use `choice` ("system", "light", "dark"; None keeps the last one); returns the scheme in force."""
    global _chosen
    wanted = os.environ.get("READINGLIST_COLOR_SCHEME", "").lower()
    if wanted not in SCHEMES:
        wanted = str(choice) if choice in SCHEMES else _chosen
    _chosen = wanted
    app.setStyle("Fusion")
    hints = app.styleHints()
    if wanted == "system":
        hints.unsetColorScheme()
    else:
        hints.setColorScheme(Qt.ColorScheme.Dark if wanted == "dark" else Qt.ColorScheme.Light)
    dark = wanted == "dark" or (wanted == "system" and hints.colorScheme() == Qt.ColorScheme.Dark)
    if not dark:
        app.setPalette(app.style().standardPalette())
    else:
        palette = QPalette()
        for role, color in _DARK.items():
            palette.setColor(role, QColor(color))
        for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
            palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7f8388"))
        app.setPalette(palette)
    _refresh_links(app)
    return wanted


def _refresh_links(app: QApplication) -> None:
    """Colours a widget took from the palette when it was made — a style sheet's palette(link), a label's
    rich-text links — are taken again: switched to dark at run time, they stayed dark blue on black."""
    for widget in app.allWidgets():
        sheet = widget.styleSheet()
        if "palette(" in sheet:
            widget.setStyleSheet("")
            widget.setStyleSheet(sheet)
        if isinstance(widget, QLabel) and "<a " in widget.text():
            text = widget.text()
            widget.setText("")
            widget.setText(text)


def system_changed(app: QApplication) -> None:
    """The desktop switched light/dark: followed only if the reader asked to follow it."""
    if _chosen == "system":
        apply(app, "system")
