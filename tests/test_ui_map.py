"""The map tab (issue 16, point 2): dots where the core's layout puts them, hover, click, drag to select an
area and mark it, results lit and the rest dimmed, colour by state, pan and zoom, PNG and SVG export. On the
synthetic four-theme library of test_topics, its topics computed."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QApplication, QLabel
from test_topics import planted, write_jsonl
from test_ui import click_sidebar, search

from readinglist.app import create_main_window
from readinglist.library import Library
from readinglist.ui.map_view import MapPane, MapView, state_colour
from readinglist.ui.sidebar import SUGGESTED_KEY


@pytest.fixture
def planted_dir(data_dir, tmp_path):
    lib = Library.open(data_dir)
    lib.import_files([write_jsonl(tmp_path / "planted.jsonl", planted(30))])
    lib.compute_topics(count=4, use_process=False)
    lib.close()
    return data_dir


def settle(qtbot, view: MapView) -> None:
    """The map is loaded and the image shown is the one for the view as it is now."""
    qtbot.waitUntil(lambda: view.data is not None and view.up_to_date, timeout=15000)


@pytest.fixture
def window(qtbot, planted_dir):
    w = create_main_window(planted_dir)
    qtbot.addWidget(w)
    w.topics_bar.use_process = False
    w.map_pane.quiet = True
    w.resize(1130, 700)  # the map ~480 px wide beside the editors (priority, 5 states): no name over the dots tested
    w.show()
    qtbot.waitUntil(lambda: w.table.model.rowCount() > 0)
    w.show_tab(1)
    settle(qtbot, w.map_pane.view)
    yield w
    w.close()
    w.shutdown()


def mouse(view, kind, pos: QPointF, button=Qt.MouseButton.NoButton, buttons=Qt.MouseButton.NoButton) -> None:
    """A mouse event as the window system delivers it (with the buttons held during a move)."""
    event = QMouseEvent(kind, pos, view.mapToGlobal(pos), button, buttons, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view, event)


def drag(view, start: QPointF, end: QPointF, button=Qt.MouseButton.LeftButton) -> None:
    mouse(view, QEvent.Type.MouseButtonPress, start, button, button)
    for t in (0.25, 0.5, 0.75, 1.0):
        mouse(view, QEvent.Type.MouseMove, start + (end - start) * t, Qt.MouseButton.NoButton, button)
    mouse(view, QEvent.Type.MouseButtonRelease, end, button, Qt.MouseButton.NoButton)


def pixel(view, pos: QPointF) -> QColor:
    image = view.grab().toImage()
    return QColor(image.pixel(round(pos.x()), round(pos.y())))


def close(a: QColor, b: QColor, tolerance: int = 6) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a.getRgb()[:3], b.getRgb()[:3], strict=True))


def theme_ids(lib, phrase):
    return lib.search(f'"{phrase}"').ids


def island(view: MapView, ids: list[int]) -> tuple[QPointF, QPointF]:
    """A rectangle (widget pixels) around these papers' dots."""
    points = [view.screen_pos(i) for i in ids]
    xs = [p.x() for p in points if p is not None]
    ys = [p.y() for p in points if p is not None]
    return QPointF(min(xs) - 3, min(ys) - 3), QPointF(max(xs) + 3, max(ys) + 3)


def lonely(view: MapView, ids: list[int], others: list[int]) -> int:
    """A paper of `ids` whose dot no dot of `others` comes near (its pixel is its own colour)."""
    far = []
    for pid in ids:
        p = view.screen_pos(pid)
        gap = min(((p - q).manhattanLength() for q in (view.screen_pos(o) for o in others) if q), default=1e9)
        far.append((gap, pid))
    return max(far)[1]


def test_dots_are_placed_by_the_layout(qtbot, window):
    view, lib = window.map_pane.view, window.library
    stored = lib.library_map()
    assert stored is not None and len(view.data.ids) == len(stored) == lib.counts()["all"]
    places = stored.places(lib.search("").ids)
    positions = {pid: view.screen_pos(pid) for pid in places}
    xs = sorted(places, key=lambda pid: places[pid][0])
    assert positions[xs[0]].x() < positions[xs[-1]].x()  # the layout's left is the map's left
    ys = sorted(places, key=lambda pid: places[pid][1])
    assert positions[ys[0]].y() > positions[ys[-1]].y()  # and its top (y up) the map's top
    assert all(view.rect().contains(p.toPoint()) for p in positions.values())  # the whole map shows
    proteins = theme_ids(lib, "protein folding")
    pid = lonely(view, proteins, [i for i in places if i not in proteins])
    assert close(pixel(view, positions[pid]), view.dot_colour(pid))  # a dot is drawn where it is placed
    corner = QPointF(3, 3)
    assert view.paper_at(corner) is None
    assert close(pixel(view, corner), view.palette().color(view.palette().ColorRole.Base))


def test_hover_shows_the_title(qtbot, window):
    view, lib = window.map_pane.view, window.library
    pid = lib.search('"message passing"').ids[0]
    hovered = []
    view.hoverChanged.connect(hovered.append)
    mouse(view, QEvent.Type.MouseMove, view.screen_pos(pid))
    assert view.hovered is not None and hovered[-1] == view.hovered
    shown = view.hovered
    row = lib.rows([shown])[shown]
    title, venue, year = row.title, row.venue, row.year
    assert view.hover_text.split("\n")[0] == title
    assert f"{venue} · {year} · Unread" in view.hover_text
    topic = lib.topic_of(shown)
    assert topic is not None and topic.label in view.hover_text
    mouse(view, QEvent.Type.MouseMove, QPointF(2, 2))  # off the dots: no card
    assert view.hovered is None and view.hover_text == "" and hovered[-1] is None


