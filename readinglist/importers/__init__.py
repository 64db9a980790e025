"""Files → records. The format is chosen by extension, and by content where the extension says nothing."""

from __future__ import annotations

import re
from pathlib import Path

from readinglist.importers import jsonfile, seed, tabular
from readinglist.importers.base import ImportContext, ParsedFile, Record, iter_lines, read_text
from readinglist.papers import IMPORT_DESCRIPTION, IMPORT_SUFFIXES, STREAMED_SUFFIXES, ImportFailure, format_suffix

__all__ = ["ImportContext", "ImportFailure", "ParsedFile", "Record", "detect_format", "parse_file"]


def detect_format(path: Path, text: str) -> str:
    kind = IMPORT_SUFFIXES.get(format_suffix(path))
    if kind is not None and kind != "seed":  # .txt says nothing: the bundled format, or anything else
        return kind
    head = text.lstrip("\ufeff \t\r\n")[:4096]
    if head.startswith(("[", "{")):
        return "json"
    if re.search(r"^\s*@\s*[a-zA-Z]+\s*[{(]", head, re.M):
        return "bibtex"
    if seed.looks_like(text):
        return "seed"
    first = head.split("\n", 1)[0].lower()
    if ("\t" in first or "," in first) and ("title" in first or "abstract" in first):
        return "csv"
    raise ImportFailure(path, f"unrecognised format; supported: {IMPORT_DESCRIPTION}", None)


def parse_file(path: Path, context: ImportContext | None = None) -> ParsedFile:
    """Read and parse one file; raises ImportFailure with a message for the user."""
    warnings: list[str] = []
    if format_suffix(path) in STREAMED_SUFFIXES:  # streamed: these are the 100k-paper files
        return jsonfile.parse_lines(path, iter_lines(path, warnings), warnings)
    text = read_text(path, warnings)
    kind = detect_format(path, text)
    try:
        if kind == "bibtex":
            from readinglist.importers import bibtex  # bibtexparser loads only when a .bib file comes

            parsed = bibtex.parse(path, text, context)
        elif kind == "json":
            parsed = jsonfile.parse(path, text)
        elif kind == "csv":
            parsed = tabular.parse(path, text)
        else:
            parsed = seed.parse(path, text)
    except ImportFailure:
        raise
    except RecursionError:
        raise ImportFailure(path, "is nested too deeply to read") from None
    except (ValueError, TypeError, KeyError, IndexError) as exc:  # a parser's own complaint, said plainly
        raise ImportFailure(path, f"cannot be read as {kind}: {exc}") from None
    parsed.warnings[:0] = warnings
    return parsed
