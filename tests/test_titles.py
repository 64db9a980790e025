"""Derived titles for title-less abstracts (issue 19): one test per rule, and the bundled corpus."""

import gzip
import json
import re

import pytest
from conftest import ROOT, corpus

from readinglist.importers.titles import MAX_TITLE, derive_title, make_unique

# What a title must not end on (kept here, apart from the module's own lexicon, so the tests check it).
FUNCTION_WORDS = frozenset(
    str.split(
        """a an the this that these those its their our of in on at by for from to into with within without via
    over under between among through and or but nor as than which who whose where when while whether if is
    are was were be been has have had can could may might will would should it we they such novel new"""
    )
)


def ends_badly(title: str) -> str | None:
    if len(title) > MAX_TITLE:
        return "too long"
    if title.endswith(("…", "...", ",", ";", ":", "-", "(")):
        return "cut"
    if title.count("(") != title.count(")"):
        return "unbalanced bracket"
    if title and not (title[0].isalnum() or title[0] in "(“\"'$"):
        return "starts on punctuation"
    words = re.findall(r"[^\W_][\w'\-]*", title)  # a name in capitals ("(IT)") is not the word "it"
    last = words[-1] if words else ""
    return f"ends on {last!r}" if last in FUNCTION_WORDS else None


def bundled_abstracts() -> list[str]:
    text = (ROOT / "corpus" / "icml2026.txt").read_text(encoding="utf-8")
    return [p.strip() for p in text.split("\n\n")[1:] if p.strip()]


# The names the bundled abstracts introduce ("we propose X", "X, a …", "named X", "Long Form (X)"), by hand.
BUNDLED_NAMES = {
    0: "BEXA",
    2: "SVOO",
    3: "Holmes",
    5: "PaperGuard",
    6: "Self-RedTeam",
    7: "DDSVM",
    11: "PRISM",
    12: "FIRE-BENCH",
    13: "TaRO",
    16: "DeltaStack",
    17: "CapImagine",
    18: "OGPO",
}


def test_bundled_corpus_titles_name_their_method():
    abstracts = bundled_abstracts()
    assert len(abstracts) == 19
    for i, name in BUNDLED_NAMES.items():
        title = derive_title(abstracts[i])
        assert title.startswith(f"{name}: "), (i, title)
        assert len(title) > len(name) + 8, (i, title)  # the name and what it is


def test_bundled_corpus_titles_read_as_titles():
    titles = [derive_title(a) for a in bundled_abstracts()]
    for t in titles:
        assert ends_badly(t) is None, t
        assert not t.lower().startswith(("we ", "in this paper", "this paper")), t
    for i, t in enumerate(titles):
        if i not in BUNDLED_NAMES:  # no name introduced: the abstract's words, no invented name prefix
            assert ":" not in t, t


def test_every_neurips_abstract_gets_a_title_that_reads_as_one():
    """8k real abstracts (LaTeX, placeholders, a 16k-character one): no error, none ends badly."""
    with gzip.open(corpus("neurips_1987_2018.jsonl.gz"), "rt", encoding="utf-8") as f:
        abstracts = [json.loads(line).get("abstract") or "" for line in f]
    bad = [(t, why) for t in map(derive_title, abstracts) if (why := ends_badly(t))]
    assert not bad, bad[:10]


def test_acronym_with_expansion():
    t = derive_title("In this paper, we propose Budgeted EXit Actor (BEXA), a novel actor-critic architecture that x.")
    assert t.startswith("BEXA: ")
    assert "Budgeted EXit Actor" in t or "actor-critic architecture" in t


def test_name_then_long_form_in_parentheses():
    t = derive_title(
        "We propose TaRO (Temporal-Aware Reasoning Optimization), a framework that enhances thinking with time."
    )
    assert t == "TaRO: Temporal-Aware Reasoning Optimization"


def test_name_in_apposition():
    t = derive_title(
        "Uncertainty is hard to model. To address this, we propose Holmes, a hierarchical evidential learning "
        "framework that aggregates cross-modal evidence. Holmes is evaluated on four benchmarks."
    )
    assert t.startswith("Holmes: Hierarchical evidential learning framework")


def test_called_named_dubbed():
    for verb in ("called", "named", "dubbed"):
        t = derive_title(
            f"Graph models are slow. We present a message-passing scheme {verb} Graphite for sparse graph "
            "transformers. Graphite is fast."
        )
        assert t.startswith("Graphite: "), (verb, t)


def test_which_clause_becomes_what_it_does():
    t = derive_title(
        "To bridge this gap, we introduce DeltaStack, which augments DeltaNet's associative memory with a "
        "lightweight, differentiable stack."
    )
    assert t.startswith("DeltaStack: Augmenting DeltaNet's associative memory")


def test_a_tool_used_is_not_the_name():
    # the titles the issue quotes: "CCA: Canonical Correlation Analysis" for a paper using CCA, "FFT" alone
    t = derive_title(
        "Single-cell data come in several views. We present a multi-view clustering method that builds on "
        "Canonical Correlation Analysis (CCA) to align single-cell views. The clustering scales to millions of cells."
    )
    assert not t.startswith("CCA"), t
    assert "clustering" in t.lower(), t
    t = derive_title(
        "We develop a scalable Gaussian process regression method using the Fast Fourier Transform (FFT) on "
        "regular grids. Gaussian process regression on grids becomes linear in the grid size."
    )
    assert not t.startswith("FFT"), t
    assert "Gaussian process regression" in t, t
    t = derive_title(
        "Generative adversarial networks (GANs) are hard to train. We propose GANs with a spectral penalty "
        "for stable training. Our GANs train stably."
    )
    assert not t.startswith("GANs:"), t  # named before it was "proposed": the field, not a new method


def test_acronym_followed_by_a_noun_is_a_modifier_not_the_name():
    t = derive_title(
        "We propose a novel sentence-level semantic KV caching approach designed to enhance inference efficiency."
    )
    assert not t.startswith("KV:"), t
    assert "KV caching" in t


def test_no_name_gives_the_contribution_not_the_first_sentence():
    t = derive_title(
        "We study a safe reinforcement learning problem in which the constraints are defined as the expected "
        "cost over finite-length trajectories. We propose a constrained cross-entropy method to solve this "
        "problem. The method explicitly tracks its performance with respect to constraint satisfaction."
    )
    assert "cross-entropy method" in t or "safe reinforcement learning" in t.lower(), t
    assert not t.startswith("We "), t
    assert ends_badly(t) is None, t


def test_to_verb_becomes_for_verbing():
    t = derive_title(
        "Backdoor attacks threaten federated learning. We propose an invariant aggregator to defend against "
        "federated backdoor attacks. The aggregator is robust."
    )
    assert t == "Invariant aggregator for defending against federated backdoor attacks"


def test_no_trailing_function_word_or_cut_on_long_sentences():
    t = derive_title(
        "Deep neural networks, and in particular recurrent networks, are promising candidates to control "
        "autonomous agents that interact in real-time with the physical world, and the streaming rollout of "
        "deep networks over time and the model-parallel execution of their layers are studied."
    )
    assert ends_badly(t) is None, t
    assert len(t) <= MAX_TITLE


def test_a_dropped_first_modifier_takes_its_comma_with_it():
    t = derive_title("We propose a simple, optimistic Q-learning algorithm for regret minimization in MDPs.")
    assert t[0].isalnum(), t


def test_a_phrase_pulled_back_leaves_a_whole_bracket_behind():
    t = derive_title("We build a personalized parametric model (pose-driven avatar) using a single camera.")
    assert t.count("(") == t.count(")"), t
    assert t == "Personalized parametric model", t


def test_long_titles_stop_at_a_phrase_boundary():
    words = " ".join(f"component{i}" for i in range(40))
    t = derive_title(f"We propose a method for {words} estimation. It works.")
    assert len(t) <= MAX_TITLE
    assert ends_badly(t) is None, t


@pytest.mark.parametrize(
    "abstract",
    ["", "   ", "We", "of", "Abstract Unavailable", "$x^2$", "🙂 🙂", "(((", "a " * 500, "x" * 5000],
)
def test_odd_abstracts_still_get_a_title(abstract):
    t = derive_title(abstract)
    assert t and len(t) <= MAX_TITLE + 3


def test_deterministic():
    abstracts = bundled_abstracts()
    assert [derive_title(a) for a in abstracts] == [derive_title(a) for a in abstracts]


def test_plain_text_given_gives_the_same_title():
    from readinglist.markup import to_plain

    for a in bundled_abstracts()[:5]:
        assert derive_title(a, plain=to_plain(a)) == derive_title(a)


def test_unique_titles():
    assert make_unique(["A", "A", "B"], {"B"}) == ["A", "A (2)", "B (2)"]


def test_import_derives_titles_and_keeps_them_unique(empty_lib, tmp_path):
    import json

    src = tmp_path / "papers.jsonl"
    abstract = "We propose BEXA."  # two abstracts, one title
    src.write_text("\n".join(json.dumps({"abstract": abstract + suffix}) for suffix in ("", " It is.")) + "\n")
    empty_lib.import_files([src])
    titles = sorted(p.title for p in empty_lib.papers(empty_lib.search("").ids))
    assert titles == ["BEXA", "BEXA (2)"]


def test_a_title_the_file_gives_twice_is_kept_as_it_is(empty_lib, tmp_path):
    # a reprint, an edition: "Information Theory and Statistics (2)" was stored, shown and exported (a trial);
    # a derived title still keeps clear of the file's own
    import json

    rows = [{"title": "Information Theory and Statistics", "abstract": "A book.", "year": 1959},
            {"title": "Information Theory and Statistics", "abstract": "A reprint.", "year": 1968},
            {"abstract": "We propose BEXA."}, {"title": "BEXA", "abstract": "Another paper."}]  # fmt: skip
    src = tmp_path / "twice.jsonl"
    src.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    empty_lib.import_files([src])
    titles = sorted(p.title for p in empty_lib.papers(empty_lib.search("").ids))
    assert titles == ["BEXA", "BEXA (2)", "Information Theory and Statistics", "Information Theory and Statistics"]


def test_migration_0023_takes_the_number_off_a_files_own_title(empty_lib, tmp_path):
    import json

    src = tmp_path / "one.jsonl"
    src.write_text(json.dumps({"title": "Ant Colony Optimization", "abstract": "Ants."}) + "\n")
    empty_lib.import_files([src])
    with empty_lib.store.transaction() as db:  # as an import before session 27 left it
        db.execute("UPDATE papers SET auto_title = 'Ant Colony Optimization (3)'")
    from readinglist.store import _m0023_own_titles_without_numbers

    with empty_lib.store.transaction() as db:
        _m0023_own_titles_without_numbers(db)
        _m0023_own_titles_without_numbers(db)
    assert [p.title for p in empty_lib.papers(empty_lib.search("").ids)] == ["Ant Colony Optimization"]


# ---- names the first rules missed (issue 19, second pass): one case per rule -------------------------------


def test_past_tense_after_we_introduces_a_name():
    t = derive_title(
        "Motivated by these insights, we developed PyramidKV, a novel and effective KV cache compression method."
    )
    assert t.startswith("PyramidKV: "), t


def test_past_tense_without_we_is_someone_elses():
    t = derive_title(
        "We find that the previously developed FooNet, a large model, is slow. We speed up the training "
        "of sparse graph transformers with caching."
    )
    assert not t.startswith("FooNet"), t


def test_us_to_introduce():
    t = derive_title(
        "Signals on graphs are hard. This motivates us to introduce the BLIS-Net (Bi-Lipschitz Scattering Net), "
        "a novel GNN that builds on geometric scattering."
    )
    assert t.startswith("BLIS-Net: "), t


def test_us_to_propose_states_the_contribution():
    t = derive_title(
        "This is a long-standing problem. This motivates us to propose a constrained cross-entropy method for "
        "safe policy search."
    )
    assert t == "Constrained cross-entropy method for safe policy search", t


@pytest.mark.parametrize(
    "abstract, name",
    [
        (
            "We introduce a “superword” tokenizer, SuperBPE, which incorporates a pretokenization curriculum.",
            "SuperBPE",
        ),
        ("To assess this, we introduce 🏹 CUPID, a benchmark of 756 human-curated interaction histories.", "CUPID"),
        ("To address this gap, we introduce _LawFlow_, a dataset of complete end-to-end legal workflows.", "LawFlow"),
        ("In our proposed graphical model framework ‘TibGM’, inference is efficient.", "TibGM"),
    ],
)
def test_quote_marks_emoji_and_underscores_around_a_name(abstract, name):
    assert derive_title(abstract).startswith(f"{name}: "), derive_title(abstract)


