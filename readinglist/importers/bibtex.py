"""BibTeX through bibtexparser 2, read as a stream of entries.

bibtexparser 2 splits blocks and recovers from broken ones, but leaves `#` concatenation and bare macros
unresolved and silently keeps an undefined macro's name as its value. Resolution is done here so that
`Abramson_D #and# {…}` works, and an undefined macro is kept as its name with a warning naming the macros
and the lines, as BibTeX itself warns and goes on.
Every expansion is bounded: a value (field or macro) by the field limit, all macros of an import together
by the macro limit, so doubling macros end the import at once instead of asking for all memory.

The file is cut into blocks at each line that starts an entry (`@type{`), and the blocks are parsed a chunk
at a time, so memory is bounded by a chunk and no broken entry can swallow the next. An entry bibtexparser
rejects is read again here: first by BibTeX's own brace rule (a backslash does not escape a brace, so
`H\\{o}gsgaard` balances as BibTeX says it does), then line by line (a field per `name =` line) when a
brace is left open; either way it is imported with a warning naming the file, the line and the key. A
repeated field keeps its first value, as BibTeX does, with a warning.

Before the entries are read, one pass collects what an entry may refer to anywhere in the file: @string
macros (defined in order, as BibTeX reads them), the @proceedings entry that gives a volume's venue and year
(and, in a file it opens, its fields to the papers, as a crossref would), and crossref targets (which BibTeX
wants after the entries that cite them).

Over 400 lines: splitting, macro resolution, recovery of rejected entries and the two passes are one reading
of BibTeX's rules, and each depends on how the others cut and number the text.
"""

from __future__ import annotations

import bisect
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import bibtexparser
from bibtexparser.model import (
    DuplicateBlockKeyBlock,
    DuplicateFieldKeyBlock,
    Entry,
    ParsingFailedBlock,
    String,
)

from readinglist import biblio
from readinglist.importers.base import (
    MAX_WARNINGS,
    NOT_A_PAPER,
    ImportContext,
    Record,
    Skip,
    Warnings,
    bib_fields,
    clean_abstract,
    parse_year,
    priority_from_text,
    snippet,
    split_tags,
    state_from_text,
    why_no_text,
)
from readinglist.importers.limits import Limits
from readinglist.importers.reader import TextReader
from readinglist.latex import plain_from_bibtex
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
CHUNK_CHARS = 256 * 1024  # text handed to bibtexparser at a time
CONTAINERS = {"proceedings", "mvproceedings", "book", "mvbook", "collection", "mvcollection", "reference"}
# what an entry takes from the volume its crossref names, as bibtex and biber do: any field it lacks, the
# volume's title (and subtitle) as its booktitle; not what is the paper's own (pages, chapter, DOI, eprint): a
# volume's DOI on its papers would cite the volume, and make them one paper to the matching
PARENT_FIELDS = (
    "booktitle", "booksubtitle", "title", "subtitle", "journal", "journaltitle", "journalsubtitle", "year", "date",
    "month", "editor", "volume", "number", "issue", "publisher", "address", "location", "edition", "series",
    "institution", "school", "organization", "howpublished", "isbn", "issn",
)  # fmt: skip
PROCEEDINGS_FIELDS = ("shortname", *PARENT_FIELDS)
PROCEEDINGS_PAPERS = frozenset(("inproceedings", "conference", "paper"))  # the entries a @proceedings holds
MAX_VOLUMES = 20_000  # volumes kept for the other files of an import to cite (IRIDIA's crossref.bib: 327)

# where bibtexparser starts a block when it recovers: `@type{` or `@type(` at the start of a line
_ENTRY_LINE = re.compile(r"[ \t\f\v]*@\w*[ \t]*[{(]")


class UndefinedMacro(Exception):
    pass


class TooLong(Exception):
    pass


class NotAValue(Exception):
    """Neither braced, quoted, a number nor a macro name: a brace or quote is missing."""


_MACRO_NAME = re.compile(r"[^\s\"#%'(),={}]+")  # what BibTeX accepts as an identifier


def _split_concat(value: str) -> list[str]:
    """Split a raw field value on top-level `#`."""
    parts, depth, quoted, start = [], 0, False, 0
    for m in _CONCAT_MARKS.finditer(value):
        ch = m.group()
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == '"' and depth == 0:
            quoted = not quoted
        elif ch == "#" and depth == 0 and not quoted:
            parts.append(value[start : m.start()])
            start = m.end()
    parts.append(value[start:])
    return [p.strip() for p in parts]


