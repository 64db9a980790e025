"""Writing a file the user named, as an editor would: atomically, in place of what the name means.

An export replaces a reading list a reader may keep under a symlink (dotfiles, a synced folder), share by a
hard link, or have made readable to others; replacing the name with a fresh private file broke each of
these. So the name is followed to the file it means, that file's permissions (and, where allowed, owner)
carry over, and the new text goes to a temporary file beside it that is renamed over it once complete.
Only regular files are written: a device node, pipe, socket or folder gets a clear refusal (renaming a
file over `/dev/full` as root replaced the device), and so does a file the user may not write (a rename
would replace it anyway, as only the folder's permissions count for that).

Hard links: the other names of the file must see the new text (splitting the link, as a rename does,
leaves them on the old list without a word). The text is first written completely to a temporary file
beside the target, then copied into the file in place; an interruption during that copy can leave the
file partly written, so the message then names the temporary file that holds the full text.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from readinglist import paths
from readinglist.papers import ExportError


def resolve_target(path: Path) -> Path:
    """The file a name means: symlinks followed (a dangling one to the file it names), refused unless
    it is a regular file or does not exist yet."""
    path = Path(path)
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return target
    except OSError as exc:
        raise ExportError(f"{path}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        raise ExportError(f"{path} is a folder: choose a file name inside it")
    if stat.S_ISREG(st.st_mode) and not os.access(target, os.W_OK):
        raise ExportError(f"{path} is read-only: make it writable or choose another name")
    if not stat.S_ISREG(st.st_mode):
        kind = (
            "a device"
            if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
            else "a pipe"
            if stat.S_ISFIFO(st.st_mode)
            else "a socket"
            if stat.S_ISSOCK(st.st_mode)
            else "not a regular file"
        )
        raise ExportError(f"{path} is {kind}, not a file: an export writes only to regular files")
    return target


def write_text(path: Path, text: str, encoding: str = "utf-8", sync: bool = True) -> Path:
    """Write `text` to the file `path` means (see the module's docstring); returns that file's path.
    Without `sync`, the caller makes many files durable at once afterwards (sync_files)."""
    target = resolve_target(path)
    data = text.encode(encoding)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        st = None
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as fh:
            if st is None:
                os.fchmod(fh.fileno(), 0o666 & ~paths.umask())  # as open() would create it, not mkstemp's 0600
            else:
                os.fchmod(fh.fileno(), stat.S_IMODE(st.st_mode))
                if (st.st_uid, st.st_gid) != (os.getuid(), os.getgid()):
                    with contextlib.suppress(OSError):  # only root may give a file away; others keep it theirs
                        os.fchown(fh.fileno(), st.st_uid, st.st_gid)
            fh.write(data)
            fh.flush()
            if sync:
                os.fsync(fh.fileno())
        if st is not None and st.st_nlink > 1:
            _copy_in_place(tmp, target)
            tmp.unlink()
        else:
            os.replace(tmp, target)
            if sync:
                _sync_folder(target.parent)
    except ExportError:
        raise
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return target


def _copy_in_place(source: Path, target: Path) -> None:
    """The complete text into a hard-linked file, keeping its inode (and so every name it has)."""
    try:
        with source.open("rb") as src, target.open("r+b") as dst:
            dst.truncate(0)
            while block := src.read(1 << 20):
                dst.write(block)
            dst.flush()
            os.fsync(dst.fileno())
    except OSError as exc:
        raise ExportError(
            f"{target}: {exc.strerror or exc} while writing into the hard-linked file;"
            f" the complete export is in {source}"
        ) from None


def _sync_folder(folder: Path) -> None:
    """The rename itself survives a crash once the folder is synced (where the system allows it)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def sync_files(files: list[Path], folder: Path) -> None:
    """Many files written without `sync` made durable in one go: the system's sync where there is one (an
    fsync per file costs a journal commit each: thousands of notes took a minute), else each file's."""
    if hasattr(os, "sync"):
        os.sync()
        return
    for f in files:
        with contextlib.suppress(OSError), open(f, "rb") as fh:
            os.fsync(fh.fileno())
    _sync_folder(folder)
