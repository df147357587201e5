"""Training pairs for the checker: perturbations of real train-split documents, and real
human-labelled pairs (ANLI, Factcheck-GPT, WiCE, CLIFF val), mixed by a recipe.

Real labels map to the three verdicts as `../shared/data/nli/README.md` states: entailment /
completely-support / supported -> supported; contradiction / refute -> conflict; neutral /
irrelevant / not_supported / partially supported -> baseless."""
from __future__ import annotations

import json
import random
from pathlib import Path

from ..data.load import CorpusConfig
from ..errors import InputError
from ..io import open_text
from ..text.windows import best_window, split_sentences, window_around, word_count
from .perturb import Perturber
from .planted_pairs import planted_pairs
from .records import Pair

NLI_LABELS = {"entailment": "supported", "contradiction": "conflict", "neutral": "baseless"}
FACTCHECK_LABELS = {"completely-support": "supported", "refute": "conflict", "partially-support": "baseless",
                    "irrelevant": "baseless"}
WICE_LABELS = {"supported": "supported", "partially_supported": "baseless", "not_supported": "baseless"}
DEFAULT_MIX = {"supported": 0.4, "conflict": 0.3, "baseless": 0.3}


def _jsonl(path: Path) -> list[dict]:
    if not path.is_file():
        raise InputError(f"checker data: {path} not found")
    with open_text(path) as handle:
        return [json.loads(line) for line in handle if line.strip()]


def perturbation_pairs(documents: list[tuple[str, str]], n: int, random_state: int, source: str,
                       mix: dict[str, float] | None = None, max_premise_words: int = 110) -> list[Pair]:
    """`n` pairs from (doc_id, text) documents: supported paraphrases, conflicts, baseless additions."""
    rng = random.Random(random_state)
    perturber = Perturber(rng, max_premise_words)
    docs = [(d, split_sentences(t), t) for d, t in documents]
    docs = [(d, s, t) for d, s, t in docs if len(s) >= 2]
    if not docs or n <= 0:
        return []
    mix = mix or DEFAULT_MIX
    labels = list(mix)
    out: list[Pair] = []
    attempts = 0
    while len(out) < n and attempts < 20 * n:
        attempts += 1
        doc_id, sentences, text = docs[rng.randrange(len(docs))]
        i = rng.randrange(len(sentences))
        if not 5 <= word_count(sentences[i]) <= 60:
            continue
        label = rng.choices(labels, weights=[mix[k] for k in labels])[0]
        if label == "supported":
            made = perturber.supported(sentences, i)
            if made:
                out.append(Pair(made[0], made[1], "supported", (), True, made[2], source, doc_id))
        elif label == "conflict":
            made = perturber.conflict(sentences, i, text)
            if made:
                out.append(Pair(made[0], made[1], "conflict", (made[2],), True, made[3], source, doc_id))
        else:
            other = docs[rng.randrange(len(docs))][1]
            made = perturber.baseless(sentences, i, other if other is not sentences else [])
            if made:
                out.append(Pair(made[0], made[1], "baseless", (made[2],), True, made[3], source, doc_id))
    return out


def _train_documents(spec, name: str, seed: int) -> list[tuple[str, str]]:
    from ..data.load import load_split_corpus
    from ..text.chunks import build_evidence

    split = load_split_corpus(spec, name, seed)
    train = {r.source_id for r in split.corpus.responses if split.split_of[r.id] == "train"}
    sources = [s for sid, s in sorted(split.corpus.sources.items()) if sid in train]
    return [(f"{name}:{s.source_id}", build_evidence(s).text) for s in sources]


def halueval_documents(halueval_dir: str, subsets: list[str], seed: int) -> list[tuple[str, str]]:
    """Knowledge passages and documents of HaluEval sources in the runner's *train* split only."""
    out = []
    for subset in subsets:
        spec = CorpusConfig(format="halueval", path=halueval_dir, subsets=[subset])
        out += _train_documents(spec, f"halueval_{subset}", seed)
    return out


