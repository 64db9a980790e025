"""Every change readinglist makes to Whoosh, and every read of its internals, in one place.

Whoosh's multi-process writer starts indexing workers that inherit the index's write lock; they are made to
die with the process that started them (`_patch_worker_orphans`), with any Whoosh release.

Whoosh is pure Python; three of its hot paths are replaced here with byte-identical equivalents (each has a
test comparing it with Whoosh's own function), and the ranker and the index read a few private fields for
whole-block decoding. Posting blocks and one-document terms are written in a compact binary form instead
of Whoosh's pickles (`_patch_postings`, `_patch_inlined`: the index's schema 9); Whoosh's own form still
reads. All of it was written against one release: `WHOOSH_PINNED`. With any other version nothing is
patched and `fast_paths()` is False, so the ranker hands every query to Whoosh's own matchers — slower,
never wrong — and `apply()` says so once; the schema's fingerprint names the block form, so an index of
the other form is rebuilt rather than misread.

`apply()` is idempotent and is called by whatever needs the patches before writing or reading an index: the
engine when it opens one, and the word analyzer when Whoosh's writer processes unpickle the schema.
"""

from __future__ import annotations

import marshal
import struct
import sys
import threading
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from functools import lru_cache
from itertools import accumulate, pairwise
from pickle import dumps, loads
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
                _patch_postings()
                _patch_add_postings()
                _patch_add_document()
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


def field_lexicon(reader: Any, fieldname: str) -> tuple[bytes, array, array, array, array] | None:
    """Every term of one field of a segment in order (their bytes end to end, and where each ends), with its
    document frequency and where its TermInfo lies in the term file (position, length), read in one piece:
    Whoosh's iter_field decodes a TermInfo
    object per term, and a lookup or prefix walk costs a hash probe or a binary
    search of a few file reads each. The file holds (key length, value length, key, value) records in key
    order; a key is the field's number, then the term; a value starts with the flags byte, the total
    weight and the document frequency. None for another kind of reader."""
    import struct

    from whoosh.codec.whoosh3 import W3TermsReader

    terms = getattr(reader, "_terms", None)
    if not fast_paths() or not isinstance(terms, W3TermsReader):
        return None
    words = bytearray()
    ends, frequencies, positions, lengths = array("Q"), array("I"), array("Q"), array("I")
    number = terms._fieldmap.get(fieldname)
    table = terms._tindex
    start = None if number is None else table.closest_key_pos(struct.pack("!H", number))
    if start is None:
        return bytes(words), ends, frequencies, positions, lengths
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
        words += data[key + 2 : value]
        ends.append(len(words))
        frequencies.append(frequency.unpack_from(data, value + 5)[0])
        positions.append(start + value)
        lengths.append(datalen)
        pos = value + datalen
    return bytes(words), ends, frequencies, positions, lengths


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
        if lengths is None and 0 <= docnum <= self._doccount:
            return default  # no such column (a field without lengths): Whoosh's answer, without its stat call
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


def word_positions(analyzer: Any, value: str) -> dict[str, list[int]]:
    """Each word of `value`, as the word analyzer gives them, with its positions in order: what a document's
    postings of one field are made from (Positions.word_values and the workers' _word_items alike)."""
    poses: dict[str, list[int]] = {}
    for text, pos in analyzer.words(value, spell_out=True):
        got = poses.get(text)
        if got is None:
            poses[text] = [pos]
        else:
            got.append(pos)
    return poses


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
        poses = word_positions(analyzer, value)
        fb = self.field_boost
        encode = encode_positions if type(self) is Positions else self.encode  # a subclass's own encoding
        return [(w, len(p), float(len(p)) * fb, encode(p)) for w, p in poses.items()]

    Positions.word_values = word_values
    Positions._readinglist_patched = True
    Positions._readinglist_original = original  # for the test that compares the two


# ---- posting blocks in a compact binary form ---------------------------------------------------------

COMPACT_MAGIC = b"RLb1"  # a term's postings start with this instead of Whoosh's b"W3Bl"
# a block: its length (negative for a term's last block), postings, last docnum, highest weight, flags
# (ZLIB: the body is compressed; PICKLED: Whoosh's own tuple, pickled), the one-byte shortest and longest field lengths
_HEAD = struct.Struct("!iHIdBBB")
_ZLIB, _PICKLED = 0x80, 0x40
_WIDTHS = ("B", "H", "I")  # the body's integers as arrays of the narrowest of these, little-endian
_LITTLE = sys.byteorder == "little"


def _width(largest: int) -> int:
    return 0 if largest < 0x100 else 1 if largest < 0x10000 else 2


def _packed(code: int, numbers: Any) -> bytes:
    a = array(_WIDTHS[code], numbers)
    if not _LITTLE:
        a.byteswap()
    return a.tobytes()


def _unpacked(code: int, data: bytes, start: int, count: int) -> tuple[array, int]:
    a = array(_WIDTHS[code])
    end = start + count * a.itemsize
    a.frombytes(data[start:end])
    if not _LITTLE:
        a.byteswap()
    return a, end


