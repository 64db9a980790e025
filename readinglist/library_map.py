"""The map of the library: every paper a point in 2-D, placed by content similarity, topics as regions
with their names at the centres.

A landmark layout rather than t-SNE or UMAP over all papers (UMAP brings numba and LLVM into the bundle,
and both need every paper's nearest neighbours): the topics' centroids are laid out first — classical MDS of their
cosine distances, refined by stress majorisation (SMACOF), then pushed apart until each topic's disc, sized by
its paper count, overlaps none — and each paper is placed in its topic's disc: drawn towards the other topics
it resembles (papers between two topics lie between them) and spread by its topic's own two main
directions of variation. O(papers × topics), numpy only. Places carry over a recompute: the new centres are
rotated, reflected and scaled onto the old ones of the topics that kept their ids (Procrustes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

PULL_SHARPNESS = 12.0  # how fast the pull towards another topic fades as the paper resembles it less
NEIGHBOURS = 3  # other topics a paper is drawn towards
SPREAD = 0.8  # a topic's own variation (in standard deviations × ½) against the pulls
RIM = 1.15  # the farthest 5% of a topic's papers lie within this many radii of its centre
FILL = 0.8  # share of the map's area the topics' discs cover


@dataclass
class LibraryMap:
    """What the window draws: paper ids with their places and topic ids, and the topics' label places.
    Coordinates lie in [-1, 1]²."""

    paper_ids: np.ndarray  # int64 (n,)
    xy: np.ndarray  # float32 (n, 2)
    topic_ids: np.ndarray  # int64 (n,)
    labels: list[tuple[int, str, float, float]]  # (topic id, name, x, y)

    def __len__(self) -> int:
        return len(self.paper_ids)

    def places(self, paper_ids: Sequence[int]) -> dict[int, tuple[float, float]]:
        """The map places of these papers (those on the map)."""
        order = np.argsort(self.paper_ids)
        known = self.paper_ids[order]
        want = np.asarray(paper_ids, dtype=np.int64)
        at = np.clip(np.searchsorted(known, want), 0, max(len(known) - 1, 0))
        found = known[at] == want if len(known) else np.zeros(len(want), bool)
        rows = order[at[found]]
        return {int(p): (float(x), float(y)) for p, (x, y) in zip(want[found], self.xy[rows], strict=True)}

    def within(self, x0: float, y0: float, x1: float, y1: float) -> list[int]:
        """The papers inside a rectangle (a drag on the map selects them)."""
        lo_x, hi_x = sorted((x0, x1))
        lo_y, hi_y = sorted((y0, y1))
        x, y = self.xy[:, 0], self.xy[:, 1]
        inside = (x >= lo_x) & (x <= hi_x) & (y >= lo_y) & (y <= hi_y)
        return [int(p) for p in self.paper_ids[inside]]


def layout(
    x: np.ndarray,
    labels: np.ndarray,
    centroids: np.ndarray,
    topic_ids: Sequence[int],
    previous_centres: dict[int, tuple[float, float]] | None = None,
    seed: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """Places (n × 2, float32) for unit vectors x in clusters `labels`, and the clusters' centres (k × 2)."""
    k = len(centroids)
    n = len(x)
    if n == 0:
        return np.zeros((0, 2), np.float32), np.zeros((k, 2), np.float32)
    sizes = np.bincount(labels, minlength=k).astype(np.float64)
    radius = np.sqrt(sizes / sizes.sum())  # discs' areas in proportion to their papers
    centres = _centre_layout(centroids, radius, seed)
    centres, radius = _fit(centres, radius)
    if previous_centres:
        centres = _align(centres, [previous_centres.get(int(t)) for t in topic_ids])
        centres, radius = _fit(centres, radius)
    # each paper: its topic's centre + a pull towards similar topics + its topic's own spread
    offsets = np.zeros((n, 2), np.float64)
    for lo in range(0, n, 20_000):
        hi = min(n, lo + 20_000)
        offsets[lo:hi] = _pulls(x[lo:hi], labels[lo:hi], centroids, centres)
    for c in range(k):
        members = np.flatnonzero(labels == c)
        if not len(members):
            continue
        own = offsets[members] + SPREAD * _spread(x[members], centroids[c], seed)
        length = np.linalg.norm(own, axis=1, keepdims=True)
        # the topic's disc holds 95% of its papers; the farthest are drawn in to a thin band outside it
        r = radius[c]
        own *= r / max(float(np.quantile(length, 0.95)), 1e-9)
        far = np.linalg.norm(own, axis=1, keepdims=True)
        squeezed = r + (RIM - 1.0) * r * np.tanh((far - r) / ((RIM - 1.0) * r))
        own *= np.where(far > r, squeezed / np.maximum(far, 1e-12), 1.0)
        offsets[members] = own
    xy = centres[labels] + offsets
    return xy.astype(np.float32), centres.astype(np.float32)


