"""How often the semantic classes and the conflict rule fire on real answers of data that may be
tuned on: faithful answers (each firing a false alarm of the rule) and erroneous ones.

    python -m evidencechain.features.semantic.firing [--data ../shared/data] [--corpora NAME,...]
        [--out results/semantic_firing] [--limit N]

The corpora are `[firing.NAME]` tables of `data/sources.toml` (data that may be tuned on, read
with the project's corpus readers or as JSON Lines pairs; never a benchmark's test text). Writes `rates.csv` (per corpus: answers,
answers with any signal, answers with a confident one, and the confident share) and
`firings.csv` (every confident signal: the answer's words, the evidence words, the class, the
answer sentence and its aligned evidence sentence), for reading each firing. Seed 17.
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from pathlib import Path

import pandas as pd

from ...errors import EvidenceChainError, InputError
from ...io import atomic_write_text, write_csv
from ...runinfo import code_commit
from ...text.chunks import build_evidence
from ...text.parse import ParseCache, parse_texts
from . import EvidenceSide, sentence_signals, shown_signals
from .align import best_evidence, sentence_view
from .build_suite import ROOT, sources
from .dependency_flips import flip_candidates, flips_of, open_to_flips
from .dependency_roles import candidates, open_to_swaps, swaps_of
from .lexicon import lexicon


def _sample(pairs: list[tuple[str, str, str, str]], limit: int) -> list[tuple[str, str, str, str]]:
    if limit and len(pairs) > limit:
        pairs = random.Random(17).sample(pairs, limit)
    return pairs


def _jsonl(data: Path, spec: dict) -> list[tuple[str, str, str, str]]:
    out, where = [], spec.get("where", {})
    for file in sorted(data.glob(spec["files"])):
        with gzip.open(file, "rt", encoding="utf-8") as f:
            for n, r in enumerate(map(json.loads, f)):
                if all(r.get(k) == v for k, v in where.items()):
                    ev = r[spec["evidence"]]
                    out.append((f"{file.name.split('.')[0]}:{n}", "",
                                " ".join(ev) if isinstance(ev, list) else ev, r[spec["answer"]]))
    return out


def _corpus(data: Path, spec: dict) -> list[tuple[str, str, str, str]]:
    """(id, group, evidence, answer) of the answers an entry asks for."""
    fmt = spec["format"]
    if fmt == "jsonl":
        return _jsonl(data, spec)
    from ...data.load import CorpusConfig, read_corpus

    if fmt == "ragtruth":
        if not (ROOT / spec["response_jsonl"]).is_file():
            raise InputError(f"{spec['response_jsonl']}: not found (the audit corpus: make data)")
        config = CorpusConfig(format=fmt, response_jsonl=str(ROOT / spec["response_jsonl"]),
                              source_info_jsonl=str(ROOT / spec["source_info_jsonl"]), quality=[])
    else:
        config = CorpusConfig(format=fmt, path=str(data / spec["path"]), subsets=spec.get("subsets", []),
                              limit=spec["limit"])
    corpus = read_corpus(config, spec.get("name", fmt), 17)
    wanted = spec["answers"] == "erroneous"
    out = []
    for r in corpus.responses:
        if r.hallucinated == wanted and r.response.strip() and r.split == spec.get("split", r.split):
            src = corpus.source_of(r)
            out.append((r.id, src.task_type if fmt == "ragtruth" else "", build_evidence(src).text, r.response))
    return out


def measure(name: str, spec: dict, data: Path, cache: ParseCache) -> tuple[list[dict], list[dict]]:
    """(rates rows, firings rows) of one `[firing.NAME]` entry."""
    pairs = _sample(_corpus(data, spec), spec["limit"] if spec["format"] == "jsonl" else 0)
    if not pairs:
        raise InputError(f"[firing.{name}]: no answers found under {data} (is ../shared/data there?)")
    evidence = parse_texts([p[2] for p in pairs], cache=cache, progress=False)
    answers = parse_texts([p[3] for p in pairs], cache=cache, progress=False)
    counts: dict[str, list[int]] = {}
    firings = []
    flags: list[list[bool]] = []  # per answer: any signal, a confident one
    doubtful = []  # (answer index, sentence, its candidates): no confident signal, dependency roles may fire
    unflipped = []  # the same for dependency flips
    for n, ((rid, _, _, _), ev, doc) in enumerate(zip(pairs, evidence, answers)):
        side = EvidenceSide(ev)
        any_signal = confident = False
        for a, b in doc.sentences or ((0, len(doc.text)),):
            view = sentence_view(doc, a, b)
            signals = sentence_signals(view, side)
            any_signal |= bool(signals)
            shown = [(s, s.cls) for s in signals if s.confident] \
                + [(s, f"{s.cls} (rule only)") for s in shown_signals(view, side, signals)]  # as features.semantic.table
            e, _ = best_evidence(view, side.sentences) if shown else (None, 0.0)
            for s, label in shown:
                confident = True
                firings.append({"corpus": name, "id": rid, "class": label,
                                "words": " ".join(doc.token_text(t) for t in s.tokens),
                                "evidence_words": s.evidence, "answer_sentence": doc.text[a:b],
                                "evidence_sentence": ev.text[e.start:e.end] if e is not None else ""})
            if open_to_swaps(signals) and (others := candidates(view, side.sentences)):
                doubtful.append((n, doc.text[a:b], [ev.text[e.start:e.end] for e in others]))
            if open_to_flips(signals) and (others := flip_candidates(view, side.sentences, lexicon())):
                unflipped.append((n, doc.text[a:b], [ev.text[e.start:e.end] for e in others]))
        flags.append([any_signal, confident])
    for (n, sentence, others), found in zip(doubtful, swaps_of([(s, o) for _, s, o in doubtful], cache)):
        for swap in found:  # shown by the rule too (features.semantic.table)
            flags[n] = [True, True]
            firings.append({"corpus": name, "id": pairs[n][0], "class": "roles (dependency)",
                            "words": " ".join(sentence[a:b] for a, b in swap.names), "evidence_words": swap.evidence,
                            "answer_sentence": sentence, "evidence_sentence": " | ".join(others)})
    for (n, sentence, others), found in zip(unflipped, flips_of([(s, o) for _, s, o in unflipped], cache)):
        for flip in found:  # shown by the rule too (features.semantic.table)
            flags[n] = [True, True]
            firings.append({"corpus": name, "id": pairs[n][0], "class": f"{flip.cls} (dependency)",
                            "words": sentence[flip.span[0]:flip.span[1]], "evidence_words": flip.evidence,
                            "answer_sentence": sentence, "evidence_sentence": " | ".join(others)})
    for (_, group, _, _), (any_signal, confident) in zip(pairs, flags):
        for key in (name, f"{name}:{group}") if group else (name,):
            c = counts.setdefault(key, [0, 0, 0])
            c[0] += 1
            c[1] += any_signal
            c[2] += confident
    rows = [{"corpus": k, "answers": spec["answers"], "n": n, "any_signal": s, "confident": c,
             "confident_rate": round(c / n, 4) if n else 0.0} for k, (n, s, c) in counts.items()]
    return rows, firings


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared/data")
    ap.add_argument("--corpora", default="", help="comma-separated [firing] names (default: all)")
    ap.add_argument("--out", type=Path, default=ROOT / "results/semantic_firing")
    ap.add_argument("--limit", type=int, default=None,
                    help="sample size of every sampled corpus instead of its own (another, larger sample, for a "
                         "check on answers the rule was not designed on)")
    args = ap.parse_args(argv)
    specs = sources()["firing"]
    if args.limit is not None:
        specs = {k: {**v, "limit": args.limit} if v.get("limit") else v for k, v in specs.items()}
    names = [n for n in args.corpora.split(",") if n] or list(specs)
    unknown = [n for n in names if n not in specs]
    if unknown:
        print(f"--corpora: unknown {unknown}; known: {list(specs)}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    cache = ParseCache(args.out / "parse.sqlite")
    rows, firings = [], []
    try:
        for name in names:
            r, f = measure(name, specs[name], args.data, cache)
            rows += r
            firings += f
            for x in r:
                print(f"{x['corpus']:<40} {x['answers']:<9} {x['n']:>5} any {x['any_signal']:>4} "
                      f"confident {x['confident']:>3} ({100 * x['confident_rate']:.1f}%)", flush=True)
    except (EvidenceChainError, OSError) as exc:  # a corpus that cannot be read: one line, exit 2
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        cache.close()
    write_csv(pd.DataFrame(rows), args.out / "rates.csv")
    write_csv(pd.DataFrame(firings, columns=["corpus", "id", "class", "words", "evidence_words", "answer_sentence",
                                             "evidence_sentence"]), args.out / "firings.csv")
    atomic_write_text(args.out / "commit.txt", f"{code_commit() or 'unknown'}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
