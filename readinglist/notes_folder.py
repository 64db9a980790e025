"""A notes folder (export --format obsidian) merged back: the notes, tags, states and priorities a user
edited in Obsidian or Logseq come back to their papers, found by id, else by citation key.

Each file's front matter records what was exported (`exported`: a fingerprint of each field as the library
had it, and as the file reads back when that differs), so a re-import tells who changed what since: a field
only the file changed is taken; one only the library changed is kept; one both changed (to different
values) is a conflict, named in the summary, and the library's value is kept. Files without our front
matter (the rest of a vault) are left alone; nothing is ever written to the folder.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from readinglist import mdtext
from readinglist.export import FOLDER_FIELDS, FOLDER_NOTE_DEPTH, field_value, value_hash
from readinglist.importers.base import snippet
from readinglist.importers.limits import DEFAULT_LIMITS
from readinglist.importers.matching import UidIndex
from readinglist.papers import PRIORITIES, STATES, ImportFailure, Paper, clean_tags

if TYPE_CHECKING:
    from readinglist.library import Library

MAX_FILES = 200_000  # notes in one folder
MAX_FRONT_MATTER = 64 * 1024
_HIDDEN = (".obsidian", ".trash", ".git", "logseq/bak", "logseq/.recycle")


@dataclass
class NoteFile:
    path: Path
    front: dict[str, Any]
    note: str
    as_written: str = ""  # the note with the export's escapes left in: what a file from before session 26 marks


@dataclass
class MergeSummary:
    path: Path
    files: int = 0  # notes of ours read
    matched: int = 0  # … whose paper the library has
    changed: int = 0  # papers whose annotations the merge changed
    conflicts: list[str] = field(default_factory=list)
    not_found: list[str] = field(default_factory=list)  # notes of papers this library does not have
    problems: list[str] = field(default_factory=list)  # notes that could not be read, and why
    others: int = 0  # Markdown files that are not our notes (the rest of a vault): left alone

    def line(self, compact: bool = False) -> str:
        """How the folder's merge went, in a line (as short `compact` as not)."""
        notes = "note" if self.files == 1 else "notes"
        text = f"{self.path.name}: {self.files} {notes} — {self.matched} matched, annotations changed on {self.changed}"
        if self.conflicts:
            n = len(self.conflicts)
            text += f"; {n} conflict{'' if n == 1 else 's'} (the library's kept)"
        if self.not_found:
            text += f"; {len(self.not_found)} not in this library"
        if self.problems:
            text += f"; {len(self.problems)} unreadable"
        if self.others:
            text += f"; {self.others} other Markdown files left alone"
        return text

    # what the window's import notice shows of an import's summary (ui/import_bar.details)
    skipped = 0
    skipped_why: tuple[()] = ()

    @property
    def warnings(self) -> list[str]:
        return self.details()

    def details(self) -> list[str]:
        shown = [f"conflict: {c}" for c in self.conflicts]
        shown += [f"not in this library: {n}" for n in self.not_found[:20]]
        shown += [f"cannot read {p}" for p in self.problems[:20]]
        return shown


