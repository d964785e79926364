"""The live room at the page (yinsh.page.live), without a browser: what the panel shows and the
session following the room — the room's moves played into it, the person's own move handed out
once, another tab's move for the same turn winning over the session's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from yinsh.game import Game
from yinsh.live.clock import DAY_CHOICES, PRESETS, TimeControl
from yinsh.live.protocol import BadMessage, Draft, decode
from yinsh.live.room import Room
from yinsh.page.live import (
    Follower,
    RelayClock,
    clock_alert,
    clock_views,
    flag_due,
    live_settings,
    record_extras,
    room_link,
    room_view,
)
from yinsh.page.records import Day, export_record
from yinsh.page.session import Session
from yinsh.render import Animation

ANA, BEN, CLEO = "A" * 43, "B" * 43, "C" * 43


class Stream:
    """A room folded from drafts as the relay would store them (signatures taken as verified)."""

    def __init__(self) -> None:
        self.room = Room("k3JH_x-9aZ0qLw2mNb7cQe")
        self.seq = 0

    def store(self, draft: Draft, key: str, verified: bool = True) -> bool:
        self.seq += 1
        return self.room.apply("game", self.seq, self.seq * 1000, decode(draft.signed(key, "s" * 86)),
                               verified) is not None


def started(colours: str = "white") -> Stream:
    stream = Stream()
    room = stream.room
    stream.store(room.draft_create(ANA, colours), ANA)
    stream.store(room.draft_join(ANA, "Ana", "nonce-of-ana"), ANA)
    stream.store(room.draft_join(BEN, "Ben", "nonce-of-ben"), BEN)
    stream.store(room.draft_start(BEN), BEN)
    return stream


def following(stream: Stream, key: str) -> tuple[Session, Follower]:
    """A page of ``key``'s that has read the room as it stands."""
    session = Session(Game(), live_settings(stream.room, key))
    follower = Follower(session, key)
    follower.follow(stream.room)
    return session, follower


def test_the_panel_before_during_and_after_a_game() -> None:
    stream = Stream()
    room = stream.room
    assert room_view(room, ANA, 0, "connecting").line == "Connecting to the relay…"
    assert room_view(room, ANA, 0, "failed").line.startswith("No relay answers")
    stream.store(room.draft_create(ANA, "black"), ANA)
    stream.store(room.draft_join(ANA, "Ana", "nonce-of-ana"), ANA)
    ben = room_view(room, BEN, 0, "open")
    assert (ben.live, ben.seat, ben.can_join, ben.can_start) == ("waiting", "watcher", True, False)
    stream.store(room.draft_join(BEN, "Ben", "nonce-of-ben"), BEN)
    cleo = room_view(room, CLEO, 0, "open")
    assert not cleo.can_join and not cleo.can_start and cleo.can_chat
    assert room_view(room, ANA, 0, "open").can_start
    stream.store(room.draft_start(ANA), ANA)
    ana = room_view(room, ANA, 0, "open")
    assert (ana.live, ana.seat, ana.line) == ("playing", "black", "Ben (White) against Ana (Black)")
    assert [s.label() for s in ana.seats] == ["Ana (Black) · you", "Ben (White) · disconnected · to move"]
    assert room_view(room, ANA, 0, "reconnecting").live == "reconnecting"
    assert room_view(room, CLEO, 0, "open").seat == "watcher"
    stream.store(room.draft_resign(BEN), BEN)
    over = room_view(room, CLEO, 0, "open")
    assert (over.live, over.line, over.end) == ("over", "Ben resigned: Ana wins.", "resign")
    assert room_view(room, ANA, 0, "open").start_label == "Rematch"


def test_who_moves_at_this_page() -> None:
    room = started().room
    assert live_settings(room, ANA).players == {"white": "human", "black": "remote"}
    assert live_settings(room, BEN).players == {"white": "remote", "black": "human"}
    assert live_settings(room, CLEO).players == {"white": "remote", "black": "remote"}


