"""Triage quality and speed of the interest ranking: `python -m benchmarks.triage [--quick] [--seeds N]`.

Quality, on real labels: the ICLR 2021 submissions (2,966 papers) are imported without their keywords,
which then serve as the hidden truth. For each keyword carried by 30–120 papers a simulated researcher who
cares about it marks a few papers that carry it positive and a few that do not negative (5+5, 10+10, 20+20,
seeded), and the ranking's precision@30 among the still-untriaged papers is compared with a BM25 search for
the keyword's own words (`lib.search(keyword)` minus the marked papers — a search the user could only run if
they knew the keyword; the ranking told the same, the keyword typed as the reader's interests beside the
marks, is `suggest_typed`), with the base rate, and with the other methods tried (plain Rocchio, a logistic
model over the same tf-idf rows as arxiv-sanity trains, a low-rank projection of the library). Keywords
that the analyser reads as the same words ("graph neural network", "graph neural networks") are one.

Speed: the NeurIPS 8,263 library (a real import) and the all-venues 94,374 (features built from the corpus
file, the store's part being one indexed read): features built and loaded, re-rank after a mark, the
explanations of a page of suggestions, memory, and the longest stall of a 5 ms Qt timer while re-ranks run
on a worker thread. The machine is shared: times are for this run only.

Writes the section "triage" of docs/performance.md and benchmarks/results/triage-<date>.json.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
import lzma
import os
import random
import resource
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from datetime import date
from pathlib import Path

import numpy as np

from benchmarks.report import write_section
from readinglist import interest
from readinglist.library import Library

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("READINGLIST_SHARED", ROOT.parent / "shared")) / "corpora"
ICLR_TSV = SHARED / "originals" / "iclr2021-openreviewdata" / "paperlist.tsv.gz"
NEURIPS = SHARED / "neurips_1987_2018.jsonl.gz"
ALL_VENUES = SHARED / "paperlists_all_venues.jsonl.xz"
BUDGETS = (5, 10, 20)
TOP = 30
Method = Callable[[list[int], list[int]], np.ndarray]  # (positive rows, negative rows) → a score per row


def log(*parts: object) -> None:
    print(*parts, file=sys.stderr, flush=True)


# ---- the ICLR 2021 library and its hidden keywords ---------------------------------------------------


def iclr_library(work: Path) -> tuple[Library, dict[str, set[int]]]:
    """The submissions imported from a copy of the TSV without its keywords column; each keyword (merged
    by its analysed words) → the ids of the papers that carry it."""
    csv.field_size_limit(2**31 - 1)
    with gzip.open(ICLR_TSV, "rt", encoding="utf-8") as f:
        rows = list(csv.DictReader(io.StringIO(f.read()), delimiter="\t"))
    plain = work / "iclr2021-without-keywords.tsv"
    with open(plain, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, delimiter="\t")
        w.writerow(["paper_id", "title", "link", "abstract"])
        for r in rows:
            w.writerow([r["paper_id"], r["title"], r["link"], r["abstract"]])
    lib = Library.open(work / "iclr", seed=False)
    lib.import_files([plain])
    by_url = {p.url: p.id for p in lib.papers(lib.store.all_ids())}
    papers: dict[str, set[int]] = defaultdict(set)
    names: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in rows:
        for k in {k.strip().lower() for k in r["keywords"].split(",") if k.strip()}:
            key = " ".join(s for _, s in interest.analyse(k)) or k
            papers[key].add(by_url[r["link"]])
            names[key][k] += 1
    truth = {max(names[key].items(), key=lambda kv: kv[1])[0]: ids for key, ids in papers.items()}
    return lib, truth


def marks(keyword: str, relevant: set[int], others: list[int], budget: int, seed: int) -> tuple[list[int], list[int]]:
    rng = random.Random(f"{keyword}/{budget}/{seed}")
    return rng.sample(sorted(relevant), budget), rng.sample(others, budget)


# ---- the methods compared ------------------------------------------------------------------------------


def plain_rocchio(f: interest.Features) -> Method:
    """Rocchio as in the textbook: positives' mean − ½ negatives' mean − ½ the library's centroid."""

    def mean(rows: list[int]) -> np.ndarray:
        entries = interest._gather(f.row_ptr, np.asarray(rows, np.int64))
        total = np.bincount(f.row_terms[entries], weights=f.row_data[entries], minlength=len(f.vocab))
        return (total / max(1, len(rows))).astype(np.float32)

    return lambda pos, neg: f.scores(mean(pos) - 0.5 * mean(neg) - 0.5 * f.centroid)


