"""The engine: one parse per distinct text, plain-data caches, both cores with the same output,
pinned claim triplets, and the README's performance block rendered from its measurements."""
from __future__ import annotations

import json
import logging
import os
import pickle
import sqlite3
import time
from pathlib import Path

import pytest

from evidencechain.data.audit import generate_audit_corpus
from evidencechain.features import FeatureConfig, FeatureExtractor
from evidencechain.report.performance import MEASURED, load_measured, performance_block, render_readme
from evidencechain.text import parallel
from evidencechain.text.cache import ParseCache, decode, encode
from evidencechain.text.dependency import DependencyParse, load_dependency_pipeline, parse_dependencies
from evidencechain.text.parse import parse_texts

ROOT = Path(__file__).resolve().parents[1]
PINNED = Path(__file__).parent / "fixtures" / "pinned_triplets.json"


@pytest.fixture(scope="module")
def corpus():
    return generate_audit_corpus(17, 1)


@pytest.fixture(scope="module")
def pinned_sample(corpus):
    pinned = json.loads(PINNED.read_text())
    keep = {r.id for r in corpus.responses if r.source_id in set(pinned["sources"])}
    return pinned, corpus.subset(response_ids=keep, name="pinned")


def _claim_rows(claims) -> list[list]:
    return [[r.response_id, int(r.sentence_index), int(r.start), int(r.end), r.subject, r.relation, r.object,
             r.verdict, int(r.evidence_index), round(float(r.coverage), 6)] for r in claims.itertuples(index=False)]


def _count_parsing(monkeypatch) -> list[int]:
    """Texts handed to a parser from now on (every parse goes through `map_chunks`)."""
    handed: list[int] = []
    original = parallel.map_chunks

    def spy(task, items, **kw):
        handed.append(len(items))
        return original(task, items, **kw)

    for module in ("evidencechain.text.parse", "evidencechain.text.dependency"):
        monkeypatch.setattr(f"{module}.map_chunks", spy)
    return handed


def test_claim_triplets_and_verdicts_are_pinned_cold_and_warm(pinned_sample, tmp_path, monkeypatch):
    """Triplets and rule verdicts of a fixed sample equal those of the per-answer engine they
    replaced (pinned before the change); a warm re-run from the cache parses nothing."""
    pinned, sample = pinned_sample
    cache = ParseCache(tmp_path / "parse.sqlite")
    extractor = FeatureExtractor(FeatureConfig(claims=True), cache=cache).fit(sample, progress=False)
    assert _claim_rows(extractor.transform(sample, progress=False).claims) == pinned["rows"]
    cache.close()
    handed = _count_parsing(monkeypatch)
    warm = ParseCache(tmp_path / "parse.sqlite")  # a new process's view: nothing in memory
    extractor.cache = warm
    assert _claim_rows(extractor.transform(sample, progress=False).claims) == pinned["rows"]
    assert handed == []
    warm.close()


def test_each_distinct_text_is_parsed_once(pinned_sample, monkeypatch):
    _, sample = pinned_sample
    handed = _count_parsing(monkeypatch)
    texts = [r.response for r in sample.responses]
    parse_texts(texts + texts, pipeline="auto", cache=ParseCache(None), progress=False)
    assert handed == [len(set(texts))]


def _sentences(corpus, n: int) -> list[str]:
    parsed = parse_texts([r.response for r in corpus.responses[:200]], progress=False)
    out = [p.text[a:b] for p in parsed for a, b in p.sentences]
    assert len(out) >= n
    return out[:n]


def test_two_processes_give_the_same_parses_as_one(corpus, monkeypatch):
    texts = _sentences(corpus, 400)
    assert sum(map(len, texts)) > 2 * parallel.MIN_CHARS_PER_WORKER
    results = {}
    for workers in ("1", "2"):
        monkeypatch.setenv("EVIDENCECHAIN_WORKERS", workers)
        tokens = parse_texts(texts, cache=ParseCache(None), progress=False)
        arcs = parse_dependencies(texts, cache=ParseCache(None), progress=False)
        results[workers] = ([encode(p) for p in tokens], [encode(DependencyParse.from_doc(d)) for d in arcs])
    assert results["1"] == results["2"]


