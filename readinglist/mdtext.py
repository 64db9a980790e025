"""Markdown that stays text: an exported reading list is opened in editors, notes apps and browsers, and its
titles, venues, tags, notes and abstracts come from files off the web. Nothing in them may become live HTML
or a link to anything but an http(s) page: raw HTML is escaped, code spans are fenced longer than any run of
backticks inside them, link targets are checked and percent-encoded, and a user's note keeps its Markdown
but loses raw HTML and links to other schemes (`javascript:`, `file:`, `data:`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from urllib.parse import quote, urlsplit

# each character that could start Markdown syntax or HTML; "&", "<" and "!" only where they could: an entity
# ("&amp;"), a tag or an autolink ("<b>", "<http"), an image ("!["). "Refinement & Inspection" and "(<50 F1)"
# stay as written (a trial: the raw file read "\\&", "\\<")
_ESCAPE_RE = re.compile(r"([\\`*_\[\]>#|~]|&(?=#?\w+;)|<(?=[A-Za-z/!?])|!(?=\[))")
_SAFE_URL_CHARS = "/:?#@!$&+,;=%-._~*"  # what stays as it is in a link target; ( ) [ ] < > ' " \ space are encoded


def escape(text: str) -> str:
    """Inline text (a title, a name, a venue): on one line, every character that could start Markdown
    syntax or HTML escaped."""
    if "\n" in text or "\r" in text or "\t" in text:
        text = " ".join(text.split())
    return escape_chars(text)


def escape_chars(text: str) -> str:
    """Every character that could start Markdown syntax or HTML escaped; whitespace left as it is."""
    return _ESCAPE_RE.sub(r"\\\1", text) if _ESCAPE_RE.search(text) else text


def code_span(text: str) -> str:
    """`text` as a code span whose fence no backtick inside can close (CommonMark's rule: a longer run)."""
    text = " ".join(text.split())
    if not text:
        return ""
    runs = re.findall(r"`+", text)
    fence = "`" * (max(map(len, runs), default=0) + 1)
    pad = " " if text[0] == "`" or text[-1] == "`" or (text[0] == " " and text[-1] == " ") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


_PLAIN_URL_RE = re.compile(r"https?://[A-Za-z0-9\-.~:@!$&+,;=%*_]+(?:[/?#][A-Za-z0-9\-.~:/?#@!$&+,;=%*_]*)?\Z", re.I)


def safe_url(url: str) -> str | None:
    """An http(s) URL ready for a Markdown link target (percent-encoded where Markdown would read syntax),
    or None for anything else."""
    url = url.strip()
    if _PLAIN_URL_RE.match(url):  # the usual case: nothing to encode (quote would return it as it is)
        return url
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return quote(url, safe=_SAFE_URL_CHARS)


def link(text: str, url: str) -> str:
    """[text](url) when the URL is http(s), else the text alone."""
    target = safe_url(url)
    shown = escape(text)
    return f"[{shown}]({target})" if target else shown


# ---- a user's note: Markdown kept, HTML and foreign links disarmed ------------------------------------

_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")  # what a Markdown backslash escapes
_ESCAPED = frozenset("\\<[]`")  # what inert_note escapes that live_note puts back
_AUTOLINK_RE = re.compile(r"<(https?://[^\s<>]*)>", re.IGNORECASE)
_LINK_RE = re.compile(
    r"(!?)\[((?:[^\[\]\\\n]|\\.)*)\]"  # [text] (or ![alt])
    r"\(\s*(<[^<>\n]*>|[^\s()<>]*(?:\([^\s()<>]*\)[^\s()<>]*)*)"  # (target, with balanced parentheses
    r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?\s*\)"  # "an optional title")
)
_BACKSLASH_ESCAPE_RE = re.compile(r"\\([!-/:-@\[-`{-~])")


# not before "(" or "[": "[[x]](javascript:…)" is a Markdown link whose text is "[x]", and is checked as one
_WIKILINK_RE = re.compile(r"\[\[[^\[\]\n]+\]\](?![\](\[])")