def test_the_session_follows_the_room_and_sends_its_own_move_once() -> None:
    stream = started()
    room = stream.room
    session = Session(Game(), live_settings(room, ANA))
    follower = Follower(session, ANA)
    assert follower.follow(room) and session.players["white"] == "human"
    session.commit(session.game.parse_move("e3"))  # as a click on e3 does
    assert follower.outgoing(room) == "e3"
    follower.sent("e3")
    assert follower.outgoing(room) is None  # sent once, until the room has it
    assert stream.store(room.draft_move(ANA, "e3"), ANA)
    follower.follow(room)
    assert follower.sending is None
    assert stream.store(room.draft_move(BEN, "a5"), BEN)
    assert follower.follow(room)
    assert session.game.record() == "1.e3 2.a5" and session.motion.animate is Animation.SLIDE
    assert session.person_to_move()


def test_another_tab_s_move_wins_the_turn() -> None:
    stream = started()
    room = stream.room
    session, follower = following(stream, ANA)
    session.commit(session.game.parse_move("e3"))
    follower.sent("e3")
    assert stream.store(room.draft_move(ANA, "a5"), ANA)  # the other tab's, stored first
    follower.follow(room)
    assert session.game.record() == "1.a5"
    assert session.notices == ["That turn was played on another page: the move kept is a5."]


def test_a_watcher_cannot_send_and_a_new_game_starts_afresh() -> None:
    stream = started()
    room = stream.room
    session, follower = following(stream, CLEO)
    assert session.board_locked()
    stream.store(room.draft_move(ANA, "e3"), ANA)
    follower.follow(room)
    assert follower.outgoing(room) is None and session.game.record() == "1.e3"
    stream.store(room.draft_resign(ANA), ANA)
    stream.store(room.draft_start(ANA), ANA)
    follower.follow(room)
    assert session.game.record() == "" and room.colour_of(ANA) == "black"


def test_the_room_link() -> None:
    assert room_link("http://h/index.html", "k3JH_x-9aZ0qLw2mNb7cQe") == "http://h/index.html?live=k3JH_x-9aZ0qLw2mNb7cQe"


def test_who_watches() -> None:
    stream = started()
    room = stream.room
    for i, key in enumerate(("C" * 43, "D" * 43, "E" * 43)):
        room.presence(decode(Draft(room.name, "here", 1000 + i, [("seq", 0)]).signed(key, "s" * 86)), True, 5000)
    assert room_view(room, ANA, 5000, "open").watchers == ["3 watchers"]
    room.apply("chat", 99, 5000, decode(room.draft_chat("D" * 43, "hello").signed("D" * 43, "s" * 86)), True)
    assert room_view(room, ANA, 5000, "open").watchers == ["watcher 1", "2 other watchers"]
    assert room_view(room, ANA, 60_000, "open").watchers == []  # not heard of for long: gone


def test_a_game_lost_on_time_says_so() -> None:
    """0.25+0: after each player's first move, White lets her 15 s (and 2 s of allowance) run out."""
    stream = Stream()
    room = stream.room
    stream.store(room.draft_create(ANA, "white", "0.25+0"), ANA)
    stream.store(room.draft_join(ANA, "Ana", "nonce-of-ana"), ANA)
    stream.store(room.draft_join(BEN, "Ben", "nonce-of-ben"), BEN)
    stream.store(room.draft_start(BEN), BEN)
    stream.store(room.draft_move(ANA, "e3"), ANA)
    stream.store(room.draft_move(BEN, "a5"), BEN)
    stream.seq += 20  # the relay's clock: 20 s later (a second a sequence here)
    assert stream.store(room.draft_flag(BEN, stream.seq * 1000), BEN)
    over = room_view(room, CLEO, 0, "open")
    assert (over.live, over.line, over.end) == ("over", "Ana ran out of time: Ben wins.", "time")


def test_a_room_of_another_version_is_named_as_such() -> None:
    """A room opened before rooms had clocks (protocol 1): its messages are not read, and the page
    says why rather than that the room does not exist."""
    old = b'{"v":1,"t":"room","n":0,"colours":"white","k":"' + b"A" * 43 + b'","s":"' + b"s" * 86 + b'"}'
    with pytest.raises(BadMessage) as caught:
        decode(old)
    room = Room("k3JH_x-9aZ0qLw2mNb7cQe")
    room.junk("game", 1, caught.value.reason)
    assert "another version of YINSH" in room_view(room, ANA, 0, "open", True).line


