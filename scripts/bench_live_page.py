#!/usr/bin/env python3
"""Live rooms at the page (part of ``make bench-live``; alone: ``python scripts/bench_live_page.py``).

Headless Chromium (the tests' launch options) on the page served by ``yinsh.serve`` (the
repository's root as static files) and a local nats-server, on this machine. Each figure is
printed with its run count and its target; a page that never reaches a state counts as a
failure after a deadline (the run never hangs):

- **bytes a hotseat game loads for live play**: every response of a game at one device (two
  placements) whose URL is live play's (the room's modules, nats.js, the key helper, live.json).
- **move, click to drawn**: two pages in one room play the first plies of a real game by clicks;
  for each move, the time from the mover's click (its ``click`` event on the board) to the next
  animation frame after the other page's ``#board[data-record]`` shows it. Both pages run in one
  browser, on one clock (``performance.timeOrigin + performance.now()``). Target p95 <= 100 ms.
- **back in the seat after a reload**: a player reloads mid-game; the time from the page's
  ``yinsh:ready`` mark (interactive) to ``#board`` showing their seat and the whole game.
- **a flooded room**: a hostile client stores ``--flood`` junk messages in the room (half not
  JSON, half well-formed moves signed by a key that holds no seat, each a signature to verify);
  the time from interactive to the seat and the whole game after a reload, as above.
- **a move made during an offline spell** (``--offline-spells``, 20): in a started game, the page
  not to move goes offline (``BrowserContext.set_offline(True)``), the other moves by clicks,
  ``--offline-seconds`` (5) later the first comes back (``set_offline(False)``); the time from
  its return to the next animation frame after its ``#board[data-record]`` shows the move. Both
  ends are read on that page's clock: its ``performance.timeOrigin + performance.now()`` taken
  by an ``evaluate`` right after ``set_offline(False)`` returns (so the network is on by then;
  the figure may miss at most the call's own return trip, which is printed beside it), and the
  frame's, as for a click. The pages take turns going offline (the one that is not to move).
  Target p95 <= 1 s; a move not shown within 30 s is counted as never arrived.
- **rooms started with the link opened at once** (``--at-once``, 50): a fresh pair of browser
  contexts each try (an empty cache and storage, as two new visitors: what a real link opened
  at once meets; the cost is printed); A opens ``index.html?live=new&relay=ws://…``, and the
  moment ``#live-link`` names a room and ``.live-share`` is shown, B opens that link, presses
  Join as soon as it shows, then Start. A success: both pages at ``data-live=playing`` with
  ``data-seat`` white and black within 20 s of B opening the link. Target every try; for a
  failure, what each page showed (``#live-state``, the seats, the message, the console).
- **the host shown connected on the joiner's page**, in each of those rooms: the time from B's
  ``yinsh:ready`` mark to B's ``#live-seats`` first naming the host without "disconnected",
  and whether it said "disconnected" at some point (watched until both pages play and at
  least ``--watch-seats`` s after B's mark). Target <= 1 s.
- ``--built-site N``: N more tries at once on the built site (``yinsh build-site``, served as
  plain static files; its build costs a minute or so), as above.

Figures go to standard output: a benchmark, never a test. ``--quick``: small counts, a fast check.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import http.server
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browser import RETURNING_VISITOR, launch_options  # noqa: E402

from yinsh import pgn  # noqa: E402
from yinsh.board import point_name  # noqa: E402
from yinsh.game import Game, Move  # noqa: E402
from yinsh.live.client import connect, ensure_stream  # noqa: E402
from yinsh.live.server import Relay, free_port  # noqa: E402
from yinsh.serve import make_server  # noqa: E402

LIVE_URL = re.compile(r"/(yinsh/live/|yinsh/page/live\.py|yinsh/web/live\.py|static/vendor/nats/|"
                      r"static/js/live\.js|live\.json)")
CLICKS = """() => { window.__clicked = 0; document.getElementById('board').addEventListener('click',
  () => { window.__clicked = performance.timeOrigin + performance.now(); }, true); }"""
DRAWN = """r => {
  window.__drawn = 0;
  const board = document.getElementById('board');
  const seen = () => requestAnimationFrame(() => { window.__drawn = performance.timeOrigin + performance.now(); });
  const watch = new MutationObserver(() => { if (board.dataset.record === r) { watch.disconnect(); seen(); } });
  watch.observe(board, {attributes: true, attributeFilter: ['data-record']});
}"""
SEATED = """([seat, record]) => new Promise(done => {
  const check = () => { const b = document.getElementById('board');
    if (b && b.dataset.seat === seat && b.dataset.record === record && b.dataset.live === 'playing') {
      const ready = performance.getEntriesByName('yinsh:ready')[0];
      done(performance.now() - (ready ? ready.startTime : 0)); return true; } return false; };
  if (!check()) { const watch = new MutationObserver(() => { if (check()) watch.disconnect(); });
    watch.observe(document.documentElement, {attributes: true, subtree: true}); }
})"""
NOW = "performance.timeOrigin + performance.now()"
LIVE_STATES = """() => {
  window.__lives = [];
  const board = document.getElementById('board');
  const note = () => { const live = board.dataset.live || '', last = window.__lives[window.__lives.length - 1];
    if (!last || last[1] !== live) window.__lives.push([performance.timeOrigin + performance.now(), live]); };
  note();
  new MutationObserver(note).observe(board, {attributes: true, attributeFilter: ['data-live']});
}"""
"""JavaScript: note every change of ``#board[data-live]`` from now on (``window.__lives``: [time, state])."""
SEAT_LOG = """(() => {
  window.__seats = [];
  let last = null;
  const note = () => {
    const list = document.getElementById('live-seats');
    if (!list) return;
    const labels = Array.from(list.querySelectorAll('li'), li => li.textContent);
    const key = JSON.stringify(labels);
    if (key !== last) { last = key; window.__seats.push([performance.now(), labels]); }
  };
  new MutationObserver(note).observe(document, {childList: true, subtree: true, characterData: true});
})();"""
"""A context's init script: every change of ``#live-seats``' labels, from the page's start
(``window.__seats``: [ms on the page's clock, labels]). Only the contexts that measure seats
run it (it is called for every change of the page's DOM)."""
SHOWN = """() => {
  const text = sel => { const e = document.querySelector(sel); return e ? e.textContent.trim() : null; };
  const board = document.getElementById('board');
  const share = document.querySelector('#live .live-share');
  return {live: board ? board.dataset.live || '' : null, seat: board ? board.dataset.seat || '' : null,
          state: text('#live-state'), message: text('#live-message'),
          seats: Array.from(document.querySelectorAll('#live-seats li'), li => li.textContent),
          share: share ? !share.hidden : null, href: document.getElementById('live-link')?.getAttribute('href'),
          ready: performance.getEntriesByName('yinsh:ready').length > 0, url: location.href};
}"""
"""JavaScript: what a page shows of its room (for a failure's report)."""
LINKED = """() => {
  const a = document.getElementById('live-link'), s = document.querySelector('#live .live-share');
  return !!(a && /[?&]live=(?!new\\b)[A-Za-z0-9_-]{8,}/.test(a.getAttribute('href') || '') && s && !s.hidden
            && s.offsetParent !== null); }"""
