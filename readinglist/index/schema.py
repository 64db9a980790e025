"""What the index holds for a paper: the fields, their analyzers, and the document built from a paper.

Nothing is stored: a document's paper id is read from the pid column, and text from SQLite, never from the
index; positions are held compactly (CompactPositions). The fingerprint names the schema's version: an index
made with another is rebuilt (as papis rebuilds its cache on a schema change).
"""

from __future__ import annotations

import hashlib
import json

from whoosh.analysis.filters import STOP_WORDS
from whoosh.columns import NumericColumn
from whoosh.fields import COLUMN, ID, KEYWORD, NUMERIC, TEXT, Schema
from whoosh.formats import Positions

from readinglist.acronyms import definitions
from readinglist.index import patches
from readinglist.index.analysis import TAG_SEPARATOR, TagAnalyzer, WordAnalyzer, note_text, stem
from readinglist.papers import DEFAULT_STATE, NewPaper, Paper

# 2: FastStemAnalyzer; 3: the pid column; 4: non-compound segments; 5: pid a bare column, year without trie
# terms (pid was never searched, and year ranges match exact values, see ranking.Ranker._numeric_range);
# 6: every word in its own form, folded, stop words kept (WordAnalyzer; stems at search time), tags by tag_key;
# 7: priority (and the states queued, skipped); 8: positions as varint deltas (CompactPositions), id not stored;
# 9: posting blocks in patches.encode_block's binary form, not pickled; 10: a derived title weighs less;
# 11: the acronyms each abstract defines; 12: no id field (a paper's documents are found by the pid column)
# 13: ø, ł, æ and the other letters NFKD leaves whole folded as a reader types them (collation.PLAIN_LETTERS);
# 14: and a word with ä, ö, ü, ø or å held spelt out too (Müller: muller and mueller; analysis.spelt_out),
# its place counted once in the field's length; 15: tags parted by TAG_SEPARATOR, not commas ("Optimization,
# convex" is one tag); 16: a word keeps its combining marks ("M̲ask" is "mask", not "m" and "ask"), and a word
# joined by underscores ("t_mix", "x_(train)") is held with its parts at its place too (analysis.subscript_parts)
SCHEMA_VERSION = 16
NO_PRIORITY = "none"  # what priority:none finds
TEXT_FIELDS = ["title", "abstract", "authors", "tags", "note"]  # what a word without a field searches
STEMMED_FIELDS = {"title", "abstract", "note"}  # where a plain word matches every form of its stem
HIGHLIGHTED_FIELDS = {"title", "abstract", "authors", "note"}
TITLE_BOOST = 3.0
# a title derived from the abstract (none imported, none the user's) holds the abstract's words again: its
# words weigh this much, as a title's weigh TITLE_BOOST (see _document)
DERIVED_TITLE_WEIGHT = 0.2


def _varint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


_SMALL = [_varint(n) for n in range(1 << 14)]  # the deltas of real text: one or two bytes, from a table


class CompactPositions(Positions):
    """A word's positions in a field as LEB128 varint deltas: one byte for a word seen once early in an
    abstract (most postings), where Whoosh's own encoding is a 4-byte count and a pickled list (~14 bytes).
    The index's postings are mostly these values (see docs/performance-changes.md, Session 7)."""

    def encode(self, poslist: list[int]) -> bytes:
        small, base, parts = _SMALL, 0, []
        for pos in poslist:
            delta = pos - base
            parts.append(small[delta] if delta < len(small) else _varint(delta))
            base = pos
        return parts[0] if len(parts) == 1 else b"".join(parts)

    def decode_positions(self, valuestring: bytes) -> list[int]:
        if len(valuestring) == 1:
            return [valuestring[0]]
        out, pos, n, shift = [], 0, 0, 0
        for b in valuestring:
            n |= (b & 0x7F) << shift
            if b & 0x80:
                shift += 7
            else:
                pos += n
                out.append(pos)
                n, shift = 0, 0
        return out

    def decode_frequency(self, valuestring: bytes) -> int:
        return sum(1 for b in valuestring if not b & 0x80)


LONG_FORM = "a:"  # an acronyms term "a:mdp=markov decision processes": the acronym's long form as written
ACRONYM = "l:"  # "l:markov decis process=mdp": the long form's content words' stems → the acronym
_WORDS = WordAnalyzer()


