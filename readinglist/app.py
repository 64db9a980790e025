"""Starting the window: one running instance per library, the system's colour scheme, and start-up failures
shown to the user (a dialog, or one line on stderr without a display), never a silent exit."""

from __future__ import annotations

import os
import re
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


def apply_color_scheme(app, choice: object = None) -> None:
    """Fusion in the scheme chosen in the window (View → Appearance), or the system's; the environment's
    READINGLIST_COLOR_SCHEME=light|dark overrides both (ui/theme.py)."""
    from readinglist.ui import theme

    theme.apply(app, choice)


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
    from readinglist.ui.compat import immortalize_singletons, quick_feature_scan

    quick_feature_scan()  # run() applied it before Qt; a caller that imported Qt itself gets it from here on
    from readinglist.library import Library
    from readinglist.ui import runtime
    from readinglist.ui.main_window import MainWindow

    runtime.tune_interpreter()
    immortalize_singletons()
    data_dir = Path(data_dir)
    library = Library.open(data_dir, read_only=read_only, defer_index=True, read_only_reason=read_only_reason)
    read_only_reason = library.read_only_reason if library.read_only else None
    library.start_background_indexing()
    library.rank_in_child_process()
    window = MainWindow(library, _settings(data_dir), read_only_reason=read_only_reason)
    window.setWindowIcon(app_icon())
    return window


def _server_name(data_dir: Path) -> str:
    import hashlib  # after the first paint (OpenSSL): the window listens then

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


def failed_platform(warnings: list[str], message: str) -> str:
    """The platform plugin Qt could not load ("xcb"), from its messages."""
    for text in [*warnings, message]:
        m = re.search(r'platform plugin "([^"]+)"', text)
        if m:
            return m.group(1)
    return os.environ.get("QT_QPA_PLATFORM", "") or "xcb"


def startup_failure_text(warnings: list[str], message: str, explain=None) -> str:
    """What to say when Qt cannot start the window: the cause, every missing system library with the
    command that installs it, and another platform to try (not the one that failed)."""
    from readinglist import system_libs

    platform = failed_platform(warnings, message)
    hints = [w for w in warnings if "needed" in w or "Could not load" in w or "Could not find" in w]
    cause = (hints[0] if hints else message.splitlines()[0]).strip()
    unreachable = next((w for w in warnings if "could not connect to display" in w), None)
    if unreachable is not None:  # Qt then also says xcb-cursor "is needed", whether it is there or not (a trial)
        display = os.environ.get("DISPLAY", "")
        cause = f"{unreachable.strip()}: is the X server running, and is DISPLAY={display} the right one?"
    lines = [f"readinglist: cannot start the window: {cause}"]
    lines += [f"  {line}" for line in (explain or system_libs.explain_missing)(platform)]
    others = [p for p in ("wayland", "xcb") if p != platform]
    lines.append(f"  Or try another platform: QT_QPA_PLATFORM={others[0]} readinglist (on a {others[0]} session); "
                 "the command line works without a display: readinglist --help")  # fmt: skip
    return "\n".join(lines)


def _qt_messages(mode, context, message: str) -> None:
    """Qt aborts the process when no platform plugin loads; say why and what to install, and exit cleanly."""
    from PySide6.QtCore import QtMsgType

    if mode == QtMsgType.QtFatalMsg:
        print(startup_failure_text(_qt_warnings, message), file=sys.stderr)
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
        from readinglist.ui.compat import quick_feature_scan

        quick_feature_scan()  # before Qt: it scans the modules imported so far at its first import
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
    from readinglist.store import unwritable
    from readinglist.ui import theme

    folder = paths.data_dir(data_dir)
    apply_color_scheme(app, _settings(folder).value("colorScheme", "system"))
    app.styleHints().colorSchemeChanged.connect(lambda _scheme: theme.system_changed(app))
    app.setWindowIcon(app_icon())

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
                f"in {time.perf_counter() - started:.2f} s (painted at {time.time():.3f})",
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
