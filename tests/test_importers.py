import gzip
import json
import lzma
import re
from pathlib import Path

import pytest
from conftest import corpus

from readinglist.importers import ImportContext, parse_file
from readinglist.library import Library
from readinglist.papers import ImportFailure


def test_seed_corpus_gives_venue_year_and_abstracts():
    parsed = parse_file(Path(__file__).parent.parent / "corpus" / "icml2026.txt")
    assert parsed.kind == "seed"
    assert len(parsed.records) == 19
    assert all(r.venue == "ICML" and r.year == 2026 and r.abstract and not r.title for r in parsed.records)


def test_neurips_jsonl_gz():
    parsed = parse_file(corpus("neurips_1987_2018.jsonl.gz"))
    assert len(parsed.records) == 8263
    # "Abstract Unavailable" counts as no abstract; the paper is still a paper (it has a title)
    placeholders = [r for r in parsed.records if r.title and not r.abstract]
    assert len(placeholders) >= 17
    assert all(r.abstract != "Abstract Unavailable" for r in parsed.records)
    assert parsed.records[0].authors == ["G. Tesauro", "T. J. Sejnowski"]
    # pdfminer's soft hyphens at line breaks are gone and the words whole again
    assert not any("(cid:" in r.abstract for r in parsed.records)  # nor any other code: letters, or U+FFFD
    assert any("Bernstein polynomials" in r.abstract for r in parsed.records)
    # an abstract that is only an author's name ("Sridhar Mahadevan") or NeurIPS's cut "Part of" is none
    assert not any(r.abstract in ("Part of", "Sridhar Mahadevan", "Shimon Ullman") for r in parsed.records)
    assert sum(not r.abstract for r in parsed.records) >= 17 + 16 + 55
    # and the ligatures inside words are letters again ("classi(cid:12)cation" in about 80 abstracts)
    assert not any(re.search(r"[a-z]\(cid:(2|3|11|12|13|14)\)[a-z]", r.abstract) for r in parsed.records)
    assert sum("classification" in r.abstract for r in parsed.records) > 500
    # and the words broken at line ends are whole: what is left of "word- word" stands before a function word
    left = {m.group(1) for r in parsed.records for m in re.finditer(r"\b[A-Za-z]+- ([a-z]+)\b", r.abstract)}
    assert left <= {"and", "or", "to", "in", "of", "the", "a", "with", "was", "that", "which", "there", "is",
                    "for", "whose", "just", "we", "it", "as", "an", "but", "from", "than", "on", "by", "then", "vs",
                    "versus"}, left  # fmt: skip


def test_soft_hyphens_join_the_broken_word(tmp_path):
    f = tmp_path / "soft.jsonl"
    rows = [{"title": "A", "abstract": "the pro(cid:173) cess of Bern(cid:173)stein"},
            {"title": "B", "abstract": "an opti\u00admiza\u00ad tion; (cid:12) stays"}]  # fmt: skip
    f.write_text("\n".join(json.dumps(r) for r in rows))
    a, b = parse_file(f).records
    assert a.abstract == "the process of Bernstein"
    assert b.abstract == "an optimization; \ufffd stays"  # a code alone has no meaning we know: U+FFFD


def test_pdf_ligature_codes_become_letters(tmp_path):
    # pdfminer's codes for the TeX fonts' ligatures, inside a lower-case word, and Windows-1252's quotes
    f = tmp_path / "ligatures.jsonl"
    abstracts = [
        "pattern classi(cid:12)cation at (cid:12)xed points; e(cid:11)ective coe(cid:14)cients",
        "a signi(cid:2)cant, in(cid:3)uenced, (cid:147)tempered(cid:148) Nystr(cid:246)m",
        "an N(cid:2)N grid, soft (cid:15)-tubes, a parameter (cid:11) which",
    ]
    rows = [{"title": t, "abstract": a} for t, a in zip("ABC", abstracts, strict=True)]
    f.write_text("\n".join(json.dumps(r) for r in rows))
    a, b, c = parse_file(f).records
    assert a.abstract == "pattern classification at fixed points; effective coefficients"
    assert b.abstract == "a significant, influenced, \u201ctempered\u201d Nystr\u00f6m"
    # between capitals, before a hyphen or a space, a code is a math symbol (N×N, ε-tubes, α) of a font we do
    # not know: the character for one unknown (U+FFFD), which no search for "cid" matches
    assert c.abstract == "an N\ufffdN grid, soft \ufffd-tubes, a parameter \ufffd which"


def test_words_broken_at_a_pdfs_line_ends_are_whole_again(tmp_path):
    # "con- structs": a PDF's line-end hyphen, the line break read as a space; joined where the joined word is
    # English, a compound's own hyphen kept, a suspended hyphen or a dash before a function word left alone
    f = tmp_path / "broken.jsonl"
    abstracts = [
        "The method first con- structs a distribution over classifiers, an im- provement. How- ever, algo- rithms "
        "on eigen- functions work.",
        "In high- dimensional and real- world settings, state-of-the- art TMS- induced responses.",
        "Both pre- and post-processing, first- or second-order; the inhibition- was strong.",
    ]
    f.write_text("\n".join(json.dumps({"title": t, "abstract": a}) for t, a in zip("ABC", abstracts, strict=True)))
    a, b, c = parse_file(f).records
    assert a.abstract == (
        "The method first constructs a distribution over classifiers, an improvement. However, algorithms on "
        "eigenfunctions work."
    )
    assert b.abstract == "In high-dimensional and real-world settings, state-of-the-art TMS-induced responses."
    assert c.abstract == abstracts[2]


def test_broken_words_in_the_neurips_abstracts_are_found_by_their_words(tmp_path):
    # a trial: "constructs a distribution over classifiers" did not find the paper that says "con- structs"
    from conftest import library_of

    abstract = "The method first con- structs a distribution over classifiers: an order of magnitude im- provement."
    rows = [{"title": "Boosting with a distribution", "abstract": abstract, "authors": ["A. B"], "year": 2001}]
    lib = library_of(tmp_path, rows)
    try:
        assert len(lib.search("constructs a distribution over classifiers").ids) == 1
        assert len(lib.search('"order of magnitude improvement"').ids) == 1
    finally:
        lib.close()


def test_pmlr_jsonl_and_bib_agree():
    jl = parse_file(corpus("pmlr_colt2025_uai2025_l4dc2026.jsonl"))
    assert len(jl.records) == 517
    bib = parse_file(corpus("bib/pmlr/pmlr-v286-uai2025.bib"))
    assert len(bib.records) == 229
    assert {r.venue for r in bib.records} == {"UAI"} and {r.year for r in bib.records} == {2025}
    first = bib.records[0]
    assert first.authors and "," not in first.authors[0]  # "Last, First" reordered


