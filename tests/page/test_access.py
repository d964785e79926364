"""Keyboard moves along the lines, accessible names of points, and screen-reader announcements
(:mod:`yinsh.page.access`)."""

from __future__ import annotations

import doctest
from collections import deque

import pytest
from helpers import choices
from hypothesis import given, settings
from hypothesis import strategies as hst

from yinsh.board import POINT_NAMES, POINTS, STEPS, parse_point, point_name
from yinsh.game import Game
from yinsh.move import Move, parse_row, row_name
from yinsh.page import access
from yinsh.page.access import (
    KEY_DIRECTIONS,
    SHORTCUTS,
    START_POINT,
    Announcer,
    move_announcement,
    neighbour,
    point_labels,
    result_announcement,
    row_for_key,
)
from yinsh.render import board_svg
from yinsh.state import WHITE, make_state
from yinsh.turn import Phase, Turn

NOTATION_EXAMPLE = "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8"
OVERLINE = ("1.e7 2.e9 3.e6 4.f9 5.e5 6.g9 7.e4 8.h9 9.e2 10.j9 11.e7-f7 12.e9-e10 13.e6-f6 14.f9-f10 "
            "15.e5-f5 16.g9-g10 17.e4-f4 18.h9-h10 19.e2-e3 20.j9-i9")
ARROWS = [(key, shift) for key, shift in KEY_DIRECTIONS]


def p(name: str) -> int:
    return parse_point(name)


def walk(start: str, *keys: str) -> str:
    point = p(start)
    for key in keys:
        shift = key.startswith("Shift+")
        point = neighbour(point, key.removeprefix("Shift+"), shift)
    return point_name(point)


class TestFocusAlongTheLines:
    def test_each_arrow_follows_one_of_the_three_lines(self):
        assert walk("e4", "ArrowRight") == "f4" and walk("e4", "ArrowLeft") == "d4"
        assert walk("e4", "ArrowUp") == "e5" and walk("e4", "ArrowDown") == "e3"
        assert walk("e4", "Shift+ArrowRight") == "f5" and walk("e4", "Shift+ArrowLeft") == "d3"

    def test_every_step_is_to_a_neighbour_on_a_line(self):
        for point in POINTS:
            for key, shift in ARROWS:
                target = neighbour(point, key, shift)
                assert target == point or abs(target - point) in STEPS, (point_name(point), key, shift)

    def test_the_focus_stops_at_the_edge(self):
        assert walk("a5", "ArrowUp") == "a5" and walk("a2", "ArrowDown") == "a2"
        assert walk("k10", "ArrowRight") == "k10" and walk("b1", "Shift+ArrowLeft") == "b1"
        assert walk("e10", "ArrowUp", "ArrowUp") == "e10"

    def test_opposite_keys_undo_each_other_away_from_the_edge(self):
        for point in POINTS:
            for there, back in (("ArrowRight", "ArrowLeft"), ("ArrowUp", "ArrowDown")):
                for shift in (False, True):
                    moved = neighbour(point, there, shift)
                    if moved != point:
                        assert neighbour(moved, back, shift) == point

    def test_every_point_is_reachable_from_the_start(self):
        seen, queue = {START_POINT}, deque([START_POINT])
        while queue:
            point = queue.popleft()
            for key, shift in ARROWS:
                nxt = neighbour(point, key, shift)
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        assert seen == set(POINTS)

    def test_other_keys_leave_the_focus(self):
        assert neighbour(p("e4"), "Home") == p("e4") and neighbour(p("e4"), "x", True) == p("e4")


