"""BibTeX that compiles (issue 17.1): a document citing every paper of the NeurIPS 1987–2018 export (8,263
papers) compiles with pdflatex + bibtex and with pdflatex + biblatex/biber, with zero errors. Skipped where TeX
is absent (.ci/run installs texlive-latex-base, texlive-latex-recommended, texlive-bibtex-extra and biber)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import corpus

from readinglist.export import ExportOptions, render
from readinglist.library import Library

pytestmark = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("pdflatex", "bibtex", "biber")),
    reason="TeX is not installed (pdflatex, bibtex and biber are needed)",
)

# biblatex keeps every field of the bibliography in TeX's memory: 8k abstracts need more than the default
TEX_ENV = dict(os.environ, extra_mem_top="20000000", extra_mem_bot="20000000")


@pytest.fixture(scope="module")
def neurips(tmp_path_factory):
    source = corpus("neurips_1987_2018.jsonl.gz")
    lib = Library.open(tmp_path_factory.mktemp("neurips") / "data", seed=False)
    try:
        lib.import_files([source])
        papers = lib.papers(lib.search("").ids)
    finally:
        lib.close()
    assert len(papers) > 8000
    return papers


def _run(cmd: list[str], folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cmd, cwd=folder, capture_output=True, text=True, errors="replace", stdin=subprocess.DEVNULL, env=TEX_ENV,
        timeout=1200,
    )  # fmt: skip


def latex_errors(folder: Path) -> list[str]:
    """The errors pdflatex reported in its last run (file:line:error lines, and `!` lines)."""
    log = (folder / "doc.log").read_text(encoding="utf-8", errors="replace")
    return re.findall(r"^(?:\./doc\.\w+:\d+: .*|! .*)$", log, re.M)


def compile_document(
    bib: str, folder: Path, engine: str, utf8: bool = False, style: str = "plain", packages: str = ""
) -> tuple[list[str], list[str]]:
    """(errors of bibtex or biber, errors of pdflatex's last run) for a document citing every entry. With
    biber, biblatex's texencoding=ascii has biber write its output as LaTeX escapes (pdflatex cannot read
    the decomposed accents it writes otherwise); a UTF-8 file says bibencoding=utf8. With bibtex, `style`
    (plain prints no DOI nor URL; plainnat prints both, with `packages` natbib and url or hyperref)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "refs.bib").write_text(bib, encoding="utf-8")
    keys = re.findall(r"^@\w+\{([^,\s]+),", bib, re.M)
    if engine == "bibtex":
        cites = "\n".join("\\nocite{" + ",".join(keys[i : i + 50]) + "}" for i in range(0, len(keys), 50))
        preamble, back = packages, f"\\bibliographystyle{{{style}}}\n\\bibliography{{refs}}"
    else:  # biblatex's \nocite of 8k keys one by one is quadratic: * cites all, and a sample by name
        cites = "\\nocite{*}\\cite{" + ",".join(keys[::40]) + "}"
        options = "backend=biber,texencoding=ascii" + (",bibencoding=utf8" if utf8 else "")
        preamble = f"\\usepackage[{options}]{{biblatex}}\n{packages}\n\\addbibresource{{refs.bib}}"
        back = "\\printbibliography"
    (folder / "doc.tex").write_text(
        f"\\documentclass{{article}}\n{preamble}\n\\begin{{document}}\n{cites}\n{back}\n\\end{{document}}\n",
        encoding="utf-8",
    )
    latex = ["pdflatex", "-interaction=nonstopmode", "-file-line-error", "doc.tex"]
    _run(latex, folder)
    tool = _run(["bibtex" if engine == "bibtex" else "biber", "doc"], folder)
    blg = (folder / "doc.blg").read_text(encoding="utf-8", errors="replace")
    if engine == "bibtex":
        tool_errors = re.findall(r"^.*---line \d+ of file .*$|^I was expecting .*$|^You're missing .*$", blg, re.M)
        if re.search(r"There (?:was|were) (?:\d+|one) error", blg) and not tool_errors:
            tool_errors = [blg[-500:]]
    else:
        tool_errors = [line for line in blg.splitlines() if "ERROR" in line]
        if tool.returncode and not tool_errors:
            tool_errors = [tool.stdout[-500:] + tool.stderr[-500:]]
    _run(latex, folder)
    assert (folder / "doc.pdf").exists()
    return tool_errors, latex_errors(folder)


def test_pdflatex_and_bibtex_compile_every_neurips_paper(neurips, tmp_path):
    bib = render(neurips, ExportOptions(format="bibtex"))
    assert bib.isascii()
    assert compile_document(bib, tmp_path / "bibtex", "bibtex") == ([], [])


