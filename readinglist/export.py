"""Writers for what a reader takes elsewhere: Markdown, BibTeX (ASCII or UTF-8), CSV, JSON, CSL-JSON, RIS,
and a folder of notes for Obsidian or Logseq (one file per paper; notes_folder.py merges it back).

Files are written atomically through filewrite (a temporary file beside the file the name means, then a
rename), so an interrupted export never leaves half a reading list where the old one was. Every writer is
inert whatever the library holds: Markdown through mdtext, CSV cells that a spreadsheet would read as a
formula quoted as OWASP advises.

Over 400 lines: one writer per format, each short; they share the paper fields, the grouping and the escaping
helpers, and the CLI and the window pick among them by one table (papers.EXPORT_FORMATS).
"""

from __future__ import annotations

import contextlib
import csv
import functools
import hashlib
import io
import json
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date
from pathlib import Path

from readinglist import biblio, citation, citekeys, latex, markup, mdtext
from readinglist.collation import name_key
from readinglist.filewrite import sync_files, write_text
from readinglist.importers.markdown import YEAR_END_RE  # what a venue ending in a year reads back as
from readinglist.markup import to_markdown
from readinglist.papers import (
    CSV_COLUMNS,
    CSV_RECORD_COLUMNS,
    EXPORT_FORMATS,
    EXPORT_GROUPS,
    FORMULA_STARTS,
    PRIORITIES,
    REPORT_ORDER,
    STATE_LABELS,
    ExportError,
    ExportOptions,
    Paper,
)

CODE_HOSTS = ("github.com", "gitlab.com", "huggingface.co", "bitbucket.org", "codeberg.org")
GROUP_ORDER = REPORT_ORDER  # read, skimmed, queued, unread, skipped: a reading list starts with what was read
GROUPS = EXPORT_GROUPS
LIST_NOTE_DEPTH = 2  # a note's `# Heading` is `###` in the reading list: under its section's `##`


def printable(papers: Sequence[Paper]) -> list[Paper]:
    """The papers as an export writes them: without control characters in their text (biblio.without_controls).
    An import takes them out, but a library imported before it did may hold a title with a NUL or a terminal's
    escape, which a CSV cell, a Markdown line or a YAML front matter would carry as it is."""
    return [_printable(p) for p in papers]


def _printable(p: Paper) -> Paper:
    texts = [p.title, p.raw_title, p.auto_title, p.user_title or "", p.abstract, p.venue, p.note, p.url]
    if not biblio.has_controls(" ".join(texts + p.authors + p.tags + p.links)):
        return p
    clean, line = biblio.without_controls, biblio.one_line_without_controls
    return replace(
        p, title=line(p.title), raw_title=line(p.raw_title), auto_title=line(p.auto_title),
        user_title=line(p.user_title) if p.user_title is not None else None, abstract=clean(p.abstract),
        plain_abstract=clean(p.plain_abstract), authors=[a for a in map(line, p.authors) if a], venue=line(p.venue),
        note=clean(p.note), url=line(p.url), links=[u for u in map(line, p.links) if u],
        tags=[t for t in map(line, p.tags) if t], keywords=[k for k in map(line, p.keywords) if k],
    )  # fmt: skip


def render(papers: Sequence[Paper], options: ExportOptions, today: date | None = None) -> str:
    papers = printable(papers)
    if options.format == "markdown":
        return markdown(papers, options, today)
    if options.format in ("bibtex", "biblatex"):
        return bibtex(papers, options)
    if options.format == "csv":
        return csv_text(papers)
    if options.format == "json":
        return json.dumps([p.to_json() for p in papers], ensure_ascii=False, indent=2) + "\n"
    if options.format == "csljson":
        return csl_json(papers, options)
    if options.format == "ris":
        return ris(papers, options)
    if options.format == "obsidian":  # a folder: its files one after another, for a look (export writes them)
        return "\n".join(f"<!-- {name} -->\n{text}" for name, text in folder_files(papers, options, today).items())
    raise ValueError(f"unknown export format {options.format!r}; use one of {', '.join(EXPORT_FORMATS)}")


