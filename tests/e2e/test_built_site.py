"""The built site (``yinsh build-site``) in the browser, served alone from its own folder.

- a game by clicks (placements and a ring move), the folder served by Python's plain
  ``http.server`` (any static server will do), with every request answered by the site
  itself: no 404, no source map, nothing off the origin;
- offline: after a first visit the service worker holds the release (a game between people
  fetches nothing of Pyodide); with the server stopped and the browser offline, a reload gives
  a playable page and the embed draws; once the computer has played, it answers offline too;
- a new release: the next visit installs it beside the old one, and once no tab runs the
  old one it takes over and the old cache is gone; or at once, from the page's "A new version
  is ready — Reload" offer;
- retiring the offline copy: a host that replaces sw.js with the kill switch of
  docs/HOSTING.md, or removes it, leaves no copy behind;
- a diagram in a tutorial on another site keeps no offline copy and logs nothing.

Each test has its own server on its own copy of the site, so stopping one or rebuilding
another never disturbs the rest.
"""

from __future__ import annotations

import functools
import http.server
import json
import posixpath
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from browser import RETURNING_VISITOR
from pages import EARLY_WORKER_TAKEN_JS, is_offsite, origin
from test_embed import tutorial_on

from yinsh.game import Game
from yinsh.render import static_board_svg
from yinsh.serve import KILL_SWITCH_SW, make_server
from yinsh.site import build_site

BOOT_TIMEOUT_MS = 60_000
AI_TIMEOUT_MS = 90_000
SW_TIMEOUT_S = 60
# What only a live room loads (its bundle, the NATS client, the key helper, the relay's name).
LIVE_REQUEST = re.compile(r"/(live\.bundle|live\.json|static/js/live\.js|static/vendor/nats[/-])")
NOTATION_EXAMPLE = ["e3", "a5", "b5", "c6", "d6", "e4", "h7", "g2", "g3", "g8"]

