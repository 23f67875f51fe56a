# Coup by email — everyday commands. Needs GNU make and Python >= 3.12.
#   make run    start the site on http://localhost:8000 and the Celery workers (SQLite, no Redis;
#               emails at http://localhost:8000/mailbox/, as it prints); `make run PORT=8001`
#               serves on another port, e.g. a second server beside the first
#   make test   run the test suite in three processes (PostgreSQL + Redis on localhost by default;
#               installs Debian's chromium for the browser tests when missing, and fetches
#               axe-core, their accessibility checker, from the npm registry (Python only);
#               TEST_WORKERS=0 runs it in one process)
#   make test-fast  the rules engine, the game kinds and the scenario files only: no
#               database, Redis, worker or browser (under a minute)
#   make check  the linter, the formatter's check, the type checker and Django's system checks
#   make bench  time the rules engine, the dashboard, replies read through IMAP, the leaderboard
#               and the site under load (a scratch database and the empty Redis database
#               BENCH_REDIS_URL, default redis://127.0.0.1:6379/14; the load run takes about 3 minutes)

SHELL := /bin/bash
VENV := .venv
VENV_PY := $(VENV)/bin/python

# The first interpreter that really runs and is >= 3.12 (a pyenv shim may exist but fail).
PYTHON_CANDIDATES := python3.13 python3.12 $(wildcard /root/.pyenv/versions/3.13*/bin/python) $(wildcard /root/.pyenv/versions/3.12*/bin/python) python3
ifndef PYTHON
PYTHON := $(shell for p in $(PYTHON_CANDIDATES); do \
	if "$$p" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then echo "$$p"; break; fi; done)
endif

# The site's settings keep DEBUG off unless told otherwise (a forgotten variable must
# not make a production server a development one): the commands for a developer's
# machine turn it on, unless DEBUG is already set in the environment.
DEV := DEBUG="$${DEBUG-1}"

PYTEST_ARGS ?=
# pytest-xdist processes for `make test` (0: none, everything in one process). Each has
# its own test database, Redis database (REDIS_URL's + its number), SMTP server and
# Celery workers (tests/conftest.py); worksteal evens out the uneven test lengths.
# Three on two cores: a good part of the run waits on browsers, workers and servers.
TEST_WORKERS ?= 3
FAST_TESTS := tests/engine tests/kinds

# The browser tests (tests/e2e) drive Debian's chromium through Playwright; Playwright's
# own browser download is never used. Installed through apt only when missing.
CHROMIUM := /usr/bin/chromium
CHROMIUM_APT_PACKAGES := chromium fonts-dejavu-core
# The IMAP tests' server (tests/dovecot.py), likewise.
DOVECOT := /usr/sbin/dovecot
DOVECOT_APT_PACKAGES := dovecot-imapd

.PHONY: help run test test-fast bench check messages clean chromium dovecot axe

help:
	@sed -n 's/^#   //p' Makefile

