"""The long reliability cases of issue 12: `python -m benchmarks.reliability [--quick] [--runs N]`.

Each case attacks a library and then checks it: the index must agree with the database on every tag, state,
note and title (benchmarks/agreement.py) — without catching up, except where the journal records what the
index lacks, and with no difference at all after the next open. Reported per case: runs, edits confirmed,
edits lost, edits reported failed (and of those, applied anyway), index lies, tracebacks, orphan processes.

  kill-import     kill -9 of `readinglist import` (8k NeurIPS) at a random moment
  kill-indexing   kill -9 of a window-like process re-indexing 8k papers (mark all read, writer process)
  kill-edits      kill -9 of a stream of edits
  concurrent      4 processes × 200 mixed command-line edits, with an import beside them
  read-only       every command on a read-only bind mount (needs root; skipped otherwise)
  full-disk       imports and edits on a 3 MB tmpfs until it is full (needs root; skipped otherwise)

`python -m benchmarks.reliability edits DIR SEED N UID…` is one editing process (the tests use it too).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("READINGLIST_SHARED", ROOT.parent / "shared")) / "corpora"
NEURIPS = SHARED / "neurips_1987_2018.jsonl.gz"
PMLR = SHARED / "pmlr_colt2025_uai2025_l4dc2026.jsonl"
ENV = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")


def cli(data: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "readinglist", "--data-dir", str(data), *args],
                          capture_output=True, text=True, timeout=timeout, env=ENV)  # fmt: skip


# ---- one editing process -------------------------------------------------------------------------------


def edits(data: Path, seed: int, n: int, uids: list[str]) -> dict:
    """n random command-line edits; what was confirmed, what failed, what printed a traceback."""
    rng = random.Random(seed)
    report: dict = {"confirmed": 0, "failed": 0, "failures": [], "tracebacks": [], "tagged": []}
    for i in range(n):
        uid = rng.choice(uids)
        kind = rng.choice(["tag", "tag", "mark", "note", "title", "search"])
        if kind == "tag":
            tag = f"w{seed}-{i}"
            args = ["tag", uid, tag]
        elif kind == "mark":
            args = ["mark", uid, rng.choice(["read", "skimmed", "unread"])]
        elif kind == "note":
            args = ["note", uid, "--set", f"note {seed} {i} zq{seed}x{i}"]
        elif kind == "title":
            args = ["title", uid, rng.choice(["", f"My title {seed} {i}"])]
        else:
            args = ["search", rng.choice(["learning", "state:read", f"tag:w{seed}-{max(0, i - 1)}"])]
        r = cli(data, *args)
        if "Traceback" in r.stderr or "unexpected error" in r.stderr:
            report["tracebacks"].append(r.stderr[-500:])
        if r.returncode != 0:
            report["failed"] += 1
            report["failures"].append((args, r.stderr.strip()[-300:]))
        elif kind != "search":
            report["confirmed"] += 1
            if kind == "tag":
                report["tagged"].append((uid, tag))
    return report


# ---- checking --------------------------------------------------------------------------------------------


def verify(data: Path) -> dict:
    """Index lies before catching up, then differences after the next open."""
    from benchmarks.agreement import check

    before = check(data)
    r = cli(data, "list")
    after = check(data)
    return {"lies": len(before.lies), "lie_examples": before.lies[:3], "behind": len(before.behind),
            "after_open": len(after.lies) + len(after.behind), "open_ok": r.returncode == 0}  # fmt: skip


def children_of(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry.name))
    return out


def alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        for child in children_of(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


def kill_at_random(cmd: list[str], rng: random.Random, longest: float) -> tuple[list[int], float]:
    """Start `cmd`, kill -9 it at a random moment; returns its descendants alive a few seconds later."""
    proc = subprocess.Popen(cmd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    moment = rng.uniform(0.2, longest)
    deadline = time.monotonic() + moment
    seen: set[int] = set()
    while time.monotonic() < deadline and proc.poll() is None:
        seen.update(descendants(proc.pid))
        time.sleep(0.02)
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    time.sleep(3)
    return [p for p in seen if alive(p)], moment


def fresh_library(base: Path, work: Path) -> Path:
    data = work / f"lib-{time.monotonic_ns()}"
    shutil.copytree(base, data)
    return data


# ---- the cases -------------------------------------------------------------------------------------------


def case_kill_import(base: Path, work: Path, runs: int, rng: random.Random, corpus: Path) -> dict:
    totals = {"runs": 0, "lies": 0, "after_open": 0, "orphans": 0, "unchanged_or_complete": 0}
    for _ in range(runs):
        data = fresh_library(base, work)
        cmd = [sys.executable, "-m", "readinglist", "--data-dir", str(data), "import", str(corpus)]
        orphans, _ = kill_at_random(cmd, rng, 12.0)
        for p in orphans:
            os.kill(p, signal.SIGKILL)
        totals["orphans"] += len(orphans)
        n = len(cli(data, "list").stdout.splitlines())
        totals["unchanged_or_complete"] += n in (19, 19 + 8263)  # all or nothing
        v = verify(data)
        totals["runs"] += 1
        totals["lies"] += v["lies"]
        totals["after_open"] += v["after_open"]
        shutil.rmtree(data, ignore_errors=True)
    return totals


INDEXING = """
import sys
from readinglist.library import Library
if __name__ == "__main__":  # the writer process is spawned: it imports this file
    lib = Library.open(sys.argv[1])
    lib.start_background_indexing()
    lib.sync_index()
    ids = lib.search("").ids
    lib.set_state(ids, sys.argv[2])   # the window's Ctrl+A, r
    lib.add_tags(ids[::7], ["bulk"])
    lib.flush_index()
    lib.close()