def inert_note(note: str) -> str:
    """A note's Markdown with raw HTML escaped and only http(s) links kept (others become their text);
    fenced code blocks stay as written (a renderer shows them as text)."""
    return _outside_fences(note, _inert_inline)


def _outside_fences(note: str, inline: Callable[[str], str]) -> str:
    """The note with `inline` applied to each line outside fenced code blocks (those stay as written)."""
    out: list[str] = []
    fence: str | None = None
    for line in note.split("\n"):
        m = _FENCE_RE.match(line)
        if fence is not None:
            out.append(line)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not line[m.end() :].strip():
                fence = None
            continue
        if m and not (m.group(1)[0] == "`" and "`" in line[m.end() :]):
            fence = m.group(1)
            out.append(line)
            continue
        out.append(inline(line))
    return "\n".join(out)


def live_note(note: str) -> str:
    """A note read back from an export: what `inert_note` escaped is put back — outside code, `\\<`, `\\[`,
    `\\]`, `\\``, and a backslash of the reader's before punctuation written twice ("p < 0.05" came back
    "p \\< 0.05"; "[1]" came back "\\[1\\]"); in a formula, `\\lt ` and `\\textasciigrave `. An export from
    before session 26 wrote the reader's own `\\[` as it is: read back, it is a bracket."""
    if "\\" not in note:
        return note
    return _outside_fences(note, lambda line: _live_inline(line) if "\\" in line else line)