SW_STATE = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  const keys = (await caches.keys()).filter(k => k.startsWith('yinsh:'));
  return {
    controlled: !!navigator.serviceWorker.controller,
    active: registration && registration.active ? registration.active.state : null,
    waiting: !!(registration && registration.waiting),
    caches: keys,
    build: document.querySelector('meta[name=yinsh-build]')?.content ?? null,
  };
}"""


class Site:
    """A built site served from its folder by ``yinsh.serve`` on a port of its own."""

    def __init__(self, directory: Path, release: str = "", *, plain: bool = False, relay: str = "") -> None:
        self.directory = directory
        self.summary = build_site(directory, release=release, relay=relay)
        if plain:  # the standard library's server: its own MIME types, no cache headers
            handler = functools.partial(_QuietPlainHandler, directory=str(directory))
            self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        else:
            self.server = make_server(directory, 0, quiet=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        self.running = True

    def rebuild(self, release: str) -> None:
        self.summary = build_site(self.directory, release=release)

    def stop(self) -> None:
        if self.running:
            self.server.shutdown()
            self.server.server_close()
            self.running = False


class _QuietPlainHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


class Recorder:
    """What went wrong in a browser context: console errors, page errors, failed or foreign requests."""

    def __init__(self, context: Any, site_url: str) -> None:
        self.context = context
        self.origin = origin(site_url)
        self.problems: list[str] = []
        self.requests: list[str] = []
        context.on("request", self._request)
        context.on("response", lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status}: {r.url}"))
        context.on("requestfailed", lambda r: self.problems.append(f"request failed: {r.url} ({r.failure})"))

    def _request(self, request: Any) -> None:
        self.requests.append(request.url)
        if is_offsite(request.url, self.origin):
            self.problems.append(f"off-origin request: {request.url}")

    def page(self) -> Any:
        page = self.context.new_page()
        page.on("console", lambda m: m.type == "error" and self.problems.append(f"console error: {m.text}"))
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        return page

    def check(self) -> None:
        assert not self.problems, "\n".join(self.problems)


def wait_ready(page: Any, recorder: Recorder) -> None:
    for _ in range(BOOT_TIMEOUT_MS // 100):
        if page.evaluate("document.documentElement.hasAttribute('data-yinsh-ready')"):
            return
        if recorder.problems:
            break
        page.wait_for_timeout(100)
    pytest.fail(f"the page did not become ready: {recorder.problems or 'timeout'}", pytrace=False)


def wait_sw(page: Any, condition: Any, what: str) -> dict:
    deadline = time.monotonic() + SW_TIMEOUT_S
    while True:
        state = page.evaluate(SW_STATE)
        if condition(state):
            return state
        if time.monotonic() > deadline:
            pytest.fail(f"the service worker never got {what}: {state}", pytrace=False)
        page.wait_for_timeout(200)


def record(page: Any) -> str:
    return page.get_attribute("#board", "data-record") or ""


def click(page: Any, point: str) -> None:
    page.click(f'#board [data-point="{point}"]')


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    served = Site(tmp_path / "dist")
    try:
        yield served
    finally:
        served.stop()


@pytest.fixture
def context(chromium_browser: Any) -> Iterator[Any]:
    context = chromium_browser.new_context(viewport={"width": 1000, "height": 800})
    context.add_init_script(RETURNING_VISITOR)
    try:
        yield context
    finally:
        context.close()


def test_a_diagram_in_a_tutorial_on_another_site_keeps_no_copy_and_logs_nothing(
        site: Site, context: Any, tmp_path: Path) -> None:
    """The page holding a frame decides about the offline copy: a tutorial on another site
    must not make its readers keep this release (and its frames may be denied storage, as
    here, where registering one was refused with a warning)."""
    folder = tmp_path / "tutorial"
    folder.mkdir()
    with tutorial_on(folder, site.url, "record=e5%20e4&steps=1") as tutorial:
        recorder = Recorder(context, site.url)
        page = recorder.page()
        said: list[str] = []
        page.on("console", lambda m: m.type in ("warning", "error") and said.append(f"{m.type}: {m.text}"))
        page.goto(tutorial)
        frame = page.locator("iframe").element_handle().content_frame()
        wait_ready(frame, recorder)
        assert record(frame) == "1.e5 2.e4"
        frame.click('button[data-step="first"]')
        frame.wait_for_function("() => document.getElementById('board').dataset.ply === '0'", timeout=5_000)
        frame.wait_for_timeout(1000)  # what a page does once interactive (its offline copy) has happened
        assert said == []
        recorder.problems = [p for p in recorder.problems if origin(tutorial) not in p]  # the tutorial's own
        recorder.check()


def test_built_site_alone_plays_a_game(tmp_path: Path, context: Any) -> None:
    site = Site(tmp_path / "dist", plain=True)
    try:
        _play_a_game(site, context)
    finally:
        site.stop()


def _play_a_game(site: Site, context: Any) -> None:
    recorder = Recorder(context, site.url)
    page = recorder.page()
    # The board is drawn by the HTML itself, before Python: the renderer's empty board.
    html = page.request.get(site.url).text()
    assert static_board_svg() in html
    page.goto(site.url, wait_until="commit")
    page.wait_for_selector("#board svg .yb-dots", state="attached", timeout=5_000)
    wait_ready(page, recorder)
    assert page.locator("#board [data-point]").count() == 85
    # The app's manifest joins <head> once the page is interactive, and the browser reads it.
    page.wait_for_function("() => document.head.querySelector(':scope > link[rel=manifest]')", timeout=5_000)
    assert not page.locator("#yinsh-manifest").count()
    manifest = page.evaluate("() => fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())")
    assert manifest["name"] == "YINSH"

    for n, point in enumerate(NOTATION_EXAMPLE, 1):
        click(page, point)
        page.wait_for_function("n => document.getElementById('board').dataset.record.split(' ').length >= n",
                               arg=n, timeout=5_000)
    click(page, "h7")
    click(page, "g7")
    page.wait_for_function("() => document.getElementById('board').dataset.record.endsWith('11.h7-g7')",
                           timeout=5_000)
    assert record(page) == "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8 11.h7-g7"

    recorder.check()
    served = [urlsplit(u).path for u in recorder.requests]
    assert not [p for p in served if p.endswith(".map")], "a source map was requested"
    assert not [p for p in served if "node_modules" in p or re.search(r"/static/vendor/(pyodide|pyscript)/", p)]


CACHED_WASM = """async () => {
  for (const key of await caches.keys()) {
    const cache = await caches.open(key);
    if ((await cache.keys()).some(r => r.url.endsWith('/pyodide.asm.wasm'))) return true;
  }
  return false;
}"""


def pyodide_requests(recorder: Recorder) -> list[str]:
    """Requests for a file of Pyodide's runtime (the page's and its service worker's)."""
    return [u for u in recorder.requests if "/static/vendor/pyodide" in u]


