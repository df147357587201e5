"""The seeded audit corpus: determinism, format, gold quality, rates, statistics, CLI."""
from __future__ import annotations

import re
import tomllib
from collections import Counter, defaultdict
from pathlib import Path

import pytest

import evidencechain.data.audit
from evidencechain.cli import main
from evidencechain.data.audit import (
    MODEL_RATES,
    MODELS,
    TASK_PLAN,
    TASK_RATES,
    cell_rates,
    generate_audit_corpus,
    write_audit_corpus,
)
from evidencechain.data.ragtruth import load_ragtruth, write_ragtruth
from evidencechain.data.splits import assign_splits
from evidencechain.data.stats import corpus_statistics, statistics_markdown
from evidencechain.io import sha256_file
from evidencechain.records import LABEL_TYPES
from evidencechain.text.chunks import build_evidence
from evidencechain.text.parse import parse_texts

FILES = ("response.jsonl", "source_info.jsonl", "README.md")
# The seed-17 corpus as released: a generator change that alters it must update these on purpose.
SEED17_JSONL_SHA256 = {
    "response.jsonl": "5faa3a23549e90a2006d13b275071d87bf518b12ee5d580beef284bc252c15d4",
    "source_info.jsonl": "9a7b50d4bd25205d56469f58abe8dc29bdaa7fe7b02f2e8eeaa52834183ddea7",
}
STOP = {
    "the", "and", "for", "with", "from", "that", "this", "was", "were", "are", "has", "have",
    "had", "its", "into", "about", "than", "also", "one", "his", "her", "their", "they",
    "after", "said", "which", "who", "will", "been", "more", "most", "over", "per",
}


@pytest.fixture(scope="module")
def written(audit_corpus) -> Path:
    """The session's audit corpus (conftest `audit_corpus`: `write_audit_corpus(out, seed=17)`)."""
    return audit_corpus


@pytest.fixture(scope="module")
def corpus(written):
    return load_ragtruth(written / "response.jsonl", written / "source_info.jsonl")


@pytest.fixture(scope="module")
def evidence(corpus):
    return {sid: build_evidence(src) for sid, src in corpus.sources.items()}


def _hashes(folder: Path, names=FILES) -> dict[str, str]:
    return {name: sha256_file(folder / name) for name in names}


def test_same_seed_is_byte_identical_and_other_seed_differs(written, tmp_path):
    again = tmp_path / "again"
    assert [p.name for p in write_audit_corpus(again, seed=17)] == list(FILES)
    assert _hashes(again) == _hashes(written)
    other = tmp_path / "seed18"
    write_ragtruth(generate_audit_corpus(seed=18), other)
    jsonl = FILES[:2]
    first, second = _hashes(written, jsonl), _hashes(other, jsonl)
    assert all(first[name] != second[name] for name in jsonl)


def test_seed17_jsonl_files_are_pinned(tmp_path):
    write_ragtruth(generate_audit_corpus(seed=17), tmp_path)
    assert _hashes(tmp_path, tuple(SEED17_JSONL_SHA256)) == SEED17_JSONL_SHA256


def test_generator_data_files_are_declared_package_data():
    pyproject = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["package-data"]["evidencechain.data.audit"]
    package = Path(evidencechain.data.audit.__file__).parent
    data = [p.relative_to(package) for p in package.rglob("*")
            if p.is_file() and p.suffix not in (".py", ".pyc")]
    assert {p.parts[0] for p in data} == {"vocab", "templates"}
    assert [p for p in data if not any(p.match(pattern) for pattern in patterns)] == []


def test_cli_writes_the_same_corpus(written, tmp_path, capsys):
    out = tmp_path / "cli"
    assert main(["data", "audit", "--seed", "17", "--out", str(out)]) == 0
    printed = capsys.readouterr().out.split()
    assert [Path(p).name for p in printed] == list(FILES)
    assert _hashes(out) == _hashes(written)


