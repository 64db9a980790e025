"""Annotations in one file: a backup to keep, to restore into any library, or to move to another machine.

A backup holds every paper the user touched — its content (title, abstract, authors, venue, year, links, its
bibliographic record)
and what the user added (tags, reading state, priority, note, own title, citation key) — the user's
"my interests" texts and their saved lists (each a query, a state and a tag), as gzip-compressed JSON. A restore finds
each paper in the target library the way a re-import does (the same content, else the same title with
agreeing content) and adds the papers it does not find, so a backup brings a library back from nothing.

Restoring merges, and never loses what the library has: tags are united; a state, note or title the library
leaves empty (unread, no priority, no note, no own title, no interests) takes the backup's; where both have one and
they differ the library's is kept and the difference reported (or, with overwrite, the backup's wins). A saved
list the library lacks by name is added, after its own; one it has by that name (in any case) is never doubled:
the same query, state and tag is left alone, another is kept as the library has it and reported (or, with
overwrite, takes the backup's).

The library also keeps a rolling automatic backup, written when it is closed after annotations or lists changed:
`backups/annotations-<date>.json.gz` in the data folder, the last AUTO_KEEP_DAYS days.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from readinglist import paths
from readinglist.papers import (
    DEFAULT_STATE,
    PRIORITIES,
    STATES,
    ImportFailure,
    Paper,
    QueryError,
    SmartList,
    StoreError,
    clean_tags,
    describe_view,
    same_tag,
    tag_key,
)

if TYPE_CHECKING:
    from readinglist.importers.base import Record
    from readinglist.library import Library
    from readinglist.store import Store

FORMAT = "readinglist-annotations"
VERSION = 1
AUTO_FOLDER = "backups"
AUTO_KEEP_DAYS = 7
MAX_BYTES = 1024**3  # decompressed: far beyond any real library's annotations, short of exhausting memory


@dataclass
class RestoreSummary:
    path: Path
    papers: int = 0  # in the backup
    matched: int = 0  # found in the library
    added: int = 0  # not found: added from the backup
    changed: int = 0  # papers whose annotations the restore changed
    conflicts: list[str] = field(default_factory=list)  # kept the library's value (or, with overwrite, not)
    interests: bool = False  # the library took the backup's interests
    lists: int = 0  # saved lists added (or, with overwrite, redefined as the backup has them)

    def line(self) -> str:
        text = (
            f"{self.path.name}: {self.papers} paper{'s' if self.papers != 1 else ''} — "
            f"{self.matched} found in the library, {self.added} added; "
            f"annotations changed on {self.changed}"
        )
        if self.interests:
            text += "; interests restored"
        if self.lists:
            text += f"; {self.lists} saved list{'s' if self.lists != 1 else ''} restored"
        if self.conflicts:
            text += f"; {len(self.conflicts)} differed"
        return text


# ---- writing ----------------------------------------------------------------------------------------------


def _entry(p: Paper) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": p.uid,
        "title": p.raw_title,
        "abstract": p.abstract,
        "authors": p.authors,
        "venue": p.venue,
        "year": p.year,
        "url": p.url,
        "source": p.source,
        "tags": p.own_tags,
        "keywords": p.keywords,  # the tags a file gave (a backup from before has them in "tags": the user's then)
        "state": p.state,
        "priority": p.priority,
        "note": p.note,
        "user_title": p.user_title,
        "citation_key": p.citation_key,
    }
    if p.bib:  # (a backup from before has none, and reads as before)
        entry["bib"] = dict(p.bib)
    return entry


def _lists(store: Store) -> list[dict[str, Any]]:
    """The saved lists in the user's order, each as it is defined (a list's papers are whatever match it)."""
    return [{"name": sl.name, "query": sl.query, "state": sl.state, "tag": sl.tag} for sl in store.smart_lists()]


def backup_document(store: Store) -> dict[str, Any]:
    """Every touched paper with its annotations, and the saved lists, as the backup file holds them."""
    ids = store.annotated_ids()
    source = store.interests()[1]
    papers: list[dict[str, Any]] = []
    for start in range(0, len(ids), 2000):
        papers += [_entry(p) for p in store.papers(ids[start : start + 2000])]
    return {
        "format": FORMAT,
        "version": VERSION,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "library": str(store.path),
        "papers": papers,
        "interests": {"texts": texts, "source": source} if (texts := store.interests()[0]) else None,
        "lists": _lists(store),  # (a backup from before has none, and restores none)
    }


def write_backup(store: Store, path: Path) -> int:
    """Write the backup atomically (a temporary file beside the target, then a rename); returns how many
    papers it holds. An existing file keeps its permissions."""
    doc = backup_document(store)
    data = gzip.compress(json.dumps(doc, ensure_ascii=False).encode("utf-8"), mtime=0)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~paths.umask()
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return len(doc["papers"])


def auto_backup(store: Store, folder: Path, today: date | None = None) -> Path | None:
    """Today's automatic backup, if anything was annotated, or a saved list made, changed or deleted, since the
    last one; older than AUTO_KEEP_DAYS days are removed. Returns the file written, or None."""
    if store.read_only:
        return None
    last = store.annotation_rev()
    annotated = last is not None and last > int(store.meta("auto_backup_rev") or -1)
    lists = json.dumps(held, ensure_ascii=False) if (held := _lists(store)) else ""
    if not annotated and lists == (store.meta("auto_backup_lists") or ""):
        return None
    today = today or date.today()
    target = folder / AUTO_FOLDER / f"annotations-{today.isoformat()}.json.gz"
    write_backup(store, target)
    if last is not None:
        store.set_meta("auto_backup_rev", str(last))
    store.set_meta("auto_backup_lists", lists)
    oldest = today - timedelta(days=AUTO_KEEP_DAYS - 1)
    for old in (folder / AUTO_FOLDER).glob("annotations-*.json.gz"):
        try:
            if date.fromisoformat(old.name[len("annotations-") : -len(".json.gz")]) < oldest:
                old.unlink()
        except ValueError:
            continue  # not one of ours
    return target


# ---- reading and restoring --------------------------------------------------------------------------------


def read_backup(path: Path) -> list[dict[str, Any]]:
    """The papers of a backup file, checked; ImportFailure naming the file and the problem otherwise."""
    return read_document(path)["papers"]


def backup_lists(doc: dict[str, Any]) -> list[SmartList]:
    """A backup's saved lists, those well formed (none in a backup made before they were kept)."""
    held = doc.get("lists")
    out: list[SmartList] = []
    for item in held if isinstance(held, list) else []:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"].strip():
            continue
        query, state, tag = item.get("query") or "", item.get("state"), item.get("tag")
        if isinstance(query, str) and (state is None or state in STATES) and (tag is None or isinstance(tag, str)):
            out.append(SmartList(0, " ".join(item["name"].split()), query, state, tag or None))
    return out


