"""The turn builder: a whole move made one click at a time, exactly as the rules allow."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yinsh.board import POINTS, WINDOWS, parse_point, point_name, points_of
from yinsh.errors import IllegalMoveError
from yinsh.game import Game
from yinsh.move import Move, parse_row, row_name
from yinsh.page.words import prompt
from yinsh.record import read_records
from yinsh.state import WHITE, after_ring_move, make_state
from yinsh.turn import Decision, Phase, Turn, decisions_of, result_text

DATA = Path(__file__).resolve().parent / "data"
GAMES = {r.tags["Game"]: r for r in read_records((DATA / "games.ygn").read_text(encoding="utf-8"))}
SCENARIOS = {r.tags["Scenario"]: r for r in read_records((DATA / "scenarios.ygn").read_text(encoding="utf-8"))}
BRAVE_COMBO = "Y-BraveCombo-Dumbot-2026-03-20-0237"


def P(name: str) -> int:
    return parse_point(name)


def R(text: str) -> int:
    first, last = text.split("-")
    return parse_row(first, last)


def click_through(turn: Turn, move: Move) -> None:
    """Make ``move`` with the clicks a person would make, checking each is offered."""
    for decision in decisions_of(move):
        if decision.kind == "pass":
            continue  # passes are automatic
        if decision.kind == "row":
            assert decision.value in turn.candidate_rows, (turn, row_name(decision.value))
            assert turn.click_row(decision.value) is None
        else:
            assert decision.value in turn.clickable_points, (turn, point_name(decision.value))
            assert turn.click_point(decision.value) is None
    assert turn.phase is Phase.DONE, turn
    assert turn.move == move


def replay_by_clicks(game: Game, moves: list[Move]) -> Game:
    for move in moves:
        turn = Turn(game)
        click_through(turn, move)
        game.play(turn.move)
    return game


# --------------------------------------------------------------------------- real games


class TestRecordedGames:
    @pytest.mark.parametrize("name", sorted(GAMES))
    def test_every_recorded_game_can_be_clicked_through(self, name):
        record = GAMES[name]
        game = replay_by_clicks(Game(), list(record.game.moves))
        assert game.record() == record.game.record()
        assert game.result == record.game.result

    def test_brave_combo_dumbot_decision_by_decision(self):
        """The game with an overline and a diagonal row, checked at every step."""
        record = GAMES[BRAVE_COMBO].game
        game = Game()
        for number, move in enumerate(record.moves, start=1):
            turn = Turn(game)
            expected_phase = Phase.PLACE_RING if number <= 10 else Phase.PICK_RING
            assert turn.phase is expected_phase, (number, turn)
            click_through(turn, move)
            game.play(turn.move)
        assert game.result == "0-1" and game.termination == "rings"
        assert result_text(game) == "Black wins: three rings removed (3 to 2)"

    def test_brave_combo_overline_offers_every_window(self):
        """Move 58 (f5-f9) makes the run f3-f8 of six: both its windows are offered."""
        record = GAMES[BRAVE_COMBO].game
        game = Game()
        for move in record.moves[:57]:
            game.play(move)
        turn = Turn(game)
        turn.click_point(P("f5"))
        turn.click_point(P("f9"))
        assert turn.phase is Phase.REMOVE_ROW
        assert [row_name(w) for w in turn.candidate_rows] == ["f3-f7", "f4-f8"]
        assert prompt(turn) == "Black: choose a row to remove"
        assert turn.rows_pending_for == "own"
        assert turn.click_row(R("f4-f8")) is None
        assert turn.phase is Phase.REMOVE_RING
        assert prompt(turn) == "Black: choose one of your rings to remove"
        assert turn.removable_rings == frozenset(points_of(turn.state.black_rings))
        assert P("f9") in turn.removable_rings  # the ring that made the row may go too
        # the other window stays clickable: choosing it switches the row
        assert turn.click_row(R("f3-f7")) is None and turn.selected_row == R("f3-f7")
        assert turn.click_row(R("f4-f8")) is None and turn.selected_row == R("f4-f8")
        assert turn.click_point(P("c7")) is None
        assert str(turn.move) == "f5-f9;xf4-f8xc7"

    def test_diagonal_row(self):
        """Move 61 (d6-d8) makes the diagonal a4-e8."""
        record = GAMES[BRAVE_COMBO].game
        game = Game()
        for move in record.moves[:60]:
            game.play(move)
        turn = Turn(game)
        turn.click_point(P("d6"))
        turn.click_point(P("d8"))
        # a single candidate is chosen for the player, but still shown
        assert turn.phase is Phase.REMOVE_RING
        assert turn.candidate_rows == (R("a4-e8"),) and turn.selected_row == R("a4-e8")
        assert turn.cancel() is False  # an automatic choice cannot be taken back
        turn.click_point(P("b1"))
        assert str(turn.move) == "d6-d8;xa4-e8xb1"


class TestScenarios:
    def test_out_of_markers_game(self):
        record = SCENARIOS["out of markers"].game
        game = replay_by_clicks(Game(), list(record.moves))
        assert game.record() == record.record()
        assert (game.result, game.termination) == ("0-1", "markers")
        assert Turn(game).phase is Phase.GAME_OVER
        assert result_text(game) == "Black wins: the markers ran out, Black removed 1 ring to 0"

    def test_overline_of_six(self):
        game = SCENARIOS["overline of six"].game
        turn = Turn(game)
        turn.click_point(P("e3"))
        turn.click_point(P("f3"))
        assert [row_name(w) for w in turn.candidate_rows] == ["e2-e6", "e3-e7"]
        # clicking a marker shared by both windows asks for the row itself
        assert "Several rows" in turn.click_point(P("e4"))
        # a marker in only one window chooses that window
        assert turn.click_point(P("e2")) is None and turn.selected_row == R("e2-e6")

    def test_single_row(self):
        game = SCENARIOS["single row"].game
        turn = Turn(game)
        turn.click_point(P("e3"))
        turn.click_point(P("f3"))
        assert turn.phase is Phase.REMOVE_RING and turn.selected_row == R("e3-e7")
        assert turn.removable_rings == frozenset(map(P, ["f7", "f6", "f5", "f4", "f3"]))
        assert turn.click_point(P("f7")) is None
        assert str(turn.move) == "e3-f3;xe3-e7xf7"


# --------------------------------------------------------------------------- built positions


def both_rows_state(white_score=0, black_score=0):
    """White's ring d1-d7 flips d3 (completing black b3-f3) and d5 (completing white b5-f5)."""
    return make_state(
        white_rings=["d1", "h8", "k8", "i4"][: 5 - white_score],
        black_rings=["a2", "j6", "g11", "h11"][: 5 - black_score],
        white_markers=["b5", "c5", "e5", "f5", "d2", "d3", "d6"],
        black_markers=["b3", "c3", "e3", "f3", "d4", "d5"],
        turn=WHITE,
        score=(white_score, black_score),
    )


