"""Titles for papers that came without one (the bundled corpus has abstracts only).

A reader scanning a list recognises a paper by what it contributes: its method's name when the abstract
introduces one ("we propose X", "X, a …", "called X", "Long Form (ACR)"), never a tool it merely uses, and
then what that is or does. So the abstract is read as a tagged word sequence (a small lexicon of function
words, academic verbs and suffix rules: a part-of-speech guess good enough to find noun phrases and where
clauses begin); noun phrases are taken from the sentence that states the contribution (and, for the topic,
from the opening sentence), compressed at phrase boundaries, and scored by how likely their words are to be
title words (repeated in the abstract, not generic abstract-speak). A title never ends on a function word or
a bare modifier, is never cut inside a phrase, and keeps to MAX_TITLE characters.

Offline and deterministic: no model, no data beyond the lexicon below.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from readinglist.markup import to_plain

MAX_TITLE = 90

# ---- the lexicon ----------------------------------------------------------------------------------------


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


DETERMINERS = _words(
    """a an the this these those each every some any all both no its their our his her my your such another
    either neither whose"""
)
QUANTIFIERS = _words("many several various few more most much other same certain numerous multiple")
PREPOSITIONS = _words(
    """of in on for with to from by via under over between among amongst across through into onto against
    without within towards toward about beyond upon per at as than like after before during around along
    despite except inside near throughout versus vs unlike amid beneath behind alongside above below"""
)
# prepositions that may join the parts of a title ("X for Y", "X via Y"); the others end a phrase
TITLE_PREPOSITIONS = _words(
    "of in on for with via under from to through by against without across between over beyond towards into"
)
CONJUNCTIONS = _words(
    """and or but nor yet so while whereas although though because since if unless when whenever where which
    who whom that whether thus hence therefore however moreover furthermore namely then i.e e.g etc how why
    what"""
)
PRONOUNS = _words("we it they i you he she us them itself themselves ourselves one ones")
AUXILIARIES = _words(
    """is are was were be been being am has have had having do does did can cannot could may might must shall
    should will would"""
)
ADVERBS = _words(
    """also not very often then further here well still even only always never usually already now just
    rather quite almost instead up out down together thereby therein whereby first second third finally less
    recently typically generally particularly especially significantly substantially largely widely highly
    mainly simply directly jointly explicitly implicitly efficiently effectively respectively consistently
    previously currently notably surprisingly commonly fundamentally"""
)
_NOT_ADVERBS = _words(
    """family anomaly assembly supply reply monopoly butterfly italy poly belly rally ally holy ugly apply
    imply multiply comply rely fly july only early daily weekly monthly yearly hourly friendly costly likely
    unlikely"""
)
# Verbs of academic prose, base forms; their inflections are derived (_verb_forms).
_VERB_BASES = """
propose introduce present show demonstrate achieve outperform provide develop derive establish obtain prove
enable allow improve require consider investigate explore address leverage exploit yield remain become suffer
rely depend make take give find apply extend generalize generalise reduce capture incorporate integrate combine
employ utilize utilise formulate solve tackle exhibit reveal suggest indicate argue analyze analyse examine
evaluate compare identify surpass mitigate alleviate ensure guarantee characterize quantify predict generate
produce optimize minimize maximize encourage facilitate boost enhance exceed handle adapt assume define describe
discuss emerge fail involve lie maintain offer operate permit prevent receive recover satisfy specify succeed
tend treat unify validate verify achieve perform outline study design build create construct devise implement
explain illustrate highlight observe note report conduct explore extract infer recognize detect discover
interpret measure propose bound prove establish attain arise hinder limit lack need aim seek strive attempt
focus learn train use leads lead help contain consist comprise follow include introduce turn cast view
pose remain stay seem appear motivate inspire release open publish collect curate annotate benchmark reach
obtain inherit mimic emulate approximate estimate compute calculate simulate sample select choose decompose
transform map project embed encode decode align fuse distill distil prune compress accelerate speed scale
represent model control process update change increase decrease rank retrieve label classify cluster segment
track plan reason search query answer explain support match hold drive shape guide target address handle
pioneer advocate revisit rethink examine uncover complement augment equip endow enrich empower unlock bridge
close narrow overcome resolve circumvent avoid eliminate remove replace substitute outperform dominate achieve
deliver attain maintain preserve retain keep lose forget remember store predict forecast defend protect
attack steer personalize personalise regularize regularise stabilize stabilise calibrate quantize quantise
summarize summarise visualize visualise recommend diagnose synthesize synthesise reconstruct denoise
translate navigate manipulate grasp coordinate communicate cooperate collaborate negotiate schedule
allocate assign partition discretize parameterize parametrize factorize factor marginalize normalize
approximate accelerate parallelize distribute federate personalize exploit explore imitate reward penalize
"""
_VERBS = _words(_VERB_BASES)
# Base forms that are as often nouns in abstracts: a verb only where the context says so.
_NOUN_VERBS = _words(
    """study design use lead need focus model control process update change increase decrease rank label
    cluster segment track plan reason search query answer support match hold drive shape guide target benchmark
    sample map project embed scale release bound limit lack help turn view cast approach result work
    test estimate approximate attempt transform compute mimic report measure interest form function
    structure feature point order state set rate cost value weight score base layer network graph data method
    attack defense defence experiment evaluation analysis claim demand impact effect outline code"""
)
# -ing words that, after a noun or modifier, are nouns ("reinforcement learning"), not participles
_GERUND_NOUNS = _words(
    """learning training modeling modelling clustering embedding sampling planning reasoning computing processing
    matching ranking pruning boosting hashing tracking labeling labelling mining tuning fine-tuning
    pretraining pre-training forecasting filtering smoothing coding encoding decoding programming scheduling
    understanding answering captioning parsing tagging translation testing reconstruction recognition
    segmentation generation detection estimation inference optimization imaging sensing painting inpainting
    rendering editing prompting alignment unlearning grounding routing caching retrieval reading writing
    thinking acting control computing streaming serving finetuning distillation sharing scaling bagging
    stacking averaging weighting ensembling hashing shaping localization mapping navigation grasping
    manipulation walking driving flying dueling betting bidding pricing auctioning screening monitoring
    modeling design engineering building"""
)
# -ing participles that open a modifier clause after a noun: the phrase ends there
_PARTICIPLES = _words(
    """using leveraging exploiting including achieving yielding requiring involving allowing enabling combining
    making giving providing resulting leading showing having being containing considering following based
    incorporating integrating employing utilizing relying outperforming ranging spanning covering exhibiting
    suffering facing lacking comprising consisting capturing ensuring improving reducing increasing bringing
    taking producing generating"""
)
ADJECTIVES = _words(
    """novel new simple general efficient effective unified principled large small deep shallow high low fast
    slow robust sparse dense optimal suboptimal adaptive adversarial generative discriminative neural convex
    nonconvex non-convex linear nonlinear non-linear stochastic random bayesian gaussian visual multimodal
    multi-modal key main recent modern standard strong weak good better best poor real synthetic hard easy
    open closed wide narrow long short early late final first last global local latent hidden explicit
    implicit safe secure private fair unknown known hierarchical structured unstructured continuous discrete
    online offline approximate exact scalable interpretable explainable compositional causal semantic
    empirical theoretical practical broad specific generic diverse complex rich full partial single dual
    joint differentiable lightweight powerful accurate consistent tight prior posterior conditional
    unsupervised supervised self-supervised semi-supervised weakly-supervised"""
)
_ADJ_SUFFIXES = ("ous", "ive", "ic", "ical", "able", "ible", "ful", "less", "ary", "al", "ar", "ent", "ant")
_NOT_ADJ = _words(
    """proposal signal interval potential tutorial trial arrival removal individual material animal journal
    manual terminal retrieval approval survival rival principal criterial objective alternative representative
    derivative initiative perspective detective directive incentive narrative primitive logic music topic
    heuristic metric arithmetic rhetoric clinic epidemic mechanic variable table cable dictionary boundary
    summary library vocabulary adversary glossary secretary unless agent gradient component element segment
    moment document argument environment experiment statement treatment assessment improvement measurement
    requirement deployment development alignment management equipment government payment instrument student
    patient client participant constant variant descent ascent content event intent extent percent talent
    parent accent dataset grammar scholar solar pillar bar car calendar collar seminar sonar lidar radar
    dollar nectar sugar cellar star guitar molar polar regular bandit hospital capital total rental
    referral mammal cereal deal ideal meal seal goal coal tool pool school model level label channel kernel
    panel tunnel parcel vessel novel hotel pixel voxel tensor vector matrix ensemble baseline pipeline
    graphic graphics physic physics dynamic dynamics statistic statistics semantics robotics optic optics
    ethic ethics economic economics mechanics kinematics genomics proteomics analytic analytics agents"""
)
# Words of abstract-speak that titles seldom carry.
GENERIC = _words(
    """paper work approach method methods methodology result results performance experiment experiments
    experimental empirical empirically show shows demonstrate demonstrates propose proposed novel new
    existing state-of-the-art state art sota significantly significant substantially improvement improvements
    improve improves outperform outperforms baseline baselines competitive extensive extensively evaluation
    evaluations benchmark benchmarks various several different effectiveness efficiency superior promising
    previous prior recent recently current currently problem problems task tasks issue issues challenge
    challenges challenging key important crucial critical essential fundamental main major potential
    propose existing effective efficient achieve achieves well widely commonly often typically generally
    framework frameworks technique techniques scheme strategy strategies solution solutions idea ideas
    analysis study studies setting settings case cases way ways number numbers amount terms term order
    first also based use using used able ability simple simply general datasets dataset data real-world real
    world application applications model models state art however furthermore moreover thus therefore
    specifically particular particularly respectively even still set sets wide range variety large small
    strong high low better best good time times level levels aspect aspects extent fact lack need needs
    limited limitations limitation code available publicly github com http https www"""
)
_INTRO_VERBS = _words(
    """propose proposes introduce introduces present presents develop develops design designs build builds
    devise devises formulate formulates construct constructs create creates describe describes offer offers
    release releases contribute contributes establish establishes put puts pioneer pioneers advocate
    advocates derive derives provide provides proposing introducing presenting developing designing building
    devising constructing creating describing releasing"""
)
_STUDY_VERBS = _words(
    """study studies consider considers investigate investigates address addresses tackle tackles examine
    examines explore explores analyze analyzes analyse analyses focus focuses revisit revisits characterize
    characterizes rethink rethinks"""
)
_SHOW_VERBS = _words("show shows prove proves demonstrate demonstrates give gives obtain obtains")
_USE_VERBS = _words(
    """use uses using used apply applies applying applied employ employs employing employed leverage leverages
    leveraging leveraged adopt adopts adopting adopted utilize utilizes utilizing utilized exploit exploits
    exploiting exploited extend extends extending extended improve improves improving improved follow follows
    following followed via with than over like including include includes such compared against upon
    combine combines combining combined integrate integrates integrating integrated incorporate incorporates
    incorporating incorporated build"""
)
_NAMING = _words("called named dubbed termed coined nicknamed")
_TWO_WORD_PREPOSITIONS = {("due", "to"), ("such", "as"), ("based", "on"), ("according", "to"), ("rather", "than")}
_ABBREVIATIONS = ("e.g.", "i.e.", "et al.", "vs.", "cf.", "etc.", "Fig.", "Eq.", "resp.", "approx.", "w.r.t.")


def _verb_forms(base: str) -> list[str]:
    """propose → proposes, proposed, proposing (regular English; the exceptions do not matter here)."""
    if base.endswith("e") and not base.endswith(("ee", "ye", "oe")):
        return [base + "s", base + "d", base[:-1] + "ing"]
    if base.endswith("y") and base[-2:-1] not in "aeiou":
        return [base[:-1] + "ies", base[:-1] + "ied", base + "ing"]
    if base.endswith(("s", "sh", "ch", "x", "z")):
        return [base + "es", base + "ed", base + "ing"]
    return [base + "s", base + "ed", base + "ing"]


_IRREGULAR_PARTICIPLES = _words(
    "made taken given found shown built led held proven known written chosen drawn grown seen done become"
)
_NOT_PARTICIPLES = _words("speed seed need feed embed bed hundred shed breed")
_VERB_FORM: dict[str, str] = {}  # inflected form → its base
for _b in _VERBS:
    _VERB_FORM.setdefault(_b, _b)
    for _f in _verb_forms(_b):
        _VERB_FORM.setdefault(_f, _b)
_VERB_FORM.update({"made": "make", "took": "take", "taken": "take", "gave": "give", "given": "give"})
_VERB_FORM.update({"found": "find", "led": "lead", "held": "hold", "shown": "show", "built": "build"})
_VERB_FORM.update({"became": "become", "arose": "arise", "arisen": "arise", "lies": "lie", "lay": "lie"})

# ---- tokens and tags ------------------------------------------------------------------------------------
# Tags: D determiner, Q quantifier, P preposition, C conjunction or relative word, R pronoun, A auxiliary,
# T infinitive "to", V verb, X adverb, J adjective (or a participle as modifier), N noun (or gerund, number,
# name), M a method-like name (acronym, CamelCase), "," and "(" ")" and "." punctuation, O anything else.

_TOKEN = re.compile(r"[^\W_](?:[\w'’\-]*[^\W_])?(?:\.\d+)*|[(),;:.!?\[\]]|\S")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"“(\[]?[A-Z0-9])")


@dataclass(slots=True)
class Token:
    text: str
    start: int
    end: int
    low: str
    tag: str = "O"
    worth: float = -1.0  # how likely a title word (Abstract.worth), once asked


def is_name(word: str) -> bool:
    """An acronym or CamelCase name: BEXA, CapImagine, GANs, RWKV-7, Self-RedTeam, X-Teaming (not I, II)."""
    if "-" in word:
        parts = [w for w in word.split("-") if w]
        return len(parts) > 1 and any(is_name(w) or (len(w) == 1 and w.isupper()) for w in parts)
    caps = sum(ch.isupper() for ch in word)
    if caps >= 2:
        return not re.fullmatch(r"[IVX]+", word)
    return caps == 1 and re.search(r"[a-z][A-Z]", word) is not None


def split_sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) pairs; "e.g." and "et al." do not end a sentence."""
    out, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        before = text[max(0, m.start() - 8) : m.start()]
        if before.endswith(_ABBREVIATIONS) or re.search(r"\b[A-Z]\.$", before):
            continue
        out.append((start, text[start : m.start()]))
        start = m.end()
    out.append((start, text[start:]))
    return [(o, s) for o, s in out if s.strip()]


