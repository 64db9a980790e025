"""The query language: readinglist's shorthand turned into Whoosh's syntax, parsed, and the words a hit
shows highlighted."""

from __future__ import annotations

import re
from collections.abc import Callable

from whoosh import qparser, query
from whoosh.fields import Schema
from whoosh.searching import Searcher

from readinglist.index.analysis import FastStemAnalyzer
from readinglist.index.schema import HIGHLIGHTED_FIELDS, TEXT_FIELDS
from readinglist.papers import STATES, QueryError

KNOWN_FIELDS = {"title", "abstract", "authors", "author", "tags", "tag", "note", "venue", "year", "state", "id"}
FIELDS_HELP = "title, abstract, author, tag, note, venue, year, state, topic"
FUZZY_PREFIX = 3  # fuzzy terms keep their first letters: 3.6 s → 0.26 s for a typo'd word at 94k papers
HIGHLIGHT_EXPANSIONS = 200  # at most this many words of one prefix, wildcard or fuzzy term are highlighted
_FUZZY_RE = re.compile(r"(?<=\w)~(\d)?(?![\d/])")
_RANGE_RE = re.compile(r"\byear:(\d{4})?\s*\.\.(?:\s*(\d{4}))?")
_FIELD_RE = re.compile(r'(?<![\w"\\])([A-Za-z_]+):(?=[^\s])')


def preprocess(text: str) -> str:
    """Our shorthand into Whoosh syntax: year:2020..2024 → year:[2020 TO 2024], quotes balanced."""
    text = _RANGE_RE.sub(lambda m: "year:[" + " ".join(x for x in (m.group(1), "TO", m.group(2)) if x) + "]", text)
    if "~" in text:
        text = _FUZZY_RE.sub(lambda m: f"~{m.group(1) or 1}/{FUZZY_PREFIX}", text)
    if text.count('"') % 2:
        text += '"'  # an unfinished phrase (still being typed) is read as if closed
    outside = re.sub(r'"[^"]*"', '""', text)
    for m in _FIELD_RE.finditer(outside):
        name = m.group(1).lower()
        if name == "topic":  # split_topics took the top-level ones out: this one is nested
            raise QueryError("topic: filters the whole query: use it outside parentheses and OR (topic:12 attention)")
        if name not in KNOWN_FIELDS:
            raise QueryError(f"unknown field “{m.group(1)}:” — use one of {FIELDS_HELP}")
    state = re.search(r"\bstate:(\S+)", outside)
    if state and state.group(1).lower().strip('"') not in STATES:
        raise QueryError(f"state:{state.group(1)} — use " + ", ".join(f"state:{s}" for s in STATES))
    # field names are case-insensitive for the user
    return _FIELD_RE.sub(lambda m: m.group(1).lower() + ":", text) if _FIELD_RE.search(text) else text


_TOPIC_RE = re.compile(r'(?<![\w"\\])topic:("[^"]*"?|[^\s()]+)', re.I)


def split_topics(text: str) -> tuple[str, list[tuple[str, bool]]]:
    """The query's top-level topic: clauses taken out (the library filters by them through the store, as the
    sidebar's state and tag): the rest of the query, and each clause's value and whether NOT came before
    it. A clause inside parentheses or beside OR stays, and preprocess says why it cannot be."""
    masked = re.sub(r'"[^"]*"?', lambda m: '"' + " " * (len(m.group()) - 2) + '"' if len(m.group()) > 1 else '"', text)
    clauses: list[tuple[str, bool]] = []
    cuts: list[tuple[int, int]] = []
    for m in _TOPIC_RE.finditer(masked):
        before, after = masked[: m.start()], masked[m.end() :]
        if before.count("(") > before.count(")"):
            continue
        previous = before.split()[-1:] or [""]
        following = after.split()[:1] or [""]
        if "OR" in (previous[0], following[0]):
            continue
        start = m.start()
        negated = previous[0] == "NOT"
        if negated:
            start = before.rstrip().rfind("NOT")
        clauses.append((text[m.start(1) : m.end(1)], negated))
        cuts.append((start, m.end()))
    if not clauses:
        return text, []
    rest = text
    for start, end in reversed(cuts):
        rest = rest[:start] + " " + rest[end:]
    rest = re.sub(r"^\s*(?:AND\s+)+|(?:\s+AND)+\s*$", "", rest.strip())
    rest = re.sub(r"\bAND\s+(?:AND\s+)+", "AND ", rest)
    return " ".join(rest.split()) if '"' not in rest else rest.strip(), clauses


def make_parser(schema: Schema) -> qparser.QueryParser:
    parser = qparser.MultifieldParser(TEXT_FIELDS, schema, group=qparser.AndGroup)
    parser.add_plugin(qparser.FuzzyTermPlugin())
    parser.add_plugin(qparser.GtLtPlugin())
    parser.add_plugin(qparser.FieldAliasPlugin({"authors": ["author"], "tags": ["tag"]}))
    return parser


def parse(parser: qparser.QueryParser, text: str, state: str | None = None, tag: str | None = None) -> query.Query:
    """The query for `text`, filtered by a reading state and a tag (the sidebar's choice)."""
    q = parser.parse(preprocess(text)) if text.strip() else query.Every()
    if q is query.NullQuery and text.strip():
        raise QueryError("that query has no words to search for")
    for leaf in q.leaves():
        if isinstance(leaf, query.MultiTerm):
            # rank a prefix or fuzzy match by the words it matched (BM25F), not a constant 1 per field
            leaf.constantscore = False
    filters: list[query.Query] = []
    if state:
        filters.append(query.Term("state", state))
    if tag:
        filters.append(query.Term("tags", tag.lower()))
    return query.And([q, *filters]) if filters else q


def highlight_terms(q: query.Query, s: Searcher, expanded: dict[query.Query, set[bytes]]) -> set[str]:
    """The analysed words a hit shows for this query: terms, phrase words, and the expansions of prefix,
    wildcard and fuzzy terms (capped, so a broad prefix cannot stall the search), as the ranker found them."""
    terms: set[str] = set()
    reader = s.reader()
    try:
        for leaf in q.leaves():
            if getattr(leaf, "fieldname", None) not in HIGHLIGHTED_FIELDS:
                continue
            if isinstance(leaf, query.MultiTerm):
                words = expanded.get(leaf)
                for i, btext in enumerate(sorted(words) if words is not None else leaf._btexts(reader)):
                    if i >= HIGHLIGHT_EXPANSIONS:
                        break
                    terms.add(btext.decode("utf-8") if isinstance(btext, bytes) else str(btext))
            elif isinstance(leaf, query.Phrase):
                terms.update(str(w) for w in leaf.words)
            elif isinstance(leaf, query.Term):
                text = leaf.text
                terms.add(text.decode("utf-8") if isinstance(text, bytes) else str(text))
    except Exception:  # highlighting is a courtesy; never fail a search over it
        pass
    return terms


_STEM = FastStemAnalyzer()


def highlighter(terms: set[str]) -> Callable[[str], bool]:
    """A word test for the detail pane: does the word's analysed form appear among the query's terms?"""
    lowered = {t.lower() for t in terms}

    def match(word: str) -> bool:
        w = word.lower()
        if w in lowered:
            return True
        return any(tok.text in lowered for tok in _STEM(w))

    return match