def audit_documents(response_jsonl: str, source_info_jsonl: str, seed: int) -> list[tuple[str, str]]:
    if not Path(response_jsonl).is_file():
        raise InputError(f"checker data: the audit corpus {response_jsonl} is absent (make data)")
    spec = CorpusConfig(format="ragtruth", response_jsonl=response_jsonl, source_info_jsonl=source_info_jsonl)
    return _train_documents(spec, "audit", seed)


def anli_pairs(nli_dir: str) -> list[Pair]:
    out = []
    for r in (1, 2, 3):
        for row in _jsonl(Path(nli_dir) / f"anli_r{r}_dev.jsonl.gz"):
            out.append(Pair(row["premise"], row["hypothesis"], NLI_LABELS[row["label"]], kind=row["label"],
                            source="anli", group=f"anli:{row['premise'][:80]}"))
    return out


def factcheck_pairs(nli_dir: str, max_premise_words: int = 110) -> list[Pair]:
    out = []
    for row in _jsonl(Path(nli_dir) / "factcheckgpt_stance.jsonl.gz"):
        premise = best_window(split_sentences(row["evidence"]) or [row["evidence"]], row["claim"], max_premise_words)
        out.append(Pair(premise, row["claim"], FACTCHECK_LABELS[row["stance"]], kind=row["stance"],
                        source="factcheck", group=f"factcheck:{row['claim'][:80]}"))
    return out


def wice_window(evidence: list[str], meta: dict, claim: str, max_words: int) -> str:
    """The gold supporting sentences (and neighbours) when known, else the best-overlap window."""
    chunk, oracle = meta.get("chunk_idx") or [], meta.get("oracle_idx") or []
    gold = [chunk.index(o) for o in oracle if o in chunk] if len(chunk) == len(evidence) else []
    if not gold:
        return best_window(evidence, claim, max_words)
    kept = [evidence[g] for g in sorted(gold)]
    if word_count(" ".join(kept)) >= max_words:
        return " ".join(" ".join(kept).split()[:max_words])
    return window_around(evidence, gold[0], max_words) if len(gold) == 1 else " ".join(kept)


def wice_pairs(nli_dir: str, splits: tuple[str, ...] = ("dev", "test"), max_premise_words: int = 110) -> list[Pair]:
    out = []
    for split in splits:
        for row in _jsonl(Path(nli_dir) / f"wice_oracle_claim_{split}.jsonl.gz"):
            premise = wice_window(row["evidence"], row.get("meta") or {}, row["claim"], max_premise_words)
            out.append(Pair(premise, row["claim"], WICE_LABELS[row["label"]], kind=row["label"], source="wice",
                            group=f"wice:{row['meta'].get('claim_title', row['claim'][:60])}"))
    return out


def cliff_pairs(cliff_path: str, cuts: tuple[str, ...] = ("val",), max_premise_words: int = 110) -> list[Pair]:
    """One pair per CLIFF summary sentence, with its erroneous words as spans (never the test cut)."""
    if "test" in cuts:
        raise ValueError("CLIFF test is benchmark data: never checker training data")
    from ..data.cliff import load_cliff

    corpus = load_cliff(cliff_path, cuts=cuts)
    out = []
    for r in corpus.responses:
        source_sentences = split_sentences(corpus.source_of(r).source_info if isinstance(
            corpus.source_of(r).source_info, str) else json.dumps(corpus.source_of(r).source_info))
        pos = 0
        for sentence in split_sentences(r.response):
            start = r.response.find(sentence, pos)
            pos = start + len(sentence)
            spans, types = [], []
            for lab in r.labels:
                a, b = max(lab.start, start) - start, min(lab.end, pos) - start
                if a < b:
                    spans.append((a, b))
                    types.append(lab.label_type)
            label = ("conflict" if any("Conflict" in t for t in types) else "baseless") if spans else "supported"
            out.append(Pair(best_window(source_sentences, sentence, max_premise_words), sentence, label,
                            tuple(spans), True, "cliff_" + label, "cliff_val", f"cliff:{r.source_id}"))
    return out


