"""The app's own Markdown reading list (export.markdown) read back: each item's title, link, state,
priority, authors, venue, year, tags, citation key, note and (when exported) abstract.

Only our reading list is read: Markdown in general has no papers in it, so any other Markdown file is
refused with a message saying so. Line by line, an item at a time, remembering only the keys read (a list
grouped by tag lists a paper under each of its tags; it is read once).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from readinglist import mdtext
from readinglist.importers.base import Record, Skip, Warnings, priority_from_text, state_from_text
from readinglist.importers.limits import Limits
from readinglist.importers.reader import TextReader
from readinglist.markup import braces_as_text
from readinglist.papers import ImportFailure

LIST_NOTE_DEPTH = 2  # export.LIST_NOTE_DEPTH: how much deeper a note's headings are in the list
_TITLE_RE = re.compile(r"^# Reading list(?: — .*)?$")
_SCOPE_RE = re.compile(r"· \d+ papers? · \d+ read$")
_ITEM_RE = re.compile(r"^- \[([ x])\] \*\*((?:\\.|[^\\])*?)\*\*(.*)$")
_LINK_RE = re.compile(r"^\[((?:\\.|[^\\\]])*)\]\((\S*)\)$")
_UNESCAPE_RE = re.compile(r"\\([\\`*_\[\]<>#|&~!])")
_CODE_RE = re.compile(r"(`+) ?(.*?) ?\1(?!`)")
_STATE_RE = re.compile(r"^ \*\((\w+)\)\*")
_PRIORITY_RE = re.compile(r"^ `P([1-3])`")
_KEY_RE = re.compile(r"key (`+) ?(.*?) ?\1")  # the citation key, the item's last bit (a list from before has none)
YEAR_END_RE = re.compile(r"^(.*?)\s*\b(1[5-9]\d\d|2\d\d\d)$")  # a venue and a year (export writes to this)
_NO_DATE_RE = re.compile(r"^(.+) n\.d\.$")  # a venue without a year, marked so where it could be read otherwise
# what the export adds after "venue year" for a paper with a bibliographic record: its details in italics
# (escaped text never starts with `*`) and its DOI's link; neither is read back (it is what the record says)
_RECORD_BITS_RE = re.compile(r" · (?:\*(?:\\.|[^\\*])+\*|\[doi:(?:\\.|[^\\\]])*\]\([^\s)]*\))(?= · |$)")
NOT_OURS = (
    "is not a readinglist export: a Markdown file is read only when it is the app's own reading list "
    "(it starts with “# Reading list” and a line that counts its papers)"
)


def unescape(text: str) -> str:
    return _UNESCAPE_RE.sub(r"\1", text)


def looks_like(head: str) -> bool:
    """Is this text (a file's start) one of our reading lists?"""
    lines = [line for line in head.lstrip("\ufeff").splitlines()[:6] if line.strip()]
    return len(lines) >= 2 and bool(_TITLE_RE.match(lines[0])) and bool(_SCOPE_RE.search(lines[1]))


def read(path: Path, reader: TextReader, limits: Limits, warnings: Warnings) -> Iterator[tuple[int, Record | Skip]]:
    lines = reader.lines()
    head: list[str] = []
    for _, line in lines:
        if line.strip():
            head.append(line)
        if len(head) == 2:
            break
    if not looks_like("\n".join(head)):
        raise ImportFailure(path, NOT_OURS, 1)
    listed: set[str] = set()  # the keys read: a list grouped by tag has a paper under each of its tags
    for n, rec in _items(lines, path, limits):
        key = rec.citation_key.lower()
        if key and key in listed:
            continue  # the paper again, under another tag: one paper (a list from before the keys adds it twice)
        listed.add(key)
        yield n, rec


def _items(lines: Iterator[tuple[int, str]], path: Path, limits: Limits) -> Iterator[tuple[int, Record]]:
    item: tuple[int, re.Match[str]] | None = None
    body: list[str] = []
    for n, line in lines:
        m = _ITEM_RE.match(line)
        if m or line.startswith("## "):
            if item is not None:
                yield item[0], _record(item[1], body, path, item[0])
            item, body = ((n, m) if m else None), []
        elif item is not None:
            body.append(line)
            if sum(map(len, body)) > limits.record_chars:
                raise ImportFailure(
                    path, f"this item is longer than the limit of {limits.record_chars:,} characters", n
                )
    if item is not None:
        yield item[0], _record(item[1], body, path, item[0])


def _record(m: re.Match[str], body: list[str], path: Path, line: int) -> Record:
    box, shown, rest = m.groups()
    link = _LINK_RE.match(shown)
    title, url = (unescape(link.group(1)), link.group(2)) if link else (unescape(shown), "")
    state, state_from = ("read", "[x] boxes") if box == "x" else ("unread", "")
    if s := _STATE_RE.match(rest):
        given = state_from_text(s.group(1))
        state, state_from = (given, "states") if given else (state, state_from)
        rest = rest[s.end() :]
    priority = None
    if p := _PRIORITY_RE.match(rest):
        priority = priority_from_text(p.group(1))
        rest = rest[p.end() :]
    authors: list[str] = []
    venue, year, tags, citation_key = "", None, [], ""
    if rest.startswith(" — "):
        plain: list[str] = []
        for bit in _RECORD_BITS_RE.sub("", " · " + rest[3:])[3:].split(" · "):
            if bit.startswith("[code") or bit.startswith("code"):
                continue
            if key := _KEY_RE.fullmatch(bit):
                citation_key = key.group(2)
                continue
            spans = _CODE_RE.findall(bit)
            if spans and _CODE_RE.sub("", bit).strip() == "":
                tags = [text for _, text in spans]
            else:
                plain.append(bit)
        last = unescape(plain[-1]) if plain else ""  # one bit: the authors, unless it reads as the venue
        if plain and (len(plain) > 1 or not (YEAR_END_RE.match(last) or _NO_DATE_RE.match(last))):
            names = unescape(plain.pop(0))
            names = names[: -len(" et al.")] if names.endswith(" et al.") else names
            authors = [a.strip() for a in names.split(", ") if a.strip()]
        if plain:
            meta = unescape(plain[0])
            if nd := _NO_DATE_RE.match(meta):
                venue, year = nd.group(1), None
            elif y := YEAR_END_RE.match(meta):
                venue, year = y.group(1), int(y.group(2))
            else:
                venue, year = meta, None
    note_lines: list[str] = []
    abstract: list[str] = []
    for text in body:
        if text.startswith("  >"):
            abstract.append(text[4:] if text.startswith("  > ") else "")
        elif not abstract:
            note_lines.append(text[2:] if text.startswith("  ") else text)
    note = mdtext.live_note(mdtext.shift_headings("\n".join(note_lines).strip("\n"), -LIST_NOTE_DEPTH))
    return Record(
        title=braces_as_text(" ".join(title.split())),  # the list's text: "{001}" has braces
        abstract="\n".join(abstract).strip(),
        authors=authors,
        year=year,
        venue=venue,
        url=url,
        key=f"l{line}",
        tags=tags,
        note=note,
        state=state,
        state_from=state_from,
        priority=priority,
        citation_key=citation_key,  # checked, and kept where no other paper has it, as a BibTeX entry's
        own=True,
    )
