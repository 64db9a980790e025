"""The words derived titles are read with: function words, the verbs of academic prose (their inflections
derived), suffix rules' exceptions, and the cue words by which an abstract states what it contributes.
A part-of-speech guess needs no more than this for what titles need (noun phrases, where clauses begin)."""

from __future__ import annotations


def _pairs(text: str) -> dict[str, str]:
    """ "KEY:value" pairs, whitespace-separated."""
    return dict(pair.split(":", 1) for pair in text.split())


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


DETERMINERS = _words(
    """a an the this these those each every some any all both no its their our his her my your such another
    either neither whose"""
)
QUANTIFIERS = _words("many several various few more most much other same certain numerous multiple")
PREPOSITIONS = _words(
    """of in on for with to from by via under over between among amongst across through into onto against
    without within towards toward about beyond upon per at as than like after before during around along
    despite except inside near throughout versus vs unlike amid beneath behind alongside above below"""
)
# prepositions that may join the parts of a title ("X for Y", "X via Y"); the others end a phrase
TITLE_PREPOSITIONS = _words(
    "of in on for with via under from to through by against without across between over beyond towards into"
)
CONJUNCTIONS = _words(
    """and or but nor yet so while whereas although though albeit because since if unless when whenever where
    which who whom that whether thus hence therefore however moreover furthermore namely then i.e e.g etc how
    why what"""
)
PRONOUNS = _words("we it they i you he she us them itself themselves ourselves one ones")
AUXILIARIES = _words(
    """is are was were be been being am has have had having do does did can cannot could may might must shall
    should will would"""
)
ADVERBS = _words(
    """also not very often then further here well still even only always never usually already now just
    rather quite almost instead up out down elsewhere together thereby therein whereby first second third finally less
    recently typically generally particularly especially significantly substantially largely widely highly
    mainly simply directly jointly explicitly implicitly efficiently effectively respectively consistently
    previously currently notably surprisingly commonly fundamentally"""
)
NOT_ADVERBS = _words(
    """family anomaly assembly supply reply monopoly butterfly italy poly belly rally ally holy ugly apply
    imply multiply comply rely fly july only early daily weekly monthly yearly hourly friendly costly likely
    unlikely"""
)
# Verbs of academic prose, base forms; their inflections are derived (_verb_forms).
VERB_BASES = """
propose introduce present show demonstrate achieve outperform provide develop derive establish obtain prove
enable allow improve require consider investigate explore address leverage exploit yield remain become suffer
rely depend make take give find apply extend generalize generalise reduce capture incorporate integrate combine
employ utilize utilise formulate solve tackle exhibit reveal suggest indicate argue analyze analyse examine
evaluate compare identify surpass mitigate alleviate ensure guarantee characterize quantify predict generate
produce optimize minimize maximize encourage facilitate boost enhance exceed handle adapt assume define describe
discuss emerge fail involve lie maintain offer operate permit prevent receive recover satisfy specify succeed
tend treat unify validate verify achieve perform outline study design build create construct devise implement
explain illustrate highlight observe note report conduct explore extract infer recognize detect discover
interpret measure propose bound prove establish attain arise hinder limit lack need aim seek strive attempt
focus learn train use lead help contain consist comprise follow include introduce turn cast view
pose remain stay seem appear motivate inspire release open publish collect curate annotate benchmark reach
obtain inherit mimic emulate approximate estimate compute calculate simulate sample select choose decompose
transform map project embed encode decode align fuse distill distil prune compress accelerate speed scale
represent model control process update change increase decrease rank retrieve label classify cluster segment
track plan reason search query answer explain support match hold drive shape guide target address handle
pioneer advocate revisit rethink examine uncover complement augment equip endow enrich empower unlock bridge
close narrow overcome resolve circumvent avoid eliminate remove replace substitute outperform dominate achieve
deliver attain maintain preserve retain keep lose forget remember store predict forecast defend protect
attack steer personalize personalise regularize regularise stabilize stabilise calibrate quantize quantise
summarize summarise visualize visualise recommend diagnose synthesize synthesise reconstruct denoise
translate navigate manipulate grasp coordinate communicate cooperate collaborate negotiate schedule
allocate assign partition discretize parameterize parametrize factorize factor marginalize normalize
approximate accelerate parallelize distribute federate personalize exploit explore imitate reward penalize
"""
VERBS = _words(VERB_BASES)
# Base forms that are as often nouns in abstracts: a verb only where the context says so.
NOUN_VERBS = _words(
    """study design use lead need focus model control process update change increase decrease rank label
    cluster segment track plan reason search query answer support match hold drive shape guide target benchmark
    sample map project embed scale release bound limit lack help turn view cast approach result work
    test estimate approximate attempt transform compute mimic report measure interest form function
    structure feature point order state set rate cost value weight score base layer network graph data method
    attack defense defence experiment evaluation analysis claim demand impact effect outline code"""
)
# -ing words that, after a noun or modifier, are nouns ("reinforcement learning"), not participles
GERUND_NOUNS = _words(
    """learning training modeling modelling clustering embedding sampling planning reasoning computing processing
    matching ranking pruning boosting hashing tracking labeling labelling mining tuning fine-tuning
    pretraining pre-training forecasting filtering smoothing coding encoding decoding programming scheduling
    understanding answering captioning parsing tagging translation testing reconstruction recognition
    segmentation generation detection estimation inference optimization imaging sensing painting inpainting
    rendering editing prompting alignment unlearning grounding routing caching retrieval reading writing
    thinking acting control computing streaming serving finetuning distillation sharing scaling bagging
    stacking averaging weighting ensembling hashing shaping localization mapping navigation grasping
    manipulation walking driving flying dueling betting bidding pricing auctioning screening monitoring
    modeling design engineering building"""
)
# -ing participles that open a modifier clause after a noun: the phrase ends there
PARTICIPLES = _words(
    """using leveraging exploiting including achieving yielding requiring involving allowing enabling combining
    making giving providing resulting leading showing having being containing considering following based
    incorporating integrating employing utilizing relying outperforming ranging spanning covering exhibiting
    suffering facing lacking comprising consisting capturing ensuring improving reducing increasing bringing
    taking producing generating"""
)
ADJECTIVES = _words(
    """novel new simple general efficient effective unified principled large small deep shallow high low fast
    slow robust sparse dense optimal suboptimal adaptive adversarial generative discriminative neural convex
    nonconvex non-convex linear nonlinear non-linear stochastic random bayesian gaussian visual multimodal
    multi-modal key main recent modern standard strong weak good better best poor real synthetic hard easy
    open closed wide narrow long short early late final first last global local latent hidden explicit
    implicit safe secure private fair unknown known hierarchical structured unstructured continuous discrete
    online offline approximate exact scalable interpretable explainable compositional causal semantic
    empirical theoretical practical broad specific generic diverse complex rich full partial single dual
    joint differentiable lightweight powerful accurate consistent tight prior posterior conditional
    unsupervised supervised self-supervised semi-supervised weakly-supervised"""
)
# the tail of a word a name made a modifier of ("LLM-based", "PAC-style", "GPU-powered"): no name of its own
MODIFIER_TAILS = _words(
    "based driven guided aware like free style oriented inspired enabled specific level wise powered centric"
)
# … nor the abstract's subject, nor one made an adjective ("… in NP-hard", "… for DP-based", "… in D-ary" ended 14
# development and recent titles; so does a tail the tagger reads as an adjective or a participle: D-optimal)
SUBJECT_MODIFIER_TAILS = MODIFIER_TAILS | _words("type ary hard complete smooth nearest")
ADJ_SUFFIXES = ("ous", "ive", "ic", "ical", "able", "ible", "ful", "less", "ary", "al", "ar", "ent", "ant")
NOT_ADJ = _words(
    """proposal signal interval potential tutorial trial arrival removal individual material animal journal
    manual terminal retrieval approval survival rival principal criterial objective alternative representative
    derivative initiative perspective detective directive incentive narrative primitive logic music topic
    heuristic metric arithmetic rhetoric clinic epidemic mechanic variable table cable dictionary boundary
    summary library vocabulary adversary glossary secretary unless agent gradient component element segment
    moment document argument environment experiment statement treatment assessment improvement measurement
    requirement deployment development alignment management equipment government payment instrument student
    patient client participant constant variant descent ascent content event intent extent percent talent
    parent accent dataset grammar scholar solar pillar bar car calendar collar seminar sonar lidar radar
    dollar nectar sugar cellar star guitar molar polar regular bandit hospital capital total rental
    referral mammal cereal deal ideal meal seal goal coal tool pool school model level label channel kernel
    panel tunnel parcel vessel novel hotel pixel voxel tensor vector matrix ensemble baseline pipeline
    graphic graphics physic physics dynamic dynamics statistic statistics semantics robotics optic optics
    ethic ethics economic economics mechanics kinematics genomics proteomics analytic analytics agents"""
)
INTRO_VERBS = _words(
    """propose proposes introduce introduces present presents develop develops design designs build builds
    devise devises formulate formulates construct constructs create creates describe describes offer offers
    release releases contribute contributes establish establishes put puts pioneer pioneers advocate
    advocates derive derives provide provides proposing introducing presenting developing designing building
    devising constructing creating describing releasing suggest suggests"""
)
STUDY_VERBS = _words(
    """study studies consider considers investigate investigates address addresses tackle tackles examine
    examines explore explores analyze analyzes analyse analyses focus focuses revisit revisits characterize
    characterizes rethink rethinks"""
)
SHOW_VERBS = _words("show shows prove proves demonstrate demonstrates give gives obtain obtains")
USE_VERBS = _words(
    """use uses using used apply applies applying applied employ employs employing employed leverage leverages
    leveraging leveraged adopt adopts adopting adopted utilize utilizes utilizing utilized exploit exploits
    exploiting exploited extend extends extending extended improve improves improving improved follow follows
    following followed via with than over like including include includes such compared against upon
    combine combines combining combined integrate integrates integrating integrated incorporate incorporates
    incorporating incorporated build"""
)
# past forms introduce only after "we" ("we developed X"; "the previously proposed X" is someone else's)
INTRO_PAST = _words(
    "proposed introduced presented developed designed devised built constructed created described formulated released"
)
# adverbs that are part of a technical term before its adjective ("Partially relevant video retrieval", "Fully
# convolutional networks"); other adverbs are dropped from a title's start ("highly", "recently", "simply")
TERM_ADVERBS = _words(
    """fully partially weakly strongly locally globally linearly jointly provably approximately asymptotically
    differentially adversarially doubly conditionally mutually sparsely densely stochastically"""
)
# what "X is a …" says of a name that is not the abstract's own ("GAIL is a recent successful …")
KNOWN = _words(
    """popular recent recently successful well-known widely classical standard common celebrated prominent
    leading state-of-the-art famous seminal fundamental powerful traditional"""
)
NAMING = _words("called named renamed dubbed termed coined nicknamed referred denoted")
# before a name brought in: someone else's thing ("the existing methods (X, Y)", "the current state-of-the-art
# method (360MonoDepth)", "a recently introduced methodology called DBE")
EARLIER_WORK = _words(
    "existing previous previously prior standard popular such other classical common well-known state-of-the-art"
)
EARLIER_NAMED = _words("recently previously earlier existing upon")
# a sentence about the paper's own work ("In this paper, a … (PG-Net) is proposed"), not the field's
THIS_WORK = _words("this we our")
# a name brought in after another as its follow-on ("We also propose an extension, SDF-Bayes-AR, …")
FOLLOW_ON = _words("also further additionally")
# what opens a sentence that brings in one of several parts or further contributions ("Firstly, we introduce the
# Distance-based Syntactic Weight (DSW)", "Additionally, we present …"), and what a part is called
ENUMERATING = _words("first firstly second secondly third thirdly additionally moreover furthermore besides")
PART_NOUNS = _words("module modules component components block blocks layer layers unit units branch branches")
# before a name brought in as the whole the parts make ("the overall pipeline, dubbed SteinDreamer")
WHOLE_WORDS = _words("overall whole entire complete resulting full")
FOLLOW_ON_NOUNS = _words("extension variant variants")
# small words a long form or a title's run of initials passes over ("Mixtures of All Trees" for MoAT)
SMALL_WORDS = _words("and of the to for in on a an with via &")
# "a family of X", "a new class of X": X is still what the sentence brings in
# acronyms that say where or on what a paper was run (venues, hardware, common data sets), not what it is
# about, and a citation's placeholder ("(CITATION)"): never a title's subject acronym, nor a name in brackets
NOT_SUBJECTS = _words(
    """NeurIPS NIPS ICML ICLR AAAI IJCAI CVPR ICCV ECCV ACL EMNLP NAACL COLT UAI AISTATS KDD GPU GPUs CPU CPUs
    TPU TPUs SOTA API APIs URL URLs MNIST ImageNet CIFAR SVHN COCO MuJoCo OpenAI GitHub PyTorch TensorFlow
    CITATION CITATIONS CITE REF"""
)
# the field's standard models, methods and terms, each older than any one paper that uses it, with the first word
# of what it stands for: never the name a paper introduces ("we propose a novel CNN …" is no "CNN: …" paper;
# issue 19: "CCA: Canonical Correlation Analysis" for a paper using CCA), unless the abstract spells it out
# otherwise ("Collaborative Reasoning Framework (CRF)"). Singular forms; a plural is looked up without its "s".
COMMON_NAMES = _pairs(
    """AI:artificial ML:machine NLP:natural RL:reinforcement DRL:deep MARL:multi-agent CNN:convolutional DNN:deep
    RNN:recurrent LSTM:long GRU:gated MLP:multi-layer GAN:generative VAE:variational GNN:graph GCN:graph
    GP:gaussian HMM:hidden CRF:conditional MRF:markov MDP:markov POMDP:partially SVM:support SGD:stochastic
    EM:expectation-maximization PCA:principal ICA:independent CCA:canonical LDA:latent NMF:non-negative
    SVD:singular FFT:fast MLE:maximum MAP:maximum MCMC:markov HMC:hamiltonian SMC:sequential ADMM:alternating
    LQR:linear PAC:probably ODE:ordinary PDE:partial SDE:stochastic ReLU:rectified LASSO:least KNN:k-nearest
    k-NN:k-nearest R-CNN:region U-Net:u-net ResNet:residual ViT:vision LLM:large VLM:vision-language
    MLLM:multimodal BERT:bidirectional GPT:generative RLHF:reinforcement Q-learning:q-learning DQN:deep
    SLAM:simultaneous RANSAC:random SIFT:scale-invariant MRI:magnetic fMRI:functional EEG:electroencephalography
    ECG:electrocardiogram RGB:red RGB-D:rgb-d LiDAR:light IoT:internet VQA:visual OCR:optical"""
)
PLACEHOLDERS = _words("CITATION CITATIONS CITE REF REFS")  # where a source left a citation out
# names a title keeps in capitals inside a long form it lowers ("Markov chain Monte Carlo (MCMC)", not "markov
# chain monte carlo"): people's, the adjectives made of them, places, languages and firms; a word with a letter
# outside ASCII (Nyström, Lévy) is kept without being listed
EPONYMS = _words(
    """Markov Monte Carlo Hilbert Langevin Wasserstein Newton Thompson Dirichlet Lipschitz Kalman Fourier Poisson
    Bernoulli Gibbs Boltzmann Nash Stackelberg Shapley Bregman Nesterov Polyak Gumbel Cauchy Lyapunov Koopman
    Stein Bellman Hopfield Ising Potts Kolmogorov Chebyshev Lagrange Euler Taylor Hawkes Huber Tikhonov Wiener
    Fisher Shannon Hoeffding Bernstein Rademacher Vapnik Chervonenkis Mercer Krylov Lanczos Cholesky Hadamard
    Kronecker Toeplitz Frobenius Stiefel Grassmann Lie Sinkhorn Viterbi Metropolis Hastings Ornstein Uhlenbeck
    Fokker Planck Navier Stokes Weisfeiler Lehman Leman Pareto Zipf Pitman Yor Kullback Leibler Jensen Hellinger
    Gromov Procrustes Wishart Laplace Bayes Gauss Seidel Jacobi Hamilton Riemann Lebesgue Borel Banach
    Sobolev Besov Kantorovich Monge Schur Sylvester Perron Bradley Terry Plackett Luce Elo Kaplan Meier Cox
    Granger Rubin Neyman Pearl Tucker Tweedie Dantzig Wolfe Nelder Mead Levenberg Marquardt Runge Kutta Turing
    Adam Nadaraya Watson Parzen Rosenblatt Widrow Hoff Hebb Kohonen Hinton Ramsey Hamming Levenshtein
    Jaccard Manhattan Mahalanobis Minkowski Chernoff Azuma Bennett Freedman Doob Wald Bonferroni
    Benjamini Hochberg Kendall Spearman Pearson Gini Lorenz Nyquist Shapiro Wilcoxon Mann Whitney Welch Baum
    English Chinese Japanese French German Spanish Arabic Hindi Korean Russian Atari Minecraft Wikipedia Python
    Internet Earth Gaussian Gaussians Bayesian Euclidean Hessian Hessians Jacobian Jacobians Lagrangian Hamiltonian
    Laplacian Laplacians Riemannian Boolean Cartesian Newtonian Hebbian Brownian Markovian Darwinian Poissonian
    Lipschitzian StarCraft Dota"""
)
# makers whose name opens the name of what they made, kept whole in title case: "Stanford Question Answering
# Dataset (SQuAD)", "Google Neural Machine Translation (GNMT)", "Amazon Mechanical Turk (AMT)"
MAKERS = _words("Stanford Google Amazon Microsoft Facebook Meta Twitter Reddit Penn Berkeley Baidu Alibaba Tencent")
COLLECTIVE = _words("family class set suite series collection variety kind type pair")
TWO_WORD_PREPOSITIONS = {("due", "to"), ("such", "as"), ("based", "on"), ("according", "to"), ("rather", "than")}
ABBREVIATIONS = ("e.g.", "i.e.", "et al.", "vs.", "cf.", "etc.", "Fig.", "Eq.", "resp.", "approx.", "w.r.t.")


