"""Words and key phrases of a paper: the tokens topics are computed from, the display form of a phrase, and
the phrases two papers share (why a related paper is related).

Text becomes a stream of surface ids: one per distinct written word (case kept, for display), each mapped to
its Snowball stem (so "networks" and "network" are one phrase). Stop words, numbers and punctuation become
breaks: a phrase never spans one, the way RAKE finds candidate phrases. Nothing here needs numpy; the topic
computation turns the streams into arrays.

Over 400 lines: tokenising, phrase display and shared phrases all read the same surface/stem stream, and
its tables are built once for all three.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import Stemmer

BREAK = 0  # a stop word, number or punctuation between two words: no phrase spans it
SENTENCE = 1  # the end of a sentence (also a break); the word after it may be capitalised for that reason
FIRST_ID = 2  # surface and stem ids start here
MAX_PHRASE = 3  # words in a phrase: "graph neural networks"
NAME_SHARE = 0.8  # a word capitalised in this share of its uses inside sentences is shown capitalised

# English function words, and the words every abstract uses to say it is an abstract. They break phrases, so
# "we propose a novel sparse attention method" yields "sparse attention", never "novel sparse attention".
STOP_WORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "across",
        "after",
        "again",
        "against",
        "all",
        "almost",
        "alone",
        "along",
        "already",
        "also",
        "although",
        "always",
        "am",
        "among",
        "an",
        "and",
        "another",
        "any",
        "anyone",
        "anything",
        "anyway",
        "are",
        "around",
        "as",
        "at",
        "away",
        "back",
        "be",
        "became",
        "because",
        "become",
        "becomes",
        "been",
        "before",
        "being",
        "below",
        "beside",
        "besides",
        "between",
        "beyond",
        "both",
        "but",
        "by",
        "can",
        "cannot",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "done",
        "down",
        "due",
        "during",
        "each",
        "either",
        "else",
        "enough",
        "especially",
        "etc",
        "even",
        "ever",
        "every",
        "few",
        "for",
        "from",
        "further",
        "furthermore",
        "get",
        "gets",
        "given",
        "gives",
        "had",
        "has",
        "have",
        "having",
        "he",
        "hence",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "however",
        "i",
        "ie",
        "if",
        "in",
        "indeed",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "less",
        "let",
        "like",
        "made",
        "make",
        "makes",
        "many",
        "may",
        "me",
        "might",
        "more",
        "moreover",
        "most",
        "mostly",
        "much",
        "must",
        "my",
        "myself",
        "namely",
        "neither",
        "never",
        "nevertheless",
        "next",
        "no",
        "nor",
        "not",
        "nothing",
        "now",
        "of",
        "off",
        "often",
        "on",
        "once",
        "one",
        "only",
        "onto",
        "or",
        "other",
        "others",
        "otherwise",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "per",
        "perhaps",
        "rather",
        "same",
        "several",
        "she",
        "should",
        "since",
        "so",
        "some",
        "something",
        "sometimes",
        "still",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "thereby",
        "therefore",
        "these",
        "they",
        "this",
        "those",
        "though",
        "through",
        "throughout",
        "thus",
        "to",
        "together",
        "too",
        "toward",
        "towards",
        "under",
        "unless",
        "until",
        "up",
        "upon",
        "us",
        "very",
        "via",
        "was",
        "we",
        "well",
        "were",
        "what",
        "whatever",
        "when",
        "whenever",
        "where",
        "whereas",
        "whether",
        "which",
        "while",
        "who",
        "whom",
        "whose",
        "why",
        "will",
        "with",
        "within",
        "without",
        "would",
        "yet",
        "you",
        "your",
        "yours",
        "eg",
        "cf",
        "al",
        "et",
        "vs",
        "viz",
        "able",
        "abstract",
        "achieve",
        "achieved",
        "achieves",
        "achieving",
        "across",
        "additionally",
        "addition",
        "allow",
        "allows",
        "allowing",
        "applied",
        "apply",
        "applying",
        "approach",
        "approaches",
        "article",
        "arbitrary",
        "aspects",
        "available",
        "based",
        "better",
        "best",
        "challenge",
        "challenges",
        "challenging",
        "compare",
        "compared",
        "comparing",
        "comparison",
        "competitive",
        "consider",
        "considered",
        "considering",
        "consists",
        "contrast",
        "contribution",
        "contributions",
        "conventional",
        "demonstrate",
        "demonstrated",
        "demonstrates",
        "demonstrating",
        "describe",
        "described",
        "describes",
        "design",
        "designed",
        "despite",
        "develop",
        "developed",
        "different",
        "difficult",
        "directly",
        "discuss",
        "discussed",
        "effective",
        "effectively",
        "efficient",
        "efficiently",
        "empirical",
        "empirically",
        "enable",
        "enables",
        "establish",
        "evaluate",
        "evaluated",
        "evaluation",
        "example",
        "examples",
        "existing",
        "experiment",
        "experimental",
        "experimentally",
        "experiments",
        "extensive",
        "extensively",
        "fact",
        "find",
        "finds",
        "first",
        "focus",
        "following",
        "found",
        "framework",
        "frameworks",
        "fully",
        "furthermore",
        "general",
        "generally",
        "good",
        "great",
        "help",
        "helps",
        "highly",
        "however",
        "important",
        "improve",
        "improved",
        "improvement",
        "improvements",
        "improves",
        "improving",
        "include",
        "includes",
        "including",
        "increasing",
        "instead",
        "introduce",
        "introduced",
        "introduces",
        "investigate",
        "issue",
        "issues",
        "key",
        "known",
        "largely",
        "last",
        "later",
        "latter",
        "lead",
        "leads",
        "leverage",
        "leverages",
        "leveraging",
        "little",
        "lot",
        "main",
        "mainly",
        "major",
        "making",
        "manner",
        "method",
        "methods",
        "moreover",
        "needed",
        "new",
        "notably",
        "novel",
        "number",
        "numerous",
        "obtain",
        "obtained",
        "obtains",
        "offer",
        "offers",
        "order",
        "outperform",
        "outperforming",
        "outperforms",
        "overall",
        "paper",
        "papers",
        "particular",
        "particularly",
        "perform",
        "performance",
        "performed",
        "performing",
        "performs",
        "possible",
        "potential",
        "potentially",
        "practical",
        "present",
        "presented",
        "presents",
        "previous",
        "previously",
        "principled",
        "problem",
        "problems",
        "promising",
        "propose",
        "proposed",
        "proposes",
        "proposing",
        "provide",
        "provided",
        "provides",
        "providing",
        "rarely",
        "real",
        "recent",
        "recently",
        "related",
        "relatively",
        "remains",
        "require",
        "required",
        "requires",
        "research",
        "researchers",
        "respectively",
        "result",
        "results",
        "reveal",
        "second",
        "see",
        "seek",
        "seem",
        "seems",
        "show",
        "showed",
        "showing",
        "shown",
        "shows",
        "significant",
        "significantly",
        "similar",
        "simple",
        "simply",
        "solution",
        "solutions",
        "solve",
        "solving",
        "specific",
        "specifically",
        "standard",
        "still",
        "strong",
        "studies",
        "study",
        "studied",
        "successfully",
        "suggest",
        "suggests",
        "superior",
        "surprisingly",
        "task",
        "tasks",
        "technique",
        "techniques",
        "terms",
        "three",
        "thereby",
        "third",
        "tool",
        "tools",
        "toward",
        "traditional",
        "true",
        "two",
        "typically",
        "unlike",
        "use",
        "used",
        "useful",
        "uses",
        "using",
        "usually",
        "various",
        "versus",
        "whole",
        "wide",
        "widely",
        "work",
        "works",
        "yield",
        "yields",
    ]
)

_TOKEN = re.compile(
    r"[^\W\d_]\w*(?:[-'’][^\W_]+)*"  # a word, hyphenated or with an apostrophe: self-supervised, model's
    r"|\d+[^\W\d_]\w*"  # 3d, 2nd
    r"|[.!?](?=\s|$)"  # the end of a sentence
    r"|[^\w\s]|\d[\d.,]*"  # other punctuation and numbers: breaks
)
_SENTENCE_ENDS = frozenset(".!?")


def fold(text: str) -> str:
    """Compatibility forms as their plain letters (NFKC), as the search index's analysis folds them: a formula's
    letters (𝖥𝗅𝖺𝗌𝗁𝖠𝗍𝗍𝗇, 𝒳), ligatures (ﬁ) and full-width forms. Plain ASCII, most text, is left as it is."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