@lru_cache(maxsize=100_000)
def _lexical_tag(w: str, first: bool) -> str:
    """The tag a word has out of context (cached: abstracts share most of their words)."""
    low = w.lower()
    if not w[0].isalnum():
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
    if low in ADVERBS or (low.endswith("ly") and len(low) > 4 and low not in _NOT_ADVERBS):
        return "X"
    if low in _PARTICIPLES:
        return "Vg"
    if low in _VERB_FORM:
        if low.endswith("ing"):
            return "G"
        if low.endswith("ed") or low in _IRREGULAR_PARTICIPLES:
            return "Ved"
        return "Vn" if (low in _NOUN_VERBS or (_VERB_FORM[low] in _NOUN_VERBS and low.endswith("s"))) else "V"
    if low in ADJECTIVES:
        return "J"
    if low.endswith("ing") and len(low) > 5:
        return "G"
    if low in _IRREGULAR_PARTICIPLES or (low.endswith("ed") and len(low) > 4 and low not in _NOT_PARTICIPLES):
        return "Ved"
    if low in _NOT_ADJ:
        return "N"
    if low.endswith(_ADJ_SUFFIXES) and len(low) > 4 and not low.endswith(("ment", "ments")):
        return "J"
    return "N"


_CONTEXTUAL = frozenset(("T", "Ved", "G", "Vg", "Vn", "N"))  # tags the neighbours may change
_TWO_WORD_FIRST = frozenset(a for a, _ in _TWO_WORD_PREPOSITIONS)


