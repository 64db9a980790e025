"""JSON Lines and JSON (an array of paper objects, an object holding one, or one paper); every key is
optional. Both are read as streams: a line, or an array's element, at a time."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from readinglist import biblio
from readinglist.importers.base import (
    MORE_AUTHORS,
    Record,
    Skip,
    Warnings,
    bib_fields,
    clean_abstract,
    json_kind,
    not_a_name,
    parse_year,
    plain_keywords,
    priority_from_text,
    split_authors,
    split_tags,
    state_from_text,
    venue_year_from_name,
    why_no_text,
)
from readinglist.importers.limits import Limits
from readinglist.importers.reader import TextReader
from readinglist.markup import braces_as_text
from readinglist.papers import ImportFailure

_URL_KEYS = ("url", "URL", "link", "oa", "site", "pdf", "html_url")  # URL: CSL-JSON's
WRAPPER_KEYS = ("papers", "items", "records", "data")  # {"papers": [...]}: the list is the file's papers
# A parsed value as the streams give it: (line, number, unit, value), where "<unit> <number>" says where it is
# in a message ("record 2" in an array, "line 7" in JSON Lines); the number also makes a key-less record's key.
_Object = tuple[int, int, str, Any]


def to_record(
    obj: dict[str, Any],
    n: int,
    default_venue: str,
    default_year: int | None,
    warnings: Warnings | None = None,
    where: str = "",
) -> Record | None:
    get = obj.get
    title = get("title") if get("title_derived") is not True else ""  # the app's export: derived again here
    title = " ".join(str(title).split()) if title else ""
    if "ENTRYTYPE" not in obj:  # plain text ("{001}"), but for BibTeX's entries as JSON (bibtexparser's)
        title = braces_as_text(title)
    abstract = clean_abstract(get("abstract"))
    authors = get("authors") if "authors" in obj else get("author")
    cut_short = _cut_short(authors)
    if cut_short and isinstance(authors, list):
        authors = authors[:-1]
    names = split_authors(_csl_names(authors)) if authors is not None else []
    abstract = not_a_name(abstract, names)
    if not title and not abstract:
        return None
    url = ""
    for k in _URL_KEYS:
        value = get(k)
        if isinstance(value, str) and value.startswith("http"):
            url = value
            break
    tags, keywords = get("tags"), get("keywords") if "keywords" in obj else get("keyword")  # CSL-JSON's
    year = get("year")
    issued = _date_parts(get("issued"))
    bib = _bib(obj, issued, warnings or Warnings(), where or f"record {n}") if _BIB_KEYS.intersection(obj) else {}
    if cut_short and names:
        bib["moreauthors"] = "yes"
    venue = get("venue") or (bib.get("journal") or bib.get("booktitle") if "venue" not in obj else "")
    return Record(
        title=title,
        abstract=abstract,
        authors=names,
        year=(year if isinstance(year, int) and 1000 < year < 3000 else parse_year(year))
        or parse_year(issued[0] if issued else None)
        or default_year,
        venue=str(venue or default_venue or "").strip(),
        url=url or (biblio.doi_url(bib["doi"]) if bib.get("doi") else ""),
        key=str(get("id") or get("paper_id") or get("key") or f"r{n}"),
        tags=split_tags(tags) if tags is not None else [],
        keywords=plain_keywords(keywords, latex="ENTRYTYPE" in obj) if keywords is not None else [],
        bib=bib,
        **_annotations(obj),
    )


# the keys a bibliographic record may be in: the app's own export's "bib", CSL-JSON's (Zotero, pandoc,
# Crossref) and BibTeX's names, as JSON written from BibTeX (bibtexparser's ENTRYTYPE) has them
_BIB_KEYS = frozenset((
    "bib", "type", "ENTRYTYPE", "DOI", "doi", "container-title", "journal", "journaltitle", "booktitle", "volume",
    "issue", "number", "page", "pages", "publisher", "publisher-place", "address", "editor", "ISBN", "isbn",
    "ISSN", "issn", "edition", "collection-title", "series", "chapter-number", "institution", "school",
))  # fmt: skip
_CSL_NAMES = {  # CSL-JSON's (and Crossref's) names of the fields biblio keeps (container-title: see _bib)
    "DOI": "doi", "issue": "number", "page": "pages", "publisher-place": "address",
    "ISBN": "isbn", "ISSN": "issn", "collection-title": "series", "chapter-number": "chapter",
}  # fmt: skip


def _first_text(value: object) -> object:
    """Crossref's lists of one ("container-title": ["Physica C"], "ISSN": ["0921-4534", …]): the first."""
    if isinstance(value, list):
        return next((v for v in value if isinstance(v, str | int) and not isinstance(v, bool)), None)
    return value


