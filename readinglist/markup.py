"""Abstracts arrive as a mix of LaTeX, Markdown, HTML and bare URLs; readers want none of it raw.

One parser turns raw text into styled runs; the writers below turn runs into plain text (for the index),
Markdown (for export) and HTML (for the detail pane). pylatexenc does the LaTeX decoding, but it is slow
(milliseconds per abstract) and treats `%` as a comment, so it only ever sees the pieces that need it.
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

logging.getLogger("pylatexenc").setLevel(logging.ERROR)


@lru_cache(maxsize=1)
def _l2t():
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text(math_mode="text", strict_latex_spaces=False)


@lru_cache(maxsize=1)
def _walker_context():
    """pylatexenc's macro tables, built once: without latex_context= every LatexWalker builds its own
    (a quarter of an 8k-paper import's CPU time went there)."""
    from pylatexenc.latexwalker import get_default_latex_context_db

    return get_default_latex_context_db()  # shared, never modified


def _latex_to_text(latex: str) -> str:
    return str(_l2t().latex_to_text(latex, latex_context=_walker_context()))


def warm() -> None:
    """Load pylatexenc and its macro tables now, on a worker, so the first paper shown does not pay for
    them on the UI thread (~80 ms)."""
    to_html(r"\emph{warm} $x_1^2$ ``quoted'' **bold**")


# Private-use characters mark style changes; they pass through pylatexenc untouched.
I_ON, I_OFF, B_ON, B_OFF, C_ON, C_OFF = "\ue000", "\ue001", "\ue002", "\ue003", "\ue004", "\ue005"
_MARKS = {I_ON: ("i", True), I_OFF: ("i", False), B_ON: ("b", True), B_OFF: ("b", False)}
_MARKS |= {C_ON: ("code", True), C_OFF: ("code", False)}
_MARK_RE = re.compile("[\ue000-\ue005]")

_URL_RE = re.compile(
    r"(?:https?://|www\.)[^\s<>\"'{}\\`$]+|\b(?:github\.com|gitlab\.com|huggingface\.co|bitbucket\.org)/[\w.\-/]+",
    re.IGNORECASE,
)
_URL_HINTS = ("://", "www.", "github.", "gitlab.", "huggingface.", "bitbucket.")  # cheap test before _URL_RE
_BRACED = r"\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}"
_STYLE_CMD_RE = re.compile(r"\\(emph|textit|textsl|textbf|texttt|underline|textsc)\s*" + _BRACED)
_STYLE_GROUP_RE = re.compile(r"\{\\(em|it|itshape|bf|bfseries|tt)\s+((?:[^{}]|\{[^{}]*\})*)\}")
_URL_CMD_RE = re.compile(r"\\(?:url|path)\s*\{([^{}]*)\}|\\href\s*\{([^{}]*)\}\s*" + _BRACED)
_MD_BOLD_RE = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", re.S)
_MD_ITALIC_RE = re.compile(r"(?<![\w*])\*(?=[^\s*$])([^*$\n]+?)(?<=[^\s*])\*(?![\w*])")
_HTML_TAG_RE = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)\b[^<>]*>")
_MATH_RE = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.S)
_PARA_RE = re.compile(r"\n[ \t]*(?:%[ \t]*)?\n\s*|\n[ \t]*%[ \t]*\n")
_LATEX_TRIGGER = re.compile(r"[\\{}~]")
_TRAILING = ".,;:!?'\""


@dataclass(frozen=True)
class Run:
    kind: str  # "text" | "math" | "url" | "para"
    text: str
    styles: frozenset[str] = field(default_factory=frozenset)


def trim_url(url: str) -> str:
    """Drop the punctuation a sentence wraps around a URL, keeping balanced parentheses."""
    while url:
        if (
            url[-1] in _TRAILING
            or (url[-1] == ")" and url.count("(") < url.count(")"))
            or (url[-1] == "]" and url.count("[") < url.count("]"))
        ):
            url = url[:-1]
        else:
            break
    return url


def clean_url(url: str) -> str:
    """A URL as found in text, trimmed and with a scheme."""
    url = trim_url(url)
    if url.lower().startswith("www.") or not re.match(r"https?://", url, re.I):
        url = "https://" + url
    return url


def extract_links(raw: str) -> list[str]:
    """Every distinct URL in the text, in order, as a browser would want it."""
    lowered = (raw or "").lower()
    if not any(h in lowered for h in _URL_HINTS):
        return []
    text = _URL_CMD_RE.sub(lambda m: " " + (m.group(1) or m.group(2) or "") + " ", raw or "")
    seen: dict[str, None] = {}
    for m in _URL_RE.finditer(text):
        url = clean_url(m.group(0))
        if len(url) > len("https://x.y"):
            seen.setdefault(url, None)
    return list(seen)