def test_a_click_shows_the_paper_and_selects_it_in_the_table(qtbot, window):
    view, lib = window.map_pane.view, window.library
    target = lib.search('"reward shaping"').ids[-1]
    at = view.screen_pos(target)
    picked = view.paper_at(at)
    assert picked is not None
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=at.toPoint())
    qtbot.waitUntil(lambda: window.table.current_id == picked and window.detail.paper_id == picked)
    assert window.table.selected_ids() == [picked]
    assert window.centerTabs.currentIndex() == 1  # the map stays shown, the paper beside it


def test_a_click_on_a_paper_outside_the_results_shows_it(qtbot, window):
    view, lib = window.map_pane.view, window.library
    with qtbot.waitSignal(window.searchFinished, timeout=10000):
        window.search_bar.field.setText('"protein folding"')
    outside = [i for i in lib.search('"reward shaping"').ids if i not in set(window.table.model.ids)]
    pid = lonely(view, outside, window.table.model.ids)
    settle(qtbot, view)
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=view.screen_pos(pid).toPoint())
    qtbot.waitUntil(lambda: window.detail.paper_id == pid, timeout=10000)  # shown, as a related paper is
    assert window.search_bar.text() == '"protein folding"'  # the search kept


def test_dragging_selects_an_area_and_r_marks_every_paper_in_it(qtbot, window):
    view, lib = window.map_pane.view, window.library
    control = theme_ids(lib, "reward shaping") + theme_ids(lib, "policy gradient")
    start, end = island(view, control)
    x0, y0 = view.map_pos(start)
    x1, y1 = view.map_pos(end)
    expected = set(lib.library_map().within(x0, y0, x1, y1))
    assert set(control) <= expected
    with qtbot.waitSignal(view.areaSelected) as got:
        drag(view, start, end)
    assert set(got.args[0]) == expected == set(view.area_ids)
    assert set(window.table.model.ids) == expected  # the table shows the area's papers, all selected
    assert set(window.table.selected_ids()) == expected
    assert window.areaChip.isVisible() and f"{len(expected)} papers" in window.areaChip.text()
    assert f"{len(expected)} selected" in window.statusLabel.text()
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_R)  # r on the map marks the area
    assert {lib.paper(i).state for i in expected} == {"read"}
    assert lib.counts()["read"] == len(expected)
    window.actionUndo.trigger()
    assert lib.counts()["read"] == 0
    qtbot.keyClick(view, Qt.Key.Key_T)  # t tags them all
    editor = window.editors.tagEditor
    assert editor.hasFocus()
    editor.setText("control, to read")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert all(lib.paper(i).tags == ["control", "to read"] for i in expected)
    assert lib.tag_counts() == [("control", len(expected)), ("to read", len(expected))]
    assert view.hasFocus()  # back to the map: the tag field kept the keys, "j" typed into it (a trial)
    qtbot.keyClick(view, Qt.Key.Key_T)
    qtbot.keyClicks(editor, ", typo")
    qtbot.keyClick(editor, Qt.Key.Key_Escape)  # Esc: the tags as they were, back to the map
    assert view.hasFocus() and editor.text() == "control, to read"
    assert all(lib.paper(i).tags == ["control", "to read"] for i in expected)
    qtbot.keyClick(view, Qt.Key.Key_Escape)  # Esc leaves the area: every result again
    assert view.area_ids == [] and not window.areaChip.isVisible()
    assert len(window.table.model.ids) == lib.counts()["all"]


def test_an_area_combines_with_the_search(qtbot, window):
    view, lib = window.map_pane.view, window.library
    with qtbot.waitSignal(window.searchFinished, timeout=10000):
        window.search_bar.field.setText('"reward shaping"')
    settle(qtbot, view)
    results = set(window.table.model.ids)
    control = theme_ids(lib, "policy gradient") + list(results)
    start, end = island(view, control)
    with qtbot.waitSignal(view.areaSelected) as got:
        drag(view, start, end)
    assert set(got.args[0]) == results  # the area's lit papers: the dimmed are not selected
    assert set(window.table.selected_ids()) == results
    with qtbot.waitSignal(window.searchFinished, timeout=10000):
        window.search_bar.field.setText('"reward shaping" AND robot')
    assert set(window.table.model.ids) == set(lib.search('"reward shaping" AND robot').ids) & results
    with qtbot.waitSignal(window.searchFinished, timeout=10000):
        window.search_bar.field.setText("graph convolution")  # found elsewhere, none in the area

    empty = window.findChild(QLabel, "emptyLabel")
    assert window.table.model.rowCount() == 0 and f"among the {len(results):,} papers of the map area" in empty.text()
    empty.linkActivated.emit("allarea")  # "let go of the area"
    qtbot.waitUntil(lambda: window.table.model.rowCount() == len(lib.search("graph convolution").ids) > 0)
    assert view.area_ids == [] and not window.areaChip.isVisible()


