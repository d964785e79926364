"""Hostile input (issue 13): no input freezes, breaks or silently replaces a game.

Each class is one finding of the issue, tested with its exact reproduction (the catalogue of
:func:`yinsh.bench.hostile_inputs`, which ``yinsh bench`` also times): the error it must raise,
the game left as it was, and no traceback. The fuzz tests at the end feed every decoder inputs
up to its size limit: only the package's own errors may come out. The page-level reproductions
are checked in the browser too (tests/e2e/test_hostile_page.py), with the page kept responsive.
"""

from __future__ import annotations

import json
import string

import pytest
from helpers import DATA
from hypothesis import given, settings
from hypothesis import strategies as st

import yinsh.limits as limits
from yinsh import Game, IllegalMoveError, NotationError
from yinsh.__main__ import main
from yinsh.bench import NOTATION_EXAMPLE, hostile_inputs, open_door
from yinsh.board import POINTS, WINDOWS
from yinsh.link import decode_game, encode_game
from yinsh.page.embed import EmbedError, parse_embed
from yinsh.page.links import continues_game, from_the_start, game_url, open_page, replaces_game_in_progress
from yinsh.page.records import import_error_message, read_import
from yinsh.page.safe_json import load_json
from yinsh.page.saved import SavedGameError, saved_from_json, saved_to_json
from yinsh.page.settings import Settings, settings_from_json
from yinsh.page.urls import read_params
from yinsh.position import check_digits, decode_position, encode_position, to_digits
from yinsh.record import read_record, read_records, read_sgf

ISSUE = {item.name: item for item in hostile_inputs()}
SAMPLE = Game.from_record("1.e3 2.a5 3.b5")
"""A game in progress on the page (or saved) when a hostile link arrives."""
CURRENT = (SAMPLE, Settings(black="ai-2"))
SAVED = saved_to_json(*CURRENT, 1764400000000)
PROJECT_ERRORS = (NotationError, IllegalMoveError)


def text_of(name: str) -> str:
    return ISSUE[name].text


def split_link(text: str) -> tuple[str, str]:
    """``(search, hash)`` of a ``?query#hash`` link, as ``location`` gives them."""
    search, _, hash_ = text.partition("#")
    return search, "#" + hash_ if hash_ else ""


def assert_kept(setup, reason: str) -> None:
    """The link was refused with a notice naming ``reason`` and the page's game stayed."""
    assert setup.source == "current" and setup.game is SAMPLE and setup.settings == CURRENT[1]
    assert any(reason in notice for notice in setup.notices), setup.notices
    assert all("Traceback" not in notice for notice in setup.notices)


def test_every_reproduction_is_refused():
    for item in hostile_inputs():
        if not item.name.startswith("largest"):
            assert open_door(item.door, item.text).startswith("refused"), item.name


# --------------------------------------------------------------------------- 1. a link that breaks the page


