"""The checker timed on another machine (`checker.device_bench`, `bench checker-export /
checker-device / record-device`): the exported copy has half-precision weights and verdicts of its
own model, the measurement counts agreeing verdicts, and the README renders the record. A tiny
random BERT trained for a few steps stands in for MiniLM."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.neural
torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from checker_support import save_tiny_bert  # noqa: E402
from safetensors.torch import load_file  # noqa: E402

from evidencechain.checker import device_bench  # noqa: E402
from evidencechain.checker.infer import CheckerScorer  # noqa: E402
from evidencechain.checker.model import ModelSettings, read_meta  # noqa: E402
from evidencechain.checker.records import Pair  # noqa: E402
from evidencechain.checker.train import TrainSettings, train  # noqa: E402
from evidencechain.io import sha256_file  # noqa: E402
from evidencechain.report.performance import render_readme  # noqa: E402

FACTS = [("oslo", "norway"), ("lima", "peru"), ("quito", "ecuador"), ("hanoi", "vietnam")]


def _pairs() -> list[Pair]:
    out = []
    for i, (city, country) in enumerate(FACTS):
        other = FACTS[(i + 1) % len(FACTS)][1]
        premise = f"{city} is the capital of {country} . many people live in {city} ."
        for claim, label in [(f"{city} is the capital of {country} .", "supported"),
                             (f"{city} is the capital of {other} .", "conflict"),
                             (f"{city} is the oldest city in {country} .", "baseless")]:
            out.append(Pair(premise, claim, label, (), token_labels=False, source="tiny", group=city))
    return out


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> tuple[Path, Path, list[Pair]]:
    pairs = _pairs()
    base = save_tiny_bert((w for p in pairs for w in f"{p.premise} {p.claim}".split()), tmp_path_factory.mktemp("bert"))
    settings = ModelSettings(base=str(base), max_length=32, freeze_layers=1, dropout=0.1)
    fast = TrainSettings(epochs=2, batch_size=4, lr=1e-3, head_lr=5e-3, threads=1, checkpoint_every=100)
    model = tmp_path_factory.mktemp("checker")
    train(pairs[:9], pairs[9:], settings, fast, model, 7, progress=False)
    out = device_bench.export(model, [p.premise for p in pairs], [p.claim for p in pairs],
                              tmp_path_factory.mktemp("export"))
    return model, out, pairs


def test_the_export_is_a_half_precision_copy_with_its_own_cpu_verdicts(exported):
    model, out, pairs = exported
    copy = out / "checker"
    weights = load_file(str(copy / "model.safetensors"))
    assert {t.dtype for t in weights.values() if t.is_floating_point()} == {torch.float16}
    assert read_meta(copy)["sha256"] == sha256_file(copy / "model.safetensors")
    data = json.loads((out / device_bench.PAIRS).read_text())
    assert len(data["cpu_probs"]) == len(pairs) and data["claims"] == [p.claim for p in pairs]
    full = CheckerScorer.load(model, device="cpu").score(data["premises"], data["claims"]).probs
    assert abs(full - torch.tensor(data["cpu_probs"]).numpy()).max() < 0.02  # half the bytes, nearly the same model


def test_the_measurement_counts_the_verdicts_that_agree(exported):
    _, out, pairs = exported
    result = device_bench.measure(out, batch_sizes=(2, 5), device="cpu")
    assert result["pairs"] == len(pairs) and result["verdicts_agree"] == len(pairs)
    assert result["max_probability_difference"] < 1e-3
    assert [r["label"] for r in result["rows"]] == ["cpu fp32, batch 2", "cpu fp32, batch 5"]
    assert all(r["pairs_per_s"] > 0 for r in result["rows"])


def test_the_readme_renders_the_device_record():
    readme = "x\n<!-- performance:start -->\nold\n<!-- performance:end -->\n"
    record = {"device": "NVIDIA H100 80GB HBM3", "torch": "2.11.0", "commit": "abc123", "pairs": 256,
              "rows": [{"label": "cuda bf16, batch 256", "pairs_per_s": 1874.3}], "verdicts_agree": 255,
              "max_probability_difference": 0.0084}
    bench = {"commit": "abc123", "measured_at": "now", "machine": {"cores": 2}, "rows": [], "checker": []}
    text = render_readme(readme, {"bench": bench, "device:checker": record})
    assert "NVIDIA H100 80GB HBM3" in text and "1874.3 pairs/s" in text and "255 of 256 pairs" in text
