"""Nothing the user does may fail or be lost because of the index (issue 12): the fast cases.

The long ones (kill -9 at 30 random moments, 4 processes × 200 edits, read-only mounts, a full disk) are in
benchmarks/reliability.py. After every case here the index must agree with the database on every tag, state,
note and title (benchmarks/agreement.py), once it has caught up from the journal.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.agreement import check
from benchmarks.reliability import alive, children_of
from readinglist.library import Library
from readinglist.papers import StoreError
from tests.conftest import ROOT, corpus


def cli(data_dir: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "readinglist", "--data-dir", str(data_dir), *args],
                          capture_output=True, text=True, timeout=timeout, env=env)  # fmt: skip


def hold_index_lock(data_dir: Path) -> subprocess.Popen:
    """Another process holds the index's write lock (as a long import or a merge would) until killed."""
    code = (
        "import sys, time; from whoosh.filedb.filestore import FileStorage;"
        f"lock = FileStorage({str(data_dir / 'index')!r}).lock('MAIN_WRITELOCK');"
        "assert lock.acquire(); print('held', flush=True); time.sleep(600)"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def agrees(data_dir: Path) -> None:
    """No lie now, and after the next open has caught up from the journal, no difference at all."""
    before = check(data_dir)
    assert before.ok, before.lies[:5]
    Library.open(data_dir).close()
    after = check(data_dir)
    assert after.ok and not after.behind and not after.journaled, (after.lies[:5], after.behind[:5])


def test_an_edit_is_in_the_journal_until_the_index_has_it(lib, data_dir):
    pid = lib.search("").ids[0]
    lib.add_tags([pid], ["journal"])
    assert lib.store.index_journal() == []  # written at once (no background): cleared by that commit
    lib.updater.writable = False  # an index that cannot take the change just now
    lib.set_state([pid], "read")
    assert [e[0] for e in lib.store.index_journal()] == [pid]
    lib.close()
    agreement = check(data_dir)
    assert agreement.ok and agreement.journaled == {pid}  # behind, and the journal says so
    assert any("state" in d for d in agreement.behind)
    agrees(data_dir)


def test_an_edit_succeeds_while_another_process_writes_the_index(data_dir):
    assert cli(data_dir, "list").returncode == 0
    uid = cli(data_dir, "list").stdout.split()[0]
    holder = hold_index_lock(data_dir)
    try:
        r = cli(data_dir, "tag", uid, "busy-tag")
        assert r.returncode == 0, r.stderr
        assert "busy-tag" in r.stdout and "index is busy" in r.stderr and "Traceback" not in r.stderr
        r = cli(data_dir, "mark", uid, "read")
        assert r.returncode == 0 and "Traceback" not in r.stderr
    finally:
        holder.kill()
        holder.wait()
    r = cli(data_dir, "search", "tag:busy-tag state:read", "--json")
    assert r.returncode == 0 and [p["id"] for p in json.loads(r.stdout)] == [uid]  # caught up before searching
    agrees(data_dir)


def test_a_search_says_what_it_could_not_see_while_the_index_is_held(data_dir, monkeypatch):
    from readinglist.index import background

    monkeypatch.setattr(background, "SEARCH_WAIT", 0.2)
    monkeypatch.setattr(background, "EDIT_WAIT", 0.2)
    lib = Library.open(data_dir)
    pid = lib.search("").ids[0]
    lib.close()
    holder = hold_index_lock(data_dir)
    try:
        lib = Library.open(data_dir)
        lib.add_tags([pid], ["unseen"])
        result = lib.search("tag:unseen")
        assert result.unindexed == 1 and result.ids == []
        lib.close()
    finally:
        holder.kill()
        holder.wait()
    lib = Library.open(data_dir)
    assert lib.search("tag:unseen").ids == [pid]
    lib.close()


def test_concurrent_command_lines_lose_and_fail_nothing(data_dir):
    assert cli(data_dir, "import", str(corpus("pmlr_colt2025_uai2025_l4dc2026.jsonl"))).returncode == 0
    uids = cli(data_dir, "list").stdout.split("\n")
    uids = [line.split()[0] for line in uids if line.strip()][:40]
    script = ROOT / "benchmarks" / "reliability.py"
    procs = [subprocess.Popen([sys.executable, str(script), "edits", str(data_dir), str(seed), "15", *uids],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=dict(os.environ, PYTHONPATH=str(ROOT))) for seed in range(3)]  # fmt: skip
    reports = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
        reports.append(json.loads(out.strip().splitlines()[-1]))
    assert sum(r["failed"] for r in reports) == 0, reports
    assert not any(r["tracebacks"] for r in reports), reports
    expected: dict[str, set[str]] = {}
    for r in reports:
        for uid, tag in r["tagged"]:
            expected.setdefault(uid, set()).add(tag)
    lib = Library.open(data_dir)
    for uid, tags in expected.items():
        pid = lib.resolve(uid)
        paper = lib.paper(pid)
        assert paper is not None and tags <= set(paper.tags)  # every confirmed edit is there
        for tag in tags:
            assert pid in lib.search(f'tag:"{tag}"').ids
    lib.close()
    agrees(data_dir)


def test_imports_from_two_processes_queue_and_say_so(data_dir):
    assert cli(data_dir, "list").returncode == 0
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    first = subprocess.Popen([sys.executable, "-m", "readinglist", "--data-dir", str(data_dir), "import",
                              str(corpus("neurips_1987_2018.jsonl.gz"))], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)  # fmt: skip
    from whoosh.util.filelock import FileLock

    probe = FileLock(str(data_dir / "import.lock"))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and probe.acquire():  # until the first holds the import lock
        probe.release()
        time.sleep(0.02)
    assert first.poll() is None, "the first import ended before the second could start"
    second = cli(data_dir, "import", str(corpus("pmlr_colt2025_uai2025_l4dc2026.jsonl")), timeout=600)
    out, err = first.communicate(timeout=600)
    assert first.returncode == 0 and second.returncode == 0, (err, second.stderr)
    assert "Waiting for another import" in second.stderr and "517 added" in second.stdout
    assert "8,263 added" in out
    assert len(cli(data_dir, "list").stdout.splitlines()) == 19 + 8263 + 517
    agrees(data_dir)


def test_a_killed_import_leaves_no_process_and_no_lock_behind(data_dir):
    assert cli(data_dir, "list").returncode == 0
    uid = cli(data_dir, "list").stdout.split()[0]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "readinglist", "--data-dir", str(data_dir), "import",
                             str(corpus("neurips_1987_2018.jsonl.gz"))], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not children_of(proc.pid):  # Whoosh's indexing workers are up
        time.sleep(0.05)
    workers = children_of(proc.pid)
    assert workers, "the import never started its indexing workers"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(alive(w) for w in workers):
        time.sleep(0.05)
    assert not any(alive(w) for w in workers), "an indexing worker outlived its parent"
    started = time.monotonic()
    r = cli(data_dir, "tag", uid, "after-kill")
    assert r.returncode == 0 and "busy" not in r.stderr, r.stderr
    assert time.monotonic() - started < 60
    r = cli(data_dir, "list")
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 19  # the killed import changed nothing
    agrees(data_dir)


