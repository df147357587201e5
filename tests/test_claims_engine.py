"""The claims family's engine: evidence sentences under the blank pipeline are slices of their
document's parse, not parsed again (identical to parsing each sentence alone, the claim rows stay
those pinned before), and triplet extraction and checking on two processes give what one gives."""
from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from evidencechain.data.audit import generate_audit_corpus
from evidencechain.features import FeatureConfig, FeatureExtractor
from evidencechain.features import claims as claims_module
from evidencechain.features.claims import evidence_sentences
from evidencechain.features.triplets import check_triplets
from evidencechain.records import Corpus
from evidencechain.text import parallel
from evidencechain.text.cache import ParseCache
from evidencechain.text.dependency import load_dependency_pipeline
from evidencechain.text.nlp import load_pipeline
from evidencechain.text.parse import parse_texts, rule_pipeline, sentence_slice
from evidencechain.text.triplets import extract_triplets

PINNED = Path(__file__).parent / "fixtures" / "pinned_triplets_blank.json"
FIELDS = ("text", "starts", "ends", "lower", "lemma", "is_punct", "is_stop", "like_num", "sentences", "entities")
TEXTS = [
    "The tower was designed by Eiffel. It opened in 1889!  Mr. Smith said so.\n\nA new line starts here",
    "Prices rose 5.5% in Q3.Sales fell (sharply).\"Quoted.\" Then: more... And more?!  Yes.",
    "  Leading spaces. Trailing spaces.   \n",
    "no punctuation at all here",
    "U.S.A. is big. e.g. this one. Dr. No. 3 p.m. on 2020-01-01. \u00a0Non-breaking\u00a0space. End.",
    "A sentence.\tTabbed one.\r\nWindows line. Emoji \U0001f600 here. Twenty-one (21) items.",
    "Ends with a word.cut",
    "Sales fell.Prices rose.\"Quoted\" she said.(Aside.) Next.Mr. Smith left.Dr.Who? e.g.This",
]


def _same(a, b) -> bool:
    for f in FIELDS:
        x, y = getattr(a, f), getattr(b, f)
        if isinstance(x, np.ndarray):
            if not (np.array_equal(x, y) and x.dtype == y.dtype):
                return False
        elif x != y:
            return False
    return True


def test_a_slice_is_the_sentence_parsed_alone():
    assert rule_pipeline("blank")
    tokenizer = load_pipeline("blank")[0].tokenizer
    cache = ParseCache(None)
    sliced = cut_runs = 0
    for doc in parse_texts(TEXTS, pipeline="blank", cache=cache, progress=False):
        alone = parse_texts([doc.text[a:b] for a, b in doc.sentences], pipeline="blank", cache=cache, progress=False)
        for i, p in enumerate(alone):
            cut = sentence_slice(doc, i, tokenizer)
            if cut is not None:
                sliced += 1
                cut_runs += sentence_slice(doc, i) is None
                assert _same(cut, p), doc.text[slice(*doc.sentences[i])]
    assert sliced >= 20 and cut_runs >= 3


def test_without_the_tokenizer_only_sentences_bounded_by_whitespace_are_sliced():
    doc = parse_texts(["Sales fell.Prices rose. Fine."], pipeline="blank", cache=ParseCache(None), progress=False)[0]
    bounded = [(a == 0 or doc.text[a - 1].isspace()) and (b == len(doc.text) or doc.text[b].isspace())
               for a, b in doc.sentences]
    assert [sentence_slice(doc, i) is not None for i in range(len(doc.sentences))] == bounded
    assert not all(bounded)
    tokenizer = load_pipeline("blank")[0].tokenizer
    assert all(sentence_slice(doc, i, tokenizer) is not None for i in range(len(doc.sentences)))


@pytest.mark.skipif(load_dependency_pipeline() is None, reason="no spaCy model with a parser installed")
def test_a_model_pipeline_is_never_sliced():
    assert not rule_pipeline("auto")


def test_blank_claim_rows_are_pinned_and_the_evidence_is_sliced(monkeypatch):
    pinned = json.loads(PINNED.read_text())
    corpus = generate_audit_corpus(17, 1)
    keep = {r.id for r in corpus.responses if r.source_id in set(pinned["sources"])}
    sample = corpus.subset(response_ids=keep, name="pinned")
    cuts = []

    def spy(parsed, i, tokenizer=None):
        cuts.append(out := sentence_slice(parsed, i, tokenizer))
        return out

    monkeypatch.setattr(claims_module, "sentence_slice", spy)
    extractor = FeatureExtractor(FeatureConfig(claims=True, pipeline="blank"), cache=ParseCache(None))
    claims = extractor.fit(sample, progress=False).transform(sample, progress=False).claims
    rows = [[r.response_id, int(r.sentence_index), int(r.start), int(r.end), r.subject, r.relation, r.object,
             r.verdict, int(r.evidence_index), round(float(r.coverage), 6)] for r in claims.itertuples(index=False)]
    assert rows == pinned["rows"]
    assert cuts and sum(c is not None for c in cuts) > len(cuts) // 2


