#!/usr/bin/env python3
"""Start-up of the built site in headless Chromium, next to a bare PyScript page: ``make bench-web``.

    .venv/bin/python scripts/bench_web.py [--runs 3] [--variants] [--json test-artifacts/bench-web.json]

One run builds the site (``yinsh.site.build_site``) into a temporary folder, adds a copy of
``bench/bare.html`` (the bare PyScript page) pointed at the same runtime files, and serves
that folder alone with ``yinsh.serve`` (its cache headers: ``immutable`` for versioned
files, ``no-cache`` for the rest). Each page is opened in a fresh on-disk browser profile
(a first visit: a disk cache, as a person's browser has; a throw-away Playwright context
keeps its cache in memory and drops the 9.6 MB ``pyodide.asm.wasm``), then opened again in
that profile (a repeat visit). The two pages alternate in order from run to run.

Times are milliseconds from navigation start, read with the page's own clock:

- board: the first animation frame in which ``#board svg`` is laid out (drawn from the HTML,
  before Python starts);
- interactive: ``<html data-yinsh-ready>`` (``data-bare-ready`` on the bare page);
- AI ready: ``<html data-yinsh-ai-ready>`` if the page sets it, else ``window.yinshAI`` (the
  worker's exports, which the page sets once its AI worker has answered); the game page is
  opened as ``?white=human&black=ai-1`` so that it starts its worker at once.

Bytes are what the server sent during a visit (first visit: until the page, its AI worker
and its service worker are done; repeat visit: until interactive and AI ready), raw and as a
gzip-compressing host would send them (each file gzip-compressed at level 6); a 304 counts 0.

``--variants`` adds the game page with its service worker blocked, and with neither service
worker nor ``Cache-Control`` headers, to show what each layer of caching does. The figures
are reported, never asserted (DESIGN.md). Targets: board ≤ 0.5 s; interactive ≤ 1.2 × the
bare page; repeat-visit interactive ≤ 2 s; first visit ≤ 6.5 MB compressed.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the package, and how the tests launch Chromium

TIMEOUT_MS = 90_000
AI_TIMEOUT_MS = 60_000
SW_TIMEOUT_MS = 60_000
GAME_URL = "index.html?white=human&black=ai-1"
BARE_URL = "bench-bare.html"
AI_ATTRIBUTE = "data-yinsh-ai-ready"

# Installed before any script of the page: records, with the page's clock, when the board is
# laid out, when the page is interactive and when its AI is ready.
PROBE = """
(() => {
  const t = (window.__bench = {});
  const html = () => document.documentElement;
  const check = () => {
    const h = html();
    if (!h) return;
    const now = performance.now();
    if (!t.ready && (h.hasAttribute('data-yinsh-ready') || h.hasAttribute('data-bare-ready'))) t.ready = now;
    if (!t.ai && h.hasAttribute('%(attr)s')) { t.ai = now; t.aiSignal = 'attribute'; }
    if (!t.ai && window.yinshAI) { t.ai = now; t.aiSignal = 'window.yinshAI'; }
  };
  new MutationObserver(check).observe(document, {subtree: true, attributes: true});
  const frame = () => {
    const svg = document.querySelector('#board svg');
    if (!t.board && svg && svg.getBoundingClientRect().width > 0) t.board = performance.now();
    check();
    if (!t.ready || !t.ai) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  setInterval(check, 20);  // window.yinshAI is no DOM change; rAF stops in a hidden tab
})();
""".replace("%(attr)s", AI_ATTRIBUTE)

READ = """
() => {
  const t = window.__bench || {};
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  const mark = (name) => (performance.getEntriesByName(name)[0] || {}).startTime ?? null;
  return {board: t.board ?? null, fcp: paint ? paint.startTime : null, python: mark('yinsh:python'),
          ready: t.ready ?? null, ai: t.ai ?? null, aiSignal: t.aiSignal ?? null};
}
"""

SW_DONE = """
async () => {
  if (!('serviceWorker' in navigator) || !document.querySelector('meta[name=yinsh-build]')) return 'none';
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration) return 'unregistered';
  const worker = registration.active;
  return worker && worker.state === 'activated' && navigator.serviceWorker.controller ? 'active' : 'pending';
}
"""


# --------------------------------------------------------------------------- the site


def prepare(directory: Path) -> dict:
    """Build the site into ``directory`` and add the bare page on the same runtime; its summary."""
    from yinsh.site import build_site

    summary = build_site(directory)
    urls = summary.url_map
    bare = (ROOT / "bench" / "bare.html").read_text(encoding="utf-8")
    core_js = urls["static/vendor/pyscript/core.js"]
    runtime_dir = core_js.rsplit("/", 1)[0]
    bare = (bare.replace("../static/vendor/pyscript/core.js", core_js)
                .replace("../static/vendor/pyscript/core.css", runtime_dir + "/core.css")
                .replace("./bare.toml", "./bench-bare.toml"))
    shutil.copyfile(ROOT / "static" / "vendor" / "pyscript" / "core.css", directory / runtime_dir / "core.css")
    (directory / BARE_URL).write_text(bare, encoding="utf-8")
    toml = (ROOT / "bench" / "bare.toml").read_text(encoding="utf-8")
    (directory / "bench-bare.toml").write_text(
        toml.replace("../static/vendor/pyodide/pyodide.mjs", urls["static/vendor/pyodide/pyodide.mjs"]),
        encoding="utf-8")
    return {"build": summary.build, "files": len(summary.files), "bytes": summary.size, "gzip": summary.gzip_size}


class Traffic:
    """What the server sends: (path, status, bytes, gzip bytes), appended by its handler."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.log: list[tuple[str, int, int, int]] = []
        self.gzip: dict[str, int] = {}
        self.lock = threading.Lock()

    def record(self, path: str, status: int, file: str | None) -> None:
        size = gz = 0
        if status == 200 and file and os.path.isfile(file):
            size = os.path.getsize(file)
            with self.lock:
                if file not in self.gzip:
                    self.gzip[file] = len(gzip.compress(Path(file).read_bytes(), 6, mtime=0))
            gz = self.gzip[file]
        with self.lock:
            self.log.append((path, status, size, gz))

    def mark(self) -> int:
        with self.lock:
            return len(self.log)

    def since(self, start: int) -> dict:
        with self.lock:
            entries = self.log[start:]
        return {"bytes": sum(e[2] for e in entries), "gzip": sum(e[3] for e in entries),
                "requests": len(entries), "not_modified": sum(1 for e in entries if e[1] == 304),
                "downloads": sorted({e[0].split("?")[0] for e in entries if e[1] == 200 and e[2] > 1_000_000})}


