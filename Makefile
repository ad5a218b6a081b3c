# Upabhasha — the two set-up commands are `make demo` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
# The CPU build of torch this machine provides; installed before sentence-transformers
# so no multi-GB CUDA wheel is pulled. GPU users: see README ("GPU").
TORCH_SPEC ?= torch==2.13.0
STAMP := $(VENV)/.installed

.PHONY: venv demo test test-under-load lint gui clean bench installer

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet "$(TORCH_SPEC)"
	$(PIP) install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(PY) -m app.cli demo

# One test worker per core (pytest-xdist); PYTEST_WORKERS=0 runs them in this process.
PYTEST_WORKERS ?= auto
PYTEST := QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -p no:cacheprovider -n $(PYTEST_WORKERS) --dist worksteal

test: $(STAMP) lint
	$(PYTEST)

# The GUI and walkthrough tests beside two CPU-bound processes: no test may depend on timing.
test-under-load: $(STAMP)
	hogs=""; for i in 1 2; do (while :; do :; done) & hogs="$$hogs $$!"; done; \
	trap 'kill $$hogs' EXIT; \
	$(PYTEST) tests/widgets tests/app/test_study_walkthroughs.py

# Layering contracts (.importlinter), lint and format (ruff), types of engine, app and widgets (mypy).
lint: $(STAMP)
	$(VENV)/bin/lint-imports
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

gui: $(STAMP)
	$(VENV)/bin/upabhasha-gui

# Linux artefacts (dist/upabhasha-<version>-linux-x86_64.tar.zst and upabhasha_<version>_amd64.deb)
# from their own clean venv (build/installer-venv: runtime dependencies + PyInstaller, the CPU
# torch first), built inside a Debian 11 root made once and cached (glibc 2.31; needs root),
# + smoke test of the built program; slow, not part of `make test` (.ci/run runs it after the
# tests, with INSTALLER_ARGS=--install-deb). See packaging/README.md.
INSTALLER_ARGS ?=
installer:
	TORCH_SPEC="$(TORCH_SPEC)" $(PYTHON) packaging/build.py $(INSTALLER_ARGS)

bench: $(STAMP)
	for b in bench/*.py; do $(PY) $$b --quick || exit 1; done

clean:
	rm -rf $(VENV) build dist *.egg-info demo-output
