"""A paper's bibliographic record: the entry type, DOI, journal or book title, volume, issue, pages, publisher
and the like that a citation style needs, which a title, authors, venue and year do not say.

Importers map their own names (BibTeX fields, RIS tags, CSL-JSON keys, CSV columns) to the names here and
`clean` them; exports write them back under each format's names. The names are BibTeX's (the richest of the
formats a researcher brings), the values plain text (LaTeX decoded where the file had it), each short: a
value longer than MAX_VALUE_CHARS, or a DOI that is no DOI, is left out and said (a truncated DOI would cite
another paper). Qt-free and store-free: the importers, the store, the exports and the window all use it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from contextlib import suppress
from urllib.parse import quote, unquote

MAX_VALUE_CHARS = 2048  # one value (an editor list of 40 names is ~1,000); a longer one is left out
MAX_DOI_CHARS = 300

# the fields kept, in the order an export writes them
FIELDS = (
    "type", "journal", "booktitle", "editor", "volume", "number", "pages", "month", "publisher", "address",
    "edition", "series", "chapter", "institution", "school", "organization", "howpublished", "isbn", "issn",
    "doi", "eprint", "eprinttype", "eprintclass", "moreauthors",
)  # fmt: skip
# "moreauthors": "yes" where the file's author list ended "and others" (Google Scholar's of a long list): the
# names are not all the authors, and a citation says so ("et al.", BibTeX's "and others" written back)
TEXT_FIELDS = frozenset(("journal", "booktitle", "publisher", "address", "edition", "series", "institution",
                         "school", "organization", "howpublished", "volume", "number", "chapter"))  # fmt: skip
CONTAINERS = ("journal", "booktitle")  # where a paper appeared: a journal's name, or the book's (proceedings)

# ---- entry types --------------------------------------------------------------------------------------

TYPES = frozenset((
    "article", "inproceedings", "proceedings", "book", "inbook", "incollection", "collection", "booklet",
    "phdthesis", "mastersthesis", "thesis", "techreport", "report", "manual", "misc", "unpublished", "online",
    "dataset", "software", "patent",
))  # fmt: skip
_BIBTEX_ALIASES = {
    "conference": "inproceedings", "electronic": "online", "www": "online", "webpage": "online",
    "mvbook": "book", "bookinbook": "inbook", "suppbook": "inbook", "mvcollection": "collection",
    "suppcollection": "incollection", "mvproceedings": "proceedings", "reference": "collection",
    "inreference": "incollection", "periodical": "misc", "suppperiodical": "article", "standard": "misc",
    "artwork": "misc", "audio": "misc", "video": "misc", "image": "misc", "movie": "misc", "music": "misc",
    "preprint": "misc", "letter": "misc", "commentary": "misc", "review": "article", "jurisdiction": "misc",
    "legislation": "misc", "legal": "misc", "performance": "misc", "set": "misc", "xdata": "misc",
}  # fmt: skip
RIS_TYPES = {
    "JOUR": "article", "JFULL": "article", "EJOUR": "article", "MGZN": "article", "NEWS": "article",
    "ABST": "article", "INPR": "article", "CPAPER": "inproceedings", "CONF": "proceedings", "BOOK": "book",
    "EBOOK": "book", "EDBOOK": "collection", "CHAP": "incollection", "ECHAP": "incollection", "THES": "phdthesis",
    "RPRT": "techreport", "GEN": "misc", "ELEC": "online", "WEB": "online", "BLOG": "online", "UNPB": "unpublished",
    "MANSCPT": "unpublished", "PAT": "patent", "DATA": "dataset", "COMP": "software", "STAND": "misc",
    "PAMP": "booklet", "SER": "book",
}  # fmt: skip
_TO_RIS = {
    "article": "JOUR", "inproceedings": "CPAPER", "proceedings": "CONF", "book": "BOOK", "collection": "EDBOOK",
    "inbook": "CHAP", "incollection": "CHAP", "booklet": "PAMP", "phdthesis": "THES", "mastersthesis": "THES",
    "thesis": "THES", "techreport": "RPRT", "report": "RPRT", "manual": "GEN", "misc": "GEN", "unpublished": "UNPB",
    "online": "ELEC", "dataset": "DATA", "software": "COMP", "patent": "PAT",
}  # fmt: skip
CSL_TYPES = {
    "article-journal": "article", "article-magazine": "article", "article-newspaper": "article",
    "paper-conference": "inproceedings", "book": "book", "chapter": "incollection", "thesis": "phdthesis",
    "report": "techreport", "manuscript": "unpublished", "webpage": "online", "post-weblog": "online",
    "post": "online", "dataset": "dataset", "software": "software", "patent": "patent", "article": "misc",
    "entry-encyclopedia": "incollection", "entry-dictionary": "incollection", "pamphlet": "booklet",
    "document": "misc", "standard": "misc", "review": "article",
}  # fmt: skip
_TO_CSL = {
    "article": "article-journal", "inproceedings": "paper-conference", "proceedings": "book", "book": "book",
    "collection": "book", "inbook": "chapter", "incollection": "chapter", "booklet": "pamphlet",
    "phdthesis": "thesis", "mastersthesis": "thesis", "thesis": "thesis", "techreport": "report",
    "report": "report", "manual": "book", "misc": "article", "unpublished": "manuscript", "online": "webpage",
    "dataset": "dataset", "software": "software", "patent": "patent",
}  # fmt: skip
ZOTERO_TYPES = {  # Zotero's item types, as its CSV export names them ("Item Type")
    "journalarticle": "article", "magazinearticle": "article", "newspaperarticle": "article",
    "conferencepaper": "inproceedings", "book": "book", "booksection": "incollection", "thesis": "phdthesis",
    "report": "techreport", "preprint": "misc", "webpage": "online", "manuscript": "unpublished",
    "dataset": "dataset", "computerprogram": "software", "patent": "patent", "document": "misc",
}  # fmt: skip


def bibtex_type(name: str) -> str:
    """A BibTeX or biblatex entry type as kept ("Conference" → inproceedings); one nobody knows is misc."""
    kind = name.strip().lower()
    return kind if kind in TYPES else _BIBTEX_ALIASES.get(kind, "misc")


def type_from_name(name: object) -> str:
    """An entry type from any format's name for it (CSL-JSON, BibTeX, RIS, Zotero), or '' when it is none."""
    if not isinstance(name, str):
        return ""
    text = name.strip()
    lower = text.lower()
    if lower in CSL_TYPES:
        return CSL_TYPES[lower]
    if lower in TYPES:
        return lower
    if lower in _BIBTEX_ALIASES:
        return _BIBTEX_ALIASES[lower]
    if text.upper() in RIS_TYPES:
        return RIS_TYPES[text.upper()]
    return ZOTERO_TYPES.get(lower.replace(" ", ""), "")


