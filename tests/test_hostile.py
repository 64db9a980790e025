"""Hostile files: every bomb ends with a message naming the file, the line and the limit, and the library
is unchanged. The large cases (4 GB lines, 71 M records, 600 MB files) are in benchmarks/hostile.py; these
are the same attacks at sizes a test can generate in a moment (with the real limits where that is cheap,
lowered limits where it is not)."""

from __future__ import annotations

import gzip
import hashlib
import json
import lzma
import random
import threading
import tracemalloc
import zlib
from pathlib import Path

import pytest
from conftest import corpus

from readinglist import importing
from readinglist.export import ExportOptions, export, render
from readinglist.importers import ImportContext, Limits, open_file, parse_file
from readinglist.importers.reader import TextReader
from readinglist.papers import ImportCancelled, ImportFailure

MiB = 1024 * 1024
LIMITS = Limits()


def _state(lib) -> tuple:
    """Everything the library holds: every row of the database, and what the index finds."""
    dump = hashlib.sha1("\n".join(lib.store.db.iterdump()).encode()).hexdigest()
    return dump, lib.index.doc_count(), sorted(lib.search("tag:hostile").ids)


@pytest.fixture
def annotated(empty_lib, tmp_path):
    """A library with papers and annotations a bad file must not touch."""
    f = tmp_path / "good.jsonl"
    f.write_text(
        "".join(json.dumps({"title": f"Good paper {i}", "abstract": f"About topic {i}."}) + "\n" for i in range(30))
    )
    empty_lib.import_files([f])
    pid = empty_lib.search("").ids[0]
    empty_lib.add_tags([pid], ["hostile"])
    empty_lib.set_note(pid, "keep this")
    empty_lib.set_state([pid], "read")
    return empty_lib


def refused(lib, path: Path, *fragments: str, limits: Limits | None = None) -> str:
    before = _state(lib)
    with pytest.raises(ImportFailure) as info:
        if limits is None:
            lib.import_files([path])
        else:
            importing.import_files(lib.store, lib.updater, [path], limits=limits)
    message = str(info.value)
    assert message.startswith(path.name), message
    for fragment in fragments:
        assert fragment in message, message
    assert _state(lib) == before
    return message


def _gz(path: Path, pieces, level: int = 9) -> Path:
    comp = zlib.compressobj(level, zlib.DEFLATED, 31)
    with open(path, "wb") as fh:
        for piece in pieces:
            fh.write(comp.compress(piece))
        fh.write(comp.flush())
    return path


# ---- bytes: decompression, size, lines ---------------------------------------------------------------


def test_a_long_line_in_a_gzip_ends_at_the_line_limit(annotated, tmp_path):
    f = _gz(tmp_path / "line.jsonl.gz", [b'{"title": "x", "abstract": "', b"a" * (3 * MiB), b'"}\n'])
    refused(annotated, f, "line 1", "longer than the limit of 1,048,576 characters")


def test_a_long_line_in_an_xz_ends_at_the_line_limit(annotated, tmp_path):
    f = tmp_path / "line.jsonl.xz"
    f.write_bytes(lzma.compress(b'{"title": "ok"}\n{"title": "' + b"a" * (3 * MiB) + b'"}\n', preset=0))
    refused(annotated, f, "line 2", "longer than the limit")


def test_a_decompression_bomb_is_stopped_by_the_ratio(annotated, tmp_path):
    line = b'{"title": "x"}' + b" " * 85 + b"\n"  # 100 bytes: no line or line-count limit comes first
    f = _gz(tmp_path / "bomb.jsonl.gz", [line * 200_000])
    refused(annotated, f, "more than 100 times its size", "the limit is 100:1")


def test_a_gzip_that_declares_too_much_is_refused_before_reading(annotated, tmp_path):
    f = _gz(tmp_path / "big.jsonl.gz", [b'{"title": "x"}\n' * 100_000])
    message = refused(annotated, f, "its gzip trailer says so", limits=Limits(total_bytes=MiB))
    assert "line" not in message  # nothing was read


def test_an_xz_that_declares_too_much_is_refused_before_reading(annotated, tmp_path):
    f = tmp_path / "big.jsonl.xz"
    f.write_bytes(lzma.compress(b'{"title": "x"}\n' * 100_000))
    refused(annotated, f, "its xz index says so", limits=Limits(total_bytes=MiB))


