"""Backups of the annotations: written, restored into any library, merged without losing either side."""

from __future__ import annotations

import gzip
import json
import os
from dataclasses import replace
from datetime import date, timedelta

import pytest

from readinglist.backup import AUTO_FOLDER, auto_backup, read_backup, read_document
from readinglist.library import Library
from readinglist.papers import ImportFailure, Paper
from tests.conftest import corpus, library_of


def annotate(lib: Library) -> list[int]:
    ids = lib.search("").ids
    lib.add_tags(ids[:3], ["rl", "to read"])
    lib.set_state(ids[:2], "read")
    lib.set_state(ids[2:3], "skimmed")
    lib.set_note(ids[0], "Compare with **BEXA**, §4")
    lib.set_title(ids[1], "My own title")
    return ids


def test_backup_holds_every_annotation_and_restores_into_an_empty_library(lib, tmp_path):
    ids = annotate(lib)
    file = tmp_path / "annotations.json.gz"
    assert lib.backup(file) == 3
    papers = read_backup(file)
    assert {p["note"] for p in papers} >= {"Compare with **BEXA**, §4"}
    fresh = Library.open(tmp_path / "other", seed=False)
    try:
        summary = fresh.restore(file)
        assert (summary.papers, summary.matched, summary.added, summary.changed) == (3, 0, 3, 3)
        assert set(fresh.search("tag:rl").ids) == set(fresh.search("").ids)  # searchable at once
        got = {p.abstract: p for p in fresh.papers(fresh.search("").ids)}
        for p in lib.papers(ids[:3]):
            q = got[p.abstract]
            assert (q.tags, q.state, q.note, q.user_title, q.title) == (p.tags, p.state, p.note, p.user_title, p.title)
        again = fresh.restore(file)  # into the same library: changes nothing
        assert (again.matched, again.added, again.changed, again.conflicts) == (3, 0, 0, [])
    finally:
        fresh.close()


def test_restore_finds_papers_imported_from_the_same_source_and_merges(lib, tmp_path):
    ids = annotate(lib)
    file = tmp_path / "b.json.gz"
    lib.backup(file)
    other = Library.open(tmp_path / "other")  # the bundled corpus again: the same papers
    try:
        oid = {p.abstract: p.id for p in other.papers(other.search("").ids)}
        first = oid[lib.paper(ids[0]).abstract]  # type: ignore[union-attr]
        other.add_tags([first], ["mine"])
        other.set_note(first, "the other machine's note")
        summary = other.restore(file)
        assert (summary.matched, summary.added) == (3, 0)
        p = other.paper(first)
        assert p is not None and p.tags == ["mine", "rl", "to read"] and p.state == "read"
        assert p.note == "the other machine's note"  # kept, and reported
        assert any("note" in c for c in summary.conflicts)
        assert other.restore(file, overwrite=True).changed >= 1
        assert (other.paper(first) or p).note == "Compare with **BEXA**, §4"
        assert len(other.search("").ids) == 19
    finally:
        other.close()


def test_citation_keys_travel_with_the_backup(lib, tmp_path):
    pid = lib.search("").ids[0]
    lib.set_citation_key(pid, "myCitedKey2026")
    file = tmp_path / "k.json.gz"
    lib.backup(file)
    other = Library.open(tmp_path / "other")
    try:
        other.restore(file)
        same = [p for p in other.papers(other.search("").ids) if p.abstract == (lib.paper(pid) or Paper).abstract]
        assert [p.citation_key for p in same] == ["myCitedKey2026"]
    finally:
        other.close()


