"""An abstract read once for its title: its sentences (tagged when first needed), which of them state the
contribution, how often each word recurs, and so how likely a word is to be a word of the real title."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from readinglist.importers.titles.lexicon import (
    ABSTRACT_SPEAK,
    ARTICLE_LIKE,
    BE,
    CUE_VERBS,
    CUE_WORDS,
    EARLIER_NAMED,
    EARLIER_WORK,
    INTRO_PAST,
    INTRO_VERBS,
    NAMING,
    PASSIVE_CUES,
    STUDY_VERBS,
    SUBJECT_WORDS,
    THING,
    THIS_WORK,
)
from readinglist.importers.titles.tagging import Sentence, is_name, split_sentences, tag
from readinglist.paths import resources_dir


@lru_cache(maxsize=100_000)
def norm(word: str) -> str:
    """A light stem for counting: networks → network, studies → study (never shown)."""
    w = word.lower().strip("'’")
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is", "ics")):
        return w[:-1]
    return w


_CONTENT = frozenset(("N", "M", "J", "V", "X"))


def is_content(s: Sentence, i: int) -> bool:
    """A word that says something (not a function word, not punctuation)."""
    return s.tags[i] in _CONTENT and s.lows[i] not in ARTICLE_LIKE and s.words[i][0].isalnum()


# How likely a word of the abstract is to be a word of its title: a logistic model over the word's rate in
# the title-word table (resources/title_words.tsv, counted on the ACL Anthology's titled abstracts, CC BY 4.0:
# its header and resources/NOTICE.md say so), how often the abstract uses it (1 … 5+), whether the opening or
# a contribution sentence has it, whether it is an acronym, and where it first stands (0 at the start, 1 at
# the end). Fitted, with that table, on the development set by benchmarks/title_words.py (none of its papers
# in the table or in the benchmark's corpora): intercept, rate, count, opening, contribution, both, acronym,
# place. Without the table (a source tree that lost it) the lexicon's abstract-speak stands in for it.
SPEAK_RATE = 0.01  # without the table: how often an abstract-speak word of an abstract is in its title
TOPIC_RATE = 0.12  # … and any other word
WORTH_WEIGHTS = (-1.066, 0.774, 1.231, 0.406, 0.902, -0.070, -0.478, -1.364)


@lru_cache(maxsize=1)
def _title_words() -> tuple[dict[str, float], float]:
    """Each known word's title rate as a logit, and the rate of every other word. From the title-word table
    (shipped in resources; benchmarks/title_words.py makes it); where it is missing, abstract-speak
    (lexicon.ABSTRACT_SPEAK) at a rate near nothing and every other word at a topic word's."""
    try:
        text = (resources_dir() / "title_words.tsv").read_text(encoding="utf-8")
    except OSError:
        text = ""
    if not text:
        speak = math.log(SPEAK_RATE / (1 - SPEAK_RATE))
        return {norm(w): speak for w in ABSTRACT_SPEAK}, math.log(TOPIC_RATE / (1 - TOPIC_RATE))
    rates, default = {}, 0.11
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        word, in_abstracts, in_titles = line.split("\t")
        rate = (int(in_titles) + 0.5) / (int(in_abstracts) + 1)
        if word == "*":
            default = rate
        else:
            rates[word] = math.log(rate / (1 - rate))
    return rates, math.log(default / (1 - default))


def reload_title_words() -> None:
    """Read the table again (benchmarks/title_words.py has just written it)."""
    _title_words.cache_clear()
    _word_part.cache_clear()


def worth_features(ab: Abstract, key: str, word: str) -> list[float]:
    """What WORTH_WEIGHTS weigh, for a word (its light stem `key`) of this abstract."""
    rates, default = _title_words()
    first, contribution = key in ab.first, key in ab.contribution
    place = max(ab.low.find(key), 0) / max(len(ab.low), 1)
    return [1.0, rates.get(key, default), _LOG_COUNT[min(ab.count(key) or 1, 5)], float(first),
            float(contribution), float(first and contribution), float(is_name(word)), place]  # fmt: skip


