"""The Obsidian/Logseq notes folder: one file per paper, front matter, and edits merged back with conflicts
named."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
import yaml

from readinglist import export
from readinglist.cli import main
from readinglist.export import ExportOptions, note_file_name
from readinglist.library import Library
from readinglist.papers import ImportFailure


def annotated(lib: Library) -> list[int]:
    ids = lib.search("").ids
    lib.set_state(ids[:2], "read")
    lib.set_priority([ids[0]], 1)
    lib.add_tags(ids[:2], ["rl", "to read"])
    lib.set_note(ids[0], "# Idea\n\nSome *text*.\n\n## Detail\n\nmore")
    return ids


def write(lib: Library, folder, ids=None, **kw) -> None:
    export.export(lib.papers(ids or lib.search("").ids), ExportOptions(format="obsidian", **kw), folder)


def front(path) -> dict:
    text = path.read_text(encoding="utf-8")
    return yaml.safe_load(text.split("---\n")[1])


def edit(path, **fields) -> None:
    text = path.read_text(encoding="utf-8")
    head, body = text.split("\n---\n", 1)
    data = yaml.safe_load(head.removeprefix("---\n"))
    note = fields.pop("note", None)
    data.update(fields)
    if note is not None:
        title = body.strip().split("\n", 1)[0]
        body = f"\n{title}\n\n{note}\n"
    path.write_text("---\n" + yaml.safe_dump(data, sort_keys=False, allow_unicode=True) + "---\n" + body)


def file_of(folder, lib: Library, pid: int):
    return folder / note_file_name(lib.paper(pid).citation_key, set())  # type: ignore[union-attr]


def test_one_file_per_paper_with_front_matter_and_the_note_under_the_title(lib, tmp_path):
    ids = annotated(lib)
    folder = tmp_path / "vault" / "papers"
    write(lib, folder, abstracts=True)
    files = sorted(folder.glob("*.md"))
    assert len(files) == len(ids)
    p = lib.paper(ids[0])
    assert p is not None
    f = file_of(folder, lib, ids[0])
    data = front(f)
    assert (data["id"], data["citation-key"], data["title"]) == (p.uid, p.citation_key, p.title)
    assert (data["state"], data["priority"], data["tags"], data["venue"], data["year"]) == (
        "read",
        1,
        ["rl", "to read"],
        p.venue,
        p.year,
    )
    assert data["authors"] == p.authors and "exported" in data
    body = f.read_text().split("\n---\n", 1)[1]
    assert body.lstrip().startswith(f"# {p.title.split(':')[0]}")
    assert "\n## Idea\n" in body and "\n### Detail\n" in body and "\n# Idea" not in body
    assert "> [!abstract]" in body


def test_file_names_are_safe_and_unique():
    taken: set[str] = set()
    names = [note_file_name(k, taken) for k in ("a/b", "../x", "CON", "Smith2020", "smith2020", "é:?*")]
    assert names == ["a_b.md", "x.md", "CON_.md", "Smith2020.md", "smith2020-2.md", "paper.md"]
    assert all(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*\.md", n) for n in names)


def test_edits_in_the_files_merge_back(lib, tmp_path):
    ids = annotated(lib)
    folder = tmp_path / "notes"
    write(lib, folder)
    edit(file_of(folder, lib, ids[0]), state="skimmed", tags=["rl", "new"], note="# Idea\n\nrewritten")
    edit(file_of(folder, lib, ids[2]), priority=2)
    summary = lib.merge_notes([folder])
    assert (summary.files, summary.matched, summary.changed, summary.conflicts) == (len(ids), len(ids), 2, [])
    p, q = lib.paper(ids[0]), lib.paper(ids[2])
    assert p is not None and q is not None
    assert (p.state, sorted(p.tags), p.note) == ("skimmed", ["new", "rl"], "# Idea\n\nrewritten")
    assert q.priority == 2
    assert lib.search("tag:new").ids == [ids[0]]  # the index follows
    again = lib.merge_notes([folder])  # nothing changed since: nothing to do
    assert (again.changed, again.conflicts) == (0, [])


def test_values_a_yaml_reader_would_take_for_numbers_are_quoted_and_an_id_obsidian_made_a_number_merges_back(
    lib, tmp_path
):
    """An id of digits with a leading zero went out unquoted: Obsidian (YAML 1.2) showed 039471 as the
    number 39471 and wrote it back so when a property was edited, and the merge no longer found the paper."""
    ids = lib.search("").ids
    lib.store.db.execute("UPDATE papers SET uid = '039471' WHERE id = ?", (ids[0],))
    lib.add_tags([ids[0]], ["1e5", "yes", "2024", "0o17", "plain"])
    lib.set_citation_key(ids[0], "1e10")
    folder = tmp_path / "notes"
    write(lib, folder)
    f = file_of(folder, lib, ids[0])
    text = f.read_text(encoding="utf-8")
    assert "\nid: '039471'\n" in text and "\ncitation-key: '1e10'\n" in text
    assert all(f"\n- '{t}'\n" in text for t in ("1e5", "yes", "2024", "0o17")) and "\n- plain\n" in text
    assert "\nyear: 20" in text  # a year stays a number
    assert front(f)["id"] == "039471" and lib.merge_notes([folder]).changed == 0  # the merge reads it back
    # as Obsidian writes it back: the id a number, the key (here) changed too, so only the id finds the paper
    f.write_text(text.replace("id: '039471'", "id: 39471").replace("citation-key: '1e10'", "citation-key: other"))
    edit(f, state="read")
    summary = lib.merge_notes([folder])
    assert (summary.matched, summary.changed, summary.not_found) == (len(ids), 1, [])
    assert lib.paper(ids[0]).state == "read"  # type: ignore[union-attr]


MARKED_UP = "p < 0.05 in [1]; $x<y$, `a<b`, display \\[ x^2 \\] and \\_ kept\n\n```\n<b>[raw]</b>\n```"


def test_a_note_edited_in_its_file_comes_back_as_written_not_escaped(lib, tmp_path):
    """A note with "<" or "[1]", edited in its file and merged back, came back "p \\< 0.05 in \\[1\\]": the
    escapes that keep an export inert are undone on reading, and the reader's own backslashes are kept."""
    pid = lib.search("").ids[0]
    lib.set_note(pid, MARKED_UP)
    folder = tmp_path / "notes"
    write(lib, folder)
    assert lib.merge_notes([folder]).changed == 0  # as exported: nothing to merge
    path = file_of(folder, lib, pid)
    path.write_text(path.read_text(encoding="utf-8").replace("0.05", "0.01"), encoding="utf-8")
    assert lib.merge_notes([folder]).changed == 1
    assert lib.paper(pid).note == MARKED_UP.replace("0.05", "0.01")