@lru_cache(maxsize=100_000)
def _lexical(word: str, first: bool) -> tuple[str, str]:
    return word.lower(), _lexical_tag(word, first)


def tag(sentence: str, offset: int = 0) -> list[Token]:
    """The sentence's tokens, each with a part-of-speech guess (see the tags above)."""
    toks: list[Token] = []
    for m in _TOKEN.finditer(sentence):
        word = m.group(0)
        low, lexical = _lexical(word, not toks)
        toks.append(Token(word, m.start() + offset, m.end() + offset, low, lexical))
    n = len(toks)
    for i in range(n - 1):  # two-word prepositions
        if toks[i].low in _TWO_WORD_FIRST and (toks[i].low, toks[i + 1].low) in _TWO_WORD_PREPOSITIONS:
            toks[i].tag = toks[i + 1].tag = "P"
    for i, t in enumerate(toks):
        if t.tag not in _CONTEXTUAL:
            continue
        prev = toks[i - 1].tag if i else ""
        nxt = toks[i + 1].tag if i + 1 < n else ""
        nominal_next = nxt in ("N", "M", "J", "G", "Vn", "Ved")
        if t.tag == "T":
            t.tag = "T" if nxt in ("V", "Vn", "X") else "P"
        elif t.tag == "Ved":
            if prev in ("A", "R") or (prev in ("N", "M", ")") and not nominal_next):
                t.tag = "V"
            else:
                t.tag = "J" if nominal_next or prev in ("D", "Q", "J", "X", "P", "") else "V"
        elif t.tag == "G":
            if prev in ("A", "R"):
                t.tag = "V"
            elif t.low in _GERUND_NOUNS or prev in ("D", "Q", "J", "P", "T", "", ",", "C"):
                t.tag = "N"
            elif prev in ("N", "M") and nxt in ("D", "Q"):
                t.tag = "V"
            else:
                t.tag = "N"
        elif t.tag == "Vg":
            t.tag = "N" if prev in ("D", "J") else "V"
        elif t.tag == "Vn":
            after_subject = prev in ("N", "M", ")") and t.low.endswith("s") and nxt in ("D", "Q", "J", "X", "C", "R")
            t.tag = "V" if prev in ("R", "A", "T", "X") or after_subject else "N"
        elif t.tag == "N" and prev in ("N", "M") and nxt in ("D", "Q", "X", "R") and _verb_like_s(t.low):
            t.tag = "V"  # "text contradicts the evidence"
        elif (t.tag == "N" and prev == "N" and i >= 1 and _verb_like_s(toks[i - 1].low) and t.text.islower()
              and not t.low.endswith("s") and nxt in ("D", "Q", "J", "N", "X")):  # fmt: skip
            t.tag = "V"  # "attacks threaten federated learning": after a plural noun, a verb
    return toks