_CONCAT_MARKS = re.compile(r'[{}"#]')


def resolve(value: str, strings: dict[str, str], limit: int | None = None, undefined: list[str] | None = None) -> str:
    """A raw value (`{x}`, `"x"`, `123`, `macro`, or `a # b`) to its text; TooLong past `limit` characters,
    raised before the long text is built. A macro no @string defines raises UndefinedMacro, or with
    `undefined` is kept as its name and added there (BibTeX warns and goes on; JabRef and Zotero keep it)."""
    out = []
    total = 0
    for part in _split_concat(value.strip()):
        if not part:
            continue
        if (part[0] == "{" and part[-1] == "}") or (part[0] == '"' and part[-1] == '"' and len(part) > 1):
            text = part[1:-1]
        elif part.isdigit():
            text = part
        elif part.lower() in strings:
            text = strings[part.lower()]
        elif part.lower()[:3] in MONTHS and len(part) <= 9 and part.isalpha():
            text = MONTHS[part.lower()[:3]]
        elif _MACRO_NAME.fullmatch(part):
            if undefined is None:
                raise UndefinedMacro(part)
            undefined.append(part)
            text = part
        else:
            raise NotAValue(part)
        total += len(text)
        if limit is not None and total > limit:
            raise TooLong(total)
        out.append(text)
    return "".join(out)


_NAME_MARKS = re.compile(r"[{}]|\s+and\s+", re.I)


def split_names(text: str) -> list[str]:
    """`Last, First and Other, A.` → ["First Last", "A. Other"], splitting only on top-level "and". Quote marks
    around the whole list (`{"Gast, Nicolas and Narasimha, Dheeraj"}`, in a PMLR file) are not part of it."""
    text = text.strip()
    if len(text) > 1 and text[0] == text[-1] == '"' and '"' not in text[1:-1]:
        text = text[1:-1]
    names, depth, start = [], 0, 0
    for m in _NAME_MARKS.finditer(text):
        token = m.group()
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
        elif depth == 0:
            names.append(text[start : m.start()])
            start = m.end()
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
    for m in re.finditer(r"[{},]", name):
        ch = m.group()
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(name[start : m.start()].strip())
            start = m.end()
    parts.append(name[start:].strip())
    return [p for p in parts if p]


# ---- blocks and chunks ---------------------------------------------------------------------------------


@dataclass
class _Entry:
    type: str
    key: str
    line: int
    fields: list[tuple[str, str, int, str]]  # name (lower case), raw value, line, name as written; first kept
    repeated: list[str] = field(default_factory=list)
    recovered: str = ""  # how a rejected entry was read, for the warning


@dataclass
class _Macro:
    key: str
    value: str
    line: int


@dataclass
class _Unreadable:
    line: int


_Item = _Entry | _Macro | _Unreadable


def _blocks(path: Path, reader: TextReader, limits: Limits) -> Iterator[tuple[int, str]]:
    """(first line, text) from each line that starts an entry to the next one, within the record limit."""
    lines: list[str] = []
    size = 0
    start = 1
    for n, line in reader.lines():
        if _ENTRY_LINE.match(line):
            if lines:
                yield start, "\n".join(lines)
            lines, size, start = [line], len(line), n
            continue
        lines.append(line)
        size += len(line) + 1
        if size > limits.record_chars:
            what = (
                "the entry starting on this line" if _ENTRY_LINE.match(lines[0]) else "the text before the first entry"
            )
            raise ImportFailure(path, f"{what} is longer than the limit of {limits.record_chars:,} characters", start)
    if lines:
        yield start, "\n".join(lines)


def _chunks(blocks: Iterator[tuple[int, str]]) -> Iterator[list[tuple[int, str]]]:
    chunk: list[tuple[int, str]] = []
    size = 0
    for block in blocks:
        chunk.append(block)
        size += len(block[1])
        if size >= CHUNK_CHARS:
            yield chunk
            chunk, size = [], 0
    if chunk:
        yield chunk


def _items(path: Path, reader: TextReader, limits: Limits) -> Iterator[_Item]:
    """Macros and entries in file order; an entry bibtexparser rejects is recovered here if it can be."""
    for chunk in _chunks(_blocks(path, reader, limits)):
        try:
            lib = bibtexparser.parse_string("\n".join(text for _, text in chunk), parse_stack=[])
        except Exception:  # bibtexparser gave up on the chunk (it says: report it); take its blocks one by one
            for block in chunk:
                yield from _block_items([block])
            continue
        yield from _library_items(lib, chunk)


