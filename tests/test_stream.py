"""Streaming `detect --out-dir`: the same scores whatever the engine, partition size or worker
count; resumable runs (no partition scored twice, none lost, no temporary file counted); bad
input and missing extras as one error line. A small model and a small audit log are built once
per module (about 10 s); the Dask cluster is started once per module too."""
from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from detect_support import ROOT, data_error_lines, one_error_line, run_cli

from evidencechain.detect import engines, stream
from evidencechain.detect.stream import MANIFEST, RagtruthLog, SourceIndex

SIZES = (7, 25)


@pytest.fixture(scope="module")
def audit_log(tmp_path_factory) -> dict[str, Path]:
    """A small model fitted on one part of the audit corpus (seed 17), and a 60-answer log of
    other sources in both input formats (RAGTruth pairs, plain JSONL.gz)."""
    from evidencechain.data.audit import generate_audit_corpus
    from evidencechain.data.ragtruth import write_ragtruth
    from evidencechain.data.splits import split_corpus
    from evidencechain.features import FeatureConfig
    from evidencechain.model import EvidenceChain
    from evidencechain.text.parse import ParseCache

    root = tmp_path_factory.mktemp("stream")
    corpus = generate_audit_corpus(17, 1)
    ids = sorted(corpus.sources)
    fit = split_corpus(corpus.subset(source_ids=set(ids[1::5])), 0.3, 17)
    model = EvidenceChain(("Lexical", "EvidenceChain_LR"), "EvidenceChain_LR", FeatureConfig(), 17, "max",
                          {}, ParseCache(None))
    model.fit(fit["train"], fit["calibration"], progress=False)
    model.save(root / "model")
    log = corpus.subset(source_ids=set(ids[::14]))  # 10 sources of every task, 60 answers
    write_ragtruth(log, root / "log")
    with gzip.open(root / "log" / "plain.jsonl.gz", "wt", encoding="utf-8") as handle:
        for r in log.responses:
            info = log.sources[r.source_id].source_info
            context = info["passages"] if isinstance(info, dict) and "passages" in info else \
                info if isinstance(info, str) else json.dumps(info)
            question = info.get("question") if isinstance(info, dict) else None
            handle.write(json.dumps({"id": r.id, "context": context, "question": question,
                                     "answer": r.response}) + "\n")
    return {"model": root / "model", "response": root / "log" / "response.jsonl",
            "source": root / "log" / "source_info.jsonl", "plain": root / "log" / "plain.jsonl.gz",
            "cache": root / "cache", "answers": len(log.responses)}


@pytest.fixture(autouse=True)
def _cache_env(audit_log, monkeypatch):
    monkeypatch.setenv("EVIDENCECHAIN_CACHE_DIR", str(audit_log["cache"]))


@pytest.fixture(scope="module")
def cluster():
    """One LocalCluster for the module (one worker; the test that needs two scales it)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as local, distributed.Client(local) as client:
        yield local, client


def ragtruth_args(log: dict, *more: str) -> list[str]:
    return ["detect", "--model", str(log["model"]), "--response-jsonl", str(log["response"]),
            "--source-info-jsonl", str(log["source"]), "--cache-dir", str(log["cache"]), "-q", *more]


def stream_run(log: dict, out: Path, *more: str) -> list[str]:
    code, _, err = run_cli(ragtruth_args(log, "--out-dir", str(out), *more))
    assert code == 0, err
    return part_lines(out)


def part_lines(out: Path) -> list[str]:
    return [line for p in sorted(out.glob("part-*.jsonl")) for line in p.read_text("utf-8").splitlines()]


def by_id(lines: list[str]) -> list[str]:
    return sorted(lines, key=lambda line: json.loads(line)["id"])


@pytest.fixture(scope="module")
def reference(audit_log, tmp_path_factory) -> list[str]:
    """The records of today's whole-file `detect --out FILE.jsonl`."""
    out = tmp_path_factory.mktemp("reference") / "all.jsonl"
    code, _, err = run_cli(ragtruth_args(audit_log, "--out", str(out)))
    assert code == 0, err
    return out.read_text("utf-8").splitlines()


