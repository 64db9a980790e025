"""The title-word table and its weights: `python -m benchmarks.title_words --acl PATH [--commit SHA]`.

How likely a word of an abstract is to be a word of its title depends most on the word itself ("propose",
"results", "novel": almost never; "bandit", "learning", "adversarial": often). This counts, over titled
abstracts, in how many abstracts each word stands and in how many of those the title has it too, and writes
resources/title_words.tsv (words in at least MIN_ABSTRACTS abstracts; counts, not text), which ships.

The counts come from the ACL Anthology's metadata (CC BY 4.0: github.com/acl-org/acl-anthology, its
data/xml/*.xml; the papers of ACL_SINCE on with a title and an English abstract), the one licensed titled
corpus at hand large enough; the corpora of ../shared carry no licence to ship even counts (SOURCES.md). PATH
is a checkout of that repository (or its data/xml folder), read in place and never copied here; its commit is
read with git, or given with --commit, and goes into the table's header for the attribution. Its papers are
none of the benchmark's (NeurIPS 2018, ICLR 2021, PMLR) or of the development and validation sets, so the
weights fitted on the development set, the validation check and the benchmark are all measured on papers the
table never saw.

Then it fits, on the development set, the logistic model readinglist/importers/titles/abstract.py uses
(WORTH_WEIGHTS: the word's table rate, how often the abstract uses it, whether the opening or a contribution
sentence has it, whether it is an acronym, where it first stands) and prints the weights with the log-loss on
both sets.
"""

from __future__ import annotations

import argparse
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from benchmarks.titles import ROOT, SHARED, Paper, all_venues_rows, tuning_sets
from readinglist import markup
from readinglist.importers.titles import abstract as reading
from readinglist.importers.titles.abstract import norm
from readinglist.importers.titles.lexicon import ARTICLE_LIKE

TABLE = ROOT / "resources" / "title_words.tsv"
MIN_ABSTRACTS = 30
_WORD = re.compile(r"[^\W_](?:[\w'’\-]*[^\W_])?")


def _keys(text: str) -> set[str]:
    return {norm(w) for w in _WORD.findall(text.lower()) if w not in ARTICLE_LIKE}


# ---- the ACL Anthology's metadata ------------------------------------------------------------------------

ACL_SINCE = 2010
ACL_LICENCE = "CC BY 4.0"
# An abstract is taken as English when this share of its words or more are these (the Anthology also holds
# French, Chinese and other abstracts, not always marked with <language>).
_ENGLISH = frozenset(str.split("the of and to in a is for we that on with this are by as an our from be"))
ENGLISH_SHARE = 0.15


def _text(el: ET.Element | None) -> str:
    """An element's text with its markup gone: <fixed-case>, <i>, <b>, <url> to their text, <tex-math> to
    $…$ (the markup module decodes it as it does any abstract's LaTeX)."""
    if el is None:
        return ""
    parts = [el.text or ""]
    for child in el:
        inner = _text(child)
        parts.append(f"${inner}$" if child.tag == "tex-math" else inner)
        parts.append(child.tail or "")
    return " ".join("".join(parts).split())


def _english(plain: str) -> bool:
    words = plain.lower().split()
    return bool(words) and sum(w in _ENGLISH for w in words) >= ENGLISH_SHARE * len(words)


def acl_papers(xml_dir: Path, since: int = ACL_SINCE) -> Iterator[tuple[str, str]]:
    """(title, abstract) of each paper of `since` on with both, its abstract English, read from the Anthology's
    data/xml/*.xml (markup stripped; a title seen before, in any case or markup, left out)."""
    seen: set[str] = set()
    for path in sorted(xml_dir.glob("*.xml")):
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError as e:
            print(f"{path.name}: skipped, not well-formed XML ({e})", file=sys.stderr)
            continue
        for volume in root.iter("volume"):
            year = (volume.findtext("meta/year") or "").strip()
            if not year.isdigit() or int(year) < since:
                continue
            for paper in volume.iter("paper"):
                if (paper.findtext("language") or "eng") != "eng":
                    continue
                title, abstract = _text(paper.find("title")), _text(paper.find("abstract"))
                key = " ".join(_WORD.findall(markup.title_plain(title).casefold()))
                if not key or len(abstract.split()) < 20 or key in seen:
                    continue
                seen.add(key)
                yield title, abstract


def acl_rows(xml_dir: Path, since: int = ACL_SINCE) -> Iterator[dict]:
    """The Anthology's papers as the rows `count` takes."""
    for title, abstract in acl_papers(xml_dir, since):
        if _english(markup.to_plain(abstract)):
            yield {"title": title, "abstract": abstract}


