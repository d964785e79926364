"""The live game's clocks (yinsh.live.clock): time controls read and written, and the one rule
every page folds, checked over random games' timings — the delay allowed never more than the
quota holds, nothing taken from a player's first move, a move after a provable flag refused."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yinsh.errors import NotationError
from yinsh.live.clock import (
    DAY_CHOICES,
    LAG_QUOTA_GAIN_MS,
    LAG_QUOTA_MAX_MS,
    LAG_QUOTA_START_MS,
    PRESETS,
    Clocks,
    TimeControl,
    clock_text,
)
from yinsh.pgn import clock_comment

controls = st.one_of(
    st.builds(lambda m, s: TimeControl.parse(f"{m}+{s}"), st.integers(1, 180), st.integers(0, 180)),
    st.builds(lambda q, s: TimeControl.parse(f"{q // 4}.{q % 4 * 25}+{s}"), st.integers(1, 720), st.integers(0, 180)),
    st.builds(lambda d: TimeControl.parse(f"{d}d"), st.integers(1, 14)),
    st.just(TimeControl.parse("none")))
turns = st.lists(st.tuples(st.integers(0, 60_000), st.integers(-5_000, 70_000)), max_size=40)
"""Each turn: how long after the last stored message the move was stored, and what its page said it thought."""


@given(controls)
def test_a_control_reads_back_from_its_text_and_its_tag(control):
    assert TimeControl.parse(str(control)) == control
    assert TimeControl.from_tag(control.tag()) == control


def test_the_offered_controls_and_how_they_are_written():
    assert [TimeControl.parse(p).tag() for p in PRESETS] == ["180+2", "300+3", "600+5", "900+10"]
    assert [TimeControl.parse(f"{d}d").tag() for d in DAY_CHOICES] == ["1/86400", "1/172800", "1/259200", "1/604800"]
    assert TimeControl.parse(" None ").tag() == "-" and TimeControl.from_tag("-").kind == "none"
    assert TimeControl.parse("1+1").describe() == "1 minute + 1 second a move"
    assert TimeControl.parse("10+0").describe() == "10 minutes"
    assert TimeControl.parse("7d").describe() == "7 days a move"


def test_a_fraction_of_a_minute_is_a_quarter_for_tests():
    """``0.25+0`` (15 s, what the tests play), and any quarter of a minute."""
    quick = TimeControl.parse("0.25+0")
    assert (quick.seconds, quick.tag(), str(quick), quick.describe()) == (15, "15+0", "0.25+0", "15 seconds")
    assert str(TimeControl.parse("1.50+2")) == "1.5+2" and TimeControl.parse("1.5+2").describe() == \
        "1.5 minutes + 2 seconds a move"
    assert TimeControl.from_tag("45+1") == TimeControl.parse("0.75+1")


@pytest.mark.parametrize("text, reason", [
    ("3", "write minutes+seconds"), ("3+", "write minutes+seconds"), ("+2", "write minutes+seconds"),
    ("0+5", "minutes must be 1 to 180"), ("181+0", "minutes must be 1 to 180"), ("3+181", "seconds added 0 to 180"),
    ("0d", "days per move must be 1 to 14"), ("15d", "days per move must be 1 to 14"), ("3+2.5", "write minutes"),
    ("-1+2", "write minutes+seconds"), ("fast", "write minutes+seconds"), ("0.1+0", "or 0.25, 0.5, 0.75"),
    ("0.0+0", "minutes must be"), ("180.25+0", "minutes must be"), ("0.251+0", "or 0.25"), ("1.+0", "write minutes")])
def test_a_control_that_cannot_be_read_says_which_and_why(text, reason):
    with pytest.raises(NotationError, match=re.escape(reason)) as caught:
        TimeControl.parse(text)
    assert repr(text.strip().lower()) in str(caught.value)


@pytest.mark.parametrize("tag", ["100+0", "1/1000", "40/7200", "x", "180+x"])
def test_a_tag_this_game_does_not_write_is_refused(tag):
    with pytest.raises(NotationError, match="TimeControl tag"):
        TimeControl.from_tag(tag)


def play(control: TimeControl, timings: list[tuple[int, int]]) -> tuple[Clocks, list[int]]:
    """Fold ``timings`` from a start at 0 while every move is on time; the stored times."""
    clocks = Clocks(control)
    clocks.start(0)
    now, times = 0, []
    for wait, think in timings:
        if not clocks.move(now + wait, think):
            break
        now += wait
        times.append(now)
    return clocks, times


@given(controls, turns)
@settings(max_examples=200)
def test_what_a_move_costs_follows_the_rule(control, timings):
    """Replayed move by move: each timed move costs the time since the last stored message,
    less the delay its page claims, paid from the mover's quota (never more than it holds,
    refilled by at most a second a move and never past its cap), plus the increment back; a
    player's first move costs nothing."""
    clocks = Clocks(control)
    clocks.start(0)
    now = 0
    for wait, think in timings:
        colour, timed = clocks.to_move, clocks.timed()
        left, quota = list(clocks.left), list(clocks.quota)
        if not clocks.move(now + wait, think):
            assert timed and wait - min(max(0, wait - max(0, think)), quota[colour]) >= left[colour]
            assert clocks.left == left and clocks.quota == quota and clocks.to_move == colour  # unchanged
            return
        now += wait
        allowed = min(max(0, wait - max(0, think)), quota[colour]) if timed else 0
        charge = wait - allowed if timed else 0
        assert 0 <= allowed <= quota[colour] <= LAG_QUOTA_MAX_MS
        if timed:
            assert clocks.quota[colour] == min(LAG_QUOTA_MAX_MS, quota[colour] - allowed + LAG_QUOTA_GAIN_MS)
        if control.kind == "real" and timed:
            assert clocks.left[colour] == left[colour] + 1000 * control.increment - charge
            assert clocks.spent[-1] == clocks.left[colour]
        else:
            assert clocks.left[colour] == left[colour]  # untimed, no clock, or days per move (each turn whole)
            assert clocks.spent[-1] == left[colour] - (charge if control.kind == "days" else 0)
        assert clocks.to_move == colour ^ 1 and clocks.turn_start == now
        assert clocks.quota[colour ^ 1] == quota[colour ^ 1]


