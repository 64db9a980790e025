"""How the window words what it shows: a count of papers, a query or a name in quotes. One place, so that
the status bar, the dialogs, the empty table and the sidebar say them alike."""

from __future__ import annotations

QUOTES = ('"', "“", "”")
CAPTION_QUERY_CHARS = 60  # a longer query is cut in the sidebar's caption (its tooltip has it whole)
BUSY = "the library is busy (an import, or another readinglist, is writing it)"  # why an edit waits


def papers(n: int) -> str:
    """ "1 paper", "8,263 papers"."""
    return f"{n:,} paper{'s' if n != 1 else ''}"


def quoted(text: str, limit: int | None = None) -> str:
    """`text` in curly quotes, unless it is quoted already (a phrase query: “"early exit"” nested them);
    cut to `limit` characters with an ellipsis, if given."""
    text = text.strip()
    if limit is not None and len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    if len(text) > 1 and text.startswith(QUOTES) and text.endswith(QUOTES) and text.count('"') in (0, 2):
        return text
    return f"“{text}”"
