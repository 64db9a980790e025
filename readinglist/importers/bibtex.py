"""BibTeX through bibtexparser 2.

bibtexparser 2 splits blocks and recovers from broken ones, but leaves `#` concatenation and bare macros
unresolved and silently keeps an undefined macro's name as its value. Resolution is done here so that
`Abramson_D #and# {…}` works and an undefined macro is an error naming the line, as BibTeX itself would.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import bibtexparser
from bibtexparser.model import DuplicateBlockKeyBlock, Entry, ParsingFailedBlock

from readinglist.importers.base import (
    ImportContext,
    ParsedFile,
    Record,
    clean_abstract,
    note_skip,
    parse_year,
    split_tags,
    why_no_text,
)
from readinglist.markup import title_plain
from readinglist.papers import ImportFailure

logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)

MONTHS = dict(
    zip(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"],
        [
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December",
        ],
        strict=True,
    )
)


class UndefinedMacro(Exception):
    pass


def _split_concat(value: str) -> list[str]:
    """Split a raw field value on top-level `#`."""
    parts, depth, quoted, start = [], 0, False, 0
    for i, ch in enumerate(value):
        if ch == "\\":
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == '"' and depth == 0:
            quoted = not quoted
        elif ch == "#" and depth == 0 and not quoted:
            parts.append(value[start:i])
            start = i + 1
    parts.append(value[start:])
    return [p.strip() for p in parts]


def resolve(value: str, strings: dict[str, str]) -> str:
    """A raw value (`{x}`, `"x"`, `123`, `macro`, or `a # b`) to its text."""
    out = []
    for part in _split_concat(value.strip()):
        if not part:
            continue
        if (part[0] == "{" and part[-1] == "}") or (part[0] == '"' and part[-1] == '"' and len(part) > 1):
            out.append(part[1:-1])
        elif part.isdigit():
            out.append(part)
        elif part.lower() in strings:
            out.append(strings[part.lower()])
        elif part.lower()[:3] in MONTHS and len(part) <= 9 and part.isalpha():
            out.append(MONTHS[part.lower()[:3]])
        else:
            raise UndefinedMacro(part)
    return "".join(out)


def split_names(text: str) -> list[str]:
    """`Last, First and Other, A.` → ["First Last", "A. Other"], splitting only on top-level "and"."""
    names, depth, start = [], 0, 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif (depth == 0 and text[i : i + 5].lower() == " and ") or (
            depth == 0 and re.match(r"\s+and\s", text[i:]) and text[i].isspace()
        ):
            m = re.match(r"\s+and\s+", text[i:], re.I)
            if m:
                names.append(text[start:i])
                i += m.end()
                start = i
                continue
        i += 1
    names.append(text[start:])
    out = []
    for raw in names:
        raw = " ".join(raw.split())
        if not raw or raw.lower() == "others":
            continue
        parts = _split_top_commas(raw)
        if len(parts) == 2:
            raw = f"{parts[1]} {parts[0]}"
        elif len(parts) == 3:
            raw = f"{parts[2]} {parts[0]} {parts[1]}"
        out.append(title_plain(raw))
    return [n for n in out if n]


def _split_top_commas(name: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(name):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(name[start:i].strip())
            start = i + 1
    parts.append(name[start:].strip())
    return [p for p in parts if p]


def parse(path: Path, text: str, context: ImportContext | None = None) -> ParsedFile:
    context = context or ImportContext()
    lib = bibtexparser.parse_string(text, parse_stack=[])
    strings = context.bib_strings
    for string in lib.strings:
        try:
            strings[string.key.lower()] = resolve(string.value, strings)
        except UndefinedMacro as exc:
            line = (string.start_line or 0) + 1
            raise ImportFailure(path, f"undefined macro '{exc}' in @string{{{string.key}}}", line) from None

    entries: list[Entry] = list(lib.entries)
    warnings: list[str] = []
    failed_lines: list[int] = []
    for block in lib.failed_blocks:
        if isinstance(block, DuplicateBlockKeyBlock) and isinstance(block.ignore_error_block, Entry):
            entries.append(block.ignore_error_block)
        elif isinstance(block, ParsingFailedBlock):
            failed_lines.append((block.start_line or 0) + 1)
    entries.sort(key=lambda e: e.start_line or 0)
    if failed_lines:
        shown = ", ".join(map(str, failed_lines[:10])) + (" …" if len(failed_lines) > 10 else "")
        warnings.append(f"{path.name}: {len(failed_lines)} entries could not be parsed (lines {shown})")

    resolved: list[tuple[Entry, dict[str, str]]] = []
    for entry in entries:
        fields: dict[str, str] = {}
        for fld in entry.fields:
            try:
                fields[fld.key.lower()] = resolve(fld.value, strings)
            except UndefinedMacro as exc:
                line = (fld.start_line or entry.start_line or 0) + 1
                raise ImportFailure(
                    path, f"undefined macro '{exc}' in field '{fld.key}' of entry '{entry.key}'", line
                ) from None
        resolved.append((entry, fields))

    # @proceedings gives venue and year to the papers of its volume; crossref gives a paper its book's fields
    by_key = {e.key.lower(): f for e, f in resolved if e.key}
    proceedings = [f for e, f in resolved if e.entry_type.lower() == "proceedings"]
    default_venue = default_year = None
    if len(proceedings) == 1:
        p = proceedings[0]
        default_venue = title_plain(p.get("shortname") or p.get("booktitle") or p.get("title") or "")
        default_year = parse_year(p.get("year"))

    records, skipped = [], len(failed_lines)
    skipped_why: list[tuple[str, str]] = []
    for line in failed_lines:
        note_skip(skipped_why, f"line {line}", "the entry could not be parsed (unbalanced braces or quotes?)")
    for entry, fields in resolved:
        if entry.entry_type.lower() in {"proceedings", "mvproceedings", "set", "xdata"} and not fields.get("abstract"):
            continue
        parent = by_key.get(fields.get("crossref", "").lower(), {})
        title = " ".join(fields.get("title", "").split())
        abstract = clean_abstract(fields.get("abstract", ""))
        if not title and not abstract:
            skipped += 1
            where = f"entry {entry.key or '(no key)'} (line {(entry.start_line or 0) + 1})"
            note_skip(skipped_why, where, why_no_text(None, fields.get("abstract")))
            continue
        venue = (
            default_venue
            or fields.get("journal")
            or fields.get("journaltitle")
            or fields.get("booktitle")
            or parent.get("booktitle")
            or parent.get("title")
            or ""
        )
        year = (
            parse_year(fields.get("year"))
            or parse_year(fields.get("date"))
            or parse_year(parent.get("year"))
            or default_year
        )
        url = fields.get("url", "")
        if not url and fields.get("doi"):
            url = "https://doi.org/" + fields["doi"].strip()
        records.append(
            Record(
                title=title,
                abstract=abstract,
                authors=split_names(fields.get("author", "") or fields.get("editor", "")),
                year=year,
                venue=title_plain(venue),
                url=url if url.startswith("http") else "",
                key=entry.key,
                tags=split_tags(fields.get("keywords", "")),
            )
        )
    if not records and not lib.strings and not lib.entries and not lib.failed_blocks:
        raise ImportFailure(path, "contains no BibTeX entries")
    return ParsedFile(path, "bibtex", records, skipped, warnings, skipped_why)