def _block_items(chunk: list[tuple[int, str]]) -> Iterator[_Item]:
    try:
        lib = bibtexparser.parse_string(chunk[0][1], parse_stack=[])
    except Exception:
        recovered = _salvage(chunk[0][1], chunk[0][0])
        yield recovered if recovered is not None else _Unreadable(chunk[0][0])
        return
    yield from _library_items(lib, chunk)


def _library_items(lib: bibtexparser.Library, chunk: list[tuple[int, str]]) -> Iterator[_Item]:
    base = chunk[0][0]
    starts = []  # each block's first line within the chunk's text
    offset = 0
    for _, text in chunk:
        starts.append(offset)
        offset += text.count("\n") + 1
    for block in lib.blocks:
        line = base + (block.start_line or 0)
        if isinstance(block, String):
            yield _Macro(block.key, block.value, line)
        elif isinstance(block, Entry):
            yield _entry(block, base)
        elif isinstance(block, (DuplicateFieldKeyBlock, DuplicateBlockKeyBlock)):
            if isinstance(block.ignore_error_block, Entry):
                yield _entry(block.ignore_error_block, base)
        elif isinstance(block, ParsingFailedBlock):
            rel = block.start_line or 0
            i = bisect.bisect_right(starts, rel) - 1
            first, text = chunk[i]
            lines = text.split("\n")[rel - starts[i] :]  # from the failed block's line to the end of ours
            recovered = _salvage("\n".join(lines), first + rel - starts[i])
            yield recovered if recovered is not None else _Unreadable(line)


def _entry(block: Entry, base: int) -> _Entry:
    entry = _Entry(block.entry_type, block.key, base + (block.start_line or 0), [])
    seen = set()
    for fld in block.fields:
        name = fld.key.lower()
        if name in seen:
            entry.repeated.append(fld.key)
            continue
        seen.add(name)
        entry.fields.append((name, fld.value, base + (fld.start_line or block.start_line or 0), fld.key))
    return entry


# ---- recovery of an entry bibtexparser rejects ----------------------------------------------------------

_HEAD = re.compile(r"\s*@\s*(\w+)\s*([{(])\s*([^,\s{}()\"#=]*)\s*,?")
_FIELD_START = re.compile(r"[\s,]*([A-Za-z_][\w\-:.+/]*)\s*=\s*")
_FIELD_LINE = re.compile(r"^[ \t]*([A-Za-z_][\w\-:.+/]*)[ \t]*=[ \t]*", re.M)
_BARE = re.compile(r"[^\s,#{}()\"=]+")
_WS = re.compile(r"\s*")
_BRACES = re.compile(r"[{}]")
_QUOTE_MARKS = re.compile(r'[{}"]')


def _close_brace(text: str, pos: int) -> int:
    """The index after the `}` closing the `{` at pos, counting braces as BibTeX does (a backslash escapes
    nothing); -1 when it does not close."""
    depth = 0
    for m in _BRACES.finditer(text, pos):
        depth += 1 if m.group() == "{" else -1
        if depth == 0:
            return m.end()
    return -1


def _close_quote(text: str, pos: int) -> int:
    depth = 0
    for m in _QUOTE_MARKS.finditer(text, pos + 1):
        ch = m.group()
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0:
            return m.end()
    return -1


def _balanced(value: str) -> bool:
    depth = 0
    for m in _BRACES.finditer(value):
        depth += 1 if m.group() == "{" else -1
        if depth < 0:
            return False
    return depth == 0


def _strict(text: str, pos: int, close: str) -> list[tuple[str, str, int]] | None:
    """Fields by BibTeX's rules, or None when the entry does not close where it should."""
    fields: list[tuple[str, str, int]] = []
    n = len(text)
    while True:
        pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
        while pos < n and text[pos] == ",":
            pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
        if pos >= n:
            return None
        if text[pos] == close:
            return fields
        fm = _FIELD_START.match(text, pos)
        if not fm:
            return None
        start = pos = fm.end()
        while True:
            if pos >= n:
                return None
            if text[pos] == "{":
                pos = _close_brace(text, pos)
            elif text[pos] == '"':
                pos = _close_quote(text, pos)
            else:
                bare = _BARE.match(text, pos)
                pos = bare.end() if bare else -1
            if pos < 0:
                return None
            pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
            if pos < n and text[pos] == "#":
                pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
                continue
            break
        fields.append((fm.group(1), text[start:pos].strip(), start))
        if pos < n and text[pos] not in ("," + close):
            return None


