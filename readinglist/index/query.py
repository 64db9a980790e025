"""The query language: readinglist's shorthand turned into Whoosh's syntax, parsed, resolved against the
index's own words, and the words a hit shows highlighted.

A query is read in two steps. `parse` turns the text into a Whoosh query of the words as typed (folded, see
analysis). `resolve` then widens each plain word of the title, abstract and note to every form of its stem the
index holds (`Stemmed`), keeping exact forms — a quoted phrase, a quoted word or `=word` — exact. Pasted text
is read as text: a colon after a word that names no field ("BERT: Pre-training"), a question mark ending a
word, a lone "=" or "--" are punctuation, not syntax. Queries with a cost no one means to pay are refused
with a message that says what to type instead (a fuzzy distance above 2, a term made only of wildcards).

A minus right before a word, a phrase or a field, at the start of the query or after a space, is NOT, as on a
search engine: "diffusion -video", '-"video generation"', "-author:smith" (`negating_minuses`). A hyphen
inside a word ("self-supervised"), a minus before a number ("-1"), a dash alone ("a - b"), a minus after a
line break (a wrapped line's hyphen: "diffusion\n-based") and any minus in a query of TYPED_WORDS words or more
(a pasted sentence) stay text, read as before. A query that joins fields with AND or OR ("tag:RL OR state:queued
OR …") is typed whatever its length (`written_as_syntax`): its minuses are NOT, its unknown fields errors.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar

from whoosh import qparser, query
from whoosh.analysis.filters import STOP_WORDS
from whoosh.fields import Schema
from whoosh.searching import Searcher

from readinglist.acronyms import acronym_key
from readinglist.index.analysis import (
    WordAnalyzer,
    american,
    fold,
    spelt_out,
    stem,
    subscript_parts,
    tag_key,
    word_stem,
)
from readinglist.index.schema import HIGHLIGHTED_FIELDS, NO_PRIORITY, STEMMED_FIELDS, TEXT_FIELDS
from readinglist.papers import PRIORITIES, STATES, QueryError

if TYPE_CHECKING:
    from readinglist.index.vocabulary import Vocabulary

KNOWN_FIELDS = {"title", "abstract", "authors", "author", "tags", "tag", "note", "venue", "year", "state", "priority"}
FIELDS_HELP = "title, abstract, author, tag, note, venue, year, state, priority, topic"
PRIORITY_VALUES = (*(str(p) for p in PRIORITIES), NO_PRIORITY)
# a plain word found among a paper's authors weighs this much more than in its abstract (a title's words weigh
# TITLE_BOOST): a surname typed finds that person's papers before the papers that cite them ("Bengio et al."
# in an abstract); measured in docs/performance-changes.md, session 21
AUTHORS_BOOST = 2.0
FUZZY_PREFIX = 3  # fuzzy terms keep their first letters: a typo'd word then expands over few words
MAX_FUZZY = 2  # edits a fuzzy term may make: beyond two nearly every short word matches, slowly
RELATED_WEIGHT = 0.35  # a derived stem's form (Stemmed.related) counts as this much of an occurrence
RELATED_FIELDS = {"abstract"}  # where a word matches its derivations (a title is short, and often derived from it)
HIGHLIGHT_EXPANSIONS = 200  # at most this many words of one prefix, wildcard or fuzzy term are highlighted
# a query longer than this is pasted text: "name:" in it that names no field is no error (unless the query joins
# fields with AND or OR: `written_as_syntax`)
PASTED_WORDS = 4
# a query of more words was pasted, not typed (see engine.Index._settled_words): a minus in it is text
TYPED_WORDS = 6
URL_SCHEMES = {"http", "https", "ftp", "doi", "arxiv", "mailto", "www"}  # "name:" that is no field, in pasted text
_FUZZY_RE = re.compile(r"(?<=\w)~(\d+)?(?![\d/])")
_RANGE_RE = re.compile(r"\byear:(\d{4})?\s*\.\.(?:\s*(\d{4}))?")
_FIELD_RE = re.compile(r'(?<![\w"\\])([A-Za-z_]+):(?=[^\s])')
_EMPTY_FIELD_RE = re.compile(  # a quoted phrase (kept whole: "Beyond the Title: Generating"), or an empty field
    r'"[^"]*"|(?<![\w"\\])(?:' + "|".join(sorted(KNOWN_FIELDS - {"year"})) + r"):(?=\s|\)|$)", re.IGNORECASE
)
_EXACT_RE = re.compile(r'(?<![^\s(:])=([^\s()"=<>]+)')  # =word (not >=, not "k = 3")
_ENDING_QUESTION_RE = re.compile(r"(?<=\w)\?+(?=[\s)\"]|$)|(?<!\S)\?+(?!\S)")  # "need?" and a lone "?"
_WILDCARDS_ONLY_RE = re.compile(r'(?<![^\s("])(?:[A-Za-z]+:)?([*?]+)(?![^\s)"])')


class ExactTerm(query.Term):
    """A word in its exact form (a quoted word or `=word`): never widened to the other forms of its stem."""


class ExactPhrase(query.Phrase):
    """The parser's phrase: a one-word phrase stays exact (Whoosh would turn it into a plain Term)."""

    def normalize(self) -> query.Query:
        q = super().normalize()
        if type(q) is query.Term:
            exact = ExactTerm(q.fieldname, q.text, boost=q.boost)
            exact.startchar, exact.endchar = getattr(q, "startchar", None), getattr(q, "endchar", None)
            return exact
        return q


class LightPhrase(query.Phrase):
    """A quoted phrase of a stemmed field (the title, the abstract, a note): its words one after the other, in
    their order, each in the form typed or its other number or spelling (`forms`, the typed form first:
    vocabulary.exact_forms) — "normalizing flow" is "normalizing flows" too, "normalising flows" as well. A
    reader quotes a phrase for its words' order, not their number (as a scholarly search engine reads it); the
    papers with the phrase exactly as typed rank first (Ranker._light_phrase notes the others as `stem_only`).
    A quoted single word and `=word` stay exact: that is what they are for."""

    def __init__(self, fieldname: str, words: list[str], forms: list[list[str]], boost: float = 1.0):
        super().__init__(fieldname, words, slop=1, boost=boost)
        self.forms = forms

    @property
    def key(self) -> str:
        """What Ranker.stem_only keeps its papers with only another form under (no word has a space)."""
        return "\x00phrase " + " ".join(self.words)

    def variants(self, most: int = HIGHLIGHT_EXPANSIONS) -> list[str]:
        """The phrase in each of its forms, as highlight_terms shows it (at most `most`)."""
        out = [""]
        for forms in self.forms:
            out = [f"{a} {b}".strip() for a in out for b in forms][:most]
        return out


def light_phrase(q: query.Phrase, vocabulary: Vocabulary) -> query.Query:
    """A quoted phrase of a stemmed field as a LightPhrase (its words' forms from the index: a stop word, a
    number, a word of no other form stays as typed); the phrase itself when no word has another form."""
    from readinglist.index.vocabulary import exact_forms

    forms: list[list[str]] = []
    for word in q.words:
        others: set[bytes] = set()
        if isinstance(word, str) and word.isalpha() and word not in STOP_WORDS:
            others = exact_forms(word, vocabulary.forms(q.fieldname, word)[0])
        forms.append([word, *sorted(f for f in (b.decode("utf-8") for b in others) if f != word)])
    if all(len(f) == 1 for f in forms):
        return q
    phrase = LightPhrase(q.fieldname, list(q.words), forms, boost=q.boost)
    phrase.startchar, phrase.endchar = getattr(q, "startchar", None), getattr(q, "endchar", None)
    return phrase


def either_spelling(q: query.Phrase, vocabulary: Vocabulary) -> query.Query:
    """A phrase of a stemmed field with each word in its British or American spelling too, as the index holds
    them (`analysis.american`; no other number or form): the title-phrase bonus, which a title holding the whole
    query earns, counts "local reparameterisation trick" in "… the Local Reparameterization Trick" as it counts
    the query's words there (a plain word is searched in either spelling). The phrase itself when no word of
    it has another spelling."""
    forms: list[list[str]] = []
    for word in q.words:
        others: list[str] = []
        if isinstance(word, str) and word.isalpha() and word not in STOP_WORDS:
            spelling = american(word)
            found = (b.decode("utf-8") for b in vocabulary.forms(q.fieldname, word)[0])
            others = sorted(f for f in found if f != word and american(f) == spelling)
        forms.append([word, *others])
    if all(len(f) == 1 for f in forms):
        return q
    return LightPhrase(q.fieldname, list(q.words), forms, boost=q.boost)


