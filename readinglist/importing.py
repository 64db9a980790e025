"""The import pipeline: read → match → derive → store + index, a chunk at a time.

A file is read twice, never held whole: the first read checks every limit and record and keeps only a hash
and a title per record (what matching a re-import needs), before the library is touched; the second stores
and indexes a chunk at a time. (A small file, up to KEEP_RECORDS, is kept from the first read; matching a revised
file reads the texts and authors it needs in between.) A file is imported in one store transaction: a bad
file, a cancel or a crash leaves the library as it was before that file. Whoosh commits only after SQLite
has, so the index never holds a paper the library lacks. Papers removed from the library are matched like
stored ones: a record that matches one brings it back with its annotations; the rest stay removed.

Over 400 lines: the pipeline's steps share one file's transaction, scan and matcher; the formats are in
importers/, the matching rules in importers/matching.py and importers/duplicates.py.
"""

from __future__ import annotations

import hashlib
import threading
from array import array
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from readinglist import biblio, markup
from readinglist.importers import DEFAULT_LIMITS, ImportContext, Limits, Record, SourceFile, duplicates, open_file
from readinglist.importers.base import base_name
from readinglist.importers.matching import Existing, LibraryMatcher, Matcher
from readinglist.importers.titles import derive_title, unique_among
from readinglist.papers import (
    DEFAULT_STATE,
    INDEXING,
    PRIORITIES,
    STATES,
    ImportCancelled,
    ImportFailure,
    NewPaper,
    describe_error,
    tag_key,
)
from readinglist.store import Store, TagsGiven

if TYPE_CHECKING:
    from readinglist.index import IndexUpdater

