"""The game kept in localStorage (yinsh.page.saved): its JSON form, read back or refused."""

from __future__ import annotations

import doctest
import json

import pytest

import yinsh.page.saved
from yinsh import Game
from yinsh.link import encode_game
from yinsh.page.links import open_page
from yinsh.page.saved import SavedGameError, saved_from_json, saved_to_json
from yinsh.page.settings import Settings


def test_doctests():
    failures, tried = doctest.testmod(yinsh.page.saved, optionflags=doctest.ELLIPSIS)
    assert tried and not failures


class TestSavedGame:
    SAVED = saved_to_json(Game.from_record("1.e3 2.a5"), Settings(black="ai-2"), 1)

    def test_a_bare_url_reopens_the_saved_game_and_its_players(self):
        setup = open_page("", "", None, self.SAVED)
        assert setup.game.record() == "1.e3 2.a5" and setup.players["black"] == "ai-2" and not setup.notices

    @pytest.mark.parametrize("search, hash_", [
        ("?record=1.f5", ""), ("", "#g=" + encode_game(Game.from_record("1.f5"))),
        ("?black=ai-4", ""), ("?variant=blitz", ""), ("?you=white", ""),
    ])
    def test_a_url_that_asks_for_a_game_or_players_wins_over_the_saved_game(self, search, hash_):
        setup = open_page(search, hash_, None, self.SAVED)
        assert setup.game.record() != "1.e3 2.a5"

    @pytest.mark.parametrize("text, reason", [
        ("{oops", "it is not JSON"),
        ("[1, 2]", "it is not a saved YINSH game"),
        ('{"game": "G1HDl_vAAADMw"}', "it is not a saved YINSH game"),
        ('{"version": "1"}', "its version '1' is not a number"),
        ('{"version": true}', "its version True is not a number"),
        ('{"version": 2, "game": "G1HDl_vAAADMw", "settings": {}}', "newer version of this page, in format 2"),
        ('{"version": 0}', "its version 0 is unknown"),
        ('{"version": 1}', "it holds no game"),
        ('{"version": 1, "game": "G1HDl_vAAADMx", "settings": {}}', "its game is damaged"),
        ('{"version": 1, "game": "G1HDl_vAAADMw", "settings": []}', "it holds no settings"),
        ('{"version": 1, "game": "G1HDl_vAAADMw", "settings": {}, "time": "noon"}', "is not a time"),
        ('{"version": 1, "game": "G1HDl_vAAADMw", "settings": {}, "time": NaN}', "is not a time"),
    ])
    def test_unreadable_saved_data_says_why(self, text, reason):
        with pytest.raises(SavedGameError, match=reason):
            saved_from_json(text)
        setup = open_page("", "", None, text)
        assert setup.game.ply == 0
        assert setup.notices[0].startswith("Your saved game could not be read: ")
        assert setup.notices[0].endswith(". A new game has started.")

    def test_unknown_keys_and_bad_settings_of_version_1_are_ignored(self):
        data = json.loads(self.SAVED)
        data["later"] = {"anything": 1}
        data["settings"]["white"] = "robot"
        saved = saved_from_json(json.dumps(data))
        assert saved.game.record() == "1.e3 2.a5" and saved.settings.white == "human"