def test_a_file_that_hides_its_size_is_measured_before_it_is_parsed(annotated, tmp_path):
    """Two gzip members: the trailer tells only the last, small one. The file is decompressed once, not
    parsed, to find its size (before any line is read: no line in the message)."""
    f = tmp_path / "two.jsonl.gz"
    f.write_bytes(gzip.compress(b'{"title": "x"}\n' * 100_000) + gzip.compress(b'{"title": "y"}\n'))
    message = refused(annotated, f, "decompresses to more than 1 MiB", limits=Limits(total_bytes=MiB))
    assert "line" not in message


def test_the_reader_stops_at_the_size_limit_by_itself(tmp_path):
    """The reader checks the size on every block too (whatever measured it before)."""
    f = tmp_path / "two.jsonl.gz"
    f.write_bytes(gzip.compress(b'{"title": "x"}\n' * 100_000) + gzip.compress(b'{"title": "y"}\n'))
    reader = TextReader(f, Limits(total_bytes=MiB))
    with pytest.raises(ImportFailure, match=r"two\.jsonl\.gz, line \d+: decompresses to more than 1 MiB"):
        for _ in reader.lines():
            pass


def test_a_plain_file_over_the_size_limit_is_refused_before_reading(annotated, tmp_path):
    f = tmp_path / "big.bib"
    with open(f, "wb") as fh:
        fh.truncate(3 * 1024**3)  # sparse: 3 GB that would take a while to read
    refused(annotated, f, "is 3 GiB; the limit for one file is 512 MiB")


def test_an_xz_asking_for_a_huge_dictionary_is_refused(annotated, tmp_path):
    data = bytearray(lzma.compress(b'{"title": "x"}\n' * 10, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32))
    size = (data[12] + 1) * 4  # the block header, after the 12-byte stream header
    header = data[12 : 12 + size]
    assert header[2] == 0x21, "one LZMA2 filter"
    header[4] = 40  # its dictionary: 4 GiB
    header[-4:] = zlib.crc32(bytes(header[:-4])).to_bytes(4, "little")
    data[12 : 12 + size] = header
    f = tmp_path / "dict.jsonl.xz"
    f.write_bytes(bytes(data))
    refused(annotated, f, "needs more than 256 MiB of memory to decompress")


def test_too_many_lines(annotated, tmp_path):
    f = tmp_path / "blank.jsonl"
    f.write_text('{"title": "a"}\n' + "\n" * 5000)
    refused(annotated, f, "more than 1,000 lines", limits=Limits(lines=1000))


def test_data_after_a_gzip_stream(annotated, tmp_path):
    f = tmp_path / "junk.jsonl.gz"
    f.write_bytes(gzip.compress(b'{"title": "a"}\n') + b"JUNK" * 100)
    refused(annotated, f, "has data after the end of its gzip stream")


def test_gzip_members_and_padding_are_read(empty_lib, tmp_path):
    f = tmp_path / "members.jsonl.gz"
    f.write_bytes(gzip.compress(b'{"title": "a"}\n') + gzip.compress(b'{"title": "b"}\n') + b"\0" * 8)
    (summary,) = empty_lib.import_files([f])
    assert summary.added == 2


# ---- records: count, size, nesting ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["many.json", "many.jsonl"])
def test_too_many_records(annotated, tmp_path, name):
    f = tmp_path / name
    objects = [{"title": f"p{i}"} for i in range(150)]
    f.write_text(json.dumps(objects) if name.endswith(".json") else "\n".join(map(json.dumps, objects)))
    refused(annotated, f, "more than 100 records", limits=Limits(records=100))


def test_skipped_records_count_towards_the_limit(annotated, tmp_path):
    f = tmp_path / "empty-objects.json"
    f.write_text("[" + ",".join(["{}"] * 150) + "]")
    refused(annotated, f, "more than 100 records", limits=Limits(records=100))


@pytest.mark.parametrize("depth", [40, 100_000])
def test_a_deeply_nested_json_lines_record(annotated, tmp_path, depth):
    f = tmp_path / "nested.jsonl"
    f.write_text('{"title": "ok"}\n{"title": "deep", "x": ' + "[" * depth + "]" * depth + "}\n")
    refused(annotated, f, "line 2", "nested more than 32 levels deep")


