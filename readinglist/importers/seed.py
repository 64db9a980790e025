"""The bundled corpus format: a "<Venue> <Year> Papers" line, then one abstract per paragraph."""

from __future__ import annotations

import re
from pathlib import Path

from readinglist.importers.base import ParsedFile, Record, clean_abstract, note_skip, why_no_text
from readinglist.papers import ImportFailure

HEADER_RE = re.compile(r"^\s*(?P<venue>.+?)\s+(?P<year>(?:19|20)\d\d)(?:\s+(?:Papers|Abstracts|Accepted Papers))?\s*$")


def looks_like(text: str) -> bool:
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    return bool(HEADER_RE.match(first)) and "\n\n" in text.replace("\r\n", "\n")


def parse(path: Path, text: str) -> ParsedFile:
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    first, _, body = text.partition("\n")
    m = HEADER_RE.match(first)
    if not m:
        raise ImportFailure(path, f'the first line should read "<Venue> <Year> Papers", found "{first[:60]}"', 1)
    venue, year = m.group("venue").strip(), int(m.group("year"))
    records, skipped = [], 0
    skipped_why: list[tuple[str, str]] = []
    for n, para in enumerate(re.split(r"\n\s*\n", body)):
        abstract = clean_abstract(re.sub(r"[ \t]*\n[ \t]*", " ", para))
        if not abstract:
            if para.strip():
                skipped += 1
                note_skip(skipped_why, f"paragraph {n + 1}", why_no_text(None, para))
            continue
        records.append(Record(abstract=abstract, venue=venue, year=year, key=f"p{n}"))
    if not records:
        raise ImportFailure(path, "has a header line but no abstracts")
    return ParsedFile(path, "seed", records, skipped, [], skipped_why)