def test_colt_bib_recovers_every_entry_with_warnings():
    """PMLR COLT 2025: 182 papers and the @Proceedings entry. Two entries repeat `section`, one abstract has
    `H\\{o}gsgaard` (an open brace for bibtexparser, balanced by BibTeX's rule): all are imported."""
    parsed = parse_file(corpus("bib/pmlr/pmlr-v291-colt2025.bib"))
    assert len(parsed.records) == 182 and parsed.skipped == 0
    keys = {r.key for r in parsed.records}
    assert {"hoegsgaard25", "mhammedi25a", "mhammedi25b"} <= keys
    (hoeg,) = [r for r in parsed.records if r.key == "hoegsgaard25"]
    assert hoeg.abstract.startswith("In this paper we establish") and hoeg.abstract.endswith("prediction model.")
    assert hoeg.title == "Improved Margin Generalization Bounds for Voting Classifiers"
    (warn,) = [w for w in parsed.warnings if "hoegsgaard25" in w]
    assert "pmlr-v291-colt2025.bib, line 996" in warn and "abstract" in warn
    for key in ("mhammedi25a", "mhammedi25b"):
        (warn,) = [w for w in parsed.warnings if key in w]
        assert "repeats 'section'" in warn and "first value is kept" in warn
    assert {r.venue for r in parsed.records} == {"COLT"} and {r.year for r in parsed.records} == {2025}


def test_paperlists_json_array_gets_venue_and_year_from_file_name():
    parsed = parse_file(corpus("originals/paperlists_nips2018.json.gz"))
    assert len(parsed.records) == 1009
    assert {r.venue for r in parsed.records} == {"NeurIPS"} and {r.year for r in parsed.records} == {2018}
    assert parsed.records[0].authors == ["Lijun Zhang", "Zhi-Hua Zhou"]


def test_iclr_tsv_keywords_become_imported_keywords():
    parsed = parse_file(corpus("originals/iclr2021-openreviewdata/paperlist.tsv.gz"))
    assert len(parsed.records) == 2966
    assert "generative adversarial network" in parsed.records[0].keywords
    assert parsed.records[0].tags == []  # the user's own tags: none in a conference's list


def test_iridia_macros_across_files():
    ctx = ImportContext()
    for name in ("abbrev", "journals", "authors"):
        assert parse_file(corpus(f"bib/iridia/{name}.bib"), ctx).records == []
    articles = parse_file(corpus("bib/iridia/articles.bib"), ctx)
    assert len(articles.records) == 1509
    assert articles.records[1].authors[:2] == ["David Abramson", "Mohan Krishna Amoorthy"]


def test_iridia_articles_alone_keep_the_macros_names_and_say_which_file_is_missing():
    """BibTeX warns about a macro no file defines and goes on, as JabRef and Zotero keep its name: the papers
    are imported, and the warning names the macros, where they are first used and what to do."""
    parsed = parse_file(corpus("bib/iridia/articles.bib"))
    assert len(parsed.records) == 1509
    (warning,) = [w for w in parsed.warnings if "defined in no file" in w]
    assert "'jgcd' (line 54)" in warning and "import the file that defines them together with this one" in warning
    assert any(r.venue == "jgcd" for r in parsed.records)


def test_bbt_fixtures():
    assert len(parse_file(corpus("bib/zotero-bbt-fixtures/jabref210_groups_issue97.bib")).records) >= 900
    assert len(parse_file(corpus("bib/zotero-bbt-fixtures/mendeley_export_web_page.bib")).records) >= 500
    papers3 = parse_file(corpus("bib/zotero-bbt-fixtures/papers3_library_issue1296.bib.gz"))
    assert len(papers3.records) >= 3700
    legacy = parse_file(corpus("bib/zotero-bbt-fixtures/legacy_ai_parens_issue873.bib"))
    assert len(legacy.records) >= 980 and any("'AAAI-91' (line 121)" in w for w in legacy.warnings)


def test_biblatex_examples_decode_accents():
    parsed = parse_file(corpus("bib/biblatex/biblatex-examples.bib"))
    names = {a for r in parsed.records for a in r.authors}
    assert any("Ö" in n or "ö" in n for n in names)


def test_bibtex_string_month_nested_braces(tmp_path):
    f = tmp_path / "x.bib"
    f.write_text(
        '@string{jml = "J. Mach. Learn."}\n'
        "@article{k1, author = {M{\\\"u}ller, Hans and Doe, Jane}, title = {The {GAN} of {\\'E}t{\\'e}},"
        " journal = jml # { Res.}, month = jul, year = 2020, abstract = {Nested {braces {deep}} here.}}\n"
    )
    (r,) = parse_file(f).records
    assert r.authors == ["Hans Müller", "Jane Doe"]
    assert r.venue == "J. Mach. Learn. Res." and r.year == 2020
    assert "{deep}" in r.abstract  # stored as imported


def test_proceedings_gives_venue_and_year(tmp_path):
    f = tmp_path / "p.bib"
    f.write_text(
        "@proceedings{P, shortname = {XYZ}, year = {2031}, booktitle = {Proc. XYZ}}\n"
        "@inproceedings{a, title = {A}, abstract = {Abstract text.}}\n"
    )
    (r,) = parse_file(f).records
    assert (r.venue, r.year) == ("XYZ", 2031)


def test_a_proceedings_entry_is_the_venue_only_of_its_own_papers(tmp_path):
    """A personal file's one @proceedings (a trial's: line 6,121 of 986 entries) was the venue and year of every
    entry, books and journal articles included. Now it is the venue of the entries naming it, and, in a file it
    opens (PMLR's), of the papers naming no venue and citing no other volume."""
    f = tmp_path / "mine.bib"
    f.write_text(
        "@book{pm, title = {Principia Mathematica}, year = 1925, abstract = {Logic.}}\n"
        "@article{j, title = {A}, journal = {IJCAI-75}, year = 1975, abstract = {Text.}}\n"
        "@inproceedings{c, title = {B}, crossref = {ACL-89}, abstract = {Text.}}\n"
        "@inproceedings{n, title = {C}, booktitle = {{Working Notes}, AAAI Symposium}, abstract = {Text.}}\n"
        "@proceedings{P, title = {Working Notes, AAAI Symposium}, shortname = {WN}, year = {1994}}\n"
    )
    got = {r.citation_key: (r.venue, r.year) for r in parse_file(f).records}
    assert got == {"pm": ("", 1925), "j": ("IJCAI-75", 1975), "c": ("", None), "n": ("WN", 1994)}