def test_offline_a_game_between_people_and_the_embed(site: Site, context: Any) -> None:
    """A first visit for a game between people fetches no file of Pyodide, not even for the
    offline copy; offline, the page plays and the embed draws."""
    recorder = Recorder(context, site.url)
    page = recorder.page()
    page.goto(site.url)
    wait_ready(page, recorder)
    state = wait_sw(page, lambda s: s["controlled"] and s["active"] == "activated", "active")
    assert state["caches"] == [f"yinsh:/:{site.summary.build}"]
    assert not pyodide_requests(recorder) and not page.evaluate(CACHED_WASM)

    site.stop()  # nothing serves the site any more …
    context.set_offline(True)  # … and the browser is offline
    page.goto(site.url + "#n=1")
    wait_ready(page, recorder)
    assert page.evaluate("document.querySelector('meta[name=yinsh-build]').content") == site.summary.build
    for n, point in enumerate(["e5", "f6", "d4"], 1):
        click(page, point)
        page.wait_for_function("n => document.getElementById('board').dataset.record.split(' ').length >= n",
                               arg=n, timeout=5_000)
    assert record(page) == "1.e5 2.f6 3.d4"
    # The embeddable diagram is part of the release too, whatever its query (a tab of its
    # own: navigating this one would abort its last requests, which the recorder reports).
    embed = recorder.page()
    embed.goto(site.url + "embed.html?record=e5%20e4&highlight=e5")
    wait_ready(embed, recorder)
    assert record(embed) == "1.e5 2.e4" and embed.locator("#board [data-point=e5]").count() == 1
    assert not pyodide_requests(recorder)
    recorder.check()


def test_offline_the_computer_plays_once_it_has_played(site: Site, context: Any) -> None:
    """The computer player's Pyodide is kept once it is used (here by a first visit that starts
    it before the service worker controls the page), and nothing of live play with it; then
    the computer answers offline and its worker starts from the offline copy."""
    recorder = Recorder(context, site.url)
    page = recorder.page()
    page.goto(site.url + "?white=human&black=ai-1")
    wait_ready(page, recorder)
    click(page, "e5")
    page.wait_for_function("() => document.getElementById('board').dataset.record.split(' ').length >= 2",
                           timeout=AI_TIMEOUT_MS)
    wait_sw(page, lambda s: s["controlled"] and s["active"] == "activated", "active")
    deadline = time.monotonic() + SW_TIMEOUT_S
    while not page.evaluate(CACHED_WASM):
        assert time.monotonic() < deadline, "the computer player's runtime was never kept offline"
        page.wait_for_timeout(200)
    assert not [u for u in recorder.requests if LIVE_REQUEST.search(u)], "a computer game loaded live play"

    site.stop()
    context.set_offline(True)
    page.goto(site.url + "?white=human&black=ai-1#n=2")
    wait_ready(page, recorder)
    page.click("#replace-dialog button[data-action=open-link]")  # a new game: the saved one may go
    click(page, "e5")
    page.wait_for_function("() => document.getElementById('board').dataset.record.split(' ').length >= 2",
                           timeout=AI_TIMEOUT_MS)
    moves = Game.from_record(record(page)).moves
    assert [str(m) for m in moves][:1] == ["e5"] and len(moves) == 2, record(page)
    # The placement came from the page itself; the worker starts offline too (its runtime
    # from the service worker's cache, the network failing).
    page.wait_for_selector("html[data-yinsh-ai-ready]", state="attached", timeout=AI_TIMEOUT_MS)
    recorder.check()


