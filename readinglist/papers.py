"""The vocabulary every part of readinglist speaks: papers, reading states, file formats, search results and
the errors a user can act on. Qt-free and Whoosh-free, so that anything may import it at start-up.

A word defined here is spelled nowhere else: a new state or format is added in this file and the store,
the index, the exports, the command line and the window follow.

Over 400 lines: it is the vocabulary — dataclasses and tables, almost no logic — and one file is the point.
"""

from __future__ import annotations

import errno
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import NamedTuple, TypedDict

# ---- reading states ---------------------------------------------------------------------------------

STATES = ("unread", "queued", "skimmed", "read", "skipped")  # in triage order: the state column's sort order
STATE_LABELS = {"unread": "Unread", "queued": "Queued", "skimmed": "Skimmed", "read": "Read", "skipped": "Skipped"}
STATE_HINTS = {  # what each state means, where a tooltip or a help text says it
    "unread": "not looked at yet",
    "queued": "to read: worth your time",
    "skimmed": "looked through",
    "read": "read",
    "skipped": "not for me",
}
# the command line's one-character column
STATE_MARKS = {"unread": " ", "queued": ">", "skimmed": "~", "read": "x", "skipped": "-"}
STATE_KEYS = {"read": "R", "skimmed": "S", "unread": "U", "queued": "Q", "skipped": "X"}  # the window's shortcuts
DEFAULT_STATE = "unread"
# the states a decision was made in (a priority is one too: "triaged N of M" counts both, Store.triaged_states)
TRIAGED_STATES = tuple(s for s in STATES if s != DEFAULT_STATE)
REPORT_ORDER = ("read", "skimmed", "queued", "unread", "skipped")  # a reading list starts with what was read

PRIORITIES = (1, 2, 3)  # 1 first; a paper without a priority has None (0 clears it where a number is typed)
PRIORITY_LABELS = {1: "P1", 2: "P2", 3: "P3"}


def state_order(state: str) -> int:
    return STATES.index(state) if state in STATES else len(STATES)


def parse_priority(value: str | int | None) -> int | None:
    """A priority as the user gives it: 1–3, or 0 (or "none", "") for none. Raises ValueError otherwise."""
    text = str(value if value is not None else "").strip().lower()
    if text in ("", "0", "none", "-"):
        return None
    if text.lstrip("p") in {str(p) for p in PRIORITIES}:
        return int(text.lstrip("p"))
    raise ValueError(f"priority {value!r}: use 1, 2 or 3 (1 first), or 0 to clear it")


# ---- file formats -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExportFormat:
    name: str  # what --format takes
    label: str  # what a menu shows
    extension: str  # with the dot
    # what it writes whatever ExportOptions ask ("abstracts", "notes"): a record's fields, to be read back (the
    # Export dialog shows these options ticked and disabled rather than offering a choice the export ignores)
    always: frozenset[str] = frozenset()


_ABSTRACTS = frozenset({"abstracts"})
_ABSTRACTS_NOTES = frozenset({"abstracts", "notes"})
EXPORT_FORMATS: dict[str, ExportFormat] = {
    f.name: f
    for f in (
        ExportFormat("markdown", "Markdown", ".md"),
        ExportFormat("bibtex", "BibTeX", ".bib", _ABSTRACTS),
        ExportFormat("biblatex", "BibLaTeX (UTF-8)", ".bib", _ABSTRACTS),
        ExportFormat("csv", "CSV", ".csv", _ABSTRACTS_NOTES),
        ExportFormat("json", "JSON", ".json", _ABSTRACTS_NOTES),
        ExportFormat("csljson", "CSL-JSON (Zotero, pandoc)", ".json", _ABSTRACTS),
        ExportFormat("ris", "RIS", ".ris", _ABSTRACTS),
        ExportFormat("obsidian", "Obsidian/Logseq notes folder", ""),  # a folder: one Markdown file per paper
    )
}

EXPORT_GROUPS = ("state", "tag", "none")  # how a reading list is sectioned