def test_a_restore_into_an_empty_library_gives_every_paper_its_own_key(tmp_path):
    """Papers of one base key (deep2021reinforcement, …a, …b): the restore added the annotated ones in order, each
    given the first free key, so that …a came back as the base, …b as …a (the backup's …a then taken: "differed"),
    and a manuscript's \\cite named another paper (a trial: 15 keys). The keys come back as they were, whatever
    the library added first; a restore into the library itself changes nothing."""
    abstract = "We study deep reinforcement learning for {} control with sparse rewards and long horizons."
    rows = [{"title": f"Deep Reinforcement Learning for {w} Control", "abstract": abstract.format(w), "year": 2021,
             "venue": "ICLR"} for w in ("Robot", "Traffic", "Power", "Grid")]  # fmt: skip
    lib = library_of(tmp_path, rows)
    fresh = Library.open(tmp_path / "fresh", seed=False)
    try:
        keys = {p.abstract: p.citation_key for p in lib.papers(lib.search("").ids)}
        assert sorted(keys.values()) == [f"deep2021reinforcement{s}" for s in ("", "a", "b", "c")]
        annotated = [p.id for p in lib.papers(lib.search("").ids) if p.citation_key[-1] in "bc"]
        lib.add_tags(annotated, ["rl"])
        lib.set_citation_key(next(p.id for p in lib.papers(lib.search("").ids) if p.citation_key.endswith("a")),
                             "deep2021reinforcementd")  # fmt: skip
        file = tmp_path / "b.json.gz"
        lib.backup(file)
        summary = fresh.restore(file)
        assert (summary.added, summary.conflicts) == (3, [])
        assert {p.abstract: p.citation_key for p in fresh.papers(fresh.search("").ids)} == {
            a: k for a, k in ((p.abstract, p.citation_key) for p in lib.papers(lib.search("").ids)) if a in
            {q.abstract for q in lib.papers(lib.store.annotated_ids())}}  # fmt: skip
        for target in (fresh, lib):
            again = target.restore(file)
            assert (again.added, again.changed, again.conflicts) == (0, 0, [])
    finally:
        lib.close()
        fresh.close()


def test_a_key_another_paper_holds_is_kept_and_reported(tmp_path):
    """A key the backup gives that a paper outside the backup holds stays that paper's, and the backup's paper
    keeps its own key; so does, in turn, a paper whose backup key that one keeps. Both are reported."""
    rows = [{"title": f"Paper {w}", "abstract": f"A study of {w} in depth, with many words about {w}.",
             "authors": ["Ada Lovelace"], "year": 2020} for w in ("alpha", "beta", "gamma")]  # fmt: skip
    lib, other = library_of(tmp_path, rows), library_of(tmp_path, rows, name="other")
    try:

        def by_word(library: Library) -> dict[str, Paper]:
            return {p.abstract.split()[3]: p for p in library.papers(library.search("").ids)}

        assert [p.citation_key for p in by_word(other).values()] == ["lovelace2020paper", "lovelace2020papera",
                                                                    "lovelace2020paperb"]  # fmt: skip
        mine = by_word(lib)
        lib.set_citation_key(mine["beta"].id, "mykey")
        lib.set_citation_key(mine["alpha"].id, "lovelace2020papera")  # beta's key in `other`
        file = tmp_path / "k.json.gz"
        lib.backup(file)  # alpha and beta
        other.set_citation_key(by_word(other)["gamma"].id, "mykey")  # not in the backup: keeps it
        summary = other.restore(file)
        after = {w: p.citation_key for w, p in by_word(other).items()}
        assert after == {"alpha": "lovelace2020paper", "beta": "lovelace2020papera", "gamma": "mykey"}
        assert sorted(c.split(" (")[1] for c in summary.conflicts) == [
            "citation key 'lovelace2020papera' is taken by paper " + by_word(other)["beta"].uid + ")",
            "citation key 'mykey' is taken by paper " + by_word(other)["gamma"].uid + ")",
        ]
    finally:
        lib.close()
        other.close()


