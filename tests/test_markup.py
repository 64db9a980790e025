import re

import pytest

from readinglist import markup


def test_plain_decodes_latex_and_strips_markup():
    raw = r"We use \emph{self-feedback} and ``quotes'' with $\alpha_i$ and **bold** text (50% better)."
    plain = markup.to_plain(raw)
    assert "self-feedback" in plain and "\\emph" not in plain
    assert "“quotes”" in plain
    assert "α" in plain and "$" not in plain
    assert "**" not in plain and "bold" in plain
    assert "50% better" in plain  # a bare % is not a LaTeX comment here


def test_html_entities_without_tags_are_read_and_text_with_an_ampersand_is_left_alone():
    # a JabRef file's abstracts open "Abstract&nbsp;&nbsp;The effect …": shown raw, and "nbsp" was a related
    # paper's shared word
    assert markup.to_plain("Abstract&nbsp;&nbsp;The effect of x &amp; y") == "Abstract The effect of x & y"
    assert markup.to_plain("it&#8217;s &lt;fine&gt;") == "it’s <fine>"
    assert "&lt;fine&gt;" in markup.to_html("it&#8217;s &lt;fine&gt;")  # and written back escaped
    for text in ("R&D; AT&T and P&L", "Q&A &notanentity; x"):
        assert markup.to_plain(text) == text
    # a reference to a character markup reads is left as written: "&#36;5 to &#36;10" is no formula
    assert markup.to_plain("price &#36;5 to &#36;10 each") == "price &#36;5 to &#36;10 each"
    assert "<i>" not in markup.to_html("&#92;emph{this}")


def test_links_trim_trailing_punctuation_and_keep_balanced_parens():
    raw = "Code: https://github.com/a_b/c. See (https://x.org/a(b)). Also \\url{https://u.org/x}, and github.com/q/r"
    assert markup.extract_links(raw) == [
        "https://github.com/a_b/c",
        "https://x.org/a(b)",
        "https://u.org/x",
        "https://github.com/q/r",
    ]


def test_a_link_in_latex_text_is_read_through_its_escapes():
    # a BibTeX abstract is LaTeX: the export writes faster_rcnn as faster\_rcnn and ~ as \~{}; the link was cut
    # at the backslash (github.com/ShaoqingRen/faster, "_rcnn" left as text after it; research.microsoft.com/)
    raw = (
        r"Code: https://github.com/ShaoqingRen/faster\_rcnn. Data (https://www.research.microsoft.com/\~{}jojic/aihs),"
        r" http://a.org/\textasciitilde{}b/{\textasciitilde}c/\string~d/\textasciitilde e?x=1\&y=50\%25\#top and"
        r" github.com/u/a\_b. 73.2\% mAP."
    )
    links = [
        "https://github.com/ShaoqingRen/faster_rcnn",
        "https://www.research.microsoft.com/~jojic/aihs",
        "http://a.org/~b/~c/~d/~e?x=1&y=50%25#top",
        "https://github.com/u/a_b",
    ]
    assert markup.extract_links(raw) == links
    assert [r.text for r in markup.parse(raw) if r.kind == "url"] == links  # as the abstract shows them
    assert markup.to_plain(raw) == (
        "Code: https://github.com/ShaoqingRen/faster_rcnn. Data (https://www.research.microsoft.com/~jojic/aihs),"
        " http://a.org/~b/~c/~d/~e?x=1&y=50%25#top and https://github.com/u/a_b. 73.2% mAP."
    )
    html = markup.to_html(raw)
    assert '<a href="https://github.com/ShaoqingRen/faster_rcnn">' in html and "</a>_rcnn" not in html
    # an accent or a command after a URL still ends it
    assert markup.extract_links(r"see https://x.org/a\'e and https://y.org/b\footnote{c}") == [
        "https://x.org/a",
        "https://y.org/b",
    ]


def test_reading_a_link_through_escapes_stays_linear():
    import time

    for raw in ("https://x.org/" + "a\\_" * 100_000, "https://x.org/" + "\\textasciitilde" + " " * 200_000 + "!"):
        start = time.perf_counter()
        markup.extract_links(raw)
        markup.to_plain(raw)
        assert time.perf_counter() - start < 2.0


def test_markdown_keeps_math_and_converts_emphasis():
    md = markup.to_markdown(r"An \emph{important} \textbf{claim}: $O(n^2)$ time, ``really''.")
    assert "*important*" in md and "**claim**" in md
    assert "$O(n^2)$" in md
    assert "“really”" in md


