"""Undo and redo of whole turns and the positions of a game's past (yinsh.page.history)."""

from __future__ import annotations

import doctest
import random

import pytest
from helpers import load
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rules import _blocked

import yinsh.page.graph
import yinsh.page.history
from yinsh.game import COLORS, Game
from yinsh.page.history import History

NOTATION_EXAMPLE = "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8"
BRAVE_COMBO = next(r.game for r in load("games.ygn") if r.tags["Game"] == "Y-BraveCombo-Dumbot-2026-03-20-0237")
"""A real game that Black won (three rings to two) with its last move."""


@pytest.mark.parametrize("module", [yinsh.page.history])
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
    assert [game.mover(i) for i in range(3)] == ["white", "black", "white"]
    assert game.state_at(0) == Game().state
    assert game.state_at(3) == Game.from_record("1.e3 2.a5 3.b5").state
    assert game.record() == NOTATION_EXAMPLE  # looking at the past changes nothing
    with pytest.raises(IndexError):
        game.state_at(11)
    opened = Game.from_position(Game.from_record("1.e3").position())  # Black to move, at move 2
    opened.play("a5")
    assert opened.mover(0) == "black"