class TestRowsOfBothPlayers:
    def test_mover_resolves_first_then_the_opponent_before_moving(self):
        game = Game.from_state(both_rows_state(), 40)
        turn = Turn(game)
        assert turn.click_point(P("d1")) is None
        assert P("d7") in turn.destinations
        assert turn.click_point(P("d7")) is None
        # White's own row comes first (auto-chosen: it is the only one)
        assert turn.phase is Phase.REMOVE_RING and row_name(turn.selected_row) == "b5-f5"
        assert turn.rows_pending_for == "own"
        assert turn.click_point(P("h8")) is None
        assert str(turn.move) == "d1-d7;xb5-f5xh8"
        game.play(turn.move)
        assert game.pending_rows() == ["b3-f3"]
        black = Turn(game)
        assert prompt(black) == "Black: choose one of your rings to remove"
        assert black.rows_pending_for == "opponent"
        assert black.candidate_rows == (R("b3-f3"),)
        assert black.click_point(P("j6")) is None
        assert black.phase is Phase.PICK_RING  # then Black moves
        assert prompt(black) == "Black: choose a ring to move"
        assert black.removals == ((R("b3-f3"), P("j6")),)

    def test_without_auto_row_every_row_is_clicked(self):
        game = Game.from_state(both_rows_state(), 40)
        turn = Turn(game, auto_row=False)
        turn.click_point(P("d1"))
        turn.click_point(P("d7"))
        assert turn.phase is Phase.REMOVE_ROW and turn.candidate_rows == (R("b5-f5"),)
        assert prompt(turn) == "White: choose a row to remove"
        turn.click_row(R("b5-f5"))
        assert turn.cancel() and turn.phase is Phase.REMOVE_ROW

    def test_completing_the_opponents_third_row_ends_the_game_for_them(self):
        game = Game.from_state(both_rows_state(black_score=2), 40)
        game.play("d1-d7;xb5-f5xh8")
        turn = Turn(game)
        assert turn.phase is Phase.REMOVE_RING
        assert turn.click_point(P("a2")) is None
        assert turn.phase is Phase.DONE and turn.move.kind == "remove"
        assert str(turn.move) == "xb3-f3xa2"
        game.play(turn.move)
        assert game.result == "0-1"
        assert result_text(game) == "Black wins: three rings removed (3 to 1)"

    def test_the_movers_winning_removal_ends_the_game_before_the_opponents_rows(self):
        game = Game.from_state(both_rows_state(white_score=2, black_score=2), 40)
        turn = Turn(game)
        turn.click_point(P("d1"))
        turn.click_point(P("d7"))
        turn.click_point(P("d7"))  # the ring that just moved may be removed
        assert str(turn.move) == "d1-d7;xb5-f5xd7"
        game.play(turn.move)
        assert game.result == "1-0" and Turn(game).phase is Phase.GAME_OVER

    def test_interim_state_shows_the_move_and_removals(self):
        s = both_rows_state()
        game = Game.from_state(s, 40)
        turn = Turn(game)
        turn.click_point(P("d1"))
        assert turn.state == s  # picking a ring changes nothing yet
        turn.click_point(P("d7"))
        moved = after_ring_move(s, P("d1"), P("d7"))
        assert turn.state == moved and turn.ring_move == (P("d1"), P("d7"))
        turn.click_point(P("h8"))
        assert turn.state.white_score == 1 and not turn.state.white_rings & (1 << P("h8"))


