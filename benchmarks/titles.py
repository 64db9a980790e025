"""Derived titles against the real ones: `python -m benchmarks.titles [--quick]`.

Real titled corpora with their titles removed (NeurIPS 2018, ICLR 2021, the PMLR JSON Lines, read from
../shared/corpora and never copied here): a title is derived from each abstract, by the titles.py before
issue 19 (benchmarks/titles_before.py, frozen) and by today's readinglist.importers.titles, side by side in
one run, and compared with the paper's real title:

- method-name inclusion: a real title *names a method* when one of its words is an acronym or CamelCase name
  (two or more capitals, or a capital after a lower-case letter: "CCA", "MubyNet", "GANs", "RWKV-7"; not a
  Roman numeral, not in an all-capitals title) that also appears, as a word, in the abstract. The derived
  title includes it when it holds that word too (a trailing plural "s" ignored). Reported: the share of such
  papers whose derived title includes at least one of the title's names (goal ≥ 85%), and all of them.
- content-word F1: the real and derived titles as sets of Porter-stemmed lower-case words (split at anything
  not a letter or digit), stop words dropped; F1 averaged over papers (goal ≥ 0.40). Beside it the
  first-sentence baseline: the abstract's whole first sentence as the "title".
- ends badly: ends on a function word (article, preposition, conjunction, pronoun, auxiliary, relative word)
  or a dangling modifier ("novel", "such"), or is cut (an ellipsis, trailing punctuation or hyphen, an
  unclosed bracket), or is longer than 90 characters (goal 0).
- search: the title-less records are imported into a temporary library (the importer derives the titles),
  and the real title, as plain text, is searched; found when that paper ranks first (goal ≥ 90%).
- derive cost: derive_title over every NeurIPS abstract (8k), old and new interleaved, and the share of a
  title-less import of those abstracts that deriving takes.

--quick takes 150 papers of each corpus and a 2k-abstract timing (about a minute); the full run writes
benchmarks/results/titles-<date>.json and the "titles" section of docs/performance.md.
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
    abstract: str  # raw, as the source has it
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
        abstract = (r.get("abstract") or "").strip()
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


def tuning_sets(rows: list[dict] | None = None) -> dict[str, list[Paper]]:
    """The development and validation papers (titled, with an abstract of 20 words or more)."""
    rows = all_venues_rows() if rows is None else rows
    return {
        "development": _papers([r for r in rows if (r.get("venue"), r.get("year")) in DEV_SLICES]),
        "validation": _papers([r for r in rows if (r.get("venue"), r.get("year")) in VAL_SLICES]),
    }


def sample(papers: list[Paper], n: int) -> list[Paper]:
    """Every k-th paper: deterministic and spread over the file."""
    if len(papers) <= n:
        return papers
    step = len(papers) / n
    return [papers[int(i * step)] for i in range(n)]


# ---- measuring ----------------------------------------------------------------------------------------

Derive = Callable[[str, str | None], str]


def quality(papers: Sequence[Paper], derived: Sequence[str]) -> dict:
    named = incl_any = incl_all = 0
    f1s, bad = [], []
    for p, d in zip(papers, derived, strict=True):
        names = method_names(p.title, p.plain)
        if names:
            named += 1
            hit = [includes(d, n) for n in names]
            incl_any += any(hit)
            incl_all += all(hit)
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
        "content_f1": statistics.fmean(f1s) if f1s else 0.0,
        "ends_badly": len(bad) / len(papers) if papers else 0.0,
        "ends_badly_count": len(bad),
        "ends_badly_kinds": kinds,
        "mean_chars": statistics.fmean(len(d) for d in derived) if derived else 0.0,
    }


def search_first(papers: Sequence[Paper], derive: Derive, work: Path) -> dict:
    """Import the records without titles (the importer deriving them with `derive`), then search each real
    title: is its paper the first hit?"""
    from readinglist import importing
    from readinglist.library import Library
    from readinglist.papers import QueryError

    src = work / "titleless.jsonl"
    with src.open("w", encoding="utf-8") as f:
        for i, p in enumerate(papers):
            row = {"abstract": p.abstract, "authors": p.authors, "venue": p.venue, "year": p.year,
                   "url": f"https://example.invalid/{i}"}  # fmt: skip
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
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
            if loose and (ids := lib.search(loose).ids) and ids[0] == want:
                any_first += 1
            try:
                ids = lib.search(p.title).ids
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


def derive_cost(abstracts: Sequence[str], reps: int) -> dict:
    """Seconds per abstract, old and new interleaved (several passes, medians): a ratio on a shared machine.
    Both from the raw abstract; and the new one given the plain text, as the importer now calls it (it has
    the plain text already; the old one converted the abstract a second time)."""
    plains = [markup.to_plain(a) for a in abstracts]
    runs: dict[str, list[float]] = {"before": [], "after": [], "after_plain": []}
    for _ in range(reps):
        for label in runs:
            t = time.perf_counter()
            if label == "before":
                for a in abstracts:
                    titles_before.derive_title(a)
            elif label == "after":
                for a in abstracts:
                    titles_now.derive_title(a)
            else:
                for a, p in zip(abstracts, plains, strict=True):
                    titles_now.derive_title(a, plain=p)
            runs[label].append((time.perf_counter() - t) / len(abstracts))
    m = {k: statistics.median(v) * 1000 for k, v in runs.items()}
    return {"abstracts": len(abstracts), "before_ms": m["before"], "after_ms": m["after"],
            "after_plain_ms": m["after_plain"], "ratio": m["after"] / m["before"],
            "import_path_ratio": m["after_plain"] / m["before"]}  # fmt: skip


def _before(raw: str, plain: str | None = None) -> str:
    """The old derive_title as the importer calls it now (it took no plain text: it converts again)."""
    return titles_before.derive_title(raw)


def import_share(abstracts: Sequence[str], derive: Derive, work: Path) -> dict:
    """A title-less import of these abstracts, and the part of it that deriving titles takes."""
    from readinglist import importing
    from readinglist.library import Library

    src = work / "import.jsonl"
    with src.open("w", encoding="utf-8") as f:
        for i, a in enumerate(abstracts):
            f.write(json.dumps({"abstract": a, "venue": "NeurIPS", "url": f"https://example.invalid/{i}"}) + "\n")
    spent = [0.0]
    real = importing.derive_title

    def timed(raw: str, plain: str | None = None) -> str:
        t = time.perf_counter()
        try:
            return derive(raw, plain)
        finally:
            spent[0] += time.perf_counter() - t

    importing.derive_title = timed  # type: ignore[assignment]
    shutil.rmtree(work / "import-lib", ignore_errors=True)
    lib = Library.open(work / "import-lib", seed=False)
    try:
        t = time.perf_counter()
        lib.import_files([src])
        lib.flush_index()
        total = time.perf_counter() - t
    finally:
        lib.close()
        importing.derive_title = real  # type: ignore[assignment]
    return {"abstracts": len(abstracts), "import_s": total, "derive_s": spent[0], "share": spent[0] / total}


# ---- the run ------------------------------------------------------------------------------------------


def run(quick: bool, log: Callable[[str], None]) -> dict:
    data = corpora()
    per: dict[str, dict] = {}
    examples: list[tuple[str, str, str, str]] = []
    work = Path(tempfile.mkdtemp(prefix="rl-titles-"))
    try:
        for name, papers in data.items():
            if quick:
                papers = sample(papers, QUICK_PAPERS)
            log(f"{name}: {len(papers)} papers")
            before = [titles_before.derive_title(p.abstract) for p in papers]
            after = [titles_now.derive_title(p.abstract) for p in papers]
            baseline = [first_sentence(p.plain) for p in papers]
            entry = {
                "before": quality(papers, before),
                "after": quality(papers, after),
                "first_sentence_f1": quality(papers, baseline)["content_f1"],
            }
            for label, fn in (("before", _before), ("after", titles_now.derive_title)):
                d = work / f"{len(per)}-{label}"
                d.mkdir()
                entry[label]["search"] = search_first(papers, fn, d)
            per[name] = entry
            b, a = entry["before"], entry["after"]
            log(f"  F1 {b['content_f1']:.3f} → {a['content_f1']:.3f}, "
                f"search {b['search']['first']:.1%} → {a['search']['first']:.1%}")  # fmt: skip
            for p in sample(papers, 7 if len(examples) < 14 else 6):
                examples.append((name, p.title, before[papers.index(p)], after[papers.index(p)]))
        neurips_all = [r.get("abstract") or "" for r in _read_jsonl(SHARED / "neurips_1987_2018.jsonl.gz")]
        neurips_all = [a for a in neurips_all if a.strip()]
        if quick:
            neurips_all = neurips_all[:2000]
        log(f"derive cost over {len(neurips_all):,} NeurIPS abstracts…")
        cost = derive_cost(neurips_all, reps=1 if quick else 3)
        derives = (("before", _before), ("after", titles_now.derive_title))
        share = {label: import_share(neurips_all, fn, work) for label, fn in derives}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {
        "date": date.today().isoformat(),
        "quick": quick,
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
        "goals": GOALS,
        "corpora": per,
        "overall": overall(per),
        "derive_cost": cost,
        "import_share": share,
        "examples": [{"corpus": c, "real": r, "before": b, "after": a} for c, r, b, a in examples[:20]],
    }


def overall(per: dict[str, dict]) -> dict:
    """Pooled over the corpora (each paper counts once)."""
    out: dict[str, dict] = {}
    for label in ("before", "after"):
        n = sum(e[label]["papers"] for e in per.values())
        named = sum(e[label]["naming_a_method"] for e in per.values())
        included = sum((e[label]["method_inclusion"] or 0) * e[label]["naming_a_method"] for e in per.values())
        out[label] = {
            "papers": n,
            "naming_a_method": named,
            "method_inclusion": included / named if named else None,
            "content_f1": sum(e[label]["content_f1"] * e[label]["papers"] for e in per.values()) / n,
            "ends_badly": sum(e[label]["ends_badly_count"] for e in per.values()) / n,
            "search_first": sum(e[label]["search"]["first"] * e[label]["papers"] for e in per.values()) / n,
            "search_first_any_word": sum(
                e[label]["search"]["first_any_word"] * e[label]["papers"] for e in per.values()
            )
            / n,
        }
    n = sum(e["before"]["papers"] for e in per.values())
    out["first_sentence_f1"] = {"content_f1": sum(e["first_sentence_f1"] * e["before"]["papers"]
                                                  for e in per.values()) / n}  # fmt: skip
    return out


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x:.0%}"


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def report_lines(res: dict) -> list[str]:
    cost, share = res["derive_cost"], res["import_share"]
    lines = [
        "## Derived titles (issue 19)",
        "",
        f"Measured {res['date']} by `python -m benchmarks.titles{' --quick' if res['quick'] else ''}` on "
        f"{res['machine']['cpus']} shared cores; raw numbers in `benchmarks/results/titles-{res['date']}.json`. "
        "Real titled corpora with the titles removed; *before* is titles.py before issue 19 "
        "(benchmarks/titles_before.py), *after* today's, side by side in one run. Definitions: the docstring "
        "of benchmarks/titles.py.",
        "",
        "| corpus | papers | names a method | method-name inclusion (all names) | content-word F1 "
        "(first sentence) | ends badly | real title finds its paper first |",
        "|---|---|---|---|---|---|---|",
    ]
    rows = [(name, e) for name, e in res["corpora"].items()]
    for name, e in rows:
        for label in ("before", "after"):
            q = e[label]
            lines.append(
                f"| {name}, {label} | {q['papers']} | {q['naming_a_method']} | {_pct(q['method_inclusion'])} "
                f"({_pct(q['method_inclusion_all'])}) | {q['content_f1']:.2f} ({e['first_sentence_f1']:.2f}) | "
                f"{q['ends_badly_count']} ({q['ends_badly']:.0%}) | {q['search']['first']:.0%} "
                f"(no hit {q['search']['no_hit']:.0%}; words OR'd: {q['search']['first_any_word']:.0%}) |"
            )
    o = res["overall"]
    lines += [
        "",
        "| all corpora | goal | before | after |",
        "|---|---|---|---|",
        f"| method-name inclusion | ≥ 85% | {_pct(o['before']['method_inclusion'])} | "
        f"{_pct(o['after']['method_inclusion'])} |",
        f"| content-word F1 (first sentence: {o['first_sentence_f1']['content_f1']:.2f}) | ≥ 0.40 | "
        f"{o['before']['content_f1']:.2f} | {o['after']['content_f1']:.2f} |",
        f"| ends on a function word or cut | 0 | {o['before']['ends_badly']:.1%} | {o['after']['ends_badly']:.1%} |",
        f"| real title finds its paper first | ≥ 90% | {o['before']['search_first']:.1%} | "
        f"{o['after']['search_first']:.1%} |",
        f"| … its words OR'd (a best-match search) | | {o['before']['search_first_any_word']:.1%} | "
        f"{o['after']['search_first_any_word']:.1%} |",
        f"| derive_title per abstract ({cost['abstracts']:,} NeurIPS abstracts, interleaved) | | "
        f"{cost['before_ms']:.2f} ms | {cost['after_ms']:.2f} ms (ratio {cost['ratio']:.2f}) |",
        f"| … as the importer calls it (the plain text given, not converted again) | | {cost['before_ms']:.2f} ms | "
        f"{cost['after_plain_ms']:.2f} ms (ratio {cost['import_path_ratio']:.2f}) |",
        f"| share of a title-less import of those abstracts spent deriving | | {share['before']['share']:.0%} "
        f"({share['before']['derive_s']:.1f} of {share['before']['import_s']:.1f} s) | {share['after']['share']:.0%} "
        f"({share['after']['derive_s']:.1f} of {share['after']['import_s']:.1f} s) |",
        "",
        "A search must match every word of the pasted title (the parser's AND), so a title word the abstract "
        "never uses finds nothing (*no hit*); that is the search's limit, not the derived title's.",
        "",
        "| corpus | real title | before | after |",
        "|---|---|---|---|",
    ]
    lines += [f"| {ex['corpus']} | {_md(ex['real'])} | {_md(ex['before'])} | {_md(ex['after'])} |"
              for ex in res["examples"]]  # fmt: skip
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_PAPERS} papers a corpus, no report written")
    args = parser.parse_args(argv)
    if not SHARED.exists():
        print(f"no corpora at {SHARED}", file=sys.stderr)
        return 1

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    res = run(args.quick, log)
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