def test_html_renders_emphasis_math_and_links_never_raw_commands():
    html = markup.to_html(r"\textit{Deep} nets: $\sum_{i=1}^{n} x_i^2 \leq \frac{1}{2}$ at https://github.com/o/r.")
    assert "<i>Deep</i>" in html
    assert "∑" in html and "<sub>i" in html and "≤" in html and "x<sub>i</sub>²" in html
    assert '<a href="https://github.com/o/r">' in html
    assert "\\" not in html and "$" not in html


def test_emphasis_inside_math_leaves_no_marker_characters():
    # COLM 2025 writes names as "$\\textit{LongPerceptualThoughts}$": the style markers reached the plain
    # text (so the derived title missed the name), the HTML and the Markdown export as private-use characters
    raw = r"we introduce $\textit{LongPerceptualThoughts}$ and $\textbf{VideoSAVi}$ with $\mathbf{x}_i$"
    private = re.compile("[\ue000-\uf8ff]")
    plain = markup.to_plain(raw)
    assert "LongPerceptualThoughts and VideoSAVi" in plain and not private.search(plain)
    html = markup.to_html(raw)
    assert "LongPerceptualThoughts" in html and not private.search(html)
    md = markup.to_markdown(raw)
    assert "$\\textit{LongPerceptualThoughts}$" in md and not private.search(md)


def test_html_highlights_matching_words_only():
    html = markup.to_html("Learning to learn", lambda w: w.lower() == "learning")
    assert html.count("background-color") == 1


def test_paragraph_separators_including_percent_lines():
    runs = markup.parse("First para.\n%\nSecond para.\n\nThird.")
    assert sum(r.kind == "para" for r in runs) == 2


def test_title_plain_removes_protective_braces():
    assert markup.title_plain(r"{P}rotected $\ell_1$-regression") == "Protected ℓ₁-regression"  # as abstracts show it


def test_escape_markdown():
    assert markup.escape_markdown("a*b_[c]") == r"a\*b\_\[c\]"


def test_malformed_latex_never_raises():
    for raw in [r"\href{x", r"$unclosed math", r"{{{", r"\end{abstract} tail", "\\"]:
        assert isinstance(markup.to_plain(raw), str)
        assert isinstance(markup.to_html(raw), str)


# ---- hostile text: bounded work, display-only breaking (issue 13.2) ----------------------------------


def test_long_tokens_are_broken_for_display_only():
    token = "a" * 5000
    html = markup.to_html(f"see {token} and https://x.org/{'b' * 300}")
    assert "\u200b" in html
    shown = html.replace("\u200b", "")
    assert token in shown and "x.org/" + "b" * 300 in shown  # nothing lost, only break points added
    visible = re.sub(r"<[^>]*>", " ", html)
    assert max(len(t) for t in re.split(r"[\s\u200b]+", visible)) <= markup.LONG_TOKEN
    assert 'href="https://x.org/' + "b" * 300 + '"' in html  # the link itself is untouched
    assert markup.to_plain(token) == token and markup.to_markdown(token) == token  # index and export keep it


def test_short_words_get_no_break_points():
    html = markup.to_html("An ordinary abstract with supercalifragilisticexpialidocious words.")
    assert "\u200b" not in html


def test_pathological_math_and_markup_never_raise_and_keep_their_text():
    hostile = {
        "nested": "$" + "{" * 3000 + "x" + "}" * 3000 + "$",
        "superscripts": "$" + "a^{b" * 3000 + "}" * 3000 + "$",
        "commands": "$" + "\\a^\\b" * 3000 + "$",
        "open parens": "\\(" * 3000,
        "stars": "**a " * 3000,
        "spaces": "a\nb" + " " * 30000 + "c",
        "closing parens": "https://x.org/a" + ")" * 3000,
        "trailing backslash": "$x\\",
    }
    for name, raw in hostile.items():
        html = markup.to_html(raw)
        assert isinstance(html, str) and html.startswith("<p>"), name
        assert isinstance(markup.to_plain(raw), str) and isinstance(markup.to_markdown(raw), str), name
    assert markup.extract_links(hostile["closing parens"]) == ["https://x.org/a"]


def test_a_huge_formula_is_shown_as_written():
    body = "\\alpha+" * 2000
    assert markup.to_plain(f"${body}$") == body.strip()
    assert "α" in markup.to_plain("$\\alpha+\\beta$")