def export(papers: Sequence[Paper], options: ExportOptions, path: Path) -> None:
    """Render and write; an ExportError (an OSError) says why a name cannot be written (a folder, a device).
    The Obsidian/Logseq format writes a folder, `path`."""
    if options.format == "obsidian":
        export_folder(papers, options, path)
        return
    if not papers and os.path.lexists(path):  # an export of none written over a file emptied a reading list
        raise ExportError(f"{path}: there are no papers to export; the file was left as it was")
    # CSV carries a byte-order mark so that spreadsheets read it as UTF-8
    write_text(path, render(papers, options), "utf-8-sig" if options.format == "csv" else "utf-8")


# ---- Markdown -----------------------------------------------------------------------------------------


def code_links(p: Paper) -> list[str]:
    return [u for u in p.links if any(h in u.lower() for h in CODE_HOSTS)]


def _item(p: Paper, key: str, options: ExportOptions) -> list[str]:
    box = "[x]" if p.state == "read" else "[ ]"
    head = f"- {box} **{mdtext.link(p.title, p.url)}**"
    if p.state not in ("read", "unread"):
        head += f" *({p.state})*"
    if p.priority:
        head += f" `P{p.priority}`"
    meta = mdtext.escape(" ".join(x for x in (p.venue, str(p.year or "")) if x))
    if meta and not p.year and (not p.authors or YEAR_END_RE.match(p.venue) or p.venue.endswith(" n.d.")):
        # a venue without a year reads back as the authors (no authors before it) or as a venue and a year
        # ("…Pervasive Computing 2010"): "n.d." (no date, as a citation says it) marks it the venue, alone
        meta += " n.d."
    bits = [meta] if meta else []
    if p.authors:
        shown = ", ".join(p.authors[:3]) + (" et al." if len(p.authors) > 3 or p.bib.get("moreauthors") else "")
        bits.insert(0, mdtext.escape(shown))
    # the record's say beyond the venue, in italics (which no escaped text starts with: the import skips it),
    # and the DOI's link
    if details := citation.record_details(p):
        bits.append(f"*{mdtext.escape(details)}*")
    if (doi := biblio.normalize_doi(p.doi)) and mdtext.safe_url(biblio.doi_url(doi)):
        bits.append(mdtext.link(f"doi:{doi}", biblio.doi_url(doi)))
    if p.own_tags:  # the reader's tags (a reading list; a file's keywords are not theirs)
        bits.append(" ".join(mdtext.code_span(t) for t in p.own_tags))
    codes = [u for u in code_links(p) if mdtext.safe_url(u)]
    if codes:
        bits.append(" ".join(mdtext.link("code" if i == 0 else f"code {i + 1}", u) for i, u in enumerate(codes)))
    # last, named: a code span the reader copies into a \cite{}, which a tags bit (code spans alone) is not
    bits.append(f"key {mdtext.code_span(key)}")
    lines = [head + (" — " + " · ".join(bits) if bits else "")]
    if options.notes and p.note.strip():
        lines.append("")
        note = mdtext.inert_note(mdtext.shift_headings(p.note.strip(), LIST_NOTE_DEPTH))
        lines += ["  " + line if line.strip() else "" for line in note.splitlines()]
    if options.abstracts and p.abstract:
        lines.append("")
        for para in to_markdown(p.abstract).split("\n\n"):
            lines.append("  > " + para)
            lines.append("  >")
        lines.pop()
    if len(lines) > 1:
        lines.append("")
    return lines


def markdown(papers: Sequence[Paper], options: ExportOptions, today: date | None = None) -> str:
    today = today or date.today()
    venues = sorted({f"{p.venue} {p.year}".strip() for p in papers if p.venue})
    title = "Reading list" + (f" — {mdtext.escape(venues[0])}" if len(venues) == 1 else "")
    scope = []
    if options.query:
        scope.append(f"query {mdtext.code_span(options.query)}")
    if options.scope:
        scope.append(mdtext.escape(options.scope))
    scope += [today.isoformat(), f"{len(papers)} paper{'s' if len(papers) != 1 else ''}"]
    read = sum(p.state == "read" for p in papers)
    scope.append(f"{read} read")
    out = [f"# {title}", "", " · ".join(scope), ""]
    groups: list[tuple[str, list[Paper]]]
    if options.group == "tag":
        by_tag: dict[str, list[Paper]] = {}
        untagged = []
        for p in papers:
            for t in p.own_tags:  # a file's hundreds of keywords would each make a group
                by_tag.setdefault(t, []).append(p)
            if not p.own_tags:
                untagged.append(p)
        # in the sidebar's order (name_key: "Éducation" among the e's, not after z)
        groups = [(mdtext.code_span(t), by_tag[t]) for t in sorted(by_tag, key=name_key)]
        if untagged:
            groups.append(("Untagged", untagged))
    elif options.group == "state":  # each state's P1s first, then P2, P3 and the rest, in the order given
        by_priority = sorted(papers, key=lambda p: p.priority or len(PRIORITIES) + 1)
        groups = [(STATE_LABELS[s], [p for p in by_priority if p.state == s]) for s in GROUP_ORDER]
    else:
        groups = [("", list(papers))]
    keys = {id(p): key for p, key in zip(papers, _keys(papers), strict=True)}
    for heading, members in groups:
        if not members:
            continue
        if heading:
            out += [f"## {heading} ({len(members)})", ""]
        for p in members:
            out += _item(p, keys[id(p)], options)
        if out[-1] != "":
            out.append("")
    return "\n".join(out).rstrip() + "\n"


