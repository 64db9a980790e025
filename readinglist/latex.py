"""Text as BibTeX field values that compile: what a paper's title, abstract or note says, written so that
bibtex (8-bit) and biber read it and pdflatex typesets it.

The text is first parsed as the app shows it (markup: LaTeX decoded, emphasis and math found), then written
back as LaTeX: characters special to TeX escaped outside math (`\\textbackslash{}`, `\\textbraceleft{}` rather
than `\\{`, which bibtex counts as a brace), math kept as `$…$` when it is safe to keep (balanced braces, no
file or definition commands, bare `%`, `#`, `&` escaped), emphasis as `\\emph`/`\\textbf`/`\\texttt`, and
Unicode either as LaTeX escapes (plain ASCII: bibtex's and any engine's) or kept (UTF-8, for biblatex).
Titles get the words that must keep their case brace-protected, so that a style's sentence case keeps
"BERT", "ImageNet" and "Q-Learning" (and, in a title written in sentence case, "Bayesian"), while a Title Case
title's ordinary words are left for the style to case ({Deep} {Residual} {Learning} kept every one).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from readinglist.markup import MAX_DECODED, Run, decode_text, iter_runs, math_spans
from readinglist.math_commands import MATH_COMMANDS

_TEXT_SPECIALS = {
    "\\": "\\textbackslash{}",
    "{": "\\textbraceleft{}",
    "}": "\\textbraceright{}",
    "#": "\\#",
    "$": "\\$",
    "%": "\\%",
    "&": "\\&",
    "_": "\\_",
    "^": "\\^{}",
    "~": "\\~{}",
    "<": "\\textless{}",
    ">": "\\textgreater{}",
    "|": "\\textbar{}",
}
_TEXT_SPECIAL_RE = re.compile(r"[\\{}#$%&_^~<>|]")
_NON_ASCII_RE = re.compile(r"[^\x00-\x7f]")
# characters nobody means in a bibliography: controls, format marks, private use, the object replacement mark
_JUNK_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufffc\ue000-\uf8ff]")

# commands that read or write files, define or redefine, or end the document: never kept in a formula
_UNSAFE_MATH_RE = re.compile(
    r"\\(?:input|include|InputIfFileExists|openin|openout|read|readline|write|immediate|message|errmessage"
    r"|def|edef|gdef|xdef|let|futurelet|global|long|outer|catcode|lccode|uccode|mathcode|csname|endcsname"
    r"|expandafter|afterassignment|newcommand|renewcommand|providecommand|DeclareRobustCommand|newenvironment"
    r"|renewenvironment|usepackage|RequirePackage|documentclass|special|directlua|luaexec|pdfprimitive"
    r"|shipout|output|every[a-z]+|jobname|end|begin\s*\{\s*document|makeatletter|makeatother|bye|dump"
    r"|scantokens|detokenize|unexpanded|noexpand|string|meaning|pdffilesize|pdffiledump|pdfshellescape)"
    r"(?![a-zA-Z])"
)
_COMBINING_ACCENTS = {
    "\u0300": "`", "\u0301": "'", "\u0302": "^", "\u0303": "~", "\u0304": "=", "\u0306": "u", "\u0307": ".",
    "\u0308": '"', "\u030a": "r", "\u030b": "H", "\u030c": "v", "\u0323": "d", "\u0327": "c",
    "\u0331": "b",
}  # fmt: skip
UNREPRESENTABLE = "?"  # what plain ASCII writes for a character LaTeX has no escape for (CJK, emoji)


@lru_cache(maxsize=1)
def _encoder():
    from pylatexenc.latexencode import UnicodeToLatexEncoder

    return UnicodeToLatexEncoder(
        non_ascii_only=True, replacement_latex_protection="braces-all", unknown_char_policy="keep"
    )


@lru_cache(maxsize=4096)
def char_to_latex(ch: str) -> str:
    """One non-ASCII character as LaTeX: pylatexenc's table, else accents on its base letter, else
    UNREPRESENTABLE. Stacked accents nest in double braces, ễ → {\\~{{\\^{e}}}}: biber decodes {\\~{\\^{e}}} and
    writes it back as \\~\\^{e}, which stops pdflatex; the inner group keeps its own (bibtex reads both)."""
    decomposed = unicodedata.normalize("NFD", ch)
    base, marks = decomposed[0], decomposed[1:].replace("\u0328", "")  # ą → a: OT1 has no ogonek
    if len(decomposed) < 3:
        out = str(_encoder().unicode_to_latex(ch))
        if out != ch and "\\k{" not in out:  # \\k (ogonek) exists only in T1: pdflatex's default OT1 stops at it
            return out
    if marks and base.isascii() and all(m in _COMBINING_ACCENTS for m in marks):
        body = f"\\{_COMBINING_ACCENTS[marks[0]]}{{{base}}}"
        for mark in marks[1:]:
            body = f"\\{_COMBINING_ACCENTS[mark]}{{{{{body}}}}}"
        return "{" + body + "}"
    if base.isascii() and base.isalpha() and not marks:
        return base
    return UNREPRESENTABLE


def _unicode(text: str, ascii_only: bool) -> str:
    if text.isascii():
        return text
    return _NON_ASCII_RE.sub(lambda m: (char_to_latex if ascii_only else utf8_char)(m.group(0)), text)


@lru_cache(maxsize=4096)
def utf8_char(ch: str) -> str:
    """A character in a UTF-8 file: letters of the Latin script, punctuation and anything LaTeX has no macro
    for stay as they are; symbols LaTeX spells (α, ℓ, ∞, ₀) are spelled so (\\ensuremath{\\lambda}), for
    pdflatex, which has no glyph for them, and biber, which writes them back as \\x{03bb} otherwise."""
    if unicodedata.name(ch, "").startswith("LATIN") or unicodedata.category(ch)[0] in "PZ":
        return ch
    out = char_to_latex(ch)
    return ch if out == UNREPRESENTABLE else out


def escape_text(text: str, ascii_only: bool = True) -> str:
    """Plain text as LaTeX text: TeX's special characters escaped, Unicode as the mode asks."""
    text = _JUNK_RE.sub("", text)
    if _TEXT_SPECIAL_RE.search(text):
        text = _TEXT_SPECIAL_RE.sub(lambda m: _TEXT_SPECIALS[m.group(0)], text)
    return _unicode(text, ascii_only)