def _verb_like_s(low: str) -> bool:
    return low.endswith("s") and not low.endswith(("ss", "us", "is", "ics", "ous")) and len(low) > 3


# ---- phrases ----------------------------------------------------------------------------------------------

_NOMINAL = ("N", "M")
_MODIFIER = ("N", "M", "J")


def noun_phrase(toks: list[Token], i: int) -> int:
    """The end of the noun phrase starting at i (i itself when there is none): D? Q? (X? J | N | M)* N,
    a parenthesised name after its head kept with it ("networks (GANs)")."""
    j, n = i, len(toks)
    if j < n and toks[j].tag == "D":
        j += 1
    while j < n and toks[j].tag == "Q":
        j += 1
    last_head = -1
    while j < n:
        tg = toks[j].tag
        if tg in _MODIFIER:
            if tg == "M" or (tg == "N" and _head_like(toks[j].text)):
                last_head = j
            j += 1
        elif tg == "X" and j + 1 < n and toks[j + 1].tag == "J":
            j += 1
        elif tg == "," and toks[j - 1].tag == "J" and j + 1 < n and toks[j + 1].tag == "J":
            j += 1  # "a lightweight, differentiable stack"
        elif tg == "(" and last_head == j - 1:
            k = _paren_end(toks, j)
            if k < 0:
                break
            j = k
            last_head = j - 1
        else:
            break
    return last_head + 1 if last_head >= 0 else i


_CLOSING = {"(": ")", "[": "]"}


@lru_cache(maxsize=100_000)
def _head_like(word: str) -> bool:
    """A word that can end a noun phrase: not a bare number or a math symbol ("of 8", "in ℝ", "of Θ")."""
    return sum(ch.isascii() and ch.isalpha() for ch in word) >= 2


def _paren_end(toks: list[Token], j: int) -> int:
    """After a parenthesis that holds a short name ("(GANs)", "(Budgeted EXit Actor)"), else -1."""
    for k in range(j + 1, min(j + 9, len(toks))):
        if toks[k].tag == ")":
            if toks[k].text != _CLOSING.get(toks[j].text):
                return -1
            inner = toks[j + 1 : k]
            if inner and all(t.tag in ("N", "M", "J", ",") or t.low == "and" for t in inner):
                return k + 1
            return -1
        if toks[k].tag == "(":
            return -1
    return -1


def gerund(verb: str) -> str:
    """propose → proposing, run → running, study → studying (regular English, a few doubled consonants)."""
    low = verb.lower()
    if low.endswith("ie"):
        return verb[:-2] + "ying"
    if low.endswith("e") and not low.endswith(("ee", "ye", "oe")) and len(low) > 2:
        return verb[:-1] + "ing"
    if re.fullmatch(r"[^aeiou]*[aeiou][bdgklmnprt]", low) or low in _DOUBLING:
        return verb + verb[-1] + "ing"
    return verb + "ing"


_DOUBLING = _words("control transfer refer infer prefer compel propel excel")


@dataclass
class Piece:
    """One part of a title: its text and the abstract's tokens it carries."""

    text: str
    toks: list[Token]


def _span(ab: Abstract, toks: list[Token], i: int, j: int) -> Piece:
    return Piece(ab.text[toks[i].start : toks[j - 1].end], toks[i:j])


def _good_end(toks: list[Token], i: int, j: int) -> int:
    """Pull the end j back until the phrase ends on a noun (or a closed parenthesis after one), with no
    bracket left open."""
    depth, opened = 0, -1
    for k in range(i, j):
        if toks[k].tag == "(":
            depth, opened = depth + 1, k if depth == 0 else opened
        elif toks[k].tag == ")" and depth:
            depth -= 1
    if depth:
        j = opened
    while j > i:
        last = toks[j - 1]
        if last.tag == ")" and j - 2 > i and toks[j - 2].tag in _NOMINAL:
            return j
        # a participle whose object follows ("… for constructing the") does not end a phrase
        open_verb = last.low.endswith("ing") and last.low not in _GERUND_NOUNS and j < len(toks)
        open_verb = open_verb and toks[j].tag in ("D", "N", "J", "M")
        if (
            last.tag in _NOMINAL
            and (last.tag == "M" or _head_like(last.text))
            and last.low not in _ARTICLE_LIKE
            and last.low not in ADJECTIVES
            and not open_verb
        ):
            return j
        j -= 1
    return j


def _trim(toks: list[Token], i: int, j: int) -> int:
    """Skip what a title does not start with: determiners, quantifiers, "novel", "the problem of"."""
    while i < j:
        t = toks[i]
        if t.tag in ("D", "Q", "X") or t.low in _DROP_LEADING:
            i += 1
        elif t.low in _GENERIC_HEADS and i + 1 < j and toks[i + 1].low == "of":
            i += 2
        else:
            break
    return i


_GENERIC_HEADS = _words("problem task question challenge notion concept idea issue topic setting use")
_DROP_LEADING = _words(
    """novel new first simple straightforward principled practical powerful flexible versatile comprehensive
    systematic holistic rigorous thorough proposed existing"""
)


