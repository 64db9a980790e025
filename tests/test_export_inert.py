"""Exports of a hostile library are inert (issue 13.3): every payload from the issue and its variants, in every
format, checked the way a reader's tools would read them — the Markdown rendered by a CommonMark renderer
with raw HTML allowed (markdown-it-py, which passes HTML through as a browser would get it) and by Qt's
Markdown reader, the CSV read as cells, the BibTeX parsed."""

from __future__ import annotations

import csv
import io
import json
import re
from html.parser import HTMLParser

import bibtexparser
import pytest
from markdown_it import MarkdownIt

from readinglist.export import ExportOptions, render
from readinglist.papers import EXPORT_FORMATS

JS = "javascript:alert(1)"
HOSTILE_RECORDS = [
    {
        "id": "venue",
        "title": "[t](javascript:alert(8)) <b onmouseover=alert(8)>bold</b>",
        "venue": "<img src=x onerror=alert(1)>",
        "abstract": "<img src=x onerror=alert(4)> and <iframe src=file:///etc/passwd></iframe> and "
        "&lt;script&gt;alert(5)&lt;/script&gt; at https://github.com/x)[evil](javascript:alert(7))",
        "url": "https://x.org/a)<script>alert(3)</script>",
        "authors": ['=HYPERLINK("http://evil.example/")', "<script>alert(11)</script>"],
        "year": 2024,
    },
    {
        "id": "links",
        "title": "@SUM(1+1)*cmd|' /C calc'!A0",
        "venue": "[v](javascript:alert(2))",
        "abstract": "+1+1 math $<script>alert(9)</script>$ and $[a](javascript:alert(10))$ and "
        "\\href{javascript:alert(12)}{click} \\url{file:///etc/passwd} <a href='javascript:alert(13)'>x</a> "
        "```<script>alert(14)</script>``` and <javascript:alert(15)>",
        "url": "javascript:alert(16)",
        "authors": ["-2+3", "\tTabbed"],
    },
    {
        "id": "formula",
        "title": "-1+2 ends in a backslash \\",
        "venue": "\t=1+1",
        "abstract": "=cmd|' /C calc'!A0 {unbalanced { braces } and a last backslash \\",
        "authors": ["@author"],
    },
    {
        "id": "braces",
        "title": "} closes first {",
        "venue": "NeurIPS",
        "abstract": "\rstarts with a carriage return",
        "authors": ["Ada Lovelace"],
    },
]
HOSTILE_TAGS = ["x` <img src=x onerror=alert(17)> `", "=2+5", "+tag", "-tag", "@tag", "`<script>`"]
HOSTILE_NOTES = [
    "<script>alert(20)</script>\n<div onclick=alert(21)>block</div>\n"
    "[a](javascript:alert(22)) [b](file:///etc/passwd) ![i](file:///etc/passwd) [c](&#106;avascript:alert(23))\n"
    "<javascript:alert(24)> <file:///etc/passwd> [d]: javascript:alert(25)\n\n[d]\n"
    "[ok](https://example.org/a_(b)) <https://example.org/auto> `code <b>` <!-- comment -->\n"
    "```\n<script>alert(26)</script>\n```\n=SUM(1)",
    "@note [x](<javascript:alert(27)>) [y](\\javascript:alert(28)) [z](JAVASCRIPT:alert(29))",
    "-note [w](data:text/html,<script>alert(30)</script>) ` unclosed <img src=x onerror=alert(31)>\n"
    "[[wiki]](javascript:alert(35)) [[w2]][d] [[ok wikilink|alias]] [[x]]]: javascript:alert(36)",
    "+note with a last backslash \\",
]

ALLOWED_TAGS = {"h1", "h2", "h3", "p", "ul", "ol", "li", "a", "strong", "em", "code", "pre", "blockquote", "br"}


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))

    handle_startendtag = handle_starttag

    def handle_comment(self, data):
        self.tags.append(("!--", []))