def _braces_balanced(body: str) -> bool:
    """As bibtex counts them: every { and } (even \\{ and \\}) at depth ≥ 0, ending at 0."""
    depth = 0
    for ch in body:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def math_latex(body: str) -> str | None:
    """A formula's source for $…$, or None when it cannot be kept safely (then it is written as text)."""
    body = _JUNK_RE.sub("", body).strip()
    if not body or len(body) > MAX_DECODED or not _braces_balanced(body) or _UNSAFE_MATH_RE.search(body):
        return None
    if body.endswith("\\") or "^^" in body:  # a trailing backslash would escape the closing $; ^^ is TeX's hex escape
        return None
    if _TEXT_ACCENT_RE.search(body):  # \' \" \^ … are text accents: an error in math
        return None
    if any(name not in MATH_COMMANDS for name in _COMMAND_NAME_RE.findall(body)):
        return None  # an author's own macro (\\R, \\eps) would stop the compile: the formula is shown as text
    body = re.sub(r"(?<!\\)([%#&])", r"\\\1", body)  # a bare % would comment out the rest of the entry
    body = body.replace("\n", " ")
    if not body.isascii():  # in either mode: inside a formula only macros work with pdflatex and biber
        body = _NON_ASCII_RE.sub(lambda m: _math_char(m.group(0)), body)
    return body


_COMMAND_NAME_RE = re.compile(r"\\([a-zA-Z]+)")
_TEXT_ACCENT_RE = re.compile(r"(?<!\\)\\[`'^\"~=.]")


def _math_char(ch: str) -> str:
    """A non-ASCII character inside a formula: a math symbol as it is, a letter with a text accent in \\mbox
    (a text accent is an error in math)."""
    out = char_to_latex(ch)
    return out if "\\ensuremath" in out or out == UNREPRESENTABLE else "\\mbox{" + out + "}"


def _wrap(body: str, styles: frozenset[str]) -> str:
    if not body.strip() or not styles:
        return body
    if "code" in styles:
        body = f"\\texttt{{{body}}}"
    if "b" in styles:
        body = f"\\textbf{{{body}}}"
    if "i" in styles:
        body = f"\\emph{{{body}}}"
    return body


_CAPITAL_WORD_RE = re.compile(r"\S*[A-ZÀ-ÖØ-ÞĀ-ſΑ-Ω]\S*")
_WORD_RE = re.compile(r"\S+")
_WORD_PARTS_RE = re.compile(r"[-/\u2010-\u2014]")  # "Q-Learning", "Encoder/Decoder": each part looked at
_EDGES = "\"'“”‘’«»()[]{}<>.,;:!?*"  # what a word's core is stripped of
# the words Title Case leaves in lower case (and the ones it may or may not capitalise): no evidence either way
_SMALL_WORDS = frozenset((
    "a", "an", "the", "and", "but", "or", "nor", "for", "so", "yet", "as", "at", "by", "in", "of", "off", "on",
    "per", "to", "up", "via", "with", "from", "into", "onto", "over", "than", "vs", "is", "are", "be", "its", "not",
    "without", "within", "through", "towards", "toward", "under", "upon", "about", "after", "before", "between",
))  # fmt: skip


def _core(word: str) -> str:
    return word.strip(_EDGES)


