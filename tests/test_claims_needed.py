"""Claims are extracted only for the answers whose triplets are read (issue 22: only what a
detector needs): the answers a unit calibrates on or scores. Their claim columns and triplets
are those of a whole-corpus extraction; the other answers' rows read as sentences without
triplets."""
from __future__ import annotations

import numpy as np

from evidencechain.config import load_config
from evidencechain.data.audit import generate_audit_corpus
from evidencechain.features import FeatureConfig, FeatureExtractor
from evidencechain.features.claims import ClaimsFamily
from evidencechain.plan import plan_units
from evidencechain.runner import claim_answers, load_corpora
from evidencechain.text.parse import ParseCache

COLUMNS = list(ClaimsFamily.columns)


def test_claims_for_some_answers_equal_the_whole_extraction_on_them():
    corpus = generate_audit_corpus(17, 1)
    wanted = {r.id for r in corpus.responses[::3]}
    extractor = FeatureExtractor(FeatureConfig(claims=True, pipeline="blank"), cache=ParseCache(None))
    extractor.fit(corpus, progress=False)
    whole = extractor.transform(corpus, progress=False)
    extractor.cache = ParseCache(None)
    part = extractor.transform(corpus, progress=False, claims_for=wanted)
    assert list(part.sentences.columns) == list(whole.sentences.columns)
    assert list(part.tokens.columns) == list(whole.tokens.columns)
    kept = whole.sentences["response_id"].isin(wanted).to_numpy()
    assert 0 < kept.sum() < len(kept)
    for c in COLUMNS:
        assert part.sentences[c].dtype == whole.sentences[c].dtype
        assert part.sentences.loc[kept, c].tolist() == whole.sentences.loc[kept, c].tolist()
    assert (part.sentences.loc[~kept, "triplets"] == "").all() and (part.sentences.loc[~kept, COLUMNS[1:]] == 0).all().all()
    tokens = whole.tokens["response_id"].isin(wanted).to_numpy()
    assert part.tokens["triplet_verdict"].dtype == whole.tokens["triplet_verdict"].dtype
    assert np.array_equal(part.tokens.loc[tokens, "triplet_verdict"], whole.tokens.loc[tokens, "triplet_verdict"])
    assert (part.tokens.loc[~tokens, "triplet_verdict"] == 0).all()
    assert part.claims.equals(whole.claims[whole.claims["response_id"].isin(wanted)].reset_index(drop=True))
    none = extractor.transform(corpus, progress=False, claims_for=set())
    assert none.claims.empty and (none.sentences["n_triplets"] == 0).all()


def test_the_runner_extracts_claims_for_calibration_and_test_answers_only(audit_corpus):
    config = load_config("experiments/audit.toml")
    config.corpora["audit"].response_jsonl = str(audit_corpus / "response.jsonl")
    config.corpora["audit"].source_info_jsonl = str(audit_corpus / "source_info.jsonl")
    corpora = load_corpora(config)
    units = plan_units(config, corpora)
    wanted = claim_answers(config, units)
    unit = units[0]
    assert wanted == {"audit": set(unit.calibration_ids) | set(unit.test_ids)}
    assert not wanted["audit"] & set(unit.fit_ids)


def test_claims_checked_by_the_learned_checker_are_extracted_for_every_answer(audit_corpus):
    config = load_config("experiments/audit.toml")
    config.corpora["audit"].response_jsonl = str(audit_corpus / "response.jsonl")
    config.corpora["audit"].source_info_jsonl = str(audit_corpus / "source_info.jsonl")
    corpora = load_corpora(config)
    units = plan_units(config, corpora)
    config.detectors.names = [*config.detectors.names, "RefChecker_NLI"]
    assert claim_answers(config, units) is None


def test_a_model_fits_without_its_training_answers_claims_and_scores_the_same(monkeypatch):
    from evidencechain.data.splits import split_corpus
    from evidencechain.detectors import reads_training_claims
    from evidencechain.model import EvidenceChain

    parts = split_corpus(generate_audit_corpus(17, 1), 0.2, 17)
    names = ("Lexical", "RefChecker", "EvidenceChain_LR")
    assert not reads_training_claims(names) and reads_training_claims([*names, "RefChecker_NLI"])
    asked = []
    transform = FeatureExtractor.transform

    def spy(self, corpus, *args, claims_for=None, **kwargs):
        asked.append((corpus.name, claims_for))
        return transform(self, corpus, *args, claims_for=claims_for, **kwargs)

    def fitted(skip: bool) -> EvidenceChain:
        monkeypatch.setattr("evidencechain.model.reads_training_claims", lambda _: not skip)
        model = EvidenceChain(names, "EvidenceChain_LR", FeatureConfig(pipeline="blank"), 17, cache=ParseCache(None))
        return model.fit(parts["train"], parts["calibration"], progress=False)

    monkeypatch.setattr(FeatureExtractor, "transform", spy)
    skipped = fitted(True)
    assert asked[0] == (parts["train"].name, set()) and asked[1][1] is None  # calibration: every answer
    whole = fitted(False)
    assert asked[2] == (parts["train"].name, None)
    assert skipped.thresholds == whole.thresholds
    a, b = (m.score(parts["test"], progress=False).sentences for m in (skipped, whole))
    assert a.equals(b)
