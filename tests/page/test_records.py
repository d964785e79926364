"""Keeping and sharing games without a browser: record files (yinsh.page.records), links
(game_url, opponent_url, open_page) and the saved game (yinsh.page.saved).

Round trips run over random legal games (hypothesis picks the seeds); the readers are fuzzed
with corrupt input, and may only raise the errors they document.
"""

from __future__ import annotations

import datetime
import doctest
import json
import random

import pytest
from helpers import DATA, game_at, load
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import yinsh.page.records
import yinsh.page.saved
from yinsh import Game, IllegalMoveError, NotationError
from yinsh.link import decode_game, encode_game
from yinsh.page.links import from_the_start, game_url, open_page, opponent_url
from yinsh.page.records import (
    export_record,
    export_tags,
    import_error_message,
    list_import,
    players_for_record,
    read_import,
    record_filename,
    record_title,
)
from yinsh.page.saved import SAVED_VERSION, SavedGameError, saved_from_json, saved_to_json
from yinsh.page.settings import REMOTE, Settings
from yinsh.playout import random_move
from yinsh.state import BLACK

DAY = datetime.date(2026, 11, 29)
GAMES = load("games.ygn")
KINDS = st.sampled_from(["human", "ai-1", "ai-3", "ai-5", REMOTE])
SETTINGS = st.builds(Settings, KINDS, KINDS, st.just("standard"), st.sampled_from([0, 250, 1000, 4000]))


