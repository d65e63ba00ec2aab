# The two commands of the README:
#   make lab    open the lessons in JupyterLab (creates .venv on first run)
#   make test   run every test: unit tests and every lesson under nbval
# Both install into .venv only when pyproject.toml changed since the last install.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: lab test bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,bench]"
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $(STAMP)

# Jupyter refuses to run as root unless told; containers often are root.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)

lab: $(STAMP)
	cd notebooks && ../$(BIN)/jupyter lab $(ALLOW_ROOT) 00_start_here.ipynb

# One worker per core; --dist loadscope keeps each file (and each lesson's cells) in one worker, in order.
# --max-worker-restart=0: a crashed worker fails the run at once, naming its test (pytest-xdist 3.8's loadscope
# scheduler can wait forever after replacing a crashed worker: pytest-xdist issue #1323).
test: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist loadscope --max-worker-restart=0 $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python -m bench $(BENCH_ARGS)

clean:
	rm -rf $(VENV)
