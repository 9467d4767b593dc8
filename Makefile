# apimap developer commands. `make main` and `make test` work on a fresh machine:
# they create the virtual environments and install everything they need on first use.

VENV ?= .venv
VISION_VENV ?= .venv-vision
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
VISION_STAMP := $(VISION_VENV)/.installed

.PHONY: main test lint pytest fuzz verify bench bench-site bench-verify bench-scan

# Main environment: apimap, the site toolchain, the browser driver, torch 2.13.0 (CPU) and
# paddle 3.3.1. `pip install torch==2.13.0` takes this machine's local CPU wheel.
$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,site,browser,verify]'
	touch $(STAMP)

# torchvision environment: torchvision 0.29.1 needs torch 2.14.1 (see README).
$(VISION_STAMP): pyproject.toml
	python3 -m venv $(VISION_VENV)
	$(VISION_VENV)/bin/python -m pip install -q --upgrade pip
	$(VISION_VENV)/bin/python -m pip install -q -e '.[vision]'
	touch $(VISION_STAMP)

main: $(STAMP)
	$(VENV)/bin/apimap build

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/ruff format --check src
	$(VENV)/bin/mypy

pytest: $(STAMP) $(VISION_STAMP)
	$(VENV)/bin/pytest -q

# The fuzz suite alone (pytest runs it too); APIMAP_FUZZ_SCALE=10 tries ten times as many inputs.
fuzz: $(STAMP)
	$(VENV)/bin/pytest -q tests/fuzz

verify: $(STAMP) $(VISION_STAMP)
	$(VENV)/bin/apimap verify mappings

test: lint pytest verify

bench: $(STAMP)
	$(PY) bench/bench_check.py 2000 5

bench-site: $(STAMP)
	$(PY) bench/bench_site.py 500 2000

bench-verify: $(STAMP) $(VISION_STAMP)
	$(PY) bench/bench_verify.py

bench-scan: $(STAMP)
	$(PY) bench/bench_scan.py transformers==5.23.0 3