def verb_base(word: str) -> str:
    """aggregates → aggregate, studies → study, learned → learn (the lexicon's, else regular English)."""
    low = word.lower()
    base = _VERB_FORM.get(low)
    if base:
        return word[: len(base)] if word.lower().startswith(base) else base
    if low.endswith("ies") and len(low) > 4:
        return word[:-3] + "y"
    if low.endswith(("sses", "shes", "ches", "xes", "zes")):
        return word[:-2]
    if low.endswith("s") and not low.endswith("ss"):
        return word[:-1]
    return word


_PURPOSE_PARTICIPLES = _words("designed intended aimed used tailored built meant developed proposed trained")


def _verb_at(toks: list[Token], j: int) -> tuple[Token, int] | None:
    """A verb phrase a title can carry as "for VERB-ing …": "to learn X", "designed to learn X",
    "that (explicitly) learns X". Returns the verb and where its object starts."""
    n = len(toks)
    if j < n and toks[j].low in _PURPOSE_PARTICIPLES and j + 1 < n and toks[j + 1].tag == "T":
        j += 1
    if j < n and toks[j].tag == "T":
        j += 1
        while j < n and toks[j].tag == "X":
            j += 1
        if j < n and toks[j].tag == "V" and toks[j].low == verb_base(toks[j].low):
            return toks[j], j + 1
        return None
    if j < n and toks[j].low in ("that", "which"):
        j += 1
        while j < n and toks[j].tag == "X":
            j += 1
        if j < n and toks[j].tag == "V" and toks[j].low.endswith("s") and toks[j].low not in AUXILIARIES:
            return toks[j], j + 1
    return None


def _object_at(toks: list[Token], k0: int) -> tuple[int, int]:
    """Where a verb's object phrase starts and ends: right after it, or after a particle ("defend against")."""
    k = noun_phrase(toks, k0)
    if k == k0 and k0 < len(toks) and toks[k0].tag == "P" and toks[k0].low in TITLE_PREPOSITIONS:
        k = noun_phrase(toks, k0 + 1)
        if k > k0 + 1:
            return k0, _good_end(toks, k0 + 1, k)
        return k0, k0
    return k0, _good_end(toks, k0, k)


def chains(ab: Abstract, si: int, i: int, budget: int, max_parts: int = 5) -> list[list[Piece]]:
    """The phrase chains that start at token i of sentence si: a noun phrase (or "to VERB …" and "which
    VERBs …" as "VERB-ing …"), then prepositional phrases, "to VERB …" or "that VERBs …" (as "for VERB-ing
    …") and "and …": each place the chain may stop gives a candidate."""
    toks = ab.toks(si)
    n = len(toks)
    i = _trim(toks, i, n)
    out: list[list[Piece]] = []
    pieces: list[Piece] = []
    verb = _verb_at(toks, i) if i < n and toks[i].tag in ("T", "C") else None
    if verb is not None:  # "we propose to learn X", "NAME, which learns X"
        v, k0 = verb
        k0, k = _object_at(toks, k0)
        if k0 >= n or k <= k0 + (toks[k0].tag == "P"):
            return out
        first = Piece(gerund(verb_base(v.text)) + " " + _span(ab, toks, k0, k).text, [v, *toks[k0:k]])
    else:
        k = _good_end(toks, i, noun_phrase(toks, i))
        s = _trim(toks, i, k)
        if k <= s:
            return out
        first = _span(ab, toks, s, k)
    pieces.append(first)
    length = len(first.text)
    if length > budget:
        return out
    out.append(list(pieces))
    j = k
    while len(pieces) < max_parts and j < n:
        t = toks[j]
        verb = _verb_at(toks, j)
        if verb is not None:
            v, k0 = verb
            if k0 < n and toks[k0].tag == "P" and noun_phrase(toks, k0 + 1) > k0 + 1:
                lead = "for " + gerund(verb_base(v.text)) + " " + toks[k0].text  # "for defending against"
                k0 += 1
            else:
                lead = "for " + gerund(verb_base(v.text))
            carried = [v]
        elif (t.tag == "P" and t.low in TITLE_PREPOSITIONS) or t.low in ("and", "using", "to"):
            k0 = j + 1
            lead = t.text
            carried = []
        else:
            break
        k = _good_end(toks, k0, noun_phrase(toks, k0))
        if k <= k0:
            break
        piece = Piece(lead + " " + _span(ab, toks, k0, k).text, carried + toks[k0:k])
        if length + 1 + len(piece.text) > budget:
            break
        pieces.append(piece)
        length += 1 + len(piece.text)
        out.append(list(pieces))
        j = k
    return out


# ---- what a word is worth in a title --------------------------------------------------------------------


@lru_cache(maxsize=100_000)
def norm(word: str) -> str:
    """A light stem for counting: networks → network, studies → study (never shown)."""
    w = word.lower().strip("'’")
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is", "ics")):
        return w[:-1]
    return w


def _content(tok: Token) -> bool:
    return tok.tag in ("N", "M", "J", "V", "X") and tok.low not in _ARTICLE_LIKE and tok.text[0].isalnum()


_ARTICLE_LIKE = DETERMINERS | QUANTIFIERS | PREPOSITIONS | CONJUNCTIONS | PRONOUNS | AUXILIARIES
# How often a word of the abstract is a word of its title, by how often the abstract uses it (1 … 5+), with
# more when the opening or a contribution sentence has it: measured on 2,830 titled abstracts (NeurIPS 2017,
# ICML 2019, ICLR 2018, AISTATS 2024, COLM 2025), none of them in the benchmark's corpora.
_BY_COUNT = (0.05, 0.13, 0.23, 0.32, 0.42)
_WORD = re.compile(r"[^\W_](?:[\w'’\-]*[^\W_])?")
_CONTENT_TAGS = frozenset(("N", "M", "J", "V", "Vn", "Ved", "G", "Vg", "X"))
_CUE_WORDS = _INTRO_VERBS | _STUDY_VERBS | _NAMING | {"our", "call", "name", "dub", "term"}
_CUE_WORDS |= {"proposed", "introduced", "presented", "developed"}
_SPLIT = re.compile(r"[a-z]+").findall
# a contribution is stated by someone: "we propose", "this paper presents", "our method", "… is proposed"
_SUBJECT_WORDS = frozenset(("we", "our", "paper", "work", "study", "article", "here"))
_PASSIVE_CUES = frozenset(("proposed", "introduced", "presented", "developed"))
_BE = frozenset(("is", "are", "was", "were", "be"))


