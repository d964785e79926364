"""What the game page shows, browser-free (yinsh.page.status): here, a past position under
review shows that position's score, pool and player to move, never the present's result."""

from __future__ import annotations

from pathlib import Path

from yinsh.page.session import Session
from yinsh.page.settings import Settings
from yinsh.page.status import status
from yinsh.record import read_records
from yinsh.state import pool

DATA = Path(__file__).resolve().parents[1] / "data"
#: A whole game won by Black 3 to 2.
BRAVE_COMBO = next(r.game for r in read_records((DATA / "games.ygn").read_text(encoding="utf-8"))
                   if r.tags["Game"] == "Y-BraveCombo-Dumbot-2026-03-20-0237")


def finished_game() -> Session:
    return Session(BRAVE_COMBO, Settings())


def test_the_present_shows_the_result_and_the_final_numbers():
    shown = status(finished_game())
    assert shown.prompt == "Black wins: three rings removed (3 to 2)"
    assert [(p.score, p.at) for p in shown.players] == [(2, ""), (3, "")]
    assert shown.pool == pool(BRAVE_COMBO.state) and shown.pool_at == ""


def test_a_past_position_shows_its_own_score_pool_and_player_to_move():
    session = finished_game()
    session.review(12)
    shown = status(session)
    past = BRAVE_COMBO.state_at(12)
    assert shown.pool == pool(past) == 51 - 2  # two markers after the ten placements
    assert shown.pool_at == "at move 12"
    assert [(p.score, p.at) for p in shown.players] == [(0, "at move 12"), (0, "at move 12")]
    assert "wins" not in shown.prompt and shown.prompt == "At move 12: White to move"
    assert [p.active for p in shown.players] == [True, False]
    assert shown.banner is None and shown.pool_warning == ""


def test_review_of_the_start_and_of_the_last_move():
    session = finished_game()
    session.review(0)
    assert status(session).prompt == "At the start: White to move"
    session.review(len(BRAVE_COMBO.moves))  # the last position is the present: its result shows
    shown = status(session)
    assert shown.prompt.startswith("Black wins") and shown.pool_at == ""
    assert [p.score for p in shown.players] == [2, 3]


def test_scores_in_the_middle_of_the_game():
    session = finished_game()
    moves = BRAVE_COMBO.moves
    at = next(i for i in range(len(moves)) if BRAVE_COMBO.state_at(i).white_score + BRAVE_COMBO.state_at(i).black_score)
    session.review(at)
    state = BRAVE_COMBO.state_at(at)
    assert [p.score for p in status(session).players] == [state.white_score, state.black_score]
    assert status(session).pool == pool(state) > pool(BRAVE_COMBO.state)
