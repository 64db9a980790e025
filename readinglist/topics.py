"""Topics: the library grouped by what its papers are about, each group named by the phrases its papers use
more than the rest of the library does, and each keeping its id across recomputes where its papers stay.

Papers → tf-idf over words and two-word phrases → LSA vectors (textvectors) → spherical k-means (cosine),
warm-started from the previous topics → names from the two- and three-word phrases scoring highest by
p(phrase | topic) · log(p(phrase | topic) / p(phrase)) → ids matched to the previous topics' → the map
(library_map). numpy only; `topics_job` runs it in a child process so that the window never waits on it.

Over 400 lines: the pipeline's steps pass large arrays along; the vectors and phrases live in textvectors
and keyphrases, the child process in topics_job, the map in library_map.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from readinglist import library_map
from readinglist.keyphrases import Vocabulary, written_forms
from readinglist.textvectors import Features, build_features, lsa, read_corpus

DIMS = 100  # latent dimensions of a paper's vector (chosen on ICLR 2021, see performance-changes.md)
MAX_ITER = 50
MIN_TOPIC = 3  # a cluster smaller than this is dissolved into its papers' next-best topics
NAME_PHRASES = 3  # a topic is named by up to this many phrases (at least two where it has them)
STICKY = 0.03  # a recompute moves a paper only if another topic is closer by this much cosine similarity
K_SLACK = 0.1  # a library grown so little that the topic count moves by less than this share keeps it
KEEP_SHARE = 0.5  # a new topic keeps an old one's id when it holds more than this share of either's papers
MIN_LIFT = 3.0  # a naming phrase is this many times more common in its topic than in the library
SAMPLES_PER_PHRASE = 12  # papers read to see how a naming phrase is written
# a paper whose abstract has fewer words than this (title only, "Abstract Unavailable", a cut line) has too
# little text to say its topic: it gets none, and a grey dot on the map by the papers it resembles (its title
# alone had it named with confidence: a trial); unless most of the library is titles alone, when its topics
# can only come from titles
MIN_ABSTRACT_WORDS = 6
TITLES_MARGIN = (
    0.1  # a recompute changes whether titles alone count only once the share described is this far past half
)
Texts = Callable[[Sequence[int]], list[tuple[str, str]]]  # paper ids → (title, abstract) of each
Progress = Callable[[float, str], None]  # (share done, what is being done)
STAGES = {"read": 0.0, "features": 0.35, "lsa": 0.6, "cluster": 0.72, "name": 0.9, "map": 0.96}


def count_cap(n: int) -> int:
    """The most topics asked for that `n` papers are grouped into: one per 5 papers, at least 2 (`topics
    --count 50` on 26 papers made 23 topics of one paper each, unnamed: a trial)."""
    return max(2, n // 5)


def topic_count(n: int) -> int:
    """About 10–80 topics by library size: one per ~10 papers in a small library, 0.7·√n beyond (3,000
    papers → 38, 8,000 → 63), never more than 80."""
    if n < 2:
        return 0
    if n < 150:
        return max(1, min(10, round(n / 10)))
    return int(min(80, max(10, round(0.7 * math.sqrt(n)))))


@dataclass
class ComputedTopic:
    id: int
    phrases: list[str]
    size: int
    x: float = 0.0  # where its name goes on the map
    y: float = 0.0

    @property
    def label(self) -> str:
        return " · ".join(self.phrases)


@dataclass
class Previous:
    """What the last computation stored: whose topic each paper was, the topics' names and map places."""

    paper_ids: np.ndarray  # int64
    topic_ids: np.ndarray  # int64, aligned
    phrases: dict[int, list[str]] = field(default_factory=dict)
    centres: dict[int, tuple[float, float]] = field(default_factory=dict)
    next_id: int = 1


