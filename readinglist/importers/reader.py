"""A file's text as a stream: decompressed, decoded and split a block at a time, never whole.

Every limit that concerns bytes is checked on every block: the size decompressed, the decompression
ratio, the memory an xz stream asks for, the length and number of lines. So a small gzip holding one huge
line costs a few MB and fails within a second. A file can be read as often as the import needs (it reads
twice when it has more than a chunk of papers), and every read gives the same text.

Over 400 lines: decompression, decoding and line splitting share one position, one line count and the
limits checked on every block; split apart, each would need the others' state.
"""

from __future__ import annotations

import bz2
import codecs
import lzma
import zlib
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from readinglist.importers.limits import Limits, size_text
from readinglist.papers import ImportFailure

OUT_BLOCK = 256 * 1024  # decompressed bytes produced per step
IN_BLOCK = 64 * 1024  # compressed bytes read per step
SAMPLE = 64 * 1024  # what format and encoding are told from
DEFLATE_MAX_RATIO = 1032  # the most deflate can compress: a larger size in a gzip trailer is not one

_MAGIC = {b"\x1f\x8b": "gzip", b"\xfd7zXZ\x00": "xz", b"BZh": "bzip2", b"\x5d\x00\x00": "lzma"}


def _c1_controls(exc: UnicodeError) -> tuple[str, int]:
    """Windows-1252's five undefined bytes (0x81, 0x8D, 0x8F, 0x90, 0x9D) as the C1 controls they are in
    Latin-1, as browsers read them: any byte then decodes, and a stray one spoils a line, not the file."""
    assert isinstance(exc, UnicodeDecodeError)
    return exc.object[exc.start : exc.end].decode("latin-1"), exc.end


_C1 = "readinglist-c1-controls"
codecs.register_error(_C1, _c1_controls)


_NAMED_KINDS = {".gz": "gzip", ".xz": "xz", ".bz2": "bzip2"}  # what a file's last suffix says it is


def _compression(head: bytes) -> str:
    return next((kind for magic, kind in _MAGIC.items() if head.startswith(magic)), "")


class _Decoder:
    """One compressed stream after another (gzip members, xz streams, bzip2 streams), a bounded output
    block at a time."""

    def __init__(self, kind: str, limits: Limits):
        self.kind = kind
        self.limits = limits
        self._dec: Any = self._new()

    def _new(self) -> Any:
        if self.kind == "gzip":
            return zlib.decompressobj(16 + zlib.MAX_WBITS)
        if self.kind == "bzip2":
            return bz2.BZ2Decompressor()
        return lzma.LZMADecompressor(memlimit=self.limits.decoder_memory)

    def decompress(self, data: bytes) -> tuple[bytes, bytes]:
        """(output of at most OUT_BLOCK bytes, input the decoder has not taken yet)."""
        if self.kind == "gzip":
            out = self._dec.decompress(data, OUT_BLOCK)
            return out, self._dec.unconsumed_tail
        return self._dec.decompress(data, OUT_BLOCK), b""

    def wants_input(self, produced: bytes, pending: bytes) -> bool:
        if self.kind == "gzip":
            return not pending and len(produced) < OUT_BLOCK
        return bool(self._dec.needs_input)

    @property
    def eof(self) -> bool:
        return bool(self._dec.eof)

    def next_stream(self) -> bytes:
        """After the end of a stream: what follows it, with a fresh decoder for it."""
        rest = self._dec.unused_data
        self._dec = self._new()
        return bytes(rest)


@dataclass
class Encoding:
    """How a file's bytes become text: told from its first 64 KiB, kept for every read."""

    name: str  # "utf-8" (lines that are not UTF-8 fall back to Windows-1252), "utf-16" (with a byte-order
    # mark), or "utf-16-le"/"utf-16-be" (without one, as Excel's "Unicode text" and some exporters write)
    bom: int = 0  # bytes to skip


@dataclass
class Sniffed:
    compression: str
    encoding: Encoding
    head: str  # the start of the text, for telling the format
    complete: bool  # the head is the whole file


@dataclass
class _Fallback:
    lines: int = 0
    first: int = 0


