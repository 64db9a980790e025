"""Starting the window: one running instance per library, the system's colour scheme, and start-up failures
shown to the user (a dialog, or one line on stderr without a display), never a silent exit."""

from __future__ import annotations

import hashlib
import os
import sys
import time
from pathlib import Path
from typing import cast

from readinglist import APP_NAME, paths


def _qt_platform_available() -> bool:
    if sys.platform != "linux" or os.environ.get("QT_QPA_PLATFORM"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _settings(data_dir: Path):
    from PySide6.QtCore import QSettings

    # beside the library, so that every data dir (and every test) has its own window state
    return QSettings(str(data_dir / "settings.ini"), QSettings.Format.IniFormat)


def apply_color_scheme(app) -> None:
    """Fusion in the system's light or dark scheme (READINGLIST_COLOR_SCHEME=light|dark overrides)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor, QPalette

    app.setStyle("Fusion")
    wanted = os.environ.get("READINGLIST_COLOR_SCHEME", "").lower()
    hints = app.styleHints()
    if wanted in ("dark", "light"):
        hints.setColorScheme(Qt.ColorScheme.Dark if wanted == "dark" else Qt.ColorScheme.Light)
    dark = wanted == "dark" or (wanted != "light" and hints.colorScheme() == Qt.ColorScheme.Dark)
    if not dark:
        app.setPalette(app.style().standardPalette())
        return
    p = QPalette()
    roles = {
        QPalette.ColorRole.Window: "#202124",
        QPalette.ColorRole.WindowText: "#e8eaed",
        QPalette.ColorRole.Base: "#17181a",
        QPalette.ColorRole.AlternateBase: "#26282b",
        QPalette.ColorRole.ToolTipBase: "#303134",
        QPalette.ColorRole.ToolTipText: "#e8eaed",
        QPalette.ColorRole.Text: "#e8eaed",
        QPalette.ColorRole.Button: "#2b2c2f",
        QPalette.ColorRole.ButtonText: "#e8eaed",
        QPalette.ColorRole.BrightText: "#ffffff",
        QPalette.ColorRole.Highlight: "#3d6fb4",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.Link: "#8ab4f8",
        QPalette.ColorRole.PlaceholderText: "#9aa0a6",
    }
    for role, color in roles.items():
        p.setColor(role, QColor(color))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7f8388"))
    app.setPalette(p)


def app_icon():
    from PySide6.QtGui import QIcon

    icon = QIcon()
    try:
        folder = paths.resources_dir() / "icons"
    except FileNotFoundError:
        return icon
    for png in sorted(folder.glob("readinglist-*.png")):
        icon.addFile(str(png))
    svg = folder / "readinglist.svg"
    if icon.isNull() and svg.exists():
        icon.addFile(str(svg))
    return icon


def create_main_window(data_dir: Path, read_only: bool = False, read_only_reason: str | None = None):
    """Build the window over the library in `data_dir` on an existing QApplication (the test contract)."""
    from readinglist.library import Library
    from readinglist.ui import runtime
    from readinglist.ui.compat import immortalize_singletons
    from readinglist.ui.main_window import MainWindow

    runtime.tune_interpreter()
    immortalize_singletons()
    data_dir = Path(data_dir)
    library = Library.open(data_dir, read_only=read_only, defer_index=True, read_only_reason=read_only_reason)
    read_only_reason = library.read_only_reason if library.read_only else None
    library.start_background_indexing()
    window = MainWindow(library, _settings(data_dir), read_only_reason=read_only_reason)
    window.setWindowIcon(app_icon())
    return window


def _server_name(data_dir: Path) -> str:
    return "readinglist-" + hashlib.sha1(str(data_dir.resolve()).encode()).hexdigest()[:16]


def _report_startup_failure(message: str) -> None:
    from PySide6.QtWidgets import QApplication, QMessageBox

    if (
        QApplication.instance() is not None
        and _qt_platform_available()
        and os.environ.get("QT_QPA_PLATFORM") != "offscreen"
    ):
        QMessageBox.critical(None, "readinglist cannot start", message)
    print(f"readinglist: {message}", file=sys.stderr)


_qt_warnings: list[str] = []


def _qt_messages(mode, context, message: str) -> None:
    """Qt aborts the process when no platform plugin loads; say why, in one line, and exit cleanly instead."""
    from PySide6.QtCore import QtMsgType

    if mode == QtMsgType.QtFatalMsg:
        hints = [w for w in _qt_warnings if "needed" in w or "Could not load" in w or "Could not find" in w]
        cause = hints[0] if hints else message.splitlines()[0]
        print(
            f"readinglist: cannot start the window: {cause.strip()} "
            "(install the missing system library, or set QT_QPA_PLATFORM to another platform, e.g. wayland or xcb)",
            file=sys.stderr,
        )
        sys.stderr.flush()
        os._exit(1)
    if mode in (QtMsgType.QtWarningMsg, QtMsgType.QtCriticalMsg):
        _qt_warnings.append(message)
        if os.environ.get("READINGLIST_DEBUG"):
            print(message, file=sys.stderr)


LISTEN_DELAY_MS = 300


def _raise_running(folder: Path) -> bool:
    """Ask the window that holds this library's lock to come forward; True if it answered. It may have
    started a moment ago and not be listening yet, so knock for a few seconds."""
    from PySide6.QtNetwork import QLocalSocket

    deadline = time.monotonic() + 3.0
    while True:
        socket = QLocalSocket()
        socket.connectToServer(_server_name(folder))
        if socket.waitForConnected(500):
            socket.write(b"raise\n")
            socket.waitForBytesWritten(1000)
            socket.disconnectFromServer()
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)


def run(data_dir: str | os.PathLike[str] | None = None, smoke_test: bool = False) -> int:
    """Start the app. Returns the process exit code."""
    if not _qt_platform_available():
        if smoke_test:
            os.environ["QT_QPA_PLATFORM"] = "offscreen"
        else:
            print(
                "readinglist: no display found (DISPLAY/WAYLAND_DISPLAY unset); the command line still works: "
                "readinglist --help",
                file=sys.stderr,
            )
            return 1
    started = time.perf_counter()
    try:
        from PySide6.QtCore import QEvent, QLockFile, QObject, QTimer, qInstallMessageHandler
        from PySide6.QtWidgets import QApplication
    except ImportError as exc:
        print(f"readinglist: Qt could not be loaded ({exc}); is PySide6 installed?", file=sys.stderr)
        return 1

    qInstallMessageHandler(_qt_messages)
    app = cast(QApplication, QApplication.instance()) or QApplication([sys.argv[0]])
    app.setApplicationName(APP_NAME)
    app.setApplicationDisplayName("readinglist")
    app.setDesktopFileName("io.github.readinglist.readinglist")
    apply_color_scheme(app)
    app.styleHints().colorSchemeChanged.connect(lambda _scheme: apply_color_scheme(app))
    app.setWindowIcon(app_icon())

    from readinglist.store import unwritable

    folder = paths.data_dir(data_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        why = unwritable(folder)
    except OSError as exc:
        why = exc.strerror or str(exc)
    read_only, reason = False, None
    lock = None
    if why:  # a library on a read-only disk or in someone else's folder is still there to read
        if not (folder / "library.db").exists():
            _report_startup_failure(f"the data folder {folder} cannot be written ({why}).")
            return 1
        read_only, reason = True, f"Read-only: {folder} cannot be written ({why})."
    else:
        # one window per library: a second start raises the first, or (if that fails) opens read-only
        lock = QLockFile(str(folder / "readinglist.lock"))
        lock.setStaleLockTime(0)
        if not lock.tryLock(100):
            if _raise_running(folder):
                print("readinglist is already running on this library; raised its window.", file=sys.stderr)
                return 0
            read_only = True
            reason = "Read-only: another readinglist window has this library open."

    try:
        window = create_main_window(folder, read_only=read_only, read_only_reason=reason)
    except Exception as exc:  # a corrupt database, a locked file…: say what and where
        _report_startup_failure(f"cannot open the library in {folder}: {exc}")
        return 1

    servers: list = []

    def listen() -> None:
        """The door a second start knocks on to raise this window. Opened after the first paint:
        loading QtNetwork would delay the first paint; until then a second start waits for it (_raise_running)."""
        from PySide6.QtNetwork import QLocalServer

        server = QLocalServer()
        QLocalServer.removeServer(_server_name(folder))
        server.listen(_server_name(folder))

        def raise_window() -> None:
            conn = server.nextPendingConnection()
            if conn is not None:
                conn.close()
            window.showNormal()
            window.raise_()
            window.activateWindow()

        server.newConnection.connect(raise_window)
        servers.append(server)

    if not read_only:
        QTimer.singleShot(LISTEN_DELAY_MS, listen)
    window.show()
    if smoke_test:
        table = window.table.view

        class PaintWatch(QObject):
            def eventFilter(self, obj: QObject, event: QEvent) -> bool:
                if event.type() == QEvent.Type.Paint and window.table.model.rowCount() > 0:
                    QTimer.singleShot(0, finish)
                return False

        def finish() -> None:
            if getattr(finish, "done", False):
                return
            finish.done = True  # type: ignore[attr-defined]
            print(
                f"smoke test: window painted with {window.table.model.rowCount()} papers "
                f"in {time.perf_counter() - started:.2f} s",
                file=sys.stderr,
            )
            window.close()
            app.quit()

        watcher = PaintWatch()
        table.viewport().installEventFilter(watcher)
        QTimer.singleShot(60000, lambda: (print("smoke test: timed out", file=sys.stderr), app.exit(1)))
    code = app.exec()
    window.shutdown()
    for server in servers:
        server.close()
    if lock is not None:
        lock.unlock()
    return int(code)
