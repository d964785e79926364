"""The instant page (issue 11): MicroPython on the main thread, Pyodide only for the computer.

- a whole game between two people, by clicks (the markers running out: the pool's count and
  warning, the result), never asks for a file of Pyodide or of the computer player (its
  worker, its configuration, the AI's modules);
- against the computer, the person's placements are accepted while the computer's worker is
  still held back (its configuration is not served yet) and the computer answers each at once:
  the page makes the computer's ring placements itself (issue 21); it says the computer is
  getting ready only when the computer's first ring move needs the worker, and that move
  comes once the worker is up;
- a link naming a computer starts its worker from the page's ``<head>``, before the page's own
  Python is up, and the page takes that worker; when no computer plays after all, the page
  closes it; a link naming two people starts nothing;
- a tutorial page of three embedded diagrams asks for nothing of Pyodide either.

Every page here fails its test on a console error, a page error or a request off the origin.
"""

from __future__ import annotations

from typing import Any

from games import SCENARIOS
from pages import EARLY_WORKER_TAKEN_JS, GamePage, RecordedPage, wait_for_person
from test_embed import EXAMPLE, wait_ready

from yinsh.game import Game
from yinsh.state import pool
from yinsh.web.client import WORKER_CONFIG

#: What only the computer player loads (the page itself has the AI's placement rule).
COMPUTER_ONLY = ("/static/vendor/pyodide/", WORKER_CONFIG.removeprefix("."), "/yinsh/ai/", "/yinsh/web/worker.py")
PAGE_OWN = ("/yinsh/ai/placement.py",)


def computer_requests(urls: list[str]) -> list[str]:
    return [u for u in urls if any(part in u for part in COMPUTER_ONLY) and not any(own in u for own in PAGE_OWN)]


class Requests:
    """Every URL the pages of a browser context asked for."""

    def __init__(self, page: RecordedPage) -> None:
        self.urls: list[str] = []
        page.context.on("request", lambda request: self.urls.append(request.url))


def test_a_game_between_two_people_never_asks_for_pyodide(chromium_browser: Any, site_url: str) -> None:
    """The markers run out: the pool counts down and warns from ten on, the result is said, a
    press inside a dialog leaves it in place, and nothing of the computer was ever asked for."""
    game = SCENARIOS["out of markers"]
    with GamePage(chromium_browser, site_url) as page:
        requests = Requests(page)
        page.open()
        replay = Game()
        warned = False
        for move in game.moves:
            page.play(move)
            replay.push(move)
            page.wait_record(replay.record())
            left = pool(replay.state)
            assert page.text("#pool-count") == str(left)
            assert page.page.locator("#pool-warning").is_visible() == (left <= 10), left
            warned |= left <= 10
        assert warned
        assert page.board("result") == game.result == "0-1"
        assert page.text("#banner-title") == "Black wins"
        assert page.text("#banner-text") == "The markers ran out, Black removed 1 ring to 0"
        assert page.text("#pool-count") == "0"
        # a press inside a dialog answers the dialog and leaves the result where it is
        page.page.locator("body").focus()
        page.page.keyboard.press("?")
        keys = page.page.locator("#keys-dialog")
        keys.wait_for(state="visible")
        page.page.click("#keys-dialog #keys-title")
        page.page.click("#keys-dialog button[data-action=close-keys]")
        assert keys.is_hidden() and page.page.locator("#banner").is_visible()
        assert not computer_requests(requests.urls), computer_requests(requests.urls)
        assert page.page.get_attribute("html", "data-ai") == ""
        assert page.take_problems() == []


def test_the_computer_places_at_once_and_gets_ready_for_its_first_ring_move(chromium_browser: Any,
                                                                           site_url: str) -> None:
    with GamePage(chromium_browser, site_url) as visit:
        page = visit.page
        held: list[Any] = []
        page.route("**/" + WORKER_CONFIG.removeprefix("./"), lambda route: held.append(route))  # the worker waits
        page.goto(f"{site_url}/index.html?white=human&black=ai-2")
        visit.wait_ready()
        visit.loaded = True
        assert visit.text("#prompt") == "White: place a ring on an empty point"  # the person's turn: no word of it
        for ply in range(0, 10, 2):  # five placements each, the computer's made by the page while its worker waits
            placed = {str(m) for m in Game.from_record(visit.board("record")).moves}
            point = next(p for p in ("e5", "f6", "d4", "g7", "c3", "h8", "e7", "f4", "d6", "g5", "b4")
                         if p not in placed)
            visit.click_point(point)
            wait_for_person(page, ply + 1)
            assert not page.evaluate("document.documentElement.hasAttribute('data-yinsh-ai-ready')")
            assert page.get_attribute("html", "data-ai") == ""
        game = Game.from_record(visit.board("record"))
        assert len(game.moves) == 10 and not game.in_placement
        visit.play(next(m for m in game.legal_moves() if not m.before and not m.after))  # White's first ring move
        page.wait_for_function("() => document.documentElement.dataset.ai === 'starting'")
        assert visit.text("#prompt") == "The computer is getting ready…"
        visit.click_point("a5")  # not the person's turn: refused with a reason
        assert len(Game.from_record(visit.board("record")).moves) == 11 and "wait for it" in visit.text("#hint")
        assert held, "the page never asked for the worker's configuration"
        held.pop().continue_()
        wait_for_person(page, 11)
        assert len(Game.from_record(visit.board("record")).moves) == 12
        assert page.evaluate("document.documentElement.hasAttribute('data-yinsh-ai-ready')")
        assert visit.take_problems() == []