def start_server(root: Path, traffic: Traffic, cache_headers: bool):
    from yinsh.serve import Handler, make_server

    class Counting(Handler):
        def send_response(self, code, message=None):  # type: ignore[no-untyped-def]
            super().send_response(code, message)
            if self.command == "GET":
                traffic.record(self.path, int(code), self.translate_path(self.path))

    server = make_server(root, 0, quiet=True, handler=Counting, cache_headers=cache_headers)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


# --------------------------------------------------------------------------- visits


def profile(playwright, directory: str, *, service_workers: str = "allow"):
    from browser import launch_options

    return playwright.chromium.launch_persistent_context(
        directory, viewport={"width": 1000, "height": 800}, service_workers=service_workers, **launch_options())


def visit(page, url: str, *, game: bool, wait_sw: bool) -> dict:
    page.goto(url)
    selector = "html[data-yinsh-ready]" if game else "html[data-bare-ready]"
    page.wait_for_selector(selector, state="attached", timeout=TIMEOUT_MS)
    if game:
        try:
            page.wait_for_function("window.__bench && window.__bench.ai", timeout=AI_TIMEOUT_MS)
        except Exception:  # the page has no AI signal (yet): reported as n/a
            pass
    page.wait_for_timeout(50)
    figures = page.evaluate(READ)
    if wait_sw:
        deadline = time.monotonic() + SW_TIMEOUT_MS / 1000
        while page.evaluate(SW_DONE) in ("pending", "unregistered") and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        figures["sw"] = page.evaluate(SW_DONE)
    return figures


