import os
import sqlite3
import time

import pytest

from readinglist import store as store_mod
from readinglist.papers import StoreError
from readinglist.store import Store


def test_schema_has_real_many_to_many_tags_and_pragmas(tmp_path):
    s = Store(tmp_path / "l.db")
    tables = {r[0] for r in s.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"papers", "tags", "paper_tags", "sources", "meta", "schema_migrations"} <= tables
    assert s.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert s.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    indexes = {r[0] for r in s.db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert "paper_tags_tag" in indexes
    assert s.applied_migrations() == [name for name, _ in store_mod.MIGRATIONS]
    s.close()


def test_transaction_rolls_back_everything(tmp_path):
    s = Store(tmp_path / "l.db")
    with pytest.raises(RuntimeError), s.transaction() as db:
        db.execute("INSERT INTO meta(key, value) VALUES ('x', '1')")
        raise RuntimeError
    assert s.db.execute("SELECT count(*) FROM meta WHERE key = 'x'").fetchone()[0] == 0
    s.close()


def test_a_revision_rolled_back_is_not_kept_as_this_process_s_own(tmp_path):
    """The window lets its own revisions pass unseen (OutsideChanges); a revision a failed write took is the
    one another process takes next, and that process's change must not pass for the window's."""
    s, other = Store(tmp_path / "l.db"), Store(tmp_path / "l.db")
    with pytest.raises(RuntimeError), s.transaction() as db:
        taken = s.next_rev(db)
        raise RuntimeError
    with s.transaction() as db:
        kept = s.next_rev(db)
    with other.transaction() as db:
        theirs = other.next_rev(db)
    assert taken == kept and theirs == kept + 1
    assert kept in s.own_revs and theirs not in s.own_revs
    with pytest.raises(RuntimeError), s.transaction() as db:
        assert s.next_rev(db) == theirs + 1
        raise RuntimeError
    with other.transaction() as db:
        assert other.next_rev(db) == theirs + 1
    assert theirs + 1 not in s.own_revs
    s.close()
    other.close()


def test_new_migration_backs_up_and_is_idempotent(tmp_path, monkeypatch):
    path = tmp_path / "l.db"
    s = Store(path)
    with s.transaction() as db:
        db.execute("INSERT INTO meta(key, value) VALUES ('marker', 'before')")
    s.close()

    def add_column(db: sqlite3.Connection) -> None:
        if "extra" not in store_mod._columns(db, "papers"):
            db.execute("ALTER TABLE papers ADD COLUMN extra TEXT")

    monkeypatch.setattr(store_mod, "MIGRATIONS", [*store_mod.MIGRATIONS, ("0099_extra", add_column)])
    s = Store(path)
    assert "extra" in store_mod._columns(s.db, "papers")
    backup = tmp_path / "l.before-0099_extra.db"
    assert backup.exists()
    old = sqlite3.connect(backup)
    assert old.execute("SELECT value FROM meta WHERE key = 'marker'").fetchone() == ("before",)
    assert "extra" not in {r[1] for r in old.execute("PRAGMA table_info(papers)")}
    old.close()
    assert s.migrate() == []  # nothing pending the second time
    add_column(s.db)  # and the migration itself is safe to run again
    s.close()


def test_only_the_newest_copies_made_before_migrating_are_kept(tmp_path, monkeypatch):
    """A copy of the whole library was left for every release that migrated (three of 15 MB beside an 8k
    library in a session; 200 MB each at 94k): the newest two stay, by the migrations' order, once a migration
    succeeded; a failed migration removes none, and no file this code did not name is touched (a review: a
    user's "l.before-upgrade.db"; copies with a clock ahead's times kept over the one just made)."""
    path = tmp_path / "l.db"
    Store(path).close()
    names = [name for name, _ in store_mod.MIGRATIONS[-3:]]
    for name in names:  # made on a machine whose clock was ahead: their times say nothing
        (tmp_path / f"l.before-{name}.db").write_bytes(b"a copy")
        os.utime(tmp_path / f"l.before-{name}.db", (time.time() + 86400,) * 2)
    for mine in ("l.before-upgrade.db", "other.before-0001_initial.db"):
        (tmp_path / mine).write_bytes(b"the user's own")

    disk = ["failing"]

    def new_migration(db: sqlite3.Connection) -> None:
        if disk:
            raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store_mod, "MIGRATIONS", [*store_mod.MIGRATIONS, ("9999_new", new_migration)])
    with pytest.raises(StoreError):
        Store(path)
    assert len(list(tmp_path.glob("l.before-*.db"))) == 5  # the three, the user's, and the one made for 9999
    disk.clear()
    Store(path).close()
    kept = sorted(p.name for p in tmp_path.glob("*.before-*.db"))
    assert kept == [f"l.before-{names[-1]}.db", "l.before-9999_new.db", "l.before-upgrade.db",
                    "other.before-0001_initial.db"]  # fmt: skip


