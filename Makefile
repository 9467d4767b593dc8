# apimap developer commands. `make main` and `make test` work on a fresh machine:
# they create .venv and install everything they need on first use.

VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: main test lint bench

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

main: $(STAMP)
	$(VENV)/bin/apimap check mappings

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/ruff format --check src
	$(VENV)/bin/mypy

test: lint
	$(VENV)/bin/pytest -q

bench: $(STAMP)
	$(PY) bench/bench_check.py 2000 5
