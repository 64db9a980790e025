"""Every change readinglist makes to Whoosh, and every read of its internals, in one place.

Whoosh's multi-process writer starts indexing workers that inherit the index's write lock; they are made to
die with the process that started them (`_patch_worker_orphans`), with any Whoosh release.

Whoosh is pure Python; three of its hot paths are replaced here with byte-identical equivalents (each has a
test comparing it with Whoosh's own function), and the ranker and the index read a few private fields for
whole-block decoding. All of it was written against one release: `WHOOSH_PINNED`. With any other version
nothing is patched and `fast_paths()` is False, so the ranker hands every query to Whoosh's own matchers —
slower, never wrong — and `apply()` says so once.

`apply()` is idempotent and is called by whatever needs the patches before writing or reading an index: the
engine when it opens one, and the word analyzer when Whoosh's writer processes unpickle the schema.
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Callable, Iterable
from contextlib import suppress
from functools import lru_cache
from itertools import pairwise
from pickle import dumps
from typing import Any

import whoosh

WHOOSH_PINNED = (2, 7, 5)
_lock = threading.Lock()
_state: dict[str, object] = {"applied": False, "message": None}


def fast_paths() -> bool:
    """True when the installed Whoosh is the release the patches and internal reads were written for."""
    return tuple(whoosh.__version__[:3]) == WHOOSH_PINNED


def mismatch_message() -> str | None:
    """What to tell the user when the fast paths are off (None when they are on)."""
    if fast_paths():
        return None
    have = ".".join(map(str, whoosh.__version__))
    want = ".".join(map(str, WHOOSH_PINNED))
    return f"Whoosh {have} is installed, not {want}: searching and indexing take Whoosh's slower general paths."


def apply(notify: Callable[[str], None] | None = None) -> bool:
    """Apply every patch once; returns whether they are in force. On a version mismatch, tell `notify` once."""
    with _lock:
        if not _state["applied"]:
            _state["applied"] = True
            _patch_worker_orphans()  # not a fast path: a safety net, needed with any release
            if fast_paths():
                _patch_lengths()
                _patch_fuzzy()
                _patch_positions()
            else:
                _state["message"] = mismatch_message()
        message = _state["message"]
    if message and notify is not None:
        notify(str(message))
        _state["message"] = None
    return fast_paths()


# ---- reading Whoosh's columns in one piece -----------------------------------------------------------


def raw_column(column: Any, width: int) -> bytes | None:
    """The stored bytes of a fixed-width Whoosh column in one read, or None for another kind of column.
    Whoosh's readers read (and unpack) one document per call."""
    if not fast_paths() or getattr(column, "_fixedlen", None) != width or not hasattr(column, "_dbfile"):
        return None
    return bytes(column._dbfile.get(column._basepos, width * column._count)) if column._count else b""


def column_lengths(perdoc: Any, fieldname: str, count: int) -> bytes | None:
    """A field's one-byte length column read in one piece (Whoosh's column reader reads one document per
    call, a seek and a read each); None if the segment has no such column."""
    from whoosh.codec.whoosh3 import LENGTHS_COLUMN

    column = perdoc._cached_reader(f"_{fieldname}_len", LENGTHS_COLUMN)
    if column is None:
        return None
    raw = raw_column(column, 1)
    if raw is None:
        raw = bytes(column[d] for d in range(count))
    return raw[:count] + bytes(max(0, count - len(raw)))