def test_corrupt_database_is_a_clear_error(tmp_path):
    path = tmp_path / "l.db"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="unreadable"):
        Store(path)


def test_uid_prefix_resolution(lib):
    ids = lib.store.all_ids()
    uids = lib.store.uids(ids)
    some_id = ids[3]
    uid = uids[some_id]
    assert lib.resolve(uid) == some_id
    unique = next(
        uid[:n] for n in range(1, 7) if sum(u.startswith(uid[:n]) for u in uids.values()) == 1
    )  # the shortest prefix no other id shares
    assert lib.resolve(unique.upper()) == some_id
    with pytest.raises(StoreError, match="no paper"):
        lib.resolve("zzzzzz")
    with pytest.raises(StoreError, match="ambiguous"):
        lib.resolve(_common_prefix(uids.values()))


def _common_prefix(uids) -> str:
    """A one-character prefix shared by two ids (19 random hex ids always share one)."""
    seen = {}
    for u in uids:
        if u[0] in seen:
            return u[0]
        seen[u[0]] = u
    raise AssertionError("no shared prefix")


def test_ids_are_short_and_stable(data_dir):
    from readinglist.library import Library

    a = Library.open(data_dir)
    first = a.store.uids(a.store.all_ids())
    a.close()
    b = Library.open(data_dir)
    assert b.store.uids(b.store.all_ids()) == first
    assert all(len(u) == 6 for u in first.values())
    b.close()


def test_library_order_without_reading_the_table_matches_sql(lib):
    store = lib.store
    ids = store.ordered_ids("added")
    assert ids == list(range(1, len(ids) + 1))  # the fast path: ids are exactly 1..n
    assert store.ordered_ids("added", descending=True) == ids[::-1]
    other = sqlite3.connect(store.path)  # a gap (not something the app makes: papers are never deleted)
    other.execute("PRAGMA foreign_keys = ON")
    other.execute("DELETE FROM papers WHERE id = 3")
    other.commit()
    other.close()
    expected = [r[0] for r in store.db.execute("SELECT id FROM papers ORDER BY id")]
    assert store.ordered_ids("added") == expected and 3 not in expected
    assert store.ordered_ids("added", descending=True) == expected[::-1]
    store.set_state([1, 2], "read")
    assert store.ordered_ids("added", state="read") == [1, 2]  # filtered: SQL as always


def _rows_sql(store: Store) -> list[str]:
    """The statements store.rows() runs."""
    seen: list[str] = []
    store.db.set_trace_callback(seen.append)
    try:
        store.rows([1, 2, 3])
    finally:
        store.db.set_trace_callback(None)
    return [s for s in seen if "FROM papers" in s]


def test_table_rows_come_from_their_index_not_the_paper_records(lib):
    store = lib.store
    tagged = store.rows([1, 2, 3])
    sql = _rows_sql(store)
    assert sql
    plan = " ".join(str(r[3]) for r in store.db.execute(f"EXPLAIN QUERY PLAN {sql[0]}"))
    assert "COVERING INDEX papers_row" in plan
    expected = store.db.execute(
        "SELECT id, COALESCE(NULLIF(user_title, ''), auto_title), venue, year, state FROM papers WHERE id IN (1, 2, 3)"
    ).fetchall()
    assert {r[0]: r[1:] for r in expected} == {i: v[:4] for i, v in tagged.items()}


def test_library_from_before_the_rows_index_gets_it_and_read_only_works_without(tmp_path, lib):
    path = lib.store.path
    lib.close()
    old = sqlite3.connect(path)
    old.execute("DROP INDEX papers_row")
    old.execute("DELETE FROM schema_migrations WHERE name = '0003_table_rows_index'")
    old.commit()
    old.close()
    ro = Store(path, read_only=True)  # another window has it: no migration, rows still readable
    assert "papers_row" not in " ".join(_rows_sql(ro)) and len(ro.rows([1, 2, 3])) == 3
    ro.close()
    s = Store(path)
    assert (path.with_name(f"{path.stem}.before-0003_table_rows_index.db")).exists()
    assert "papers_row" in " ".join(_rows_sql(s)) and len(s.rows([1, 2, 3])) == 3
    s.close()


def _new_paper(n: int) -> "store_mod.NewPaper":
    return store_mod.NewPaper(f"seed{n:04d}abcdef", f"h{n}", f"k{n}", f"T{n}", f"T{n}", "a", "a", [], "V", 2020,
                              "", [], [])  # fmt: skip


