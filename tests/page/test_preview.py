"""What the board previews before a decision (yinsh.page.preview), how the page hears a change
(yinsh.page.sounds), and what the session and its status make of them — browser-free.

The preview's facts are checked against the turn's own transitions (its legal moves): the
markers a previewed move marks are exactly those whose colour the move changes, the rows it
outlines exactly the rows of five the position after it holds and the one before did not.
"""

from __future__ import annotations

import doctest

import pytest
from helpers import choices

import yinsh.page.preview
import yinsh.page.sounds
from yinsh.board import BIT, POINTS, WINDOWS, parse_point, point_name
from yinsh.game import Game
from yinsh.move import parse_row, row_name
from yinsh.page.preview import Preview, preview, preview_note, row_at
from yinsh.page.session import Session
from yinsh.page.settings import Settings
from yinsh.page.status import status
from yinsh.page.words import TOUCH
from yinsh.playout import random_positions
from yinsh.render import Picture, board_svg, point_xy, preview_layer
from yinsh.state import make_state, rows
from yinsh.turn import Phase, Turn

P = parse_point
NOTATION_EXAMPLE = "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8"
SINGLE_ROW = ("1.e7 2.e9 3.e6 4.f9 5.e5 6.g9 7.e4 8.h9 9.e3 10.i9 11.e7-f7 12.e9-e10 13.e6-f6 14.f9-f10 "
              "15.e5-f5 16.g9-g10 17.e4-f4 18.h9-h10")


@pytest.mark.parametrize("module", [yinsh.page.preview])
def test_doctests(module):
    failures, tried = doctest.testmod(module)
    assert tried and not failures


def _colour_changes(before, after) -> set[int]:
    """The points holding a marker in both states, of another colour in ``after``."""
    changed = (before.white_markers & after.black_markers) | (before.black_markers & after.white_markers)
    return {p for p in POINTS if changed & BIT[p]}


class TestMovePreview:
    """A lit destination previews the move there exactly as the turn would make it."""

    def test_every_destination_of_random_positions_matches_the_turns_own_move(self):
        checked = 0
        for s in random_positions(40, seed=5, min_plies=12, max_plies=90):
            if s.in_placement:
                continue
            game = Game.from_state(s, 40)
            for source in sorted(Turn(game).movable_rings):
                turn = Turn(game)
                turn.click_point(source)
                for target in sorted(turn.destinations):
                    shown = preview(turn, target)
                    made = Turn(game, auto_row=False)
                    made.click_point(source)
                    made.click_point(target)
                    after = made.state
                    assert shown.ring == target and shown.row is None
                    assert set(shown.flips) == _colour_changes(turn.state, after), (point_name(source),
                                                                                   point_name(target))
                    assert list(shown.flips) == sorted(shown.flips)
                    expected = (set(rows(after.white_markers)) - set(rows(turn.state.white_markers))) | (
                        set(rows(after.black_markers)) - set(rows(turn.state.black_markers)))
                    assert set(shown.rows) == expected
                    assert bool(preview_note(turn, shown)) == bool(expected)
                    checked += 1
        assert checked > 500

    def test_nothing_is_previewed_off_a_destination(self):
        turn = Turn(Game.from_record(NOTATION_EXAMPLE))
        assert preview(turn, P("h7")) is None  # no ring picked yet
        turn.click_point(P("h7"))
        assert preview(turn, P("h7")) is None and preview(turn, P("a5")) is None and preview(turn, None) is None
        assert preview(turn, P("g7")) == Preview("white", ring=P("g7"))

    def test_a_row_for_the_opponent_is_said_too(self):
        s = make_state(["e4", "k8", "h10", "b7", "c8"], ["a5", "k10", "j11", "i11", "h11"],
                       ["e5"], ["c5", "d5", "f5", "g5"])
        turn = Turn(Game.from_state(s, 40))
        turn.click_point(P("e4"))
        shown = preview(turn, P("e6"))  # e5 turns black: c5-g5 is five for Black
        assert shown.flips == (P("e5"),) and [row_name(w) for w in shown.rows] == ["c5-g5"]
        assert preview_note(turn, shown) == "Makes a row for Black (c5-g5)"


