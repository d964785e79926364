"""The page's history, browser-free: undo and redo of whole turns (yinsh.page.history), the
evaluation graph's SVG (yinsh.page.graph) and the worker's evaluation of a game
(yinsh.web.worker.evaluate)."""

from __future__ import annotations

import doctest
import json
import random
import re

import pytest
from helpers import load
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rules import _blocked

import yinsh.page.graph
import yinsh.page.history
from yinsh.game import COLORS, Game
from yinsh.page.graph import eval_graph_svg, squash
from yinsh.page.history import History, mover_of, state_after
from yinsh.web import worker

NOTATION_EXAMPLE = "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8"
BRAVE_COMBO = next(r.game for r in load("games.ygn") if r.tags["Game"] == "Y-BraveCombo-Dumbot-2026-03-20-0237")
"""A real game that Black won (three rings to two) with its last move."""


@pytest.mark.parametrize("module", [yinsh.page.history, yinsh.page.graph])
def test_doctests(module):
    failures, tried = doctest.testmod(module)
    assert tried and not failures


def random_game(seed: int, plies: int) -> Game:
    rng = random.Random(seed)
    game = Game()
    while game.result is None and len(game.moves) < plies:
        game.push(rng.choice(game.legal_moves()))
    return game


# --------------------------------------------------------------------------- undo and redo


class TestBetweenTwoPeople:
    def test_undo_takes_back_one_turn_and_redo_plays_it_again(self):
        history = History(Game.from_record(NOTATION_EXAMPLE))
        assert [str(m) for m in history.undo()] == ["g8"]
        assert history.game.record() == NOTATION_EXAMPLE.rsplit(" ", 1)[0]
        assert history.can_redo()
        assert [str(m) for m in history.redo()] == ["g8"]
        assert history.game.record() == NOTATION_EXAMPLE and not history.can_redo()

    def test_nothing_to_undo_or_redo_in_a_new_game(self):
        history = History(Game())
        assert not history.can_undo() and not history.can_redo()
        assert history.undo() == [] and history.redo() == []

    def test_a_new_move_clears_what_could_be_redone(self):
        history = History(Game.from_record(NOTATION_EXAMPLE))
        history.undo()
        history.undo()
        history.play("g8")
        assert not history.can_redo() and history.redo() == []

    def test_an_illegal_move_leaves_the_redo_stack(self):
        history = History(Game.from_record(NOTATION_EXAMPLE))
        history.undo()
        with pytest.raises(ValueError):
            history.play("e3")  # a ring is there
        assert history.can_redo()

    def test_a_pass_goes_with_the_move_before_it(self):
        game = _blocked(turn=1, extra_black=("e5",))  # only Black's e5 ring can move

        def blocks_white(move) -> bool:
            after = game.copy()
            after.push(move)
            return [m.kind for m in after.legal_moves()] == ["pass"]

        first = next(m for m in game.legal_moves() if blocks_white(m))
        game.play(first)
        game.play("pass")
        second = next(m for m in game.legal_moves() if m.kind == "move")
        game.play(second)
        history = History(game)
        assert history.undo() == [second]
        taken = history.undo()
        assert [m.kind for m in taken] == ["pass", "move"] and taken[1] == first
        assert history.game.moves == () and not history.can_undo()
        assert [m.kind for m in history.redo()] == ["move", "pass"]
        assert history.redo() == [second] and not history.can_redo()


class TestAgainstTheComputer:
    def test_undo_goes_back_to_the_persons_turn_and_redo_returns(self):
        history = History(Game.from_record(NOTATION_EXAMPLE + " 11.h7-g7 12.c6-c2"))
        record = history.game.record()
        taken = history.undo(computers={"black"})
        assert [str(m) for m in taken] == ["c6-c2", "h7-g7"]
        assert history.game.record() == NOTATION_EXAMPLE and history.game.to_move == "white"
        assert [str(m) for m in history.redo(computers={"black"})] == ["h7-g7", "c6-c2"]
        assert history.game.record() == record and history.game.to_move == "white"

    def test_undo_while_the_computer_thinks_takes_back_the_persons_move(self):
        history = History(Game.from_record(NOTATION_EXAMPLE + " 11.h7-g7"))
        assert [str(m) for m in history.undo(computers={"black"})] == ["h7-g7"]
        # the redo stack runs out on the computer's turn: the page lets it think then
        assert [str(m) for m in history.redo(computers={"black"})] == ["h7-g7"]
        assert history.game.to_move == "black" and not history.can_redo()

    def test_only_the_computers_moves_cannot_be_undone(self):
        history = History(Game.from_record("1.e3"))
        assert not history.can_undo(computers={"white"}) and history.undo(computers={"white"}) == []
        assert history.can_undo(computers={"black"}) and history.can_undo()

    def test_two_computers_one_turn_at_a_time(self):
        history = History(Game.from_record(NOTATION_EXAMPLE))
        assert len(history.undo(computers=COLORS)) == 1
        assert len(history.redo(computers=COLORS)) == 1

    def test_undo_after_the_computer_won_returns_to_the_persons_move(self):
        record = BRAVE_COMBO.record()
        game = Game.from_record(record)
        assert game.result == "0-1"
        played = len(game.moves)
        history = History(game)
        history.undo(computers={"black"})
        assert len(game.moves) == played - 2 and game.result is None and game.to_move == "white"
        history.redo(computers={"black"})
        assert history.game.record() == record


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 80),
       computers=st.sampled_from([(), ("white",), ("black",), COLORS]))
