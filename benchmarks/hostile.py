"""The hostile-input suite: `python -m benchmarks.hostile [--only NAME…] [--cap-mb N] [--timeout S]`.

Every case is a file a hostile or careless source could hand a reader: the decompression, line, macro and
nesting bombs of issue 13, files over the limits, and fuzzed copies of the real corpora (truncated, bytes
flipped, garbage lines, wrong encodings). Each is imported by `readinglist import` in its own process into
a copy of a small library with annotations, and the table says: peak memory (the process's max RSS, from
wait4), seconds to the end, the message, and whether the library is unchanged (database dump and index files,
byte for byte) — a refused file must change nothing. An imported one is marked "imported".

Files are generated, never checked in: the large ones (up to 4 GB decompressed, 0.3–250 MB on disk) are
kept in $READINGLIST_HOSTILE_DIR (default: the temp dir's readinglist-hostile/) and reused by later runs.
Each child runs with an address-space cap (--cap-mb, default 4096) and a timeout (default 120 s), so that
old code (`--pythonpath` pointing at another checkout) can be measured against the same cases.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import json
import lzma
import os
import random
import re
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("READINGLIST_SHARED", ROOT.parent / "shared")) / "corpora"
CACHE = Path(os.environ.get("READINGLIST_HOSTILE_DIR", Path(tempfile.gettempdir()) / "readinglist-hostile"))
VERSION = "3"  # bump when a generator changes, so cached files are made again
MB = 1024 * 1024
GOAL_MB, GOAL_S = 400, 10


# ---- generators ------------------------------------------------------------------------------------------


def _write_compressed(path: Path, kind: str, pieces: Callable[[], object], level: int = 6) -> None:
    """Write what `pieces()` yields (bytes), compressed, without holding it."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    if kind == "gz":
        comp = zlib.compressobj(level, zlib.DEFLATED, 31)
    elif kind == "xz":
        comp = lzma.LZMACompressor(preset=0)
    else:
        comp = None
    with open(tmp, "wb") as fh:
        for piece in pieces():  # type: ignore[attr-defined]
            fh.write(comp.compress(piece) if comp else piece)
        if comp:
            fh.write(comp.flush())
    tmp.rename(path)


