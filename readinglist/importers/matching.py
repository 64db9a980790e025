"""Which stored paper is a re-imported record? Exact content first, then title, then abstract similarity.

An erratum edits a few words of an abstract; the paper must stay the same paper so that its tags, note
and state stay with it. But a title alone is not a paper: a revised file can drop a paper and reuse its
title for an unrelated one, so a title match counts only when the content agrees too (abstract words,
authors). Candidates come from shared rare words, so a whole revised file is not n². A DOI is tried before a
title: a record whose DOI a stored paper has is that paper (its title corrected) when their titles match, or
their content agrees as a title match needs and both have authors (a file may give a volume's DOI to all its
papers: a paper put in another's place would take its note and tags); a stored paper with another DOI is not
the paper of a record's title, unless one DOI is a preprint server's (biblio.dois_conflict).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from readinglist.biblio import doi_key, dois_conflict

SIMILAR = 0.85  # abstract similarity (SequenceMatcher) that makes an untitled record the same paper
SAME_WORDS = 0.5  # share of abstract words two records with one title must have in common …
SAME_WORDS_WITH_AUTHORS = 0.2  # … or this share, if their authors agree too


@dataclass
class Existing:
    """A stored paper as matching sees it. Its abstract is kept as stored: the plain text is derived only
    if a match compares it (a re-import of an unchanged file never does)."""

    id: int
    content_hash: str
    title: str
    abstract: str
    authors: list[str] = field(default_factory=list)
    doi: str = ""
    key: str = ""  # the record's key in its file (a BibTeX entry's), '' if the file gave none
    _text: str | None = field(default=None, repr=False, compare=False)

    @property
    def text(self) -> str:
        """The abstract as plain text (markup.to_plain), derived once."""
        if self._text is None:
            from readinglist.markup import to_plain

            self._text = to_plain(self.abstract)
        return self._text


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


def _same_or_subtitled(stored: str, incoming: str) -> bool:
    """One title, or one the other with a subtitle added or dropped: a BibTeX entry's title holds its biblatex
    subtitle now ("The Cast of Character: Style in Greek Literature"), and the paper imported before without it
    is found again by its file's key (with no abstract, nothing else tells it is the same paper)."""
    a, b = sorted((_norm_title(stored), _norm_title(incoming)), key=len)
    return a == b or (bool(a) and b.startswith(a + " "))


def _loose_title(title: str) -> str:
    """A title as an export's round trip leaves it comparable: compatibility forms folded (ℓ₀ → l0) and
    everything but letters and digits gone, so that BibTeX's A\\^{}2 and a Markdown escape agree."""
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", title).casefold())


def _words(text: str) -> list[str]:
    return re.findall(r"\w{4,}", text.casefold())