def test_a_family_of_still_introduces():
    t = derive_title(
        "In this paper, we develop a family of group-aware prior (GAP) distributions over network weights."
    )
    assert t.startswith("GAP: "), t


def test_title_case_long_forms_run_over_and_and_commas():
    t = derive_title(
        "In this paper, we present Strategic Planning, Interaction, and Negotiation (SPIN-Bench), a new "
        "multi-domain evaluation of social reasoning."
    )
    assert t.startswith("SPIN-Bench: Strategic Planning, Interaction, and Negotiation"), t
    t = derive_title(
        "Our Capture and Resolve Assisted Bounding Strategy (CRABS) employs shallow syntactic parsing of notebooks."
    )
    assert t.startswith("CRABS: Capture and Resolve Assisted Bounding Strategy"), t
    t = derive_title(
        "We introduce Actively Discovering and Adapting to Preferences for any Task (ADAPT) – a benchmark for agents."
    )
    assert t.startswith("ADAPT: Actively Discovering and Adapting to Preferences for any Task"), t


def test_comma_before_the_bracket():
    from readinglist.importers.titles.abstract import Abstract
    from readinglist.importers.titles.names import find_name

    abstract = "We present ALignment via Fine-grained Attributes, (ALFA) a framework that improves question-asking."
    assert derive_title(abstract).startswith("ALFA: ALignment via Fine-grained Attributes")
    name = find_name(Abstract.read(abstract))
    assert name is not None and name.long == "ALignment via Fine-grained Attributes"  # the comma not in it


def test_capitals_marked_inside_words_spell_the_name():
    """Letter matching alone reads "stAte compRession" as STAR; the marked capitals say where the name starts."""
    from readinglist.importers.titles.abstract import Abstract
    from readinglist.importers.titles.names import find_name

    t = derive_title(
        "Multi-agent tasks have rich observations. To overcome this limitation, we propose a novel method named "
        "Spatio-Temporal stAte compRession (STAR) that learns compressed states. STAR beats the baselines."
    )
    assert t.startswith("STAR: Spatio-Temporal stAte compRession"), t
    abstract = (
        "In this paper, we propose Suppression-Enhancing Mask based attention and Interactive Channel "
        "transformatiON (SEMICON) to learn binary hash codes. In SEMICON, we first develop a suppression-enhancing "
        "mask (SEM) based attention. Our SEM restrains such regions. The hash learning of our SEMICON is fast."
    )
    name = find_name(Abstract.read(abstract))
    assert name is not None and name.text == "SEMICON", name
    assert name.long == "Suppression-Enhancing Mask based attention and Interactive Channel transformatiON"
    # letters that end before the bracket are no mark of where the name is: the usual long form stands
    abstract = (
        "We propose a CausaL intervention model for implicit sEntiment ANalysis using instrumental variable (CLEAN)."
    )
    name = find_name(Abstract.read(abstract))
    assert name is None or name.long != abstract[11:-9], name


def test_a_module_or_a_part_enumerated_after_the_whole_is_not_the_name():
    """The network the abstract brings in first, not its modules: "Firstly, we introduce the … (DSW)" after
    "we present … (DAGCN)", "a … (SME) module", "a multi-modal interaction module called SCA"."""
    t = derive_title(
        "In this paper, we present Distance-based and Aspect-oriented Graph Convolutional Network (DAGCN) for "
        "aspect-based sentiment analysis. Firstly, we introduce the Distance-based Syntactic Weight (DSW). "
        "Secondly, we design the Aspect-Fusion Attention (AF). The DSW and AF help. DSW is simple."
    )
    assert t.startswith("DAGCN: "), t
    t = derive_title(
        "Glass is hard to segment. In this paper, we propose a Selective Mutual Evolution (SME) module to enable "
        "reciprocal feature learning. To refine it, we introduce a Reciprocal Feature Evolution Network (RFENet) "
        "for glass segmentation. Our SME helps and SME is fast."
    )
    assert t.startswith("RFENet: "), t
    # the first of several contributions, enumerated, is no part: a dataset "First" brought in stays the name
    t = derive_title(
        "We tackle the problem of retrieving drawings. First, we introduce DeepPatent, a new large-scale dataset "
        "for recognition and retrieval of design patent drawings. We develop a baseline model, named PatentNet, "
        "for retrieval. PatentNet trained on DeepPatent beats the others, on DeepPatent."
    )
    assert t.startswith("DeepPatent: "), t


def test_the_whole_the_parts_make_is_the_name():
    """ "the overall pipeline, dubbed SteinDreamer" names what the paper built with its Stein Score Distillation."""
    t = derive_title(
        "Score distillation has high variance. Based on Stein's identity, we propose a general solution to reduce "
        "variance for score distillation, termed Stein Score Distillation (SSD). SSD uses control variates. In our "
        "experiments, the overall pipeline, dubbed SteinDreamer, is implemented with a depth estimator. SSD works."
    )
    assert t.startswith("SteinDreamer: "), t


def test_a_lower_case_long_form_is_not_the_name():
    t = derive_title("We propose the augment-REINFORCE-swap-merge (ARSM) gradient estimator that is unbiased.")
    assert t.startswith("ARSM: "), t


def test_dubbed_as():
    t = derive_title("Our method enhances rotated models by achieving dual freedom, dubbed as DFRot. DFRot is fast.")
    assert t.startswith("DFRot: "), t


def test_a_title_case_name_of_several_words():
    t = derive_title(
        "In this work, we introduce N-Gram Coverage Attack, a membership inference attack that relies on text outputs."
    )
    assert t.startswith("N-Gram Coverage Attack: "), t


def test_a_name_with_its_version_number():
    t = derive_title("We present OLMo 2, the next generation of our fully open language models. OLMo 2 is dense.")
    assert t.startswith("OLMo 2: "), t


def test_name_described_as_new_anywhere_in_the_sentence():
    t = derive_title("Finally, we scale our pipeline to produce FineWeb2, a new multilingual dataset of web text.")
    assert t.startswith("FineWeb2: "), t


def test_of_two_names_the_one_built_on_the_other():
    t = derive_title(
        "We propose a class of adaptive Gradient Descent Ascent (GDA) methods for minimax problems. Specifically, "
        "we propose a fast Adaptive Gradient Descent Ascent (AdaGDA) method based on momentum."
    )
    assert t.startswith("AdaGDA: "), t


def test_we_call_names_the_last_word_of_its_clause():
    t = derive_title(
        "To simplify our discussion, we introduce a new RNN cell with a simple gating mechanism that we call the "
        "minimalRNN and compare it with vanilla RNNs. Vanilla RNNs train slowly."
    )
    assert t.startswith("minimalRNN: "), t


def test_a_sentence_with_we_call_brings_a_name():
    t = derive_title(
        "We develop a network that mimics the denoising-based approximate message passing (D-AMP) algorithm. "
        "We call this new network Learned D-AMP (LDAMP). The LDAMP network is easy to train."
    )
    assert t.startswith("LDAMP: Learned D-AMP"), t


def test_a_name_whose_singular_came_before_is_not_new():
    t = derive_title(
        "Our analysis starts from the standard RNN cell of sequence models. We introduce RNNs, a broad family of "
        "recurrent models, and study their trainability."
    )
    assert not t.startswith("RNNs:"), t  # not the introduced name (it may still be what the title is about)


def test_a_name_whose_plural_came_before_is_not_new():
    t = derive_title(
        "State-space models (SSMs) are an efficient alternative to attention. However, existing SSMs struggle to "
        "capture multi-scale dependencies. This paper introduces a multi-scale SSM framework that represents "
        "sequence dynamics across multiple resolutions."
    )
    assert not t.startswith("SSM:"), t  # the field's acronym, used before in the plural, is not the paper's name


def test_name_written_as_emphasised_math():
    t = derive_title(r"In this paper, we introduce $\textit{LongPerceptualThoughts}$, a new synthetic dataset.")
    assert t.startswith("LongPerceptualThoughts: "), t


def test_an_acronym_after_a_modifier_stays_inside_the_phrase():
    t = derive_title("We give sufficient conditions for the difference of convex (DC) algorithm to converge.")
    assert t == "Sufficient conditions for the difference of convex (DC) algorithm", t


def test_words_titles_carry_are_worth_more_than_abstract_speak():
    from readinglist.importers.titles.abstract import Abstract

    ab = Abstract.read("We propose results. We propose bandits.")  # the same count, sentence and place
    assert ab.worth("bandits") > 3 * ab.worth("results")


def test_worth_is_the_fitted_model_the_table_tool_fits():
    # Abstract.worth writes the model out for speed; benchmarks/title_words.py fits it on worth_features
    import math

    from readinglist.importers.titles.abstract import WORTH_WEIGHTS, Abstract, norm, worth_features

    ab = Abstract.read("We propose GraphNet, a network for graphs. Graphs are everywhere. GraphNet works on graphs.")
    for word in ("GraphNet", "graphs", "network", "everywhere", "propose"):
        z = sum(w * x for w, x in zip(WORTH_WEIGHTS, worth_features(ab, norm(word), word), strict=True))
        assert math.isclose(ab.worth(word), 1 / (1 + math.exp(-z)), rel_tol=1e-9), word


def test_the_subject_acronym_joins_a_title_that_lacks_it():
    # real titles name the field or model they work in inside the noun phrase ("Training GANs with optimism")
    # the abstract never spells GANs out: the opening's "failure of GANs" joins the contribution as its topic
    # ("… for GANs"), a phrase with a name counting more; without it, the acronym is appended ("… in GANs")
    t = derive_title(
        "Mode collapse is a known failure of GANs. We propose a discriminator ensemble with diverse receptive "
        "fields. The ensemble keeps GANs from collapsing, and GANs trained with it cover more modes."
    )
    assert t.startswith("Discriminator ensemble") and t.endswith((" for GANs", " in GANs")), t
    assert ends_badly(t) is None, t
    # spelt out in the opening, the subject is named either way: by its long form (with the acronym beside
    # it) where the phrase takes it, else appended
    t = derive_title(
        "Mode collapse is a known failure of generative adversarial networks (GANs). We propose a discriminator "
        "ensemble with diverse receptive fields. The ensemble keeps GANs from collapsing, and GANs trained "
        "with it cover more modes."
    )
    assert t.startswith("Discriminator ensemble") and "GANs" in t.replace("(", " ").replace(")", " ").split(), t
    assert t.count("GANs") == 1 and ends_badly(t) is None, t


def test_the_subject_acronym_is_not_added_twice():
    # the body has the long form (or words spelling it): the acronym is there already, or put beside it
    t = derive_title(
        "We study generative adversarial networks. We propose a spectral penalty for generative adversarial "
        "networks that stabilises training. GANs with the penalty converge; GANs without it oscillate."
    )
    assert t.lower().count("generative adversarial networks") == 1, t
    assert not t.endswith(("in GANs", "for GANs")), t


def test_a_data_set_or_venue_is_not_the_subject():
    # what a paper was run on or where it appeared (a digit: a data set; the lexicon's venues and data sets)
    for used in ("CIFAR-10", "ImageNet", "NeurIPS"):
        t = derive_title(
            "We propose a contrastive objective for label-noise robust image classification. The objective "
            f"needs no clean subset. On {used}, on {used} with synthetic noise and on {used} subsets, it trains "
            "faster."
        )
        assert t == "Contrastive objective for label-noise robust image classification", (used, t)


def test_an_introduced_name_stays_first_with_the_subject_after_it():
    t = derive_title(
        "We introduce ChartFix, a decoding scheme that checks each number against the chart image. ChartFix "
        "needs no training. Vision-language models (VLMs) misread charts; with ChartFix, VLMs of every size "
        "read charts better, and VLMs from three families gain."
    )
    assert t == "ChartFix: Decoding scheme for vision-language models (VLMs)", t  # spelt out, where it fits


