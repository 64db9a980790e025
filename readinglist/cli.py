"""The command line over the same core as the window: `readinglist [--data-dir DIR] COMMAND`."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

from readinglist import __version__
from readinglist.export import GROUPS, ExportOptions, export, render
from readinglist.library import Library
from readinglist.papers import (
    EXPORT_FORMATS,
    STATE_MARKS,
    STATES,
    ImportCancelled,
    ImportFailure,
    Paper,
    QueryError,
    SearchResult,
    StoreError,
    export_format_for,
)

SEARCH_HELP = f"""\
search syntax:
  words             all of them, stemmed (learn finds learning), title weighted over abstract
  "a phrase"        the words next to each other
  transform*        prefix        transformr~  fuzzy (one edit; ~2 for two)
  a OR b, NOT c     boolean; AND is implied; parentheses group
  title: abstract: author: tag: note: venue:   one field
  year:2024  year:2020..2024  year:>2020       years
  state:{"|".join(STATES)}
"""


READS = {"list", "search", "show", "export", "removed"}  # what still works on a library that cannot be written


class CliError(Exception):
    """One line for stderr, exit code 1."""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="readinglist",
        description="Work through a conference's papers. With no command, the window opens.",
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

    s = sub.add_parser("import", help="import papers from files (seed text, JSON Lines/JSON, BibTeX, CSV/TSV)")
    s.add_argument("files", nargs="+", type=Path, metavar="FILE")

    for name, helptext in (
        ("list", "list papers, optionally matching a query"),
        ("search", "search, best first"),
    ):
        s = sub.add_parser(
            name, help=helptext, epilog=SEARCH_HELP, formatter_class=argparse.RawDescriptionHelpFormatter
        )
        s.add_argument("query", nargs="?" if name == "list" else None, default="", metavar="QUERY")
        if name == "search":
            s.add_argument("--limit", type=int, default=20, help="how many (default 20; 0 for all)")
        s.add_argument("--json", action="store_true", help="print a JSON list of papers")

    s = sub.add_parser("show", help="show one paper")
    s.add_argument("id", metavar="ID")
    s.add_argument("--json", action="store_true")

    for name in ("tag", "untag"):
        s = sub.add_parser(name, help=f"{'add' if name == 'tag' else 'remove'} tags")
        s.add_argument("id", metavar="ID")
        s.add_argument("tags", nargs="+", metavar="TAG")

    s = sub.add_parser("mark", help="set the reading state")
    s.add_argument("id", metavar="ID")
    s.add_argument("state", choices=STATES)

    s = sub.add_parser("note", help="print, set or replace a paper's note (Markdown)")
    s.add_argument("id", metavar="ID")
    g = s.add_mutually_exclusive_group()
    g.add_argument("--set", metavar="TEXT", dest="text")
    g.add_argument("--file", metavar="F", type=Path)

    s = sub.add_parser("title", help="set your own title for a paper ('' restores the imported one)")
    s.add_argument("id", metavar="ID")
    s.add_argument("text", metavar="TEXT")

    s = sub.add_parser(
        "remove", help="remove papers from the library (annotations kept: a re-import or unremove brings them back)"
    )
    s.add_argument("ids", nargs="+", metavar="ID")
    sub.add_parser("removed", help="list the papers removed from the library")
    s = sub.add_parser("unremove", help="bring removed papers back, with their tags, notes, states and titles")
    s.add_argument("ids", nargs="+", metavar="ID")

    s = sub.add_parser("export", help="export a reading list (Markdown to stdout by default)")
    s.add_argument("query", nargs="?", default="", metavar="QUERY")
    s.add_argument("-o", "--output", type=Path, metavar="FILE")
    s.add_argument("--format", choices=list(EXPORT_FORMATS), default=None)
    s.add_argument("--group", choices=GROUPS, default="state")
    s.add_argument("--abstracts", action="store_true", help="include the abstracts")
    s.add_argument("--no-notes", action="store_true", help="leave the notes out")

    s = sub.add_parser("backup", help="write every annotation (and the papers it belongs to) to one file")
    s.add_argument("file", type=Path, metavar="FILE")
    s = sub.add_parser("restore", help="bring a backup's annotations (and missing papers) into this library")
    s.add_argument("file", type=Path, metavar="FILE")
    s.add_argument("--overwrite", action="store_true", help="where both have a state, note or title, the backup's wins")

    sub.add_parser(
        "check",
        help="check this installation in a temporary library: import, search, and the index's writer processes",
    )
    s = sub.add_parser("install-desktop", help="add readinglist to the desktop's application menu (Linux)")
    s.add_argument("--uninstall", action="store_true")
    return p


# ---- output -----------------------------------------------------------------------------------------


def paper_line(p: Paper, width: int) -> str:
    meta = " ".join(x for x in (p.venue, str(p.year or "")) if x)
    tags = " ".join(f"#{t.replace(' ', '-')}" for t in p.tags)
    head = f"{p.uid:<7} [{STATE_MARKS[p.state]}] "
    tail = "  " + " · ".join(x for x in (meta, tags) if x)
    room = max(20, width - len(head) - len(tail))
    title = p.title if len(p.title) <= room else p.title[: room - 1] + "…"
    return f"{head}{title}{tail}"


def print_papers(papers: Sequence[Paper], as_json: bool, scores: Sequence[float] | None = None) -> None:
    if as_json:
        items = [p.to_json() for p in papers]
        if scores is not None:
            for item, score in zip(items, scores, strict=False):
                item["score"] = round(score, 4)
        print(json.dumps(items, ensure_ascii=False, indent=2))
        return
    width = shutil.get_terminal_size((100, 20)).columns
    for p in papers:
        print(paper_line(p, width))


def show_paper(p: Paper) -> str:
    from readinglist.markup import to_plain

    width = min(100, shutil.get_terminal_size((100, 20)).columns)
    lines = [p.title, "=" * min(len(p.title), width)]
    meta = " ".join(x for x in (p.venue, str(p.year or "")) if x)
    lines.append(f"id {p.uid} · {p.state}" + (f" · {meta}" if meta else ""))
    if p.authors:
        lines.append(", ".join(p.authors))
    if p.tags:
        lines.append("tags: " + ", ".join(p.tags))
    if p.links:
        lines += [f"  {u}" for u in p.links]
    if p.abstract:
        lines.append("")
        for para in to_plain(p.abstract).split("\n\n"):
            lines += [*textwrap.wrap(para, width), ""]
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


def note_unindexed(result: SearchResult) -> None:
    if result.unindexed:
        n = result.unindexed
        print(f"readinglist: note: {n} recent change{'s are' if n != 1 else ' is'} not searchable yet "
              "(another readinglist process is writing the search index)", file=sys.stderr)  # fmt: skip


def run_command(args: argparse.Namespace, lib: Library) -> int:
    cmd = args.command
    if cmd == "import":
        progress = _Progress()
        failed = 0
        for path in args.files:
            try:
                summaries = lib.import_files([path], progress=progress)
            except ImportFailure as exc:
                progress.clear()
                print(f"readinglist: cannot import {exc}", file=sys.stderr)
                failed += 1
                continue
            progress.clear()
            for summary in summaries:
                print(summary.line())
                for warning in summary.warnings:
                    print(f"  warning: {warning}", file=sys.stderr)
        return 1 if failed else 0
    if cmd in ("list", "search"):
        limit = None
        if cmd == "search":
            if args.limit < 0:
                raise CliError("--limit must be 0 (all) or more")
            limit = args.limit or None
        result = lib.search(args.query, limit=limit)
        note_unindexed(result)
        papers = lib.papers(result.ids)
        print_papers(papers, args.json, result.scores if cmd == "search" else None)
        if not papers and not args.json:
            print(f"No papers match “{args.query}”." if args.query else "The library is empty.", file=sys.stderr)
        return 0
    if cmd == "show":
        p = lib.paper(lib.resolve(args.id))
        assert p is not None
        print(json.dumps(p.to_json(), ensure_ascii=False, indent=2) if args.json else show_paper(p))
        return 0
    if cmd in ("tag", "untag"):
        pid = lib.resolve(args.id)
        (lib.add_tags if cmd == "tag" else lib.remove_tags)([pid], args.tags)
        p = lib.paper(pid)
        assert p is not None
        print(f"{p.uid}: {', '.join(p.tags) or '(no tags)'}")
        return 0
    if cmd == "mark":
        pid = lib.resolve(args.id)
        lib.set_state([pid], args.state)
        print(f"{lib.store.uids([pid])[pid]}: {args.state}")
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
        lib.set_note(pid, text)
        return 0
    if cmd == "title":
        pid = lib.resolve(args.id)
        lib.set_title(pid, args.text or None)
        p = lib.paper(pid)
        assert p is not None
        print(f"{p.uid}: {p.title}")
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
        gone = lib.removed_papers()
        width = shutil.get_terminal_size((100, 20)).columns
        for r in gone:
            head = f"{r.uid:<7} {r.removed_at[:10]}  "
            room = max(20, width - len(head))
            print(head + (r.title if len(r.title) <= room else r.title[: room - 1] + "…"))
        if not gone:
            print("No papers have been removed.", file=sys.stderr)
        return 0
    if cmd == "unremove":
        ids = list(dict.fromkeys(lib.resolve_removed(i) for i in args.ids))
        back = lib.restore_removed(ids)
        uids = lib.store.uids(list(back.values()))
        for pid in back.values():
            print(f"{uids[pid]}: back in the library")
        return 0
    if cmd == "export":
        fmt = args.format or export_format_for(args.output)
        result = lib.search(args.query)
        note_unindexed(result)
        papers = lib.papers(result.ids)
        options = ExportOptions(
            format=fmt, group=args.group, abstracts=args.abstracts, notes=not args.no_notes, query=args.query
        )
        if args.output:
            try:
                export(papers, options, args.output)
            except OSError as exc:
                raise CliError(f"cannot write {args.output}: {exc.strerror or exc}") from None
            print(f"Exported {len(papers)} papers to {args.output}", file=sys.stderr)
        else:
            sys.stdout.write(render(papers, options))
        return 0
    if cmd == "backup":
        try:
            n = lib.backup(args.file)
        except OSError as exc:
            raise CliError(f"cannot write {args.file}: {exc.strerror or exc}") from None
        print(f"Backed up the annotations of {n} papers to {args.file}", file=sys.stderr)
        return 0
    if cmd == "restore":
        restored = lib.restore(args.file, overwrite=args.overwrite)
        print(restored.line())
        for conflict in restored.conflicts[:20]:
            print(f"  differs: {conflict}", file=sys.stderr)
        if len(restored.conflicts) > 20:
            print(f"  … and {len(restored.conflicts) - 20} more", file=sys.stderr)
        return 0
    raise CliError(f"unknown command {cmd}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
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
        lib = Library.open(args.data_dir, notify=notify)
        if lib.read_only and args.command in READS:
            print(f"readinglist: note: reading only; {lib.read_only_reason}", file=sys.stderr)
        return run_command(args, lib)
    except (StoreError, QueryError, CliError, ImportFailure) as exc:
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
            lib.close()


def check_installation() -> int:
    """What a packaged build must still do, on a throwaway library: the bundled corpus, an import big
    enough for Whoosh's writer processes, and an edit written by the window's index writer process."""
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
            lib.import_files([big])
            found = len(lib.search("gradient").ids)
            if found < 2500:
                raise RuntimeError(f"the import of 2,500 papers is searchable for {found} of them")
            print("ok   import through Whoosh's writer processes: 2,500 papers searchable")
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
        except Exception as exc:
            print(f"readinglist check: FAILED: {exc}", file=sys.stderr)
            return 1
        finally:
            lib.close()
    print("readinglist works.")
    return 0


def gui_main() -> int:
    return main([])
