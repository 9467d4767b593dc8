# apimap developer commands. `make main` and `make test` work on a fresh machine:
# they create the virtual environments and install everything they need on first use.

VENV ?= .venv
VISION_VENV ?= .venv-vision
PY := $(VENV)/bin/python
CORE_STAMP := $(VENV)/.installed-core
VERIFY_STAMP := $(VENV)/.installed-verify
VISION_STAMP := $(VISION_VENV)/.installed
# Every environment installs from its lock in locks/ (exact versions and file hashes, written
# by `make lock`): first pip and setuptools (tools.txt), then the environment's lock in
# hash-checking mode, then apimap itself (editable, built with the locked setuptools). A
# stamp is older than its lock after a lock change, and the environment is made anew.
TOOLS_LOCK := locks/tools.txt
MAIN_LOCK := locks/main.txt
VERIFY_LOCK := locks/verify.txt
VISION_LOCK := locks/vision.txt
LOCKED_STAMP := $(VENV)/.installed-locked
VISION_LOCKED_STAMP := $(VISION_VENV)/.installed-locked
PIP_LOCKED := -m pip install -q --require-hashes --no-build-isolation -r
PIP_APIMAP := -m pip install -q --no-deps --no-build-isolation -e .

.PHONY: main test lint pytest fuzz verify verify-all matrix lock bench bench-site bench-verify bench-startup bench-scan bench-lines bench-install precision

# Main environment, first the part `make main` needs: apimap, the site toolchain, the
# browser driver and the dev tools. No torch, no paddle. It is made anew when verify.txt
# changes too: the verification layer goes on top of it, and a package verify.txt no longer
# names must go as well.
$(LOCKED_STAMP): $(TOOLS_LOCK) $(MAIN_LOCK) $(VERIFY_LOCK)
	python3 -m venv --clear $(VENV)
	$(PY) $(PIP_LOCKED) $(TOOLS_LOCK)
	$(PY) $(PIP_LOCKED) $(MAIN_LOCK)
	touch $(LOCKED_STAMP)

$(CORE_STAMP): $(LOCKED_STAMP) pyproject.toml
	$(PY) $(PIP_APIMAP)
	touch $(CORE_STAMP)

# Then what verification needs: torch 2.13.0+cpu, the CPU build (this machine's local file;
# hosted CI adds PyTorch's CPU index), and paddle 3.3.1.
$(VERIFY_STAMP): $(CORE_STAMP) $(VERIFY_LOCK)
	$(PY) $(PIP_LOCKED) $(VERIFY_LOCK)
	touch $(VERIFY_STAMP)

# torchvision environment: torchvision 0.29.1 needs torch 2.14.1 (see README).
$(VISION_LOCKED_STAMP): $(TOOLS_LOCK) $(VISION_LOCK)
	python3 -m venv --clear $(VISION_VENV)
	$(VISION_VENV)/bin/python $(PIP_LOCKED) $(TOOLS_LOCK)
	$(VISION_VENV)/bin/python $(PIP_LOCKED) $(VISION_LOCK)
	touch $(VISION_LOCKED_STAMP)

$(VISION_STAMP): $(VISION_LOCKED_STAMP) pyproject.toml
	$(VISION_VENV)/bin/python $(PIP_APIMAP)
	touch $(VISION_STAMP)

# Regenerate every lock from pyproject.toml's ranges and src/apimap/record/pins.py (the newest versions
# they allow; the older paddle releases' locks included). Review `git diff locks/`, run
# `make test` (it reinstalls from the new locks) and commit them.
lock: $(CORE_STAMP)
	$(PY) -m apimap.contrib.lockgen

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

# Fresh installs of the main environment from the ranges and from the locks, side by side, and
# whether two lock installs hold the same files.
bench-install: $(CORE_STAMP)
	$(PY) bench/bench_install.py 2

# Validator precision and recall on the legacy pages of the development set (../shared): import
# (running the pages' examples: torch and paddle), check, join with the judged list
# bench/precision/judged.tsv. See bench/precision/README.md.
PAGES ?= ../shared/legacy-pages-dev
precision: $(VERIFY_STAMP) $(VISION_STAMP)
	$(PY) bench/precision/run.py --pages $(PAGES)