def test_pdflatex_and_biber_compile_every_neurips_paper_ascii_and_utf8(neurips, tmp_path):
    for name in ("bibtex", "biblatex"):  # plain ASCII with LaTeX escapes, and UTF-8 for biblatex
        bib = render(neurips, ExportOptions(format=name))
        assert compile_document(bib, tmp_path / name, "biber", utf8=name == "biblatex") == ([], []), name


def test_dois_and_urls_with_percent_signs_and_hashes_compile_and_reach_the_bibliography_as_they_are(tmp_path):
    """A DOI or URL with `%`, `#`, `&`, `_`, `~`, `(` is written verbatim in braces (export.bib_record_fields): bibtex
    with plainnat and biber with biblatex pass it to the url package's verbatim \\url and \\doi whole (an
    escaped one would be linked with its backslash), and the document compiles."""
    from readinglist.papers import Paper

    doi, url = "10.1000/abc%20def#x_y&z~(1)", "https://example.org/a(1)%20b?x=1&y=2#frag_1~u%"
    paper = Paper(id=1, uid="u1", title="T", raw_title="T", auto_title="T", user_title=None, abstract="",
                  plain_abstract="", authors=["Ada Lovelace"], venue="J", year=2020, url=url, links=[],
                  state="unread", note="", citation_key="k", bib={"type": "article", "doi": doi})  # fmt: skip
    for name in ("bibtex", "biblatex"):
        bib = render([paper], ExportOptions(format=name))
        for n, (engine, packages) in enumerate((("bibtex", "\\usepackage{natbib}\\usepackage{url}"),
                                                ("bibtex", "\\usepackage{natbib}\\usepackage{hyperref}"),
                                                ("biber", "\\usepackage{hyperref}"))):  # fmt: skip
            folder = tmp_path / f"{name}-{engine}-{n}"
            errors = compile_document(bib, folder, engine, utf8=name == "biblatex", style="plainnat", packages=packages)
            assert errors == ([], []), (name, engine, packages)
            bbl = (folder / "doc.bbl").read_text(encoding="utf-8")
            if engine == "bibtex":
                assert f"\\doi{{{doi}}}" in bbl and f"\\url{{{url}}}" in bbl
            else:
                assert f"\\verb {doi}\n" in bbl and f"\\verb {url}\n" in bbl


def test_a_doi_that_is_not_ascii_compiles_from_either_file(tmp_path):
    """The ASCII file held "10.1000/café" as it is, and biber refused the whole file ("cannot be read in encoding
    'ascii'"): it holds the DOI's link, percent-encoded (export.bibtex_entry); the UTF-8 file, the DOI itself."""
    from test_bibtex_export import paper

    cafe = paper(citation_key="k", title="T", bib={"type": "article", "journal": "J", "doi": "10.1000/café–Ü"})
    for name in ("bibtex", "biblatex"):
        bib = render([cafe], ExportOptions(format=name))
        for engine, packages in (
            ("bibtex", "\\usepackage{natbib}\\usepackage{hyperref}"),
            ("biber", "\\usepackage{hyperref}"),
        ):
            folder = tmp_path / f"{name}-{engine}"
            errors = compile_document(bib, folder, engine, utf8=name == "biblatex", style="plainnat", packages=packages)
            assert errors == ([], []), (name, engine)


@pytest.fixture(scope="module")
def icml(tmp_path_factory):
    lib = Library.open(tmp_path_factory.mktemp("icml") / "data")  # the bundled ICML 2026 corpus: LaTeX-rich
    try:
        return lib.papers(lib.search("").ids)
    finally:
        lib.close()


def test_every_formula_kept_in_an_export_typesets_with_amsmath(neurips, icml, tmp_path):
    """Standard styles print no abstracts, so the compiles above do not typeset their formulas; a document
    that does (an annotated bibliography) loads amsmath and amssymb, and each formula kept as $…$ typesets."""
    formulas: dict[str, None] = {}
    for papers in (neurips, icml):
        bib = render(papers, ExportOptions(format="bibtex"))
        for m in re.finditer(r"(?<!\\)\$(.+?)(?<!\\)\$", bib, re.S):
            formulas.setdefault(m.group(1), None)
    assert len(formulas) > 1000
    body = "\n".join(f"\\noindent ${f}$\\par" for f in formulas)
    (tmp_path / "doc.tex").write_text(
        f"\\documentclass{{article}}\n\\usepackage{{amsmath,amssymb}}\n\\begin{{document}}\n{body}\n\\end{{document}}\n",
        encoding="utf-8",
    )
    _run(["pdflatex", "-interaction=nonstopmode", "-file-line-error", "doc.tex"], tmp_path)
    lines = (tmp_path / "doc.tex").read_text(encoding="utf-8").splitlines()
    failed = [lines[int(n) - 1] for n in re.findall(r"^\./doc\.tex:(\d+): ", (tmp_path / "doc.log").read_text(
        encoding="utf-8", errors="replace"), re.M)]  # fmt: skip
    assert failed == []


