import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import corpus

from readinglist.cli import main


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def dd(tmp_path):
    return str(tmp_path / "cli-data")


def test_search_json_and_show(capsys, dd):
    code, out, _ = run(capsys, "--data-dir", dd, "search", "BEXA", "--json")
    assert code == 0
    (hit,) = json.loads(out)
    for key in (
        "id",
        "title",
        "abstract",
        "authors",
        "venue",
        "year",
        "tags",
        "state",
        "note",
        "links",
        "score",
    ):
        assert key in hit
    code, out, _ = run(capsys, "--data-dir", dd, "show", hit["id"][:4], "--json")
    assert json.loads(out)["id"] == hit["id"]


def test_annotate_then_list_and_export(capsys, dd, tmp_path):
    _, out, _ = run(capsys, "--data-dir", dd, "search", "BEXA", "--json")
    uid = json.loads(out)[0]["id"]
    assert run(capsys, "--data-dir", dd, "tag", uid, "rl", "exits")[0] == 0
    assert run(capsys, "--data-dir", dd, "untag", uid, "exits")[0] == 0
    assert run(capsys, "--data-dir", dd, "mark", uid, "read")[0] == 0
    assert run(capsys, "--data-dir", dd, "note", uid, "--set", "see §3")[:2] == (0, f"{uid}: note set (1 line)\n")
    note = tmp_path / "n.md"
    note.write_text("from a file")
    assert run(capsys, "--data-dir", dd, "note", uid, "--file", str(note))[0] == 0
    assert run(capsys, "--data-dir", dd, "note", uid, "--file", str(note))[1] == f"{uid}: note unchanged\n"
    assert run(capsys, "--data-dir", dd, "note", uid)[1].strip() == "from a file"
    assert run(capsys, "--data-dir", dd, "title", uid, "Budgeted exits")[0] == 0
    _, out, _ = run(capsys, "--data-dir", dd, "list", "tag:rl", "--json")
    (p,) = json.loads(out)
    assert (p["title"], p["tags"], p["state"], p["note"]) == ("Budgeted exits", ["rl"], "read", "from a file")
    _, out, _ = run(capsys, "--data-dir", dd, "export")
    assert "- [x] **Budgeted exits**" in out
    target = tmp_path / "out.bib"
    code, _, err = run(capsys, "--data-dir", dd, "export", "state:read", "-o", str(target))
    assert code == 0 and target.read_text().count("@inproceedings") == 1
    assert err.strip() == f"Exported 1 paper to {target}"  # not "1 papers"


def test_an_export_that_matches_nothing_leaves_the_file_as_it_was(capsys, dd, tmp_path):
    """`export tag:RL -o k.bib`, then `export tag:nonexistent -o k.bib` said "Exported 0 papers", exited 0, and
    k.bib was 0 bytes (a trial; a .md likewise): a reading list emptied by a typo. Refused, the file untouched."""
    _, out, _ = run(capsys, "--data-dir", dd, "search", "BEXA", "--json")
    assert run(capsys, "--data-dir", dd, "tag", json.loads(out)[0]["id"], "RL")[0] == 0
    for name in ("k.bib", "k.md"):
        target = tmp_path / name
        assert run(capsys, "--data-dir", dd, "export", "tag:RL", "-o", str(target))[0] == 0
        before = target.read_bytes()
        code, _, err = run(capsys, "--data-dir", dd, "export", "tag:nonexistent", "-o", str(target))
        assert code == 1 and target.read_bytes() == before and before
        assert (
            err.strip()
            == f"readinglist: no paper matches “tag:nonexistent”: nothing to export, {target} left as it was"
        )
    new = tmp_path / "new.ris"
    code, _, err = run(capsys, "--data-dir", dd, "export", "tag:nonexistent", "-o", str(new))
    assert code == 1 and not new.exists() and err.strip().endswith(f"{new} not written")
    # to stdout alike: a bare Markdown header (BibTeX: nothing at all) and exit 0 was no refusal (a trial)
    for fmt in ("markdown", "bibtex", "csv"):
        code, out, err = run(capsys, "--data-dir", dd, "export", "tag:nonexistent", "--format", fmt)
        assert (code, out) == (1, "")
        assert err == "readinglist: no paper matches “tag:nonexistent”: nothing to export, nothing written\n"