@pytest.mark.parametrize("depth", [40, 100_000])
def test_a_deeply_nested_json_element(annotated, tmp_path, depth):
    f = tmp_path / "nested.json"
    f.write_text('[{"title": "ok"},\n{"title": "deep", "x": ' + '{"a": ' * depth + "1" + "}" * depth + "}]")
    refused(annotated, f, "line 2", "nested more than 32 levels deep")


def test_nesting_within_the_limit_is_fine(empty_lib, tmp_path):
    f = tmp_path / "nested.jsonl"
    f.write_text(json.dumps({"title": "fine", "x": [[[[[[1]]]]]]}) + "\n")
    (summary,) = empty_lib.import_files([f])
    assert summary.added == 1


def test_a_field_over_the_limit(annotated, tmp_path):
    f = tmp_path / "field.jsonl"
    f.write_text(json.dumps({"title": "ok"}) + "\n" + json.dumps({"title": "t", "abstract": "word " * 60_000}) + "\n")
    refused(annotated, f, "line 2", "the abstract is longer than the limit of 262,144 characters")


def test_keywords_over_the_field_limit(annotated, tmp_path):
    # a file's keywords are tags kept apart: held to the tag list's limit (the record's is larger)
    f = tmp_path / "keywords.jsonl"
    keywords = [f"keyword {i:06d}" for i in range(20_000)]  # 280,000 characters
    f.write_text(json.dumps({"title": "ok"}) + "\n" + json.dumps({"title": "t", "keywords": keywords}) + "\n")
    refused(annotated, f, "line 2", "the tag list is longer than the limit of 262,144 characters")


def test_a_json_element_over_the_record_limit(annotated, tmp_path):
    f = tmp_path / "big.json"
    f.write_text('[{"title": "ok"},\n {"title": "t", "junk": "' + "x" * (2 * MiB) + '"}]')
    refused(annotated, f, "line 2", "record is longer than the limit of 1,048,576 characters")


def test_a_minified_json_array_has_no_line_limit(empty_lib, tmp_path):
    """A whole array on one line, far longer than a line may be: each element is a record of its own."""
    f = tmp_path / "minified.json"
    papers = [{"title": f"Paper {i}", "abstract": "x" * 500} for i in range(3000)]
    f.write_text(json.dumps(papers, separators=(",", ":")))
    assert f.stat().st_size > 1.4 * MiB
    (summary,) = empty_lib.import_files([f])
    assert summary.added == 3000


def test_a_wrapper_object_is_streamed(empty_lib, tmp_path):
    f = tmp_path / "wrapped.json"
    papers = [{"title": f"Paper {i}", "abstract": "y" * 500} for i in range(3000)]
    f.write_text(json.dumps({"name": "a dump", "papers": papers}))
    (summary,) = empty_lib.import_files([f])
    assert summary.added == 3000


def test_a_huge_number(annotated, tmp_path):
    f = tmp_path / "int.json"
    f.write_text('[{"title": "t", "year": ' + "9" * 10_000 + "}]")
    refused(annotated, f, "line 1", "a number has more than 4,300 digits")


def test_a_csv_quote_that_never_closes(annotated, tmp_path):
    f = tmp_path / "open.csv"
    f.write_text('title,abstract\nA,"never closes\n' + "lorem ipsum dolor sit amet\n" * 50_000)
    refused(annotated, f, "a field is longer than the limit of 1,048,576 characters (an unclosed quote?)")


def test_a_huge_seed_paragraph(annotated, tmp_path):
    f = tmp_path / "seed.txt"
    f.write_text("ICML 2026 Papers\n\nshort one\n\n" + "word\n" * 300_000)
    refused(annotated, f, "line 5", "paragraph is longer than the limit")


def test_a_huge_bibtex_entry(annotated, tmp_path):
    f = tmp_path / "entry.bib"
    f.write_text("@article{ok, title = {Fine}}\n@article{big,\n title = {Big},\n" + " note = {x},\n" * 120_000 + "}\n")
    refused(annotated, f, "line 2", "the entry starting on this line is longer than the limit")


# ---- BibTeX macros -------------------------------------------------------------------------------------------