PLAYING = """s => { const b = document.getElementById('board');
  return b && b.dataset.live === 'playing' && b.dataset.seat === s; }"""
CLICKED_GAME = Game.from_record(pgn.split_records((ROOT / "tests" / "data" / "games.ygn").read_text(encoding="utf-8"),
                                                  None, None)[3])
"""The game click to drawn plays (its first 18 plies: a removal follows; as before, so the figures compare)."""
NEVER_MS = 30_000
"""An offline spell's move not shown within this long after the page came back never arrived."""
AT_ONCE_MS = 20_000
"""A room opened at once must play on both pages within this long after B opens the link."""
PAGE_MS = 60_000
"""The longest wait for a page to start or a room to open outside the timed figures."""


def _clicks(page: Any, move: Move) -> None:
    """The clicks of a placement or a ring move (the plies this benchmark plays have no removal)."""
    assert move.target is not None
    if move.kind == "place":
        page.click(f'#board [data-point="{point_name(move.target)}"]')
    else:
        assert move.source is not None
        page.click(f'#board [data-point="{point_name(move.source)}"]')
        page.click(f'#board [data-point="{point_name(move.target)}"]')


def _seated_after_reloads(page: Any, reloads: int, record: str) -> list[float]:
    """Ms after interactive until Black's page, reloaded ``reloads`` times, is back in its seat
    with the whole game (``record``); its click hook set again after."""
    seated = []
    for _ in range(reloads):
        page.reload()
        seated.append(float(page.evaluate(SEATED, ["black", record])))
    page.evaluate(CLICKS)
    return seated


