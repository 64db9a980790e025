"""RIS (Zotero, EndNote, Mendeley, the app's own export): `TY  - ` starts a record, `ER  - ` ends it, a
tag of two characters starts every line; a line without one continues the value before it (some writers
wrap long abstracts). A last record without its ER is read to the end of the file, with a warning. Read a
line at a time: a record is held until its ER, never the file."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from readinglist import biblio
from readinglist.importers.base import (
    MORE_AUTHORS,
    Record,
    Skip,
    Warnings,
    bib_fields,
    clean_abstract,
    parse_year,
    plain_keywords,
    snippet,
    venue_year_from_name,
    why_no_text,
)
from readinglist.importers.limits import Limits
from readinglist.importers.reader import TextReader
from readinglist.markup import braces_as_text
from readinglist.papers import ImportFailure

_TAG_RE = re.compile(r"^([A-Z][A-Z0-9])  -(?: (.*)|\s*)$")
TITLE_TAGS = ("TI", "T1", "CT", "BT")  # in order of preference (BT is a book's title when there is no TI)
YEAR_TAGS = ("PY", "Y1", "DA")
ABSTRACT_TAGS = ("AB", "N2")
# the venue: a journal or a book (T2 and its kin); not T3, a series (its record's `series`), which a book with no
# venue the app's own export wrote came back as: the BibTeX entry's series made its venue (a trial)
VENUE_TAGS = ("T2", "JO", "JF", "J2", "JA")


def read(path: Path, reader: TextReader, limits: Limits, warnings: Warnings) -> Iterator[tuple[int, Record | Skip]]:
    default_venue, default_year = venue_year_from_name(path)
    fields: dict[str, list[str]] | None = None
    start = 0
    last = ""
    size = 0
    seen = False
    for n, raw in reader.lines():
        line = raw.lstrip("\ufeff") if n == 1 else raw
        m = _TAG_RE.match(line.rstrip())
        if not line.strip():
            continue
        if m is None:
            if fields is None or not last:
                raise ImportFailure(
                    path, f"is not RIS here: “{snippet(line)}” (every line starts with a tag such as “TY  - ”)", n
                )
            fields[last][-1] += " " + line.strip()  # a wrapped value
            size += len(line)
        else:
            tag, value = m.group(1), (m.group(2) or "").strip()
            if tag == "TY":
                if fields is not None:
                    raise ImportFailure(path, f"a record starts before the one at line {start} ends (no “ER  - ”)", n)
                fields, start, last, size, seen = {"TY": [value]}, n, "", 0, True
                continue
            if fields is None:
                raise ImportFailure(path, f"the tag {tag} comes before any record's “TY  - ”", n)
            if tag == "ER":
                yield start, _finished(path, fields, start, default_venue, default_year, warnings)
                fields, last = None, ""
                continue
            tag = "AU" if tag == "A1" else tag  # one author list, in the file's order
            fields.setdefault(tag, []).append(value)
            last = tag
            size += len(value)
        if size > limits.record_chars:
            raise ImportFailure(path, f"this record is longer than the limit of {limits.record_chars:,} characters", n)
    if fields is not None:  # Zotero and EndNote read a last record that the end of the file ends, and so do we
        warnings.add(f"{path.name}, line {start}: the last record has no “ER  - ”; read to the end of the file")
        yield start, _finished(path, fields, start, default_venue, default_year, warnings)
    if not seen:
        raise ImportFailure(path, "contains no RIS records (“TY  - ” … “ER  - ”)")


def _finished(
    path: Path, fields: dict[str, list[str]], start: int, venue: str, year: int | None, warnings: Warnings
) -> Record | Skip:
    rec = _record(fields, start, venue, year)
    if isinstance(rec, Record):
        rec.bib = _bib(fields, warnings, f"{path.name}, record at line {start}")
    return rec


def _first(fields: dict[str, list[str]], tags: tuple[str, ...]) -> str:
    return next((v for t in tags for v in fields.get(t, []) if v), "")


def _author(name: str) -> str:
    """RIS writes “Family, Given[, Suffix]”: the name as it is read (Given Family Suffix)."""
    parts = [p.strip() for p in name.split(",")]
    if len(parts) == 2 and all(parts):
        return f"{parts[1]} {parts[0]}"
    if len(parts) == 3 and all(parts):
        return f"{parts[1]} {parts[0]} {parts[2]}"
    return " ".join(name.split())


def _record(fields: dict[str, list[str]], line: int, default_venue: str, default_year: int | None) -> Record | Skip:
    title = braces_as_text(" ".join(_first(fields, TITLE_TAGS).split()))  # plain text: "{001}" has braces
    abstract = clean_abstract(_first(fields, ABSTRACT_TAGS))
    if not title and not abstract:
        return Skip(f"record at line {line}", why_no_text(None, _first(fields, ABSTRACT_TAGS)))
    url = _first(fields, ("UR", "L2"))
    doi = _first(fields, ("DO",))
    if not url.startswith("http") and doi:
        url = doi if doi.startswith("http") else biblio.doi_url(doi)
    key = _first(fields, ("ID",))
    return Record(
        title=title,
        abstract=abstract,
        authors=[_author(a) for a in fields.get("AU", []) if a.strip() and not MORE_AUTHORS.fullmatch(a)],
        year=parse_year(_first(fields, YEAR_TAGS)) or default_year,
        venue=_first(fields, VENUE_TAGS) or default_venue,
        url=url if url.startswith("http") else "",
        key=key or f"r{line}",
        keywords=plain_keywords(fields.get("KW", [])),
        note="\n".join(v for v in fields.get("N1", []) if v),
        citation_key=key,
    )


_THESES = frozenset(("phdthesis", "mastersthesis", "thesis"))
_REPORTS = frozenset(("techreport", "report"))


def _bib(fields: dict[str, list[str]], warnings: Warnings, where: str) -> dict[str, str]:
    """The record's bibliographic fields (readinglist.biblio) from RIS's tags: TY, DO, VL, IS, SP/EP, PB, CY,
    ED (or A2/A3), SN (an ISSN or an ISBN), ET, T3, and the journal (JO, JF, JA, or T2 of a JOUR) or the book
    (T2 of a paper or a chapter); a thesis's PB is its school, a report's its institution."""
    kind = biblio.RIS_TYPES.get(_first(fields, ("TY",)).strip().upper(), "misc")
    container = _first(fields, ("T2", "JF", "JO", "JA", "J2") if kind == "article" else ("T2", "BT", "JF", "JO"))
    first, last = _first(fields, ("SP",)), _first(fields, ("EP",))
    pages = f"{first}-{last}" if first and last and "-" not in first else first or last
    publisher = _first(fields, ("PB",))
    serial = _first(fields, ("SN",))
    date = _first(fields, ("DA", "PY", "Y1"))
    parts = date.split("/")
    editors = [a for t in (("ED",) if kind == "article" else ("ED", "A2", "A3")) for a in fields.get(t, [])]
    raw: dict[str, object] = {
        "type": kind,
        "journal": container if kind == "article" else "",
        "booktitle": container if kind != "article" else "",
        "editor": "; ".join(_author(a) for a in editors if a.strip()),
        "volume": _first(fields, ("VL",)),
        "number": _first(fields, ("IS", "M1") if kind in _REPORTS else ("IS",)),
        "pages": pages,
        "month": parts[1] if len(parts) > 1 and parts[1].strip().isdigit() else "",
        "publisher": publisher if kind not in _THESES | _REPORTS else "",
        "school": publisher if kind in _THESES else "",
        "institution": publisher if kind in _REPORTS else "",
        "address": _first(fields, ("CY", "PP")),
        "edition": _first(fields, ("ET",)),
        "series": _first(fields, ("T3",)),
        "issn": serial if biblio.is_issn(serial) else "",
        "isbn": serial if serial and not biblio.is_issn(serial) else "",
        "doi": _first(fields, ("DO",)),
        "moreauthors": "yes" if any(MORE_AUTHORS.fullmatch(a) for a in fields.get("AU", [])) else "",
    }
    return bib_fields(raw, warnings, where)
