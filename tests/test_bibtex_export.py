"""BibTeX that compiles and says what the paper says (issues 13.3 and 17.1)."""

from __future__ import annotations

from dataclasses import replace

import bibtexparser

from readinglist import latex
from readinglist.export import ExportOptions, jabref_priority, render
from readinglist.markup import title_plain, to_plain
from readinglist.papers import Paper


def paper(**kw) -> Paper:
    base = dict(
        id=1, uid="abc123", title="T", raw_title="T", auto_title="T", user_title=None, abstract="",
        plain_abstract="", authors=["Ada Lovelace"], venue="NeurIPS", year=2017, url="", links=[],
        state="unread", note="", tags=[],
    )  # fmt: skip
    base.update(kw)
    if "title" in kw:
        base["raw_title"] = base["auto_title"] = kw["title"]
    return Paper(**base)


def fields(text: str) -> dict[str, str]:
    parsed = bibtexparser.parse_string(text)
    assert not parsed.failed_blocks, text
    assert len(parsed.entries) == 1
    return {f.key: f.value for f in parsed.entries[0].fields}


def test_special_characters_escaped_outside_math_and_capitals_protected():
    out = fields(render([paper(title="BIG & QUIC: #Exploration with DVAE# for $\\ell_1$ at 50%")], _bib()))
    title = out["title"]
    assert title == "{BIG} \\& {QUIC}: {\\#Exploration} with {DVAE\\#} for {$\\ell_1$} at 50\\%"
    assert title_plain(title) == title_plain("BIG & QUIC: #Exploration with DVAE# for $\\ell_1$ at 50%")


def test_a_title_case_titles_ordinary_words_are_not_braced_only_the_ones_that_must_keep_their_case():
    """Every capitalised word was braced ({Deep} {Residual} {Learning}), so that a style's sentence case left
    a Title Case title as it was. Braced now, as JabRef and Zotero protect: acronyms and mixed case, a capital
    letter alone, a word the file braced itself, and, in a title written in sentence case, a capitalised word
    (a name) but the first and one after a colon, which a style keeps capital itself."""

    def title(text: str, raw: str | None = None) -> str:
        p = replace(paper(title=text), raw_title=raw or text)  # as a BibTeX import stores its title
        written = fields(render([p], _bib()))["title"]
        assert title_plain(written) == title_plain(raw or text)
        return written

    assert title("Deep Residual Learning for Image Recognition") == "Deep Residual Learning for Image Recognition"
    assert title("Attention Is All You Need") == "Attention Is All You Need"
    assert title("BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding") == (
        "{BERT}: Pre-training of Deep Bidirectional Transformers for Language Understanding")  # fmt: skip
    assert title("Training GANs on ImageNet with Bayesian priors") == (
        "Training {GANs} on {ImageNet} with {Bayesian} priors")  # fmt: skip
    assert title("A study of Q-Learning in X-ray imaging: A survey") == (
        "A study of {Q-Learning} in {X-ray} imaging: A survey")  # fmt: skip
    assert title("Towards A Theory of Learning") == "Towards A Theory of Learning"  # Title Case: "A" an article
    assert title("Vitamin A deficiency and the iPhone") == "Vitamin {A} deficiency and the {iPhone}"
    braced = "{BERT}: Deep {Bidirectional} Transformers for {L}anguage Understanding"
    assert title("BERT: Deep Bidirectional Transformers for Language Understanding", braced) == (
        "{BERT}: Deep {Bidirectional} Transformers for {Language} Understanding")  # fmt: skip


def test_abstract_keeps_math_and_escapes_percent_ampersand_and_underscores():
    raw = "We gain 50% on A&B with $O(n^2)$ and $a_{ij} = 100\\%$ on snake_case data."
    value = fields(render([paper(abstract=raw)], _bib()))["abstract"]
    assert "50\\%" in value and "A\\&B" in value and "snake\\_case" in value
    assert "$O(n^2)$" in value and "$a_{ij} = 100\\%$" in value
    assert to_plain(value) == to_plain(raw)


def test_a_trailing_backslash_and_unbalanced_braces_keep_their_text():
    for text in ("ends in a backslash \\", "} closes first {", "{{{ open", "a \\{ b"):
        out = fields(render([paper(title=text, abstract=text, note=text)], _bib()))
        for name in ("title", "abstract", "annote"):
            assert "(" not in out[name] and ")" not in out[name]
            assert out[name].count("{") == out[name].count("}")
        assert "\\textbackslash{}" in out["annote"] or "\\" not in text
        assert to_plain(out["annote"]).replace(" ", "") == text.replace(" ", "")