def test_the_results_are_lit_and_the_rest_dimmed(qtbot, window):
    view, lib = window.map_pane.view, window.library
    graphs = theme_ids(lib, "graph convolution")
    everyone = lib.search("").ids
    lit_before = view.dot_colour(graphs[0])
    with qtbot.waitSignal(window.searchFinished, timeout=10000):
        window.search_bar.field.setText('"graph convolution"')
    qtbot.waitUntil(lambda: view.dot_colour(everyone[-1]) != view.dot_colour(graphs[0]) or False, timeout=10000)
    settle(qtbot, view)
    results = set(window.table.model.ids)
    proteins = theme_ids(lib, "protein folding")
    dimmed = lonely(view, proteins, list(results))
    lit = lonely(view, list(results), [i for i in everyone if i not in results])
    assert view.dot_colour(lit) == lit_before  # a result keeps its colour
    dim_colour = view.dot_colour(dimmed)
    base = view.palette().color(view.palette().ColorRole.Base)
    assert dim_colour.lightness() > 200 and close(dim_colour, base, 80)  # faded towards the background
    assert close(pixel(view, view.screen_pos(lit)), view.dot_colour(lit))
    assert close(pixel(view, view.screen_pos(dimmed)), dim_colour)
    with qtbot.waitSignal(window.searchFinished, timeout=10000):
        window.search_bar.field.clear()
    qtbot.waitUntil(lambda: view.dot_colour(dimmed) != dim_colour, timeout=10000)  # all lit again


def test_the_map_pane_is_built_when_first_shown_and_lights_the_search_made_before(qtbot, planted_dir):
    """The window's first paint does without the map's module: the Map tab's pane is built when the tab is
    first shown, and lights the results of the search made before it was."""
    w = create_main_window(planted_dir)
    qtbot.addWidget(w)
    w.topics_bar.use_process = False
    w.resize(1130, 700)
    w.show()
    qtbot.waitUntil(lambda: w.table.model.rowCount() > 0)
    with qtbot.waitSignal(w.searchFinished, timeout=10000):
        w.search_bar.field.setText('"graph convolution"')
    assert w.mapPage.findChild(MapPane) is None
    w.show_tab(1)
    assert w.mapPage.findChild(MapPane) is w.map_pane and w.map_pane.isVisible()
    view, lib = w.map_pane.view, w.library
    settle(qtbot, view)
    results = set(w.table.model.ids)
    dimmed = lonely(view, theme_ids(lib, "protein folding"), list(results))
    base = view.palette().color(view.palette().ColorRole.Base)
    qtbot.waitUntil(lambda: close(view.dot_colour(dimmed), base, 80), timeout=10000)  # faded: not a result
    assert view.dot_colour(dimmed).lightness() > 200
    w.close()
    w.shutdown()


def test_a_window_closed_on_the_map_opens_on_it(qtbot, planted_dir):
    """The tab shown is kept: a window closed on the map opens on it, its pane built and shown."""
    w = create_main_window(planted_dir)
    qtbot.addWidget(w)
    w.topics_bar.use_process = False
    w.show()
    qtbot.waitUntil(lambda: w.table.model.rowCount() > 0)
    w.show_tab(1)
    settle(qtbot, w.map_pane.view)
    w.close()
    w.shutdown()
    again = create_main_window(planted_dir)
    qtbot.addWidget(again)
    again.topics_bar.use_process = False
    again.show()
    built = again.mapPage.findChild(MapPane)  # built by the tab's restore, not by asking for it here
    assert again.centerTabs.currentIndex() == 1 and built is not None and built.isVisible()
    settle(qtbot, again.map_pane.view)
    again.close()
    again.shutdown()


def test_colour_by_reading_state(qtbot, window):
    view, lib = window.map_pane.view, window.library
    proteins = theme_ids(lib, "protein folding")
    pid = lonely(view, proteins, [i for i in lib.search("").ids if i not in proteins])
    window.go_to_paper(pid)
    qtbot.waitUntil(lambda: window.table.current_id == pid)
    window.actionMarkRead.trigger()
    pane = window.map_pane
    qtbot.mouseClick(pane.byTopic, Qt.MouseButton.LeftButton)
    pane.layout().activate()
    narrowest = pane.minimumSizeHint().width()
    qtbot.mouseClick(pane.byState, Qt.MouseButton.LeftButton)
    assert view.colour_by == "state" and "Read" in [entry.label for entry in view.legend()]
    pane.layout().activate()
    assert pane.minimumSizeHint().width() == narrowest  # the legend never widens the window
    qtbot.waitUntil(lambda: view.dot_colour(pid) == QColor.fromRgb(state_colour("read")), timeout=10000)
    settle(qtbot, view)
    assert close(pixel(view, view.screen_pos(pid)), QColor.fromRgb(state_colour("read")))
    others = [i for i in proteins if i != pid]
    assert view.dot_colour(others[0]) == QColor.fromRgb(state_colour("unread"))
    qtbot.mouseClick(window.map_pane.byTopic, Qt.MouseButton.LeftButton)
    assert view.colour_by == "topic" and view.dot_colour(pid) == view.dot_colour(others[0])


