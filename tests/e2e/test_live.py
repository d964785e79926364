"""Live rooms in the browser: people on three pages (two players and a watcher) in one room on a
real nats-server started from the project's own install (tests/live.py), playing by clicks.

One module-wide relay and one room, played through in order (each step needs the one before:
a cold page boot and a whole game cost seconds, so the steps share them). The game is a real
one from tests/data (45 moves, White wins 3–1 on rings), clicked as a person would; on the way
one player reloads, one goes offline and back, the relay is killed and restarted, a hostile
client stores forged and junk messages, the watcher chats; then a rematch with colours
swapped, a resignation and a seat given up. Every page fails on a console error, an uncaught
error or a request leaving the origin (the relay is the one address allowed). A hotseat game
is checked to request nothing of live play.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from live import start_relay
from pages import GamePage, save_settled_screenshot
from test_built_site import Site

from yinsh import pgn
from yinsh.game import Game
from yinsh.live.client import Keys, connect, ensure_stream
from yinsh.live.protocol import Draft, chat_subject, game_subject
from yinsh.live.server import Relay

ROOT = Path(__file__).resolve().parents[2]
GAME = pgn.split_records((ROOT / "tests" / "data" / "games.ygn").read_text(encoding="utf-8"), None, None)[3]
LIVE_FILES = re.compile(r"/(yinsh/live/|yinsh/page/live\.py|yinsh/web/live\.py|static/vendor/nats[/-]|"
                        r"static/js/live\.js|live\.json|live\.bundle)")
# The browser's own report of a relay that is down (offline, restarting): expected then, nothing else.
RELAY_DOWN = re.compile(r"WebSocket connection to 'ws://127\.0\.0\.1:\d+/' failed|ERR_INTERNET_DISCONNECTED")
TIMEOUT = 20_000


def run_aside(coroutine: Any) -> Any:
    """Run an asyncio coroutine to its end on a thread of its own (Playwright's sync API keeps
    an event loop running on the test's thread); what it returned."""
    failure: list[BaseException] = []
    result: list[Any] = []

    def target() -> None:
        try:
            result.append(asyncio.run(asyncio.wait_for(coroutine, 60)))
        except BaseException as exc:  # handed to the test's thread
            failure.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]


@pytest.fixture(scope="module")
def relay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Relay]:
    server = start_relay(tmp_path_factory.mktemp("live-page"))

    async def stream() -> None:
        nc = await connect(server.url)
        await ensure_stream(nc)
        await nc.close()

    run_aside(stream())
    try:
        yield server
    finally:
        server.stop()


class LivePage(GamePage):
    """A person in the room, on a page of their own (a browser context: their own key)."""

    def __init__(self, browser: Any, base_url: str, name: str = "") -> None:
        super().__init__(browser, base_url, has_touch=False)
        if name:
            self.context.add_init_script(f"localStorage.setItem('yinsh:live-name', {json.dumps(name)})")
        self.relay_down_allowed = False

    def _on_console(self, message: Any) -> None:
        if message.type == "error" and self.relay_down_allowed and RELAY_DOWN.search(message.text):
            return
        super()._on_console(message)

    def go(self, url: str) -> None:
        self.page.goto(url)
        self.wait_ready()
        self.loaded = True

    def live(self) -> str:
        return self.board("live")

    def wait_live(self, state: str, timeout: float = TIMEOUT) -> None:
        self.page.wait_for_function("s => document.getElementById('board').dataset.live === s", arg=state,
                                    timeout=timeout)

    def wait_seat(self, seat: str) -> None:
        self.page.wait_for_function("s => document.getElementById('board').dataset.seat === s", arg=seat,
                                    timeout=TIMEOUT)

    def wait_record(self, record: str) -> None:
        self.page.wait_for_function("r => document.getElementById('board').dataset.record === r", arg=record,
                                    timeout=TIMEOUT)

    def press(self, action: str) -> None:
        button = self.page.locator(f'#live [data-action="{action}"]')
        button.wait_for(state="visible", timeout=TIMEOUT)
        button.click()

    def check(self) -> None:
        problems = self.take_problems()
        assert not problems, "\n".join(problems)


