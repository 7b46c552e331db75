# Two commands do everything on a fresh machine:
#   make run    set up .venv and run the bot (needs DISCORD_TOKEN, see README)
#   make test   set up .venv and run the linters and the test suite
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup run demo test pytest lint bench clean

# Depends on pyproject.toml: a change to the pinned versions reinstalls.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

setup: $(STAMP)

run: setup
	$(BIN)/python -m bot

demo: setup
	$(BIN)/python -m bot demo

test: setup lint pytest

pytest: setup
	$(BIN)/python -m pytest

lint: setup
	$(BIN)/ruff check bot renderers storage tests
	$(BIN)/mypy

# Quick by default (about half a minute); `make bench BENCH_ARGS=--full` for
# the full run (several minutes).  Progress on stderr, JSON on stdout.
BENCH_ARGS ?=
bench: setup
	$(BIN)/python -m bot.bench $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache demo-output