class TypedPrefix(query.Prefix):
    """The word being typed read as the start of one (Index._as_started): searched for the `most` frequent
    words it begins only, the ones a reader is likely typing towards ("pro" → problem, process, …), so a
    keystroke pays for a few dozen words rather than every word of a short fragment; never noted as capped
    (the search's note says how the word was read)."""

    most = 30


def typed_prefixes(q: query.Query, text: str) -> query.Query:
    """`q` with its prefixes of `text` (the word being typed, as the index folds it) made TypedPrefix."""
    if type(q) is query.Prefix and q.text == text:
        return TypedPrefix(q.fieldname, q.text, boost=q.boost, constantscore=q.constantscore)
    return q.apply(lambda sub: typed_prefixes(sub, text))


MIN_NAME_PREFIX = 3  # letters an author's name no paper has needs to be read as the start of names


class NamePrefix(query.Prefix):
    """An author's name no paper has, read as the start of the names papers have (`name_prefixes`): a
    surname typed short ("author:hinto") or one a garbled import ran into its initial ("Abramson_D" is held
    as "abramsond") is what the reader means, where a correction one letter longer guessed one name of many."""


def name_prefixes(q: query.Query, names: set[str]) -> query.Query:
    """`q` with each word of `names` made a NamePrefix where it is looked for among the authors (`author:name`,
    or a plain word's part); a quoted name stays exact."""
    if not names:
        return q

    def widen(node: query.Query) -> query.Query:
        if type(node) is query.Term and node.fieldname == "authors" and node.text in names:
            return NamePrefix("authors", node.text, boost=node.boost, constantscore=False)
        return node

    return q.accept(widen)


class Stemmed(query.Or):
    """A plain word in a stemmed field: every form of its stem the index holds (`forms`), those of the very
    word typed — up to a plural — ranking above the others (`exact`). Evaluated by `ranking.Ranker` as one
    stemmed term (see Ranker._stemmed); to Whoosh's own matchers it is the Or of its forms."""

    def __init__(
        self, fieldname: str, text: str, forms: dict[bytes, int], exact: Iterable[bytes], boost: float = 1.0,
        related: dict[bytes, int] | None = None,
    ):  # fmt: skip
        terms = [query.Term(fieldname, form.decode("utf-8")) for form in sorted(forms)]
        terms += [query.Term(fieldname, form.decode("utf-8"), boost=RELATED_WEIGHT) for form in sorted(related or {})]
        super().__init__(terms, boost=boost)
        self.fieldname = fieldname
        self.text = text
        self.forms = forms  # form → its document frequency
        self.exact = frozenset(exact)
        # the forms of derived stems (Vocabulary.related), weighing RELATED_WEIGHT: for closest matches only
        self.related = related or {}

    def __repr__(self) -> str:
        related = ", related" if self.related else ""
        return f"Stemmed({self.fieldname!r}, {self.text!r}, boost={self.boost}{related})"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is Stemmed
            and (self.fieldname, self.text, self.boost) == (other.fieldname, other.text, other.boost)
            and self.forms == other.forms
            and self.related == other.related
        )

    def __hash__(self) -> int:
        return hash((Stemmed, self.fieldname, self.text, self.boost))

    def apply(self, fn: Callable[[query.Query], query.Query]) -> query.Query:
        return self  # a leaf to everything that rewrites queries

    def leaves(self):
        yield self

    def is_leaf(self) -> bool:
        return True

    def normalize(self) -> query.Query:
        return self


class Alternatives(query.Or):
    """A word of the query or what the library's abstracts define it as (`with_acronyms`): one word to the
    closest matches, which count a paper's words (the ranker estimates it by the word's own papers, so the
    other words' worth stays as it was; see ranking.Ranker._partial)."""


class Compound(Alternatives):
    """A compound word and its other spelling (`with_compounds`): evaluated as Alternatives, but the papers it
    may match are both spellings' (Ranker._estimate), so that a rare spelling whose other is two common words
    is looked up among the other words' papers, not over the whole library."""


ACRONYM_FIELDS = ("title", "abstract")  # where an acronym's long form, or a long form's acronym, is looked for
LONG_FORMS = 3  # an acronym's long forms looked for at most, the most often defined first
LONGEST_FORM = 7  # words of the query a long form may span
MOSTLY = 0.5  # the share of an acronym's definitions a long form needs to stand for it
_RAW_WORD_RE = re.compile(r"[A-Za-z0-9]+")


def with_acronyms(q: query.Query, vocabulary: Vocabulary, text: str) -> query.Query:
    """The resolved query `q` with its acronyms and long forms made Alternatives, as the library's abstracts
    define them ("Markov decision processes (MDPs)"): an acronym typed in capitals ("… for MDPs") matches
    an abstract with its long form's words too, weighing as one word (`SpeltOut`); each word of a long form
    typed ("Markov decision processes") matches the acronym too, weighing a share of it. A pasted title
    names a method by its acronym where its abstract spells it out, or the other way round. The query's
    other parts stay as they are."""
    parts = top_level(q)
    if len(parts) < 2:
        return q
    words = [_plain_word(p) for p in parts]
    typed = typed_acronyms(text)
    out = list(parts)
    covered: set[int] = set()
    stems = [stem(w) if w is not None else None for w in words]
    for i in range(len(parts) - 1):  # a long form typed: the longest run of words that is one
        if stems[i] is None or stems[i + 1] is None or not vocabulary.begins_long_form(f"{stems[i]} {stems[i + 1]}"):
            continue
        for j in range(min(len(parts), i + LONGEST_FORM), i + 1, -1):
            if any(k in covered or words[k] is None for k in range(i, j)):
                continue
            found = vocabulary.acronyms(" ".join(s for s in stems[i:j] if s is not None))
            if not found:
                continue
            acronym = max(found, key=lambda a: (found[a], a))
            if not _defined_mostly_so(found[acronym], vocabulary.long_forms(acronym)):
                continue  # "dynamic programming" is not what "DP" stands for in most papers that say DP
            alternative = _as_word(acronym, vocabulary, ACRONYM_FIELDS, 1.0 / (j - i))
            if alternative is None:
                continue
            for k in range(i, j):
                out[k] = Alternatives([parts[k], alternative])
                covered.add(k)
            break
    for i, word in enumerate(words):  # an acronym typed: its long forms
        if i in covered or word is None or not typed:
            continue
        key = word if word in typed else word[:-1] if word.endswith("s") and word[:-1] in typed else None
        if key is None:
            continue
        longs = vocabulary.long_forms(key)
        best = [lf for lf in sorted(longs, key=lambda lf: (-longs[lf], lf))[:LONG_FORMS]
                if _defined_mostly_so(longs[lf], longs)]  # fmt: skip
        spelt = [_spelt_out(lf, vocabulary) for lf in best]
        if any(spelt):
            out[i] = Alternatives([parts[i], *(q for q in spelt if q is not None)])
    return q if out == parts else query.And(out)


COMPOUND_FIELDS = ("title", "abstract")  # where a word written joined, hyphenated or apart is looked for
COMPOUND_PART = 3  # letters each part of a joined word has at least ("multi|task", "semi|supervised", not "a|part")
# a joined word is read as two only when it is this much rarer than each half: "multitask", a fraction of a per
# cent as frequent as "multi", is a spelling of "multi-task"; "dataset", about as frequent as "set", a word of
# its own (the figures: docs/performance-changes.md, session 21)
COMPOUND_RARER = 0.2
# ...or when the papers write it apart at least this share as often as joined (at least TOGETHER_MIN papers):
# "mini batch" beside "minibatch" (the figures: docs/performance-changes.md, session 22)
TOGETHER_SHARE = 0.2
TOGETHER_MIN = 2
TAIL_ALONE = 2  # ...and the tail in this many times as many papers as have the two side by side (see _written_apart)
Together = Callable[[str, str, str], tuple[float, int]]  # (field, head, tail) → (share side by side, papers with both)
_DASHES = "\u2010\u2011\u2013-"  # a hyphen as typed, and as pasted from a PDF (hyphen, non-breaking, en dash)
# (a chain may follow a minus that is a NOT: "-self-supervised" is NOT self-supervised)
_CHAIN_RE = re.compile(rf"(?:(?<![\w{_DASHES}])|(?<=(?<![^\s(])-))[A-Za-z]+(?:[{_DASHES}][A-Za-z]+)+(?![\w{_DASHES}])")
_DASH_RE = re.compile(f"[{_DASHES}]")


