"""What every importer shares: the record it produces, the warnings it gives, the limits it keeps."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from readinglist import biblio
from readinglist.importers.limits import DEFAULT_LIMITS, Limits
from readinglist.papers import IMPORT_SUFFIXES, PRIORITIES, STATES, ImportFailure, strip_compression

MAX_WARNINGS = 50  # one file's warnings shown; the rest are counted
PLACEHOLDER_ABSTRACTS = {
    "abstract unavailable",
    "abstract not available",
    "no abstract available",
    "no abstract",
    "n/a",
    "na",
    "none",
    "null",
    "tba",
    "-",
    "part of",  # NeurIPS's pages: "Part of Advances in Neural Information Processing Systems …", cut (16 papers)
}


@dataclass
class Record:
    """One paper as a file describes it: text as imported, nothing decoded but the author names and keywords."""

    title: str = ""
    abstract: str = ""
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    venue: str = ""
    url: str = ""
    key: str = ""
    tags: list[str] = field(default_factory=list)  # the user's own (a readinglist export's, a tags column)
    keywords: list[str] = field(default_factory=list)  # the file's keywords: tags kept apart as imported
    # what a readinglist export carries besides the paper (see annotations.py): applied to a paper the
    # import adds, never to one the library has
    note: str = ""
    state: str = ""
    state_from: str = ""  # where the file says it ("read field", "state column"): an import's summary names it
    priority: int | None = None
    citation_key: str = ""
    uid: str = ""
    own: bool = False  # from one of the app's own exports: matched against the whole library, not one source
    bib: dict[str, str] = field(default_factory=dict)  # the bibliographic record, cleaned (readinglist.biblio)


NOT_A_PAPER = Record(key="\x00")  # what a format yields for an entry that is read but is not a paper (@proceedings)


@dataclass(frozen=True, slots=True)
class Skip:
    """What a format yields for a record it skips: where it is and why, so that the summary can say so."""

    where: str  # "line 3", "record 2", "entry smith20 (line 40)", "paragraph 5"
    why: str


@dataclass
class ParsedFile:
    """A whole file's records in a list: for tests and tools; an import streams them (SourceFile)."""

    path: Path
    kind: str
    records: list[Record]
    skipped: int = 0
    warnings: list[str] = field(default_factory=list)
    skipped_why: list[tuple[str, str]] = field(default_factory=list)  # (where, why) of the first skipped


SKIPS_KEPT = 200  # reasons kept per file; past them only the count grows (a stream stays bounded)


def note_skip(skipped_why: list[tuple[str, str]], where: str, why: str) -> None:
    """Keep a skipped record's (where, why) while fewer than SKIPS_KEPT are kept."""
    if len(skipped_why) < SKIPS_KEPT:
        skipped_why.append((where, why))


def json_kind(value: object) -> str:
    """What a JSON value is, in a reader's words: "a number", not Python's "a int" (a trial's message)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a piece of text"
    if isinstance(value, list):
        return "a list"
    return "an object" if isinstance(value, dict) else f"a {type(value).__name__}"


def why_no_text(title: object, abstract: object) -> str:
    """Why a record with neither a title nor an abstract was skipped, in words."""
    raw = abstract.strip() if isinstance(abstract, str) else ""
    if raw:
        return f"no title, and its abstract is a placeholder (“{snippet(raw)}”)"
    if title is not None and not isinstance(title, str | int | float):
        return f"no title (its title is {json_kind(title)}) and no abstract"
    return "no title and no abstract"


@dataclass
class ImportContext:
    """State shared by the files of one import: the limits, and what BibTeX entries may refer to in any of
    its .bib files, as a set of files is written to be read together (IRIDIA's abbrev.bib, authors.bib and
    journals.bib hold only the @string macros its biblio.bib uses, and crossref.bib the volumes it cites):
    @string macros (with their expanded size, which the limits bound across files), the volumes (@book,
    @proceedings …) an entry's crossref may name, and the keys crossrefs name."""

    limits: Limits = DEFAULT_LIMITS
    bib_strings: dict[str, str] = field(default_factory=dict)
    macro_chars: int = 0
    # key (lower case) → the file that has the volume and its entry, read when first cited (bibtex.BibFile)
    bib_volumes: dict[str, tuple[object, object]] = field(default_factory=dict)
    bib_cited: set[str] = field(default_factory=set)  # the keys crossref fields name (lower case)


