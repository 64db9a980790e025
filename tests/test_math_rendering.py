"""A formula's grouping survives its rendering as plain text (titles in the table, the CLI) and as HTML (the
detail pane, the note preview): a new user found exponents, braces and spaces lost, which changed the math."""

from readinglist import markup
from readinglist.markup import math_html, math_plain, note_markdown, title_plain, to_html

UPRIGHT = '<span style="font-style:normal;">'


def test_a_multi_token_script_keeps_its_group():
    """(1 - γ)^- 7 / 2 T read as a different formula: a group Unicode has no characters for is (…) in plain
    text and <sup>…</sup> in HTML, written tight as TeX sets a script."""
    assert math_plain(r"(1 - \gamma)^{- 7 / 2} T") == "(1 - γ)^(-7/2) T"
    assert "(1 - γ)<sup>-7/2</sup> T" in to_html(r"within $(1 - \gamma)^{- 7 / 2} T$ steps")
    assert title_plain(r"${\mathcal{O}}(\epsilon^{-4/7})$ rates") == "𝒪(ϵ^(-4/7)) rates"
    assert math_plain(r"e^{-x^2}") == "e^(-x^2)" and math_html(r"e^{-x^2}") == "e<sup>-x²</sup>"
    assert math_plain(r"x^{ab} + x^{(k)}") == "x^(ab) + x^(k)"  # a parenthesised group is not wrapped twice


def test_a_single_token_script_stays_as_it_was():
    assert math_plain("x^2") == "x²" and math_plain("x^{2}") == "x²" and math_plain(r"\ell_1") == "ℓ₁"
    assert math_plain(r"\alpha_i") == "α_i" and math_plain(r"x_i^{2}") == "x_i^2" and math_plain("x^{10}") == "x¹⁰"
    assert math_plain(r"x_{\text{max}}") == "x_max" and math_plain(r"x^\top") == "x^⊤"


def test_escaped_braces_are_literal_braces():
    assert math_plain(r"\min\{K/\log(K),d\}") == "min{K/log(K),d}"
    assert math_html(r"\min\{a,b\}") == UPRIGHT + "min</span>{a,b}"
    assert math_plain(r"\{x_i\}_{i=1}^n") == "{x_i}_(i=1)^n"
    assert "{" in math_plain(r"\left\{ x \right\}") and "}" in math_plain(r"\left\{ x \right\}")


def test_an_operator_stands_apart_from_the_letter_or_digit_after_it():
    assert math_plain(r"\log{n}") == "log n" and math_plain(r"\sqrt{2\log T}") == "√(2 log T)"
    assert math_html(r"\sqrt{2\log T}") == "√(2\u2009" + UPRIGHT + "log</span> T)"
    assert math_plain(r"\max_i x") == "max_i x" and math_plain(r"\log(n)") == "log(n)"  # no space before ( or _


def test_scripts_inside_a_commands_argument_render_as_outside():
    assert math_html(r"c_1 \sqrt{c_2 T}") == "c₁ √(c₂ T)" and math_plain(r"c_1 \sqrt{c_2 T}") == "c₁ √(c₂ T)"
    assert math_html(r"\sqrt{x_i}") == "√(x<sub>i</sub>)" and math_plain(r"\sqrt{x_i}") == "√(x_i)"
    assert math_html(r"\hat{\theta}_n") == "θ̂<sub>n</sub>" and math_plain(r"\mathbb{R}^{d \times d}") == "ℝ^(d×d)"
    assert "(1 - γ)<sup>-7/2</sup> T" in math_html(r"\tilde{O}(\sqrt{(1 - \gamma)^{- 7 / 2} T})")
    assert math_html(r"\bm{x_i}") == "x<sub>i</sub>"  # an author's own command: its argument still written
    assert math_plain(r"\vec{\mathbf{x}}") == "𝐱⃗"  # an argument with nothing to write is pylatexenc's, as before


