"""Topics, the map and shared key phrases (issue 16, points 1, 2 and 4), on a synthetic library with four
planted themes: each theme's papers use its own phrases, and every paper the same filler."""

from __future__ import annotations

import json
import random
import threading
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from readinglist import cli
from readinglist.keyphrases import display_word, phrases, shared_phrases, written_forms
from readinglist.library import Library
from readinglist.papers import QueryError, TopicsCancelled
from readinglist.store import MIGRATIONS, Store
from readinglist.topics import match_ids, topic_count

THEMES = {
    "graphs": [
        "graph neural networks",
        "message passing",
        "node classification",
        "graph convolution",
        "molecular graphs",
    ],
    "attention": ["sparse attention", "transformer models", "long sequences", "attention heads", "language modelling"],
    "proteins": ["protein folding", "amino acid sequences", "structure prediction", "binding sites", "drug discovery"],
    "control": ["reinforcement learning", "reward shaping", "policy gradient", "robot manipulation", "value functions"],
}
FILLER = [
    "We study this question carefully.",
    "Our experiments on benchmark datasets confirm the analysis.",
    "The approach is simple and scales well.",
    "Results improve over strong baselines.",
    "Code is available online.",
]


def planted(n_per_theme: int, seed: int = 0, start: int = 0) -> list[dict[str, object]]:
    rng = random.Random(seed)
    papers = []
    for theme, words in THEMES.items():
        for i in range(start, start + n_per_theme):
            picked = rng.sample(words, 3)
            sentences = [f"We consider {picked[0]} and {picked[1]}.", f"Unlike earlier {picked[2]} work, ours is fast."]
            sentences += rng.sample(FILLER, 2)
            rng.shuffle(sentences)
            papers.append(
                {
                    "title": f"On {picked[0]} with {rng.choice(words)}, part {i} ({theme})",
                    "abstract": " ".join(sentences),
                    "year": 2020,
                    "venue": "Synthetic",
                }
            )
    return papers


def write_jsonl(path: Path, papers: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(p) + "\n" for p in papers), encoding="utf-8")
    return path


def theme_of(lib: Library) -> dict[int, str]:
    out = {}
    for p in lib.papers(lib.store.all_ids()):
        out[p.id] = p.title.rsplit("(", 1)[1].rstrip(")")
    return out


@pytest.fixture
def planted_lib(empty_lib, tmp_path):
    empty_lib.import_files([write_jsonl(tmp_path / "planted.jsonl", planted(30))])
    empty_lib.compute_topics(count=4, use_process=False)
    return empty_lib


def test_planted_themes_are_found(planted_lib):
    themes = theme_of(planted_lib)
    topic = planted_lib.topics_of(list(themes))
    assert len(topic) == len(themes)  # every paper has a topic
    by_topic: dict[int, Counter[str]] = {}
    for pid, tid in topic.items():
        by_topic.setdefault(tid, Counter())[themes[pid]] += 1
    assert len(by_topic) == 4
    purity = sum(c.most_common(1)[0][1] for c in by_topic.values()) / len(topic)
    assert purity >= 0.95
    assert {c.most_common(1)[0][0] for c in by_topic.values()} == set(THEMES)


def test_topic_names_are_phrases_from_their_papers(planted_lib):
    themes = theme_of(planted_lib)
    topic = planted_lib.topics_of(list(themes))
    for t in planted_lib.topics():
        assert 2 <= len(t.phrases) <= 4
        members = [p for p in planted_lib.papers([i for i, tid in topic.items() if tid == t.id])]
        texts = [f"{p.title} {p.plain_abstract}".lower() for p in members]
        main = Counter(themes[p.id] for p in members).most_common(1)[0][0]
        for phrase in t.phrases:
            assert len(phrase.split()) >= 2, t.phrases  # phrases, not single stems
            assert any(phrase.lower() in text for text in texts), phrase  # taken from its papers
        assert any(phrase.lower() in THEMES[main] for phrase in t.phrases), (main, t.phrases)
        assert t.label == " · ".join(t.phrases)
        assert t.size == len(members) and t.unread == t.size


