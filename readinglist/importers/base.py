"""What every importer shares: the record it produces, the error it raises, and safe file reading."""

from __future__ import annotations

import bz2
import gzip
import lzma
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from readinglist.papers import IMPORT_SUFFIXES, ImportFailure, strip_compression

MAX_BYTES = 2 * 1024**3  # decompressed; past this a file is refused rather than exhausting memory
PLACEHOLDER_ABSTRACTS = {
    "abstract unavailable",
    "abstract not available",
    "no abstract available",
    "no abstract",
    "n/a",
    "na",
    "none",
    "null",
    "tba",
    "-",
}


@dataclass
class Record:
    """One paper as a file describes it: text as imported, nothing decoded but the author names."""

    title: str = ""
    abstract: str = ""
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    venue: str = ""
    url: str = ""
    key: str = ""
    tags: list[str] = field(default_factory=list)


@dataclass
class ParsedFile:
    path: Path
    kind: str
    records: list[Record]
    skipped: int = 0
    warnings: list[str] = field(default_factory=list)
    skipped_why: list[tuple[str, str]] = field(default_factory=list)  # (where, why) of the first skipped


SKIPS_KEPT = 200  # reasons kept per file; past them only the count grows (a stream stays bounded)


def note_skip(skipped_why: list[tuple[str, str]], where: str, why: str) -> None:
    if len(skipped_why) < SKIPS_KEPT:
        skipped_why.append((where, why))


def why_no_text(title: object, abstract: object) -> str:
    """Why a record with neither a title nor an abstract was skipped, in words."""
    raw = abstract.strip() if isinstance(abstract, str) else ""
    if raw:
        return f"no title, and its abstract is a placeholder (“{raw[:40]}”)"
    if title is not None and not isinstance(title, str | int | float):
        return f"no title (its title is a {type(title).__name__}) and no abstract"
    return "no title and no abstract"


@dataclass
class ImportContext:
    """State shared by the files of one import: BibTeX @string macros defined in an earlier file."""

    bib_strings: dict[str, str] = field(default_factory=dict)


def _opener(head: bytes):
    if head.startswith(b"\x1f\x8b"):
        return gzip.open, "gzip"
    if head.startswith(b"\xfd7zXZ\x00"):
        return lzma.open, "xz"
    if head.startswith(b"BZh"):
        return bz2.open, "bzip2"
    return None, ""