class TestSeveralRows:
    def test_intersecting_rows_rescan_after_each_removal(self):
        # e3-e7 and c5-g5 share e5: removing one breaks the other
        s = make_state(
            white_rings=["a2", "k8", "h10"], black_rings=["a5", "k10", "j11"],
            white_markers=["e3", "e4", "e5", "e6", "e7", "c5", "d5", "f5", "g5"],
            turn=WHITE,
        )
        turn = Turn(Game.from_state(s, 30))
        assert turn.phase is Phase.REMOVE_ROW
        assert [row_name(w) for w in turn.candidate_rows] == ["c5-g5", "e3-e7"]
        assert turn.click_point(P("e5")) is not None  # shared point: ambiguous
        turn.click_row(R("e3-e7"))
        turn.click_point(P("a2"))
        assert turn.phase is Phase.PICK_RING  # c5-g5 is broken: nothing more to remove
        assert set(turn.movable_rings) <= {P("k8"), P("h10")}

    def test_two_separate_rows_one_at_a_time(self):
        s = make_state(
            white_rings=["a2", "k8", "h10"], black_rings=["a5", "k10", "j11"],
            white_markers=["e2", "e3", "e4", "e5", "e6", "g3", "g4", "g5", "g6", "g7"],
            turn=WHITE,
        )
        turn = Turn(Game.from_state(s, 30))
        assert [row_name(w) for w in turn.candidate_rows] == ["e2-e6", "g3-g7"]
        turn.click_row(R("g3-g7"))
        assert turn.cancel() and turn.phase is Phase.REMOVE_ROW  # a chosen row may be changed
        turn.click_row(R("g3-g7"))
        turn.click_point(P("k8"))
        # the remaining row is the only one: chosen for the player, rings asked for
        assert turn.phase is Phase.REMOVE_RING and turn.selected_row == R("e2-e6")
        assert turn.removable_rings == {P("a2"), P("h10")}
        turn.click_point(P("h10"))
        assert turn.phase is Phase.PICK_RING and turn.movable_rings == {P("a2")}
        assert turn.removals == ((R("g3-g7"), P("k8")), (R("e2-e6"), P("h10")))
        turn.click_point(P("a2"))
        turn.click_point(P("a3"))
        assert str(turn.move) == "xg3-g7xk8xe2-e6xh10;a2-a3"


