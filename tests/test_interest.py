"""The interest ranking (readinglist.interest through Library.suggest / interest_ranking) on small synthetic
libraries with planted topics."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from readinglist import interest
from readinglist.library import Library

SYLLABLES = ["ba", "ko", "ri", "tu", "me", "sa", "lo", "ni", "ve", "da", "pu", "gi", "fe", "zo", "ha", "ly"]
PLANTED = ["quasar", "redshift spectroscopy", "galactic halos"]


def filler(rng: random.Random, words: int) -> str:
    vocabulary = ["".join(rng.choice(SYLLABLES) for _ in range(3)) for _ in range(5)]
    common = [f"{a}{b}{c}" for a, b, c in zip(SYLLABLES, SYLLABLES[3:], SYLLABLES[6:], strict=False)]
    return " ".join(rng.choice(vocabulary + common) for _ in range(words))


def write_papers(path: Path, papers: list[dict]) -> Path:
    path.write_text("\n".join(json.dumps(p) for p in papers) + "\n")
    return path


def synthetic(seed: int = 0, n: int = 60, planted: int = 10, prefix: str = "") -> list[dict]:
    """n papers of random made-up words; the first `planted` also speak of quasars and redshifts."""
    rng = random.Random(seed)
    papers = []
    for i in range(n):
        title = f"{prefix}{filler(rng, 5)}"
        abstract = filler(rng, 60)
        if i < planted:
            title = f"A quasar {title}"
            abstract = f"We study redshift spectroscopy of the quasar and galactic halos. {abstract} quasar"
        papers.append({"title": title, "abstract": abstract, "year": 2020, "venue": "Synthetic"})
    return papers


@pytest.fixture
def planted_lib(empty_lib: Library, tmp_path: Path) -> tuple[Library, list[int], list[int]]:
    empty_lib.import_files([write_papers(tmp_path / "planted.jsonl", synthetic())])
    ids = empty_lib.store.all_ids()
    return empty_lib, ids[:10], ids[10:]


def test_marks_put_the_planted_papers_first(planted_lib):
    lib, relevant, rest = planted_lib
    positive, negative = relevant[:3], rest[:3]
    ranking = lib.interest_ranking(positive, negative)
    assert len(ranking) == 60 - 6  # every unmarked paper, and only those
    assert not set(ranking.ids) & set(positive + negative)
    assert set(ranking.ids[:7]) == set(relevant[3:])
    assert ranking.scores == sorted(ranking.scores, reverse=True)
    assert ranking.scores[6] > ranking.scores[7]


def test_explanations_name_the_planted_words_and_nearest_marked_papers(planted_lib):
    lib, relevant, rest = planted_lib
    positive = relevant[:3]
    suggestions = lib.suggest(positive, rest[:3], limit=5)
    assert [s.id for s in suggestions] == lib.interest_ranking(positive, rest[:3]).ids[:5]
    for s in suggestions:
        words = " ".join(s.why)
        assert "quasar" in words
        assert any(p in words for p in ("redshift spectroscopy", "galactic halos"))
        assert s.near and set(s.near) <= set(positive)
        assert s.to_json()["why"] == s.why


def test_a_phrase_is_shown_as_the_paper_writes_it(planted_lib):
    lib, relevant, _ = planted_lib
    why = lib.interest_ranking(relevant[:4]).explain(relevant[5]).why
    assert "redshift spectroscopy" in why or "galactic halos" in why
    assert "spectroscopy redshift" not in " ".join(why)


def test_interests_text_alone_seeds_a_ranking(planted_lib):
    lib, relevant, _ = planted_lib
    ranking = lib.interest_ranking([], [], interests="My work: redshift spectroscopy of a quasar sample.")
    assert set(ranking.ids[:10]) == set(relevant)
    assert "redshift spectroscopy" in " ".join(ranking.explain(ranking.ids[0]).why)


def test_interests_text_joins_the_marks(planted_lib):
    lib, relevant, rest = planted_lib
    ranking = lib.interest_ranking([rest[0]], [], interests="quasar redshift spectroscopy galactic halos")
    assert set(ranking.ids[:10]) == set(relevant)


def test_interests_text_is_not_drowned_out_by_the_marks(empty_lib, tmp_path):
    """Eight quasar papers marked, and an interest in protein folding: both topics lead the ranking. As one
    more positive paper among nine, the interest's words counted a ninth of a ninth: no protein paper was
    in the first 14."""
    papers = synthetic()
    for p in papers[10:20]:
        p["title"] = f"Protein {p['title']}"
        p["abstract"] = f"We fold proteins with molecular dynamics of protein chains. {p['abstract']} protein"
    empty_lib.import_files([write_papers(tmp_path / "two.jsonl", papers)])
    ids = empty_lib.store.all_ids()
    quasars, proteins = ids[:10], ids[10:20]
    ranking = empty_lib.interest_ranking(quasars[:8], [], interests="protein folding with molecular dynamics")
    assert set(ranking.ids[:12]) == set(quasars[8:]) | set(proteins)


def test_negative_marks_push_their_topic_down(planted_lib):
    lib, relevant, rest = planted_lib
    ranking = lib.interest_ranking([rest[0]], relevant[:3])
    assert set(ranking.ids[-7:]) == set(relevant[3:])


def test_no_marks_rank_nothing_up(planted_lib):
    lib, _, _ = planted_lib
    ranking = lib.interest_ranking([], [])
    assert ranking.ids == lib.store.all_ids()
    assert set(ranking.scores) == {0.0}


def test_candidates_limit_the_ranking(planted_lib):
    lib, relevant, rest = planted_lib
    view = rest[:20] + relevant[5:8]
    ranking = lib.interest_ranking(relevant[:3], [], candidates=view)
    assert sorted(ranking.ids) == sorted(view)
    assert set(ranking.ids[:3]) == set(relevant[5:8])


def test_an_import_extends_the_features_and_the_cache(planted_lib, tmp_path):
    lib, relevant, _ = planted_lib
    lib.interest_ranking(relevant[:3])
    cache = lib.data_dir / "interest"
    assert (cache / "meta.json").exists()
    lib.import_files([write_papers(tmp_path / "more.jsonl", synthetic(seed=7, n=20, planted=5, prefix="More "))])
    new = lib.store.all_ids()[60:]
    assert len(new) == 20
    ranking = lib.interest_ranking(relevant[:3])
    assert len(ranking) == 80 - 3
    assert set(ranking.ids[:12]) == set(relevant[3:]) | set(new[:5])
    # a library opened afresh reads the extended cache and ranks alike
    again = Library.open(lib.data_dir, seed=False)
    try:
        assert again.interest_ranking(relevant[:3]).ids == ranking.ids
        assert again.interest.features is not None and again.interest.features.n == 80
    finally:
        again.close()


def test_a_revised_record_is_analysed_again(empty_lib, tmp_path):
    papers = synthetic()
    path = write_papers(tmp_path / "papers.jsonl", papers)
    empty_lib.import_files([path])
    ids = empty_lib.store.all_ids()
    before = empty_lib.interest_ranking(ids[:3])
    plain = ids[30]
    assert before.ids.index(plain) > 10
    papers[30]["abstract"] = "The quasar redshift spectroscopy and galactic halos, revised. " + papers[30]["abstract"]
    write_papers(path, papers)
    summary = empty_lib.import_files([path])[0]
    assert summary.updated == 1
    after = empty_lib.interest_ranking(ids[:3])
    assert after.ids.index(plain) < 10


def test_marking_papers_does_not_rebuild_the_rows(planted_lib):
    lib, relevant, _ = planted_lib
    lib.interest_ranking(relevant[:3])
    first = lib.interest.features
    lib.set_state(relevant[:3], "read")
    lib.add_tags(relevant[3:5], ["astro"])
    assert lib.interest_ranking(relevant[:3]).ids[:7] == lib.interest_ranking(relevant[:3]).ids[:7]
    f = lib.interest.features
    assert f is not None and first is not None
    assert f.rev == lib.store.current_rev()
    assert np.array_equal(f.row_data, first.row_data)


@pytest.mark.parametrize(
    "damage", ["garbage meta", "truncated rows", "wrong format", "missing file", "a term outside the space"]
)
def test_a_damaged_cache_is_rebuilt(planted_lib, damage):
    lib, relevant, rest = planted_lib
    expected = lib.interest_ranking(relevant[:3], rest[:3]).ids
    cache = lib.data_dir / "interest"
    lib.close()
    if damage == "garbage meta":
        (cache / "meta.json").write_bytes(b"\x00\xff not json")
    elif damage == "truncated rows":
        data = (cache / "terms.npy").read_bytes()
        (cache / "terms.npy").write_bytes(data[: len(data) // 2])
    elif damage == "a term outside the space":  # found by derive(), which reads the file a slice at a time
        terms = np.load(cache / "terms.npy")
        terms[len(terms) // 2] = 1 << interest.HASH_BITS
        np.save(cache / "terms.npy", terms)
    elif damage == "wrong format":
        meta = json.loads((cache / "meta.json").read_text())
        (cache / "meta.json").write_text(json.dumps({**meta, "format": -1}))
    else:
        (cache / "indptr.npy").unlink()
    again = Library.open(lib.data_dir, seed=False)
    try:
        assert again.interest_ranking(relevant[:3], rest[:3]).ids == expected
        assert (cache / "meta.json").exists()
        assert interest.Features.load(cache) is not None  # and written anew
    finally:
        again.close()


def test_a_read_only_library_ranks_without_writing(planted_lib):
    lib, relevant, _ = planted_lib
    data_dir = lib.data_dir
    lib.close()
    reader = Library.open(data_dir, seed=False, read_only=True)
    try:
        assert set(reader.interest_ranking(relevant[:3]).ids[:7]) == set(relevant[3:])
        assert not (data_dir / "interest").exists()
    finally:
        reader.close()


def test_texts_since_reads_only_what_changed(planted_lib):
    lib, relevant, _ = planted_lib
    rows = list(lib.store.texts_since(0, batch=7))  # several batches
    assert [r[0] for r in rows] == lib.store.all_ids()
    assert all(len(r) == 4 and r[1] and r[2] for r in rows)
    rev = lib.store.current_rev()
    lib.set_note(relevant[2], "read this")
    assert [r[0] for r in lib.store.texts_since(rev)] == [relevant[2]]


def test_features_merge_rows_in_id_order():
    f = interest.Features()
    f.update([(5, "a" * 40, "quasar light", "redshift spectroscopy"), (2, "b" * 40, "galactic halos", "dust")], 1)
    assert f.ids.tolist() == [2, 5]
    f.update([(3, "c" * 40, "quasar", "halos"), (5, "d" * 40, "dust", "dust grains")], 2)
    assert f.ids.tolist() == [2, 3, 5]
    assert f.rev == 2
    fresh = interest.Features()
    fresh.update([(2, "b" * 40, "galactic halos", "dust"), (3, "c" * 40, "quasar", "halos"),
                  (5, "d" * 40, "dust", "dust grains")], 2)  # fmt: skip
    assert np.array_equal(f.indptr, fresh.indptr)
    assert np.array_equal(f.terms, fresh.terms) and np.array_equal(f.counts, fresh.counts)


def _derived_traced(built: interest.Features, folder: Path) -> tuple[interest.Features | None, int]:
    """`built` saved and read back with its rows derived again (their saved copies removed, as from a cache
    made before they were kept), and the peak of memory tracemalloc saw meanwhile."""
    import tracemalloc

    built.save(folder)
    for name in interest.DERIVED:
        (folder / f"{name}.npy").unlink()
    tracemalloc.start()
    try:
        loaded = interest.Features.load(folder)
        return loaded, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_deriving_the_rows_holds_about_the_result_not_twice_it(monkeypatch, tmp_path):
    """derive() fills arrays sized once from the rows' lengths (blocks kept and then joined held the result
    twice at the peak, 475 MB for a 94k-paper window)."""
    monkeypatch.setattr(interest, "HASH_BITS", 16)  # the bucket-space arrays small beside the rows
    monkeypatch.setattr(interest, "_SHIFT", np.uint64(64 - 16))
    monkeypatch.setattr(interest, "_ANALYSIS", {**interest._ANALYSIS, "hash_bits": 16})
    monkeypatch.setattr(interest, "BLOCK", 1 << 12)  # and each block's temporaries
    monkeypatch.setattr(interest, "READ", 1 << 12)
    rng = random.Random(3)
    rows = [(i, f"{i:040x}", filler(rng, 6), filler(rng, 160)) for i in range(1, 1501)]
    built = interest.Features()
    built.update(rows, 1)
    loaded, peak = _derived_traced(built, tmp_path)
    assert loaded is not None and np.array_equal(loaded.row_data, built.row_data)
    rows_bytes = loaded.row_terms.nbytes + loaded.row_data.nbytes
    space = (1 << 16) * (4 + 8 + 1 + 4 + 1 + 4)  # df, a bincount, useful, idf, present, dense_of
    assert peak < 1.25 * rows_bytes + space  # measured: 0.3 × the rows over the space (before: 2.1 ×)


def test_a_small_library_derives_its_rows_without_float64_temporaries_over_the_whole_space(tmp_path):
    """The hashed space has 4.2M buckets: its per-bucket arrays are the floor of derive()'s memory, and a
    small library should pay for them once (counts, idf, the dense numbering), not for a full-space bincount
    and the float64 temporaries of the idf formula besides (84 MB traced for 300 papers; now 44)."""
    rng = random.Random(3)
    built = interest.Features()
    built.update([(i, f"{i:040x}", filler(rng, 6), filler(rng, 160)) for i in range(1, 301)], 1)
    loaded, peak = _derived_traced(built, tmp_path)
    assert loaded is not None and np.array_equal(loaded.row_terms, built.row_terms)
    space = 1 << interest.HASH_BITS
    assert peak < space * 13  # df and idf (4 bytes a bucket each), useful and present (1), dense_of (4)


def test_scores_are_the_rows_dot_products(monkeypatch):
    monkeypatch.setattr(interest, "SCORE_BLOCK", 7)  # many blocks, some rows spanning none
    rows = [
        (i, f"{i:040x}", f"title {i % 5}", " ".join(f"w{(i * j) % 11}x" for j in range(i % 9))) for i in range(1, 60)
    ]
    f = interest.Features()
    f.update(rows, 1)
    query = np.random.default_rng(0).standard_normal(len(f.vocab)).astype(np.float32)
    expected = [float(np.dot(f.row(p)[1], query[f.row(p)[0]])) for p in range(f.n)]
    assert np.allclose(f.scores(query), expected, atol=1e-5)


def test_a_cache_of_another_library_is_not_used(planted_lib, tmp_path):
    lib, relevant, _ = planted_lib
    lib.interest_ranking(relevant[:3])
    other = Library.open(tmp_path / "other", seed=False)
    try:
        other.import_files([write_papers(tmp_path / "other.jsonl", synthetic(seed=3, n=30, planted=0))])
        for _ in range(5):  # its revision passes the first library's
            other.set_state(other.store.all_ids()[:2], "read")
        shutil.copytree(lib.data_dir / "interest", other.data_dir / "interest")
        assert other.interest.refresh(other.store).n == 30
        fresh = interest.InterestRanker(None).rank(other.store, [1, 2], [3])
        assert other.interest_ranking([1, 2], [3]).ids == fresh.ids
    finally:
        other.close()


def test_the_abstracts_of_the_users_own_papers_seed_a_ranking(planted_lib, tmp_path):
    lib, relevant, _ = planted_lib
    bib = tmp_path / "mine.bib"
    bib.write_text(
        "@article{a, title = {Halos of {Q}uasars}, abstract = {The galactic halos around a quasar.}}\n"
        "@article{b, title = {Spectra}, abstract = {Redshift spectroscopy of a \\emph{quasar} sample.}}\n"
    )
    texts = Library.interests_from_file(bib)
    assert texts == ["Halos of Quasars. The galactic halos around a quasar.",
                     "Spectra. Redshift spectroscopy of a quasar sample."]  # fmt: skip
    before = len(lib.store.all_ids())
    ranking = lib.interest_ranking([], [], interests=texts)
    assert set(ranking.ids[:10]) == set(relevant)
    assert len(lib.store.all_ids()) == before  # nothing imported


def test_a_bad_interests_file_says_which_and_why(tmp_path):
    from readinglist.papers import ImportFailure

    bad = tmp_path / "mine.bib"
    bad.write_bytes(b"\x00\x01\x02 not bibtex \xff")
    with pytest.raises(ImportFailure, match=r"mine\.bib"):
        Library.interests_from_file(bad)


def test_the_profile_names_what_the_positives_share(planted_lib):
    lib, relevant, rest = planted_lib
    profile = lib.interest_ranking(relevant[:4], rest[:4]).profile(5)
    assert "quasar" in " ".join(profile)
    assert lib.interest_ranking([], []).profile() == []


def test_nearest_marked_papers_are_the_most_similar_first(planted_lib):
    lib, relevant, rest = planted_lib
    positive = relevant[:3] + rest[:3]
    ranking = lib.interest_ranking(positive, [])
    f = lib.interest.features
    assert f is not None

    def cosine(a: int, b: int) -> float:
        (ta, da), (tb, db) = f.row(f.positions([a])[0]), f.row(f.positions([b])[0])
        weights = dict(zip(tb.tolist(), db.tolist(), strict=True))
        return sum(w * weights.get(t, 0.0) for t, w in zip(ta.tolist(), da.tolist(), strict=True))

    for pid in (relevant[5], rest[10]):
        near = ranking.explain(pid, near=6).near
        expected = sorted((p for p in positive if cosine(pid, p) > 0), key=lambda p: -cosine(pid, p))
        # those really close, a few: a cosine of NEAR_COSINE at least (see the test below)
        assert near == [p for p in expected if cosine(pid, p) >= interest.NEAR_COSINE]
    assert relevant[0] not in ranking.explain(relevant[0]).near  # never itself


def test_a_phrase_grows_to_what_the_paper_writes_and_sheds_glue_words(empty_lib, tmp_path):
    rng = random.Random(5)
    papers = []
    for i in range(60):
        abstract = filler(rng, 50)
        if i < 24:  # a generic phrase, in many papers
            abstract += " with deep neural networks"
        if i < 10:
            abstract = f"Our graph neural networks learn molecule graphs. {abstract}"
        papers.append({"title": filler(rng, 4), "abstract": abstract, "year": 2020})
    empty_lib.import_files([write_papers(tmp_path / "gnn.jsonl", papers)])
    ids = empty_lib.store.all_ids()
    why = empty_lib.interest_ranking(ids[:4], ids[30:34]).explain(ids[6]).why
    assert "graph neural networks" in why
    assert not any(w.split()[0] in {"our", "with"} or w.split()[-1] in {"our", "with"} for w in why)


# ---- the window's way: large libraries' rows built in a child process and read back as saved ----------


def test_the_cache_holds_the_derived_rows_and_is_read_back_without_deriving(planted_lib, monkeypatch):
    lib, relevant, rest = planted_lib
    expected = lib.interest_ranking(relevant[:3], rest[:3])
    built = lib.interest.features
    assert built is not None

    def no_derive(self):
        raise AssertionError("derived again")

    monkeypatch.setattr(interest.Features, "derive", no_derive)
    loaded = interest.Features.load(lib.data_dir / "interest")
    assert loaded is not None
    for name in interest.DERIVED:
        assert np.array_equal(getattr(loaded, name), getattr(built, name)), name
    monkeypatch.undo()
    (lib.data_dir / "interest" / "row_terms.npy").unlink()  # a cache from before, or damaged: derived again
    again = interest.Features.load(lib.data_dir / "interest")
    assert again is not None and np.array_equal(again.row_terms, built.row_terms)
    assert lib.interest_ranking(relevant[:3], rest[:3]).ids == expected.ids


def _child_runs(monkeypatch) -> list[int]:
    """interest.CHILD_FROM lowered to this test's library, and each child process counted."""
    runs: list[int] = []
    real = interest._run_child

    def counted(*args):
        runs.append(1)
        return real(*args)

    monkeypatch.setattr(interest, "CHILD_FROM", 0)
    monkeypatch.setattr(interest, "_run_child", counted)
    return runs


