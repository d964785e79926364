"""What the game page shows, browser-free (yinsh.page.status): here, a past position under
review shows that position's score, pool and player to move, never the present's result."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest
from helpers import play_by_clicks

import yinsh.page.status
from yinsh.game import Game
from yinsh.move import parse_row
from yinsh.page.session import Session
from yinsh.page.settings import Settings
from yinsh.page.status import status
from yinsh.record import read_records
from yinsh.state import make_state, pool

DATA = Path(__file__).resolve().parents[1] / "data"
#: A whole game won by Black 3 to 2.
BRAVE_COMBO = next(r.game for r in read_records((DATA / "games.ygn").read_text(encoding="utf-8"))
                   if r.tags["Game"] == "Y-BraveCombo-Dumbot-2026-03-20-0237")


def finished_game() -> Session:
    return Session(BRAVE_COMBO, Settings())


def test_the_present_shows_the_result_and_the_final_numbers():
    shown = status(finished_game())
    assert shown.prompt == "Black wins: three rings removed (3 to 2)"
    assert [(p.score, p.at) for p in shown.players] == [(2, ""), (3, "")]
    assert shown.pool == pool(BRAVE_COMBO.state) and shown.pool_at == ""


def test_a_past_position_shows_its_own_score_pool_and_player_to_move():
    session = finished_game()
    session.review(12)
    shown = status(session)
    past = BRAVE_COMBO.state_at(12)
    assert shown.pool == pool(past) == 51 - 2  # two markers after the ten placements
    assert shown.pool_at == "at move 12"
    assert [(p.score, p.at) for p in shown.players] == [(0, "at move 12"), (0, "at move 12")]
    assert "wins" not in shown.prompt and shown.prompt == "At move 12: White to move"
    assert [p.active for p in shown.players] == [True, False]
    assert shown.banner is None and shown.pool_warning == ""


def test_review_of_the_start_and_of_the_last_move():
    session = finished_game()
    session.review(0)
    assert status(session).prompt == "At the start: White to move"
    session.review(len(BRAVE_COMBO.moves))  # the last position is the present: its result shows
    shown = status(session)
    assert shown.prompt.startswith("Black wins") and shown.pool_at == ""
    assert [p.score for p in shown.players] == [2, 3]


def test_scores_in_the_middle_of_the_game():
    session = finished_game()
    moves = BRAVE_COMBO.moves
    at = next(i for i in range(len(moves)) if BRAVE_COMBO.state_at(i).white_score + BRAVE_COMBO.state_at(i).black_score)
    session.review(at)
    state = BRAVE_COMBO.state_at(at)
    assert [p.score for p in status(session).players] == [state.white_score, state.black_score]
    assert status(session).pool == pool(state) > pool(BRAVE_COMBO.state)


def test_doctests():
    failures, tried = doctest.testmod(yinsh.page.status)
    assert tried and not failures


def test_two_rows_give_row_buttons():
    s = make_state(["a2", "k8", "h10", "b7", "c8"], ["a5", "k10", "j11", "i11", "h11"],
                   ["e2", "e3", "e4", "e5", "e6", "e7"])
    session = Session(Game.from_state(s, 40), Settings())
    choices = status(session).row_choices
    assert [name for name, _ in choices] == ["e2-e6", "e3-e7"] and not any(chosen for _, chosen in choices)
    session.click_row(parse_row("e3", "e7"))
    assert status(session).row_choices == [("e2-e6", False), ("e3-e7", True)]


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
