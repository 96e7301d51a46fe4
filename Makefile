# Indulgence Online. The two commands a newcomer needs:
#   make run    set up everything and serve the site with bots on http://127.0.0.1:8000
#   make test   set up everything and run the whole test suite
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# Links in notifications (emails, webhooks) point here; follows PORT unless set.
SITE_URL ?= http://$(HOST):$(PORT)

.PHONY: run test coverage venv dev-venv lint format typecheck bench bench-bots lock clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The stamp files re-install only when the lock files change.
$(VENV)/.runtime-installed: requirements.lock | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.lock
	touch $@

$(VENV)/.dev-installed: requirements-dev.lock clients/python/pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.lock
	$(BIN)/pip install --quiet --no-deps -e clients/python
	touch $@ $(VENV)/.runtime-installed $(VENV)/.client-installed

# The Python bot client (clients/python, with httpx at the versions of the dev lock), so
# that the bot quick start (docs/bots.md) works right after `make run`.
$(VENV)/.client-installed: clients/python/pyproject.toml requirements-dev.lock | $(VENV)/.runtime-installed
	$(BIN)/pip install --quiet -c requirements-dev.lock -e clients/python
	touch $@

venv: $(VENV)/.runtime-installed
dev-venv: $(VENV)/.dev-installed

run: venv $(VENV)/.client-installed
	$(BIN)/python manage.py migrate --no-input -v 0
	$(BIN)/python manage.py compile_translations -v 0
	$(BIN)/python manage.py bootstrap_demo
	@echo "Indulgence Online is starting on http://$(HOST):$(PORT)/  (Ctrl-C stops it)"
	@echo "Emails (address confirmations, password resets, your turn) are printed below, in this terminal."
	@echo "Links in notifications point to $(SITE_URL)/"
	@# No Celery beat without Redis: the deadline sweeper runs beside the server.
	SITE_URL=$(SITE_URL) $(BIN)/python manage.py sweep_deadlines --loop & sweeper=$$!; \
	  trap 'kill $$sweeper 2>/dev/null' EXIT INT TERM; \
	  SITE_URL=$(SITE_URL) $(BIN)/python manage.py runserver $(HOST):$(PORT)

# The suite runs in parallel processes (pytest-xdist), whole test files to a process: each
# process has its own test database, Celery queue and live-event channels (tests/settings.py).
# TEST_WORKERS=0 runs it in this one process.
TEST_WORKERS ?= 2
test: dev-venv
	$(BIN)/python manage.py compile_translations -v 0
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# The same suite with line and branch coverage of engine, games and indulgence_site.
coverage: dev-venv
	$(BIN)/python manage.py compile_translations -v 0
	$(BIN)/python -m pytest --cov=engine --cov=games --cov=indulgence_site \
	  --cov-report=term:skip-covered $(PYTEST_ARGS)

lint: dev-venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: dev-venv
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

typecheck: dev-venv
	$(BIN)/mypy engine games indulgence_site
	$(BIN)/mypy --strict --ignore-missing-imports clients/python/indulgence_client examples/bots

# The optional bench extra of pyproject.toml (open_spiel, pinned there) for the
# OpenSpiel oh_hell comparison; re-installed when pyproject.toml changes.
$(VENV)/.bench-installed: pyproject.toml | $(VENV)/.dev-installed
	$(BIN)/pip install --quiet $$($(BIN)/python -c "import tomllib; print(' '.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['bench']))")
	touch $@

bench: dev-venv $(VENV)/.bench-installed
	$(BIN)/python -m engine.bench

# Bot reply latency (docs/performance.md): PostgreSQL + Redis + one real Celery worker.
# The database is created when missing; override with BENCH_DATABASE / BENCH_REDIS_URL /
# BENCH_MOVES.
BENCH_DATABASE ?= indulgence_bench
BENCH_REDIS_URL ?= redis://127.0.0.1:6379/14
BENCH_MOVES ?= 300
bench-bots: dev-venv
	psql -h 127.0.0.1 -U postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$(BENCH_DATABASE)'" | grep -q 1 \
		|| createdb -h 127.0.0.1 -U postgres $(BENCH_DATABASE)
	DATABASE_URL=postgresql://postgres@127.0.0.1:5432/$(BENCH_DATABASE) REDIS_URL=$(BENCH_REDIS_URL) \
		LOG_LEVEL=WARNING $(BIN)/python -m games.bench_bot_latency --moves $(BENCH_MOVES)

# Regenerate the lock files from pyproject.toml in throw-away virtualenvs.
lock:
	rm -rf /tmp/indulgence-lock && $(PYTHON) -m venv /tmp/indulgence-lock
	$(PYTHON) -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; print('\n'.join(p['dependencies']))" > /tmp/indulgence-lock/runtime.in
	$(PYTHON) -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; print('\n'.join(p['dependencies'] + p['optional-dependencies']['dev']))" > /tmp/indulgence-lock/dev.in
	/tmp/indulgence-lock/bin/pip install --quiet -r /tmp/indulgence-lock/runtime.in
	/tmp/indulgence-lock/bin/pip freeze > requirements.lock
	/tmp/indulgence-lock/bin/pip install --quiet -r /tmp/indulgence-lock/dev.in
	/tmp/indulgence-lock/bin/pip freeze > requirements-dev.lock
	rm -rf /tmp/indulgence-lock

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .coverage htmlcov
