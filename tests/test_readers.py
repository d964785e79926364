"""One reader, one answer (issue 23): every door reads a record the same way — a line inside a
``{comment}`` is never a tag — and what is written reads back and says what the board says."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yinsh import Game, IllegalMoveError, NotationError, pgn
from yinsh.__main__ import main
from yinsh.limits import MAX_GAMES, MAX_TEXT_CHARS, too_long
from yinsh.page.records import import_error_message, list_import, record_title
from yinsh.record import read_record, read_records, split_records, write_record
from yinsh.scan import SPACES, lower, strip, visible, visible_stepwise, words

sys.path.insert(0, str(Path(__file__).parent / "mpy_lane"))
import probes  # noqa: E402  (the lane's probes: the same readers, asked the same way)
from test_micropython import READER_TEXTS, UNICODE_SPACES  # noqa: E402


@pytest.mark.parametrize("text", READER_TEXTS, ids=range(len(READER_TEXTS)))
def test_every_reader_gives_one_answer(text):
    """``read_record``, a file, the Open dialog, a ``record=`` link and the embed agree."""
    (answers,) = probes.readers([text])
    records = {a[1] if a[0] == "ok" else None for a in answers}
    kinds = {a[0] for a in answers}
    assert len(kinds) == 1 and len(records) == 1, answers


def test_a_line_inside_a_comment_is_not_a_tag():
    text = '1.e3 {a remark\n[Variant "blitz"]\n} 2.a5'
    game = Game.from_record(text)
    assert game.variant == "standard" and game.record() == "1.e3 2.a5"
    (answers,) = probes.readers([text])
    assert all(a == ["ok", "1.e3 2.a5", []] for a in answers[:3]), answers


def test_the_command_line_reads_a_comment_line_as_the_rest_do(tmp_path, capsys):
    path = tmp_path / "comment.ygn"
    path.write_text('[White "A"]\n1.e3 {\n[White "B"]\n1.f5\n} 2.a5\n', encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.endswith(": 2 moves, rings removed 0-0, pool 51, white to move\n")  # one game


@pytest.mark.parametrize("space", UNICODE_SPACES)
def test_a_space_beyond_ascii_separates_moves_as_a_space_does(space):
    if space in ("\u200b", "\ufeff"):  # not spaces anywhere: part of the word, which is refused, visibly
        with pytest.raises(Exception, match=r"\\u" + f"{ord(space):04x}"):
            Game.from_record(f"1.e3{space}2.a5")
        return
    assert Game.from_record(f"{space}1.e3{space}2.a5{space}").record() == "1.e3 2.a5"
    assert Game.from_record(f'[Variant "blitz{space}"]\n1.e3').variant == "blitz"


def test_the_kelvin_sign_is_no_k():
    assert lower("\u212a7") == "\u212a7"
    with pytest.raises(Exception, match="is not a move"):
        Game.from_record("1.\u212a7")


def test_the_helpers_agree_with_cpython_on_spaces():
    text = "".join(f"w{i}{c}" for i, c in enumerate(SPACES)) + "\u200bx\u00a0"
    assert words(text) == text.split() and strip(text) == text.strip()


def test_visible_shows_bidi_controls_and_controls_by_their_code():
    shown = visible("Ann\u202e0-1 ,sevom 461\u202c\n\x1b[2J\u2066x\u2069\u200e\u200f\u061c")
    for c in "\u202e\u202c\n\x1b\u2066\u2069\u200e\u200f\u061c":
        assert c not in shown and f"\\u{ord(c):04x}" in shown
    assert visible("Zoë – Åsa, 2026.11.29") == "Zoë – Åsa, 2026.11.29"


# What is written reads back, and says what the board says ------------------------------------

BRAVE = (Path(__file__).parent / "data" / "boardspace" / "Y-BraveCombo-Dumbot-2026-03-20-0237.sgf")
_NAME_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
tag_names = st.text(_NAME_CHARS, min_size=1, max_size=64).filter(lambda n: n not in ("Variant", "Position"))
tag_values = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=60)


@given(st.dictionaries(tag_names, tag_values, max_size=8), st.sampled_from(["", "1.e3 2.a5 3.b5", "1.e3"]),
       st.sampled_from(["standard", "blitz"]))
@settings(max_examples=150, deadline=None)
def test_every_tag_written_reads_back_as_it_was(tags, moves, variant):
    game = Game(variant)  # type: ignore[arg-type]
    for move in moves.split():
        game.play(move[2:])
    text = write_record(game, tags)
    record = read_record(text)
    assert record.game.record() == game.record() and record.game.variant == variant
    expected = dict(tags)
    if variant == "blitz":
        expected["Variant"] = "blitz"
    assert record.tags == expected
    if text:  # a file of nothing holds no game
        assert [r.tags for r in read_records(text + "\n")] == [expected]


@given(st.dictionaries(st.text(max_size=70) | st.sampled_from(["Variant", "Position", "White"]), st.text(max_size=1100),
                       min_size=1, max_size=3))
@settings(max_examples=150, deadline=None)
def test_a_tag_is_written_so_that_it_reads_back_or_refused(tags):
    game = Game.from_record("1.e3")
    try:
        text = write_record(game, tags)
    except ValueError:
        return
    expected = {k: v for k, v in tags.items() if k != "Position"}
    if "Variant" in expected:
        expected["Variant"] = "standard"
    assert read_record(text).tags == expected


@pytest.mark.parametrize("value", ["Game\n1", "a\rb", "x\r\n[Result \"1-0\"]"])
def test_a_line_break_in_a_tag_is_refused_when_written(value):
    with pytest.raises(ValueError, match="line break"):
        write_record(Game.from_record("1.e3"), {"Event": value})


def test_a_move_s_comment_is_written_after_it_and_skipped_when_read():
    game = Game.from_record("1.e3 2.a5 3.b5")
    text = write_record(game, {}, ["{[%clk 0:04:12]}", "", pgn.clock_comment(61_000)])
    assert text == "1.e3 {[%clk 0:04:12]} 2.a5 3.b5 {[%clk 0:01:01]}"
    assert read_record(text).game.record() == game.record()
    for bad in ("[%clk 0:04:12]", "{a} b}", "{open"):
        with pytest.raises(ValueError, match="not one"):
            write_record(game, {}, [bad])


def test_a_callers_variant_or_position_tag_cannot_describe_another_game():
    text = write_record(Game.from_record("1.e3"), {"Variant": "blitz", "Position": "Y1A6L"})
    assert read_record(text).game.variant == "standard" and "Position" not in read_record(text).tags


def test_sgf_names_with_line_breaks_and_controls_become_one_line_and_save():
    sgf = BRAVE.read_text(encoding="utf-8").replace("GN[Y-BraveCombo", "GN[Y-\nBrave\x1b[2J\x85Combo", 1)
    sgf = sgf.replace('P0[id "BraveCombo"]', 'P0[id "Brave\nCombo"]')
    record = read_record(sgf)
    assert record.tags["Game"].startswith("Y- Brave [2J Combo") and record.tags["White"] == "Brave Combo"
    assert read_record(write_record(record.game, record.tags)).tags == record.tags


def test_an_sgf_result_that_contradicts_the_board_gives_way_with_a_notice():
    text = BRAVE.read_text(encoding="utf-8")
    assert "RE[Game won by Dumbot]" in text
    record = read_record(text.replace("RE[Game won by Dumbot]", "RE[Game won by BraveCombo]"))
    assert record.game.result == "0-1" and record.tags["Result"] == "0-1"
    assert "the file gives the result 1-0" in record.tags["Notice"]
    assert "Notice" not in read_record(text).tags


def test_a_two_move_game_cannot_show_as_164_moves():
    text = '[White "Ann\u202e0-1 ,sevom 461(\u202c"]\n[Black "Bo"]\n[Result "*"]\n1.e3 2.a5'
    (listed,) = list_import(text)
    record = listed.record()
    for shown in (listed.label(), record_title(record)):
        assert "\u202e" not in shown and "\\u202e" in shown and "2 moves" in shown
    error = IllegalMoveError("x").at_move(3, "white", "e3\u202e", "bad")
    assert "\u202e" not in import_error_message(error)


def _split_line_by_line(text, max_chars=MAX_TEXT_CHARS, max_games=MAX_GAMES):
    """``split_records`` written plainly, a step of Python per line over ``_record_lines``: the
    reference that a faster splitter (issue 23: fewer steps per line on the page's MicroPython)
    is held to by the property below."""
    if max_chars is not None and len(text) > max_chars:
        raise NotationError(too_long("the text", text, max_chars))
    text = text[1:] if text.startswith("\ufeff") else text
    if pgn.is_sgf(text):
        return [text]
    chunks = [[]]
    in_moves = False
    for is_tag, line in pgn._record_lines(text, max_chars is not None):
        if is_tag and in_moves:
            if len(chunks) == max_games:
                raise NotationError(f"the text holds more than {max_games} games: at most {max_games} are read")
            chunks.append([])
            in_moves = False
        in_moves = in_moves or not is_tag
        chunks[-1].append(line)
    return ["\n".join(chunk) for chunk in chunks if chunk]


_PIECES = ["[White \"A\"]", "[Game \"1\"]", "[x{", "[}", "1.e3", "2.a5 3.b5", "{", "}", "{a}", "{ {", "} {", "#",
           "# {", "%", "%}", "[", " ", "\t", "\u00a0", "\u2028", "\x1c", "\x1f \x1d", "\x00", "\u3000", "\u2013",
           "\ufeff", "{c\u00e9}", "(;", "1-0",
           "[Result \"1-0\"] {", "e3", "{\ud800", "\udc00"]
_BREAKS = ["\n", "\r\n", "\r", "\n\n", " \n ", "\n\u00a0\n"]


@given(st.lists(st.tuples(st.lists(st.sampled_from(_PIECES), max_size=4), st.sampled_from(_BREAKS)), max_size=40),
       st.sampled_from([MAX_GAMES, 3, 1, None]))
@settings(max_examples=200, deadline=None)
def test_the_splitter_cuts_a_text_into_games_as_the_line_by_line_reading_does(lines, max_games):
    text = "".join(" ".join(pieces) + end for pieces, end in lines)
    for given_text in (text, "\ufeff" + text):
        try:
            expected = _split_line_by_line(given_text, MAX_TEXT_CHARS, max_games)
        except NotationError as exc:
            with pytest.raises(NotationError, match=re.escape(str(exc))):
                split_records(given_text, MAX_TEXT_CHARS, max_games)
            if not pgn.is_sgf(given_text.lstrip("\ufeff")):
                with pytest.raises(NotationError, match=re.escape(str(exc))):
                    pgn.lay_out(given_text, MAX_TEXT_CHARS, max_games)
        else:
            assert split_records(given_text, MAX_TEXT_CHARS, max_games) == expected
            if not pgn.is_sgf(given_text.lstrip("\ufeff")):
                _lies_where_split(pgn.lay_out(given_text, MAX_TEXT_CHARS, max_games), expected)


def _lies_where_split(layout: pgn.Layout, games: list[str]) -> None:
    """``layout`` holds ``games`` (split_records'): each game's bounds hold its lines, its tag
    pair lines before where its movetext starts, the first 20 of them noted; its search bytes
    hold the same words in its moves."""
    assert [layout.text(i) for i in range(len(layout))] == games
    for index, game in enumerate(games):
        start, moves, end = layout.bounds(index)
        lines = game.split("\n")
        tags = next((i for i, line in enumerate(lines) if not line.startswith("[")), len(lines))

        def read(begin: int, stop: int) -> list[str]:
            return [line for _, line in pgn._record_lines(layout.data[begin:stop].decode("utf-8", "surrogatepass"),
                                                          False)]

        assert read(start, end) == lines
        assert read(start, moves) == lines[:tags] and read(moves, end) == lines[tags:]
        assert layout.search[moves:end].decode("utf-8", "surrogatepass").split() == " ".join(lines[tags:]).split()
        assert [strip(layout.data[a:b].decode("utf-8", "surrogatepass"))
                for a, b in layout.tag_lines(index)] == lines[:min(tags, 20)]


def test_the_splitter_reads_comments_over_lines_and_drops_what_lies_outside():
    text = ('\ufeff[White "A"]\r\n# {note\r\n1.e3 {a\r\n\r\n[Variant "blitz"]\r\n# x\r\n} 2.a5\n\n'
            '[x {\n% }\n[White "B"]\n 1.f5 \n')
    assert split_records(text) == ['[White "A"]\n1.e3 {a\n\n[Variant "blitz"]\n# x\n} 2.a5',
                                   '[x {\n[White "B"]\n1.f5']
    assert split_records(text) == _split_line_by_line(text)


_LINE_PIECES = [c for c in SPACES if c != "\n"] + ["a", "é", "\u2013", "\u3000" * 90, " " * 300, "\u00a0 " * 70, "[x"]


@given(st.lists(st.sampled_from(_LINE_PIECES), max_size=12))
@settings(max_examples=500, deadline=None)
def test_a_line_s_bytes_strip_as_its_text_strips(pieces):
    """``strip_bounds`` (a few steps, then chunks) finds what ``str.strip()`` strips on
    CPython, whose spaces are every reader's: beyond ASCII too, in runs of any length."""
    line = "".join(pieces)
    data = b"\n" + line.encode() + b"\n"
    first, last = pgn.strip_bounds(data, 1, len(data) - 1)
    assert data[first:last].decode() == line.strip()
    first, last = pgn.strip_bounds(data, 1, len(data) - 1, False)
    assert data[first:last].decode() == line.lstrip() and last == len(data) - 1


_TAG_PIECES = ["[", "]", " ", "\t", '"', "\\", "\\\\", '\\"', "White", "Ev_1", "é", "\u3000", "x", "\r", "{", "1-0",
               '\\"]', '"]', '\\\\"]']


@given(st.lists(st.sampled_from(_TAG_PIECES), max_size=14), st.sampled_from(["", "[White ", '[Event "']))
@settings(max_examples=1000, deadline=None)
def test_a_tag_pair_reads_as_the_step_by_step_reading_does(pieces, head):
    _reads_as_step_by_step(head + "".join(pieces))


def _reads_as_step_by_step(line: str) -> None:
    """``tag_pair`` and ``tag_pair_head`` (the line among others, its value's head) read
    ``line`` as the step-by-step reading does, or refuse it with its message."""
    data = b"x\n" + line.encode("utf-8", "surrogatepass") + b"\ny"
    try:
        name, value = pgn._tag_pair_stepwise(line)
    except NotationError as exc:
        with pytest.raises(NotationError, match=re.escape(str(exc))):
            pgn.tag_pair(line)
        for chars in (1, 3, 120):
            try:
                pgn.tag_pair_head(data, 2, len(data) - 2, chars)
            except NotationError as head_exc:
                assert str(head_exc) == str(exc)
            else:  # what is wrong lies past the head: its value runs on past 2 bytes a character
                assert len(line.encode("utf-8", "surrogatepass")) > 2 * chars
    else:
        assert pgn.tag_pair(line) == (name, value)
        for chars in (0, 1, 3, 120, 1000):
            assert pgn.tag_pair_head(data, 2, len(data) - 2, chars) == (name, value[:chars])


@pytest.mark.parametrize("value", ["", "x", '\\"' * 1000, "\\\\" * 1000, "é\\é" * 300, '\\\\\\"' * 300, '\\"' * 1001,
                                   "\\" * 1999 + '"', "a" * 1000 + "\\é", "a" * 1001, "a\\", "\\\\\\", 'a"b',
                                   'a\\\\"b', '\\""'])
def test_a_long_tag_value_reads_as_the_step_by_step_reading_does(value):
    _reads_as_step_by_step(f'[Event "{value}"]')


_SHOWN_CHARS = ("aZ –é\u00a0\u00c2\u0080\x85\x9f\x00\x1b\n\x7f\u061c\u0618\u200b\u200f\u2010\u2028\u202e"
                "\u202f\u2060\u2066\u2069\u206a\ufeff\ufefe\U0001f600\ud800\udfff")


@given(st.text(st.sampled_from(_SHOWN_CHARS) | st.characters(), max_size=30))
@settings(max_examples=500, deadline=None)
def test_text_is_made_visible_as_the_step_by_step_reading_does(text):
    assert visible(text) == visible_stepwise(text)