def live_problems(rendered_html: str) -> list[str]:
    """Every element a browser would act on that the export should not have made: unknown tags (script,
    img, iframe, div…), event handlers, sources, and links to anything but http(s)."""
    collector = _Collector()
    collector.feed(rendered_html)
    problems = []
    for tag, attrs in collector.tags:
        if tag not in ALLOWED_TAGS:
            problems.append(f"<{tag}>")
        for name, value in attrs:
            if tag == "a" and name == "href":
                if not (value or "").lower().startswith(("http://", "https://")):
                    problems.append(f"link to {value!r}")
            elif not (tag == "code" and name == "class"):
                problems.append(f"<{tag} {name}={value!r}>")
    return problems


@pytest.fixture
def hostile_papers(empty_lib, tmp_path):
    source = tmp_path / "hostile.jsonl"
    source.write_text("\n".join(json.dumps(r) for r in HOSTILE_RECORDS) + "\n", encoding="utf-8")
    empty_lib.import_files([source])
    ids = empty_lib.search("").ids
    assert len(ids) == len(HOSTILE_RECORDS)
    empty_lib.add_tags(ids, HOSTILE_TAGS)
    for pid, note in zip(ids, HOSTILE_NOTES, strict=True):
        empty_lib.set_note(pid, note)
    empty_lib.set_state(ids[:1], "read")
    empty_lib.set_title(ids[1], "`close` [t](javascript:alert(32)) <svg onload=alert(33)>")
    return empty_lib.papers(ids)


MARKDOWN_OPTIONS = [
    ExportOptions(group=group, abstracts=True, notes=True, query="`x` <script>alert(34)</script>", scope="<b>s</b>")
    for group in ("state", "tag", "none")
]


@pytest.mark.parametrize("options", MARKDOWN_OPTIONS, ids=lambda o: o.group)
def test_markdown_renders_no_live_html_and_only_http_links(hostile_papers, options):
    md = render(hostile_papers, options)
    html = MarkdownIt("commonmark", {"html": True}).render(md)
    assert live_problems(html) == []
    gfm = MarkdownIt("gfm-like", {"html": True, "linkify": False}).render(md)
    assert live_problems(gfm) == []
    assert "javascript:" not in html.lower().replace("javascript:alert", "") or 'href="javascript' not in html
    # what the reader still sees: the text of every payload, as text
    assert "&lt;img src=x onerror=alert(1)&gt;" in html  # the venue, shown, not run
    assert "&lt;script&gt;alert(5)&lt;/script&gt;" in html  # decoded from the abstract's entities, still text
    assert 'href="https://example.org/a_(b)"' in html.replace("%28", "(").replace("%29", ")")
    assert 'href="https://example.org/auto"' in html


def test_markdown_through_qt_has_only_http_links(hostile_papers, qapp):
    from PySide6.QtGui import QTextDocument

    for options in MARKDOWN_OPTIONS:
        doc = QTextDocument()
        doc.setMarkdown(render(hostile_papers, options))
        html = doc.toHtml()
        hrefs = [value for tag, attrs in _tags(html) if tag == "a" for name, value in attrs if name == "href"]
        assert hrefs and all((h or "").startswith(("http://", "https://")) for h in hrefs), hrefs
        assert not [tag for tag, _ in _tags(html) if tag in {"img", "script", "iframe", "svg"}]