def _style_markers(text: str) -> str:
    """Turn LaTeX, HTML and Markdown emphasis into private-use markers."""

    def cmd(m: re.Match[str]) -> str:
        name, body = m.group(1), m.group(2)
        on, off = {
            "textbf": (B_ON, B_OFF),
            "texttt": (C_ON, C_OFF),
            "textsc": ("", ""),
            "underline": ("", ""),
        }.get(name, (I_ON, I_OFF))
        return on + body + off

    for _ in range(3 if "\\" in text else 0):  # nested \emph{\textbf{…}}
        new = _STYLE_CMD_RE.sub(cmd, text)
        new = _STYLE_GROUP_RE.sub(
            lambda m: (
                {"bf": B_ON, "bfseries": B_ON, "tt": C_ON}.get(m.group(1), I_ON)
                + m.group(2)
                + {"bf": B_OFF, "bfseries": B_OFF, "tt": C_OFF}.get(m.group(1), I_OFF)
            ),
            new,
        )
        if new == text:
            break
        text = new
    if "<" in text:
        tags = {"em": (I_ON, I_OFF), "i": (I_ON, I_OFF), "b": (B_ON, B_OFF), "strong": (B_ON, B_OFF)}
        tags |= {"code": (C_ON, C_OFF), "tt": (C_ON, C_OFF)}

        def tag(m: re.Match[str]) -> str:
            name = m.group(1).lower()
            closing = m.group(0).startswith("</")
            if name in tags:
                return tags[name][1 if closing else 0]
            if name in {"br", "p", "div", "li"}:
                return "\n\n" if name == "p" and not closing else " "
            if name in {"sub", "sup", "span", "a", "font", "u", "small", "ul", "ol"}:
                return ""
            return m.group(0)

        text = _HTML_TAG_RE.sub(tag, text)
        if "&" in text:
            text = html.unescape(text)
    if "*" in text:
        text = _MD_BOLD_RE.sub(lambda m: B_ON + m.group(1) + B_OFF, text)
        text = _MD_ITALIC_RE.sub(lambda m: I_ON + m.group(1) + I_OFF, text)
    return text


_SIMPLE_SUBS = [("---", "—"), ("--", "–"), ("``", "“"), ("''", "”")]


_LATEX_SPAN = re.compile(
    r"\\[a-zA-Z]+\*?(?:\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\})*"  # \cmd{arg}{arg}
    r"|\\[^a-zA-Z\s](?:\{[^{}]*\}|[a-zA-Z])?"  # \'e, \'{e}, \%, \&
    r"|\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}"  # {Protected}
    r"|~"
)


def _plain_subs(text: str) -> str:
    for a, b in _SIMPLE_SUBS:
        if a in text:
            text = text.replace(a, b)
    return text


@lru_cache(maxsize=20000)
def _decode_span(span: str) -> str:
    """One LaTeX construct to Unicode; spans repeat (accents, {Braces}), so they are cached."""
    if span == "~":
        return " "
    if span.startswith(("\\cite", "\\ref", "\\label", "\\footnote", "\\eqref", "\\citep", "\\citet")):
        return ""
    if span in ("\\end{abstract}", "\\begin{abstract}"):
        return ""
    try:
        out = _latex_to_text(span)
    except Exception:  # pylatexenc gives up on some malformed input; show it without commands
        out = re.sub(r"\\[a-zA-Z]+\*?", "", span).replace("{", "").replace("}", "")
    return out.replace("\xa0", " ")


def decode_text(chunk: str) -> str:
    """LaTeX text (no math) to Unicode. pylatexenc is slow and reads `%` as a comment, so it only ever
    sees the LaTeX constructs themselves, one at a time; the prose between them is left alone."""
    if not _LATEX_TRIGGER.search(chunk):
        return _plain_subs(chunk)
    out, pos = [], 0
    for m in _LATEX_SPAN.finditer(chunk):
        out.append(_plain_subs(chunk[pos : m.start()]))
        out.append(_decode_span(m.group(0)))
        pos = m.end()
    out.append(_plain_subs(chunk[pos:]))
    text = "".join(out)
    return text.replace("{", "").replace("}", "") if ("{" in text or "}" in text) else text


@lru_cache(maxsize=20000)
def decode_math(src: str) -> str:
    """Math to readable Unicode for plain text: α_i, 𝒪(n^2). Cached: $k$, $n$, $O(n)$ recur."""
    try:
        out = _latex_to_text("$" + src + "$")
    except Exception:
        return src
    return out.replace("\xa0", " ").strip() or src


