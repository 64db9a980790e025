"""SQLite: the source of truth for papers and everything the user adds to them. All SQL lives here.

Every write goes through `transaction()`, which also bumps a revision counter; the Whoosh index records the
revision it has seen, so anything written but not yet indexed (a crash in between) is found and caught up.
Each thread gets its own connection: in WAL mode readers never wait for an import's writer.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path

from readinglist.papers import STATES, NewPaper, Paper, StoreError, TableRow

SORT_COLUMNS = {
    "title": "lower(COALESCE(NULLIF(p.user_title, ''), p.auto_title))",
    "venue": "lower(p.venue)",
    "year": "p.year",
    "state": "CASE p.state " + " ".join(f"WHEN '{s}' THEN {i}" for i, s in enumerate(STATES)) + " END",
    "added": "p.id",
    "tags": "(SELECT lower(group_concat(t.name, ', ')) FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id"
    " WHERE pt.paper_id = p.id)",
}


# what an import writes (and a revised record rewrites); everything else on a paper is the user's
CONTENT_COLUMNS = ["content_hash", "source_key", "title", "auto_title", "abstract", "plain_abstract", "authors",
                   "venue", "year", "url", "links"]  # fmt: skip


def _content_values(p: NewPaper) -> tuple[object, ...]:
    return (p.content_hash, p.source_key, p.title, p.auto_title, p.abstract, p.plain_abstract,
            json.dumps(p.authors, ensure_ascii=False), p.venue, p.year, p.url, json.dumps(p.links))  # fmt: skip


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# ---- migrations: named, idempotent, checked against the real schema -----------------------------------


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


def _m0001_initial(db: sqlite3.Connection) -> None:
    _script(
        db,
        """
        CREATE TABLE IF NOT EXISTS sources(
            id INTEGER PRIMARY KEY,
            location TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            kind TEXT NOT NULL,
            imported_at TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS papers(
            id INTEGER PRIMARY KEY,
            uid TEXT NOT NULL UNIQUE,
            source_id INTEGER REFERENCES sources(id) ON DELETE SET NULL,
            source_key TEXT NOT NULL DEFAULT '',
            content_hash TEXT NOT NULL,
            title TEXT NOT NULL DEFAULT '',
            auto_title TEXT NOT NULL DEFAULT '',
            user_title TEXT,
            abstract TEXT NOT NULL DEFAULT '',
            plain_abstract TEXT NOT NULL DEFAULT '',
            authors TEXT NOT NULL DEFAULT '[]',
            venue TEXT NOT NULL DEFAULT '',
            year INTEGER,
            url TEXT NOT NULL DEFAULT '',
            links TEXT NOT NULL DEFAULT '[]',
            state TEXT NOT NULL DEFAULT 'unread' CHECK (state IN ('unread', 'skimmed', 'read')),
            note TEXT NOT NULL DEFAULT '',
            in_source INTEGER NOT NULL DEFAULT 1,
            added_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            rev INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX IF NOT EXISTS papers_source ON papers(source_id, content_hash);
        CREATE INDEX IF NOT EXISTS papers_rev ON papers(rev);
        CREATE INDEX IF NOT EXISTS papers_state ON papers(state);
        CREATE TABLE IF NOT EXISTS tags(
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE
        );
        CREATE TABLE IF NOT EXISTS paper_tags(
            paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
            tag_id INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
            PRIMARY KEY (paper_id, tag_id)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS paper_tags_tag ON paper_tags(tag_id, paper_id);
        """,
    )


def _script(db: sqlite3.Connection, sql: str) -> None:
    """Run statements one by one: executescript() would commit the caller's transaction."""
    for statement in sql.split(";"):
        if statement.strip():
            db.execute(statement)


def _m0002_annotated_at(db: sqlite3.Connection) -> None:
    """When the user last touched a paper (tag, note, state, title): sorts "recently annotated"."""
    if "annotated_at" not in _columns(db, "papers"):
        db.execute("ALTER TABLE papers ADD COLUMN annotated_at TEXT")


def _m0003_table_rows_index(db: sqlite3.Connection) -> None:
    """What a table row shows, in an index of its own: venue, year and state sit behind the abstracts in a
    paper's record, so a page of 200 rows read ~1 MB of overflow pages (20–40 ms at 94k papers, inside a
    paint of the table); from this index it is ~1 ms."""
    db.execute("CREATE INDEX IF NOT EXISTS papers_row ON papers(id, user_title, auto_title, venue, year, state)")


def _m0004_titles_with_math(db: sqlite3.Connection) -> None:
    """A title's math as abstracts show it (ℓ₁-regression, was ℓ_1-regression; markup.title_plain): the
    plain title of each paper imported with math in its title is derived again. Only those rows change;
    their revision moves on, so the index takes the new titles."""
    from readinglist.markup import title_plain

    rows = db.execute(
        "SELECT id, title, auto_title FROM papers WHERE instr(title, '$') > 0 OR instr(title, '\\(') > 0"
    ).fetchall()
    changed = [(new, pid) for pid, raw, old in rows if (new := title_plain(raw)) and new != old]
    if changed:
        row = db.execute("SELECT value FROM meta WHERE key = 'rev'").fetchone()
        rev = int(row[0]) + 1 if row else 1
        db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('rev', ?)", (str(rev),))
        db.executemany(f"UPDATE papers SET auto_title = ?, rev = {rev} WHERE id = ?", changed)


MIGRATIONS: list[tuple[str, Callable[[sqlite3.Connection], None]]] = [
    ("0001_initial", _m0001_initial),
    ("0002_annotated_at", _m0002_annotated_at),
    ("0003_table_rows_index", _m0003_table_rows_index),
    ("0004_titles_with_math", _m0004_titles_with_math),
]


class Store:
    def __init__(self, path: Path, read_only: bool = False):
        self.path = Path(path)
        self.read_only = read_only
        self._local = threading.local()
        self._write_lock = threading.RLock()
        self._connections: list[sqlite3.Connection] = []
        self._conn_lock = threading.Lock()
        self._rows_hint: str | None = None
        self._inserts = 0  # moves on around every insert of papers (see count)
        if not read_only:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        elif not self.path.exists():
            raise StoreError(f"{self.path}: no library to open read-only")
        try:
            self.migrate()
        except sqlite3.DatabaseError as exc:
            self.close()
            raise StoreError(f"{self.path}: the library database is unreadable ({exc})") from None

    # ---- connections and transactions ----

    @property
    def db(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            if self.read_only:
                conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
            else:
                conn = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
            conn.isolation_level = None  # explicit BEGIN/COMMIT only, in transaction()
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA busy_timeout = 30000")
            if not self.read_only:
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")
            self._local.conn = conn
            self._local.depth = 0
            with self._conn_lock:
                self._connections.append(conn)
        return conn

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """The one way to write: all or nothing, re-entrant, and the revision counter moves on."""
        if self.read_only:
            raise StoreError("the library is open read-only (another readinglist window has it)")
        db = self.db
        with self._write_lock:
            if self._local.depth:
                self._local.depth += 1
                try:
                    yield db
                finally:
                    self._local.depth -= 1
                return
            db.execute("BEGIN IMMEDIATE")
            self._local.depth = 1
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            else:
                db.execute("COMMIT")
            finally:
                self._local.depth = 0

    def close(self) -> None:
        with self._conn_lock:
            for conn in self._connections:
                with suppress(sqlite3.Error):
                    conn.close()
            self._connections.clear()
        self._local = threading.local()

    def next_rev(self, db: sqlite3.Connection) -> int:
        row = db.execute("SELECT value FROM meta WHERE key = 'rev'").fetchone()
        rev = int(row[0]) + 1 if row else 1
        db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('rev', ?)", (str(rev),))
        return rev

    def current_rev(self) -> int:
        row = self.db.execute("SELECT value FROM meta WHERE key = 'rev'").fetchone()
        return int(row[0]) if row else 0

    # ---- migrations ----

    def migrate(self) -> list[str]:
        """Apply pending migrations, backing up an existing database file first."""
        db = self.db
        if self.read_only:
            return []
        db.execute("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT)")
        db.execute("CREATE TABLE IF NOT EXISTS schema_migrations(name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
        done = {row[0] for row in db.execute("SELECT name FROM schema_migrations")}
        pending = [(name, fn) for name, fn in MIGRATIONS if name not in done]
        if not pending:
            return []
        if done:  # an existing library: keep a copy as it was
            self.backup(self.path.with_name(f"{self.path.stem}.before-{pending[0][0]}.db"))
        for name, fn in pending:
            with self.transaction() as tx:
                fn(tx)
                tx.execute("INSERT INTO schema_migrations(name, applied_at) VALUES (?, ?)", (name, now()))
        return [name for name, _ in pending]

    def backup(self, target: Path) -> Path:
        """A consistent copy of the database (SQLite's online backup, safe while in use)."""
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(target.suffix + ".tmp")
        dest = sqlite3.connect(tmp)
        try:
            self.db.backup(dest)
        finally:
            dest.close()
        shutil.move(tmp, target)
        return target

    def applied_migrations(self) -> list[str]:
        return [row[0] for row in self.db.execute("SELECT name FROM schema_migrations ORDER BY name")]

    # ---- sources and importing ----

    def source_id(self, location: str, name: str, kind: str) -> int:
        with self.transaction() as db:
            row = db.execute("SELECT id FROM sources WHERE location = ?", (location,)).fetchone()
            if row:
                db.execute("UPDATE sources SET imported_at = ?, kind = ? WHERE id = ?", (now(), kind, row[0]))
                return int(row[0])
            cur = db.execute(
                "INSERT INTO sources(location, name, kind, imported_at) VALUES (?, ?, ?, ?)",
                (location, name, kind, now()),
            )
            return int(cur.lastrowid or 0)

    def source_papers(self, source_id: int) -> list[tuple[int, str, str, str]]:
        """(id, content_hash, title, plain_abstract) of a source's papers, for matching a re-import."""
        return list(
            self.db.execute(
                "SELECT id, content_hash, title, plain_abstract FROM papers WHERE source_id = ?", (source_id,)
            )
        )

    def source_titles(self, source_id: int) -> set[str]:
        rows = self.db.execute("SELECT auto_title FROM papers WHERE source_id = ?", (source_id,))
        return {r[0] for r in rows}

    def insert_papers(self, source_id: int, papers: Sequence[NewPaper], rev: int) -> list[int]:
        ids = []
        stamp = now()
        self._inserts += 1  # before and after: a count taken meanwhile is not kept
        with self.transaction() as db:
            for p in papers:
                uid = self._new_uid(db, p.uid_seed)
                cur = db.execute(
                    f"INSERT INTO papers(uid, source_id, {', '.join(CONTENT_COLUMNS)}, added_at, updated_at, rev)"
                    f" VALUES (?, ?, {', '.join('?' * len(CONTENT_COLUMNS))}, ?, ?, ?)",
                    (uid, source_id, *_content_values(p), stamp, stamp, rev),
                )
                pid = int(cur.lastrowid or 0)
                ids.append(pid)
                if p.tags:
                    self._add_tags(db, [pid], p.tags)
        self._inserts += 1
        return ids

    def count(self) -> int:
        """count(*) scans an index entry per paper (2.5–7 ms at 94k papers, and every r/s/u shows the
        counts), yet only an import adds papers: the count is kept until this store inserts some or this
        thread's connection sees another connection's commit (SQLite's data_version)."""
        db = self.db
        key = (db.execute("PRAGMA data_version").fetchone()[0], self._inserts)
        kept = getattr(self._local, "count", None)
        if kept is None or kept[0] != key:
            kept = self._local.count = (key, db.execute("SELECT count(*) FROM papers").fetchone()[0])
        return int(kept[1])

    def _new_uid(self, db: sqlite3.Connection, seed: str) -> str:
        for length in range(6, len(seed) + 1):
            uid = seed[:length]
            if db.execute("SELECT 1 FROM papers WHERE uid = ?", (uid,)).fetchone() is None:
                return uid
        raise StoreError("could not assign a unique id")  # a full 40-hex collision: never in practice

    def update_content(self, paper_id: int, p: NewPaper, rev: int) -> None:
        """A revised record replaces the imported text; the user's tags, note, state and title stay."""
        with self.transaction() as db:
            db.execute(
                f"UPDATE papers SET {', '.join(c + ' = ?' for c in CONTENT_COLUMNS)}, in_source = 1,"
                " updated_at = ?, rev = ? WHERE id = ?",
                (*_content_values(p), now(), rev, paper_id),
            )

    def set_in_source(self, ids: Iterable[int], present: bool, rev: int) -> None:
        with self.transaction() as db:
            db.executemany(
                "UPDATE papers SET in_source = ?, rev = ? WHERE id = ? AND in_source != ?",
                [(int(present), rev, i, int(present)) for i in ids],
            )

    # ---- reading papers ----

    _SELECT = (
        "SELECT p.id, p.uid, COALESCE(NULLIF(p.user_title, ''), p.auto_title), p.title, p.auto_title,"
        " p.user_title, p.abstract, p.plain_abstract, p.authors, p.venue, p.year, p.url, p.links, p.state,"
        " p.note, s.name, p.in_source, p.updated_at FROM papers p LEFT JOIN sources s ON s.id = p.source_id"
    )

    def _paper(self, row: tuple, tags: list[str]) -> Paper:
        return Paper(
            id=row[0],
            uid=row[1],
            title=row[2],
            raw_title=row[3],
            auto_title=row[4],
            user_title=row[5],
            abstract=row[6],
            plain_abstract=row[7],
            authors=json.loads(row[8]),
            venue=row[9],
            year=row[10],
            url=row[11],
            links=json.loads(row[12]),
            state=row[13],
            note=row[14],
            source=row[15] or "",
            in_source=bool(row[16]),
            updated_at=row[17],
            tags=tags,
        )

    def papers(self, ids: Sequence[int]) -> list[Paper]:
        """Papers in the order of `ids` (missing ids are left out)."""
        if not ids:
            return []
        found: dict[int, Paper] = {}
        db = self.db
        for chunk in _chunks(list(ids), 900):
            marks = ",".join("?" * len(chunk))
            tags: dict[int, list[str]] = {}
            for pid, name in db.execute(
                "SELECT pt.paper_id, t.name FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id"
                f" WHERE pt.paper_id IN ({marks}) ORDER BY t.name COLLATE NOCASE",
                chunk,
            ):
                tags.setdefault(pid, []).append(name)
            for row in db.execute(f"{self._SELECT} WHERE p.id IN ({marks})", chunk):
                found[row[0]] = self._paper(row, tags.get(row[0], []))
        return [found[i] for i in ids if i in found]

    def paper(self, paper_id: int) -> Paper | None:
        got = self.papers([paper_id])
        return got[0] if got else None

    def rows(self, ids: Sequence[int]) -> dict[int, TableRow]:
        """What a table row shows — (title, venue, year, state, tags) — without the abstracts, from the
        table rows index (SQLite's planner would read the papers' records instead)."""
        out: dict[int, TableRow] = {}
        db = self.db
        if self._rows_hint is None:  # a library opened read-only may predate the index
            has = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'papers_row'").fetchone()
            self._rows_hint = "INDEXED BY papers_row" if has else ""
        for chunk in _chunks(list(ids), 900):
            marks = ",".join("?" * len(chunk))
            for row in db.execute(
                "SELECT p.id, COALESCE(NULLIF(p.user_title, ''), p.auto_title), p.venue, p.year, p.state,"
                " COALESCE((SELECT group_concat(name, ', ') FROM (SELECT t.name FROM paper_tags pt"
                " JOIN tags t ON t.id = pt.tag_id WHERE pt.paper_id = p.id ORDER BY t.name COLLATE NOCASE)), '')"
                f" FROM papers p {self._rows_hint} WHERE p.id IN ({marks})",
                chunk,
            ):
                out[row[0]] = (row[1], row[2], row[3], row[4], row[5])
        return out

    def is_empty(self) -> bool:
        """No papers and no source ever imported: a library that has never been used."""
        return self.db.execute("SELECT 1 FROM papers UNION ALL SELECT 1 FROM sources LIMIT 1").fetchone() is None

    def ordered_ids(
        self, sort: str = "added", descending: bool = False, state: str | None = None, tag: str | None = None
    ) -> list[int]:
        """Every paper id in a column's order, filtered by state and tag: sorting is SQLite's job."""
        expr = SORT_COLUMNS.get(sort, SORT_COLUMNS["added"])
        if expr == "p.id" and state is None and tag is None:
            # Papers are never deleted, so their ids are usually exactly 1..n: then the order is known
            # without reading the table (a scan of its 342 MB took 170 ms at 94k papers, at start-up)
            db = self.db
            count = self.count()
            lowest = db.execute("SELECT min(id) FROM papers").fetchone()[0]  # index lookups, not scans
            highest = db.execute("SELECT max(id) FROM papers").fetchone()[0]
            if count and lowest == 1 and highest == count:
                return list(range(count, 0, -1)) if descending else list(range(1, count + 1))
        where, args = self._filters(state, tag)
        direction = "DESC" if descending else "ASC"
        sql = f"SELECT p.id FROM papers p{where} ORDER BY {expr} {direction}, p.id {direction}"
        return [r[0] for r in self.db.execute(sql, args)]

    def _filters(self, state: str | None, tag: str | None) -> tuple[str, list[object]]:
        clauses: list[str] = []
        args: list[object] = []
        if state:
            clauses.append("p.state = ?")
            args.append(state)
        if tag:
            clauses.append(
                "p.id IN (SELECT pt.paper_id FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id WHERE t.name = ?)"
            )
            args.append(tag)
        return (" WHERE " + " AND ".join(clauses) if clauses else ""), args

    def resolve_uid(self, text: str) -> int:
        """The paper whose id is, or uniquely starts with, `text`."""
        text = text.strip().lower()
        if not text:
            raise StoreError("empty paper id")
        row = self.db.execute("SELECT id FROM papers WHERE uid = ?", (text,)).fetchone()
        if row:
            return int(row[0])
        rows = self.db.execute(
            "SELECT id, uid FROM papers WHERE uid >= ? AND uid < ? LIMIT 6", (text, text + "\uffff")
        ).fetchall()
        if not rows:
            raise StoreError(f"no paper with id {text!r}")
        if len(rows) > 1:
            listed = ", ".join(r[1] for r in rows[:5])
            raise StoreError(f"paper id {text!r} is ambiguous: {listed}{' …' if len(rows) > 5 else ''}")
        return int(rows[0][0])

    def changed_since(self, rev: int) -> list[int]:
        return [r[0] for r in self.db.execute("SELECT id FROM papers WHERE rev > ?", (rev,))]

    def all_ids(self) -> list[int]:
        return [r[0] for r in self.db.execute("SELECT id FROM papers ORDER BY id")]

    def uids(self, ids: Sequence[int]) -> dict[int, str]:
        out = {}
        for chunk in _chunks(list(ids), 900):
            marks = ",".join("?" * len(chunk))
            out.update(dict(self.db.execute(f"SELECT id, uid FROM papers WHERE id IN ({marks})", chunk)))
        return out

    # ---- annotations ----

    def _touch(self, db: sqlite3.Connection, ids: Sequence[int]) -> None:
        rev = self.next_rev(db)
        stamp = now()
        db.executemany("UPDATE papers SET rev = ?, annotated_at = ? WHERE id = ?", [(rev, stamp, i) for i in ids])

    def set_state(self, ids: Sequence[int], state: str) -> dict[int, str]:
        """Returns the previous states, so the caller can undo."""
        if state not in STATES:
            raise StoreError(f"unknown state {state!r}; use one of {', '.join(STATES)}")
        with self.transaction() as db:
            before = self.states(ids)
            db.executemany("UPDATE papers SET state = ? WHERE id = ?", [(state, i) for i in ids])
            self._touch(db, ids)
        return before

    def restore_states(self, states: dict[int, str]) -> None:
        with self.transaction() as db:
            db.executemany("UPDATE papers SET state = ? WHERE id = ?", [(s, i) for i, s in states.items()])
            self._touch(db, list(states))

    def states(self, ids: Sequence[int]) -> dict[int, str]:
        out = {}
        for chunk in _chunks(list(ids), 900):
            marks = ",".join("?" * len(chunk))
            out.update(dict(self.db.execute(f"SELECT id, state FROM papers WHERE id IN ({marks})", chunk)))
        return out

    def _tag_id(self, db: sqlite3.Connection, name: str) -> int:
        row = db.execute("SELECT id FROM tags WHERE name = ?", (name,)).fetchone()
        if row:
            return int(row[0])
        return int(db.execute("INSERT INTO tags(name) VALUES (?)", (name,)).lastrowid or 0)

    def _add_tags(self, db: sqlite3.Connection, ids: Sequence[int], tags: Iterable[str]) -> None:
        for tag in tags:
            tid = self._tag_id(db, tag)
            db.executemany("INSERT OR IGNORE INTO paper_tags(paper_id, tag_id) VALUES (?, ?)", [(i, tid) for i in ids])

    def add_tags(self, ids: Sequence[int], tags: Sequence[str]) -> dict[int, list[str]]:
        """Returns each paper's tags before, for undo."""
        with self.transaction() as db:
            before = self.tags_of(ids)
            self._add_tags(db, ids, tags)
            self._touch(db, ids)
        return before

    def remove_tags(self, ids: Sequence[int], tags: Sequence[str]) -> dict[int, list[str]]:
        with self.transaction() as db:
            before = self.tags_of(ids)
            for tag in tags:
                db.executemany(
                    "DELETE FROM paper_tags WHERE paper_id = ? AND tag_id = (SELECT id FROM tags WHERE name = ?)",
                    [(i, tag) for i in ids],
                )
            self._drop_unused_tags(db)
            self._touch(db, ids)
        return before

    def set_tags(self, tags_by_paper: dict[int, list[str]]) -> dict[int, list[str]]:
        """Each paper gets exactly these tags (undo of any tag edit)."""
        with self.transaction() as db:
            before = self.tags_of(list(tags_by_paper))
            for pid, tags in tags_by_paper.items():
                db.execute("DELETE FROM paper_tags WHERE paper_id = ?", (pid,))
                self._add_tags(db, [pid], tags)
            self._drop_unused_tags(db)
            self._touch(db, list(tags_by_paper))
        return before

    def _drop_unused_tags(self, db: sqlite3.Connection) -> None:
        db.execute("DELETE FROM tags WHERE id NOT IN (SELECT DISTINCT tag_id FROM paper_tags)")

    def tags_of(self, ids: Sequence[int]) -> dict[int, list[str]]:
        out: dict[int, list[str]] = {i: [] for i in ids}
        for chunk in _chunks(list(ids), 900):
            marks = ",".join("?" * len(chunk))
            for pid, name in self.db.execute(
                "SELECT pt.paper_id, t.name FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id"
                f" WHERE pt.paper_id IN ({marks}) ORDER BY t.name COLLATE NOCASE",
                chunk,
            ):
                out[pid].append(name)
        return out

    def papers_with_tag(self, name: str) -> list[int]:
        return [
            r[0]
            for r in self.db.execute(
                "SELECT pt.paper_id FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id WHERE t.name = ?",
                (name,),
            )
        ]

    def tag_counts(self) -> list[tuple[str, int]]:
        return list(
            self.db.execute(
                "SELECT t.name, count(pt.paper_id) FROM tags t JOIN paper_tags pt ON pt.tag_id = t.id"
                " GROUP BY t.id ORDER BY t.name COLLATE NOCASE"
            )
        )

    def state_counts(self) -> dict[str, int]:
        """Counted through the state index, the unread as the rest: GROUP BY state scanned all of it
        (10 ms at 94k papers, on every r/s/u); these take 0.05 ms while few papers are read."""
        db = self.db
        total = self.count()
        counts = {s: db.execute("SELECT count(*) FROM papers WHERE state = ?", (s,)).fetchone()[0] for s in STATES[1:]}
        counts[STATES[0]] = total - sum(counts.values())
        return {s: counts[s] for s in STATES}

    def set_note(self, paper_id: int, note: str) -> str:
        with self.transaction() as db:
            row = db.execute("SELECT note FROM papers WHERE id = ?", (paper_id,)).fetchone()
            if row is None:
                raise StoreError(f"no paper {paper_id}")
            if row[0] != note:
                db.execute("UPDATE papers SET note = ? WHERE id = ?", (note, paper_id))
                self._touch(db, [paper_id])
            return str(row[0])

    def set_user_title(self, paper_id: int, title: str | None) -> str | None:
        title = title.strip() if title else None
        with self.transaction() as db:
            row = db.execute("SELECT user_title FROM papers WHERE id = ?", (paper_id,)).fetchone()
            if row is None:
                raise StoreError(f"no paper {paper_id}")
            db.execute("UPDATE papers SET user_title = ? WHERE id = ?", (title or None, paper_id))
            self._touch(db, [paper_id])
            return row[0]


def _chunks(items: list[int], size: int) -> Iterator[list[int]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def open_store(path: Path, read_only: bool = False, retries: int = 3) -> Store:
    """Open the library, waiting briefly if another process holds a write lock."""
    for attempt in range(retries):
        try:
            return Store(path, read_only=read_only)
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == retries - 1:
                raise StoreError(f"{path}: {exc}") from None
            time.sleep(0.5)
    raise StoreError(f"{path}: could not be opened")
