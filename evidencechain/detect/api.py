"""The user-facing detector, in the shape of the ecosystem's (LettuceDetect, RefChecker):

    from evidencechain import Detector
    detector = Detector.default()                  # built on first use, then cached
    result = detector.predict(context=["The museum opened in 1987."],
                              question="When did the museum open?", answer="It opened in 1991.")
    result.verdict, [(s.text, s.confidence) for s in result.spans], result.to_dict()
    results = detector.predict_batch([{"context": ..., "question": ..., "answer": ...}, ...])

`Detector.load(path)` takes any fitted model directory (`RUN/model`). `EvidenceChain` stays
the research interface (fit / score / tables); a Detector wraps one fitted EvidenceChain and
one of its detectors, named in every result.
"""
from __future__ import annotations

import logging
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from ..errors import ConfigError, ModelError
from ..results import DetectionResult

log = logging.getLogger(__name__)
DEVICES = ("cpu", "cuda", "auto")
BATCH_SIZE = 64


class Detector:
    """A fitted EvidenceChain model and the detector whose verdicts it reports."""

    def __init__(self, model, detector: str | None = None, name: str = "model", card: dict | None = None,
                 device: str = "cpu", batch_size: int = BATCH_SIZE, path: str | Path | None = None,
                 conflicts: bool | None = None):
        self.model = model
        self.path = Path(path) if path is not None else None
        """The model directory (None for a model given as an object)."""
        self.detector = model.detector_for(detector)
        self.name = name
        """How results name the model: 'default-<key>' or the model directory."""
        self.card = card or {}
        self.batch_size = _positive(batch_size, "batch_size")
        self.device = _device(device, model)
        card_rule = self.card.get("conflict_rule", self.card.get("recipe", {}).get("conflict_rule"))
        self.conflicts = bool(card_rule) if conflicts is None else conflicts
        """Flag the words of confident semantic signals by rule (`results_from_scored`); by default
        as the model's card says (on for the default model and for a model `calibrate` made from it)."""

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def default(cls, detector: str | None = None, device: str = "cpu", cache_dir: str | Path | None = None,
                pipeline: str = "auto", parse_cache: bool = True, quiet: bool = False,
                batch_size: int = BATCH_SIZE, conflicts: bool | None = None) -> Detector:
        """The default model, built on first use (see `evidencechain.detect.default`)."""
        from .default import cache_dir as user_cache
        from .default import ensure_default_model, read_card

        root = Path(cache_dir) if cache_dir else user_cache()
        path = ensure_default_model(pipeline, root, quiet=quiet)
        try:
            model = _load(path, root if parse_cache else None)
        except ModelError as exc:  # a damaged, foreign or old cached copy: build it again, once
            import shutil
            if not quiet:
                print(f"evidencechain: the cached default model is unusable ({exc}); rebuilding it",
                      file=sys.stderr, flush=True)
            shutil.rmtree(path, ignore_errors=True)
            path = ensure_default_model(pipeline, root, quiet=quiet)
            model = _load(path, root if parse_cache else None)
        card = read_card(path)
        return cls(model, detector or card.get("detector"), path.name, card, device, batch_size, path, conflicts)

    @classmethod
    def load(cls, path: str | Path, detector: str | None = None, device: str = "cpu",
             cache_dir: str | Path | None = None, parse_cache: bool = True,
             batch_size: int = BATCH_SIZE, conflicts: bool | None = None) -> Detector:
        """Any fitted model directory (RUN/model); nothing in it is executed (see `modelfile`)."""
        from .default import cache_dir as user_cache
        from .default import read_card

        root = Path(cache_dir) if cache_dir else user_cache()
        model = _load(Path(path), root if parse_cache else None)
        card = read_card(path)
        return cls(model, detector or card.get("detector"), str(path), card, device, batch_size, path, conflicts)

    # -- prediction -----------------------------------------------------------------------
    def predict(self, context: str | list[str], question: str | None = None, answer: str | None = None,
                id: str | None = None) -> DetectionResult:  # noqa: A002 - the ecosystem's field name
        """Check one answer against its context (a string, or a list of passages)."""
        record = {"context": context, "question": question, "answer": answer}
        if id is not None:
            record["id"] = id
        return self.predict_batch([record])[0]

    def predict_batch(self, records: Iterable[Mapping], progress: bool = False) -> list[DetectionResult]:
        """Check many answers ({context, question?, answer, id?} each), scored in batches."""
        from .inputs import records_to_corpus

        corpus, ids = records_to_corpus(records)
        return list(self.iter_corpus(corpus, ids, progress=progress))

    def iter_corpus(self, corpus, ids: list[str] | None = None, progress: bool = False
                    ) -> Iterator[DetectionResult]:
        """Results for every answer of a Corpus, in order, one batch at a time (constant memory)."""
        from dataclasses import replace

        from tqdm.auto import tqdm

        from ..records import Corpus
        from ..results import results_from_scored
        from ..text.parallel import one_openmp_thread

        responses = corpus.responses
        bar = tqdm(total=len(responses), desc="detect", unit="answer", disable=not progress, leave=False,
                   file=sys.stderr)
        try:
            for lo in range(0, len(responses), self.batch_size):
                part = responses[lo:lo + self.batch_size]
                # internal ids: a batch is scored by position, whatever the user's ids are
                batch = [replace(r, id=str(k)) for k, r in enumerate(part)]
                used = dict.fromkeys(r.source_id for r in batch)  # first-appearance order
                sub = Corpus(corpus.name, {s: corpus.sources[s] for s in used}, batch, {},
                             span_labels=True, labelled=False)
                with one_openmp_thread():
                    scored = self.model.score(sub, progress=False)
                names = ids[lo:lo + len(part)] if ids is not None else [r.id for r in part]
                yield from results_from_scored(self.model, self.detector, sub, scored, names, self.name,
                                               self.conflicts)
                bar.update(len(part))
        finally:
            bar.close()

    def info(self) -> dict:
        """What the results rest on: model, detector, thresholds, the default model's card."""
        return {"model": self.name, "detector": self.detector, "device": self.device,
                "thresholds": self.model.thresholds[self.detector],
                "selection_rule": self.card.get("selection_rule", "the model's primary detector"),
                "learned_checker": self.card.get("learned_checker", "absent"),
                "conflict_rule": self.conflicts,
                "spacy_pipeline": self.model.features.pipeline}

    def close(self) -> None:
        """Close the parse cache (a sqlite file in the cache directory)."""
        if self.model.cache is not None:
            self.model.cache.close()

    def __enter__(self) -> Detector:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Detector(model={self.name!r}, detector={self.detector!r}, device={self.device!r})"