def test_a_wikilink_in_a_note_is_written_as_obsidian_reads_it(lib, tmp_path):
    """`[[MaaHin2008tsne]]` typed in Obsidian came back escaped on the next export (`\\[\\[…`): no link any
    more (a trial). A wikilink is kept as it is; one that is a Markdown link's text ("[[x]](…)") is not."""
    pid = lib.search("").ids[0]
    note = "See [[MaaHin2008tsne]] and [[Reading|the list]]; [[x]](javascript:alert(1)) stays text."
    lib.set_note(pid, note)
    folder = tmp_path / "notes"
    write(lib, folder)
    text = file_of(folder, lib, pid).read_text(encoding="utf-8")
    assert "See [[MaaHin2008tsne]] and [[Reading|the list]];" in text and "\\[\\[x\\]\\](javascript" in text
    assert lib.merge_notes([folder]).changed == 0 and lib.paper(pid).note == note


def test_a_file_exported_before_backslashes_were_doubled_changes_nothing_unedited(lib, tmp_path):
    """Before session 26 a note's own "\\[ x \\]" was written as it is; read now, its backslashes undone, it
    must not pass for an edit that turns the reader's formula into "[ x ]"."""
    pid = lib.search("").ids[0]
    lib.set_note(pid, "display \\[ x^2 \\] here")
    folder = tmp_path / "notes"
    write(lib, folder)
    path = file_of(folder, lib, pid)
    old = path.read_text(encoding="utf-8").replace("\\\\\\[", "\\[").replace("\\\\\\]", "\\]")
    assert "display \\[ x^2 \\] here" in old
    path.write_text(old, encoding="utf-8")
    assert lib.merge_notes([folder]).changed == 0
    assert lib.paper(pid).note == "display \\[ x^2 \\] here"


