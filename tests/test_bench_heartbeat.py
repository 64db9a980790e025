"""The benchmarks' heartbeat: a stall past `watch_ms` is recorded with what each thread ran during it."""

from __future__ import annotations

import time

from benchmarks.heartbeat import Heartbeat


def _stalled_for(seconds: float) -> None:
    time.sleep(seconds)  # the event loop runs nothing meanwhile


def test_a_stall_is_recorded_with_the_main_threads_stack(qtbot):
    heartbeat = Heartbeat(watch_ms=40)
    heartbeat.start()
    qtbot.wait(30)
    _stalled_for(0.15)
    qtbot.wait(30)
    worst, stacks = heartbeat.worst(), heartbeat.stacks()
    heartbeat.reset()
    qtbot.wait(60)
    calm = heartbeat.stacks()
    heartbeat.stop()
    assert worst >= 140 and len(stacks) == 1 and stacks[0]["late_ms"] > 40
    assert any("_stalled_for" in frame for frame in stacks[0]["threads"]["main"])
    assert calm == []  # a phase without a stall records none