def test_a_computer_playing_white_places_its_first_ring_at_once(chromium_browser: Any, site_url: str) -> None:
    with GamePage(chromium_browser, site_url) as visit:
        page = visit.page
        page.route("**/" + WORKER_CONFIG.removeprefix("./"), lambda route: None)  # the worker never comes
        page.goto(f"{site_url}/index.html?white=ai-3&black=human")
        visit.wait_ready()
        visit.loaded = True
        page.wait_for_function("() => document.getElementById('board').dataset.toMove === 'black'")
        assert len(Game.from_record(visit.board("record")).moves) == 1
        assert visit.text("#prompt") == "Black: place a ring on an empty point"
        assert visit.take_problems() == []


def test_choosing_a_computer_in_the_new_game_dialog_starts_its_worker(chromium_browser: Any, site_url: str) -> None:
    """A computer chosen in the dialog is likely to play: its worker starts before Start is pressed."""
    with GamePage(chromium_browser, site_url) as page:
        requests = Requests(page)
        page.open()
        page.page.click("#panel button[data-action=setup]")
        page.page.locator("#new-game-dialog select[name=black]").select_option("ai-3")
        page.page.wait_for_function("() => document.documentElement.hasAttribute('data-yinsh-ai-ready')",
                                    timeout=120_000)
        assert page.page.locator("#new-game-dialog").is_visible() and computer_requests(requests.urls)
        page.page.click("#new-game-dialog button[data-action=cancel-dialog]")
        assert page.take_problems() == []


def test_a_link_naming_a_computer_starts_its_worker_before_the_pages_python(chromium_browser: Any,
                                                                            site_url: str) -> None:
    """``?black=ai-2`` asks for the worker's configuration while the page's own Python is held
    back (its MicroPython not served yet), and the page then takes that worker: one worker, one
    configuration asked for, the computer ready."""
    with GamePage(chromium_browser, site_url) as visit:
        requests = Requests(visit)
        page = visit.page
        held: list[Any] = []
        holding = [True]

        def hold(route: Any) -> None:  # MicroPython held back until the worker is under way
            if holding[0]:
                held.append(route)
            else:
                route.continue_()

        page.route("**/micropython/micropython.wasm", hold)
        page.goto(f"{site_url}/index.html?white=human&black=ai-2")
        page.wait_for_function("() => performance.getEntriesByType('resource')"
                               ".some(e => e.name.includes('/worker.json'))")
        assert held and not page.evaluate("document.documentElement.hasAttribute('data-yinsh-ready')")
        holding[0] = False
        while held:
            held.pop().continue_()
        visit.wait_ready()
        visit.loaded = True
        page.wait_for_function("() => document.documentElement.hasAttribute('data-yinsh-ai-ready')",
                               timeout=120_000)
        assert page.evaluate(EARLY_WORKER_TAKEN_JS)
        for asked in (WORKER_CONFIG.removeprefix("."), "/pyodide.asm.wasm"):  # one worker: the early one
            assert len([u for u in requests.urls if asked in u]) == 1, (asked, computer_requests(requests.urls))
        assert visit.take_problems() == []


def test_a_link_whose_computer_does_not_play_closes_the_early_worker(chromium_browser: Any,
                                                                     site_url: str) -> None:
    """The page's ``<head>`` only guesses from the link; the page's Python decides: no level 9,
    so Black is played by hand, and the worker started for it is closed once it is up."""
    with GamePage(chromium_browser, site_url) as visit:
        page = visit.page
        page.goto(f"{site_url}/index.html?white=human&black=ai-9")
        visit.wait_ready()
        visit.loaded = True
        assert "Black is played by hand" in visit.text("#notices")
        assert page.evaluate("window.yinshEarlyWorker.state") == "closed"
        assert page.evaluate("async () => await window.yinshEarlyWorker.started") is None  # closed once up
        assert page.get_attribute("html", "data-ai") == ""
        assert not page.evaluate("document.documentElement.hasAttribute('data-yinsh-ai-ready')")
        visit.click_point("e5")  # a game between people goes on
        visit.wait_record("1.e5")
        assert visit.board("to-move") == "black" and visit.text("#prompt") == "Black: place a ring on an empty point"
        assert visit.take_problems() == []


def test_a_link_naming_two_people_never_starts_the_worker(chromium_browser: Any, site_url: str) -> None:
    with GamePage(chromium_browser, site_url) as visit:
        requests = Requests(visit)
        visit.page.goto(f"{site_url}/index.html?white=human&black=human")
        visit.wait_ready()
        visit.loaded = True
        visit.page.wait_for_timeout(500)  # anything the page's head started would be under way by now
        assert not visit.page.evaluate("'yinshEarlyWorker' in window")
        assert not computer_requests(requests.urls), computer_requests(requests.urls)
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
