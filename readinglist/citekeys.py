"""Citation keys a writer can cite: `vaswani2017attention`, in Better BibTeX's style (the first author's
last name, the year, the title's first significant word; all lower-case ASCII), made unique with a, b, …

A key is given once, when a paper is stored, and kept: a later export, a re-import or a revised record
never changes it (a `\\cite{…}` in a manuscript must keep working); only the user may edit it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence

from readinglist.collation import PLAIN_LETTERS

# Better BibTeX's skip words (function words a title's "first word" passes over), the common ones
SKIP_WORDS = frozenset(
    [
        "a",
        "ab",
        "aboard",
        "about",
        "above",
        "across",
        "after",
        "against",
        "al",
        "along",
        "amid",
        "among",
        "an",
        "and",
        "anti",
        "around",
        "as",
        "at",
        "before",
        "behind",
        "below",
        "beneath",
        "beside",
        "besides",
        "between",
        "beyond",
        "but",
        "by",
        "d",
        "da",
        "das",
        "de",
        "del",
        "dell",
        "dello",
        "dei",
        "degli",
        "della",
        "delle",
        "dem",
        "den",
        "der",
        "des",
        "despite",
        "die",
        "do",
        "down",
        "du",
        "during",
        "ein",
        "eine",
        "einem",
        "einen",
        "einer",
        "eines",
        "el",
        "en",
        "et",
        "except",
        "for",
        "from",
        "gli",
        "i",
        "il",
        "in",
        "inside",
        "into",
        "is",
        "l",
        "la",
        "las",
        "le",
        "les",
        "like",
        "lo",
        "los",
        "near",
        "nor",
        "of",
        "off",
        "on",
        "onto",
        "or",
        "over",
        "past",
        "per",
        "plus",
        "round",
        "save",
        "since",
        "so",
        "some",
        "sur",
        "than",
        "the",
        "through",
        "to",
        "toward",
        "towards",
        "un",
        "una",
        "unas",
        "under",
        "underneath",
        "une",
        "unlike",
        "uno",
        "unos",
        "until",
        "up",
        "upon",
        "versus",
        "via",
        "von",
        "while",
        "with",
        "within",
        "without",
        "yet",
        "zu",
        "zum",
    ]
)
_NAME_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv", "phd", "md"})
KEY_RE = re.compile(r"^[A-Za-z0-9_:.+\-/]{1,100}$")
KEY_RULE = "letters, digits and _ : . + - / (no spaces), at most 100 characters"


def ascii_fold(text: str) -> str:
    """ß → ss, é → e, ø → o: what a key keeps of a name. ASCII text is its own fold (no replacement matches
    it, NFKD leaves it as it is), and most of an import's names and title words are ASCII."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFKD", text).translate(PLAIN_LETTERS).encode("ascii", "ignore").decode()


def last_name(author: str) -> str:
    """The family name of "First Last", "Last, First" or "First van der Last" (→ Last), suffixes dropped."""
    author = author.strip()
    if "," in author:
        head = author.split(",", 1)[0].strip()
        if head and len(author.split(",")) == 2:
            return head.split()[-1] if " " in head else head
    words = [w for w in re.split(r"\s+", author) if w]
    while len(words) > 1 and words[-1].strip(".").lower() in _NAME_SUFFIXES:
        words.pop()
    return words[-1] if words else ""


_NOT_KEY_CHAR = re.compile(r"[^a-z0-9]")
_TITLE_SPLIT = re.compile(r"[\s\-–—:;,./()\[\]{}!?\"'`]+")


def _word(text: str) -> str:
    return _NOT_KEY_CHAR.sub("", ascii_fold(text).lower())


def significant_words(title: str) -> list[str]:
    words = [_word(w) for w in _TITLE_SPLIT.split(title)]
    return [w for w in words if w and w not in SKIP_WORDS]


def base_key(title: str, authors: Sequence[str], year: int | None) -> str:
    """The key before it is made unique: vaswani2017attention (no author: the title's first two words)."""
    words = significant_words(title)
    author = _word(last_name(authors[0])) if authors else ""
    if author:
        key = f"{author}{year or ''}{words[0] if words else ''}"
    else:
        key = f"{words[0] if words else 'paper'}{year or ''}{words[1] if len(words) > 1 else ''}"
    return key[:60] or "paper"


def suffixed(base: str, n: int) -> str:
    """The n-th key for a base (0: the base; then a … z, aa, ab …) as Better BibTeX numbers them."""
    if n == 0:
        return base
    letters = ""
    while n > 0:
        n, r = divmod(n - 1, 26)
        letters = chr(ord("a") + r) + letters
    return base + letters


def unique_key(base: str, taken: Callable[[str], bool]) -> str:
    n = 0
    while taken(suffixed(base, n)):
        n += 1
    return suffixed(base, n)


def check_key(key: str) -> str:
    """A user's key, stripped; ValueError naming the rule when it cannot be a BibTeX key."""
    key = key.strip()
    if not KEY_RE.match(key):
        raise ValueError(f"{key!r} cannot be a citation key: use {KEY_RULE}")
    return key
