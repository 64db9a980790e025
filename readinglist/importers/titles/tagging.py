"""Sentences and a part-of-speech guess for their words, from the lexicon and suffix rules.

Tags: D determiner, Q quantifier, P preposition, C conjunction or relative word, R pronoun, A auxiliary,
T infinitive "to", V verb, X adverb, J adjective (or a participle as modifier), N noun (or gerund, number,
name), M a method-like name (acronym, CamelCase), "," and "(" ")" and "." punctuation, '"' a quote mark (or
an emphasis underscore, an emoji: what may stand around a name, "a ‘superword’ tokenizer", "🏹 CUPID").

A sentence is kept as parallel lists (words, lower-cased words, tags, offsets), not one object a word:
building an object per word was most of the cost of reading an abstract.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING

from readinglist.importers.titles.lexicon import (
    ABBREVIATIONS,
    ADJ_SUFFIXES,
    ADJECTIVES,
    ADVERBS,
    AUXILIARIES,
    CONJUNCTIONS,
    DETERMINERS,
    GERUND_NOUNS,
    IRREGULAR_PARTICIPLES,
    NOT_ADJ,
    NOT_ADVERBS,
    NOT_PARTICIPLES,
    NOUN_VERBS,
    PARTICIPLES,
    PREPOSITIONS,
    PRONOUNS,
    QUANTIFIERS,
    TWO_WORD_PREPOSITIONS,
    VERB_FORM,
)

if TYPE_CHECKING:
    from readinglist.importers.titles.phrases import Piece

_TOKEN = re.compile(r"[^\W_](?:[\w'’\-]*[^\W_])?(?:\.\d+)*|[(),;:.!?\[\]]|\S")
# a sentence's end, and one a PDF's text lost the space after ("… performance.Our extensive …", one abstract in
# 80 of the tuning sets): a word and a full stop, then a word that opens sentences
_SENTENCE_END = re.compile(
    r"(?<=[.!?])\s+(?=[\"“(\[]?[A-Z0-9])|(?<=[a-z)\]]\.)(?=(?:We|Our|The|This|These|In|To|Finally|Moreover|However"
    r"|Furthermore|Additionally|Specifically|Experiments|Experimental|Extensive|Code|Results|Here|Unlike|Using)\b)"
)
_ROMAN = re.compile(r"[IVX]+")
_CAMEL = re.compile(r"[a-z][A-Z]")
_QUOTES = frozenset("'\"“”‘’«»„_*`")


class Sentence:
    """A tagged sentence: one entry a word in each list; `starts` are offsets in the abstract's text."""

    __slots__ = ("longs", "lows", "spelt", "starts", "steps", "tags", "words")

    def __init__(self, words: list[str], lows: list[str], tags: list[str], starts: list[int]):
        self.words, self.lows, self.tags, self.starts = words, lows, tags, starts
        self.longs: dict[int, int] | None = None  # its "Long Form (ACR)" pairs, once names.long_forms looked
        self.steps: dict[int, tuple[Piece | None, int]] = {}  # chains' parts by where they start, once known
        self.spelt: set[int] = set()  # acronyms whose long form only their words' initials found (names.py)

    def __len__(self) -> int:
        return len(self.words)

    def end(self, i: int) -> int:
        """The offset just after word i."""
        return self.starts[i] + len(self.words[i])


@lru_cache(maxsize=100_000)
def is_name(word: str) -> bool:
    """An acronym or CamelCase name: BEXA, CapImagine, GANs, RWKV-7, Self-RedTeam, X-Teaming (not I, II)."""
    if "-" in word:
        parts = [w for w in word.split("-") if w]
        return len(parts) > 1 and any(is_name(w) or (len(w) == 1 and w.isupper()) for w in parts)
    caps = sum(ch.isupper() for ch in word)
    if caps >= 2:
        return not _ROMAN.fullmatch(word)
    return caps == 1 and _CAMEL.search(word) is not None


