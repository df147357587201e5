"""Claim triplets as a feature family (RefChecker-style): each answer sentence's (subject,
relation, object) triplets, each checked against the sentences of its own source.

Sentence columns: `n_triplets`, `n_entailment`, `n_neutral`, `n_contradiction` and `triplets`
(readable: "subject | relation | object [Verdict]; ..."). Token column: `triplet_verdict`
(2 inside an element of a contradicted triplet, 1 of a neutral one, 0 otherwise). The triplet
table (one row per triplet, offsets in the answer) is kept on the feature tables for the
triplet-level evaluation and `detect`.

With the learned checker present, every triplet is also checked by it (RefChecker's own design:
a 3-way checker per triplet): the triplet's text against up to `checker_windows` evidence windows,
the window with the highest support probability deciding; supported, conflict, baseless map to
Entailment, Contradiction, Neutral. Those verdicts fill `verdict_checker` in the table and the
`*_checker` sentence and token columns (`CHECKER_COUNT_COLUMNS`, `triplet_verdict_checker`).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..text.cache import DEFAULT_CACHE, content_key
from ..text.dependency import (
    dependency_parses,
    dependency_pipeline_name,
    dependency_vocab,
    load_dependency_pipeline,
)
from ..text.nlp import load_pipeline
from ..text.parallel import map_chunks
from ..text.parse import ParsedText, parse_texts, pipeline_name, rule_pipeline, sentence_slice
from ..text.triplets import Triplet, sentence_jobs, sentence_triplets
from .evidence import EvidenceIndex
from .family import RUNS, FamilyContext, FeatureFamily, WorkTables, switched
from .triplets import COUNT_COLUMNS, EvidenceFacts, TripletVerdict, evidence_facts, judge

TRIPLET_COLUMNS = ["response_id", "sentence_index", "start", "end", "subject", "relation", "object",
                   "verdict", "evidence_index", "coverage"]
VERDICT_CODE = {"Entailment": 0, "Neutral": 1, "Contradiction": 2}
CHECKER_VERDICTS = ("Entailment", "Contradiction", "Neutral")  # the checker's supported, conflict, baseless
CHECKER_COUNT_COLUMNS = tuple(f"{c}_checker" for c in COUNT_COLUMNS)
_WORK_COLUMNS = ("elements", "source_id", "row")
CLAIMS = "claims table"
"""The scratch key of the full triplet table (`FamilyContext.scratch`)."""
CLAIM_ROWS = "claim rows"
"""The scratch key of the sentence and token rows the claim families work on (`claim_rows`)."""
_ROW_COLUMNS = ["response_id", "source_id", "sentence_index", "start", "end"]
CLAIMS_MEMO = "claim verdicts"
"""The `ParseCache.derived` map of each answer's checked triplets (`claim_verdicts`)."""
FACTS_MEMO = "claim evidence facts"
"""The `ParseCache.derived` map of each source's `evidence_facts` (`_source_facts`)."""
CLAIMS_FORMAT = 1
"""Version of the memos' values; bump it when what `claim_verdicts` returns changes shape."""


def claim_pipeline_name() -> str:
    """Which parser extracts the triplets (run.json): a dependency parse, or the clause rule."""
    nlp = load_dependency_pipeline()
    return f"spaCy dependency parse ({nlp.meta.get('name', 'model')})" if nlp is not None else \
        "clause rule (no dependency parser installed)"


def evidence_sentences(index: EvidenceIndex) -> list[str]:
    p = index.parsed
    spans = p.sentences or ([(0, len(p.text))] if p.text.strip() else [])
    return [p.text[a:b] for a, b in spans]


def evidence_parses(index: EvidenceIndex, pipeline: str) -> list[ParsedText | str]:
    """Per evidence sentence of the source (`evidence_sentences`): its parse alone with `pipeline`
    when that is a slice of the source's parse (`sentence_slice`), else its text (to parse)."""
    p = index.parsed
    if index.pipeline != pipeline_name(pipeline) or not rule_pipeline(pipeline) or not p.sentences:
        return evidence_sentences(index)
    tokenizer = load_pipeline(pipeline)[0].tokenizer
    return [sentence_slice(p, i, tokenizer) or p.text[a:b] for i, (a, b) in enumerate(p.sentences)]