def field_lexicon(reader: Any, fieldname: str) -> tuple[list[bytes], array, array, array] | None:
    """Every term of one field of a segment in order, with its document frequency and where its TermInfo
    lies in the term file (position, length), read in one piece: Whoosh's iter_field decodes a TermInfo
    object per term, and a lookup or prefix walk costs a hash probe or a binary
    search of a few file reads each. The file holds (key length, value length, key, value) records in key
    order; a key is the field's number, then the term; a value starts with the flags byte, the total
    weight and the document frequency. None for another kind of reader."""
    import struct

    from whoosh.codec.whoosh3 import W3TermsReader

    terms = getattr(reader, "_terms", None)
    if not fast_paths() or not isinstance(terms, W3TermsReader):
        return None
    words: list[bytes] = []
    frequencies, positions, lengths = array("I"), array("Q"), array("I")
    number = terms._fieldmap.get(fieldname)
    table = terms._tindex
    start = None if number is None else table.closest_key_pos(struct.pack("!H", number))
    if start is None:
        return words, frequencies, positions, lengths
    following = table.closest_key_pos(struct.pack("!H", number + 1))
    end = table.endofdata if following is None else following
    data = table.dbfile.get(start, end - start)
    record = struct.Struct("!ii")
    frequency = struct.Struct("!I")
    pos, size = 0, len(data)
    while pos < size:
        keylen, datalen = record.unpack_from(data, pos)
        key = pos + 8
        value = key + keylen
        words.append(data[key + 2 : value])
        frequencies.append(frequency.unpack_from(data, value + 5)[0])
        positions.append(start + value)
        lengths.append(datalen)
        pos = value + datalen
    return words, frequencies, positions, lengths


def term_info_at(reader: Any, position: int, length: int) -> Any:
    """The TermInfo stored at this place of a segment's term file (see field_lexicon)."""
    from whoosh.codec.whoosh3 import W3TermInfo

    return W3TermInfo.from_bytes(reader._terms._tindex.dbfile.get(position, length))


def postings_from_info(reader: Any, fieldname: str, btext: bytes, info: Any) -> tuple[Any, frozenset[int]] | None:
    """A segment's postings of a term, from the TermInfo the caller already holds (Whoosh's postings()
    looks the term up in the term file again: a hash lookup and a few reads), and the segment's deleted
    documents. None for another kind of reader."""
    from whoosh.codec.whoosh3 import W3TermsReader

    terms = getattr(reader, "_terms", None)
    if not fast_paths() or not isinstance(terms, W3TermsReader):
        return None
    fmt = reader.schema[fieldname].format
    matcher = terms._codec.postings_reader(terms._postfile, info, fmt, term=(fieldname, btext))
    return matcher, reader.deleted_docs_set


# ---- the patches ----------------------------------------------------------------------------------------


def _patch_lengths() -> None:
    """Whoosh reads a document's field length from disk each time it is asked (a seek and a read), and to
    write a segment it asks once per posting. W3PerDocReader.doc_field_length then reads each length column
    once per reader (segments never change) and answers from memory, with Whoosh's exact results."""
    from whoosh.codec.whoosh3 import W3PerDocReader
    from whoosh.util.numeric import byte_to_length

    if getattr(W3PerDocReader, "_readinglist_patched", False):
        return
    original = W3PerDocReader.doc_field_length
    table = [byte_to_length(b) for b in range(256)]

    def doc_field_length(self: Any, docnum: int, fieldname: str, default: int = 0) -> Any:
        cache = self.__dict__.setdefault("_readinglist_lengths", {})
        lengths = cache.get(fieldname, False)
        if lengths is False:
            lengths = cache[fieldname] = column_lengths(self, fieldname, self._doccount)
        if lengths is None or not 0 <= docnum < len(lengths):
            return original(self, docnum, fieldname, default)
        b = lengths[docnum]
        return table[b] if b else None  # as Whoosh: None for a document without the field

    W3PerDocReader.doc_field_length = doc_field_length
    W3PerDocReader._readinglist_patched = True
    W3PerDocReader._readinglist_original = original  # for the test that compares the two


def _patch_fuzzy() -> None:
    """Whoosh builds a fuzzy term's Levenshtein automaton anew for every segment and field it looks in. The
    automaton depends only on the word, the distance and the prefix, and reading it only fills a memo of
    sorted labels, so one built automaton serves every segment and thread."""
    from whoosh.codec.base import Automata

    if getattr(Automata, "_readinglist_patched", False):
        return
    Automata.levenshtein_dfa = staticmethod(lru_cache(maxsize=32)(Automata.levenshtein_dfa))
    Automata._readinglist_patched = True


