"""Val-only design selection (`evidencechain.valselect`): the CLIFF test cut never matters."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pandas as pd
import pytest

from evidencechain.errors import ConfigError
from evidencechain.valselect import (
    candidate_config,
    choose,
    fold_corpora,
    fold_parts,
    main,
    read_candidates,
    score_config,
    summarize,
    val_corpora,
)

NAMES = ["Ann Lee", "Bo Park", "Cy Diaz", "Di Wu", "Ed Stone", "Flo Hart"]
PLACES = ["Paris", "Lima", "Oslo", "Cairo", "Quito", "Perth"]


def _row(i: int, cut: str, model: str, wrong: bool) -> dict:
    name, place, year = NAMES[i % 6], PLACES[i % 5], 1990 + i
    doc = (f"{name} won the city marathon in {place} in {year}. The race drew a record crowd. "
           f"{name} trained for two years before the event.")
    other = PLACES[(i + 2) % 5]
    summ = f"{name} won the marathon in {other} in {year + 3} ." if wrong else f"{name} won the marathon in {place} ."
    return {"dataset": "CLIFF", "origin": "xsum" if i % 2 else "cnndm", "id": str(i), "doc": doc, "summ": summ,
            "model_name": model, "cut": cut, "error_type": "['extrinsic-NP']" if wrong else "correct",
            "annotated_span": str([other, str(year + 3)]) if wrong else ""}


def _rows() -> list[dict]:
    rows = []
    for i in range(24):
        rows += [_row(i, "val", "BART", i % 3 == 0), _row(i, "val", "PEGASUS", i % 4 == 1)]
    for i in range(24, 34):
        rows += [_row(i, "test", "BART", i % 2 == 0), _row(i, "test", "PEGASUS", False)]
    return rows


def _write(path: Path, rows: list[dict]) -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _config(tmp: Path, data: Path) -> Path:
    path = tmp / "cliff.toml"
    path.write_text(f"""name = "cliff"
