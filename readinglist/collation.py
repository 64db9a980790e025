"""Sort keys for titles and author lists: the order a reader expects, computed once when a paper is stored.

A key is plain text that sorts correctly byte by byte, so SQLite orders by it with an index and the window's
header click never calls Python per row. It ignores case, accents and punctuation (a title opening with “ or
$ sorts by its first word), reads compatibility forms as their letters (ℓ as l, ﬁ as fi, 𝜃 as θ), the letters
that do not decompose as a reader types them (ø as o, ł as l, æ as ae: PLAIN_LETTERS) and spells Greek letters
by their names (θ as theta, Σ as sigma), so they sort among the letters instead of after Z.
Keys are cut at a length past which titles rarely agree; papers whose keys are equal keep the order they
were added in (the store breaks ties by id). Short keys, without tie-breaking levels for case and
accents, keep the index small (docs/performance-changes.md).

Why not QCollator or locale.strxfrm: the store stays Qt-free; ICU's root order (what QCollator uses) puts
Greek after Latin, that is after Z; strxfrm follows the process's locale, which the window sets and the
command line does not, so the two would store different orders for one library. This order is the same for
every process and every locale; it does not apply a language's own tailoring (Swedish å after z).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

# Letters NFKD does not take apart into a base letter and a mark, as a reader types them in ASCII ("Høgsgaard"
# as "hogsgaard", "Łukasz" as "Lukasz"): the search index's fold, citation keys, sort keys (primary) and the
# duplicate finder's match keys spell them so; changing it changes stored keys (a migration, an index schema)
PLAIN_LETTERS = str.maketrans(
    {"ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "đ": "d", "Đ": "D",
     "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "ß": "ss", "ı": "i", "ħ": "h", "Ħ": "H"}
)  # fmt: skip


@lru_cache(maxsize=1)
def combining_marks() -> str:
    """Every combining mark (Unicode's Mn, Mc and Me) as the inside of a regular expression's character class:
    Python's \\w matches none, so a word with a mark NFC cannot compose ("M̲ask", a decomposed é, a Devanagari
    vowel sign) was two words to the search index and the detail pane's highlighting. Planes 0, 1 and 14 hold
    them all; read from unicodedata once, when first asked for (a few milliseconds)."""
    category = unicodedata.category
    codes = [c for r in (range(0x20000), range(0xE0000, 0xE1000)) for c in r if category(chr(c))[0] == "M"]
    ranges: list[list[int]] = []
    for c in codes:
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    return "".join(f"\\U{a:08x}-\\U{b:08x}" if b > a else f"\\U{a:08x}" for a, b in ranges)


TITLE_KEY_LENGTH = 64
AUTHORS_KEY_LENGTH = 48
_GREEK = re.compile(r"GREEK (?:SMALL |CAPITAL )?(?:LETTER )?(?:FINAL |ARCHAIC )?([A-Z]+)(?: SYMBOL)?$")
_NOT_WORD = re.compile(r"[\W_]+")
_PARTICLES = {"van", "von", "der", "den", "de", "da", "di", "del", "della", "du", "la", "le", "ten", "ter", "bin"}
_SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"}


@lru_cache(maxsize=4096)
def _letters(ch: str) -> str:
    """One character at the first level: its letters, a Greek letter's name, or '' for a mark."""
    if ch.isascii():
        return ch
    if unicodedata.combining(ch):
        return ""
    name = unicodedata.name(ch, "")
    if name.startswith("GREEK") and (m := _GREEK.match(name)):
        return m.group(1).lower()
    return ch


def primary(text: str) -> str:
    """The first level: case, accents and punctuation ignored, ø as o (Høgsgaard between Hofmann and Huang,
    not after Hz), Greek letters spelled out, words kept apart."""
    if text.isascii():  # most titles and names: nothing to normalise (computed for every paper imported)
        return _NOT_WORD.sub(" ", text.lower()).strip()
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold()).translate(PLAIN_LETTERS)
    if not text.isascii():
        text = "".join(_letters(ch) for ch in text)
    return _NOT_WORD.sub(" ", text).strip()


def title_key(title: str) -> str:
    """What a title sorts by."""
    return primary(title)[:TITLE_KEY_LENGTH]


def surname(name: str) -> str:
    """The family name of "Laurens van der Maaten" (van der Maaten), "Guy L. Steele Jr." (Steele)."""
    words = name.split()
    if len(words) > 1 and words[-1].lower() not in _SUFFIXES and words[-2].lower() not in _PARTICLES:
        return words[-1]  # most names
    while len(words) > 1 and words[-1].lower() in _SUFFIXES:
        words.pop()
    if not words:
        return ""
    start = len(words) - 1
    while start > 1 and words[start - 1].lower() in _PARTICLES:
        start -= 1
    return " ".join(words[start:])


def authors_short(authors: Sequence[str], more: bool = False) -> str:
    """What the Authors column shows: "Vaswani, Shazeer, … (8)"; of a list the file cut short ("and others":
    `more`, the record's moreauthors), "Vaswani et al.", "Vaswani, Shazeer, et al.", without a count, which
    would be that of the names listed, not of the authors."""
    names = [surname(a) for a in authors[:2]]
    if more and names:
        return f"{names[0]} et al." if len(names) == 1 else f"{', '.join(names)}, et al."
    if len(authors) > 2:
        return f"{', '.join(names)}, … ({len(authors)})"
    return ", ".join(names)


def authors_key(authors: Sequence[str]) -> str:
    """What an author list sorts by: the first author's family name, then the next ones'."""
    return primary(" ".join(surname(a) for a in authors[:4]))[:AUTHORS_KEY_LENGTH]


@lru_cache(maxsize=65536)
def name_key(name: str) -> tuple[str, str]:
    """What a tag or keyword sorts by in the sidebar: its name as shown, read as `primary` reads a title (case
    and accents ignored, ℓ₁ among the l's, ϵ as epsilon) but with its punctuation kept, so that a tag begun with
    "_" or "!" to stay on top stays there; then the name itself, for a stable order. Cached: the sidebar sorts
    every tag after every edit."""
    if name.isascii():  # SQLite's NOCASE order, as before
        return name.lower(), name
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold()).translate(PLAIN_LETTERS)
    if not text.isascii():
        text = "".join(_letters(ch) for ch in text)
    return text, name
