"""Run the benchmarks side by side: `python -m benchmarks [--quick] [--reps N] [--loaded | --calm]
[--scale COPIES [--scale-from FILE]] [CORPUS…]`.

Without corpora it uses ../shared/corpora/neurips_1987_2018.jsonl.gz (8,263 papers) and
paperlists_all_venues.jsonl.xz (94,374). --quick uses the 517-paper PMLR file and one repetition, so CI can
keep the runner working in a minute. The window and start-up are measured twice, calm and with one CPU-bound
process beside the app (--loaded: loaded only; --calm: calm only). --scale COPIES adds a library of the
all-venues corpus (or --scale-from FILE) COPIES times, each copy's words perturbed (benchmarks/scale.py), and
fits how each measure grows between the sizes. Writes benchmarks/results/<date>.json and docs/performance.md
with docs/performance.png. Each measurement runs in its own process (see probes.py).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from benchmarks import disk, scale
from benchmarks.busy import beside

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("READINGLIST_SHARED", ROOT.parent / "shared")) / "corpora"
GOALS = {  # issue 18, on a 2-core machine
    "keystroke_p95_ms": {8000: 25.0, 94000: 100.0},
    "stall_ms": 50.0,
    "startup_ratio": 2.0,  # at 94k
    "import_ratio": 0.5,  # at 8k and 94k, duplicate detection on
    "import_peak_mb": 400.0,  # 94k and the 300k file
    "window_peak_mb": 300.0,  # at 94k, suggestions and topics loaded
    "disk_ratio": 2.0,  # database + index against the corpus's unpacked text, at 94k
}
STARTUP_RUNS = 9  # launches of each, alternating: each takes under a second
EARLIER_EVERY = 50  # the library holds every 50th record from another file before the import is timed
MODES = ("calm", "loaded")
DEFAULT_SCALE = SHARED / "paperlists_all_venues.jsonl.xz"


def probe(*args: str, timeout: int = 7200) -> dict:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "benchmarks.probes", *args], capture_output=True, text=True,
                       timeout=timeout, env=env, cwd=ROOT)  # fmt: skip
    if r.returncode != 0:
        raise RuntimeError(f"probe {args[0]} failed:\n{r.stderr[-3000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


PAINTED_AT = re.compile(r"painted at (\d+\.\d+)")


def to_paint(cmd: list[str]) -> tuple[float, float]:
    """Seconds from launching `cmd` to its window's first paint (the process prints the wall clock then),
    and to its exit."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    launched = time.time()
    r = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    ended = time.time()
    found = PAINTED_AT.search(r.stderr + r.stdout)
    if found is None:
        raise RuntimeError(f"{cmd[2]}: no paint reported:\n{r.stderr[-2000:]}")
    return float(found.group(1)) - launched, ended - launched


def compile_bytecode() -> None:
    """Compile readinglist's and the benchmarks' bytecode, as an installed copy has it: this machine's
    environment may forbid writing it (PYTHONDONTWRITEBYTECODE), and then every probe process, and each
    index writer an import spawns, compiled every module changed since the last write."""
    for folder in ("readinglist", "benchmarks"):
        done = subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / folder)], capture_output=True,
                              text=True)  # fmt: skip
        if done.returncode:
            raise RuntimeError(f"compiling {folder} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")


def startup(data_dir: Path, runs: int) -> dict:
    """Launch to the first paint, against a bare PySide6 window; runs interleaved, medians compared. To the
    paint, not to the exit: the app's exit (saving its settings, Python's finalisation) is no part of
    starting, and the bare window exits at once. Bytecode was compiled before the first probe, as an
    installed copy has it (main: compile_bytecode)."""
    app, bare = [], []
    for _ in range(runs):
        bare.append(to_paint([sys.executable, "-m", "benchmarks.probes", "bare-window"]))
        app.append(to_paint([sys.executable, "-m", "readinglist", "--data-dir", str(data_dir), "--smoke-test"]))
    a, b = statistics.median(x[0] for x in app), statistics.median(x[0] for x in bare)
    return {"app_s": a, "bare_window_s": b, "ratio": a / b, "app_exit_s": statistics.median(x[1] for x in app),
            "runs": runs}  # fmt: skip


