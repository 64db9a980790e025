"""A search that reads the library's text itself, for while the search index is being built.

Opening the index can mean rebuilding it (a new index schema, a damaged index): minutes for 100,000 papers. A
reader's search must not wait for that, so until the index is ready `Library.search` reads every paper from
the store and keeps those the query describes: every word (a word matches where a word of the text starts
with it: "network" finds "networks"; a few function words are not looked for, as the index drops them),
the papers with the most words when none has all, titles first. A field's word is looked for in that field
(`title:`, `author:`, `venue:`, `abstract:`, `note:`); `tag:`, `state:`, `priority:` and `year:` (a year, a
range `2019..2024`, a comparison `>=2020`) are filters; `-` or `NOT` before any of them excludes; `OR`
between parts of the query keeps a paper any part describes. No stemming, spelling corrections or ranking:
the results say they are provisional, and the window searches again once the index is open.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

_TERM = re.compile(r'(-?)(?:([A-Za-z_]+):)?(?:"([^"]*)"?|([^\s()]+))')
_FIELDS = {
    "title": "title", "author": "authors", "authors": "authors", "venue": "venue", "abstract": "abstract",
    "note": "note", "tag": "tag", "tags": "tag", "state": "state", "priority": "priority", "year": "year",
}  # fmt: skip
FILTERS = ("tag", "state", "priority", "year")  # a paper has them or not: no word counted
# function words the index drops, not looked for: a pasted title's "to", "the", "of"
_UNSEARCHED = frozenset(["a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "is", "of", "on",
                         "or", "the", "to", "with"])  # fmt: skip
_YEAR = re.compile(r"(?:(\d{4})?\.\.(\d{4})?|([<>]=?)?(\d{4}))$")


@dataclass(frozen=True)
class Term:
    """One part of a query: a word or phrase (folded), where it is looked for (None: anywhere), excluded or not."""

    field: str | None
    text: str
    negated: bool = False


@dataclass
class LooseQuery:
    """A query as the scan reads it: parts joined by OR, each the terms a paper must have (and not have)."""

    groups: list[list[Term]] = field(default_factory=list)

    @property
    def words(self) -> list[str]:
        """The words and phrases looked for (not the filters, not the excluded), each once: what is counted."""
        seen = dict.fromkeys(t.text for g in self.groups for t in g if not t.negated and t.field not in FILTERS)
        return list(seen)

    def counted(self, group: list[Term]) -> list[Term]:
        return [t for t in group if not t.negated and t.field not in FILTERS]

    def __bool__(self) -> bool:
        return any(self.groups)


def read_query(text: str) -> LooseQuery:
    """The parts of a query typed for the index, as the scan reads them (see the module doc)."""
    groups: list[list[Term]] = [[]]
    negate_next = False
    for m in _TERM.finditer(text):
        minus, name, phrase, word = m.groups()
        value = phrase if phrase is not None else word
        bare = name is None and phrase is None
        if bare and value == "OR":
            if groups[-1]:
                groups.append([])
            continue
        if bare and value in ("AND", "NOT"):
            negate_next = value == "NOT"
            continue
        negated, negate_next = bool(minus) or negate_next, False
        where = _FIELDS.get(name.lower()) if name else None
        if where in ("state", "priority", "year"):
            if value.strip():
                groups[-1].append(Term(where, value.strip().casefold().removeprefix("p"), negated))
            continue
        folded = " ".join(re.findall(r"\w+", value.casefold()))  # punctuation, wildcards and the like dropped
        if not folded or (bare and folded in _UNSEARCHED):
            continue
        groups[-1].append(Term(where, folded, negated))
    return LooseQuery([g for g in groups if g])


@dataclass
class Row:
    """What the scan reads of a paper (Store.search_rows)."""

    id: int
    title: str
    authors: str
    venue: str
    year: int | None
    state: str
    priority: int | None
    note: str
    tags: list[str]
    abstract: str


def scan(rows: Iterable[Row], q: LooseQuery, among: set[int] | None = None) -> tuple[list[tuple[int, int]], bool]:
    """(paper id, words it has) of the papers the query describes (see the module doc): those with every word
    of a part of it, or, where none has, those with the most; more of the words in the title first, then in id
    order; and whether they have every word. `among`: only these papers (the sidebar's filter and topics)."""
    groups = [[(t, _Test(t)) for t in g] for g in q.groups]
    found: list[tuple[int, int, int, bool]] = []  # (id, words matched, in the title, every word)
    for row in rows:
        if among is not None and row.id not in among:
            continue
        texts = _Texts(row)
        best: tuple[int, int, bool] | None = None
        for g in groups:
            if any(test(texts) != (not t.negated) for t, test in g if t.negated or t.field in FILTERS):
                continue  # a filter it fails, or a word it must not have
            counted = [(t, test) for t, test in g if not t.negated and t.field not in FILTERS]
            has = [(t, test) for t, test in counted if test(texts)]
            if counted and not has:
                continue
            titled = sum(1 for t, test in has if t.field is None and test.search(texts.title))
            mine = (len(has), titled, len(has) == len(counted))
            best = mine if best is None or (mine[2], mine[0], mine[1]) > (best[2], best[0], best[1]) else best
        if best is not None:
            found.append((row.id, best[0], best[1], best[2]))
    if not found:
        return [], True
    every = any(f[3] for f in found)
    if every:
        kept = [f for f in found if f[3]]
    else:
        most = max(f[1] for f in found)
        kept = [f for f in found if f[1] == most]
    kept.sort(key=lambda f: (-f[2], f[0]))
    return [(pid, n) for pid, n, _, _ in kept], every


class _Texts:
    """A row's fields folded as the terms are, each once and only when a term asks for it."""

    def __init__(self, row: Row):
        self.row = row
        self._cache: dict[str, str] = {}

    @property
    def title(self) -> str:
        return self.get("title")

    def get(self, name: str) -> str:
        if name not in self._cache:
            r = self.row
            if name == "any":
                value = " ".join((self.get("title"), self.get("authors"), r.venue.casefold(), r.note.casefold(),
                                  " ".join(r.tags).casefold(), self.get("abstract")))  # fmt: skip
            else:
                value = str(getattr(r, name) or "").casefold()
            self._cache[name] = value
        return self._cache[name]


class _Test:
    """Whether a paper has a term: a word where a word of the field starts with it (a plain substring test
    first: the pattern's look-behind is ten times slower, and most texts lack the word), a tag, a state, a
    priority or a year."""

    def __init__(self, term: Term):
        self.term = term
        self.first = term.text.split(" ", 1)[0]
        self.pattern = re.compile(r"(?<!\w)" + re.escape(term.text).replace(r"\ ", r"\W+"))
        self.years = _years(term.text) if term.field == "year" else None

    def search(self, text: str) -> bool:
        return self.first in text and self.pattern.search(text) is not None

    def __call__(self, texts: _Texts) -> bool:
        t, row = self.term, texts.row
        if t.field == "tag":
            return any(_tag_key(name) == _tag_key(t.text) for name in row.tags)
        if t.field == "state":
            return row.state.casefold() == t.text
        if t.field == "priority":
            return str(row.priority or "") == t.text
        if t.field == "year":
            return row.year is not None and self.years is not None and self.years[0] <= row.year <= self.years[1]
        return self.search(texts.get(t.field or "any"))


def _tag_key(name: str) -> str:
    return " ".join(re.findall(r"[^\W_]+", name.casefold()))


def _years(value: str) -> tuple[int, int] | None:
    """The years `year:` names: 2020, 2019..2024 (either end open), >=2020, <2020; None if it names none."""
    m = _YEAR.match(value)
    if m is None:
        return None
    low, high, op, year = m.groups()
    if year is None:
        ends = sorted(int(y) for y in (low, high) if y)
        return (int(low) if low else 0, int(high) if high else 9999) if len(ends) < 2 else (ends[0], ends[1])
    y = int(year)
    return {None: (y, y), ">": (y + 1, 9999), ">=": (y, 9999), "<": (0, y - 1), "<=": (0, y)}[op]
