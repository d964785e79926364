"""The page's session, browser-free (yinsh.page.session): a person's decisions, the computer's
answers, undo and redo, review and what the page shows — everything but the DOM.

The computer here is the real worker module (yinsh.web.worker) called in-process: what the
page's client does through a web worker, :func:`answer` does with a function call.
"""

from __future__ import annotations

import doctest
import json
import random

import pytest

import yinsh.page.computer
import yinsh.page.session
import yinsh.page.status
from yinsh.board import parse_point
from yinsh.game import Game
from yinsh.move import Move, parse_row
from yinsh.page.computer import HINT_LEVEL, Request, frames_of
from yinsh.page.session import Session
from yinsh.page.settings import Settings
from yinsh.page.status import status
from yinsh.state import make_state
from yinsh.turn import Decision, Turn, decisions_of
from yinsh.web import worker

NOTATION_EXAMPLE = "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8"


@pytest.mark.parametrize("module", [yinsh.page.session, yinsh.page.status, yinsh.page.computer])
def test_doctests(module):
    failures, tried = doctest.testmod(module)
    assert tried and not failures


def answer(session: Session, request: Request) -> None:
    """Answer ``request`` as the worker would (the client's part, without a browser)."""
    if request.kind == "evaluate":
        session.computer.receive_values(request, worker.evaluate(request.text))
    elif request.kind == "hint":
        session.computer.receive_hint(request, worker.think(request.text, request.level, request.seed))
    else:
        session.computer.receive_move(request, worker.think(request.text, request.level, request.seed))


def play_by_clicks(session: Session, move: Move) -> None:
    """The decisions a person makes for ``move``, as clicks on points and rows."""
    for decision in decisions_of(move):
        if decision.kind == "row":
            session.click_row(decision.value)
        elif decision.kind != "pass":
            session.click_point(decision.value)


def ready(session: Session) -> Session:
    session.computer.set_state("ready")
    return session


# --------------------------------------------------------------------------- a whole game


class TestAgainstTheComputer:
    def test_a_whole_game_against_level_1(self):
        session = ready(Session(Game(), Settings(black="ai-1"), seed=3))
        rng = random.Random(5)
        while session.game.result is None and len(session.game.moves) < 300:
            shown = status(session)
            if session.person_to_move():
                assert shown.ai == "" and not session.computer.requests()
                play_by_clicks(session, rng.choice(session.game.legal_moves()))
            else:
                (request,) = session.computer.requests()
                assert request.kind == "move" and request.level == 1 and shown.ai == "thinking"
                assert session.board_locked().startswith("Black (AI 1) is to move")
                answer(session, request)
        game = session.game
        assert game.result is not None, game.record()
        assert Game.from_record(game.record()).record() == game.record()  # every move legal
        shown = status(session)
        assert shown.banner is not None and shown.to_move == "" and not session.computer.requests()
        assert shown.banner[0] in ("White wins", "Black wins", "Draw")

    def test_the_computer_places_its_rings_while_its_worker_gets_ready(self):
        """A ring placement is made on the page, at once: only the computer's first ring move
        waits for the worker, and only then does the page say it is getting ready."""
        session = Session(Game(), Settings(black="ai-2"), seed=9)
        session.computer.set_state("starting")
        while session.game.state.in_placement:
            session.click_point(next(p for p in session.turn.clickable_points))  # accepted before the worker is up
            shown = status(session)
            assert shown.ai == "thinking" and shown.prompt == "Black (AI 2) is thinking…"
            (request,) = session.computer.requests()
            assert request.here and request.kind == "move"
            session.computer.receive_move(request, session.computer.answer_here(request))
            assert status(session).ai == "" and session.person_to_move()
        play_by_clicks(session, session.game.legal_moves()[0])  # White's first ring move
        shown = status(session)
        assert shown.ai == "starting" and shown.prompt == "The computer is getting ready…"
        (request,) = session.computer.requests()
        assert not request.here
        session.computer.set_state("ready")
        assert status(session).prompt == "Black (AI 2) is thinking…"
        answer(session, request)
        assert len(session.game.moves) == 12 and status(session).ai == ""

    def test_a_computer_playing_white_opens_with_a_placement_of_its_own(self):
        session = Session(Game(), Settings(white="ai-5"), seed=4)
        (request,) = session.computer.requests()
        assert request.here and status(session).prompt == "White (AI 5) is thinking…"
        session.computer.receive_move(request, session.computer.answer_here(request))
        assert len(session.game.moves) == 1 and session.person_to_move()

    @pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
    def test_the_page_places_as_the_worker_would(self, level):
        for code in [Game().position()] + [Game.from_record(r).position() for r in (
                "1.e3", "1.e3 2.a5 3.b5", "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3")]:
            for seed in (0, 1, 17, 500_000, 2**40 + 3):
                game = Game.from_position(code)
                page = Session(game, Settings(white=f"ai-{level}", black=f"ai-{level}"), seed=seed)
                (request,) = page.computer.requests()
                mine = json.loads(page.computer.answer_here(request))
                theirs = json.loads(worker.think(request.text, request.level, request.seed))
                assert mine["move"] == theirs["move"] and mine["ply"] == theirs["ply"], (code, seed)

    def test_a_hint_while_rings_are_placed_is_made_here(self):
        session = Session(Game.from_record("1.e3"), Settings(black="human"), seed=2)
        session.computer.ask_hint()
        (request,) = session.computer.requests()
        assert request.kind == "hint" and request.here
        assert status(session).detail != "The computer is getting ready: the hint comes as soon as it is up."
        session.computer.receive_hint(request, session.computer.answer_here(request))
        assert session.computer.suggestion is not None and session.computer.suggestion.kind == "place"
        assert session.message.startswith(f"Hint: {session.computer.suggestion}")

    def test_the_computer_s_answer_is_checked_like_any_move(self):
        session = ready(Session(Game(), Settings(white="ai-3")))
        (request,) = session.computer.requests()
        session.computer.receive_move(request, json.dumps({"ok": True, "move": "e3-e4"}))
        assert session.game.moves == () and session.players["white"] == "human"
        assert "could not move for White" in session.notices[-1]
        assert "played by hand now" in session.notices[-1]

    def test_a_worker_that_does_not_start_hands_the_colour_to_the_person(self):
        session = Session(Game.from_record("1.e3"), Settings(black="ai-1"))
        session.computer.set_state("starting")
        session.computer.set_state("failed", "it could not start")
        assert session.players["black"] == "human" and not session.computer.requests()
        assert "the computer player is unavailable: it could not start" in session.notices[-1]
        assert status(session).ai == "failed" and status(session).hint_disabled

    def test_two_computers_pause_and_resume(self):
        session = ready(Session(Game(), Settings("ai-1", "ai-1", delay=500)))
        answer(session, session.computer.requests()[0])
        (request,) = session.computer.requests()
        assert request.pause_ms >= 500  # the move shown, then the viewer's pause
        session.toggle_pause()
        assert not session.computer.requests() and status(session).prompt.endswith("to move: paused")
        assert status(session).pause_label == "Resume"
        session.computer.receive_move(request, worker.think(request.text, 1, request.seed))
        assert len(session.game.moves) == 1 and session.computer.discarded == 1  # asked before the pause: dropped
        session.toggle_pause()
        assert [r.kind for r in session.computer.requests()] == ["move"]


