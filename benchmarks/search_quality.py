"""Search quality: does a search find the paper a researcher has in mind, typed the ways people type it?

`python -m benchmarks.search_quality [--quick] [--sample N] [--seed S] [--work DIR] [--baseline JSON] [CORPUS…]`
(`--from RUN.json` writes the report of a run already measured)

A fixed random sample of papers (seeded; only papers with an imported title and an abstract) is searched
through the library five ways (and a sixth sample one way), and the share of papers found first and in the
top 10 is reported for each:

- the exact title, as pasted;
- the title in lower case without its punctuation;
- the title's first four words;
- one sentence of the abstract, pasted (a sentence of 8–40 words, chosen at random);
- the title with one letter dropped from its longest word (at a random place);
- and, for a sample of its own, papers whose whole title a longer title holds ("Latent Dirichlet Allocation",
  held by "Spatial Latent Dirichlet Allocation"): the exact title, as pasted;
- and, for another, papers whose title has a hyphenated word ("Multi-Task Feature Learning"): the title in
  lower case with those words joined ("multitask feature learning"), a spelling many papers use;
- for the main sample again: a two-word key phrase of the abstract that few papers have (PHRASE_PAPERS) though
  many have both words (PHRASE_APART), typed ("dataset shift"); a hit is any paper with the phrase;
- and, for another, papers whose title has a word written joined that the library's abstracts also write
  hyphenated ("Scalable Hyperparameter Transfer Learning"; "hyper-parameter" elsewhere): that word typed as
  two, with up to three of the title's other words (not stop words) around it, in lower case ("scalable hyper
  parameter transfer learning");
- for the main sample again: a phrase of two or three words of the abstract that many papers have and far more
  have the words of ("evidence lower bound"), typed as plain words: is a paper with the phrase first?; and a
  two-word phrase of the abstract quoted in the other number ('"variational autoencoder"' for "variational
  autoencoders"): a hit is a paper with the phrase in either number;
- and, for another, papers whose title has an American spelling ("Normalizing", "Behavior", "Modeling"): the
  title in lower case spelt the British way ("normalising", "behaviour", "modelling").

A result counts as the paper when it is the paper, or a paper the query cannot tell apart from it (for the
title kinds: the same title, ignoring case and punctuation; for the sentence: an abstract holding the same
sentence) — the all-venues corpus holds a few papers twice.

Without corpora it uses NeurIPS 1987–2018 (8,263 papers) and all venues (94,374); --quick uses the 517-paper
PMLR file and 40 papers. The library is imported into a temporary folder, or into DIR/<corpus> with --work
(reused when present: the 94k import takes minutes). Writes benchmarks/results/search-quality-<date>.json
and the "search-quality" section of docs/performance.md; --baseline adds the figures of an earlier run's
JSON (e.g. the code before a change, run with PYTHONPATH pointing at it) side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from datetime import date
from pathlib import Path

from whoosh.analysis.filters import STOP_WORDS  # the words the index leaves out

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("READINGLIST_SHARED", ROOT.parent / "shared")) / "corpora"
KINDS = {  # name: (what it is, measured at: "first" or "top10", goal share)
    "exact_title": ("exact title, pasted", "first", 0.98),
    "lower_title": ("title in lower case, no punctuation", "first", 0.95),
    "first_four": ("first four words of the title", "top10", 0.90),
    "sentence": ("one sentence of the abstract, pasted", "first", 0.90),
    "typo": ("title with one letter dropped from its longest word", "top10", 0.60),
    # a sample of its own: papers whose whole title another paper's longer title holds ("Latent Dirichlet
    # Allocation" in "Spatial Latent Dirichlet Allocation"), their exact title pasted
    "held_title": ("exact title that a longer title holds, pasted", "first", 0.95),
    # a sample of its own: papers whose title has a hyphenated word ("Multi-Task", "Semi-Supervised"), the title
    # in lower case with those words written joined ("multitask feature learning"), as many papers spell them
    "joined_title": ("title with its hyphenated words joined, lower case", "first", 0.90),
    # a sample of its own: papers whose title has a word written joined that abstracts of the library write
    # hyphenated too ("Hyperparameter", "hyper-parameter"): up to four of the title's words around it, in lower
    # case, that word typed as two ("scalable hyper parameter transfer learning")
    "apart_words": ("a joined word of the title typed as two, with the words around it", "top10", 0.90),
    # of the main sample: two words side by side in the abstract, a phrase at most PHRASE_PAPERS papers have
    # though PHRASE_APART or more have both words ("dataset shift"), typed; a hit is a paper with the phrase
    "abstract_phrase": ("a rare two-word phrase of the abstract, typed", "top10", 0.90),
    # of the main sample: a two- or three-word phrase of the abstract that COMMON_PAPERS or more papers have and
    # at least COMMON_APART times as many have the words of ("evidence lower bound"), typed as plain words; a hit
    # is a paper with the phrase, found first (not a title with its words apart)
    "common_phrase": ("a common phrase of the abstract, typed as plain words", "first", 0.90),
    # a sample of its own: papers whose title has a word spelt the American way that British papers spell
    # otherwise ("Normalizing Flows", "Behavior"), the title in lower case spelt the British way
    "british_title": ("title spelt the British way, lower case", "first", 0.90),
    # of the main sample: a two-word phrase of the abstract whose last word is a plural or a singular, quoted
    # in the other number ('"variational autoencoder"' for "variational autoencoders"); a hit is a paper
    # with the phrase as the abstract has it
    "other_number": ("a quoted phrase of the abstract in the other number", "top10", 0.90),
}
COMMON_PAPERS = 5
COMMON_APART = 3
PHRASE_PAPERS = 3
PHRASE_APART = 10
PHRASE_TRIES = 12  # word pairs of an abstract tried, in order, for one that is such a phrase
_HYPHENATED = re.compile(r"(?<![\w-])([A-Za-z]{2,})-([A-Za-z]{2,})(?![\w-])")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'“])")
_PUNCT = re.compile(r"[^\w\s]|_")


def normal(text: str) -> str:
    """Lower case, punctuation gone, single spaces: what tells two titles apart for a query."""
    return " ".join(_PUNCT.sub(" ", text.lower()).split())


def sentences(abstract: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(abstract) if 8 <= len(s.split()) <= 40]


def drop_letter(title: str, rng: random.Random) -> str | None:
    """The title with one letter dropped from its longest word (None when no word has five letters)."""
    words = title.split()
    best = max(range(len(words)), key=lambda i: len(re.sub(r"\W", "", words[i])), default=None)
    if best is None:
        return None
    word = words[best]
    letters = [i for i, c in enumerate(word) if c.isalpha()]
    if len(letters) < 5:
        return None
    cut = rng.choice(letters)
    words[best] = word[:cut] + word[cut + 1 :]
    return " ".join(words)


def make_queries(papers: list, seed: int) -> list[dict]:
    """Each sampled paper's five queries (the typo and the sentence drawn from a generator seeded per paper,
    so that the queries do not depend on the rest of the sample)."""
    out = []
    for p in papers:
        rng = random.Random(f"{seed}:{p.uid}")
        found = sentences(p.plain_abstract)
        queries = {
            "exact_title": p.title,
            "lower_title": normal(p.title),
            "first_four": " ".join(p.title.split()[:4]),
            "sentence": rng.choice(found) if found else None,
            "typo": drop_letter(p.title, rng),
        }
        out.append({"id": p.id, "uid": p.uid, "title": p.title, "queries": queries})
    return out


def sample_papers(lib, n: int, seed: int) -> list:
    """A fixed random sample of papers with an imported title and an abstract with a usable sentence."""
    ids = sorted(lib.search("").ids)
    rng = random.Random(seed)
    rng.shuffle(ids)
    chosen = []
    for start in range(0, len(ids), 500):
        for p in lib.papers(ids[start : start + 500]):
            if p.raw_title.strip() and sentences(p.plain_abstract) and len(p.title.split()) >= 2:
                chosen.append(p)
                if len(chosen) == n:
                    return chosen
    return chosen


def held_papers(lib, n: int, seed: int) -> list:
    """A fixed random sample of papers with an imported title that another paper's longer title holds, word
    for word (each other title looked for among those sharing the title's rarest word)."""
    ids = sorted(lib.search("").ids)
    titles: dict[int, str] = {}
    for start in range(0, len(ids), 2000):
        titles.update((p.id, normal(p.title)) for p in lib.papers(ids[start : start + 2000]) if p.raw_title.strip())
    twice = Counter(titles.values())
    holding: dict[str, list[int]] = {}
    for pid, title in titles.items():
        for word in set(title.split()):
            holding.setdefault(word, []).append(pid)
    held = []
    for pid, title in titles.items():
        words = title.split()
        if len(words) < 2 or twice[title] > 1:  # a title two papers share tells neither apart
            continue
        rarest = min(words, key=lambda w: len(holding[w]))
        if any(len(titles[o]) > len(title) and f" {title} " in f" {titles[o]} " for o in holding[rarest]):
            held.append(pid)
    random.Random(seed).shuffle(held)
    return lib.papers(held[:n])


def joined(title: str) -> str | None:
    """The title in lower case, its punctuation gone and its hyphenated words written joined ("Multi-Task
    Feature Learning" → "multitask feature learning"); None if it has no such word (two letters a side at
    least: "Q-learning" is not spelt "qlearning")."""
    if not _HYPHENATED.search(title):
        return None
    return normal(_HYPHENATED.sub(lambda m: m.group(1) + m.group(2), title))


def apart(title: str, hyphenated: dict[str, str]) -> str | None:
    """The title's first word that the library's abstracts also write hyphenated (`hyphenated`: joined →
    "head tail"), typed as two, with up to three of the title's other words around it that are not stop words
    (a reader types "hyper parameter transfer learning", not "of"), lower case; None if it has no such word."""
    words = [w for w in normal(title).split() if w not in STOP_WORDS]
    at = next((i for i, w in enumerate(words) if w in hyphenated), None)
    if at is None:
        return None
    start = max(0, min(at - 1, len(words) - 4))
    window = words[start : start + 4]
    window[at - start] = hyphenated[words[at]]
    return " ".join(window)


def apart_papers(lib, n: int, seed: int) -> tuple[list, dict[str, str]]:
    """A fixed random sample of papers with an imported title holding a word that abstracts write hyphenated,
    and those words (joined → "head tail"): each half a word of two titles at least, on its own (not what a
    line break leaves: "informa-tion"), the head two letters at least and the tail three ("co-ordinate",
    "feed-forward"; not "Q-learning"), neither a stop word ("on-line": the index leaves "on" out, and "on line"
    typed is the query "line")."""
    ids = sorted(lib.search("").ids)
    papers = []
    for start in range(0, len(ids), 2000):
        papers += [p for p in lib.papers(ids[start : start + 2000]) if p.raw_title.strip()]
    in_titles = Counter(w for p in papers for w in set(normal(p.title).split()))
    hyphenated = {
        (m.group(1) + m.group(2)).lower(): f"{m.group(1)} {m.group(2)}".lower()
        for p in papers
        for m in _HYPHENATED.finditer(p.plain_abstract)
        if len(m.group(2)) >= 3
        and min(in_titles[m.group(1).lower()], in_titles[m.group(2).lower()]) >= 2
        and STOP_WORDS.isdisjoint((m.group(1).lower(), m.group(2).lower()))
    }
    found = [p.id for p in papers if apart(p.title, hyphenated)]
    random.Random(seed).shuffle(found)
    return lib.papers(found[:n]), hyphenated


def abstract_phrase(lib, paper) -> str | None:
    """The first two-word key phrase of the paper's abstract (readinglist.keyphrases: content words side by
    side, no stop word, no punctuation between them), in lower case, that at most PHRASE_PAPERS papers have
    and PHRASE_APART or more have both words of; None if none of its first PHRASE_TRIES is one."""
    from readinglist.keyphrases import phrases

    found = [ph.text.lower() for k, ph in phrases("", paper.plain_abstract).items() if len(k) == 2]
    for phrase in found[:PHRASE_TRIES]:
        if not all(w.isalpha() and len(w) > 2 for w in phrase.split()):
            continue
        if len(lib.search(f'"{phrase}"').ids) <= PHRASE_PAPERS and len(lib.search(phrase).ids) >= PHRASE_APART:
            return phrase
    return None


def common_phrase(lib, paper) -> str | None:
    """The first phrase of two or three content words of the paper's abstract (readinglist.keyphrases), in
    lower case, that COMMON_PAPERS or more papers have and COMMON_APART times as many have the words of."""
    from readinglist.keyphrases import phrases

    found = [ph.text.lower() for k, ph in phrases("", paper.plain_abstract).items() if len(k) in (2, 3)]
    for phrase in found[:PHRASE_TRIES]:
        if not all(w.isalpha() and len(w) > 2 for w in phrase.split()):
            continue
        together = len(lib.search(f'"{phrase}"').ids)
        if together >= COMMON_PAPERS and len(lib.search(phrase).ids) >= COMMON_APART * together:
            return phrase
    return None


def other_number(lib, paper) -> str | None:
    """The first two-word phrase of the abstract (as abstract_phrase picks them, but any number of papers)
    whose last word is a plural or a singular the library has the other of, quoted in that other number."""
    from readinglist.keyphrases import phrases

    for k, ph in phrases("", paper.plain_abstract).items():
        words = ph.text.lower().split()
        if len(k) != 2 or not all(w.isalpha() and len(w) > 3 for w in words):
            continue
        last = words[-1]
        other = last[:-1] if last.endswith("s") and not last.endswith("ss") else last + "s"
        if lib.search(f"={other}").ids:
            return f'"{words[0]} {other}"'
    return None


_BRITISH = [  # American → British, the regular patterns (the reverse of readinglist.index.analysis.american)
    (re.compile(r"^([a-z]{3,}?)iz(e|es|ed|ing|ation|ations|er|ers)$"), r"\1is\2"),
    (re.compile(r"^([a-z]*ly)z(e|es|ed|ing)$"), r"\1s\2"),
    (re.compile(r"^([a-z]*(?:behavi|col|fav|neighb|hon|lab|hum|flav))or(s|al|ally|ed|ing|ite)?$"), r"\1our\2"),
    (re.compile(r"^([a-z]*(?:cent|fib|theat|met))er(s|ed)?$"), r"\1re\2"),
    (re.compile(r"^([a-z]*(?:model|label|signal|travel|channel|tunnel|level))(ed|ing|er|ers)$"), r"\1l\2"),
    (re.compile(r"^([a-z]*)parameteri([sz][a-z]*)$"), r"\1parametri\2"),
]
_NOT_BRITISH = {"size", "sizes", "seize", "prize", "prizes", "sized", "maize", "citizen", "citizens"}


def british(title: str) -> str | None:
    """The title in lower case without punctuation, its American spellings spelt the British way
    ("normalizing flows" → "normalising flows"); None if it has none."""
    words, changed = normal(title).split(), False
    for i, w in enumerate(words):
        for pattern, repl in _BRITISH:
            if w not in _NOT_BRITISH and pattern.match(w):
                words[i], changed = pattern.sub(repl, w), True
                break
    return " ".join(words) if changed else None


def british_papers(lib, n: int, seed: int) -> list:
    """A fixed random sample of papers with an imported title that has a word spelt the American way."""
    return _titled_sample(lib, n, seed, british)


def _titled_sample(lib, n: int, seed: int, keep: Callable[[str], object]) -> list:
    """A fixed random sample of papers with an imported title that `keep` takes."""
    ids = sorted(lib.search("").ids)
    found = []
    for start in range(0, len(ids), 2000):
        found += [p.id for p in lib.papers(ids[start : start + 2000]) if p.raw_title.strip() and keep(p.title)]
    random.Random(seed).shuffle(found)
    return lib.papers(found[:n])


def holds_phrase(lib, pid: int, phrase: str) -> bool:
    """Does the paper's title or abstract have the phrase (its words side by side, in any form of each)?"""
    from readinglist.keyphrases import phrases

    p = lib.paper(pid)
    wanted = next((k for k in phrases("", phrase) if len(k) == 2), None)
    return p is not None and wanted is not None and wanted in phrases(p.title, p.plain_abstract)


def joined_papers(lib, n: int, seed: int) -> list:
    """A fixed random sample of papers with an imported title that has a hyphenated word."""
    return _titled_sample(lib, n, seed, joined)


def rank_of(lib, target, kind: str, query: str, ids: list[int]) -> int | None:
    """1-based rank of the paper (or of one the query cannot tell from it) among the first ten, else None."""
    top = ids[:10]
    if kind in ("abstract_phrase", "common_phrase", "other_number"):  # any paper with the phrase
        wanted = query.strip('"')  # (a phrase's words by their stems: in either number)
        return next((i + 1 for i, pid in enumerate(top) if holds_phrase(lib, pid, wanted)), None)
    first = top.index(target.id) if target.id in top else None
    papers = {p.id: p for p in lib.papers(top)} if (first is None or first > 0) else {}
    if kind == "sentence":
        needle = normal(query)
        same = [i for i, pid in enumerate(top) if pid in papers and needle in normal(papers[pid].plain_abstract)]
    else:
        key = normal(target.title)
        same = [i for i, pid in enumerate(top) if pid in papers and normal(papers[pid].title) == key]
    candidates = [x for x in [first, *same] if x is not None]
    return min(candidates) + 1 if candidates else None


def measure(
    lib, papers: list, seed: int, log, held: list | None = None, hyphenated: list | None = None,
    written_apart: tuple[list, dict[str, str]] | None = None, spelt_british: list | None = None,
) -> dict:  # fmt: skip
    from readinglist.papers import QueryError

    queries = make_queries(papers, seed)
    for item, p in zip(queries, papers, strict=True):
        item["queries"]["abstract_phrase"] = abstract_phrase(lib, p)
        item["queries"]["common_phrase"] = common_phrase(lib, p)
        item["queries"]["other_number"] = other_number(lib, p)
    queries += [{"id": p.id, "uid": p.uid, "title": p.title, "queries": {"held_title": p.title}} for p in held or []]
    queries += [
        {"id": p.id, "uid": p.uid, "title": p.title, "queries": {"joined_title": joined(p.title)}}
        for p in hyphenated or []
    ]
    queries += [
        {"id": p.id, "uid": p.uid, "title": p.title, "queries": {"british_title": british(p.title)}}
        for p in spelt_british or []
    ]
    apart_list, joined_words = written_apart or ([], {})
    queries += [
        {"id": p.id, "uid": p.uid, "title": p.title, "queries": {"apart_words": apart(p.title, joined_words)}}
        for p in apart_list
    ]
    by_id = {p.id: p for p in [*papers, *(held or []), *(hyphenated or []), *apart_list, *(spelt_british or [])]}
    results: dict[str, dict] = {k: {"n": 0, "first": 0, "top10": 0, "errors": 0, "ms": [], "misses": []} for k in KINDS}
    for item in queries:
        target = by_id[item["id"]]
        for kind, text in item["queries"].items():
            if not text:
                continue
            r = results[kind]
            r["n"] += 1
            t = time.perf_counter()
            try:
                ids = lib.search(text, typing=True).ids
            except QueryError as exc:
                r["errors"] += 1
                r["misses"].append({"query": text, "error": str(exc)})
                continue
            finally:
                r["ms"].append((time.perf_counter() - t) * 1000)
            rank = rank_of(lib, target, kind, text, ids)
            if rank == 1:
                r["first"] += 1
            if rank is not None:
                r["top10"] += 1
            if rank != 1 and len(r["misses"]) < 12:
                r["misses"].append({"query": text, "rank": rank, "hits": len(ids), "title": target.title})
    summary = {}
    for kind, r in results.items():
        n = r["n"] or 1
        ms = sorted(r["ms"])
        summary[kind] = {
            "n": r["n"],
            "first": r["first"] / n,
            "top10": r["top10"] / n,
            "errors": r["errors"],
            "p50_ms": statistics.median(ms) if ms else None,
            "p95_ms": ms[min(len(ms) - 1, int(0.95 * len(ms)))] if ms else None,
            "misses": r["misses"],
        }
        log(f"  {kind:12} n={r['n']:4}  first {summary[kind]['first']:6.1%}  top10 {summary[kind]['top10']:6.1%}"
            f"  errors {r['errors']}  p50 {summary[kind]['p50_ms'] or 0:.0f} ms")  # fmt: skip
    return summary


def library_for(corpus: Path, work: Path | None, log):
    """The library of this corpus: imported into work/<corpus> (kept) or a temporary folder."""
    from readinglist.library import Library

    stem = corpus.name.split(".")[0]
    folder = (work / stem) if work else Path(tempfile.mkdtemp(prefix="rl-quality-")) / stem
    fresh = not (folder / "library.db").exists()
    lib = Library.open(folder, seed=False)
    if fresh:
        log(f"{corpus.name}: importing into {folder}…")
        t = time.perf_counter()
        lib.import_files([corpus])
        log(f"  {time.perf_counter() - t:.0f} s")
    lib.sync_index()
    return lib, folder, not work


def table(run: dict, baseline: dict | None) -> list[str]:
    before = {c["corpus"]: c for c in baseline["corpora"]} if baseline else {}
    lines = []
    for c in run["corpora"]:
        old = before.get(c["corpus"])
        lines += [f"### {c['corpus']} — {c['papers']:,} papers, {c['sample']} sampled", ""]
        head = "| query | goal | found first | in the top 10 | search p50 / p95 |"
        rule = "|---|---|---|---|---|"
        if old:
            head = (
                "| query | goal | found first: before → now | in the top 10: before → now "
                "| search p50 / p95: before → now |"
            )
        lines += [head, rule]
        for kind, (label, at, goal) in KINDS.items():
            s = c["kinds"].get(kind)
            if not s or not s["n"]:  # a run from before the kind, or a corpus with no such paper
                continue
            got = s[at]
            mark = "✅" if got >= goal else "❌"
            goal_text = f"{'first' if at == 'first' else 'top 10'} ≥ {goal:.0%} {mark}"
            err = f" ({s['errors']} query errors)" if s["errors"] else ""
            o = old["kinds"].get(kind) if old else None
            if o and o["n"]:
                oerr = f" ({o['errors']} errors)" if o["errors"] else ""
                lines.append(
                    f"| {label} (n={s['n']}) | {goal_text} | {o['first']:.0%}{oerr} → **{s['first']:.0%}**{err} | "
                    f"{o['top10']:.0%} → **{s['top10']:.0%}** | {o['p50_ms']:.0f} / {o['p95_ms']:.0f} → "
                    f"{s['p50_ms']:.0f} / {s['p95_ms']:.0f} ms |"
                )
            else:
                lines.append(
                    f"| {label} (n={s['n']}) | {goal_text} | {s['first']:.0%}{err} | {s['top10']:.0%} | "
                    f"{s['p50_ms']:.0f} / {s['p95_ms']:.0f} ms |"
                )
        lines.append("")
    return lines


def write_report(run: dict, baseline: dict | None, json_name: str) -> None:
    from benchmarks.report import write_section

    lines = [
        "## Search quality",
        "",
        f"Measured {run['date']} by `python -m benchmarks.search_quality` (seed {run['seed']}; raw numbers and "
        f"the misses: `benchmarks/results/{json_name}`). A sample of papers with an imported title and an "
        "abstract, each searched five ways through the library and by a rare two-word phrase of its abstract "
        "(a hit: any paper with the phrase), a sample of papers whose title a longer "
        "title holds, by their exact title, one of titles with a hyphenated word, searched with it "
        "joined, and one of titles with a joined word the abstracts write hyphenated, typed as two; a hit is "
        "the paper or one the query cannot tell from it (same title; same sentence). Search "
        "times are from the same process, one search after another, on a shared 2-core machine: compare them "
        "only within a row.",
    ]
    if baseline:
        label = baseline.get("label") or "before: the baseline"
        lines.append(f"{label[:1].upper()}{label[1:]} ({baseline['date']}), the same sample and queries.")
    lines.append("")
    lines += table(run, baseline)
    write_section("search-quality", lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpora", nargs="*", type=Path)
    parser.add_argument("--quick", action="store_true", help="the 517-paper PMLR corpus, 40 papers")
    parser.add_argument("--sample", type=int, default=None, help="papers per corpus (default 200; 40 with --quick)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--work", type=Path, default=None, help="keep (and reuse) the imported libraries here")
    parser.add_argument("--baseline", type=Path, default=None, help="an earlier run's JSON, shown side by side")
    parser.add_argument("--label", default="", help="what this run measures (e.g. 'before: main at abc123')")
    parser.add_argument("--out", type=Path, default=None, help="write the JSON here (and no report)")
    parser.add_argument("--no-report", action="store_true", help="print the JSON; write no files")
    parser.add_argument("--from", dest="from_json", type=Path, default=None,
                        help="write the report from this run's JSON (measure nothing)")  # fmt: skip
    args = parser.parse_args()
    if args.from_json:
        baseline = json.loads(args.baseline.read_text()) if args.baseline else None
        write_report(json.loads(args.from_json.read_text()), baseline, args.from_json.name)
        return 0
    sample = args.sample or (40 if args.quick else 200)
    corpora = args.corpora or (
        [SHARED / "pmlr_colt2025_uai2025_l4dc2026.jsonl"]
        if args.quick
        else [SHARED / "neurips_1987_2018.jsonl.gz", SHARED / "paperlists_all_venues.jsonl.xz"]
    )
    missing = [c for c in corpora if not c.exists()]
    if missing:
        print(f"search_quality: corpus not found: {', '.join(map(str, missing))}", file=sys.stderr)
        return 0 if args.quick else 1

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    run = {
        "date": date.today().isoformat(),
        "label": args.label,
        "seed": args.seed,
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
        "corpora": [],
    }
    for corpus in corpora:
        lib, folder, temporary = library_for(corpus, args.work, log)
        try:
            papers = sample_papers(lib, sample, args.seed)
            held = held_papers(lib, sample, args.seed)
            hyphenated = joined_papers(lib, sample, args.seed)
            written_apart = apart_papers(lib, sample, args.seed)
            spelt_british = british_papers(lib, sample, args.seed)
            log(f"{corpus.name}: {len(papers)} papers sampled, {len(held)} whose title a longer one holds, "
                f"{len(hyphenated)} with a hyphenated word in the title, {len(written_apart[0])} with a joined "
                "word abstracts write hyphenated")  # fmt: skip
            kinds = measure(lib, papers, args.seed, log, held, hyphenated, written_apart, spelt_british)
            run["corpora"].append(
                {"corpus": corpus.name, "papers": lib.counts()["all"], "sample": len(papers), "kinds": kinds}
            )
        finally:
            lib.close()
            if temporary:
                shutil.rmtree(folder.parent, ignore_errors=True)
    text = json.dumps(run, indent=2, ensure_ascii=False) + "\n"
    if args.no_report:
        print(text)
        return 0
    if args.out:
        args.out.write_text(text)
        log(f"wrote {args.out}")
        return 0
    name = f"search-quality-{run['date']}{'-quick' if args.quick else ''}.json"
    (ROOT / "benchmarks" / "results" / name).write_text(text)
    baseline = json.loads(args.baseline.read_text()) if args.baseline else None
    if not args.quick:
        write_report(run, baseline, name)
        log(f"wrote benchmarks/results/{name} and the search-quality section of docs/performance.md")
    else:
        log(f"wrote benchmarks/results/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