def earlier_sample(corpus: Path, folder: Path) -> Path | None:
    """Every 50th record of a JSON Lines corpus as a file of its own: imported first, it makes the timed
    import's duplicate detection find and merge papers from another source, as a second conference file
    does. None for other formats (the import then still looks every record up, and finds nothing)."""
    if ".jsonl" not in corpus.name:
        return None
    path = folder / f"{corpus.name.split('.')[0]}-earlier.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for i, r in enumerate(scale.read_records(corpus)):
            if i % EARLIER_EVERY == 0:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    return path


def bench_corpus(corpus: Path, reps: int, small_import: Path | None, modes: tuple[str, ...], log,
                 naive: bool = True, label: str = "") -> dict:  # fmt: skip
    work = Path(tempfile.mkdtemp(prefix="rl-bench-"))
    try:
        data = work / "data"
        name = label or corpus.name
        unpacked = disk.unpacked_bytes(corpus)
        earlier = earlier_sample(corpus, work)
        if earlier is not None:
            probe("import", str(earlier), str(data))  # not timed: the other source duplicates are found in
        nv_runs: list[float] = []
        imp_runs: list[float] = []
        naive_peak = 0.0
        if naive:  # the goal's comparison: `reps` pairs, alternating, each import into a copy of the library
            before = work / "before"
            if data.exists():
                shutil.copytree(data, before)
            for n in range(reps):
                log(f"{name}: naive Whoosh build and readinglist import (duplicate detection on), {n + 1} of {reps}…")
                trial = work / "trial"
                if before.exists():
                    shutil.copytree(before, trial)
                for which in ("naive", "import") if n % 2 == 0 else ("import", "naive"):  # each goes first as often
                    if which == "naive":
                        nv = probe("naive", str(corpus))
                        nv_runs.append(nv["seconds"])
                        naive_peak = max(naive_peak, nv["peak_mb"])
                    else:
                        imp_runs.append(probe("import", str(corpus), str(trial), "0")["seconds"])
                shutil.rmtree(trial, ignore_errors=True)
                log(f"  naive {nv_runs[-1]:.1f} s, import {imp_runs[-1]:.1f} s")
            shutil.rmtree(before, ignore_errors=True)
        log(f"{name}: readinglist import, its memory sampled…")
        imp = probe("import", str(corpus), str(data))
        log(f"  {imp['seconds']:.1f} s ({imp['added']:,} added, {imp['merged']:,} merged); topics…")
        import_s = statistics.median(imp_runs) if imp_runs else imp["seconds"]
        topics = probe("topics", str(data))
        log(f"  {topics['seconds']:.1f} s ({topics['topics']} topics); search…")
        footprint = disk.library(data)  # as the window opens it: papers, index, topics and map
        search = probe("search", str(data), str(reps))
        new, typed = search["core_new_p95_ms"], search["core_typed_p95_ms"]
        log(f"  core p95 {new:.0f} ms (new query) / {typed:.0f} ms (as typed)")
        windows, starts = {}, {}
        for mode in modes:
            copy = work / f"window-{mode}"  # each window session starts from the same library
            shutil.copytree(data, copy)
            log(f"  window, {mode}…")
            with beside(mode == "loaded"):
                windows[mode] = probe("window", str(copy), str(reps), str(small_import) if small_import else "")
            shutil.rmtree(copy, ignore_errors=True)
            w = windows[mode]
            log(f"    keystroke p95 {w['keystroke_p95_ms']:.0f} ms, peak {w['peak_mb']:.0f} MB; start-up…")
            with beside(mode == "loaded"):
                starts[mode] = startup(data, STARTUP_RUNS if reps > 1 else 3)
            log(f"    start-up {starts[mode]['ratio']:.2f}× a bare window")
        return {
            "corpus": name,
            "file": str(corpus),
            "papers": imp["papers"],
            "unpacked_mb": round(unpacked / 1e6, 1),
            "import_s": import_s,
            "import_runs_s": imp_runs,  # timed unsampled, alternating with the naive builds
            "import_sampled_s": imp["seconds"],  # the import whose memory was sampled (the library used after)
            "naive_whoosh_s": statistics.median(nv_runs) if nv_runs else None,
            "naive_runs_s": nv_runs,
            "import_ratio": import_s / statistics.median(nv_runs) if nv_runs else None,
            "import_peak_mb": imp["peak_mb"],
            "import_tree_peak_mb": imp["tree_peak_mb"],
            "naive_peak_mb": naive_peak if nv_runs else None,
            "import": {k: imp[k] for k in ("added", "merged", "possible", "db_mb", "index_mb")},
            "earlier_file": earlier is not None,
            "topics": topics,
            "index_mb": footprint["index_mb"],
            "db_mb": footprint["db_mb"],
            "disk": footprint,
            "disk_ratio": (footprint["db_mb"] + footprint["index_mb"]) / (unpacked / 1e6),
            "search": search,
            "windows": windows,
            "startups": starts,
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def bench_bundled(reps: int) -> dict:
    work = Path(tempfile.mkdtemp(prefix="rl-bench-"))
    try:
        data = work / "data"
        subprocess.run([sys.executable, "-m", "readinglist", "--data-dir", str(data), "list"], check=True,
                       capture_output=True, cwd=ROOT)  # fmt: skip
        return {"corpus": "bundled ICML 2026", "papers": 19, "search": probe("search", str(data), str(reps)),
                "windows": {"calm": probe("window", str(data), str(reps))}}  # fmt: skip
    finally:
        shutil.rmtree(work, ignore_errors=True)


def verdict(ok: bool) -> str:
    return "✅" if ok else "❌"


def size_class(n: int) -> str:
    """Which of the issue's library sizes a run stands for: its goals are stated at 8k and 94k papers."""
    return "8k" if n < 20000 else "94k" if n < 150000 else "300k"


def _ms(x: float | None, digits: int = 0) -> str:
    return "—" if x is None or x != x else f"{x:.{digits}f}"


STALLS = [("typing", "stall_typing_ms"), ("triage keys", "stall_triage_ms"), ("scrolling", "stall_scroll_ms"),
          ("suggestions and topics loading", "stall_load_ms"),
          ("suggestions and topics recomputed", "stall_recompute_ms"), ("importing", "stall_import_ms")]  # fmt: skip


def worst_stall(w: dict) -> float:
    return max(w[k] for _, k in STALLS if w.get(k) is not None)


def _spread(runs: list[float] | None) -> str:
    """The runs behind a median, when there were several: " (3.8–4.1 s, 3 runs alternating)"."""
    if not runs or len(runs) < 2:
        return ""
    return f" ({min(runs):.1f}–{max(runs):.1f} s, {len(runs)} runs alternating)"


def goal_rows(run: dict) -> list[str]:
    """One row per measure: calm and loaded side by side, the reference, the goal and whether it is met."""
    _n, cls = run["papers"], size_class(run["papers"])
    ws, sts = run.get("windows", {}), run.get("startups", {})

    def both(f, ws=ws) -> tuple[str, str]:
        return tuple(f(ws[m]) if m in ws else "—" for m in MODES)  # type: ignore[return-value]

    def met(check, ws=ws) -> str:
        return " · ".join(f"{m} {verdict(check(ws[m]))}" for m in MODES if m in ws)

    rows = []
    if run.get("import_ratio") is not None:
        ok = run["import_ratio"] <= GOALS["import_ratio"]
        rows.append(f"| import, duplicate detection on ({run['import']['merged']:,} records merged into papers from "
                    f"another file) | {run['import_s']:.1f} s{_spread(run.get('import_runs_s'))} | | naive Whoosh "
                    f"build {run['naive_whoosh_s']:.1f} s{_spread(run.get('naive_runs_s'))} (ratio of the medians "
                    f"{run['import_ratio']:.2f}) | ≤ 0.5× | {verdict(ok)} |")  # fmt: skip
    else:
        rows.append(f"| import, duplicate detection on ({run['import']['merged']:,} merged) | {run['import_s']:.1f} s"
                    " | | (naive build not run at this size) | | |")  # fmt: skip
    goal_ks = GOALS["keystroke_p95_ms"].get(8000 if cls == "8k" else 94000) if cls != "300k" else None
    c, lo = both(lambda w: f"{_ms(w['keystroke_p50_ms'])} / {_ms(w['keystroke_p95_ms'])} ms")
    rows.append(f"| keystroke → every match ranked in the table, p50 / p95 ({ws[next(iter(ws))]['typed_queries']} "
                f"queries: the benchmark's and pasted titles and sentences) | {c} | {lo} | | "
                f"{f'p95 ≤ {goal_ks:.0f} ms' if goal_ks else ''} | "
                f"{met(lambda w: w['keystroke_p95_ms'] <= goal_ks) if goal_ks else ''} |" if ws else "")  # fmt: skip
    c, lo = both(lambda w: f"{_ms(w.get('keystroke_pasted_p95_ms'))} ms")
    rows.append(f"| … of them the pasted titles and sentences, p95 | {c} | {lo} | | | |")
    c, lo = both(lambda w: f"{_ms(w['keystroke_painted_p50_ms'])} / {_ms(w['keystroke_painted_p95_ms'])} ms")
    rows.append(f"| keystroke → those rows painted, p50 / p95 | {c} | {lo} | | | |")
    s = run["search"]
    rows.append(f"| core search, all hits ranked, a new query, p50 / p95 | {s['core_new_p50_ms']:.0f} / "
                f"{s['core_new_p95_ms']:.0f} ms | | raw Whoosh, all hits: {s['raw_whoosh_p50_ms']:.0f} / "
                f"{s['raw_whoosh_p95_ms']:.0f} ms | | |")  # fmt: skip
    rows.append(f"| core search, all hits ranked, as typed, p50 / p95 | {s['core_typed_p50_ms']:.0f} / "
                f"{s['core_typed_p95_ms']:.0f} ms | | SQLite FTS5: {s['fts5_p50_ms']:.1f} / {s['fts5_p95_ms']:.1f} ms"
                " | | |")  # fmt: skip
    names = " / ".join(name for name, _ in STALLS)
    c, lo = both(lambda w: " / ".join(_ms(w.get(k)) for _, k in STALLS) + " ms")
    rows.append(f"| worst event-loop stall: {names} | {c} | {lo} | | ≤ 50 ms | "
                f"{met(lambda w: worst_stall(w) <= GOALS['stall_ms'])} |" if ws else "")  # fmt: skip
    if sts:
        c, lo = (f"{sts[m]['app_s']:.2f} s ({sts[m]['ratio']:.2f}×)" if m in sts else "—" for m in MODES)
        bare = " / ".join(f"{sts[m]['bare_window_s']:.2f} s" for m in MODES if m in sts)
        ok = " · ".join(f"{m} {verdict(sts[m]['ratio'] <= GOALS['startup_ratio'])}" for m in MODES if m in sts)
        rows.append(f"| start-up to a painted window | {c} | {lo} | bare PySide6 window {bare} | ≤ 2× (at 94k) | "
                    f"{ok if cls == '94k' else ''} |")  # fmt: skip
    naive_mb = f"naive build {run['naive_peak_mb']:.0f} MB" if run.get("naive_peak_mb") else ""
    ok_imp = run["import_tree_peak_mb"] <= GOALS["import_peak_mb"]
    rows.append(f"| peak memory of the import (with Whoosh's writer processes; the importing process alone) | "
                f"{run['import_tree_peak_mb']:.0f} MB ({run['import_peak_mb']:.0f} MB) | | {naive_mb} | "
                f"≤ 400 MB (94k, 300k) | {verdict(ok_imp) if cls != '8k' else ''} |")  # fmt: skip
    if ws:
        c, lo = both(lambda w: f"{w['loaded_mb']:.0f} / {w['peak_mb']:.0f} MB ({w['tree_peak_mb']:.0f})")
        rows.append("| window memory: suggestions, topics and map loaded / the session's peak (with the index "
                    f"writer and topics processes) | {c} | {lo} | | ≤ 300 MB (94k) | "
                    f"{met(lambda w: w['peak_mb'] <= GOALS['window_peak_mb']) if cls == '94k' else ''} |")  # fmt: skip
        c, lo = both(lambda w: ", ".join(f"{k} {v:.0f}" for k, v in w.get("peak_after_mb", {}).items()) + " MB")
        rows.append(f"| … the window's peak after each phase | {c} | {lo} | | | |")
        first = ws[next(iter(ws))]
        loaded = first.get("loaded", {})
        rows.append(
            f"| … what was loaded | {'suggestions ranked' if loaded.get('suggestions') else 'no suggestions'}"
            f", {loaded.get('topics', 0)} topics, {'the map' if loaded.get('map') else 'no map'} | | | | |"
        )
    t = run["topics"]
    rows.append(f"| topics and map computed and stored (child process) | {t['seconds']:.1f} s, {t['topics']} topics, "
                f"peak {t['tree_peak_mb']:.0f} MB | | | | |")  # fmt: skip
    ok_disk = run["disk_ratio"] <= GOALS["disk_ratio"]
    rows.append(f"| disk: database + index | {run['db_mb']:.0f} MB + {run['index_mb']:.0f} MB | | corpus unpacked "
                f"{run['unpacked_mb']:.0f} MB (ratio {run['disk_ratio']:.2f}) | ≤ 2× (94k) | "
                f"{verdict(ok_disk) if cls == '94k' else ''} |")  # fmt: skip
    rows.append(
        f"| Markdown export with abstracts, {s['export_papers']:,} papers | {s['export_markdown_10k_s']:.2f} s"
        " | | | | |"
    )
    return [r for r in rows if r]


def disk_lines(run: dict) -> list[str]:
    d = run["disk"]
    db = d["database"]
    lines = ["<details><summary>where the bytes go (SQLite's dbstat; the index by file kind)</summary>", "",
             "| database object | kind | MB |", "|---|---|---|"]  # fmt: skip
    for o in db["objects"]:
        kind = o["kind"] if o["table"] == o["name"] else f"{o['kind']} on {o['table']}"
        lines.append(f"| {o['name']} | {kind} | {o['mb']:.1f} |")
    for table, cols in db["columns"].items():
        sizes = ", ".join(f"{c} {mb:.1f}" for c, mb in cols.items() if mb >= 0.05) or "each under 0.05"
        lines.append(f"\nColumns of `{table}` (bytes as stored, MB): {sizes}.")
    kinds = ", ".join(f"{k} {v:.1f}" for k, v in d["index_kinds"].items())
    lines += ["", f"Index files by kind (MB): {kinds}; the rest of the library's folder (caches): "
              f"{d['other_mb']:.0f} MB.", "", "</details>", ""]  # fmt: skip
    return lines


# import time: of the import whose memory was sampled, the one each size has (the ratio's runs are unsampled)
GROWTH = [("import time", lambda r: r.get("import_sampled_s", r["import_s"])),
          ("keystroke p95, calm", lambda r: r.get("windows", {}).get("calm", {}).get("keystroke_p95_ms")),
          ("keystroke p95, loaded", lambda r: r.get("windows", {}).get("loaded", {}).get("keystroke_p95_ms")),
          ("core search p95, a new query", lambda r: r["search"]["core_new_p95_ms"]),
          ("import peak memory", lambda r: r["import_tree_peak_mb"]),
          ("window peak memory, calm", lambda r: r.get("windows", {}).get("calm", {}).get("peak_mb")),
          ("window peak memory, loaded", lambda r: r.get("windows", {}).get("loaded", {}).get("peak_mb")),
          ("topics computed", lambda r: r["topics"]["seconds"]),
          ("disk, database + index", lambda r: r["db_mb"] + r["index_mb"])]  # fmt: skip


# the measures taken more than once at a size, each value (the side-by-side imports and the sampled one)
REPEATED = {"import time": lambda r: [*r.get("import_runs_s", []), r.get("import_sampled_s", r["import_s"])]}


def growth(runs: list[dict]) -> dict[str, list[dict]]:
    """Each measure's fitted exponents between consecutive library sizes (scale.exponents), with their range
    over the repeated runs where a measure has several."""
    sized = [r for r in runs if "import_s" in r]
    return {
        name: scale.exponents(
            [(r["papers"], f(r)) for r in sized],
            {r["papers"]: REPEATED[name](r) for r in sized} if name in REPEATED else None,
        )
        for name, f in GROWTH
    }


def _size(n: int) -> str:
    return f"{round(n / 1000)}k" if n >= 10000 else f"{n:,}"


def growth_lines(runs: list[dict]) -> list[str]:
    sized = sorted((r for r in runs if "import_s" in r), key=lambda r: r["papers"])
    if len(sized) < 2:
        return []
    lines = ["## Scale: how each measure grows", "",
             "Fitted exponent k (the measure ∝ nᵏ) between consecutive sizes of this run, against n log n's "
             "(a little over 1); ⚠ marks a measure that grows faster than n log n there. On a shared machine a "
             "time's exponent moves by about ±0.1 between runs: a ⚠ close to the line wants a rerun. Where a "
             "measure was taken several times at a size (the imports), its range over those runs is given, and "
             "it is marked only if even the lowest is beyond n log n.", "",
             "| measure | " + " | ".join(f"{r['papers']:,}" for r in sized) + " | " +
             " | ".join(f"k {_size(a['papers'])}→{_size(b['papers'])}" for a, b in itertools.pairwise(sized))
             + " |",
             "|---|" + "---|" * (2 * len(sized) - 1)]  # fmt: skip
    fits = growth(sized)
    for name, f in GROWTH:
        values = [f(r) for r in sized]
        if all(v is None for v in values):
            continue
        ks = {(e["from"], e["to"]): e for e in fits[name]}
        cells = []
        for a, b in itertools.pairwise(sized):
            e = ks.get((a["papers"], b["papers"]))
            spread = f"{e['low']:.2f}–{e['high']:.2f} over the runs; " if e and e.get("low") != e.get("high") else ""
            cells.append(
                "—" if e is None else
                f"{e['exponent']:.2f} ({spread}n log n {e['n_log_n']:.2f}){' ⚠' if e['faster'] else ''}"
            )  # fmt: skip
        lines.append(f"| {name} | " + " | ".join(_ms(v, 1) for v in values) + " | " + " | ".join(cells) + " |")
    flagged = [name for name, es in fits.items() if any(e["faster"] for e in es)]
    lines += ["", f"Faster than n log n somewhere: {', '.join(flagged) if flagged else 'none'}.", ""]
    return lines


def write_report(results: dict, md: Path, png: Path) -> None:
    from benchmarks.chart import draw
    from benchmarks.report import keep_sections

    runs = results["runs"]
    flags = " ".join(results.get("flags", []))
    lines = [
        "# Performance",
        "",
        f"Measured {results['date']} on {results['machine']['cpus']} cores ({results['machine']['platform']}, "
        f"Python {results['machine']['python']}) by `python -m benchmarks{' ' + flags if flags else ''}` "
        f"({results['reps']} repetitions). Raw numbers: `benchmarks/results/{results['name']}.json`.",
        "Every comparison ran side by side in the same run, each measurement in a fresh process. Absolute "
        "times drift with the machine's load (the 2-core development machine is shared with other developers: "
        "compare a run's SQLite FTS5 and raw Whoosh columns); ratios and same-run comparisons are what to judge. "
        "*Loaded*: the window and start-up measured again with one CPU-bound process (a busy loop, "
        "`benchmarks/busy.py`) running beside the app, as a browser is on a laptop. "
        "What each change bought: [performance-changes.md](performance-changes.md).",
        "",
        "![Search latency against library size](performance.png)",
        "",
    ]
    if results.get("window_probe_rerun"):
        lines[-2:-2] = [f"Note: {results['window_probe_rerun']}.", ""]
    for run in runs:
        if "import_s" not in run:
            continue
        n = run["papers"]
        lines += [f"## {run['corpus']} — {n:,} papers", ""]
        if run.get("synthetic"):
            syn = run["synthetic"]
            check = syn["check"]
            lines += [f"Synthesised by `benchmarks/scale.py`: {syn['source']} {syn['copies']} times, each further "
                      f"copy with {syn['share']:.0%} of the pairs of partner words it holds swapped (version "
                      f"{syn.get('version', 3)}, seed {syn['seed']}); the duplicate rules "
                      f"(`importers.duplicates.compare`) on every record against its copies: {check['same']} same, "
                      f"{check['possible']} possible, {check['distinct']} distinct. The import added "
                      f"{run['import']['added']:,} papers (records of one file are not compared with each other: the "
                      "check is what a second file of the copies would meet).", ""]  # fmt: skip
        lines += [
            "| measure | calm | loaded | reference | goal | met |",
            "|---|---|---|---|---|---|",
            *goal_rows(run),
            "",
            *disk_lines(run),
            "<details><summary>per query (best of the repetitions)</summary>",
            "",
            "| query | hits | core, new query | core, as typed | keystroke → table (calm) | (loaded) |",
            "|---|---|---|---|---|---|",
        ]
        ws = run.get("windows", {})
        keys = {m: ws[m].get("keystroke_per_query_ms", {}) for m in MODES if m in ws}
        for q, v in run["search"]["per_query"].items():
            k = [f"{keys[m][q]:.0f} ms" if q in keys.get(m, {}) else "" for m in MODES]
            lines.append(f"| `{q}` | {v['hits']:,} | {v['new_ms']:.0f} ms | {v['typed_ms']:.0f} ms | {k[0]} | {k[1]} |")
        lines += ["", "</details>", ""]
    lines += growth_lines(runs)
    md.write_text(keep_sections("\n".join(lines) + "\n", md))
    series: dict[str, list[tuple[int, float]]] = {
        "keystroke → table": [], "keystroke → table, loaded": [], "core, new query": [], "core, as typed": [],
        "raw Whoosh, all hits": [], "SQLite FTS5 (reference)": [],
    }  # fmt: skip
    for run in runs:
        n, s, ws = run["papers"], run["search"], run.get("windows", {})
        if "calm" in ws:
            series["keystroke → table"].append((n, ws["calm"]["keystroke_p95_ms"]))
        if "loaded" in ws:
            series["keystroke → table, loaded"].append((n, ws["loaded"]["keystroke_p95_ms"]))
        series["core, new query"].append((n, s["core_new_p95_ms"]))
        series["core, as typed"].append((n, s["core_typed_p95_ms"]))
        series["raw Whoosh, all hits"].append((n, s["raw_whoosh_p95_ms"]))
        series["SQLite FTS5 (reference)"].append((n, s["fts5_p95_ms"]))
    draw({k: v for k, v in series.items() if v}, [(8263, 25.0), (94374, 100.0)], png)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpora", nargs="*", type=Path)
    parser.add_argument("--quick", action="store_true", help="the small PMLR corpus, one repetition")
    parser.add_argument("--reps", type=int, default=None, help="repetitions per query (default 3; 1 with --quick)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--loaded", action="store_true", help="window and start-up with a busy process beside only")
    mode.add_argument("--calm", action="store_true", help="window and start-up calm only")
    parser.add_argument(
        "--scale",
        type=int,
        default=0,
        metavar="COPIES",
        help="also a library of --scale-from COPIES times, perturbed (3: about 283k papers)",
    )
    parser.add_argument(
        "--scale-from",
        type=Path,
        default=DEFAULT_SCALE,
        help="the JSON Lines corpus the scale library is made of (default all venues)",
    )
    parser.add_argument("--no-report", action="store_true", help="print the JSON; write no files")
    args = parser.parse_args()
    reps = args.reps or (1 if args.quick else 3)
    modes = ("loaded",) if args.loaded else ("calm",) if args.calm else MODES
    corpora = args.corpora or (
        [SHARED / "pmlr_colt2025_uai2025_l4dc2026.jsonl"]
        if args.quick
        else [SHARED / "neurips_1987_2018.jsonl.gz", SHARED / "paperlists_all_venues.jsonl.xz"]
    )
    missing = [c for c in [*corpora, *([args.scale_from] if args.scale else [])] if not c.exists()]
    if missing:
        print(f"benchmarks: corpus not found: {', '.join(map(str, missing))}", file=sys.stderr)
        return 0 if args.quick else 1  # CI without ../shared: nothing to measure, nothing broken
    if args.scale == 1 or args.scale < 0:
        parser.error("--scale needs 2 or more copies")
    small = SHARED / "pmlr_colt2025_uai2025_l4dc2026.jsonl"

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    started = time.perf_counter()
    compile_bytecode()
    runs = [bench_bundled(reps)]
    for corpus in corpora:
        runs.append(bench_corpus(corpus, reps, small if small.exists() else None, modes, log))
    if args.scale:
        big = scale.synthesise(args.scale_from, args.scale, log=log)
        check = scale.distinct_check(args.scale_from, args.scale, every=1)  # every record against its copies
        log(f"  the duplicate rules on a sample of the copies: {check}")
        label = f"{args.scale_from.name.split('.')[0]} ×{args.scale} (synthetic)"
        run = bench_corpus(big, reps, small if small.exists() else None, modes, log, naive=False, label=label)
        run["synthetic"] = {"source": args.scale_from.name, "copies": args.scale, "seed": scale.SEED,
                            "version": scale.VERSION, "share": scale.SHARE, "every": 1, "check": check}  # fmt: skip
        runs.append(run)
    flags = [f"--{name}" for name in ("quick", "loaded", "calm") if getattr(args, name)]
    if args.scale:
        flags.append(f"--scale {args.scale}")
        if args.scale_from != DEFAULT_SCALE:
            flags.append(f"--scale-from {args.scale_from}")
    suffix = "".join(f"-{f.split()[0].lstrip('-')}" for f in flags if not f.startswith("--scale-from"))
    results = {
        "date": date.today().isoformat(),
        "name": date.today().isoformat() + suffix,
        "quick": args.quick,
        "flags": flags,
        "modes": list(modes),
        "reps": reps,
        "minutes": round((time.perf_counter() - started) / 60, 1),
        "machine": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
            "load_average": os.getloadavg(),
        },
        "runs": runs,
    }
    results["growth"] = growth(runs)
    if args.no_report:
        print(json.dumps(results, indent=2))
        return 0
    out = ROOT / "benchmarks" / "results" / f"{results['name']}.json"
    out.write_text(json.dumps(results, indent=2) + "\n")
    if not args.quick:
        write_report(results, ROOT / "docs" / "performance.md", ROOT / "docs" / "performance.png")
        log(f"wrote {out}, docs/performance.md and docs/performance.png ({results['minutes']} minutes)")
    else:
        folder = Path(tempfile.mkdtemp(prefix="rl-report-"))
        write_report(results, folder / "performance.md", folder / "performance.png")
        log(f"wrote {out}; the report in {folder} ({results['minutes']} minutes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
