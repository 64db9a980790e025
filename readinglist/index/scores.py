"""A large result's scores as two numpy arrays: the docnums in order and their scores.

A Python dictionary entry of a score costs ~100 bytes and, once a result outgrows the processor's cache
(about 100k matches here), a cache miss each time it is built or read; an array entry costs 16 bytes, read in
order (figures: docs/performance-changes.md, sessions 18 and 19). The ranker reads a common word's postings
into arrays (from ARRAY_FROM documents), and its OR, AND, NOT, boosts and the engine's sort keys and sort work
on the arrays. An `ArrayScores` is still a Mapping: code that walks a small result (the closest matches) needs
nothing new, but its first lookup by docnum builds the dictionary of every match (a pass over all of them,
kept beside the arrays): code on a search's path looks documents up with `scores_of` or `held` instead.

The arithmetic is Whoosh's, in the same order: each document's score is the same float as the dictionary path
gives (tests/test_scores.py; a sum starting from 0.0 turns a -0.0 into 0.0, and scores are never negative).
numpy is loaded by the first large result, not at start-up.
"""

from __future__ import annotations

from collections.abc import Collection, ItemsView, Iterable, Iterator, KeysView, Mapping, Sequence, ValuesView
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

ARRAY_FROM = 4096  # postings from which a word is read into arrays (figures: docs/performance-changes.md)

Scores = Mapping[int, float]  # searcher-wide docnum → score: a dict, or an ArrayScores


def numpy() -> Any:
    import numpy as np

    return np


class ArrayScores(Mapping[int, float]):
    """Docnums (int64, ascending, unique) and their scores (float64). Shared: never modified in place."""

    __slots__ = ("_dict", "docs", "vals")

    def __init__(self, docs: np.ndarray, vals: np.ndarray):
        self.docs = docs
        self.vals = vals
        self._dict: dict[int, float] | None = None

    def as_dict(self) -> dict[int, float]:
        """The scores as a dictionary, built once (for code that looks documents up one by one)."""
        if self._dict is None:
            self._dict = dict(zip(self.docs.tolist(), self.vals.tolist(), strict=True))
        return self._dict

    def __getitem__(self, d: int) -> float:
        return self.as_dict()[d]

    def __contains__(self, d: object) -> bool:
        return d in self.as_dict()

    def __iter__(self) -> Iterator[int]:
        return iter(self.docs.tolist())

    def __len__(self) -> int:
        return len(self.docs)

    def get(self, d: int, default: Any = None) -> Any:
        return self.as_dict().get(d, default)

    def keys(self) -> KeysView[int]:
        return self.as_dict().keys()

    def items(self) -> ItemsView[int, float]:
        return self.as_dict().items()

    def values(self) -> ValuesView[float]:
        return self.as_dict().values()

    def __repr__(self) -> str:
        return f"ArrayScores({len(self)} documents)"


def arrays(scores: Scores) -> tuple[np.ndarray, np.ndarray]:
    """The docnums in order and their scores, of either kind of result."""
    if isinstance(scores, ArrayScores):
        return scores.docs, scores.vals
    np = numpy()
    n = len(scores)
    docs = np.fromiter(scores.keys(), np.int64, n)
    values = np.fromiter(scores.values(), np.float64, n)
    if n > 1 and not bool((docs[1:] > docs[:-1]).all()):
        order = np.argsort(docs, kind="stable")
        docs, values = docs[order], values[order]
    return docs, values


def top_score(scores: Scores) -> float:
    """The best score (0.0 for no match)."""
    if isinstance(scores, ArrayScores):
        return float(scores.vals.max()) if len(scores) else 0.0
    return max(scores.values(), default=0.0)


def boosted(scores: ArrayScores, boost: float) -> ArrayScores:
    return ArrayScores(scores.docs, scores.vals * boost)


def summed(parts: Sequence[Scores]) -> ArrayScores:
    """Each document of any part with its scores summed, in the parts' order (the dictionary path's additions,
    one by one: bincount adds its weights in the order given)."""
    np = numpy()
    pairs = [arrays(p) for p in parts]
    docs = np.concatenate([d for d, _ in pairs])
    values = np.concatenate([v for _, v in pairs])
    present = np.flatnonzero(np.bincount(docs))
    return ArrayScores(present, np.bincount(docs, values)[present])


def best_of(parts: Sequence[Scores]) -> ArrayScores:
    """Each document's best score over the parts: that of the first part holding it, raised by a later part's
    higher one (a later part's score counts only above 0.0, as the dictionary path's `get(d, 0.0)` does)."""
    np = numpy()
    pairs = [arrays(p) for p in parts]
    size = max((int(d[-1]) + 1 for d, _ in pairs if len(d)), default=0)
    best = np.zeros(size)
    present = np.zeros(size, dtype=bool)
    for n, (docs, values) in enumerate(pairs):
        if n == 0:
            best[docs] = values
            present[docs] = True
            continue
        higher = values > best[docs]
        best[docs[higher]] = values[higher]
        present[docs[higher]] = True
    kept = np.flatnonzero(present)
    return ArrayScores(kept, best[kept])


