"""The instant page (issue 11): MicroPython on the main thread, Pyodide only for the computer.

- a whole game between two people, by clicks, never asks for a file of Pyodide or of the
  computer player (its worker, its configuration, the AI's modules);
- against the computer, the person's placement is accepted while the computer's worker is
  still held back (its configuration is not served yet), the page says the computer is
  getting ready only when it is the computer's turn, and the computer's move comes once the
  worker is up;
- a tutorial page of three embedded diagrams asks for nothing of Pyodide either.

Every page here fails its test on a console error, a page error or a request off the origin.
"""

from __future__ import annotations

from typing import Any

from helpers import DATA
from pages import GamePage, RecordedPage, wait_for_person
from test_embed import EXAMPLE, wait_ready

from yinsh.game import Game
from yinsh.record import read_records
from yinsh.web.client import WORKER_CONFIG

#: What only the computer player loads.
COMPUTER_ONLY = ("/static/vendor/pyodide/", WORKER_CONFIG.removeprefix("."), "/yinsh/ai/", "/yinsh/web/worker.py")


def computer_requests(urls: list[str]) -> list[str]:
    return [u for u in urls if any(part in u for part in COMPUTER_ONLY)]


class Requests:
    """Every URL the pages of a browser context asked for."""

    def __init__(self, page: RecordedPage) -> None:
        self.urls: list[str] = []
        page.context.on("request", lambda request: self.urls.append(request.url))


def test_a_game_between_two_people_never_asks_for_pyodide(chromium_browser: Any, site_url: str) -> None:
    game = next(r.game for r in read_records((DATA / "scenarios.ygn").read_text(encoding="utf-8"))
                if r.tags.get("Scenario") == "out of markers")
    with GamePage(chromium_browser, site_url) as page:
        requests = Requests(page)
        page.open()
        replay = Game()
        for move in game.moves:
            page.play(move)
            replay.push(move)
            page.wait_record(replay.record())
        assert page.board("result") == game.result and page.text("#banner-title")
        assert not computer_requests(requests.urls), computer_requests(requests.urls)
        assert page.page.get_attribute("html", "data-ai") == ""
        assert page.take_problems() == []


def test_the_person_plays_while_the_computer_gets_ready(chromium_browser: Any, site_url: str) -> None:
    with GamePage(chromium_browser, site_url) as visit:
        page = visit.page
        held: list[Any] = []
        page.route("**/" + WORKER_CONFIG.removeprefix("./"), lambda route: held.append(route))  # the worker waits
        page.goto(f"{site_url}/index.html?white=human&black=ai-2")
        visit.wait_ready()
        visit.loaded = True
        assert visit.text("#prompt") == "White: place a ring on an empty point"  # the person's turn: no word of it
        visit.click_point("e5")
        visit.wait_record("1.e5")  # accepted at once, before the computer is up
        page.wait_for_function("() => document.documentElement.dataset.ai === 'starting'")
        assert visit.text("#prompt") == "The computer is getting ready…"
        assert not page.evaluate("document.documentElement.hasAttribute('data-yinsh-ai-ready')")
        visit.click_point("f6")  # not the person's turn: refused with a reason
        assert visit.board("record") == "1.e5" and "wait for it" in visit.text("#hint")
        assert held, "the page never asked for the worker's configuration"
        held.pop().continue_()
        wait_for_person(page, 1)
        assert len(Game.from_record(visit.board("record")).moves) == 2
        assert page.evaluate("document.documentElement.hasAttribute('data-yinsh-ai-ready')")
        visit.click_point("d4")
        wait_for_person(page, 3)
        assert visit.take_problems() == []


def test_a_page_of_three_diagrams_never_asks_for_pyodide(chromium_browser: Any, site_url: str) -> None:
    with RecordedPage(chromium_browser, site_url) as tutorial:
        requests = Requests(tutorial)
        tutorial.page.goto(f"{site_url}/{EXAMPLE}")
        frames = tutorial.page.locator("iframe")
        assert frames.count() == 3
        for i in range(3):
            wait_ready(frames.nth(i).element_handle().content_frame(), lambda: tutorial.problems)
        micropython = [u for u in requests.urls if u.endswith("/micropython.wasm")]
        assert micropython and not computer_requests(requests.urls), computer_requests(requests.urls)
        assert tutorial.take_problems() == []
