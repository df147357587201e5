"""The learned support checker's model, trainer and scorer on a tiny random BERT (seconds, no MiniLM)."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.neural
torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from checker_support import save_tiny_bert  # noqa: E402

from evidencechain.checker import model as checker_model  # noqa: E402
from evidencechain.checker import train as checker_train  # noqa: E402
from evidencechain.checker.infer import CheckerScorer, predict, throughput  # noqa: E402
from evidencechain.checker.model import ModelSettings, build, encode_pairs, load, save, token_targets  # noqa: E402
from evidencechain.checker.records import Pair  # noqa: E402
from evidencechain.checker.train import CHECKPOINT, TrainSettings, train  # noqa: E402
from evidencechain.features.neural import NeuralUnavailable  # noqa: E402

CITIES = [("paris", "france", "seine"), ("berlin", "germany", "spree"), ("rome", "italy", "tiber"),
          ("madrid", "spain", "manzanares"), ("vienna", "austria", "danube")]
EXTRA = "the city has a large old tower and many people visit it every year in summer"


def _pairs() -> list[Pair]:
    out = []
    for i, (city, country, river) in enumerate(CITIES):
        other = CITIES[(i + 1) % len(CITIES)]
        premise = f"{city} is the capital of {country} . the river {river} flows through {city} . {EXTRA} ."
        if i % 2:
            premise = f"{premise} {EXTRA} . {EXTRA} ."
        for claim, label, word in [
            (f"{city} is the capital of {country} .", "supported", None),
            (f"the river {river} flows through {city} .", "supported", None),
            (f"{city} is the capital of {other[1]} .", "conflict", other[1]),
            (f"the river {other[2]} flows through {city} .", "conflict", other[2]),
            (f"{city} has a large old tower .", "supported", None),
            (f"{city} is the largest city in {country} .", "baseless", "largest"),
            (f"many people visit {city} every year in winter .", "baseless", "winter"),
            (f"{city} is not the capital of {country} .", "conflict", "not"),
        ]:
            spans = ((claim.index(word), claim.index(word) + len(word)),) if word else ()
            out.append(Pair(premise, claim, label, spans, token_labels=i != 3, source="tiny", group=city))
    return out


PAIRS = _pairs()
TRAIN, VALID = PAIRS[:32], PAIRS[32:]
FAST = TrainSettings(epochs=2, batch_size=8, lr=1e-3, head_lr=5e-3, threads=1, checkpoint_every=100)


@pytest.fixture(scope="module")
def tiny_base(tmp_path_factory) -> Path:
    words = (w for p in PAIRS for w in f"{p.premise} {p.claim}".split())
    return save_tiny_bert(words, tmp_path_factory.mktemp("tiny-bert"))


@pytest.fixture(scope="module")
def settings(tiny_base) -> ModelSettings:
    return ModelSettings(base=str(tiny_base), max_length=48, freeze_layers=1, dropout=0.1)


@pytest.fixture(scope="module")
def reference(tiny_base, settings, tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("reference")
    return out, train(TRAIN, VALID, settings, FAST, out, 7, progress=False)


def _sha(path: Path) -> str:
    return json.loads((path / "checker.json").read_text())["sha256"]


def test_token_labels_follow_claim_character_spans(settings):
    _, tokenizer = build(settings)
    premise = "paris is the capital of france ."
    claims = ["paris is the capital of germany .", "the river seine flows through paris ."]
    spans = [((24, 31),), ((10, 15), (30, 35))]
    enc = encode_pairs(tokenizer, [premise, premise], claims, 48)
    targets = token_targets(enc, spans)
    for i, claim in enumerate(claims):
        mask = enc.claim_mask[i]
        pieces = [claim[a:b] for a, b in enc.offsets[i][mask].tolist()]
        assert pieces == claim.split()
        marked = [claim[a:b] for (a, b), t in zip(enc.offsets[i][mask].tolist(), targets[i][mask].tolist()) if t]
        assert marked == [claim[s:e] for s, e in spans[i]]
        assert targets[i][~mask].sum() == 0
        types = enc.inputs["token_type_ids"][i]
        assert bool((types[mask] == 1).all())
    assert int(enc.claim_mask[0].sum()) == 7 and int(enc.claim_mask[1].sum()) == 7


def test_long_premises_are_cut_and_claims_kept(settings):
    _, tokenizer = build(settings)
    premise = " ".join(["paris"] * 200)
    claim = "the river seine flows through paris ."
    enc = encode_pairs(tokenizer, [premise], [claim], 24)
    assert enc.inputs["input_ids"].shape[1] == 24
    assert int(enc.claim_mask.sum()) == 7
    long_claim = " ".join(["seine"] * 40)
    enc = encode_pairs(tokenizer, [premise], [long_claim], 24)
    assert enc.inputs["input_ids"].shape[1] == 24 and int(enc.claim_mask.sum()) == 20
    assert int(enc.offsets[0].max()) <= len(long_claim)


def test_freezing_covers_embeddings_and_first_layers(settings):
    model, _ = build(replace(settings, freeze_layers=1))
    assert not any(p.requires_grad for p in model.encoder.embeddings.parameters())
    assert not any(p.requires_grad for p in model.encoder.encoder.layer[0].parameters())
    assert all(p.requires_grad for p in model.encoder.encoder.layer[1].parameters())
    assert all(p.requires_grad for p in model.verdict_head.parameters())


def test_training_is_bit_identical_and_reports_metrics(reference, settings, tmp_path):
    out, metrics = reference
    again = train(TRAIN, VALID, settings, FAST, tmp_path, 7, progress=False)
    assert _sha(tmp_path) == _sha(out)
    assert (tmp_path / "model.safetensors").read_bytes() == (out / "model.safetensors").read_bytes()
    assert metrics["steps"] == again["steps"] == 8 and metrics["complete"]
    assert not (out / CHECKPOINT).exists()
    for key in ("validation_accuracy", "validation_balanced_accuracy", "validation_recall_conflict",
                "validation_roc_auc_supported", "validation_token_f1", "pairs_per_second", "final_loss_verdict",
                "final_loss_token", "wall_seconds"):
        assert key in metrics
    assert metrics["device"] == "cpu" and metrics["validation_token_pairs"] == 8
    json.dumps(metrics)
    other = train(TRAIN, VALID, settings, FAST, tmp_path / "seed8", 8, progress=False)
    assert _sha(tmp_path / "seed8") != _sha(out) and other["steps"] == 8


def test_stopping_at_max_steps_then_continuing_matches(reference, settings, tmp_path):
    out, _ = reference
    first = train(TRAIN, VALID, settings, replace(FAST, max_steps=3), tmp_path, 7, progress=False)
    assert first["steps"] == 3 and not first["complete"]
    assert (tmp_path / CHECKPOINT).exists() and (tmp_path / "checker.json").exists()
    second = train(TRAIN, VALID, settings, FAST, tmp_path, 7, progress=False)
    assert second["resumed_from_step"] == 3 and second["complete"]
    assert _sha(tmp_path) == _sha(out)
    assert not (tmp_path / CHECKPOINT).exists()


def test_interrupted_training_resumes_from_its_last_checkpoint(reference, settings, tmp_path, monkeypatch):
    out, _ = reference
    real = checker_train._train_step
    calls = []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 6:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(checker_train, "_train_step", interrupted)
    with pytest.raises(KeyboardInterrupt):
        train(TRAIN, VALID, settings, replace(FAST, checkpoint_every=2), tmp_path, 7, progress=False)
    assert torch.load(tmp_path / CHECKPOINT, weights_only=True)["step"] == 4
    monkeypatch.setattr(checker_train, "_train_step", real)
    changed = train(TRAIN, VALID, settings, replace(FAST, lr=2e-3), tmp_path / "other", 7, progress=False,
                    inputs_hash="different")
    assert changed["resumed_from_step"] == 0
    resumed = train(TRAIN, VALID, settings, FAST, tmp_path, 7, progress=False)
    assert resumed["resumed_from_step"] == 4
    assert _sha(tmp_path) == _sha(out)


def test_a_checkpoint_of_other_inputs_is_ignored(settings, tmp_path):
    train(TRAIN, VALID, settings, replace(FAST, max_steps=2), tmp_path, 7, progress=False, inputs_hash="a")
    fresh = train(TRAIN, VALID, settings, replace(FAST, max_steps=2), tmp_path, 7, progress=False,
                  inputs_hash="b")
    assert fresh["resumed_from_step"] == 0


def test_save_load_round_trip_gives_identical_probabilities(settings, tmp_path):
    torch.manual_seed(3)
    model, tokenizer = build(settings)
    save(model, tokenizer, settings, tmp_path)
    premises, claims = [p.premise for p in VALID], [p.claim for p in VALID]
    before = predict(model, tokenizer, premises, claims, settings.max_length, 4, "cpu")
    loaded, _, loaded_settings = load(tmp_path, "cpu")
    assert loaded_settings == settings
    scorer = CheckerScorer.load(tmp_path, device="cpu", batch_size=4)
    after = scorer.score(premises, claims)
    assert np.array_equal(before.probs, after.probs)
    for (o1, p1), (o2, p2) in zip(before.token_spans, after.token_spans):
        assert np.array_equal(o1, o2) and np.array_equal(p1, p2)
    assert np.allclose(after.probs.sum(1), 1.0, atol=1e-5)
    assert str(tmp_path) in scorer.describe() and "cpu" in scorer.describe()
    assert throughput(scorer, premises, claims) > 0


def test_damaged_model_directories_raise_neural_unavailable(reference, tmp_path):
    import shutil

    out, _ = reference
    with pytest.raises(NeuralUnavailable, match="missing"):
        load(tmp_path / "nothing")
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    weights = copy / "model.safetensors"
    data = bytearray(weights.read_bytes())
    data[-1] ^= 0xFF
    weights.write_bytes(bytes(data))
    with pytest.raises(NeuralUnavailable, match="corrupt"):
        CheckerScorer.load(copy)
    weights.unlink()
    with pytest.raises(NeuralUnavailable, match="missing"):
        load(copy)
    (copy / "checker.json").write_text("{not json")
    with pytest.raises(NeuralUnavailable, match="damaged"):
        load(copy)


def test_int8_scorer_is_close_to_fp32(reference):
    out, _ = reference
    premises, claims = [p.premise for p in PAIRS], [p.claim for p in PAIRS]
    fp32 = CheckerScorer.load(out, device="cpu").score(premises, claims)
    int8_scorer = CheckerScorer.load(out, quantize="int8")
    assert int8_scorer.device == "cpu" and "int8" in int8_scorer.describe()
    int8 = int8_scorer.score(premises, claims)
    assert np.abs(int8.probs - fp32.probs).max() < 0.05
    assert all(np.abs(a[1] - b[1]).max() < 0.05 for a, b in zip(int8.token_spans, fp32.token_spans))


def test_scores_come_back_in_input_order(reference):
    out, _ = reference
    scorer = CheckerScorer.load(out, device="cpu", batch_size=3)
    order = np.random.default_rng(0).permutation(len(PAIRS))
    premises, claims = [PAIRS[i].premise for i in order], [PAIRS[i].claim for i in order]
    together = scorer.score(premises, claims)
    for k in (0, 5, 17, len(PAIRS) - 1):
        alone = scorer.score([premises[k]], [claims[k]])
        assert np.allclose(together.probs[k], alone.probs[0], atol=1e-5)
        offsets, probs = together.token_spans[k]
        assert [claims[k][a:b] for a, b in offsets] == claims[k].split()
        assert np.allclose(probs, alone.token_spans[0][1], atol=1e-5)
    empty = scorer.score([], [])
    assert empty.probs.shape == (0, 3) and empty.token_spans == []


def test_model_settings_are_the_shared_dataclass():
    from evidencechain.checker import settings as shared

    assert checker_model.ModelSettings is shared.ModelSettings
    assert checker_train.TrainSettings is shared.TrainSettings


def test_a_run_with_the_checker_reports_its_rows_and_columns(reference, tmp_path):
    """End to end: a trained (tiny) checker feeds the feature family, EvidenceChain_NLI and run.json."""
    import json

    import pandas as pd

    from evidencechain.config import load_config, revalidate
    from evidencechain.data.audit import generate_audit_corpus
    from evidencechain.data.ragtruth import write_ragtruth
    from evidencechain.runner import run

    model_dir, _ = reference
    corpus = tmp_path / "audit"
    audit = generate_audit_corpus(17)
    write_ragtruth(audit.subset(source_ids=set(sorted(audit.sources)[::3])), corpus)  # a third: every task
    config = load_config("experiments/audit.toml")
    config.cache_dir = str(tmp_path / "cache")
    config.features.pipeline = "blank"
    config.features.checker = str(model_dir)
    config.corpora["audit"].response_jsonl = str(corpus / "response.jsonl")
    config.corpora["audit"].source_info_jsonl = str(corpus / "source_info.jsonl")
    config.detectors.names = ["Lexical", "EvidenceChain_LR", "EvidenceChain_NLI", "RefChecker", "RefChecker_NLI"]
    config.detectors.primary = "EvidenceChain_LR"
    config.detectors.params = {}
    config.evaluation.ablation = False
    out = run(revalidate(config), tmp_path / "out", progress=False)
    meta = json.loads((out / "run.json").read_text())
    assert meta["components"]["checker"].startswith("present: learned checker")
    metrics = pd.read_csv(out / "metrics.csv")
    assert {"sentence", "response", "word"} <= set(metrics.loc[metrics["method"] == "EvidenceChain_NLI", "level"])
    sentences = pd.read_csv(out / "sentences.csv")
    assert sentences["nli_support"].between(0, 1).all() and (sentences["nli_window"].str.len() > 0).any()
    # RefChecker with the learned checker as its triplet checker: its own rows and verdicts
    assert {"sentence", "response", "word"} <= set(metrics.loc[metrics["method"] == "RefChecker_NLI", "level"])
    assert (sentences["n_triplets_checker"] == sentences["n_triplets"]).all()
    verdicts = pd.read_csv(out / "triplet_verdicts.csv")
    assert set(verdicts["checker"]) == {"rules", "learned checker"}
    per_checker = verdicts.groupby("checker")["triplets"].sum()
    assert per_checker["rules"] == per_checker["learned checker"] == sentences["n_triplets"].sum()
    # the saved model holds the checker's directory, not the checker: loading reads it from there again
    from evidencechain.model import EvidenceChain

    loaded = EvidenceChain.load(next(out.rglob("model.skops")).parent)
    assert loaded.extractor.checker is not None and "EvidenceChain_NLI" in loaded.detectors