def answer_triplets(jobs: dict[str, list[tuple[int, int, int]]], texts: dict[str, str], cache=None,
                    progress: bool = True) -> dict[str, list[Triplet]]:
    """Triplets of every answer of `jobs` (response id -> its `sentence_jobs`): each distinct
    sentence text is parsed (from the cache when seen before) and its triplets extracted once, then
    placed at every answer sentence that holds it (`Triplet.moved`)."""
    pieces = list(dict.fromkeys(texts[rid][a:b] for rid, js in jobs.items() for _, a, b in js))
    found = dict(zip(pieces, _sentence_triplets(pieces, cache, progress)))
    return {rid: [t.moved(a, i) for i, a, b in js for t in found[texts[rid][a:b]]] for rid, js in jobs.items()}


def _sentence_triplets(pieces: list[str], cache, progress: bool) -> list[list[Triplet]]:
    """The triplets of each sentence text alone (offsets into it, sentence index 0)."""
    if dependency_pipeline_name() is None:
        docs = load_pipeline("blank")[0].pipe(pieces)
        return [sentence_triplets(piece, [(0, 0, doc)], False) for piece, doc in zip(pieces, docs)]
    arcs = dependency_parses(pieces, cache=cache, progress=progress)
    vocab = dependency_vocab()

    def extract(which: list[int]) -> list[list[Triplet]]:
        return [sentence_triplets(pieces[k], [(0, 0, arcs[k].doc(vocab))], True) for k in which]

    return list(map_chunks(extract, range(len(pieces)), sizes=list(map(len, pieces)), progress=progress,
                           desc="claim triplets", unit="sentence"))


def claim_verdicts(sentences: pd.DataFrame, texts: dict[str, str], indices: dict[str, EvidenceIndex],
                   progress: bool = True, cache=None, pipeline: str = "auto") -> dict[str, list[TripletVerdict]]:
    """The checked triplets of every answer of the sentence table, in its order. An answer whose
    text, sentence spans and source evidence were checked before with this cache (under the same
    pipelines) is taken from its memo (`ParseCache.derived`): a warm re-score extracts nothing."""
    cache = cache or DEFAULT_CACHE
    groups = sentences.groupby("response_id", sort=False).indices if len(sentences) else {}
    starts, ends = sentences["start"].to_numpy(int), sentences["end"].to_numpy(int)
    spans = {rid: list(zip(starts[where].tolist(), ends[where].tolist())) for rid, where in groups.items()}
    source_of = dict(zip(sentences["response_id"], sentences["source_id"])) if len(sentences) else {}
    setting = (str(CLAIMS_FORMAT), pipeline_name(pipeline), dependency_pipeline_name() or "clause rule")
    evidence_key = {sid: content_key(indices[sid].pipeline, indices[sid].parsed.text)
                    for sid in dict.fromkeys(source_of.values())}
    keys = {rid: content_key(*setting, texts[rid], repr(spans[rid]), evidence_key[source_of[rid]]) for rid in groups}
    memo = cache.derived(CLAIMS_MEMO)
    todo = {rid: sentence_jobs(texts[rid], spans[rid]) for rid in groups if keys[rid] not in memo}
    if todo:
        fresh = _check_answers(answer_triplets(todo, texts, cache, progress), source_of, indices,
                               progress, cache, pipeline)
        memo.update((keys[rid], verdicts) for rid, verdicts in fresh.items())
    return {rid: memo[keys[rid]] for rid in groups}