Progress = Callable[[int, int, str], None]
BUNDLED_PREFIX = "bundled:"
# papers prepared, stored and handed to the index writer at a time: the writer processes idle while a chunk is
# prepared, and index the last one after this process is done, so a smaller chunk overlaps more (500 rather
# than 2,000: see docs/performance-changes.md, session 16)
CHUNK = 500
TAGS_SHOWN = 3  # the user's tags an import's summary names that the file's keywords gave papers; the rest counted
CHUNK_CHARS = 8 * 1024 * 1024  # … or fewer, when their text is this long
FIRST_CHUNK = 256  # the first chunk is smaller: the index's writer processes get work sooner
# a file of up to this many records and characters is kept from the first read, not read (and parsed) again:
# the memory it holds is bounded by these, never by the file
KEEP_RECORDS = 10_000
KEEP_CHARS = 16 * 1024 * 1024


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
    merged: int = 0  # records that were papers already here from another file: merged into them
    possible: int = 0  # records added that may be papers already here (listed under Possible duplicates)
    warnings: list[str] = field(default_factory=list)
    skipped_why: list[tuple[str, str]] = field(default_factory=list)  # (where, why), the first of them
    macros: int = 0  # BibTeX @string macros the file defines (for itself and the files imported with it)
    volumes: int = 0  # entries that are volumes, not papers (@proceedings, a @book that entries crossref)
    # what the file changed of the reader's own marks, by documented rules, said so that it is not a surprise:
    # the papers added with a state other than unread, by (state, where the file says it: Record.state_from)
    # ("2,292 marked read from the file's read field": a Papers3 BibTeX's `read = {Yes}`) …
    states: Counter[tuple[str, str]] = field(default_factory=Counter)
    priorities: int = 0  # … the papers added with the file's priority
    # … and the user's tags its keywords gave papers (tag → papers: ICLR's keyword "RL" where the user has a tag RL)
    your_tags: dict[str, int] = field(default_factory=dict)
    # … and the tags it gives as tags (mendeley-tags, the app's own export's) that it added to papers: tag → papers
    file_tags: dict[str, int] = field(default_factory=dict)

    def line(self, compact: bool = False) -> str:
        """How the file's import went, in a line; `compact` (the window's status bar, where a long line was
        cut): the counts that are not zero, and the volumes and macros without what they are."""
        counts = [(self.added, "added"), (self.updated, "updated"), (self.unchanged, "unchanged"),
                  (self.skipped, "skipped")]  # fmt: skip
        shown = [f"{n:,} {what}" for n, what in counts if n or not compact or what == "added"]
        text = f"{self.path.name}: {', '.join(shown)}"
        if self.skipped_why:
            text += f" ({skip_reasons(self.skipped_why, self.skipped)})"
        if self.missing:
            text += f", {self.missing} no longer in the file (kept)"
        if self.restored:
            text += f", {self.restored} brought back (removed before; annotations kept)"
        if self.merged:
            text += f", {self.merged} merged into papers already here"
        if self.possible:
            text += f", {self.possible} possible duplicates to decide"
        if self.volumes and compact:
            text += f", {self.volumes} volume{'s' if self.volumes != 1 else ''} (not papers)"
        elif self.volumes:
            text += (
                ", 1 volume (not a paper: the venue of the entries citing it)"
                if self.volumes == 1
                else f", {self.volumes} volumes (not papers: the venues of the entries citing them)"
            )
        if self.macros and not compact:
            text += f", {self.macros} @string {'macro' if self.macros == 1 else 'macros'} defined"
        return text + self.marks_given()

    def marks_given(self) -> str:
        """The states, priorities and tags the file gave, as the summary line ends: "; 2,292 marked read from the
        file's read field; tagged 2 papers theory-rl (from the file's tags); tagged 3 papers RL (your tag, …)";
        empty when it gave none."""
        parts = [f"{n:,} marked {state} " + (f"from the file's {where}" if where else "by the file")
                 for (state, where), n in sorted(self.states.items(), key=lambda item: -item[1])]  # fmt: skip
        if self.priorities:
            parts.append(f"{self.priorities:,} given a priority by the file")
        if self.file_tags:
            tags = list(self.file_tags.items())
            shown = ", ".join(f"{n:,} paper{'s' if n != 1 else ''} {tag}" for tag, n in tags[:TAGS_SHOWN])
            more = f" and {len(tags) - TAGS_SHOWN:,} more" if len(tags) > TAGS_SHOWN else ""
            parts.append(f"tagged {shown}{more} (from the file's tags)")
        if self.your_tags:
            tags = list(self.your_tags.items())
            shown = ", ".join(f"{n:,} paper{'s' if n != 1 else ''} {tag}" for tag, n in tags[:TAGS_SHOWN])
            more = f" and {len(tags) - TAGS_SHOWN:,} more" if len(tags) > TAGS_SHOWN else ""
            yours = (
                "your tag, which the file has as a keyword"
                if len(tags) == 1
                else "your tags, which the file has as keywords"
            )
            parts.append(f"tagged {shown}{more} ({yours})")
        return "".join(f"; {part}" for part in parts)


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
    """SHA-1 of the content, each part followed by \\x1f (one encode and one hash: the digest stored in
    libraries made by earlier versions)."""
    text = f"{r.title}\x1f{r.abstract}\x1f{chr(0x1E).join(r.authors)}\x1f{r.venue}\x1f{r.year or ''}\x1f"
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()


REKEYED_SHOWN = 5  # the renamed citation keys a warning names; the rest are counted


def _rekeyed_warning(path: Path, shown_keys: list[tuple[str, str]], n: int) -> str:
    """Which entries of the file could not keep their citation key (n of them; the first few named) and the
    keys they got instead: another paper has the key (a `\\cite` of it in the user's LaTeX finds that one),
    or it is no valid key (a space, an accent)."""
    shown = ", ".join(f"{given} → {new}" for given, new in shown_keys)
    more = f" and {n - len(shown_keys):,} more" if n > len(shown_keys) else ""
    entries = f"{n:,} entr{'ies' if n != 1 else 'y'}"
    return (f"{path.name}: {entries} could not keep {'their' if n != 1 else 'its'} citation key (another "
            f"paper has it, or it is not a valid key) and got {'new ones' if n != 1 else 'a new one'}: "
            f"{shown}{more}")  # fmt: skip


