"""The README's generated blocks other than the results block: each rendered from one source that
a make target writes, never typed by hand.

  * `commands`: the command reference, from the CLI's own parser (`cli_parser.build_parser`);
  * `default-model`: the default detect model's card (`make default-model` ->
    results/default_model/card.json, and ragtruth_qa.json when the real answers are present);
  * `checker`: the learned checker's card (`make checker` -> results/checker/card.json);
  * `checker-gpu`: the benchmarks with the CPU and the GPU checker (`make benchmarks-checker-gpu`).

Each renderer returns the block's body, or None when its source is absent (the README keeps the
block it has).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

DEFAULT_MODEL_DIR = Path("results/default_model")
CHECKER_DIR = Path("results/checker")
CALIBRATE_DIR = Path("results/calibrate_ragtruth_qa")
CALIBRATE_ANSWER_DIR = Path("results/calibrate_ragtruth_qa_answer")


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _leaves(parser: argparse.ArgumentParser, prefix: str = "evidencechain"):
    """(command line, parser) of every command that runs something, in the parser's order."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield prefix, parser
        return
    for name, child in subs[0].choices.items():
        yield from _leaves(child, f"{prefix} {name}")


def commands_body() -> str:
    """Every command with its description, examples and options, as `--help` gives them."""
    from ..cli_parser import build_parser

    top = build_parser()
    lines = ["Before any command: " + "; ".join(
        f"`{_cell(top._get_formatter()._format_action_invocation(a))}`: {_cell(a.help)}"
        for a in top._actions if a.option_strings and not isinstance(a, argparse._HelpAction)) + ".", ""]
    for command, parser in _leaves(top):
        formatter = parser._get_formatter()
        lines += [f"#### `{command}`", "", " ".join(parser.description.split()), ""]
        if parser.epilog:
            examples = [line.strip() for line in parser.epilog.splitlines()[1:] if line.strip()]
            lines += ["```bash", *examples, "```", ""]
        options = [f"| `{_cell(formatter._format_action_invocation(a))}` | {_cell(a.help or '')} |"
                   for a in parser._actions if not isinstance(a, argparse._HelpAction)]
        if options:
            lines += ["| option | what it does |", "|---|---|", *options, ""]
    return "\n".join(lines).rstrip()


