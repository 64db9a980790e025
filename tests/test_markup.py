import re

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
    assert markup.title_plain(r"{P}rotected $\ell_1$-regression") == "Protected ℓ_1-regression"


def test_escape_markdown():
    assert markup.escape_markdown("a*b_[c]") == r"a\*b\_\[c\]"


def test_malformed_latex_never_raises():
    for raw in [r"\href{x", r"$unclosed math", r"{{{", r"\end{abstract} tail", "\\"]:
        assert isinstance(markup.to_plain(raw), str)
        assert isinstance(markup.to_html(raw), str)