@pytest.fixture(scope="module")
def people(chromium_browser: Any, site_url: str) -> Iterator[dict[str, LivePage]]:
    pages = {"ana": LivePage(chromium_browser, site_url, "Ana"), "ben": LivePage(chromium_browser, site_url, "Ben"),
             "watcher": LivePage(chromium_browser, site_url)}
    try:
        yield pages
    finally:
        for page in pages.values():
            page.close()


def test_a_hotseat_game_requests_nothing_of_live_play(chromium_browser: Any, site_url: str) -> None:
    with LivePage(chromium_browser, site_url) as page:
        requests: list[str] = []
        page.context.on("request", lambda request: requests.append(request.url))
        page.go(f"{site_url}/index.html")
        page.click_point("e3")
        page.click_point("a5")
        page.wait_record("1.e3 2.a5")
        assert not [url for url in requests if LIVE_FILES.search(url)], requests
        assert not page.page.is_visible("#live")
        page.check()


def test_a_room_link_with_a_bad_name_keeps_the_game(chromium_browser: Any, site_url: str, relay: Relay) -> None:
    with LivePage(chromium_browser, site_url) as page:
        page.go(f"{site_url}/index.html#record=1.e3")
        page.page.goto(f"{site_url}/index.html?live=no.such*room&relay={relay.ws_url}#record=1.e3")
        page.wait_ready()
        page.page.wait_for_function("document.getElementById('notices').textContent.includes('not a room')",
                                    timeout=TIMEOUT)
        assert page.board("record") == "1.e3"
        assert not page.page.is_visible("#live")
        # a relay that is no WebSocket address: refused, nothing requested of it
        page.page.goto(f"{site_url}/index.html?live=new&relay=https%3A%2F%2Fexample.org%2F#record=1.e3")
        page.wait_ready()
        page.page.wait_for_function("document.getElementById('notices').textContent.includes('not a ws://')",
                                    timeout=TIMEOUT)
        assert page.board("record") == "1.e3"
        # a room's name that names no room (never made, or expired): said, nothing to join
        page.page.goto(f"{site_url}/index.html?live=NoSuchRoom_0000000000&relay={relay.ws_url}")
        page.wait_ready()
        page.page.wait_for_function("document.getElementById('live-state').textContent.includes('does not exist')",
                                    timeout=TIMEOUT)
        assert not page.page.is_visible('#live [data-action="live-join"]')
        page.check()


def _hostile(relay: Relay, room: str, illegal: str, replayed: bytes) -> None:
    """A client that knows the room's name stores what no page may show: junk, an oversized
    message, an unsigned one, a forged one (a seat's key, another's signature), a replay of a
    real move, a move by a key without a seat, an illegal move in a real seat's name, then a
    flood of 300 more (junk, and moves signed by a key without a seat)."""

    async def run() -> None:
        nc = await connect(relay.url)
        js = nc.jetstream()
        subject = game_subject(room)
        stranger = Keys()
        info = await js.stream_info("YINSH_ROOMS")
        assert info is not None
        messages = [b"not json at all", b"{" * 1500, json.dumps({"v": 3, "t": "move", "n": 1, "ply": 0,
                                                                   "move": "e3", "think": 0}).encode(),
                    replayed, b"x" * 1900]
        forged = Draft(room, "move", 0, [("ply", 0), ("move", illegal), ("think", 0)])
        messages.append(stranger.message(forged))
        # a flood: the page reads it in batches (one pull and one signature check a batch)
        messages += [b"junk %d" % i if i % 2 else
                     stranger.message(Draft(room, "move", 100 + i, [("ply", i), ("move", "e4"), ("think", 0)]))
                     for i in range(300)]
        for data in messages:
            await js.publish(subject, data)
        await js.publish(chat_subject(room), stranger.message(Draft(room, "chat", 1, [("text", "<b>x</b>" * 200)])))
        await nc.close()

    run_aside(run())