def test_a_fraction_keeps_its_parts_grouped():
    assert math_plain(r"\frac{a+b}{c}") == "(a+b)/c" and math_plain(r"\frac{1}{2n}") == "1/(2n)"
    assert math_plain(r"\frac{1}{2}") == "1/2" and math_plain(r"\dfrac{a}{b}") == "a/b"
    assert math_html(r"\frac{1}{i^2}") == "1/i²" and math_plain(r"\frac{1}{x_i}") == "1/x_i"
    assert math_plain(r"\frac{\frac{a}{b}}{c}") == "(a/b)/c" and math_plain(r"2^{\frac{1}{2}}") == "2^(1/2)"
    assert math_plain(r"\frac{a}{b}^2") == "(a/b)²" and math_plain(r"\sqrt{\frac{1}{n}}") == "√(1/n)"


def test_the_note_preview_renders_the_same_math():
    shown = note_markdown(r"Sum $\frac{1}{i^2}$, take $\min\{a,b\}$ and $\sqrt{2\log T}$.")
    assert "1/i²" in shown and UPRIGHT + "min</span>{a,b}" in shown and "√(2\u2009" + UPRIGHT + "log" in shown
    assert "^" not in shown and "_" not in shown


def test_a_commands_unrendered_pieces_show_nothing_raw():
    assert math_plain(r"\max\limits_{i} x") == "max_i x" and "\\" not in math_html(r"\max\limits_{i} x")
    assert math_plain(r"\sqrt[3]{x}") == "√(x)" and "$" not in math_html(r"\sqrt[3]{x}")
    assert markup.to_plain(r"$\frac{1}{2}$") == "1/2"


def test_an_accent_is_kept_on_a_letter_and_after_a_group():
    """\\widetilde{O}, \\widehat{θ}, \\overline{x} were dropped (a trial: COLT's "$\\widetilde{O}(mn+\\kappa n)$"
    read "O(mn+κ n)"), where \\tilde, \\hat and \\bar were kept: every accent is its combining mark on a
    letter, and after a group of several in parentheses (a mark on each letter would read as an accent each)."""
    accents = {"widetilde": "Õ", "Tilde": "Õ", "widehat": "Ô", "Hat": "Ô", "overline": "O\u0305", "bar": "O\u0305",
               "underline": "O\u0332", "widecheck": "Ǒ", "check": "Ǒ", "overrightarrow": "O\u20d7",
               "vec": "O\u20d7", "dot": "Ȯ", "ddot": "Ö", "breve": "Ŏ", "mathring": "O\u030a"}  # fmt: skip
    for name, shown in accents.items():
        assert math_plain(f"\\{name}{{O}}") == shown and math_html(f"\\{name}{{O}}") == shown, name
    assert math_plain(r"\widehat{\theta}_n") == "θ̂_n" and math_html(r"\widehat{\theta}_n") == "θ̂<sub>n</sub>"
    assert math_plain(r"\widetilde{\mathcal{O}}(n)") == math_plain(r"\tilde\mathcal O(n)") == "𝒪̃(n)"
    assert math_plain(r"\overline{AB} + \hat{x_i} + \tilde{(a+b)}") == "(AB)\u0305 + (x_i)\u0302 + (a+b)\u0303"
    assert math_html(r"\hat{x_i}") == "(x<sub>i</sub>)\u0302"
    raw = r"in $\widetilde{O}(mn+\kappa n)$ steps, with $\underline{x}$ and \underline{Uni}fied"
    assert markup.to_plain(raw) == "in Õ(mn+κ n) steps, with x\u0332 and Unified"
    assert "Õ(mn+κ n)" in to_html(raw) and "x\u0332" in to_html(raw)
    assert markup.to_markdown(raw) == r"in $\widetilde{O}(mn+\kappa n)$ steps, with $\underline{x}$ and Unified"
    assert title_plain(r"Achieving $\widetilde{\mathcal{O}}(\sqrt{T})$ Regret") == "Achieving 𝒪̃(√(T)) Regret"


