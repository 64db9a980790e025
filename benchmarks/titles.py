"""Derived titles against the real ones: `python -m benchmarks.titles [--quick] [--against REV] [--tuning]`.

Real titled corpora with their titles removed (NeurIPS 2018, ICLR 2021, the PMLR JSON Lines, read from
../shared/corpora and never copied here): a title is derived from each abstract, by the titles.py before
issue 19 (benchmarks/titles_before.py, frozen), by titles.py at git revision REV if given (--against: the
issue's first pass, a single module), and by today's readinglist.importers.titles, side by side in one run,
and compared with the paper's real title:

- method-name inclusion: a real title *names a method* when one of its words is an acronym or CamelCase name
  (two or more capitals, or a capital after a lower-case letter: "CCA", "MubyNet", "GANs", "RWKV-7"; not a
  Roman numeral, not in an all-capitals title) that also appears, as a word, in the abstract. The derived
  title includes it when it holds that word too (a trailing plural "s" ignored). Reported: the share of such
  papers whose derived title includes at least one of the title's names (goal ≥ 85%), and all of them.
  Beside it, split: papers whose title names something of its own (a name fewer than SHARED_NAME_TITLES other
  titles of the all-venues file carry: MubyNet, PyramidKV) and papers whose title names only shared names
  (LLMs, GANs, SGD, MDPs: a field or a tool, which the issue says the title must not name as its method).
- content-word F1: the real and derived titles as sets of Porter-stemmed lower-case words (split at anything
  not a letter or digit), stop words dropped; F1 averaged over papers (goal ≥ 0.40). Beside it the
  first-sentence baseline: the abstract's whole first sentence as the "title".
- ends badly: ends on a function word (article, preposition, conjunction, pronoun, auxiliary, relative word)
  or a dangling modifier ("novel", "such"), or is cut (an ellipsis, trailing punctuation or hyphen, an
  unclosed bracket), or is longer than 90 characters (goal 0).
- search: the title-less records are imported into a temporary library (the importer derives the titles),
  and the real title, as plain text, is searched; found when that paper ranks first (goal ≥ 90%), as pasted
  (the parser requires every word) and with its words OR'd (what a best-match search would rank).
- derive cost: CPU time of derive_title over every NeurIPS abstract (8k), each version in turn over the same
  abstracts, five rounds, medians, as the importer calls it (with the plain text it has; the old version took
  none and converted again); and a title-less import of those abstracts with the old and today's titles, in
  turn, three rounds: its wall time and the CPU time deriving took (the index is written in another process).

--quick takes 150 papers of each corpus and a 2k-abstract timing (about a minute); the full run writes
benchmarks/results/titles-<date>.json and the "titles" section of docs/performance.md. --tuning prints the
quality figures on the tuning sets (development, validation, recent: other all-venues papers).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from benchmarks import titles_before
from readinglist import markup
from readinglist.importers import titles as titles_now
from readinglist.importers.base import clean_abstract

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("READINGLIST_SHARED", ROOT.parent / "shared")) / "corpora"
RESULTS = ROOT / "benchmarks" / "results"
GOALS = {"method_inclusion": 0.85, "content_f1": 0.40, "ends_badly": 0.0, "search_first": 0.90}
MAX_CHARS = 90
QUICK_PAPERS = 150

# ---- the measures -------------------------------------------------------------------------------------


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# The F1's stop words: a common English list (articles, pronouns, prepositions, auxiliaries, conjunctions).
STOP_WORDS = _words(
    """a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have having
    he her here hers herself him himself his how i if in into is it its itself just me more most my myself no
    nor not now of off on once only or other our ours ourselves out over own same she should so some such
    than that the their theirs them themselves then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your yours yourself
    yourselves via using towards toward within without upon also us may might must shall"""
)
# What a title must not end on: closed-class words, and modifiers that need a noun after them.
FUNCTION_WORDS = _words(
    """a an the this that these those its their our his her my your some any each every no both either
    neither such which who whom whose what where when while whereas whether if than then and or nor but yet so how why
    albeit
    as of in on at by for from to into onto with within without via over under between among across through
    throughout towards toward against about above below after before during until upon per versus vs using
    based is are was were be been being has have had do does did can could may might must shall should will
    would it we they he she i you them us also not very more most less least"""
)
DANGLING = _words(
    """novel new simple general efficient effective unified principled various several different many few
    certain large small deep other same key main proposed existing"""
)
_NAME_IN_TITLE = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-]*")
_ROMAN = re.compile(r"^(?:I|II|III|IV|V|VI|VII|VIII|IX|X)$")


def stem(word: str) -> str:
    from whoosh.lang.porter import stem as porter

    return str(porter(word))


def content_words(text: str) -> set[str]:
    return {stem(w) for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP_WORDS}


def f1(real: str, derived: str) -> float:
    a, b = content_words(real), content_words(derived)
    common = len(a & b)
    if not common:
        return 0.0
    p, r = common / len(b), common / len(a)
    return 2 * p * r / (p + r)


def is_name(word: str) -> bool:
    """An acronym or CamelCase name: CCA, MubyNet, GANs, RWKV-7, X-Teaming, Self-RedTeam; not a Roman numeral,
    nor a hyphenated pair of capitalised words ("Min-Sum", "Retrieval-Augmented")."""
    if "-" in word:
        parts = [w for w in word.split("-") if w]
        return any(is_name(w) or (len(w) == 1 and w.isupper()) for w in parts) and len(parts) > 1
    caps = sum(ch.isupper() for ch in word)
    camel = re.search(r"[a-z][A-Z]", word) is not None
    return (caps >= 2 or camel) and not _ROMAN.match(word)


def method_names(real_title: str, abstract_plain: str) -> list[str]:
    """The names the real title gives that the abstract also has (see the module docstring)."""
    letters = [ch for ch in real_title if ch.isalpha()]
    if letters and sum(ch.isupper() for ch in letters) / len(letters) > 0.8:
        return []  # an all-capitals title names nothing by its case
    words = set(re.findall(r"[A-Za-z0-9][A-Za-z0-9\-]*[A-Za-z0-9]|[A-Za-z0-9]", abstract_plain))
    out = []
    for w in _NAME_IN_TITLE.findall(real_title):
        w = w.strip("-")
        if is_name(w) and w in words and w not in out:
            out.append(w)
    return out


def includes(derived: str, name: str) -> bool:
    def norm(w: str) -> str:
        return w[:-1] if w.endswith("s") and len(w) > 2 else w

    words = {norm(w) for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9\-]*[A-Za-z0-9]|[A-Za-z0-9]", derived)}
    words |= {norm(p) for w in list(words) for p in w.split("-")}
    return norm(name) in words


def bad_ending(title: str) -> str | None:
    """Why a title does not read as a title, or None."""
    t = title.strip()
    if not t:
        return "empty"
    if len(t) > MAX_CHARS:
        return "too long"
    if t.endswith(("…", "...")):
        return "cut (ellipsis)"
    if t[-1] in ",;:-–—/&(":
        return "cut (punctuation)"
    if not (t[0].isalnum() or t[0] in "(“\"'$"):
        return "starts on punctuation"
    for a, b in ("()", "[]", "{}"):
        if t.count(a) != t.count(b):
            return "cut (bracket)"
    last = re.findall(r"[^\W_][\w'\-]*", t)  # a name in capitals ("(IT)") is not the word "it"
    if last:
        w = last[-1]
        if w in FUNCTION_WORDS:
            return f"ends on “{last[-1]}”"
        if w in DANGLING:
            return f"ends on a modifier “{last[-1]}”"
    return None


def first_sentence(plain: str) -> str:
    text = re.sub(r"\s+", " ", plain).strip()
    return re.split(r"(?<=[.!?])\s+(?=[A-Z])", text, maxsplit=1)[0].rstrip(".")


# ---- the corpora --------------------------------------------------------------------------------------


@dataclass
class Paper:
    title: str  # the real title, plain text
    abstract: str  # as the importer stores it (importers.base.clean_abstract: PDF codes and line-break hyphens mended)
    plain: str
    authors: list[str]
    venue: str
    year: int | None


def _read_jsonl(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:  # type: ignore[operator]
        return [json.loads(line) for line in f if line.strip()]


def _papers(rows: list[dict]) -> list[Paper]:
    out = []
    for r in rows:
        abstract = clean_abstract(r.get("abstract"))  # what an import derives the title from
        title = markup.title_plain(r.get("title") or "")
        plain = markup.to_plain(abstract)
        if not title or len(plain.split()) < 20:  # placeholders ("Abstract Unavailable") are not abstracts
            continue
        out.append(Paper(title, abstract, plain, list(r.get("authors") or []), r.get("venue", ""), r.get("year")))
    return out


def corpora() -> dict[str, list[Paper]]:
    neurips = _read_jsonl(SHARED / "neurips_1987_2018.jsonl.gz")
    return {
        "NeurIPS 2018": _papers([r for r in neurips if r.get("year") == 2018]),
        "ICLR 2021": _papers(_read_jsonl(SHARED / "iclr2021_submissions.jsonl.gz")),
        "PMLR (COLT/UAI 2025, L4DC 2026)": _papers(_read_jsonl(SHARED / "pmlr_colt2025_uai2025_l4dc2026.jsonl")),
    }


# Tuning happens on other titled papers of the all-venues file, never on the corpora above: the development
# set (rules and fitted weights are chosen on it), and a validation set checked before a change is kept.
ALL_VENUES = SHARED / "paperlists_all_venues.jsonl.xz"
DEV_SLICES = frozenset({("NeurIPS", 2017), ("ICML", 2019), ("ICLR", 2018), ("AISTATS", 2024), ("COLM", 2025)})
VAL_SLICES = frozenset({("NeurIPS", 2016), ("ICML", 2018), ("COLT", 2024), ("UAI", 2024), ("AISTATS", 2023)})
# the benchmark's own papers, as they appear in the all-venues file (NeurIPS 2018 does; the others are not in it)
HELD_OUT_SLICES = frozenset({("NeurIPS", 2018), ("ICLR", 2021), ("COLT", 2025), ("UAI", 2025), ("L4DC", 2026)})


def all_venues_rows() -> list[dict]:
    import lzma

    with lzma.open(ALL_VENUES, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


RECENT_VENUES = frozenset({"ICML", "NeurIPS", "ICLR", "AISTATS", "COLT", "UAI"})
RECENT_PAPERS = 12_000


def tuning_sets(rows: list[dict] | None = None) -> dict[str, list[Paper]]:
    """The development and validation papers (titled, with an abstract of 20 words or more), and a third set
    to look for what the rules miss: 12,000 papers drawn (seeded) from the other slices of those venues
    since 2015. The development set has been tuned on for many sessions and reads high (89% inclusion where
    the held-out papers have 83%); the third, seen since session 27 only, reads nearer the held-out."""
    import random

    rows = all_venues_rows() if rows is None else rows
    used = DEV_SLICES | VAL_SLICES | HELD_OUT_SLICES
    recent = [r for r in rows if (r.get("venue"), r.get("year")) not in used and r.get("venue") in RECENT_VENUES
              and (r.get("year") or 0) >= 2015]  # fmt: skip
    random.Random(1).shuffle(recent)
    return {
        "development": _papers([r for r in rows if (r.get("venue"), r.get("year")) in DEV_SLICES]),
        "validation": _papers([r for r in rows if (r.get("venue"), r.get("year")) in VAL_SLICES]),
        "recent (other slices, 2015 on)": _papers(recent[:RECENT_PAPERS]),
    }


def sample(papers: list[Paper], n: int) -> list[Paper]:
    """Every k-th paper: deterministic and spread over the file."""
    if len(papers) <= n:
        return papers
    step = len(papers) / n
    return [papers[int(i * step)] for i in range(n)]


# ---- measuring ----------------------------------------------------------------------------------------

Derive = Callable[[str, str | None], str]
SHARED_NAME_TITLES = 3  # a name this many other titles carry is a field's or a tool's (LLMs, GANs, SGD, BERT)


def _name_key(w: str) -> str:
    return w[:-1] if w.endswith("s") and len(w) > 2 else w


class NameCounts:
    """How many titles of the all-venues file carry each acronym or CamelCase name: the test of whether a real
    title's name is its paper's own (MubyNet, PyramidKV) or one many papers share (LLMs, GANs, SGD, MDPs,
    ReLU), that is a topic or a tool, which the issue says the derived title must not name as its method."""

    def __init__(self, rows: list[dict]):
        self.counts: dict[str, int] = {}
        self.titles: set[str] = set()
        for r in rows:
            title = r.get("title") or ""
            self.titles.add(title.casefold())
            for w in {_name_key(w.strip("-")) for w in _NAME_IN_TITLE.findall(title) if is_name(w.strip("-"))}:
                self.counts[w] = self.counts.get(w, 0) + 1

    def shared(self, name: str, title: str) -> bool:
        others = self.counts.get(_name_key(name), 0) - (title.casefold() in self.titles)
        return others >= SHARED_NAME_TITLES


def quality(papers: Sequence[Paper], derived: Sequence[str], names_seen: NameCounts | None = None) -> dict:
    named = incl_any = incl_all = 0
    own = own_in = shared = shared_in = 0
    f1s, bad = [], []
    for p, d in zip(papers, derived, strict=True):
        names = method_names(p.title, p.plain)
        if names:
            named += 1
            hit = [includes(d, n) for n in names]
            incl_any += any(hit)
            incl_all += all(hit)
            if names_seen is not None:
                mine = [h for n, h in zip(names, hit, strict=True) if not names_seen.shared(n, p.title)]
                if mine:  # the title names something of its own: is that in the derived title?
                    own, own_in = own + 1, own_in + any(mine)
                else:
                    shared, shared_in = shared + 1, shared_in + any(hit)
        f1s.append(f1(p.title, d))
        why = bad_ending(d)
        if why:
            bad.append(why)
    kinds: dict[str, int] = {}
    for why in bad:
        key = "ends on a function word" if why.startswith("ends on “") else why.split(" “")[0]
        kinds[key] = kinds.get(key, 0) + 1
    return {
        "papers": len(papers),
        "naming_a_method": named,
        "method_inclusion": incl_any / named if named else None,
        "method_inclusion_all": incl_all / named if named else None,
        "naming_own": own,
        "own_inclusion": own_in / own if own else None,
        "naming_shared_only": shared,
        "shared_inclusion": shared_in / shared if shared else None,
        "content_f1": statistics.fmean(f1s) if f1s else 0.0,
        "ends_badly": len(bad) / len(papers) if papers else 0.0,
        "ends_badly_count": len(bad),
        "ends_badly_kinds": kinds,
        "mean_chars": statistics.fmean(len(d) for d in derived) if derived else 0.0,
    }


def write_titleless(papers: Sequence[Paper], path: Path) -> Path:
    """The papers as JSON Lines without their titles (the importer derives them), each paper's place in
    `papers` in its url (https://example.invalid/<i>), to find it again after the import."""
    with path.open("w", encoding="utf-8") as f:
        for i, p in enumerate(papers):
            row = {"abstract": p.abstract, "authors": p.authors, "venue": p.venue, "year": p.year,
                   "url": f"https://example.invalid/{i}"}  # fmt: skip
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    return path


def search_first(papers: Sequence[Paper], derive: Derive, work: Path) -> dict:
    """Import the records without titles (the importer deriving them with `derive`), then search each real
    title: is its paper the first hit? Both as pasted (every word required) and with its words OR'd."""
    from readinglist import importing
    from readinglist.library import Library
    from readinglist.papers import QueryError

    src = write_titleless(papers, work / "titleless.jsonl")
    saved = importing.derive_title
    importing.derive_title = derive  # type: ignore[assignment]
    lib = Library.open(work / "lib", seed=False)
    try:
        lib.import_files([src])
        by_url = {}
        all_ids = lib.search("").ids
        for paper in lib.papers(all_ids):
            by_url[paper.url] = paper.id
        first = errors = empty = any_first = 0
        ranks = []
        for i, p in enumerate(papers):
            want = by_url.get(f"https://example.invalid/{i}")
            # beside the title as pasted, its words each optional: how a best-match search would rank
            loose = " OR ".join(w.lower() for w in re.findall(r"\w+", p.title))
            if loose and (ids := lib.search(loose, typing=True).ids) and ids[0] == want:
                any_first += 1
            try:
                ids = lib.search(p.title, typing=True).ids
            except QueryError:
                errors += 1
                continue
            if not ids:
                empty += 1
                continue
            if ids[0] == want:
                first += 1
            ranks.append(ids.index(want) + 1 if want in ids else None)
        return {
            "papers": len(papers),
            "first": first / len(papers),
            "in_top_5": sum(1 for r in ranks if r is not None and r <= 5) / len(papers),
            "no_hit": empty / len(papers),  # every word of the query must match (AND), in the paper or not
            "query_error": errors / len(papers),
            "first_any_word": any_first / len(papers),
        }
    finally:
        lib.close()
        importing.derive_title = saved  # type: ignore[assignment]


def derive_cost(abstracts: Sequence[str], reps: int, derives: Sequence[tuple[str, Derive]]) -> dict:
    """Milliseconds per abstract, each deriver in turn over the same abstracts, `reps` rounds (medians): a
    ratio on a shared machine. Each is called as the importer calls it now, with the plain text it has; the
    old one takes no plain text and converts the abstract again, as it did in the importer."""
    plains = [markup.to_plain(a) for a in abstracts]
    runs: dict[str, list[float]] = {label: [] for label, _ in derives}
    for _, fn in derives:  # warm: caches and the title-word table, outside the timing
        for a, p in zip(abstracts[:200], plains[:200], strict=False):
            fn(a, p)
    for _ in range(reps):
        for label, fn in derives:
            t = time.process_time()
            for a, p in zip(abstracts, plains, strict=True):
                fn(a, p)
            runs[label].append((time.process_time() - t) / len(abstracts) * 1000)
    ms = {label: statistics.median(v) for label, v in runs.items()}
    base = ms[derives[0][0]]
    return {"abstracts": len(abstracts), "reps": reps, "ms": ms, "ratio": {k: v / base for k, v in ms.items()},
            "runs": runs}  # fmt: skip


def _before(raw: str, plain: str | None = None) -> str:
    """The old derive_title as the importer called it (it took no plain text: it converts again)."""
    return titles_before.derive_title(raw)


def load_revision(rev: str) -> Derive:
    """derive_title of readinglist/importers/titles.py at a git revision of this repository (a single-module
    version, such as the first pass of issue 19), to measure beside today's."""
    import importlib.util
    import subprocess

    src = subprocess.run(["git", "show", f"{rev}:readinglist/importers/titles.py"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout  # fmt: skip
    path = Path(tempfile.mkdtemp(prefix="rl-titles-rev-")) / f"titles_{rev}.py"
    path.write_text(src, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"titles_{rev}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module.derive_title  # type: ignore[no-any-return]


def import_share(abstracts: Sequence[str], derive: Derive, work: Path) -> dict:
    """A title-less import of these abstracts, and the part of it (CPU time) that deriving titles takes."""
    from readinglist import importing
    from readinglist.library import Library

    src = work / "import.jsonl"
    with src.open("w", encoding="utf-8") as f:
        for i, a in enumerate(abstracts):
            f.write(json.dumps({"abstract": a, "venue": "NeurIPS", "url": f"https://example.invalid/{i}"}) + "\n")
    spent = [0.0]
    real = importing.derive_title

    def timed(raw: str, plain: str | None = None) -> str:
        t = time.process_time()
        try:
            return derive(raw, plain)
        finally:
            spent[0] += time.process_time() - t

    importing.derive_title = timed  # type: ignore[assignment]
    shutil.rmtree(work / "import-lib", ignore_errors=True)
    lib = Library.open(work / "import-lib", seed=False)
    try:
        t, c = time.perf_counter(), time.process_time()
        lib.import_files([src])
        lib.flush_index()
        total, cpu = time.perf_counter() - t, time.process_time() - c
    finally:
        lib.close()
        importing.derive_title = real  # type: ignore[assignment]
    return {"abstracts": len(abstracts), "import_s": total, "import_cpu_s": cpu, "derive_s": spent[0],
            "share": spent[0] / cpu}  # fmt: skip


def import_shares(abstracts: Sequence[str], derives: Sequence[tuple[str, Derive]], work: Path, reps: int) -> dict:
    """import_share for each deriver, in turn, `reps` rounds: the medians of each figure."""
    runs: dict[str, list[dict]] = {label: [] for label, _ in derives}
    for _ in range(reps):
        for label, fn in derives:
            runs[label].append(import_share(abstracts, fn, work))
    return {label: {k: statistics.median(r[k] for r in rs) for k in rs[0]} | {"reps": reps}
            for label, rs in runs.items()}  # fmt: skip


# ---- the run ------------------------------------------------------------------------------------------


def derivers(against: str | None) -> list[tuple[str, Derive]]:
    out: list[tuple[str, Derive]] = [("before", _before)]
    if against:
        out.append(("first pass", load_revision(against)))
    out.append(("after", titles_now.derive_title))
    return out


def run(quick: bool, log: Callable[[str], None], against: str | None = None) -> dict:
    data = corpora()
    rows = all_venues_rows()
    names_seen = NameCounts(rows)
    derives = derivers(against)
    labels = [label for label, _ in derives]
    per: dict[str, dict] = {}
    examples: list[dict] = []
    work = Path(tempfile.mkdtemp(prefix="rl-titles-"))
    try:
        for name, papers in data.items():
            if quick:
                papers = sample(papers, QUICK_PAPERS)
            log(f"{name}: {len(papers)} papers")
            derived = {label: [fn(p.abstract, p.plain) for p in papers] for label, fn in derives}
            baseline = [first_sentence(p.plain) for p in papers]
            entry: dict = {label: quality(papers, derived[label], names_seen) for label in labels}
            entry["first_sentence_f1"] = quality(papers, baseline)["content_f1"]
            for label, fn in derives:
                d = work / f"{len(per)}-{label.replace(' ', '-')}"
                d.mkdir()
                entry[label]["search"] = search_first(papers, fn, d)
            per[name] = entry
            log("  " + ", ".join(f"{label}: F1 {entry[label]['content_f1']:.3f}, inclusion "
                                 f"{_pct(entry[label]['method_inclusion'])}" for label in labels))  # fmt: skip
            for p in sample(papers, 7 if len(examples) < 14 else 6):
                i = papers.index(p)
                examples.append({"corpus": name, "real": p.title, **{label: derived[label][i] for label in labels}})
        neurips_all = [r.get("abstract") or "" for r in _read_jsonl(SHARED / "neurips_1987_2018.jsonl.gz")]
        neurips_all = [a for a in neurips_all if a.strip()]
        if quick:
            neurips_all = neurips_all[:2000]
        log(f"derive cost over {len(neurips_all):,} NeurIPS abstracts…")
        cost = derive_cost(neurips_all, 1 if quick else 5, derives)
        share = import_shares(neurips_all, [(lb, fn) for lb, fn in derives if lb in ("before", "after")], work,
                              1 if quick else 3)  # fmt: skip
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {
        "date": date.today().isoformat(),
        "quick": quick,
        "against": against,
        "labels": labels,
        "machine": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
            "load_average": os.getloadavg(),
        },
        "goals": GOALS,
        "corpora": per,
        "overall": overall(per, labels),
        "derive_cost": cost,
        "import_share": share,
        "examples": examples[:20],
    }


def overall(per: dict[str, dict], labels: Sequence[str]) -> dict:
    """Pooled over the corpora (each paper counts once)."""

    def pooled(e: dict, key: str, weight: str) -> float:
        return (e[key] or 0) * e[weight]

    out: dict[str, dict] = {}
    for label in labels:
        es = [e[label] for e in per.values()]
        n = sum(e["papers"] for e in es)
        named = sum(e["naming_a_method"] for e in es)
        own = sum(e["naming_own"] for e in es)
        shared = sum(e["naming_shared_only"] for e in es)
        out[label] = {
            "papers": n,
            "naming_a_method": named,
            "method_inclusion": sum(pooled(e, "method_inclusion", "naming_a_method") for e in es) / named,
            "naming_own": own,
            "own_inclusion": sum(pooled(e, "own_inclusion", "naming_own") for e in es) / own if own else None,
            "naming_shared_only": shared,
            "shared_inclusion": (
                sum(pooled(e, "shared_inclusion", "naming_shared_only") for e in es) / shared if shared else None
            ),
            "content_f1": sum(e["content_f1"] * e["papers"] for e in es) / n,
            "ends_badly": sum(e["ends_badly_count"] for e in es) / n,
            "search_first": sum(e["search"]["first"] * e["papers"] for e in es) / n,
            "search_first_any_word": sum(e["search"]["first_any_word"] * e["papers"] for e in es) / n,
        }
    n = sum(e[labels[0]]["papers"] for e in per.values())
    out["first_sentence_f1"] = {"content_f1": sum(e["first_sentence_f1"] * e[labels[0]]["papers"]
                                                  for e in per.values()) / n}  # fmt: skip
    return out


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x:.0%}"


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def report_lines(res: dict) -> list[str]:
    cost, share, labels = res["derive_cost"], res["import_share"], res["labels"]
    load = ", ".join(f"{x:.1f}" for x in res["machine"].get("load_average", ()))
    cols = " | ".join(labels)
    lines = [
        "## Derived titles (issue 19)",
        "",
        f"Measured {res['date']} by `python -m benchmarks.titles{' --quick' if res['quick'] else ''}"
        f"{' --against ' + res['against'] if res.get('against') else ''}` on {res['machine']['cpus']} cores shared "
        f"with other work (load average {load}); raw numbers in `benchmarks/results/titles-{res['date']}.json`. "
        "Real titled corpora with the titles removed; *before* is titles.py before issue 19 "
        "(benchmarks/titles_before.py)"
        + (f", *first pass* the issue's first version ({res['against']})" if res.get("against") else "")
        + ", *after* today's, side by side in one run. Definitions: the docstring of benchmarks/titles.py.",
        "",
        "| corpus | papers | names a method (its own) | method-name inclusion (all names; own names; shared only) "
        "| content-word F1 (first sentence) | ends badly | real title finds its paper first (words OR'd) |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, e in res["corpora"].items():
        for label in labels:
            q = e[label]
            lines.append(
                f"| {name}, {label} | {q['papers']} | {q['naming_a_method']} ({q['naming_own']}) | "
                f"{_pct(q['method_inclusion'])} ({_pct(q['method_inclusion_all'])}; {_pct(q['own_inclusion'])}; "
                f"{_pct(q['shared_inclusion'])}) | {q['content_f1']:.2f} ({e['first_sentence_f1']:.2f}) | "
                f"{q['ends_badly_count']} ({q['ends_badly']:.0%}) | {q['search']['first']:.0%} "
                f"({q['search']['first_any_word']:.0%}) |"
            )
    o = res["overall"]

    def row(title: str, goal: str, key: str, fmt: Callable[[float | None], str]) -> str:
        return f"| {title} | {goal} | " + " | ".join(fmt(o[label][key]) for label in labels) + " |"

    lines += [
        "",
        f"| all corpora | goal | {cols} |",
        "|---|---|" + "---|" * len(labels),
        row("method-name inclusion (the goal's measure)", "≥ 85%", "method_inclusion", _pct),
        row("… where the title names something of its own", "", "own_inclusion", _pct),
        row("… where it names only shared names (LLMs, GANs, SGD)", "", "shared_inclusion", _pct),
        row(
            f"content-word F1 (first sentence: {o['first_sentence_f1']['content_f1']:.2f})",
            "≥ 0.40",
            "content_f1",
            lambda x: f"{x:.3f}",
        ),
        row("ends on a function word or cut", "0", "ends_badly", lambda x: f"{x:.1%}"),
        row("real title, as pasted (every word), finds its paper first", "≥ 90%", "search_first", lambda x: f"{x:.1%}"),
        row("… its words OR'd (a best-match search)", "", "search_first_any_word", lambda x: f"{x:.1%}"),
        f"| derive_title per abstract, ms CPU ({cost['abstracts']:,} NeurIPS abstracts, each in turn, medians of "
        f"{cost['reps']}) | | "
        + " | ".join(f"{cost['ms'][label]:.3f} (×{cost['ratio'][label]:.2f})" for label in labels)
        + " |",
        "| a title-less import of those abstracts: wall time (of it, deriving's CPU time), medians of "
        f"{share['after'].get('reps', 1)} | | "
        + " | ".join(
            f"{share[label]['import_s']:.1f} s ({share[label]['derive_s']:.1f} s)" if label in share else "–"
            for label in labels
        )
        + " |",
        "",
        "*Own* names are those fewer than "
        f"{SHARED_NAME_TITLES} other titles of the all-venues file carry; a title whose names are all shared ones "
        "names a field or a tool (LLMs, MDPs, GANs), which the abstract seldom introduces and the issue says the "
        "title must not name as its method. A search must match every word of the pasted title (the parser's AND), "
        "so a title word the abstract never uses finds nothing; that is the search's limit, not the derived title's.",
        "",
        f"| corpus | real title | {cols} |",
        "|---|---|" + "---|" * len(labels),
    ]
    lines += [f"| {ex['corpus']} | {_md(ex['real'])} | " + " | ".join(_md(ex[label]) for label in labels) + " |"
              for ex in res["examples"]]  # fmt: skip
    return lines


def tuning_report(log: Callable[[str], None]) -> int:
    """Quality on the tuning sets (no search, no timing): the figures to tune on."""
    rows = all_venues_rows()
    names_seen = NameCounts(rows)
    for name, papers in tuning_sets(rows).items():
        q = quality(papers, [titles_now.derive_title(p.abstract, p.plain) for p in papers], names_seen)
        log(f"{name}: {q['papers']} papers, method-name inclusion {_pct(q['method_inclusion'])} of "
            f"{q['naming_a_method']} (own names {_pct(q['own_inclusion'])} of {q['naming_own']}), "
            f"F1 {q['content_f1']:.4f}, ends badly {q['ends_badly_count']}")  # fmt: skip
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_PAPERS} papers a corpus, no report written")
    parser.add_argument("--against", metavar="REV", help="also measure titles.py at this git revision")
    parser.add_argument("--tuning", action="store_true", help="quality on the development and validation sets")
    args = parser.parse_args(argv)
    if not SHARED.exists():
        print(f"no corpora at {SHARED}", file=sys.stderr)
        return 1

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    if args.tuning:
        return tuning_report(log)
    res = run(args.quick, log, args.against)
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / f"titles-{res['date']}{'-quick' if args.quick else ''}.json"
    out.write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n")
    lines = report_lines(res)
    if not args.quick:
        from benchmarks.report import write_section

        write_section("titles", lines)
    print("\n".join(lines))
    print(f"\nwritten {out.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