class Matcher:
    """The matching in steps, so that an import need not hold every record's text: exact content needs
    only each record's hash and title; the rest asks for the plain text and authors of just the records it
    still has to place (`tie_texts`, then `similar_texts`), one record at a time, in file order.

    Same decisions as matching everything at once: a title match counts only when the content agrees
    (`same_content`), title matches are settled before any abstract similarity, and each step takes the
    records in file order."""

    def __init__(
        self,
        existing: Sequence[Existing],
        hashes: Sequence[str],
        titles: Sequence[str],
        dois: Sequence[str] | None = None,
        keys: Sequence[str] | None = None,
    ):
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
        self._dois = [doi_key(d) for d in dois] if dois is not None else [""] * len(hashes)
        self._stored = {e.id: e for e in existing}
        self._doi_of = {e.id: doi_key(e.doi) for e in existing if e.doi}
        self._doi_match: dict[int, int] = {}  # record → the stored paper of its DOI, if the authors allow
        rest = self._by_key(rest, existing, keys)
        self._by_title: dict[str, list[Existing]] = {}
        for e in existing:
            if e.id not in used and e.title.strip():
                self._by_title.setdefault(_norm_title(e.title), []).append(e)
        rest = self._by_doi(rest)
        self._ties: list[int] = []  # records with stored papers of their title: their content decides
        self._still: list[int] = []  # records no title placed
        for i in rest:
            (self._ties if self._candidates(i) else self._still).append(i)
        self._ties = sorted([*self._ties, *self._doi_match])  # a DOI's match waits for the authors too
        self._pending = set(self._ties)
        self._postings: dict[str, list[Existing]] | None = None

    def _by_key(self, rest: list[int], existing: Sequence[Existing], keys: Sequence[str] | None) -> list[int]:
        """Records whose file key and title (or the title with a subtitle: _same_or_subtitled) a stored paper of
        the file has, one each: revised, whatever else changed (its authors and venue read again with the macros
        of the file that defines them: a trial's re-import left 617 papers with "Abramson_D" for an author, their
        authors no longer agreeing); unless the two have different DOIs. Returns the records left."""
        if keys is None or not any(keys):
            return rest
        stored: dict[str, list[Existing]] = {}
        for paper in existing:
            if paper.key and paper.id not in self._used:
                stored.setdefault(paper.key, []).append(paper)
        if not stored:
            return rest
        given = Counter(keys[i] for i in rest if keys[i])
        left: list[int] = []
        for i in rest:
            key = keys[i]
            found = stored.get(key, []) if key and given[key] == 1 else []
            one = found[0] if len(found) == 1 else None
            if (one is None or not _same_or_subtitled(one.title, self._titles[i])
                    or dois_conflict(self._dois[i], one.doi)):  # fmt: skip
                left.append(i)
                continue
            self.revised[i] = one.id
            self._used.add(one.id)
        return left

    def _by_doi(self, rest: list[int]) -> list[int]:
        """Records whose DOI an unused stored paper has: revised, if the authors allow it (they are compared when
        the text is read: `settle_tie`); returns the records left."""
        if not self._doi_of or not any(self._dois[i] for i in rest):
            return rest
        by_doi: dict[str, list[int]] = {}
        for stored, key in self._doi_of.items():
            if stored not in self._used:
                by_doi.setdefault(key, []).append(stored)
        left: list[int] = []
        for i in rest:
            key = self._dois[i]
            pid = next((p for p in by_doi.get(key, ()) if p not in self._used), None) if key else None
            if pid is None:
                left.append(i)
            else:
                self._doi_match[i] = pid
                self._used.add(pid)
        return left

    def _candidates(self, i: int) -> list[Existing]:
        title = self._titles[i]
        if not title:
            return []
        mine = self._dois[i]
        return [e for e in self._by_title.get(_norm_title(title), []) if e.id not in self._used
                and not dois_conflict(mine, self._doi_of.get(e.id, ""))]  # fmt: skip

    def _has_text(self, i: int) -> bool:
        """A record whose content matches a stored paper another record took is compared by authors only."""
        return self._hashes[i] not in self._known

    def tie_texts(self) -> set[int]:
        """Records with stored papers of their title: their text and authors say whether one is the same
        paper. Give each to `settle_tie`, in file order."""
        return set(self._ties)

    def settle_tie(self, i: int, text: str, authors: Sequence[str]) -> None:
        """Place record i (one of `tie_texts`, in file order) on the stored paper of its title whose content
        agrees with its plain text and authors, the closest if several do."""
        self._pending.discard(i)
        rec = Incoming(self._hashes[i], self._titles[i], text if self._has_text(i) else "", list(authors))
        pid = self._doi_match.pop(i, None)
        if pid is not None:
            if self._doi_agrees(self._stored[pid], rec):
                self.revised[i] = pid
                return
            self._used.discard(pid)  # one DOI on two papers (a volume's): the title decides
        cands = [e for e in self._candidates(i) if same_content(e, rec)]
        if not cands:
            self._still.append(i)
            return
        best = max(cands, key=lambda e: SequenceMatcher(None, e.text, rec.text).quick_ratio())
        self.revised[i] = best.id
        self._used.add(best.id)

    @staticmethod
    def _doi_agrees(e: Existing, rec: Incoming) -> bool:
        """Is the stored paper of a record's DOI that paper? Their titles match, or both have authors and
        their content agrees (`same_content`): a DOI alone moved a paper's note onto an unrelated one."""
        if rec.title and _norm_title(e.title) == _norm_title(rec.title):
            return True
        return bool(_surnames(e.authors)) and bool(_surnames(rec.authors)) and same_content(e, rec)

    def settle_ties(self, records: Callable[[int], tuple[str, Sequence[str]]]) -> None:
        """Settle every tie in file order; `records` gives a record's (plain text, authors) by number."""
        for i in sorted(self._pending):
            self.settle_tie(i, *records(i))

    def similar_texts(self) -> set[int]:
        """Records still unplaced that abstract similarity may place (none when no stored text is left)."""
        assert not self._pending, "settle_ties first"
        self._still.sort()
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
    m.settle_ties(lambda i: (incoming[i].text, incoming[i].authors))
    for i in sorted(m.similar_texts()):
        m.place_similar(i, incoming[i].text)
    return m.unchanged, m.revised


