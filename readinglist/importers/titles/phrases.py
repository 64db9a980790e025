"""Noun phrases and the chains a title is made of ("X for Y", "X via Y", "to learn X" as "learning X"),
cut only where a phrase ends: never on a function word, a bare modifier or inside a bracket."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from readinglist.importers.titles.lexicon import (
    ADJECTIVES,
    ARTICLE_LIKE,
    AUXILIARIES,
    DOUBLING,
    DROP_LEADING,
    GENERIC_HEADS,
    GERUND_NOUNS,
    NAMING,
    PURPOSE_PARTICIPLES,
    TERM_ADVERBS,
    TITLE_PREPOSITIONS,
    VERB_FORM,
)
from readinglist.importers.titles.tagging import Sentence

if TYPE_CHECKING:
    from readinglist.importers.titles.abstract import Abstract

NOMINAL = ("N", "M")
_ARTICLES = frozenset(("a", "an", "the"))
MODIFIER = ("N", "M", "J")
_CLOSING = {"(": ")", "[": "]"}
_DOUBLED = re.compile(r"[^aeiou]*[aeiou][bdgklmnprt]")


@dataclass(slots=True)
class Piece:
    """One part of a title: its text and the words of the abstract it carries (for scoring: `keys`, their
    content words with their worth, once the abstract has weighed them)."""

    text: str
    sent: Sentence
    idx: list[int]
    keys: dict[str, float] | None = None
    name: int = -1  # whether it holds a name (assembly's _carries_a_name), once asked
    refers: int = -1  # whether it points back into the abstract (assembly's _refers), once asked


def span(ab: Abstract, s: Sentence, i: int, j: int) -> Piece:
    """Words i … j-1 of the sentence as the abstract writes them."""
    return Piece(ab.text[s.starts[i] : s.end(j - 1)], s, list(range(i, j)))


@lru_cache(maxsize=100_000)
def head_like(word: str) -> bool:
    """A word that can end a noun phrase: not a bare number or a math symbol ("of 8", "in ℝ", "of Θ")."""
    return sum(ch.isascii() and ch.isalpha() for ch in word) >= 2


def noun_phrase(s: Sentence, i: int) -> int:
    """The end of the noun phrase starting at i (i itself when there is none): D? Q? (X? J | N | M)* N,
    a parenthesised name after its head kept with it ("networks (GANs)")."""
    tags, words = s.tags, s.words
    j, n = i, len(tags)
    if j < n and tags[j] == "D":
        j += 1
    while j < n and tags[j] == "Q":
        j += 1
    last_head = -1
    while j < n:
        tg = tags[j]
        if tg in MODIFIER:
            if tg == "M" or (tg == "N" and head_like(words[j])):
                last_head = j
            j += 1
        elif tg == "X" and j + 1 < n and tags[j + 1] == "J":
            j += 1
        elif tg == "," and tags[j - 1] == "J" and j + 1 < n and tags[j + 1] == "J":
            j += 1  # "a lightweight, differentiable stack"
        elif _joined_modifier(s, j):
            j += 1  # "a simple and scalable approach", "a novel, efficient, and practical framework"
        elif tg == "(" and last_head == j - 1:
            k = _paren_end(s, j)
            if k < 0:
                break
            j = k
            last_head = j - 1
        elif tg == "(" and tags[j - 1] == "J" and j + 3 < n and tags[j + 1] == "M" and tags[j + 2] == ")":
            if tags[j + 3] not in ("N", "M"):
                break
            j += 3  # "group-aware prior (GAP) distributions": the acronym of a modifier, the noun after it
        else:
            break
    return last_head + 1 if last_head >= 0 else i


_JOINING = frozenset(("and", "or", "yet", "but"))


def _joined_modifier(s: Sentence, j: int) -> bool:
    """Does word j join two modifiers of one noun ("simple and scalable", "novel, efficient, and practical",
    "simple yet highly effective")?"""
    tags, lows = s.tags, s.lows
    if lows[j] not in _JOINING or j == 0 or tags[j - 1] not in ("J", ","):
        return False
    if tags[j - 1] == "," and (j < 2 or tags[j - 2] != "J"):
        return False
    k = j + 1
    while k < len(tags) and tags[k] == "X":
        k += 1
    return k < len(tags) and tags[k] == "J"


def _paren_end(s: Sentence, j: int) -> int:
    """After a parenthesis that holds a short name ("(GANs)", "(Budgeted EXit Actor)"), else -1."""
    tags = s.tags
    for k in range(j + 1, min(j + 9, len(tags))):
        if tags[k] == ")":
            if s.words[k] != _CLOSING.get(s.words[j]):
                return -1
            inner = range(j + 1, k)
            if inner and all(tags[x] in ("N", "M", "J", ",") or s.lows[x] == "and" for x in inner):
                return k + 1
            return -1
        if tags[k] == "(":
            return -1
    return -1


def gerund(verb: str) -> str:
    """propose → proposing, run → running, study → studying (regular English, a few doubled consonants)."""
    low = verb.lower()
    if low.endswith("ie"):
        return verb[:-2] + "ying"
    if low.endswith("e") and not low.endswith(("ee", "ye", "oe")) and len(low) > 2:
        return verb[:-1] + "ing"
    if _DOUBLED.fullmatch(low) or low in DOUBLING:
        return verb + verb[-1] + "ing"
    return verb + "ing"


def good_end(s: Sentence, i: int, j: int) -> int:
    """Pull the end j back until the phrase ends on a noun (or a closed parenthesis after one), with no
    bracket left open."""
    tags, lows = s.tags, s.lows
    depth, opened = 0, -1
    for k in range(i, j):
        if tags[k] == "(":
            depth, opened = depth + 1, k if depth == 0 else opened
        elif tags[k] == ")" and depth:
            depth -= 1
    if depth:
        j = opened
    n = len(tags)
    while j > i:
        last, low = tags[j - 1], lows[j - 1]
        if last == ")":
            if j - 2 > i and tags[j - 2] in NOMINAL:
                return j
            k = j - 2  # not ending on it: the whole bracket goes ("model (pose-driven avatar)" → "model")
            while k >= i and tags[k] != "(":
                k -= 1
            if k >= i:
                j = k
                continue
        # a participle whose object follows ("… for constructing the") does not end a phrase
        open_verb = low.endswith("ing") and low not in GERUND_NOUNS and j < n and tags[j] in ("D", "N", "J", "M")
        if (
            last in NOMINAL
            and (last == "M" or head_like(s.words[j - 1]))
            and low not in ARTICLE_LIKE
            and low not in ADJECTIVES
            and not open_verb
        ):
            return j
        j -= 1
    return j


def trim(s: Sentence, i: int, j: int) -> int:
    """Skip what a title does not start with: determiners, quantifiers, "novel", "the problem of"."""
    tags, lows = s.tags, s.lows
    dropped = False
    while i < j:
        if tags[i] == "X" and lows[i] in TERM_ADVERBS and i + 1 < j and tags[i + 1] == "J":
            break  # a term's own adverb: "Partially relevant video retrieval", "Fully convolutional networks"
        if tags[i] in ("D", "Q", "X", ",") or lows[i] in DROP_LEADING:  # "a simple, optimistic …"
            i += 1
            dropped = True
        elif dropped and lows[i] in _JOINING:
            i += 1  # "a simple and scalable approach" → "scalable approach"
        elif lows[i] in GENERIC_HEADS and i + 1 < j and lows[i + 1] == "of":
            i += 2
        elif lows[i] in NAMING and i + 2 < j and lows[i + 1] != "as" and i and tags[i - 1] == ",":
            i += 1  # "one promising approach, called predictive optimization, …" (not a name alone, nor
            # "named entity recognition")
        else:
            break
    return i


def verb_base(word: str) -> str:
    """aggregates → aggregate, studies → study, learned → learn (the lexicon's, else regular English)."""
    low = word.lower()
    base = VERB_FORM.get(low)
    if base:
        return word[: len(base)] if word.lower().startswith(base) else base
    if low.endswith("ies") and len(low) > 4:
        return word[:-3] + "y"
    if low.endswith(("sses", "shes", "ches", "xes", "zes")):
        return word[:-2]
    if low.endswith("s") and not low.endswith("ss"):
        return word[:-1]
    return word


def verb_at(s: Sentence, j: int) -> tuple[int, int] | None:
    """A verb phrase a title can carry as "for VERB-ing …": "to learn X", "designed to learn X",
    "that (explicitly) learns X". Returns the verb's index and where its object starts."""
    tags, lows = s.tags, s.lows
    n = len(tags)
    if j < n and lows[j] in PURPOSE_PARTICIPLES and j + 1 < n and tags[j + 1] == "T":
        j += 1
    if j < n and tags[j] == "T":
        j += 1
        while j < n and tags[j] == "X":
            j += 1
        if j < n and tags[j] == "V" and lows[j] == verb_base(lows[j]):
            return j, j + 1
        return None
    if j < n and lows[j] in ("that", "which"):
        j += 1
        while j < n and tags[j] == "X":
            j += 1
        if j < n and tags[j] == "V" and lows[j].endswith("s") and lows[j] not in AUXILIARIES:
            return j, j + 1
    return None


def _object_at(s: Sentence, k0: int) -> tuple[int, int]:
    """Where a verb's object phrase starts and ends: right after it, or after a particle ("defend against")."""
    k = noun_phrase(s, k0)
    if k == k0 and k0 < len(s) and s.tags[k0] == "P" and s.lows[k0] in TITLE_PREPOSITIONS:
        k = noun_phrase(s, k0 + 1)
        if k > k0 + 1:
            return k0, good_end(s, k0 + 1, k)
        return k0, k0
    return k0, good_end(s, k0, k)


def chains(ab: Abstract, si: int, i: int, budget: int, max_parts: int = 5) -> list[list[Piece]]:
    """The phrase chains that start at word i of sentence si: a noun phrase (or "to VERB …" and "which
    VERBs …" as "VERB-ing …"), then prepositional phrases, "to VERB …" or "that VERBs …" (as "for VERB-ing
    …") and "and …": each place the chain may stop gives a candidate."""
    s = ab.toks(si)
    if s.longs is None:  # its "Long Form (ACR)" pairs, which a chain too long for its budget abbreviates
        from readinglist.importers.titles.names import long_forms

        long_forms(s)
    tags, words = s.tags, s.words
    n = len(tags)
    i = trim(s, i, n)
    out: list[list[Piece]] = []
    pieces: list[Piece] = []
    verb = verb_at(s, i) if i < n and tags[i] in ("T", "C") else None
    if verb is not None:  # "we propose to learn X", "NAME, which learns X"
        v, k0 = verb
        k0, k = _object_at(s, k0)
        if k0 >= n or k <= k0 + (tags[k0] == "P"):
            return out
        first = Piece(gerund(verb_base(words[v])) + " " + span(ab, s, k0, k).text, s, [v, *range(k0, k)])
    else:
        k = max(good_end(s, i, noun_phrase(s, i)), long_form_end(s, i))
        start = trim(s, i, k)
        if k <= start:
            return out
        first = span(ab, s, start, k)
    if len(first.text) > budget:
        first = abbreviated(ab, s, first)
    pieces.append(first)
    length = len(first.text)
    if length > budget:
        return out
    out.append(list(pieces))
    j = k
    while len(pieces) < max_parts and j < n:
        step = s.steps.get(j)
        if step is None:
            step = s.steps[j] = _next_piece(ab, s, j)
        piece, k = step
        if piece is not None and length + 1 + len(piece.text) > budget:
            piece = abbreviated(ab, s, piece)
        if piece is None or length + 1 + len(piece.text) > budget:
            break
        pieces.append(piece)
        length += 1 + len(piece.text)
        out.append(list(pieces))
        j = k
    return out


def long_form_end(s: Sentence, i: int) -> int:
    """After the bracket of a "Long Form (ACR)" that starts at word i, else i: a long form is a noun phrase
    even where its words are not ("Follow the regularized leader (FTRL)", "Learning to rank (LTR)")."""
    if s.longs:
        for acr, start in s.longs.items():
            if start == i and acr + 1 < len(s) and s.tags[acr + 1] == ")":
                return acr + 2
    return i


def abbreviated(ab: Abstract, s: Sentence, piece: Piece) -> Piece:
    """The piece with a long form it holds written as its acronym, for a chain the long form would not let
    fit ("… in infinite-horizon POMDPs", not the chain cut before it); the piece itself when it holds none."""
    longs = s.longs
    if not longs or not piece.idx:
        return piece
    first, last = piece.idx[0], piece.idx[-1]
    for acr, start in longs.items():
        if first <= start and acr + 1 <= last and s.tags[acr + 1] == ")":
            long = ab.text[s.starts[start] : s.end(acr + 1)]
            at = piece.text.find(long)
            if at < 0:
                continue
            text = piece.text[:at] + s.words[acr] + piece.text[at + len(long) :]
            idx = [i for i in piece.idx if not start <= i <= acr + 1] + [acr]
            return Piece(text, s, sorted(idx))
    return piece


def _next_piece(ab: Abstract, s: Sentence, j: int) -> tuple[Piece | None, int]:
    """The part a chain may go on with at word j ("for Y", "via Y", "to VERB Y" as "for VERB-ing Y", "and
    Y"), and where it ends; the same whichever chain reaches j, so each sentence works it out once."""
    tags, lows, words = s.tags, s.lows, s.words
    n = len(tags)
    tg, low = tags[j], lows[j]
    verb = verb_at(s, j)
    if verb is not None:
        v, k0 = verb
        if k0 < n and tags[k0] == "P" and noun_phrase(s, k0 + 1) > k0 + 1:
            lead = "for " + gerund(verb_base(words[v])) + " " + words[k0]  # "for defending against"
            k0 += 1
        else:
            lead = "for " + gerund(verb_base(words[v]))
        carried = [v]
    elif (tg == "P" and low in TITLE_PREPOSITIONS) or low in ("and", "using", "to"):
        k0 = j + 1
        lead = words[j]
        carried = []
    elif low in _ARTICLES and j and lows[j - 1].endswith("ing") and lows[j - 1] in VERB_FORM:
        k0 = j + 1  # a gerund's object: "PAC learning a linear combination of ReLU activations"
        lead = words[j]
        carried = []
    else:
        return None, j
    k = good_end(s, k0, noun_phrase(s, k0))
    if k <= k0:
        return None, j
    return Piece(lead + " " + span(ab, s, k0, k).text, s, carried + list(range(k0, k))), k
