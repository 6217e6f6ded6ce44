PYTHON ?= python3
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.stamp

# `make lock` keeps existing pins; `make lock LOCK_ARGS=--upgrade` moves them forward.
LOCK_ARGS ?=
PIP_COMPILE := $(BIN)/pip-compile --quiet --extra dev --strip-extras --generate-hashes \
	--allow-unsafe --build-deps-for editable --no-emit-index-url --no-emit-find-links

MYPY_TARGETS = engine sandbox agon_bot platform/agon manage.py tests

.PHONY: venv run test lint lock bench kit clean prepare-run prepare-test

venv: $(STAMP)

# Rebuilt only when the lock or the project metadata changed since the last install.
# pip's output goes to $(VENV)/pip.log; a progress line shows instead (the first install
# takes a couple of minutes).
$(STAMP): requirements.lock pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "Installing the pinned Python packages into $(VENV) (log: $(VENV)/pip.log)"
	@set -o pipefail; $(BIN)/python -m pip install --progress-bar off --require-hashes \
		-r requirements.lock 2>&1 | $(PYTHON) scripts/pip_progress.py \
		--total "$$(grep -c '==' requirements.lock)" --log $(VENV)/pip.log
	@$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e . \
		>>$(VENV)/pip.log 2>&1 || { cat $(VENV)/pip.log; exit 1; }
	touch $(STAMP)

# The Debian packages and services each command needs, installed only when missing.
prepare-run:
	scripts/prepare-machine.sh --for run

prepare-test:
	scripts/prepare-machine.sh --for test

run: prepare-run venv
	$(BIN)/agon up

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy $(MYPY_TARGETS)
	$(BIN)/lint-imports

# Every real part the suite needs (backends, Chromium, compose...) is required: missing,
# it fails its tests instead of skipping them (tests/required.py).
test: prepare-test lint
	AGON_TEST_REQUIRE=all $(BIN)/pytest -n auto

# The lock must stay free of registry addresses and machine paths.
lock: venv
	$(PIP_COMPILE) $(LOCK_ARGS) -o requirements.lock pyproject.toml
	@! grep -nE '[a-z+]+://|/opt/|/root/|/home/|/tmp/' requirements.lock || \
		{ echo "requirements.lock contains a URL or a local path" >&2; exit 1; }

bench: venv
	$(BIN)/python bench/engine.py

# The bot kit: a wheel of agon_bot, the engine and `agon-kit` (play, view, replay) that
# installs with no other package (`pip install dist/agon_kit-*.whl`); the site serves it too.
kit: venv
	$(BIN)/python -m agon.kit_wheel dist

clean:
	rm -rf $(VENV) build dist *.egg-info .mypy_cache .ruff_cache .pytest_cache .hypothesis .import_linter_cache
