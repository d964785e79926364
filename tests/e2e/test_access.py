"""Everyone can play: the keyboard alone, a screen reader, a phone's touch screen; axe-core
finds no serious or critical problem at the start, mid-game, in a row choice and at the end.

The desktop tests share one page (the ``game_page`` fixture: a game is opened through the URL
hash); the phone test boots its own small touch screen page.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

import pytest
from clicks import touch_drag
from games import BRAVE_COMBO, NOTATION_EXAMPLE, SCENARIOS
from helpers import unavailable
from pages import GamePage, save_settled_screenshot

from yinsh.board import WINDOWS, parse_point, point_name
from yinsh.game import Game
from yinsh.move import Move, row_name
from yinsh.page.access import KEY_DIRECTIONS, move_announcement, neighbour

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
ARROWS = list(KEY_DIRECTIONS)


# --------------------------------------------------------------------------- the keyboard


def key_path(start: int, goal: int) -> list[str]:
    """The shortest list of key presses taking the focus from ``start`` to ``goal``."""
    back: dict[int, tuple[int, str] | None] = {start: None}
    queue = deque([start])
    while queue:
        point = queue.popleft()
        if point == goal:
            break
        for key, shift in ARROWS:
            nxt = neighbour(point, key, shift)
            if nxt not in back:
                back[nxt] = (point, f"Shift+{key}" if shift else key)
                queue.append(nxt)
    keys: list[str] = []
    point = goal
    while back[point] is not None:
        point, key = back[point]  # type: ignore[misc]
        keys.append(key)
    return keys[::-1]


class Keyboard:
    """A person at the keyboard: Tab into the board, arrows to a point, Enter or Space."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def focused_point(self) -> int:
        active = self.page.get_attribute("#board", "aria-activedescendant") or ""
        assert active.startswith("yb-pt-"), f"the board has no active point ({active!r})"
        return parse_point(active.removeprefix("yb-pt-"))

    def go(self, name: str) -> None:
        assert self.page.evaluate("document.activeElement.id") == "board", "the board has lost the focus"
        for key in key_path(self.focused_point(), parse_point(name)):
            self.page.keyboard.press(key)
        assert self.focused_point() == parse_point(name)

    def act(self, name: str, key: str = "Enter") -> None:
        self.go(name)
        self.page.keyboard.press(key)

    def selected_row(self) -> str:
        return self.page.eval_on_selector_all("#board .row.selected", "els => els.map(e => e.dataset.row).join()")

    def play(self, move: Move) -> None:
        """The keys that make ``move``; a row through points of other rows is cycled to with Enter."""
        for removal in move.before:
            self.remove(removal.row, removal.ring)
        if move.kind == "place":
            self.act(point_name(move.target), key="Space")  # Space acts as Enter does
        elif move.kind == "move":
            self.act(point_name(move.source))
            self.act(point_name(move.target))
        for removal in move.after:
            self.remove(removal.row, removal.ring)

    def remove(self, row: int, ring: int) -> None:
        wanted = row_name(row)
        if self.selected_row() != wanted:
            self.act(point_name(WINDOWS[row][2]))
            for _ in range(3):
                if self.selected_row() == wanted:
                    break
                self.page.keyboard.press("Enter")
        assert self.selected_row() == wanted
        self.act(point_name(ring))


def focus_board(page: Any) -> Keyboard:
    page.focus("#board")
    return Keyboard(page)


