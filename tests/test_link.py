"""Game codes for share links: round trips, history, and refusal of damaged codes."""

from __future__ import annotations

import random

import pytest
from helpers import load
from hypothesis import given, settings
from hypothesis import strategies as st

from yinsh import Game, IllegalMoveError, NotationError
from yinsh.link import decode_game, encode_game
from yinsh.playout import random_move


@pytest.mark.parametrize("record", load("games.ygn"), ids=lambda r: r.tags["Game"])
def test_real_games_round_trip_with_their_history(record):
    code = encode_game(record.game)
    assert len(code) < 4 * len(record.game.moves) + 20  # about 3 characters a move
    assert decode_game(code).record() == record.game.record()


@given(st.integers(0, 2**32 - 1), st.sampled_from(["standard", "blitz"]))
@settings(max_examples=30, deadline=None)
def test_random_games_round_trip(seed, variant):
    rng = random.Random(seed)
    game = Game(variant)
    while game.result is None:
        game.push(random_move(game.state, rng))
    back = decode_game(encode_game(game))
    assert back.moves == game.moves and back.state == game.state and back.variant == variant


def test_a_game_from_a_position_keeps_its_start():
    game = Game.from_position(Game.from_record("1.e3 2.a5 3.b5").position())
    game.play("c6")
    back = decode_game(encode_game(game))
    assert back.record() == game.record() and back.ply == 4


def test_damaged_codes_are_refused():
    code = encode_game(load("games.ygn")[1].game)
    for cut in range(0, len(code) - 1, 7):
        with pytest.raises((NotationError, IllegalMoveError)):
            decode_game(code[:cut])


@given(st.text(alphabet="G1ABCabc-_.xyz019", max_size=40))
@settings(max_examples=300, deadline=None)
def test_fuzzed_codes_give_only_the_two_errors(text):
    try:
        decode_game(text)
    except (NotationError, IllegalMoveError):
        pass