def test_two_people_play_a_whole_game_live_while_a_third_watches(people: dict[str, LivePage], relay: Relay,
                                                                  site_url: str, tmp_path: Path) -> None:
    ana, ben, watcher = people["ana"], people["ben"], people["watcher"]
    # Ana opens a room (she plays White) and sends its link
    ana.go(f"{site_url}/index.html?live=new&colours=white&relay={relay.ws_url}")
    ana.page.wait_for_function("document.querySelector('#live-seats li')?.textContent.includes('you')",
                               timeout=TIMEOUT)
    link = ana.page.get_attribute("#live-link", "href") or ""
    room = link.split("live=")[1].split("&")[0]
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", room), link
    assert ana.live() == "waiting" and ana.board("seat") == "watcher"
    # Ben opens it and joins; a third person opens it and watches
    ben.go(link)
    ben.press("live-join")
    watcher.go(link)
    watcher.page.wait_for_function("document.getElementById('live-state').textContent.includes('Both seats')",
                                   timeout=TIMEOUT)
    assert not watcher.page.is_visible('#live [data-action="live-join"]')
    ben.press("live-start")
    for page, seat in ((ana, "white"), (ben, "black"), (watcher, "watcher")):
        page.wait_live("playing")
        page.wait_seat(seat)
    assert "Ana (White) against Ben (Black)" in watcher.text("#live-state")

    game = Game.from_record(GAME)
    moves = list(game.moves)
    shown = Game()
    seats = {"white": ana, "black": ben}
    for i, move in enumerate(moves):
        mover = seats[shown.to_move]
        other = seats["black" if shown.to_move == "white" else "white"]
        if str(move) != "pass":
            mover.wait_record(shown.record())
            mover.play(move)
        shown.play(str(move))
        record = shown.record()
        for page in (mover, other, watcher):
            page.wait_record(record)
        if i == 11:  # Ben reloads mid-game: back in his seat with the whole game
            ben.page.reload()
            ben.wait_ready()
            ben.wait_seat("black")
            ben.wait_record(record)
            ben.wait_live("playing")
        elif i == 16:  # the watcher says something; every page shows it as text, with who wrote it
            watcher.page.fill("#live-chat input[name=text]", "nice <b>move</b>")
            watcher.page.press("#live-chat input[name=text]", "Enter")
            for page in (ana, ben, watcher):
                page.page.wait_for_function(
                    "document.getElementById('live-chat-lines').textContent.includes('watcher 1: nice <b>move</b>')",
                    timeout=TIMEOUT)
            assert ana.page.locator("#live-chat-lines b").all_inner_texts()[-1] == "watcher 1"
            assert ana.page.locator("#live-chat-lines span b").count() == 0  # text, never markup
        elif i == 21:  # Ana's connection drops: "Reconnecting…", then what was played meanwhile
            ana.relay_down_allowed = True
            ana.context.set_offline(True)
            ana.wait_live("reconnecting", timeout=30_000)
            assert "Reconnecting" in ana.text("#live-state")
            ana.context.set_offline(False)
            ana.wait_live("playing", timeout=30_000)
        elif i == 27:  # the relay crashes and comes back: nothing is lost, the game goes on
            for page in (ana, ben, watcher):
                page.relay_down_allowed = True
            relay.kill()
            relay.start()
        elif i == 33:  # a hostile client stores junk and forgeries: no page shows them
            ignored = int(ana.page.get_attribute("#live", "data-ignored") or 0)
            mover_key_move = [str(m) for m in moves][0]
            _hostile(relay, room, "e4-e10", json.dumps({"v": 3, "t": "move", "n": 2, "ply": 0,
                                                         "move": mover_key_move, "think": 0}).encode())
            ana.page.wait_for_function(f"+document.getElementById('live').dataset.ignored > {ignored}",
                                       timeout=TIMEOUT)
            for page in (ana, ben, watcher):
                assert page.board("record") == record
                assert "<b>x</b>" not in page.text("#live-chat-lines")
    for page in (ana, ben, watcher):
        page.wait_live("over")
    assert game.result == "1-0"
    assert "Ana wins, 3 rings to 1" in watcher.text("#live-state")
    ana.page.screenshot(path=str(tmp_path / "over.png"))

    # A rematch in the same room: colours swap
    ben.press("live-start")
    ana.wait_seat("black")
    ben.wait_seat("white")
    watcher.wait_live("playing")
    ben.wait_record("")
    record = ""
    for player, point in ((ben, "e3"), (ana, "e4"), (ben, "f3")):  # past the moves a game may be aborted in
        player.click_point(point)
        record = f"{record} {len(record.split()) + 1}.{point}".strip()
        for page in (ana, ben, watcher):
            page.wait_record(record)
    ana.press("live-resign")
    for page in (ana, ben, watcher):
        page.wait_live("over")
    watcher.page.wait_for_function("document.getElementById('live-state').textContent.includes('Ana resigned')",
                                   timeout=TIMEOUT)
    # Ana gives up her seat: the watcher may take it
    ana.press("live-leave")
    watcher.page.locator('#live [data-action="live-join"]').wait_for(state="visible", timeout=TIMEOUT)
    for page in (ana, ben, watcher):
        page.check()