def test_a_game_played_with_the_keyboard_alone(game_page):
    """A ring placed, ring moves with flips, a row chosen among two by Enter, rings removed,
    to the end of a real game (BraveCombo against Dumbot, which Black wins 3 to 2)."""
    moves = BRAVE_COMBO.moves
    game_page.open(record=_numbered(moves[:9]))
    keys = focus_board(game_page.page)
    keys.play(moves[9])  # the tenth ring, by Space
    game_page.wait_record(_numbered(moves[:10]))
    # near the end: 58.f5-f9 flips three markers and makes the six f3-f8: two rows to choose from
    game_page.open(record=_numbered(moves[:57]))
    keys = focus_board(game_page.page)
    keys.act("f5")
    assert "f9" in game_page.dests()
    keys.act("f9")
    assert game_page.rows() == {"f3-f7", "f4-f8"}
    assert game_page.page.locator("#row-choices button").all_inner_texts() == ["Row f3-f7", "Row f4-f8"]
    keys.act("f6")  # in both rows: Enter chooses the first, Enter again the next
    assert keys.selected_row() == "f3-f7"
    game_page.page.keyboard.press("Enter")
    assert keys.selected_row() == "f4-f8"
    assert game_page.text("#announcer").endswith("choose one of your rings to remove with row f4-f8")
    assert game_page.page.get_attribute('#row-choices [data-choice="f4-f8"]', "aria-pressed") == "true"
    keys.act("c7")
    game_page.wait_record(_numbered(moves[:58]))
    for number in range(59, len(moves) + 1):
        keys.play(moves[number - 1])
        game_page.wait_record(_numbered(moves[:number]))
    assert game_page.board("record") == BRAVE_COMBO.record()
    assert game_page.board("result") == "0-1"
    assert game_page.text("#banner-title") == "Black wins"
    assert "Black wins 3 to 2" in game_page.text("#announcer")


def _numbered(moves) -> str:
    return " ".join(f"{i}.{m}" for i, m in enumerate(moves, start=1))


def test_the_focused_point_is_ringed_and_escape_cancels(game_page):
    game_page.open(record=NOTATION_EXAMPLE)
    page = game_page.page
    keys = focus_board(page)
    keys.go("h7")
    ring = page.locator("#board .focus-ring")
    assert ring.get_attribute("data-point-focus") == "h7" and ring.is_visible()
    assert _center(page, "h7") == pytest.approx(_center(page, ".focus-ring"), abs=1)
    page.keyboard.press("Enter")
    assert len(game_page.dests()) == 22  # the ring on h7 is picked
    assert game_page.board("phase") == "move-ring"
    # the board was redrawn: the focus and its ring stayed
    assert page.evaluate("document.activeElement.id") == "board"
    assert ring.get_attribute("data-point-focus") == "h7" and ring.is_visible()
    page.keyboard.press("Escape")
    assert game_page.board("phase") == "pick-ring" and game_page.dests() == set()
    # the arrows stay in the board: they neither scroll the page nor reach the document's
    # listeners (where arrows step through the move list)
    page.evaluate("""() => { window.arrowsOutside = 0;
        document.addEventListener('keydown', e => { if (e.key.startsWith('Arrow')) window.arrowsOutside++; }); }""")
    for key in ("ArrowLeft", "ArrowDown", "Shift+ArrowRight"):
        page.keyboard.press(key)
    assert page.evaluate("[window.arrowsOutside, scrollY]") == [0, 0]
    assert ring.get_attribute("data-point-focus") == "h7"  # h7 ← g7 ↓ g6 ⇧→ h7