def test_paper_count_is_kept_until_papers_are_added_here_or_elsewhere(tmp_path):
    s = Store(tmp_path / "l.db")
    src = s.source_id("x", "x", "jsonl")
    s.insert_papers(src, [_new_paper(1), _new_paper(2)], 1)
    assert s.count() == 2
    counted: list[str] = []
    s.db.set_trace_callback(lambda sql: counted.append(sql) if sql.endswith("count(*) FROM papers") else None)
    s.set_state([1], "read")  # marking a paper (and so every r/s/u) does not recount every paper
    assert s.state_counts() == {"unread": 1, "queued": 0, "skimmed": 0, "read": 1, "skipped": 0} and s.count() == 2
    assert counted == []
    s.insert_papers(src, [_new_paper(3)], 2)  # an import here
    assert s.count() == 3 and len(counted) == 1
    other = Store(tmp_path / "l.db")  # and one through another connection (another process, a worker)
    other.insert_papers(src, [_new_paper(4)], 3)
    other.close()
    assert s.count() == 4 and s.state_counts()["unread"] == 3
    s.close()


def _vm_steps(store: Store, call) -> int:
    """SQLite virtual-machine steps a call costs: what it reads, whatever the machine's speed."""
    steps = [0]

    def step() -> int:
        steps[0] += 1
        return 0

    store.db.set_progress_handler(step, 1)
    try:
        call()
    finally:
        store.db.set_progress_handler(None, 1)
    return steps[0]


def test_the_untriaged_count_costs_the_prioritised_papers_not_the_library(tmp_path):
    """Counted on every r/s/u and at start-up: through the state index (all but a few papers unread) it
    read every paper's entry; through the priority's partial index it reads the prioritised ones."""
    costs = []
    for n in (200, 2000):
        s = Store(tmp_path / f"l{n}.db")
        src = s.source_id("x", "x", "jsonl")
        s.insert_papers(src, [_new_paper(i) for i in range(1, n + 1)], 1)
        s.set_priority([1, 2, 3], 1)
        s.set_state([2], "read")
        assert s.untriaged_count() == n - 3  # 1 and 3 prioritised, 2 read
        s.set_state([4], "skipped")  # a fresh count: the state counts' cache is refreshed too
        costs.append(_vm_steps(s, s.untriaged_count))
        assert s.untriaged_count() == n - 4
        s.close()
    assert costs[1] < costs[0] * 2  # ten times the papers, the same cost


def test_a_new_library_packs_several_papers_a_page(tmp_path):
    from readinglist.store import PAGE_SIZE

    s = Store(tmp_path / "new.db")
    try:
        assert s.db.execute("PRAGMA page_size").fetchone()[0] == PAGE_SIZE == 16384
        assert s.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        s.close()
    old = sqlite3.connect(tmp_path / "old.db")  # a library made with 4 KB pages keeps them
    old.execute("PRAGMA page_size = 4096")
    old.execute("CREATE TABLE x(y)")
    old.commit()
    old.close()
    s = Store(tmp_path / "old.db")
    try:
        assert s.db.execute("PRAGMA page_size").fetchone()[0] == 4096
    finally:
        s.close()


def test_migration_0016_drops_the_stored_plain_abstract_and_gives_the_space_back(tmp_path, monkeypatch):
    """A library from before 0016 kept each abstract twice; after it the plain text is derived where it is
    read, the same text as was stored, the file is compacted and the old one kept as a backup."""
    from readinglist.markup import to_plain
    from readinglist.packed_text import unpack
    from readinglist.papers import NewPaper

    path = tmp_path / "library.db"
    monkeypatch.setattr(store_mod, "MIGRATIONS", [m for m in store_mod.MIGRATIONS if m[0] < "0016"])
    s = Store(path)
    abstract = "We bound the $\\ell_1$ risk of **sparse** models; see https://example.org/code. " * 40
    papers = [NewPaper(f"{n:04d}seedabcdef", f"h{n}", f"k{n}", f"Title {n}", f"Title {n}", abstract + str(n), "",
                       ["A. Author"], "V", 2020, "", [], []) for n in range(300)]  # fmt: skip
    ids = s.insert_papers(s.source_id("x", "x", "jsonl"), papers, 1)
    rows = s.db.execute("SELECT id, abstract FROM papers").fetchall()
    s.db.executemany(  # today's insert packs the abstract; the plain text as the old code derived it
        "UPDATE papers SET plain_abstract = ? WHERE id = ?", [(to_plain(unpack(a)), pid) for pid, a in rows]
    )
    stored = dict(s.db.execute("SELECT id, plain_abstract FROM papers"))  # as the old code stored it
    s.close()
    monkeypatch.undo()
    before = path.stat().st_size

    s = Store(path)
    assert "plain_abstract" not in {r[1] for r in s.db.execute("PRAGMA table_info(papers)")}
    got = {p.id: p.plain_abstract for p in s.papers(ids)}
    assert got == stored and len(got) == 300
    assert dict((pid, text) for pid, _, text in s.topic_rows()) == got
    assert {pid: text for pid, (_, text) in s.texts(ids).items()} == got
    assert {row[0]: row[3] for row in s.texts_since(0)} == got
    store_mod._m0016_derived_plain_abstract(s.db)  # idempotent: run again, nothing changes
    s.close()
    assert path.stat().st_size < before * 0.75  # VACUUMed: the pages the column held are gone
    backup = sqlite3.connect(tmp_path / "library.before-0016_derived_plain_abstract.db")
    assert "plain_abstract" in {r[1] for r in backup.execute("PRAGMA table_info(papers)")}
    backup.close()


