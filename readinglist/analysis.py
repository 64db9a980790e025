"""A one-pass equivalent of Whoosh's StemmingAnalyzer: the same tokens, positions and stems.

Whoosh's analyzer is a chain of four generators (tokenize, lowercase, stop, stem) run per token in pure
Python; at indexing time that chain is the largest single cost. This does the same work in one loop.
`tests/test_analysis.py` checks it against StemmingAnalyzer token for token.

Indexing then turns the tokens into postings (Whoosh's Positions.word_values): for this analyzer that is
done here too, from plain (word, position) pairs, with the same output (see `patch_positions`). Patched
when this module is imported, so in every process that unpickles the schema, Whoosh's writer processes
included.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import pairwise
from pickle import dumps
from typing import Any

from whoosh.analysis import Analyzer, Token
from whoosh.analysis.filters import STOP_WORDS
from whoosh.analysis.tokenizers import default_pattern
from whoosh.formats import Positions
from whoosh.lang.porter import stem as porter_stem
from whoosh.system import pack_uint

_stem = lru_cache(maxsize=200_000)(porter_stem)
_WORDS = re.compile(default_pattern.pattern.replace("(", "(?:"), default_pattern.flags)  # whole matches


class FastStemAnalyzer(Analyzer):
    def __init__(self, stoplist: frozenset[str] = STOP_WORDS, minsize: int = 2):
        self.expression = default_pattern
        self.stoplist = frozenset(stoplist)
        self.minsize = minsize

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


_ONE_POSITION: dict[int, bytes] = {}


def _encode_positions(poslist: list[int]) -> bytes:
    """Whoosh's Positions.encode, byte for byte; a word seen once (most words of an abstract) from a table."""
    if len(poslist) == 1:
        p = poslist[0]
        got = _ONE_POSITION.get(p)
        if got is None:
            got = _ONE_POSITION[p] = pack_uint(1) + dumps([p], 2)
        return got
    deltas = [poslist[0]] + [b - a for a, b in pairwise(poslist)]
    return pack_uint(len(deltas)) + dumps(deltas, 2)


def patch_positions() -> None:
    """Positions.word_values for this analyzer's plain indexing calls: one pass over (word, position)
    pairs instead of Token objects through two generators and two defaultdicts; 18% of a child's indexing
    time at 8k papers. Any other call (other analyzers, query-time modes, extra options) goes to Whoosh."""
    if getattr(Positions, "_readinglist_patched", False):
        return
    original = Positions.word_values

    def word_values(self: Positions, value: Any, analyzer: Any, **kwargs: Any) -> Iterable[tuple]:
        if type(analyzer) is not FastStemAnalyzer or not isinstance(value, str) or kwargs.keys() - {"mode"}:
            return original(self, value, analyzer, **kwargs)
        if kwargs.get("mode", "index") != "index" or analyzer.minsize < 1:
            return original(self, value, analyzer, **kwargs)
        poses: dict[str, list[int]] = {}
        for text, pos in analyzer.words(value):
            got = poses.get(text)
            if got is None:
                poses[text] = [pos]
            else:
                got.append(pos)
        fb = self.field_boost
        return [(w, len(p), float(len(p)) * fb, _encode_positions(p)) for w, p in poses.items()]

    Positions.word_values = word_values
    Positions._readinglist_patched = True
    Positions._readinglist_original = original  # for the test that compares the two


patch_positions()