def test_biber_reads_each_exported_keyword_apart_one_with_a_comma_braced(tmp_path):
    """biber splits `keywords` at top-level commas only: the export once put "; " between keywords when one
    held a comma, and `\\printbibliography[keyword=Learning]` found nothing (the list was one keyword). ", "
    between keywords, a keyword with a comma or a semicolon braced: each is one keyword to biblatex. biber
    drops the space after a braced keyword's comma (it splits at `\\s*,\\s*` and the braces join the pieces
    with a bare comma): that keyword is found without it, as README's Round trips says."""
    from readinglist.papers import Paper

    def paper(key: str, keywords: list[str]) -> Paper:
        return Paper(id=1, uid=key, title="T " + key, raw_title="T", auto_title="T", user_title=None, abstract="",
                     plain_abstract="", authors=["Ada Lovelace"], venue="J", year=2020, url="", links=[],
                     state="unread", note="", citation_key=key, tags=keywords, keywords=keywords,
                     bib={"type": "article"})  # fmt: skip

    papers = [paper("both", ["Graphs; trees", "Learning", "Optimization, convex"]), paper("other", ["plain"])]
    sections = "\n".join(
        f"\\typeout{{SECTION:{kw}}}\\printbibliography[keyword={{{kw}}},heading=none]"
        for kw in ("Learning", "Graphs; trees", "plain", "Optimization,convex", "Optimization, convex")
    )
    for name in ("bibtex", "biblatex"):
        folder = tmp_path / name
        folder.mkdir()
        bib = render(papers, ExportOptions(format=name))
        assert "keywords = {{Graphs; trees}, Learning, {Optimization, convex}}" in bib
        (folder / "refs.bib").write_text(bib, encoding="utf-8")
        (folder / "doc.tex").write_text(
            "\\documentclass{article}\n\\usepackage[backend=biber]{biblatex}\n\\addbibresource{refs.bib}\n"
            "\\AtEveryBibitem{\\typeout{PRINTED:\\thefield{entrykey}}}\n"
            f"\\begin{{document}}\n\\nocite{{*}}\n{sections}\n\\end{{document}}\n",
            encoding="utf-8",
        )
        latex = ["pdflatex", "-interaction=nonstopmode", "-file-line-error", "doc.tex"]
        _run(latex, folder)
        assert _run(["biber", "doc"], folder).returncode == 0
        _run(latex, folder)
        log = (folder / "doc.log").read_text(encoding="utf-8", errors="replace")
        printed = re.findall(r"^(SECTION:.*|PRINTED:.*)$", log, re.M)
        assert printed == ["SECTION:Learning", "PRINTED:both", "SECTION:Graphs; trees", "PRINTED:both",
                           "SECTION:plain", "PRINTED:other", "SECTION:Optimization,convex", "PRINTED:both",
                           "SECTION:Optimization, convex"], name  # fmt: skip
        assert latex_errors(folder) == []


def test_papers_of_a_pmlr_volume_and_with_subtitles_compile_with_their_volume_in_the_bibliography(tmp_path):
    """PMLR's COLT 2025 papers take their @Proceedings' booktitle, editors and volume, and biblatex's subtitles
    join their titles (importers.bibtex): the export compiles with bibtex and biber, and the bibliography
    cites the volume. (COLT's titles hold \\mathbb, as their authors wrote them: amssymb.)"""
    lib = Library.open(tmp_path / "data", seed=False)
    try:
        lib.import_files([corpus("bib/pmlr/pmlr-v291-colt2025.bib"), corpus("bib/biblatex/biblatex-examples.bib")])
        papers = lib.papers(lib.search("").ids)
    finally:
        lib.close()
    for name, engine in (("bibtex", "bibtex"), ("bibtex", "biber"), ("biblatex", "biber")):
        folder = tmp_path / f"{name}-{engine}"
        bib = render(papers, ExportOptions(format=name))
        errors = compile_document(bib, folder, engine, utf8=name == "biblatex", packages="\\usepackage{amssymb}")
        assert errors == ([], []), (name, engine)
        bbl = " ".join((folder / "doc.bbl").read_text(encoding="utf-8").split())
        if engine == "bibtex":
            assert "{\\em Proceedings of Thirty Eighth Conference on Learning Theory}, volume 291, pages 2--21" in bbl
            assert "The Cast of Character: Style in Greek Literature" in re.sub(r"[{}]|\\em ", "", bbl)
        else:
            assert "\\field{booktitle}{Proceedings of Thirty Eighth Conference on Learning Theory}" in bbl
