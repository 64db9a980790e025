"""The window's index updates go through a writer process; the library stays right if it fails."""

from __future__ import annotations

import contextlib
import os
import signal
import time

import pytest

from readinglist.index import background
from readinglist.index.engine import MERGE_FACTOR
from readinglist.library import Library
from tests.conftest import corpus


@pytest.fixture
def bg_lib(lib):
    messages: list[str] = []
    lib.notify = messages.append
    lib.start_background_indexing()
    lib.messages = messages
    yield lib
    lib.close()  # stops the writer process too


def kill_writer(lib) -> None:
    """The writer process dies (kill -9) and is gone before the test goes on."""
    pid = lib.updater.writer_pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                return
        except (ProcessLookupError, ChildProcessError):
            return
        time.sleep(0.01)


def test_updates_are_written_by_another_process(bg_lib):
    ids = bg_lib.search("").ids
    bg_lib.set_state(ids[:2], "read")
    bg_lib.add_tags([ids[2]], ["offline rl"])
    assert set(bg_lib.search("state:read").ids) == set(ids[:2])  # search waits for the writer
    assert bg_lib.search('tag:"offline rl"').ids == [ids[2]]
    assert bg_lib.index_writer_pid() not in (None, os.getpid())
    assert not bg_lib.messages


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="niceness is POSIX's")
def test_the_writer_process_runs_nicer_than_the_window(bg_lib):
    """An import's merge takes a core for seconds: the window's thread, waking, must get the CPU first."""
    from readinglist.priority import NICER_BY

    mine = os.getpriority(os.PRIO_PROCESS, 0)
    if mine + NICER_BY > 19:
        pytest.skip("the tests run too nice for a child to run nicer still")
    bg_lib.set_state(bg_lib.search("").ids[:1], "read")
    bg_lib.flush_index()  # the writer process has started and answered
    pid = bg_lib.index_writer_pid()
    assert pid not in (None, os.getpid())
    assert os.getpriority(os.PRIO_PROCESS, pid) == mine + NICER_BY
    assert os.getpriority(os.PRIO_PROCESS, 0) == mine


def test_merges_in_the_writer_process_lose_nothing(bg_lib):
    ids = bg_lib.search("").ids
    for i in range(2 * MERGE_FACTOR + 1):
        bg_lib.set_note(ids[i], f"note number{i}")
        bg_lib.flush_index()

    def segments() -> int:
        bg_lib.updater.poll()  # a merge the writer reported: the index reloaded
        assert bg_lib.index.ix is not None
        return len(bg_lib.index.ix._segments())

    # the writer merges in its own time, once no update waits (it runs nicer than this process, which sent
    # the next edit before the writer looked for one): the last update's merge takes in every small segment
    deadline = time.monotonic() + 30
    while segments() > MERGE_FACTOR + 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert segments() <= MERGE_FACTOR + 1
    for i in range(2 * MERGE_FACTOR + 1):
        assert bg_lib.search(f"note:number{i}").ids == [ids[i]]


def test_an_import_waits_for_the_writer_process(bg_lib):
    ids = bg_lib.search("").ids
    bg_lib.set_state(ids[:1], "skimmed")
    bg_lib.import_files([corpus("pmlr_colt2025_uai2025_l4dc2026.jsonl")])
    bg_lib.set_state(ids[1:2], "skimmed")
    assert set(bg_lib.search("state:skimmed").ids) == set(ids[:2])
    assert len(bg_lib.search("").ids) > 500


def test_a_writer_that_cannot_start_means_writing_in_process(bg_lib, monkeypatch):
    def refuse(*_args):
        raise background.WriterError("no processes here")

    monkeypatch.setattr(background, "WriterProcess", refuse)
    ids = bg_lib.search("").ids
    bg_lib.set_state(ids[:1], "read")
    assert bg_lib.search("state:read").ids == ids[:1]
    assert any("no processes here" in m for m in bg_lib.messages)


def test_a_writer_that_dies_loses_no_change(bg_lib):
    ids = bg_lib.search("").ids
    bg_lib.set_state(ids[:1], "read")
    bg_lib.flush_index()
    kill_writer(bg_lib)
    bg_lib.set_state(ids[1:2], "read")
    assert set(bg_lib.search("state:read").ids) == set(ids[:2])
    assert any("in-process" in m for m in bg_lib.messages)