def hyphen_chains(text: str) -> set[tuple[str, ...]]:
    """The hyphenated words typed, each as its words ("end-to-end": end, to, end)."""
    return {tuple(fold(w) for w in _DASH_RE.split(m.group(0))) for m in _CHAIN_RE.finditer(text)}


def hyphenated_words(text: str) -> set[tuple[str, str]]:
    """The words of one hyphen typed, as the two words the parser makes of each ("q-learning": q, learning)."""
    return {(chain[0], chain[1]) for chain in hyphen_chains(text) if len(chain) == 2}


def with_compounds(q: query.Query, vocabulary: Vocabulary, text: str, together: Together | None = None) -> query.Query:
    """The resolved query `q` with its compound words made Alternatives: a word typed joined ("multitask",
    "semisupervised") matches it hyphenated or written apart in a title or abstract ("multi-task", "semi
    supervised": the index holds those as two words, one after the other), and a hyphenated word typed
    ("multi-task") matches it joined too, as one word — the spellings of one term, which papers use about
    equally. A word is split only where both halves are far more frequent than it (`_apart`)."""
    parts = top_level(q)
    out: list[query.Query | None] = list(parts)
    hyphenated = hyphenated_words(text)
    for i, part in enumerate(parts):
        if out[i] is None:
            continue  # the second word of a field's hyphenated word, taken in with the first
        if isinstance(part, query.Not):  # "learning NOT multitask": neither spelling
            inner = with_compounds(part.query, vocabulary, text, together)
            if inner is not part.query:
                out[i] = query.Not(inner)
            continue
        pair = _pair(part) if hyphenated else None
        if pair is not None and pair in hyphenated:  # "multi-task": both words in a field, or "multitask"
            ands = [sub for sub in part.subqueries if type(sub) is query.And]
            out[i] = _joined(ands, vocabulary, whole=part) or part
            continue
        word = _plain_word(part)
        if word is not None and together is not None and i + 1 < len(parts):
            joined = _typed_apart(part, word, parts[i + 1], vocabulary)
            if joined is not None:  # "red team": that, or "redteam" (Self-RedTeam) in a title or abstract
                out[i], out[i + 1] = joined, None
                continue
        if word is not None:  # "multitask": that, or "multi task(s)" in a title or abstract
            out[i] = _split(part.subqueries, vocabulary, whole=part, together=together) or part
            continue
        if isinstance(part, Stemmed):  # a field's word: "title:multitask", or "title:multi-task" as two parts
            nxt = parts[i + 1] if i + 1 < len(parts) else None
            if isinstance(nxt, Stemmed) and nxt.fieldname == part.fieldname and (part.text, nxt.text) in hyphenated:
                joined = _joined([query.And([part, nxt])], vocabulary)
                if joined is not None:
                    out[i], out[i + 1] = joined, None
            else:
                out[i] = _split([part], vocabulary, together=together) or part
        elif type(part) in (query.Or, query.DefaultOr) and part.boost == 1.0:  # "multitask OR transfer"
            out[i] = _or_with_compounds(part, vocabulary, text, hyphenated, together)
    kept = [p for p in out if p is not None]
    if kept == parts:
        return q
    return kept[0] if len(kept) == 1 else query.And(kept)


def _or_with_compounds(
    q: query.Or, vocabulary: Vocabulary, text: str, hyphenated: set[tuple[str, str]], together: Together | None
) -> query.Query:
    """An OR's words with their other spellings, as `with_compounds` gives a word of the query's own. The
    parser flattens "multitask OR transfer" into one Or of every field's form of each word: the forms of a
    word stand together, so each run of them is a word (or a hyphenated word's, a run of two-word Ands)."""
    runs: list[tuple[str | tuple[str, str] | None, list[query.Query]]] = []
    for sub in q.subqueries:
        key = _word_key(sub)
        if key is not None and runs and runs[-1][0] == key:
            runs[-1][1].append(sub)
        else:
            runs.append((key, [sub]))
    out: list[query.Query] = []
    for key, run in runs:
        if key is None:
            out += [with_compounds(sub, vocabulary, text, together) for sub in run]
            continue
        if isinstance(key, tuple):
            other = _joined(run, vocabulary) if key in hyphenated else None
        else:
            other = _split(run, vocabulary, together=together)
        if other is not None:
            out.append(other)
        else:
            out += run
    return q if out == q.subqueries else type(q)(out, boost=q.boost)


def _word_key(q: query.Query) -> str | tuple[str, str] | None:
    """What a field's form of a word says: its text, or a hyphenated word's two (an And of two words)."""
    if isinstance(q, Stemmed | query.Term) and isinstance(q.text, str):
        return q.text
    if type(q) is query.And and len(q.subqueries) == 2:
        a, b = (_word_key(sub) for sub in q.subqueries)
        if isinstance(a, str) and isinstance(b, str):
            return a, b
    return None


def _typed_apart(part: query.Query, word: str, nxt: query.Query, vocabulary: Vocabulary) -> query.Query | None:
    """Two words typed one after the other and the word they make joined, in a title or abstract, as a Compound
    ("red team" is "RedTeam" too, "data set" "dataset", "co ordinate" "coordinate"); None when no paper has them
    joined, or one is a stop word ("on line" is no "online" query: "on" is not looked for at all), a one-letter
    head or a tail shorter than COMPOUND_PART. The joined word weighs the two words it stands for."""
    second = _plain_word(nxt)
    if second is None or not (word + second).isalpha() or len(word) < 2 or len(second) < COMPOUND_PART:
        return None
    if word in STOP_WORDS or second in STOP_WORDS:
        return None
    joined = _as_word(word + second, vocabulary, COMPOUND_FIELDS, boost=2.0)
    return None if joined is None else Compound([query.And([part, nxt]), joined])


def _split(
    forms: list[query.Query], vocabulary: Vocabulary, whole: query.Query | None = None, together: Together | None = None
) -> query.Query | None:
    """A word's forms (one field's or several; `whole` their query, if made already) and the word written
    apart in those of its fields where that is looked for ("title:multitask" is "multi task" in a title
    too), as a Compound; None if not a compound."""
    word = _word_key(forms[0])
    fields = [f.fieldname for f in forms if isinstance(f, Stemmed) and f.fieldname in COMPOUND_FIELDS]
    if not fields or not isinstance(word, str) or not word.isalpha() or len(word) <= COMPOUND_PART:
        return None
    apart = _apart(word, vocabulary, fields, together)
    return None if apart is None else Compound([whole or _one_query(forms), apart])


def _joined(forms: list[query.Query], vocabulary: Vocabulary, whole: query.Query | None = None) -> query.Query | None:
    """A hyphenated word's forms (two-word Ands, a field's each; `whole` their query, if made already) and the
    word joined in their fields, as a Compound; None if no paper has it joined."""
    pair = _word_key(forms[0])
    fields = [f.subqueries[0].fieldname for f in forms if isinstance(f.subqueries[0], Stemmed)]
    fields = [f for f in fields if f in COMPOUND_FIELDS]
    if not isinstance(pair, tuple) or not fields:
        return None
    joined = _as_word(pair[0] + pair[1], vocabulary, fields)
    return None if joined is None else Compound([whole or _one_query(forms), joined])


def _one_query(forms: list[query.Query]) -> query.Query:
    """A word's field forms as one query."""
    return forms[0] if len(forms) == 1 else query.Or(forms)


class HyphenPhrase(query.And):
    """A hyphenated word's words in one field ("Q-learning", "off-policy", "end-to-end"), each in any form of
    its stem, one after the other: evaluated by Ranker._hyphen_phrase; to Whoosh's own matchers (the
    highlighter) the And it was, which matched "Q" and "learning" anywhere in the field."""


class WordsApart(HyphenPhrase):
    """A word typed joined, written apart (`_apart`: "multitask" as "multi task(s)"): a HyphenPhrase that is
    only ever the words together (the papers with both anywhere are no match for "multitask")."""