class Warnings:
    """A file's warnings, the first MAX_WARNINGS kept word for word and the rest counted, so that a hostile
    file with a warning per entry cannot fill memory with them."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self.more = 0

    def add(self, text: str) -> None:
        if len(self.items) < MAX_WARNINGS:
            self.items.append(text)
        else:
            self.more += 1

    def lines(self) -> list[str]:
        return self.items + ([f"… and {self.more:,} more warnings like these"] if self.more else [])


def snippet(text: str, limit: int = 40) -> str:
    """A piece of a file quoted in a message: on one line and short, whatever the file holds."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_fields(path: Path, rec: Record, line: int, limits: Limits) -> None:
    """Every value a paper keeps stays under the field limit (JSON escapes and BibTeX macros can make a
    value longer than the text it came from)."""
    limit = limits.field_chars
    if len(rec.abstract) > limit or len(rec.title) > limit or len(rec.venue) > limit or len(rec.url) > limit:
        name = next(n for n in ("abstract", "title", "venue", "url") if len(getattr(rec, n)) > limit)
        raise ImportFailure(path, f"the {name} is longer than the limit of {limit:,} characters", line)
    tags = sum(map(len, rec.tags)) + sum(map(len, rec.keywords))
    if len(rec.key) > limit or sum(map(len, rec.authors)) > limit or tags > limit:
        name = "key" if len(rec.key) > limit else "author list" if sum(map(len, rec.authors)) > limit else "tag list"
        raise ImportFailure(path, f"the {name} is longer than the limit of {limit:,} characters", line)


def without_controls(rec: Record) -> None:
    """Take every control character out of the record's text (biblio.without_controls): a NUL, a terminal's
    escape or a PDF's stray \\x02 in a title would otherwise reach the table, the search and every export. A
    title, a name, a venue, a tag is one line after it; an abstract and a note keep their tabs and line breaks."""
    texts = [rec.title, rec.abstract, rec.venue, rec.url, rec.note, rec.key, rec.citation_key, rec.uid]
    if not biblio.has_controls(" ".join(texts + rec.authors + rec.tags + rec.keywords)):
        return
    clean, line = biblio.without_controls, biblio.one_line_without_controls
    rec.title, rec.venue, rec.url = line(rec.title), line(rec.venue), line(rec.url)
    rec.key, rec.citation_key, rec.uid = line(rec.key), line(rec.citation_key), line(rec.uid)
    rec.abstract, rec.note = clean(rec.abstract), clean(rec.note)
    rec.authors = [name for name in map(line, rec.authors) if name]
    rec.tags = [tag for tag in map(line, rec.tags) if tag]
    rec.keywords = [word for word in map(line, rec.keywords) if word]


def bib_fields(
    raw: dict[str, object], warnings: Warnings, where: str, decode: Callable[[str], str] | None = None
) -> dict[str, str]:
    """A record's bibliographic fields cleaned (biblio.clean); what was left out is said once, with where."""
    fields, problems = biblio.clean(raw, decode)
    if problems:
        warnings.add(f"{where}: {'; '.join(problems)}: left out")
    return fields


def base_name(path: Path) -> str:
    """The file name without compression and format suffixes: icml2026.jsonl.gz → icml2026."""
    name = strip_compression(path.name)
    suffix = Path(name).suffix
    return name[: -len(suffix)] if suffix.lower() in IMPORT_SUFFIXES else name


# A soft hyphen where a PDF broke a word across lines: pdfminer writes it "(cid:173)" (in 1,604 of the
# 8,263 NeurIPS abstracts: "pro(cid:173) cess"), others as U+00AD. Either way the word is one word again,
# to read and to search.
_SOFT_HYPHEN = re.compile(r"(?:\(cid:173\)|\u00ad)\s*")
_PLACEHOLDER_CHARS = max(map(len, PLACEHOLDER_ABSTRACTS))


# The other codes pdfminer could not map, where their meaning is certain: the TeX fonts' ligatures (OT1:
# 11 ff, 12 fi, 13 fl, 14 ffi, 15 ffl; 2 fi and 3 fl in another font; 222 fi, as Mac Roman has it) inside a
# lower-case word ("classi(cid:12)cation", "(cid:12)xed", "e(cid:11)ect": in about 80 NeurIPS abstracts), and
# Windows-1252's quotes and ö ("(cid:147)tempered(cid:148)", "Nystr(cid:246)m"). A code between capitals or
# before a space or hyphen is a math symbol ("N(cid:2)N" is N×N, "(cid:15)-tubes" ε-tubes) whose font is unknown.
_LIGATURES = {"2": "fi", "3": "fl", "11": "ff", "12": "fi", "13": "fl", "14": "ffi", "15": "ffl", "222": "fi"}
_LIGATURE = re.compile(r"(?<![A-Z0-9])\(cid:(2|3|11|12|13|14|15|222)\)(?=[a-z])")
_CHARACTERS = {"147": "\u201c", "148": "\u201d", "246": "\u00f6"}
_CHARACTER = re.compile(r"\(cid:(147|148|246)\)")
_UNKNOWN_CODE = re.compile(r"\(cid:\d+\)")