def test_window_imports_index_in_writer_processes_and_merge_later(bg_lib, monkeypatch):
    from readinglist.index import engine

    ids = bg_lib.search("").ids
    bg_lib.set_state(ids[:1], "read")  # the writer process is up
    bg_lib.flush_index()
    assert bg_lib.index_writer_pid() is not None
    seen = []
    real = engine.new_writer
    monkeypatch.setattr(engine, "new_writer", lambda ix, expected=0, procs_from=2000, timeout=0.0: (
        seen.append((expected, procs_from)), real(ix, expected, procs_from, timeout))[1])  # fmt: skip
    merges = []
    updater = bg_lib.updater
    real_merge = updater.request_merge
    monkeypatch.setattr(updater, "request_merge", lambda: (merges.append(1), real_merge())[1])
    bg_lib.import_files([corpus("pmlr_colt2025_uai2025_l4dc2026.jsonl")])
    assert seen and seen[0][1] == engine.BULK_PROCS_MIN_DOCS_WINDOW and seen[0][0] > seen[0][1]
    assert merges == [1]  # merging is the writer process's job, after the import
    bg_lib.settle_index()
    assert len(bg_lib.search("").ids) == len(bg_lib.search("year:2000..2030").ids) > 500
    assert bg_lib.search("state:read").ids == ids[:1]


def test_a_writer_that_dies_between_requests_is_noticed(bg_lib):
    ids = bg_lib.search("").ids
    bg_lib.set_state(ids[:1], "read")
    bg_lib.flush_index()
    kill_writer(bg_lib)
    bg_lib.updater.poll()  # what the idle updater does every half second
    assert bg_lib.index_writer_pid() is None and any("in-process" in m for m in bg_lib.messages)
    bg_lib.set_state(ids[1:2], "read")
    assert set(bg_lib.search("state:read").ids) == set(ids[:2])


def test_closing_does_not_wait_for_the_index_and_loses_nothing(bg_lib, monkeypatch, tmp_path):
    """Closing the window while the index catches up (a long journal after an import) waited up to 30 s
    and then for every chunk; now it stops after the chunk being written, and the journal keeps the rest."""
    monkeypatch.setattr(background, "JOURNAL_CHUNK", 1)  # many commits: the write is still going on
    monkeypatch.setattr(background, "STOP_WAIT", 0.0)
    ids = bg_lib.search("").ids[:60]
    bg_lib.set_state(ids, "read")
    deadline = time.monotonic() + 30
    while bg_lib.store.journal_size() == len(ids) and time.monotonic() < deadline:
        time.sleep(0.005)  # until the writing has begun
    bg_lib.updater.stop()
    left = bg_lib.store.journal_size()
    assert 0 < left < len(ids)  # stopped part way, what is left kept
    again = Library.open(bg_lib.data_dir, seed=False)  # the next start (the command line, or the window)
    try:
        assert set(again.search("state:read").ids) == set(ids)  # the next start writes the rest
        assert again.store.journal_size() == 0
    finally:
        again.close()


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="pausing a process is POSIX's")
def test_closing_does_not_wait_for_a_writer_process_that_does_not_answer(bg_lib, monkeypatch):
    """A writer process busy for minutes (a long merge; here paused) held closing until it answered (up to
    REPLY_TIMEOUT, 600 s): now it is ended after STOP_WAIT, and the change it was given stays in the journal."""
    import threading

    monkeypatch.setattr(background, "STOP_WAIT", 0.5)
    ids = bg_lib.search("").ids
    bg_lib.set_state(ids[:1], "read")
    bg_lib.flush_index()  # the writer process is up
    pid = bg_lib.updater.writer_pid
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)
    try:
        bg_lib.set_state(ids[1:2], "read")  # sent to the writer process, which does not answer
        stopping = threading.Thread(target=bg_lib.updater.stop)
        stopping.start()
        stopping.join(20)
        assert not stopping.is_alive()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT)
    assert bg_lib.store.journal_size() >= 1  # kept for the next start
    again = Library.open(bg_lib.data_dir, seed=False)
    try:
        assert set(again.search("state:read").ids) == set(ids[:2])
    finally:
        again.close()