def test_a_paper_whose_title_changed_since_is_found_by_its_id(lib, tmp_path):
    """A trial's backup held a bundled paper with the user's title for its own (an own export read back had made
    it so): neither its content nor its title was the fresh library's, and the restore added it a second time
    (key my2026own) beside the untouched original. Its id and abstract find it."""
    (pid,) = lib.search("value functions POMDPs").ids[:1]
    lib.set_title(pid, "My own title: $\\ell_1$ geometry")
    file = tmp_path / "b.json.gz"
    lib.backup(file)
    doc = json.loads(gzip.decompress(file.read_bytes()))
    [entry] = doc["papers"]
    entry["title"] = "My own title: {\\ensuremath{\\ell}}{\\ensuremath{_1}} geometry"
    file.write_bytes(gzip.compress(json.dumps(doc).encode()))
    fresh = Library.open(tmp_path / "fresh")
    try:
        summary = fresh.restore(file)
        assert (summary.matched, summary.added) == (1, 0)
        assert len(fresh.search("").ids) == 19
        [p] = fresh.papers(fresh.store.annotated_ids())
        assert (p.uid, p.user_title, p.citation_key) == (
            entry["id"],
            "My own title: ℓ₁ geometry",
            "geometry2026feasible",
        )
    finally:
        fresh.close()


def test_a_file_that_is_not_a_backup_is_refused_by_name(lib, tmp_path):
    cases = [("empty.json.gz", gzip.compress(b"")), ("list.json", b"[1, 2]"), ("bin.gz", b"\x1f\x8b\x00garbage"),
             ("other.json", json.dumps({"format": "zotero"}).encode())]  # fmt: skip
    for name, data in cases:
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(ImportFailure, match=name.replace(".", r"\.")):
            lib.restore(path)
    assert lib.search("").ids and not lib.store.annotated_ids()  # nothing changed


def test_closing_keeps_a_rolling_automatic_backup(data_dir):
    lib = Library.open(data_dir)
    ids = annotate(lib)
    lib.close()
    folder = data_dir / AUTO_FOLDER
    today = folder / f"annotations-{date.today().isoformat()}.json.gz"
    assert today.exists() and len(read_backup(today)) == 3
    stamp = today.stat().st_mtime_ns
    lib = Library.open(data_dir)
    lib.close()  # nothing annotated since: not rewritten
    assert today.stat().st_mtime_ns == stamp
    old = folder / f"annotations-{(date.today() - timedelta(days=9)).isoformat()}.json.gz"
    old.write_bytes(today.read_bytes())
    keep = folder / f"annotations-{(date.today() - timedelta(days=6)).isoformat()}.json.gz"
    keep.write_bytes(today.read_bytes())
    lib = Library.open(data_dir)
    lib.set_note(ids[3], "a new note")
    assert auto_backup(lib.store, data_dir) == today
    lib.close()
    assert not old.exists() and keep.exists() and len(read_backup(today)) == 4


