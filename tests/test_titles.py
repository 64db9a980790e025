from readinglist.importers.titles import derive_title, first_sentence_title, make_unique, method_title


def test_acronym_with_expansion():
    t = derive_title("In this paper, we propose Budgeted EXit Actor (BEXA), a novel actor-critic architecture that x.")
    assert t.startswith("BEXA: Budgeted EXit Actor")
    assert "actor-critic architecture" in t


def test_named_method():
    t = method_title("We propose a straightforward alternative named CapImagine, which teaches the model to imagine.")
    assert t is not None and t.startswith("CapImagine: ")


def test_we_introduce_camel_case():
    t = method_title("To bridge this gap, we introduce DeltaStack, which augments DeltaNet's memory with a stack.")
    assert t is not None and t.startswith("DeltaStack: ")


def test_first_sentence_cut_at_clause_boundary():
    text = (
        "Continual learning, the ability of a model to adapt to an ongoing sequence of tasks without forgetting "
        "earlier ones, is a central goal of artificial intelligence. More text."
    )
    t = first_sentence_title(text)
    assert len(t) <= 101
    assert t.startswith("Continual learning")
    assert not t.endswith(",")


def test_short_first_sentence_kept_whole():
    assert derive_title("Graphs are everywhere. We study them.") == "Graphs are everywhere"


def test_unique_titles():
    assert make_unique(["A", "A", "B"], {"B"}) == ["A", "A (2)", "B (2)"]