def logistic(f: interest.Features, background: float = 0.5, reg: float = 0.1, iterations: int = 100) -> Method:
    """L2-regularised logistic regression over the tf-idf rows, the marked papers as labels and every other
    paper a weak negative (total weight `background` × the positives), as arxiv-sanity's SVM takes all
    unmarked papers as negatives; Nesterov-accelerated gradient descent."""
    rows = np.repeat(np.arange(f.n), np.diff(f.row_ptr))

    def transposed(r: np.ndarray) -> np.ndarray:
        return np.bincount(f.row_terms, weights=f.row_data * r[rows], minlength=len(f.vocab)).astype(np.float32)

    def method(pos: list[int], neg: list[int]) -> np.ndarray:
        y = np.zeros(f.n, np.float32)
        y[pos] = 1.0
        weight = np.full(f.n, background * len(pos) / f.n, np.float32)
        weight[pos] = 1.0
        weight[neg] = 1.0
        step = 4.0 / (0.25 * float(weight.sum()) + reg)
        w = np.zeros(len(f.vocab), np.float32)
        z, bias, t = w.copy(), 0.0, 1.0
        for _ in range(iterations):
            p = 1.0 / (1.0 + np.exp(-(f.scores(z) + bias)))
            r = weight * (p - y)
            nxt = z - step * (transposed(r) + reg * z)
            bias -= step * float(r.sum())
            t_next = (1 + (1 + 4 * t * t) ** 0.5) / 2
            z, w, t = nxt + (t - 1) / t_next * (nxt - w), nxt, t_next
        return f.scores(w)

    return method


def low_rank(f: interest.Features, k: int = 100, seed: int = 0) -> Method:
    """Latent semantic analysis: a randomized SVD of the tf-idf rows (k dimensions), then Rocchio on the
    unit-length projections."""
    rng = np.random.default_rng(seed)
    rows = np.repeat(np.arange(f.n), np.diff(f.row_ptr))

    def times(dense: np.ndarray) -> np.ndarray:  # X @ dense
        out = np.zeros((f.n, dense.shape[1]), np.float32)
        for j in range(dense.shape[1]):
            out[:, j] = f.scores(dense[:, j])
        return out

    def transposed(dense: np.ndarray) -> np.ndarray:  # Xᵀ @ dense
        out = np.zeros((len(f.vocab), dense.shape[1]), np.float32)
        for j in range(dense.shape[1]):
            out[:, j] = np.bincount(f.row_terms, weights=f.row_data * dense[rows, j], minlength=len(f.vocab))
        return out

    y = times(rng.standard_normal((len(f.vocab), k + 10)).astype(np.float32))
    for _ in range(2):
        q, _ = np.linalg.qr(y)
        q, _ = np.linalg.qr(transposed(q))
        y = times(q)
    q, _ = np.linalg.qr(y)
    u, s, _ = np.linalg.svd(transposed(q).T, full_matrices=False)
    e = (q @ u)[:, :k] * s[:k]
    e /= np.maximum(np.linalg.norm(e, axis=1, keepdims=True), 1e-9)
    centre = e.mean(axis=0)
    return lambda pos, neg: e @ (e[pos].mean(0) - 0.5 * e[neg].mean(0) - 0.5 * centre)


# ---- quality ----------------------------------------------------------------------------------------


def precision(ranked: Iterable[int], relevant: set[int]) -> float:
    top = list(ranked)[:TOP]
    return sum(i in relevant for i in top) / TOP