def test_a_key_pressed_switches_the_words_to_the_keyboard_s(game_page):
    """The line under the prompt names the input used last: the pointer's words after a click
    (the mouse's, or a touch screen's where the device has no mouse: headless Chromium may say
    so), the keyboard's once a key is pressed, the pointer's again after the next press, on the
    board or beside it."""
    game_page.open(record=NOTATION_EXAMPLE)
    page = game_page.page
    game_page.click_point("h7")  # the pointer picks a ring
    assert game_page.board("phase") == "move-ring"
    page.wait_for_function("!document.getElementById('detail').textContent.includes('arrow keys')")
    by_pointer = game_page.text("#detail")
    assert by_pointer in ("Select a lit point, or drag the ring there. Select the ring again or press Escape to "
                          "cancel.", "Tap a lit point, or drag the ring there. Tap the ring again to cancel.")
    keys = focus_board(page)
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.getElementById('detail').textContent.includes('arrow keys')")
    assert game_page.text("#detail") == ("Move to a lit point with the arrow keys and press Enter. "
                                         "Press Escape to cancel.")
    assert keys.focused_point() == parse_point("g7")
    page.keyboard.press("Escape")  # the page's key, not the board's: the words stay the keyboard's
    assert game_page.board("phase") == "pick-ring"
    assert game_page.text("#detail").startswith("Move to one of your rings with the arrow keys")
    page.mouse.click(5, 400)  # a press beside the board, on the page: the pointer's words again
    page.wait_for_function("!document.getElementById('detail').textContent.includes('arrow keys')")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.getElementById('detail').textContent.includes('arrow keys')")
    game_page.click_point("h7")
    page.wait_for_function("t => document.getElementById('detail').textContent === t", arg=by_pointer)


def test_points_have_names_and_moves_are_announced(game_page):
    game_page.open(record=NOTATION_EXAMPLE)
    page = game_page.page

    def label(name: str) -> str:
        return page.get_attribute(f'#board [data-point="{name}"]', "aria-label") or ""

    assert page.get_attribute("#board", "role") == "application"
    assert label("h7") == "h7, white ring, can move"
    assert label("a5") == "a5, black ring"
    assert label("f6") == "f6, empty"
    assert page.locator("#board [data-point][aria-label]").count() == 85
    keys = focus_board(page)
    keys.act("d6")
    assert label("d6") == "d6, white ring, picked: choose where it goes"
    assert label("f8") == "f8, empty, legal destination"
    assert "choose where the ring on d6 goes" in game_page.text("#announcer")
    keys.act("f8")
    game_page.wait_record(NOTATION_EXAMPLE + " 11.d6-f8")
    assert game_page.text("#announcer").startswith("White moved d6 to f8. Black: choose a ring to move")
    # a move that flips markers says how many
    live = page.locator("#announcer")
    assert live.get_attribute("aria-live") == "polite" and page.locator("[aria-live]").count() == 1
    keys.act("c6")
    keys.act("e6")
    game_page.wait_record(NOTATION_EXAMPLE + " 11.d6-f8 12.c6-e6")
    assert game_page.text("#announcer").startswith("Black moved c6 to e6 and flipped 1 marker")
    # a key that does nothing legal says why
    keys.act("a2")
    assert game_page.text("#announcer") == "Choose one of your rings (white) to move"
    # a picked ring pressed onto a point it cannot reach: why, then what to do now
    keys.act("f8")
    keys.act("k10")
    assert game_page.text("#announcer") == (
        "f8-k10 is not a legal move (f8 and k10 are not on one line): ring put back. White: choose a ring to move")


def test_the_computers_moves_are_announced(game_page):
    game_page.open(record=NOTATION_EXAMPLE)
    game_page.page.evaluate("r => { location.hash = 'black=ai-1&record=' + encodeURIComponent(r); }", NOTATION_EXAMPLE)
    keys = focus_board(game_page.page)
    keys.act("h7")
    keys.act("g7")
    game_page.page.wait_for_function("document.getElementById('board').dataset.record.includes(' 12.')",
                                     timeout=120_000)
    game = Game.from_record(game_page.board("record"))
    answer = game.undo()
    assert game_page.text("#announcer") == f"{move_announcement(game.state, answer)}. White: choose a ring to move"


