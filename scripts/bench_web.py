#!/usr/bin/env python3
"""Start-up of the built site in headless Chromium, next to bare PyScript pages: ``make bench-web``.

    .venv/bin/python scripts/bench_web.py [--runs 3] [--variants] [--pages game-ai,bare-pyodide] [--json out.json]

One run builds the site (``yinsh.site.build_site``) into a temporary folder, adds copies of
``bench/bare-mpy.html`` and ``bench/bare.html`` (bare PyScript pages on MicroPython and on
Pyodide) pointed at the same runtime files, and serves that folder alone with ``yinsh.serve``
(its cache headers: ``immutable`` for versioned files, ``no-cache`` for the rest). Each page is
opened in a fresh on-disk browser profile (a first visit, with a disk cache as a person's
browser has; it lasts until the service worker has installed and, against the computer, until
the computer's start-up snapshot is kept, as a person's first game would), then again in that
profile after a blank page (a repeat visit: a person coming back, the files cached), then once
more straight from itself (a reload, whose time also holds the unloading of the page it
replaces). The pages:

- ``game``: the game page for two people at one device (``index.html``);
- ``game-ai``: the game page against the computer (``?white=human&black=ai-1``), which starts
  its Pyodide worker at once: "computer ready" is ``<html data-yinsh-ai-ready>``; as soon as the
  page is interactive the person places a ring (a real click), and "placement" is the time from
  that click to the frame that draws the computer's placement (made by the page itself, while
  the worker starts); the notes count the visits whose worker started from its snapshot
  (``static/js/yinsh-pyodide.mjs``; its ``hello()`` says so);
- ``embeds``: ``examples/embed.html``, a tutorial with three embedded diagrams, interactive
  when the last of its frames is;
- ``bare-mpy`` and ``bare-pyodide``: a PyScript page that prints one line, on each interpreter;
  ``bare-pyodide`` runs Pyodide's files as npm publishes them, ``bare-pyodide-site`` the site's
  copy, whose standard library the build has trimmed and partly precompiled
  (``yinsh.site.pyodide``): the computer's start is compared with Pyodide's own, not with the
  build's work on it.

Times are milliseconds from the navigation's start (the page's own clock): the board laid out
(drawn by the HTML, before Python), interactive (``<html data-yinsh-ready>``, ``data-bare-ready``
on the bare pages), computer ready. Bytes are what the server sent, gzip-compressed at level 6
as a compressing host would send them (a 304 counts 0): before interactive (requests the server
answered before that moment), and in the whole visit (first visit: until the page, its worker
and its service worker are done). Pyodide files lists every request for a file of Pyodide's
runtime during the visit.

The figures are reported, never asserted. The targets (docs/ARCHITECTURE.md) are ratios to the
bare pages measured in the same run, because absolute times swing with the machine's load.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
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
from vendor import PYODIDE_FILES  # noqa: E402  (beside this script: Pyodide as npm publishes it)

TIMEOUT_MS = 90_000
AI_TIMEOUT_MS = 90_000
SW_TIMEOUT_MS = 60_000
PAGES = {  # name: (URL in the built site, what "interactive" waits for)
    "game": ("index.html", "game"),
    "game-ai": ("index.html?white=human&black=ai-1", "game"),
    "embeds": ("examples/embed.html", "frames"),
    "bare-mpy": ("bench-bare-mpy.html", "bare"),
    "bare-pyodide": ("bench-bare.html", "bare"),
    "bare-pyodide-site": ("bench-bare-site.html", "bare"),
}
# page: (source page, its config, the interpreter: "stock" is Pyodide as npm publishes it)
BARE = {"bench-bare.html": ("bare.html", "bare.toml", "stock"),
        "bench-bare-site.html": ("bare.html", "bare.toml", "static/vendor/pyodide/pyodide.mjs"),
        "bench-bare-mpy.html": ("bare-mpy.html", "bare-mpy.toml", "static/vendor/micropython/micropython.mjs")}

# Installed before any script of every page and frame: records, with the page's clock, when the
# board is laid out, when the page is interactive and when its computer player is ready.
PROBE = """
(() => {
  const t = (window.__bench = {});
  const check = () => {
    const h = document.documentElement;
    if (!h) return;
    const now = performance.now();
    if (!t.ready && (h.hasAttribute('data-yinsh-ready') || h.hasAttribute('data-bare-ready'))) t.ready = now;
    if (!t.ai && h.hasAttribute('data-yinsh-ai-ready')) t.ai = now;
  };
  new MutationObserver(check).observe(document, {subtree: true, attributes: true});
  const frame = () => {
    const svg = document.querySelector('#board svg');
    if (!t.board && svg && svg.getBoundingClientRect().width > 0) t.board = performance.now();
    check();
    if (!t.ready || !t.ai) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  setInterval(check, 20);  // rAF stops in a hidden tab
})();
"""

# The person's first placement on the game page against the computer: when the click came, and
# when the frame after the board's record first held the computer's answer was drawn.
PLACE_PROBE = """
() => {
  const t = window.__bench;
  document.addEventListener('click', () => { if (t.click == null) t.click = performance.now(); }, true);
  const board = document.getElementById('board');
  new MutationObserver(() => {
    const moves = (board.dataset.record || '').split(/\\s+/).filter(w => /^\\d+\\./.test(w)).length;
    if (moves >= 2 && t.answered == null) {
      t.answered = -1;
      requestAnimationFrame(() => { t.answered = performance.now(); });
    }
  }).observe(board, {attributes: true, attributeFilter: ['data-record']});
}
"""
PLACE_POINT = "e5"

# Each figure also as epoch milliseconds (timeOrigin + t), to compare frames and the server's log.
READ = """
() => {
  const t = window.__bench || {};
  const at = (v) => v == null ? null : performance.timeOrigin + v;
  return {origin: performance.timeOrigin, board: t.board ?? null, ready: t.ready ?? null, ai: t.ai ?? null,
          ready_at: at(t.ready), ai_at: at(t.ai)};
}
"""

# The computer's start-up snapshot (static/js/yinsh-pyodide.mjs), kept a few seconds after its
# first start: a person's first visit lasts longer than that, so the bench's first visit waits.
SNAPSHOT_KEPT = """
async () => {
  if (typeof caches === 'undefined') return true;
  for (const name of await caches.keys()) {
    if (name.startsWith('yinsh-pyodide-snapshot:') && (await (await caches.open(name)).keys()).length) return true;
  }
  return false;
}
"""
SNAPSHOT_TIMEOUT_MS = 60_000

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
    """Build the site into ``directory`` and add the bare pages on the same runtimes; its summary."""
    from yinsh.site import build_site

    summary = build_site(directory)
    urls = summary.url_map
    core_js = urls["static/vendor/pyscript/core.js"]
    runtime_dir = core_js.rsplit("/", 1)[0]
    # The bare pages as PyScript's documentation writes them: PyScript's stylesheet and a TOML
    # config, whose parser the built site leaves out (its pages hold their configs as JSON).
    vendored = ROOT / "static" / "vendor" / "pyscript"
    for name in ["core.css"] + [p.name for p in vendored.glob("toml-*.js")]:
        shutil.copyfile(vendored / name, directory / runtime_dir / name)
    # Pyodide as npm publishes it (the site's copy has its start precompiled), in a folder named
    # by its content as the site's runtimes are (so served as immutable as theirs).
    stock = ROOT / "static" / "vendor" / "pyodide"
    digest = hashlib.sha256(b"".join(hashlib.sha256((stock / n).read_bytes()).digest() for n in PYODIDE_FILES))
    stock_dir = f"static/vendor/pyodide-npm-{digest.hexdigest()[:10]}"
    (directory / stock_dir).mkdir()
    for name in PYODIDE_FILES:
        shutil.copyfile(stock / name, directory / stock_dir / name)
    for name, (html, toml, interpreter) in BARE.items():
        page = (ROOT / "bench" / html).read_text(encoding="utf-8")
        stem = name.removesuffix(".html")
        page = (page.replace("../static/vendor/pyscript/core.js", core_js)
                    .replace("../static/vendor/pyscript/core.css", runtime_dir + "/core.css")
                    .replace(f"./{toml}", f"./{stem}.toml"))
        (directory / name).write_text(page, encoding="utf-8")
        url = f"./{stock_dir}/pyodide.mjs" if interpreter == "stock" else urls[interpreter]
        config = (ROOT / "bench" / toml).read_text(encoding="utf-8")
        source = "../static/vendor/pyodide/pyodide.mjs" if interpreter == "stock" else "../" + interpreter
        (directory / f"{stem}.toml").write_text(config.replace(source, url), encoding="utf-8")
    return {"build": summary.build, "files": len(summary.files), "bytes": summary.size, "gzip": summary.gzip_size}


class Traffic:
    """What the server sends: (time, path, status, bytes, file), appended by its handler.

    The gzip sizes are computed when a visit's figures are read, never while the server answers:
    compressing Pyodide's 9 MB wasm takes the better part of a second, which would delay the first
    visit that fetches it (and so favour whichever page comes second in a run)."""

    def __init__(self) -> None:
        self.log: list[tuple[float, str, int, int, str | None]] = []
        self.gzip: dict[str, int] = {}
        self.lock = threading.Lock()

    def record(self, path: str, status: int, file: str | None) -> None:
        size = os.path.getsize(file) if status == 200 and file and os.path.isfile(file) else 0
        with self.lock:
            self.log.append((time.time() * 1000, path, status, size, file if size else None))

    def gzip_size(self, file: str | None) -> int:
        if file is None:
            return 0
        if file not in self.gzip:
            self.gzip[file] = len(gzip.compress(Path(file).read_bytes(), 6, mtime=0))
        return self.gzip[file]

    def mark(self) -> int:
        with self.lock:
            return len(self.log)

    def since(self, start: int, ready_at: float | None) -> dict:
        with self.lock:
            entries = self.log[start:]
        before = [e for e in entries if ready_at is not None and e[0] <= ready_at]
        return {"gzip_before_ready": sum(self.gzip_size(e[4]) for e in before),
                "gzip": sum(self.gzip_size(e[4]) for e in entries),
                "bytes": sum(e[3] for e in entries), "requests": len(entries),
                "pyodide_files": sorted({e[1].split("?")[0] for e in entries if "/static/vendor/pyodide" in e[1]})}


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


def visit(page, url: str, *, kind: str, ai: bool, wait_sw: bool, wait_snapshot: bool = False) -> dict:
    """Open ``url`` and read its figures (``kind``: ``game``, ``bare`` or ``frames``); then,
    with ``wait_sw``, wait until the service worker is done, and with ``wait_snapshot`` until
    the computer's start-up snapshot is kept (a first visit)."""
    page.goto(url)
    if kind == "frames":
        page.wait_for_function("document.querySelectorAll('iframe').length > 0", timeout=TIMEOUT_MS)
        frames = []
        for handle in page.query_selector_all("iframe"):
            frame = handle.content_frame()
            frame.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=TIMEOUT_MS)
            frames.append(frame.evaluate(READ))
        figures = page.evaluate(READ)
        last = max(f["ready_at"] for f in frames)
        figures.update(ready=last - figures["origin"], ready_at=last, frames=len(frames))
    else:
        selector = "html[data-bare-ready]" if kind == "bare" else "html[data-yinsh-ready]"
        page.wait_for_selector(selector, state="attached", timeout=TIMEOUT_MS)
        placement = None
        if ai:
            page.evaluate(PLACE_PROBE)
            page.click(f'#board [data-point="{PLACE_POINT}"]')
            page.wait_for_function("window.__bench.answered > 0", timeout=AI_TIMEOUT_MS)
            placement = page.evaluate("window.__bench.answered - window.__bench.click")
            page.wait_for_selector("html[data-yinsh-ai-ready]", state="attached", timeout=AI_TIMEOUT_MS)
            started = page.evaluate("async () => JSON.parse(String(await window.yinshAI.hello())).start ?? null")
            page.evaluate("localStorage.clear()")  # the next visit starts a fresh game, as this one did
        page.wait_for_timeout(50)
        figures = page.evaluate(READ)
        if placement is not None:
            figures["placement"] = placement
            figures["from_snapshot"] = int(started == "snapshot")
    if wait_snapshot:
        deadline = time.monotonic() + SNAPSHOT_TIMEOUT_MS / 1000
        while not page.evaluate(SNAPSHOT_KEPT) and time.monotonic() < deadline:
            page.wait_for_timeout(100)
    if wait_sw:
        deadline = time.monotonic() + SW_TIMEOUT_MS / 1000
        while page.evaluate(SW_DONE) in ("pending", "unregistered") and time.monotonic() < deadline:
            page.wait_for_timeout(100)
    return figures


