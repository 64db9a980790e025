"""The acronyms an abstract defines ("Markov decision processes (MDPs)"): found by Schwartz and Hearst's
rule (`long_form`), each the acronym's key (lower case, without a plural s) and its long form as written.

The title deriver uses `long_form` to name a paper's method; the index keeps every abstract's definitions
(index.schema), so that a search can match an acronym by its long form and a long form by its acronym: a
pasted title "… for MDPs" finds the paper whose abstract only says "Markov decision processes".
"""

from __future__ import annotations

import re

_BRACKETED = re.compile(r"\(([A-Za-z0-9][A-Za-z0-9-]*)\)")  # a literal first: scanned for fast
_CLAUSE = re.compile(r"[\w' ,-]*")  # the words and separators a long form is made of (matched reversed)
MAX_WORDS = 12  # words before the bracket a long form may have
_SEPARATORS = re.compile(r"[ ,]+")
WINDOW = 200  # characters before the bracket the long form is looked for in
MAX_DEFINITIONS = 20  # an abstract's definitions kept (a list of benchmarks' names is not a glossary)


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
    if n < len(words) and n < len(letters) and [w[:1].lower() for w in words[-n - 1 :]] == letters:
        n += 1  # "edge enhanced graph neural network (EEGNN)": every word's initial, not "e" inside "enhanced"
    return n if n <= min(len(letters) + 5, 2 * len(letters) + 1) else 0


def acronym_key(word: str) -> str | None:
    """What an acronym is looked up by: lower case, a plural s dropped (MDPs → mdp); None for a word that
    is no acronym (fewer than two capitals, or not one word of letters and digits)."""
    if word.endswith("s") and sum(c.isupper() for c in word[:-1]) >= 2:
        word = word[:-1]
    if sum(c.isupper() for c in word) < 2 or not word.isalnum():
        return None
    return word.lower()


def definitions(text: str) -> dict[str, str]:
    """The acronyms the text defines, "Long Form (ACR)": key → the long form as written, in lower case (the
    first definition of a key wins)."""
    out: dict[str, str] = {}
    if "(" not in text:
        return out
    for m in _BRACKETED.finditer(text):
        acronym = m.group(1)
        if m.start() == 0 or text[m.start() - 1] not in " ,":
            continue
        key = acronym_key(acronym)
        if key is None or key in out:
            continue
        # the clause before the bracket, read backwards from it (a regex anchored at its end tries every start)
        clause = _CLAUSE.match(text[max(0, m.start() - WINDOW) : m.start()][::-1])
        words = [w for w in _SEPARATORS.split(clause.group(0)[::-1]) if w][-MAX_WORDS:] if clause else []
        short = acronym[:-1] if acronym.endswith("s") and key == acronym[:-1].lower() else acronym
        n = long_form(short, words)
        if n > 1:
            out[key] = " ".join(words[-n:]).lower()
            if len(out) >= MAX_DEFINITIONS:
                break
    return out
