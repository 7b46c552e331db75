# Two commands do everything on a fresh machine:
#   make run    set up .venv and run the bot (needs DISCORD_TOKEN, see README)
#   make test   set up .venv and run the linters and the test suite (in parallel)
# and, for developers, `make test-fast`: the tests but the slow lane, in parallel.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: setup fonts engines postgres run demo test test-fast pytest lint bench clean

# `make run` installs only what the bot uses: Chaupal and mypy (whose mypyc
# compiles the engines, see `engines`).  The test tools, the linters and
# PostgreSQL's server binaries are the test path's (`test`, `pytest`, `lint`).
# Each stamp depends on pyproject.toml: a change to the pinned versions reinstalls.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[compile]'
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	touch $(TEST_STAMP)

# Players' names are drawn in their own scripts (Devanagari, Bengali, Tamil,
# Arabic, Cyrillic...) with the Noto Sans families of Debian's fonts-noto-core
# (SIL Open Font License), which renderers/common/fonts.py finds by path; installed
# here when missing, never downloaded at run time.  Emoji in names are drawn
# with fonts-noto-color-emoji (same licence) where it can be installed; without
# it each emoji is drawn as a plain diamond, so it is not required.
FONT_DIR     := /usr/share/fonts/truetype/noto
FONT_SCRIPTS := Sans SansDevanagari SansBengali SansGurmukhi SansGujarati SansTamil \
                SansTelugu SansKannada SansMalayalam SansArabic SansHebrew
FONT_FILES   := $(foreach s,$(FONT_SCRIPTS),$(FONT_DIR)/Noto$(s)-Regular.ttf)
EMOJI_FILE   := $(FONT_DIR)/NotoColorEmoji.ttf
FONTS_NEEDED := Chaupal draws players' names with the Noto fonts: install Debian's \
                fonts-noto-core as root (apt-get install fonts-noto-core) and run make again.

fonts:
	@for f in $(FONT_FILES); do [ -f "$$f" ] || missing=1; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then \
			echo "$(FONTS_NEEDED)" >&2; exit 1; \
		fi; \
		echo "Installing fonts-noto-core (names in every script)..."; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends fonts-noto-core >/dev/null; } || \
			{ echo "$(FONTS_NEEDED)" >&2; exit 1; }; \
		for f in $(FONT_FILES); do \
			[ -f "$$f" ] || { echo "$(FONTS_NEEDED) ($$f is missing.)" >&2; exit 1; }; \
		done; \
	fi; \
	if [ ! -f "$(EMOJI_FILE)" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "Installing fonts-noto-color-emoji (emoji in names)..."; \
			{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
				--no-install-recommends fonts-noto-color-emoji >/dev/null; } || true; \
		fi; \
		[ -f "$(EMOJI_FILE)" ] || echo "No emoji font (apt-get install" \
			"fonts-noto-color-emoji): emoji in names are drawn as a plain diamond." >&2; \
	fi

setup: $(STAMP) fonts engines

# The storage tests run on SQLite and on PostgreSQL: they start a throwaway
# PostgreSQL server themselves (tests/postgres.py, initdb and pg_ctl in a
# temporary folder) from the server's binaries, Debian's postgresql package,
# installed here when missing and make runs as root.  The bot needs no server
# (SQLite is its default), so only the test path installs them, and only the
# binaries: on Debian the package would also create a cluster ("main") and
# start a server on port 5432 that nothing uses.  A file in
# postgresql-common's createcluster.d (read by the package's postinst, and by
# any later PostgreSQL version's) says create_main_cluster = false, and a
# policy-rc.d refusing every service start (exit 101) stands while apt-get
# runs, unless the machine has its own.  Without root this only warns, and
# the PostgreSQL tests fail, saying what to install.
POSTGRES_NEEDED := The tests need the PostgreSQL server (initdb, postgres, pg_ctl): install \
                   Debian's postgresql package as root (apt-get install postgresql) and run \
                   make again. Until then the PostgreSQL tests fail.
POSTGRES_FOUND  := command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1
NO_CLUSTER_DIR  := /etc/postgresql-common/createcluster.d
NO_CLUSTER_CONF := $(NO_CLUSTER_DIR)/chaupal-binaries-only.conf
POLICY_RC       := /usr/sbin/policy-rc.d

postgres:
	@$(POSTGRES_FOUND) && exit 0; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing PostgreSQL's server binaries (the tests start and stop their own server)..."; \
		mkdir -p $(NO_CLUSTER_DIR); \
		printf '%s\n' "# Chaupal's make test: PostgreSQL's binaries only, no cluster, no server." \
			'create_main_cluster = false' > $(NO_CLUSTER_CONF); \
		if [ ! -e $(POLICY_RC) ]; then \
			trap 'rm -f $(POLICY_RC)' EXIT; trap 'exit 130' INT TERM; \
			printf '#!/bin/sh\nexit 101\n' > $(POLICY_RC) && chmod 755 $(POLICY_RC); \
		fi; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends postgresql >/dev/null; } || true; \
	fi; \
	$(POSTGRES_FOUND) || echo "WARNING: $(POSTGRES_NEEDED)" >&2