def quality(work: Path, seeds: int, quick: bool) -> dict:
    lib, truth = iclr_library(work)
    try:
        all_ids = lib.store.all_ids()
        keywords = sorted((k for k, v in truth.items() if 30 <= len(v) <= 120), key=lambda k: (-len(truth[k]), k))
        if quick:
            keywords = keywords[:10]
        log(f"ICLR 2021: {len(all_ids)} papers, {len(keywords)} keywords with 30–120 papers")
        lib.prepare_interest()
        f = lib.interest.features
        assert f is not None
        alternatives: dict[str, Method] = {"rocchio": plain_rocchio(f), "logistic": logistic(f)}
        if not quick:
            log("  low-rank projection…")
            alternatives["low-rank"] = low_rank(f)
        per: dict[str, dict] = {}
        for k in keywords:
            relevant = truth[k]
            others = sorted(set(all_ids) - relevant)
            hits = lib.search(k, limit=TOP + 2 * max(BUDGETS)).ids
            row: dict = {
                "papers": len(relevant),
                "interests_only": precision(lib.interest_ranking([], [], k).ids, relevant),
            }
            for b in BUDGETS:
                got: dict[str, list[float]] = defaultdict(list)
                for seed in range(seeds):
                    pos, neg = marks(k, relevant, others, b, seed)
                    marked = set(pos) | set(neg)
                    left = relevant - marked
                    got["suggest"].append(precision(lib.interest_ranking(pos, neg).ids, left))
                    # the keyword typed as the reader's interests too: what BM25 is given, told to the ranking
                    got["suggest_typed"].append(precision(lib.interest_ranking(pos, neg, k).ids, left))
                    got["bm25"].append(precision((i for i in hits if i not in marked), left))
                    got["base"].append(len(left) / (len(all_ids) - len(marked)))
                    got["ceiling"].append(min(TOP, len(left)) / TOP)
                    pp, nn = f.positions(pos), f.positions(neg)
                    for name, method in alternatives.items():
                        scores = method(pp, nn).astype(np.float64)
                        scores[pp + nn] = -np.inf
                        order = np.argsort(-scores, kind="stable")
                        got[name].append(precision(f.ids[order].tolist(), left))
                row[str(b)] = {name: statistics.mean(v) for name, v in got.items()}
            per[k] = row
            log(
                f"  {k}: "
                + "  ".join(f"{b}+{b} {row[str(b)]['suggest']:.2f}/{row[str(b)]['bm25']:.2f}" for b in BUDGETS)
            )
        mean = {
            str(b): {name: statistics.mean(per[k][str(b)][name] for k in keywords) for name in per[keywords[0]][str(b)]}
            for b in BUDGETS
        }
        mean["interests_only"] = statistics.mean(per[k]["interests_only"] for k in keywords)
        return {"papers": len(all_ids), "keywords": per, "mean": mean, "seeds": seeds,
                "methods": ["suggest", *alternatives]}  # fmt: skip
    finally:
        lib.close()


# ---- speed ------------------------------------------------------------------------------------------


class CorpusStore:
    """The store's two reads for the ranker, over a corpus file's records (the all-venues run: importing
    94k papers takes minutes and would measure the import, not the ranking)."""

    def __init__(self, rows: list[interest.TextRow]):
        self.rows = rows
        self.rev = 1

    def current_rev(self) -> int:
        return self.rev

    def count(self) -> int:
        return len(self.rows)

    def texts_since(self, rev: int) -> Iterable[interest.TextRow]:
        return iter(self.rows) if rev < 1 else iter(())


