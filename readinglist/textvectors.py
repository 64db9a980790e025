"""Papers as vectors, for topics and the map: tf-idf over words and two-word phrases, reduced by a randomized
SVD (latent semantic analysis), and the phrases (two and three words) topics are named by.

numpy only: scikit-learn and SciPy would do this in fewer lines, but they take the bundle over its size limit
(measured in docs/performance-changes.md). Everything is chunked by papers so that memory follows the chunk, not the
library, and the work is whole-array numpy calls (sorts, gathers, matrix products) rather than per-word
Python; the one per-word loop is `read_corpus` (a dictionary look-up per word).

Over 400 lines: the tf-idf, the randomized SVD and the phrase tables share one chunked pass over the papers.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from readinglist.keyphrases import FIRST_ID, SENTENCE, Vocabulary

CHUNK_TOKENS = 500_000  # stream positions handled at once: the temporaries follow it, not the library
GATHER_FLOATS = 8_000_000  # floats gathered at once by a sparse × dense product
MAX_FEATURES = 60_000  # the most frequent words and phrases kept as tf-idf features
MAX_DF_SHARE = 0.5  # a feature in more than this share of papers says nothing about a topic
TITLE_WEIGHT = 2.0  # a title word counts as much as this many abstract words


@dataclass
class Corpus:
    """Every paper's title and abstract as one stream of surface ids (see keyphrases.Vocabulary)."""

    paper_ids: np.ndarray  # int64 (n,)
    stream: np.ndarray  # uint32: title, SENTENCE, abstract, SENTENCE, for each paper in turn
    starts: np.ndarray  # int64 (n + 1,): where each paper's part of the stream starts
    abstract_starts: np.ndarray  # int64 (n,): where its abstract starts
    vocab: Vocabulary
    surface_stem: np.ndarray  # uint32: surface id → stem id

    @property
    def size(self) -> int:
        return len(self.paper_ids)

    def stems(self, lo: int = 0, hi: int | None = None) -> np.ndarray:
        return self.surface_stem[self.stream[lo:hi]]

    def abstract_words(self) -> np.ndarray:
        """Each paper's words in its abstract (stop words, numbers and punctuation not counted): int64 (n,).
        Read before `release_text`."""
        words = np.zeros(len(self.stream) + 1, np.int64)
        np.cumsum(self.stream >= FIRST_ID, out=words[1:])
        return words[self.starts[1:]] - words[self.abstract_starts]

    def release_text(self) -> None:
        """Drop the stream and the word look-up once the features are built (most of the memory by then); the
        stems stay, to name phrases."""
        self.stream = np.zeros(0, np.uint32)
        self.surface_stem = np.zeros(0, np.uint32)
        self.vocab.release()


def read_corpus(rows: Iterable[tuple[int, str, str]], progress: Callable[[int], None] | None = None) -> Corpus:
    """(paper id, title, abstract) rows → a Corpus; the only loop over words in Python. A run of breaks is
    kept as its last one (they mean the same to phrases), which shortens the stream by a third."""
    vocab = Vocabulary()
    encode = vocab.encode
    pending = array("I")
    pending_starts = array("q", [0])
    pending_abstracts = array("q")
    ids = array("q")
    parts: list[np.ndarray] = []
    starts: list[np.ndarray] = []
    abstracts: list[np.ndarray] = []
    total = 0

    def flush() -> None:
        nonlocal pending, pending_starts, pending_abstracts, total
        if len(pending_starts) == 1:
            return
        stream = np.frombuffer(pending, dtype=np.uint32)
        doc_starts = np.frombuffer(pending_starts, dtype=np.int64)
        abstract_starts = np.frombuffer(pending_abstracts, dtype=np.int64)
        brk = stream < FIRST_ID
        keep = np.ones(len(stream), bool)
        keep[:-1] = ~(brk[:-1] & brk[1:])
        keep[doc_starts[1:] - 1] = True  # each part's closing SENTENCE stays, so parts stay apart
        keep[abstract_starts - 1] = True
        before = np.zeros(len(stream) + 1, np.int64)  # kept positions before each position
        np.cumsum(keep, out=before[1:])
        parts.append(stream[keep])
        starts.append(before[doc_starts[:-1]] + total)
        abstracts.append(before[abstract_starts] + total)
        total += int(keep.sum())
        pending, pending_starts, pending_abstracts = array("I"), array("q", [0]), array("q")

    for i, (pid, title, abstract) in enumerate(rows):
        ids.append(pid)
        pending.extend(encode(title))
        pending.append(SENTENCE)
        pending_abstracts.append(len(pending))
        pending.extend(encode(abstract))
        pending.append(SENTENCE)
        pending_starts.append(len(pending))
        if len(pending) > CHUNK_TOKENS:
            flush()
        if progress is not None and i % 5000 == 4999:
            progress(i + 1)
    flush()
    return Corpus(
        paper_ids=np.frombuffer(ids, dtype=np.int64).copy() if ids else np.zeros(0, np.int64),
        stream=np.concatenate(parts) if parts else np.zeros(0, np.uint32),
        starts=np.concatenate([*starts, np.array([total], np.int64)]),
        abstract_starts=np.concatenate(abstracts) if abstracts else np.zeros(0, np.int64),
        vocab=vocab,
        surface_stem=np.asarray(vocab.surface_stem, dtype=np.uint32),
    )


