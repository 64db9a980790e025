"""Which stored paper is a re-imported record? Exact content first, then title, then abstract similarity.

An erratum edits a few words of an abstract; the paper must stay the same paper so that its tags, note
and state stay with it. But a title alone is not a paper: a revised file can drop a paper and reuse its
title for an unrelated one, so a title match counts only when the content agrees too (abstract words,
authors). Candidates come from shared rare words, so a whole revised file is not n².
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher

SIMILAR = 0.85  # abstract similarity (SequenceMatcher) that makes an untitled record the same paper
SAME_WORDS = 0.5  # share of abstract words two records with one title must have in common …
SAME_WORDS_WITH_AUTHORS = 0.2  # … or this share, if their authors agree too


@dataclass
class Existing:
    id: int
    content_hash: str
    title: str
    text: str
    authors: list[str] = field(default_factory=list)


@dataclass
class Incoming:
    content_hash: str
    title: str
    text: str
    authors: list[str] = field(default_factory=list)


def _surnames(authors: Sequence[str]) -> set[str]:
    return {re.sub(r"\W+", "", a.split()[-1].casefold()) for a in authors if a.split()}


def _authors_agree(a: Sequence[str], b: Sequence[str]) -> bool:
    """Half of the shorter author list (by surname) is in the other; two empty lists agree."""
    sa, sb = _surnames(a), _surnames(b)
    if not sa or not sb:
        return not sa and not sb
    return len(sa & sb) * 2 >= min(len(sa), len(sb))


def same_content(e: Existing, rec: Incoming) -> bool:
    """Do a stored paper and an incoming record with the same title describe the same paper?"""
    if e.text and rec.text:
        we, wr = set(_words(e.text)), set(_words(rec.text))
        shared = len(we & wr) / max(1, len(we | wr))
        return shared >= SAME_WORDS or (shared >= SAME_WORDS_WITH_AUTHORS and _authors_agree(e.authors, rec.authors))
    return _authors_agree(e.authors, rec.authors)  # no abstract to compare: the authors decide


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
        cands = [e for e in cands if same_content(e, rec)]
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