def _positions(docs: np.ndarray, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each of `wanted`, whether `docs` (ascending) holds it and where."""
    np = numpy()
    where = np.searchsorted(docs, wanted)
    if not len(docs):
        return where, np.zeros(len(wanted), dtype=bool)
    clipped = np.minimum(where, len(docs) - 1)
    return clipped, docs[clipped] == wanted


def both(acc: Scores, other: Scores) -> ArrayScores:
    """The documents in both, with their scores summed (an AND's step)."""
    docs, values = arrays(acc)
    other_docs, other_values = arrays(other)
    at, held = _positions(other_docs, docs)
    return ArrayScores(docs[held], values[held] + other_values[at[held]])


def without(acc: Scores, other: Collection[int] | Scores, bump: float = 0) -> ArrayScores:
    """The documents of `acc` not in `other`, each score plus `bump` (a NOT's step)."""
    np = numpy()
    docs, values = arrays(acc)
    other_docs = arrays(other)[0] if isinstance(other, Mapping) else np.array(sorted(other), dtype=np.int64)
    _, held = _positions(other_docs, docs)
    kept = ~held
    return ArrayScores(docs[kept], values[kept] + bump if bump else values[kept])


def among(scores: Scores, docs: np.ndarray) -> ArrayScores:
    """The scores of those of `docs` (ascending) that have one."""
    own, values = arrays(scores)
    at, held = _positions(own, docs)
    return ArrayScores(docs[held], values[at[held]])


def held(scores: Scores, docs: Iterable[int]) -> set[int]:
    """Those of `docs` that have a score."""
    if not isinstance(scores, ArrayScores):
        return {d for d in docs if d in scores}
    np = numpy()
    wanted = np.fromiter(docs, np.int64)
    _, found = _positions(scores.docs, wanted)
    return set(wanted[found].tolist())


def scores_of(scores: Scores, docs: Sequence[int]) -> list[float]:
    """The scores of `docs`, each of which has one (KeyError otherwise, as a dictionary's lookup)."""
    if not isinstance(scores, ArrayScores):
        return [scores[d] for d in docs]
    np = numpy()
    wanted = np.fromiter(docs, np.int64, len(docs))
    at, found = _positions(scores.docs, wanted)
    if not found.all():
        raise KeyError(int(wanted[~found][0]))
    return scores.vals[at].tolist()


def with_added(acc: Scores, other: Scores) -> ArrayScores:
    """Every document of `acc`, plus its score in `other` where it has one (an AND-MAYBE's step)."""
    docs, values = arrays(acc)
    other_docs, other_values = arrays(other)
    at, held = _positions(other_docs, docs)
    values = values.copy()
    values[held] += other_values[at[held]]
    return ArrayScores(docs, values)


def plus(scores: Scores, extra: Mapping[int, float]) -> Scores:
    """A copy with `extra[d]` added to the score of each of its documents (documents without a score are
    left out)."""
    if not isinstance(scores, ArrayScores):
        out = dict(scores)
        for d, x in extra.items():
            if d in out:
                out[d] += x
        return out
    np = numpy()
    wanted = np.fromiter(extra.keys(), np.int64, len(extra))
    add = np.fromiter(extra.values(), np.float64, len(extra))
    at, found = _positions(scores.docs, wanted)
    values = scores.vals.copy()
    values[at[found]] += add[found]  # docs of `extra` are distinct: no index twice
    return ArrayScores(scores.docs, values)


def minus_each(scores: ArrayScores, groups: Iterable[Collection[int]], step: float) -> ArrayScores:
    """A copy with `step` taken from a document's score once for each group that holds it."""
    np = numpy()
    values = scores.vals.copy()
    for group in groups:
        if group:
            wanted = np.fromiter(group, np.int64, len(group))
            at, found = _positions(scores.docs, wanted)
            values[at[found]] -= step
    return ArrayScores(scores.docs, values)


def top_docs(scores: ArrayScores, limit: int, order: Sequence[int] | None) -> list[int]:
    """The `limit` best docnums, best first; equal scores by `order[d]` (or the docnum), as ranking.ranked."""
    np = numpy()
    values = scores.vals
    if limit <= 0 or not len(values):
        return []
    if limit < len(values):
        threshold = np.partition(values, len(values) - limit)[len(values) - limit]
        pick = np.flatnonzero(values >= threshold)  # ties at the threshold all come: the tie order picks
    else:
        pick = np.arange(len(values))
    docs = scores.docs[pick]
    ties = np.array([order[d] for d in docs.tolist()], dtype=np.int64) if order is not None else docs
    ranked = np.lexsort((ties, -values[pick]))[:limit]
    return docs[ranked].tolist()