def ris_type(kind: str) -> str:
    return _TO_RIS.get(kind, "GEN")


def csl_type(kind: str) -> str:
    return _TO_CSL.get(kind, "article")


# ---- DOIs ---------------------------------------------------------------------------------------------

_DOI = re.compile(r"10\.\d{4,9}/[^\s\"{}\\\x00-\x1f\x7f-\x9f]+", re.ASCII)
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi\.org/|doi:\s*|doi\s+)", re.IGNORECASE)
# a DOI behind another resolver or prefix: http://doi.acm.org/10.1145/…, a library's proxy of it
# (http://doi.acm.org.www.library.gatech.edu:2048/10.1145/…), info:doi/10.1076/…, urn:doi:10.1000/…
_DOI_ELSEWHERE = re.compile(r"^(?:https?://[^/\s?#]+/(?:[^\s?#]*?/)?|info:doi/|urn:doi:)(10\.\d{4,9}/.+)$", re.I)
_LATEX_ESCAPES = {"\\_": "_", "\\%": "%", "\\&": "&", "\\#": "#", "\\$": "$", "\\~": "~"}
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def normalize_doi(text: object) -> str:
    """A DOI as it is kept ("10.1000/xyz"), from "https://doi.org/10.1000/xyz", "doi:10.1000/xyz" or a
    BibTeX value with its underscores escaped; '' for anything that is not a DOI."""
    if not isinstance(text, str) or len(text) > 4 * MAX_DOI_CHARS:
        return ""
    doi = text.strip().strip("{}").strip()
    for escaped, plain in _LATEX_ESCAPES.items():
        doi = doi.replace(escaped, plain)
    m = _DOI_PREFIX.match(doi)
    if m:
        url = m.group().lower().startswith(("http", "doi.org"))
        doi = doi[m.end() :].strip()
        if url:
            doi = unquote(doi)
    else:
        other = _DOI_ELSEWHERE.match(doi)
        if other:
            doi = unquote(other.group(1)) if doi[:4].lower() == "http" else other.group(1)
    doi = doi.rstrip(".,;")
    if "%" in doi and doi.isascii():  # percent-encoded letters beyond ASCII, as a BibTeX file in ASCII writes them
        with suppress(UnicodeDecodeError):
            decoded = unquote(doi, errors="strict")
            if not decoded.isascii() and "%" not in decoded:
                doi = decoded
    return doi if len(doi) <= MAX_DOI_CHARS and _DOI.fullmatch(doi) else ""


