#!/usr/bin/env python3
"""Start-up time of the game page, next to a bare PyScript page, in headless Chromium.

    .venv/bin/python scripts/bench_startup.py [--runs 5] [--json test-artifacts/startup.json]

For each run, a fresh browser profile (cold cache) opens each page, then opens it again in
the same profile (a repeat visit). The profile is a real one on disk, as a person's browser
has: a throw-away Playwright context keeps its cache in memory and would not keep the 9.6 MB
``pyodide.asm.wasm`` at all, which is not what a returning visitor gets. Both pages are served by the
project's own static server (``yinsh.serve``) and measured in the same run, alternating
which goes first. Times are milliseconds from navigation start (``performance.now()``):

- board: the first animation frame in which ``#board svg`` is laid out (the page draws a
  static board in its HTML, so this is before Python starts);
- fcp: the first contentful paint;
- python: when the page's own Python starts (the ``yinsh:python`` mark);
- ready: when ``<html>`` gets ``data-yinsh-ready`` (``data-bare-ready`` on the bare page).

The figures are reported, never asserted (DESIGN.md): the targets are board ≤ 500 ms,
first-visit ready ≤ 1.2 × the bare page, repeat-visit ready ≤ 2 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import os
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PAGES = {"bare": "bench/bare.html", "game": "index.html"}
TIMEOUT_MS = 90_000

# Installed before any script of the page runs: records when the board is laid out and when
# the ready attribute appears, with the page's own clock.
PROBE = """
(() => {
  const t = (window.__startup = {});
  const seen = () => {
    const h = document.documentElement;
    if (h && !t.ready && (h.hasAttribute('data-yinsh-ready') || h.hasAttribute('data-bare-ready')))
      t.ready = performance.now();
  };
  new MutationObserver(seen).observe(document, {
    subtree: true, attributes: true, attributeFilter: ['data-yinsh-ready', 'data-bare-ready'],
  });
  const frame = (now) => {
    const svg = document.querySelector('#board svg');
    if (!t.board && svg && svg.getBoundingClientRect().width > 0) t.board = performance.now();
    seen();
    if (!t.ready || (!t.board && document.querySelector('#board'))) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();
"""

READ = """
() => {
  const t = window.__startup || {};
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  const mark = (name) => (performance.getEntriesByName(name)[0] || {}).startTime ?? null;
  return {board: t.board ?? null, ready: t.ready ?? null, fcp: paint ? paint.startTime : null,
          python: mark('yinsh:python')};
}
"""


def profile(playwright, directory: str):
    """A browser with its own on-disk profile (and so a disk cache), headless as in the tests."""
    from tests.e2e.conftest import launch_options

    return playwright.chromium.launch_persistent_context(
        directory, viewport={"width": 1000, "height": 800}, **launch_options())


def visit(page, url: str, ready_selector: str) -> dict:
    page.goto(url)
    page.wait_for_selector(ready_selector, state="attached", timeout=TIMEOUT_MS)
    page.wait_for_timeout(50)  # let the last animation frame and paint entries land
    return page.evaluate(READ)


def run(runs: int) -> dict:
    from playwright.sync_api import sync_playwright

    from yinsh.serve import make_server

    server = make_server(ROOT, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    samples: dict[str, dict[str, list[float]]] = {}
    try:
        with sync_playwright() as playwright:
            for i in range(runs):
                order = list(PAGES) if i % 2 == 0 else list(reversed(PAGES))
                for name in order:
                    with tempfile.TemporaryDirectory(prefix="yinsh-bench-") as directory:
                        context = profile(playwright, directory)
                        context.add_init_script(PROBE)
                        page = context.pages[0] if context.pages else context.new_page()
                        selector = "html[data-bare-ready]" if name == "bare" else "html[data-yinsh-ready]"
                        for visit_name in ("first", "repeat"):
                            figures = visit(page, base + PAGES[name], selector)
                            bucket = samples.setdefault(f"{name}/{visit_name}", {})
                            for key, value in figures.items():
                                if value is not None:
                                    bucket.setdefault(key, []).append(round(value, 1))
                        context.close()
                print(f"run {i + 1}/{runs}: " + ", ".join(
                    f"{k} ready {v['ready'][-1]:.0f} ms" for k, v in samples.items()), file=sys.stderr)
    finally:
        server.shutdown()
        server.server_close()
    return samples


def summary(samples: dict) -> dict:
    out = {}
    for key, figures in samples.items():
        out[key] = {name: {"median": statistics.median(values), "min": min(values), "max": max(values),
                           "n": len(values)} for name, values in figures.items()}
    bare = out.get("bare/first", {}).get("ready", {}).get("median")
    game = out.get("game/first", {}).get("ready", {}).get("median")
    if bare and game:
        out["ratio_first_visit_ready"] = round(game / bare, 3)
    return out


def table(result: dict) -> str:
    rows = ["| page / visit | board drawn | first paint | Python starts | ready | ready min–max |",
            "| --- | ---: | ---: | ---: | ---: | ---: |"]

    def cell(figures: dict, name: str) -> str:
        f = figures.get(name)
        return f"{f['median'] / 1000:.2f} s" if f else "–"

    for key in ("bare/first", "game/first", "bare/repeat", "game/repeat"):
        f = result.get(key)
        if not f:
            continue
        spread = f"{f['ready']['min'] / 1000:.2f}–{f['ready']['max'] / 1000:.2f} s" if "ready" in f else "–"
        rows.append(f"| {key} | {cell(f, 'board')} | {cell(f, 'fcp')} | {cell(f, 'python')} | "
                    f"{cell(f, 'ready')} | {spread} |")
    if "ratio_first_visit_ready" in result:
        rows.append(f"\nfirst visit, game ready / bare ready (medians): {result['ratio_first_visit_ready']:.2f}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs (fresh contexts) per page (default 5)")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON to this file")
    args = parser.parse_args(argv)
    result = summary(run(args.runs))
    result["load_average"] = os.getloadavg()
    print(table(result))
    print(f"load average after the runs (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in result['load_average'])}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