def to_new_paper(r: Record, chash: str | None = None) -> NewPaper:
    """Derived forms are computed once, here: plain text for the index, links, and the display title."""
    plain = markup.to_plain(r.abstract)
    auto_title = markup.title_plain(r.title) if r.title else derive_title(r.abstract, plain=plain)
    seed = hashlib.sha1(f"{r.venue}\x1f{r.year}\x1f{r.title}\x1f{r.abstract}".encode()).hexdigest()
    links = markup.extract_links(r.abstract)
    key = duplicates.title_key(auto_title) if r.title else ""
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
        keywords=r.keywords,
        title_key=key,
        text_key=duplicates.text_key(plain),
        citation_key=r.citation_key,
        bib=r.bib,
    )


def import_files(
    store: Store,
    updater: IndexUpdater,
    files: Sequence[Path | str],
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
    bundled: bool = False,
    limits: Limits | None = None,
    failures: list[ImportFailure] | None = None,
) -> list[ImportSummary]:
    """Import each file in its own transaction. A bad file raises ImportFailure and leaves the library as it
    was before that file; files before it stay imported. With `failures`, its failure is added there instead
    and the next files are imported."""
    context = ImportContext(limits=limits or DEFAULT_LIMITS)
    opened = _prescanned(files, context) if len(files) > 1 else {}
    summaries = []
    for n, f in enumerate(files):
        path = Path(f)
        label = f"Reading {path.name} ({n + 1} of {len(files)})" if len(files) > 1 else f"Reading {path.name}"
        if progress:
            progress(0, 0, label)
        try:
            source = opened.get(n) or open_file(path, context)
            location = BUNDLED_PREFIX + path.name if bundled else str(path.resolve())
            # a file imported before has papers to match its records to: only then are they kept per record
            scan = _scan(source, progress, cancel, label, store, per_record=store.has_source(location))
            try:
                summary = _import_source(store, updater, source, scan, location, progress, cancel)
            except OSError as exc:  # the transaction was rolled back: the library is as it was before this file
                raise ImportFailure(
                    path, f"{describe_error(exc, store.path.parent)}; the library was not changed"
                ) from None
        except ImportFailure as exc:
            if failures is None:
                raise
            failures.append(exc)
            continue
        summary.skipped, summary.skipped_why = source.skipped, source.skipped_why
        summary.macros, summary.volumes = source.macros, source.volumes
        summary.warnings[:0] = source.warnings
        summaries.append(summary)
    return summaries


def _prescanned(files: Sequence[Path | str], context: ImportContext) -> dict[int, SourceFile]:
    """The import's files opened, by their place among `files`, each .bib file with what it defines for the
    others read (SourceFile.prescan). A file that cannot be opened is left to its turn, which says why."""
    out = {}
    for n, f in enumerate(files):
        try:
            out[n] = source = open_file(Path(f), context)
        except ImportFailure:
            continue
        source.prescan()
    return out


@dataclass
class _Scan:
    """What the first read of a file keeps: how many records and a digest of their content hashes in order
    (the second read must give the same); for a file imported before, each record's content hash and title
    (what matching a re-import needs; None for a new file, whose memory then does not grow with it); the
    records themselves only for a small file (KEEP_RECORDS, KEEP_CHARS), which is then the only read."""

    count: int
    digest: str
    hashes: list[str] | None
    titles: list[str] | None
    records: list[Record] | None
    in_library: dict[int, int] = field(default_factory=dict)  # own exports' records the library has: number → id
    # a keyword the file spells several ways (by tag_key): its commonest spelling, which the tag takes (the
    # first met took it: "Graph Neural networks", 1 of an ICLR file's 65)
    spellings: dict[str, str] = field(default_factory=dict)
    # with hashes and titles: each record's DOI (matched first) and its record as stored (an unchanged text
    # with a record added or corrected in the file gives the paper that record)
    dois: list[str] | None = None
    bibs: list[str | None] | None = None
    keys: list[str] | None = None  # with hashes and titles: each record's key as the file gives it (file_key)


