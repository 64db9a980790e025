"""Triage states (queued, skipped), priorities, the migration that makes room for them, smart lists, and
what the search, the exports, the backups and the command line make of them."""

from __future__ import annotations

import csv
import io
import json
import sqlite3

import bibtexparser
import pytest

from readinglist import store as store_mod
from readinglist.cli import main
from readinglist.export import ExportOptions, render
from readinglist.library import Library
from readinglist.papers import STATES, QueryError, StoreError, describe_view, parse_priority
from readinglist.store import Store


def _new_paper(n: int) -> store_mod.NewPaper:
    return store_mod.NewPaper(f"seed{n:04d}abcdef", f"h{n}", f"k{n}", f"Title {n}", f"Title {n}", "abstract",
                              "abstract", ["A. Author"], "V", 2020, "", [], [])  # fmt: skip


OLD_MIGRATIONS = [(name, fn) for name, fn in store_mod.MIGRATIONS if name < "0009"]


def _old_library(path, monkeypatch, extra=()):
    """A library as the code before migration 0009 made it, with every old state, tags and notes."""
    monkeypatch.setattr(store_mod, "MIGRATIONS", [*OLD_MIGRATIONS, *extra])
    s = Store(path)
    src = s.source_id("x", "x", "jsonl")
    ids = s.insert_papers(src, [_new_paper(n) for n in range(1, 7)], 1)
    s.set_state(ids[:2], "read")
    s.set_state(ids[2:3], "skimmed")
    s.add_tags(ids[:4], ["rl", "to cite"])
    s.set_note(ids[0], "keep this note")
    with pytest.raises(sqlite3.IntegrityError):  # the old CHECK
        s.db.execute("UPDATE papers SET state = 'queued' WHERE id = ?", (ids[5],))
    s.close()
    monkeypatch.undo()
    return ids


def _snapshot(s: Store) -> tuple:
    papers = s.db.execute("SELECT id, uid, state, note, title, rev, annotated_at FROM papers ORDER BY id").fetchall()
    tags = s.db.execute("SELECT paper_id, tag_id FROM paper_tags ORDER BY 1, 2").fetchall()
    return papers, tags


