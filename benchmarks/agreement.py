"""Does the search index agree with the database? Field by field, paper by paper, as the index holds it.

For every paper the terms the index holds in each annotated field (tags, state, note, title) are compared
with the terms the schema makes of the database's values, and the set of indexed papers with the papers in
the store. A paper the store's index journal names may differ (the journal is the record of what the index
lacks, and catching up from it is the index's job): `check(data_dir)` reports such papers apart, and a
disagreement on any paper the journal does not name is an index that lies.

Used by tests/test_reliability.py and benchmarks/reliability.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

FIELDS = ("tags", "state", "note", "title")


@dataclass
class Agreement:
    papers: int = 0
    journaled: set[int] = field(default_factory=set)  # papers whose changes the journal records
    lies: list[str] = field(default_factory=list)  # disagreements the journal does not account for
    behind: list[str] = field(default_factory=list)  # disagreements it does (the index will catch up)

    @property
    def ok(self) -> bool:
        return not self.lies


def _indexed_terms(searcher, fieldname: str, pid_of: list[int]) -> dict[int, set[bytes]]:
    """paper id → the terms of `fieldname` the index holds for it (deleted documents left out)."""
    out: dict[int, set[bytes]] = {}
    reader = searcher.reader()
    for term in reader.lexicon(fieldname):
        for docnum in reader.postings(fieldname, term).all_ids():
            out.setdefault(pid_of[docnum], set()).add(term)
    return out


def _expected_terms(schema, fieldname: str, value: str) -> set[bytes]:
    if not value:
        return set()
    return {term for term, *_ in schema[fieldname].index(value)}


def check(data_dir: Path) -> Agreement:
    """Compare the index in `data_dir` with its database, without catching the index up first."""
    from readinglist.index.engine import Index, _read_pids
    from readinglist.index.schema import document
    from readinglist.store import Store

    data_dir = Path(data_dir)
    store = Store(data_dir / "library.db", read_only=True)
    index = Index(data_dir / "index", read_only=True)
    result = Agreement()
    try:
        if not index.open():
            result.lies.append("the index cannot be opened")
            return result
        result.journaled = {pid for pid, _ in store.index_journal()}
        ids = store.all_ids()
        result.papers = len(ids)
        with index.searching() as s:
            pids = _read_pids(s)[0]
            reader = s.reader()
            live = {pids[d] for d in reader.all_doc_ids()}
            indexed = {name: _indexed_terms(s, name, pids) for name in FIELDS}
        for pid in live - set(ids):
            (result.behind if pid in result.journaled else result.lies).append(f"paper {pid} is indexed but gone")
        for pid in set(ids) - live:
            (result.behind if pid in result.journaled else result.lies).append(f"paper {pid} is not indexed")
        schema = index.schema
        for start in range(0, len(ids), 2000):
            for paper in store.papers(ids[start : start + 2000]):
                doc = document(paper)
                for name in FIELDS:
                    want = _expected_terms(schema, name, str(doc[name]))
                    have = indexed[name].get(paper.id, set())
                    if want != have:
                        where = result.behind if paper.id in result.journaled else result.lies
                        where.append(f"paper {paper.id} {name}: index {sorted(have)[:5]} ≠ database {sorted(want)[:5]}")
    finally:
        index.close()
        store.close()
    return result