# ---------------------------------------------------------------- the same answers everywhere

def test_scores_are_identical_whatever_the_engine_partition_size_and_workers(audit_log, reference, cluster,
                                                                             tmp_path):
    local, client = cluster
    expected = by_id(reference)
    assert len(expected) == audit_log["answers"] == 60
    runs = {}
    for size in SIZES:
        runs[f"local/{size}"] = stream_run(audit_log, tmp_path / f"local-{size}", "--partition-size", str(size))
    for workers in (1, 2):
        if workers == 2:
            local.scale(2)
            client.wait_for_workers(2, timeout=120)
        assert len(client.scheduler_info()["workers"]) == workers
        for size in SIZES:
            runs[f"dask-{workers}/{size}"] = stream_run(
                audit_log, tmp_path / f"dask-{workers}-{size}", "--partition-size", str(size),
                "--engine", "dask", "--scheduler", local.scheduler_address)
    for name, lines in runs.items():
        assert by_id(lines) == expected, name
    assert runs["local/7"] == reference  # one engine in file order: today's output, partition by partition
    manifest = json.loads((tmp_path / "dask-2-7" / MANIFEST).read_text())
    assert manifest["complete"] and manifest["partitions_total"] == 9 and manifest["answers"] == 60
    assert [(p["first_line"], p["last_line"]) for p in manifest["partitions"]][:2] == [(1, 7), (8, 14)]
    assert manifest["run"]["model"]["sha256"] and manifest["run"]["files"][0]["size"] > 0


def test_plain_gzip_input_and_parquet_output_give_the_same_records(audit_log, tmp_path):
    pytest.importorskip("pyarrow.parquet")
    code, out, err = run_cli(["detect", "--model", str(audit_log["model"]), str(audit_log["plain"]), "-q"])
    assert code == 0, err
    expected = [json.loads(line) for line in out.splitlines()]
    code, _, err = run_cli(["detect", "--model", str(audit_log["model"]), str(audit_log["plain"]), "-q",
                            "--out-dir", str(tmp_path / "pq"), "--format", "parquet", "--partition-size", "25"])
    assert code == 0, err
    files = sorted((tmp_path / "pq").glob("part-*.parquet"))
    assert len(files) == 3
    assert [row for f in files for row in engines.read_parquet_records(f)] == expected


def test_sources_are_read_through_an_offset_index(audit_log):
    index = SourceIndex(audit_log["source"]).build(stream._Problems())
    assert all(isinstance(v, tuple) and isinstance(v[0], int) for v in index.offsets.values())
    last = list(index.offsets)[-1]
    assert index.load(last).source_id == last
    index.close()
    log = RagtruthLog(audit_log["response"], audit_log["source"])
    parts = log.scan(25)
    assert [p["answers"] for p in parts] == [25, 25, 10]
    only = list(log.partitions(parts, {1}))
    assert [p.index for p in only] == [1] and len(only[0].corpus.responses) == 25
    assert set(only[0].corpus.sources) == {r.source_id for r in only[0].corpus.responses}
    log.close()


# ---------------------------------------------------------------- resuming

def _interrupt_after(monkeypatch, k: int) -> list[int]:
    """Ctrl-C after the k-th partition is written; returns the list of partitions scored."""
    scored, commit = [], stream.PartitionStore.commit
    score = engines.score_partition

    def counting_score(detector, partition, fmt):
        scored.append(partition.index)
        return score(detector, partition, fmt)

    def commit_then_stop(self, output):
        entry = commit(self, output)
        if len(self.done) >= k:
            raise KeyboardInterrupt
        return entry

    monkeypatch.setattr(engines, "score_partition", counting_score)
    if k:
        monkeypatch.setattr(stream.PartitionStore, "commit", commit_then_stop)
    return scored