def test_backup_and_restore_from_the_command_line(tmp_path, capsys):
    from readinglist.cli import main

    data = str(tmp_path / "d")
    assert main(["--data-dir", data, "list"]) == 0
    uid = capsys.readouterr().out.split()[0]
    assert main(["--data-dir", data, "tag", uid, "cli-tag"]) == 0
    assert main(["--data-dir", data, "backup", str(tmp_path / "b.json.gz")]) == 0
    assert "Backed up the annotations of 1 paper to" in capsys.readouterr().err  # not "1 papers"
    # a new library whose first command is a restore holds the backup's papers only, as after a first import
    # (the bundled 19 came beside the restored ones: a trial)
    assert main(["--data-dir", str(tmp_path / "e"), "restore", str(tmp_path / "b.json.gz")]) == 0
    assert "1 paper — 0 found in the library, 1 added; annotations changed on 1" in capsys.readouterr().out
    assert main(["--data-dir", str(tmp_path / "e"), "list", "tag:cli-tag", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 1
    assert main(["--data-dir", str(tmp_path / "e"), "list", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 1


def _lists(lib: Library) -> list[tuple]:
    return [(sl.name, sl.query, sl.state, sl.tag) for sl in lib.smart_lists()]


def test_saved_lists_travel_with_a_backup_once_each(lib, tmp_path):
    """A backup restored into a fresh library brought 165 papers back and no saved list (a trial): lists are
    backed up and restored, in their order; one the library has by name is never doubled — the same one is
    left alone, another keeps the library's and says so (overwrite: takes the backup's)."""
    annotate(lib)
    lib.add_smart_list("Unread · diffusion", "diffusion", state="unread")
    lib.add_smart_list("Tagged rl", tag="rl")
    lib.add_smart_list("Queued · priority 1", "priority:1", state="queued")
    file = tmp_path / "b.json.gz"
    lib.backup(file)
    fresh = Library.open(tmp_path / "fresh", seed=False)
    try:
        summary = fresh.restore(file)
        assert _lists(fresh) == _lists(lib) and summary.lists == 3 and "3 saved lists restored" in summary.line()
        assert len(fresh.search_list(fresh.smart_list("Tagged rl")).ids) == 3  # they work: their papers came too
        again = fresh.restore(file)
        assert _lists(fresh) == _lists(lib) and (again.lists, again.conflicts) == (0, [])
    finally:
        fresh.close()
    other = Library.open(tmp_path / "other", seed=False)
    try:
        other.add_smart_list("tagged RL", tag="mine")  # the same name, in another case: another list
        summary = other.restore(file)
        assert _lists(other) == [("tagged RL", "", None, "mine"), _lists(lib)[0], _lists(lib)[2]]
        assert summary.conflicts == ["list “tagged RL”: kept the library's (tag mine), the backup's is tag rl"]
        summary = other.restore(file, overwrite=True)
        assert _lists(other)[0] == ("tagged RL", "", None, "rl") and summary.lists == 1
    finally:
        other.close()


def test_backup_and_restore_bring_saved_lists_on_the_command_line(tmp_path, capsys):
    from readinglist.cli import main

    data, fresh, file = str(tmp_path / "d"), str(tmp_path / "e"), str(tmp_path / "b.json.gz")
    assert main(["--data-dir", data, "lists", "save", "Unread · exits", "exit", "--state", "unread"]) == 0
    assert main(["--data-dir", data, "backup", file]) == 0
    assert "and 1 saved list to" in capsys.readouterr().err
    assert main(["--data-dir", fresh, "restore", file]) == 0
    assert "1 saved list restored" in capsys.readouterr().out
    assert main(["--data-dir", fresh, "lists"]) == 0
    assert "Unread · exits" in capsys.readouterr().out


def test_the_automatic_backup_keeps_the_lists_and_follows_their_changes(data_dir):
    lib = Library.open(data_dir)
    lib.add_smart_list("Unread · exits", "exit", state="unread")  # no paper annotated: the list is worth a backup
    lib.close()
    today = data_dir / AUTO_FOLDER / f"annotations-{date.today().isoformat()}.json.gz"
    assert [sl["name"] for sl in read_document(today)["lists"]] == ["Unread · exits"]
    stamp = today.stat().st_mtime_ns
    lib = Library.open(data_dir)
    lib.close()  # nothing changed: not rewritten
    assert today.stat().st_mtime_ns == stamp
    lib = Library.open(data_dir)
    sl = lib.smart_list("Unread · exits")
    lib.update_smart_list(replace(sl, name="Unread exits"))
    lib.close()
    assert [sl["name"] for sl in read_document(today)["lists"]] == ["Unread exits"]


def test_backup_keeps_the_mode_of_the_file_it_replaces(lib, tmp_path):
    annotate(lib)
    file = tmp_path / "b.json.gz"
    file.write_bytes(b"")
    os.chmod(file, 0o640)
    lib.backup(file)
    assert file.stat().st_mode & 0o777 == 0o640 and read_backup(file)


def test_restore_into_a_real_corpus_matches_by_content(empty_lib, tmp_path):
    empty_lib.import_files([corpus("pmlr_colt2025_uai2025_l4dc2026.jsonl")])
    ids = empty_lib.search("").ids[:50]
    empty_lib.add_tags(ids, ["batch"])
    file = tmp_path / "b.json.gz"
    empty_lib.backup(file)
    other = Library.open(tmp_path / "o", seed=False)
    try:
        other.import_files([corpus("pmlr_colt2025_uai2025_l4dc2026.jsonl")])
        summary = other.restore(file)
        assert (summary.matched, summary.added, summary.changed) == (50, 0, 50)
        assert len(other.search("tag:batch").ids) == 50
    finally:
        other.close()
