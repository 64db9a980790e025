"""A one-pass equivalent of Whoosh's StemmingAnalyzer: the same tokens, positions and stems.

Whoosh's analyzer is a chain of four generators (tokenize, lowercase, stop, stem) run per token in pure
Python; at indexing time that chain is the largest single cost. This does the same work in one loop.
`tests/test_analysis.py` checks it against StemmingAnalyzer token for token.

Indexing then turns the tokens into postings from the plain (word, position) pairs of `words()` (see
`patches._patch_positions`). An analyzer unpickled with the schema — in Whoosh's writer processes — applies
the patches, so every process that writes the index writes the same postings.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from whoosh.analysis import Analyzer, Token
from whoosh.analysis.filters import STOP_WORDS
from whoosh.analysis.tokenizers import default_pattern
from whoosh.lang.porter import stem as porter_stem

_stem = lru_cache(maxsize=200_000)(porter_stem)
_WORDS = re.compile(default_pattern.pattern.replace("(", "(?:"), default_pattern.flags)  # whole matches


class FastStemAnalyzer(Analyzer):
    def __init__(self, stoplist: frozenset[str] = STOP_WORDS, minsize: int = 2):
        self.expression = default_pattern
        self.stoplist = frozenset(stoplist)
        self.minsize = minsize

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickled with the schema (Whoosh's writer processes): the patches that read words() apply there too."""
        from readinglist.index import patches

        self.__dict__.update(state)
        patches.apply()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FastStemAnalyzer) and (self.stoplist, self.minsize) == (
            other.stoplist,
            other.minsize,
        )

    def __hash__(self) -> int:
        return hash((FastStemAnalyzer, self.stoplist, self.minsize))

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        **kwargs: object,
    ) -> Iterator[Token]:
        t = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        stoplist, minsize = self.stoplist, self.minsize
        if not tokenize:  # the whole value is one token, which the chain still lowercases, stops and stems
            text = value.lower()
            stopped = len(text) < minsize or text in stoplist
            if stopped and removestops:
                return
            t.original = value
            t.text = text if stopped else _stem(text)
            t.stopped = stopped
            t.boost = 1.0
            if positions:
                t.pos = start_pos
            if chars:
                t.startchar, t.endchar = start_char, start_char + len(value)
            yield t
            return
        pos = None  # StopFilter(renumber=True): positions count only the words kept
        for raw_pos, match in enumerate(self.expression.finditer(value)):
            text = match.group(0).lower()
            stopped = len(text) < minsize or text in stoplist
            if stopped and removestops:
                continue
            if keeporiginal:
                t.original = text
            t.text = text if stopped else _stem(text)
            t.stopped = stopped
            t.boost = 1.0
            if positions:
                if stopped:
                    t.pos = start_pos + raw_pos
                else:
                    pos = start_pos + raw_pos if pos is None else pos + 1
                    t.pos = pos
            if chars:
                t.startchar, t.endchar = start_char + match.start(), start_char + match.end()
            yield t

    def words(self, value: str) -> list[tuple[str, int]]:
        """The (stemmed word, position) pairs `__call__` yields when indexing, without Token objects."""
        stoplist, minsize = self.stoplist, self.minsize
        # as __call__ does: find the words, then lower-case each; for ASCII (88% of abstracts at 8k papers)
        # lower-casing the whole text first is the same and faster
        found = _WORDS.findall(value.lower()) if value.isascii() else [w.lower() for w in _WORDS.findall(value)]
        kept = [w for w in found if len(w) >= minsize and w not in stoplist]
        if not kept:
            return []
        # as in __call__: the first word kept keeps its place, the next ones follow it
        first = next(i for i, w in enumerate(found) if len(w) >= minsize and w not in stoplist)
        return [(_stem(w), pos) for pos, w in enumerate(kept, first)]


_WORDS_ANALYZER = FastStemAnalyzer()


def kept_words(value: str) -> list[str]:
    """The words (lower-cased) the index keeps of a text, in order: the interest ranking counts the same
    terms a search matches."""
    stoplist, minsize = _WORDS_ANALYZER.stoplist, _WORDS_ANALYZER.minsize
    found = _WORDS.findall(value.lower()) if value.isascii() else [w.lower() for w in _WORDS.findall(value)]
    return [w for w in found if len(w) >= minsize and w not in stoplist]


def stem(word: str) -> str:
    """The index's stem of a lower-cased word."""
    return _stem(word)
