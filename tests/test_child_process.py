"""child_process.run: work in a spawned child, its progress relayed, its errors raised in the caller, a cancel
passed on (the work stops at its next check), a crash reported rather than waited on."""

from __future__ import annotations

import os
import threading

import pytest

from readinglist import child_process
from readinglist.papers import ImportCancelled, ImportFailure, StoreError
from readinglist.priority import NICER_BY


def counted(n: int, progress=None, cancel=None) -> list[int]:
    for i in range(n):
        progress(i + 1, n, f"step {i + 1}")
    return [os.getpid(), n]


def failing(path: str, progress=None, cancel=None) -> None:
    raise ImportFailure(path, "not a bibliography", line=7)


def crashing(progress=None, cancel=None) -> None:
    os._exit(3)


def waiting(progress=None, cancel=None) -> None:
    progress(0, 0, "started")
    while not cancel.wait(0.05):
        pass
    raise ImportCancelled("stopped at the next check")


def working(progress=None, cancel=None) -> None:
    """Work that reports now and then and stops at a cancel, as an import does."""
    for i in range(1200):
        progress(i, 1200, str(os.getpid()))
        if cancel.wait(0.05):
            raise ImportCancelled("stopped at the next check")


def priority(progress=None, cancel=None) -> int:
    return os.getpriority(os.PRIO_PROCESS, 0)


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="niceness is POSIX's")
def test_a_nicer_child_runs_at_a_lower_priority_and_the_caller_does_not():
    """Background work (topics, the suggestions' features) gives the window's thread the CPU first."""
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    if mine + NICER_BY > 19:
        pytest.skip("the tests run too nice for a child to run nicer still")
    assert child_process.run(priority, (), nicer=True) == mine + NICER_BY
    assert child_process.run(priority, ()) == mine  # an import the reader waits for: as the caller
    assert os.getpriority(os.PRIO_PROCESS, 0) == mine


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="a thread's own priority is Linux's")
def test_a_nicer_childs_threads_started_before_it_was_made_nicer_are_nicer_too():
    """numpy's BLAS threads start when the target's module is imported, before the child lowers its priority."""
    from tests import nice_probe

    mine = os.getpriority(os.PRIO_PROCESS, 0)
    if mine + NICER_BY > 19:
        pytest.skip("the tests run too nice for a child to run nicer still")
    seen = child_process.run(nice_probe.priorities, (), nicer=True)
    assert len(seen) >= 2 and set(seen) == {mine + NICER_BY}


