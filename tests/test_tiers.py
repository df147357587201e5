"""RAGHalu's tier 1: NO-INFO sentences in the audit corpus, their gold `tier`, and the tier-1
classifier (`features.tiers`)."""
from __future__ import annotations

import json
import pickle
import random
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from evidencechain.data.audit import MODELS, TASK_PLAN, generate_audit_corpus
from evidencechain.data.audit.corpus import build_draft
from evidencechain.data.audit.resources import RESPONSES
from evidencechain.data.audit.respond import respond
from evidencechain.data.ragtruth import DataValidationError, load_ragtruth, write_ragtruth
from evidencechain.data.splits import assign_splits
from evidencechain.features.tiers import FEATURES, TIERS, TierClassifier, tier_features
from evidencechain.io import sha256_file
from evidencechain.records import SentenceGold

KINDS = RESPONSES.no_info["kinds"]


def _pieces(template: str) -> list[str]:
    return re.split(r"(?<=[.!?]) +(?=[A-Z])", template)


KIND_OF = {piece: kind for kind in KINDS for templates in RESPONSES.no_info[kind].values()
           for template in templates for piece in _pieces(template)}
"""Every NO-INFO gold sentence the generator can write, and its kind."""


@pytest.fixture(scope="module")
def corpus():
    return generate_audit_corpus(seed=17)


def _sentences(corpus, splits=None):
    """(text, tier, kind or None) of every gold sentence, for sources in `splits`."""
    assignment = assign_splits(corpus, 0.2, 17)
    out = []
    for r in corpus.responses:
        if splits is None or assignment[r.source_id] in splits:
            for g in r.sentence_meta:
                text = r.response[g.start:g.end]
                out.append((text, g.tier, KIND_OF[text] if g.tier == "no_info" else None))
    return out


# ---------------------------------------------------------------- the generator

def test_no_info_templates_are_many_and_per_task():
    for kind in KINDS:
        table = RESPONSES.no_info[kind]
        assert set(table) == {"any", "QA", "Summary", "Data2txt"}
        for task in ("QA", "Summary", "Data2txt"):
            templates = table["any"] + table[task]
            assert len(set(templates)) >= 15, (kind, task)
            assert all(piece[-1] in ".!?" for t in templates for piece in _pieces(t))
    for model in MODELS:
        assert set(RESPONSES.styles[model]["no_info"]) == set(KINDS)


def test_no_info_sentences_carry_tier_gold_and_no_labels(corpus):
    kinds, per_model = Counter(), Counter()
    for r in corpus.responses:
        task = corpus.sources[r.source_id].task_type
        tiers = [g.tier for g in r.sentence_meta]
        assert set(tiers) <= set(TIERS)
        facts = [i for i, t in enumerate(tiers) if t == "verifiable"]
        for i, g in enumerate(r.sentence_meta):
            if g.tier != "no_info":
                continue
            text = r.response[g.start:g.end]
            kind = KIND_OF[text]
            kinds[kind] += 1
            per_model[r.model] += 1
            assert any(text in _pieces(t) for t in RESPONSES.no_info[kind]["any"] + RESPONSES.no_info[kind][task])
            assert g.supported and g.chunk_index is None
            assert not [lab for lab in r.labels if lab.start < g.end and g.start < lab.end]
            where = RESPONSES.no_info["where"][kind]
            if where == "start":
                assert i < facts[0]
            elif where == "end":
                assert i > facts[-1]
            else:
                assert i > facts[0]
        assert sum(t == "no_info" for t in tiers) <= 2 * len(KINDS)
    assert set(kinds) == set(KINDS)
    assert kinds["greeting"] > kinds["refusal"] and kinds["closing"] > kinds["question"]
    # Chat-tuned labels are chattier than gpt-4.
    assert per_model["gpt-4-0613"] == min(per_model.values())
    assert per_model["llama-2-7b-chat"] == max(per_model.values())
    assert per_model["llama-2-7b-chat"] > 5 * per_model["gpt-4-0613"]


def test_no_info_sentences_leave_the_factual_sentences_as_they_were():
    """The NO-INFO stream is separate: with it or without it, the facts, frames, corruptions
    and the draws after the response (the temperature) are the same."""
    for plan in TASK_PLAN:
        sid = f"{plan.prefix}-0002"
        draft = build_draft(17, plan, sid)
        for model in MODELS:
            for corrupted in (False, True):
                plain_rng = random.Random(f"audit:17:response:{sid}:{model}")
                plain = respond(draft, model, plain_rng, corrupted)
                rng = random.Random(f"audit:17:response:{sid}:{model}")
                text, labels, gold = respond(draft, model, rng, corrupted,
                                             random.Random(f"audit:17:noinfo:{sid}:{model}"))
                assert rng.random() == plain_rng.random()
                facts = [g for g in gold if g.tier == "verifiable"]
                assert " ".join(text[g.start:g.end] for g in facts) == plain[0]
                assert [lab.text for lab in labels] == [lab.text for lab in plain[1]]
                assert [text[lab.start:lab.end] for lab in labels] == [lab.text for lab in labels]
                assert [(g.chunk_index, g.supported) for g in facts] == \
                    [(g.chunk_index, g.supported) for g in plain[2]]
                assert all(g.tier == "verifiable" for g in plain[2])