@dataclass
class Features:
    """Papers × features as a CSR matrix of tf-idf weights (rows of unit length), and papers × phrases (two and
    three words) as a 0/1 CSR pattern for naming topics."""

    n_docs: int
    n_words: int  # features 0..n_words−1 are words (word_stems), the rest two-word phrases
    word_stems: np.ndarray  # int32 (n_words,)
    indptr: np.ndarray  # int64 (n + 1,)
    indices: np.ndarray  # int32
    data: np.ndarray  # float32
    feature_df: np.ndarray  # int32: papers with each feature
    phrase_stems: np.ndarray  # int32 (P, 3): a phrase's stem ids, 0 where it is shorter
    phrase_df: np.ndarray  # int32 (P,)
    phrase_indptr: np.ndarray  # int64 (n + 1,)
    phrase_indices: np.ndarray  # int32

    @property
    def n_features(self) -> int:
        return len(self.feature_df)

    def empty_rows(self) -> np.ndarray:
        return np.diff(self.indptr) == 0

    def release_matrix(self) -> None:
        """Drop the tf-idf matrix once it is no longer needed (the phrase pattern stays)."""
        self.indices = np.zeros(0, np.int32)
        self.data = np.zeros(0, np.float32)
        self.indptr = np.zeros(self.n_docs + 1, np.int64)


def _chunks(corpus: Corpus, max_tokens: int = CHUNK_TOKENS) -> Iterable[tuple[int, int]]:
    """Ranges of papers whose streams hold about max_tokens positions."""
    n = corpus.size
    lo = 0
    while lo < n:
        hi = int(np.searchsorted(corpus.starts, corpus.starts[lo] + max_tokens, side="right")) - 1
        hi = min(max(hi, lo + 1), n)
        yield lo, hi
        lo = hi