def _square(x: int) -> tuple[int, int]:
    import os
    return x * x, os.getpid()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_forked_work_comes_back_in_order_as_in_one_process(monkeypatch, workers):
    monkeypatch.setenv("EVIDENCECHAIN_WORKERS", workers)
    offset = 3  # a closure: forked workers see it without pickling the task
    out = parallel.map_forked(lambda x: _square(x + offset), list(range(7)))
    assert [v for v, _ in out] == [(x + offset) ** 2 for x in range(7)]
    later = parallel.fork_later(lambda: _square(offset))
    value, pid = later.get()
    assert value == 9 and (pid == os.getpid()) == (workers == "1")
    assert later.get()[0] == 9  # a second get runs it here
    assert ({pid for _, pid in out} == {os.getpid()}) == (workers == "1")


def _slow_owner(chunk: list) -> list:
    time.sleep(0.05)  # long enough that every process gets chunks
    inner = list(parallel.map_chunks(lambda c: [os.getpid()] * len(c), ["x" * 4000] * 8))
    return [(t, os.getpid(), set(inner)) for t in chunk]


@pytest.mark.parametrize("workers", ["2", "3"])
def test_chunks_are_shared_by_this_process_and_forked_ones_in_order(monkeypatch, workers):
    """This process takes chunks too; results come back in input order; a task that maps chunks
    inside a worker (this process included) does it in that worker, forking nothing more."""
    monkeypatch.setenv("EVIDENCECHAIN_WORKERS", workers)
    items = [f"text {i} " * 400 for i in range(40)]
    out = list(parallel.map_chunks(_slow_owner, items))
    assert [t for t, _, _ in out] == items
    owners = {pid for _, pid, _ in out}
    assert os.getpid() in owners and len(owners) == int(workers)
    assert all(inner == {pid} for _, pid, inner in out)


class _Unpicklable(Exception):
    def __reduce__(self):
        raise TypeError("cannot pickle this")


@pytest.mark.parametrize("error", [ValueError("bad chunk"), _Unpicklable("bad chunk")])
def test_a_failure_in_a_forked_worker_reaches_the_caller(monkeypatch, error):
    monkeypatch.setenv("EVIDENCECHAIN_WORKERS", "2")
    here = os.getpid()

    def task(chunk):
        if os.getpid() != here:
            raise error
        time.sleep(0.05)
        return chunk

    with pytest.raises((ValueError, RuntimeError), match="bad chunk"):
        list(parallel.map_chunks(task, [f"text {i} " * 400 for i in range(40)]))


def test_each_source_is_indexed_once_per_extractor(corpus, monkeypatch):
    """fit, preparse and transform of one corpus share the evidence indices; a corpus of other
    sources replaces them (a stream of batches keeps one batch's indices)."""
    part = corpus.subset(response_ids={r.id for r in corpus.responses[:30]}, name="part")
    other = corpus.subset(response_ids={r.id for r in corpus.responses[-30:]}, name="other")
    fx = FeatureExtractor(FeatureConfig(pipeline="blank")).fit(part, progress=False)
    first = fx.transform(part, progress=False).indices
    built = []
    original = parallel.map_chunks
    monkeypatch.setattr("evidencechain.text.parse.map_chunks",
                        lambda task, items, **kw: built.append(len(items)) or original(task, items, **kw))
    again = fx.transform(part, progress=False).indices
    assert all(again[s] is first[s] for s in first) and not built
    fx.transform(other, progress=False)
    assert set(fx.index_memo) == {i.evidence for i in fx.transform(other, progress=False).indices.values()}
    assert "index_memo" not in fx.__getstate__()


def test_workers_setting_is_validated(monkeypatch):
    from evidencechain.errors import ConfigError

    monkeypatch.setenv("EVIDENCECHAIN_WORKERS", "two")
    with pytest.raises(ConfigError, match="EVIDENCECHAIN_WORKERS"):
        parallel.workers()
    monkeypatch.setenv("EVIDENCECHAIN_WORKERS", "3")
    assert parallel.workers() == 3