def run(runs: int, variants: bool, only: set[str] | None = None) -> tuple[dict, dict]:
    from playwright.sync_api import sync_playwright

    samples: dict[str, dict[str, list]] = {}
    with tempfile.TemporaryDirectory(prefix="yinsh-bench-web-") as tmp:
        site = Path(tmp) / "site"
        built = prepare(site)
        traffic = Traffic()
        servers = {True: start_server(site, traffic, True), False: start_server(site, traffic, False)}
        pages = [(name, path, kind, True, "allow") for name, (path, kind) in PAGES.items()]
        if variants:
            pages += [("game-no-sw", "index.html", "game", True, "block"),
                      ("game-no-sw-no-headers", "index.html", "game", False, "block"),
                      ("game-ai-no-sw", PAGES["game-ai"][0], "game", True, "block")]
        if only:
            pages = [page for page in pages if page[0] in only]
        try:
            with sync_playwright() as playwright:
                for i in range(runs):
                    for name, path, kind, headers, sw in (pages if i % 2 == 0 else list(reversed(pages))):
                        with tempfile.TemporaryDirectory(prefix="yinsh-profile-") as directory:
                            context = profile(playwright, directory, service_workers=sw)
                            context.add_init_script(PROBE)
                            page = context.pages[0] if context.pages else context.new_page()
                            for visit_name in ("first", "repeat", "reload"):
                                if visit_name == "repeat":
                                    page.goto("about:blank")
                                start = traffic.mark()
                                figures = visit(page, servers[headers][1] + path, kind=kind,
                                                ai=name.startswith("game-ai"),
                                                wait_sw=kind != "bare" and sw == "allow" and visit_name == "first",
                                                wait_snapshot=name.startswith("game-ai") and visit_name == "first")
                                page.wait_for_timeout(300)  # requests still in flight
                                figures.update(traffic.since(start, figures.get("ready_at")))
                                bucket = samples.setdefault(f"{name}/{visit_name}", {})
                                for key, value in figures.items():
                                    if value is not None and not key.endswith(("_at", "origin")):
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
                entry[name] = sorted({v for vs in values for v in vs})
        out[key] = entry

    def median(key: str, name: str = "ready") -> float | None:
        return out.get(key, {}).get(name, {}).get("median")

    ratios = {
        "game first / bare-pyodide first (target ≤ 0.25)": ("game/first", "bare-pyodide/first"),
        "game first / bare-mpy first (target ≤ 2.5)": ("game/first", "bare-mpy/first"),
        "game repeat / bare-pyodide repeat (target ≤ 0.15)": ("game/repeat", "bare-pyodide/repeat"),
        "game reload / bare-pyodide reload": ("game/reload", "bare-pyodide/reload"),
        "embeds first, all three / bare-pyodide first (target ≤ 0.4)": ("embeds/first", "bare-pyodide/first"),
    }
    out["ratios"] = {label: round(a / b, 3) for label, (x, y) in ratios.items()
                     if (a := median(x)) and (b := median(y))}
    for visit in ("first", "repeat", "reload"):  # the computer ready, against Pyodide's own start
        a, b = median(f"game-ai/{visit}", "ai"), median(f"bare-pyodide/{visit}")
        if a and b:
            target = " (target ≤ 1.15)" if visit != "reload" else ""
            out["ratios"][f"computer ready {visit} / bare-pyodide {visit}{target}"] = round(a / b, 3)
        site = median(f"bare-pyodide-site/{visit}")
        if a and site:
            out["ratios"][f"computer ready {visit} / bare-pyodide-site {visit}"] = round(a / site, 3)
        a = median(f"game-ai-no-sw/{visit}", "ai")
        if a and b:
            out["ratios"][f"computer ready without service worker {visit} / bare-pyodide {visit}"] = round(a / b, 3)
    return out