def _whole_bytes(weights: Any) -> bytes | None:
    """The weights as bytes when every one is a whole number from 0 to 255, else None. For an array the
    check (`w.is_integer() and 0 <= w < 256` of each) is made by bytes and array in C: a block's weights are
    checked once per block written, so per posting."""
    if type(weights) is not array:
        if all(w.is_integer() and 0 <= w < 256 for w in weights):
            return bytes(int(w) for w in weights)
        return None
    try:
        whole = bytes(map(int, weights))  # ValueError beyond 0..255 or for a NaN, OverflowError for infinity
    except (ValueError, OverflowError):
        return None
    return whole if array("B", whole) == weights else None  # a fraction cut to its whole part differs


def encode_block(ids: Any, weights: Any, values: list[bytes], fixedsize: int | None, level: int = 3) -> bytes:
    """A block of postings (docnums in order, weights, encoded values) as flags and a body: the first docnum,
    the gaps to the others, the weights (none when all are 1, one when all are equal, bytes when they are
    whole numbers below 256, else float32s), the values' lengths and the values; zlib-compressed when that is
    smaller. Whoosh pickles each block as Python objects (a float per weight, a bytes object per value)."""
    n = len(ids)
    gaps = [b - a for a, b in pairwise(ids)]
    gap_code = _width(max(gaps)) if gaps else 0
    parts = [struct.pack("<I", ids[0]), _packed(gap_code, gaps)]
    in_c = type(weights) is array  # its checks made by array.count in C; a list or tuple's one by one
    if weights.count(1.0) == len(weights) if in_c else all(w == 1.0 for w in weights):
        weight_code = 0
    elif weights.count(weights[0]) == len(weights) if in_c else all(w == weights[0] for w in weights):
        weight_code = 1
        parts.append(struct.pack("<f", weights[0]))
    elif (whole := _whole_bytes(weights)) is not None:
        weight_code = 2
        parts.append(whole)
    else:
        weight_code = 3
        parts.append(array("f", weights).tobytes() if _LITTLE else struct.pack(f"<{n}f", *weights))
    if fixedsize is None or fixedsize < 0:
        if len(values) != n:
            raise ValueError("a value for every posting")
        lengths = list(map(len, values))
        value_code = 1 + _width(max(lengths))
        parts.append(_packed(value_code - 1, lengths))
    else:
        value_code = 0
    parts.extend(values)
    body = b"".join(parts)
    flags = gap_code | weight_code << 2 | value_code << 4
    if level and len(body) > 24:
        packed = zlib.compress(body, level)
        if len(packed) < len(body):
            return bytes([flags | _ZLIB]) + packed
    return bytes([flags]) + body


class DeferredValues:
    """A block's values not decoded yet: a search reads most blocks for their docnums and weights only, and
    decoding every posting's positions was most of the read (figures: docs/performance-changes.md)."""

    __slots__ = ("body", "flags", "pos")

    def __init__(self, flags: int, body: bytes, pos: int):
        self.flags, self.body, self.pos = flags, body, pos

    def decode(self, n: int, fixedsize: int | None) -> Any:
        return _decode_values(self.flags, self.body, self.pos, n, fixedsize)

    def bounds(self, n: int) -> tuple[bytes, list[int]] | None:
        """The body and where each of the n values starts in it (n + 1 offsets: value i is
        body[at[i]:at[i + 1]]), so that a few values are sliced out without the block's tuple of all of them
        (a look-up in some documents only: Ranker._postings_within); None for values of a fixed size or none."""
        value_code = self.flags >> 4 & 3
        if not value_code:
            return None
        lengths, pos = _unpacked(value_code - 1, self.body, self.pos, n)
        return self.body, list(accumulate(lengths, initial=pos))


def decode_block(data: bytes, n: int, fixedsize: int | None, with_values: bool = True) -> tuple[Any, Any, Any]:
    """encode_block's postings as Whoosh's blocks hold them once unpickled: (the first docnum and the gaps,
    the weights — None when all are 1, a float when all are equal —, the values: a tuple of bytes, or one
    bytes of fixed-size values). Without `with_values`, the values are a DeferredValues."""
    flags = data[0]
    if flags == _PICKLED:
        return loads(data[1:])
    body = zlib.decompress(data[1:]) if flags & _ZLIB else data[1:]
    first = struct.unpack_from("<I", body)[0]
    gaps, pos = _unpacked(flags & 3, body, 4, n - 1)
    ids = (first, *gaps)
    weight_code = flags >> 2 & 3
    weights: Any
    if weight_code == 0:
        weights = None
    elif weight_code == 1:
        weights = struct.unpack_from("<f", body, pos)[0]
        pos += 4
    elif weight_code == 2:
        weights = tuple(map(float, body[pos : pos + n]))
        pos += n
    else:
        weights = struct.unpack_from(f"<{n}f", body, pos)
        pos += 4 * n
    if not with_values:
        return ids, weights, DeferredValues(flags, body, pos)
    return ids, weights, _decode_values(flags, body, pos, n, fixedsize)


def _decode_values(flags: int, body: bytes, pos: int, n: int, fixedsize: int | None) -> Any:
    value_code = flags >> 4 & 3
    if value_code:
        lengths, pos = _unpacked(value_code - 1, body, pos, n)
        at = list(accumulate(lengths, initial=pos))  # (each value sliced in C: a block is up to 128 of them)
        return tuple(map(body.__getitem__, map(slice, at, at[1:])))
    if fixedsize:
        return body[pos:]
    return None


