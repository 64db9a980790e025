"""SQLite: the source of truth for papers and everything the user adds to them. All SQL lives here.

Every write goes through `transaction()`. A write that changes what the search index holds for a paper also
records the paper in the index journal, in the same transaction; the journal is cleared only by the index
commit that contains the change, so no crash at any moment leaves the index behind without a record of it.
Each thread gets its own connection: in WAL mode readers never wait for an import's writer.

Over 400 lines by design: all SQL is here (the layout's rule), so that no other module knows the schema.
It is sectioned — migrations, papers, annotations, the index journal, topics, smart lists, removal — and each
section is small; splitting it would spread one schema over several files that must change together.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import sqlite3
import threading
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType, SimpleNamespace
from typing import Any, TypeVar

from readinglist import biblio, citekeys
from readinglist.collation import PLAIN_LETTERS, authors_key, authors_short, name_key, title_key
from readinglist.packed_text import pack, unpack
from readinglist.papers import (
    DEFAULT_STATE,
    PRIORITIES,
    STATES,
    TRIAGED_STATES,
    DuplicatePair,
    Merge,
    NewPaper,
    Paper,
    RemovedPaper,
    SmartList,
    StoreBusy,
    StoreError,
    TableRow,
    Topic,
    tag_key,
)
from readinglist.scan_search import Row

T = TypeVar("T")
PAGE_SIZE = 16384
# a table column's value, where a paper has one: the join it needs and the condition (Store.empty_columns)
_VALUE_SQL = {"authors": ("JOIN paper_columns c ON c.paper_id = p.id", "c.authors != ''"),
              "venue": ("", "p.venue != ''"), "year": ("", "p.year IS NOT NULL")}  # fmt: skip
MIGRATION_COPIES = 2  # the copies of the library made before migrating that are kept (library.before-<name>.db)
NOTE_SEPARATOR = "\n\n---\n\n"  # between two notes merged into one
# a removed paper's topic, kept in its removed record (beside its columns) for undo
REMOVED_TOPIC = "_topic"
REMOVED_KEYWORDS = "_keywords"  # a removed paper's tags that were keywords (tag_key): so again if made again
# a merged paper's merge (Merge, and the kept paper's annotations right after it), kept in its removed record so
# that `unremove` takes the merge back from the kept paper as the window's undo does (Store.unremove_papers)
REMOVED_MERGE = "_merge"


def _json_value(value: object) -> object:
    """A column's value as JSON holds it (a packed abstract's bytes as base64)."""
    if isinstance(value, bytes):
        import base64

        return {"b64": base64.b64encode(value).decode("ascii")}
    return value


def _from_json_value(value: object) -> object:
    if isinstance(value, dict) and "b64" in value:
        import base64

        return base64.b64decode(value["b64"])
    return value


def _resize_topics(db: sqlite3.Connection, topics: Sequence[int], by: int) -> None:
    """Papers left or came back to these topics (one entry a paper): their sizes follow."""
    for topic, n in Counter(topics).items():
        db.execute("UPDATE topics SET size = max(size + ?, 0) WHERE id = ?", (by * n, topic))


# unread papers with a priority (triaged, though unread), through the priority's partial index: the unary + keeps
# SQLite off the state index, where the unread are nearly every paper
_UNREAD_WITH_PRIORITY = "p.priority IS NOT NULL AND +p.state = ?"
# columns a paper may leave blank: those papers sort last, ascending or descending
BLANK_LAST = frozenset(("venue", "year", "authors", "tags"))
# what a column sorts by in SQL; title and authors sort by their collation keys where the library has them
SORT_COLUMNS = {
    "title": "lower(COALESCE(NULLIF(p.user_title, ''), p.auto_title))",
    "venue": "lower(p.venue)",
    "year": "p.year",
    "state": "CASE p.state " + " ".join(f"WHEN '{s}' THEN {i}" for i, s in enumerate(STATES)) + " END",
    "priority": "COALESCE(p.priority, 9)",  # 1 first, none last
    "added": "p.id",
    "authors": "lower(p.authors)",
    # the tags as the table shows them (the user's: a file's keywords are apart), in order: a paper tagged
    # "zeta" then "alpha" sorts by "alpha, zeta"
    "tags": "(SELECT lower(group_concat(name, ', ')) FROM (SELECT t.name FROM paper_tags pt JOIN tags t"
    " ON t.id = pt.tag_id WHERE pt.paper_id = p.id AND t.imported = 0 ORDER BY t.name COLLATE NOCASE))",
}


# what an import writes (and a revised record rewrites); everything else on a paper is the user's
# (the abstract's plain text is not stored: derived where it is read, see _m0016_derived_plain_abstract)
CONTENT_COLUMNS = ["content_hash", "source_key", "title", "auto_title", "abstract", "authors", "venue", "year",
                   "url", "links", "bib"]  # fmt: skip
# a paper's DOI as an import compares it (biblio.doi_key), through the index papers_doi (0025)
_DOI_SQL = "lower(json_extract({p}bib, '$.doi'))"


def _to_plain(text: str) -> str:
    """markup.to_plain, loaded at the first call: the window's first paint shows no abstract and needs none
    of markup's patterns."""
    from readinglist.markup import to_plain

    return to_plain(text)


def _same_title(raw: str, *stored: str | None) -> bool:
    """Is a file's title one of these stored titles, up to what an export and its reading back change? A title
    written as the user typed it, "$\\ell_1$ geometry", is "ℓ₁ geometry" read back from the BibTeX export, or
    "ℓ_1" (title_key_of_raw: case, accents, punctuation; the spaces too, so "l1" and "l 1" agree)."""
    from readinglist.importers.duplicates import title_key_of_raw

    key = title_key_of_raw(raw).replace(" ", "")
    return bool(key) and any(key == title_key_of_raw(s).replace(" ", "") for s in stored if s)


def _plain_abstract(stored: str | bytes | None) -> str:
    """A stored abstract (text, or packed bytes) as plain text."""
    return _to_plain(unpack(stored))


def _content_values(p: NewPaper) -> tuple[object, ...]:
    return (p.content_hash, p.source_key, p.title, p.auto_title, pack(p.abstract),
            json.dumps(p.authors, ensure_ascii=False), p.venue, p.year, p.url, json.dumps(p.links),
            biblio.dumps(p.bib))  # fmt: skip


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
            bib TEXT,
            source_bib TEXT,
            state TEXT NOT NULL DEFAULT 'unread' CHECK (state IN ('unread', 'skimmed', 'read')),
            note TEXT NOT NULL DEFAULT '',
            in_source INTEGER NOT NULL DEFAULT 1,
            added_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            rev INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX IF NOT EXISTS papers_source ON papers(source_id);
        CREATE INDEX IF NOT EXISTS papers_rev ON papers(rev);
        CREATE INDEX IF NOT EXISTS papers_state ON papers(state);
        CREATE TABLE IF NOT EXISTS tags(
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            imported INTEGER NOT NULL DEFAULT 0
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
    paper's record, so a page of rows read megabytes of overflow pages inside a paint of the table; this index
    holds only what a row shows."""
    db.execute("CREATE INDEX IF NOT EXISTS papers_row ON papers(id, user_title, auto_title, venue, year, state)")


def _m0004_citation_keys(db: sqlite3.Connection) -> None:
    """Every paper gets its citation key once (citekeys), unique whatever the case, never changed by an
    export or a re-import; papers stored later get theirs as they are inserted."""
    if "citation_key" not in _columns(db, "papers"):
        db.execute("ALTER TABLE papers ADD COLUMN citation_key TEXT")
    db.execute("CREATE UNIQUE INDEX IF NOT EXISTS papers_citation_key ON papers(citation_key COLLATE NOCASE)")
    taken = {row[0].lower() for row in db.execute("SELECT citation_key FROM papers WHERE citation_key IS NOT NULL")}
    keys = _KeyMaker(lambda key: key.lower() in taken)
    updates = []
    for pid, title, authors, year in db.execute(
        "SELECT id, auto_title, authors, year FROM papers WHERE citation_key IS NULL ORDER BY id"
    ).fetchall():
        key = keys.new(title, json.loads(authors), year)
        taken.add(key.lower())
        updates.append((key, pid))
    db.executemany("UPDATE papers SET citation_key = ? WHERE id = ?", updates)


class _KeyMaker:
    """Unique keys for many papers: remembers how far each base's suffixes are taken (a thousand papers
    with one base would otherwise try a, b, c … again for each)."""

    def __init__(self, taken: Callable[[str], bool]):
        self.taken = taken
        self.next: dict[str, int] = {}

    def new(self, title: str, authors: list[str], year: int | None) -> str:
        base = citekeys.base_key(title, authors, year)
        n = self.next.get(base, 0)
        while self.taken(citekeys.suffixed(base, n)):
            n += 1
        self.next[base] = n + 1
        return citekeys.suffixed(base, n)


def _m0006_index_journal(db: sqlite3.Connection) -> None:
    """The papers whose index documents are behind the store, each with the revision of its latest change.
    Before this, the index kept the highest revision it had seen, which under concurrent writers or a crash
    between a commit and the index write claimed edits it never had; what was written before the journal
    existed is caught up once from the revisions (see `journal_since`)."""
    db.execute("CREATE TABLE IF NOT EXISTS index_journal(paper_id INTEGER PRIMARY KEY, rev INTEGER NOT NULL)")
    db.execute("INSERT OR IGNORE INTO meta(key, value) SELECT 'journal_since', value FROM meta WHERE key = 'rev'")


def _m0007_lookup_indexes(db: sqlite3.Connection) -> None:
    """A paper by its content (a restore, a duplicate across sources), and the papers a user touched (the
    automatic backup writes those): both were full scans of the papers' records."""
    db.execute("CREATE INDEX IF NOT EXISTS papers_content ON papers(content_hash)")
    db.execute("CREATE INDEX IF NOT EXISTS papers_annotated ON papers(annotated_at) WHERE annotated_at IS NOT NULL")


def _m0005_topics(db: sqlite3.Connection) -> None:
    """Topics (readinglist.topics): each topic, each paper's topic (indexed by topic, for the filter), and
    the map as three blobs (ids, places, topic ids): the window reads 94k places in one row, not 94k rows."""
    _script(
        db,
        """
        CREATE TABLE IF NOT EXISTS topics(
            id INTEGER PRIMARY KEY,
            phrases TEXT NOT NULL DEFAULT '[]',
            size INTEGER NOT NULL DEFAULT 0,
            x REAL NOT NULL DEFAULT 0,
            y REAL NOT NULL DEFAULT 0
        );
        CREATE TABLE IF NOT EXISTS paper_topics(
            paper_id INTEGER PRIMARY KEY REFERENCES papers(id) ON DELETE CASCADE,
            topic_id INTEGER NOT NULL REFERENCES topics(id) ON DELETE CASCADE
        );
        CREATE INDEX IF NOT EXISTS paper_topics_topic ON paper_topics(topic_id, paper_id);
        CREATE TABLE IF NOT EXISTS topic_map(
            id INTEGER PRIMARY KEY CHECK (id = 1),
            paper_ids BLOB NOT NULL,
            xy BLOB NOT NULL,
            topic_ids BLOB NOT NULL
        );
        """,
    )


def _m0015_author_names(db: sqlite3.Connection) -> None:
    """Author names imported with LaTeX accents (H\\"{u}y\\"{u}k, from BibTeX-derived JSON) decoded as the
    importers now do: only those papers change; the index journal has them, so author: finds Hüyük."""
    from readinglist.importers.base import author_name

    rows = db.execute("SELECT id, authors FROM papers WHERE instr(authors, '\\') > 0 OR instr(authors, '{') > 0")
    changed = []
    for pid, authors_json in rows.fetchall():
        names = json.loads(authors_json)
        new = [author_name(n) for n in names]
        if new != names:
            changed.append((json.dumps(new, ensure_ascii=False), pid))
    if changed:
        db.executemany("UPDATE papers SET authors = ? WHERE id = ?", changed)
        _new_revision_for(db, [pid for _, pid in changed])
        _set_columns(db, [pid for _, pid in changed])  # the Authors column and its sort key


def _m0016_derived_plain_abstract(db: sqlite3.Connection) -> None:
    """The plain text of an abstract is no longer stored beside it: it was a third of the database (92 MB
    of 331 at 94k papers) to spare deriving it, which costs ~0.05 ms a paper where it is read (the index,
    suggestions, topics, matching; see docs/performance-changes.md). The file is compacted after (VACUUM)."""
    if "plain_abstract" in _columns(db, "papers"):
        db.execute("ALTER TABLE papers DROP COLUMN plain_abstract")


_m0016_derived_plain_abstract.compacts = True  # type: ignore[attr-defined]


def _m0017_packed_abstracts(db: sqlite3.Connection) -> None:
    """Abstracts are kept deflated against a preset dictionary (packed_text): they were most of the
    database. Every abstract still stored as text is packed, a chunk of rows at a time; the text read back
    is the same, so nothing else changes (no revision, no index journal). Rows packing does not shrink stay
    text, as new ones do. The file is compacted after (VACUUM)."""
    last = 0
    while True:
        rows = db.execute(
            "SELECT id, abstract FROM papers WHERE id > ? AND typeof(abstract) = 'text' ORDER BY id LIMIT 2000",
            (last,),
        ).fetchall()
        if not rows:
            return
        packed = [(value, pid) for pid, text in rows if isinstance(value := pack(text), bytes)]
        db.executemany("UPDATE papers SET abstract = ? WHERE id = ?", packed)
        last = rows[-1][0]


_m0017_packed_abstracts.compacts = True  # type: ignore[attr-defined]


def _m0018_source_index(db: sqlite3.Connection) -> None:
    """A source's papers are looked up by its id alone (source_papers, source_titles, the duplicate rules);
    the index on them held each paper's content hash too (40 characters a paper, 3.9 of its 4.8 MB at 94k
    papers), which no query reads through it: papers_content finds papers by hash. Made again on the
    source id only, under the same name. A new library has it so from 0001 (dropping and making it again
    there cost 2 MB disks their room for the write-ahead log: test_a_full_disk_is_named)."""
    if [r[2] for r in db.execute("PRAGMA index_info(papers_source)")] != ["source_id"]:
        db.execute("DROP INDEX IF EXISTS papers_source")
        db.execute("CREATE INDEX papers_source ON papers(source_id)")


_m0018_source_index.compacts = True  # type: ignore[attr-defined]


def _take_rev(db: sqlite3.Connection) -> int:
    """The library's next revision, taken (a write's, or a migration's)."""
    row = db.execute("SELECT value FROM meta WHERE key = 'rev'").fetchone()
    rev = int(row[0]) + 1 if row else 1
    db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('rev', ?)", (str(rev),))
    return rev


def _new_revision_for(db: sqlite3.Connection, ids: Sequence[int]) -> None:
    """A migration changed these papers: a new revision is theirs, and the index journal has them (it exists
    from 0006 on), so the index takes what changed."""
    rev = _take_rev(db)
    for chunk in _chunks(list(ids), 900):
        db.execute(f"UPDATE papers SET rev = {rev} WHERE id IN ({','.join('?' * len(chunk))})", chunk)
    Store._journal(db, ids, rev)


def _m0019_note_words(db: sqlite3.Connection) -> None:
    """A note's words between Markdown's stars are indexed (analysis.note_text): the papers whose note has a
    star are indexed again, from the journal."""
    ids = [r[0] for r in db.execute("SELECT id FROM papers WHERE instr(note, '*') > 0")]
    if ids:
        _new_revision_for(db, ids)


def _m0011_titles_with_math(db: sqlite3.Connection) -> None:
    """A title's math as abstracts show it (ℓ₁-regression, was ℓ_1-regression; markup.title_plain): the
    plain title of each paper imported with math in its title is derived again. Only those rows change;
    their revision moves on and the index journal has them, so the index takes the new titles."""
    _titles_derived_again(db, "instr(title, '$') > 0 OR instr(title, '\\(') > 0")


def _m0020_titles_with_latex(db: sqlite3.Connection) -> None:
    """Titles with LaTeX commands, as markup reads them now (session 25): TeX's logos ("The {\\TeX book}" was
    "The book"), operators apart from the letter before them ("n log n", was "nlog n"), \\operatorname*. Those
    that change are derived again, with their sort key in the table and the key an import matches them by."""
    _titles_and_keys_derived_again(db, "instr(title, '\\') > 0")


def _m0021_titles_with_scripts(db: sqlite3.Connection) -> None:
    """Titles with math as markup writes it now (session 26): a script of several tokens keeps its group
    ("𝒪(ϵ^(-4/7))", was "𝒪(ϵ^-4/7)"), \\{ \\} are braces, \\frac's parts are bracketed. Those that change are
    derived again, with their sort key in the table and the key an import matches them by."""
    _titles_and_keys_derived_again(db, "instr(title, '$') > 0 OR instr(title, '\\(') > 0")


def _m0022_title_keys_with_pluses(db: sqlite3.Connection) -> None:
    """The import's match key of a title keeps the pluses that end a word (session 27: "PointNet++" was
    "PointNet"): written again for the titles with a plus, so that a file imported again still finds them."""
    _set_keys(db, [r[0] for r in db.execute("SELECT id FROM papers WHERE instr(title, '+') > 0")])


def _m0023_own_titles_without_numbers(db: sqlite3.Connection) -> None:
    """A title the file gave had " (2)" added when the source held it twice (a reprint, an edition), as a
    derived title does (session 27): those titles are read again from the file's, without the number."""
    _titles_and_keys_derived_again(db, "title != '' AND auto_title GLOB '* ([0-9]*)'")


def _m0030_tilde_as_written(db: sqlite3.Connection) -> None:
    """A "~" after a space or a bracket is the sign the authors wrote ("~100 classes", "(~3x)"), not a tie
    (session 32): the imported titles holding one are read again."""
    _titles_and_keys_derived_again(db, "title != '' AND instr(title, '~') > 0")


def _m0031_math_accents_and_names(db: sqlite3.Connection) -> None:
    """A formula as markup writes it now: its accents kept (\\widetilde{O} was O, \\overline{x} x), an
    author's own command by its name (\\poly(d) was (d)), LaTeX's that pylatexenc lacks (q\\texttt{POTS}
    was q, \\land), and in an abstract's plain text a script's group (T^(11/16), was T^11/16). The imported
    titles with a formula or a command are read again, with their keys. Each abstract with one has its match
    key written again where it changes, and a new revision, so that the index takes its words again (its
    plain text is derived, not stored: what it was is not known here)."""
    _titles_and_keys_derived_again(db, "title != '' AND (instr(title, '\\') > 0 OR instr(title, '$') > 0)")
    _abstracts_read_again(db, lambda text: "\\" in text or "$" in text)


def _abstracts_read_again(db: sqlite3.Connection, holds: Callable[[str], bool]) -> None:
    """Each abstract `holds` says markup now reads otherwise has its match key written again where it changes,
    and a new revision, so that the index takes its words again (its plain text is derived, not stored)."""
    from readinglist.importers.duplicates import text_key

    read_again, keys = [], []
    rows = db.execute("SELECT p.id, p.abstract, k.text_key FROM papers p LEFT JOIN paper_keys k ON k.paper_id = p.id")
    for pid, abstract, key in rows:
        text = unpack(abstract)
        if not holds(text):
            continue
        read_again.append(pid)
        if key is not None and (new := text_key(_to_plain(text))) != key:
            keys.append((new, pid))
    db.executemany("UPDATE paper_keys SET text_key = ? WHERE paper_id = ?", keys)
    if read_again:
        _new_revision_for(db, read_again)


def _titles_and_keys_derived_again(db: sqlite3.Connection, where: str) -> None:
    """`_titles_derived_again`, with the table's sort keys and the import's match keys of the titles changed."""
    ids = _titles_derived_again(db, where)
    _set_columns(db, ids)
    _set_keys(db, ids)


def _titles_derived_again(db: sqlite3.Connection, where: str) -> list[int]:
    """The plain title of the papers `where` selects, from their imported title as markup reads it now;
    returns the papers whose title changed (a new revision, and the index journal, has them)."""
    from readinglist.markup import title_plain

    rows = db.execute(f"SELECT id, title, auto_title FROM papers WHERE {where}").fetchall()
    changed = [(new, pid) for pid, raw, old in rows if (new := title_plain(raw)) and new != old]
    if changed:
        db.executemany("UPDATE papers SET auto_title = ? WHERE id = ?", changed)
        _new_revision_for(db, [pid for _, pid in changed])
    return [pid for _, pid in changed]


def _rebuilds_tables(fn: Callable[[sqlite3.Connection], None]) -> Callable[[sqlite3.Connection], None]:
    """Marks a migration that drops and re-creates a table: `Store.migrate` runs it with foreign keys off
    (dropping papers would otherwise cascade to every tag of every paper) and checks them before it commits."""
    fn.rebuilds_tables = True  # type: ignore[attr-defined]
    return fn


# the states as migration 0009 knows them, spelled here and not taken from papers.STATES: a migration must
# mean tomorrow what it meant when it was written (a later state gets a migration of its own)
_TRIAGE_STATES_SQL = "('unread', 'queued', 'skimmed', 'read', 'skipped')"
_STATE_CHECK = re.compile(r"CHECK\s*\(\s*\"?state\"?\s+IN\s*\([^()]*\)\s*\)", re.IGNORECASE)
_CREATE_PAPERS = re.compile(r"^\s*CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?[\"`\[]?papers[\"`\]]?", re.IGNORECASE)