def with_hyphen_phrases(q: query.Query, text: str) -> query.Query:
    """The resolved query `q` with each hyphenated word typed ("q-learning": the parser's And of two words
    in a field) made a HyphenPhrase, in every field that reads words one after the other (the title, the
    abstract, the note; not authors or tags): a reader who types a hyphen means the words together."""
    every = hyphen_chains(text)
    hyphenated = {(chain[0], chain[1]) for chain in every if len(chain) == 2}
    chains = {chain for chain in every if len(chain) > 2}  # "end-to-end", "state-of-the-art"
    if not hyphenated and not chains:
        return q

    def chained(subs: list[query.Query]) -> query.Query | None:
        """A field's And of a chain's words (the parser keeps each word once: "end-to-end" is end AND to) as
        the chain, in order."""
        if not chains or not all(isinstance(s, Stemmed | query.MultiTerm) for s in subs):
            return None
        fields = {s.fieldname for s in subs}
        by_text = {_as_typed(s): s for s in subs}
        if len(fields) != 1 or not fields <= STEMMED_FIELDS:
            return None
        chain = next((c for c in chains if set(c) == set(by_text)), None)
        if chain is None or not all(isinstance(by_text[w], Stemmed) for w in chain[:-1]):
            return None  # (a prefix or wildcard only as the last word: "end-to-en*")
        return HyphenPhrase([by_text[w] for w in chain])

    def paired(a: query.Query, b: query.Query) -> bool:
        return (
            isinstance(a, Stemmed)
            and isinstance(b, Stemmed | query.Prefix | query.Wildcard)  # "multi-task*": its last word a prefix
            and a.fieldname == b.fieldname
            and a.fieldname in STEMMED_FIELDS
            and (a.text, _as_typed(b)) in hyphenated
        )

    def walk(node: query.Query) -> query.Query:
        if isinstance(node, Stemmed | HyphenPhrase):
            return node
        if isinstance(node, query.Not):
            inner = walk(node.query)
            return node if inner is node.query else query.Not(inner, boost=node.boost)
        if isinstance(node, query.BinaryQuery):  # ANDNOT, ANDMAYBE: the ranker reads .a and .b
            a, b = walk(node.a), walk(node.b)
            if a is node.a and b is node.b:
                return node
            binary = copy.copy(node)
            binary.a, binary.b, binary.subqueries = a, b, [a, b]
            return binary
        if not isinstance(node, query.CompoundQuery):
            return node
        subs = [walk(sub) for sub in node.subqueries]
        if type(node) is query.And and (whole := chained(subs)) is not None:
            return whole if node.boost == 1.0 else HyphenPhrase(whole.subqueries, boost=node.boost)
        if type(node) is query.And:
            joined: list[query.Query] = []
            for sub in subs:
                if joined and paired(joined[-1], sub):
                    joined[-1] = HyphenPhrase([joined[-1], sub])
                else:
                    joined.append(sub)
            if len(joined) == 1 and node.boost == 1.0:
                return joined[0]
            subs = joined
        if len(subs) == len(node.subqueries) and all(a is b for a, b in zip(subs, node.subqueries, strict=True)):
            return node
        new = copy.copy(node)
        new.subqueries = subs
        return new

    return walk(q)


def _as_typed(q: query.Query) -> str:
    """A word of a hyphenated word as hyphen_chains reads it: a prefix or wildcard up to its first wildcard
    character ("task*" → task, "ta?k" → ta)."""
    text = str(getattr(q, "text", ""))
    return re.split(r"[*?]", text, maxsplit=1)[0] if isinstance(q, query.MultiTerm) else text


def spelt_otherwise(q: query.Query) -> dict[str, query.Query]:
    """The words of the query that `with_compounds` gave another spelling, each with that spelling's query
    (a word no paper has as typed is not unknown if its other spelling is found)."""
    out: dict[str, query.Query] = {}
    for part in top_level(q):
        if type(part) is not Compound:
            continue
        first = part.subqueries[0]
        if (word := _plain_word(first)) is not None:
            out[word] = part.subqueries[1]
        elif type(first) is query.And:  # two words typed apart, found joined ("red team" as "RedTeam")
            for sub in first.subqueries:
                if (word := _plain_word(sub)) is not None:
                    out[word] = part.subqueries[1]
    return out


def _pair(part: query.Query) -> tuple[str, str] | None:
    """The two words of a hyphenated word as the parser reads it (in each field, both words: an Or of Ands
    of two words), or None."""
    if type(part) not in (query.Or, query.DefaultOr) or part.boost != 1.0:
        return None
    pairs = set()
    for sub in part.subqueries:
        if type(sub) is query.And and len(sub.subqueries) == 2:
            texts = tuple(getattr(leaf, "text", None) for leaf in sub.subqueries)
            if not all(isinstance(t, str) and t.isalpha() for t in texts):
                return None
            pairs.add(texts)
        elif not (type(sub) is query.Term and sub.fieldname == "tags"):  # a tag is a whole "multi task"
            return None
    return pairs.pop() if len(pairs) == 1 else None  # type: ignore[return-value]


def _written_apart(head: str, tail: str, own: int, vocabulary: Vocabulary, together: Together | None) -> bool:
    """Do the papers write head and tail side by side (in their abstracts) in at least TOGETHER_SHARE as many
    papers as write them joined? Stop words are never a half ("another" is no "an other")."""
    if together is None or head in STOP_WORDS or tail in STOP_WORDS:
        return False
    need = max(TOGETHER_MIN, TOGETHER_SHARE * own)
    tail_papers = any_form(tail, vocabulary)
    if min(any_form(head, vocabulary), tail_papers) < need:  # (cheap: most splits end here)
        return False
    share, both = together("abstract", head, tail)
    # the tail a word papers use alone too: what a line break leaves of a word ("Gau- sian", "re- inforcement")
    # stands only after its head, and made "gausian" and "reinforc" find those papers, first. A one-letter
    # head is no line break's (TeX breaks two letters in at the earliest): "t-SNE" is its name
    alone = len(head) < 2 or tail_papers >= TAIL_ALONE * share * both
    return share * both >= need and alone


def any_form(word: str, vocabulary: Vocabulary) -> int:
    """How many abstracts hold the word in some form, at most (its forms' papers summed)."""
    return sum(vocabulary.forms("abstract", word)[0].values())


def _apart(
    word: str, vocabulary: Vocabulary, fields: Iterable[str] = COMPOUND_FIELDS, together: Together | None = None
) -> query.Query | None:
    """The word as two words one after the other, a phrase in the title or the abstract ("multitask" →
    "multi task"), weighing one word; None when no split is a spelling of it: both halves in the library's
    titles or abstracts, each far more frequent than the word (COMPOUND_RARER), or — asked of `together`, how
    often the papers with both halves have them side by side — written apart in at least TOGETHER_SHARE as
    many papers as write it joined ("minibatch", "nonparametric", and one-letter heads: "qlearning", "kmeans").
    A common word is a word ("networks" is no "net works"), and its search pays for no phrase. The phrase is
    looked for in `fields` (a field's word: that field's)."""

    known: dict[str, int] = {}

    def papers(w: str) -> int:
        if w not in known:
            known[w] = max(vocabulary.forms(fieldname, w)[0].get(w.encode(), 0) for fieldname in COMPOUND_FIELDS)
        return known[w]

    own = papers(word)
    phrases: list[query.Query] = []
    for k in range(1, len(word) - COMPOUND_PART + 1):
        head, tail = word[:k], word[k:]
        rarer = k >= COMPOUND_PART and own < COMPOUND_RARER * min(papers(head), papers(tail))
        if not rarer and not _written_apart(head, tail, own, vocabulary, together):
            continue
        for fieldname in fields:  # each half in any form: "pretrained" is "pre-training" too
            (head_forms, head_exact), (tail_forms, tail_exact) = (vocabulary.forms(fieldname, w) for w in (head, tail))
            if head_forms and tail_forms:
                halves = [
                    Stemmed(fieldname, head, head_forms, head_exact),
                    Stemmed(fieldname, tail, tail_forms, tail_exact),
                ]
                phrases.append(WordsApart(halves))
    return query.Or(phrases, boost=0.5) if phrases else None  # two words' scores, worth one word


def typed_acronyms(text: str) -> frozenset[str]:
    """The acronyms typed as acronyms (in capitals: "MDPs", not "mdps"), by their acronym_key: what a query
    means beyond its folded words (a search's result is cached by both)."""
    return frozenset(key for w in _RAW_WORD_RE.findall(text) if (key := acronym_key(w)) is not None)


def _defined_mostly_so(papers: int, long_forms: dict[str, int]) -> bool:
    """Is a long form defined in at least MOSTLY of the papers that define its acronym (an ambiguous
    acronym stands for none of its long forms)?"""
    return papers >= MOSTLY * sum(long_forms.values())


def top_level(q: query.Query) -> list[query.Query]:
    """The parts of the query's top-level And, nested ones flattened (what engine.split_words sorts)."""
    parts: list[query.Query] = []
    stack = [q]
    while stack:
        node = stack.pop(0)
        if type(node) is query.And and node.boost == 1.0:
            stack[:0] = node.subqueries
        else:
            parts.append(node)
    return parts


