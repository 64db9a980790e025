"""The scale envelope (issue 18): a library several times the all-venues corpus, and how each measure grows.

`synthesise` writes the corpus `copies` times into one JSON Lines file (a cache folder, never the repo): the
first copy as it is, each further one with a share of its title's and abstract's words replaced (a fixed
seed), so that the copies are different papers to the duplicate rules (importers.duplicates: another title
key, another abstract key, abstracts' 3-word shingles far below the "same text" threshold) while the text
keeps the corpus's vocabulary, lengths and word frequencies. Each word has a partner in the copy: the word next
to it in the corpus's ranking by document frequency (rank XOR copy), and a share of the pairs a paper holds are
swapped whole, both ways, in its title and abstract alike, so a word's papers in the copy are about its own
and its partner's, as in a real library three times the size. Version 2 drew words at random from other
papers' text: common words then landed in most copies' abstracts, "learning" in 3.6× the papers at 3× the
papers, and search time grew with that, not with the library. Version 3 replaced a share of the words (not
pairs) by their partners: a word still landed in papers that had only its partner, 6–15 % more per copy.
`exponents` fits how a measure grows between library sizes and says which grow faster than n log n.
"""

from __future__ import annotations

import gzip
import itertools
import json
import lzma
import math
import os
import random
import re
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

# of the pairs of partners a paper's words make, swapped (about as many of its words: shingles kept ≈ 0.7³,
# similarity ≈ 0.2 against SAME_ABSTRACT 0.8)
SHARE = 0.3
MIN_SHARE = 0.15  # of a text's words changed at least (a paper whose pairs were seldom drawn)
DONOR_EVERY = 37  # the words' ranking is read from every 37th paper of the corpus
SEED = 18
VERSION = 4  # of the perturbation: in the cached file's name, so a changed rule makes a new file
# a token that is a word (maybe in brackets, quotes or before punctuation): LaTeX, URLs, code and numbers are
# left as they are
_TOKEN = re.compile(r"(?<!\S)[(\"'“]?([A-Za-z]{3,})[.,;:!?)\"'”]*(?!\S)")
_LETTERS = re.compile(r"[A-Za-z]{3,}")
_MARKUP = re.compile(r"[$\\{}]|://")
_KEYS = ("id", "url", "doi", "key")  # a record's own identifiers, made distinct per copy


def cache_dir() -> Path:
    return Path(os.environ.get("READINGLIST_SCALE_DIR", Path(tempfile.gettempdir()) / "readinglist-scale"))


def read_records(path: Path) -> Iterator[dict]:
    opener = {".gz": gzip.open, ".xz": lzma.open}.get(path.suffix, open)
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


class Donors(list[str]):
    """Words ranked by how many papers have them (most first, lower case), and each word's rank."""

    def __init__(self, words: Iterable[str]) -> None:
        # case-folded and each once: "Learning" beside "learning" would be its own partner, a swap changing nothing
        super().__init__(dict.fromkeys(w.casefold() for w in words))
        self.rank: dict[str, int] = {w: i for i, w in enumerate(self)}
        if len(self.rank) < 2:
            raise ValueError("a corpus of fewer than two words cannot be perturbed")


def donor_words(records: Sequence[dict] | Iterator[dict], every: int = DONOR_EVERY) -> Donors:
    """The words of every `every`-th record's title and abstract, ranked by how many of them have each."""
    df: Counter[str] = Counter()
    for i, r in enumerate(records):
        if i % every == 0:
            df.update({w.casefold() for w in _TOKEN.findall(f"{r.get('title') or ''} {r.get('abstract') or ''}")})
    return Donors(w for w, _ in sorted(df.items(), key=lambda kv: (-kv[1], kv[0])))