def test_referred_to_as_names_the_method():
    t = derive_title(
        "Adaptive gradient methods depend on the dimension. To alleviate this, we propose a simple variant of "
        "adaptive gradient descent for strongly convex optimization. The variant (referred to as SAGRAD) "
        "restarts periodically. Experiments confirm that SAGRAD converges faster."
    )
    assert t.startswith("SAGRAD: "), t


def test_the_proposed_long_form_names_the_method_with_its_head_noun():
    # "The proposed Long Form (ACR) algorithm …": the paper's own method; the noun after the bracket is
    # the long form's head ("… algorithm"), not a description after a comma ("…, algorithm")
    t = derive_title(
        "We study a distributed algorithm for nonconvex problems. The proposed NonconvEx primal-dual "
        "SpliTTing (NESTT) solver splits the problem into subproblems. NESTT converges in fewer rounds "
        "than gradient methods."
    )
    assert t.startswith("NESTT: NonconvEx primal-dual SpliTTing"), t
    t = derive_title(
        "Collaborative filtering methods seldom handle very large datasets. In this paper we present the Sparse "
        "Rating Factorization (SRF) model which scales linearly with the number of observations and performs "
        "well on sparse ratings. We further extend the SRF model to include an adaptive prior on the model "
        "parameters. Finally, we introduce a constrained version of the SRF model for users with few ratings."
    )
    assert t == "SRF: Sparse Rating Factorization model", t


def test_a_generic_head_does_not_open_the_title():
    # "Method for X", "Framework for X": real titles say X (the words the F1 against real titles misses most)
    for head in ("a method", "an algorithm"):
        t = derive_title(
            f"Existing tools need many demonstrations. We propose {head} for synthesizing complex programs from "
            "input-output examples. It learns to compose sub-programs."
        )
        assert t == "Synthesizing complex programs from input-output examples", (head, t)


def test_an_acronym_is_not_put_inside_a_longer_word_or_beside_another():
    # "mixture-rank matrix approximation (MRMA)" must not land on the "rank matrix approximation" of
    # "low-rank matrix approximation (LRMA)"
    t = derive_title(
        "Low-rank matrix approximation (LRMA) methods have achieved excellent accuracy in collaborative "
        "filtering. In existing LRMA methods, the rank is fixed. In this paper, a mixture-rank matrix "
        "approximation (MRMA) method is proposed, in which ratings are a mixture of LRMA models with different "
        "ranks. Experiments show that MRMA outperforms LRMA-based methods."
    )
    assert ") (" not in t, t
    assert "low-rank matrix approximation (MRMA)" not in t.lower(), t


# ---- the title-word table: shipped, with its source and licence, and rebuilt from the ACL Anthology ----------

_ACL_SOURCE = re.compile(r"ACL Anthology, acl-org/acl-anthology, commit [0-9a-f]{40}, CC BY 4\.0")


def test_the_shipped_title_word_table_states_its_source_and_licence():
    from readinglist.paths import resources_dir

    table = resources_dir() / "title_words.tsv"
    text = table.read_text(encoding="utf-8")
    header = "\n".join(line for line in text.splitlines() if line.startswith("#"))
    source = _ACL_SOURCE.search(header)
    assert source, header
    assert "creativecommons.org/licenses/by/4.0" in header
    notice = (resources_dir() / "NOTICE.md").read_text(encoding="utf-8")
    assert source.group(0) in notice  # the same commit in the bundle's notice
    assert table.stat().st_size < 300_000  # counts, not text: a small bundle
    rows = [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]
    assert rows[0][0] == "*" and len(rows) > 1000
    for word, in_abstracts, in_titles in rows:
        assert word and 0 <= int(in_titles) <= int(in_abstracts), word


def test_the_table_makes_title_words_worth_more_than_abstract_speak_words():
    # what the table learnt from real titles: at the same count, sentence and place, "translation" (a topic)
    # is worth more than "approach" (abstract-speak, which the lexicon alone would also rate low) and "paper"
    from readinglist.importers.titles.abstract import Abstract

    ab = Abstract.read("We propose translation approach paper. It works.")
    assert ab.worth("translation") > 2 * ab.worth("approach")
    assert ab.worth("translation") > 2 * ab.worth("paper")


_ACL_XML = """<?xml version='1.0' encoding='UTF-8'?>
<collection id="2021.test">
  <volume id="main">
    <meta><booktitle>Proceedings</booktitle><year>2021</year></meta>
    <paper id="1">
      <title><fixed-case>B</fixed-case>ERT-Style Tagging for <tex-math>k</tex-math>-best Parsing</title>
      <abstract>We propose a tagger for the parsing of sentences with <tex-math>\\alpha</tex-math> smoothing and
      show that the tagger is faster than a chart parser on the treebank of the task and of <i>other</i>
      languages as well.</abstract>
    </paper>
    <paper id="2">
      <title>No Abstract Here</title>
    </paper>
    <paper id="3">
      <title>Un analyseur</title>
      <abstract>Nous proposons un analyseur syntaxique pour le français, évalué sur un corpus arboré de
      phrases longues et courtes, avec des résultats meilleurs que ceux des analyseurs existants.</abstract>
      <language>fra</language>
    </paper>
    <paper id="4">
      <title>BERT-style tagging for k-best parsing</title>
      <abstract>The same paper again in another volume: it is counted once, as the anthology lists some
      papers twice, and a table must not weigh a word by a paper it saw twice over.</abstract>
    </paper>
  </volume>
  <volume id="old">
    <meta><booktitle>Old</booktitle><year>2005</year></meta>
    <paper id="1">
      <title>Tagging Before 2010</title>
      <abstract>We propose a tagger for the parsing of sentences and show that the tagger is faster than a
      chart parser on the treebank of the task and of other languages as well, and more.</abstract>
    </paper>
  </volume>
</collection>
"""


def test_the_table_tool_reads_the_anthology_xml(tmp_path):
    from benchmarks import title_words

    xml = tmp_path / "data" / "xml"
    xml.mkdir(parents=True)
    (xml / "2021.test.xml").write_text(_ACL_XML, encoding="utf-8")
    (xml / "broken.xml").write_text("<collection><volume>", encoding="utf-8")  # skipped with a message
    xml_dir, commit = title_words.acl_source(tmp_path, "0" * 40)
    assert xml_dir == xml and commit == "0" * 40
    papers = list(title_words.acl_papers(xml_dir))
    # markup gone from the title (fixed-case to its text, tex-math to $…$), 2005, French, no abstract, the
    # repeated title: left out
    assert [t for t, _ in papers] == ["BERT-Style Tagging for $k$-best Parsing"]
    assert "<i>" not in papers[0][1] and "other languages" in papers[0][1]
    n, in_abstract, in_both = title_words.count(title_words.acl_rows(xml_dir))
    assert n == 1
    assert in_abstract["tagger"] == 1 and in_both["tagger"] == 0  # "tagging" in the title, not "tagger"
    assert in_both["parsing"] == 1 and in_both["propose"] == 0
    out = tmp_path / "title_words.tsv"
    title_words.write_table(n, in_abstract, in_both, f"ACL Anthology, acl-org/acl-anthology, commit {commit}, "
                            "CC BY 4.0", 2010, out)  # fmt: skip
    assert _ACL_SOURCE.search(out.read_text(encoding="utf-8"))


def test_the_table_tool_refuses_a_folder_without_the_anthology(tmp_path):
    from benchmarks import title_words

    with pytest.raises(SystemExit, match="no data/xml"):
        title_words.acl_source(tmp_path, None)


def test_we_call_outranks_a_long_form_introduced_beside_it():
    t = derive_title(
        "Boosted trees are slow on wide data. We propose two techniques: Gradient-based One-Side Sampling (GOSS) "
        "and Exclusive Feature Bundling (EFB). With GOSS, we drop instances with small gradients, and GOSS keeps "
        "the rest. We call our new boosted tree implementation with GOSS and EFB QuickTree."
    )
    assert t.startswith("QuickTree: "), t


def test_two_modifiers_joined_by_and_still_introduce_the_name():
    t = derive_title(
        "Computing the top singular vectors is costly. In this paper, we put forward a new and simple LazyPCA "
        "framework to speed up this computation. It runs faster than block Krylov methods."
    )
    assert t.startswith("LazyPCA: "), t


def test_the_phrase_a_name_ends_says_what_it_is():
    t = derive_title(
        "We propose a fast and lightweight anchor-free instance segmentation approach QuickMask. It runs in real "
        "time on phones."
    )
    assert t.startswith("QuickMask: "), t
    assert "instance segmentation approach" in t.lower(), t


def test_a_long_form_takes_the_word_whose_initial_it_needs():
    # Schwartz and Hearst's rule alone finds the second "e" inside "enhanced" and leaves "edge" out
    t = derive_title(
        "Graph networks ignore edges. In view of this, we propose a new framework, edge enhanced graph neural "
        "network (EEGNN). EEGNN improves node classification on citation graphs."
    )
    assert t.startswith("EEGNN: Edge enhanced graph neural network"), t


def test_a_name_defined_after_a_colon():
    t = derive_title(
        "Deep learning suits quantum chemistry. We apply continuous-filter layers in MolNet: a novel deep learning "
        "architecture modeling quantum interactions in molecules. It predicts energies and forces."
    )
    assert t.startswith("MolNet: "), t
    t = derive_title(
        "Distributed reinforcement learning needs abstractions. We show the benefits of this principle through "
        "RayRL: a library that provides scalable primitives for reinforcement learning."
    )
    assert t.startswith("RayRL: "), t


def test_of_two_acronyms_used_as_often_the_subject_is_the_one_the_contribution_names():
    t = derive_title(
        "Gradient descent (GD) with a large step size is unstable in theory, yet GD trains networks well. "
        "Stochastic updates add noise to the sharpness. Specifically, we provide an explicit condition on the step "
        "size that is necessary for the stable behaviour of SGD near a minimum. Experiments confirm that SGD "
        "follows it."
    )
    assert "SGD" in t.split(), t


def test_a_phrase_with_a_name_counts_more():
    # "Deep networks in SGD" without it: the phrase that names SGD is what the paper is about
    t = derive_title(
        "Deep networks trained with SGD generalize well. We study the convergence of SGD on two-layer feedforward "
        "networks with ReLU activations under Gaussian inputs. We prove global convergence in polynomial time."
    )
    assert t.startswith("Convergence of SGD"), t


def test_a_phrase_with_a_term_the_abstract_abbreviates_counts_more_still():
    from readinglist.importers.titles.abstract import Abstract
    from readinglist.importers.titles.assembly import contribution, topic

    abstract = (
        "In this paper, we study the individual preference (IP) stability, which is a notion capturing individual "
        "fairness and stability in clustering. Within this setting, a clustering is α-IP stable when each point is "
        "close to its cluster. In this paper, we study the natural local search algorithm for IP stable "
        "clustering. Our analysis confirms a logarithmic guarantee for this algorithm."
    )
    # of the contribution sentences' objects and the opening's phrases (the phrases inside a contribution
    # sentence aside), the one with the abbreviated term
    ab = Abstract.read(abstract)
    phrases = [c for c in contribution(ab, MAX_TITLE) if not c.sub] + topic(ab, MAX_TITLE)
    best = max(phrases, key=lambda c: c.score).text
    assert "individual preference (IP)" in best.lower().replace("(ip)", "(IP)"), best


def test_to_derive_after_we_states_the_contribution():
    t = derive_title(
        "Difference-of-convex decompositions drive the convex-concave procedure. In this work, we leverage tools "
        "from algebraic geometry to derive sparse constructions of convex decompositions for graphical model "
        "inference. Our experiments show large speed-ups."
    )
    assert t.startswith("Sparse constructions of convex decompositions"), t


def test_a_capital_joined_by_a_hyphen_is_a_subject_acronym():
    from readinglist.importers.titles.abstract import Abstract
    from readinglist.importers.titles.assembly import subject_acronym

    ab = Abstract.read(
        "Value-based methods are a common class of algorithms in reinforcement learning. Their behaviour with "
        "function approximation is poorly understood, and Q-learning often diverges. In this work, we investigate "
        "potential issues with a unit testing framework built on oracles. We find that large architectures make "
        "Q-learning more stable."
    )
    found = subject_acronym(ab)
    assert found is not None and found[0] == "Q-learning", found