@dataclass
class TopicsResult:
    paper_ids: np.ndarray  # int64: the papers on the map (a paper with no words is not)
    topic_ids: np.ndarray  # int64, aligned: −1 for a paper with too little text to have a topic
    xy: np.ndarray  # float32 (n, 2): each paper's place on the map
    topics: list[ComputedTopic]  # largest first
    next_id: int  # the next new topic's id (ids are never reused)
    seconds: dict[str, float] = field(default_factory=dict)
    papers_read: int = 0


def compute(
    rows: Iterable[tuple[int, str, str]],
    texts_of: Texts,
    previous: Previous | None = None,
    count: int | None = None,
    progress: Progress | None = None,
    seed: int = 0,
    expected: int = 0,
) -> TopicsResult:
    """Topics and the map for (paper id, title, abstract) rows. `texts_of` gives back a few papers' texts
    (to see how the naming phrases are written); `previous` makes ids and map places carry over; `expected`
    (the number of rows, if known) makes the progress of reading them finer."""
    report = progress or (lambda share, message: None)

    def tell(message: str, stage: str = "read") -> None:
        report(STAGES[stage], message)

    def read(done: int) -> None:
        report(STAGES["features"] * min(done / expected, 1.0) if expected else 0.0, f"read {done:,} papers")

    seconds: dict[str, float] = {}
    clock = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        seconds[name] = round(now - clock, 3)
        clock = now

    corpus = read_corpus(rows, read)
    abstract_words = corpus.abstract_words()
    lap("read")
    tell(f"{corpus.size:,} papers read; weighing words and phrases", "features")
    features = build_features(corpus, lambda message: tell(message, "features"))
    stems = corpus.vocab.stems
    paper_ids = corpus.paper_ids
    corpus.release_text()
    lap("features")
    has_text = ~features.empty_rows()
    described = has_text & (abstract_words >= MIN_ABSTRACT_WORDS)
    if _titles_only(paper_ids, has_text, described, previous):  # its topics can only come from titles
        described = has_text
    usable = np.flatnonzero(described)
    unsorted = np.flatnonzero(has_text & ~described)  # too little text: no topic, a place by their likes
    del abstract_words, has_text, described
    k = min(count if count is not None else topic_count(len(usable)), len(usable))
    if count is not None:
        k = min(k, count_cap(len(usable)))
    if k < 1:
        return TopicsResult(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, 2), np.float32), [],
                            previous.next_id if previous else 1, seconds, corpus.size)  # fmt: skip
    tell("finding the latent dimensions", "lsa")
    vectors = lsa(features, DIMS, seed=seed)
    lap("lsa")
    tell(f"grouping {len(usable):,} papers into {k} topics", "cluster")
    x = vectors[usable]
    loose = vectors[unsorted]
    del vectors
    old = _previous_rows(paper_ids[usable], previous)
    init, sticky = _warm_start(x, old) if old is not None else (None, None)
    if init is not None and count is None and abs(k - len(init)) <= max(2, K_SLACK * len(init)):
        k = len(init)  # a library grown a little keeps its number of topics: fewer papers move
    runs = 1 if init is not None or len(x) > 20_000 else 3  # the best of three where it is cheap
    labels, centroids = spherical_kmeans(x, k, init=init, seed=seed, n_init=runs, sticky=sticky)
    labels, centroids = _dissolve_small(x, labels, centroids)
    lap("cluster")
    ids, next_id = match_ids(labels, old, previous.next_id if previous else 1)
    tell("naming topics", "name")
    rows_of = usable  # cluster labels are over usable rows; features are over all rows
    full_labels = np.full(features.n_docs, -1, np.int64)
    full_labels[rows_of] = labels
    old_names = {int(i): previous.phrases.get(int(i), []) for i in ids} if previous else {}
    names = name_topics(full_labels, len(centroids), features, stems, paper_ids, texts_of, old_names, ids)
    features.release_matrix()
    lap("name")
    tell("laying out the map", "map")
    sizes = np.bincount(labels, minlength=len(centroids))
    old_centres = previous.centres if previous else {}
    if len(unsorted):  # placed among the papers of the topic they resemble most, without joining it
        x = np.concatenate([x, loose])
        placed_by = np.concatenate([labels, np.argmax(loose @ centroids.T, axis=1)])
    else:
        placed_by = labels
    del loose
    xy, centres = library_map.layout(x, placed_by, centroids, [int(i) for i in ids], old_centres, seed=seed)
    lap("map")
    topics = [
        ComputedTopic(int(ids[c]), names[c], int(sizes[c]), float(centres[c, 0]), float(centres[c, 1]))
        for c in range(len(centroids))
    ]
    topics.sort(key=lambda t: (-t.size, t.id))
    on_map = np.concatenate([paper_ids[usable], paper_ids[unsorted]])
    topic_ids = np.concatenate([ids[labels], np.full(len(unsorted), -1, np.int64)])
    return TopicsResult(on_map, topic_ids, xy, topics, next_id, seconds, corpus.size)