def test_math_spans_match_the_dollar_and_bracket_forms():
    runs = markup.parse(r"a $x$ b $$y$$ c \(z\) d \[w\] e $unclosed")
    assert [r.text for r in runs if r.kind == "math"] == ["x", "y", "z", "w"]
    assert markup.to_plain("$$a$") == "a" or "$" in markup.to_plain("$$a$")


def test_truncated_html_shows_the_start_and_says_it_was_cut():
    short = "A short abstract."
    assert markup.truncated_html(short) == (markup.to_html(short), False)
    words = " ".join(f"word{i}" for i in range(20000))
    html, cut = markup.truncated_html(words, limit=1000)
    assert cut and "word0 " in html and "word19999" not in html and html.endswith(" …</p>")
    assert len(html) < 1200
    html, cut = markup.truncated_html("x" * 5000, limit=1000)  # no space to cut at: cut at the limit
    assert cut and html.replace("\u200b", "").count("x") == 1000


def test_iter_runs_is_parse_streamed():
    raw = r"\emph{Deep} $x^2$ at https://a.org/b.\n\nSecond **para**."
    assert list(markup.iter_runs(raw)) == markup.parse(raw)


def test_a_titles_math_is_plain_text_as_the_detail_pane_shows_an_abstracts():
    """ℓ₁-regression, not ℓ_1-regression: real sub- and superscripts where Unicode has them all."""
    from readinglist.markup import title_plain

    assert title_plain(r"Sparse $\ell_1$-regression") == "Sparse ℓ₁-regression"
    assert title_plain(r"$O(n^2)$ time for {B}ayes with $\alpha_i$") == "O(n²) time for Bayes with α_i"
    assert title_plain("A plain title") == "A plain title" and title_plain("") == ""


def test_highlighting_marks_a_matchers_spans_whole():
    """A matcher with spans(text) (a search's phrases) gets those ranges highlighted as one."""
    from readinglist.markup import to_html

    class Match:
        def __call__(self, word):
            return word == "late"

        def spans(self, text):
            start = text.find("early exit")
            return [(start, start + len("early exit"))] if start >= 0 else []

    shown = to_html("An early exit, a late exit.", Match())
    assert shown.count("<span") == 2 and ">early exit</span>" in shown and ">late</span>" in shown


def test_upright_commands_leave_the_formulas_italics_and_plain_text_has_no_tags():
    html = markup.math_html(r"\mathrm{KL}(q\|p) + \operatorname{tr} \mathbf{W}")
    assert '<span style="font-style:normal;">KL</span>(q‖p)' in html and 'font-weight:bold;">W</span>' in html
    assert markup.math_plain(r"\mathrm{KL}(q\|p)") == "KL(q‖p)"
    assert markup.math_plain(r"a^2 \mathrm{d}x") == "a² dx"


def test_a_hyphenated_word_highlights_the_half_that_matched_and_whole_when_both_did():
    """A pasted "Self-Aware Agents" highlighted all of "self-model" (found by the UX check)."""
    words = {"self", "aware"}

    def match(word: str) -> bool:  # as the search's highlighter: a word matches when one of its parts does
        return any(part.lower() in words for part in word.split("-"))

    mark = '<span style="background-color:#ffd54f;color:#000">'
    html = markup.to_html("A self-model is self-aware.", match)
    assert f"{mark}self</span>-model" in html and f"{mark}self-aware</span>" in html


def test_tex_logos_are_words_as_tex_sets_them():
    assert markup.title_plain(r"The {\TeX book}") == "The TeXbook"  # a space ends the command
    assert markup.title_plain(r"{\TeX}: The Program") == "TeX: The Program"
    assert markup.title_plain(r"\TeX{}book, \TeX  book") == "TeXbook, TeXbook"  # "{}" and spaces end it
    assert (
        markup.to_plain(r"The \LaTeX\ Companion, \LaTeXe{} and Bib\TeX.") == "The LaTeX Companion, LaTeX2ε and BibTeX."
    )