def corpus_rows(path: Path) -> list[interest.TextRow]:
    from readinglist import markup

    opener = lzma.open if path.suffix == ".xz" else gzip.open
    rows = []
    with opener(path, "rt", encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            r = json.loads(line)
            rows.append((n, f"{n:040x}", r.get("title", ""), markup.to_plain(r.get("abstract", ""))))
    return rows


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def stall_while(work: Callable[[], None], rounds: int) -> tuple[float, list[float]]:
    """The longest gap of a 5 ms Qt timer while `work` runs `rounds` times on a worker thread (the window's
    switch interval), and each round's wall time."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QCoreApplication, QElapsedTimer, QTimer

    app = QCoreApplication.instance() or QCoreApplication([])
    sys.setswitchinterval(0.0001)
    clock = QElapsedTimer()
    clock.start()
    gaps: list[float] = []
    last = [clock.elapsed()]
    times: list[float] = []
    done = threading.Event()

    def beat() -> None:
        now = clock.elapsed()
        gaps.append(now - last[0])
        last[0] = now
        if done.is_set():
            app.quit()

    def run() -> None:
        for _ in range(rounds):
            t = time.perf_counter()
            work()
            times.append(time.perf_counter() - t)
        done.set()

    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(beat)
    timer.start()
    worker = threading.Thread(target=run)
    QTimer.singleShot(20, worker.start)
    app.exec()
    worker.join()
    timer.stop()
    return max(gaps[2:] or [0.0]), times


def speed_library(work: Path, corpus: Path, rounds: int) -> dict:
    """A real library: import, features built cold, loaded from the cache, and the re-rank after each of
    `rounds` marks (the mark written to the store, as the window does, so each re-rank reads it back)."""
    lib = Library.open(work / corpus.stem, seed=False)
    try:
        lib.import_files([corpus])
        ids = lib.store.all_ids()
        shutil.rmtree(lib.data_dir / "interest", ignore_errors=True)
        before = rss_mb()
        build_stall, (build,) = stall_while(lib.prepare_interest, 1)  # after an import, on a worker thread
        lib.interest.invalidate()
        t = time.perf_counter()
        lib.prepare_interest()
        load = time.perf_counter() - t
        f = lib.interest.features
        assert f is not None
        rng = random.Random(0)
        pos, neg = rng.sample(ids, 20), rng.sample(ids, 20)
        queue = iter(rng.sample(ids, rounds * 2))
        explain: list[float] = []

        def mark_and_rank() -> None:
            pid = next(queue)
            lib.set_state([pid], "read")
            pos.append(pid)
            ranking = lib.interest_ranking(pos, neg)
            t = time.perf_counter()
            ranking.top(TOP)
            explain.append(time.perf_counter() - t)

        stall, times = stall_while(mark_and_rank, rounds)
        return {"papers": len(ids), "build_s": build, "build_stall_ms": build_stall, "load_s": load,
                "rerank_median_s": statistics.median(times),
                "rerank_max_s": max(times), "explain_30_median_s": statistics.median(explain), "stall_ms": stall,
                "features_mb": f.nbytes() / 2**20, "rss_growth_mb": rss_mb() - before,
                "cache_mb": sum(p.stat().st_size for p in (lib.data_dir / "interest").iterdir()) / 2**20}  # fmt: skip
    finally:
        lib.close()


def speed_corpus(work: Path, corpus: Path, rounds: int) -> dict:
    """The ranker alone over a corpus file (no import): features built cold, cached, loaded, re-ranked."""
    rows = corpus_rows(corpus)
    store = CorpusStore(rows)
    before = rss_mb()
    ranker = interest.InterestRanker(work / "interest-94k")
    build_stall, (build,) = stall_while(lambda: ranker.refresh(store), 1)
    built_rss = rss_mb() - before
    del ranker
    loaded_before = rss_mb()
    ranker = interest.InterestRanker(work / "interest-94k")
    t = time.perf_counter()
    f = ranker.refresh(store)
    load = time.perf_counter() - t
    load_rss = rss_mb() - loaded_before
    texts = {r[0]: f"{r[2]}. {r[3]}" for r in rows}
    del rows
    ids = f.ids.tolist()
    rng = random.Random(0)
    pos, neg = rng.sample(ids, 20), rng.sample(ids, 20)
    queue = iter(rng.sample(ids, rounds * 2))
    explain: list[float] = []

    def mark_and_rank() -> None:
        pos.append(next(queue))
        ranking = ranker.rank(store, pos, neg, text_of=lambda got: {i: texts[i] for i in got})
        t = time.perf_counter()
        ranking.top(TOP)
        explain.append(time.perf_counter() - t)

    stall, times = stall_while(mark_and_rank, rounds)
    return {"papers": f.n, "build_s": build, "build_stall_ms": build_stall, "load_s": load,
            "rerank_median_s": statistics.median(times),
            "rerank_max_s": max(times), "explain_30_median_s": statistics.median(explain), "stall_ms": stall,
            "features_mb": f.nbytes() / 2**20, "rss_after_build_mb": built_rss, "rss_load_growth_mb": load_rss,
            "cache_mb": sum(p.stat().st_size for p in (work / "interest-94k").iterdir()) / 2**20}  # fmt: skip


# ---- the report ---------------------------------------------------------------------------------------


def difference_interval(q: dict, budget: str, method: str = "suggest", draws: int = 10_000) -> tuple[float, float]:
    """A 95% bootstrap interval, resampling keywords, of the mean of a method − BM25 at one budget."""
    diffs = np.asarray([row[budget][method] - row[budget]["bm25"] for row in q["keywords"].values()])
    rng = np.random.default_rng(0)
    means = diffs[rng.integers(0, len(diffs), (draws, len(diffs)))].mean(axis=1)
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def report(result: dict) -> list[str]:
    q = result["quality"]
    methods = q["methods"]
    lines = [
        "## Triage: the interest ranking (`python -m benchmarks.triage`)",
        "",
        f"ICLR 2021 submissions ({q['papers']:,} papers) imported without their keywords; for each keyword with "
        f"30–120 papers ({len(q['keywords'])}), a researcher marks n papers carrying it positive and n others "
        f"negative ({q['seeds']} seeded draws each), then precision@{TOP} among the untriaged papers: the ranking "
        f"(`suggest`), a BM25 search for the keyword's words (`lib.search(keyword)` less the marked papers), the "
        "base rate, and the best any ranking could do (`ceiling`: fewer than 30 relevant papers may be left).",
        "",
        "| keyword | papers | "
        + " | ".join(f"{b}+{b} suggest | {b}+{b} BM25" for b in BUDGETS)
        + " | interests text only |",
        "|---|---:|" + "---:|" * (2 * len(BUDGETS) + 1),
    ]
    for k, row in q["keywords"].items():
        cells = " | ".join(f"{row[str(b)]['suggest']:.2f} | {row[str(b)]['bm25']:.2f}" for b in BUDGETS)
        lines.append(f"| {k} | {row['papers']} | {cells} | {row['interests_only']:.2f} |")
    m = q["mean"]
    cells = " | ".join(f"**{m[str(b)]['suggest']:.3f}** | **{m[str(b)]['bm25']:.3f}**" for b in BUDGETS)
    lines.append(f"| **mean** | | {cells} | **{m['interests_only']:.3f}** |")
    lines += [
        "",
        "Mean precision@30 by method and mark budget (same draws), with the base rate and the ceiling:",
        "",
        "| marks | " + " | ".join(methods) + " | suggest, keyword typed as interests | BM25 keyword search | base rate"
        " | ceiling | suggest ÷ base |",
        "|---|" + "---:|" * (len(methods) + 5),
    ]
    for b in BUDGETS:
        r = m[str(b)]
        cells = " | ".join(f"{r[name]:.3f}" for name in methods)
        lines.append(f"| {b}+{b} | {cells} | {r['suggest_typed']:.3f} | {r['bm25']:.3f} | {r['base']:.3f} | "
                     f"{r['ceiling']:.3f} | {r['suggest'] / r['base']:.1f}× |")  # fmt: skip
    ten = m["10"]
    lo, hi = difference_interval(q, "10")
    lo_t, hi_t = difference_interval(q, "10", "suggest_typed")

    def verdict(lo: float, hi: float) -> str:
        return "a lead" if lo > 0 else "behind" if hi < 0 else "parity within the noise, not a lead"

    lines += [
        "",
        "Goals with 10+10 marks: at least the keyword search, which is given the keyword. Told the same (the "
        f"keyword typed as the reader's interests), the ranking: {ten['suggest_typed']:.3f} vs {ten['bm25']:.3f}, "
        f"{'met' if ten['suggest_typed'] >= ten['bm25'] else 'NOT met'} (95% bootstrap interval of the difference "
        f"over the keywords {lo_t:+.3f} to {hi_t:+.3f}: {verdict(lo_t, hi_t)}). From the marks alone, not knowing "
        f"the keyword: {ten['suggest']:.3f}, {'met' if ten['suggest'] >= ten['bm25'] else 'NOT met'} ({lo:+.3f} to "
        f"{hi:+.3f}: {verdict(lo, hi)}). At least 5× the base rate "
        f"({ten['suggest'] / ten['base']:.1f}×: {'met' if ten['suggest'] >= 5 * ten['base'] else 'NOT met'}).",
        "",
        "Speed (shared 2-core machine, this run only; a re-rank: one mark written, the features brought up to "
        "date, every unmarked paper scored and sorted; explanations: the words, phrases and nearest marked "
        "papers of the top 30; stall: the longest gap of a 5 ms Qt timer while re-ranks ran on a worker thread):",
        "",
        "| library | papers | features built (stall) | loaded from cache | re-rank median | re-rank max"
        " | explain top 30 | stall while re-ranking | features in memory | cache on disk |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, s in result["speed"].items():
        lines.append(
            f"| {name} | {s['papers']:,} | {s['build_s']:.1f} s ({s['build_stall_ms']:.0f} ms) | {s['load_s']:.2f} s"
            f" | {s['rerank_median_s'] * 1000:.0f} ms"
            f" | {s['rerank_max_s'] * 1000:.0f} ms | {s['explain_30_median_s'] * 1000:.0f} ms | {s['stall_ms']:.0f} ms"
            f" | {s['features_mb']:.0f} MB | {s['cache_mb']:.0f} MB |"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.triage", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 keywords, one draw, no 94k run")
    parser.add_argument("--seeds", type=int, default=None, help="seeded draws per keyword and budget (default 3)")
    parser.add_argument("--rounds", type=int, default=20, help="marks (re-ranks) timed per library")
    parser.add_argument("--from-json", type=Path, help="rewrite the report from a saved result, measuring nothing")
    args = parser.parse_args(argv)
    if args.from_json:
        lines = report(json.loads(args.from_json.read_text()))
        print("\n".join(lines))
        write_section("triage", lines)
        return 0
    if not ICLR_TSV.exists():  # the corpora are read from ../shared, never copied here
        print(f"benchmarks.triage: corpus not found: {ICLR_TSV}", file=sys.stderr)
        return 0
    seeds = args.seeds or (1 if args.quick else 3)
    work = Path(tempfile.mkdtemp(prefix="rl-triage-"))
    try:
        result: dict = {"date": date.today().isoformat(), "quick": args.quick}
        result["quality"] = quality(work, seeds, args.quick)
        speed: dict[str, dict] = {}
        log("NeurIPS 8k: import, features, re-ranks…")
        speed["NeurIPS (library)"] = speed_library(work, NEURIPS, args.rounds)
        log(f"  {speed['NeurIPS (library)']}")
        if not args.quick:
            log("all venues 94k: features, re-ranks…")
            speed["all venues (ranker alone)"] = speed_corpus(work, ALL_VENUES, args.rounds)
            log(f"  {speed['all venues (ranker alone)']}")
        result["speed"] = speed
        result["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        lines = report(result)
        print("\n".join(lines))
        if not args.quick:
            write_section("triage", lines)
        out = ROOT / "benchmarks" / "results" / f"triage-{result['date']}{'-quick' if args.quick else ''}.json"
        out.write_text(json.dumps(result, indent=1))
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