def doi_key(doi: str) -> str:
    """A DOI as two are compared: DOIs are case-insensitive (ASCII: as SQLite's lower() folds them)."""
    return normalize_doi(doi).translate(_ASCII_LOWER)


# preprint servers' DOI prefixes: arXiv (its BibTeX gives 10.48550/arXiv.2101.00001), bioRxiv and medRxiv
# (10.1101/ and digits: Cold Spring Harbor's journals, 10.1101/gr.…, are not preprints), SSRN, and OSF's
_PREPRINT_DOI = re.compile(r"10\.(?:48550|2139|31219|31234|31235)/|10\.1101/\d")


def is_preprint_doi(doi: str) -> bool:
    """A preprint server's DOI: the published version of the paper has another one."""
    return bool(_PREPRINT_DOI.match(doi_key(doi)))


def dois_conflict(a: str, b: str) -> bool:
    """Two DOIs that say two records are two papers: both given, different, and neither a preprint server's
    (an arXiv copy and the journal's version are one paper with two DOIs)."""
    ka, kb = doi_key(a), doi_key(b)
    return bool(ka and kb and ka != kb and not is_preprint_doi(ka) and not is_preprint_doi(kb))


_URL_ESCAPE = re.compile(r"\\([#%&_$~])(?:\{\})?")  # \# \% \& \_ \$ \~ (\~{}): a character, escaped


def url_unescaped(url: str) -> str:
    r"""A URL without the LaTeX escapes a BibTeX file may put in it (JabRef's `…/abs07.html\#talk9`,
    `…/\~wilkins/`): a URL has no backslash, so each is the character (linked, it was …%5C#talk9)."""
    return _URL_ESCAPE.sub(r"\1", url) if "\\" in url else url


DOI_URL = "https://doi.org/"


def doi_url(doi: str) -> str:
    """The DOI's link at doi.org, percent-encoded where a URL needs it; '' for no DOI."""
    doi = normalize_doi(doi)
    return DOI_URL + quote(doi, safe="/:;()._-~") if doi else ""


def doi_of_url(url: str) -> str:
    """The DOI a doi.org link names, or ''."""
    return normalize_doi(url) if re.match(r"https?://(?:dx\.)?doi\.org/", url, re.IGNORECASE) else ""


# ---- values -------------------------------------------------------------------------------------------

MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_DASHES = re.compile(r"\s*(?:-{1,3}|\u2013|\u2014|\u2012|\u2212)\s*")
_ISSN = re.compile(r"\s*\d{4}-?\d{3}[\dXx]\b")