def _read(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None


def _f(value) -> str:
    return "—" if value is None else f"{float(value):.3f}"


def default_model_body(source: Path = DEFAULT_MODEL_DIR) -> str | None:
    """The default model's detectors, selection and metrics, from its card (and RAGTruth QA)."""
    card = _read(source / "card.json")
    if card is None:
        return None
    chosen, calibration, test = card["detector"], card["calibration_metrics"], card["audit_test_metrics"]
    detectors = card["recipe"]["detectors"]
    answers = card.get("answers", {})
    lines = [f"Built from `{source / 'card.json'}` (commit {card.get('commit') or 'unknown'}, model "
             f"`default-{card['key']}`, built in {card['build_seconds']:.0f} s): {len(detectors)} detectors "
             f"({', '.join(detectors)}), fitted on the train split ({answers.get('train', '?')} answers), "
             f"thresholds and the reported detector chosen on the calibration split "
             f"({answers.get('calibration', '?')} answers), the audit test split ({answers.get('test', '?')} "
             f"answers) scored once. Chosen: **{chosen}**." + (
                 " Conflict rule on: `detect` also flags, by rule (level `rule`), the words of confident "
                 "semantic signals, whatever the fitted detector says." if card["recipe"].get("conflict_rule")
                 else ""), "",
             "| detector | calibration answer F1 | calibration span F1 | audit test answer F1 | audit test span F1 |",
             "|---|--:|--:|--:|--:|"]
    for name in detectors:
        c, t = calibration.get(name, {}), test.get(name, {})
        label = f"**{name}** (chosen)" if name == chosen else name
        lines.append(f"| {label} | {_f(c.get('response_f1'))} | {_f(c.get('span_f1'))} | "
                     f"{_f(t.get('response_f1'))} | {_f(t.get('span_f1'))} |")
    real = _read(source / "ragtruth_qa.json")
    if real is not None:
        lines += ["", f"Measured afterwards on the real RAGTruth QA answers ({real['answers']} answers, "
                      f"{real['hallucinated']} with a hallucination; `{source / 'ragtruth_qa.json'}`, commit "
                      f"{real.get('commit') or 'unknown'}) with `detect`'s own verdicts and spans ({real['detector']}): "
                      f"answer F1 {_f(real['answer_f1'])} (precision {_f(real['answer_precision'])}, recall "
                      f"{_f(real['answer_recall'])}; flagging every answer gives {_f(real['flag_everything_answer_f1'])}) "
                      f"and span F1 {_f(real['span_f1'])}." + _other_rule(real.get("other_rule"))
                  + " Nothing was fitted or chosen on these answers."]
    return "\n".join(lines)


def _other_rule(other: dict | None) -> str:
    if not other:
        return ""
    state = "on" if other["conflict_rule"] else "off"
    return (f" With the conflict rule {state} (`detect --conflict-rule {state}`): answer F1 {_f(other['answer_f1'])} "
            f"(precision {_f(other['answer_precision'])}, recall {_f(other['answer_recall'])}), span F1 "
            f"{_f(other['span_f1'])}.")


def checker_body(source: Path = CHECKER_DIR) -> str | None:
    """The learned checker's training data, training and validation metrics, from its card."""
    card = _read(source / "card.json")
    if card is None:
        return None
    m, pairs = card["metrics"], card["pairs"]
    by_source = pairs.get("train_by_source", {})
    counts = "; ".join(f"{name} {sum(labels.values()):,}" for name, labels in sorted(by_source.items()))
    params = m.get("trainable_parameters")
    return "\n".join([
        f"From `{source / 'card.json'}` (commit {card.get('commit') or 'unknown'}, seed {card['seed']}, "
        f"input hash `{card['inputs_hash'][:16]}`):", "",
        f"- **Data:** {pairs['train']:,} training and {pairs['validation']:,} validation pairs "
        f"(held-out documents); training pairs by source: {counts}.",
        f"- **Training:** {m['epochs']} epoch(s), {m['steps']:,} steps, {m['wall_seconds'] / 60:.1f} min on "
        f"{m['device']} ({m['threads']} threads, {m['precision']})"
        + (f", {params / 1e6:.1f} M trainable parameters" if params else "") + ".",
        f"- **Validation** (in-distribution, held-out documents of the training sources): accuracy "
        f"{_f(m.get('validation_accuracy'))}, balanced accuracy {_f(m.get('validation_balanced_accuracy'))}, "
        f"ROC-AUC of P(supported) {_f(m.get('validation_roc_auc_supported'))}, token F1 "
        f"{_f(m.get('validation_token_f1'))}.",
    ])


def calibrate_body(source: Path = CALIBRATE_DIR, answer_source: Path = CALIBRATE_ANSWER_DIR) -> str | None:
    """`calibrate` with the RAGTruth QA slice as a user's labelled sample, from its calibration.json:
    the default objective, then `--objective answer` where that run exists."""
    first = _calibrate_table(source)
    if first is None:
        return None
    second = _calibrate_table(answer_source)
    if second is None:
        return first
    return "\n".join(["Default objective (the mean of answer F1 and span F1, as the default model chooses):", "",
                      first, "", "`--objective answer` (answer F1 alone, the measure of the issue's calibrate target):",
                      "", second])


def _calibrate_table(source: Path) -> str | None:
    report = _read(source / "calibration.json")
    if report is None:
        return None
    s, lab = report["summary"], report["labelled"]

    def cell(key: str) -> str:
        return f"{_f(s[key]['mean'])} ± {_f(s[key]['sd'])}" if s[key]["folds"] else "n/a"

    stacker = report.get("stacker") or {}
    stacked = bool(stacker.get("estimated"))
    folds = len(report["per_fold"])

    def higher(key: str) -> str:
        count = sum(f[key] is not None and f[key] > f["response_f1_before"] for f in report["per_fold"])
        return f"(higher in {count} of {folds} folds)"

    extra = " | stacked" if stacked else ""
    lines = [
        f"From `{source / 'calibration.json'}` (commit {report.get('commit') or 'not recorded'}): "
        f"{lab['answers']} answers, {lab['hallucinated']} hallucinated, {report['folds']} folds by context, "
        f"seed {report['seed']}; each fold calibrated without its held-out answers"
        + (" (thresholds, then the stacker, on its training folds only)." if stacked else "."), "",
        f"| | before (base model) | after `calibrate`, thresholds only{extra} |",
        "|---|---|---|" + ("---|" if stacked else ""),
        f"| detector `detect` reports | {report['detector']} | "
        f"{report.get('detector_thresholds', report['detector_after'])} |" + (" Stacked |" if stacked else ""),
        f"| answer F1 (`detect`'s verdicts), mean ± sd over folds | {cell('response_f1_before')} | "
        f"{cell('response_f1_after')} {higher('response_f1_after')} |"
        + (f" {cell('response_f1_stacked')} {higher('response_f1_stacked')} |" if stacked else ""),
        f"| span F1 (character overlap) | {cell('span_f1_before')} | {cell('span_f1_after')} |"
        + (f" {cell('span_f1_stacked')} |" if stacked else "")]
    guard = report.get("guard")
    if guard:
        why = guard["why"].removeprefix("guard: ")
        lines += ["", f"Guard (the base model kept as it is in {guard['folds_base_kept']} of {folds} folds, "
                      f"thresholds only): {why}."]
    if stacker.get("why"):
        lines += ["", f"{stacker['why'][:1].upper()}{stacker['why'][1:]}."]
    return "\n".join(lines)


SUITE_SUMMARY = Path("results/semantic_suite/summary.csv")
INVENTED_SUITE = Path("results/invented_suite/summary.csv")
SEMANTIC_ABLATION = Path("results/semantic_ablation/ablation.csv")
SEMANTIC_FIRING = Path("results/semantic_firing/rates.csv")


def _csv(path: Path) -> list[dict] | None:
    import csv

    if not path.is_file():
        return None
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _csv_table(source: Path, intro: str, header: str, align: str, row) -> str | None:
    """A Markdown table of a CSV's rows (`row` renders one), after `intro`; None where the CSV is absent."""
    rows = _csv(source)
    if rows is None:
        return None
    return "\n".join([intro, "", header, align, *(row(r) for r in rows)])


def semantic_suite_body(source: Path = SUITE_SUMMARY) -> str | None:
    """Recall per error class and false alarms on its paraphrases (make semantic-suite)."""
    def row(r: dict) -> str:
        named = _f(float(r["class_named"])) if r["class_named"] else ""
        return (f"| {r['class']} | {r['errors']} | {_f(float(r['recall']))} | {named} | {r['paraphrases']} | "
                f"{r['false_alarms']} ({float(r['false_alarm_rate']):.0%}) |")
    return _csv_table(source, f"From `{source}`:",
                      "| class | planted errors | recall | class named | paraphrases | false alarms |",
                      "|---|--:|--:|--:|--:|--:|", row)


def semantic_firing_body(source: Path = SEMANTIC_FIRING) -> str | None:
    """How often the conflict rule fires on real answers, faithful and erroneous (make semantic-firing)."""
    def row(r: dict) -> str:
        return (f"| {r['corpus']} | {r['answers']} | {r['n']} | {r['any_signal']} | {r['confident']} | "
                f"{float(r['confident_rate']):.1%} |")
    return _csv_table(source, f"From `{source}` (answers with any semantic signal, and with a confident one: the "
                      "conflict rule's flags; every corpus is design data of the rule):",
                      "| corpus | answers | n | any signal | confident (rule) | rate |", "|---|---|--:|--:|--:|--:|", row)


def invented_suite_body(source: Path = INVENTED_SUITE) -> str | None:
    """Planted errors caught and paraphrases flagged by `detect`, conflict rule off and on."""
    def row(r: dict) -> str:
        caught = ("", "") if r["kind"] != "error" else (r["caught_off"], r["caught_on"])
        return f"| {r['class']} | {r['cases']} | {caught[0]} | {caught[1]} | {r['flagged_off']} | {r['flagged_on']} |"
    return _csv_table(source, f"From `{source}` (the default model; caught: verdict 'hallucinated' with a span on "
                      "the planted words; flagged: the verdict alone):",
                      "| class | cases | caught, `--conflict-rule off` | caught, rule on (default) | flagged, rule off | "
                      "flagged, rule on |", "|---|--:|--:|--:|--:|--:|", row)


def semantic_ablation_body(source: Path = SEMANTIC_ABLATION) -> str | None:
    """The default model's recipe with and without the semantic family: one row per benchmark and
    detector ('without -> with'; a benchmark of several domains as the mean over them, each scored at
    its own threshold), then the rows of other variants and of `--runs`, as measured."""
    rows = _csv(source)
    if rows is None:
        return None
    metrics = ("balanced_accuracy", "roc_auc", "response_f1", "span_f1")
    paired = [r for r in rows if r["variant"] in ("without", "with") and ", fitted on" not in r["benchmark"]]
    groups: dict[tuple[str, str], dict[str, dict[str, list[float]]]] = {}
    domains: dict[str, set[str]] = {}
    for r in paired:
        bench, _, domain = r["benchmark"].partition(":")
        domains.setdefault(bench, set()).add(domain)
        cell = groups.setdefault((bench, r["detector"]), {}).setdefault(r["variant"], {})
        for m in metrics:
            if r.get(m):
                cell.setdefault(m, []).append(float(r[m]))
    lines = [f"From `{source}`. The default model's recipe fitted without the family (`without`: audit corpus, "
             "groups lexical / retrieval / mismatch) and as it is (`with`); a benchmark of several domains as "
             "the mean over them, each scored at a threshold chosen on its own `evaluation` split:", "",
             "| benchmark | detector | balanced accuracy | ROC-AUC | answer F1 | span F1 |", "|---|---|--:|--:|--:|--:|"]
    for (bench, det), by in groups.items():
        n = len(domains[bench] - {""})
        name = f"{bench} (mean of {n} domains)" if n > 1 else bench
        cells = []
        for m in metrics:
            pair = [sum(by.get(v, {}).get(m, [])) / len(by[v][m]) if by.get(v, {}).get(m) else None
                    for v in ("without", "with")]
            cells.append("" if None in pair else f"{_f(pair[0])} → {_f(pair[1])}")
        lines.append(f"| {name} | {det} | " + " | ".join(cells) + " |")
    rest = [r for r in rows if r not in paired]
    if rest:
        lines += ["", "Other variants, and benchmark configs run without and with their new feature groups "
                  "(`NAME, mean of N, fitted on ...`, `--runs`), as measured (see the commits above): "
                  "`planted_N` = audit + N planted passages with the family; `semantic_only` = the family, "
                  "audit only; `planted_only` = planted passages without the family.", "",
                  "| benchmark | variant | detector | balanced accuracy | ROC-AUC | answer F1 | span F1 |",
                  "|---|---|---|--:|--:|--:|--:|"]
        for r in rest:
            cells = [_f(float(r[k])) if r.get(k) else "" for k in metrics]
            lines.append(f"| {r['benchmark']} | {r['variant']} | {r['detector']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


CLIFF_SELECT = Path("results/cliff_select/summary.csv")


def val_select_body(source: Path = CLIFF_SELECT) -> str | None:
    """Every candidate design's mean val balanced accuracy per evaluation and detector (valselect)."""
    rows = _csv(source)
    if rows is None:
        return None
    methods = list(dict.fromkeys(r["method"] for r in rows))
    cells: dict[tuple[str, str], dict[str, str]] = {}
    for r in rows:
        mark = "**" if r["chosen"] == "True" else ""
        cells.setdefault((r["candidate"], r["evaluation"]), {})[r["method"]] = \
            f"{mark}{_f(float(r['balanced_accuracy']))}{mark}"
    chosen = next(r for r in rows if r["chosen"] == "True")
    lines = [f"From `{source}` (mean summary balanced accuracy of the held-out halves of the `val` cut, "
             f"{chosen['scores']} per cell; in bold the row the rule chose: {chosen['candidate']}, "
             f"{chosen['method']}, {chosen['evaluation']}, sd {_f(chosen['sd'] or None)}):", "",
             "| candidate | evaluation | " + " | ".join(methods) + " |", "|---|---|" + "--:|" * len(methods)]
    for (candidate, evaluation), by_method in cells.items():
        lines.append(f"| {candidate} | {evaluation} | " + " | ".join(by_method.get(m, "") for m in methods) + " |")
    return "\n".join(lines)


CHECKER_GPU_COMPARE = Path("results/checker_gpu_compare/summary.csv")


def checker_gpu_body(source: Path = CHECKER_GPU_COMPARE) -> str | None:
    """Each config run with the CPU and the GPU checker (`report.checker_compare`): the rows that
    read the checker and the primary detector, per evaluation (subset means where scored per subset)."""
    rows = _csv(source)
    if rows is None:
        return None
    metrics = {"response balanced_accuracy": "answer BA", "response f1": "answer F1", "span f1": "span F1"}
    cells: dict[tuple[str, str, str], dict[str, str]] = {}
    for r in rows:
        if r["metric"] in metrics:
            key = (r["benchmark"], r["evaluation"], r["method"] + (" (primary)" if r["role"].startswith("primary") else ""))
            cells.setdefault(key, {})[r["metric"]] = f"{_f(float(r['base']))} / {_f(float(r['other']))}"
    base = ", ".join(sorted({f"{r['benchmark']} {r['base_commit']}" for r in rows}))
    lines = [f"From `{source}` (each cell: CPU checker `results/checker` / GPU checker `results/checker_gpu`; "
             f"CPU-checker runs at commits {base}):", "",
             "| benchmark | evaluation | detector | " + " | ".join(metrics.values()) + " |",
             "|---|---|---|" + "--:|" * len(metrics)]
    for (bench, evaluation, method), by_metric in cells.items():
        lines.append(f"| {bench} | {evaluation} | {method} | " + " | ".join(by_metric.get(m, "") for m in metrics) + " |")
    return "\n".join(lines)


def pending_body(name: str) -> str:
    """The body of a block whose source has not been built in this checkout."""
    return (f"Not generated in this checkout: its source, {SOURCES[name]}, has not been built here. "
            f"Run that target, then `make readme`.")


def source_label(name: str) -> str:
    """What a block's provenance line says: its source and the commit that source was measured on."""
    card = {"default-model": DEFAULT_MODEL_DIR / "card.json", "checker": CHECKER_DIR / "card.json",
            "calibrate": CALIBRATE_DIR / "calibration.json"}.get(name)
    sidecar = {"semantic-suite": SUITE_SUMMARY, "semantic-ablation": SEMANTIC_ABLATION, "semantic-firing": SEMANTIC_FIRING,
               "invented-suite": INVENTED_SUITE, "val-select": CLIFF_SELECT,
               "checker-gpu": CHECKER_GPU_COMPARE}.get(name)
    if sidecar is not None:
        marker = sidecar.parent / "commit.txt"
        commit = marker.read_text("utf-8").strip() if marker.is_file() else None
        return f"{SOURCES[name]}, measured at commit {commit or 'not recorded'}"
    if card is None:
        return SOURCES[name]
    commit = (_read(card) or {}).get("commit")
    return f"{SOURCES[name]}, measured at commit {commit or 'not recorded'}"


RENDERERS = {"commands": commands_body, "default-model": default_model_body, "checker": checker_body,
             "calibrate": calibrate_body, "semantic-suite": semantic_suite_body,
             "semantic-ablation": semantic_ablation_body, "semantic-firing": semantic_firing_body,
             "invented-suite": invented_suite_body,
             "val-select": val_select_body, "checker-gpu": checker_gpu_body}
SOURCES = {"commands": "the CLI parser (evidencechain/cli_parser.py, evidencechain/cli_help.toml)",
           "default-model": f"{DEFAULT_MODEL_DIR}/ (make default-model)",
           "checker": f"{CHECKER_DIR}/card.json (make checker)",
           "calibrate": f"{CALIBRATE_DIR}/calibration.json and {CALIBRATE_ANSWER_DIR}/calibration.json "
                        "(make calibrate-ragtruth-qa)",
           "semantic-suite": f"{SUITE_SUMMARY} (make semantic-suite)",
           "semantic-ablation": f"{SEMANTIC_ABLATION} (python -m evidencechain.detect.semantic_ablation)",
           "semantic-firing": f"{SEMANTIC_FIRING} (make semantic-firing)",
           "invented-suite": f"{INVENTED_SUITE} (make invented-suite)",
           "val-select": f"{CLIFF_SELECT} (python -m evidencechain.valselect)",
           "checker-gpu": f"{CHECKER_GPU_COMPARE} (make benchmarks-checker-gpu)"}
