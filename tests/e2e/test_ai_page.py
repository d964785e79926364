"""The computer player in the page: a person against level 1 by clicks, the New game dialog,
AI against AI, the Hint button, answers that arrive too late being dropped, and a failing
worker leaving a notice, not a traceback.

The AI runs in a web worker the page starts after it is interactive; the page tells what it
is doing through ``<html data-ai>`` (``starting``, ``thinking`` or empty) and counts the
answers it discarded in ``data-ai-discarded``. Every page here fails its test on a console
error, an uncaught error, a request off the origin or the page's own guard catching a bug.
Three tests share one page (and its worker: each boot costs seconds), switching game and
players through the URL hash as a pasted link would.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from clicks import click_point, row_spot
from games import NOTATION_EXAMPLE
from pages import (
    AI_TIMEOUT_MS,
    MOVES_JS,
    LinkedGamePage,
    follow_link,
    serve_failing_worker,
    shared_page_fixtures,
    wait_for_person,
)

from yinsh.board import point_name
from yinsh.game import Game
from yinsh.move import Move, row_name
from yinsh.page.reasons import hint_reason

ROOT = Path(__file__).resolve().parents[2]
BOOT_TIMEOUT_MS = 60_000


# --------------------------------------------------------------------------- helpers


def boot(yinsh_page: Any, path: str) -> None:
    """Open ``path`` and wait for ``data-yinsh-ready``, failing at once on a browser error."""
    yinsh_page.open(path)
    for _ in range(BOOT_TIMEOUT_MS // 100):
        if yinsh_page.evaluate("document.documentElement.hasAttribute('data-yinsh-ready')"):
            return
        if yinsh_page.problems():
            break
        yinsh_page.wait_for_timeout(100)
    pytest.fail(f"{path} did not become ready: {yinsh_page.problems() or 'timeout'}", pytrace=False)


def save_screenshot(page: Any, name: str) -> None:
    """A PNG in test-artifacts/ (as conftest's helper, without importing a conftest module)."""
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    page.wait_for_timeout(400)  # let the last move's animation finish
    page.screenshot(path=str(ROOT / "test-artifacts" / f"{name}.png"), animations="disabled")


def board(page: Any, name: str) -> str:
    return page.get_attribute("#board", f"data-{name}") or ""


def record(page: Any) -> str:
    return board(page, "record")


def plies(page: Any) -> int:
    return len(Game.from_record(record(page)).moves)


def check_guard(page: Any) -> None:
    assert not page.evaluate("document.documentElement.hasAttribute('data-yinsh-error')"), \
        "the page's guard caught an exception (see the console warning)"


def click_row(page: Any, row: str) -> None:
    spot = row_spot(page, row)
    assert spot is not None, f"the row {row} is not visible and clickable"
    page.mouse.click(*spot)


def play_by_clicks(page: Any, move: Move) -> None:
    """The clicks a person makes for ``move`` (a lone row is chosen by the page itself)."""
    def remove(removal) -> None:
        rows = set(page.eval_on_selector_all("#board [data-row]", "els => els.map(e => e.dataset.row)"))
        if row_name(removal.row) in rows and len(rows) > 1:
            click_row(page, row_name(removal.row))
        click_point(page, point_name(removal.ring))

    for removal in move.before:
        remove(removal)
    if move.kind == "place":
        click_point(page, point_name(move.target))
    elif move.kind == "move":
        click_point(page, point_name(move.source))
        click_point(page, point_name(move.target))
    for removal in move.after:
        remove(removal)


def assert_consistent(page: Any) -> Game:
    """The board's record is a legal game and its position code is that game's."""
    game = Game.from_record(record(page))
    assert board(page, "position") == game.position()
    return game


#: ``ai_page``: the shared page; the test fails on anything the browser or the page's guard reported.
shared_ai_page, ai_page = shared_page_fixtures(LinkedGamePage, "ai_page")


# --------------------------------------------------------------------------- a person against level 1


def test_person_against_level_1_by_clicks(ai_page):
    page = ai_page.show("white=human&black=ai-1", expect="")
    assert "AI 1" in page.inner_text("#player-black")
    assert page.get_attribute("html", "data-ai") in ("", None)  # nothing asked of it yet
    # the page was interactive before its worker was up (a second Pyodide takes seconds)
    cold = not page.evaluate("window.yinshAI !== undefined")
    rng = random.Random(7)
    answers = 0
    while answers < 8:  # five placements, then three ring moves, each answered by the computer
        game = assert_consistent(page)
        if game.result is not None:
            break
        assert game.to_move == "white"
        legal = game.legal_moves()
        quiet = [m for m in legal if not m.before and not m.after]
        move = rng.choice(quiet or legal)
        before = len(game.moves)
        play_by_clicks(page, move)
        if cold:  # asked to move before its worker is up: the page says so, and stays usable
            seen = page.wait_for_function("""() => document.documentElement.dataset.ai === 'starting'
                ? document.getElementById('prompt').textContent : window.yinshAI !== undefined && 'up'""",
                                          timeout=AI_TIMEOUT_MS).json_value()
            assert seen in ("The computer is getting ready…", "up")
            cold = False
        wait_for_person(page, before + 1)
        game = assert_consistent(page)
        assert str(game.moves[before]) == str(move)  # the person's move, as clicked
        assert len(game.moves) >= before + 2 or game.result is not None
        answers += 1
        check_guard(page)
    game = assert_consistent(page)
    assert len(game.moves) >= 16 and not game.in_placement
    assert page.evaluate("document.documentElement.hasAttribute('data-yinsh-ai-ready')")
    assert "#g=G1" in page.url and "black=ai-1" in page.url
    # the moves list shows the computer's moves like anyone's
    assert page.locator("#moves li").count() == len(game.moves)
    save_screenshot(page, "ai-level-1-mid-game")


# --------------------------------------------------------------------------- the New game dialog


def choose(page: Any, white: str, black: str, variant: str, delay: str) -> None:
    page.click("#panel button[data-action=setup]")
    dialog = page.locator("#new-game-dialog")
    assert dialog.is_visible()
    dialog.locator("select[name=white]").select_option(white)
    dialog.locator("select[name=black]").select_option(black)
    dialog.locator(f"input[name=variant][value={variant}]").check()
    if delay is not None:
        assert dialog.locator("#setup-pace").is_visible()  # only offered when two computers play
        dialog.locator("select[name=delay]").select_option(delay)
    dialog.locator("button[data-action=start-game]").click()
    assert not dialog.is_visible()


def test_new_game_dialog_persists_and_two_computers_play(yinsh_page):
    page = yinsh_page.page
    boot(yinsh_page, "/")
    page.click("#panel button[data-action=setup]")
    assert page.locator("#new-game-dialog select[name=white]").input_value() == "human"
    assert not page.locator("#setup-pace").is_visible()  # human against human: no pace to choose
    yinsh_page.screenshot_to_artifacts("new-game-dialog")
    page.click("#new-game-dialog button[data-action=cancel-dialog]")

    choose(page, "ai-1", "ai-1", "blitz", "0")
    assert "white=ai-1&black=ai-1&variant=blitz&delay=0" in page.url
    assert "AI 1" in page.inner_text("#player-white") and "AI 1" in page.inner_text("#player-black")
    # nobody clicks: the two computers play the placements and on into the ring moves
    page.wait_for_function(
        f"() => {{ const b = document.getElementById('board'); return b.dataset.result || {MOVES_JS}(b) >= 14; }}",
        timeout=AI_TIMEOUT_MS)
    game = assert_consistent(page)
    assert game.variant == "blitz" and len(game.moves) >= 14 or game.result is not None
    assert page.locator("#panel button[data-action=pause]").is_visible()
    page.click("#panel button[data-action=pause]")  # stop them before leaving
    check_guard(page)

    # the choice outlives the page: a bare URL (no parameter) opens with it (localStorage) and the
    # URL shows it again (once the saved game is gone: it would reopen instead, see test_records.py)
    page.evaluate("localStorage.removeItem('yinsh.saved')")
    boot(yinsh_page, "/")
    assert "white=ai-1&black=ai-1&variant=blitz&delay=0" in page.url
    stored = page.evaluate("localStorage.getItem('yinsh:new-game')")
    assert '"white":"ai-1"' in stored and '"variant":"blitz"' in stored
    page.click("#panel button[data-action=pause]")
    page.click("#panel button[data-action=setup]")
    dialog = page.locator("#new-game-dialog")
    assert dialog.locator("select[name=white]").input_value() == "ai-1"
    assert dialog.locator("select[name=black]").input_value() == "ai-1"
    assert dialog.locator("input[name=variant][value=blitz]").is_checked()
    assert dialog.locator("select[name=delay]").input_value() == "0"
    # back to a person against level 2, standard rules: the URL says so, nothing else moves
    dialog.locator("select[name=white]").select_option("human")
    dialog.locator("select[name=black]").select_option("ai-2")
    dialog.locator("input[name=variant][value=standard]").check()
    in_progress = plies(page) > 0 and not board(page, "result")  # paused: it stays as it is
    dialog.locator("button[data-action=start-game]").click()
    if in_progress:  # the computers had begun: the page asks before their game is discarded
        page.click("#discard-dialog button[data-action=discard]")
    assert page.url.endswith("/?black=ai-2")
    assert record(page) == "" and "AI 2" in page.inner_text("#player-black")
    assert not page.locator("#panel button[data-action=pause]").is_visible()
    check_guard(page)


# --------------------------------------------------------------------------- hint and stale answers


def test_hint_marks_a_legal_move_without_playing_it(ai_page):
    page = ai_page.show(f"white=human&black=human&record={quote(NOTATION_EXAMPLE)}", expect=NOTATION_EXAMPLE)
    page.click("#panel button[data-action=hint]")
    page.wait_for_function("document.getElementById('board').dataset.hint", timeout=AI_TIMEOUT_MS)
    hint = board(page, "hint")
    game = Game.from_record(NOTATION_EXAMPLE)
    move = game.parse_move(hint)  # raises if it is not legal here
    assert record(page) == NOTATION_EXAMPLE
    marked = page.eval_on_selector_all("#board .yb-mark", "els => els.length")
    assert marked == 2 and move.kind == "move"  # the ring and where it would go
    reason = hint_reason(game.state, move)  # what the move does, said as the page says it
    assert page.inner_text("#hint") == f"Hint: {hint} (what level 3 would play)" + (f": {reason}." if reason else ".")
    # the hint is gone once the position changes
    click_point(page, point_name(move.source))
    click_point(page, point_name(move.target))
    page.wait_for_function("r => document.getElementById('board').dataset.record !== r", arg=NOTATION_EXAMPLE)
    assert board(page, "hint") == "" and page.locator("#board .yb-mark").count() == 0
    assert record(page) == f"{NOTATION_EXAMPLE} 11.{move}"
    check_guard(page)


def test_a_hint_while_rings_are_placed_comes_at_once_with_its_reason(ai_page):
    """A placement hint is made on the page (no worker asked) and says what a ring there can reach."""
    page = ai_page.show("white=human&black=human&record=1.e3", expect="1.e3")
    page.click("#panel button[data-action=hint]")
    page.wait_for_function("document.getElementById('board').dataset.hint", timeout=10_000)
    hint = board(page, "hint")
    game = Game.from_record("1.e3")
    move = game.parse_move(hint)
    assert move.kind == "place"
    text = page.inner_text("#hint")
    assert text == f"Hint: {hint} (what level 3 would play): {hint_reason(game.state, move)}."
    assert "a ring there can move to" in text
    save_screenshot(page, "hint-placement-reason")
    check_guard(page)


def test_a_stale_answer_is_discarded(ai_page):
    """Undo, then a new game by a pasted link, while the computer thinks: neither answer is
    played (level 5 thinks for about four seconds: level 4's two were once over before a loaded
    machine had looked twice)."""
    start = f"{NOTATION_EXAMPLE} 11.h7-g7"
    page = ai_page.page
    discarded = int(page.get_attribute("html", "data-ai-discarded") or 0) if ai_page.loaded else 0
    page = ai_page.show(f"white=human&black=ai-5&record={quote(start)}", expect=start)
    page.wait_for_function("document.documentElement.dataset.ai === 'thinking'", timeout=AI_TIMEOUT_MS)
    assert "thinking" in page.inner_text("#prompt")
    # the page stays responsive while the worker searches: the main thread draws frame after frame
    # before the answer comes (were the search on it, no frame would come until it ended)
    thinking_at_frames = page.evaluate("""() => new Promise(done => {
        const seen = [];
        const frame = () => {
            seen.push(document.documentElement.dataset.ai);
            if (seen.length < 6) requestAnimationFrame(frame); else done(seen);
        };
        requestAnimationFrame(frame);
    })""")
    assert thinking_at_frames == ["thinking"] * 6, thinking_at_frames
    page.click("#panel button[data-action=undo]")  # takes back White's move: White to move again
    assert record(page) == NOTATION_EXAMPLE
    assert page.get_attribute("html", "data-ai") == ""
    page.wait_for_function("n => document.documentElement.dataset.aiDiscarded === String(n)", arg=discarded + 1,
                           timeout=AI_TIMEOUT_MS)
    page.wait_for_timeout(300)
    assert record(page) == NOTATION_EXAMPLE and board(page, "to-move") == "white"

    # White moves again; while Black thinks, a link opens another game
    click_point(page, "h7")
    click_point(page, "g7")
    page.wait_for_function("document.documentElement.dataset.ai === 'thinking'", timeout=AI_TIMEOUT_MS)
    other = f"{NOTATION_EXAMPLE} 11.h7-g7 12.e4-e5 13.g3-f3"  # Black to move a ring: the worker's to answer
    follow_link(page, f"record={quote(other)}", other)  # the players stay
    page.wait_for_function("n => document.documentElement.dataset.aiDiscarded === String(n)", arg=discarded + 2,
                           timeout=AI_TIMEOUT_MS)
    # the computer now answers in the new game (Black to move after 13 moves), not the old one
    wait_for_person(page, 13)
    game = assert_consistent(page)
    assert game.record().startswith(other + " 14.") and len(game.moves) == 14
    check_guard(page)


# --------------------------------------------------------------------------- a failing worker


def test_a_failing_computer_leaves_a_notice_and_the_person_plays_on(yinsh_page):
    """The worker answers with an error (here: its ``think`` is made to fail): a notice, no
    traceback, and the colour is played by hand from then on."""
    serve_failing_worker(yinsh_page.page, "        current = game_from_text(str(game))\n")
    page = yinsh_page.page
    boot(yinsh_page, f"/?black=ai-2&record={quote(NOTATION_EXAMPLE)}")  # a ring move: the worker's to answer
    click_point(page, "h7")
    click_point(page, "g7")
    page.wait_for_function("document.getElementById('notices').innerText.includes('could not move')",
                           timeout=AI_TIMEOUT_MS)
    notices = page.inner_text("#notices")
    assert "simulated failure" in notices and "Black is played by hand now" in notices
    assert "Traceback" not in page.inner_text("body")
    assert "by hand" in page.inner_text("#player-black") and "black=" not in page.url
    assert page.inner_text("#prompt").startswith("Black: ")
    click_point(page, "e4")
    click_point(page, "e5")
    page.wait_for_function("r => document.getElementById('board').dataset.record === r",
                           arg=f"{NOTATION_EXAMPLE} 11.h7-g7 12.e4-e5")
    check_guard(page)