def test_search_limit(capsys, dd):
    _, out, _ = run(capsys, "--data-dir", dd, "search", "learning", "--limit", "2", "--json")
    assert len(json.loads(out)) == 2
    _, out, _ = run(capsys, "--data-dir", dd, "search", "learning", "--limit", "0", "--json")
    assert len(json.loads(out)) > 2


def test_import_summary_and_bad_file(capsys, dd, tmp_path):
    code, out, _ = run(capsys, "--data-dir", dd, "import", str(corpus("pmlr_colt2025_uai2025_l4dc2026.jsonl")))
    assert code == 0 and "517 added, 0 updated, 0 unchanged, 0 skipped" in out
    code, out, _ = run(capsys, "--data-dir", dd, "import", str(corpus("pmlr_colt2025_uai2025_l4dc2026.jsonl")))
    assert "0 added, 0 updated, 517 unchanged" in out
    bad = tmp_path / "empty.bib"
    bad.write_text("")
    code, _, err = run(capsys, "--data-dir", dd, "import", str(bad))
    assert code == 1 and "empty.bib" in err and "is empty" in err and err.count("\n") == 1


def test_a_new_library_whose_first_command_imports_holds_the_files_only(capsys, tmp_path):
    """ "8,263 added" and 8,282 papers: a new library's first import brought the bundled corpus along (a
    trial). A new library opened for another command still starts with it."""
    f = tmp_path / "mine.jsonl"
    f.write_text('{"title": "My paper", "abstract": "Words of my own."}\n')
    code, out, _ = run(capsys, "--data-dir", str(tmp_path / "mine"), "import", str(f))
    assert code == 0 and "1 added" in out
    _, out, _ = run(capsys, "--data-dir", str(tmp_path / "mine"), "list", "--json")
    assert [p["title"] for p in json.loads(out)] == ["My paper"]
    _, out, _ = run(capsys, "--data-dir", str(tmp_path / "other"), "list", "--json")
    assert len(json.loads(out)) == 19  # the bundled ICML 2026 abstracts
    # a first import that fails leaves the library without the bundled corpus too (it came with the next
    # command: a trial), and the reader's next import is all it holds
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    code, _, err = run(capsys, "--data-dir", str(tmp_path / "third"), "import", str(empty))
    assert code == 1 and "empty.jsonl" in err
    _, out, _ = run(capsys, "--data-dir", str(tmp_path / "third"), "list", "--json")
    assert json.loads(out) == []
    run(capsys, "--data-dir", str(tmp_path / "third"), "import", str(f))
    _, out, _ = run(capsys, "--data-dir", str(tmp_path / "third"), "list", "--json")
    assert [p["title"] for p in json.loads(out)] == ["My paper"]


def test_a_query_may_be_left_unquoted_and_hold_a_minus(capsys, dd):
    """`search diffusion -video` was refused ("unrecognized arguments: -video"), as was a second word left
    unquoted: the words after the query are the query's; an option misspelt is still refused."""
    _, quoted, _ = run(capsys, "--data-dir", dd, "search", "diffusion NOT video", "--json")
    code, out, _ = run(capsys, "--data-dir", dd, "search", "diffusion", "-video", "--json")
    assert code == 0 and json.loads(out) == json.loads(quoted) and json.loads(out)
    code, out, _ = run(capsys, "--data-dir", dd, "list", "diffusion", "models", "--json")
    _, quoted, _ = run(capsys, "--data-dir", dd, "list", "diffusion models", "--json")
    assert code == 0 and json.loads(out) == json.loads(quoted) and len(json.loads(out)) == 2
    with pytest.raises(SystemExit) as info:
        main(["--data-dir", dd, "search", "diffusion", "--limt", "3"])
    assert info.value.code == 2