def pct(values: list[float], p: float) -> float:
    """The ``p``-th percentile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def spread(values: list[float], unit: str = "ms") -> str:
    """``p50 …, p95 …, max …`` of ``values`` (ms), or ``none measured``."""
    if not values:
        return "none measured"
    if unit == "s":
        return (f"p50 {statistics.median(values) / 1000:.2f} s, p95 {pct(values, 95) / 1000:.2f} s, "
                f"max {max(values) / 1000:.2f} s")
    return f"p50 {statistics.median(values):.0f} ms, p95 {pct(values, 95):.0f} ms, max {max(values):.0f} ms"


def _flood(relay: Relay, room: str, count: int) -> None:
    """A hostile client stores ``count`` junk messages in ``room``'s game subject."""
    from yinsh.live.client import Keys
    from yinsh.live.protocol import Draft, game_subject

    async def run() -> None:
        nc = await connect(relay.url)
        js = nc.jetstream()
        stranger = Keys()
        for i in range(count):
            if i % 2:
                data = stranger.message(Draft(room, "move", 1000 + i, [("ply", i), ("move", "e4"), ("think", 0)]))
            else:
                data = b"junk %d" % i
            await js.publish(game_subject(room), data)
        await nc.close()

    asyncio.run(run())


def _aside(target: Any) -> None:
    """Run ``target()`` to its end on a thread of its own (Playwright's sync API keeps an event
    loop running on this thread, and the relay's clients are asyncio's)."""
    worker = threading.Thread(target=target)
    worker.start()
    worker.join()


def _games(plies: int) -> list[Game]:
    """Games of tests/data with at least ``plies`` moves before their first removal (the clicks
    here play no removal), the longest such first; all of them when none has that many."""
    records = pgn.split_records((ROOT / "tests" / "data" / "games.ygn").read_text(encoding="utf-8"), None, None)
    games = [Game.from_record(record) for record in records]
    games.sort(key=lambda g: -len(_plain(g)))
    return [g for g in games if len(_plain(g)) >= plies] or games


def _plain(game: Game) -> list[Move]:
    """The moves of ``game`` before its first removal."""
    out = []
    for move in game.moves:
        if move.before or move.after or move.kind not in ("place", "move"):
            break
        out.append(move)
    return out


@dataclass
class Person:
    """A browser context with one page, its person's name kept for live rooms, and its console."""

    context: Any
    page: Any
    name: str
    console: list[str] = field(default_factory=list)

    def close(self) -> None:
        try:
            self.context.close()
        except Exception:  # already gone with the browser: nothing to close
            pass

    def shown(self) -> dict[str, Any]:
        """What the page shows of its room (``{}`` if it cannot say)."""
        try:
            return dict(self.page.evaluate(SHOWN))
        except Exception as exc:
            return {"error": str(exc).splitlines()[0]}


class Browser:
    """One headless Chromium; :meth:`person` makes a fresh context in it."""

    def __init__(self, playwright: Any) -> None:
        self.browser = playwright.chromium.launch(**launch_options())

    def person(self, name: str, seats_log: bool = False) -> Person:
        context = self.browser.new_context(viewport={"width": 1000, "height": 800})
        context.add_init_script(RETURNING_VISITOR)
        context.add_init_script(f"localStorage.setItem('yinsh:live-name', {json.dumps(name)})")
        if seats_log:
            context.add_init_script(SEAT_LOG)
        page = context.new_page()
        person = Person(context, page, name)
        started = time.monotonic()

        def note(message: Any) -> None:
            if message.type in ("error", "warning"):  # the page's own warn() writes warnings
                person.console.append(f"{time.monotonic() - started:6.2f} s {message.type}: {message.text[:300]}")
        page.on("console", note)
        page.on("pageerror", lambda error: person.console.append(f"pageerror: {error}"))
        return person

    def close(self) -> None:
        self.browser.close()


def _left_ms(deadline: float) -> float:
    """Ms left until ``deadline`` (``time.monotonic()``), at least 1 (Playwright's 0 is no limit)."""
    return max(1.0, (deadline - time.monotonic()) * 1000)


