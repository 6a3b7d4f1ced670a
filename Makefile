# Schreiber — see README.md.
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test lint check clean bench bench-soak bench-faults bench-lighthouse

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

# The whole suite, browser tests included, in JOBS processes (pytest-xdist); honours
# DATABASE_URL (SQLite when unset) and HYPOTHESIS_PROFILE (dev unless told: tests/strength.py).
# Three processes on two cores: the browser tests, spread over two of them, mostly wait
# (tests/conftest.py), and an idle process takes over the tail of another's share (worksteal).
# Python keeps its compiled files (__pycache__, ignored by git) even where the environment
# says not to (PYTHONDONTWRITEBYTECODE): each process otherwise compiles and rewrites every
# test module again, 26 s of each worker's start against 9 s (docs/development.md).
JOBS ?= 3
test: install
	env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest -n $(JOBS) --dist worksteal $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

check: install
	DJANGO_DEBUG=1 $(PY) manage.py check
	DJANGO_DEBUG=1 $(PY) manage.py makemigrations --check --dry-run
	DJANGO_DEBUG=1 $(PY) manage.py spectacular --validate --fail-on-warn --file /dev/null
	DJANGO_DEBUG=1 $(PY) manage.py scorer_data --check

# The quick benchmarks (bench/README.md): PostgreSQL database schreiber_bench (or
# BENCH_DATABASE_URL), wrk and /usr/bin/chromium. A few minutes; prints every figure.
bench: install
	-$(PY) bench/referee_speed.py --seconds 1
	-$(PY) bench/history_length.py --sizes 10,100,1000,10000 --repeat 10
	-$(PY) bench/queries.py
	-$(PY) bench/throughput.py --duration 3
	-$(PY) bench/page_weight.py
	-$(PY) bench/soak.py --duration 10

# Lighthouse (mobile) over the seven pages a newcomer meets, three rounds taking turns,
# medians (bench/README.md, its Lighthouse section): npx lighthouse@12.2.3 and /usr/bin/chromium;
# about ten minutes.
bench-lighthouse: install
	$(PY) bench/lighthouse.py --rounds 3

# The full soak: 50 tables, 200 watchers, one minute.
bench-soak: install
	$(PY) bench/soak.py --duration 60

# Faults under load (as root; its own PostgreSQL on 5433 and Redis on 6380): nothing lost.
bench-faults: install
	$(PY) bench/faults.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis staticfiles test-db.sqlite3
