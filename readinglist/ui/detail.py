"""The detail pane: the current paper as a reader wants to see it, in the window's colours, with its related
papers once the reader rests on it.

It follows the table's current paper (`follow`) and renders on the next turn of the event loop, so a search's
rows appear before the paper is rendered and held-down j/k renders only where it stops. It can also show a
paper the results lack (`visit`: a related paper followed, a place gone back to), and says so. Related papers
are a courtesy: they wait until the reader has rested on a paper, and give way to searches and scrolling; each
comes with the key phrases it shares with the paper shown (why it is related). The paper's topic is named,
as a link that filters the papers by it. A mark waiting to be saved (the library busy: edit_gate.py) shows
as the paper's, in italics and said to wait (`show_waiting`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QMouseEvent, QPalette, QResizeEvent
from PySide6.QtWidgets import QWidget

from readinglist import biblio
from readinglist.library import Library
from readinglist.papers import DEFAULT_STATE, PRIORITY_LABELS, STATE_LABELS, Marks, Paper, SearchResult, StoreError
from readinglist.ui.safe_browser import SafeTextBrowser
from readinglist.ui.wording import BUSY
from readinglist.ui.workers import Runner

if TYPE_CHECKING:
    from readinglist.interest import Suggestion

Explainer = Callable[[int], "Suggestion | None"]  # why a paper is suggested (None: it is not)

# the title's font: the heading's own, or smaller where the pane is small and the title long (at 700×500 a
# title took five lines of large bold text and the abstract was out of sight: a user trial)
TITLE_SIZES = ("", "large", "medium")
TITLE_SHARE = 0.3  # of the pane's height, at most, that a title takes when a smaller font can keep it there
AFTER_RESULTS_MS = 120  # the first result's abstract once typing pauses, not for every keystroke
RELATED_RETRY_MS = 2000  # asked again while the search index is being built (minutes at 94,000 papers)
RELATED_DELAY_MS = 700  # related papers once the reader rests on a paper, not while typing or triaging
Related = list[tuple[Paper, list[str]]]  # each related paper with the key phrases it shares with the paper shown


def paper_html(
    p: Paper,
    palette: QPalette,
    match: Callable[[str], bool] | None = None,
    related: Related | None = None,
    outside: bool = False,
    topic: tuple[int, str] | None = None,
    whole: bool = False,
    why: tuple[Suggestion, list[Paper]] | None = None,
    title_size: str = "",
    duplicates: Sequence[tuple[Paper, str]] = (),
    waiting: bool = False,
) -> str:
    """The paper as HTML in the palette's colours; `outside`: it is not among the papers listed; `why`: it
    is suggested, for these words and phrases and these marked papers (links, as related papers are). A huge
    abstract shows its start and a "Show all" link (rendering is linear, but a huge text still takes
    seconds): `whole` renders all of it. `title_size`: the title's font size (one of TITLE_SIZES). `duplicates`:
    the papers it may be one with (possible duplicates), each with why, the other's title a link to it.
    `waiting`: its state and priority are marks not yet saved (the library busy), said so."""
    import html  # (markup, html: with the first paper shown, after the first paint)

    from readinglist import mdtext
    from readinglist.markup import highlight_text, inline_html, to_html, truncated_html

    muted = palette.color(QPalette.ColorRole.PlaceholderText).name()
    link = palette.color(QPalette.ColorRole.Link).name()
    text = palette.color(QPalette.ColorRole.Text).name()
    # the reader's own title (F2) is shown as typed, not as markup, and the search's words in it highlighted as
    # in an imported one: renamed, the title lost its highlights while the abstract kept them (a user trial)
    title = inline_html(p.title, match) if not p.user_title else highlight_text(p.title, match)
    meta = " · ".join(x for x in (p.venue, str(p.year or "")) if x)
    marks = f"{STATE_LABELS[p.state]}{f' · priority {p.priority}' if p.priority else ''}"
    if waiting:
        marks = f"<i>{marks} — waiting to be saved: {html.escape(BUSY)}</i>"
    parts = [
        f"<style>a {{ color: {link}; text-decoration: none; }} .math {{ font-family: serif; font-style: italic; }}"
        f" .muted {{ color: {muted}; }} body {{ color: {text}; }} p {{ margin-top: 0; margin-bottom: 8px; }}</style>",
        f'<p class="muted">Not among the papers listed · <a href="library:{p.id}">Show it in the library</a></p>'
        if outside
        else "",
        title_heading(title, title_size),
        f'<p class="muted">{html.escape(meta)}{" · " if meta else ""}{marks}'
        f"{' · not in its source file any more' if not p.in_source else ''} · id {p.uid}</p>",
        '<p class="muted">The source has no title: this one is derived from the abstract (F2 gives it its own)</p>'
        if p.title_derived
        else "",
    ]
    parts += [duplicate_html(other, why) for other, why in duplicates]
    if why is not None:
        parts.append(why_html(*why))
    if p.authors:
        shown = ", ".join(p.authors[:12]) + (f" and {len(p.authors) - 12} more" if len(p.authors) > 12 else "")
        parts.append(f"<p><i>{highlight_text(shown, match)}</i></p>")  # "author:smith" shows whose name matched
    if topic is not None:
        parts.append(f'<p class="muted">Topic: <a href="topic:{topic[0]}">{html.escape(topic[1])}</a></p>')
    if p.own_tags:
        chip_bg = palette.color(QPalette.ColorRole.Highlight)
        chip_bg.setAlpha(255)
        chip_bg = (
            chip_bg.lighter(170) if palette.color(QPalette.ColorRole.Base).lightness() > 128 else chip_bg.darker(150)
        )
        chips = "&nbsp;".join(
            f'<span style="background-color:{chip_bg.name()}; color:{text};">&nbsp;{html.escape(t)}&nbsp;</span>'
            for t in p.own_tags
        )
        parts.append(f"<p>{chips}</p>")
    if p.keywords:  # a file's keywords, apart from the user's tags (the sidebar's Keywords)
        parts.append(f'<p class="muted">Keywords: {html.escape(" · ".join(p.keywords))}</p>')
    if p.abstract and whole:
        parts.append(to_html(p.abstract, match))
    elif p.abstract:
        body, cut = truncated_html(p.abstract, match)
        parts.append(body)
        if cut:
            parts.append(f'<p><a href="showall:{p.id}">Show all ({len(p.abstract):,} characters)</a></p>')
    else:
        parts.append('<p class="muted">No abstract.</p>')
    doi = biblio.normalize_doi(p.doi)
    target = mdtext.safe_url(biblio.doi_url(doi)) if doi else None
    if target:  # the DOI as a link, and not again among the links (an import made one of it)
        cited = citation_line(p)
        parts.append(f'<p>{html.escape(cited) + "<br>" if cited else ""}DOI: '
                     f'<a href="{html.escape(target, quote=True)}">{html.escape(doi)}</a></p>')  # fmt: skip
    elif cited := citation_line(p):
        parts.append(f"<p>{html.escape(cited)}</p>")
    key = biblio.doi_key(doi) if target else ""
    links = [u for u in p.links if u.startswith(("http://", "https://")) and not (key and biblio.doi_key(
        biblio.doi_of_url(u)) == key)]  # fmt: skip
    if links:
        items = "".join(
            f'<li><a href="{html.escape(u, quote=True)}">{html.escape(u.split("://", 1)[1])}</a></li>' for u in links
        )
        parts.append(f"<p><b>Links</b></p><ul style='margin-top:0'>{items}</ul>")
    if related:
        items = "".join(
            f'<li><a href="paper:{r.uid}">{html.escape(r.title)}</a>'
            + (f'<span class="muted"> — {html.escape(where)}</span>' if (where := _where(r)) else "")
            + (f'<br><span class="muted">shares </span>{html.escape(", ".join(shared))}' if shared else "")
            + "</li>"
            for r, shared in related
        )
        parts.append(f"<p><b>Related papers</b></p><ul style='margin-top:0'>{items}</ul>")
    return "".join(parts)


def _where(p: Paper) -> str:
    """Where and when the paper appeared ("ICML 2026"), '' when its file said neither (an ICLR TSV's papers)."""
    return " ".join(x for x in (p.venue, str(p.year or "")) if x)


def duplicate_html(other: Paper, why: str) -> str:
    """That the paper may be one with `other` (a possible duplicate found at import), why, and the way to it."""
    import html

    where = _where(other)
    reason = f": {html.escape(why)}" if why else ""
    return (
        f'<p class="muted" id="duplicate">Possibly the same paper as <a href="paper:{other.uid}">'
        f"{html.escape(other.title)}</a>{f' ({html.escape(where)})' if where else ''}{reason}. "
        "Select both to merge them or keep them apart (right-click).</p>"
    )


def title_heading(title: str, size: str = "") -> str:
    """The title (HTML) as the pane's heading, in a font of one of TITLE_SIZES ("": the heading's own)."""
    if not size:
        return f'<h2 style="margin-bottom:4px">{title}</h2>'
    return f'<h2 style="margin-top:0; margin-bottom:2px; font-size:{size}">{title}</h2>'


def citation_line(p: Paper) -> str:
    """Where the paper appeared, as a citation says it, when its record says more than the venue: "Physica C
    157(1), pp. 169–179", "in Proceedings of … (Springer)"; '' otherwise."""
    bib = p.bib
    container = bib.get("journal") or bib.get("booktitle") or ""
    volume = bib.get("volume", "") + (f"({bib['number']})" if bib.get("number") else "")
    pages = f"pp. {bib['pages'].replace('-', '–')}" if bib.get("pages") else ""
    publisher = bib.get("publisher") or bib.get("school") or bib.get("institution") or ""
    if not volume and not pages and not publisher and (not container or container == p.venue):
        return ""
    # the volume follows its journal's name ("Physica C 157(1)"); pages follow a comma ("… Systems 38, pp. 1–9")
    text = ", ".join(x for x in (" ".join(x for x in (container, volume) if x), pages) if x)
    return text + (f" ({publisher})" if publisher else "")


def _why_marked(p: Paper) -> str:
    """What makes a marked paper one the ranking learns from: its state, and its priority, which makes even
    a skipped paper a positive one ("skipped, P1"; an unread paper with a priority is "P1")."""
    state = STATE_LABELS[p.state].lower()
    if p.priority is None:
        return state
    priority = PRIORITY_LABELS[p.priority]
    return priority if p.state == DEFAULT_STATE else f"{state}, {priority}"


def why_html(suggestion: Suggestion, near: list[Paper]) -> str:
    """Why a paper is suggested: the words of it that weighed most, and the marked papers it is closest to."""
    import html

    place = suggestion.place()
    lines = [f"<b>Suggested</b> · {place} by predicted interest" if place else "<b>Suggested</b>"]
    if suggestion.why:
        lines.append("Weighed most: " + ", ".join(f"<b>{html.escape(w)}</b>" for w in suggestion.why))
    if near:
        links = "; ".join(f'<a href="paper:{n.uid}">{html.escape(n.title)}</a> ({_why_marked(n)})' for n in near)
        lines.append(f"Closest to your {links}")
    return f'<p class="muted" id="why">{"<br>".join(lines)}</p>'


def empty_html(palette: QPalette, message: str) -> str:
    import html

    muted = palette.color(QPalette.ColorRole.PlaceholderText).name()
    return f'<p style="color:{muted}; margin-top:40px" align="center">{html.escape(message)}</p>'


class DetailPane(SafeTextBrowser):
    """The detail view: renders the paper the table makes current, and says when it has (`paperShown`, which
    the editors follow). It records only what it was told and what it shows: `_current` is the table's current
    paper as last announced, `_shown` the paper on screen, one turn of the loop behind it."""

    paperShown = Signal(object)  # Paper | None: rendered anew (not when only its related papers arrive)
    paperRequested = Signal(int)  # a link to another paper was clicked
    linkFailed = Signal(str)  # a paper: link that leads to no paper, in words
    libraryRequested = Signal(int)  # "Show it in the library", for a paper the results lack
    navigate = Signal(int)  # the mouse's Back (-1) or Forward (+1) button
    topicRequested = Signal(int)  # the link of the paper's topic was clicked

    def __init__(self, library: Library, runner: Runner, parent: QWidget | None = None):
        super().__init__(parent)
        self._library = library
        self._runner = runner
        self._current: int | None = None
        self._visiting = False  # the current paper is one the table lacks
        self._shown: int | None = None
        self._shown_outside = False
        self._html = ""  # what setHtml was last given
        self._whole: int | None = None  # the paper whose whole abstract was asked for (Show all)
        self._shown_related: Related | None = None
        self._topic_names: dict[int, str] = {}  # topic id → name, as the window last loaded them
        self._terms: set[str] | None = None  # the words of the results' query, highlighted
        self._waiting: dict[int, Marks] = {}  # paper id → its marks waiting to be saved
        self._refresh_due = False
        self._terms_due = False  # the query's words changed: the paper shown is rendered again (set_terms)
        self._search_running = False
        self._related_gen = 0
        self._related_cancel: threading.Event | None = None
        self.after_results_ms = AFTER_RESULTS_MS
        self._explain: Explainer | None = None
        self.why: Suggestion | None = None  # the explanation on screen (None: the paper is not suggested)
        self.setObjectName("detailView")
        self.anchorClicked.connect(self.open_link)
        self._render_timer = QTimer(self)
        self._render_timer.setSingleShot(True)
        self._render_timer.setInterval(0)
        self._render_timer.timeout.connect(self._show_current)
        self._related_timer = QTimer(self)
        self._related_timer.setSingleShot(True)
        self._related_timer.setInterval(RELATED_DELAY_MS)
        self._related_timer.timeout.connect(self._start_related)
        self._title_size = ""  # the title's font size in the paper shown (TITLE_SIZES)
        self._title_sizes: dict[tuple[str, int, int], str] = {}  # (title, width, height) → its size, measured
        self._fit_timer = QTimer(self)  # the pane resized: the title's size fitted again, once it rests
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(0)
        self._fit_timer.timeout.connect(self._fit_title)

    @property
    def paper_id(self) -> int | None:
        """The paper on screen."""
        return self._shown

    @property
    def current_id(self) -> int | None:
        """The paper being shown: the table's current paper, or the one visited."""
        return self._current

    @property
    def visiting(self) -> bool:
        return self._visiting and self._current is not None

    def mousePressEvent(self, event: QMouseEvent) -> None:
        from readinglist.ui.paper_table import navigation_step

        if step := navigation_step(event):
            self.navigate.emit(step)
            return
        super().mousePressEvent(event)

    # ---- following the table ----

    def visit(self, paper_id: int) -> None:
        """Show a paper the table lacks (the table has no current paper meanwhile)."""
        self._visiting = True
        self._current = paper_id
        self._render_timer.start()

    def follow(self, paper_id: int | None) -> None:
        """The current paper changed: it is rendered on the next turn of the loop; no paper: cleared now."""
        if paper_id is None and self._visiting and self._current is not None:
            return  # the table let go of its paper to make way for the one visited
        self._visiting = False
        self._current = paper_id
        if paper_id is None:
            self._render_timer.stop()
            self._render_timer.setInterval(0)
            self._show(None)
            return
        self._render_timer.start()

    def rest(self) -> None:
        """The results of a query being typed arrived: a render that is due waits until typing rests."""
        if self._render_timer.isActive():
            self._render_timer.start(self.after_results_ms)

    def paper(self, paper_id: int) -> Paper | None:
        """The paper as shown: as the library has it, with its marks waiting to be saved (show_waiting)."""
        paper = self._library.paper(paper_id)
        marks = self._waiting.get(paper_id)
        if paper is None or not marks:
            return paper
        return replace(paper, **marks)

    def show_waiting(self, marks: Mapping[int, Marks]) -> None:
        """The marks waiting to be saved, by paper (EditGate.marks): the paper shown is shown again if its
        marks changed (made, saved or dropped)."""
        new = dict(marks)
        changed = [pid for pid in new.keys() | self._waiting.keys() if new.get(pid) != self._waiting.get(pid)]
        self._waiting = new
        self.refresh(changed)

    def set_topic_names(self, names: dict[int, str]) -> None:
        """The topics as computed now (id → name); the paper shown names its own from the next render on."""
        self._topic_names = names
        paper = self.paper(self._shown) if self._shown is not None else None
        if paper is not None:
            self._render(paper, self._shown_related)

    def set_terms(self, result: SearchResult) -> None:
        """The results shown now: their query's words are highlighted from the next render on, and the paper
        shown, if it stays, is rendered again once typing rests (a search cleared left its highlights)."""
        terms = result.terms if result.query.strip() and result.terms else None
        if terms != self._terms and self._shown is not None:
            self._terms_due = True
            self._render_timer.start(self.after_results_ms)
        self._terms = terms

    def set_explainer(self, explain: Explainer | None) -> None:
        """Say why each paper shown is suggested, by asking `explain` (None: say nothing); the paper on screen
        is shown again with it on the next turn of the loop."""
        self._explain = explain
        if self._current is not None:
            self.refresh([self._current])

    def refresh(self, ids: Sequence[int]) -> None:
        """These papers changed (an edit or its undo). The current one is shown again on the next turn of
        the loop: marking with auto-advance moves on first, and then only the next paper is rendered."""
        if self._current is not None and self._current in ids and not self._refresh_due:
            self._refresh_due = True
            QTimer.singleShot(0, self, self._refresh)  # (dropped with the pane)

    def _refresh(self) -> None:
        self._refresh_due = False
        pid = self._current
        if pid is None or pid != self._shown:
            return  # moved on: the paper now current is rendered by _show_current
        paper = self.paper(pid)
        if paper is not None:
            self._render(paper, self._shown_related)
            self.paperShown.emit(paper)

    def _show_current(self) -> None:
        self._render_timer.setInterval(0)
        terms_due, self._terms_due = self._terms_due, False
        if self._shown != self._current or self._current is None or self._shown_outside != self.visiting:
            self._show(self._current)
        elif terms_due:
            self._refresh()  # the same paper, the new query's words highlighted

    def _show(self, paper_id: int | None) -> None:
        if paper_id != self._shown:
            self._whole = None
        self._shown = paper_id
        paper = self.paper(paper_id) if paper_id is not None else None
        if paper is None:
            self._set_html(empty_html(self.palette(), "Select a paper to read it here."))
            self.paperShown.emit(None)
            return
        self._render(paper)
        self.paperShown.emit(paper)
        self.give_way()  # the related papers of the previous paper are of no use now
        self._related_gen += 1
        self._related_timer.start()

    @property
    def title_size(self) -> str:
        """The font size of the title shown (one of TITLE_SIZES: "" is the heading's own)."""
        return self._title_size

    def fitted_title_size(self, title: str) -> str:
        """The largest of TITLE_SIZES at which `title` takes at most TITLE_SHARE of the pane's height at its
        width (the smallest where none does): a long title in a small pane is set smaller, and the abstract
        starts in sight."""
        viewport = self.viewport()
        width, height = viewport.width(), viewport.height()
        if width <= 0 or height <= 0:
            return TITLE_SIZES[0]
        key = (title, width, height)
        if key not in self._title_sizes:
            import html

            from PySide6.QtGui import QTextDocument

            doc = QTextDocument()
            doc.setDefaultFont(self.document().defaultFont())
            doc.setDocumentMargin(self.document().documentMargin())
            doc.setTextWidth(width)
            fitted = TITLE_SIZES[-1]
            for size in TITLE_SIZES:
                doc.setHtml(title_heading(html.escape(title), size))
                if doc.size().height() <= height * TITLE_SHARE:
                    fitted = size
                    break
            if len(self._title_sizes) > 256:
                self._title_sizes.clear()
            self._title_sizes[key] = fitted
        return self._title_sizes[key]

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._shown is not None:
            self._fit_timer.start()

    def _fit_title(self) -> None:
        """The pane's size changed: the paper shown again if its title is to be set in another size."""
        paper = self.paper(self._shown) if self._shown is not None else None
        if paper is not None and self.fitted_title_size(paper.title) != self._title_size:
            self._render(paper, self._shown_related, keep_scroll=True)

    def _render(self, paper: Paper, related: Related | None = None, keep_scroll: bool = False) -> None:
        match = self._library.highlighter(self._terms) if self._terms else None
        scroll = self.verticalScrollBar().value()
        self._shown_outside = self.visiting
        topic = None
        if self._topic_names:
            tid = self._library.topics_of([paper.id]).get(paper.id)
            topic = (tid, self._topic_names[tid]) if tid in self._topic_names else None
        whole = self._whole == paper.id
        self.why = self._explain(paper.id) if self._explain is not None else None
        why = (self.why, self._library.papers(self.why.near)) if self.why is not None else None
        self._title_size = self.fitted_title_size(paper.title)
        pairs = [(d.b if d.a == paper.id else d.a, d.why) for d in self._library.duplicates_of(paper.id)]
        others = {o.id: o for o in self._library.papers([other for other, _ in pairs])}
        duplicates = [(others[other], why) for other, why in pairs if other in others]
        html = paper_html(paper, self.palette(), match, related, self._shown_outside, topic, whole, why,
                          self._title_size, duplicates, paper.id in self._waiting)  # fmt: skip
        shown = self._set_html(html)
        if shown and (related is not None or keep_scroll):  # setHtml scrolled to the top: back to where it was
            self.verticalScrollBar().setValue(scroll)
        self._shown_related = related

    def _set_html(self, html: str) -> bool:
        """Show this HTML unless it is shown already (returns whether it was set): a paper rendered again
        unchanged — the current one after an import that did not touch it — would otherwise be laid out
        anew in the next paint, on top of the new results' (docs/performance-changes.md)."""
        if html == self._html:
            return False
        self._html = html
        self.setHtml(html)
        return True

    def changeEvent(self, event: QEvent) -> None:
        """Light/dark: the colours are baked into the HTML."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._show(self._current)

    # ---- related papers ----

    def give_way(self) -> None:
        """Courtesy work gives way to the reader: a related-papers search in progress stops (it is tried
        again once things are quiet) while the reader searches, scrolls or moves on; sharing the interpreter
        with it made repaints slower (docs/performance-changes.md)."""
        if self._related_cancel is not None:
            self._related_cancel.set()
        if self._related_timer.isActive():
            self._related_timer.start()  # and not while the reader is still busy

    def set_search_running(self, running: bool) -> None:
        """While a search runs it has the CPU: related papers wait for it, and one in progress stops."""
        self._search_running = running
        if running:
            self.give_way()

    def _retry_related(self, gen: int) -> None:
        if gen == self._related_gen:  # still the paper it was for
            self._start_related()

    def _start_related(self) -> None:
        pid, gen = self._current, self._related_gen
        if pid is None:
            return
        if self._search_running:
            self._related_timer.start()
            return
        cancel = threading.Event()
        self._related_cancel = cancel
        library = self._library

        def find() -> Related | None:
            explained = library.related_explained(pid, cancel=cancel, wait=False)
            if explained is None:
                return None  # the index is being built: asked again in a while
            papers = {p.id: p for p in library.papers([other for other, _ in explained])}
            return [(papers[other], shared) for other, shared in explained if other in papers]

        self._runner.run(
            find,
            lambda related: self._related_done(gen, pid, related),
            lambda exc: None,  # related papers are a courtesy; the paper is already shown
        )

    def _related_done(self, gen: int, pid: int, related: Related | None) -> None:
        if gen != self._related_gen or pid != self._current:
            return
        if related is None:
            QTimer.singleShot(RELATED_RETRY_MS, self, lambda: self._retry_related(gen))
            return
        if not related and self._related_cancel is not None and self._related_cancel.is_set():
            self._related_timer.start()  # cut short by a search: try again when things are quiet
            return
        paper = self.paper(pid)
        if paper is not None:
            self._render(paper, related)

    def show_all(self) -> None:
        """The whole abstract of the paper shown, where it was cut for its size."""
        paper = self.paper(self._shown) if self._shown is not None else None
        if paper is not None and self._whole != paper.id:
            self._whole = paper.id
            self._render(paper, self._shown_related)

    # ---- links ----

    def open_link(self, url: QUrl) -> None:
        """A paper: link (paper:ID, the id the app shows) shows that paper, a topic: link filters by it; web
        links open in the browser; nothing else is followed, and a paper: link to no paper says so."""
        if url.scheme() == "paper":
            try:
                self.paperRequested.emit(self._library.resolve(url.path()))
            except StoreError as exc:
                self.linkFailed.emit(f"That link leads to no paper ({exc}).")
        elif url.scheme() == "library":
            if url.path().isdigit():  # only the pane's own "Show it in the library" link has one
                self.libraryRequested.emit(int(url.path()))
        elif url.scheme() == "topic" and url.path().isdigit():
            self.topicRequested.emit(int(url.path()))
        elif url.scheme() == "showall" and url.path().isdigit():
            self.show_all()
        elif url.scheme() in ("http", "https"):
            QDesktopServices.openUrl(url)