def _centre_layout(centroids: np.ndarray, radius: np.ndarray, seed: int) -> np.ndarray:
    """2-D places for the centroids whose distances follow their cosine distances."""
    k = len(centroids)
    if k == 1:
        return np.zeros((1, 2))
    sims = np.clip(centroids.astype(np.float64) @ centroids.T.astype(np.float64), -1.0, 1.0)
    d = np.sqrt(np.maximum(2.0 - 2.0 * sims, 0.0))
    np.fill_diagonal(d, 0.0)
    # classical MDS
    j = np.eye(k) - 1.0 / k
    b = -0.5 * j @ (d**2) @ j
    values, vectors = np.linalg.eigh(b)
    top = np.argsort(values)[::-1][:2]
    pos = vectors[:, top] * np.sqrt(np.maximum(values[top], 1e-12))
    if k == 2 or pos.shape[1] < 2:
        pos = np.c_[pos[:, :1], np.zeros(k)] if pos.shape[1] < 2 else pos
    # SMACOF (Guttman transform), unweighted, a few rounds from the MDS start
    for _ in range(60):
        dist = np.sqrt(((pos[:, None, :] - pos[None, :, :]) ** 2).sum(-1))
        ratio = np.where(dist > 1e-12, d / np.maximum(dist, 1e-12), 0.0)
        np.fill_diagonal(ratio, 0.0)
        bz = -ratio
        np.fill_diagonal(bz, ratio.sum(axis=1))
        pos = bz @ pos / k
    pos -= pos.mean(axis=0)
    # the same picture every time: main axis along x, signs fixed
    vt = np.linalg.svd(pos, full_matrices=False)[2]
    pos = pos @ vt.T
    for axis in range(2):
        if np.sum(pos[:, axis] ** 3) < 0:
            pos[:, axis] = -pos[:, axis]
    return _separate(pos, radius)


def _separate(pos: np.ndarray, radius: np.ndarray) -> np.ndarray:
    """Grow the discs until they cover FILL of the layout's area, pushing overlapping ones apart (which
    spreads the layout, so a few rounds of both)."""
    k = len(pos)
    if k == 1:
        return pos
    p = pos.copy()
    r = radius.copy()
    for _ in range(4):
        extent = float(np.max(np.sqrt((p**2).sum(axis=1)) + r))
        r = r * np.sqrt(FILL * extent**2 / (r**2).sum())
        p = _push_apart(p, r, extent)
    return p * (radius[0] / r[0])  # in the caller's radius units


def _push_apart(p: np.ndarray, r: np.ndarray, extent: float) -> np.ndarray:
    p = p.copy()
    for _ in range(200):
        delta = p[:, None, :] - p[None, :, :]
        dist = np.sqrt((delta**2).sum(-1))
        need = (r[:, None] + r[None, :]) * 1.05
        overlap = np.where(dist < need, need - dist, 0.0)
        np.fill_diagonal(overlap, 0.0)
        if overlap.max() < 1e-4 * extent:
            break
        direction = delta / np.maximum(dist, 1e-9)[..., None]
        direction[dist < 1e-9] = np.array([1.0, 0.0])  # coincident centres part along a fixed direction
        share = r[None, :] ** 2 / (r[:, None] ** 2 + r[None, :] ** 2)  # the smaller disc moves more
        move = direction * (overlap * share)[..., None]
        move[np.arange(len(p)), np.arange(len(p))] = 0.0
        p += 0.5 * move.sum(axis=1)
    return p


def _fit(centres: np.ndarray, radius: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Centre on the origin and scale so every disc lies within [-1, 1]²."""
    centres = centres - (centres.max(axis=0) + centres.min(axis=0)) / 2
    extent = np.max(np.abs(centres) + RIM * radius[:, None])
    scale = 1.0 / extent if extent > 0 else 1.0
    return centres * scale, radius * scale


def _align(centres: np.ndarray, old: list[tuple[float, float] | None]) -> np.ndarray:
    """Rotate, reflect and scale the layout onto the old places of the topics that kept their ids."""
    known = [i for i, o in enumerate(old) if o is not None]
    if len(known) < 3:
        return centres
    a = centres[known]
    b = np.asarray([old[i] for i in known], dtype=np.float64)
    a_mean, b_mean = a.mean(axis=0), b.mean(axis=0)
    u, s, vt = np.linalg.svd((a - a_mean).T @ (b - b_mean))
    rotation = u @ vt
    scale = s.sum() / max(((a - a_mean) ** 2).sum(), 1e-12)
    return (centres - a_mean) @ rotation * scale + b_mean


def _pulls(x: np.ndarray, labels: np.ndarray, centroids: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Unit-free pull of each paper towards the NEIGHBOURS other topics it most resembles, weighted by how
    close it comes to resembling them as much as its own (1: a paper exactly between two topics)."""
    sims = x @ centroids.T
    own = sims[np.arange(len(x)), labels]
    sims[np.arange(len(x)), labels] = -np.inf
    m = min(NEIGHBOURS, centroids.shape[0] - 1)
    if m <= 0:
        return np.zeros((len(x), 2))
    others = np.argpartition(-sims, m - 1, axis=1)[:, :m]
    weight = np.exp(PULL_SHARPNESS * (np.take_along_axis(sims, others, axis=1) - own[:, None]))
    direction = centres[others] - centres[labels][:, None, :]
    length = np.linalg.norm(direction, axis=2, keepdims=True)
    direction = direction / np.maximum(length, 1e-12)
    return (weight[..., None] * direction).sum(axis=1) / (1.0 + weight.sum(axis=1, keepdims=True)) * 2.0


def _spread(members: np.ndarray, centroid: np.ndarray, seed: int) -> np.ndarray:
    """Members' coordinates along their topic's two main directions, in standard deviations."""
    residual = members.astype(np.float64) - centroid.astype(np.float64)
    if len(members) < 3:
        return np.zeros((len(members), 2))
    cov = residual.T @ residual / len(members)
    values, vectors = np.linalg.eigh(cov)
    top = vectors[:, np.argsort(values)[::-1][:2]]
    for axis in range(2):  # fixed signs: the same map every time
        if top[np.argmax(np.abs(top[:, axis])), axis] < 0:
            top[:, axis] = -top[:, axis]
    z = residual @ top
    std = z.std(axis=0)
    return z / np.where(std > 0, std, 1.0) / 2.0