# ---- BibTeX -------------------------------------------------------------------------------------------

# JabRef's readstatus knows read and skimmed, and writes no field for unread; queued and skipped are ours,
# written the same way (JabRef keeps a value it does not know as text, and readinglist reads it back)
JABREF_READSTATUS = {"read": "read", "skimmed": "skimmed", "queued": "queued", "skipped": "skipped"}
JABREF_PRIORITY = {1: "prio1", 2: "prio2", 3: "prio3"}  # JabRef's priority field: 1 is the highest


def jabref_priority(priority: int | None) -> str | None:
    """JabRef's `priority` value for a priority 1–3 (bibtex_entry writes it)."""
    return JABREF_PRIORITY.get(priority) if priority is not None else None


def _fallback_keys(papers: Sequence[Paper]) -> dict[int, str]:
    """Keys for papers that have none stored (built outside a library): made unique within this export."""
    taken = {p.citation_key.lower() for p in papers if p.citation_key}
    out: dict[int, str] = {}
    for p in papers:
        if not p.citation_key:
            base = citekeys.base_key(p.auto_title or p.title, p.authors, p.year)
            key = citekeys.unique_key(base, lambda k: k.lower() in taken)
            taken.add(key.lower())
            out[id(p)] = key
    return out


def _bib_names(authors: Sequence[str], ascii_only: bool) -> str:
    """BibTeX's `and`-separated names; a name bibtex would misread (two commas, an "and" inside) is braced
    whole, as a corporate author is."""
    names = []
    for name in authors:
        text = latex.plain_to_bibtex(name, ascii_only).replace("\n", " ")
        if name.count(",") > 1 or re.search(r"\sand\s", name, re.I):
            text = "{" + text + "}"
        names.append(text)
    return " and ".join(names)


# a URL the url field holds as it is: ASCII, no space, brace or backslash. Parentheses stay (Markdown's encoding
# of them, safe_url's, made a DOI's link …0921-4534%2889%2990484-X, another link after a re-import)
_VERBATIM_URL_RE = re.compile(r"[!-\[\]-z|~]+")