@_rebuilds_tables
def _m0009_triage_states(db: sqlite3.Connection) -> None:
    """Two more states, queued ("read this") and skipped ("not for me"), and a priority 1–3.

    SQLite cannot alter the CHECK on papers.state, so the table is rebuilt the way SQLite's documentation
    describes (lang_altertable.html, "other kinds of table schema changes"): the new table is made from the
    old one's own CREATE statement with only the CHECK changed — so columns another migration added stay —
    every row is copied with its id, the old table dropped, the new one renamed, and every index and trigger
    on it made again from its stored SQL. The table-rows index also covers the priority, so a painted row
    still reads no paper's record. All in the migration's transaction: a failure leaves the old table."""
    sql = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'papers'").fetchone()[0]
    if "'queued'" not in sql:
        new_sql, found = _STATE_CHECK.subn(f"CHECK (state IN {_TRIAGE_STATES_SQL})", sql)
        new_sql, named = _CREATE_PAPERS.subn("CREATE TABLE papers_rebuilt", new_sql, count=1)
        if found != 1 or named != 1:
            raise sqlite3.DatabaseError("the papers table is not as migration 0009 expects (its state CHECK)")
        dependents = [
            (row[0], row[1])
            for row in db.execute(
                "SELECT name, sql FROM sqlite_master WHERE tbl_name = 'papers' AND type IN ('index', 'trigger')"
                " AND sql IS NOT NULL"  # the UNIQUE constraint's own index has none: the new table makes it
            )
        ]
        columns = ", ".join(f'"{row[1]}"' for row in db.execute("PRAGMA table_info(papers)"))
        db.execute(new_sql)
        db.execute(f"INSERT INTO papers_rebuilt({columns}) SELECT {columns} FROM papers")
        db.execute("DROP TABLE papers")
        db.execute("ALTER TABLE papers_rebuilt RENAME TO papers")
        if "priority" not in _columns(db, "papers"):
            db.execute("ALTER TABLE papers ADD COLUMN priority INTEGER CHECK (priority BETWEEN 1 AND 3)")
        for name, statement in dependents:
            if name == "papers_row" and "priority" not in statement:
                statement = re.sub(r"\)\s*$", ", priority)", statement)
            db.execute(statement)
    elif "priority" not in _columns(db, "papers"):
        db.execute("ALTER TABLE papers ADD COLUMN priority INTEGER CHECK (priority BETWEEN 1 AND 3)")


def _m0010_smart_lists(db: sqlite3.Connection) -> None:
    """Saved views (a query, a state, a tag) the sidebar lists with live counts, in the user's order."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS smart_lists(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE,"
        " query TEXT NOT NULL DEFAULT '', state TEXT, tag TEXT, position INTEGER NOT NULL DEFAULT 0,"
        " created_at TEXT NOT NULL)"
    )


def _m0008_removed_papers(db: sqlite3.Connection) -> None:
    """Papers the user removed: out of the papers table, so that no list, count, search, export or related
    papers can show them whatever a query asks, and kept whole here (the record as JSON, whatever columns it
    has, and its tags) so that undo or a re-import of the same record brings each back with its annotations."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS removed_papers(id INTEGER PRIMARY KEY, uid TEXT NOT NULL, source_id INTEGER,"
        " content_hash TEXT NOT NULL, removed_at TEXT NOT NULL, paper TEXT NOT NULL, tags TEXT NOT NULL DEFAULT '[]')"
    )
    db.execute("CREATE INDEX IF NOT EXISTS removed_papers_source ON removed_papers(source_id)")
    db.execute("CREATE INDEX IF NOT EXISTS removed_papers_uid ON removed_papers(uid)")


def _m0012_paper_columns(db: sqlite3.Connection) -> None:
    """What the paper table shows and sorts by beyond the papers' own columns: the collation keys of the title
    and the authors (collation.py), the short author list and the date added. In a table of their own: in a
    paper's record they would sit behind the abstracts, and a sort key computed per row in Python at sort time
    took seconds in a large library (docs/performance-changes.md)."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS paper_columns(paper_id INTEGER PRIMARY KEY REFERENCES papers(id) ON DELETE"
        " CASCADE, title_key TEXT NOT NULL, authors_key TEXT NOT NULL, authors TEXT NOT NULL, added TEXT NOT NULL)"
    )
    db.execute("CREATE INDEX IF NOT EXISTS paper_columns_title ON paper_columns(title_key)")
    db.execute("CREATE INDEX IF NOT EXISTS paper_columns_authors ON paper_columns(authors_key)")
    missing = db.execute(
        "SELECT id FROM papers p WHERE NOT EXISTS (SELECT 1 FROM paper_columns c WHERE c.paper_id = p.id)"
    ).fetchall()
    _set_columns(db, [r[0] for r in missing])


def _set_columns(db: sqlite3.Connection, ids: Sequence[int]) -> None:
    """Write the paper_columns of these papers from their records as they are now (the short author list
    says "et al." of a list the file cut short: the record's moreauthors, where there is a record)."""
    bib = "bib" if ids and "bib" in _columns(db, "papers") else "NULL"  # a library older than 0025 has none
    for chunk in _chunks(list(ids), 900):
        marks = ",".join("?" * len(chunk))
        rows = db.execute(
            f"SELECT id, COALESCE(NULLIF(user_title, ''), auto_title), authors, added_at, {bib} FROM papers"
            f" WHERE id IN ({marks})",
            chunk,
        ).fetchall()
        values = []
        for pid, title, authors_json, added, record in rows:
            authors = json.loads(authors_json)
            short = authors_short(authors, _more_authors(record))
            values.append((pid, title_key(title), authors_key(authors), short, added))
        db.executemany(
            "INSERT OR REPLACE INTO paper_columns(paper_id, title_key, authors_key, authors, added)"
            " VALUES (?, ?, ?, ?, ?)",
            values,
        )


def _more_authors(record: str | None) -> bool:
    """Whether a stored record says its paper's author list was cut short ("and others": moreauthors)."""
    return record is not None and "moreauthors" in record and bool(biblio.loads(record).get("moreauthors"))


def _m0013_interests(db: sqlite3.Connection) -> None:
    """The user's "my interests": the texts that seed the interest ranking before any mark (a paragraph, or
    the title and abstract of each of their own papers), one row each, with where they came from. A table
    of their own, not the meta table: they are the user's data (backed up, restored, shown and edited), several
    texts at once, and meta holds the library's bookkeeping (revisions, the journal, the topics' run). With
    them, an index of the prioritised papers."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS interests(id INTEGER PRIMARY KEY, text TEXT NOT NULL,"
        " source TEXT NOT NULL DEFAULT '', set_at TEXT NOT NULL)"
    )
    # the marks are read after every mark (Store.interest_marks): the prioritised papers by an index
    db.execute("CREATE INDEX IF NOT EXISTS papers_priority ON papers(priority) WHERE priority IS NOT NULL")


def _m0014_duplicates(db: sqlite3.Connection) -> None:
    """Duplicates (issue 16.3): each paper's match keys (its title and the start of its abstract, normalised
    by importers.duplicates), indexed so that an import finds a record's candidates in SQL; the further
    sources of a paper that several files describe (the paper keeps its own source_id; a re-import of any of
    them matches it); the pairs found possibly the same, or that the user keeps apart; and, on a removed
    paper, the paper it was merged into (such a paper is not offered back by a re-import or the Removed list)."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS paper_keys(paper_id INTEGER PRIMARY KEY REFERENCES papers(id) ON DELETE"
        " CASCADE, title_key TEXT NOT NULL DEFAULT '', text_key TEXT NOT NULL DEFAULT '')"
    )
    db.execute("CREATE INDEX IF NOT EXISTS paper_keys_title ON paper_keys(title_key) WHERE title_key != ''")
    db.execute("CREATE INDEX IF NOT EXISTS paper_keys_text ON paper_keys(text_key) WHERE text_key != ''")
    db.execute(
        "CREATE TABLE IF NOT EXISTS paper_sources(paper_id INTEGER NOT NULL, source_id INTEGER NOT NULL,"
        " content_hash TEXT NOT NULL, title TEXT NOT NULL DEFAULT '', source_key TEXT NOT NULL DEFAULT '',"
        " added_at TEXT NOT NULL, PRIMARY KEY (paper_id, source_id, content_hash))"
    )
    db.execute("CREATE INDEX IF NOT EXISTS paper_sources_source ON paper_sources(source_id)")
    db.execute(
        "CREATE TABLE IF NOT EXISTS duplicate_pairs(a INTEGER NOT NULL, b INTEGER NOT NULL, status TEXT NOT NULL"
        " CHECK (status IN ('possible', 'apart')), why TEXT NOT NULL DEFAULT '', found_at TEXT NOT NULL,"
        " PRIMARY KEY (a, b), CHECK (a < b))"
    )
    if "merged_into" not in _columns(db, "removed_papers"):
        db.execute("ALTER TABLE removed_papers ADD COLUMN merged_into INTEGER")
    missing = db.execute(
        "SELECT id FROM papers p WHERE NOT EXISTS (SELECT 1 FROM paper_keys k WHERE k.paper_id = p.id)"
    ).fetchall()
    _set_keys(db, [r[0] for r in missing])


def _set_keys(db: sqlite3.Connection, ids: Sequence[int]) -> None:
    """Write the match keys of these papers from their imported title and abstract."""
    from readinglist.importers.duplicates import text_key, title_key_of_raw

    for chunk in _chunks(list(ids), 900):
        rows = db.execute(
            f"SELECT id, title, abstract FROM papers WHERE id IN ({','.join('?' * len(chunk))})", chunk
        ).fetchall()
        db.executemany(
            "INSERT OR REPLACE INTO paper_keys(paper_id, title_key, text_key) VALUES (?, ?, ?)",
            [(pid, title_key_of_raw(title), text_key(_plain_abstract(abstract))) for pid, title, abstract in rows],
        )


def _m0024_keyword_tags(db: sqlite3.Connection) -> None:
    """Which tags are keywords that imported files gave (BibTeX keywords, RIS KW, a keywords column) and not
    the user's, as Zotero's automatic tags: the sidebar keeps them apart (a Mendeley file gave 762 for 512
    papers). A tag, not each paper's: a name the user gives any paper is their tag on every paper that has it.
    The tags before this migration are the user's. A new library has the column from 0001 (an ALTER there
    grew the write-ahead log: test_a_full_disk_is_named)."""
    if "imported" not in _columns(db, "tags"):
        db.execute("ALTER TABLE tags ADD COLUMN imported INTEGER NOT NULL DEFAULT 0")


def _m0025_bibliographic_records(db: sqlite3.Connection) -> None:
    """Each paper's bibliographic record as its file gave it (readinglist.biblio: entry type, DOI, journal or
    book title, volume, issue, pages, publisher …), as JSON, NULL where there is none: an export writes it back
    (an @article came back an @inproceedings with no volume, pages or DOI). Papers imported before have none
    until their file is imported again. Indexed by DOI, the strongest sign of a duplicate, only where a record
    is: a library without records pays nothing. A new library has the column from 0001 (an ALTER there grew
    the write-ahead log: test_a_full_disk_is_named)."""
    if "bib" not in _columns(db, "papers"):
        db.execute("ALTER TABLE papers ADD COLUMN bib TEXT")
    db.execute(f"CREATE INDEX IF NOT EXISTS papers_doi ON papers({_DOI_SQL.format(p='')}) WHERE bib IS NOT NULL")


def _m0026_source_records(db: sqlite3.Connection) -> None:
    """The record a paper's own file last gave (JSON, '' for none), kept while the paper's record is another:
    a merge's fuller one, the user's, one a merged record filled in. A re-import replaces the paper's record
    only when its file's has changed since (an unchanged file put a bare @misc back over the merged @article
    and its DOI). NULL while the paper's record is its file's, as every paper's is before this migration.
    A new library has the column from 0001 (see 0025)."""
    if "source_bib" not in _columns(db, "papers"):
        db.execute("ALTER TABLE papers ADD COLUMN source_bib TEXT")


def _m0027_record_ties_and_url_escapes(db: sqlite3.Connection) -> None:
    """Records and links as a BibTeX import reads them now (session 31): a record's text fields without LaTeX's
    ties ("Nucl.~Phys.", which citations, the Markdown line and CSV showed; decoded only with a backslash, a
    brace or a dollar), a URL without the escapes a file put in it (JabRef's …/abs07.html\\#talk9, linked as
    …%5C#talk9). A re-import of the file does not give them: its papers' text is unchanged, and a record kept
    aside (source_bib) would differ from the file's. Removed papers too, which an undo brings back."""
    rows = db.execute(
        "SELECT id, url, links, bib, source_bib FROM papers WHERE instr(url, '\\') > 0 OR instr(links, '\\') > 0"
        " OR instr(bib, '~') > 0 OR instr(source_bib, '~') > 0"
    )
    changed = []
    for pid, url, links, bib, source_bib in rows.fetchall():
        new = _without_ties_and_escapes({"url": url, "links": links, "bib": bib, "source_bib": source_bib})
        if new is not None:
            db.execute(
                "UPDATE papers SET url = ?, links = ?, bib = ?, source_bib = ? WHERE id = ?",
                (new["url"], new["links"], new["bib"], new["source_bib"], pid),
            )
            changed.append(pid)
    if changed:
        _new_revision_for(db, changed)
    if "removed_papers" in {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}:
        removed = db.execute(
            "SELECT id, paper FROM removed_papers WHERE instr(paper, '\\') > 0 OR instr(paper, '~') > 0"
        )
        for rid, paper_json in removed.fetchall():
            record = _json_or_none(paper_json)
            new = _without_ties_and_escapes(record) if isinstance(record, dict) else None
            if isinstance(record, dict) and new is not None:
                db.execute(
                    "UPDATE removed_papers SET paper = ? WHERE id = ?",
                    (json.dumps(record | new, ensure_ascii=False), rid),
                )