_ASCII_DIGITS = re.compile(r"[0-9]+", re.ASCII)
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # C0 and C1: not tab, line feed, return
# A terminal's escape sequence whole, not its ESC alone ("\x1b[31mANSI" was left "[31mANSI"): CSI (colours, cursor
# moves), OSC ended by BEL or ST (a window title, a hyperlink), and the short ones (ESC 7, ESC ( B); a letter after
# an ESC stays, as it may be a word's (ESC M moves a cursor, "\x1bMore" is more likely a word). A lone C1
# introducer (\x9b) is dropped alone: a cp1252 "›" read as Latin-1 is one, and the letter after it is text.
# An OSC is ended within OSC_MOST characters (a title, a link's address) or is no OSC: only its "ESC ]" goes (a
# stray one took every word up to a BEL or ST however far on, a paragraph of an abstract).
OSC_MOST = 256
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    rf"|\x1b\][^\x07\x1b\x9c]{{0,{OSC_MOST}}}(?:\x07|\x1b\\|\x9c)|\x1b\]"
    r"|\x1b(?:[!-/]+[0-~]|[78=>])"
)
_SPACING_CONTROLS = frozenset("\x0b\x0c\x1c\x1d\x1e\x1f\x85")  # what Python's split() takes for spaces
_EPRINT = re.compile(r"[A-Za-z0-9._:/-]+")  # 2101.00001v2, arXiv:2101.00001, hep-th/9901001: written verbatim


def month_of(value: object) -> int | None:
    """A month's number 1–12 from a stored or given month ("6", 6), or None: only ASCII digits are a number
    ("²".isdigit() is true, and int() refuses it)."""
    text = str(value).strip() if isinstance(value, int | str) and not isinstance(value, bool) else ""
    if _ASCII_DIGITS.fullmatch(text) and len(text) <= 2 and 1 <= int(text) <= 12:
        return int(text)
    return None


def without_controls(text: str) -> str:
    r"""The text without C0 and C1 control characters but tab and line breaks (\x1b[31m colours a terminal, a
    NUL ends a C string), a terminal's escape sequence taken whole (_ESCAPES); one that parts words (a form feed,
    a vertical tab, NEL, the separators \x1c-\x1f) becomes a space, so that "Part one\x0cPart two" keeps two words."""
    if not _CONTROLS.search(text):
        return text
    if "\x1b" in text:
        text = _ESCAPES.sub("", text)
    return _CONTROLS.sub(lambda m: " " if m.group() in _SPACING_CONTROLS else "", text)


def one_line_without_controls(text: str) -> str:
    """A title, a name, a venue or a tag without control characters, on one line (without_controls)."""
    return " ".join(without_controls(text).split()) if has_controls(text) else text


def has_controls(text: str) -> bool:
    """Whether without_controls would change the text. isprintable() first: most texts are, and it is quicker
    than the search (every record of an import is asked)."""
    return not text.isprintable() and _CONTROLS.search(text) is not None


# Google Scholar's BibTeX names an arXiv paper's journal "arXiv preprint arXiv:1412.6980" (an old-style
# identifier "arXiv preprint cs/0605123", a version "…v2"), with no eprint field and no url
_ARXIV_JOURNAL = re.compile(
    r"\s*arxiv\s+preprint\s+(?:arxiv\s*:\s*)?(\d{4}\.\d{4,5}(?:v\d+)?|[a-z-]+(?:\.[a-z]{2})?/\d{7}(?:v\d+)?)\s*",
    re.IGNORECASE,
)


def arxiv_of_journal(journal: str) -> str:
    """The arXiv identifier of a journal named as Google Scholar names an arXiv preprint, or ''."""
    m = _ARXIV_JOURNAL.fullmatch(journal)
    return m.group(1) if m else ""


def arxiv_url(identifier: str) -> str:
    """The abstract page of an arXiv identifier: https://arxiv.org/abs/1412.6980."""
    return f"https://arxiv.org/abs/{identifier}"


def is_eprint(value: str) -> bool:
    """An eprint identifier as BibTeX may write it verbatim (no brace, backslash, space or percent sign)."""
    return bool(_EPRINT.fullmatch(value))


def month_number(value: str) -> str:
    """ "jan", "January", "1", "01" → "1"; other text as it is ("Summer")."""
    text = value.strip().strip("{}").strip().rstrip(".")
    if (number := month_of(text)) is not None:
        return str(number)
    lower = text.lower()
    if len(lower) >= 3 and lower[:3] in MONTH_NAMES and lower.isalpha() and len(lower) <= 9:
        return str(MONTH_NAMES.index(lower[:3]) + 1)
    return text