seed = 17
cache_dir = "{tmp / 'cache'}"
[corpora.cliff]
format = "cliff"
path = "{data}"
[corpora.cliff_val]
format = "cliff"
path = "{data}"
train_from_calibration = 0.5
[[evaluations]]
fit = "cliff_val"
test = ["cliff"]
calibrate = "fit"
[features]
pipeline = "blank"
[detectors]
names = ["Lexical", "NLI_Rules", "EvidenceChain_LR"]
primary = "EvidenceChain_LR"
""", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def setup(tmp_path_factory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("valselect")
    data = _write(tmp / "cliff.jsonl.gz", _rows())
    return tmp, _config(tmp, data)


def test_folds_split_val_articles_only(setup):
    tmp, path = setup
    config = candidate_config(path, {}, "current")
    corpora = val_corpora(config)
    assert all(r.split == "calibration" for r in corpora["cliff"].corpus.responses)  # test cut not loaded
    parts = fold_parts(corpora["cliff"], 2, 17)
    assert parts == fold_parts(corpora["cliff"], 2, 17) and not parts[0] & parts[1]
    assert parts[0] | parts[1] == set(corpora["cliff"].corpus.sources)
    split = fold_corpora(corpora, config, parts[0], 17)
    test = set(split["cliff"].ids("test"))
    assert {r.source_id for r in split["cliff"].corpus.responses if r.id in test} == parts[0]
    fit = set(split["cliff_val"].ids("train"))
    calibration = set(split["cliff_val"].ids("calibration"))
    assert fit and calibration and not (fit | calibration) & test and not fit & calibration


def test_test_cut_labels_never_change_the_selection(setup):
    tmp, path = setup
    config = candidate_config(path, {}, "current")
    before = score_config(config, folds=2, repeats=2)
    assert set(before["method"]) == {"Lexical", "NLI_Rules", "EvidenceChain_LR"} and len(before) == 12
    corrupted = [_row(int(r["id"]), "test", r["model_name"], r["error_type"] == "correct") | {"summ": "x ."}
                 if r["cut"] == "test" else r for r in _rows()]
    _write(Path(config.corpora["cliff"].path), corrupted)
    try:
        after = score_config(candidate_config(path, {}, "current"), folds=2, repeats=2)
    finally:
        _write(Path(config.corpora["cliff"].path), _rows())
    pd.testing.assert_frame_equal(before, after)


def test_rule_prefers_the_earlier_row_within_the_tie():
    rows = pd.DataFrame({"candidate": ["a", "a", "b", "b"], "evaluation": ["e"] * 4, "method": ["X", "X", "Y", "Y"],
                         "balanced_accuracy": [0.70, 0.72, 0.72, 0.73], "roc_auc": [0.8] * 4})
    table = summarize(rows)
    assert table["balanced_accuracy"].round(3).tolist() == [0.71, 0.725]
    assert choose(table, 0.02)["candidate"] == "a" and choose(table, 0.01)["candidate"] == "b"


def test_candidates_file_errors_name_the_file(tmp_path, setup, capsys):
    bad = tmp_path / "c.toml"
    bad.write_text('[[candidates]]\nname = "x"\nextra = 1\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="c.toml"):
        read_candidates(bad)
    assert main([str(setup[1]), "--candidates", str(bad), "-q"]) == 2
    assert "c.toml" in capsys.readouterr().err
    merged = candidate_config(setup[1], {"detectors": {"primary": "NLI_Rules"}}, "x")
    assert merged.detectors.primary == "NLI_Rules" and merged.detectors.names[0] == "Lexical"


def test_stacked_evaluation_reports_the_stacker(setup):
    tmp, path = setup
    changes = {"evaluations": [{"fit": "cliff_val", "test": ["cliff"], "calibrate": "fit", "stack": True,
                                "threshold_metric": "balanced_accuracy"}]}
    rows = score_config(candidate_config(path, changes, "stacked"), folds=2, repeats=1)
    stacked = rows[rows["method"] == "Stacked"]
    assert len(stacked) == 2 and stacked["balanced_accuracy"].between(0, 1).all()
    assert set(rows["method"]) == {"Lexical", "NLI_Rules", "EvidenceChain_LR", "Stacked"}


def test_summary_headline_is_the_row_chosen_on_val_not_the_best_test_row():
    from evidencechain.report.realdata import VALUES, sections

    frame = pd.DataFrame({"method": ["NLI_Rules", "EvidenceChain_RF", "EvidenceChain_RF"],
                          "fitted_on": ["audit", "audit", "cliff_val"],
                          "summary_balanced_accuracy": [0.9, 0.7, 0.8], "word_f1": [0.3, 0.4, 0.2]})
    chosen = {"chosen": {"method": "EvidenceChain_RF", "fitted_on": "audit"}}
    values = VALUES["summaries"]("cliff", frame, chosen)
    assert values["balanced_accuracy"] == 0.7 and values["ba_method"] == "EvidenceChain_RF, fitted on audit"
    assert VALUES["summaries"]("cliff", frame, {})["balanced_accuracy"] == 0.9  # no choice named: the best row
    assert sections()["cliff"]["chosen"] == chosen["chosen"]


def test_readme_block_shows_every_candidate_and_the_chosen_row(tmp_path):
    from evidencechain.report.readme_blocks import val_select_body
    from evidencechain.valselect import write_results

    rows = pd.DataFrame({"candidate": ["a", "a", "b", "b"], "evaluation": ["e"] * 4, "method": ["X", "Y", "X", "Y"],
                         "balanced_accuracy": [0.70, 0.75, 0.72, 0.74], "roc_auc": [0.8] * 4})
    table = summarize(rows)
    table["chosen"] = table.index == choose(table, 0.005).name
    write_results(rows, table, tmp_path)
    assert (tmp_path / "rows.csv").is_file() and (tmp_path / "commit.txt").is_file()
    body = val_select_body(tmp_path / "summary.csv")
    assert "| a | e | 0.700 | **0.750** |" in body and "| b | e | 0.720 | 0.740 |" in body
    assert val_select_body(tmp_path / "absent.csv") is None