@dataclass
class ExportOptions:
    """What an export writes (the CLI's flags, the window's Export dialog)."""

    format: str = "markdown"
    group: str = "state"  # one of EXPORT_GROUPS
    abstracts: bool = False
    notes: bool = True
    query: str = ""
    scope: str = ""  # a human description ("current results", "selection", "all papers")


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
    ".ris": "ris",
    ".md": "markdown",
    ".markdown": "markdown",
}
# the app's CSV export: its columns (an import that finds them knows the file is one of ours) and what a cell
# may not start with — OWASP's CSV injection rule: a cell starting with one of these is read as a formula (=, +,
# -, @; tab and carriage return start one in some spreadsheets); the full-width forms are folded to them by some
# after the paper's own, the bibliographic record's columns (readinglist.biblio.FIELDS, the DOI first): a
# spreadsheet has the DOI and a citation's fields, and a re-import gives a paper its whole record back
CSV_RECORD_COLUMNS = ["doi", "type", "journal", "booktitle", "volume", "number", "pages", "month", "editor",
                      "publisher", "address", "edition", "series", "chapter", "institution", "school", "organization",
                      "howpublished", "isbn", "issn", "eprint", "eprinttype", "eprintclass", "moreauthors"]  # fmt: skip
# the citation key beside the id: the two names of a paper (a spreadsheet's reader cites by the key)
CSV_COLUMNS = ["id", "citation_key", "title", "authors", "venue", "year", "state", "priority", "tags", "note", "url",
               "links", "abstract", "keywords", *CSV_RECORD_COLUMNS]  # fmt: skip
# what the export's header starts with, today's and before its citation key (keywords and the record came later)
OWN_CSV_HEADERS = (CSV_COLUMNS[:13], [c for c in CSV_COLUMNS[:13] if c != "citation_key"])
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "＝", "＋", "－", "＠")
STREAMED_SUFFIXES = (".jsonl", ".ndjson")  # one record per line: read as a stream, never whole
COMPRESSION_SUFFIXES = (".gz", ".xz", ".bz2")
IMPORT_DESCRIPTION = (
    "seed text (.txt), JSON Lines (.jsonl), JSON (.json), BibTeX (.bib), CSV/TSV (.csv, .tsv), RIS (.ris), "
    "readinglist's own Markdown reading list (.md) and notes folder"
)


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
            if f.extension and f.extension == suffix:
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
    keywords: list[str] = field(default_factory=list)  # those of `tags` that are keywords (files gave), not the user's
    source: str = ""
    in_source: bool = True
    updated_at: str = ""
    citation_key: str = ""  # given once when stored (citekeys), then only the user changes it
    priority: int | None = None  # 1–3, 1 first; None: none given
    # the bibliographic record its file gave (readinglist.biblio: type, doi, journal, volume, pages …); {}: none
    bib: dict[str, str] = field(default_factory=dict)

    @property
    def doi(self) -> str:
        return self.bib.get("doi", "")

    @property
    def own_tags(self) -> list[str]:
        """The tags the user gave (or made theirs), not a file's keywords."""
        if not self.keywords:
            return self.tags
        imported = set(self.keywords)
        return [t for t in self.tags if t not in imported]

    @property
    def title_derived(self) -> bool:
        """The title shown is one derived from the abstract: the source had none and the reader gave none."""
        return not self.raw_title and not self.user_title

    def to_json(self) -> dict[str, object]:
        """The paper as the JSON export and `show --json` write it; the record only where there is one (a
        paper without one is written as before)."""
        out: dict[str, object] = {
            "id": self.uid,
            "title": self.title,
            "title_derived": self.title_derived,
            "abstract": self.abstract,
            "authors": self.authors,
            "venue": self.venue,
            "year": self.year,
            "url": self.url,
            "tags": self.own_tags,
            "keywords": self.keywords,
            "state": self.state,
            "priority": self.priority,
            "note": self.note,
            "links": self.links,
            "source": self.source,
            "citation_key": self.citation_key,
        }
        if self.bib:
            out["bib"] = dict(self.bib)
        return out


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
    keywords: list[str] = field(default_factory=list)  # a file's keywords: keywords unless the user has such a tag
    title_key: str = ""  # what duplicates are found by (importers.duplicates); computed from the title if ''
    text_key: str = ""
    citation_key: str = ""  # the key a file gave it (the app's own export), kept when no other paper has it
    bib: dict[str, str] = field(default_factory=dict)  # its bibliographic record (readinglist.biblio)


class TableRow(NamedTuple):
    """What a table row shows, fetched a page at a time without the abstracts."""

    title: str
    venue: str
    year: int | None
    state: str
    tags: str  # "a, b"
    priority: int | None = None  # 1–3, or none
    authors: str = ""  # "Vaswani, Shazeer, … (8)"
    added: str = ""  # when the paper was added (ISO 8601, UTC)


