"""CSV and TSV with a header row; a keywords column becomes tags."""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

from readinglist.importers.base import (
    ParsedFile,
    Record,
    clean_abstract,
    note_skip,
    parse_year,
    split_authors,
    split_tags,
    venue_year_from_name,
    why_no_text,
)
from readinglist.papers import ImportFailure, format_suffix

csv.field_size_limit(min(sys.maxsize, 2**31 - 1))

_COLUMNS = {
    "title": ("title", "paper title", "name"),
    "abstract": ("abstract", "summary", "description"),
    "authors": ("authors", "author", "author names"),
    "year": ("year", "publication year", "date"),
    "venue": ("venue", "conference", "journal", "booktitle", "source"),
    "url": ("url", "link", "pdf", "doi url"),
    "tags": ("keywords", "tags", "keyword", "author keywords"),
    "key": ("paper_id", "id", "key"),
}


def parse(path: Path, text: str) -> ParsedFile:
    sample = text[:65536]
    if format_suffix(path) == ".tsv":
        delimiter = "\t"
    else:
        first = sample.split("\n", 1)[0]
        delimiter = max(",\t;", key=first.count)
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=delimiter)
    try:
        header = next(reader)
    except (StopIteration, csv.Error) as exc:
        raise ImportFailure(path, f"has no header row ({exc})") from None
    names = [h.strip().lower() for h in header]
    cols = {field: next((names.index(a) for a in aliases if a in names), None) for field, aliases in _COLUMNS.items()}
    if cols["title"] is None and cols["abstract"] is None:
        raise ImportFailure(path, f"has no title or abstract column (header: {', '.join(header[:8])})", 1)
    venue, year = venue_year_from_name(path)
    records, skipped = [], 0
    skipped_why: list[tuple[str, str]] = []
    try:
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue

            def get(field: str, row: list[str] = row) -> str:
                i = cols[field]
                return row[i].strip() if i is not None and i < len(row) else ""

            title, abstract = " ".join(get("title").split()), clean_abstract(get("abstract"))
            if not title and not abstract:
                skipped += 1
                note_skip(skipped_why, f"line {reader.line_num}", why_no_text(None, get("abstract")))
                continue
            records.append(
                Record(
                    title=title,
                    abstract=abstract,
                    authors=split_authors(get("authors")),
                    year=parse_year(get("year")) or year,
                    venue=get("venue") or venue,
                    url=get("url") if get("url").startswith("http") else "",
                    key=get("key") or f"r{reader.line_num}",
                    tags=split_tags(get("tags")),
                )
            )
    except csv.Error as exc:
        raise ImportFailure(path, f"malformed CSV ({exc})", reader.line_num) from None
    return ParsedFile(path, "csv", records, skipped, [], skipped_why)