_LOG_COUNT = tuple(math.log(c) if c else 0.0 for c in range(6))
_PUNCTUATION = re.compile(r"[,.;:!?()\[\]{}\"“”‘’'«»/|<>=+*&%$#@^~`_]")
_HINTS = CUE_WORDS | PASSIVE_CUES | NAMING
# what a sentence's result brings in: "…, leading to the sparse alternating least squares (SPALS) method", "…,
# resulting in the DART algorithm", "The resulting estimate for the Wasserstein posterior (WASP) …"; a name-like
# word after it (a capital after the first letter) is what makes the sentence worth tagging
_RESULT = re.compile(
    r"\b(?:(?:lead|leads|leading|led|resulting|resulted) (?:to|in)|[Tt]he resulting) .*?[A-Za-z0-9][A-Z]"
)
RESULT_VERBS = frozenset(("lead", "leads", "leading", "led", "resulting", "resulted"))
_CONTRIBUTION = frozenset(("contribution", "contributions"))


def after_we(s: Sentence, i: int) -> bool:
    """Is word i said by "we" ("we developed", "we have developed", "we first developed")?"""
    lows = s.lows
    return i >= 1 and (lows[i - 1] == "we" or (i >= 2 and lows[i - 2] == "we" and s.tags[i - 1] in ("X", "A")))


def contribution_cue(s: Sentence) -> tuple[int, int, bool] | None:
    """(strength, index after the cue, passive?) for "we propose …", "this paper studies …", "we developed …",
    "… is proposed"."""
    best: tuple[int, int, bool] | None = None
    lows, tags = s.lows, s.tags
    if not _CONTRIBUTION.isdisjoint(lows):  # "Our main contribution is a characterization of …": what it is
        best = next(((3, i + 2, False) for i, low in enumerate(lows) if low in _CONTRIBUTION
                     and _our_contribution_is(lows, i)), None)  # fmt: skip
    for i, low in enumerate(lows):
        if low not in CUE_VERBS:
            continue
        subject = i >= 1 and (lows[i - 1] in ("we", "paper", "work", "study", "article", "here")
                              or (i >= 2 and lows[i - 2] == "we" and tags[i - 1] == "X")
                              or (i >= 2 and lows[i - 2] == "us" and lows[i - 1] == "to"))  # fmt: skip
        strength, passive = 0, False
        if (low in INTRO_VERBS and subject) or (low in INTRO_PAST and after_we(s, i)):
            strength = 3
        elif low in INTRO_VERBS and i >= 2 and lows[i - 1] in ("to", "by") and "we" in lows[:i]:
            strength = 2  # "we leverage … to derive X", "we make progress by providing X"
        elif low in STUDY_VERBS and subject:
            strength = 2
        elif low in PASSIVE_CUES and i >= 1 and tags[i - 1] == "A":
            strength, passive = 3, True
        if strength and (best is None or strength > best[0]):
            j = i + 1
            if j < len(lows) and lows[j] == "on":  # focus on
                j += 1
            best = (strength, j, passive)
    return best


def _our_contribution_is(lows: list[str], i: int) -> bool:
    """Does word i ("contribution") open "our (main) contribution is …"?"""
    return i + 2 < len(lows) and lows[i + 1] in BE and "our" in lows[max(i - 3, 0) : i]


def has_cue(s: Sentence) -> bool:
    """Does the sentence bring something in ("we propose", "we developed", "called", "we call", "our …",
    "… Network (PG-Net) is proposed")?"""
    if _BRINGING.isdisjoint(s.lows):
        return False
    return any(
        low in INTRO_VERBS
        or low in NAMING
        or low == "our"
        or (low in INTRO_PAST and after_we(s, i))
        or (low == "proposed" and i and s.lows[i - 1] == "the")
        or (low in _WE_CALL and i and s.lows[i - 1] == "we")
        or (low in INTRO_PAST and i > 1 and s.tags[i - 2] in (")", "M") and brought_in_passively(s, i - 1))
        or result_at(s.lows, i) > 0
        for i, low in enumerate(s.lows)
    )