def test_two_tabs_of_one_seat_play_one_move_for_a_turn(chromium_browser: Any, site_url: str, relay: Relay) -> None:
    """The same browser (one key: one seat) in two tabs: both move at once, one move is kept,
    the other tab says so and shows the kept one."""
    with LivePage(chromium_browser, site_url, "Cleo") as cleo, LivePage(chromium_browser, site_url, "Dan") as dan:
        cleo.go(f"{site_url}/index.html?live=new&relay={relay.ws_url}")
        cleo.page.wait_for_function("document.querySelector('#live-seats li')?.textContent.includes('you')",
                                    timeout=TIMEOUT)
        link = cleo.page.get_attribute("#live-link", "href") or ""
        dan.go(link)
        dan.press("live-join")
        dan.press("live-start")
        cleo.wait_live("playing")
        second = cleo.context.new_page()
        second.goto(link)
        second.wait_for_function("document.getElementById('board').dataset.seat === 'white'", timeout=TIMEOUT)
        # both tabs click at the same moment (one clock: one browser)
        at = cleo.page.evaluate("Date.now() + 400")
        script = "([p, at]) => setTimeout(() => document.querySelector(`#board [data-point='${p}']`)" \
                 ".dispatchEvent(new MouseEvent('click', {bubbles: true}))," \
                 "at - Date.now())"
        cleo.page.evaluate(script, ["e3", at])
        second.evaluate(script, ["a5", at])
        dan.page.wait_for_function("document.getElementById('board').dataset.record.length > 0", timeout=TIMEOUT)
        kept = dan.board("record")
        assert kept in ("1.e3", "1.a5")
        cleo.wait_record(kept)
        second.wait_for_function("r => document.getElementById('board').dataset.record === r", arg=kept,
                                 timeout=TIMEOUT)
        loser = second if kept == "1.e3" else cleo.page
        loser.wait_for_function("document.getElementById('notices').textContent.includes('another page')",
                                timeout=TIMEOUT)
        second.close()
        dan.check()
        dan.page.close(run_before_unload=True)  # Dan closes his tab mid-game: Cleo sees it, the game waits
        cleo.page.wait_for_function(
            "[...document.querySelectorAll('#live-seats li')].some(li => li.textContent === 'Dan (Black) · disconnected"
            + "' || li.textContent === 'Dan (Black) · disconnected · to move')", timeout=TIMEOUT)
        assert cleo.live() == "playing"
        cleo.check()