def _check_cancel(cancel: threading.Event | None, path: Path) -> None:
    if cancel is not None and cancel.is_set():
        raise ImportCancelled(path.name)  # rolls the whole file back


def _scan(
    source: SourceFile,
    progress: Progress | None,
    cancel: threading.Event | None,
    label: str,
    store: Store,
    per_record: bool = True,
) -> _Scan:
    """Read the file through once, before the library is touched: every limit and every malformed record
    fails here, within seconds and in bounded memory. A record that carries a readinglist id or citation key
    (one of the app's own exports) is looked up in the whole library here too."""
    hashes: list[str] | None = [] if per_record else None
    titles: list[str] | None = [] if per_record else None
    dois: list[str] = []
    bibs: list[str | None] = []
    keys: list[str] = []
    chain = hashlib.sha1()
    kept: list[Record] | None = []
    in_library: dict[int, int] = {}
    library: LibraryMatcher | None = None
    chars = 0
    count = 0
    spelt: dict[str, Counter[str]] = {}
    for i, r in enumerate(source.records()):
        h = content_hash(r)
        chain.update(h.encode())
        count = i + 1
        for k in r.keywords:
            spelt.setdefault(tag_key(k), Counter())[k] += 1
        if hashes is not None and titles is not None:
            hashes.append(h)
            titles.append(r.title)
            dois.append(r.bib.get("doi", ""))
            bibs.append(biblio.dumps(r.bib))
            keys.append(file_key(r))
        if r.uid or r.citation_key or r.own:
            if library is None:
                library = LibraryMatcher(store.identities())
            pid = library.find(r.uid, r.citation_key, r.title, r.authors, r.own, markup.title_plain)
            if pid is not None:
                in_library[i] = pid
        if kept is not None:
            chars += _size(r)
            kept.append(r)
            if len(kept) > KEEP_RECORDS or chars > KEEP_CHARS:
                kept = None
        if i % CHUNK == CHUNK - 1:
            _check_cancel(cancel, source.path)
            if progress:
                progress(*source.progress(), label)
    _check_cancel(cancel, source.path)
    spellings = {key: c.most_common(1)[0][0] for key, c in spelt.items() if len(c) > 1}
    per = (dois, bibs, keys) if hashes is not None else (None, None, None)
    return _Scan(count, chain.hexdigest(), hashes, titles, kept, in_library, spellings, *per)


def _size(r: Record) -> int:
    return len(r.title) + len(r.abstract) + sum(map(len, r.authors)) + 100


def _read_again(source: SourceFile, scan: _Scan) -> Iterator[tuple[int, Record, str]]:
    """The records again, numbered, with their content hashes: from memory when the scan kept them, else a
    new read of the file, which must give the same records (a file changed meanwhile fails, and the import
    rolls back: at the changed record when the scan kept each hash, else at the end of the read)."""
    if scan.records is not None:
        for n, r in enumerate(scan.records):
            yield n, r, scan.hashes[n] if scan.hashes is not None else content_hash(r)
        return
    changed = ImportFailure(source.path, "changed while it was being imported; import it again")
    chain = hashlib.sha1()
    n = -1
    for n, r in enumerate(source.records()):
        h = content_hash(r)
        chain.update(h.encode())
        if n >= scan.count or (scan.hashes is not None and h != scan.hashes[n]):
            raise changed
        yield n, r, h
    if n + 1 != scan.count or chain.hexdigest() != scan.digest:
        raise changed