def long_form_key(words: list[str]) -> str:
    """What a long form is looked up by: the stems of its words, stop words left out (as a query drops
    them), joined by spaces."""
    return " ".join(stem(w) for w in words if w not in STOP_WORDS)


def acronym_terms(abstract: str) -> str:
    """The acronyms field of a document: each definition the abstract gives, both ways (see the prefixes),
    comma-separated; a long form of one content word is no phrase to match and is left out."""
    terms = []
    for key, long in definitions(abstract).items():
        words = [w for w, _ in _WORDS.words(long)]
        if len(words) < 2:
            continue
        terms.append(f"{LONG_FORM}{key}={' '.join(words)}")
        if len(stems := long_form_key(words).split()) > 1:
            terms.append(f"{ACRONYM}{' '.join(stems)}={key}")
    return ",".join(terms)


def _text(analyzer: WordAnalyzer, field_boost: float = 1.0) -> TEXT:
    field = TEXT(analyzer=analyzer, field_boost=field_boost)
    field.format = CompactPositions(field_boost=field_boost)
    return field


def make_schema() -> Schema:
    """Segments are written as separate files, not Whoosh's default compound file (see engine._new_writer):
    reading a compound segment copies each of its files into memory. Every text field holds words the same
    way (see analysis): a word of a query means the same in each."""
    words = WordAnalyzer()
    tags = KEYWORD(lowercase=True, scorable=True)  # (its analyzer: TagAnalyzer's TAG_SEPARATOR, not commas)
    tags.analyzer = TagAnalyzer()
    return Schema(
        # docnum → paper id without stored reads, and what a paper's document is replaced or deleted by
        # (engine.Index.put): no unique id term, whose term per paper was 15 % of the index's terms
        pid=COLUMN(NumericColumn("I")),
        title=_text(words, TITLE_BOOST),
        abstract=_text(words),
        authors=_text(words),
        tags=tags,
        note=_text(words),
        venue=_text(words),
        year=NUMERIC(int, bits=16, signed=False, shift_step=0),
        state=ID,
        priority=ID,  # "1", "2", "3" or "none"
        acronyms=KEYWORD(commas=True),  # the abstract's definitions (acronym_terms): for the Vocabulary only
    )


def schema_fingerprint(schema: Schema) -> str:
    """Names and types only (reprs carry memory addresses); bump SCHEMA_VERSION when an analyzer changes."""
    desc = [(name, type(f).__name__, getattr(f, "field_boost", 1.0)) for name, f in schema.items()]
    blocks = "compact" if patches.fast_paths() else "whoosh"  # another Whoosh writes, and reads, only its own
    return hashlib.sha1(json.dumps([SCHEMA_VERSION, desc, blocks], default=str).encode()).hexdigest()[:16]


def _document(
    pid: int, title: str, abstract: str, authors: list[str], tags: list[str], note: str, venue: str,
    year: int | None, state: str, priority: int | None = None, derived_title: bool = False,
) -> dict[str, object]:  # fmt: skip
    """A derived title gets a document boost (Whoosh's `_title_boost`, multiplied into its postings'
    weights): boosted as a real title is, it ranked any paper whose derived title repeats a pasted title's
    words above the paper that title is of."""
    doc: dict[str, object] = {
        "pid": pid,
        "title": title,
        "abstract": abstract,
        "authors": " ; ".join(authors),
        "tags": TAG_SEPARATOR.join(tags),
        "note": note_text(note),
        "venue": venue,
        "state": state,
        "priority": str(priority) if priority else NO_PRIORITY,
    }
    if year:
        doc["year"] = year
    if "(" in abstract and (acronyms := acronym_terms(abstract)):
        doc["acronyms"] = acronyms
    if derived_title:
        doc["_title_boost"] = DERIVED_TITLE_WEIGHT / TITLE_BOOST
    return doc


def document(p: Paper) -> dict[str, object]:
    derived = not p.user_title and not p.raw_title.strip()
    return _document(p.id, p.title, p.plain_abstract, p.authors, p.tags, p.note, p.venue, p.year, p.state, p.priority,
                     derived_title=derived)  # fmt: skip


def new_document(paper_id: int, p: NewPaper) -> dict[str, object]:
    """The document of a just-imported paper, from what the import prepared (no read-back from SQLite)."""
    return _document(paper_id, p.auto_title, p.plain_abstract, p.authors, [*p.tags, *p.keywords], "", p.venue, p.year,
                     DEFAULT_STATE, derived_title=not p.title.strip())  # fmt: skip
