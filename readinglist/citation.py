"""A paper as a citation to paste elsewhere: a line of text, or a BibTeX entry (the export's, without the
reader's own fields: no abstract, note, tags or reading state).

The line is in APA's order: authors (year). Title. Source. Link. A paper without a bibliographic record is
cited by its venue, as a conference's papers are; one with a record as its kind is (a journal article by its
journal, volume, issue and pages, a chapter by its book, a thesis by its school …), linked by its DOI. Beside the
plain text, the same line as HTML, with APA's italics (a journal and its volume, a book's, a thesis's or a
report's title, the book a chapter is in), which a word processor pastes as such.
"""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from readinglist import biblio
from readinglist.collation import surname
from readinglist.papers import Paper

IN_BOOK = frozenset(("inproceedings", "incollection", "inbook"))  # a part of a book: "In Editors (Eds.), Book"
BOOKS = frozenset(("book", "collection", "proceedings"))
THESES = {"phdthesis": "Doctoral dissertation", "mastersthesis": "Master's thesis", "thesis": "Thesis"}
REPORTS = {"techreport": "Technical report", "report": "Report"}
ITALIC_TITLES = BOOKS | THESES.keys() | REPORTS.keys()  # works that stand alone: APA sets their titles in italics


@dataclass(frozen=True)
class Rich:
    """Text with the stretches APA sets in italics: a citation before it is written as plain text or as HTML.
    Empty stretches are dropped, so that a Rich is empty exactly when its text is."""

    runs: tuple[tuple[str, bool], ...] = ()  # (text, in italics)

    def __str__(self) -> str:
        return "".join(text for text, _ in self.runs)

    def __bool__(self) -> bool:
        return bool(self.runs)

    def __add__(self, other: Rich | str) -> Rich:
        more = other.runs if isinstance(other, Rich) else ((other, False),)
        return Rich(tuple(run for run in (*self.runs, *more) if run[0]))

    def __radd__(self, other: str) -> Rich:
        return Rich() + other + self

    def strip(self, end: str | None = None) -> Rich:
        """Without the white space at either end, nor, at its end, any of `end`'s characters too."""
        runs = list(self.runs)
        while runs and not (cut := runs[0][0].lstrip()):
            runs.pop(0)
        if runs:
            runs[0] = (cut, runs[0][1])
        while runs and not (cut := runs[-1][0].rstrip().rstrip(end).rstrip()):
            runs.pop()
        if runs:
            runs[-1] = (cut, runs[-1][1])
        return Rich(tuple(runs))

    def html(self) -> str:
        """The text escaped, each stretch in italics in <i>…</i>."""
        out = []
        for italic, runs in itertools.groupby(self.runs, key=lambda run: run[1]):
            text = html.escape("".join(text for text, _ in runs))
            out.append(f"<i>{text}</i>" if italic else text)
        return "".join(out)


def _italic(text: str) -> Rich:
    return Rich(((text, True),) if text else ())


def _join(sep: str, parts: Iterable[Rich | str]) -> Rich:
    """The parts that are not empty, `sep` between them (", ".join of text in italics and not)."""
    out = Rich()
    for part in parts:
        if part:
            out = out + sep + part if out else out + part
    return out


def _author(name: str) -> str:
    """Ashish Vaswani → Vaswani, A.; a name kept as "Vaswani, Ashish" (Zotero's) too."""
    name = biblio.person_name(name)
    family = surname(name)
    given = name[: len(name) - len(family)].split() if family and name.endswith(family) else name.split()[:-1]
    initials = " ".join(f"{g[0]}." for g in given if g[:1].isalpha())
    return f"{family}, {initials}" if initials else family or name


def _editor(name: str) -> str:
    """Luigi Menabrea → L. Menabrea: an editor as APA names one after "In"."""
    family, _, initials = _author(name).partition(", ")
    return f"{initials} {family}" if initials else family