def _by_lines(text: str, pos: int, close: str) -> list[tuple[str, str, int]]:
    """Fields one per `name =` line, each value running to the next such line: how a person reads an
    entry whose braces do not balance."""
    starts = [m for m in _FIELD_LINE.finditer(text, pos)]
    first = _FIELD_START.match(text, pos)
    if first and (not starts or first.start(1) < starts[0].start(1)):
        starts.insert(0, first)
    fields = []
    for k, m in enumerate(starts):
        end = starts[k + 1].start() if k + 1 < len(starts) else len(text)
        value = text[m.end() : end].rstrip()
        if k + 1 == len(starts) and value.endswith(close):
            value = value[:-1].rstrip()
        value = value.removesuffix(",").rstrip()
        if value.startswith("{") and not _balanced(value):
            inner = value[1:-1] if value.endswith("}") else value[1:]
            value = "{" + inner + "}"
        elif value.startswith('"') and (len(value) < 2 or not value.endswith('"')):
            value = '"' + value[1:] + '"'
        fields.append((m.group(1), value, m.end()))
    return fields


def _salvage(text: str, first_line: int) -> _Entry | None:
    """An entry bibtexparser rejected, read by BibTeX's brace rule, else line by line; None if it is not
    an entry at all."""
    head = _HEAD.match(text)
    if not head or head.group(1).lower() in ("comment", "preamble", "string"):
        return None
    close = "}" if head.group(2) == "{" else ")"
    fields = _strict(text, head.end(), close)
    if fields is not None:
        odd = [name for name, value, _ in fields if "\\{" in value or "\\}" in value]
        how = "not standard BibTeX; read as BibTeX itself reads it"
        if odd:  # (bibtexparser takes \{ as a brace escaped, which BibTeX does not: it left the entry open)
            how = (
                f"field '{snippet(odd[0])}' has a \\{{ or \\}}, which BibTeX counts as a brace; read as BibTeX reads it"
            )
    else:
        fields = _by_lines(text, head.end(), close)
        odd = [name for name, value, _ in fields if not _balanced(value)]
        where = f" in field '{snippet(odd[0])}'" if odd else ""
        how = f"unbalanced brace{where}; read up to the next entry, one field per 'name =' line"
    if not fields:
        return None
    entry = _Entry(head.group(1), head.group(3), first_line, [], recovered=how)
    seen = set()
    for name, value, offset in fields:
        if name.lower() in seen:
            entry.repeated.append(name)
            continue
        seen.add(name.lower())
        entry.fields.append((name.lower(), value, first_line + text.count("\n", 0, offset), name))
    return entry


UNREADABLE = "the entry could not be parsed (unbalanced braces or quotes?)"  # why an _Unreadable is skipped


# ---- the file --------------------------------------------------------------------------------------------


def _volume_key(title: str) -> str:
    """A volume's title as two entries naming it may differ (case, braces, spaces)."""
    return " ".join(title_plain(title).casefold().split())


@dataclass
class _Directory:
    """What entries may refer to anywhere in the file."""

    parents: dict[str, _Entry] = field(default_factory=dict)  # the volumes its entries cite, read when first cited
    cited: set[str] = field(default_factory=set)  # keys crossrefs name, in this file or another of the import
    proceedings: _Entry | None = None  # its one @proceedings, read at the first read of its entries
    opens: bool = False  # … which opens the file
    # a file's one @proceedings (PMLR's): the venue and year of its papers that name no venue of their own
    default_venue: str = ""
    default_year: int | None = None
    volume_titles: frozenset[str] = frozenset()  # its booktitle and title: an entry naming it is in it
    volume_file: bool = False  # it opens the file: the file is that volume's, its papers naming no venue in it
    volume: dict[str, str] = field(default_factory=dict)  # … whose fields those papers take, as from a crossref