def _doubling(n: int) -> list[str]:
    return ['@string{a = "xxxxxxxx"}'] + [f"@string{{{chr(98 + i)} = {chr(97 + i)} # {chr(97 + i)}}}" for i in range(n)]


def test_forty_doubling_macros(annotated, tmp_path):
    f = tmp_path / "doubling.bib"
    lines = ['@string{m0 = "ab"}'] + [f"@string{{m{i} = m{i - 1} # m{i - 1}}}" for i in range(1, 40)]
    f.write_text("\n".join([*lines, "@article{k, title = {T}, abstract = m39}"]) + "\n")
    refused(annotated, f, "line 19", "@string{m18} expands to more than 262,144 characters")


def test_an_abstract_of_many_macros(annotated, tmp_path):
    """Every macro is small; the abstract would be 134 M characters."""
    f = tmp_path / "abstract.bib"
    f.write_text("\n".join([*_doubling(14), f"@article{{k, title = {{T}}, abstract = {' # '.join(['o'] * 1024)}}}"]))
    refused(annotated, f, "line 16", "field 'abstract' of entry 'k' expands to more than 262,144 characters")


def test_a_chain_of_macros(annotated, tmp_path):
    f = tmp_path / "chain.bib"
    lines = ['@string{s0 = "x"}'] + [f'@string{{s{i} = s{i - 1} # "x"}}' for i in range(1, 5000)]
    f.write_text("\n".join(lines) + "\n")
    refused(annotated, f, "the @string macros expand to more than 4,194,304 characters in all")


def test_the_macro_budget_spans_the_files_of_one_import(annotated, tmp_path):
    files = []
    for n in range(3):
        f = tmp_path / f"macros{n}.bib"
        f.write_text("\n".join(f'@string{{m{n}_{i} = "{"y" * 1000}"}}' for i in range(1500)) + "\n")
        files.append(f)
    before = _state(annotated)
    with pytest.raises(ImportFailure, match=r"macros2\.bib, line \d+: the @string macros expand"):
        annotated.import_files(files, progress=None)
    assert _state(annotated)[1:] == before[1:]


def test_a_value_without_its_brace_is_named_on_one_line(annotated, tmp_path):
    """A lost `{` turns a title into bare words: the message quotes the start of it, on one line."""
    f = tmp_path / "lost.bib"
    f.write_text("@article{k,\n title = Approximating the total\n variation distance},\n year = 2020\n}\n")
    message = refused(annotated, f, "line 2", "field 'title' of entry 'k' is not in braces or quotes")
    assert "\n" not in message and "(it reads “Approximating the total variation dista…”)" in message


def test_a_long_undefined_macro_is_quoted_short(tmp_path):
    from readinglist.importers import parse_file

    f = tmp_path / "macro.bib"
    f.write_text("@article{k, title = {T}, journal = " + "x" * 500 + "}\n")
    (warning,) = parse_file(f).warnings
    assert "'xxxx" in warning and len(warning) < 300, warning


# ---- encodings ----------------------------------------------------------------------------------------------------


def test_utf16_with_a_bom_is_read(empty_lib, tmp_path):
    f = tmp_path / "u16.jsonl"
    f.write_bytes("\n".join(json.dumps({"title": f"Über {i}"}, ensure_ascii=False) for i in range(10)).encode("utf-16"))
    (summary,) = empty_lib.import_files([f])
    assert summary.added == 10
    assert empty_lib.papers(empty_lib.search("").ids)[0].title.startswith("Über")


def test_one_windows_1252_line_spoils_only_that_line(tmp_path):
    f = tmp_path / "mixed.jsonl"
    f.write_bytes(
        '{"title": "Café one"}\n'.encode()
        + '{"title": "Caf\xe9 two"}\n'.encode("cp1252")
        + '{"title": "Café three"}\n'.encode()
    )
    parsed = parse_file(f)
    assert [r.title for r in parsed.records] == ["Café one", "Café two", "Café three"]
    assert parsed.warnings == ["mixed.jsonl: not UTF-8 (first bad byte on line 2); 1 line read as Windows-1252"]


