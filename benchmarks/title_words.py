"""The title-word table and its weights: `python -m benchmarks.title_words`.

How likely a word of an abstract is to be a word of its title depends most on the word itself ("propose",
"results", "novel": almost never; "bandit", "learning", "adversarial": often). This counts, over the titled
abstracts of the all-venues file, in how many abstracts each word stands and in how many of those the title
has it too, and writes resources/title_words.tsv (words in at least MIN_ABSTRACTS abstracts; counts, not text).
Left out of the counts: the benchmark's own papers (benchmarks/titles.py HELD_OUT_SLICES) and the development
and validation sets, so that the weights fitted on the development set, the validation check and the
benchmark are all measured on papers the table never saw.

Then it fits, on the development set, the logistic model readinglist/importers/titles/abstract.py uses
(WORTH_WEIGHTS: the word's table rate, how often the abstract uses it, whether the opening or a contribution
sentence has it, whether it is an acronym, where it first stands) and prints the weights with the log-loss on
both sets.
"""

from __future__ import annotations

import math
import re
import sys
from collections import Counter
from collections.abc import Sequence

from benchmarks.titles import (
    DEV_SLICES,
    HELD_OUT_SLICES,
    ROOT,
    SHARED,
    VAL_SLICES,
    Paper,
    all_venues_rows,
    tuning_sets,
)
from readinglist import markup
from readinglist.importers.titles import abstract as reading
from readinglist.importers.titles.abstract import norm
from readinglist.importers.titles.lexicon import ARTICLE_LIKE

TABLE = ROOT / "resources" / "title_words.tsv"
MIN_ABSTRACTS = 30
_WORD = re.compile(r"[^\W_](?:[\w'’\-]*[^\W_])?")


def _keys(text: str) -> set[str]:
    return {norm(w) for w in _WORD.findall(text.lower()) if w not in ARTICLE_LIKE}


def count(rows: list[dict]) -> tuple[int, Counter[str], Counter[str]]:
    skip = HELD_OUT_SLICES | DEV_SLICES | VAL_SLICES
    in_abstract: Counter[str] = Counter()
    in_both: Counter[str] = Counter()
    n = 0
    for r in rows:
        if (r.get("venue"), r.get("year")) in skip or not (r.get("abstract") or "").strip() or not r.get("title"):
            continue
        a, t = _keys(markup.to_plain(r["abstract"])), _keys(markup.title_plain(r["title"]))
        in_abstract.update(a)
        in_both.update(a & t)
        n += 1
    return n, in_abstract, in_both


def write_table(n: int, in_abstract: Counter[str], in_both: Counter[str]) -> int:
    kept = sorted(w for w, c in in_abstract.items() if c >= MIN_ABSTRACTS and "\t" not in w)
    rare_abs = sum(c for w, c in in_abstract.items() if c < MIN_ABSTRACTS)
    rare_both = sum(in_both[w] for w, c in in_abstract.items() if c < MIN_ABSTRACTS)
    lines = [
        f"# title words: in how many of {n:,} titled abstracts (all-venues file, benchmark, development and",
        "# validation papers left out) a word stands, and in how many of those the title has it too;",
        f"# written by benchmarks/title_words.py. Words in fewer than {MIN_ABSTRACTS} abstracts: the line '*'.",
        f"*\t{rare_abs}\t{rare_both}",
    ]
    lines += [f"{w}\t{in_abstract[w]}\t{in_both[w]}" for w in kept]
    TABLE.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(kept)


def examples(papers: Sequence[Paper]) -> tuple[list[list[float]], list[float]]:
    """One row a different word of each abstract: its features (reading.worth_features) and whether the
    title has it."""
    xs, ys = [], []
    for p in papers:
        ab = reading.Abstract.read(p.plain)
        if not len(ab):
            continue
        title = _keys(p.title)
        seen: dict[str, str] = {}
        for w in _WORD.findall(ab.text):
            if w.lower() not in ARTICLE_LIKE:
                seen.setdefault(norm(w), w)
        for k, w in seen.items():
            xs.append(reading.worth_features(ab, k, w))
            ys.append(1.0 if k in title else 0.0)
    return xs, ys


def _solve(m: list[list[float]], v: list[float]) -> list[float]:
    n = len(v)
    a = [[*row, v[i]] for i, row in enumerate(m)]
    for i in range(n):
        piv = max(range(i, n), key=lambda r: abs(a[r][i]))
        a[i], a[piv] = a[piv], a[i]
        for r in range(n):
            if r != i:
                f = a[r][i] / a[i][i]
                for c in range(i, n + 1):
                    a[r][c] -= f * a[i][c]
    return [a[i][n] / a[i][i] for i in range(n)]


def fit(xs: list[list[float]], ys: list[float], iters: int = 12, l2: float = 1e-3) -> list[float]:
    """Logistic regression by Newton's method (a handful of features: no library needed)."""
    d = len(xs[0])
    w = [0.0] * d
    for _ in range(iters):
        g = [0.0] * d
        h = [[0.0] * d for _ in range(d)]
        for x, y in zip(xs, ys, strict=True):
            p = 1 / (1 + math.exp(-sum(a * b for a, b in zip(w, x, strict=True))))
            s = p * (1 - p)
            for i in range(d):
                g[i] += (p - y) * x[i]
                for j in range(i, d):
                    h[i][j] += x[i] * s * x[j]
        for i in range(d):
            g[i] += l2 * w[i]
            h[i][i] += l2
            for j in range(i):
                h[i][j] = h[j][i]
        w = [a - b for a, b in zip(w, _solve(h, g), strict=True)]
    return w


def log_loss(ps: Sequence[float], ys: Sequence[float]) -> float:
    eps = 1e-9
    pairs = zip(ps, ys, strict=True)
    return -sum(y * math.log(max(p, eps)) + (1 - y) * math.log(max(1 - p, eps)) for p, y in pairs) / len(ys)


def main() -> int:
    if not SHARED.exists():
        print(f"no corpora at {SHARED}", file=sys.stderr)
        return 1
    rows = all_venues_rows()
    n, in_abstract, in_both = count(rows)
    kept = write_table(n, in_abstract, in_both)
    print(f"{TABLE.relative_to(ROOT)}: {kept:,} words from {n:,} abstracts")
    reading.reload_title_words()
    sets = tuning_sets(rows)
    dev_x, dev_y = examples(sets["development"])
    val_x, val_y = examples(sets["validation"])
    w = fit(dev_x, dev_y)

    def probs(xs: list[list[float]]) -> list[float]:
        return [1 / (1 + math.exp(-sum(a * b for a, b in zip(w, x, strict=True)))) for x in xs]

    print(f"development: {len(dev_y):,} words; validation: {len(val_y):,}")
    print("WORTH_WEIGHTS = (" + ", ".join(f"{v:.3f}" for v in w) + ")")
    print(f"log-loss development {log_loss(probs(dev_x), dev_y):.4f}, validation {log_loss(probs(val_x), val_y):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
