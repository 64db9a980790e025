"""How text becomes the words the index holds: every word, in its own form, folded — and the stem a plain
query word is widened to at search time.

The index keeps each word as written, lower-cased and folded (`fold`: accents and compatibility forms
dropped, so "Schölkopf" is "scholkopf" and "ℓ₁" is "l1"), stop words included: a word of a query then means
the same in every field, a pasted title's "is" and "of" are in its title, a quoted phrase or `=word` matches
the exact form, and the vocabulary a misspelt word is corrected from is made of real words. Stemming happens
when searching instead (`stem`; see `vocabulary.Vocabulary.forms`): a plain word matches every form of its
stem the index holds.

A word is Whoosh's (word characters, dots inside) with its combining marks (`WORD_PATTERN`): "M̲ask" is
one word, "mask", as "é" is "e". A word joined by underscores ("t_mix", $t_{\\mathrm{mix}}$'s plain text) is
held joined ("tmix", as a query's "t_mix" is read) and, when indexing, each of its parts at its place too
(`subscript_parts`), so "mix" finds it.

`WordAnalyzer` is a one-pass equivalent of a Whoosh chain (RegexTokenizer | `FoldFilter`), with `words()`
for indexing without Token objects (see `patches._patch_positions`); `tests/test_analysis.py` checks the
two token for token. An analyzer unpickled with the schema — in Whoosh's writer processes — applies the
patches, so every process that writes the index writes the same postings.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from whoosh.analysis import Analyzer, Filter, Token
from whoosh.analysis.filters import STOP_WORDS
from whoosh.analysis.tokenizers import default_pattern
from whoosh.lang.porter import stem as porter_stem

from readinglist.collation import PLAIN_LETTERS, combining_marks

stem = lru_cache(maxsize=200_000)(porter_stem)
_MARKS = combining_marks()
# Whoosh's default pattern (word characters and its wildcard's star, a single dot inside: "U.S.", "3.5"), each
# character with the combining marks after it, and a subscript to_plain writes in parentheses ("x_(train)" for
# $x_{train}$; not "θ_(t+1)") the end of its word
WORD_PATTERN = re.compile(rf"[\w*][\w*{_MARKS}]*(?:\.[\w*][\w*{_MARKS}]*)*(?:(?<=_)\((?:[^\W_]|[{_MARKS}])+\))?")
_WORDS = WORD_PATTERN
_PLAIN_WORDS = re.compile(default_pattern.pattern.replace("(", "(?:"), default_pattern.flags)  # whole matches


@lru_cache(maxsize=100_000)
def _fold_unicode(word: str) -> str:
    # NFKC first: a formula's letters (𝖠𝗍𝗍𝗇, 𝒳, ℝ) have no lower case of their own, and were held "Attn", "X"
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", word).casefold())
    decomposed = decomposed.translate(PLAIN_LETTERS)  # ǿ: ø and a mark
    # the marks that place themselves on a letter (accents, M̲'s line, v⃗'s arrow) or enclose it; not a
    # script's vowel signs, which are its letters
    return "".join(c for c in decomposed if not unicodedata.combining(c) and unicodedata.category(c) != "Me")


_JOINERS = str.maketrans("", "", "_()")


def fold(word: str) -> str:
    """A word as the index holds it: lower case; for non-ASCII, case-folded, compatibility-decomposed and
    without combining marks (é → e, M̲ → m, ℓ₁ → l1, ﬁ → fi), and the letters NFKD leaves whole spelt as a
    reader types them (ø → o, ł → l, æ → ae); underscores dropped, so the plain text of `$\\ell_1$`
    ("ℓ_1") is the same word as "l1", and a subscript's parentheses ("x_(train)" is "xtrain", as "x_train")."""
    w = word.lower() if word.isascii() else _fold_unicode(word)
    if "_" not in w:
        return w
    return w.translate(_JOINERS) if "_(" in w else w.replace("_", "")


_PARTS = re.compile(r"[_()]+")