def result_at(lows: list[str], i: int) -> int:
    """Past the words at i that say what follows is a result ("leading to", "resulting in", "the resulting"),
    or 0."""
    if lows[i] in RESULT_VERBS and i + 1 < len(lows) and lows[i + 1] in ("to", "in"):
        return i + 2 if (lows[i + 1] == "to") == (lows[i] != "resulting" and lows[i] != "resulted") else 0
    if lows[i] == "resulting" and i and lows[i - 1] == "the":
        return i + 1
    return 0


def brought_in_passively(s: Sentence, j: int) -> bool:
    """Does "is/are proposed" (or introduced, developed …) stand at word j of a sentence about the paper's own
    work: "In this paper, a … Network (PG-Net) is proposed"?"""
    lows = s.lows
    return j + 1 < len(lows) and lows[j] in ("is", "are") and lows[j + 1] in INTRO_PAST and own_work(lows)


def own_work(lows: list[str]) -> bool:
    """Does the sentence speak of the paper's own work ("In this paper, …", "we", "our"), and not of earlier
    work ("Recently, a new Graph Attention Network (GAT) is proposed", "prior work shows")?"""
    return not THIS_WORK.isdisjoint(lows) and EARLIER_WORK.isdisjoint(lows) and EARLIER_NAMED.isdisjoint(lows)


# a name defined after a colon: "SchNet: a novel deep learning architecture", "RLlib: a library that …"
_DEFINES = re.compile(r"[A-Za-z0-9]+: an? (?:new |novel )?(?:[\w-]+ ){0,3}?(?:" + "|".join(sorted(THING)) + r")\b")
_WE_CALL = frozenset(("call", "name", "dub", "term"))
_BRINGING = INTRO_VERBS | NAMING | INTRO_PAST | _WE_CALL | RESULT_VERBS | {"our"}