@st.composite
def games(draw) -> Game:
    """A random legal game: from the empty board or from a position reached by one, cut at
    any ply (finished or not), in either variant."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    variant = draw(st.sampled_from(["standard", "blitz"]))
    plies = draw(st.integers(0, 120))
    game = Game(variant)  # type: ignore[arg-type]
    if draw(st.booleans()):
        while game.result is None and game.ply < plies // 2:
            game.push(random_move(game.state, rng))
        game = Game.from_position(game.position())
    while game.result is None and game.ply < plies:
        game.push(random_move(game.state, rng))
    return game


def split_url(url: str) -> tuple[str, str, str]:
    """``(path, "?query", "#hash")`` of a link, as ``location`` gives them."""
    rest, _, hash_ = url.partition("#")
    path, _, query = rest.partition("?")
    return path, "?" + query if query else "", "#" + hash_ if hash_ else ""


def same_game(a: Game, b: Game) -> bool:
    return (a.moves == b.moves and a.state == b.state and a.start_state == b.start_state
            and a.start_ply == b.start_ply and a.variant == b.variant)


@pytest.mark.parametrize("module", [yinsh.page.records])
def test_doctests(module):
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried and not failures


# --------------------------------------------------------------------------- round trips


@given(games(), SETTINGS)
@settings(max_examples=40, deadline=None)
def test_an_exported_record_reads_back_to_the_same_game_and_tags(game, chosen):
    text = export_record(game, chosen, DAY)
    [record] = read_import(text)
    assert same_game(record.game, game)
    expected = export_tags(game, chosen, DAY)
    assert {k: v for k, v in record.tags.items() if k != "Position"} == expected
    assert ("Position" in record.tags) == (game.start_ply > 0)


@given(games(), SETTINGS)
@settings(max_examples=40, deadline=None)
def test_the_page_link_reopens_the_same_game_with_the_same_players(game, chosen):
    chosen = chosen._replace(variant=game.variant)
    assume(from_the_start(game) or REMOTE not in chosen.players.values())  # play by link starts at move 0
    _, query, hash_ = split_url(game_url("/index.html", chosen.players, game, chosen))
    setup = open_page(query, hash_)
    nobody_here = chosen.white == chosen.black == REMOTE
    assert len(setup.notices) == nobody_here and all("nobody plays on this page" in n for n in setup.notices)
    assert same_game(setup.game, game) or (not game.moves and setup.game.state == game.state)
    assert setup.players == chosen.players


@given(games())
@settings(max_examples=30, deadline=None)
def test_the_link_for_the_opponent_opens_the_game_from_their_side(game):
    if not from_the_start(game):
        with pytest.raises(ValueError, match="cannot be played by link"):
            opponent_url("/", game, Settings(variant=game.variant))
        return
    _, query, hash_ = split_url(opponent_url("/", game, Settings(black="ai-2", variant=game.variant)))
    setup = open_page(query, hash_)
    assert same_game(setup.game, game) or (not game.moves and setup.game.state == game.state)
    mover = "white" if game.state.turn == 0 else "black"
    other = "black" if mover == "white" else "white"
    assert setup.players == {mover: "human", other: REMOTE}
    assert setup.settings.variant == game.variant


@given(games(), SETTINGS, st.integers(0, 2**53))
@settings(max_examples=40, deadline=None)
def test_a_saved_game_reads_back_with_its_settings_and_time(game, chosen, time):
    chosen = chosen._replace(variant=game.variant)
    saved = saved_from_json(saved_to_json(game, chosen, time))
    assert same_game(saved.game, game) and saved.settings == chosen and saved.time == time
    assert json.loads(saved_to_json(game, chosen, time))["version"] == SAVED_VERSION


@given(games())
@settings(max_examples=30, deadline=None)
def test_record_link_and_saved_game_all_describe_one_game(game):
    from_record = read_import(export_record(game, Settings(), DAY))[0].game
    from_link = decode_game(encode_game(from_record))
    from_saved = saved_from_json(saved_to_json(from_link, Settings(), 0)).game
    assert same_game(from_saved, game) and from_saved.record() == game.record()


# --------------------------------------------------------------------------- record files


class TestRecordFiles:
    def test_tags_name_players_levels_date_variant_result(self):
        game = read_import((DATA / "scenarios.ygn").read_text())[2].game  # out of markers: 0-1
        tags = export_tags(game, Settings("ai-2", REMOTE), DAY)
        assert tags == {"White": "Computer (level 2)", "Black": "Opponent (by link)", "WhiteLevel": "2",
                        "Date": "2026.11.29", "Variant": "standard", "Result": "0-1", "Termination": "markers"}
        assert list(tags) == ["White", "Black", "WhiteLevel", "Date", "Variant", "Result", "Termination"]
        going_on = export_tags(Game.from_record("1.e3"), Settings(), DAY)
        assert going_on["Result"] == "*" and "Termination" not in going_on
        assert record_filename(DAY) == "yinsh-2026-11-29.ygn"

    @pytest.mark.parametrize("path", sorted((DATA / "boardspace").glob("*.sgf")), ids=lambda p: p.stem)
    def test_every_boardspace_file_imports_to_its_game(self, path):
        [record] = read_import(path.read_text(encoding="utf-8"))
        expected = next(r for r in GAMES if r.tags["Game"] == path.stem)
        assert record.game.record() == expected.game.record()

    def test_a_file_of_several_games_gives_them_all(self):
        records = read_import((DATA / "games.ygn").read_text(encoding="utf-8"))
        assert [r.game.record() for r in records] == [r.game.record() for r in GAMES]

    @pytest.mark.parametrize("text, message", [
        ("1.e3 2.e3", "Move 2 (Black: e3): e3 already holds a ring."),
        ("1.e3 2.a5 3.zz", "Move 3 (White: zz): cannot read 'zz'."),
        ("1.e3 3.a5", "Move 2: found the number 3. where 2. was expected."),
        ('[White "A"]\n1.e3\n\n[White "B"]\n1.e3 2.e3', "Game 2 of 2, move 2 (Black: e3): e3 already holds a ring."),
        ("  \n", "There is no record: paste one or choose a file."),
        ("# only a comment\n", "The text holds no game record, only comments."),
        ("(;GM[1]SU[chess])", "The SGF record is a game of chess, not YINSH."),
    ])
    def test_a_bad_record_says_where_and_why(self, text, message):
        with pytest.raises((NotationError, IllegalMoveError)) as caught:
            read_import(text)
        assert import_error_message(caught.value) == message

    @pytest.mark.parametrize("move, reason", [("zz", "cannot read 'zz'"),
                                              ("a5-a4", "the ring on a5 is white's")])
    def test_the_colour_named_is_the_one_that_moves_in_the_game(self, move, reason):
        """From a position code, Black may move on an odd number: the message says Black."""
        start = game_at(["a5", "b1", "c1", "d1", "e1"], ["k7", "k8", "k9", "k10", "j11"], turn=BLACK)
        assert start.ply + 1 == 41 and start.to_move == "black"
        with pytest.raises((NotationError, IllegalMoveError)) as caught:
            read_import(f'[Position "{start.position()}"]\n\n41.{move}')
        assert import_error_message(caught.value) == f"Move 41 (Black: {move}): {reason}."

    def test_a_wrong_ring_move_names_the_move_and_the_reason(self):
        moves = "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8 11.e3-e10"
        with pytest.raises(IllegalMoveError) as caught:
            read_import(moves)
        assert import_error_message(caught.value) == (
            "Move 11 (White: e3-e10): the ring cannot pass over the ring on e4.")


# --------------------------------------------------------------------------- fuzzing


def _mutations(text: str) -> st.SearchStrategy[str]:
    """``text`` with a slice replaced by random characters (drawn from the text's own and a few more)."""
    alphabet = st.sampled_from(sorted(set(text) | set("0123456789-_.;x[]\"{}:,\\ \n")))
    return st.tuples(st.integers(0, len(text)), st.integers(0, 8), st.text(alphabet, max_size=8)).map(
        lambda t: text[: t[0]] + t[2] + text[t[0] + t[1]:])


SAMPLE = GAMES[1].game
SAVED_SAMPLE = saved_to_json(SAMPLE, Settings(black="ai-3"), 1764400000000)
RECORD_SAMPLE = export_record(SAMPLE, Settings(), DAY)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
    max_leaves=12)