def table(result: dict) -> str:
    rows = ["| page / visit | board drawn | interactive | (min–max) | computer ready | computer's placement |"
            " gzip before interactive | gzip, whole visit | requests | Pyodide files |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]

    def seconds(figures: dict, name: str) -> str:
        f = figures.get(name)
        return f"{f['median'] / 1000:.2f} s" if f else "–"

    keys = [k for k in result if "/" in k]
    visits = ("first", "repeat", "reload")
    for key in sorted(keys, key=lambda k: (visits.index(k.split("/")[1]), list(PAGES).index(k.split("/")[0])
                                           if k.split("/")[0] in PAGES else 99, k)):
        f = result[key]
        spread = f"{f['ready']['min'] / 1000:.2f}–{f['ready']['max'] / 1000:.2f} s" if "ready" in f else "–"
        placed = f"{f['placement']['median'] / 1000:.3f} s (max {f['placement']['max'] / 1000:.3f})" \
            if "placement" in f else "–"
        rows.append(f"| {key} | {seconds(f, 'board')} | {seconds(f, 'ready')} | {spread} | {seconds(f, 'ai')} | "
                    f"{placed} | "
                    f"{f['gzip_before_ready']['median'] / 1e3:.0f} KB | {f['gzip']['median'] / 1e6:.2f} MB | "
                    f"{f['requests']['median']:.0f} | {len(f.get('pyodide_files', []))} |")
    notes = [f"{label}: {value:.2f}" for label, value in result.get("ratios", {}).items()]
    notes += [f"{key}: the computer started from its snapshot in {sum(f['from_snapshot']['values']):.0f} of "
              f"{f['from_snapshot']['n']}" for key in keys if "from_snapshot" in (f := result[key])]
    return "\n".join(rows + [""] + notes)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs (fresh profiles) per page (default 3)")
    parser.add_argument("--variants", action="store_true",
                        help="also the game page without service worker, and without service worker and cache "
                             "headers, and the game against the computer without service worker")
    parser.add_argument("--pages", help="only these pages, comma-separated (names as in the table, variants too)")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON to this file")
    args = parser.parse_args(argv)
    samples, built = run(args.runs, args.variants, set(args.pages.split(",")) if args.pages else None)
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