_stemmer = Stemmer.Stemmer("english")


def _key_form(word: str) -> str | None:
    """The lower-case word a stem is made from, or None for a break (stop word, number, one letter)."""
    lower = word.lower().replace("’", "'")
    if lower.endswith("'s"):
        lower = lower[:-2]
    lower = lower.strip("'-")
    if len(lower) < 2 or lower in STOP_WORDS or not lower[0].isalpha():
        return None
    return lower


class Vocabulary:
    """Surface ids for written words and stem ids for their stems, grown as text is encoded.

    `encode` is the hot loop of a topic computation: one dictionary look-up per word, the stemmer called once
    per distinct written word."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}
        self.surfaces: list[str] = ["", ""]  # surface id → the word as written
        self.surface_stem: list[int] = [BREAK, BREAK]  # surface id → stem id
        self.stems: list[str] = ["", ""]  # stem id → stem
        self._stem_ids: dict[str, int] = {}

    def _add(self, word: str) -> int:
        if len(word) == 1 and word in _SENTENCE_ENDS:
            sid = SENTENCE
        else:
            key = _key_form(word)
            if key is None:
                sid = BREAK
            else:
                stem = _stemmer.stemWord(key)
                stem_id = self._stem_ids.get(stem)
                if stem_id is None:
                    stem_id = self._stem_ids[stem] = len(self.stems)
                    self.stems.append(stem)
                sid = len(self.surfaces)
                self.surfaces.append(word)
                self.surface_stem.append(stem_id)
        self._ids[word] = sid
        return sid

    def encode(self, text: str) -> list[int]:
        """The text as surface ids, with BREAK and SENTENCE where phrases stop; folded as the search index folds
        it (fold), so that a formula's "𝖥𝗅𝖺𝗌𝗁𝖠𝗍𝗍𝗇" is the "FlashAttn" of the text around it."""
        ids, add = self._ids, self._add
        return [ids[w] if w in ids else add(w) for w in _TOKEN.findall(fold(text))]

    def release(self) -> None:
        """Forget the written words (encode cannot be called again); stem ids and stems stay."""
        self._ids = {}
        self._stem_ids = {}
        self.surfaces = []
        self.surface_stem = []

    def stem_of(self, word: str) -> str | None:
        key = _key_form(fold(word))
        return None if key is None else _stemmer.stemWord(key)

    def __len__(self) -> int:
        return len(self.surfaces)


