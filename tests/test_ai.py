"""The computer opponent: legal moves at every level, tactics it must not miss, the
search's internals against the rules core, the baseline and the match runner.

Searches here are capped by depth (no deadline), so every result is deterministic.
"""

from __future__ import annotations

import os
import random

import pytest
from helpers import game_at

from yinsh import Game, Move
from yinsh.__main__ import main
from yinsh.ai import LEVELS, WIN, best_move, evaluate, search, think
from yinsh.ai.baseline import baseline_move, heuristic, reached
from yinsh.ai.bench import percentile, think_times
from yinsh.ai.evaluation import node_of
from yinsh.ai.features import completion_points, fours, reach_both
from yinsh.ai.match import games_of, opening, run_match, summary, wilson, workers
from yinsh.ai.negamax import PASS, Searcher
from yinsh.board import ALL_POINTS, BETWEEN, BIT, POINTS, WINDOWS, parse_point
from yinsh.playout import random_positions
from yinsh.state import (
    BLACK,
    WHITE,
    State,
    after_ring_move,
    apply_move,
    end_turn,
    has_row,
    legal_moves,
    make_state,
    result,
    ring_moves,
    termination,
)

LEVEL_NUMBERS = sorted(LEVELS)


def wins_now(s: State) -> list[Move]:
    """The moves of the player to move that win the game at once."""
    want = "0-1" if s.turn else "1-0"
    return [m for m in legal_moves(s) if result(apply_move(s, m)) == want]


def ring_move(source: str, target: str) -> Move:
    return Move("move", parse_point(source), parse_point(target))


# White has removed two rings; its ring on g7 ends the diagonal c3-d4-e5-f6: any move of it
# leaves a marker on g7 and completes White's third row.
WIN_IN_ONE = dict(white_rings=["g7", "a2", "k10"], black_rings=["e8", "b6", "h4", "i9", "c7"],
                  white_markers=["c3", "d4", "e5", "f6"], black_markers=["f3", "g4"], score=(2, 0))
# The same with Black to move and a black ring on e4 that can flip e5 (e4-e6), among other defences.
MUST_BLOCK = dict(WIN_IN_ONE, black_rings=["e4", "b6", "h4", "i9", "c7"])


class TestLegalMoves:
    @pytest.mark.parametrize("level", LEVEL_NUMBERS)
    def test_every_level_returns_a_legal_move_from_random_positions(self, level):
        for s in random_positions(12, seed=level, min_plies=0, max_plies=70):
            move = best_move(s, level, depth=min(level, 2), seed=3)
            assert move in legal_moves(s), f"level {level} chose {move} at {Game.from_state(s).position()}"

    def test_a_tiny_time_budget_still_gives_a_legal_move(self):
        for s in random_positions(5, seed=11, min_plies=20):
            assert best_move(s, 5, seconds=0.001) in legal_moves(s)

    def test_it_takes_a_game_as_well_as_a_state(self):
        game = Game.from_record("1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8")
        move = best_move(game, 3, depth=2)
        assert game.play(move) == move

    def test_placement_places_every_ring_on_an_empty_point(self):
        game = Game()
        for _ in range(10):
            move = best_move(game, 3)
            assert move.kind == "place"
            game.play(move)
        assert not game.in_placement

    def test_a_finished_game_has_no_move(self):
        with pytest.raises(ValueError, match="over"):
            best_move(make_state(["a2"], ["k10"], ["e5"], score=(3, 0)))

    def test_an_unknown_level_is_refused(self):
        with pytest.raises(ValueError, match="level"):
            best_move(Game(), 6)


