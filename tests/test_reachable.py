"""Positions no game can reach are refused by every reader (``why_unreachable``), and every
position a game reaches passes: the fixture games and seeded random games at every move."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import DATA, load, rows_seeking_game
from hypothesis import given, settings
from hypothesis import strategies as st

from yinsh import Game, NotationError
from yinsh.__main__ import main
from yinsh.link import encode_game
from yinsh.page.embed import EmbedError, parse_embed
from yinsh.page.links import open_page
from yinsh.playout import random_move
from yinsh.position import decode_position, encode_position
from yinsh.record import read_record
from yinsh.state import BLACK, make_state, rows, why_unreachable

seeds = st.integers(min_value=0, max_value=2**32 - 1)

#: The probe's board: 43 white markers standing in 23 rows, White to move (5.4 s to build a turn before).
ROWS_EVERYWHERE = make_state(
    ["e1", "e2", "e3", "e4", "e5"], ["h3", "h4", "h5", "h6", "h7"],
    [f"{c}{r}" for c, top in (("b", 7), ("c", 8), ("d", 9), ("f", 10), ("g", 11))
     for r in range(1 if c in "bcd" else 2, top + 1)][:51], [])


def _code(s, ply: int = 60) -> str:
    return encode_position(s, ply)


def _all_positions(game: Game):
    replay = Game.from_state(game.start_state, game.start_ply)
    yield replay.state, replay.ply
    for move in game.moves:
        replay.push(move)
        yield replay.state, replay.ply


def _assert_reachable_throughout(game: Game) -> None:
    for s, ply in _all_positions(game):
        assert why_unreachable(s, ply) is None, (ply, why_unreachable(s, ply))
        assert decode_position(encode_position(s, ply)) == (s, ply)


@pytest.mark.parametrize("name", ["games.ygn", "scenarios.ygn"])
def test_every_position_of_the_fixture_games_is_reachable(name):
    for record in load(name):
        _assert_reachable_throughout(record.game)


def test_every_position_of_the_boardspace_games_is_reachable():
    files = sorted(Path(DATA, "boardspace").glob("*.sgf"))
    assert files
    for path in files:
        _assert_reachable_throughout(read_record(path.read_text(encoding="utf-8")).game)


@given(seeds, st.sampled_from(["standard", "blitz"]))
@settings(max_examples=40, deadline=None)
def test_every_position_of_a_random_game_is_reachable(seed, variant):
    rng = random.Random(seed)
    game = Game(variant)  # type: ignore[arg-type]
    while game.result is None:
        game.push(random_move(game.state, rng))
    _assert_reachable_throughout(game)


@given(seeds)
@settings(max_examples=15, deadline=None)
def test_positions_of_games_that_seek_rows_are_reachable(seed):
    _assert_reachable_throughout(rows_seeking_game(seed))


UNREACHABLE = [
    ("rows everywhere", ROWS_EVERYWHERE, "23 rows of five that no single move of Black could have made"),
    ("a pass in placement", make_state(["e5"], [], in_placement=True, turn=BLACK, passes=1),
     "a pass while rings are still being placed"),
    ("a pass from the empty board", make_state(in_placement=True, passes=1), "a pass while rings"),
    ("the mover's own row standing",
     make_state(["a2", "b2", "c2", "d2", "e1"], ["k7", "k8", "k9", "k10", "j11"], [], ["e3", "e4", "e5", "e6", "e7"]),
     "Black moved last but left a row of five"),
    ("the mover has won", make_state(["a2", "b2"], ["e5", "f6", "g7", "h8", "i9"], ["c3"], ["d4"], score=(3, 0)),
     "White is to move but has already won"),
    ("a pass with a ring that can move",
     make_state(["a2", "b2", "c2", "d2", "e1"], ["k7", "k8", "k9", "k10", "j11"], ["e3"], passes=1),
     "Black passed but has a ring that can move"),
    ("rows on two parallel lines, far apart",
     make_state(["a2", "a3", "a4", "a5", "b7"], ["k7", "k8", "k9", "k10", "j11"],
                ["c1", "c2", "c3", "c4", "c5", "h3", "h4", "h5", "h6", "h7"], []),
     "2 rows of five that no single move"),
    ("more markers than the pool", make_state(
        ["e1", "e2", "e3", "e4", "e5"], ["h3", "h4", "h5", "h6", "h7"],
        [], [p for p in ("a2 a3 a4 a5 b1 b2 b3 b4 b5 b6 b7 c1 c2 c3 c4 c5 c6 c7 c8 d1 d2 d3 d4 d5 d6 d7 d8 d9 "
                         "f2 f3 f4 f5 f6 f7 f8 f9 f10 g2 g3 g4 g5 g6 g7 g8 g9 g10 g11 i4 i5 i6 i7 i8").split()]),
     "more than the 51 markers"),
]


@pytest.mark.parametrize("name, state, reason", UNREACHABLE, ids=[u[0] for u in UNREACHABLE])
def test_an_unreachable_position_is_refused_with_its_reason(name, state, reason):
    assert reason in why_unreachable(state, 60 if not state.in_placement else state.placed)
    with pytest.raises(NotationError, match="is not a reachable position"):
        Game.from_position(_code(state, 60 if not state.in_placement else state.placed))


def test_rows_made_by_one_move_for_the_opponent_are_reachable():
    """Black's e2-e7 turns over e3…e6: White's rows a3-e3 and c4-g4 cross that line."""
    before = make_state(["a2", "b1", "k7", "k8", "b7"], ["e2", "k9", "k10", "j11", "i11"],
                        ["a3", "b3", "c3", "d3", "c4", "d4", "f4", "g4"], ["e3", "e4", "e5", "e6"], turn=BLACK)
    assert why_unreachable(before) is None
    game = Game.from_state(before, 40)
    game.play("e2-e7")
    assert len(rows(game.state.white_markers)) == 2 and why_unreachable(game.state, game.ply) is None


def test_every_reader_refuses_the_probe_position(tmp_path, capsys):
    code = _code(ROWS_EVERYWHERE)
    game = Game.from_state(ROWS_EVERYWHERE, 60)
    reason = "no single move of Black could have made"
    with pytest.raises(NotationError, match=reason):
        Game.from_position(code)
    with pytest.raises(NotationError, match=reason):
        Game.from_record(f'[Position "{code}"]\n')
    from yinsh.link import decode_game
    with pytest.raises(NotationError, match=reason):
        decode_game(encode_game(game))
    links = ((f"?position={code}", ""), ("", f"#position={code}"), ("", f"#g={encode_game(game)}&study=1"))
    for search, hash_ in links:
        setup = open_page(search, hash_)
        assert setup.source != "link" and any(reason in n for n in setup.notices), setup.notices
    with pytest.raises(EmbedError, match=reason):
        parse_embed(f"?position={code}")
    assert main(["perft", "1", "--position", code]) == 1
    assert reason in capsys.readouterr().err
    path = tmp_path / "study.ygn"
    path.write_text(f'[Position "{code}"]\n', encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    assert reason in capsys.readouterr().err


def test_a_saved_game_from_the_probe_position_is_set_aside_not_reopened():
    """Autosave kept the probe's game, so every later visit froze again: now the saved data is
    refused (and kept aside by the page) with the reason."""
    from yinsh.page.saved import SavedGameError, saved_from_json, saved_to_json
    from yinsh.page.settings import Settings

    text = saved_to_json(Game.from_state(ROWS_EVERYWHERE, 60), Settings(), 1)
    with pytest.raises(SavedGameError, match="no single move of Black could have made"):
        saved_from_json(text)
    setup = open_page("", "", None, text)
    assert setup.source == "new" and any("Your saved game could not be read" in n for n in setup.notices)


def test_a_study_keeps_its_free_move_number():
    s = make_state(["a2", "a3", "a4", "a5", "b7"], ["k7", "k8", "k9", "k10", "j11"], ["e5"], ["f5"])
    for ply in (10, 11, 77, 200):
        assert decode_position(_code(s, ply)) == (s, ply)
