"""The page's browser-free helpers (yinsh.web) and the AI worker's functions (yinsh.web.worker),
under CPython: the "New game" settings and their URL and localStorage forms, and the worker's
text-in, text-out boundary."""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

import pytest

import yinsh.page.links
import yinsh.web.worker as worker
from yinsh.bench import midgame_positions
from yinsh.game import Game
from yinsh.page.links import game_from_text, game_url, open_page, read_params
from yinsh.page.settings import (
    DEFAULT_DELAY,
    DELAYS,
    PLAYER_KINDS,
    Settings,
    settings_from_json,
    settings_from_params,
    settings_to_json,
)

ROOT = Path(__file__).resolve().parents[2]
NOTATION_EXAMPLE = "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8"


@pytest.mark.parametrize("module", [yinsh.page.links, worker])
def test_doctests(module):
    """pytest's doctest run skips yinsh/web (its glue needs a browser); these two do not."""
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
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


def test_bad_url_values_give_notices():
    settings, notices = settings_from_params({"white": "robot", "variant": "speedy", "delay": "soon"})
    assert settings == Settings()
    assert len(notices) == 3 and all("Traceback" not in n for n in notices)
    assert open_page("?variant=blitz").game.variant == "blitz"


def test_game_url_keeps_the_variant_and_the_pace():
    game = Game("blitz")
    game.play("e3")
    settings = Settings("ai-1", "ai-1", "blitz", 0)
    url = game_url("/index.html", settings.players, game, settings)
    search, _, hash_ = url.partition("?")[2].partition("#")
    setup = open_page("?" + search, "#" + hash_)
    assert setup.settings == settings and setup.game.record() == game.record()
    assert setup.game.variant == "blitz"


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


# --------------------------------------------------------------------------- the worker boundary


def test_game_from_text_reads_records_and_positions():
    game = Game.from_record(NOTATION_EXAMPLE)
    assert game_from_text(NOTATION_EXAMPLE).state == game.state
    assert game_from_text(" " + game.position() + "\n").state == game.state
    assert game_from_text("").ply == 0  # an empty record is a new game


def test_worker_hello():
    assert json.loads(worker.hello())["ok"] is True
    assert set(worker.__export__) == {"hello", "think", "bench", "evaluate"}


@pytest.mark.parametrize("level", [1, 2])
def test_worker_plays_a_legal_move_from_a_position_code(level):
    for state in midgame_positions(4, seed=11):
        game = Game.from_state(state, 30)
        answer = json.loads(worker.think(game.position(), level, 3))
        assert answer["ok"] and answer["ply"] == 30
        assert game.parse_move(answer["move"]) in game.legal_moves()
        assert answer["seconds"] >= 0 and answer["depth"] >= 0


@pytest.mark.parametrize("game, level", [("nonsense", 1), (NOTATION_EXAMPLE, 9), ("Y1AAAAA", 1),
                                         (NOTATION_EXAMPLE, "x")])
def test_worker_failures_are_answers_not_exceptions(game, level):
    answer = json.loads(worker.think(game, level))
    assert answer["ok"] is False and answer["error"] and "Traceback" not in answer["error"]


def test_worker_refuses_a_finished_game():
    from yinsh.record import read_records

    finished = next(r.game for r in read_records((ROOT / "tests" / "data" / "games.ygn").read_text(encoding="utf-8"))
                    if r.game.result is not None)
    assert json.loads(worker.think(finished.position(), 1)) == {"ok": False, "error": "the game is over"}


def test_worker_bench():
    codes = "\n".join(Game.from_state(s, 30).position() for s in midgame_positions(3, seed=5))
    answer = json.loads(worker.bench(codes, 1))
    assert answer["ok"] and len(answer["seconds"]) == len(answer["moves"]) == 3
    assert json.loads(worker.bench("garbage", 1))["ok"] is False