def split_sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) pairs; "e.g." and "et al." do not end a sentence."""
    out, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        e = m.start()
        if text[e - 1] == "." and (
            text.endswith(ABBREVIATIONS, max(0, e - 8), e)  # "e.g.", "et al."
            or (e >= 2 and "A" <= text[e - 2] <= "Z" and (e == 2 or not (text[e - 3].isalnum() or text[e - 3] == "_")))
        ):  # an initial: "J. Smith"
            continue
        out.append((start, text[start:e]))
        start = m.end()
    out.append((start, text[start:]))
    return [(o, s) for o, s in out if s.strip()]


@lru_cache(maxsize=100_000)
def lexical_tag(w: str, first: bool) -> str:
    """The tag a word has out of context (cached: abstracts share most of their words)."""
    low = w.lower()
    if not w[0].isalnum():
        if w in _QUOTES or unicodedata.category(w[0]) == "So":
            return '"'
        return {",": ",", ";": ",", ":": ",", "(": "(", "[": "(", ")": ")", "]": ")"}.get(w, ".")
    if is_name(w):
        return "M"
    if w[0].isdigit():
        return "N"
    if low in DETERMINERS:
        return "D"
    if low in QUANTIFIERS:
        return "Q"
    if low == "to":
        return "T"
    if low in PREPOSITIONS:
        return "P"
    if low in CONJUNCTIONS:
        return "C"
    if low in PRONOUNS:
        return "R"
    if low in AUXILIARIES:
        return "A"
    if w[0].isupper() and not first:
        return "N"  # a proper noun or a capitalised long form
    if low in ADVERBS or (low.endswith("ly") and len(low) > 4 and low not in NOT_ADVERBS):
        return "X"
    if low in PARTICIPLES:
        return "Vg"
    if low in VERB_FORM:
        if low.endswith("ing"):
            return "G"
        if low.endswith("ed") or low in IRREGULAR_PARTICIPLES:
            return "Ved"
        return "Vn" if (low in NOUN_VERBS or (VERB_FORM[low] in NOUN_VERBS and low.endswith("s"))) else "V"
    if low in ADJECTIVES or low in ("able", "unable") or (low.endswith("wise") and len(low) > 6):
        return "J"  # "piecewise", "pairwise": "… networks with piecewise" is cut
    if low.endswith("ing") and len(low) > 5:
        return "G"
    if low in IRREGULAR_PARTICIPLES or (low.endswith("ed") and len(low) > 4 and low not in NOT_PARTICIPLES):
        return "Ved"
    if low in NOT_ADJ:
        return "N"
    if low.endswith(ADJ_SUFFIXES) and len(low) > 4 and not low.endswith(("ment", "ments")):
        return "J"
    return "N"


@lru_cache(maxsize=100_000)
def _lexical(word: str, first: bool) -> tuple[str, str, bool]:
    """The lower-cased word, its lexical tag, and whether it may be a verb after a plural noun."""
    low = word.lower()
    return low, lexical_tag(word, first), verb_like_s(low)


@lru_cache(maxsize=100_000)
def _lexical_inner(word: str) -> tuple[str, str, bool]:
    """_lexical for a word that does not open its sentence (one argument: map() calls it)."""
    return _lexical(word, False)


_GROUP = re.Match.group
_START = re.Match.start
_CONTEXTUAL = frozenset(("T", "Ved", "G", "Vg", "Vn"))  # tags the neighbours decide ("N" below)
_TWO_WORD_FIRST = frozenset(a for a, _ in TWO_WORD_PREPOSITIONS)
_NOMINAL_NEXT = frozenset(("N", "M", "J", "G", "Vn", "Ved"))
_AFTER_SUBJECT = frozenset(("D", "Q", "J", "X", "C", "R"))
_AFTER_CLAUSE_VERB = frozenset(("P", "T", "D", "Q", "J", "X", ",", "."))
# verbs that follow their subject with a preposition, an object or nothing ("exist", "deal with", "lead to", "play a
# role"), each also a noun out of context (see _clause_verb)
CLAUSE_VERBS = frozenset((
    "exist", "occur", "arise", "play", "deal", "lead", "remain", "emerge", "appear", "fail", "suffer", "face", "rely",
    "depend", "struggle", "differ", "use",
))  # fmt: skip
# verbs whose -s form is a plural noun just as often ("gradient estimates for …"): only the base form, after a
# plural and before "to", an article or a preposition ("theories attempt to", "methods estimate the")
BASE_CLAUSE_VERBS = frozenset(("attempt", "focus", "aim", "estimate", "rank", "sample", "answer", "help", "limit"))


_CLAUSE_FORMS = CLAUSE_VERBS | BASE_CLAUSE_VERBS | {v + "s" for v in CLAUSE_VERBS}


def _clause_verb(words: list[str], lows: list[str], tags: list[str], verbish: list[bool], i: int) -> bool:
    """Is the word at i (one of CLAUSE_VERBS, or its -s form) a verb after its subject? The -s form after a
    noun ("optimization leads to", "analysis deals with"); the base form after a noun in the plural ("PDEs play
    a role", "methods use priors", "statistics exist."), or in the singular before its object ("… of causation
    play a role": the subject is further back), but not "tool use in agents"."""
    nxt = tags[i + 1]
    if not words[i].islower():
        return False
    k = i - 1
    if tags[k] == ")" and k >= 2 and tags[k - 2] == "(":
        k -= 1  # "equations (PDEs) play": the bracketed acronym is the subject's
    if tags[k] not in ("N", "M"):
        return False
    low = lows[i]
    if low in BASE_CLAUSE_VERBS:
        return verbish[k] and nxt in ("T", "D", "Q", "P", "X")
    if low not in CLAUSE_VERBS:  # the -s form
        return nxt in _AFTER_CLAUSE_VERB
    if verbish[k] or lows[k].endswith("ics"):  # "statistics", "dynamics" are plural; "cannabis" is not
        return nxt in _AFTER_CLAUSE_VERB or nxt == "N"
    return low != "use" and nxt in ("D", "Q")


def tag(sentence: str, offset: int = 0) -> Sentence:
    """The sentence's words, each with a part-of-speech guess (see the tags above)."""
    found = list(_TOKEN.finditer(sentence))
    if not found:
        return Sentence([], [], [], [])
    words = list(map(_GROUP, found))
    starts = list(map(_START, found)) if not offset else [m.start() + offset for m in found]
    lex = list(map(_lexical_inner, words))
    lex[0] = _lexical(words[0], True)
    lows, tags, verbish = (list(x) for x in zip(*lex, strict=True))
    n = len(words)
    if not _TWO_WORD_FIRST.isdisjoint(lows):
        for i in range(n - 1):  # two-word prepositions
            if lows[i] in _TWO_WORD_FIRST and (lows[i], lows[i + 1]) in TWO_WORD_PREPOSITIONS:
                tags[i] = tags[i + 1] = "P"
    # the words whose tag their neighbours decide (a noun only where it may be a verb after a noun)
    todo = [i for i, tg, v, pv, low in zip(range(n), tags, verbish, [False, *verbish], lows, strict=False)
            if tg in _CONTEXTUAL or (tg == "N" and (v or pv or low in _CLAUSE_FORMS))]  # fmt: skip
    for i in todo:
        tg = tags[i]
        if lows[i] in _CLAUSE_FORMS and 0 < i < n - 1 and _clause_verb(words, lows, tags, verbish, i):
            tags[i] = "V"  # "frameworks deal with …", "transitions exist for …", "optimization leads to …"
            continue
        if tg == "N":
            if not i or i + 1 == n or tags[i - 1] not in ("N", "M"):
                continue
            nxt = tags[i + 1]
            if verbish[i] and nxt in ("D", "Q", "X", "R"):
                tags[i] = "V"  # "text contradicts the evidence"
            elif (tags[i - 1] == "N" and verbish[i - 1] and words[i].islower() and not lows[i].endswith("s")
                  and nxt in ("D", "Q", "J", "N", "X", "Ved")):  # fmt: skip
                tags[i] = "V"  # "attacks threaten federated learning": after a plural noun, a verb
            continue
        if tg not in _CONTEXTUAL:
            continue
        prev = tags[i - 1] if i else ""
        nxt = tags[i + 1] if i + 1 < n else ""
        if tg == "T":
            tags[i] = "T" if nxt in ("V", "Vn", "X") else "P"
        elif tg == "Ved":
            nominal_next = nxt in _NOMINAL_NEXT
            if prev in ("A", "R") or (prev in ("N", "M", ")") and not nominal_next):
                tags[i] = "V"
            else:
                tags[i] = "J" if nominal_next or prev in ("D", "Q", "J", "X", "P", "") else "V"
        elif tg == "G":
            if prev in ("A", "R"):
                tags[i] = "V"
            elif lows[i] in GERUND_NOUNS or prev in ("D", "Q", "J", "P", "T", "", ",", "C"):
                tags[i] = "N"
            elif prev in ("N", "M") and nxt in ("D", "Q"):
                tags[i] = "V"
            else:
                tags[i] = "N"
        elif tg == "Vg":
            tags[i] = "N" if prev in ("D", "J") else "V"
        else:  # Vn
            after_subject = prev in ("N", "M", ")") and lows[i].endswith("s") and nxt in _AFTER_SUBJECT
            tags[i] = "V" if prev in ("R", "A", "T", "X") or after_subject else "N"
    if "we" in lows:  # what follows "we" is its verb ("which we call X", "we term it"), whatever it is alone
        for i in range(1, n):
            if lows[i - 1] == "we" and tags[i] == "N" and words[i].islower():
                tags[i] = "V"
    return Sentence(words, lows, tags, starts)


def verb_like_s(low: str) -> bool:
    """A word ending in -s that may be a verb's third person ("threatens"), not "loss", "corpus", "physics"."""
    return (
        low.endswith("s")
        and not low.endswith(("ss", "us", "is", "ics", "ous"))
        and len(low) > 3
        and low not in _NOUNS_IN_S
    )


# nouns that only look like a verb's third person ("news revision histories" is no "news revises")
_NOUNS_IN_S = frozenset(("news", "series", "species", "means", "lens", "mathematics", "physics"))
