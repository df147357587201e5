"""Typed detection results, built from a model's scored tables.

Rules (the README's output section says the same):
  * verdict: 'hallucinated' when the answer's risk reaches the detector's calibrated answer
    threshold, or when any word reaches its calibrated word threshold; 'supported' otherwise;
    'nothing to check' for an empty answer.
  * spans of level 'word': runs of words whose risk reaches the word threshold.
  * a hallucinated answer always names words: when no word reaches the word threshold, the
    unsupported words (absent from the evidence, or a number or name the evidence lacks) of its
    unsupported sentences (else of its riskiest sentence) become spans of level 'sentence'; a
    sentence whose every word is in the evidence becomes one span of level 'sentence' covering
    it, with a note that the risk is spread over the whole sentence.
  * a sentence's evidence is the chunk with the highest TF-IDF cosine; a sentence that shares no
    content word with any chunk has evidence None ('no evidence'), never a chunk with score 0.
  * a span with a word that a semantic error class flags (model with the 'semantic' family) is a
    'conflict' and names its class and the evidence words it conflicts with (error_class,
    evidence_words: "polarity", "reduced"); other spans have None there.
  * with the conflict rule on (`conflicts=True`: the default model's recipe), a word of a
    confident semantic signal (`features.semantic.confidence`) is flagged even below the word
    threshold (level 'rule'), so its answer is 'hallucinated'.
  * span type: 'conflict' for a number or name the evidence lacks inside a sentence that otherwise
    rests on a chunk (at least half of its content words in it); otherwise, with the learned checker
    in the model, its verdict on the sentence (conflict or baseless, the likelier); without it,
    'baseless' for words of a sentence with no evidence or less than half of its content words
    in the evidence, else None.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

import numpy as np
import pandas as pd

from .text.chunks import build_evidence, passage_text
from .text.spans import tokens_to_spans
from .wordlevel import token_evidence

VERDICTS = ("hallucinated", "supported", "nothing to check")
SUPPORTED_SHARE = 0.5
"""Share of a sentence's content words found in its best chunk above which it 'rests on' the chunk."""
SPREAD_NOTE = ("the risk is spread over the whole sentence: its words are in the evidence, "
               "but the sentence as a whole is not supported")


@dataclass(frozen=True)
class EvidenceRef:
    """The chunk a sentence rests on. `passage` is an index into the context list, numbered from
    0 (`context[passage]`), as are `chunk`, sentence `index` and span `sentence`: the JSON record,
    `--format pretty` and the HTML report (P0 = context[0]) use this one numbering. `start`/`end`
    are character offsets into `context[passage]` when the context is a list of passages, else
    into the context string (for a RAGTruth Data2txt record: into its flattened text)."""

    chunk: int
    passage: int | None
    start: int
    end: int
    text: str
    score: float


@dataclass(frozen=True)
class SentenceResult:
    index: int
    start: int
    end: int
    text: str
    risk: float
    verdict: str
    """'unsupported' when its risk reaches the sentence threshold or it holds a span, else 'supported'."""
    evidence: EvidenceRef | None
    note: str = ""
    """'no evidence' when no chunk shares a content word with the sentence."""
    tier: str | None = None
    """RAGHalu's tier 1: 'VERIFIABLE', or 'NO-INFO' (greeting, offer of help, refusal: never flagged
    by RAGHalu); None when the model has no tier classifier."""
    triplets: list[dict] = field(default_factory=list)
    """The sentence's claim triplets (subject, relation, object, start, end, verdict) when the
    model extracts claims (RefChecker)."""


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    text: str
    confidence: float
    type: str | None
    """'conflict', 'baseless' or None (not known)."""
    level: str
    """'word' (passed the word threshold) or 'sentence' (named because the answer is flagged)."""
    sentence: int
    error_class: str | None = None
    """The semantic error class of a conflict (polarity, antonym, roles, quantity, recombination,
    modality) when `features.semantic` flags a word of the span; None otherwise."""
    evidence_words: str | None = None
    """The evidence words that span conflicts with ('reduced'), with `error_class`."""


