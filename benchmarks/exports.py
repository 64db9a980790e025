"""Rendering hostile text and exporting 8k papers, side by side with another revision.

    .venv/bin/python -m benchmarks.exports                  # this tree alone
    .venv/bin/python -m benchmarks.exports --against REV    # and the same probes on REV (git archive), side by side

Each probe runs in a fresh process (peak memory is its own) with a time limit; a probe over the limit is
reported as such. Rendering: markup.to_html of the text and Qt's layout of it in a 700-pixel QTextBrowser (what
the detail pane does), markup.truncated_html (what it does past DISPLAY_LIMIT), markup.to_plain (what an
import does), and the CLI's show. Exports: every format of NeurIPS 1987–2018 (8,263 papers), best of three.
On a shared machine only the ratios within one run mean something.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("READINGLIST_SHARED", ROOT.parent / "shared")) / "corpora" / "neurips_1987_2018.jsonl.gz"

TEXTS = {  # name → (kind, characters)
    "token 100k": ("token", 100_000),
    "token 400k": ("token", 400_000),
    "token 4M": ("token", 4_000_000),
    "prose 50MB": ("prose", 50_000_000),
    "$a$a… 4M": ("dollar", 4_000_000),
}
WHAT = ("html", "detail", "plain", "show")

_RENDER_PROBE = r"""
import json, random, resource, sys, time
kind, n, what = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if kind == "token":
    s = "a" * n
elif kind == "dollar":
    s = "$a" * (n // 2)
else:
    random.seed(1)
    words = "the of model learning we show that a neural network training data results in".split()
    parts, size = [], 0
    while size < n:
        w = random.choice(words); parts.append(w); size += len(w) + 1
    s = " ".join(parts)
from readinglist import markup
from readinglist.cli import show_paper
from readinglist.papers import Paper
if what in ("html", "detail"):
    from PySide6.QtWidgets import QApplication, QTextBrowser
    app = QApplication([])
    b = QTextBrowser(); b.resize(700, 800); b.show(); app.processEvents()
    markup.warm()
t = time.perf_counter()  # from here: the work itself, not Qt's or pylatexenc's start-up
if what == "plain":
    markup.to_plain(s)
elif what == "show":
    show_paper(Paper(1, "abc", "T", "T", "T", None, s, "", [], "", None, "", [], "unread", ""))
else:
    # before truncated_html the detail pane rendered everything
    cut = what == "detail" and hasattr(markup, "truncated_html")
    html = markup.truncated_html(s)[0] if cut else markup.to_html(s)
    b.setHtml(html); b.document().size(); app.processEvents()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"s": time.perf_counter() - t, "peak_mb": peak}))
"""

_EXPORT_PROBE = r"""
import json, sys, time
from pathlib import Path
from readinglist.library import Library
from readinglist.export import ExportOptions, render
from readinglist.papers import EXPORT_FORMATS
lib = Library.open(Path(sys.argv[1]), seed=False)
if not lib.search("").ids:
    lib.import_files([Path(sys.argv[2])])
papers = lib.papers(lib.search("").ids)
out = {}
for name in EXPORT_FORMATS:
    for abstracts in ((False, True) if name == "markdown" else (False,)):
        times = []
        for _ in range(3):
            t = time.perf_counter()
            render(papers, ExportOptions(format=name, abstracts=abstracts))
            times.append(time.perf_counter() - t)
        out[name + (" + abstracts" if abstracts else "")] = min(times)
lib.close()
print(json.dumps(out))
"""


def run_probe(tree: Path, code: str, args: list[str], timeout: float) -> dict | None:
    env = dict(os.environ, PYTHONPATH=str(tree), QT_QPA_PLATFORM="offscreen")
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, timeout=timeout, cwd=tree
        )
    except subprocess.TimeoutExpired:
        return None
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if lines else {"error": done.stderr.strip().splitlines()[-1:]}


def archive(rev: str, into: Path) -> Path:
    tar = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=tar, check=True)
    return into


def cell(result: dict | None, timeout: float) -> str:
    if result is None:
        return f"> {timeout:.0f} s"
    if "error" in result:
        return "failed"
    return f"{result['s']:.2f} s, {result['peak_mb']:.0f} MB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", metavar="REV", help="also run the probes on this git revision")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per rendering probe (default 120)")
    parser.add_argument("--skip-export", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="readinglist-bench-") as tmp:
        trees = {"this tree": ROOT}
        if args.against:
            (Path(tmp) / "against").mkdir()
            trees[args.against] = archive(args.against, Path(tmp) / "against")
        print("| text | what | " + " | ".join(trees) + " |")
        print("|---|---|" + "---|" * len(trees))
        for label, (kind, n) in TEXTS.items():
            for what in WHAT:
                cells = [cell(run_probe(t, _RENDER_PROBE, [kind, str(n), what], args.timeout), args.timeout) for t in
                         trees.values()]  # fmt: skip
                print(f"| {label} | {what} | " + " | ".join(cells) + " |", flush=True)
        if args.skip_export or not CORPUS.exists():
            return 0
        results = {}
        for name, tree in trees.items():
            results[name] = run_probe(tree, _EXPORT_PROBE, [str(Path(tmp) / f"lib-{len(results)}"), str(CORPUS)], 1800)
        formats = sorted({f for r in results.values() if r and "error" not in r for f in r})
        print("\n| export of 8,263 papers | " + " | ".join(trees) + " |")
        print("|---|" + "---|" * len(trees))
        for f in formats:
            row = [f"{r[f]:.2f} s" if r and f in r else "—" for r in results.values()]
            print(f"| {f} | " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