def _patch_postings() -> None:
    """Whoosh writes each block of a term's postings as a pickled tuple of Python objects (zlib level 3)
    with a pickled header; its postings are most of the index. Blocks are now written in encode_block's form
    behind a 21-byte struct header, and a term's postings say which form they are in by their first four
    bytes, so an index of Whoosh's own blocks still reads. The ranker's whole-block reads see the same
    unpickled tuple (`_data`) either way."""
    from whoosh.codec import whoosh3 as w3
    from whoosh.util.numeric import byte_to_length, length_to_byte

    writer, matcher = w3.W3PostingsWriter, w3.W3LeafMatcher
    if getattr(writer, "_readinglist_patched", False):
        return
    original_write, original_header = writer._write_block, matcher._read_header
    original_goto, original_read = matcher._goto, matcher._read_data
    original_values = matcher._read_values

    def _write_block(self: Any, last: bool = False) -> None:
        if self._byteids:  # a term vector's postings (terms, not docnums): Whoosh's own form
            original_write(self, last)
            return
        if not self._blockcount:
            self._postfile.write(COMPACT_MAGIC)
        self._terminfo.add_block(self)
        try:
            body = encode_block(self._ids, self._weights, self._values, self._format.fixed_value_size(),
                                self._compression)  # fmt: skip
        except ValueError:  # values missing (a format with empty values): Whoosh's tuple, pickled
            body = bytes([_PICKLED]) + dumps((self._mini_ids(), self._mini_weights(), self._mini_values()), 2)
        length = _HEAD.size - 4 + len(body)
        ids = self._ids
        head = _HEAD.pack(-length if last else length, len(ids), ids[-1], self._maxweight, 0,
                          length_to_byte(self._minlength), length_to_byte(self._maxlength))  # fmt: skip
        self._postfile.write(head + body)
        self._blockcount += 1
        self._new_block()

    def _read_header(self: Any) -> None:
        postfile = self._postfile
        postfile.seek(self._startoffset)
        magic = postfile.read(4)
        self._readinglist_compact = magic == COMPACT_MAGIC
        if not self._readinglist_compact:
            postfile.seek(self._startoffset)
            original_header(self)
            return
        self._baseoffset = self._startoffset + 4

    def _goto(self: Any, position: int) -> None:
        if not self._readinglist_compact:
            original_goto(self, position)
            return
        self._data = self._ids = self._weights = self._values = None
        self._i = 0
        length, self._blocklength, self._maxid, self._maxweight, _, mnlen, mxlen = _HEAD.unpack(
            self._postfile.get(position, _HEAD.size)
        )
        self._lastblock = length < 0
        self._nextoffset = position + 4 + abs(length)
        self._dataoffset = position + _HEAD.size
        self._compression = 0
        self._minlength = byte_to_length(mnlen)
        self._maxlength = byte_to_length(mxlen)

    def _read_data(self: Any) -> None:
        if not self._readinglist_compact:
            original_read(self)
            return
        data = self._postfile.get(self._dataoffset, self._nextoffset - self._dataoffset)
        self._data = decode_block(data, self._blocklength, self._fixedsize, with_values=False)

    def _read_values(self: Any) -> None:
        if self._data is None:
            self._read_data()
        ids, weights, values = self._data
        if type(values) is DeferredValues:
            self._data = (ids, weights, values.decode(self._blocklength, self._fixedsize))
        original_values(self)

    writer._write_block = _write_block
    writer._readinglist_compact_write = _write_block  # what _DirectTerms writes the bytes of
    matcher._read_header = _read_header
    matcher._goto = _goto
    matcher._read_data = _read_data
    matcher._read_values = _read_values
    writer._readinglist_patched = True
    writer._readinglist_original = original_write  # for the test that compares the two
    _patch_inlined()


def _patch_add_postings() -> None:
    """Writing a segment's postings is most of what an import's indexing workers do, and Whoosh does it a
    posting at a time: its pool sorts every posting as a 5-tuple (field, term, docnum, weight, value), then
    FieldWriter.add_postings makes four calls and a length lookup per posting. The pool now keeps each
    term's postings together (`GroupedPostingPool`: only the terms are sorted), and W3FieldWriter.add_postings
    takes a term's postings at once and fills the postings writer's buffers a block at a time (the block
    statistics as add_posting keeps them): the same calls per term and per block, the same bytes, the pool
    spilling to the same run files at the same sizes. Any other writer goes to Whoosh."""
    from whoosh import writing
    from whoosh.codec import whoosh3 as w3

    if getattr(w3.W3FieldWriter, "_readinglist_patched", False):
        return
    original = w3.W3FieldWriter.add_postings

    def add_postings(self: Any, schema: Any, lengths: Any, items: Iterable[tuple]) -> None:
        if type(self) is not w3.W3FieldWriter or type(self._codec) is not w3.W3Codec:
            return original(self, schema, lengths, items)
        write_postings(self, schema, lengths, items)

    w3.W3FieldWriter.add_postings = add_postings
    w3.W3FieldWriter._readinglist_patched = True
    w3.W3FieldWriter._readinglist_original = original  # for the test that compares the two
    writing._readinglist_original_pool = writing.PostingPool
    writing.PostingPool = _grouped_pool_class()  # what SegmentWriter makes its pool of