def test_a_timed_room_s_clocks_run_alike_and_its_game_ends_on_time(chromium_browser: Any, site_url: str,
                                                                    relay: Relay) -> None:
    """``?live=new&clock=0.25+0``: both clocks show before Start, each player's first move is
    not timed, then White's runs on every page; White stops moving, Black's page claims once her
    15 s and the lag allowance are out, and both players and a watcher show the loss on time."""
    with LivePage(chromium_browser, site_url, "Fay") as fay, LivePage(chromium_browser, site_url, "Gus") as gus, \
            LivePage(chromium_browser, site_url) as watcher:
        fay.go(f"{site_url}/index.html?live=new&clock=0.25+0&relay={relay.ws_url}")
        fay.page.wait_for_function("document.querySelector('#live-seats li')?.textContent.includes('you')",
                                   timeout=TIMEOUT)
        assert fay.page.is_visible("#live-clocks") and fay.page.text_content("#live-clock-white") == "0:15"
        link = fay.page.get_attribute("#live-link", "href") or ""
        gus.go(link)
        gus.press("live-join")
        gus.press("live-start")
        watcher.go(link)
        everyone = (fay, gus, watcher)
        for person in everyone:
            person.wait_live("playing")
        fay.click_point("e3")
        gus.wait_record("1.e3")
        gus.click_point("a5")
        for person in everyone:
            person.wait_record("1.e3 2.a5")
            person.page.wait_for_function("document.getElementById('live-clock-white').hasAttribute('data-running')",
                                          timeout=TIMEOUT)
        stopped = {person.page.get_attribute("#live-clock-black", "data-ms") for person in everyone}
        assert len(stopped) == 1 and gus.page.get_attribute("#live-clock-black", "data-running") is None
        save_settled_screenshot(watcher.page, "live-clock-running")
        for person in everyone:  # nobody claims: Gus's page does, once Fay's time is out
            person.page.wait_for_function("document.getElementById('board').dataset.end === 'time'", timeout=40_000)
            assert person.page.text_content("#live-state") == "Fay ran out of time: Gus wins." + (
                " Rematch: colours swap." if person is not watcher else "")
            assert person.page.get_attribute("#live-clock-white", "data-ms") == "0"
            assert person.page.get_attribute("#live-clock-white", "data-running") is None
        save_settled_screenshot(fay.page, "live-clock-over")
        for person in everyone:
            person.check()


def test_a_takeback_a_gone_player_s_claim_and_an_abort(chromium_browser: Any, site_url: str, relay: Relay) -> None:
    """Gus asks to take back his move and Fay accepts; Fay's connection drops on her turn, Gus asks
    whether she is there and her page answers once it is back; it drops again, and 30 s after
    Gus's question he claims the game; in the rematch, Gus aborts before a second ring."""
    with LivePage(chromium_browser, site_url, "Fay") as fay, LivePage(chromium_browser, site_url, "Gus") as gus:
        fay.go(f"{site_url}/index.html?live=new&relay={relay.ws_url}")
        fay.page.wait_for_function("document.querySelector('#live-seats li')?.textContent.includes('you')",
                                   timeout=TIMEOUT)
        gus.go(fay.page.get_attribute("#live-link", "href") or "")
        gus.press("live-join")
        gus.press("live-start")
        fay.wait_live("playing")
        assert fay.page.is_visible('#live [data-action="live-abort"]')
        assert not fay.page.is_visible('#live [data-action="live-resign"]')
        fay.click_point("e3")
        gus.wait_record("1.e3")
        gus.click_point("a5")
        fay.wait_record("1.e3 2.a5")
        gus.press("live-takeback")
        fay.page.wait_for_function("document.getElementById('live-offer').textContent === "
                                   "'Gus asks to take back their last move.'", timeout=TIMEOUT)
        save_settled_screenshot(fay.page, "live-takeback-offered")
        fay.press("live-accept")
        for person in (fay, gus):
            person.wait_record("1.e3")
        assert fay.page.is_hidden("#live-offer") and "taken back" in gus.text("#notices")
        gus.click_point("a5")
        fay.wait_record("1.e3 2.a5")
        for answered in (True, False):
            fay.relay_down_allowed = True
            fay.context.set_offline(True)  # on her turn
            gus.press("live-claim")  # shown once she is called disconnected
            gus.page.wait_for_function("document.getElementById('live-offer').textContent.includes('30 s')",
                                       timeout=TIMEOUT)
            if answered:
                save_settled_screenshot(gus.page, "live-gone-asked")
                fay.context.set_offline(False)
                gus.page.wait_for_selector("#live-offer", state="hidden", timeout=30_000)  # her page answered
                assert gus.live() == "playing"
        gus.page.wait_for_function("document.getElementById('live-offer').textContent.includes('did not come back')",
                                   timeout=40_000)
        gus.press("live-claim")
        gus.page.wait_for_function("document.getElementById('board').dataset.end === 'absent'", timeout=TIMEOUT)
        assert gus.text("#live-state") == "Fay was gone too long: Gus wins. Rematch: colours swap."
        fay.context.set_offline(False)
        fay.page.wait_for_function("document.getElementById('board').dataset.end === 'absent'", timeout=30_000)
        save_settled_screenshot(fay.page, "live-gone-claimed")
        gus.press("live-start")
        for person in (fay, gus):
            person.wait_live("playing")
        gus.click_point("e3")  # Gus plays White now
        fay.wait_record("1.e3")
        gus.press("live-abort")
        for person in (fay, gus):
            person.page.wait_for_function("document.getElementById('board').dataset.end === 'abort'",
                                          timeout=TIMEOUT)
            assert person.text("#live-state").startswith("The game was aborted: no result.")
        fay.check()
        gus.check()


