"""CSV and TSV with a header row; a tags column gives the user's tags, a keywords column imported keywords."""

from __future__ import annotations

import csv
import itertools
from collections.abc import Iterator
from pathlib import Path

from readinglist import biblio
from readinglist.importers.base import (
    Record,
    Skip,
    Warnings,
    bib_fields,
    clean_abstract,
    parse_year,
    plain_keywords,
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
from readinglist.markup import braces_as_text
from readinglist.papers import FORMULA_STARTS, OWN_CSV_HEADERS, ImportFailure, format_suffix

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
# a bibliographic record's columns (readinglist.biblio; Zotero's CSV export's names among them), where present
_BIB_COLUMNS = {
    "type": ("item type", "entry type", "entrytype", "type"),
    "doi": ("doi",),
    "journal": ("journal", "publication title", "journal title", "container-title"),
    "booktitle": ("booktitle", "book title", "proceedings title"),
    "volume": ("volume",),
    "number": ("issue", "number"),
    "pages": ("pages", "page"),
    "publisher": ("publisher",),
    "address": ("place", "address", "publisher place"),
    "editor": ("editor", "editors"),
    "edition": ("edition",),
    "series": ("series",),
    "isbn": ("isbn",),
    "issn": ("issn",),
    "month": ("month",),
    "chapter": ("chapter",),
    "institution": ("institution",),
    "school": ("school",),
    "organization": ("organization",),
    "howpublished": ("howpublished",),
    "eprint": ("eprint",),
    "eprinttype": ("eprinttype", "archiveprefix"),
    "eprintclass": ("eprintclass", "primaryclass"),
    "moreauthors": ("moreauthors",),
}
# a note's lines as they are; a keywords cell's line break ends its keyword (export.joined_keywords)
_UNSTRIPPED = frozenset(("note", "tags", "keywords"))
OWN_HEADERS = OWN_CSV_HEADERS  # the app's own export: its id column is a readinglist id, its cells formula-guarded


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
    own = any(names[: len(h)] == h for h in OWN_HEADERS)
    cols = {field: next((names.index(a) for a in aliases if a in names), None) for field, aliases in _COLUMNS.items()}
    if cols["title"] is None and cols["abstract"] is None:
        raise ImportFailure(path, f"has no title or abstract column (header: {snippet(', '.join(header[:8]), 80)})", 1)
    bib_cols: dict[str, int] = {}
    for name, aliases in _BIB_COLUMNS.items():
        found = next((names.index(a) for a in aliases if a in names), None)
        if found is not None:
            bib_cols[name] = found
    venue, year = venue_year_from_name(path)
    state_column = names[cols["state"]] if cols["state"] is not None else ""
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
                cell = _own_cell(row[i], own) if i is not None and i < len(row) else ""
                return cell if field in _UNSTRIPPED else cell.strip()

            title, abstract = braces_as_text(" ".join(get("title").split())), clean_abstract(get("abstract"))
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
                    keywords=plain_keywords(get("keywords")),
                    note=get("note").strip("\n") if own or cols["note"] is not None else "",
                    state=(state := state_from_text(get("state"))),
                    state_from=f"{state_column} column" if state else "",
                    priority=priority_from_text(get("priority")),
                    citation_key=get("citation_key"),
                    uid=get("key") if own else "",
                    own=own,
                    bib=_bib(row, bib_cols, warnings, f"{path.name}, line {line}", own) if bib_cols else {},
                ),
            )
    except csv.Error as exc:
        problem = str(exc)
        if "field larger than field limit" in problem:
            problem = f"a field is longer than the limit of {limits.record_chars:,} characters (an unclosed quote?)"
        else:
            problem = f"malformed CSV ({problem})"
        raise ImportFailure(path, problem, rows.line_num or line) from None


def _own_cell(cell: str, own: bool) -> str:
    """A cell as the app's own export had it: without the formula guard export.csv_cell put there."""
    return cell[1:] if own and cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS) else cell


def _bib(row: list[str], cols: dict[str, int], warnings: Warnings, where: str, own: bool) -> dict[str, str]:
    """A row's bibliographic fields (readinglist.biblio), from the columns that hold them; a Zotero item type
    or a BibTeX one names the type, a journal column is the journal (of a paper that is no article: its book).
    Only for a row that is a bibliographic record (a type known, a DOI or a container), as the JSON importer
    has it: a conference's paper list numbers its posters in a "number" column, which is no issue. The app's
    own export writes a record's columns only from a record, each under its own name: read as they are."""
    raw: dict[str, object] = {f: _own_cell(row[i], own).strip() for f, i in cols.items() if i < len(row)}
    raw = {f: v for f, v in raw.items() if v}
    if not raw:
        return {}
    # the app's own names are BibTeX's ("article"; CSL-JSON's "article" is any other kind: misc)
    kind = biblio.bibtex_type(str(raw["type"])) if own and raw.get("type") else biblio.type_from_name(raw.get("type"))
    if not own and not kind and not any(raw.get(k) for k in ("doi", "journal", "booktitle")):
        return {}
    raw["type"] = kind
    if not own and kind not in ("article", "") and raw.get("journal") and not raw.get("booktitle"):
        raw["booktitle"] = raw.pop("journal")
    if isinstance(editor := raw.get("editor"), str):
        raw["editor"] = "; ".join(biblio.name_list(editor))  # Zotero's "Menabrea, Luigi; Taylor, Richard"
    return bib_fields(raw, warnings, where)