def test_an_interrupted_run_resumes_without_recomputing_or_duplicating(audit_log, reference, tmp_path,
                                                                      monkeypatch):
    out = tmp_path / "out"
    first = _interrupt_after(monkeypatch, 3)
    code, _, err = run_cli(ragtruth_args(audit_log, "--out-dir", str(out), "--partition-size", "7"))
    assert code == 130 and "run the same command again" in err, err
    assert first == [0, 1, 2]
    assert json.loads((out / MANIFEST).read_text())["partitions_done"] == 3
    assert not [p for p in os.listdir(out) if ".partial-" in p]
    monkeypatch.undo()
    (out / "part-000001.jsonl").unlink()  # a lost file is scored again
    second = _interrupt_after(monkeypatch, 0)
    assert by_id(stream_run(audit_log, out, "--partition-size", "7")) == by_id(reference)
    assert second == [1, 3, 4, 5, 6, 7, 8]
    monkeypatch.undo()
    edited = out / "part-000004.jsonl"  # a file that no longer matches its hash is scored again
    edited.write_text(edited.read_text()[:100])
    third = _interrupt_after(monkeypatch, 0)
    lines = stream_run(audit_log, out, "--partition-size", "7")
    assert third == [4] and lines == reference and len({json.loads(x)["id"] for x in lines}) == 60


def test_a_partial_temporary_file_is_never_counted_as_finished(audit_log, reference, tmp_path, monkeypatch):
    out = tmp_path / "out"
    replace = os.replace

    def die_on_part_2(src, dst):
        if str(dst).endswith("part-000002.jsonl"):
            raise KeyboardInterrupt  # killed after writing the temporary file, before the rename
        return replace(src, dst)

    monkeypatch.setattr(stream.os, "replace", die_on_part_2)
    code, _, _ = run_cli(ragtruth_args(audit_log, "--out-dir", str(out), "--partition-size", "25"))
    assert code == 130
    monkeypatch.undo()
    assert sorted(p.name for p in out.iterdir()) == [".evidencechain-output", MANIFEST, "part-000000.jsonl",
                                                     "part-000001.jsonl"]
    # what a killed process leaves: its temporary file, and a final file it never recorded
    (out / ".part-000002.jsonl.partial-999999999-1-abcdefgh").write_text(reference[50][:40])
    (out / "part-000002.jsonl").write_text(reference[50] + "\n")
    scored = _interrupt_after(monkeypatch, 0)
    assert stream_run(audit_log, out, "--partition-size", "25") == reference
    assert scored == [2]
    assert not [p for p in os.listdir(out) if ".partial-" in p]


@pytest.mark.slow
def test_ctrl_c_stops_a_dask_run_cleanly_and_the_rerun_completes(audit_log, reference, tmp_path):
    pytest.importorskip("distributed")
    out = tmp_path / "out"
    argv = [sys.executable, "-m", "evidencechain", *ragtruth_args(audit_log, "--out-dir", str(out),
            "--partition-size", "5", "--engine", "dask", "--workers", "1")]
    argv.remove("-q")
    env = {**os.environ, "EVIDENCECHAIN_CACHE_DIR": str(audit_log["cache"])}
    run = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           start_new_session=True)  # its own process group, as a terminal's Ctrl-C sees it
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and run.poll() is None:
        try:
            if json.loads((out / MANIFEST).read_text())["partitions_done"] >= 1:
                break
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    os.killpg(run.pid, signal.SIGINT)
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert "Traceback" not in err and "run the same command again" in err, err
    done = json.loads((out / MANIFEST).read_text())["partitions_done"]
    assert 1 <= done < 12
    again = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert f"{done} done earlier, kept" in again.stderr
    assert by_id(part_lines(out)) == by_id(reference)


# ---------------------------------------------------------------- errors

