"""Round trips at 8k papers: `python -m benchmarks.roundtrip [--formats F…]`.

NeurIPS 1987–2018 (8,263 papers, ../shared/corpora) is imported into a library and 1,000 of its papers are
annotated (states, priorities, tags, notes); then for each format: the export's time, its import into a
fresh library (and whether every annotation came back), and its re-import into the library it came from
(which must add nothing). Times are wall-clock seconds of one run: the machine is shared, so compare
formats within a run, not runs with each other.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from readinglist import export
from readinglist.export import ExportOptions
from readinglist.library import Library

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpora" / "neurips_1987_2018.jsonl.gz"
SUFFIX = {"bibtex": ".bib", "biblatex": ".bib", "csv": ".csv", "json": ".json", "markdown": ".md", "ris": ".ris",
          "obsidian": ""}  # fmt: skip


def annotate(lib: Library, n: int = 1000) -> None:
    ids = lib.search("").ids[:n]
    states = ["read", "skimmed", "queued", "skipped"]
    for k, state in enumerate(states):
        lib.set_state(ids[k::5], state)
    lib.set_priority(ids[::3], 1)
    lib.add_tags(ids[::2], ["bench", "to read"])
    for pid in ids[::4]:
        lib.set_note(pid, "# Summary\n\nA note with *Markdown*, 50% & #1.\n\n- point")


def marks(lib: Library) -> list[tuple[object, ...]]:
    return sorted((p.title, p.state, p.priority, tuple(sorted(p.tags)), p.note)
                  for p in lib.papers(lib.search("").ids) if p.state != "unread" or p.tags or p.note)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--formats", nargs="*", default=["bibtex", "csv", "json", "markdown", "ris", "obsidian"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        lib = Library.open(base / "lib", seed=False)
        lib.import_files([CORPUS])
        annotate(lib)
        want = marks(lib)
        papers = lib.papers(lib.search("").ids)
        print(f"{len(papers)} papers, {len(want)} annotated; wall-clock seconds, one run on a shared machine")
        print(f"{'format':10} {'export':>7} {'import (fresh)':>15} {'same':>5} {'re-import (own)':>16} {'added':>6}")
        for fmt in args.formats:
            target = base / f"out-{fmt}{SUFFIX[fmt]}"
            t0 = time.perf_counter()
            export.export(papers, ExportOptions(format=fmt), target)
            t_export = time.perf_counter() - t0
            if fmt == "obsidian":  # a notes folder merges back into its library: it adds no paper
                t0 = time.perf_counter()
                merged = lib.merge_notes([target])
                t_back = time.perf_counter() - t0
                same = "yes" if marks(lib) == want and not merged.changed else "changed"
                print(f"{fmt:10} {t_export:7.2f} {'(merge only)':>15} {same:>5} {t_back:16.2f} {0:6}")
                continue
            fresh = Library.open(base / f"fresh-{fmt}", seed=False)
            t0 = time.perf_counter()
            fresh.import_files([target])
            t_import = time.perf_counter() - t0
            got, expected = marks(fresh), want
            if fmt == "ris":  # RIS has no state or priority, and keeps a note on one line: its tags are compared
                got, expected = [(m[0], m[3]) for m in got if m[3]], [(m[0], m[3]) for m in want if m[3]]
            fresh.close()
            t0 = time.perf_counter()
            [back] = lib.import_files([target])
            t_back = time.perf_counter() - t0
            same = "yes" if got == expected else f"{sum(a != b for a, b in zip(got, expected, strict=False))} differ"
            print(f"{fmt:10} {t_export:7.2f} {t_import:15.2f} {same:>5} {t_back:16.2f} {back.added:6}")
        lib.close()


if __name__ == "__main__":
    main()