@dataclass
class Try:
    """One room opened with its link opened at once (see the module's docstring)."""

    started: bool = False
    why: str = ""
    host_link_s: float = 0.0  # A's goto to its link shown
    play_s: float = 0.0  # B's goto to both pages playing
    host_shown_ms: float | None = None  # B's yinsh:ready to the host first shown, not disconnected
    host_settled_ms: float | None = None  # … to the host shown so for good (after any "disconnected")
    said_disconnected: bool = False
    seat_labels: list[list[str]] = field(default_factory=list)  # B's seats as they changed
    shown: dict[str, dict[str, Any]] = field(default_factory=dict)
    console: dict[str, list[str]] = field(default_factory=dict)


def open_room(ana: Person, ben: Person, url: str, limit_ms: float = AT_ONCE_MS) -> Try:
    """Ana opens a new room at ``url``; the moment her page shows its link, Ben opens it, joins
    and starts. ``limit_ms``: the time allowed from Ben's opening to both pages playing."""
    attempt = Try()
    began = time.monotonic()
    try:
        ana.page.goto(url, timeout=PAGE_MS)
        ana.page.wait_for_function(LINKED, timeout=PAGE_MS)
    except Exception as exc:
        attempt.why = f"A's link never shown: {str(exc).splitlines()[0]}"
        attempt.shown = {"A": ana.shown()}
        return attempt
    link = ana.page.get_attribute("#live-link", "href") or ""
    attempt.host_link_s = time.monotonic() - began
    opened = time.monotonic()
    deadline = opened + limit_ms / 1000
    step = "open the link"
    try:
        ben.page.goto(link, timeout=_left_ms(deadline))
        step = "press Join"
        ben.page.locator('#live [data-action="live-join"]').click(timeout=_left_ms(deadline))
        step = "press Start"
        ben.page.locator('#live [data-action="live-start"]').click(timeout=_left_ms(deadline))
        step = "play (Ben)"
        ben.page.wait_for_function(PLAYING, arg="black", timeout=_left_ms(deadline))
        step = "play (Ana)"
        ana.page.wait_for_function(PLAYING, arg="white", timeout=_left_ms(deadline))
        attempt.started = True
        attempt.play_s = time.monotonic() - opened
    except Exception as exc:
        attempt.why = f"{step}: {str(exc).splitlines()[0]}"
    if not attempt.started:
        attempt.shown = {"A": ana.shown(), "B": ben.shown()}
    return attempt


def host_on_joiner(ben: Person, host: str, watch_s: float) -> tuple[float | None, float | None, bool, list]:
    """From Ben's seats log (:data:`SEAT_LOG`), after waiting until ``watch_s`` s past his
    ``yinsh:ready`` mark: ms from the mark to the host ``host`` first shown without
    "disconnected", to their being shown so for good, whether "disconnected" was shown, the labels."""
    ready = ben.page.evaluate("performance.getEntriesByName('yinsh:ready')[0]?.startTime ?? null")
    if ready is None:
        return None, None, False, []
    now = float(ben.page.evaluate("performance.now()"))
    if now < ready + watch_s * 1000:
        ben.page.wait_for_timeout(ready + watch_s * 1000 - now)
    log = ben.page.evaluate("window.__seats || []")
    first = settled = None
    disconnected = False
    for at, labels in log:
        seat = next((label for label in labels if label.startswith(host)), None)
        if seat is None:
            continue
        if "disconnected" in seat:
            disconnected = True
            settled = None
        else:
            if first is None:
                first = float(at) - float(ready)
            if settled is None:
                settled = float(at) - float(ready)
    return first, settled, disconnected, [labels for _, labels in log]