def _csl_names(value: object) -> object:
    """CSL-JSON's names ({"family": "Maaten", "given": "Laurens", "non-dropping-particle": "van der"} or
    {"literal": "…"}) as the names people write; anything else as it is."""
    if not isinstance(value, list) or not any(isinstance(v, dict) for v in value):
        return value
    out = []
    for v in value:
        if isinstance(v, dict):
            parts = [v.get(k) for k in ("given", "dropping-particle", "non-dropping-particle", "family", "suffix")]
            name = " ".join(str(p) for p in parts if isinstance(p, str) and p.strip()) or v.get("literal")
            if isinstance(name, str) and name.strip():
                out.append(name)
        elif isinstance(v, str):
            out.append(v)
    return out


def _cut_short(authors: object) -> bool:
    """Whether an author list ends in the mark of one cut short: CSL-JSON's {"literal": "others"} (pandoc's
    of BibTeX's "and others", the export's), or a name "others" or "et al." in a list of names."""
    if not isinstance(authors, list) or not authors:
        return False
    last = authors[-1]
    if isinstance(last, dict):
        last = last.get("literal") if set(last) == {"literal"} else None
    return isinstance(last, str) and MORE_AUTHORS.fullmatch(last) is not None


def _date_parts(value: object) -> list[Any]:
    """CSL-JSON's date ({"date-parts": [[2017, 6]]}) as [year, month …]; [] when it is none."""
    if isinstance(value, dict):
        parts = value.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list):
            # each part in its place: [[2020, null, 15]] has no month, not month 15
            return [p if isinstance(p, int | str) and not isinstance(p, bool) else None for p in parts[0][:3]]
    return []


def _bib(obj: dict[str, Any], issued: list[Any], warnings: Warnings, where: str) -> dict[str, str]:
    """The record's bibliographic fields (readinglist.biblio): the app's own export's "bib", else CSL-JSON's or
    BibTeX's keys (a CSL type names the type, a container the journal of an article, else the book). Only for
    an object that is a bibliographic record (a type, a DOI or a container): a paper list's "number" is no issue."""
    own = obj.get("bib")
    if isinstance(own, dict):
        return bib_fields(dict(own), warnings, where)
    kind = biblio.type_from_name(obj.get("type")) or biblio.type_from_name(obj.get("ENTRYTYPE"))
    if not kind and not any(k in obj for k in ("DOI", "doi", "container-title", "journal", "booktitle")):
        return {}
    raw: dict[str, object] = {name: _first_text(obj[name]) for name in biblio.FIELDS if name in obj}
    for name, ours in _CSL_NAMES.items():
        if name in obj and raw.get(ours) in (None, ""):
            raw[ours] = _first_text(obj[name])
    raw["type"] = kind
    container = _first_text(obj.get("container-title") or obj.get("journaltitle"))
    slot = "journal" if kind in ("article", "") else "booktitle"
    if container and not raw.get(slot):
        raw[slot] = container
    editor = _csl_names(obj.get("editor"))
    if isinstance(editor, list):
        raw["editor"] = "; ".join(str(e) for e in editor if isinstance(e, str))
    elif isinstance(editor, str):
        raw["editor"] = "; ".join(biblio.name_list(editor))
    if kind in ("phdthesis", "techreport") and raw.get("publisher"):  # CSL's publisher of a thesis, a report
        raw["school" if kind == "phdthesis" else "institution"] = raw.pop("publisher")
    if len(issued) > 1 and issued[1] is not None and not raw.get("month"):
        raw["month"] = str(issued[1])  # biblio.clean says a 13 is no month
    return bib_fields(raw, warnings, where)


def _annotations(obj: dict[str, Any]) -> dict[str, Any]:
    """What the app's own JSON export carries besides the paper (Paper.to_json): its id, citation key,
    state, priority and note; an object with all of id, state and citation_key is one of ours."""
    note = obj.get("note")
    own = all(k in obj for k in ("id", "state", "citation_key"))
    key = obj.get("citation_key") or obj.get("citation-key")
    state = state_from_text(obj.get("state"))
    return {
        "note": note.strip("\n") if isinstance(note, str) else "",
        "state": state,
        "state_from": "state field" if state else "",
        "priority": priority_from_text(obj.get("priority")),
        "citation_key": key.strip() if isinstance(key, str) else "",
        "uid": str(obj.get("id") or "") if own else "",
        "own": own,
    }