@pytest.mark.skipif(load_dependency_pipeline() is None, reason="no spaCy model with a parser installed")
def test_cached_dependency_parse_rebuilds_the_same_doc():
    nlp = load_dependency_pipeline()
    text = "The tower, which was designed by Eiffel, was not opened until 1889 in Paris."
    doc = nlp(text)
    again = decode(encode(DependencyParse.from_doc(doc))).doc(nlp.vocab)
    assert again.text == doc.text
    assert [(t.text, t.tag_, t.pos_, t.dep_, t.head.i, t.is_sent_start) for t in again] == \
        [(t.text, t.tag_, t.pos_, t.dep_, t.head.i, t.is_sent_start) for t in doc]


class _Payload:
    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.write_text, (self.marker, "ran"))


def test_a_crafted_cache_runs_no_code(tmp_path):
    """A pickle planted in a cache file (the old layout) is never loaded; an entry of an unknown
    kind is parsed again; the parse is right either way."""
    marker = tmp_path / "ran"
    path = tmp_path / "parse.sqlite"
    text = "Marie Curie was born in Warsaw."
    key = ParseCache.key("blank-en-x", text)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE parse (key TEXT PRIMARY KEY, value BLOB)")
    db.execute("INSERT INTO parse VALUES (?, ?)", (key, pickle.dumps(_Payload(marker))))
    db.commit()
    db.close()
    parsed = parse_texts([text], pipeline="blank", cache=ParseCache(path), progress=False)[0]
    assert not marker.exists()
    assert parsed.token_text(0) == "Marie"
    from evidencechain.text.parse import pipeline_name

    real_key = ParseCache.key(pipeline_name("blank"), text)
    db = sqlite3.connect(path)
    db.execute("UPDATE parse3 SET value = ? WHERE key = ?",
               (json.dumps({"kind": "os.system", "fields": {"command": "touch " + str(marker)}}), real_key))
    db.commit()
    db.close()
    again = parse_texts([text], pipeline="blank", cache=ParseCache(path), progress=False)[0]
    assert not marker.exists() and encode(again) == encode(parsed)


def test_a_damaged_cache_is_set_aside_and_rebuilt(tmp_path, caplog):
    path = tmp_path / "parse.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with caplog.at_level(logging.WARNING):
        parsed = parse_texts(["One sentence here."], pipeline="blank", cache=ParseCache(path), progress=False)
    assert parsed[0].token_text(0) == "One"
    assert (tmp_path / "parse.sqlite.damaged").read_bytes().startswith(b"this is not")
    assert "damaged" in caplog.text
    cache = ParseCache(path)  # the rebuilt cache holds the parse
    assert len(cache.get_many([ParseCache.key(p, "One sentence here.") for p in _blank_names()])) == 1


def _blank_names() -> list[str]:
    from evidencechain.text.parse import pipeline_name

    return [pipeline_name("blank")]


def test_cache_values_must_be_known_kinds():
    with pytest.raises(TypeError):
        encode({"a": 1})
    with pytest.raises(ValueError):
        decode(json.dumps({"kind": "arrays", "items": [{"__array__": "|O", "shape": [1], "data": [1]}]}))


def _measured() -> dict:
    return {"bench": {"commit": "abc1234", "measured_at": "2026-11-25 17:00 UTC",
                      "machine": {"cpu": "cpu", "cores": 2, "memory_gb": 24, "python": "3.11", "gpu": "none used"},
                      "rows": [{"corpus": "audit-x1", "responses": 840, "generate_seconds": 7.0,
                                "stages": {"parse": 5.0, "features": 3.0}, "families": {"claims": 2.5},
                                "cold_responses_per_s": 90.0, "experiment_seconds": 19.0,
                                "score_responses_per_s": 310.0, "peak_rss_mb": 700}],
                      "detect_seconds": 3.5, "default_model_build_seconds": 15.0, "checker": [],
                      "checker_absent": "absent: not trained"},
            "time:make test": {"commit": "def5678", "seconds": 540.0, "fresh_clone": True,
                               "machine": {"cpu": "cpu", "cores": 2, "memory_gb": 24, "python": "3.11",
                                           "gpu": "none used"}}}


