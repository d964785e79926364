"""Why a hint's move is good (yinsh.page.reasons): the words come from the position after the
move — rows made and removed, markers flipped, the opponent's fours broken, a win — and, for a
ring placement, from the placement rule's terms."""

from __future__ import annotations

import doctest

import pytest

import yinsh.page.reasons
from yinsh.board import parse_point
from yinsh.game import Game
from yinsh.move import Move
from yinsh.page.reasons import fours, hint_reason
from yinsh.page.session import Session
from yinsh.page.settings import Settings
from yinsh.state import legal_moves, make_state

ROW_POSITION = dict(white_rings=["e7", "k8", "h10", "b7", "c8"], black_rings=["a5", "k10", "j11", "i11", "h11"],
                    white_markers=["e3", "e4", "e5", "e6"])


def test_doctests():
    failures, tried = doctest.testmod(yinsh.page.reasons)
    assert tried and not failures


def test_a_row_made_and_removed_names_the_row_and_the_ring():
    s = make_state(**ROW_POSITION)
    assert hint_reason(s, Move.from_text("e7-e8;xe3-e7xk8")) == "it makes the row e3-e7 (removed with the ring on k8)"


def test_a_winning_row_says_so_first():
    s = make_state(**ROW_POSITION, score=(2, 0))
    assert hint_reason(s, Move.from_text("e7-e8;xe3-e7xk8")) == (
        "it wins the game and makes the row e3-e7 (removed with the ring on k8)")


def test_the_markers_flipped_are_counted():
    s = make_state(["e3", "a2", "k10"], ["b6", "h4", "i9"], ["g4"], ["e4", "e5"])
    assert hint_reason(s, Move.from_text("e3-e6")) == "it flips 2 markers"


def test_a_broken_four_is_named_by_its_markers():
    s = make_state(["e4", "a2", "k10"], ["b6", "h4", "i9"], [], ["f3", "f4", "f5", "f6"])
    assert [bin(f).count("1") for f in fours(s.black_markers, s.white_markers)] == [4]  # two windows, one four
    assert hint_reason(s, Move.from_text("e4-g4")) == "it breaks Black's four on f3-f6 and flips 1 marker"


def test_a_quiet_move_has_no_reason():
    s = make_state(["e3", "a2", "k10"], ["b6", "h4", "i9"], ["g4"], [])
    assert hint_reason(s, Move.from_text("e3-e6")) == ""


@pytest.mark.parametrize("point", ["e5", "a2", "f6", "k10"])
def test_a_placement_counts_the_points_a_ring_there_can_reach(point):
    s = Game.from_record("1.b6 2.h4").state
    counted = sum(1 for m in legal_moves(make_state(["b6", point], ["h4"])) if m.source == parse_point(point))
    assert hint_reason(s, Move("place", None, parse_point(point))).startswith(
        f"a ring there can move to {counted} points")


def test_a_placement_in_contact_names_the_opponent_s_rings():
    s = Game.from_record("1.b6 2.e3 3.a2 4.e8").state
    assert hint_reason(s, Move("place", None, parse_point("e5"))).endswith("on a line with 2 rings of Black's")


def test_the_hint_message_gives_the_reason():
    session = Session(Game.from_state(make_state(**ROW_POSITION), 40), Settings())
    session.computer.ask_hint()
    (request,) = session.computer.requests()
    session.computer.receive_hint(request, '{"ok": true, "move": "e7-e8;xe3-e7xk8"}')
    assert session.message == ("Hint: e7-e8;xe3-e7xk8 (what level 3 would play): "
                               "it makes the row e3-e7 (removed with the ring on k8).")