def acl_source(path: Path, commit: str | None) -> tuple[Path, str]:
    """The data/xml folder of an Anthology checkout (or that folder itself), and its commit."""
    xml_dir = path / "data" / "xml" if (path / "data" / "xml").is_dir() else path
    if not any(xml_dir.glob("*.xml")):
        raise SystemExit(f"{path}: no data/xml/*.xml here: give a checkout of acl-org/acl-anthology")
    if commit is None:
        r = subprocess.run(["git", "-C", str(xml_dir), "rev-parse", "HEAD"], capture_output=True, text=True)
        if r.returncode:
            raise SystemExit(f"{path}: not a git checkout; say which commit it is with --commit SHA")
        commit = r.stdout.strip()
    return xml_dir, commit


# ---- the table ------------------------------------------------------------------------------------------


def count(rows: Iterable[dict]) -> tuple[int, Counter[str], Counter[str]]:
    """How many titled abstracts, in how many each word stands, and in how many of those the title has it."""
    in_abstract: Counter[str] = Counter()
    in_both: Counter[str] = Counter()
    n = 0
    for r in rows:
        if not (r.get("abstract") or "").strip() or not r.get("title"):
            continue
        a, t = _keys(markup.to_plain(r["abstract"])), _keys(markup.title_plain(r["title"]))
        in_abstract.update(a)
        in_both.update(a & t)
        n += 1
    return n, in_abstract, in_both


def write_table(
    n: int, in_abstract: Counter[str], in_both: Counter[str], source: str, since: int, out: Path = TABLE
) -> int:
    """The table as abstract.py reads it: a header naming its source and licence, the rare words' line, and
    a word a line with its two counts; returns how many words it kept."""
    kept = sorted(w for w, c in in_abstract.items() if c >= MIN_ABSTRACTS and "\t" not in w)
    rare_abs = sum(c for w, c in in_abstract.items() if c < MIN_ABSTRACTS)
    rare_both = sum(in_both[w] for w, c in in_abstract.items() if c < MIN_ABSTRACTS)
    lines = [
        f"# title words: in how many of {n:,} titled English abstracts ({since} on) a word stands, and in how",
        "# many of those the title has it too (light stems; counts only, no text of any paper).",
        f"# Source: {source}.",
        "# Derived from the ACL Anthology's metadata (titles and abstracts), which it publishes under the",
        "# Creative Commons Attribution 4.0 International licence: https://creativecommons.org/licenses/by/4.0/",
        "# Written by benchmarks/title_words.py (python -m benchmarks.title_words --acl PATH); this table is",
        f"# itself shared under {ACL_LICENCE}. Words in fewer than {MIN_ABSTRACTS} abstracts: the line '*'.",
        f"*\t{rare_abs}\t{rare_both}",
    ]
    lines += [f"{w}\t{in_abstract[w]}\t{in_both[w]}" for w in kept]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
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


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.title_words", description=__doc__.split("\n")[0])
    ap.add_argument("--acl", type=Path, help="a checkout of github.com/acl-org/acl-anthology (or its data/xml)")
    ap.add_argument("--commit", help="that checkout's commit, where it is not a git work tree")
    ap.add_argument("--since", type=int, default=ACL_SINCE, help=f"the first year counted ({ACL_SINCE})")
    ap.add_argument("--fit-only", action="store_true", help="keep the table; only refit and print the weights")
    args = ap.parse_args(argv)
    if not SHARED.exists():
        print(f"no corpora at {SHARED} (the development and validation sets fit the weights)", file=sys.stderr)
        return 1
    if not args.fit_only:
        if args.acl is None:
            ap.error("--acl PATH is needed to write the table (or --fit-only)")
        xml_dir, commit = acl_source(args.acl, args.commit)
        source = f"ACL Anthology, acl-org/acl-anthology, commit {commit}, {ACL_LICENCE}"
        n, in_abstract, in_both = count(acl_rows(xml_dir, args.since))
        kept = write_table(n, in_abstract, in_both, source, args.since)
        print(f"{TABLE.relative_to(ROOT)}: {kept:,} words from {n:,} abstracts ({TABLE.stat().st_size:,} bytes)")
        reading.reload_title_words()
    sets = tuning_sets(all_venues_rows())
    dev_x, dev_y = examples(sets["development"])
    val_x, val_y = examples(sets["validation"])
    w = fit(dev_x, dev_y)

    def probs(xs: list[list[float]]) -> list[float]:
        return [1 / (1 + math.exp(-sum(a * b for a, b in zip(w, x, strict=True)))) for x in xs]

    def current(xs: list[list[float]]) -> list[float]:
        return [1 / (1 + math.exp(-sum(a * b for a, b in zip(reading.WORTH_WEIGHTS, x, strict=True)))) for x in xs]

    print(f"development: {len(dev_y):,} words; validation: {len(val_y):,}")
    print("WORTH_WEIGHTS = (" + ", ".join(f"{v:.3f}" for v in w) + ")")
    print(f"log-loss development {log_loss(probs(dev_x), dev_y):.4f}, validation {log_loss(probs(val_x), val_y):.4f}")
    print(f"(the weights in abstract.py: {log_loss(current(dev_x), dev_y):.4f}, {log_loss(current(val_x), val_y):.4f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