@lru_cache(maxsize=20_000)
def subscript_parts(word: str) -> tuple[str, ...]:
    """The parts of a word joined by underscores, folded ("t_mix": "mix"; "x_(train)": "train"; "snake_case":
    "snake", "case"): the index holds them beside the joined word, at its place, so "mix" finds $t_{mix}$ as
    "t_mix" does, and a query's "t_mix" (the joined word) still finds only it. Not a part of one character (the
    x of x_i says nothing alone), nor one that is the joined word ("__init__"); () for a word without them."""
    if "_" not in word:
        return ()
    joined = fold(word)
    parts = (fold(part) for part in _PARTS.split(word))
    return tuple(dict.fromkeys(p for p in parts if len(p) > 1 and p != joined))


# ä, ö, ü, ø and å as German and Scandinavian names are written in ASCII: Müller as Mueller, Mørup as Moerup
_SPELT_OUT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ø": "oe", "å": "aa"})
_SPELT_OUT_LETTERS = frozenset("äöüøå")


@lru_cache(maxsize=100_000)
def spelt_out(word: str) -> str:
    """The word as ASCII spells out its ä, ö, ü, ø or å (Müller → "mueller", Mørup → "moerup"), folded;
    "" for a word without them. The index holds it beside the folded word ("muller"), at the same place, so
    `author:mueller` finds Müller as `author:muller` does; a query's text is never spelt out (a pasted
    title's phrase, a word being typed and a phrase's highlight keep one word a place). Never the folded
    word itself: it spells each such letter with two."""
    if word.isascii():
        return ""
    low = unicodedata.normalize("NFC", word.casefold())
    if _SPELT_OUT_LETTERS.isdisjoint(low):
        return ""
    return fold(low.translate(_SPELT_OUT))


def stem_prefix(stemmed: str) -> str:
    """What every word with this stem starts with, as far as Porter's rules go: the stem without a final
    e or i, which Porter may have added (hoping → hope) or put for a y (study → studi), or the l of a
    final "bl", which it makes of "bility" (probability → probabl)."""
    if len(stemmed) > 3 and stemmed.endswith("bl"):
        return stemmed[:-1]
    return stemmed[:-1] if len(stemmed) > 2 and stemmed[-1] in "ei" else stemmed


class FoldFilter(Filter):
    """Whoosh filter form of `fold`, `spelt_out` and `subscript_parts` (the reference chain the one-pass
    analyzer is tested against, with a RegexTokenizer of WORD_PATTERN)."""

    def __call__(self, tokens: Iterator[Token]) -> Iterator[Token]:
        for t in tokens:
            word = t.text
            t.text = fold(word)
            if t.text:
                yield t
                if t.mode == "index" and (other := spelt_out(word)):
                    t.text = other
                    yield t
            if t.mode == "index":
                for part in subscript_parts(word):
                    t.text = part
                    yield t


