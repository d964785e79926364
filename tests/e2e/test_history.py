"""The page's history: undo and redo against the computer (buttons and Ctrl+Z / Ctrl+Y),
reviewing past moves from the move list (clicks and arrow keys), the evaluation graph, and
the question before a game in progress is discarded.

The tests share one page (and its AI worker, whose start costs seconds), switching game and
players through the URL hash as a pasted link would; the last, with a worker made to fail,
has its own. Each fails on a console error, an uncaught error, a request off the origin or
the page's own guard catching a bug.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from games import BRAVE_COMBO, NOTATION_EXAMPLE
from pages import AI_TIMEOUT_MS, LinkedGamePage, serve_failing_worker, shared_page_fixtures, wait_for_person

from yinsh.game import Game

#: ``page``: the shared page; the test fails on anything the browser or the page's guard reported.
shared_page, page = shared_page_fixtures(LinkedGamePage, "page")


def board(page: Any, name: str) -> str:
    return page.get_attribute("#board", f"data-{name}") or ""


def wait_record(page: Any, expected: str) -> None:
    page.wait_for_function("r => document.getElementById('board').dataset.record === r", arg=expected)


def button(page: Any, action: str) -> Any:
    return page.locator(f"#panel button[data-action={action}]")


def rings_on_board(page: Any) -> int:
    return page.locator("#board [data-ring]").count()


# --------------------------------------------------------------------------- undo and redo


def test_undo_and_redo_against_the_computer(page):
    p = page.show("white=human&black=ai-1", expect="")
    assert button(p, "undo").is_disabled() and button(p, "redo").is_disabled()
    for turn in range(3):  # three placements by clicks, each answered by the computer
        taken = board(p, "record")
        point = next(q for q in ("e5", "f6", "g7", "d5", "f5", "e6", "e4") if q not in taken)
        p.click(f'#board [data-point="{point}"]')
        wait_for_person(p, 2 * turn + 1)
    full = board(p, "record")
    moves = full.split()
    assert len(moves) == 6 and board(p, "to-move") == "white"

    # Undo takes back the person's move and the computer's answer: the person is to move
    button(p, "undo").click()
    wait_record(p, " ".join(moves[:4]))
    assert board(p, "to-move") == "white" and button(p, "redo").is_enabled()
    button(p, "undo").click()
    wait_record(p, " ".join(moves[:2]))
    # Redo replays both, landing on the person's turn again: the computer is not asked
    button(p, "redo").click()
    wait_record(p, " ".join(moves[:4]))
    assert p.get_attribute("html", "data-ai") in ("", None)
    # and the keyboard does the same
    p.keyboard.press("Control+y")
    wait_record(p, full)
    assert button(p, "redo").is_disabled()
    p.keyboard.press("Control+z")
    wait_record(p, " ".join(moves[:4]))
    p.keyboard.press("Control+Shift+Z")
    wait_record(p, full)
    p.keyboard.press("Meta+z")
    wait_record(p, " ".join(moves[:4]))

    # a new move after an undo clears what could be redone
    point = next(q for q in ("d4", "c4", "h6", "b2") if q not in full)
    p.click(f'#board [data-point="{point}"]')
    p.wait_for_function("document.querySelector('#panel button[data-action=redo]').disabled")
    wait_for_person(p, 5)
    assert board(p, "record").split()[:5] == moves[:4] + [f"5.{point}"]
    p.keyboard.press("Control+y")  # nothing to redo: nothing changes
    assert "Nothing to redo" in p.inner_text("#hint")
    assert len(board(p, "record").split()) == 6


def test_an_answer_searched_before_an_undo_is_never_played(page):
    """Level 4 thinks for seconds; undo and redo meanwhile: its old answer is dropped, and the
    computer, to move again after the redo, answers afresh."""
    start = f"{NOTATION_EXAMPLE} 11.h7-g7"
    p = page.show(f"white=human&black=ai-4&record={quote(start)}", expect=start)
    discarded = int(p.get_attribute("html", "data-ai-discarded") or 0)
    p.wait_for_function("document.documentElement.dataset.ai === 'thinking'", timeout=AI_TIMEOUT_MS)
    p.keyboard.press("Control+z")
    wait_record(p, NOTATION_EXAMPLE)
    p.keyboard.press("Control+y")  # the redo stack runs out on the computer's turn: it thinks again
    wait_record(p, start)
    p.wait_for_function("n => document.documentElement.dataset.aiDiscarded === String(n)", arg=discarded + 1,
                        timeout=AI_TIMEOUT_MS)
    wait_for_person(p, 11)
    game = Game.from_record(board(p, "record"))
    assert len(game.moves) == 12 and game.record().startswith(start)


# --------------------------------------------------------------------------- review


def test_review_from_the_move_list_and_arrow_keys(page):
    game = Game.from_record(NOTATION_EXAMPLE + " 11.h7-g7")
    record = game.record()
    p = page.show(f"white=human&black=human&record={quote(record)}", expect=record)
    position = board(p, "position")
    assert p.locator("#review").is_hidden()
    entries = p.locator("#moves button.move")
    assert entries.count() == 11
    entries.nth(2).click()  # move 3: b5
    assert board(p, "review") == "3"
    assert p.inner_text("#review-label") == "Reviewing move 3"
    assert p.locator("#review").is_visible() and p.locator("#review button[data-action=live]").is_visible()
    # the panel is taller than a 1000 × 800 window: it scrolls, the review area comes into
    # view above the actions, and the actions stay in the window
    review, actions = p.locator("#review").bounding_box(), p.locator("nav.actions").bounding_box()
    assert review["y"] >= 0 and review["y"] + review["height"] <= actions["y"] + 1
    assert actions["y"] + actions["height"] <= p.evaluate("innerHeight")
    assert p.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert entries.nth(2).get_attribute("aria-current") == "step"
    assert p.locator("#moves [aria-current]").count() == 1
    assert rings_on_board(p) == 3
    assert board(p, "record") == record and board(p, "position") == position

    # the board is not playable while reviewing
    p.click('#board [data-point="k10"]')
    assert board(p, "record") == record and board(p, "review") == "3"

    # arrows step through the game from the list (the click on the board gave the board the
    # focus, where arrows move between points, so back to the move in the list)
    entries.nth(2).focus()
    p.keyboard.press("ArrowRight")
    assert board(p, "review") == "4" and rings_on_board(p) == 4
    p.keyboard.press("ArrowLeft")
    p.keyboard.press("ArrowLeft")
    assert board(p, "review") == "2" and p.inner_text("#review-label") == "Reviewing move 2"
    assert entries.nth(1).get_attribute("aria-current") == "step"
    p.keyboard.press("Home")
    assert board(p, "review") == "0" and rings_on_board(p) == 0
    assert p.inner_text("#review-label") == "Reviewing the start"
    p.keyboard.press("End")
    assert board(p, "review") == "11"
    # the last move's ring has moved: the picture is the game's last position
    assert p.locator('#board [data-ring="g7"]').count() == 1 and p.locator('#board [data-ring="h7"]').count() == 0

    # arrow keys work when the focus is elsewhere too (but not on the board)
    p.locator("#review button[data-action=live]").focus()
    p.keyboard.press("ArrowLeft")
    assert board(p, "review") == "10"

    # Escape returns to the game, exactly as it was, playable
    p.keyboard.press("Escape")
    assert board(p, "review") == "" and p.locator("#review").is_hidden()
    assert board(p, "record") == record and board(p, "position") == position
    assert p.locator("#moves [aria-current]").count() == 0
    assert rings_on_board(p) == 10
    # the list is one Tab stop, on its last move: the keyboard goes in there, the arrows on
    tab_stops = p.eval_on_selector_all("#moves button",
                                       "bs => bs.filter(b => b.tabIndex === 0).map(b => b.dataset.ply)")
    assert tab_stops == ["11"]
    p.focus("#moves [tabindex='0']")
    p.keyboard.press("ArrowLeft")
    assert board(p, "review") == "10" and p.evaluate("document.activeElement.dataset.ply") == "10"
    p.keyboard.press("Escape")
    assert board(p, "review") == ""
    p.click('#board [data-point="c6"]')  # Black's ring: picked, the board is live
    assert board(p, "phase") == "move-ring"
    p.keyboard.press("Escape")

    # and the Back to game button does the same
    entries.nth(6).click()
    assert board(p, "review") == "7"
    p.click("#review button[data-action=live]")
    assert board(p, "review") == "" and board(p, "record") == record


def test_the_evaluation_graph_has_a_point_per_move_and_jumps_to_it(page):
    game = Game()
    for move in BRAVE_COMBO.moves[:30]:
        game.push(move)
    record = game.record()
    p = page.show(f"white=human&black=human&record={quote(record)}", expect=record)
    p.locator("#moves button.move").nth(29).click()
    p.wait_for_function("document.querySelectorAll('#eval-graph .eg-point').length > 0", timeout=AI_TIMEOUT_MS)
    assert p.locator("#eval-graph .eg-point").count() == 30
    assert p.locator("#eval-graph .eg-point.current").count() == 1
    # the engine's values replace the quick estimate's graph when they come: a click between the
    # press and the release on a graph redrawn meanwhile is no click (seen once under load)
    p.wait_for_function("document.getElementById('eval-graph').dataset.graph === 'engine'", timeout=AI_TIMEOUT_MS)
    p.locator('#eval-graph g[data-ply="12"]').click()
    assert board(p, "review") == "12" and p.inner_text("#review-label") == "Reviewing move 12"
    assert p.locator('#eval-graph g[data-ply="12"] .eg-point.current').count() == 1
    state = game.state_at(12)
    assert rings_on_board(p) == (state.white_rings | state.black_rings).bit_count()
    p.keyboard.press("Escape")
    assert board(p, "record") == record


def test_a_game_between_people_shows_a_graph_at_once_then_the_engines(page):
    """No waiting for the worker: the page's quick estimate is drawn with the review area,
    labelled as one, and the computer's evaluation replaces it when it comes."""
    record = BRAVE_COMBO.record()
    p = page.show(f"white=human&black=human&record={quote(record)}", expect=record)
    p.locator("#moves button.move").nth(19).click()
    count = len(BRAVE_COMBO.moves)
    assert p.locator("#eval-graph .eg-point").count() == count  # at once: no wait_for
    # The graph and its note read at one instant: the engine's values may replace both between two reads.
    graph, note = p.evaluate("() => [document.getElementById('eval-graph').dataset.graph,"
                             " document.getElementById('eval-note').innerText]")
    if graph == "estimate":  # (a warm worker may be quicker)
        assert "quick estimate" in note
    p.wait_for_function("document.getElementById('eval-graph').dataset.graph === 'engine'", timeout=AI_TIMEOUT_MS)
    assert p.locator("#eval-graph .eg-point").count() == count and p.locator("#eval-note").is_hidden()
    p.keyboard.press("Escape")


