"""Live rooms in the browser under the faults players meet: a page offline while the other moves
(also after the relay was killed and restarted), a link opened the moment it is shown, two people
pressing Join at once, a reload during the other's move, and presence through all of it.

Each test opens its own room on one relay for the module (tests/live.py starts it from the
project's own install), with people on pages of their own (browser contexts: a key each), playing
by clicks. The faults are real: ``BrowserContext.set_offline``, the relay's process killed and
started again, a page reloaded. Every page fails on a console error other than the browser's own
report of a relay it cannot reach while that is expected. Waits have deadlines far above what the
page needs (a move arrives within a second of the network's return; bench-live measures it): they
bound a test that fails, they never time the page.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import test_live
from test_live import TIMEOUT, LivePage, run_aside

from yinsh.live.client import connect
from yinsh.live.protocol import STREAM
from yinsh.live.server import Relay

SEATS_SEEN = """() => {
  window.__seats = [];
  const note = () => {
    const seats = document.getElementById('live-seats');
    const text = seats ? Array.from(seats.children, (li) => li.textContent).join(' | ') : '';
    if (text && window.__seats[window.__seats.length - 1] !== text) window.__seats.push(text);
  };
  new MutationObserver(note).observe(document, { subtree: true, childList: true, characterData: true });
}"""
"""Every text of the seats a page showed, from its start (an init script: before the page runs)."""


relay = test_live.relay
"""test_live's relay fixture: one for this module as well."""


class Person(LivePage):
    """A person on a page of their own, whose page records every text of its seats."""

    def __init__(self, browser: Any, base_url: str, name: str) -> None:
        super().__init__(browser, base_url, name)
        self.name = name
        self.context.add_init_script(f"({SEATS_SEEN})()")

    def seats_seen(self) -> list[str]:
        return [str(text) for text in self.page.evaluate("window.__seats")]

    def seats(self) -> str:
        return " | ".join(self.page.locator("#live-seats li").all_inner_texts())

    def wait_seats(self, *parts: str, timeout: float = TIMEOUT) -> None:
        """Until the seats' text holds each of ``parts``."""
        self.page.wait_for_function(
            "parts => { const t = document.getElementById('live-seats').textContent; "
            "return parts.every((p) => t.includes(p)); }", arg=list(parts), timeout=timeout)

    def offline(self, away: bool) -> None:
        self.relay_down_allowed = True  # the browser's own report of the refused connection, expected now
        self.context.set_offline(away)


@pytest.fixture
def people(chromium_browser: Any, site_url: str) -> Iterator[dict[str, Person]]:
    pages = {name: Person(chromium_browser, site_url, name.capitalize()) for name in ("ana", "ben", "cleo")}
    try:
        yield pages
    finally:
        for page in pages.values():
            page.close()


def open_room(host: Person, relay: Relay, site_url: str) -> str:
    """``host`` opens a room, White; its link, the moment the page shows it."""
    host.go(f"{site_url}/index.html?live=new&colours=white&relay={relay.ws_url}")
    host.page.wait_for_function("document.getElementById('live-link').getAttribute('href')?.includes('live=') && "
                                "!document.querySelector('#live .live-share').hidden", timeout=TIMEOUT)
    return host.page.get_attribute("#live-link", "href") or ""


def start_game(ana: Person, ben: Person, relay: Relay, site_url: str) -> None:
    """Ana opens a room (White), Ben opens its link at once, joins and starts: both playing."""
    link = open_room(ana, relay, site_url)
    ben.go(link)
    ben.press("live-join")
    ben.press("live-start")
    for person, seat in ((ana, "white"), (ben, "black")):
        person.wait_live("playing")
        person.wait_seat(seat)


def move_while_away(mover: Person, away: Person, point: str, record: str, *, seconds: float = 5.0) -> None:
    """``away`` goes offline, ``mover`` places a ring at ``point`` (the game then ``record``),
    ``seconds`` later ``away`` is back: its page shows the move without a reload."""
    away.offline(True)
    mover.click_point(point)
    mover.wait_record(record)
    time.sleep(seconds)  # the spell itself: the fault's length, not a wait for the page
    away.offline(False)
    away.wait_record(record)
    away.wait_live("playing")


def away_for_b5_then_on(ana: Person, ben: Person) -> None:
    """After ``1.e3 2.a5``: Ana places b5 while Ben is away, Ben answers c6 once back, and
    both boards go on as one, with nothing wrong seen on either page."""
    move_while_away(ana, ben, "b5", "1.e3 2.a5 3.b5")
    ben.click_point("c6")
    ana.wait_record("1.e3 2.a5 3.b5 4.c6")
    for person in (ana, ben):
        person.check()


def test_a_move_made_while_the_other_is_offline_arrives_when_it_is_back(people: dict[str, Person], relay: Relay,
                                                                        site_url: str) -> None:
    """The fault behind "the move never arrived": three spells of 5 s, the players taking turns
    to be away (a page that notices the loss says Reconnecting, one that does not reads again
    when the network returns); then both boards go on as one."""
    ana, ben = people["ana"], people["ben"]
    start_game(ana, ben, relay, site_url)
    move_while_away(ana, ben, "e3", "1.e3")
    move_while_away(ben, ana, "a5", "1.e3 2.a5")
    away_for_b5_then_on(ana, ben)


