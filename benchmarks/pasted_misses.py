"""Why a pasted real title misses its title-less paper: `python -m benchmarks.pasted_misses [--sets …]`.

The search half of `benchmarks.titles` (`search_first`) on the development and validation sets (the
all-venues papers tuned on; never the benchmark's corpora): the records imported without titles into a
library kept under --work (built once, with today's derived titles; reopened on later runs, so a change
to the search is measured on the same titles — delete the folder to rebuild), each real title searched as
pasted through `Library.search`, and every paper not found first put in one kind:

- nothing found; the AND (every word) found other papers only; it found this one too, lower;
- closest matches (no paper has every word): this paper not among them; among them with fewer of the words
  than the first; as many, scoring lower; more, fitting worse.

Then the title's content words (stop words dropped) that no form of the paper's abstract holds, by kind: a
word sharing its first five letters with one of the abstract's (a derivation Porter keeps apart: predictor /
predict), a hyphen join (meta-learning / metalearning), or nothing related. `--examples N` prints N misses
of each kind. Used by Session 10's work on issue 19 (docs/performance-changes.md).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

from benchmarks import titles
from readinglist.index.analysis import WordAnalyzer, stem
from readinglist.library import Library
from readinglist.papers import QueryError

KINDS = (
    "nothing found",
    "the AND found other papers only",
    "the AND found it too, lower",
    "closest matches: not among them",
    "closest matches: fewer words than the first",
    "closest matches: as many words, scores lower",
    "closest matches: more words, fits worse",
)
PREFIX = 5  # letters a title word shares with an abstract word: a derivation Porter keeps apart
_ANALYZER = WordAnalyzer()


@dataclass
class Outcome:
    paper: titles.Paper
    first: bool
    kind: str = ""
    corrected: bool = False
    rank: int | None = None
    top_title: str = ""
    absent: dict[str, str] = field(default_factory=dict)  # title word → derivation / hyphen / none


def library(papers: Sequence[titles.Paper], work: Path) -> tuple[Library, dict[int, int]]:
    """The papers imported without titles into work/lib (built on the first call, reopened after), and
    each paper's index in `papers` → its id."""
    lib_dir = work / "lib"
    fresh = not lib_dir.exists()
    lib = Library.open(lib_dir, seed=False)
    if fresh:
        lib.import_files([titles.write_titleless(papers, work / "titleless.jsonl")])
    ids = {}
    for paper in lib.papers(lib.search("").ids):
        ids[int(paper.url.rsplit("/", 1)[1])] = paper.id
    return lib, ids


def _content(text: str) -> list[str]:
    return [w for w, _ in _ANALYZER.words(text) if w not in titles.STOP_WORDS and w.isalpha() and len(w) > 1]


def absent_words(title: str, abstract: str) -> dict[str, str]:
    """The title's content words no form of the abstract holds (by Porter stem), each with its kind."""
    words = [w for w, _ in _ANALYZER.words(abstract)]
    stems = {stem(w) for w in words}
    joined = {a + b for a, b in pairwise(words)}
    title_words = [w for w, _ in _ANALYZER.words(title)]
    title_joined = {a + b: (a, b) for a, b in pairwise(title_words)}
    out = {}
    for w in _content(title):
        if stem(w) in stems:
            continue
        if w in joined or any(w in pair and stem(j) in stems for j, pair in title_joined.items()):
            out[w] = "hyphen"
        elif len(w) >= PREFIX and any(s.startswith(w[:PREFIX]) for s in stems):
            out[w] = "derivation"
        else:
            out[w] = "none"
    return out


def outcomes(lib: Library, papers: Sequence[titles.Paper], ids: dict[int, int]) -> list[Outcome]:
    out = []
    for i, p in enumerate(papers):
        want = ids[i]
        try:
            r = lib.search(p.title, typing=True)
        except QueryError:
            out.append(Outcome(p, False, "nothing found"))
            continue
        if r.ids and r.ids[0] == want:
            out.append(Outcome(p, True))
            continue
        o = Outcome(p, False, corrected=bool(r.corrections), absent=absent_words(p.title, p.plain))
        if r.ids:
            o.top_title = p.title if r.ids[0] == want else lib.papers(r.ids[:1])[0].title
            o.rank = r.ids.index(want) + 1 if want in r.ids else None
        if not r.ids:
            o.kind = KINDS[0]
        elif not r.partial:
            o.kind = KINDS[2] if want in r.ids else KINDS[1]
        elif want not in r.ids:
            o.kind = KINDS[3]
        else:
            mine, best = r.matched[r.ids.index(want)], r.matched[0]
            o.kind = KINDS[4] if mine < best else KINDS[5] if mine == best else KINDS[6]
        out.append(o)
    return out


def report(name: str, found: list[Outcome], examples: int) -> list[str]:
    misses = [o for o in found if not o.first]
    lines = [f"## {name}: {len(found) - len(misses)} of {len(found)} first ({1 - len(misses) / len(found):.2%})", ""]
    lines += ["| kind of miss | papers | corrected | with a title word the abstract lacks |", "|---|---|---|---|"]
    by_kind = Counter(o.kind for o in misses)
    for kind in KINDS:
        these = [o for o in misses if o.kind == kind]
        lacking = sum(1 for o in these if o.absent)
        lines.append(f"| {kind} | {by_kind[kind]} | {sum(o.corrected for o in these)} | {lacking} |")
    words = Counter(kind for o in misses for kind in o.absent.values())
    lines += ["", "Title words the abstract lacks, in the misses: "
              + ", ".join(f"{kind} {words[kind]}" for kind in ("none", "derivation", "hyphen"))]  # fmt: skip
    common = Counter(w for o in misses for w, kind in o.absent.items() if kind == "none")
    lines.append("commonest with nothing related: " + ", ".join(f"{w} {n}" for w, n in common.most_common(25)))
    derived = Counter(w for o in misses for w, kind in o.absent.items() if kind == "derivation")
    lines.append("commonest derivations: " + ", ".join(f"{w} {n}" for w, n in derived.most_common(25)))
    if examples:
        for kind in KINDS:
            these = [o for o in misses if o.kind == kind][:examples]
            if these:
                lines += ["", f"### {kind}"]
            for o in these:
                lines.append(f"- {o.paper.title!r} (rank {o.rank}) — first: {o.top_title!r}; lacks {o.absent}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", nargs="+", default=["development", "validation"])
    parser.add_argument("--work", type=Path, default=Path("/tmp/pasted-misses"), help="where the libraries are kept")
    parser.add_argument("--examples", type=int, default=0, help="misses to print of each kind")
    args = parser.parse_args(argv)
    if not titles.ALL_VENUES.exists():
        print(f"no corpora at {titles.SHARED}", file=sys.stderr)
        return 1
    sets = titles.tuning_sets()
    for name in args.sets:
        work = args.work / name
        work.mkdir(parents=True, exist_ok=True)
        lib, ids = library(sets[name], work)
        try:
            print("\n".join(report(name, outcomes(lib, sets[name], ids), args.examples)) + "\n")
        finally:
            lib.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