def _check_answers(found: dict[str, list[Triplet]], source_of: dict[str, str], indices: dict[str, EvidenceIndex],
                   progress: bool, cache, pipeline: str) -> dict[str, list[TripletVerdict]]:
    """The verdicts of the triplets `found` of each answer against the evidence sentences of its
    source. A verdict depends only on the triplet's text and the source, so each distinct (source,
    triplet text) is checked once, on every core; the triplets' texts and the evidence sentences are
    parsed in one batch, and each source's `evidence_facts` are made once per cache
    (`ParseCache.derived`)."""
    as_text = {rid: [t.as_text() for t in triplets] for rid, triplets in found.items()}
    claims = list(dict.fromkeys(x for xs in as_text.values() for x in xs))
    # only the sources some triplet is checked against: an answer without triplets needs no evidence facts
    parsed, facts = _parse_claims(claims, list(dict.fromkeys(source_of[r] for r, xs in as_text.items() if xs)),
                                  indices, progress, cache, pipeline)
    pairs = list(dict.fromkeys((source_of[rid], x) for rid, xs in as_text.items() for x in xs))
    number = dict(zip(claims, range(len(claims))))

    def check(which: list[int]) -> list[tuple]:
        return [judge(parsed[number[pairs[k][1]]], facts[pairs[k][0]]) for k in which]

    judged = dict(zip(pairs, map_chunks(check, range(len(pairs)), sizes=[len(x) for _, x in pairs],
                                        progress=progress, desc="check claims", unit="claim")))
    return {rid: [TripletVerdict(t, *judged[source_of[rid], x]) for t, x in zip(triplets, as_text[rid])]
            for rid, triplets in found.items()}


def _parse_claims(claims: list[str], sources: list[str], indices: dict[str, EvidenceIndex], progress: bool,
                  cache, pipeline: str) -> tuple[list[ParsedText], dict[str, EvidenceFacts]]:
    """The parse of each claim text, and the `evidence_facts` of each source: from the memo when
    made before with this cache, else from its evidence sentences (parsed after the claims in
    one batch), on every core."""
    memo = cache.derived(FACTS_MEMO)
    keys = {sid: content_key(str(CLAIMS_FORMAT), pipeline_name(pipeline), indices[sid].pipeline,
                             indices[sid].parsed.text) for sid in sources}
    sliced = {keys[sid]: evidence_parses(indices[sid], pipeline) for sid in sources if keys[sid] not in memo}
    todo = [text for ev in sliced.values() for text in ev if isinstance(text, str)]
    parsed = parse_texts(claims + todo, pipeline=pipeline, cache=cache, progress=progress, desc="parse claims")
    rest = iter(parsed[len(claims):])
    evidence = [[next(rest) if isinstance(p, str) else p for p in ev] for ev in sliced.values()]

    def make(which: list[int]) -> list[EvidenceFacts]:
        return [evidence_facts(evidence[k]) for k in which]

    made = map_chunks(make, range(len(evidence)), sizes=[sum(len(p.text) for p in ev) for ev in evidence],
                      progress=progress, desc="index evidence", unit="source")
    memo.update(zip(sliced, made))
    return parsed[:len(claims)], {sid: memo[keys[sid]] for sid in sources}


def add_claim_features(sentences: pd.DataFrame, tokens: pd.DataFrame | None, texts: dict[str, str],
                       indices: dict[str, EvidenceIndex], progress: bool = True,
                       checker=None, cache=None) -> pd.DataFrame:
    """Add the claim columns to `sentences` (and `tokens`); return the triplet table. `checker`
    (a `features.checker.CheckerFeatures`) adds the learned checker's verdicts beside the rules'."""
    table = claim_table(sentences, tokens, texts, indices, progress, cache)
    if checker is not None:
        add_checker_verdicts(sentences, tokens, table, indices, checker, cache, progress)
    return public_table(table)


def claim_table(sentences: pd.DataFrame, tokens: pd.DataFrame | None, texts: dict[str, str],
                indices: dict[str, EvidenceIndex], progress: bool = True, cache=None,
                pipeline: str = "auto") -> pd.DataFrame:
    """Add the rules' claim columns to `sentences` (and `tokens`); return the full triplet table
    (with the element offsets and sentence rows that `add_checker_verdicts` reads).
    Every text is parsed once for all answers: the answer sentences (dependency parse), the
    triplets' texts, and each source's evidence sentences (once per source, not per answer), these
    two with the run's token pipeline (`pipeline`, as the other features); under the blank
    pipeline the evidence sentences are slices of the source's parse (`evidence_parses`).
    Triplets are extracted once per distinct sentence text and checked once per distinct (source,
    triplet text), on every core (`map_chunks`); an answer is done once per cache (`claim_verdicts`)."""
    verdicts_of = claim_verdicts(sentences, texts, indices, progress, cache, pipeline)
    source_of = dict(zip(sentences["response_id"], sentences["source_id"])) if len(sentences) else {}
    rows = []
    readable = np.full(len(sentences), "", dtype=object)
    row_of = dict(zip(zip(sentences["response_id"], sentences["sentence_index"].astype(int)), range(len(sentences))))
    for rid, verdicts in verdicts_of.items():
        sid = source_of[rid]
        for v in verdicts:
            t, k = v.triplet, row_of.get((rid, v.triplet.sentence_index))
            if k is None:
                continue
            text = f"{t.subject.text} | {t.relation.text} | {t.object.text} [{v.verdict}]"
            readable[k] = f"{readable[k]}; {text}" if readable[k] else text
            rows.append({"response_id": rid, "source_id": sid, "row": k,
                         "sentence_index": t.sentence_index, "start": t.start, "end": t.end,
                         "subject": t.subject.text, "relation": t.relation.text, "object": t.object.text,
                         "verdict": v.verdict, "evidence_index": v.evidence_index, "coverage": v.coverage,
                         "elements": [(e.start, e.end) for e in (t.subject, t.relation, t.object)]})
    sentences["triplets"] = readable
    table = pd.DataFrame(rows, columns=[*TRIPLET_COLUMNS, *_WORK_COLUMNS])
    _add_counts(sentences, table, "verdict")
    if tokens is not None and len(tokens):
        tokens["triplet_verdict"] = _token_verdicts(tokens, table)
    return table