class _Groups:
    """A pool's postings in order: iterated, Whoosh's (field, term, docnum, weight, value) tuples; `groups()`,
    ((field, term), its tuples) a term at a time (what write_postings reads)."""

    def __init__(self, fields: dict[str, dict[bytes, list[tuple]]]):
        self._fields = fields

    def groups(self) -> Iterator[tuple[tuple[str, bytes], list[tuple]]]:
        for fieldname in sorted(self._fields):
            terms = self._fields[fieldname]
            for btext in sorted(terms):
                rows = terms[btext]
                rows.sort()  # in docnum order already (documents are added in order): a pass to check
                yield (fieldname, btext), rows

    def __iter__(self) -> Iterator[tuple]:
        for _, rows in self.groups():
            yield from rows


@lru_cache(maxsize=1)
def _grouped_pool_class() -> type:
    from whoosh.writing import PostingPool

    class GroupedPostingPool(PostingPool):
        """Whoosh's PostingPool keeping each term's postings in one list: sorting the terms, not the postings,
        gives the same order. Its size is counted as Whoosh counts it, so it spills to a run at the same
        points, and a run holds the same items."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self._fields: dict[str, dict[bytes, list[tuple]]] = {}
            super().__init__(*args, **kwargs)

        @property
        def current(self) -> list[tuple]:  # Whoosh's sorting pool keeps its items here
            return list(_Groups(self._fields))

        @current.setter
        def current(self, items: list[tuple]) -> None:
            self._fields = {}
            for item in items:
                self._fields.setdefault(item[0], {}).setdefault(item[1], []).append(item)

        def add(self, item: tuple) -> None:
            fieldname = item[0]
            terms = self._fields.get(fieldname)
            if terms is None:
                self.fieldnames.add(fieldname)
                terms = self._fields[fieldname] = {}
            self.currentsize += 150 + len(fieldname) + len(item[1]) * 2 + len(item[4] or "")  # PostingPool.add's
            if self.currentsize > self.limit:
                self.save()
                terms = self._fields.setdefault(fieldname, {})
            rows = terms.get(item[1])
            if rows is None:
                terms[item[1]] = [item]
            else:
                rows.append(item)

        def add_postings(self, fieldname: str, items: list[tuple], size: int) -> None:
            """One field's postings of a document at once; `size` is what add would count for them all. Where
            add would spill to a run between two of them, they go one at a time, so the runs are the same."""
            if not items:
                return
            if self.currentsize + size > self.limit:
                for item in items:
                    self.add(item)
                return
            terms = self._fields.get(fieldname)
            if terms is None:
                self.fieldnames.add(fieldname)
                terms = self._fields[fieldname] = {}
            self.currentsize += size
            get = terms.get
            for item in items:
                rows = get(item[1])
                if rows is None:
                    terms[item[1]] = [item]
                else:
                    rows.append(item)

        def save(self) -> None:
            if self._fields:
                path, f = self._new_run()
                self._write_run(f, _Groups(self._fields))
                self._add_run(path)
                self._fields = {}
            self.currentsize = 0

        def items(self, maxfiles: int = 128) -> Any:
            if not self.runs:
                return _Groups(self._fields)
            return super().items(maxfiles)  # save, reduce_to and _merge_runs: the grouped runs below

        # A run holds a term's postings in one record, (field, term, docnums, weights, values) by marshal:
        # Whoosh's runs are a pickle per posting, and merging them a heap step per posting.

        def _write_run(self, f: Any, items: Iterable[tuple]) -> None:
            for (fieldname, btext), rows in _term_groups(items):
                marshal.dump((fieldname, btext, [r[2] for r in rows], [r[3] for r in rows], [r[4] for r in rows]), f)
            f.close()

        def _read_groups(self, path: str) -> Iterator[tuple[tuple[str, bytes], list[tuple]]]:
            f = self._open_run(path)
            try:
                while True:
                    try:
                        fieldname, btext, docnums, weights, values = marshal.load(f)
                    except EOFError:
                        return
                    rows = [(fieldname, btext, d, w, v) for d, w, v in zip(docnums, weights, values, strict=True)]
                    yield (fieldname, btext), rows
            finally:
                f.close()
                self._remove_run(path)

        def _read_run(self, path: str) -> Iterator[tuple]:
            """A run's postings as Whoosh's runs give them (what Whoosh's MpWriter merges its workers' by)."""
            for _, rows in self._read_groups(path):
                yield from rows

        def _merge_runs(self, paths: list[str]) -> _Merged:
            return _Merged([self._read_groups(path) for path in paths])

    return GroupedPostingPool


class _Merged:
    """Runs merged a term at a time: a term's postings from every run that has it, in Whoosh's order. Iterated,
    Whoosh's tuples, as _Groups."""

    def __init__(self, runs: list[Iterator[tuple[tuple[str, bytes], list[tuple]]]]):
        self._runs = runs

    def groups(self) -> Iterator[tuple[tuple[str, bytes], list[tuple]]]:
        from heapq import merge
        from itertools import chain, groupby
        from operator import itemgetter

        first = itemgetter(0)
        for key, group in groupby(merge(*self._runs, key=first), key=first):
            parts = [rows for _, rows in group]
            if len(parts) == 1:
                yield key, parts[0]
                continue
            rows = list(chain.from_iterable(parts))
            if any(a[-1] >= b[0] for a, b in pairwise(parts)):  # runs merged by reduce_to come in another order
                rows.sort()
            yield key, rows

    def __iter__(self) -> Iterator[tuple]:
        for _, rows in self.groups():
            yield from rows