def _titles_only(paper_ids: np.ndarray, has_text: np.ndarray, described: np.ndarray, previous: Previous | None) -> bool:
    """Whether the library is one of titles (most papers with too little abstract), its topics then made of
    titles too. Half is the line; a recompute keeps the previous computation's side of it until the share moves
    TITLES_MARGIN past it: a library near half (a venue without abstracts beside one with) went from 20,760
    papers in topics to 13,910 — every short one let go — on a recompute with hardly a paper changed (a trial)."""
    share = described.sum() / max(int(has_text.sum()), 1)
    short = paper_ids[has_text & ~described]
    if previous is None or not len(previous.paper_ids) or not len(short):
        return bool(share < 0.5)
    then = short[short <= previous.paper_ids.max()]  # (about) the short papers there at the previous computation
    placed = _previous_rows(then, previous) if len(then) else None
    before = placed is not None and bool(
        (placed >= 0).sum() > 0.5 * len(then)
    )  # most of them had a topic: titles counted then
    return bool(share < 0.5 + TITLES_MARGIN) if before else bool(share < 0.5 - TITLES_MARGIN)


# ---- clustering -------------------------------------------------------------------------------------


def spherical_kmeans(
    x: np.ndarray,
    k: int,
    init: np.ndarray | None = None,
    seed: int = 0,
    n_init: int = 1,
    max_iter: int = MAX_ITER,
    sticky: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """k-means on the unit sphere (cosine similarity) of unit rows x: labels and unit centroids. Seeded by
    `init` (rows may be fewer than k: the rest are chosen by k-means++), the best of n_init runs otherwise.
    `sticky` (a row's cluster in `init`, or −1) keeps a row where it was unless another cluster is closer by
    more than STICKY: a recompute moves the papers that changed, not those on a border."""
    rng = np.random.default_rng(seed)
    best: tuple[float, np.ndarray, np.ndarray] | None = None
    for _ in range(max(1, n_init)):
        centres = _kmeanspp(x, k, rng, init)
        labels, centres, score = _lloyd(x, centres, max_iter, sticky)
        if best is None or score > best[0]:
            best = (score, labels, centres)
    assert best is not None
    return best[1], best[2]


def _kmeanspp(x: np.ndarray, k: int, rng: np.random.Generator, fixed: np.ndarray | None) -> np.ndarray:
    """Greedy k-means++ seeding (Arthur and Vassilvitskii 2007; several candidates a step, the one that
    lowers the potential most kept, as scikit-learn does) with cosine distance, on ≤ 20,000 papers."""
    sample = x[rng.choice(len(x), 20_000, replace=False)] if len(x) > 20_000 else x
    centres = list(fixed[:k]) if fixed is not None and len(fixed) else [sample[rng.integers(len(sample))]]
    closest = np.max(sample @ np.asarray(centres).T, axis=1)
    trials = 2 + int(math.log(max(k, 1)))
    while len(centres) < k:
        weight = np.maximum(1.0 - closest, 0.0).astype(np.float64)
        total = weight.sum()
        if total <= 0:
            picks = rng.integers(len(sample), size=trials)
        else:
            picks = rng.choice(len(sample), size=trials, p=weight / total)
        options = np.maximum(closest[:, None], sample @ sample[picks].T)  # closeness with each candidate
        best = int(np.argmax(options.sum(axis=0)))  # the least potential left
        centres.append(sample[picks[best]])
        closest = options[:, best]
    return np.asarray(centres, dtype=np.float32)


def _lloyd(
    x: np.ndarray, centres: np.ndarray, max_iter: int, sticky: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, float]:
    k = len(centres)
    labels = np.full(len(x), -1, np.int64)
    held = np.flatnonzero((sticky >= 0) & (sticky < k)) if sticky is not None else np.zeros(0, np.int64)
    for _ in range(max_iter):
        sims = x @ centres.T
        if sticky is not None and len(held):
            sims[held, sticky[held]] += STICKY
        new = sims.argmax(axis=1)
        fit = sims[np.arange(len(x)), new]
        del sims
        moved = int((new != labels).sum())
        labels = new
        sums = np.zeros_like(centres)
        np.add.at(sums, labels, x)
        counts = np.bincount(labels, minlength=k)
        empty = np.flatnonzero(counts == 0)
        if len(empty):  # restart an empty cluster at the papers fitting their own topic worst
            worst = np.argsort(fit)[: len(empty)]
            sums[empty] = x[worst]
            labels[worst] = empty
            moved += len(empty)
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        centres = (sums / np.where(norms > 0, norms, 1.0)).astype(np.float32)
        if moved <= max(1, len(x) // 2000):
            break
    score = float(np.sum(np.max(x @ centres.T, axis=1)))
    return labels, centres, score


def _dissolve_small(x: np.ndarray, labels: np.ndarray, centroids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Clusters of fewer than MIN_TOPIC papers are not topics: their papers go to their next-best topic."""
    counts = np.bincount(labels, minlength=len(centroids))
    keep = np.flatnonzero(counts >= MIN_TOPIC)
    if len(keep) == len(centroids) or not len(keep):
        return labels, centroids
    centroids = centroids[keep]
    return np.argmax(x @ centroids.T, axis=1), centroids


def _previous_rows(paper_ids: np.ndarray, previous: Previous | None) -> np.ndarray | None:
    """Each row's previous topic id (−1: none), or None when there is nothing to carry over."""
    if previous is None or not len(previous.paper_ids):
        return None
    order = np.argsort(previous.paper_ids)
    known, topic = previous.paper_ids[order], previous.topic_ids[order]
    at = np.clip(np.searchsorted(known, paper_ids), 0, len(known) - 1)
    return np.where(known[at] == paper_ids, topic[at], -1)


def _warm_start(x: np.ndarray, old: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The previous topics' centres in today's vectors (the mean of their papers), largest first, and each
    row's index among them (−1: a new paper): k-means started there, with papers held where they were
    (see spherical_kmeans), ends near the previous topics, so a recompute does not reshuffle them."""
    has = old >= 0
    ids, inverse = np.unique(old[has], return_inverse=True)
    sums = np.zeros((len(ids), x.shape[1]), np.float32)
    np.add.at(sums, inverse, x[has])
    counts = np.bincount(inverse, minlength=len(ids))
    order = np.argsort(-counts, kind="stable")
    order = order[counts[order] >= MIN_TOPIC]
    if not len(order):
        return None, None
    position = np.full(len(ids), -1, np.int64)
    position[order] = np.arange(len(order))
    sticky = np.full(len(x), -1, np.int64)
    sticky[has] = position[inverse]
    norms = np.linalg.norm(sums[order], axis=1, keepdims=True)
    return (sums[order] / np.where(norms > 0, norms, 1.0)).astype(np.float32), sticky


def match_ids(labels: np.ndarray, old: np.ndarray | None, next_id: int) -> tuple[np.ndarray, int]:
    """A topic id for each cluster: an old topic's where the cluster holds more than KEEP_SHARE of that
    topic's papers or more than KEEP_SHARE of its own papers came from it (largest overlaps first, each old
    id used once); a new id otherwise. Returns the ids and the next unused id."""
    k = int(labels.max()) + 1 if len(labels) else 0
    ids = np.full(k, -1, np.int64)
    if old is not None and (old >= 0).any():
        had = old >= 0
        pairs, overlap = np.unique(np.stack([labels[had], old[had]], axis=1), axis=0, return_counts=True)
        new_size = np.bincount(labels[had], minlength=k)
        old_ids, old_size = np.unique(old[had], return_counts=True)
        old_size_of = dict(zip(old_ids.tolist(), old_size.tolist(), strict=True))
        taken: set[int] = set()
        for at in np.argsort(-overlap, kind="stable"):
            cluster, topic, shared = int(pairs[at, 0]), int(pairs[at, 1]), int(overlap[at])
            if ids[cluster] >= 0 or topic in taken:
                continue
            if shared > KEEP_SHARE * old_size_of[topic] or shared > KEEP_SHARE * new_size[cluster]:
                ids[cluster] = topic
                taken.add(topic)
        next_id = max(next_id, int(old_ids.max()) + 1)
    for cluster in np.flatnonzero(ids < 0).tolist():
        ids[cluster] = next_id
        next_id += 1
    return ids, next_id


# ---- naming -----------------------------------------------------------------------------------------


def name_topics(
    labels: np.ndarray,
    k: int,
    f: Features,
    stems: Sequence[str],
    paper_ids: np.ndarray,
    texts_of: Texts,
    old_names: dict[int, list[str]],
    ids: np.ndarray,
) -> list[list[str]]:
    """Each cluster's name: 2–3 phrases of two or three words, chosen by score (see the module's docstring),
    a longer phrase preferred to a shorter one inside it when nearly as common, no two sharing a word; words
    only where a small topic has too few phrases. A topic that kept its id keeps its old name while those
    phrases are still among its best."""
    n = f.n_docs
    sizes = np.bincount(labels[labels >= 0], minlength=k)
    phrase_keys = [tuple(stems[s] for s in row if s) for row in f.phrase_stems.tolist()]
    table, counts = _cluster_counts(labels, f.phrase_indptr, f.phrase_indices, len(phrase_keys))
    word_df = f.feature_df[: f.n_words]
    word_tables: list[tuple[np.ndarray, np.ndarray]] = []  # made only if a topic needs words: the peak otherwise
    ranked: list[list[tuple[tuple[str, ...], int, float]]] = []
    for c in range(k):
        found = [
            (phrase_keys[p], dfc, sc)
            for p, dfc, sc in _ranked(table, counts, c, len(phrase_keys), f.phrase_df, sizes[c], n)
        ]
        if len({key for key, _, _ in found}) < 4:  # a small topic: words may help
            if not word_tables:
                word_tables.append(_cluster_counts(labels, f.indptr, f.indices, f.n_features, below=f.n_words))
            word_table, word_counts = word_tables[0]
            words = _ranked(word_table, word_counts, c, f.n_features, word_df, sizes[c], n)
            found += [((stems[int(f.word_stems[w])],), dfc, sc) for w, dfc, sc in words]
        ranked.append(found)
    # a phrase names one topic only, the one it scores best in: names tell topics apart
    banned: list[set[tuple[str, ...]]] = [set() for _ in range(k)]
    chosen: list[list[tuple[str, ...]]] = []
    for _ in range(4):
        chosen = []
        for c in range(k):
            old = [_stem_phrase(p) for p in old_names.get(int(ids[c]), [])]
            best = {key for key, _, _ in ranked[c][:15]}
            if old and all(o in best for o in old):
                chosen.append(old)
                continue
            candidates = [(key, dfc) for key, dfc, _ in ranked[c] if key not in banned[c]]
            chosen.append(_pick(candidates, allow_words=len([1 for key, _ in candidates if len(key) > 1]) < 2))
        users: dict[tuple[str, ...], list[int]] = {}
        for c, picked in enumerate(chosen):
            for key in picked:
                users.setdefault(key, []).append(c)
        clashes = {key: cs for key, cs in users.items() if len(cs) > 1}
        if not clashes:
            break
        for key, cs in clashes.items():
            score = {
                c: next(sc for kk, _, sc in ranked[c] if kk == key) if any(kk == key for kk, _, _ in ranked[c]) else 0.0
                for c in cs
            }
            keeper = max(cs, key=lambda c: (score[c], -c))
            for c in cs:
                if c != keeper:
                    banned[c].add(key)
    # a topic with no phrase or word of two of its papers (one of one paper, or of papers that share no
    # words) is named by its best words all the same: 23 topics had blank names (a trial)
    for c in range(k):
        if chosen[c]:
            continue
        if not word_tables:
            word_tables.append(_cluster_counts(labels, f.indptr, f.indices, f.n_features, below=f.n_words))
        word_table, word_counts = word_tables[0]
        phrases = _ranked_at(table, counts, c, len(phrase_keys), f.phrase_df, sizes[c], n, 1.0, floor=1)
        words = _ranked_at(word_table, word_counts, c, f.n_features, word_df, sizes[c], n, 1.0, floor=1)
        loose = [(phrase_keys[p], dfc) for p, dfc, _ in phrases]
        loose += [((stems[int(f.word_stems[w])],), dfc) for w, dfc, _ in words]
        chosen[c] = _pick([(key, dfc) for key, dfc in loose if key], allow_words=True)[:2]
    # how the phrases are written: a few papers of the topic that use each
    key_index = {key: i for i, key in enumerate(phrase_keys)}
    word_index = {(stems[int(s)],): i for i, s in enumerate(f.word_stems.tolist())}
    sample_rows: dict[tuple[int, tuple[str, ...]], np.ndarray] = {}
    for c, picked in enumerate(chosen):
        members = np.flatnonzero(labels == c)
        for key in picked:
            if key in key_index:
                rows = _rows_with(members, f.phrase_indptr, f.phrase_indices, key_index[key])
            elif key in word_index:
                rows = _rows_with(members, f.indptr, f.indices, word_index[key])
            else:
                rows = members
            sample_rows[(c, key)] = rows[:SAMPLES_PER_PHRASE]
    needed = sorted({int(r) for rows in sample_rows.values() for r in rows.tolist()})
    texts = dict(zip(needed, texts_of([int(paper_ids[r]) for r in needed]), strict=True))
    names: list[list[str]] = []
    for c, picked in enumerate(chosen):
        written: dict[tuple[str, ...], str] = {}
        for key in picked:
            forms = written_forms([key], [texts[int(r)] for r in sample_rows[(c, key)]])
            written[key] = forms.get(key) or " ".join(key)
        names.append(_uncontained([written[key] for key in picked]) or [f"Topic {int(ids[c])}"])
    return names


def _uncontained(phrases: list[str]) -> list[str]:
    """The phrases without one that another holds whole: a cut phrase shown going on ("multimodal large language
    models", keyphrases.written_forms) holds the "large language models" chosen beside it; a hyphen counts as a
    space ("retrieval augmented generation" holds "Retrieval-Augmented generation")."""
    padded = [f" {p.lower().replace('-', ' ')} " for p in phrases]
    return [
        p
        for i, (p, mine) in enumerate(zip(phrases, padded, strict=True))
        if not any(mine in o and (mine != o or j < i) for j, o in enumerate(padded) if j != i)  # the first of equals
    ]


def _cluster_counts(
    labels: np.ndarray, indptr: np.ndarray, indices: np.ndarray, width: int, below: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Papers of each cluster having each column: sorted keys cluster·width + column, and their counts."""
    rows = np.repeat(labels, np.diff(indptr))
    cols = indices.astype(np.int64)
    ok = rows >= 0 if below is None else (rows >= 0) & (cols < below)
    return np.unique(rows[ok] * width + cols[ok], return_counts=True)


def _ranked(
    table: np.ndarray, counts: np.ndarray, c: int, width: int, df: np.ndarray, size: int, n: int
) -> list[tuple[int, int, float]]:
    """(column, papers in the cluster, score) of a cluster's candidates, best first: those at least
    MIN_LIFT times as common in the cluster as in the library, or (a cluster with fewer than four) less."""
    for lift in (MIN_LIFT, 1.5, 1.0):
        found = _ranked_at(table, counts, c, width, df, size, n, lift)
        if len(found) >= 4 or lift == 1.0:
            return found
    return []


def _ranked_at(
    table: np.ndarray,
    counts: np.ndarray,
    c: int,
    width: int,
    df: np.ndarray,
    size: int,
    n: int,
    lift: float,
    floor: int | None = None,
) -> list[tuple[int, int, float]]:
    lo, hi = np.searchsorted(table, [c * width, (c + 1) * width])
    cols = table[lo:hi] - c * width
    dfc = counts[lo:hi]
    floor = max(2, math.ceil(0.02 * size)) if floor is None else floor
    inside = dfc / max(size, 1)
    overall = df[cols] / max(n, 1)
    ok = (dfc >= floor) & (inside >= lift * overall)  # "machine learning" is everywhere: no name
    cols, dfc, inside, overall = cols[ok], dfc[ok], inside[ok], overall[ok]
    score = inside * np.log(inside / overall) + 1e-9 * inside  # a phrase of every paper still scores
    order = np.argsort(-score, kind="stable")[:60]
    return [(int(cols[i]), int(dfc[i]), float(score[i])) for i in order if score[i] > 0]


def _pick(candidates: list[tuple[tuple[str, ...], int]], allow_words: bool = False) -> list[tuple[str, ...]]:
    """Greedy: the best candidate, replaced by a longer one containing it that most of its papers use; then
    the next that shares no word with those chosen (any word, if that leaves fewer than two)."""
    by_key = dict(candidates)
    longer: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    for key, _ in candidates:
        if len(key) == 3:
            longer.setdefault(key[:2], []).append(key)
            longer.setdefault(key[1:], []).append(key)
    picked: list[tuple[str, ...]] = []
    for strict in (True, False):
        for key, dfc in candidates:
            if len(picked) >= NAME_PHRASES:
                break
            if len(key) == 1 and not allow_words:
                continue
            for ext in sorted(longer.get(key, []), key=lambda e: -by_key[e]):
                if by_key[ext] >= 0.6 * dfc:
                    key = ext
                    break
            if key in picked or any(_contains(key, p) or _contains(p, key) for p in picked):
                continue
            if strict and any(set(key) & set(p) for p in picked):
                continue
            picked.append(key)
        if len(picked) >= 2:
            break
    return picked


def _contains(long: tuple[str, ...], short: tuple[str, ...]) -> bool:
    n = len(short)
    return n <= len(long) and any(long[i : i + n] == short for i in range(len(long) - n + 1))


def _rows_with(members: np.ndarray, indptr: np.ndarray, indices: np.ndarray, col: int) -> np.ndarray:
    """The member rows whose row of a CSR pattern has `col`."""
    lengths = np.diff(indptr)[members]
    owner = np.repeat(members, lengths)
    take = np.repeat(indptr[members] - np.cumsum(np.r_[0, lengths[:-1]]), lengths) + np.arange(int(lengths.sum()))
    return np.unique(owner[indices[take] == col])


_VOCAB = Vocabulary()


def _stem_phrase(text: str) -> tuple[str, ...]:
    """A stored phrase's stems, to compare with today's candidates."""
    return tuple(s for s in (_VOCAB.stem_of(w) for w in text.split()) if s)