class BibFile:
    """One .bib file: the directory pass once, then the entries as often as the import reads them."""

    def __init__(self, path: Path, context: ImportContext):
        self.path = path
        self.context = context
        self.limits = context.limits
        self.directory: _Directory | None = None
        self.macros = 0  # the @string macros this file defines
        self.undefined: dict[str, tuple[str, int]] = {}  # macros used that no file defines: name, first line
        self._volumes: dict[str, dict[str, str]] = {}  # the volumes' fields read (see _volume)

    # ---- values ----

    def _value(self, raw: str, what: str, line: int, strings: dict[str, str] | None = None) -> str:
        limit = self.limits.field_chars
        undefined: list[str] = []
        try:
            value = resolve(raw, self.context.bib_strings if strings is None else strings, limit, undefined)
        except NotAValue as exc:
            raise ImportFailure(
                self.path,
                f"{what} is not in braces or quotes (it reads “{snippet(str(exc))}”); is a brace or quote missing?",
                line,
            ) from None
        except TooLong:
            raise ImportFailure(
                self.path, f"{what} expands to more than {limit:,} characters (the limit for one value)", line
            ) from None
        for name in undefined:
            if len(self.undefined) < MAX_WARNINGS:
                self.undefined.setdefault(name.lower(), (name, line))
        return value

    def _fields(self, entry: _Entry, names: tuple[str, ...] | None = None) -> dict[str, str]:
        return {
            name: self._value(raw, f"field '{snippet(written)}' of entry '{snippet(entry.key)}'", line)
            for name, raw, line, written in entry.fields
            if names is None or name in names
        }

    # ---- the directory pass ----

    def scan(self, reader: TextReader) -> None:
        """Macros, @proceedings and crossref targets (see the module's docstring)."""
        if self.directory is not None:
            return
        directory = _Directory()
        strings = self.context.bib_strings
        limits = self.limits
        referenced: set[str] = set()
        parents: dict[str, _Entry] = {}
        proceedings: list[_Entry] = []  # the first two: only one gives its venue and year to the file
        opens, entries = False, 0  # does a @proceedings open the file (a volume's own file: PMLR's)?
        seen = 0
        context = self.context
        self.macros = 0
        for item in _items(self.path, reader, limits):
            seen += 1
            if isinstance(item, _Macro):
                self.macros += 1
                value = self._value(item.value, f"@string{{{snippet(item.key)}}}", item.line)
                self.context.macro_chars += len(value)
                if self.context.macro_chars > limits.macro_chars:
                    raise ImportFailure(
                        self.path,
                        f"the @string macros expand to more than {limits.macro_chars:,} characters in all (the limit)",
                        item.line,
                    )
                strings[item.key.lower()] = value
            elif isinstance(item, _Entry):
                kind = item.type.lower()
                crossref = next((raw for name, raw, *_ in item.fields if name == "crossref"), None)
                if crossref is not None:
                    referenced.add(crossref.strip().strip('{}"').strip().lower())
                if kind == "proceedings" and len(proceedings) < 2:
                    proceedings.append(item)
                    opens = opens or entries == 0
                entries += 1
                if item.key and (kind in CONTAINERS or item.key.lower() in referenced):
                    parents.setdefault(item.key.lower(), item)
        if not seen:
            raise ImportFailure(self.path, "contains no BibTeX entries")
        # the volumes' fields are read when an entry first cites them, after every file of the import is scanned:
        # a macro they use may come from a file after this one (crossref.bib before abbrev.bib)
        directory.parents = {k: e for k, e in parents.items() if k in referenced}
        for k, e in parents.items():  # a volume another file of the import may cite (bounded: a few per file)
            if e.type.lower() in CONTAINERS and len(context.bib_volumes) < MAX_VOLUMES:
                context.bib_volumes.setdefault(k, (self, e))
        context.bib_cited |= referenced
        directory.cited = context.bib_cited
        if len(proceedings) == 1:
            directory.proceedings, directory.opens = proceedings[0], opens
        self.directory = directory

    def _volume(self, key: str) -> dict[str, str]:
        """The fields of the volume `key` names (this file's, else another's of the import), read once."""
        found = self._volumes.get(key)
        if found is None:
            entry = self.directory.parents.get(key) if self.directory is not None else None
            owner: BibFile = self
            if entry is None and key in self.context.bib_volumes:
                owner, entry = cast("tuple[BibFile, _Entry]", self.context.bib_volumes[key])
            found = owner._fields(entry, PARENT_FIELDS) if entry is not None else {}
            self._volumes[key] = found
        return found

    def _read_proceedings(self, directory: _Directory) -> None:
        """The file's one @proceedings: the venue and year of the papers in that volume (see _record)."""
        if directory.proceedings is None:
            return
        p = self._fields(directory.proceedings, PROCEEDINGS_FIELDS)
        directory.default_venue = title_plain(p.get("shortname") or p.get("booktitle") or p.get("title") or "")
        directory.default_year = parse_year(p.get("year"))
        directory.volume_titles = frozenset(_volume_key(p[k]) for k in ("booktitle", "title") if p.get(k))
        directory.volume_file = directory.opens
        if directory.opens:
            directory.volume = {k: v for k, v in p.items() if k in PARENT_FIELDS}
        directory.proceedings = None

    # ---- the entries ----

    def read(self, reader: TextReader, warnings: Warnings) -> Iterator[tuple[int, Record | Skip]]:
        assert self.directory is not None, "scan() first"
        directory = self.directory
        self._read_proceedings(directory)
        unreadable: list[int] = []
        name = self.path.name
        for item in _items(self.path, reader, self.limits):
            if isinstance(item, _Unreadable):
                unreadable.append(item.line)
                yield item.line, Skip(f"line {item.line}", UNREADABLE)
                continue
            if not isinstance(item, _Entry):
                continue
            if item.recovered:
                warnings.add(f"{name}, line {item.line}: entry '{snippet(item.key)}': {item.recovered}")
            if item.repeated:
                fields = ", ".join(f"'{snippet(f)}'" for f in dict.fromkeys(item.repeated))
                key = snippet(item.key)
                warnings.add(f"{name}, line {item.line}: entry '{key}' repeats {fields}; the first value is kept")
            yield item.line, self._record(item, directory, warnings)
        if unreadable:
            shown = ", ".join(map(str, unreadable[:10])) + (" …" if len(unreadable) > 10 else "")
            warnings.add(f"{name}: {len(unreadable)} entries could not be read (lines {shown})")
        if self.undefined:
            used = sorted(self.undefined.values(), key=lambda u: u[1])  # by line: as a reader meets them
            count = f"{len(used)}" if len(used) < MAX_WARNINGS else f"{len(used)} or more"
            shown = ", ".join(f"'{snippet(macro)}' (line {at})" for macro, at in used[:5]) + (
                " …" if len(used) > 5 else ""
            )
            warnings.add(
                f"{name}: {count} {'macro is' if len(used) == 1 else 'macros are'} used but defined in no file of "
                f"this import, kept as {'its name' if len(used) == 1 else 'their names'}: {shown}; import the file "
                "that defines them together with this one"
            )

    def _record(self, entry: _Entry, directory: _Directory, warnings: Warnings) -> Record | Skip:
        fields = self._fields(entry)
        kind, key = entry.type.lower(), entry.key.strip().lower()
        if not fields.get("abstract") and (
            kind in {"proceedings", "mvproceedings", "set", "xdata"} or (kind in CONTAINERS and key in directory.cited)
        ):
            return NOT_A_PAPER  # a volume, not a paper: the entries citing it take its title as their venue
        cited = fields.get("crossref", "").strip().lower()
        parent = self._volume(cited) if cited else {}
        title = with_subtitle(fields.get("title", ""), fields.get("subtitle", ""))
        abstract = clean_abstract(fields.get("abstract", ""))
        if not title and not abstract:
            where = f"entry {snippet(entry.key) or '(no key)'} (line {entry.line})"
            return Skip(where, why_no_text(None, fields.get("abstract")))
        own = (  # the venue it names (its volume's title, without a subtitle: a @proceedings names it so)
            fields.get("journal")
            or fields.get("journaltitle")
            or fields.get("booktitle")
            or parent.get("journal")
            or parent.get("journaltitle")
            or parent.get("booktitle")
            or parent.get("title")
            or ""
        )
        # the file's @proceedings is the venue of the papers that name that volume (its short name then) and, in
        # a file it opens (PMLR's), of those that name none and cite no other; never of a book or an article,
        # nor of a paper citing another volume, beside it in a personal file
        in_volume = bool(directory.default_venue) and (
            (own and _volume_key(own) in directory.volume_titles)
            or (not own and not cited and kind in PROCEEDINGS_PAPERS and directory.volume_file)
        )
        if in_volume and not own:  # PMLR's papers name their volume by being in its file, as by a crossref
            parent = directory.volume
        journal, book = _containers(fields, parent)
        venue = directory.default_venue if in_volume else journal or book
        year = (
            parse_year(fields.get("year"))
            or parse_year(fields.get("date"))
            or parse_year(parent.get("year"))
            or parse_year(parent.get("date"))
            or (directory.default_year if in_volume else None)
        )
        url = url_of(fields.get("url", ""))
        if not url and fields.get("doi"):
            url = biblio.doi_url(fields["doi"])
        # Scholar's "arXiv preprint arXiv:1412.6980": the venue is arXiv (the table's column, its filter, and a
        # match with the same preprint from arXiv's own file), the journal stays as written (an APA citation
        # names the preprint so, and the BibTeX written back is Scholar's), and the identifier is the eprint
        # and the link the entry did not give
        arxiv = biblio.arxiv_of_journal(title_plain(journal)) if not in_volume else ""
        if arxiv:
            venue = "arXiv"
            url = url or biblio.arxiv_url(arxiv)
        tags, keywords = _tags_and_keywords(fields)
        bib = _bib(
            entry,
            fields,
            parent,
            (journal, book),
            warnings,
            f"{self.path.name}, line {entry.line}: entry '{snippet(entry.key)}'",
        )
        if arxiv and not bib.get("eprint"):
            bib.update(eprint=arxiv, eprinttype="arXiv")
        state, state_field = state_from_text(fields.get("readstatus", "")), "readstatus"
        if not state:  # Papers3's and BibDesk's `read = {Yes}`
            state, state_field = _read_flag(fields.get("read", "")), "read"
        return Record(
            title=title,
            abstract=abstract,
            authors=split_names(fields.get("author", "") or fields.get("editor", "")),
            year=year,
            venue=title_plain(venue),
            url=url if url.startswith("http") else "",
            key=entry.key,
            tags=tags,
            keywords=keywords,
            note=plain_from_bibtex(fields["annote"]).strip("\n") if fields.get("annote") else "",
            state=state,
            state_from=f"{state_field} field" if state else "",
            priority=priority_from_text(fields.get("priority", "")),
            citation_key=entry.key.strip(),
            bib=bib,
        )


