"""Which stored paper is a re-imported record? Exact content first, then title, then abstract similarity.

An erratum edits a few words of an abstract; the paper must stay the same paper so that its tags, note
and state stay with it. Candidates come from shared rare words, so a whole revised file is not n².
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

SIMILAR = 0.85


@dataclass
class Existing:
    id: int
    content_hash: str
    title: str
    text: str


@dataclass
class Incoming:
    content_hash: str
    title: str
    text: str


def _norm_title(title: str) -> str:
    return re.sub(r"\W+", " ", title.casefold()).strip()


def _words(text: str) -> list[str]:
    return re.findall(r"\w{4,}", text.casefold())


def match(existing: Sequence[Existing], incoming: Sequence[Incoming]) -> tuple[dict[int, int], dict[int, int]]:
    """Returns (unchanged, revised): each maps an incoming index to an existing paper id."""
    unchanged: dict[int, int] = {}
    revised: dict[int, int] = {}
    by_hash: dict[str, list[int]] = {}
    for e in existing:
        by_hash.setdefault(e.content_hash, []).append(e.id)
    used: set[int] = set()
    rest: list[int] = []
    for i, rec in enumerate(incoming):
        ids = [pid for pid in by_hash.get(rec.content_hash, []) if pid not in used]
        if ids:
            unchanged[i] = ids[0]
            used.add(ids[0])
        else:
            rest.append(i)
    if not rest:
        return unchanged, revised
    left = [e for e in existing if e.id not in used]
    by_title: dict[str, list[Existing]] = {}
    for e in left:
        if e.title.strip():
            by_title.setdefault(_norm_title(e.title), []).append(e)
    still: list[int] = []
    for i in rest:
        rec = incoming[i]
        cands = [e for e in by_title.get(_norm_title(rec.title), []) if e.id not in used] if rec.title else []
        if cands:
            best = max(cands, key=lambda e: SequenceMatcher(None, e.text, rec.text).quick_ratio())
            revised[i] = best.id
            used.add(best.id)
        else:
            still.append(i)
    left = [e for e in left if e.id not in used and e.text]
    if not still or not left:
        return unchanged, revised
    df: Counter[str] = Counter()
    postings: dict[str, list[Existing]] = {}
    for e in left:
        for w in set(_words(e.text)):
            df[w] += 1
            postings.setdefault(w, []).append(e)
    for i in still:
        rec = incoming[i]
        if not rec.text:
            continue
        rare = sorted(set(_words(rec.text)), key=lambda w: df.get(w, 0) or 10**9)[:12]
        votes: Counter[int] = Counter()
        lookup = {e.id: e for e in left}
        for w in rare:
            for e in postings.get(w, ()):
                if e.id not in used:
                    votes[e.id] += 1
        best_id, best_ratio = None, 0.0
        for pid, _ in votes.most_common(5):
            sm = SequenceMatcher(None, lookup[pid].text, rec.text, autojunk=False)
            if sm.quick_ratio() >= SIMILAR and (ratio := sm.ratio()) > best_ratio:
                best_id, best_ratio = pid, ratio
        if best_id is not None and best_ratio >= SIMILAR:
            revised[i] = best_id
            used.add(best_id)
    return unchanged, revised