def test_a_link_naming_a_computer_starts_its_worker_as_the_page_is_parsed(site: Site, context: Any,
                                                                         chromium_browser: Any) -> None:
    """A link naming a computer: the page's head starts the computer's worker while the page's
    own Python is still held back (the worker's configuration is in the page: never asked for),
    the worker loads Pyodide and its modules from the site's origin, and the page takes it.
    A link naming two people (a browser of its own: no offline copy yet) asks for none of it."""
    recorder = Recorder(context, site.url)
    page = recorder.page()
    held: list[Any] = []
    page.route("**/micropython.wasm", lambda route: held.append(route))  # the page's MicroPython waits
    page.goto(site.url + "?white=human&black=ai-1")
    deadline = time.monotonic() + BOOT_TIMEOUT_MS / 1000
    while not (held and [u for u in recorder.requests if u.endswith("/pyodide.asm.wasm")]):
        assert time.monotonic() < deadline, f"the worker never asked for Pyodide ({len(held)} held)"
        page.wait_for_timeout(50)
    assert not page.evaluate("document.documentElement.hasAttribute('data-yinsh-ready')")
    assert not [u for u in recorder.requests if u.endswith("/worker.json")], "the page holds the configuration"
    while held:
        held.pop().continue_()
    page.unroute("**/micropython.wasm")
    wait_ready(page, recorder)
    page.wait_for_selector("html[data-yinsh-ai-ready]", state="attached", timeout=AI_TIMEOUT_MS)
    assert page.evaluate(EARLY_WORKER_TAKEN_JS)
    assert hello(page)["ok"]
    # its modules: one zip of bytecode (the build's), no source (the zip's request counted twice
    # when the service worker, installed meanwhile, passes it on)
    assert len({u for u in recorder.requests if "/worker.zip?v=" in u}) == 1
    assert not [u for u in recorder.requests if urlsplit(u).path.endswith(".py")]
    recorder.check()

    other = chromium_browser.new_context(viewport={"width": 1000, "height": 800})
    try:
        people = Recorder(other, site.url)
        two = people.page()
        two.goto(site.url + "?white=human&black=human")
        wait_ready(two, people)
        two.wait_for_timeout(300)
        assert not pyodide_requests(people) and not two.evaluate("'yinshEarlyWorker' in window")
        people.check()
    finally:
        other.close()


def test_the_offline_copy_waits_for_the_computer_the_head_started(site: Site, context: Any) -> None:
    """On a link naming a computer, the offline copy is not stored while the computer's worker
    starts (its Pyodide held back here, the page interactive): only once the worker is up."""
    recorder = Recorder(context, site.url)
    held: list[Any] = []
    holding = [True]

    def hold(route: Any) -> None:
        if holding[0]:
            held.append(route)
        else:
            route.continue_()

    context.route("**/pyodide.asm.wasm", hold)
    page = recorder.page()
    page.goto(site.url + "?white=human&black=ai-1")
    wait_ready(page, recorder)
    page.wait_for_timeout(1000)
    assert held and page.evaluate("async () => !(await navigator.serviceWorker.getRegistration())")
    assert not page.evaluate("document.documentElement.hasAttribute('data-yinsh-ai-ready')")
    holding[0] = False
    while held:
        held.pop().continue_()
    page.wait_for_selector("html[data-yinsh-ai-ready]", state="attached", timeout=AI_TIMEOUT_MS)
    wait_sw(page, lambda s: s["controlled"] and s["active"] == "activated", "active")
    recorder.check()


SNAPSHOT_PREFIX = "yinsh-pyodide-snapshot:"
SNAPSHOTS = """async () => {
  const kept = [];
  for (const name of await caches.keys()) {
    if (!name.startsWith('SNAPSHOT_PREFIX')) continue;
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const bytes = (await (await cache.match(request)).arrayBuffer()).byteLength;
      kept.push({cache: name, url: request.url, bytes});
    }
  }
  return kept;
}""".replace("SNAPSHOT_PREFIX", SNAPSHOT_PREFIX)
# A kept snapshot with its Pyodide build id (bytes 16-47 of its header) changed: another build's.
SPOIL_SNAPSHOT = """async ({cache, url}) => {
  const store = await caches.open(cache);
  const bytes = new Uint8Array(await (await store.match(url)).arrayBuffer());
  bytes[16] ^= 0xff;
  await store.put(url, new Response(bytes));
}"""


def hello(page: Any) -> dict:
    """The computer's worker's answer to the page's first call (``yinsh.web.worker.hello``)."""
    return json.loads(page.evaluate("async () => String(await window.yinshAI.hello())"))