pytestmark_linux = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
test_a_killed_import_leaves_no_process_and_no_lock_behind = pytestmark_linux(
    test_a_killed_import_leaves_no_process_and_no_lock_behind
)


def test_the_writer_process_dies_quietly_with_its_parent(data_dir, tmp_path):
    Library.open(data_dir).close()
    script = tmp_path / "parent.py"
    script.write_text(
        "import os, sys\n"
        "from readinglist.library import Library\n"
        "if __name__ == '__main__':  # the writer process is spawned: it imports this file\n"
        f"    lib = Library.open({str(data_dir)!r})\n"
        "    lib.start_background_indexing()\n"
        "    ids = lib.search('').ids\n"
        "    lib.set_state(ids[:3], 'read')\n"
        "    lib.flush_index()\n"
        "    print(lib.index_writer_pid(), flush=True)\n"
        "    lib.set_state(ids[3:6], 'skimmed')\n"
        "    os._exit(0)  # dies at once, as a killed window would\n"
    )
    err = tmp_path / "stderr.txt"
    with err.open("w") as fh:
        out = subprocess.run([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=fh, text=True,
                             timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT))).stdout  # fmt: skip
    child = int(out.strip())
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and alive(child):
        time.sleep(0.1)
    assert not alive(child)
    time.sleep(0.2)
    assert "Traceback" not in err.read_text()
    agrees(data_dir)