def _plain_word(part: query.Query) -> str | None:
    """The word of a plain query word (every field's form of it, stemmed where the field is), else None."""
    if type(part) not in (query.Or, query.DefaultOr) or part.boost != 1.0:
        return None
    texts = {leaf.text for leaf in part.leaves() if isinstance(leaf, Stemmed)}
    if len(texts) != 1 or not all(isinstance(leaf, Stemmed) or type(leaf) is query.Term for leaf in part.leaves()):
        return None
    word = texts.pop()
    return word if word.isalnum() else None


def _spelt_out(long_form: str, vocabulary: Vocabulary) -> query.Query | None:
    """A long form in an abstract: its content words, each any form of its stem (read once a searcher, as
    every plain word is: a phrase's positions cost a few times that on every search), weighing one word
    together; None if a word of it is in no abstract (or it has one content word only)."""
    words = [w for w in long_form.split() if w not in STOP_WORDS]
    stemmed: list[query.Query] = []
    for word in words:
        forms, exact = vocabulary.forms("abstract", word)
        if not forms:
            return None
        stemmed.append(Stemmed("abstract", word, forms, exact))
    return SpeltOut(stemmed, boost=1.0 / len(stemmed), long_form=long_form) if len(stemmed) > 1 else None


class SpeltOut(query.And):
    """An acronym's long form as its content words (`_spelt_out`): evaluated as the And it is, highlighted as
    the phrase it stands for (its words elsewhere in an abstract mean nothing to the query)."""

    def __init__(self, subqueries: list[query.Query], boost: float = 1.0, long_form: str = ""):
        super().__init__(subqueries, boost=boost)
        self.long_form = long_form


def _as_word(word: str, vocabulary: Vocabulary, fields: Iterable[str], boost: float = 1.0) -> query.Query | None:
    """The word as a plain word of these fields (every form of its stem: MDP, MDPs), or None if no paper has
    it: an acronym a long form was typed for, or a compound typed hyphenated ("multi-task" as "multitask")."""
    stemmed: list[query.Query] = []
    for fieldname in fields:
        forms, exact = vocabulary.forms(fieldname, word)
        if forms:
            stemmed.append(Stemmed(fieldname, word, forms, exact))
    return query.Or(stemmed, boost=boost) if stemmed else None


_VALUE_RE = re.compile(r"(?<![\w\\])(?:state|priority):\w+")
# a quoted phrase (skipped), or a minus at the start, after a space or tab, or after a "(" that opens a group,
# right before a letter or a quote: not after a line break (a wrapped line's hyphen), nor before a digit ("-1")
_MINUS_RE = re.compile(r'"[^"]*"?|(?:(?<![^ \t])|(?<=(?<![^ \t(])\())-(?=[^\W\d_]|")')


_OPERATOR_RE = re.compile(r"(?<![^\s(])(?:AND|OR)(?![^\s)])")  # AND, OR as Whoosh reads them: capitals, a word apart


def written_as_syntax(text: str) -> bool:
    """Whether a query joins fields with AND or OR ("tag:RL OR state:queued OR …"): typed, however many words,
    so a field it names that does not exist ("id:18cbc1") is an error, not text that found 29 unrelated
    closest matches (a trial). A pasted sentence has a colon ("BERT: Pre-training") but not both."""
    if ":" not in text or not _OPERATOR_RE.search(text):
        return False
    outside = re.sub(r'"[^"]*"', '""', text)  # a phrase's "OR" is a word
    return bool(_OPERATOR_RE.search(outside)) and any(
        m.group(1).lower() not in URL_SCHEMES and outside[m.end() : m.end() + 1] != "/"  # a link's colon is no field
        for m in _FIELD_RE.finditer(outside)
    )


def negating_minuses(text: str) -> list[int]:
    """Where in `text` a minus means NOT ("diffusion -video", '-"a phrase"', "-author:smith"): none in a query of
    TYPED_WORDS words or more, which was pasted ("a diffusion -based model" is text), unless it joins fields
    with AND or OR (`written_as_syntax`)."""
    if "-" not in text or (len(text.split()) >= TYPED_WORDS and not written_as_syntax(text)):
        return []
    return [m.start() for m in _MINUS_RE.finditer(text) if m.group(0) == "-"]


def minus_as_not(text: str) -> str:
    """The text with each minus that means NOT (`negating_minuses`) written NOT."""
    for at in reversed(negating_minuses(text)):
        text = f"{text[:at]}NOT {text[at + 1 :]}"
    return text


def preprocess(text: str) -> str:
    """Our shorthand into Whoosh syntax: year:2020..2024 → year:[2020 TO 2024], =word → "word", quotes
    balanced, -word → NOT word; punctuation of pasted text that Whoosh would read as syntax made plain."""
    text = minus_as_not(text)
    if "," in text and '"' in text:  # author:"Bengio, Yoshua", as a reference list writes it: the name as papers do
        text = _LAST_FIRST_RE.sub(r'\1:"\3 \2"', text)
    if "<" in text or ">" in text:  # a comparison is a field's (year:>=2020); "<50 F1" pasted is text
        text = _STRAY_COMPARISON_RE.sub(" ", text)
    if "$" in text:  # a formula as the abstract has it ("$t_{\mathrm{mix}}$"): its plain text ("t_mix")
        text = _INLINE_MATH_RE.sub(_math_as_text, text)
    if "\\" in text:  # LaTeX as the abstract has it ("\ell_2"): its words as the index holds them (ℓ₂, l2)
        text = _LATEX_IN_QUERY_RE.sub(_latex_as_text, text)
    if "_{" in text:  # "x_{train}" typed: one word, as the index holds $x_{train}$ ("xtrain"; Whoosh read the "{")
        text = _BRACED_SUBSCRIPT_RE.sub(r"_\1", text)
    text = _RANGE_RE.sub(_year_range, text)
    if "~" in text:
        text = _FUZZY_RE.sub(_fuzzy, text)
    if "?" in text:
        text = _ENDING_QUESTION_RE.sub("", text)
    if text.count('"') % 2:
        text += '"'  # an unfinished phrase (still being typed) is read as if closed
    if ":" in text:  # a field named with nothing after it yet ("diffusion title:", "(author:") is not the word
        # "title", which found "TVSum: … Using Titles" first (a trial); quoted phrases are kept whole, and an empty
        # year: keeps its message below
        text = _EMPTY_FIELD_RE.sub(lambda m: m.group(0) if m.group(0)[0] == '"' else " ", text)
    if "=" in text:
        text = _exact_words(text)
    outside = re.sub(r'"[^"]*"', '""', text)
    pasted = len(outside.split()) > PASTED_WORDS and not written_as_syntax(text)
    if pasted and _WILDCARDS_ONLY_RE.search(outside):  # "we apply LRTA * to …": a star in pasted text is no wildcard
        text = _WILDCARDS_ONLY_RE.sub(" ", text)
        outside = re.sub(r'"[^"]*"', '""', text)
    for m in _WILDCARDS_ONLY_RE.finditer(outside):
        raise QueryError(
            f"“{m.group(0)}” has no letters to look for: put a few before the wildcard (optim*, optimi?ation)"
        )
    for m in _FIELD_RE.finditer(outside):
        name = m.group(1).lower()
        if name == "topic":  # split_topics took the top-level ones out: this one is nested
            raise QueryError("topic: filters the whole query: use it outside parentheses and OR (topic:12 attention)")
        if name in KNOWN_FIELDS:
            continue
        if pasted or name in URL_SCHEMES or outside[m.end() : m.end() + 1] == "/":
            continue  # a link, or "(cid:2)" in a pasted sentence: the colon is punctuation (see below)
        raise QueryError(f"unknown field “{m.group(1)}:” — use one of {FIELDS_HELP}")
    for state in re.finditer(r"\bstate:(\S+)", outside, re.IGNORECASE):
        if state.group(1).lower().strip('"()') not in STATES:
            raise QueryError(f"state:{state.group(1)} — use " + ", ".join(f"state:{s}" for s in STATES))
    if not pasted:  # (in a pasted sentence "year: the …" is text)
        for year in re.finditer(r"\byear:(\S*)", outside, re.IGNORECASE):
            if not _YEAR_VALUE_RE.match(year.group(1)):
                raise QueryError(
                    f"year:{year.group(1)} — use a year (year:2024), a range (year:2019..2024) or a comparison "
                    "(year:>=2020)"
                )
    for priority in re.finditer(r"\bpriority:(\S+)", outside, re.IGNORECASE):
        if priority.group(1).lower().strip('"()') not in PRIORITY_VALUES:
            raise QueryError(f"priority:{priority.group(1)} — use priority:1, priority:2, priority:3 or priority:none")
    if not _FIELD_RE.search(text):
        return text

    def field(m: re.Match[str]) -> str:
        name = m.group(1).lower()
        return name + ":" if name in KNOWN_FIELDS else m.group(1) + " "  # field names are case-insensitive

    # and so are states and priorities (state:Read)
    return _VALUE_RE.sub(lambda m: m.group(0).lower(), _FIELD_RE.sub(field, text))


