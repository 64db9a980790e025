"""CSV and TSV with a header row; a tags column gives the user's tags, a keywords column imported keywords."""

from __future__ import annotations

import csv
import itertools
from collections.abc import Iterator
from pathlib import Path

from readinglist.importers.base import (
    Record,
    Skip,
    Warnings,
    clean_abstract,
    parse_year,
    priority_from_text,
    snippet,
    split_authors,
    split_tags,
    state_from_text,
    venue_year_from_name,
    why_no_text,
)
from readinglist.importers.limits import Limits
from readinglist.importers.reader import TextReader
from readinglist.papers import FORMULA_STARTS, OWN_CSV_HEADER, ImportFailure, format_suffix

_COLUMNS = {
    "title": ("title", "paper title", "name"),
    "abstract": ("abstract", "summary", "description"),
    "authors": ("authors", "author", "author names"),
    "year": ("year", "publication year", "date"),
    "venue": ("venue", "conference", "journal", "booktitle", "source"),
    "url": ("url", "link", "pdf", "doi url"),
    "tags": ("tags", "tag"),
    "keywords": ("keywords", "keyword", "author keywords"),
    "key": ("paper_id", "id", "key"),
    "state": ("state", "readstatus"),
    "priority": ("priority",),
    "note": ("note", "notes", "annote"),
    "citation_key": ("citation_key", "citation key", "citekey"),
}
OWN_HEADER = OWN_CSV_HEADER  # the app's own export: its id column is a readinglist id, its cells formula-guarded


def read(path: Path, reader: TextReader, limits: Limits, warnings: Warnings) -> Iterator[tuple[int, Record | Skip]]:
    """Rows as a stream. A quoted field may span lines; the csv module's field limit is the record limit,
    so that an unclosed quote cannot swallow the rest of the file."""
    csv.field_size_limit(limits.record_chars)
    lines = (line + "\n" for _, line in reader.lines())
    first = next(lines, None)
    if first is None:
        raise ImportFailure(path, "is empty")
    first = first.lstrip("\ufeff")
    delimiter = "\t" if format_suffix(path) == ".tsv" else max(",\t;", key=first.count)
    rows = csv.reader(itertools.chain([first], lines), delimiter=delimiter)
    try:
        header = next(rows)
    except (StopIteration, csv.Error) as exc:
        raise ImportFailure(path, f"has no header row ({exc})") from None
    names = [h.strip().lower() for h in header]
    own = names[: len(OWN_HEADER)] == OWN_HEADER
    cols = {field: next((names.index(a) for a in aliases if a in names), None) for field, aliases in _COLUMNS.items()}
    if cols["title"] is None and cols["abstract"] is None:
        raise ImportFailure(path, f"has no title or abstract column (header: {snippet(', '.join(header[:8]), 80)})", 1)
    venue, year = venue_year_from_name(path)
    line = 1
    try:
        for row in rows:
            line = rows.line_num
            if not any(cell.strip() for cell in row):
                continue
            if sum(map(len, row)) > limits.record_chars:
                raise ImportFailure(
                    path, f"this row is longer than the limit of {limits.record_chars:,} characters", line
                )

            def get(field: str, row: list[str] = row) -> str:
                i = cols[field]
                cell = row[i] if i is not None and i < len(row) else ""
                if own and cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS):
                    cell = cell[1:]  # the formula guard export.csv_cell put there
                return cell if field == "note" else cell.strip()

            title, abstract = " ".join(get("title").split()), clean_abstract(get("abstract"))
            if not title and not abstract:
                yield line, Skip(f"line {line}", why_no_text(None, get("abstract")))
                continue
            yield (
                line,
                Record(
                    title=title,
                    abstract=abstract,
                    authors=split_authors(get("authors")),
                    year=parse_year(get("year")) or year,
                    venue=get("venue") or venue,
                    url=get("url") if get("url").startswith("http") else "",
                    key=get("key") or f"r{rows.line_num}",
                    tags=split_tags(get("tags")),
                    keywords=split_tags(get("keywords")),
                    note=get("note").strip("\n") if own or cols["note"] is not None else "",
                    state=state_from_text(get("state")),
                    priority=priority_from_text(get("priority")),
                    citation_key=get("citation_key"),
                    uid=get("key") if own else "",
                    own=own,
                ),
            )
    except csv.Error as exc:
        problem = str(exc)
        if "field larger than field limit" in problem:
            problem = f"a field is longer than the limit of {limits.record_chars:,} characters (an unclosed quote?)"
        else:
            problem = f"malformed CSV ({problem})"
        raise ImportFailure(path, problem, rows.line_num or line) from None
