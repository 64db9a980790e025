"""A search that reads the library's text itself, for while the search index is being built.

Opening the index can mean rebuilding it (a new index schema, a damaged index): minutes for 100,000 papers. A
reader's search must not wait for that, so until the index is ready `Library.search` reads every paper's
text from the store and keeps those with every word of the query (a word matches where a word of the text
starts with it: "network" finds "networks"), the papers with the most words when none has all, titles first.
No stemming, spelling corrections or ranking: the results say they are provisional, and the window searches
again once the index is open. The query language is read loosely: quoted phrases, `-word` and `NOT word`
exclude, `state:` and `tag:` filter, any other field's value is a word looked for anywhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

_TERM = re.compile(r'(-?)(?:([A-Za-z_]+):)?(?:"([^"]*)"?|(\S+))')
_OPERATORS = {"AND", "OR"}
_FILTERS = ("state", "tag")


@dataclass
class LooseQuery:
    """A query as the scan reads it: what a paper must have, must not have, and the filters."""

    words: list[str] = field(default_factory=list)  # folded; a phrase is one entry with its spaces
    excluded: list[str] = field(default_factory=list)
    filters: dict[str, str] = field(default_factory=dict)  # state, tag: the last one typed of each

    def __bool__(self) -> bool:
        return bool(self.words or self.excluded or self.filters)


def read_query(text: str) -> LooseQuery:
    """The words, excluded words and filters of a query typed for the index (see the module doc)."""
    q = LooseQuery()
    negate_next = False
    for m in _TERM.finditer(text):
        minus, name, phrase, word = m.groups()
        value = phrase if phrase is not None else word
        if name is None and phrase is None and value in _OPERATORS:
            continue
        if name is None and phrase is None and value == "NOT":
            negate_next = True
            continue
        negated, negate_next = bool(minus) or negate_next, False
        if name and name.lower() in _FILTERS:
            if not negated and value.strip():
                q.filters[name.lower()] = value.strip()
            continue
        folded = " ".join(re.findall(r"\w+", value.casefold()))  # punctuation, wildcards and the like dropped
        if folded:
            (q.excluded if negated else q.words).append(folded)
    return q


def scan(texts: Iterable[tuple[int, str, str]], q: LooseQuery, among: set[int] | None = None) -> list[tuple[int, int]]:
    """(paper id, words it has) of the papers of `texts` ((id, title, the rest of its text)) that have every
    word of the query, or, where none has every word, those with the most; papers with more of the words in
    their title first, then in id order. `among`: only these papers (the filters' and topics')."""
    words = [_Word(w) for w in q.words]
    excluded = [_Word(w) for w in q.excluded]
    found: list[tuple[int, int, int]] = []  # (id, words matched, words in the title)
    for pid, title, rest in texts:
        if among is not None and pid not in among:
            continue
        title_folded = title.casefold()
        text = f"{title_folded} {rest.casefold()}"
        if any(x.search(text) for x in excluded):
            continue
        has = [w for w in words if w.search(text)]
        if words and not has:
            continue
        found.append((pid, len(has), sum(1 for w in has if w.search(title_folded))))
    if not found:
        return []
    best = max(n for _, n, _ in found)
    kept = [f for f in found if f[1] == best]
    kept.sort(key=lambda f: (-f[2], f[0]))
    return [(pid, n) for pid, n, _ in kept]


class _Word:
    """A folded word or phrase, found where a word of the text starts with it. A plain substring test first:
    the pattern's look-behind is ten times slower, and most texts lack the word."""

    def __init__(self, folded: str):
        self.first = folded.split(" ", 1)[0]
        self.pattern = re.compile(r"(?<!\w)" + re.escape(folded).replace(r"\ ", r"\W+"))

    def search(self, text: str) -> bool:
        return self.first in text and self.pattern.search(text) is not None