def _per_record(source: SourceFile, scan: _Scan) -> _Scan:
    """The scan with each record's hash and title, read again (a file the scan took for new has papers in
    the library after all: matching them needs these)."""
    if scan.hashes is not None and scan.titles is not None:
        return scan
    hashes, titles, dois, bibs, keys = [], [], [], [], []
    for _, r, h in _read_again(source, scan):
        hashes.append(h)
        titles.append(r.title)
        dois.append(r.bib.get("doi", ""))
        bibs.append(biblio.dumps(r.bib))
        keys.append(file_key(r))
    return _Scan(
        scan.count, scan.digest, hashes, titles, scan.records, scan.in_library, scan.spellings, dois, bibs, keys
    )


def file_key(r: Record) -> str:
    """The record's key as its file gives it (a BibTeX entry's, a RIS ID), '' where the format numbered the
    record itself ("r12"): only a key the file gives names the same entry in the file's next version."""
    return r.key if r.key and r.citation_key and r.key.strip() == r.citation_key else ""


def _texts(source: SourceFile, scan: _Scan, wanted: set[int]) -> Iterator[tuple[int, str]]:
    """(number, plain text) of the wanted records, in file order."""
    for i, r, _ in _read_again(source, scan):
        if i in wanted:
            yield i, markup.to_plain(r.abstract)