def _timed(clock: str) -> Stream:
    stream = Stream()
    room = stream.room
    stream.store(room.draft_create(ANA, "white", clock), ANA)
    stream.store(room.draft_join(ANA, "Ana", "nonce-of-ana"), ANA)
    stream.store(room.draft_join(BEN, "Ben", "nonce-of-ben"), BEN)
    stream.store(room.draft_start(BEN), BEN)
    return stream


def test_the_clocks_as_the_page_shows_them() -> None:
    """0.25+0, stored a second apart: full and still until each has moved once, then White's
    runs (tenths, low, under 10 s); the page of the player not to move claims once she is out."""
    stream = _timed("0.25+0")
    room = stream.room
    assert [(c.colour, c.text, c.running) for c in clock_views(room, 4_000)] == [
        ("white", "0:15", False), ("black", "0:15", False)]
    stream.store(room.draft_move(ANA, "e3"), ANA)
    stream.store(room.draft_move(BEN, "a5"), BEN)  # stored at 6 s: White's turn, on the clock
    white, black = clock_views(room, 12_500)
    assert (white.ms, white.text, white.running, white.low, black.running) == (8_500, "8.5", True, True, False)
    assert not flag_due(room, BEN, 22_900) and flag_due(room, BEN, 23_000)  # 15 s and the 2 s allowance
    assert not flag_due(room, ANA, 60_000) and not flag_due(room, CLEO, 60_000)  # her own, a watcher's
    stream.seq = 23
    stream.store(room.draft_flag(BEN, 24_000), BEN)
    assert [(c.colour, c.ms, c.running) for c in clock_views(room, 99_000)] == [
        ("white", 0, False), ("black", 15_000, False)]
    assert [c.ms for c in clock_views(room, 99_000, 0)] == [15_000, 15_000]  # reviewed: before any move
    assert [c.ms for c in clock_views(room, 99_000, 1)] == [15_000, 15_000]
    assert clock_views(_timed("none").room, 0) == []
    waiting = Stream()
    waiting.store(waiting.room.draft_create(ANA, "white", "3+2"), ANA)
    assert [(c.text, c.running) for c in clock_views(waiting.room, 0)] == [("3:00", False), ("3:00", False)]
    assert clock_views(Stream().room, 0) == []


def test_the_relay_s_clock_is_estimated_from_the_quickest_delivery() -> None:
    clock = RelayClock()
    assert clock.now(5_000) == 5_000  # nothing heard yet: this page's clock
    clock.note(1_000, 61_000)  # an old message, read on arriving: a minute late
    clock.note(2_000, 2_040)
    clock.note(3_000, 3_090)
    assert clock.offset == 40 and clock.now(10_040) == 10_000


def test_the_dialog_offers_the_clock_s_presets() -> None:
    """index.html's "Play someone online" offers no clock, the real-time presets and the days per move."""
    html = (Path(__file__).resolve().parents[2] / "index.html").read_text(encoding="utf-8")
    select = re.search(r'<select name="clock">(.*?)</select>', html, re.S)
    assert select is not None
    options = re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', select.group(1))
    assert [value for value, _ in options] == ["none", *PRESETS, *(f"{d}d" for d in DAY_CHOICES)]
    assert all(words == TimeControl.parse(value).describe().capitalize() or value == "none"
               for value, words in options)


