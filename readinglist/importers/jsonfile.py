"""JSON Lines and JSON arrays of paper objects; every key is optional."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

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
from readinglist.papers import ImportFailure

_URL_KEYS = ("url", "link", "oa", "site", "pdf", "html_url")


def to_record(obj: dict[str, Any], n: int, default_venue: str, default_year: int | None) -> Record | None:
    title = obj.get("title")
    title = " ".join(str(title).split()) if title else ""
    abstract = clean_abstract(obj.get("abstract"))
    if not title and not abstract:
        return None
    authors = obj.get("authors", obj.get("author"))
    url = next((str(obj[k]) for k in _URL_KEYS if isinstance(obj.get(k), str) and obj[k].startswith("http")), "")
    tags = split_tags(obj.get("tags", obj.get("keywords", [])))
    return Record(
        title=title,
        abstract=abstract,
        authors=split_authors(authors),
        year=parse_year(obj.get("year")) or default_year,
        venue=str(obj.get("venue") or default_venue or "").strip(),
        url=url,
        key=str(obj.get("id") or obj.get("paper_id") or obj.get("key") or f"r{n}"),
        tags=tags,
    )


def _json_lines(path: Path, lines: Iterable[tuple[int, str]]) -> Iterator[tuple[int, Any]]:
    for lineno, line in lines:
        if not line.strip():
            continue
        try:
            yield lineno, json.loads(line)
        except json.JSONDecodeError as exc:
            raise ImportFailure(path, f"invalid JSON Lines record ({exc.msg})", lineno) from None


def _parsed(path: Path, objects: Iterable[tuple[int, Any]], warnings: list[str], unit: str = "line") -> ParsedFile:
    venue, year = venue_year_from_name(path)
    records, skipped, seen = [], 0, 0
    skipped_why: list[tuple[str, str]] = []
    for n, obj in objects:
        seen += 1
        if not isinstance(obj, dict):
            raise ImportFailure(path, f"record {n} is a {type(obj).__name__}, not an object")
        rec = to_record(obj, n, venue, year)
        if rec is None:
            skipped += 1
            note_skip(skipped_why, f"{unit} {n}", why_no_text(obj.get("title"), obj.get("abstract")))
        else:
            records.append(rec)
    if not seen:
        raise ImportFailure(path, "is empty")
    return ParsedFile(path, "json", records, skipped, warnings, skipped_why)


def parse_lines(path: Path, lines: Iterable[tuple[int, str]], warnings: list[str]) -> ParsedFile:
    """JSON Lines, read as a stream: one object per line, blank lines ignored."""
    return _parsed(path, _json_lines(path, lines), warnings)


def parse(path: Path, text: str) -> ParsedFile:
    stripped = text.lstrip("\ufeff \t\r\n")
    objects: Iterable[tuple[int, Any]]
    unit = "record"
    if stripped.startswith("["):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise ImportFailure(path, f"invalid JSON ({exc.msg}); is the file truncated?", exc.lineno) from None
        objects = [(i + 1, o) for i, o in enumerate(data)]
    elif stripped.startswith("{") and _is_single_object(stripped):
        data = json.loads(stripped)
        papers = next((data[k] for k in ("papers", "items", "records", "data") if isinstance(data.get(k), list)), None)
        objects = [(i + 1, o) for i, o in enumerate(papers if papers is not None else [data])]
    else:  # JSON Lines under another name; split on \n only: U+2028 may sit inside a string
        objects = _json_lines(path, enumerate(text.split("\n"), 1))
        unit = "line"
    return _parsed(path, objects, [], unit)


def _is_single_object(text: str) -> bool:
    try:
        json.loads(text)
    except json.JSONDecodeError:
        return False
    return True