_DIGITS_RE = re.compile(r"[0-9]+")


class UidIndex:
    """Papers by readinglist id, and by the number an id of digits alone becomes when a spreadsheet or
    Obsidian took it for one: 039471 comes back as 39471. An id is a hex prefix of six characters (longer
    only where six were taken), so the number names the paper whose id it is, zeros put back, when one id
    alone has that value; an id that is exactly the number is taken first."""

    def __init__(self) -> None:
        self._uid: dict[str, int] = {}
        self._number: dict[int, int | None] = {}  # None: more than one id has that value

    def add(self, uid: str, pid: int) -> None:
        uid = uid.lower()
        self._uid[uid] = pid
        if _DIGITS_RE.fullmatch(uid):
            self._number[int(uid)] = None if int(uid) in self._number else pid

    def get(self, uid: str) -> int | None:
        uid = uid.strip().lower()
        pid = self._uid.get(uid)
        if pid is None and _DIGITS_RE.fullmatch(uid):
            pid = self._number.get(int(uid))
        return pid


class LibraryMatcher:
    """Which paper of the whole library a record of one of the app's own exports is, whatever file it came
    from: by its readinglist id, else by its citation key (when the titles or authors agree: a key in a
    foreign .bib file may name another paper), else (an export that holds neither, a Markdown reading list
    from before it carried keys) by its shown title with agreeing authors. Re-importing an export into the
    library it came from then finds every paper, so nothing is added twice and no paper's annotations change;
    a CSV export saved by a spreadsheet, which writes the id 039471 as 39471, too (UidIndex)."""

    def __init__(self, rows: Sequence[tuple[int, str, str, str, str, str, list[str]]]):
        self._uid = UidIndex()
        self._key: dict[str, int] = {}
        self._title: dict[str, list[int]] = {}
        self._titles: dict[int, set[str]] = {}
        self._authors: dict[int, list[str]] = {}
        for pid, uid, key, shown, imported, user, authors in rows:
            self._uid.add(uid, pid)
            if key:
                self._key[key.lower()] = pid
            titles = {_loose_title(t) for t in (shown, user, imported) if t.strip()}
            self._titles[pid] = titles
            self._authors[pid] = authors
            for t in titles:
                self._title.setdefault(t, []).append(pid)
        self.taken: set[int] = set()

    def find(self, uid: str, key: str, raw_title: str, authors: Sequence[str], own: bool,
             plain: Callable[[str], str]) -> int | None:  # fmt: skip
        """The library paper the record is, or None. `plain` makes the record's title plain text (LaTeX
        decoded): called only for a record whose key the library knows, or one of an own export."""
        pid = self._uid.get(uid) if uid and own else None
        cand = self._key.get(key.lower()) if key and pid is None else None
        if pid is None and cand is None and not own:
            return None
        title = plain(raw_title) if raw_title else ""
        if cand is not None and self._agrees(cand, title, authors):
            pid = cand
        if pid is None and own and title:
            pid = next((c for c in self._title.get(_loose_title(title), []) if c not in self.taken
                        and (not authors or _authors_agree(self._authors[c], authors))), None)  # fmt: skip
        if pid is None or pid in self.taken:
            return None
        self.taken.add(pid)
        return pid

    def _agrees(self, pid: int, title: str, authors: Sequence[str]) -> bool:
        if title:
            return _loose_title(title) in self._titles[pid]
        return bool(authors) and _authors_agree(self._authors[pid], authors)