_AND_OTHERS = re.compile(r"\sand\s+others\s*$", re.IGNORECASE)  # BibTeX's "the list goes on"
_DATE_MONTH = re.compile(r"\s*\d{4}-(\d{2})")


def url_of(value: str) -> str:
    r"""A url field's URL. biblatex and the url package read the field verbatim, and readinglist writes it so
    (`%` and `#` as they are: biber would link to …\%20… were they escaped), but some files escape what LaTeX
    finds special (JabRef's `…/abs07.html\#talk9`): biblio.url_unescaped."""
    return biblio.url_unescaped(value)


def with_subtitle(title: str, subtitle: str) -> str:
    """biblatex's title and subtitle as one title, "The Cast of Character: Style in Greek Literature": as a
    reader cites it (APA, Chicago, Zotero, library catalogues; biblatex's standard styles put a period), and as
    a format without a subtitle (every other) keeps it. No colon after a title's own ? ! . or : ("Why? A …"),
    nor the subtitle again after a title that ends with it (a file that wrote the whole title in both)."""
    title, subtitle = " ".join(title.split()), " ".join(subtitle.split())
    if not subtitle or not title:
        return title or subtitle
    plain = title_plain(title)
    if plain.casefold().endswith(title_plain(subtitle).casefold()):
        return title
    return f"{title}{' ' if plain[-1:] in ('?', '!', '.', ':') else ': '}{subtitle}"