class Marks(TypedDict, total=False):
    """A paper's triage marks as an edit gives them: only those it gives (a priority of None clears it)."""

    state: str
    priority: int | None


@dataclass
class RemovedPaper:
    """A paper taken out of the library, kept with its annotations until a re-import or an undo brings it back."""

    id: int
    uid: str
    title: str
    venue: str
    year: int | None
    removed_at: str
    merged_into: str | None = None  # merged into another paper (Library.merge): that paper's id ('' if gone)


@dataclass
class DuplicatePair:
    """Two papers that may be one: found at import (why says how), for the user to merge or keep apart."""

    a: int
    b: int
    why: str
    found_at: str = ""


@dataclass
class Merge:
    """What `Library.merge` did, so that `Library.unmerge` can take it back: the paper kept, the paper merged
    into it (kept whole among the removed papers), the kept paper's annotations before, the sources moved."""

    kept: int
    merged: int
    tags: list[str]
    state: str
    priority: int | None
    note: str
    user_title: str | None
    moved_sources: list[tuple[int, str]]  # (source id, content hash) rows moved from the merged paper
    added_source: tuple[int, str] | None  # the merged paper's own source, added to the kept one
    pair: tuple[str, str] | None  # the pair's (status, why) before, if it was listed
    bib: dict[str, str] | None = None  # the kept paper's record before, if the merge gave it the other's
    # the kept paper's columns the merged one filled in (Store.merge_papers): each one's value before and after
    filled: dict[str, tuple[object, object]] = field(default_factory=dict)


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def tag_key(name: str) -> str:
    """A tag's name as the library tells tags apart (SQLite's NOCASE: ASCII letters folded, no others), so
    that which of a paper's tags are a file's keywords is kept per stored tag ("Éducation" is not "éducation")."""
    return name.translate(_ASCII_LOWER)


def same_tag(a: str | None, b: str | None) -> bool:
    """Whether two names are one tag: tags differ by more than case (see normalise_tags)."""
    return a is not None and b is not None and a.casefold() == b.casefold()


def clean_tags(tags: Iterable[str]) -> list[str]:
    """Tags as stored: trimmed and single-spaced, in the case they were given ("LLM", "RL"); two that differ
    only in case are one tag (the first spelling kept). A comma inside one stays: a file's keyword
    "Optimization, convex" is one tag (typed text is parted by normalise_tags)."""
    out: dict[str, str] = {}
    for tag in tags:
        clean = " ".join(tag.split())
        if clean:
            out.setdefault(clean.casefold(), clean)
    return list(out.values())


def normalise_tags(typed: Iterable[str], whole: Iterable[str] = ()) -> list[str]:
    """Tags as typed: commas separate them, except where the parts spell one of `whole`, the tags that hold a
    comma ("Optimization, convex, mine" with the keyword "Optimization, convex" is two tags, that one spelt as
    `whole` spells it); then clean_tags. A tag spelt as typed (spaces tidied, case aside) is taken before one
    whose comma is spaced otherwise ("A, B" is not "A,B" when both are tags), the longest first."""
    exact: dict[str, str] = {}
    spaced: dict[str, str] = {}
    sizes: dict[str, set[int]] = {}  # each first part's tags, by how many parts they have
    for w in whole:
        if "," in w:
            parts = [" ".join(part.split()) for part in w.split(",")]
            exact.setdefault(" ".join(w.split()).casefold(), " ".join(w.split()))
            spaced.setdefault(",".join(parts).casefold(), " ".join(w.split()))
            sizes.setdefault(parts[0].casefold(), set()).add(len(parts))
    out: list[str] = []
    for text in typed:
        raw = text.split(",")
        parts = [" ".join(part.split()) for part in raw]
        i = 0
        while i < len(parts):
            for n in sorted(sizes.get(parts[i].casefold(), ()), reverse=True):
                if i + n > len(parts):
                    continue
                as_typed = " ".join(",".join(raw[i : i + n]).split()).casefold()
                spelt = exact.get(as_typed) or spaced.get(",".join(parts[i : i + n]).casefold())
                if spelt is not None:
                    out.append(spelt)
                    i += n
                    break
            else:
                out.append(parts[i])
                i += 1
    return clean_tags(out)