# Created only when missing; the install stamps below follow pyproject.toml.
$(VENV_PY):
	@if [ -z "$(PYTHON)" ]; then \
		echo "error: Python >= 3.12 not found (tried: $(PYTHON_CANDIDATES))." >&2; \
		echo "Install Python 3.12 or 3.13, or run: make PYTHON=/path/to/python3.13 ..." >&2; \
		exit 1; fi
	"$(PYTHON)" -m venv $(VENV)
	$(VENV_PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(VENV_PY)
	$(VENV_PY) -m pip install --quiet -e .
	@touch $@

$(VENV)/.installed-dev: pyproject.toml | $(VENV_PY)
	$(VENV_PY) -m pip install --quiet -e '.[dev]'
	@touch $@ $(VENV)/.installed

# Installs the Debian packages $(2) when the program $(1) is missing, for $(3).
# Root runs apt-get itself; anyone else needs password-less sudo.
define apt-install
	@if [ ! -x "$(1)" ]; then \
		echo "Installing $(3): apt-get install $(2)"; \
		if ! command -v apt-get >/dev/null 2>&1; then \
			echo "error: $(1) is missing and apt-get is not available; install $(2) there." >&2; exit 1; fi; \
		if [ "$$(id -u)" -eq 0 ]; then sudo=; \
		elif command -v sudo >/dev/null 2>&1; then sudo="sudo -n"; \
		else echo "error: installing $(2) needs root or sudo." >&2; exit 1; fi; \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq || \
			echo "warning: apt-get update reported errors (an unreachable extra source?); installing anyway" >&2; \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			-o Dpkg::Use-Pty=0 $(2) >/dev/null && \
		"$(1)" --version; \
	fi
endef

chromium:
	$(call apt-install,$(CHROMIUM),$(CHROMIUM_APT_PACKAGES),Debian's chromium for the browser tests)

# The IMAP tests start their own Dovecot (tests/dovecot.py), never the system's service.
dovecot:
	$(call apt-install,$(DOVECOT),$(DOVECOT_APT_PACKAGES),Debian's Dovecot for the IMAP tests)

# axe-core for the browser tests' accessibility checks: the pinned version's tarball from
# registry.npmjs.org, checked against its integrity hash (tests/e2e/axe.py), with Python
# alone, as node and npm may be missing; kept under var/ once fetched.
axe: | $(VENV_PY)
	@$(VENV_PY) -m tests.e2e.axe >/dev/null

# The web server and, beside it, two Celery workers as in production: one for the
# deadline queue alone (ETA tasks and the minute sweep), one with beat for the rest
# (emails, reminders, the daily digest, the outbox relay). Without REDIS_URL their
# broker is the folder var/broker/. With IMAP_URL set, the reader of replies from that
# mailbox runs beside them (README, "A site on a plain mailbox"). Ctrl-C (or any one
# exiting) stops them all.
CELERY_WORKER := $(VENV)/bin/celery -A coupsite worker --pool=solo -l info --without-gossip --without-mingle
# The port `make run` serves on; the links in emails (SITE_URL) follow it unless SITE_URL is set.
PORT ?= 8000
run: $(VENV)/.installed
	$(DEV) $(VENV_PY) manage.py migrate --noinput
	@mkdir -p var
	@export $(DEV) SITE_URL="$${SITE_URL-http://localhost:$(PORT)}"; \
	echo "The site: http://localhost:$(PORT)/"; $(VENV_PY) manage.py where_mail; \
	pids=; trap 'kill $$pids 2>/dev/null; wait' EXIT; trap 'exit 130' INT; trap 'exit 143' TERM; \
	$(CELERY_WORKER) -Q deadlines -n deadlines@%h & pids=$$!; \
	$(CELERY_WORKER) -Q celery -n default@%h --beat --schedule var/celerybeat-schedule & pids="$$pids $$!"; \
	$(VENV_PY) manage.py runserver 127.0.0.1:$(PORT) & pids="$$pids $$!"; \
	if [ -n "$$IMAP_URL" ]; then $(VENV_PY) manage.py read_mail --imap --watch & pids="$$pids $$!"; fi; \
	wait -n

# DEBUG, DATABASE_URL and REDIS_URL default as tests/settings.py says; from the
# environment they win, even when set to empty.
# PYTEST_STATUS_FILE (used by .ci/run) receives pytest's own exit status.
test: chromium dovecot axe $(VENV)/.installed-dev
	@$(VENV)/bin/pytest -n $(TEST_WORKERS) --dist worksteal $(PYTEST_ARGS); status=$$?; \
	if [ -n "$(PYTEST_STATUS_FILE)" ]; then echo $$status > "$(PYTEST_STATUS_FILE)"; fi; \
	exit $$status

# No DATABASE_URL or REDIS_URL: these tests touch neither (pytest-django refuses any
# database access from a test that did not ask for it).
test-fast: $(VENV)/.installed-dev
	@DATABASE_URL= REDIS_URL= $(VENV)/bin/pytest -n $(TEST_WORKERS) $(FAST_TESTS) $(PYTEST_ARGS)

$(VENV)/.installed-bench: pyproject.toml | $(VENV_PY)
	$(VENV_PY) -m pip install --quiet -e '.[bench]'
	@touch $@

bench: dovecot $(VENV)/.installed $(VENV)/.installed-bench
	$(VENV_PY) -m games.engine.bench --players 4 --games 2000 --replay
	$(VENV_PY) benchmarks/engine_vs_coupml.py --players 4 --games 3000 --rounds 3
	@# The dashboard benchmark needs a scratch PostgreSQL database; everything it makes is rolled back.
	@[ -n "$$DATABASE_URL" ] || createdb -h 127.0.0.1 -U postgres coup_bench 2>/dev/null || true
	$(DEV) DATABASE_URL="$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/coup_bench}" $(VENV_PY) benchmarks/dashboard.py --migrate
	$(DEV) DATABASE_URL="$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/coup_bench}" $(VENV_PY) benchmarks/bounces.py --migrate
	@# Replies read through IMAP from a throwaway Dovecot, into the same scratch database.
	$(DEV) DATABASE_URL="$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/coup_bench}" $(VENV_PY) benchmarks/imap.py --migrate
	$(DEV) DATABASE_URL="$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/coup_bench}" $(VENV_PY) benchmarks/holidays.py --migrate
	$(DEV) DATABASE_URL="$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/coup_bench}" $(VENV_PY) benchmarks/leaderboard.py --migrate
	$(DEV) DATABASE_URL="$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/coup_bench}" $(VENV_PY) benchmarks/lobby.py --migrate
	@# The load benchmark makes (and drops) its own database and gunicorn; see its docstring.
	$(VENV_PY) benchmarks/load.py
	@# The backup benchmark makes (and drops) two scratch databases of its own.
	$(VENV_PY) benchmarks/backup.py

check: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	DEBUG=1 $(VENV)/bin/mypy
	$(DEV) $(VENV_PY) manage.py check

# Refresh the .po catalogs from the code and templates, then compile them.
messages: $(VENV)/.installed
	$(DEV) $(VENV_PY) manage.py makemessages --no-obsolete -l es -l pt_BR --ignore '$(VENV)/*' --ignore 'tests/*' --ignore 'benchmarks/*' --ignore 'var/*'
	$(DEV) $(VENV_PY) manage.py compilemessages --ignore '$(VENV)/*'

clean:
	rm -rf $(VENV) *.egg-info
	find . -name __pycache__ -type d -prune -not -path './$(VENV)/*' -exec rm -rf {} +