def _keeps_case(core: str) -> bool:
    """Whether a word must keep its case whatever the title's: a capital after a part's first letter (BERT,
    ImageNet, GANs, 3D, McDonald, ResNet-50), or a part that is a capital letter alone ("Q-Learning", "X-ray",
    "I"), but for the article "A"."""
    if core == "A":
        return False
    for part in _WORD_PARTS_RE.split(core):
        if any(c.isupper() for c in part[1:]) or (len(part) == 1 and part.isupper()):
            return True
    return False


def _title_cased(words: list[str]) -> bool:
    """Whether a title is written in Title Case: none of its words after the first, short ones apart, begins
    in lower case ("Deep Residual Learning for Image Recognition"); one that does is in sentence case, where a
    capitalised word is a name ("Bayesian"). A word such as "iPhone" says neither."""
    for word in words[1:]:
        core = _core(word)
        if core[:1].isalpha() and core.lower() not in _SMALL_WORDS and core.islower():
            return False
    return True


def _braced_words(raw: str) -> frozenset[str]:
    """The words a BibTeX title brace-protects itself ("{Bidirectional}", "{L}anguage", "{Working Notes}"), as
    their text reads: a capital inside a group that is not a command's argument (\\emph{x}, \\'{E}) nor an
    escaped brace."""
    if "{" not in raw:
        return frozenset()
    out = set()
    protective: list[bool] = []  # each open group: whether it protects (it follows no command)
    marked = [False] * len(raw)
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            before = raw[:i].rstrip()
            protective.append(not re.search(r"\\(?:[A-Za-z]+|[^A-Za-z\s])$", before))
        elif ch == "}":
            if protective:
                protective.pop()
        elif ch.isupper() and any(protective):
            marked[i] = True
        i += 1
    for m in _WORD_RE.finditer(raw):
        if any(marked[m.start() : m.end()]):
            out.add(_core(decode_text(m.group(0).replace("{", "").replace("}", ""))))
    return frozenset(out)


class _TitleWords:
    """Which of a title's words a style must not change the case of, read once over the whole title (its runs
    are written one at a time): the ones that keep their case whatever the title's (_keeps_case), the ones the
    file braced, and, in a title in sentence case, every capitalised word but the first and one after a colon
    (a style keeps those capitals itself)."""

    def __init__(self, raw: str, runs: list[Run]) -> None:
        words = [w for run in runs if run.kind == "text" for w in run.text.split()]
        self.title_cased = _title_cased(words)
        self.braced = _braced_words(raw)
        self.at_start = True  # the title's first word, or the first after a colon

    def protect(self, text: str, ascii_only: bool) -> str:
        """Escaped text with each word that must keep its case in braces."""
        out: list[str] = []
        pos = 0
        for m in _WORD_RE.finditer(text):
            word = m.group(0)
            core = _core(word)
            start, self.at_start = self.at_start, word.endswith((":", "?", "!")) or (self.at_start and not core)
            if not _CAPITAL_WORD_RE.fullmatch(word):
                continue
            hard = _keeps_case(core) or core in self.braced
            if not hard and not self.title_cased and not start:
                hard = any(c.isupper() for c in core)
            if hard:  # the word's core braced: "{BERT}:", whose colon bibtex's sentence case sees outside
                lead = m.start() + len(word) - len(word.lstrip(_EDGES))
                out.append(escape_text(text[pos:lead], ascii_only))
                out.append("{" + escape_text(core, ascii_only) + "}")
                pos = lead + len(core)
        out.append(escape_text(text[pos:], ascii_only))
        return "".join(out)


def to_bibtex(raw: str, ascii_only: bool = True, title: bool = False) -> str:
    """A field's text (as imported or typed: LaTeX, Markdown, HTML or plain) as a BibTeX value that compiles;
    `title` brace-protects formulas and the words that must keep their case (a style's change of case reaches
    neither: _TitleWords)."""
    parts: list[str] = []
    if title:
        runs = list(iter_runs(raw))  # a title is short: its words are looked at whole first
        words = _TitleWords(raw, runs)
        parts += [_run_latex(run, ascii_only, words) for run in runs]
    else:
        parts += [_run_latex(run, ascii_only, None) for run in iter_runs(raw)]
    text = "".join(parts)
    return (_RUNS_OF_SPACE_RE.sub(" ", text) if "  " in text or "\t" in text else text).strip()


_RUNS_OF_SPACE_RE = re.compile(r"[ \t]{2,}|\t")  # not every single space: each match costs


def _run_latex(run: Run, ascii_only: bool, title: _TitleWords | None) -> str:
    if run.kind == "para":
        return "\n\n" if not title else " "
    if run.kind == "math":
        body = math_latex(run.text)
        if body is None:
            return _wrap(escape_text(f"${run.text}$", ascii_only), run.styles)
        return _wrap("{$" + body + "$}" if title else "$" + body + "$", run.styles)
    if run.kind == "url":
        return escape_text(run.text, ascii_only)
    text = title.protect(run.text, ascii_only) if title else escape_text(run.text, ascii_only)
    return _wrap(text, run.styles)


