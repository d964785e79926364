#!/usr/bin/env python3
"""Live rooms at the page (part of ``make bench-live``; alone: ``python scripts/bench_live_page.py``).

Headless Chromium (the tests' launch options) on the page served by ``yinsh.serve`` and a local
nats-server, on this machine:

- **move, click to drawn**: two pages in one room play the first plies of a real game by clicks;
  for each move, the time from the mover's click (its ``click`` event on the board) to the next
  animation frame after the other page's ``#board[data-record]`` shows it. Both pages run in one
  browser, on one clock (``performance.timeOrigin + performance.now()``).
- **back in the seat after a reload**: a player reloads mid-game; the time from the page's
  ``yinsh:ready`` mark (interactive) to ``#board`` showing their seat and the whole game.
- **a flooded room**: a hostile client stores ``--flood`` junk messages in the room (half not
  JSON, half well-formed moves signed by a key that holds no seat, each a signature to verify);
  the time from interactive to the seat and the whole game after a reload, as above.
- **bytes a hotseat game loads for live play**: every response of a game at one device (two
  placements) whose URL is live play's (the room's modules, nats.js, the key helper, live.json).

Figures go to standard output: a benchmark, never a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browser import RETURNING_VISITOR, launch_options  # noqa: E402

from yinsh import pgn  # noqa: E402
from yinsh.board import point_name  # noqa: E402
from yinsh.game import Game  # noqa: E402
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


def _clicks(page, move) -> None:  # type: ignore[no-untyped-def]
    """The clicks of a placement or a ring move (the plies this benchmark plays have no removal)."""
    if move.kind == "place":
        page.click(f'#board [data-point="{point_name(move.target)}"]')
    else:
        page.click(f'#board [data-point="{point_name(move.source)}"]')
        page.click(f'#board [data-point="{point_name(move.target)}"]')


def _seated_after_reloads(page, reloads: int, record: str) -> list[float]:  # type: ignore[no-untyped-def]
    """Ms after interactive until Black's page, reloaded ``reloads`` times, is back in its seat
    with the whole game (``record``); its click hook set again after."""
    seated = []
    for _ in range(reloads):
        page.reload()
        seated.append(float(page.evaluate(SEATED, ["black", record])))
    page.evaluate(CLICKS)
    return seated


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


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
                data = stranger.message(Draft(room, "move", 1000 + i, [("ply", i), ("move", "e4")]))
            else:
                data = b"junk %d" % i
            await js.publish(game_subject(room), data)
        await nc.close()

    asyncio.run(run())


def page_figures(plies: int = 30, reloads: int = 5, tmp: Path | None = None, flood: int = 500) -> None:
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="yinsh-bench-page-")) if tmp is None else tmp
    relay = Relay(folder / "page-relay", ws_port=free_port()).start()

    def stream() -> None:
        async def run() -> None:
            nc = await connect(relay.url)
            await ensure_stream(nc)
            await nc.close()
        asyncio.run(run())

    worker = threading.Thread(target=stream)
    worker.start()
    worker.join()
    server = make_server(ROOT, 0, host="127.0.0.1", quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    game = Game.from_record(pgn.split_records((ROOT / "tests" / "data" / "games.ygn").read_text(encoding="utf-8"),
                                              None, None)[3])
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(**launch_options())

            def person(name: str):  # type: ignore[no-untyped-def]
                context = browser.new_context(viewport={"width": 1000, "height": 800})
                context.add_init_script(RETURNING_VISITOR)
                context.add_init_script(f"localStorage.setItem('yinsh:live-name', {json.dumps(name)})")
                return context, context.new_page()

            # a hotseat game: what it loads for live play
            context, page = person("Solo")
            loaded: list[tuple[str, int]] = []
            page.on("response", lambda r: loaded.append((r.url, len(r.body()) if r.ok else 0)))
            page.goto(f"{base}/index.html")
            page.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=60_000)
            page.click('#board [data-point="e3"]')
            page.click('#board [data-point="a5"]')
            page.wait_for_function("document.getElementById('board').dataset.record === '1.e3 2.a5'")
            live = [(url, size) for url, size in loaded if LIVE_URL.search(url)]
            print(f"page: a hotseat game loads {sum(s for _, s in live)} bytes for live play "
                  f"({len(live)} requests; {len(loaded)} requests in all)")
            context.close()

            # a room: Ana (White) and Ben
            (ana_context, ana), (ben_context, ben) = person("Ana"), person("Ben")
            ana.goto(f"{base}/index.html?live=new&relay={relay.ws_url}")
            ana.wait_for_function("document.querySelector('#live-seats li')?.textContent.includes('you')",
                                  timeout=60_000)
            link = ana.get_attribute("#live-link", "href") or ""
            ben.goto(link)
            ben.locator('#live [data-action="live-join"]').click(timeout=60_000)
            ben.locator('#live [data-action="live-start"]').click(timeout=30_000)
            ana.wait_for_function("document.getElementById('board').dataset.live === 'playing'")
            for page in (ana, ben):
                page.evaluate(CLICKS)
            shown = Game()
            latencies = []
            for move in list(game.moves)[:plies]:
                if move.before or move.after:
                    break  # the clicks of a removal are the e2e tests' (this measures the relay's path)
                mover, other = (ana, ben) if shown.to_move == "white" else (ben, ana)
                mover.wait_for_function("r => document.getElementById('board').dataset.record === r",
                                        arg=shown.record())
                shown.play(str(move))
                other.evaluate(DRAWN, shown.record())
                _clicks(mover, move)
                other.wait_for_function("window.__drawn > 0")
                latencies.append(float(other.evaluate("window.__drawn")) - float(mover.evaluate("window.__clicked")))
            print(f"page: a move, click to drawn on the other page ({len(latencies)} moves): "
                  f"p50 {statistics.median(latencies):.0f} ms, p95 {pct(latencies, 95):.0f} ms, "
                  f"max {max(latencies):.0f} ms (target p95 <= 150 ms)")
            seated = _seated_after_reloads(ben, reloads, shown.record())
            print(f"page: back in the seat after a reload, the game whole ({reloads} reloads, ply {shown.ply}): "
                  f"median {statistics.median(seated):.0f} ms, max {max(seated):.0f} ms after interactive "
                  "(target <= 1.5 s)")
            if flood:
                room = link.split("live=")[1].split("&")[0]
                worker = threading.Thread(target=_flood, args=(relay, room, flood))
                worker.start()
                worker.join()
                flooded = _seated_after_reloads(ben, reloads, shown.record())
                print(f"page: the same after {flood} junk messages stored in the room ({reloads} reloads): "
                      f"median {statistics.median(flooded):.0f} ms, max {max(flooded):.0f} ms after interactive")
            ana_context.close()
            ben_context.close()
            browser.close()
    finally:
        server.shutdown()
        relay.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=30, help="moves played by clicks (default 30)")
    parser.add_argument("--reloads", type=int, default=5)
    parser.add_argument("--flood", type=int, default=500,
                        help="junk messages a hostile client stores in the room before reloads (default 500; 0: none)")
    args = parser.parse_args()
    page_figures(args.plies, args.reloads, flood=args.flood)


if __name__ == "__main__":
    main()