def test_a_window_builds_and_extends_the_rows_in_a_child_and_only_reads_them(planted_lib, tmp_path, monkeypatch):
    lib, relevant, rest = planted_lib
    expected = Library.open(lib.data_dir, seed=False)  # the same library ranked in this process, for reference
    try:
        want = expected.interest_ranking(relevant[:3], rest[:3]).ids
    finally:
        expected.close()
    (shutil.rmtree(lib.data_dir / "interest"))
    runs = _child_runs(monkeypatch)
    lib.rank_in_child_process()

    def not_here(*args):
        raise AssertionError("rows built in the window's process")

    monkeypatch.setattr(interest.Features, "apply", not_here)
    monkeypatch.setattr(interest, "_count", not_here)  # nor counted here first, to be counted again there
    assert lib.interest_ranking(relevant[:3], rest[:3]).ids == want
    assert runs == [1]
    lib.set_state(rest[3:5], "skipped")  # a mark: the rows stand, no child
    lib.interest_ranking(relevant[:3], rest[:5])
    assert runs == [1]
    lib.import_files([write_papers(tmp_path / "more.jsonl", synthetic(seed=7, n=20, planted=5, prefix="More "))])
    ranking = lib.interest_ranking(relevant[:3])
    assert runs == [1, 1] and len(ranking) == 80 - 3  # the import's papers counted by a child
    assert set(ranking.ids[:12]) >= set(lib.store.all_ids()[60:65])