def test_formulas_that_could_do_harm_or_break_are_written_as_text():
    for formula in ("$\\input{/etc/passwd}$", "$\\def\\x{1}$", "$a}$", "$x\\$", "$^^5cinput$"):
        value = fields(render([paper(abstract=f"see {formula} here")], _bib()))["abstract"]
        assert "\\input{" not in value and "\\def\\x" not in value
        assert "\\$" in value  # the dollars are text now


def test_ascii_mode_escapes_unicode_and_utf8_mode_keeps_it():
    p = paper(title="Über Łukasz’s α-nets — ễ 中", authors=["Łukasz Kaiser", "José Müller"], abstract="ą β")
    ascii_text = render([p], _bib())
    assert ascii_text.isascii()
    out = fields(ascii_text)
    assert "{\\L}ukasz" in out["author"] and "{\\'e}" in out["author"] and '{\\"u}' in out["author"]
    assert "\\ensuremath{\\alpha}" in out["title"] and "{\\~{{\\^{e}}}}" in out["title"]
    utf8 = fields(render([p], ExportOptions(format="biblatex")))
    assert utf8["author"] == "Łukasz Kaiser and José Müller" and "中" in utf8["title"]


def test_annotations_go_to_jabref_fields():
    p = paper(tags=["to read", "rl"], note="My note\nline two", state="read")
    out = fields(render([p], _bib()))
    assert out["keywords"] == "to read, rl" and out["annote"] == "My note\nline two" and out["readstatus"] == "read"
    assert "note" not in out  # plain.bst prints `note`: a reader's notes do not belong in a bibliography
    assert fields(render([paper(state="skimmed")], _bib()))["readstatus"] == "skimmed"
    assert "readstatus" not in fields(render([paper()], _bib()))  # JabRef writes nothing for unread
    assert [jabref_priority(n) for n in (1, 2, 3, None)] == ["prio1", "prio2", "prio3", None]


def test_a_notes_formulas_are_kept_as_latex_and_read_back_as_typed():
    note = "KL is $\\mathrm{KL}(q\\|p)$, see $$\\sum_i x_i$$ — costs $5 & 50%\nnot $\\input{x}$, \\$ or $a\\%b$"
    value = fields(render([paper(note=note)], _bib()))["annote"]
    assert "$\\mathrm{KL}(q\\|p)$" in value  # as a LaTeX user wrote it
    assert "\\$5 \\& 50\\%" in value  # a lone dollar is text
    assert "\\input{" not in value and "$a\\%b$" not in value  # unsafe, or changed on reading back: text
    assert "$$\\sum_i x_i$$" in value  # a display formula too
    assert latex.plain_from_bibtex(value) == note
    for prose in ("$\\alpha$ -- the rate", "pp. 3--5, $\\alpha$", "$\\gamma$ is ``good''", "$a$$b$ é $c$$d$"):
        assert latex.plain_from_bibtex(latex.note_to_bibtex(prose)) == prose  # the text around it as typed too
    for odd in ("a $$x$ b", "$x$$", "$ $", "$\\$"):  # a dollar inside never opens math in the file
        value = latex.note_to_bibtex(odd)
        assert latex.plain_from_bibtex(value) == odd and "$$x$" not in value


def test_names_bibtex_would_misread_are_braced():
    out = fields(render([paper(authors=["Dan Alistarh, Demjan Grubic, Jerry Li", "Ann Smith"])], _bib()))
    assert out["author"] == "{Dan Alistarh, Demjan Grubic, Jerry Li} and Ann Smith"


def test_the_stored_key_is_used_and_missing_ones_are_made_unique():
    a = paper(title="Attention Is All You Need", authors=["Ashish Vaswani"], citation_key="mykey")
    b = paper(id=2, title="Attention Is All You Need", authors=["Ashish Vaswani"])
    c = paper(id=3, title="Attention Is All You Need", authors=["Ashish Vaswani"])
    keys = [e.key for e in bibtexparser.parse_string(render([a, b, c], _bib())).entries]
    assert keys == ["mykey", "vaswani2017attention", "vaswani2017attentiona"]


def test_latex_escape_of_every_special_character():
    assert latex.escape_text("\\{}#$%&_^~<>|") == (
        "\\textbackslash{}\\textbraceleft{}\\textbraceright{}\\#\\$\\%\\&\\_\\^{}\\~{}\\textless{}\\textgreater{}"
        "\\textbar{}"
    )


def _bib() -> ExportOptions:
    return ExportOptions(format="bibtex")
