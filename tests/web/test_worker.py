"""The computer player's worker (yinsh.web.worker) under CPython: its text-in, text-out boundary,
the move it plays and the evaluation graph it computes."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest
from helpers import load

import yinsh.web.worker as worker
from yinsh.bench import midgame_positions
from yinsh.game import Game

ROOT = Path(__file__).resolve().parents[2]
NOTATION_EXAMPLE = "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8"


def test_doctests():
    """pytest's doctest run skips yinsh/web (its glue needs a browser); the worker needs none."""
    failures, tried = doctest.testmod(worker, optionflags=doctest.ELLIPSIS)
    assert tried and not failures


def test_game_from_text_reads_records_and_positions():
    game = Game.from_record(NOTATION_EXAMPLE)
    assert worker.game_from_text(NOTATION_EXAMPLE).state == game.state
    assert worker.game_from_text(" " + game.position() + "\n").state == game.state
    assert worker.game_from_text("").ply == 0  # an empty record is a new game


def test_worker_hello():
    assert json.loads(worker.hello())["ok"] is True
    assert set(worker.__export__) == {"hello", "think", "bench", "evaluate"}


@pytest.mark.parametrize("level", [1, 2])
def test_worker_plays_a_legal_move_from_a_position_code(level):
    for state in midgame_positions(4, seed=11):
        game = Game.from_state(state, 30)
        answer = json.loads(worker.think(game.position(), level, 3))
        assert answer["ok"] and answer["ply"] == 30
        assert game.parse_move(answer["move"]) in game.legal_moves()
        assert answer["seconds"] >= 0 and answer["depth"] >= 0


@pytest.mark.parametrize("game, level", [("nonsense", 1), (NOTATION_EXAMPLE, 9), ("Y1AAAAA", 1),
                                         (NOTATION_EXAMPLE, "x")])
def test_worker_failures_are_answers_not_exceptions(game, level):
    answer = json.loads(worker.think(game, level))
    assert answer["ok"] is False and answer["error"] and "Traceback" not in answer["error"]


def test_worker_refuses_a_finished_game():
    from yinsh.record import read_records

    finished = next(r.game for r in read_records((ROOT / "tests" / "data" / "games.ygn").read_text(encoding="utf-8"))
                    if r.game.result is not None)
    assert json.loads(worker.think(finished.position(), 1)) == {"ok": False, "error": "the game is over"}


def test_worker_bench():
    codes = "\n".join(Game.from_state(s, 30).position() for s in midgame_positions(3, seed=5))
    answer = json.loads(worker.bench(codes, 1))
    assert answer["ok"] and len(answer["seconds"]) == len(answer["moves"]) == 3
    assert json.loads(worker.bench("garbage", 1))["ok"] is False


BRAVE_COMBO = next(r.game for r in load("games.ygn") if r.tags["Game"] == "Y-BraveCombo-Dumbot-2026-03-20-0237")
"""A real game that Black won (three rings to two) with its last move."""


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