@dataclass
class TextReader:
    """Reads one file's text; `line` is the line being read, for messages."""

    path: Path
    limits: Limits
    encoding: Encoding | None = None
    line: int = 1
    fallback: _Fallback = field(default_factory=_Fallback)
    position: int = 0  # bytes of the file (as stored) read so far
    size: int = 0
    _cp1252_line: bool = False  # a line that fell back to Windows-1252 continues into the next block

    # ---- bytes ----

    def raw_blocks(self) -> Generator[bytes, None, None]:
        """The file's bytes, decompressed, with the size and ratio limits checked on every block."""
        limits = self.limits
        try:
            fh = open(self.path, "rb")  # noqa: SIM115 - closed below
        except IsADirectoryError:
            raise ImportFailure(self.path, "is a folder, not a file") from None
        except FileNotFoundError:
            raise ImportFailure(self.path, "no such file") from None
        except PermissionError:
            raise ImportFailure(self.path, "permission denied") from None
        except OSError as exc:
            raise ImportFailure(self.path, f"cannot be read ({exc.strerror or exc})") from None
        with fh:
            try:
                head = fh.read(6)
                self.size = size = fh.seek(0, 2)
                fh.seek(0)
                kind = _compression(head)
                named = _NAMED_KINDS.get(self.path.suffix.lower())
                if named and not kind and size:  # a saved error page, a renamed file: said plainly, not as an
                    raise ImportFailure(  # "invalid JSON Lines record" (a trial); another compression is read
                        self.path,
                        f"is named {self.path.suffix} but is not {named}-compressed; if it is plain text, "
                        f"rename it without “{self.path.suffix}”",
                    )
                if not kind:
                    if size > limits.total_bytes:
                        raise ImportFailure(
                            self.path,
                            f"is {size_text(size)}; the limit for one file is {size_text(limits.total_bytes)}",
                        )
                    while block := fh.read(OUT_BLOCK):
                        self.position += len(block)
                        yield block
                    return
                declared, _ = _declared_size(fh, kind, size)
                if declared > limits.total_bytes:
                    raise ImportFailure(
                        self.path,
                        f"decompresses to {size_text(declared)} (its {kind} {'index' if kind == 'xz' else 'trailer'}"
                        f" says so); the limit for one file is {size_text(limits.total_bytes)}",
                    )
                yield from self._decompressed(fh, kind)
            except ImportFailure:
                raise
            except (OSError, EOFError, lzma.LZMAError, zlib.error) as exc:
                raise ImportFailure(self.path, self._corrupt(kind, exc)) from None

    def _corrupt(self, kind: str, exc: Exception) -> str:
        text = str(exc)
        if "Memory usage limit" in text:
            return (
                f"needs more than {size_text(self.limits.decoder_memory)} of memory to decompress (the limit); "
                "recompress it with xz's default settings"
            )
        if isinstance(exc, OSError) and not isinstance(exc, EOFError) and exc.strerror:
            return f"cannot be read ({exc.strerror})"
        return f"is not a readable {kind} file (truncated or corrupt: {text or type(exc).__name__})"

    def _decompressed(self, fh: Any, kind: str) -> Iterator[bytes]:
        limits = self.limits
        dec = _Decoder(kind, limits)
        total = 0
        pending = fh.read(IN_BLOCK)
        while True:
            out, pending = dec.decompress(pending)
            if out:
                total += len(out)
                if total > limits.total_bytes:
                    raise ImportFailure(
                        self.path,
                        f"decompresses to more than {size_text(limits.total_bytes)}, the limit for one file",
                        self.line or None,
                    )
                read = self.position = max(1, fh.tell())
                if total > limits.ratio_after and total > limits.ratio * read:
                    raise ImportFailure(
                        self.path,
                        f"decompresses to more than {limits.ratio} times its size (a decompression bomb?); "
                        f"the limit is {limits.ratio}:1",
                        self.line or None,
                    )
                yield out
            if dec.eof:
                rest = dec.next_stream() + pending
                rest = rest.lstrip(b"\x00")  # padding between or after streams
                while not rest:
                    more = fh.read(IN_BLOCK)
                    if not more:
                        return
                    rest = more.lstrip(b"\x00")
                if len(rest) < 6:
                    rest += fh.read(IN_BLOCK)
                if _compression(rest) != kind:
                    raise ImportFailure(self.path, f"has data after the end of its {kind} stream")
                pending = rest
            elif dec.wants_input(out, pending):
                more = fh.read(IN_BLOCK)
                if not more:
                    raise ImportFailure(
                        self.path, f"is not a readable {kind} file (truncated: it ends inside the stream)"
                    )
                pending += more

    def check_size(self) -> None:
        """Decompress once, without parsing, a file whose decompressed size is not known for certain and
        could pass the limit (its size times the ratio limit is more than the size limit): a file too large
        is refused in the time decompressing takes, not in the much longer time parsing takes. With the
        default limits, that is a gzip or bzip2 file of more than 5 MiB, or an xz file of several streams."""
        if self.size == 0:
            self.size = self.path.stat().st_size
        limits = self.limits
        if max(self.size * limits.ratio, limits.ratio_after) <= limits.total_bytes:
            return  # the ratio limit already bounds it
        with open(self.path, "rb") as fh:
            kind = _compression(fh.read(6))
            if not kind or _declared_size(fh, kind, self.size)[1]:
                return  # a plain file's size, or an xz index that accounts for the whole file
        self.line = 0  # no line is being read
        for _ in self.raw_blocks():
            pass
        self.position = 0

    # ---- text ----

    def sniff(self) -> Sniffed:
        """Compression, encoding and the first 64 KiB of text; binary and empty files are refused here."""
        data = b""
        blocks = self.raw_blocks()  # a generator: closed below, which closes the file
        complete = True
        for block in blocks:
            data += block
            if len(data) >= SAMPLE:
                complete = False
                break
        blocks.close()
        with open(self.path, "rb") as fh:
            compression = _compression(fh.read(6))
        sample = data[:SAMPLE]
        if not sample.strip() and complete:
            raise ImportFailure(self.path, "is empty")
        utf16 = "utf-16" if sample.startswith((b"\xff\xfe", b"\xfe\xff")) else _utf16_without_bom(sample)
        if utf16:
            encoding = Encoding(utf16)
            try:
                head = codecs.getincrementaldecoder(utf16)().decode(sample, final=complete)
            except UnicodeDecodeError:
                raise ImportFailure(self.path, "is not valid UTF-16 text") from None
            if utf16 != "utf-16" and _control_ratio(head.encode("utf-8", "replace")) > 0.05:
                raise ImportFailure(self.path, "is a binary file, not text")
        else:
            if b"\x00" in sample or _control_ratio(sample) > 0.05:
                raise ImportFailure(self.path, "is a binary file, not text")
            encoding = Encoding("utf-8", 3 if sample.startswith(codecs.BOM_UTF8) else 0)
            head = sample[encoding.bom :].decode("utf-8", "replace")
        if not head.strip() and complete:
            raise ImportFailure(self.path, "is empty")
        self.encoding = encoding
        return Sniffed(compression, encoding, head, complete)

    def blocks(self) -> Iterator[str]:
        """The text, a block at a time; `line` counts the lines of the blocks given so far."""
        if self.encoding is None:
            self.sniff()
        assert self.encoding is not None
        self.line = 1
        self.fallback = _Fallback()
        if self.encoding.name.startswith("utf-16"):
            decoder = codecs.getincrementaldecoder(self.encoding.name)()
            try:
                for raw in self.raw_blocks():
                    text = decoder.decode(raw)
                    yield text
                    self.line += text.count("\n")
                tail = decoder.decode(b"", final=True)
            except UnicodeDecodeError:
                raise ImportFailure(self.path, "is not valid UTF-16 text", self.line) from None
            if tail:
                yield tail
            return
        carry = b""
        skip = self.encoding.bom
        self._cp1252_line = False
        for raw in self.raw_blocks():
            if skip:
                raw, skip = raw[skip:], 0
            text, carry = self._decode(carry + raw, final=False)
            yield text
            self.line += text.count("\n")
        if carry:
            text, _ = self._decode(carry, final=True)
            yield text

    def _decode(self, data: bytes, final: bool) -> tuple[str, bytes]:
        """UTF-8; a line that is not UTF-8 is read as Windows-1252 (and counted for the warning), so every
        read of the file gives the same text and a stray byte spoils one line, not the file."""
        parts: list[str] = []
        while data:
            if self._cp1252_line:  # the rest of a line that fell back in the block before
                end = data.find(b"\n")
                if end < 0:
                    parts.append(self._cp1252(data))
                    return "".join(parts), b""
                parts.append(self._cp1252(data[:end]))
                data = data[end:]
                self._cp1252_line = False
                continue
            try:
                text, used = codecs.utf_8_decode(data, "strict", final)
            except UnicodeDecodeError as exc:
                start = data.rfind(b"\n", 0, exc.start) + 1
                parts.append(data[:start].decode("utf-8"))
                end = data.find(b"\n", exc.start)
                if end < 0:
                    end = len(data)
                    self._cp1252_line = not final
                if not self.fallback.lines:
                    self.fallback.first = self._line_of(parts)
                self.fallback.lines += 1
                parts.append(self._cp1252(data[start:end]))
                data = data[end:]
                continue
            parts.append(text)
            return "".join(parts), data[used:]
        return "".join(parts), b""

    def _line_of(self, parts: list[str]) -> int:
        return self.line + sum(p.count("\n") for p in parts)

    def _cp1252(self, data: bytes) -> str:
        return data.decode("cp1252", _C1)

    def fallback_warning(self) -> list[str]:
        f = self.fallback
        if not f.lines:
            return []
        lines = "1 line" if f.lines == 1 else f"{f.lines:,} lines"
        return [f"{self.path.name}: not UTF-8 (first bad byte on line {f.first}); {lines} read as Windows-1252"]

    def lines(self) -> Iterator[tuple[int, str]]:
        """(line number, text without its line end) with the line limits checked as the lines are split."""
        limits = self.limits
        carry = ""
        n = 0
        for block in self.blocks():
            parts = block.split("\n")
            parts[0] = carry + parts[0]
            carry = parts.pop()
            if len(carry) > limits.line_chars:
                raise ImportFailure(
                    self.path,
                    f"this line is longer than the limit of {limits.line_chars:,} characters",
                    n + len(parts) + 1,
                )
            if parts and max(map(len, parts)) > limits.line_chars:
                k = next(i for i, p in enumerate(parts) if len(p) > limits.line_chars)
                raise ImportFailure(
                    self.path, f"this line is longer than the limit of {limits.line_chars:,} characters", n + k + 1
                )
            if n + len(parts) > limits.lines:
                raise ImportFailure(self.path, f"has more than {limits.lines:,} lines (the limit for one file)")
            for p in parts:
                n += 1
                yield n, p[:-1] if p.endswith("\r") else p
        if carry:
            yield n + 1, carry[:-1] if carry.endswith("\r") else carry