def _hashes(folder: Path) -> dict[str, str]:
    return {name: sha256_file(folder / name) for name in ("response.jsonl", "source_info.jsonl")}


def test_corpus_is_byte_identical_per_seed(corpus, tmp_path):
    write_ragtruth(corpus, tmp_path / "a")
    write_ragtruth(generate_audit_corpus(seed=17), tmp_path / "b")
    write_ragtruth(generate_audit_corpus(seed=18), tmp_path / "c")
    first, again, other = (_hashes(tmp_path / name) for name in "abc")
    assert first == again
    assert first["response.jsonl"] != other["response.jsonl"]
    rows = [json.loads(line) for line in (tmp_path / "a" / "response.jsonl").read_text().splitlines()]
    metas = [m for row in rows for m in row["sentence_meta"]]
    assert {m.get("tier") for m in metas} == {None, "no_info"}  # verifiable is not written


# ---------------------------------------------------------------- records and loader

def test_sentence_gold_json_writes_tier_only_for_no_info():
    assert SentenceGold.TIERS == TIERS == ("verifiable", "no_info")
    assert SentenceGold(0, 5, 2, True).to_json() == {"start": 0, "end": 5, "chunk_index": 2, "supported": True}
    assert SentenceGold(0, 5, None, True, "no_info").to_json() == {
        "start": 0, "end": 5, "chunk_index": None, "supported": True, "tier": "no_info"}


_ABSENT = object()


def _with_tiers(tiers):
    """Edit of fixture line 1: ' I hope this helps!' appended, three gold sentences with `tiers`
    (`_ABSENT`: no `tier` key)."""
    def edit(row):
        first = "Hard-boiled eggs take 10 to 12 minutes in boiling water."
        assert row["response"].startswith(first)
        row["response"] += " I hope this helps!"
        n = len(row["response"])
        meta = [{"start": 0, "end": len(first), "chunk_index": 0, "supported": True},
                {"start": len(first) + 1, "end": n - 19, "chunk_index": None, "supported": True},
                {"start": n - 18, "end": n, "chunk_index": None, "supported": True}]
        for m, tier in zip(meta, tiers):
            if tier is not _ABSENT:
                m["tier"] = tier
        row["sentence_meta"] = meta
        return row
    return edit


def test_tier_round_trips_through_the_loader_and_writer(ragtruth_copy, tmp_path):
    resp, src = ragtruth_copy.write(responses={1: _with_tiers([_ABSENT, "verifiable", "no_info"])})
    corpus = load_ragtruth(resp, src)
    gold = next(r for r in corpus.responses if r.id == "0").sentence_meta
    assert [g.tier for g in gold] == ["verifiable", "verifiable", "no_info"]
    assert corpus.responses[0].response[gold[2].start:gold[2].end] == "I hope this helps!"
    out = tmp_path / "out"
    write_ragtruth(corpus, out)
    row = json.loads((out / "response.jsonl").read_text().splitlines()[0])
    assert ["tier" in m for m in row["sentence_meta"]] == [False, False, True]
    again = load_ragtruth(out / "response.jsonl", out / "source_info.jsonl")
    assert [r.to_json() for r in again.responses] == [r.to_json() for r in corpus.responses]


@pytest.mark.parametrize("tier", ["NO-INFO", "smalltalk", 1, None])
def test_loader_rejects_an_unknown_tier_naming_line_and_field(ragtruth_copy, tier):
    resp, src = ragtruth_copy.write(responses={1: _with_tiers([_ABSENT, tier, "no_info"])})
    with pytest.raises(DataValidationError) as err:
        load_ragtruth(resp, src)
    problems = err.value.problems
    assert [(p.line, p.field) for p in problems] == [(1, "sentence_meta[1].tier")]
    assert "expected one of ('verifiable', 'no_info')" in problems[0].message
    assert f"{resp}:1: field 'sentence_meta[1].tier'" in str(err.value)


# ---------------------------------------------------------------- the tier-1 classifier

def test_tier_features_are_surface_features():
    texts = ["Sure!", "Let me know if you need anything else.", "Would you like more detail on the menu?",
             "Unable to answer that part based on the given passages.",
             "The museum in Paris opened in 1987 and drew 12,000 visitors.", "Make sure the pan is hot.", ""]
    x = tier_features(texts)
    assert list(x.columns) == list(FEATURES) and len(x) == len(texts)
    assert np.isfinite(x.to_numpy()).all()
    assert x.loc[0, "greeting_cues"] > 0 and x.loc[5, "greeting_cues"] == 0  # "Sure!" yes, "make sure" no
    assert x.loc[1, "closing_cues"] > 0 and x.loc[1, "second_person"] > 0
    assert x.loc[2, "ends_question"] == 1 and x.loc[2, "question_cues"] > 0
    assert x.loc[3, "refusal_cues"] > 0
    assert x.loc[4, "digits"] > 0 and x.loc[4, "capitalised"] > 0
    assert x.loc[4, "content_words"] > x.loc[1, "content_words"]
    assert tier_features([]).shape == (0, len(FEATURES))