def test_a_markdown_reading_list_gives_its_notes_back_as_written(lib, tmp_path):
    pid = lib.search("").ids[0]
    lib.set_note(pid, MARKED_UP)
    file = tmp_path / "list.md"
    export.export(lib.papers([pid]), ExportOptions(format="markdown"), file)
    fresh = Library.open(tmp_path / "fresh", seed=False)
    try:
        fresh.import_files([file])
        assert [p.note for p in fresh.papers(fresh.search("").ids)] == [MARKED_UP]
    finally:
        fresh.close()


def test_an_unedited_folder_changes_nothing_even_after_the_library_changed(lib, tmp_path):
    ids = annotated(lib)
    folder = tmp_path / "notes"
    write(lib, folder)
    lib.set_state([ids[0]], "skipped")
    lib.set_note(ids[0], "changed in the library")
    summary = lib.merge_notes([folder])
    assert (summary.changed, summary.conflicts) == (0, [])
    p = lib.paper(ids[0])
    assert p is not None and (p.state, p.note) == ("skipped", "changed in the library")


def test_a_field_both_sides_changed_is_a_conflict_and_the_library_keeps_its_value(lib, tmp_path):
    ids = annotated(lib)
    folder = tmp_path / "notes"
    write(lib, folder)
    f = file_of(folder, lib, ids[0])
    edit(f, state="queued", note="the file's note", tags=["rl", "to read", "file"])
    lib.set_state([ids[0]], "skipped")
    lib.set_note(ids[0], "the library's note")
    summary = lib.merge_notes([folder])
    assert len(summary.conflicts) == 2
    assert all(f.name in c and "kept the library's" in c for c in summary.conflicts)
    assert {c.split(": changed")[0].rsplit(" ", 1)[1] for c in summary.conflicts} == {"state", "note"}
    p = lib.paper(ids[0])
    assert p is not None
    assert (p.state, p.note) == ("skipped", "the library's note")
    assert "file" in p.tags  # only the file changed the tags: taken
    assert "; 2 conflicts (the library's kept)" in summary.line()
    one = replace(summary, conflicts=summary.conflicts[:1], files=1)
    assert "notes: 1 note —" in one.line() and "; 1 conflict (the library's kept)" in one.line()  # "1 conflicts"


def test_other_markdown_files_and_unknown_papers_are_left_alone(lib, tmp_path):
    ids = annotated(lib)
    folder = tmp_path / "vault"
    write(lib, folder, ids[:2])
    (folder / "my own note.md").write_text("# Shopping\n\n- milk\n")
    (folder / ".obsidian").mkdir()
    (folder / ".obsidian" / "x.md").write_text("---\nexported: x\nid: zzz\n---\n")
    other = folder / "gone.md"
    other.write_text("---\nid: ffffff\ncitation-key: nobody2020none\nexported: 2026-01-01 state=00\n---\n\n# X\n")
    bad = folder / "bad.md"
    bad.write_text("---\nid: [unclosed\nexported: x\n---\n")
    bomb = folder / "bomb.md"
    bomb.write_text("---\na: &a [x, x]\nb: &b [*a, *a]\nid: q\nexported: x\n---\n")
    summary = lib.merge_notes([folder])
    assert (summary.files, summary.matched, summary.others) == (3, 2, 1)
    assert summary.not_found == ["gone.md (ffffff)"]
    assert len(summary.problems) == 2
    assert any("bad.md" in p and "not valid YAML" in p for p in summary.problems)
    assert any("bomb.md" in p and "aliases" in p for p in summary.problems)


