from readinglist import markup


def test_plain_decodes_latex_and_strips_markup():
    raw = r"We use \emph{self-feedback} and ``quotes'' with $\alpha_i$ and **bold** text (50% better)."
    plain = markup.to_plain(raw)
    assert "self-feedback" in plain and "\\emph" not in plain
    assert "“quotes”" in plain
    assert "α" in plain and "$" not in plain
    assert "**" not in plain and "bold" in plain
    assert "50% better" in plain  # a bare % is not a LaTeX comment here


def test_links_trim_trailing_punctuation_and_keep_balanced_parens():
    raw = "Code: https://github.com/a_b/c. See (https://x.org/a(b)). Also \\url{https://u.org/x}, and github.com/q/r"
    assert markup.extract_links(raw) == [
        "https://github.com/a_b/c",
        "https://x.org/a(b)",
        "https://u.org/x",
        "https://github.com/q/r",
    ]


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