# ---- smart lists -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SmartList:
    """A saved view: a query, a state and a tag, shown in the sidebar with its live count. Its papers are
    whatever matches now, never a stored set of ids."""

    id: int
    name: str
    query: str = ""
    state: str | None = None  # None: every state
    tag: str | None = None

    def describe(self) -> str:
        """The list's definition in words: "Unread · diffusion · tag rl"."""
        return describe_view(self.query, self.state, self.tag)


def describe_view(query: str = "", state: str | None = None, tag: str | None = None) -> str:
    """A view's name as a user would say it, e.g. "Queued · priority 1" (what a new list is first called)."""
    parts = [STATE_LABELS.get(state, state) if state else ""]
    text = " ".join(query.split())
    if text:
        m = re.fullmatch(r"priority:\s*(\d)", text, re.IGNORECASE)
        parts.append(f"priority {m.group(1)}" if m else text)
    if tag:
        parts.append(f"tag {tag}")
    return " · ".join(p for p in parts if p) or "All papers"


# ---- searching --------------------------------------------------------------------------------------


@dataclass
class SearchResult:
    """The papers a query found, best first (always rank order: a caller that sorts them sorts a copy),
    and what a reader should be told about how the query was read."""

    ids: list[int]
    scores: list[float]
    query: str
    # what to highlight, as the index holds words (folded): single words, and phrases as words joined by
    # spaces (pass it to Library.highlighter)
    terms: set[str] = field(default_factory=set)
    # True when no paper has every word of the query: these are the closest matches instead, the papers
    # with the most of its words first (then by BM25F; for a pasted title, the two together: a paper a word
    # short may come first), a misspelt word matching its correction too. Say so
    # above the results ("no paper has every word; closest matches").
    partial: bool = False
    # for partial results: how many of the query's `word_count` words each paper has (parallel to ids)
    matched: list[int] = field(default_factory=list)
    word_count: int = 0
    # for partial results: the stop words of the query ("of", "the") left out of the search and so of
    # `word_count` (say so: "1 of 2 words" read as a slip for a query of three)
    stop_words: list[str] = field(default_factory=list)
    # the query with its misspelt words replaced by the library's own words, or None: offer it ("Did you
    # mean …"); searching it is one more search of this text. `corrections` maps each word as typed (in the
    # index's folded form) to the word suggested.
    correction: str | None = None
    corrections: dict[str, str] = field(default_factory=dict)
    # words of the query that no paper has and nothing corrects (folded), to name: "no paper has “xyzzy”";
    # "note:hierarchy" for a word looked for in one field only (see `no_paper_has`)
    unknown: list[str] = field(default_factory=list)
    # how the query was read where it differs from what was typed, one sentence each, to show as they are
    # (e.g. a prefix matching thousands of words searched for its most frequent ones)
    notes: list[str] = field(default_factory=list)
    # the last word, when no paper had every word as typed (or it was rare) and it was read as the start of a
    # word: the word perhaps still being typed ("gaussian proc")
    started: str | None = None
    unindexed: int = 0  # committed changes this search could not see: another process held the index
    # found without the search index while it was being opened or rebuilt (Library.search): the papers with
    # every word somewhere in their text, titles first, unranked; the same search runs again once it is ready
    provisional: bool = False

    def most_words(self) -> SearchResult:
        """Of closest matches, those with the most of the query's words, in their order: what an order other
        than relevance (predicted interest) draws from. The papers a word or two shorter that relevance ranks
        by their fit came first in the Suggested order by interest alone ("potential games FTRL": a paper with
        "potential" only, under a line saying "2 of 3 words"). A full match is itself."""
        if not self.partial or len(self.matched) != len(self.ids) or not self.matched:
            return self
        best = max(self.matched)
        rows = [k for k, m in enumerate(self.matched) if m == best]
        return replace(self, ids=[self.ids[k] for k in rows], matched=[best] * len(rows),
                       scores=[self.scores[k] for k in rows] if len(self.scores) == len(self.ids) else [])  # fmt: skip


FIELD_NOUNS = {"title": "title", "abstract": "abstract", "authors": "authors", "note": "note", "venue": "venue"}