def test_the_tags_column_sorts_by_the_tags_in_the_order_shown(lib):
    """The table shows a paper's tags in order ("alpha, zeta"), whatever order they were added in; sorting by
    the column follows what is shown, not the order of adding ("zeta, alpha" sorted after "beta")."""
    store = lib.store
    a, b, c = store.ordered_ids("added")[:3]
    store.add_tags([a], ["zeta"])
    store.add_tags([a], ["alpha"])
    store.add_tags([b], ["beta"])
    store.add_tags([c], ["Gamma"])
    assert store.rows([a])[a].tags == "alpha, zeta"
    tagged = [i for i in store.ordered_ids("tags") if i in (a, b, c)]
    assert tagged == [a, b, c]
    assert [i for i in store.ordered_ids("tags", descending=True) if i in (a, b, c)] == [c, b, a]


def test_a_note_saved_over_one_changed_elsewhere_keeps_both(lib):
    """save_note writes over the note it was given as read: if another process changed the note since, both
    are kept (the saved one first, as typed); a note emptied on either side keeps the other's."""
    store = lib.store
    pid = store.ordered_ids("added")[0]
    assert store.save_note(pid, "mine", "") == ("", "mine")  # nothing changed meanwhile: written as is
    assert store.save_note(pid, "mine, more ", "mine") == ("mine", "mine, more ")
    store.set_note(pid, "theirs")  # the command line, meanwhile
    assert store.save_note(pid, "mine, more still", "mine, more ") == (
        "theirs",
        "mine, more still" + store_mod.NOTE_SEPARATOR + "theirs",
    )
    store.set_note(pid, "theirs again")
    assert store.save_note(pid, "", "whatever was read")[1] == "theirs again"  # emptied here: theirs stays
    store.set_note(pid, "")
    assert store.save_note(pid, "mine", "theirs again")[1] == "mine"  # emptied there: mine stays
    assert store.save_note(pid, "mine", "mine") == ("mine", "mine")  # saved twice: no change


def test_an_undo_of_a_note_leaves_one_changed_elsewhere_as_it_is(lib):
    """keep_both=False (an undo or a redo): the step is taken only over the note it expects; a note another
    process changed since is left alone, neither overwritten nor merged again."""
    store = lib.store
    pid = store.ordered_ids("added")[0]
    store.save_note(pid, "mine", "")
    assert store.save_note(pid, "", "mine", keep_both=False) == ("mine", "")  # as expected: taken back
    store.set_note(pid, "theirs")
    assert store.save_note(pid, "mine", "", keep_both=False) == ("theirs", "theirs")


def test_a_revised_paper_is_read_once_before_it_is_rewritten(tmp_path):
    # update_content read the row twice (the authors a merge may have carried on, then the records kept aside):
    # a query more per revised paper of a re-import
    import dataclasses
    import re

    s = Store(tmp_path / "l.db")
    src = s.source_id("x", "x", "jsonl")
    s.insert_papers(src, [_new_paper(1)], 1)
    seen: list[str] = []
    s.db.set_trace_callback(seen.append)
    s.update_content(1, dataclasses.replace(_new_paper(1), content_hash="h1b", abstract="b", plain_abstract="b"), 2)
    s.db.set_trace_callback(None)
    assert len([q for q in seen if re.search(r"\bFROM papers (p )?WHERE id = ", q)]) == 1, seen
    assert s.db.execute("SELECT abstract, source_bib, rev FROM papers WHERE id = 1").fetchone() == ("b", None, 2)
    s.close()
