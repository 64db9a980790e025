"""Where a library's disk goes: the database by table and index (SQLite's dbstat) and the papers table by
column, the Whoosh index by file kind and by field (`python -m benchmarks.footprint DATA_DIR`).

Issue 18 asks for database + index ≤ 2 × the corpus's unpacked text; this says which part to cut.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from collections import defaultdict
from pathlib import Path

MB = 1e6


def database(path: Path) -> dict:
    """Bytes by table or index (pages, payload, unused) and the papers table's payload by column."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    page = db.execute("PRAGMA page_size").fetchone()[0]
    parts = {}
    for name, pages, payload, unused in db.execute(
        "SELECT name, SUM(pgsize), SUM(payload), SUM(unused) FROM dbstat GROUP BY name ORDER BY SUM(pgsize) DESC"
    ):
        parts[name] = {"mb": pages / MB, "payload_mb": payload / MB, "unused_mb": unused / MB}
    cols = [r[1] for r in db.execute("PRAGMA table_info(papers)")]
    sums = ", ".join(f"SUM(LENGTH(CAST({c} AS BLOB)))" for c in cols)
    row = db.execute(f"SELECT {sums} FROM papers").fetchone()
    columns = {c: (n or 0) / MB for c, n in zip(cols, row, strict=True)}
    papers = db.execute("SELECT COUNT(*) FROM papers").fetchone()[0]
    db.close()
    return {
        "file_mb": path.stat().st_size / MB,
        "page_size": page,
        "papers": papers,
        "parts": parts,
        "papers_columns": dict(sorted(columns.items(), key=lambda kv: -kv[1])),
    }


def index(folder: Path) -> dict:
    """Bytes by file kind (.trm terms, .pst postings, .col columns, …) and, per field, the postings its
    terms point to plus the size of its entries in the term tables."""
    from whoosh import index as windex
    from whoosh.codec.whoosh3 import W3TermInfo

    kinds: dict[str, int] = defaultdict(int)
    for f in folder.iterdir():
        name = f.name
        kind = name[name.index(".") :] if "." in name else name
        if name.startswith("_") or name.endswith(".toc"):
            kind = ".toc"
        kinds[kind] += f.stat().st_size
    postings: dict[str, int] = defaultdict(int)
    inlined: dict[str, int] = defaultdict(int)
    terms: dict[str, int] = defaultdict(int)
    nterms: dict[str, int] = defaultdict(int)
    ix = windex.open_dir(str(folder), readonly=True)
    segments = ix._segments()
    with ix.reader() as reader:
        readers = [r for r, _ in reader.leaf_readers()]
        for r in readers:
            table = r._terms._tindex
            unmap = r._terms._fieldunmap
            for key, value in table.items():
                field = unmap[int.from_bytes(key[:2], "big")]
                terms[field] += len(key) + len(value)
                nterms[field] += 1
                info = W3TermInfo.from_bytes(value)
                if info.is_inlined():
                    inlined[field] += 1
                else:
                    length = info.extent()[1]
                    postings[field] += length[0] if isinstance(length, tuple) else length  # whoosh unpacks a tuple
    ix.close()
    fields = {
        f: {
            "postings_mb": postings[f] / MB,
            "term_entries_mb": terms[f] / MB,
            "terms": nterms[f],
            "inlined": inlined[f],
        }
        for f in sorted(terms, key=lambda f: -(postings[f] + terms[f]))
    }
    return {
        "total_mb": sum(kinds.values()) / MB,
        "segments": len(segments),
        "kinds_mb": {k: v / MB for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])},
        "fields": fields,
    }


def _rounded(obj: object) -> object:
    if isinstance(obj, float):
        return round(obj, 2)
    if isinstance(obj, dict):
        return {k: _rounded(v) for k, v in obj.items()}
    return obj


def main(argv: list[str]) -> int:
    data = Path(argv[0])
    result = {"database": database(data / "library.db"), "index": index(data / "index")}
    print(json.dumps(_rounded(result), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