def test_a_child_that_fails_leaves_the_work_to_this_process(planted_lib, monkeypatch):
    lib, relevant, rest = planted_lib
    want = lib.interest_ranking(relevant[:3], rest[:3]).ids
    lib.interest.invalidate()
    shutil.rmtree(lib.data_dir / "interest")
    monkeypatch.setattr(interest, "CHILD_FROM", 0)
    monkeypatch.setattr(interest, "_run_child", lambda *args: False)
    lib.rank_in_child_process()
    assert lib.interest_ranking(relevant[:3], rest[:3]).ids == want


def test_a_reason_says_what_a_paper_is_about_not_how_it_is_written():
    """'empirically' and 'obtain' weighed in a ranking, but as reasons they read as filler."""
    text = ("We obtain accurate gradient estimates for policy gradient methods and show empirically that the "
            "actor-critic algorithms converge.")  # fmt: skip
    surfaces = ["policy gradient", "empirically", "obtain accurate", "accurate gradient", "gradient estimates",
                "actor-critic", "update"]  # fmt: skip
    reasons = interest._merge_phrases(surfaces, 5, text.lower())
    assert "empirically" not in reasons and not any(r.startswith("obtain") for r in reasons)
    assert reasons[0] == "policy gradient" and "accurate gradient estimates" in reasons
    assert "update" in reasons and "actor-critic" in reasons  # words of the subject stay