def add_checker_verdicts(sentences: pd.DataFrame, tokens: pd.DataFrame | None, table: pd.DataFrame,
                         indices: dict[str, EvidenceIndex], checker, cache=None, progress: bool = True) -> None:
    """Check every triplet of the full `table` (from `claim_table`) with the learned checker:
    `verdict_checker` in the table, the `*_checker` sentence and token columns."""
    evidence_of = {sid: evidence_sentences(indices[sid]) for sid in dict.fromkeys(table["source_id"])}
    table["verdict_checker"] = _checker_verdicts(table, evidence_of, checker, cache, progress)
    _add_counts(sentences, table, "verdict_checker", suffix="_checker")
    if tokens is not None and len(tokens):
        tokens["triplet_verdict_checker"] = _token_verdicts(tokens, table, "verdict_checker")


def public_table(table: pd.DataFrame) -> pd.DataFrame:
    """The triplet table as kept on the feature tables (without the working columns)."""
    return table.drop(columns=list(_WORK_COLUMNS))


class ClaimsFamily(FeatureFamily):
    name = "claims"
    columns = ("triplets", *COUNT_COLUMNS)
    token_columns = ("triplet_verdict",)
    needs = ("a dependency parser (else the clause rule)", "parse of each source's evidence sentences")

    def state(self, extractor) -> str:
        return RUNS if extractor.config.claims else "not needed: no configured detector reads claim triplets"

    def switched_on(self, config) -> bool:
        return config.claims

    def switch_on(self, config):
        return switched(config, claims=True)

    def add(self, tables: WorkTables, context: FamilyContext) -> None:
        rows = context.scratch[CLAIM_ROWS] = claim_rows(tables, context.claims_for)
        table = claim_table(rows[0], rows[1], {r.id: r.response for r in context.corpus.responses},
                            context.indices, context.progress, context.cache, context.extractor.config.pipeline)
        put_back(tables, rows, self.columns, self.token_columns)
        context.scratch[CLAIMS] = table
        tables.claims = public_table(table)


class ClaimsCheckerFamily(FeatureFamily):
    """Every claim triplet checked by the learned checker too (RefChecker_NLI)."""

    name = "claims_checker"
    columns = CHECKER_COUNT_COLUMNS
    token_columns = ("triplet_verdict_checker",)
    needs = ("the claims family", "trained checker weights (make checker)")

    def state(self, extractor) -> str:
        if not extractor.config.claims_checker:
            return "not needed: no configured detector checks claim triplets with the learned checker"
        return RUNS if extractor.checker is not None and extractor.config.claims else \
            f"not run: the learned checker is {getattr(extractor, 'checker_status', 'absent')}"

    def switched_on(self, config) -> bool:
        return config.claims_checker

    def switch_on(self, config):
        return switched(config, claims=True, claims_checker=True)

    def add(self, tables: WorkTables, context: FamilyContext) -> None:
        table, rows = context.scratch[CLAIMS], context.scratch[CLAIM_ROWS]
        add_checker_verdicts(rows[0], rows[1], table, context.indices, context.extractor.checker,
                             context.cache, context.progress)
        put_back(tables, rows, self.columns, self.token_columns)
        tables.claims = public_table(table)


