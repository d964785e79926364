"""Play feel (issue 14) in the browser: a move previewed before it is made, rows chosen where the
pointer is, the first minute, sound. Checked by the page's hooks and geometry, with the engine as
the reference; every state is also saved as a screenshot in test-artifacts/ (feel-*.png).

- The preview marks exactly the markers the engine flips for that destination (the game after
  the legal move, compared marker by marker), under the mouse, the keyboard's focus and a
  dragged ring; the last move's flips stay marked until the next move.
- Clicking the middle of each of two overlapping candidate rows chooses that row.
- Until Python answers, nothing looks or acts clickable; the first visit's question shows once,
  and a link skips it.
- Sound is off until switched on, then made by oscillators: nothing is fetched.
"""

from __future__ import annotations

from typing import Any

import pytest
from clicks import touch_drag
from games import BRAVE_COMBO
from pages import GamePage, RecordedPage, save_settled_screenshot, shared_page_fixtures
from test_access import AXE, axe_problems

from yinsh.board import BIT, POINTS, WINDOWS, parse_point, point_name
from yinsh.game import Game
from yinsh.move import parse_row
from yinsh.state import make_state

LOADER = "static/vendor/micropython/micropython.wasm"
THEMES = ("light", "dark", "high-contrast")


class MousePage(GamePage):
    """The game page on a screen with a mouse (hover exists), 1280 × 800."""

    def __init__(self, browser: Any, base_url: str) -> None:
        super().__init__(browser, base_url, has_touch=False, viewport={"width": 1280, "height": 800})

    def begin_test(self) -> None:
        super().begin_test()
        self.page.set_viewport_size({"width": 1280, "height": 800})

    def previewed(self, what: str) -> set[str]:
        """The points (markers, or the landing point) carrying ``data-preview=what``."""
        return set(self.page.eval_on_selector_all(
            f'#board [data-preview="{what}"]', "els => els.map(e => e.dataset.marker || e.dataset.point)"))

    def centre(self, name: str) -> tuple[float, float]:
        box = self.page.locator(f'#board [data-point="{name}"]').bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def hover(self, name: str) -> None:
        """The mouse over the point ``name`` (whatever is drawn on top of it)."""
        self.page.mouse.move(*self.centre(name))
        self.page.wait_for_timeout(60)


shared_mouse, mouse = shared_page_fixtures(MousePage, "mouse", screenshot_failures=True)

MIDGAME = Game.from_record(" ".join(f"{i + 1}.{m}" for i, m in enumerate(BRAVE_COMBO.moves[:44])))
"""Brave Combo after 44 moves: White to move, markers everywhere."""


def engine_flips(game: Game, source: int, target: int) -> tuple[set[str], set[str]]:
    """What the legal move ``source``-``target`` of ``game`` turns over, read from the game after
    it is played: the markers of the other colour after it, and those its rows took away."""
    move = next(m for m in game.legal_moves() if m.kind == "move" and (m.source, m.target) == (source, target))
    after = Game.from_position(game.position())
    after.play(move)
    s, t = game.state, after.state
    changed = (s.white_markers & t.black_markers) | (s.black_markers & t.white_markers)
    gone = (s.white_markers | s.black_markers) & ~(t.white_markers | t.black_markers)
    return ({point_name(p) for p in POINTS if changed & BIT[p]},
            {point_name(p) for p in POINTS if gone & BIT[p] and p != source})


def overlapping_rows() -> Game:
    """White to remove one of the rows f10-j10 and g10-k10 (six in a line)."""
    s = make_state(["a2", "k8", "h9", "b7", "c8"], ["a5", "k7", "j11", "i11", "h11"],
                   ["f10", "g10", "h10", "i10", "j10", "k10"])
    return Game.from_state(s, 40)


# --------------------------------------------------------------------------- 1. the preview


