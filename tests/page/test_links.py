"""The page's links (yinsh.page.links): the game and settings a URL opens, and the links the page
writes."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import yinsh.page.links
from yinsh import Game
from yinsh.board import parse_point
from yinsh.link import encode_game
from yinsh.page.links import game_url, moves_chosen_for, open_page, opponent_link_use
from yinsh.page.saved import saved_to_json
from yinsh.page.session import Session
from yinsh.page.settings import (
    REMOTE,
    Settings,
)
from yinsh.page.status import status
from yinsh.record import read_records

NOTATION_EXAMPLE = "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8"
DATA = Path(__file__).resolve().parents[1] / "data"


def test_doctests():
    failures, tried = doctest.testmod(yinsh.page.links, optionflags=doctest.ELLIPSIS)
    assert tried and not failures


def test_stored_choice_applies_only_when_the_url_names_no_player():
    stored = Settings("ai-1", "ai-2", "blitz", 500)
    assert open_page("", "", stored).settings == stored
    assert open_page("", "", stored).game.variant == "blitz"
    # a link with players decides them (a colour it leaves out is a person); the pace stays
    assert open_page("?black=ai-4", "", stored).settings == Settings("human", "ai-4", "standard", 500)
    # a link with only a game keeps the stored players, and the game's own rules
    setup = open_page("", "#record=" + NOTATION_EXAMPLE.replace(" ", "%20"), stored)
    assert setup.players == stored.players and setup.settings.variant == "standard"
    assert setup.game.record() == NOTATION_EXAMPLE


def test_game_url_keeps_the_variant_and_the_pace():
    game = Game("blitz")
    game.play("e3")
    settings = Settings("ai-1", "ai-1", "blitz", 0)
    url = game_url("/index.html", settings.players, game, settings)
    search, _, hash_ = url.partition("?")[2].partition("#")
    setup = open_page("?" + search, "#" + hash_)
    assert setup.settings == settings and setup.game.record() == game.record()
    assert setup.game.variant == "blitz"


class TestLinks:
    def test_the_page_keeps_the_whole_game_code_in_its_hash(self):
        game = Game.from_record("1.e3 2.a5 3.b5")
        url = game_url("/", {"white": "human", "black": "ai-2"}, game)
        assert url == "/?black=ai-2#g=" + encode_game(game)

    def test_old_record_and_position_links_still_open(self):
        game = Game.from_record("1.e3 2.a5 3.b5")
        assert open_page("?record=1.e3+2.a5+3.b5").game.record() == game.record()
        assert open_page("", "#position=" + game.position()).game.state == game.state

    def test_a_game_code_wins_over_a_record_and_says_so(self):
        game = Game.from_record("1.e3 2.a5")
        setup = open_page("?record=1.f5", "#g=" + encode_game(game))
        assert setup.game.record() == "1.e3 2.a5"
        assert setup.notices == ["The link gives a game in 2 forms: the game code is used."]

    @pytest.mark.parametrize("code", ["G1", "G1zz", "Gx", "G1HDl_vAAADMx", "G1HDl_vAAADMw" + "A" * 40, "G1!!!!"])
    def test_a_bad_game_code_gives_a_notice_and_a_fresh_game(self, code):
        setup = open_page("", "#g=" + code)
        assert setup.game.ply == 0 and len(setup.notices) == 1
        assert setup.notices[0].startswith("Could not open the game code in the link (")

    def test_you_makes_the_other_side_the_remote_player(self):
        setup = open_page("?you=black", "#g=G1HDl_vAAADMw")
        assert setup.players == {"white": REMOTE, "black": "human"}
        assert setup.settings.query() == "you=black"

    def test_a_reply_link_adding_the_opponents_move_opens_without_a_question(self):
        mine = Game.from_record("1.e3 2.a5 3.b5")  # White here, Black to move on their device
        reply = Game.from_record("1.e3 2.a5 3.b5 4.c6")
        setup = open_page("?you=white", "#g=" + encode_game(reply), current=(mine, Settings(black=REMOTE)))
        assert setup.source == "link" and setup.previous is None and setup.notices == []

    def test_a_reply_link_that_also_plays_for_you_asks_first(self):
        """Issue 23: a link opened with you=white could add White's moves to White's game."""
        mine = Game.from_record("1.e3 2.a5 3.b5")
        reply = Game.from_record("1.e3 2.a5 3.b5 4.c6 5.d6")
        for saved, current in ((None, (mine, Settings(black=REMOTE))),
                               (saved_to_json(mine, Settings(black=REMOTE), 1), None)):
            setup = open_page("?you=white", "#g=" + encode_game(reply), saved=saved, current=current)
            assert setup.source == "link" and setup.game.record() == reply.record()
            assert setup.previous is not None and setup.previous[0].record() == mine.record()
            assert setup.notices == ["The link also plays for you (White: d6), not only your opponent's moves."]

    def test_only_the_moves_you_chose_count_not_those_forced_on_you(self):
        from test_rules import _blocked

        blocked = _blocked(extra_black=("e5",))  # White to move: only a pass; Black has moves
        earlier = Game.from_state(blocked.start_state, blocked.start_ply)
        forced = earlier.copy()
        forced.play("pass")
        forced.push(forced.legal_moves()[0])
        assert moves_chosen_for("white", forced, earlier) == []
        assert moves_chosen_for("black", forced, earlier) == [str(forced.moves[-1])]

    def test_a_game_where_both_sides_play_by_link_says_nobody_plays_here(self):
        setup = open_page("?white=remote&black=remote", "#g=G1HDl_vAAADMw")
        assert setup.players == {"white": REMOTE, "black": REMOTE}
        assert setup.notices == ["Both sides play by link on their own devices: nobody plays on this page, "
                                 "it only shows the game."]
        session = Session(setup.game, setup.settings)
        shown = status(session)
        assert shown.prompt == "Black to move: nobody plays on this page"
        session.click_point(parse_point("c6"))
        assert session.game.ply == 3 and "plays on their own device" in session.message

    def test_an_unknown_side_for_you_gives_a_notice(self):
        setup = open_page("?you=purple")
        assert setup.players == {"white": "human", "black": "human"}
        assert setup.notices == ["Unknown side 'purple' for you: expected white or black. "
                                 "Both sides are played on this device."]


@pytest.mark.parametrize("record, players, offered", [
    ("1.e3", {"white": "human", "black": "human"}, "They play their move and send you a link back."),
    ("1.e3", {"white": "human", "black": "remote"}, "They play their move and send you a link back."),
    ("1.e3", {"white": "ai-2", "black": "human"}, ""),
    ("1.e3", {"white": "remote", "black": "ai-1"}, ""),
])
def test_the_link_for_the_opponent_in_a_game_in_progress(record, players, offered):
    assert opponent_link_use(Game.from_record(record), players) == offered


def test_the_link_for_the_opponent_in_a_finished_game():
    finished = next(r.game for r in read_records((DATA / "games.ygn").read_text(encoding="utf-8"))
                    if r.game.result is not None)
    assert finished.result is not None
    assert opponent_link_use(finished, {"white": "human", "black": "human"}) == ""
    assert opponent_link_use(finished, {"white": "remote", "black": "human"}) == "It shows them how the game ended."
    assert opponent_link_use(finished, {"white": "ai-3", "black": "human"}) == ""