def test_without_a_reachable_relay_the_page_says_so_and_plays_on(chromium_browser: Any, site_url: str) -> None:
    from yinsh.live.server import free_port

    with LivePage(chromium_browser, site_url) as page:
        page.relay_down_allowed = True  # the browser's own report of the refused connection
        page.go(f"{site_url}/index.html?live=new&relay=ws://127.0.0.1:{free_port()}")
        page.page.wait_for_function("document.getElementById('live-state').textContent.includes('No relay answers')",
                                    timeout=30_000)
        assert page.text("#live-state").count("\n") == 0
        assert page.board("live") == "" and not page.page.is_visible('#live [data-action="live-join"]')
        page.click_point("e3")  # everything else works as before: here, a game at this device
        page.wait_record("1.e3")
        page.check()


def test_play_someone_online_from_the_game_menu(chromium_browser: Any, site_url: str, relay: Relay) -> None:
    """The Game menu's "Play someone online…": the colours asked in a dialog, the relay the site
    names in live.json (served here as a host would), a room opened with its link."""
    with LivePage(chromium_browser, site_url, "Eve") as page:
        page.page.route("**/live.json", lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps({"relay": relay.ws_url})))
        page.go(f"{site_url}/index.html")
        page.click_point("e3")
        page.page.click("#game-menu summary")
        page.page.click('[data-action="live-new"]')
        page.page.check('#live-dialog input[value="black"]')
        page.page.select_option('#live-dialog select[name="clock"]', "3+2")
        page.page.click('#live-dialog [data-action="live-create"]')
        page.page.wait_for_function("document.querySelector('#live-seats li')?.textContent === 'Eve (Black) · you'",
                                    timeout=TIMEOUT)
        assert [page.page.text_content(f"#live-clock-{c}") for c in ("white", "black")] == ["3:00", "3:00"]
        link = page.page.get_attribute("#live-link", "href") or ""
        assert re.fullmatch(re.escape(site_url) + r"/index\.html\?live=[A-Za-z0-9_-]{22}", link), link
        assert page.page.evaluate("location.href") == link  # the address is the room's link
        assert page.live() == "waiting" and page.board("record") == ""
        # Exit room: back to the game in progress on this device, kept while in the room
        page.page.click('#live [data-action="live-exit"]')
        page.page.wait_for_url(f"{site_url}/index.html*")
        page.wait_ready()
        page.wait_record("1.e3")
        assert not page.page.is_visible("#live")
        page.check()


