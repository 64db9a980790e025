"""Is a record from one source the same paper as one from another? Pure rules, no store and no Qt.

Two files describe one conference differently: a BibTeX export decodes the title's LaTeX, a JSON list keeps
it; one gives "Zhang, Lijun", the other "Lijun Zhang"; one has the abstract, the other a placeholder. So the
title is compared as a key (markup decoded, case, accents and punctuation dropped), the authors by surname,
the year within one. A shared title alone is not a paper: the same title by disjoint authors, or a workshop
version beside the main-track one, is at most a *possible* duplicate that the user decides. The other way
in is a near-identical abstract (word shingles), unless the authors disagree: then it is only possible (the
NeurIPS data has 13 pairs of distinct papers with one abstract). A DOI says much but not all: files give a
proceedings volume's DOI to each of its papers, and one Mendeley export gave two unrelated articles (1991 and
2018, sharing one author of fifteen) one DOI. So two records with one DOI are one paper when their titles
agree, or their abstracts, or their author lists both agree by half and more (an arXiv title and the
journal's); otherwise a possible duplicate. Two with different DOIs are not merged without the user, however
alike (a conference paper and its journal version), unless one DOI is a preprint server's (arXiv's
10.48550/arXiv.…, which arXiv's BibTeX gives): a preprint and its published version are one paper.
Candidates come from the store by the keys (`title_key`, `text_key`), indexed in SQL, so an import of 94k
records never holds the library's abstracts.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from readinglist import biblio, markup
from readinglist.collation import PLAIN_LETTERS

SAME_ABSTRACT = 0.8  # word-3-shingle Jaccard from which two abstracts are one text (a word changed in 50: 0.89)
SIMILAR_ABSTRACT = 0.5  # … above which a same-title pair with disjoint authors is worth asking about
SHINGLE = 3  # words per shingle
MIN_ABSTRACT_WORDS = 25  # shorter abstracts say too little to match a paper by its text alone
MIN_TITLE_WORDS = 3  # a shorter title ("Introduction") matches only with agreeing authors
TEXT_KEY_WORDS = 24  # the first words of an abstract that make its key


class Verdict(Enum):
    SAME = "same"  # merged at import
    POSSIBLE = "possible"  # listed for the user to decide
    DISTINCT = "distinct"


@dataclass
class Candidate:
    """What the rules look at: one paper or record, its title already plain (markup.title_plain)."""

    title: str
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    venue: str = ""
    text: str = ""  # the abstract as plain text
    key: str | None = None  # its title_key, when known (a stored paper's); else computed from the title
    doi: str = ""


def _fold(text: str) -> str:
    """Case and accents dropped, and ø, ł, æ … as ASCII spells them (collation.PLAIN_LETTERS), as search folds
    them: one file's "Łukasz" is another's "Lukasz"."""
    if text.isascii():  # no marks to drop, and casefold is lower: the same, and a hundred times faster
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text).translate(PLAIN_LETTERS)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def title_key(plain_title: str) -> str:
    """The title up to case, accents, punctuation and spacing: what two sources of a paper agree on. The
    pluses ending a word are its own ("PointNet++", "C++"): "Hyperbolic Neural Networks++" is not
    "Hyperbolic Neural Networks" (a trial found them called the same title)."""
    return " ".join(_TITLE_WORD.findall(_fold(plain_title)))


_TITLE_WORD = re.compile(r"[^\W_]+(?:\++(?![^\W_]))?")


def title_key_of_raw(raw_title: str) -> str:
    """title_key of a title as a file has it (LaTeX, braces, HTML): decoded first."""
    return title_key(markup.title_plain(raw_title)) if raw_title.strip() else ""


def _abstract_words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", _fold(text))


def _first_words(text: str, n: int) -> list[str]:
    """The first n of _abstract_words(text) (all of them if fewer), folding only the start of a long text:
    an import asks for the key of every abstract, and folding is per character. The start is long enough
    when it holds more than n words, since only its last word can have been cut."""
    size = 16 * n
    while size < len(text):
        words = _abstract_words(text[:size])
        if len(words) > n:
            return words[:n]
        size *= 4
    return _abstract_words(text)[:n]


def text_key(plain_abstract: str) -> str:
    """A key of an abstract's first words: two near-identical abstracts almost always share it (an erratum
    changes a word further on), and it finds them in SQL without comparing every pair. '' when too short."""
    words = _first_words(plain_abstract, max(MIN_ABSTRACT_WORDS, TEXT_KEY_WORDS))
    if len(words) < MIN_ABSTRACT_WORDS:
        return ""
    return hashlib.sha1(" ".join(words[:TEXT_KEY_WORDS]).encode()).hexdigest()[:20]


def _shingles(text: str) -> set[tuple[str, ...]]:
    words = _abstract_words(text)
    return {tuple(words[i : i + SHINGLE]) for i in range(max(1, len(words) - SHINGLE + 1))}


def abstract_similarity(a: str, b: str) -> float:
    """Jaccard similarity of the two abstracts' word shingles (0 when either is empty)."""
    if not a.strip() or not b.strip():
        return 0.0
    sa, sb = _shingles(a), _shingles(b)
    return len(sa & sb) / max(1, len(sa | sb))