def test_a_reason_is_no_word_of_degree_alone():
    """A trial read "diffusion, generative, high, art" (art of "state-of-the-art") and "efficiency, level"."""
    text = "state-of-the-art diffusion models reach high fidelity at a high level of efficiency"
    surfaces = ["diffusion", "art", "high", "level", "efficiency", "high fidelity"]
    reasons = interest._merge_phrases(surfaces, 5, text)
    assert not {"art", "high", "level"} & set(reasons)
    assert reasons[0] == "diffusion" and {"efficiency", "high fidelity"} <= set(reasons)  # a phrase keeps "high"


def test_a_ranking_holds_its_candidates_as_arrays_not_python_numbers(empty_lib, tmp_path):
    """The window keeps the ranking and, while it re-ranks, the next one: as lists of Python ints and floats
    with the id → score dictionary an explanation builds, 12 MB each at 94k papers; 16 bytes a paper now."""
    import gc
    import tracemalloc

    empty_lib.import_files([write_papers(tmp_path / "many.jsonl", synthetic(n=3000, planted=20))])
    ids = empty_lib.store.all_ids()
    first = empty_lib.interest_ranking(ids[:3], ids[-3:])  # the features built and kept
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        ranking = empty_lib.interest_ranking(ids[:3], ids[-3:])
        ranking.explain(ranking.ids[0])  # what the window asks at once: it used to build the dictionary
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert ranking.ids == first.ids and ranking.scores == first.scores
    assert len(ranking) == 3000 - 6
    # measured 59 bytes a candidate, the model's vector over the library's terms included (before: 200)
    assert held < 90 * len(ranking)
    assert ranking.score(ranking.ids[0]) == ranking.scores[0] and ranking.head(2) == ranking.ids[:2]
    assert ranking.score(ids[0]) is None  # marked: not a candidate
    shown = ranking.ids[::7]
    assert ranking.among(set(shown)) == (shown, ranking.scores[::7])


