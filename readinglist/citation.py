"""A paper as a citation to paste elsewhere: a line of text, or a BibTeX entry (the export's, without the
reader's own fields: no abstract, note, tags or reading state)."""

from __future__ import annotations

from collections.abc import Sequence

from readinglist.collation import surname
from readinglist.papers import Paper


def _author(name: str) -> str:
    """Ashish Vaswani → Vaswani, A."""
    family = surname(name)
    given = name[: len(name) - len(family)].split() if family and name.endswith(family) else name.split()[:-1]
    initials = " ".join(f"{g[0]}." for g in given if g[:1].isalpha())
    return f"{family}, {initials}" if initials else family or name


def text_citation(p: Paper) -> str:
    """Vaswani, A., Shazeer, N., … (2017). Attention is all you need. NeurIPS. https://…"""
    names = [_author(a) for a in p.authors]
    if len(names) > 6:
        names = [*names[:6], "et al."]
    head = " ".join(x for x in (", ".join(names), f"({p.year})" if p.year else "") if x)
    parts = [f"{head}." if head else "", p.title.rstrip(".") + "."]
    if p.venue:
        parts.append(f"{p.venue}.")
    if p.url:
        parts.append(p.url)
    return " ".join(x for x in parts if x)


def text_citations(papers: Sequence[Paper]) -> str:
    """The papers' citations, a line each, as an export writes their text (no control character)."""
    from readinglist.export import printable

    return "\n".join(text_citation(p) for p in printable(papers))


def bibtex_citations(papers: Sequence[Paper]) -> str:
    from dataclasses import replace

    from readinglist.export import ExportOptions, render

    plain = [replace(p, abstract="", note="", tags=[]) for p in papers]
    text = render(plain, ExportOptions(format="bibtex", notes=False))
    return "\n".join(line for line in text.splitlines() if "readstatus" not in line).strip() + "\n"