class Abstract:
    """An abstract read once: its sentences (tagged when first needed: most are never looked at), how often
    each word recurs, and which sentences may state the contribution."""

    def __init__(self, plain: str):
        self.text = " ".join(plain.split())
        self.raw = split_sentences(self.text) if self.text else []
        self._tagged: dict[int, Sentence] = {}
        self._worth: dict[str, tuple[str, float]] = {}
        self.low = low = self.text.lower()
        self._length = max(len(low), 1)
        # the words, lower-cased, punctuation dropped: counted (by light stem when asked: count), and the
        # sentences worth tagging found, those that may state the contribution or bring in a name
        self._counts: Counter[str] = Counter()
        counts = self._counts
        hinted = []
        self.defines: set[int] = set()  # sentences that define a name in apposition after a colon
        bare = _PUNCTUATION.sub(" ", low)  # one character for one: the sentences' offsets hold
        for si, (offset, s) in enumerate(self.raw):
            found = bare[offset : offset + len(s)].split()
            counts.update(found)
            defines = ": a" in s and _DEFINES.search(s) is not None  # "… SchNet: a novel architecture …"
            if defines:
                self.defines.add(si)
            result = _RESULT.search(s) is not None
            if _HINTS.isdisjoint(found) and not defines and not result:
                continue
            words = set(found)
            active = not CUE_WORDS.isdisjoint(words) and not SUBJECT_WORDS.isdisjoint(words)
            passive = not PASSIVE_CUES.isdisjoint(words) and not BE.isdisjoint(words)
            the_proposed = "proposed" in words and "the proposed " in bare[offset : offset + len(s)]
            if active or passive or the_proposed or defines or result or not NAMING.isdisjoint(words):
                hinted.append(si)
        self.cue: dict[int, tuple[int, int, bool] | None] = {si: contribution_cue(self.toks(si)) for si in hinted}
        # "we propose", "called", "our …", "NAME: a new …"
        self.brings = {si for si in hinted if si in self.defines or has_cue(self.toks(si))}
        self.cues = [si for si in hinted if self.cue[si] or si in self.brings]
        self.first = self._words(0) if self.raw else set()
        self.contribution = {w for si in self.cues if self.cue[si] for w in self._words(si)}

    @classmethod
    def read(cls, plain: str) -> Abstract:
        return cls(plain)

    def __len__(self) -> int:
        return len(self.raw)

    def toks(self, si: int) -> Sentence:
        """Sentence si, tagged."""
        s = self._tagged.get(si)
        if s is None:
            offset, sentence = self.raw[si]
            s = self._tagged[si] = tag(sentence, offset)
        return s

    def is_tagged(self, si: int) -> bool:
        return si in self._tagged

    def tagged(self) -> list[Sentence]:
        return [self._tagged[si] for si in sorted(self._tagged)]

    def _words(self, si: int) -> set[str]:
        """The light stems of sentence si's words (function words too: only content words are looked up)."""
        return set(map(norm, self.toks(si).lows))

    def before(self, si: int) -> str:
        """The text before sentence si."""
        return self.text[: self.raw[si][0]] if si < len(self.raw) else self.text

    def count(self, key: str) -> int:
        """How often the abstract uses a content word of this light stem (norm): network, networks."""
        counts, n = self._counts, 0
        for w in (key, key + "s", key[:-1] + "ies"):
            if w in counts and norm(w) == key and w not in ARTICLE_LIKE:
                n += counts[w]
        return n

    def worth(self, word: str) -> float:
        """How likely this word is to be in the real title: WORTH_WEIGHTS over worth_features, written out
        (it is asked for every word of every candidate phrase; what depends on the word alone is cached)."""
        return self._weighed(word)[1]

    def _weighed(self, word: str) -> tuple[str, float]:
        key, z = _word_part(word)
        _, _, w_count, w_first, w_contribution, w_both, _, w_place = WORTH_WEIGHTS
        first, contribution = key in self.first, key in self.contribution
        z += w_count * _LOG_COUNT[min(self.count(key) or 1, 5)] + w_place * max(self.low.find(key), 0) / self._length
        z += w_first * first + w_contribution * contribution + w_both * (first and contribution)
        return key, 1 / (1 + math.exp(-z))

    def keys(self, s: Sentence, idx: Iterable[int]) -> dict[str, float]:
        """The content words among these words of sentence s, by light stem, each with its worth (the first
        word's when two share a stem)."""
        out: dict[str, float] = {}
        cache, words, tags, lows = self._worth, s.words, s.tags, s.lows
        for i in idx:
            word = words[i]
            if tags[i] not in _CONTENT or lows[i] in ARTICLE_LIKE or not word[0].isalnum():
                continue
            kw = cache.get(word)
            if kw is None:
                kw = cache[word] = self._weighed(word)
            if kw[0] not in out:
                out[kw[0]] = kw[1]
        return out


@lru_cache(maxsize=100_000)
def _word_part(word: str) -> tuple[str, float]:
    """A word's light stem, and the part of its worth that depends on the word alone (its table rate, whether
    it is an acronym), the same in every abstract."""
    key = norm(word)
    rates, default = _title_words()
    w0, w_rate, _, _, _, _, w_name, _ = WORTH_WEIGHTS
    return key, w0 + w_rate * rates.get(key, default) + w_name * is_name(word)


REAL_TITLE_WORDS = 6.5  # content words in a typical real title (the development set: 6.7)


def expected_f1(worths: list[float]) -> float:
    """F1 against a title of REAL_TITLE_WORDS words if each word is in it with its probability."""
    return 2 * sum(worths) / (len(worths) + REAL_TITLE_WORDS) if worths else 0.0