def test_cli_exports_a_folder_and_import_merges_it(lib, tmp_path, capsys):
    ids = annotated(lib)
    lib.close()
    folder = tmp_path / "notes"
    data = str(lib.data_dir)
    assert main(["--data-dir", data, "export", "--format", "obsidian", "-o", str(folder)]) == 0
    assert len(list(folder.glob("*.md"))) == len(ids)
    assert main(["--data-dir", data, "export", "--format", "obsidian"]) != 0
    reopened = Library.open(lib.data_dir)
    try:
        edit(file_of(folder, reopened, ids[1]), state="queued")
    finally:
        reopened.close()
    capsys.readouterr()
    assert main(["--data-dir", data, "import", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "annotations changed on 1" in out


def test_the_window_merges_a_notes_folder_it_is_given(qtbot, window, tmp_path):
    lib = window.library
    ids = annotated(lib)
    folder = tmp_path / "notes"
    write(lib, folder)
    edit(file_of(folder, lib, ids[3]), state="queued", tags=["from obsidian"])
    with qtbot.waitSignal(window.importFinished, timeout=20000) as got:
        window.start_import([folder])
    [summary] = got.args[0]
    assert (summary.matched, summary.changed) == (len(ids), 1)
    p = lib.paper(ids[3])
    assert p is not None and (p.state, p.tags) == ("queued", ["from obsidian"])
    assert lib.counts()["all"] == len(ids)  # merged, nothing imported


def test_a_folder_merged_from_the_file_menu_and_its_files_chosen_together_say_one_line(qtbot, window, tmp_path,
                                                                                     monkeypatch):  # fmt: skip
    """Ctrl+O picks files only: a trial chose a folder's 19 notes, and the notice listed every file, cut off
    before its counts. File → Merge Notes Folder… picks the folder; note files chosen together merge as one."""
    from PySide6.QtWidgets import QFileDialog

    lib = window.library
    ids = annotated(lib)
    folder = tmp_path / "notes"
    write(lib, folder)
    edit(file_of(folder, lib, ids[3]), state="queued")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a: str(folder))
    with qtbot.waitSignal(window.importFinished, timeout=20000) as got:
        window.actionMergeNotes.trigger()
    [summary] = got.args[0]
    assert (summary.files, summary.changed) == (len(ids), 1)
    edit(file_of(folder, lib, ids[4]), state="skipped")
    with qtbot.waitSignal(window.importFinished, timeout=20000) as got:
        window.start_import(sorted(folder.glob("*.md")))
    [summary] = got.args[0]  # one merge of the files chosen together, named after their folder
    assert (summary.files, summary.changed, summary.path) == (len(ids), 1, folder)
    assert lib.paper(ids[4]).state == "skipped"


def test_the_export_dialog_offers_the_notes_folder_with_abstracts(qtbot):
    from PySide6.QtCore import QSettings

    from readinglist.ui.dialogs import ExportDialog

    settings = QSettings("readinglist-tests", "dialog")
    dialog = ExportDialog(None, has_selection=False, settings=settings)
    qtbot.addWidget(dialog)
    dialog.formatBox.setCurrentIndex(dialog.formatBox.findData("obsidian"))
    assert dialog.abstractsBox.isEnabled() and not dialog.groupBox.isEnabled()
    assert dialog.options().format == "obsidian"


def test_a_folder_with_no_notes_files_is_said_so_not_merged_as_zero_notes(lib, tmp_path, capsys):
    """`import emptydir` said "emptydir: 0 notes — 0 matched, annotations changed on 0" and succeeded (a trial):
    the folder has no notes files, said as the failure it is (exit 1), with what the import does with a folder,
    and the other files given are imported still."""
    empty, vault = tmp_path / "emptydir", tmp_path / "vault"
    empty.mkdir()
    vault.mkdir()
    (vault / "my own note.md").write_text("# Shopping\n\n- milk\n")
    (vault / "papers.bib").write_text("@article{k, title = {Quokka habits}}\n")
    with pytest.raises(ImportFailure, match="emptydir: has no notes files — the Markdown notes"):
        lib.merge_notes([empty])
    with pytest.raises(ImportFailure, match="its 1 Markdown file is no such note; to import the papers of the files"):
        lib.merge_notes([vault])
    data = str(lib.data_dir)
    lib.close()
    papers = tmp_path / "one.jsonl"
    papers.write_text(json.dumps({"title": "Quokka habits"}) + "\n")
    capsys.readouterr()
    assert main(["--data-dir", data, "import", str(empty), str(papers)]) == 1
    out, err = capsys.readouterr()
    assert out == "one.jsonl: 1 added, 0 updated, 0 unchanged, 0 skipped\n"
    assert err.startswith("readinglist: cannot merge emptydir: has no notes files") and "0 notes" not in out + err
