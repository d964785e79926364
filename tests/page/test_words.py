"""The page's words (yinsh.page.words): what to do, by phase and input mode, each mode its own
sentence; a count and a shortened message."""

from __future__ import annotations

import doctest

import pytest
from helpers import load

import yinsh.page.words
from yinsh.board import parse_point
from yinsh.game import Game
from yinsh.page.session import Session
from yinsh.page.settings import Settings
from yinsh.page.status import status
from yinsh.page.words import INPUT_MODES, KEYBOARD, MOUSE, TOUCH, detail, prompt, several_rows
from yinsh.turn import Phase, Turn

P = parse_point
OVERLINE = next(r.game for r in load("scenarios.ygn") if r.tags["Scenario"] == "overline of six")


def test_doctests():
    failures, tried = doctest.testmod(yinsh.page.words)
    assert tried and not failures


def test_the_touch_words_name_no_key_and_no_click():
    turn = Turn(OVERLINE.copy())
    turn.click_point(P("e3"))
    assert turn.phase is Phase.MOVE_RING
    assert "Escape" in detail(turn, MOUSE)
    assert "Escape" not in detail(turn, TOUCH) and "click" not in detail(turn, TOUCH).lower()


def test_the_keyboard_words_name_the_keys_and_no_click_or_tap():
    turn = Turn(OVERLINE.copy())
    picking = detail(turn, KEYBOARD)
    assert "arrow keys" in picking and "Enter" in picking and "Tab" in picking
    turn.click_point(P("e3"))
    moving = detail(turn, KEYBOARD)
    assert "arrow keys" in moving and "Enter" in moving and "Escape" in moving
    for words in (picking, moving):
        assert "click" not in words.lower() and "tap" not in words.lower() and "drag" not in words.lower()


def test_every_phase_has_its_own_words_in_every_mode():
    """No mode borrows another's sentence where the input differs (the ring's pick and move,
    the choice of a row); the prompt itself is the same for every input."""
    turn = Turn(OVERLINE.copy())
    turn.click_point(P("e3"))
    moving = {mode: detail(turn, mode) for mode in INPUT_MODES}
    turn.click_point(P("f3"))
    assert turn.phase is Phase.REMOVE_ROW
    rows = {mode: detail(turn, mode) for mode in INPUT_MODES}
    assert len(set(moving.values())) == len(set(rows.values())) == len(INPUT_MODES) == 3
    assert rows[KEYBOARD].startswith("2 rows of five you made: press Enter on one")
    assert prompt(turn) == "White: choose a row to remove"


def test_the_prompt_by_phase():
    turn = Turn(Game())
    assert prompt(turn) == "White: place a ring on an empty point"
    turn = Turn(OVERLINE.copy())
    assert prompt(turn) == "White: choose a ring to move"
    turn.click_point(P("e3"))
    assert prompt(turn) == "White: choose where the ring on e3 goes"


def test_the_session_speaks_in_the_words_of_the_input_used_last():
    session = Session(OVERLINE.copy(), Settings())
    assert session.input_mode == MOUSE and status(session).detail == detail(session.turn, MOUSE)
    session.set_input_mode(KEYBOARD)
    assert status(session).detail == detail(session.turn, KEYBOARD)
    session.set_input_mode(TOUCH)
    assert status(session).detail == detail(session.turn, TOUCH)
    with pytest.raises(ValueError, match="unknown input mode 'pen'"):
        session.set_input_mode("pen")
    assert session.input_mode == TOUCH


@pytest.mark.parametrize("mode, verb", [(MOUSE, "click"), (TOUCH, "tap")])
def test_a_point_on_several_rows_asks_for_the_row_in_the_words_of_the_input(mode, verb):
    session = Session(OVERLINE.copy(), Settings())
    session.set_input_mode(mode)
    session.click_point(P("e3"))
    session.click_point(P("f3"))
    assert session.turn.phase is Phase.REMOVE_ROW
    session.click_point(P("e4"))  # in both e2-e6 and e3-e7
    assert session.message == several_rows("e4", mode) == f"Several rows run through e4: {verb} the row itself"
    assert session.turn.phase is Phase.REMOVE_ROW  # nothing chosen
    assert (verb == "tap") == ("tap one" in status(session).detail)