def _tags(html: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    collector = _Collector()
    collector.feed(html)
    return collector.tags


def test_code_spans_and_link_texts_cannot_be_closed(hostile_papers):
    md = render(hostile_papers, ExportOptions(group="tag"))
    html = MarkdownIt("commonmark", {"html": True}).render(md)
    # each tag is one code element holding the whole tag, backticks and all
    for tag in ("x` <img src=x onerror=alert(17)> `", "`<script>`"):
        shown = tag.replace("<", "&lt;").replace(">", "&gt;").strip("` ").strip()
        assert any(shown in c for c in _code_texts(html)), tag


def _code_texts(html: str) -> list[str]:
    import re

    return re.findall(r"<code>(.*?)</code>", html, re.S)


def test_csv_has_no_formula_cells(hostile_papers):
    rows = list(csv.reader(io.StringIO(render(hostile_papers, ExportOptions(format="csv")))))
    cells = [cell for row in rows[1:] for cell in row]
    formula = [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r", "\n")]
    assert formula == []
    quoted = [c for c in cells if c.startswith("'")]
    assert len(quoted) >= 12  # title, authors, venue, tags, note and abstract cells from the payloads
    assert '\'=HYPERLINK("http://evil.example/"); <script>alert(11)</script>' in cells


def test_bibtex_reparses_with_every_field_whole(hostile_papers):
    text = render(hostile_papers, ExportOptions(format="bibtex"))
    parsed = bibtexparser.parse_string(text)
    assert not parsed.failed_blocks and len(parsed.entries) == len(HOSTILE_RECORDS)


def _reads_back(name: str, text: str) -> int:
    """How many records a reader of the format finds in the text (each format's own parser)."""
    if name == "markdown":
        return MarkdownIt("commonmark").render(text).count("<li>")
    if name in ("bibtex", "biblatex"):
        parsed = bibtexparser.parse_string(text)
        assert not parsed.failed_blocks
        return len(parsed.entries)
    if name == "csv":
        return len(list(csv.reader(io.StringIO(text)))) - 1
    if name in ("json", "csljson"):
        return len(json.loads(text))
    if name == "ris":
        return sum(line.startswith("ER  -") for line in text.splitlines())
    if name == "obsidian":  # a folder: render() gives its files one after another, each under its name
        import yaml

        files = re.split(r"(?m)^<!-- [\w.-]+\.md -->\n", text)[1:]
        return sum(isinstance(yaml.safe_load(f.split("\n---\n", 1)[0].removeprefix("---\n")), dict) for f in files)
    raise AssertionError(f"no reader for the export format {name}: add one here")


def test_every_export_format_reads_back_whole(hostile_papers):
    for name in EXPORT_FORMATS:
        text = render(hostile_papers, ExportOptions(format=name, abstracts=True))
        assert _reads_back(name, text) == len(hostile_papers), name


def test_the_notes_folder_is_inert_and_its_front_matter_holds_every_title(hostile_papers, tmp_path):
    import yaml

    from readinglist.export import export

    folder = tmp_path / "notes"
    export(hostile_papers, ExportOptions(format="obsidian", abstracts=True), folder)
    files = sorted(folder.iterdir())
    assert len(files) == len(hostile_papers)
    titles = set()
    for f in files:
        assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*\.md", f.name)
        head, body = f.read_text(encoding="utf-8").removeprefix("---\n").split("\n---\n", 1)
        front = yaml.safe_load(head)
        titles.add(front["title"])
        html = MarkdownIt("commonmark", {"html": True}).render(body)
        assert live_problems(html) == [], f.name
    assert titles == {p.title for p in hostile_papers}


def test_a_notes_math_is_exported_as_written_and_stays_inert():
    from readinglist.mdtext import inert_note

    assert inert_note(r"- $\alpha \in [0,1]$ and $$\sum_i [x_i]$$") == r"- $\alpha \in [0,1]$ and $$\sum_i [x_i]$$"
    assert inert_note("$a<b$ [x](javascript:alert(1))") == r"$a\lt b$ x"  # still no tag, no script link
    assert inert_note("a $5 fee [c](file:///etc/passwd), [d]") == r"a $5 fee c, \[d\]"  # a lone $ is text


def test_an_ampersand_or_a_less_than_sign_that_starts_no_markup_is_written_as_it_is():
    """A trial: the reading list's raw file read "Refinement \\& Inspection", "(\\<50 F1)". Only an "&" that
    starts an entity and a "<" that starts a tag or an autolink can make markup; they are still escaped."""
    from readinglist.mdtext import escape_chars

    assert escape_chars("Refinement & Inspection (<50 F1), a < b") == "Refinement & Inspection (<50 F1), a < b"
    assert escape_chars("<b>x</b> &amp; &#38; <http://a.b>") == "\\<b\\>x\\</b\\> \\&amp; \\&\\#38; \\<http://a.b\\>"