class WordAnalyzer(Analyzer):
    """Every word (WORD_PATTERN), folded; no stop list, no stemming, words of any length."""

    expression = WORD_PATTERN

    def __getstate__(self) -> dict[str, Any]:
        """Pickled with the schema, in every commit's table of contents: not the pattern (16 kB; this module's
        is the one), yet a state, without which unpickling would not call __setstate__."""
        return {"words": "WORD_PATTERN"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickled with the schema (Whoosh's writer processes): the patches that read words() apply there too.
        A schema pickled before schema 16 held Whoosh's pattern: this module's is the one."""
        from readinglist.index import patches

        self.__dict__.update({k: v for k, v in state.items() if k not in ("expression", "words")})
        patches.apply()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WordAnalyzer)

    def __hash__(self) -> int:
        return hash(WordAnalyzer)

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        **kwargs: object,
    ) -> Iterator[Token]:
        t = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        if not tokenize:  # the whole value is one token (a prefix or wildcard's text), folded
            t.text = fold(value)
            if not t.text:
                return
            t.original = value
            t.stopped = False
            t.boost = 1.0
            if positions:
                t.pos = start_pos
            if chars:
                t.startchar, t.endchar = start_char, start_char + len(value)
            yield t
            return
        plain = value.isascii() and "_" not in value  # (Whoosh's pattern finds the same words, faster; see words())
        for i, match in enumerate((_PLAIN_WORDS if plain else self.expression).finditer(value)):
            word = match.group(0)
            text = fold(word)
            if not text:  # only underscores or marks: dropped, its position left empty (as the chain does)
                continue
            if keeporiginal:
                t.original = word
            t.text = text
            t.stopped = False
            t.boost = 1.0
            if positions:
                t.pos = start_pos + i
            if chars:
                t.startchar, t.endchar = start_char + match.start(), start_char + match.end()
            yield t
            if mode == "index" and (other := spelt_out(word)):
                t.text = other  # indexing only: Müller is "muller" and, at the same place, "mueller"
                yield t
            if mode == "index" and "_" in word:
                for part in subscript_parts(word):  # and "t_mix" is "tmix" and, at the same place, "mix"
                    t.text = part
                    yield t

    def words(self, value: str, spell_out: bool = False) -> list[tuple[str, int]]:
        """The (word, position) pairs `__call__` yields, without Token objects: when indexing (`spell_out`)
        with each spelt-out word and subscript part after its folded one, at its place; else (a query's text,
        key terms) one word a place, as a query's words are."""
        out = []
        if value.isascii():  # lower-casing the whole text first is the same, and faster
            if "_" not in value:  # (no mark, no subscript: Whoosh's pattern finds the same words, faster)
                found = _PLAIN_WORDS.findall(value.lower())
                return list(zip(found, range(len(found)), strict=True))
            found = _WORDS.findall(value.lower())
            for pos, word in enumerate(found):
                if "_" not in word:
                    out.append((word, pos))
                    continue
                if folded := fold(word):
                    out.append((folded, pos))
                if spell_out:
                    out.extend((part, pos) for part in subscript_parts(word))
            return out
        for pos, word in enumerate(_WORDS.findall(value)):
            folded = fold(word)
            if folded:
                out.append((folded, pos))
                if spell_out and not word.isascii() and (other := spelt_out(word)):  # (no call per ASCII word)
                    out.append((other, pos))
            if spell_out and "_" in word:
                out.extend((part, pos) for part in subscript_parts(word))
        return out


def note_text(note: str) -> str:
    """A note's Markdown as the index reads it: its emphasis stars left out (`*key*`, `**memory-based**`).
    Whoosh's word pattern keeps a `*` inside a word (for its wildcards), so the index held "*key*" and
    `note:key` found nothing. A space for each star keeps every word's place."""
    return note.replace("*", " ") if "*" in note else note


# between a document's tags: ASCII's unit separator, which no tag holds (normalise_tags and an import's
# without_controls make it a space). A comma is no separator: a file's keyword may hold one ("Optimization, convex")
TAG_SEPARATOR = "\x1f"


def tag_key(tag: str) -> str:
    """A tag as the index holds it and `tag:` looks it up: folded, single-spaced, with a leading # and the
    hyphens the command line shows for spaces read as spaces — `tag:#must-read` and `tag:"must read"` both
    find the tag "must read". A comma inside is the tag's own, spaced as ", " however it was written; one at
    either end is not (a pasted sentence's "NLP," still finds the tag NLP, as when commas parted tags)."""
    key = " ".join(fold(part) for part in tag.strip().lstrip("#").replace("-", " ").split())
    if "," not in key:
        return key
    # "tag:Optimization,convex" typed (no space allowed in a word) finds "Optimization, convex": ", " between
    return ", ".join(part.strip() for part in key.strip(", ").split(","))


_HAS_WORD = re.compile(r"\w")


class TagAnalyzer(Analyzer):
    """The tags field: tags parted by TAG_SEPARATOR, each one token (`tag_key`), a comma in one kept (they
    were parted at commas: `tag:convex` found "Optimization, convex"). A query's piece with no word
    character in it (a lone "=" or "--" of a pasted sentence) is no tag, and yields nothing: the default
    search looks in tags too, and such a piece must not become a word every paper lacks."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TagAnalyzer)

    def __hash__(self) -> int:
        return hash(TagAnalyzer)

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        start_pos: int = 0,
        start_char: int = 0,
        mode: str = "",
        **kwargs: object,
    ) -> Iterator[Token]:
        t = Token(positions, chars, mode=mode, **kwargs)
        for i, part in enumerate(value.split(TAG_SEPARATOR)):
            key = tag_key(part)
            if not key or (mode == "query" and not _HAS_WORD.search(key)):
                continue
            t.text = key
            t.stopped = False
            t.boost = 1.0
            if positions:
                t.pos = start_pos + i
            if chars:
                t.startchar, t.endchar = start_char, start_char + len(value)
            yield t


_STOP_WORDS = frozenset(STOP_WORDS)


def kept_words(value: str) -> list[str]:
    """The content words of a text, lower-cased, in order (Whoosh's word pattern, its stop words and words of
    one letter left out): what the interest ranking counts; stem them with `stem`."""
    found = _PLAIN_WORDS.findall(value.lower()) if value.isascii() else [w.lower() for w in _PLAIN_WORDS.findall(value)]
    return [w for w in found if len(w) >= 2 and w not in _STOP_WORDS]


# ---- British and American spellings ----
# A plain word is searched by the stem of its American spelling (`word_stem`), so "normalising flows" finds
# "normalizing flows" and the other way round, and "reparametrization" finds "reparameterization": papers are
# written in both, and a reader pastes from either. A small rule set of the regular patterns (-ise/-isation,
# -yse, -our, -tre, -ogue, -lled, -ence, parametr-), each with the words it must leave alone ("noise",
# "promising", "supervised", "four", "contour"): a wrong fold would join two words' forms. The index keeps
# every word as written; only the search folds (Vocabulary.forms walks both spellings' terms).
_ISE = re.compile(r"^([a-z]{2,})is(e|es|ed|ing|er|ers|ation|ations|ational|able)$")
# ...a word whose "ise" is no -ize: noise, raise, wise, precise, promise, surprise, supervise, expertise, …
_ISE_KEPT_ENDS = ("o", "a", "u", "w", "v", "pr", "prom", "prem", "surm", "chem", "expert", "advert", "treat", "chast",
                  "mort", "pract", "parad", "merchand", "franch", "desp", "val")  # fmt: skip
_ISE_KEPT = frozenset(
    ("ar", "r", "upr", "sunr", "an", "dem", "prec", "conc", "exerc", "exc", "inc", "circumc", "imprec")
)
_YSE = re.compile(r"^([a-z]*ly)s(e|es|ed|ing|er|ers|ation)$")  # analyse, paralyse, catalyse
_OUR = re.compile(
    r"^([a-z]*?(?:behavi|col|fav|hon|lab|neighb|harb|hum|rum|vap|vig|od|flav|arm|endeav|sav|tum|rig|clam|splend|ferv"
    r"|parl|arb|cand|ranc|val|succ|savi))our(s|ed|ing|able|ably|ite|ites|al|ally|ism|ist|ists|er|ers|less|ful|hood|hoods)?$"
)
_TRE = re.compile(r"^([a-z]*?(?:cent|fib|theat|lit|met|calib|lust|sab|somb|meag|mit))r(e|es|ed|ing)$")
_OGUE = re.compile(r"^([a-z]*?(?:catal|anal|dial|monol|prol|epil))ogue(s|d)?$")
_LLED = re.compile(
    r"^([a-z]*?(?:model|label|travel|signal|cancel|channel|tunnel|level|fuel|counsel|funnel|marvel|rival|total|pedal"
    r"|shovel|jewel|duel|parcel|panel|barrel|libel|grovel|ravel|kernel|tassel|dial))l(ed|ing|er|ers)$"
)
_ENCE = re.compile(r"^([a-z]*?(?:defen|offen|preten|licen))ce(s|d)?$")
_PARAMETR = re.compile(r"^([a-z]*?)parametri([sz][a-z]*)$")  # (re)parametrization; not "parametric"
_WHOLE = {"judgement": "judgment", "judgements": "judgment", "acknowledgement": "acknowledgment",
          "acknowledgements": "acknowledgments", "ageing": "aging", "programme": "program", "programmes": "programs",
          "sceptical": "skeptical", "grey": "gray", "aluminium": "aluminum", "artefact": "artifact",
          "artefacts": "artifacts"}  # fmt: skip


@lru_cache(maxsize=200_000)
def american(word: str) -> str:
    """The word in American spelling, as far as the rules above tell ("normalising" → "normalizing",
    "behaviour" → "behavior", "modelling" → "modeling", "parametrization" → "parameterization"); else the word."""
    if len(word) < 5 or not word.isalpha():
        return word
    if word in _WHOLE:
        return _WHOLE[word]
    if "parametri" in word:
        word = _PARAMETR.sub(r"\1parameteri\2", word)
    if "is" in word and (m := _ISE.match(word)):
        head = m.group(1)
        if head not in _ISE_KEPT and not head.endswith(_ISE_KEPT_ENDS):
            return f"{head}iz{m.group(2)}"
        return word
    if "ys" in word and (m := _YSE.match(word)):
        return f"{m.group(1)}z{m.group(2)}"
    if "our" in word and (m := _OUR.match(word)):
        return f"{m.group(1)}or{m.group(2) or ''}"
    if word.endswith(("re", "res", "red", "ring")) and (m := _TRE.match(word)):
        ending = {"e": "er", "es": "ers", "ed": "ered", "ing": "ering"}[m.group(2)]
        return m.group(1) + ending
    if "ogue" in word and (m := _OGUE.match(word)):
        return f"{m.group(1)}og{m.group(2) or ''}"
    if "ll" in word and (m := _LLED.match(word)):
        return m.group(1) + m.group(2)
    if "ence" in word and (m := _ENCE.match(word)):
        return f"{m.group(1)}se{m.group(2) or ''}"
    return word


def word_stem(word: str) -> str:
    """The stem a plain word of a query is searched by: its American spelling's (`american`)."""
    return stem(american(word))


# the letters a British spelling may have where its American stem has others: the prefixes a stem's British
# forms begin with that its American forms do not (behavior: behaviour; center: centr; analyz: analys)
_BRITISH_PREFIXES = (
    (
        re.compile(
            r"(behavi|col|fav|hon|lab|neighb|harb|hum|rum|vap|vig|od|flav|arm|endeav|sav|tum|rig|clam|splend"
            r"|ferv|parl|arb|cand|ranc|val|succ|savi)or"
        ),
        r"\1our",
    ),
    (re.compile(r"(cent|fib|theat|lit|met|calib|lust|sab|somb|meag|mit)er"), r"\1r"),
    (re.compile(r"iz(?!.*iz)"), "is"),  # a stem that keeps its -iz: normaliz (normalizing), normalis…
    (re.compile(r"lyz"), "lys"),
    (re.compile(r"parameter"), "parametr"),
    (re.compile(r"(defen|offen|preten|licen)s"), r"\1c"),
    (re.compile(r"judgment"), "judgement"),
    (re.compile(r"acknowledgment"), "acknowledgement"),
    (re.compile(r"skeptic"), "sceptic"),
    (re.compile(r"artifact"), "artefact"),
    (re.compile(r"aluminum"), "aluminium"),
    (re.compile(r"gray"), "grey"),
    (re.compile(r"aging"), "ageing"),
)


def british_prefixes(prefix: str) -> list[str]:
    """Where else the forms of a stem with this prefix (American) may begin, spelt the British way: the term
    walks of `Vocabulary.forms` look there too."""
    out: list[str] = []
    for pattern, british in _BRITISH_PREFIXES:
        other = pattern.sub(british, prefix, count=1)
        if other != prefix and other not in out:
            out.append(other)
    return out