class TestTactics:
    @pytest.mark.parametrize("level", LEVEL_NUMBERS)
    def test_it_completes_its_third_row_when_it_can(self, level):
        s = make_state(**WIN_IN_ONE, turn=WHITE)
        move = best_move(s, level, depth=2)
        assert result(apply_move(s, move)) == "1-0", f"level {level} played {move}"

    @pytest.mark.parametrize("level", LEVEL_NUMBERS)
    def test_it_blocks_a_row_that_would_win_next_turn(self, level):
        s = make_state(**MUST_BLOCK, turn=BLACK)
        assert wins_now(apply_move(s, ring_move("h4", "h5"))), "a careless move loses"
        move = best_move(s, level, depth=2)
        assert not wins_now(apply_move(s, move)), f"level {level} played {move} and lets White win"

    def test_level_1_blocks_at_its_own_depth(self):
        s = make_state(**MUST_BLOCK, turn=BLACK)
        assert not wins_now(apply_move(s, best_move(s, 1, seconds=10)))

    def test_it_removes_rows_the_opponent_made_for_it_first(self):
        # Black's c2-c6 was completed by White's last move: Black resolves it, then moves.
        game = game_at(["a2", "k10", "j11"], ["e8", "b6", "h4", "i9", "g7"],
                       ["e5", "f6"], ["c2", "c3", "c4", "c5", "c6"], turn=BLACK)
        move = best_move(game, 3, depth=2)
        assert move.before and move.kind == "move"
        assert game.play(move) == move

    def test_a_pending_row_that_wins_is_the_whole_turn(self):
        game = game_at(["a2", "k10", "j11"], ["e8", "b6", "h4"],
                       ["e5", "f6"], ["c2", "c3", "c4", "c5", "c6"], turn=BLACK, score=(0, 2))
        move = best_move(game, 3, depth=2)
        assert move.kind == "remove"
        game.play(move)
        assert game.result == "0-1"

    def test_it_passes_when_no_ring_can_move(self):
        # Black's only ring, in the corner a2, is walled in by markers up to the edge.
        white = ["a3", "a5", "b2", "d2", "f2", "c4", "e6", "g8", "i10"]
        black = ["a4", "c2", "e2", "g2", "b3", "d5", "f7", "h9", "j11"]
        s = make_state(["e8", "f9", "h5"], ["a2"], white, black, turn=BLACK)
        assert legal_moves(s) == [Move("pass")]
        assert best_move(s, 4, depth=2) == Move("pass")

    def test_a_forced_win_is_reported_as_one(self):
        s = make_state(**WIN_IN_ONE, turn=WHITE)
        depth, value, move = list(search(s, max_depth=3))[-1]
        assert value > WIN - 10 and result(apply_move(s, move)) == "1-0"

    def test_blitz_takes_the_first_row(self):
        s = make_state(["g7", "a2"], ["e8", "b6"], ["c3", "d4", "e5", "f6"], turn=WHITE, rings_to_win=1)
        assert result(apply_move(s, best_move(s, 2, depth=1))) == "1-0"


class TestTerminalScores:
    def test_an_empty_pool_ends_the_game_on_rings(self):
        s = full_board(score=(1, 0))
        assert termination(s) == "markers"
        assert Searcher().terminal(node_of(s), 0) == WIN
        assert evaluate(s) == pytest.approx(100, abs=0.01)

    def test_an_empty_pool_with_equal_rings_is_a_draw(self):
        s = full_board(score=(1, 1))
        assert Searcher().terminal(node_of(s), 0) == 0

    def test_the_search_sees_the_pool_run_out(self):
        # One marker left and rings level: White, ahead on rings, is content to end the game.
        s = full_board(score=(1, 0))
        last = s.white_markers & -s.white_markers
        s = s._replace(white_markers=s.white_markers ^ last)
        assert termination(s) is None
        depth, value, move = list(search(s, max_depth=2))[-1]
        if termination(apply_move(s, move)) == "markers":
            assert value == WIN - 1

    def test_two_passes_end_the_game(self):
        s = make_state(["e5"], ["f6"], ["e6"], turn=WHITE, score=(0, 1), passes=2)
        assert Searcher().terminal(node_of(s), 0) == -WIN

    def test_a_won_game_is_worth_a_hundred_rings(self):
        s = make_state(["e5"], ["f6"], ["e6"], turn=BLACK, score=(3, 1))
        assert evaluate(s) == pytest.approx(-100, abs=0.01)


def full_board(score: tuple[int, int]) -> State:
    """51 markers and no row of five for either colour, White to move."""
    rings_w, rings_b = ["a2", "b1", "k10"], ["k7", "j11", "a5"]
    taken = {parse_point(n) for n in rings_w + rings_b}
    free = [p for p in POINTS if p not in taken]
    rng = random.Random(7)
    while True:
        chosen = rng.sample(free, 51)
        white = sum(BIT[p] for p in chosen[:26])
        black = sum(BIT[p] for p in chosen[26:])
        if not has_row(white) and not has_row(black):
            break
    s = make_state(rings_w, rings_b, ["e5"], score=score, turn=WHITE)
    return s._replace(white_markers=white, black_markers=black)