def test_a_gerund_keeps_its_object():
    # "PAC learning" alone without it: the noun phrase ended on the gerund, before its object's article
    t = derive_title(
        "We study the problem of PAC learning a linear combination of k ReLU activations under the standard "
        "Gaussian distribution with respect to the square loss. Our main result is an efficient algorithm for "
        "this learning task."
    )
    assert t.startswith("PAC learning a linear combination"), t


def test_modifiers_joined_by_and_stay_in_the_noun_phrase():
    # the noun phrase ended at "and", before its noun: the contribution sentence gave no phrase at all
    t = derive_title(
        "Precision medicine needs patient subgroups. To overcome these challenges, we propose a simple and "
        "scalable approach for cluster-aware embedding that combines latent factor methods with a convex "
        "clustering penalty."
    )
    assert t.startswith("Scalable approach for cluster-aware embedding"), t
    t = derive_title(
        "In this paper, we present a simple yet highly effective adversarial training mechanism for regularizing "
        "neural language models. It improves perplexity on standard benchmarks."
    )
    assert t.startswith("Effective adversarial training mechanism for regularizing"), t
    t = derive_title(
        "Precision medicine needs patient subgroups. To overcome these challenges, we propose a fast and "
        "scalable approach for cluster-aware embedding that combines latent factor methods with a convex "
        "clustering penalty."
    )
    assert t.startswith("Fast and scalable approach for cluster-aware embedding"), t


def test_a_name_and_the_plural_after_it_introduced_together():
    # "RNNs" alone was the name (and used before, so dropped): the acronym before it is the new model's
    t = derive_title(
        "Recurrent neural networks (RNNs) struggle with long-term dependencies. We take an orthogonal approach "
        "and introduce FAST RNNs, a delay-line RNN architecture that allows direct connections from the distant "
        "past. FAST RNNs need fewer computations than LSTM."
    )
    assert t.startswith("FAST RNNs: "), t


def test_a_name_opening_the_sentence_after_a_nameless_contribution():
    t = derive_title(
        "Directed latent variable models sample fast but need a fixed prior. We propose a novel approach to "
        "learning the joint distribution between the data and a latent code with an adversarially learned "
        "iterative procedure. GibbsFlow is the best of both worlds in theory and in practice. GibbsFlow needs "
        "only a few sampling steps."
    )
    assert t.startswith("GibbsFlow: "), t
    # one that the abstract never uses again is not taken (an aside: "ANN is …")
    t = derive_title(
        "Directed latent variable models sample fast but need a fixed prior. We propose a novel approach to "
        "learning the joint distribution between the data and a latent code with an adversarially learned "
        "iterative procedure. GibbsFlow is the best of both worlds in theory and in practice."
    )
    assert not t.startswith("GibbsFlow:"), t
    # used before the contribution, it is background, not the paper's name
    t = derive_title(
        "GibbsFlow samples slowly from directed latent variable models. We propose a novel approach to learning "
        "the joint distribution between the data and a latent code. GibbsFlow is then shown to be a special case."
    )
    assert "GibbsFlow" not in t.split(":")[0], t
    # nor a name that opens a sentence after one stating nothing
    t = derive_title(
        "Directed latent variable models sample fast but need a fixed prior. Sampling the joint distribution "
        "requires many steps. GibbsFlow is a popular sampler for such models."
    )
    assert not t.startswith("GibbsFlow:"), t


def test_names_in_brackets_after_what_the_contribution_yields():
    t = derive_title(
        "Explanation methods for deep networks are not correct even for linear models. Based on our analysis of "
        "linear models we propose a generalization that yields two explanation techniques (SignalNet and "
        "SignalAttribution) that are sound for linear models."
    )
    assert t.startswith(("SignalNet: ", "SignalAttribution: ")), t
    # examples of existing things in brackets are not the contribution
    t = derive_title(
        "Neural abstract machines are hard to train. We propose trace-based supervision for training existing "
        "neural abstract machines (TapeNet and StackNet) on algorithmic tasks."
    )
    assert not t.startswith(("TapeNet", "StackNet")), t  # not the name (the phrase may still mention them)


def test_propose_with_a_name_then_what_it_is():
    t = derive_title(
        "Shapley interactions are costly to compute exactly. Hence, we propose with SVARM-XY a sampling-based "
        "approach to efficiently approximate Shapley-based interaction indices of any order."
    )
    assert t.startswith("SVARM-XY: "), t
    # "with X" after a verb that uses something is a tool
    t = derive_title(
        "Shapley interactions are costly to compute exactly. Hence, we estimate them with KernelSHAP, a "
        "sampling-based approach to approximate interaction indices of any order."
    )
    assert not t.startswith("KernelSHAP:"), t


def test_the_verb_lexicon_is_the_same_in_every_process():
    """VERB_FORM was built by iterating a set of strings, whose order follows the process's hash seed, and
    "leads" was listed as a base besides "lead": one process read "leads" as a base ("Redundant sensors for
    leadsing to parallel robots"), the next as a form of "lead". No base is another's regular form, and a
    child process with another hash seed builds the same table."""
    import subprocess
    import sys

    from readinglist.importers.titles.lexicon import VERB_FORM, VERBS, _verb_forms

    forms = {f: b for b in VERBS for f in _verb_forms(b)}
    assert not [b for b in VERBS if forms.get(b, b) != b]
    code = "from readinglist.importers.titles.lexicon import VERB_FORM as V; print(sorted(V.items()))"
    for seed in ("1", "2"):
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True,
            env={**__import__("os").environ, "PYTHONHASHSEED": seed},
        ).stdout  # fmt: skip
        assert out.strip() == str(sorted(VERB_FORM.items()))
    from readinglist.importers.titles.phrases import verb_base

    assert verb_base("leads") == "lead"


# ---- titles that name only the field (issue 19, session 10): one case per rule ---------------------------------

# What each of these bundled abstracts opens on: its field, not its contribution (each has a contribution sentence
# later, or its opening's contribution is about something inside the field), by hand.
BUNDLED_FIELDS = {
    1: "Multimodal large language models (MLLMs) extend large language models (LLMs) with visual perception for "
    "open-world understanding",
    4: "infinite-horizon partially observable Markov decision processes (POMDPs) under memoryless stochastic policies",
    8: "Follow the regularized leader (FTRL) is the premier algorithm for online optimization",
    10: "Offline goal-conditioned RL (OGCRL) learns to reach arbitrary goals from the offline dataset (KP)",
    14: "Continual learning, the ability of a model to adapt to an ongoing sequence of tasks without forgetting "
    "earlier ones",
    15: "Advances in generative modeling have recently been adapted to tabular data containing discrete and "
    "continuous features",
}


def _stems(text: str) -> set[str]:
    words = re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", text.lower())
    return {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in words} - FUNCTION_WORDS


def test_bundled_titles_are_not_only_the_field():
    """A title names only the field when all its words come from the field the opening names: the title must
    say something of what the abstract contributes ("Multimodal large language models (MLLMs)" did not)."""
    abstracts = bundled_abstracts()
    for i, field in BUNDLED_FIELDS.items():
        assert field.split(" ")[0].lower() in abstracts[i].lower()
        t = derive_title(abstracts[i])
        assert not _stems(t) <= _stems(field), (i, t)


def test_a_long_form_too_long_for_the_chain_gives_its_acronym():
    # the chain stopped before "in infinite-horizon partially observable … (POMDPs)": it did not fit
    t = derive_title(
        "We study the geometry of feasible value functions in infinite-horizon partially observable Markov "
        "decision processes (POMDPs) under memoryless stochastic policies. The feasible set is a polytope in fully "
        "observable ones."
    )
    assert t == "Geometry of feasible value functions in infinite-horizon POMDPs", t


def test_our_main_contribution_is_states_the_contribution():
    t = derive_title(
        "Sparse phase retrieval is a classical problem in statistics and signal processing. Our main contribution "
        "is a characterization of the optimal sample complexity of sparse phase retrieval under heavy tails. "
        "Experiments agree."
    )
    assert t.startswith("Characterization of"), t


def test_long_forms_spelt_by_their_words_initials():
    from readinglist.importers.titles.names import long_forms
    from readinglist.importers.titles.tagging import tag

    def found(sentence: str) -> dict[str, str]:
        s = tag(sentence)
        return {s.words[a]: " ".join(s.words[b : a - 1]) for a, b in long_forms(s).items()}

    assert found("Follow the regularized leader (FTRL) is the premier algorithm.") == {
        "FTRL": "Follow the regularized leader"
    }
    assert found("Learning to rank (LTR) orders documents.") == {"LTR": "Learning to rank"}
    assert found("We fit an attitude and heading reference system (AHRS) to it.") == {
        "AHRS": "attitude and heading reference system"
    }
    assert found("We fit a 3D morphable model (3DMM) to faces.") == {"3DMM": "3D morphable model"}
    # a verb, an article or a relative word does not open a long form by chance
    assert found("This is done with a kernel (DONE).") == {}
    assert found("The model that we then apply (TWA) works.") == {}


def test_a_tool_fitted_in_brackets_is_not_the_name():
    # "3DMM" was taken as the name of what the sentence yields ("… model (3DMM)"): it is the model's long form
    t = derive_title(
        "Face reconstruction from one image is ill-posed. We propose a regression network that predicts the "
        "coefficients of a 3D morphable model (3DMM) from a single photograph."
    )
    assert not t.startswith("3DMM"), t


def test_a_citation_placeholder_is_not_a_name():
    t = derive_title(
        "Graph models are slow on large inputs. We propose a sparse message-passing framework (CITATION) for "
        "graph transformers."
    )
    assert not t.startswith("CITATION"), t


def test_a_head_that_says_nothing_gives_way_to_what_follows_it():
    t = derive_title(
        "Phase retrieval recovers a signal from magnitudes. In this paper, we address two questions about the "
        "sample complexity of sparse phase retrieval under heavy-tailed noise."
    )
    assert not t.lower().startswith("two questions") and "phase retrieval" in t.lower(), t
    t = derive_title("Phase retrieval recovers a signal from magnitudes. In this paper, we address two questions.")
    assert not t.lower().startswith("two questions"), t


def test_what_we_do_states_the_contribution_when_no_cue_does():
    t = derive_title(
        "Advances in generative modeling have recently been adapted to tabular data containing discrete "
        "features. However, generating mixed-type features remains challenging. We advance the state-of-the-art "
        "in diffusion models for tabular data with a cascaded approach."
    )
    assert t == "Diffusion models for tabular data", t
    # what we show, evaluate or use is not a contribution
    t = derive_title(
        "Tabular data hold discrete and continuous features. Generating them is hard. We evaluate diffusion "
        "models on ten benchmarks."
    )
    assert not t.lower().startswith("ten benchmarks"), t


def test_a_phrase_inside_the_contribution_sentence_may_be_the_title():
    # the object ("reference-policy self-feedback framework") says little; what it is for says what it is about
    t = derive_title(
        "Multimodal large language models (MLLMs) extend large language models with visual perception, but they "
        "hallucinate. Departing from existing pipelines, we propose a reference-policy self-feedback framework "
        "that constructs preference data for hallucination mitigation without external supervision."
    )
    assert "hallucination mitigation" in t.lower(), t


def test_the_opening_field_counts_less_than_a_stated_contribution():
    from readinglist.importers.titles.abstract import Abstract
    from readinglist.importers.titles.assembly import FIELD_WEIGHT, contribution, topic

    assert FIELD_WEIGHT < 1
    abstract = (
        "Continual learning is a central goal of artificial intelligence. Forgetting limits it. We propose a "
        "replay buffer for quadratic networks."
    )
    ab = Abstract.read(abstract)
    best_topic = max(c.score for c in topic(ab, MAX_TITLE)) * FIELD_WEIGHT
    best_contribution = max(c.score for c in contribution(ab, MAX_TITLE))
    assert best_contribution < best_topic / FIELD_WEIGHT  # the field alone would win on its words' worth
    t = derive_title(abstract)
    assert "replay buffer" in t.lower(), t


def test_a_long_form_that_does_not_read_as_a_noun_phrase_ends_a_title_as_its_acronym():
    t = derive_title(
        "Follow the regularized leader (FTRL) is the premier algorithm for online optimization. Its convergence "
        "in potential games is poorly understood. We establish an exponential lower bound on the convergence time "
        "of no-regret dynamics."
    )
    assert "follow the regularized leader" not in t, t