# The game engines compiled with mypyc (bot/engines/compiled.py): about a
# minute when an engine changed, nothing otherwise.  mypyc needs a C compiler
# and Python's headers, installed here (Debian's gcc and python3-dev) when
# missing and make runs as root.  Without them the bot runs the pure engines
# (same games, slower searches), and the tests fail until
# CHAUPAL_PURE_ENGINES=1 says that is meant.
engines: $(STAMP)
	@$(BIN)/python -m bot.build_engines --if-stale --check >/dev/null 2>&1 && exit 0; \
	headers=$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["include"])'); \
	if { ! command -v cc >/dev/null 2>&1 || [ ! -f "$$headers/Python.h" ]; } && \
		[ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing a C compiler and Python's headers (to compile the engines)..."; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends gcc libc6-dev python3-dev >/dev/null; } || true; \
	fi; \
	echo "Compiling the game engines with mypyc (about a minute)..."; \
	$(BIN)/python -m bot.build_engines || \
		echo "WARNING: the engines were not compiled; Chaupal will run them as pure Python." >&2

# `python -m bot` keeps its exit status (2: a setting, 3: the database) for
# service managers; here Chaupal's own sentence says what is wrong, so make
# ends quietly after it instead of adding its "Error 2".  Other failures
# (1: Discord unreachable or a crash) still fail the target.
run: setup
	@$(BIN)/python -m bot || { status=$$?; [ $$status -eq 2 ] || [ $$status -eq 3 ] || exit $$status; }

demo: setup
	$(BIN)/python -m bot demo

test: setup lint pytest

# The tests run in parallel (pytest-xdist): TEST_WORKERS processes, each with
# its own throwaway PostgreSQL server when it runs a PostgreSQL test; a worker
# that finishes its share takes tests from the others' (worksteal), as the
# slow tests take minutes and most take milliseconds.  `make pytest
# TEST_WORKERS=0` runs them in one process.  The lanes are markers
# (pyproject.toml, applied by tests/conftest.py): `make test-fast` leaves out
# the slow one (whole games through dispatch, a server's weeks, long
# playouts), `PYTEST_ARGS='-m "engines"'` picks one.
TEST_WORKERS ?= auto
PYTEST_ARGS  ?=
PYTEST       := $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal

pytest: setup $(TEST_STAMP) postgres
	@[ "$$CHAUPAL_TEST_POSTGRES" != 0 ] || \
		echo "WARNING: CHAUPAL_TEST_POSTGRES=0: the PostgreSQL tests are skipped." >&2
	$(PYTEST) $(PYTEST_ARGS)

test-fast: setup $(TEST_STAMP) postgres
	$(PYTEST) -m "not slow" $(PYTEST_ARGS)

# ruff, mypy, and the layers as import-linter contracts ([tool.importlinter] in
# pyproject.toml; --no-cache: the graph takes a second, and no cache folder is left).
lint: setup $(TEST_STAMP)
	$(BIN)/ruff check bot renderers storage tests
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache --no-logo

# Quick by default (about half a minute); `make bench BENCH_ARGS=--full` for
# the full run (several minutes).  Progress on stderr, JSON on stdout.
BENCH_ARGS ?=
bench: setup
	$(BIN)/python -m bot.bench $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .compiled .pytest_cache .mypy_cache .ruff_cache demo-output