def iter_lines(path: Path, warnings: list[str]) -> Iterator[tuple[int, str]]:
    """(line number, text) of a large line-based file, decompressed and decoded as it is read, so that
    a 100 MB JSON Lines file is never in memory whole. The first 64 KiB are checked as read_text does."""
    with open(path, "rb") as fh:
        head = fh.read(6)
    opener, what = _opener(head)
    try:
        stream = opener(path, "rb") if opener else open(path, "rb")  # noqa: SIM115 - closed below
        with stream:
            sample = stream.peek(65536)[:65536] if hasattr(stream, "peek") else b""
            if sample:
                decode(path, sample.rsplit(b"\n", 1)[0] or sample, warnings)  # binary? empty? encoding?
            encoding = "cp1252" if warnings and "Windows-1252" in warnings[-1] else "utf-8-sig"
            for n, raw in enumerate(stream, 1):
                try:
                    yield n, raw.decode(encoding)
                except UnicodeDecodeError:
                    raise ImportFailure(path, "is not UTF-8 text", n) from None
    except (OSError, EOFError, lzma.LZMAError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise ImportFailure(path, "no such file") from None
        raise ImportFailure(path, f"is not a readable {what or 'text'} file (truncated or corrupt: {exc})") from None


def read_bytes(path: Path) -> bytes:
    """The file's bytes, decompressed (gzip, xz, bz2 by their magic numbers)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(6)
    except IsADirectoryError:
        raise ImportFailure(path, "is a folder, not a file") from None
    except FileNotFoundError:
        raise ImportFailure(path, "no such file") from None
    except PermissionError:
        raise ImportFailure(path, "permission denied") from None
    except OSError as exc:
        raise ImportFailure(path, f"cannot be read ({exc.strerror or exc})") from None
    opener, what = _opener(head)
    try:
        if opener is None:
            if path.stat().st_size > MAX_BYTES:
                raise ImportFailure(path, f"is larger than {MAX_BYTES // 1024**3} GB")
            return path.read_bytes()
        with opener(path, "rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except (OSError, EOFError, lzma.LZMAError) as exc:
        raise ImportFailure(path, f"is not a readable {what} file (truncated or corrupt: {exc})") from None
    if len(data) > MAX_BYTES:
        raise ImportFailure(path, f"is larger than {MAX_BYTES // 1024**3} GB uncompressed")
    return data


def decode(path: Path, data: bytes, warnings: list[str]) -> str:
    """Text from bytes: UTF-8 (with or without BOM, or UTF-16 with BOM); Windows-1252 as a last resort."""
    if not data.strip():
        raise ImportFailure(path, "is empty")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise ImportFailure(path, "is not valid UTF-16 text") from None
    sample = data[:65536]
    if b"\x00" in sample or _control_ratio(sample) > 0.05:
        raise ImportFailure(path, "is a binary file, not text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            raise ImportFailure(path, "is not UTF-8 text", line) from None
        warnings.append(f"{path.name}: not UTF-8 (first bad byte on line {line}); read as Windows-1252")
        return text


def _control_ratio(sample: bytes) -> float:
    bad = sum(1 for b in sample if b < 32 and b not in (9, 10, 12, 13))
    return bad / max(1, len(sample))


def read_text(path: Path, warnings: list[str]) -> str:
    return decode(path, read_bytes(path), warnings)


def base_name(path: Path) -> str:
    """The file name without compression and format suffixes: icml2026.jsonl.gz → icml2026."""
    name = strip_compression(path.name)
    suffix = Path(name).suffix
    return name[: -len(suffix)] if suffix.lower() in IMPORT_SUFFIXES else name


# A soft hyphen where a PDF broke a word across lines: pdfminer writes it "(cid:173)" (in 1,604 of the
# 8,263 NeurIPS abstracts: "pro(cid:173) cess"), others as U+00AD. Either way the word is one word again,
# to read and to search.
_SOFT_HYPHEN = re.compile(r"(?:\(cid:173\)|\u00ad)\s*")


def clean_abstract(text: object) -> str:
    """The abstract, or '' for a missing or placeholder one."""
    if not isinstance(text, str):
        return ""
    text = _SOFT_HYPHEN.sub("", text).strip()
    if text.casefold().strip(" .") in PLACEHOLDER_ABSTRACTS:
        return ""
    return text


def split_authors(value: object) -> list[str]:
    """Authors from a list, "A; B", "A and B" or "A, B" (when no name has the "Last, First" shape)."""
    if value is None:
        return []
    if isinstance(value, list):
        names = [str(v).strip() for v in value]
    else:
        text = str(value).strip()
        if ";" in text:
            names = text.split(";")
        elif re.search(r"\s+and\s+", text):
            names = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", text)
        else:
            names = text.split(",") if text.count(",") > 1 or " " in text else [text]
    return [re.sub(r"\s+", " ", n).strip() for n in names if n and n.strip()]


def parse_year(value: object) -> int | None:
    if isinstance(value, int) and 1000 < value < 3000:
        return value
    m = re.search(r"\b(1[5-9]\d\d|2\d\d\d)\b", str(value or ""))
    return int(m.group(1)) if m else None


def split_tags(value: object) -> list[str]:
    items = [str(v) for v in value] if isinstance(value, list) else re.split(r"[;,]", str(value or ""))
    out: dict[str, None] = {}
    for item in items:
        tag = re.sub(r"\s+", " ", item).strip().lower()
        if tag:
            out.setdefault(tag, None)
    return list(out)


_VENUES = {"nips": "NeurIPS", "neurips": "NeurIPS", "icml": "ICML", "iclr": "ICLR", "colt": "COLT"}
_VENUES |= {"aistats": "AISTATS", "uai": "UAI", "cvpr": "CVPR", "iccv": "ICCV", "eccv": "ECCV", "acl": "ACL"}
_VENUES |= {"emnlp": "EMNLP", "naacl": "NAACL", "aaai": "AAAI", "ijcai": "IJCAI", "kdd": "KDD"}


def venue_year_from_name(path: Path) -> tuple[str, int | None]:
    """nips2018.json → ("NeurIPS", 2018): a fallback for files whose records say neither."""
    m = re.search(r"(?:^|[_\-. ])([A-Za-z]+)[_\-]?((?:19|20)\d\d)$", base_name(path))
    if not m:
        return "", None
    return _VENUES.get(m.group(1).lower(), m.group(1).upper()), int(m.group(2))