def _json_or_none(text: str) -> object:
    """Stored JSON, or None where it is damaged: a migration leaves what it cannot read as it is."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _without_ties_and_escapes(row: Mapping[str, object]) -> dict[str, object] | None:
    """A stored paper's url, links, bib and source_bib (as the papers table holds them) as 0027 leaves them, or
    None when they are so already."""
    out = dict(row)
    if isinstance(url := row.get("url"), str):
        out["url"] = biblio.url_unescaped(url)
    if isinstance(links := row.get("links"), str) and "\\" in links:
        listed = _json_or_none(links)
        if isinstance(listed, list):
            out["links"] = json.dumps([biblio.url_unescaped(u) if isinstance(u, str) else u for u in listed])
    for name in ("bib", "source_bib"):  # (source_bib '' is a file's record of none)
        if isinstance(text := row.get(name), str) and "~" in text:
            fields = biblio.loads(text)
            untied = {k: biblio.untied(v) if k in biblio.TEXT_FIELDS else v for k, v in fields.items()}
            if untied != fields:
                out[name] = biblio.dumps(untied)
    return {k: out[k] for k in ("url", "links", "bib", "source_bib") if k in out} if out != dict(row) else None


def _m0028_links_with_latex_escapes(db: sqlite3.Connection) -> None:
    """A link in a LaTeX abstract (a BibTeX file's, the app's own export's) is read through its escapes now
    (markup.url_text: `faster\\_rcnn`, `\\~{}jojic`); it was cut at the backslash and the cut link stored
    (github.com/ShaoqingRen/faster). Each stored link the abstract's links now carry on is replaced by the
    whole one (after it, where the cut one is the file's url or a link the abstract also has whole, which
    stay); every other link stays as it is, and a damaged links value too."""
    from readinglist.markup import extract_links

    changed = []
    rows = db.execute("SELECT id, abstract, links, url FROM papers WHERE links != '[]'").fetchall()
    for pid, abstract, links_json, url in rows:
        text = unpack(abstract)
        if "\\" not in text and "{" not in text:
            continue
        links = _json_or_none(links_json)
        if not isinstance(links, list):
            continue
        now = extract_links(text)
        found = [u for u in now if u not in links]
        whole = []
        for old in links:
            longer = next((u for u in found if u.startswith(old)), None)
            kept = old == url or old in now  # the file's url, or a link the abstract has whole too, stays
            whole += [old, longer] if kept and longer else [longer or old]
        if whole != links:
            changed.append((json.dumps(list(dict.fromkeys(whole))), pid))
    if changed:
        db.executemany("UPDATE papers SET links = ? WHERE id = ?", changed)
        _new_revision_for(db, [pid for _, pid in changed])


def _m0029_keys_with_plain_letters(db: sqlite3.Connection) -> None:
    """The table's sort keys and the import's match keys read ø, ł, æ and the other letters NFKD leaves whole
    as a reader types them (collation.PLAIN_LETTERS): written again where they change, so that the table sorts
    Høgsgaard among the H's and a file spelling "Lukasz" finds the paper another file gave as "Łukasz". Only
    text that can hold such a letter is keyed again; the keys are not indexed, so no new revision."""
    from readinglist.importers.duplicates import text_key, title_key_of_raw

    sort_keys, match_keys = [], []
    rows = db.execute(
        "SELECT p.id, COALESCE(NULLIF(p.user_title, ''), p.auto_title), p.authors, p.title, p.abstract,"
        " c.title_key, c.authors_key, k.title_key, k.text_key FROM papers p"
        " LEFT JOIN paper_columns c ON c.paper_id = p.id LEFT JOIN paper_keys k ON k.paper_id = p.id"
    )
    for pid, shown, authors_json, raw, abstract, sort_title, sort_authors, match_title, match_text in rows:
        if sort_title is not None and (_may_spell_plain_letters(shown) or _may_spell_plain_letters(authors_json)):
            authors = _json_or_none(authors_json)  # a damaged list keeps its key, as 0027 leaves it
            new = (title_key(shown), authors_key(authors) if isinstance(authors, list) else sort_authors)
            if new != (sort_title, sort_authors):
                sort_keys.append((*new, pid))
        if match_title is not None:
            text = unpack(abstract)
            if _may_spell_plain_letters(raw) or _may_spell_plain_letters(text):
                new = (title_key_of_raw(raw), text_key(_to_plain(text)))
                if new != (match_title, match_text):
                    match_keys.append((*new, pid))
    db.executemany("UPDATE paper_columns SET title_key = ?, authors_key = ? WHERE paper_id = ?", sort_keys)
    db.executemany("UPDATE paper_keys SET title_key = ?, text_key = ? WHERE paper_id = ?", match_keys)


_PLAIN_LETTERS = frozenset(map(chr, PLAIN_LETTERS))


def _may_spell_plain_letters(text: str) -> bool:
    """Whether a stored text can give a key one of PLAIN_LETTERS: it has one (or a letter NFKD takes apart into
    one and a mark, ǿ), or markup or an escape that may spell one (LaTeX's \\o, HTML's &oslash;, JSON's \\u00f8)."""
    if "\\" in text or "&" in text:
        return True
    return not text.isascii() and not _PLAIN_LETTERS.isdisjoint(unicodedata.normalize("NFKD", text))


def _m0032_keywords_with_latex(db: sqlite3.Connection) -> None:
    """A CSV, TSV, JSON or RIS file's keywords are read as its titles are (importers.base.plain_keywords, as
    BibTeX's were): the keywords stored raw before ("$\\ell_1$ norm", "$Q$-Learning", which the sidebar listed
    first for their "$") take the name they read as ("ℓ₁ norm"). A name is one tag (tag_key): onto a tag the
    library has by that name, a keyword is merged into it, which stays what it was (the user's, or a keyword).
    Only keywords holding "$" or "\\" (a BibTeX keyword was read at import; the user's tags are as typed). The
    lists on one follow it, as after a rename, and so do removed papers' keywords (an undo brings them back
    read); their papers are indexed again (tag:)."""
    from readinglist.importers.base import plain_keywords

    if "imported" not in _columns(db, "tags"):
        return

    def read(name: str) -> str:
        return (plain_keywords([name]) or [name])[0]

    renamed: dict[str, str] = {}
    papers: set[int] = set()
    rows = db.execute(
        "SELECT id, name FROM tags WHERE imported = 1 AND (instr(name, '$') > 0 OR instr(name, '\\') > 0)"
    ).fetchall()
    for tid, name in rows:
        if (new := read(name)) == name:
            continue
        renamed[name] = new
        papers.update(r[0] for r in db.execute("SELECT paper_id FROM paper_tags WHERE tag_id = ?", (tid,)))
        same = db.execute("SELECT id FROM tags WHERE name = ? AND id != ?", (new, tid)).fetchone()
        if same is None:
            db.execute("UPDATE tags SET name = ? WHERE id = ?", (new, tid))
        else:  # "$Q$-learning" beside "Q-learning": one tag
            db.execute("INSERT OR IGNORE INTO paper_tags(paper_id, tag_id) SELECT paper_id, ? FROM paper_tags"
                       " WHERE tag_id = ?", (same[0], tid))  # fmt: skip
            db.execute("DELETE FROM paper_tags WHERE tag_id = ?", (tid,))
            db.execute("DELETE FROM tags WHERE id = ?", (tid,))
    removed = db.execute(
        "SELECT id, paper, tags FROM removed_papers WHERE instr(tags, '$') > 0 OR instr(tags, '\\') > 0"
    ).fetchall()
    for rid, paper_json, tags_json in removed:
        whole, tags = json.loads(paper_json), json.loads(tags_json)
        keywords = set(whole.get(REMOVED_KEYWORDS) or ())
        now: dict[str, str] = {}  # tag_key → name, the first of a name kept (a keyword read as a tag it has)
        for t in tags:
            new = read(t) if tag_key(t) in keywords else t
            if new != t:
                renamed[t] = new
            now.setdefault(tag_key(new), new)
        if list(now.values()) == tags:
            continue
        mine = {tag_key(t) for t in tags if tag_key(t) not in keywords}
        whole[REMOVED_KEYWORDS] = sorted(now.keys() - mine)
        db.execute("UPDATE removed_papers SET paper = ?, tags = ? WHERE id = ?",
                   (json.dumps(whole, ensure_ascii=False), json.dumps(list(now.values())), rid))  # fmt: skip
    db.executemany("UPDATE smart_lists SET tag = ? WHERE tag = ? COLLATE NOCASE", [(n, o) for o, n in renamed.items()])
    if papers:
        _new_revision_for(db, sorted(papers))


# what markup and the index read otherwise since 0032 (session 34): a hyphen command, a formula's font switch or
# sans-serif, and a formula's letters (𝒳, ℝ, 𝖠), which the index now folds to lower case
_M0033_LETTERS = re.compile("[\u2100-\u214f\U0001d400-\U0001d7ff]")  # Letterlike, Mathematical Alphanumeric
_M0033_READ_AGAIN = re.compile(
    r"\\(?:hyphen|nbhyphen|hyphenate|hyp|nobreakdash|textendash|textemdash|cal|rm|bf|it|sf|tt|frak|mathsf|textsf"
    r"|mathcal|mathbb|mathfrak|mathscr|mathtt|mathit)(?![a-zA-Z])|\\-|" + _M0033_LETTERS.pattern
)


def _m0033_hyphens_and_formula_fonts(db: sqlite3.Connection) -> None:
    """biblatex's \\hyphen and hyphenat's \\hyp are hyphens ("Self\\hyphen{}Supervised" was shown as written),
    a formula's font switch is read ({\\cal X} is 𝒳, was X), \\mathsf's letters are sans-serif (𝖠𝗍𝗍𝗇), and the
    index folds a formula's letters to lower case (it held 𝒳 as "X", which "x" missed). The imported titles
    with a command are read again, with their keys (0031's way); an author's name holding a command is read
    again (0015's way: a name is stored read, and one whose command ran into the next word, "\\hyphenPierre",
    stays); each paper whose title or abstract holds one of these has its abstract's match key written again
    where it changes, and a new revision, so that the index takes its words again, as has each whose note or
    a tag holds a formula's letter."""
    from readinglist.importers.base import author_name
    from readinglist.importers.duplicates import text_key

    retitled = set(_titles_derived_again(db, "title != '' AND instr(title, '\\') > 0"))
    read_again, keys, names = [], [], []
    rows = db.execute(
        "SELECT p.id, p.title, p.user_title, p.abstract, p.authors, k.text_key FROM papers p"
        " LEFT JOIN paper_keys k ON k.paper_id = p.id"
    )
    for pid, title, user_title, abstract, authors_json, key in rows:
        if "\\" in authors_json:
            old = json.loads(authors_json)
            if (new := [author_name(n) for n in old]) != old:
                names.append((json.dumps(new, ensure_ascii=False), pid))
        text = unpack(abstract)
        if not any(_M0033_READ_AGAIN.search(t) for t in (text, title, user_title or "")):
            continue
        read_again.append(pid)
        if key is not None and (new_key := text_key(_to_plain(text))) != key:
            keys.append((new_key, pid))
    for pid, note in db.execute("SELECT id, note FROM papers WHERE note != ''").fetchall():  # note: and tag: fold
        if _M0033_LETTERS.search(note):
            read_again.append(pid)
    for tid, name in db.execute("SELECT id, name FROM tags").fetchall():
        if _M0033_LETTERS.search(name):
            read_again += [r[0] for r in db.execute("SELECT paper_id FROM paper_tags WHERE tag_id = ?", (tid,))]
    db.executemany("UPDATE papers SET authors = ? WHERE id = ?", names)
    db.executemany("UPDATE paper_keys SET text_key = ? WHERE paper_id = ?", keys)
    renamed = [pid for _, pid in names]
    _set_columns(db, sorted(retitled.union(renamed)))
    _set_keys(db, sorted(retitled))
    if again := sorted(set(read_again).union(renamed) - retitled):
        _new_revision_for(db, again)


def _m0034_authors_cut_short(db: sqlite3.Connection) -> None:
    """The Authors column of a paper whose file's author list ended "and others" (its record's moreauthors)
    says so, "Vaswani et al.", where it showed the count of the names listed as the authors' ("Vaswani,
    Shazeer, … (10)"). Written again for those papers only; the column is not indexed, so no new revision.
    Idempotent: a second run writes the same values."""
    if "bib" not in _columns(db, "papers") or "paper_columns" not in {
        r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }:
        return
    rows = db.execute("SELECT id FROM papers WHERE instr(bib, 'moreauthors') > 0").fetchall()
    _set_columns(db, [r[0] for r in rows])


def _m0035_backslash_hyphen_as_written(db: sqlite3.Connection) -> None:
    """A "\\-" outside a word is the text's own backslash and hyphen ("grep \\-v", "[a-z\\-]"), shown as
    written; only inside a word is it LaTeX's break point, which shows nothing (0033 dropped it everywhere). The
    imported titles holding one are read again, with their keys; each abstract holding one has its match key
    written again where it changes, and a new revision, so that the index takes its words again. (An author's
    name is stored read: one that lost its backslash stays so.)"""
    _titles_and_keys_derived_again(db, "title != '' AND instr(title, '\\-') > 0")
    _abstracts_read_again(db, lambda text: "\\-" in text)


MIGRATIONS: list[tuple[str, Callable[[sqlite3.Connection], None]]] = [
    ("0001_initial", _m0001_initial),
    ("0002_annotated_at", _m0002_annotated_at),
    ("0003_table_rows_index", _m0003_table_rows_index),
    ("0004_citation_keys", _m0004_citation_keys),
    ("0005_topics", _m0005_topics),
    ("0006_index_journal", _m0006_index_journal),
    ("0007_lookup_indexes", _m0007_lookup_indexes),
    ("0008_removed_papers", _m0008_removed_papers),
    ("0009_triage_states", _m0009_triage_states),
    ("0010_smart_lists", _m0010_smart_lists),
    ("0011_titles_with_math", _m0011_titles_with_math),
    ("0012_paper_columns", _m0012_paper_columns),
    ("0013_interests", _m0013_interests),
    ("0014_duplicates", _m0014_duplicates),
    ("0015_author_names", _m0015_author_names),
    ("0016_derived_plain_abstract", _m0016_derived_plain_abstract),
    ("0017_packed_abstracts", _m0017_packed_abstracts),
    ("0018_source_index", _m0018_source_index),
    ("0019_note_words", _m0019_note_words),
    ("0020_titles_with_latex", _m0020_titles_with_latex),
    ("0021_titles_with_scripts", _m0021_titles_with_scripts),
    ("0022_title_keys_with_pluses", _m0022_title_keys_with_pluses),
    ("0023_own_titles_without_numbers", _m0023_own_titles_without_numbers),
    ("0024_keyword_tags", _m0024_keyword_tags),
    ("0025_bibliographic_records", _m0025_bibliographic_records),
    ("0026_source_records", _m0026_source_records),
    ("0027_record_ties_and_url_escapes", _m0027_record_ties_and_url_escapes),
    ("0028_links_with_latex_escapes", _m0028_links_with_latex_escapes),
    ("0029_keys_with_plain_letters", _m0029_keys_with_plain_letters),
    ("0030_tilde_as_written", _m0030_tilde_as_written),
    ("0031_math_accents_and_names", _m0031_math_accents_and_names),
    ("0032_keywords_with_latex", _m0032_keywords_with_latex),
    ("0033_hyphens_and_formula_fonts", _m0033_hyphens_and_formula_fonts),
    ("0034_authors_cut_short", _m0034_authors_cut_short),
    ("0035_backslash_hyphen_as_written", _m0035_backslash_hyphen_as_written),
]


def _disk_full(path: Path) -> bool:
    try:
        st = os.statvfs(path.parent)
    except (OSError, AttributeError):
        return False
    return st.f_bavail * st.f_frsize < 1024 * 1024


def unwritable(path: Path) -> str | None:
    """Why the library at `path` (a database file, or the folder it will be created in) cannot be written,
    in words; None if it can."""
    folder = path if path.is_dir() else path.parent
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return "it is on a read-only file system"
    except (OSError, AttributeError):  # no statvfs (Windows): the access checks below still tell
        pass
    if path.is_file() and not os.access(path, os.W_OK):
        return "the database file is read-only"
    if folder.exists() and not os.access(folder, os.W_OK):
        return "its folder cannot be written (permission denied)"
    return None


class ThreadSlots:
    """Per-thread state (a thread's connection, its transaction depth, the counts kept beside it) keyed by the
    OS thread, not by Python's thread state: Qt's pool threads run each task under a new thread state (PySide
    takes the interpreter lock with PyGILState_Ensure and its release deletes the state), so a threading.local
    lost its connection after every task and each search opened another, never closed: two file descriptors
    and a page cache per keystroke until the process ran out of either. A pool thread's connection now
    outlives its task: a cursor left unfinished across tasks (a suspended generator over a query) would hold
    that thread to an old snapshot of the database, so read a query whole within the task that runs it."""

    def __init__(self) -> None:
        self._slots: dict[int, SimpleNamespace] = {}
        self._lock = threading.Lock()

    def current(self) -> SimpleNamespace:
        ident = threading.get_ident()
        slot = self._slots.get(ident)
        if slot is None:
            with self._lock:
                slot = self._slots.setdefault(ident, SimpleNamespace())
        return slot

    def connections(self) -> list[sqlite3.Connection]:
        """Every thread's connection."""
        with self._lock:
            slots = list(self._slots.values())
        return [conn for slot in slots if (conn := getattr(slot, "conn", None)) is not None]


WRITE_WAIT = 30.0  # seconds a write waits for another writer, unless its thread says otherwise (set_write_wait)
WAIT_NOTICE = 1.0  # seconds a write waits before Store.on_wait says it is waiting (the command line prints so)
BUSY_SLICE = 1.0  # seconds SQLite is asked to wait at a time


@dataclass
class TagsGiven:
    """The user's own tags an import's keywords gave papers (a file's keyword "RL" where the user has a tag
    RL: the paper gets the user's tag), counted for its summary: tag name → papers."""

    papers: Counter[str] = field(default_factory=Counter)
    names: dict[int, str | None] = field(default_factory=dict)  # tag id → its name if the user's (a cache)
    # the tags the file gives as tags (a .bib's mendeley-tags, the app's own export's tags column) that it
    # added to papers, new or merged — not those a paper had: tag name → papers (they were added unsaid: a trial)
    file_tags: Counter[str] = field(default_factory=Counter)


class Store:
    def __init__(self, path: Path, read_only: bool = False, reason: str | None = None):
        self.path = Path(path)
        why = None if read_only or not self.path.exists() else unwritable(self.path)
        self.read_only = read_only or why is not None
        # what a refused write says: another window has the library, or its disk is read-only
        self.read_only_reason = reason or (f"{self.path} is read-only: {why}" if why else None)
        self._immutable = False  # set where SQLite cannot create the WAL's shared-memory file (see _connect)
        self._threads = ThreadSlots()
        self._write_lock = threading.RLock()
        # told when a write has waited WAIT_NOTICE seconds for another writer (the command line says so)
        self.on_wait: Callable[[], None] | None = None
        self._rows_hint: str | None = None
        self._epoch = 0  # moves on around every insert, removal and restoration of papers (see count)
        self.own_revs: set[int] = set()  # revisions this process wrote (the window tells them from others')
        self._state_writes = 0  # moves on around every change of states (see state_counts)
        self._writes = 0  # moves on around every transaction (see _until_changed)
        self._priority_sql: str | None = None  # "p.priority", or NULL in a read-only library older than 0009
        self._has_imported: bool | None = None  # tags.imported (0024)
        if not self.read_only:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        elif not self.path.exists():
            raise StoreError(f"{self.path}: no library to open read-only")
        self._tables: set[str] | None = None
        try:
            self.migrate()
        except sqlite3.DatabaseError as exc:
            self.close()
            if self.read_only or not _disk_full(self.path):
                raise StoreError(f"{self.path}: the library database is unreadable ({exc})") from None
            # a full disk: the library is intact, and can still be read
            self.read_only = True
            self.read_only_reason = f"the disk holding {self.path} is full"
            try:
                self.migrate()
            except sqlite3.DatabaseError:
                self.close()
                raise StoreError(f"{self.path} cannot be opened: the disk holding it is full") from None

    # ---- connections and transactions ----

    @property
    def db(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            if self.read_only:
                conn = self._connect_read_only()
            else:
                conn = sqlite3.connect(self.path, timeout=WRITE_WAIT, check_same_thread=False)
            conn.isolation_level = None  # explicit BEGIN/COMMIT only, in transaction()
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute(f"PRAGMA busy_timeout = {int(WRITE_WAIT * 1000)}")
            if not self.read_only:
                # a paper's record (abstract twice: raw and plain) is a few KB: 4 KB pages held one record
                # each and left a third of every page empty; 16 KB pages pack several (docs/performance-
                # changes.md). Only a new file takes it (an existing one keeps its page size until a VACUUM).
                conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")
            self._local.conn = conn
            self._local.depth = 0
            self._local.taken = []
        return conn

    def _connect_read_only(self) -> sqlite3.Connection:
        """Read-only, as SQLite allows: a WAL database needs its shared-memory file, which a read-only or full
        disk cannot create; then, when no write-ahead log holds changes, the file is read as immutable."""
        if not self._immutable:
            conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
            try:
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
                return conn
            except sqlite3.OperationalError:
                conn.close()
                wal = self.path.with_name(self.path.name + "-wal")
                if wal.exists() and wal.stat().st_size:
                    raise
                self._immutable = True
        return sqlite3.connect(f"file:{self.path}?mode=ro&immutable=1", uri=True, check_same_thread=False)

    @contextmanager
    def _changing_states(self) -> Iterator[sqlite3.Connection]:
        """A transaction that changes states or priorities (what state_counts and triaged_states keep): their key
        moves on before and after it, so counts taken meanwhile are not kept."""
        self._state_writes += 1
        try:
            with self.transaction() as db:
                yield db
        finally:
            self._state_writes += 1

    def set_write_wait(self, seconds: float | None) -> None:
        """How long this thread's writes wait for another writer (an import, here or in another process, holds
        the library for the whole file) before StoreBusy; None: WRITE_WAIT. The window's thread waits a moment
        only: it keeps an edit for later rather than freeze (a trial's triage keys froze it for an import)."""
        self._local.wait = seconds

    @contextmanager
    def transaction(self, wait: float | None = None) -> Iterator[sqlite3.Connection]:
        """The one way to write: all or nothing, re-entrant. SQLite's failures come out as a StoreError that
        names the file and says the cause in words ("the disk is full while writing …/library.db"); another
        writer holding the library longer than `wait` seconds (else this thread's set_write_wait) StoreBusy."""
        if self.read_only:
            raise StoreError(f"cannot change the library: {self.read_only_reason or 'it is open read-only'}")
        db = self.db
        if wait is None:
            wait = getattr(self._local, "wait", None)
        patience = WRITE_WAIT if wait is None else max(wait, 0.0)
        started = time.monotonic()
        told = self._lock_within(patience, started)
        try:
            if self._local.depth:  # inside another: a savepoint, so that this one too is all or nothing
                self._local.depth += 1
                point = f"nested{self._local.depth}"
                taken = len(self._local.taken)
                db.execute(f"SAVEPOINT {point}")
                try:
                    yield db
                except BaseException:
                    # the revisions it took are given back with the counter (another process may take them)
                    self.own_revs.difference_update(self._local.taken[taken:])
                    del self._local.taken[taken:]
                    with suppress(sqlite3.Error):
                        db.execute(f"ROLLBACK TO {point}")
                        db.execute(f"RELEASE {point}")
                    if not db.in_transaction:  # SQLite undid the whole transaction (a full disk): say so
                        raise StoreError(f"{self.path}: a change failed and nothing of it was kept") from None
                    raise
                else:
                    db.execute(f"RELEASE {point}")
                finally:
                    self._local.depth -= 1
                return
            self._begin(db, patience, started, told)
            self._local.depth = 1
            self._writes += 1  # before and after: what is read meanwhile is not kept (see _until_changed)
            self._local.taken = []  # the revisions this transaction takes (next_rev)
            try:
                yield db
            except BaseException as exc:
                self._roll_back(db)
                if isinstance(exc, sqlite3.OperationalError):
                    raise self.failure(exc) from None
                raise
            else:
                try:
                    db.execute("COMMIT")
                except sqlite3.OperationalError as exc:
                    self._roll_back(db)
                    raise self.failure(exc) from None
            finally:
                self._local.depth = 0
                self._writes += 1
        finally:
            self._write_lock.release()

    def _lock_within(self, patience: float, started: float) -> bool:
        """This process's write lock (its import holds it on another thread) within `patience` seconds, else
        StoreBusy; `on_wait` is told once WAIT_NOTICE seconds have passed. Returns whether it was told."""
        if self.on_wait is None or patience <= WAIT_NOTICE:
            if not self._write_lock.acquire(timeout=patience):
                raise StoreBusy(self._busy_text())
            return False
        if self._write_lock.acquire(timeout=WAIT_NOTICE):
            return False
        self.on_wait()
        if not self._write_lock.acquire(timeout=max(patience - (time.monotonic() - started), 0.0)):
            raise StoreBusy(self._busy_text())
        return True

    def _begin(self, db: sqlite3.Connection, patience: float, started: float, told: bool) -> None:
        """BEGIN IMMEDIATE: SQLite's write lock, which another process's import holds, within what is left of
        `patience` seconds, asked for a second at a time (Ctrl+C is heard between asks; SQLite's own wait is
        deaf to it); `on_wait` told once the first WAIT_NOTICE seconds have passed."""
        deadline = started + patience
        try:
            while True:
                left = max(deadline - time.monotonic(), 0.0)
                db.execute(f"PRAGMA busy_timeout = {int(min(left, BUSY_SLICE) * 1000)}")
                try:
                    db.execute("BEGIN IMMEDIATE")
                    return
                except sqlite3.OperationalError as exc:
                    if left <= BUSY_SLICE or not isinstance(self.failure(exc), StoreBusy):
                        raise
                if not told and self.on_wait is not None and time.monotonic() - started >= WAIT_NOTICE:
                    self.on_wait()
                    told = True
        except sqlite3.OperationalError as exc:
            raise self.failure(exc) from None
        finally:
            db.execute(f"PRAGMA busy_timeout = {int(WRITE_WAIT * 1000)}")

    def _busy_text(self) -> str:
        return f"{self.path} is busy: another writer (an import) holds it; try again when it has finished"

    def _roll_back(self, db: sqlite3.Connection) -> None:
        """The transaction undone; the revisions it took are not this process's: another may take them next."""
        self.own_revs.difference_update(self._local.taken)
        with suppress(sqlite3.Error):
            db.execute("ROLLBACK")

    def failure(self, exc: sqlite3.Error) -> StoreError:
        """SQLite's error in words, naming the database file."""
        text = str(exc)
        if "full" in text:
            return StoreError(f"the disk is full while writing {self.path}; nothing was changed")
        if "locked" in text or "busy" in text:
            return StoreBusy(self._busy_text())
        if "readonly" in text or "read-only" in text:
            return StoreError(f"cannot change the library: {self.path} cannot be written")
        if "disk I/O" in text:
            return StoreError(f"cannot write {self.path} (a disk error); nothing was changed")
        return StoreError(f"{self.path}: {text}")

    def close(self) -> None:
        closing, self._threads = self._threads, ThreadSlots()
        for conn in closing.connections():
            with suppress(sqlite3.Error):
                conn.close()

    @property
    def _local(self) -> SimpleNamespace:
        """This thread's connection and what is kept beside it (see ThreadSlots)."""
        return self._threads.current()

    @property
    def connections(self) -> int:
        """How many connections this store has open (one per thread that has used it)."""
        return len(self._threads.connections())

    def next_rev(self, db: sqlite3.Connection) -> int:
        rev = _take_rev(db)
        self.own_revs.add(rev)
        self._local.taken.append(rev)
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
        copy = self.path.with_name(f"{self.path.stem}.before-{pending[0][0]}.db")
        if done:  # an existing library: keep a copy as it was
            self.backup(copy)
        for name, fn in pending:
            rebuilds = bool(getattr(fn, "rebuilds_tables", False))
            if rebuilds:  # outside the transaction: inside one, SQLite ignores this pragma
                db.execute("PRAGMA foreign_keys = OFF")
            try:
                with self.transaction() as tx:
                    fn(tx)
                    if rebuilds and tx.execute("PRAGMA foreign_key_check").fetchone() is not None:
                        raise StoreError(f"{self.path}: migration {name} would break a reference; nothing was changed")
                    tx.execute("INSERT INTO schema_migrations(name, applied_at) VALUES (?, ?)", (name, now()))
            finally:
                if rebuilds:
                    db.execute("PRAGMA foreign_keys = ON")
        self._tables = None
        if done:
            self._prune_migration_copies(copy)
        if done and any(getattr(fn, "compacts", False) for _, fn in pending):
            self._compact()
        elif not done:  # a new library: the migrations' frames (each its own transaction) leave the log before
            with suppress(sqlite3.Error):  # its papers come (a 3 MB disk held both: test_a_full_disk_is_named)
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return [name for name, _ in pending]

    def _compact(self) -> None:
        """Give the pages a migration freed back to the file system (VACUUM: a copy of the database is written,
        so it needs that much free space). If it cannot run now, nothing is lost: SQLite reuses the pages."""
        with suppress(sqlite3.Error):
            self.db.execute("VACUUM")

    def _prune_migration_copies(self, made: Path) -> None:
        """The copies made before migrating, beyond the newest MIGRATION_COPIES, go once a migration succeeded:
        each is the whole library (200 MB at 94,000 papers), and one was left for every release that migrated.
        Only files named as this code names them, for a migration it has, ordered by the migrations' order (a
        clock is no guide: a library synced from another machine); never `made`, the copy just made."""
        order = {f"{self.path.stem}.before-{name}.db": i for i, (name, _) in enumerate(MIGRATIONS)}
        copies = sorted((p for p in self.path.parent.iterdir() if p.name in order), key=lambda p: order[p.name])
        for old in copies[:-MIGRATION_COPIES]:
            if old != made:
                with suppress(OSError):
                    old.unlink()

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

    def source_papers(self, source_id: int) -> list[tuple[int, str, str, str, list[str], str, str]]:
        """(id, content_hash, title, abstract, authors, DOI, the record's key in the file) of a source's papers,
        for matching a re-import (the matcher derives an abstract's plain text only if it compares it)."""
        rows = self.db.execute(
            f"SELECT id, content_hash, title, abstract, authors, {self._doi_sql('')}, source_key FROM papers"
            " WHERE source_id = ?",
            (source_id,),
        )
        return [(r[0], r[1], r[2], unpack(r[3]), json.loads(r[4]), r[5] or "", r[6] or "") for r in rows] + (
            self.linked_source_papers(source_id)
        )

    def _doi_sql(self, prefix: str) -> str:
        """A paper's DOI in a query ('' in a library opened read-only before records were kept)."""
        return f"json_extract({prefix}bib, '$.doi')" if "bib" in _columns(self.db, "papers") else "''"

    def linked_source_papers(self, source_id: int) -> list[tuple[int, str, str, str, list[str], str, str]]:
        """Like `source_papers`, for the papers this source's records were merged into (paper_sources): the
        record's own content hash and title, so that a re-import finds them unchanged."""
        if not self.has_table("paper_sources"):
            return []
        rows = self.db.execute(
            f"SELECT p.id, ps.content_hash, ps.title, p.abstract, p.authors, {self._doi_sql('p.')}, ps.source_key"
            " FROM paper_sources ps JOIN papers p ON p.id = ps.paper_id WHERE ps.source_id = ?",
            (source_id,),
        )
        return [(r[0], r[1], r[2], unpack(r[3]), json.loads(r[4]), r[5] or "", r[6] or "") for r in rows]

    def refresh_records(self, items: Sequence[tuple[int, str | None]], keep: set[int], rev: int) -> int:
        """(paper id, record as stored) of records a re-import found unchanged in their text: a record added or
        corrected in the file (a DOI, the pages) is the paper's now, or, on a paper of another file (`keep`:
        this file's record was merged into it), only where the paper has none. A paper whose record is not its
        file's (a merge's fuller one, the user's: source_bib, 0026) keeps it while the file's is as it was.
        Returns how many changed."""
        with self.transaction() as db:
            changed = []
            own = "source_bib" in _columns(db, "papers")
            for pid, bib in items:
                if pid in keep:
                    if bib is None:
                        continue
                    cur = db.execute("UPDATE papers SET bib = ? WHERE id = ? AND bib IS NULL", (bib, pid))
                elif own:
                    cur = db.execute(
                        "UPDATE papers SET bib = ?, source_bib = NULL WHERE id = ? AND CASE WHEN source_bib IS NULL"
                        " THEN bib IS NOT ? ELSE source_bib != COALESCE(?, '') END",
                        (bib, pid, bib, bib),
                    )
                else:
                    cur = db.execute("UPDATE papers SET bib = ? WHERE id = ? AND bib IS NOT ?", (bib, pid, bib))
                if cur.rowcount:
                    changed.append(pid)
            if changed:
                db.executemany("UPDATE papers SET updated_at = ?, rev = ? WHERE id = ?",
                               [(now(), rev, pid) for pid in changed])  # fmt: skip
                _set_columns(db, changed)  # a record that says "and others" or no longer does: the Authors column
                self._journal(db, changed, rev)
        return len(changed)

    def set_record(self, paper_id: int, bib: dict[str, str]) -> dict[str, str]:
        """Give a paper this bibliographic record ({}: none); returns the one it had (for undo). What its file
        gave is kept aside (source_bib) while the two differ: a re-import of the unchanged file keeps this one."""
        with self.transaction() as db:
            before = self.papers([paper_id])
            rev = self.next_rev(db)
            text = biblio.dumps(bib)
            db.execute("UPDATE papers SET bib = ?, updated_at = ?, rev = ? WHERE id = ?",
                       (text, now(), rev, paper_id))  # fmt: skip
            self._set_source_bib(db, [paper_id], text, before[0].bib if before else {})
            _set_columns(db, [paper_id])  # the Authors column says "et al." of a record with moreauthors
            self._journal(db, [paper_id], rev)
        return before[0].bib if before else {}

    @staticmethod
    def _set_source_bib(db: sqlite3.Connection, ids: Sequence[int], new: str | None, old: Mapping[str, str]) -> None:
        """The papers' records were set to `new` from `old` by something other than their own file: what the
        file gave (the old record, unless one is kept aside already) is kept aside, or forgotten when the
        paper's record is the file's again (an undo)."""
        if "source_bib" not in _columns(db, "papers"):
            return
        db.executemany(
            "UPDATE papers SET source_bib = CASE WHEN COALESCE(source_bib, ?) = COALESCE(?, '') THEN NULL"
            " ELSE COALESCE(source_bib, ?) END WHERE id = ?",
            [(biblio.dumps(old) or "", new, biblio.dumps(old) or "", pid) for pid in ids],
        )

    def source_titles(self, source_id: int) -> set[str]:
        rows = self.db.execute("SELECT auto_title FROM papers WHERE source_id = ?", (source_id,))
        return {r[0] for r in rows}

    def insert_papers(
        self, source_id: int, papers: Sequence[NewPaper], rev: int, rekeyed: list[tuple[str, str]] | None = None,
        yours: TagsGiven | None = None,
    ) -> list[int]:  # fmt: skip
        """Store new papers; a citation key the file gives that another paper has, or that is no valid key,
        gets a new key, appended to `rekeyed` as (given, new) so that the import can say so; `yours` counts the
        papers a keyword gave one of the user's tags."""
        ids = []
        stamp = now()
        self._epoch += 1  # before and after: a count taken meanwhile is not kept
        try:
            with self.transaction() as db:
                keys = _KeyMaker(lambda key: self._key_taken(db, key))
                first: int | None = self._id_floor(db) or None
                for p in papers:
                    uid = self._new_uid(db, p.uid_seed)
                    key = p.citation_key if p.citation_key and self._key_free(db, p.citation_key) else ""
                    key = key or keys.new(p.auto_title or p.title, p.authors, p.year)
                    if p.citation_key and key != p.citation_key and rekeyed is not None:
                        rekeyed.append((p.citation_key, key))
                    cur = db.execute(
                        f"INSERT INTO papers(id, uid, source_id, {', '.join(CONTENT_COLUMNS)}, citation_key, added_at,"
                        f" updated_at, rev) VALUES (?, ?, ?, {', '.join('?' * len(CONTENT_COLUMNS))}, ?, ?, ?, ?)",
                        (first, uid, source_id, *_content_values(p), key, stamp, stamp, rev),
                    )
                    first = None
                    pid = int(cur.lastrowid or 0)
                    ids.append(pid)
                    if p.tags:
                        self._add_tags(db, [pid], p.tags, given=yours)
                        if yours is not None:
                            yours.names.clear()  # a keyword made the user's tag (_add_tags): looked up again
                    if p.keywords:
                        self._add_imported_tags(db, [pid], p.keywords, yours)
                if self.has_table("paper_columns"):  # not in a library older than migration 0012 (tests make one)
                    db.executemany(
                        "INSERT OR REPLACE INTO paper_columns(paper_id, title_key, authors_key, authors, added)"
                        " VALUES (?, ?, ?, ?, ?)",
                        [(pid, title_key(p.auto_title), authors_key(p.authors),
                          authors_short(p.authors, bool(p.bib.get("moreauthors"))), stamp)
                         for pid, p in zip(ids, papers, strict=True)],
                    )  # fmt: skip
                if self.has_table("paper_keys"):
                    self._insert_keys(db, ids, papers)
                self._journal(db, ids, rev)
        finally:
            self._epoch += 1
        return ids

    @staticmethod
    def _insert_keys(db: sqlite3.Connection, ids: Sequence[int], papers: Sequence[NewPaper]) -> None:
        from readinglist.importers.duplicates import text_key, title_key_of_raw

        db.executemany(
            "INSERT OR REPLACE INTO paper_keys(paper_id, title_key, text_key) VALUES (?, ?, ?)",
            [(pid, p.title_key or title_key_of_raw(p.title), p.text_key or text_key(p.plain_abstract))
             for pid, p in zip(ids, papers, strict=True)],
        )  # fmt: skip

    @staticmethod
    def _key_free(db: sqlite3.Connection, key: str) -> bool:
        """A key a file asks for: valid, and no paper has it."""
        try:
            citekeys.check_key(key)
        except ValueError:
            return False
        return not Store._key_taken(db, key)

    def identities(self) -> list[tuple[int, str, str, str, str, str, list[str]]]:
        """(id, uid, citation key, shown title, imported title, user title, authors) of every paper: what
        matching one of the app's own exports against the whole library starts from."""
        rows = self.db.execute(
            "SELECT id, uid, COALESCE(citation_key, ''), auto_title, title, COALESCE(user_title, ''), authors"
            " FROM papers"
        )
        return [(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6])) for r in rows]

    def annotate_new(self, items: Sequence[tuple[int, str, int | None, str]]) -> int:
        """(id, state, priority, note) of papers just imported, as the file gave them: one batch; returns
        how many papers it annotated."""
        items = [(pid, st, pr, note) for pid, st, pr, note in items if st != DEFAULT_STATE or pr or note.strip()]
        if not items:
            return 0
        with self._changing_states() as db:
            db.executemany(
                "UPDATE papers SET state = ?, priority = ?, note = ? WHERE id = ?",
                [(st if st in STATES else DEFAULT_STATE, pr if pr in PRIORITIES else None, note, pid)
                 for pid, st, pr, note in items],
            )  # fmt: skip
            self._touch(db, [pid for pid, *_ in items])
        return len(items)

    @staticmethod
    def _key_taken(db: sqlite3.Connection, key: str) -> bool:
        return db.execute("SELECT 1 FROM papers WHERE citation_key = ? COLLATE NOCASE", (key,)).fetchone() is not None

    def _id_floor(self, db: sqlite3.Connection) -> int:
        """The id after the highest removed paper's, if no paper has a higher one: SQLite would give a new paper
        max(id) + 1, the id of a removed paper, which a re-import or an undo may bring back."""
        if not self.has_table("removed_papers"):
            return 0
        removed = db.execute("SELECT max(id) FROM removed_papers").fetchone()[0]
        if not removed:
            return 0
        highest = db.execute("SELECT max(id) FROM papers").fetchone()[0] or 0
        return int(removed) + 1 if removed > highest else 0

    def count(self) -> int:
        """count(*) scans an index entry per paper (and every r/s/u shows the counts), yet only
        imports, removals and their undoing change it: the count is kept until this store inserts, removes
        or restores papers, or this thread's connection sees another connection's commit (SQLite's
        data_version)."""
        db = self.db
        key = (db.execute("PRAGMA data_version").fetchone()[0], self._epoch)
        kept = getattr(self._local, "count", None)
        if kept is None or kept[0] != key:
            kept = self._local.count = (key, db.execute("SELECT count(*) FROM papers").fetchone()[0])
        return int(kept[1])

    def _new_uid(self, db: sqlite3.Connection, seed: str) -> str:
        """The shortest unused prefix of `seed` (a removed paper keeps its id: it may come back)."""
        for length in range(6, len(seed) + 1):
            uid = seed[:length]
            taken = "SELECT 1 FROM papers WHERE uid = ? UNION ALL SELECT 1 FROM removed_papers WHERE uid = ?"
            if db.execute(taken, (uid, uid)).fetchone() is None:
                return uid
        raise StoreError("could not assign a unique id")  # a full 40-hex collision: never in practice

    def update_content(self, paper_id: int, p: NewPaper, rev: int) -> None:
        """A revised record replaces the imported text; the user's tags, note, state and title stay, and so
        does a record that is not the file's (source_bib) while the file's record is as it was, an author
        list a merged source carried on while the file's is still the start of it (fill_missing: our Markdown
        list's three names and "et al." revised lost the merged BibTeX file's fourth, a review), a title a
        merged source gave while the file gives none (else a derived one would be back), and an abstract, a
        year or a link the file gives none of (with the links they brought): on a paper another file was merged
        into, a value the revision lacks may be that file's, and the revision says nothing against it (Google
        Scholar's year of a title-only list's paper was lost to the list's next version). What the revision
        gives replaces what the paper had, as it always did: its file says what it says of the paper."""
        from readinglist.importers.duplicates import fuller_authors
        from readinglist.markup import extract_links

        with self.transaction() as db:
            values = list(_content_values(p))
            records = "source_bib" in _columns(db, "papers")
            stored = db.execute(  # the row read once: its authors, whether a merge brought another source, the
                # title if a merged source gave it, the abstract, year and link a revision may lack, its records
                "SELECT authors, EXISTS (SELECT 1 FROM paper_sources s WHERE s.paper_id = p.id"
                " AND s.source_id IS NOT p.source_id), CASE WHEN p.title != '' AND EXISTS (SELECT 1 FROM"
                " paper_sources s WHERE s.paper_id = p.id AND s.source_id IS NOT p.source_id AND s.title = p.title)"
                " THEN json_array(p.title, p.auto_title) END, abstract, year, url, links"
                f"{', bib, source_bib' if records else ''} FROM papers p WHERE id = ?",
                (paper_id,),
            ).fetchone()
            merged = stored is not None and stored[1]  # only what a merge brought is carried on
            if merged and p.authors and (kept := fuller_authors(p.authors, json.loads(stored[0]))):
                values[CONTENT_COLUMNS.index("authors")] = json.dumps(kept, ensure_ascii=False)
            if merged and not p.title and stored[2] is not None:  # the file still gives none: the merge's stays
                title, auto_title = json.loads(stored[2])
                values[CONTENT_COLUMNS.index("title")], values[CONTENT_COLUMNS.index("auto_title")] = title, auto_title
            if merged:
                more: list[str] = []  # the links of what stays, after the revision's own
                if not p.abstract and (abstract := unpack(stored[3])):
                    values[CONTENT_COLUMNS.index("abstract")] = stored[3]
                    more += [u for u in json.loads(stored[6]) if u in extract_links(abstract)]
                if p.year is None and stored[4] is not None:
                    values[CONTENT_COLUMNS.index("year")] = stored[4]
                if not p.url and stored[5]:
                    values[CONTENT_COLUMNS.index("url")] = stored[5]
                    more.insert(0, stored[5])
                if links := _with_links(p.links, more):
                    values[CONTENT_COLUMNS.index("links")] = json.dumps(links)
            if records:
                if stored is not None and stored[8] is not None and stored[8] == (values[-1] or ""):
                    values[-1] = stored[7]  # the file's record unchanged: the paper keeps its own
                else:
                    db.execute("UPDATE papers SET source_bib = NULL WHERE id = ?", (paper_id,))
            db.execute(
                f"UPDATE papers SET {', '.join(c + ' = ?' for c in CONTENT_COLUMNS)}, in_source = 1,"
                " updated_at = ?, rev = ? WHERE id = ?",
                (*values, now(), rev, paper_id),
            )
            _set_columns(db, [paper_id])
            if self.has_table("paper_keys"):
                _set_keys(db, [paper_id])
            self._journal(db, [paper_id], rev)

    def set_in_source(self, ids: Iterable[int], present: bool, rev: int) -> None:
        with self.transaction() as db:
            db.executemany(
                "UPDATE papers SET in_source = ?, rev = ? WHERE id = ? AND in_source != ?",
                [(int(present), rev, i, int(present)) for i in ids],
            )

    # ---- reading papers ----

    _SELECT = (
        "SELECT p.id, p.uid, COALESCE(NULLIF(p.user_title, ''), p.auto_title), p.title, p.auto_title,"
        " p.user_title, p.abstract, p.authors, p.venue, p.year, p.url, p.links, p.state,"
        " p.note, s.name, p.in_source, p.updated_at, {key}, {priority}, {bib} FROM papers p"
        " LEFT JOIN sources s ON s.id = p.source_id"
    )
    _select: str | None = None

    def _select_papers(self) -> str:
        """_SELECT for this library: one opened read-only may predate the citation keys' column."""
        if self._select is None:
            columns = _columns(self.db, "papers")
            self._select = self._SELECT.format(
                key="p.citation_key" if "citation_key" in columns else "NULL",
                priority=self.priority_sql,
                bib="p.bib" if "bib" in columns else "NULL",  # a library opened read-only may predate 0025
            )
        return self._select

    @property
    def priority_sql(self) -> str:
        """The priority column as a query names it: NULL in a library opened read-only before it existed."""
        if self._priority_sql is None:
            self._priority_sql = "p.priority" if "priority" in _columns(self.db, "papers") else "NULL"
        return self._priority_sql

    def _paper(self, row: tuple, tags: list[str], keywords: list[str] | None = None) -> Paper:
        abstract = unpack(row[6])
        return Paper(
            id=row[0],
            uid=row[1],
            title=row[2],
            raw_title=row[3],
            auto_title=row[4],
            user_title=row[5],
            abstract=abstract,
            plain_abstract=_to_plain(abstract),
            authors=json.loads(row[7]),
            venue=row[8],
            year=row[9],
            url=row[10],
            links=json.loads(row[11]),
            state=row[12],
            note=row[13],
            source=row[14] or "",
            in_source=bool(row[15]),
            updated_at=row[16],
            citation_key=row[17] or "",
            priority=row[18],
            tags=tags,
            keywords=keywords or [],
            bib=biblio.loads(row[19]),
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
            keywords: dict[int, list[str]] = {}
            for pid, name, keyword in self._tags_marked(chunk):
                tags.setdefault(pid, []).append(name)
                if keyword:
                    keywords.setdefault(pid, []).append(name)
            for row in db.execute(f"{self._select_papers()} WHERE p.id IN ({marks})", chunk):
                found[row[0]] = self._paper(row, tags.get(row[0], []), keywords.get(row[0], []))
        return [found[i] for i in ids if i in found]

    def paper(self, paper_id: int) -> Paper | None:
        got = self.papers([paper_id])
        return got[0] if got else None

    def rows(self, ids: Sequence[int]) -> dict[int, TableRow]:
        """What a table row shows — title, venue, year, state, tags, priority, authors, added — without the
        abstracts: from the table rows index (SQLite's planner would read the papers' records instead) and
        paper_columns (the authors, the date added)."""
        out: dict[int, TableRow] = {}
        db = self.db
        if self._rows_hint is None:  # a library opened read-only may predate the index
            has = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'papers_row'").fetchone()
            self._rows_hint = "INDEXED BY papers_row" if has else ""
        columns = self.has_table("paper_columns")
        extra = ", COALESCE(c.authors, ''), COALESCE(c.added, '')" if columns else ", '', ''"
        join = " LEFT JOIN paper_columns c ON c.paper_id = p.id" if columns else ""
        for chunk in _chunks(list(ids), 900):
            marks = ",".join("?" * len(chunk))
            tags: dict[int, list[str]] = {}
            for pid, name, keyword in self._tags_marked(chunk):  # the user's, in the order the paper shows them
                if not keyword:
                    tags.setdefault(pid, []).append(name)
            for pid, title, venue, year, state, *rest in db.execute(
                "SELECT p.id, COALESCE(NULLIF(p.user_title, ''), p.auto_title), p.venue, p.year, p.state,"
                f" {self.priority_sql}{extra} FROM papers p {self._rows_hint}{join} WHERE p.id IN ({marks})",
                chunk,
            ):
                out[pid] = TableRow(title, venue, year, state, ", ".join(tags.get(pid, ())), *rest)
        return out

    def has_authors(self) -> bool:
        """Whether any paper names its authors (the bundled corpus does not: its Authors column would be empty)."""
        return not self.has_table("paper_columns") or self._library_has("authors")

    def empty_columns(self, ids: Sequence[int], columns: Iterable[str], most: int = 20_000) -> set[str]:
        """Of these table columns ("authors", "venue", "year", "tags": the user's), those none of these papers
        has a value for. Each stops at the first paper that has one; a column with values in the library is
        looked for among at most `most` papers (a few milliseconds a thousand): beyond that it counts as filled.
        The tags are looked for from the papers tagged (few, as a rule), not from these papers. What the library
        has (_until_changed) is read once a change, not on each of the table's results (every keystroke)."""
        empty: set[str] = set()
        ids = list(ids)
        for column in columns:
            if column == "tags":
                if self._tagged().isdisjoint(ids):
                    empty.add(column)
                continue
            if column not in _VALUE_SQL or (column == "authors" and not self.has_table("paper_columns")):
                continue
            join, where = _VALUE_SQL[column]
            if not self._library_has(column):
                empty.add(column)  # none in the library
            elif len(ids) <= most and not any(
                self.db.execute(
                    f"SELECT 1 FROM papers p {join} WHERE p.id IN ({_marks(chunk)}) AND {where} LIMIT 1", chunk
                ).fetchone()
                for chunk in _chunks(ids, 900)
            ):
                empty.add(column)
        return empty

    def _until_changed(self) -> dict[str, object]:
        """What was read of the library, kept until it changes: this store writes, or this thread's connection
        sees another's commit (data_version). The table asks empty_columns on each result, every keystroke: a
        library without authors (the bundled corpus) was scanned for them each time."""
        key = (self.db.execute("PRAGMA data_version").fetchone()[0], self._writes)
        kept = getattr(self._local, "until_changed", None)
        if kept is None or kept[0] != key:
            kept = self._local.until_changed = (key, {})
        return kept[1]

    def _library_has(self, column: str) -> bool:
        """Whether any paper has a value for the column (one of _VALUE_SQL's), read once a change."""
        kept = self._until_changed()
        if column not in kept:
            join, where = _VALUE_SQL[column]
            kept[column] = (
                self.db.execute(f"SELECT 1 FROM papers p {join} WHERE {where} LIMIT 1").fetchone() is not None
            )
        return bool(kept[column])

    def _tagged(self) -> frozenset[int]:
        """The papers with a tag of the user's, read once a change."""
        kept = self._until_changed()
        tagged = kept.get("tagged")
        if not isinstance(tagged, frozenset):
            sql = f"SELECT pt.paper_id FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id WHERE 1{self._own_only}"
            tagged = kept["tagged"] = frozenset(pid for (pid,) in self.db.execute(sql))
        return tagged

    def is_empty(self) -> bool:
        """No papers and no source ever imported: a library that has never been used."""
        return self.db.execute("SELECT 1 FROM papers UNION ALL SELECT 1 FROM sources LIMIT 1").fetchone() is None

    def ordered_ids(
        self,
        sort: str = "added",
        descending: bool = False,
        state: str | None = None,
        tag: str | None = None,
        topics: Sequence[int] | None = None,
        not_topics: Sequence[int] = (),
    ) -> list[int]:
        """Every paper id in a column's order, filtered by state, tag and topics (in any of `topics`, in none
        of `not_topics`): sorting is SQLite's job."""
        expr = SORT_COLUMNS.get(sort, SORT_COLUMNS["added"]).replace("p.priority", self.priority_sql)
        expr = expr.replace(" AND t.imported = 0", self._own_only)
        if expr == "p.id" and state is None and tag is None and topics is None and not not_topics:
            known = self._ids_without_scan()
            if known is not None:
                return known[::-1] if descending else known
        where, args = self._filters(state, tag, topics, not_topics)
        direction = "DESC" if descending else "ASC"
        source = "papers p"
        key = {"title": "c.title_key", "authors": "c.authors_key"}.get(sort)
        if key is not None and self._columns_complete():  # the collation keys, in order in their index
            source = "paper_columns c JOIN papers p ON p.id = c.paper_id" if where else "paper_columns c"
            order = f"ORDER BY {key} {direction}, c.paper_id {direction}"
            if sort not in BLANK_LAST:
                return [r[0] for r in self.db.execute(f"SELECT c.paper_id FROM {source}{where} {order}", args)]
            # a paper without authors last, whichever way (as Zotero and a spreadsheet put blanks): two reads
            # of the key's index, not a sort of the library on an expression
            head = f"SELECT c.paper_id FROM {source}{where}{' AND' if where else ' WHERE'}"
            filled = self.db.execute(f"{head} {key} != '' {order}", args)
            blank = self.db.execute(f"{head} {key} = '' ORDER BY c.paper_id {direction}", args)
            return [r[0] for r in filled] + [r[0] for r in blank]
        if sort in BLANK_LAST:  # the value worked out once a row (the tags' is a query); no authors is "[]"
            direction += " NULLS LAST"
            expr = f"NULLIF(NULLIF(trim({expr}), ''), '[]')"
        sql = f"SELECT p.id FROM {source}{where} ORDER BY {expr} {direction}, p.id {direction.split()[0]}"
        return [r[0] for r in self.db.execute(sql, args)]

    def _ids_without_scan(self) -> list[int] | None:
        """Every paper id in order, known without reading the table where it can be (a scan of the table is slow at
        start-up in a large library): ids are given in order and only removal takes one away, so they are
        1..max(id) but for the removed papers' ids."""
        db = self.db
        count = self.count()
        lowest = db.execute("SELECT min(id) FROM papers").fetchone()[0]  # index lookups, not scans
        highest = db.execute("SELECT max(id) FROM papers").fetchone()[0]
        if not count or lowest is None or highest is None:
            return None
        if highest == count and lowest == 1:
            return list(range(1, count + 1))
        if not self.has_table("removed_papers"):
            return None
        gaps = {r[0] for r in db.execute("SELECT id FROM removed_papers WHERE id <= ? LIMIT 5001", (highest,))}
        if len(gaps) > 5000 or highest - len(gaps) != count:
            return None
        marks = ",".join("?" * len(gaps))
        if gaps and db.execute(f"SELECT count(*) FROM papers WHERE id IN ({marks})", list(gaps)).fetchone()[0]:
            return None  # a removed paper's id taken again (insert_papers avoids it): read the table
        return [i for i in range(1, highest + 1) if i not in gaps]

    def _columns_complete(self) -> bool:
        """Every paper has its paper_columns (a library read-only before migration 0012 has none)."""
        if not self.has_table("paper_columns"):
            return False
        return int(self.db.execute("SELECT count(*) FROM paper_columns").fetchone()[0]) == self.count()

    def _filters(
        self, state: str | None, tag: str | None, topics: Sequence[int] | None = None, not_topics: Sequence[int] = ()
    ) -> tuple[str, list[object]]:
        clauses: list[str] = []
        args: list[object] = []
        if topics is not None:
            clauses.append(f"p.id IN (SELECT paper_id FROM paper_topics WHERE topic_id IN ({_marks(topics)}))")
            args.extend(topics)
        if not_topics:
            clauses.append(f"p.id NOT IN (SELECT paper_id FROM paper_topics WHERE topic_id IN ({_marks(not_topics)}))")
            args.extend(not_topics)
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
        rows = list(self.uids_starting(text).items())
        if not rows:
            gone = self._removed_with_uid(text)
            if len(gone) == 1 and gone[0].merged_into is not None:
                into = f" into {gone[0].merged_into}" if gone[0].merged_into else ""
                raise StoreError(f"paper {gone[0].uid} was merged{into} on {gone[0].removed_at[:10]};"
                                 f" `readinglist unremove {gone[0].uid}` brings it back as a paper of its"
                                 " own")  # fmt: skip
            if len(gone) == 1:
                raise StoreError(f"paper {gone[0].uid} was removed from the library on {gone[0].removed_at[:10]};"
                                 f" `readinglist unremove {gone[0].uid}` brings it back")  # fmt: skip
            raise StoreError(f"no paper with id {text!r}")
        if len(rows) > 1:
            listed = ", ".join(r[1] for r in rows[:5])
            raise StoreError(f"paper id {text!r} is ambiguous: {listed}{' …' if len(rows) > 5 else ''}")
        return int(rows[0][0])

    def changed_since(self, rev: int) -> list[int]:
        return [r[0] for r in self.db.execute("SELECT id FROM papers WHERE rev > ?", (rev,))]

    def changes_since(self, rev: int) -> list[tuple[int, int]]:
        """(paper id, revision) of every paper changed after revision `rev`."""
        return [(r[0], r[1]) for r in self.db.execute("SELECT id, rev FROM papers WHERE rev > ?", (rev,))]

    # ---- the index journal: what the search index lacks ----

    @staticmethod
    def _journal(db: sqlite3.Connection, ids: Sequence[int], rev: int) -> None:
        db.executemany("INSERT OR REPLACE INTO index_journal(paper_id, rev) VALUES (?, ?)", [(i, rev) for i in ids])

    def has_table(self, name: str) -> bool:
        """A library opened read-only may predate a migration (it cannot be migrated)."""
        if self._tables is None or name not in self._tables:
            rows = self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            self._tables = {r[0] for r in rows}
        return name in self._tables

    def index_journal(self, limit: int | None = None, after: tuple[int, int] = (-1, -1)) -> list[tuple[int, int]]:
        """(paper id, revision) of the changes the index does not hold yet, oldest first: those after the
        entry `after` (as (revision, paper id)), at most `limit` of them."""
        if self.read_only and not self.has_table("index_journal"):
            return []
        sql = ("SELECT paper_id, rev FROM index_journal WHERE rev > ? OR (rev = ? AND paper_id > ?)"
               " ORDER BY rev, paper_id")  # fmt: skip
        args = (after[0], after[0], after[1])
        return [(r[0], r[1]) for r in self.db.execute(sql + (f" LIMIT {int(limit)}" if limit else ""), args)]

    def journal_size(self, after: int = -1) -> int:
        """How many changes the index lacks (with `after`, only those of later revisions)."""
        if self.read_only and not self.has_table("index_journal"):
            return 0
        return int(self.db.execute("SELECT count(*) FROM index_journal WHERE rev > ?", (after,)).fetchone()[0])

    def clear_index_journal(self, entries: Iterable[tuple[int, int]]) -> None:
        """The index committed these changes: forget them — but not a later change to the same paper, whose
        entry has moved on to a newer revision meanwhile. The entries are read once, as they come."""
        if self.read_only or (isinstance(entries, Sequence) and not entries):
            return
        with self.transaction() as db:
            db.executemany("DELETE FROM index_journal WHERE paper_id = ? AND rev = ?", entries)

    def title_claims(self, source_id: int) -> TitleClaims:
        """The source's display titles, for an import to make its new ones unique against (see TitleClaims)."""
        return TitleClaims(self.db, source_id)

    def has_source(self, location: str) -> bool:
        """Was a file at this location imported before (its records then have papers to be matched to)?"""
        return self.db.execute("SELECT 1 FROM sources WHERE location = ?", (location,)).fetchone() is not None

    def clear_index_journal_upto(self, rev: int) -> None:
        """A rebuild read the whole store after revision `rev` was committed: everything up to it is in."""
        if self.read_only:
            return
        with self.transaction() as db:
            db.execute("DELETE FROM index_journal WHERE rev <= ?", (rev,))

    def journal_since(self) -> int:
        """The revision the journal started at: changes up to it are only known by their revisions."""
        row = self.db.execute("SELECT value FROM meta WHERE key = 'journal_since'").fetchone()
        return int(row[0]) if row else 0

    def data_version(self) -> int:
        """Moves on whenever another connection commits (SQLite's data_version, per connection)."""
        return int(self.db.execute("PRAGMA data_version").fetchone()[0])

    def texts_since(self, rev: int, batch: int = 2000) -> Iterator[tuple[int, str, str, str]]:
        """(id, content hash, title, abstract as plain text) of the papers changed after revision `rev`
        (0: every paper), in id order and a batch at a time: what the interest ranking's features are
        built from, without building Paper objects. After a mark this reads one row: the ids come from the
        revision index (SQLite's planner would walk the whole table for `rev`, stored behind the abstracts)."""
        columns = "SELECT id, content_hash, auto_title, abstract FROM papers"
        if rev <= 0:
            last = 0
            while True:
                rows = self.db.execute(f"{columns} WHERE id > ? ORDER BY id LIMIT ?", (last, batch)).fetchall()
                yield from ((pid, h, title, _plain_abstract(abstract)) for pid, h, title, abstract in rows)
                if len(rows) < batch:
                    return
                last = rows[-1][0]
        ids = sorted(r[0] for r in self.db.execute("SELECT id FROM papers INDEXED BY papers_rev WHERE rev > ?", (rev,)))
        for chunk in _chunks(ids, min(batch, 900)):
            marks = ",".join("?" * len(chunk))
            rows = self.db.execute(f"{columns} WHERE id IN ({marks}) ORDER BY id", chunk).fetchall()
            yield from ((pid, h, title, _plain_abstract(abstract)) for pid, h, title, abstract in rows)

    def search_rows(self, batch: int = 2000) -> Iterator[Row]:
        """Every paper as a search reads it while the index is being built (scan_search.Row: the title shown,
        authors, venue, year, state, priority, note, tags and the abstract as stored, unpacked but not made
        plain), in id order, a batch at a time. About a second for 100,000 papers."""
        last = 0
        while True:
            rows = self.db.execute(
                "SELECT p.id, COALESCE(NULLIF(p.user_title, ''), p.auto_title), p.authors, p.venue, p.year,"
                f" p.state, {self.priority_sql}, p.note, (SELECT group_concat(t.name, char(31)) FROM paper_tags pt"
                " JOIN tags t ON t.id = pt.tag_id WHERE pt.paper_id = p.id), p.abstract FROM papers p"
                " WHERE p.id > ? ORDER BY p.id LIMIT ?",
                (last, batch),
            ).fetchall()
            for pid, title, authors, venue, year, state, priority, note, tags, abstract in rows:
                tag_list = tags.split("\x1f") if tags else []
                yield Row(pid, title or "", authors, venue, year, state, priority, note, tag_list, unpack(abstract))
            if len(rows) < batch:
                return
            last = rows[-1][0]

    def all_ids(self) -> list[int]:
        return [r[0] for r in self.db.execute("SELECT id FROM papers ORDER BY id")]

    def uids(self, ids: Sequence[int]) -> dict[int, str]:
        out = {}
        for chunk in _chunks(list(ids), 900):
            marks = ",".join("?" * len(chunk))
            out.update(dict(self.db.execute(f"SELECT id, uid FROM papers WHERE id IN ({marks})", chunk)))
        return out

    def ids_with_uids(self, uids: Sequence[str]) -> dict[str, int]:
        """readinglist id (lower case) → the paper that has it, for those of `uids` the library has."""
        out: dict[str, int] = {}
        for chunk in _chunks(sorted({u.lower() for u in uids if u}), 900):
            marks = ",".join("?" * len(chunk))
            out.update((str(u).lower(), int(i)) for i, u in self.db.execute(
                f"SELECT id, uid FROM papers WHERE uid IN ({marks})", chunk))  # fmt: skip
        return out

    def ids_with_text_keys(self, keys: Sequence[str]) -> dict[str, list[int]]:
        """text key (duplicates.text_key: an abstract's first words) → the papers that have it."""
        out: dict[str, list[int]] = {}
        if not self.has_table("paper_keys"):
            return out
        for chunk in _chunks(sorted({k for k in keys if k}), 900):
            marks = ",".join("?" * len(chunk))
            for key, pid in self.db.execute(
                f"SELECT text_key, paper_id FROM paper_keys WHERE text_key IN ({marks}) AND text_key != ''"
                " ORDER BY paper_id",
                chunk,
            ):
                out.setdefault(str(key), []).append(int(pid))
        return out

    # ---- annotations ----

    def annotated_ids(self) -> list[int]:
        """Every paper the user ever touched (a tag, state, note or title, even one taken back since)."""
        return [r[0] for r in self.db.execute("SELECT id FROM papers WHERE annotated_at IS NOT NULL ORDER BY id")]

    def annotation_rev(self) -> int | None:
        """The revision of the latest change to any paper the user touched (None: nothing touched yet)."""
        row = self.db.execute("SELECT max(rev) FROM papers INDEXED BY papers_annotated WHERE annotated_at IS NOT NULL")
        value = row.fetchone()[0]
        return None if value is None else int(value)

    def ids_with_content(self, hashes: Sequence[str]) -> dict[str, int]:
        """content hash → a paper holding exactly that content (the oldest, if several do)."""
        out: dict[str, int] = {}
        for chunk in _chunks(list(hashes), 900):
            marks = ",".join("?" * len(chunk))
            for h, pid in self.db.execute(
                f"SELECT content_hash, min(id) FROM papers WHERE content_hash IN ({marks}) GROUP BY content_hash", chunk
            ):
                out[h] = pid
        return out

    def title_authors(self) -> list[tuple[int, str, list[str]]]:
        """(id, imported title, authors) of every paper: what a match by title starts from."""
        return [(r[0], r[1], json.loads(r[2])) for r in self.db.execute("SELECT id, title, authors FROM papers")]

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    def _touch(self, db: sqlite3.Connection, ids: Sequence[int]) -> None:
        rev = self.next_rev(db)
        stamp = now()
        db.executemany("UPDATE papers SET rev = ?, annotated_at = ? WHERE id = ?", [(rev, stamp, i) for i in ids])
        self._journal(db, ids, rev)

    def set_state(self, ids: Sequence[int], state: str) -> dict[int, str]:
        """Returns the previous states, so the caller can undo."""
        if state not in STATES:
            raise StoreError(f"unknown state {state!r}; use one of {', '.join(STATES)}")
        with self._changing_states() as db:
            before = self.states(ids)
            db.executemany("UPDATE papers SET state = ? WHERE id = ?", [(state, i) for i in ids])
            self._touch(db, ids)
        return before

    def restore_states(self, states: dict[int, str]) -> None:
        with self._changing_states() as db:
            db.executemany("UPDATE papers SET state = ? WHERE id = ?", [(s, i) for i, s in states.items()])
            self._touch(db, list(states))

    def set_priority(self, ids: Sequence[int], priority: int | None) -> dict[int, int | None]:
        """1–3 (1 first), or None to clear; returns the previous priorities, so the caller can undo."""
        if priority is not None and priority not in PRIORITIES:
            raise StoreError(f"priority {priority!r}: use 1, 2 or 3, or 0 to clear it")
        with self._changing_states() as db:  # a priority triages a paper (triaged_states), as a state does
            before = self.priorities(ids)
            db.executemany("UPDATE papers SET priority = ? WHERE id = ?", [(priority, i) for i in ids])
            self._touch(db, ids)
        return before

    def restore_priorities(self, priorities: dict[int, int | None]) -> None:
        with self._changing_states() as db:
            db.executemany("UPDATE papers SET priority = ? WHERE id = ?", [(p, i) for i, p in priorities.items()])
            self._touch(db, list(priorities))

    def priorities(self, ids: Sequence[int]) -> dict[int, int | None]:
        out: dict[int, int | None] = {}
        column = self.priority_sql
        for chunk in _chunks(list(ids), 900):
            marks = ",".join("?" * len(chunk))
            out.update(dict(self.db.execute(f"SELECT p.id, {column} FROM papers p WHERE p.id IN ({marks})", chunk)))
        return out

    def states(self, ids: Sequence[int]) -> dict[int, str]:
        out = {}
        for chunk in _chunks(list(ids), 900):
            marks = ",".join("?" * len(chunk))
            out.update(dict(self.db.execute(f"SELECT id, state FROM papers WHERE id IN ({marks})", chunk)))
        return out

    def _tag_id(self, db: sqlite3.Connection, name: str, respell: bool = False, imported: bool = False) -> int:
        """The tag of this name in any case (the column's NOCASE), made if there is none. `respell`: the
        reader typed it, and a tag is spelt as it was last typed ("llm" becomes "LLM" on every paper)."""
        row = db.execute("SELECT id, name FROM tags WHERE name = ?", (name,)).fetchone()
        if row is None and imported:  # a keyword a file brought (has_imported_tags)
            return int(db.execute("INSERT INTO tags(name, imported) VALUES (?, 1)", (name,)).lastrowid or 0)
        if row is None:
            return int(db.execute("INSERT INTO tags(name) VALUES (?)", (name,)).lastrowid or 0)
        if respell and row[1] != name:
            db.execute("UPDATE tags SET name = ? WHERE id = ?", (name, row[0]))
            self._touch(db, [r[0] for r in db.execute("SELECT paper_id FROM paper_tags WHERE tag_id = ?", (row[0],))])
        return int(row[0])

    def _add_tags(
        self,
        db: sqlite3.Connection,
        ids: Sequence[int],
        tags: Iterable[str],
        respell: bool = False,
        mine: bool = True,
        given: TagsGiven | None = None,
    ) -> None:
        """The user's tags (`mine`: a keyword of that name becomes their tag, on every paper that has it; else a
        tag keeps what it is, and one made here is theirs). `given` (an import's) counts the papers each tag was
        added to (not those that had it)."""
        for tag in tags:
            tid = self._tag_id(db, tag, respell)
            if mine and self.has_imported_tags:
                db.execute("UPDATE tags SET imported = 0 WHERE id = ? AND imported = 1", (tid,))
            cur = db.executemany(
                "INSERT OR IGNORE INTO paper_tags(paper_id, tag_id) VALUES (?, ?)", [(i, tid) for i in ids]
            )
            if given is not None and cur.rowcount > 0:
                row = db.execute("SELECT name FROM tags WHERE id = ?", (tid,)).fetchone()
                given.file_tags[row[0] if row else tag] += cur.rowcount

    def _add_imported_tags(
        self, db: sqlite3.Connection, ids: Sequence[int], tags: Iterable[str], yours: TagsGiven | None = None
    ) -> None:
        """A file's keywords: a tag the library has keeps what it is (the user's stays theirs), one it has not
        is made a keyword. `yours` counts the papers a keyword gave one of the user's tags (the summary says so)."""
        for tag in tags:
            tid = self._tag_id(db, tag, imported=self.has_imported_tags)
            cur = db.executemany(
                "INSERT OR IGNORE INTO paper_tags(paper_id, tag_id) VALUES (?, ?)", [(i, tid) for i in ids]
            )
            if yours is not None and cur.rowcount > 0 and self.has_imported_tags:
                if tid not in yours.names:
                    row = db.execute("SELECT name FROM tags WHERE id = ? AND imported = 0", (tid,)).fetchone()
                    yours.names[tid] = row[0] if row else None
                if name := yours.names[tid]:
                    yours.papers[name] += cur.rowcount

    @property
    def has_imported_tags(self) -> bool:
        """Whether tags keep where they came from (migration 0024; a library opened read-only may predate it)."""
        if self._has_imported is None:
            self._has_imported = "imported" in _columns(self.db, "tags")
        return self._has_imported

    @property
    def _own_only(self) -> str:
        """The condition that keeps the user's tags in a query on tags t ("" before migration 0024)."""
        return " AND t.imported = 0" if self.has_imported_tags else ""

    def add_file_tags(
        self, ids: Sequence[int], tags: Sequence[str], keywords: Sequence[str], yours: TagsGiven | None = None
    ) -> None:
        """What a file says of papers the library has (a re-import, a duplicate merged): its tags as the
        user's, its keywords as keywords unless the library has them as tags, every spelling kept (`yours`
        counts the user's tags its keywords gave)."""
        with self.transaction() as db:
            self._add_tags(db, ids, tags, given=yours)
            if tags and yours is not None:
                yours.names.clear()  # a keyword made the user's tag (_add_tags): looked up again
            self._add_imported_tags(db, ids, keywords, yours)
            self._touch(db, ids)

    def add_tags(self, ids: Sequence[int], tags: Sequence[str]) -> dict[int, list[str]]:
        """Returns each paper's tags before, for undo."""
        with self.transaction() as db:
            before = self.tags_of(ids)
            self._add_tags(db, ids, tags, respell=True)
            self._touch(db, ids)
        return before

    def respell_tags(self, names: Iterable[str]) -> list[int]:
        """Spell these tags so, each the tag of that name in any case (one the library lacks is not made);
        returns the papers whose tags were respelt."""
        touched: list[int] = []
        with self.transaction() as db:
            for name in names:
                row = db.execute("SELECT name FROM tags WHERE name = ?", (name,)).fetchone()
                if row is not None and row[0] != name:
                    self._tag_id(db, name, respell=True)
                    touched += self.papers_with_tag(name)
        return touched

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

    def set_tags(
        self, tags_by_paper: dict[int, list[str]], imported: Mapping[int, Iterable[str]] | None = None
    ) -> dict[int, list[str]]:
        """Each paper gets exactly these tags (undo of any tag edit). A tag keeps what it is, keyword or the
        user's, and one made here is theirs; `imported` (a keyword typed as a tag, one renamed) says which of
        each paper's tags are keywords, the rest the user's."""
        ids = list(tags_by_paper)
        with self.transaction() as db:
            before = self.tags_of(ids)
            for pid, tags in tags_by_paper.items():
                db.execute("DELETE FROM paper_tags WHERE paper_id = ?", (pid,))
                self._add_tags(db, [pid], tags, respell=True, mine=False)
                if imported is not None and self.has_imported_tags:
                    keywords = set(imported.get(pid, ()))
                    db.executemany(
                        "UPDATE tags SET imported = ? WHERE name = ?", [(int(tag_key(t) in keywords), t) for t in tags]
                    )
            self._drop_unused_tags(db)
            self._touch(db, ids)
        return before

    def imported_of(self, ids: Sequence[int]) -> dict[int, set[str]]:
        """Each paper's keywords (tag_key): its tags that are keywords, not the user's tags."""
        return {pid: {tag_key(t) for t in names} for pid, names in self.tags_of(ids, keywords=True).items()}

    def imported_links(self) -> list[tuple[int, str]]:
        """Every (paper, keyword)."""
        if not self.has_imported_tags:
            return []
        return list(
            self.db.execute(
                "SELECT pt.paper_id, t.name FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id WHERE t.imported = 1"
            )
        )

    def mark_imported(self, names: Iterable[str], imported: bool) -> None:
        """These keywords become the user's tags (False), on every paper; or keywords again (True: undo)."""
        names = list(names)
        if not self.has_imported_tags or not names:
            return
        with self.transaction() as db:
            db.executemany("UPDATE tags SET imported = ? WHERE name = ?", [(int(imported), n) for n in names])
            papers: set[int] = set()
            for chunk in _chunks(names, 900):
                papers.update(
                    r[0]
                    for r in db.execute(
                        "SELECT pt.paper_id FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id"
                        f" WHERE t.name IN ({','.join('?' * len(chunk))})",
                        chunk,
                    )
                )
            self._touch(db, sorted(papers))

    def tag_marks(self, names: Iterable[str]) -> dict[str, tuple[str, bool]]:
        """Of these names, the tags the library has (by tag_key): each one's name and whether it is a keyword."""
        names = list(dict.fromkeys(names))
        out: dict[str, tuple[str, bool]] = {}
        imported = "imported" if self.has_imported_tags else "0"
        for chunk in _chunks(names, 900):
            for name, kw in self.db.execute(
                f"SELECT name, {imported} FROM tags WHERE name IN ({','.join('?' * len(chunk))})", chunk
            ):
                out[tag_key(name)] = (name, bool(kw))
        return out

    def tag_summary(self) -> tuple[list[tuple[str, int]], set[str]]:
        """Each tag with its count, in the order a reader looks for its name (collation.name_key: "ℓ₁ norm"
        among the l's, not after z), and the keywords (`keyword_tags`), in one query."""
        imported = "t.imported" if self.has_imported_tags else "0"
        rows = self.db.execute(
            f"SELECT t.name, count(pt.paper_id), {imported} FROM tags t JOIN paper_tags pt ON pt.tag_id = t.id"
            " GROUP BY t.id"
        ).fetchall()
        rows.sort(key=lambda row: name_key(row[0]))
        return [(name, n) for name, n, _ in rows], {name for name, _, kw in rows if kw}

    def keyword_tags(self) -> set[str]:
        """The keywords: tags files gave that the user has not made theirs (the sidebar's Keywords)."""
        if not self.has_imported_tags:
            return set()
        return {name for (name,) in self.db.execute("SELECT name FROM tags WHERE imported = 1")}

    def _drop_unused_tags(self, db: sqlite3.Connection) -> None:
        db.execute("DELETE FROM tags WHERE id NOT IN (SELECT DISTINCT tag_id FROM paper_tags)")

    def _tags_marked(self, ids: Sequence[int]) -> Iterator[tuple[int, str, int]]:
        """(paper, tag, 1 if the tag is a keyword) of these papers, each paper's tags in the sidebar's order
        (collation.name_key: "ℓ₁ norm" among the l's), so that a paper shown or exported lists them as the
        sidebar does; SQLite's NOCASE put every name that opens with a letter beyond ASCII after z."""
        imported = "t.imported" if self.has_imported_tags else "0"
        for chunk in _chunks(list(ids), 900):
            rows = self.db.execute(
                f"SELECT pt.paper_id, t.name, {imported} FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id"
                f" WHERE pt.paper_id IN ({','.join('?' * len(chunk))})",
                chunk,
            ).fetchall()
            rows.sort(key=lambda row: name_key(row[1]))
            yield from rows

    def tags_of(self, ids: Sequence[int], keywords: bool | None = None) -> dict[int, list[str]]:
        """Each paper's tags in the sidebar's order (_tags_marked): all of them, or only its keywords (True), or
        only the user's (False)."""
        out: dict[int, list[str]] = {i: [] for i in ids}
        for pid, name, keyword in self._tags_marked(ids):
            if keywords is None or bool(keyword) is keywords:
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

    def _state_key(self) -> tuple[int, int, int]:
        """What state counts depend on: another connection's commits, this store's inserts and state writes."""
        return (self.db.execute("PRAGMA data_version").fetchone()[0], self._epoch, self._state_writes)

    def state_counts(self) -> dict[str, int]:
        """Counted through the state index, the unread as the rest: GROUP BY state scanned all of it
        on every r/s/u; these read only the triaged papers' entries, few of them. Kept, like
        `count`, until states change or papers are added (a tag or a note leaves them as they are)."""
        key = self._state_key()
        kept = getattr(self._local, "state_counts", None)
        if kept is not None and kept[0] == key:
            return dict(kept[1])
        db = self.db
        total = self.count()
        triaged = TRIAGED_STATES
        counts = {s: db.execute("SELECT count(*) FROM papers WHERE state = ?", (s,)).fetchone()[0] for s in triaged}
        counts[DEFAULT_STATE] = total - sum(counts.values())
        ordered = {s: counts[s] for s in STATES}
        self._local.state_counts = (key, ordered)
        return dict(ordered)

    def triaged_states(self) -> Mapping[int, str]:
        """Every triaged paper — a state other than unread, or a priority (the Suggested papers are the rest:
        untriaged_count) — and its state: looked up in the state and priority indexes, so it costs what has
        been triaged, not the library. Kept (read-only) until states or priorities change."""
        key = self._state_key()
        kept = getattr(self._local, "triaged", None)
        if kept is None or kept[0] != key:
            triaged = TRIAGED_STATES
            rows = self.db.execute(
                f"SELECT id, state FROM papers WHERE state IN ({','.join('?' * len(triaged))})", triaged
            ).fetchall()
            if self.priority_sql != "NULL":  # unread with a priority, through the priority's partial index
                rows += self.db.execute(
                    f"SELECT id, state FROM papers p WHERE {_UNREAD_WITH_PRIORITY}", (DEFAULT_STATE,)
                ).fetchall()
            kept = self._local.triaged = (key, MappingProxyType(dict(rows)))
        return kept[1]

    def count_where(self, state: str | None = None, tag: str | None = None) -> int:
        """How many papers have this state and tag (a smart list without a query)."""
        if state is None and tag is None:
            return self.count()
        if tag is None and state is not None:
            return self.state_counts().get(state, 0)
        where, args = self._filters(state, tag)
        return int(self.db.execute(f"SELECT count(*) FROM papers p{where}", args).fetchone()[0])

    def set_note(self, paper_id: int, note: str) -> str:
        with self.transaction() as db:
            row = db.execute("SELECT note FROM papers WHERE id = ?", (paper_id,)).fetchone()
            if row is None:
                raise StoreError(f"no paper {paper_id}")
            if row[0] != note:
                db.execute("UPDATE papers SET note = ? WHERE id = ?", (note, paper_id))
                self._touch(db, [paper_id])
            return str(row[0])

    def save_note(self, paper_id: int, note: str, base: str, keep_both: bool = True) -> tuple[str, str]:
        """Store `note`, written over the note read as `base`, in one transaction: if the note stored now is
        neither (another process changed it meanwhile: the command line, a second window), both are kept, the
        other's after NOTE_SEPARATOR; a note emptied on one side keeps the other's. Without `keep_both` (an
        undo or a redo) such a note is left as it is: the step it would take back or do again is not what is
        stored. Returns the note stored before and the one stored now."""
        with self.transaction() as db:
            row = db.execute("SELECT note FROM papers WHERE id = ?", (paper_id,)).fetchone()
            if row is None:
                raise StoreError(f"no paper {paper_id}")
            stored = str(row[0])
            if stored in (base, note):
                new = note
            elif not keep_both:
                new = stored
            elif not stored.strip():
                new = note
            elif not note.strip():
                new = stored
            else:
                new = f"{note}{NOTE_SEPARATOR}{stored.strip()}"  # what was typed stays as typed, to the end
            if new != stored:
                db.execute("UPDATE papers SET note = ? WHERE id = ?", (new, paper_id))
                self._touch(db, [paper_id])
            return stored, new

    def id_of_key(self, key: str) -> int | None:
        """The paper whose citation key is `key` (in any case, as keys are unique), or None."""
        key = key.strip()
        if not key:
            return None
        row = self.db.execute("SELECT id FROM papers WHERE citation_key = ? COLLATE NOCASE", (key,)).fetchone()
        return int(row[0]) if row else None

    def citation_keys(self, ids: Sequence[int]) -> dict[int, str]:
        out: dict[int, str] = {}
        for chunk in _chunks(list(ids), 900):
            marks = ",".join("?" * len(chunk))
            rows = self.db.execute(f"SELECT id, citation_key FROM papers WHERE id IN ({marks})", chunk)
            out.update({pid: key or "" for pid, key in rows})
        return out

    def set_citation_key(self, paper_id: int, key: str) -> str:
        """The user's own key for a paper (checked, unique whatever the case); returns the previous one."""
        try:
            key = citekeys.check_key(key)
        except ValueError as exc:
            raise StoreError(str(exc)) from None
        with self.transaction() as db:
            row = db.execute("SELECT citation_key FROM papers WHERE id = ?", (paper_id,)).fetchone()
            if row is None:
                raise StoreError(f"no paper {paper_id}")
            if row[0] == key:
                return str(row[0])
            other = db.execute(
                "SELECT uid FROM papers WHERE citation_key = ? COLLATE NOCASE AND id != ?", (key, paper_id)
            ).fetchone()
            if other:
                raise StoreError(f"citation key {key!r} is taken by paper {other[0]}")
            db.execute("UPDATE papers SET citation_key = ? WHERE id = ?", (key, paper_id))
            self._touch(db, [paper_id])
            return str(row[0] or "")

    def key_holders(self, keys: Sequence[str]) -> dict[str, int]:
        """citation key (lower case) → the paper that has it, for those of `keys` some paper has."""
        out: dict[str, int] = {}
        for chunk in _chunks(sorted({k.lower() for k in keys if k}), 900):
            marks = ",".join("?" * len(chunk))
            rows = self.db.execute(
                f"SELECT lower(citation_key), id FROM papers WHERE citation_key COLLATE NOCASE IN ({marks})", chunk
            )
            out.update((str(k), int(i)) for k, i in rows)
        return out

    def set_citation_keys(self, keys: Mapping[int, str]) -> None:
        """Several papers' keys at once, as one change: keys the papers trade among themselves (a's to b, b's
        to a) are allowed; StoreError if one is no valid key, is given twice, or another paper has it."""
        try:
            wanted = {pid: citekeys.check_key(key) for pid, key in keys.items()}
        except ValueError as exc:
            raise StoreError(str(exc)) from None
        if not wanted:
            return
        if len({k.lower() for k in wanted.values()}) < len(wanted):
            raise StoreError("a citation key is given to two papers")
        with self.transaction() as db:
            for pid, holder in self.key_holders(list(wanted.values())).items():
                if holder not in wanted:
                    raise StoreError(f"citation key {pid!r} is taken by another paper")
            ids = list(wanted)
            db.executemany("UPDATE papers SET citation_key = NULL WHERE id = ?", [(i,) for i in ids])
            db.executemany("UPDATE papers SET citation_key = ? WHERE id = ?", [(k, i) for i, k in wanted.items()])
            self._touch(db, ids)

    def set_user_title(self, paper_id: int, title: str | None) -> str | None:
        title = title.strip() if title else None
        with self.transaction() as db:
            row = db.execute("SELECT user_title FROM papers WHERE id = ?", (paper_id,)).fetchone()
            if row is None:
                raise StoreError(f"no paper {paper_id}")
            db.execute("UPDATE papers SET user_title = ? WHERE id = ?", (title or None, paper_id))
            _set_columns(db, [paper_id])
            self._touch(db, [paper_id])
            return row[0]

    # ---- topics: what a computation reads, and what it stores in one go ----

    def topic_rows(self) -> Iterator[tuple[int, str, str]]:
        """(id, imported title, plain abstract) of every paper in id order, streamed: what topics are
        computed from (the imported title, not the user's own: topics follow content)."""
        for pid, title, abstract in self.db.execute("SELECT id, auto_title, abstract FROM papers ORDER BY id"):
            yield pid, title, _plain_abstract(abstract)

    def texts(self, ids: Sequence[int]) -> dict[int, tuple[str, str]]:
        out: dict[int, tuple[str, str]] = {}
        for chunk in _chunks(list(ids), 900):
            rows = self.db.execute(f"SELECT id, auto_title, abstract FROM papers WHERE id IN ({_marks(chunk)})", chunk)
            out.update({r[0]: (r[1], _plain_abstract(r[2])) for r in rows})
        return out

    def paper_topic_pairs(self) -> list[tuple[int, int]]:
        return list(self.db.execute("SELECT paper_id, topic_id FROM paper_topics ORDER BY paper_id"))

    def save_topics(
        self,
        topics: Sequence[tuple[int, list[str], int, float, float]],
        pairs: Iterable[tuple[int, int]],
        map_blobs: tuple[bytes, bytes, bytes],
        meta: dict[str, str],
    ) -> None:
        """Replace every topic, every paper's topic and the map, all or nothing. Papers added while the
        computation ran keep no topic until the next one."""
        started = time.perf_counter()
        with self.transaction() as db:
            db.execute("DELETE FROM paper_topics")
            db.execute("DELETE FROM topics")
            db.executemany(
                "INSERT INTO topics(id, phrases, size, x, y) VALUES (?, ?, ?, ?, ?)",
                [(tid, json.dumps(phrases, ensure_ascii=False), size, x, y) for tid, phrases, size, x, y in topics],
            )
            db.executemany("INSERT INTO paper_topics(paper_id, topic_id) VALUES (?, ?)", pairs)
            db.execute("INSERT OR REPLACE INTO topic_map(id, paper_ids, xy, topic_ids) VALUES (1, ?, ?, ?)", map_blobs)
            meta = {**meta, "store_seconds": f"{time.perf_counter() - started:.3f}"}
            db.executemany(
                "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", [(f"topics.{k}", v) for k, v in meta.items()]
            )

    def topics_meta(self) -> dict[str, str]:
        rows = self.db.execute("SELECT key, value FROM meta WHERE key LIKE 'topics.%'")
        return {k.removeprefix("topics."): v for k, v in rows}

    def topics(self) -> list[Topic]:
        """Every topic, largest first, with its papers counted by reading state (through the state index:
        the read and skimmed are few, the unread are the rest)."""
        db = self.db
        topics = [
            Topic(id=r[0], phrases=json.loads(r[1]), size=r[2], x=r[3], y=r[4])
            for r in db.execute("SELECT id, phrases, size, x, y FROM topics ORDER BY size DESC, id")
        ]
        triaged: dict[int, dict[str, int]] = {}
        for tid, state, n in db.execute(
            "SELECT pt.topic_id, p.state, count(*) FROM papers p JOIN paper_topics pt ON pt.paper_id = p.id"
            f" WHERE p.state IN ({_marks(STATES[1:])}) GROUP BY pt.topic_id, p.state",
            STATES[1:],
        ):
            triaged.setdefault(tid, {})[state] = n
        prioritized: dict[int, int] = {}
        if self.priority_sql != "NULL":  # unread with a priority, through the priority's partial index
            prioritized = dict(
                db.execute(
                    "SELECT pt.topic_id, count(*) FROM papers p JOIN paper_topics pt ON pt.paper_id = p.id"
                    f" WHERE {_UNREAD_WITH_PRIORITY} GROUP BY pt.topic_id",
                    (DEFAULT_STATE,),
                )
            )
        for t in topics:
            got = triaged.get(t.id, {})
            t.counts = {s: got.get(s, 0) for s in STATES}
            t.counts[DEFAULT_STATE] = t.size - sum(got.values())
            t.prioritized = prioritized.get(t.id, 0)
        return topics

    def topic_of(self, ids: Sequence[int]) -> dict[int, int]:
        out: dict[int, int] = {}
        for chunk in _chunks(list(ids), 900):
            rows = self.db.execute(
                f"SELECT paper_id, topic_id FROM paper_topics WHERE paper_id IN ({_marks(chunk)})", chunk
            )
            out.update(dict(rows))
        return out

    def papers_in_topics(self, topics: Sequence[int]) -> set[int]:
        if not topics:
            return set()
        rows = self.db.execute(f"SELECT paper_id FROM paper_topics WHERE topic_id IN ({_marks(topics)})", list(topics))
        return {r[0] for r in rows}

    def papers_after(self, paper_id: int) -> int:
        """How many papers have a greater id than this (those added since; a range of the primary key)."""
        return int(self.db.execute("SELECT count(*) FROM papers WHERE id > ?", (paper_id,)).fetchone()[0])

    def topic_map(self) -> tuple[bytes, bytes, bytes] | None:
        row = self.db.execute("SELECT paper_ids, xy, topic_ids FROM topic_map WHERE id = 1").fetchone()
        return (bytes(row[0]), bytes(row[1]), bytes(row[2])) if row else None

    def content_fingerprint(self, removed: bool = True) -> str:
        """Changes when papers are added or their text revised (what topics are computed from), not when papers
        are removed or brought back: the removed ones count as they were (each topic keeps its other papers,
        and a paper brought back its topic), so that a removal does not call for computing topics again. Not
        `removed`: the papers alone, as topics computed before session 22 stored it."""
        count, top, updated = self.db.execute("SELECT count(*), max(id), max(updated_at) FROM papers").fetchone()
        if removed and self.has_table("removed_papers"):
            more, last, revised = self.db.execute(
                "SELECT count(*), max(id), max(json_extract(paper, '$.updated_at')) FROM removed_papers"
            ).fetchone()
            count, top, updated = count + more, max(top or 0, last or 0), max(updated or "", revised or "")
        return f"{count}:{top or 0}:{updated or ''}"

    # ---- the interest ranking's inputs: the marks and "my interests" ----

    def interest_marks(self) -> tuple[list[int], list[int]]:
        """(positive, negative) papers, in id order: read, skimmed, queued or given a priority are positive;
        skipped (with no priority) negative. Through the state index and the priority's (0013): it costs the
        triaged papers, not the library."""
        triaged = TRIAGED_STATES
        priority = self.priority_sql
        sql = f"SELECT id, state, {priority} FROM papers p WHERE state IN ({','.join('?' * len(triaged))})"
        if priority != "NULL":
            sql += f" UNION SELECT id, state, {priority} FROM papers p WHERE {priority} IS NOT NULL"
        positive: list[int] = []
        negative: list[int] = []
        for pid, state, prio in self.db.execute(sql + " ORDER BY 1", triaged):
            (negative if state == "skipped" and prio is None else positive).append(pid)
        return positive, negative

    def untriaged_count(self) -> int:
        """Papers unread and without a priority: what the ranking suggests from."""
        unread = self.state_counts()[DEFAULT_STATE]
        if self.priority_sql == "NULL":
            return unread
        # through the priority's partial index (few rows): "+state" keeps SQLite off the state index, whose
        # unread entries are nearly the whole library
        row = self.db.execute(f"SELECT count(*) FROM papers p WHERE {_UNREAD_WITH_PRIORITY}", (DEFAULT_STATE,))
        return unread - int(row.fetchone()[0])

    def interests(self) -> tuple[list[str], str]:
        """The interests texts in the order set, and where they came from ('' when typed)."""
        if not self.has_table("interests"):  # a read-only library older than migration 0013
            return [], ""
        rows = self.db.execute("SELECT text, source FROM interests ORDER BY id").fetchall()
        return [r[0] for r in rows], (rows[0][1] if rows else "")

    def set_interests(self, texts: Sequence[str], source: str = "") -> tuple[list[str], str]:
        """Replace the interests (none: cleared); returns them as they were, for undo."""
        with self.transaction() as db:
            before = self.interests()
            db.execute("DELETE FROM interests")
            stamp = now()
            db.executemany(
                "INSERT INTO interests(text, source, set_at) VALUES (?, ?, ?)",
                [(t, source, stamp) for t in texts if t.strip()],
            )
            return before

    # ---- smart lists ----

    def smart_lists(self) -> list[SmartList]:
        """The saved lists, in the user's order."""
        if self.read_only and not self.has_table("smart_lists"):
            return []
        rows = self.db.execute("SELECT id, name, query, state, tag FROM smart_lists ORDER BY position, id")
        return [SmartList(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    def smart_list(self, name: str) -> SmartList:
        """The list of that name (any case), or a StoreError that names the lists there are."""
        lists = self.smart_lists()
        for sl in lists:
            if sl.name.casefold() == name.strip().casefold():
                return sl
        known = ", ".join(f"“{sl.name}”" for sl in lists) or "none yet"
        raise StoreError(f"no list named “{name}” (lists: {known})")

    @staticmethod
    def _check_list(name: str, state: str | None) -> str:
        name = " ".join(name.split())
        if not name:
            raise StoreError("a list needs a name")
        if state is not None and state not in STATES:
            raise StoreError(f"unknown state {state!r}; use one of {', '.join(STATES)}")
        return name

    def _name_taken(self, db: sqlite3.Connection, name: str, other_than: int | None = None) -> None:
        row = db.execute("SELECT id FROM smart_lists WHERE name = ?", (name,)).fetchone()
        if row is not None and row[0] != other_than:
            raise StoreError(f"there is a list named “{name}” already")

    def add_smart_list(
        self, name: str, query: str = "", state: str | None = None, tag: str | None = None,
        position: int | None = None, list_id: int | None = None,
    ) -> SmartList:  # fmt: skip
        """A new list, last (or at `position`, with `list_id`: how undoing a deletion puts it back)."""
        name = self._check_list(name, state)
        with self.transaction() as db:
            self._name_taken(db, name)
            if position is None:
                position = int(db.execute("SELECT COALESCE(max(position), -1) + 1 FROM smart_lists").fetchone()[0])
            else:
                db.execute("UPDATE smart_lists SET position = position + 1 WHERE position >= ?", (position,))
            cur = db.execute(
                "INSERT INTO smart_lists(id, name, query, state, tag, position, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (list_id, name, query.strip(), state, tag, position, now()),
            )
            return SmartList(int(cur.lastrowid or 0), name, query.strip(), state, tag)

    def update_smart_list(self, sl: SmartList) -> SmartList:
        """Give the list `sl.id` this name and definition; returns the list as it was, for undo."""
        name = self._check_list(sl.name, sl.state)
        with self.transaction() as db:
            row = db.execute("SELECT id, name, query, state, tag FROM smart_lists WHERE id = ?", (sl.id,)).fetchone()
            if row is None:
                raise StoreError(f"the list “{sl.name}” is gone")
            self._name_taken(db, name, other_than=sl.id)
            db.execute("UPDATE smart_lists SET name = ?, query = ?, state = ?, tag = ? WHERE id = ?",
                       (name, sl.query.strip(), sl.state, sl.tag, sl.id))  # fmt: skip
            return SmartList(*row)

    def delete_smart_list(self, list_id: int) -> tuple[SmartList, int] | None:
        """Delete a list; returns it and its place in the order (for undo), or None if there was none."""
        with self.transaction() as db:
            lists = self.smart_lists()
            place = next((i for i, sl in enumerate(lists) if sl.id == list_id), None)
            if place is None:
                return None
            db.execute("DELETE FROM smart_lists WHERE id = ?", (list_id,))
            self._renumber(db, [sl.id for sl in lists if sl.id != list_id])
            return lists[place], place

    def move_smart_list(self, list_id: int, place: int) -> int:
        """Move a list to `place` in the order (clamped); returns where it was."""
        with self.transaction() as db:
            order = [sl.id for sl in self.smart_lists()]
            if list_id not in order:
                raise StoreError("that list is gone")
            was = order.index(list_id)
            order.remove(list_id)
            order.insert(max(0, min(place, len(order))), list_id)
            self._renumber(db, order)
            return was

    @staticmethod
    def _renumber(db: sqlite3.Connection, order: Sequence[int]) -> None:
        db.executemany("UPDATE smart_lists SET position = ? WHERE id = ?", [(i, lid) for i, lid in enumerate(order)])

    # ---- duplicates: further sources of a paper, the pairs to decide, merging two papers into one ----

    def duplicate_candidates(
        self, title_keys: Sequence[str], text_keys: Sequence[str], source_id: int, doi_keys: Sequence[str] = ()
    ) -> list[tuple[int, str, str, str, list[str], int | None, str, str, str]]:
        """Papers of other sources that share a title key, a text key or a DOI (biblio.doi_key) with these: (id,
        title key, text key, plain title, authors, year, venue, plain abstract, DOI). Found by the keys' indexes:
        an import asks this a chunk at a time and never holds the library's abstracts."""
        if not self.has_table("paper_keys"):
            return []
        found: dict[int, tuple[int, str, str, str, list[str], int | None, str, str, str]] = {}
        doi = self._doi_sql("p.")
        others = (" AND p.source_id IS NOT ? AND NOT EXISTS (SELECT 1 FROM paper_sources ps"
                  " WHERE ps.paper_id = p.id AND ps.source_id = ?)")  # fmt: skip
        queries = [
            (keys, "SELECT p.id, k.title_key, k.text_key, p.auto_title, p.authors, p.year, p.venue, p.abstract,"
             f" {doi} FROM paper_keys k JOIN papers p ON p.id = k.paper_id WHERE k.{column} IN ({{marks}})"
             f" AND k.{column} != ''")  # what lets SQLite use the key's partial index (else: every paper read)
            for column, keys in (("title_key", title_keys), ("text_key", text_keys))
        ]  # fmt: skip
        if doi != "''":  # by the DOI's index (0025), which holds only the papers with a record
            queries.append((doi_keys, "SELECT p.id, COALESCE(k.title_key, ''), COALESCE(k.text_key, ''),"
                            f" p.auto_title, p.authors, p.year, p.venue, p.abstract, {doi} FROM papers p LEFT JOIN"
                            f" paper_keys k ON k.paper_id = p.id WHERE {_DOI_SQL.format(p='p.')} IN ({{marks}})"
                            " AND p.bib IS NOT NULL"))  # fmt: skip
        for keys, sql in queries:
            wanted = sorted({k for k in keys if k})
            for chunk in _chunks(wanted, 900):
                rows = self.db.execute(sql.format(marks=_marks(chunk)) + others, [*chunk, source_id, source_id])
                for r in rows:
                    found[r[0]] = (r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], r[6], _plain_abstract(r[7]),
                                   r[8] or "")  # fmt: skip
        return list(found.values())

    def link_source(self, paper_id: int, source_id: int, content_hash: str, title: str, source_key: str) -> None:
        """Record that a source's record is this paper (merged into it at import)."""
        with self.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO paper_sources(paper_id, source_id, content_hash, title, source_key, added_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (paper_id, source_id, content_hash, title, source_key, now()),
            )

    def relink_source(self, paper_id: int, source_id: int, content_hash: str, title: str) -> None:
        """A merged source's record was revised: its link now carries the new hash (the paper's text stays)."""
        with self.transaction() as db:
            db.execute(
                "UPDATE paper_sources SET content_hash = ?, title = ? WHERE paper_id = ? AND source_id = ?",
                (content_hash, title, paper_id, source_id),
            )

    def linked_ids(self, source_id: int) -> set[int]:
        """The papers a source's records were merged into (they belong to another source)."""
        if not self.has_table("paper_sources"):
            return set()
        rows = self.db.execute("SELECT paper_id FROM paper_sources WHERE source_id = ?", (source_id,))
        return {r[0] for r in rows}

    def paper_sources(self, paper_id: int) -> list[str]:
        """The names of every source a paper came from, its own first."""
        rows = self.db.execute(
            "SELECT s.name FROM papers p JOIN sources s ON s.id = p.source_id WHERE p.id = ?"
            " UNION ALL SELECT s.name FROM paper_sources ps JOIN sources s ON s.id = ps.source_id"
            " WHERE ps.paper_id = ?",
            (paper_id, paper_id),
        ).fetchall() if self.has_table("paper_sources") else []  # fmt: skip
        return list(dict.fromkeys(r[0] for r in rows))

    def fill_missing(self, paper_id: int, p: NewPaper, rev: int, exported: bool = False) -> bool:
        """What a merged record has and the paper lacks (an abstract, authors, a year, a link, a bibliographic
        record, a title where the paper's is derived from its abstract) fills the gap, and an author list cut
        short is carried on by a longer one that starts with it (duplicates.fuller_authors); the url and the
        abstract's links filled in join the paper's links, after its own. Nothing else the paper has is
        replaced (the user's title stays the one shown). Returns whether anything changed. `exported`: the
        record may be the app's own export of the paper, whose record of a paper without one (its type and
        the venue as journal or booktitle) and whose title derived from the abstract say nothing new."""
        from readinglist.importers.duplicates import fuller_authors

        with self.transaction() as db:
            row = db.execute(
                "SELECT abstract, authors, year, url, bib, title, links, venue, auto_title, user_title FROM papers"
                " WHERE id = ?",
                (paper_id,),
            ).fetchone()
            if row is None:
                return False
            sets: dict[str, object] = {}
            more: list[str] = []  # links the paper gains: the url filled in, the links of the abstract filled in
            if not row[0] and p.abstract:
                sets["abstract"] = pack(p.abstract)
                more += p.links
            if row[1] == "[]" and p.authors:
                sets["authors"] = json.dumps(p.authors, ensure_ascii=False)
            elif p.authors and (fuller := fuller_authors(json.loads(row[1]), p.authors)) is not None:
                sets["authors"] = json.dumps(fuller, ensure_ascii=False)  # a list cut short ("et al.") carried on
            if row[2] is None and p.year is not None:
                sets["year"] = p.year
            if not row[3] and p.url:
                sets["url"] = p.url
                more.insert(0, p.url)
            said = {n: v for n, v in p.bib.items() if n != "type" and not (n in biblio.CONTAINERS and v == row[7])}
            if row[4] is None and p.bib and (said or not exported):
                sets["bib"] = biblio.dumps(p.bib)
            # a title derived from the abstract gives way to the file's; not to the app's export of that title
            # (an export writes the user's own title where there is one: that is no file's title either)
            if not row[5] and p.title and not (exported and _same_title(p.title, row[8], row[9])):
                sets |= {"title": p.title, "auto_title": p.auto_title}
            if links := _with_links(json.loads(row[6]), more):
                sets["links"] = json.dumps(links)
            if not sets:
                return False
            self._set_filled(db, paper_id, sets, rev)
            if "bib" in sets:  # the paper's own file gave none: its re-import keeps the one filled in
                self._set_source_bib(db, [paper_id], biblio.dumps(p.bib), {})
            return True

    def add_possible_duplicates(self, pairs: Iterable[tuple[int, int, str]]) -> int:
        """List pairs for the user to decide (a pair they kept apart stays apart); returns how many are new."""
        stamp = now()
        with self.transaction() as db:
            before = db.total_changes
            db.executemany(
                "INSERT OR IGNORE INTO duplicate_pairs(a, b, status, why, found_at) VALUES (?, ?, 'possible', ?, ?)",
                [(min(a, b), max(a, b), why, stamp) for a, b, why in pairs if a != b],
            )
            return int(db.total_changes - before)

    def possible_duplicates(self) -> list[DuplicatePair]:
        """The pairs still to decide whose papers are both in the library, the latest found first."""
        if not self.has_table("duplicate_pairs"):
            return []
        rows = self.db.execute(
            "SELECT d.a, d.b, d.why, d.found_at FROM duplicate_pairs d WHERE d.status = 'possible'"
            " AND EXISTS (SELECT 1 FROM papers WHERE id = d.a) AND EXISTS (SELECT 1 FROM papers WHERE id = d.b)"
            " ORDER BY d.found_at DESC, d.a, d.b"
        )
        return [DuplicatePair(a, b, why, at) for a, b, why, at in rows]

    def duplicates_of(self, paper_id: int) -> list[DuplicatePair]:
        """The pairs still to decide that this paper is one of, the other paper in the library too."""
        if not self.has_table("duplicate_pairs"):
            return []
        rows = self.db.execute(
            "SELECT d.a, d.b, d.why, d.found_at FROM duplicate_pairs d WHERE d.status = 'possible'"
            " AND (d.a = ? OR d.b = ?) AND EXISTS (SELECT 1 FROM papers WHERE id = d.a)"
            " AND EXISTS (SELECT 1 FROM papers WHERE id = d.b) ORDER BY d.found_at DESC, d.a, d.b",
            (paper_id, paper_id),
        )
        return [DuplicatePair(a, b, why, at) for a, b, why, at in rows]

    def pair(self, a: int, b: int) -> tuple[str, str] | None:
        """(status, why) of a pair, or None."""
        if not self.has_table("duplicate_pairs"):
            return None
        row = self.db.execute(
            "SELECT status, why FROM duplicate_pairs WHERE a = ? AND b = ?", (min(a, b), max(a, b))
        ).fetchone()
        return None if row is None else (row[0], row[1])

    def set_pair(self, a: int, b: int, state: tuple[str, str] | None) -> tuple[str, str] | None:
        """Set a pair's (status, why), or forget it (None); returns what it was."""
        before = self.pair(a, b)
        with self.transaction() as db:
            if state is None:
                db.execute("DELETE FROM duplicate_pairs WHERE a = ? AND b = ?", (min(a, b), max(a, b)))
            else:
                db.execute(
                    "INSERT OR REPLACE INTO duplicate_pairs(a, b, status, why, found_at) VALUES (?, ?, ?, ?, ?)",
                    (min(a, b), max(a, b), state[0], state[1], now()),
                )
        return before

    def merge_papers(self, keep: int, other: int) -> Merge:
        """Merge `other` into `keep`: tags united, a triaged state and a priority kept (the kept paper's if it
        has one), notes joined, the user's title kept, what `keep` lacks filled from `other` (_fill_from: else
        its abstract and links were seen nowhere); `other` is kept whole among the removed papers (marked
        merged) and its sources become `keep`'s. Returns what `unmerge_papers` needs."""
        if keep == other:
            raise StoreError("a paper cannot be merged with itself")
        with self.transaction() as db:
            found = {p.id: p for p in self.papers([keep, other])}
            if keep not in found or other not in found:
                raise StoreError("both papers must be in the library")
            a, b = found[keep], found[other]
            moved = [(r[0], r[1]) for r in db.execute(
                "SELECT source_id, content_hash FROM paper_sources WHERE paper_id = ?", (other,))]  # fmt: skip
            own = db.execute("SELECT source_id, content_hash, title, source_key FROM papers WHERE id = ?", (other,))
            src = own.fetchone()
            pair = self.set_pair(keep, other, None)
            self.remove_papers([other])
            db.execute("UPDATE removed_papers SET merged_into = ? WHERE id = ?", (keep, other))
            db.execute("UPDATE OR IGNORE paper_sources SET paper_id = ? WHERE paper_id = ?", (keep, other))
            added = None
            if src is not None and src[0] is not None:
                kept_source = db.execute("SELECT source_id FROM papers WHERE id = ?", (keep,)).fetchone()[0]
                if kept_source != src[0]:
                    added = (src[0], src[1])
                    self.link_source(keep, src[0], src[1], src[2], src[3])
            tags = list(dict.fromkeys([*a.tags, *b.tags]))
            # each keeps what it is, keyword or the user's (one only the merged paper had was dropped with it)
            self.set_tags({keep: tags}, {keep: {tag_key(t) for t in [*a.keywords, *b.keywords]}})
            if a.state == DEFAULT_STATE and b.state != DEFAULT_STATE:
                self.set_state([keep], b.state)
            if a.priority is None and b.priority is not None:
                self.set_priority([keep], b.priority)
            if b.note.strip():
                self.set_note(keep, f"{a.note.rstrip()}{NOTE_SEPARATOR}{b.note.strip()}" if a.note.strip() else b.note)
            if not a.user_title and b.user_title:
                self.set_user_title(keep, b.user_title)
            filled = self._fill_from(db, keep, b)
            bib = None
            if biblio.richness(b.bib) > biblio.richness(a.bib):  # the fuller record, whole (never two mixed)
                bib = self.set_record(keep, b.bib)
            merge = Merge(
                keep, other, a.tags, a.state, a.priority, a.note, a.user_title, moved, added, pair, bib, filled
            )
            self._keep_merge(db, merge)
        return merge

    def _keep_merge(self, db: sqlite3.Connection, m: Merge) -> None:
        """Keep the merge in the merged paper's removed record, with the kept paper's annotations as it left
        them: `unremove_papers` takes back, later, what is still as the merge left it."""
        after = self.papers([m.kept])[0]
        row = db.execute("SELECT paper FROM removed_papers WHERE id = ?", (m.merged,)).fetchone()
        if row is None:
            return
        whole = json.loads(row[0])
        whole[REMOVED_MERGE] = {
            "merge": {**dataclasses.asdict(m), "filled": {k: [_json_value(v) for v in pair]
                                                          for k, pair in m.filled.items()}},
            "after": {"tags": after.tags, "state": after.state, "priority": after.priority, "note": after.note,
                      "user_title": after.user_title, "bib": after.bib},
        }  # fmt: skip
        db.execute(
            "UPDATE removed_papers SET paper = ? WHERE id = ?", (json.dumps(whole, ensure_ascii=False), m.merged)
        )

    def unremove_papers(self, ids: Sequence[int]) -> tuple[dict[int, int], dict[int, int], list[str]]:
        """`restore_papers`, for the command line's `unremove`: a paper merged into another (kept in the library)
        also takes its merge back from that paper, as the window's undo of a merge does, but only where the
        kept paper is still as the merge left it: its tags the merge gave it go (a tag given since stays), its
        state, priority, title and record go back unless changed since, and the merged paper's part of its
        note goes (a note edited since keeps what was written). Returns {removed id: id now}, {removed id: the
        kept paper} of those whose merge was taken back, and what of a merge was left on a kept paper, in words
        (all of it, for a merge made before merges were kept in the record)."""
        restored: dict[int, int] = {}
        said: list[str] = []
        plain: list[int] = []
        unmerged: dict[int, int] = {}
        with self.transaction() as db:
            for pid in dict.fromkeys(ids):
                kept = self._merge_kept(db, pid)
                if kept is None:
                    plain.append(pid)
                    continue
                m, after = kept
                careful, left = self._careful_unmerge(m, after)
                restored[pid] = self.unmerge_papers(careful)
                unmerged[pid] = m.kept
                uid = self.uids([m.kept]).get(m.kept, "")
                said.extend(f"{uid}: {what}" for what in left)
            for pid in plain:  # merged into a paper still in the library, before merges were kept: said
                into = self._merged_into(db, pid)
                if into is not None and (into_uid := self.uids([into]).get(into)):
                    said.append(
                        f"{into_uid}: keeps what the merge gave it (an earlier version merged them and kept no record"
                        " of what it changed): take the merged paper's tags or note off it by hand"
                    )
            restored.update(self.restore_papers(plain))
        return restored, unmerged, said

    def _merged_into(self, db: sqlite3.Connection, pid: int) -> int | None:
        if "merged_into" not in _columns(db, "removed_papers"):
            return None
        row = db.execute("SELECT merged_into FROM removed_papers WHERE id = ?", (pid,)).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def _merge_kept(self, db: sqlite3.Connection, pid: int) -> tuple[Merge, dict[str, Any]] | None:
        """The merge a removed paper was merged by, and the kept paper's annotations it left, if that paper is
        in the library still (else the merged paper comes back as any removed one)."""
        into = self._merged_into(db, pid)
        if into is None or not db.execute("SELECT 1 FROM papers WHERE id = ?", (into,)).fetchone():
            return None
        row = db.execute("SELECT paper FROM removed_papers WHERE id = ?", (pid,)).fetchone()
        kept = json.loads(row[0]).get(REMOVED_MERGE) if row else None
        if not kept:
            return None
        d = kept["merge"]
        m = Merge(
            d["kept"], d["merged"], d["tags"], d["state"], d["priority"], d["note"], d["user_title"],
            [(int(a), str(b)) for a, b in d["moved_sources"]],
            (int(d["added_source"][0]), str(d["added_source"][1])) if d["added_source"] else None,
            (str(d["pair"][0]), str(d["pair"][1])) if d["pair"] else None,
            d["bib"],
            {k: (_from_json_value(a), _from_json_value(b)) for k, (a, b) in d["filled"].items()},
        )  # fmt: skip
        if m.kept != into:
            return None
        return m, kept["after"]

    def _careful_unmerge(self, m: Merge, after: Mapping[str, Any]) -> tuple[Merge, list[str]]:
        """The Merge `unmerge_papers` takes back, made to put back only what is still as the merge left it on
        the kept paper; and what is left, in words."""
        now = self.papers([m.kept])[0]
        left: list[str] = []
        given = {tag_key(t) for t in after["tags"]} - {tag_key(t) for t in m.tags}
        tags = [t for t in now.tags if tag_key(t) not in given]

        def back(name: str, current: Any, before: Any) -> Any:
            if current == after[name]:
                return before
            if after[name] != before:
                left.append(f"its {name.replace('user_', '')}, changed since the merge, stays")
            return current

        state = back("state", now.state, m.state)
        priority = back("priority", now.priority, m.priority)
        user_title = back("user_title", now.user_title, m.user_title)
        note = now.note
        merged_note = str(after["note"])
        if note == merged_note:
            note = m.note
        elif merged_note != m.note:  # the merged paper's part taken out, where it is still as the merge joined it
            part = merged_note[len(m.note.rstrip()) :] if m.note.strip() else merged_note
            if part and note.count(part) == 1:
                note = note.replace(part, "")
            else:
                left.append("its note, edited since the merge, keeps the merged paper's note")
        bib = m.bib if m.bib is not None and now.bib == after["bib"] else None
        if m.bib is not None and bib is None:
            left.append("its bibliographic record, changed since the merge, stays")
        careful = dataclasses.replace(
            m, tags=tags, state=str(state), priority=priority, note=note, user_title=user_title, bib=bib
        )
        return careful, left

    # the columns _fill_from may fill
    _FILLED = ("abstract", "authors", "year", "url", "links", "venue", "title", "auto_title")

    def _fill_from(self, db: sqlite3.Connection, keep: int, other: Paper) -> dict[str, tuple[object, object]]:
        """What the merged paper has and the kept one lacks fills the gap, as an import's merge does
        (fill_missing: an abstract, authors, a year, a link, a title where the kept one's is derived from its
        abstract), and further, the user having said the two are one paper: a venue, the other's links after
        the kept one's, and a longer author list that names every kept author in any order (covering_authors).
        Nothing the kept paper has is replaced. Returns each column changed, (before, after), for
        unmerge_papers."""
        from readinglist.importers.duplicates import covering_authors

        row = db.execute(f"SELECT {', '.join(self._FILLED)} FROM papers WHERE id = ?", (keep,)).fetchone()
        was = dict(zip(self._FILLED, row, strict=True))
        sets: dict[str, object] = {}
        if not was["abstract"] and other.abstract:
            sets["abstract"] = pack(other.abstract)
        authors = json.loads(was["authors"])
        if other.authors and (fuller := covering_authors(authors, other.authors) if authors else other.authors):
            sets["authors"] = json.dumps(fuller, ensure_ascii=False)
        if was["year"] is None and other.year is not None:
            sets["year"] = other.year
        if not was["url"] and other.url:
            sets["url"] = other.url
        if not was["venue"] and other.venue:
            sets["venue"] = other.venue
        if not was["title"] and other.raw_title:  # a title derived from the abstract gives way to a real one
            sets |= {"title": other.raw_title, "auto_title": other.auto_title}
        if links := _with_links(json.loads(was["links"]), [other.url, *other.links]):
            sets["links"] = json.dumps(links)
        self._set_filled(db, keep, sets)
        return {k: (was[k], v) for k, v in sets.items()}

    def _set_filled(self, db: sqlite3.Connection, paper_id: int, sets: Mapping[str, object], rev: int = 0) -> None:
        """Write these columns of a paper (a merge's gaps filled, by hand or an import's), with what follows
        from them (the sort columns, the match keys, the index's journal), at revision `rev` (0: a new one)."""
        if not sets:
            return
        rev = rev or self.next_rev(db)
        db.execute(
            f"UPDATE papers SET {', '.join(k + ' = ?' for k in sets)}, updated_at = ?, rev = ? WHERE id = ?",
            (*sets.values(), now(), rev, paper_id),
        )
        _set_columns(db, [paper_id])
        if self.has_table("paper_keys"):
            _set_keys(db, [paper_id])
        self._journal(db, [paper_id], rev)

    def unmerge_papers(self, m: Merge) -> int:
        """Take a merge back: the merged paper returns with its annotations and sources, the kept one gets its
        annotations back. Returns the merged paper's id now (its old one, normally)."""
        with self.transaction() as db:
            back = self.restore_papers([m.merged]).get(m.merged)
            if back is None:
                raise StoreError("the merged paper is no longer kept")
            if m.added_source is not None:
                db.execute(
                    "DELETE FROM paper_sources WHERE paper_id = ? AND source_id = ? AND content_hash = ?",
                    (m.kept, *m.added_source),
                )
            db.executemany(
                "UPDATE paper_sources SET paper_id = ? WHERE paper_id = ? AND source_id = ? AND content_hash = ?",
                [(back, m.kept, sid, h) for sid, h in m.moved_sources],
            )
            self.set_tags({m.kept: m.tags})
            self.restore_states({m.kept: m.state})
            self.restore_priorities({m.kept: m.priority})
            self.set_note(m.kept, m.note)
            self.set_user_title(m.kept, m.user_title)
            if m.bib is not None:
                self.set_record(m.kept, m.bib)
            if m.filled:  # put back where still as the merge left it (a re-import since keeps what it gave)
                row = db.execute(f"SELECT {', '.join(m.filled)} FROM papers WHERE id = ?", (m.kept,)).fetchone()
                now_values = dict(zip(m.filled, row or (), strict=False))
                self._set_filled(db, m.kept, {k: before for k, (before, after) in m.filled.items()
                                              if k in now_values and now_values[k] == after})  # fmt: skip
            self.set_pair(m.kept, back, m.pair)
        return back

    # ---- removing papers, and bringing them back ----

    def remove_papers(self, ids: Sequence[int]) -> list[int]:
        """Take papers out of the library; returns the ids removed. Each is kept whole in removed_papers (its
        record and its tags), so that `restore_papers` — undo, or a re-import of the same record — brings it
        back with every annotation. The index drops their documents: they are in the journal, in this
        transaction, and `papers()` no longer returns them."""
        removed: list[int] = []
        self._epoch += 1
        try:
            with self.transaction() as db:
                rev = self.next_rev(db)
                stamp = now()
                tags = self.tags_of(ids)
                imported = self.imported_of(ids)
                topic_of = self.topic_of(ids) if self.has_table("paper_topics") else {}
                for chunk in _chunks(list(dict.fromkeys(ids)), 900):
                    cur = db.execute(f"SELECT * FROM papers WHERE id IN ({','.join('?' * len(chunk))})", chunk)
                    names = [d[0] for d in cur.description]
                    for values in cur.fetchall():
                        record = dict(zip(names, values, strict=True))
                        record["abstract"] = unpack(record["abstract"])  # the removed record is JSON: text
                        pid = record["id"]
                        if pid in topic_of:  # kept, for undo: not a column, so never written back as one
                            record[REMOVED_TOPIC] = topic_of[pid]
                        if imported.get(pid):  # which tags were a file's keywords (so too)
                            record[REMOVED_KEYWORDS] = sorted(imported[pid])
                        db.execute(
                            "INSERT OR REPLACE INTO removed_papers(id, uid, source_id, content_hash, removed_at,"
                            " paper, tags) VALUES (?, ?, ?, ?, ?, ?, ?)",
                            (pid, record["uid"], record["source_id"], record["content_hash"], stamp,
                             json.dumps(record, ensure_ascii=False), json.dumps(tags.get(pid, []))),
                        )  # fmt: skip
                        removed.append(pid)
                db.executemany("DELETE FROM papers WHERE id = ?", [(pid,) for pid in removed])
                _resize_topics(db, [topic_of[pid] for pid in removed if pid in topic_of], -1)
                self._drop_unused_tags(db)
                self._journal(db, removed, rev)
        finally:
            self._epoch += 1
        return removed

    def restore_papers(self, ids: Sequence[int]) -> dict[int, int]:
        """Bring removed papers back with their annotations; returns {removed id: id in the library} (the same
        id, unless another paper holds it by now). Ids that are not removed papers are left out."""
        restored: dict[int, int] = {}
        if not self.has_table("removed_papers"):
            return restored
        self._epoch += 1
        try:
            with self.transaction() as db:
                rev = self.next_rev(db)
                columns = _columns(db, "papers")
                keys = _KeyMaker(lambda key: self._key_taken(db, key))
                for chunk in _chunks(list(dict.fromkeys(ids)), 900):
                    marks = ",".join("?" * len(chunk))
                    rows = db.execute(f"SELECT id, paper, tags FROM removed_papers WHERE id IN ({marks})", chunk)
                    for old_id, paper_json, tags_json in rows.fetchall():
                        whole = json.loads(paper_json)
                        record = {k: v for k, v in whole.items() if k in columns}
                        if "abstract" in record:
                            record["abstract"] = pack(record["abstract"] or "")
                        if db.execute("SELECT 1 FROM papers WHERE id = ?", (old_id,)).fetchone():
                            del record["id"]  # taken meanwhile (insert_papers avoids it): a new id
                        if db.execute("SELECT 1 FROM papers WHERE uid = ?", (record["uid"],)).fetchone():
                            import hashlib  # (not at start-up: it loads OpenSSL)

                            seed = record["uid"] + hashlib.sha1(paper_json.encode()).hexdigest()
                            record["uid"] = self._new_uid(db, seed)
                        key = record.get("citation_key")
                        if key and self._key_taken(db, key):  # another paper took the key meanwhile: a new one
                            record["citation_key"] = keys.new(
                                record.get("auto_title") or "",
                                json.loads(record.get("authors") or "[]"),
                                record.get("year"),
                            )
                        record["rev"] = rev
                        names = list(record)
                        cur = db.execute(
                            f"INSERT INTO papers({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
                            [record[n] for n in names],
                        )
                        pid = int(cur.lastrowid or 0)
                        keywords = set(whole.get(REMOVED_KEYWORDS) or ())
                        back = json.loads(tags_json)
                        self._add_tags(db, [pid], [t for t in back if tag_key(t) not in keywords], mine=False)
                        self._add_imported_tags(db, [pid], [t for t in back if tag_key(t) in keywords])
                        topic = whole.get(REMOVED_TOPIC)
                        if topic is not None and db.execute("SELECT 1 FROM topics WHERE id = ?", (topic,)).fetchone():
                            db.execute("INSERT INTO paper_topics(paper_id, topic_id) VALUES (?, ?)", (pid, topic))
                            _resize_topics(db, [topic], +1)  # back in the topic it was in, if that is still there
                        restored[old_id] = pid
                    db.executemany("DELETE FROM removed_papers WHERE id = ?", [(i,) for i in restored])
                _set_columns(db, list(restored.values()))
                if self.has_table("paper_keys"):
                    _set_keys(db, list(restored.values()))
                self._journal(db, list(restored.values()), rev)
        finally:
            self._epoch += 1
        return restored

    def removed_papers(self) -> list[RemovedPaper]:
        """Every removed paper, the latest removed first."""
        if not self.has_table("removed_papers"):
            return []
        merged = " WHERE merged_into IS NULL" if "merged_into" in _columns(self.db, "removed_papers") else ""
        rows = self.db.execute(
            f"SELECT paper, removed_at FROM removed_papers{merged} ORDER BY removed_at DESC, id DESC"
        )
        return [self._removed(paper_json, removed_at) for paper_json, removed_at in rows]

    def merged_papers(self) -> list[RemovedPaper]:
        """The papers merged into others (kept whole among the removed, for undo), the latest first, each with
        the id of the paper it was merged into."""
        if not self.has_table("removed_papers") or "merged_into" not in _columns(self.db, "removed_papers"):
            return []
        rows = self.db.execute(
            f"SELECT paper, removed_at, {self._MERGED_UID} FROM removed_papers r WHERE merged_into IS NOT NULL"
            " ORDER BY removed_at DESC, id DESC"
        )
        return [self._removed(paper_json, removed_at, into) for paper_json, removed_at, into in rows]

    # the id of the paper a removed one was merged into (that paper may have been removed since)
    _MERGED_UID = ("COALESCE((SELECT uid FROM papers WHERE id = r.merged_into),"
                   " (SELECT uid FROM removed_papers WHERE id = r.merged_into), '')")  # fmt: skip

    @staticmethod
    def _removed(paper_json: str, removed_at: str, merged_into: str | None = None) -> RemovedPaper:
        r = json.loads(paper_json)
        title = r.get("user_title") or r.get("auto_title") or ""
        return RemovedPaper(r["id"], r["uid"], title, r.get("venue") or "", r.get("year"), removed_at, merged_into)

    def _removed_with_uid(self, text: str) -> list[RemovedPaper]:
        if not self.has_table("removed_papers"):
            return []
        merged = ("CASE WHEN r.merged_into IS NULL THEN NULL ELSE " + self._MERGED_UID + " END"
                  if "merged_into" in _columns(self.db, "removed_papers") else "NULL")  # fmt: skip
        rows = self.db.execute(
            f"SELECT uid, paper, removed_at, {merged} FROM removed_papers r WHERE uid >= ? AND uid < ? LIMIT 6",
            (text, text + "\uffff"),
        ).fetchall()
        exact = [r for r in rows if r[0] == text]
        return [self._removed(paper, removed_at, into) for _, paper, removed_at, into in (exact or rows)]

    def uid_kind(self, text: str) -> str | None:
        """ "paper" when `text` is a paper's whole id, "removed" when a removed paper's, else None."""
        text = text.strip().lower()
        if self.db.execute("SELECT 1 FROM papers WHERE uid = ?", (text,)).fetchone():
            return "paper"
        if (
            self.has_table("removed_papers")
            and self.db.execute("SELECT 1 FROM removed_papers WHERE uid = ?", (text,)).fetchone()
        ):
            return "removed"
        return None

    def uids_starting(self, text: str, limit: int = 6) -> dict[int, str]:
        """The papers (not removed ones) whose id starts with `text`, at most `limit` of them: id → uid."""
        text = text.strip().lower()
        if not text:
            return {}
        rows = self.db.execute(
            "SELECT id, uid FROM papers WHERE uid >= ? AND uid < ? ORDER BY uid LIMIT ?", (text, text + "\uffff", limit)
        ).fetchall()
        return {int(pid): uid for pid, uid in rows}

    def resolve_removed_uid(self, text: str) -> int:
        """The removed paper whose id is, or uniquely starts with, `text`."""
        text = text.strip().lower()
        found = self._removed_with_uid(text) if text else []
        if not found:
            raise StoreError(f"no removed paper with id {text!r}")
        if len(found) > 1:
            raise StoreError(f"paper id {text!r} is ambiguous: {', '.join(p.uid for p in found[:5])}")
        return found[0].id

    def removed_source_papers(self, source_id: int) -> list[tuple[int, str, str, str, list[str], str, str]]:
        """Like `source_papers`, for a source's removed papers: a re-import matches them too."""
        if not self.has_table("removed_papers"):
            return []
        merged = " AND merged_into IS NULL" if "merged_into" in _columns(self.db, "removed_papers") else ""
        rows = self.db.execute(f"SELECT paper FROM removed_papers WHERE source_id = ?{merged}", (source_id,)).fetchall()
        out = []
        for (paper_json,) in rows:
            r = json.loads(paper_json)
            doi = biblio.loads(r.get("bib")).get("doi", "")
            out.append((r["id"], r["content_hash"], r["title"], r["abstract"], json.loads(r["authors"]), doi,
                        r.get("source_key") or ""))  # fmt: skip
        return out


class TitleClaims:
    """A source's display titles, casefolded, in a temporary table of this connection (SQLite keeps it in a
    temporary file beyond its small cache): an import asks which of a chunk's titles are taken and claims
    the ones it gives, and so never holds every title of the file or the source. Used inside the import's
    transaction; `close` drops the table."""

    def __init__(self, db: sqlite3.Connection, source_id: int):
        self.db = db
        db.execute("CREATE TEMP TABLE IF NOT EXISTS import_titles(key TEXT PRIMARY KEY) WITHOUT ROWID")
        db.execute("DELETE FROM temp.import_titles")
        rows = db.execute("SELECT auto_title FROM papers WHERE source_id = ?", (source_id,))
        while batch := rows.fetchmany(1000):
            self.claim(title or "" for (title,) in batch)

    def taken(self, keys: Iterable[str]) -> set[str]:
        """Those of these casefolded titles that are taken."""
        found: set[str] = set()
        for chunk in _chunks(sorted(set(keys)), 900):
            rows = self.db.execute(f"SELECT key FROM temp.import_titles WHERE key IN ({_marks(chunk)})", chunk)
            found.update(r[0] for r in rows)
        return found

    def claim(self, titles: Iterable[str]) -> None:
        self.db.executemany(
            "INSERT OR IGNORE INTO temp.import_titles(key) VALUES (?)", ((t.casefold(),) for t in titles)
        )

    def close(self) -> None:
        self.db.execute("DROP TABLE IF EXISTS temp.import_titles")


def _marks(items: Sequence[object]) -> str:
    return ",".join("?" * len(items))


def _with_links(links: Sequence[str], more: Iterable[str]) -> list[str] | None:
    """A paper's links with those a merge brings after them (each once), or None when it brings none new."""
    added = [u for u in dict.fromkeys(more) if u and u not in links]
    return [*links, *added] if added else None


def _chunks(items: list[T], size: int) -> Iterator[list[T]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def open_store(path: Path, read_only: bool = False, retries: int = 3, reason: str | None = None) -> Store:
    """Open the library (read-only, saying why, where it cannot be written), waiting briefly if another
    process holds a write lock."""
    for attempt in range(retries):
        try:
            return Store(path, read_only=read_only, reason=reason)
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == retries - 1:
                raise StoreError(f"{path}: {exc}") from None
            time.sleep(0.5)
    raise StoreError(f"{path}: could not be opened")