def bibtex_entry(p: Paper, key: str, options: ExportOptions, ascii_only: bool) -> str:
    # the reader's title is shown as typed: its braces are characters ("{001}"), not protection
    title = markup.braces_as_text(p.user_title) if p.user_title else (p.raw_title or p.title)
    fields: list[tuple[str, str]] = [("title", latex.to_bibtex(title, ascii_only, title=True))]
    if p.authors:
        more = " and others" if p.bib.get("moreauthors") else ""  # a list the file cut short says so again
        fields.append(("author", _bib_names(p.authors, ascii_only) + more))
    # the type as the file had it (JabRef's @patent, biblatex's @online: a style that knows none reads @misc)
    kind = p.bib.get("type") or ("inproceedings" if p.venue else "misc")
    containers = [(n, p.bib[n]) for n in biblio.CONTAINERS if p.bib.get(n)]  # an article's special issue: both
    if not containers and p.venue:
        containers = [("journal" if kind == "article" else "booktitle", p.venue)]
    fields += [(name, latex.plain_to_bibtex(value, ascii_only)) for name, value in containers]
    if p.year:
        fields.append(("year", str(p.year)))
    fields += bib_record_fields(p.bib, ascii_only)
    target = mdtext.safe_url(p.url) if p.url else None
    if target:  # verbatim, as the doi: inside braces `%` and `#` are characters to bibtex, biber and the url package
        fields.append(("url", p.url if _VERBATIM_URL_RE.fullmatch(p.url) else target))
    if p.abstract:
        fields.append(("abstract", latex.to_bibtex(p.abstract, ascii_only)))
    if p.tags:
        fields.append(("keywords", _bib_keywords(p.tags, ascii_only)))
    if p.own_tags:  # which of them are the reader's, not a file's keywords (as Mendeley's mendeley-tags)
        fields.append(("readinglist-tags", _bib_keywords(p.own_tags, ascii_only)))
    if options.notes and p.note.strip():
        fields.append(("annote", latex.note_to_bibtex(p.note, ascii_only)))
    if p.state in JABREF_READSTATUS:
        fields.append(("readstatus", JABREF_READSTATUS[p.state]))
    if p.priority:
        fields.append(("priority", jabref_priority(p.priority) or ""))
    body = ",\n".join(_bib_field(name, value) for name, value in fields if value)
    # outside the entry BibTeX reads nothing: a reader who opens the file sees the title is no paper's own
    derived = "% The source had no title: readinglist derived this one from the abstract.\n" if p.title_derived else ""
    return f"{derived}@{kind}{{{key},\n{body}\n}}\n"


def _bib_keywords(tags: Sequence[str], ascii_only: bool) -> str:
    """A BibTeX keywords list, ", " between keywords (biber splits the field at top-level commas only: a "; "
    made the whole list one keyword to \\printbibliography[keyword=…]); a keyword holding a comma or a
    semicolon ("Optimization, convex") braced, which biber and the importer read as one keyword."""
    return ", ".join(
        "{" + latex.plain_to_bibtex(t, ascii_only) + "}"
        if _SEPARATORS.intersection(t)
        else latex.plain_to_bibtex(t, ascii_only)
        for t in tags
    )


_SEPARATORS = frozenset(",;")  # what an importer splits a keywords text at (importers.base.split_tags)


def joined_keywords(tags: Sequence[str]) -> str:
    """Keywords in one text value (a CSV cell, CSL-JSON's `keyword`): comma-separated, or, when one holds a
    comma or a semicolon ("Optimization, convex"), each followed by a line break: the last one's tells a single
    such keyword from a list of one line (split_tags reads both back)."""
    return "".join(t + "\n" for t in tags) if any(_SEPARATORS.intersection(t) for t in tags) else ", ".join(tags)


# the record's fields BibTeX writes as they are (biblatex reads doi and eprint verbatim: an escaped underscore,
# \% or \# would be part of the DOI); biblio keeps them free of braces, backslashes and spaces. Inside the braces
# `%` is no comment and `#` no concatenation to bibtex, biber or bibtexparser (tests/test_tex_compile.py)
_VERBATIM_CHECKED: dict[str, Callable[[str], bool]] = {
    "doi": lambda v: biblio.normalize_doi(v) == v,
    "eprint": biblio.is_eprint,
}
_VERBATIM = frozenset(_VERBATIM_CHECKED)
_MONTH_MACROS = biblio.MONTH_NAMES  # jan … dec: BibTeX's and biblatex's own month macros


class _Macro(str):
    """A value BibTeX reads as a macro (a month's `jun`): written bare, not braced."""


def _bib_field(name: str, value: str) -> str:
    return f"  {name} = {value}" if isinstance(value, _Macro) else f"  {name} = {{{value}}}"


