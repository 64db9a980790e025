import json
import subprocess
import sys

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
    assert run(capsys, "--data-dir", dd, "note", uid, "--set", "see §3")[0] == 0
    note = tmp_path / "n.md"
    note.write_text("from a file")
    assert run(capsys, "--data-dir", dd, "note", uid, "--file", str(note))[0] == 0
    assert run(capsys, "--data-dir", dd, "note", uid)[1].strip() == "from a file"
    assert run(capsys, "--data-dir", dd, "title", uid, "Budgeted exits")[0] == 0
    _, out, _ = run(capsys, "--data-dir", dd, "list", "tag:rl", "--json")
    (p,) = json.loads(out)
    assert (p["title"], p["tags"], p["state"], p["note"]) == ("Budgeted exits", ["rl"], "read", "from a file")
    _, out, _ = run(capsys, "--data-dir", dd, "export")
    assert "- [x] **Budgeted exits**" in out
    target = tmp_path / "out.bib"
    assert run(capsys, "--data-dir", dd, "export", "state:read", "-o", str(target))[0] == 0
    assert target.read_text().count("@inproceedings") == 1


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
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 19


def test_data_dir_env(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("READINGLIST_DATA_DIR", str(tmp_path / "envdir"))
    assert run(capsys, "list")[0] == 0
    assert (tmp_path / "envdir" / "library.db").exists()


def test_check_installation_exercises_the_writer_processes():
    """`readinglist check` is what CI runs on the frozen bundle; here it runs as installed by pip."""
    r = subprocess.run([sys.executable, "-m", "readinglist", "check"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "edit written by the index writer process" in r.stdout and "2,500 papers searchable" in r.stdout
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
