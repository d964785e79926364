"""The computer's side of the page, browser-free (yinsh.page.computer): the questions the
session asks the computer player, the answers it takes (checked like any move, dropped when
the position changed), the placements made on the page itself, and a computer's move drawn in
steps.

The computer here is the real worker module (yinsh.web.worker) called in-process: what the
page's client does through a web worker, :func:`helpers.answer` does with a function call.
"""

from __future__ import annotations

import doctest
import json
import random

import pytest
from helpers import answer, play_by_clicks, ready

import yinsh.page.computer
from yinsh.board import parse_point
from yinsh.game import Game
from yinsh.move import Move, parse_row
from yinsh.page.computer import HINT_LEVEL, frames_of
from yinsh.page.session import Session
from yinsh.page.settings import Settings
from yinsh.page.status import status
from yinsh.state import make_state
from yinsh.turn import Decision, Turn, decisions_of
from yinsh.web import worker

NOTATION_EXAMPLE = "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8"


def test_doctests():
    failures, tried = doctest.testmod(yinsh.page.computer)
    assert tried and not failures


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