def bib_record_fields(bib: dict[str, str], ascii_only: bool) -> list[tuple[str, str]]:
    """A paper's bibliographic record as BibTeX fields (its type and container apart: bibtex_entry writes
    them): pages with BibTeX's en dash, a month as its macro, editors as names; an arXiv eprint as biblatex
    names it (eprinttype, eprintclass) or, in a BibTeX file, as arXiv asks (archivePrefix, primaryClass)."""
    out: list[tuple[str, str]] = []
    for name in biblio.FIELDS:
        value = bib.get(name, "")
        if not value or name in ("type", "moreauthors") or name in biblio.CONTAINERS:
            continue
        if name in _VERBATIM:
            if not _VERBATIM_CHECKED[name](value):
                continue  # not what biblio keeps (a record stored before): a brace would end the entry
            text = value
            if ascii_only and not value.isascii():
                if name != "doi":
                    continue  # verbatim, so never escaped
                # a DOI is Unicode, and a doi field verbatim: no escape makes "10.1000/café" ASCII there (biber
                # refused the whole file for it). Percent-encoded as its link is, it resolves and reads back
                text = biblio.doi_url(value).removeprefix(biblio.DOI_URL)
        elif name == "pages":
            text = latex.plain_to_bibtex(value, ascii_only).replace("-", "--")
        elif name == "month" and (month := biblio.month_of(value)) is not None:
            text = _Macro(_MONTH_MACROS[month - 1])
        elif name == "month" and any(c.isdigit() for c in value):
            continue  # 13, ²: no month (a record stored before they were left out)
        elif name == "editor":
            text = _bib_names(biblio.editor_names(value), ascii_only)
        else:
            text = latex.plain_to_bibtex(value, ascii_only)
        if ascii_only and name in ("eprinttype", "eprintclass"):
            name = {"eprinttype": "archivePrefix", "eprintclass": "primaryClass"}[name]
        out.append((name, text))
    return out


def bibtex(papers: Sequence[Paper], options: ExportOptions) -> str:
    """BibTeX that compiles (see latex): plain ASCII with LaTeX escapes for the "bibtex" format (bibtex,
    biber, any engine), UTF-8 for "biblatex". Each paper under its stored citation key."""
    ascii_only = options.format != "biblatex"
    return "\n".join(bibtex_entry(p, key, options, ascii_only) for p, key in zip(papers, _keys(papers), strict=True))


# ---- CSV ----------------------------------------------------------------------------------------------


