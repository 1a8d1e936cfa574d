# The two commands of the README: `make serve` and `make test`. Both install what they need.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
NODE_INSTALLED := node_modules/.installed

.PHONY: serve test test-unit openapi bench mail-in check-card-set install clean

serve: install
	$(PY) -m devtools.serve

test: install
	$(PY) -m pytest

test-unit: install
	$(PY) -m pytest -m "not integration"

# Play by email locally: a raw reply on standard input, run by the same handler as in AWS.
# Uses the data and link secret of `make serve` (DATA_DIR, default var/).
mail-in: $(INSTALLED)
	@$(PY) -m devtools.mail_in_env

# A designer's Khan & General card-set file, checked as the server loads it: make check-card-set FILE=mine.json
check-card-set: $(INSTALLED)
	@$(PY) -m devtools.card_set check $(FILE)

openapi: $(INSTALLED)
	$(PY) -m devtools.openapi

# Benchmarks (not tests): results go into docs/benchmarks.md with the machine and date.
bench: $(INSTALLED)
	$(PY) -m benchmarks.claims
	$(PY) -m benchmarks.games
	$(PY) -m benchmarks.item_size

install: $(INSTALLED) $(NODE_INSTALLED)

$(PY):
	$(PYTHON) -m venv $(VENV)

$(INSTALLED): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $@

$(NODE_INSTALLED): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

clean:
	rm -rf $(VENV) node_modules var .pytest_cache .hypothesis
