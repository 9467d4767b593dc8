# apimap developer commands. `make main` and `make test` work on a fresh machine:
# they create the virtual environments and install everything they need on first use.

VENV ?= .venv
VISION_VENV ?= .venv-vision
PY := $(VENV)/bin/python
CORE_STAMP := $(VENV)/.installed-core
VERIFY_STAMP := $(VENV)/.installed-verify
VISION_STAMP := $(VISION_VENV)/.installed

.PHONY: main test lint pytest fuzz verify verify-all matrix bench bench-site bench-verify bench-startup bench-scan bench-lines precision

# Main environment, first the part `make main` needs: apimap, the site toolchain, the
# browser driver and the dev tools. No torch, no paddle.
$(CORE_STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,site,browser]'
	touch $(CORE_STAMP)

# Then what verification needs: torch 2.13.0 (CPU; `pip install torch==2.13.0` takes this
# machine's local CPU wheel, so it is installed first and the extra reuses it) and paddle 3.3.1.
$(VERIFY_STAMP): $(CORE_STAMP)
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e '.[verify]'
	touch $(VERIFY_STAMP)

# torchvision environment: torchvision 0.29.1 needs torch 2.14.1 (see README).
$(VISION_STAMP): pyproject.toml
	python3 -m venv $(VISION_VENV)
	$(VISION_VENV)/bin/python -m pip install -q --upgrade pip
	$(VISION_VENV)/bin/python -m pip install -q -e '.[vision]'
	touch $(VISION_STAMP)

# Check every record and build the site; needs neither torch nor paddle.
main: $(CORE_STAMP)
	@start=$$(date +%s); \
	$(VENV)/bin/apimap build && \
	echo "make main: $$(( $$(date +%s) - start )) s"

lint: $(CORE_STAMP)
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/ruff format --check src
	$(VENV)/bin/mypy

pytest: $(VERIFY_STAMP) $(VISION_STAMP)
	$(VENV)/bin/pytest -q

# The fuzz suite alone (pytest runs it too); APIMAP_FUZZ_SCALE=10 tries ten times as many inputs.
fuzz: $(VERIFY_STAMP)
	$(VENV)/bin/pytest -q tests/fuzz

# What a test run verifies, on the pinned releases and the older paddle releases (their
# environments .venv-paddle-<version> are created on first use): every record whose stamp is
# not current (the tests refuse such a record on main, so after a change: the changed ones)
# and one seventh of the corpus, another each day, so that a week of runs covers every record.
verify: $(VERIFY_STAMP) $(VISION_STAMP)
	$(VENV)/bin/apimap verify --matrix --stale --part today/7 mappings

# Every record, without writing stamps.
verify-all: $(VERIFY_STAMP) $(VISION_STAMP)
	$(VENV)/bin/apimap verify --matrix mappings

test: lint pytest verify

# Re-measure and re-stamp every record, the older paddle releases included.
matrix: $(VERIFY_STAMP) $(VISION_STAMP)
	$(VENV)/bin/apimap verify --matrix --update mappings

bench: $(CORE_STAMP)
	$(PY) bench/bench_check.py 2000 5

bench-startup: $(CORE_STAMP)
	$(PY) bench/bench_startup.py

# The site build against its targets, side by side with the last revision whose whole site
# Sphinx built (SITE_BASELINE=REV for another; empty for none).
SITE_BASELINE ?= 1e47e0c8
bench-site: $(CORE_STAMP)
	$(PY) bench/bench_site.py 3000 $(if $(SITE_BASELINE),--baseline $(SITE_BASELINE))

bench-verify: $(VERIFY_STAMP) $(VISION_STAMP)
	$(PY) bench/bench_verify.py

bench-scan: $(CORE_STAMP)
	$(PY) bench/bench_scan.py transformers==5.23.0 3

bench-lines: $(CORE_STAMP)
	$(PY) bench/bench_lines.py

# Validator precision and recall on the legacy pages of the development set (../shared): import,
# check, join with the judged list bench/precision/judged.tsv. See bench/precision/README.md.
PAGES ?= ../shared/legacy-pages-dev
precision: $(CORE_STAMP)
	$(PY) bench/precision/run.py --pages $(PAGES)
