"""The "New game" settings (yinsh.page.settings): their URL and localStorage forms, and the
choices the page's dialog offers."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

import yinsh.page.settings
from yinsh.page.links import open_page
from yinsh.page.settings import (
    DEFAULT_DELAY,
    DELAYS,
    PLAYER_KINDS,
    Settings,
    settings_from_json,
    settings_from_params,
    settings_to_json,
)
from yinsh.page.urls import read_params

ROOT = Path(__file__).resolve().parents[2]


def test_doctests():
    failures, tried = doctest.testmod(yinsh.page.settings, optionflags=doctest.ELLIPSIS)
    assert tried and not failures


# --------------------------------------------------------------------------- settings


ALL_SETTINGS = [Settings(w, b, v, d) for w in PLAYER_KINDS for b in PLAYER_KINDS
                for v in ("standard", "blitz") for d in (0, DEFAULT_DELAY, 4000)]


@pytest.mark.parametrize("settings", ALL_SETTINGS[::7] + [Settings(), Settings("ai-5", "ai-5", "blitz", 0)])
def test_settings_round_trip_through_json_and_url(settings):
    assert settings_from_json(settings_to_json(settings)) == settings
    from_url, notices = settings_from_params(read_params("?" + settings.query()), Settings(delay=settings.delay))
    assert not notices and from_url == settings
    # and through the whole page setup, as the page opens a link
    setup = open_page("?" + settings.query())
    assert setup.players == settings.players and setup.game.variant == settings.variant


def test_delay_only_in_the_url_when_two_computers_play():
    assert "delay" not in Settings("human", "ai-3", "standard", 250).query()
    assert Settings("ai-3", "ai-1", "standard", 250).query() == "white=ai-3&black=ai-1&delay=250"


@pytest.mark.parametrize("text", [None, "", "null", "[]", "42", '"ai-1"', "{", '{"white": 3}', '{"delay": "x"}',
                                  '{"delay": null}', '{"variant": ["blitz"]}', '{"white": "AI-2 "}'])
def test_bad_storage_never_raises(text):
    settings = settings_from_json(text)
    assert settings.white in PLAYER_KINDS and settings.black in PLAYER_KINDS
    assert settings.variant in ("standard", "blitz") and 0 <= settings.delay <= 10_000


def test_storage_values_are_cleaned():
    assert settings_from_json('{"white": "AI-2 ", "delay": 99999}') == Settings(white="ai-2", delay=10_000)
    assert settings_from_json('{"delay": -5, "variant": "BLITZ"}') == Settings(variant="blitz", delay=0)


def test_bad_url_values_give_notices():
    settings, notices = settings_from_params({"white": "robot", "variant": "speedy", "delay": "soon"})
    assert settings == Settings()
    assert len(notices) == 3 and all("Traceback" not in n for n in notices)
    assert open_page("?variant=blitz").game.variant == "blitz"


def test_dialog_offers_exactly_the_known_choices():
    """index.html's New game dialog lists the player kinds and pauses this module knows."""
    html = (ROOT / "index.html").read_text(encoding="utf-8")
    dialog = html[html.index('<dialog id="new-game-dialog"'):html.index("</dialog>")]
    for name in ("white", "black"):
        select = re.search(rf'<select name="{name}">(.*?)</select>', dialog, re.S)[1]
        assert re.findall(r'value="([^"]+)"', select) == list(PLAYER_KINDS)
    delays = re.search(r'<select name="delay">(.*?)</select>', dialog, re.S)[1]
    assert [int(v) for v in re.findall(r'value="(\d+)"', delays)] == list(DELAYS)
    assert DEFAULT_DELAY in DELAYS
    assert set(re.findall(r'name="variant" value="(\w+)"', dialog)) == {"standard", "blitz"}
    for action in ("start-game", "cancel-dialog"):
        assert f'data-action="{action}"' in dialog
    for action in ("hint", "undo", "new-game", "setup", "pause"):
        assert f'data-action="{action}"' in html
