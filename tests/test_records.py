"""Records and position codes: the real games, the scenarios, round trips and bad input."""

from __future__ import annotations

import pytest
from helpers import DATA, load
from hypothesis import given, settings
from hypothesis import strategies as st

from yinsh import Game, IllegalMoveError, NotationError
from yinsh.position import decode_position
from yinsh.record import read_record, read_records

GAMES = load("games.ygn")


@pytest.mark.parametrize("record", GAMES, ids=[r.tags["Game"] for r in GAMES])
def test_real_games_replay_to_their_rings_pool_and_result(record):
    game = record.game
    assert "{}-{}".format(*game.score) == record.tags["Rings"]
    assert game.pool == int(record.tags["Pool"])
    if record.tags["Termination"] == "resignation":
        assert game.result is None
    else:
        assert game.result == record.tags["Result"] and game.termination == record.tags["Termination"]


@pytest.mark.parametrize("record", GAMES, ids=[r.tags["Game"] for r in GAMES])
def test_records_are_written_back_exactly(record):
    text = (DATA / "games.ygn").read_text()
    movetext = text.split(f'[Game "{record.tags["Game"]}"]')[1].split("\n\n")[1].split("\n\n")[0].strip()
    assert record.game.record() == movetext


class TestScenarios:
    def test_single_row(self, scenarios):
        game = scenarios["single row"].game
        assert game.to_move == "white" and len(game.legal_moves()) == 96
        completing = [m for m in game.legal_moves() if str(m).startswith("e3-f3")]
        assert len(completing) == 5 and all(str(m).startswith("e3-f3;xe3-e7x") for m in completing)
        with pytest.raises(IllegalMoveError, match="e3-e7"):
            game.play("e3-f3")

    def test_overline_of_six(self, scenarios):
        game = scenarios["overline of six"].game
        rows = {str(m).split(";")[1][:6] for m in game.legal_moves() if str(m).startswith("e3-f3;")}
        assert rows == {"xe2-e6", "xe3-e7"}

    def test_out_of_markers(self, scenarios):
        record = scenarios["out of markers"]
        game = record.game
        assert (game.result, game.termination, game.pool) == ("0-1", "markers", 0)
        assert "{}-{}".format(*game.score) == record.tags["Rings"]

    def test_official_notation_example(self, scenarios):
        game = scenarios["official notation example"].game
        assert game.to_move == "white" and len(game.legal_moves()) == 86
        game.play("h7-g7")


class TestRecordText:
    def test_tags_are_read_and_written(self):
        record = read_record('[White "Ann \\"A\\""]\n[Event "x"]\n\n1.e3 2.a5 {a comment} 3.b5 *')
        assert record.tags == {"White": 'Ann "A"', "Event": "x"}
        assert record.game.record({"White": 'Ann "A"'}) == '[White "Ann \\"A\\""]\n\n1.e3 2.a5 3.b5'

    def test_moves_without_numbers_and_a_result_token(self):
        assert read_record("e3 a5 b5 1-0").game.ply == 3

    def test_a_record_from_a_position_keeps_its_numbering(self):
        game = Game.from_record("1.e3 2.a5 3.b5")
        start = Game.from_position(game.position())
        start.play("c6")
        assert start.record().endswith("\n\n4.c6")
        assert Game.from_record(start.record()).state == start.state

    @pytest.mark.parametrize("text, error, reason", [
        ("1.e3 2.e3", IllegalMoveError, "move 2: 'e3' is illegal: e3 already holds a ring"),
        ("1.e3 3.a5", NotationError, "move 2: found the number 3."),
        ("1.e3 2.", NotationError, "move 2: the move is missing"),
        ("1.e3 2.zz9", NotationError, "move 2: 'zz9' is not a move"),
        ("hello 1.e3", NotationError, "before the first move number"),
        ('[White Ann]\n1.e3', NotationError, "cannot read the tag pair"),
        ('[Variant "speed"]\n1.e3', NotationError, "unknown variant"),
        ('[Position "Y1AA"]\n1.e3', NotationError, "not a position code"),
        ("", NotationError, "no game record"),
    ])
    def test_bad_records_say_what_is_wrong_and_where(self, text, error, reason):
        with pytest.raises(error, match=reason.replace(".", r"\.").replace("(", r"\(")):
            read_records(text)

    @given(st.text(alphabet='123456789.abcdefghijkx-; \n[]"Pass', max_size=60))
    @settings(max_examples=300, deadline=None)
    def test_fuzzed_records_give_only_the_two_errors(self, text):
        try:
            read_records(text)
        except (NotationError, IllegalMoveError):
            pass


class TestPositionCode:
    def test_codes_are_url_safe_and_compact(self):
        code = GAMES[1].game.position()
        assert code.startswith("Y1") and len(code) <= 48
        assert all(c.isalnum() or c in "-_" for c in code)

    def test_a_blitz_position_stays_blitz(self):
        game = Game(variant="blitz")
        game.play("e5")
        assert Game.from_position(game.position()).variant == "blitz"

    def test_truncated_codes_are_refused(self):
        code = GAMES[1].game.position()
        for cut in range(1, len(code)):
            with pytest.raises(NotationError, match="not a position code|not a reachable position"):
                decode_position(code[:cut])

    def test_a_mistyped_code_is_refused(self):
        code = GAMES[1].game.position()
        typo = code[:10] + ("A" if code[10] != "A" else "B") + code[11:]
        with pytest.raises(NotationError, match="check digits"):
            decode_position(typo)

    @given(st.text(max_size=50))
    @settings(max_examples=300, deadline=None)
    def test_fuzzed_codes_give_only_notation_errors(self, text):
        try:
            decode_position(text)
        except NotationError:
            pass


SGF_FILES = sorted((DATA / "boardspace").glob("*.sgf"))


@pytest.mark.parametrize("path", SGF_FILES, ids=[p.stem for p in SGF_FILES])
def test_boardspace_sgf_imports_to_the_same_game_as_its_record(path):
    record = read_records(path.read_text())[0]
    expected = next(r for r in GAMES if r.tags["Game"] == record.tags["Game"])
    assert record.game.record() == expected.game.record()
    for tag in ("Date", "White", "Black", "Result", "Termination"):
        assert record.tags[tag] == expected.tags[tag]
    assert Game.from_record(path.read_text()).state == expected.game.state


@pytest.mark.parametrize("text, reason", [
    ("(;SU[Chess]P0[1 place wr  E 6])", "a game of Chess"),
    ("(;P0[1 place wr  E 6]P1[2 jump E 6])", r"move 2: cannot read the SGF step 2 'jump E 6'"),
    ("(;P0[1 place wr  E 6]P1[2 place br  E 6])", "move 2: 'e6' is illegal"),
    ("(;P0[1 place w  E 6])", "move 1: .*still being placed|never dropped"),
])
def test_bad_sgf_says_what_is_wrong_and_where(text, reason):
    with pytest.raises((NotationError, IllegalMoveError), match=reason):
        read_records(text)


def test_the_command_line_replays_sgf(capsys):
    from yinsh.__main__ import main

    assert main(["replay", str(SGF_FILES[1])]) == 0
    assert "rings removed 2-3, pool 20, Black wins 3 to 2 (0-1)" in capsys.readouterr().out