def test_keyboard_shortcuts_help_and_tab_order(game_page):
    game_page.open()
    page = game_page.page
    page.focus("#board")
    page.keyboard.press("?")
    dialog = page.locator("#keys-dialog")
    assert dialog.is_visible()
    text = dialog.inner_text()
    for needed in ("Shift + ← →", "Enter or Space", "Escape", "Ctrl + Z / Ctrl + Y", "move list"):
        assert needed in text
    page.keyboard.press("Escape")
    assert not dialog.is_visible()
    # Tab from the board: the panel's controls, in the order they are shown
    page.focus("#board")
    order: list[str] = []
    while "setup" not in order and len(order) < 30:
        page.keyboard.press("Tab")
        order.append(page.evaluate("document.activeElement.dataset.action || document.activeElement.id"))
    # the shortcuts' button shows where there is a mouse; this page emulates a touch screen
    keys = ["keys"] if page.locator("button[data-action=keys]").is_visible() else []
    assert order[:1] == (keys or ["rules"])
    shown = keys + ["rules", "guide-switch", "theme-choice", "hint", "new-game", "setup"]  # Undo/Redo: nothing yet
    assert [a for a in order if a in shown] == shown


# --------------------------------------------------------------------------- axe-core


@pytest.fixture(scope="module")
def axe_script() -> Path:
    """axe-core's script; without it (no `npm ci` yet) the test is skipped, or fails under CI,
    the rule conftest applies to a missing browser runtime."""
    if not AXE.is_file():
        unavailable(f"{AXE.relative_to(ROOT)} is missing: run `npm ci` (axe-core is a dev dependency)")
    return AXE