def test_hyphen_commands_are_hyphens_and_a_break_point_shows_nothing():
    """biblatex's \\hyphen and \\nbhyphen showed as written ("Self\\hyphenSupervised"), or went with the
    braces about them; hyphenat's \\hyp is PMLR's ("first\\hyp order"). A space after one ends it, as in TeX."""
    for raw in (
        r"Self\hyphen{}Supervised",
        r"{Self\hyphen{}Supervised}",
        r"Self\hyphen Supervised",
        r"Self\hyp{}Supervised",
    ):
        assert markup.title_plain(raw) == markup.to_plain(raw) == "Self-Supervised", raw
        assert markup.to_html(raw) == "<p>Self-Supervised</p>"
    assert (
        markup.to_plain(r"first\hyp order and Jean\nbhyphen Pierre, a\nobreakdash-b")
        == "first-order and Jean-Pierre, a-b"
    )
    assert markup.to_plain(r"hyphen\-ation, co\hyphenate{}operate") == "hyphenation, cooperate"  # no soft hyphen
    assert markup.to_plain(r"x-\hyphen{}-y") == "x---y"  # no en dash made of its "-"
    assert (
        markup.to_plain(r"thus far\textemdash and pages 1\textendash 5, \hypothesis")
        == "thus far—and pages 1–5, \\hypothesis"
    )
    assert markup.to_markdown(r"\emph{Self\hyphen Supervised}") == "*Self-Supervised*"


@pytest.mark.parametrize(
    ("raw", "plain"),
    [
        (r"hy\-phen, {GPU}\-accelerated, Über\-größe", "hyphen, GPUaccelerated, Übergröße"),  # LaTeX's break points
        (r"run grep \-v on [a-z\-] in C:\-dir", r"run grep \-v on [a-z\-] in C:\-dir"),  # a backslash and hyphen
        (r"a \- b, x\-2, \emph{see \-v}", r"a \- b, x\-2, see \-v"),
    ],
)
def test_a_break_point_is_one_only_inside_a_word_elsewhere_it_is_shown_as_written(raw, plain):
    """LaTeX's \\- (a place TeX may break a word) was taken out of any text that held it, "grep \\-v" of an
    abstract read "grep v"; it is LaTeX only inside a word, where it shows nothing (no soft hyphen either)."""
    assert markup.to_plain(raw) == plain
    assert markup.title_plain(raw) == plain


def test_operators_are_upright_and_spaces_are_kept_in_a_formula():
    """A display formula previewed "minπ 𝔼[c(s)] s.t.∑": \\min in italics, \\quad and "\\ " lost (a trial)."""
    html = markup.math_html(r"\min_\pi \mathbb{E}[c(s)] \quad \text{s.t.}\ \sum_i p_i")
    assert html.startswith('<span style="font-style:normal;">min</span><sub>π</sub>')
    assert "\u2003" in html and "s.t.</span> ∑" in html
    assert markup.title_plain(r"An $\mathcal{O}(n\log n)$ bound") == "An 𝒪(n log n) bound"  # not "nlog n"
    assert markup.title_plain(r"$\operatorname*{argmin}_x f$") == "argmin_x f"  # no stray star


def test_display_math_in_a_note_is_set_on_a_line_of_its_own():
    """A note's $$…$$ showed inline in the preview (trials): it is a paragraph of its own, opened by the mark
    the preview centres — beside text on its line, on lines of its own inside a paragraph, in a list item
    (indented, so it stays in the item) or a quote (its lines keep the `>`); inline math stays inline, and a
    table's row is left whole."""
    from readinglist.markup import DISPLAY_MATH, note_markdown

    def paragraphs(note: str) -> list[str]:
        return [p.strip() for p in note_markdown(note).split("\n\n") if p.strip()]

    before, formula, after = paragraphs("Before $$\\sum_i x_i$$ after.")
    assert before == "Before" and formula.startswith(DISPLAY_MATH) and "∑" in formula and after == "after."
    own_lines = ("Text line\n$$\\sum_i x_i$$\nmore", "Text line\n$$\n\\sum_i x_i\n$$\nmore", "Text line \\[x_i\\] more")
    for note in own_lines:
        first, formula, rest = paragraphs(note)
        assert first == "Text line" and formula.startswith(DISPLAY_MATH) and rest == "more", note
    assert note_markdown("- item $$x^2$$ here\n- two").startswith(f"- item \n\n  {DISPLAY_MATH}<span")
    assert note_markdown("1. $$x^2$$\n2. two").startswith(f"1. {DISPLAY_MATH}<span")  # the item's first text
    assert note_markdown("> quote $$x^2$$ q").startswith(f"> quote \n>\n> {DISPLAY_MATH}<span")
    assert DISPLAY_MATH not in note_markdown("Inline $x$ stays") and "\n" not in note_markdown("Inline $x$ stays")
    assert DISPLAY_MATH not in note_markdown("| a | $$x$$ |\n|---|---|")
    assert note_markdown(f"a{DISPLAY_MATH} $b$") == note_markdown("a $b$")  # the mark is never the note's own


