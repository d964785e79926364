"""Every rule of ruleset yinsh-standard-v1, one named test each (the turn as yinsh/state.py lays it
out, and the rulings of README.md where the rulebook is silent)."""

from __future__ import annotations

import pytest
from helpers import game_at

from yinsh import Game, IllegalMoveError, Move
from yinsh.board import parse_point, point_name
from yinsh.move import parse_row, row_name

# Rings parked in corners, out of the way of the action.
WHITE_SPARES = ["k7", "k10", "j11"]
BLACK_SPARES = ["a5", "b7", "h3"]


def destinations(game: Game, ring: str) -> set[str]:
    """Where the ring on ``ring`` can go."""
    return {point_name(m.target) for m in game.legal_moves() if m.kind == "move" and point_name(m.source) == ring}


def moves_of(game: Game, action: str) -> list[Move]:
    """The complete legal moves whose action is ``action`` (e.g. ``'e4-e7'``)."""
    return [m for m in game.legal_moves() if str(Move(m.kind, m.source, m.target)) == action]


def windows(moves: list[Move], which: str = "after") -> set[str]:
    return {row_name(getattr(m, which)[0].row) for m in moves}


class TestPlacement:
    def test_white_places_first_and_players_alternate(self):
        game = Game()
        assert game.to_move == "white" and game.in_placement
        game.play("e5")
        assert game.to_move == "black"
        assert parse_point("e5") in [m.target for m in Game().legal_moves()]

    def test_a_ring_cannot_be_placed_on_a_ring(self):
        game = Game()
        game.play("e5")
        with pytest.raises(IllegalMoveError, match="e5 already holds a ring"):
            game.play("e5")

    def test_ten_placements_then_white_makes_the_first_ring_move(self):
        game = Game.from_record("1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8")
        assert not game.in_placement and game.to_move == "white"
        assert {m.kind for m in game.legal_moves()} == {"move"}
        assert game.pool == 51

    def test_a_ring_move_during_placement_is_illegal(self):
        game = Game()
        game.play("e5")
        with pytest.raises(IllegalMoveError, match="still being placed"):
            game.play("e5-e6")


class TestRingMove:
    def test_the_ring_leaves_a_marker_of_the_movers_colour_at_its_origin(self):
        game = Game.from_record("1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8 11.h7-g7")
        s = game.state
        assert s.white_markers == 1 << parse_point("h7") and s.black_markers == 0
        assert s.white_rings & (1 << parse_point("g7")) and not s.white_rings & (1 << parse_point("h7"))
        assert game.pool == 50

    def test_a_lone_ring_slides_over_empty_points_in_six_directions(self):
        assert len(game_at(["e5"]).legal_moves()) == 26

    def test_a_ring_crosses_empty_points_then_markers_and_stops_right_after_them(self):
        game = game_at(["e2"], ["k10"], black_markers=["e5", "e6"])
        assert {d for d in destinations(game, "e2") if d[0] == "e"} == {"e1", "e3", "e4", "e7"}
        reason = r"cannot stop on e8 after crossing markers \(first empty point is e7\)"
        with pytest.raises(IllegalMoveError, match=reason):
            game.play("e2-e8")

    def test_a_ring_may_not_cross_a_ring(self):
        game = game_at(["e2"], ["e5"])
        assert {d for d in destinations(game, "e2") if d[0] == "e"} == {"e1", "e3", "e4"}
        with pytest.raises(IllegalMoveError, match="cannot pass over the ring on e5"):
            game.play("e2-e6")

    def test_a_ring_may_not_land_on_a_marker_or_a_ring(self):
        game = game_at(["e2"], ["e6"], white_markers=["e4"])
        with pytest.raises(IllegalMoveError, match="cannot land on the marker on e4"):
            game.play("e2-e4")
        with pytest.raises(IllegalMoveError, match="cannot land on the ring on e6"):
            game.play("e2-e6")

    def test_every_crossed_marker_flips(self):
        game = game_at(["e2"], ["k10"], white_markers=["e3"], black_markers=["e4"])
        game.play("e2-e5")
        s = game.state
        assert {point_name(p) for p in _points(s.white_markers)} == {"e2", "e4"}
        assert {point_name(p) for p in _points(s.black_markers)} == {"e3"}

    def test_only_your_own_rings_move(self):
        game = game_at(["e2"], ["g4"])
        with pytest.raises(IllegalMoveError, match="the ring on g4 is black's"):
            game.play("g4-g5")
        with pytest.raises(IllegalMoveError, match="e2 and f4 are not on one line"):
            game.play("e2-f4")


def _points(bitboard: int) -> list[int]:
    from yinsh.board import points_of

    return points_of(bitboard)