def test_migration_keeps_every_state_tag_and_note_and_index(tmp_path, monkeypatch):
    path = tmp_path / "library.db"
    ids = _old_library(path, monkeypatch)
    old = sqlite3.connect(path)
    before = (old.execute("SELECT id, uid, state, note, title, rev, annotated_at FROM papers ORDER BY id").fetchall(),
              old.execute("SELECT paper_id, tag_id FROM paper_tags ORDER BY 1, 2").fetchall())  # fmt: skip
    indexes = {r[0] for r in old.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'papers'")}
    old.close()
    assert {
        "papers_row",
        "papers_state",
        "papers_rev",
        "papers_source",
        "papers_content",
        "papers_annotated",
    } <= indexes
    assert len(before[1]) == 8  # four papers, two tags each

    s = Store(path)
    try:
        assert "0009_triage_states" in s.applied_migrations()
        assert _snapshot(s) == before  # every state, tag (no cascade from the dropped table), note and revision
        assert [s.states(ids)[i] for i in ids] == ["read", "read", "skimmed", "unread", "unread", "unread"]
        now = {
            r[0] for r in s.db.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'papers'")
        }
        assert now == indexes | {"papers_priority", "papers_doi"}  # every index made again (the UNIQUE uid one by
        # the table itself), the prioritised papers' of migration 0013 and the DOIs' of 0025
        row_index = s.db.execute("SELECT sql FROM sqlite_master WHERE name = 'papers_row'").fetchone()[0]
        assert "priority" in row_index  # a painted row still reads no paper's record
        plan = " ".join(
            r[3] for r in s.db.execute("EXPLAIN QUERY PLAN SELECT id, state, priority FROM papers WHERE id = 3")
        )
        assert "papers_row" in plan or "INTEGER PRIMARY KEY" in plan
        partial = s.db.execute("SELECT sql FROM sqlite_master WHERE name = 'papers_annotated'").fetchone()[0]
        assert "WHERE annotated_at IS NOT NULL" in partial
        assert s.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1  # on again
        assert s.db.execute("PRAGMA foreign_key_check").fetchall() == []
        with pytest.raises(sqlite3.IntegrityError):  # still enforced: a tag on no paper
            s.db.execute("INSERT INTO paper_tags(paper_id, tag_id) VALUES (9999, 1)")
        s.db.execute("DELETE FROM papers WHERE id = ?", (ids[3],))  # and still cascading
        assert s.tags_of([ids[3]]) == {ids[3]: []}
        s.set_state([ids[4]], "queued")
        s.set_state([ids[5]], "skipped")
        with pytest.raises(sqlite3.IntegrityError):
            s.db.execute("UPDATE papers SET state = 'bogus' WHERE id = ?", (ids[4],))
        with pytest.raises(sqlite3.IntegrityError):
            s.db.execute("UPDATE papers SET priority = 4 WHERE id = ?", (ids[4],))
        assert (tmp_path / "library.before-0009_triage_states.db").exists()  # Store.migrate's copy first
        assert s.migrate() == []
    finally:
        s.close()


def test_migration_keeps_a_column_another_migration_added_first(tmp_path, monkeypatch):
    """Other branches add migrations 0004/0005/0008 in parallel: a column one of them adds survives the
    rebuild, because the new table is made from the old one's own CREATE statement."""

    def add_column(db: sqlite3.Connection) -> None:
        db.execute("ALTER TABLE papers ADD COLUMN reading_minutes INTEGER")
        db.execute("CREATE INDEX papers_minutes ON papers(reading_minutes)")

    path = tmp_path / "library.db"
    _old_library(path, monkeypatch, extra=[("0008_reading_minutes", add_column)])
    with sqlite3.connect(path) as old:
        old.execute("UPDATE papers SET reading_minutes = id * 10")
    old.close()
    monkeypatch.setattr(store_mod, "MIGRATIONS", [*OLD_MIGRATIONS, ("0008_reading_minutes", add_column),
                                                  *[m for m in store_mod.MIGRATIONS if m[0] > "0008"]])  # fmt: skip
    s = Store(path)
    try:
        assert s.db.execute("SELECT sum(reading_minutes) FROM papers").fetchone()[0] == 210
        assert s.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'papers_minutes'").fetchone()
        s.set_state([1], "queued")
    finally:
        s.close()


def test_a_failed_migration_changes_nothing(tmp_path, monkeypatch):
    path = tmp_path / "library.db"
    _old_library(path, monkeypatch)
    old = sqlite3.connect(path)
    before = old.execute("SELECT sql FROM sqlite_master WHERE name = 'papers'").fetchone()[0]
    tags = old.execute("SELECT count(*) FROM paper_tags").fetchone()[0]
    old.close()

    def broken(db: sqlite3.Connection) -> None:  # the rebuild, failing after the old table is dropped
        store_mod._m0009_triage_states(db)
        raise sqlite3.OperationalError("disk I/O error")

    broken.rebuilds_tables = True  # type: ignore[attr-defined]
    monkeypatch.setattr(store_mod, "MIGRATIONS", [*OLD_MIGRATIONS, ("0009_triage_states", broken)])
    with pytest.raises(StoreError):
        Store(path)
    monkeypatch.undo()
    old = sqlite3.connect(path)
    assert old.execute("SELECT sql FROM sqlite_master WHERE name = 'papers'").fetchone()[0] == before
    assert old.execute("SELECT count(*) FROM paper_tags").fetchone()[0] == tags
    assert old.execute("SELECT count(*) FROM schema_migrations WHERE name = '0009_triage_states'").fetchone()[0] == 0
    old.close()
    s = Store(path)  # and the real migration still runs afterwards
    assert s.states([1, 3]) == {1: "read", 3: "skimmed"}
    s.close()


def test_priorities_and_state_counts_are_kept_until_states_change(tmp_path):
    s = Store(tmp_path / "l.db")
    src = s.source_id("x", "x", "jsonl")
    ids = s.insert_papers(src, [_new_paper(n) for n in range(1, 6)], 1)
    before = s.set_priority(ids[:2], 1)
    assert before == {ids[0]: None, ids[1]: None}
    s.set_priority([ids[1]], 3)
    assert s.priorities(ids[:3]) == {ids[0]: 1, ids[1]: 3, ids[2]: None}
    s.restore_priorities({ids[1]: 1})
    assert s.paper(ids[1]).priority == 1 and s.rows([ids[1]])[ids[1]][5] == 1
    with pytest.raises(StoreError, match="priority"):
        s.set_priority(ids, 4)
    assert s.ordered_ids("priority")[:2] == ids[:2]  # 1 first, none last
    s.set_state([ids[0]], "queued")
    s.set_state([ids[1]], "skipped")
    counted: list[str] = []
    s.db.set_trace_callback(lambda sql: counted.append(sql) if "count(*)" in sql else None)
    assert s.state_counts() == {"unread": 3, "queued": 1, "skimmed": 0, "read": 0, "skipped": 1}
    calls = len(counted)
    assert s.state_counts()["queued"] == 1 and len(counted) == calls  # kept: a tag or a second look costs nothing
    s.add_tags([ids[2]], ["x"])
    s.state_counts()
    assert len(counted) == calls
    s.set_state([ids[2]], "read")
    assert s.state_counts()["read"] == 1 and len(counted) > calls
    assert dict(s.triaged_states()) == {ids[0]: "queued", ids[1]: "skipped", ids[2]: "read"}
    assert s.count_where("read", "x") == 1 and s.count_where("queued", "x") == 0 and s.count_where("skipped") == 1
    s.close()


def test_triaged_among_the_papers_shown(lib):
    ids = lib.search("").ids
    lib.set_state(ids[:2], "queued")
    lib.set_state(ids[2:3], "skipped")
    assert lib.counts()["triaged"] == 3
    assert lib.triaged_among(ids) == {ids[0]: "queued", ids[1]: "queued", ids[2]: "skipped"}
    assert lib.triaged_among(ids[1:5]) == {ids[1]: "queued", ids[2]: "skipped"}
    assert lib.triaged_among([]) == {}


def test_states_and_priorities_are_searchable(lib):
    ids = lib.search("").ids
    lib.set_state(ids[:2], "queued")
    lib.set_state(ids[2:4], "skipped")
    lib.set_priority([ids[0], ids[2]], 1)
    lib.set_priority([ids[1]], 2)
    assert sorted(lib.search("state:queued").ids) == sorted(ids[:2])
    assert sorted(lib.search("state:Skipped").ids) == sorted(ids[2:4])  # any case
    assert sorted(lib.search("priority:1").ids) == sorted([ids[0], ids[2]])
    assert sorted(lib.search("state:queued priority:2").ids) == [ids[1]]
    assert len(lib.search("priority:none").ids) == 16
    assert sorted(lib.search("priority:1 OR priority:2").ids) == sorted(ids[:3])
    with pytest.raises(QueryError, match="priority:1"):
        lib.search("priority:7")
    with pytest.raises(QueryError, match="state:queued"):
        lib.search("state:later")


def test_priority_words():
    assert [parse_priority(v) for v in ("1", "2", "3", "0", "", "none", "P2")] == [1, 2, 3, None, None, None, 2]
    with pytest.raises(ValueError, match="1, 2 or 3"):
        parse_priority("4")
    assert describe_view("priority:1", "queued") == "Queued · priority 1"
    assert describe_view("diffusion", "unread") == "Unread · diffusion"
    assert describe_view("", None, "rl") == "tag rl"
    assert describe_view() == "All papers"


def test_smart_lists_are_saved_renamed_moved_deleted_and_counted_live(lib):
    ids = lib.search("").ids
    assert lib.smart_lists() == []
    diffusion = lib.add_smart_list("Unread · diffusion", "diffusion", "unread")
    queued = lib.add_smart_list("Queued · priority 1", "priority:1", "queued")
    tagged = lib.add_smart_list("To cite", "", None, "to cite")
    assert [sl.name for sl in lib.smart_lists()] == ["Unread · diffusion", "Queued · priority 1", "To cite"]
    matches = lib.search("diffusion").ids
    assert lib.list_count(diffusion) == len(matches) > 0
    assert (lib.list_count(queued), lib.list_count(tagged)) == (0, 0)
    assert lib.missing_list_tags(lib.smart_lists()) == {tagged.id: "to cite"}  # no paper has it: said, not a bare 0
    lib.set_state(matches[:1], "read")  # counted live: the list is what matches now
    lib.set_state(ids[5:7], "queued")
    lib.set_priority(ids[5:6], 1)
    lib.add_tags(ids[:2], ["To Cite"])
    assert lib.missing_list_tags(lib.smart_lists()) == {}  # the tag in any case
    assert lib.list_count(diffusion) == len(matches) - 1
    assert lib.list_count(queued) == 1 and lib.list_count(tagged) == 2
    assert lib.search_list(queued).ids == [ids[5]]
    assert set(lib.search_list(diffusion, "model").ids) <= set(matches)  # a query within the list
    with pytest.raises(StoreError, match="already"):
        lib.add_smart_list("to CITE")  # names are unique in any case
    with pytest.raises(QueryError):
        lib.add_smart_list("Broken", "colour:red")
    with pytest.raises(StoreError, match="name"):
        lib.add_smart_list("   ")
    before = lib.update_smart_list(tagged.__class__(tagged.id, "Cite these", tagged.query, tagged.state, tagged.tag))
    assert before == tagged and lib.smart_list("cite these").id == tagged.id
    assert lib.move_smart_list(tagged.id, 0) == 2
    assert [sl.name for sl in lib.smart_lists()] == ["Cite these", "Unread · diffusion", "Queued · priority 1"]
    deleted = lib.delete_smart_list(diffusion.id)
    assert deleted is not None and deleted[1] == 1
    assert [sl.name for sl in lib.smart_lists()] == ["Cite these", "Queued · priority 1"]
    lib.restore_smart_list(*deleted)  # undo puts it back where it was, with its id
    assert [sl.id for sl in lib.smart_lists()] == [tagged.id, diffusion.id, queued.id]
    with pytest.raises(StoreError, match="no list named “nope” \\(lists: "):
        lib.smart_list("nope")


def test_smart_lists_live_in_the_library_database(data_dir):
    lib = Library.open(data_dir)
    lib.add_smart_list("Queued", "", "queued")
    lib.close()
    again = Library.open(data_dir)
    try:
        assert [(sl.name, sl.state) for sl in again.smart_lists()] == [("Queued", "queued")]
    finally:
        again.close()


def _triaged(lib):
    ids = lib.search("").ids
    lib.set_state(ids[:2], "read")
    lib.set_state([ids[2]], "skimmed")
    lib.set_state([ids[3]], "queued")
    lib.set_state([ids[4]], "skipped")
    lib.set_priority([ids[3]], 1)
    return ids, lib.papers(ids)


def test_markdown_groups_by_every_state_in_reading_order(lib):
    _, papers = _triaged(lib)
    md = render(papers, ExportOptions())
    order = ["## Read (2)", "## Skimmed (1)", "## Queued (1)", "## Unread (14)", "## Skipped (1)"]
    assert [md.index(h) for h in order] == sorted(md.index(h) for h in order)
    assert "*(queued)* `P1`" in md and "*(skipped)*" in md


def test_csv_bibtex_json_carry_state_and_priority(lib):
    _, papers = _triaged(lib)
    rows = list(csv.DictReader(io.StringIO(render(papers, ExportOptions(format="csv")))))
    by_state = {r["state"]: r for r in rows}
    assert set(by_state) == set(STATES) and by_state["queued"]["priority"] == "1" and by_state["read"]["priority"] == ""
    entries = bibtexparser.parse_string(render(papers, ExportOptions(format="bibtex"))).entries
    queued = next(e for e in entries if "readstatus" in e.fields_dict and e.fields_dict["readstatus"].value == "queued")
    assert queued.fields_dict["priority"].value == "prio1"
    statuses = {e.fields_dict["readstatus"].value if "readstatus" in e.fields_dict else "unread" for e in entries}
    assert statuses == set(STATES)  # unread as JabRef writes it: no field
    items = json.loads(render(papers, ExportOptions(format="json")))
    assert {(i["state"], i["priority"]) for i in items} >= {("queued", 1), ("skipped", None)}


def test_backup_carries_priorities_and_new_states(lib, tmp_path):
    _triaged(lib)
    file = tmp_path / "b.json.gz"
    lib.backup(file)
    fresh = Library.open(tmp_path / "other", seed=False)
    try:
        fresh.restore(file)
        got = {p.state: p.priority for p in fresh.papers(fresh.search("").ids)}
        assert got == {"read": None, "skimmed": None, "queued": 1, "skipped": None}
    finally:
        fresh.close()


# ---- the command line ----


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _uid(capsys, dd, query="BEXA"):
    _, out, _ = run(capsys, "--data-dir", dd, "search", query, "--json")
    return json.loads(out)[0]["id"]


def test_cli_mark_queued_and_skipped_and_priority(capsys, tmp_path):
    dd = str(tmp_path / "cli")
    uid = _uid(capsys, dd)
    for state in ("queued", "skipped"):
        code, out, _ = run(capsys, "--data-dir", dd, "mark", uid, state)
        assert code == 0 and out.strip() == f"{uid}: {state}"
        _, out, _ = run(capsys, "--data-dir", dd, "show", uid, "--json")
        assert json.loads(out)["state"] == state
    with pytest.raises(SystemExit):  # argparse names the choices
        main(["--data-dir", dd, "mark", uid, "later"])
    assert "queued" in capsys.readouterr().err
    for value, want in (("2", 2), ("0", None), ("3", 3)):
        code, out, _ = run(capsys, "--data-dir", dd, "priority", uid, value)
        assert code == 0 and out.strip() == f"{uid}: " + (f"priority {want}" if want else "no priority")
        _, out, _ = run(capsys, "--data-dir", dd, "show", uid, "--json")
        assert json.loads(out)["priority"] == want
    code, _, err = run(capsys, "--data-dir", dd, "priority", uid, "5")
    assert code == 1 and "use 1, 2 or 3" in err and "Traceback" not in err
    _, out, _ = run(capsys, "--data-dir", dd, "list", "state:skipped")
    assert f"{uid}  [-]" in out and "P3" in out
    _, out, _ = run(capsys, "--data-dir", dd, "show", uid)
    assert f"id {uid} · key " in out and " · skipped · priority 3" in out  # the citation key between


def test_cli_lists_say_when_no_paper_has_a_lists_tag(capsys, tmp_path):
    """A list whose tag no paper has (untagged, deleted) showed a bare 0: `lists` says why."""
    dd = str(tmp_path / "cli")
    uid = _uid(capsys, dd)
    code, out, _ = run(capsys, "--data-dir", dd, "lists", "save", "Mine", "--tag", "keep")
    assert code == 0 and out.rstrip().endswith("(0 papers) — no paper has the tag “keep” now")
    run(capsys, "--data-dir", dd, "tag", uid, "keep")
    _, out, _ = run(capsys, "--data-dir", dd, "lists")
    assert "no paper has" not in out and out.split()[:2] == ["Mine", "1"]
    _, out, _ = run(capsys, "--data-dir", dd, "lists", "--json")
    assert json.loads(out)[0]["tag_missing"] is False
    run(capsys, "--data-dir", dd, "untag", uid, "keep")
    _, out, _ = run(capsys, "--data-dir", dd, "lists")
    assert out.rstrip().endswith("tag keep — no paper has the tag “keep” now")
    _, out, _ = run(capsys, "--data-dir", dd, "lists", "--json")
    assert json.loads(out)[0]["tag_missing"] is True


def test_cli_lists_and_list_option(capsys, tmp_path):
    dd = str(tmp_path / "cli")
    code, out, err = run(capsys, "--data-dir", dd, "lists")
    assert code == 0 and out == "" and "No saved lists" in err
    uid = _uid(capsys, dd)
    run(capsys, "--data-dir", dd, "mark", uid, "queued")
    run(capsys, "--data-dir", dd, "priority", uid, "1")
    code, out, _ = run(
        capsys, "--data-dir", dd, "lists", "save", "Queued · priority 1", "priority:1", "--state", "queued"
    )
    assert code == 0 and "(1 paper)" in out
    assert run(capsys, "--data-dir", dd, "lists", "save", "Diffusion", "diffusion")[0] == 0
    code, out, _ = run(capsys, "--data-dir", dd, "lists")
    lines = out.splitlines()
    assert lines[0].split() == ["Queued", "·", "priority", "1", "1"]
    assert lines[1].startswith("Diffusion") and lines[1].rstrip().endswith("diffusion")
    _, out, _ = run(capsys, "--data-dir", dd, "lists", "--json")
    assert next((x["name"], x["count"]) for x in json.loads(out)) == ("Queued · priority 1", 1)
    _, out, _ = run(capsys, "--data-dir", dd, "list", "--list", "queued · PRIORITY 1", "--json")
    assert [p["id"] for p in json.loads(out)] == [uid]
    _, out, _ = run(capsys, "--data-dir", dd, "search", "--list", "Diffusion", "video", "--json")
    found = json.loads(out)
    assert found and all("score" in p for p in found)
    _, out, _ = run(capsys, "--data-dir", dd, "search", "video", "--json")
    assert {p["id"] for p in found} <= {p["id"] for p in json.loads(out)}
    _, out, _ = run(capsys, "--data-dir", dd, "export", "--list", "Queued · priority 1")
    assert "## Queued (1)" in out and "list Queued · priority 1" in out
    code, _, err = run(capsys, "--data-dir", dd, "list", "--list", "Nope")
    assert code == 1 and "no list named “Nope”" in err and "Diffusion" in err
    code, _, err = run(capsys, "--data-dir", dd, "lists", "save", "diffusion", "x")
    assert code == 1 and "already" in err
    assert run(capsys, "--data-dir", dd, "lists", "rename", "Diffusion", "Diff")[0] == 0
    assert run(capsys, "--data-dir", dd, "lists", "delete", "Diff")[0] == 0
    _, out, _ = run(capsys, "--data-dir", dd, "lists", "--json")
    assert [x["name"] for x in json.loads(out)] == ["Queued · priority 1"]
    code, _, err = run(capsys, "--data-dir", dd, "search")
    assert code == 1 and "needs a query" in err


def test_cli_a_list_on_a_tag_query_follows_the_tag_renamed(capsys, tmp_path):
    """A list saved with `tag:offpolicy` in its query showed 0 once the tag was renamed (a user trial), where
    one saved with --tag followed: its query's `tag:` now names the new tag, its own name too when the query
    gave it."""
    dd = str(tmp_path / "cli")
    uid = _uid(capsys, dd)
    run(capsys, "--data-dir", dd, "tag", uid, "offpolicy")
    run(capsys, "--data-dir", dd, "lists", "save", "tag:offpolicy", "tag:offpolicy")
    run(capsys, "--data-dir", dd, "lists", "save", "Mine", "NOT state:skipped AND (tag:OffPolicy OR x)")
    lib = Library.open(tmp_path / "cli")
    lib.rename_tag("offpolicy", "off policy")
    lib.close()
    _, out, _ = run(capsys, "--data-dir", dd, "lists", "--json")
    shown = [(sl["name"], sl["query"], sl["count"]) for sl in json.loads(out)]
    assert shown == [
        ('tag:"off policy"', 'tag:"off policy"', 1),
        ("Mine", 'NOT state:skipped AND (tag:"off policy" OR x)', 1),
    ]


@pytest.mark.parametrize(
    ("query", "required"),
    [
        ("tag:theory", ["theory"]),
        ('diffusion tag:"Two Words" NOT state:read', ["Two Words"]),
        ("tag:Must-Read", ["Must-Read"]),
        ("tag:theory OR tag:rl", []),  # either may go
        ("NOT tag:theory", []),
        ("tag:theo*", []),
        ("(tag:theory x) OR y", []),
        ("diffusion", []),
    ],
)
def test_the_tags_a_lists_query_requires_are_those_no_or_not_or_wildcard_makes_optional(query, required):
    from readinglist.index.query import required_tags

    assert required_tags(query) == required


def test_a_list_whose_query_requires_a_tag_no_paper_has_says_so(lib):
    """A list saved from a `tag:theory` search showed 0 once the tag was deleted, with no word of why, where a
    list filtering on the tag said "tag gone". A tag the query only may have (OR, NOT) is no reason."""
    a, b = lib.search("").ids[:2]
    lib.add_tags([a], ["theory"])
    lib.add_tags([b], ["must read"])
    gone = lib.add_smart_list("Theory", "tag:Theory diffusion")
    either = lib.add_smart_list("Either", "tag:theory OR tag:rl")
    spelt = lib.add_smart_list("Spelt", "tag:must-read")  # the tag "must read", as `tag:` finds it
    assert lib.missing_list_tags(lib.smart_lists()) == {}
    lib.set_tags(lib.plan_delete_tag("theory"))
    assert lib.missing_list_tags(lib.smart_lists()) == {gone.id: "Theory"}  # as the query spells it
    assert either.id not in lib.missing_list_tags([either]) and lib.missing_list_tags([spelt]) == {}
    lib.add_tags([a], ["THEORY"])
    assert lib.missing_list_tags(lib.smart_lists()) == {}
