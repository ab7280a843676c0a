# tresham — make run (the main job) and make test (the whole suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint unit clean bench-peers

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/tresham play 1849 --players 3

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/ruff format --check src tests benchmarks tools
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -n 2

test: lint unit

# routes-18xx (PyPI, MIT) in a venv of its own, only for benchmarks/routes_peers.py.
PEERS := .venv-peers
PEERS_STAMP := $(PEERS)/.installed

$(PEERS_STAMP):
	$(PYTHON) -m venv $(PEERS)
	$(PEERS)/bin/python -m pip install --quiet 'routes-18xx==0.9.2'
	touch $(PEERS_STAMP)

bench-peers: $(STAMP) $(PEERS_STAMP)
	$(BIN)/python benchmarks/routes_peers.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