_LAST_FIRST_RE = re.compile(r'\b(authors?):"([^",]+),\s*([^",]+)"', re.IGNORECASE)
_LATEX_IN_QUERY_RE = re.compile(r"\$?\\[A-Za-z]+(?:\{[^{}\s]*\}|[_^](?:\{[^{}\s]*\}|[A-Za-z0-9]))*\$?")


# as Pandoc reads one: no space inside either dollar, none of a price's digits after ("$5 and $10" is none)
_INLINE_MATH_RE = re.compile(r"\$([^$\s](?:[^$\n]*[^$\s])?)\$(?!\d)")
_BRACED_SUBSCRIPT_RE = re.compile(r"(?<=\w)_\{([^\W_]+)\}")
_PAREN_SUBSCRIPT_RE = re.compile(r"(?<=\w)_\(([^\W_]+)\)")


def _math_as_text(m: re.Match[str]) -> str:
    """A formula's plain text (markup.math_plain, as the index reads an abstract's), a subscript in parentheses
    ("x_(train)") written joined ("x_train"): the parser would read the parentheses as a group."""
    from readinglist.markup import math_plain

    return _PAREN_SUBSCRIPT_RE.sub(r"_\1", math_plain(m.group(1)))


def _latex_as_text(m: re.Match[str]) -> str:
    from readinglist.markup import math_plain

    shown = math_plain(m.group(0).strip("$"))
    # a command that is no symbol, or one being typed (\em): its letters, never an error while typing
    return shown if any(c.isalnum() for c in shown) else " ".join(re.findall(r"[A-Za-z0-9]+", m.group(0)))


_STRAY_COMPARISON_RE = re.compile(r"(?<!:)(?:[<>]=?|=[<>])")  # Whoosh's "<50" with no field failed to parse
_YEAR_VALUE_RE = re.compile(r"(?:[<>]=?)?\d{4}\b|\[")  # a year, a comparison, or a range made one by _year_range


def _year_range(m: re.Match[str]) -> str:
    """year:2019..2024 (either end may be left open) in Whoosh's syntax; the ends in order, whichever was typed
    first (year:2024..2019 is the same five years)."""
    low, high = m.group(1), m.group(2)
    if low and high and int(low) > int(high):
        low, high = high, low
    return "year:[" + " ".join(x for x in (low, "TO", high) if x) + "]"


def _fuzzy(m: re.Match[str]) -> str:
    distance = int(m.group(1) or 1)
    if distance > MAX_FUZZY:
        raise QueryError(
            f"~{m.group(1)}: a fuzzy word allows at most {MAX_FUZZY} edits (word~ for one, word~2 for two)"
        )
    return f"~{distance}/{FUZZY_PREFIX}"


def _exact_words(text: str) -> str:
    """=word → "word" outside phrases (a quoted word is exact too)."""
    parts = re.split(r'("[^"]*")', text)
    return "".join(p if p.startswith('"') else _EXACT_RE.sub(r'"\1"', p) for p in parts)


_TOPIC_RE = re.compile(r'(?<![\w"\\])topic:("[^"]*"?|[^\s()]+)', re.I)


def split_topics(text: str) -> tuple[str, list[tuple[str, bool]]]:
    """The query's top-level topic: clauses taken out (the library filters by them through the store, as the
    sidebar's state and tag): the rest of the query, and each clause's value and whether NOT (or a minus:
    "-topic:12") came before it. A clause inside parentheses or beside OR stays, and preprocess says why it
    cannot be."""
    masked = re.sub(r'"[^"]*"?', lambda m: '"' + " " * (len(m.group()) - 2) + '"' if len(m.group()) > 1 else '"', text)
    clauses: list[tuple[str, bool]] = []
    cuts: list[tuple[int, int]] = []
    minuses = set(negating_minuses(text))
    for m in _TOPIC_RE.finditer(masked):
        before, after = masked[: m.start()], masked[m.end() :]
        if before.count("(") > before.count(")"):
            continue
        minus = m.start() - 1 in minuses  # "-topic:12"
        if minus:
            before = before[:-1]
        previous = before.split()[-1:] or [""]
        following = after.split()[:1] or [""]
        if "OR" in (previous[0], following[0]):
            continue
        start = m.start() - 1 if minus else m.start()
        negated = minus or previous[0] == "NOT"
        if negated and not minus:
            start = before.rstrip().rfind("NOT")
        clauses.append((text[m.start(1) : m.end(1)], negated))
        cuts.append((start, m.end()))
    if not clauses:
        return text, []
    rest = text
    for start, end in reversed(cuts):
        rest = rest[:start] + " " + rest[end:]
    rest = re.sub(r"^\s*(?:AND\s+)+|(?:\s+AND)+\s*$", "", rest.strip())
    rest = re.sub(r"\bAND\s+(?:AND\s+)+", "AND ", rest)
    return " ".join(rest.split()) if '"' not in rest else rest.strip(), clauses


def make_parser(schema: Schema) -> qparser.QueryParser:
    parser = qparser.MultifieldParser(
        TEXT_FIELDS, schema, group=qparser.AndGroup, phraseclass=ExactPhrase, fieldboosts={"authors": AUTHORS_BOOST}
    )
    parser.add_plugin(qparser.FuzzyTermPlugin())
    parser.add_plugin(qparser.GtLtPlugin())
    parser.add_plugin(qparser.FieldAliasPlugin({"authors": ["author"], "tags": ["tag"]}))
    return parser


def parse(
    parser: qparser.QueryParser, text: str, state: str | None = None, tag: str | None = None, within: str = ""
) -> query.Query:
    """The query for `text` (the words as typed; see `resolve`), filtered by a reading state and a tag (the
    sidebar's choice), and searched within the papers `within` matches (a smart list's own query)."""
    q = _searchable(parser.parse(preprocess(text)), parser.schema) if text.strip() else query.Every()
    q = _hyphenated_wildcards(q, parser.schema)
    if q is query.NullQuery and text.strip():
        raise QueryError("that query has no words to search for")
    if within.strip():
        outer = _hyphenated_wildcards(_searchable(parser.parse(preprocess(within)), parser.schema), parser.schema)
        if outer is not query.NullQuery:
            q = outer if isinstance(q, query.Every) else query.And([outer, q])
    for leaf in q.leaves():
        if isinstance(leaf, query.MultiTerm):
            # rank a prefix or fuzzy match by the words it matched (BM25F), not a constant 1 per field
            leaf.constantscore = False
    q = drop_stop_words(q)
    filters: list[query.Query] = []
    if state:
        filters.append(query.Term("state", state))
    if tag:
        filters.append(query.Term("tags", tag_key(tag)))
    return query.And([q, *filters]) if filters else q


def _searchable(q: query.Query, schema: Schema) -> query.Query:
    """The parsed query without what Whoosh cannot evaluate, which a pasted sentence can hold: a phrase in a
    field that keeps no positions (a stray quote before "(NF), samples" makes a phrase of the tags field) is
    every one of its words there (the tags field's are one: `tag:"a, b"` is the tag "a, b"); a fuzzy word shorter
    than its fixed prefix ("w~": Whoosh's automaton fails on it) is the word itself."""

    if not any(isinstance(leaf, query.Phrase | query.FuzzyTerm) for leaf in q.leaves()):
        return q  # (most queries: the tree is not rebuilt)

    def fix(node: query.Query) -> query.Query:
        phrase = isinstance(node, query.Phrase) and node.fieldname in schema
        if phrase and not schema[node.fieldname].format.supports("positions"):
            return query.And([ExactTerm(node.fieldname, w, boost=node.boost) for w in node.words])
        if type(node) is query.FuzzyTerm and isinstance(node.text, str) and len(node.text) < node.prefixlength:
            return query.Term(node.fieldname, node.text, boost=node.boost)
        return node

    return q.accept(fix).normalize()