def test_analysis_takes_its_topic_with_of():
    t = derive_title(
        "Sparse phase retrieval is a classical problem in statistics and signal processing. Our main contribution "
        "is a characterization."
    )
    assert " for " not in t, t


def test_a_ligature_capitalised_does_not_lengthen_the_title():
    from readinglist.importers.titles.assembly import _capitalise

    assert _capitalise("ﬁnding extrema") == "ﬁnding extrema"
    assert _capitalise("finding extrema") == "Finding extrema"


def test_a_lower_case_term_found_by_its_initials_is_not_the_name():
    # with its long form found by the initials ("… localization and mapping (SLAM)"), the term was taken as the
    # name the sentence introduces
    t = derive_title(
        "Service robots need maps. In this paper, we propose a collaborative visual simultaneous localization and "
        "mapping (SLAM) framework for service robots."
    )
    assert not t.startswith("SLAM:"), t


def test_the_paper_itself_is_not_a_contribution_phrase():
    # "In this paper, a novel approach is proposed": the passive's first phrase was "paper" ("Paper for CNNs")
    t = derive_title(
        "Convolutional neural networks (CNNs) generalize poorly to unseen domains. Domain generalization learns "
        "from source domains. In this paper, a novel approach is proposed based on mixing instance-level feature "
        "statistics. Our method, termed MixStyle, is motivated by image style."
    )
    assert not t.split(": ")[-1].lower().startswith("paper"), t


# abstracts write long forms in title case; a sentence-case title does not ("… for federated Learning (FL)" was
# what lowering only the phrase's first word gave); names of people and makers keep their capitals, a common
# word is lowered however it ends ("Mean"), and a name's expansion, which opens the body, stays as written
LOWERED_LONG_FORMS = [
    ("a robust estimator for Large Language Models (LLMs) under heavy-tailed gradient noise",
     "Robust estimator for large language models (LLMs)"),
    ("a robust estimator for Mixture-of-Experts (MoE) routers",
     "Robust estimator for mixture-of-experts (MoE) routers"),
    ("a robust estimator for Mean Squared Error (MSE) minimisation under heavy-tailed noise",
     "Robust estimator for mean squared error (MSE) minimisation"),
    ("a robust estimator for Gaussian Mixture Models (GMMs) under heavy-tailed noise",
     "Robust estimator for Gaussian mixture models (GMMs)"),
    # found by the project's Schwartz-Hearst rule (acronyms.long_form), every letter of the acronym: the
    # capitals alone ("V", "G" of VGrow) missed "Flow"; and an eponym's possessive keeps its capital
    ("a robust estimator for Variational Gradient Flow (VGrow) models",
     "Robust estimator for variational gradient flow (VGrow) models"),
    ("a robust estimator for Nesterov's Accelerated Gradient (NAG) methods",
     "Robust estimator for Nesterov's accelerated gradient (NAG) methods"),
    ("a retrieval model for the Stanford Question Answering Dataset (SQuAD) with long contexts",
     "Retrieval model for the Stanford Question Answering Dataset (SQuAD)"),
]  # fmt: skip


@pytest.mark.parametrize(("proposed", "title"), LOWERED_LONG_FORMS)
def test_a_title_case_long_form_is_lowered_inside_the_title(proposed, title):
    t = derive_title(f"Heavy tails hurt estimators. We propose {proposed}. The estimator is simple.")
    assert t == title, t


def test_a_long_form_is_lowered_but_not_a_name_or_a_names_expansion():
    t = derive_title(
        "Sequential decisions are often modelled with Markov Decision Processes (MDPs). We propose a sampling "
        "scheme for Markov Decision Processes (MDPs) with large state spaces. It converges faster."
    )
    assert t == "Sampling scheme for Markov decision processes (MDPs)", t
    t = derive_title(
        "We propose Deep Evidential Regression (DER), a method for calibrated uncertainty from a single forward "
        "pass. DER needs no sampling."
    )
    assert t == "DER: Deep Evidential Regression", t


def test_a_names_expansion_in_title_case_keeps_its_capitals_to_the_bracket():
    # "Probabilistic Robust AutoEncoder (RAE)" is what PRAE stands for: the acronym in brackets spells only
    # its tail, which is no reason to lower "Robust"
    t = derive_title(
        "Outliers hurt autoencoders. We propose PRAE, a Probabilistic Robust AutoEncoder (RAE) that removes "
        "outliers. PRAE is robust."
    )
    assert t.startswith("PRAE: Probabilistic Robust AutoEncoder (RAE)"), t


def test_a_name_of_several_title_case_words_is_kept_whole():
    # "named Kernel Implicit Variational Inference" gave "Kernel: Implicit Variational Inference"
    t = derive_title(
        "Recent progress in variational inference has paid much attention to the flexibility of variational "
        "posteriors. In this paper, we present a new approach named Kernel Implicit Variational Inference that "
        "addresses these challenges. It scales to large models."
    )
    assert t == "Kernel Implicit Variational Inference", t  # not "…: Addressing these challenges"
    t = derive_title(
        "We study the problem of repeated play in a zero-sum game in which the payoff matrix may change on each "
        "round; we call these Online Matrix Games. We design an algorithm with sublinear regret."
    )
    assert t.startswith("Online Matrix Games: "), t
    # "we call X tractable": the capitalised word is a modifier of what is called, not a name
    t = derive_title(
        "We call an Ising model tractable when it is possible to compute its partition function value in "
        "polynomial time. We describe algorithms for the basic case, computing partition function and sampling "
        "efficiently."
    )
    assert not t.startswith("Ising:"), t


def test_a_phrase_pointing_back_into_the_abstract_gives_way():
    # "… into this goal-driven web navigation task" says nothing in a title read alone
    t = derive_title(
        "Training agents to navigate websites is hard. We propose a method for transforming a website into "
        "this goal-driven web navigation task. Agents trained on it generalise."
    )
    assert t == "Goal-driven web navigation task for training agents", t
    # after a name, the other phrases when every one the abstract gives it points back
    t = derive_title(
        "Recent progress in variational inference has paid much attention to the flexibility of variational "
        "posteriors. In this paper, we present a new approach named KIVI that addresses these challenges. KIVI "
        "scales to large models with implicit posteriors."
    )
    assert t.startswith("KIVI: ") and not re.search(r"\b(this|these|such|its|their)\b", t), t


def test_bundled_corpus_bold_initials_are_not_capitals():
    # session 22's defect: the bold initials that spell "SVOO" ("**S**parse", "**V**ideo") kept their capitals
    t = derive_title(bundled_abstracts()[2])
    assert t == "SVOO: Training-free sparse attention framework for fast video generation", t


def test_bundled_corpus_shorthand_is_not_appended():
    # "keypoint (KP)" was appended as the abstract's field: "Routing through bottlenecks for … (OGCRL) in KP"
    t = derive_title(bundled_abstracts()[10])
    assert t == "Routing through bottlenecks for offline goal-conditioned RL (OGCRL)", t


def test_bundled_corpus_topic_is_not_cut_from_a_coordination():
    # "The integration of LLMs and Multimodal LLMs (MLLMs) into scientific peer-review workflows" gave
    # "PaperGuard: Benchmark for multimodal LLMs (MLLMs) into scientific peer-review workflows"
    t = derive_title(bundled_abstracts()[5])
    assert t.startswith("PaperGuard: Benchmark for ") and " into " not in t, t


def test_bundled_corpus_a_terms_adverb_stays():
    # "Partially relevant video retrieval" lost its adverb: "Holmes: … for relevant video retrieval" (a trial)
    t = derive_title(bundled_abstracts()[3])
    assert t == "Holmes: Hierarchical evidential learning framework for partially relevant video retrieval", t


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (
            "Fully convolutional networks are widely used for segmentation. We study their training.",
            "Fully convolutional networks",
        ),
        (
            "Highly efficient solvers are rare. Recently proposed methods fail on large instances.",
            "Efficient solvers",  # an intensifier is no part of a term: dropped from a title's start
        ),
    ],
)
def test_a_terms_own_adverb_stays_and_an_intensifier_goes(abstract, title):
    assert derive_title(abstract) == title


def test_bold_initials_that_spell_the_name_are_not_capitals():
    # the capital is the source's typography; a title-case run of spelt words (the name's expansion) is kept
    for bold in ("**{}**", "\\textbf{{{}}}", "<b>{}</b>"):
        s, v = bold.format("S"), bold.format("V")
        t = derive_title(
            f"Video models are slow. We propose SVOO, a training-free {s}parse attention framework for fast "
            f"{v}ideo generation. SVOO is fast."
        )
        assert t == "SVOO: Training-free sparse attention framework for fast video generation", (bold, t)
    t = derive_title(
        "Bandits are hard to evaluate. We propose SPEED, **S**tructured **P**olicy **E**valuation **E**xperimental "
        "**D**esign, a design for policy evaluation. SPEED is optimal."
    )
    assert t.startswith("SPEED: Structured Policy Evaluation Experimental Design"), t
    # a capital the source did not set apart stays ("Sparse" as written)
    t = derive_title(
        "Video models are slow. We propose SVOO, a training-free Sparse attention framework for fast video "
        "generation. SVOO is fast."
    )
    assert "Sparse attention" in t, t


def test_a_shorthand_for_one_word_is_not_the_subject():
    # "keypoint (KP)" is the abstract's shorthand: "… in KP" tells a reader nothing; a field's acronym of three
    # letters or more for one word (EEG) and an acronym of several words still join the title
    body = (
        "We study offline goal-conditioned learning over long horizons. We propose bottleneck routing for "
        "long-horizon planning. Boundary states serve as {} candidates; the {} graph links the {} and the {} "
        "are reached in turn."
    )
    t = derive_title(body.format("keypoint (KP)", "KP", "KPs", "KPs"))
    assert t == "Offline goal-conditioned learning over long horizons", t
    t = derive_title(body.format("graph state (GS)", "GS", "GSs", "GSs"))
    assert t == "Offline goal-conditioned learning over long horizons in graph state (GS)", t
    t = derive_title(body.format("electroencephalogram (EEG)", "EEG", "EEG", "EEG"))
    assert t == "Offline goal-conditioned learning over long horizons in EEG", t


def test_referred_to_as_introduces_a_name():
    # "referred to as" and "which we refer to as" name what the sentence brings in, as "called" does
    t = derive_title(
        "Many optimizers exist. We devise a novel algorithm, referred to as Recursive One-Over-T SGD (ROOT-SGD), "
        "based on recursive averaging of past stochastic gradients. ROOT-SGD is fast."
    )
    assert t.startswith("ROOT-SGD: "), t
    t = derive_title(
        "Offline reinforcement learning is pessimistic. We propose a lookahead pessimistic model for offline "
        "learning, which we refer to as LP-MDP, and show that it plans further ahead. LP-MDP is fast."
    )
    assert t.startswith("LP-MDP: "), t


def test_our_method_in_apposition_names_it():
    # "Our method, the Long Form (ACR), …", "Our methods, NAME 1 and 2, …": the name of the contribution
    t = derive_title(
        "Scheduling is hard. Our method, the Bayesian Active Site Calculator (BASC), outperforms differential "
        "evolution on adsorption problems."
    )
    assert t.startswith("BASC: Bayesian Active Site Calculator"), t
    t = derive_title(
        "Matrix completion is hard. We propose two methods for low-rank matrix completion on a Riemannian "
        "manifold. Our methods, RTRMC 1 and 2, outperform state-of-the-art algorithms on many problem instances."
    )
    assert t.startswith("RTRMC: "), t
    # not someone else's: an apposition after another word than "our <method>"
    t = derive_title(
        "Scheduling is hard. Their method, the Bayesian Active Site Calculator (BASC), is slow. We propose a "
        "greedy scheduler for adsorption problems."
    )
    assert not t.startswith("BASC"), t


def test_the_code_links_name_is_the_methods_when_nothing_else_names_it():
    abstract = (
        "Online learning is hard for deep models. We propose a multilearner architecture that trains shallow and "
        "deep learners together online. It adapts its depth to the stream. We make our code available: "
        "https://github.com/AntonValk/{}"
    )
    assert derive_title(abstract.format("MODL")).startswith("MODL: "), derive_title(abstract.format("MODL"))
    # a repository's name that is no method's name: words joined by underscores, a venue and year
    for repo in ("QN_With_Guarantees", "Deep-Hash-Table-ICML18", "readinglist"):
        t = derive_title(abstract.format(repo))
        assert t == "Multilearner architecture for online learning", (repo, t)