def test_a_past_move_shows_its_own_pool_and_score_and_no_result(page):
    record = BRAVE_COMBO.record()
    p = page.show(f"white=human&black=human&record={quote(record)}", expect=record)
    assert p.inner_text("#player-black .score-count") == "3/3" and "wins" in p.inner_text("#prompt")
    final_pool = p.inner_text("#pool-count")
    p.locator("#moves button.move").nth(11).click()  # move 12
    assert board(p, "review") == "12"
    assert p.inner_text("#pool-count") == "49" and p.inner_text("#strip-pool") == "49"
    assert "at move 12" in p.inner_text("#pool .pool-label")
    for color in ("white", "black"):
        assert p.inner_text(f"#player-{color} .score-count") == "0/3"
        assert p.text_content(f"#strip-{color} .strip-score") == "0/3"
        assert p.get_attribute(f"#player-{color} .score", "aria-label") == "0 of 3 rings removed at move 12"
    assert p.inner_text("#prompt") == "At move 12: White to move"
    assert "wins" not in p.inner_text("#panel") and p.locator("#banner").is_hidden()
    p.click("#review button[data-action=live]")
    assert p.inner_text("#pool-count") == final_pool and p.inner_text("#player-black .score-count") == "3/3"
    assert "at move" not in p.inner_text("#pool .pool-label") and "wins" in p.inner_text("#prompt")