SAVED_SHAPES = st.fixed_dictionaries({}, optional={"version": JSON_VALUES | st.integers(-2, 3), "game": JSON_VALUES,
                                                   "settings": JSON_VALUES, "time": JSON_VALUES})


@given(st.one_of(_mutations(SAVED_SAMPLE), st.text(max_size=200), JSON_VALUES.map(json.dumps),
                 SAVED_SHAPES.map(json.dumps)))
@settings(max_examples=300, deadline=None)
def test_fuzzed_saved_data_gives_only_saved_game_errors(text):
    try:
        saved = saved_from_json(text)
    except SavedGameError:
        return
    assert isinstance(saved.game, Game)


@given(st.one_of(_mutations(encode_game(SAMPLE)), st.text(max_size=40).map(lambda t: "G1" + t)))
@settings(max_examples=300, deadline=None)
def test_fuzzed_game_codes_give_only_the_two_errors(code):
    try:
        decode_game(code)
    except (NotationError, IllegalMoveError):
        pass
    setup = open_page("", "#g=" + code.replace("&", "%26").replace("#", "%23"))
    assert isinstance(setup.game, Game)


@given(st.one_of(_mutations(RECORD_SAMPLE), _mutations((DATA / "boardspace" / "Y-DrMih-Dumbot-2026-02-20-0858.sgf")
                                                       .read_text(encoding="utf-8")[:3000]), st.text(max_size=100)))
@settings(max_examples=200, deadline=None)
def test_fuzzed_import_text_gives_only_the_two_errors(text):
    try:
        records = read_import(text)
    except (NotationError, IllegalMoveError) as exc:
        assert import_error_message(exc)
        return
    assert records and all(isinstance(r.game, Game) for r in records)