def test_a_macro_of_the_papers_own_preamble_is_shown_as_written():
    # "The proposed method, \method, addresses": pylatexenc dropped it and the method's name with it (a trial);
    # type and spacing commands still show as nothing, common shorthands as what they stand for
    assert markup.to_plain(r"The proposed method, \method, addresses it; \ours{} wins") == (
        r"The proposed method, \method, addresses it; \ours wins"
    )
    assert markup.to_plain(r"\noindent We \texttt {fit} \left( x \right), \ie a test") == "We fit ( x ), i.e. a test"
    assert markup.title_plain(r"\method: a title") == r"\method: a title"


def test_braces_as_text_keeps_latex_groups_and_stays_linear():
    import time

    cases = {
        "{001} and {BERT}": "{001} and {BERT}",
        r"{\"o} {\em x} \href{http://a.org}{b} {c}": "ö x http://a.org {c}",
        r"\{x\} {y} $\{z\}$": "{x} {y} {z}",  # escaped braces: characters already, in text and in math
        "a} b {c": "a} b {c",
        "{D}eep {S}ets of {GAN}s": "Deep Sets of GANs",  # inside a word: BibTeX's protection, as JSON from BibTeX has
    }
    for raw, shown in cases.items():
        assert markup.title_plain(markup.braces_as_text(raw)) == shown, raw
    for hostile in ("{" * 100_000, "}" * 100_000, "\\" * 100_000 + "{", "$x$ {" * 30_000, "\\emph{" * 30_000):
        start = time.perf_counter()
        markup.braces_as_text(hostile)
        assert time.perf_counter() - start < 2.0


def test_a_tilde_after_a_space_is_the_sign_and_after_a_word_a_tie():
    """163 of the all-venues file's 94,374 abstracts write "~3x", "(~2000$)", "~12K": read as a tie (a space)
    they said "3x faster" where the authors wrote about 3x."""
    text = "We get ~3x speed (~2000$) on ~12K images; see Table~1, Fig.~2; x ~ N(0,1)."
    plain = markup.to_plain(text)
    assert plain == "We get ~3x speed (~2000$) on ~12K images; see Table 1, Fig. 2; x ~ N(0,1).", plain
    assert markup.title_plain("~100 classes with a tie~here") == "~100 classes with a tie here"
    assert "(~3x improvement)" in markup.to_html("less time (~3x improvement) and Table~1")
    # ties after a formula, a command, an escape or a quote, and before a word (a review; a real title)
    text = "With $k$~Experts, 50\\%~over, \\emph{hashing}~(DBH), criterion''~(FIC); Great~Truths~are ~Always"
    assert markup.to_plain(text) == "With k Experts, 50% over, hashing (DBH), criterion” (FIC); Great Truths are Always"
    # the sign in a path, a range, before a formula, a sign or O( (a review, on the shared corpora)
    text = "at cs.unc.edu/~ammirato, by 1%~5%, fairness (~$33$\\%), time ~O(1/g), (~+3%); in ~\\url{https://a.org/b}"
    assert (
        markup.to_plain(text)
        == "at cs.unc.edu/~ammirato, by 1%~5%, fairness (~33%), time ~O(1/g), (~+3%); in https://a.org/b"
    )


def test_braces_escaped_in_pairs_are_characters_and_a_lone_one_a_broken_accent():
    """`\\{001\\}` in a BibTeX title or abstract (IRIDIA's "into \\{SUMO\\}", an old AI file's "this \\{AI\\} field")
    came through as "001": braces escaped in pairs are characters; a `\\{` no `\\}` closes is as it was (COLT's
    `H\\{o}gsgaard`, `Cand\\{e}s`)."""
    assert markup.title_plain("Crystals Unifaceted with \\{001\\} or {\\{110\\} Planes}") == (
        "Crystals Unifaceted with {001} or {110} Planes"
    )
    assert markup.to_plain("Researchers in this \\{AI\\} field; \\{a \\{b\\} c\\}.") == (
        "Researchers in this {AI} field; a {b} c."
    )
    assert markup.to_plain("by H\\{o}gsgaard and Cand\\{e}s, \\} or \\{ alone") == "by Hogsgaard and Candes, or alone"
    assert markup.to_plain("sets $\\{0,1\\}^n$ and \\{\\emph{x}\\}") == "sets {0,1}^n and {x}"
    assert markup.to_html("an \\{\\textbf{x}\\}").count("{") == 1