def open_against_the_computer(recorder: Recorder, url: str) -> Any:
    page = recorder.page()
    page.goto(url)
    wait_ready(page, recorder)
    page.wait_for_selector("html[data-yinsh-ai-ready]", state="attached", timeout=AI_TIMEOUT_MS)
    # the link names a computer: its worker was started by the page's <head>, and the page took it
    assert page.evaluate(EARLY_WORKER_TAKEN_JS)
    return page


def wait_snapshot(page: Any, condition: Any, what: str) -> list[dict]:
    deadline = time.monotonic() + SW_TIMEOUT_S
    while not condition(kept := page.evaluate(SNAPSHOTS)):
        if time.monotonic() > deadline:
            pytest.fail(f"the computer's start-up snapshot was never {what}: {kept}", pytrace=False)
        page.wait_for_timeout(200)
    return kept


def test_the_computer_starts_from_its_snapshot_after_its_first_start(site: Site, context: Any) -> None:
    """The computer's first start keeps a snapshot of Pyodide's memory (a few seconds later,
    from a worker of its own), and later starts begin from it and play; a snapshot Pyodide
    refuses (here: another build's) is dropped, Pyodide starts as usual and keeps a new one."""
    recorder = Recorder(context, site.url)
    url = site.url + "?white=human&black=ai-1"
    first = open_against_the_computer(recorder, url)
    assert hello(first)["start"] == "fresh"
    (kept,) = wait_snapshot(first, bool, "kept")
    runtime = posixpath.dirname(site.summary.url_map["static/vendor/pyodide/pyodide.mjs"]).removeprefix(".")
    assert kept["cache"] == f"{SNAPSHOT_PREFIX}{runtime}/" and kept["bytes"] > 10_000_000, kept

    again = open_against_the_computer(recorder, url + "#n=2")
    assert hello(again)["start"] == "snapshot"
    record = " ".join(f"{n}.{p}" for n, p in enumerate(NOTATION_EXAMPLE, 1)) + " 11.h7-g7"
    answer = json.loads(again.evaluate("async (r) => String(await window.yinshAI.think(r, 1, 7))", record))
    assert answer["ok"] and answer["ply"] == 11, answer
    assert answer["move"] in {str(m) for m in Game.from_record(record).legal_moves()}

    again.evaluate(SPOIL_SNAPSHOT, kept)
    third = open_against_the_computer(recorder, url + "#n=3")
    assert hello(third)["start"] == "fresh"
    assert third.evaluate(SNAPSHOTS) == [], "the spoilt snapshot was kept"  # a new one comes seconds later
    wait_snapshot(third, lambda k: k == [kept], "made again")
    recorder.check()


def test_a_new_release_replaces_the_old_cache(site: Site, context: Any) -> None:
    recorder = Recorder(context, site.url)
    first = recorder.page()
    first.goto(site.url)
    wait_ready(first, recorder)
    old = wait_sw(first, lambda s: s["controlled"] and s["active"] == "activated", "active")
    assert old["build"] == site.summary.build

    site.rebuild(release="next")
    new_build = site.summary.build
    assert new_build != old["build"]
    # The next visit still gets the release it started with, while the new one installs beside it.
    second = recorder.page()
    second.goto(site.url)
    wait_ready(second, recorder)
    assert second.evaluate("document.querySelector('meta[name=yinsh-build]').content") == old["build"]
    state = wait_sw(second, lambda s: s["waiting"], "a new release waiting")
    assert sorted(state["caches"]) == sorted([f"yinsh:/:{old['build']}", f"yinsh:/:{new_build}"])
    second.wait_for_selector("html[data-yinsh-update]", state="attached", timeout=10_000)

    # Once no tab runs the old release, the new one takes over and the old cache goes.
    # (A tab opened while the old release still runs joins it, so give the closed ones a moment.)
    first.close()
    second.close()
    third = recorder.page()
    deadline = time.monotonic() + SW_TIMEOUT_S
    attempts = 0
    while True:
        third.goto("about:blank")
        third.wait_for_timeout(1000)
        third.goto(site.url)
        attempts += 1
        state = third.evaluate(SW_STATE)
        if state["build"] == new_build or time.monotonic() > deadline:
            break
    assert state["build"] == new_build, state
    wait_ready(third, recorder)
    state = wait_sw(third, lambda s: s["caches"] == [f"yinsh:/:{new_build}"], "rid of the old cache")
    assert state["controlled"]
    recorder.check()
    print(f"the new release took over on visit {attempts} after the old tabs closed")