def plain_to_bibtex(text: str, ascii_only: bool = True) -> str:
    """Text that is not markup (names, tags, a note): every character escaped as text, whitespace kept to
    single spaces and line breaks (a blank line inside a field would end a paragraph mid-macro)."""
    lines = [" ".join(line.split()) for line in text.splitlines()]
    return "\n".join(escape_text(line, ascii_only) for line in lines if line)


def note_to_bibtex(text: str, ascii_only: bool = True) -> str:
    """A note as a BibTeX value that reads back as it was (plain_from_bibtex): its formulas as `$…$`, as the
    abstract's are, where they compile as written (a LaTeX user's note cites them; they read back verbatim);
    every other character escaped as text; a line's indent kept; a blank line written as an empty group `{}`
    (a blank line inside a field would end a paragraph mid-macro)."""
    lines = []
    for line in text.strip("\n").splitlines():
        body = " ".join(line.split())
        indent = line[: len(line) - len(line.lstrip())].replace("\t", "    ")
        lines.append(indent + _note_line(body, ascii_only) if body else "{}")
    return "\n".join(lines)


def _note_line(line: str, ascii_only: bool) -> str:
    if "$" not in line:
        return escape_text(line, ascii_only)
    hidden = line.replace("\\$", "\ue010")  # Markdown's escaped dollar is text, as the note's preview reads it
    out, pos = [], 0
    for start, end, body in math_spans(hidden):
        kept = hidden[start:end]
        if kept not in (f"${body}$", f"$${body}$$") or "$" in body or math_latex(body) != body:
            continue  # \(…\) and a formula LaTeX would change stay text, as typed
        if plain_from_bibtex(kept) != kept:
            continue  # … and one the reading back would change
        out += [escape_text(hidden[pos:start].replace("\ue010", "\\$"), ascii_only), kept]
        pos = end
    out.append(escape_text(hidden[pos:].replace("\ue010", "\\$"), ascii_only))
    written = "".join(out)
    if pos and plain_from_bibtex(written) != line:  # the reading back of a line with a kept formula decodes
        return escape_text(line, ascii_only)  # its text too ("--" as "–"): then all of it is text, as typed
    return written


_SPECIALS_BACK = {v: k for k, v in _TEXT_SPECIALS.items()}
_SPECIAL_BACK_RE = re.compile("|".join(re.escape(v) for v in sorted(_SPECIALS_BACK, key=len, reverse=True)))


def plain_from_bibtex(value: str) -> str:
    """Text that plain_to_bibtex or note_to_bibtex wrote (a note, names, keywords), as it was: the escaped
    specials back, the accents and symbols pylatexenc spelled decoded, an empty-group line a blank line."""
    lines = []
    for line in value.splitlines():
        body = line.strip()
        if body == "{}":
            lines.append("")
            continue
        indent = line[: len(line) - len(line.lstrip())]
        lines.append(indent + _decode_line(body))
    return "\n".join(lines)


_DISPLAY_MATH_RE = re.compile(r"(?<!\\)\$\$.+?(?<!\\)\$\$")


def _decode_line(text: str) -> str:
    if "\\" not in text and "{" not in text and "}" not in text:
        return text
    if "$$" in text:  # a note's display formula, as written (pylatexenc sets it on lines of its own)
        kept, pos = [], 0
        for m in _DISPLAY_MATH_RE.finditer(text):
            kept += [_decode_line(text[pos : m.start()]) if m.start() > pos else "", m.group(0)]
            pos = m.end()
        if kept:
            return "".join(kept) + (_decode_line(text[pos:]) if pos < len(text) else "")
    out: list[str] = []
    pos = 0
    for m in _SPECIAL_BACK_RE.finditer(text):
        out.append(_decode_macros(text[pos : m.start()]))
        out.append(_SPECIALS_BACK[m.group(0)])
        pos = m.end()
    out.append(_decode_macros(text[pos:]))
    return "".join(out)


def _decode_macros(text: str) -> str:
    """Accent and symbol macros (as char_to_latex writes them) as their characters; the rest as it is."""
    if "\\" not in text and "{" not in text:
        return text
    from pylatexenc.latex2text import LatexNodes2Text

    lead = text[: len(text) - len(text.lstrip(" "))]
    trail = text[len(text.rstrip(" ")) :]
    try:
        decoded = LatexNodes2Text(math_mode="verbatim", strict_latex_spaces=True).latex_to_text(text.strip(" "))
    except Exception:  # pylatexenc's own complaint about a malformed group: the text as it is
        return text
    return lead + decoded + trail
