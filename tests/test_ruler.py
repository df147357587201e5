"""The attribute ruler's Matcher-free matches (`text.ruler`) are the Matcher's, and the memo's
lemmas (`text.lemmas`) the lemmatizer's, on the installed English model's token and dependency
pipelines; a ruler with patterns it does not handle keeps the Matcher."""
from __future__ import annotations

import pytest
import spacy

from evidencechain.data.audit import generate_audit_corpus
from evidencechain.text.chunks import build_evidence
from evidencechain.text.dependency import load_dependency_pipeline
from evidencechain.text.ruler import RulerMatch, fast_match

TEXTS = [
    "We're gonna go. Let's see, y'all ain't ready. There is a cat and there's a dog. C'mon! gotta go.",
    "He gets it, she got it. Nothin' here. I saw him give it to you and me. Do you have it? He did it.",
    "That is what which said.   \n\n  x\tThe tower, which was designed by Eiffel in 1889, isn't small.",
    "", "   ", "A",
]


def _pipelines():
    dep = load_dependency_pipeline()
    if dep is None:
        pytest.skip("no spaCy model with a parser installed")
    from evidencechain.text.nlp import load_pipeline
    return [load_pipeline("auto")[0], dep]


def test_fast_matches_are_the_matchers_on_the_installed_model():
    corpus = generate_audit_corpus(17, 1)
    texts = TEXTS + [r.response for r in corpus.responses[:150]] + \
        [build_evidence(s).text for s in list(corpus.sources.values())[:10]]
    for nlp in _pipelines():
        ruler = nlp.get_pipe("attribute_ruler")
        assert isinstance(ruler.__dict__.get("match"), RulerMatch)  # installed by the loaders
        fast = RulerMatch(ruler)
        before = [name for name, _ in nlp.pipeline][:[name for name, _ in nlp.pipeline].index("attribute_ruler")]
        multi = 0
        with nlp.select_pipes(enable=before):
            for doc in nlp.pipe(texts):
                expected = type(ruler).match(ruler, doc)
                assert fast(doc) == expected, doc.text
                multi += sum(e - s > 1 for _, _, s, e in expected)
        assert multi >= 3  # the crafted texts reach the ruler's multi-token patterns


def test_a_ruler_with_other_patterns_keeps_the_matcher():
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("attribute_ruler")
    ruler.add([[{"LOWER": "a", "OP": "+"}]], {"LEMMA": "x"})
    fast_match(nlp)
    assert "match" not in ruler.__dict__
    other = spacy.blank("en").add_pipe("attribute_ruler")
    other.add([[{"LOWER": {"IN": ["a", "b"]}}, {"IS_SPACE": False, "TAG": "NN"}]], {"LEMMA": "x"})
    assert RulerMatch(other).compiled is not None
    doc = spacy.blank("en")("b c a")
    assert RulerMatch(other)(doc) == type(other).match(other, doc)


def test_memo_lemmas_are_the_lemmatizers():
    nlp = _pipelines()[0]
    lemmatizer = nlp.get_pipe("lemmatizer")
    assert "pipe" in lemmatizer.__dict__  # installed by load_pipeline
    corpus = generate_audit_corpus(17, 1)
    texts = TEXTS + [r.response for r in corpus.responses[:150]]
    with nlp.select_pipes(disable=["lemmatizer", "ner"]):
        docs = list(nlp.pipe(texts))
    own = [lemmatizer(d.copy()) for d in docs]
    memo = list(lemmatizer.pipe(d.copy() for d in docs))
    assert [[t.lemma_ for t in d] for d in memo] == [[t.lemma_ for t in d] for d in own]
    assert sum(t.lemma_ != t.lower_ for d in own for t in d) > 50