@lru_cache(maxsize=100_000)
def _count_key(word: str) -> str:
    """The key a content word is counted under ("" for a function word)."""
    if _lexical_tag(word, False) in _CONTENT_TAGS and word.lower() not in _ARTICLE_LIKE:
        return norm(word)
    return ""


class Abstract:
    """An abstract read once: its sentences (tagged when first needed: most are never looked at), how often
    each word recurs, and which sentences may state the contribution."""

    def __init__(self, plain: str):
        self.text = re.sub(r"\s+", " ", plain).strip()
        self.raw = split_sentences(self.text) if self.text else []
        self._tagged: dict[int, list[Token]] = {}
        self.counts = Counter(map(_count_key, _WORD.findall(self.text)))
        del self.counts[""]
        # the sentences worth tagging: those that may state the contribution or bring in a name
        hinted = []
        for si, (_, s) in enumerate(self.raw):
            words = set(_SPLIT(s.lower()))
            active = not _CUE_WORDS.isdisjoint(words) and not _SUBJECT_WORDS.isdisjoint(words)
            passive = not _PASSIVE_CUES.isdisjoint(words) and not _BE.isdisjoint(words)
            if active or passive or not _NAMING.isdisjoint(words):
                hinted.append(si)
        self.cue: dict[int, tuple[int, int] | None] = {si: _contribution_cue(self.toks(si)) for si in hinted}
        self.cues = [si for si in hinted if self.cue[si] or _has_cue(self.toks(si))]
        self.first = self._words(0) if self.raw else set()
        self.contribution = {w for si in self.cues if self.cue[si] for w in self._words(si)}

    @classmethod
    def read(cls, plain: str) -> Abstract:
        return cls(plain)

    def __len__(self) -> int:
        return len(self.raw)

    def toks(self, si: int) -> list[Token]:
        if si not in self._tagged:
            offset, sentence = self.raw[si]
            self._tagged[si] = tag(sentence, offset)
        return self._tagged[si]

    def tagged(self) -> list[list[Token]]:
        return [self._tagged[si] for si in sorted(self._tagged)]

    def _words(self, si: int) -> set[str]:
        return {norm(t.text) for t in self.toks(si) if _content(t)}

    def before(self, si: int) -> str:
        """The text before sentence si."""
        return self.text[: self.raw[si][0]] if si < len(self.raw) else self.text

    def worth(self, tok: Token) -> float:
        """How likely this word is to be in the real title (a rough probability)."""
        k = norm(tok.text)
        if k in GENERIC or tok.low in GENERIC:
            return 0.04
        if tok.tag in ("X", "V"):
            return 0.03
        p = _BY_COUNT[min(self.counts.get(k, 1), 5) - 1]
        a, b = k in self.first, k in self.contribution
        p += 0.1 * a + 0.1 * b + 0.05 * (a and b)
        return p * 0.6 if tok.tag == "M" else p

    def worths(self, toks: list[Token]) -> list[float]:
        seen, out = set(), []
        for t in toks:
            if t.worth < 0:
                t.worth = self.worth(t) if _content(t) else 0.0
            if t.worth and (k := norm(t.text)) not in seen:
                seen.add(k)
                out.append(t.worth)
        return out


REAL_TITLE_WORDS = 6.5  # content words in a typical real title (the same 2,830 papers: 6.7)


def expected_f1(worths: list[float]) -> float:
    """F1 against a title of REAL_TITLE_WORDS words if each word is in it with its probability."""
    return 2 * sum(worths) / (len(worths) + REAL_TITLE_WORDS) if worths else 0.0


# ---- the method's name --------------------------------------------------------------------------------


@dataclass
class Name:
    text: str
    long: str  # its expansion, "" when the abstract gives none
    sentence: int
    after: int  # the token after the name (and its parenthesis): where a description may follow
    before: int  # the first token of the name (or of its long form)
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


def _long_form_before(toks: list[Token], paren: int, name: str) -> int:
    """The first token of the words before "(NAME)" that spell it, or -1."""
    s = paren
    while s > 0 and paren - s < 12 and toks[s - 1].tag not in (",", "(", ")", ".", "C", "V", "A", "R"):
        s -= 1
    words = [t.text for t in toks[s:paren]]
    n = long_form(name, words)
    if not n:
        return -1
    start = paren - n
    while start < paren and toks[start].tag in ("D", "Q", "P"):
        start += 1
    return start if start < paren else -1


_THING = _words(
    """model models network networks framework algorithm method approach architecture benchmark dataset system
    agent library toolkit suite loss attack defense estimator optimizer policy procedure pipeline
    autoencoder transformer module layer mechanism protocol language technique scheme strategy corpus"""
)


def _introduced(toks: list[Token], i: int) -> int:
    """How plainly the sentence introduces the phrase starting at token i: 3 for "we propose (a novel)? X",
    "called X", "our proposed X"; 2 for "… a new method for Y, X, which …"; 0 after "using", "with" …"""
    k, crossed = i - 1, False
    while k >= 0 and i - k <= 12:
        t = toks[k]
        if t.low in _NAMING or t.low in _INTRO_VERBS or t.low in ("call", "name", "dub", "term", "our"):
            return 3
        if t.low in _USE_VERBS and not crossed:
            return 0
        if t.tag == "," and k == i - 1:
            crossed = True  # "… a new method for MARL, QTRAN, which"
        elif t.tag == "P" and crossed and t.low in TITLE_PREPOSITIONS:
            pass
        elif t.tag not in ("D", "Q", "J", "N", "M", "X", "(", ")") or t.low in ("as", "is", "are"):
            return 0
        k -= 1
    return 0


def _long_forms(toks: list[Token]) -> dict[int, int]:
    """For each "(ACR)" whose long form precedes it: acronym token → the long form's first token."""
    out = {}
    for i in range(1, len(toks) - 1):
        if toks[i].tag == "M" and toks[i - 1].tag == "(" and toks[i + 1].tag == ")":
            s = _long_form_before(toks, i - 1, toks[i].text)
            if s >= 0:
                out[i] = s
    return out