def csv_cell(value: object) -> str:
    """A cell a spreadsheet shows as text: formula-leading text gets a leading apostrophe (which the
    spreadsheet hides); numbers stay numbers."""
    if isinstance(value, int):
        return str(value)
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_text(papers: Sequence[Paper]) -> str:
    """The papers as CSV_COLUMNS: the paper's fields (its citation key among them, which a fresh library's
    import keeps), then its record's (empty where it has none), each a cell the CSV importer reads back."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(CSV_COLUMNS)
    for p, key in zip(papers, _keys(papers), strict=True):
        w.writerow(
            csv_cell(v)
            for v in [
                p.uid,
                key,
                p.title,
                "; ".join(p.authors),
                p.venue,
                p.year or "",
                p.state,
                p.priority or "",
                joined_keywords(p.own_tags),
                p.note,
                p.url,
                " ".join(p.links),
                p.plain_abstract,
                joined_keywords(p.keywords),
                *(p.bib.get(name, "") for name in CSV_RECORD_COLUMNS),
            ]
        )
    return buf.getvalue()


# ---- CSL-JSON (pandoc, Zotero, citeproc) and RIS (Zotero, EndNote, Mendeley) ----------------------------

_PARTICLES = frozenset({"van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "la", "le", "ter", "ten"})
_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})


# an author list the file cut short ("and others": the record's moreauthors), as CSL-JSON and RIS write it
CSL_OTHERS = {"literal": "others"}
RIS_OTHERS = "et al."


def split_name(author: str) -> dict[str, str]:
    """A name as CSL wants it: family, given, particle, suffix; a name that is not one person's (two
    commas: a list someone typed as one name) as a literal."""
    author = " ".join(author.split())
    if author.count(",") > 1 or not author:
        return {"literal": author}
    if "," in author:
        family, given = (part.strip() for part in author.split(",", 1))
        return {"family": family, "given": given} if given else {"literal": family}
    words = author.split(" ")
    suffix = words.pop() if len(words) > 2 and words[-1].lower() in _SUFFIXES else ""
    if len(words) == 1:
        return {"literal": words[0]}
    i = len(words) - 1
    while i > 1 and words[i - 1].lower() in _PARTICLES:
        i -= 1
    name = {"family": words[-1], "given": " ".join(words[:i])}
    if i < len(words) - 1:
        name["non-dropping-particle"] = " ".join(words[i:-1])
    if suffix:
        name["suffix"] = suffix
    return name


def _keys(papers: Sequence[Paper]) -> list[str]:
    fallback = _fallback_keys(papers)
    return [p.citation_key or fallback[id(p)] for p in papers]


def csl_item(p: Paper, key: str, options: ExportOptions) -> dict[str, object]:
    """One paper as CSL-JSON: what citeproc, pandoc (--citeproc) and Zotero read, under its citation key."""
    bib = p.bib
    item: dict[str, object] = {
        "id": key,
        "citation-key": key,
        "type": biblio.csl_type(bib["type"]) if bib.get("type") else "paper-conference" if p.venue else "article",
        "title": " ".join(p.title.split()),  # already plain: the imported title decoded, or the user's
    }
    if p.authors:
        # a list the file cut short ends as pandoc writes BibTeX's "and others", which its citeproc renders
        # "et al." (and the import reads back as such)
        more = [dict(CSL_OTHERS)] if bib.get("moreauthors") else []
        item["author"] = [split_name(a) for a in p.authors] + more
    container = bib.get("journal") or bib.get("booktitle") or p.venue
    if container:
        item["container-title"] = container
    if p.year:
        month = biblio.month_of(bib.get("month", ""))
        item["issued"] = {"date-parts": [[p.year, month] if month is not None else [p.year]]}
    item |= csl_record_fields(bib)
    target = mdtext.safe_url(p.url) if p.url else None
    if target:
        item["URL"] = p.url
    if p.plain_abstract:
        item["abstract"] = p.plain_abstract
    if p.tags:
        item["keyword"] = joined_keywords(p.tags)
    if options.notes and p.note.strip():
        item["annote"] = p.note.strip()
    return item


_CSL_FIELDS = {"doi": "DOI", "volume": "volume", "number": "issue", "pages": "page", "publisher": "publisher",
               "address": "publisher-place", "edition": "edition", "series": "collection-title",
               "chapter": "chapter-number", "isbn": "ISBN", "issn": "ISSN"}  # fmt: skip
_CSL_REPORTS = frozenset(("techreport", "report"))


def csl_record_fields(bib: dict[str, str]) -> dict[str, object]:
    """A paper's bibliographic record in CSL-JSON's names (its type, container and month apart: csl_item
    writes them): a report's number is its number, an article's its issue; a thesis's school and a report's
    institution are their publisher, as CSL has it."""
    out: dict[str, object] = {}
    for name, csl in _CSL_FIELDS.items():
        if bib.get(name):
            out["number" if name == "number" and bib.get("type") in _CSL_REPORTS else csl] = bib[name]
    if not bib.get("publisher") and (school := bib.get("school") or bib.get("institution")):
        out["publisher"] = school
    if bib.get("editor"):
        out["editor"] = [split_name(n) for n in biblio.editor_names(bib["editor"])]
    return out


def csl_json(papers: Sequence[Paper], options: ExportOptions) -> str:
    items = [csl_item(p, key, options) for p, key in zip(papers, _keys(papers), strict=True)]
    return json.dumps(items, ensure_ascii=False, indent=2) + "\n"


def _ris_value(text: str) -> str:
    """One line: a line break inside a value would let a line of it read as a tag (`ER  - ` ends a record);
    without control characters (a terminal's escape, a NUL), which no RIS reader wants."""
    return " ".join(biblio.without_controls(text).split())


def ris_record(p: Paper, key: str, options: ExportOptions) -> list[str]:
    def tag(name: str, value: str) -> None:
        value = _ris_value(value)
        if value:
            lines.append(f"{name}  - {value}")

    bib = p.bib
    kind = biblio.ris_type(bib["type"]) if bib.get("type") else "CPAPER" if p.venue else "GEN"
    lines: list[str] = [f"TY  - {kind}"]
    tag("ID", key)
    tag("TI", p.title)
    for author in p.authors:
        tag("AU", _ris_name(author))
    if p.authors and bib.get("moreauthors"):
        tag("AU", RIS_OTHERS)  # a list the file cut short, as EndNote writes one (the RIS import reads it so)
    tag("T2", bib.get("journal") or bib.get("booktitle") or p.venue)
    if p.year:
        tag("PY", str(p.year))
        if (month := biblio.month_of(bib.get("month", ""))) is not None:
            tag("DA", f"{p.year}/{month:02d}")
    for name in biblio.editor_names(bib.get("editor", "")):
        tag("ED", _ris_name(name))
    for ris_tag, value in ris_record_fields(bib):
        tag(ris_tag, value)
    if p.url and mdtext.safe_url(p.url):
        tag("UR", p.url)
    tag("AB", p.plain_abstract)
    for t in p.tags:
        tag("KW", t)
    if options.notes:
        tag("N1", p.note)
    lines.append("ER  - ")
    return lines


def _ris_name(author: str) -> str:
    """A name as RIS writes it: "Family, Given[, Suffix]"."""
    name = split_name(author)
    if "literal" in name:
        return name["literal"]
    family = " ".join(x for x in (name.get("non-dropping-particle", ""), name["family"]) if x)
    return ", ".join(x for x in (family, name["given"], name.get("suffix", "")) if x)


def ris_record_fields(bib: dict[str, str]) -> list[tuple[str, str]]:
    """A paper's bibliographic record as RIS tags (its type, container and editors apart: ris_record writes
    them): DO, VL, IS, SP/EP, PB (a thesis's school, a report's institution), CY, SN, ET, T3."""
    out: list[tuple[str, str]] = []
    for name, ris_tag in (("doi", "DO"), ("volume", "VL"), ("number", "IS")):
        if bib.get(name):
            out.append((ris_tag, bib[name]))
    if bib.get("pages"):
        first, last = biblio.split_pages(bib["pages"])
        out += [("SP", first)] + ([("EP", last)] if last else [])
    publisher = bib.get("publisher") or bib.get("school") or bib.get("institution")
    for ris_tag, value in (("PB", publisher), ("CY", bib.get("address")), ("SN", bib.get("issn") or bib.get("isbn")),
                           ("ET", bib.get("edition")), ("T3", bib.get("series"))):  # fmt: skip
        if value:
            out.append((ris_tag, value))
    return out


def ris(papers: Sequence[Paper], options: ExportOptions) -> str:
    """RIS, as its specification writes it: CRLF line ends, a blank line between records."""
    records = ["\r\n".join(ris_record(p, key, options)) for p, key in zip(papers, _keys(papers), strict=True)]
    return "\r\n\r\n".join(records) + "\r\n"


# ---- Obsidian / Logseq: a folder of notes, one per paper ------------------------------------------------

FOLDER_NOTE_DEPTH = 1  # a note's `# Heading` is `##` in its paper's file, under the paper's `# Title`
FOLDER_FIELDS = ("state", "priority", "tags", "note")  # what a re-import of the folder merges back
_UNSAFE_NAME_RE = re.compile(r"[^A-Za-z0-9._-]+")
_RESERVED_NAMES = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}