class TestRows:
    def test_a_diagonal_row_along_1_1_must_be_removed_with_a_ring(self):
        game = game_at(["e6", *WHITE_SPARES, "i4"], BLACK_SPARES, ["a2", "b3", "c4", "d5"])
        moves = moves_of(game, "e6-e7")
        assert windows(moves) == {"a2-e6"} and len(moves) == 5  # one per ring
        with pytest.raises(IllegalMoveError, match="must then remove the rows made: a2-e6"):
            game.play("e6-e7")
        game.play("e6-e7;xa2-e6xe7")
        assert game.score == (1, 0) and game.state.white_markers == 0

    def test_no_row_along_1_minus_1(self):
        game = game_at(["d8", "k7"], ["a5"], ["h4", "g5", "f6", "e7"])
        assert all(not m.after for m in moves_of(game, "d8-d9"))
        assert str(game.play("d8-d9")) == "d8-d9"

    def test_a_six_marker_run_offers_two_windows(self):
        game = game_at(["e4", "k7"], ["a5"], ["e1", "e2", "e3", "e5", "e6"])
        assert windows(moves_of(game, "e4-f4")) == {"e1-e5", "e2-e6"}

    def test_a_seven_marker_run_offers_three_windows(self):
        game = game_at(["e4", "k7"], ["a5"], ["e1", "e2", "e3", "e5", "e6", "e7"])
        assert windows(moves_of(game, "e4-f4")) == {"e1-e5", "e2-e6", "e3-e7"}

    def test_removing_one_of_two_intersecting_rows_breaks_the_other(self):
        game = game_at(["e5", "k7"], ["a5"], ["e3", "e4", "e6", "e7", "c5", "d5", "f5", "g5"])
        moves = moves_of(game, "e5-f6")
        assert windows(moves) == {"e3-e7", "c5-g5"}
        assert all(len(m.after) == 1 for m in moves)
        game.play("e5-f6;xc5-g5xk7")
        assert game.score == (1, 0) and game.pending_rows() == []

    def test_two_disjoint_rows_cost_two_rings(self):
        game = game_at(["d3", "a2", *WHITE_SPARES], BLACK_SPARES,
                       ["b4", "c4", "e4", "f4", "b6", "c6", "e6", "f6"], ["d4", "d5", "d6"])
        moves = moves_of(game, "d3-d7")
        assert len(moves) == 2 * 5 * 4  # either row first, a ring each time
        assert all(len(m.after) == 2 for m in moves)
        game.play("d3-d7;xb4-f4xa2xb6-f6xk7")
        assert game.score == (2, 0)

    def test_short_form_names_only_the_ring_when_one_row_is_possible(self):
        game = game_at(["e6", *WHITE_SPARES], BLACK_SPARES, ["a2", "b3", "c4", "d5"])
        assert str(game.play("E6-E7 ; XK7")) == "e6-e7;xa2-e6xk7"

    def test_a_row_made_only_for_the_opponent_is_removed_first_in_their_next_move(self):
        game = self._opponent_row()
        game.play("d5-f5")
        assert game.to_move == "black" and game.pending_rows() == ["e3-e7"]
        assert all(m.before[0].row == parse_row("e3", "e7") for m in game.legal_moves())
        with pytest.raises(IllegalMoveError, match="black must first remove the rows the opponent made: e3-e7"):
            game.play("b7-b6")
        assert str(game.play("xa5;b7-b6")) == "xe3-e7xa5;b7-b6"
        assert game.score == (0, 1) and game.record().endswith("42.xe3-e7xa5;b7-b6")

    def test_rows_for_both_players_are_resolved_mover_first(self):
        game = self._both_rows()
        moves = moves_of(game, "e5-g7")
        assert windows(moves) == {"e1-e5"}  # only the mover's row is removed in this move
        game.play("e5-g7;xe1-e5xk7")
        assert game.score == (1, 0) and game.pending_rows() == ["f4-f8"]
        game.play("xf4-f8xa5;b7-b6")
        assert game.score == (1, 1)

    def test_completing_the_opponents_third_row_ends_the_game_in_their_next_move(self):
        game = self._opponent_row(score=(0, 2))
        game.play("d5-f5")
        assert game.result is None
        assert {m.kind for m in game.legal_moves()} == {"remove"}
        assert str(game.play("xe3-e7xa5")) == "xe3-e7xa5"
        assert game.result == "0-1" and game.termination == "rings" and game.legal_moves() == []

    def test_the_third_ring_ends_the_game_at_once_before_the_opponents_rows(self):
        game = self._both_rows(score=(2, 2))
        game.play("e5-g7;xe1-e5xk7")
        assert game.result == "1-0" and game.score == (3, 2)
        assert game.legal_moves() == []

    def test_after_the_third_ring_nothing_may_follow(self):
        game = self._both_rows(score=(2, 0))
        with pytest.raises(IllegalMoveError):
            game.play("e5-g7;xe1-e5xk7xf4-f8xa5")

    @staticmethod
    def _opponent_row(score=(0, 0)) -> Game:
        # d5-f5 crosses the white marker on e5, which turns black and completes e3-e7.
        return game_at(["d5", *WHITE_SPARES, "a2"], [*BLACK_SPARES, "j5", "i11"],
                       ["e5"], ["e3", "e4", "e6", "e7"], score=score)

    @staticmethod
    def _both_rows(score=(0, 0)) -> Game:
        # e5-g7 leaves e5 white (row e1-e5) and flips f6 to black (row f4-f8).
        return game_at(["e5", *WHITE_SPARES, "a2"], [*BLACK_SPARES, "j5", "i11"],
                       ["e1", "e2", "e3", "e4", "f6"], ["f4", "f5", "f7", "f8"], score=score)