def test_a_site_with_no_relay_says_so_before_a_room_is_offered(chromium_browser: Any, site_url: str) -> None:
    with LivePage(chromium_browser, site_url) as page:
        page.go(f"{site_url}/index.html")  # the development tree's server names no relay
        page.page.click("#game-menu summary")
        page.page.click('[data-action="live-new"]')
        page.page.wait_for_function(
            "document.getElementById('live-dialog-relay').textContent.includes('names no relay')", timeout=TIMEOUT)
        assert page.page.is_disabled('#live-dialog [data-action="live-create"]')
        page.page.click('#live-dialog [data-action="cancel-live"]')
        page.click_point("e3")  # the game here goes on
        page.wait_record("1.e3")
        page.check()


KEPT_LIVE_BUNDLE = """async () => {
  for (const key of await caches.keys()) {
    const cache = await caches.open(key);
    if ((await cache.keys()).some(r => new URL(r.url).pathname.endsWith('/live.bundle'))) return true;
  }
  return false;
}"""


@pytest.fixture(scope="module")
def built_site(tmp_path_factory: pytest.TempPathFactory, relay: Relay) -> Iterator[Site]:
    """The built site (``yinsh build-site --relay``), naming the module's relay in live.json."""
    site = Site(tmp_path_factory.mktemp("live-site") / "dist", relay=relay.ws_url)
    try:
        yield site
    finally:
        site.stop()


def test_the_built_site_plays_a_room_and_a_hotseat_game_loads_none_of_it(chromium_browser: Any, built_site: Site,
                                                                          relay: Relay) -> None:
    """On the built site a hotseat game requests nothing of live play; a room opened there (its
    modules from the live bundle added to the mounted one, the NATS client and the key helper
    by their versioned URLs, the relay from live.json) plays as on the development page."""
    base = built_site.url.rstrip("/")
    with LivePage(chromium_browser, base, "Ana") as ana, LivePage(chromium_browser, base, "Ben") as ben:
        requests: list[str] = []
        ana.context.on("request", lambda request: requests.append(request.url))
        ana.go(base + "/")
        ana.click_point("e3")
        ana.click_point("a5")
        ana.wait_record("1.e3 2.a5")
        assert not [url for url in requests if LIVE_FILES.search(url)], requests
        assert not ana.page.is_visible("#live")

        ana.go(base + "/?live=new")
        ana.page.wait_for_function("document.querySelector('#live-seats li')?.textContent.includes('you')",
                                   timeout=TIMEOUT)
        live = [url.removeprefix(base) for url in requests if LIVE_FILES.search(url)]
        assert {re.sub(r"\?v=[0-9a-f]{10}$|-[0-9a-f]{10}/", "*", url) for url in live} >= {
            "/live.bundle*", "/static/js/live.js*", "/static/vendor/nats*nats.js", "/live.json"}, live
        assert not [url for url in live if url.endswith(".py")], live
        link = ana.page.get_attribute("#live-link", "href") or ""
        assert link.startswith(base + "/?live=") and "relay=" not in link, link  # the site names its relay
        ben.go(link)
        ben.press("live-join")
        ben.press("live-start")
        ana.wait_seat("white")
        ben.wait_seat("black")
        shown = Game()
        seats = {"white": ana, "black": ben}
        for point in ("e3", "a5", "b5", "c6"):
            mover = seats[shown.to_move]
            mover.wait_record(shown.record())
            mover.click_point(point)
            shown.play(point)
            for page in (ana, ben):
                page.wait_record(shown.record())
        # the offline copy keeps a room's files once a room has used them (never at install)
        for _ in range(100):
            if ana.page.evaluate(KEPT_LIVE_BUNDLE):
                break
            ana.page.wait_for_timeout(200)
        else:
            pytest.fail("the live bundle was never kept offline")
        ana.check()
        ben.check()