def axe_problems(page: Any, script: Path) -> list[str]:
    """axe-core's serious and critical violations on the page, one line each."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(script))
    page.wait_for_timeout(400)  # let the last move's animations end: axe measures colours
    violations = page.evaluate("""async () => {
        const result = await axe.run(document, {resultTypes: ['violations']});
        return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => `${v.id} (${v.impact}): ${v.help} at `
                      + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '));
    }""")
    return violations


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_problem(game_page, axe_script, scheme):
    page = game_page.page
    page.emulate_media(color_scheme=scheme)
    found = {}
    game_page.open()
    found["start"] = axe_problems(page, axe_script)
    game_page.open(record=_numbered(BRAVE_COMBO.moves[:40]))
    game_page.click_point(point_name(BRAVE_COMBO.moves[40].source))
    found["mid-game"] = axe_problems(page, axe_script)
    game_page.open(record=SCENARIOS["overline of six"].record())
    game_page.click_point("e3")
    game_page.click_point("f3")
    assert game_page.rows() == {"e2-e6", "e3-e7"}
    found["row choice"] = axe_problems(page, axe_script)
    game_page.open(record=BRAVE_COMBO.record())
    assert game_page.page.locator("#banner").is_visible()
    found["end"] = axe_problems(page, axe_script)
    assert not any(found.values()), "\n".join(f"{state}: {v}" for state, vs in found.items() for v in vs)


# --------------------------------------------------------------------------- a phone


@pytest.fixture
def phone(chromium_browser: Any, site_url: str):
    """A 375 × 667 touch screen (a small phone) with its own page, failing the test on any
    error the browser reports or any request leaving the site."""
    page = GamePage(chromium_browser, site_url, viewport={"width": 375, "height": 667}, device_scale_factor=2,
                      is_mobile=True)
    yield page
    page.close()
    assert not page.problems, page.problems


def _center(page: Any, name: str) -> tuple[float, float]:
    """The centre of the point ``name`` on the screen (or of the element a selector names)."""
    selector = f"#board {name}" if name.startswith(".") else f'#board [data-point="{name}"]'
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_phone_fits_the_board_and_plays_by_touch(phone):
    phone.open()
    page = phone.page
    # a press within 22 px of a point is for it when no point is nearer (44 px targets, overlapping
    # ones resolved by distance): a5, pressed from beyond the board's edge, 21 px to its left (by
    # the mouse: Chromium moves a tap onto the nearest clickable element itself, and the page's
    # rule must hold without that)
    x, y = _center(page, "a5")
    page.mouse.click(x - 21, y)
    page.wait_for_function("document.getElementById('board').dataset.record === '1.a5'", timeout=5000)
    phone.open(record=NOTATION_EXAMPLE)
    width = page.evaluate("innerWidth")
    assert width == 375
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scrolling
    box = page.locator("#board svg").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width and box["width"] > 340
    assert box["y"] + box["height"] <= 667  # the whole board on the first screen
    # the prompt and the main actions are on the first screen too, the prompt not under the actions
    for selector in ("#prompt", "nav.actions button[data-action=undo]", "nav.actions button[data-action=setup]"):
        item = page.locator(selector).bounding_box()
        assert item["y"] >= 0 and item["y"] + item["height"] <= 667, selector
    prompt, actions = page.locator("#prompt").bounding_box(), page.locator("nav.actions").bounding_box()
    assert prompt["y"] + prompt["height"] <= actions["y"]
    _assert_finger_sized(page, "nav.actions button:not([hidden])", "#game-menu summary",
                         "button[data-action=rules]", ".learn select", ".learn label")
    assert page.eval_on_selector("#board svg", "e => getComputedStyle(e).touchAction") == "none"
    # every point answers to a touch anywhere in its cell: nearest point within half a step
    spacing = _center(page, "e5")[1] - _center(page, "e4")[1]
    assert abs(spacing) > 30
    hit_radius = page.locator('#board [data-point="h7"]').bounding_box()["width"] / 2
    x, y = _center(page, "h7")
    page.touchscreen.tap(x + hit_radius + 2, y)  # beside the point's circle, still nearest to h7
    page.wait_for_function("document.getElementById('board').dataset.phase === 'move-ring'", timeout=5000)
    assert "g7" in {d for d in page.eval_on_selector_all("#board [data-dest]", "els => els.map(e => e.dataset.dest)")}
    page.wait_for_timeout(300)  # a second tap at once would be a double tap
    page.touchscreen.tap(*_center(page, "g7"))
    page.wait_for_function("r => document.getElementById('board').dataset.record === r",
                           arg=NOTATION_EXAMPLE + " 11.h7-g7", timeout=10_000)
    save_settled_screenshot(page, "phone-375", full_page=False)
    # a finger drags a ring too: Black's e4 to i8
    touch_drag(page, _center(page, "e4"), _center(page, "i8"))
    page.wait_for_function("r => document.getElementById('board').dataset.record === r",
                           arg=NOTATION_EXAMPLE + " 11.h7-g7 12.e4-i8", timeout=10_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # a move of the list: the review area opens under the board, both above the actions
    move = page.locator('#moves button.move[data-ply="4"]')
    move.evaluate("e => e.scrollIntoView({block: 'center'})")  # not under the sticky actions
    move.tap()
    page.wait_for_function("document.getElementById('board').dataset.review === '4'", timeout=5000)
    page.wait_for_timeout(300)  # the scroll into view
    board, review = page.locator("#board svg").bounding_box(), page.locator("#review").bounding_box()
    actions = page.locator("nav.actions").bounding_box()
    assert board["y"] + board["height"] / 2 >= 0 and board["y"] + board["height"] <= review["y"] + 1
    assert review["y"] + review["height"] <= actions["y"] + 1
    _assert_finger_sized(page, "#review button")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.locator("#review button[data-action=live]").tap()
    page.wait_for_function("document.getElementById('board').dataset.review === ''", timeout=5000)
    # the Game menu opens above its button, on the screen, its items finger-sized too
    page.locator("#game-menu summary").tap()
    _assert_finger_sized(page, ".game-menu-items button")
    page.locator("#game-menu summary").tap()


def _assert_finger_sized(page: Any, *selectors: str) -> None:
    """Every visible element the selectors name is at least 44 px tall and inside the screen's width."""
    width = page.evaluate("innerWidth")
    for selector in selectors:
        boxes = [box for item in page.locator(selector).all() if item.is_visible() and (box := item.bounding_box())]
        assert boxes, f"nothing visible: {selector}"
        for box in boxes:
            assert box["height"] >= 44 - 0.5, (selector, box)
            assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (selector, box)