def test_the_preview_marks_what_the_engine_flips(mouse):
    mouse.open(record=MIDGAME.record())
    page = mouse.page
    moves = [m for m in MIDGAME.legal_moves() if m.kind == "move"]
    rings = sorted({m.source for m in moves})
    source = max(rings, key=lambda p: sum(bool(engine_flips(MIDGAME, p, m.target)[0]) for m in moves if m.source == p))
    mouse.click_point(point_name(source))
    destinations = sorted(mouse.dests())
    assert destinations
    flipping = 0
    for name in destinations:
        mouse.hover(name)
        assert mouse.previewed("ring") == {name}, name
        flipped, gone = engine_flips(MIDGAME, source, parse_point(name))
        shown = mouse.previewed("flip")
        assert shown - gone == flipped and flipped <= shown, (name, shown, flipped)
        flipping += bool(flipped)
    assert flipping >= 2, "the test position should have jumps that flip"
    best = max(destinations, key=lambda n: len(engine_flips(MIDGAME, source, parse_point(n))[0]))
    mouse.hover(best)
    assert page.locator("#board .yb-preview .ring.preview").count() == 1
    for theme in THEMES:
        page.select_option("#theme-choice", theme)
        assert mouse.previewed("ring") == {best}
        save_settled_screenshot(page, f"feel-preview-desktop-{theme}")
    page.select_option("#theme-choice", "auto")
    page.mouse.move(5, 5)  # off the board: nothing previewed
    page.wait_for_timeout(60)
    assert not mouse.previewed("ring") and not mouse.previewed("flip")
    # the move made: its flips stay marked until the next move
    mouse.click_point(best)
    mouse.wait_record(MIDGAME.record() + f" 45.{point_name(source)}-{best}")
    marked = set(page.eval_on_selector_all("#board .yb-flipped",
                                           "els => els.map(e => e.getAttribute('cx') + ',' + e.getAttribute('cy'))"))
    assert len(marked) == len(engine_flips(MIDGAME, source, parse_point(best))[0])
    mouse.click_point(point_name(next(p for p in POINTS if p in _movable(page))))  # Black picks a ring
    assert page.locator("#board .yb-flipped").count() == len(marked)


def _movable(page: Any) -> set[int]:
    names = page.eval_on_selector_all("#board .ring.movable", "els => els.map(e => e.dataset.ring)")
    return {parse_point(n) for n in names}


def test_a_move_that_makes_a_row_says_so_for_either_player(mouse):
    s = make_state(["e4", "k8", "h10", "b7", "c8"], ["a5", "k10", "j11", "i11", "h11"], ["e5"],
                   ["c5", "d5", "f5", "g5"])
    game = Game.from_state(s, 40)
    mouse.open(position=game.position())
    mouse.click_point("e4")
    mouse.hover("e6")  # e5 turns black: c5-g5 is five for Black
    assert mouse.previewed("flip") == {"e5"}
    assert mouse.text("#preview-note") == "Makes a row for Black (c5-g5)"
    assert mouse.page.locator("#board .yb-preview-row").count() == 1
    save_settled_screenshot(mouse.page, "feel-preview-row-desktop-light")
    mouse.hover("e3")
    assert mouse.page.locator("#preview-note").is_hidden()