def _repeat(prefix: bytes, unit: bytes, total: int, suffix: bytes, block: int = 16 * MB):
    def gen():
        yield prefix
        chunk = unit * (block // len(unit))
        left = total
        while left > 0:
            piece = chunk[: min(left, len(chunk))]
            left -= len(piece)
            yield piece
        yield suffix

    return gen


def gen_long_line(size: int, kind: str) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        _write_compressed(path, kind, _repeat(b'{"title": "x", "abstract": "', b"a", size, b'"}\n'), level=9)

    return make


def gen_tiny_lines(n: int) -> Callable[[Path], None]:
    line = b'{"title": "a", "abstract": "b"}\n'

    def make(path: Path) -> None:
        _write_compressed(path, "gz", _repeat(b"", line, n * len(line), b""), level=9)

    return make


def gen_million_objects(path: Path) -> None:
    with open(path, "w") as fh:
        fh.write("[")
        fh.write(",".join(f'{{"title":"p{i}"}}' for i in range(1_000_000)))
        fh.write("]")


def gen_sparse(size: int) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        with open(path, "wb") as fh:
            fh.truncate(size)

    return make


def _real_looking_lines(total: int, seed: int = 1):
    """JSON Lines of ~2 KB records of random words: compresses ~3:1 like real abstracts."""
    rnd = random.Random(seed)
    words = [w for w in re.findall(r"[a-z]{4,}", (ROOT / "corpus" / "icml2026.txt").read_text().lower())]
    records = []
    for i in range(2000):
        abstract = " ".join(rnd.choices(words, k=300))
        records.append(json.dumps({"title": f"Paper {i} " + " ".join(rnd.choices(words, k=8)), "abstract": abstract}))
    block = ("\n".join(records) + "\n").encode()

    def gen():
        left = total
        while left > 0:
            yield block[: min(left, len(block))]
            left -= len(block)

    return gen


def gen_big_gz(total: int, members: int) -> Callable[[Path], None]:
    """A gzip of real-looking records; with two members the trailer declares only the last, small one."""

    def make(path: Path) -> None:
        tmp = path.with_suffix(".tmp")
        with open(tmp, "wb") as fh:
            comp = zlib.compressobj(1, zlib.DEFLATED, 31)
            for piece in _real_looking_lines(total)():
                fh.write(comp.compress(piece))
            fh.write(comp.flush())
            if members == 2:
                fh.write(gzip.compress(b'{"title": "last"}\n'))
        tmp.rename(path)

    return make


def gen_nested_jsonl(depth: int) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        path.write_text('{"title": "ok"}\n' + '{"title": "deep", "x": ' + "[" * depth + "]" * depth + "}\n")

    return make


def gen_nested_json(depth: int) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        path.write_text('[{"title": "ok"}, {"title": "deep", "x": ' + '{"a": ' * depth + "1" + "}" * depth + "}]")

    return make


def gen_bib_doubling(path: Path) -> None:
    lines = ['@string{m0 = "ab"}']
    lines += [f"@string{{m{i} = m{i - 1} # m{i - 1}}}" for i in range(1, 40)]
    lines.append("@article{k, title = {Bomb}, abstract = m39}")
    path.write_text("\n".join(lines) + "\n")


def _doubling(n: int) -> list[str]:
    """a = 8 characters, b = a # a, … : the n-th macro holds 8·2^n characters."""
    return ['@string{a = "xxxxxxxx"}'] + [f"@string{{{chr(98 + i)} = {chr(97 + i)} # {chr(97 + i)}}}" for i in range(n)]


def gen_bib_small(path: Path) -> None:
    """A few hundred bytes: 14 doublings (131,072 characters), then a macro of 8 of those, then an abstract
    of 128 of that: 134 M characters."""
    lines = [*_doubling(14), f"@string{{z = {' # '.join(['o'] * 8)}}}"]
    lines.append(f"@article{{k, title = {{T}}, abstract = {' # '.join(['z'] * 128)}}}")
    path.write_text("\n".join(lines) + "\n")


def gen_bib_abstract(path: Path) -> None:
    """Every macro small enough; the abstract, 1,024 copies of the largest, is 134 M characters."""
    lines = [*_doubling(14), f"@article{{k, title = {{T}}, abstract = {' # '.join(['o'] * 1024)}}}"]
    path.write_text("\n".join(lines) + "\n")


def gen_bib_chain(n: int) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        lines = ['@string{s0 = "x"}'] + [f'@string{{s{i} = s{i - 1} # "x"}}' for i in range(1, n)]
        lines.append(f"@article{{k, title = {{T}}, abstract = s{n - 1}}}")
        path.write_text("\n".join(lines) + "\n")

    return make


def gen_xz_dictionary(path: Path) -> None:
    """An xz stream whose block header asks for a 4 GiB dictionary (its CRC fixed up)."""
    data = bytearray(lzma.compress(b'{"title": "x"}\n' * 100, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32))
    start = 12
    size = (data[start] + 1) * 4
    header = data[start : start + size]
    assert header[1] == 0 and header[2] == 0x21 and header[3] == 1, "one LZMA2 filter, no size fields"
    header[4] = 40  # dictionary 4 GiB - 1
    header[-4:] = zlib.crc32(bytes(header[:-4])).to_bytes(4, "little")
    data[start : start + size] = header
    path.write_bytes(bytes(data))


def gen_csv_unclosed(path: Path) -> None:
    with open(path, "w") as fh:
        fh.write('title,abstract\nA,"an abstract that never closes\n')
        for _ in range(200_000):
            fh.write("lorem ipsum dolor sit amet, consectetur adipiscing elit sed do eiusmod tempor\n")


def gen_text(text: str) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        path.write_text(text)

    return make


def gen_bytes(data: bytes) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        path.write_bytes(data)

    return make


def gen_bib_big_entry(path: Path) -> None:
    path.write_text("@article{big,\n title = {Big},\n abstract = {" + "word " * 1_000_000 + "}\n}\n")


def gen_seed_big_paragraph(path: Path) -> None:
    path.write_text("ICML 2026 Papers\n\n" + "word\n" * 500_000 + "\n")


def gen_blank_lines(path: Path) -> None:
    with open(path, "wb") as fh:
        fh.write(b'{"title": "a"}\n')
        for _ in range(20):
            fh.write(b"\n" * MB)


# ---- fuzzed real corpora ---------------------------------------------------------------------------------


def _raw(path: Path) -> tuple[bytes, str]:
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        return gzip.decompress(data), "gz"
    if data[:6] == b"\xfd7zXZ\x00":
        return lzma.decompress(data), "xz"
    return data, ""


def _pack(data: bytes, kind: str) -> bytes:
    return gzip.compress(data, 6) if kind == "gz" else lzma.compress(data) if kind == "xz" else data


def fuzz(source: str, how: str, seed: int) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        rnd = random.Random(seed)
        text, kind = _raw(SHARED / source)
        if how == "truncate-text":
            out = _pack(text[: rnd.randrange(len(text) // 4, len(text))], kind)
        elif how == "truncate-compressed":
            packed = (SHARED / source).read_bytes()
            out = packed[: rnd.randrange(len(packed) // 4, len(packed))]
        elif how == "flip-bytes":
            data = bytearray(text)
            for _ in range(20):
                data[rnd.randrange(len(data))] = rnd.randrange(256)
            out = _pack(bytes(data), kind)
        elif how == "flip-compressed":
            data = bytearray((SHARED / source).read_bytes())
            for _ in range(5):
                data[rnd.randrange(20, len(data))] ^= 1 << rnd.randrange(8)
            out = bytes(data)
        elif how == "garbage-lines":
            lines = text.split(b"\n")
            for _ in range(10):
                junk = bytes(rnd.randrange(32, 256) for _ in range(rnd.randrange(1, 200)))
                lines.insert(rnd.randrange(len(lines)), rnd.choice([junk, b"}}}{{{", b"@article{", b'{"title": ']))
            out = _pack(b"\n".join(lines), kind)
        elif how == "utf16":
            out = _pack(text.decode("utf-8", "replace").encode("utf-16"), kind)
        elif how == "utf16-no-bom":
            out = _pack(text.decode("utf-8", "replace").encode("utf-16-le"), kind)
        elif how == "cp1252":
            out = _pack(text.decode("utf-8", "replace").encode("cp1252", "replace"), kind)
        elif how == "mojibake":
            out = _pack(text.decode("utf-8", "replace").encode("utf-8").decode("latin-1").encode("utf-8"), kind)
        elif how == "shift-jis":
            out = _pack(text.decode("utf-8", "replace").encode("shift_jis", "replace"), kind)
        else:
            raise ValueError(how)
        path.write_bytes(out)

    return make


@dataclass
class Case:
    name: str
    file: str  # the file name it is imported as (its extension chooses the format)
    make: Callable[[Path], None]
    what: str
    bomb: bool = True  # must be refused


def cases() -> list[Case]:
    g = 1024**3
    out = [
        Case("gz-4g-line", "line4g.jsonl.gz", gen_long_line(4 * g, "gz"), "4 MB .jsonl.gz holding one 4 GB line"),
        Case("xz-4g-line", "line4g.jsonl.xz", gen_long_line(4 * g, "xz"), "0.6 MB .jsonl.xz holding one 4 GB line"),
        Case("gz-1g-line", "line1g.jsonl.gz", gen_long_line(g, "gz"), "1 MB .gz with a 1 GB line"),
        Case("gz-71m-lines", "tiny.jsonl.gz", gen_tiny_lines(71_000_000), "2 MB .gz of 71 M tiny records"),
        Case("json-1m-objects", "million.json", gen_million_objects, "20 MB JSON array of 1 M tiny objects"),
        Case("json-3g-sparse", "big.json", gen_sparse(3 * g), "3 GB .json (sparse file)"),
        Case("bib-3g-sparse", "big.bib", gen_sparse(3 * g), "3 GB .bib (sparse file)"),
        Case("jsonl-600m-gz", "big.jsonl.gz", gen_big_gz(600 * MB, 1), "600 MB of real-looking records, gzip"),
        Case(
            "jsonl-600m-gz-2m",
            "big2.jsonl.gz",
            gen_big_gz(600 * MB, 2),
            "the same in two gzip members (the trailer declares 18 bytes)",
        ),
        Case("jsonl-nested-100k", "nested.jsonl", gen_nested_jsonl(100_000), ".jsonl line nested 100,000 deep"),
        Case("jsonl-nested-40", "nested40.jsonl", gen_nested_jsonl(40), ".jsonl line nested 40 deep"),
        Case("json-nested-100k", "nested.json", gen_nested_json(100_000), ".json element nested 100,000 deep"),
        Case("bib-doubling-40", "doubling.bib", gen_bib_doubling, "1 KB: 40 doubling @string macros"),
        Case("bib-small-134m", "small.bib", gen_bib_small, "under 1 KB expanding to 134 M characters"),
        Case("bib-abstract-134m", "abstract.bib", gen_bib_abstract, "an abstract of 1,024 macros: 134 M characters"),
        Case("bib-chain-100k", "chain.bib", gen_bib_chain(100_000), "3 MB: a chain of 100k macros"),
        Case("xz-4g-dictionary", "dict.jsonl.xz", gen_xz_dictionary, "xz asking for a 4 GiB dictionary"),
        Case("csv-unclosed-quote", "open.csv", gen_csv_unclosed, "16 MB CSV with a quote that never closes"),
        Case("bib-5mb-entry", "entry.bib", gen_bib_big_entry, "one 5 MB BibTeX entry"),
        Case("seed-2mb-paragraph", "para.txt", gen_seed_big_paragraph, "seed text, one 2.5 MB paragraph"),
        Case(
            "jsonl-300k-field",
            "field.jsonl",
            gen_text(json.dumps({"title": "t", "abstract": "word " * 60_000}) + "\n"),
            "an abstract of 300,000 characters",
        ),
        Case("jsonl-20m-blank", "blank.jsonl", gen_blank_lines, "20 M blank lines"),
        Case(
            "json-huge-int", "int.json", gen_text('[{"title": "t", "year": ' + "9" * 100_000 + "}]"), "100k-digit int"
        ),
        Case("binary", "random.jsonl", gen_bytes(random.Random(3).randbytes(2 * MB)), "2 MB of random bytes"),
        Case(
            "gz-of-gz", "double.jsonl.gz", gen_bytes(gzip.compress(gzip.compress(b'{"title":"a"}\n' * 9))), "gz of gz"
        ),
        Case(
            "gz-trailing-junk",
            "junk.jsonl.gz",
            gen_bytes(gzip.compress(b'{"title": "a"}\n') + b"JUNK" * 100),
            "data after the gzip stream",
        ),
    ]
    sources = {
        "pmlr.jsonl": "pmlr_colt2025_uai2025_l4dc2026.jsonl",
        "neurips.jsonl.gz": "neurips_1987_2018.jsonl.gz",
        "nips2018.json.gz": "originals/paperlists_nips2018.json.gz",
        "iclr.tsv.gz": "originals/iclr2021-openreviewdata/paperlist.tsv.gz",
        "colt.bib": "bib/pmlr/pmlr-v291-colt2025.bib",
        "papers3.bib.gz": "bib/zotero-bbt-fixtures/papers3_library_issue1296.bib.gz",
        "biblatex.bib": "bib/biblatex/biblatex-examples.bib",
    }
    hows = ["truncate-text", "flip-bytes", "garbage-lines", "utf16", "utf16-no-bom", "cp1252", "mojibake", "shift-jis"]
    for seed, (name, source) in enumerate(sources.items()):
        if not (SHARED / source).exists():
            continue
        for how in hows + (["truncate-compressed", "flip-compressed"] if name.endswith(".gz") else []):
            out.append(Case(f"fuzz-{name}-{how}", f"{how}-{name}", fuzz(source, how, seed), f"{source}: {how}", False))
    return out


# ---- running -----------------------------------------------------------------------------------------------


def _digest(data_dir: Path) -> str:
    """The library's state: its database dumped (every row) and its index files, byte for byte."""
    h = hashlib.sha1()
    db = sqlite3.connect(f"file:{data_dir / 'library.db'}?mode=ro", uri=True)
    for line in db.iterdump():
        h.update(line.encode())
    db.close()
    for f in sorted((data_dir / "index").iterdir()):
        if f.is_file() and "LOCK" not in f.name.upper():  # not a killed writer's temporary folder
            h.update(f.name.encode())
            h.update(f.read_bytes())
    return h.hexdigest()


def _env(pythonpath: str | None) -> dict[str, str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env["PYTHONPATH"] = pythonpath or str(ROOT)
    return env


def _baseline(work: Path, pythonpath: str | None) -> Path:
    """A small library with annotations: the PMLR file (517 papers) or the bundled corpus, one paper tagged,
    noted and read."""
    base = work / "baseline"
    env = _env(pythonpath)
    cli = [sys.executable, "-m", "readinglist", "--data-dir", str(base)]
    pmlr = SHARED / "pmlr_colt2025_uai2025_l4dc2026.jsonl"
    run = {"check": True, "env": env, "capture_output": True, "cwd": work}
    if pmlr.exists():
        subprocess.run([*cli, "import", str(pmlr)], **run)  # type: ignore[call-overload]
    listing = subprocess.run([*cli, "list", "--json"], text=True, **run).stdout  # type: ignore[call-overload]
    uid = json.loads(listing)[0]["id"]
    for args in (["tag", uid, "hostile"], ["note", uid, "--set", "do not lose me"], ["mark", uid, "read"]):
        subprocess.run([*cli, *args], **run)  # type: ignore[call-overload]
    return base


def _limit(cap_mb: int) -> Callable[[], None]:
    def set_limits() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap_mb * MB, cap_mb * MB))

    return set_limits


@dataclass
class Result:
    case: Case
    peak_mb: float
    seconds: float
    cpu: float  # user + system seconds: what the machine's other load does not inflate
    message: str
    unchanged: str
    ok: bool


def run_case(case: Case, path: Path, base: Path, work: Path, args: argparse.Namespace) -> Result:
    data = work / "lib"
    if data.exists():
        shutil.rmtree(data)
    shutil.copytree(base, data)
    before = _digest(data)
    cmd = [sys.executable, "-m", "readinglist", "--data-dir", str(data), "import", str(path)]
    t = time.perf_counter()
    proc = subprocess.Popen(
        cmd,
        env=_env(args.pythonpath),
        cwd=work,  # not the checkout: `python -m` would import the checkout before PYTHONPATH
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_limit(args.cap_mb),
        start_new_session=True,  # its own process group: a timeout ends its index workers too
    )
    timed_out = False
    try:
        out, err = proc.communicate(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        timed_out = True
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)  # whatever it left behind
    seconds = time.perf_counter() - t
    peak = _peak.get(proc.pid, 0.0)
    cpu = _cpu.get(proc.pid, 0.0)
    stderr = err.decode("utf-8", "replace").strip()
    stdout = out.decode("utf-8", "replace").strip()
    lines = [line for line in stderr.splitlines() if line.strip()]
    if timed_out:
        message = f"(killed after {args.timeout} s)"
    elif proc.returncode == 0:
        message = stdout.splitlines()[-1] if stdout else "(no output)"
        warnings = [line for line in lines if "warning" in line]
        if warnings:
            message += f" ({len(warnings)} warnings)"
    else:
        message = lines[-1] if lines else f"(exit {proc.returncode}, no message)"
    imported = proc.returncode == 0 and not timed_out
    unchanged = "imported" if imported else ("yes" if _digest(data) == before else "NO")
    clear = (
        not timed_out
        and "unexpected error" not in stderr
        and "Traceback" not in stderr
        and (imported or (message.startswith("readinglist: cannot import") and path.name in message))
    )
    fast = imported or seconds <= GOAL_S  # the time goal is the time to the error
    ok = clear and unchanged != "NO" and fast and peak <= GOAL_MB and (not case.bomb or not imported)
    return Result(case, peak, seconds, cpu, message, unchanged, ok)


_peak: dict[int, float] = {}
_cpu: dict[int, float] = {}


def _install_peak_tracking() -> None:
    """Popen reaps its child with waitpid; take the rusage (max RSS) from wait4 instead."""

    def waitpid(pid: int, options: int) -> tuple[int, int]:
        got, status, usage = os.wait4(pid, options)
        if got:
            _peak[got] = usage.ru_maxrss / 1024
            _cpu[got] = usage.ru_utime + usage.ru_stime
        return got, status

    os.waitpid = waitpid  # type: ignore[assignment]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="case names (or prefixes) to run")
    parser.add_argument("--cap-mb", type=int, default=4096, help="address-space cap of each import process")
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("--pythonpath", help="run another checkout's readinglist (for before/after)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    _install_peak_tracking()
    CACHE.mkdir(parents=True, exist_ok=True)
    selected = [c for c in cases() if not args.only or any(c.name.startswith(o) for o in args.only)]
    results = []
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        work = Path(tmp)
        base = _baseline(work, args.pythonpath)
        code = subprocess.run(
            [sys.executable, "-c", "import readinglist.importing as m; print(m.__file__)"],
            env=_env(args.pythonpath), cwd=work, capture_output=True, text=True,
        ).stdout.strip()  # fmt: skip
        print(f"code: {code}")
        print(f"{'case':32} {'peak MB':>8} {'s':>6} {'cpu s':>6}  {'unchanged':9}  message", flush=True)
        for case in selected:
            path = CACHE / f"v{VERSION}" / case.name / case.file
            if not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                t = time.perf_counter()
                case.make(path)
                print(f"  (made {case.file}: {path.stat().st_size / MB:.1f} MB in {time.perf_counter() - t:.0f} s)")
            r = run_case(case, path, base, work, args)
            results.append(r)
            mark = "" if r.ok else "  ✗"
            line = f"{case.name:32} {r.peak_mb:8.0f} {r.seconds:6.1f} {r.cpu:6.1f}  {r.unchanged:9}  {r.message[:150]}"
            print(line + mark, flush=True)
    bad = [r for r in results if not r.ok]
    print(f"\n{len(results) - len(bad)} of {len(results)} cases met every goal (≤ {GOAL_MB} MB, ≤ {GOAL_S} s, "
          "a clear message naming the file, library unchanged when refused, every bomb refused)")  # fmt: skip
    if args.json:
        rows = [
            {"case": r.case.name, "what": r.case.what, "peak_mb": round(r.peak_mb, 1), "seconds": round(r.seconds, 2)}
            | {"cpu": round(r.cpu, 2), "message": r.message, "unchanged": r.unchanged, "ok": r.ok}
            for r in results
        ]
        args.json.write_text(json.dumps(rows, indent=1))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