def test_an_authors_own_command_shows_by_its_name():
    """An author's \\poly vanished ("$O(\\poly(d)\\sqrt{T})$" read "O((d)√(T))", a trial): a command neither LaTeX
    nor pylatexenc knows shows by its name, upright as TeX sets an operator's; as in text, one with an argument
    shows the argument, "{}" ends the name and \\eps is ε. LaTeX's own that pylatexenc lacked show too."""
    assert math_plain(r"O(\poly(d)\sqrt{T})") == "O(poly(d)√(T))"
    assert math_html(r"O(\poly(d))") == "O(" + UPRIGHT + "poly</span>(d))"
    assert math_plain(r"x \in \R^d, \poly\log T, \sqrt{\poly(n)}") == "x ∈ R^d, poly log T, √(poly(n))"
    assert math_plain(r"(1+\eps)\OPT{} + \bm{x_i} + \bm K") == "(1+ε)OPT + x_i + K"  # \bm only sets type
    assert math_plain(r"\u^\top \v") == "u^⊤ v"  # a text accent is an error in math: the author's vector
    assert math_plain(r"\hat{\imath} \ne \hat{\jmath}") == "î ≠ ĵ"
    assert markup.to_plain(r"$O(\poly(d)\sqrt{T})$ for \method") == r"O(poly(d)√(T)) for \method"
    assert math_plain(r"q\texttt{POTS}, A \land B \ne C, x \bmod n, \textup{poly}(d)") == (
        "qPOTS, A ∧ B ≠ C, x mod n, poly(d)"
    )
    assert (
        markup.to_plain(r"the \textsf{AxlePro} method, see \S 3 and \mbox{this}")
        == "the AxlePro method, see § 3 and this"
    )


def test_plain_text_keeps_a_scripts_group():
    """The abstract's plain text (the index, CSV, RIS) read "O(T^11/16d^3/8)" and "ϵ^-4/7" where math_plain
    wrote T^(11/16): to_plain writes formulas as math_plain does, with ^ and _ as the index reads them."""
    raw = r"regret $\tilde O(T^{11/16}d^{3/8})$ in $\epsilon^{-4/7}$ steps, $x^2$, $\ell_1$, $\frac{a+b}{c}$"
    assert markup.to_plain(raw) == "regret Õ(T^(11/16)d^(3/8)) in ϵ^(-4/7) steps, x^2, ℓ_1, (a+b)/c"
    assert markup.to_plain(r"$T^\frac{d+\alpha}{d+2\alpha}$") == "T^((d+α)/(d+2α))"  # math_plain: "T^(/)d+αd+2α"
    assert markup.to_plain("$x_i=x_j$, $x_i := y$, $a_1<<b$") == "x_i = x_j, x_i := y, a_1 << b"


def test_the_plain_text_exports_keep_a_formulas_accents_names_and_groups(tmp_path):
    """RIS's AB and CSV's abstract are the stored abstract's plain text: a trial's COLT abstracts exported
    "O(T^11/16d^3/8)", "O(mn+κ n)" for Õ(mn+κ n), and "O((d)√(T))" for O(poly(d)√T)."""
    import csv
    import io
    import json

    from readinglist.export import ExportOptions, render
    from readinglist.library import Library

    abstract = r"We get $\widetilde{O}(mn+\kappa n)$, $O(T^{11/16}d^{3/8})$ and $O(\poly(d)\sqrt{T})$ regret."
    f = tmp_path / "colt.jsonl"
    f.write_text(json.dumps({"title": "Regularized Dikin Walks", "abstract": abstract}) + "\n")
    lib = Library.open(tmp_path / "lib", seed=False)
    try:
        lib.import_files([f])
        papers = lib.papers(lib.search("").ids)
        plain = "We get Õ(mn+κ n), O(T^(11/16)d^(3/8)) and O(poly(d)√(T)) regret."
        assert papers[0].plain_abstract == plain
        assert f"AB  - {plain}" in render(papers, ExportOptions(format="ris")).split("\r\n")
        [row] = csv.DictReader(io.StringIO(render(papers, ExportOptions(format="csv"))))
        assert plain in row.values()
        assert lib.search("poly").ids == [papers[0].id]  # the index has the name's word
    finally:
        lib.close()