def too_deep(obj: object, limit: int) -> bool:
    """Is a parsed value nested deeper than `limit` arrays and objects? (Walked without recursion.)"""
    stack = [(obj, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return True
        items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        stack.extend((v, depth + 1) for v in items if isinstance(v, (dict, list)))
    return False


_SPACES = {"\t": "a tab", "\n": "a line break", "\r": "a carriage return", " ": "a space"}


def json_problem(exc: json.JSONDecodeError, column: bool = True) -> tuple[str, bool]:
    """What is wrong, in words, from the decoder's error, and whether the text ended first (cut off: a
    truncated file). The decoder's own message is a phrase whose position it appends ("Unterminated string
    starting at"), shown cut short before (a trial); `column`: say where in the line (JSON Lines: the text is
    one line)."""
    doc, pos, msg = exc.doc, exc.pos, exc.msg
    if msg.startswith("Unterminated string"):
        return "a string is not closed", True
    if pos >= len(doc.rstrip()):
        if msg.startswith("Expecting value"):
            return "a value is missing at its end", True
        return "an object or a list is not closed", True
    at = f" at column {exc.colno}" if column else ""
    c = doc[pos]
    found = f"'{c}'" if c.isprintable() and not c.isspace() else _SPACES.get(c, f"U+{ord(c):04X}")
    if msg.startswith("Expecting value"):
        if c in ",]}":
            return f"a value is missing before {found}{at}", False
        return f"expected a value{at}, found {found}", False
    if msg.startswith("Expecting property name"):
        if c == "}":
            return f"a comma before '}}'{at} is one too many", False
        if c == "'":
            return f"a key is in single quotes{at}; JSON wants double quotes", False
        return f"expected a key in double quotes{at}, found {found}", False
    if msg.startswith("Illegal trailing comma"):  # (Python 3.13)
        return f"a comma before the end of an object or a list{at} is one too many", False
    if msg.startswith("Expecting ':'"):
        return f"expected ':' after a key{at}, found {found}", False
    if msg.startswith("Expecting ','"):
        quote = "; is a '\"' inside a string not written \\\"?" if doc[pos - 1 : pos] == '"' else ""
        return f"expected ',' or a closing bracket{at}, found {found}{quote}", False
    if msg.startswith("Invalid control character"):
        return f"a string holds {found}{at}, which JSON writes as an escape (\\t, \\n)", False
    if msg.startswith("Invalid \\uXXXX"):
        return f"a string holds an invalid \\u escape{at}", False
    if msg.startswith("Invalid \\escape"):
        return f"a string holds an invalid escape{at} (a backslash is written \\\\)", False
    if msg.startswith("Unexpected UTF-8 BOM"):
        return f"a byte-order mark (U+FEFF){at} starts the record, as where two files were joined", False
    if msg.startswith("Extra data"):
        return f"more text after the record's end{at} (two records on one line?)", False
    return f"{msg.removesuffix(' starting at').removesuffix(' at')}{at}", False


def _value_error(exc: ValueError) -> str:
    text = str(exc)
    if "integer string conversion" in text:
        return f"a number has more than {sys.get_int_max_str_digits():,} digits"
    return text


def _depth_failure(path: Path, limits: Limits, line: int) -> ImportFailure:
    return ImportFailure(path, f"this record is nested more than {limits.depth} levels deep (the limit)", line)


def _records(
    path: Path, objects: Iterator[_Object], limits: Limits, warnings: Warnings
) -> Iterator[tuple[int, Record | Skip]]:
    """(line, record, or where and why for a skipped object) from the parsed values."""
    venue, year = venue_year_from_name(path)
    seen = False
    for line, n, unit, obj in objects:
        seen = True
        if not isinstance(obj, dict):
            raise ImportFailure(path, f"record {n} is {json_kind(obj)}, not an object (a paper's fields)", line)
        rec = to_record(obj, n, venue, year, warnings, f"{path.name}, {unit} {n}")
        yield line, rec if rec is not None else Skip(f"{unit} {n}", why_no_text(obj.get("title"), obj.get("abstract")))
    if not seen:
        raise ImportFailure(path, "is empty")


def read_lines(
    path: Path, reader: TextReader, limits: Limits, warnings: Warnings
) -> Iterator[tuple[int, Record | Skip]]:
    """JSON Lines: one object per line, blank lines ignored."""
    return _records(path, _json_lines(path, reader, limits), limits, warnings)


def _json_lines(path: Path, reader: TextReader, limits: Limits) -> Iterator[_Object]:
    loads = json.loads
    depth = limits.depth
    lines = reader.lines()
    for lineno, line in lines:
        if not line or line.isspace():
            continue
        try:
            obj = loads(line)
        except json.JSONDecodeError as exc:
            problem, cut = json_problem(exc)
            if not cut:
                raise ImportFailure(path, f"this line is not valid JSON: {problem}", lineno) from None
            hint = "; is the file truncated?" if _last(lines) else ""
            raise ImportFailure(path, f"the record is cut off ({problem}){hint}", lineno) from None
        except RecursionError:
            raise _depth_failure(path, limits, lineno) from None
        except ValueError as exc:  # an integer of more than 4,300 digits
            raise ImportFailure(path, f"invalid JSON Lines record ({_value_error(exc)})", lineno) from None
        if line.count("[") + line.count("{") > depth and too_deep(obj, depth):  # counting is cheap, walking less so
            raise _depth_failure(path, limits, lineno)
        yield lineno, lineno, "line", obj


def _last(lines: Iterator[tuple[int, str]]) -> bool:
    """Whether no record follows (a record cut off at the end: the file is truncated)."""
    try:
        return all(not line or line.isspace() for _, line in lines)
    except ImportFailure:
        return False


def read_json(
    path: Path, reader: TextReader, limits: Limits, warnings: Warnings
) -> Iterator[tuple[int, Record | Skip]]:
    """JSON: an array of objects, an object whose papers/items/records/data key holds them, one paper, or
    JSON Lines under a .json name (objects one after another)."""
    return _records(path, _JsonStream(path, reader, limits).objects(), limits, warnings)


_WS = re.compile(r"[ \t\n\r]*")
_SEPARATOR = re.compile(r"[ \t\n\r]*([,\]])[ \t\n\r]*")
# enough of JSON's grammar to tell a record that does not close within the limit from one that is invalid
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.S)


class _JsonStream:
    """JSON values decoded one at a time from a buffer that holds the next record's worth of text (the
    record limit and one character more), so that memory is bounded by a record, not by the file."""

    def __init__(self, path: Path, reader: TextReader, limits: Limits):
        self.path = path
        self.limits = limits
        self.blocks = reader.blocks()
        self.buf = ""
        self.pos = 0
        self.eof = False
        self.line = 1  # the line number at position `counted`
        self.counted = 0
        self.ahead = limits.record_chars + 1
        self.decoder = json.JSONDecoder()

    # ---- the buffer ----

    def line_at(self, pos: int) -> int:
        if pos > self.counted:
            self.line += self.buf.count("\n", self.counted, pos)
            self.counted = pos
        return self.line

    def _fill(self) -> None:
        if self.eof or len(self.buf) - self.pos >= self.ahead:
            return
        self.line_at(self.pos)
        parts = [self.buf[self.pos :]]
        have = len(parts[0])
        while have < self.ahead:
            block = next(self.blocks, None)
            if block is None:
                self.eof = True
                break
            parts.append(block)
            have += len(block)
        self.buf = "".join(parts)
        self.pos = self.counted = 0

    def peek(self) -> str:
        """The next character that is not white space ("" at the end); the position moves to it."""
        while True:
            self._fill()
            self.pos = _WS.match(self.buf, self.pos).end()  # type: ignore[union-attr]
            if self.eof or len(self.buf) - self.pos >= self.ahead:  # a whole record ahead: value() reads no more
                return self.buf[self.pos] if self.pos < len(self.buf) else ""

    def fail(self, problem: str, pos: int | None = None) -> ImportFailure:
        return ImportFailure(self.path, problem, self.line_at(self.pos if pos is None else pos))

    def value(self) -> Any:
        """Decode the value at the position (after peek)."""
        self._fill()
        start = self.pos
        too_long = f"this record is longer than the limit of {self.limits.record_chars:,} characters"
        try:
            obj, end = self.decoder.raw_decode(self.buf, start)
        except json.JSONDecodeError as exc:
            if not self.eof and not self._closes(start):
                raise self.fail(too_long, start) from None
            problem, cut = json_problem(exc, column=False)  # (the buffer may start inside a line)
            hint = "; is the file truncated?" if cut and self.eof else ""
            raise self.fail(f"invalid JSON ({problem}){hint}", max(start, min(exc.pos, len(self.buf)))) from None
        except RecursionError:
            raise _depth_failure(self.path, self.limits, self.line_at(start)) from None
        except ValueError as exc:  # an integer of more than 4,300 digits
            raise self.fail(f"invalid JSON ({_value_error(exc)})", start) from None
        if end - start > self.limits.record_chars or (end >= len(self.buf) and not self.eof):
            raise self.fail(too_long, start)
        depth = self.limits.depth
        if self.buf.count("[", start, end) + self.buf.count("{", start, end) > depth and too_deep(obj, depth):
            raise _depth_failure(self.path, self.limits, self.line_at(start))
        self.pos = end
        return obj

    def _closes(self, start: int) -> bool:
        """Does the value at `start` close within the buffer (so a failure to decode it is a real error)?"""
        depth = 0
        for m in _TOKENS.finditer(self.buf, start, start + self.ahead):
            token = m.group()
            if token in "[{":
                depth += 1
            elif token in "]}":
                depth -= 1
                if depth <= 0:
                    return True
            elif depth == 0:
                return token.endswith('"') and len(token) > 1
        return False

    def expect(self, chars: str, what: str) -> str:
        c = self.peek()
        if c == "" or c not in chars:
            found = "the end of the file" if c == "" else f"'{c}'"
            hint = "; is the file truncated?" if c == "" else ""
            raise self.fail(f"invalid JSON (expected {what}, found {found}){hint}")
        self.pos += 1
        return c

    # ---- the file's shape ----

    def objects(self) -> Iterator[_Object]:
        c = self.peek()
        if c == "[":
            self.pos += 1
            yield from self._array()
        elif c == "{":
            if not self._lines_follow():
                yield from self._first_object()
            while self.peek() == "{":  # JSON Lines, or objects one after another
                line = self.line_at(self.pos)
                yield line, line, "line", self.value()
        elif c == "":
            raise ImportFailure(self.path, "is empty")
        else:
            raise self.fail(f"invalid JSON (expected an array or an object, found '{c}')")
        if self.peek() != "":
            raise self.fail("invalid JSON (more text after the end of the data)")

    def _array(self) -> Iterator[_Object]:
        """An array's elements. The common case (a record and its comma well inside the buffer) is decoded
        here directly; anything else goes the careful way through peek/value/expect, which also says
        what is wrong."""
        if self.peek() == "]":
            self.pos += 1
            return
        decode = self.decoder.raw_decode
        limit, depth = self.limits.record_chars, self.limits.depth
        n = 0
        while True:
            n += 1
            buf, start = self.buf, self.pos
            end = -1
            if self.eof or len(buf) - start >= self.ahead:
                try:
                    obj, end = decode(buf, start)
                except (ValueError, RecursionError):
                    end = -1
                if end >= 0 and (
                    end - start > limit
                    or (end >= len(buf) and not self.eof)
                    or buf.count("[", start, end) + buf.count("{", start, end) > depth
                ):
                    end = -1
            if end < 0:
                self.peek()
                buf, start = self.buf, self.pos
                obj = self.value()
                end = self.pos
            line = self.line_at(start)
            yield line, n, "record", obj
            m = _SEPARATOR.match(buf, end)
            if m is not None and (m.end() < len(buf) or self.eof):
                self.pos = m.end()
                if m.group(1) == "]":
                    return
                continue
            self.pos = end
            if self.expect(",]", "',' or ']'") == "]":
                return

    def _lines_follow(self) -> bool:
        """Is this JSON Lines under another name: a first line that is a whole object, then another object?
        (Then a first record with a `data` list is a record, not a wrapper.)"""
        end = self.buf.find("\n", self.pos, self.pos + self.ahead)
        if end < 0:
            return False
        try:
            first = json.loads(self.buf[self.pos : end])
        except (ValueError, RecursionError):
            return False
        rest = _WS.match(self.buf, end).end()  # type: ignore[union-attr]
        return isinstance(first, dict) and self.buf.startswith("{", rest)

    def _first_object(self) -> Iterator[_Object]:
        """A paper, or a wrapper whose papers/items/records/data list is streamed. Other values are kept,
        within the record limit, in case the object is itself a paper."""
        start_line = self.line_at(self.pos)
        self.pos += 1
        kept: dict[str, Any] = {}
        size = 0
        streamed = False
        if self.peek() == "}":
            self.pos += 1
        else:
            while True:
                if self.peek() != '"':
                    raise self.fail("invalid JSON (expected a key in quotes)")
                key = self.value()
                self.expect(":", "':'")
                if self.peek() == "[" and key in WRAPPER_KEYS and not streamed:
                    self.pos += 1
                    streamed = True
                    yield from self._array()
                else:
                    begin = self.pos
                    kept[key] = self.value()
                    size += self.pos - begin
                    if size > self.limits.record_chars:
                        raise self.fail(
                            f"this record is longer than the limit of {self.limits.record_chars:,} characters",
                            begin,
                        )
                if self.expect(",}", "',' or '}'") == "}":
                    break
        if not streamed:
            yield start_line, start_line, "line", kept
