"""A text browser that shows imported or typed text without opening anything local.

Abstracts and notes come from files a user did not write. The browser never follows a link itself (a
click is handed to the caller, which opens http(s) in the web browser and the app's own paper: and topic:
links, and ignores the rest), and loads no resource — an image of a local file, a stylesheet — except inline data.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QTextBrowser, QWidget

FOLLOWED_SCHEMES = ("http", "https", "paper", "topic", "showall")


class SafeTextBrowser(QTextBrowser):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setOpenLinks(False)  # a click only emits anchorClicked: no navigation, no file:// shown
        self.setOpenExternalLinks(False)

    def loadResource(self, kind: int, name: QUrl | str, /) -> Any:
        """Only inline data: no local file (file://, a relative path) and no network fetch is ever read."""
        if QUrl(name).scheme() == "data":
            return super().loadResource(kind, name)
        return None


def followed(url: QUrl) -> bool:
    """A link the app acts on when clicked: the web, and its own paper: and topic: links."""
    return url.scheme() in FOLLOWED_SCHEMES