def test_bytes_windows_1252_leaves_undefined_read_as_browsers_do(tmp_path):
    """0x81 and 0x8D have no character in Windows-1252: they become the C1 controls of Latin-1, so one
    stray byte spoils one line instead of refusing the file; the controls are then taken out, as any are."""
    f = tmp_path / "bad.jsonl"
    f.write_bytes(b'{"title": "ok"}\n{"title": "a\x81\x8d\x80"}\n')
    parsed = parse_file(f)
    assert [r.title for r in parsed.records] == ["ok", "a€"]
    assert "line 2" in parsed.warnings[0]


def test_garbage_bytes_in_a_json_line_name_the_line(annotated, tmp_path):
    f = tmp_path / "bad.jsonl"
    f.write_bytes(b'{"title": "ok"}\n\xff\xfe\x81garbage\n')
    refused(annotated, f, "line 2", "this line is not valid JSON: expected a value at column 1, found 'ÿ'")


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_bom_is_read(empty_lib, tmp_path, codec):
    """Excel's "Unicode text" and some exporters write no byte-order mark: every other byte is NUL, which
    was refused as a binary file."""
    f = tmp_path / "u16.csv"
    rows = ["Title,Authors,Year", *(f'"Ünicode paper {i}","Zoë Ärger",2022' for i in range(5000))]
    f.write_bytes("\r\n".join(rows).encode(codec))  # over one block: the reads go on where the sniff stopped
    [summary] = empty_lib.import_files([f])
    assert summary.added == 5000 and not summary.warnings
    [p] = empty_lib.papers(empty_lib.search('"Ünicode paper 4999"').ids)
    assert (p.title, p.authors, p.year) == ("Ünicode paper 4999", ["Zoë Ärger"], 2022)


def test_nul_bytes_that_are_not_utf16_are_still_binary(annotated, tmp_path):
    f = tmp_path / "u16.jsonl"
    f.write_bytes(b"\x00\x00\x00\x01" * 200 + json.dumps({"title": "x"}).encode("utf-16-le"))  # NULs at both parities
    refused(annotated, f, "is a binary file")


# ---- control characters ------------------------------------------------------------------------------------------

CONTROLS = frozenset(map(chr, [*range(0x20), *range(0x7F, 0xA0)])) - set("\t\n\r")
PADDING = " A long enough abstract, so that the file reads as text and not as a binary one." * 4


def controls_in(text: str) -> set[str]:
    return set(text) & CONTROLS


def test_control_characters_are_taken_out_at_import_in_every_format(empty_lib, tmp_path):
    """A NUL (escaped in JSON: a file with the byte is no text), a bell, a terminal's escape, DEL or a C1
    control in a file's title, names, venue, keywords or abstract reaches neither the table, nor the search,
    nor an export: a form feed or a unit separator between two words is a space, the others are dropped."""
    title = "Deep\x01 Learn\x7fing\x1b for\x0cText\x9b"
    files = {
        "c.bib": f"@article{{k1,\n  title = {{{title}}},\n  author = {{Ann\x06 Smith and Bob\x1fJones}},\n"
        f"  journal = {{J.\x02 Stuff}},\n  year = {{2020}},\n  keywords = {{a\x03b, c}},\n"
        f"  abstract = {{Line\x07 one.\nLine two.{PADDING}}}\n}}\n",
        "c.jsonl": json.dumps({"title": title, "authors": ["Ann\x00 Smith", "Bob\x1fJones"], "venue": "J.\x02 Stuff",
                               "keywords": ["a\x03b", "c"], "abstract": "Line\x07 one.\nLine two." + PADDING}) + "\n",
        "c.csv": f'title,authors,venue,keywords,abstract\n"{title}","Ann\x06 Smith; Bob\x1fJones",J.\x02 Stuff,'
        f'"a\x03b, c","Line\x07 one.\nLine two.{PADDING}"\n',
        "c.ris": f"TY  - JOUR\nTI  - {title}\nAU  - Ann\x06 Smith\nAU  - Bob\x1fJones\nJO  - J.\x02 Stuff\n"
        f"KW  - a\x03b\nKW  - c\nAB  - Line\x07 one. Line two.{PADDING}\nER  - \n",
    }  # fmt: skip
    for name, text in files.items():
        f = tmp_path / name
        f.write_text(text, encoding="utf-8")
        (r,) = parse_file(f).records
        assert r.title == "Deep Learning for Text", name
        assert (r.authors, r.venue, r.keywords) == (["Ann Smith", "Bob Jones"], "J. Stuff", ["ab", "c"]), name
        assert r.abstract.startswith("Line one.") and not controls_in(r.abstract), name
    empty_lib.import_files([tmp_path / name for name in files])
    ids = empty_lib.search("").ids
    assert len(ids) == 1 and empty_lib.store.count() == 1  # one paper: the files' records are the same paper
    (p,) = empty_lib.papers(ids)
    assert (p.title, p.raw_title, p.venue, p.authors) == ("Deep Learning for Text", "Deep Learning for Text",
                                                         "J. Stuff", ["Ann Smith", "Bob Jones"])  # fmt: skip
    assert empty_lib.rows(ids)[ids[0]].title == "Deep Learning for Text"
    assert empty_lib.search('"deep learning for text"').ids == ids
    for fmt in ("markdown", "bibtex", "csv", "json", "csljson", "ris", "obsidian"):
        assert not controls_in(render([p], ExportOptions(format=fmt))), fmt


