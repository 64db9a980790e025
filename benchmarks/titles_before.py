"""readinglist/importers/titles.py as it was before issue 19 (commit 85969ef), kept unchanged so that
benchmarks/titles.py can measure the old titles beside the new ones in one run. Not used by the app."""

from __future__ import annotations

import re

from readinglist.markup import to_plain

MAX_TITLE = 100

_NAME = r"(?:[A-Z][\w\-]*[A-Z0-9][\w\-]*|[A-Z][a-z]+[A-Z][\w\-]*)"  # BEXA, CapImagine, Self-RedTeam, RWKV-7
_VERBS = r"(?:propose|proposes|introduce|introduces|present|presents|develop|develops|design|designs|build|builds|"
_VERBS += r"release|releases|contribute|offer|devise|formulate|construct|put forward)"
_INTRO_RE = re.compile(
    rf"\b(?i:we|this (?:paper|work)|our (?:method|approach|framework))\s+(?i:{_VERBS})\s+"
    rf"(?P<pre>(?:(?:a|an|the)\s+)?(?:[\w\-]+\s+){{0,6}}?)"
    rf"(?:(?P<long>(?:[A-Z][\w\-]*\s+){{1,7}})\((?P<acr>{_NAME})\)|(?P<name>{_NAME}))",
)
_CALLED_RE = re.compile(
    rf"\b(?:named|called|dubbed|termed|coined)\s+(?P<name>{_NAME})"
    rf"|\b(?i:we)\s+(?i:{_VERBS})\s+(?P<word>[A-Z][a-z][\w\-]*)(?=,\s+(?:a|an)\s)"  # "we propose Holmes, a …"
)
_EXPANSION_RE = re.compile(rf"(?P<long>(?:[A-Z][\w\-]*\s+){{1,7}})\((?P<acr>{_NAME})\)")
_STOP_WORDS = {"novel", "new", "simple", "general", "principled", "effective", "efficient", "unified"}
_CLAUSE_CUT = re.compile(r",\s|;\s|:\s|\s(?:that|which|where|while|whereas|and thus|by|via|to)\s|\s—\s|\s–\s")


def _initials_match(long: str, acr: str) -> bool:
    """Does the long form plausibly expand the acronym? (Budgeted EXit Actor → BEXA)"""
    caps = "".join(ch for ch in long if ch.isupper())
    letters = "".join(ch for ch in acr if ch.isupper())
    initials = "".join(w[0].upper() for w in long.split() if w)
    return bool(letters) and (caps.startswith(letters[:2]) or initials.startswith(letters[:2]))


_FUNCTION_WORDS = {
    "a",
    "an",
    "the",
    "with",
    "of",
    "for",
    "and",
    "to",
    "in",
    "on",
    "by",
    "via",
    "using",
    "from",
}


def _tidy(phrase: str, keep_article: bool) -> str:
    words = phrase.strip(" ,.;:").split()
    while words and words[0].lower() in _STOP_WORDS | ({"a", "an", "the"} if not keep_article else set()):
        words.pop(0)
    if keep_article and len(words) > 1 and words[1].lower() in _STOP_WORDS:
        words.pop(1)
        if words[0].lower() in {"a", "an"}:
            words[0] = "an" if words[1][:1].lower() in "aeiou" else "a"
    if len(words) > 9:
        words = words[:9]
    while len(words) > 2 and (words[-1].lower() in _FUNCTION_WORDS or words[-1].endswith(",")):
        words.pop()
    if len(words) > 2 and words[-1].lower().endswith("ed"):  # "benchmark designed (to …)"
        words.pop()
    return " ".join(words).rstrip(",")


def _describe(text: str, end: int, keep_article: bool) -> str:
    """The words after the name that say what it is: ", a framework for X" → "A framework for X"."""
    rest = text[end:]
    m = re.match(r"\s*(?:\([^)]*\)\s*)?,\s*(?:which is\s+)?((?:a|an|the)\s+[^.;]+)", rest)
    if m:
        phrase = m.group(1)
        cut = _CLAUSE_CUT.search(phrase)
        if cut and len(phrase[: cut.start()].split()) <= 2:  # "a framework" says too little: keep its clause
            cut = _CLAUSE_CUT.search(phrase, cut.end())
        phrase = phrase[: cut.start()] if cut else phrase
    else:
        m = re.match(r"\s*(?:\([^)]*\)\s*)?,?\s*(?:which|that)\s+([^.;]+)", rest)
        if not m:
            return ""
        phrase = m.group(1)
        cut = re.search(r",\s|;\s|:\s|\s(?:which|where|while|by|via)\s", phrase)
        phrase = phrase[: cut.start()] if cut else phrase
    return _tidy(phrase, keep_article)


def method_title(plain: str) -> str | None:
    """ "<Name>: <what it is>" when the abstract names its method, else None."""
    for sentence in re.split(r"(?<=[.!?])\s+", plain):
        m = _INTRO_RE.search(sentence)
        name = long = None
        end = 0
        if m:
            if m.group("acr") and _initials_match(m.group("long"), m.group("acr")):
                name, long = m.group("acr"), m.group("long").strip()
            elif m.group("name"):
                name = m.group("name")
            end = m.end()
        if not name:
            m2 = _CALLED_RE.search(sentence)
            if m2:
                name, end = m2.group("name") or m2.group("word"), m2.end()
        if not name:
            continue
        after = re.match(r"\s*\(([^()]{6,80})\)", sentence[end:])  # TaRO (Temporal-Aware Reasoning …)
        if long is None and after and _initials_match(after.group(1), name):
            long = after.group(1).strip()
        what = _describe(sentence, end, keep_article=long is not None)
        if long and what and len(long) + len(what) < 80:
            body = f"{long}, {what}"
        elif long:
            body = long
        else:
            body = what[:1].upper() + what[1:]
        title = f"{name}: {body}" if body else name
        if len(title) > MAX_TITLE:
            title = title[:MAX_TITLE].rsplit(" ", 1)[0]
        return title.rstrip(" ,;:")
    return None


def first_sentence_title(plain: str) -> str:
    """The opening sentence, cut at a clause boundary to at most MAX_TITLE characters."""
    text = re.sub(r"\s+", " ", plain).strip()
    if not text:
        return "Untitled"
    sentence = re.split(r"(?<=[.!?])\s+(?=[A-Z])", text, maxsplit=1)[0].rstrip(".")
    if len(sentence) <= MAX_TITLE:
        return sentence
    head = sentence[: MAX_TITLE + 1]
    best = -1
    for m in re.finditer(r",\s|;\s|:\s|\s—\s|\s(?:which|that|where|while|but|and|because|since|with)\s", head):
        if 30 <= m.start() <= MAX_TITLE:
            best = m.start()
    if best < 0:
        best = head.rfind(" ")
        return head[:best].rstrip(" ,;:") + "…"
    return head[:best].rstrip(" ,;:")


def derive_title(abstract_raw: str) -> str:
    """A display title for a paper that has none."""
    plain = to_plain(abstract_raw)
    return method_title(plain) or first_sentence_title(plain)


def make_unique(titles: list[str], taken: set[str]) -> list[str]:
    """Suffix " (2)", " (3)" … so that no two titles of a source are the same (case-insensitively)."""
    seen = {t.casefold() for t in taken}
    out = []
    for title in titles:
        candidate, n = title, 2
        while candidate.casefold() in seen:
            candidate, n = f"{title} ({n})", n + 1
        seen.add(candidate.casefold())
        out.append(candidate)
    return out
