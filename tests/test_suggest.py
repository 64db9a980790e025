"""Suggestions from the user's own marks and stored interests: the marks read from the store, the interests
kept in the library (migration 0013, backups), and the `suggest` / `interests` commands."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from test_interest import synthetic, write_papers

from readinglist.cli import main
from readinglist.library import Library
from readinglist.papers import NothingToLearn
from readinglist.store import MIGRATIONS, Store

QUASAR_BIB = """@article{mine1,
  title = {Quasar redshift spectroscopy at scale},
  author = {Me, Myself},
  year = {2024},
  abstract = {We measure redshift spectroscopy of every quasar and the galactic halos around it.}
}
@article{mine2,
  title = {Galactic halos of the quasar},
  author = {Me, Myself},
  year = {2025},
  abstract = {Galactic halos seen through quasar redshift spectroscopy.}
}
"""


@pytest.fixture
def planted(empty_lib: Library, tmp_path: Path) -> tuple[Library, list[int], list[int]]:
    empty_lib.import_files([write_papers(tmp_path / "planted.jsonl", synthetic())])
    ids = empty_lib.store.all_ids()
    return empty_lib, ids[:10], ids[10:]


# ---- the marks and the interests, in the store --------------------------------------------------------


def test_marks_are_read_from_states_and_priorities(planted):
    lib, relevant, rest = planted
    assert lib.marks() == ([], [])
    lib.set_state(relevant[:2], "read")
    lib.set_state([relevant[2]], "queued")
    lib.set_state([relevant[3]], "skimmed")
    lib.set_priority([relevant[4]], 2)  # unread, but prioritised: positive
    lib.set_state(rest[:2], "skipped")
    lib.set_state([rest[2]], "skipped")
    lib.set_priority([rest[2]], 1)  # skipped yet prioritised: positive, as the ranking counts it
    positive, negative = lib.marks()
    assert positive == sorted([*relevant[:5], rest[2]])
    assert negative == rest[:2]
    assert lib.untriaged_count() == 60 - 8


def test_suggestions_need_something_to_learn_from(planted):
    lib, relevant, rest = planted
    with pytest.raises(NothingToLearn, match="mark a few papers read/skipped or set interests first"):
        lib.suggestions()
    lib.set_state(relevant[:3], "read")
    lib.set_state(rest[:3], "skipped")
    ranking = lib.suggestions()
    assert len(ranking) == 60 - 6
    assert set(ranking.ids[:7]) == set(relevant[3:])


def test_stored_interests_seed_the_suggestions_before_any_mark(planted):
    lib, relevant, _ = planted
    lib.set_interests("My work: redshift spectroscopy of quasar hosts and galactic halos")
    assert lib.interests() == ["My work: redshift spectroscopy of quasar hosts and galactic halos"]
    assert set(lib.suggestions().ids[:10]) == set(relevant)
    lib.set_interests([])
    assert lib.interests() == [] and lib.interests_source() == ""
    with pytest.raises(NothingToLearn):
        lib.suggestions()


def test_interests_from_a_bibtex_file_are_kept_with_their_source(planted, tmp_path):
    lib, relevant, _ = planted
    bib = tmp_path / "mine.bib"
    bib.write_text(QUASAR_BIB)
    texts = lib.interests_from_file(bib)
    lib.set_interests(texts, source=str(bib))
    assert len(lib.interests()) == 2 and lib.interests_source() == str(bib)
    assert set(lib.suggestions().ids[:10]) == set(relevant)
    assert lib.store.count() == 60  # nothing was imported


def test_suggestions_rank_only_the_candidates_given(planted):
    lib, relevant, rest = planted
    lib.set_state(relevant[:3], "read")
    candidates = [rest[5], relevant[6], rest[7], relevant[1]]  # relevant[1] is marked: never suggested
    ranking = lib.suggestions(candidates)
    assert ranking.ids[0] == relevant[6]
    assert set(ranking.ids) == {rest[5], relevant[6], rest[7]}


def test_order_sorts_any_papers_marked_or_not(planted):
    lib, relevant, rest = planted
    lib.set_state(relevant[:3], "read")
    ranking = lib.suggestions()
    ids, scores = ranking.order([rest[0], relevant[0], rest[1], relevant[5]])
    assert set(ids[:2]) == {relevant[0], relevant[5]}  # a marked paper is sorted by its score too
    assert scores == sorted(scores, reverse=True)


def test_migration_0013_adds_the_interests_table_once(tmp_path):
    path = tmp_path / "library.db"
    store = Store(path)
    assert "0013_interests" in store.applied_migrations()
    store.set_interests(["a text"], "")
    dict(MIGRATIONS)["0013_interests"](store.db)  # idempotent: run again, nothing lost
    assert store.interests() == (["a text"], "")
    store.close()
    old = sqlite3.connect(path)  # a library from before it
    old.execute("DROP TABLE interests")
    old.execute("DROP INDEX papers_priority")
    old.execute("DELETE FROM schema_migrations WHERE name = '0013_interests'")
    old.commit()
    old.close()
    ro = Store(path, read_only=True)  # another window has it: no migration, no interests, marks still read
    assert ro.interests() == ([], "") and ro.interest_marks() == ([], [])
    ro.close()
    again = Store(path)
    assert "0013_interests" in again.applied_migrations() and again.interests() == ([], "")
    indexes = {r[0] for r in again.db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert "papers_priority" in indexes
    again.close()
    assert (tmp_path / "library.before-0013_interests.db").exists()


def test_a_backup_carries_the_interests_and_a_restore_keeps_the_librarys(planted, tmp_path):
    lib, relevant, _ = planted
    lib.set_state(relevant[:1], "read")
    lib.set_interests(["quasar halos", "redshift surveys"], source="mine.bib")
    backup = tmp_path / "b.json.gz"
    lib.backup(backup)
    lib.set_interests([])
    summary = lib.restore(backup)
    assert lib.interests() == ["quasar halos", "redshift surveys"] and lib.interests_source() == "mine.bib"
    assert summary.interests and "interests restored" in summary.line()
    lib.set_interests("something else")
    summary = lib.restore(backup)
    assert lib.interests() == ["something else"] and any("interests" in c for c in summary.conflicts)
    lib.restore(backup, overwrite=True)
    assert lib.interests() == ["quasar halos", "redshift surveys"]


# ---- the command line ---------------------------------------------------------------------------------


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def planted_dir(tmp_path: Path, capsys) -> tuple[str, list[str], list[str]]:
    """A data folder with the synthetic library (no bundled corpus): (folder, relevant uids, the rest)."""
    folder = tmp_path / "cli-data"
    lib = Library.open(folder, seed=False)
    lib.import_files([write_papers(tmp_path / "planted.jsonl", synthetic())])
    ids = lib.store.all_ids()
    uids = lib.store.uids(ids)
    lib.close()
    return str(folder), [uids[i] for i in ids[:10]], [uids[i] for i in ids[10:]]


def test_cli_suggest_says_what_to_do_when_there_is_nothing_to_learn(capsys, planted_dir):
    folder, _, _ = planted_dir
    code, out, err = run(capsys, "--data-dir", folder, "suggest")
    assert code == 1 and out == ""
    assert "mark a few papers read/skipped or set interests first" in err and "Traceback" not in err


def test_cli_suggest_in_a_library_with_every_paper_removed_says_it_is_empty(capsys, planted_dir):
    """It said "every one is marked or has a priority" (a trial): with interests set, and with none."""
    folder, relevant, rest = planted_dir
    assert run(capsys, "--data-dir", folder, "interests", "--set", "quasar spectra")[0] == 0
    assert run(capsys, "--data-dir", folder, "remove", *relevant, *rest)[0] == 0
    for extra in ((), ("--json",), ("quasar",)):
        code, out, err = run(capsys, "--data-dir", folder, "suggest", *extra)
        assert code == 0 and out == ("[]\n" if extra == ("--json",) else "")
        said = "The library is empty: `readinglist import FILE` brings papers (`readinglist removed` lists the removed"
        assert err == said + " ones).\n"
    assert run(capsys, "--data-dir", folder, "interests", "--clear")[0] == 0
    assert "The library is empty" in run(capsys, "--data-dir", folder, "suggest")[2]


def test_cli_suggest_after_marks_puts_the_planted_papers_first_with_why(capsys, planted_dir):
    folder, relevant, rest = planted_dir
    for uid in relevant[:3]:
        assert run(capsys, "--data-dir", folder, "mark", uid, "read")[0] == 0
    for uid in rest[:3]:
        assert run(capsys, "--data-dir", folder, "mark", uid, "skipped")[0] == 0
    code, out, _ = run(capsys, "--data-dir", folder, "suggest", "--limit", "7", "--json")
    assert code == 0
    items = json.loads(out)
    assert {i["id"] for i in items} == set(relevant[3:])
    for item in items:
        assert item["state"] == "unread" and isinstance(item["score"], float)
        assert "quasar" in " ".join(item["why"])
        assert item["near"] and set(item["near"]) <= set(relevant[:3])
    assert [i["score"] for i in items] == sorted((i["score"] for i in items), reverse=True)
    assert [(i["rank"], i["of"]) for i in items] == [(r, 54) for r in range(1, 8)]  # 60 papers, 6 marked
    code, out, err = run(capsys, "--data-dir", folder, "suggest", "--limit", "2")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 4 and lines[0].split()[0] == items[0]["id"]
    assert "why:" in lines[1] and "quasar" in lines[1] and "like " in lines[1]
    # a raw score says nothing to a reader (it was printed after each title): how many were ranked does
    assert str(items[0]["score"])[:4] not in lines[0] and "the best 2 of 54" in err


def test_cli_suggest_with_a_query_ranks_only_its_results(capsys, planted_dir):
    folder, relevant, _ = planted_dir
    run(capsys, "--data-dir", folder, "mark", relevant[0], "read")
    code, out, _ = run(capsys, "--data-dir", folder, "suggest", "galactic", "--limit", "0", "--json")
    assert code == 0
    assert {i["id"] for i in json.loads(out)} == set(relevant[1:])  # every match but the marked one
    code, _, err = run(capsys, "--data-dir", folder, "suggest", "--limit", "-1")
    assert code == 1 and "--limit" in err


def test_a_priority_takes_a_paper_out_of_the_suggestions(capsys, planted_dir):
    folder, relevant, _ = planted_dir
    run(capsys, "--data-dir", folder, "mark", relevant[0], "read")
    run(capsys, "--data-dir", folder, "priority", relevant[1], "1")
    _, out, _ = run(capsys, "--data-dir", folder, "suggest", "--limit", "0", "--json")
    ids = [i["id"] for i in json.loads(out)]
    assert relevant[0] not in ids and relevant[1] not in ids and len(ids) == 58


def test_cli_interests_set_print_file_and_clear(capsys, planted_dir, tmp_path):
    folder, relevant, _ = planted_dir
    code, out, err = run(capsys, "--data-dir", folder, "interests")
    assert code == 0 and out == "" and "No interests set" in err
    code, _, err = run(capsys, "--data-dir", folder, "interests", "--set", "quasar redshift spectroscopy")
    assert code == 0 and "Interests set" in err
    assert run(capsys, "--data-dir", folder, "interests")[1].strip() == "quasar redshift spectroscopy"
    _, out, _ = run(capsys, "--data-dir", folder, "suggest", "--limit", "10", "--json")
    assert {i["id"] for i in json.loads(out)} == set(relevant)  # the interests alone, before any mark
    bib = tmp_path / "mine.bib"
    bib.write_text(QUASAR_BIB)
    code, _, err = run(capsys, "--data-dir", folder, "interests", "--file", str(bib))
    assert code == 0 and "2 papers" in err
    code, out, err = run(capsys, "--data-dir", folder, "interests")
    assert "Quasar redshift spectroscopy at scale" in out and f"From {bib}" in err
    assert run(capsys, "--data-dir", folder, "interests", "--clear")[0] == 0
    assert run(capsys, "--data-dir", folder, "suggest")[0] == 1


def test_cli_interests_refuses_bad_input_and_changes_nothing(capsys, planted_dir, tmp_path):
    folder, _, _ = planted_dir
    run(capsys, "--data-dir", folder, "interests", "--set", "kept")
    code, _, err = run(capsys, "--data-dir", folder, "interests", "--set", "  ")
    assert code == 1 and "--clear" in err
    binary = tmp_path / "junk.bib"
    binary.write_bytes(b"\x00\xff\x00garbage" * 100)
    code, _, err = run(capsys, "--data-dir", folder, "interests", "--file", str(binary))
    assert code == 1 and "junk.bib" in err and "Traceback" not in err
    code, _, err = run(capsys, "--data-dir", folder, "interests", "--file", str(tmp_path / "missing.bib"))
    assert code == 1 and "missing.bib" in err
    assert run(capsys, "--data-dir", folder, "interests")[1].strip() == "kept"


ORDINALS = [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (13, "13th"), (21, "21st"),
            (102, "102nd"), (1111, "1,111th")]  # fmt: skip


@pytest.mark.parametrize(("n", "text"), ORDINALS)
def test_a_suggestions_place_reads_as_an_ordinal(n, text):
    from readinglist.interest import Suggestion

    assert Suggestion(1, 0.1, rank=n, of=2000).place() == f"{text} of 2,000"
    assert Suggestion(1, 0.1).place() == ""


def test_suggest_with_a_query_no_paper_matches_whole_ranks_the_papers_with_most_words(capsys, tmp_path):
    """A trial: `suggest 'potential games FTRL'` ranked by interest every paper with one of the words (672 of
    8k: "Recurrent Neural Networks" with "potential" first), where the window's line said "2 of 3 words"."""
    from readinglist.papers import SearchResult

    texts = [
        "Potential games and their equilibria in learning.",
        "Potential flows in recurrent networks.",
        "Games people play with networks.",
        "Recurrent networks of neurons.",
        "Potential games converge fast.",
    ]
    rows = [{"title": f"Paper {n}", "abstract": text, "year": 2020} for n, text in enumerate(texts)]
    folder = tmp_path / "d"
    lib = Library.open(folder, seed=False)
    lib.import_files([write_papers(tmp_path / "p.jsonl", rows)])
    by_title = {p.title: p.uid for p in lib.papers(lib.search("").ids)}
    result = lib.search("potential games FTRL")
    assert result.partial and sorted(result.matched) == [1, 1, 2, 2]
    best = result.most_words()
    assert set(best.ids) == {lib.resolve(by_title["Paper 0"]), lib.resolve(by_title["Paper 4"])}
    assert best.matched == [2, 2] and SearchResult([1], [1.0], "x").most_words().ids == [1]
    lib.close()
    assert run(capsys, "--data-dir", str(folder), "mark", by_title["Paper 3"], "read")[0] == 0
    code, out, _ = run(capsys, "--data-dir", str(folder), "suggest", "potential games FTRL", "--json")
    assert code == 0 and {i["id"] for i in json.loads(out)} == {by_title["Paper 0"], by_title["Paper 4"]}
