"""The import pipeline: parse → match → derive → store + index, a chunk at a time.

A file is imported in one store transaction: a bad file, a cancel or a crash leaves the library as it was
before that file. Whoosh commits only after SQLite has, so the index never holds a paper the library lacks.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from readinglist import markup
from readinglist.importers import ImportContext, Record, parse_file
from readinglist.importers.base import base_name
from readinglist.importers.matching import Existing, Incoming, match
from readinglist.importers.titles import derive_title, make_unique
from readinglist.papers import ImportCancelled, ImportFailure, NewPaper, describe_error
from readinglist.store import Store

if TYPE_CHECKING:
    from readinglist.index import IndexUpdater

Progress = Callable[[int, int, str], None]
BUNDLED_PREFIX = "bundled:"
CHUNK = 2000  # papers prepared, stored and handed to the index writer at a time


@dataclass
class ImportSummary:
    path: Path
    kind: str = ""
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    skipped: int = 0
    missing: int = 0  # papers the file no longer has: kept, with their annotations
    restored: int = 0  # papers removed from the library that the file brought back, annotations and all
    warnings: list[str] = field(default_factory=list)
    skipped_why: list[tuple[str, str]] = field(default_factory=list)  # (where, why), the first of them

    def line(self) -> str:
        text = (
            f"{self.path.name}: {self.added} added, {self.updated} updated, "
            f"{self.unchanged} unchanged, {self.skipped} skipped"
        )
        if self.skipped_why:
            text += f" ({skip_reasons(self.skipped_why, self.skipped)})"
        if self.missing:
            text += f", {self.missing} no longer in the file (kept)"
        if self.restored:
            text += f", {self.restored} brought back (removed before; annotations kept)"
        return text


def skip_reasons(skipped_why: list[tuple[str, str]], skipped: int) -> str:
    """ "no title and no abstract: line 3, 7" — each reason once, with the first places it applies to."""
    by_reason: dict[str, list[str]] = {}
    for where, why in skipped_why:
        by_reason.setdefault(why, []).append(where)
    parts = []
    for why, places in by_reason.items():
        shown = ", ".join(places[:3]) + (f" and {len(places) - 3} more" if len(places) > 3 else "")
        parts.append(f"{why}: {shown}")
    more = skipped - len(skipped_why)
    return "; ".join(parts) + (f"; {more:,} more" if more > 0 else "")


def content_hash(r: Record) -> str:
    h = hashlib.sha1()
    for part in (r.title, r.abstract, "\x1e".join(r.authors), r.venue, str(r.year or "")):
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\x1f")
    return h.hexdigest()


def to_new_paper(r: Record, chash: str | None = None) -> NewPaper:
    """Derived forms are computed once, here: plain text for the index, links, and the display title."""
    plain = markup.to_plain(r.abstract)
    auto_title = markup.title_plain(r.title) if r.title else derive_title(r.abstract, plain=plain)
    seed = hashlib.sha1(f"{r.venue}\x1f{r.year}\x1f{r.title}\x1f{r.abstract}".encode()).hexdigest()
    links = markup.extract_links(r.abstract)
    if r.url and r.url not in links:
        links.insert(0, r.url)
    return NewPaper(
        uid_seed=seed,
        content_hash=chash or content_hash(r),
        source_key=r.key,
        title=r.title,
        auto_title=auto_title or "Untitled",
        abstract=r.abstract,
        plain_abstract=plain,
        authors=r.authors,
        venue=r.venue,
        year=r.year,
        url=r.url,
        links=links,
        tags=r.tags,
    )


def import_files(
    store: Store,
    updater: IndexUpdater,
    files: Sequence[Path | str],
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
    bundled: bool = False,
) -> list[ImportSummary]:
    """Import each file in its own transaction. A bad file raises ImportFailure and leaves the library as it
    was before that file; files before it stay imported."""
    context = ImportContext()
    summaries = []
    for n, f in enumerate(files):
        path = Path(f)
        if progress:
            progress(0, 0, f"Reading {path.name} ({n + 1} of {len(files)})")
        parsed = parse_file(path, context)
        location = BUNDLED_PREFIX + path.name if bundled else str(path.resolve())
        try:
            summary = _import_records(store, updater, path, location, parsed.kind, parsed.records, progress, cancel)
        except OSError as exc:  # the transaction was rolled back: the library is as it was before this file
            raise ImportFailure(
                path, f"{describe_error(exc, store.path.parent)}; the library was not changed"
            ) from None
        summary.skipped, summary.skipped_why = parsed.skipped, parsed.skipped_why
        summary.warnings[:0] = parsed.warnings
        summaries.append(summary)
    return summaries


def _import_records(
    store: Store,
    updater: IndexUpdater,
    path: Path,
    location: str,
    kind: str,
    records: list[Record],
    progress: Progress | None,
    cancel: threading.Event | None,
) -> ImportSummary:
    """Match, then store and index new papers a chunk at a time: the index's writer processes work on one
    chunk while this process prepares the next, and only a chunk's derived text is in memory."""
    from readinglist.index import new_document

    summary = ImportSummary(path, kind)
    total = len(records)

    def check_cancel() -> None:
        if cancel is not None and cancel.is_set():
            raise ImportCancelled(path.name)  # rolls the whole file back

    hashes = [content_hash(r) for r in records]
    fresh: list[int] = []
    writer = None
    try:
        with store.transaction() as db:
            source_id = store.source_id(location, base_name(path), kind)
            existing = [Existing(pid, h, t, a, names) for pid, h, t, a, names in store.source_papers(source_id)]
            removed = _removed_existing(store, source_id)
            existing += removed
            known = {e.content_hash for e in existing}
            # plain text (for similarity) only where a revised record could match a stored paper
            incoming = [
                Incoming(h, r.title, markup.to_plain(r.abstract) if existing and h not in known else "", r.authors)
                for h, r in zip(hashes, records, strict=True)
            ]
            unchanged, revised = match(existing, incoming)
            del incoming
            restored = _bring_back(store, removed, unchanged, revised)
            rev = store.next_rev(db)
            taken = store.source_titles(source_id)
            revised_ids = []
            for i, pid in revised.items():
                store.update_content(pid, to_new_paper(records[i], hashes[i]), rev)
                revised_ids.append(pid)
            fresh = [i for i in range(total) if i not in unchanged and i not in revised]
            added_ids: list[int] = []
            if fresh:
                writer = updater.begin_bulk(len(fresh))
            for start in range(0, len(fresh), CHUNK):
                check_cancel()
                chunk = [to_new_paper(records[i], hashes[i]) for i in fresh[start : start + CHUNK]]
                for paper, title in zip(chunk, make_unique([p.auto_title for p in chunk], taken), strict=True):
                    paper.auto_title = title
                    taken.add(title)
                ids = store.insert_papers(source_id, chunk, rev)
                for pid, paper in zip(ids, chunk, strict=True):
                    writer.add_document(**new_document(pid, paper))  # type: ignore[union-attr]
                added_ids += ids
                if progress:
                    progress(start + len(chunk), len(fresh), f"Importing {path.name}")
            seen = set(unchanged.values()) | set(revised.values()) | set(added_ids)
            seen |= {e.id for e in removed}  # not in the file: they stay removed
            gone = [e.id for e in existing if e.id not in seen]
            store.set_in_source(gone, False, rev)
            store.set_in_source(list(unchanged.values()), True, rev)
            check_cancel()  # the last moment to take it all back
    except BaseException:
        if writer is not None:
            updater.cancel_bulk(writer)
        raise
    if writer is not None:
        if progress:
            progress(len(fresh), len(fresh), f"Indexing {path.name}")
        try:
            updater.commit_bulk(writer, [(pid, rev) for pid in added_ids])
        except Exception as exc:  # the papers are in the library, and in the journal: the index catches up
            summary.warnings.append(f"{path.name}: imported, but the search index could not be written "
                                    f"({describe_error(exc, updater.index.folder)}); it will catch up")  # fmt: skip
    if revised_ids or restored:
        updater.changed()
    summary.added, summary.updated, summary.unchanged = len(added_ids), len(revised_ids), len(unchanged)
    summary.missing, summary.restored = len(gone), restored
    return summary


# ---- removed papers: a re-import of the same record brings one back, annotations and all ----------------


def _removed_existing(store: Store, source_id: int) -> list[Existing]:
    """The source's removed papers, matched like the others (Store.remove_papers keeps them whole)."""
    return [Existing(pid, h, t, a, names) for pid, h, t, a, names in store.removed_source_papers(source_id)]


def _bring_back(store: Store, removed: list[Existing], unchanged: dict[int, int], revised: dict[int, int]) -> int:
    """Removed papers the file still has come back (before a revision updates them); returns how many."""
    ids = {e.id for e in removed}
    wanted = [pid for pid in (*unchanged.values(), *revised.values()) if pid in ids]
    if not wanted:
        return 0
    moved = store.restore_papers(wanted)
    for matches in (unchanged, revised):
        for i, pid in matches.items():
            matches[i] = moved.get(pid, pid)
    return len(moved)