def _patch_add_document() -> None:
    """SegmentWriter.add_document (what every indexing worker runs per paper) with the words of a text field
    turned into pool items in one pass: Whoosh goes through Positions.word_values, a generator encoding each
    word, and the pool's add, a few calls per word of every field. The same items in the same order, the
    pool's size counted the same (`add_postings`), so the same runs and segments; a field of another kind,
    or another writer or pool, takes Whoosh's way."""
    from whoosh import writing

    if getattr(writing.SegmentWriter, "_readinglist_patched", False):
        return
    original = writing.SegmentWriter.add_document
    pool_class = _grouped_pool_class()

    def add_document(self: Any, **fields: Any) -> None:
        if type(self) is not writing.SegmentWriter or type(self.pool) is not pool_class:
            return original(self, **fields)
        _add_document(self, fields)

    writing.SegmentWriter.add_document = add_document
    writing.SegmentWriter._readinglist_patched = True
    writing.SegmentWriter._readinglist_original = original  # for the test that compares the two


def _word_field(field: Any) -> bool:
    """Is this a field whose postings _word_items makes (the schema's text fields)?"""
    positions, analyzer, index = _word_field_kinds()
    return (
        type(field.format) is positions
        and type(field.analyzer) is analyzer
        and type(field).index is index
        and not field.separate_spelling()
    )


@lru_cache(maxsize=1)
def _word_field_kinds() -> tuple[type, type, Any]:
    from whoosh.fields import FieldType

    from readinglist.index.analysis import WordAnalyzer
    from readinglist.index.schema import CompactPositions

    return CompactPositions, WordAnalyzer, FieldType.index


def _word_items(fieldname: str, field: Any, value: str, docnum: int, boost: float) -> tuple[list[tuple], int, int]:
    """A text field's pool items of one document as FieldType.index, the patched Positions.word_values,
    CompactPositions.encode and add_document's loop make them, with their frequencies' sum (the field's
    length) and the size the pool's add counts for them."""
    from readinglist.index.schema import _SMALL

    poses = word_positions(field.analyzer, value)
    fmt = field.format
    fb, encode, small, smallest = fmt.field_boost, fmt.encode, _SMALL, len(_SMALL)
    items = []
    length = size = 0
    for w, p in poses.items():
        n = len(p)
        tbytes = w.encode("utf-8")
        vbytes = small[p[0]] if n == 1 and p[0] < smallest else encode(p)
        items.append((fieldname, tbytes, docnum, float(n) * fb * boost, vbytes))
        length += n
        size += len(tbytes) * 2 + len(vbytes)
    if not value.isascii() or "_" in value:  # a spelt-out word or a subscript's part shares its place: counted once
        length = len({pos for p in poses.values() for pos in p})
    return items, length, size + (150 + len(fieldname)) * len(items)


def _add_document(self: Any, fields: dict[str, Any]) -> None:
    """Whoosh's SegmentWriter.add_document (2.7.5), its text fields' words through _word_items."""
    self._check_state()
    perdocwriter = self.perdocwriter
    schema = self.schema
    docnum = self.docnum
    pool = self.pool
    add_post = pool.add

    docboost = self._doc_boost(fields)
    fieldnames = sorted([name for name in fields if not name.startswith("_")])
    self._check_fields(schema, fieldnames)

    perdocwriter.start_doc(docnum)
    try:
        for fieldname in fieldnames:
            value = fields.get(fieldname)
            if value is None:
                continue
            field = schema[fieldname]

            length = 0
            if field.indexed:
                fieldboost = self._field_boost(fields, fieldname, docboost)
                scorable = field.scorable
                if isinstance(value, str) and _word_field(field):
                    items, freqs, size = _word_items(fieldname, field, value, docnum, fieldboost)
                    if scorable:
                        length += freqs
                    pool.add_postings(fieldname, items, size)
                else:
                    for tbytes, freq, weight, vbytes in field.index(value):
                        weight *= fieldboost
                        if scorable:
                            length += freq
                        add_post((fieldname, tbytes, docnum, weight, vbytes))

            if field.separate_spelling():
                spellfield = field.spelling_fieldname(fieldname)
                for word in field.spellable_words(value):
                    add_post((spellfield, word.encode("utf-8"), 0, 1, vbytes))

            vformat = field.vector
            if vformat:
                vitems = vformat.word_values(value, field.analyzer, mode="index")
                vitems = sorted((text, weight, vbytes) for text, _, weight, vbytes in vitems)
                perdocwriter.add_vector_items(fieldname, field, vitems)

            customval = fields.get(f"_stored_{fieldname}", value)
            sv = customval if field.stored else None
            perdocwriter.add_field(fieldname, field, sv, length)

            column = field.column_type
            if column and customval is not None:
                cv = field.to_column_value(customval)
                perdocwriter.add_column_value(fieldname, column, cv)
    except Exception:
        perdocwriter.cancel_doc()
        raise

    perdocwriter.finish_doc()
    self._added = True
    self.docnum += 1


