"""The vocabulary every part of readinglist speaks: papers, reading states, file formats, search results and
the errors a user can act on. Qt-free and Whoosh-free, so that anything may import it at start-up.

A word defined here is spelled nowhere else: a new state or format is added in this file and the store,
the index, the exports, the command line and the window follow.
"""

from __future__ import annotations

import errno
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

# ---- reading states ---------------------------------------------------------------------------------

STATES = ("unread", "skimmed", "read")  # in triage order: the sort order of the state column
STATE_LABELS = {"unread": "Unread", "skimmed": "Skimmed", "read": "Read"}
STATE_MARKS = {"unread": " ", "skimmed": "~", "read": "x"}  # the command line's one-character column
STATE_KEYS = {"read": "R", "skimmed": "S", "unread": "U"}  # the window's shortcut for each
DEFAULT_STATE = "unread"


def state_order(state: str) -> int:
    return STATES.index(state) if state in STATES else len(STATES)


# ---- file formats -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExportFormat:
    name: str  # what --format takes
    label: str  # what a menu shows
    extension: str  # with the dot


EXPORT_FORMATS: dict[str, ExportFormat] = {
    f.name: f
    for f in (
        ExportFormat("markdown", "Markdown", ".md"),
        ExportFormat("bibtex", "BibTeX", ".bib"),
        ExportFormat("csv", "CSV", ".csv"),
        ExportFormat("json", "JSON", ".json"),
    )
}
DEFAULT_EXPORT_FORMAT = "markdown"

# what an import reads, by the suffix under any compression suffix (icml.jsonl.gz → .jsonl)
IMPORT_SUFFIXES: dict[str, str] = {
    ".txt": "seed",
    ".jsonl": "json",
    ".ndjson": "json",
    ".json": "json",
    ".bib": "bibtex",
    ".bibtex": "bibtex",
    ".csv": "csv",
    ".tsv": "csv",
}
STREAMED_SUFFIXES = (".jsonl", ".ndjson")  # one record per line: read as a stream, never whole
COMPRESSION_SUFFIXES = (".gz", ".xz", ".bz2")
IMPORT_DESCRIPTION = "seed text (.txt), JSON Lines (.jsonl), JSON (.json), BibTeX (.bib), CSV/TSV (.csv, .tsv)"


def strip_compression(name: str) -> str:
    """icml2026.jsonl.gz → icml2026.jsonl (case kept)."""
    for suffix in COMPRESSION_SUFFIXES:
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def format_suffix(path: Path) -> str:
    """The format's suffix under any compression suffix, lower-case: x.JSONL.gz → .jsonl."""
    return Path(strip_compression(path.name).lower()).suffix


def export_format_for(path: Path | None) -> str:
    """The export format a file name asks for (Markdown unless its extension names another)."""
    if path is not None:
        suffix = path.suffix.lower()
        for f in EXPORT_FORMATS.values():
            if f.extension == suffix:
                return f.name
    return DEFAULT_EXPORT_FORMAT


def import_file_filter() -> str:
    """A file dialog's filter for everything an import reads (compressed or not)."""
    patterns = " ".join(f"*{s}" for s in [*IMPORT_SUFFIXES, *COMPRESSION_SUFFIXES])
    return f"Paper lists ({patterns});;All files (*)"


# ---- papers -----------------------------------------------------------------------------------------


@dataclass
class Paper:
    id: int
    uid: str
    title: str  # what the user sees: their own title, else the imported one, else the derived one
    raw_title: str  # as imported (may hold LaTeX); empty when the source had none
    auto_title: str  # the fallback: the imported title as plain text, or one derived from the abstract
    user_title: str | None
    abstract: str
    plain_abstract: str
    authors: list[str]
    venue: str
    year: int | None
    url: str
    links: list[str]
    state: str
    note: str
    tags: list[str] = field(default_factory=list)
    source: str = ""
    in_source: bool = True
    updated_at: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.uid,
            "title": self.title,
            "abstract": self.abstract,
            "authors": self.authors,
            "venue": self.venue,
            "year": self.year,
            "url": self.url,
            "tags": self.tags,
            "state": self.state,
            "note": self.note,
            "links": self.links,
            "source": self.source,
        }


@dataclass
class NewPaper:
    """A paper ready to store, with its derived forms computed once at import."""

    uid_seed: str
    content_hash: str
    source_key: str
    title: str
    auto_title: str
    abstract: str
    plain_abstract: str
    authors: list[str]
    venue: str
    year: int | None
    url: str
    links: list[str]
    tags: list[str]


class TableRow(NamedTuple):
    """What a table row shows, fetched a page at a time without the abstracts."""

    title: str
    venue: str
    year: int | None
    state: str
    tags: str  # "a, b"
    authors: str = ""  # "Vaswani, Shazeer, … (8)"
    added: str = ""  # when the paper was added (ISO 8601, UTC)


@dataclass
class RemovedPaper:
    """A paper taken out of the library, kept with its annotations until a re-import or an undo brings it back."""

    id: int
    uid: str
    title: str
    venue: str
    year: int | None
    removed_at: str


def normalise_tags(tags: Iterable[str]) -> list[str]:
    """Tags are trimmed, single-spaced and lower-case; commas separate tags, so none is kept inside one."""
    out: dict[str, None] = {}
    for tag in tags:
        for part in tag.split(","):
            clean = " ".join(part.split()).lower()
            if clean:
                out.setdefault(clean, None)
    return list(out)


# ---- searching --------------------------------------------------------------------------------------


@dataclass
class SearchResult:
    ids: list[int]
    scores: list[float]
    query: str
    terms: set[str] = field(default_factory=set)  # analysed words to highlight
    unindexed: int = 0  # committed changes this search could not see: another process held the index


# ---- errors a user can act on (each message says what and where) --------------------------------------


class QueryError(ValueError):
    """A query the user has to fix; the message says how."""


class StoreError(Exception):
    """A database problem a user can act on (the message says what and where)."""


class ImportFailure(Exception):
    """A file that cannot be imported; the message names the file, the line where known, and the problem."""

    def __init__(self, path: Path | str, problem: str, line: int | None = None):
        self.path = Path(path)
        self.problem = problem
        self.line = line
        where = f"{self.path.name}, line {line}" if line else self.path.name
        super().__init__(f"{where}: {problem}")


def describe_error(exc: BaseException, where: Path | str) -> str:
    """An error in words that name the file: "the disk is full while writing …/index"."""
    if isinstance(exc, OSError):
        place = exc.filename or where
        if exc.errno == errno.ENOSPC:
            return f"the disk is full while writing {place}"
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            return f"{place} cannot be written ({exc.strerror})"
        return f"{place}: {exc.strerror or exc}"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


class ImportCancelled(Exception):
    """The user cancelled an import; the file's changes were rolled back."""