def _containers(fields: dict[str, str], parent: dict[str, str]) -> tuple[str, str]:
    """(journal, book title) of an entry, each with its subtitle: its own, else its crossref'd volume's, whose
    title is the book's when it gives no booktitle (biber's title → booktitle, subtitle → booksubtitle)."""

    def journal(f: dict[str, str]) -> str:
        return with_subtitle(f.get("journal") or f.get("journaltitle") or "", f.get("journalsubtitle", ""))

    def book(f: dict[str, str]) -> str:
        return with_subtitle(f.get("booktitle", ""), f.get("booksubtitle", ""))

    if journal(fields) or book(fields):
        return journal(fields), book(fields)
    own_title = with_subtitle(parent.get("title", ""), parent.get("subtitle", ""))
    return journal(parent), book(parent) or ("" if journal(parent) else own_title)


def _bib(
    entry: _Entry,
    fields: dict[str, str],
    parent: dict[str, str],
    containers: tuple[str, str],
    warnings: Warnings,
    where: str,
) -> dict[str, str]:
    """The entry's bibliographic record (readinglist.biblio): its type, where it appeared (`containers`: journal
    and book title, see _containers), and the fields a citation needs, decoded as titles are; a field it lacks
    its crossref'd volume's (`parent`), as bibtex and biber take it."""

    def get(*names: str) -> str:  # the entry's own under any of its names before the volume's
        return next((v for f in (fields, parent) for n in names if (v := f.get(n))), "")

    editor = get("editor")
    dates = [_DATE_MONTH.match(f.get("date", "")) for f in (fields, parent)]
    months = [fields.get("month"), dates[0] and dates[0].group(1), parent.get("month"), dates[1] and dates[1].group(1)]
    raw: dict[str, object] = {
        "type": biblio.bibtex_type(entry.type),
        "journal": containers[0],
        "booktitle": containers[1],
        "editor": "; ".join(split_names(editor)) if editor and len(editor) <= biblio.MAX_VALUE_CHARS else editor,
        "volume": get("volume"),
        "number": get("number", "issue"),
        "pages": get("pages"),
        "month": next((m for m in months if m), ""),
        "publisher": get("publisher"),
        "address": get("address", "location"),
        "edition": get("edition"),
        "series": get("series"),
        "chapter": get("chapter"),
        "institution": get("institution"),
        "school": get("school"),
        "organization": get("organization"),
        "howpublished": get("howpublished"),
        "isbn": get("isbn"),
        "issn": get("issn"),
        # an entry without one whose url is a DOI's link has that DOI, as JabRef's DOI cleanup reads it
        "doi": get("doi") or biblio.doi_of_url(url_of(fields.get("url", ""))),
        "eprint": get("eprint"),
        "eprinttype": get("eprinttype", "archiveprefix"),
        "eprintclass": get("eprintclass", "primaryclass"),
        "moreauthors": "yes" if _AND_OTHERS.search(fields.get("author", "") or fields.get("editor", "")) else "",
    }
    return bib_fields(raw, warnings, where, title_plain)


