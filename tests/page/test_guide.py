"""Learning the game and its looks, without a browser: the rules panel's HTML, the first-game
guide's lines on real positions, the stored preferences, and the themes' text contrast."""

from __future__ import annotations

import doctest

import pytest
from helpers import load

import yinsh.page.guide
import yinsh.page.prefs
import yinsh.page.rules_panel
from yinsh.board import parse_point
from yinsh.game import Game
from yinsh.move import parse_row
from yinsh.page.guide import FIRST_PICK, FIRST_TARGET, OVERLINE, PLACE, SEVERAL_ROWS, guide_line, rows_in_reach
from yinsh.state import WHITE, make_state
from yinsh.turn import Decision, Phase, Turn

SCENARIOS = {r.tags["Scenario"]: r.game for r in load("scenarios.ygn")}
GAMES = {r.tags["Game"]: r.game for r in load("games.ygn")}
NOTATION_EXAMPLE = SCENARIOS["official notation example"]


@pytest.mark.parametrize("module", [yinsh.page.guide])
def test_doctests(module):
    """pytest's doctest run skips yinsh/web (its glue needs a browser); these modules do not."""
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried and not failures


def replay(game: Game, plies: int) -> Game:
    """A game after its first ``plies`` moves."""
    out = Game()
    for move in game.moves[:plies]:
        out.play(move)
    return out


# --------------------------------------------------------------------------- the guide


def turn_after(game: Game, *decisions: tuple[str, str]) -> Turn:
    """The turn of ``game`` after decisions given as (kind, point or row name)."""
    turn = Turn(game)
    for kind, name in decisions:
        value = parse_row(*name.split("-")) if kind == "row" else parse_point(name)
        turn.choose(Decision(kind, value))
    return turn


class TestGuide:
    def test_placement(self):
        assert guide_line(Turn(Game())) == PLACE
        assert guide_line(Turn(replay(NOTATION_EXAMPLE, 9))) == PLACE  # Black's last ring

    def test_first_ring_move_of_each_player(self):
        white = Turn(NOTATION_EXAMPLE)
        assert white.phase is Phase.PICK_RING and guide_line(white) == FIRST_PICK
        white.click_point(parse_point("h7"))
        assert guide_line(white) == FIRST_TARGET
        game = NOTATION_EXAMPLE.copy()
        game.play("h7-g7")
        assert guide_line(Turn(game)) == FIRST_PICK  # Black's first move too

    def test_a_row_in_reach(self):
        """The scenario "single row": White's e3-f3 completes e3-e7."""
        game = SCENARIOS["single row"]
        assert rows_in_reach(game.state, WHITE) == [parse_row("e3", "e7")]
        assert guide_line(Turn(game)) == "A row is in reach: one ring move can make five on e3-e7. Find it!"

    def test_the_opponent_threatens_a_row(self):
        game = replay(SCENARIOS["single row"], 17)  # Black to move; White threatens e3-e7
        assert game.to_move == "black"
        assert guide_line(Turn(game)) == ("White can make a row on e3-e7 next turn: block that line or flip one "
                                          "of its markers.")

    def test_a_row_made_is_a_ring_removed(self):
        turn = turn_after(SCENARIOS["single row"], ("source", "e3"), ("target", "f3"))
        assert turn.phase is Phase.REMOVE_RING  # the only row was chosen for the player
        assert guide_line(turn) == ("You made a row: you remove the row and one of your rings — that is how "
                                    "you win (ring 1 of 3).")

    def test_choosing_five_of_six_then_the_ring(self):
        turn = turn_after(SCENARIOS["overline of six"], ("source", "e3"), ("target", "f3"))
        assert turn.phase is Phase.REMOVE_ROW and guide_line(turn) == OVERLINE
        turn.choose(Decision("row", parse_row("e2", "e6")))
        assert guide_line(turn).startswith("Pick the ring to take off with the row (ring 1 of 3)")

    def test_two_crossing_rows(self):
        game = Game.from_state(make_state(["e5", "k7", "j11"], ["a2", "h3", "k10"],
                                          ["e1", "e2", "e3", "e4", "a5", "b5", "c5", "d5"]), ply=40)
        turn = turn_after(game, ("source", "e5"), ("target", "e6"))
        assert set(turn.candidate_rows) == {parse_row("e1", "e5"), parse_row("a5", "e5")}
        assert guide_line(turn) == SEVERAL_ROWS

    def test_rows_the_opponent_made_come_first(self):
        """White's e5-g7 made a row for each; Black removes f4-f8 before moving."""
        game = Game.from_state(make_state(["e5", "k7", "j11", "a2"], ["a5", "b7", "h3"],
                                          ["e1", "e2", "e3", "e4", "f6"], ["f4", "f5", "f7", "f8"]), ply=40)
        game.play("e5-g7;xe1-e5xk7")
        line = guide_line(Turn(game))
        assert line.startswith("White's move made a row of your colour: take it and one of your rings off")

    def test_the_pool_running_low(self):
        game = replay(SCENARIOS["out of markers"], 47)
        assert game.pool == 14
        assert guide_line(Turn(game)) == "Watch the pool: 14 markers left; when it runs out the game ends."

    def test_nothing_once_the_game_is_over(self):
        assert guide_line(Turn(SCENARIOS["out of markers"])) == ""

    @pytest.mark.parametrize("name", sorted(GAMES))
    def test_one_short_line_at_every_turn_of_a_real_game(self, name):
        game = Game()
        for move in GAMES[name].moves:
            line = guide_line(Turn(game))
            assert line and "\n" not in line and len(line) <= 140 and line.endswith((".", "!", ")")), line
            game.play(move)