def field_value(name: str, p: Paper) -> object:
    """One of FOLDER_FIELDS as the merge compares it (tags as a set, a note without surrounding blank lines)."""
    if name == "state":
        return p.state
    if name == "priority":
        return p.priority
    if name == "tags":
        return sorted(p.tags)
    return p.note.strip()


def value_hash(value: object) -> str:
    """A short fingerprint of a field's value: what the front matter records as exported."""
    if isinstance(value, list):
        value = sorted(value)
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:10]


def note_file_name(key: str, taken: set[str]) -> str:
    """A file name from a citation key that every file system takes: letters, digits, . _ - only, no leading
    dot, no device name (Windows), at most 100 characters, unique in the folder whatever the case."""
    base = _UNSAFE_NAME_RE.sub("_", key).strip("._") or "paper"
    base = base[:100]
    if base.lower() in _RESERVED_NAMES:
        base += "_"
    name, n = base, 1
    while name.lower() in taken:
        n += 1
        name = f"{base}-{n}"
    taken.add(name.lower())
    return name + ".md"


def folder_note_body(p: Paper, options: ExportOptions) -> tuple[str, str]:
    """(the note as the file holds it, the note as a re-import reads it back): headings one level deeper,
    raw HTML and foreign links disarmed."""
    written = mdtext.inert_note(mdtext.shift_headings(p.note.strip(), FOLDER_NOTE_DEPTH)) if options.notes else ""
    return written, mdtext.live_note(mdtext.shift_headings(written, -FOLDER_NOTE_DEPTH).strip())