class TestMarkerPool:
    def test_the_last_marker_without_a_row_ends_the_game_on_rings(self, scenarios):
        game = scenarios["out of markers"].game
        assert game.pool == 0 and game.result == "0-1" and game.termination == "markers"
        game.undo()
        assert game.pool == 1 and game.result is None

    def test_the_pool_counts_down_from_51(self, scenarios):
        game = scenarios["out of markers"].game
        while game.ply > 50:
            game.undo()
        assert game.pool == 11
        game.play("b7-c8")
        assert game.pool == 10

    def test_the_last_marker_with_a_row_returns_five_and_play_goes_on(self, scenarios):
        game = scenarios["out of markers"].game
        game.undo()
        game.play("i5-d5;xe1-e5xd5")
        assert game.pool == 5 and game.result is None

    def test_the_last_marker_making_only_the_opponents_row_lets_them_resolve_it(self):
        game = Game.from_position("Y1B9jFjYq7W-ZlpO_XbcNzWDvfSFgdt6MqG9klqA")
        assert game.pool == 1
        game.play("b1-d3")
        assert game.pool == 0 and game.result is None and game.pending_rows()
        move = game.legal_moves()[0]
        assert move.before and move.kind == "move"
        game.play(move)
        assert game.pool >= 4 and game.result is None

    def test_equal_rings_when_the_pool_runs_out_is_a_draw(self):
        game = Game.from_position("Y1CbCc1io8yAmY0ToZMX8f9L6rgNOhqFtRH5HmRW")
        assert game.pool == 1 and game.score == (2, 2)
        game.play("d9-j9")
        assert game.result == "1/2-1/2" and game.termination == "markers"


# A corner where no ring can move: rings on a2, b3 (white), a3, b2 (black), every ray
# out of them filled with markers up to the edge, coloured so no five are alike.
_RING_POINTS = {"a2", "a3", "b2", "b3"}


def _blocked(turn=0, score=(0, 0), extra_black=()) -> Game:
    from yinsh.board import RAYS

    rings = {parse_point(p) for p in _RING_POINTS}
    filled = {q for p in rings for ray in RAYS[p] for q in ray} - rings
    white = [point_name(q) for q in filled if (q // 12 + q % 12) % 3 != 1]
    black = [point_name(q) for q in filled if (q // 12 + q % 12) % 3 == 1]
    return game_at(["a2", "b3"], ["a3", "b2", *extra_black], white, black, turn=turn, score=score)


class TestPass:
    def test_a_player_whose_rings_cannot_move_passes(self):
        game = _blocked()
        assert game.legal_moves() == [Move("pass")]
        game.play("pass")
        assert game.to_move == "black" and game.state.passes == 1 and game.result is None

    def test_pass_is_illegal_while_a_ring_can_move(self):
        game = game_at(["e5"], ["f7"])
        with pytest.raises(IllegalMoveError, match="only when no ring can move"):
            game.play("pass")

    def test_two_passes_in_a_row_end_the_game_like_the_pool_rule(self):
        game = _blocked(score=(1, 0))
        game.play("pass")
        game.play("pass")
        assert game.result == "1-0" and game.termination == "passes"

    def test_a_move_between_two_passes_keeps_the_game_going(self):
        game = _blocked(extra_black=["k10"])
        game.play("pass")
        game.play("k10-k9")
        game.play("pass")
        assert game.result is None and game.state.passes == 1


class TestBlitz:
    def test_blitz_is_an_option_never_the_default(self):
        assert Game().variant == "standard" and Game(variant="blitz").variant == "blitz"
        with pytest.raises(ValueError):
            Game(variant="speed")  # type: ignore[arg-type]

    def test_in_blitz_the_first_row_wins(self):
        game = game_at(["e6", *WHITE_SPARES], BLACK_SPARES, ["a2", "b3", "c4", "d5"], rings_to_win=1)
        game.play("e6-e7;xa2-e6xk7")
        assert game.result == "1-0" and game.termination == "rings"

    def test_a_blitz_record_reads_back_as_blitz(self):
        game = Game(variant="blitz")
        game.play("e5")
        assert '[Variant "blitz"]' in game.record()
        assert Game.from_record(game.record()).variant == "blitz"


class TestUndo:
    def test_undo_restores_the_exact_previous_state(self, games):
        game = games[1].game.copy()
        before = [game.state]
        while game.ply:
            move = game.undo()
            game.push(move)
            assert game.state == before[-1]
            game.undo()
            before.append(game.state)
        assert game.state == Game().state

    def test_undo_with_nothing_to_undo(self):
        with pytest.raises(IndexError):
            Game().undo()