def _overlapping_rows() -> Turn:
    """White to remove one of f10-j10 and g10-k10 (a run of six)."""
    s = make_state(["a2", "k8", "h9", "b7", "c8"], ["a5", "k7", "j11", "i11", "h11"],
                   ["f10", "g10", "h10", "i10", "j10", "k10"])
    return Turn(Game.from_state(s, 40))


def _crossing_rows() -> Turn:
    """White to remove one of c5-g5 and e3-e7, which cross at both their middles (e5)."""
    s = make_state(["a2", "k8", "h9", "b7", "c8"], ["a5", "k7", "j11", "i11", "h11"],
                   ["e3", "e4", "e5", "e6", "e7", "c5", "d5", "f5", "g5"])
    return Turn(Game.from_state(s, 40))


class TestRowUnderThePointer:
    """Where candidate rows share a marker, the one whose middle is nearest the pointer."""

    def test_the_middle_of_each_overlapping_row_takes_that_row(self):
        turn = _overlapping_rows()
        assert [row_name(w) for w in turn.candidate_rows] == ["f10-j10", "g10-k10"]
        for name in ("f10-j10", "g10-k10"):
            window = parse_row(*name.split("-"))
            middle = WINDOWS[window][2]
            assert row_at(turn, middle) == window
            x, y = point_xy(middle)
            for dx, dy in ((6, 0), (-6, 0), (0, 6), (0, -6)):  # anywhere on that marker
                assert row_at(turn, middle, x + dx, y + dy) == window

    def test_crossing_rows_follow_the_line_under_the_pointer(self):
        turn = _crossing_rows()
        column, line = parse_row("e3", "e7"), parse_row("c5", "g5")
        assert set(turn.candidate_rows) == {column, line}
        x, y = point_xy(P("e5"))
        for (nx, ny), window in ((point_xy(P("e6")), column), (point_xy(P("f5")), line)):
            assert row_at(turn, P("e5"), x + (nx - x) * 0.3, y + (ny - y) * 0.3) == window

    def test_a_marker_of_one_row_only_and_other_points(self):
        turn = _overlapping_rows()
        assert row_name(row_at(turn, P("f10"))) == "f10-j10" and row_name(row_at(turn, P("k10"))) == "g10-k10"
        assert row_at(turn, P("e5")) is None and row_at(turn, None) is None
        turn.click_row(parse_row("f10", "j10"))
        assert turn.phase is Phase.REMOVE_RING
        assert row_at(turn, P("a2")) is None  # a ring to remove is not a row
        assert row_name(row_at(turn, P("i10"))) == "g10-k10"  # the other row stays offered

    def test_preview_of_a_row_by_pointer_and_by_keyboard(self):
        turn = _overlapping_rows()
        shown = preview(turn, P("i10"))
        assert shown.row == parse_row("g10", "k10") and shown.ring is None and not shown.flips
        # the keyboard previews what Enter takes: the first row, then (once chosen) the next
        assert preview(turn, P("i10"), by_key=True).row == parse_row("f10", "j10")
        turn.click_row(parse_row("f10", "j10"))
        assert preview(turn, P("i10"), by_key=True).row == parse_row("g10", "k10")