def test_a_timed_game_s_record_keeps_its_clocks_and_how_it_ended() -> None:
    stream = _timed("0.25+2")
    room = stream.room
    assert record_extras(room) == ({"TimeControl": "15+2"}, [])
    stream.store(room.draft_move(ANA, "e3"), ANA)
    stream.store(room.draft_move(BEN, "a5"), BEN)
    stream.store(room.draft_move(ANA, "b5", 500), ANA)  # 1 s by the relay, 0.5 s thought: 0.5 s allowed
    stream.store(room.draft_resign(BEN), BEN)
    session = Session(Game(), live_settings(room, ANA))
    Follower(session, ANA).follow(room)
    text = export_record(session.game, session.settings, Day(2026, 12, 7), session.record_extras)
    assert '[Result "1-0"]\n[Termination "resignation"]\n[TimeControl "15+2"]' in text
    assert text.endswith("1.e3 {[%clk 0:00:15]} 2.a5 {[%clk 0:00:15]} 3.b5 {[%clk 0:00:16]}\n")
    assert [c.ms for c in clock_views(room, 0, 3)] == [16_500, 15_000]  # review shows each move's clocks
    assert Game.from_record(text).record() == "1.e3 2.a5 3.b5"
    assert record_extras(started().room) is None


def test_a_running_clock_is_announced_at_a_minute_and_at_ten_seconds() -> None:
    assert [clock_alert(a, b) for a, b in ((61_000, 60_000), (60_000, 59_900), (10_100, 9_999), (70_000, 5_000),
                                           (9_000, 8_000), (0, 5_000))] == ["one minute", "", "ten seconds",
                                                                            "ten seconds", "", ""]


def test_offers_show_their_buttons_and_lines_to_each_side() -> None:
    stream = started()
    room = stream.room
    ana = room_view(room, ANA, 0, "open")
    assert ana.can_abort and not ana.can_resign and not ana.can_takeback  # nothing to take back yet
    for key, move in ((ANA, "e3"), (BEN, "a5"), (ANA, "b5")):
        stream.store(room.draft_move(key, move), key)
    ana, ben, cleo = (room_view(room, key, 0, "open") for key in (ANA, BEN, CLEO))
    assert (ana.can_abort, ana.can_resign, ana.can_takeback, ben.can_takeback) == (False, True, True, True)
    assert not cleo.can_takeback and not cleo.can_abort
    stream.store(room.draft_takeback(BEN), BEN)
    ana, ben, cleo = (room_view(room, key, 0, "open") for key in (ANA, BEN, CLEO))
    assert (ana.offer, ana.can_answer) == ("Ben asks to take back their last move.", True)
    assert (ben.offer, ben.can_answer, ben.can_takeback) == ("You offered to take back your last move.", False, False)
    assert not cleo.can_answer and cleo.offer == "Ben asks to take back their last move."


def test_a_gone_player_s_claim_is_offered_then_due() -> None:
    stream = started()
    room = stream.room
    stream.store(room.draft_move(ANA, "e3"), ANA)  # Ben to move, never heard of
    assert not room_view(room, ANA, 1000, "open", connected_at=0).can_claim  # not called gone just yet
    ana = room_view(room, ANA, 10_000, "open", connected_at=0)
    assert ana.can_claim and not room_view(room, BEN, 10_000, "open").can_claim
    stream.store(room.draft_absent(ANA, 6000), ANA)
    asked = room.absent_since
    waiting = room_view(room, ANA, 10_000, "open", relay_ms=asked + 1000)
    assert not waiting.can_claim and waiting.offer == "Ben has 30 s to come back, or you may claim the game."
    due = room_view(room, ANA, 10_000, "open", relay_ms=asked + 30_000)
    assert due.can_claim and due.offer.startswith("Ben did not come back")


def test_a_takeback_reopens_the_session_at_the_room_s_game() -> None:
    stream = started()
    room = stream.room
    session, follower = following(stream, ANA)
    for key, move in ((ANA, "e3"), (BEN, "a5")):
        stream.store(room.draft_move(key, move), key)
        follower.follow(room)
    stream.store(room.draft_takeback(ANA), ANA)
    stream.store(room.draft_answer(BEN, True), BEN)
    assert follower.follow(room)
    assert session.game.record() == "" and session.notices == ["A move was taken back."]
    assert follower.outgoing(room) is None  # the moves taken back are not Ana's to send again
    stream.store(room.draft_abort(BEN), BEN)
    assert room_view(room, ANA, 0, "open").line == "The game was aborted: no result. Rematch: colours swap."