def test_dask_missing_gives_one_line_saying_what_to_install(audit_log, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    code, _, err = run_cli(ragtruth_args(audit_log, "--out-dir", str(tmp_path / "o"), "--engine", "dask"))
    assert code == 2
    one_error_line(err, "--engine dask", "pip install 'evidencechain[scale]'")
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("verbose, level", [(False, "CRITICAL"), (True, "ERROR")])
def test_a_local_cluster_prints_worker_logs_only_under_verbose(audit_log, tmp_path, monkeypatch, verbose, level):
    """A worker whose scheduler has just closed (Ctrl-C) logs a heartbeat traceback at ERROR:
    without -v, workers print nothing below CRITICAL (task errors still reach the client)."""
    import logging

    distributed = pytest.importorskip("distributed")
    seen = {}

    def no_cluster(**kwargs):
        seen.update(kwargs)
        raise OSError("no cluster in this test")

    monkeypatch.setattr(distributed, "LocalCluster", no_cluster)
    monkeypatch.setattr(logging.getLogger("distributed"), "level", logging.NOTSET)
    args = ragtruth_args(audit_log, "--out-dir", str(tmp_path / "o"), "--engine", "dask", "--workers", "1")
    if verbose:  # pytest's own log handlers keep the CLI's basicConfig from setting the root level
        args = ["-v", *(a for a in args if a != "-q")]
        monkeypatch.setattr(logging.getLogger(), "level", logging.INFO)
    code, _, err = run_cli(args)
    assert code == 2 and "cannot reach a local Dask cluster" in err
    assert seen["silence_logs"] == getattr(logging, level)


def test_bad_records_are_refused_before_anything_is_written(audit_log, tmp_path):
    plain = tmp_path / "answers.jsonl"
    good = {"context": "The museum opened in 1987.", "answer": "It opened in 1987."}
    rows = [good | {"id": "a"}, good | {"id": "b"}, {"id": "c", "context": "x"}, good | {"id": "a"}]
    plain.write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, _, err = run_cli(["detect", "--model", str(audit_log["model"]), str(plain), "--out-dir",
                            str(tmp_path / "o"), "--partition-size", "2"])
    assert code == 2
    lines = data_error_lines(err, 2, f"{plain}:3: field 'answer'", f"{plain}:4: field 'id'")
    assert "first on line 1" in lines[2]
    assert not (tmp_path / "o").exists()
    response = tmp_path / "response.jsonl"
    rows = audit_log["response"].read_text().splitlines()
    rows[40] = rows[40].replace('"source_id": "', '"source_id": "nope-')
    response.write_text("\n".join(rows) + "\n")
    code, _, err = run_cli(["detect", "--model", str(audit_log["model"]), "--response-jsonl", str(response),
                            "--source-info-jsonl", str(audit_log["source"]), "--out-dir", str(tmp_path / "o")])
    assert code == 2
    data_error_lines(err, 1, f"{response}:41: field 'source_id': unknown source_id")


@pytest.mark.parametrize("more, text", [
    (["--engine", "dask"], "--engine writes partitions: give --out-dir"),
    (["--partition-size", "5"], "--partition-size writes partitions"),
    (["--out-dir", "X", "--out", "y.jsonl"], "--out cannot be combined"),
    (["--out-dir", "X", "--workers", "2"], "go with --engine dask"),
    (["--out-dir", "X", "--format", "pretty"], "not --format pretty"),
])
def test_streaming_options_that_do_not_go_together(audit_log, tmp_path, more, text):
    more = [str(tmp_path / m) if m == "X" else m for m in more]
    code, _, err = run_cli(ragtruth_args(audit_log, *more))
    assert code == 2
    one_error_line(err, text)


def test_an_output_directory_of_another_run_or_of_user_files_is_refused(audit_log, tmp_path):
    out = tmp_path / "out"
    stream_run(audit_log, out, "--partition-size", "25")
    code, _, err = run_cli(ragtruth_args(audit_log, "--out-dir", str(out), "--partition-size", "30"))
    assert code == 2
    one_error_line(err, "another run", "partition_size was 25, now 30", "--force")
    assert len(stream_run(audit_log, out, "--partition-size", "30", "--force")) == 60
    assert sorted(p.name for p in out.glob("part-*")) == ["part-000000.jsonl", "part-000001.jsonl"]
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    code, _, err = run_cli(ragtruth_args(audit_log, "--out-dir", str(mine)))
    assert code == 2
    one_error_line(err, "holds files evidencechain did not write", "notes.txt")
    assert (mine / "notes.txt").read_text() == "keep me"