@dataclass
class DetectionResult:
    id: str
    answer: str
    verdict: str
    risk: float
    threshold: float
    detector: str
    model: str
    sentences: list[SentenceResult] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    question: str | None = None
    note: str = ""
    passages: list[str] = field(default_factory=list, repr=False)
    """The evidence texts that EvidenceRef offsets refer to (for the HTML report; not in to_dict)."""
    chunks: list[tuple[int | None, int, int]] = field(default_factory=list, repr=False)
    """(passage, start, end) of every evidence chunk (for the HTML report; not in to_dict)."""

    @property
    def hallucinated(self) -> bool:
        return self.verdict == "hallucinated"

    def to_dict(self) -> dict:
        """Plain JSON-ready dict (floats rounded to 4 decimals), the JSONL record of `detect`."""
        return {
            "id": self.id, "verdict": self.verdict, "risk": _r(self.risk), "threshold": _r(self.threshold),
            "detector": self.detector, "model": self.model,
            "spans": [{**asdict(s), "confidence": _r(s.confidence)} for s in self.spans],
            "sentences": [{**asdict(s), "risk": _r(s.risk),
                           "evidence": None if s.evidence is None else
                           {**asdict(s.evidence), "score": _r(s.evidence.score)}} for s in self.sentences],
            "answer": self.answer, "question": self.question, "note": self.note,
        }


def _r(x: float) -> float:
    return round(float(x), 4)


def chunk_locations(source) -> tuple[list[tuple[int | None, int, int, str]], list[str]]:
    """(passage, start, end, text) of every evidence chunk of `source`, offsets as in EvidenceRef,
    and the evidence texts those offsets refer to (the passages, or the one context text)."""
    evidence = build_evidence(source)
    info = source.source_info
    passages = info.get("passages") if isinstance(info, dict) and source.task_type == "QA" else None
    if isinstance(passages, list):
        out, texts = [], [passage_text(p) for p in passages]
        for p, text in enumerate(texts):
            if text.strip():
                lead = len(text) - len(text.lstrip())
                out.append((p, lead, lead + len(text.strip()), text.strip()))
        if len(out) == len(evidence.chunks):
            return out, texts
    return [(None, c.start, c.end, c.text) for c in evidence.chunks], [evidence.text]


@dataclass
class _Tokens:
    """The token rows of one answer as arrays, in token order."""

    start: np.ndarray
    end: np.ndarray
    word: np.ndarray
    sentence: np.ndarray
    risk: np.ndarray
    pred: np.ndarray
    own: np.ndarray
    mismatch: np.ndarray
    semantic: np.ndarray | None = None
    """Per token: (class, evidence words) of a semantic signal, or None; None when not computed."""
    confident: np.ndarray | None = None
    """Per token: whether a confident semantic signal flags it; None when not computed."""


def _token_arrays(tokens: pd.DataFrame, name: str) -> tuple[dict[str, np.ndarray], dict]:
    """Columns of the whole token table as arrays, and the row positions of each answer."""
    if not len(tokens):
        return {}, {}
    cols = {"start": tokens["start"].to_numpy(), "end": tokens["end"].to_numpy(),
            "word": tokens["is_punct"].to_numpy() == 0, "sentence": tokens["sentence_index"].to_numpy(),
            "risk": tokens[f"risk_{name}"].to_numpy(dtype=float),
            "pred": (tokens[f"pred_{name}"].to_numpy() > 0) if f"pred_{name}" in tokens
            else np.zeros(len(tokens), bool),
            "own": token_evidence(tokens),
            "mismatch": (tokens["number_absent"].to_numpy() > 0) | (tokens["entity_absent"].to_numpy() > 0)
            | (tokens["semantic_conflict"].to_numpy() > 0 if "semantic_conflict" in tokens else False),
            "order": tokens["token_index"].to_numpy(),
            "semantic": _semantic_column(tokens),
            "confident": (tokens["semantic_confident"].to_numpy() > 0) if "semantic_confident" in tokens
            else np.zeros(len(tokens), bool)}
    return cols, tokens.groupby("response_id", sort=False).indices