def claim_rows(tables: WorkTables, wanted: frozenset[str] | None) -> tuple:
    """(sentences, tokens, sentence mask, token mask): the rows of the answers in `wanted` that
    the claim families read and write (`FamilyContext.claims_for`); the tables themselves, with
    no masks, when that is every answer."""
    sentences, tokens = tables.sentences, tables.tokens
    if wanted is None or not len(sentences):
        return sentences, tokens, None, None
    keep = sentences["response_id"].isin(wanted).to_numpy()
    if keep.all():
        return sentences, tokens, None, None
    keep_tokens = tokens["response_id"].isin(wanted).to_numpy() if tokens is not None and len(tokens) else None
    return (sentences.loc[keep, _ROW_COLUMNS].reset_index(drop=True),
            tokens if keep_tokens is None else tokens.loc[keep_tokens, ["response_id", "start", "end"]].reset_index(
                drop=True), keep, keep_tokens)


def put_back(tables: WorkTables, rows: tuple, columns, token_columns) -> None:
    """Copy the claim columns of `claim_rows` into the whole tables: the other answers' rows get
    the values of a sentence without triplets ("" and 0)."""
    sentences, tokens, keep, keep_tokens = rows
    if keep is None:
        return
    for c in columns:
        values = sentences[c].to_numpy()
        tables.sentences[c] = _spread(values, keep, "" if values.dtype == object else 0)
    for c in token_columns if keep_tokens is not None else ():
        values = tokens[c].to_numpy() if c in tokens else np.zeros(0, dtype=np.int8)
        tables.tokens[c] = _spread(values, keep_tokens, 0)


def _spread(values: np.ndarray, keep: np.ndarray, empty) -> np.ndarray:
    out = np.full(len(keep), empty, dtype=values.dtype)
    out[keep] = values
    return out


def _add_counts(sentences: pd.DataFrame, table: pd.DataFrame, column: str, suffix: str = "") -> None:
    """Per sentence row, the number of triplets and of each verdict in `table[column]`."""
    counts = {f"{c}{suffix}": np.zeros(len(sentences), dtype=int) for c in COUNT_COLUMNS}
    for k, verdict in zip(table["row"], table[column]):
        counts[f"n_triplets{suffix}"][k] += 1
        counts[f"n_{verdict.lower()}{suffix}"][k] += 1
    for c, values in counts.items():
        sentences[c] = values


def _checker_verdicts(table: pd.DataFrame, evidence_of: dict[str, list[str]], checker, cache,
                      progress: bool) -> np.ndarray:
    from ..text.windows import candidate_windows

    owners, premises, claims = [], [], []
    settings = checker.settings
    for k, t in enumerate(table.itertuples(index=False)):
        claim = " ".join(x for x in (t.subject, t.relation, t.object) if x)
        for window in candidate_windows(evidence_of[t.source_id], claim, settings.windows,
                                        settings.max_premise_words) or [""]:
            owners.append(k)
            premises.append(window)
            claims.append(claim)
    scored = checker.score_pairs(premises, claims, cache, progress) if claims else []
    best = np.full(len(table), -1.0)
    verdict = np.array(["Neutral"] * len(table), dtype=object)
    for k, (probs, _, _) in zip(owners, scored):
        if probs[0] > best[k]:
            best[k], verdict[k] = float(probs[0]), CHECKER_VERDICTS[int(np.argmax(probs))]
    return verdict


def _token_verdicts(tokens: pd.DataFrame, table: pd.DataFrame, column: str = "verdict") -> np.ndarray:
    out = np.zeros(len(tokens), dtype=np.int8)
    if table.empty:
        return out
    by_response = tokens.groupby("response_id", sort=False).indices
    starts, ends = tokens["start"].to_numpy(), tokens["end"].to_numpy()
    for r in table.itertuples(index=False):
        where = by_response.get(r.response_id)
        code = VERDICT_CODE[getattr(r, column)]
        if where is None or code == 0:
            continue
        for a, b in r.elements:
            inside = where[(starts[where] < b) & (ends[where] > a)]
            out[inside] = np.maximum(out[inside], code)
    return out
