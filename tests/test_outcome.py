"""How a game ended (yinsh.outcome): the value, its two wordings, and every place that tells
the end of a game using them."""

from __future__ import annotations

import datetime

import pytest
from helpers import DATA, load

from yinsh import Game
from yinsh.outcome import TERMINATIONS, Outcome
from yinsh.page.access import result_announcement
from yinsh.page.records import export_tags, record_title
from yinsh.page.session import Session
from yinsh.page.settings import Settings
from yinsh.page.status import status
from yinsh.page.words import prompt
from yinsh.record import read_record
from yinsh.turn import Turn, result_text

GAMES = load("games.ygn") + load("scenarios.ygn")
FINISHED = [r for r in GAMES if r.game.outcome is not None]


@pytest.mark.parametrize("outcome, long, short", [
    (Outcome("rings", "white", (3, 1), 3), "White wins: three rings removed (3 to 1)", "White wins 3 to 1"),
    (Outcome("rings", "black", (0, 1), 1), "Black wins: 1 ring removed (1 to 0)", "Black wins 1 to 0"),
    (Outcome("markers", "black", (0, 1), 3), "Black wins: the markers ran out, Black removed 1 ring to 0",
     "Black wins 1 to 0: the markers ran out"),
    (Outcome("markers", None, (2, 2), 3), "Draw: the markers ran out with 2 rings removed each",
     "Draw, 2 to 2: the markers ran out"),
    (Outcome("passes", "white", (2, 1), 3), "White wins: both players passed in a row, White removed 2 rings to 1",
     "White wins 2 to 1: both players passed"),
    (Outcome("passes", None, (0, 0), 3), "Draw: both players passed in a row with 0 rings removed each",
     "Draw, 0 to 0: both players passed"),
])
def test_the_two_wordings(outcome, long, short):
    assert outcome.text() == long and outcome.text(short=True) == short
    assert outcome.result == {"white": "1-0", "black": "0-1", None: "1/2-1/2"}[outcome.winner]


def test_a_game_going_on_has_no_outcome():
    game = Game.from_record("1.e3 2.a5")
    assert game.outcome is None and game.result is None and game.termination is None
    assert result_text(game) is None and result_announcement(game) is None


@pytest.mark.parametrize("record", FINISHED, ids=lambda r: r.tags.get("Game") or r.tags.get("Scenario"))
def test_a_finished_game_and_every_place_that_tells_its_end(record):
    game = record.game
    done = game.outcome
    assert done.termination in TERMINATIONS and done.termination == game.termination
    assert done.result == game.result == record.tags["Result"]
    assert done.score == game.score and done.rings_to_win == game.state.rings_to_win
    assert result_text(game) == done.text() == prompt(Turn(game))
    assert result_announcement(game) == done.text(short=True)
    tags = export_tags(game, Settings(), datetime.date(2026, 11, 29))
    assert (tags["Result"], tags["Termination"]) == (done.result, done.termination)
    assert record_title(record).endswith(f", {done.result})")
    banner = status(Session(game, Settings())).banner
    assert banner is not None and f"{banner[0]}: {banner[1][:1].lower()}{banner[1][1:]}" == done.text()


def test_an_sgf_file_has_the_tags_of_its_outcome():
    record = read_record((DATA / "boardspace" / "Y-BraveCombo-Dumbot-2026-03-20-0237.sgf").read_text())
    assert (record.tags["Result"], record.tags["Termination"]) == (record.game.outcome.result, "rings")