def test_errors_are_one_line_with_exit_codes(capsys, dd):
    code, _, err = run(capsys, "--data-dir", dd, "search", "nosuchfield:x")
    assert code == 1 and err.count("\n") == 1 and "unknown field" in err
    code, _, err = run(capsys, "--data-dir", dd, "show", "zzzzzz")
    assert code == 1 and "no paper" in err
    with pytest.raises(SystemExit) as info:
        main(["--data-dir", dd, "mark", "abc", "finished"])
    assert info.value.code == 2


def test_module_entry_point_no_traceback(tmp_path):
    dd = tmp_path / "d"
    bad = tmp_path / "x.json"
    bad.write_bytes(b"\x00\x01\x02" * 100)
    r = subprocess.run(
        [sys.executable, "-m", "readinglist", "--data-dir", str(dd), "import", str(bad)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 1
    assert "Traceback" not in r.stderr and "x.json" in r.stderr and "binary" in r.stderr
    r = subprocess.run(
        [sys.executable, "-m", "readinglist", "--data-dir", str(dd), "list"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    # the failed import changed nothing, and the library it began stays without the bundled corpus
    assert r.returncode == 0 and r.stdout == "" and "The library is empty" in r.stderr


def test_an_imports_line_comes_before_its_warnings_in_one_stream(tmp_path, monkeypatch):
    """Piped together (`2>&1 | less`), the line (stdout, buffered) came after the warnings (stderr), or ran
    into the first of them (a new user's trial)."""
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)  # stdout buffered, as in a user's shell
    bib = tmp_path / "a.bib"
    bib.write_text("@article{k, title={One}, title={Two}, abstract={Text.}}\n@article{j, title={Three}}\n")
    r = subprocess.run(
        [sys.executable, "-m", "readinglist", "--data-dir", str(tmp_path / "d"), "import", str(bib)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
    )
    lines = [line for line in r.stdout.splitlines() if line.strip()]
    assert lines[0].startswith("a.bib: 2 added") and lines[1].startswith("  warning: a.bib")


def test_data_dir_env(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("READINGLIST_DATA_DIR", str(tmp_path / "envdir"))
    assert run(capsys, "list")[0] == 0
    assert (tmp_path / "envdir" / "library.db").exists()


def test_check_installation_exercises_the_writer_processes():
    """`readinglist check` is what CI runs on the frozen bundle; here it runs as installed by pip."""
    r = subprocess.run([sys.executable, "-m", "readinglist", "check"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "edit written by the index writer process" in r.stdout and "2,501 papers searchable" in r.stdout
    assert "a word broken at a line end joined" in r.stdout  # the English word list travels with the app
    assert "topics and the map computed in a child process" in r.stdout


def test_check_installation_fails_loudly_without_writer_process(capsys, monkeypatch):
    from readinglist.index import background

    def refuse(*_args):
        raise background.WriterError("cannot start processes here")

    monkeypatch.setattr(background, "WriterProcess", refuse)
    code, _, err = run(capsys, "check")
    assert code == 1 and "cannot start processes here" in err


def test_show_wraps_long_tokens_linearly_and_keeps_every_character():
    from readinglist.cli import wrap_words

    lines = wrap_words("short words then " + "x" * 250 + " tail", 100)
    assert all(len(line) <= 100 for line in lines)
    assert "".join(lines).replace(" ", "") == "shortwordsthen" + "x" * 250 + "tail"
    assert wrap_words("a b c", 3) == ["a b", "c"]


@pytest.fixture
def titled(tmp_path, capsys):
    """A library of titled papers, imported through the command line."""
    dd = str(tmp_path / "titled")
    f = tmp_path / "titled.jsonl"
    papers = [
        {"title": "Spatial Transformer Networks", "abstract": "A learnable module for spatial manipulation."},
        {"title": "Recurrent Transformer Networks", "abstract": "Transformer networks for correspondence."},
        {"title": r"Sparse $\ell_1$-regression", "abstract": "Robust fitting."},
        {"title": "Binary Coding in Auditory Cortex", "abstract": "Cortical neurons use rate codes."},
        *({"title": f"Convolution {i}", "abstract": "A convolution layer."} for i in range(32)),
        {"title": "Rare", "abstract": "A convolutoin layer."},
    ]
    f.write_text("".join(json.dumps(p) + "\n" for p in papers))
    code, _, _ = run(capsys, "--data-dir", dd, "import", str(f))
    assert code == 0
    return dd


def test_search_corrects_a_misspelt_word_and_says_so(capsys, titled):
    code, out, err = run(capsys, "--data-dir", titled, "search", "spatial transformr networks")
    assert code == 0 and "searched “spatial transformer networks” instead" in err
    assert out.splitlines()[0].split("] ", 1)[1].startswith("Spatial Transformer Networks")


def test_search_names_a_likely_correction_without_replacing_what_it_found(capsys, titled):
    _, out, err = run(capsys, "--data-dir", titled, "search", "convolutoin", "--json")
    assert [p["title"] for p in json.loads(out)] == ["Rare"]
    assert "did you mean “convolution”?" in err


def test_search_says_when_no_paper_has_every_word(capsys, titled):
    code, out, err = run(capsys, "--data-dir", titled, "search", "binary coding xyzzy", "--json")
    found = json.loads(out)
    assert code == 0 and found[0]["title"] == "Binary Coding in Auditory Cortex" and found[0]["words_matched"] == 2
    assert "closest matches" in err and "xyzzy" in err
    code, out, err = run(capsys, "--data-dir", titled, "export", "binary coding xyzzy")
    assert (code, out) == (1, "")  # a reading list holds what was asked for
    assert err == "readinglist: no paper has every word of “binary coding xyzzy”: nothing to export, nothing written\n"


def test_search_is_always_in_rank_order(capsys, titled):
    for text in ("transformer networks", "convolution", "binary transformer"):
        _, out, _ = run(capsys, "--data-dir", titled, "search", text, "--json", "--limit", "0")
        found = json.loads(out)
        keys = [(p.get("words_matched", 0), p["score"]) for p in found]
        if not any(k[0] for k in keys):
            assert [k[1] for k in keys] == sorted((k[1] for k in keys), reverse=True), text
        else:
            assert [k[0] for k in keys] == sorted((k[0] for k in keys), reverse=True), text


def test_titles_show_their_math_as_abstracts_do(capsys, titled):
    _, out, _ = run(capsys, "--data-dir", titled, "search", "l1 regression")
    assert "Sparse ℓ₁-regression" in out
    uid = out.split()[0]
    _, out, _ = run(capsys, "--data-dir", titled, "show", uid)
    assert out.startswith("Sparse ℓ₁-regression\n")


def test_a_tag_as_the_command_line_writes_it_is_what_tag_takes(capsys, titled):
    _, out, _ = run(capsys, "--data-dir", titled, "search", "binary coding")
    uid = out.split()[0]
    run(capsys, "--data-dir", titled, "tag", uid, "must read")
    _, out, _ = run(capsys, "--data-dir", titled, "list", "tag:must-read")
    assert "#must-read" in out and out.split()[0] == uid


def test_import_reads_the_files_given_together_and_goes_on_past_a_bad_one(capsys, dd, tmp_path):
    """`import biblio.bib broken.json strings.bib`: the .bib files share their macros (given in any order),
    the bad file is said on its own line, the rest are imported, and the exit code says one failed."""
    (tmp_path / "biblio.bib").write_text("@article{k, title = {Quokka habits}, author = Q, journal = J}\n")
    (tmp_path / "strings.bib").write_text('@string{Q = "Ann Quokka"}\n@string{J = "Journal of Quokkas"}\n')
    (tmp_path / "broken.json").write_text('[{"title": "x"},')
    names = ("biblio.bib", "broken.json", "strings.bib")
    code, out, err = run(capsys, "--data-dir", dd, "import", *(str(tmp_path / n) for n in names))
    assert code == 1
    assert out.splitlines() == [
        "biblio.bib: 1 added, 0 updated, 0 unchanged, 0 skipped",
        "strings.bib: 0 added, 0 updated, 0 unchanged, 0 skipped, 2 @string macros defined",
    ]
    assert err.count("\n") == 1 and "cannot import broken.json" in err
    (hit,) = json.loads(run(capsys, "--data-dir", dd, "search", "quokka", "--json")[1])
    shown = json.loads(run(capsys, "--data-dir", dd, "show", hit["id"], "--json")[1])
    assert shown["authors"] == ["Ann Quokka"] and shown["venue"] == "Journal of Quokkas"


def test_the_window_starts_without_building_the_parser(monkeypatch):
    """The window's own options start it directly, without the parser of every command; anything else
    (an abbreviation, a missing value, a command, --help) is read by the parser as before."""
    import gc

    import readinglist.app
    from readinglist import cli

    started = []
    monkeypatch.setattr(readinglist.app, "run", lambda data_dir=None, smoke_test=False: started.append(
        (data_dir, smoke_test)) or 0)  # fmt: skip
    real_parser = cli.build_parser

    def no_parser():
        raise AssertionError("the parser was built for the window's own options")

    try:
        monkeypatch.setattr(cli, "build_parser", no_parser)
        assert cli.main(["--data-dir", "a", "--smoke-test"]) == 0
        assert cli.main(["--data-dir=b"]) == 0
        assert cli.main([]) == 0
        assert started == [("a", True), ("b", False), (None, False)]
        for argv in (["--data-dir"], ["--data-dir", "--smoke-test"], ["--smoke"], ["list"], ["--help"], ["-h"]):
            assert cli.window_options(argv) is None
        monkeypatch.setattr(cli, "build_parser", real_parser)
        assert cli.main(["--smoke", "--data-dir", "c"]) == 0  # argparse's abbreviation, as before
        assert started[-1] == ("c", True)
        with pytest.raises(SystemExit) as info:
            cli.main(["--data-dir"])
        assert info.value.code == 2
    finally:
        gc.enable()  # the window's start pauses collection (__main__.py)


def test_the_default_data_folder_is_the_users_data_folder(monkeypatch, tmp_path):
    """Without --data-dir or $READINGLIST_DATA_DIR the library lives in platformdirs' user data folder
    (platformdirs loads only then); either of them names the folder."""
    import platformdirs

    from readinglist import APP_NAME, paths

    monkeypatch.delenv(paths.ENV_DATA_DIR, raising=False)
    assert paths.data_dir() == Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    assert paths.data_dir(tmp_path / "x") == (tmp_path / "x").resolve()
    monkeypatch.setenv(paths.ENV_DATA_DIR, str(tmp_path / "y"))
    assert paths.data_dir() == (tmp_path / "y").resolve()


def test_cite_prints_what_the_window_copies_by_id_or_query(capsys, dd):
    from readinglist.citation import bibtex_citations, text_citations
    from readinglist.library import Library

    _, out, _ = run(capsys, "--data-dir", dd, "search", "BEXA", "--json")
    uid = json.loads(out)[0]["id"]
    run(capsys, "--data-dir", dd, "priority", uid, "1")
    lib = Library.open(Path(dd))
    try:
        [pid] = lib.search("BEXA").ids[:1]
        paper = lib.papers([pid])
        everything = lib.papers(lib.search("").ids)
        apa, bib = text_citations(paper), bibtex_citations(paper)
    finally:
        lib.close()
    assert run(capsys, "--data-dir", dd, "cite", uid) == (0, apa + "\n", "")  # Copy Citation's text
    code, out, _ = run(capsys, "--data-dir", dd, "cite", uid, "--format", "bibtex")
    assert (code, out) == (0, bib) and "@inproceedings{" in out and "priority" not in out  # Copy BibTeX's
    code, out, err = run(capsys, "--data-dir", dd, "cite", "BEXA")  # a query: its papers, best first
    assert (code, out.splitlines()[0]) == (0, apa)
    # a query that finds more than --limit: the first ones, and a line on stderr that says so
    code, out, err = run(capsys, "--data-dir", dd, "cite", "state:unread", "--limit", "3")
    assert code == 0 and len(out.splitlines()) == 3
    assert "19 papers match “state:unread”; cited the first 3, best first" in err
    assert run(capsys, "--data-dir", dd, "cite", "state:unread")[1].count("\n") == 10  # 10 unless told
    assert run(capsys, "--data-dir", dd, "cite", "state:unread", "--limit", "0")[1].count("\n") == 19
    other = everything[0] if everything[0].id != pid else everything[1]
    both = run(capsys, "--data-dir", dd, "cite", uid, other.uid)[1]
    assert both == apa + "\n" + text_citations([other]) + "\n"  # several ids: those papers, in that order
    assert run(capsys, "--data-dir", dd, "cite", "state:read", "zzzqqq")[0] == 1
    code, _, err = run(capsys, "--data-dir", dd, "cite", "abcdef")
    assert code == 1 and "no paper with id 'abcdef'" in err


def test_a_line_too_wide_shortens_a_long_venue_before_the_title():
    """A trial's line: "MaxSAT by Improved …  Proceedings of the AAAI Conference on Artificial Intelligence 2014"
    — the venue kept its room and the title lost it. The venue is shortened first, with its own ellipsis."""
    from readinglist.cli import paper_line
    from readinglist.papers import Paper

    title = "MaxSAT by Improved Instance-Specific Algorithm Configuration"
    venue = "Proceedings of the AAAI Conference on Artificial Intelligence"
    paper = Paper(1, "16b9ee", title, title, title, None, "", "", [], venue, 2014, "", [], "unread", "", tags=["RL"])
    line = paper_line(paper, 110)
    assert len(line) <= 110 and title in line
    assert line.endswith("  AAAI Conference on… 2014 · #RL")
    assert paper_line(paper, 160).endswith(f"  {venue} 2014 · #RL")  # room for all: nothing shortened
    narrow = paper_line(paper, 70)  # no room for both: the title is cut too, after the venue
    assert len(narrow) <= 70 and "… " in narrow and "Conference on… 2014" in narrow
    short = Paper(2, "21fd07", title, title, title, None, "", "", [], "ICCV", 2003, "", [], "unread", "")
    assert paper_line(short, 70) == "21fd07  [ ] MaxSAT by Improved Instance-Specific Algorithm…  ICCV 2003"


def test_a_long_boolean_query_with_an_unknown_field_is_an_error_for_list_and_export(capsys, dd):
    """`list 'tag:RL OR state:queued OR … OR id:18cbc1'` (9 words) read "id:" as pasted text and listed 29
    unrelated closest matches, while export said "nothing to export": a query that joins fields with OR is
    typed, and its unknown field the error a short one gets, for both."""
    query = "tag:RL OR state:queued OR tag:foo OR state:read OR id:18cbc1"
    for command in ("list", "export", "search"):
        code, out, err = run(capsys, "--data-dir", dd, command, query)
        assert (code, out) == (1, "") and "unknown field “id:”" in err, command
    # the same fields known: searched, whatever the length
    code, out, err = run(capsys, "--data-dir", dd, "list", "tag:RL OR state:queued OR tag:foo OR state:read")
    assert (code, out, err) == (0, "", "No papers match “tag:RL OR state:queued OR tag:foo OR state:read”.\n")


def test_closest_matches_say_how_many_words_the_best_has_and_the_stop_words_not_counted(capsys, titled):
    code, _, err = run(capsys, "--data-dir", titled, "search", "binary of xyzzy")
    assert code == 0 and "closest matches first (1 of 2 words, not counting “of”)" in err


def test_a_paper_is_named_by_its_citation_key_as_well_as_its_id(capsys, dd, tmp_path):
    """`cite Alexander:2009do` failed with "unknown field": a key's colon was read as a field. cite, show and
    every command that takes an ID take a citation key too (in any case); a key named whole comes before an
    id it happens to start."""
    bib = tmp_path / "keys.bib"
    bib.write_text(
        "@article{Alexander:2009do, title = {Quokka habits of the night}, author = {Alexander, Ann}, year = 2009}\n"
        "@article{other, title = {Quokka days}, author = {Bee, Bo}, year = 2019}\n"
    )
    assert run(capsys, "--data-dir", dd, "import", str(bib))[0] == 0
    code, out, err = run(capsys, "--data-dir", dd, "cite", "Alexander:2009do")
    assert (code, out, err) == (0, "Alexander, A. (2009). Quokka habits of the night.\n", "")
    code, out, _ = run(capsys, "--data-dir", dd, "cite", "alexander:2009DO", "other", "--format", "bibtex")
    assert code == 0 and out.startswith("@article{Alexander:2009do,") and "@article{other," in out
    code, out, _ = run(capsys, "--data-dir", dd, "show", "Alexander:2009do", "--json")
    uid = json.loads(out)["id"]
    assert code == 0 and json.loads(out)["title"] == "Quokka habits of the night"
    assert run(capsys, "--data-dir", dd, "mark", "Alexander:2009do", "read")[1] == f"{uid}: read\n"
    # a key that names an id's first letters names its own paper
    assert run(capsys, "--data-dir", dd, "key", "other", uid[:3])[0] == 0
    assert json.loads(run(capsys, "--data-dir", dd, "show", uid[:3], "--json")[1])["title"] == "Quokka days"
    code, out, err = run(capsys, "--data-dir", dd, "cite", "Nobody:2009")
    assert (code, out) == (
        1,
        "",
    ) and "no paper has the citation key “Nobody:2009” (read as a query: unknown field" in err


def test_tag_takes_several_papers_ids_before_the_tags_and_never_makes_an_id_a_tag(capsys, dd):
    """`tag 2345ec 1ecff7 …` tagged the first paper with a tag named after the second (a trial): the papers'
    ids come first, then the tags; an id among the tags, or no tag at all, is refused and nothing changes."""
    _, out, _ = run(capsys, "--data-dir", dd, "list")
    a, b, c = (line.split()[0] for line in out.splitlines()[:3])
    code, out, err = run(capsys, "--data-dir", dd, "tag", a, b, "RL", "to read")
    assert (code, out, err) == (0, f"{a}: RL, to read\n{b}: RL, to read\n", "")
    code, out, err = run(capsys, "--data-dir", dd, "untag", a, b, "RL")
    assert (code, out) == (0, f"{a}: to read\n{b}: to read\n")
    for words, said in (
        ((b,), f"no tags given: “{b}” names a paper, not a tag; nothing was changed"),
        ((b, c), f"no tags given: “{b}”, “{c}” name papers, not tags; nothing was changed"),
        (("RL", b), f"“{b}” names a paper ({b}), not a tag; nothing was changed"),
    ):
        code, out, err = run(capsys, "--data-dir", dd, "tag", a, *words)
        assert (code, out) == (1, "") and err.startswith(f"readinglist: {said} (`readinglist tag ID [ID…] TAG…`")
        assert "`--tag WORD` adds a tag of that name anyway" in err
    assert run(capsys, "--data-dir", dd, "list", "tag:RL")[1] == ""
    assert json.loads(run(capsys, "--data-dir", dd, "show", a, "--json")[1])["tags"] == ["to read"]
    run(capsys, "--data-dir", dd, "remove", c)
    code, _, err = run(capsys, "--data-dir", dd, "tag", a, c, "RL")  # a removed paper's id: said, not a tag
    assert code == 1 and f"paper {c} was removed" in err
    assert run(capsys, "--data-dir", dd, "list", "tag:RL")[1] == ""


def test_untag_takes_off_a_tag_named_like_a_papers_id_that_the_paper_has(capsys, dd):
    """A paper tagged "1ecff7" by the old `tag 2345ec 1ecff7 RL` (a trial), or in the window: `untag 2345ec
    1ecff7` takes that tag off, as the paper has it, not refused as "no tags given" (the command line had no
    other way to take it off). A paper's id it does not have as a tag is still a paper."""
    from readinglist.library import Library

    _, out, _ = run(capsys, "--data-dir", dd, "list")
    a, b, c = (line.split()[0] for line in out.splitlines()[:3])
    lib = Library.open(dd)
    try:
        lib.add_tags([lib.resolve(a)], [b, "RL"])
    finally:
        lib.close()
    code, out, err = run(capsys, "--data-dir", dd, "untag", a, b)
    assert (code, out, err) == (0, f"{a}: RL\n", "")
    code, out, _ = run(capsys, "--data-dir", dd, "untag", a, c, "RL")  # c: a paper, as before
    assert (code, out) == (0, f"{a}: (no tags)\n{c}: (no tags)\n")


def test_tag_reads_a_start_of_an_id_or_a_citation_key_after_the_first_paper_as_a_paper_never_a_tag(capsys, dd):
    """`tag f55ccf e2a9 foo` tagged one paper "e2a9" (a unique start of another's id) and `tag e2fe80
    Alexander:2009do newtag2` one with the key (a trial): a word that names a paper as the first ID may is one
    more paper, and among the tags it is refused; `--tag WORD` tags with such a word anyway. `untag` still takes
    off a tag so named that a paper has."""
    _, out, _ = run(capsys, "--data-dir", dd, "list")
    a, b, c = (line.split()[0] for line in out.splitlines()[:3])
    key = run(capsys, "--data-dir", dd, "key", c)[1].strip()
    code, out, err = run(capsys, "--data-dir", dd, "tag", a, b[:4], key.upper(), "foo")
    assert (code, out, err) == (0, f"{a}: foo\n{b}: foo\n{c}: foo\n", "")
    for word, named in ((b[:4], b), (key, c)):
        code, out, err = run(capsys, "--data-dir", dd, "tag", a, "bar", word)
        assert (code, out) == (1, "") and err.startswith(f"readinglist: “{word}” names a paper ({named}), not a tag")
        code, out, err = run(capsys, "--data-dir", dd, "tag", a, word)
        assert (code, out) == (1, "") and err.startswith(f"readinglist: no tags given: “{word}” names a paper")
    assert json.loads(run(capsys, "--data-dir", dd, "show", a, "--json")[1])["tags"] == ["foo"]
    # a word that names no paper begins the tags: three hex letters are too few to name one
    assert run(capsys, "--data-dir", dd, "tag", a, b[:3])[1] == f"{a}: {b[:3]}, foo\n"
    # tagged anyway, and taken off again by untag as the paper has it
    code, out, _ = run(capsys, "--data-dir", dd, "tag", a, "--tag", b[:4], "--tag", key)
    assert (code, out) == (0, f"{a}: {b[:3]}, {b[:4]}, foo, {key}\n")
    code, out, _ = run(capsys, "--data-dir", dd, "untag", a, b[:4], key, b[:3])
    assert (code, out) == (0, f"{a}: foo\n")
    code, _, err = run(capsys, "--data-dir", dd, "tag", a)
    assert code == 1 and err.startswith("readinglist: no tags given (")


def test_a_start_of_several_papers_ids_among_tag_words_is_refused(capsys, dd, monkeypatch):
    """A start of an id that several papers share names no one paper, nor is it surely a tag: asked which."""
    from readinglist.store import Store

    _, out, _ = run(capsys, "--data-dir", dd, "list")
    a = out.split()[0]
    monkeypatch.setattr(Store, "uids_starting", lambda self, text, limit=6: {1: "beef01", 2: "beef02"})
    code, out, err = run(capsys, "--data-dir", dd, "tag", a, "beef", "RL")
    assert (code, out) == (1, "")
    assert err == (
        "readinglist: “beef” starts the ids of several papers (beef01, beef02): give more of the id; "
        "`--tag beef` adds a tag of that name; nothing was changed\n"
    )