def _editors(value: str) -> str:
    """ "L. Menabrea & R. Taylor (Eds.)" of a record's editors ('' for none)."""
    names = [_editor(n) for n in biblio.editor_names(value)]
    if not names:
        return ""
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])}{',' if len(names) > 2 else ''} & {names[-1]}"
    return f"{listed} ({'Ed.' if len(names) == 1 else 'Eds.'})"


APA_LISTED = 20  # APA 7 names up to 20 authors; of more, the first 19, an ellipsis and the last


def _byline(names: list[str]) -> str:
    """Authors as APA 7 lists them, "&" before the last: "Bertram, A., & Wentworth, R." (a comma before it
    even of two, each name holding one); of more than 20, the first 19, ". . ." and the last (APA 7 has no
    "et al." in a reference: a trial's eight-author paper was cut to six)."""
    if len(names) > APA_LISTED:
        return f"{', '.join(names[: APA_LISTED - 1])}, . . . {names[-1]}"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])}, & {names[-1]}" if names else ""


def _sentence(text: Rich | str) -> Rich:
    """The text ending as a sentence does: "Smith, A.", "Why?" and "Wait…" take no second full stop, and a
    comma, semicolon or colon at its end gives way to it ("Foo,." was written)."""
    text = (Rich() + text).strip(",;:")
    return text if not text or str(text).endswith((".", "?", "!", "…")) else text + "."


def _title(text: str) -> str:
    """A title without the full stop it may end on (its sentence ends after what follows it), but with the
    ellipsis it may end on ("Wait...")."""
    return re.sub(r"(?<!\.)\.$", "", text.strip())


def _same_names(authors: Sequence[str], editors: Sequence[str]) -> bool:
    def key(name: str) -> str:
        return " ".join(biblio.person_name(name).split()).casefold()

    return [key(a) for a in authors] == [key(e) for e in editors]


def kind_of(p: Paper) -> str:
    """The paper's entry type: its record's, else what its record's container says it is."""
    bib = p.bib
    return bib.get("type") or ("article" if bib.get("journal") else "inproceedings" if bib.get("booktitle") else "misc")


def pages(bib: dict[str, str]) -> str:
    """ "pp. 169–179", "pp. 1, 5", "p. e1234" or ''."""
    value = bib.get("pages", "")
    return ("pp. " if "-" in value or "," in value else "p. ") + page_text(value) if value else ""


def page_text(value: str) -> str:
    """Pages as APA writes them: a range with an en dash, pages apart after a comma and a space ("1, 5")."""
    return re.sub(r"\s*,\s*", ", ", value.replace("-", "–")).strip(", ")


def issue(bib: dict[str, str]) -> str:
    """A journal's volume and issue as APA writes them, "157(1)"; "no. 3" without a volume."""
    volume, number = bib.get("volume", ""), bib.get("number", "")
    if volume:
        return volume + (f"({number})" if number else "")
    return f"no. {number}" if number else ""


_EDITION_WORD = re.compile(r"\b(?:ed|edn|edition|auflage|aufl|éd|édition)\b", re.IGNORECASE)


def edition(bib: dict[str, str]) -> str:
    """ "2nd ed." of edition 2; a named one with "ed." unless it says it ("Revised ed.", "Second edition"):
    "Revised" and "Limited" hold the letters "ed" but no word for an edition."""
    value = bib.get("edition", "")
    if not value:
        return ""
    if value.isdigit():
        n = int(value)
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix} ed."
    return value if _EDITION_WORD.search(value) else f"{value} ed."


def eprint(bib: dict[str, str]) -> str:
    """ "arXiv:2101.00001" of an eprint, or ''."""
    number = bib.get("eprint", "")
    kind = bib.get("eprinttype", "")
    return f"{kind}:{number}" if number and kind and not number.lower().startswith(kind.lower()) else number