def _load(path: Path, cache_root: Path | None):
    from ..model import EvidenceChain
    from ..text.parse import ParseCache

    cache = ParseCache(cache_root / "parse.sqlite") if cache_root is not None else None
    model = EvidenceChain.load(path, cache=cache)
    if not model.detectors or model.extractor is None:
        raise ModelError(f"{path}: the model is not fitted (no detectors); fit it with `evidencechain run`")
    return model


def _positive(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"{what} must be a positive integer, got {value!r}")
    return value


def _device(device: str, model) -> str:
    """The device the neural parts run on; the feature detectors always run on the CPU."""
    if not isinstance(device, str) or not (device in DEVICES or device.startswith("cuda:")):
        raise ConfigError(f"device must be 'cpu', 'cuda', 'cuda:N' or 'auto', got {device!r}")
    embedder = getattr(model.extractor, "embedder", None)
    if embedder is None:
        if device not in ("cpu", "auto"):
            log.info("device=%r: this model has no neural component; it runs on the CPU", device)
        return "cpu"
    from ..torch_support import device as default_device
    from ..torch_support import import_torch

    if device == "auto":
        device = default_device()
    elif device.startswith("cuda") and not import_torch().cuda.is_available():
        raise ConfigError(f"device={device!r}: no CUDA device is available here; use device='cpu'")
    embedder.device_name, embedder._model = device, None  # loaded there at its first encode
    return device