def surname(name: str) -> str:
    """ "Zhang, Lijun" and "Lijun Zhang" → "zhang"; accents and punctuation dropped."""
    name = name.strip()
    if "," in name:
        name = name.split(",", 1)[0]
    else:
        parts = name.split()
        name = parts[-1] if parts else ""
    return "".join(re.findall(r"[^\W_]+", _fold(name)))


def _surnames(authors: Sequence[str]) -> set[str]:
    return {s for s in map(surname, authors) if s}


def authors_compatible(a: Sequence[str], b: Sequence[str]) -> bool:
    """The two author lists share a surname, or one of them has none (a source without authors)."""
    sa, sb = _surnames(a), _surnames(b)
    return not sa or not sb or bool(sa & sb)


def _name_key(name: str) -> tuple[str, str]:
    """(surname, first initial of the given names, '' if none): "Wang, Wei" and "Wei Wang" → ("wang", "w")."""
    name = name.strip()
    if "," in name:
        given = name.split(",", 1)[1]
    else:
        parts = name.split()
        given = " ".join(parts[:-1])
    initial = re.search(r"[^\W\d_]", _fold(given))
    return surname(name), initial.group() if initial else ""


def fuller_authors(stored: Sequence[str], other: Sequence[str]) -> list[str] | None:
    """The other source's author list when it is the stored one carried further: longer, and its first names
    the stored ones, in order, by surname and first initial (our Markdown list writes three then "et al.").
    Each name is kept in the fuller of its two spellings ("Ashish Vaswani" over "A. Vaswani"). None when
    the other list is no such extension: a list that differs keeps the paper's own."""
    if not stored or len(other) <= len(stored):
        return None
    merged = []
    for mine, theirs in zip(stored, other, strict=False):
        (s1, i1), (s2, i2) = _name_key(mine), _name_key(theirs)
        if not s1 or s1 != s2 or (i1 and i2 and i1 != i2):
            return None
        merged.append(theirs if len(theirs.strip()) > len(mine.strip()) else mine)
    return [*merged, *other[len(stored) :]]


def covering_authors(stored: Sequence[str], other: Sequence[str]) -> list[str] | None:
    """For a merge the user asked for: `fuller_authors`' list, else the other list when it is longer and names
    every stored author (surname and first initial), in any order ("Bob Jones" within "Alice Smith, B.
    Jones"): the user said the two are one paper, so the longer list is its authors. None otherwise."""
    if (fuller := fuller_authors(stored, other)) is not None:
        return fuller
    if not stored or len(other) <= len(stored):
        return None
    free = [_name_key(n) for n in other]
    for sur, initial in map(_name_key, stored):
        hit = next((j for j, (s2, i2) in enumerate(free)
                    if sur and s2 == sur and (not initial or not i2 or initial == i2)), None)  # fmt: skip
        if hit is None:
            return None
        del free[hit]
    return list(other)


def authors_agree(a: Sequence[str], b: Sequence[str]) -> bool:
    """Both lists have authors, and at least half of the longer list is in the other, each name by surname
    and first initial (one without an initial matches any): what one DOI on two titles needs. The matcher's
    half-of-the-shorter-list by surname alone let "Wei Wang, John Smith" be "Li Wang, Alice Brown", and
    a lone "Adrian Furnham" be a fifteen-author paper that lists him."""
    ka = [k for k in map(_name_key, a) if k[0]]
    kb = [k for k in map(_name_key, b) if k[0]]
    if not ka or not kb:
        return False
    short, long = sorted((ka, kb), key=len)
    free = list(long)
    matched = 0
    for sur, initial in short:
        hit = next((j for j, (s2, i2) in enumerate(free) if s2 == sur and (not initial or not i2 or initial == i2)),
                   None)  # fmt: skip
        if hit is not None:
            matched += 1
            del free[hit]
    return matched * 2 >= len(long)


def years_compatible(a: int | None, b: int | None) -> bool:
    """Equal, within one (online first, printed the next year), or one missing."""
    return a is None or b is None or abs(a - b) <= 1


def is_workshop(venue: str) -> bool:
    return bool(re.search(r"\bworkshops?\b|\bws\b", venue.casefold()))


# a conference's long names, as BibTeX from DBLP or a publisher gives them, and its short one
_VENUE_NAMES = {
    "neural information processing systems": "neurips", "nips": "neurips",
    "international conference on machine learning": "icml",
    "international conference on learning representations": "iclr",
    "artificial intelligence and statistics": "aistats", "uncertainty in artificial intelligence": "uai",
    "conference on learning theory": "colt", "computer vision and pattern recognition": "cvpr",
    "association for computational linguistics": "acl", "empirical methods in natural language processing": "emnlp",
}  # fmt: skip


