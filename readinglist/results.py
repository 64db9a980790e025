"""What a search returns, and the error a query can raise: small enough to import before the index is
loaded (the window shows all papers from SQLite alone and loads Whoosh after its first paint)."""

from __future__ import annotations

from dataclasses import dataclass, field


class QueryError(ValueError):
    """A query the user has to fix; the message says how."""


@dataclass
class SearchResult:
    ids: list[int]
    scores: list[float]
    query: str
    terms: set[str] = field(default_factory=set)  # analysed words to highlight
