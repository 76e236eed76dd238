# The two commands a new user runs: `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 7110
CLASSIC_PORT ?= 7111
HTTP_PORT ?= 7180
LINT_PATHS := hundred_server tests bench $(wildcard clients)

.PHONY: run test lint format schema screenshots golden bench load load-ai load-targets abuse bench-plugins bench-strong bench-research bench-ismcts clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Stamp files: reinstall only when the package metadata changes, or a module that
# setup.py compiles with mypyc (an editable install imports the built extension, not
# the edited source, until it is rebuilt).
COMPILED := setup.py hundred_server/games/kit/search.py $(wildcard hundred_server/games/*/strong.py)
# pip shows a build's messages only with -v: say which the install gave.
SAY_COMPILED = $(BIN)/python -c "import hundred_server.games.kit.search as m; \
	print('hundred_server: the strong AIs are', 'pure Python (no C compiler, or HUNDRED_PURE=1)' \
	if m.__file__.endswith('.py') else 'compiled (mypyc)')"
$(VENV)/.run-deps: setup.cfg pyproject.toml $(COMPILED) | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	$(SAY_COMPILED)
	touch $@

$(VENV)/.dev-deps: setup.cfg pyproject.toml $(COMPILED) | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test,lint,research]'
	$(SAY_COMPILED)
	touch $@ $(VENV)/.run-deps

# The load benchmarks measure the server as a site would run it: on uvloop and orjson
# (the default install; the fast extra is its old name), with py-spy at hand for --profile.
$(VENV)/.bench-deps: setup.cfg pyproject.toml $(COMPILED) | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[fast,profile]'
	$(SAY_COMPILED)
	touch $@

run: $(VENV)/.run-deps
	$(BIN)/python -m hundred_server serve --host $(HOST) --port $(PORT) --classic-port $(CLASSIC_PORT) --http-port $(HTTP_PORT)

# The real engines the tests start for themselves (PostgreSQL; Chromium for the browser
# tests) are installed from the OS packages when missing.
test: $(VENV)/.dev-deps
	bash scripts/ensure-postgres
	bash scripts/ensure-redis
	bash scripts/ensure-chromium
	$(BIN)/python -m pytest

lint: $(VENV)/.dev-deps
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/ruff format --check $(LINT_PATHS)
	$(BIN)/mypy

format: $(VENV)/.dev-deps
	$(BIN)/ruff format $(LINT_PATHS)
	$(BIN)/ruff check --fix $(LINT_PATHS)

# The golden text-mode transcripts (tests/protocol/golden/GAME.txt), written again after a
# deliberate change of wording: read the diff before committing it.
golden: $(VENV)/.dev-deps
	HUNDRED_UPDATE_GOLDEN=1 $(BIN)/python -m pytest tests/protocol/test_text_voice.py -q

# protocol.schema.json is generated from the message types (hundred_server/protocol/
# messages.py and each game's messages.py); tests/protocol/test_schema.py fails when it is stale.
schema: $(VENV)/.run-deps
	$(BIN)/python -m hundred_server.protocol.messages --write

# A screenshot of each game's table at its first trick, in docs/screenshots/ (checked in):
# Debian's Chromium at 1000x700 against an in-process server (tests/support/screenshots.py).
screenshots: $(VENV)/.dev-deps
	bash scripts/ensure-chromium
	$(BIN)/python -m tests.support.screenshots docs/screenshots

bench: $(VENV)/.dev-deps
	$(BIN)/python bench/selfplay_bench.py

# A real server and 400 bot clients at 100 people-only tables over loopback, with the
# store off and on (alternately, twice each) and the store's cost. Other sizes and
# options: make load CLIENTS=1000 TABLES=250 LOAD_ARGS="--store on --reps 3".
# INSTANCES=2 (or more): one site of that many servers on PostgreSQL and Redis, the
# clients spread over them (installs both engines from the OS packages when missing).
CLIENTS ?= 400
TABLES  ?= 100
LOAD_ARGS ?=
INSTANCES ?= 1
# PACE=0.5: unsaturated, every client answers 0.25-0.75 s after each prompt, runs of 30 s,
# and the figure is the server's CPU an answer (make load PACE=0.5 LOAD_ARGS="--store on").
PACE ?=
load: $(VENV)/.dev-deps $(VENV)/.bench-deps
	$(if $(filter-out 1,$(INSTANCES)),bash scripts/ensure-postgres && bash scripts/ensure-redis)
	$(BIN)/python bench/load.py --clients $(CLIENTS) --tables $(TABLES) --games 1 --instances $(INSTANCES) $(if $(PACE),--pace $(PACE)) $(LOAD_ARGS)

# People against the AI at a person's pace (issue #28): a real server, PEOPLE clients each
# alone at a table against three AI seats, answering 1-3 s after each prompt, every game
# for AI_SECONDS; prints the lobby round trip, answer to next prompt and the CPU of the
# loop and of the AI workers (bench/load_ai.py; docs/scaling.md). Serve options:
# make load-ai LOAD_AI_ARGS="--server-arg=--ai-workers=2 --game whist".
PEOPLE ?= 200
AI_SECONDS ?= 60
LOAD_AI_ARGS ?=
load-ai: $(VENV)/.dev-deps
	$(BIN)/python bench/load_ai.py --people $(PEOPLE) --seconds $(AI_SECONDS) $(LOAD_AI_ARGS)

# Issue #15's per-core targets, store on, median of three: server CPU per answer at
# 400 clients and 100 tables (at most half of what it was), 1,000 clients at 250 tables
# (p99 under 50 ms) and 2,000 at 500 (p99 under 100 ms). With
# BASE=<a checkout> (git worktree add /tmp/base-perf main), its server runs alternately
# with this one, run for run, and a last line gives the ratios.
BASE ?=
load-targets: $(VENV)/.run-deps $(VENV)/.bench-deps
	$(BIN)/python bench/load.py --clients 400 --tables 100 --store on --reps 3 $(if $(BASE),--base $(BASE))
	$(BIN)/python bench/load.py --clients 1000 --tables 250 --store on --reps 3 $(if $(BASE),--base $(BASE))
	$(BIN)/python bench/load.py --clients 2000 --tables 500 --store on --reps 3 $(if $(BASE),--base $(BASE))

# What a careless or hostile client costs a real server: 1000 connect-create-hang-up
# cycles under a lobby probe, then 1 MiB of blank lines at a table (figures and targets).
abuse: $(VENV)/.run-deps
	$(BIN)/python bench/abuse.py --cycles 1000 --timeout 400

# Another connection's lobby round trips while plug-in bots sleep, loop, allocate, raise
# or exit in their workers (target: none over 50 ms).
bench-plugins: $(VENV)/.run-deps
	$(BIN)/python bench/plugins.py

# Each game's strong AI against its naive one, 4 seats: decision time p50/p99/max and
# rollouts a second, against the 50 ms budget (exit 1 if a p99 is over it).
bench-strong: $(VENV)/.run-deps
	for game in hundredandten whist pinochle rook hundert; do \
		$(BIN)/python bench/strong.py --game $$game --seats 4 --games 10 || exit 1; \
	done

# The research environments (docs/research.md): random-legal steps a second of each
# game's PettingZoo environment and OpenSpiel game, beside PettingZoo's connect_four_v3
# and OpenSpiel's bridge, hearts and its own Python games, in one run (medians of
# RESEARCH_REPS rounds). bench-ismcts: OpenSpiel's ISMCTS against our strong AI at
# equal compute, ISMCTS_DEALS duplicate deals a game.
RESEARCH_REPS ?= 5
ISMCTS_DEALS ?= 200
ISMCTS_ARGS ?=
$(VENV)/.research-deps: setup.cfg pyproject.toml $(COMPILED) | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[research,research-bench]'
	$(SAY_COMPILED)
	touch $@

bench-research: $(VENV)/.research-deps
	$(BIN)/python bench/research_bench.py speed --reps $(RESEARCH_REPS)

bench-ismcts: $(VENV)/.research-deps
	$(BIN)/python bench/research_bench.py ismcts --deals $(ISMCTS_DEALS) $(ISMCTS_ARGS)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
