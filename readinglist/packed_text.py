"""Abstracts as the database keeps them: deflated against a preset dictionary, read back as the same text.

The abstracts are most of a library's database (issue 18's disk goal). Each is compressed on its own, so a
paper's record stays one row read: zlib's raw deflate with a preset dictionary of abstracts' own wording
(resources/abstract_dictionary.txt, a frozen copy of the bundled ICML 2026 abstracts). A packed value is
a BLOB: a version byte naming the dictionary, then the deflated UTF-8. Text too short to gain, the empty
abstract, and everything written before migration 0017 stay TEXT: `unpack` reads either.

The dictionary can never change: every packed abstract needs its exact bytes. A better one gets a new
version byte beside it (`_DICTIONARIES`), and the old stays for the abstracts packed with it.
"""

from __future__ import annotations

import zlib
from functools import cache

from readinglist.papers import StoreError
from readinglist.paths import resources_dir

_VERSION = 1  # the dictionary new abstracts are packed with
_DICTIONARIES = {1: ("abstract_dictionary.txt", "f60bb9a17f62fa33661a897e45164b2864245c2a")}  # file, its SHA-1
_LEVEL = 6
_WBITS = -15  # raw deflate: no zlib header or checksum (SQLite checks its pages)


class PackedTextError(StoreError):
    """A packed value that cannot be read back (an unknown dictionary, damaged bytes): the library is damaged,
    and says so as any unreadable database does."""


@cache
def dictionary(version: int) -> bytes:
    """The preset dictionary of this version, checked against its SHA-1: a changed file would misread
    every abstract packed with it."""
    try:
        name, digest = _DICTIONARIES[version]
    except KeyError:
        raise PackedTextError(f"packed with an unknown dictionary ({version})") from None
    import hashlib  # OpenSSL loads when the first abstract is read, not at start-up

    data = (resources_dir() / name).read_bytes()
    if hashlib.sha1(data).hexdigest() != digest:
        raise PackedTextError(f"resources/{name} is not the dictionary abstracts were packed with")
    return data


def pack(text: str) -> str | bytes:
    """What the database stores for this abstract: the packed bytes, or the text itself when packing does
    not make it smaller."""
    if len(text) < 64:
        return text
    raw = text.encode("utf-8")
    c = _primed().copy()  # the same bytes as a new compressor given the dictionary, without reading it again
    packed = bytes([_VERSION]) + c.compress(raw) + c.flush()
    return packed if len(packed) < len(raw) else text


@cache
def _primed() -> zlib._Compress:
    """A compressor that has taken in the dictionary and nothing else; each abstract is packed by a copy."""
    return zlib.compressobj(_LEVEL, zlib.DEFLATED, _WBITS, 8, zlib.Z_DEFAULT_STRATEGY, dictionary(_VERSION))


def unpack(value: str | bytes | None) -> str:
    """The abstract a stored value holds (text as it is; packed bytes inflated)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if not value:
        return ""
    try:
        d = zlib.decompressobj(_WBITS, zdict=dictionary(value[0]))
        text = d.decompress(value[1:]) + d.flush()
        return text.decode("utf-8")
    except (zlib.error, UnicodeDecodeError) as exc:
        raise PackedTextError(f"a packed abstract is damaged ({exc})") from None