def test_default_topic_count_follows_library_size():
    assert topic_count(1) == 0
    assert topic_count(19) == 2
    assert 10 <= topic_count(500) <= topic_count(8000) <= topic_count(94000) == 80
    assert topic_count(3000) == 38


def test_recompute_keeps_topic_ids_where_papers_stay(planted_lib, tmp_path):
    before = planted_lib.topics_of(planted_lib.store.all_ids())
    names = {t.id: t.label for t in planted_lib.topics()}
    planted_lib.compute_topics(count=4, use_process=False)
    assert planted_lib.topics_of(list(before)) == before  # nothing changed: nothing moves
    assert {t.id: t.label for t in planted_lib.topics()} == names
    # a re-import that brings more papers of the same themes
    planted_lib.import_files([write_jsonl(tmp_path / "more.jsonl", planted(8, seed=1, start=100))])
    assert planted_lib.topics_status().outdated
    planted_lib.compute_topics(count=4, use_process=False)
    after = planted_lib.topics_of(list(before))
    kept = sum(after.get(pid) == tid for pid, tid in before.items()) / len(before)
    assert kept >= 0.95
    assert {t.id for t in planted_lib.topics()} == set(names)
    assert not planted_lib.topics_status().outdated


def test_new_topics_get_new_ids_never_reused():
    labels = np.array([0, 0, 0, 1, 1, 1, 2, 2])
    old = np.array([7, 7, 7, 9, 9, -1, -1, -1])
    ids, next_id = match_ids(labels, old, 10)
    assert ids.tolist() == [7, 9, 10] and next_id == 11
    # a topic split in two: the larger part keeps the id
    ids, _ = match_ids(np.array([0, 0, 0, 1, 1]), np.array([4, 4, 4, 4, 4]), 5)
    assert ids.tolist() == [4, 5]


def test_cancel_keeps_the_topics_stored_before(planted_lib):
    before = planted_lib.topics_of(planted_lib.store.all_ids())
    cancel = threading.Event()

    def progress(done: int, total: int, message: str) -> None:
        cancel.set()

    with pytest.raises(TopicsCancelled):
        planted_lib.compute_topics(progress=progress, cancel=cancel, count=2, use_process=False)
    assert planted_lib.topics_of(list(before)) == before


def test_computed_in_a_child_process(empty_lib, tmp_path):
    empty_lib.import_files([write_jsonl(tmp_path / "planted.jsonl", planted(12))])
    messages: list[tuple[int, int, str]] = []
    status = empty_lib.compute_topics(progress=lambda *step: messages.append(step), count=4)
    assert status.computed_at and not status.outdated and status.papers == 48
    assert len(empty_lib.topics()) == 4
    assert any("naming" in m for _, _, m in messages)
    done = [d for d, _, _ in messages]
    assert done == sorted(done) and all(t == 100 for _, t, _ in messages)  # a progress bar only moves on


def test_too_small_a_library_has_no_topics(empty_lib, tmp_path):
    empty_lib.import_files([write_jsonl(tmp_path / "one.jsonl", planted(1)[:1])])
    empty_lib.compute_topics(use_process=False)
    assert empty_lib.topics() == []
    assert empty_lib.library_map() is not None and len(empty_lib.library_map()) == 0


