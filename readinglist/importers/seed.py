"""The bundled corpus format: a "<Venue> <Year> Papers" line, then one abstract per paragraph."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from readinglist.importers.base import Record, Skip, Warnings, clean_abstract, snippet, why_no_text
from readinglist.importers.limits import Limits
from readinglist.importers.reader import TextReader
from readinglist.papers import ImportFailure

HEADER_RE = re.compile(r"^\s*(?P<venue>.+?)\s+(?P<year>(?:19|20)\d\d)(?:\s+(?:Papers|Abstracts|Accepted Papers))?\s*$")


def looks_like(text: str) -> bool:
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    return bool(HEADER_RE.match(first)) and "\n\n" in text.replace("\r\n", "\n")


def not_seed_text(text: str) -> str:
    """What keeps a .txt file that is no other format from being seed text, in words a user can act on."""
    first = text.lstrip("\ufeff").split("\n", 1)[0].strip()
    if HEADER_RE.match(first):
        return "not a seed-text file: it needs a blank line after its heading line and between its abstracts"
    return (
        f'not a seed-text file: its first line should read "<Venue> <Year> Papers" (found "{snippet(first)}"), '
        "then one abstract per paragraph, separated by blank lines; a list in another format needs its "
        "extension (.csv, .bib, .ris, .json, .jsonl, .md)"
    )


def read(path: Path, reader: TextReader, limits: Limits, warnings: Warnings) -> Iterator[tuple[int, Record | Skip]]:
    """Paragraphs as a stream: a paragraph is a paper, its lines joined by single spaces (a placeholder
    paragraph is skipped, saying so)."""
    lines = reader.lines()
    first = next(lines, (1, ""))[1].lstrip("\ufeff")
    m = HEADER_RE.match(first)
    if not m:
        raise ImportFailure(path, f'the first line should read "<Venue> <Year> Papers", found "{first[:60]}"', 1)
    venue, year = m.group("venue").strip(), int(m.group("year"))
    para: list[str] = []
    size = start = n = found = 0
    for lineno, line in _with_end(lines):
        if line.strip():
            if not para:
                start = lineno
            para.append(line.strip(" \t"))
            size += len(line) + 1
            if size > limits.record_chars:
                raise ImportFailure(
                    path, f"this paragraph is longer than the limit of {limits.record_chars:,} characters", start
                )
            continue
        if not para:
            continue
        text = " ".join(para)
        abstract = clean_abstract(text)
        para, size = [], 0
        if abstract:
            found += 1
            yield start, Record(abstract=abstract, venue=venue, year=year, key=f"p{n}")
        else:
            yield start, Skip(f"paragraph {n + 1} (line {start})", why_no_text(None, text))
        n += 1
    if not found:
        raise ImportFailure(path, "has a header line but no abstracts")


def _with_end(lines: Iterator[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """The lines, then a blank one that ends the last paragraph."""
    yield from lines
    yield 0, ""