def _source(p: Paper) -> tuple[str, list[Rich | str]]:
    """(what follows the title in brackets or parentheses, the source's parts) of a paper with a record."""
    bib = p.bib
    kind = kind_of(p)
    publisher = bib.get("publisher", "")
    if kind == "article":  # "Physica C, 157(1), 169–179": the journal and its volume in italics
        journal = bib.get("journal") or bib.get("booktitle") or p.venue
        volume, number = bib.get("volume", ""), bib.get("number", "")
        head = _italic(", ".join(x for x in (journal, volume) if x)) + (f"({number})" if volume and number else "")
        cited = _join(", ", (head, "" if volume else issue(bib), page_text(bib.get("pages", ""))))
        return "", [cited or eprint(bib)]
    if kind in IN_BOOK:  # "In L. Menabrea (Ed.), Proceedings … (pp. 1–9)": the book in italics
        book = bib.get("booktitle") or bib.get("journal") or p.venue
        volume = f"Vol. {bib['volume']}" if bib.get("volume") else ""
        chapter = f"Chap. {bib['chapter']}" if bib.get("chapter") else ""
        inside = ", ".join(x for x in (volume, chapter, pages(bib)) if x)
        within = _join(", ", (_editors(bib.get("editor", "")), _italic(book)))
        cited = _join(" ", ("In " + within if within else "", f"({inside})" if inside else ""))
        return "", [cited, publisher or bib.get("organization", "")]
    if kind in THESES:
        school = bib.get("school") or bib.get("institution") or publisher
        return f"[{THESES[kind]}{', ' + school if school else ''}]", []
    if kind in REPORTS:
        number = bib.get("number", "")
        label = REPORTS[kind] + (f" No. {number}" if number else "")
        return f"({label})", [bib.get("institution") or publisher or bib.get("organization", "")]
    if kind in BOOKS:
        shown = ", ".join(x for x in (edition(bib), f"Vol. {bib['volume']}" if bib.get("volume") else "") if x)
        return f"({shown})" if shown else "", [publisher or bib.get("organization") or bib.get("institution", "")]
    # misc, online, unpublished, manual, booklet, dataset, software, patent: where it is, and who gives it
    where = bib.get("howpublished") or bib.get("journal") or bib.get("booktitle") or p.venue or eprint(bib)
    by = publisher or bib.get("organization") or bib.get("institution", "")
    return f"({edition(bib)})" if edition(bib) else "", [where, by if by != where else ""]


def text_citation(p: Paper) -> str:
    """Vaswani, A., Shazeer, N., … (2017). Attention is all you need. NeurIPS. https://…; with a record, e.g.
    Adachi, H., & Takano, M. (1989). Cluster model …. Physica C: Superconductivity, 157(1), 169–179.
    https://doi.org/…"""
    return str(rich_citation(p))


def html_citation(p: Paper) -> str:
    """text_citation as HTML, with APA's italics: "… <i>Physica C: Superconductivity, 157</i>(1), 169–179. …"."""
    return rich_citation(p).html()


