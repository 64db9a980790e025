"""Every edit is an undoable command: state, priority, tags, note, title, removal, merging duplicates (or
keeping them apart), and the saved lists (QUndoStack does the bookkeeping).

Each command on papers knows the papers it changed (`ids`), so that the window can say what it did to several,
and says what it did in words (`summary`). One done on the papers selected (or the one shown) selects them
again when it is undone or redone: that is where the reader was. One done from the sidebar on a tag or the
keywords (`views`: the sidebar's filter before and after it) leaves the selection alone, and the window shows
the filter as it was on each side: selecting the thousands of papers a tag carries would make the reader's
next key (r, x) a mass edit they never meant, and a tag put back changes which papers a filter on it means.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from PySide6.QtGui import QUndoCommand

from readinglist.library import Library
from readinglist.papers import Merge, SmartList, tag_key
from readinglist.ui.sidebar import Filter
from readinglist.ui.wording import papers

Changed = Callable[[Sequence[int]], None]
ListsChanged = Callable[[], None]

_PAST = {"Mark": "Marked", "Tag": "Tagged", "Rename": "Renamed", "Merge": "Merged", "Delete": "Deleted",
         "Edit": "Edited", "Remove": "Removed", "Give": "Gave", "Change": "Changed", "Make": "Made"}  # fmt: skip


class Outcome:
    """What a command's last redo or undo raised, kept apart from the command (the stack deletes a failed one),
    and what it left as another process had made it: `skipped` says so in words ("the note was changed
    elsewhere since"), and `nothing` is true when that was all of it (the step did nothing)."""

    failure: Exception | None = None
    skipped: str = ""
    nothing: bool = False


class Command(QUndoCommand):
    """A command whose failure is kept rather than raised through Qt. An exception out of a Python redo()
    reaches the caller only after QUndoStack has put the command on the stack as if done: the edit gate
    pushed a failed mark again every half second and the stack held it several times (a review). A redo or
    undo that fails makes the command obsolete, so the stack drops it, and says why in `outcome`."""

    def __init__(self, text: str = ""):
        super().__init__(text)
        self.outcome = Outcome()

    def redo(self) -> None:
        self._guarded(self._redo)

    def undo(self) -> None:
        self._guarded(self._undo)

    def _guarded(self, step: Callable[[], None]) -> None:
        """A step that did nothing, its change overtaken by another process's (the command line's), is made
        obsolete too: the stack drops it, and the gate says it was not done (it said "Undone: Edited note"
        while the note stayed the command line's, and Redo said it was redone: a user trial)."""
        self.outcome.failure, self.outcome.skipped, self.outcome.nothing = None, "", False
        try:
            step()
        except Exception as exc:  # the gate says it, and the transaction it runs in is rolled back
            self.outcome.failure = exc
            self.setObsolete(True)
        if self.outcome.nothing:
            self.setObsolete(True)

    def _overtaken(self, skipped: str, nothing: bool) -> None:
        """Some of the step (all of it: `nothing`) was not done: another process changed or removed it."""
        self.outcome.skipped, self.outcome.nothing = skipped, nothing

    def _redo(self) -> None:
        raise NotImplementedError

    def _undo(self) -> None:
        raise NotImplementedError


class PaperCommand(Command):
    """A command on some papers; `summary` says in the past tense what it did."""

    ids: list[int]
    # None: done on the papers selected. Else done from the sidebar, with its filter before and after
    views: tuple[Filter, Filter] | None = None

    @property
    def summary(self) -> str:
        first, _, rest = self.text().partition(" ")
        return f"{_PAST.get(first, first)} {rest}".strip()


class _ValueCommand(PaperCommand):
    """One value (a state, a priority) given to some papers. Done: every paper. Undone, and redone: only the
    papers still as the edit (or its undo) left them, as a note's edits are: a value the command line set
    since stays. Subclasses say how the value is read, set and put back."""

    def __init__(self, text: str, library: Library, ids: Sequence[int], value: object, changed: Changed):
        super().__init__(text)
        self.library, self.ids, self.value, self.changed = library, list(ids), value, changed
        self.before: dict[int, object] = {}
        self.done = False

    def _read(self) -> Mapping[int, object]:
        raise NotImplementedError

    def _set(self, ids: list[int]) -> Mapping[int, object]:
        """Give `ids` the value; returns their values before."""
        raise NotImplementedError

    def _restore(self, values: dict[int, object]) -> None:
        raise NotImplementedError

    def _redo(self) -> None:
        now = self._read()
        if self.done:
            again = [pid for pid in self.ids if pid in now and now[pid] == self.before.get(pid)]
            if again:
                self._set(again)
            self._say_skipped(now, [pid for pid in self.ids if pid in again or now.get(pid) == self.value])
        else:
            # a paper removed by another process meanwhile (the window still showed it) is not marked: the mark
            # went nowhere, yet the stack said it was done and undone (a user trial)
            here = [pid for pid in self.ids if pid in now]
            if here:
                self.before, self.done = dict(self._set(here)), True
            self._say_skipped(now, here)
            if here and len(here) < len(self.ids):
                self.ids = here
                self.setText(self._text(len(here)))
        self.changed(self.ids)

    def _undo(self) -> None:
        now = self._read()
        back = {pid: v for pid, v in self.before.items() if pid in now and now[pid] == self.value}
        self._restore(back)
        already = [pid for pid in self.before if pid in now and pid not in back and now[pid] == self.before[pid]]
        self._say_skipped(now, [*back, *already])
        self.changed(self.ids)

    def _text(self, n: int) -> str:
        """The command's text for `n` papers."""
        raise NotImplementedError

    def _say_skipped(self, now: Mapping[int, object], done: Sequence[int]) -> None:
        """The papers of the command not in `done`: removed, or given another value, by another process."""
        left = [pid for pid in self.ids if pid not in done]
        if not left:
            return
        removed = sum(1 for pid in left if pid not in now)
        parts = []
        if removed:
            parts.append(f"{papers(removed)} {'was' if removed == 1 else 'were'} removed elsewhere")
        if len(left) > removed:
            n = len(left) - removed
            parts.append(f"{papers(n)} {'was' if n == 1 else 'were'} changed elsewhere since")
        said = " and ".join(parts)
        if len(self.ids) == 1:  # one paper: "the paper was removed elsewhere"
            said = said.replace("1 paper", "the paper", 1)
        self._overtaken(said, not done)


class SetStateCommand(_ValueCommand):
    def __init__(self, library: Library, ids: Sequence[int], state: str, changed: Changed):
        super().__init__(f"Mark {papers(len(ids))} {state}", library, ids, state, changed)
        self.state = state

    def _text(self, n: int) -> str:
        return f"Mark {papers(n)} {self.state}"

    def _read(self) -> Mapping[int, object]:
        return self.library.states(self.ids)

    def _set(self, ids: list[int]) -> Mapping[int, object]:
        return self.library.set_state(ids, self.state)

    def _restore(self, values: dict[int, object]) -> None:
        self.library.restore_states({pid: str(v) for pid, v in values.items()})


class SetTagsCommand(PaperCommand):
    """Any tag change, stated as each paper's tags after it. Undo takes out the tags it gave and puts back
    the ones it took, and redo does it again, on each paper's tags as they are then: a tag the command line
    added meanwhile stays (putting back the whole list before wiped it, and redo's list after too)."""

    def __init__(
        self,
        library: Library,
        after: dict[int, list[str]],
        text: str,
        changed: Changed,
        imported_after: dict[int, set[str]] | None = None,
    ):
        """`imported_after`: which of each paper's tags after are a file's keywords (tag_key), where the edit
        says (a keyword renamed, one typed in the tag editor); else each kept tag stays what it was."""
        super().__init__(text)
        self.library, self.after, self.changed, self.imported_after = library, after, changed, imported_after
        self.ids = list(after)
        self.before: dict[int, list[str]] = {}
        # what the edit did to each paper, spelt as it did it (a tag renamed "cuo" → "CuO" is in both)
        self.gave: dict[int, list[str]] | None = None
        self.took: dict[int, list[str]] = {}
        # each tag whose mark (keyword or the user's) the edit changed: its name, the mark before, the mark the
        # edit left (None: the tag went) — a keyword typed on one paper is the user's tag on every paper
        self.marks: dict[str, tuple[str, bool, bool | None]] = {}
        # each tag the edit respelt, by tag_key: its name before and after — a name typed with capitals is spelt
        # so on every paper, those the edit did not touch too ("bandits" merged into "bandit-area" typed
        # "Bandit-Area")
        self.spelt: dict[str, tuple[str, str]] = {}

    @property
    def summary(self) -> str:
        said = super().summary
        return said if papers(len(self.ids)) in said else f"{said} ({papers(len(self.ids))})"

    def _present(self) -> list[int]:
        """The command's papers still in the library; the others (removed by another process meanwhile: the
        window still showed them) are said, and left alone (tagging one failed on the database's constraint)."""
        here = self.library.states(self.ids)
        present = [pid for pid in self.ids if pid in here]
        if len(present) < len(self.ids):
            gone = len(self.ids) - len(present)
            said = f"{papers(gone)} {'was' if gone == 1 else 'were'} removed elsewhere"
            self._overtaken(said.replace("1 paper", "the paper", 1) if len(self.ids) == 1 else said, not present)
        return present

    def _redo(self) -> None:
        present = self._present()
        if not present:
            return
        if self.gave is None and len(present) < len(self.ids):  # done on the papers still there
            self.ids = present
            self.after = {pid: tags for pid, tags in self.after.items() if pid in present}
        current = self.library.tags_of(self.ids)
        names = [t for tags in [*self.after.values(), *current.values()] for t in tags]
        was = self.library.tag_marks(names)
        if self.gave is None:  # done: each paper gets the tags the reader left it
            self.before = self.library.set_tags(self.after, self.imported_after)
            now_tags = self.library.tags_of(self.ids)
            self.gave = {pid: [t for t in now_tags.get(pid, []) if t not in self.before.get(pid, [])]
                         for pid in self.ids}  # fmt: skip
            self.took = {pid: [t for t in self.before.get(pid, []) if t not in now_tags.get(pid, [])]
                         for pid in self.ids}  # fmt: skip
        else:  # redone: the same change on the tags as they are now
            again = self._changed_tags(self.took, self.gave, current)
            self.library.set_tags({pid: tags for pid, tags in again.items() if pid in present}, self.imported_after)
        now = self.library.tag_marks(names)
        self.marks = {key: (name, kw, now[key][1] if key in now else None) for key, (name, kw) in was.items()
                      if key not in now or now[key][1] != kw}  # fmt: skip
        self.spelt = {key: (name, now[key][0]) for key, (name, _) in was.items() if key in now and now[key][0] != name}
        self.changed(self.ids)

    def _undo(self) -> None:
        present = self._present()
        if not present:
            return
        changed = self._changed_tags(self.gave or {}, self.took, self.library.tags_of(self.ids))
        self.library.set_tags(
            {pid: tags for pid, tags in changed.items() if pid in present}
        )  # marks as they are: a tag
        # made again is the user's
        spelt = self.library.tag_marks(left for _, left in self.spelt.values())
        # the old spelling back where the edit's is still in force (undoing it on its papers may have done it)
        self.library.respell_tags([name for key, (name, left) in self.spelt.items()
                                   if key in spelt and spelt[key][0] == left])  # fmt: skip
        now = self.library.tag_marks(name for name, _, _ in self.marks.values())
        # back only where the mark is still what the edit left (the command line may have changed it since)
        still = {key for key, (_, _, left) in self.marks.items() if key in now and left in (None, now[key][1])}
        self.library.set_keyword_marks({now[key][0]: self.marks[key][1] for key in still})
        self.changed(self.ids)

    def _changed_tags(
        self, out: dict[int, list[str]], into: dict[int, list[str]], current: dict[int, list[str]]
    ) -> dict[int, list[str]]:
        """Each paper's tags now (`current`), with `out` taken out and `into` put in (in their spelling)."""
        return {pid: rebased(current.get(pid, []), out.get(pid, []), into.get(pid, [])) for pid in self.ids}


class RenameTagCommand(SetTagsCommand):
    """A tag renamed (or merged into another) from the sidebar: the papers' tags as SetTagsCommand changes
    them, and the saved lists that look up the old name (their tag, their query's `tag:` terms) follow it to
    the new one — they were left on a tag no paper had. Undone, the lists it changed go back as they were
    (those still as it left them); a list that was on the tag merged into stays there."""

    def __init__(
        self,
        library: Library,
        after: dict[int, list[str]],
        text: str,
        changed: Changed,
        imported_after: dict[int, set[str]] | None,
        renamed: tuple[str, str],
        lists_changed: ListsChanged,
    ):
        super().__init__(library, after, text, changed, imported_after)
        self.renamed, self.lists_changed = renamed, lists_changed
        self.moved: list[tuple[SmartList, SmartList]] = []  # each list moved, as it was and as the rename left it

    def _redo(self) -> None:
        with self.library.editing():  # the papers' tags and the lists' queries in one transaction
            super()._redo()
            self.moved = self.library.retag_lists(*self.renamed)
        if self.moved:
            self.lists_changed()

    def _undo(self) -> None:
        super()._undo()
        if self.library.unretag_lists(self.moved):
            self.lists_changed()


def rebased(tags: Sequence[str], out: Sequence[str], into: Sequence[str]) -> list[str]:
    """`tags` with `out` taken out and `into` put in, names compared as the store compares them (tag_key);
    a name in both is respelt ("cuo" → "CuO"), and any other tag stays."""
    gone = {tag_key(t) for t in out}
    came = {tag_key(t): t for t in into}
    kept, seen = [], set()
    for t in tags:
        key = tag_key(t)
        if key in came:
            kept.append(came[key])
        elif key not in gone:
            kept.append(t)
        else:
            continue
        seen.add(key)
    return kept + [t for key, t in came.items() if key not in seen]


class KeywordsToTagsCommand(PaperCommand):
    """Keywords files gave (each a paper and a tag) made the user's tags; undo makes them keywords again."""

    def __init__(self, library: Library, links: Sequence[tuple[int, str]], text: str, changed: Changed):
        super().__init__(text)
        self.library, self.links, self.changed = library, list(links), changed
        self.ids = sorted({pid for pid, _ in self.links})

    @property
    def summary(self) -> str:
        return f"{super().summary} ({papers(len(self.ids))})"

    def _redo(self) -> None:
        self.library.make_keywords_tags(self.links)
        self.changed(self.ids)

    def _undo(self) -> None:
        self.library.make_keywords_tags(self.links, own=False)
        self.changed(self.ids)


class SetNoteCommand(PaperCommand):
    def __init__(self, library: Library, paper_id: int, before: str, after: str, changed: Changed):
        super().__init__("Edit note")
        self.library, self.paper_id, self.before, self.after, self.changed = library, paper_id, before, after, changed
        self.ids = [paper_id]

    def _redo(self) -> None:
        """`after` over `before` (the first redo finds `after` stored already: the editor saved it); a note
        another process changed since is left as it is, not overwritten (nor merged again: undo and redo
        repeated would grow it)."""
        self._save(self.after, self.before)

    def _undo(self) -> None:
        self._save(self.before, self.after)

    def _save(self, note: str, over: str) -> None:
        """`note` where the note is still `over`; else nothing is done, and said (see Command._guarded)."""
        if self.library.paper(self.paper_id) is None:
            self._overtaken("the paper was removed elsewhere", True)
            return
        stored, _ = self.library.save_note(self.paper_id, note, over, keep_both=False)
        if stored not in (note, over):
            self._overtaken("the note was changed elsewhere since, and stays as it is", True)
        self.changed([self.paper_id])

    def id(self) -> int:
        return 7001

    def mergeWith(self, other: QUndoCommand) -> bool:
        """Successive saves of one note are one edit, unless the note changed elsewhere between them: an undo
        then stops at the other process's version instead of taking it back with the reader's typing."""
        if isinstance(other, SetNoteCommand) and other.paper_id == self.paper_id and other.before == self.after:
            self.after = other.after
            return True
        return False


class SetTitleCommand(PaperCommand):
    def __init__(self, library: Library, paper_id: int, title: str | None, changed: Changed):
        super().__init__("Edit title")
        self.library, self.paper_id, self.title, self.changed = library, paper_id, title, changed
        self.ids = [paper_id]
        self.before: str | None = None
        self.after: str | None = None  # the title as stored (its formulas as text)
        self.done = False

    def _redo(self) -> None:
        """Done: the title. Redone: only where the title is still what the undo left (as a note's)."""
        if self.library.paper(self.paper_id) is None:
            self._overtaken("the paper was removed elsewhere", True)
            return
        if not self.done:
            self.before, self.done = self.library.set_title(self.paper_id, self.title), True
            self.after = self._title_now()
        elif self._title_now() == (self.before or None):
            self.library.set_title(self.paper_id, self.title)
        elif self._title_now() != self.after:
            self._overtaken("the title was changed elsewhere since, and stays as it is", True)
        self.changed([self.paper_id])

    def _undo(self) -> None:
        if self.library.paper(self.paper_id) is None:
            self._overtaken("the paper was removed elsewhere", True)
            return
        if self._title_now() == self.after:
            self.library.set_title(self.paper_id, self.before)
        elif self._title_now() != (self.before or None):
            self._overtaken("the title was changed elsewhere since, and stays as it is", True)
        self.changed([self.paper_id])

    def _title_now(self) -> str | None:
        paper = self.library.paper(self.paper_id)
        return (paper.user_title or None) if paper is not None else None


class SetPriorityCommand(_ValueCommand):
    def __init__(self, library: Library, ids: Sequence[int], priority: int | None, changed: Changed):
        what = f"priority {priority}" if priority else "no priority"
        super().__init__(f"Give {papers(len(ids))} {what}", library, ids, priority, changed)
        self.priority = priority

    def _text(self, n: int) -> str:
        return f"Give {papers(n)} {f'priority {self.priority}' if self.priority else 'no priority'}"

    def _read(self) -> Mapping[int, object]:
        return self.library.priorities(self.ids)

    def _set(self, ids: list[int]) -> Mapping[int, object]:
        return self.library.set_priority(ids, self.priority)

    def _restore(self, values: dict[int, object]) -> None:
        self.library.restore_priorities({pid: v if isinstance(v, int) else None for pid, v in values.items()})


# ---- smart lists: `lists_changed` shows the lists as they are after each step ----


class SaveListCommand(Command):
    """Save a view as a list; undo deletes it, redo puts it back with the same id (later steps name it)."""

    def __init__(self, library: Library, name: str, query: str, state: str | None, tag: str | None,
                 lists_changed: ListsChanged):  # fmt: skip
        super().__init__(f"Save list “{name}”")
        self.library, self.lists_changed = library, lists_changed
        self.args = (name, query, state, tag)
        self.saved: SmartList | None = None

    def _redo(self) -> None:
        if self.saved is None:
            self.saved = self.library.add_smart_list(*self.args)
        else:
            self.library.restore_smart_list(self.saved, len(self.library.smart_lists()))
        self.lists_changed()

    def _undo(self) -> None:
        if self.saved is not None:
            self.library.delete_smart_list(self.saved.id)
        self.lists_changed()


class UpdateListCommand(Command):
    """Rename or redefine a list (stated as the list after); undo puts back the list before."""

    def __init__(self, library: Library, after: SmartList, text: str, lists_changed: ListsChanged):
        super().__init__(text)
        self.library, self.after, self.lists_changed = library, after, lists_changed
        self.before: SmartList | None = None

    def _redo(self) -> None:
        self.before = self.library.update_smart_list(self.after)
        self.lists_changed()

    def _undo(self) -> None:
        if self.before is not None:
            self.library.update_smart_list(self.before)
        self.lists_changed()


class DeleteListCommand(Command):
    def __init__(self, library: Library, list_id: int, name: str, lists_changed: ListsChanged):
        super().__init__(f"Delete list “{name}”")
        self.library, self.list_id, self.lists_changed = library, list_id, lists_changed
        self.deleted: tuple[SmartList, int] | None = None

    def _redo(self) -> None:
        self.deleted = self.library.delete_smart_list(self.list_id)
        self.lists_changed()

    def _undo(self) -> None:
        if self.deleted is not None:
            self.library.restore_smart_list(*self.deleted)
        self.lists_changed()


class MoveListCommand(Command):
    def __init__(self, library: Library, list_id: int, place: int, name: str, lists_changed: ListsChanged):
        super().__init__(f"Move list “{name}”")
        self.library, self.list_id, self.place, self.lists_changed = library, list_id, place, lists_changed
        self.was = place

    def _redo(self) -> None:
        self.was = self.library.move_smart_list(self.list_id, self.place)
        self.lists_changed()

    def _undo(self) -> None:
        self.library.move_smart_list(self.list_id, self.was)
        self.lists_changed()


class RemovePapersCommand(PaperCommand):
    """Remove papers from the library; undo brings them back, annotations and all (Library.remove)."""

    def __init__(self, library: Library, ids: Sequence[int], removed: Changed, restored: Changed):
        super().__init__(f"Remove {papers(len(ids))} from the library")
        self.library, self.ids, self.removed, self.restored = library, list(ids), removed, restored

    def _redo(self) -> None:
        self.ids = self.library.remove(self.ids)
        self.removed(self.ids)

    def _undo(self) -> None:
        back = self.library.restore_removed(self.ids)
        self.ids = [back[i] for i in self.ids if i in back]
        self.restored(self.ids)


class MergePapersCommand(PaperCommand):
    """Merge the second paper into the first (Library.merge: annotations combined, the merged paper kept
    whole among the removed ones); undo takes it back (Library.unmerge), both papers as they were."""

    def __init__(self, library: Library, keep: int, other: int, removed: Changed, restored: Changed):
        super().__init__("Merge 2 papers into one")
        self.library, self.keep, self.other = library, keep, other
        self.removed, self.restored = removed, restored
        self.ids = [keep, other]
        self.merged: Merge | None = None

    def _redo(self) -> None:
        self.merged = self.library.merge(self.keep, self.other)
        self.removed([self.other])
        self.restored([self.keep])

    def _undo(self) -> None:
        if self.merged is not None:
            self.other = self.library.unmerge(self.merged)
            self.ids = [self.keep, self.other]
        self.restored(self.ids)


class KeepApartCommand(PaperCommand):
    """Two papers are distinct: not listed as possible duplicates again; undo forgets it."""

    def __init__(self, library: Library, a: int, b: int, changed: Changed):
        super().__init__("Keep 2 papers apart")
        self.library, self.a, self.b, self.changed = library, a, b, changed
        self.ids = [a, b]
        self.before: tuple[str, str] | None = None

    @property
    def summary(self) -> str:
        return "Kept 2 papers apart"

    def _redo(self) -> None:
        self.before = self.library.keep_apart(self.a, self.b)
        self.changed(self.ids)

    def _undo(self) -> None:
        self.library.restore_pair(self.a, self.b, self.before)
        self.changed(self.ids)
