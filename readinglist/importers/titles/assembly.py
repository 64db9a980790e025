"""The title put together: the introduced name and what the abstract says it is, else the contribution's
key phrase (with the opening's topic: "<method> for <topic>"), the best by how likely its words are to be
title words; the opening words only when nothing else is found."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise

from readinglist.acronyms import long_form
from readinglist.importers.titles.abstract import Abstract, expected_f1, norm
from readinglist.importers.titles.lexicon import (
    ARTICLE_LIKE,
    EMPTY_HEADS,
    EPONYMS,
    MAKERS,
    NAMING,
    NOT_SUBJECTS,
    OF_HEADS,
    SMALL_WORDS,
    SUBJECT_MODIFIER_TAILS,
    TERM_ADVERBS,
    THING,
    WE_REPORT,
)
from readinglist.importers.titles.names import Name, find_name, long_end, long_forms, mentions
from readinglist.importers.titles.phrases import (
    MODIFIER,
    Piece,
    chains,
    good_end,
    noun_phrase,
    span,
    trim,
)
from readinglist.importers.titles.tagging import Sentence, is_name, lexical_tag, tag
from readinglist.markup import to_plain

MAX_TITLE = 90
# The abstract's subject acronym (LLMs, GANs, MDPs): real titles name the field or model a paper works in
# inside their noun phrase ("Training GANs with optimism"), and a reader scans for it. Taken when the abstract
# uses it SUBJECT_USES times at least (NAMED_SUBJECT_USES beside an introduced name, which is what the title is
# about). Tuned on the development set: requiring it in the opening or the contribution sentence as well lost
# 1.7 points of inclusion there and gained nothing in F1.
SUBJECT_USES = 2
NAMED_SUBJECT_USES = 3
# a word with a capital after its first letter, from the word's start (a cheap first test; is_name decides),
# with a short lower-case or numeric head joined by a hyphen: "t-SNE", "k-NN", "non-IID" (not "SNE", "NN",
# "IID"); a longer head is a modifier of its own ("meta-RL" counts for RL)
_NAME_WORD = re.compile(
    r"(?<![A-Za-z0-9])(?:(?<![A-Za-z0-9-])[a-z0-9]{1,3}-)?"
    r"(?:[A-Za-z][a-z0-9]*[A-Z][A-Za-z0-9]*|[A-Z](?=-[A-Za-z0-9]))(?:-[A-Za-z0-9]+)*"
)


def _modifier_form(word: str) -> bool:
    """Is the word a name with a modifier's tail: "NP-hard", "LLM-based", "G-invariant", "D-dimensional"?"""
    head, dash, tail = word.rpartition("-")
    if not dash or not head or not tail.islower():
        return False
    return tail in SUBJECT_MODIFIER_TAILS or lexical_tag(tail, False) in ("J", "Ved")