class TestDeterminism:
    @pytest.mark.parametrize("level", LEVEL_NUMBERS)
    def test_same_seed_same_move(self, level):
        for s in random_positions(3, seed=40 + level, min_plies=25):
            assert best_move(s, level, depth=2, seed=9) == best_move(s, level, depth=2, seed=9)

    def test_think_reports_what_it_did(self):
        s = random_positions(1, seed=5, min_plies=30)[0]
        move, info = think(s, 4, depth=2)
        assert info["depth"] == 2 and info["nodes"] > 0 and move in legal_moves(s)

    def test_search_yields_deeper_and_deeper(self):
        s = random_positions(1, seed=6, min_plies=30)[0]
        steps = list(search(s, max_depth=3))
        assert [d for d, _, _ in steps] == [0, 1, 2, 3]
        assert all(m in legal_moves(s) for _, _, m in steps)


class TestSearchInternals:
    """The search's own move generation and turn application agree with the rules core."""

    def test_moves_and_play_agree_with_the_rules(self):
        searcher = Searcher()
        for s in random_positions(40, seed=21, min_plies=12):
            if has_row(s.black_markers if s.turn else s.white_markers):
                continue
            node = node_of(s)
            encoded = searcher.moves(node)
            assert sorted((m >> 8, m & 255) for m in encoded) == sorted(ring_moves(s))
            for m in encoded:
                after = after_ring_move(s, m >> 8, m & 255)
                child, won = searcher.play(node, m)
                if not has_row(after.black_markers if s.turn else after.white_markers):
                    assert child == node_of(end_turn(after, False)) and not won
                else:  # the search chose some removals: the result must be one of the legal ones
                    legal = {node_of(apply_move(s, mv)) for mv in legal_moves(s)
                             if (mv.source, mv.target) == (m >> 8, m & 255)}
                    assert won or child in legal

    def test_a_pass_is_a_move_of_its_own(self):
        node = node_of(make_state(["e5"], ["f6"], ["e6"], turn=WHITE))
        child, won = Searcher().play(node, PASS)
        assert child[4] == BLACK and child[7] == 1 and not won


class TestFeatures:
    def test_reach_counts_the_ring_moves_and_the_flippable_markers(self):
        for s in random_positions(30, seed=31, min_plies=15):
            markers = s.white_markers | s.black_markers
            empty = ALL_POINTS & ~(markers | s.white_rings | s.black_rings)
            mine, theirs = (s.black_rings, s.white_rings) if s.turn else (s.white_rings, s.black_rings)
            count, flippable, their_count, their_flippable = reach_both(mine, theirs, markers, empty)
            moves = ring_moves(s)
            assert count == len(moves)
            expected = 0
            for a, b in moves:
                expected |= BETWEEN[a << 8 | b] & markers
            assert flippable == expected
            assert (their_count, their_flippable) == reach_both(theirs, 0, markers, empty)[:2]
            assert reached(mine, empty, markers) == sum(BIT[d] for d in {d for _, d in moves})

    def test_completion_points_are_the_missing_points_of_fours(self):
        for s in random_positions(30, seed=32, min_plies=30):
            for markers in (s.white_markers, s.black_markers):
                if has_row(markers):
                    continue
                missing, count = 0, 0
                for window in WINDOWS:
                    held = [p for p in window if markers & BIT[p]]
                    if len(held) == 4:
                        count += 1
                        missing |= sum(BIT[p] for p in window if p not in held)
                assert completion_points(markers) == missing
                assert fours(markers) == count

    def test_remembered_completion_points_agree_and_stay_bounded(self):
        import yinsh.ai.features as features

        features.COMPLETIONS.clear()
        states = random_positions(30, seed=33, min_plies=30)
        for _ in range(2):  # the second pass is answered from the table
            for s in states:
                for markers in (s.white_markers, s.black_markers):
                    if not has_row(markers):
                        assert completion_points(markers) == features._completion_points(markers)
        assert features.COMPLETIONS
        rng = random.Random(34)
        for _ in range(features._COMPLETIONS_KEPT + 10):
            completion_points(rng.getrandbits(ALL_POINTS.bit_length()) & ALL_POINTS)
        assert len(features.COMPLETIONS) <= features._COMPLETIONS_KEPT

    def test_evaluation_is_for_the_player_to_move(self):
        s = make_state(["e5", "a2"], ["f6", "k10"], ["e6", "e7", "c3"], ["g7"], turn=WHITE)
        assert evaluate(s) > 0 > evaluate(s._replace(turn=BLACK)) - 0.5


