"""The embeddable diagram's model (yinsh.page.embed_frame): the move shown, a puzzle's turn and
verdict, and what the frame shows — without a browser."""

from __future__ import annotations

from yinsh.board import parse_point
from yinsh.move import parse_row
from yinsh.page.embed_frame import EmbedFrame, frame_status

P = parse_point


def test_the_steps_stay_within_the_game():
    frame = EmbedFrame("?record=1.e3+2.a5+3.b5&steps=1")
    assert frame.ply == 3 and frame_status(frame).last and not frame.step("next")
    assert frame.step("first") and frame_status(frame).first and frame_status(frame).step_label == "Start of 3 moves"
    assert not frame.step("prev") and frame.step("last") and frame.ply == 3


def test_a_diagram_without_steps_does_not_step():
    frame = EmbedFrame("?record=1.e3+2.a5")
    assert not frame.step("first") and frame.ply == 2
    shown = frame_status(frame)
    assert shown.puzzle == "" and shown.phase == "view" and shown.record == "1.e3 2.a5" and shown.svg


def test_a_bad_url_shows_its_message_and_no_board():
    frame = EmbedFrame("?record=1.e3+2.e3")
    shown = frame_status(frame)
    assert frame.spec is None and shown.error == frame.error != "" and shown.svg == ""


def test_a_puzzle_is_solved_told_and_reset():
    frame = EmbedFrame("?record=1.e3+2.a5&play=1&expect=f5")
    assert frame.solving() and frame_status(frame).puzzle == "solving"
    assert frame_status(frame).reset_disabled
    assert frame.click_point(P("e3")) is not None  # taken: the turn says why
    frame.click_point(P("g5"))
    shown = frame_status(frame)
    assert not frame.solving() and shown.puzzle == "wrong" and shown.again == "Try again" and "g5" in shown.status
    assert frame.click_point(P("f5")) is None and frame_status(frame).puzzle == "wrong"  # decided: clicks do nothing
    frame.reset_puzzle()
    frame.click_point(P("f5"))
    assert frame_status(frame).puzzle == "correct" and frame_status(frame).again == "Play again"


def test_cancel_takes_back_a_picked_ring_and_the_hint():
    record = "1.e3+2.a5+3.b5+4.c6+5.d6+6.e4+7.h7+8.g2+9.g3+10.g8"
    frame = EmbedFrame(f"?record={record}&play=1&expect=h7-h8")
    frame.click_point(P("h7"))
    assert frame.turn is not None and frame.turn.decisions and not frame_status(frame).reset_disabled
    assert frame.cancel() and not frame.turn.decisions and frame.hint == ""
    assert not frame.cancel()
    assert frame.click_row(parse_row("e3", "e7")) is None  # no row to choose: nothing happens