def venue_key(venue: str) -> str:
    """ "Advances in Neural Information Processing Systems 31", "NIPS 2018", "NeurIPS" → "neurips"."""
    text = " ".join(re.findall(r"[^\W\d_]+", _fold(venue)))
    for name, short in _VENUE_NAMES.items():
        if re.search(rf"\b{name}\b", text):
            return short
    return text


def venues_compatible(a: str, b: str) -> bool:
    """One side without a venue, or the same venue however named. A workshop paper and the main-track paper of
    one title are two papers (often the short and the long version), and so are the versions of one title at
    two conferences (ICLR's 2014 workshop track, then NeurIPS): not merged without the user."""
    if not a.strip() or not b.strip():
        return True
    if is_workshop(a) != is_workshop(b):
        return False
    ka, kb = venue_key(a), venue_key(b)
    return ka == kb or bool(ka and kb and (f" {ka} " in f" {kb} " or f" {kb} " in f" {ka} "))


def compare(a: Candidate, b: Candidate) -> tuple[Verdict, str]:
    """Are a and b the same paper? (verdict, why in words). See the module's docstring for what a DOI says."""
    da, db = biblio.doi_key(a.doi), biblio.doi_key(b.doi)
    if da and db and da == db:
        return _compare_same_doi(a, b)
    verdict, why = _compare_texts(a, b)
    if verdict is Verdict.SAME and biblio.dois_conflict(da, db):
        return Verdict.POSSIBLE, f"{why}, but different DOIs"
    return verdict, why


def _compare_same_doi(a: Candidate, b: Candidate) -> tuple[Verdict, str]:
    """Two records with one DOI: the same paper if their titles, abstracts or author lists agree besides."""
    if _title_key(a) and _title_key(a) == _title_key(b):
        if authors_compatible(a.authors, b.authors):
            return Verdict.SAME, "same DOI and title"
        return Verdict.POSSIBLE, "same DOI and title, but different authors"
    if _close_abstracts(a, b) and authors_compatible(a.authors, b.authors):
        return Verdict.SAME, "same DOI and abstract"
    if authors_agree(a.authors, b.authors) and years_compatible(a.year, b.year):
        return Verdict.SAME, "same DOI and authors"
    return Verdict.POSSIBLE, "same DOI, but different titles and authors"


def strength(a: Candidate, b: Candidate) -> int:
    """How much two records found the SAME agree, to choose among several a record matches: the DOI and the
    title count most, then the abstract, then the authors (a copied DOI must not beat an exact title)."""
    da = biblio.doi_key(a.doi)
    same_doi = bool(da) and da == biblio.doi_key(b.doi)
    same_title = bool(_title_key(a)) and _title_key(a) == _title_key(b)
    return 2 * same_doi + 2 * same_title + _close_abstracts(a, b) + authors_agree(a.authors, b.authors)


def _title_key(c: Candidate) -> str:
    return c.key if c.key is not None else title_key(c.title)


def _close_abstracts(a: Candidate, b: Candidate) -> bool:
    return len(_abstract_words(a.text)) >= MIN_ABSTRACT_WORDS and abstract_similarity(a.text, b.text) >= SAME_ABSTRACT


def _compare_texts(a: Candidate, b: Candidate) -> tuple[Verdict, str]:
    """Are a and b the same paper by their titles, authors, venues, years and abstracts?"""
    ka, kb = _title_key(a), _title_key(b)
    same_title = bool(ka) and ka == kb
    if same_title:
        if not venues_compatible(a.venue, b.venue):
            if is_workshop(a.venue) != is_workshop(b.venue):
                return Verdict.POSSIBLE, "same title, but a workshop and a main-track paper"
            return Verdict.POSSIBLE, f"same title at two venues ({a.venue}, {b.venue})"
        if not authors_compatible(a.authors, b.authors):
            if abstract_similarity(a.text, b.text) >= SIMILAR_ABSTRACT:
                return Verdict.POSSIBLE, "same title and similar abstract, but different authors"
            return Verdict.DISTINCT, "same title, different authors"
        if not years_compatible(a.year, b.year):
            return Verdict.POSSIBLE, f"same title, but years {a.year} and {b.year}"
        both_have_authors = bool(_surnames(a.authors)) and bool(_surnames(b.authors))
        if len(ka.split()) < MIN_TITLE_WORDS and not both_have_authors:
            return Verdict.POSSIBLE, "same short title, no authors to compare"
        return Verdict.SAME, "same title and authors"
    if abstract_similarity(a.text, b.text) >= SAME_ABSTRACT and len(_abstract_words(a.text)) >= MIN_ABSTRACT_WORDS:
        if not venues_compatible(a.venue, b.venue) or not years_compatible(a.year, b.year):
            return Verdict.POSSIBLE, "near-identical abstract, but different venue or year"
        if authors_compatible(a.authors, b.authors):  # a derived title beside a real one, a retitled version
            return Verdict.SAME, "near-identical abstract"
        return Verdict.POSSIBLE, "near-identical abstract under another title by other authors"
    return Verdict.DISTINCT, ""