class TestMoveNumbersPastAnyGame:
    def test_a_position_code_at_move_10_to_the_4400_is_refused_by_its_length(self):
        code = text_of("position code at move 10^4400")
        with pytest.raises(NotationError, match=f"at most {limits.MAX_POSITION_CHARS} are read"):
            Game.from_position(code)

    def test_a_short_code_past_move_200_is_refused_too(self):
        code = encode_position(Game.from_record(NOTATION_EXAMPLE).state, 201)
        assert len(code) <= limits.MAX_POSITION_CHARS
        with pytest.raises(NotationError, match="move number 201 is past the 200 moves a game can last"):
            decode_position(code)
        assert decode_position(encode_position(Game.from_record(NOTATION_EXAMPLE).state, 200))[1] == 200

    def test_a_game_link_from_that_position_keeps_the_game_on_the_page(self):
        search, hash_ = split_link(text_of("game code from a position at move 10^4400"))
        assert_kept(open_page(search, hash_, None, SAVED, CURRENT), f"at most {limits.MAX_GAME_CODE_CHARS:,} are read")
        short = "G1" + encode_position(Game.from_record(NOTATION_EXAMPLE).state, 201) + ".A"
        assert_kept(open_page("?study=1", "#g=" + short + check_digits(short), None, SAVED, CURRENT), "past the 200")
        at_start = open_page(search, hash_, None, SAVED)  # a new tab: the saved game stays
        assert at_start.source == "saved" and at_start.game.record() == SAMPLE.record()
        with pytest.raises(EmbedError, match="g= cannot be read"):
            parse_embed(search, hash_)

    def test_saved_data_holding_that_game_starts_a_fresh_game_and_keeps_the_data_aside(self):
        code = text_of("game code from a position at move 10^4400").removeprefix("#g=")
        saved = json.dumps({"version": 1, "game": code, "settings": {}, "time": 1})
        setup = open_page("", "", None, saved)
        assert setup.source == "new" and setup.game.ply == 0 and setup.set_aside == saved
        assert setup.notices[0].startswith("Your saved game could not be read: its game is damaged")

    def test_a_record_numbered_with_5000_digits_is_a_notation_error(self):
        with pytest.raises(NotationError, match="has 5,000 digits: at most 3 are read"):
            Game.from_record(text_of("record numbered 9…9 (5,000 digits)"))

    def test_the_command_line_says_so_in_one_line(self, tmp_path, capsys):
        path = tmp_path / "digits.ygn"
        path.write_text(text_of("record numbered 9…9 (5,000 digits)"), encoding="utf-8")
        assert main(["replay", str(path)]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err and "at most 3 are read" in err

    def test_the_limits_hold_the_largest_codes_a_game_can_have(self):
        # the largest position code: the last move number, every counter at its top, every point a black marker
        largest = (((((limits.MAX_MOVES * 2 + 1) * 4 + 3) * 4 + 3) * 3 + 2) * 2 + 1) * 5 ** len(POINTS) - 1
        assert len("Y1" + to_digits(largest) + "AA") <= limits.MAX_POSITION_CHARS
        # the largest game code: a set-up start, then every move a ring move with three removals
        per_move = 64 * len(POINTS) ** 2 * (len(WINDOWS) * len(POINTS)) ** 3
        body = to_digits(2 ** 17 * per_move ** limits.MAX_MOVES - 1)
        assert len("G1" + "Y" * limits.MAX_POSITION_CHARS + "." + body + "AA") <= limits.MAX_GAME_CODE_CHARS
        # and a game cannot last longer than MAX_MOVES (see yinsh.limits)
        ring_moves = 51 + 5 * 5
        assert 10 + ring_moves + (ring_moves + 2) + 1 <= limits.MAX_MOVES


# --------------------------------------------------------------------------- 2. inputs that froze the page


class TestNoFreeze:
    def test_an_sgf_of_open_values_is_refused_at_the_first(self):
        with pytest.raises(NotationError, match=r"the SGF value P0\[…\] at character 5 is never closed"):
            read_import(text_of("SGF '(;' + 'P0[' × 8000"))

    def test_the_same_sgf_in_a_link_is_refused_and_the_game_stays(self):
        search, hash_ = split_link(text_of("SGF '(;' + 'P0[' × 8000 in ?record="))
        assert_kept(open_page(search, hash_, None, None, CURRENT), "never closed")
        search, hash_ = split_link(text_of("SGF '(;' + 'P0[' × 8000 in embed.html"))
        with pytest.raises(EmbedError, match="record= cannot be read: the SGF value"):
            parse_embed(search, hash_)

    def test_a_game_code_of_200_kb_is_refused_by_the_link_length(self):
        search, hash_ = split_link(text_of("game code of 200 KB"))
        assert_kept(open_page(search, hash_, None, None, CURRENT), f"at most {limits.MAX_LINK_CHARS:,} are read")
        with pytest.raises(NotationError, match=f"at most {limits.MAX_GAME_CODE_CHARS:,} are read"):
            decode_game(hash_.removeprefix("#g="))

    def test_an_unclosed_comment_is_refused(self):
        with pytest.raises(NotationError, match="the comment '{{{.*' is never closed"):
            read_import(text_of("'{' × 50,000 pasted"))

    def test_a_5_mb_tag_is_refused_by_the_text_length(self):
        with pytest.raises(NotationError, match=f"at most {limits.MAX_TEXT_CHARS:,} are read"):
            read_import(text_of("a 5 MB tag"))

    def test_a_long_tag_is_refused_by_its_own_limit(self):
        with pytest.raises(NotationError, match="the tag Event is 1,001 characters long: at most 1,000"):
            read_record('[Event "' + "x" * 1001 + '"]\n1.e3')
        assert read_record('[Event "' + "\\\\" * 500 + '"]\n1.e3').tags["Event"] == "\\" * 500

    def test_20000_games_are_refused_by_their_lines_before_any_is_read(self):
        with pytest.raises(NotationError, match=f"the text has 40,001 lines: at most {limits.MAX_LINES:,} are read"):
            read_import(text_of("20,000 games"))
        one = '[White "A"]\n1.e3\n'
        assert len(read_import(one * limits.MAX_GAMES)) == limits.MAX_GAMES
        with pytest.raises(NotationError, match=f"more than {limits.MAX_GAMES} games"):
            read_import(one * (limits.MAX_GAMES + 1))

    @pytest.mark.parametrize("text, reason", [
        ("\n" * 20_000 + "1.e3", "lines: at most 10,000"), ("\r" * 20_000 + "1.e3", "lines: at most 10,000"),
        ("1.e3 " + "x " * 6000, "words long: at most 5,000"), ('[A "1"]\n' * 101 + "1.e3", "more than 100 tag pairs"),
    ])
    def test_junk_within_the_size_limit_is_refused_by_a_count(self, text, reason):
        with pytest.raises(NotationError, match=reason):
            read_import(text)

    def test_a_record_past_move_200_is_refused_before_any_move_is_played(self):
        with pytest.raises(NotationError, match="goes on past move 200"):
            read_record(" ".join(["e3"] * 201))
        with pytest.raises(NotationError, match="a move is at most 100"):
            read_record("1." + "x" * 5000)


# --------------------------------------------------------------------------- 3. saved data that stops the page


class TestSavedData:
    @pytest.mark.parametrize("name, reason", [
        ("saved game code 'G1\\ud800AA'", "has characters outside"),
        ("saved data '[' × 20,000", "it nests more than 16 deep"),
    ])
    def test_unreadable_saved_data_gives_a_fresh_game_a_notice_and_is_kept_aside(self, name, reason):
        text = text_of(name)
        with pytest.raises(SavedGameError, match=reason):
            saved_from_json(text)
        setup = open_page("", "", None, text)
        assert setup.source == "new" and setup.game.ply == 0 and setup.set_aside == text
        [notice] = setup.notices
        assert notice.startswith("Your saved game could not be read: ") and reason in notice
        assert notice.endswith("It is kept aside. A new game has started.")

    def test_data_of_a_newer_page_is_kept_aside_too(self):
        newer = json.dumps({"version": 2, "game": encode_game(SAMPLE), "settings": {}})
        assert open_page("", "", None, newer).set_aside == newer
        assert open_page("", "", None, SAVED).set_aside is None

    def test_too_much_saved_data_is_refused_before_it_is_parsed(self):
        with pytest.raises(SavedGameError, match=f"at most {limits.MAX_SAVED_CHARS:,} are read"):
            saved_from_json(" " * (limits.MAX_SAVED_CHARS + 1))

    def test_brackets_inside_strings_do_not_count_as_nesting(self):
        assert load_json('{"note": "' + "[" * 100 + '\\"]"}') == {"note": "[" * 100 + '"]'}
        with pytest.raises(ValueError, match="nests more than 16"):
            load_json('{"a": ' * 17 + "1" + "}" * 17)

    @pytest.mark.parametrize("name", ["saved data '[' × 20,000", "saved game code 'G1\\ud800AA'"])
    def test_the_stored_new_game_choice_survives_the_same_data(self, name):
        assert settings_from_json(text_of(name)) == Settings()


# --------------------------------------------------------------------------- 4. play by link


class TestPlayByLink:
    WON = text_of("White has won 3-0, no move played")

    def test_a_link_from_a_set_up_position_is_refused_unless_it_says_study(self):
        assert_kept(open_page("", self.WON, None, None, CURRENT), "does not say it is a study (study=1)")
        setup = open_page("?study=1", self.WON, None, None, CURRENT)
        assert setup.source == "link" and setup.game.result == "1-0" and setup.previous == CURRENT

    def test_play_by_link_starts_from_the_first_move_even_as_a_study(self):
        search, hash_ = split_link(text_of("play by link from a set-up position"))
        assert_kept(open_page(search, hash_, None, None, CURRENT), "a game played by link (you=) starts from")
        assert_kept(open_page(search + "&study=1", hash_, None, None, CURRENT), "played by link")
        position = "#position=" + Game.from_record("1.e3").position()
        assert_kept(open_page("?you=white", position, None, None, CURRENT), "played by link")
        assert open_page("?you=white", "#position=" + Game().position()).source == "link"

    def test_a_position_link_is_a_study_by_its_name(self):
        code = Game.from_record(NOTATION_EXAMPLE).position()
        setup = open_page("", "#position=" + code)
        assert setup.source == "link" and setup.game.ply == 10 and not from_the_start(setup.game)

    def test_the_page_writes_study_into_the_link_of_a_game_from_a_set_up_position(self):
        game = Game.from_position(Game.from_record(NOTATION_EXAMPLE).position())
        game.play("h7-g7")
        url = game_url("/", {}, game, Settings())
        assert url.startswith("/?study=1#g=")
        search, hash_ = split_link(url.removeprefix("/"))
        assert open_page(search, hash_).game.record() == game.record()

    def test_a_link_that_continues_the_game_in_progress_replaces_nothing(self):
        longer = Game.from_record("1.e3 2.a5 3.b5 4.c6")
        setup = open_page("?you=white", "#g=" + encode_game(longer), None, None, CURRENT)
        assert setup.source == "link" and setup.previous is None
        assert continues_game(longer, SAMPLE) and not continues_game(SAMPLE, longer)

    def test_any_other_link_names_the_game_in_progress_it_would_replace(self):
        other = "#g=" + encode_game(Game.from_record("1.f5"))
        assert open_page("", other, None, None, CURRENT).previous == CURRENT
        at_start = open_page("", other, None, SAVED)  # a new tab: the saved game is the one in progress
        assert at_start.previous is not None and at_start.previous[0].record() == SAMPLE.record()
        assert open_page("?black=ai-4", "", None, SAVED).previous is not None  # a new game with other players

    def test_a_finished_or_empty_game_is_never_in_progress(self):
        finished = next(r.game for r in read_records((DATA / "games.ygn").read_text()) if r.game.result)
        assert not replaces_game_in_progress(Game(), finished)
        assert not replaces_game_in_progress(Game(), Game())
        assert replaces_game_in_progress(Game(), SAMPLE)


# --------------------------------------------------------------------------- 5. a malformed SGF


class TestMalformedSgf:
    @pytest.mark.parametrize("text, reason", [
        ("(;P0[1 place wr", r"the SGF value P0\[…\] at character 5 is never closed \(is the file cut short\?\)"),
        ("(;P0[1 place wr E 6]", r"ends without its closing '\)'"),
        ("(;garbage", "the SGF property 'garbage' at character 3 has no value"),
        ("(;GM[24]SU[Yinsh])", "holds no moves"),
        ("(;P0[1 place wr E 6])(;P0[1 place wr E 6])", "one game per file"),
        ("(;P0[1 place wr E 6](;P1[2 place br F 6]))", "a variation at character 21"),
        ("(;P0[1 place wr E 6]%)", "unexpected '%'"),
        ("(;[1 place wr E 6])", "a value with no property name"),
    ])
    def test_it_is_an_error_naming_what_is_wrong_never_an_empty_game(self, text, reason):
        with pytest.raises(NotationError, match=reason):
            read_sgf(text)
        with pytest.raises(NotationError) as caught:
            read_import(text)
        assert "SGF" in import_error_message(caught.value)

    def test_a_pasted_truncated_sgf_gives_the_dialog_a_line(self):
        with pytest.raises(NotationError) as caught:
            read_import(text_of("SGF '(;P0[1 place wr'"))
        assert import_error_message(caught.value) == ("The SGF value P0[…] at character 5 is never closed "
                                                      "(is the file cut short?).")

    def test_record_garbage_in_a_link_keeps_the_game_and_says_why(self):
        search, hash_ = split_link(text_of("?record=(; and garbage"))
        assert_kept(open_page(search, hash_, None, None, CURRENT), "Could not open the record in the link (")

    def test_escaped_brackets_and_tags_of_a_real_file_still_read(self):
        text = (DATA / "boardspace" / "Y-BestBot-BOkpc-2026-03-13-1856.sgf").read_text(encoding="utf-8")
        record = read_sgf(text.replace("GN[", "C[a \\] bracket]GN["))
        assert record.tags["White"] == "BestBot" and record.tags["Date"] == "2026.03.13"


# --------------------------------------------------------------------------- 6. the command line


class TestCommandLine:
    def test_a_file_that_is_not_utf8_is_one_line_and_status_1(self, tmp_path, capsys):
        path = tmp_path / "latin1.ygn"
        path.write_bytes("1.e3 2.a5 {Rémi}".encode("latin-1"))
        assert main(["replay", str(path)]) == 1
        err = capsys.readouterr().err
        assert err == f"yinsh replay: {path} is not UTF-8 text: byte 0xe9 at position 12 cannot be read\n"

    @pytest.mark.parametrize("name", ["record.ygn", "Y-BestBot-BOkpc-2026-03-13-1856.sgf"])
    def test_a_byte_order_mark_is_accepted(self, tmp_path, capsys, name):
        source = DATA / "boardspace" / name if name.endswith(".sgf") else None
        text = source.read_text(encoding="utf-8") if source else "1.e3 2.a5\n"
        path = tmp_path / name
        path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
        assert main(["replay", str(path)]) == 0
        assert "moves, rings removed" in capsys.readouterr().out
        assert read_records("\ufeff" + text)[0].game.ply >= 2

    @pytest.mark.parametrize("argv", [["perft", "-1"], ["perft", "0"], ["perft", "two"],
                                      ["diagram", "--size", "-5", "--record", "1.e3", "-o", "x.svg"],
                                      ["diagram", "--size", "0", "--record", "1.e3", "-o", "x.svg"],
                                      ["serve", "--port", "70000"], ["bench", "--seconds", "-1"]])
    def test_bad_arguments_exit_2_with_a_usage_line(self, argv, capsys):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2
        err = capsys.readouterr().err
        assert ("out of range" in err or "not a whole number" in err) and "Traceback" not in err

    def test_a_long_record_given_as_text_is_not_taken_for_a_file_name(self, capsys):
        record = NOTATION_EXAMPLE + " {" + "x" * 3000 + "}"
        assert main(["perft", "1", "--record", record]) == 0
        assert "perft 1: 86" in capsys.readouterr().out

    def test_serving_a_folder_that_does_not_exist_is_one_line(self, capsys):
        assert main(["serve", "--root", "/nonexistent-folder"]) == 1
        assert capsys.readouterr().err == "yinsh serve: /nonexistent-folder is not a folder\n"


# --------------------------------------------------------------------------- fuzzing up to the limits


def with_check(text: str) -> str:
    """``text`` and its check digits, when it has any (a lone surrogate has no UTF-8 bytes)."""
    try:
        return text + check_digits(text)
    except UnicodeEncodeError:
        return text


def _large(limit: int, alphabet: str) -> st.SearchStrategy[str]:
    """Texts up to about ``limit`` characters: a random piece repeated, with random text around it."""
    piece = st.text(alphabet, min_size=1, max_size=12)
    return st.tuples(st.text(alphabet, max_size=20), piece, st.integers(0, limit), st.text(alphabet, max_size=20)
                     ).map(lambda t: t[0] + t[1] * (t[2] // len(t[1])) + t[3])


RECORD_CHARS = "0123456789.abcdefghijkx-; \n[]\"{}\\#%()PWBE"
SGF_CHARS = "();[]\\ \nP01 placewrbdomvsEFGH123456789"
CODE_CHARS = string.ascii_letters + string.digits + "-_.\ud800 "


@given(_large(limits.MAX_TEXT_CHARS + 10, RECORD_CHARS))
@settings(max_examples=60, deadline=None)
def test_fuzzed_record_texts_up_to_the_limit_give_only_the_two_errors(text):
    try:
        read_import(text)
    except PROJECT_ERRORS:
        pass


@given(_large(limits.MAX_RECORD_CHARS + 10, SGF_CHARS).map(lambda t: "(;" + t))
@settings(max_examples=60, deadline=None)
def test_fuzzed_sgf_up_to_the_limit_gives_only_the_two_errors(text):
    try:
        read_record(text)
    except PROJECT_ERRORS:
        pass


@given(_large(limits.MAX_GAME_CODE_CHARS + 10, CODE_CHARS).map(lambda t: "G1" + t))
@settings(max_examples=100, deadline=None)
def test_fuzzed_game_codes_up_to_the_limit_give_only_the_two_errors(code):
    try:
        decode_game(code)
    except PROJECT_ERRORS:
        pass
    try:
        decode_game(with_check(code))  # past the check digits, into the moves
    except PROJECT_ERRORS:
        pass


@given(_large(limits.MAX_POSITION_CHARS + 4, CODE_CHARS).map(lambda t: "Y1" + t))
@settings(max_examples=200, deadline=None)
def test_fuzzed_position_codes_give_only_notation_errors(code):
    for text in (code, "Y1" + with_check(code[2:])):
        try:
            decode_position(text)
        except NotationError:
            pass


@given(_large(limits.MAX_SAVED_CHARS + 10, '[]{}":,0123456789.truefalsn \\G1Aversiongame'))
@settings(max_examples=100, deadline=None)
def test_fuzzed_saved_data_up_to_the_limit_gives_only_saved_game_errors(text):
    try:
        saved_from_json(text)
    except SavedGameError:
        pass
    setup = open_page("", "", None, text)
    assert isinstance(setup.game, Game)


@given(_large(limits.MAX_LINK_CHARS + 10, "?#&=%5BgGrecordpositionyouwhiteblackstudy1YA.e3-; +(P[]"))
@settings(max_examples=100, deadline=None)
def test_fuzzed_links_up_to_the_limit_never_raise_and_keep_the_game(text):
    search, hash_ = split_link(text)
    setup = open_page(search, hash_, None, None, CURRENT)
    assert setup.source in ("link", "current", "new")
    if setup.source != "link":
        assert setup.game is SAMPLE or setup.source == "new"
    try:
        parse_embed(search, hash_)
    except EmbedError:
        pass
    try:
        read_params(search, hash_)
    except NotationError:
        pass


def test_the_limits_are_stated_once_in_the_formats_document():
    text = (DATA.parent.parent / "docs" / "FORMATS.md").read_text(encoding="utf-8")
    for name in limits.__all__:
        if name.startswith("MAX_"):
            value = getattr(limits, name)
            assert text.count(f"`{name}`") == 1, f"docs/FORMATS.md must name {name} once, in its table of limits"
            row = text.split(f"`{name}`")[0].rsplit("\n", 1)[1]
            assert f"{value:,}" in row, f"docs/FORMATS.md gives {name} another value than {value:,}"