class TestListing:
    """The Open record dialog lists the games of a text without replaying them; the one chosen
    is replayed (and checked) when it is opened."""

    def test_a_bad_move_in_one_game_shows_when_that_game_is_opened(self):
        text = '[Game "A"]\n1.e3 2.a5\n\n[Game "B"]\n1.e3 2.e3\n\n[Game "C"]\n[Result "1-0"]\n1.e3'
        listed = list_import(text)
        assert [g.label() for g in listed] == ["1. A, 2 moves", "2. B, 2 moves", "3. C, 1 move, 1-0"]
        assert listed[0].record().game.record() == "1.e3 2.a5"
        with pytest.raises(IllegalMoveError, match="^game 2 of 3: move 2: "):
            listed[1].record()
        assert listed[2].record().game.record() == "1.e3"

    def test_a_game_whose_shown_tags_cannot_be_read_is_named(self):
        with pytest.raises(NotationError, match="^game 2 of 2: cannot read the tag pair"):
            list_import('[Game "A"]\n1.e3\n\n[Game "B]\n1.e3')

    def test_a_game_that_cannot_be_read_is_listed_and_named_when_opened(self):
        listed = list_import('[Game "A"]\n1.e3\n\n[Game "B"]\n1.e3 3.a5 {unclosed')
        assert [g.label() for g in listed] == ["1. A, 1 move", "2. B, 3 moves"]  # from its numbers: 1 to 3
        with pytest.raises(NotationError, match="^game 2 of 2: the comment '{unclosed' is never closed"):
            listed[1].record()

    def test_reading_every_game_is_listing_then_replaying_each(self):
        text = (DATA / "games.ygn").read_text(encoding="utf-8")
        assert [r.game.record() for r in read_import(text)] == [g.record().game.record() for g in list_import(text)]


def _random_game(seed: int, length: int) -> Game:
    rng, game = random.Random(seed), Game()
    while game.result is None and len(game.moves) < length:
        game.push(random_move(game.state, rng))
    return game


@st.composite
def _written_games(draw):  # type: ignore[no-untyped-def]
    """A random game's record as people write one: tags, comments (dots and numbers inside),
    line breaks, ``12...`` before a move, or no numbers at all; and as a hostile paste may:
    spaces beyond ASCII, lines left out holding dots and braces."""
    game = _random_game(draw(st.integers(0, 10 ** 6)), draw(st.integers(0, 120)))
    tags = draw(st.dictionaries(st.sampled_from(["White", "Black", "Date", "Result", "Event", "Round", "Site"]),
                                st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs")), max_size=12),
                                max_size=4))
    unnumbered = draw(st.booleans()) and all(" " not in str(m) for m in game.moves)
    words = [str(m) if unnumbered else f"{n}{draw(st.sampled_from(['.', '...']))}{m}"
             for n, m in enumerate(game.moves, 1)]
    comment = st.text(st.sampled_from("ab 1.2.. x"), max_size=8).map(lambda t: "{" + t + "}")
    out = []
    for word in words:
        if not unnumbered and draw(st.integers(0, 5)) == 0:
            out.append(draw(comment))
        out.append(word)
        out.append(draw(st.sampled_from([" ", " ", " ", "\n", "\x1c", "\u00a0\n", " \n\n# 3. {x\n%}.\n  "])))
    if not unnumbered and draw(st.booleans()):
        out.append(draw(comment))
    if draw(st.booleans()):
        out.append(draw(st.sampled_from(["*", "1-0", "0-1", "1/2-1/2"])))
    header = "\n".join(f'[{name} "{value.replace(chr(92), "").replace(chr(34), "")}"]' for name, value in tags.items())
    return (header + "\n\n" if header else "") + "".join(out).strip()


@given(_written_games())
@settings(max_examples=300, deadline=None)
def test_the_listing_glance_says_what_reading_says(text):
    """The list's quick glance at a game (Listed: a few scans in C) against reading it whole."""
    try:
        record = read_import(text)
    except (NotationError, IllegalMoveError):
        assume(False)
    (listed,) = list_import(text)
    (record,) = record
    assert listed.moves == len(record.game.moves)
    assert listed.tags == {k: v for k, v in record.tags.items() if k in ("White", "Black", "Date", "Result", "Event")}


_SHOWN = ("White", "Black", "Date", "Result", "Event", "Game", "Scenario")
_TAG_CHARS = st.sampled_from(['"', "\\", "a", " ", "\u00a0", "{", "}", "é", "\u202e", "]"])


