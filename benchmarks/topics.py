"""Topics and the map (issue 16): quality against real labels, time and memory at 8k and 94k papers,
stability over a re-import, and how long the window's thread can be kept from running while they compute.

    .venv/bin/python -m benchmarks.topics            # ICLR 2021 quality, NeurIPS 8,263 and all venues 94,374
    .venv/bin/python -m benchmarks.topics --quick    # quality (one seed) and NeurIPS only

Quality: the ICLR 2021 submissions are imported from the JSON Lines file, which has no keywords; each paper's
label is its first author keyword (paperlist.tsv, matched by title) among the 30 most used, after folding case,
hyphens and plurals and leaving out the keywords that say nothing ("deep learning", "machine learning",
"neural networks"): 1,300-odd papers get one. Topics are compared with those labels by normalised mutual
information (NMI, arithmetic mean) and purity, beside k-means on raw tf-idf (scikit-learn's TfidfVectorizer
and KMeans, the issue's reference) and scikit-learn's LSA + k-means, each with the same number of groups.

Time and memory: each computation runs in a fresh process (as the window's child process does: BLAS on one
thread); peak memory is that process's maximum resident set. Stability: NeurIPS papers imported from a file
holding 90% of them (a random sample), topics computed, the file rewritten with all of them and re-imported,
topics recomputed: the share of the first papers that keep their topic id, beside a recompute from scratch
whose clusters are matched to the old ids by the same rule. The window probe: a 5 ms timer on the main
thread while another thread computes (in the child process, as the window will, and in-thread for contrast).
"""

from __future__ import annotations

import argparse
import collections
import csv
import gzip
import json
import lzma
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from datetime import date
from pathlib import Path

from benchmarks.report import ROOT, write_section