def _verb_forms(base: str) -> list[str]:
    """propose → proposes, proposed, proposing (regular English; the exceptions do not matter here)."""
    if base.endswith("e") and not base.endswith(("ee", "ye", "oe")):
        return [base + "s", base + "d", base[:-1] + "ing"]
    if base.endswith("y") and base[-2:-1] not in "aeiou":
        return [base[:-1] + "ies", base[:-1] + "ied", base + "ing"]
    if base.endswith(("s", "sh", "ch", "x", "z")):
        return [base + "es", base + "ed", base + "ing"]
    return [base + "s", base + "ed", base + "ing"]


IRREGULAR_PARTICIPLES = _words(
    "made taken given found shown built led held proven known written chosen drawn grown seen done become"
)
NOT_PARTICIPLES = _words("speed seed need feed embed bed hundred shed breed")
VERB_FORM: dict[str, str] = {}  # inflected form → its base
for _b in sorted(VERBS):  # sorted: a set's order changes with each process's string hashing
    VERB_FORM.setdefault(_b, _b)
    for _f in _verb_forms(_b):
        VERB_FORM.setdefault(_f, _b)
VERB_FORM.update({"made": "make", "took": "take", "taken": "take", "gave": "give", "given": "give"})
VERB_FORM.update({"found": "find", "led": "lead", "held": "hold", "shown": "show", "built": "build"})
VERB_FORM.update({"became": "become", "arose": "arise", "arisen": "arise", "lies": "lie", "lay": "lie"})