# Plain YAML scalars that some reader takes for a number, a boolean, a null or a date: YAML 1.2's core schema
# (Obsidian's, js-yaml's: 039471 is the number 39471, 1e5 a float) and YAML 1.1's (PyYAML's, Logseq's older
# readers: yes, off, y, 1:20, 2024-01-02). A string like one is written quoted, whatever field holds it.
_YAML_NOT_TEXT_RE = re.compile(
    r"""[-+]?(?:[0-9][0-9_]*|0o[0-7]+|0x[0-9a-fA-F_]+|0b[01_]+)
    |[-+]?(?:\.[0-9]+|[0-9][0-9_]*(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?
    |[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)
    |~|null|Null|NULL|true|True|TRUE|false|False|FALSE
    |y|Y|n|N|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF
    |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?
    |[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt\s].*)?
    |<<|=""",
    re.X,
)


@functools.cache
def _front_matter_dumper() -> type:
    """PyYAML's safe dumper (libyaml's, where PyYAML has it: 5× faster) that quotes every string a reader
    could take for something else: PyYAML quotes what YAML 1.1 would misread, not 039471, which Obsidian
    made the number 39471 (a trial), losing the zero the merge finds the paper by."""
    import yaml

    base = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

    def text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
        style = "'" if _YAML_NOT_TEXT_RE.fullmatch(value) else None  # as PyYAML quotes what it would misread
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    class FrontMatterDumper(base):  # type: ignore[misc,valid-type]
        pass

    FrontMatterDumper.add_representer(str, text)
    return FrontMatterDumper


def folder_note(p: Paper, key: str, options: ExportOptions, today: date) -> str:
    """One paper's file: YAML front matter (what Obsidian shows as properties and Logseq reads), the
    paper's title as the heading, the abstract (when asked for) as a collapsed callout, then the note."""
    import yaml

    library, p = p, _printable(p)  # the marks say what the library has, the file what it shows
    written, read_back = folder_note_body(p, options)
    marks = []
    for name in FOLDER_FIELDS:
        lib_hash = value_hash(field_value(name, library) if name != "note" or options.notes else "")
        file_hash = value_hash(read_back if name == "note" else field_value(name, p))
        marks.append(f"{name}={lib_hash}" + (f"/{file_hash}" if file_hash != lib_hash else ""))
    front: dict[str, object] = {
        "id": p.uid,
        "citation-key": key,
        "title": p.title,
        "authors": list(p.authors),
        "venue": p.venue or None,
        "year": p.year,
        "state": p.state,
        "priority": p.priority,
        "tags": list(p.tags),
        "links": [u for u in ([p.url] if p.url else []) + [x for x in p.links if x != p.url] if mdtext.safe_url(u)],
        "exported": f"{today.isoformat()} " + " ".join(marks),
    }
    yaml_text = yaml.dump(front, Dumper=_front_matter_dumper(), sort_keys=False, allow_unicode=True, width=10**6,
                          default_flow_style=False)  # fmt: skip
    out = ["---", yaml_text.rstrip("\n"), "---", "", f"# {mdtext.escape(p.title)}", ""]
    if options.abstracts and p.abstract:
        out.append("> [!abstract]- Abstract")
        out += [f"> {line}" if line else ">" for line in to_markdown(p.abstract).split("\n")]
        out.append("")
    if written:
        out += [written, ""]
    return "\n".join(out)


def folder_files(papers: Sequence[Paper], options: ExportOptions, today: date | None = None) -> dict[str, str]:
    """{file name: text} of a notes folder: one file per paper, named from its citation key."""
    today = today or date.today()
    taken: set[str] = set()
    return {note_file_name(key, taken): folder_note(p, key, options, today)
            for p, key in zip(papers, _keys(papers), strict=True)}  # fmt: skip


def export_folder(papers: Sequence[Paper], options: ExportOptions, folder: Path) -> int:
    """Write a notes folder (made if missing); each file atomically. A file of the folder that is not one
    of these papers' is left as it is: the folder may be the user's vault. Returns the files written."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ExportError(f"{folder}: not a folder (the Obsidian/Logseq export writes a folder of notes)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"{folder}: {exc.strerror or exc}") from None
    files = folder_files(papers, options)
    written = []
    for name, text in files.items():
        target = folder / name
        data = text.encode("utf-8")
        with contextlib.suppress(OSError):
            if target.stat().st_size == len(data) and target.read_bytes() == data:
                continue  # as it was: a re-export touches only the notes that changed
        written.append(write_text(target, text, "utf-8", sync=False))
    if written:
        sync_files(written, folder)
    return len(files)