def test_the_keyboard_focus_and_a_dragged_ring_preview_too(mouse):
    game = Game.from_record(MIDGAME.record())
    mouse.open(record=game.record())
    page = mouse.page
    ring = next(p for p in sorted(_movable(page)))
    target = min(m.target for m in game.legal_moves() if m.kind == "move" and m.source == ring)
    # the keyboard: the focus walks to the ring, Enter picks it, then to the destination
    page.focus("#board")
    page.keyboard.press("ArrowUp")  # the focus shows (it may stay put at the edge)
    start = parse_point(page.get_attribute("#board .focus-ring", "data-point-focus"))
    for key, shift in _key_path(start, ring) + [("Enter", False)] + _key_path(ring, target):
        page.keyboard.press(("Shift+" if shift else "") + key)
    assert mouse.previewed("ring") == {point_name(target)}
    flipped, gone = engine_flips(game, ring, target)
    assert mouse.previewed("flip") - gone == flipped
    save_settled_screenshot(page, "feel-preview-keyboard-desktop-light")
    page.keyboard.press("Escape")
    # a dragged ring: held over the destination, the move there is previewed
    box = page.locator(f'#board [data-point="{point_name(ring)}"]').bounding_box()
    to = page.locator(f'#board [data-point="{point_name(target)}"]').bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    for i in range(1, 9):
        page.mouse.move(box["x"] + box["width"] / 2 + (to["x"] - box["x"]) * i / 8,
                        box["y"] + box["height"] / 2 + (to["y"] - box["y"]) * i / 8)
    assert mouse.previewed("ring") == {point_name(target)}
    assert page.locator("#board .ring.lifted").count() == 1  # the preview did not redraw the board
    save_settled_screenshot(page, "feel-preview-drag-desktop-light")
    page.mouse.up()
    mouse.wait_record(game.record() + f" 45.{point_name(ring)}-{point_name(target)}")


@pytest.mark.parametrize("theme", THEMES)
def test_a_ring_dragged_by_a_finger_previews_its_move(chromium_browser, site_url, theme):
    with RecordedPage(chromium_browser, site_url, viewport={"width": 375, "height": 667}, is_mobile=True,
                      has_touch=True, device_scale_factor=2) as visit:
        page = visit.page
        page.add_init_script(f"localStorage.setItem('yinsh:theme', '{theme}')")
        page.goto(f"{site_url}/index.html#record=" + MIDGAME.record().replace(" ", "%20"))
        page.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=60_000)
        moves = [m for m in MIDGAME.legal_moves() if m.kind == "move" and not m.after]
        move = max(moves, key=lambda m: (len(engine_flips(MIDGAME, m.source, m.target)[0]), m.source, m.target))
        (x0, y0), (x1, y1) = (_finger_at(page, point_name(p)) for p in (move.source, move.target))

        def previewed() -> None:
            page.wait_for_function("p => document.querySelector('#board [data-preview=\"ring\"]')?.dataset.point === p",
                                   arg=point_name(move.target), timeout=5000)
            shown = set(page.eval_on_selector_all('#board [data-preview="flip"]',
                                                  "els => els.map(e => e.dataset.marker)"))
            assert shown == engine_flips(MIDGAME, move.source, move.target)[0]
            save_settled_screenshot(page, f"feel-preview-drag-phone-{theme}")

        touch_drag(page, (x0, y0), (x1, y1), while_held=previewed)
        page.wait_for_function("r => document.getElementById('board').dataset.record === r",
                               arg=MIDGAME.record() + f" 45.{move}")
        assert not visit.take_problems()


def _finger_at(page: Any, name: str) -> tuple[float, float]:
    box = page.locator(f'#board [data-point="{name}"]').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _key_path(start: int, goal: int) -> list[tuple[str, bool]]:
    """Arrow keys (with Shift or not) walking the keyboard's focus from ``start`` to ``goal``."""
    from yinsh.page.access import KEY_DIRECTIONS, neighbour

    seen, frontier = {start: []}, [start]
    while frontier:
        nxt = []
        for p in frontier:
            for key, shift in KEY_DIRECTIONS:
                q = neighbour(p, key, shift)
                if q not in seen:
                    seen[q] = seen[p] + [(key, shift)]
                    nxt.append(q)
        frontier = nxt
    return seen[goal]


# --------------------------------------------------------------------------- 2. rows