def _title_cased_compound(word: str) -> bool:
    """ "Low-Rank", "Vision-Language", "Re-Identification": each part capitalised as a title writes it, not a name's
    casing (which its uses inside sentences show: "Kullback-Leibler")."""
    parts = [p for p in word.split("-") if p]
    return len(parts) > 1 and all(p[0].isupper() and p[1:] == p[1:].lower() for p in parts)


def display_word(forms: Mapping[str, int], mid_sentence: Mapping[str, int]) -> str:
    """How to show a word, from the ways it was written: an acronym or a mixed-case name as written ("BERT",
    "ImageNet"; not a title's "Low-Rank"), a word capitalised in most of its uses inside a sentence as a name
    ("Gaussian", "Markov"), anything else in lower case (titles and sentence starts capitalise common words)."""
    best = max(forms.items(), key=lambda kv: (kv[1], kv[0]))[0]
    if best[1:] != best[1:].lower() and not _title_cased_compound(best):
        return best
    if mid_sentence:
        total = sum(mid_sentence.values())
        capitalised = Counter({w: n for w, n in mid_sentence.items() if w[:1].isupper()})
        if capitalised and sum(capitalised.values()) >= NAME_SHARE * total:
            return capitalised.most_common(1)[0][0]
    return best.lower()


@dataclass(frozen=True)
class Phrase:
    """A run of 1–3 content words: its stems (the identity), how it is shown, how often it occurs and
    whether the title has it."""

    stems: tuple[str, ...]
    text: str
    count: int = 1
    in_title: bool = False