def _semantic_column(tokens: pd.DataFrame) -> np.ndarray:
    out = np.full(len(tokens), None, dtype=object)
    if "semantic_class" in tokens:
        for k, (cls, words) in enumerate(zip(tokens["semantic_class"], tokens["semantic_evidence"])):
            if isinstance(cls, str) and cls:
                out[k] = (cls, words)
    return out


def results_from_scored(model, name: str, corpus, scored, ids: list[str] | None = None,
                        model_label: str = "", conflicts: bool = False) -> list[DetectionResult]:
    """One DetectionResult per answer of `corpus` (in order) under detector `name`; `conflicts`:
    flag the words of confident semantic signals by rule (level 'rule')."""
    cuts = model.thresholds[name]
    by_response: dict[str, list[dict]] = {}
    for r in scored.sentences.to_dict("records"):
        by_response.setdefault(r["response_id"], []).append(r)
    cols, positions = _token_arrays(scored.tokens, name)
    triplets = _triplets_by_sentence(scored.features.claims)
    rows = scored.responses.set_index("response_id")
    locations: dict[str, tuple] = {}
    out = []
    for k, response in enumerate(corpus.responses):
        rid = response.id
        source = corpus.sources[response.source_id]
        if source.source_id not in locations:
            locations[source.source_id] = chunk_locations(source)
        toks = None
        if rid in positions:
            pos = positions[rid]
            pos = pos[np.argsort(cols["order"][pos], kind="stable")]
            toks = _Tokens(*(cols[c][pos] for c in ("start", "end", "word", "sentence", "risk", "pred", "own",
                                                     "mismatch", "semantic", "confident")))
        sents = sorted(by_response.get(rid, []), key=lambda r: r["sentence_index"])
        chunks, texts = locations[source.source_id]
        for r in sents:
            r["triplet_list"] = triplets.get((rid, int(r["sentence_index"])), [])
        result = _one(name, cuts, response, source, rows.loc[rid], sents, toks,
                      scored.features.parsed.get(rid), chunks, ids[k] if ids is not None else rid, model_label,
                      conflicts)
        result.passages, result.chunks = texts, [c[:3] for c in chunks]
        out.append(result)
    return out


def _one(name, cuts, response, source, row, sents: list[dict], toks: _Tokens | None, doc, locations,
         rid: str, model_label: str, conflicts: bool = False) -> DetectionResult:
    risk = float(row[f"risk_{name}"])
    result = DetectionResult(rid, response.response, "supported", risk, float(cuts["response"]), name,
                             model_label, question=source.query)
    if row["status"] != "scored" or not sents:
        result.verdict, result.note = "nothing to check", str(row["status"])
        return result
    result.sentences = [_sentence(r, name, cuts, locations) for r in sents]
    notes = []
    if "word" not in cuts:
        notes.append("no word-level threshold: this model was calibrated on answer-level labels only, "
                     "so spans come from unsupported sentences")
    spans = []
    if toks is not None and "word" in cuts and toks.pred.any():
        spans = _mask_spans(toks, doc, toks.pred, sents, "word")
    flagged = risk >= cuts["response"]
    if spans and not flagged:
        notes.append("words reach the word threshold although the answer's risk is below the answer "
                     "threshold: flagged for those words")
    if flagged and not spans and toks is not None:
        spans, spread = _fallback_spans(result.sentences, toks, doc, sents)
        if spread:
            notes.append(SPREAD_NOTE)
        if spans:
            notes.append("no word reaches the word threshold: the unsupported words of the flagged "
                         "sentences are named instead (level 'sentence')")
    if conflicts and toks is not None and toks.confident is not None:
        covered = np.zeros(len(toks.start), bool)
        for span in spans:
            covered |= (toks.start < span.end) & (toks.end > span.start)
        ruled = toks.confident & toks.word & ~covered
        if ruled.any():
            spans = sorted(spans + _mask_spans(toks, doc, ruled, sents, "rule"), key=lambda x: x.start)
            notes.append("words contradict the evidence (a confident semantic error class): flagged by "
                         "rule (level 'rule')")
    result.spans = spans
    named = {span.sentence for span in spans}  # a sentence with a flagged word is not 'supported'
    result.sentences = [replace(x, verdict="unsupported") if x.index in named else x for x in result.sentences]
    result.verdict = "hallucinated" if flagged or spans else "supported"
    result.note = "; ".join(dict.fromkeys(n for n in notes if n))
    return result