def test_a_weighted_mean_counts_the_rows_terms_not_the_whole_vocabulary(tmp_path):
    """Pseudo-relevance feedback averages 20 rows on every re-rank: its counts over every term of the
    library (962k at 94k papers, two 8-byte counts each and the formula's temporaries) were a re-rank's
    largest temporaries, 26 MB for a few thousand entries."""
    import tracemalloc

    rng = random.Random(5)
    letters = "abcdefghijklmnopqrstuvwxyz"
    rows = []
    for i in range(1, 1201, 2):  # papers in pairs sharing their words: every word is kept (MIN_DF)
        words = " ".join("".join(rng.choice(letters) for _ in range(9)) for _ in range(40))
        rows += [(i, f"{i:040x}", words[:60], words), (i + 1, f"{i + 1:040x}", words[:60], words)]
    built = interest.Features()
    built.update(rows, 1)
    built.save(tmp_path)
    f = interest.Features.load(tmp_path)
    assert f is not None and len(f.vocab) > 30_000
    positions = [0, 7, 300]
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        got = f.weighted_mean(positions)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    entries = sum(len(f.row(p)[0]) for p in positions)
    assert peak < 4 * len(f.vocab) + 200 * entries + 64 * 1024  # the result, and the rows' entries
    # the same numbers as the counts over the whole vocabulary
    terms = np.concatenate([f.row(p)[0] for p in positions])
    data = np.concatenate([f.row(p)[1] for p in positions])
    total = np.bincount(terms, weights=data, minlength=len(f.vocab))
    carried = np.bincount(terms, minlength=len(f.vocab))
    assert np.array_equal(got, (total * carried / len(positions) ** 2).astype(np.float32))