class TestPointLabels:
    def test_contents_and_what_a_click_does_while_placing(self):
        labels = point_labels(Turn(Game.from_record("1.e3 2.a5")))
        assert labels[p("e3")] == "e3, white ring"
        assert labels[p("a5")] == "a5, black ring"
        assert labels[p("c3")] == "c3, empty, place a ring here"
        assert len(labels) == 85

    def test_picking_and_moving_a_ring(self):
        turn = Turn(Game.from_record(NOTATION_EXAMPLE + " 11.h7-g7"))
        labels = point_labels(turn)
        assert labels[p("h7")] == "h7, white marker"
        assert labels[p("e4")] == "e4, black ring, can move"
        assert labels[p("g7")] == "g7, white ring"
        turn.click_point(p("e4"))
        labels = point_labels(turn)
        assert labels[p("e4")] == "e4, black ring, picked: choose where it goes"
        assert labels[p("i8")] == "i8, empty, legal destination"
        assert labels[p("a5")] == "a5, black ring, can move"
        destinations = {q for q, text in labels.items() if text.endswith("legal destination")}
        assert destinations == set(turn.destinations)

    def test_rows_to_choose_and_the_ring_to_remove(self):
        turn = Turn(Game.from_record(OVERLINE))
        turn.click_point(p("e3"))
        turn.click_point(p("f3"))
        assert turn.phase is Phase.REMOVE_ROW
        labels = point_labels(turn)
        assert labels[p("e2")] == "e2, white marker, in row e2-e6"
        assert labels[p("e4")] == "e4, white marker, in rows e2-e6 and e3-e7"
        assert labels[p("e7")] == "e7, white marker, in row e3-e7"
        turn.click_row(parse_row("e3", "e7"))
        labels = point_labels(turn)
        assert labels[p("e7")] == "e7, white marker, in row e3-e7 (chosen)"
        assert labels[p("f7")] == "f7, white ring, remove this ring with the row"

    def test_without_a_turn_only_the_contents(self):
        game = Game.from_record(NOTATION_EXAMPLE)
        labels = point_labels(None, game.state)
        assert labels[p("h7")] == "h7, white ring" and labels[p("f6")] == "f6, empty"

    def test_the_board_carries_them_with_ids_for_the_focus(self):
        turn = Turn(Game.from_record(NOTATION_EXAMPLE))
        svg = board_svg(turn.state, point_labels=point_labels(turn), **choices(turn))
        assert 'role="img"' not in svg.split(">", 1)[0]  # an img would hide its points
        assert '<circle class="hit can" cx="303.11" cy="-175" r="22" data-point="h7" id="yb-pt-h7" role="button" ' \
               'aria-label="h7, white ring, can move"/>' in svg
        assert '<circle class="hit" cx="0" cy="-250" r="22" data-point="a5" id="yb-pt-a5" role="button" ' \
               'aria-label="a5, black ring"/>' in svg
        assert svg.count('role="button"') == 85 and svg.count("aria-label=") == 85


class TestRowForKey:
    def choosing(self) -> Turn:
        turn = Turn(Game.from_record(OVERLINE))
        turn.click_point(p("e3"))
        turn.click_point(p("f3"))
        return turn

    def test_enter_cycles_through_the_rows_of_a_shared_point(self):
        turn = self.choosing()
        chosen = []
        for _ in range(3):
            row = row_for_key(turn, p("e5"))
            assert row is not None
            turn.click_row(row)
            chosen.append(row_name(turn.selected_row))
        assert chosen == ["e2-e6", "e3-e7", "e2-e6"]

    def test_a_point_of_one_row_or_a_ring_is_a_plain_click(self):
        turn = self.choosing()
        assert row_for_key(turn, p("e7")) is None  # only e3-e7: click_point chooses it
        assert turn.click_point(p("e7")) is None and row_name(turn.selected_row) == "e3-e7"
        assert row_for_key(turn, p("f7")) is None  # a ring to remove

    def test_nothing_outside_a_row_choice(self):
        turn = Turn(Game.from_record(NOTATION_EXAMPLE))
        assert all(row_for_key(turn, q) is None for q in POINTS)


