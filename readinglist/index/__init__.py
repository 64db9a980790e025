"""All of Whoosh behind one face: the index (`Index`), the one writer that keeps it in step with the store
(`IndexUpdater`), and the word test that highlights a search's terms (`highlighter`).

A search, module by module: `analysis` (how text becomes the words the index holds: every word, folded),
`query` (the text parsed, its plain words widened to their stems' forms), `vocabulary` (the index's own
words: a stem's forms, spelling corrections), `ranking` (BM25F a posting list at a time, closest matches),
`engine` (the order of it all: strict, corrected, closest; SearchResult). `patches` holds every change to
and read of Whoosh's internals.

Nothing outside this package imports Whoosh. Importing it costs Whoosh's start-up, so the library imports
it at the first search, never at start-up. The names below are imported when first asked for: an import's
indexing worker (a new interpreter, `workers`) needs the schema and the patches, not the search modules.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from readinglist.index.background import IndexUpdater
    from readinglist.index.engine import Index
    from readinglist.index.query import highlighter
    from readinglist.index.schema import new_document

__all__ = ["Index", "IndexUpdater", "highlighter", "new_document"]
_WHERE = {"Index": "engine", "IndexUpdater": "background", "highlighter": "query", "new_document": "schema"}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{where}"), name)