def _term_groups(items: Iterable[tuple]) -> Iterator[tuple[tuple[str, bytes], list[tuple]]]:
    if isinstance(items, _Groups | _Merged):
        yield from items.groups()
        return
    from itertools import groupby
    from operator import itemgetter

    for key, group in groupby(items, key=itemgetter(0, 1)):
        yield key, list(group)


def write_postings(fw: Any, schema: Any, lengths: Any, items: Iterable[tuple]) -> None:
    """base.FieldWriter.add_postings for a W3FieldWriter, a term at a time (see _patch_add_postings)."""
    from whoosh.codec.base import OutOfOrderError
    from whoosh.codec.whoosh3 import W3PerDocReader, W3PostingsWriter

    def per_posting(fieldname: str) -> Callable[[list[int]], list[Any]]:
        """The field's length of each document, as lengths.doc_field_length gives it."""
        if lengths is None:
            return lambda docnums: [0] * len(docnums)
        dfl = lengths.doc_field_length
        raw = None
        if type(lengths) is W3PerDocReader and getattr(W3PerDocReader, "_readinglist_patched", False):
            raw = column_lengths(lengths, fieldname, lengths._doccount)
            if raw is None:  # a field without lengths (id, venue, state): Whoosh answers its default, 0
                return lambda docnums: [0] * len(docnums)
        if raw is None:
            return lambda docnums: [dfl(d, fieldname) for d in docnums]
        table = _length_table()  # the patched reader's answers
        count = len(raw)

        def lookup(docnums: list[int]) -> list[Any]:
            if docnums[0] < 0 or docnums[-1] >= count:  # beyond the column: Whoosh's own answer
                return [dfl(d, fieldname) for d in docnums]
            return [table[raw[d]] for d in docnums]

        return lookup

    blocklimit = fw._codec._blocklimit
    lastfn: str | None = None
    lasttext: bytes | None = None
    lengths_of: Callable[[list[int]], list[Any]] = per_posting("")
    direct = _DirectTerms.of(fw)
    for (fieldname, btext), group in _term_groups(items):
        if lastfn is not None and fieldname < lastfn:
            raise OutOfOrderError(f"Field {lastfn!r} .. {fieldname!r}")
        if fieldname == lastfn and lasttext and btext < lasttext:
            raise OutOfOrderError(f"Term {lastfn}:{lasttext!r} .. {fieldname}:{btext!r}")
        if fieldname != lastfn:
            if lastfn is not None:
                fw.finish_field()
            fw.start_field(fieldname, schema[fieldname])
            lengths_of = per_posting(fieldname)
            lastfn, lasttext = fieldname, None
        rows = group if group[0][2] != -1 else [row for row in group if row[2] != -1]  # -1: a spelling word
        if not rows:
            continue
        docnums = [row[2] for row in rows]
        lens = lengths_of(docnums)
        if direct is not None:
            if direct.term(btext, rows, docnums, lens):
                lasttext = btext
                continue
            direct.flush()  # a term the direct writer leaves to Whoosh's objects: they write at the files' ends
        fw.start_term(btext)
        lasttext = btext
        pw = fw._postwriter
        if type(pw) is not W3PostingsWriter or pw._byteids:
            for (_, _, docnum, weight, value), length in zip(rows, lens, strict=True):
                fw.add(docnum, weight, b"" if value is None else value, length)
            fw.finish_term()
            continue
        for start in range(0, len(rows), blocklimit):
            if start:
                pw._write_block()  # a full block, written when the next posting comes (as add_posting does)
            block = rows[start : start + blocklimit] if len(rows) > blocklimit else rows
            pw._ids = array("I", docnums[start : start + blocklimit])
            ws = [row[3] for row in block]
            pw._weights = array("f", ws)
            pw._values = [row[4] for row in block if row[4]]
            top = max(ws)
            pw._maxweight = top if top > 0 else 0
            present = [n for n in lens[start : start + blocklimit] if n]
            pw._minlength = min(present) if present else None
            pw._maxlength = max(present) if present else 0
        fw.finish_term()
    if direct is not None:
        direct.flush()
    if lastfn is not None:
        fw.finish_field()