def test_a_paper_with_too_little_text_gets_no_topic_but_a_grey_place_on_the_map(empty_lib, tmp_path):
    """A title alone (or "Abstract Unavailable") was given a topic as confidently as a paper with an abstract (a
    trial): it has none now, and a place on the map near the papers it resembles, with no topic's colour."""
    short = [
        {"title": "Graph neural networks for node classification by message passing", "abstract": ""},
        {"title": "Protein folding and binding sites", "abstract": "Abstract Unavailable"},
        {"title": "Reward shaping for policy gradient", "abstract": "Reinforcement learning, briefly."},
        {"title": "Sparse attention heads", "abstract": None},
    ]
    empty_lib.import_files([write_jsonl(tmp_path / "planted.jsonl", planted(30) + short)])
    empty_lib.compute_topics(count=4, use_process=False)
    ids = {p.title: p.id for p in empty_lib.papers(empty_lib.store.all_ids())}
    loose = [ids[p["title"]] for p in short]
    topic = empty_lib.topics_of(list(ids.values()))
    assert not set(loose) & set(topic)  # no topic
    assert len(topic) == len(ids) - len(loose)  # every paper with an abstract has one
    assert sum(t.size for t in empty_lib.topics()) == len(topic)
    m = empty_lib.library_map()
    on_map = dict(zip(m.paper_ids.tolist(), m.topic_ids.tolist(), strict=True))
    assert all(on_map[pid] == -1 for pid in loose) and len(on_map) == len(ids)  # on the map, in no topic
    # placed by the papers they resemble: the graph paper nearer the graph papers than the protein papers
    places = m.places(list(ids.values()))
    themes = theme_of_planted(ids)
    centre = {k: np.mean([places[p] for p, t in themes.items() if t == k], axis=0) for k in THEMES}
    graph = np.asarray(places[loose[0]])
    assert np.linalg.norm(graph - centre["graphs"]) < np.linalg.norm(graph - centre["proteins"])


def theme_of_planted(ids: dict[str, int]) -> dict[int, str]:
    return {pid: title.rsplit("(", 1)[1].rstrip(")") for title, pid in ids.items() if title.endswith(")")}


def test_a_library_of_titles_alone_still_has_topics(empty_lib, tmp_path):
    """Where most papers have no abstract (a BibTeX file of titles), the titles are all there is: they are
    grouped by them, rather than the map left empty."""
    titles = [{"title": p["title"], "year": 2020} for p in planted(30)]
    empty_lib.import_files([write_jsonl(tmp_path / "titles.jsonl", titles)])
    empty_lib.compute_topics(count=4, use_process=False)
    assert len(empty_lib.topics()) == 4
    assert len(empty_lib.topics_of(list(empty_lib.store.all_ids()))) == len(titles)


# ---- the migration ----------------------------------------------------------------------------------


def test_migration_adds_the_topic_tables_once(tmp_path):
    path = tmp_path / "library.db"
    store = Store(path)
    assert "0005_topics" in store.applied_migrations()
    tables = {r[0] for r in store.db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'index')")}
    assert {"topics", "paper_topics", "paper_topics_topic", "topic_map"} <= tables
    dict(MIGRATIONS)["0005_topics"](store.db)  # idempotent: run again, nothing breaks
    store.close()
    assert Store(path).migrate() == []


def test_migration_upgrades_an_older_library(tmp_path):
    import sqlite3

    path = tmp_path / "library.db"
    store = Store(path)
    store.db.execute("INSERT INTO sources(location, name, kind, imported_at) VALUES ('x', 'x', 'json', 'now')")
    store.db.execute("DROP TABLE topic_map")
    store.db.execute("DROP TABLE paper_topics")
    store.db.execute("DROP TABLE topics")
    store.db.execute("DELETE FROM schema_migrations WHERE name = '0005_topics'")
    store.close()
    again = Store(path)
    assert "0005_topics" in again.applied_migrations()
    assert again.db.execute("SELECT count(*) FROM sources").fetchone()[0] == 1
    assert again.topics() == []
    again.close()
    assert (tmp_path / "library.before-0005_topics.db").exists()  # a copy kept as it was
    sqlite3.connect(tmp_path / "library.before-0005_topics.db").close()


# ---- topic: in queries and the sidebar's filter ------------------------------------------------------


