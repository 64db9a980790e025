"""Titles for papers that came without one (the bundled corpus has abstracts only).

A reader scanning a list recognises a paper by what it contributes: its method's name when the abstract
introduces one ("we propose X", "X, a …", "called X", "Long Form (ACR)"), never a tool it merely uses, and
then what that is or does. So the abstract is read as a tagged word sequence (`tagging`: a small `lexicon`
of function words, academic verbs and suffix rules, a part-of-speech guess good enough to find noun phrases
and where clauses begin); the introduced name is found (`names`); noun phrases are taken from the sentence
that states the contribution (and, for the topic, from the opening sentence), compressed at phrase
boundaries (`phrases`), and scored by how likely their words are to be title words (`abstract`: a small
logistic model over how often the abstract uses each word and where, and its rate in real titles: the
title-word table in resources, counted on the ACL Anthology's titled abstracts, CC BY 4.0);
`assembly` puts the title together, and names the abstract's subject acronym inside the phrase when the
phrase lacks it, as real titles do ("… in GANs", "ChartFix: … for VLMs"; never as the "X:" name). A title
never ends on a function word or a bare modifier, is never cut inside a phrase, and keeps to MAX_TITLE
characters.

Offline and deterministic: no model to download, no data beyond the lexicon and that table.
"""

from readinglist.importers.titles.assembly import MAX_TITLE, derive_title, make_unique, unique_among

__all__ = ["MAX_TITLE", "derive_title", "make_unique", "unique_among"]