class TestPass:
    def test_a_player_with_no_ring_move_passes_automatically(self):
        # White's only ring, a2, is hemmed in by black rings
        s = make_state(white_rings=["a2"], black_rings=["a3", "b2", "b3"], white_markers=["k10"], turn=WHITE,
                       score=(0, 0))
        game = Game.from_state(s, 40)
        turn = Turn(game)
        assert turn.phase is Phase.DONE and turn.passed and turn.move == Move("pass")
        assert turn.decisions == (Decision("pass"),)
        assert turn.reset() is False and turn.cancel() is False
        game.play(turn.move)
        assert Turn(game).phase is Phase.PICK_RING

    def test_pass_after_removing_the_opponents_row(self):
        s = make_state(
            white_rings=["a2", "k10", "h4"], black_rings=["a3", "b2", "b3", "j10", "j9"],
            white_markers=["k9", "k8", "k7", "c5", "d5", "e5", "f5", "g5"], turn=WHITE,
        )
        game = Game.from_state(s, 40)
        turn = Turn(game)
        assert turn.phase is Phase.REMOVE_RING and turn.selected_row == R("c5-g5")
        turn.click_point(P("h4"))  # the only ring that could move: now nothing can
        assert turn.phase is Phase.DONE and turn.passed
        assert str(turn.move) == "xc5-g5xh4;pass"
        two = Turn(game)
        two.click_point(P("a2"))
        assert two.phase is Phase.PICK_RING and two.movable_rings == {P("h4")}

    def test_two_passes_end_the_game(self):
        s = make_state(white_rings=["a2"], black_rings=["a3", "b2", "b3"], white_markers=["k10"], turn=WHITE,
                       passes=1, score=(1, 0))
        game = Game.from_state(s, 40)
        turn = Turn(game)
        game.play(turn.move)
        assert game.termination == "passes"
        assert result_text(game) == "White wins: both players passed in a row, White removed 1 ring to 0"


class TestPickingAndCancelling:
    def setup_method(self):
        self.game = Game.from_record(SCENARIOS["official notation example"].game.record())
        self.turn = Turn(self.game)

    def test_picking_a_ring_lights_exactly_its_destinations(self):
        self.turn.click_point(P("e3"))
        expected = {dst for src, dst in ((m.source, m.target) for m in self.game.legal_moves()) if src == P("e3")}
        assert self.turn.destinations == expected and len(expected) == 15
        assert self.turn.selected_ring == P("e3")
        assert self.turn.clickable_points == expected | self.turn.movable_rings

    def test_click_the_ring_again_cancels(self):
        self.turn.click_point(P("e3"))
        assert self.turn.click_point(P("e3")) is None
        assert self.turn.phase is Phase.PICK_RING and self.turn.decisions == ()

    def test_escape_cancels(self):
        self.turn.click_point(P("e3"))
        assert self.turn.cancel() is True
        assert self.turn.phase is Phase.PICK_RING
        assert self.turn.cancel() is False

    def test_another_ring_switches(self):
        self.turn.click_point(P("e3"))
        assert self.turn.click_point(P("h7")) is None
        assert self.turn.selected_ring == P("h7")

    def test_clicking_elsewhere_cancels_with_a_hint(self):
        self.turn.click_point(P("e3"))
        hint = self.turn.click_point(P("k10"))
        assert "e3-k10 is not a legal move" in hint
        assert self.turn.phase is Phase.PICK_RING

    @pytest.mark.parametrize("target", ["k10", "e10", "e4", "a5", "d1"])
    def test_a_wrong_destination_is_explained_in_the_games_words(self, target):
        """One explanation of an illegal ring move: the hint quotes the game's own reason."""
        self.turn.click_point(P("e3"))
        hint = self.turn.click_point(P(target))
        with pytest.raises(IllegalMoveError) as refused:
            self.game.parse_move(f"e3-{target}")
        assert hint == f"e3-{target} is not a legal move ({refused.value.reason}): ring put back"

    def test_a_jump_that_does_not_stop_at_once_is_explained_in_the_games_words(self):
        game = Game.from_state(make_state(["e5", "a2", "b1", "c1", "d1"], ["k7", "k8", "k9", "k10", "j11"],
                                          ["e6", "e7"]), 40)
        turn = Turn(game)
        turn.click_point(P("e5"))
        with pytest.raises(IllegalMoveError) as refused:
            game.parse_move("e5-e9")
        assert refused.value.reason == (
            "the ring at e5 cannot stop on e9 after crossing markers (first empty point is e8)")
        assert turn.click_point(P("e9")) == f"e5-e9 is not a legal move ({refused.value.reason}): ring put back"

    def test_hints(self):
        assert "Black's" in self.turn.click_point(P("a5"))
        assert "one of your rings" in self.turn.click_point(P("f5"))
        assert self.turn.decisions == ()

    def test_placement(self):
        turn = Turn(Game())
        assert prompt(turn) == "White: place a ring on an empty point"
        assert turn.clickable_points == frozenset(POINTS)
        turn.click_point(P("e5"))
        assert turn.move == Move("place", None, P("e5"))
        game = Game()
        game.play("e5")
        turn = Turn(game)
        assert prompt(turn) == "Black: place a ring on an empty point"
        assert "already holds a ring" in turn.click_point(P("e5"))
        assert P("e5") not in turn.clickable_points