def _import_source(
    store: Store,
    updater: IndexUpdater,
    source: SourceFile,
    scan: _Scan,
    location: str,
    progress: Progress | None,
    cancel: threading.Event | None,
) -> ImportSummary:
    """Match, then store and index new papers a chunk at a time: the index's writer processes work on one
    chunk while this process prepares the next, and only a chunk's records and derived text are in memory."""
    from readinglist.index import new_document

    path = source.path
    summary = ImportSummary(path, source.kind)
    total = scan.count
    fresh = 0
    writer = None
    revised_ids: list[int] = []
    added_ids = array("q")  # 8 bytes a paper, not a list of int objects
    counts = {"annotated": 0, "rekeyed": 0, "records": 0}
    yours = TagsGiven()  # the user's tags the file's keywords give papers: said in the summary
    rekeyed: list[tuple[str, str]] = []  # the first citation keys the file gives that another paper had
    elsewhere: dict[int, int] = {}
    filled: list[int] = []  # papers found elsewhere in the library that the file's records filled in
    try:
        with store.transaction() as db:
            source_id = store.source_id(location, base_name(path), source.kind)
            existing = [
                Existing(pid, h, t, a, names, doi, key)
                for pid, h, t, a, names, doi, key in store.source_papers(source_id)
            ]
            linked = store.linked_ids(source_id)  # papers of other files this file's records were merged into
            existing_ids = [e.id for e in existing if e.id not in linked]
            own_ids = set(existing_ids)  # the file's own papers (a record found by key may be one: not linked)
            removed = _removed_existing(store, source_id)  # matched like the others: a match brings one back
            removed_ids = {e.id for e in removed}
            unchanged: dict[int, int] = {}
            revised: dict[int, int] = {}
            if existing or removed:  # nothing to match for a new file
                scan = _per_record(source, scan)
                assert scan.hashes is not None and scan.titles is not None
                matcher = Matcher([*existing, *removed], scan.hashes, scan.titles, scan.dois, scan.keys)
                del existing, removed  # the matcher holds their stored texts until it is done
                wanted = matcher.tie_texts()
                if wanted:  # a title match needs the content to agree: the text and authors, a record at a time
                    for i, r, _ in _read_again(source, scan):
                        if i in wanted:
                            matcher.settle_tie(i, markup.to_plain(r.abstract), r.authors)
                wanted = matcher.similar_texts()
                if wanted:
                    for i, text in _texts(source, scan, wanted):
                        matcher.place_similar(i, text)
                unchanged, revised = matcher.unchanged, matcher.revised
                del matcher  # its stored texts are no longer needed
            restored = _bring_back(store, removed_ids, unchanged, revised)
            rev = store.next_rev(db)
            if unchanged and scan.bibs is not None:  # a record given or corrected where the text is as it was
                bibs = scan.bibs
                counts["records"] = store.refresh_records([(pid, bibs[i]) for i, pid in unchanged.items()], linked, rev)
            claims = store.title_claims(source_id)  # the source's titles, in SQLite: not held here
            # a paper of an own export the library has (in any source) keeps what it has: not added again
            placed = set(unchanged.values()) | set(revised.values())
            elsewhere = {i: pid for i, pid in scan.in_library.items()
                         if i not in unchanged and i not in revised and pid not in placed}  # fmt: skip
            fresh = total - len(unchanged) - len(revised) - len(elsewhere)
            if fresh:
                writer = updater.begin_bulk(fresh)
            chunk: list[NewPaper] = []
            notes: list[tuple[str, int | None, str]] = []  # (state, priority, note) the file gives each of chunk
            state_from: list[str] = []  # where the file gives each of chunk its state (Record.state_from)
            chars = 0

            sifter = _Duplicates(store, source_id, rev, yours)

            def store_chunk() -> None:
                _check_cancel(cancel, path)
                papers, possible = sifter.sift(chunk)
                # a derived title is made unique within its source ("… (2)"); a title the file gives is the
                # paper's own and stays as it is, a reprint's or an edition's too (it had "(2)" added, which
                # every export then carried: a trial)
                derived = [p for p in papers if not p.title]
                own = {p.auto_title.casefold() for p in papers if p.title}
                titles = unique_among([p.auto_title for p in derived], lambda keys: claims.taken(keys) | (keys & own))
                for paper, title in zip(derived, titles, strict=True):
                    paper.auto_title = title
                claims.claim([p.auto_title for p in papers])
                batch: list[tuple[str, str]] = []
                ids = store.insert_papers(source_id, papers, rev, batch, yours)
                counts["rekeyed"] += len(batch)
                rekeyed.extend(batch[: REKEYED_SHOWN - len(rekeyed)])  # a chunk's worth at most, the rest counted
                kept = {id(p) for p in papers}  # a record merged into a paper here brings no annotations
                given = [n for p, n in zip(chunk, notes, strict=True) if id(p) in kept]
                counts["annotated"] += store.annotate_new([(pid, *n) for pid, n in zip(ids, given, strict=True)])
                for p, (state, priority, _), where in zip(chunk, notes, state_from, strict=True):
                    if id(p) in kept and state != DEFAULT_STATE and state in STATES:
                        summary.states[(state, where)] += 1
                    if id(p) in kept and priority in PRIORITIES:
                        summary.priorities += 1
                if writer is not None:  # (None: the index was busy; the journal has the papers)
                    for pid, paper in zip(ids, papers, strict=True):
                        writer.add_document(**new_document(pid, paper))
                summary.possible += store.add_possible_duplicates((ids[n], other, why) for n, other, why in possible)
                added_ids.extend(ids)
                if progress:
                    progress(len(added_ids), fresh, f"Importing {path.name}")

            if fresh or revised or elsewhere:
                for i, r, h in _read_again(source, scan):
                    if i in unchanged:
                        continue
                    if scan.spellings and r.keywords:
                        r.keywords = [scan.spellings.get(tag_key(k), k) for k in r.keywords]
                    if i in elsewhere:
                        if not r.own and not r.uid and _found_by_key(store, sifter, elsewhere[i], to_new_paper(r, h),
                                                                     elsewhere[i] in own_ids):  # fmt: skip
                            filled.append(elsewhere[i])
                        continue
                    if i in revised:
                        if revised[i] in linked:  # a merged record revised: the paper keeps its own text
                            store.relink_source(revised[i], source_id, h, r.title)
                            continue
                        store.update_content(revised[i], to_new_paper(r, h), rev)
                        revised_ids.append(revised[i])
                        continue
                    chunk.append(to_new_paper(r, h))
                    notes.append((r.state or DEFAULT_STATE, r.priority, r.note))
                    state_from.append(r.state_from)
                    chars += _size(r)
                    if len(chunk) >= (CHUNK if added_ids else min(CHUNK, FIRST_CHUNK)) or chars >= CHUNK_CHARS:
                        store_chunk()
                        chunk, notes, state_from, chars = [], [], [], 0
                if chunk:
                    store_chunk()
            seen = set(unchanged.values()) | set(revised.values()) | set(elsewhere.values())  # new ids: not existing
            gone = [pid for pid in existing_ids if pid not in seen]  # removed papers not in the file stay removed
            store.set_in_source(gone, False, rev)
            store.set_in_source([pid for pid in unchanged.values() if pid not in linked], True, rev)
            claims.close()
            _check_cancel(cancel, path)  # the last moment to take it all back
    except BaseException:
        if writer is not None:
            updater.cancel_bulk(writer)
        raise
    to_index = bool(added_ids) and writer is None  # the index was busy: the journal has them (begin_bulk)
    if writer is not None:
        if progress:
            progress(fresh, fresh, f"{INDEXING} {path.name}")
        try:
            updater.commit_bulk(writer, ((pid, rev) for pid in added_ids))
        except Exception as exc:  # the papers are in the library, and in the journal: the index catches up
            to_index = True
            summary.warnings.append(f"{path.name}: imported, but the search index could not be written "
                                    f"({describe_error(exc, updater.index.folder)}); it will catch up")  # fmt: skip
    if rekeyed:
        summary.warnings.append(_rekeyed_warning(path, rekeyed, counts["rekeyed"]))
    if revised_ids or restored or sifter.changed or counts["annotated"] or counts["records"] or filled or to_index:
        updater.changed()  # annotations are journalled after the papers' first documents
    summary.merged = sifter.merged + len(filled)  # as when the record's key is another (the sifter merges it)
    summary.added, summary.updated = len(added_ids), len(revised_ids) + counts["records"]
    summary.unchanged = len(unchanged) + len(elsewhere) - counts["records"] - len(filled)
    summary.missing, summary.restored = len(gone), restored
    summary.your_tags = dict(yours.papers.most_common())
    summary.file_tags = dict(yours.file_tags.most_common())
    return summary