def test_pan_and_zoom(qtbot, window):
    view, lib = window.map_pane.view, window.library
    pid = lib.search('"binding sites"').ids[0]
    before = view.screen_pos(pid)
    view.pan_by(40, -25)
    after = view.screen_pos(pid)
    assert abs(after.x() - before.x() - 40) < 0.01 and abs(after.y() - before.y() + 25) < 0.01
    drag(view, QPointF(300, 300), QPointF(260, 320), Qt.MouseButton.RightButton)  # a right drag pans
    moved = view.screen_pos(pid)
    assert abs(moved.x() - after.x() + 40) < 0.01 and abs(moved.y() - after.y() - 20) < 0.01
    assert view.area_ids == []  # and selects nothing
    anchor = view.screen_pos(pid)
    wheel = QWheelEvent(anchor, view.mapToGlobal(anchor), QPoint(), QPoint(0, 240), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)  # fmt: skip
    QApplication.sendEvent(view, wheel)
    assert view.zoom == pytest.approx(1.25**2)
    zoomed = view.screen_pos(pid)
    assert abs(zoomed.x() - anchor.x()) < 0.5 and abs(zoomed.y() - anchor.y()) < 0.5  # about the pointer
    settle(qtbot, view)
    assert view.paper_at(zoomed) is not None
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_0)
    assert view.zoom == 1.0
    qtbot.keyClick(view, Qt.Key.Key_Plus)
    assert view.zoom == pytest.approx(1.5)
    qtbot.mouseClick(window.map_pane.fitButton, Qt.MouseButton.LeftButton)
    assert view.zoom == 1.0 and view.screen_pos(pid) == before
    settle(qtbot, view)


def test_the_map_follows_the_current_paper_off_the_part_shown(qtbot, window):
    """Zoomed in, the ring of the paper made current in the table was often off screen (a trial): a paper off
    the part shown is brought to the middle; one on it leaves the view where it is."""
    view, lib = window.map_pane.view, window.library
    ids = lib.search("").ids
    view.zoom_by(8.0, QPointF(view.width() / 2, view.height() / 2))
    inside = QRectF(view.rect()).adjusted(30, 30, -30, -30)
    # (not the table's current paper: ringed already, it is not made current again)
    away = next(p for p in ids if p != window.table.current_id and not inside.contains(view.screen_pos(p)))
    view.set_current(away)
    middle = QRectF(view.rect()).center()
    assert (view.screen_pos(away) - middle).manhattanLength() < 1.0
    near = next(p for p in ids if p != away and inside.contains(view.screen_pos(p)))
    before = view.screen_pos(near)
    view.set_current(near)
    assert view.screen_pos(near) == before


def test_export_png_and_svg(qtbot, window, tmp_path):
    view, lib = window.map_pane.view, window.library
    with qtbot.waitSignal(window.map_pane.exportFinished, timeout=20000) as got:
        assert window.map_pane.export(tmp_path / "map.png")
    assert got.args[0] == tmp_path / "map.png"
    image = QImage(str(tmp_path / "map.png"))
    assert image.height() == view.height() * 2 and image.width() > view.width() * 2  # twice the screen's, and a legend
    proteins = theme_ids(lib, "protein folding")
    pid = lonely(view, proteins, [i for i in lib.search("").ids if i not in proteins])
    at = view.screen_pos(pid) * 2
    assert close(QColor(image.pixel(round(at.x()), round(at.y()))), view.dot_colour(pid))
    with qtbot.waitSignal(window.map_pane.exportFinished, timeout=20000):
        window.map_pane.export(tmp_path / "map.svg")
    root = ET.parse(tmp_path / "map.svg").getroot()
    ns = "{http://www.w3.org/2000/svg}"
    legend = root.find(f".//{ns}g[@id='legend']")
    circles = [c for c in root.findall(f".//{ns}circle") if c not in legend]
    assert len(circles) == lib.counts()["all"]  # every paper in view
    shown = next(c for c in circles if abs(float(c.get("cx")) - view.screen_pos(pid).x()) < 0.06
                 and abs(float(c.get("cy")) - view.screen_pos(pid).y()) < 0.06)  # fmt: skip
    assert shown is not None
    texts = [t.text for t in root.findall(f".//{ns}text") if t not in legend]
    assert texts and texts == [label.text for label in view.labels()] * 2  # a halo, then the name
    from PySide6.QtSvg import QSvgRenderer

    assert QSvgRenderer(str(tmp_path / "map.svg")).isValid()
    assert "Map exported" in window.notice.text()


def test_topics_computed_while_the_map_is_open_show_on_it(qtbot, data_dir, tmp_path):
    lib = Library.open(data_dir)
    lib.import_files([write_jsonl(tmp_path / "planted.jsonl", planted(4))])  # 35 papers: not grouped alone
    lib.close()
    w = create_main_window(data_dir)
    qtbot.addWidget(w)
    w.topics_bar.use_process = False
    w.show()
    try:
        w.show_tab(1)
        view = w.map_pane.view
        qtbot.waitUntil(lambda: not view.loading)
        assert view.data is None and w.map_pane.computeButton.isVisibleTo(w)
        qtbot.mouseClick(w.map_pane.computeButton, Qt.MouseButton.LeftButton)
        settle(qtbot, view)
        assert len(view.data.ids) == w.library.counts()["all"] and not w.map_pane.computeButton.isVisibleTo(w)
    finally:
        w.close()
        w.shutdown()


def test_a_recompute_keeps_the_view_the_area_and_the_paper_ringed(qtbot, window):
    view, lib = window.map_pane.view, window.library
    control = theme_ids(lib, "reward shaping")
    start, end = island(view, control)
    with qtbot.waitSignal(view.areaSelected):
        drag(view, start, end)
    area = set(view.area_ids)
    pid = control[0]
    window.table.go_to(pid)
    view.zoom_by(2.0, view.screen_pos(pid))
    where = view.screen_pos(pid)
    window.topics_bar.count = 4
    with qtbot.waitSignal(view.loaded, timeout=60000):
        window.topics_bar.recompute()
    settle(qtbot, view)
    after = view.screen_pos(pid)
    assert view.zoom == 2.0 and (after - where).manhattanLength() < 0.5  # nothing moved: the same places
    assert set(view.area_ids) == area and set(window.table.model.ids) == area
    assert window.table.current_id == pid