def test_a_name_defined_as_what_its_sentence_is_about():
    # "X is a simple extension to …": the abstract defines its own X (used for the first time)
    t = derive_title(
        "Instability of deep reinforcement learning algorithms hurts their performance. Averaged-DQN is a simple "
        "extension to the DQN algorithm, based on averaging previously learned Q-values estimates."
    )
    assert t.startswith("Averaged-DQN: "), t
    # "X is a recent successful …" is someone else's, and so is a name used before
    for abstract in (
        "Imitation learning needs many samples. GAIL is a recent successful imitation learning architecture that "
        "uses adversarial training. We make it sample-efficient with off-policy updates.",
        "We study GAIL in depth. GAIL is a method that uses adversarial training. We make it sample-efficient.",
    ):
        assert not derive_title(abstract).startswith("GAIL:"), derive_title(abstract)


def test_a_subject_acronym_keeps_its_lower_case_head():
    # "t-SNE" is not "SNE", nor "k-NN" "NN"; a longer head is a modifier ("meta-RL" counts for RL)
    from readinglist.importers.titles.abstract import Abstract
    from readinglist.importers.titles.assembly import subject_acronym

    ab = Abstract.read(
        "Data visualization is a first line of attack in exploratory data analysis. The t-SNE heuristic is the "
        "standard for it. We analyse the performance of t-SNE on clusterable data."
    )
    assert subject_acronym(ab) == ("t-SNE", ""), subject_acronym(ab)
    t = derive_title(ab.text)
    assert "t-SNE" in t and " SNE" not in t, t
    ab = Abstract.read(
        "Sample efficiency matters in RL. We propose a meta-RL algorithm that reuses experience. Our meta-RL "
        "agent learns new tasks in a few episodes."
    )
    assert subject_acronym(ab) == ("RL", ""), subject_acronym(ab)


def test_a_long_form_in_the_title_gets_its_acronym_beside_it():
    # the subject acronym is spelt out in the title: a reader scans for "PCA", so it stands beside its long
    # form ("Sparse principal component analysis (PCA)"); not beside words whose initials merely spell it
    t = derive_title(
        "Sparse principal component analysis is a basic problem. We give a reduction that yields the first full "
        "characterization of the computational barrier for it. Lower bounds for PCA, and for sparse PCA, "
        "follow; we also discuss principal component analysis (PCA) in general."
    )
    assert t == "Sparse principal component analysis (PCA)", t
    t = derive_title(
        "Lossy population recovery is a basic problem. We give the first efficient algorithm for it. The "
        "algorithm uses linear programming (LP); the LP is small."
    )
    assert "(LP)" not in t, t


def test_a_name_given_after_or_is_the_name():
    # "… called the compact WY (or CWY) transform", "a memory-efficient convolution or MEC": the alias after
    # "or" is what the paper calls it, brought in where the words it stands for are
    t = derive_title(
        "Orthogonal matrices are slow to parametrize. We propose employing an accumulation scheme called the "
        "compact WY (or CWY) transform, a compact matrix representation for a series of Householder reflections. "
        "Our CWY method is fast on GPUs."
    )
    assert t.startswith("CWY: "), t
    t = derive_title(
        "Convolution is a critical component in modern deep neural networks. In this work, we propose a "
        "memory-efficient convolution or MEC with compact lowering, which reduces memory overhead substantially. "
        "MEC lowers the input matrix in a simple way."
    )
    assert t.startswith("MEC: Memory-efficient convolution"), t
    t = derive_title(
        "We study the problem of causal identification from observational and experimental distributions. We "
        "call this problem g-identifiability, or gID for short. The gID setting encompasses two known problems."
    )
    assert t == "gID: G-identifiability", t


def test_a_follow_on_does_not_displace_the_name_it_builds_on():
    # "We also propose an extension, SDF-Bayes-AR": the paper's name is the one it extends
    t = derive_title(
        "Phase I clinical trials test the safety of drugs. This paper proposes a novel Bayesian design, SDF-Bayes, "
        "for finding the maximum tolerated dose for drug combinations. SDF-Bayes proceeds by cautious optimism. "
        "We also propose an extension, SDF-Bayes-AR, that accounts for patient heterogeneity."
    )
    assert t.startswith("SDF-Bayes: "), t
    # "further" beside "we" or the verb makes a follow-on, not "To further accelerate …, we propose AdaGDA"
    t = derive_title(
        "Minimax problems are everywhere. We propose a gradient descent ascent method, GDA, for nonconvex minimax "
        "problems. To further accelerate convergence, we propose AdaGDA, an adaptive variant of GDA with momentum. "
        "AdaGDA is fast."
    )
    assert t.startswith("AdaGDA: "), t
    # a name built on another in the same breath is still the built one ("… SRQ that …, to further reduce …")
    t = derive_title(
        "Quantization shrinks networks. A recent study called Relaxed Quantization (RQ) uses the Gumbel-Softmax. "
        "However, RQ suffers from bias. We propose a novel method, Semi-Relaxed Quantization (SRQ) that uses a "
        "multi-class straight-through estimator to further reduce the bias of RQ."
    )
    assert t.startswith("SRQ: "), t


def test_a_name_an_earlier_work_was_called_is_not_the_contribution():
    # "we build upon a recently introduced methodology called Deep Bucket Elimination (DBE)": DBE is theirs;
    # "our new scheme, renamed NeuroBE" is the paper's
    t = derive_title(
        "Computing the partition function is hard. In this paper, we build upon a recently introduced methodology "
        "called Deep Bucket Elimination (DBE) that uses neural networks to approximate messages. The main feature "
        "of our new scheme, renamed NeuroBE, is that it customizes the architecture of the neural networks. Our "
        "experiments show improvements over the earlier DBE scheme."
    )
    assert t.startswith("NeuroBE: "), t
    assert "methodology" not in t.lower(), t


def test_the_new_named_algorithm_that_we_introduce_is_the_name():
    t = derive_title(
        "We study the restless bandit problem where arms are mixing processes. We address the trade-off by a "
        "waiting arm in the new Remix-UCB algorithm, a generalization of Improved-UCB, that we introduce. Remix-UCB "
        "reduces to Improved-UCB when the mixing coefficients are all 0."
    )
    assert t.startswith("Remix-UCB: "), t


def test_a_title_case_long_form_is_taken_whole_past_a_verb_like_word():
    # "Regularized" reads as a verb, which ended the long form at "Sparse Coding"; a run spelling the initials
    # whole is taken, in title case or with no small word skipped; "solution for semi-supervised learning (SSL)"
    # is not SSL's long form
    t = derive_title(
        "Sparse coding represents a signal by a few atoms of a dictionary. We propose Support Regularized Sparse "
        "Coding (SRSC) which produces sparse codes that account for the manifold structure of the data. We "
        "present the optimization algorithm of SRSC."
    )
    assert t.startswith("SRSC: Support Regularized Sparse Coding"), t
    from readinglist.importers.titles.abstract import Abstract
    from readinglist.importers.titles.names import long_forms

    ab = Abstract.read("We use the harmonic function solution for semi-supervised learning (SSL) on graphs.")
    s = ab.toks(0)
    (acr, start), *_ = long_forms(s).items()
    assert " ".join(s.words[start : acr - 1]) == "semi-supervised learning", s.words[start : acr - 1]


def test_a_generic_head_before_called_gives_way_to_the_name():
    # "Technique called fraternal dropout for RNNs" reads as a title without its first two words; and a phrase
    # never opens on "called"
    t = derive_title(
        "Recurrent neural networks are hard to regularize. We propose a simple technique called fraternal dropout "
        "that takes advantage of dropout to achieve this goal."
    )
    assert t.lower().startswith("fraternal dropout"), t
    t = derive_title(
        "For data-driven decision-making, one promising approach, called predictive optimization, is to solve "
        "maximization problems in which the objective function to be maximized is estimated from data. Predictive "
        "optimization, however, suffers from the problem of a calculated optimal solution's being evaluated too "
        "optimistically, i.e., the value of the objective function is overestimated. This paper investigates such "
        "optimistic bias and presents two methods for correcting it."
    )
    assert t == "Optimistic bias for predictive optimization", t
    # "named" opening a term is no naming verb: "named entity recognition", "… named entity recognizer"
    t = derive_title(
        "Named entity recognition is a core task. We study named entity recognition for clinical notes with weak "
        "supervision from dictionaries."
    )
    assert "named entity recognition" in t.lower(), t
    from readinglist.importers.titles.assembly import _strip_generic

    for body in ("Neural network named entity recognizer for biomedical text", "Tool called by the agent for planning"):
        assert _strip_generic(body) == body


def test_a_name_the_title_already_spells_is_not_appended():
    # "… mixtures of all trees" spells MoAT with its small words passed over: no "… in MoAT" after it
    t = derive_title(
        "Tractable generative models matter. We introduce a new class of generative models called mixtures of all "
        "trees: a mixture over all spanning trees, for tractability. MoAT models are fast, and MoAT is exact."
    )
    assert "MoAT" not in t and "mixtures of all trees" in t.lower(), t


def test_a_lowered_name_in_a_combined_phrase_is_not_repeated():
    t = derive_title(
        "This paper develops a novel tree-based algorithm, called Bonsai, for efficient prediction on IoT devices – "
        "such as those based on the Arduino Uno board having an 8 bit ATmega328P microcontroller operating at 16 "
        "MHz with no native floating point support, 2 KB RAM and 32 KB read-only flash. Bonsai maintains "
        "prediction accuracy while minimizing model size and prediction costs. Experimental results on multiple "
        "benchmark datasets demonstrate that Bonsai can make predictions in milliseconds even on slow "
        "microcontrollers, can fit in KB of memory."
    )
    assert t.startswith("Bonsai: ") and "bonsai" not in t.lower()[8:], t


@pytest.mark.parametrize(
    ("sentence", "name"),
    [
        ("we propose a algorithmic template called Optimistic Information-Directed Sampling and show that it works",
         "Optimistic Information-Directed Sampling"),
        ("our resulting algorithm, dubbed as Neural DUDE, significantly outperforms the previous ones", "Neural DUDE"),
        ("we introduce a new method called “Stochastic Spectral Descent” that updates parameters in a normed space",
         "Stochastic Spectral Descent"),
    ],
)  # fmt: skip
def test_a_called_name_of_title_case_words_is_kept_whole(sentence, name):
    # a hyphenated title-case word, "dubbed as", a closing quote: the name runs on to its last title-case word
    t = derive_title(f"Bandits are hard. In this paper {sentence}. It is simple, and it is fast in practice.")
    assert t.startswith(f"{name}: ") or t == name, t


def test_an_acronym_stands_beside_the_words_that_spell_it():
    # the abstract's subject acronym, spelt by the title's words (each word's initial, three letters or more),
    # stands beside them as a real title has it: "Steerable convolutional neural networks (CNNs)"
    t = derive_title(
        "It has long been recognized that the invariance and equivariance properties of a representation are "
        "critically important for success in many vision tasks. In this paper we present Steerable Convolutional "
        "Neural Networks, an efficient and flexible class of equivariant convolutional networks. We show that "
        "steerable CNNs achieve state of the art results on the CIFAR image classification benchmark, and that "
        "CNNs built this way use their parameters well."
    )
    assert "neural networks (CNNs)" in t, t
    # the acronym's number follows the words ("analysis (PCA)", "network (GNN)")
    t = derive_title(
        "Sparse principal component analysis is a basic problem. This trend has been driven by a line of research "
        "on the average-case complexity of sparse PCA. Our reductions to sparse PCA are tight; PCA is everywhere."
    )
    assert "analysis (PCA)" in t, t


