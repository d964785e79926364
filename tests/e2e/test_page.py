"""The game page, played through the browser as a person would: clicks on points and rows.

Most tests share one page (a cold Pyodide boot costs seconds): a game is opened by
changing the URL hash (``#record=…`` or ``#position=…``), which the page follows without
reloading. The shared page (the ``game_page`` fixture, a
:class:`pages.GamePage`) is checked after every test like the ``yinsh_page`` fixture checks
its own: no console error, no uncaught error, no request leaving the origin, and no error
flagged by the page's own guard (``data-yinsh-error``).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
from clicks import touch_drag
from games import BRAVE_COMBO, NOTATION_EXAMPLE, SCENARIOS
from pages import save_settled_screenshot

from yinsh.board import parse_point, point_name
from yinsh.game import Game
from yinsh.move import Move
from yinsh.render import static_board_svg
from yinsh.state import WHITE, make_state

BOOT_TIMEOUT_MS = 60_000


def position_of(state, ply: int = 40) -> str:
    return Game.from_state(state, ply).position()


def both_rows_state(white_score: int = 0, black_score: int = 0):
    """White's ring d1-d7 flips d3 (completing Black's b3-f3) and d5 (completing White's b5-f5)."""
    return make_state(
        white_rings=["d1", "h8", "k8", "i4", "j9"][: 5 - white_score],
        black_rings=["a2", "j6", "g11", "h11", "k10"][: 5 - black_score],
        white_markers=["b5", "c5", "e5", "f5", "d2", "d3", "d6"],
        black_markers=["b3", "c3", "e3", "f3", "d4", "d5"],
        turn=WHITE,
        score=(white_score, black_score),
    )


# --------------------------------------------------------------------------- start-up


def boot(yinsh_page: Any, path: str) -> Any:
    """Open ``path`` in the fixture's fresh page and wait until the game is interactive,
    failing at once (not after the timeout) if the browser reports an error."""
    response = yinsh_page.open(path)
    for _ in range(BOOT_TIMEOUT_MS // 100):
        if yinsh_page.evaluate("document.documentElement.hasAttribute('data-yinsh-ready')"):
            return response
        if yinsh_page.problems():
            break
        yinsh_page.wait_for_timeout(100)
    pytest.fail(f"{path} did not become ready: {yinsh_page.problems() or 'timeout'}", pytrace=False)


def test_page_loads_clean_and_self_hosted(yinsh_page):
    """Fresh context: the page boots on MicroPython with no console error, no request off its
    origin and nothing of Pyodide (a game between people never needs it)."""
    response = boot(yinsh_page, "/")
    assert response is not None and response.ok
    html = response.text()
    # the board is drawn before Python starts (its 85 points), with nothing to click yet ...
    assert static_board_svg() in html and "data-point=" not in html
    assert yinsh_page.locator("#board [data-point]").count() == 85  # ... and every point is, once it has
    assert yinsh_page.inner_text("#prompt") == "White: place a ring on an empty point"
    assert yinsh_page.get_attribute("#board", "data-record") == ""
    assert yinsh_page.get_attribute("#board", "data-position") == Game().position()
    assert yinsh_page.inner_text("#pool-count") == "51"
    resources = yinsh_page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert any(r.endswith("/static/vendor/micropython/micropython.wasm") for r in resources)
    assert not [r for r in resources if "/pyodide" in r or r.endswith("worker.json")]
    assert all(r.startswith(yinsh_page.base_url) for r in resources)


def test_query_parameters_open_a_game_and_bad_values_give_notices(yinsh_page):
    record = " ".join(f"{i + 1}.{m}" for i, m in enumerate(BRAVE_COMBO.moves[:24]))
    boot(yinsh_page, f"/?record={quote(record)}&black=ai-3")
    assert yinsh_page.get_attribute("#board", "data-record") == record
    assert "AI 3" in yinsh_page.inner_text("#player-black")
    # the page keeps the game in the hash: a reload (or a shared link) reopens it
    assert "#g=G1" in yinsh_page.evaluate("location.href")

    # a bad link changes nothing: the game saved by the first visit stays
    boot(yinsh_page, "/?position=Y1garbage&white=robot")
    notices = yinsh_page.inner_text("#notices")
    assert "Could not open the position" in notices and "Unknown player 'robot'" in notices
    assert "Your saved game is open" in notices
    assert "Traceback" not in notices and "Error" not in yinsh_page.inner_text("body")
    assert yinsh_page.get_attribute("#board", "data-record") == record


# --------------------------------------------------------------------------- whole games


def test_brave_combo_dumbot_played_by_clicks(game_page):
    """A real game with an overline and a diagonal row, to Black's third ring."""
    game_page.open()
    replay = Game()
    for number, move in enumerate(BRAVE_COMBO.moves, start=1):
        game_page.play(move)
        replay.play(move)
        game_page.wait_record(replay.record())
        if number == 40:
            save_settled_screenshot(game_page.page, "mid-game-light", full_page=False)
            game_page.page.emulate_media(color_scheme="dark")
            save_settled_screenshot(game_page.page, "mid-game-dark", full_page=False)
            game_page.page.emulate_media(color_scheme="light")
    assert game_page.board("record") == BRAVE_COMBO.record()
    assert game_page.board("position") == BRAVE_COMBO.position()
    assert game_page.board("result") == "0-1"
    banner = game_page.page.locator("#banner")
    assert banner.is_visible()
    assert game_page.text("#banner-title") == "Black wins"
    assert game_page.text("#banner-text") == "Three rings removed (3 to 2)"
    assert game_page.text("#prompt") == "Black wins: three rings removed (3 to 2)"
    assert game_page.page.locator("#player-black .ring-icon:not(.empty)").count() == 3
    assert game_page.page.locator("#player-white .ring-icon:not(.empty)").count() == 2
    assert game_page.page.locator("#moves li").count() == 66
    save_settled_screenshot(game_page.page, "game-over", full_page=False)
    # the banner offers a new game
    game_page.page.click("#banner button[data-action=new-game]")
    game_page.wait_record("")
    assert not banner.is_visible()


# --------------------------------------------------------------------------- rows


def test_rows_for_both_players_mover_first_then_opponent_before_moving(game_page):
    game_page.open(position=position_of(both_rows_state()))
    game_page.click_point("d1")
    game_page.click_point("d7")
    # White's own row first; Black's row (b3-f3) waits for Black's turn
    assert game_page.rows() == {"b5-f5"}
    assert game_page.text("#prompt") == "White: choose one of your rings to remove"
    game_page.click_row("b5-f5")  # already chosen (the only candidate): clicking it is harmless
    game_page.click_point("h8")
    assert game_page.board("record").endswith("41.d1-d7;xb5-f5xh8")
    assert game_page.board("to-move") == "black"
    assert game_page.rows() == {"b3-f3"}
    assert game_page.text("#prompt") == "Black: choose one of your rings to remove"
    game_page.click_point("j6")
    assert game_page.text("#prompt") == "Black: choose a ring to move"
    assert game_page.rows() == set()
    game_page.click_point("g11")
    dest = sorted(game_page.dests())[0]
    game_page.click_point(dest)
    assert game_page.board("record").endswith(f"42.xb3-f3xj6;g11-{dest}")


def test_completing_the_opponents_third_row_ends_the_game_for_them(game_page):
    game_page.open(position=position_of(both_rows_state(black_score=2)))
    game_page.play(Move.from_text("d1-d7;xb5-f5xh8"))
    assert game_page.rows() == {"b3-f3"}
    game_page.click_point("a2")
    assert game_page.board("record").endswith("41.d1-d7;xb5-f5xh8 42.xb3-f3xa2")
    assert game_page.board("result") == "0-1"
    assert game_page.text("#banner-title") == "Black wins"
    assert game_page.text("#banner-text") == "Three rings removed (3 to 1)"


def test_overline_offers_exactly_its_windows(game_page):
    game_page.open(record=SCENARIOS["overline of six"].record())
    game_page.click_point("e3")
    game_page.click_point("f3")
    assert game_page.rows() == {"e2-e6", "e3-e7"}
    assert game_page.text("#prompt") == "White: choose a row to remove"
    save_settled_screenshot(game_page.page, "overline-choice", full_page=False)
    game_page.click_row("e3-e7")
    assert game_page.text("#prompt") == "White: choose one of your rings to remove"
    game_page.click_point("f7")
    assert game_page.board("record").endswith("21.e3-f3;xe3-e7xf7")


def test_intersecting_rows_one_at_a_time(game_page):
    s = make_state(
        white_rings=["a2", "k8", "h10", "b7", "c8"], black_rings=["a5", "k10", "j11", "i11", "h11"],
        white_markers=["e3", "e4", "e5", "e6", "e7", "c5", "d5", "f5", "g5"],
        turn=WHITE,
    )
    game_page.open(position=position_of(s))
    assert game_page.rows() == {"c5-g5", "e3-e7"}
    game_page.click_row("c5-g5")
    game_page.click_point("a2")
    assert game_page.rows() == set()  # e3-e7 lost e5: nothing more to remove
    assert game_page.text("#prompt") == "White: choose a ring to move"


def test_automatic_pass_with_a_notice(game_page):
    # White's three rings hem each other in at the corner; Black's rings and markers do the rest
    s = make_state(white_rings=["a2", "a3", "b2"], black_rings=["b3", "b4", "c2", "c3", "h8"],
                   white_markers=["a4", "b1"], black_markers=["a5"], turn=WHITE, score=(2, 0))
    code = position_of(s)
    game_page.open(position=code, expect=f'[Position "{code}"]\n\n41.pass')
    assert "White has no ring that can move and passes." in game_page.text("#notices")
    assert game_page.text("#prompt") == "Black: choose a ring to move"


# --------------------------------------------------------------------------- interaction


def test_picking_a_ring_lights_exactly_its_destinations(game_page):
    game_page.open(record=NOTATION_EXAMPLE)
    game = Game.from_record(NOTATION_EXAMPLE)
    game_page.click_point("d6")
    expected = {point_name(m.target) for m in game.legal_moves() if m.source == parse_point("d6")}
    assert game_page.dests() == expected and len(expected) == 22
    # a marker of the mover's colour shows in the picked ring
    ghost = game_page.page.locator('#board [data-ghost="d6"]')
    assert ghost.count() == 1 and "white" in ghost.get_attribute("class")
    assert game_page.text("#prompt") == "White: choose where the ring on d6 goes"
    # click the ring again: cancelled
    game_page.click_point("d6")
    assert game_page.dests() == set() and game_page.board("phase") == "pick-ring"


def test_escape_cancels(game_page):
    game_page.open(record=NOTATION_EXAMPLE)
    game_page.click_point("h7")
    assert game_page.dests()
    game_page.page.keyboard.press("Escape")
    assert game_page.dests() == set()
    assert game_page.text("#prompt") == "White: choose a ring to move"
    assert game_page.board("record") == NOTATION_EXAMPLE


def test_illegal_clicks_change_nothing(game_page):
    game_page.open(record=NOTATION_EXAMPLE)
    position = game_page.board("position")
    for name in ("a5", "f5", "k10"):  # Black's ring, an empty point, an empty point
        game_page.click_point(name)
        assert game_page.board("record") == NOTATION_EXAMPLE and game_page.board("position") == position
        assert game_page.board("phase") == "pick-ring"
    assert "one of your rings" in game_page.text("#hint")
    # a ring picked, then a point it cannot reach: put back, with a hint
    game_page.click_point("e3")
    game_page.click_point("k10")
    assert "is not a legal move" in game_page.text("#hint")
    assert game_page.board("phase") == "pick-ring" and game_page.board("record") == NOTATION_EXAMPLE
    # during placement, a point holding a ring
    game_page.open(record="1.e5")
    game_page.click_point("e5")
    assert game_page.board("record") == "1.e5" and "already holds a ring" in game_page.text("#hint")
    # a click on the board between points does nothing either
    game_page.page.mouse.click(5, 5)
    assert game_page.board("record") == "1.e5"


def _center(page: Any, name: str) -> tuple[float, float]:
    box = page.locator(f'#board [data-point="{name}"]').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_drag_a_ring(game_page):
    game_page.open(record=NOTATION_EXAMPLE)
    page = game_page.page
    # drag h7 onto a point it cannot reach: it goes back, nothing is played
    game = Game.from_record(NOTATION_EXAMPLE)
    assert Move.from_text("h7-a2") not in game.legal_moves()
    page.mouse.move(*_center(page, "h7"))
    page.mouse.down()
    x, y = _center(page, "a2")
    page.mouse.move(x, y, steps=8)
    page.mouse.up()
    assert game_page.board("record") == NOTATION_EXAMPLE
    assert "not a legal move" in game_page.text("#hint")
    # drag h7 to g7
    page.mouse.move(*_center(page, "h7"))
    page.mouse.down()
    x, y = _center(page, "g7")
    page.mouse.move(x, y, steps=10)
    assert "g7" in game_page.dests()
    page.mouse.up()
    game_page.wait_record(NOTATION_EXAMPLE + " 11.h7-g7")
    assert game_page.text("#prompt") == "Black: choose a ring to move"


def test_drag_a_ring_by_touch(game_page):
    """A finger: touch events through the DevTools protocol, as a phone sends them."""
    game_page.open(record=NOTATION_EXAMPLE)
    page = game_page.page
    touch_drag(page, _center(page, "d6"), _center(page, "f8"))
    game_page.wait_record(NOTATION_EXAMPLE + " 11.d6-f8")
    # and a tap is a click: it picks a ring, and another puts it back
    page.touchscreen.tap(*_center(page, "g8"))
    page.wait_for_function("document.querySelectorAll('#board [data-dest]').length > 0", timeout=5000)
    page.touchscreen.tap(*_center(page, "g8"))
    page.wait_for_function("document.querySelectorAll('#board [data-dest]').length === 0", timeout=5000)


def test_undo_and_new_game(game_page):
    game_page.open(record=NOTATION_EXAMPLE + " 11.h7-g7")
    game_page.page.click("#panel button[data-action=undo]")
    game_page.wait_record(NOTATION_EXAMPLE)
    game_page.click_point("e3")
    game_page.page.click("#panel button[data-action=undo]")  # first takes back the picked ring
    assert game_page.board("record") == NOTATION_EXAMPLE and game_page.board("phase") == "pick-ring"
    game_page.page.click("#panel button[data-action=new-game]")
    game_page.page.click("#discard-dialog button[data-action=discard]")  # the game in progress goes
    game_page.wait_record("")
    assert game_page.page.locator("#moves li").count() == 0


def test_move_animation_and_reduced_motion(game_page):
    game_page.open(record=NOTATION_EXAMPLE)
    page = game_page.page
    game_page.click_point("h7")
    game_page.click_point("g7")
    animation = page.eval_on_selector('#board [data-ring="g7"]', "e => getComputedStyle(e).animationName")
    assert animation == "yb-slide"
    # Black's c6-c2 crosses c5 (empty)… use a move over markers: b5-b3? pick one that flips
    game = Game.from_record(NOTATION_EXAMPLE + " 11.h7-g7")
    flipping = next(m for m in game.legal_moves() if m.kind == "move" and _crossed(game, m))
    game_page.click_point(point_name(flipping.source))
    game_page.click_point(point_name(flipping.target))
    flips = page.eval_on_selector_all("#board .marker.flip", "els => els.map(e => getComputedStyle(e).animationName)")
    assert flips == ["yb-flip"] * _crossed(game, flipping)
    page.emulate_media(reduced_motion="reduce")
    game_page.click_point("g7")
    game_page.click_point("g6")
    animation = page.eval_on_selector('#board [data-ring="g6"]', "e => getComputedStyle(e).animationName")
    assert animation == "none"


def _crossed(game: Game, move: Move) -> int:
    """How many markers a ring move flips."""
    from yinsh.board import BETWEEN

    s = game.state
    return (BETWEEN[move.source << 8 | move.target] & (s.white_markers | s.black_markers)).bit_count()


def test_portrait_phone_layout(game_page):
    game_page.open(record=" ".join(f"{i + 1}.{m}" for i, m in enumerate(BRAVE_COMBO.moves[:30])))
    page = game_page.page
    page.set_viewport_size({"width": 390, "height": 844})
    box = page.locator("#board svg").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 0.5
    assert box["width"] > 330  # the board uses the width of the phone
    panel = page.locator("#panel").bounding_box()
    assert panel["y"] >= box["y"] + box["height"] - 1  # the panel sits below the board
    save_settled_screenshot(page, "portrait-phone", full_page=False)
    page.emulate_media(color_scheme="dark")
    save_settled_screenshot(page, "portrait-phone-dark", full_page=False)


def test_a_failing_handler_leaves_a_hint_not_a_traceback(game_page):
    """The glue's guard: an exception in a handler (here, a point that is not on the board)
    becomes a hint and a console warning; the board is redrawn and play goes on."""
    game_page.open(record=NOTATION_EXAMPLE)
    page = game_page.page
    page.evaluate("""() => {
        const bogus = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
        bogus.setAttribute('data-point', 'z99');
        document.querySelector('#board svg').appendChild(bogus);
        bogus.dispatchEvent(new MouseEvent('click', {bubbles: true}));
    }""")
    assert "Something went wrong" in game_page.text("#hint")
    assert page.evaluate("document.documentElement.hasAttribute('data-yinsh-error')")
    page.evaluate("document.documentElement.removeAttribute('data-yinsh-error')")
    assert "Traceback" not in page.inner_text("body")
    game_page.click_point("h7")
    game_page.click_point("g7")
    game_page.wait_record(NOTATION_EXAMPLE + " 11.h7-g7")