class TestAnnouncements:
    def test_placement_move_with_flips_and_pass(self):
        game = Game.from_record(NOTATION_EXAMPLE + " 11.h7-g7")
        assert move_announcement(Game.from_record("1.e3").state, Move.from_text("a5")) == "Black placed a ring on a5"
        assert move_announcement(game.state, Move.from_text("e4-i8")) == "Black moved e4 to i8 and flipped 1 marker"
        assert move_announcement(game.state, Move.from_text("e4-e5")) == "Black moved e4 to e5"
        assert move_announcement(game.state, Move.from_text("pass")) == "Black passed: no ring could move"

    def test_removals_before_and_after_the_action(self):
        game = Game.from_record(OVERLINE)
        move = game.parse_move("e3-f3;xe3-e7xf7")
        assert move_announcement(game.state, move) == (
            "White moved e3 to f3. White removed row e3-e7 and the ring at f7")
        s = make_state(white_rings=["d1", "h8", "k8", "i4", "j9"], black_rings=["a2", "j6", "g11", "h11", "k10"],
                       white_markers=["b5", "c5", "e5", "f5", "d2", "d3", "d6"],
                       black_markers=["b3", "c3", "e3", "f3", "d4", "d5"], turn=WHITE)
        game = Game.from_state(s, 40)
        game.play("d1-d7;xb5-f5xh8")
        move = game.parse_move("xb3-f3xj6;g11-g10")
        assert move_announcement(game.state, move) == (
            "Black removed row b3-f3 and the ring at j6. Black moved g11 to g10")

    def test_flips_are_counted_after_the_removals_before_the_move(self):
        """A row removed first empties points the ring then slides over: they flip nothing."""
        s = make_state(white_rings=["a2", "k8", "h10", "b7", "c8"], black_rings=["a5", "k10", "j11", "i11", "h11"],
                       white_markers=["c3", "c4", "c5", "c6", "c7"], black_markers=["c2"], turn=WHITE)
        game = Game.from_state(s, 40)
        move = game.parse_move("xc3-c7xa2;c8-c1")
        assert move_announcement(game.state, move) == (
            "White removed row c3-c7 and the ring at a2. White moved c8 to c1 and flipped 1 marker")

    def test_results(self):
        won = Game.from_record("1.e3")
        assert result_announcement(won) is None
        s = make_state(white_rings=["a2", "k8", "h10"], black_rings=["a5", "k10", "j11", "i11", "h11"],
                       white_markers=["e3", "e4", "e5", "e6", "e7"], turn=WHITE, score=(2, 1))
        game = Game.from_state(s, 40)
        game.play(game.legal_moves()[0])
        assert result_announcement(game) == "White wins 3 to 1"

    def test_the_announcer_tells_each_move_once_then_the_prompt(self):
        game, announcer = Game.from_record(NOTATION_EXAMPLE), Announcer()
        assert announcer.update(game, "White: choose a ring to move") == "White: choose a ring to move"
        assert announcer.update(game, "White: choose a ring to move") == ""
        assert announcer.update(game, "White: choose where the ring on h7 goes") == \
            "White: choose where the ring on h7 goes"
        game.play("h7-g7")
        game.play("e4-i8")
        assert announcer.update(game, "White: choose a ring to move") == (
            "White moved h7 to g7. Black moved e4 to i8 and flipped 1 marker. White: choose a ring to move")

    def test_a_game_that_does_not_continue_the_last_tells_no_move(self):
        announcer = Announcer()
        game = Game.from_record(NOTATION_EXAMPLE + " 11.h7-g7")
        announcer.update(game, "Black: choose a ring to move")
        game.undo()
        assert announcer.update(game, "White: choose a ring to move") == "White: choose a ring to move"
        other = Game.from_record("1.f3 2.a5")  # another game: its moves were never seen being played
        assert announcer.update(other, "White: place a ring on an empty point") == \
            "White: place a ring on an empty point"

    def test_the_end_is_told_instead_of_a_prompt(self):
        s = make_state(white_rings=["a2", "k8", "h10"], black_rings=["a5", "k10", "j11", "i11", "h11"],
                       white_markers=["e3", "e4", "e5", "e6", "e7"], turn=WHITE, score=(2, 1))
        game = Game.from_state(s, 40)
        announcer = Announcer()
        announcer.update(game, "White: choose one of your rings to remove")
        game.play("xe3-e7xa2")
        assert announcer.update(game, "White wins: three rings removed (3 to 1)") == (
            "White removed row e3-e7 and the ring at a2. White wins 3 to 1")


@settings(max_examples=30, deadline=None)
@given(hst.randoms(use_true_random=False))
def test_every_move_of_random_games_is_told(rng):
    """Announcing never fails, and names the mover and the points of every move."""
    game, announcer = Game(), Announcer()
    announcer.update(game, "")
    while game.result is None and game.ply < 80:
        move = rng.choice(game.legal_moves())
        before = game.state
        game.play(move)
        text = announcer.update(game, "next")
        assert text.startswith(("White", "Black")) and move_announcement(before, move) in text
        for point in (move.source, move.target):
            if point is not None:
                assert POINT_NAMES[point] in text


def test_the_shortcut_list_names_every_key_the_page_handles():
    keys = " ".join(k for k, _ in SHORTCUTS)
    for needed in ("←", "↑", "Shift", "Enter", "Space", "Escape", "Tab", "Ctrl + Z", "Ctrl + Y", "move list"):
        assert needed in keys


@pytest.mark.parametrize("key", ["ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown"])
def test_each_arrow_has_a_direction_with_and_without_shift(key):
    assert (key, False) in KEY_DIRECTIONS and (key, True) in KEY_DIRECTIONS


def test_doctests():
    """pytest's own doctest run skips yinsh/web (the glue needs a browser); this module does not."""
    failures, tried = doctest.testmod(access)
    assert tried > 5 and failures == 0
