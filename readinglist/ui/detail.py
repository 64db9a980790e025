"""The detail pane's HTML: a paper as a reader wants to see it, in the window's colours."""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtGui import QPalette

from readinglist.markup import inline_html, to_html
from readinglist.papers import STATE_LABELS, Paper


def paper_html(
    p: Paper,
    palette: QPalette,
    match: Callable[[str], bool] | None = None,
    related: list[Paper] | None = None,
) -> str:
    muted = palette.color(QPalette.ColorRole.PlaceholderText).name()
    link = palette.color(QPalette.ColorRole.Link).name()
    text = palette.color(QPalette.ColorRole.Text).name()
    title = inline_html(p.title, match) if not p.user_title else html.escape(p.title)
    meta = " · ".join(x for x in (p.venue, str(p.year or "")) if x)
    parts = [
        f"<style>a {{ color: {link}; text-decoration: none; }} .math {{ font-family: serif; font-style: italic; }}"
        f" .muted {{ color: {muted}; }} body {{ color: {text}; }} p {{ margin-top: 0; margin-bottom: 8px; }}</style>",
        f'<h2 style="margin-bottom:4px">{title}</h2>',
        f'<p class="muted">{html.escape(meta)}{" · " if meta else ""}{STATE_LABELS[p.state]}'
        f"{' · not in its source file any more' if not p.in_source else ''} · id {p.uid}</p>",
    ]
    if p.authors:
        shown = ", ".join(p.authors[:12]) + (f" and {len(p.authors) - 12} more" if len(p.authors) > 12 else "")
        parts.append(f"<p><i>{html.escape(shown)}</i></p>")
    if p.tags:
        chip_bg = palette.color(QPalette.ColorRole.Highlight)
        chip_bg.setAlpha(255)
        chip_bg = (
            chip_bg.lighter(170) if palette.color(QPalette.ColorRole.Base).lightness() > 128 else chip_bg.darker(150)
        )
        chips = "&nbsp;".join(
            f'<span style="background-color:{chip_bg.name()}; color:{text};">&nbsp;{html.escape(t)}&nbsp;</span>'
            for t in p.tags
        )
        parts.append(f"<p>{chips}</p>")
    if p.abstract:
        parts.append(to_html(p.abstract, match))
    else:
        parts.append('<p class="muted">No abstract.</p>')
    links = [u for u in p.links if u.startswith(("http://", "https://"))]
    if links:
        items = "".join(
            f'<li><a href="{html.escape(u, quote=True)}">{html.escape(u.split("://", 1)[1])}</a></li>' for u in links
        )
        parts.append(f"<p><b>Links</b></p><ul style='margin-top:0'>{items}</ul>")
    if related:
        items = "".join(
            f'<li><a href="paper:{r.id}">{html.escape(r.title)}</a>'
            f'<span class="muted"> — {html.escape(" ".join(x for x in (r.venue, str(r.year or "")) if x))}</span></li>'
            for r in related
        )
        parts.append(f"<p><b>Related papers</b></p><ul style='margin-top:0'>{items}</ul>")
    return "".join(parts)


def empty_html(palette: QPalette, message: str) -> str:
    muted = palette.color(QPalette.ColorRole.PlaceholderText).name()
    return f'<p style="color:{muted}; margin-top:40px" align="center">{html.escape(message)}</p>'