def _swaps(words: Iterable[str], rng: random.Random, donors: Donors, copy: int, share: float) -> dict[str, str]:
    """Which of a paper's words (case-folded) change, and into what: each pair of partners the paper holds
    is swapped whole with probability `share` (both ways, every occurrence), so each word's papers in the
    copy are about its own and its partner's; a word the ranking lacks becomes one ranked word at random."""
    heads: set[str] = set()  # a pair is named by its first word in the ranking
    for w in set(words):
        r = donors.rank.get(w)
        heads.add(donors[min(r, r ^ copy)] if r is not None and (r ^ copy) < len(donors) else w)
    out: dict[str, str] = {}
    for head in sorted(heads):  # in a fixed order: the same draws every time
        if rng.random() < share:
            out.update(_pair(head, rng, donors, copy))
    return out


def _pair(head: str, rng: random.Random, donors: Donors, copy: int) -> dict[str, str]:
    """The swap of `head`'s pair: {head: partner, partner: head}, or {head: a random ranked word}."""
    r = donors.rank.get(head)
    if r is not None and (r ^ copy) < len(donors):
        a, b = donors[r], donors[r ^ copy]  # (Donors are case-folded)
        return {a: b, b: a}
    new = head
    while new == head:  # a word that is really another
        new = rng.choice(donors)
    return {head: new}


def _apply(text: str, spans: list[tuple[int, int]], swaps: dict[str, str]) -> tuple[str, int]:
    """The text with `swaps` made at `spans`, and how many words changed."""
    out, end, n = [], 0, 0
    for a, b in spans:
        old = text[a:b]
        new = swaps.get(old.casefold())
        if new is None:
            continue
        out += [text[end:a], new.capitalize() if old[0].isupper() else new]
        end, n = b, n + 1
    return "".join(out) + text[end:], n


def _spans(text: str) -> list[tuple[int, int]]:
    return [m.span(1) for m in _TOKEN.finditer(text)]


def _changed(text: str, rng: random.Random, donors: Donors, copy: int, swaps: dict[str, str]) -> str:
    """The text with the paper's swaps; more of its words' pairs (added to `swaps`) until at least one word
    and MIN_SHARE of them changed."""
    spans = _spans(text)
    if not spans:  # "IM2CAD", "Self-Paced Co-training": the letters inside the tokens
        spans = [m.span() for m in _LETTERS.finditer(text)] if not _MARKUP.search(text) else []
        if not spans:  # "3D", or markup only: a word more
            return f"{text} {rng.choice(donors).capitalize()}"
    new, n = _apply(text, spans, swaps)
    while n < max(1, round(MIN_SHARE * len(spans))):  # few pairs drawn, or only rare words: more pairs
        a, b = rng.choice([(a, b) for a, b in spans if text[a:b].casefold() not in swaps])
        swaps.update(_pair(text[a:b].casefold(), rng, donors, copy))
        new, n = _apply(text, spans, swaps)
    return new


def perturb(record: dict, copy: int, index: int, donors: Sequence[str], seed: int = SEED,
            share: float = SHARE) -> dict:  # fmt: skip
    """Copy `copy` (≥ 1) of the record: a share of the pairs of partners its words make swapped whole, in the
    title and the abstract alike (`_swaps`; each changed by at least one word), its identifiers marked with
    the copy; the same for the same arguments."""
    rng = random.Random(f"{seed}:{copy}:{index}")
    ranked = donors if isinstance(donors, Donors) else Donors(donors)
    out = dict(record)
    texts = [(key, record[key]) for key in ("title", "abstract") if isinstance(record.get(key), str) and record[key]]
    swaps = _swaps([t[a:b].casefold() for _, t in texts for a, b in _spans(t)], rng, ranked, copy, share)
    for key, text in texts:
        out[key] = _changed(text, rng, ranked, copy, swaps)
    for key in _KEYS:
        if isinstance(record.get(key), str) and record[key]:
            out[key] = f"{record[key]}#copy{copy}"
    return out