class _DirectTerms:
    """A segment's terms written straight to its postings and term files: the bytes W3FieldWriter's
    start_term, the postings writer's blocks and finish_postings, W3TermInfo.to_bytes (the compact and
    inlined forms of _patch_postings and _patch_inlined) and the term table's OrderedHashWriter.add would
    write, computed from a term's postings without those objects (a TermInfo, a postings writer's buffers and
    half a dozen method calls and file writes per term were most of a worker's finish), and buffered.
    `of` gives None when anything differs from what this copies: then every term takes Whoosh's objects."""

    FLUSH = 1 << 20  # bytes buffered per file before they are written

    @classmethod
    def of(cls, fw: Any) -> _DirectTerms | None:
        from whoosh.codec import whoosh3 as w3
        from whoosh.filedb.filetables import OrderedHashWriter

        writer, info = w3.W3PostingsWriter, w3.W3TermInfo
        compact = (
            getattr(writer, "_readinglist_compact_write", None) is writer._write_block
            and getattr(writer, "_readinglist_inlined_finish", None) is writer.finish_postings
            and getattr(info, "_readinglist_inlined_to_bytes", None) is info.to_bytes
        )  # not within whoosh_own_postings
        tindex = getattr(fw, "_tindex", None)
        if not compact or type(tindex) is not OrderedHashWriter or type(fw._codec) is not w3.W3Codec:
            return None
        return cls(fw)

    def __init__(self, fw: Any):
        from whoosh.codec.whoosh3 import W3PostingsWriter, W3TermInfo
        from whoosh.filedb.filetables import _lengths
        from whoosh.system import pack_ushort
        from whoosh.util.numeric import length_to_byte

        self._postings_writer, self._info = W3PostingsWriter, W3TermInfo._struct
        self._pack_ushort, self._length_to_byte = pack_ushort, length_to_byte
        self._fw = fw
        self._tindex = fw._tindex
        self._post = bytearray()
        self._terms = bytearray()
        self._post_at = self._terms_at = -1  # where the buffers' first bytes go in the files (-1: ask them)
        self._lengths = _lengths

    def flush(self) -> None:
        """Write what is buffered; the next term starts from where the files end then (a term written by
        Whoosh's objects in between moves them)."""
        if self._post:
            self._fw._postfile.write(bytes(self._post))
            self._post.clear()
        if self._terms:
            self._tindex.dbfile.write(bytes(self._terms))
            self._terms.clear()
        self._post_at = -1

    def _resume(self) -> None:
        self._post_at = self._fw._postfile.tell()
        self._terms_at = self._tindex.dbfile.tell()

    def term(self, btext: bytes, rows: list[tuple], docnums: list[int], lens: list[Any]) -> bool:
        """Write one term's postings and its term table entry; False (nothing written) for a term Whoosh's
        objects must write: a term vector's, or one whose format wants values some postings lack."""
        fw = self._fw
        pw = fw._postwriter
        length_to_byte, info = self._length_to_byte, self._info
        if type(pw) is not self._postings_writer or pw._byteids:
            return False
        n = len(rows)
        fixed = fw._fieldobj.format.fixed_value_size()
        if n > 1 and (fixed is None or fixed < 0) and not all(row[4] for row in rows):
            return False  # Whoosh's pickled block (_write_block's fallback)
        if self._post_at < 0:
            self._resume()
        blocklimit = pw._blocklimit
        weight: Any = 0  # W3TermInfo's statistics, accumulated block by block as its add_block does
        minlength: Any = None
        maxlength: Any = 0
        maxweight: Any = 0
        start = self._post_at + len(self._post)
        if n == 1:  # one posting, inlined in its entry (_patch_inlined's finish_postings and to_bytes)
            ws32 = array("f", [rows[0][3]])
            weight += sum(ws32)
            top = rows[0][3]
            present = lens[0]
            minlength = present or None
            maxlength = max(0, present or 0)
            maxweight = max(0, top if top > 0 else 0)
            value = rows[0][4]
            values = [value] if value else []
            head = info.pack(_INLINED, weight, 1, 0 if minlength is None else length_to_byte(minlength),
                                           length_to_byte(maxlength), maxweight, docnums[0], docnums[0])  # fmt: skip
            entry = head + encode_block((docnums[0],), tuple(ws32), values, None if values else 0, 0)
        else:
            post = self._post
            post += COMPACT_MAGIC
            level = pw._compression
            for at in range(0, n, blocklimit):
                block = rows[at : at + blocklimit] if n > blocklimit else rows
                ids = array("I", docnums[at : at + blocklimit] if n > blocklimit else docnums)
                ws = [row[3] for row in block]
                ws32 = array("f", ws)
                values = [row[4] for row in block if row[4]]
                top = max(ws)
                block_maxweight = top if top > 0 else 0
                present = [x for x in (lens[at : at + blocklimit] if n > blocklimit else lens) if x]
                block_min = min(present) if present else None
                block_max = max(present) if present else 0
                weight += sum(ws32)
                minlength = block_min if minlength is None else min(minlength, block_min)
                maxlength = max(maxlength, block_max)
                maxweight = max(maxweight, block_maxweight)
                body = encode_block(ids, ws32, values, fixed, level)
                length = _HEAD.size - 4 + len(body)
                last = at + blocklimit >= n
                post += _HEAD.pack(-length if last else length, len(ids), ids[-1], block_maxweight, 0,
                                   length_to_byte(block_min), length_to_byte(block_max))  # fmt: skip
                post += body
            extent = self._post_at + len(post) - start
            entry = info.pack(False, weight, n, 0 if minlength is None else length_to_byte(minlength),
                                            length_to_byte(maxlength), maxweight, docnums[0], docnums[-1])  # fmt: skip
            entry += _EXTENT.pack(start, extent)
        tindex = self._tindex
        key = self._pack_ushort(fw._fieldid) + btext
        if key <= tindex.lastkey:
            raise ValueError(f"Keys must increase: {tindex.lastkey!r}..{key!r}")
        at_ = self._terms_at + len(self._terms)
        tindex.index.append(at_)
        self._terms += self._lengths.pack(len(key), len(entry))
        self._terms += key
        self._terms += entry
        h = tindex.hashfn(key)
        tindex.buckets[h & 255].append((h, at_))
        tindex.lastkey = key
        if len(self._post) > self.FLUSH or len(self._terms) > self.FLUSH:
            self.flush()
            self._resume()
        return True