class TestSession:
    def session(self, record: str = SINGLE_ROW) -> Session:
        return Session(Game.from_record(record), Settings())

    def test_the_pointer_previews_for_the_person_to_move_only(self):
        session = self.session()
        session.click_point(P("e3"))
        session.point_to(P("f3"), *point_xy(P("f3")))
        shown = status(session)
        assert shown.board.preview.ring == P("f3") and shown.preview_note == "Makes a row for White (e3-e7)"
        session.point_to(None)
        assert status(session).board.preview is None and status(session).preview_note == ""
        session.point_to(P("f3"), by_key=True)
        assert status(session).board.preview.ring == P("f3")
        session.review(3)
        assert status(session).board.preview is None
        computer = Session(Game.from_record(SINGLE_ROW), Settings(white="ai-1"))
        computer.point_to(P("f3"))
        assert status(computer).board.preview is None

    def test_sounds_follow_the_decisions_when_switched_on(self):
        session = self.session(NOTATION_EXAMPLE)
        session.click_point(P("h7"))
        session.click_point(P("g7"))
        assert session.motion.sounds == ("move",) and status(session).sounds == ()
        session.sound = True
        assert status(session).sounds == ("move",)
        session.click_point(P("e4"))
        session.click_point(P("i8"))  # flips h7
        assert session.motion.sounds == ("move", "flip")
        session = self.session(SINGLE_ROW)
        session.click_point(P("e3"))
        session.click_point(P("f3"))  # the row e3-e7 is the only one: chosen at once
        assert session.motion.sounds == ("move",)
        session.click_point(P("f3"))  # its ring goes with it
        assert session.motion.sounds == ("row",)
        fresh = Session(Game(), Settings())
        fresh.click_point(P("e3"))
        assert fresh.motion.sounds == ("place",)

    def test_the_result_can_be_put_away_and_comes_back_with_a_change(self):
        session = Session(Game.from_record("1.e3"), Settings())
        assert not session.close_result()  # no result to put away
        s = make_state(["e2", "k8", "h10"], ["e7", "k10", "j11"], [], ["e3", "e4", "e5", "e6"], turn=1)
        won = Game.from_state(s._replace(white_score=2, black_score=2), 50)
        session = Session(won, Settings())
        session.click_point(P("e7"))
        session.click_point(P("e9"))  # five for Black, the only row: chosen at once; its ring wins
        session.click_point(P("k10"))
        assert session.game.result == "0-1" and status(session).banner[0] == "Black wins"
        assert session.cancel() and status(session).banner is None
        assert status(session).prompt.startswith("Black wins")  # the prompt still says so
        assert not session.cancel()
        session.undo()
        session.redo()
        assert status(session).banner is not None

    def test_touch_words(self):
        session = self.session(NOTATION_EXAMPLE)
        assert "click, tap or Enter" in status(session).detail
        session.set_input_mode(TOUCH)
        assert status(session).detail == "Tap one of your rings, or drag it to where it goes."
        session.click_point(P("h7"))
        assert "Escape" not in status(session).detail and "Tap" in status(session).detail


class TestDrawing:
    def test_preview_markup(self):
        s = make_state(["e2"], ["k10"], ["e3"], ["e4"])
        svg = preview_layer(Picture(s, preview=Preview("white", ring=P("e5"), flips=(P("e3"), P("e4")),
                                                       rows=(parse_row("e2", "e6"),))))
        assert svg.startswith('<g class="yb-preview"') and "data-ring" not in svg and "data-point" not in svg
        assert svg.count('class="ring white preview"') == 1 and svg.count('class="yb-preview-row"') == 1
        row = preview_layer(Picture(s, preview=Preview("white", row=parse_row("e2", "e6"))))
        assert row.count('class="yb-preview-leave"') == 5 and row.count('class="yb-preview-take"') == 1

    def test_the_board_draws_its_preview_after_the_pieces_and_before_the_points(self):
        s = make_state(["e2"], ["k10"], ["e3"], ["e4"])
        shown = Picture(s, preview=Preview("white", ring=P("e5"), flips=(P("e3"), P("e4"))))
        svg = board_svg(shown)
        assert svg.index('class="yb-pieces"') < svg.index(preview_layer(shown)) < svg.index('class="yb-hits"')
        assert board_svg(shown._replace(preview=None)) == svg.replace(preview_layer(shown), "")
        assert preview_layer(shown._replace(preview=None)) == ""

    def test_the_last_moves_flips_stay_marked(self):
        game = Game.from_record(NOTATION_EXAMPLE + " 11.h7-g7 12.e4-i8")  # i8 crossed h7
        svg = board_svg(game)
        assert svg.count('class="yb-flipped"') == 1
        x, y = point_xy(P("h7"))
        assert f'class="yb-flipped" cx="{x:g}"' in svg.replace(".0\"", "\"")
        assert 'class="yb-flipped"' not in board_svg(Game.from_record(NOTATION_EXAMPLE + " 11.h7-g7"))

    def test_candidate_rows_fill_under_the_pieces_and_dim_once_one_is_chosen(self):
        turn = _overlapping_rows()
        svg = board_svg(turn.state, **choices(turn))
        assert svg.index("yb-row-fill") < svg.index('class="yb-pieces"') < svg.index("data-row=")
        turn.click_row(parse_row("f10", "j10"))
        svg = board_svg(turn.state, **choices(turn))
        assert 'class="row selected" data-row="f10-j10"' in svg and 'class="row dim" data-row="g10-k10"' in svg
        assert svg.count("yb-row-fill selected") == 1 and svg.count("yb-row-fill dim") == 1
