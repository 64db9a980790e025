"""All of Whoosh behind one face: the index (`Index`), the one writer that keeps it in step with the store
(`IndexUpdater`), and the word test that highlights a search's terms (`highlighter`).

Nothing outside this package imports Whoosh. Importing it costs Whoosh's start-up, so the library imports
it at the first search, never at start-up.
"""

from readinglist.index.background import IndexUpdater
from readinglist.index.engine import Index
from readinglist.index.query import highlighter
from readinglist.index.schema import new_document

__all__ = ["Index", "IndexUpdater", "highlighter", "new_document"]