def _sentence(r: dict, name: str, cuts: dict, locations) -> SentenceResult:
    k = int(r.get("tfidf_chunk", -1))
    score = float(r.get("tfidf_max", 0.0))
    evidence, note = None, "no evidence"
    if 0 <= k < len(locations) and score > 0 and float(r["best_chunk_overlap"]) > 0:
        passage, start, end, text = locations[k]
        evidence, note = EvidenceRef(k, passage, start, end, text, score), ""
    risk = float(r[f"risk_{name}"])
    verdict = "unsupported" if risk >= cuts["sentence"] else "supported"
    tier = r.get("tier")
    return SentenceResult(int(r["sentence_index"]), int(r["start"]), int(r["end"]), r["text"], risk,
                          verdict, evidence, note, tier if isinstance(tier, str) else None,
                          r.get("triplet_list", []))


def _triplets_by_sentence(claims: pd.DataFrame | None) -> dict[tuple[str, int], list[dict]]:
    if claims is None or claims.empty:
        return {}
    out: dict[tuple[str, int], list[dict]] = {}
    for r in claims.to_dict("records"):
        out.setdefault((r["response_id"], int(r["sentence_index"])), []).append(
            {k: (int(r[k]) if k in ("start", "end") else r[k])
             for k in ("subject", "relation", "object", "start", "end", "verdict")})
    return out


def _span_type(toks: _Tokens, a: int, b: int, sent: dict) -> str | None:
    mismatch = bool(toks.mismatch[(toks.start < b) & (toks.end > a)].any())
    rests = float(sent["best_chunk_overlap"]) >= SUPPORTED_SHARE and float(sent.get("tfidf_max", 0)) > 0
    if mismatch and rests:
        return "conflict"
    conflict, baseless = float(sent.get("nli_conflict", np.nan)), float(sent.get("nli_baseless", np.nan))
    if conflict == conflict and baseless == baseless:
        return "conflict" if conflict > baseless else "baseless"
    if float(sent["coverage"]) < SUPPORTED_SHARE or float(sent["best_chunk_overlap"]) <= 0:
        return "baseless"
    return None


def _sentence_of(sents: list[dict], a: int) -> dict:
    return next((s for s in sents if s["start"] <= a < s["end"]), sents[0])


def _mask_spans(toks: _Tokens, doc, mask: np.ndarray, sents: list[dict], level: str) -> list[Span]:
    spans = []
    for a, b, conf in tokens_to_spans(doc, mask, toks.risk):
        sent = _sentence_of(sents, a)
        cls, words = _semantic_of(toks, a, b)
        spans.append(Span(a, b, doc.text[a:b], conf, "conflict" if cls else _span_type(toks, a, b, sent), level,
                          int(sent["sentence_index"]), cls, words))
    return spans


def _semantic_of(toks: _Tokens, a: int, b: int) -> tuple[str | None, str | None]:
    """The first semantic signal on a word of [a, b): (class, evidence words), else (None, None)."""
    if toks.semantic is None:
        return None, None
    found = [s for s in toks.semantic[(toks.start < b) & (toks.end > a)] if s is not None]
    return found[0] if found else (None, None)


def _fallback_spans(sentences: list[SentenceResult], toks: _Tokens, doc, sents: list[dict]
                    ) -> tuple[list[Span], bool]:
    """Spans of a flagged answer without word spans; (spans, whether a whole sentence was named)."""
    chosen = [s for s in sentences if s.verdict == "unsupported"] or [max(sentences, key=lambda s: s.risk)]
    spans, spread = [], False
    for s in chosen:
        mask = (toks.sentence == s.index) & toks.word & (toks.own >= 0.8 - 1e-9)
        if mask.any():
            spans += _mask_spans(toks, doc, mask, sents, "sentence")
        else:
            spans.append(Span(s.start, s.end, s.text, s.risk, _span_type(toks, s.start, s.end,
                                                                         _sentence_of(sents, s.start)),
                              "sentence", s.index))
            spread = True
    return sorted(spans, key=lambda x: x.start), spread