def forget_fuzzy_automata() -> None:
    """For measuring a fuzzy search from scratch."""
    from whoosh.codec.base import Automata

    clear = getattr(Automata.levenshtein_dfa, "cache_clear", None)
    if clear is not None:
        clear()


_ONE_POSITION: dict[int, bytes] = {}


def encode_positions(poslist: list[int]) -> bytes:
    """Whoosh's Positions.encode, byte for byte; a word seen once (most words of an abstract) from a table."""
    from whoosh.system import pack_uint

    if len(poslist) == 1:
        p = poslist[0]
        got = _ONE_POSITION.get(p)
        if got is None:
            got = _ONE_POSITION[p] = pack_uint(1) + dumps([p], 2)
        return got
    deltas = [poslist[0]] + [b - a for a, b in pairwise(poslist)]
    return pack_uint(len(deltas)) + dumps(deltas, 2)


def _patch_positions() -> None:
    """Positions.word_values for the word analyzer's plain indexing calls: one pass over (word, position)
    pairs instead of Token objects through two generators and two defaultdicts. Any other call (other
    analyzers, query-time modes, extra options) goes to Whoosh."""
    from whoosh.formats import Positions

    from readinglist.index.analysis import WordAnalyzer

    if getattr(Positions, "_readinglist_patched", False):
        return
    original = Positions.word_values

    def word_values(self: Positions, value: Any, analyzer: Any, **kwargs: Any) -> Iterable[tuple]:
        if type(analyzer) is not WordAnalyzer or not isinstance(value, str) or kwargs.keys() - {"mode"}:
            return original(self, value, analyzer, **kwargs)
        if kwargs.get("mode", "index") != "index":
            return original(self, value, analyzer, **kwargs)
        poses: dict[str, list[int]] = {}
        for text, pos in analyzer.words(value):
            got = poses.get(text)
            if got is None:
                poses[text] = [pos]
            else:
                got.append(pos)
        fb = self.field_boost
        encode = encode_positions if type(self) is Positions else self.encode  # a subclass's own encoding
        return [(w, len(p), float(len(p)) * fb, encode(p)) for w, p in poses.items()]

    Positions.word_values = word_values
    Positions._readinglist_patched = True
    Positions._readinglist_original = original  # for the test that compares the two


_starting = threading.local()  # the write lock's descriptor while an MpWriter starts a worker


def _patch_worker_orphans() -> None:
    """Whoosh's MpWriter forks indexing workers (SubWriterTask). Forked, they inherit the parent's file
    descriptor of MAIN_WRITELOCK, and if the parent is killed mid-import they wait on their job queue
    forever, holding the lock: every later write of the library fails. Each worker now closes its copy of
    the lock's descriptor (the lock stays the parent's: flock belongs to the open file, which the parent
    still has) and dies with its parent."""
    import os

    from whoosh import multiproc

    if getattr(multiproc.SubWriterTask, "_readinglist_patched", False):
        return
    original_new_task = multiproc.MpWriter._new_task
    original_start = multiproc.SubWriterTask.start
    original_run = multiproc.SubWriterTask.run

    def new_task(self: Any) -> Any:
        lock = getattr(self, "writelock", None)
        _starting.fds = [lock.fd] if lock is not None and getattr(lock, "fd", None) is not None else []
        try:
            return original_new_task(self)
        finally:
            _starting.fds = []

    def start(self: Any) -> None:
        self._readinglist_parent = os.getpid()
        self._readinglist_lock_fds = list(getattr(_starting, "fds", []))
        original_start(self)

    def run(self: Any) -> None:
        from readinglist.index.background import die_with_parent

        for fd in getattr(self, "_readinglist_lock_fds", ()):
            with suppress(OSError):
                os.close(fd)
        parent = getattr(self, "_readinglist_parent", None)
        if parent is not None:
            die_with_parent(parent)
        original_run(self)

    multiproc.MpWriter._new_task = new_task
    multiproc.SubWriterTask.start = start
    multiproc.SubWriterTask.run = run
    multiproc.SubWriterTask._readinglist_patched = True
