#!/usr/bin/env python3
"""The computer player's think time where it really runs: the page's web worker, in headless
Chromium, side by side with CPython on the same positions.

    .venv/bin/python scripts/bench_ai_web.py [--levels 1 2 3 4 5] [--positions 30]
        [--level5-positions 10] [--json test-artifacts/bench-ai-web.json]

The positions are ``yinsh.bench.midgame_positions()`` (fixed, reproducible mid-game
positions). The page is opened as a player would open it; the worker is started the way the
page starts it for a hint (the pointer over the Hint button); then, for every position, the
page's own JavaScript calls the worker's exported ``think`` (``window.yinshAI``, the same call
the page makes) and records

- worker: the time the worker itself measured (position decoding and search), and
- round trip: ``performance.now()`` around the call on the page's main thread (what a player
  waits: the worker's time plus the messaging between the threads).

CPython times are ``yinsh.ai.think`` in this process for the same positions and level. Its
time budgets are the browser's divided by ``yinsh.ai.SPEEDUP`` (CPython searches faster), so
both sides do about the same work and play about equally well. The figures are reported,
never asserted (targets in docs/ARCHITECTURE.md, browser p95: level 1 ≤ 50 ms, 2 ≤ 150 ms, 3 ≤ 0.5 s,
4 ≤ 2 s, 5 ≤ 5 s). The machine is shared: the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the package, and how the tests launch Chromium

from browser import launch_options  # noqa: E402

from yinsh.ai import SPEEDUP, think  # noqa: E402
from yinsh.ai.bench import percentile  # noqa: E402
from yinsh.bench import machine, midgame_positions  # noqa: E402
from yinsh.game import Game  # noqa: E402

TARGETS_MS = {1: 50, 2: 150, 3: 500, 4: 2000, 5: 5000}
BOOT_TIMEOUT_MS = 120_000

# One position: the page's main thread calls the worker and times the round trip.
THINK_JS = """async ([code, level, seed]) => {
    const start = performance.now();
    const answer = JSON.parse(await window.yinshAI.think(code, level, seed));
    return {roundtrip: (performance.now() - start) / 1000, ...answer};
}"""


def browser_times(codes_by_level: dict[int, list[str]], print_=print) -> tuple[dict[int, dict], str]:
    """Think times per level in the page's worker; and the worker's Python version."""
    from playwright.sync_api import ConsoleMessage, sync_playwright

    from yinsh.serve import make_server

    server = make_server(ROOT, 0, host="127.0.0.1", quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # a computer player in the URL: the page starts its worker at once (and asks no first-visit question)
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html?white=human&black=ai-1"
    out: dict[int, dict] = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(**launch_options())
            page = browser.new_page()
            errors: list[str] = []

            def on_console(message: ConsoleMessage) -> None:
                if message.type == "error":
                    errors.append(message.text)

            page.on("console", on_console)
            page.goto(url)
            page.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=BOOT_TIMEOUT_MS)
            start = time.perf_counter()
            page.wait_for_function("() => window.yinshAI !== undefined", timeout=BOOT_TIMEOUT_MS)
            print_(f"worker up {time.perf_counter() - start:.2f} s after the page was interactive")
            python = json.loads(page.evaluate("async () => await window.yinshAI.hello()"))["python"]
            for level, codes in codes_by_level.items():
                page.evaluate(THINK_JS, [codes[0], level, 0])  # warm-up: first-call imports and caches
                rows = [page.evaluate(THINK_JS, [code, level, 0]) for code in codes]
                bad = [r for r in rows if not r.get("ok")]
                if bad:
                    raise RuntimeError(f"level {level}: the worker failed: {bad[0].get('error')}")
                out[level] = {"worker": [r["seconds"] for r in rows], "roundtrip": [r["roundtrip"] for r in rows],
                              "depth": [r["depth"] for r in rows]}
                print_(f"  browser level {level}: {len(rows)} positions done")
            browser.close()
            if errors:
                raise RuntimeError("console errors in the page: " + "; ".join(errors))
    finally:
        server.shutdown()
        server.server_close()
    return out, python


def cpython_times(positions_by_level: dict[int, list]) -> dict[int, dict]:
    out = {}
    for level, states in positions_by_level.items():
        think(states[0], level, seed=0)  # warm-up, as in the browser
        times, depths = [], []
        for s in states:
            start = time.perf_counter()
            _, info = think(s, level, seed=0)
            times.append(time.perf_counter() - start)
            depths.append(info["depth"])
        out[level] = {"cpython": times, "depth": depths}
    return out


def summary(values: list[float]) -> dict[str, float]:
    return {"p50": percentile(values, 0.5), "p95": percentile(values, 0.95), "max": max(values)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--positions", type=int, default=30, help="mid-game positions per level (default 30)")
    parser.add_argument("--level5-positions", type=int, default=10,
                        help="positions for level 5, which thinks ~4 s a move (default 10)")
    parser.add_argument("--json", type=Path, default=ROOT / "test-artifacts" / "bench-ai-web.json")
    args = parser.parse_args(argv)

    states = midgame_positions(max(args.positions, args.level5_positions))
    counts = {level: args.level5_positions if level == 5 else args.positions for level in args.levels}
    positions = {level: states[:n] for level, n in counts.items()}
    codes = {level: [Game.from_state(s, 30).position() for s in ss] for level, ss in positions.items()}

    print(f"AI think time, browser worker vs CPython — {machine()}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    browser, python = browser_times(codes)
    cpython = cpython_times(positions)
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    print(f"Browser: Pyodide (CPython {python}) in the page's web worker, headless Chromium. "
          f"CPython: {sys.version.split()[0]}, budgets ÷ {SPEEDUP}.")
    print()
    print("| level | positions | target p95 | browser p50 | browser p95 | round trip p95 | depth (browser) "
          "| CPython p50 | CPython p95 | depth (CPython) | browser p95 ≤ target |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    figures = {}
    for level in args.levels:
        worker, trip, cpy = summary(browser[level]["worker"]), summary(browser[level]["roundtrip"]), \
            summary(cpython[level]["cpython"])
        depth_b = sum(browser[level]["depth"]) / len(browser[level]["depth"])
        depth_c = sum(cpython[level]["depth"]) / len(cpython[level]["depth"])
        ok = "yes" if worker["p95"] * 1000 <= TARGETS_MS[level] else "NO"
        print(f"| {level} | {counts[level]} | {TARGETS_MS[level]} ms | {worker['p50'] * 1000:.0f} ms "
              f"| {worker['p95'] * 1000:.0f} ms | {trip['p95'] * 1000:.0f} ms | {depth_b:.1f} "
              f"| {cpy['p50'] * 1000:.0f} ms | {cpy['p95'] * 1000:.0f} ms | {depth_c:.1f} | {ok} |")
        figures[level] = {"positions": counts[level], "target_p95_ms": TARGETS_MS[level],
                          "browser_worker": worker, "browser_roundtrip": trip, "browser_depth": depth_b,
                          "cpython": cpy, "cpython_depth": depth_c, "raw": {**browser[level], **cpython[level]}}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"machine": machine(), "browser_python": python, "speedup": SPEEDUP,
                                     "levels": figures}, indent=1) + "\n", encoding="utf-8")
    print(f"\nraw figures: {args.json.relative_to(ROOT) if args.json.is_relative_to(ROOT) else args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
