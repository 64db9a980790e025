"""Where a library's bytes go (issue 18's disk goal: database + index ≤ 2× the corpus's unpacked text):
SQLite's own page accounting (the dbstat table) by table and index, the largest tables' columns by their
stored bytes, and the Whoosh index by file kind."""

from __future__ import annotations

import gzip
import lzma
import sqlite3
from collections import defaultdict
from pathlib import Path

MB = 1e6


def unpacked_bytes(path: Path) -> int:
    """The corpus file's size once decompressed (gzip, xz or none), read as a stream."""
    opener = {".gz": gzip.open, ".xz": lzma.open}.get(path.suffix)
    if opener is None:
        return path.stat().st_size
    total = 0
    with opener(path, "rb") as f:
        while block := f.read(1 << 20):
            total += len(block)
    return total


def database(db: Path, top: int = 8, columns_of: int = 3) -> dict:
    """The database's pages by table or index (largest first, MB) and, for the `columns_of` largest tables,
    the bytes each column holds (values as stored: text in UTF-8, blobs as they are)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = con.execute(
            "SELECT d.name, m.type, m.tbl_name, SUM(d.pgsize) FROM dbstat d LEFT JOIN sqlite_master m "
            "ON m.name = d.name GROUP BY d.name ORDER BY 4 DESC"
        ).fetchall()
        objects = [{"name": n, "kind": k or "internal", "table": t or n, "mb": round(b / MB, 2)} for n, k, t, b in rows]
        tables = [o["name"] for o in objects if o["kind"] == "table"][:columns_of]
        columns: dict[str, dict[str, float]] = {}
        for table in tables:
            names = [r[1] for r in con.execute(f'PRAGMA table_info("{table}")')]
            sums = con.execute(
                "SELECT " + ", ".join(f'SUM(LENGTH(CAST("{c}" AS BLOB)))' for c in names) + f' FROM "{table}"'
            ).fetchone()
            columns[table] = dict(sorted(((c, round((s or 0) / MB, 2)) for c, s in zip(names, sums, strict=True)),
                                         key=lambda kv: -kv[1]))  # fmt: skip
        return {"mb": round(db.stat().st_size / MB, 1), "objects": objects[:top], "columns": columns}
    finally:
        con.close()


def index_kinds(folder: Path) -> dict[str, float]:
    """The index's files by kind (their suffix: Whoosh's .seg segments, .toc tables of contents, …), MB."""
    kinds: dict[str, int] = defaultdict(int)
    for f in folder.rglob("*"):
        if f.is_file():
            kinds[f.suffix.lstrip(".") or f.name] += f.stat().st_size
    return {k: round(v / MB, 2) for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])}


def library(data_dir: Path) -> dict:
    """The library's database and index, and the rest of its folder (caches), in MB."""
    db, index = data_dir / "library.db", data_dir / "index"
    kinds = index_kinds(index)
    everything = sum(f.stat().st_size for f in data_dir.rglob("*") if f.is_file()) / MB
    db_mb = sum(f.stat().st_size for f in data_dir.glob("library.db*")) / MB  # with its -wal, if any
    index_mb = sum(kinds.values())
    return {
        "db_mb": round(db_mb, 1),
        "index_mb": round(index_mb, 1),
        "other_mb": round(max(0.0, everything - db_mb - index_mb), 1),
        "database": database(db),
        "index_kinds": kinds,
    }