def _tags_and_keywords(fields: dict[str, str]) -> tuple[list[str], list[str]]:
    """The reader's own tags (Mendeley's `mendeley-tags`; `readinglist-tags`, which the app's export writes
    beside `keywords`, that has every tag) and the file's keywords, the rest of `keywords`. A BibTeX
    file's keywords are imported keywords: authors' (IEEE's, ACM's) as often as a reader's."""

    def read(name: str) -> list[str]:
        if not fields.get(name):
            return []
        return split_tags([k for item in _list_items(fields[name]) for k in _keywords_of(item)])

    tags = read("readinglist-tags") + read("mendeley-tags")
    own = {t.casefold() for t in tags}
    return tags, [k for k in read("keywords") if k.casefold() not in own]


def _list_items(raw: str) -> list[str]:
    """A keywords list's items: the text split at commas and semicolons outside braces, as BibTeX groups a
    name ("{Optimization, convex}, Learning" is two keywords, as the app's export writes one with a comma)."""
    items: list[str] = []
    depth, start, escaped = 0, 0, False
    for i, c in enumerate(raw):
        if escaped:
            escaped = False
        elif c == "\\":
            escaped = True  # (an escaped brace groups nothing)
        elif c == "{":
            depth += 1
        elif c == "}":
            depth = max(depth - 1, 0)
        elif c in ",;" and depth == 0:
            items.append(raw[start:i])
            start = i + 1
    return [*items, raw[start:]]


def _keywords_of(item: str) -> list[str]:
    """The keywords of one item of a list: the item itself when one brace group is all of it ("{Optimization,
    convex}"), else its text split at every comma and semicolon, as before braces grouped: tools brace
    capitals for their case across the separator ("Ant colony {optimization,Car-sequencing} problem", two)."""
    text = item.strip()
    if text.startswith("{") and _close_brace(text, 0) == len(text):
        return [title_plain(text)]
    return re.split(r"[;,]", title_plain(text))


def _read_flag(value: str) -> str:
    """Papers (Papers3) and BibDesk mark a paper read with `read = {Yes}` (or 1, true): read, else ''."""
    return "read" if value.strip().lower() in ("yes", "true", "1") else ""
