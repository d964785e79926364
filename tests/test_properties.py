"""Invariants over seeded random games (hypothesis picks the seeds)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from yinsh import Game, IllegalMoveError, Move, Removal
from yinsh.ai.features import reach_both
from yinsh.board import ALL_POINTS, BIT, DIRECTIONS, POINTS, WINDOWS, line_step
from yinsh.playout import random_move, random_playout
from yinsh.state import (
    MARKERS,
    apply_move,
    count_legal_moves,
    flips,
    initial_state,
    legal_moves,
    slide_targets,
    slides,
)

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def random_game(seed: int, variant: str = "standard") -> Game:
    rng = random.Random(seed)
    game = Game(variant)  # type: ignore[arg-type]
    while game.result is None:
        game.push(random_move(game.state, rng))
    return game


@given(seeds, st.sampled_from(["standard", "blitz"]))
@settings(max_examples=40, deadline=None)
def test_markers_and_rings_are_conserved(seed, variant):
    game = random_game(seed, variant)
    replay = Game(variant)  # type: ignore[arg-type]
    for move in game.moves:
        replay.push(move)
        s = replay.state
        assert (s.white_markers | s.black_markers).bit_count() + replay.pool == MARKERS
        assert not s.white_markers & s.black_markers
        assert not (s.white_rings | s.black_rings) & (s.white_markers | s.black_markers)
        if not replay.in_placement:
            on_board = (s.white_rings | s.black_rings).bit_count()
            assert on_board + s.white_score + s.black_score == 10


@given(seeds)
@settings(max_examples=15, deadline=None)
def test_every_random_move_is_legal_and_its_text_parses_back(seed):
    rng = random.Random(seed)
    game = Game()
    while game.result is None:
        legal = game.legal_moves()
        assert len(set(legal)) == len(legal)
        move = random_move(game.state, rng)
        assert move in legal
        for other in legal[:: max(1, len(legal) // 8)]:
            assert game.parse_move(str(other)) == other
        game.play(str(move))


@given(seeds)
@settings(max_examples=25, deadline=None)
def test_record_and_position_round_trips_reproduce_the_state(seed):
    game = random_game(seed)
    assert Game.from_record(game.record()).state == game.state
    while game.ply:
        copy = Game.from_position(game.position())
        assert copy.state == game.state and copy.ply == game.ply
        game.undo()


@given(seeds)
@settings(max_examples=25, deadline=None)
def test_undo_after_play_restores_the_state_exactly(seed):
    rng = random.Random(seed)
    game = Game()
    while game.result is None:
        before = (game.state, game.record(), game.legal_moves())
        move = random_move(game.state, rng)
        game.play(move)
        game.undo()
        assert (game.state, game.record(), game.legal_moves()) == before
        game.play(move)


@given(seeds)
@settings(max_examples=25, deadline=None)
def test_the_fast_playout_plays_the_same_game_as_random_moves(seed):
    fast = random_playout(initial_state(), random.Random(seed))
    rng = random.Random(seed)
    s, plies = initial_state(), 0
    while legal_moves(s):
        s = apply_move(s, random_move(s, rng))
        plies += 1
    assert fast == (s, plies)


@given(seeds)
@settings(max_examples=25, deadline=None)
def test_the_fast_forms_of_the_slide_agree_with_the_slide(seed):
    """``slides`` is the rule; its bit-parallel forms (playouts; the AI's count of the ring moves
    and of the flippable markers, for both colours at once) and the counting of legal moves
    without building them must agree with it in every position of a random game, for both
    colours."""
    game = random_game(seed)
    replay = Game()
    for move in game.moves:
        s = replay.state
        rings, markers = s.white_rings | s.black_rings, s.white_markers | s.black_markers
        empty = ALL_POINTS & ~(rings | markers)
        counted = []
        for mine in (s.white_rings, s.black_rings):
            moves = slides(rings, markers, mine)
            by_direction = [0] * len(DIRECTIONS)
            flippable = 0
            for m in moves:
                by_direction[DIRECTIONS.index(line_step(m >> 8, m & 255))] |= BIT[m & 255]
                flippable |= flips(m, markers)
            assert slide_targets(mine, empty, markers) == by_direction
            counted.append((len(moves), flippable))
        # Both colours at once (four lanes of one integer, two of them turned).
        white, black = counted
        assert reach_both(s.white_rings, s.black_rings, markers, empty) == white + black
        assert count_legal_moves(s) == len(legal_moves(s))
        replay.push(move)


def _near_misses(move: Move, rng: random.Random) -> list[Move]:
    """Moves like ``move`` with one thing changed: another point, a removal dropped or doubled,
    a removal's ring or row swapped, another kind."""
    points = list(POINTS)
    out = [Move(kind, move.source, move.target, move.before, move.after)
           for kind in ("place", "move", "pass", "remove") if kind != move.kind]
    if move.target is not None:
        out.append(move._replace(target=rng.choice(points)))
    if move.source is not None:
        out.append(move._replace(source=rng.choice(points)))
    for side in ("before", "after"):
        removals = getattr(move, side)
        if removals:
            out.append(move._replace(**{side: removals[:-1]}))
            out.append(move._replace(**{side: removals + removals[-1:]}))
            last = removals[-1]
            out.append(move._replace(**{side: removals[:-1] + (Removal(last.row, rng.choice(points)),)}))
            out.append(move._replace(**{side: removals[:-1] + (Removal(rng.randrange(len(WINDOWS)), last.ring),)}))
        else:
            out.append(move._replace(**{side: (Removal(rng.randrange(len(WINDOWS)), rng.choice(points)),)}))
    return out


@given(seeds)
@settings(max_examples=40, deadline=None)
def test_a_move_value_is_played_exactly_when_it_is_legal(seed):
    """``Game.play`` checks a ``Move`` by the rules' checks, not by searching the legal moves:
    both must agree on every legal move and on moves one change away from one."""
    rng = random.Random(seed)
    game = Game()
    while game.result is None and game.ply < 120:
        legal = game.legal_moves()
        for candidate in [rng.choice(legal)] + _near_misses(rng.choice(legal), rng):
            trial = game.copy()
            try:
                trial.play(candidate)
                accepted = True
            except IllegalMoveError:
                accepted = False
            assert accepted == (candidate in legal), (game.record(), str(candidate))
        game.push(rng.choice(legal))
