"""The name an abstract gives its contribution ("we propose X", "X, a …", "called X", "Long Form (ACR)"),
never a tool it merely uses: not a name used before it is brought in, nor one after "using", "with" …"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from readinglist.acronyms import long_form
from readinglist.importers.titles.abstract import Abstract, after_we, brought_in_passively, norm, result_at
from readinglist.importers.titles.lexicon import (
    COLLECTIVE,
    COMMON_NAMES,
    EARLIER_NAMED,
    EARLIER_WORK,
    ENUMERATING,
    FOLLOW_ON,
    FOLLOW_ON_NOUNS,
    INTRO_PAST,
    INTRO_VERBS,
    KNOWN,
    MODIFIER_TAILS,
    NAMING,
    NOT_SUBJECTS,
    PART_NOUNS,
    PLACEHOLDERS,
    SMALL_WORDS,
    THING,
    TITLE_PREPOSITIONS,
    USE_VERBS,
    WHOLE_WORDS,
)
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


def _long_form_before(s: Sentence, paren: int, name: str) -> int:
    """The first word of the words before "(NAME)" that spell it, or -1. A title-case long form may run
    over "and" and commas ("Strategic Planning, Interaction, and Negotiation (SPIN-Bench)"), and a comma may
    stand before the bracket ("ALignment via Fine-grained Attributes, (ALFA)")."""
    marked = _marked_capitals(s, paren, name)
    if marked:
        return paren - marked
    tags, words = s.tags, s.words
    k = paren
    while k > 0 and paren - k < 12:
        tg = tags[k - 1]
        if s.lows[k - 1] in ("and", "&", ","):
            j = k - 1
            while j > 0 and s.lows[j - 1] in ("and", "&", ","):
                j -= 1
            if j > 0 and words[j - 1][0].isupper():  # a title-case run goes on before "and" / ","
                k = j
                continue
        if tg in (",", "(", ")", ".", '"', "C", "V", "A", "R"):
            break
        k -= 1
    window = words[k:paren]
    n = long_form(name, window)
    head = name.split("-")[0]
    if not n and head != name and len(head) > 1:  # "SPIN-Bench": the acronym is its head
        n = long_form(head, window)
    initials = _initials_before(s, paren, name)
    if initials and not n:
        s.spelt.add(paren + 1)  # found by its initials only
        n = initials
    elif initials > n and _whole_run(words[paren - initials : paren]):
        n = initials  # a run the search cut short: "Support Regularized Sparse Coding (SRSC)"
    if not n:
        return -1
    start = paren - n
    while start - 1 > k and s.lows[start - 1] in ("and", "&", ","):
        j = start - 1
        while j > k and s.lows[j - 1] in ("and", "&", ","):
            j -= 1
        if j == k or not words[j - 1][0].isupper():
            break
        start = j - 1  # "Actively Discovering and Adapting to … (ADAPT)": the whole title-case run
        while start - 1 >= k and words[start - 1][0].isupper() and tags[start - 1] in ("N", "M", "J"):
            start -= 1
    while start < paren and tags[start] in ("D", "Q", "P", ","):
        start += 1
    return start if start < paren else -1


def _marked_capitals(s: Sentence, paren: int, name: str) -> int:
    """How many words before "(NAME)" hold its capitals and no others, in order, when the authors marked some
    inside a word to show where the name comes from: "Spatio-Temporal stAte compRession (STAR)", "Injected
    LanguagE Semantics (MILES)", "… Interactive Channel transformatiON (SEMICON)". Letter matching reads
    "stAte compRession" alone as STAR; the marks say the phrase runs from "Spatio"."""
    caps = [ch for ch in name if ch.isupper()]
    if len(caps) < 3:
        return 0
    words, tags = s.words, s.tags
    if not any(ch.isupper() for ch in words[paren - 1]):
        return 0  # "… ANalysis using instrumental variable (CLEAN)": the letters end before the bracket
    got: list[str] = []
    for m in range(1, min(paren, 16) + 1):
        w = words[paren - m]
        if tags[paren - m] in _PUNCTUATION_TAGS:
            return 0
        got = [ch for ch in w if ch.isupper()] + got
        if len(got) > len(caps):
            return 0
        if got == caps and w[0].isupper() and m > 1:
            run = words[paren - m : paren]
            inner = any(ch.isupper() and word[j - 1].islower() for word in run for j, ch in enumerate(word) if j)
            return m if inner else 0
    return 0


_NOT_FIRST = frozenset(("D", "P", "T", "C", "R", "A", "Q"))
_PUNCTUATION_TAGS = frozenset((",", "(", ")", ".", '"'))


def _initials_before(s: Sentence, paren: int, name: str) -> int:
    """How many words before "(NAME)" spell its capitals by their initials, when the run holds a verb, "to",
    "the" or a lower-case "and", which end the usual search: "Follow the regularized leader (FTRL)",
    "Learning to rank (LTR)", "attitude and heading reference system (AHRS)", "3D morphable model (3DMM)".
    Only exact initials (every word's, or every word's but the small ones'), from a word that may open a
    phrase: a sentence's verb and article are not taken for a long form by chance."""
    caps = "".join(ch.lower() for ch in name if ch.isupper() or ch.isdigit())
    n = len(caps)
    if n < 3:
        return 0
    tags, words, lows = s.tags, s.words, s.lows
    for m in range(n - 1, min(paren, 2 * n) + 1):
        k = paren - m
        if tags[k] in _PUNCTUATION_TAGS or not words[k][0].isalnum():
            return 0
        if tags[k] in _NOT_FIRST or lows[k] in SMALL_WORDS:
            continue
        every = "".join(map(_initial, words[k:paren]))
        content = "".join(_initial(w) for w in words[k:paren] if w.lower() not in SMALL_WORDS)
        if every == caps or content == caps:
            return m
    return 0


def _whole_run(words: list[str]) -> bool:
    """Do the words read as one term, every one spelling the name ("deep dependency networks") or in title
    case ("Support Regularized Sparse Coding"), not a phrase whose small words were passed over ("solution
    for semi-supervised learning")?"""
    content = [w for w in words if w.lower() not in SMALL_WORDS]
    return len(content) == len(words) or all(w[0].isupper() for w in content)


def _initial(word: str) -> str:
    """What a word gives an acronym: its first letter, or a leading number with its capitals ("3D")."""
    if word[0].isdigit():
        return "".join(ch.lower() for ch in word if ch.isdigit() or ch.isupper())
    return word[0].lower()


def long_end(s: Sentence, acr: int) -> int:
    """The last word of the long form before "(ACR)" (a comma before the bracket not counted)."""
    return acr - 3 if s.tags[acr - 2] == "," else acr - 2


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
    "we developed X", "called X", "our proposed X", "a family of X"; 2 for "… a new method for Y, X, which …";
    0 after "using", "with" … Quote marks around the name do not count."""
    tags, lows = s.tags, s.lows
    k, crossed = i - 1, False
    while k >= 0 and tags[k] == '"':
        k -= 1
    just_before = k
    while k >= 0 and i - k <= 12:
        low, tg = lows[k], tags[k]
        if low == "namely" and _namely_brings(lows, k):
            return 3  # "we propose a novel optical flow estimation framework, namely MFCFlow"
        if low in NAMING and not EARLIER_NAMED.isdisjoint(lows[max(k - 4, 0) : k]):
            return 0  # "we build upon a recently introduced methodology called Deep Bucket Elimination (DBE)"
        if low in NAMING or low in INTRO_VERBS or low in ("call", "name", "dub", "term", "our"):
            return 3
        if low in INTRO_PAST and (after_we(s, k) or (low == "proposed" and k >= 1 and lows[k - 1] == "the")):
            return 3  # "we developed X", "the proposed X"
        if low in USE_VERBS and not crossed:
            return 0
        if low == "as" and any(w in ("refer", "referred") for w in lows[max(k - 8, 0) : k]):
            return 3  # "a novel algorithm, referred to as … (ROOT-SGD)", "we refer to this as the MNL-Bandit",
            # "We refer to our model trained with LMCL as CosFace"
        if low == "as" and k >= 1 and lows[k - 1] in NAMING:
            return 3  # "The proposed network, termed as Locally Adaptive Fusion Networks (LAF-Net), …"
        if low == "as" and k == just_before and k >= 2 and lows[k - 1] == "known":
            k -= 2  # "we propose a novel … method known as … (TEAM)": what the phrase before it is brought in by
            continue
        if k == just_before and (tg == "," or (low in _DASHES and _one_thing(lows, k - 1))):
            crossed = True  # "… a new method for MARL, QTRAN, which", "a novel … parsing method – SEQZERO"
        elif tg == "," and k >= 2 and lows[k - 2] == "our" and norm(lows[k - 1]) in THING and lows[k + 1] == "the":
            return 3  # "Our method, the Bayesian Active Site Calculator (BASC), outperforms …"
        elif tg == "P" and crossed and low in TITLE_PREPOSITIONS:
            pass
        elif tg == "P" and low == "of" and k >= 1 and lows[k - 1] in COLLECTIVE:
            pass  # "we develop a family of group-aware prior (GAP) distributions"
        elif low == "and" and k >= 1 and tags[k - 1] == "J" and tags[k + 1] == "J":
            pass  # "we put forward a new and simple LazySVD framework": two modifiers of the name
        elif tg not in ("D", "Q", "J", "N", "M", "X", "(", ")", '"') or low in ("as", "is", "are"):
            return 0
        k -= 1
    return 0


def _a_result(s: Sentence, start: int, end: int) -> bool:
    """Is the name at `start` (its words ending before `end`) what a sentence's result brings in, as a method,
    model or the like: "…, leading to the sparse alternating least squares (SPALS) method", "…, resulting in
    a … chart reasoning model, BigCharts-R1", "This leads to “Critical-Layer, …, Collaborative Pathway
    Optimization (C3PO)”", "The resulting estimate for the Wasserstein posterior (WASP)"? Not a consequence
    ("this can lead to a high attack success rate (ASR)"), nor one of several ("leads to two algorithms: …")."""
    tags, lows = s.tags, s.lows
    k = start - 1
    quoted = k >= 0 and tags[k] == '"'
    while k >= 0 and tags[k] == '"':
        k -= 1
    apposed = k >= 1 and tags[k] == "," and _one_thing(lows, k - 1)  # "… model, BigCharts-R1"
    if apposed:
        k -= 1
    if k >= 3 and lows[k] in _ARTICLES and lows[k - 1] in ("of", "for") and lows[k - 3] == "resulting":
        return k - 4 >= 0 and lows[k - 4] == "the" and tags[k - 2] == "N"  # "the resulting estimate for the …"
    while k >= 0 and start - k <= 12 and not _ends_a_result(lows, k):
        if tags[k] not in ("D", "Q", "J", "N", "M", "X"):
            return False
        k -= 1
    if k < 0 or not _ends_a_result(lows, k):
        return False
    thing = end < len(lows) and norm(lows[end]) in THING and norm(lows[end]) == lows[end]
    return thing or apposed or quoted


def _ends_a_result(lows: list[str], k: int) -> bool:
    """Does word k end "leading to", "resulting in" or "the resulting"?"""
    return result_at(lows, k) == k + 1 or (k >= 1 and result_at(lows, k - 1) == k + 1)


def _one_thing(lows: list[str], k: int) -> bool:
    """Is word k one method, model or the like ("method", "system"), not a plural that lists several ("two new
    datasets – HSNS and …", "established benchmarks – DomainNet, …")?"""
    return k >= 0 and norm(lows[k]) in THING and norm(lows[k]) == lows[k]


def _or_alias(s: Sentence, j: int) -> bool:
    """Does "(or NAME)" open at word j: "the compact WY (or CWY) transform"?"""
    tags = s.tags
    return (
        j >= 0
        and j + 3 < len(tags)
        and tags[j] == "("
        and s.lows[j + 1] == "or"
        and tags[j + 2] == "M"
        and tags[j + 3] == ")"
    )


def _spelt_before_or(s: Sentence, i: int) -> int:
    """The first word of the long form NAME at i stands for after "or", or -1: "we propose a memory-efficient
    convolution or MEC with compact lowering"."""
    if i < 2 or s.lows[i - 1] != "or":
        return -1
    window = s.words[max(i - 9, 0) : i - 1]
    n = long_form(s.words[i], window)
    return i - 1 - n if n else -1


_CALLS = ("call", "name", "dub", "term")
_DASHES = frozenset(("-", "–", "—"))
_LATIN = re.compile("[A-Za-z]")
_NAMELY_AFTER = INTRO_VERBS | {"our"}  # "namely X" names what a contribution's clause brought in
_ARTICLES = ("a", "an", "the")
_THAT_IS = ["i", ".", "e", "."]  # "i.e.", as the tagger splits it


def _called(s: Sentence) -> dict[int, int]:
    """The words "we call …" names, first → past the last: the last capitalised or method-like word of the
    clause after it ("we call our new GBDT implementation with GOSS and EFB LightGBM"), with the title-case
    words before it ("we call these Online Matrix Games"); not one a lower-case word after it shows to be a
    modifier ("we call an Ising model tractable")."""
    tags, lows, words = s.tags, s.lows, s.words
    out = {}
    for k in range(1, len(tags)):
        if lows[k] in _CALLS and lows[k - 1] == "we":
            last, j = -1, k + 1
            at = k + 2 if k + 1 < len(tags) and lows[k + 1] in ("it", "them") else k + 1  # "we call it AdvGNN"
            quoted = _quoted_after(s, at)
            if quoted is not None:
                short = _for_short(
                    s, quoted[1]
                )  # "… “Variational Mixture of Posteriors” prior, or VampPrior for short"
                out.update({short: short + 1} if short >= 0 else {quoted[0]: quoted[1]})  # "… approach “power EM.”"
                continue
            for j in range(at, min(k + 13, len(tags))):
                if tags[j] in (",", ".", "(", "V", "R", "A", "T") or (tags[j] == "C" and lows[j] != "and"):
                    break  # the clause ends ("… that we call the minimalRNN and compare it with vanilla RNNs")
                if tags[j] == "M" or (words[j][0].isupper() and words[j][0].isalpha()):
                    last = j
            if last < 0 or (tags[last] != "M" and last + 1 < len(tags) and tags[last + 1] in ("N", "J")
                            and words[last + 1].islower()):  # fmt: skip
                continue
            first = last
            while first - 1 > k and _title_word(words[first - 1]) and tags[first - 1] != "M":
                first -= 1
            out[first] = last + 1
    return out


def _for_short(s: Sentence, j: int) -> int:
    """The name of ", or NAME for short" within a few words from word j, or -1."""
    lows = s.lows
    for k in range(j, min(j + 5, len(lows) - 4)):
        if lows[k] == "," and lows[k + 1] == "or" and lows[k + 3 : k + 5] == ["for", "short"]:
            return k + 2 if is_name(s.words[k + 2]) else -1
    return -1


def _quoted_after(s: Sentence, at: int) -> tuple[int, int] | None:
    """The words in quote marks that a clause from word `at` ("we call …") ends on, first → past the last,
    when they end on a name or a title-case word, the closing punctuation inside the quotes left out: "our
    bootstrapping approach “power EM.”", "“Convolutional Slice Generator”"; not a phrase ("“LLM control
    planes,”") nor a word in quotes ("“benign”")."""
    tags, words = s.tags, s.words
    j = at
    while j < len(tags) and j - at < 6 and tags[j] in ("D", "J", "N", "M", "X"):
        j += 1
    if j >= len(tags) or tags[j] != '"':
        return None
    close = next((k for k in range(j + 1, min(j + 9, len(tags))) if tags[k] == '"'), -1)
    last = close - 1
    while last > j and tags[last] in (".", ","):
        last -= 1
    if close < 0 or last <= j + 1 or any(tags[k] in ("V", "A", "R", "(", ")") for k in range(j + 1, last + 1)):
        return None
    if tags[last] != "M" and not _title_word(words[last]):
        return None
    return j + 1, last + 1


def _title_word(word: str) -> bool:
    """A plain word in title case ("Online", "Matrix", "Layer-level", "Information-Directed"), not an acronym
    or CamelCase name."""
    if len(word) < 2 or not word[0].isupper():
        return False
    return word[1:].replace("-", "").islower() or all(p[:1].isupper() and p[1:].islower() for p in word.split("-"))


def _title_run(s: Sentence, i: int) -> int:
    """Past the title-case words that follow a name brought in by "named"/"called" ("a new approach named
    Kernel Implicit Variational Inference that …"), when the run ends where the phrase does; else i + 1."""
    tags, words, n = s.tags, s.words, len(s.tags)
    j = i + 1
    while j < n and j - i < 6 and (_title_word(words[j]) or tags[j] == "M"):
        j += 1
    if j > i + 1 and (j == n or tags[j] in (",", "(", ")", ".", '"', "C", "V", "T") or words[j].islower()):
        return j
    return i + 1


def _namely_brings(lows: list[str], k: int, far: bool = False) -> bool:
    """Does "namely" at k follow a clause that brings something in ("we propose a … network, namely …"), not
    one about earlier work ("two well-known algorithms, namely …")? With `far`, a verb up to 18 words back
    counts (not "our", so often said): "we propose a novel top-down approach to generate road network graphs
    with a holistic model, namely TD-Road"."""
    before = lows[max(k - 12, 0) : k]
    further = lows[max(k - 18, 0) : max(k - 12, 0)] if far else []
    brings = bool(_NAMELY_AFTER.intersection(before)) or not INTRO_VERBS.isdisjoint(further)
    return brings and EARLIER_WORK.isdisjoint(before + further)


def _namely(ab: Abstract, s: Sentence, si: int, b: int, i: int) -> bool:
    """Does "namely" at b bring in the name at i as the contribution ("we propose a two-stage fully 3D
    network, namely DeepFuse, …"), in a sentence that states it, and not as the first of a list ("namely PC
    and FCI")?"""
    lows, tags = s.lows, s.tags
    if not _states(ab, si) or not _namely_brings(lows, b, far=True):
        return False
    j = i + 1
    return not (j + 1 < len(tags) and (lows[j] == "and" or (tags[j] == "," and tags[j + 1] == "M")))


def _denotes_a_thing(s: Sentence, b: int, i: int) -> bool:
    """Does "denoted" at b name a method, model or the like ("a transfer learning procedure, denoted
    NetTailor"), or the paper's own thing ("our resulting stopping rule, denoted PPR-1v1"), with a name of
    three letters or more and not the first of a list, rather than notation ("the Gram matrix, denoted by
    GW1")?"""
    lows = s.lows
    k = b - 1 if b >= 1 and s.tags[b - 1] != "," else b - 2
    if k < 0 or len(s.words[i]) < 3 or (i + 1 < len(lows) and lows[i + 1] == "and"):
        return False
    return norm(lows[k]) in THING or "our" in lows[max(b - 6, 0) : b]


def _heads_the_subject(s: Sentence, start: int) -> bool:
    """Does the phrase at `start` open its clause's subject, no preposition before it since the clause began
    ("In this paper, a novel … (PG-Net) is proposed"), so that it is what the clause brings in, not what
    that is of or for ("a new method for learning variational autoencoders (VAEs) is developed")?"""
    k = start - 1
    while k >= 0 and s.tags[k] != ",":
        if s.tags[k] == "P" and not (k + 1 < start and s.lows[k + 1] == "this"):  # "In this paper a … is"
            return False
        k -= 1
    return True


def _states(ab: Abstract, si: int) -> bool:
    """Does sentence si state the contribution plainly ("we propose …", "we introduce …")?"""
    cue = ab.cue.get(si)
    return cue is not None and cue[0] >= 3 and not cue[2]


def _bracketed(ab: Abstract, s: Sentence, si: int, i: int) -> bool:
    """Is the name at i, in brackets, what the thing before the bracket is called ("two explanation techniques
    (PatternNet and PatternAttribution)"), in a sentence stating the contribution? Not a list of examples
    ("existing machines (NTMs, NRAMs)"), nor an acronym of the words before (a long form: long_forms)."""
    lows, tags = s.lows, s.tags
    if i < 2 or norm(lows[i - 2]) not in THING or s.words[i] in NOT_SUBJECTS or not _states(ab, si):
        return False
    if not EARLIER_WORK.isdisjoint(lows[max(i - 6, 0) : i]):
        return False
    close = next((k for k in range(i + 1, min(i + 5, len(tags))) if tags[k] == ")"), -1)
    return close > 0 and all(tags[k] == "M" or lows[k] == "and" for k in range(i, close))


def _names_in(ab: Abstract, si: int) -> list[Name]:
    s = ab.toks(si)
    tags, lows, words = s.tags, s.lows, s.words
    n = len(tags)
    longs = long_forms(s)
    covered = {k for acr, start in longs.items() for k in range(start, acr - 1)}
    called = _called(s)
    aliases = set()  # where "(or CWY)" opens
    if "(or " in ab.raw[si][1]:
        aliases = {j - 1 for j, low in enumerate(lows) if low == "or" and _or_alias(s, j - 1)}
    found = []
    for i in range(n):
        if i in covered:
            continue
        word = words[i]
        if len(word) < 2 or not _LATIN.search(word if word.isascii() else unicodedata.normalize("NFKC", word)):
            continue  # "… denoted ℰ": a symbol, not a name (𝚄𝙲𝙱-𝙰𝚅𝙶 is UCB-AVG in mathematical letters)
        if word in PLACEHOLDERS or i + 1 in aliases:
            continue  # "(CITATION)", "[REF]": a citation the source left out; "WY (or CWY)": the alias names it
        if tags[i] != "M" and not (i > 0 and word[0].isupper() and word[0].isalpha()) and i not in called:
            continue  # a name is a method-like word, or a capitalised one the sentence names (below)
        b = i - 1  # the word before and the word after, quote marks skipped ("a ‘superword’ tokenizer")
        while b >= 0 and tags[b] == '"':
            b -= 1
        q = i + 1
        while q < n and tags[q] == '"' and b < i - 1:  # a quoted name: its closing quote too
            q += 1
        prev = lows[b] if b >= 0 else ""
        if prev == "," and b >= 6 and lows[b - 4 : b] == _THAT_IS and lows[b - 5] == "," and _one_thing(lows, b - 6):
            b, prev = b - 4, "namely"  # "a novel FL framework, i.e., FedDUAP, …", not "two metrics, i.e., …"
        if prev == "by" and b >= 1 and lows[b - 1] == "denoted":
            b, prev = b - 1, "denoted"  # "denoted by ReinforceNS" names it as "denoted ReinforceNS" does
        if prev == "denoted" and not _denotes_a_thing(s, b, i):
            continue  # "… rows of A and labels of B, denoted by SA and SB", "the Gram matrix, denoted by GW1"
        named = prev in NAMING or i in called
        naming = prev in NAMING or prev == "namely" or (prev == "as" and b >= 1 and lows[b - 1] in NAMING)
        run = called.get(i) or (_title_run(s, i) if naming and _title_word(word) else i + 1)
        if run > i + 1 and q == i + 1:  # a name of several title-case words ("we call these Online Matrix Games")
            word, q = ab.text[s.starts[i] : s.end(run - 1)], run
        # "we propose a two-stage fully 3D network, namely DeepFuse": a name, or title-case words, not one
        # plain word ("namely “Learning from a Learner”" is not "Learning")
        namely = prev == "namely" and (tags[i] == "M" or run > i + 1) and _namely(ab, s, si, b, i)
        named = named or (prev == "as" and b >= 1 and (lows[b - 1] in ("to", "it", "them") or lows[b - 1] in NAMING))
        # "we propose Holmes, a …": a capitalised word right after the verb, in apposition
        intro = prev in INTRO_VERBS or (prev in INTRO_PAST and after_we(s, b))
        # "we propose with SVARM-IQ a sampling-based approach": the name before what it is
        named = named or (prev == "with" and b >= 1 and lows[b - 1] in INTRO_VERBS and q < n and lows[q] in _ARTICLES)
        named = named or (intro and q + 1 < n and tags[q] == "," and lows[q + 1] in _ARTICLES)
        if tags[i] != "M" and not named and not namely:
            continue
        end = q
        if tags[i] == "M" and intro:  # "we introduce N-Gram Coverage Attack, a …": a title-case name
            j = q
            # "… N-Gram Coverage Attack, a …", "… MIST RNNs, a …": a run of capitalised words or names
            while j < n and j - i <= 3 and (tags[j] == "M" or (tags[j] == "N" and words[j][:1].isupper())
                                            or (tags[j] == "N" and words[j].isdigit())):  # fmt: skip
                j += 1
            if j > q and (j == n or tags[j] in (",", "(", ".")):
                word, end = ab.text[s.starts[i] : s.end(j - 1)], j
        nxt = tags[end] if end < n else ""
        if nxt in NOMINAL and not named and lows[end] not in THING and not words[end].isdigit():
            continue  # a modifier ("KV caching"), not the name of the thing (nor "RTRMC 1 and 2")
        start, long, based = i, "", False
        spelt = _spelt_before_or(s, i)
        if i - 2 in aliases and i >= 3:  # "the compact WY (or CWY) transform": brought in where WY stands
            start = i - 3
        elif spelt >= 0:  # "a memory-efficient convolution or MEC"
            start, long = spelt, ab.text[s.starts[spelt] : s.end(i - 3 if s.tags[i - 2] == "," else i - 2)]
        elif i in longs:  # Long Form (ACR)
            start, end = longs[i], i + 2
            if start and lows[start - 1] == "namely" and end < n and tags[end] in NOMINAL and words[end].islower():
                continue  # "namely fault-tolerant (FT) sparsification": a modifier
            k = end + 1 if end < n and words[end] == "-" else end
            # "a novel reinforcement learning (RL) based framework, namely AttExplainer": what the framework
            # is built on, a name only when the abstract has no other ("a Local Coordinate Coding (LCC) based
            # sampling method")
            based = k + 1 < n and lows[k] == "based" and tags[k + 1] in NOMINAL
            if i in s.spelt and words[start][0].islower():
                continue  # "simultaneous localization and mapping (SLAM)": a term, not a title-case name
            long = ab.text[s.starts[start] : s.end(long_end(s, i))]
        elif nxt == "(":  # NAME (Long Form)
            close = next((k for k in range(end + 1, min(end + 13, n)) if tags[k] == ")"), -1)
            inner = words[end + 1 : close] if close > 0 else []
            head = word.split("-")[0]
            if inner and (long_form(word, inner) == len(inner) or long_form(head, inner) == len(inner)):
                long = ab.text[s.starts[end + 1] : s.end(close - 1)]
                end = close + 1
        strength = 4 if i in called else 3 if named or namely else _introduced(s, start)
        if not strength and _a_result(s, start, end):
            strength = 3
        if not strength and brought_in_passively(s, end) and _heads_the_subject(s, start):
            strength = 3  # "a … Network (PG-Net) is proposed", not "A new form of variational autoencoder (VAE) is …"
        if strength and nxt in NOMINAL:
            strength = 2  # "a novel MoE architecture, BlockFFN": the name after the comma is the one
        if not strength and end + 2 < n and tags[end] == "," and lows[end + 1] in ("a", "an"):
            # "NAME, a new …" opening a sentence that brings something in; "…, NAME: a novel …" anywhere in one
            new = lows[end + 2] in ("new", "novel") or (end + 3 < n and lows[end + 3] in ("new", "novel"))
            # "… in SchNet: a novel deep learning architecture", "we propose … through the BasisVAE: a combination
            # of …", not a bracketed acronym ("frameworks that leverage conformal prediction (CP): a global …")
            colon = words[end] == ":" and (si in ab.defines or (si in ab.brings and i not in longs))
            strength = 2 if ((start == 0 or new) and si in ab.brings) or colon else 0
        if not strength and prev in ("new", "novel") and nxt == "N" and norm(lows[end]) in THING and si in ab.brings:
            strength = 2  # "… in the new Remix-UCB algorithm, …, that we introduce"
        if not strength and prev == "(" and b == i - 1 and i not in longs and _bracketed(ab, s, si, i):
            strength = 2  # "we propose … that yields two explanation techniques (PatternNet and PatternAttribution)"
        if strength and based:
            strength = 1
        if strength:
            if long and " " not in long and long[0].isupper() and is_name(long):
                word, long = long, ""  # "LongCodeBench (LCB)": the long one is the name
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


def _used_before(ab: Abstract, name: Name) -> bool:
    """Did the abstract use the name (or its singular: RNN for RNNs, or an acronym's plural: SSMs for SSM)
    before the sentence that brings it in? The plural is looked for after a capital only: that is the case
    measured (session 15); "ResNets" before a "ResNet" brought in is not caught."""
    before = ab.before(name.sentence)
    text = name.text
    return bool(
        mentions(before, text)
        or (text.endswith("s") and len(text) > 2 and mentions(before, text[:-1]))
        or (text[-1:].isupper() and mentions(before, text + "s"))
    )


def _modifier(name: str) -> bool:
    """ "GNN-based", "EM-like", "FLOP-free": a word made of a name that modifies what follows, never a name."""
    _, dash, tail = name.rpartition("-")
    return bool(dash) and tail in MODIFIER_TAILS


def common(name: str, long: str = "") -> bool:
    """Is the name one of the field's standard ones (CNN, GANs, MCMC), which no paper introduces as its own,
    in the sense it has there (a long form given for it starts as the standard one does)?"""
    first = COMMON_NAMES.get(name) or (COMMON_NAMES.get(name[:-1]) if name.endswith("s") else None)
    if first is None:
        return False
    return not long or long.split(" ", 1)[0].casefold() == first


def find_name(ab: Abstract) -> Name | None:
    """The method, model, benchmark or dataset the abstract introduces (see the module doc): the most plainly
    introduced, and of those the one the abstract names most often."""
    found = [n for si in ab.cues if si in ab.brings for n in _names_in(ab, si)]
    # a name the abstract used before it brought it in is background (a tool, the field), not the contribution
    found = [n for n in found if not _used_before(ab, n) and not common(n.text, n.long) and not _modifier(n.text)]
    # of two names, one built on the other (AdaGDA on GDA, BigCharts-R1 on BigCharts), the built one, unless
    # it is a follow-on brought in later ("We also propose an extension, SDF-Bayes-AR, …")
    found = [n for n in found if not any(n.text in m.text and n.text != m.text and not _follow_on(ab, n, m)
                                         for m in found)]  # fmt: skip
    if not found:
        return _named_after(ab) or _defined_subject(ab) or _named_by_repository(ab)
    # a name brought in on another ("With PackOp, we propose a new … detector, PackDet", "Based on our DDF,
    # we present a novel fast algorithm (FIRe)"): the later one, built with the first, unless a follow-on
    # ("Based on Weather2K, we further propose …")
    found = [n for n in found if not any(_built_with(ab, n, m) and not _follow_on(ab, n, m) for m in found)] or found
    counts = {n.text: mentions(ab.text, n.text) for n in found}
    first = min(n.sentence for n in found)
    best = max(
        found, key=lambda n: (n.strength, not _a_part(ab, n, first), _the_whole(ab, n), counts[n.text], -n.sentence)
    )
    if " " in best.text:  # a setting called in words ("a paradigm that we call Thresholding Graph Bandits"),
        # then a method brought in by its own name ("We present GrAPL, a novel algorithm for …"): the method
        coined = [n for n in found if n.strength >= 3 and " " not in n.text and not n.long
                  and not _abbreviates(n.text, best.text)]  # fmt: skip
        if coined:
            return max(coined, key=lambda n: (n.strength, counts[n.text], -n.sentence))
    return best


def _the_whole(ab: Abstract, name: Name) -> bool:
    """Is the name brought in as the whole the parts make ("the overall pipeline, dubbed SteinDreamer", "the
    resulting algorithm, called …")?"""
    lows = ab.toks(name.sentence).lows
    return not WHOLE_WORDS.isdisjoint(lows[max(name.before - 6, 0) : name.before])


def _a_part(ab: Abstract, name: Name, first: int) -> bool:
    """Is the name brought in as one part of the contribution: as a module, block or layer, or, after another
    name was brought in (`first`: the sentence of the earliest), in a sentence that opens by enumerating?"""
    lows = ab.toks(name.sentence).lows
    if name.sentence > first and lows and lows[0] in ENUMERATING:
        return True
    if name.long and name.long.split()[-1].lower() in PART_NOUNS:
        return True  # "Patch Smoothing Module (PSM)"
    if name.after < len(lows) and lows[name.after] in PART_NOUNS:
        return True  # "a Selective Mutual Evolution (SME) module"
    return not PART_NOUNS.isdisjoint(lows[max(name.before - 4, 0) : name.before])


def _built_with(ab: Abstract, base: Name, built: Name) -> bool:
    """Does the sentence that brings in `built` open with `base`, as what it is made with or based on ("With
    PackOp, …", "Based on our DDF, …")?"""
    if built.sentence <= base.sentence or base.text == built.text:
        return False
    s = ab.toks(built.sentence)
    lows = s.lows
    k = 1 if lows[:1] == ["with"] else 2 if lows[:2] == ["based", "on"] else 0
    if k and k < len(lows) and lows[k] == "our":
        k += 1
    return bool(k) and k + 1 < built.before and s.words[k] == base.text and lows[k + 1] == ","


def _abbreviates(short: str, words: str) -> bool:
    """Are the short name's capitals the initials of the words, in order (MSDN for Multi-level Scene
    Description Network, PSST for Partial-Sampling Straight-Through)?"""
    caps = [ch for ch in short if ch.isupper()]
    initials = [w[0].upper() for w in re.split(r"[\s-]+", words) if w]
    if len(caps) < 2 or not initials or caps[0] != initials[0]:
        return False
    rest = iter(initials)
    return all(ch in rest for ch in caps)


def _follow_on(ab: Abstract, base: Name, built: Name) -> bool:
    """Is the built name a follow-on to its base, brought in by a later sentence that says so before it:
    "We also propose an extension, SDF-Bayes-AR, …", "We further develop a novel Truncated CWY (or T-CWY)"?
    Not "… SRQ that …, to further reduce …", nor "To further accelerate it, we propose AdaGDA": "also" and
    "further" count beside "we" or the verb that brings the name in."""
    if built.sentence <= base.sentence:
        return False
    lows = ab.toks(built.sentence).lows[: built.before]
    if not FOLLOW_ON_NOUNS.isdisjoint(lows):
        return True
    return any(
        low in FOLLOW_ON
        and (lows[k - 1] == "we" or (k + 1 < len(lows) and (lows[k + 1] in INTRO_VERBS or lows[k + 1] in INTRO_PAST)))
        for k, low in enumerate(lows)
        if k
    )


def _named_after(ab: Abstract) -> Name | None:
    """A name that opens, as its subject, the sentence after one that states a contribution without naming it:
    "We propose a novel approach to … . GibbsNet is the best of both worlds …" (the weakest of the names),
    when the abstract uses it again."""
    for si in ab.cues:
        if ab.cue.get(si) is None or si + 1 >= len(ab):
            continue
        raw = ab.raw[si + 1][1]
        first = raw.split(" ", 1)[0]
        if not is_name(first) and any(is_name(w) for w in _AFTER_COMMA.findall(raw)):
            name = _subject_after_clause(ab, si + 1)  # "By capturing …, MS-SSM enhances …"
            if name is not None:
                return name
            continue
        if (
            not is_name(first)
            or first in NOT_SUBJECTS
            or common(first)
            or _modifier(first)
            or not any(ch.isalpha() for ch in first)
        ):
            continue  # (the cheap test first: most sentences are never tagged)
        s = ab.toks(si + 1)
        if len(s) < 2 or s.words[0] != first or s.tags[1] not in ("V", "A"):
            continue  # "GibbsNet is …", "MS-SSM enhances …", not "CNNs, …"
        name = Name(first, "", si + 1, 1, 0, 1)
        if not _used_before(ab, name) and mentions(ab.text, first) >= 2:  # a name the abstract goes on using
            return name
    return _later_subject(ab)


def _later_subject(ab: Abstract) -> Name | None:
    """A name that opens a later sentence after the first that states a contribution without naming it, as its
    subject with an adverb before the verb: "We propose a Bayesian nonparametric model … . GPIRT therefore
    provides a simple and intuitive solution …" (the weakest of the names, as _named_after), not one the
    abstract used before."""
    for si in ab.cues:
        if ab.cue.get(si) is None:
            continue
        for sj in range(si + 1, len(ab)):
            first = ab.raw[sj][1].split(" ", 1)[0]
            if not is_name(first) or first in NOT_SUBJECTS or common(first) or _modifier(first):
                continue
            s = ab.toks(sj)
            adverb = len(s) > 2 and (s.tags[1] == "X" or s.lows[1] in ("therefore", "thus", "hence"))
            if not adverb or s.words[0] != first or s.tags[2] not in ("V", "A"):
                continue  # "GPIRT therefore provides …", "GPIRT also …"
            name = Name(first, "", sj, 1, 0, 1)
            if not _used_before(ab, name):
                return name
        break
    return None


_AFTER_COMMA = re.compile(r", ([^\s,]+) ")


def _subject_after_clause(ab: Abstract, si: int) -> Name | None:
    """A name that is the subject of sentence si after the clause that opens it ("By capturing both fine-grained
    … and coarse, global trends, MS-SSM enhances memory efficiency …"), when the abstract uses it again, and
    not before: the name the sentence after an unnamed contribution gives it (as _named_after)."""
    s = ab.toks(si)
    tags, words = s.tags, s.words
    if len(s) < 4 or tags[0] != "P" or s.lows[0] in ("in", "on", "for", "of"):
        return None  # "By …", "With …", "Through …", not "In contrast, …", "For example, …"
    j = next((k for k in range(1, len(s) - 1) if tags[k] in ("V", "A") and k > 1 and tags[k - 1] == "M"
              and tags[k - 2] == ","), -1)  # fmt: skip
    if j < 0:
        return None
    word = words[j - 1]
    if not is_name(word) or word in NOT_SUBJECTS or common(word) or _modifier(word):
        return None
    name = Name(word, "", si, j, j - 1, 1)
    return name if not _used_before(ab, name) and mentions(ab.text, word) >= 2 else None


def _defined_subject(ab: Abstract) -> Name | None:
    """A name the abstract defines as what its sentence is about, the first time it uses it: "Averaged-DQN is
    a simple extension to the DQN algorithm, …" (the weakest of the names, as _named_after)."""
    for si in range(len(ab)):
        first, _, rest = ab.raw[si][1].partition(" ")
        if (
            not rest.startswith(("is a ", "is an "))
            or not is_name(first)
            or first in NOT_SUBJECTS
            or common(first)
            or _modifier(first)
        ):
            continue
        if rest.split(" ", 3)[2].lower().rstrip(",") in KNOWN:
            continue  # "GAIL is a recent successful imitation learning architecture": someone else's
        name = Name(first, "", si, 1, 0, 1)
        if not _used_before(ab, name):
            return name
    return None


_REPOSITORY_NAME = re.compile(r"[A-Za-z]+[0-9]?(?:-[A-Za-z]+)?")
_REPOSITORY = re.compile(r"(?:github\.com|gitlab\.com|huggingface\.co)/[\w.-]+/([\w-]+)", re.IGNORECASE)


def _named_by_repository(ab: Abstract) -> Name | None:
    """The name the abstract's code link gives, when it reads as a name (an acronym or CamelCase word, not
    words joined by underscores): "… our code: github.com/…/MODL" for the method the abstract describes
    without saying "we propose X" (the weakest of the names)."""
    m = _REPOSITORY.search(ab.text)
    if m is None:
        return None
    repo = m.group(1).casefold()
    if not _REPOSITORY_NAME.fullmatch(m.group(1)) or len(repo) > 20:
        return None  # "QN_With_Guarantees", "Deep-Hash-Table-ICML18": a repository's name, not a method's
    for si in range(len(ab)):
        if repo not in ab.raw[si][1].casefold():
            continue  # (the cheap test first: most sentences are never tagged)
        s = ab.toks(si)
        for i, word in enumerate(s.words):
            if word.casefold() == repo and is_name(word) and word not in NOT_SUBJECTS and not common(word):
                name = Name(word, "", si, i + 1, i, 1)
                return None if _used_before(ab, name) else name
    return None
