# The two commands a new user needs: `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: setup play test bench chromium clean

setup: $(VENV)/.installed static/vendor/.installed chromium

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
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

play: setup
	$(PY) -m yinsh serve --port $(PORT)

test: setup
	$(PY) -m pytest

bench: $(VENV)/.installed
	$(PY) -m yinsh bench

clean:
	rm -rf $(VENV) node_modules static/vendor dist