def _hyphenated_wildcards(q: query.Query, schema: Schema) -> query.Query:
    """A prefix or wildcard of a hyphenated word ("multi-task*", "off-pol*") as its words, the last one the
    prefix: the index holds "multi-task" as two words, so the parser's one prefix "multi-task" matched
    nothing. with_hyphen_phrases then keeps the words side by side; in a title or abstract the word written
    joined is a prefix too ("multitask*")."""
    if not any(isinstance(leaf, query.MultiTerm) and _DASH_RE.search(str(leaf.text)) for leaf in q.leaves()):
        return q  # (most queries: the tree is not rebuilt)

    def split(node: query.Query) -> query.Query:
        if not isinstance(node, query.Prefix | query.Wildcard) or not isinstance(node.text, str):
            return node
        *heads, last = _DASH_RE.split(node.text)
        head = " ".join(heads)
        if not head.strip() or not last or node.fieldname not in schema or any(ch in head for ch in "*?"):
            return node
        words = [t.text for t in schema[node.fieldname].analyzer(head)]
        if not words or not last.strip("*?"):
            return node
        tail = type(node)(node.fieldname, last, constantscore=node.constantscore)
        apart = query.And([*(query.Term(node.fieldname, w) for w in words), tail])
        if node.fieldname not in COMPOUND_FIELDS:
            return apart if node.boost == 1.0 else query.And(apart.subqueries, boost=node.boost)
        joined = type(node)(node.fieldname, "".join(words) + last, constantscore=node.constantscore)
        return query.Or([apart, joined], boost=node.boost)  # "multitasking" too, as "multi-task" finds "multitask"

    return q.accept(split)


def drop_stop_words(q: query.Query) -> query.Query:
    """A stop word ("the", "of", "is", …) means nothing in any field of a query that has other words: the
    papers with the other words all have it, and reading its postings is most of the query's cost. A query
    of stop words only ("to be or not to be") keeps them, and so does a phrase or an exact word."""
    if type(q) is not query.And:
        return q
    kept = [sub for sub in q.subqueries if not _is_stop_word(sub)]
    if not kept or len(kept) == len(q.subqueries):
        return q
    return kept[0] if len(kept) == 1 and q.boost == 1.0 else query.And(kept, boost=q.boost)


def left_out_stop_words(parser: qparser.QueryParser, text: str) -> list[str]:
    """The stop words `drop_stop_words` leaves out of the query `text`, as the index holds them ("of"): the
    closest matches' count of words is of the others, which a reader is told ("1 of 2 words" for "budget of
    xyzzy" read as a slip)."""
    try:
        q = parser.parse(preprocess(text))
    except Exception:  # (what parse reads as plain words: no count said of it)
        return []
    if type(q) is not query.And:
        return []
    dropped = [sub for sub in q.subqueries if _is_stop_word(sub)]
    if len(dropped) == len(q.subqueries):
        return []
    return list(dict.fromkeys(leaf.text for sub in dropped for leaf in sub.leaves()))


def _is_stop_word(q: query.Query) -> bool:
    """A plain word of the default fields that is a stop word (each field's form of it a stop word)."""
    leaves = list(q.leaves()) if type(q) in (query.Or, query.DefaultOr) else [q]
    return all(type(leaf) is query.Term and leaf.text in STOP_WORDS for leaf in leaves)


def resolve(
    q: query.Query, vocabulary: Vocabulary, corrections: dict[str, str] | None = None, instead: bool = False,
    related: bool = False,
) -> query.Query:  # fmt: skip
    """The query to evaluate: each plain word of a stemmed field becomes every form of its stem the index
    holds (`Stemmed`); exact terms, phrases and other fields stay as they are. With `corrections`, a
    corrected word matches either itself or its correction — or, `instead`, only the correction's exact
    form (to try a correction out). With `related`, a word matches the forms of its derived stems too,
    weighing less (`Stemmed.related`)."""
    if isinstance(q, Stemmed | ExactTerm | LightPhrase):
        return q
    if isinstance(q, query.Phrase) and q.fieldname in STEMMED_FIELDS and q.slop == 1 and len(q.words) > 1:
        return light_phrase(q, vocabulary)
    if type(q) is query.FuzzyTerm and q.fieldname in STEMMED_FIELDS and isinstance(q.text, str):
        return _fuzzy_stems(q, vocabulary)
    if type(q) is query.Term and isinstance(q.text, str):
        texts = [q.text]
        if corrections and q.text in corrections and q.fieldname in TEXT_FIELDS:
            if instead:
                return ExactTerm(q.fieldname, corrections[q.text], boost=q.boost)
            texts.append(corrections[q.text])
        if q.fieldname in STEMMED_FIELDS:
            parts: list[query.Query] = []
            for text in texts:
                forms, exact = vocabulary.forms(q.fieldname, text)
                family = vocabulary.related(q.fieldname, text) if related and q.fieldname in RELATED_FIELDS else None
                parts.append(Stemmed(q.fieldname, text, forms, exact, boost=q.boost, related=family))
        else:
            parts = [query.Term(q.fieldname, text, boost=q.boost) for text in texts]
        return parts[0] if len(parts) == 1 else query.Or(parts)
    return q.apply(lambda sub: resolve(sub, vocabulary, corrections, instead, related))


def _fuzzy_stems(q: query.FuzzyTerm, vocabulary: Vocabulary) -> query.Query:
    """A fuzzy word of a stemmed field: the words it is near, each widened to its stem's forms as a plain
    word is (`reinforcment~` finds what `reinforcement` finds), the words near it ranking first."""
    by_stem: dict[str, list[str]] = {}
    for word in sorted(vocabulary.near(q)):
        by_stem.setdefault(word_stem(word), []).append(word)
    parts: list[query.Query] = []
    for words in by_stem.values():
        forms, _ = vocabulary.forms(q.fieldname, words[0])
        parts.append(Stemmed(q.fieldname, words[0], forms, {w.encode("utf-8") for w in words}, boost=q.boost))
    return parts[0] if len(parts) == 1 else query.Or(parts)


def highlight_terms(q: query.Query, s: Searcher, expanded: dict[query.Query, set[bytes]]) -> set[str]:
    """What a hit shows highlighted for this query: words as the index holds them (every form a plain word
    matched, the words a prefix, wildcard or fuzzy term expanded to — capped, so a broad prefix cannot
    stall the search — as the ranker found them) and phrases, as their words joined by spaces."""
    terms: set[str] = set()
    reader = s.reader()
    try:
        spelt = list(_nodes(q, SpeltOut))
        terms.update(node.long_form for node in spelt)
        hidden = {id(leaf) for node in spelt for leaf in node.leaves()}
        for together in _nodes(q, HyphenPhrase):  # "q-learning", "pretrained" as "pre training": a phrase, not 2 words
            words = together.subqueries
            if len(words) == 2:
                first, second = words
                seconds = (
                    second.forms
                    if isinstance(second, Stemmed)
                    else sorted(  # the most frequent first
                        expanded.get(second) or (), key=lambda w: (-reader.doc_frequency(second.fieldname, w), w)
                    )
                )
                pairs = [f"{a.decode()} {b.decode()}" for a in (*first.forms, *first.related) for b in seconds]
                terms.update(pairs[:HIGHLIGHT_EXPANSIONS])  # (the second word may be a prefix: "multi-task*")
            else:  # "end to end": as typed
                terms.add(" ".join(w.text for w in words))
            hidden.update(id(leaf) for leaf in together.leaves())
        for leaf in q.leaves():
            if getattr(leaf, "fieldname", None) not in HIGHLIGHTED_FIELDS or id(leaf) in hidden:
                continue
            if isinstance(leaf, Stemmed):
                terms.update(form.decode("utf-8") for form in (*leaf.forms, *leaf.related))
            elif isinstance(leaf, query.MultiTerm):
                words = expanded.get(leaf)
                for i, btext in enumerate(sorted(words) if words is not None else leaf._btexts(reader)):
                    if i >= HIGHLIGHT_EXPANSIONS:
                        break
                    terms.add(btext.decode("utf-8") if isinstance(btext, bytes) else str(btext))
            elif isinstance(leaf, LightPhrase):
                terms.update(leaf.variants())
            elif isinstance(leaf, query.Phrase):
                terms.add(" ".join(str(w) for w in leaf.words))
            elif isinstance(leaf, query.Term):
                text = leaf.text
                terms.add(text.decode("utf-8") if isinstance(text, bytes) else str(text))
    except Exception:  # highlighting is a courtesy; never fail a search over it
        pass
    return terms


