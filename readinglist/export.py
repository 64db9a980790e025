"""Writers for what a reader takes elsewhere: Markdown notes, BibTeX for a paper, CSV, JSON.

Files are written atomically (a temporary file beside the target, then a rename), so an interrupted export
never leaves half a reading list where the old one was.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import tempfile
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from readinglist import paths
from readinglist.markup import escape_markdown, title_plain, to_markdown
from readinglist.papers import EXPORT_FORMATS, STATE_LABELS, STATES, Paper

CODE_HOSTS = ("github.com", "gitlab.com", "huggingface.co", "bitbucket.org", "codeberg.org")
GROUP_ORDER = tuple(reversed(STATES))  # a reading list starts with what was read
GROUPS = ("state", "tag", "none")


@dataclass
class ExportOptions:
    format: str = "markdown"
    group: str = "state"  # "state" | "tag" | "none"
    abstracts: bool = False
    notes: bool = True
    query: str = ""
    scope: str = ""  # a human description ("current results", "selection", "all papers")


def render(papers: Sequence[Paper], options: ExportOptions, today: date | None = None) -> str:
    if options.format == "markdown":
        return markdown(papers, options, today)
    if options.format == "bibtex":
        return bibtex(papers, options)
    if options.format == "csv":
        return csv_text(papers)
    if options.format == "json":
        return json.dumps([p.to_json() for p in papers], ensure_ascii=False, indent=2) + "\n"
    raise ValueError(f"unknown export format {options.format!r}; use one of {', '.join(EXPORT_FORMATS)}")


def write_atomic(path: Path, text: str, encoding: str = "utf-8") -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.fchmod(fd, 0o666 & ~paths.umask())  # the user's umask, not mkstemp's 0600 (issue 14)
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def export(papers: Sequence[Paper], options: ExportOptions, path: Path) -> None:
    # CSV carries a byte-order mark so that spreadsheets read it as UTF-8
    write_atomic(path, render(papers, options), "utf-8-sig" if options.format == "csv" else "utf-8")


# ---- Markdown -----------------------------------------------------------------------------------------


def code_links(p: Paper) -> list[str]:
    return [u for u in p.links if any(h in u.lower() for h in CODE_HOSTS)]


def _item(p: Paper, options: ExportOptions) -> list[str]:
    box = "[x]" if p.state == "read" else "[ ]"
    title = escape_markdown(p.title)
    head = f"- {box} **[{title}]({p.url})**" if p.url else f"- {box} **{title}**"
    if p.state == "skimmed":
        head += " *(skimmed)*"
    meta = " ".join(x for x in (p.venue, str(p.year or "")) if x)
    bits = [meta] if meta else []
    if p.authors:
        shown = ", ".join(p.authors[:3]) + (" et al." if len(p.authors) > 3 else "")
        bits.insert(0, escape_markdown(shown))
    if p.tags:
        bits.append(" ".join(f"`{t}`" for t in p.tags))
    codes = code_links(p)
    if codes:
        bits.append(" ".join(f"[code]({u})" if i == 0 else f"[code {i + 1}]({u})" for i, u in enumerate(codes)))
    lines = [head + (" — " + " · ".join(bits) if bits else "")]
    if options.notes and p.note.strip():
        lines.append("")
        lines += ["  " + line if line.strip() else "" for line in p.note.strip().splitlines()]
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
    title = "Reading list" + (f" — {venues[0]}" if len(venues) == 1 else "")
    scope = []
    if options.query:
        scope.append(f"query `{options.query.replace('`', '')}`")
    if options.scope:
        scope.append(options.scope)
    scope += [today.isoformat(), f"{len(papers)} paper{'s' if len(papers) != 1 else ''}"]
    read = sum(p.state == "read" for p in papers)
    scope.append(f"{read} read")
    out = [f"# {title}", "", " · ".join(scope), ""]
    groups: list[tuple[str, list[Paper]]]
    if options.group == "tag":
        by_tag: dict[str, list[Paper]] = {}
        untagged = []
        for p in papers:
            for t in p.tags:
                by_tag.setdefault(t, []).append(p)
            if not p.tags:
                untagged.append(p)
        groups = [(f"`{t}`", by_tag[t]) for t in sorted(by_tag, key=str.casefold)]
        if untagged:
            groups.append(("Untagged", untagged))
    elif options.group == "state":
        groups = [(STATE_LABELS[s], [p for p in papers if p.state == s]) for s in GROUP_ORDER]
    else:
        groups = [("", list(papers))]
    for heading, members in groups:
        if not members:
            continue
        if heading:
            out += [f"## {heading} ({len(members)})", ""]
        for p in members:
            out += _item(p, options)
        if out[-1] != "":
            out.append("")
    return "\n".join(out).rstrip() + "\n"


# ---- BibTeX -------------------------------------------------------------------------------------------


def _balanced(text: str) -> bool:
    depth = 0
    for i, ch in enumerate(text):
        if ch in "{}" and i and text[i - 1] == "\\":
            continue
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def _bib_value(text: str) -> str:
    """A BibTeX value (bibtexparser adds the braces); braces that would break the entry become parentheses."""
    if not _balanced(text):
        text = text.replace("{", "(").replace("}", ")")
    return text


def cite_key(p: Paper, taken: set[str]) -> str:
    last = p.authors[0].split()[-1] if p.authors else (p.venue or "paper")
    words = [w for w in re.findall(r"[A-Za-z0-9]+", title_plain(p.title)) if len(w) > 3]
    base = f"{last}{p.year or ''}{words[0] if words else p.uid}"
    base = unicodedata.normalize("NFKD", base).encode("ascii", "ignore").decode().lower()
    base = re.sub(r"[^a-z0-9]", "", base) or p.uid
    key, n = base, 1
    while key in taken:
        key, n = f"{base}{chr(ord('a') + n - 1) if n <= 26 else n}", n + 1
    taken.add(key)
    return key


def bibtex(papers: Sequence[Paper], options: ExportOptions) -> str:
    import bibtexparser  # only here: it costs start-up time for a format most sessions never write
    from bibtexparser.library import Library as BibLibrary
    from bibtexparser.model import Entry, Field

    lib = BibLibrary()
    taken: set[str] = set()
    for p in papers:
        fields = [Field("title", _bib_value(p.raw_title or p.title))]
        if p.user_title:
            fields[0] = Field("title", _bib_value(p.user_title))
        if p.authors:
            fields.append(Field("author", _bib_value(" and ".join(p.authors))))
        if p.venue:
            fields.append(Field("booktitle", _bib_value(p.venue)))
        if p.year:
            fields.append(Field("year", str(p.year)))
        if p.url:
            fields.append(Field("url", _bib_value(p.url)))
        if p.abstract:
            fields.append(Field("abstract", _bib_value(p.abstract)))
        if p.tags:
            fields.append(Field("keywords", _bib_value(", ".join(p.tags))))
        if options.notes and p.note.strip():
            fields.append(Field("note", _bib_value(p.note.strip())))
        fields.append(Field("readstatus", _bib_value(p.state)))
        lib.add(Entry("inproceedings", cite_key(p, taken), fields))
    return bibtexparser.write_string(lib)


# ---- CSV ----------------------------------------------------------------------------------------------

CSV_COLUMNS = ["id", "title", "authors", "venue", "year", "state", "tags", "note", "url", "links", "abstract"]


def csv_text(papers: Sequence[Paper]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(CSV_COLUMNS)
    for p in papers:
        w.writerow(
            [
                p.uid,
                p.title,
                "; ".join(p.authors),
                p.venue,
                p.year or "",
                p.state,
                ", ".join(p.tags),
                p.note,
                p.url,
                " ".join(p.links),
                p.plain_abstract,
            ]
        )
    return buf.getvalue()