def test_the_middle_of_each_overlapping_row_chooses_that_row(mouse):
    game = overlapping_rows()
    page = mouse.page
    for name in ("f10-j10", "g10-k10"):
        mouse.open(position=game.position())
        assert mouse.rows() == {"f10-j10", "g10-k10"}
        window = WINDOWS[parse_row(*name.split("-"))]
        middle = point_name(window[2])
        mouse.hover(middle)  # the five that would leave, shown
        assert mouse.previewed("row") == {point_name(p) for p in window}, name
        save_settled_screenshot(page, f"feel-rows-hover-{name}")
        page.mouse.click(*mouse.centre(middle))  # on the middle marker, where both rows' bars lie
        assert page.get_attribute(f'#row-choices [data-choice="{name}"]', "aria-pressed") == "true"
        other = ({"f10-j10", "g10-k10"} - {name}).pop()
        assert "dim" in page.get_attribute(f'#board .row[data-row="{other}"]', "class")
        assert "selected" in page.get_attribute(f'#board .row[data-row="{name}"]', "class")
    # the fill lies under the pieces, the bars on top are outlines: the markers keep their colours
    order = page.evaluate("[...document.querySelector('#board svg').children].map(e => e.getAttribute('class'))")
    assert order.index("yb-under") < order.index("yb-pieces") < order.index("yb-rows")
    assert page.eval_on_selector("#board .row", "e => getComputedStyle(e).fill") in ("transparent", "rgba(0, 0, 0, 0)")
    mouse.hover("i10")
    for theme in THEMES:
        page.select_option("#theme-choice", theme)
        save_settled_screenshot(page, f"feel-rows-chosen-desktop-{theme}")
    page.select_option("#theme-choice", "auto")


# --------------------------------------------------------------------------- 3. the first minute


def test_until_python_answers_nothing_looks_clickable(chromium_browser, site_url):
    with RecordedPage(chromium_browser, site_url) as visit:
        page = visit.page
        held: list[Any] = []
        page.route(f"**/{LOADER}", lambda route: held.append(route))
        page.goto(f"{site_url}/index.html", wait_until="domcontentloaded")
        page.wait_for_function("document.querySelector('#board svg') !== null")
        page.wait_for_timeout(300)
        state = page.evaluate("""() => ({
            svg: getComputedStyle(document.querySelector('#board svg')).pointerEvents,
            loading: getComputedStyle(document.getElementById('board'), '::after').content,
            buttons: [...document.querySelectorAll('#panel button, #panel select, #panel summary')]
                .filter(e => e.offsetParent).map(e => getComputedStyle(e).pointerEvents),
            ready: document.documentElement.hasAttribute('data-yinsh-ready')})""")
        assert not state["ready"] and state["svg"] == "none" and "Loading" in state["loading"]
        assert state["buttons"] and set(state["buttons"]) == {"none"}
        save_settled_screenshot(page, "feel-loading-desktop-light")
        while not held:
            page.wait_for_timeout(50)
        for route in held:
            route.continue_()
        page.unroute(f"**/{LOADER}")
        page.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=60_000)
        assert page.eval_on_selector("#board svg", "e => getComputedStyle(e).pointerEvents") != "none"
        assert not visit.take_problems()


def test_the_first_visit_asks_once_and_links_skip_it(chromium_browser, site_url):
    with RecordedPage(chromium_browser, site_url, first_visit=True) as visit:
        page = visit.page
        page.goto(f"{site_url}/index.html")
        page.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=60_000)
        dialog = page.locator("#welcome-dialog")
        assert dialog.is_visible()
        for text in ("Play the computer (level 2)", "Two players here"):
            assert page.locator("#welcome-dialog button", has_text=text).is_visible()
        save_settled_screenshot(page, "feel-first-visit-desktop-light")
        if AXE.is_file():
            assert axe_problems(page, AXE) == []
        page.locator("#welcome-dialog button", has_text="Two players here").click()
        assert not dialog.is_visible()
        assert page.evaluate("localStorage.getItem('yinsh:welcome')") == "two"
        page.reload()
        page.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=60_000)
        assert not dialog.is_visible()  # once
        assert not visit.take_problems()
    with RecordedPage(chromium_browser, site_url, first_visit=True) as visit:  # a link: no question
        page = visit.page
        page.goto(f"{site_url}/index.html#record=1.e3%202.a5")
        page.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=60_000)
        assert not page.locator("#welcome-dialog").is_visible()
        page.goto(f"{site_url}/index.html?white=human&black=human")
        page.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=60_000)
        assert not page.locator("#welcome-dialog").is_visible()
        assert not visit.take_problems()


