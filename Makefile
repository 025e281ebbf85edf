# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Reinstall only when pyproject.toml or the browser libraries (nardy_site/vendor.py) change.
INSTALLED := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test test-browser test-all worker lint

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# pip compiles every installed file on one core; compileall does it on all of them (36 s in all
# instead of 59 on two cores), and the tests' many processes then start from bytecode.
$(INSTALLED): pyproject.toml nardy_site/vendor.py | $(BIN)/python
	$(BIN)/python -m pip install --quiet --no-compile -e '.[dev,oracle]'
	$(BIN)/python -m compileall -q -j 0 $(VENV)/lib
	$(BIN)/python -m nardy_site.vendor
	touch $@

install: $(INSTALLED)

run: $(INSTALLED)
	$(BIN)/python manage.py migrate --noinput --verbosity 0
	$(BIN)/python manage.py seed_demo --url http://$(HOST):$(PORT)/
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# The suite but the browser walks (tests/e2e: Debian's Chromium driven by Playwright), which CI
# runs in its second stage; `make test-all` runs both, `make test-browser` the walks alone.
test: $(INSTALLED)
	$(BIN)/pytest --ignore=tests/e2e $(PYTEST_ARGS)

test-browser: $(INSTALLED)
	$(BIN)/pytest tests/e2e $(PYTEST_ARGS)

test-all: $(INSTALLED)
	$(BIN)/pytest $(PYTEST_ARGS)

worker: $(INSTALLED)
	@test -n "$$CELERY_BROKER_URL" || { \
		echo "make worker: set CELERY_BROKER_URL (e.g. redis://127.0.0.1:6379/0);" \
		     "without it tasks run in-process and no worker is needed." >&2; exit 1; }
	$(BIN)/celery -A nardy_site worker -l info -Q celery,analysis

lint: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache
	$(BIN)/mypy --strict games/rules games/engine games/viewer.py tournaments/matches/live/recording.py tournaments/matches/live/board.py games/analysis tournaments/formats \
		tournaments/ratings/elo.py tournaments/ratings/fibs.py tournaments/ratings/glicko2.py tournaments/ratings/history.py \
		tournaments/scoring tournaments/seasons/table.py tournaments/eligibility.py tournaments/medals.py tournaments/regions.py tournaments/standings.py tournaments/brackets/layout.py tournaments/charts.py tournaments/names.py tournaments/analysis/reading.py \
		tournaments/norms/matching.py tournaments/protocol/document.py