def backup_interests(doc: dict[str, Any]) -> tuple[list[str], str]:
    """A backup's interests texts and their source (none in a backup made before they were kept)."""
    held = doc.get("interests")
    if not isinstance(held, dict) or not isinstance(held.get("texts"), list):
        return [], ""
    texts = [t for t in held["texts"] if isinstance(t, str) and t.strip()]
    return texts, str(held.get("source") or "") if texts else ""


def read_document(path: Path) -> dict[str, Any]:
    """A backup file's document, its papers checked; ImportFailure naming the file and the problem otherwise."""
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            head = fh.read(2)
            fh.seek(0)
            raw = gzip.GzipFile(fileobj=fh).read(MAX_BYTES + 1) if head == b"\x1f\x8b" else fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise ImportFailure(path, "no such file") from None
    except (OSError, EOFError) as exc:
        raise ImportFailure(path, f"cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    if len(raw) > MAX_BYTES:
        raise ImportFailure(path, f"is larger than {MAX_BYTES // 1024**3} GB uncompressed")
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ImportFailure(path, f"is not a readinglist backup (not JSON: {exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ImportFailure(path, "is not a readinglist backup (made by `readinglist backup`)")
    if not isinstance(doc.get("version"), int) or doc["version"] > VERSION:
        raise ImportFailure(path, f"was made by a newer readinglist (backup version {doc.get('version')})")
    papers = doc.get("papers")
    if not isinstance(papers, list) or not all(isinstance(p, dict) for p in papers):
        raise ImportFailure(path, "is damaged (its list of papers is not a list of papers)")
    return doc


def _record(entry: dict[str, Any]) -> Record:
    from readinglist import biblio
    from readinglist.importers.base import Record

    year = entry.get("year")
    held = entry.get("bib")
    return Record(
        title=str(entry.get("title") or ""),
        abstract=str(entry.get("abstract") or ""),
        authors=[str(a) for a in entry.get("authors") or [] if isinstance(a, str)],
        year=year if isinstance(year, int) else None,
        venue=str(entry.get("venue") or ""),
        url=str(entry.get("url") or ""),
        key=str(entry.get("id") or ""),
        bib=biblio.clean(held)[0] if isinstance(held, dict) else {},  # checked as an import checks a file's
    )


def _find(store: Store, entries: list[dict[str, Any]]) -> tuple[dict[int, int], list[int]]:
    """Which library paper each entry is: the same content, else the same title with agreeing content.
    Returns (entry index → paper id, indexes of entries not found)."""
    from readinglist.importers.matching import Existing, Incoming, _norm_title, same_content
    from readinglist.importing import content_hash
    from readinglist.markup import to_plain

    records = [_record(e) for e in entries]
    hashes = [content_hash(r) for r in records]
    by_hash = store.ids_with_content(hashes)
    found = {i: by_hash[h] for i, h in enumerate(hashes) if h in by_hash}
    rest = [i for i in range(len(entries)) if i not in found]
    if not rest:
        return found, []
    by_title: dict[str, list[tuple[int, list[str]]]] = {}
    for pid, title, authors in store.title_authors():
        if title.strip():
            by_title.setdefault(_norm_title(title), []).append((pid, authors))
    taken = set(found.values())
    missing = []
    for i in rest:
        r = records[i]
        cands = [(pid, a) for pid, a in by_title.get(_norm_title(r.title), []) if pid not in taken] if r.title else []
        if not cands:  # (its abstract made plain only for a title found: the most of a restore into a new library)
            missing.append(i)
            continue
        texts = {p.id: p.abstract for p in store.papers([pid for pid, _ in cands])}
        incoming = Incoming("", r.title, to_plain(r.abstract), r.authors)
        match = next((pid for pid, a in cands if same_content(Existing(pid, "", r.title, texts.get(pid, ""), a),
                                                              incoming)), None)  # fmt: skip
        if match is None:
            missing.append(i)
        else:
            found[i] = match
            taken.add(match)
    return found, _find_retitled(store, entries, records, found, missing)


def _find_retitled(
    store: Store, entries: list[dict[str, Any]], records: list[Record], found: dict[int, int], rest: list[int]
) -> list[int]:
    """Entries neither their content nor their title found: a paper whose title changed since (the library's
    own export read back gave a paper with a title derived from its abstract the user's own title: a trial's
    restore added that paper a second time, beside the untouched original). Found by the readinglist id the
    backup names, or by the first words of the abstract, where the content agrees (and, by the abstract alone,
    the authors and year too). Adds the matches to `found`; returns the indexes of entries still not found."""
    from readinglist.importers.duplicates import text_key
    from readinglist.importers.matching import Existing, Incoming, _authors_agree, same_content
    from readinglist.markup import to_plain

    if not rest or not store.count():  # a restore into an empty library: nothing to find (1.25 s of 9.9 s at 11k)
        return rest
    texts = {i: to_plain(records[i].abstract) for i in rest}
    by_uid = store.ids_with_uids([str(entries[i].get("id") or "") for i in rest])
    keys = {i: text_key(texts[i]) for i in rest}
    by_text = store.ids_with_text_keys(list(keys.values()))
    wanted = {*by_uid.values(), *(pid for ids in by_text.values() for pid in ids)}
    papers = {p.id: p for p in store.papers(sorted(wanted))} if wanted else {}
    taken = set(found.values())
    missing = []
    for i in rest:
        r = records[i]
        incoming = Incoming("", r.title, texts[i], r.authors)
        match = None
        uid_pid = by_uid.get(str(entries[i].get("id") or "").lower())
        for pid in [uid_pid, *by_text.get(keys[i], [])] if keys[i] else [uid_pid]:
            paper = papers.get(pid) if pid is not None else None
            if paper is None or pid in taken:
                continue
            existing = Existing(paper.id, "", paper.raw_title, paper.abstract, paper.authors)
            if not (existing.text and texts[i]) or not same_content(existing, incoming):
                continue  # a paper without an abstract is not told by its id alone (six characters)
            if pid != uid_pid and not (_authors_agree(paper.authors, r.authors) and paper.year == r.year):
                continue
            match = pid
            break
        if match is None:
            missing.append(i)
        else:
            found[i] = match
            taken.add(match)
    return missing


def _fill_record(store: Store, pid: int, bib: dict[str, str]) -> None:
    """The backup's bibliographic record, where the paper has none (a file's record is never replaced)."""
    paper = store.paper(pid)
    if bib and paper is not None and not paper.bib:
        store.set_record(pid, bib)


def restore(library: Library, path: Path, overwrite: bool = False) -> RestoreSummary:
    """Bring a backup's annotations (and, where missing, its papers) into `library`, in one transaction."""
    from readinglist.importing import content_hash, to_new_paper

    path = Path(path)
    doc = read_document(path)
    entries = doc["papers"]
    summary = RestoreSummary(path, papers=len(entries))
    store = library.store
    with store.transaction() as db:
        texts, origin = backup_interests(doc)
        held = store.interests()[0]
        if texts and texts != held:
            if not held or overwrite:
                store.set_interests(texts, origin)
                summary.interests = True
            else:
                summary.conflicts.append("interests: kept the library's, the backup's differ")
        found, missing = _find(store, entries)
        summary.matched = len(found)
        if missing:
            source = store.source_id(f"backup:{path.resolve()}", path.name.split(".")[0], "backup")
            rev = store.next_rev(db)
            new = [to_new_paper(_record(entries[i]), content_hash(_record(entries[i]))) for i in missing]
            ids = store.insert_papers(source, new, rev)
            found.update(zip(missing, ids, strict=True))
            summary.added = len(ids)
        added = set(missing)
        for i, pid in found.items():  # a record the library lacks (its file imported before records were kept)
            if i not in added and isinstance(entries[i].get("bib"), dict):
                _fill_record(store, pid, _record(entries[i]).bib)
        current = {p.id: p for p in store.papers(list(found.values()))}
        touched = set(store.annotated_ids())
        tags_after: dict[int, list[str]] = {}
        keywords: list[str] = []  # the backup's keywords and the user's tags, each marked so once restored
        theirs: list[str] = []
        rekey: dict[int, str] = {}  # paper → the backup's key, set once all are known (papers may trade keys)
        changed_ids: set[int] = set()
        for i, pid in found.items():
            entry, paper = entries[i], current[pid]
            changed = False
            want_tags = clean_tags(str(t) for t in entry.get("tags") or [] if isinstance(t, str))
            want_keywords = clean_tags(str(t) for t in entry.get("keywords") or [] if isinstance(t, str))
            theirs += want_tags
            keywords += want_keywords
            union = list(dict.fromkeys([*paper.tags, *want_tags, *want_keywords]))
            if union != paper.tags:
                tags_after[pid] = union
                changed = True
            state = entry.get("state")
            if state in STATES and state != DEFAULT_STATE and state != paper.state:
                if paper.state == DEFAULT_STATE or overwrite:
                    store.set_state([pid], state)
                    changed = True
                else:
                    summary.conflicts.append(f"{paper.uid} state: kept {paper.state}, the backup has {state}")
            priority = entry.get("priority")
            if type(priority) is int and priority in PRIORITIES and priority != paper.priority:
                if paper.priority is None or overwrite:
                    store.set_priority([pid], priority)
                    changed = True
                else:
                    summary.conflicts.append(f"{paper.uid} priority: kept {paper.priority}, the backup has {priority}")
            note = entry.get("note")
            if isinstance(note, str) and note.strip() and note != paper.note:
                if not paper.note.strip() or overwrite:
                    store.set_note(pid, note)
                    changed = True
                else:
                    summary.conflicts.append(f"{paper.uid} note: kept the library's, the backup's differs")
            title = entry.get("user_title")
            if isinstance(title, str) and title.strip() and title != paper.user_title:
                if not paper.user_title or overwrite:
                    store.set_user_title(pid, title)
                    changed = True
                else:
                    summary.conflicts.append(f"{paper.uid} title: kept “{paper.user_title}”, the backup has “{title}”")
            key = entry.get("citation_key")
            if isinstance(key, str) and key and key != paper.citation_key:
                # the key the user's documents cite: it follows the backup unless the library's was chosen too
                if pid not in touched or overwrite:
                    rekey[pid] = key
                else:
                    summary.conflicts.append(
                        f"{paper.uid} citation key: kept {paper.citation_key}, the backup has {key}"
                    )
            if changed:
                changed_ids.add(pid)
        summary.changed = len(changed_ids.union(_restore_keys(store, rekey, current, summary)))
        _restore_lists(library, backup_lists(doc), overwrite, summary)
        known = store.tag_marks(keywords)  # a tag the library has stays what it is
        if tags_after:
            store.set_tags(tags_after)
        mine = {tag_key(t) for t in theirs}
        store.mark_imported([k for k in keywords if tag_key(k) not in known and tag_key(k) not in mine], True)
        # the backup's own tags are the user's, a keyword of the library's made theirs again ("Make It My Tag")
        store.mark_imported([name for name, kw in store.tag_marks(theirs).values() if kw], False)
    return summary


def _restore_keys(
    store: Store, wanted: dict[int, str], current: dict[int, Paper], summary: RestoreSummary
) -> list[int]:
    """The backup's citation keys, all at once: papers added or found here may hold each other's keys (a restore
    into an empty library adds the papers in the backup's order, each given the first free key of its base, so
    that deep2021reinforcementa came back as deep2021reinforcement and the next paper of that base lost its own
    key: a LaTeX \\cite then named another paper). A key another paper holds, one not taking the backup's keys,
    is kept as the library has it and reported; so is, in turn, a key it leaves wanted. Returns the papers
    re-keyed."""
    from readinglist import citekeys

    plan: dict[int, str] = {}
    owner: dict[str, int] = {}
    for pid, key in wanted.items():
        try:
            key = citekeys.check_key(key)
        except ValueError as exc:
            summary.conflicts.append(f"{current[pid].uid} citation key: kept {current[pid].citation_key} ({exc})")
            continue
        if key.lower() in owner:
            summary.conflicts.append(f"{current[pid].uid} citation key: kept {current[pid].citation_key} "
                                     f"(the backup gives {key} to another paper too)")  # fmt: skip
            continue
        owner[key.lower()] = pid
        plan[pid] = key
    holders = store.key_holders(list(plan.values()))
    while True:
        blocked = [pid for pid, key in plan.items() if holders.get(key.lower(), pid) not in (pid, *plan)]
        if not blocked:
            break
        for pid in blocked:
            key = plan.pop(pid)
            other = store.uids([holders[key.lower()]]).get(holders[key.lower()], "")
            summary.conflicts.append(
                f"{current[pid].uid} citation key: kept {current[pid].citation_key} "
                f"(citation key {key!r} is taken by paper {other})"
            )
    store.set_citation_keys(plan)
    return list(plan)


def _restore_lists(library: Library, lists: list[SmartList], overwrite: bool, summary: RestoreSummary) -> None:
    """The backup's saved lists, each once: one the library lacks by name is added, last; one it has with the
    same definition is left; one it has defined otherwise keeps the library's (overwrite: the backup's)."""
    have = {sl.name.casefold(): sl for sl in library.smart_lists()}
    for sl in lists:
        mine = have.get(sl.name.casefold())
        if mine is None:
            try:
                library.check_smart_list(sl.name, sl.query)  # a query this version cannot search is not kept
            except (StoreError, QueryError) as exc:
                summary.conflicts.append(f"list “{sl.name}”: not restored ({exc})")
                continue
            have[sl.name.casefold()] = library.store.add_smart_list(sl.name, sl.query, sl.state, sl.tag)
            summary.lists += 1
        elif (mine.query, mine.state) == (sl.query.strip(), sl.state) and (
            mine.tag == sl.tag or same_tag(mine.tag, sl.tag)
        ):
            continue
        elif overwrite:
            library.store.update_smart_list(SmartList(mine.id, mine.name, sl.query, sl.state, sl.tag))
            summary.lists += 1
        else:
            summary.conflicts.append(
                f"list “{mine.name}”: kept the library's ({mine.describe()}), the backup's is "
                f"{describe_view(sl.query, sl.state, sl.tag)}"
            )
