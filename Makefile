PYTHON ?= python3
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin
UV := $(BIN)/uv
STAMP := $(VENV)/.stamp
RUN_STAMP := $(VENV)/.stamp-run

# Three locks, all hash-checked: requirements.lock (everything: the platform, the tests, the
# linters), requirements-run.lock (the platform's share of it, pin for pin: all `make run`
# needs) and requirements-uv.lock (the installer). `make lock` keeps existing pins;
# `make lock LOCK_ARGS=--upgrade` moves them forward.
LOCK_ARGS ?=
UV_VERSION := 0.13.9
PIP_COMPILE := $(BIN)/pip-compile --quiet --strip-extras --generate-hashes \
	--allow-unsafe --no-emit-index-url --no-emit-find-links
UV_PIP := UV_LINK_MODE=copy $(UV) pip install --python $(BIN)/python
# uv's summary lines stay; its line per package installed goes.
QUIET_LIST := 2>&1 | { grep -v '^ [-+] ' || true; }

MYPY_TARGETS = engine sandbox agon_bot platform/agon platform/agon_kit platform/competition manage.py tests

.PHONY: venv venv-run run test lint lock bench kit clean prepare-run prepare-test

venv: $(STAMP)
venv-run: $(RUN_STAMP)

# uv installs the locks: it fetches and unpacks in parallel, where pip takes one package
# after the other (from an empty cache, the platform's 56 packages in seconds instead of
# pip's 20 s, and the whole lock's 129 instead of pip's 68 s; bench/README.md).
$(UV): requirements-uv.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes \
		-r requirements-uv.lock
	touch $(UV)

# The compiled core's sources (issue 32): the editable install builds it in place, so a
# changed source means installing again.
NATIVE_SOURCES := $(wildcard engine/*/native/*.c)

# Each stamp is rebuilt only when its lock or the project metadata changed since the last
# install; the whole lock holds the platform's, so installing it satisfies `make run` too.
$(RUN_STAMP): requirements-run.lock pyproject.toml $(NATIVE_SOURCES) | $(UV)
	@echo "Installing the platform's $$(grep -c '==' requirements-run.lock) pinned packages into $(VENV)"
	set -o pipefail; $(UV_PIP) --require-hashes -r requirements-run.lock $(QUIET_LIST)
	$(UV_PIP) --quiet --no-deps --no-build-isolation -e .
	touch $(RUN_STAMP)

$(STAMP): requirements.lock pyproject.toml $(NATIVE_SOURCES) | $(UV)
	@echo "Installing all $$(grep -c '==' requirements.lock) pinned packages into $(VENV)"
	set -o pipefail; $(UV_PIP) --require-hashes -r requirements.lock $(QUIET_LIST)
	$(UV_PIP) --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP) $(RUN_STAMP)

# The Debian packages and services each command needs, installed only when missing.
prepare-run:
	scripts/prepare-machine.sh --for run

prepare-test:
	scripts/prepare-machine.sh --for test

run: prepare-run venv-run
	$(BIN)/agon up

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy $(MYPY_TARGETS)
	$(BIN)/lint-imports

# Every real part the suite needs (backends, Chromium, compose...) is required: missing,
# it fails its tests instead of skipping them (tests/required.py).
test: prepare-test lint
	AGON_TEST_REQUIRE=all $(BIN)/pytest -n auto --dist worksteal --durations=30

# The locks must stay free of registry addresses and machine paths. The platform's lock is
# resolved within the whole one, so both pin the same versions.
lock: venv
	$(PIP_COMPILE) $(LOCK_ARGS) --extra dev --extra envs --build-deps-for editable \
		-o requirements.lock pyproject.toml
	$(PIP_COMPILE) --build-deps-for editable -c requirements.lock \
		-o requirements-run.lock pyproject.toml
	echo "uv==$(UV_VERSION)" | $(PIP_COMPILE) -o requirements-uv.lock -
	@! grep -nE '[a-z+]+://|/opt/|/root/|/home/|/tmp/' requirements*.lock || \
		{ echo "a lock contains a URL or a local path" >&2; exit 1; }

bench: venv
	$(BIN)/python bench/engine.py

# The bot kit: a wheel of whole packages, agon_bot, the engine, the sandbox and agon_kit
# (`agon-kit`: play, view, replay, match, submit...), that installs with no other package
# (`pip install dist/agon_kit-*.whl`), and its sdist, which builds Akropolis' compiled
# core at install where a C compiler is (`pip install dist/agon_kit-*.tar.gz`); the site
# serves both.
kit: venv
	$(BIN)/python -m agon.kit_wheel dist

clean:
	rm -rf $(VENV) build dist *.egg-info .mypy_cache .ruff_cache .pytest_cache .hypothesis .import_linter_cache
