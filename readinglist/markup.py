"""Abstracts arrive as a mix of LaTeX, Markdown, HTML and bare URLs; readers want none of it raw.

One parser turns raw text into styled runs; the writers below turn runs into plain text (for the index),
Markdown (for export) and HTML (for the detail pane). pylatexenc does the LaTeX decoding, but it is slow
(milliseconds per abstract) and treats `%` as a comment, so it only ever sees the pieces that need it.

Text comes from the web and may be made to hurt, so every step is linear in the text: no pattern rescans
the rest of the text from each of many openers, math and LaTeX constructs past a size are shown as they
are rather than decoded, nested math is bounded in depth, and the runs are streamed, not kept. The HTML
breaks long unbroken tokens for display (Qt's layout is quadratic in one), and `truncated_html` gives the
detail pane the start of a huge text and says it was cut; the stored text and the exports keep it whole.

Over 400 lines: one parser and its three writers (plain, Markdown, HTML) must agree on every construct;
keeping them together is what keeps them agreeing (tests/test_markup.py checks the three side by side).
"""

from __future__ import annotations

import html
import html.entities
import io
import logging
import re
import unicodedata
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import NamedTuple

from readinglist.math_commands import MATH_COMMANDS

logging.getLogger("pylatexenc").setLevel(logging.ERROR)


@lru_cache(maxsize=1)
def _l2t():
    from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

    context = get_default_latex_context_db()
    context.add_context_category(
        "readinglist",
        macros=[MacroTextSpec(name, discard=False) for name in _ARGUMENT_SHOWN]
        + [MacroTextSpec(name, symbol) for name, symbol in _LATEX_SYMBOLS.items()],
        prepend=True,
    )
    return LatexNodes2Text(latex_context=context, math_mode="text", strict_latex_spaces=False)