def parse(raw: str) -> list[Run]:
    """Split raw abstract text into paragraphs of styled text, math and URL runs."""
    runs: list[Run] = []
    if not raw:
        return runs
    text = raw.replace("\r\n", "\n").replace("\r", "\n").replace("\\$", "\ue010")
    text = _URL_CMD_RE.sub(lambda m: (m.group(1) or m.group(2) or "") if m.group(1) or m.group(2) else "", text)
    text = _style_markers(text)
    styles: set[str] = set()
    paragraphs = _PARA_RE.split(text) if "\n" in text else [text]
    for p_index, para in enumerate(p for p in paragraphs if p.strip()):
        if p_index:
            runs.append(Run("para", ""))
        para = para.strip()
        if "\n" in para:
            para = re.sub(r"\s*\n\s*", " ", para)
        pos = 0
        for m in _MATH_RE.finditer(para):
            _text_runs(para[pos : m.start()], styles, runs)
            body = next(g for g in m.groups() if g is not None)
            runs.append(Run("math", body.replace("\ue010", "\\$").strip(), frozenset(styles)))
            pos = m.end()
        _text_runs(para[pos:], styles, runs)
    return runs


def _text_runs(chunk: str, styles: set[str], runs: list[Run]) -> None:
    if not chunk:
        return
    lowered = chunk.lower()
    if not any(h in lowered for h in _URL_HINTS):  # the URL pattern is the slowest scan here
        _styled(chunk, styles, runs)
        return
    pos = 0
    for m in _URL_RE.finditer(chunk):
        url = clean_url(m.group(0))
        end = m.start() + len(trim_url(m.group(0)))  # trimmed punctuation stays text
        _styled(chunk[pos : m.start()], styles, runs)
        runs.append(Run("url", url, frozenset(styles)))
        pos = end
    _styled(chunk[pos:], styles, runs)


def _styled(chunk: str, styles: set[str], runs: list[Run]) -> None:
    if not chunk:
        return
    decoded = decode_text(chunk).replace("\ue010", "$")
    pos = 0
    for m in _MARK_RE.finditer(decoded):
        if m.start() > pos:
            runs.append(Run("text", decoded[pos : m.start()], frozenset(styles)))
        name, on = _MARKS[m.group(0)]
        (styles.add if on else styles.discard)(name)
        pos = m.end()
    if pos < len(decoded):
        runs.append(Run("text", decoded[pos:], frozenset(styles)))


# ---- writers -------------------------------------------------------------------------------------------


def to_plain(raw: str) -> str:
    """Readable plain text: what the index sees and what a one-line preview shows."""
    if not raw:
        return ""
    parts = []
    for run in parse(raw):
        if run.kind == "para":
            parts.append("\n\n")
        elif run.kind == "math":
            parts.append(decode_math(run.text))
        else:
            parts.append(run.text)
    out = "".join(parts)
    if "  " in out or "\t" in out:
        out = _SPACES_RE.sub(" ", out)
    if "\n" in out:
        out = _PARA_SPACES_RE.sub("\n\n", out)
    return out.strip()


_SPACES_RE = re.compile(r"[ \t]+")
_PARA_SPACES_RE = re.compile(r" ?\n\n ?")


def title_plain(raw: str) -> str:
    """A title on one line, LaTeX decoded and {Protected} braces gone."""
    return re.sub(r"\s+", " ", to_plain(raw)).strip()


_MD_ESCAPE_RE = re.compile(r"([\\`*_\[\]<>#|])")


def escape_markdown(text: str) -> str:
    """Escape what would turn a title into Markdown syntax."""
    return _MD_ESCAPE_RE.sub(r"\\\1", text)


def to_markdown(raw: str) -> str:
    """Markdown for export: emphasis as *x* / **x**, math kept as $…$, links as autolinks."""
    parts: list[str] = []
    for run in parse(raw):
        if run.kind == "para":
            parts.append("\n\n")
        elif run.kind == "math":
            parts.append(_wrap_md(f"${run.text}$", run.styles))
        elif run.kind == "url":
            parts.append(f"<{run.text}>")
        else:
            body = run.text.replace("*", "\\*") if not run.styles else run.text
            parts.append(_wrap_md(body, run.styles))
    return re.sub(r"[ \t]+", " ", "".join(parts)).strip()


def _wrap_md(text: str, styles: frozenset[str]) -> str:
    if not styles or not text.strip():
        return text
    lead = text[: len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()) :]
    core = text.strip()
    if "code" in styles:
        core = f"`{core}`"
    if "b" in styles:
        core = f"**{core}**"
    if "i" in styles:
        core = f"*{core}*"
    return lead + core + trail


# ---- HTML (the detail pane) ----------------------------------------------------------------------------