def test_topic_filter_in_queries_and_sidebar(planted_lib):
    topic = planted_lib.topics_of(planted_lib.store.all_ids())
    t = planted_lib.topics()[0]
    members = {pid for pid, tid in topic.items() if tid == t.id}
    assert set(planted_lib.search(f"topic:{t.id}").ids) == members
    assert set(planted_lib.search("", topic=t.id).ids) == members
    assert set(planted_lib.ordered_ids("title", topic=t.id)) == members
    word = t.phrases[0].split()[0]
    ranked = planted_lib.search(f"{word} topic:{t.id}")
    assert ranked.ids and set(ranked.ids) <= members
    assert set(planted_lib.search(word, topic=t.id).ids) == set(ranked.ids)
    assert not set(planted_lib.search(f"NOT topic:{t.id}").ids) & members
    assert set(planted_lib.search(f'topic:"{t.phrases[0]}"').ids) >= members  # by a phrase of its name
    assert len(planted_lib.search(f"topic:{t.id}", limit=3).ids) == 3
    # combined with the reading state
    first = sorted(members)[:2]
    planted_lib.set_state(first, "read")
    assert set(planted_lib.search(f"topic:{t.id}", state="read").ids) == set(first)
    assert planted_lib.topics()[0].counts["read"] == 2 and planted_lib.topics()[0].unread == t.size - 2
    # a priority on an unread paper leaves it unread but triaged; one on a read paper counts once
    planted_lib.set_priority([sorted(members)[2], first[0]], 1)
    again = planted_lib.topics()[0]
    assert again.unread == t.size - 2 and again.prioritized == 1 and again.untriaged == t.size - 3


def test_removing_papers_and_undoing_keeps_the_topics(planted_lib):
    """A removal made the topics outdated (computed again at the next start) and took the paper out of its
    topic for good: undone, it came back without one. Now the topics stay current, their sizes follow, and
    a paper brought back is in its topic again."""
    lib = planted_lib
    assert not lib.topics_status().outdated
    t = lib.topics()[0]
    members = sorted(lib.search("", topic=t.id).ids)
    gone = members[:3]
    assert lib.remove(gone) == gone
    assert not lib.topics_status().outdated
    assert next(x for x in lib.topics() if x.id == t.id).size == t.size - 3
    assert lib.search("", topic=t.id).ids and not set(gone) & set(lib.search("", topic=t.id).ids)
    back = lib.restore_removed(gone)
    assert back == {pid: pid for pid in gone}
    assert not lib.topics_status().outdated
    assert next(x for x in lib.topics() if x.id == t.id).size == t.size
    assert lib.topics_of(gone) == {pid: t.id for pid in gone}
    assert sorted(lib.search("", topic=t.id).ids) == members
    # topics computed before removed papers counted stored the papers alone: a library with a paper removed
    # then is not recomputed for that at its first start now
    lib.remove(gone[:1])
    lib.store.db.execute(
        "UPDATE meta SET value = ? WHERE key = 'topics.fingerprint'", (lib.store.content_fingerprint(removed=False),)
    )
    assert not lib.topics_status().outdated


def test_topic_filter_errors_say_what_to_do(planted_lib, tmp_path):
    with pytest.raises(QueryError, match="no topic 999"):
        planted_lib.search("topic:999")
    with pytest.raises(QueryError, match="no topic's name"):
        planted_lib.search("topic:zzzqqq")
    with pytest.raises(QueryError, match="outside parentheses"):
        planted_lib.search("(topic:1 OR protein)")
    fresh = Library.open(tmp_path / "fresh", seed=False)
    try:
        with pytest.raises(QueryError, match="none are computed"):
            fresh.search("topic:1")
    finally:
        fresh.close()


# ---- the command line --------------------------------------------------------------------------------