def test_quote_marks_around_an_author_list_are_not_part_of_the_names(tmp_path):
    """PMLR's COLT 2025 file has `author = {"Gast, Nicolas and Narasimha, Dheeraj"}`: the table showed
    `"Gast, Narasimha`."""
    f = tmp_path / "q.bib"
    f.write_text('@inproceedings{g, title = {T}, author = {"Gast, Nicolas and Narasimha, Dheeraj"}, abstract = {A.}}\n')
    (r,) = parse_file(f).records
    assert r.authors == ["Nicolas Gast", "Dheeraj Narasimha"]


def test_a_crossrefs_date_gives_the_year(tmp_path):
    """biblatex writes a volume's year as `date`: an entry citing it took its title but no year."""
    f = tmp_path / "b.bib"
    f.write_text(
        "@incollection{w, title = {The True Frontier}, crossref = {v}, abstract = {Films.}}\n"
        "@collection{v, title = {Space and Beyond}, date = 2000}\n"
    )
    (r,) = parse_file(f).records
    assert (r.venue, r.year) == ("Space and Beyond", 2000)


@pytest.mark.parametrize(
    ("name", "content", "problem"),
    [
        ("empty.jsonl", b"", "is empty"),
        ("blank.bib", b"   \n\n", "is empty"),
        ("binary.json", bytes(range(256)) * 4, "binary"),
        ("trunc.json", b'[{"title": "A", "abstract": "B"}, {"title": "C', "line 1: invalid JSON"),
        ("bad.jsonl", b'{"title": "A"}\n{"title": \n', "line 2: the record is cut off"),
        ("notgz.jsonl.gz", b"\x1f\x8b\x08\x00garbage", "gzip"),
        ("nocols.csv", b"foo,bar\n1,2\n", "no title or abstract column"),
        ("unknown.dat", b"just some words\nwithout structure\n", "unrecognised format"),
        (
            "notes.txt",
            b"just some notes\nnot a paper list\n",
            "line 1: not a seed-text file: its first line should "
            'read "<Venue> <Year> Papers" (found "just some notes"), then one abstract per paragraph',
        ),
        ("heading.txt", b"ICML 2026 Papers\nOne abstract straight after.\n", "a blank line after its heading line"),
        ("list.json", b"[1, 2, 3]", "line 1: record 1 is a number, not an object"),  # not "a int" (a trial)
        ("texts.jsonl", b'"a title"\n', "line 1: record 1 is a piece of text, not an object"),
        ("lists.jsonl", b'{"title": "A"}\n[]\n', "line 2: record 2 is a list, not an object"),
    ],
)
def test_bad_files_fail_with_the_file_name_and_problem(tmp_path, name, content, problem):
    f = tmp_path / name
    f.write_bytes(content)
    with pytest.raises(ImportFailure) as info:
        parse_file(f)
    assert name in str(info.value)
    assert problem in str(info.value)


CUT = '{"title": "Detecting Hallucinated Content", "abstract": "We detect"}\n{"title": "Detecting Hallu'


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("cut.jsonl", CUT, "cut.jsonl, line 2: the record is cut off (a string is not closed); is the file truncated?"),
        ("cut.jsonl", CUT + "\n" + '{"title": "B"}\n', "line 2: the record is cut off (a string is not closed)"),
        ("cut.jsonl", '{"title": "A"}\n{"title": \n\n', "line 2: the record is cut off (a value is missing at its "
         "end)"),
        ("cut.jsonl", '{"title": "A", "year": 2021\n', "line 1: the record is cut off (an object or a list is not "
         "closed)"),
        ("two.jsonl", '{"title": "A"} {"title": "B"}\n', "line 1: this line is not valid JSON: more text after the "
         "record's end at column 16 (two records on one line?)"),
        ("value.jsonl", '{"title": "A", "year": }\n', "line 1: this line is not valid JSON: a value is missing "
         "before '}' at column 24"),
        ("comma.jsonl", '{"title": "A",}\n', "line 1: this line is not valid JSON: a comma before '}' at column 15 "
         "is one too many"),
        ("quote.jsonl", "{'title': 'A'}\n", "line 1: this line is not valid JSON: a key is in single quotes at "
         "column 2; JSON wants double quotes"),
        ("tab.jsonl", '{"title": "A\tB"}\n', "line 1: this line is not valid JSON: a string holds a tab at column 13"),
        ("cut.json", '[{"title": "A"},\n {"title": "Detecting Hallu', "cut.json, line 2: invalid JSON (a string is not "
         "closed); is the file truncated?"),
    ],
    ids=["cut-last", "cut-inside", "cut-value", "cut-object", "two-records", "value", "comma", "quotes", "tab",
         "json-cut"],
)  # fmt: skip
def test_invalid_json_is_said_in_words(tmp_path, name, text, message):
    """A JSON Lines file cut mid-string said "invalid JSON Lines record (Unterminated string starting at)" (a
    trial): the decoder's phrase, its position cut off. The problem is said whole, with where it is."""
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    with pytest.raises(ImportFailure) as info:
        parse_file(f)
    assert message in str(info.value)
    assert not re.search(r"\b(at|starting at)\)", str(info.value))