def test_plain_tex_font_switches_are_read_as_latexs_commands():
    """{\\cal X} (PMLR's COLT and UAI 2025 files: 14 uses; 40 in the all-venues file) showed a plain X where
    \\mathcal{X} is 𝒳; {\\rm d} was italic where \\mathrm{d} is upright. A switch holds to the end of its group."""
    for raw, shown in [(r"{\cal X}", "𝒳"), (r"x \in \cal X\}", "x ∈ 𝒳}"), (r"\tilde{\cal O}(\epsilon^{-2})", "𝒪̃(ϵ⁻²)"),
                       (r"f \in {\cal F}_{\cal H}", "f ∈ ℱ_ℋ"), (r"D \in {\cal X}^n", "D ∈ 𝒳ⁿ"),
                       (r"{\cal T}\_{\mathrm{mat}}(a,b)", "𝒯_mat(a,b)"), (r"{\sf A}", "𝖠"),
                       (r"{\tt x}", "𝚡")]:  # fmt: skip
        assert math_plain(raw) == shown, raw
    for switch, command in [("cal", "mathcal"), ("rm", "mathrm"), ("bf", "mathbf"), ("it", "mathit"), ("sf", "mathsf")]:
        assert math_html(f"{{\\{switch} d}}x") == math_html(f"\\{command}{{d}}x"), switch
        if (
            switch != "it"
        ):  # {\\it d} in a title or an abstract is \\textit{d}, as {\\bf d} is \\textbf{d}: italic either way
            assert title_plain(f"${{\\{switch} d}}x$") == title_plain(f"$\\{command}{{d}}x$"), switch
    assert math_html(r"{\rm d}x") == UPRIGHT + "d</span>x"
    assert to_html(r"${\bf x}$ and ${\cal L}(x)$") == to_html(r"$\mathbf{x}$ and $\mathcal{L}(x)$")
    assert math_plain(r"\calX + \rmd") == "calX + rmd"  # an author's own commands, by their names
    assert math_plain(r"\cal A \rm B") == "𝒜B" and math_plain(r"\cal x" * 600) == "𝓍" * 600  # no nesting


def test_sans_serif_letters_are_unicodes_as_script_and_double_struck_ones_are():
    """\\mathsf{Attn} showed as a serif Attn (an upright span, plain letters) where \\mathcal{X} is 𝒳 and
    \\mathtt{x} 𝚡: its letters are Unicode's Mathematical Sans-Serif ones, upright in the detail pane."""
    assert math_plain(r"\mathsf{Attn}(x) + \mathsf{P} = \mathsf{NP}") == "𝖠𝗍𝗍𝗇(x) + 𝖯 = 𝖭𝖯"
    assert math_html(r"\mathsf{KL}(p\|q)") == UPRIGHT + "𝖪𝖫</span>(p‖q)"
    assert math_plain(r"t_{\mathsf{mix}}, \mathsf{poly}(\log n), \textsf{AxlePro}") == "t_𝗆𝗂𝗑, 𝗉𝗈𝗅𝗒(log n), 𝖠𝗑𝗅𝖾𝖯𝗋𝗈"
    assert math_plain(r"\mathsf{TC}^0") == "𝖳𝖢⁰"
    assert math_plain(r"\mathsf{W}_p^\varepsilon") == "𝖶_p^ε" and math_plain(r"\mathsf{\alpha x}") == "α 𝗑"
    assert math_plain(r"\mathtt{x}, \mathcal{X}, \mathbb{R}") == "𝚡, 𝒳, ℝ"


def test_a_formulas_font_letters_are_found_by_their_plain_letters(tmp_path):
    """The index folds 𝖠𝗍𝗍𝗇 and 𝒳 to their letters: "attn" finds \\mathsf{Attn}, as it found the plain Attn."""
    import json

    from readinglist.library import Library

    rows = [
        {"title": r"The ${\cal X}$-$\mathsf{Attn}$ Layer", "abstract": r"We bound $\mathsf{Regret}(T)$ on ${\cal H}$."}
    ]
    f = tmp_path / "p.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    lib = Library.open(tmp_path / "lib", seed=False)
    try:
        lib.import_files([f])
        [p] = lib.papers(lib.search("").ids)
        assert p.title == "The 𝒳-𝖠𝗍𝗍𝗇 Layer" and p.plain_abstract == "We bound 𝖱𝖾𝗀𝗋𝖾𝗍(T) on ℋ."
        assert lib.search("attn").ids == lib.search("regret").ids == [p.id]
    finally:
        lib.close()