ARTICLE_LIKE = DETERMINERS | QUANTIFIERS | PREPOSITIONS | CONJUNCTIONS | PRONOUNS | AUXILIARIES
# what a method-like name may be the name of: "a novel MoE architecture, BlockFFN"
THING = _words(
    """model models network networks framework algorithm method approach architecture benchmark dataset system
    agent library toolkit suite loss attack defense estimator optimizer policy procedure pipeline
    autoencoder transformer module layer mechanism protocol language technique scheme strategy corpus"""
)
# heads of a contribution sentence's object that say nothing of what it is about ("we give an affirmative
# answer to …", "we consider two cases of …", "we provide theory showing …"), light stems (abstract.norm)
EMPTY_HEADS = _words(
    """answer question case notion challenge domain class problem variant version constraint equation result
    finding insight evidence experiment scenario way step perspective view justification implementation
    explanation treatment account number range variety kind type form aspect property point issue gap
    phenomenon role impact risk contribution idea concept observation connection relationship choice reading
    trick feasibility set series lot two three four five several theory progress advance state-of-the-art
    extension generalization understanding light attempt effort direction paper work article manuscript"""
)
# what "we" do that reports, compares or uses rather than contributes ("we show", "we evaluate", "we use"),
# and words that may stand after "we" without being its verb: not the verb of a sentence that states a
# contribution without a cue ("We advance the state of the art in …")
WE_REPORT = _words(
    """show shows showed find finds found evaluate evaluates evaluated test tests tested validate validates
    validated verify verifies verified compare compares compared conduct conducts conducted perform performs
    performed run runs observe observes observed report reports reported demonstrate demonstrates demonstrated
    achieve achieves achieved outperform outperforms obtain obtains obtained use uses used apply applies
    applied employ employs employed also then further first finally additionally believe hope expect argue
    argues discuss discusses conclude concludes confirm confirms note notes highlight highlights illustrate
    illustrates empirically experimentally theoretically can could will would may might must should do does
    did are were have had thus therefore hence next here now provide provides prove proves give gives"""
)
# a head that takes its topic with "of", not "for" ("Characterization of X", "Analysis of X")
OF_HEADS = _words(
    """analysis characterization characterisation study understanding investigation examination exploration
    evaluation comparison survey review overview theory geometry limitations limits"""
)
# what a title does not start with
GENERIC_HEADS = _words("problem task question challenge notion concept idea issue topic setting use")
DROP_LEADING = _words(
    """novel new first simple straightforward principled practical powerful flexible versatile comprehensive
    systematic holistic rigorous thorough proposed existing following aforementioned above-mentioned"""
)
PURPOSE_PARTICIPLES = _words("designed intended aimed used tailored built meant developed proposed trained")
DOUBLING = _words("control transfer refer infer prefer compel propel excel")
# the words by which a sentence may state the contribution or bring in a name
PASSIVE_CUES = frozenset(("proposed", "introduced", "presented", "developed"))
CUE_VERBS = INTRO_VERBS | STUDY_VERBS | PASSIVE_CUES | INTRO_PAST
CUE_WORDS = INTRO_VERBS | STUDY_VERBS | NAMING | {"our", "call", "name", "dub", "term"} | PASSIVE_CUES | INTRO_PAST
# a contribution is stated by someone: "we propose", "this paper presents", "our method", "… is proposed"
SUBJECT_WORDS = frozenset(("we", "our", "paper", "work", "study", "article", "here", "us"))
BE = frozenset(("is", "are", "was", "were", "be"))