SHARED = Path(os.environ.get("READINGLIST_SHARED", ROOT.parent / "shared"))
CORPORA = SHARED / "corpora"
ICLR = CORPORA / "iclr2021_submissions.jsonl.gz"
ICLR_TSV = CORPORA / "originals" / "iclr2021-openreviewdata" / "paperlist.tsv.gz"
NEURIPS = CORPORA / "neurips_1987_2018.jsonl.gz"
ALL_VENUES = CORPORA / "paperlists_all_venues.jsonl.xz"
RESULTS = ROOT / "benchmarks" / "results"
GENERIC = {"deep learning", "machine learning", "neural network", "deep neural network", "artificial intelligence"}
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run_probe(*args: str) -> dict:
    """A measurement in a fresh process; its last stdout line is JSON."""
    env = {**os.environ, **ONE_THREAD, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.topics", "--probe", *args],
        capture_output=True, text=True, env=env, cwd=ROOT, check=False,
    )  # fmt: skip
    if out.returncode != 0:
        raise RuntimeError(f"probe {args} failed: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def import_library(data: Path, files: list[Path]) -> float:
    from readinglist.library import Library

    started = time.perf_counter()
    lib = Library.open(data, seed=False)
    try:
        lib.import_files(files)
    finally:
        lib.close()
    return time.perf_counter() - started


# ---- probes (each in its own process) ---------------------------------------------------------------


def probe_compute(data: str, count: str = "") -> dict:
    """Topics and the map computed as the window has them computed (in a child process), and stored."""
    from readinglist.library import Library

    lib = Library.open(data, seed=False)
    try:
        started = time.perf_counter()
        lib.compute_topics(count=int(count) if count else None)
        total = time.perf_counter() - started
        meta = lib.store.topics_meta()
        topics = lib.topics()
        started = time.perf_counter()
        m = lib.library_map()
        load_map = time.perf_counter() - started
        started = time.perf_counter()
        lib.topics()
        load_topics = time.perf_counter() - started
        return {
            "papers": lib.counts()["all"],
            "topics": len(topics),
            "seconds": round(total, 2),
            "phases": json.loads(meta.get("phases", "{}")),
            "store_seconds": float(meta.get("store_seconds", 0)),
            "peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,  # the computing child
            "storing_process_mb": _own_peak_mb(),
            "map_points": len(m) if m is not None else 0,
            "load_map_ms": round(load_map * 1000, 1),
            "load_topics_ms": round(load_topics * 1000, 1),
            "names": [t.label for t in topics[:12]],
            "sizes": [t.size for t in topics[:12]],
        }
    finally:
        lib.close()


def _own_peak_mb() -> float:
    """This process's peak resident memory since it started (VmHWM): ru_maxrss would also count the memory
    of the process it was forked from (Linux keeps it over exec), here the benchmark's own 94k import."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def probe_heartbeat(data: str, mode: str) -> dict:
    """The longest gap of a 5 ms timer on this thread while another thread computes topics."""
    from readinglist.library import Library

    sys.setswitchinterval(0.0001)  # as the window sets it
    lib = Library.open(data, seed=False)
    done = threading.Event()
    error: list[BaseException] = []

    def work() -> None:
        try:
            lib.compute_topics(use_process=mode == "process")
        except BaseException as exc:
            error.append(exc)
        finally:
            done.set()

    gaps: list[tuple[float, float]] = []  # (gap, when)
    worker = threading.Thread(target=work)
    started = time.perf_counter()
    worker.start()
    last = time.perf_counter()
    while not done.is_set():
        time.sleep(0.005)
        now = time.perf_counter()
        gaps.append((now - last - 0.005, now - started))
        last = now
    worker.join()
    total = time.perf_counter() - started
    lib.close()
    if error:
        raise error[0]
    gaps.sort()
    return {
        "mode": mode,
        "seconds": round(total, 2),
        "worst_ms": round(gaps[-1][0] * 1000, 1),
        "worst_at_s": round(gaps[-1][1], 2),  # when, from the start (the storing is in the last second)
        "over_20ms": [(round(g * 1000), round(t, 2)) for g, t in gaps if g > 0.02][-10:],
        "p99_ms": round(gaps[int(0.99 * (len(gaps) - 1))][0] * 1000, 1),
        "beats": len(gaps),
    }


# ---- quality ------------------------------------------------------------------------------------------


def _fold(keyword: str) -> str:
    k = re.sub(r"\s+", " ", keyword.strip().lower().replace("-", " "))
    return k[:-1] if k.endswith("s") and not k.endswith("ss") and len(k) > 4 else k


def iclr_labels() -> dict[str, str]:
    """Title → label (see the module's docstring)."""
    csv.field_size_limit(1 << 27)
    with gzip.open(ICLR_TSV, "rt", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    keywords = {r["title"].strip(): [_fold(k) for k in r["keywords"].split(",") if k.strip()] for r in rows}
    counts = collections.Counter(k for ks in keywords.values() for k in set(ks) if k not in GENERIC)
    classes = {k for k, _ in counts.most_common(30)}
    return {t: next(k for k in ks if k in classes) for t, ks in keywords.items() if any(k in classes for k in ks)}


def purity(truth: list[str], pred: list[int]) -> float:
    by: dict[int, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for a, b in zip(truth, pred, strict=True):
        by[b][a] += 1
    return sum(c.most_common(1)[0][1] for c in by.values()) / len(truth)


def quality(work: Path, seeds: int) -> dict:
    import numpy as np
    from sklearn.cluster import KMeans
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.metrics import normalized_mutual_info_score as nmi
    from sklearn.preprocessing import Normalizer

    from readinglist import topics, topics_job
    from readinglist.library import Library
    from readinglist.store import open_store

    data = work / "iclr"
    import_library(data, [ICLR])
    labels = iclr_labels()
    store = open_store(data / "library.db", read_only=True)
    titles = dict(store.db.execute("SELECT id, title FROM papers"))
    texts = {pid: f"{t}. {a}" for pid, t, a in store.topic_rows()}
    store.close()
    labelled = [pid for pid in sorted(titles) if titles[pid].strip() in labels]
    truth = [labels[titles[pid].strip()] for pid in labelled]
    k = topics.topic_count(len(titles))
    rows: dict[str, list[tuple[float, float]]] = {"ours": [], "tfidf_kmeans": [], "sklearn_lsa_kmeans": []}
    seconds: dict[str, list[float]] = {name: [] for name in rows}
    for seed in range(seeds):
        started = time.perf_counter()
        result = topics_job.compute_result(data / "library.db", seed=seed)
        seconds["ours"].append(time.perf_counter() - started)
        got = dict(zip(result.paper_ids.tolist(), result.topic_ids.tolist(), strict=True))
        pred = [got.get(pid, -1) for pid in labelled]
        rows["ours"].append((nmi(truth, pred), purity(truth, pred)))
        ids = sorted(texts)
        started = time.perf_counter()
        x = TfidfVectorizer(stop_words="english", min_df=2, sublinear_tf=True).fit_transform([texts[i] for i in ids])
        km = KMeans(k, n_init=1, random_state=seed).fit(x)
        seconds["tfidf_kmeans"].append(time.perf_counter() - started)
        lab = dict(zip(ids, km.labels_.tolist(), strict=True))
        pred = [lab[pid] for pid in labelled]
        rows["tfidf_kmeans"].append((nmi(truth, pred), purity(truth, pred)))
        started = time.perf_counter()
        reduced = Normalizer().fit_transform(TruncatedSVD(100, random_state=seed).fit_transform(x))
        km = KMeans(k, n_init=1, random_state=seed).fit(reduced)
        seconds["sklearn_lsa_kmeans"].append(time.perf_counter() - started)
        lab = dict(zip(ids, km.labels_.tolist(), strict=True))
        pred = [lab[pid] for pid in labelled]
        rows["sklearn_lsa_kmeans"].append((nmi(truth, pred), purity(truth, pred)))
    lib = Library.open(data, seed=False)
    lib.compute_topics(use_process=False)
    names = [t.label for t in lib.topics()[:10]]
    lib.close()
    out = {"papers": len(titles), "labelled": len(labelled), "classes": len(set(truth)), "k": k, "seeds": seeds}
    for name, values in rows.items():
        arr = np.asarray(values)
        out[name] = {
            "nmi": round(float(arr[:, 0].mean()), 3),
            "nmi_sd": round(float(arr[:, 0].std()), 3),
            "purity": round(float(arr[:, 1].mean()), 3),
            "purity_sd": round(float(arr[:, 1].std()), 3),
            "seconds": round(float(np.mean(seconds[name])), 2),
        }
    out["names"] = names
    return out


# ---- stability ----------------------------------------------------------------------------------------


def read_jsonl(path: Path) -> list[str]:
    opener = lzma.open if path.suffix == ".xz" else gzip.open
    with opener(path, "rt", encoding="utf-8") as f:
        return [line for line in f if line.strip()]


def stability(work: Path) -> dict:
    import numpy as np

    from readinglist import topics, topics_job
    from readinglist.library import Library

    lines = read_jsonl(NEURIPS)
    rng = random.Random(0)
    first = sorted(rng.sample(range(len(lines)), int(0.9 * len(lines))))
    source = work / "neurips-reimport.jsonl"
    source.write_text("".join(lines[i] for i in first), encoding="utf-8")
    data = work / "stability"
    lib = Library.open(data, seed=False)
    try:
        lib.import_files([source])
        lib.compute_topics(use_process=False)
        before = lib.topics_of(lib.store.all_ids())
        source.write_text("".join(lines), encoding="utf-8")  # the same file, now with every paper
        added = lib.import_files([source])[0].added
        previous = topics_job.load_previous(lib.store)
        assert previous is not None
        lib.compute_topics(use_process=False)
        after = lib.topics_of(list(before))
        kept = sum(after.get(p) == t for p, t in before.items()) / len(before)
        # from scratch, its clusters given ids by the same matching
        scratch = topics_job.compute_result(data / "library.db", fresh=True)
        sorted_ = scratch.topic_ids >= 0  # (−1: too little text for a topic)
        old = np.asarray([before.get(int(p), -1) for p in scratch.paper_ids[sorted_]], dtype=np.int64)
        _, clusters = np.unique(scratch.topic_ids[sorted_], return_inverse=True)
        ids, _ = topics.match_ids(clusters, old, previous.next_id)
        cold = dict(zip(scratch.paper_ids[sorted_].tolist(), ids[clusters].tolist(), strict=True))
        kept_cold = sum(cold.get(p) == t for p, t in before.items()) / len(before)
        return {
            "papers_before": len(before),
            "added": added,
            "kept": round(kept, 3),
            "kept_from_scratch": round(kept_cold, 3),
            "topics": len(lib.topics()),
        }
    finally:
        lib.close()


# ---- the report ---------------------------------------------------------------------------------------


def report(results: dict) -> list[str]:
    q = results["quality"]
    lines = [
        "## Topics and the map",
        "",
        f"Measured {results['date']} by `python -m benchmarks.topics{' --quick' if results['quick'] else ''}` on the "
        "shared 2-core machine (other developers were working: compare the side-by-side columns, not runs). "
        f"Raw numbers: `benchmarks/results/{results['file']}`.",
        "",
        f"**Quality** on the ICLR 2021 submissions imported without keywords ({q['papers']:,} papers; "
        f"{q['labelled']:,} labelled by their first author keyword among the {q['classes']} most used, see "
        f"`benchmarks/topics.py`), {q['k']} groups each, mean ± sd over {q['seeds']} seed(s):",
        "",
        "| method | NMI | purity | time |",
        "|---|---|---|---|",
    ]
    for name, label in (
        ("ours", "readinglist topics (words + phrases, LSA 100, spherical k-means)"),
        ("tfidf_kmeans", "reference: k-means on raw tf-idf (scikit-learn)"),
        ("sklearn_lsa_kmeans", "scikit-learn LSA 100 + k-means"),
    ):
        r = q[name]
        nmi, pur = f"{r['nmi']:.3f} ± {r['nmi_sd']:.3f}", f"{r['purity']:.3f} ± {r['purity_sd']:.3f}"
        lines.append(f"| {label} | {nmi} | {pur} | {r['seconds']:.1f} s |")
    lines += [
        "",
        "| library | papers | topics | compute + store | phases (s) | peak memory (child) | goal | storing process |"
        " map / topics load |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for key, name in (("neurips", "NeurIPS 1987–2018"), ("all_venues", "all venues")):
        r = results.get(key)
        if not r:
            continue
        phases = " · ".join(f"{k} {v:.1f}" for k, v in r["phases"].items())
        goal = "≤ 400 MB " + ("✅" if r["peak_mb"] <= 400 else "❌") if key == "all_venues" else ""
        head = f"| {name} | {r['papers']:,} | {r['topics']} | {r['seconds']:.1f} s"
        lines.append(
            f"{head} | {phases} · store {r['store_seconds']:.2f} | {r['peak_mb']:.0f} MB | {goal} |"
            f" {r['storing_process_mb']:.0f} MB | {r['load_map_ms']:.0f} / {r['load_topics_ms']:.0f} ms |"
        )
    s = results["stability"]
    lines += [
        "",
        f"**Stability** over a re-import (NeurIPS, {s['papers_before']:,} papers, then {s['added']:,} more by "
        f"re-importing the grown file): {100 * s['kept']:.1f}% keep their topic id; recomputed from scratch and "
        f"matched by the same rule, {100 * s['kept_from_scratch']:.1f}%.",
        "",
        "**The window's thread** while another thread computes (a 5 ms timer's longest gap beyond its 5 ms):",
        "",
        "| library | in a child process (what the window does) | in the worker thread itself |",
        "|---|---|---|",
    ]
    for key, r in results.get("heartbeat", {}).items():
        lines.append(
            f"| {key} | worst {r['process']['worst_ms']:.0f} ms ({r['process']['worst_at_s']:.1f} s of"
            f" {r['process']['seconds']:.1f}), p99 {r['process']['p99_ms']:.0f} ms |"
            f" worst {r['thread']['worst_ms']:.0f} ms, p99 {r['thread']['p99_ms']:.0f} ms |"
        )
    names = results.get("neurips", {}).get("names", [])
    if names:
        lines += ["", "Ten NeurIPS topics, largest first:", ""] + [f"{i}. {n}" for i, n in enumerate(names[:10], 1)]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="quality with one seed, NeurIPS only")
    parser.add_argument("--probe", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.probe:
        kind, *rest = args.probe
        result = probe_compute(*rest) if kind == "compute" else probe_heartbeat(*rest)
        print(json.dumps(result))
        return 0
    for path in (ICLR, ICLR_TSV, NEURIPS) + (() if args.quick else (ALL_VENUES,)):
        if not path.exists():
            log(f"missing corpus {path}")
            return 1
    os.environ.update(ONE_THREAD)  # this process computes too (quality, stability): as the child does
    results: dict = {"date": date.today().isoformat(), "quick": args.quick}
    with tempfile.TemporaryDirectory(prefix="readinglist-topics-bench-") as tmp:
        work = Path(tmp)
        log("quality on ICLR 2021…")
        results["quality"] = quality(work, 1 if args.quick else 3)
        log(f"  {results['quality']['ours']} vs {results['quality']['tfidf_kmeans']}")
        results["heartbeat"] = {}
        for key, corpus in (("neurips", NEURIPS),) + (() if args.quick else (("all_venues", ALL_VENUES),)):
            data = work / key
            log(f"importing {corpus.name}…")
            results[f"{key}_import_s"] = round(import_library(data, [corpus]), 1)
            log("  computing topics and the map…")
            results[key] = run_probe("compute", str(data))
            log(f"  {results[key]['seconds']} s, {results[key]['peak_mb']:.0f} MB")
            log("  the window probe…")
            results["heartbeat"][key] = {
                mode: run_probe("heartbeat", str(data), mode) for mode in ("process", "thread")
            }
            log(f"  {results['heartbeat'][key]}")
        log("stability over a re-import…")
        results["stability"] = stability(work)
        log(f"  {results['stability']}")
    name = f"topics-{results['date']}{'-quick' if args.quick else ''}.json"
    results["file"] = name
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / name).write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    lines = report(results)
    write_section("topics", lines)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
