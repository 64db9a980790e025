"""Work the window hands to a child process, with its progress relayed and a cancel that stops it cleanly.

A child, not a thread, for work that is a long Python loop (an import's parsing, matching and analysing):
on a thread it takes turns with the window's thread for the interpreter lock, and with another busy
process on a 2-core machine the window froze for a tenth of a second at a time; the child's memory is also
handed back to the system when it ends. The child opens the library itself, as the command line does
beside the window; the window learns what it wrote as it learns of any other process's changes.

`run(target, args, progress, cancel)` calls `target(*args, progress=…, cancel=…)` in a spawned child (the
target must be a module-level function, its arguments and result picklable): progress reports come back
to `progress` on the caller's thread; `cancel` set is passed on to the child, whose own cancel makes the
work stop at its next check and roll back (so does its caller's death: a killed window); its exception is
raised here.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import pickle
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from readinglist.papers import StoreError
from readinglist.priority import be_nicer

T = TypeVar("T")
Progress = Callable[[int, int, str], None]
POLL_SECONDS = 0.1
CANCEL_GRACE_SECONDS = 60.0  # after a cancel, the child's roll-back is awaited this long, then it is ended


class ChildFailed(StoreError):
    """The child stopped without a result (it crashed, was killed, or its result could not be sent)."""


class _CallerGone(BaseException):
    """The process that started the child is gone (the window was killed): its end of the pipe is closed and
    nobody reads what the child says. A BaseException, so that the work's own `except Exception` (the
    topics' child prints a bug's traceback) lets it by, and its `finally` and rollbacks run; the child then
    ends quietly."""


def run(
    target: Callable[..., T],
    args: tuple[Any, ...],
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
    name: str = "readinglist-child",
    cancelled: Callable[[], BaseException] | None = None,
    end_on_cancel: bool = False,
    daemon: bool = False,
    nicer: bool = False,
) -> T:
    """`target(*args, progress=…, cancel=…)` in a child process; its result, or its exception raised here.
    If the child does not answer within CANCEL_GRACE_SECONDS of a cancel — at once with `end_on_cancel`
    (work that writes nothing: a computation) — it is ended and `cancelled()` raised (work that writes is
    then rolled back by its death). A `daemon` child is ended when this process exits; it may not start
    processes of its own (an import's index writers), so an import's child is none, and this process's exit
    waits for it (a cancel makes that short). A `nicer` child runs at a lower priority (`be_nicer`): work
    nobody waits for, which must not take the CPU from the window's thread."""
    ctx = multiprocessing.get_context("spawn")
    receive, send = ctx.Pipe(duplex=False)
    # the cancel goes as a word on a pipe of its own, not as a multiprocessing Event: an Event's semaphores,
    # left when this process is killed, had the resource tracker warn of them on the terminal
    stopped, stop = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_main, args=(target, args, send, stopped, nicer), name=name, daemon=daemon)
    child.start()
    send.close()
    stopped.close()
    asked: float | None = None
    waited = 0.0
    try:
        while True:
            if cancel is not None and cancel.is_set() and asked is None:
                with contextlib.suppress(OSError):  # the child has ended: what it sent says how
                    stop.send("stop")
                asked = waited
            if asked is not None and (end_on_cancel or waited - asked > CANCEL_GRACE_SECONDS):
                if cancelled is not None:
                    raise cancelled()
                raise ChildFailed("the work was cancelled and did not stop")
            if receive.poll(POLL_SECONDS):
                try:
                    kind, payload = receive.recv()
                except EOFError:
                    child.join(5)  # it is ending: its exit code says how
                    raise ChildFailed(f"the work stopped (exit code {child.exitcode})") from None
                except Exception as exc:  # what it sent could not be read back here
                    raise ChildFailed(f"the work's answer could not be read ({type(exc).__name__}: {exc})") from None
                if kind == "progress":
                    if progress is not None and asked is None:
                        progress(*payload)
                    continue
                if kind == "done":
                    return payload
                if kind == "raised":
                    raise payload
                raise ChildFailed(str(payload))
            waited += POLL_SECONDS
            if not child.is_alive() and not receive.poll(0):
                raise ChildFailed(f"the work stopped (exit code {child.exitcode})")
    finally:
        receive.close()
        stop.close()
        if child.is_alive():
            child.join(5)
        if child.is_alive():
            child.terminate()
            child.join(5)


def _main(target: Callable[..., Any], args: tuple[Any, ...], send: Any, stopped: Any, nicer: bool = False) -> None:
    """The child: run the work, send its progress, then its result or what it raised. The work's cancel is
    set when the caller says stop, or when its end of the pipe closes (the caller is gone: killed)."""
    if nicer:
        be_nicer()
    cancel = threading.Event()

    def listen() -> None:
        with contextlib.suppress(Exception):  # EOFError, OSError: the caller is gone
            stopped.recv()
        cancel.set()

    threading.Thread(target=listen, name="cancel", daemon=True).start()
    try:

        def progress(done: int, total: int, message: str) -> None:
            try:
                send.send(("progress", (done, total, message)))
            except OSError:  # BrokenPipeError: the caller is gone, and the work with it
                raise _CallerGone() from None

        try:
            result = target(*args, progress=progress, cancel=cancel)
        except Exception as exc:
            try:
                pickle.dumps(exc)
                send.send(("raised", exc))
            except Exception:
                send.send(("failed", f"{type(exc).__name__}: {exc}"))
            return
        send.send(("done", result))
    except _CallerGone:
        pass  # nobody to tell
    except BaseException as exc:  # the pipe itself, or an interrupt: the parent reports the child stopped
        with contextlib.suppress(Exception):
            send.send(("failed", f"{type(exc).__name__}: {exc}"))
    finally:
        send.close()