def no_paper_has(unknown: list[str], capital: bool = True) -> str:
    """The words no paper has, said: "No paper has “xyzzy”"; a word looked for in one field is said of that
    field ("No paper's note has “hierarchy”": the abstracts may have it)."""
    anywhere = [w for w in unknown if ":" not in w]
    by_field: dict[str, list[str]] = {}
    for entry in unknown:
        if ":" in entry:
            name, word = entry.split(":", 1)
            by_field.setdefault(FIELD_NOUNS.get(name, name), []).append(word)
    parts = [f"no paper has {', '.join(f'“{w}”' for w in anywhere)}"] if anywhere else []
    parts += [f"no paper's {noun} {'have' if noun == 'authors' else 'has'} {', '.join(f'“{w}”' for w in words)}"
              for noun, words in by_field.items()]  # fmt: skip
    said = "; ".join(parts)
    return said[:1].upper() + said[1:] if capital else said


def words_counted(result: SearchResult) -> str:
    """How many of the query's words the best closest match has, said after "closest matches": "(2 of 3
    words)"; the stop words left out of the count named ("(1 of 2 words, not counting “of”)": a query of
    three words said "1 of 2", a trial). Empty when no count helps (none has any word, or every one)."""
    best = max(result.matched, default=0)  # (a paper a word short can rank first: see engine.rank_keys)
    if not 0 < best < result.word_count:
        return ""
    left_out = f", not counting {', '.join(f'“{w}”' for w in result.stop_words)}" if result.stop_words else ""
    return f" ({best} of {result.word_count} words{left_out})"


# ---- topics -----------------------------------------------------------------------------------------


@dataclass
class Topic:
    """A group of papers about one thing, named by 2–3 phrases its papers use (see readinglist.topics).
    Its id stays across recomputes while its papers mostly stay, so `topic:12` keeps meaning the same."""

    id: int
    phrases: list[str]
    size: int
    counts: dict[str, int] = field(default_factory=dict)  # papers by reading state
    prioritized: int = 0  # of its unread papers, those given a priority: triaged, though not yet read
    x: float = 0.0  # where its name goes on the map, in [-1, 1]
    y: float = 0.0

    @property
    def label(self) -> str:
        return " · ".join(self.phrases)

    @property
    def unread(self) -> int:
        return self.counts.get(DEFAULT_STATE, self.size)

    @property
    def untriaged(self) -> int:
        """Unread with no priority: what is left to triage, as the Suggested view and "triaged N of M" count."""
        return self.unread - self.prioritized

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "label": self.label,
            "phrases": self.phrases,
            "size": self.size,
            "counts": self.counts,
            "untriaged": self.untriaged,
        }


@dataclass
class TopicsStatus:
    """When topics were last computed and whether papers came or changed since (then the window recomputes)."""

    computed_at: str | None  # None: never
    papers: int  # papers in the library then
    outdated: bool
    seconds: float = 0.0  # how long the computation took


# ---- errors a user can act on (each message says what and where) --------------------------------------


class QueryError(ValueError):
    """A query the user has to fix; the message says how."""


INDEXING = "Indexing"  # an import's progress once a file's papers are committed: too late to cancel that file


class StoreError(Exception):
    """A database problem a user can act on (the message says what and where)."""


class StoreBusy(StoreError):
    """Another writer (an import, in this process or another) holds the library longer than the write would
    wait: nothing was changed, and the same write succeeds once the other ends."""


class ImportFailure(Exception):
    """A file that cannot be imported; the message names the file, the line where known, and the problem."""

    def __init__(self, path: Path | str, problem: str, line: int | None = None):
        self.path = Path(path)
        self.problem = problem
        self.line = line
        where = f"{self.path.name}, line {line}" if line else self.path.name
        super().__init__(f"{where}: {problem}")

    def __reduce__(self) -> tuple[type, tuple[Path, str, int | None]]:  # sent back from an import's child
        return (type(self), (self.path, self.problem, self.line))


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


NOTHING_TO_LEARN = "nothing to learn from yet: mark a few papers read/skipped or set interests first"


class NothingToLearn(ValueError):
    """No marks and no interests: the ranking would be the library's order, so no suggestion is made."""

    def __init__(self, message: str = NOTHING_TO_LEARN):
        super().__init__(message)


class ImportCancelled(Exception):
    """The user cancelled an import; the file's changes were rolled back."""


class TopicsCancelled(Exception):
    """The user (or a newer import) cancelled a topic computation; the topics stored before are kept."""


class ExportError(OSError):
    """A file an export cannot or will not write (a folder, a device); the message names it and says why.
    An OSError, so that every caller that reports a failed write reports this one too."""

    def __init__(self, message: str):
        super().__init__(errno.EINVAL, message)

    def __str__(self) -> str:
        return str(self.strerror)