@given(controls, turns, st.integers(0, 20 * 86_400_000), st.integers(0, 20_000), st.integers(-5_000, 70_000))
@settings(max_examples=200)
def test_a_flag_that_can_be_claimed_refuses_every_later_move(control, timings, claim_at, later, think):
    """A claim at a moment when the player to move is out of time holds: no move of theirs stored
    after it is on time, whatever delay it claims. And a moment before any time ran out is no flag."""
    clocks, times = play(control, timings)
    moment = (times[-1] if times else 0) + claim_at
    if clocks.out_of_time(moment):
        assert not clocks.move(moment + later, think)
        assert clocks.remaining(clocks.to_move, moment) == 0
    elif clocks.timed():
        assert clocks.remaining(clocks.to_move, moment) + clocks.quota[clocks.to_move] > 0


@given(controls, st.integers(0, 10**9), st.integers(0, 10**9))
def test_no_first_move_is_timed(control, white, black):
    clocks = Clocks(control)
    clocks.start(0)
    full = list(clocks.left)
    assert clocks.move(white, 0) and clocks.move(white + black, 0)
    assert clocks.left == full and clocks.quota == [LAG_QUOTA_START_MS] * 2
    assert clocks.timed() == (control.kind != "none")


def test_the_running_clock_and_the_record_of_a_short_game():
    clocks = Clocks(TimeControl.parse("1+0"))
    clocks.start(0)
    for at in (500, 1_000):
        clocks.move(at, 0)
    assert clocks.remaining(0, 31_000) == 30_000 and clocks.remaining(1, 31_000) == 60_000
    assert clocks.move(31_000, 29_900)  # 0.1 s of delay allowed
    assert clocks.remaining(0, 40_000) == 30_100 and clocks.remaining(1, 40_000) == 51_000
    flag = 31_000 + 60_000 + LAG_QUOTA_START_MS  # Black's minute, and all the delay their quota may allow
    assert not clocks.out_of_time(flag - 1) and clocks.out_of_time(flag)
    assert not clocks.move(flag, 0) and clocks.move(flag - 1, 0)
    assert [clock_comment(ms) for ms in clocks.spent] == ["{[%clk 0:01:00]}"] * 2 + ["{[%clk 0:00:30]}",
                                                                                   "{[%clk 0:00:00]}"]


def test_no_clock_never_runs_out():
    clocks, _ = play(TimeControl.parse("none"), [(10**9, 0)] * 5)
    assert clocks.moves == 5 and not clocks.out_of_time(10**12) and clocks.remaining(0, 10**12) == 0


@pytest.mark.parametrize("ms, text", [
    (0, "0.0"), (-5, "0.0"), (9_999, "9.9"), (10_000, "0:10"), (59_999, "0:59"), (61_000, "1:01"),
    (3_725_000, "1:02:05"), (86_400_000, "1d 0h"), (2 * 86_400_000 + 3 * 3_600_000 + 5, "2d 3h")])
def test_a_clock_as_the_page_shows_it(ms, text):
    assert clock_text(ms) == text


def test_a_clock_as_a_record_writes_it():
    assert clock_comment(252_999) == "{[%clk 0:04:12]}" and clock_comment(3 * 86_400_000) == "{[%clk 72:00:00]}"