def _mapped_rss_kb(path: Path) -> int | None:
    """The resident kB of this process's maps of `path` (None where /proc/self/smaps is not there)."""
    try:
        lines = Path("/proc/self/smaps").read_text().splitlines()
    except OSError:
        return None
    total, inside = 0, False
    for line in lines:
        parts = line.split()
        if parts and "-" in parts[0] and len(parts) >= 5 and not parts[0].endswith(":"):
            inside = len(parts) >= 6 and parts[-1] == str(path)
        elif inside and parts[0] == "Rss:":
            total += int(parts[1])
    return total


def _paired_rows(n: int = 1200) -> list[tuple[int, str, str, str]]:
    rng = random.Random(9)
    letters = "abcdefghijklmnopqrstuvwxyz"
    rows = []
    for i in range(1, n + 1, 2):  # papers in pairs sharing their words: every word is kept (MIN_DF)
        words = " ".join("".join(rng.choice(letters) for _ in range(7)) for _ in range(60))
        rows += [(i, f"{i:040x}", words[:60], words), (i + 1, f"{i + 1:040x}", words[:60], words)]
    return rows


@pytest.mark.skipif(not interest.MAP_ROWS, reason="the derived rows are mapped on POSIX systems only")
def test_the_derived_rows_are_read_through_maps_and_leave_memory_after_each_use(tmp_path):
    """A window at 94k papers held the derived rows (76 MB) for its whole life though it reads them only
    while ranking; read through maps of the cache's files, their pages leave the process after each use."""
    built = interest.Features()
    built.update(_paired_rows(), 1)
    built.save(tmp_path)
    f = interest.Features.load(tmp_path)
    assert f is not None and not f.row_terms.flags.owndata and not f.row_terms.flags.writeable
    path = (tmp_path / "row_terms.npy").resolve()
    if _mapped_rss_kb(path) is None:
        pytest.skip("no /proc/self/smaps")
    assert f.row_terms.nbytes > 64 * 1024
    assert _mapped_rss_kb(path) == 0  # the load's checks read every page, and dropped them
    assert int(np.asarray(f.row_terms).sum()) > 0 and _mapped_rss_kb(path) > 0  # a read maps them...
    f.release()
    assert _mapped_rss_kb(path) == 0  # ...and release() drops them
    query = np.random.default_rng(1).random(len(f.vocab)).astype(np.float32)
    scores = f.scores(query)
    assert _mapped_rss_kb(path) == 0
    positions = list(range(0, f.n, 7))
    mean = f.weighted_mean(positions)
    assert _mapped_rss_kb(path) == 0
    # the same numbers as from the rows in memory
    assert np.array_equal(scores, built.scores(query))
    assert np.array_equal(mean, built.weighted_mean(positions))
    for name in interest.DERIVED:
        assert np.array_equal(getattr(f, name), getattr(built, name)), name