def _found_by_key(store: Store, sifter: _Duplicates, pid: int, p: NewPaper, own: bool) -> bool:
    """A record of a file that is not one of the app's own exports (no readinglist id or marker), found in the
    library by its citation key alone: another program's file may have the app's key (Google Scholar's
    vaswani2017attention is the key readinglist makes), and so has the app's own BibTeX export, which carries
    nothing else to tell it by. A record that fills what the paper lacks (its whole author list, a booktitle) is
    another file's: merged as the same record under another key is, a further source of the paper (a revision
    of the paper's own file keeps what it filled: Store.update_content) with its keywords added, and the file's
    re-import finds it unchanged. One that fills nothing is taken for the app's own export, which says nothing
    new of the paper: it is no source of it and adds no tags, so an old export read back brings back no tag or
    keyword removed since. (Counting every record found so as merged made the own export's re-import say
    "1 merged".) `own`: the paper is the file's own, which a record is not merged into. Returns whether it
    filled anything."""
    if not store.fill_missing(pid, p, sifter.rev, exported=True):
        return False
    if not own:
        sifter.join(pid, p)
    return True


# ---- removed papers: a re-import of the same record brings one back, annotations and all ----------------


def _removed_existing(store: Store, source_id: int) -> list[Existing]:
    """The source's removed papers, matched like the others (Store.remove_papers keeps them whole)."""
    return [Existing(pid, h, t, a, n, doi, key) for pid, h, t, a, n, doi, key in store.removed_source_papers(source_id)]


def _bring_back(store: Store, removed_ids: set[int], unchanged: dict[int, int], revised: dict[int, int]) -> int:
    """Removed papers the file still has come back (before a revision updates them), and the matches then
    name their ids in the library; returns how many came back."""
    wanted = [pid for pid in (*unchanged.values(), *revised.values()) if pid in removed_ids]
    if not wanted:
        return 0
    moved = store.restore_papers(wanted)
    for matches in (unchanged, revised):
        for i, pid in matches.items():
            matches[i] = moved.get(pid, pid)
    return len(moved)