@pytest.mark.parametrize("chunk", [None, 1], ids=["kept-from-the-first-read", "read-again-from-the-file"])
def test_a_title_reused_by_an_unrelated_paper_is_a_new_paper(empty_lib, tmp_path, monkeypatch, chunk):
    if chunk is not None:  # a file over one chunk is read again for the texts and authors a title match needs
        from readinglist import importing

        monkeypatch.setattr(importing, "CHUNK", chunk)
        monkeypatch.setattr(importing, "KEEP_RECORDS", chunk)  # over it: read again
    old = {"title": "Learning to Rank", "abstract": "We rank documents with gradient boosted trees and "
           "listwise losses on web search benchmarks.", "authors": ["Ada Lovelace"]}  # fmt: skip
    other = {"title": "Another Paper", "abstract": "Something else entirely about graphs.", "authors": ["X Y"]}
    f = tmp_path / "list.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in (old, other)) + "\n")
    empty_lib.import_files([f])
    pid = empty_lib.search('title:"learning to rank"').ids[0]
    empty_lib.add_tags([pid], ["mine"])
    empty_lib.set_note(pid, "my note on boosted trees")
    unrelated = {"title": "Learning to Rank", "abstract": "A robot arm learns which grasp to try first from "
                 "tactile feedback in cluttered bins.", "authors": ["Grace Hopper"]}  # fmt: skip
    f.write_text("\n".join(json.dumps(r) for r in (unrelated, other)) + "\n")
    summary = empty_lib.import_files([f])[0]
    assert (summary.added, summary.updated, summary.missing) == (1, 0, 1)
    kept = empty_lib.paper(pid)
    assert kept is not None and kept.tags == ["mine"] and "boosted" in kept.abstract and not kept.in_source
    new = [p for p in empty_lib.papers(empty_lib.search("robot grasp").ids)]
    assert len(new) == 1 and new[0].tags == [] and new[0].note == ""
    # an erratum of the same paper (same authors, most words kept) stays the same paper
    erratum = dict(old, abstract=old["abstract"].replace("web search", "product search"))
    f.write_text("\n".join(json.dumps(r) for r in (erratum, other)) + "\n")
    summary = empty_lib.import_files([f])[0]
    assert summary.updated == 1 and "product search" in (empty_lib.paper(pid) or kept).abstract


def test_a_read_only_library_reads_and_says_why_it_will_not_write(lib, data_dir):
    pid = lib.search("").ids[0]
    lib.add_tags([pid], ["kept"])
    lib.close()
    ro = Library.open(data_dir, read_only=True, read_only_reason="the test says so")
    try:
        assert ro.read_only and ro.search("tag:kept").ids == [pid]
        assert len(ro.search("").ids) == 19
        with pytest.raises(StoreError, match="the test says so"):
            ro.add_tags([pid], ["more"])
    finally:
        ro.close()


def test_a_read_only_library_without_a_usable_index_searches_a_temporary_one(lib, data_dir):
    import shutil

    pid = lib.search("").ids[0]
    lib.add_tags([pid], ["kept"])
    lib.close()
    shutil.rmtree(data_dir / "index")
    messages: list[str] = []
    ro = Library.open(data_dir, read_only=True, notify=messages.append)
    try:
        assert ro.search("tag:kept").ids == [pid]
        assert any("temporary index" in m for m in messages)
        assert not (data_dir / "index").exists()  # nothing was written into the library
    finally:
        ro.close()


