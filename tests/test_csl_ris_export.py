"""CSL-JSON (pandoc, Zotero) and RIS exports (issue 17.3, export half)."""

from __future__ import annotations

import json

from test_bibtex_export import paper

from readinglist.export import ExportOptions, render, split_name
from readinglist.papers import EXPORT_FORMATS, export_format_for


def test_both_formats_are_in_the_vocabulary_the_cli_and_the_dialog_read():
    from pathlib import Path

    from readinglist.cli import build_parser

    assert EXPORT_FORMATS["csljson"].extension == ".json" and EXPORT_FORMATS["ris"].extension == ".ris"
    assert export_format_for(Path("x.ris")) == "ris"
    args = build_parser().parse_args(["export", "--format", "csljson"])
    assert args.format == "csljson"


def test_csl_json_has_citation_keys_names_dates_and_annotations():
    p = paper(
        title="Attention Is All You Need",
        authors=["Ashish Vaswani", "Laurens van der Maaten", "Smith, John", "Martin Luther King Jr."],
        url="https://papers.nips.cc/x",
        plain_abstract="The dominant models.",
        tags=["transformers", "to read"],
        note="Read §3 again.",
        citation_key="vaswani2017attention",
    )
    (item,) = json.loads(render([p], ExportOptions(format="csljson")))
    assert item["id"] == item["citation-key"] == "vaswani2017attention"
    assert item["type"] == "paper-conference" and item["container-title"] == "NeurIPS"
    assert item["title"] == "Attention Is All You Need" and item["issued"] == {"date-parts": [[2017]]}
    assert item["author"] == [
        {"family": "Vaswani", "given": "Ashish"},
        {"family": "Maaten", "given": "Laurens", "non-dropping-particle": "van der"},
        {"family": "Smith", "given": "John"},
        {"family": "King", "given": "Martin Luther", "suffix": "Jr."},
    ]
    assert item["URL"] == "https://papers.nips.cc/x" and item["abstract"] == "The dominant models."
    assert item["keyword"] == "transformers, to read" and item["annote"] == "Read §3 again."
    assert "annote" not in json.loads(render([p], ExportOptions(format="csljson", notes=False)))[0]


def test_a_list_typed_as_one_name_stays_literal():
    assert split_name("Dan Alistarh, Demjan Grubic, Jerry Li") == {"literal": "Dan Alistarh, Demjan Grubic, Jerry Li"}
    assert split_name("Plato") == {"literal": "Plato"}


def test_ris_records_tags_and_line_ends():
    p = paper(
        title="Attention Is All You Need",
        authors=["Ashish Vaswani", "Laurens van der Maaten"],
        tags=["a", "b"],
        note="first line\nER  - \nTY  - JOUR",  # a note cannot end the record or start another
        plain_abstract="Line one.\n\nLine two.",
        citation_key="vaswani2017attention",
        url="javascript:alert(1)",
    )
    text = render([p, paper(id=2, venue="", citation_key="other")], ExportOptions(format="ris"))
    assert "\r\n" in text and "\n" not in text.replace("\r\n", "")
    records = text.rstrip("\r\n").split("\r\n\r\n")
    assert len(records) == 2 and all(r.endswith("ER  - ") for r in records)
    lines = records[0].split("\r\n")
    assert lines[0] == "TY  - CPAPER" and "ID  - vaswani2017attention" in lines
    assert "AU  - Vaswani, Ashish" in lines and "AU  - van der Maaten, Laurens" in lines
    assert "KW  - a" in lines and "KW  - b" in lines and "T2  - NeurIPS" in lines and "PY  - 2017" in lines
    assert "AB  - Line one. Line two." in lines and "N1  - first line ER - TY - JOUR" in lines
    assert not any(line.startswith("UR") for line in lines)  # only http(s) links
    assert sum(line.startswith("TY  - ") for line in text.split("\r\n")) == 2
    assert records[1].startswith("TY  - GEN")
