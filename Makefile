# tresham — make run (the main job) and make test (the whole suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run serve play test lint unit postgres chromium ruby clean bench-peers soak

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# The main job: the game server (prints its address; the SQLite file's place is in the README).
run: serve

serve: $(STAMP)
	$(BIN)/tresham serve

# A hotseat game of 1849 in the terminal.
play: $(STAMP)
	$(BIN)/tresham play 1849 --players 3

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/ruff format --check src tests benchmarks tools
	$(BIN)/mypy

# The server tests start a PostgreSQL of their own; this installs it when missing (root).
postgres:
	bash tools/ensure_debian_package.sh postgresql "the PostgreSQL server tests" \
		'command -v initdb && command -v pg_ctl || compgen -G "/usr/lib/postgresql/*/bin/initdb"' >/dev/null

# The browser tests drive Debian's Chromium; this installs it when missing (root).
chromium:
	bash tools/ensure_debian_package.sh chromium "the browser tests" \
		'command -v chromium || test -x /usr/bin/chromium' >/dev/null

# The differential tests replay exports in 18xx.games' own engine (../shared/oracle): Ruby.
ruby:
	bash tools/ensure_debian_package.sh ruby "the 18xx.games engine tests" \
		'command -v ruby' >/dev/null

unit: $(STAMP) postgres chromium ruby
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

# The long reliability runs (hours): random games of every title at every player count and
# fuzzed actions, and 1849 games replayed by 18xx.games' engine (SOAK_ORACLE per player count);
# each line printed is a JSON summary. `make test` runs bounded versions.
SOAK_GAMES ?= 10000
SOAK_ACTIONS ?= 100000
SOAK_JOBS ?= 2
SOAK_KILLS ?= 100
SOAK_ORACLE ?= 100
soak: $(STAMP) postgres ruby
	$(BIN)/python tools/soak.py --games $(SOAK_GAMES) --fuzz-actions $(SOAK_ACTIONS) \
		--crash-kills $(SOAK_KILLS) --oracle-games $(SOAK_ORACLE) --jobs $(SOAK_JOBS)

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