def _has_cue(toks: list[Token]) -> bool:
    return any(t.low in _INTRO_VERBS or t.low in _NAMING or t.low == "our" for t in toks)


def _names_in(ab: Abstract, si: int) -> list[Name]:
    toks = ab.toks(si)
    longs = _long_forms(toks)
    covered = {k for acr, s in longs.items() for k in range(s, acr - 1)}
    calls = ("call", "name", "dub", "term")
    we_call = [k for k in range(1, len(toks)) if toks[k].low in calls and toks[k - 1].low == "we"]
    found = []
    for i, t in enumerate(toks):
        if i in covered:
            continue
        word = t.text
        prev = toks[i - 1].low if i else ""
        named = prev in _NAMING or (prev == "as" and i >= 2 and toks[i - 2].low in ("to", "it", "them"))
        named = named or any(0 < i - k <= 5 for k in we_call)  # "we call this new network X"
        # "we propose Holmes, a …": a capitalised word right after the verb, in apposition
        named = named or (prev in _INTRO_VERBS and i + 2 < len(toks) and toks[i + 1].tag == ","
                          and toks[i + 2].low in ("a", "an", "the"))  # fmt: skip
        if t.tag != "M" and not (named and word[0].isupper() and word[0].isalpha() and i > 0):
            continue
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if nxt is not None and nxt.tag in _NOMINAL and not named and nxt.low not in _THING:
            continue  # a modifier ("KV caching"), not the name of the thing
        start, end, long = i, i + 1, ""
        if i in longs:  # Long Form (ACR)
            start, end = longs[i], i + 2
            long = ab.text[toks[start].start : toks[i - 2].end]
        elif nxt is not None and nxt.tag == "(":  # NAME (Long Form)
            close = next((k for k in range(i + 2, min(i + 14, len(toks))) if toks[k].tag == ")"), -1)
            words = [x.text for x in toks[i + 2 : close]] if close > 0 else []
            head = word.split("-")[0]
            if words and (long_form(word, words) == len(words) or long_form(head, words) == len(words)):
                long = ab.text[toks[i + 2].start : toks[close - 1].end]
                end = close + 1
        strength = 3 if named else _introduced(toks, start)
        if strength and nxt is not None and nxt.tag in _NOMINAL:
            strength = 2  # "a novel MoE architecture, BlockFFN": the name after the comma is the one
        if not strength and end + 2 < len(toks) and toks[end].tag == "," and toks[end + 1].low in ("a", "an"):
            strength = 2 if start == 0 and _has_cue(toks) else 0  # "NAME, a new …"
        if strength:
            if long and " " not in long and is_name(long):  # "LongCodeBench (LCB)": the long one is the name
                word, long = long, ""
            found.append(Name(word, long, si, end, start, strength))
    return found


def _mentions(text: str, word: str) -> int:
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
    found = [n for si in ab.cues if _has_cue(ab.toks(si)) for n in _names_in(ab, si)]
    # a name the abstract used before it brought it in is background (a tool, the field), not the contribution
    found = [n for n in found if not _mentions(ab.before(n.sentence), n.text)]
    if not found:
        return None
    mentions = {n.text: _mentions(ab.text, n.text) for n in found}
    return max(found, key=lambda n: (n.strength, mentions[n.text], -n.sentence))


# ---- the contribution ---------------------------------------------------------------------------------


_CUE_VERBS = _INTRO_VERBS | _STUDY_VERBS | {"proposed", "introduced", "presented", "developed"}


def _contribution_cue(toks: list[Token]) -> tuple[int, int] | None:
    """(strength, index after the cue) for "we propose …", "this paper studies …", "… is proposed"."""
    best: tuple[int, int] | None = None
    for i, t in enumerate(toks):
        low = t.low
        if low not in _CUE_VERBS:
            continue
        subject = i >= 1 and (toks[i - 1].low in ("we", "paper", "work", "study", "article", "here")
                              or (i >= 2 and toks[i - 2].low == "we" and toks[i - 1].tag == "X"))  # fmt: skip
        strength = 0
        if low in _INTRO_VERBS and subject:
            strength = 3
        elif low in _STUDY_VERBS and subject:
            strength = 2
        elif low in ("proposed", "introduced", "presented", "developed") and i >= 1 and toks[i - 1].tag == "A":
            strength = 3
        if strength and (best is None or strength > best[0]):
            j = i + 1
            if j < len(toks) and toks[j].low == "on":  # focus on
                j += 1
            best = (strength, j)
    return best


@dataclass
class Candidate:
    pieces: list[Piece]
    weight: float
    score: float = 0.0

    @property
    def text(self) -> str:
        return " ".join(p.text for p in self.pieces)

    def tokens(self) -> list[Token]:
        return [t for p in self.pieces for t in p.toks]


def _scored(ab: Abstract, cands: list[Candidate]) -> list[Candidate]:
    for c in cands:
        c.score = expected_f1(ab.worths(c.tokens())) * c.weight
    return cands


ROLE_WEIGHT = {"intro": 1.0, "study": 0.95, "passive": 1.0, "opening": 0.85}


def topic_and_contribution(ab: Abstract, budget: int) -> tuple[list[Candidate], list[Candidate]]:
    """Noun-phrase chains from the contribution sentences (their object, or a passive's subject) and from
    the opening sentence (its subject: the topic)."""
    contrib: list[Candidate] = []
    for si in ab.cues:
        toks = ab.toks(si)
        cue = ab.cue.get(si)
        if cue is None:
            continue
        strength, j = cue
        if toks[j - 1].tag == "A" or toks[j - 1].low in ("proposed", "introduced", "presented", "developed"):
            subj = next((k for k, t in enumerate(toks) if t.tag in _MODIFIER or t.tag == "D"), 0)
            role = "passive"
            starts = [subj]
        else:
            role = "intro" if strength == 3 else "study"
            starts = [j]
        for s in starts:
            contrib += [Candidate(p, ROLE_WEIGHT[role]) for p in chains(ab, si, s, budget)]
    topic: list[Candidate] = []
    if len(ab):
        toks = ab.toks(0)
        weight = ROLE_WEIGHT["opening"]
        for s in _phrase_starts(toks)[:4]:  # "In deep learning, …", "We study the …"
            topic += [Candidate(p, weight) for p in chains(ab, 0, s, budget)]
            weight *= 0.85
    return _scored(ab, contrib), _scored(ab, topic)