def test_play_the_computer_from_the_first_visit(chromium_browser, site_url):
    with RecordedPage(chromium_browser, site_url, first_visit=True, viewport={"width": 375, "height": 667},
                      is_mobile=True, has_touch=True) as visit:
        page = visit.page
        urls: list[str] = []
        page.on("request", lambda request: urls.append(request.url))
        page.goto(f"{site_url}/index.html")
        page.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=60_000)
        save_settled_screenshot(page, "feel-first-visit-phone-light")
        page.wait_for_timeout(500)
        assert not any("/static/vendor/pyodide" in url for url in urls)  # no answer yet: no Pyodide
        button = page.locator("#welcome-dialog button", has_text="Play the computer")
        button.dispatch_event("pointerdown")  # the finger on the button: the computer's worker starts
        for _ in range(100):
            if any(url.split("?")[0].endswith("/worker.json") for url in urls):
                break
            page.wait_for_timeout(100)
        assert any(url.split("?")[0].endswith("/worker.json") for url in urls), "the worker did not start"
        button.tap()
        page.wait_for_function("document.querySelector('#player-black .kind').textContent === 'AI 2'")
        assert page.evaluate("localStorage.getItem('yinsh:welcome')") == "computer"
        assert '"black":"ai-2"' in page.evaluate("localStorage.getItem('yinsh:new-game')")
        assert page.text_content("#player-white .kind") == "by hand"
        assert not visit.take_problems()


# --------------------------------------------------------------------------- 6. sound


SOUND_PROBE = """(() => {
    window.yinshTones = 0;
    const make = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function () { window.yinshTones += 1; return make.call(this); };
})();"""


def test_sound_is_off_until_switched_on_and_fetches_nothing(chromium_browser, site_url):
    with RecordedPage(chromium_browser, site_url) as visit:
        page = visit.page
        page.add_init_script(SOUND_PROBE)
        requests: list[str] = []
        page.goto(f"{site_url}/index.html")
        page.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=60_000)
        assert not page.is_checked("#sound-switch")
        page.click('#board [data-point="e3"]')
        assert page.get_attribute("html", "data-sounds") is None and page.evaluate("window.yinshTones") == 0
        page.on("request", lambda request: requests.append(request.url))
        page.check("#sound-switch")
        assert page.evaluate("localStorage.getItem('yinsh:sound')") == "on"
        save_settled_screenshot(page, "feel-sound-on-desktop-light")
        tones = page.evaluate("window.yinshTones")
        assert tones >= 1  # the switch says it with a sound
        page.click('#board [data-point="a5"]')
        assert page.get_attribute("html", "data-sounds") == "place"
        assert page.evaluate("window.yinshTones") > tones
        page.wait_for_timeout(300)
        fetched = [url for url in requests if not url.endswith("/static/favicon.svg")]  # the browser's own
        assert fetched == [], fetched  # synthesised: no sound file, nothing fetched
        page.reload()
        page.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=60_000)
        assert page.is_checked("#sound-switch")  # remembered
        assert not visit.take_problems()


def test_a_move_and_its_flips_and_a_row_are_heard(mouse):
    game = Game.from_state(make_state(["e2", "k8", "h10", "b7", "c8"], ["a5", "k10", "j11", "i11", "h11"], [],
                                      ["e3", "e4", "e5", "e6"]), 40)
    mouse.open(position=game.position())
    page = mouse.page
    page.check("#sound-switch")
    try:
        mouse.click_point("e2")
        mouse.click_point("e7")  # flips e3-e6: e2-e6 is White's row, chosen at once
        assert page.get_attribute("html", "data-sounds") == "move flip"
        mouse.click_point("e7")
        assert page.get_attribute("html", "data-sounds") == "row"
    finally:
        page.uncheck("#sound-switch")