def test_dots_at_the_edges_are_clipped_not_wrapped():
    """A dot just past any edge draws its inner side only: nothing past the buffer (an IndexError before)
    and nothing wrapped onto the far side of another row."""
    import numpy as np

    from readinglist.ui.map_render import Layer, View, rasterise

    w, h, r = 40, 30, 3.0
    view = View(0.0, 0.0, 1.0, w, h)
    for x, y in ((-3.0, 15.0), (w + 2.0, 15.0), (20.0, -3.0), (20.0, h + 2.0), (w + 1.0, h + 1.0), (-2.0, -2.0)):
        layer = Layer(np.array([x]), np.array([y]), np.array([0xFF0000], np.uint32), r)
        buf = rasterise(view, 0xFFFFFF, [layer])
        painted = np.argwhere(buf & 0xFFFFFF != 0xFFFFFF)
        assert len(painted), (x, y)  # its inner side shows
        assert all(abs(px - x) <= r + 1 and abs(py - y) <= r + 1 for py, px in painted), (x, y)  # only there


def test_the_triage_keys_act_on_an_area_and_0_fits_the_map(qtbot, window):
    view, lib = window.map_pane.view, window.library
    control = theme_ids(lib, "reward shaping") + theme_ids(lib, "policy gradient")
    start, end = island(view, control)
    with qtbot.waitSignal(view.areaSelected) as got:
        drag(view, start, end)
    area = set(got.args[0])
    assert set(window.table.selected_ids()) == area
    assert window.statusLabel.text().endswith(f"triaged 0 of {len(area)} · {len(area)} selected")
    view.setFocus()
    for key, state in ((Qt.Key.Key_X, "skipped"), (Qt.Key.Key_Q, "queued")):
        qtbot.keyClick(view, key)  # x and q on the map mark the area, as r does
        assert {lib.paper(i).state for i in area} == {state}
    assert f"triaged {len(area)} of {len(area)}" in window.statusLabel.text()
    for key, priority in ((Qt.Key.Key_1, 1), (Qt.Key.Key_3, 3), (Qt.Key.Key_2, 2)):
        qtbot.keyClick(view, key)  # and 1/2/3 give it a priority
        assert {lib.paper(i).priority for i in area} == {priority}
    assert set(window.table.selected_ids()) == area  # the keys leave the area selected
    view.zoom_by(2.0, QPointF(view.width() / 2, view.height() / 2))
    qtbot.keyClick(view, Qt.Key.Key_0)  # 0 on the map fits it: it clears no priority
    assert view.zoom == 1.0
    assert {lib.paper(i).priority for i in area} == {2}
    window.show_tab(0)  # the papers as a list: there 0 still clears the priority
    window.table.view.setFocus()
    qtbot.waitUntil(window.table.view.hasFocus)
    qtbot.keyClick(window.table.view, Qt.Key.Key_0)
    assert {lib.paper(i).priority for i in area} == {None}


def test_a_removed_paper_leaves_the_map_and_undo_brings_its_dot_back(qtbot, window):
    """A removed paper kept its dot (the stored map keeps its place, for undo) until topics were computed
    again: a click on it showed a paper the library no longer has."""
    view, lib = window.map_pane.view, window.library
    proteins = theme_ids(lib, "protein folding")
    pid = lonely(view, proteins, [i for i in lib.search("").ids if i not in proteins])
    where = view.screen_pos(pid)
    assert view.paper_at(where) == pid
    window.table.select_ids([pid])
    window.remove_papers()
    qtbot.waitUntil(lambda: view.data is not None and pid not in view.data.ids.tolist() and view.up_to_date)
    assert view.screen_pos(pid) is None and view.paper_at(where) is None
    assert len(view.data.ids) == lib.counts()["all"]
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: view.data is not None and pid in view.data.ids.tolist() and view.up_to_date)
    assert view.paper_at(view.screen_pos(pid)) == pid


def test_a_paper_removed_from_the_command_line_leaves_the_map(qtbot, window, planted_dir):
    """The window learns of another process's removal (OutsideChanges) and reads the map again."""
    view = window.map_pane.view
    pid = int(view.data.ids[0])
    other = Library.open(planted_dir)  # the command line, as far as the window can tell
    try:
        assert other.remove([pid]) == [pid]
    finally:
        other.close()
    qtbot.waitUntil(lambda: view.data is not None and pid not in view.data.ids.tolist(), timeout=15000)
    assert view.screen_pos(pid) is None


