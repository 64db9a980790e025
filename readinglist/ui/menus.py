"""The window's menus: the menu bar (File, Edit, Paper, Go, View, Help), the papers' context menu, and the
pages the Help menu opens. Built from the window's actions, so that each action is defined once, with its key."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QApplication, QMenu

from readinglist.ui import theme

if TYPE_CHECKING:
    from readinglist.ui.help import HelpWindow
    from readinglist.ui.main_window import MainWindow


def build(w: MainWindow) -> None:
    bar = w.menuBar()
    file_menu = bar.addMenu("&File")
    file_menu.addActions([w.actionImport, w.actionMergeNotes, w.actionExport])
    file_menu.addSeparator()
    file_menu.addAction(w.actionSaveList)
    file_menu.addSeparator()
    file_menu.addActions([w.actionBackup, w.actionRestore])
    file_menu.addSeparator()
    file_menu.addAction(w.actionQuit)
    edit = bar.addMenu("&Edit")
    edit.addActions([w.actionUndo, w.actionRedo])
    edit.addSeparator()
    edit.addActions([w.actionCopyCitation, w.actionCopyBibtex, w.actionCopyId])
    edit.addSeparator()
    edit.addActions([w.actionFocusSearch, w.actionApplyCorrection, w.actionFocusTags, w.actionFocusNotes,
                     w.actionEditTitle])  # fmt: skip
    paper = bar.addMenu("&Paper")
    paper.addActions(list(w.mark_actions.values()))
    paper.addSeparator()
    paper.addActions(w.priority_actions)
    paper.addSeparator()
    paper.addActions([w.actionOpenLink, w.actionMerge, w.actionKeepApart, w.actionRemove])
    paper.addSeparator()
    paper.addAction(w.actionInterests)
    paper.addAction(w.actionAutoAdvance)
    go = bar.addMenu("&Go")
    go.addActions([w.actionBack, w.actionForward])
    go.addSeparator()
    go.addActions([w.actionNext, w.actionPrevious])
    go.addSeparator()
    go.addAction(w.actionShowAll)
    view = bar.addMenu("&View")
    view.addActions([w.actionShowPapers, w.actionShowMap])
    view.addSeparator()
    appearance = view.addMenu("&Appearance")
    group = QActionGroup(w)
    w.scheme_actions = {}
    for key, label in theme.SCHEMES.items():
        action = QAction(label, group, checkable=True)
        action.setObjectName(f"actionScheme-{key}")
        action.setChecked(key == theme.chosen())
        action.triggered.connect(lambda _on=False, k=key: set_scheme(w, k))
        appearance.addAction(action)
        w.scheme_actions[key] = action
    columns = view.addMenu("&Columns")
    columns.aboutToShow.connect(lambda: _fill_columns(w, columns))
    view.addAction(w.actionSortRelevance)
    view.addAction(w.actionSortSuggested)
    help_menu = bar.addMenu("&Help")
    help_menu.addActions([w.actionShortcuts, w.actionSearchSyntax])
    help_menu.addSeparator()
    help_menu.addAction(w.actionAbout)


def _fill_columns(w: MainWindow, menu: QMenu) -> None:
    menu.clear()
    for action in w.table.view.column_menu().actions():
        action.setParent(menu)
        menu.addAction(action)


def set_scheme(w: MainWindow, key: str) -> None:
    """Light, dark, or the system's: used now and kept."""
    app = QApplication.instance()
    if isinstance(app, QApplication):
        theme.apply(app, key)
    w.settings.setValue("colorScheme", key)
    w.scheme_actions[key].setChecked(True)


def paper_menu(w: MainWindow) -> QMenu:
    """The context menu of the papers selected (or the one under the pointer). The window's own actions,
    so that each shows its key; where one cannot apply, a disabled copy stands in (the window's stays as it is)."""
    from readinglist.ui.paper_actions import web_links  # (citations, the browser: when first used)

    menu = QMenu(w)
    menu.setObjectName("paperMenu")
    ids = w.target_ids()
    paper = w.library.paper(ids[0]) if len(ids) == 1 else None
    links = web_links(paper)

    def add(action: QAction, applies: bool = True) -> None:
        if ids and applies and action.isEnabled():
            menu.addAction(action)
        else:
            stand_in = menu.addAction(action.text())
            stand_in.setShortcut(action.shortcut())
            stand_in.setEnabled(False)

    for action in w.mark_actions.values():
        add(action)
    priority = menu.addMenu("&Priority")
    for action in w.priority_actions:
        if ids and action.isEnabled():
            priority.addAction(action)
    priority.setEnabled(bool(priority.actions()))
    menu.addSeparator()
    add(w.actionFocusTags)
    if len(links) > 1:
        sub = menu.addMenu("&Open Link")
        for url in links:
            sub.addAction(url.split("://", 1)[1], partial(w.open_link, url))
    else:
        add(w.actionOpenLink, bool(links) or len(ids) > 1)
    menu.addSeparator()
    for action in (w.actionCopyCitation, w.actionCopyBibtex, w.actionCopyId):
        add(action)
    menu.addSeparator()
    if len(ids) == 2:  # two papers that may be one: merge them, or say they are distinct
        add(w.actionMerge)
        add(w.actionKeepApart)
    add(w.actionRemove)
    return menu


def _open(w: MainWindow, name: str, title: str, page: str) -> HelpWindow:
    from readinglist.ui.help import HelpWindow  # the Help pages load when first opened, not before the first paint

    existing = w.findChild(HelpWindow, name)
    window = existing or HelpWindow(w, name, title, page)
    window.show()
    window.raise_()
    return window


def show_shortcuts(w: MainWindow) -> HelpWindow:
    groups = [(m.title(), [a for a in m.actions() if not a.isSeparator()]) for m in w.menuBar().findChildren(QMenu)
              if m.parent() is w.menuBar()]  # fmt: skip
    extra = [a for a in w.table.key_actions if not any(a in actions for _, actions in groups)]
    from readinglist.ui.help import shortcuts_html

    page = shortcuts_html([*groups, ("In the list", extra)], w.table.key_actions)
    return _open(w, "shortcutsWindow", "Keyboard Shortcuts", page)


def show_search_syntax(w: MainWindow) -> HelpWindow:
    from readinglist.ui.help import search_syntax_html

    return _open(w, "searchSyntaxWindow", "Search Syntax", search_syntax_html())


def show_about(w: MainWindow) -> HelpWindow:
    from readinglist.ui.help import about_html

    return _open(w, "aboutWindow", "About readinglist", about_html(w.library.data_dir))
