"""The command line over the same core as the window: `readinglist [--data-dir DIR] COMMAND`.

Over 400 lines: the parser and one short branch per command; each branch only formats what a Library
method returns.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import re
import shutil
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

from readinglist import __version__, biblio
from readinglist.library import Library
from readinglist.papers import (
    EXPORT_FORMATS,
    EXPORT_GROUPS,
    STATE_HINTS,
    STATE_MARKS,
    STATES,
    ExportOptions,
    ImportCancelled,
    ImportFailure,
    NothingToLearn,
    Paper,
    QueryError,
    SearchResult,
    SmartList,
    StoreError,
    export_format_for,
    no_paper_has,
    parse_priority,
    tag_key,
    words_counted,
)

SEARCH_HELP = f"""\
search syntax:
  words             all of them, any form (learn finds learning; the form typed ranks first), title
                    weighted over abstract; a pasted title or sentence is read as text
  "a phrase"        exactly these words next to each other     =word  exactly this form
  transform*        prefix        transformr~  fuzzy (one edit; ~2 for two)
  a OR b, NOT c     boolean; AND is implied; parentheses group
  title: abstract: author: tag: note: venue:   one field (tag:must-read finds #must-read)
  year:2024  year:2020..2024  year:>2020       years
  state:{"|".join(STATES)}
  priority:1|2|3|none   priority 1 first
  topic:12  topic:graph  NOT topic:12         a topic's papers, by id or a word of its name
                                              (readinglist topics lists them)
When no paper has every word, the closest matches are listed (most words and best fit first); a misspelt
word is corrected from the library's own words, and the correction searched (both said on stderr).
"""


# what still works on a library that cannot be written
READS = {"list", "search", "show", "cite", "export", "lists", "removed", "suggest", "duplicates"}
CITE_LIMIT = 10  # the papers `cite QUERY` cites unless --limit says otherwise


class CliError(Exception):
    """One line for stderr, exit code 1."""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="readinglist",
        description="Work through a conference's papers. With no command, the window opens. A paper's ID is its id as"
        " `list` shows it (or its first letters, when no other id starts so), or its citation key.",
        epilog=SEARCH_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--data-dir",
        metavar="DIR",
        help="keep the library here (default: the user data folder; also $READINGLIST_DATA_DIR)",
    )
    p.add_argument("--version", action="version", version=f"readinglist {__version__}")
    p.add_argument("--smoke-test", action="store_true", help="start the window, wait until it is painted, exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    s = sub.add_parser(
        "import",
        help="import papers from files (seed text, JSON Lines/JSON, BibTeX, CSV/TSV, RIS, the app's own exports);"
        " a notes folder (export --format obsidian) merges its edited notes, tags and states back",
    )
    s.add_argument("files", nargs="+", type=Path, metavar="FILE")

    for name, helptext in (
        ("list", "list papers, optionally matching a query"),
        ("search", "search, best first"),
    ):
        s = sub.add_parser(
            name, help=helptext, epilog=SEARCH_HELP, formatter_class=argparse.RawDescriptionHelpFormatter
        )
        s.add_argument("query", nargs="?", default="", metavar="QUERY")
        if name == "search":
            s.add_argument("--limit", type=int, default=20, help="how many (default 20; 0 for all)")
        s.add_argument("--list", metavar="NAME", dest="smart_list", help="within a saved list (see `lists`)")
        s.add_argument("--json", action="store_true", help="print a JSON list of papers")

    s = sub.add_parser("show", help="show one paper (by id or citation key)")
    s.add_argument("id", metavar="ID")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser(
        "cite",
        help="print papers' citations as the window copies them (APA's order, or the BibTeX entry)",
        description="Cite the papers given by id (as list and search show them) or citation key (as `key` shows"
        " them: Alexander:2009do), or the best matches of a query.",
        epilog=SEARCH_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("query", nargs="+", metavar="QUERY-or-ID")
    s.add_argument("--format", choices=("apa", "bibtex"), default="apa", help="apa (default) or bibtex")
    s.add_argument(
        "--limit",
        type=int,
        default=CITE_LIMIT,
        help=f"at most this many of a query's papers (default {CITE_LIMIT}; 0: all)",
    )

    for name in ("tag", "untag"):
        s = sub.add_parser(
            name,
            help=f"{'add' if name == 'tag' else 'remove'} tags: `{name} ID [ID…] TAG…`",
            usage=f"readinglist {name} [-h] ID [ID ...] TAG [TAG ...] [--tag WORD]",
            description=f"{'Add tags to' if name == 'tag' else 'Remove tags from'} one paper or several: the papers "
            "first, then the tags. A paper is named by its id as `list` shows it, a start of it (4 or more "
            "characters, no other paper's) or its citation key in any case; the first word that names no paper "
            "begins the tags. A word that names a paper is never taken for a tag"
            + (" (unless a paper named has a tag of that name: it is taken off)" if name == "untag" else "")
            + f": `--tag WORD` {'adds' if name == 'tag' else 'removes'} a tag of that name anyway.",
        )
        s.add_argument("id", metavar="ID")
        parts = "a comma parts tags too ('a, b'), except inside a tag the library has ('Optimization, convex')"
        s.add_argument("tags", nargs="*", metavar="TAG", help=f"one or more (after more papers, if any); {parts}")
        s.add_argument(
            "--tag",
            action="append",
            default=[],
            dest="given_tags",
            metavar="WORD",
            help="a tag even if the word names a paper (an id, a start of one, a citation key); may be repeated",
        )

    states = "; ".join(f"{st}: {STATE_HINTS[st]}" for st in STATES)
    s = sub.add_parser("mark", help="set the reading state", description=f"States — {states}.")
    s.add_argument("id", metavar="ID")
    s.add_argument("state", choices=STATES)

    s = sub.add_parser("priority", help="set a paper's priority: 1, 2 or 3 (1 first), 0 clears it")
    s.add_argument("id", metavar="ID")
    s.add_argument("priority", metavar="0-3")

    s = sub.add_parser(
        "lists",
        help="show the saved lists with their counts (or save, rename, delete one)",
        description="Smart lists are saved views — a query, a state and a tag — counted live. With no action, "
        "each is shown with how many papers it holds now.",
    )
    s.add_argument("--json", action="store_true", help="print a JSON list")
    actions = s.add_subparsers(dest="action", metavar="ACTION")
    a = actions.add_parser("save", help="save a list: `lists save NAME [QUERY] [--state S] [--tag T]`")
    a.add_argument("name", metavar="NAME")
    a.add_argument("query", nargs="?", default="", metavar="QUERY")
    a.add_argument("--state", choices=STATES)
    a.add_argument("--tag")
    a = actions.add_parser("rename", help="rename a list")
    a.add_argument("name", metavar="NAME")
    a.add_argument("new_name", metavar="NEW")
    a = actions.add_parser("delete", help="delete a list (its papers stay)")
    a.add_argument("name", metavar="NAME")

    s = sub.add_parser(
        "suggest",
        help="untriaged papers (unread, no priority) by predicted interest, each with why",
        description="Learns from your marks — read, skimmed, queued or prioritised papers are positive, skipped "
        "ones negative — and from your interests (see `interests`), and ranks the papers you have not triaged. "
        "`why` lists the words and phrases of the paper that weighed most, `near` the marked papers it is "
        "closest to. With QUERY, only the papers the search finds are ranked.",
    )
    s.add_argument("query", nargs="?", default="", metavar="QUERY")
    s.add_argument("--limit", type=int, default=20, help="how many (default 20; 0 for all)")
    s.add_argument("--json", action="store_true", help="print a JSON list of papers, each with score, why and near")

    s = sub.add_parser(
        "interests",
        help="print or set your interests: a text that seeds the suggestions before any mark",
        description="Your interests seed `suggest` (and the window's Suggested papers) along with your marks: a "
        "paragraph, or the title and abstract of each paper in a file of your own papers (BibTeX or any format "
        "`import` reads; nothing is imported). They are kept in the library and its backups.",
    )
    g = s.add_mutually_exclusive_group()
    g.add_argument("--set", metavar="TEXT", dest="text", help="a paragraph about what you work on")
    g.add_argument("--file", metavar="F", type=Path, help="a file of your own papers (their abstracts are used)")
    g.add_argument("--clear", action="store_true", help="forget the interests")

    s = sub.add_parser("note", help="print, set or replace a paper's note (Markdown)")
    s.add_argument("id", metavar="ID")
    g = s.add_mutually_exclusive_group()
    g.add_argument("--set", metavar="TEXT", dest="text")
    g.add_argument("--file", metavar="F", type=Path)

    s = sub.add_parser("title", help="set your own title for a paper ('' restores the imported one)")
    s.add_argument("id", metavar="ID")
    s.add_argument("text", metavar="TEXT")

    s = sub.add_parser("key", help="print a paper's citation key, or set your own")
    s.add_argument("id", metavar="ID")
    s.add_argument("key", nargs="?", metavar="NEWKEY", help="the new key (unique in the library)")
    s = sub.add_parser(
        "remove", help="remove papers from the library (annotations kept: a re-import or unremove brings them back)"
    )
    s.add_argument("ids", nargs="+", metavar="ID")
    sub.add_parser("removed", help="list the papers removed from the library")
    s = sub.add_parser("unremove", help="bring removed papers back, with their tags, notes, states and titles")
    s.add_argument("ids", nargs="+", metavar="ID")

    s = sub.add_parser("duplicates", help="list the pairs of papers that may be one paper (found at import)")
    s.add_argument("--json", action="store_true", help="print a JSON list of the pairs")
    s = sub.add_parser(
        "merge",
        help="merge the second paper into the first (tags united, notes joined); --apart: keep them distinct",
    )
    s.add_argument("ids", nargs=2, metavar="ID")
    s.add_argument("--apart", action="store_true", help="remember that the two are different papers")

    s = sub.add_parser("export", help="export a reading list (Markdown to stdout by default)")
    s.add_argument("query", nargs="?", default="", metavar="QUERY")
    s.add_argument("-o", "--output", type=Path, metavar="FILE")
    s.add_argument("--format", choices=list(EXPORT_FORMATS), default=None)
    s.add_argument("--list", metavar="NAME", dest="smart_list", help="the papers of a saved list")
    s.add_argument("--group", choices=EXPORT_GROUPS, default="state")
    s.add_argument("--abstracts", action="store_true", help="include the abstracts")
    s.add_argument("--no-notes", action="store_true", help="leave the notes out")

    s = sub.add_parser("backup", help="write every annotation and saved list (and the papers annotated) to one file")
    s.add_argument("file", type=Path, metavar="FILE")
    s = sub.add_parser("restore", help="bring a backup's annotations and lists (and missing papers) into this library")
    s.add_argument("file", type=Path, metavar="FILE")
    s.add_argument(
        "--overwrite",
        action="store_true",
        help="where both have a state, note, title or list of one name, the backup's wins",
    )
    s = sub.add_parser("topics", help="list the library's topics (computed first if papers came since)")
    s.add_argument("--json", action="store_true", help="print a JSON list of topics")
    s.add_argument("--recompute", action="store_true", help="compute them again now")
    s.add_argument(
        "--count",
        type=int,
        metavar="N",
        help="how many topics to look for when they are computed (first, when papers came, or with --recompute;"
        " default: by library size)",
    )

    sub.add_parser(
        "check",
        help="check this installation in a temporary library: import, search, and the index's writer processes",
    )
    s = sub.add_parser("install-desktop", help="add readinglist to the desktop's application menu (Linux)")
    s.add_argument("--uninstall", action="store_true")
    return p


# ---- output -----------------------------------------------------------------------------------------


_PROCEEDINGS_RE = re.compile(r"^(?:Proceedings|Proc\.)\s+of\s+(?:the\s+)?", re.IGNORECASE)
VENUE_ROOM = 20  # a venue too long for the line is shortened to no fewer characters than this before the title


def shortened(text: str, room: int) -> str:
    """`text` in at most `room` characters: cut at a word's end when one is near, with an ellipsis."""
    if len(text) <= room:
        return text
    cut = text[: room - 1]
    if text[room - 1] != " " and " " in cut and cut.rindex(" ") >= room // 2:  # a word cut: left out
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:-") + "…"


def paper_line(p: Paper, width: int) -> str:
    """One paper on one line of `width`: id, state, title, then venue, year, priority and tags. When it is too
    wide, a long venue is shortened first ("Proceedings of the…"), then the title: a trial's line showed
    "MaxSAT by Improved …  Proceedings of the AAAI Conference on Artificial Intelligence 2014"."""
    tags = " ".join(f"#{t.replace(' ', '-')}" for t in p.own_tags)  # as the table: the user's, not a file's
    head = f"{p.uid:<7} [{STATE_MARKS[p.state]}] "

    def tail(venue: str) -> str:
        meta = " ".join(x for x in (venue, str(p.year or "")) if x)
        return "  " + " · ".join(x for x in (meta, f"P{p.priority}" if p.priority else "", tags) if x)

    venue = p.venue
    over = len(head) + len(p.title) + len(tail(venue)) - width
    if over > 0 and len(venue) > VENUE_ROOM:
        venue = _PROCEEDINGS_RE.sub("", venue) or venue  # "AAAI Conference on…", not "Proceedings of the…"
        venue = shortened(venue, max(VENUE_ROOM, len(p.venue) - over))
    end = tail(venue)
    room = max(20, width - len(head) - len(end))
    return f"{head}{shortened(p.title, room) if len(p.title) > room else p.title}{end}"


def print_papers(
    papers: Sequence[Paper],
    as_json: bool,
    scores: Sequence[float] | None = None,
    matched: Sequence[int] | None = None,
) -> None:
    if as_json:
        items = [p.to_json() for p in papers]
        if scores is not None:
            for item, score in zip(items, scores, strict=False):
                item["score"] = round(score, 4)
        if matched:
            for item, count in zip(items, matched, strict=False):
                item["words_matched"] = count
        print(json.dumps(items, ensure_ascii=False, indent=2))
        return
    width = shutil.get_terminal_size((100, 20)).columns
    for p in papers:
        print(paper_line(p, width))


def wrap_words(text: str, width: int) -> list[str]:
    """Greedy line filling, linear in the text: textwrap breaks a long word by slicing off the rest again
    and again (quadratic in one long token), and is slow on huge prose too."""
    lines: list[str] = []
    line: list[str] = []
    used = 0
    for word in text.split():
        if len(word) > width:  # a token longer than a line: its own lines, cut at the width
            if line:
                lines.append(" ".join(line))
                line, used = [], 0
            pieces = [word[i : i + width] for i in range(0, len(word), width)]
            lines += pieces[:-1]
            word = pieces[-1]
        if line and used + 1 + len(word) > width:
            lines.append(" ".join(line))
            line, used = [], 0
        used += len(word) + (1 if line else 0)
        line.append(word)
    if line:
        lines.append(" ".join(line))
    return lines


def show_paper(p: Paper) -> str:
    from readinglist.markup import to_plain

    width = min(100, shutil.get_terminal_size((100, 20)).columns)
    lines = [p.title, "=" * min(len(p.title), width)]
    meta = " ".join(x for x in (p.venue, str(p.year or "")) if x)
    key = f" · key {p.citation_key}" if p.citation_key else ""
    priority = f" · priority {p.priority}" if p.priority else ""
    lines.append(f"id {p.uid}{key} · {p.state}{priority}" + (f" · {meta}" if meta else ""))
    if p.authors:
        lines.append(", ".join(p.authors) + (", et al." if p.bib.get("moreauthors") else ""))
    if p.own_tags:
        lines.append("tags: " + ", ".join(p.own_tags))
    if p.keywords:  # what a file gave, apart from the user's tags (the window's Keywords)
        lines.append("keywords: " + ", ".join(p.keywords))
    if p.bib:  # the bibliographic record, as an export writes it (the type first; the DOI as its link)
        record = ", ".join(f"{k} {v}" for k, v in p.bib.items() if k != "doi")
        lines.append(f"record: {record}" if record else "record:")
        if p.doi:
            lines[-1] += f"{', ' if record else ' '}doi {p.doi} ({biblio.doi_url(p.doi)})"
    if p.links:
        lines += [f"  {u}" for u in p.links]
    if p.abstract:
        lines.append("")
        for para in to_plain(p.abstract).split("\n\n"):
            lines += [*wrap_words(para, width), ""]
    if p.note.strip():
        lines += ["Note:", textwrap.indent(p.note.strip(), "  ")]
    return "\n".join(lines).rstrip()


class _Progress:
    """A one-line progress display on stderr, only when stderr is a terminal."""

    def __init__(self) -> None:
        self.active = sys.stderr.isatty()

    def __call__(self, done: int, total: int, message: str) -> None:
        if self.active:
            pct = f" {100 * done // total:3d}%" if total else ""
            sys.stderr.write(f"\r\033[K{message}{pct}")
            sys.stderr.flush()

    def clear(self) -> None:
        if self.active:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


# ---- commands ---------------------------------------------------------------------------------------


def say(message: str) -> None:
    """A note on stderr, beside the results on stdout."""
    print(f"readinglist: {message}", file=sys.stderr)


def searched(lib: Library, query: str, limit: int | None, smart: SmartList | None = None) -> SearchResult:
    """The results to print for a query, always in rank order, with what a reader should know said on
    stderr: a misspelt word's correction (searched instead when no paper has every word as typed), the
    closest matches when no paper has every word, and any note on how the query was read. With `smart`, the
    query is searched within that saved list."""

    def run(text: str) -> SearchResult:
        return lib.search_list(smart, text, limit) if smart is not None else lib.search(text, limit=limit)

    result = run(query)
    if result.correction and (result.partial or not result.ids):
        corrected = run(result.correction)
        if corrected.ids:
            say(f"no paper has every word of “{query}”; searched “{result.correction}” instead")
            result = corrected
        else:
            say(f"did you mean “{result.correction}”?")
    elif result.correction:
        say(f"did you mean “{result.correction}”?")
    for note in result.notes:
        say(note)
    note_unindexed(result)
    if result.partial:
        missing = f" ({no_paper_has(result.unknown, capital=False)})" if result.unknown else ""
        say(f"no paper has every word of “{result.query}”{missing}; closest matches first{words_counted(result)}")
    return result


_UID_RE = re.compile(r"[0-9a-f]{6,40}")


def cited_ids(lib: Library, words: Sequence[str]) -> list[int] | None:
    """The papers `cite` names when every word is a paper's id as printed (whole: a prefix could be a word of
    the query, "decade") or its citation key ("Alexander:2009do", whose colon is no field); None when the words
    are a query."""
    ids = []
    for word in words:
        keyed = lib.store.id_of_key(word)
        if keyed is not None:
            ids.append(keyed)
            continue
        uid = word.strip().lower()
        if not _UID_RE.fullmatch(uid):
            return None
        try:
            pid = lib.resolve(uid)
        except StoreError:
            return None
        if lib.store.uids([pid]).get(pid) != uid:
            return None
        ids.append(pid)
    return list(dict.fromkeys(ids))


def tagged_papers(
    lib: Library, cmd: str, first: str, words: Sequence[str], given: Sequence[str] = ()
) -> tuple[list[int], list[str]]:
    """The papers and tags of `tag ID [ID…] TAG… [--tag WORD]`: after the first ID, each word that names a paper
    as the first may — its whole id (as `list` shows it), a start of its id of 4 or more characters that no
    other paper's id has, or its citation key in any case — names one more paper, up to the first tag. A word
    among the tags that names a paper is refused, not made a tag: `tag 2345ec 1ecff7 RL` once tagged one paper
    "1ecff7" and "RL", `tag f55ccf e2a9 foo` one "e2a9" and `tag e2fe80 Alexander:2009do t` one with the key
    (trials). `given` (--tag WORD) are tags whatever they name: the way to tag with such a word anyway."""
    ids = [lib.resolve(first)]
    tags = list(words)
    # `untag`: a word one of the papers has as a tag is that tag (one named like a paper's id, given before ids
    # were refused, is taken off so: the command line had no other way to)
    had = {tag_key(t) for ts in lib.tags_of(ids).values() for t in ts} if cmd == "untag" else set()
    usage = f"`readinglist {cmd} ID [ID…] TAG…`: the papers, then the tags"
    while tags and tag_key(tags[0]) not in had and (pid := _paper_of_word(lib, cmd, tags[0])) is not None:
        tags.pop(0)
        ids.append(pid)
        if cmd == "untag":
            had |= {tag_key(t) for t in lib.tags_of([pid]).get(pid, [])}
    anyway = f"`--tag WORD` {'adds' if cmd == 'tag' else 'removes'} a tag of that name anyway"
    if not words and not given:
        raise CliError(f"no tags given ({usage})")
    if not tags and not given:
        named = ", ".join(f"“{w}”" for w in words)
        what = "names a paper, not a tag" if len(words) == 1 else "name papers, not tags"
        raise CliError(f"no tags given: {named} {what}; nothing was changed ({usage}; {anyway})")
    for tag in tags:
        if tag_key(tag) not in had and (pid := _paper_of_word(lib, cmd, tag)) is not None:
            raise CliError(f"“{tag}” names a paper ({lib.store.uids([pid])[pid]}), not a tag; nothing was changed"
                           f" ({usage}; {anyway})")  # fmt: skip
    return list(dict.fromkeys(ids)), [*tags, *given]


_UID_START_RE = re.compile(r"[0-9a-f]{4,40}")


def _paper_of_word(lib: Library, cmd: str, word: str) -> int | None:
    """The paper a word of `tag`/`untag` names, as the first ID may: its whole id (a removed paper's raises
    StoreError, saying it was removed), its citation key in any case, or a start of its id of 4 or more
    characters that is no other paper's (a start several papers' ids share is refused: which was meant?)."""
    uid = word.strip().lower()
    kind = lib.store.uid_kind(uid) if _UID_RE.fullmatch(uid) else None
    if kind is not None:
        return lib.resolve(uid)  # "paper … was removed …; `readinglist unremove …` brings it back"
    keyed = lib.store.id_of_key(word)
    if keyed is not None:
        return keyed
    if not _UID_START_RE.fullmatch(uid):
        return None
    found = lib.store.uids_starting(uid)
    if len(found) > 1:
        listed = ", ".join(list(found.values())[:5])
        anyway = f"`--tag {word}` {'adds' if cmd == 'tag' else 'removes'} a tag of that name"
        raise CliError(f"“{word}” starts the ids of several papers ({listed}{' …' if len(found) > 5 else ''}): "
                       f"give more of the id; {anyway}; nothing was changed")  # fmt: skip
    return next(iter(found), None)


def run_cite(args: argparse.Namespace, lib: Library) -> int:
    """The window's Copy Citation (or Copy BibTeX) of papers given by id, or of a query's best matches, at
    most --limit of them, said on stderr when the query found more."""
    from readinglist.citation import bibtex_citations, text_citations

    if args.limit < 0:
        raise CliError("--limit must be 0 (all) or more")
    ids = cited_ids(lib, args.query)
    if ids is None:
        query = " ".join(args.query)
        if not query.strip():
            raise CliError("cite needs a paper's id, its citation key or a query")
        try:
            found = searched(lib, query, None).ids
        except QueryError as exc:
            if len(args.query) == 1 and ":" in query and "unknown field" in str(exc):  # meant as a key
                raise CliError(f"no paper has the citation key “{query.strip()}” (read as a query: {exc})") from None
            raise
        if not found:
            for word in args.query if all(_UID_RE.fullmatch(w.strip().lower()) for w in args.query) else ():
                lib.resolve(word)  # an id that names no paper: why (removed, ambiguous, none)
            raise CliError(f"no paper matches “{query}”")
        ids = found[: args.limit or None]
        if len(ids) < len(found):
            say(f"{len(found):,} papers match “{query}”; cited the first {len(ids):,}, best first"
                f" (--limit N for more, --limit 0 for all)")  # fmt: skip
    papers = lib.papers(ids)
    text = bibtex_citations(papers) if args.format == "bibtex" else text_citations(papers)
    print(text.rstrip("\n"))
    return 0


def note_unindexed(result: SearchResult) -> None:
    if result.unindexed:
        n = result.unindexed
        say(f"note: {n} recent change{'s are' if n != 1 else ' is'} not searchable yet "
            "(another readinglist process is writing the search index)")  # fmt: skip


def _in_order(files: Sequence[Path], done: list, failures: list[ImportFailure]) -> list:
    """Each file's summary or failure, in the order the files were given (both lists are in that order)."""
    out, d, f = [], 0, 0
    for path in files:
        if f < len(failures) and failures[f].path.resolve() == path.resolve():
            out.append(failures[f])
            f += 1
        elif d < len(done):
            out.append(done[d])
            d += 1
    return out


def run_command(args: argparse.Namespace, lib: Library) -> int:
    cmd = args.command
    if cmd == "import":
        progress = _Progress()
        failed = 0
        from readinglist.notes_folder import MergeSummary, is_notes

        # imported together: a set of .bib files shares its @string macros and crossref volumes whatever
        # their order (ImportContext); a bad file is said and the others are imported
        failures: list[ImportFailure] = []
        done = lib.import_or_merge(args.files, progress=progress, failures=failures)
        progress.clear()
        for outcome in _in_order(args.files, done, failures):
            if isinstance(outcome, ImportFailure):
                verb = "merge" if is_notes(outcome.path) else "import"
                print(f"readinglist: cannot {verb} {outcome}", file=sys.stderr)
                failed += 1
                continue
            print(outcome.line(), flush=True)  # before its warnings (stderr), also where both go to one pipe
            prefix = "  " if isinstance(outcome, MergeSummary) else "  warning: "  # a merge's details are not warnings
            for line in outcome.warnings:
                print(f"{prefix}{line}", file=sys.stderr)
        if lib.topics_stamp() is not None and (unplaced := lib.unplaced()):
            print(f"{unplaced:,} paper{'s are' if unplaced != 1 else ' is'} in no topic yet: an open window groups "
                  "them now, else `readinglist topics` or the window when opened.", file=sys.stderr)  # fmt: skip
        return 1 if failed else 0
    if cmd in ("list", "search"):
        limit = None
        if cmd == "search":
            if args.limit < 0:
                raise CliError("--limit must be 0 (all) or more")
            limit = args.limit or None
        if cmd == "search" and not args.query.strip() and not args.smart_list:
            raise CliError("search needs a query (or --list NAME); `list` shows every paper")
        smart = lib.smart_list(args.smart_list) if args.smart_list else None
        result = searched(lib, args.query, limit, smart)
        papers = lib.papers(result.ids)
        print_papers(papers, args.json, result.scores if cmd == "search" and result.scores else None, result.matched)
        if not papers and not args.json:
            where = f" in the list “{smart.name}”" if smart else ""
            if args.query:
                print(f"No papers match “{result.query}”{where}.", file=sys.stderr)
            else:
                print(f"The list “{smart.name}” is empty." if smart else "The library is empty.", file=sys.stderr)
        return 0
    if cmd == "lists":
        return run_lists(args, lib)
    if cmd == "show":
        p = lib.paper(lib.resolve(args.id))
        assert p is not None
        sources = lib.sources_of(p.id)
        if args.json:
            print(json.dumps(p.to_json() | {"sources": sources}, ensure_ascii=False, indent=2))
        else:
            print(show_paper(p) + (f"\nsources: {', '.join(sources)}" if len(sources) > 1 else ""))
        return 0
    if cmd == "cite":
        return run_cite(args, lib)
    if cmd in ("tag", "untag"):
        ids, tags = tagged_papers(lib, cmd, args.id, args.tags, args.given_tags)
        (lib.add_tags if cmd == "tag" else lib.remove_tags)(ids, tags)
        for p in lib.papers(ids):
            print(f"{p.uid}: {', '.join(p.own_tags) or '(no tags)'}")
        return 0
    if cmd == "mark":
        pid = lib.resolve(args.id)
        lib.set_state([pid], args.state)
        print(f"{lib.store.uids([pid])[pid]}: {args.state}")
        return 0
    if cmd == "priority":
        try:
            priority = parse_priority(args.priority)
        except ValueError as exc:
            raise CliError(str(exc)) from None
        pid = lib.resolve(args.id)
        lib.set_priority([pid], priority)
        print(f"{lib.store.uids([pid])[pid]}: " + (f"priority {priority}" if priority else "no priority"))
        return 0
    if cmd == "note":
        pid = lib.resolve(args.id)
        if args.text is None and args.file is None:
            p = lib.paper(pid)
            assert p is not None
            print(p.note)
            return 0
        if args.file is not None:
            try:
                text = args.file.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise CliError(f"cannot read {args.file}: {getattr(exc, 'strerror', None) or exc}") from None
        else:
            text = args.text
        before = lib.set_note(pid, text)
        # said as tag, mark and priority say what they did (a trial: --set printed nothing)
        uid = lib.store.uids([pid])[pid]
        lines = len(text.splitlines())
        said = "note cleared" if not text.strip() else f"note set ({lines} line{'s' if lines != 1 else ''})"
        print(f"{uid}: {said}" if before != text else f"{uid}: note unchanged")
        return 0
    if cmd == "title":
        pid = lib.resolve(args.id)
        lib.set_title(pid, args.text or None)
        p = lib.paper(pid)
        assert p is not None
        print(f"{p.uid}: {p.title}")
        return 0
    if cmd == "key":
        pid = lib.resolve(args.id)
        if args.key is not None:
            before = lib.set_citation_key(pid, args.key)
            key = lib.citation_keys([pid])[pid]
            print(f"{lib.store.uids([pid])[pid]}: {before} → {key}" if before != key else key)
        else:
            print(lib.citation_keys([pid])[pid])
        return 0
    if cmd == "remove":
        ids = list(dict.fromkeys(lib.resolve(i) for i in args.ids))
        uids = lib.store.uids(ids)
        lib.remove(ids)
        for pid in ids:
            print(f"{uids[pid]}: removed")
        print(f"Removed {len(ids)} paper{'s' if len(ids) != 1 else ''}; their annotations are kept: "
              f"`readinglist unremove {' '.join(uids[i] for i in ids)}` or a re-import brings them back.",
              file=sys.stderr)  # fmt: skip
        return 0
    if cmd == "removed":
        # a paper merged into another is no removed paper, yet unremove brings it back: listed, saying so
        gone = sorted([*lib.removed_papers(), *lib.merged_papers()], key=lambda r: r.removed_at, reverse=True)
        width = shutil.get_terminal_size((100, 20)).columns
        for r in gone:
            head = f"{r.uid:<7} {r.removed_at[:10]}  "
            tail = "" if r.merged_into is None else f"  (merged into {r.merged_into or 'a paper removed since'})"
            room = max(20, width - len(head) - len(tail))
            print(head + (r.title if len(r.title) <= room else r.title[: room - 1] + "…") + tail)
        if not gone:
            print("No papers have been removed.", file=sys.stderr)
        elif any(r.merged_into is not None for r in gone):
            print("A paper merged into another is kept whole: `readinglist unremove ID` brings it back as a "
                  "paper of its own and takes the merge back from the paper it was merged into (what was "
                  "changed there since stays).", file=sys.stderr)  # fmt: skip
        return 0
    if cmd == "unremove":
        ids = list(dict.fromkeys(lib.resolve_removed(i) for i in args.ids))
        back, unmerged, kept_notes = lib.unremove(ids)
        uids = lib.store.uids([*back.values(), *unmerged.values()])
        for old, pid in back.items():
            # the merge is taken back from the paper it was merged into (both carried its tags, note and file)
            tail = f" (its merge into {uids[unmerged[old]]} taken back)" if old in unmerged else ""
            print(f"{uids[pid]}: back in the library{tail}")
        for line in kept_notes:
            print(f"  {line}", file=sys.stderr)
        return 0
    if cmd == "export":
        fmt = args.format or export_format_for(args.output)
        if fmt == "obsidian" and not args.output:
            raise CliError("--format obsidian writes a folder of notes, one per paper: name it with -o FOLDER")
        smart = lib.smart_list(args.smart_list) if args.smart_list else None
        result = lib.search_list(smart, args.query) if smart else lib.search(args.query)
        note_unindexed(result)
        for note in result.notes:
            say(note)
        if result.partial and result.correction:  # (the refusal below says there is nothing to export)
            say(f"did you mean “{result.correction}”?")
        from readinglist.export import export, render  # not at start-up: the window does not need it

        papers = lib.papers([] if result.partial else result.ids)
        options = ExportOptions(
            format=fmt, group=args.group, abstracts=args.abstracts, notes=not args.no_notes, query=args.query,
            scope=f"list {smart.name}" if smart else "",
        )  # fmt: skip
        if not papers and fmt != "obsidian":  # (obsidian was given a folder: see above)
            # an empty export over a reading list would empty it; to stdout it printed a bare Markdown header (or,
            # as BibTeX, nothing) and exited 0 (a trial): refused alike, for a script to see
            what = f"no paper matches “{args.query}”" if args.query else "there are no papers"
            if result.partial:  # a reading list holds what the query asks for, not the closest matches
                what = f"no paper has every word of “{args.query}”"
            if args.output:
                kept = f", {args.output} " + ("left as it was" if os.path.lexists(args.output) else "not written")
            else:
                kept = ", nothing written"
            raise CliError(f"{what}{f' in the list {smart.name}' if smart else ''}: nothing to export{kept}")
        if args.output:
            try:
                export(papers, options, args.output)
            except OSError as exc:
                raise CliError(f"cannot write {args.output}: {exc.strerror or exc}") from None
            where = f"{args.output}{os.sep} (one note per paper)" if fmt == "obsidian" else args.output
            print(f"Exported {len(papers)} paper{'s' if len(papers) != 1 else ''} to {where}", file=sys.stderr)
        else:
            sys.stdout.write(render(papers, options))
        return 0
    if cmd == "backup":
        try:
            n = lib.backup(args.file)
        except OSError as exc:
            raise CliError(f"cannot write {args.file}: {exc.strerror or exc}") from None
        lists = len(lib.smart_lists())
        saved = f" and {lists} saved list{'s' if lists != 1 else ''}" if lists else ""
        print(f"Backed up the annotations of {n:,} paper{'s' if n != 1 else ''}{saved} to {args.file}", file=sys.stderr)
        return 0
    if cmd == "restore":
        restored = lib.restore(args.file, overwrite=args.overwrite)
        print(restored.line())
        for conflict in restored.conflicts[:20]:
            print(f"  differs: {conflict}", file=sys.stderr)
        if len(restored.conflicts) > 20:
            print(f"  … and {len(restored.conflicts) - 20} more", file=sys.stderr)
        return 0
    if cmd == "duplicates":
        return duplicates_command(args, lib)
    if cmd == "merge":
        keep, other = (lib.resolve(i) for i in args.ids)
        if keep == other:
            raise CliError("those are one paper")
        uids = lib.store.uids([keep, other])
        if args.apart:
            lib.keep_apart(keep, other)
            print(f"{uids[keep]} and {uids[other]}: kept apart (not listed as possible duplicates again)")
            return 0
        lib.merge(keep, other)
        print(f"{uids[other]}: merged into {uids[keep]} (tags united, notes joined, what it lacked filled in;"
              f" `readinglist unremove {uids[other]}` takes the merge back)")  # fmt: skip
        return 0
    if cmd == "topics":
        return topics_command(args, lib)
    if cmd == "suggest":
        return suggest_command(args, lib)
    if cmd == "interests":
        return interests_command(args, lib)
    raise CliError(f"unknown command {cmd}")


def duplicates_command(args: argparse.Namespace, lib: Library) -> int:
    """`duplicates`: each possible pair, both papers, and why they may be one."""
    pairs = lib.possible_duplicates()
    papers = {p.id: p for p in lib.papers(list(dict.fromkeys(i for d in pairs for i in (d.a, d.b))))}
    pairs = [d for d in pairs if d.a in papers and d.b in papers]
    if args.json:
        out = [{"papers": [papers[d.a].to_json(), papers[d.b].to_json()], "why": d.why, "found": d.found_at}
               for d in pairs]  # fmt: skip
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    if not pairs:
        print("No possible duplicates.", file=sys.stderr)
        return 0
    width = shutil.get_terminal_size((100, 20)).columns
    for d in pairs:
        print(f"{d.why}:")
        for p in (papers[d.a], papers[d.b]):
            print("  " + paper_line(p, width - 2))
    print(f"{len(pairs)} possible duplicate{'s' if len(pairs) != 1 else ''}: `readinglist merge ID ID` merges the "
          "second into the first, `readinglist merge --apart ID ID` keeps them apart.", file=sys.stderr)  # fmt: skip
    return 0


def topics_command(args: argparse.Namespace, lib: Library) -> int:
    if args.count is not None and not 1 <= args.count <= 500:
        raise CliError("--count must be between 1 and 500")
    status = lib.topics_status()
    before = lib.topics()
    if args.count is not None and before and not (args.recompute or status.outdated):
        # the topics are up to date: --count alone replaced them at once, the window's too (a trial lost 64
        # topics to 3 that way); a new number comes with a recompute the user asks for
        raise CliError(
            f"the library has {_topics(len(before))}, up to date; `topics --recompute --count {args.count}` "
            f"replaces them with {args.count}"
        )
    if args.recompute or status.outdated:
        progress = _Progress()
        try:
            lib.compute_topics(progress=progress, count=args.count)
        finally:
            progress.clear()
        after = lib.topics()
        number = _topics(len(after)) + (f" (were {len(before)})" if before else "")
        asked = "" if args.count is None or args.count == len(after) else f"; {args.count} asked for"
        if asked:
            from readinglist.topics import count_cap  # (numpy: only here)

            if args.count > count_cap(papers := lib.counts()["all"]):  # (50 on 26 papers: 23 of one paper each)
                asked += f", too many for {papers:,} papers (at most one topic per 5)"
        why = "" if args.recompute else " (papers came or changed since they were computed)"
        placed = sum(t.size for t in after)
        print(f"Topics computed{' again' if before else ''}{why}: {number}{asked}, "
              f"{placed:,} of {lib.counts()['all']:,} papers in one.", file=sys.stderr)  # fmt: skip
    topics = lib.topics()
    if args.json:
        print(json.dumps([t.to_json() for t in topics], ensure_ascii=False, indent=2))
        return 0
    if not topics:
        print("The library has too few papers with text for topics.", file=sys.stderr)
        return 0
    width = shutil.get_terminal_size((100, 20)).columns
    for t in topics:
        head = f"{t.id:>4}  {t.size:>6,} · {t.untriaged:>6,} to triage  "
        room = max(20, width - len(head))
        print(head + (t.label if len(t.label) <= room else t.label[: room - 1] + "…"))
    return 0


def _topics(n: int) -> str:
    return f"{n:,} topic{'s' if n != 1 else ''}"


def suggest_command(args: argparse.Namespace, lib: Library) -> int:
    """`suggest [QUERY]`: the untriaged papers by predicted interest, best first, each with why."""
    if args.limit < 0:
        raise CliError("--limit must be 0 (all) or more")
    if not lib.store.count():  # every paper removed, or none imported: not "every one is marked" (a trial)
        if args.json:
            print("[]")
        print("The library is empty: `readinglist import FILE` brings papers"
              + (" (`readinglist removed` lists the removed ones)." if lib.removed_papers() else "."),
              file=sys.stderr)  # fmt: skip
        return 0
    # closest matches: those with the most words, as the window's Suggested view draws them
    candidates = searched(lib, args.query, None).most_words().ids if args.query.strip() else None
    suggestions = lib.suggestions(candidates).top(args.limit or None)
    papers = {p.id: p for p in lib.papers([s.id for s in suggestions])}
    near = {n for s in suggestions for n in s.near}
    uids = lib.store.uids(sorted(near))
    if args.json:
        items = []
        for s in suggestions:
            item = papers[s.id].to_json()
            near_uids = [uids[n] for n in s.near if n in uids]
            item.update(score=round(s.score, 4), rank=s.rank, of=s.of, why=s.why, near=near_uids)
            items.append(item)
        print(json.dumps(items, ensure_ascii=False, indent=2))
        return 0
    if not suggestions:
        where = f" among the papers matching “{args.query}”" if args.query.strip() else ""
        print(f"No untriaged papers{where}: every one is marked or has a priority.", file=sys.stderr)
        return 0
    width = shutil.get_terminal_size((100, 20)).columns
    titles = {p.id: p.title for p in lib.papers(sorted(near))}
    shown = f"the best {len(suggestions):,} of {suggestions[0].of:,}" if len(suggestions) < suggestions[0].of else "all"
    print(f"Untriaged papers by predicted interest, {shown} (--json gives the scores):", file=sys.stderr)
    for s in suggestions:
        print(paper_line(papers[s.id], width))
        reasons = []
        if s.why:
            reasons.append("why: " + ", ".join(s.why))
        if s.near:
            reasons.append("like " + "; ".join(f"{uids[n]} {titles.get(n, '')[:40]}" for n in s.near if n in uids))
        if reasons:
            print("        " + " · ".join(reasons))
    return 0


def interests_command(args: argparse.Namespace, lib: Library) -> int:
    """`interests`: print them; `--set TEXT`, `--file F` or `--clear` change them."""
    if args.clear:
        lib.set_interests([])
        print("Interests cleared: suggestions learn from your marks alone.", file=sys.stderr)
        return 0
    if args.text is not None:
        if not args.text.strip():
            raise CliError("--set needs some text (--clear forgets the interests)")
        lib.set_interests(args.text)
        print(f"Interests set ({len(args.text.split()):,} words): `readinglist suggest` uses them.", file=sys.stderr)
        return 0
    if args.file is not None:
        texts = lib.interests_from_file(args.file)
        if not texts:
            raise CliError(f"{args.file}: no titles or abstracts to learn from; nothing was changed")
        lib.set_interests(texts, source=str(args.file))
        print(f"Interests set from {args.file}: {len(texts):,} paper{'s' if len(texts) != 1 else ''}; "
              "`readinglist suggest` uses them.", file=sys.stderr)  # fmt: skip
        return 0
    texts, source = lib.interests(), lib.interests_source()
    if not texts:
        print("No interests set. `readinglist interests --set TEXT` or `--file YOUR-PAPERS.bib` sets them.",
              file=sys.stderr)  # fmt: skip
        return 0
    if source:
        print(f"From {source}: {len(texts):,} paper{'s' if len(texts) != 1 else ''}", file=sys.stderr)
    print("\n\n".join(texts))
    return 0


def list_json(sl: SmartList, count: int, tag_missing: bool = False) -> dict[str, object]:
    """`tag_missing`: no paper has the list's tag now (deleted, taken off its papers), which is why it holds none."""
    return {"name": sl.name, "query": sl.query, "state": sl.state, "tag": sl.tag, "count": count,
            "tag_missing": tag_missing}  # fmt: skip


def missing_tag_note(tag: str | None) -> str:
    """What `lists` adds to a list whose tag no paper has: a bare 0 hid why it holds nothing."""
    return f" — no paper has the tag “{tag}” now" if tag else ""


def run_lists(args: argparse.Namespace, lib: Library) -> int:
    """`lists`: show the saved lists with their counts now; `lists save|rename|delete` change them."""
    if args.action == "save":
        sl = lib.add_smart_list(args.name, args.query, args.state, args.tag)
        n = lib.list_count(sl)
        note = missing_tag_note(lib.missing_list_tags([sl]).get(sl.id))
        print(f"Saved the list “{sl.name}”: {sl.describe()} ({n:,} paper{'s' if n != 1 else ''}){note}")
        return 0
    if args.action == "rename":
        sl = lib.smart_list(args.name)
        lib.update_smart_list(SmartList(sl.id, args.new_name, sl.query, sl.state, sl.tag))
        print(f"Renamed “{sl.name}” to “{' '.join(args.new_name.split())}”")
        return 0
    if args.action == "delete":
        sl = lib.smart_list(args.name)
        lib.delete_smart_list(sl.id)
        print(f"Deleted the list “{sl.name}” (its papers stay in the library)")
        return 0
    lists = lib.smart_lists()
    counts = [lib.list_count(sl) for sl in lists]
    missing = lib.missing_list_tags(lists)
    if args.json:
        shown = [list_json(sl, n, sl.id in missing) for sl, n in zip(lists, counts, strict=True)]
        print(json.dumps(shown, ensure_ascii=False, indent=2))
        return 0
    if not lists:
        print("No saved lists. Save one with `readinglist lists save NAME [QUERY] [--state S] [--tag T]`, "
              "or in the window with File → Save View as List.", file=sys.stderr)  # fmt: skip
        return 0
    width = max(len(sl.name) for sl in lists)
    for sl, n in zip(lists, counts, strict=True):
        definition = sl.describe()
        line = f"{sl.name:<{width}}  {n:>7,}" + (f"  {definition}" if definition != sl.name else "")
        print(line + missing_tag_note(missing.get(sl.id)))
    return 0


def window_options(argv: Sequence[str]) -> tuple[str | None, bool] | None:
    """(data dir, smoke test) when argv holds the window's own options and nothing else: the window then
    starts without the parser, whose every command and help text take longer to build than the rest of
    the command line's start. None for anything else (a command, --help, a typo, a missing value), which
    the parser reads and explains as before."""
    data_dir, smoke_test = None, False
    rest = list(argv)
    while rest:
        arg = rest.pop(0)
        if arg == "--smoke-test":
            smoke_test = True
        elif arg == "--data-dir" and rest and not rest[0].startswith("-"):
            data_dir = rest.pop(0)
        elif arg.startswith("--data-dir="):
            data_dir = arg.partition("=")[2]
        else:
            return None
    return data_dir, smoke_test


_QUERY_WORD = re.compile(r"-?[^\W\d_]|[^-]")  # a word of a query left unquoted, or one with a minus: "-video"


WRITERS_WAIT = 1800.0  # seconds an edit waits for another process's import (Ctrl+C stops it sooner)


def main(argv: Sequence[str] | None = None) -> int:
    window = window_options(sys.argv[1:] if argv is None else argv)
    if window is not None:
        gc.disable()  # the window's start-up (the `readinglist` script comes here first): see __main__.py
        from readinglist.app import run

        return run(window[0], smoke_test=window[1])
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        # the query's words unquoted, and a minus that is NOT ("search diffusion -video": argparse took
        # "-video" for an option it did not know, and a second word for an argument too many)
        if not hasattr(args, "query") or any(word.startswith("--") or not _QUERY_WORD.match(word) for word in extra):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        args.query = " ".join([args.query, *extra]).strip()
    if args.command is not None:
        gc.enable()  # an entry point may have paused collection for the window's start-up (__main__.py)
    if args.command is None:
        gc.disable()
        from readinglist.app import run

        return run(args.data_dir, smoke_test=args.smoke_test)
    if args.command == "check":
        return check_installation()
    if args.command == "install-desktop":
        from readinglist.desktop import install_desktop

        try:
            print(install_desktop(uninstall=args.uninstall))
            return 0
        except OSError as exc:
            print(f"readinglist: {exc}", file=sys.stderr)
            return 1

    def notify(message: str) -> None:
        print(message, file=sys.stderr)

    lib = None
    try:
        # a new library is given the bundled corpus, unless its first command imports the reader's own papers:
        # "8,263 added" was 8,282 papers, the bundled 19 among them (a trial) — or restores them from a backup
        # (the 19 came beside the restored papers: a trial)
        lib = Library.open(args.data_dir, notify=notify, seed=args.command not in ("import", "restore"))
        if lib.read_only and args.command in READS:
            print(f"readinglist: note: reading only; {lib.read_only_reason}", file=sys.stderr)
        if args.command not in READS:  # a read never waits for a writer (WAL): only an edit does
            lib.wait_for_writers(WRITERS_WAIT, notify)
        return run_command(args, lib)
    except (StoreError, QueryError, CliError, ImportFailure, NothingToLearn) as exc:
        print(f"readinglist: {exc}", file=sys.stderr)
        return 1
    except ImportCancelled:
        print("readinglist: import cancelled; nothing was changed", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("readinglist: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"readinglist: {where}{exc.strerror or exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # the last line of defence: never a traceback for a user
        print(f"readinglist: unexpected error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    finally:
        if lib is not None:
            with contextlib.suppress(KeyboardInterrupt):  # a second Ctrl+C while closing: no traceback
                lib.close()


def check_installation() -> int:
    """What a packaged build must still do, on a throwaway library: the bundled corpus, an import big
    enough for Whoosh's writer processes, an edit written by the window's index writer process, and
    topics computed in their child process (numpy loads there)."""
    import os
    import tempfile

    messages: list[str] = []
    with tempfile.TemporaryDirectory(prefix="readinglist-check-") as tmp:
        folder = Path(tmp)
        try:
            lib = Library.open(folder / "data", notify=messages.append)
        except Exception as exc:
            print(f"readinglist check: cannot create a library: {exc}", file=sys.stderr)
            return 1
        try:
            bundled = lib.counts()["all"]
            print(f"ok   bundled corpus: {bundled} papers, search finds {len(lib.search('learning').ids)}")
            big = folder / "many.jsonl"
            with big.open("w", encoding="utf-8") as f:
                for i in range(2500):
                    f.write(json.dumps({"title": f"Check paper {i}", "abstract": f"checkword{i} gradient"}) + "\n")
                f.write(json.dumps({"title": "Check broken", "abstract": "checkbroken gradient con- structs"}) + "\n")
            lib.import_files([big])
            found = len(lib.search("gradient").ids)
            if found < 2501:
                raise RuntimeError(f"the import of 2,501 papers is searchable for {found} of them")
            print("ok   import through Whoosh's writer processes: 2,501 papers searchable")
            if len(lib.search("checkbroken constructs").ids) != 1:  # pyspellchecker's English word list, bundled
                raise RuntimeError("a word broken at a line end (“con- structs”) was not joined")
            print("ok   a word broken at a line end joined (the English word list loads)")
            lib.start_background_indexing()
            first = lib.search("checkword7").ids
            lib.set_state(first, "read")
            if lib.search("state:read").ids != first:
                raise RuntimeError("an edit did not reach the index")
            pid = lib.index_writer_pid()
            trouble = [m for m in messages if "in-process" in m]
            if pid is None or pid == os.getpid() or trouble:
                raise RuntimeError("the index writer process did not run: " + "; ".join(trouble))
            print("ok   edit written by the index writer process")
            status = lib.compute_topics()  # numpy in a child process: a bundle that broke it fails here
            if status.outdated or not lib.topics():
                raise RuntimeError("topics were not computed")
            print(f"ok   topics and the map computed in a child process: {_topics(len(lib.topics()))}")
        except Exception as exc:
            print(f"readinglist check: FAILED: {exc}", file=sys.stderr)
            return 1
        finally:
            lib.close()
    print("readinglist works.")
    return 0


def gui_main() -> int:
    gc.disable()  # the window's start-up, as __main__.py: the window turns collection back on once built
    return main([])