def test_rows_read_in_pieces_are_the_rows_gathered_at_once(tmp_path):
    built = interest.Features()
    built.update(_paired_rows(400), 1)
    rng = random.Random(3)
    for positions in ([], [5], list(range(built.n)), rng.sample(range(built.n), 100), [3, 3, 0]):
        terms, data = built.rows(positions)
        entries = interest._gather(built.row_ptr, np.asarray(positions, np.int64))
        assert np.array_equal(terms, built.row_terms[entries])
        assert np.array_equal(data, built.row_data[entries].astype(np.float32))
        assert data.dtype == np.float32 and terms.dtype == built.row_terms.dtype


def test_a_ranking_from_mapped_rows_is_the_ranking_from_rows_in_memory(planted_lib, monkeypatch):
    lib, relevant, rest = planted_lib
    lib.interest_ranking(relevant[:3], rest[:3])  # the cache written
    folder = lib.data_dir / "interest"
    rankings = []
    for mapped in (True, False):
        monkeypatch.setattr(interest, "MAP_ROWS", mapped)
        ranker = interest.InterestRanker(folder)
        ranking = ranker.rank(lib.store, relevant[:3], rest[:3])
        rankings.append((ranking.ids, ranking.scores, [repr(s) for s in ranking.top(5)]))
    assert rankings[0] == rankings[1]