def test_no_click_ever_raises():
    """Every point and row, clicked in every phase of a real game, is harmless."""
    record = GAMES[BRAVE_COMBO].game
    game = Game()
    for move in record.moves:
        decisions = [d for d in decisions_of(move) if d.kind != "pass"]
        for i in range(len(decisions) + 1):
            for target in list(POINTS) + [("row", w) for w in range(len(WINDOWS))]:
                turn = Turn(game)
                for d in decisions[:i]:
                    if d not in turn.decisions:
                        turn.choose(d) if d in turn.options else None
                before = (turn.decisions, turn.phase)
                if isinstance(target, tuple):
                    hint = turn.click_row(target[1])
                else:
                    hint = turn.click_point(target)
                assert hint is None or isinstance(hint, str)
                if hint is not None and before[1] is not Phase.MOVE_RING:
                    assert (turn.decisions, turn.phase) == before  # a refused click changes nothing
        game.play(move)


@pytest.mark.parametrize("seed", range(12))
def test_random_games_clicked_through(seed):
    """Random legal moves, made by clicks, are exactly the moves chosen."""
    rng = random.Random(seed)
    game = Game()
    while game.result is None and game.ply < 200:
        move = rng.choice(game.legal_moves())
        turn = Turn(game, auto_row=bool(seed % 2))
        click_through(turn, move)
        assert turn.clickable_points or turn.phase is Phase.DONE
        game.play(turn.move)
    if game.result is not None:
        assert Turn(game).phase is Phase.GAME_OVER and Turn(game).clickable_points == frozenset()


def test_prompt_and_highlights_in_every_phase():
    turn = Turn(Game())
    assert turn.clickable_points and not (turn.destinations or turn.candidate_rows or turn.removable_rings)
    assert repr(turn) == "<Turn White place-ring []>"


# The turn's decisions, step by step, against the reference: filtering every legal move --------------


def _reference(game: Game, made: tuple[Decision, ...]) -> tuple[Move | None, frozenset[Decision]]:
    """What the turn offered before it followed the rules step by step: the legal moves whose
    decisions start with ``made``."""
    move, options = None, set()
    for legal in game.legal_moves():
        path = decisions_of(legal)
        if path[:len(made)] == made:
            if len(path) == len(made):
                move = legal
            else:
                options.add(path[len(made)])
    return move, frozenset(options)


def _positions(seed: int) -> list[Game]:
    from helpers import rows_seeking_game

    rng = random.Random(seed)
    out = []
    for game in (rows_seeking_game(seed, moves=rng.randrange(10, 120)), _random_game(rng)):
        at = Game.from_state(game.start_state, game.start_ply)
        for move in game.moves:
            at.push(move)
            if rng.random() < 0.08 or st_rows_pending(at):
                out.append(at.copy())
    return out


def _random_game(rng: random.Random) -> Game:
    from yinsh.playout import random_move

    game = Game(rng.choice(["standard", "blitz"]))
    while game.result is None:
        game.push(random_move(game.state, rng))
    return game


def st_rows_pending(game: Game) -> bool:
    return bool(game.pending_rows())


@given(st.integers(min_value=0, max_value=2**32 - 1))
@settings(max_examples=20, deadline=None)
def test_the_turn_offers_exactly_what_filtering_the_legal_moves_offers(seed):
    for game in _positions(seed):
        turn = Turn(game)
        prefixes = {()}
        for legal in game.legal_moves():
            path = decisions_of(legal)
            prefixes.update(path[:n] for n in range(len(path) + 1))
        for made in prefixes:
            assert turn._following(list(made)) == _reference(game, made), (game.position(), made)
        assert turn._following([]) == _reference(game, ())


def test_on_a_board_of_18_rows_the_turn_offers_what_filtering_offers():
    """A position the reachability check accepts with 18 rows for White (39,240 legal moves):
    every prefix along random paths through the turn, against the reference."""
    game = Game.from_position("Y1Bz0nOPyTahncFDA90WM0hOHa2uLShw9CvvJNU6")
    following: dict[tuple[Decision, ...], set[Decision]] = {}
    complete: dict[tuple[Decision, ...], Move] = {}
    for legal in game.legal_moves():
        path = decisions_of(legal)
        complete[path] = legal
        for n in range(len(path)):
            following.setdefault(path[:n], set()).add(path[n])
    turn = Turn(game, auto_row=False)
    rng = random.Random(23)
    for _ in range(30):
        made: tuple[Decision, ...] = ()
        while True:
            expected = frozenset(following.get(made, ()))
            assert turn._following(list(made)) == (complete.get(made), expected)
            if not expected:
                break
            made += (rng.choice(sorted(expected)),)