def at_once(browser: Browser, url: str, tries: int, watch_s: float, label: str) -> None:
    """``tries`` rooms opened at once at ``url`` (fresh contexts each), and the host as the
    joiner's page shows them; the figures printed."""
    results: list[Try] = []
    costs: list[float] = []
    for i in range(tries):
        made = time.monotonic()
        ana, ben = browser.person("Ana"), browser.person("Ben", seats_log=True)
        costs.append(time.monotonic() - made)
        try:
            attempt = open_room(ana, ben, url)
            if attempt.started or attempt.shown.get("B", {}).get("ready"):
                first, settled, disconnected, labels = host_on_joiner(ben, "Ana", watch_s)
                attempt.host_shown_ms, attempt.host_settled_ms = first, settled
                attempt.said_disconnected, attempt.seat_labels = disconnected, labels
            if not attempt.started:
                attempt.console = {"A": ana.console[-12:], "B": ben.console[-12:]}
            results.append(attempt)
            mark = "ok" if attempt.started else "FAILED"
            host = "never" if attempt.host_shown_ms is None else f"{attempt.host_shown_ms:.0f} ms"
            print(f"  {label} try {i + 1}: {mark}, link {attempt.host_link_s:.2f} s, playing "
                  f"{attempt.play_s:.2f} s after B opened it, host shown {host} after B's ready"
                  f"{' (said disconnected first)' if attempt.said_disconnected else ''}", flush=True)
        finally:
            ana.close()
            ben.close()
    started = [r for r in results if r.started]
    print(f"page: rooms started with the link opened at once, {label}: {len(started)} of {tries} started "
          f"(both playing, seats white and black, within {AT_ONCE_MS / 1000:.0f} s of B opening the link; "
          f"target {tries} of {tries}); A's link shown {spread([r.host_link_s * 1000 for r in results], 's')} "
          f"after A opened the page; both playing {spread([r.play_s * 1000 for r in started], 's')} after B "
          f"opened the link; fresh contexts each try ({statistics.median(costs) * 1000:.0f} ms to make a pair)")
    for n, r in enumerate(results, 1):
        if not r.started:
            print(f"    try {n} failed at {r.why}")
            for who, shown in r.shown.items():
                print(f"      {who} showed: {json.dumps(shown, ensure_ascii=False)}")
            for who, lines in r.console.items():
                for line in lines:
                    print(f"      {who} console {line}")
            if r.seat_labels:
                print(f"      B's seats as they changed: {json.dumps(r.seat_labels, ensure_ascii=False)}")
    firsts = [r.host_shown_ms for r in results if r.host_shown_ms is not None]
    for_good = [r.host_settled_ms for r in results if r.host_settled_ms is not None]
    flickers = [r for r in results if r.said_disconnected]
    print(f"page: the host shown connected on the joiner's page, {label} ({len(firsts)} of {len(results)} rooms "
          f"showed it): from B's yinsh:ready to the host's seat named without \"disconnected\" "
          f"{spread(firsts)} (target <= 1 s); said \"disconnected\" at some point in {len(flickers)} of "
          f"{len(results)} (target 0), shown connected for good {spread(for_good)}")
    for r in flickers:
        print(f"    B's seats as they changed: {json.dumps(r.seat_labels, ensure_ascii=False)}")


def _start_pair(browser: Browser, url: str) -> tuple[Person, Person] | None:
    """Ana (White) and Ben (Black) in a started room at ``url`` (generous deadlines: not timed)."""
    ana, ben = browser.person("Ana"), browser.person("Ben")
    attempt = open_room(ana, ben, url, PAGE_MS)
    if not attempt.started:
        print(f"page: a room could not be started ({attempt.why}): {json.dumps(attempt.shown, ensure_ascii=False)}")
        ana.close()
        ben.close()
        return None
    return ana, ben


