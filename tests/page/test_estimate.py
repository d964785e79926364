"""The quick estimate of the evaluation graph (yinsh.page.estimate): the page's own reading of
who leads, in the engine's unit, until the engine's values come."""

from __future__ import annotations

import doctest
import json

from helpers import load

import yinsh.page.estimate
from yinsh.game import Game
from yinsh.page.estimate import MARKER, THREAT, WON, quick_value, quick_values
from yinsh.state import make_state
from yinsh.web.worker import evaluate

GAMES = load("games.ygn")


def test_doctests():
    failures, tried = doctest.testmod(yinsh.page.estimate)
    assert tried and not failures


def test_rings_rows_and_markers():
    state = make_state(white_rings=["a2", "b2", "c2"], black_rings=["i10", "j10", "k10"],
                       white_markers=["e2", "e3", "e4", "e5"], black_markers=["g4"], score=(1, 0))
    assert quick_value(state) == round(1 + 2 * THREAT + 3 * MARKER, 3)  # e1-e5 and e2-e6 threatened


def test_a_window_with_the_other_colours_marker_is_no_threat():
    state = make_state(white_rings=["a2"], black_rings=["k10"], white_markers=["e2", "e3", "e4", "e5"],
                       black_markers=["e6", "e1"])
    assert quick_value(state) == round(2 * MARKER, 3)


def test_a_finished_game_is_won_as_the_engine_says():
    finished = next(r.game for r in GAMES if r.game.result in ("1-0", "0-1"))
    assert quick_values(finished)[-1] == (WON if finished.result == "1-0" else -WON)


def test_one_value_per_move_and_mostly_on_the_engines_side():
    """The estimate is a sketch of the engine's graph: the same length, the same sign
    wherever the engine sees a lead of half a ring or more."""
    game = next(r.game for r in GAMES if len(r.game.moves) > 40)
    quick = quick_values(game)
    engine = json.loads(evaluate(game.record()))["values"]
    assert len(quick) == len(engine) == len(game.moves)
    clear = [(q, e) for q, e in zip(quick, engine) if abs(e) >= 0.5]
    assert clear and sum((q > 0) == (e > 0) for q, e in clear) >= 0.8 * len(clear)


def test_the_placement_is_even():
    assert quick_values(Game.from_record("1.e3 2.a5 3.b5")) == [0.0, 0.0, 0.0]