def phrases(title: str, abstract: str) -> dict[tuple[str, ...], Phrase]:
    """Every candidate phrase of a paper (1–3 words between breaks), by stems."""
    vocab = Vocabulary()
    counts: Counter[tuple[str, ...]] = Counter()
    titled: set[tuple[str, ...]] = set()
    forms: dict[str, Counter[str]] = {}
    mids: dict[str, Counter[str]] = {}
    for part, inside in ((title, False), (abstract, True)):
        ids = vocab.encode(part)
        run: list[int] = []
        previous = SENTENCE  # a part starts a sentence
        for sid in [*ids, BREAK]:
            if sid >= FIRST_ID:
                word = vocab.surfaces[sid]
                stem = vocab.stems[vocab.surface_stem[sid]]
                forms.setdefault(stem, Counter())[word] += 1
                if inside and previous != SENTENCE:
                    mids.setdefault(stem, Counter())[word] += 1
                run.append(sid)
                previous = sid
                continue
            previous = sid
            for n in range(1, MAX_PHRASE + 1):
                for i in range(len(run) - n + 1):
                    key = tuple(vocab.stems[vocab.surface_stem[s]] for s in run[i : i + n])
                    counts[key] += 1
                    if not inside:
                        titled.add(key)
            run = []
    shown = {stem: display_word(forms[stem], mids.get(stem, {})) for stem in forms}
    return {k: Phrase(k, " ".join(shown[s] for s in k), n, k in titled) for k, n in counts.items()}


def written_forms(wanted: Iterable[tuple[str, ...]], texts: Iterable[tuple[str, str]]) -> dict[tuple[str, ...], str]:
    """How each phrase (by stems) is written in these (title, abstract) texts: its most common spelling, each
    word cased by display_word from its uses inside abstract sentences. Phrases not found are left out. A
    phrase that nearly always goes on with the same word is shown with it: "multimodal large language" is a
    cut "multimodal large language models", "retrieval augmented" a cut "retrieval augmented generation"."""
    keys = set(wanted)
    lengths = sorted({len(k) for k in keys})
    vocab = Vocabulary()
    spellings: dict[tuple[str, ...], Counter[tuple[str, ...]]] = {}
    forms: dict[tuple[str, ...], list[Counter[str]]] = {}
    mids: dict[tuple[str, ...], list[Counter[str]]] = {}
    after: dict[tuple[str, ...], Counter[tuple[str, str]]] = {}  # the word after a phrase: (stem, as written)
    after_mid: dict[tuple[str, ...], Counter[tuple[str, str]]] = {}  # … in abstracts (mid-sentence: cased as a name is)
    for title, abstract in texts:
        for part, inside in ((title, False), (abstract, True)):
            ids = vocab.encode(part)
            stems = [vocab.stems[vocab.surface_stem[i]] if i >= FIRST_ID else "" for i in ids]
            for n in lengths:
                for i in range(len(ids) - n + 1):
                    key = tuple(stems[i : i + n])
                    if key not in keys:
                        continue
                    words = [vocab.surfaces[j] for j in ids[i : i + n]]
                    spellings.setdefault(key, Counter())[tuple(w.lower() for w in words)] += 1
                    f = forms.setdefault(key, [Counter() for _ in range(n)])
                    m = mids.setdefault(key, [Counter() for _ in range(n)])
                    # "Restricted Boltzmann Machines (RBMs)": a name's expansion in capitals says nothing of
                    # how each word is cased
                    expansion = n > 1 and all(w[:1].isupper() for w in words)
                    for j, w in enumerate(words):
                        f[j][w] += 1
                        if inside and not expansion and i + j > 0 and ids[i + j - 1] != SENTENCE:
                            m[j][w] += 1
                    if n > 1:
                        nxt = ids[i + n] if i + n < len(ids) else BREAK
                        word = vocab.surfaces[nxt] if nxt >= FIRST_ID else ""
                        stem = vocab.stems[vocab.surface_stem[nxt]] if nxt >= FIRST_ID else ""
                        after.setdefault(key, Counter())[(stem, word)] += 1
                        if inside:
                            after_mid.setdefault(key, Counter())[(stem, word)] += 1
    out: dict[tuple[str, ...], str] = {}
    for key, counts in spellings.items():
        spelled = counts.most_common(1)[0][0]
        words = []
        for j, lower in enumerate(spelled):
            same = {w: c for w, c in forms[key][j].items() if w.lower() == lower}
            mid = {w: c for w, c in mids[key][j].items() if w.lower() == lower}
            words.append(display_word(same, mid))
        words += _going_on(after.get(key), after_mid.get(key, Counter()))
        out[key] = " ".join(words)
    return out


