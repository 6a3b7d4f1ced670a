# Schreiber — see README.md.
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test lint check clean

# Install into .venv once, again whenever pyproject.toml changes.
$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $@

install: $(VENV)/.installed

# Serve on SQLite (db.sqlite3 in this folder) with debugging on.
run: install
	env -u DATABASE_URL DJANGO_DEBUG=1 $(PY) manage.py migrate --noinput
	env -u DATABASE_URL DJANGO_DEBUG=1 $(PY) manage.py runserver $(HOST):$(PORT)

# The whole suite; honours DATABASE_URL (SQLite when unset).
test: install
	$(PY) -m pytest $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

check: install
	DJANGO_DEBUG=1 $(PY) manage.py check
	DJANGO_DEBUG=1 $(PY) manage.py makemigrations --check --dry-run
	DJANGO_DEBUG=1 $(PY) manage.py spectacular --validate --fail-on-warn --file /dev/null

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis staticfiles test-db.sqlite3
