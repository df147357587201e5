"""Build and score the semantic-class suite (tests/data/semantic_suite.jsonl) from real sentences.

    python -m evidencechain.features.semantic.build_suite build [--data ../shared/data] [--per-class 40]
    python -m evidencechain.features.semantic.build_suite report      # results/semantic_suite/{cases,summary}.csv
    python -m evidencechain.features.semantic.build_suite passages    # evidencechain/data/planted/passages.json

`passages` takes the evidence passages of the 'planted' training corpus from real summarization
documents, disjoint from the suite's sources and from every benchmark's test text (the files:
`data/sources.toml`, with their licences).

Sentences come from a benchmark's validation articles (`data/sources.toml` [documents]) and WiCE
dev evidence (Wikipedia-cited web text, CC BY-SA): never from a benchmark's test text. Each case is one sentence with a planted
error of a class (gold span: the planted words) or a meaning-preserving paraphrase of it (a hard
negative); its evidence is the original sentence with its neighbours. Seed 17.
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import tomllib
from importlib import resources
from pathlib import Path

from evidencechain.data.planted import CLASSES, paraphrase, plant
from evidencechain.features.semantic.suite import read_suite, score_cases, summary
from evidencechain.text.parse import ParseCache, parse_texts

ROOT = Path.cwd()  # run from the project root, as every make target is

SUITE = ROOT / "tests/data/semantic_suite.jsonl"
PASSAGES = ROOT / "evidencechain/data/planted/passages.json"


def sources() -> dict:
    """The data files the semantic scripts read (`data/sources.toml`)."""
    return tomllib.loads(resources.files(__package__).joinpath("data/sources.toml").read_text("utf-8"))


def _open(path: Path):
    return gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else path.open(encoding="utf-8")


def records(data: Path, entry: dict):
    """(record, text) of every record of an entry's files whose `where` fields match: the text is its
    `field`, or the whole record as JSON without one."""
    where = entry.get("where", {})
    for file in sorted(data.glob(entry["files"])):
        with _open(file) as f:
            for r in map(json.loads, f):
                if all(r.get(k) == v for k, v in where.items()):
                    yield r, (r[entry["field"]] if "field" in entry else json.dumps(r))


def held_out_text(data: Path) -> str:
    """The benchmarks' test text (`data/sources.toml` [[held_out]]), which no planted passage may
    share a sentence with."""
    parts = []
    for entry in sources()["held_out"]:
        if entry.get("whole_file"):
            parts += [file.read_text(encoding="utf-8") for file in sorted(data.glob(entry["files"]))]
        else:
            parts += [text for _, text in records(data, entry)]
    return "\n".join(parts)


def passages(data: Path, count: int, size: int = 4) -> list[dict]:
    docs, spec = [], sources()["passages"]
    with _open(data / spec["file"]) as f:
        for k, line in enumerate(f):
            if k >= count * 3:
                break
            docs.append(json.loads(line)[spec["field"]])
    cache = ParseCache(ROOT / "results/semantic_suite/parse.sqlite")
    parsed = parse_texts(docs, cache=cache, progress=True, desc="parse documents")
    held_out = held_out_text(data)
    out = []
    for k, (text, doc) in enumerate(zip(docs, parsed)):
        sents = [text[a:b] for a, b in doc.sentences]
        good = [i for i, s in enumerate(sents) if 8 <= len(s.split()) <= 40 and s[-1:] in ".!?\"'"]
        for i in good:
            if all(j in good and sents[j] not in held_out for j in range(i, i + size)):
                out.append({"id": spec["id"].format(k=k), "sentences": sents[i:i + size]})
                break
        if len(out) >= count:
            break
    return out


def _documents(data: Path, limit: int) -> list[tuple[str, str]]:
    spec = sources()["documents"]
    docs = [(spec["id"].format(**r), text) for r, text in records(data, spec)]
    with gzip.open(data / "nli/wice_oracle_claim_dev.jsonl.gz", "rt", encoding="utf-8") as f:
        for k, line in enumerate(f):
            docs.append((f"wice-dev:{k}", " ".join(json.loads(line)["evidence"])))
    seen, out = set(), []
    for origin, text in docs:
        if text not in seen:
            seen.add(text)
            out.append((origin, text))
    random.Random(17).shuffle(out)
    return out[:limit]


def build(data: Path, per_class: int, limit: int) -> list[dict]:
    docs = _documents(data, limit)
    cache = ParseCache(ROOT / "results/semantic_suite/parse.sqlite")
    parsed = parse_texts([t for _, t in docs], cache=cache, progress=True, desc="parse documents")
    windows = []
    for (origin, text), doc in zip(docs, parsed):
        sents = [text[a:b] for a, b in doc.sentences]
        for i, s in enumerate(sents):
            if 8 <= len(s.split()) <= 40 and s[-1:] in ".!?\"" and "\n" not in s:
                windows.append((origin, s, sents[max(0, i - 1):i], sents[i + 1:i + 2]))
    rng = random.Random(17)
    rng.shuffle(windows)
    sent_docs = parse_texts([w[1] for w in windows], cache=cache, progress=True, desc="parse sentences")
    cases, used = [], set()
    for cls in CLASSES:
        errors = paraphrases = 0
        for (origin, s, before, after), doc in zip(windows, sent_docs):
            if errors >= per_class and paraphrases >= per_class:
                break
            if s in used:
                continue
            context = before + after
            err = plant(cls, s, doc, rng, context) if errors < per_class else None
            par = paraphrase(cls, s, doc, rng) if paraphrases < per_class else None
            if err is None and par is None:
                continue
            used.add(s)
            evidence = " ".join(before + [s] + after)
            for kind, edit in (("error", err), ("paraphrase", par)):
                if edit is None:
                    continue
                n = errors if kind == "error" else paraphrases
                cases.append({"id": f"{cls}-{kind}-{n:03d}", "class": cls, "kind": kind, "origin": origin,
                              "evidence": evidence, "answer": edit.text,
                              "spans": [list(x) for x in edit.spans], "evidence_words": edit.evidence,
                              "how": edit.how})
                errors, paraphrases = (errors + 1, paraphrases) if kind == "error" else (errors, paraphrases + 1)
    return cases


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=["build", "report", "passages"])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared/data")
    ap.add_argument("--per-class", type=int, default=40)
    ap.add_argument("--documents", type=int, default=600)
    ap.add_argument("--suite", type=Path, default=SUITE)
    ap.add_argument("--out", type=Path, default=ROOT / "results/semantic_suite")
    args = ap.parse_args(argv)
    if args.command == "passages":
        rows = passages(args.data, 240)
        spec = sources()["passages"]
        PASSAGES.write_text(json.dumps({"notice": spec["notice"], "source": spec["source"], "passages": rows}, ensure_ascii=False, indent=0) + "\n",
                            encoding="utf-8")
        print(f"{PASSAGES}: {len(rows)} passages")
        return 0
    if args.command == "build":
        cases = build(args.data, args.per_class, args.documents)
        args.suite.parent.mkdir(parents=True, exist_ok=True)
        args.suite.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases), encoding="utf-8")
        print(f"{args.suite}: {len(cases)} cases")
        return 0
    scored = score_cases(read_suite(args.suite))
    table = summary(scored)
    args.out.mkdir(parents=True, exist_ok=True)
    scored.to_csv(args.out / "cases.csv", index=False)
    table.to_csv(args.out / "summary.csv", index=False)
    from evidencechain.runinfo import code_commit
    (args.out / "commit.txt").write_text((code_commit() or "unknown") + "\n", encoding="utf-8")
    print(table.to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