GOES_ON_SHARE = 0.8  # a phrase followed by the same word in this share of its uses (GOES_ON_USES or more) is cut
GOES_ON_USES = 3


def _going_on(after: Counter[tuple[str, str]] | None, mid: Counter[tuple[str, str]]) -> list[str]:
    """The word a cut phrase goes on with (by stem: "model" or "models"), as display_word shows its most common
    spelling; none when the phrase does not go on."""
    if not after:
        return []
    stems: Counter[str] = Counter()
    for (stem, _), c in after.items():
        stems[stem] += c
    stem, uses = stems.most_common(1)[0]
    if not stem or uses < GOES_ON_USES or uses < GOES_ON_SHARE * sum(stems.values()):
        return []
    spellings: Counter[str] = Counter()
    for (s, w), c in after.items():
        if s == stem:
            spellings[w.lower()] += c
    word = spellings.most_common(1)[0][0]
    same = {w: c for (s, w), c in after.items() if w.lower() == word}
    return [display_word(same, {w: c for (s, w), c in mid.items() if w.lower() == word})]


WordFrequencies = Callable[[Sequence[str]], tuple[Mapping[str, int], int]]  # words → (documents with each, of all)
COMMON_SHARE = 0.05  # a single shared word counts only if fewer than this share of papers use it


def shared_phrases(
    paper: tuple[str, str], other: tuple[str, str], frequencies: WordFrequencies | None = None, top: int = 5
) -> list[str]:
    """The key phrases two papers (title, abstract) share, most telling first: why `other` is related.

    A phrase is shared when both have it (by stems: "neural network" matches "neural networks"); it is worth
    the inverse document frequencies of its words (from `frequencies`, which the library answers from its
    index), so "sparse attention" outranks "training". A phrase inside a longer shared one is not repeated;
    a single word must be rare and be a theme of a paper (in a title, or used twice). Shown as `other`
    writes it."""
    mine, theirs = phrases(*paper), phrases(*other)
    common = [k for k in theirs if k in mine]
    if not common:
        return []
    words = sorted({w for k in common for w in k})
    single_floor = 0.0
    idf = dict.fromkeys(words, 1.0)
    if frequencies is not None:
        counts, total = frequencies(_surface_words(theirs, words))
        by_stem = _stem_counts(theirs, counts)
        idf = {w: math.log((max(total, 1) + 1) / (by_stem.get(w, 0) + 1)) for w in words}
        single_floor = math.log(1 / COMMON_SHARE)

    def score(k: tuple[str, ...]) -> float:
        return sum(idf[w] for w in k) * (1 + 0.25 * (len(k) - 1))

    def theme(k: tuple[str, ...]) -> bool:
        return any(p[k].in_title or p[k].count >= 2 for p in (mine, theirs))

    ranked = sorted(common, key=lambda k: (-len(k), -score(k), k))
    chosen: list[tuple[str, ...]] = []
    for k in ranked:
        if len(k) == 1 and (idf[k[0]] < single_floor or not theme(k) or theirs[k].text.endswith("ly")):
            continue
        if len(k) > 1 and max(idf[w] for w in k) < single_floor / 2:
            continue  # every word common: "neural network" says little about why
        if any(_inside(k, longer) for longer in chosen):
            continue
        chosen.append(k)
    chosen.sort(key=lambda k: (-score(k), k))
    return [theirs[k].text for k in chosen[:top]]


def _inside(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    n = len(short)
    return n < len(long) and any(long[i : i + n] == short for i in range(len(long) - n + 1))


def _surface_words(found: Mapping[tuple[str, ...], Phrase], stems: Iterable[str]) -> list[str]:
    """One written form (lower-case) per stem: what the index is asked about."""
    wanted = set(stems)
    out: dict[str, str] = {}
    for k, p in found.items():
        if len(k) == 1 and k[0] in wanted:
            out[k[0]] = p.text.lower()
    return sorted(out.values())


def _stem_counts(found: Mapping[tuple[str, ...], Phrase], counts: Mapping[str, int]) -> dict[str, int]:
    return {k[0]: counts.get(p.text.lower(), 0) for k, p in found.items() if len(k) == 1}
