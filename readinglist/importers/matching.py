"""Which stored paper is a re-imported record? Exact content first, then title, then abstract similarity.

An erratum edits a few words of an abstract; the paper must stay the same paper so that its tags, note
and state stay with it. Candidates come from shared rare words, so a whole revised file is not n².
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
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


class Matcher:
    """The matching in steps, so that an import need not hold every record's text: exact content and
    unique titles need only each record's hash and title; the rest asks for the plain text of just the
    records it still has to place (`tie_texts`, then `similar_texts`), in file order.

    Same decisions as matching everything at once: ties between stored papers of one title are settled
    before any abstract similarity, and each step takes the records in file order."""

    def __init__(self, existing: Sequence[Existing], hashes: Sequence[str], titles: Sequence[str]):
        self.unchanged: dict[int, int] = {}
        self.revised: dict[int, int] = {}
        self._existing = existing
        self._titles = titles
        by_hash: dict[str, list[int]] = {}
        for e in existing:
            by_hash.setdefault(e.content_hash, []).append(e.id)
        self._known = set(by_hash)
        used: set[int] = set()
        rest: list[int] = []
        for i, h in enumerate(hashes):
            ids = [pid for pid in by_hash.get(h, []) if pid not in used] if h in by_hash else []
            if ids:
                self.unchanged[i] = ids[0]
                used.add(ids[0])
            else:
                rest.append(i)
        self._used = used
        self._hashes = hashes
        self._by_title: dict[str, list[Existing]] = {}
        for e in existing:
            if e.id not in used and e.title.strip():
                self._by_title.setdefault(_norm_title(e.title), []).append(e)
        self._ties: list[int] = []  # records with several stored candidates of their title: need text
        self._still: list[int] = []  # records no title placed
        for i in rest:
            cands = self._candidates(i)
            if len(cands) == 1:
                self.revised[i] = cands[0].id
                used.add(cands[0].id)
            elif cands:
                self._ties.append(i)
            else:
                self._still.append(i)
        self._postings: dict[str, list[Existing]] | None = None

    def _candidates(self, i: int) -> list[Existing]:
        title = self._titles[i]
        return [e for e in self._by_title.get(_norm_title(title), []) if e.id not in self._used] if title else []

    def _has_text(self, i: int) -> bool:
        """A record whose content matches a stored paper another record took is compared by title only."""
        return self._hashes[i] not in self._known

    def tie_texts(self) -> set[int]:
        """Records whose text settles a tie between stored papers of their title."""
        return {i for i in self._ties if self._has_text(i)}

    def settle_ties(self, texts: dict[int, str] | Callable[[int], str]) -> None:
        """Settle the ties in file order; `texts` gives each record's plain text (by number)."""
        get = texts.get if isinstance(texts, dict) else texts
        for i in self._ties:
            cands = self._candidates(i)
            if not cands:
                self._still.append(i)
                continue
            text = (get(i) or "") if self._has_text(i) else ""
            best = max(cands, key=lambda e: SequenceMatcher(None, e.text, text).quick_ratio())
            self.revised[i] = best.id
            self._used.add(best.id)
        self._ties = []
        self._still.sort()

    def similar_texts(self) -> set[int]:
        """Records still unplaced that abstract similarity may place (none when no stored text is left)."""
        assert not self._ties, "settle_ties first"
        left = [e for e in self._existing if e.id not in self._used and e.text]
        if not left or not self._still:
            return set()
        df: Counter[str] = Counter()
        postings: dict[str, list[Existing]] = {}
        for e in left:
            for w in set(_words(e.text)):
                df[w] += 1
                postings.setdefault(w, []).append(e)
        self._df, self._postings, self._lookup = df, postings, {e.id: e for e in left}
        return {i for i in self._still if self._has_text(i)}

    def place_similar(self, i: int, text: str) -> None:
        """Place record i by its abstract, if a stored paper is similar enough (call in file order)."""
        if self._postings is None or not text:
            return
        rare = sorted(set(_words(text)), key=lambda w: self._df.get(w, 0) or 10**9)[:12]
        votes: Counter[int] = Counter()
        for w in rare:
            for e in self._postings.get(w, ()):
                if e.id not in self._used:
                    votes[e.id] += 1
        best_id, best_ratio = None, 0.0
        for pid, _ in votes.most_common(5):
            sm = SequenceMatcher(None, self._lookup[pid].text, text, autojunk=False)
            if sm.quick_ratio() >= SIMILAR and (ratio := sm.ratio()) > best_ratio:
                best_id, best_ratio = pid, ratio
        if best_id is not None and best_ratio >= SIMILAR:
            self.revised[i] = best_id
            self._used.add(best_id)


def match(existing: Sequence[Existing], incoming: Sequence[Incoming]) -> tuple[dict[int, int], dict[int, int]]:
    """Returns (unchanged, revised): each maps an incoming index to an existing paper id."""
    m = Matcher(existing, [r.content_hash for r in incoming], [r.title for r in incoming])
    m.settle_ties(lambda i: incoming[i].text)
    for i in sorted(m.similar_texts()):
        m.place_similar(i, incoming[i].text)
    return m.unchanged, m.revised