# LaTeX's own commands that pylatexenc's tables lack, so that it dropped them (and an argument with them:
# "q\texttt{POTS}" was "q", "$A \land B$" "A B"): the commands whose argument is text shown as it is …
_ARGUMENT_SHOWN = ("texttt", "textsf", "textup", "textmd", "textnormal", "mbox", "hbox", "pmb", "boldsymbol")
# … and the symbols, as Unicode writes them
_LATEX_SYMBOLS = {
    "land": "∧", "lor": "∨", "ne": "≠", "neg": "¬", "iff": "⟺", "implies": "⟹", "impliedby": "⟸", "gets": "←",
    "models": "⊨", "triangle": "△", "bot": "⊥", "Box": "□", "Diamond": "◇", "Re": "ℜ", "Im": "ℑ", "S": "§",
    "colon": ":", "imath": "ı", "jmath": "ȷ",
}  # fmt: skip


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
    them on the UI thread."""
    to_html(r"\emph{warm} $x_1^2$ ``quoted'' **bold**")


# Private-use characters mark style changes; they pass through pylatexenc untouched. \underline's is no
# style (text shows it plain) but a formula's: marked, it goes back to its LaTeX in math (_unmark)
I_ON, I_OFF, B_ON, B_OFF, C_ON, C_OFF = "\ue000", "\ue001", "\ue002", "\ue003", "\ue004", "\ue005"
U_ON, U_OFF = "\ue006", "\ue007"
_MARKS = {I_ON: ("i", True), I_OFF: ("i", False), B_ON: ("b", True), B_OFF: ("b", False)}
_MARKS |= {C_ON: ("code", True), C_OFF: ("code", False), U_ON: ("", True), U_OFF: ("", False)}
_MARK_RE = re.compile("[\ue000-\ue007]")

# A character a URL may hold as LaTeX writes it in text (a BibTeX abstract is LaTeX: latex.escape_text writes
# `_` as `\_`, `~` as `\~{}`; other files spell `~` \textasciitilde{}, {\textasciitilde} or \string~). Each
# starts with `\` or `{`, which no URL character does, so a URL is still read in one pass.
_URL_ESCAPE = (
    r"\\[_%#&$]|\\[~^]\{\}|\\string[~^]|\\textbar\{\}|\\textasciicircum\{\}"
    r"|\\textasciitilde(?:\{\}|(?![a-zA-Z])(?:[ \t]+(?=[\w/]))?)|\{\\(?:textasciitilde|[~^]\{\}|string[~^])\}"
)
_URL_CHARS = r"[^\s<>\"'{}\\`$]"
_URL_RE = re.compile(
    rf"(?:https?://|www\.){_URL_CHARS}+(?:(?:{_URL_ESCAPE}){_URL_CHARS}*)*"
    rf"|\b(?:github\.com|gitlab\.com|huggingface\.co|bitbucket\.org)/[\w.\-/~]+(?:(?:{_URL_ESCAPE})[\w.\-/~]*)*",
    re.IGNORECASE,
)
_URL_ESCAPE_RE = re.compile(_URL_ESCAPE + "|\ue010")  # \ue010: iter_runs's stand-in for `\$`
_URL_HINTS = ("://", "www.", "github.", "gitlab.", "huggingface.", "bitbucket.")  # cheap test before _URL_RE
_BRACED = r"\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}"
_STYLE_CMD_RE = re.compile(r"\\(emph|textit|textsl|textbf|texttt|underline|textsc)\s*" + _BRACED)
_STYLE_GROUP_RE = re.compile(r"\{\\(em|it|itshape|bf|bfseries|tt)\s+((?:[^{}]|\{[^{}]*\})*)\}")
_URL_CMD_RE = re.compile(r"\\(?:url|path)\s*\{([^{}]*)\}|\\href\s*\{([^{}]*)\}\s*" + _BRACED)
# bold content never holds `**`: each opener scans only to the next one (`(.+?)` rescanned the rest of the text)
_MD_BOLD_RE = re.compile(r"\*\*(?=\S)([^*]+(?:\*[^*]+)*?)(?<=\S)\*\*")
_MD_ITALIC_RE = re.compile(r"(?<![\w*])\*(?=[^\s*$])([^*$\n]+?)(?<=[^\s*])\*(?![\w*])")
_HTML_TAG_RE = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)\b[^<>]*>")
# a named or numeric character reference with its semicolon ("&nbsp;", "&#8217;"): "R&D;" and "AT&T" are text
_HTML_ENTITY_RE = re.compile(r"&(?:[a-zA-Z][a-zA-Z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});")


def _entity(m: re.Match[str]) -> str:
    """The character a reference names, exactly (html.unescape reads "&notanentity;" as "¬anentity;"); a
    no-break space as a space."""
    ref = m.group(0)
    char = html.unescape(ref) if ref[1] == "#" else html.entities.html5.get(ref[1:], ref)
    if char in _MARKUP_CHARS:
        return ref  # "&#36;5" read as "$5" would open a formula: as written
    return char.replace("\xa0", " ")


_MARKUP_CHARS = frozenset("$\\*_{}~`")  # what a later step reads as markup (math, LaTeX, Markdown)


_MATH_OPEN_RE = re.compile(r"\$\$?|\\[(\[]")
_MATH_CLOSE = {"$$": "$$", "$": "$", "\\(": "\\)", "\\[": "\\]"}
_PARA_RE = re.compile(r"\n[ \t]*(?:%[ \t]*)?\n\s*|\n[ \t]*%[ \t]*\n")
_LATEX_TRIGGER = re.compile(r"[\\{}~]")
_TRAILING = ".,;:!?'\""
MAX_DECODED = 4000  # a LaTeX construct or a formula longer than this is shown as it is, not decoded
MAX_MATH_DEPTH = 24  # nested groups in a formula rendered as HTML; deeper ones are shown as they are
LONG_TOKEN = 48  # an unbroken run of characters longer than this is broken for display …
TOKEN_PIECE = 24  # … into pieces this long (a zero-width space between them)
DISPLAY_LIMIT = 30_000  # characters of text the detail pane renders before "show all"


_NO_STYLES: frozenset[str] = frozenset()


class Run(NamedTuple):
    kind: str  # "text" | "math" | "url" | "para"
    text: str
    styles: frozenset[str] = _NO_STYLES


def trim_url(url: str) -> str:
    """Drop the punctuation a sentence wraps around a URL, keeping balanced parentheses."""
    end = len(url)
    opened = {")": url.count("("), "]": url.count("[")}
    closed = {")": url.count(")"), "]": url.count("]")}  # counted once: a URL may end in 100k of ")"
    while end:
        last = url[end - 1]
        if last in _TRAILING:
            end -= 1
        elif last in closed and opened[last] < closed[last]:
            closed[last] -= 1
            end -= 1
        else:
            break
    return url[:end]


def _url_char(m: re.Match[str]) -> str:
    escape = m.group(0)
    if "~" in escape or "tilde" in escape:
        return "~"
    if "^" in escape or "circum" in escape:
        return "^"
    if "textbar" in escape:
        return "|"
    return "$" if escape == "\ue010" else escape[1]


def url_text(found: str) -> str:
    """A URL as _URL_RE found it, its LaTeX escapes as the characters they stand for: a BibTeX abstract's
    `github.com/a/faster\\_rcnn` links to faster_rcnn (the link was cut at the backslash, `_rcnn` left as text)."""
    return _URL_ESCAPE_RE.sub(_url_char, found) if "\\" in found or "{" in found or "\ue010" in found else found


def clean_url(url: str) -> str:
    """A URL as found in text, trimmed, its LaTeX escapes decoded and with a scheme."""
    url = url_text(trim_url(url))
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
            "underline": (U_ON, U_OFF),
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
    elif "&" in text:  # an entity with no tag about it ("Abstract&nbsp;&nbsp;The effect …", a JabRef file's 16)
        text = _HTML_ENTITY_RE.sub(_entity, text)
    if "*" in text:
        text = _MD_BOLD_RE.sub(lambda m: B_ON + m.group(1) + B_OFF, text)
        text = _MD_ITALIC_RE.sub(lambda m: I_ON + m.group(1) + I_OFF, text)
    return text


_SIMPLE_SUBS = [("---", "—"), ("--", "–"), ("``", "“"), ("''", "”")]


_LATEX_SPAN = re.compile(
    r"\\[a-zA-Z]+\*?(?:\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\})*"  # \cmd{arg}{arg}
    r"|\\[^a-zA-Z\s](?:\{[^{}]*\}|[a-zA-Z])?"  # \'e, \'{e}, \%, \&
    r"|\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}"  # {Protected}
    r"|~"  # a tie ("Table~1", "$k$~Experts", "50\%~over", "are ~Always"); the sign is marked first (_TILDE_SIGN)
)


def _plain_subs(text: str) -> str:
    for a, b in _SIMPLE_SUBS:
        if a in text:
            text = text.replace(a, b)
    return text


def _strip_commands(latex: str) -> str:
    return re.sub(r"\\[a-zA-Z]+\*?", "", latex).replace("{", "").replace("}", "")


def _decode_span(span: str) -> str:
    """One LaTeX construct to Unicode; a huge one (made to hurt) loses its commands without pylatexenc."""
    return _decode_short_span(span) if len(span) <= MAX_DECODED else _strip_commands(span)


# text symbols pylatexenc decodes to nothing; the BibTeX export writes them (latex._TEXT_SPECIALS)
_TEXT_SYMBOLS = {
    "\\textbraceleft": "\ue011", "\\textbraceright": "\ue012", "\\textless": "<", "\\textgreater": ">",
    "\\textbar": "|", "\\^": "^", "\\~": "~",
}  # fmt: skip


# Commands that only set type or space, which pylatexenc's text tables do not know and which show as nothing
_FORMATTING = frozenset(
    str.split(
        """noindent indent bf it em rm sf tt sl sc md up small large Large LARGE huge Huge normalsize footnotesize
    scriptsize tiny par newline linebreak pagebreak hfill vfill quad qquad relax medskip smallskip bigskip
    clearpage newpage maketitle protect ignorespaces nobreak xspace boldmath unboldmath centering raggedright
    raggedleft null hline displaystyle textstyle scriptstyle normalfont itshape bfseries upshape mdseries
    rmfamily sffamily ttfamily scshape slshape and left right big Big bigl bigr Bigl Bigr bigg Bigg texttt textsf
    textrm textit textbf textsc textnormal emph mathbb mathcal mathbf mathrm mathsf mathtt mathit cal frak
    boldsymbol bm operatorname limits nolimits"""
    )
)
# the paper's own shorthands that abstracts keep most (all-venues file: \ie 29, \eps 34, \eg 14)
_SHORTHANDS = {"ie": "i.e.", "eg": "e.g.", "etal": "et al.", "wrt": "w.r.t.", "vs": "vs.", "eps": "ε"}
_BARE_COMMAND = re.compile(r"\\([a-zA-Z]+)\*?(?:\{\})?")


@lru_cache(maxsize=20000)
def _decode_short_span(span: str) -> str:
    """Spans repeat (accents, {Braces}), so they are cached."""
    if span == "~":
        return " "
    symbol = _TEXT_SYMBOLS.get(span.removesuffix("{}"))
    if symbol is not None:
        return symbol
    if span.startswith(("\\cite", "\\ref", "\\label", "\\footnote", "\\eqref", "\\citep", "\\citet")):
        return ""
    bare = _BARE_COMMAND.fullmatch(span)
    if bare and bare.group(1) not in _FORMATTING and _l2t().latex_context.get_macro_spec(bare.group(1)) is None:
        # a macro of the paper's own preamble ("The proposed method, \method, addresses …"): pylatexenc
        # drops it, and the method's name with it (a trial); shown as written
        return _SHORTHANDS.get(bare.group(1), span.removesuffix("{}"))
    if span in ("\\end{abstract}", "\\begin{abstract}"):
        return ""
    # the export's ^ and ~ (\^{} \~{}) inside a {Protected} group: pylatexenc reads them as accents on
    # nothing and drops them ("{A\^{}2-Nets:}" came back "A2-Nets:", a trial); its braces, which it decodes
    # to nothing ("{\textbraceleft{}BERT\textbraceright{}}" came back "BERT"), go on as decode_text's marks
    literal = "\\^{}" in span or "\\~{}" in span or "\\textbrace" in span
    if literal:
        span = span.replace("\\^{}", "\ue013").replace("\\~{}", "\ue014")
        span = span.replace("\\textbraceleft{}", "\ue011").replace("\\textbraceright{}", "\ue012")
    try:
        out = _latex_to_text(span)
    except Exception:  # pylatexenc gives up on some malformed input; show it without commands
        out = _strip_commands(span)
    if literal:
        out = out.replace("\ue013", "^").replace("\ue014", "~")
    return out.replace("\xa0", " ")


# the TeX family's logos, which pylatexenc drops ("The {\TeX book}" was "The book"); the spaces after one
# end the command, as in TeX ("\TeX book" is "TeXbook"), and so does "{}" ("\TeX{} and" keeps its space);
# "\ " is a space
_LOGO_RE = re.compile(
    r"\\(TeX|LaTeXe|LaTeX|BibTeX|BibLaTeX|XeTeX|XeLaTeX|LuaTeX|LuaLaTeX|AmSTeX|ConTeXt)(?![a-zA-Z])(\{\}|\\ | *)"
)
_LOGOS = {"LaTeXe": "LaTeX2ε"}


def _logo(m: re.Match[str]) -> str:
    return _LOGOS.get(m.group(1), m.group(1)) + (" " if m.group(2) == "\\ " else "")


# biblatex's hyphens for compound words (\hyphen, \nbhyphen: "Self\hyphen{}Supervised"), hyphenat's \hyp
# (PMLR's COLT 2025 file: "first\hyp order") and amsmath's \nobreakdash before one, which pylatexenc left as
# written or dropped with the group they were in ("SelfSupervised"); the places TeX may break a word
# (biblatex's \hyphenate, \-), which show nothing (pylatexenc's soft hyphen split the word for the index);
# and the dashes. The spaces after one end the command, as in TeX ("first\hyp order" is first-order).
# \- is a break point only inside a word, where LaTeX puts one ("hy\-phen", "{GPU}\-accel"): elsewhere it is
# the text's own backslash and hyphen ("grep \-v", "[a-z\-]" of an abstract that is no LaTeX), kept as
# written (_LITERAL_BREAK through the decoding; pylatexenc made a soft hyphen of it, the backslash lost)
_HYPHEN = "\ue016"  # a hyphen command's "-" until the text is decoded (_marked_characters)
_LITERAL_BREAK = "\ue017"  # a "\-" outside a word until the text is decoded: shown as written
_HYPHEN_RE = re.compile(
    r"(?<!\\)\\(?:(hyphen|nbhyphen|hyp|hyphenate|nobreakdash|textendash|textemdash)(?![a-zA-Z])"
    r"|(?:(?<=[^\W\d_]\\)|(?<=\}\\))-(?=[^\W\d_]|\{))(\{\}|\\ | *)"
)
_LITERAL_BREAK_RE = re.compile(r"(?<!\\)\\-")
_HYPHENS = {"hyphen": _HYPHEN, "nbhyphen": _HYPHEN, "hyp": _HYPHEN, "textendash": "–", "textemdash": "—"}


def _hyphen(m: re.Match[str]) -> str:
    return _HYPHENS.get(m.group(1) or "", "") + (" " if m.group(2) == "\\ " else "")


# A "~" the authors meant as the sign, not LaTeX's tie: after a space, a bracket or the start and before a
# number, a space, a formula (_TILDE_BEFORE_MATH), a sign or O( ("~3x", "(~2000$)", "x ~ N", "about
# ~$10^6$", "(~+3%)", "~O(n)"); in a path ("pages.cs.wisc.edu/~user"); between a bare % and a number ("1%~5%":
# no tie follows a comment sign)
_TILDE_SIGN = re.compile(r"(?<![^\s(\[])~(?=[\d\s$+\-]|\.\d|O\()|(?<=/)~|(?<=[^\\]%)~(?=[\d.$+\-])")
_TILDE_BEFORE_MATH = re.compile(r"(?<![^\s(\[])~(?=\$)")  # "about ~$10^6$": marked before the formula is split off

# \{…\}: braces escaped in pairs are characters ("\{001\}", "\{AI\}"); a \{ that no \} closes is more often
# a broken accent ("H\{o}lder", "Cand\{e}s") and goes with the grouping braces
_ESCAPED_BRACES_RE = re.compile(r"\\\{((?:[^{}\\]|\\[^{}]|\{[^{}]*\})*?)\\\}")


def decode_text(chunk: str) -> str:
    """LaTeX text (no math) to Unicode. pylatexenc is slow and reads `%` as a comment, so it only ever
    sees the LaTeX constructs themselves, one at a time; the prose between them is left alone."""
    if "~" in chunk:  # the sign written, not LaTeX's tie: shown as "~" (_marked_characters)
        chunk = _TILDE_SIGN.sub("\ue015", chunk)
    if "TeX" in chunk and "\\" in chunk:
        chunk = _LOGO_RE.sub(_logo, chunk)
    if "\\" in chunk and ("hyp" in chunk or "dash" in chunk or "\\-" in chunk):
        chunk = _HYPHEN_RE.sub(_hyphen, chunk)
        if "\\-" in chunk:
            chunk = _LITERAL_BREAK_RE.sub(_LITERAL_BREAK, chunk)
    if "\\{" in chunk and "\\}" in chunk:  # marked as \textbraceleft{} \textbraceright{} are: braces at the end
        chunk = _ESCAPED_BRACES_RE.sub("\ue011\\1\ue012", chunk)
    if not _LATEX_TRIGGER.search(chunk):
        return _marked_characters(_plain_subs(chunk))
    out, pos = [], 0
    for m in _LATEX_SPAN.finditer(chunk):
        out.append(_plain_subs(chunk[pos : m.start()]))
        out.append(_decode_span(m.group(0)))
        pos = m.end()
    out.append(_plain_subs(chunk[pos:]))
    text = "".join(out)
    if "{" in text or "}" in text:  # grouping braces, and a \{ or \} alone (a broken accent, as often as not)
        text = text.replace("{", "").replace("}", "")
    return _marked_characters(text)


def _marked_characters(text: str) -> str:
    """The braces marked as characters (\\textbraceleft{}, the export's; \\{…\\}) as braces, the "~" sign as
    itself, a hyphen command's mark as "-" (marked so that no "-" beside it makes an en dash of it)."""
    if "\ue011" in text or "\ue012" in text:
        text = text.replace("\ue011", "{").replace("\ue012", "}")
    if _HYPHEN in text:
        text = text.replace(_HYPHEN, "-")
    if _LITERAL_BREAK in text:
        text = text.replace(_LITERAL_BREAK, "\\-")
    return text.replace("\ue015", "~") if "\ue015" in text else text


def decode_math(src: str) -> str:
    """Math as the plain text of an abstract has it (to_plain: the index, CSV, RIS): as math_plain writes it,
    grouping kept (T^(11/16), (a+b)/c; pylatexenc alone wrote T^11/16, a trial), but with ^ and _ always
    (α_i, 𝒪(n^2)), as the index has always read them. A huge formula is kept as it is."""
    if len(src) > MAX_DECODED:
        return src
    if not _MATH_DECODE_TRIGGER.search(src):  # $k$, $n$, $a+b$: written as they are
        return src.strip() or src
    return _decode_short_math(src)


_MATH_DECODE_TRIGGER = re.compile(r"[\\{}^_~%&#]")


@lru_cache(maxsize=20000)
def _decode_short_math(src: str) -> str:
    """Cached: $O(n)$, $\\alpha$ recur."""
    return _math(src, _Out(html=False, unicode_scripts=False)).strip()


def parse(raw: str) -> list[Run]:
    """Split raw abstract text into paragraphs of styled text, math and URL runs."""
    return list(iter_runs(raw))


def math_spans(para: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, body) of each formula: $$…$$, $…$, \\(…\\), \\[…\\]. An opener whose closer is missing
    from the rest of the text tells that no later opener of its kind closes either, so the text is read
    once (a pattern's `\\((.+?)\\)` rescanned the rest from every `\\(`)."""
    closed_off: set[str] = set()
    pos = 0
    n = len(para)
    while pos < n:
        m = _MATH_OPEN_RE.search(para, pos)
        if m is None:
            return
        opener = m.group(0)
        start = m.start()
        body_from = m.end()
        if opener == "$$":
            end = -1 if "$$" in closed_off else para.find("$$", body_from + 1)
            if end >= 0:
                yield start, end + 2, para[body_from:end]
                pos = end + 2
                continue
            closed_off.add("$$")
            opener, body_from = "$", start + 1  # as `\$(.+?)\$` read it: the second $ is the formula's start
        close = _MATH_CLOSE[opener]
        end = -1 if opener in closed_off else para.find(close, body_from + 1)
        if end < 0:
            closed_off.add(opener)
            pos = start + 1
            continue
        yield start, end + len(close), para[body_from:end]
        pos = end + len(close)


def iter_runs(raw: str) -> Iterator[Run]:
    """The runs of `parse`, one at a time (a huge text's runs are never all held)."""
    if not raw:
        return
    text = raw.replace("\r\n", "\n").replace("\r", "\n").replace("\\$", "\ue010")
    if "~$" in text:
        text = _TILDE_BEFORE_MATH.sub("\ue015", text)
    if "\\" in text:
        text = _URL_CMD_RE.sub(lambda m: (m.group(1) or m.group(2) or "") if m.group(1) or m.group(2) else "", text)
    text = _style_markers(text)
    state = _StyleState()
    paragraphs = _PARA_RE.split(text) if "\n" in text else [text]
    first = True
    for para in paragraphs:
        if not para.strip():
            continue
        if not first:
            yield Run("para", "")
        first = False
        para = para.strip()
        if "\n" in para:  # `\s*\n\s*` was quadratic in a long run of spaces
            para = " ".join(piece for line in para.split("\n") if (piece := line.strip()))
        flags = _Flags(para)
        pos = 0
        for start, end, body in math_spans(para) if flags.math else ():
            yield from _text_runs(para[pos:start], state, flags)
            yield Run("math", _unmark(body).replace("\ue010", "\\$").strip(), state.current)
            pos = end
        yield from _text_runs(para[pos:], state, flags)


_UNMARK = {I_ON: "\\textit{", B_ON: "\\textbf{", C_ON: "\\texttt{", U_ON: "\\underline{"}
_UNMARK |= {I_OFF: "}", B_OFF: "}", C_OFF: "}", U_OFF: "}"}


def _unmark(math: str) -> str:
    """Emphasis inside math ("$\\textit{Name}$") back to its LaTeX: the markers are for text runs, and left
    in math they reached the plain text, the HTML and the Markdown as private-use characters."""
    return _MARK_RE.sub(lambda m: _UNMARK[m.group(0)], math) if _MARK_RE.search(math) else math


class _StyleState:
    """The styles open at this point of the text, as one shared frozenset (rebuilt only when they change)."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.current: frozenset[str] = _NO_STYLES

    def switch(self, name: str, on: bool) -> None:
        (self.names.add if on else self.names.discard)(name)
        self.current = frozenset(self.names)


class _Flags:
    """What a paragraph holds at all, tested once rather than in each of its (possibly millions of) pieces."""

    def __init__(self, para: str) -> None:
        lowered = para.lower()
        self.math = "$" in para or "\\(" in para or "\\[" in para
        self.urls = any(h in lowered for h in _URL_HINTS)
        self.marks = any(mark in para for mark in _MARKS)  # substring tests run in C, a class search does not
        self.latex = "\\" in para or "{" in para or "}" in para or "~" in para  # _LATEX_TRIGGER
        self.subs = any(a in para for a, _ in _SIMPLE_SUBS)


def _text_runs(chunk: str, state: _StyleState, flags: _Flags) -> Iterator[Run]:
    if not chunk:
        return
    if not flags.urls:  # the URL pattern is the slowest scan here
        yield from _styled(chunk, state, flags)
        return
    lowered = chunk.lower()
    if not any(h in lowered for h in _URL_HINTS):
        yield from _styled(chunk, state, flags)
        return
    pos = 0
    for m in _URL_RE.finditer(chunk):
        url = clean_url(m.group(0))
        end = m.start() + len(trim_url(m.group(0)))  # trimmed punctuation stays text
        yield from _styled(chunk[pos : m.start()], state, flags)
        yield Run("url", url, state.current)
        pos = end
    yield from _styled(chunk[pos:], state, flags)


def _styled(chunk: str, state: _StyleState, flags: _Flags) -> Iterator[Run]:
    if not chunk:
        return
    decoded = decode_text(chunk) if flags.latex else (_plain_subs(chunk) if flags.subs else chunk)
    if "\ue010" in decoded:
        decoded = decoded.replace("\ue010", "$")
    if "\ue015" in decoded:
        decoded = decoded.replace("\ue015", "~")
    if not flags.marks:
        yield Run("text", decoded, state.current)
        return
    if U_ON in decoded or U_OFF in decoded:  # \underline in text is plain, and no run of its own
        decoded = decoded.replace(U_ON, "").replace(U_OFF, "")
    pos = 0
    for m in _MARK_RE.finditer(decoded):
        if m.start() > pos:
            yield Run("text", decoded[pos : m.start()], state.current)
        name, on = _MARKS[m.group(0)]
        state.switch(name, on)
        pos = m.end()
    if pos < len(decoded):
        yield Run("text", decoded[pos:], state.current)


# ---- writers -------------------------------------------------------------------------------------------


def to_plain(raw: str) -> str:
    """Readable plain text: what the index sees and what a one-line preview shows."""
    if not raw:
        return ""
    buf = io.StringIO()  # not a list of parts: a huge text has millions of runs
    write = buf.write
    for run in iter_runs(raw):
        if run.kind == "para":
            write("\n\n")
        elif run.kind == "math":
            write(decode_math(run.text))
        else:
            write(run.text)
    out = buf.getvalue()
    if "  " in out or "\t" in out:
        out = _SPACES_RE.sub(" ", out)
    if "\n" in out:
        out = _PARA_SPACES_RE.sub("\n\n", out)
    return out.strip()


_SPACES_RE = re.compile(r"[ \t]+")
_PARA_SPACES_RE = re.compile(r" ?\n\n ?")


def title_plain(raw: str) -> str:
    """A title on one line, LaTeX decoded and {Protected} braces gone, its math as the detail pane shows
    an abstract's (math_plain): what the table, the detail heading, the CLI, exports and the index hold."""
    if not raw:
        return ""
    parts = []
    for run in parse(raw):
        if run.kind == "para":
            parts.append(" ")
        elif run.kind == "math":
            parts.append(math_plain(run.text))
        else:
            parts.append(run.text)
    return re.sub(r"\s+", " ", "".join(parts)).strip()


_BRACE_RE = re.compile(r"[{}]")
_COMMAND_BEFORE_RE = re.compile(r"\\(?:[a-zA-Z]+\*?|[^a-zA-Z\s{}])\s*\Z")  # \emph {, \"{, \'{
_BRACE_TEXT = {"{": "\\textbraceleft{}", "}": "\\textbraceright{}"}


def braces_as_text(title: str) -> str:
    """A title from a plain-text format (JSON, CSV, RIS, CSL-JSON, a reading list), written so that title_plain
    keeps its braces: they are characters there ("{001}", "Open-{Software, Hardware}"), not BibTeX's
    protection, which title_plain takes off ("001"). Braces LaTeX reads stay so: a command's arguments
    (\\emph{x}, H\\"{o}lder, \\href{a}{b}), a group that opens with a command ({\\"o}, {\\em x}), an
    escaped one, any in a formula, and a group inside a word ("{D}eep {S}ets", "{GAN}s": BibTeX's way of
    keeping a capital, which JSON written from BibTeX holds; a plain title has no brace there)."""
    if "{" not in title and "}" not in title:
        return title
    hidden = title.replace("\\$", "\ue010")  # as iter_runs reads it: an escaped dollar opens no formula
    formulas = iter(math_spans(hidden) if "$" in hidden or "\\" in hidden else ())
    formula = next(formulas, None)
    text: list[int] = []  # where the braces that are characters are
    opened: list[tuple[int, bool]] = []  # each open brace: where, and whether it may be a character
    argument_end = 0  # just after the last LaTeX group closed
    for m in _BRACE_RE.finditer(hidden):
        i = m.start()
        while formula is not None and formula[1] <= i:
            formula = next(formulas, None)
        if formula is not None and formula[0] <= i:
            continue  # in a formula
        slashes = 0
        while slashes < i and hidden[i - 1 - slashes] == "\\":
            slashes += 1
        if slashes % 2:
            continue  # \{ and \}: characters already
        if m.group(0) == "{":
            latex = (
                hidden[i + 1 : i + 2] == "\\"
                or bool(_COMMAND_BEFORE_RE.search(hidden, max(0, i - 40), i))
                or 0 < argument_end == i  # the next argument: \href{a}{b}
            )
            opened.append((i, not latex))
        elif not opened:
            text.append(i)  # a closing brace that closes nothing
        else:
            start, maybe = opened.pop()
            if maybe and not (hidden[start - 1 : start].isalnum() or hidden[i + 1 : i + 2].isalnum()):
                text += [start, i]
            else:
                argument_end = i + 1
    text += [start for start, maybe in opened if maybe]  # one never closed
    if not text:
        return title
    out: list[str] = []
    pos = 0
    for i in sorted(text):
        out += [hidden[pos:i], _BRACE_TEXT[hidden[i]]]
        pos = i + 1
    out.append(hidden[pos:])
    return "".join(out).replace("\ue010", "\\$")


def formulas_as_text(text: str) -> str:
    """The text with each formula ($…$, \\(…\\)) as math_plain writes it and the rest as it is: a title typed
    by the reader, who means "$\\epsilon$" as ϵ but "C#" and braces as typed (title_plain reads it all as LaTeX)."""
    parts, at = [], 0
    for start, end, body in math_spans(text):
        parts += [text[at:start], math_plain(body)]
        at = end
    return "".join(parts) + text[at:]


def math_plain(src: str) -> str:
    """Math as plain text, as math_html shows it: real sub- and superscripts where Unicode has them all (ℓ₁,
    x², O(n²)), else ^ and _ (α_i) with a group of more than one token in parentheses (ε^(-4/7))."""
    how = _Out(html=False)
    shown = _math(src, how)
    if how.unrepresentable:
        shown = _math(src, _Out(html=False, unicode_scripts=False))
    return shown.strip()


def escape_markdown(text: str) -> str:
    """Escape what would turn a title into Markdown syntax or HTML."""
    from readinglist.mdtext import escape_chars

    return escape_chars(text)


def to_markdown(raw: str) -> str:
    """Markdown for export: emphasis as *x* / **x**, math kept as $…$, links as autolinks; inert (see
    mdtext): text escaped, code fenced, math without HTML, only http(s) links."""
    from readinglist.mdtext import code_span, escape_chars, inert_math, safe_url

    buf = io.StringIO()
    write = buf.write
    for run in iter_runs(raw):
        if run.kind == "para":
            write("\n\n")
        elif run.kind == "math":
            write(_wrap_md(f"${inert_math(run.text)}$", run.styles))
        elif run.kind == "url":
            target = safe_url(run.text)
            write(f"<{target}>" if target else escape_chars(run.text))
        elif "code" in run.styles:
            write(_wrap_md(run.text, run.styles, code_span))
        else:
            write(_wrap_md(escape_chars(run.text), run.styles))
    out = buf.getvalue()
    return (_RUNS_OF_SPACE_RE.sub(" ", out) if "  " in out or "\t" in out else out).strip()


_RUNS_OF_SPACE_RE = re.compile(r"[ \t]{2,}|\t")  # not every single space: each match costs


def _wrap_md(text: str, styles: frozenset[str], code: Callable[[str], str] | None = None) -> str:
    if not styles or not text.strip():
        return text
    lead = text[: len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()) :]
    core = text.strip()
    if "code" in styles and code is not None:
        core = code(core)
    if "b" in styles:
        core = f"**{core}**"
    if "i" in styles:
        core = f"*{core}*"
    return lead + core + trail


# ---- HTML (the detail pane) ----------------------------------------------------------------------------

_SUP = dict(zip("0123456789+-=()niT", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵀ", strict=True))
_SUB = dict(zip("0123456789+-=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎", strict=True))
_COMMAND_RE = re.compile(r"\\([a-zA-Z]+|.)", re.S)
_LONG_TOKEN_RE = re.compile(r"[^\s\u200b]{" + str(LONG_TOKEN + 1) + ",}")
_BREAK = "\u200b"  # a zero-width space: where Qt may break a line


def break_long_tokens(text: str) -> str:
    """Text for display: an unbroken run longer than LONG_TOKEN characters gets a zero-width space every
    TOKEN_PIECE characters (Qt lays out one long token in quadratic time; copied text keeps the spaces)."""
    if len(text) <= LONG_TOKEN or max(map(len, text.split()), default=0) <= LONG_TOKEN:  # the common case, in C
        return text

    def cut(m: re.Match[str]) -> str:
        token = m.group(0)
        return _BREAK.join(token[i : i + TOKEN_PIECE] for i in range(0, len(token), TOKEN_PIECE))

    return _LONG_TOKEN_RE.sub(cut, text)


def _escape_shown(text: str) -> str:
    return html.escape(break_long_tokens(text))


def _group(src: str, i: int) -> tuple[str, int]:
    """The argument starting at src[i]: a {balanced group}, a \\command, or one character."""
    n = len(src)
    while i < n and src[i] == " ":
        i += 1
    if i >= n:
        return "", i
    if src[i] == "{":
        depth = 0
        for j in range(i, n):
            ch = src[j]
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    return src[i + 1 : j], j + 1
        return src[i + 1 :], n
    if src[i] == "\\":
        m = _COMMAND_RE.match(src, i)  # at i, not on a copy of the rest (quadratic in \\a\\a\\a…)
        if m is None:  # a trailing backslash
            return "\\", i + 1
        return m.group(0), m.end()
    return src[i], i + 1


def math_html(src: str) -> str:
    """Math as readable HTML: Unicode symbols from pylatexenc, real sub- and superscripts. A formula too
    long or too deeply nested (made to hurt) is shown as it is."""
    return _math(src, _Out(html=True))


def _math(src: str, how: _Out) -> str:
    """A whole formula written as `how` asks: \\{ and \\} are braces shown, not a group (marked before the
    formula is read, and shown once it is written)."""
    if len(src) > MAX_DECODED:
        return _escape_shown(src) if how.html else src
    if _OWN_MARKS_RE.search(src):  # private-use characters the writer uses for its own marks: never meant
        src = _OWN_MARKS_RE.sub("", src)
    src = src.replace("\\operatorname*", "\\operatorname").replace("\\|", "‖")
    src = src.replace("\\{", _BRACE_OPEN).replace("\\}", _BRACE_CLOSE)
    if "\\" in src and _SWITCH_HINT_RE.search(src):
        src = _font_switches(src)
    shown = _render(src, 0, how)
    return shown.replace(_BRACE_OPEN, "{").replace(_BRACE_CLOSE, "}")


# plain TeX's font switches, which a formula keeps from old papers and MathJax ({\\cal X}: PMLR's COLT and UAI
# 2025 files, 14 uses; x_{\\rm max}), as LaTeX's commands with an argument
_SWITCHES = {"cal": "\\mathcal", "rm": "\\mathrm", "bf": "\\mathbf", "it": "\\mathit", "sf": "\\mathsf",
             "tt": "\\mathtt", "frak": "\\mathfrak"}  # fmt: skip
_SWITCH_HINT_RE = re.compile(r"\\(?:cal|rm|bf|it|sf|tt|frak)(?![a-zA-Z])")
_SWITCH_RE = re.compile(r"\\(cal|rm|bf|it|sf|tt|frak)(?![a-zA-Z]) *|\\[^a-zA-Z]|[{}]")


def _font_switches(src: str) -> str:
    """A formula's font switches as the commands LaTeX has for them: a switch holds to the end of its group
    (TeX's and MathJax's reading), so "{\\cal X}" is \\mathcal{X} and "$\\cal H$" \\mathcal{H}; pylatexenc
    dropped them (X, not 𝒳). One pass: a group's switches are closed where it closes."""
    out: list[str] = []
    held = [0]  # for each group open here, whether a switch holds to its end
    pos = 0
    for m in _SWITCH_RE.finditer(src):
        token = m.group(0)
        if token == "{":
            held.append(0)
        elif token == "}" and len(held) > 1:
            out += [src[pos : m.start()], "}" * held.pop()]
            pos = m.start()
        elif m.group(1):  # a switch ends the one before it in its group: \\cal x \\rm y is \\mathcal{x }\\mathrm{y}
            out += [src[pos : m.start()], "}" * held[-1], _SWITCHES[m.group(1)], "{"]
            pos = m.end()
            held[-1] = 1
    out += [src[pos:], "}" * sum(held)]
    return "".join(out)


class _Out:
    """How a formula is written: as HTML, or as plain text, which has Unicode's sub- and superscript
    characters only when every script in the formula has them (ℓ₁, O(n²)) and else writes all as ^ and _
    (α_i, x_i^2), so that one formula does not mix the two."""

    __slots__ = ("html", "unicode_scripts", "unrepresentable")

    def __init__(self, html: bool, unicode_scripts: bool = True) -> None:
        self.html = html
        self.unicode_scripts = unicode_scripts
        self.unrepresentable = False  # a script plain text had to write with ^ or _


def _render(src: str, depth: int, how: _Out, script: bool = False) -> str:
    """A formula's piece, read once from the left: runs of symbols decoded by pylatexenc, and what it flattens
    (scripts, groups, fractions, a command's arguments holding any of them) written here, the same at
    every depth; `script`: the piece is a sub- or superscript, set tight as TeX sets one."""
    if depth > MAX_MATH_DEPTH:
        return _escape_shown(src) if how.html else src
    out: list[str] = []
    buf: list[str] = []
    held: list[str] = []  # the arguments buf holds as marks (_ARG_MARKS), written here when it is flushed
    after_command = False  # buf ends with a \\command (and maybe its {arguments}): a plain group is one more
    after_operator = False  # out ends with an operator's name: a letter or digit after it stands apart

    def emit(piece: str, attached: bool = False) -> None:
        nonlocal after_operator
        if not piece:
            return
        if after_operator and not attached and _first_shown(piece).isalnum():
            out.append(_OPERATOR_GAP if how.html else " ")
        out.append(piece)
        after_operator = False

    def flush() -> None:
        if buf:
            raw = "".join(buf)
            buf.clear()
            shown = " " if raw.isspace() else _shown(raw, how, script)  # between two groups: one space
            for k, arg in enumerate(held):  # \sqrt{c_2 T}: pylatexenc wrote √(mark), the mark is c₂ T
                shown = shown.replace(_ARG_MARKS[k], _render(arg, depth + 1, how, script))
            held.clear()
            emit(shown)

    def hold(arg: str) -> str:
        """An argument pylatexenc would flatten, as a mark in buf."""
        held.append(arg)
        return _ARG_MARKS[len(held) - 1]

    i, n = 0, len(src)
    while i < n:
        ch = src[i]
        if ch in "^_":
            while buf and buf[-1].isspace():  # x ^2 is x²: TeX sets a script against its base
                buf.pop()
            flush()
            after_command = False
            arg, i = _token_argument(src, i + 1)
            emit(_script(ch, arg, depth, how), attached=True)
        elif ch == "{":
            arg, i = _group(src, i)
            if after_command and not _needs_own(arg):
                buf.append("{" + arg + "}")
            elif after_command and len(held) < len(_ARG_MARKS):  # \bm{x_i}: an unknown command's argument
                buf.append("{" + hold(arg) + "}")
            else:
                flush()
                after_command = False
                emit(_render(arg, depth + 1, how, script))
        elif ch == "\\":
            m = _COMMAND_RE.match(src, i)
            word = m.group(0) if m else "\\"
            start, i = i, i + len(word)
            after_command = False
            if word in _MATH_SPACES or word in _OPERATORS or _shown_by_name(word, src, i):
                flush()  # \quad, \, … as spaces; \min, \log … and an author's \poly upright, by name
                if word in _MATH_SPACES:
                    emit(_MATH_SPACES[word])
                    continue
                if src.startswith("{}", i):  # \ours{}: the empty group ends the name, as in text
                    i += 2
                if word[1:] in _SHORTHANDS:  # \eps is ε, as in text
                    buf.append(_SHORTHANDS[word[1:]])
                    continue
                # an operator stands apart from a letter before it: n log n, not nlog n
                name = _OPERATOR_SHOWN.get(word, word[1:])
                lead = (_OPERATOR_GAP if how.html else " ") if _last_shown(out).isalnum() else ""
                emit(lead + (f'<span style="font-style:normal;">{name}</span>' if how.html else name))
                after_operator = True
            elif word in _ACCENTS and src[_skip_spaces(src, i) : _skip_spaces(src, i) + 1] not in ("", "}", "^", "_"):
                flush()
                arg, i = _token_argument(src, i)  # written as a command's argument is (𝐱⃗: pylatexenc's 𝐱)
                inner = _render(arg, depth + 1, how, script) if _needs_own(arg) else _shown(arg, how, script)
                emit(_accented(inner, _ACCENTS[word], how))
            elif word in _UPRIGHT and src.startswith("{", i):  # \mathrm{KL}: not in the formula's italics
                flush()
                arg, i = _group(src, i)
                if word in _SANS:  # \mathsf{Attn}: 𝖠𝗍𝗍𝗇, as \mathcal{X} is 𝒳
                    arg = _SANS_LETTER_RE.sub(_sans_letter, arg)
                inner = _render(arg, depth + 1, how, script)
                if how.html:
                    bold = " font-weight:bold;" if word in _BOLD else ""
                    inner = f'<span style="font-style:normal;{bold}">{inner}</span>'
                emit(inner)
                after_operator = word == "\\operatorname"
            else:
                spec = _argspec(word)
                args, i = _arguments(src, i, spec)
                if word in _FRACTIONS and len(args) == 2:
                    flush()
                    emit(_fraction(args[0][1], args[1][1], depth, how, script))
                    if src.startswith(("^", "_"), _skip_spaces(src, i)):  # \frac{a}{b}^2 is (a/b)²
                        out[-1] = f"({out[-1]})"
                    continue
                own = [kind == "{" and _needs_own(arg) for kind, arg in args]
                if len(held) + sum(own) > len(_ARG_MARKS):
                    flush()
                missing = "{}" * (spec.count("{") - sum(kind == "{" for kind, _ in args))  # pylatexenc's, not $
                if any(own):  # \sqrt{c_2 T}, \hat{x_i}: each such argument written here, at its mark
                    buf.append(
                        word
                        + "".join(
                            _argument(kind, hold(arg) if mine else arg)
                            for (kind, arg), mine in zip(args, own, strict=True)
                        )
                        + missing
                    )
                else:  # symbols and arguments pylatexenc decodes as they are (\alpha, \mathcal{O}, \hat{x})
                    buf.append(src[start:i] + missing)
                after_command = word[1:2].isalpha()
        else:
            buf.append(ch)
            i += 1
            if not ch.isspace():
                after_command = False
    flush()
    return "".join(out)


def _shown(raw: str, how: _Out, script: bool) -> str:
    """A run of symbols (no scripts, no groups of its own) decoded, spaced and, for HTML, escaped."""
    text = _decode_piece(raw) if ("\\" in raw or "{" in raw or "}" in raw) else raw
    if "  " in text:  # spaces around a command that sets type only (a + \bm K): TeX shows none of them
        text = _SPACES_RE.sub(" ", text)
    if script:  # TeX sets a script tight: (1 - γ)^(-7/2), not ^(- 7 / 2)
        text = _SCRIPT_OP_RE.sub(r"\1", text).strip()
        lead = " " if raw[:1].isspace() and text[:1] not in _SCRIPT_OPS else ""
        trail = " " if raw[-1:].isspace() and text[-1:] not in _SCRIPT_OPS else ""
    else:
        spaced = _MATH_OP_RE.sub(r" \1 ", text)  # a relation at an end keeps its space: x_i = x_j, not x_i= x_j
        text = spaced.strip()
        if not text:  # \bm and other commands that only set type, between spaces: one space
            return " " if raw[:1].isspace() or raw[-1:].isspace() else ""
        lead = " " if raw[:1].isspace() or spaced[:1] == " " else ""
        trail = " " if raw[-1:].isspace() or spaced[-1:] == " " else ""
    return lead + (_escape_shown(text) if how.html else text) + trail


@lru_cache(maxsize=20000)
def _decode_piece(raw: str) -> str:
    """pylatexenc's Unicode for a run of symbols; one that decodes to nothing shows nothing when its commands
    are LaTeX's own (\\limits, \\displaystyle, \\left) and as written when not (an author's \\R)."""
    try:
        out = _latex_to_text("$" + raw + "$").replace("\xa0", " ")
    except Exception:  # pylatexenc gives up on some malformed input
        return raw
    if out.strip():
        return out
    return "" if all(name in MATH_COMMANDS for name in _COMMAND_NAME_RE.findall(raw)) else raw


def _needs_own(arg: str) -> bool:
    """Does a command's argument hold what pylatexenc would flatten or drop (a script, a fraction, an accent,
    an author's command, an operator's name it runs into the digit before: √(2log T)), so that it is written
    here? Else pylatexenc writes the command with it (\\vec{\\mathbf{x}} is 𝐱⃗)."""
    if "^" in arg or "_" in arg:
        return True
    return "\\" in arg and any(
        name in _OWN_COMMANDS or _authors_own("\\" + name) for name in _COMMAND_NAME_RE.findall(arg)
    )


@lru_cache(maxsize=4096)
def _authors_own(word: str) -> bool:
    """A command of the paper's own preamble (\\poly, \\R, \\eps): not LaTeX's (MATH_COMMANDS), not one
    pylatexenc or this module writes, not one that only sets type (\\bm). pylatexenc drops it."""
    name = word[1:]
    if name in _TEXT_ONLY:
        return True
    return (
        name.isalpha()
        and name not in MATH_COMMANDS
        and name not in _FORMATTING
        and word not in _ACCENTS
        and word not in _OPERATORS
        and word not in _UPRIGHT
        and word not in _FRACTIONS
        and _l2t().latex_context.get_macro_spec(name) is None
    )


# pylatexenc's text accents and letters, an error in a formula (TeX: "Please use \\mathaccent for accents in
# math mode"): there, an author's own (\\u for a vector u), not ŭ
_TEXT_ONLY = frozenset(str.split("u v c H d b k t r l L o O i j ss aa AA ae AE oe OE")) - MATH_COMMANDS


def _shown_by_name(word: str, src: str, i: int) -> bool:
    """Is the command at src[:i] an author's own (`_authors_own`) shown by its name, as TeX sets an operator's
    (O(poly(d)√T), was O((d)√T): pylatexenc drops it)? One with an argument shows its argument instead (an
    author's \\bm{x} is x), as in text."""
    if not _authors_own(word):
        return False
    return src.startswith("{}", i) or not src.startswith("{", _skip_spaces(src, i))


def _script(mark: str, arg: str, depth: int, how: _Out) -> str:
    """A sub- or superscript: Unicode's characters where it has them all (x², ℓ₁), else <sup>/<sub> in HTML,
    and in plain text ^ or _ before one token (x^n, α_i) or before the group in parentheses (^(-7/2))."""
    table = _SUP if mark == "^" else _SUB
    if arg and (how.html or how.unicode_scripts) and all(c in table for c in arg):
        return "".join(table[c] for c in arg)
    inner = _render(arg, depth + 1, how, script=True)
    if how.html:
        tag = "sup" if mark == "^" else "sub"
        return f"<{tag}>{inner}</{tag}>"
    how.unrepresentable = True
    if not inner.strip():
        return ""
    items, scripted = _shape(arg)
    return mark + (inner.strip() if items == 1 and not scripted else f"({inner.strip()})")


def _fraction(top: str, bottom: str, depth: int, how: _Out, script: bool) -> str:
    """\\frac{a}{b} as a/b, a part of more than one item in parentheses: (a+b)/c, 1/(2n), 1/i²."""
    parts = []
    for part in (top, bottom):
        shown = _render(part, depth + 1, how, script).strip()
        parts.append(shown if _shape(part)[0] <= 1 else f"({shown})")
    return "/".join(parts)


def _token_argument(src: str, i: int) -> tuple[str, int]:
    """An accent's or a script's argument from src[i] on: a {group} or one token, a command with the arguments
    it takes, as TeX reads `\\tilde\\mathcal O` and `T^\\frac{a}{b}` (the accent over 𝒪, the fraction
    raised; a bare \\frac was written "T^(/)ab")."""
    j = _skip_spaces(src, i)
    arg, end = _group(src, j)
    if src.startswith("\\", j) and arg[1:2].isalpha():
        _, end = _arguments(src, end, _argspec(arg))
        arg = src[j:end]
    return arg, end


def _accented(inner: str, mark: str, how: _Out) -> str:
    """An accent's argument, written, with its combining mark: on the character when it is one (x̂, θ̃, Õ, as
    pylatexenc accents a letter), else after the group in parentheses, (AB)̅, as Unicode's linear format of
    math (UnicodeMath) writes an accent over several characters. A mark on each letter (ÃB̃) would read as
    \\tilde{A}\\tilde{B}, and a mark after the last as an accent on it alone (x_î for \\hat{x_i})."""
    inner = inner.strip()
    shown = html.unescape(_ANY_TAG_RE.sub("", inner)) if how.html else inner
    if not shown:
        return inner
    if len(shown) == 1 or all(unicodedata.combining(c) for c in shown[1:]):
        tags = _TRAILING_TAGS_RE.search(inner)
        head, tail = (inner[: tags.start()], tags.group(0)) if tags else (inner, "")
        if head[-1] in _DOTLESS:  # \\hat{\\imath} is î, as pylatexenc writes it
            head = head[:-1] + _DOTLESS[head[-1]]
        return unicodedata.normalize("NFC", head + mark) + tail
    if shown[0] == "(" and _closing(shown, 0, "(", ")") == len(shown) - 1:
        return inner + mark  # (a+b) is a group already
    return f"({inner}){mark}"


def _argument(kind: str, text: str) -> str:
    """An argument as LaTeX again: {text}, [text] or the star."""
    return "{" + text + "}" if kind == "{" else ("[" + text + "]" if kind == "[" else text)


def _skip_spaces(src: str, i: int) -> int:
    """The position of the first character from src[i] on that is not a space."""
    while i < len(src) and src[i] == " ":
        i += 1
    return i


@lru_cache(maxsize=4096)
def _argspec(word: str) -> str:
    """The arguments a command takes, as pylatexenc's macro table has them ("{{" for \\frac, "[{" for
    \\sqrt): "{" one, "[" an optional one, "*" a star; "" for a symbol or a command it does not know."""
    if word in _FRACTIONS:
        return "{{"
    if not word[1:2].isalpha():
        return ""
    spec = _walker_context().get_macro_spec(word[1:])
    argspec = getattr(getattr(spec, "args_parser", None), "argspec", "") if spec is not None else ""
    return "".join(c for c in str(argspec or "") if c in "{[*")[: len(_ARG_MARKS)]


def _arguments(src: str, i: int, spec: str) -> tuple[list[tuple[str, str]], int]:
    """The arguments `spec` asks for from src[i] on, as (kind, text): a mandatory one braced or one token,
    an optional [one] and a star only when there; the position after them."""
    got: list[tuple[str, str]] = []
    n = len(src)
    for kind in spec:
        j = _skip_spaces(src, i)
        if kind == "{":
            if j >= n or src[j] in "}^_":
                break  # missing: pylatexenc is given an empty group for it
            arg, i = _group(src, j)
            got.append(("{", arg))
        elif j < n and src[j] == kind == "*":
            got.append(("*", "*"))
            i = j + 1
        elif j < n and src[j] == kind == "[":
            end = _closing(src, j, "[", "]")
            if end > j:
                got.append(("[", src[j + 1 : end]))
                i = end + 1
    return got, i


def _closing(src: str, i: int, opener: str, closer: str) -> int:
    """Where the `closer` matching the `opener` at src[i] is, or -1."""
    depth = 0
    for j in range(i, len(src)):
        if src[j] == opener:
            depth += 1
        elif src[j] == closer:
            depth -= 1
            if depth == 0:
                return j
    return -1


def _shape(src: str) -> tuple[int, bool]:
    """How many items a piece of formula has at its top (a character, a number, a command with its
    arguments, a {group}, a (part)), counted to 2, and whether a script follows one: one item without a
    script is written after ^ or _ as it is, a fraction's part of one item without parentheses."""
    items, scripted = 0, False
    i, n = 0, len(src)
    while i < n and items < 2:
        ch = src[i]
        if ch.isspace():
            i += 1
        elif ch in "^_":
            _, i = _token_argument(src, i + 1)
            scripted = True
        elif ch == "\\":
            m = _COMMAND_RE.match(src, i)
            word = m.group(0) if m else "\\"
            i += len(word)
            if word in _MATH_SPACES:
                continue
            items += 2 if word in _FRACTIONS else 1  # a/b is two parts
            _, i = _arguments(src, i, _argspec(word))
            while word[1:2].isalpha() and src.startswith("{", i):  # an unknown command's groups, as _render
                _, i = _group(src, i)
        else:
            items += 1
            if ch == "{":
                _, i = _group(src, i)
            elif ch == "(":
                end = _closing(src, i, "(", ")")
                i = end + 1 if end > i else i + 1
            elif ch.isdigit():
                m = _NUMBER_RE.match(src, i)
                i = m.end() if m else i + 1
            else:
                i += 1
    return items, scripted


def _first_shown(piece: str) -> str:
    """The first character a piece of HTML or text shows (past its opening tags)."""
    return _LEADING_TAGS_RE.sub("", piece, count=1)[:1]


def _last_shown(out: list[str]) -> str:
    """The last character shown so far (before any closing tags)."""
    for piece in reversed(out):
        text = _TRAILING_TAGS_RE.sub("", piece) if piece.endswith(">") else piece
        if text:
            return text[-1]
    return ""


_MATH_SPACES = {"\\quad": "\u2003", "\\qquad": "\u2003\u2003", "\\ ": " ", "\\,": "\u2009", "\\;": "\u2005",
                "\\:": "\u2005", "\\>": "\u2005", "\\!": ""}  # fmt: skip
_OPERATOR_NAMES = (
    "min max log ln exp sin cos tan cot sec csc sinh cosh tanh lim liminf limsup sup inf arg det Pr ker dim deg"
    " gcd hom lg mod"
)
_OPERATORS = frozenset("\\" + name for name in (*_OPERATOR_NAMES.split(" "), "argmin", "argmax", "bmod"))
_OPERATOR_SHOWN = {"\\bmod": "mod"}
_OPERATOR_GAP = "\u2009"  # a thin space between an operator and a letter or digit, in HTML
_UPRIGHT = frozenset(
    {"\\mathrm", "\\text", "\\textrm", "\\operatorname", "\\mathbf", "\\textbf", "\\mathsf", "\\textsf"}
)
_BOLD = frozenset({"\\mathbf", "\\textbf"})
_SANS = frozenset({"\\mathsf", "\\textsf"})
# a letter of a sans-serif argument, not one of a command's name: as Unicode's Mathematical Sans-Serif letters
_SANS_LETTER_RE = re.compile(r"\\[a-zA-Z]+|[A-Za-z]")


def _sans_letter(m: re.Match[str]) -> str:
    letter = m.group(0)
    if len(letter) > 1:
        return letter
    return chr((0x1D5A0 + ord(letter) - ord("A")) if letter < "a" else (0x1D5BA + ord(letter) - ord("a")))


_FRACTIONS = frozenset({"\\frac", "\\dfrac", "\\tfrac", "\\cfrac"})
# a formula's accents (pylatexenc's own table has the narrow ones, and gave \widetilde{O} as O, a trial), as
# combining marks; amsmath's capitalised forms are the same accents
_ACCENT_MARKS = {
    "hat": "\u0302", "widehat": "\u0302", "tilde": "\u0303", "widetilde": "\u0303", "bar": "\u0305",
    "overline": "\u0305", "underline": "\u0332", "check": "\u030c", "widecheck": "\u030c", "breve": "\u0306",
    "acute": "\u0301", "grave": "\u0300", "dot": "\u0307", "ddot": "\u0308", "dddot": "\u20db",
    "ddddot": "\u20dc", "mathring": "\u030a", "vec": "\u20d7", "overrightarrow": "\u20d7",
    "overleftarrow": "\u20d6", "overleftrightarrow": "\u20e1",
}  # fmt: skip
_CAPITALISED_ACCENTS = ("hat", "tilde", "bar", "check", "breve", "acute", "grave", "dot", "ddot", "vec")
_ACCENTS = {"\\" + name: mark for name, mark in _ACCENT_MARKS.items()}
_ACCENTS |= {"\\" + name.capitalize(): _ACCENT_MARKS[name] for name in _CAPITALISED_ACCENTS}
_DOTLESS = {"ı": "i", "ȷ": "j"}
_OWN_COMMANDS = frozenset(word[1:] for word in (*_OPERATORS, *_FRACTIONS, *_ACCENTS, "\\quad", "\\qquad"))
_MATH_OP_RE = re.compile(r"\s*(:=|<=|>=|!=|==|<<|>>|[=≤≥<>∈≈≠→⊂⊆])\s*")  # x := y, not x : = y
_SCRIPT_OPS = "=≤≥<>∈∉≈≠→⊂⊆+-−±∓×·*/,;:"
_SCRIPT_OP_RE = re.compile(r"\s*([" + re.escape(_SCRIPT_OPS) + r"])\s*")
_NUMBER_RE = re.compile(r"\d+(?:\.\d+)?")
_COMMAND_NAME_RE = re.compile(r"\\([a-zA-Z]+)")
_LEADING_TAGS_RE = re.compile(r"^(?:<[^<>]*>)+")
_TRAILING_TAGS_RE = re.compile(r"(?:<[^<>]*>)+$")
_ANY_TAG_RE = re.compile(r"<[^<>]*>")
_BRACE_OPEN, _BRACE_CLOSE = "\ue013", "\ue014"  # \{ and \} while a formula is read: braces shown, not a group
_ARG_MARKS = "".join(chr(0xE020 + k) for k in range(16))  # a command's arguments, while pylatexenc writes it
_OWN_MARKS_RE = re.compile("[\ue013\ue014\ue020-\ue02f]")
_MARK = '<span style="background-color:#ffd54f;color:#000">{}</span>'


def _highlight(text: str, match: Callable[[str], bool] | None) -> str:
    """Words for which `match` says yes are highlighted; so are, whole, the ranges its `spans(text)` gives,
    if it has one (a search's phrases: a phrase highlights where its words stand together)."""
    if match is None:
        return _escape_shown(text)
    spans = getattr(match, "spans", None)
    ranges = spans(text) if spans is not None else []
    parts, pos = [], 0
    for start, end in ranges:
        if start < pos:
            continue
        parts += [_highlight_words(text[pos:start], match), _MARK.format(_escape_shown(text[start:end]))]
        pos = end
    parts.append(_highlight_words(text[pos:], match))
    return "".join(parts)


def highlight_text(text: str, match: Callable[[str], bool] | None) -> str:
    """Plain text, not markup (a paper's authors), as HTML with a search's words highlighted."""
    return _highlight(text, match)


@lru_cache(maxsize=1)
def _word_split_re() -> re.Pattern[str]:
    """A word of shown text, its combining marks in it ("M̲ask" is one word, as the index holds it), with its
    apostrophes, hyphens and underscores; compiled when first highlighting (reading the marks takes a moment)."""
    from readinglist.collation import combining_marks

    marks = combining_marks()
    return re.compile(rf"(\w[\w'\-{marks}]*[\w{marks}]|\w)")


def _highlight_words(text: str, match: Callable[[str], bool]) -> str:
    parts = []
    for piece in _word_split_re().split(text):
        if piece and (piece[0].isalnum() or piece[0] == "_") and match(piece):
            halves = re.split(r"([-_]+)", piece) if "-" in piece or "_" in piece else [piece]
            found = [bool(h) and match(h) for h in halves[::2]]
            if any(found) and not all(f for f, h in zip(found, halves[::2], strict=True) if h):
                # "self" found "self-model" in part, "mix" "t_mix"
                parts.append("".join(_MARK.format(_escape_shown(h)) if i % 2 == 0 and found[i // 2]
                                     else _escape_shown(h) for i, h in enumerate(halves)))  # fmt: skip
            else:
                parts.append(_MARK.format(_escape_shown(piece)))
        else:
            parts.append(_escape_shown(piece))
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
    for run in iter_runs(raw):
        if run.kind == "para":
            yield "</p><p>"
        elif run.kind == "math":
            yield _wrap_html(f'<span class="math">{math_html(run.text)}</span>', run.styles)
        elif run.kind == "url":
            href = html.escape(run.text, quote=True)
            shown = _escape_shown(re.sub(r"^https?://", "", run.text))
            yield f'<a href="{href}">{shown}</a>'
        else:
            yield _wrap_html(_highlight(run.text, match), run.styles)
    yield "</p>"


def to_html(raw: str, match: Callable[[str], bool] | None = None) -> str:
    """HTML a reader expects: italics, bold, typographic quotes, readable math, clickable links.

    `match` decides per word whether to highlight it (the search terms).
    """
    return "".join(iter_html(raw, match))


def display_cut(raw: str, limit: int = DISPLAY_LIMIT) -> int:
    """Where a text too long to show at once is cut: at the last paragraph or space before `limit`
    characters (within the last tenth of it), else at `limit`; len(raw) when it fits."""
    if len(raw) <= limit:
        return len(raw)
    floor = limit - limit // 10
    for sep in ("\n\n", "\n", " "):
        at = raw.rfind(sep, floor, limit)
        if at > 0:
            return at
    return limit


def truncated_html(
    raw: str, match: Callable[[str], bool] | None = None, limit: int = DISPLAY_LIMIT
) -> tuple[str, bool]:
    """The HTML of the start of `raw` (up to about `limit` characters) and whether it was cut: the detail
    pane shows that and a "show all" (to_html of the whole text), so a huge abstract costs what a long
    one does until the reader asks for all of it."""
    cut = display_cut(raw, limit)
    if cut >= len(raw):
        return to_html(raw, match), False
    body = to_html(raw[:cut], match)
    return body.removesuffix("</p>") + " …</p>", True


def inline_html(raw: str, match: Callable[[str], bool] | None = None) -> str:
    """One line of HTML (a title): like to_html without the paragraph."""
    body = to_html(raw, match)
    return body.removeprefix("<p>").removesuffix("</p>").replace("</p><p>", " ")


_CODE_RE = re.compile(r"(```.*?```|`[^`\n]*`)", re.S)

# opens the paragraph of a display formula in note_markdown's output: the preview centres that paragraph and
# takes the mark out (Markdown has no centring). A private-use character, never kept from a note's own text
DISPLAY_MATH = "\ue030"


def note_markdown(text: str) -> str:
    """A note's Markdown with its math ($\\alpha$, \\(x_i\\)) as the HTML the abstract shows it in, so that
    Qt's Markdown renders it; code spans and blocks are left as written. Display math ($$…$$, \\[…\\]) is a
    paragraph of its own, in the list item or quote it is written in, opened by DISPLAY_MATH: it ran inline
    with the text beside it, on the same line or on the lines around it (trials)."""
    if DISPLAY_MATH in text:
        text = text.replace(DISPLAY_MATH, "")
    if "$" not in text and "\\(" not in text and "\\[" not in text:
        return text
    parts = _CODE_RE.split(text)
    for i in range(0, len(parts), 2):  # the even parts are outside code
        part = parts[i].replace("\\$", "\ue010")
        out, pos = [], 0
        for start, end, body in math_spans(part):
            shown = f'<span style="font-family:serif; font-style:italic">{math_html(body.strip())}</span>'
            if part.startswith(("$$", "\\["), start) and (around := _display_breaks(part, start)) is not None:
                shown = f"{around[0]}{DISPLAY_MATH}{shown}{around[1]}"
            out += [part[pos:start], shown]
            pos = end
        parts[i] = ("".join(out) + part[pos:]).replace("\ue010", "\\$")
    return "".join(parts)


# what opens a line inside a quote or a list item: a quote's `>`, a list item's marker (with the indent before)
_CONTAINER_RE = re.compile(r"[ \t]*(?:>[ \t]?|(?:[-*+]|\d{1,9}[.)])[ \t]+)")
_LIST_LINE_RE = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]", re.M)


def _display_breaks(text: str, at: int) -> tuple[str, str] | None:
    """What goes before and after the display formula at `at` to make it a paragraph of its own, inside the
    quotes and list item its line is in (a quote's lines keep their `>`, an item's text its indent); None
    in a table's row, which a paragraph break would end."""
    line_start = text.rfind("\n", 0, at) + 1
    head = text[line_start:at]
    prefix, pos, opens_item = "", 0, False
    while (m := _CONTAINER_RE.match(head, pos)) is not None:
        token = m.group(0)
        quote = ">" in token
        prefix += token if quote else " " * len(token.expandtabs(4))
        opens_item, pos = not quote, m.end()
    if "|" in head[pos:]:
        return None
    if not prefix:  # a line of a paragraph: its indent, if that keeps it in a list item (4 spaces are code else)
        indent = head[: len(head) - len(head.lstrip(" \t"))]
        if len(indent.expandtabs(4)) < 4 or _LIST_LINE_RE.search(text, 0, line_start):
            prefix = indent
    blank = prefix.rstrip()
    # first in a new list item: a blank line there would leave the item empty, the formula after the list
    before = "" if opens_item and not head[pos:].strip() else f"\n{blank}\n{prefix}"
    return before, f"\n{blank}\n{prefix}"