# Abstract-speak: words every abstract uses to report, hedge and connect, and titles almost never carry
# ("we propose", "significantly", "results", "state-of-the-art"). Written here from how abstracts read; the
# word model (abstract.py) gives them a title rate near nothing, and every other word the rate of a topic word.
ABSTRACT_SPEAK = _words(
    """propose proposed proposes proposing introduce introduced introduces present presented presents
    show shown shows showed showing demonstrate demonstrated demonstrates demonstrating prove proved proves
    obtain obtained obtains achieve achieved achieves achieving achievement outperform outperforms
    outperformed outperforming conduct conducted conducting perform performed performing evaluate evaluated
    evaluates evaluating validate validated validates develop developed develops provide provided provides
    providing describe described describes consider considered considers investigate investigated
    investigates explore explored explores address addressed addresses tackle tackled tackles aim aims aimed
    allow allows allowed allowing enable enables enabled enabling ensure ensures ensured require requires
    required requiring rely relies relied remain remains remained become becomes include includes including
    involve involves involved contain contains consist consists employ employs employed utilize utilizes
    utilized leverage leverages leveraged exploit exploits exploited apply applies applied use used uses
    using find finds found suggest suggests suggested offer offers offered build builds built make makes
    made give gives given take takes help helps improve improves improved improving improvement improvements
    increase increases increased reduce reduces reduced enhance enhances enhanced extend extends extended
    derive derived derives yield yields yielded lead leads led overcome overcomes identify identifies
    observe observed observes compare compared compares comparing
    often significantly significant finally specifically particular particularly recently recent usually
    typically widely successfully additionally especially respectively experimentally accurately
    effectively efficiently easily directly explicitly simultaneously automatically previously jointly
    further also even still here there instead overall well very only first second third finally moreover
    however furthermore thus therefore hence indeed mainly largely highly
    result results resulting paper work works approach approaches contribution contributions experiment
    experiments experimental extensive state-of-the-art existing previous promising superior crucial
    essential important critical fundamental key main major novel new various different several numerous
    way manner amount number variety addition respect order case cases end term terms kind lack need needs
    method methods framework frameworks algorithm algorithms technique techniques scheme schemes procedure
    procedures variant variants paradigm formulation version class performance setting settings
    advantage advantages benefit benefits success ability capability effectiveness efficacy limitation
    limitations issue issues challenge challenges difficulty difficult challenging possible able capable
    available suitable useful popular standard conventional traditional original current existing
    corresponding associated related similar specific general common simple easy strong good better best
    higher lower less more most wide broad problem problems long-standing open question questions
    converge converges arise arises hold holds exist exists http https github com"""
)