def synthesise(corpus: Path, copies: int, seed: int = SEED, folder: Path | None = None, log=print) -> Path:
    """The corpus `copies` times in one JSON Lines file in the cache folder (made once per corpus, copies and
    seed and version of the perturbation; kept for the next run)."""
    folder = folder or cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stem = corpus.name.split(".")[0]
    path = folder / f"{stem}-x{copies}-seed{seed}-v{VERSION}.jsonl"
    if path.exists():
        return path
    log(f"writing {path} ({copies} copies of {corpus.name})…")
    donors = donor_words(read_records(corpus))
    part = path.with_suffix(".part")
    with open(part, "w", encoding="utf-8") as f:
        for copy in range(copies):
            for i, r in enumerate(read_records(corpus)):
                f.write(json.dumps(r if copy == 0 else perturb(r, copy, i, donors, seed), ensure_ascii=False) + "\n")
    part.replace(path)
    return path


def distinct_check(corpus: Path, copies: int, seed: int = SEED, every: int = 10) -> dict[str, int]:
    """The duplicate rules' verdict on every `every`-th record against each of its copies (readinglist's
    own importers.duplicates.compare): how many pairs are the same paper, possibly the same, distinct."""
    from readinglist import markup
    from readinglist.importers.duplicates import Candidate, compare

    def candidate(r: dict) -> Candidate:
        return Candidate(markup.title_plain(r.get("title") or ""), list(r.get("authors") or []), r.get("year"),
                         r.get("venue") or "", markup.to_plain(r.get("abstract") or ""))  # fmt: skip

    records = list(read_records(corpus))
    donors = donor_words(records)
    counts = {"same": 0, "possible": 0, "distinct": 0}
    for i in range(0, len(records), every):
        for copy in range(1, copies):
            verdict, _ = compare(candidate(records[i]), candidate(perturb(records[i], copy, i, donors, seed)))
            counts[verdict.value] += 1
    return counts


# ---- growth ------------------------------------------------------------------------------------------


def exponent(n1: float, y1: float, n2: float, y2: float) -> float:
    """k in y ∝ nᵏ between two library sizes."""
    return math.log(y2 / y1) / math.log(n2 / n1)


def n_log_n_exponent(n1: float, n2: float) -> float:
    """The exponent n log n shows between the two sizes (a little over 1)."""
    return math.log((n2 * math.log(n2)) / (n1 * math.log(n1))) / math.log(n2 / n1)


def exponents(points: Sequence[tuple[int, float]], runs: dict[int, Sequence[float]] | None = None) -> list[dict]:
    """Between each pair of consecutive sizes (sorted): the fitted exponent, n log n's, and whether the
    measure grows faster than n log n there. Sizes or values ≤ 0 (or missing) are skipped. `runs`: for a size
    measured more than once in the run, every value: the exponent's range over them ("low", "high": the
    slowest run at the smaller size against the fastest at the larger, and the other way round) is the
    run's own noise, and a measure is flagged only if even its lowest exponent is beyond n log n's."""
    pts = sorted((n, y) for n, y in points if n > 1 and y is not None and y == y and y > 0)
    runs = runs or {}
    out = []
    for (n1, y1), (n2, y2) in itertools.pairwise(pts):
        if n2 == n1:
            continue
        k, ref = exponent(n1, y1, n2, y2), n_log_n_exponent(n1, n2)
        ys1 = [y for y in runs.get(n1, ()) if y > 0] or [y1]
        ys2 = [y for y in runs.get(n2, ()) if y > 0] or [y2]
        low, high = exponent(n1, max(ys1), n2, min(ys2)), exponent(n1, min(ys1), n2, max(ys2))
        low, high = min(low, k), max(high, k)
        out.append({"from": n1, "to": n2, "exponent": round(k, 2), "n_log_n": round(ref, 2),
                    "low": round(low, 2), "high": round(high, 2), "faster": low > ref})  # fmt: skip
    return out