"""


def case_kill_indexing(base: Path, work: Path, runs: int, rng: random.Random) -> dict:
    totals = {"runs": 0, "lies": 0, "after_open": 0, "orphans": 0}
    script = work / "indexing.py"
    script.write_text(INDEXING)
    for i in range(runs):
        data = fresh_library(base, work)
        orphans, _ = kill_at_random([sys.executable, str(script), str(data), ["read", "skimmed"][i % 2]], rng, 8.0)
        for p in orphans:
            os.kill(p, signal.SIGKILL)
        totals["orphans"] += len(orphans)
        v = verify(data)
        totals["runs"] += 1
        totals["lies"] += v["lies"]
        totals["after_open"] += v["after_open"]
        shutil.rmtree(data, ignore_errors=True)
    return totals


EDIT_STREAM = """
import sys, random
from readinglist.library import Library
lib = Library.open(sys.argv[1])
ids = lib.search("").ids
rng = random.Random(int(sys.argv[2]))
for i in range(100000):
    pid = rng.choice(ids)
    k = i % 4
    if k == 0: lib.add_tags([pid], [f"s{i}"])
    elif k == 1: lib.set_state([pid], rng.choice(["read", "skimmed", "unread"]))
    elif k == 2: lib.set_note(pid, f"stream note zz{i}")
    else: lib.set_title(pid, f"Stream title {i}" if i % 8 else None)