@st.composite
def _tag_blocks(draw):  # type: ignore[no-untyped-def]
    """Tag pair lines as a hostile paste writes them: escaped quotes and backslashes, names
    repeated, spaces (odd ones too) around names, values and lines, a value cut short, a tag
    pair inside a ``{comment}`` that spans lines, a name that only starts like a shown one."""
    lines = []
    moves = "1.e3 2.a5"
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.integers(0, 9))
        if kind == 0:  # in the movetext: a comment line starting "[" is no tag (a tag line would start a game)
            moves = (f'1.e3 {draw(st.sampled_from(["{", "{a remark", "{x} {"]))}\n'
                     f'[{draw(st.sampled_from(_SHOWN))} "in a comment"]\n{draw(st.sampled_from(["}", "end}"]))} 2.a5')
            continue
        name = draw(st.sampled_from(_SHOWN + ("WhiteElo", "Site", "Whites")))
        value = "".join(draw(st.lists(_TAG_CHARS, max_size=6)))
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        if kind == 1:
            escaped = value  # unescaped quotes and backslashes: maybe not a tag pair that reads
        pad = draw(st.sampled_from(["", " ", "\t", "\u00a0"]))
        before, gap, after = (draw(st.sampled_from(options)) for options in (["", " "], [" ", "  ", "\t"], ["", " "]))
        lines.append(f'{pad}[{before}{name}{gap}"{escaped}"{after}]{pad}')
    return "\n".join(lines + [moves])


@given(_tag_blocks())
@settings(max_examples=400, deadline=None)
def test_the_listing_reads_the_shown_tags_as_reading_does(text):
    """The list reads only the tags it shows, each from its line: what it shows is what reading
    the whole record gives (the last of a repeated name; a tag pair in a comment is no tag)."""
    try:
        (record,) = read_import(text)
    except NotationError:
        assume(False)
    (listed,) = list_import(text)
    assert listed.moves == 2
    assert listed.tags == {k: v for k, v in record.tags.items() if k in _SHOWN}
    assert list(listed.tags) == [k for k in record.tags if k in _SHOWN]
    assert listed.label() == f"1. {yinsh.page.records._title(record.tags, 120)}, 2 moves"


class TestPlayersForRecord:
    """Opening a record while a computer plays keeps it on its colour, and says so."""

    def test_the_computer_keeps_its_colour_in_a_game_in_progress(self):
        game = Game.from_record("1.e3 2.a5 3.b5")
        settings, said = players_for_record(game, Settings(white="human", black="ai-3", delay=250))
        assert (settings.white, settings.black, settings.delay) == ("human", "ai-3", 250)
        assert said == ["Black is still played by the computer (AI 3); New game… changes who plays."]

    def test_two_computers_play_on(self):
        settings, said = players_for_record(Game.from_record("1.e3"), Settings(white="ai-1", black="ai-5"))
        assert (settings.white, settings.black) == ("ai-1", "ai-5") and "Pause stops them" in said[0]

    def test_people_stay_by_hand_and_a_link_player_becomes_one(self):
        settings, said = players_for_record(Game.from_record("1.e3"), Settings(white="human", black="remote"))
        assert (settings.white, settings.black, said) == ("human", "human", [])

    def test_a_finished_game_needs_no_word_and_takes_its_variant(self):
        finished = next(r.game for r in GAMES if r.game.result is not None)
        settings, said = players_for_record(finished, Settings(black="ai-2", variant="blitz"))
        assert settings.variant == finished.variant and settings.black == "ai-2" and said == []


def test_a_long_name_is_cut_short_in_the_list_not_in_the_game():
    name = "Ann" * 333
    (listed,) = list_import(f'[White "{name}"]\n[Black "Bo"]\n1.e3')
    label = listed.label()
    assert label.startswith("1. AnnAnn") and "…" in label and label.endswith(", 1 move") and len(label) < 150
    assert listed.record().tags["White"] == name and name in record_title(listed.record())