def _declared_size(fh: Any, kind: str, size: int) -> tuple[int, bool]:
    """What a file says it decompresses to, and whether that is exact; 0 when it says nothing we can trust.
    A gzip trailer gives its last member's size modulo 4 GiB (a lower bound); an xz index gives its
    stream's total, which is the file's when the index accounts for every byte of the file. A file that
    declares too much is refused before it is read; one that lies is stopped while it is read."""
    declared, exact = 0, False
    if kind == "gzip" and size >= 18:
        fh.seek(size - 4)
        declared = int.from_bytes(fh.read(4), "little")
        if declared > DEFLATE_MAX_RATIO * size:  # not a trailer deflate could write: data after the stream
            declared = 0
    elif kind == "xz" and size >= 32:
        declared, exact = _xz_index_total(fh, size)
    fh.seek(0)
    return declared, exact


def _xz_index_total(fh: Any, size: int) -> tuple[int, bool]:
    fh.seek(size - 12)
    footer = fh.read(12)
    if footer[10:12] != b"YZ":
        return 0, False  # stream padding or not a footer: say nothing
    backward = (int.from_bytes(footer[4:8], "little") + 1) * 4
    if backward > min(size - 24, 16 * 1024 * 1024):
        return 0, False
    fh.seek(size - 12 - backward)
    index = fh.read(backward)
    if not index or index[0] != 0 or zlib.crc32(index[:-4]) != int.from_bytes(index[-4:], "little"):
        return 0, False
    pos = 1
    total = blocks = 0
    try:
        count, pos = _varint(index, pos)
        for _ in range(min(count, len(index))):
            unpadded, pos = _varint(index, pos)
            uncompressed, pos = _varint(index, pos)
            total += uncompressed
            blocks += (unpadded + 3) // 4 * 4
    except IndexError:
        return 0, False
    return total, 12 + blocks + backward + 12 == size  # one stream, nothing before it


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80 or shift > 56:
            return value, pos
        shift += 7


def _control_ratio(sample: bytes) -> float:
    bad = sum(1 for b in sample if b < 32 and b not in (9, 10, 12, 13))
    return bad / max(1, len(sample))


def _utf16_without_bom(sample: bytes) -> str:
    """ "utf-16-le" or "utf-16-be" when the sample is UTF-16 text that has no byte-order mark: mostly
    Latin-script text, so nearly every other byte is NUL and the bytes between are not. A binary file has
    its NULs at both parities, and stays refused."""
    pairs = len(sample) // 2
    if pairs < 2:
        return ""
    even, odd = sample[0 : pairs * 2 : 2], sample[1 : pairs * 2 : 2]
    for name, zeros, chars in (("utf-16-le", odd, even), ("utf-16-be", even, odd)):
        if zeros.count(0) >= 0.7 * pairs and chars.count(0) <= 0.01 * pairs:
            return name
    return ""