def _positions(corpus: Corpus, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For papers lo..hi: their stem stream, each position's paper (as an index from lo), its weight."""
    p0, p1 = int(corpus.starts[lo]), int(corpus.starts[hi])
    s = corpus.stems(p0, p1).astype(np.int64)
    lengths = np.diff(corpus.starts[lo : hi + 1])
    doc = np.repeat(np.arange(hi - lo, dtype=np.int64), lengths)
    title_len = corpus.abstract_starts[lo:hi] - corpus.starts[lo:hi]
    offset = np.arange(p1 - p0, dtype=np.int64) - np.repeat(corpus.starts[lo:hi] - p0, lengths)
    weight = np.where(offset < np.repeat(title_len, lengths), TITLE_WEIGHT, 1.0).astype(np.float32)
    return s, doc, weight


def _once_per_paper(doc: np.ndarray, key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (paper, key) pairs, sorted by paper then key."""
    order = np.lexsort((key, doc))
    doc, key = doc[order], key[order]
    first = np.ones(len(key), bool)
    first[1:] = (key[1:] != key[:-1]) | (doc[1:] != doc[:-1])
    return doc[first], key[first]


def _add_counts(
    keys: np.ndarray, counts: np.ndarray, more: np.ndarray, more_counts: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Two sorted key → count tables added into one."""
    merged, inverse = np.unique(np.concatenate([keys, more]), return_inverse=True)
    return merged, np.bincount(inverse, weights=np.concatenate([counts, more_counts]), minlength=len(merged)).astype(
        np.int64
    )


def build_features(
    corpus: Corpus, progress: Callable[[str], None] | None = None, max_features: int = MAX_FEATURES
) -> Features:
    """tf-idf (sublinear tf, smooth idf, unit rows) over the words and two-word phrases found in at least two
    papers and at most half of them, the most frequent max_features of them; and the phrase pattern.

    Three passes over the stream, a chunk of papers at a time: count, weigh, find the naming phrases."""
    n = corpus.size
    n_stems = max(len(corpus.vocab.stems), FIRST_ID)
    base = np.int64(n_stems)
    # pass 1: document frequencies of words and of two-word phrases
    word_df = np.zeros(n_stems, np.int64)
    pairs, pair_df = np.zeros(0, np.int64), np.zeros(0, np.int64)
    for lo, hi in _chunks(corpus):
        s, doc, _ = _positions(corpus, lo, hi)
        content = s >= FIRST_ID
        word_df += np.bincount(np.unique(doc[content] * base + s[content]) % base, minlength=n_stems)
        both = content[:-1] & content[1:]
        _, once = _once_per_paper(doc[:-1][both], (s[:-1] * base + s[1:])[both])
        pairs, pair_df = _add_counts(pairs, pair_df, *np.unique(once, return_counts=True))
    if progress is not None:
        progress(f"counted {int((word_df > 0).sum()):,} words and {len(pairs):,} phrases")

    # the features: frequent enough to recur, rare enough to tell topics apart
    max_df = max(2, int(MAX_DF_SHARE * n))
    word_ok = np.flatnonzero((word_df >= 2) & (word_df <= max_df))
    pair_ok = np.flatnonzero((pair_df >= 2) & (pair_df <= max_df))
    dfs = np.concatenate([word_df[word_ok], pair_df[pair_ok]])
    keep = np.sort(np.argsort(-dfs, kind="stable")[:max_features])
    kept_words = word_ok[keep[keep < len(word_ok)]]
    kept_pairs_at = pair_ok[keep[keep >= len(word_ok)] - len(word_ok)]
    n_words = len(kept_words)
    word_feature = np.full(n_stems, -1, np.int64)
    word_feature[kept_words] = np.arange(n_words)
    # two-word phrases found twice: naming candidates, and features if kept above
    recurring = pair_df >= 2
    candidates = pairs[recurring]
    candidate_df = pair_df[recurring]
    candidate_feature = np.full(max(len(candidates), 1), -1, np.int64)  # never empty: indexed at 0 below
    candidate_feature[np.searchsorted(candidates, pairs[kept_pairs_at])] = n_words + np.arange(len(kept_pairs_at))
    feature_df = np.concatenate([word_df[kept_words], pair_df[kept_pairs_at]]).astype(np.int32)
    n_features = np.int64(len(feature_df) + 1)
    idf = (np.log((1.0 + n) / (1.0 + feature_df)) + 1.0).astype(np.float32)
    del pairs, pair_df, word_df
    n_candidates = np.int64(max(len(candidates), 1))

    # pass 2: the weighted matrix, a chunk of rows at a time; three-word phrases counted
    cols_parts: list[np.ndarray] = []
    data_parts: list[np.ndarray] = []
    row_counts = np.zeros(n, np.int64)
    triples, triple_df = np.zeros(0, np.int64), np.zeros(0, np.int64)
    for lo, hi in _chunks(corpus):
        s, doc, weight = _positions(corpus, lo, hi)
        content = s >= FIRST_ID
        word = np.where(content, word_feature[np.where(content, s, 0)], -1)
        pid = _pair_ids(s, content, candidates, base)
        phrase = np.where(pid >= 0, candidate_feature[np.maximum(pid, 0)], -1)
        col = np.concatenate([word, phrase])
        hit = col >= 0
        keys = np.concatenate([doc, doc[:-1]])[hit] * n_features + col[hit]
        uk, inverse = np.unique(keys, return_inverse=True)
        tf = np.bincount(inverse, weights=np.concatenate([weight, weight[:-1]])[hit])
        rows, cols = uk // n_features, (uk % n_features).astype(np.int32)
        data = ((1.0 + np.log(tf)) * idf[cols]).astype(np.float32)
        norms = np.sqrt(np.bincount(rows, weights=data.astype(np.float64) ** 2, minlength=hi - lo))
        data /= np.where(norms > 0, norms, 1.0)[rows].astype(np.float32)
        row_counts[lo:hi] = np.bincount(rows, minlength=hi - lo)
        cols_parts.append(cols)
        data_parts.append(data)
        three = (pid[:-1] >= 0) & (pid[1:] >= 0)
        _, once = _once_per_paper(doc[:-2][three], pid[:-1][three] * n_candidates + pid[1:][three])
        triples, triple_df = _add_counts(triples, triple_df, *np.unique(once, return_counts=True))
    del word_feature, candidate_feature
    indptr = np.zeros(n + 1, np.int64)
    np.cumsum(row_counts, out=indptr[1:])
    indices = np.concatenate(cols_parts) if cols_parts else np.zeros(0, np.int32)
    del cols_parts
    values = np.concatenate(data_parts) if data_parts else np.zeros(0, np.float32)
    del data_parts
    recurring = triple_df >= 2
    triples, triple_df = triples[recurring], triple_df[recurring]
    if progress is not None:
        progress(f"{len(feature_df):,} features; {len(candidates) + len(triples):,} phrases to name topics by")

    # pass 3: which papers have which naming phrase
    phrase_rows: list[np.ndarray] = []
    phrase_cols: list[np.ndarray] = []
    for lo, hi in _chunks(corpus):
        s, doc, _ = _positions(corpus, lo, hi)
        pid = _pair_ids(s, s >= FIRST_ID, candidates, base)
        three = (pid[:-1] >= 0) & (pid[1:] >= 0)
        key = pid[:-1][three] * n_candidates + pid[1:][three]
        at = np.clip(np.searchsorted(triples, key), 0, max(len(triples) - 1, 0))
        found = triples[at] == key if len(triples) else np.zeros(len(key), bool)
        rows, cols = _once_per_paper(
            np.concatenate([doc[:-1][pid >= 0], doc[:-2][three][found]]),
            np.concatenate([pid[pid >= 0], len(candidates) + at[found]]),
        )
        phrase_rows.append((rows + lo).astype(np.int32))
        phrase_cols.append(cols.astype(np.int32))
    rows_all = np.concatenate(phrase_rows) if phrase_rows else np.zeros(0, np.int32)
    phrase_indices = np.concatenate(phrase_cols) if phrase_cols else np.zeros(0, np.int32)
    del phrase_rows, phrase_cols
    phrase_indptr = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(rows_all, minlength=n), out=phrase_indptr[1:])
    del rows_all

    stems = np.zeros((len(candidates) + len(triples), 3), np.int32)
    stems[: len(candidates), 0] = candidates // base
    stems[: len(candidates), 1] = candidates % base
    first, second = candidates[triples // n_candidates], candidates[triples % n_candidates]
    stems[len(candidates) :, 0] = first // base
    stems[len(candidates) :, 1] = first % base
    stems[len(candidates) :, 2] = second % base
    return Features(
        n_docs=n,
        n_words=n_words,
        word_stems=kept_words.astype(np.int32),
        indptr=indptr,
        indices=indices,
        data=values,
        feature_df=feature_df,
        phrase_stems=stems,
        phrase_df=np.concatenate([candidate_df, triple_df]).astype(np.int32),
        phrase_indptr=phrase_indptr,
        phrase_indices=phrase_indices,
    )


def _pair_ids(s: np.ndarray, content: np.ndarray, candidates: np.ndarray, base: np.int64) -> np.ndarray:
    """At each position (but the last), the index of the two-word phrase starting there among `candidates`
    (sorted keys), or −1."""
    both = content[:-1] & content[1:]
    pair = np.where(both, s[:-1] * base + s[1:], -1)
    if not len(candidates):
        return np.full(len(pair), -1, np.int64)
    at = np.clip(np.searchsorted(candidates, pair), 0, len(candidates) - 1)
    return np.where(both & (candidates[at] == pair), at, -1)


def _row_sums(indptr: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per-row sums of a CSR matrix's values (empty rows: 0)."""
    out = np.zeros(len(indptr) - 1, values.dtype)
    nonempty = np.flatnonzero(np.diff(indptr) > 0)
    if len(nonempty):
        out[nonempty] = np.add.reduceat(values, indptr[nonempty])
    return out


# ---- sparse × dense products, chunked --------------------------------------------------------------


def csr_dot(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray, dense: np.ndarray) -> np.ndarray:
    """X @ dense for a CSR X, a block of rows at a time (at most GATHER_FLOATS gathered at once)."""
    n = len(indptr) - 1
    width = dense.shape[1]
    out = np.zeros((n, width), np.float32)
    per_chunk = max(1, GATHER_FLOATS // max(width, 1))
    lo = 0
    while lo < n:
        hi = int(np.searchsorted(indptr, indptr[lo] + per_chunk, side="right")) - 1
        hi = min(max(hi, lo + 1), n)
        a, b = int(indptr[lo]), int(indptr[hi])
        if b > a:
            gathered = dense[indices[a:b]]
            gathered *= data[a:b, None]
            local = indptr[lo : hi + 1] - a
            nonempty = np.flatnonzero(np.diff(local) > 0)
            out[lo + nonempty] = np.add.reduceat(gathered, local[nonempty], axis=0)
        lo = hi
    return out


def csr_tdot(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray, dense: np.ndarray, n_cols: int) -> np.ndarray:
    """Xᵀ @ dense for a CSR X (n_cols columns), through the entries sorted by column."""
    width = dense.shape[1]
    rows = np.repeat(np.arange(len(indptr) - 1, dtype=np.int32), np.diff(indptr))
    order = np.argsort(indices, kind="stable")
    cols, rows, vals = indices[order], rows[order], data[order]
    out = np.zeros((n_cols, width), np.float32)
    per_chunk = max(1, GATHER_FLOATS // max(width, 1))
    for a in range(0, len(cols), per_chunk):
        c = cols[a : a + per_chunk]
        gathered = dense[rows[a : a + per_chunk]]
        gathered *= vals[a : a + per_chunk, None]
        starts = np.flatnonzero(np.r_[True, c[1:] != c[:-1]])
        out[c[starts]] += np.add.reduceat(gathered, starts, axis=0)
    return out


def _sub_rows(f: Features, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    lengths = np.diff(f.indptr)[rows]
    indptr = np.zeros(len(rows) + 1, np.int64)
    np.cumsum(lengths, out=indptr[1:])
    take = np.repeat(f.indptr[rows] - indptr[:-1], lengths) + np.arange(indptr[-1])
    return indptr, f.indices[take], f.data[take]


def _orthonormal(a: np.ndarray) -> np.ndarray:
    """An orthonormal basis of a tall matrix's columns, through its small Gram matrix: numpy's QR works in
    float64 on several copies of the whole matrix (the peak of a 94k computation, see performance-changes.md)."""
    gram = (a.T @ a).astype(np.float64)
    values, vectors = np.linalg.eigh(gram)
    keep = values > max(float(values.max()), 1e-30) * 1e-9
    return a @ (vectors[:, keep] / np.sqrt(values[keep])).astype(np.float32)


def lsa(f: Features, dims: int, sample: int = 25_000, seed: int = 0, power: int = 2) -> np.ndarray:
    """Each paper as a unit vector of `dims` latent dimensions: a randomized SVD (Halko, Martinsson and Tropp
    2011) of the tf-idf matrix, its basis found from a sample of papers and every paper projected onto it."""
    n = f.n_docs
    rng = np.random.default_rng(seed)
    have = np.flatnonzero(~f.empty_rows())
    dims = max(1, min(dims, len(have) - 1, f.n_features - 1))
    rows = np.sort(rng.choice(have, size=sample, replace=False)) if len(have) > sample else have
    sp, si, sd = _sub_rows(f, rows)
    width = dims + 10
    omega = rng.standard_normal((f.n_features, width), dtype=np.float32)
    q = _orthonormal(csr_dot(sp, si, sd, omega))
    del omega
    for _ in range(power):
        z = _orthonormal(csr_tdot(sp, si, sd, q, f.n_features))
        q = _orthonormal(csr_dot(sp, si, sd, z))
        del z
    # B = Qᵀ X_s is small (width × features): its right singular vectors are X_s's, found from B Bᵀ
    bt = csr_tdot(sp, si, sd, q, f.n_features)
    values, vectors_b = np.linalg.eigh((bt.T @ bt).astype(np.float64))
    top = np.argsort(values)[::-1][:dims]
    scale = 1.0 / np.sqrt(np.maximum(values[top], 1e-12))
    basis = bt @ (vectors_b[:, top] * scale).astype(np.float32)
    del bt, q
    vectors = csr_dot(f.indptr, f.indices, f.data, basis) if n else np.zeros((0, dims), np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors /= np.where(norms > 0, norms, 1.0)
    return vectors