def test_loads_cleanly_with_expected_counts(corpus):
    assert corpus.filtered == {}
    assert len(corpus.sources) == 140
    assert len(corpus.responses) == 840
    per_source = defaultdict(list)
    for r in corpus.responses:
        per_source[r.source_id].append(r.model)
        assert r.quality == "good"
        assert r.sentence_meta is not None
    assert all(sorted(models) == sorted(MODELS) for models in per_source.values())
    assert len({r.id for r in corpus.responses}) == 840
    assert all(re.fullmatch(r"audit-\d{6}", r.id) for r in corpus.responses)
    assert all(re.fullmatch(r"(yelp|marco|cnndm|news)-\d{4}", s) for s in corpus.sources)
    assert len({r.temperature for r in corpus.responses}) >= 4


def test_task_mix_and_source_level_splits(corpus):
    by_label = Counter((s.task_type, s.source) for s in corpus.sources.values())
    assert by_label == {(p.task_type, p.source): p.sources for p in TASK_PLAN}
    assignment = assign_splits(corpus, 0.2, 17)
    assert Counter(assignment.values()) == {"train": 78, "calibration": 20, "test": 42}
    test_by_label = Counter((corpus.sources[s].task_type, corpus.sources[s].source)
                            for s, v in assignment.items() if v == "test")
    assert test_by_label == {(p.task_type, p.source): p.test for p in TASK_PLAN}


def test_sources_read_like_their_kind(corpus):
    for src in corpus.sources.values():
        info = src.source_info
        if src.task_type == "Data2txt":
            assert {"name", "address", "city", "state", "postal_code", "categories",
                    "business_stars", "review_count", "is_open", "hours", "attributes",
                    "review_info"} <= set(info)
            assert 2 <= len(info["review_info"]) <= 4
            assert all({"review_stars", "review_date", "review_text"} <= set(r)
                       for r in info["review_info"])
            assert "JSON" in src.prompt
        elif src.task_type == "QA":
            assert re.findall(r"passage (\d): ", info["passages"]) == ["1", "2", "3"]
            assert info["question"] in src.prompt
        else:
            paragraphs = info.split("\n\n")
            assert len(paragraphs) >= 4
            assert all(0 < len(p) < 600 for p in paragraphs)
            assert src.prompt.startswith("Summarize the following news")
    names = {src.source_info["name"] for src in corpus.sources.values() if src.task_type == "Data2txt"}
    assert len(names) >= 45


def test_labels_are_exact_and_absent_from_the_evidence(corpus, evidence):
    kinds, lengths = Counter(), Counter()
    for r in corpus.responses:
        ev = evidence[r.source_id]
        hay = (ev.text + "\n" + (ev.query or "")).lower()
        for lab in r.labels:
            assert r.response[lab.start:lab.end] == lab.text
            assert lab.text == lab.text.strip() and lab.text
            assert lab.label_type in LABEL_TYPES
            assert lab.meta
            assert lab.text.lower() not in hay, (r.id, lab.text)
            kinds[lab.label_type] += 1
            lengths[len(lab.text.split())] += 1
    assert set(kinds) == set(LABEL_TYPES)
    assert lengths[1] > 0 and sum(v for k, v in lengths.items() if k >= 4) > 0
    n_spans = Counter(len(r.labels) for r in corpus.responses)
    assert n_spans[2] > 0 and max(n_spans) <= 2


def _content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower())
            if (len(w) >= 3 or w.isdigit()) and w not in STOP}


def test_sentence_meta_is_consistent_with_labels_and_chunks(corpus, evidence):
    for r in corpus.responses:
        ev = evidence[r.source_id]
        gold = r.sentence_meta
        task = corpus.sources[r.source_id].task_type
        facts = [s for s in gold if s.tier == "verifiable"]
        assert 2 <= len(facts) <= (6 if task == "Summary" else 5)
        pos = 0
        for s in gold:
            assert s.start >= pos and r.response[s.end - 1] in (".!?" if s.tier == "no_info" else ".")
            assert r.response[pos:s.start].strip() == ""
            pos = s.end
            inside = [lab for lab in r.labels if s.start <= lab.start and lab.end <= s.end]
            assert s.supported == (not inside)
            if s.tier == "no_info":  # NO-INFO sentences (tests/test_tiers.py): no label, no chunk
                assert s.supported and s.chunk_index is None
                continue
            if s.chunk_index is None:
                assert not s.supported
                continue
            assert 0 <= s.chunk_index < len(ev.chunks)
            if s.supported:
                chunk = ev.chunks[s.chunk_index].text.lower()
                shared = [w for w in _content_words(r.response[s.start:s.end]) if w in chunk]
                assert shared, (r.id, r.response[s.start:s.end], chunk)
        assert pos == len(r.response)
        for lab in r.labels:
            assert any(s.start <= lab.start and lab.end <= s.end for s in gold)


