"""How big an imported file may be, in every dimension a hostile file can grow.

Each limit sits far above anything in the real corpora (the README's import section lists both), and each
is checked while the file is read, so that a decompression bomb, a 4 GB line or a macro that doubles
forty times ends the import within seconds, in bounded memory, with a message naming the file, the line
and the limit, before the library is touched.
"""

from __future__ import annotations

from dataclasses import dataclass

KiB = 1024
MiB = 1024 * KiB


@dataclass(frozen=True)
class Limits:
    total_bytes: int = 512 * MiB  # a file's size, decompressed
    ratio: int = 100  # decompressed bytes per compressed byte, once past ratio_after
    ratio_after: int = 16 * MiB  # below this a tiny, very compressible file is not a bomb
    decoder_memory: int = 256 * MiB  # what an xz stream may ask its decoder to allocate
    line_chars: int = 1 * MiB  # one line of a line-based format (JSON Lines, BibTeX, CSV, text)
    lines: int = 10_000_000
    record_chars: int = 1 * MiB  # one paper: a JSON object, a BibTeX entry, a CSV row, a paragraph
    field_chars: int = 256 * KiB  # one value, after JSON escapes and BibTeX macros are expanded
    records: int = 500_000  # objects, entries or rows in one file, skipped ones included
    depth: int = 32  # JSON arrays and objects inside each other
    macro_chars: int = 4 * MiB  # all @string macros of one import, expanded


DEFAULT_LIMITS = Limits()


def size_text(n: int) -> str:
    """1048576 → "1 MiB": how a limit reads in a message."""
    for unit, size in (("GiB", 1024 * MiB), ("MiB", MiB), ("KiB", KiB)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} bytes"


def count_text(n: int) -> str:
    return f"{n:,}"