def _pdf_codes(text: str) -> str:
    """The text with the soft hyphens, ligatures and characters of the codes above in their place."""
    if "\u00ad" in text or "(cid:173)" in text:
        text = _SOFT_HYPHEN.sub("", text)
    if "(cid:" in text:
        text = _LIGATURE.sub(lambda m: _LIGATURES[m.group(1)], text)
        text = _CHARACTER.sub(lambda m: _CHARACTERS[m.group(1)], text)
        # the rest, a symbol of a font pdfminer had no table for: shown as the character that stands for one
        # unknown (U+FFFD), which no search matches ("cid" found 8 papers, and was a related paper's "why")
        text = _UNKNOWN_CODE.sub("\ufffd", text)
    return text


# A word a PDF broke at a line end with a hyphen, its text extracted with the line break as a space: "con-
# structs", "algo- rithms", "How- ever" (in 855 of the NeurIPS abstracts, 2,274 times). Joined again when the
# joined word is an English word; a compound broken at its own hyphen keeps it ("high- dimensional",
# "state-of-the- art"); kept as it is before a function word: a suspended hyphen ("pre- and post-processing",
# "first- or second-order") or a dash ("inhibition- was"). Neither part a word: joined ("eigen- functions").
_BROKEN_WORD = re.compile(r"\b([A-Za-z]+)- ([a-z]+)\b")
_NOT_A_WORDS_END = frozenset(
    str.split(
        """a an the and or nor but to of in on at by for from with via as than vs versus into onto is was are
        were be been it its we our they their this that these those which who whose where when there then just
        so not no if while whereas"""
    )
)


@functools.cache
def _english() -> Any:
    """pyspellchecker's English word list (160,000 words; loaded once, ~0.2 s, when a broken word is met)."""
    from spellchecker import SpellChecker

    return SpellChecker(language="en", distance=1)


def _joined(m: re.Match[str]) -> str:
    first, second = m.group(1), m.group(2)
    if second in _NOT_A_WORDS_END:
        return m.group(0)
    if sum(ch.isupper() for ch in first) > 1:
        return f"{first}-{second}"  # an acronym's compound: "TMS- induced"
    english = _english()
    if (first + second).lower() in english:
        return first + second
    if first.lower() in english and second in english:
        return f"{first}-{second}"
    return first + second


def join_broken_words(text: str) -> str:
    """The text with the words a PDF's line ends broke joined again (see _BROKEN_WORD)."""
    return _BROKEN_WORD.sub(_joined, text) if "- " in text else text


def clean_abstract(text: object) -> str:
    """The abstract, or '' for a missing or placeholder one."""
    if not isinstance(text, str):
        return ""
    if "(cid:" in text or "\u00ad" in text:  # two substring scans are cheaper than the regexes
        text = _pdf_codes(text)
    text = join_broken_words(text)
    text = text.strip()
    core = text.strip(" .")
    if len(core) <= _PLACEHOLDER_CHARS and core.casefold() in PLACEHOLDER_ABSTRACTS:  # casefold only lengthens
        return ""
    return text


def not_a_name(abstract: str, authors: list[str]) -> str:
    """The abstract, or '' when it is only one of the authors' names (a scrape that took the byline for the
    abstract: "Sridhar Mahadevan", 17 NeurIPS papers; shown as the abstract, it topped the suggestions)."""
    if abstract and len(abstract) < 80 and authors:
        words = " ".join(abstract.split()).casefold()
        if any(words == " ".join(a.split()).casefold() for a in authors):
            return ""
    return abstract


# the mark of an author list a file cut short, written as the list's last name: RIS's "AU  - et al." (EndNote's,
# a hand-made file's, the export's), CSL-JSON's {"literal": "others"} (pandoc's of BibTeX's "and others")
MORE_AUTHORS = re.compile(r"\s*(?:et\.?\s*al\.?|others)\s*", re.IGNORECASE)


def split_authors(value: object) -> list[str]:
    """Authors from a list, "A; B", "A and B" or "A, B", each as people write it: Zotero's CSV "Doe, Jane" is
    one author, Jane Doe, not two (biblio.name_list)."""
    if value is None:
        return []
    names = [str(v).strip() for v in value] if isinstance(value, list) else biblio.name_list(str(value))
    out: list[str] = []
    for n in names:
        if not n or n.isspace():
            continue
        name = author_name(n)
        if out and _SUFFIX.fullmatch(name):  # "J.L. Wyatt", "Jr": one author (the list split his name)
            out[-1] = f"{out[-1]} {name}"
        else:
            out.append(name)
    return out