def test_cli_topics_lists_and_computes(tmp_path, capsys):
    data = tmp_path / "cli-data"
    lib = Library.open(data, seed=False)
    lib.import_files([write_jsonl(tmp_path / "planted.jsonl", planted(20))])
    lib.close()
    assert cli.main(["--data-dir", str(data), "topics", "--json", "--count", "4"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert len(listed) == 4 and sum(t["size"] for t in listed) == 80
    assert all(" · " in t["label"] and t["counts"]["unread"] == t["untriaged"] == t["size"] for t in listed)
    assert cli.main(["--data-dir", str(data), "topics"]) == 0  # up to date: listed, not recomputed
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 4 and "to triage" in out[0]
    assert cli.main(["--data-dir", str(data), "list", f"topic:{listed[0]['id']}"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == listed[0]["size"]
    assert cli.main(["--data-dir", str(data), "topics", "--count", "0"]) == 1
    assert "--count" in capsys.readouterr().err


def test_cli_count_alone_does_not_replace_topics_and_a_recompute_says_what_it_did(tmp_path, capsys):
    """`topics --count 3` on up-to-date topics replaced the library's 64 with 3 (the window's too) without a
    word (a trial): now it asks for --recompute; a computation says how many topics came of it."""
    data = tmp_path / "cli-data"
    lib = Library.open(data, seed=False)
    lib.import_files([write_jsonl(tmp_path / "planted.jsonl", planted(20))])
    lib.compute_topics(count=4, use_process=False)
    before = [(t.id, t.label, t.size) for t in lib.topics()]
    lib.close()
    assert cli.main(["--data-dir", str(data), "topics", "--count", "3"]) == 1
    err = capsys.readouterr().err
    assert "4 topics, up to date" in err and "topics --recompute --count 3" in err
    lib = Library.open(data)
    assert [(t.id, t.label, t.size) for t in lib.topics()] == before  # nothing replaced
    lib.close()
    assert cli.main(["--data-dir", str(data), "topics", "--recompute", "--count", "3"]) == 0
    captured = capsys.readouterr()
    assert "Topics computed again: 3 topics (were 4), 80 of 80 papers in one." in captured.err
    assert len(captured.out.splitlines()) == 3


def test_cli_count_is_capped_by_the_library_size_and_says_so(tmp_path, capsys):
    """`topics --recompute --count 50` on 26 papers made 23 topics of one paper, with blank names, and said
    "1 topics" for one (a trial): at most one topic per 5 papers (at least 2), said, and counted in words."""
    data = tmp_path / "cli-data"
    lib = Library.open(data, seed=False)
    lib.import_files([write_jsonl(tmp_path / "planted.jsonl", planted(5))])  # 20 papers
    lib.close()
    assert cli.main(["--data-dir", str(data), "topics", "--recompute", "--count", "50", "--json"]) == 0
    captured = capsys.readouterr()
    listed = json.loads(captured.out)
    assert 2 <= len(listed) <= 4 and all(t["label"].strip() for t in listed)
    assert f"{len(listed)} topics; 50 asked for, too many for 20 papers (at most one topic per 5)" in captured.err
    assert cli.main(["--data-dir", str(data), "topics", "--recompute", "--count", "1"]) == 0
    assert f"1 topic (were {len(listed)}), 20 of 20 papers in one." in capsys.readouterr().err
    assert cli.main(["--data-dir", str(data), "topics", "--count", "2"]) == 1
    assert "the library has 1 topic, up to date" in capsys.readouterr().err


def test_a_topic_of_papers_sharing_no_phrase_is_named_all_the_same(empty_lib, tmp_path, monkeypatch):
    """Topics of one paper each (more asked for than the cap now allows) had blank names: a topic is named by
    its best words, whatever its size, never left blank."""
    from readinglist import topics

    monkeypatch.setattr(topics, "count_cap", lambda n: n)
    empty_lib.import_files([write_jsonl(tmp_path / "planted.jsonl", planted(5))])
    empty_lib.compute_topics(count=20, use_process=False)
    found = empty_lib.topics()
    assert len(found) >= 10 and min(t.size for t in found) == 1
    assert all(t.label.strip() and all(p.strip() for p in t.phrases) for t in found), [t.label for t in found]


def test_cli_import_says_how_many_papers_are_in_no_topic_yet(tmp_path, capsys):
    data = tmp_path / "cli-data"
    lib = Library.open(data, seed=False)
    lib.import_files([write_jsonl(tmp_path / "planted.jsonl", planted(20))])
    lib.compute_topics(count=4, use_process=False)
    lib.close()
    more = write_jsonl(tmp_path / "more.jsonl", planted(3, seed=4, start=100))
    assert cli.main(["--data-dir", str(data), "import", str(more)]) == 0
    assert "12 papers are in no topic yet" in capsys.readouterr().err
    assert cli.main(["--data-dir", str(data), "topics"]) == 0  # computed, as they were due
    err = capsys.readouterr().err
    assert "Topics computed again (papers came or changed since they were computed)" in err
    assert "92 of 92 papers in one." in err
    assert cli.main(["--data-dir", str(data), "import", str(more)]) == 0  # nothing new: nothing said
    assert "no topic" not in capsys.readouterr().err


def test_a_recompute_keeps_counting_titles_when_the_share_with_abstracts_barely_passes_half(empty_lib, tmp_path):
    """A library of titles (most papers without an abstract) has topics made of titles; a few papers with abstracts
    more tipped it over half and the next recompute dropped every title-only paper from the topics (a trial:
    20,760 papers in topics, then 13,910, with hardly a paper changed). It keeps its side of the line until the
    share is clearly past it."""
    papers = planted(30)
    for i, p in enumerate(papers):
        if i % 20 < 11:  # 66 of 120 without an abstract: titles alone
            p["abstract"] = ""
    empty_lib.import_files([write_jsonl(tmp_path / "titles.jsonl", papers)])
    empty_lib.compute_topics(count=4, use_process=False)
    assert sum(t.size for t in empty_lib.topics()) == 120  # every title in a topic
    empty_lib.import_files([write_jsonl(tmp_path / "more.jsonl", planted(4, seed=2, start=100))])  # 16 described
    empty_lib.compute_topics(count=4, use_process=False)  # 54+16 of 136 described: 51%
    assert sum(t.size for t in empty_lib.topics()) == 136  # the title-only papers keep their topics
    empty_lib.import_files([write_jsonl(tmp_path / "many.jsonl", planted(15, seed=3, start=200))])  # 60 more
    empty_lib.compute_topics(count=4, use_process=False)  # 130 of 196 described: 66%, past the margin
    assert sum(t.size for t in empty_lib.topics()) == 130  # now the papers with abstracts alone


# ---- the map ----------------------------------------------------------------------------------------


def test_map_places_planted_themes_apart(planted_lib):
    themes = theme_of(planted_lib)
    m = planted_lib.library_map()
    assert m is not None and len(m) == len(themes)
    assert np.all(np.abs(m.xy) <= 1.0)
    places = m.places(list(themes))
    by_theme: dict[str, list[tuple[float, float]]] = {}
    for pid, xy in places.items():
        by_theme.setdefault(themes[pid], []).append(xy)
    centres = {k: np.mean(v, axis=0) for k, v in by_theme.items()}
    spread = max(np.mean(np.linalg.norm(np.asarray(v) - centres[k], axis=1)) for k, v in by_theme.items())
    gaps = [np.linalg.norm(centres[a] - centres[b]) for a in centres for b in centres if a < b]
    assert min(gaps) > 2 * spread
    # label places sit at their topics' papers
    topic = dict(zip(m.paper_ids.tolist(), m.topic_ids.tolist(), strict=True))
    for tid, _, x, y in m.labels:
        pts = np.asarray([places[p] for p, t in topic.items() if t == tid])
        assert np.linalg.norm(pts.mean(axis=0) - (x, y)) < min(gaps) / 2
    # a drag over a theme's region selects its papers
    xs, ys = zip(*by_theme["proteins"], strict=True)
    chosen = set(m.within(min(xs), min(ys), max(xs), max(ys)))
    assert {p for p in themes if themes[p] == "proteins"} <= chosen


def test_map_places_carry_over_a_recompute(planted_lib):
    before = planted_lib.library_map()
    planted_lib.compute_topics(count=4, use_process=False)
    after = planted_lib.library_map()
    assert before is not None and after is not None
    assert np.allclose(before.xy, after.xy, atol=0.05)


# ---- shared key phrases (related papers say why) ---------------------------------------------------------


def test_shared_phrases_name_what_two_papers_share():
    a = ("Sparse attention for long documents", "We make sparse attention fast. Graph neural networks are not used.")
    b = ("Long sequences with sparse attention", "Sparse attention heads and a graph neural network baseline.")
    shared = shared_phrases(a, b)
    assert "sparse attention" in shared
    assert "graph neural network" in shared  # as the related paper writes it
    assert "graph neural" not in shared and "neural network" not in shared  # inside a longer one
    assert shared_phrases(a, ("Protein folding", "Amino acid chains.")) == []


def test_shared_phrases_weigh_rare_words_over_common(planted_lib):
    a = ("Reward shaping in practice", "Policy gradient with reward shaping and common words.")
    b = ("Reward shaping again", "We revisit reward shaping with common words.")

    def frequencies(words):
        return {w: (1000 if w in ("common", "words") else 3) for w in words}, 2000

    shared = shared_phrases(a, b, frequencies)
    assert shared[0] == "reward shaping"
    assert "common words" not in shared  # every word in half the library


def test_related_papers_come_with_shared_phrases(planted_lib):
    pid = planted_lib.search("protein folding", limit=1).ids[0]
    related = planted_lib.related_explained(pid, top=3)
    assert len(related) == 3
    assert all(phrases for _, phrases in related)
    assert any("protein" in " ".join(phrases).lower() or "amino" in " ".join(phrases).lower() for _, phrases in related)


def test_words_are_shown_as_written_in_sentences():
    assert display_word({"Gaussian": 5}, {"Gaussian": 9}) == "Gaussian"
    assert display_word({"Networks": 5, "networks": 1}, {"networks": 4}) == "networks"
    assert display_word({"BERT": 3}, {}) == "BERT"
    assert display_word({"Attention": 3}, {}) == "attention"
    found = written_forms(
        [("restrict", "boltzmann", "machin")],
        [("", "We train Restricted Boltzmann Machines (RBMs). Later, restricted Boltzmann machines win.")],
    )
    assert found == {("restrict", "boltzmann", "machin"): "restricted Boltzmann machines"}
    got = phrases("Graph neural networks", "We use graph neural networks; the 3 graphs.")
    assert got[("graph", "neural", "network")].count == 2 and got[("graph", "neural", "network")].in_title
    assert ("the",) not in got and ("3",) not in got


def test_cancel_ends_the_child_process(empty_lib, tmp_path):
    empty_lib.import_files([write_jsonl(tmp_path / "planted.jsonl", planted(12))])
    cancel = threading.Event()
    with pytest.raises(TopicsCancelled):
        empty_lib.compute_topics(progress=lambda *step: cancel.set(), cancel=cancel, count=4)
    assert empty_lib.topics() == [] and empty_lib.topics_status().computed_at is None


def test_a_name_shows_no_phrase_cut_short_nor_one_another_holds(empty_lib, tmp_path):
    """Phrases are counted up to three words: "multimodal large language" is a cut "multimodal large language
    models" and is shown going on; beside it "large language models" says nothing more and is left out; a title's
    "Low-Rank" casing is not a name's."""
    rng = random.Random(3)
    themes = {
        "mllm": ["multimodal large language models", "visual question answering", "image captions"],
        "lora": ["low-rank adaptation", "adapter weights", "parameter budgets"],
        **{k: v for k, v in THEMES.items() if k in ("graphs", "proteins")},
    }
    papers = []
    for theme, words in themes.items():
        for i in range(30):
            picked = rng.sample(words, 3)
            sentences = [f"We consider {picked[0]} and {picked[1]}.", f"Unlike earlier {picked[2]} work, ours is fast."]
            title = f"Low-Rank Adaptation, Part {i}" if theme == "lora" else f"Part {i} of {theme}"
            papers.append({"title": title, "abstract": " ".join(sentences + rng.sample(FILLER, 2))})
    empty_lib.import_files([write_jsonl(tmp_path / "cut.jsonl", papers)])
    empty_lib.compute_topics(count=4, use_process=False)
    names = [t.phrases for t in empty_lib.topics()]
    shown = [p for phrases in names for p in phrases]
    assert "multimodal large language models" in shown, names
    assert not any(p.endswith("multimodal large language") for p in shown), names
    for name in names:  # none holds another of its topic
        assert not any(a != b and f" {a.lower()} " in f" {b.lower()} " for a in name for b in name), name
    assert "low-rank adaptation" in shown and "Low-Rank adaptation" not in shown, names


def test_a_phrase_that_goes_on_with_one_word_is_shown_with_it():
    texts = [("", "Multimodal large language models see. We tune multimodal large language model weights; "
                  "multimodal large language models read.")]  # fmt: skip
    assert written_forms([("multimod", "larg", "languag")], texts) == {
        ("multimod", "larg", "languag"): "multimodal large language models"  # "model" or "models": one word
    }
    varied = [("", "Graph neural networks train. Graph neural networks learn; graph neural networks forget.")]
    assert written_forms([("graph", "neural", "network")], varied) == {
        ("graph", "neural", "network"): "graph neural networks"
    }
    few = [("", "Retrieval augmented generation works; retrieval augmented generation helps.")]
    assert written_forms([("retriev", "augment")], few) == {("retriev", "augment"): "retrieval augmented"}  # two uses
    assert display_word({"Low-Rank": 4}, {"low-rank": 3}) == "low-rank"  # a title's casing
    assert display_word({"Kullback-Leibler": 4}, {"Kullback-Leibler": 3}) == "Kullback-Leibler"  # a name's


def test_a_formulas_letters_are_the_words_they_spell(empty_lib, tmp_path):
    """An abstract's "𝖥𝗅𝖺𝗌𝗁𝖠𝗍𝗍𝗇" (mathematical sans-serif letters) and another's "FlashAttn" were two phrases: the
    topics' text is folded as the search index folds it (NFKC), so they are one, shown in plain letters."""
    fancy = "We speed up 𝖥𝗅𝖺𝗌𝗁𝖠𝗍𝗍𝗇 kernels on GPUs."
    found = phrases("FlashAttn kernels", fancy)
    assert found[("flashattn", "kernel")].count == 2 and found[("flashattn", "kernel")].in_title
    assert written_forms([("flashattn", "kernel")], [("", fancy)]) == {("flashattn", "kernel"): "FlashAttn kernels"}
    assert phrases("", "ﬁne-tuning ﬁne-tuning")[("fine-tun",)].count == 2  # a ligature too
    # in a computation: one theme written both ways is one topic named in plain letters
    rng = random.Random(5)
    papers = planted(20)
    for i in range(20):
        kernel = "𝖥𝗅𝖺𝗌𝗁𝖠𝗍𝗍𝗇 kernels" if i % 2 else "FlashAttn kernels"
        words = [kernel, "memory bandwidth", "tiled softmax"]
        rng.shuffle(words)
        abstract = f"We consider {words[0]} and {words[1]}. Unlike earlier {words[2]} work, ours is fast. "
        papers.append({"title": f"Part {i} of kernels", "abstract": abstract + " ".join(rng.sample(FILLER, 2))})
    empty_lib.import_files([write_jsonl(tmp_path / "kernels.jsonl", papers)])
    empty_lib.compute_topics(count=5, use_process=False)
    shown = [p for t in empty_lib.topics() for p in t.phrases]
    assert "FlashAttn kernels" in shown, shown
    assert not any("𝖠" in p for p in shown), shown