def test_a_library_holding_control_characters_exports_without_them(empty_lib, tmp_path):
    """A library imported before an import took control characters out keeps them in its titles, names,
    venues and abstracts (and a note or a tag may have one pasted in): every export writes the text without
    them, and a notes folder so exported merges back as any does."""
    f = tmp_path / "old.jsonl"
    f.write_text(json.dumps({"title": "Clean title", "authors": ["Ann Smith"], "venue": "Venue", "year": 2020,
                             "abstract": "Clean abstract." + PADDING}) + "\n")  # fmt: skip
    empty_lib.import_files([f])
    (pid,) = empty_lib.search("").ids
    with empty_lib.store.transaction() as db:  # as an older version stored them
        db.execute("UPDATE papers SET title = ?, auto_title = ?, authors = ?, venue = ? WHERE id = ?",
                   ("Deep\x01 Learn\x7fing\x1b", "Deep\x01 Learn\x7fing\x1b", json.dumps(["Ann\x00 Smith"]),
                    "Ven\x9bue", pid))  # fmt: skip
    empty_lib.set_note(pid, "A note\x07 with a bell\nand two lines")
    empty_lib.add_tags([pid], ["ta\x02g"])
    (p,) = empty_lib.papers([pid])
    assert controls_in(p.title + p.note + "".join(p.tags))
    for fmt in ("markdown", "bibtex", "biblatex", "csv", "json", "csljson", "ris", "obsidian"):
        text = render([p], ExportOptions(format=fmt, abstracts=True))
        assert not controls_in(text), fmt
        assert "Learning" in text and "Smith" in text and "Venue" in text and "bell" in text, fmt
    from readinglist.citation import bibtex_citations, text_citations

    assert text_citations([p]) == "Smith, A. (2020). Deep Learning. Venue."
    assert not controls_in(bibtex_citations([p]))
    folder = tmp_path / "notes"
    export([p], ExportOptions(format="obsidian"), folder)
    (note_file,) = folder.iterdir()
    assert not controls_in(note_file.read_text(encoding="utf-8"))
    merged = empty_lib.merge_notes([folder])  # as exported: the library's note and tags stand
    assert (merged.changed, merged.conflicts) == (0, [])
    note_file.write_text(note_file.read_text(encoding="utf-8").replace("and two lines", "edited"), encoding="utf-8")
    merged = empty_lib.merge_notes([folder])  # edited in the file only: the file's note, no conflict
    assert (merged.changed, merged.conflicts) == (1, []) and empty_lib.paper(pid).note == "A note with a bell\nedited"


def test_a_title_of_ones_own_keeps_no_control_character(empty_lib, tmp_path):
    f = tmp_path / "a.jsonl"
    f.write_text(json.dumps({"title": "Imported", "abstract": "Text." + PADDING}) + "\n")
    empty_lib.import_files([f])
    (pid,) = empty_lib.search("").ids
    empty_lib.set_title(pid, "My\x01 own\x0ctitle\x1b[0m")
    assert empty_lib.paper(pid).title == "My own title"  # type: ignore[union-attr]