class _NoAliases(yaml.SafeLoader):
    """YAML without aliases: a front matter has no use for them, and they make a billion-laughs bomb of a
    few lines."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            raise yaml.YAMLError("aliases (*name) are not allowed in a note's front matter")
        return super().compose_node(parent, index)


_MAYBE_ALIAS_RE = re.compile(r"(?:^|[\s\[{,])[&*]\S")


def _loader(text: str) -> Any:
    """libyaml's safe loader (fast) for front matter without a `&` or `*` that could be an anchor or alias;
    else the pure-Python one that refuses aliases."""
    fast = getattr(yaml, "CSafeLoader", None)
    return fast if fast is not None and not _MAYBE_ALIAS_RE.search(text) else _NoAliases


def is_notes(path: Path) -> bool:
    """A folder (a notes folder, or a vault holding one) or a Markdown note with our front matter: what an
    import merges back instead of importing."""
    return path.is_dir() or (path.suffix.lower() == ".md" and is_note_file(path))


def is_note_file(path: Path) -> bool:
    """Does this file start with front matter that has our `exported` line?"""
    try:
        with open(path, "rb") as fh:
            head = fh.read(MAX_FRONT_MATTER)
    except OSError:
        return False
    text = head.decode("utf-8", "replace").lstrip("\ufeff")
    return text.startswith("---") and re.search(r"^exported: ", text, re.M) is not None


def read_note(path: Path) -> NoteFile | None:
    """A note of ours, or None for a Markdown file that is not one; ImportFailure when it cannot be read."""
    try:
        size = path.stat().st_size
        if size > DEFAULT_LIMITS.record_chars:
            raise ImportFailure(path, f"is larger than {DEFAULT_LIMITS.record_chars // 1024} KiB, the limit for a note")
        raw = path.read_bytes()
    except OSError as exc:
        raise ImportFailure(path, f"cannot be read ({exc.strerror or exc})") from None
    if b"\x00" in raw:
        raise ImportFailure(path, "is not text (it holds NUL bytes)")
    try:
        text = raw.decode("utf-8").lstrip("\ufeff").replace("\r\n", "\n")
    except UnicodeDecodeError as exc:
        raise ImportFailure(path, f"is not UTF-8 (byte {exc.start})") from None
    m = re.match(r"---\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)", text, re.S)
    if m is None:
        return None
    if len(m.group(1)) > MAX_FRONT_MATTER:
        raise ImportFailure(path, f"its front matter is longer than {MAX_FRONT_MATTER // 1024} KiB")
    try:
        front = yaml.load(m.group(1), Loader=_loader(m.group(1)))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 2})" if mark is not None else ""
        raise ImportFailure(
            path, f"its front matter is not valid YAML{where}: {getattr(exc, 'problem', exc)}"
        ) from None
    if not isinstance(front, dict) or "exported" not in front or not (front.get("id") or front.get("citation-key")):
        return None
    written = _note_body(text[m.end() :])
    return NoteFile(path, front, mdtext.live_note(written), written)


def _note_body(body: str) -> str:
    """The note below the front matter: without the paper's `# Title` and the abstract's callout, headings
    one level up again."""
    lines = body.split("\n")
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i < len(lines) and re.match(r"# ", lines[i]):
        i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i < len(lines) and lines[i].startswith("> [!abstract]"):
        while i < len(lines) and lines[i].startswith(">"):
            i += 1
    return mdtext.shift_headings("\n".join(lines[i:]).strip("\n"), -FOLDER_NOTE_DEPTH).strip()


def note_files(paths: Sequence[Path]) -> Iterator[Path]:
    """The Markdown files of these folders (their subfolders too, but not a vault's hidden ones) and files."""
    n = 0
    for path in paths:
        path = Path(path)
        found = sorted(path.rglob("*.md")) if path.is_dir() else [path]
        for f in found:
            rel = f.relative_to(path).as_posix() if path.is_dir() else f.name
            if any(rel.startswith(h + "/") or f"/{h}/" in rel for h in _HIDDEN) or not f.is_file():
                continue
            n += 1
            if n > MAX_FILES:
                raise ImportFailure(path, f"holds more than {MAX_FILES:,} notes (the limit for one merge)")
            yield f


def _marks(front: dict[str, Any]) -> dict[str, tuple[str, str]] | None:
    """{field: (fingerprint as the library had it, as the file read back)} from `exported`."""
    text = str(front.get("exported") or "")
    out = {}
    for name, lib_hash, file_hash in re.findall(r"(\w+)=([0-9a-f]+)(?:/([0-9a-f]+))?", text):
        out[name] = (lib_hash, file_hash or lib_hash)
    return out or None


def _file_values(note: NoteFile) -> tuple[dict[str, object], list[str]]:
    """The file's state, priority, tags and note as the library would hold them, and what was wrong."""
    front = note.front
    problems: list[str] = []
    values: dict[str, object] = {}
    name = note.path.name
    state = front.get("state")
    if isinstance(state, str) and state.strip().lower() in STATES:
        values["state"] = state.strip().lower()
    elif state is not None:
        problems.append(f"{name}: state “{state}” is not one of {', '.join(STATES)}; left as it is")
    priority = front.get("priority")
    if priority is None or priority in PRIORITIES:
        values["priority"] = priority
    else:
        problems.append(f"{name}: priority “{priority}” is not 1, 2 or 3; left as it is")
    tags = front.get("tags")
    if tags is None:
        values["tags"] = []
    elif isinstance(tags, list | str):
        # a list's items are whole tags (a keyword "Optimization, convex" among them); a line is parted
        items = tags if isinstance(tags, list) else re.split(r"[,\s]+", tags)
        values["tags"] = sorted(clean_tags(str(t).lstrip("#") for t in items if t is not None))
    else:
        problems.append(f"{name}: tags are not a list; left as they are")
    values["note"] = note.note
    return values, problems


def merge(library: Library, paths: Sequence[Path]) -> MergeSummary:
    """Merge a notes folder (or note files) back into the library, in one transaction."""
    first = Path(paths[0])
    summary = MergeSummary(first if len(paths) == 1 else first.parent)
    notes: list[NoteFile] = []
    for f in note_files(paths):
        try:
            note = read_note(f)
        except ImportFailure as exc:
            summary.problems.append(str(exc))
            continue
        if note is None:
            summary.others += 1
        else:
            notes.append(note)
    summary.files = len(notes)
    if not notes and not summary.problems:  # "emptydir: 0 notes — 0 matched" read as an import that worked
        n = summary.others
        others = f"; its {n:,} Markdown file{'s are' if n != 1 else ' is'} no such note" if n else ""
        raise ImportFailure(
            summary.path,
            "has no notes files — the Markdown notes `export --format obsidian` writes, which an import merges back"
            f"{others}; to import the papers of the files in a folder, name the files (DIR/*.bib)",
        )
    store = library.store
    by_uid = UidIndex()  # an id Obsidian wrote back as a number (039471 as 39471) is found too
    by_key: dict[str, int] = {}
    for paper_id, paper_uid, paper_key, *_ in store.identities():
        by_uid.add(paper_uid, paper_id)
        if paper_key:
            by_key[paper_key.lower()] = paper_id
    found: list[tuple[NoteFile, int]] = []
    for note in notes:
        uid = str(note.front.get("id") or "").strip().lower()
        key = str(note.front.get("citation-key") or "").strip().lower()
        pid: int | None = by_uid.get(uid) if uid else None
        if pid is None and key:
            pid = by_key.get(key)
        if pid is None:
            summary.not_found.append(f"{note.path.name} ({uid or key})")
        else:
            found.append((note, pid))
    summary.matched = len(found)
    if not found:
        return summary
    with store.transaction():
        current = {p.id: p for p in store.papers([pid for _, pid in found])}
        for note, pid in found:
            summary.changed += _merge_one(library, note, current[pid], summary)
    return summary


def _merge_one(library: Library, note: NoteFile, paper: Paper, summary: MergeSummary) -> bool:
    store = library.store
    values, problems = _file_values(note)
    summary.problems += problems
    marks = _marks(note.front)
    changed = False
    who = f"{paper.uid} ({paper.citation_key}, {note.path.name})"
    for name in FOLDER_FIELDS:
        if name not in values:
            continue
        theirs, ours = values[name], field_value(name, paper)
        h_theirs, h_ours = value_hash(theirs), value_hash(ours)
        if h_theirs == h_ours:
            continue
        lib_at_export, file_at_export = marks.get(name, ("", "")) if marks else ("", "")
        if h_theirs == file_at_export or (name == "note" and value_hash(note.as_written) == file_at_export):
            continue  # the file did not change it (an older export's escapes in it too): the library's stands
        library_changed = h_ours != lib_at_export if marks else _has(name, ours)
        if library_changed:
            summary.conflicts.append(f"{who} {name}: changed in both the library and the file since the export; "
                                     f"kept the library's ({_show(ours)}; the file has {_show(theirs)})")  # fmt: skip
            continue
        if name == "state":
            store.set_state([paper.id], str(theirs))
        elif name == "priority":
            store.set_priority([paper.id], theirs if isinstance(theirs, int) else None)
        elif name == "tags":
            store.set_tags({paper.id: list(theirs) if isinstance(theirs, list) else []})
        else:
            store.set_note(paper.id, str(theirs))
        changed = True
    return changed


def _has(name: str, value: object) -> bool:
    return bool(value) and value != "unread"


def _show(value: object) -> str:
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "no tags"
    if value is None:
        return "none"
    return f"“{snippet(str(value), 60)}”"
