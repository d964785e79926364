"""The page's words (yinsh.page.words): what to do, by phase and input mode, each mode its own
sentence; a count and a shortened message."""

from __future__ import annotations

import doctest

import pytest
from helpers import load

import yinsh.page.words
from yinsh.board import parse_point
from yinsh.page.session import Session
from yinsh.page.settings import Settings
from yinsh.page.status import status
from yinsh.page.words import MOUSE, TOUCH, detail, several_rows
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


@pytest.mark.parametrize("mode, verb", [(MOUSE, "click"), (TOUCH, "tap")])
def test_a_point_on_several_rows_asks_for_the_row_in_the_words_of_the_input(mode, verb):
    session = Session(OVERLINE.copy(), Settings())
    session.touch = mode == TOUCH
    session.click_point(P("e3"))
    session.click_point(P("f3"))
    assert session.turn.phase is Phase.REMOVE_ROW
    session.click_point(P("e4"))  # in both e2-e6 and e3-e7
    assert session.message == several_rows("e4", mode) == f"Several rows run through e4: {verb} the row itself"
    assert session.turn.phase is Phase.REMOVE_ROW  # nothing chosen
    assert (verb == "tap") == ("tap one" in status(session).detail)