"""


def case_kill_edits(base: Path, work: Path, runs: int, rng: random.Random) -> dict:
    totals = {"runs": 0, "lies": 0, "after_open": 0, "orphans": 0}
    script = work / "stream.py"
    script.write_text(EDIT_STREAM)
    for i in range(runs):
        data = fresh_library(base, work)
        orphans, _ = kill_at_random([sys.executable, str(script), str(data), str(i)], rng, 6.0)
        totals["orphans"] += len(orphans)
        v = verify(data)
        totals["runs"] += 1
        totals["lies"] += v["lies"]
        totals["after_open"] += v["after_open"]
        shutil.rmtree(data, ignore_errors=True)
    return totals


def case_concurrent(base: Path, work: Path, per_process: int, corpus: Path | None) -> dict:
    data = fresh_library(base, work)
    uids = [line.split()[0] for line in cli(data, "list").stdout.splitlines() if line.strip()][:60]
    procs = [subprocess.Popen([sys.executable, "-m", "benchmarks.reliability", "edits", str(data), str(seed),
                               str(per_process), *uids], cwd=ROOT, env=ENV, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for seed in range(4)]  # fmt: skip
    imp = None
    if corpus is not None:
        imp = subprocess.Popen([sys.executable, "-m", "readinglist", "--data-dir", str(data), "import", str(corpus)],
                               env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    reports = []
    for p in procs:
        out, err = p.communicate(timeout=3600)
        reports.append(json.loads(out.strip().splitlines()[-1]) if p.returncode == 0 else {"crashed": err[-500:]})
    import_ok = None
    if imp is not None:
        out, err = imp.communicate(timeout=3600)
        import_ok = imp.returncode == 0 and "Traceback" not in err
    from readinglist.library import Library

    lib = Library.open(data)
    lost = 0
    for r in reports:
        for uid, tag in r.get("tagged", []):
            paper = lib.paper(lib.resolve(uid))
            lost += paper is None or tag not in paper.tags
    lib.close()
    v = verify(data)
    shutil.rmtree(data, ignore_errors=True)
    return {
        "processes": len(procs), "edits_confirmed": sum(r.get("confirmed", 0) for r in reports),
        "edits_lost": lost, "reported_failed": sum(r.get("failed", 0) for r in reports),
        "failures": [f for r in reports for f in r.get("failures", [])][:5],
        "tracebacks": sum(len(r.get("tracebacks", [])) for r in reports) + sum("crashed" in r for r in reports),
        "import_ok": import_ok, "lies": v["lies"], "after_open": v["after_open"],
    }  # fmt: skip


def case_read_only(base: Path, work: Path) -> dict:
    data = fresh_library(base, work)
    uid = cli(data, "list").stdout.split()[0]
    cli(data, "tag", uid, "ro-check")
    mnt = work / "ro-mount"
    mnt.mkdir(exist_ok=True)
    if subprocess.run(["mount", "--bind", str(data), str(mnt)], capture_output=True).returncode:
        return {"skipped": "cannot bind-mount (not root)"}
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(mnt)], check=True, capture_output=True)
        results = {}
        for args in (["list"], ["search", "tag:ro-check"], ["show", uid], ["export"], ["tag", uid, "x"]):
            r = cli(mnt, *args)
            results[" ".join(args[:1])] = {"rc": r.returncode, "said": r.stderr.strip().splitlines()[-1:],
                                           "traceback": "Traceback" in r.stderr}  # fmt: skip
        return results
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


def case_full_disk(work: Path, corpus: Path) -> dict:
    small = work / "tmpfs"
    small.mkdir(exist_ok=True)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(small)], capture_output=True).returncode:
        return {"skipped": "cannot mount a tmpfs (not root)"}
    try:
        data = small / "data"
        out = {"said": [], "tracebacks": 0}
        steps = [["list"], ["import", str(corpus)], ["import", str(NEURIPS)]]
        uid = None
        for args in steps:
            r = cli(data, *args)
            out["said"].append((args[0], r.returncode, r.stderr.strip().splitlines()[-1:]))
            out["tracebacks"] += "Traceback" in r.stderr or "unexpected error" in r.stderr
            uid = uid or (cli(data, "list").stdout.split() or [None])[0]
        if uid:
            for i in range(40):
                r = cli(data, "note", uid, "--set", "y" * 60_000 + str(i))
                out["tracebacks"] += "Traceback" in r.stderr or "unexpected error" in r.stderr
                if r.returncode:
                    out["said"].append(("note", r.returncode, r.stderr.strip().splitlines()[-1:]))
                    break
        out["verify"] = verify(data)
        return out
    finally:
        subprocess.run(["umount", str(small)], capture_output=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", nargs="*", help="cases to run (default: all), or: edits DIR SEED N UID…")
    parser.add_argument("--quick", action="store_true", help="3 runs per kill case, 30 edits per process")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if args.what[:1] == ["edits"]:
        data, seed, n, *uids = args.what[1:]
        print(json.dumps(edits(Path(data), int(seed), int(n), uids)))
        return 0
    runs = 3 if args.quick else args.runs
    corpus = NEURIPS if NEURIPS.exists() else None
    if corpus is None:
        print("benchmarks.reliability: the NeurIPS corpus is not available; nothing to do", file=sys.stderr)
        return 0
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="rl-reliability-"))
    base = work / "base"
    cli(base, "list")
    cases = args.what or ["kill-import", "kill-indexing", "kill-edits", "concurrent", "read-only", "full-disk"]
    results: dict = {}
    try:
        for name in cases:
            print(f"{name}…", file=sys.stderr, flush=True)
            t = time.perf_counter()
            if name == "kill-import":
                results[name] = case_kill_import(base, work, runs, rng, corpus)
            elif name == "kill-indexing":
                big = work / "big"
                if not big.exists():
                    cli(big, "import", str(corpus))
                results[name] = case_kill_indexing(big, work, runs, rng)
            elif name == "kill-edits":
                results[name] = case_kill_edits(base, work, runs, rng)
            elif name == "concurrent":
                results[name] = case_concurrent(base, work, 30 if args.quick else 200, PMLR if PMLR.exists() else None)
            elif name == "read-only":
                results[name] = case_read_only(base, work)
            elif name == "full-disk":
                results[name] = case_full_disk(work, PMLR if PMLR.exists() else corpus)
            results[name]["seconds"] = round(time.perf_counter() - t, 1)
            print(json.dumps({name: results[name]}, indent=1), file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