def pages_text(value: str) -> str:
    """A page range with one hyphen ("613--620", "613–620" → "613-620"): each format writes its own dash."""
    return _DASHES.sub("-", value.replace("{", "").replace("}", "").strip())


def split_pages(pages: str) -> tuple[str, str]:
    """(first page, last page) of "613-620"; ("e1234", "") of a single page."""
    first, _, last = pages.partition("-")
    return first.strip(), last.strip()


def is_issn(value: str) -> bool:
    """An ISSN ("0921-4534", "0921-4534 (Print)"), not an ISBN ("978-0-387-95284-5", "0387952845")."""
    return bool(_ISSN.match(value)) and len(value) < 40


def editor_names(value: str) -> list[str]:
    """The editors as kept ("A. Editor; B. Other"): one name each, as people write it (a record stored
    before names were turned has Zotero's "Menabrea, Luigi; Taylor, Richard": Luigi Menabrea, Richard Taylor)."""
    return [person_name(n) for n in value.split(";") if n.strip()]


# what follows a name after a comma without being given names: "Smith, Jr.", a body's "Google, Inc."
_NAME_SUFFIXES = frozenset(("jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "inc", "inc.", "ltd", "ltd.", "llc"))
_PARTICLES = frozenset(("van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "la", "le", "ter", "ten"))


def person_name(name: str) -> str:
    """A name as people write it ("Luigi Menabrea") from the "Family, Given" form Zotero, RIS and BibTeX
    write ("Menabrea, Luigi"; "Steele, Jr., Guy" → "Guy Steele Jr."); "Smith, Jr." keeps its order; a name
    without a comma, or with more than a person's, as it is, and so a body's ("Department of Physics, MIT")."""
    parts = [" ".join(p.split()) for p in name.split(",")]
    if len(parts) > 1 and len([w for w in parts[0].split() if w.lower() not in _PARTICLES]) > 2:
        return " ".join(name.split())
    if len(parts) == 2 and all(parts):
        family, given = parts
        return f"{family} {given}" if given.lower() in _NAME_SUFFIXES else f"{given} {family}"
    if len(parts) == 3 and all(parts) and parts[1].lower() in _NAME_SUFFIXES:
        return f"{parts[2]} {parts[0]} {parts[1]}"
    return " ".join(name.split())


_SUFFIX_BETWEEN = re.compile(r"^[^,]*,\s*(?:jr|sr|ii|iii|iv)\.?\s*,[^,]*$", re.I)


def _family_given(text: str) -> bool:
    """Whether "A, B" is one name, "Family, Given": its family one word after any particles (van der Berg),
    its given names a few words; "L. Menabrea, R. Taylor" is two names."""
    family, _, given = text.rpartition(",") if _SUFFIX_BETWEEN.match(text) else text.partition(",")
    family = family.split(",")[0]
    words = [w for w in family.split() if w.lower() not in _PARTICLES]
    return len(words) == 1 and not words[0].endswith(".") and 0 < len(given.split()) <= 3


def name_list(text: str) -> list[str]:
    """Names from one text as files give them, each as people write it: "A; B" (Zotero's "Menabrea, Luigi;
    Taylor, Richard"), "A and B" (BibTeX's, "Family, Given" or not), a single "Family, Given", or "A, B, C"."""
    text = " ".join(text.split())
    if ";" in text:
        names = text.split(";")
    elif re.search(r"\sand\s", text):
        names = re.split(r"\s+and\s+", text)
        if not all(n.count(",") == 1 and _family_given(n) for n in names if "," in n):
            names = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", text)
    elif _family_given(text) and (text.count(",") == 1 or _SUFFIX_BETWEEN.search(text)):  # "Steele, Jr., Guy"
        names = [text]
    else:
        names = []
        for part in text.split(","):
            if names and part.strip().lower() in _NAME_SUFFIXES:  # "John Smith, Jr.": one name
                names[-1] += "," + part
            else:
                names.append(part)
    return [person_name(n) for n in names if n.strip()]


_LATEX_MARKS = re.compile(r"[\\{$~]")


def untied(text: str) -> str:
    """Text with LaTeX's ties ("Nucl.~Phys.") as the spaces they print, but a URL's tilde kept (http://…/~me): a
    record stored before the import decoded ties (migration 0027); the import decodes them with the rest."""
    if "~" not in text:
        return text
    words = [w if _URL_WORD.search(w) else w.replace("~", " ") for w in text.split()]
    return " ".join(" ".join(words).split())


_URL_WORD = re.compile(r"://|/~|^www\.", re.IGNORECASE)


def clean(raw: Mapping[str, object], decode: Callable[[str], str] | None = None) -> tuple[dict[str, str], list[str]]:
    """A record's fields as kept: known names only, each plain text on one line (`decode` turns a text
    field's LaTeX into text), none empty, none longer than MAX_VALUE_CHARS, none with a control character,
    a number only a whole one; the type one of TYPES, the DOI normalised, pages with a hyphen, a month as its
    number 1–12 (or text without digits: "Summer"), an eprint an identifier BibTeX may write verbatim.
    Returns (fields, what was left out and why)."""
    out: dict[str, str] = {}
    problems: list[str] = []
    for name in FIELDS:
        value = raw.get(name)
        if value is None or isinstance(value, bool):
            continue
        if isinstance(value, int):  # a JSON number: a whole one is its digits; 1e400 (inf), 1.5e300 are none
            value = str(value)
        if not isinstance(value, str):
            problems.append(f"{name} is not text" + (" or a whole number" if isinstance(value, float) else ""))
            continue
        value = without_controls(value)  # a terminal's escape (\x1b[31m), a NUL: shown by `show`, exported
        if len(value) > MAX_VALUE_CHARS:
            problems.append(f"{name} is longer than {MAX_VALUE_CHARS:,} characters")
            continue
        if name == "doi":
            text = normalize_doi(value)
            if not text and value.strip():
                problems.append(f"doi “{' '.join(value.split())[:60]}” is not a DOI")
        elif name == "type":  # the importer has read its format's name for it (bibtex_type, RIS_TYPES …)
            text = value.strip().lower() if value.strip().lower() in TYPES else ""
        elif name == "pages":
            text = pages_text(value)
        elif name == "month":
            text = month_number(value)
            if any(c.isdigit() for c in text) and month_of(text) is None:  # 13, 0, ², 2020-05: no month
                problems.append(f"month “{' '.join(text.split())[:20]}” is not a month")
                continue
        elif name == "eprint":
            text = value.strip()
            if text and not is_eprint(text):  # BibTeX writes it verbatim: a brace would end the entry
                problems.append(f"eprint “{' '.join(text.split())[:60]}” is not an eprint identifier")
                continue
        elif name == "editor":
            text = "; ".join(editor_names(value))
        elif name in TEXT_FIELDS and decode is not None and _LATEX_MARKS.search(value):
            text = decode(value)  # a tie too ("Nucl.~Phys."): it prints a space
        else:
            text = value
        text = " ".join(text.split())
        if text:
            out[name] = text[:MAX_VALUE_CHARS]
    return out, problems


def dumps(fields: Mapping[str, str]) -> str | None:
    """The fields as the store keeps them (JSON, in FIELDS order), or None for none."""
    if not fields:
        return None
    return json.dumps({k: fields[k] for k in FIELDS if fields.get(k)}, ensure_ascii=False)


def loads(text: str | None) -> dict[str, str]:
    """Stored fields back (anything damaged reads as none: a record is a courtesy, never a failure)."""
    if not text:
        return {}
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return {}
    if not isinstance(value, dict):
        return {}
    return {k: v for k, v in value.items() if k in FIELDS and isinstance(v, str) and v}


def richness(fields: Mapping[str, str]) -> int:
    """How complete a record is (a merge keeps the fuller one whole: two records' fields are not mixed)."""
    return len(fields) + (2 if fields.get("doi") else 0)
