PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/citegraph demo

# One worker per core, each taking whole files; TEST_WORKERS=0 runs the suite in one process.
TEST_WORKERS ?= auto

test: $(VENV)/.dev-installed
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

bench: $(VENV)/.dev-installed
	$(BIN)/python bench/ingest.py

clean:
	rm -rf $(VENV) .citegraph-demo .pytest_cache .mypy_cache .ruff_cache