class TestStaleAnswers:
    def test_an_answer_for_a_position_that_changed_is_dropped(self):
        session = ready(Session(Game(), Settings(black="ai-1")))
        session.click_point(parse_point("e3"))
        (request,) = session.computer.requests()
        session.undo()  # the person takes the placement back while the computer thinks
        assert session.game.moves == () and not session.computer.requests()
        session.computer.receive_move(request, worker.think(request.text, 1, 0))
        assert session.game.moves == () and session.computer.discarded == 1 and status(session).discarded == 1

    def test_a_hint_for_an_old_position_is_dropped(self):
        session = ready(Session(Game.from_record(NOTATION_EXAMPLE), Settings()))
        session.computer.ask_hint()
        (request,) = session.computer.requests()
        assert request.kind == "hint" and request.level == HINT_LEVEL and status(session).hint_busy
        session.click_point(parse_point("h7"))
        session.click_point(parse_point("g7"))
        session.computer.receive_hint(request, worker.think(request.text, request.level, 0))
        assert session.computer.suggestion is None and session.computer.discarded == 1 and not status(session).hint_busy

    def test_the_hint_is_marked_not_played(self):
        session = ready(Session(Game.from_record(NOTATION_EXAMPLE), Settings()))
        session.computer.ask_hint()
        answer(session, session.computer.requests()[0])
        hint = session.computer.suggestion
        assert hint is not None and hint in session.game.legal_moves() and len(session.game.moves) == 10
        shown = status(session)
        assert shown.hint == str(hint) and shown.message.startswith(f"Hint: {hint}")
        assert hint.source in shown.board.marked and hint.target in shown.board.marked


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

    def test_two_rows_give_row_buttons(self):
        s = make_state(["a2", "k8", "h10", "b7", "c8"], ["a5", "k10", "j11", "i11", "h11"],
                       ["e2", "e3", "e4", "e5", "e6", "e7"])
        session = Session(Game.from_state(s, 40), Settings())
        choices = status(session).row_choices
        assert [name for name, _ in choices] == ["e2-e6", "e3-e7"] and not any(chosen for _, chosen in choices)
        session.click_row(parse_row("e3", "e7"))
        assert status(session).row_choices == [("e2-e6", False), ("e3-e7", True)]


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


# --------------------------------------------------------------------------- a move's colour


class TestBlackToMoveAtAnEvenNumber:
    """A game from a position code whose next move is Black's with an even move number: every
    move's colour comes from the game, never from the parity of its number."""

    @pytest.fixture
    def session(self):
        s = make_state(["a2", "k8", "h10", "b7", "c8"], ["a5", "k10", "j11", "i11", "h11"], turn=1)
        game = Game.from_state(s, 41)  # the next move is number 42, and Black's
        session = Session(game, Settings())
        play_by_clicks(session, next(m for m in game.legal_moves() if m.kind == "move"))
        return session

    def test_the_move_list_names_the_right_colour(self, session):
        (number, color, _text), = status(session).moves
        assert (number, color) == (42, "black")


# --------------------------------------------------------------------------- a computer's move in steps


def test_a_move_with_removals_is_drawn_in_steps():
    s = make_state(["e7", "k8", "h10", "b7", "c8"], ["a5", "k10", "j11", "i11", "h11"], ["e3", "e4", "e5", "e6"])
    game = Game.from_state(s, 40)
    move = Move.from_text("e7-e8;xe3-e7xk8")
    frames = frames_of(game, move)
    assert [f[0].last_move for f in frames] == [(parse_point("e7"), parse_point("e8"))] * 2
    assert frames[1][0].rows == (parse_row("e3", "e7"),) and frames[1][0].marked == (parse_point("k8"),)
    turn = Turn(game, auto_row=False)
    for decision in decisions_of(move):
        turn.choose(Decision(decision.kind, decision.value))
    assert turn.move == move


def test_the_newest_two_notices_are_kept_and_shown():
    session = Session(Game(), Settings(), ["first", "second", "third"])
    assert session.notices == ["second", "third"]
    session.notice("fourth")
    assert session.notices == ["third", "fourth"]
    assert status(session).notices == ("third", "fourth")