def test_a_paper_of_a_few_words_does_not_top_the_suggestions(empty_lib, tmp_path):
    """ "Hierarchical memory-based RL" with "Sridhar Mahadevan" for its abstract was the first suggestion
    after five marks (a trial): a row of a few terms puts all its weight on them. Its score is scaled down
    below SHORT_TERMS terms; the papers that speak of the subject at length come first, and it still ranks
    above the papers that do not."""
    papers = synthetic()
    papers.append({"title": "Quasar", "abstract": "Halos.", "year": 2020, "venue": "Synthetic"})  # the last id
    empty_lib.import_files([write_papers(tmp_path / "short.jsonl", papers)])
    ids = empty_lib.store.all_ids()
    relevant, short = ids[:10], ids[-1]
    ranking = empty_lib.interest_ranking(relevant[:3], ids[10:13])
    assert ranking.ids.index(short) >= 7  # after the seven planted papers left
    assert ranking.ids.index(short) < ranking.ids.index(ids[13])
    assert ranking.every_score()[len(ids) - 1] == ranking.score(short)  # a view sorted by interest agrees


def test_only_marked_papers_really_close_are_named_closest(empty_lib, tmp_path):
    """ "Closest to your …" named up to three marked papers whatever they shared ("Reinforcement Learning for
    Trading" closest to molecular papers: a trial): a paper of another subject names none, one of theirs names
    them, closest first. Two subjects of their own words, a few words common to all."""
    rng = random.Random(3)
    common = ["learning", "method", "results", "model", "data"]

    def words(syllables: list[str], n: int) -> list[str]:
        return ["".join(rng.choice(syllables) for _ in range(3)) for _ in range(n)]

    astro, bio = words(SYLLABLES[:8], 80), words(SYLLABLES[8:], 80)
    papers = []
    for subject, vocabulary in (("Quasar", astro), ("Protein", bio)):
        for _ in range(20):
            text = [*rng.sample(vocabulary, 30), rng.choice(common)]
            papers.append({"title": f"{subject} {' '.join(text[:4])}", "abstract": " ".join(text), "year": 2020})
    empty_lib.import_files([write_papers(tmp_path / "two.jsonl", papers)])
    ids = empty_lib.store.all_ids()
    quasars, proteins = ids[:20], ids[20:]
    ranking = empty_lib.interest_ranking(quasars[:4], [])
    f = empty_lib.interest.features
    assert f is not None

    def cosine(a: int, b: int) -> float:
        (ta, da), (tb, db) = f.row(f.positions([a])[0]), f.row(f.positions([b])[0])
        weights = dict(zip(tb.tolist(), db.tolist(), strict=True))
        return sum(w * weights.get(t, 0.0) for t, w in zip(ta.tolist(), da.tolist(), strict=True))

    shares = [p for p in proteins if any(cosine(p, q) > 0 for q in quasars[:4])]
    assert shares  # a protein paper shares a word or two with a marked one: named closest before
    for protein in shares:
        assert all(cosine(protein, q) < interest.NEAR_COSINE for q in quasars[:4])
        assert ranking.explain(protein).near == []
    near = ranking.explain(quasars[6]).near
    assert near and set(near) <= set(quasars[:4])
    assert all(cosine(quasars[6], q) >= interest.NEAR_COSINE for q in near)