def _plural_key(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 2 else word


def subject_acronym(ab: Abstract, skip: str = "") -> tuple[str, str] | None:
    """The acronym the abstract uses most, in the form it uses most, and its long form ("" if it gives
    none), if it is the abstract's subject (see SUBJECT_USES); never the introduced name `skip` or a part
    of it, one of lexicon.NOT_SUBJECTS (venues, data sets), or a word with a digit (CIFAR-10)."""
    counts: Counter[str] = Counter()
    forms: dict[str, Counter[str]] = {}
    for w in _NAME_WORD.findall(ab.text):
        if not is_name(w) or w in NOT_SUBJECTS or (skip and (skip in w or w in skip)) or _modifier_form(w):
            continue
        if w.startswith("sqrt"):
            continue  # a formula's root as plain text gives it ("sqrtL" for √L)
        key = _plural_key(w)
        counts[key] += 1
        forms.setdefault(key, Counter())[w] += 1
    if not counts:
        return None
    # of two used as often, the one a contribution sentence has ("SGD" over "GD")
    key = max(counts, key=lambda k: (counts[k], norm(k) in ab.contribution))
    n = counts[key]
    acr = forms[key].most_common(1)[0][0]
    if any(ch.isdigit() for ch in acr) or n < (NAMED_SUBJECT_USES if skip else SUBJECT_USES):
        return None
    long = _long_of(ab.tagged(), forms[key], ab.text)
    if not long:  # defined in a sentence not read yet ("… as keypoint (KP) candidates")
        brackets = [f"({w})" for w in forms[key]]
        defining = [si for si, (_, raw) in enumerate(ab.raw) if any(b in raw for b in brackets)]
        long = _long_of([ab.toks(si) for si in defining if not ab.is_tagged(si)], forms[key], ab.text)
    return acr, long


def _long_of(sentences: list[Sentence], forms: Counter[str], text: str) -> str:
    """The long form these sentences give an acronym of these forms, "" if none."""
    long = ""
    for s in sentences:
        for i, start in long_forms(s).items():
            if s.words[i] in forms:
                long = text[s.starts[start] : s.end(long_end(s, i))]
    return long


def _spelt(body: str, acr: str, long: str) -> bool:
    """Does the body hold the acronym's long form, or words whose initials spell it?"""
    if long and long.lower() in body.lower():
        return True
    letters = [ch.lower() for ch in acr if ch.isupper()]
    words = re.findall(r"[A-Za-z][A-Za-z\-]*", body)
    n = len(letters)
    if n < 2:
        return False
    tries = [[w[0].lower() for w in words]]
    if n >= 3:  # "… mixtures of all trees" for MoAT: the small words spell nothing (two letters match by chance)
        tries.append([w[0].lower() for w in words if w.lower() not in SMALL_WORDS])
    return any(inits[i : i + n] == letters for inits in tries for i in range(len(inits) - n + 1))


def _beside_long_form(body: str, acr: str, long: str, budget: int) -> str:
    """The acronym in brackets after its long form in the body ("Sparse principal component analysis (PCA)"),
    as real titles name it, when it is a plain acronym (not a CamelCase name); see _bracketed_after. Words
    that spell it without being its long form: beside_initials, three letters or more ("Lossy population"
    is no "LP")."""
    at = body.lower().find(long.lower())
    if at < 0 or not _plain_letters(acr):
        return body
    return _bracketed_after(body, at + len(long), acr, budget)


def _plain_letters(acr: str) -> str:
    """A plain acronym's capitals, its plural's "s" dropped ("CNNs" → "CNN"); "" for a CamelCase name or one
    with digits, which no words' initials spell."""
    letters = acr[:-1] if acr.endswith("s") else acr
    return letters if letters.isupper() and letters.isalpha() else ""


def beside_initials(body: str, acr: str, budget: int, named: bool) -> str:
    """The acronym in brackets after the words of the body whose initials spell it, each word's, when it has
    three letters or more ("Steerable convolutional neural networks (CNNs)", "Sparse principal component
    analysis (PCA)"): two letters are too often a chance. `acr` is the form the abstract uses most: a plural
    one stands after words in the plural, else its singular ("fluid dynamics (CFD)", "time series (MTS)")."""
    letters = _plain_letters(acr)
    if len(letters) < 3:
        return body
    words = list(re.finditer(r"[A-Za-z][A-Za-z\-]*", body))
    n = len(letters)
    for i in range(len(words) - n + 1):
        run = words[i : i + n]
        if "".join(m.group(0)[0] for m in run).upper() != letters:
            continue
        if any(body[a.end() : b.start()] != " " for a, b in pairwise(run)):
            continue  # the words stand apart ("… networks, and …")
        if any(m.group(0).lower() in SMALL_WORDS for m in run):
            continue  # "for streaming label learning" is not FSLL
        end = run[-1].end()
        if named and all(w[:1].isupper() or w in SMALL_WORDS for w in body[:end].split()):
            return body  # inside a name's expansion ("WNSMN: Weakly Supervised Neuro-Symbolic Module Network")
        if "(" in body[end:] or body[end : end + 2].strip()[:1].isupper():
            return body  # an acronym in brackets follows already ("… algorithms (Async-MSGD)"), or the words go on
            # as a title-case name ("Predictive State Recurrent Neural Networks")
        last = run[-1].group(0)
        plural = acr.endswith("s") and last.endswith("s") and not last.endswith(("ss", "is", "us", "ics"))
        return _bracketed_after(body, end, acr if plural else letters, budget)
    return body


_HYPHENED = re.compile(r"(?<![\w-])([A-Za-z][a-z]{2,})-([A-Za-z][a-z]{2,})(?![\w-])")


def beside_hyphened(body: str, acr: str, budget: int) -> str:
    """A two-letter acronym beside the one hyphened word whose halves spell it ("Expectation-Maximization
    (EM) algorithm"), or in its place where the bracket leaves no room ("… the EM algorithm …"): a title
    names EM as the abstract does, and one word spelling it is no chance, as two words' initials are."""
    letters = _plain_letters(acr)
    if len(letters) != 2:
        return body
    for m in _HYPHENED.finditer(body):
        if (m.group(1)[0] + m.group(2)[0]).upper() == letters:
            if len(body) + len(acr) + 3 > budget:
                return body[: m.start()] + acr + body[m.end() :]
            return _bracketed_after(body, m.end(), acr, budget)
    return body


def _bracketed_after(body: str, end: int, acr: str, budget: int) -> str:
    """The body with " (ACR)" after the words ending at `end`, room allowing, when they end a word outside
    brackets with no bracket after them already; else the body as it is."""
    if len(body) + len(acr) + 3 > budget:
        return body
    if body[end : end + 2] == " (" or body[end : end + 1] in ("-", "'") or body[end : end + 1].isalnum():
        return body  # bracketed already, or inside a word ("random feature|s")
    if body.count("(", 0, end) != body.count(")", 0, end):
        return body
    return f"{body[:end]} ({acr}){body[end:]}"


# "Method for X", "Framework for X": real titles seldom open on the generic head ("X", or "<name>: X")
_GENERIC_FOR = re.compile(
    r"(?:method|framework|algorithm|approach|technique|scheme|procedure|strategy)s? for (?=\S+ \S)", re.IGNORECASE
)


# "Technique called graph fission", "Introduced methodology called deep bucket elimination": what it is called
_GENERIC_CALLED = re.compile(
    r"(?:[\w-]+ ){0,3}?(?:method|methodology|framework|algorithm|approach|technique|scheme|procedure|strategy|model"
    r"|network|concept|protocol|class|family|notion|measure|tool)s? (?:"
    + "|".join(sorted(NAMING - {"referred"}))
    + r") (?!entit|by |for |to |in |on |with |as |from )(?=\S+ \S)",  # not "… named entity recognizer", "… called by"
    re.IGNORECASE,
)


def _strip_generic(body: str) -> str:
    """The body without an opening "method for" or "technique called" (when two words or more follow)."""
    m = _GENERIC_FOR.match(body)
    if m:
        return body[m.end() :]
    m = _GENERIC_CALLED.match(body)
    if m and SMALL_WORDS.isdisjoint(m.group(0).lower().split()[:-2]):  # not "Performance of a protocol called …"
        return body[m.end() :]
    return body


def _with_subject(ab: Abstract, body: str, budget: int, skip: str = "") -> str:
    """The body "in <subject acronym>" ("for" after an introduced name, or where the body has an "in") when
    it names neither the acronym nor its long form, room allowing ("Principle of equivariance to symmetry
    transformations in CNNs")."""
    found = subject_acronym(ab, skip)
    if found is None:
        return body
    acr, long = found
    key = _plural_key(acr)
    if long and " " not in long and "-" not in long and long.islower() and len(key) < 3:
        return body  # "keypoint (KP)": the abstract's shorthand for a word, not a field a reader knows it by
    if mentions(body, acr) or mentions(body, key) or mentions(body, key + "s"):
        return body
    if "-" in acr and acr.replace("-", " ").lower() in body.lower():
        return body  # "PAC learning" names "PAC-learning"
    if re.search(rf"(?<![\w-]){re.escape(key)}s?-\w", body):
        return body  # "PCA-like algorithms" names PCA
    if long and long.lower() in body.lower():
        return _beside_long_form(body, acr, long, budget)
    if _spelt(body, acr, long):
        return beside_initials(body, acr, budget, bool(skip))
    if (hyphened := beside_hyphened(body, acr, budget)) != body:
        return hyphened
    first, second = ("for", "in") if skip else ("in", "for")  # a named method is for something
    prep = first if f" {first} " not in body else second if f" {second} " not in body else ""
    if not prep or len(body) + len(acr) + len(prep) + 2 > budget:
        return body
    # spelt out where it fits, as a title does ("… in natural language processing (NLP)"; the real titles' words
    # came closer: content-word F1 up 0.004 on development, validation and held-out papers, session 25)
    spelt = f"{_lower_first(long)} ({acr})"
    doubled = spelt.lower().startswith((f"{prep} ", f"{prep}-"))  # not "in in-context learning (ICL)"
    if long and " " in long and not doubled and len(body) + len(spelt) + len(prep) + 2 <= budget:
        return f"{body} {prep} {spelt}"
    return f"{body} {prep} {acr}"


@dataclass(eq=False)
class Candidate:
    pieces: list[Piece]
    weight: float
    score: float = 0.0
    keys: dict[str, float] = field(default_factory=dict)  # its content words (light stems) and their worth
    named: bool = False  # what the abstract says the introduced name is (its long form, its description)
    sub: bool = False  # a phrase inside a contribution sentence, not its object

    @property
    def text(self) -> str:
        return " ".join(p.text for p in self.pieces)


def _carries_a_name(p: Piece) -> int:
    """2 when the piece holds a long form with its acronym ("offline reinforcement learning (RL)"), 1 when
    it holds an acronym or CamelCase name otherwise, 0 when neither (worked out once a piece)."""
    if p.name >= 0:
        return p.name
    out = 0
    tags, words = p.sent.tags, p.sent.words
    for i in p.idx:
        if tags[i] == "M" and is_name(words[i]):
            if i and tags[i - 1] == "(":
                out = 2
                break
            out = 1
    p.name = out
    return out


def _scored(ab: Abstract, cands: list[Candidate]) -> list[Candidate]:
    for c in cands:
        pieces = c.pieces
        named = 0
        for p in pieces:
            if p.keys is None:
                p.keys = ab.keys(p.sent, p.idx)
            if named < 2:
                n = _carries_a_name(p)
                if n > named:
                    named = n
        keys = pieces[0].keys or {}
        if len(pieces) > 1:
            keys = dict(keys)
            for p in pieces[1:]:
                for k, w in (p.keys or {}).items():
                    if k not in keys:
                        keys[k] = w
        c.keys = keys
        c.score = expected_f1(list(keys.values())) * c.weight * NAMED_PHRASE_WEIGHT[named]
        if any(_piece_refers(p) for p in pieces):
            c.score *= REFERRING_WEIGHT
    return cands


# A phrase that points back into the abstract ("addressing these challenges", "solving this problem") says
# nothing read alone, as a title is: it counts REFERRING_WEIGHT as much. On the development set F1 stays
# 0.4186-0.4188 for any weight from 1 to 0.1; 0.7 drops most such titles, lower ones pick worse phrases.
REFERRING_WEIGHT = 0.7
_REFERRING = re.compile(r"\b(?:this|these|those|such(?! as)|its|their)\b", re.IGNORECASE)


def _refers(text: str) -> bool:
    return _REFERRING.search(text) is not None


def _piece_refers(p: Piece) -> int:
    if p.refers < 0:
        p.refers = int(_refers(p.text))
    return p.refers


# How much a phrase's place counts beside its words (tuned on the development set): a contribution sentence's
# object ("we propose X"), a study's ("we study X"), a passive's subject ("X is proposed"), the opening's
# phrases (each later one OPENING_DECAY less), and what the abstract says an introduced name is.
ROLE_WEIGHT = {"intro": 0.8, "study": 0.76, "passive": 1.0, "opening": 0.85, "we": 0.7}
OPENING_DECAY = 0.935
NAME_WEIGHT = {"long": 1.625, "long and description": 1.2, "description": 0.92}
# A phrase that holds a name counts more: a term the abstract abbreviates ("offline reinforcement learning
# (RL)") is one it keeps using, and a title names the model or field it works on ("… in GANs"); index 0:
# neither, 1: an acronym or CamelCase name, 2: a long form with its acronym (tuned on the development set)
NAMED_PHRASE_WEIGHT = (1.0, 1.2, 1.3)
# The opening's phrases count FIELD_WEIGHT less when the abstract states a contribution elsewhere: the opening
# names the field, a title the contribution ("where nothing is named, the key noun phrase of the contribution",
# issue 19); its phrases still join a contribution's as "<contribution> for <field>" (_combined).
FIELD_WEIGHT = 0.9
# Beside a contribution sentence's object, the first INNER_PHRASES noun phrases after the longest chain from
# it (each a chain of at most INNER_PARTS parts), of the first contribution sentence only: "we propose a …
# framework that constructs preference data for hallucination mitigation" is about hallucination mitigation.
INNER_PHRASES = 3
INNER_PARTS = 3


def contribution(ab: Abstract, budget: int) -> list[Candidate]:
    """Noun-phrase chains from the contribution sentences: their object, or a passive's subject."""
    contrib: list[Candidate] = []
    inner = True
    for si in ab.cues:
        s = ab.toks(si)
        cue = ab.cue.get(si)
        if cue is None:
            continue
        strength, j, passive = cue
        if passive:
            start = next((k for k, tg in enumerate(s.tags) if tg in MODIFIER or tg == "D"), 0)
            role = "passive"
        else:
            role = "intro" if strength == 3 else "study"
            start = j
        found = chains(ab, si, start, budget)
        contrib += [Candidate(p, ROLE_WEIGHT[role]) for p in found]
        if inner and not passive:  # the phrases of the first contribution sentence after its object's chains
            inner = False
            last = found[-1][-1].idx if found else []  # the longest chain's last piece (its words in order)
            after = last[-1] if last else start + 1
            for k in _phrase_starts(s, after + 1, INNER_PHRASES):
                contrib += [Candidate(p, ROLE_WEIGHT[role], sub=True) for p in chains(ab, si, k, budget, INNER_PARTS)]
    if not contrib:
        contrib = _we_do(ab, budget)
    return _scored(ab, [c for c in contrib if _contentful(c)])


_AFTER_EMPTY = frozenset(("of", "for", "on", "about", "in", "to", "into", "between", "behind"))
_LEADING = "the a an this these that those such its their our aforementioned two three several many various new novel"
_ARTICLE = re.compile(r"(?:(?:" + "|".join(_LEADING.split()) + r") )+", re.IGNORECASE)


def _contentful(c: Candidate) -> bool:
    """Keep a contribution phrase that says what the contribution is about: one whose head says nothing of
    it ("two cases", "an affirmative answer", "theory") gives way to what follows its preposition ("… for
    drawing causal inferences" → "drawing causal inferences"), or is dropped when nothing follows."""
    first = c.pieces[0]
    if not first.idx or norm(first.sent.lows[first.idx[-1]]) not in EMPTY_HEADS:
        return True
    if len(c.pieces) < 2:
        return False
    nxt = c.pieces[1]
    lead, _, rest = nxt.text.partition(" ")
    if lead not in _AFTER_EMPTY or not rest:
        return False
    m = _ARTICLE.match(rest)
    rest = rest[m.end() :] if m else rest
    if not rest or (norm(rest.split(" ", 1)[0]) in EMPTY_HEADS and " " not in rest):
        return False
    c.pieces = [Piece(rest, nxt.sent, nxt.idx), *c.pieces[2:]]
    return True


_WE_DO = re.compile(r"(?:^|[,;:] )[Ww]e ([a-z]+ly )?([a-z][a-z-]+) ")


def _we_do(ab: Abstract, budget: int) -> list[Candidate]:
    """Chains from the object of the first sentence in which "we" do something a contribution is made of,
    when no cue states one: "We advance the state-of-the-art in diffusion models for tabular data with a
    cascaded approach", "we instead model long-horizon planning as …"."""
    for si, (_, raw) in enumerate(ab.raw):
        for m in _WE_DO.finditer(raw):
            verb = m.group(2)
            if verb in WE_REPORT or verb in ARTICLE_LIKE:
                continue
            s = ab.toks(si)
            at = next((k for k, st in enumerate(s.starts) if st - ab.raw[si][0] == m.start(2)), -1)
            if at < 0 or at + 1 >= len(s):
                continue
            out = [Candidate(p, ROLE_WEIGHT["we"]) for p in chains(ab, si, at + 1, budget)]
            if out:
                return out
    return []


def topic(ab: Abstract, budget: int) -> list[Candidate]:
    """Noun-phrase chains from the opening sentence: the topic ("In deep learning, …", "We study the …")."""
    out: list[Candidate] = []
    if len(ab):
        weight = ROLE_WEIGHT["opening"]
        for start in _phrase_starts(ab.toks(0), 0, 4):
            out += [Candidate(p, weight) for p in chains(ab, 0, start, budget)]
            weight *= OPENING_DECAY
    return _scored(ab, out)


def _phrase_starts(s: Sentence, k: int, limit: int) -> list[int]:
    """Where the first `limit` noun phrases of a sentence from word k on begin."""
    out: list[int] = []
    tags = s.tags
    longs = {start: acr + 2 for acr, start in long_forms(s).items() if acr + 1 < len(tags) and tags[acr + 1] == ")"}
    while k < len(tags) and len(out) < limit:
        end = longs.get(k, k) if longs else k
        if end > k:
            out.append(k)
            k = end
            continue
        if tags[k] in ("D", "Q", "J", "N", "M") or (tags[k] == "X" and s.lows[k] in TERM_ADVERBS):
            end = noun_phrase(s, k)
            if end > k:
                out.append(k)
                k = end
                continue
        k += 1
    return out


def _start(c: Candidate) -> int:
    """Where the candidate's first word stands in the abstract (0 when it carries none)."""
    return next((p.sent.starts[p.idx[0]] for p in c.pieces if p.idx), 0)


def _combined(ab: Abstract, heads: list[Candidate], tails: list[Candidate], budget: int) -> list[Candidate]:
    """ "<method> for <topic>": a contribution phrase and the opening's topic, when they say different things."""
    out: list[Candidate] = []
    second = ab.raw[1][0] if len(ab) > 1 else len(ab.text)  # where the opening sentence ends
    ranked = sorted(heads, key=lambda c: -c.score)
    top = ranked[:3]
    inside = sum(h.sub for h in top)
    if inside:  # phrases inside a contribution sentence leave room for the sentences' objects too
        top += [h for h in ranked[3:] if not h.sub][: min(1, inside)]
    ends = [(t, _start(t), any(p.idx for p in t.pieces), "for " + _tail_text(t), _carried(t))
            for t in sorted(tails, key=lambda c: -c.score)[:3] if not _second_conjunct(t)]  # fmt: skip
    for h in top:
        if any(p.text.split(" ", 1)[0] == "for" for p in h.pieces):
            continue
        h_start, h_len = _start(h), len(h.text)
        for t, t_start, carries, t_text, (sent, idx) in ends:
            if h_start < second and carries and t_start > h_start:
                continue  # the rest of the head's own sentence is not its topic
            if not h.keys.keys().isdisjoint(t.keys) or h_len + len(t_text) + 1 > budget:
                continue
            if len(h.pieces) == 1 and h.pieces[0].text.lower() in OF_HEADS:
                t_text = "of" + t_text[3:]  # "Characterization of sparse phase retrieval", not "… for …"
            out.append(Candidate([*h.pieces, Piece(t_text, sent, idx, t.keys)], min(h.weight, t.weight)))
    return _scored(ab, out)


def _second_conjunct(c: Candidate) -> bool:
    """Does the chain start at the second of "X and Y into Z" and go on past it? What follows belongs to both
    ("… LLMs and multimodal LLMs into peer-review workflows" is not about "multimodal LLMs into …")."""
    first = c.pieces[0]
    at = first.idx[0] if first.idx else 0
    return len(c.pieces) > 1 and at > 0 and first.sent.lows[at - 1] in ("and", "or")


def _carried(c: Candidate) -> tuple[Sentence, list[int]]:
    """The words a candidate carries, as one piece's (its pieces all come from one sentence)."""
    return c.pieces[0].sent, [i for p in c.pieces for i in p.idx]


def _tail_text(c: Candidate) -> str:
    """A topic as the end of a title: its acronym alone when it is a long form that does not read as a noun
    phrase ("… for FTRL", not "… for follow the regularized leader (FTRL)")."""
    p = c.pieces[0]
    if len(c.pieces) == 1 and p.idx and p.sent.tags[p.idx[0]] not in MODIFIER and p.sent.tags[p.idx[0]] != "D":
        acr = p.idx[-1] - 1
        if acr > 0 and long_forms(p.sent).get(acr) == p.idx[0]:
            return p.sent.words[acr]
    return _lower_first(c.text)


def _lower_first(text: str) -> str:
    first = text.split(" ", 1)[0]
    if is_name(first) or (len(first) > 1 and first[1:2].isupper()) or _keeps_capital(first):
        return text
    return text[:1].lower() + text[1:]


def _keeps_capital(word: str) -> bool:
    """A person's or a place's name, which a sentence-case title still writes with a capital: Markov,
    Gaussian, Euclidean, Nyström."""
    bare = word.strip(",;:()").removesuffix("'s").removesuffix("’s")  # "Nesterov's"
    return bare in EPONYMS or bare in MAKERS or not bare.isascii()


def _lowered(word: str) -> str:
    """A title-case word in lower case, each part of a hyphenated one on its own ("Mixture-of-Experts" →
    "mixture-of-experts", "Q-Learning" → "Q-learning"); names, acronyms and eponyms as they are."""
    parts = word.split("-")
    out = []
    for part in parts:
        if len(part) > 1 and part[0].isupper() and part[1:].islower() and not _keeps_capital(part):
            part = part.lower()
        out.append(part)
    return "-".join(out)


_BRACKETED = re.compile(r" \(([^()\s]+)\)")


def _sentence_case(body: str, named: bool = False) -> str:
    """A long form the abstract writes in title case, lowered inside a sentence-case title ("… for federated
    learning (FL)", not "… for federated Learning (FL)"). Its words are found back from the bracket by
    acronyms.long_form (Schwartz and Hearst's rule, as the index reads definitions); one that opens the body
    stays as written, as a name's expansion does ("acRNN: Auto-conditioned Recurrent Neural Network"; after a
    name, `named`, the whole title-case run up to the bracket: "PRAE: Probabilistic Robust AutoEncoder (RAE)"),
    and so does one whose words do not spell the acronym, or a maker's product ("Stanford Question Answering
    Dataset (SQuAD)")."""
    words = body.split(" ")
    at, ends = 0, {}
    for i, w in enumerate(words):  # the word each bracket follows
        ends[at + len(w)] = i
        at += len(w) + 1
    for m in _BRACKETED.finditer(body):
        acr, k = m.group(1), ends.get(m.start())
        if k is None or not is_name(acr):
            continue
        if named and all(w[:1].isupper() for w in words[: k + 1]):
            continue  # a title-case run opening what a name is: its expansion ("PRAE: Probabilistic Robust AE")
        n = long_form(acr, words[: k + 1])
        if n and k + 1 - n > 0 and words[k + 1 - n] not in MAKERS:
            for j in range(k + 1 - n, k + 1):
                words[j] = _lowered(words[j])
    return " ".join(words)


# a letter the source sets apart to show how a name is spelt: "**S**parse … **V**ideo", "\\textbf{S}parse"
_SPELLING_LETTER = re.compile(r"(?:\*\*|\\textbf\{|<b>|<strong>)([A-Z])(?:\*\*|\}|</b>|</strong>)([a-z]+)")


def _unspelt(body: str, raw: str) -> str:
    """The words whose capital only spells the name ("**S**parse", "**V**ideo") in lower case inside the
    body: the capital is the abstract's typography, not the word's."""
    if "**" not in raw and "\\textbf" not in raw and "<" not in raw:
        return body
    spelling = {m.group(1) + m.group(2) for m in _SPELLING_LETTER.finditer(raw)}
    if not spelling:
        return body
    words = body.split(" ")
    lower = [not w[:1].isupper() for w in words]
    lower[0] = words[0] not in spelling  # the first word's capital is its place's, unless the source spelt it too
    for i in range(1, len(words)):
        alone = lower[i - 1] and (i + 1 == len(words) or lower[i + 1])  # not inside a title-case run
        if alone and words[i] in spelling and not _keeps_capital(words[i]):
            words[i] = words[i].lower()
    return " ".join(words)


def _capitalise(text: str) -> str:
    """The first letter in capitals, unless that lengthens it (a ligature: "ﬁnding" → "FInding") or the first
    word is a name written with a small first letter ("k-NN", "t-SNE", "mRNA", "xLSTM"), which a title keeps."""
    if text[:1].islower() and (text[1:2].isupper() or (text[1:2] == "-" and text[2:3].isupper())):
        return text  # one small letter before the capitals (not "quasi-Newton", "prox-SMD", "type-II")
    first = text[:1].upper()
    return first + text[1:] if len(first) == 1 else text


def _long_piece(text: str) -> Piece:
    s = tag(text)
    return Piece(text, s, list(range(len(s))))


def _name_bodies(ab: Abstract, name: Name, budget: int) -> list[Candidate]:
    """What the name is: its long form, the phrase after it (", a … for …"), or the phrase before it."""
    s = ab.toks(name.sentence)
    out = []
    if name.long:
        out.append(Candidate([_long_piece(name.long)], NAME_WEIGHT["long"], named=True))
    before = _phrase_before(ab, s, name.before, budget)
    if before is not None:
        out.append(Candidate([before], NAME_WEIGHT["description"], named=True))
    j = name.after
    if j < len(s) and s.tags[j] == ",":
        j += 1
    if j < len(s) and s.lows[j] != "who":
        for p in chains(ab, name.sentence, j, budget):
            head = " ".join(x.text for x in p)
            if name.long and " " not in head and j == name.after:
                # "… (NESTT) algorithm": the long form's head noun, not a description ("…, algorithm")
                long = _long_piece(f"{name.long} {head}")
                out.append(Candidate([long], NAME_WEIGHT["long and description"], named=True))
                continue
            out.append(Candidate(p, NAME_WEIGHT["description"], named=True))
            if name.long and len(name.long) + len(" ".join(x.text for x in p)) + 2 <= budget:
                long = _long_piece(name.long)
                pieces = [Piece(name.long + ",", long.sent, long.idx), *p]
                out.append(Candidate(pieces, NAME_WEIGHT["long and description"], named=True))
    return _scored(ab, out)


def _phrase_before(ab: Abstract, s: Sentence, i: int, budget: int) -> Piece | None:
    """The noun phrase a name ends, when its head is what the name names: "we propose a fast and low
    complexity anchor-free instance segmentation approach BlitzMask" → "fast and low complexity anchor-free
    instance segmentation approach"."""
    tags, lows = s.tags, s.lows
    if i < 2 or lows[i - 1] not in THING or tags[i - 1] != "N":
        return None
    k = i - 1
    while k > 0 and (tags[k - 1] in MODIFIER or (lows[k - 1] == "and" and k >= 2 and tags[k - 2] == "J")):
        k -= 1
    k = trim(s, k, i)
    if i - k < 2 or ab.text.find(" ", s.starts[k]) < 0:
        return None
    piece = span(ab, s, k, i)
    return piece if len(piece.text) <= budget else None


def _best(cands: list[Candidate]) -> Candidate | None:
    return max(cands, key=lambda c: c.score) if cands else None


def derive_title(abstract_raw: str, plain: str | None = None) -> str:
    """A display title for a paper that has none (see the package doc). `plain` is the abstract's plain text
    when the caller has it already (the importer does)."""
    text = to_plain(abstract_raw) if plain is None else plain
    ab = Abstract.read(text)
    if not len(ab):
        return "Untitled"
    name = find_name(ab)
    budget = MAX_TITLE - (len(name.text) + 2 if name else 0)
    named = _name_bodies(ab, name, budget) if name is not None else []
    if name is not None and named:  # what the abstract says the name is first; the others only when it says nothing
        opening = topic(ab, budget)
        bodies = named + _combined(ab, named, opening, budget)
        if " " not in name.text and all(_refers(b.text) for b in bodies):  # "…named KIVI that addresses these
            bodies += opening  # challenges": the opening's topic (a name of several words is a title alone)
    else:
        contrib = contribution(ab, budget)
        opening = topic(ab, budget)
        combined = _combined(ab, contrib, opening, budget)
        if contrib and ab.cue.get(0) is None:
            for c in opening:
                c.score *= FIELD_WEIGHT
        bodies = contrib + opening + combined
    if name is not None:
        clean, head = [], name.text.split(" ", 1)[0]  # "OLMo 2": nor "… for OLMo"
        for b in bodies:
            t = b.text.replace(f" ({name.text})", "")
            lowered = mentions(t.casefold(), name.text.casefold())  # "… for bonsai": a combined phrase lowers it
            if (not lowered and not mentions(t, head) and t != name.long) or b.named:
                clean.append((b, t))
        clean = [(b, t) for b, t in clean if len(t) <= budget]
        # a body that points back into the abstract only if nothing else says what the name is, and then
        # not after a name of several words, a title of its own ("Kernel Implicit Variational Inference")
        best = max(clean, key=lambda bt: (not _refers(bt[1]), bt[0].score), default=None)
        if best is None or (" " in name.text and _refers(best[1])):
            return name.text
        body = _with_subject(ab, _with_acronyms(ab, _strip_generic(best[1]), budget, name.text), budget, name.text)
        if body.count('"') % 2:  # a quote the name's phrase closes ("… “Variational Mixture of Posteriors” prior")
            body = " ".join(body.replace('"', " ").split())
        head = name.text  # a name of words opens the title with a capital ("power EM" → "Power EM")
        lead = head.split(" ", 1)[0]
        head = _capitalise(head) if " " in head and lead.isalpha() and lead.islower() else head
        return f"{head}: {_capitalise(_unspelt(_sentence_case(body, named=True), abstract_raw))}"
    best_body = _best(bodies)
    if best_body is None:
        return _fallback(ab)
    body = _with_subject(ab, _with_acronyms(ab, _strip_generic(best_body.text), budget), budget)
    return _capitalise(_sentence_case(body))


def _with_acronyms(ab: Abstract, body: str, budget: int, skip: str = "") -> str:
    """A long form the abstract abbreviates gets its acronym beside it, room allowing: the acronym is what
    a reader scans for ("Markov decision processes (MDPs)")."""
    for s in ab.tagged():  # the opening and the contribution: where what a title says is defined
        for acr, start in long_forms(s).items():
            name = s.words[acr]
            if name == skip or mentions(body, name):
                continue
            long = ab.text[s.starts[start] : s.end(long_end(s, acr))]
            at = body.lower().find(long.lower())
            end = at + len(long)
            if at < 0 or (at > 0 and (body[at - 1].isalnum() or body[at - 1] == "-")) or body[end : end + 2] == " (":
                continue  # inside a longer word ("low-rank …" for "rank …"), or an acronym in brackets already
            if " " in long and len(body) + len(name) + 3 <= budget and not body[end : end + 1].isalnum():
                body = f"{body[:end]} ({name}){body[end:]}"
    return body


def _fallback(ab: Abstract) -> str:
    """The opening words, brackets left out, up to the last noun that fits."""
    s = ab.toks(0)
    kept, depth = [], 0
    for i, tg in enumerate(s.tags):
        depth += (tg == "(") - (tg == ")")
        if depth == 0 and tg not in ("(", ")"):
            kept.append(i)
        depth = max(depth, 0)
    fit, length = [], 0
    for i in kept:
        length += len(s.words[i]) + 1
        if length > MAX_TITLE:
            break
        fit.append(i)
    words = Sentence([s.words[i] for i in fit], [s.lows[i] for i in fit], [s.tags[i] for i in fit], [0] * len(fit))
    j = good_end(words, 0, len(fit))
    if not j:
        return "Untitled"
    out = " ".join(words.words[:j])
    return _capitalise(re.sub(r" ([,;:.!?])", r"\1", out))


def make_unique(titles: list[str], taken: set[str]) -> list[str]:
    """Suffix " (2)", " (3)" … so that no two titles of a source are the same (case-insensitively)."""
    keys = {t.casefold() for t in taken}
    return unique_among(titles, lambda wanted: wanted & keys)


SUFFIXES_ASKED = 32  # a taken title's next suffixes asked about at once


def unique_among(titles: list[str], taken_of: Callable[[set[str]], set[str]]) -> list[str]:
    """make_unique against titles known only by asking: `taken_of(keys)` says which of these casefolded
    titles are taken (the store answers for a chunk of an import, which so never holds a source's titles)."""
    asked = {t.casefold() for t in titles}
    seen = set(taken_of(asked))
    out = []
    for title in titles:
        candidate, n = title, 2
        while candidate.casefold() in seen:
            if f"{title} ({n})".casefold() not in asked:
                more = {f"{title} ({k})".casefold() for k in range(n, n + SUFFIXES_ASKED)} - asked
                seen |= taken_of(more)
                asked |= more
            candidate, n = f"{title} ({n})", n + 1
        seen.add(candidate.casefold())
        out.append(candidate)
    return out