def test_a_read_only_mount(lib, data_dir, tmp_path):
    """On a read-only file system every read works and a write names the cause (needs mount: root)."""
    pid = lib.search("").ids[0]
    uid = lib.store.uids([pid])[pid]
    lib.add_tags([pid], ["on-ro"])
    lib.close()
    mnt = tmp_path / "ro"
    mnt.mkdir()
    if subprocess.run(["mount", "--bind", str(data_dir), str(mnt)], capture_output=True).returncode != 0:
        pytest.skip("cannot bind-mount here (not root)")
    try:
        if subprocess.run(["mount", "-o", "remount,bind,ro", str(mnt)], capture_output=True).returncode != 0:
            pytest.skip("cannot remount read-only here")
        for args in (["list"], ["search", "tag:on-ro"], ["show", uid], ["export"]):
            r = cli(mnt, *args)
            assert r.returncode == 0 and "read-only" in r.stderr, (args, r.stderr)
        assert uid in cli(mnt, "search", "tag:on-ro").stdout
        r = cli(mnt, "tag", uid, "x")
        assert r.returncode == 1 and "read-only file system" in r.stderr and "Traceback" not in r.stderr
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


def test_a_full_disk_is_named(tmp_path):
    """Needs a small tmpfs (root); skipped elsewhere. 3 MB: a new library's seeding (20 migrations, each a
    transaction, then the bundled papers and their index) peaks just over 2 MB."""
    small = tmp_path / "small"
    small.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(small)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here (not root)")
    try:
        data = small / "data"
        assert cli(data, "list").returncode == 0
        uid = cli(data, "list").stdout.split()[0]
        with (small / "filler").open("wb", buffering=0) as fh:  # unbuffered: closing has nothing left to fail on
            try:
                while True:
                    fh.write(b"\0" * 65536)
            except OSError:
                pass
        r = cli(data, "note", uid, "--set", "x" * 100_000)
        assert r.returncode == 1 and "full" in r.stderr and "library.db" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr and "unexpected" not in r.stderr
        r = cli(data, "list")  # a full disk still lets the library be read
        assert r.returncode == 0 and uid in r.stdout and "full" in r.stderr
        r = cli(data, "import", str(corpus("pmlr_colt2025_uai2025_l4dc2026.jsonl")))
        assert r.returncode == 1 and "full" in r.stderr and str(data) in r.stderr and "Traceback" not in r.stderr
        assert len(cli(data, "list").stdout.splitlines()) == 19
    finally:
        subprocess.run(["umount", str(small)], capture_output=True)


def _papers_file(path: Path, n: int) -> Path:
    rows = [{"title": f"Killed worker paper {i}", "abstract": f"Abstract {i} about quokka habitats."} for i in range(n)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _kill_index_workers() -> int:
    import multiprocessing

    from readinglist.index.workers import SpawnedSubWriter

    workers = [p for p in multiprocessing.active_children() if isinstance(p, SpawnedSubWriter)]
    for p in workers:
        p.kill()
    return len(workers)


def test_an_import_whose_index_workers_die_fails_cleanly_instead_of_hanging(empty_lib, tmp_path):
    """Whoosh's job queue put waited for ever once both indexing workers were gone (killed, out of memory):
    the import hung, and no cancel could reach it. Now it fails naming why, the library is as it was, and the
    next import takes the index's lock and works."""
    from readinglist.importing import ImportFailure

    killed = []

    def progress(done: int, total: int, message: str) -> None:
        if message.startswith("Importing") and not killed:
            killed.append(_kill_index_workers())

    started = time.monotonic()
    with pytest.raises(ImportFailure, match="writer processes stopped"):
        empty_lib.import_files([_papers_file(tmp_path / "big.jsonl", 5000)], progress=progress)
    assert killed == [2] and time.monotonic() - started < 60
    assert empty_lib.store.count() == 0 and not empty_lib.search("quokka").ids
    empty_lib.import_files([_papers_file(tmp_path / "small.jsonl", 30)])
    assert len(empty_lib.search("quokka").ids) == 30


def test_index_workers_that_die_before_their_segment_leave_the_papers_to_the_journal(empty_lib, tmp_path):
    """Killed after the last papers were handed to them, the workers' segments never come: Whoosh's commit
    gave up after a second and left those papers out of the index for good. Now the import keeps them, says the
    index will catch up, and it does."""

    def progress(done: int, total: int, message: str) -> None:
        if message.startswith("Indexing"):
            _kill_index_workers()

    (summary,) = empty_lib.import_files([_papers_file(tmp_path / "big.jsonl", 2500)], progress=progress)
    assert summary.added == 2500 and any("will catch up" in w for w in summary.warnings)
    empty_lib.flush_index()
    assert len(empty_lib.search("quokka").ids) == 2500