def test_a_long_name_goes_on_two_lines_rather_than_nowhere(qtbot, window, monkeypatch, tmp_path):
    """A name wider than LABEL_REACH times its topic's papers was dropped: at the default zoom the NeurIPS
    map's largest topic ("reinforcement learning") had none. Now it may take two lines, on screen and in an
    export."""
    from PySide6.QtGui import QFontMetricsF

    from readinglist.ui import map_view

    view = window.map_pane.view
    view.zoom_by(1.001, QPointF(view.width() / 2, view.height() / 2))  # the names are placed again
    data = view.data
    row = max(range(len(data.topics)), key=lambda r: data.topics[r].size)
    first = data.topics[row].phrases[0]
    words = first.split(" ")
    assert len(words) > 1
    metrics = QFontMetricsF(view.font())
    one_wide = metrics.horizontalAdvance(first) + 10
    two_wide = (
        max(metrics.horizontalAdvance(" ".join(part)) for part in (words[: len(words) // 2], words[len(words) // 2 :]))
        + 10
    )
    per_reach = 2 * float(data.islands[row][2]) * view.view().scale / view.devicePixelRatioF()
    monkeypatch.setattr(map_view, "LABEL_REACH", (one_wide + two_wide) / 2 / per_reach)  # one line too wide
    texts = [label.text for label in view.labels()]
    assert first not in texts
    two = next(t for t in texts if t.replace("\n", " ") == first)
    assert two.count("\n") == 1
    with qtbot.waitSignal(window.map_pane.exportFinished, timeout=20000):
        window.map_pane.export(tmp_path / "map.svg")
    ns = "{http://www.w3.org/2000/svg}"
    root = ET.parse(tmp_path / "map.svg").getroot()
    spans = [[span.text for span in text.findall(f"{ns}tspan")] for text in root.findall(f".//{ns}text")]
    assert two.split("\n") in spans


def test_an_area_of_one_paper_says_one_paper(qtbot, window):
    """ "Map area: 1 papers", "(among the 1 papers of the map area …)" (a new user's trial)."""
    view, lib = window.map_pane.view, window.library
    one = lib.search("graph convolution").ids[0]
    view.areaSelected.emit([one])  # what a drag around one dot emits
    qtbot.waitUntil(lambda: window.table.model.ids == [one])
    assert window.areaChip.text().startswith("Map area: 1 paper ")
    with qtbot.waitSignal(window.searchFinished, timeout=10000):
        window.search_bar.field.setText("zzzqqq")
    empty = window.findChild(QLabel, "emptyLabel")
    assert "(among the 1 paper of the map area" in empty.text()


def ranked_by_marks(qtbot, window) -> list[int]:
    """Three control papers read and three graph papers skipped, marked in the window: the suggestions rank the
    rest of the control theme first, an order other than the order added. Returns the control papers unmarked."""
    lib = window.library
    control = theme_ids(lib, "reward shaping") + theme_ids(lib, "policy gradient")
    control = list(dict.fromkeys(control))
    graphs = theme_ids(lib, "graph neural networks")
    with qtbot.waitSignal(window.suggester.rankingChanged, timeout=10000):
        window.table.select_ids(control[:3])
        window.mark("read")
        window.table.select_ids(graphs[:3])
        window.mark("skipped")
    qtbot.waitUntil(lambda: window.suggester.idle and window.search_bar.idle)
    return control[3:]


def test_letting_go_of_an_area_keeps_the_suggested_order_and_the_paper(qtbot, window):
    """Suggested, an area dragged over on the map, Esc: the list came back in the order added (1988's papers
    first) under "By predicted interest", the paper shown far down it (a user trial). The area's results were
    the search's, not the view's arranged in its order."""
    view, lib = window.map_pane.view, window.library
    control = ranked_by_marks(qtbot, window)
    window.show_tab(0)
    click_sidebar(qtbot, window, SUGGESTED_KEY)
    qtbot.waitUntil(lambda: window.search_bar.idle and window.sidebar.filter.suggested)
    qtbot.waitUntil(lambda: len(window.table.model.ids) == lib.counts()["all"] - 6)
    order = list(window.table.model.ids)
    assert order != sorted(order) and set(order[:5]) <= set(control)  # by interest, not the order added
    paper = order[4]
    assert window.table.go_to(paper)
    window.show_tab(1)
    settle(qtbot, view)
    start, end = island(view, control)
    with qtbot.waitSignal(view.areaSelected) as got:
        drag(view, start, end)
    assert paper in got.args[0]
    assert window.table.model.ids == [i for i in order if i in set(got.args[0])]  # the area, in the view's order
    qtbot.keyClick(view, Qt.Key.Key_Escape)  # every result again
    assert view.area_ids == [] and not window.areaChip.isVisible()
    window.show_tab(0)
    assert window.table.model.ids == order
    assert window.table.current_id == paper
    assert "predicted interest" in window.order_note.label.text()


def test_the_edit_controls_show_the_paper_once_an_area_is_let_go(qtbot, window):
    """A search, an area dragged over away from the paper shown: the area's first paper current, its papers
    selected (no state button pressed, their common tags). Esc: that paper alone selected again, but its state
    buttons stayed unpressed and its tag field empty, a click on its row changing nothing (a user trial): the
    same paper stayed current, so it was not shown anew."""
    view, lib = window.map_pane.view, window.library
    search(qtbot, window, '"reward shaping"')
    results = list(window.table.model.ids)
    by_x = sorted(results, key=lambda pid: view.screen_pos(pid).x())
    start, end = island(view, by_x[: len(by_x) // 2])
    x0, y0 = view.map_pos(start)
    x1, y1 = view.map_pos(end)
    area = set(lib.library_map().within(x0, y0, x1, y1)) & set(results)
    assert len(area) > 1 and by_x[-1] not in area
    first = next(pid for pid in results if pid in area)  # current once the area is selected
    lib.set_state([first], "skipped")
    lib.add_tags([first], ["RL"])
    assert window.table.go_to(by_x[-1])
    skipped, tags = window.mark_actions["skipped"], window.editors.tagEditor
    qtbot.waitUntil(lambda: window.detail.paper_id == by_x[-1])
    with qtbot.waitSignal(view.areaSelected) as got:
        drag(view, start, end)
    assert set(got.args[0]) == area and window.table.current_id == first
    qtbot.waitUntil(lambda: window.detail.paper_id == first)
    assert not skipped.isChecked() and tags.text() == ""  # several papers selected
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert window.table.current_id == first and window.table.selected_ids() == [first]
    qtbot.waitUntil(lambda: skipped.isChecked() and tags.text() == "RL")


def test_select_all_and_back_to_one_paper_the_edit_controls_follow(qtbot, window):
    """The same without the map: every row selected around the paper shown and then that row clicked, the
    current paper never changing."""
    lib = window.library
    window.show_tab(0)
    paper = window.table.model.ids[2]
    lib.set_priority([paper], 1)
    lib.add_tags([paper], ["RL"])
    assert window.table.go_to(paper)
    p1 = window.priority_actions[0]
    qtbot.waitUntil(lambda: p1.isChecked() and window.editors.tagEditor.text() == "RL")
    window.table.view.selectAll()
    qtbot.waitUntil(lambda: not p1.isChecked() and window.editors.tagEditor.text() == "")
    row = window.table.view.visualRect(window.table.model.index(2, 1)).center()
    qtbot.mouseClick(window.table.view.viewport(), Qt.MouseButton.LeftButton, pos=row)
    assert window.table.selected_ids() == [paper]
    qtbot.waitUntil(lambda: p1.isChecked() and window.editors.tagEditor.text() == "RL")


def test_the_results_the_area_and_the_current_paper_stay_visible_when_dots_are_a_pixel(qtbot, window, monkeypatch):
    """On a 98k library the dots are a pixel across, and so were the results of a search, the area's outline
    and the current paper's ring: invisible (a trial). They keep a least size in pixels, drawn on top."""
    from readinglist.ui import map_render
    from readinglist.ui.map_view import MIN_HIT_PX, MIN_RING_PX

    monkeypatch.setattr(map_render, "dot_radius", lambda n, view, zoom, dpr=1.0: 0.5)  # as 98k papers draw
    view, lib = window.map_pane.view, window.library
    with qtbot.waitSignal(window.searchFinished, timeout=10000):
        window.search_bar.field.setText('"graph convolution"')
    results = set(window.table.model.ids)
    qtbot.waitUntil(lambda: view.dot_colour(lib.search("").ids[-1]) != view.dot_colour(next(iter(results))))
    view.fit()
    settle(qtbot, view)
    everyone = lib.search("").ids
    lit = lonely(view, list(results), [i for i in everyone if i not in results])
    at = view.screen_pos(lit)
    image = view.grab().toImage()
    reach = int(MIN_HIT_PX) - 1  # a pixel well inside the least radius, each side of the centre
    for dx, dy in ((reach, 0), (-reach, 0), (0, reach), (0, -reach)):
        assert close(QColor(image.pixel(round(at.x()) + dx, round(at.y()) + dy)), view.dot_colour(lit)), (dx, dy)
    # the current paper: a ring of the highlight colour at least MIN_RING_PX across, whatever the dots' size
    window.go_to_paper(lit)
    qtbot.waitUntil(lambda: window.table.current_id == lit)
    image = view.grab().toImage()
    highlight = view.palette().color(view.palette().ColorRole.Highlight)
    ring = [
        (dx, dy)
        for dx in range(-14, 15)
        for dy in range(-14, 15)
        if close(QColor(image.pixel(round(at.x()) + dx, round(at.y()) + dy)), highlight, 40)
    ]
    assert ring and min(abs(complex(dx, dy)) for dx, dy in ring) >= MIN_RING_PX - 2.5


@pytest.mark.parametrize("size", [(1600, 1000), (1130, 700), (900, 600), (800, 540)])
def test_the_legend_and_the_hint_do_not_overlap(qtbot, window, size):
    """The states' legend sat in the bar beside the hint, and one cut the other (a trial: the hint gone, the
    legend ending "● S"). The legend is on the map, every state's name whole; the hint has the bar, and where a
    row has not the room for its first words it goes on the next (it was cut to nothing at 800 × 540)."""
    pane, view = window.map_pane, window.map_pane.view
    window.resize(*size)
    pane.set_colour_by("state")
    qtbot.waitUntil(lambda: view.legend_rect() is not None)
    pane.layout().activate()
    legend = QRectF(view.mapTo(pane, view.legend_rect().topLeft().toPoint()), view.legend_rect().size())
    hint = QRectF(pane.hint.geometry())
    assert not legend.intersects(hint)
    assert QRectF(view.geometry()).contains(legend)  # on the map, not cut by its edges
    assert pane.hint.isVisible() and pane.hint.text().startswith("Drag: select")  # at least its first words
    if size[0] >= 1600:
        assert pane.hint.text() == pane.hint.full_text()  # whole, where the pane has the room
    grab = view.grab(view.legend_rect().toAlignedRect()).toImage()
    colours = {QColor(grab.pixel(x, y)).rgb() & 0xFFFFFF for x in range(grab.width()) for y in range(grab.height())}
    for entry in view.legend():  # each state's dot is drawn
        assert any(close(QColor.fromRgb(c), QColor.fromRgb(entry.colour), 12) for c in colours), entry.label
    pane.set_colour_by("topic")
    assert view.legend_rect() is None  # the topics' names are on the map


def test_an_exported_image_has_the_legend_of_its_colours(qtbot, window, tmp_path):
    """A PNG exported had no legend: a picture passed on did not say what its colours were. Beside the map it
    has the topics' colours and names (or the reading states', coloured by state)."""
    view, pane = window.map_pane.view, window.map_pane
    for mode in ("topic", "state"):
        pane.set_colour_by(mode)
        settle(qtbot, view)
        path = tmp_path / f"{mode}.png"
        with qtbot.waitSignal(pane.exportFinished, timeout=20000):
            assert pane.export(path)
        image = QImage(str(path))
        side = image.copy(view.width() * 2 + 2, 0, image.width() - view.width() * 2 - 2, image.height())
        assert side.width() > 40
        colours = [QColor(side.pixel(x, y)) for x in range(0, side.width(), 2) for y in range(0, side.height(), 2)]
        entries = view.legend()
        assert len(entries) == (len(view.data.topics) if mode == "topic" else 5)
        for entry in entries:  # each colour's swatch is in the panel
            assert any(close(c, QColor.fromRgb(entry.colour), 12) for c in colours), entry.label
        text = QColor(view.palette().color(view.palette().ColorRole.Text))
        assert sum(close(c, text, 40) for c in colours) > 20  # and names written beside them
        svg = tmp_path / f"{mode}.svg"
        with qtbot.waitSignal(pane.exportFinished, timeout=20000):
            pane.export(svg)
        ns = "{http://www.w3.org/2000/svg}"
        legend = ET.parse(svg).getroot().find(f".//{ns}g[@id='legend']")
        names = [t.text for t in legend.findall(f"{ns}text")]
        assert len(names) == len(entries)  # each name, cut with "…" where it is long
        assert all(e.label.startswith(n.removesuffix("…")) for n, e in zip(names, entries, strict=True))


def test_a_paper_with_too_little_text_is_grey_on_the_map_and_says_why(qtbot, data_dir, tmp_path):
    """A title alone gets no topic (test_topics): its dot is in no topic's colour, its card says why, and the
    legend of an export names that grey."""
    from readinglist.ui.map_view import NO_TOPIC, NO_TOPIC_LABEL

    lib = Library.open(data_dir)
    short = {"title": "Graph neural networks for node classification", "abstract": "", "venue": "Short"}
    lib.import_files([write_jsonl(tmp_path / "planted.jsonl", [*planted(30), short])])
    lib.compute_topics(count=4, use_process=False)
    pid = lib.search("venue:Short").ids[0]
    lib.close()
    w = create_main_window(data_dir)
    qtbot.addWidget(w)
    w.topics_bar.use_process = False
    w.resize(1130, 700)
    w.show()
    try:
        w.show_tab(1)
        view = w.map_pane.view
        settle(qtbot, view)
        assert view.dot_colour(pid) == QColor.fromRgb(NO_TOPIC)
        mouse(view, QEvent.Type.MouseMove, view.screen_pos(pid))
        assert view.hovered == pid and view.hover_text.split("\n")[-1] == NO_TOPIC_LABEL
        assert view.legend()[-1].label == NO_TOPIC_LABEL and len(view.legend()) == len(view.data.topics) + 1
    finally:
        w.close()
        w.shutdown()


def test_the_map_first_shown_rings_the_paper_current_in_the_table(qtbot, planted_dir):
    """Ctrl+2 on a paper selected in the table: the map drew no ring (in either colour mode) until a dot was
    clicked or j pressed — the paper given before the map's data came was forgotten."""
    w = create_main_window(planted_dir)
    qtbot.addWidget(w)
    w.topics_bar.use_process = False
    w.resize(1130, 700)
    w.show()
    try:
        qtbot.waitUntil(lambda: w.table.model.rowCount() > 0)
        pid = theme_ids(w.library, "protein folding")[0]
        assert w.table.go_to(pid)
        qtbot.waitUntil(lambda: w.table.current_id == pid)
        w.show_tab(1)
        view = w.map_pane.view
        settle(qtbot, view)
        assert view.ringed == pid
        w.map_pane.set_colour_by("state")
        assert view.ringed == pid
    finally:
        w.close()
        w.shutdown()


def test_a_paper_the_map_had_no_dot_for_is_ringed_once_the_map_is_read_again(qtbot, planted_dir, tmp_path):
    """A paper a CLI import brought, made current before the window regrouped the topics: once the map is read
    again (its dot there now), it is ringed."""
    lib = Library.open(planted_dir)
    view = MapView(lib)
    qtbot.addWidget(view)
    try:
        with qtbot.waitSignal(view.loaded, timeout=15000):
            view.load()
        other = Library.open(planted_dir)  # the command line
        try:
            other.import_files([write_jsonl(tmp_path / "more.jsonl", planted(1, seed=7, start=90))])
            new = max(other.search("").ids)
            other.compute_topics(count=4, use_process=False)
        finally:
            other.close()
        assert not len(view.data.rows_of([new]))  # the map as read before: no dot for it
        view.set_current(new)  # the table's current paper
        assert view.ringed is None
        with qtbot.waitSignal(view.loaded, timeout=15000):
            view.load()
        assert view.ringed == new
    finally:
        view.close()
        lib.close()


def test_a_topic_and_a_search_that_finds_nothing_the_map_says_why_as_the_list_does(qtbot, window):
    topic = window.topics_section.topics[0]
    with qtbot.waitSignal(window.searchFinished, timeout=10000):
        window.topics_section.set_topic(topic.id)
    search(qtbot, window, "xylophonequartz")
    pane = window.map_pane
    assert window.table.model.rowCount() == 0
    label = pane.emptyLabel
    assert label.isVisibleTo(window) and label.text() == window.table.view.emptyLabel.text()
    assert topic.label in label.text() and "alltopics" in label.text()
    with qtbot.waitSignal(window.searchFinished, timeout=10000):
        label.linkActivated.emit("alltopics")  # its links act as the list's
    assert window.topics_section.topic is None
    search(qtbot, window, "")
    assert not label.isVisibleTo(window)
