"""Move notation: long form out, long and short forms in, and clear errors for bad input."""

from __future__ import annotations

import pytest
from helpers import game_at
from hypothesis import given, settings
from hypothesis import strategies as st

from yinsh import Game, IllegalMoveError, Move, NotationError
from yinsh.move import parse_move_text, parse_row, row_name

EXAMPLE = "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8"


class TestLongForm:
    @pytest.mark.parametrize("text", [
        "e4", "e4-e10", "pass", "h9-h10;xh5-h9xe10", "xb1-b5xa5;d3-b3", "xc1-c5xf6",
        "d3-d7;xb4-f4xa2xb6-f6xk7", "xa4-e8xb1;c2-c1;xg5-g9xa5",
    ])
    def test_long_form_round_trips(self, text):
        move = Move.from_text(text)
        assert str(move) == text
        assert eval(repr(move)) == move

    def test_input_accepts_upper_case_and_spaces(self):
        assert str(Move.from_text(" H9 - H10 ; X H5-H9 X E10 ")) == "h9-h10;xh5-h9xe10"

    def test_row_ends_are_written_in_notation_order(self):
        assert row_name(parse_row("e8", "a4")) == "a4-e8"
        assert str(Move.from_text("xg9-g5xa5;b1-b2")) == "xg5-g9xa5;b1-b2"

    def test_the_long_form_needs_the_row(self):
        with pytest.raises(NotationError, match="without its row"):
            Move.from_text("h9-h10;xe10")


class TestBadText:
    @pytest.mark.parametrize("text, reason", [
        ("", "empty"),
        ("hello", "cannot read"),
        ("z9", "'z9' is not a point"),
        ("a1", "'a1' is not a point"),
        ("e4-e11", "'e11' is not a point"),
        ("e1-e4;xe1-e4xa2", "not a row"),
        ("h4-d8;xh4-d8xa2", "not a row"),
        ("e4;e5", "more than one action"),
        ("e4-e5;;xa2", "empty part"),
        ("xe1-e5xa2;xe2-e6xa3", "separated"),
    ])
    def test_garbage_raises_notation_error_quoting_the_input(self, text, reason):
        with pytest.raises(NotationError, match=reason) as info:
            parse_move_text(text)
        assert repr(text)[1:-1] in str(info.value) or text == ""

    @given(st.text(max_size=30))
    @settings(max_examples=300, deadline=None)
    def test_fuzzed_text_gives_only_notation_errors(self, text):
        try:
            parse_move_text(text)
        except NotationError:
            pass

    @given(st.text(alphabet="abcdefghijkx-;0123456789 pasP", max_size=24))
    @settings(max_examples=500, deadline=None)
    def test_fuzzed_moves_in_a_game_give_only_the_two_errors_and_change_nothing(self, text):
        game = Game.from_record(EXAMPLE + " 11.h7-g7 12.a5-a4")
        before = (game.state, game.record())
        try:
            game.parse_move(text)
            game.play(text)
            game.undo()
        except (NotationError, IllegalMoveError):
            pass
        assert (game.state, game.record()) == before


class TestIllegalMoves:
    def test_the_message_names_the_move_number_the_input_and_the_reason(self):
        game = Game.from_record(EXAMPLE)
        with pytest.raises(IllegalMoveError) as info:
            game.play("a5-a4")
        assert str(info.value) == "move 11: 'a5-a4' is illegal: the ring on a5 is black's"

    @pytest.mark.parametrize("text, reason", [
        ("e5", "all rings are placed"),
        ("e4-e5", "no ring on e4"),
        ("e6-e7", "there is no ring on e6"),
        ("e2-e2", "a ring must move"),
        ("e2-e1", "cannot land on the ring on e1"),
        ("e2-e3;xa2-e6xk7", "a2-e6 is not a row of five white markers"),
        ("e2-e3;xk7", "no row of five white markers"),
        ("xe1-e5xe2;e2-e3", "e1-e5 is not a row"),
        ("pass", "only when no ring can move"),
    ])
    def test_each_illegal_move_says_why(self, text, reason):
        game = game_at(["e2", "k7"], ["a5", "e1"], ["d4"])
        with pytest.raises((IllegalMoveError, NotationError), match=reason):
            game.play(text)

    def test_a_removal_of_a_ring_that_is_not_yours(self):
        game = game_at(["e6", "k7"], ["a5"], ["a2", "b3", "c4", "d5"])
        with pytest.raises(IllegalMoveError, match="no white ring on a5"):
            game.play("e6-e7;xa2-e6xa5")

    def test_an_ambiguous_short_removal_is_a_notation_error(self):
        game = game_at(["e4", "k7"], ["a5"], ["e1", "e2", "e3", "e5", "e6"])
        with pytest.raises(NotationError, match="white has the rows e1-e5, e2-e6: name the row"):
            game.play("e4-f4;xk7")

    def test_a_move_after_the_game_ended(self, scenarios):
        game = scenarios["out of markers"].game
        with pytest.raises(IllegalMoveError, match=r"move 67: 'c7-c6' is illegal: the game is over \(0-1\)"):
            game.play("c7-c6")

    def test_a_move_value_that_is_not_legal(self):
        with pytest.raises(IllegalMoveError, match="rings are still being placed"):
            Game().play(Move("move", 40, 41))

    def test_every_legal_move_text_parses_back_to_the_same_move(self, games):
        game = games[1].game.copy()
        while game.ply > 20:
            for move in game.legal_moves():
                assert game.parse_move(str(move)) == move
            game.undo()
