"""Perft golden counts of the official notation example."""

import pytest

from yinsh import Game
from yinsh.bench import NOTATION_EXAMPLE
from yinsh.perft import divide, perft


@pytest.fixture(scope="module")
def example():
    return Game.from_record(NOTATION_EXAMPLE)


@pytest.mark.parametrize("depth, count", [(1, 86), (2, 6258), (3, 486978)])
def test_perft_of_the_notation_example(example, depth, count):
    assert perft(example.state, depth) == count


def test_divide_sums_to_perft_and_lists_each_first_move(example):
    split = divide(example.state, 2)
    assert len(split) == 86 and sum(n for _, n in split) == 6258
    counts = {str(m): n for m, n in split}
    assert "h7-g7" in counts


def test_per_ring_moves_of_the_notation_example(example):
    by_ring: dict[str, int] = {}
    for move in example.legal_moves():
        ring = str(move).split("-")[0]
        by_ring[ring] = by_ring.get(ring, 0) + 1
    assert by_ring == {"e3": 15, "b5": 15, "d6": 22, "h7": 22, "g3": 12}


def test_black_would_have_74_moves(example):
    black = Game.from_state(example.state._replace(turn=1))
    assert len(black.legal_moves()) == 74