def _live_inline(text: str) -> str:
    """One line of `live_note` outside code blocks: code spans as they are, formulas and the rest undone."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "`":
            j = i
            while j < n and text[j] == "`":
                j += 1
            close = re.compile(r"(?<!`)" + text[i:j] + r"(?!`)").search(text, j)
            end = close.end() if close else j
            out.append(text[i:end])
            i = end
        elif ch == "$":
            dollars = "$$" if text.startswith("$$", i) else "$"
            end = text.find(dollars, i + len(dollars))
            if end < 0:
                out.append(text[i:])
                break
            body = text[i + len(dollars) : end].replace("\\lt ", "<").replace("\\textasciigrave ", "`")
            out.append(dollars + body + dollars)
            i = end + len(dollars)
        elif ch == "\\" and i + 1 < n and text[i + 1] in _ESCAPED:
            out.append(text[i + 1])  # what inert_note escaped: \\< \\[ \\] \\` and a backslash of the reader's
            i += 2
        elif ch == "\\" and i + 1 < n:
            out.append(text[i : i + 2])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _inert_inline(text: str) -> str:
    """One line outside code blocks: code spans kept, links checked, every other `<`, `[`, `]` escaped."""
    out: list[str] = []
    i, n = 0, len(text)
    no_closer = False  # a $ found no closing $: no later one can either (so the line is read once)
    while i < n:
        ch = text[i]
        if ch == "$" and not no_closer:  # a formula ($…$ or $$…$$) kept whole: `\[` in it would be display math
            dollars = "$$" if text.startswith("$$", i) else "$"
            end = text.find(dollars, i + len(dollars))
            if end > i + len(dollars):
                out.append(dollars + inert_math(text[i + len(dollars) : end]) + dollars)
                i = end + len(dollars)
                continue
            no_closer = True
            out.append(ch)
            i += 1
        elif ch == "\\" and i + 1 < n and text[i + 1] in _PUNCTUATION:
            # the reader's backslash before punctuation is theirs ("\\[ x \\]" display math, "\\_"): written
            # as a backslash shown, the punctuation after it handled as any (so `live_note` reads both back)
            out.append("\\\\")
            i += 1
        elif ch == "\\" and i + 1 < n:
            out.append(text[i : i + 2])
            i += 2
        elif ch == "`":
            j = i
            while j < n and text[j] == "`":
                j += 1
            fence = text[i:j]
            close = re.compile(r"(?<!`)" + fence + r"(?!`)").search(text, j)
            if close:  # a code span: shown as text by any renderer
                out.append(text[i : close.end()])
                i = close.end()
            else:  # a lone run of backticks: escaped so that it cannot open a span on a later line
                out.append("\\`" * len(fence))
                i = j
        elif ch == "<":
            m = _AUTOLINK_RE.match(text, i)
            target = safe_url(m.group(1)) if m else None
            if m and target:
                out.append(f"<{target}>")
                i = m.end()
            else:
                out.append("\\<")
                i += 1
        elif ch == "[" and (w := _WIKILINK_RE.match(text, i)):
            out.append(w.group(0))  # Obsidian's and Logseq's [[link]]: a renderer without them shows its text
            i = w.end()
        elif ch in "[!":
            m = _LINK_RE.match(text, i)
            if m is None:
                out.append("\\" + ch if ch == "[" else ch)
                i += 1
                continue
            label = _inert_inline(m.group(2))
            raw_target = m.group(3)[1:-1] if m.group(3).startswith("<") else m.group(3)
            target = safe_url(html.unescape(_BACKSLASH_ESCAPE_RE.sub(r"\1", raw_target)))
            # an image becomes a link: an exported list loads nothing by itself
            out.append(f"[{label}]({target})" if target else label)
            i = m.end()
        elif ch == "]":
            out.append("\\]")
            i += 1
        else:
            j = i
            while j < n and text[j] not in "\\`<[]!$":
                j += 1
            out.append(text[i : max(j, i + 1)])
            i = max(j, i + 1)
    return "".join(out)


def inert_math(body: str) -> str:
    """A formula's source kept for $…$ (what notes apps render), with what a renderer without math would
    read as HTML or a link taken apart: `<` becomes `\\lt `, and `](` `][` get a space (TeX ignores it)."""
    if "<" in body:
        body = body.replace("<", "\\lt ")
    if "]" in body:
        body = body.replace("](", "] (").replace("][", "] [")
    if "`" in body:  # a backtick could open a code span that swallows the closing $
        body = body.replace("`", "\\textasciigrave ")
    return body


# ---- a note's headings under the paper's ---------------------------------------------------------------

_ATX_RE = re.compile(r"^( {0,3})(#{1,6})(?=[ \t]|$)")
_SETEXT_RE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")


def shift_headings(note: str, by: int) -> str:
    """A note's ATX headings `by` levels deeper (or, negative, shallower; never past 1 or 6), outside fenced
    code: a note's `# Heading` then nests under the paper it belongs to. A setext heading (a line
    underlined with === or ---) is written as ATX first, so that it moves too."""
    out: list[str] = []
    fence: str | None = None
    for line in note.split("\n"):
        m = _FENCE_RE.match(line)
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not line[m.end() :].strip():
                fence = None
            out.append(line)
            continue
        if m and not (m.group(1)[0] == "`" and "`" in line[m.end() :]):
            fence = m.group(1)
            out.append(line)
            continue
        h = _ATX_RE.match(line)
        if h:
            level = min(6, max(1, len(h.group(2)) + by))
            out.append(h.group(1) + "#" * level + line[h.end() :])
            continue
        s = _SETEXT_RE.match(line)
        if s and out and _setext_text(out[-1], s.group(1)[0]):
            level = min(6, max(1, (1 if s.group(1)[0] == "=" else 2) + by))
            out[-1] = "#" * level + " " + out[-1].strip()
            continue
        out.append(line)
    return "\n".join(out)


def _setext_text(before: str, mark: str) -> bool:
    """Is `before` a setext heading's text, underlined with `mark` (= or -)? Not a blank line, a heading,
    indented code, or (for -) a list item, which --- would make a thematic break under."""
    if not before.strip() or _ATX_RE.match(before) or before.startswith("    "):
        return False
    return mark == "=" or not re.match(r"^\s*([-*+]|\d+[.)])\s", before)