class TestBaseline:
    def test_baseline_moves_are_legal(self):
        for s in random_positions(6, seed=51, min_plies=5, max_plies=60):
            assert baseline_move(s, 1) in legal_moves(s)
        for s in random_positions(2, seed=52, min_plies=20, max_plies=60):
            assert baseline_move(s, 2) in legal_moves(s)

    def test_baseline_takes_a_win(self):
        s = make_state(**WIN_IN_ONE, turn=WHITE)
        assert result(apply_move(s, baseline_move(s, 1))) == "1-0"

    def test_baseline_heuristic_counts_rings_markers_flips_and_reach(self):
        # White: e5 reaches 26 points; e6 would be flipped by nothing. Black: a ring on k10.
        s = make_state(["e5"], ["k10"], [], [], turn=WHITE, score=(1, 0))
        black_reach = reached(BIT[parse_point("k10")], ALL_POINTS & ~(s.white_rings | s.black_rings), 0)
        assert heuristic(s) == 10000 + 26 - black_reach.bit_count()


class TestMatch:
    def test_pairs_share_their_opening_and_swap_colours(self):
        specs = list(games_of("ai-1", "random", 4, seed=3, seconds=None))
        assert [(n, w, b) for n, w, b, *_ in specs] == [
            (1, "ai-1", "random"), (2, "random", "ai-1"), (3, "ai-1", "random"), (4, "random", "ai-1")]
        assert specs[0][3] == specs[1][3] == opening(3, 0) != specs[2][3]
        assert not opening(3, 0).in_placement

    def test_a_short_match_runs_and_sums_up(self):
        games = run_match("ai-1", "random", games=2, seed=1)
        assert len(games) == 2 and all(g.result in ("1-0", "0-1", "1/2-1/2") for g in games)
        text = summary("ai-1", games)
        assert "ai-1:" in text and "games" in text and "%" in text

    def test_workers_are_no_more_than_jobs_games_or_cpus(self):
        cpus = os.cpu_count() or 1
        assert workers(64, 2) == min(2, cpus) and workers(1, 10 ** 12) == 1
        assert workers(10 ** 6, 10 ** 12) == cpus and workers(3, 1) == min(2, cpus)  # 1 game: a pair

    @pytest.mark.parametrize("jobs", [1, 2])
    def test_a_match_of_any_length_starts_playing_at_once(self, jobs):
        """Issue 23: every opening of the match was drawn before the first game, so ``--games
        1000000000`` never started."""
        class Enough(Exception):
            pass

        seen = []

        def report(game):
            seen.append(game.number)
            if len(seen) == 3:
                raise Enough

        with pytest.raises(Enough):
            run_match("random", "random", games=10 ** 12, seed=2, jobs=jobs, report=report)
        assert seen == [1, 2, 3]

    def test_many_jobs_for_two_games_play_them_in_order(self):
        games = run_match("random", "random", games=2, seed=5, jobs=64)
        assert [g.number for g in games] == [1, 2]
        alone = run_match("random", "random", games=2, seed=5)
        assert [g._replace(seconds=None) for g in games] == [g._replace(seconds=None) for g in alone]

    def test_the_command_line_plays_a_match(self, capsys):
        assert main(["match", "--white", "random", "--black", "random", "--games", "2", "--seed", "4"]) == 0
        out = capsys.readouterr().out
        assert out.count("game ") >= 2 and "random:" in out

    def test_an_unknown_player_is_named(self, capsys):
        assert main(["match", "--white", "ai-9", "--black", "random", "--games", "2"]) != 0
        assert "ai-9" in capsys.readouterr().err

    def test_wilson_interval(self):
        low, high = wilson(0.5, 40)
        assert 0.34 < low < 0.5 < high < 0.66
        assert wilson(1.0, 10)[1] == 1.0


class TestBench:
    def test_think_times_are_figures(self):
        positions = random_positions(3, seed=61, min_plies=25)
        figures = think_times(1, positions)
        assert 0 <= figures["p50"] <= figures["p95"] <= figures["max"]

    def test_percentile_is_nearest_rank(self):
        assert percentile([3, 1, 2, 4], 0.5) == 2 and percentile(list(range(1, 101)), 0.95) == 95
