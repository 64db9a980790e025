"""A search on another thread makes way while the window paints the table."""

from __future__ import annotations

import threading
import time

from readinglist.app import create_main_window
from readinglist.ui.paint_gate import MAX_WAIT_S, PaintGate


def _waited_in_thread(gate: PaintGate) -> tuple[threading.Thread, list[float]]:
    waited: list[float] = []

    def work() -> None:
        t = time.perf_counter()
        gate.make_way()
        waited.append(time.perf_counter() - t)

    return threading.Thread(target=work), waited


def test_background_work_waits_for_the_paint_to_end():
    turns = PaintGate()
    turns.painting(True)
    try:
        thread, waited = _waited_in_thread(turns)
        thread.start()
        time.sleep(0.03)
        assert not waited  # still waiting: the paint is on
    finally:
        turns.painting(False)
    thread.join(1)
    assert waited and 0.02 < waited[0] < MAX_WAIT_S
    thread, waited = _waited_in_thread(turns)  # nothing painting: no wait
    thread.start()
    thread.join(1)
    assert waited[0] < 0.01


def test_a_flag_left_set_costs_one_bounded_wait_and_the_ui_thread_never_waits():
    turns = PaintGate()
    turns.painting(True)
    try:
        t = time.perf_counter()
        turns.make_way()  # the UI thread itself
        assert time.perf_counter() - t < 0.01
        thread, waited = _waited_in_thread(turns)
        thread.start()
        thread.join(1)
        assert MAX_WAIT_S * 0.5 < waited[0] < MAX_WAIT_S * 1.5
        thread, waited = _waited_in_thread(turns)  # later: the paint that began long ago no longer holds it up
        thread.start()
        thread.join(1)
        assert waited[0] < 0.01
    finally:
        turns.painting(False)


def test_the_window_flags_its_table_paints(qtbot, data_dir):
    w = create_main_window(data_dir)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.table.model.rowCount() == 19)
    seen: list[bool] = []
    paint_cell = w.table.model.multiData

    def watched(index, span):
        seen.append(w.paint_gate.open)
        paint_cell(index, span)

    w.table.model.multiData = watched  # type: ignore[method-assign]
    w.table.view.viewport().repaint()
    assert seen and not any(seen)  # every cell painted while background work was told to wait
    qtbot.waitUntil(lambda: w.paint_gate.open, timeout=1000)  # and told it may go on once the paint is over
    w.runner.wait()
    w.library.close()
