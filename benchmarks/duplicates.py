"""Duplicates found at import (issue 16.3), on real files.

    .venv/bin/python -m benchmarks.duplicates nips2018     # three files of NeurIPS 2018 into one library
    .venv/bin/python -m benchmarks.duplicates allvenues    # NeurIPS 1987–2018, then all-venues (94k) over it
    .venv/bin/python -m benchmarks.duplicates allvenues --unchecked   # the same with the duplicate check off

nips2018: the NeurIPS 2018 papers of neurips_1987_2018.jsonl.gz, originals/paperlists_nips2018.json.gz (the
untouched upstream JSON) and the app's own BibTeX export of the first, imported into one library: how many
papers (1,009 wanted, 3,027 without merging), merges and possible pairs per file.

allvenues: neurips_1987_2018.jsonl.gz (8,263 papers) is a subset of paperlists_all_venues.jsonl.xz (94,374):
imported after it, every NeurIPS record should merge into its paper and nothing else. Reports the merges, the
import's time and the process's peak memory, and checks every merge (and says how a random 50 fare) by a rule
written here, apart from the app's: the record's title and the paper's, lower-cased with only letters and
digits kept, are equal, and so are the venue and the year. --unchecked imports the same with the duplicate
check turned off, for the time it costs (compare the two runs' times; the machine is shared).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import re
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("READINGLIST_SHARED", ROOT.parent / "shared")) / "corpora"


def _open(data_dir: Path):  # -> Library (imported late: the corpora are checked first)
    from readinglist.library import Library

    return Library.open(data_dir, seed=False)


def nips2018(work: Path) -> dict:
    from readinglist.export import ExportOptions, render

    subset = work / "neurips2018.jsonl"
    with gzip.open(SHARED / "neurips_1987_2018.jsonl.gz", "rt", encoding="utf-8") as f:
        subset.write_text("".join(line for line in f if json.loads(line).get("year") == 2018), encoding="utf-8")
    first = _open(work / "export-from")
    first.import_files([subset])
    bib = work / "nips2018-export.bib"
    bib.write_text(render(first.papers(first.search("").ids), ExportOptions(format="bibtex", abstracts=True)))
    first.close()
    lib = _open(work / "library")
    files = [subset, SHARED / "originals" / "paperlists_nips2018.json.gz", bib]
    out: dict = {"files": []}
    records = 0
    for path in files:
        start = time.perf_counter()
        [summary] = lib.import_files([path])
        took = time.perf_counter() - start
        records += summary.added + summary.merged + summary.unchanged + summary.updated
        out["files"].append({"file": path.name, "line": summary.line(), "seconds": round(took, 2)})
    out |= {"records": records, "papers": lib.store.count(), "possible": len(lib.possible_duplicates())}
    out["possible_examples"] = [
        (d.why, [p.title for p in lib.papers([d.a, d.b])]) for d in lib.possible_duplicates()[:5]
    ]
    lib.close()
    return out


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def allvenues(work: Path, unchecked: bool) -> dict:
    from readinglist import importing

    if unchecked:  # the duplicate check off: every record is added (for the time it costs)
        importing._Duplicates.sift = lambda self, papers: (papers, [])  # type: ignore[method-assign]
    lib = _open(work / "library")
    start = time.perf_counter()
    [nips] = lib.import_files([SHARED / "neurips_1987_2018.jsonl.gz"])
    first = time.perf_counter() - start
    start = time.perf_counter()
    [summary] = lib.import_files([SHARED / "paperlists_all_venues.jsonl.xz"])
    took = time.perf_counter() - start
    out = {"unchecked": unchecked, "first": nips.line(), "first_seconds": round(first, 1), "line": summary.line(),
           "seconds": round(took, 1), "papers": lib.store.count(), "merged": summary.merged,
           "possible": summary.possible}  # fmt: skip
    rows = lib.store.db.execute(
        "SELECT ps.content_hash, p.title, p.venue, p.year FROM paper_sources ps JOIN papers p ON p.id = ps.paper_id"
    ).fetchall()
    from readinglist.importers import open_file

    merged = {r[0] for r in rows}
    records = {}  # content hash → the record's (title, venue, year), as the app reads the file
    for rec in open_file(SHARED / "paperlists_all_venues.jsonl.xz").records():
        h = importing.content_hash(rec)
        if h in merged:
            records[h] = (rec.title, rec.venue, rec.year)

    def right(row: tuple) -> bool:
        """The record merged has the paper's title (lower-cased, only letters and digits), venue and year."""
        title, venue, year = records[row[0]]
        return _norm(title) == _norm(row[1]) and (venue, year) == (row[2], row[3])

    wrong = [r for r in rows if not right(r)]
    random.seed(16)
    sample = random.sample(rows, min(50, len(rows)))
    out |= {
        "merges_checked": len(rows),
        "false_merges": len(wrong),
        "false_examples": [(records[r[0]], r[1:]) for r in wrong[:5]],
        "sample_50_false": sum(not right(r) for r in sample),
        "possible_examples": [(d.why, [p.title for p in lib.papers([d.a, d.b])])
                              for d in lib.possible_duplicates()[:5]],
    }  # fmt: skip
    lib.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=["nips2018", "allvenues"])
    parser.add_argument("--unchecked", action="store_true", help="allvenues with the duplicate check off")
    args = parser.parse_args()
    if not SHARED.exists():
        print(f"the corpora are not at {SHARED}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["READINGLIST_DATA_DIR"] = str(Path(tmp) / "default")
        result = nips2018(Path(tmp)) if args.what == "nips2018" else allvenues(Path(tmp), args.unchecked)
    result["peak_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    print(json.dumps(result, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