@pytest.fixture(scope="module")
def split_sentences(corpus):
    return _sentences(corpus, {"train", "calibration"}), _sentences(corpus, {"test"})


def _fit(rows, **kwargs) -> TierClassifier:
    return TierClassifier(**kwargs).fit([t for t, _, _ in rows], [tier for _, tier, _ in rows])


def test_classifier_separates_the_audit_test_split(split_sentences):
    train, test = split_sentences
    clf = _fit(train)
    proba = clf.predict_proba([t for t, _, _ in test])
    assert proba.shape == (len(test), 2) and np.allclose(proba.sum(axis=1), 1)
    gold = np.array([tier == "no_info" for _, tier, _ in test])
    pred = clf.predict([t for t, _, _ in test])
    assert set(np.unique(pred)) == {0, 1}
    assert pred[gold].mean() >= 0.95 and pred[~gold].mean() <= 0.01


def test_classifier_recalls_held_out_phrasings(split_sentences):
    """Half of the NO-INFO phrasings never seen in training: still found, facts still not."""
    train, test = split_sentences
    phrasings = sorted(KIND_OF)
    held = set(phrasings[1::2])
    clf = _fit([row for row in train if row[0] not in held])
    unseen = [t for t, tier, _ in test if tier == "no_info" and t in held]
    facts = [t for t, tier, _ in test if tier == "verifiable"]
    assert len(set(unseen)) >= 20
    assert clf.predict(unseen).mean() >= 0.9
    assert clf.predict(facts).mean() <= 0.02


@pytest.mark.parametrize("kind", KINDS)
def test_classifier_recalls_a_held_out_kind(split_sentences, kind):
    """A whole kind (e.g. every question back to the user) left out of training."""
    train, test = split_sentences
    clf = _fit([row for row in train if row[2] != kind])
    unseen = [t for t, _, k in test if k == kind]
    facts = [t for t, tier, _ in test if tier == "verifiable"]
    assert clf.predict(unseen).mean() >= 0.75
    assert clf.predict(facts).mean() <= 0.02


# Written for this test, in none of the generator's templates: NO-INFO sentences of the kinds
# real chat models write, and factual sentences without names or numbers (instructions, in the
# second person) that a template-bound classifier would mistake for small talk.
NEW_NO_INFO = [
    "Thanks so much for reaching out!", "Hope you find this useful.",
    "Could you share a bit more about what you are looking for?",
    "I'm not able to answer this from the information given.",
    "Sorry, I don't have enough information to answer that.", "Happy to help with any follow-up!",
    "Please let me know if anything is unclear.", "Hi! Thanks for the question.",
    "I'm not sure the passages cover this.", "Is there something specific you'd like to know?",
]
NEW_VERIFIABLE = [
    "Rinse your hair with warm water before applying shampoo.",
    "The pump only runs when there is demand for hot water.",
    "You should let the roast rest for ten minutes before carving it.",
    "Hugging releases oxytocin, which lowers blood pressure.",
    "Most reviewers praised the friendly staff and the quick service.",
    "The flag should be burned in a dignified way when it is worn out.",
    "Your body needs protein to build muscle after exercise.",
    "The skin of the fruit bursts when the gas pressure inside becomes too high.",
]


def test_classifier_generalises_beyond_the_templates(split_sentences):
    train, _ = split_sentences
    clf = _fit(train)
    assert clf.predict(NEW_NO_INFO).mean() >= 0.8
    assert clf.predict(NEW_VERIFIABLE).sum() <= 1


def test_classifier_is_deterministic_and_pickles(split_sentences):
    train, test = split_sentences
    texts = [t for t, _, _ in test] + NEW_NO_INFO + NEW_VERIFIABLE
    first, second = _fit(train), _fit(train)
    assert np.array_equal(first.predict_proba(texts), second.predict_proba(texts))
    restored = pickle.loads(pickle.dumps(first))
    assert np.array_equal(restored.predict_proba(texts), first.predict_proba(texts))
    assert np.array_equal(first.predict(texts, threshold=0.9), (first.predict_proba(texts)[:, 1] >= 0.9).astype(int))
    assert first.predict_proba([]).shape == (0, 2)


def test_classifier_refuses_bad_input():
    with pytest.raises(ValueError, match="unknown tier"):
        TierClassifier().fit(["Hi!", "It opened in 1990."], ["no_info", "NO-INFO"])
    with pytest.raises(ValueError, match="both tiers"):
        TierClassifier().fit(["Hi!", "Hello!"], ["no_info", "no_info"])
    with pytest.raises(ValueError, match="2 texts but 1 tiers"):
        TierClassifier().fit(["Hi!", "It opened in 1990."], ["no_info"])
    with pytest.raises(RuntimeError, match="not fitted"):
        TierClassifier().predict(["Hi!"])