def test_the_page_offers_a_new_release_and_reload_switches_to_it(site: Site, context: Any) -> None:
    recorder = Recorder(context, site.url)
    page = recorder.page()
    page.goto(site.url)
    wait_ready(page, recorder)
    old = wait_sw(page, lambda s: s["controlled"] and s["active"] == "activated", "active")["build"]
    assert page.locator("#update-offer").is_hidden()

    site.rebuild(release="next")
    new = site.summary.build
    page.reload()  # the offline copy answers (the old release) while the new one downloads
    wait_ready(page, recorder)
    assert page.evaluate("document.querySelector('meta[name=yinsh-build]').content") == old
    offer = page.locator("#update-offer")
    offer.wait_for(state="visible", timeout=SW_TIMEOUT_S * 1000)
    assert "A new version is ready" in offer.inner_text()
    with page.expect_navigation(timeout=SW_TIMEOUT_S * 1000):
        offer.locator("button").click()
    wait_ready(page, recorder)
    assert page.evaluate("document.querySelector('meta[name=yinsh-build]').content") == new
    state = wait_sw(page, lambda s: s["caches"] == [f"yinsh:/:{new}"], "rid of the old cache")
    assert state["controlled"] and page.locator("#update-offer").is_hidden()
    recorder.check()


NO_WORKER = """async () => ({
  registered: !!(await navigator.serviceWorker.getRegistration()),
  caches: (await caches.keys()).filter(k => k.startsWith('yinsh:')),
})"""


def _wait_retired(page: Any, what: str) -> None:
    deadline = time.monotonic() + SW_TIMEOUT_S
    while True:
        try:
            state = page.evaluate(NO_WORKER)
        except Exception:  # the page is reloading (the kill switch reloads open tabs)
            state = {"reloading": True}
        if state.get("registered") is False and not state["caches"]:
            return
        if time.monotonic() > deadline:
            pytest.fail(f"{what} left the offline copy: {state}", pytrace=False)
        page.wait_for_timeout(200)


def test_the_kill_switch_of_the_hosting_guide_retires_the_offline_copy(site: Site, context: Any) -> None:
    recorder = Recorder(context, site.url)
    page = recorder.page()
    page.goto(site.url)
    wait_ready(page, recorder)
    wait_sw(page, lambda s: s["controlled"] and s["caches"], "active")

    (site.directory / "sw.js").write_text(KILL_SWITCH_SW, encoding="utf-8")
    page.reload()  # the browser checks sw.js on navigation: the kill switch installs and runs
    _wait_retired(page, "the kill switch")
    # It reloads the open tab, which cuts that tab's downloads short: not a problem of the site.
    page.wait_for_timeout(1000)
    recorder.problems = [p for p in recorder.problems if "net::ERR_ABORTED" not in p]
    later = recorder.page()
    later.goto(site.url)
    wait_ready(later, recorder)
    assert not later.evaluate("!!navigator.serviceWorker.controller")  # the host answered, not a copy
    recorder.check()


def test_a_removed_service_worker_retires_the_offline_copy(tmp_path: Path, context: Any) -> None:
    # A plain static server: it answers a missing sw.js with a 404 (yinsh serve would answer
    # the kill switch, as for a development tree).
    site = Site(tmp_path / "dist", plain=True)
    try:
        _retire_by_removing(site, context)
    finally:
        site.stop()


def _retire_by_removing(site: Site, context: Any) -> None:
    recorder = Recorder(context, site.url)
    page = recorder.page()
    page.goto(site.url)
    wait_ready(page, recorder)
    wait_sw(page, lambda s: s["controlled"] and s["caches"], "active")

    (site.directory / "sw.js").unlink()
    page.reload()  # the copy answers once more; its check finds sw.js gone (a 404) and retires it
    page.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=BOOT_TIMEOUT_MS)
    _wait_retired(page, "removing sw.js")
    later = recorder.page()
    later.goto(site.url)
    later.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=BOOT_TIMEOUT_MS)
    assert not later.evaluate("!!navigator.serviceWorker.controller")  # the host answered, not a copy
    # the host's 404 for sw.js, and the browser's line about it, are what this test is about
    recorder.problems = [p for p in recorder.problems if not ("sw.js" in p or "status of 404" in p)]
    recorder.check()
