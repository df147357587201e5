"""The benchmark recipe: one module (a reader registered as a format and a benchmark) and one
config are enough for a corpus to load, validate and appear in the reports; nothing else edited."""
from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from evidencechain import data
from evidencechain.config import load_config
from evidencechain.data.benchmarks import benchmarks, formats, manifest, unregister
from evidencechain.data.load import load_split_corpus
from evidencechain.errors import ConfigError
from evidencechain.report.benchmarks import benchmark_tables
from evidencechain.report.realdata import headline, realdata_section
from evidencechain.report.runs import load_run

ROOT = Path(__file__).resolve().parents[1]

TOY_MODULE = '''
"""Toy summaries: one JSON record per line (doc, summary, label, domain, split)."""
import json
from pathlib import Path

from evidencechain.data.benchmarks import Benchmark, Format, register, register_format, spec_path
from evidencechain.records import Corpus, Response, Source

DOMAINS = ("alpha", "beta")


def load_toybench(path):
    sources, responses = {}, []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines()):
        r = json.loads(line)
        sid = f"toy-{n}"
        sources[sid] = Source(sid, "Summary", "toy", r["doc"], "Summarize.", {})
        responses.append(Response(f"{sid}-r", sid, "toy", 0.0, (), r["split"], "good", r["summary"],
                                  response_label=r["label"], subset=r["domain"]))
    return Corpus(responses=responses, sources=sources, name="toybench")


def read(spec, name, seed):
    corpus = load_toybench(spec_path(spec))
    keep = set(spec.subsets or DOMAINS)
    return corpus.subset(response_ids={r.id for r in corpus.responses if r.subset in keep}, name=name)


TEXTS = {"caption": "Toy summaries, balanced accuracy per domain. Published rows: {reference}.",
         "abstract": "a mean balanced accuracy of {mean:.3f} on toy summaries",
         "headline": [{"what": "Toy, mean balanced accuracy", "value": "mean",
                       "detector": "{method} (fitted on {fit})", "reference": "Oracle 1.000"}],
         "parts": {"toybench": "**Toy.** Best mean {{ real.toybench.mean }}.\\n\\n{{ table.toybench }}\\n"}}
PUBLISHED = {"domains": list(DOMAINS), "reference": "the toy paper",
             "systems": {"Oracle": [100.0, 100.0]}}

register_format(Format("toybench", read, subsets=DOMAINS, loader=load_toybench))
register(Benchmark("toybench", "toybench", "Toy", section="domains", texts=TEXTS, published=PUBLISHED))
'''


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The toy module imported from outside the package, and its fixture file."""
    (tmp_path / "toybench_module.py").write_text(TOY_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("toybench_module")
    records = [{"doc": f"The report was filed in {2000 + k}.", "summary": f"It was filed in {2000 + k}.",
                "label": k % 2, "domain": ("alpha", "beta")[k // 4], "split": ("train", "test")[k % 4 // 2]}
               for k in range(8)]
    fixture = tmp_path / "toy.jsonl"
    fixture.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    yield tmp_path, fixture
    unregister("toybench")
    sys.modules.pop("toybench_module", None)


def _config(tmp_path: Path, fixture: Path, corpus: str) -> Path:
    path = tmp_path / "toybench.toml"
    path.write_text(f'name = "toybench"\noutput_dir = "{tmp_path / "out"}"\n\n[corpora.toy]\n{corpus}\n'
                    f'path = "{fixture}"\n\n[[evaluations]]\nfit = "toy"\ntest = ["toy"]\n', encoding="utf-8")
    return path


def test_toy_benchmark_validates_and_loads_through_the_registry(toy):
    tmp_path, fixture = toy
    config = load_config(_config(tmp_path, fixture, 'format = "toybench"\nsubsets = ["beta"]'))
    split = load_split_corpus(config.corpora["toy"], "toy", config.seed)
    assert split.corpus.name == "toy"
    assert {r.subset for r in split.corpus.responses} == {"beta"}
    assert len(split.corpus.responses) == 4 and set(split.split_of.values()) <= {"train", "calibration", "test"}
    assert data.load_toybench(fixture).responses[0].response_label == 0
    with pytest.raises(ConfigError, match="did you mean 'toybench'"):
        load_config(_config(tmp_path, fixture, 'format = "toybenc"'))
    with pytest.raises(ConfigError, match="'gamma' is not a subset of format 'toybench'"):
        load_config(_config(tmp_path, fixture, 'format = "toybench"\nsubsets = ["gamma"]'))


def test_toy_benchmark_appears_in_the_reports(toy):
    tmp_path, _ = toy
    assert list(benchmarks())[-1] == "toybench" and "toybench" in formats()
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "run.json").write_text(json.dumps({"name": "toybench", "primary": "EvidenceChain_RF"}))
    rows = [{"unit": "audit -> toybench", "fit": "audit", "test": "toybench", "subset": d, "level": "response",
             "family": "supervised", "method": "EvidenceChain_RF", "balanced_accuracy": ba, "roc_auc": 0.7}
            for d, ba in (("alpha", 0.6), ("beta", 0.8))]
    pd.DataFrame(rows).to_csv(run_dir / "metrics.csv", index=False)
    (table,) = benchmark_tables(load_run(run_dir))
    assert table.name == "toybench"
    assert table.caption == "Toy summaries, balanced accuracy per domain. Published rows: the toy paper."
    assert list(table.frame["method"]) == ["EvidenceChain_RF", "Oracle"]
    assert table.frame["mean"].tolist() == pytest.approx([0.7, 1.0])
    tables = tmp_path / "tables"
    tables.mkdir()
    table.frame.to_csv(tables / "toybench.csv", index=False)
    text, values = realdata_section(tables)
    assert "**Toy.** Best mean {{ real.toybench.mean }}." in text and values["real.toybench.mean"] == pytest.approx(0.7)
    assert headline(values).to_dict("records") == [
        {"benchmark": "Toy, mean balanced accuracy", "ours": pytest.approx(0.7),
         "detector": "EvidenceChain_RF (fitted on audit); best of test rows: selection on test",
         "best_test": "0.700 (EvidenceChain_RF, fitted on audit)", "reference": "Oracle 1.000"}]


def test_every_registered_benchmark_has_a_config_and_make_target():
    names = list(manifest()["benchmarks"])
    assert names == list(benchmarks())
    for name in [*names, *manifest()["extra_runs"]]:
        assert load_config(ROOT / "experiments" / f"{name}.toml").name == name
    made = subprocess.run(["make", "-s", "-C", str(ROOT), "help"], capture_output=True, text=True, check=True).stdout
    for name in names:
        assert f"make {name.replace('_', '-')} " in made