def run(runs: int, variants: bool) -> tuple[dict, dict]:
    from playwright.sync_api import sync_playwright

    samples: dict[str, dict[str, list]] = {}
    with tempfile.TemporaryDirectory(prefix="yinsh-bench-web-") as tmp:
        site = Path(tmp) / "site"
        built = prepare(site)
        traffic = Traffic(site)
        servers = {True: start_server(site, traffic, True), False: start_server(site, traffic, False)}
        pages = [("bare", BARE_URL, True, "allow"), ("game", GAME_URL, True, "allow")]
        if variants:
            pages += [("game-no-sw", GAME_URL, True, "block"), ("game-no-sw-no-headers", GAME_URL, False, "block")]
        try:
            with sync_playwright() as playwright:
                for i in range(runs):
                    order = pages if i % 2 == 0 else list(reversed(pages))
                    for name, path, headers, sw in order:
                        base = servers[headers][1]
                        with tempfile.TemporaryDirectory(prefix="yinsh-profile-") as directory:
                            context = profile(playwright, directory, service_workers=sw)
                            context.add_init_script(PROBE)
                            page = context.pages[0] if context.pages else context.new_page()
                            game = name != "bare"
                            for visit_name in ("first", "repeat"):
                                start = traffic.mark()
                                figures = visit(page, base + path, game=game,
                                                wait_sw=game and sw == "allow" and visit_name == "first")
                                page.wait_for_timeout(300)  # requests still in flight
                                figures.update(traffic.since(start))
                                bucket = samples.setdefault(f"{name}/{visit_name}", {})
                                for key, value in figures.items():
                                    if value is not None:
                                        bucket.setdefault(key, []).append(value)
                            context.close()
                    print(f"run {i + 1}/{runs}: " + ", ".join(
                        f"{k} {v['ready'][-1] / 1000:.2f} s" for k, v in samples.items() if v.get("ready")),
                        file=sys.stderr)
        finally:
            for server, _ in servers.values():
                server.shutdown()
                server.server_close()
    return samples, built


def summary(samples: dict) -> dict:
    out: dict = {}
    for key, figures in samples.items():
        entry: dict = {}
        for name, values in figures.items():
            if values and isinstance(values[0], (int, float)):
                entry[name] = {"median": statistics.median(values), "min": min(values), "max": max(values),
                               "n": len(values), "values": [round(v, 1) for v in values]}
            else:
                entry[name] = values[-1] if name != "downloads" else sorted({v for vs in values for v in vs})
        out[key] = entry
    bare = out.get("bare/first", {}).get("ready", {}).get("median")
    game = out.get("game/first", {}).get("ready", {}).get("median")
    if bare and game:
        out["ratio_first_visit_ready"] = round(game / bare, 3)
    return out


def table(result: dict) -> str:
    rows = ["| page / visit | board drawn | interactive | (min–max) | AI ready | bytes | gzip | requests (304) |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]

    def seconds(figures: dict, name: str) -> str:
        f = figures.get(name)
        return f"{f['median'] / 1000:.2f} s" if f else "n/a"

    keys = [k for k in result if "/" in k]
    for key in sorted(keys, key=lambda k: (k.split("/")[1] != "first", k.split("/")[0] != "bare", k)):
        f = result[key]
        spread = f"{f['ready']['min'] / 1000:.2f}–{f['ready']['max'] / 1000:.2f} s" if "ready" in f else "–"
        ai = "–" if key.startswith("bare") else seconds(f, "ai")
        rows.append(f"| {key} | {seconds(f, 'board')} | {seconds(f, 'ready')} | {spread} | {ai} | "
                    f"{f['bytes']['median'] / 1e6:.2f} MB | {f['gzip']['median'] / 1e6:.2f} MB | "
                    f"{f['requests']['median']:.0f} ({f['not_modified']['median']:.0f}) |")
    notes = []
    if "ratio_first_visit_ready" in result:
        ratio = result["ratio_first_visit_ready"]
        notes.append(f"first visit, game interactive / bare interactive (medians): {ratio:.2f} (target ≤ 1.2)")
    signal = result.get("game/first", {}).get("aiSignal")
    notes.append(f"AI ready signal: {signal}" if signal else
                 f"AI ready: n/a (the page sets neither <html {AI_ATTRIBUTE}> nor window.yinshAI)")
    return "\n".join(rows + [""] + notes)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs (fresh profiles) per page (default 3)")
    parser.add_argument("--variants", action="store_true",
                        help="also the game page without service worker, and without service worker and cache headers")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON to this file")
    args = parser.parse_args(argv)
    samples, built = run(args.runs, args.variants)
    result = summary(samples)
    result["site"] = built
    result["load_average"] = os.getloadavg()
    print(f"site: build {built['build']}, {built['files']} files, {built['bytes'] / 1e6:.2f} MB "
          f"({built['gzip'] / 1e6:.2f} MB gzip)")
    print(table(result))
    print(f"load average after the runs (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in result['load_average'])}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