_SUP = dict(zip("0123456789+-=()niT", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵀ", strict=True))
_SUB = dict(zip("0123456789+-=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎", strict=True))


def _group(src: str, i: int) -> tuple[str, int]:
    """The argument starting at src[i]: a {balanced group}, a \\command, or one character."""
    while i < len(src) and src[i] == " ":
        i += 1
    if i >= len(src):
        return "", i
    if src[i] == "{":
        depth = 0
        for j in range(i, len(src)):
            depth += {"{": 1, "}": -1}.get(src[j], 0)
            if depth == 0:
                return src[i + 1 : j], j + 1
        return src[i + 1 :], len(src)
    if src[i] == "\\":
        m = re.match(r"\\([a-zA-Z]+|.)", src[i:])
        assert m
        return m.group(0), i + len(m.group(0))
    return src[i], i + 1


def math_html(src: str) -> str:
    """Math as readable HTML: Unicode symbols from pylatexenc, real sub- and superscripts."""
    src = src.replace("\\|", "‖").replace("\\{", "{").replace("\\}", "}")
    out: list[str] = []
    buf = ""

    def flush() -> None:
        nonlocal buf
        if buf:
            text = decode_math(buf) if re.search(r"[\\{}]", buf) else buf
            text = re.sub(r"\s*([=≤≥<>∈≈≠→⊂⊆])\s*", r" \1 ", text)
            lead = " " if buf[:1].isspace() else ""
            trail = " " if buf[-1:].isspace() else ""
            out.append(lead + html.escape(text.strip()) + trail)
            buf = ""

    i = 0
    while i < len(src):
        ch = src[i]
        if ch in "^_":
            flush()
            arg, i = _group(src, i + 1)
            table = _SUP if ch == "^" else _SUB
            if arg and all(c in table for c in arg):
                out.append("".join(table[c] for c in arg))
            else:
                tag = "sup" if ch == "^" else "sub"
                out.append(f"<{tag}>{math_html(arg)}</{tag}>")
        elif ch == "{":
            arg, i = _group(src, i)
            if re.search(r"\\[a-zA-Z]+\s*(?:\{.*\})*$", buf, re.S):  # a command's arguments
                buf += "{" + arg + "}"
            else:
                flush()
                out.append(math_html(arg))
        else:
            buf += ch
            i += 1
    flush()
    return "".join(out)


def _highlight(text: str, match: Callable[[str], bool] | None) -> str:
    if match is None:
        return html.escape(text)
    parts = []
    for piece in re.split(r"(\w[\w'\-]*\w|\w)", text):
        if piece and (piece[0].isalnum() or piece[0] == "_") and match(piece):
            parts.append(f'<span style="background-color:#ffd54f;color:#000">{html.escape(piece)}</span>')
        else:
            parts.append(html.escape(piece))
    return "".join(parts)


def _wrap_html(body: str, styles: frozenset[str]) -> str:
    if "code" in styles:
        body = f"<code>{body}</code>"
    if "b" in styles:
        body = f"<b>{body}</b>"
    if "i" in styles:
        body = f"<i>{body}</i>"
    return body


def iter_html(raw: str, match: Callable[[str], bool] | None = None) -> Iterator[str]:
    yield "<p>"
    for run in parse(raw):
        if run.kind == "para":
            yield "</p><p>"
        elif run.kind == "math":
            yield _wrap_html(f'<span class="math">{math_html(run.text)}</span>', run.styles)
        elif run.kind == "url":
            href = html.escape(run.text, quote=True)
            shown = html.escape(re.sub(r"^https?://", "", run.text))
            yield f'<a href="{href}">{shown}</a>'
        else:
            yield _wrap_html(_highlight(run.text, match), run.styles)
    yield "</p>"


def to_html(raw: str, match: Callable[[str], bool] | None = None) -> str:
    """HTML a reader expects: italics, bold, typographic quotes, readable math, clickable links.

    `match` decides per word whether to highlight it (the search terms).
    """
    return "".join(iter_html(raw, match))


def inline_html(raw: str, match: Callable[[str], bool] | None = None) -> str:
    """One line of HTML (a title): like to_html without the paragraph."""
    body = to_html(raw, match)
    return body.removeprefix("<p>").removesuffix("</p>").replace("</p><p>", " ")


_CODE_RE = re.compile(r"(```.*?```|`[^`\n]*`)", re.S)


def note_markdown(text: str) -> str:
    """A note's Markdown with its math ($\\alpha$, \\(x_i\\)) as the HTML the abstract shows it in, so that
    Qt's Markdown renders it; code spans and blocks are left as written."""
    if "$" not in text and "\\(" not in text and "\\[" not in text:
        return text
    parts = _CODE_RE.split(text)
    for i in range(0, len(parts), 2):  # the even parts are outside code
        parts[i] = _MATH_RE.sub(
            lambda m: (
                f'<span style="font-family:serif; font-style:italic">'
                f"{math_html(next(g for g in m.groups() if g is not None).strip())}</span>"
            ),
            parts[i].replace("\\$", "\ue010"),
        ).replace("\ue010", "\\$")
    return "".join(parts)