def _phrase_starts(toks: list[Token]) -> list[int]:
    """Where the noun phrases of a sentence begin."""
    out, k = [], 0
    while k < len(toks):
        if toks[k].tag in ("D", "Q", "J", "N", "M"):
            end = noun_phrase(toks, k)
            if end > k:
                out.append(k)
                k = end
                continue
        k += 1
    return out


def _combined(ab: Abstract, heads: list[Candidate], tails: list[Candidate], budget: int) -> list[Candidate]:
    """ "<method> for <topic>": a contribution phrase and the opening's topic, when they say different things."""
    out = []
    second = ab.raw[1][0] if len(ab) > 1 else len(ab.text)  # where the opening sentence ends
    for h in sorted(heads, key=lambda c: -c.score)[:3]:
        h_start = h.tokens()[0].start if h.tokens() else 0
        hw = {norm(t.text) for t in h.tokens() if _content(t)}
        for t in sorted(tails, key=lambda c: -c.score)[:3]:
            if h_start < second and t.tokens() and t.tokens()[0].start > h_start:
                continue  # the rest of the head's own sentence is not its topic
            tw = {norm(x.text) for x in t.tokens() if _content(x)}
            if hw & tw or len(h.text) + len(t.text) + 5 > budget:
                continue
            if any(p.text.split(" ", 1)[0] == "for" for p in h.pieces):
                continue
            tail = Piece("for " + _lower_first(t.text), t.tokens())
            out.append(Candidate([*h.pieces, tail], min(h.weight, t.weight)))
    return _scored(ab, out)


def _lower_first(text: str) -> str:
    first = text.split(" ", 1)[0]
    if is_name(first) or (len(first) > 1 and first[1:2].isupper()):
        return text
    return text[:1].lower() + text[1:]


# ---- the title ------------------------------------------------------------------------------------------


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _name_bodies(ab: Abstract, name: Name, budget: int) -> list[Candidate]:
    """What the name is: its long form, the phrase after it (", a … for …"), or the phrase before it."""
    toks = ab.toks(name.sentence)
    out = []
    if name.long:
        out.append(Candidate([Piece(name.long, tag(name.long))], 1.3))
    j = name.after
    if j < len(toks) and toks[j].tag == ",":
        j += 1
    if j < len(toks) and toks[j].low != "who":
        for p in chains(ab, name.sentence, j, budget):
            out.append(Candidate(p, 1.15))
            if name.long and len(name.long) + len(" ".join(x.text for x in p)) + 2 <= budget:
                out.append(Candidate([Piece(name.long + ",", tag(name.long)), *p], 1.2))
    return _scored(ab, out)


def _best(cands: list[Candidate]) -> Candidate | None:
    return max(cands, key=lambda c: c.score) if cands else None


def derive_title(abstract_raw: str, plain: str | None = None) -> str:
    """A display title for a paper that has none (see the module doc). `plain` is the abstract's plain text
    when the caller has it already (the importer does)."""
    text = to_plain(abstract_raw) if plain is None else plain
    ab = Abstract.read(text)
    if not len(ab):
        return "Untitled"
    name = find_name(ab)
    budget = MAX_TITLE - (len(name.text) + 2 if name else 0)
    contrib, topic = topic_and_contribution(ab, budget)
    bodies = contrib + topic + _combined(ab, contrib, topic, budget)
    if name is not None:
        named = _name_bodies(ab, name, budget)
        # what the abstract says the name is comes first; the other phrases only when it says nothing
        bodies = named + _combined(ab, named, topic, budget) if named else bodies
        clean = []
        for b in bodies:
            t = b.text.replace(f" ({name.text})", "")
            if (not _mentions(t, name.text) and t != name.long) or b.weight > 1:
                clean.append((b, t))
        clean = [(b, t) for b, t in clean if len(t) <= budget]
        best = max(clean, key=lambda bt: bt[0].score, default=None)
        return f"{name.text}: {_capitalise(_with_acronyms(ab, best[1], budget, name.text))}" if best else name.text
    best_body = _best(bodies)
    return _capitalise(_with_acronyms(ab, best_body.text, budget)) if best_body else _fallback(ab)


def _with_acronyms(ab: Abstract, body: str, budget: int, skip: str = "") -> str:
    """A long form the abstract abbreviates gets its acronym beside it, room allowing: the acronym is what
    a reader scans for ("Markov decision processes (MDPs)")."""
    for toks in ab.tagged():  # the opening and the contribution: where what a title says is defined
        for acr, start in _long_forms(toks).items():
            name = toks[acr].text
            if name == skip or _mentions(body, name):
                continue
            long = ab.text[toks[start].start : toks[acr - 2].end]
            at = body.lower().find(long.lower())
            end = at + len(long)
            if at >= 0 and " " in long and len(body) + len(name) + 3 <= budget and not body[end : end + 1].isalnum():
                body = f"{body[:end]} ({name}){body[end:]}"
    return body


def _fallback(ab: Abstract) -> str:
    """The opening words, brackets left out, up to the last noun that fits."""
    toks, depth = [], 0
    for t in ab.toks(0):
        depth += (t.tag == "(") - (t.tag == ")")
        if depth == 0 and t.tag not in ("(", ")"):
            toks.append(t)
        depth = max(depth, 0)
    words, length = [], 0
    for t in toks:
        length += len(t.text) + 1
        if length > MAX_TITLE:
            break
        words.append(t)
    j = _good_end(words, 0, len(words))
    if not j:
        return "Untitled"
    out = " ".join(t.text for t in words[:j])
    return _capitalise(re.sub(r" ([,;:.!?])", r"\1", out))


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