def test_spacy_sentences_agree_with_gold_sentences(corpus):
    parsed = parse_texts([r.response for r in corpus.responses], progress=False)
    agree = sum(list(p.sentences) == [(s.start, s.end) for s in r.sentence_meta]
                for r, p in zip(corpus.responses, parsed))
    assert agree / len(corpus.responses) >= 0.95


def test_hallucination_rates_are_ordered_and_plausible(corpus):
    by_model, by_task = defaultdict(list), defaultdict(list)
    for r in corpus.responses:
        by_model[r.model].append(r.hallucinated)
        by_task[corpus.sources[r.source_id].task_type].append(r.hallucinated)
    rate = {m: sum(v) / len(v) for m, v in by_model.items()}
    assert min(rate, key=rate.get) == "gpt-4-0613"
    assert max(rate, key=rate.get) == "llama-2-7b-chat"
    for model, target in MODEL_RATES.items():
        assert abs(rate[model] - target) < 0.03
    task_rate = {t: sum(v) / len(v) for t, v in by_task.items()}
    for task, target in TASK_RATES.items():
        assert abs(task_rate[task] - target) < 0.04
    overall = sum(r.hallucinated for r in corpus.responses) / len(corpus.responses)
    assert 0.3 < overall < 0.5


def test_cell_rates_match_both_margins():
    counts = {"Data2txt": 50, "QA": 45, "Summary": 45}
    rates = cell_rates(counts)
    for model, target in MODEL_RATES.items():
        mean = sum(rates[(model, t)] * n for t, n in counts.items()) / sum(counts.values())
        assert mean == pytest.approx(target, abs=0.002)
    for task, target in TASK_RATES.items():
        assert sum(rates[(m, task)] for m in MODELS) / len(MODELS) == pytest.approx(target, abs=0.01)


def test_readme_reports_the_statistics_of_the_loaded_corpus(written, corpus):
    readme = (written / "README.md").read_text(encoding="utf-8")
    tables = corpus_statistics(corpus, seed=17)
    assert statistics_markdown(tables) in readme
    assert "evidencechain data audit --seed 17 --out data/audit" in readme
    assert "not a benchmark" in readme and "sentence_meta" in readme
    split = tables["split"].set_index("split")
    assert list(split.index) == ["train", "calibration", "test"]
    assert split["sources"].tolist() == [78, 20, 42]
    assert split["responses"].sum() == 840
    assert 0.01 < split.loc["test", "hallucinated_token_rate"] < 0.2
    gen = tables["generator"].set_index("model")
    assert gen["responses"].tolist() == [140] * 6
    no_info = sum(g.tier == "no_info" for r in corpus.responses for g in r.sentence_meta)
    assert split["no_info_sentences"].sum() == gen["no_info_sentences"].sum() == no_info > 0
    assert gen["no_info_responses"].idxmin() == "gpt-4-0613"
    assert tables["task"]["sources"].sum() == 140


def test_in_memory_generation_is_deterministic_and_scales():
    a = generate_audit_corpus(seed=5)
    b = generate_audit_corpus(seed=5)
    assert [r.to_json() for r in a.responses] == [r.to_json() for r in b.responses]
    assert [s.to_json() for s in a.sources.values()] == [s.to_json() for s in b.sources.values()]
    big = generate_audit_corpus(seed=5, scale=2)
    assert len(big.sources) == 280 and len(big.responses) == 1680
    assignment = assign_splits(big, 0.2, 5)
    assert Counter(assignment.values()) == {"train": 157, "calibration": 39, "test": 84}
    with pytest.raises(ValueError):
        generate_audit_corpus(scale=0)