@pytest.mark.parametrize(
    ("body", "acr", "named", "expected"),
    [
        # the abstract's form, plural after words in the plural only: "dynamics", "series" are no plurals
        ("Quantization for recurrent neural networks", "RNNs", False,
         "Quantization for recurrent neural networks (RNNs)"),
        ("Quantization for recurrent neural networks", "RNN", False,
         "Quantization for recurrent neural networks (RNN)"),
        ("Deep generative model for memory units", "DGMs", False, "Deep generative model (DGM) for memory units"),
        ("Neural surrogate for computational fluid dynamics", "CFDs", False,
         "Neural surrogate for computational fluid dynamics (CFD)"),
        ("Forecasting multivariate time series", "MTS", False, "Forecasting multivariate time series (MTS)"),
        # room allowing: at most 90 characters
        ("Quantization " + "x" * 42 + " for recurrent neural networks", "RNN", False,
         "Quantization " + "x" * 42 + " for recurrent neural networks"),
        # not inside a title-case name, nor a name's expansion, nor over a small word, nor before a bracket
        ("Predictive State Recurrent Neural Networks", "PSRs", True, "Predictive State Recurrent Neural Networks"),
        ("Weakly Supervised Neuro-Symbolic Module Network", "NMN", True,
         "Weakly Supervised Neuro-Symbolic Module Network"),
        ("Semantic Inference Network for streaming label learning", "FSLL", True,
         "Semantic Inference Network for streaming label learning"),
        ("Asynchronous momentum stochastic gradient descent algorithms (Async-MSGD)", "MSGD", False,
         "Asynchronous momentum stochastic gradient descent algorithms (Async-MSGD)"),
        ("Lossy population recovery", "LP", False, "Lossy population recovery"),
    ],
)  # fmt: skip
def test_where_an_acronym_goes_beside_its_initials(body, acr, named, expected):
    from readinglist.importers.titles.assembly import beside_initials

    assert beside_initials(body, acr, 90, named) == expected


@pytest.mark.parametrize(
    ("sentence", "name"),
    [
        ("In this paper, we propose a transfer learning procedure, denoted NetTailor, in which layers of a "
         "pretrained CNN are used as universal blocks", "NetTailor"),
        ("In this paper, we present the first learning-based neighborhood search algorithm, denoted by "
         "ReinforceNS, for it", "ReinforceNS"),
        ("In this paper, the proposed network, termed as Locally Adaptive Fusion Networks (LAF-Net), learns "
         "locally-varying attention maps", "LAF-Net"),
        ("In this paper, we refer to our model trained with this loss as CosFace", "CosFace"),
        ("In this paper, we propose a two-stage fully 3D network, namely DeepFuse, to estimate human pose in 3D "
         "space", "DeepFuse"),
        ("In this paper, we propose a novel top-down approach to generate road network graphs with a holistic "
         "model, namely TD-Road", "TD-Road"),
        ("In this paper, we propose a novel FL framework, i.e., FedDUAP, with two original contributions",
         "FedDUAP"),
        # a name the framework is "based" on gives way to the framework's own, and is one when there is none
        ("In this paper, we propose a novel reinforcement learning (RL) based framework for Transformer "
         "explanation via attention matrix, namely AttExplainer", "AttExplainer"),
        ("In this paper, we propose a Local Coordinate Coding (LCC) based sampling method to improve GANs",
         "LCC"),
        # "news" is a noun, not a verb's third person that would make "revision" a verb after it
        ("To facilitate analysis of this evolution, we present the first publicly available dataset of news "
         "revision histories, NewsEdits", "NewsEdits"),
        ("In this paper, a Pixel to Global Matching Network (PG-Net) is proposed to suppress the background",
         "PG-Net"),
        ("In this paper a Pixel to Global Matching Network (PG-Net) is proposed to suppress the background",
         "PG-Net"),
        ("This paper proposes a novel learning-based method known as Taxonomy Expansion with Attach and Merge "
         "(TEAM) that performs both operations", "TEAM"),
        ("To tackle these issues, we propose a novel few-shot semantic parsing method – SEQZERO", "SEQZERO"),
        ("In this paper, we introduce a novel deep-learning driven system - Recipe2Video that converts a recipe "
         "into a video", "Recipe2Video"),
        ("In this paper, we propose to achieve this through the BasisVAE: a combination of the VAE and a "
         "clustering prior", "BasisVAE"),
    ],
)  # fmt: skip
def test_denoted_termed_as_referred_as_namely_and_is_proposed_name_the_contribution(sentence, name):
    t = derive_title(f"Pose estimation and tracking are hard. {sentence}. It is fast and it is simple.")
    assert t.startswith(f"{name}: "), t


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        # a setting called in words, then a method brought in by name: the method's name
        ("In this paper, we introduce a new online decision making paradigm that we call Thresholding Graph "
         "Bandits. The arms are similar. We present GrAPL, a novel algorithm for the thresholding graph bandit "
         "problem. It works.", "GrAPL"),
        # ... but not the called words' own initials: they are one name
        ("In this paper, we introduce a new module that we call Partial-Sampling Straight-Through. We present "
         "PSST, a novel estimator for captioning. It works.", "Partial-Sampling Straight-Through"),
        # a name brought in with or on an earlier one: the later one, unless a follow-on
        ("We propose a packing operator (PackOp) to combine all head branches. With PackOp, we propose a new "
         "anchor-free one-stage detector, PackDet, which features a single deeper head. It works.", "PackDet"),
        ("We introduce a directional distance function (DDF) for implicit shapes. Based on our DDF, we present a "
         "novel fast algorithm (FIRe) to reconstruct 3D shapes. It works.", "FIRe"),
        ("In this paper, we present a new benchmark dataset named Weather2K for forecasting. Based on Weather2K, "
         "we further propose a Multi-Graph Convolution Network (MFMGCN) for it. It works.", "Weather2K"),
    ],
)  # fmt: skip
def test_a_coined_name_wins_over_a_setting_called_in_words_or_the_name_it_is_built_with(abstract, name):
    t = derive_title(abstract)
    assert t.startswith(f"{name}: "), t


@pytest.mark.parametrize(
    "sentence",
    [
        "we propose to adapt two well-known algorithms, namely PC and FCI, to time series with lagged relations",
        "we propose a new type of graph sparsification, namely fault-tolerant (FT) sparsification, to cut the cost",
        'we propose a novel setting for inverse reinforcement learning, namely "Learning from a Learner"',
        "we derive the minimax regret of the learner, denoted ℰ, with the help of loss predictors",
        # after a dash, several things or someone else's are no name of this work
        "we propose novel splits of two standard detection datasets – MSCOCO and VisualGenome",
        "we propose two new metrics, i.e., DomainNet and Consecutive Wrong Word Rate, for the two problems",
        "we present a baseline model based on a vision-language Transformer (i.e., DomainNet) and ablations",
        "we evaluate our approach on established benchmarks – DomainNet, as well as a new one",
        # "also known as", "the method known as": another name of something known
        "we propose a new step size for stochastic gradient descent, also known as SGD, for time series",
        "we propose to speed up the method known as SGD for time series",
        # a bracketed acronym before a colon is the tool the frameworks use
        "we propose two motion planning frameworks that leverage conformal prediction (CP): a global planner and "
        "a local planner",
    ],
)
def test_namely_listing_others_a_modifier_one_word_or_a_symbol_is_no_name(sentence):
    t = derive_title(f"Causal discovery is hard. In this paper, {sentence}. It is fast and it is simple.")
    assert not t.startswith(("PC:", "FCI:", "FT:", "Learning:", "ℰ", "MSCOCO:", "DomainNet:", "SGD:", "CP:")), t


@pytest.mark.parametrize(
    "abstract",
    [
        # notation, not a name
        "Coresets are small. Our goal is to select rows of A and labels of B, denoted by SA and SB, so that the "
        "error stays small. We show how to select them deterministically.",
        "Kernels are big. In this paper, we approximate the Gram matrix of the data, denoted by GW1, with a sketch. "
        "It is fast.",
        # the field's history, and what a new method is of or for
        "Inspired by text-based question answering, visual question answering (VQA) is proposed to answer "
        "questions about an image. We study attention over several levels for it.",
        "Autoencoders are popular. A new method for learning variational autoencoders (VAEs) is developed, based "
        "on Stein variational gradient descent. It is fast.",
        # earlier work, with "a new" in it
        "Graphs are everywhere. Recently, a new Graph Attention Network (GAT) is proposed for node "
        "classification. We study its robustness to noise in the edges.",
        "Vision models are big. Vision Transformer (ViT) is proposed for images, and prior work shows it scales. "
        "We study how it fails on small data.",
    ],
)
def test_notation_history_and_what_a_method_is_for_are_no_names(abstract):
    t = derive_title(abstract)
    assert not t.startswith(("SA:", "SB:", "GW1:", "VQA:", "VAEs:", "VAE:", "GAT:", "ViT:")), t


@pytest.mark.parametrize(
    "abstract, standard",
    [
        # the field's standard models and methods, brought in with "a novel" or "we propose": not the paper's name
        ("Depth from one image is hard. We propose a novel convolutional neural network (CNN) for monocular depth "
         "estimation with whole strip masking. It works.", "CNN"),
        ("Sampling is slow. We present an ensemble Markov chain Monte Carlo (MCMC) algorithm that uses Lie groups "
         "to preserve the target measure. It mixes fast.", "MCMC"),
        ("Segmentation needs labels. We introduce GANs, a generative adversarial network trained to segment images "
         "from noisy labels. It works.", "GANs"),
        # a word made of a name that modifies what follows
        ("Idioms are hard. We propose a BERT-based dual embedding model for Chinese idiom prediction. It works.",
         "BERT-based"),
        ("Queues are everywhere. We develop UCB-based, a decentralized learning algorithm for bipartite queuing "
         "systems. It is fast.", "UCB-based"),
    ],
)  # fmt: skip
def test_a_standard_name_or_a_modifier_made_of_one_is_no_name_of_the_paper(abstract, standard):
    t = derive_title(abstract)
    assert not t.startswith(f"{standard}:"), t
    assert t.split(":")[0].lower() not in ("cnn", "mcmc", "gan", "gans", "bert-based", "ucb-based"), t


@pytest.mark.parametrize(
    "abstract, name",
    [
        # the same letters spelt out otherwise are the paper's own name
        ("Question answering over knowledge graphs is hard. We propose a Collaborative Reasoning Framework (CRF) "
         "powered by reinforcement learning and large language models. It works.", "CRF"),
        # a standard name built on is a name of its own
        ("Image synthesis is hard. We propose HoloGAN, a novel generative adversarial network that learns 3D "
         "representations from natural images. It works.", "HoloGAN"),
    ],
)  # fmt: skip
def test_a_standard_name_spelt_otherwise_or_built_on_stays_the_papers_name(abstract, name):
    assert derive_title(abstract).startswith(f"{name}: ")


@pytest.mark.parametrize(
    "sentence, verb",
    [
        ("Modern distributed learning frameworks deal with diverse massive data.", "deal"),
        ("Unadjusted Langevin transitions exist for this class.", "exist"),
        ("Test statistics exist.", "exist"),
        ("Partial differential equations (PDEs) play a prominent role in many disciplines.", "play"),
        ("Representations of nodes in a graph play a role.", "play"),
        ("Data assimilation methods use priors arising from differential equations.", "use"),
        ("Gradient descent optimization leads to implicit regularization.", "leads"),
        ("Data analysis deals with it.", "deals"),
        ("Contradictory theories attempt to explain it.", "attempt"),
        ("Recent segmentation methods focus on the labels.", "focus"),
    ],
)
def test_a_verb_after_its_subject_is_a_verb_though_also_a_noun(sentence, verb):
    assert _tag_of(sentence, verb) == "V"


def _tag_of(sentence: str, word: str) -> str:
    from readinglist.importers.titles.tagging import tag

    s = tag(sentence)
    return s.tags[s.words.index(word)]


@pytest.mark.parametrize(
    "sentence, noun",
    [
        ("We study tool use in agents.", "use"),
        ("Computer use agents are new.", "use"),
        ("A mobile health study for cannabis use in young adults.", "use"),
        ("The lead author writes.", "lead"),
        ("We detect human face images.", "face"),
        ("We use gradient estimates for training.", "estimates"),
        ("The models focus is narrow.", "focus"),
    ],
)
def test_the_same_words_as_nouns_stay_nouns(sentence, noun):
    assert _tag_of(sentence, noun) == "N"


@pytest.mark.parametrize(
    "abstract, cut",
    [
        ("Modern data-driven and distributed learning frameworks deal with diverse massive data generated by "
         "clients spread across heterogeneous environments. Indeed, data heterogeneity is a bottleneck.", " deal"),
        ("Symmetric nonnegative matrix factorization (SymNMF) plays an important role in applications of many data "
         "analytics problems. We study it.", " plays"),
    ],
)  # fmt: skip
def test_no_title_ends_on_the_verb_of_its_sentence(abstract, cut):
    t = derive_title(abstract)
    assert cut not in t, t