def test_after_a_relay_restart_a_move_made_offline_still_arrives(people: dict[str, Person], relay: Relay,
                                                                site_url: str) -> None:
    """The relay's process killed and started again (its store kept), both pages back, then an
    offline spell: the page that was away reads what was stored meanwhile."""
    ana, ben = people["ana"], people["ben"]
    start_game(ana, ben, relay, site_url)
    ana.click_point("e3")
    ben.wait_record("1.e3")
    for person in (ana, ben):
        person.relay_down_allowed = True
    relay.kill()
    relay.start()
    ben.click_point("a5")  # sent while the pages reconnect, or after: stored once either way
    ana.wait_record("1.e3 2.a5")
    away_for_b5_then_on(ana, ben)


def drop_consumers(relay: Relay) -> int:
    """Delete every consumer of the rooms' stream, as the relay does when the node that held
    them dies; how many there were."""

    async def run() -> int:
        nc = await connect(relay.url)
        js = nc.jetstream()
        names = [info.name for info in await js.consumers_info(STREAM)]
        for name in names:
            await js.delete_consumer(STREAM, name)
        await nc.close()
        return len(names)

    return int(run_aside(run()))


def test_readers_whose_consumers_the_relay_lost_go_on_reading(people: dict[str, Person], relay: Relay,
                                                               site_url: str) -> None:
    """Both pages connected, the consumers they read through deleted on the relay (as when their
    node dies): each page reads on from the last message it folded, and the game goes on."""
    ana, ben = people["ana"], people["ben"]
    start_game(ana, ben, relay, site_url)
    ana.click_point("e3")
    ben.wait_record("1.e3")
    assert drop_consumers(relay) >= 2
    ben.click_point("a5")
    ana.wait_record("1.e3 2.a5")
    ana.click_point("b5")
    ben.wait_record("1.e3 2.a5 3.b5")
    for person in (ana, ben):
        person.wait_live("playing")
        person.check()


def test_a_reload_during_the_others_move_comes_back_with_it(people: dict[str, Person], relay: Relay,
                                                           site_url: str) -> None:
    ana, ben = people["ana"], people["ben"]
    start_game(ana, ben, relay, site_url)
    ana.click_point("e3")
    ben.wait_record("1.e3")
    ben.click_point("a5")
    ana.page.reload()  # at once: Ben's move is on its way
    ana.wait_ready()
    ana.wait_seat("white")
    ana.wait_record("1.e3 2.a5")
    ana.wait_live("playing")
    ana.click_point("b5")
    ben.wait_record("1.e3 2.a5 3.b5")
    for person in (ana, ben):
        person.check()


def test_a_link_opened_the_moment_it_is_shown_starts_its_room(chromium_browser: Any, relay: Relay,
                                                             site_url: str) -> None:
    """Ten rooms, each link opened by the other page the moment the host's page shows it (the
    page shows it once the room's creation and the host's seat are stored): the joiner sees the
    host seated, joins and starts, every time."""
    with Person(chromium_browser, site_url, "Ana") as ana, Person(chromium_browser, site_url, "Ben") as ben:
        for _ in range(10):
            link = open_room(ana, relay, site_url)
            ben.go(link)
            ben.wait_seats("Ana (White)")
            ben.press("live-join")
            ben.wait_seats("Ana (White)", "Ben (Black) · you")
            ben.press("live-start")
            for person, seat in ((ana, "white"), (ben, "black")):
                person.wait_live("playing")
                person.wait_seat(seat)
        for person in (ana, ben):
            person.check()


def test_two_people_pressing_join_at_once_one_is_seated_the_other_told(people: dict[str, Person], relay: Relay,
                                                                        site_url: str) -> None:
    ana, ben, cleo = people["ana"], people["ben"], people["cleo"]
    link = open_room(ana, relay, site_url)
    for person in (ben, cleo):
        person.go(link)
        person.page.locator('#live [data-action="live-join"]').wait_for(state="visible", timeout=TIMEOUT)
    both = ("() => document.querySelector('#live [data-action=\"live-join\"]').click()")
    ben.page.evaluate(both)
    cleo.page.evaluate(both)
    ana.page.wait_for_function("!document.getElementById('live-seats').textContent.includes('free seat')",
                               timeout=TIMEOUT)
    seated = [person for person in (ben, cleo) if person.name + " (Black)" in ana.seats()]
    assert len(seated) == 1, ana.seats()
    told = cleo if seated[0] is ben else ben
    told.page.wait_for_function("document.getElementById('live-message').textContent.includes('both seats are taken')",
                                timeout=TIMEOUT)
    assert told.board("seat") == "watcher"
    seated[0].wait_seats(seated[0].name + " (Black) · you")
    for person in (ana, ben, cleo):
        person.check()


def test_presence_shows_who_is_there_and_who_is_gone(people: dict[str, Person], relay: Relay, site_url: str) -> None:
    """The host is never shown disconnected on the joiner's page while there; a page that closes
    is shown gone (its ``gone``), one that loses its network is shown gone once its beats stop
    (10 s), and back as soon as it is."""
    ana, ben = people["ana"], people["ben"]
    start_game(ana, ben, relay, site_url)
    ana.click_point("e3")
    ben.wait_record("1.e3")
    time.sleep(4)  # beats go on meanwhile (every 3 s): the page must keep showing Ana there
    assert ben.seats_seen() and not [text for text in ben.seats_seen() if "Ana (White) · disconnected" in text], \
        ben.seats_seen()
    # Ana's network goes: no ``gone`` is sent, her beats stop
    ana.offline(True)
    ben.wait_seats("Ana (White) · disconnected", timeout=30_000)
    ana.offline(False)
    ben.page.wait_for_function("!document.getElementById('live-seats').textContent.includes('disconnected')",
                               timeout=TIMEOUT)
    # Ana closes her page: ``gone``, at once
    ana.page.close()
    ben.wait_seats("Ana (White) · disconnected")
    ben.check()