def rich_citation(p: Paper) -> Rich:
    """The citation with its italics: a work that stands alone (a book, a thesis, a report) by its title, a
    journal article by its journal and volume, a chapter or a paper in proceedings by its book."""
    byline = _byline([_author(a) for a in p.authors])
    if byline and p.bib.get("moreauthors"):  # the file's list was cut short ("and others"): not all the authors
        byline = f"{byline.replace(', & ', ', ')}, et al."
    editors = biblio.editor_names(p.bib.get("editor", ""))
    if editors and kind_of(p) in BOOKS and (not p.authors or _same_names(p.authors, editors)):
        # a collection is cited by its editors, "Guyon, I. (Ed.).": the BibTeX import gives an edited book
        # its editors for authors (its byline elsewhere), which are its editors still
        byline = f"{_byline([_author(n) for n in editors])} ({'Ed.' if len(editors) == 1 else 'Eds.'})."
    title = _title(p.title)
    if p.title_derived:  # a title the abstract gave, not the paper: APA's "[Description]" of an untitled work
        title = f"[{title}]"
    titled = _italic(title) if p.bib and kind_of(p) in ITALIC_TITLES else Rich() + title
    year = f"({p.year})" if p.year else "(n.d.)"
    after, source = _source(p) if p.bib else ("", [])
    if byline:
        parts = [_sentence(f"{byline} {year}")]
    else:  # no author: the title takes the author's place, "Title. (2026). Source." (APA 7), not "(2026). Title.",
        # with what APA writes after it: "Title (Technical report). (2026). Institution."
        parts, byline = [_sentence(_join(" ", (titled, after))), _sentence(year)], title
    if p.bib:
        shown = titled if byline != title else ""
        parts.append(_sentence(_join(" ", (shown, after if shown else ""))))
        source = [x for x in source if x] or ([p.venue] if p.venue else [])
        parts += [_sentence(x) for x in source]
    else:
        if byline != title:
            parts.append(_sentence(title))
        if p.venue:
            parts.append(_sentence(p.venue))
    link = biblio.doi_url(p.bib.get("doi", "")) or p.url
    if link:
        parts.append(Rich() + link)
    return _join(" ", parts)


def record_details(p: Paper) -> str:
    """What a paper's record says of where it appeared beyond its venue, as a reading list's line shows it
    after "venue year": "157(1), pp. 169–179"; "in Proceedings of … (Springer)"; "Doctoral dissertation,
    Princeton University"; '' for a paper without one, or whose record says no more."""
    bib = p.bib
    if not bib:
        return ""
    kind = kind_of(p)
    container = bib.get("journal") or bib.get("booktitle") or ""
    shown = container if container and container != p.venue else ""
    if kind in IN_BOOK and shown:
        shown = f"in {shown}"
    parts = [shown]
    if kind in THESES:
        parts.append(THESES[kind])
    elif kind in REPORTS:
        parts.append(REPORTS[kind] + (f" No. {bib['number']}" if bib.get("number") else ""))
    elif kind == "article":
        parts.append(issue(bib))
    else:
        parts.append(f"vol. {bib['volume']}" if bib.get("volume") else "")
    parts += [f"chap. {bib['chapter']}" if bib.get("chapter") else "", pages(bib), edition(bib)]
    if not container:
        parts.append(bib.get("howpublished", "") or eprint(bib))
    if kind in THESES or kind in REPORTS:  # their school or institution is part of what they are
        by = bib.get("school") or bib.get("institution") or bib.get("publisher") or bib.get("organization", "")
        return ", ".join(x for x in (*parts, by) if x)
    by = bib.get("publisher") or bib.get("organization", "")
    text = ", ".join(x for x in parts if x)
    return f"{text} ({by})" if text and by else text or by


def text_citations(papers: Sequence[Paper]) -> str:
    """The papers' citations, a line each, as an export writes their text (no control character)."""
    from readinglist.export import printable

    return "\n".join(text_citation(p) for p in printable(papers))


def html_citations(papers: Sequence[Paper]) -> str:
    """text_citations as HTML: a paragraph each, with APA's italics (html_citation)."""
    from readinglist.export import printable

    return "".join(f"<p>{html_citation(p)}</p>" for p in printable(papers))


def bibtex_citations(papers: Sequence[Paper]) -> str:
    """Copy BibTeX's entries: the export's, with none of the reader's own fields (abstract, note, tags and
    keywords, state, priority: the copy carried `priority = {prio1}`). Taken off the papers, not the text: a
    line dropped for a word in it took a title that said "readstatus" with it."""
    from dataclasses import replace

    from readinglist.export import ExportOptions, render

    plain = [replace(p, abstract="", note="", tags=[], keywords=[], state="unread", priority=None) for p in papers]
    return render(plain, ExportOptions(format="bibtex", notes=False)).strip() + "\n"
