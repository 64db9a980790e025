"""The name an abstract gives its contribution ("we propose X", "X, a …", "called X", "Long Form (ACR)"),
never a tool it merely uses: not a name used before it is brought in, nor one after "using", "with" …"""

from __future__ import annotations

from dataclasses import dataclass

from readinglist.importers.titles.abstract import Abstract
from readinglist.importers.titles.lexicon import INTRO_VERBS, NAMING, THING, TITLE_PREPOSITIONS, USE_VERBS
from readinglist.importers.titles.phrases import NOMINAL
from readinglist.importers.titles.tagging import Sentence, is_name


@dataclass
class Name:
    text: str
    long: str  # its expansion, "" when the abstract gives none
    sentence: int
    after: int  # the word after the name (and its parenthesis): where a description may follow
    before: int  # the first word of the name (or of its long form)
    strength: int = 0


def long_form(short: str, words: list[str]) -> int:
    """How many of the last words spell the short form, by Schwartz and Hearst's rule (each letter of the
    short form found in order, right to left, its first at the start of a word), or 0."""
    letters = [ch.lower() for ch in short if ch.isalpha()]
    if not letters or len(words) == 0:
        return 0
    text = " ".join(words)
    low = text.lower()
    si, li = len(letters) - 1, len(low) - 1
    while si >= 0:
        c = letters[si]
        while li >= 0 and (low[li] != c or (si == 0 and li > 0 and low[li - 1].isalnum())):
            li -= 1
        if li < 0:
            return 0
        li -= 1
        si -= 1
    start = text.rfind(" ", 0, li + 1) + 1
    n = len(text[start:].split())
    return n if n <= min(len(letters) + 5, 2 * len(letters) + 1) else 0


def _long_form_before(s: Sentence, paren: int, name: str) -> int:
    """The first word of the words before "(NAME)" that spell it, or -1."""
    tags = s.tags
    k = paren
    while k > 0 and paren - k < 12 and tags[k - 1] not in (",", "(", ")", ".", "C", "V", "A", "R"):
        k -= 1
    n = long_form(name, s.words[k:paren])
    if not n:
        return -1
    start = paren - n
    while start < paren and tags[start] in ("D", "Q", "P"):
        start += 1
    return start if start < paren else -1


def long_forms(s: Sentence) -> dict[int, int]:
    """For each "(ACR)" whose long form precedes it: the acronym's index → the long form's first word."""
    if s.longs is not None:
        return s.longs
    out = s.longs = {}
    tags = s.tags
    for i in range(1, len(tags) - 1):
        if tags[i] == "M" and tags[i - 1] == "(" and tags[i + 1] == ")":
            start = _long_form_before(s, i - 1, s.words[i])
            if start >= 0:
                out[i] = start
    return out


def _introduced(s: Sentence, i: int) -> int:
    """How plainly the sentence introduces the phrase starting at word i: 3 for "we propose (a novel)? X",
    "called X", "our proposed X"; 2 for "… a new method for Y, X, which …"; 0 after "using", "with" …"""
    tags, lows = s.tags, s.lows
    k, crossed = i - 1, False
    while k >= 0 and i - k <= 12:
        low, tg = lows[k], tags[k]
        if low in NAMING or low in INTRO_VERBS or low in ("call", "name", "dub", "term", "our"):
            return 3
        if low in USE_VERBS and not crossed:
            return 0
        if tg == "," and k == i - 1:
            crossed = True  # "… a new method for MARL, QTRAN, which"
        elif tg == "P" and crossed and low in TITLE_PREPOSITIONS:
            pass
        elif tg not in ("D", "Q", "J", "N", "M", "X", "(", ")") or low in ("as", "is", "are"):
            return 0
        k -= 1
    return 0


_CALLS = ("call", "name", "dub", "term")
_ARTICLES = ("a", "an", "the")


def _names_in(ab: Abstract, si: int) -> list[Name]:
    s = ab.toks(si)
    tags, lows, words = s.tags, s.lows, s.words
    n = len(tags)
    longs = long_forms(s)
    covered = {k for acr, start in longs.items() for k in range(start, acr - 1)}
    we_call = [k for k in range(1, n) if lows[k] in _CALLS and lows[k - 1] == "we"]
    found = []
    for i in range(n):
        if i in covered:
            continue
        word = words[i]
        if tags[i] != "M" and not (i > 0 and word[0].isupper() and word[0].isalpha()):
            continue  # a name is a method-like word, or a capitalised one the sentence names (below)
        prev = lows[i - 1] if i else ""
        named = prev in NAMING or (prev == "as" and i >= 2 and lows[i - 2] in ("to", "it", "them"))
        named = named or any(0 < i - k <= 5 for k in we_call)  # "we call this new network X"
        # "we propose Holmes, a …": a capitalised word right after the verb, in apposition
        named = named or (prev in INTRO_VERBS and i + 2 < n and tags[i + 1] == "," and lows[i + 2] in _ARTICLES)
        if tags[i] != "M" and not named:
            continue
        nxt = tags[i + 1] if i + 1 < n else ""
        if nxt in NOMINAL and not named and lows[i + 1] not in THING:
            continue  # a modifier ("KV caching"), not the name of the thing
        start, end, long = i, i + 1, ""
        if i in longs:  # Long Form (ACR)
            start, end = longs[i], i + 2
            long = ab.text[s.starts[start] : s.end(i - 2)]
        elif nxt == "(":  # NAME (Long Form)
            close = next((k for k in range(i + 2, min(i + 14, n)) if tags[k] == ")"), -1)
            inner = words[i + 2 : close] if close > 0 else []
            head = word.split("-")[0]
            if inner and (long_form(word, inner) == len(inner) or long_form(head, inner) == len(inner)):
                long = ab.text[s.starts[i + 2] : s.end(close - 1)]
                end = close + 1
        strength = 3 if named else _introduced(s, start)
        if strength and nxt in NOMINAL:
            strength = 2  # "a novel MoE architecture, BlockFFN": the name after the comma is the one
        if not strength and end + 2 < n and tags[end] == "," and lows[end + 1] in ("a", "an"):
            strength = 2 if start == 0 and si in ab.brings else 0  # "NAME, a new …"
        if strength:
            if long and " " not in long and is_name(long):  # "LongCodeBench (LCB)": the long one is the name
                word, long = long, ""
            found.append(Name(word, long, si, end, start, strength))
    return found


def mentions(text: str, word: str) -> int:
    """How often the word stands in the text as a word of its own (not inside "X-based" or "XNet")."""
    n, i = 0, text.find(word)
    while i >= 0:
        end = i + len(word)
        if (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "-")) and (
            end == len(text) or not (text[end].isalnum() or text[end] == "-")
        ):
            n += 1
        i = text.find(word, end)
    return n


def find_name(ab: Abstract) -> Name | None:
    """The method, model, benchmark or dataset the abstract introduces (see the module doc): the most plainly
    introduced, and of those the one the abstract names most often."""
    found = [n for si in ab.cues if si in ab.brings for n in _names_in(ab, si)]
    # a name the abstract used before it brought it in is background (a tool, the field), not the contribution
    found = [n for n in found if not mentions(ab.before(n.sentence), n.text)]
    if not found:
        return None
    counts = {n.text: mentions(ab.text, n.text) for n in found}
    return max(found, key=lambda n: (n.strength, counts[n.text], -n.sentence))