def test_undoing_everything_then_redoing_everything_restores_the_game(seed, plies, computers):
    game = random_game(seed, plies)
    record, state = game.record(), game.state
    history = History(game)
    people = set(COLORS) - set(computers)
    while history.can_undo(computers):
        taken = history.undo(computers)
        assert taken
        # a person is to move after an undo, unless computers play both colours
        assert not people or game.to_move in people or not game.moves
    while history.can_redo():
        assert history.redo(computers)
    assert game.record() == record and game.state == state


def test_mover_and_past_positions():
    game = Game.from_record(NOTATION_EXAMPLE)
    assert [mover_of(game, i) for i in range(3)] == ["white", "black", "white"]
    assert state_after(game, 0) == Game().state
    assert state_after(game, 3) == Game.from_record("1.e3 2.a5 3.b5").state
    assert game.record() == NOTATION_EXAMPLE  # looking at the past changes nothing
    with pytest.raises(IndexError):
        state_after(game, 11)
    opened = Game.from_position(Game.from_record("1.e3").position())  # Black to move, at move 2
    opened.play("a5")
    assert mover_of(opened, 0) == "black"


# --------------------------------------------------------------------------- the evaluation graph


def test_the_graph_has_one_point_per_move_and_marks_the_current_one():
    values = [0.0, 0.3, -0.8, 1.5, -100.0, 100.0]
    svg = eval_graph_svg(values, current=4, first_number=11)
    assert svg.count('class="eg-point') == len(values) == len(re.findall(r'<g data-ply="\d+"', svg))
    assert re.findall(r'data-ply="(\d+)"', svg) == [str(i) for i in range(1, 7)]
    assert svg.count("eg-point current") == 1 and "<title>14. White +1.5</title>" in svg
    assert 'class="eg-current"' in svg and 'class="eg-zero"' in svg
    assert "<title>15. Black wins</title>" in svg and "<title>11. even</title>" in svg


def test_the_graph_stays_inside_its_frame_with_white_above():
    svg = eval_graph_svg([1e9, -1e9, 0.0], current=None)
    ys = [float(y) for y in re.findall(r'<circle[^>]* cy="([-\d.]+)"', svg)]
    height = float(re.search(r'viewBox="0 0 [\d.]+ ([\d.]+)"', svg)[1])
    assert all(0 < y < height for y in ys)
    assert ys[0] < ys[2] < ys[1]  # White's advantage above the zero line
    assert "eg-current" not in svg and "current" not in svg.split("eg-zero")[1]


def test_an_empty_or_one_move_graph():
    assert 'class="eg-point' not in eval_graph_svg([])
    assert eval_graph_svg([0.2], current=1).count('class="eg-point current"') == 1


def test_squash_is_monotonic_and_bounded():
    values = [-1000, -100, -3, -1, -0.1, 0, 0.1, 1, 3, 100, 1000]
    squashed = [squash(v) for v in values]
    assert squashed == sorted(squashed) and all(-1 <= s <= 1 for s in squashed)


# --------------------------------------------------------------------------- the worker's values


def test_the_worker_evaluates_every_move_from_whites_point_of_view():
    record = BRAVE_COMBO.record()
    answer = json.loads(worker.evaluate(record))
    values = answer["values"]
    game = Game.from_record(record)
    assert answer["ok"] and len(values) == len(game.moves)
    assert all(abs(v) < 0.1 for v in values[:10])  # placing rings
    assert values[-1] == -100.0  # Black won
    assert all(-100 <= v <= 100 for v in values)
    # the same again, from the worker's memory
    assert json.loads(worker.evaluate(record))["values"] == values


def test_the_worker_evaluates_a_game_opened_from_a_position():
    game = Game.from_position(Game.from_record(NOTATION_EXAMPLE).position())
    game.play("h7-g7")
    values = json.loads(worker.evaluate(game.record()))["values"]
    assert len(values) == 1


def test_the_worker_answers_a_bad_record_with_an_error():
    answer = json.loads(worker.evaluate("1.e3 2.e3"))
    assert answer["ok"] is False and "e3" in answer["error"]