# --------------------------------------------------------------------------- asked before discarding


def test_new_game_asks_before_discarding_a_game_in_progress(page):
    p = page.show(f"white=human&black=human&record={quote(NOTATION_EXAMPLE)}", expect=NOTATION_EXAMPLE)
    confirm = p.locator("#discard-dialog")
    button(p, "new-game").click()
    assert confirm.is_visible() and "10 moves" in confirm.inner_text()
    confirm.locator("button[data-action=keep-playing]").click()
    assert confirm.is_hidden() and board(p, "record") == NOTATION_EXAMPLE
    # Escape is "Keep playing" too
    button(p, "new-game").click()
    p.keyboard.press("Escape")
    assert confirm.is_hidden() and board(p, "record") == NOTATION_EXAMPLE
    # the New game dialog's Start asks as well
    button(p, "setup").click()
    p.click("#new-game-dialog button[data-action=start-game]")
    assert confirm.is_visible()
    confirm.locator("button[data-action=discard]").click()
    wait_record(p, "")
    assert confirm.is_hidden()
    # an empty game is not asked about
    button(p, "new-game").click()
    assert confirm.is_hidden() and board(p, "record") == ""


def test_review_works_when_the_evaluation_fails(yinsh_page):
    """The worker's evaluation answers with an error (made to fail here): the quick estimate
    stays, a line says why, and the review itself goes on."""
    serve_failing_worker(yinsh_page.page, "        searcher = Searcher(current.state.rings_to_win)\n")
    p = yinsh_page.page
    yinsh_page.open(f"/#record={quote(NOTATION_EXAMPLE)}")
    p.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=AI_TIMEOUT_MS)
    p.locator("#moves button.move").nth(4).click()
    p.wait_for_function("document.getElementById('eval-note').innerText.includes('simulated failure')",
                        timeout=AI_TIMEOUT_MS)
    assert p.inner_text("#eval-note") == ("A quick estimate (rings, rows, markers). "
                                                      "No evaluation graph: simulated failure.")
    assert p.locator("#eval-graph .eg-point").count() == 10  # the quick estimate, a point a move
    assert p.get_attribute("#eval-graph", "data-graph") == "estimate"
    p.keyboard.press("ArrowLeft")
    assert board(p, "review") == "4" and p.inner_text("#review-label") == "Reviewing move 4"
    p.keyboard.press("Escape")
    assert board(p, "review") == "" and board(p, "record") == NOTATION_EXAMPLE
