"""Files → records. The format is chosen by extension, and by content where the extension says nothing.

A file is read as a stream (see reader.py and limits.py): `open_file` looks at its first 64 KiB, and each
call of `SourceFile.records()` reads it again from the start, a block at a time, checking every limit as
it goes. The import reads a file once to count and check it and once more to store it (importing.py).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from readinglist.importers import jsonfile, markdown, ris, seed, tabular
from readinglist.importers.base import (
    NOT_A_PAPER,
    ImportContext,
    ParsedFile,
    Record,
    Skip,
    Warnings,
    check_fields,
    note_skip,
    without_controls,
)
from readinglist.importers.limits import DEFAULT_LIMITS, Limits
from readinglist.importers.reader import Encoding, TextReader
from readinglist.papers import IMPORT_DESCRIPTION, IMPORT_SUFFIXES, STREAMED_SUFFIXES, ImportFailure, format_suffix

__all__ = [
    "DEFAULT_LIMITS",
    "ImportContext",
    "ImportFailure",
    "Limits",
    "ParsedFile",
    "Record",
    "Skip",
    "SourceFile",
    "detect_format",
    "open_file",
    "parse_file",
]

_Read = Callable[[Path, TextReader, Limits, Warnings], Iterator[tuple[int, Record | Skip]]]


def detect_format(path: Path, text: str) -> str:
    """The format of a file whose text starts with `text` (its first 64 KiB)."""
    kind = IMPORT_SUFFIXES.get(format_suffix(path))
    if kind is not None and kind != "seed":  # .txt says nothing: the bundled format, or anything else
        return kind
    head = text.lstrip("\ufeff \t\r\n")[:4096]
    if head.startswith(("[", "{")):
        return "json"
    if re.search(r"^\s*@\s*[a-zA-Z]+\s*[{(]", head, re.M):
        return "bibtex"
    if markdown.looks_like(head):
        return "markdown"
    if re.match(r"TY {2}- ", head):
        return "ris"
    if seed.looks_like(text):
        return "seed"
    first = head.split("\n", 1)[0].lower()
    if ("\t" in first or "," in first) and ("title" in first or "abstract" in first):
        return "csv"
    if kind == "seed":  # "unrecognised; supported: seed text (.txt)" would contradict itself for a .txt
        raise ImportFailure(path, seed.not_seed_text(text), 1)
    raise ImportFailure(path, f"unrecognised format; supported: {IMPORT_DESCRIPTION}", None)


class SourceFile:
    """One file to import, read as a stream as often as the import needs; the same records each time.

    After a complete read of `records()`, `skipped`, `skipped_why` (where and why, the first SKIPS_KEPT of
    them) and `warnings` describe that read."""

    def __init__(self, path: Path, kind: str, encoding: Encoding, context: ImportContext):
        self.path = path
        self.kind = kind
        self.context = context
        self.limits = context.limits
        self.encoding = encoding
        self.skipped = 0
        self.skipped_why: list[tuple[str, str]] = []
        self.warnings: list[str] = []
        self.volumes = 0  # entries read that are not papers (@proceedings, a volume crossrefs cite)
        self.reader: TextReader | None = None
        self._bib = None
        if kind == "bibtex":
            from readinglist.importers import bibtex  # bibtexparser loads only when a .bib file comes

            self._bib = bibtex.BibFile(path, context)
        self._read: _Read
        if self._bib is not None:
            self._read = lambda path, reader, limits, warnings: self._bib.read(reader, warnings)  # type: ignore[union-attr]
        elif kind == "json":
            lines = format_suffix(path) in STREAMED_SUFFIXES  # one record per line
            self._read = jsonfile.read_lines if lines else jsonfile.read_json
        elif kind == "csv":
            self._read = tabular.read
        elif kind == "markdown":
            self._read = markdown.read
        elif kind == "ris":
            self._read = ris.read
        else:
            self._read = seed.read

    @property
    def macros(self) -> int:
        """The BibTeX @string macros the file defines (for the files read with it)."""
        return self._bib.macros if self._bib is not None else 0

    def prescan(self) -> None:
        """Read what a .bib file defines for the other files of its import (macros, volumes, the keys its
        crossrefs cite: see ImportContext) before any file's entries are read, so that the files of a set can
        come in any order, as a file dialog lists them. A failure here is said at the file's own turn, when it
        is read again with what every other file defines."""
        if self._bib is not None:
            with contextlib.suppress(
                ImportFailure, RecursionError, ValueError, TypeError, KeyError, IndexError, MemoryError
            ):
                self._bib.scan(self._reader())

    def _reader(self) -> TextReader:
        return TextReader(self.path, self.limits, self.encoding)

    def progress(self) -> tuple[int, int]:
        """(bytes read, bytes in all) of the file as stored (compressed), for a progress bar."""
        reader = self.reader
        return (reader.position, reader.size) if reader is not None else (0, 0)

    def records(self) -> Iterator[Record]:
        """The file's papers, read from the start; raises ImportFailure naming the file, line and problem."""
        limits = self.limits
        warnings = Warnings()
        skipped_why: list[tuple[str, str]] = []
        n = skipped = volumes = 0
        try:
            if self._bib is not None:
                self._bib.scan(self._reader())
            self.reader = reader = self._reader()
            for line, rec in self._read(self.path, reader, limits, warnings):
                n += 1
                if n > limits.records:
                    raise ImportFailure(
                        self.path, f"has more than {limits.records:,} records (the limit for one file)", line
                    )
                if isinstance(rec, Skip):
                    skipped += 1
                    note_skip(skipped_why, rec.where, rec.why)
                elif rec is not NOT_A_PAPER:
                    without_controls(rec)
                    check_fields(self.path, rec, line, limits)
                    yield rec
                else:
                    volumes += 1
        except ImportFailure:
            raise
        except RecursionError:
            raise ImportFailure(self.path, "is nested too deeply to read") from None
        except (ValueError, TypeError, KeyError, IndexError) as exc:  # a parser's own complaint, said plainly
            raise ImportFailure(self.path, f"cannot be read as {self.kind}: {exc}") from None
        except MemoryError:
            raise ImportFailure(self.path, "is too large to read in the memory available") from None
        self.skipped, self.skipped_why, self.volumes = skipped, skipped_why, volumes
        self.warnings = reader.fallback_warning() + warnings.lines()


def open_file(path: Path, context: ImportContext | None = None) -> SourceFile:
    """A file ready to be read: its compression, encoding and format told from its first 64 KiB (binary,
    empty and unknown files are refused here)."""
    context = context or ImportContext()
    reader = TextReader(path, context.limits)
    sniffed = reader.sniff()
    reader.check_size()
    return SourceFile(path, detect_format(path, sniffed.head), sniffed.encoding, context)


def parse_file(path: Path, context: ImportContext | None = None) -> ParsedFile:
    """All of a file's records in a list: for tests, tools and small files. An import streams them."""
    source = open_file(path, context)
    records = list(source.records())
    return ParsedFile(path, source.kind, records, source.skipped, source.warnings, source.skipped_why)