def offline_spells(browser: Browser, url: str, spells: int, offline_s: float) -> None:
    """``spells`` moves each made while the other page is offline for ``offline_s``; the figures printed."""
    latencies: list[float] = []
    slack: list[float] = []
    never = 0
    reconnecting = 0
    notes: list[str] = []
    pair: tuple[Person, Person] | None = None
    moves: list[Move] = []
    shown = Game()
    done = 0
    try:
        while done < spells:
            if not moves:  # a new room for a new game (the clicks here play no removal)
                if pair is not None:
                    pair[0].close()
                    pair[1].close()
                pair = _start_pair(browser, url)
                if pair is None:
                    break
                moves = _plain(_games(spells - done)[0])
                shown = Game()
            assert pair is not None
            ana, ben = pair
            move = moves.pop(0)
            mover, away = (ana, ben) if shown.to_move == "white" else (ben, ana)
            before = shown.record()
            try:
                for page in (mover, away):
                    page.page.wait_for_function("r => document.getElementById('board').dataset.record === r",
                                                arg=before, timeout=NEVER_MS)
                    page.page.wait_for_function("() => document.getElementById('board').dataset.live === 'playing'",
                                                timeout=NEVER_MS)
            except Exception as exc:
                notes.append(f"spell {done + 1}: the pages not in step before it ({str(exc).splitlines()[0]}): "
                             f"{json.dumps({'mover': mover.shown(), 'away': away.shown()}, ensure_ascii=False)}")
                moves = []  # a new room
                continue
            shown.play(str(move))
            away.context.set_offline(True)
            went = time.monotonic()
            away.page.evaluate(DRAWN, shown.record())
            away.page.evaluate(LIVE_STATES)
            _clicks(mover.page, move)
            mover.page.wait_for_function("r => document.getElementById('board').dataset.record === r",
                                         arg=shown.record(), timeout=NEVER_MS)
            time.sleep(offline_s)  # the spell: ``offline_s`` after the move was made (the mover shows it)
            asked = float(away.page.evaluate(NOW))
            away.context.set_offline(False)
            back = float(away.page.evaluate(NOW))
            offline_for = time.monotonic() - went
            slack.append(back - asked)
            done += 1
            try:
                away.page.wait_for_function("window.__drawn > 0", timeout=NEVER_MS)
                latencies.append(float(away.page.evaluate("window.__drawn")) - back)
                outcome = f"shown {latencies[-1]:.0f} ms after back"
            except Exception:
                never += 1
                outcome = f"NOT shown within {NEVER_MS / 1000:.0f} s"
                notes.append(f"spell {done}: not shown within {NEVER_MS / 1000:.0f} s: "
                             f"{json.dumps(away.shown(), ensure_ascii=False)}; console: {away.console[-6:]}")
                moves = []  # this room is out of step: a new one
            lives = away.page.evaluate("window.__lives || []")
            if any(state == "reconnecting" for _, state in lives):
                reconnecting += 1
            print(f"  offline spell {done}: {away.name} offline {offline_for:.2f} s, {outcome}; its data-live: "
                  + " → ".join(f"{state} {(at - back) / 1000:+.2f} s" for at, state in lives), flush=True)
    finally:
        if pair is not None:
            pair[0].close()
            pair[1].close()
    print(f"page: a move made during a {offline_s:.0f} s offline spell, shown after the connection returns "
          f"({done} spells, the pages taking turns): {spread(latencies)} after set_offline(False) "
          f"(target p95 <= 1 s); never arrived within {NEVER_MS / 1000:.0f} s: {never}; the page said "
          f"Reconnecting in {reconnecting} of {done}; the clock read {spread(slack)} after the call's request")
    for note in notes:
        print(f"    {note}")