@pytest.mark.parametrize("modifier", ["NP-hard", "LLM-based", "D-optimal", "PAC-style"])
def test_a_modifier_made_from_a_name_is_not_the_subject(modifier):
    # "… in NP-hard", "… for DP-based" ended 14 development and recent titles: the word modifies, it names nothing
    from readinglist.importers.titles.abstract import Abstract
    from readinglist.importers.titles.assembly import subject_acronym

    text = (
        f"Learning the structure of Bayesian networks is {modifier} in general. We propose a parametric path "
        f"algorithm for bounded vertex cover. Unlike {modifier} formulations, it runs in polynomial time, and "
        f"{modifier} cases are rare."
    )
    found = subject_acronym(Abstract.read(text))
    assert found is None or found[0] != modifier, found
    t = derive_title(text)
    assert modifier not in t and ends_badly(t) is None, t


def test_a_subject_the_body_names_with_a_hyphen_or_a_space_is_not_added():
    # "PCA-like algorithms … in PCA", "PAC learning … in PAC-learning" said the subject twice
    t = derive_title(
        "Robust principal component methods are everywhere. We propose a unified framework for PCA-like "
        "algorithms under outliers. PCA and robust PCA are special cases, and PCA variants follow."
    )
    assert t.count("PCA") == 1, t
    t = derive_title(
        "We study PAC learning of decision trees with queries. PAC-learning them is hard, and PAC-learning "
        "with queries is open; we show that PAC-learning decision trees needs superconstant queries."
    )
    assert "PAC-learning" not in t and "PAC learning" in t, t


def test_a_root_in_plain_text_is_not_the_subject():
    # √T as plain text is "sqrtT": "Hint for online linear optimization in sqrtT"
    t = derive_title(
        "We give a hint for online linear optimization. The regret is O(sqrtT) with it; sqrtT is optimal; "
        "sqrtT bounds hold."
    )
    assert "sqrt" not in t, t


@pytest.mark.parametrize(
    ("text", "not_last"),
    [
        ("We propose an implicit generative model for graphs able to mimic real-world networks. It walks.", "able"),
        (
            "Kolmogorov-Arnold Networks are a new family of neural network architectures which holds promise. In "
            "this paper, we explore the connection between Kolmogorov Arnold Networks (KANs) with piecewise linear "
            "(univariate real) functions and ReLU networks. We convert a piecewise linear KAN into a ReLU network.",
            "piecewise",
        ),
        ("We study an adversarial bandit problem albeit with switching costs. Costs matter.", "albeit"),
    ],
)
def test_a_title_does_not_end_on_a_modifier_or_a_conjunction(text, not_last):
    t = derive_title(text)
    assert t.split()[-1].lower() != not_last and ends_badly(t) is None, t


def test_we_suggest_states_the_contribution():
    # "we suggest to decompose … namely the Decomposed Convolutional Filters network (DCFNet)": as "we propose"
    t = derive_title(
        "Mixed-integer programs are slow to solve. In this paper, we suggest a learned branching rule for "
        "mixed-integer programs that imitates strong branching. The rule halves solving time."
    )
    assert t == "Learned branching rule for mixed-integer programs", t


def test_a_sentence_whose_space_the_text_lost_still_ends():
    # "… small CV error.In this paper we propose …": a PDF's text lost the space; the contribution is found
    from readinglist.importers.titles.tagging import split_sentences

    text = "Tuning is an art.In this paper we propose a lower bound framework.Experiments agree. See e.g.The Book."
    assert [s for _, s in split_sentences(text)] == [
        "Tuning is an art.",
        "In this paper we propose a lower bound framework.",
        "Experiments agree.",
        "See e.g.The Book.",
    ]


def test_what_follows_we_is_a_verb():
    # "which we call regularization path of CV error lower bounds" gave "Call regularization path of …"
    from readinglist.importers.titles.tagging import tag

    s = tag("We propose a framework for lower bounds, which we call regularization path of error bounds.")
    assert s.tags[s.lows.index("call")] == "V"
    t = derive_title(
        "Careful tuning of a regularization parameter is indispensable. In this paper we propose a novel framework "
        "for computing a lower bound of the CV errors as a function of the regularization parameter, which we call "
        "regularization path of CV error lower bounds. The proposed framework gives guarantees."
    )
    assert not t.startswith("Call"), t


def test_the_following_does_not_open_a_title():
    t = derive_title(
        "Principal component analysis is a workhorse. We study the following multi-component sparse PCA problem. "
        "We give an algorithm based on bipartite matchings."
    )
    assert not t.lower().startswith("following"), t


@pytest.mark.parametrize(
    ("body", "budget", "expected"),
    [
        # beside the hyphened word whose halves spell it, room allowing; in its place where there is none
        ("Convergence of the Expectation-Maximization algorithm", 90,
         "Convergence of the Expectation-Maximization (EM) algorithm"),
        ("Convergence of the Expectation-Maximization algorithm", 56, "Convergence of the EM algorithm"),
        # not halves that are names, short words, or another acronym's letters
        ("Policies for Dec-POMDPs", 90, "Policies for Dec-POMDPs"),
        ("Bounds for an on-line learner", 90, "Bounds for an on-line learner"),
        ("Mean-field theory of networks", 90, "Mean-field theory of networks"),
    ],
)  # fmt: skip
def test_a_two_letter_acronym_goes_beside_the_hyphened_word_spelling_it(body, budget, expected):
    from readinglist.importers.titles.assembly import beside_hyphened

    assert beside_hyphened(body, "EM", budget) == expected


def test_em_named_where_the_abstract_spells_it_out_once_and_then_uses_it():
    abstract = (
        "We study the convergence properties of the Expectation-Maximization algorithm in the Naive Bayes model. "
        "We show that EM can get stuck in regions of slow convergence. We show that EM can be bootstrapped in a "
        "pre-training step. Our bootstrapping method amounts to running the EM algorithm on centered iterates."
    )
    assert " EM" in derive_title(abstract)


@pytest.mark.parametrize(
    ("sentence", "name"),
    [
        ("In this paper, we show ways of sampling the steps of alternating minimization for tensor decompositions, "
         "leading to the sparse alternating least squares (SPALS) method.", "SPALS"),
        ("We propose a novel way of employing dropouts in boosted trees, resulting in the DART algorithm.", "DART"),
        ("We combine the subset posteriors through a linear program. The resulting estimate for the Wasserstein "
         "posterior (WASP) has an atomic form.", "WASP"),
        ("Our reward signals enhance robustness across chart styles, resulting in a state-of-the-art chart "
         "reasoning model, ChartMind.", "ChartMind"),
        ("We reweight the core experts in critical layers. This leads to “Critical-Layer, Core-Expert Pathway "
         "Optimization (C2PO)”.", "C2PO"),
    ],
)  # fmt: skip
def test_a_name_a_sentence_result_brings_in_is_the_name(sentence, name):
    # "leading to", "resulting in", "the resulting": what the paper's work ends in is what it introduces
    t = derive_title(
        f"Scaling inference to big data sets remains hard for many practical methods. {sentence} "
        f"Experiments show that {name} is fast and accurate on several benchmarks."
    )
    assert t.startswith(f"{name}: "), t


def test_a_consequence_is_no_name():
    # "can lead to a high attack success rate (ASR)": a consequence, not a method the paper brings in
    t = derive_title(
        "Aligning language models with preference data is a common practice. However, synthetic preference data "
        "can lead to a high attack success rate (ASR) when models meet jailbreaking prompts. We study why, and "
        "report the ASR of many aligned models."
    )
    assert not t.startswith("ASR:"), t


def test_the_subject_after_an_opening_clause_names_an_unnamed_contribution():
    # the sentence after "This paper introduces a … framework" names it after its opening clause
    t = derive_title(
        "State-space models (SSMs) are an efficient alternative to attention. This paper introduces a multi-scale "
        "SSM framework that represents sequence dynamics across multiple resolutions. By capturing both fine, "
        "high-frequency patterns and coarse, global trends, MS-SSM enhances memory efficiency and long-range "
        "modeling. Experiments show that MS-SSM outperforms prior SSM-based models."
    )
    assert t.startswith("MS-SSM: "), t
    # not a name the abstract used before, nor one that opens a sentence's example ("For example, …")
    t = derive_title(
        "State-space models (SSMs) are an efficient alternative to attention, and S4D is a popular one. This paper "
        "introduces a multi-scale SSM framework that represents sequence dynamics across multiple resolutions. By "
        "capturing both fine, high-frequency patterns and coarse, global trends, S4D enhances memory efficiency. "
        "Experiments show that S4D benefits."
    )
    assert not t.startswith("S4D: "), t


def test_we_call_it_names_what_it_stands_for():
    # "we call it AdvGNN": the pronoun between the verb and the name does not end the clause
    t = derive_title(
        "Recent work on adversarial attacks has produced strong but slow attacks. We propose a new attack that "
        "takes advantage of the strengths of both approaches; we call it AdvGNN. Our graph neural network "
        "architecture resembles the network we attack, and AdvGNN is fast."
    )
    assert t.startswith("AdvGNN: "), t


def test_a_quoted_name_after_we_call_is_kept_whole():
    # the words in quotes, its closing full stop inside them: "power EM", not the standard "EM" it ends on
    t = derive_title(
        "We study the convergence of the Expectation-Maximization algorithm in the Naive Bayes model. We show that "
        "EM can get stuck in regions of slow convergence. Our bootstrapping method runs the EM algorithm on small "
        "centered iterates. As such, we call our bootstrapping approach “power EM.” Specifically, we show that EM "
        "then converges exponentially fast."
    )
    assert t.startswith("Power EM: "), t
    # ", or NAME for short" after the quoted words names it by the short name; no stray quote mark is left
    t = derive_title(
        "Many deep generative models use a simple prior. In this paper, we propose to extend the variational "
        'auto-encoder (VAE) framework with a new type of prior which we call "Variational Mixture of Posteriors" '
        "prior, or VampPrior for short. The VampPrior consists of a mixture distribution with pseudo-inputs."
    )
    assert t.startswith("VampPrior: ") and '"' not in t, t
    # a plain word in quotes is not a name ("we call functions that satisfy these conditions “benign”")
    t = derive_title(
        "We study depth separation for neural networks. We call functions that satisfy these conditions “benign”, "
        "and explore the benefits of size and depth for approximating them."
    )
    assert not t.lower().startswith("benign:"), t


def test_a_later_sentence_subject_names_an_unnamed_contribution():
    # "We propose a … model … . GPIRT therefore provides …": the name the abstract gives it in the end
    text = (
        "The goal of item response theory (IRT) models is to estimate latent traits from binary indicators. "
        "We propose a Bayesian nonparametric model that places Gaussian process priors on the latent functions. "
        "This allows us to relax assumptions about their shape. {} therefore provides a simple and intuitive "
        "solution to several longstanding problems in the IRT literature."
    )
    assert derive_title(text.format("GPIRT")).startswith("GPIRT: ")
    # not a name the abstract used before it states its contribution (someone else's)
    t = derive_title("Earlier, GPIRT was proposed for this. " + text.format("GPIRT"))
    assert not t.startswith("GPIRT: "), t


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a name written with one small letter before its capitals keeps it: a title writes "k-NN", "β-TCVAE"
        ("k-NN prediction for distributed resources", "k-NN prediction for distributed resources"),
        ("β-TCVAE for disentangled representations", "β-TCVAE for disentangled representations"),
        ("ρ-Concentrated DP method", "ρ-Concentrated DP method"),
        ("mRNA design with language models", "mRNA design with language models"),
        # a word that only starts in small letters is capitalised as the title's first
        ("quasi-Newton symmetric update", "Quasi-Newton symmetric update"),
        ("prox-SMD for stochastic optimization", "Prox-SMD for stochastic optimization"),
        ("type-II error of private mechanisms", "Type-II error of private mechanisms"),
        ("graph neural networks", "Graph neural networks"),
    ],
)
def test_the_first_letter_is_a_capital_unless_a_name_keeps_it_small(text, expected):
    from readinglist.importers.titles.assembly import _capitalise

    assert _capitalise(text) == expected