def summedits_pairs(summedits_dir: str, domains: list[str], max_premise_words: int = 110) -> list[Pair]:
    """Summary-level pairs of the named domains only (leave-one-domain-out trainings)."""
    if not domains:
        raise ValueError("summedits_pairs needs its training domains named")
    from ..data.summedits import load_summedits

    corpus = load_summedits(summedits_dir, domains=domains)
    out = []
    for r in corpus.responses:
        doc = corpus.source_of(r).source_info
        doc = doc if isinstance(doc, str) else json.dumps(doc)
        out.append(Pair(best_window(split_sentences(doc), r.response, max_premise_words), r.response,
                        "conflict" if r.hallucinated else "supported", kind="summedits", source="summedits",
                        group=f"summedits:{r.source_id}"))
    return out


def _sample(pairs: list[Pair], count: int, rng: random.Random) -> list[Pair]:
    if count < 0 or count >= len(pairs):
        return pairs
    keep = sorted(rng.sample(range(len(pairs)), count))
    return [pairs[i] for i in keep]


def build_pairs(recipe: dict[str, int], random_state: int, paths: dict) -> list[Pair]:
    """Every source of the recipe, in recipe order; the same seed gives the same list."""
    words_max = paths.get("max_premise_words", 110)
    out: list[Pair] = []
    for k, (name, count) in enumerate(recipe.items()):
        if count == 0:
            continue
        seed = random_state * 1000 + k
        rng = random.Random(seed)
        if name == "perturb_halueval":
            docs = halueval_documents(paths["halueval"], paths.get("halueval_subsets") or
                                      ["qa", "dialogue", "summarization"], random_state)
            out += perturbation_pairs(docs, count if count > 0 else 20 * len(docs), seed, name,
                                      max_premise_words=words_max)
        elif name == "planted_halueval":
            docs = halueval_documents(paths["halueval"], paths.get("halueval_subsets") or
                                      ["qa", "dialogue", "summarization"], random_state)
            out += planted_pairs(docs, count if count > 0 else 2 * len(docs), seed, name,
                                 max_premise_words=words_max)
        elif name == "perturb_audit":
            docs = audit_documents(paths["audit_response"], paths["audit_source_info"], random_state)
            out += perturbation_pairs(docs, count if count > 0 else 20 * len(docs), seed, name,
                                      max_premise_words=words_max)
        elif name == "anli":
            out += _sample(anli_pairs(paths["nli"]), count, rng)
        elif name == "factcheck":
            out += _sample(factcheck_pairs(paths["nli"], words_max), count, rng)
        elif name == "wice":
            out += _sample(wice_pairs(paths["nli"], max_premise_words=words_max), count, rng)
        elif name == "cliff_val":
            out += _sample(cliff_pairs(paths["cliff"], max_premise_words=words_max), count, rng)
        elif name == "summedits":
            out += _sample(summedits_pairs(paths["summedits"], paths.get("summedits_domains") or [], words_max),
                           count, rng)
        else:
            raise ValueError(f"unknown checker data source {name!r}")
    return out


def split_by_group(pairs: list[Pair], validation_fraction: float, random_state: int) -> tuple[list[Pair], list[Pair]]:
    """(train, validation): whole groups (documents) go to one side, chosen by a seeded shuffle."""
    groups = sorted({p.group for p in pairs})
    random.Random(random_state).shuffle(groups)
    held = set(groups[:max(1, round(validation_fraction * len(groups)))]) if len(groups) > 1 else set()
    return [p for p in pairs if p.group not in held], [p for p in pairs if p.group in held]