def page_figures(plies: int = 30, reloads: int = 5, tmp: Path | None = None, flood: int = 500,
                 spells: int = 20, offline_s: float = 5.0, tries: int = 50, watch_s: float = 4.0,
                 built_tries: int = 0) -> None:
    """Run the page's measurements (a count of 0 leaves one out) and print their figures."""
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="yinsh-bench-page-")) if tmp is None else tmp
    relay = Relay(folder / "page-relay", ws_port=free_port()).start()

    def stream() -> None:
        async def run() -> None:
            nc = await connect(relay.url)
            await ensure_stream(nc)
            await nc.close()
        asyncio.run(run())

    _aside(stream)
    server = make_server(ROOT, 0, host="127.0.0.1", quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    new_room = f"{base}/index.html?live=new&relay={relay.ws_url}"
    site: http.server.ThreadingHTTPServer | None = None
    print(f"page: load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the start", flush=True)
    try:
        with sync_playwright() as playwright:
            browser = Browser(playwright)
            try:
                if plies or reloads or flood:
                    _hotseat_and_clicks(browser, base, new_room, relay, plies, reloads, flood)
                if spells:
                    offline_spells(browser, new_room, spells, offline_s)
                if tries:
                    at_once(browser, new_room, tries, watch_s, "development page")
                if built_tries:
                    site, site_url = _built_site(folder)
                    at_once(browser, f"{site_url}/index.html?live=new&relay={relay.ws_url}", built_tries, watch_s,
                            "built site")
            finally:
                browser.close()
    finally:
        print(f"page: load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end", flush=True)
        server.shutdown()
        server.server_close()
        if site is not None:
            site.shutdown()
            site.server_close()
        relay.stop()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """The standard library's static server, without its log lines."""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def _built_site(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    """The built site in ``folder``, served as plain static files (the standard library's
    server); the server and its URL."""
    from yinsh.site.build import build_site

    began = time.monotonic()
    build_site(folder / "dist")
    print(f"page: the site built in {time.monotonic() - began:.1f} s", flush=True)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(_QuietHandler, directory=str(folder / "dist")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def _hotseat_and_clicks(browser: Browser, base: str, new_room: str, relay: Relay, plies: int, reloads: int,
                        flood: int) -> None:
    """The first figures: a hotseat game's bytes, click to drawn, reloads, the flooded room."""
    solo = browser.person("Solo")
    loaded: list[tuple[str, int]] = []
    solo.page.on("response", lambda r: loaded.append((r.url, len(r.body()) if r.ok and LIVE_URL.search(r.url) else 0)))
    solo.page.goto(f"{base}/index.html")
    solo.page.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=PAGE_MS)
    solo.page.click('#board [data-point="e3"]')
    solo.page.click('#board [data-point="a5"]')
    solo.page.wait_for_function("document.getElementById('board').dataset.record === '1.e3 2.a5'")
    live = [(url, size) for url, size in loaded if LIVE_URL.search(url)]
    print(f"page: a hotseat game loads {sum(s for _, s in live)} bytes for live play "
          f"({len(live)} requests; {len(loaded)} requests in all; 1 game; target 0)")
    solo.close()

    pair = _start_pair(browser, new_room)
    if pair is None:
        return
    ana, ben = pair
    try:
        for person in (ana, ben):
            person.page.evaluate(CLICKS)
        shown = Game()
        latencies = []
        for move in _plain(CLICKED_GAME)[:plies]:
            mover, other = (ana, ben) if shown.to_move == "white" else (ben, ana)
            mover.page.wait_for_function("r => document.getElementById('board').dataset.record === r",
                                         arg=shown.record(), timeout=NEVER_MS)
            shown.play(str(move))
            other.page.evaluate(DRAWN, shown.record())
            _clicks(mover.page, move)
            other.page.wait_for_function("window.__drawn > 0", timeout=NEVER_MS)
            latencies.append(float(other.page.evaluate("window.__drawn"))
                             - float(mover.page.evaluate("window.__clicked")))
        if latencies:
            print(f"page: a move, click to drawn on the other page ({len(latencies)} moves): "
                  f"{spread(latencies)} (target p95 <= 100 ms)")
        if reloads:
            seated = _seated_after_reloads(ben.page, reloads, shown.record())
            print(f"page: back in the seat after a reload, the game whole ({reloads} reloads, ply {shown.ply}): "
                  f"median {statistics.median(seated):.0f} ms, max {max(seated):.0f} ms after interactive "
                  "(target <= 1.5 s)")
            if flood:
                link = ana.page.get_attribute("#live-link", "href") or ""
                room = link.split("live=")[1].split("&")[0]
                _aside(functools.partial(_flood, relay, room, flood))
                flooded = _seated_after_reloads(ben.page, reloads, shown.record())
                print(f"page: the same after {flood} junk messages stored in the room ({reloads} reloads): "
                      f"median {statistics.median(flooded):.0f} ms, max {max(flooded):.0f} ms after interactive "
                      "(target <= 1.5 s)")
    finally:
        ana.close()
        ben.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=30, help="moves played by clicks (default 30; 0: none)")
    parser.add_argument("--reloads", type=int, default=5, help="reloads mid-game (default 5; 0: none)")
    parser.add_argument("--flood", type=int, default=500,
                        help="junk messages a hostile client stores in the room before reloads (default 500; 0: none)")
    parser.add_argument("--offline-spells", type=int, default=20,
                        help="moves made while the other page is offline (default 20; 0: none)")
    parser.add_argument("--offline-seconds", type=float, default=5.0, help="an offline spell's length (default 5)")
    parser.add_argument("--at-once", type=int, default=50,
                        help="rooms whose link is opened at once, fresh contexts each (default 50; 0: none)")
    parser.add_argument("--watch-seats", type=float, default=4.0,
                        help="how long after the joiner's page is interactive its seats are watched (default 4 s)")
    parser.add_argument("--built-site", type=int, default=0,
                        help="rooms opened at once on the built site too (default 0: the site is not built)")
    parser.add_argument("--quick", action="store_true",
                        help="a fast check: 6 plies, 2 reloads, a flood of 50, 3 offline spells, 5 rooms at once")
    args = parser.parse_args()
    if args.quick:
        args.plies, args.reloads, args.flood, args.offline_spells, args.at_once = 6, 2, 50, 3, 5
    page_figures(args.plies, args.reloads, flood=args.flood, spells=args.offline_spells,
                 offline_s=args.offline_seconds, tries=args.at_once, watch_s=args.watch_seats,
                 built_tries=args.built_site)


if __name__ == "__main__":
    main()