def test_the_work_runs_in_another_process_and_its_progress_comes_back():
    seen = []
    pid, n = child_process.run(counted, (3,), progress=lambda *a: seen.append(a))
    assert pid != os.getpid() and n == 3
    assert seen == [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")]


def test_what_the_work_raises_is_raised_here_with_its_details():
    with pytest.raises(ImportFailure) as got:
        child_process.run(failing, ("/tmp/x.bib",))
    assert got.value.path.name == "x.bib" and got.value.problem == "not a bibliography" and got.value.line == 7
    assert str(got.value) == "x.bib, line 7: not a bibliography"


def test_a_child_that_dies_is_reported_not_waited_for():
    with pytest.raises(child_process.ChildFailed, match="exit code 3"):
        child_process.run(crashing, ())


def test_a_cancel_reaches_the_work_which_stops_itself():
    cancel = threading.Event()
    started = []

    def cancel_once_started(*report):
        started.append(report)
        cancel.set()

    with pytest.raises(ImportCancelled, match="next check"):  # its own roll-back, not ended from outside
        child_process.run(waiting, (), progress=cancel_once_started, cancel=cancel)
    assert started == [(0, 0, "started")]


def test_a_library_import_in_a_child_may_start_the_index_writers_processes(tmp_path):
    """An import of BULK_PROCS_MIN_DOCS papers or more writes the index with Whoosh's writer processes,
    which a daemonic child may not start: the child is none."""
    import json

    from readinglist.index.engine import BULK_PROCS_MIN_DOCS
    from readinglist.library import Library

    papers = [
        {"title": f"Wombat {i}", "abstract": f"Burrows of wombat colony {i}."} for i in range(BULK_PROCS_MIN_DOCS)
    ]
    path = tmp_path / "wombats.jsonl"
    path.write_text("\n".join(json.dumps(p) for p in papers) + "\n")
    lib = Library.open(tmp_path / "data", seed=False)
    try:
        reports = []
        (summary,) = lib.import_or_merge_in_child([path], progress=lambda *a: reports.append(a))
        assert summary.added == BULK_PROCS_MIN_DOCS and reports
        assert lib.counts()["all"] == BULK_PROCS_MIN_DOCS
        assert len(lib.search("wombat burrows").ids) == BULK_PROCS_MIN_DOCS  # this process's index sees them
    finally:
        lib.close()


def test_the_topics_and_the_suggestions_features_are_computed_in_nicer_children(monkeypatch, tmp_path):
    """Work nobody waits for; an import's child (the reader waits for it) is not made nicer."""
    from readinglist import interest, topics_job

    asked: list[tuple[str, bool]] = []

    def fake_run(target, args, *rest, name="", nicer=False, **kwargs):
        asked.append((name, nicer))
        raise child_process.ChildFailed("not run here")

    monkeypatch.setattr(child_process, "run", fake_run)
    with pytest.raises(StoreError, match="not run here"):
        topics_job.compute(tmp_path / "library.db", None, True)
    interest._run_child(tmp_path, tmp_path / "library.db", None)
    assert asked == [("readinglist-topics", True), ("readinglist-suggestions", True)]


def test_a_topics_child_whose_caller_is_gone_ends_without_a_traceback(tmp_path, capfd):
    """The window killed while the topics' child works: its next word finds the pipe closed. It printed a
    BrokenPipeError's traceback to the terminal (the child prints a bug's); it ends quietly, its work
    stopped at that word."""
    import multiprocessing

    from readinglist import topics_job
    from readinglist.library import Library

    Library.open(tmp_path / "data").close()  # the bundled papers
    ctx = multiprocessing.get_context("spawn")
    receive, send = ctx.Pipe(duplex=False)
    receive.close()  # the caller stopped reading before the child's first word
    stopped, stop = ctx.Pipe(duplex=False)  # and its cancel's end open: the work is not cancelled
    args = (topics_job._in_child, (str(tmp_path / "data" / "library.db"), None, 0), send, stopped)
    child = ctx.Process(target=child_process._main, args=args)
    child.start()
    send.close()
    stopped.close()
    child.join(120)
    stop.close()
    assert child.exitcode == 0
    err = capfd.readouterr().err
    assert "Traceback" not in err and "BrokenPipeError" not in err, err


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="a killed window is POSIX's here")
def test_a_killed_caller_leaves_nothing_on_the_terminal_and_its_child_stops(tmp_path):
    """The window killed while its child works: the child stops at its cancel (its caller's end of the pipe
    closed), and nothing reaches the terminal they share: no traceback from the child, and no warning from
    multiprocessing's resource tracker about the cancel's semaphores, which nobody could clean up."""
    import signal
    import subprocess
    import sys
    from pathlib import Path

    caller = (
        "import sys\n"
        "from readinglist import child_process\n"
        "from tests.test_child_process import working\n"
        "child_process.run(working, (), progress=lambda d, t, pid: print(pid, flush=True) if d == 0 else None)\n"
    )
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen([sys.executable, "-c", caller], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(root)}, text=True)  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    child = int(proc.stdout.readline())
    os.kill(proc.pid, signal.SIGKILL)
    try:
        _, err = proc.communicate(timeout=30)  # its end: the child's and the resource tracker's, which hold it too
    except subprocess.TimeoutExpired:
        os.kill(child, signal.SIGKILL)
        raise
    assert err == ""