_SUFFIX = re.compile(r"(?:Jr|Sr|JR|SR)\.?|II|III|IV")


def author_name(name: str) -> str:
    """A name as people write it: LaTeX accents decoded (H\\"{u}y\\"{u}k → Hüyük, as BibTeX-derived JSON
    files carry them), spaces collapsed."""
    if "\\" in name or "{" in name:
        from readinglist.markup import decode_text

        name = decode_text(name)
    return " ".join(name.split())


def parse_year(value: object) -> int | None:
    if isinstance(value, int) and 1000 < value < 3000:
        return value
    m = re.search(r"\b(1[5-9]\d\d|2\d\d\d)\b", str(value or ""))
    return int(m.group(1)) if m else None


_WRAPPED_LIST = re.compile(r"[;,][^\S\n]*\n|\n\s*[;,]")


def split_tags(value: object) -> list[str]:
    """Tags from a list or a text, in the case the file gives them (two that differ only in case: one). A text
    parted by semicolons is parted there only: Scopus's and Web of Science's lists ("graph neural networks;
    robustness, certified") keep a keyword's comma; one without is parted at its commas ("a, b"). A text of
    several lines, or of one line that a line break ends, is a tag a line: the app's CSV and CSL-JSON exports
    write keywords so when one holds a comma or a semicolon ("Optimization, convex\n"), which a list of one line
    could not tell from two; but a line that ends or starts on a separator is a list wrapped ("a, b,\nc")."""
    if isinstance(value, list):
        items = [str(v) for v in value]
    else:
        raw = str(value or "")
        text = raw.strip()
        broken = "\n" in text or (text != "" and raw.rstrip(" \t\r").endswith("\n"))
        if broken and not _WRAPPED_LIST.search(raw):
            items = text.splitlines()
        else:
            items = text.split(";" if ";" in text else ",")
    out: dict[str, str] = {}
    for item in items:
        tag = re.sub(r"\s+", " ", item).strip()
        if tag:
            out.setdefault(tag.casefold(), tag)
    return list(out.values())


# what markup.title_plain may change in a keyword: text without any of it is as the sidebar shows it
_KEYWORD_MARKUP = re.compile(r"""[$\\{}*_<>&~`'"^]|--""")


def plain_keywords(value: object, latex: bool = False) -> list[str]:
    """A file's keywords (split_tags) read as its titles are (markup.title_plain), as BibTeX's are: "$\\ell_1$
    norm" is "ℓ₁ norm" and "$Q$-Learning" "Q-Learning" in the sidebar, the search and every export (a trial on
    the ICLR TSV listed them raw, first for their "$"). Braces are characters, as in a plain-text title
    (braces_as_text), but for `latex`: a BibTeX entry written as JSON, whose braces are BibTeX's."""
    words = split_tags(value)
    if all(word.isascii() and not _KEYWORD_MARKUP.search(word) for word in words):
        return words  # most keywords: nothing to read
    from readinglist.markup import braces_as_text, title_plain

    return split_tags([title_plain(word if latex else braces_as_text(word)) for word in words])


_VENUES = {"nips": "NeurIPS", "neurips": "NeurIPS", "icml": "ICML", "iclr": "ICLR", "colt": "COLT"}
_VENUES |= {"aistats": "AISTATS", "uai": "UAI", "cvpr": "CVPR", "iccv": "ICCV", "eccv": "ECCV", "acl": "ACL"}
_VENUES |= {"emnlp": "EMNLP", "naacl": "NAACL", "aaai": "AAAI", "ijcai": "IJCAI", "kdd": "KDD"}


def venue_year_from_name(path: Path) -> tuple[str, int | None]:
    """nips2018.json → ("NeurIPS", 2018): a fallback for files whose records say neither."""
    m = re.search(r"(?:^|[_\-. ])([A-Za-z]+)[_\-]?((?:19|20)\d\d)$", base_name(path))
    if not m:
        return "", None
    return _VENUES.get(m.group(1).lower(), m.group(1).upper()), int(m.group(2))


def state_from_text(value: object) -> str:
    """A reading state as an export writes it (JabRef's readstatus, a CSV or JSON state), or ''."""
    text = str(value or "").strip().lower()
    return text if text in STATES else ""


def priority_from_text(value: object) -> int | None:
    """A priority 1–3 from JabRef's `prio1`, a `P1` or a plain 1, or None."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if value in PRIORITIES else None
    m = re.fullmatch(r"(?:prio|p)?\s*([0-9])", str(value or "").strip().lower())
    n = int(m.group(1)) if m else None
    return n if n in PRIORITIES else None
