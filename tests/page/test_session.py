"""The page's session, browser-free (yinsh.page.session): a person's decisions, undo and redo,
review, notices — everything but the DOM. What the page shows is tested in test_status.py, the
computer's side in test_computer.py.

The computer here is the real worker module (yinsh.web.worker) called in-process: what the
page's client does through a web worker, :func:`helpers.answer` does with a function call.
"""

from __future__ import annotations

import doctest

from helpers import answer, ready

import yinsh.page.session
from yinsh.board import parse_point
from yinsh.game import Game
from yinsh.page.session import Session
from yinsh.page.settings import Settings
from yinsh.page.status import status

NOTATION_EXAMPLE = "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8"


def test_doctests():
    failures, tried = doctest.testmod(yinsh.page.session)
    assert tried and not failures


# --------------------------------------------------------------------------- a person's turn


class TestDecisions:
    def test_a_click_that_does_nothing_says_why(self):
        session = Session(Game.from_record(NOTATION_EXAMPLE), Settings())
        session.click_point(parse_point("a5"))
        assert session.message == "That ring is Black's: choose one of yours"
        assert session.game.ply == 10

    def test_escape_puts_a_picked_ring_back(self):
        session = Session(Game.from_record(NOTATION_EXAMPLE), Settings())
        session.click_point(parse_point("h7"))
        assert status(session).phase == "move-ring"
        assert session.cancel() and status(session).phase == "pick-ring"
        assert not session.cancel()

    def test_a_dragged_ring_only_flips(self):
        session = Session(Game.from_record(NOTATION_EXAMPLE), Settings())
        session.pick(parse_point("h7"))
        session.click_point(parse_point("g7"), dragged=True)
        assert session.game.record().endswith("11.h7-g7")
        assert session.motion.animate == "flips"

    def test_the_opponent_by_link_locks_the_board(self):
        session = Session(Game.from_record("1.e3"), Settings(white="human", black="remote"))
        session.click_point(parse_point("a5"))
        assert session.game.ply == 1 and "plays on their own device" in session.message
        shown = status(session)
        assert shown.send_link and shown.prompt == "Black to move, on their own device"
        assert not session.computer.requests()

    def test_a_pass_is_played_with_a_notice(self):
        from test_rules import _blocked

        game = _blocked()
        session = Session(game, Settings())
        assert session.game.moves and session.game.moves[-1].kind == "pass"
        assert any("passes" in notice for notice in session.notices)

class TestUndoRedo:
    def test_undo_against_the_computer_goes_back_to_the_person(self):
        session = ready(Session(Game(), Settings(black="ai-1")))
        session.click_point(parse_point("e3"))
        answer(session, session.computer.requests()[0])
        assert len(session.game.moves) == 2 and status(session).can_undo
        session.undo()
        assert session.game.moves == () and status(session).can_redo
        session.redo()
        assert len(session.game.moves) == 2 and not session.computer.requests()  # the answer came back too

    def test_undo_first_takes_back_the_turn_half_built(self):
        session = Session(Game.from_record(NOTATION_EXAMPLE), Settings())
        session.click_point(parse_point("h7"))
        session.undo()
        assert session.game.ply == 10 and status(session).phase == "pick-ring"
        session.undo()
        assert session.game.ply == 9

    def test_nothing_to_undo(self):
        session = Session(Game(), Settings())
        session.undo()
        assert session.message == "Nothing to undo" and not status(session).can_undo


class TestReview:
    def test_review_shows_the_past_and_locks_the_board(self):
        session = Session(Game.from_record(NOTATION_EXAMPLE), Settings())
        session.review(3)
        shown = status(session)
        assert shown.reviewing == 3 and shown.review is not None and shown.review.label == "Reviewing move 3"
        assert shown.board.position == Game.from_record("1.e3 2.a5 3.b5").state
        session.click_point(parse_point("h7"))
        assert session.message.startswith("This is a past position") and session.game.ply == 10
        session.step_review("next")
        assert session.reviewing == 4
        session.step_review("last")
        assert session.reviewing == 10
        assert session.leave_review() and status(session).review is None

    def test_the_graph_is_asked_for_once_per_record(self):
        session = ready(Session(Game.from_record(NOTATION_EXAMPLE), Settings()))
        session.review(0)
        (request,) = session.computer.requests()
        # meanwhile, a quick estimate from the page's own Python, labelled as one
        waiting = status(session).review
        assert request.kind == "evaluate" and waiting.values == [0.0] * 10 and "quick estimate" in waiting.note
        answer(session, request)
        assert not session.computer.requests()
        review = status(session).review
        assert len(review.values) == 10 and review.values != [0.0] * 10 and review.note == ""

    def test_no_review_without_moves(self):
        session = Session(Game(), Settings())
        session.review(0)
        assert session.reviewing is None and session.message == "No move to review yet."


def test_the_newest_two_notices_are_kept_and_shown():
    session = Session(Game(), Settings(), ["first", "second", "third"])
    assert session.notices == ["second", "third"]
    session.notice("fourth")
    assert session.notices == ["third", "fourth"]
    assert status(session).notices == ("third", "fourth")