Q = TypeVar("Q", bound=query.Query)


def words_apart(q: query.Query) -> list[WordsApart]:
    """The query's joined words read as two (see _apart)."""
    return list(_nodes(q, WordsApart))


def _nodes(q: query.Query, kind: type[Q]) -> Iterator[Q]:
    """The query's parts of this kind (a SpeltOut, a HyphenPhrase), outermost, NOT's too."""
    if isinstance(q, kind):
        yield q
    elif isinstance(q, query.Not):
        yield from _nodes(q.query, kind)
    elif isinstance(q, query.CompoundQuery):
        for sub in q.subqueries:
            yield from _nodes(sub, kind)


_WORDS = WordAnalyzer()


class Highlighter:
    """The detail pane's test for a search's terms: a word is highlighted when the index would hold it as
    one of the words matched; a phrase only where its words stand together (`spans`)."""

    def __init__(self, terms: set[str]):
        self.words = {fold(t) for t in terms if " " not in t}
        self.phrases = [[fold(w) for w in t.split()] for t in terms if " " in t]

    def __call__(self, word: str) -> bool:
        if fold(word) in self.words or any(t.text in self.words for t in _WORDS(word)):
            return True
        if "_" in word and not self.words.isdisjoint(subscript_parts(word)):
            return True  # "mix" found "t_mix" (markup highlights the part)
        return spelt_out(word) in self.words  # "mueller" found Müller: it shows

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Where in `text` a phrase of the query stands: (start, end) character ranges."""
        if not self.phrases:
            return []
        found = [(t.startchar, t.endchar, t.text) for t in _WORDS(text, chars=True)]
        # each place's words: the folded one, and the spelt-out one the index holds beside it ("robert
        # mueller" stands where "Robert Müller" does)
        forms = [{w} if text.isascii() else {w, spelt_out(text[a:b])} for a, b, w in found]
        out = []
        for phrase in self.phrases:
            n = len(phrase)
            for i in range(len(forms) - n + 1):
                if all(phrase[k] in forms[i + k] for k in range(n)):
                    out.append((found[i][0], found[i + n - 1][1]))
        return sorted(out)


def highlighter(terms: set[str]) -> Highlighter:
    """A word test (with phrase spans) for the detail pane."""
    return Highlighter(terms)


_TAG_WORD_RE = re.compile(r'[^\s()"]+')
_TAG_OPERATORS = {"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE"}
_BARE_TAG_RE = re.compile(r'[^\s()"^~*?:=\-][^\s()"^~*?:]*')


def retag_query(text: str, old: str, new: str, parser: qparser.QueryParser | None = None) -> str:
    """`text` with each `tag:` term that names the tag `old` (as `tag:` looks a tag up: tag_key, so any case,
    "#", hyphens for spaces) naming `new` instead: `tag:x`, `tag:"two words"`, `tags:`, and each word of
    `tag:(a OR b)`, under NOT and inside parentheses too. The rest of the text is kept as typed. The parser
    checks the result: unless the new text looks up exactly the old one's tags, `old` read as `new`, the text
    is returned as it was (a rename must never change what else a saved list means)."""
    old_key, new_key = tag_key(old), tag_key(new)
    if not old_key or not new_key or ":" not in text:
        return text
    outside = re.sub(r'"[^"]*"?', lambda m: '"' + " " * (len(m.group(0)) - 2) + '"'[: len(m.group(0)) - 1], text)
    spans: list[tuple[int, int, bool]] = []  # (start, end, quoted) of each value naming the old tag
    for m in _FIELD_RE.finditer(outside):
        if m.group(1).lower() not in ("tag", "tags"):
            continue
        at = m.end()
        if text[at] == "(":  # tag:(a OR "b c"): each word of the group
            depth, end = 0, at
            while end < len(text):
                depth += {"(": 1, ")": -1}.get(outside[end], 0)
                end += 1
                if depth == 0:
                    break
            spans += _tag_values(text, outside, at + 1, end, old_key)
        else:
            spans += _tag_values(text, outside, at, at + 1, old_key, one=True)
    if not spans:
        return text
    shown = new.strip()
    bare = bool(_BARE_TAG_RE.fullmatch(shown)) and shown.upper() not in _TAG_OPERATORS
    if '"' in shown or not shown:
        return text  # a name no query can quote is left as it was
    out, last = [], 0
    for start, end, quoted in spans:
        out += [text[last:start], shown if bare and not quoted else f'"{shown}"']
        last = end
    rewritten = "".join([*out, text[last:]])
    if parser is None:
        from readinglist.index.schema import make_schema

        parser = make_parser(make_schema())
    try:
        before, after = _looked_up_tags(parser, text), _looked_up_tags(parser, rewritten)
    except QueryError:
        return text
    return rewritten if after == [new_key if t == old_key else t for t in before] else text


def _tag_values(
    text: str, outside: str, start: int, end: int, old_key: str, one: bool = False
) -> list[tuple[int, int, bool]]:
    """The values in text[start:end] (the one at `start` if `one`) that name the tag `old_key`: a quoted
    phrase whole, a word without its boost or a leading "="; a wildcard or fuzzy word names no one tag."""
    found = []
    at = start
    while at < (len(text) if one else end):
        if text[at] == '"':
            close = text.find('"', at + 1)
            close = len(text) if close < 0 else close + 1
            if tag_key(text[at + 1 : close].rstrip('"')) == old_key:
                found.append((at, close, True))
            at = close
        elif (m := _TAG_WORD_RE.match(outside, at)) is not None:
            word = m.group(0)
            value = word.split("^", 1)[0]
            skip = len(value) - len(value.lstrip("=-+!"))  # "=x", and "-x" inside tag:( … ): NOT x, kept so
            plain = value.upper() not in _TAG_OPERATORS and not any(c in value for c in "*?~")
            if plain and tag_key(value[skip:]) == old_key:
                found.append((at + skip, at + len(value), False))
            at = m.end()
        else:
            at += 1
        if one:
            break
    return found


def _looked_up_tags(parser: qparser.QueryParser, text: str) -> list[str]:
    """The tags a query's `tag:` terms look up, in order."""
    q = parse(parser, text)
    return [
        t.text if isinstance(t.text, str) else t.text.decode()
        for t in q.leaves()
        if t.field() == "tags" and hasattr(t, "text")
    ]


def required_tags(text: str) -> list[str]:
    """The tags (as `tag:` looks them up: tag_key) that every paper a query matches has: its `tag:` terms
    that no OR, NOT or wildcard makes optional ("tag:theory diffusion" → ["theory"]; "tag:a OR tag:b",
    "NOT tag:a", "tag:a*" → []). A saved list whose query requires a tag no paper has shows nothing, and the
    sidebar says why (Library.missing_list_tags). A query that cannot be read requires none."""
    if ":" not in text:
        return []
    return [_typed_tag(text, key) for key in _required_tags(text)]


def _typed_tag(text: str, key: str) -> str:
    """The tag `key` as the query `text` spells it ("CuO" of `tag:CuO`, whose key is "cuo"), else the key."""
    outside = re.sub(r'"[^"]*"?', lambda m: '"' + " " * (len(m.group(0)) - 2) + '"'[: len(m.group(0)) - 1], text)
    for m in _FIELD_RE.finditer(outside):
        if m.group(1).lower() in ("tag", "tags") and text[m.end()] != "(":
            for start, end, _ in _tag_values(text, outside, m.end(), m.end() + 1, key, one=True):
                return text[start:end].strip('"')
    return key


@lru_cache(maxsize=1)
def _tags_parser() -> qparser.QueryParser:
    from readinglist.index.schema import make_schema

    return make_parser(make_schema())


@lru_cache(maxsize=256)  # asked for the list chosen at each keystroke of the caption, and for every list's count
def _required_tags(text: str) -> tuple[str, ...]:
    try:
        q = parse(_tags_parser(), text)
    except QueryError:
        return ()
    found: list[str] = []

    def walk(node: query.Query) -> None:
        if type(node) in (query.Term, ExactTerm) and node.field() == "tags":  # not a FuzzyTerm (a Term too)
            found.append(node.text if isinstance(node.text, str) else node.text.decode())
        elif isinstance(node, query.And):
            for child in node.subqueries:
                walk(child)
        elif isinstance(node, query.AndNot | query.AndMaybe | query.Require):
            walk(node.a)
            if isinstance(node, query.Require):
                walk(node.b)

    walk(q)
    return tuple(dict.fromkeys(found))