# ---- duplicates: a record another file already brought is merged into that paper ----------------------


class _Duplicates:
    """Sifts each chunk of new records against the papers of other sources (importers.duplicates decides):
    the same paper is merged into the stored one (a further source of it, its gaps filled, its tags
    added), a possible one is added and listed as a pair. Candidates come from SQL by the chunk's keys."""

    def __init__(self, store: Store, source_id: int, rev: int, yours: TagsGiven | None = None):
        self.store, self.source_id, self.rev = store, source_id, rev
        self.yours = yours
        self.merged = 0
        self.changed = False  # a stored paper was filled in or tagged: the index catches up
        self._taken: set[int] = set()  # a stored paper takes one record of a file

    def sift(self, papers: list[NewPaper]) -> tuple[list[NewPaper], list[tuple[int, int, str]]]:
        """(the papers to add, (position among them, stored paper, why) of each possible duplicate)."""
        dois = [biblio.doi_key(p.bib.get("doi", "")) for p in papers]
        rows = self.store.duplicate_candidates(
            [p.title_key for p in papers], [p.text_key for p in papers], self.source_id, dois
        )
        if not rows:
            return papers, []
        by_title: dict[str, list[tuple[int, duplicates.Candidate]]] = {}
        by_text: dict[str, list[tuple[int, duplicates.Candidate]]] = {}
        by_doi: dict[str, list[tuple[int, duplicates.Candidate]]] = {}
        for pid, tkey, xkey, title, authors, year, venue, text, doi in rows:
            c = duplicates.Candidate(title, authors, year, venue, text, key=tkey, doi=doi)
            if tkey:
                by_title.setdefault(tkey, []).append((pid, c))
            if xkey:
                by_text.setdefault(xkey, []).append((pid, c))
            if doi:
                by_doi.setdefault(biblio.doi_key(doi), []).append((pid, c))
        kept: list[NewPaper] = []
        possible: list[tuple[int, int, str]] = []
        for p, doi in zip(papers, dois, strict=True):
            mine = duplicates.Candidate(p.auto_title if p.title else "", p.authors, p.year, p.venue,
                                        p.plain_abstract, key=p.title_key, doi=doi)  # fmt: skip
            same, best, maybe = None, -1, []
            seen: set[int] = set()
            # every candidate is compared and the one that agrees most is taken: a DOI copied onto another
            # paper (a volume's) is not the paper whose title the record has ('' is no key)
            for pid, c in [*by_doi.get(doi, ()), *by_title.get(p.title_key, ()), *by_text.get(p.text_key, ())]:
                if pid in seen or pid in self._taken:
                    continue
                seen.add(pid)
                verdict, why = duplicates.compare(mine, c)
                if verdict is duplicates.Verdict.SAME:
                    if (strength := duplicates.strength(mine, c)) > best:
                        same, best = pid, strength
                elif verdict is duplicates.Verdict.POSSIBLE:
                    maybe.append((pid, why))
            if same is not None:
                self._merge(same, p)
                continue
            possible.extend((len(kept), pid, why) for pid, why in maybe)
            kept.append(p)
        return kept, possible

    def _merge(self, pid: int, p: NewPaper) -> None:
        self.join(pid, p)
        if self.store.fill_missing(pid, p, self.rev):
            self.changed = True
        self.merged += 1

    def join(self, pid: int, p: NewPaper) -> None:
        """The record becomes a source of the stored paper (a re-import of its file finds it there), and the
        file's tags and keywords are added to the paper; what fills its gaps is the caller's."""
        self._taken.add(pid)
        self.store.link_source(pid, self.source_id, p.content_hash, p.title, p.source_key)
        if p.tags or p.keywords:
            self.store.add_file_tags([pid], p.tags, p.keywords, self.yours)
            self.changed = True