def test_two_processes_extract_and_check_the_same_claims_as_one(monkeypatch):
    corpus = generate_audit_corpus(17, 1)
    assert sum(len(r.response) for r in corpus.responses) > 4 * parallel.MIN_CHARS_PER_WORKER
    cache = ParseCache(None)
    extractor = FeatureExtractor(FeatureConfig(claims=True, pipeline="blank"), cache=cache).fit(corpus, progress=False)
    forks = {"1": 0, "2": 0}
    fork = parallel.os.fork

    def counting_fork():
        forks[os.environ["EVIDENCECHAIN_WORKERS"]] += 1
        return fork()

    monkeypatch.setattr(parallel.os, "fork", counting_fork)
    out = {}
    for workers in ("1", "2"):
        monkeypatch.setenv("EVIDENCECHAIN_WORKERS", workers)
        extractor.cache = ParseCache(None)  # nothing parsed, extracted or checked yet
        tables = extractor.transform(corpus, progress=False)
        out[workers] = (tables.claims, tables.sentences[["triplets", "n_triplets", "n_contradiction"]])
    assert forks["1"] == 0 and forks["2"] > 0  # with two workers, this process and one forked child
    for a, b in zip(out["1"], out["2"]):
        assert a.equals(b)


def test_a_warm_transform_extracts_and_checks_only_answers_not_seen(monkeypatch):
    corpus = generate_audit_corpus(17, 1)
    sources = list(dict.fromkeys(r.source_id for r in corpus.responses))
    first = corpus.subset(response_ids={r.id for r in corpus.responses if r.source_id in sources[:3]}, name="a")
    more = corpus.subset(response_ids={r.id for r in corpus.responses if r.source_id in sources[:4]}, name="b")
    extractor = FeatureExtractor(FeatureConfig(claims=True, pipeline="blank"), cache=ParseCache(None))
    extractor.fit(first, progress=False)
    cold = extractor.transform(first, progress=False)
    extracted = []
    real = claims_module.answer_triplets

    def spy(jobs, *args, **kwargs):
        extracted.append(set(jobs))
        return real(jobs, *args, **kwargs)

    monkeypatch.setattr(claims_module, "answer_triplets", spy)
    warm = extractor.transform(first, progress=False)
    assert extracted == []
    assert warm.claims.equals(cold.claims) and len(cold.claims)
    assert warm.sentences["triplets"].equals(cold.sentences["triplets"])
    extractor.transform(more, progress=False)
    assert extracted == [{r.id for r in more.responses} - {r.id for r in first.responses}]
    fresh = FeatureExtractor(FeatureConfig(claims=True, pipeline="blank"), cache=ParseCache(None))
    alone = fresh.fit(first, progress=False).transform(more, progress=False).claims
    assert extractor.transform(more, progress=False).claims.equals(alone)


def _sharing_sample(corpus, n_sources: int = 8):
    """Answers of a few sources, plus answers made to share sentences and claims: one repeating two
    of its source's answers in reverse order (the same sentences at other offsets and indices),
    and one of each source's answers moved to the next source (the same claims, other evidence)."""
    sources = list(dict.fromkeys(r.source_id for r in corpus.responses))[:n_sources]
    own = [r for r in corpus.responses if r.source_id in sources]
    extra = []
    for k, sid in enumerate(sources):
        mine = [r for r in own if r.source_id == sid]
        extra.append(replace(mine[0], id=f"{sid}-again", labels=(), sentence_meta=None,
                             response=f"{mine[1].response} {mine[0].response}"))
        extra.append(replace(mine[2], id=f"{sid}-moved", labels=(), sentence_meta=None,
                             source_id=sources[(k + 1) % len(sources)]))
    return Corpus("sharing", {s: corpus.sources[s] for s in sources}, own + extra, span_labels=True, labelled=True)


@pytest.mark.parametrize("pipeline", ["blank", "auto"])
def test_claims_are_those_of_the_per_answer_api_when_answers_share_sentences_and_claims(pipeline):
    """Triplets extracted once per distinct sentence text and checked once per distinct (source,
    claim text) are, answer by answer, what the per-answer API gives: `extract_triplets` over the
    answer's sentences, `check_triplets` against its source's evidence sentences."""
    if pipeline == "auto" and load_pipeline("auto")[1].startswith("blank"):
        pytest.skip("no spaCy model installed")
    sample = _sharing_sample(generate_audit_corpus(17, 1))
    extractor = FeatureExtractor(FeatureConfig(claims=True, pipeline=pipeline), cache=ParseCache(None))
    tables = extractor.fit(sample, progress=False).transform(sample, progress=False)
    spans = {rid: list(zip(g["start"].astype(int), g["end"].astype(int)))
             for rid, g in tables.sentences.groupby("response_id", sort=False)}
    expected, sentence_texts, claim_sources = [], Counter(), {}
    for r in sample.responses:
        triplets = extract_triplets(r.response, spans[r.id])
        sentence_texts.update({r.response[a:b] for a, b in spans[r.id]})
        evidence = evidence_sentences(tables.indices[r.source_id])
        for v in check_triplets(triplets, evidence, pipeline=pipeline):
            t = v.triplet
            claim_sources.setdefault(t.as_text(), set()).add(r.source_id)
            expected.append([r.id, t.sentence_index, t.start, t.end, t.subject.text, t.relation.text,
                             t.object.text, v.verdict, v.evidence_index, v.coverage])
    got = [[r.response_id, int(r.sentence_index), int(r.start), int(r.end), r.subject, r.relation, r.object,
            r.verdict, int(r.evidence_index), float(r.coverage)] for r in tables.claims.itertuples(index=False)]
    assert got == expected and len(got) > 300
    assert sum(n > 1 for n in sentence_texts.values()) >= 20
    assert sum(len(s) > 1 for s in claim_sources.values()) >= 20
    assert {v for *_, v, _, _ in got} == {"Entailment", "Neutral", "Contradiction"}