def test_truncated_gzip(tmp_path):
    data = gzip.compress(b'{"title": "A"}\n' * 1000)
    f = tmp_path / "cut.jsonl.gz"
    f.write_bytes(data[: len(data) // 2])
    with pytest.raises(ImportFailure, match=r"cut\.jsonl\.gz: is not a readable gzip file"):
        parse_file(f)


def test_a_file_named_gz_that_is_not_compressed_says_so(tmp_path):
    # it was "line 1: invalid JSON Lines record" (a trial); a file compressed otherwise is read all the same
    f = tmp_path / "fake.jsonl.gz"
    f.write_text("<html>Not found</html>\n")
    with pytest.raises(ImportFailure, match=r"fake\.jsonl\.gz: is named \.gz but is not gzip-compressed"):
        parse_file(f)
    other = tmp_path / "other.jsonl.gz"
    other.write_bytes(lzma.compress(b'{"title": "A"}\n'))
    assert [r.title for r in parse_file(other).records] == ["A"]


def test_latin1_file_is_read_with_a_warning(tmp_path):
    f = tmp_path / "old.csv"
    f.write_bytes("title,abstract\nCaf\xe9 paper,An abstract\n".encode("latin-1"))
    parsed = parse_file(f)
    assert parsed.records[0].title == "Café paper"
    assert any("not UTF-8" in w for w in parsed.warnings)


def test_json_authors_forms_and_missing_keys(tmp_path):
    f = tmp_path / "a.jsonl"
    rows = [
        {"title": "One", "authors": "A. B; C. D"},
        {"title": "Two", "authors": "A. B and C. D"},
        {"abstract": "Only an abstract."},
        {"url": "https://x.org"},  # neither title nor abstract: skipped and counted
        {"title": "Three", "abstract": "Abstract Unavailable"},
    ]
    f.write_text("\n".join(json.dumps(r) for r in rows))
    parsed = parse_file(f)
    assert [r.authors for r in parsed.records[:2]] == [["A. B", "C. D"], ["A. B", "C. D"]]
    assert len(parsed.records) == 4 and parsed.skipped == 1
    assert parsed.records[3].abstract == ""


def test_an_abstract_that_is_only_an_authors_name_is_none(tmp_path):
    # a scrape took the byline for the abstract: shown as one, it topped the suggestions (a trial)
    f = tmp_path / "byline.jsonl"
    rows = [{"title": "Hierarchical RL", "abstract": "Sridhar  Mahadevan", "authors": ["N. H.", "Sridhar Mahadevan"]},
            {"title": "Kept", "abstract": "Sridhar Mahadevan shows how.", "authors": ["Sridhar Mahadevan"]},
            {"title": "Cut", "abstract": "Part of"}]  # fmt: skip
    f.write_text("\n".join(json.dumps(r) for r in rows))
    assert [r.abstract for r in parse_file(f).records] == ["", "Sridhar Mahadevan shows how.", ""]


def test_a_name_suffix_split_off_by_the_list_stays_with_its_name(tmp_path):
    # NeurIPS 1987: ["J.L. WYATT", "Jr", "D.L. STANDLEY"] read as three authors, "Jr" one of them (a trial)
    f = tmp_path / "jr.jsonl"
    rows = [{"title": "One", "authors": ["J.L. WYATT", "Jr", "D.L. STANDLEY"]},
            {"title": "Two", "authors": "A. B, Jr., C. D, E. F III"}]  # fmt: skip
    f.write_text("\n".join(json.dumps(r) for r in rows))
    one, two = parse_file(f).records
    assert one.authors == ["J.L. WYATT Jr", "D.L. STANDLEY"]
    assert two.authors == ["A. B Jr.", "C. D", "E. F III"]


# ---- BibTeX recovery (issue 12.6) ------------------------------------------------------------------------------


def test_a_repeated_field_keeps_its_first_value_with_a_warning(tmp_path):
    f = tmp_path / "dup.bib"
    f.write_text("@inproceedings{k1,\n title = {First},\n section = {A},\n section = {B},\n abstract = {X.}\n}\n")
    parsed = parse_file(f)
    (r,) = parsed.records
    assert r.title == "First"
    (warning,) = parsed.warnings
    assert warning == "dup.bib, line 1: entry 'k1' repeats 'section'; the first value is kept"


def test_a_repeated_title_keeps_the_first(tmp_path):
    f = tmp_path / "dup.bib"
    f.write_text("@article{k1, title = {First}, Title = {Second}}\n")
    (r,) = parse_file(f).records
    assert r.title == "First"


def test_an_unbalanced_brace_is_recovered_at_the_next_entry(tmp_path):
    """papers3-style: `{Taylor {{\\&} Francis}` leaves a brace open; BibTeX would swallow what follows."""
    f = tmp_path / "open.bib"
    f.write_text(
        "@article{one,\n  title = {First paper},\n  publisher = {Taylor {{\\&} Francis},\n  year = 2009,\n"
        "  abstract = {It matters.}\n}\n\n"
        "@article{two,\n  title = {Second paper},\n  year = {2010}\n}\n"
    )
    parsed = parse_file(f)
    one, two = parsed.records
    assert (one.key, one.title, one.year, one.abstract) == ("one", "First paper", 2009, "It matters.")
    assert (two.key, two.title, two.year) == ("two", "Second paper", 2010)
    (warning,) = parsed.warnings
    assert warning.startswith("open.bib, line 1: entry 'one': unbalanced brace in field 'publisher'")


def test_an_escaped_brace_is_counted_as_bibtex_counts_it(tmp_path):
    """COLT 2025's hoegsgaard25: `H\\{o}gsgaard` balances for BibTeX, not for bibtexparser."""
    f = tmp_path / "colt.bib"
    f.write_text(
        "@inproceedings{a, title = {Before}}\n"
        "@InProceedings{hoegsgaard25,\ntitle = {Margins},\n"
        "abstract  = {by H\\{o}gsgaard et al. (2024),\nand matches the model.}\n}\n"
        "@inproceedings{b, title = {After}}\n"
    )
    parsed = parse_file(f)
    assert [r.key for r in parsed.records] == ["a", "hoegsgaard25", "b"]
    assert parsed.records[1].abstract == "by H\\{o}gsgaard et al. (2024),\nand matches the model."
    (warning,) = parsed.warnings
    assert warning.startswith("colt.bib, line 2: entry 'hoegsgaard25': field 'abstract' has a \\{")


def test_papers3_library_keeps_every_entry():
    parsed = parse_file(corpus("bib/zotero-bbt-fixtures/papers3_library_issue1296.bib.gz"))
    assert len(parsed.records) == 3725 and parsed.skipped == 0
    assert sum("unbalanced brace" in w for w in parsed.warnings) == 23
    # its reading-list field: read = {Yes} (2,292 entries) is the state read
    assert sum(r.state == "read" for r in parsed.records) == 2292


def test_a_read_flag_is_the_state_read_and_readstatus_wins(tmp_path):
    f = tmp_path / "x.bib"
    f.write_text(
        "@article{a, title = {Read One}, read = {Yes}}\n@article{b, title = {Not Flagged}, read = {No}}\n"
        "@article{c, title = {Skimmed Says JabRef}, read = {1}, readstatus = {skimmed}}\n"
    )
    assert [r.state for r in parse_file(f).records] == ["read", "", "skimmed"]


def test_crossref_parent_after_the_child_gives_the_venue(tmp_path):
    f = tmp_path / "x.bib"
    f.write_text(
        "@inproceedings{c, title = {Child}, crossref = {P}}\n@proceedings{P, title = {Proc. of Things}, year = 1999}\n"
        "@proceedings{Q, title = {Another}}\n"
    )
    (r,) = parse_file(f).records
    assert (r.venue, r.year) == ("Proc. of Things", 1999)


def test_a_pmlr_volume_gives_its_papers_its_booktitle_editors_and_volume(tmp_path):
    """PMLR's COLT 2025 file opens with its @Proceedings and no paper names it (no booktitle, no crossref): the
    papers' export had `booktitle = {COLT}` and the citation read "In COLT (pp. 2–21)", the volume's title,
    editors, number and place lost. They take the volume's fields as a crossref'd entry does, the venue
    staying its short name."""
    from readinglist.citation import text_citation
    from readinglist.export import ExportOptions, render

    parsed = parse_file(corpus("bib/pmlr/pmlr-v291-colt2025.bib"))
    volume = {"type": "inproceedings", "booktitle": "Proceedings of Thirty Eighth Conference on Learning Theory",
              "editor": "Nika Haghtalab; Ankur Moitra", "volume": "291", "address": "Lyon, France"}  # fmt: skip
    assert all(r.bib | volume == r.bib for r in parsed.records)
    assert {r.venue for r in parsed.records} == {"COLT"}
    lib = Library.open(tmp_path / "data", seed=False)
    try:
        lib.import_files([corpus("bib/pmlr/pmlr-v291-colt2025.bib")])
        (akbari,) = [p for p in lib.papers(lib.search("").ids) if p.citation_key == "akbari25"]
    finally:
        lib.close()
    assert text_citation(akbari) == (
        "Akbari, S., & Harrison-Trainor, M. (2025). Computable learning of natural hypothesis classes. In N. "
        "Haghtalab & A. Moitra (Eds.), Proceedings of Thirty Eighth Conference on Learning Theory (Vol. 291, "
        "pp. 2–21)."
    )
    entry = render([akbari], ExportOptions(format="bibtex"))
    assert "  booktitle = {Proceedings of Thirty Eighth Conference on Learning Theory},\n" in entry
    assert "  editor = {Nika Haghtalab and Ankur Moitra},\n  volume = {291},\n  pages = {2--21},\n" in entry


def test_a_proceedings_in_a_personal_file_gives_no_fields_to_papers_it_does_not_hold(tmp_path):
    """Only a volume's own file (its @proceedings first) gives its fields to the papers naming no venue: in
    a personal file a paper citing another volume, or naming its own venue, keeps what it has."""
    f = tmp_path / "mine.bib"
    f.write_text(
        "@inproceedings{a, title = {A}, booktitle = {Proc. Other}, abstract = {Text.}}\n"
        "@proceedings{P, booktitle = {Proc. P}, editor = {Doe, Jane}, volume = 7, year = 2001}\n"
        "@inproceedings{b, title = {B}, abstract = {Text.}}\n"
    )
    assert [r.bib for r in parse_file(f).records] == [
        {"type": "inproceedings", "booktitle": "Proc. Other"},
        {"type": "inproceedings"},
    ]


def test_a_crossref_gives_every_field_the_entry_lacks_and_none_it_has(tmp_path):
    """As bibtex and biber: a field the entry lacks is its crossref'd volume's (editor, volume, series, number,
    publisher, biblatex's location, organization, month), the volume's title its booktitle; a field the entry has
    stays (its own issue before the volume's number), and the volume's pages and DOI are not the paper's. The
    volume after its entries, as BibTeX wants it; a crossref to no entry changes nothing."""
    f = tmp_path / "x.bib"
    f.write_text(
        "@inproceedings{a, title = {A}, crossref = {vol}, pages = {1--9}, abstract = {Text.}}\n"
        "@inproceedings{b, title = {B}, crossref = {vol}, booktitle = {Own Book}, publisher = {Own Press},"
        " issue = 3, abstract = {Text.}}\n"
        "@inproceedings{c, title = {C}, crossref = {nowhere}, pages = {5}, abstract = {Text.}}\n"
        "@proceedings{vol, title = {Proc. of Things}, editor = {Doe, Jane and Roe, Rick}, volume = 12,"
        " number = 4, series = {LNCS}, publisher = {Springer}, location = {Berlin}, organization = {ACM},"
        " month = jun, date = {1999-06}, pages = {1--500}, doi = {10.1000/volume}}\n"
    )
    a, b, c = parse_file(f).records
    inherited = {"editor": "Jane Doe; Rick Roe", "volume": "12", "series": "LNCS", "address": "Berlin",
                 "organization": "ACM", "month": "6"}  # fmt: skip
    assert a.bib == {"type": "inproceedings", "booktitle": "Proc. of Things", "number": "4", "pages": "1-9",
                     "publisher": "Springer", **inherited}  # fmt: skip
    assert (a.venue, a.year) == ("Proc. of Things", 1999)
    assert b.bib == {"type": "inproceedings", "booktitle": "Own Book", "number": "3", "publisher": "Own Press",
                     **inherited}  # fmt: skip
    assert (c.venue, c.year, c.bib) == ("", None, {"type": "inproceedings", "pages": "5"})


def test_a_crossref_to_a_volume_in_a_later_file_gives_its_fields(tmp_path):
    """The volume in a file the import reads after the entry's (IRIDIA's crossref.bib): the same fields."""
    first, second = tmp_path / "a.bib", tmp_path / "b.bib"
    first.write_text("@incollection{c, title = {Chapter}, crossref = {book}, pages = {3--4}, abstract = {Text.}}\n")
    second.write_text("@book{book, title = {The Book}, subtitle = {A Sequel}, editor = {Doe, Jane}, volume = 2,"
                      " publisher = {Press}, year = 2003}\n")  # fmt: skip
    lib = Library.open(tmp_path / "data", seed=False)
    try:
        lib.import_files([first, second])
        (p,) = lib.papers(lib.search("").ids)
    finally:
        lib.close()
    assert (p.venue, p.year) == ("The Book: A Sequel", 2003)
    assert p.bib == {"type": "incollection", "booktitle": "The Book: A Sequel", "editor": "Jane Doe",
                     "volume": "2", "pages": "3-4", "publisher": "Press"}  # fmt: skip


def test_a_biblatex_subtitle_is_part_of_the_title(tmp_path):
    """biblatex-examples.bib: `worman` is "The Cast of Character" with the subtitle "Style in Greek
    Literature", and the import, its export and its citation said only "The Cast of Character". The title a
    reader cites joins them with a colon (a space after the title's own ? or !); a book's and a journal's
    subtitle join their titles; a title that already ends with its subtitle is kept."""
    parsed = parse_file(corpus("bib/biblatex/biblatex-examples.bib"))
    by_key = {r.key: r for r in parsed.records}
    assert by_key["worman"].title == "The Cast of Character: Style in {Greek} Literature"
    assert by_key["salam"].bib["booktitle"] == "Elementary particle theory: Relativistic groups and analyticity"
    space = by_key["westfahl:space"]  # its volume's subtitle through the crossref, with biblatex's location
    assert space.title.startswith("The True Frontier: Confronting and Avoiding the Realities of Space")
    assert (space.venue, space.bib["address"]) == ("Space and Beyond: The Frontier Theme in Science Fiction",
                                                   "Westport, Conn. and London")  # fmt: skip
    f = tmp_path / "s.bib"
    f.write_text(
        "@article{q, title = {Why {GANs}?}, subtitle = {An Answer}, journaltitle = {J. Things},"
        " journalsubtitle = {Series B}, abstract = {Text.}}\n"
        "@book{twice, title = {Title: The Sub}, subtitle = {The sub}, abstract = {Text.}}\n"
        "@book{alone, subtitle = {Only a Subtitle}, abstract = {Text.}}\n"
    )
    q, twice, alone = parse_file(f).records
    assert (q.title, q.venue, q.bib["journal"]) == ("Why {GANs}? An Answer", *["J. Things: Series B"] * 2)
    assert (twice.title, alone.title) == ("Title: The Sub", "Only a Subtitle")


def test_a_paper_imported_without_its_subtitle_is_updated_in_place(tmp_path):
    """A library imported the file before subtitles were read: the paper's title is "The Cast of Character".
    The file imported again gives it its subtitle, the paper kept with its tag; with no abstract only the
    entry's key tells it is the same paper (it came in twice)."""
    f = tmp_path / "w.bib"
    f.write_text("@book{worman, title = {The Cast of Character}, author = {Worman, Nancy}, year = 2002}\n")
    lib = Library.open(tmp_path / "data", seed=False)
    try:
        lib.import_files([f])
        (pid,) = lib.search("").ids
        lib.add_tags([pid], ["greek"])
        f.write_text(f.read_text().replace("},", "}, subtitle = {Style in {Greek} Literature},", 1))
        (summary,) = lib.import_files([f])
        assert (summary.added, summary.updated) == (0, 1)
        (p,) = lib.papers(lib.search("").ids)
        assert (p.id, p.title, p.tags) == (pid, "The Cast of Character: Style in Greek Literature", ["greek"])
    finally:
        lib.close()


def test_json_lines_named_json_whose_first_record_has_a_data_list(tmp_path):
    """JSON Lines under a .json name: a `data` list in the first record does not make it a wrapper."""
    f = tmp_path / "lines.json"
    f.write_text('{"title": "One", "data": [1, 2]}\n{"title": "Two"}\n')
    assert [r.title for r in parse_file(f).records] == ["One", "Two"]


def test_a_wrapper_keeps_its_papers_and_ignores_the_rest(tmp_path):
    f = tmp_path / "wrapped.json"
    f.write_text(json.dumps({"name": "dump", "papers": [{"title": "A"}, {"title": "B"}], "count": 2}, indent=1))
    assert [r.title for r in parse_file(f).records] == ["A", "B"]


# ---- why a record was skipped, from the streaming readers ------------------------------------------------------

_SKIPPING = {
    "list.json": (
        json.dumps([{"title": "Kept", "abstract": "Fine."}, {"abstract": "N/A"}, {"authors": ["Someone"]}]),
        [("record 2", "no title, and its abstract is a placeholder (“N/A”)"), ("record 3", "no title and no abstract")],
    ),
    "wrapped.json": (
        json.dumps({"venue": "X", "papers": [{"title": "Kept"}, {"title": {}}]}),
        [("record 2", "no title (its title is an object) and no abstract")],
    ),
    "lines.jsonl": (
        '{"title": "Kept"}\n\n{"url": "https://x.org"}\n',
        [("line 3", "no title and no abstract")],
    ),
    "rows.csv": (
        "title,abstract\nKept,Fine.\n,n/a\n",
        [("line 3", "no title, and its abstract is a placeholder (“n/a”)")],
    ),
    "refs.bib": (
        "@article{kept, title={Kept}}\n\n@article{empty,\n  author={A. B},\n  abstract={TBA}\n}\n",
        [("entry empty (line 3)", "no title, and its abstract is a placeholder (“TBA”)")],
    ),
    "corpus.txt": (
        "ICML 2026 Papers\n\nA real abstract.\n\nN/A\n\nAnother abstract.\n",
        [("paragraph 2 (line 5)", "no title, and its abstract is a placeholder (“N/A”)")],
    ),
}


@pytest.mark.parametrize("name", list(_SKIPPING))
def test_every_format_says_where_and_why_it_skipped_a_record(tmp_path, name):
    text, why = _SKIPPING[name]
    f = tmp_path / name
    f.write_text(text)
    parsed = parse_file(f)
    assert parsed.records and parsed.skipped == len(why)
    assert parsed.skipped_why == why


def test_only_the_first_skip_reasons_are_kept_and_the_rest_counted(tmp_path):
    from readinglist.importers.base import SKIPS_KEPT
    from readinglist.importing import ImportSummary

    f = tmp_path / "many.jsonl"
    f.write_text('{"title": "Kept"}\n' + '{"url": "https://x.org"}\n' * (SKIPS_KEPT + 50))
    parsed = parse_file(f)
    assert parsed.skipped == SKIPS_KEPT + 50 and len(parsed.skipped_why) == SKIPS_KEPT
    assert parsed.skipped_why[-1] == (f"line {SKIPS_KEPT + 1}", "no title and no abstract")
    summary = ImportSummary(f, skipped=parsed.skipped, skipped_why=parsed.skipped_why)
    assert "no title and no abstract: line 2, line 3, line 4 and 197 more; 50 more" in summary.line()


@pytest.mark.parametrize("chunk", [None, 1], ids=["kept-from-the-first-read", "read-again-from-the-file"])
def test_an_import_says_why_it_skipped_records_however_often_it_reads_the_file(empty_lib, tmp_path, monkeypatch, chunk):
    if chunk is not None:
        from readinglist import importing

        monkeypatch.setattr(importing, "CHUNK", chunk)
        monkeypatch.setattr(importing, "KEEP_RECORDS", chunk)  # over it: read again
    f = tmp_path / "weird.jsonl"
    f.write_text('{"title": "One", "abstract": "A."}\n{"abstract": "none"}\n{"title": "Two", "abstract": "B."}\n')
    (summary,) = empty_lib.import_files([f])
    assert (summary.added, summary.skipped) == (2, 1)
    assert summary.skipped_why == [("line 2", "no title, and its abstract is a placeholder (“none”)")]
    assert "1 skipped (no title, and its abstract is a placeholder (“none”): line 2)" in summary.line()


def test_latex_accents_in_author_names_are_decoded(tmp_path, lib):
    f = tmp_path / "accents.jsonl"
    names = ['Alihan H\\"{u}y\\"{u}k', "Csaba Szepesv\\'{a}ri", "Cl{\\'e}ment Bonet", "O'Brien"]
    f.write_text(json.dumps({"title": "Accents in names", "abstract": "An abstract.", "authors": names}) + "\n")
    (summary,) = lib.import_files([f])
    assert summary.added == 1
    pid = lib.search("accents in names").ids[0]
    assert lib.paper(pid).authors == ["Alihan Hüyük", "Csaba Szepesvári", "Clément Bonet", "O'Brien"]
    assert lib.search("author:huyuk").ids == [pid] and lib.search("author:Szepesvári").ids == [pid]
    assert lib.rows([pid])[pid].authors.startswith("Hüyük")


def test_a_library_with_raw_latex_author_names_is_migrated(tmp_path):
    import sqlite3

    from readinglist.library import Library

    data = tmp_path / "data"
    lib = Library.open(data, seed=True)
    pid = lib.search("").ids[0]
    lib.close()
    db = sqlite3.connect(data / "library.db")
    db.execute("UPDATE papers SET authors = ? WHERE id = ?", (json.dumps(['Alihan H\\"{u}y\\"{u}k']), pid))
    db.execute("DELETE FROM schema_migrations WHERE name = '0015_author_names'")
    db.commit()
    db.close()
    lib = Library.open(data, seed=False)
    try:
        assert lib.paper(pid).authors == ["Alihan Hüyük"]
        assert lib.search("author:huyuk").ids == [pid]  # the index took the decoded name from the journal
    finally:
        lib.close()


# ---- a set of .bib files read together (IRIDIA's layout: macros and volumes in files of their own) ----

BIB_SET = {
    "abbrev.bib": '@string{lncs = "Lecture Notes in Computer Science"}\n@string{spr = "Springer"}\n',
    "authors.bib": '@string{Dorigo = "Marco Dorigo"}\n@string{Stutzle = "Thomas St{\\"u}tzle"}\n',
    "biblio.bib": (
        "@incollection{DorStu2002aco,\n  author = Dorigo # { and } # Stutzle,\n"
        "  title = {The ant colony optimization metaheuristic},\n  crossref = {ANTS2002},\n}\n"
        "@inproceedings{Other2003,\n  author = Dorigo,\n  title = {A paper of its own},\n"
        "  booktitle = {Some Workshop},\n  year = 2003,\n}\n"
    ),
    "crossref.bib": (
        "@book{ANTS2002,\n  title = {Ant Algorithms, Third International Workshop, ANTS 2002, Proceedings},\n"
        "  booktitle = {Ant Algorithms, ANTS 2002},\n  year = 2002,\n  series = lncs,\n  publisher = spr,\n}\n"
        "@book{Handbook2010,\n  title = {A handbook nobody cites},\n  author = Dorigo,\n  year = 2010,\n}\n"
    ),
}


def _bib_set(tmp_path, files=BIB_SET):
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return sorted(tmp_path / name for name in files)  # as a file dialog lists them: not the order they need


def test_a_set_of_bib_files_shares_macros_and_volumes_in_any_order(tmp_path):
    """BibTeX reads a set in the order \\bibliography{abbrev,authors,crossref,biblio} gives; a file dialog gives
    them alphabetically, and each file alone fails on the macros the others define. Imported together, in
    any order: every file's macros and volumes are known to all, a volume that entries cite gives them its
    venue and year and is not a paper itself, and each file's line says what it defined."""
    files = _bib_set(tmp_path)
    alone = parse_file(tmp_path / "biblio.bib")  # the macros kept as their names, with a warning
    assert alone.records[0].authors == ["Dorigo", "Stutzle"] and "'Dorigo' (line 2)" in alone.warnings[0]
    lib = Library.open(tmp_path / "data", seed=False)
    for order in (files, files[::-1]):
        summaries = lib.import_files(order)
        by_name = {s.path.name: s for s in summaries}
        assert by_name["abbrev.bib"].macros == 2 and "2 @string macros defined" in by_name["abbrev.bib"].line()
        assert by_name["crossref.bib"].volumes == 1
        assert "1 volume (not a paper: the venue of the entries citing it)" in by_name["crossref.bib"].line()
    papers = {p.title: p for p in lib.papers(lib.search("").ids)}
    assert set(papers) == {"The ant colony optimization metaheuristic", "A paper of its own", "A handbook nobody cites"}
    aco = papers["The ant colony optimization metaheuristic"]
    assert aco.authors == ["Marco Dorigo", "Thomas Stützle"]
    assert (aco.venue, aco.year) == ("Ant Algorithms, ANTS 2002", 2002)
    lib.close()


def test_a_volume_reads_macros_a_later_file_of_the_set_defines(tmp_path):
    """A trial: crossref.bib listed before abbrev.bib warned that 50 macros were defined in no file, and the
    chapters' venues read "gecco2010": a volume's fields were read when its file was scanned, before the
    files after it. They are read when an entry first cites them, once every file is scanned."""
    files = {
        **BIB_SET,
        "abbrev.bib": BIB_SET["abbrev.bib"] + '@string{ants = "Ant Algorithms"}\n',
        "crossref.bib": BIB_SET["crossref.bib"].replace("{Ant Algorithms, ANTS 2002}", "ants # {, ANTS 2002}"),
    }
    names = _bib_set(tmp_path, files)
    order = sorted(names, key=lambda f: ["crossref.bib", "biblio.bib", "abbrev.bib", "authors.bib"].index(f.name))
    lib = Library.open(tmp_path / "data", seed=False)
    summaries = lib.import_files(order)
    assert all(not s.warnings for s in summaries), [s.warnings for s in summaries]
    (aco,) = [p for p in lib.papers(lib.search("").ids) if p.title.startswith("The ant colony")]
    assert (aco.venue, aco.year, aco.authors) == ("Ant Algorithms, ANTS 2002", 2002, ["Marco Dorigo", "Thomas Stützle"])
    lib.close()


def test_a_file_imported_again_with_its_macros_mends_its_papers_in_place(tmp_path):
    """A trial: articles.bib imported alone (authors "Abramson_D"), then again with the files that define
    its macros: 617 papers kept "Abramson_D" (with no abstract, the authors decide whether a record of the
    same title is the paper, and they no longer agreed), and one came in twice. An entry of the file's key
    and title is its paper: mended, its tags kept, nothing added."""
    files = _bib_set(tmp_path, {  # the macros named as IRIDIA names them: no name of theirs agrees with the real
        **BIB_SET,
        "authors.bib": '@string{Dorigo_M = "Marco Dorigo"}\n@string{Stutzle_T = "Thomas St{\\"u}tzle"}\n',
        "biblio.bib": BIB_SET["biblio.bib"].replace("Dorigo", "Dorigo_M").replace("Stutzle", "Stutzle_T"),
    })  # fmt: skip
    lib = Library.open(tmp_path / "data", seed=False)
    lib.import_files([tmp_path / "biblio.bib"])
    ids = {p.title: p.id for p in lib.papers(lib.search("").ids)}
    aco = ids["The ant colony optimization metaheuristic"]
    assert lib.paper(aco).authors == ["Dorigo_M", "Stutzle_T"]
    lib.add_tags([aco], ["ants"])
    summaries = {s.path.name: s for s in lib.import_files(files)}
    assert (summaries["biblio.bib"].added, summaries["biblio.bib"].updated) == (0, 2)
    p = lib.paper(aco)
    assert (p.authors, p.venue, p.tags) == (["Marco Dorigo", "Thomas Stützle"], "Ant Algorithms, ANTS 2002", ["ants"])
    assert {q.title: q.id for q in lib.papers(lib.search("").ids)}.items() >= ids.items()
    lib.close()


def test_an_entry_key_given_to_another_title_is_not_that_paper(tmp_path):
    """The key decides with the title: a file whose next version gives a key to another paper (its own
    entry gone) has that paper added, and the old one kept as no longer in the file."""
    f = tmp_path / "mine.bib"
    f.write_text("@article{k1, title = {First paper}, author = {A. Author}}\n", encoding="utf-8")
    lib = Library.open(tmp_path / "data", seed=False)
    lib.import_files([f])
    f.write_text("@article{k1, title = {Another paper entirely}, author = {B. Writer}}\n", encoding="utf-8")
    (summary,) = lib.import_files([f])
    assert (summary.added, summary.updated) == (1, 0)
    assert sorted(p.title for p in lib.papers(lib.search("").ids)) == ["Another paper entirely", "First paper"]
    lib.close()


def test_a_bad_file_of_a_set_is_said_and_the_others_are_imported(tmp_path):
    files = _bib_set(tmp_path, {**BIB_SET, "broken.bib": "@article{x,\n title = Approximating the total\n}\n"})
    lib = Library.open(tmp_path / "data", seed=False)
    failures: list[ImportFailure] = []
    summaries = lib.import_files(files, failures=failures)
    assert [f.path.name for f in failures] == ["broken.bib"] and "not in braces or quotes" in str(failures[0])
    assert len(summaries) == 4 and len(lib.search("").ids) == 3
    with pytest.raises(ImportFailure, match=r"broken\.bib"):  # without `failures`, the first bad file stops it
        lib.import_files(files)
    lib.close()


def test_iridia_set_imports_whole_in_the_order_a_dialog_gives(tmp_path):
    folder = corpus("bib/iridia")
    lib = Library.open(tmp_path / "data", seed=False)
    summaries = lib.import_files(sorted(folder.glob("*.bib")))
    by_name = {s.path.name: s for s in summaries}
    assert by_name["biblio.bib"].added > 1300 and by_name["articles.bib"].added > 1400
    assert by_name["crossref.bib"].volumes > 400 and by_name["authors.bib"].macros > 900
    papers = lib.papers(lib.search("").ids)
    assert all(p.year for p in papers if p.venue)  # a chapter's year came from the volume it cites
    lib.close()


def test_bibtex_keywords_become_keywords_with_their_math_and_accents_read(tmp_path):
    """IRIDIA's keywords hold "$\\epsilon$-dominance": the sidebar listed the tag with its dollars and
    backslash. Keywords are read as titles are (math to Unicode); an escaped dollar stays a dollar."""
    f = tmp_path / "k.bib"
    f.write_text(
        '@article{a, title = {T}, keywords = {$\\epsilon$-dominance, {\\"o}ptimal {Pareto} sets, cost \\$5}}\n',
        encoding="utf-8",
    )
    (record,) = parse_file(f).records
    assert record.keywords == ["ϵ-dominance", "öptimal Pareto sets", "cost $5"]  # in the case the file gives
    assert record.tags == []


def test_an_undefined_macro_is_kept_as_its_name_with_a_warning(tmp_path):
    f = tmp_path / "macro.bib"
    f.write_text("@article{a, title = {T}, journal = undefinedjournal # { Letters}}\n@article{b, title = {U}}\n")
    parsed = parse_file(f)
    assert [r.venue for r in parsed.records] == ["undefinedjournal Letters", ""]
    assert parsed.warnings == [
        "macro.bib: 1 macro is used but defined in no file of this import, kept as its name: 'undefinedjournal' "
        "(line 1); import the file that defines them together with this one"
    ]


def test_braces_in_a_plain_text_formats_title_are_characters(tmp_path):
    # JSON (and CSV, RIS, CSL-JSON) carry plain text: "Open-{Software, Hardware}" (a paperlists title) showed
    # "Open-Software, Hardware"; LaTeX's own braces still group (H\"{o}lder, $\ell_{1,2}$), and BibTeX's
    # entries as JSON (bibtexparser's, with ENTRYTYPE) keep BibTeX's protection
    from readinglist.markup import title_plain

    rows = [
        {"title": "UMIRobot: An Open-{Software, Hardware} Low-Cost Robotic Manipulator", "abstract": "a"},
        {"title": 'H\\"{o}lderian Error Bound via $\\ell_{1,2}$-norm and \\emph{{001}}', "abstract": "b"},
        {"ENTRYTYPE": "article", "ID": "k", "title": "{BERT}: Pre-training", "abstract": "c"},
    ]
    src = tmp_path / "papers.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    titles = [title_plain(r.title) for r in parse_file(src).records]
    assert titles == [
        "UMIRobot: An Open-{Software, Hardware} Low-Cost Robotic Manipulator",
        "Hölderian Error Bound via ℓ_(1,2)-norm and {001}",
        "BERT: Pre-training",
    ]
    ris = tmp_path / "one.ris"
    ris.write_text("TY  - JOUR\nTI  - Results on {001}\nAB  - x\nER  - \n")
    assert [title_plain(r.title) for r in parse_file(ris).records] == ["Results on {001}"]
