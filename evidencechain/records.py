"""Typed records for the RAGTruth interchange format."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from .errors import ConfigError, did_you_mean

TASK_TYPES = ("QA", "Summary", "Data2txt")
SOURCE_TASK_TYPES = (*TASK_TYPES, "Dialogue")
"""Task types a Source may carry: RAGTruth's three and dialogue (a benchmark's dialogue subset)."""
SPLITS = ("train", "test")
"""Splits a RAGTruth file may carry; adapters may also assign "calibration" (a predefined
threshold split such as a benchmark's `evaluation` or `val` cut)."""
QUALITIES = ("good", "incorrect_refusal", "truncated")
LABEL_TYPES = (
    "Evident Conflict",
    "Subtle Conflict",
    "Evident Baseless Info",
    "Subtle Baseless Info",
)
RESPONSE_FIELDS = ("id", "source_id", "model", "temperature", "labels", "split", "quality", "response")
SOURCE_FIELDS = ("source_id", "task_type", "source", "source_info", "prompt")


@dataclass(frozen=True, slots=True)
class Label:
    """A hallucinated character span of a response (end exclusive)."""

    start: int
    end: int
    text: str
    label_type: str
    meta: str | None = ""
    """The annotator's note; None where the file has null (kept so a round trip is exact)."""
    due_to_null: bool | None = None
    implicit_true: bool | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "meta": self.meta,
            "label_type": self.label_type,
        }
        if self.implicit_true is not None:
            out["implicit_true"] = self.implicit_true
        if self.due_to_null is not None:
            out["due_to_null"] = self.due_to_null
        return out


@dataclass(frozen=True, slots=True)
class SentenceGold:
    """Gold annotation of one generated sentence (audit corpus only).

    `chunk_index` is the index of the evidence chunk a supported sentence rests on
    (None for hallucinated sentences or where no single chunk applies).
    `tier` is RAGHalu's tier-1 class: "verifiable", or "no_info" for a sentence with nothing
    to verify (a greeting, an offer of help, a question back, a hedge or refusal); a NO-INFO
    sentence carries no label, is `supported` and has no chunk. JSON holds `tier` only when it
    is "no_info", so files without NO-INFO sentences are unchanged.
    """

    TIERS: ClassVar[tuple[str, ...]] = ("verifiable", "no_info")

    start: int
    end: int
    chunk_index: int | None
    supported: bool
    tier: str = "verifiable"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "start": self.start,
            "end": self.end,
            "chunk_index": self.chunk_index,
            "supported": self.supported,
        }
        if self.tier != "verifiable":
            out["tier"] = self.tier
        return out


def is_empty_answer(text: str) -> bool:
    """An answer with nothing to check: empty or whitespace only (kept, never scored)."""
    return not text.strip()


@dataclass(slots=True)
class Response:
    id: str
    source_id: str
    model: str
    temperature: float
    labels: tuple[Label, ...]
    split: str
    quality: str
    response: str
    sentence_meta: tuple[SentenceGold, ...] | None = None
    response_label: int | None = None
    """Response-level gold for corpora labelled per answer, without spans; None means: derive from labels."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Fields outside the official schema, kept so a round trip loses nothing."""
    subset: str = ""
    """The subset or domain an answer belongs to (a benchmark's task or domain); '' if none."""

    @property
    def hallucinated(self) -> bool:
        if self.response_label is not None:
            return bool(self.response_label)
        return len(self.labels) > 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "source_id": self.source_id,
            "model": self.model,
            "temperature": self.temperature,
            "labels": [lab.to_json() for lab in self.labels],
            "split": self.split,
            "quality": self.quality,
            "response": self.response,
        }
        if self.sentence_meta is not None:
            out["sentence_meta"] = [s.to_json() for s in self.sentence_meta]
        if self.response_label is not None:
            out["response_label"] = self.response_label
        if self.subset:
            out["subset"] = self.subset
        out.update(self.extra)
        return out


@dataclass(slots=True)
class Source:
    source_id: str
    task_type: str
    source: str
    source_info: str | dict[str, Any]
    prompt: str
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.task_type not in SOURCE_TASK_TYPES:
            raise ConfigError(f"Source {self.source_id!r}: unknown task_type {self.task_type!r}"
                              f"{did_you_mean(self.task_type, SOURCE_TASK_TYPES)}; "
                              f"expected one of {SOURCE_TASK_TYPES}")
        if not isinstance(self.source_info, (str, dict)):
            raise ConfigError(f"Source {self.source_id!r}: source_info must be a str or dict, "
                              f"got {type(self.source_info).__name__}")

    @property
    def query(self) -> str | None:
        """The question (QA) or conversation (dialogue) the answer responds to, if any."""
        info = self.source_info
        if isinstance(info, dict):
            for key in ("question", "query", "dialogue_history"):
                if isinstance(info.get(key), str):
                    return info[key]
        return None

    def to_json(self) -> dict[str, Any]:
        out = {
            "source_id": self.source_id,
            "task_type": self.task_type,
            "source": self.source,
            "source_info": self.source_info,
            "prompt": self.prompt,
        }
        out.update(self.extra)
        return out


@dataclass(slots=True)
class Corpus:
    """Responses joined to their sources, plus an account of what loading removed."""

    name: str
    sources: dict[str, Source]
    responses: list[Response]
    filtered: dict[str, int] = field(default_factory=dict)
    span_labels: bool = True
    """False for corpora with response-level labels only: word/span metrics are skipped."""
    labelled: bool = True
    """False when answers carry no gold labels at all (a user's file to score): nothing to evaluate."""

    @property
    def empty_answers(self) -> int:
        """Kept answers with nothing to check: each gets a row with status 'empty', never a score."""
        return sum(is_empty_answer(r.response) for r in self.responses)

    @property
    def subsets(self) -> list[str]:
        """The subsets (domains) present, sorted; [''] for a corpus without subsets."""
        return sorted({r.subset for r in self.responses})

    def source_of(self, response: Response) -> Source:
        return self.sources[response.source_id]

    def subset(self, response_ids: set[str] | None = None, source_ids: set[str] | None = None,
               name: str | None = None) -> Corpus:
        keep = [
            r for r in self.responses
            if (response_ids is None or r.id in response_ids)
            and (source_ids is None or r.source_id in source_ids)
        ]
        used = {r.source_id for r in keep}
        return Corpus(
            name=name or self.name,
            sources={k: v for k, v in self.sources.items() if k in used},
            responses=keep,
            filtered=dict(self.filtered),
            span_labels=self.span_labels,
            labelled=self.labelled,
        )

    def __len__(self) -> int:
        return len(self.responses)