def test_a_terminal_escape_sequence_is_taken_out_whole(empty_lib, tmp_path):
    """A colour code's ESC alone was dropped and its "[31m" stayed in the title, glued to the next word, so a search
    for that word missed it; a hyperlink's OSC is taken out around its text."""
    f = tmp_path / "nul.jsonl"
    f.write_text(
        json.dumps({"title": "NUL \x00 inside and \x1b[31mANSI\x1b[0m", "abstract": "x\x07y", "year": 2020})
        + "\n"
        + json.dumps({"title": "A \x1b]8;;https://e.org\x07link\x1b]8;;\x1b\\ here", "year": 2021})
        + "\n"
    )
    empty_lib.import_files([f])
    titles = sorted(p.title for p in empty_lib.papers(empty_lib.search("").ids))
    assert titles == ["A link here", "NUL inside and ANSI"]
    assert len(empty_lib.search("ANSI").ids) == 1


def test_an_osc_without_a_near_end_takes_only_its_introducer():
    """An OSC ("ESC ]") was taken out up to the next BEL or ST however far on: a stray one in an abstract lost
    every word before a bell paragraphs later. Ended within OSC_MOST characters it is taken whole (a link's
    address, a window title, ended by BEL, ESC \\ or \\x9c); else only its ESC ] goes."""
    from readinglist.biblio import OSC_MOST, without_controls

    words = " word" * (OSC_MOST // 5 + 10)
    assert without_controls(f"stray \x1b]0;title{words} end\x07 after") == f"stray 0;title{words} end after"
    address = "https://e.org/" + "a" * (OSC_MOST - 30)
    for end in ("\x07", "\x1b\\", "\x9c"):
        assert without_controls(f"A \x1b]8;;{address}{end}link\x1b]8;;{end} here") == "A link here"


# ---- streaming ---------------------------------------------------------------------------------------------------


def test_reading_holds_a_chunk_not_the_file(tmp_path):
    """Python's allocations while every record of a 12 MB file is read stay near a block's worth."""
    f = tmp_path / "many.jsonl"
    with open(f, "w") as fh:
        for i in range(12_000):
            fh.write(json.dumps({"title": f"Paper {i}", "abstract": "word " * 200, "authors": ["A", "B"]}) + "\n")
    source = open_file(f)
    tracemalloc.start()
    try:
        n = sum(1 for _ in source.records())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert n == 12_000
    assert peak < 4 * MiB, peak  # the file is 12 MB; parse_file's list would hold more than that


def test_a_file_bigger_than_a_chunk_is_read_twice_with_the_same_result(empty_lib, tmp_path):
    f = tmp_path / "big.jsonl"
    f.write_text("".join(json.dumps({"title": f"Paper {i}", "abstract": f"Text {i}."}) + "\n" for i in range(5000)))
    (summary,) = empty_lib.import_files([f])
    assert summary.added == 5000 and empty_lib.index.doc_count() == 5000
    (again,) = empty_lib.import_files([f])
    assert (again.added, again.unchanged) == (0, 5000)


def test_a_revised_big_file_is_matched_while_streaming(empty_lib, tmp_path):
    """Over a chunk (so read again, not kept): edits match by title, a retitled paper by its abstract."""
    rnd = random.Random(5)
    words = [f"w{i}x" for i in range(400)]
    rows = [{"title": f"Paper {i}", "abstract": " ".join(rnd.choices(words, k=60))} for i in range(2500)]
    f = tmp_path / "rev.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in rows))
    empty_lib.import_files([f])
    edited = empty_lib.search('title:"paper 10"').ids[0]
    retitled = empty_lib.search('title:"paper 20"').ids[0]
    empty_lib.add_tags([edited, retitled], ["mine"])
    rows[10]["abstract"] += " an erratum"
    rows[20]["title"] = "A new title"
    rows[20]["abstract"] += " and a line more"
    rows.append({"title": "Brand new", "abstract": "nothing like the others"})
    f.write_text("".join(json.dumps(r) + "\n" for r in rows))
    (summary,) = empty_lib.import_files([f])
    assert (summary.added, summary.updated, summary.unchanged) == (1, 2, 2498)
    assert empty_lib.paper(edited).abstract.endswith("an erratum")
    assert empty_lib.paper(retitled).title == "A new title" and empty_lib.paper(retitled).tags == ["mine"]


def test_a_file_that_changes_during_the_import_rolls_back(annotated, tmp_path, monkeypatch):
    monkeypatch.setattr(importing, "KEEP_RECORDS", 2000)  # the file is read again, not kept from the first read
    f = tmp_path / "moving.jsonl"  # 1 MB: more than the reader takes at once
    f.write_text("".join(json.dumps({"title": f"Paper {i}", "abstract": "x" * 200}) + "\n" for i in range(5000)))
    before = _state(annotated)

    def progress(done, total, message):
        if message.startswith("Importing") and done <= 2000:
            f.write_text(
                "".join(json.dumps({"title": f"Other {i}", "abstract": "y" * 200}) + "\n" for i in range(5000))
            )

    with pytest.raises(ImportFailure, match=r"moving\.jsonl: changed while it was being imported"):
        annotated.import_files([f], progress=progress)
    assert _state(annotated) == before


def test_cancel_while_reading_changes_nothing(annotated, tmp_path):
    f = tmp_path / "big.jsonl"
    f.write_text("".join(json.dumps({"title": f"Paper {i}"}) + "\n" for i in range(5000)))
    before = _state(annotated)
    cancel = threading.Event()

    def progress(done, total, message):
        if message.startswith("Reading") and done:
            cancel.set()

    with pytest.raises(ImportCancelled):
        annotated.import_files([f], progress=progress, cancel=cancel)
    assert _state(annotated) == before


# ---- fuzzed real corpora --------------------------------------------------------------------------------------


def _fuzzed(data: bytes, how: str, rnd: random.Random) -> bytes:
    if how == "truncate":
        return data[: rnd.randrange(len(data) // 4, len(data))]
    if how == "flip":
        out = bytearray(data)
        for _ in range(20):
            out[rnd.randrange(len(out))] = rnd.randrange(256)
        return bytes(out)
    if how == "garbage":
        lines = data.split(b"\n")
        for _ in range(10):
            junk = rnd.choice([bytes(rnd.randrange(32, 256) for _ in range(50)), b"}}}{{{", b"@article{", b'{"title"'])
            lines.insert(rnd.randrange(len(lines)), junk)
        return b"\n".join(lines)
    text = data.decode("utf-8")
    if how == "utf16":
        return text.encode("utf-16")
    if how == "cp1252":
        return text.encode("cp1252", "replace")
    return text.encode("utf-8").decode("latin-1").encode("utf-8")  # mojibake


@pytest.mark.parametrize("how", ["truncate", "flip", "garbage", "utf16", "cp1252", "mojibake"])
@pytest.mark.parametrize("source", ["pmlr_colt2025_uai2025_l4dc2026.jsonl", "bib/pmlr/pmlr-v291-colt2025.bib"])
def test_fuzzed_real_corpora_import_or_fail_cleanly(annotated, tmp_path, source, how):
    path = corpus(source)
    f = tmp_path / f"{how}-{path.name}"
    f.write_bytes(_fuzzed(path.read_bytes(), how, random.Random(f"{source}{how}")))
    before = _state(annotated)
    try:
        (summary,) = annotated.import_files([f])
    except ImportFailure as exc:
        assert str(exc).startswith(f.name)
        assert _state(annotated) == before
    else:
        assert summary.added > 0


def test_fuzzed_gzip_fails_cleanly(annotated, tmp_path):
    data = bytearray(corpus("neurips_1987_2018.jsonl.gz").read_bytes()[:400_000])
    rnd = random.Random(7)
    for _ in range(5):
        data[rnd.randrange(20, len(data))] ^= 1 << rnd.randrange(8)
    f = tmp_path / "flipped.jsonl.gz"
    f.write_bytes(bytes(data))
    message = refused(annotated, f)
    assert any(m in message for m in ("is not a readable gzip file", "not valid JSON", "record is cut off")), message


def test_limits_are_shared_by_an_import_context(tmp_path):
    """The context carries the limits to every file of one import (BibTeX macros across files)."""
    f = tmp_path / "a.jsonl"
    f.write_text('{"title": "' + "t" * 200 + '"}\n')
    with pytest.raises(ImportFailure, match="the title is longer than the limit of 100 characters"):
        parse_file(f, ImportContext(limits=Limits(field_chars=100)))