_EXTENT = struct.Struct("!qi")  # a TermInfo's postings: offset (pack_long) and length (pack_int)


@lru_cache(maxsize=1)
def _length_table() -> list[Any]:
    """A length byte's field length as the patched W3PerDocReader.doc_field_length gives it (None for 0)."""
    from whoosh.util.numeric import byte_to_length

    return [None] + [byte_to_length(b) for b in range(1, 256)]


_INLINED = 2  # a TermInfo's flags byte: its one posting follows in encode_block's form (Whoosh: 1, pickled)


def _patch_inlined() -> None:
    """A term in one document (half of an index's terms: every id, most names and rare words) has its
    posting in its term entry, in encode_block's form, instead of a block of its own in the postings file
    (a magic, a header, a body and the entry's pointer to it: ~45 bytes). Whoosh can inline postings, but
    pickles them, and its writer calls a method its TermInfo lacks, so its own limit keeps it off."""
    from whoosh.codec import whoosh3 as w3

    writer, info = w3.W3PostingsWriter, w3.W3TermInfo
    if getattr(info, "_readinglist_patched", False):
        return
    original_finish, original_to_bytes = writer.finish_postings, info.to_bytes
    original_from_bytes = info.from_bytes.__func__

    def finish_postings(self: Any) -> Any:
        if self.written() or len(self) != 1 or self._byteids:
            return original_finish(self)
        terminfo = self._terminfo
        terminfo.add_block(self)
        terminfo._inlined = (tuple(self._ids), tuple(self._weights), tuple(self._values))
        self._terminfo = None
        return terminfo

    def to_bytes(self: Any) -> bytes:
        if self._inlined is None:
            return original_to_bytes(self)
        ids, weights, values = self._inlined
        head = bytearray(original_to_bytes(_without_postings(self))[: info._struct.size])
        head[0] = _INLINED
        values = [v for v in values if v is not None]
        return bytes(head) + encode_block(ids, weights, values, None if values else 0, 0)

    def from_bytes(cls: Any, s: bytes) -> Any:
        if s[0] != _INLINED:
            return original_from_bytes(cls, s)
        size = cls._struct.size
        terminfo = original_from_bytes(cls, b"\x00" + s[1:size] + bytes(12))  # the statistics, no extent
        n = terminfo._df
        ids, weights, values = decode_block(s[size:], n, 0 if s[size] >> 4 & 3 == 0 else None)
        first, *gaps = ids
        docnums = tuple(accumulate(gaps, initial=first))
        if weights is None:
            weights = (1.0,) * n
        elif isinstance(weights, float):
            weights = (weights,) * n
        terminfo._offset = terminfo._length = None
        # no values (an ID field): None each, as Whoosh's block reader gives (its list matcher would give "")
        terminfo._inlined = (docnums, tuple(weights), tuple(values) if values else (None,) * n)
        return terminfo

    writer.finish_postings = finish_postings
    info.to_bytes = to_bytes
    info.from_bytes = classmethod(from_bytes)
    writer._readinglist_inlined_finish = finish_postings  # what _DirectTerms writes the bytes of
    info._readinglist_inlined_to_bytes = to_bytes
    info._readinglist_patched = True
    writer._readinglist_original_finish = original_finish  # for whoosh_own_postings
    info._readinglist_original_to_bytes = original_to_bytes


@contextmanager
def whoosh_own_postings() -> Iterator[None]:
    """Within it, indexes are written with Whoosh's own pickled blocks and no inlined postings, as schema 8
    wrote them (for comparing the two; reading takes either form all along)."""
    from whoosh.codec import whoosh3 as w3

    writer, info = w3.W3PostingsWriter, w3.W3TermInfo
    patched = (writer._write_block, writer.finish_postings, info.to_bytes)
    originals = (getattr(writer, "_readinglist_original", None), getattr(writer, "_readinglist_original_finish", None),
                 getattr(info, "_readinglist_original_to_bytes", None))  # fmt: skip
    if None in originals:  # not patched: Whoosh's own already
        yield
        return
    writer._write_block, writer.finish_postings, info.to_bytes = originals
    try:
        yield
    finally:
        writer._write_block, writer.finish_postings, info.to_bytes = patched


def _without_postings(terminfo: Any) -> Any:
    """A copy of a TermInfo's statistics with an empty extent, for Whoosh to pack its fixed-size part."""
    copy = type(terminfo)()
    copy.__dict__.update(terminfo.__dict__)
    copy._inlined, copy._offset, copy._length = None, 0, 0
    return copy


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