def test_performance_block_shows_each_figure_with_its_target_and_commit():
    block = performance_block(_measured())
    assert "| audit-x1 | 840 | 7.0 |" in block and "| 90 | 19.0 | 310 | 700 |" in block
    assert "| audit x1 experiment, total | 19.0 s | <= 20.0 s | yes | `abc1234` |" in block
    assert "| `detect` of 10 answers, default model cached | 3.5 s | <= 3.0 s | no | `abc1234` |" in block
    assert "| `make test`, fresh clone | 9.0 min | <= 10.0 min | yes | `def5678` |" in block
    assert "| `make reproduce`, fresh clone | not measured |" in block
    assert "claims 2.5 s" in block and "not trained" in block


def test_figures_carry_the_speed_probe_of_their_moment():
    from evidencechain.report.performance import machine

    probe = machine()["speed_probe_s"]
    assert 0 < probe < 60
    data = _measured()
    data["bench"]["machine"]["speed_probe_s"] = 0.42
    assert "speed probe 0.42 s" in performance_block(data)


def test_a_timing_taken_on_a_busy_machine_says_so():
    data = _measured()
    data["time:make test"]["mean_load"] = 1.0
    assert "busy" not in performance_block(data)
    data["time:make test"]["mean_load"] = 4.9
    assert "| 9.0 min (machine busy: mean load 4.9 on 2 cores) | <= 10.0 min | yes | `def5678` |" \
        in performance_block(data)
    data["time:make test"] |= {"cpu_seconds": 780.0, "carried": ["results/checker"]}
    assert "| 9.0 min (machine busy: mean load 4.9 on 2 cores; CPU 13.0 min; carrying results/checker) |" \
        in performance_block(data)


def _git_repo(tmp_path):
    """A git repository with one empty commit."""
    import subprocess

    repo = tmp_path / "repo"
    repo.mkdir()
    for cmd in (["git", "init", "-q"], ["git", "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q",
                                        "--allow-empty", "-m", "x"]):
        subprocess.run(cmd, cwd=repo, check=True)
    return repo


def test_timing_records_the_commit_it_ran_and_the_load(tmp_path, monkeypatch):
    import json
    import subprocess

    from evidencechain import bench

    repo = _git_repo(tmp_path)
    monkeypatch.chdir(repo)
    head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=repo, capture_output=True, text=True,
                          check=True).stdout.strip()
    measured = tmp_path / "performance.json"
    code = bench.main(["time", "sleepy", "--fresh-clone", "--measured", str(measured), "--readme", "", "--",
                       "git", "-C", str(repo), "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q",
                       "--allow-empty", "-m", "a commit made while the clone is timed"])
    assert code == 0
    record = json.loads(measured.read_text())["time:sleepy"]
    assert record["commit"] == head and record["fresh_clone"]
    assert isinstance(record["mean_load"], float) and record["cpu_seconds"] >= 0


def test_timing_keeps_what_the_clone_built_but_never_over_a_file_here(tmp_path, monkeypatch):

    from evidencechain import bench

    repo = _git_repo(tmp_path)
    (repo / "mine.txt").write_text("the user's own")
    monkeypatch.chdir(repo)
    build = "mkdir -p built && echo trained > built/model.txt && echo clone > mine.txt"
    code = bench.main(["time", "build", "--fresh-clone", "--keep", "built", "--keep", "mine.txt", "--keep", "absent",
                       "--measured", str(tmp_path / "p.json"), "--readme", "", "--", "bash", "-c", build])
    assert code == 0
    assert (repo / "built" / "model.txt").read_text() == "trained\n"
    assert (repo / "mine.txt").read_text() == "the user's own"


def test_readme_performance_block_equals_its_measurements_file():
    readme = (ROOT / "README.md").read_text("utf-8")
    rendered = render_readme(readme, load_measured(ROOT / MEASURED))
    assert rendered is not None, "README.md lacks the performance markers"
    assert rendered == readme, "README's Performance block differs from paper/measured/performance.json: " \
                               "run `python -m evidencechain.bench readme`"
