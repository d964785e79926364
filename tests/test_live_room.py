"""The live room's model and wire format, browser-free (no relay, no cryptography: the room is
told whether a signature was sound, as the page's transport tells it after WebCrypto checked).

The same model runs under MicroPython in the page; tests/test_micropython.py replays a room
there (probe ``live_room``) and requires the same answers.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yinsh import Game
from yinsh.live.protocol import (
    FIELDS,
    MAX_CHAT,
    MAX_MESSAGE_BYTES,
    BadMessage,
    Draft,
    chat_subject,
    decode,
    game_subject,
    presence_subject,
    room_filter,
    stream_config,
    subject_kind,
    valid_room,
)
from yinsh.live.room import (
    ABSENCE_MS,
    CHAT_BURST,
    CHAT_WINDOW_MS,
    PRESENCE_TIMEOUT_MS,
    LiveError,
    Room,
    _draw,
)

ROOM = "k3JH_x-9aZ0qLw2mNb7cQe"
ANA, BEN, CLEO, MALLORY = ("A" * 43, "B" * 43, "C" * 43, "M" * 43)
SIG = "s" * 86


class Fold:
    """A room and the stream it folds: each send stores a message at the next sequence."""

    def __init__(self, colours: str = "white", name: str = ROOM) -> None:
        self.room = Room(name)
        self.seq = 0
        self.time_ms = 0

    def store(self, data: bytes, subject: str = "game", verified: bool = True, dt: int = 1000):
        self.seq += 1
        self.time_ms += dt
        try:
            message = decode(data)
        except BadMessage as exc:
            self.room.junk(subject, self.seq, exc.reason)
            return None
        return self.room.apply(subject, self.seq, self.time_ms, message, verified)

    def send(self, draft: Draft, key: str, **options):
        return self.store(draft.signed(key, SIG), "chat" if draft.kind == "chat" else "game", **options)


def seated(colours: str = "white", clock: str = "none") -> Fold:
    fold = Fold()
    fold.send(fold.room.draft_create(ANA, colours, clock), ANA)
    fold.send(fold.room.draft_join(ANA, "Ana", "nonce-of-ana"), ANA)
    fold.send(fold.room.draft_join(BEN, " Ben ", "nonce-of-ben"), BEN)
    return fold


def playing(colours: str = "white", clock: str = "none") -> Fold:
    fold = seated(colours, clock)
    assert fold.send(fold.room.draft_start(ANA), ANA)
    return fold


def _moves(fold: Fold, plies: int, dt: int = 1000, think: int = 1000, seed: int = 1) -> None:
    """``plies`` random legal moves, each stored ``dt`` ms after the last message, ``think`` ms thought."""
    rng = random.Random(seed)
    for _ in range(plies):
        room = fold.room
        key = room.to_move_key()
        assert key is not None
        assert fold.send(room.draft_move(key, str(rng.choice(room.game.legal_moves())), think), key, dt=dt)


class TestClocks:
    """The room's clocks: folded from the stored messages' relay times by yinsh.live.clock."""

    def test_a_room_keeps_its_time_control_and_each_game_starts_its_clocks(self):
        fold = playing(clock="0.25+2")
        room = fold.room
        assert str(room.clock) == "0.25+2" and room.clocks is not None and room.clocks.to_move == 0
        _moves(fold, 2, dt=4000, think=4000)  # each player's first move: not timed
        assert room.clocks.left == [15_000, 15_000]
        _moves(fold, 2, dt=4000, think=3500)  # 0.5 s of each turn allowed for the delay
        assert room.clocks.left == [15_000 - 3500 + 2000, 15_000 - 3500 + 2000]
        assert [room.clocks.remaining(c, fold.time_ms + 1000) for c in (0, 1)] == [12_500, 13_500]

    def test_a_move_stored_after_the_time_ran_out_loses_on_time(self):
        fold = playing(clock="0.25+0")
        room = fold.room
        _moves(fold, 2)
        version, ply = room.version, room.game.ply
        key = room.to_move_key()
        assert fold.send(room.draft_move(key, str(room.game.legal_moves()[0]), 1000), key, dt=19_000)
        assert room.phase == "over" and room.ending == "time" and room.game.ply == ply  # the move is not played
        assert room.result() == "0-1" and room.version == version + 1

    def test_a_claim_counts_only_once_the_time_is_out(self):
        fold = playing(clock="0.25+0")
        room = fold.room
        _moves(fold, 2)  # each player's first move, untimed: White to move, on the clock now
        assert room.clocks.timed() and room.clocks.left == [15_000, 15_000]
        with pytest.raises(LiveError, match="still has time"):
            room.draft_flag(BEN, fold.time_ms + 16_000)  # 15 s, and 2 s of allowance still to claim
        early = Draft(ROOM, "flag", room.version, [("at", 0)])
        assert fold.send(early, BEN, dt=14_000) is None and room.ignored == {"too early": 1}
        assert fold.send(Draft(ROOM, "flag", room.version, [("at", 0)]), CLEO, dt=10_000) is None  # a watcher
        # a claim made again is a message of its own (the relay drops a repeated message id)
        assert room.draft_flag(BEN, fold.time_ms).text() != room.draft_flag(BEN, fold.time_ms + 1).text()
        assert fold.send(room.draft_flag(BEN, fold.time_ms), BEN, dt=1)
        assert room.phase == "over" and room.ending == "time" and room.result() == "0-1"
        assert dict(room.ignored) == {"too early": 1, "not seated": 1}

    def test_no_clock_no_claim(self):
        fold = playing()
        _moves(fold, 4, dt=3_600_000)
        with pytest.raises(LiveError, match="still has time"):
            fold.room.draft_flag(BEN, fold.time_ms + 10**9)
        assert fold.send(Draft(ROOM, "flag", fold.room.version, [("at", 0)]), BEN) is None
        assert fold.room.phase == "playing" and fold.room.ignored == {"too early": 1}

    @pytest.mark.parametrize("clock", ["fast", "3+2 ", "999+0", "03+2", "", 7])
    def test_a_room_with_a_clock_it_cannot_read_is_not_created(self, clock):
        fold = Fold()
        with pytest.raises(LiveError, match="time control"):
            fold.room.draft_create(ANA, "white", "fast")
        assert fold.store(json.dumps({"v": 3, "t": "room", "n": 0, "colours": "white", "clock": clock,
                                      "k": ANA, "s": SIG}).encode()) is None
        assert fold.room.phase == "new" and fold.room.ignored == {"malformed": 1}

    @given(st.lists(st.tuples(st.integers(0, 20_000), st.integers(0, 20_000)), min_size=1, max_size=60),
           st.integers(0, 1000))
    def test_the_clocks_follow_the_turn_and_every_fold_agrees(self, timings, seed):
        """Random games under 0.5+1, moves at random times: the clocks' player to move is the game's,
        a game ends on time only when its mover had no time left, and a second fold of the same
        stored messages shows the same clocks."""
        fold = playing(clock="0.5+1")
        stored = []
        rng = random.Random(seed)
        for dt, think in timings:
            room = fold.room
            if room.phase != "playing":
                break
            key = room.to_move_key()
            data = room.draft_move(key, str(rng.choice(room.game.legal_moves())), think).signed(key, SIG)
            before = list(room.clocks.left), room.clocks.to_move, room.clocks.charged(fold.time_ms + dt, think)
            assert fold.store(data, dt=dt)
            stored.append((fold.seq, fold.time_ms, data))
            if room.ending == "time":
                left, mover, charge = before
                assert charge >= left[mover]
            elif room.phase == "playing":
                assert room.clocks.to_move == (0 if room.game.to_move == "white" else 1)
        again = playing(clock="0.5+1")
        for seq, time_ms, data in stored:
            again.room.apply("game", seq, time_ms, decode(data), True)
        assert again.room.clocks.left == fold.room.clocks.left and again.room.phase == fold.room.phase


class TestSeats:
    def test_first_come_two_seats_then_watchers(self):
        fold = seated()
        room = fold.room
        assert [s.name for s in room.seats] == ["Ana", "Ben"] and room.phase == "waiting"
        assert room.seat_of(BEN) == 1 and room.seat_of(CLEO) is None and room.free_seat() is None
        with pytest.raises(LiveError, match="both seats are taken"):
            room.draft_join(CLEO, "Cleo", "nonce-of-cleo")
        assert fold.send(Draft(ROOM, "join", room.version, [("name", "Cleo"), ("nonce", "nonce-of-cleo")]),
                         CLEO) is None
        assert dict(room.ignored) == {"room full": 1}
        assert room.role_of(CLEO) == "watcher"

    def test_a_room_must_exist_and_is_created_once(self):
        fold = Fold()
        with pytest.raises(LiveError, match="does not exist"):
            fold.room.draft_join(ANA, "Ana", "nonce-of-ana")
        fold.send(Draft(ROOM, "join", 0, [("name", "Ana"), ("nonce", "nonce-of-ana")]), ANA)
        assert dict(fold.room.ignored) == {"no room": 1} and fold.room.phase == "new"
        fold.send(fold.room.draft_create(ANA, "black"), ANA)
        with pytest.raises(LiveError, match="exists already"):
            fold.room.draft_create(BEN, "white")
        created = Draft(ROOM, "room", 0, [("colours", "white"), ("clock", "none")])
        assert fold.send(created, BEN) is None  # stale: version 1 now
        assert fold.room.colours == "black" and fold.room.creator == ANA

    def test_names_are_text_of_limited_length(self):
        fold = Fold()
        fold.send(fold.room.draft_create(ANA, "white"), ANA)
        for bad in ("", "   ", "x" * 25, "line\nbreak", "tab\there", "bell\x07"):
            with pytest.raises(LiveError, match="a name is"):
                fold.room.draft_join(ANA, bad, "nonce-of-ana")
            fold.send(Draft(ROOM, "join", fold.room.version, [("name", bad), ("nonce", "nonce-of-ana")]), ANA)
        assert dict(fold.room.ignored) == {"malformed": 6}
        fold.send(fold.room.draft_join(ANA, "<b>Ana</b> 🙂", "nonce-of-ana"), ANA)
        assert fold.room.seats[0].name == "<b>Ana</b> 🙂"  # text, shown as text by the page

    def test_leaving_frees_the_seat_and_a_returning_key_is_recognised(self):
        fold = seated()
        room = fold.room
        fold.send(room.draft_leave(BEN), BEN)
        assert room.seats[1] is None and room.free_seat() == 1
        fold.send(room.draft_join(CLEO, "Cleo", "nonce-of-cleo"), CLEO)
        assert room.seat_of(CLEO) == 1
        # a reload: a fresh room folded from the same stream knows Ana by her key
        again = Room(ROOM)
        for seq, data in enumerate(_stream_of(fold), 1):
            again.apply("game", seq, seq * 1000, decode(data), True)
        assert again.seat_of(ANA) == 0 and again.seat_of(CLEO) == 1 and again.version == room.version


def _stream_of(fold: Fold) -> list[bytes]:
    """Rebuild the messages a fold accepted (for a reload): the same drafts, in order."""
    out = [Draft(ROOM, "room", 0, [("colours", "white"), ("clock", "none")]).signed(ANA, SIG),
           Draft(ROOM, "join", 1, [("name", "Ana"), ("nonce", "nonce-of-ana")]).signed(ANA, SIG),
           Draft(ROOM, "join", 2, [("name", "Ben"), ("nonce", "nonce-of-ben")]).signed(BEN, SIG),
           Draft(ROOM, "leave", 3, []).signed(BEN, SIG),
           Draft(ROOM, "join", 4, [("name", "Cleo"), ("nonce", "nonce-of-cleo")]).signed(CLEO, SIG)]
    return out


class TestStart:
    def test_either_seated_player_starts_once_both_are_seated(self):
        fold = Fold()
        fold.send(fold.room.draft_create(ANA, "white"), ANA)
        fold.send(fold.room.draft_join(ANA, "Ana", "nonce-of-ana"), ANA)
        with pytest.raises(LiveError, match="waiting for a second player"):
            fold.room.draft_start(ANA)
        fold.send(Draft(ROOM, "start", fold.room.version, []), ANA)
        fold.send(fold.room.draft_join(BEN, "Ben", "nonce-of-ben"), BEN)
        with pytest.raises(LiveError, match="only a seated player"):
            fold.room.draft_start(CLEO)
        fold.send(Draft(ROOM, "start", fold.room.version, []), CLEO)
        assert dict(fold.room.ignored) == {"not now": 1, "not seated": 1}
        fold.send(fold.room.draft_start(BEN), BEN)
        assert fold.room.phase == "playing" and fold.room.games == 1

    @pytest.mark.parametrize(("colours", "white"), [("white", ANA), ("black", BEN)])
    def test_colours_as_the_creator_set(self, colours, white):
        room = playing(colours).room
        assert room.to_move_key() == white and room.colour_of(white) == "white"

    def test_a_random_draw_is_decided_by_both_nonces_and_the_start_sequence(self):
        """No one message decides it, and anyone reading the stream computes the same."""
        fold = seated("random")
        fold.seq = 40
        fold.send(fold.room.draft_start(ANA), ANA)
        white = _draw("nonce-of-ana", "nonce-of-ben", 41)
        assert fold.room.white == white
        draws = {_draw("nonce-of-ana", "nonce-of-ben", seq) for seq in range(1, 20)}
        assert draws == {0, 1}
        assert {_draw("nonce-of-ana", nonce, 41) for nonce in ("aaaaaaaa", "bbbbbbbb", "cccccccc", "dddddddd",
                                                                "eeeeeeee")} == {0, 1}


class TestMoves:
    def test_only_the_seat_to_move_moves_and_every_move_is_checked(self):
        fold = playing()
        room = fold.room
        with pytest.raises(LiveError, match="not your turn"):
            room.draft_move(BEN, "e3")
        with pytest.raises(LiveError, match="only a seated player"):
            room.draft_move(CLEO, "e3")
        with pytest.raises(LiveError, match="illegal|not"):
            room.draft_move(ANA, "e3-e4")
        v = room.version
        fold.send(Draft(ROOM, "move", v, [("ply", 0), ("move", "e3"), ("think", 0)]), BEN)  # Ben for White
        fold.send(Draft(ROOM, "move", v, [("ply", 0), ("move", "e3"), ("think", 0)]), CLEO)  # a watcher
        fold.send(Draft(ROOM, "move", v, [("ply", 0), ("move", "e3-e4"), ("think", 0)]), ANA)  # not legal
        fold.send(Draft(ROOM, "move", v, [("ply", 0), ("move", "E3"), ("think", 0)]), ANA)  # not the long form
        fold.send(Draft(ROOM, "move", v, [("ply", 1), ("move", "e3"), ("think", 0)]), ANA)  # the wrong ply
        fold.send(Draft(ROOM, "move", v, [("ply", 0), ("move", "e3"), ("think", 0)]), ANA, verified=False)  # forged
        assert room.game.ply == 0 and room.version == v
        assert dict(room.ignored) == {"not your turn": 1, "not seated": 1, "illegal": 2, "stale": 1,
                                      "bad signature": 1}
        fold.send(room.draft_move(ANA, "E3"), ANA)  # drafts write the long form
        assert room.game.record() == "1.e3" and room.to_move_key() == BEN

    def test_a_replay_or_a_second_move_for_the_turn_never_counts(self):
        fold = playing()
        room = fold.room
        first, second = room.draft_move(ANA, "e3"), room.draft_move(ANA, "e4")
        assert fold.send(first, ANA) and fold.send(second, ANA) is None
        fold.send(room.draft_move(BEN, "a5"), BEN)
        assert fold.send(first, ANA) is None
        assert room.game.record() == "1.e3 2.a5" and dict(room.ignored) == {"stale": 2}
        # a message delivered twice at its own sequence (a consumer's redelivery) is folded once
        assert room.apply("game", fold.seq, 0, decode(first.signed(ANA, SIG)), True) is None
        assert dict(room.ignored) == {"stale": 2}

    def test_junk_moves_the_subjects_last_sequence_and_is_counted(self):
        fold = playing()
        before = fold.room.version
        unsigned = b'{"v":3,"t":"move","n":4,"ply":0,"move":"e3","think":0}'
        for data in (b"junk", b"{}", b'{"v":3}', unsigned, b"x" * 3000):
            fold.store(data)
        assert fold.room.game_seq == fold.seq and fold.room.version == before
        assert dict(fold.room.ignored) == {"malformed": 3, "unsigned": 1, "oversized": 1}
        fold.send(fold.room.draft_move(ANA, "e3"), ANA)
        assert fold.room.game.ply == 1

    def test_a_whole_game_folds_like_the_game(self, games):
        record = games[1]
        fold = playing()
        keys = {"white": ANA, "black": BEN}
        for move in record.game.moves:
            room = fold.room
            if str(move) == "pass":
                continue  # played by the room itself: nobody chooses a forced pass
            key = keys[room.game.to_move]
            assert fold.send(room.draft_move(key, str(move)), key)
        assert fold.room.game.record() == record.game.record()
        assert fold.room.phase == "over" and fold.room.ending == "rules"
        assert fold.room.result() == record.game.result

    def test_a_forced_pass_is_played_by_the_room(self):
        """White's rings cannot move: after Black's move every page plays White's pass itself."""
        from test_rules import _blocked

        fold = playing()
        fold.room.game = _blocked(turn=1, extra_black=["k10"])
        fold.send(fold.room.draft_move(BEN, "k10-k9"), BEN)
        assert [str(m) for m in fold.room.game.moves[-2:]] == ["k10-k9", "pass"]
        assert fold.room.to_move_key() == BEN and fold.room.phase == "playing"

    def test_random_games_fold_alike(self):
        rng = random.Random(2)
        for _ in range(3):
            fold = playing()
            game = Game()
            while fold.room.phase == "playing":
                room = fold.room
                move = str(rng.choice(room.game.legal_moves()))
                key = room.to_move_key()
                fold.send(room.draft_move(key, move), key)
                game.play(move)
                while game.result is None and [str(m) for m in game.legal_moves()] == ["pass"]:
                    game.play("pass")
            assert fold.room.game.record() == game.record() and fold.room.result() == game.result


class TestEndings:
    def test_resign_then_a_rematch_swaps_colours(self):
        fold = playing()
        room = fold.room
        fold.send(room.draft_move(ANA, "e3"), ANA)
        with pytest.raises(LiveError, match="only a seated player"):
            room.draft_resign(CLEO)
        fold.send(room.draft_resign(BEN), BEN)
        assert room.phase == "over" and room.result() == "1-0" and room.ending == "resign"
        with pytest.raises(LiveError, match="no game is on"):
            room.draft_move(BEN, "a5")
        fold.send(room.draft_start(BEN), BEN)
        assert room.games == 2 and room.to_move_key() == BEN and room.colour_of(ANA) == "black"
        fold.send(room.draft_resign(BEN), BEN)
        assert room.result() == "0-1"
        fold.send(room.draft_start(ANA), ANA)
        assert room.to_move_key() == ANA  # swapped back

    def test_leaving_mid_game_loses_it_and_a_new_pair_starts_as_set(self):
        fold = playing("black")
        room = fold.room
        assert room.to_move_key() == BEN
        fold.send(room.draft_leave(BEN), BEN)
        assert room.phase == "over" and room.result() == "0-1" and room.ending == "leave"
        fold.send(room.draft_join(CLEO, "Cleo", "nonce-of-cleo"), CLEO)
        fold.send(room.draft_start(CLEO), CLEO)
        assert room.seat_of(CLEO) == 1 and room.to_move_key() == CLEO  # the first seat plays Black


class TestOffers:
    """Abort, takeback offers and the claim of a game whose player to move is gone."""

    def test_a_game_is_aborted_only_before_a_second_ring(self):
        fold = playing()
        room = fold.room
        _moves(fold, 2)
        with pytest.raises(LiveError, match="only a seated player"):
            room.draft_abort(CLEO)
        assert fold.send(room.draft_abort(BEN), BEN)
        assert room.phase == "over" and room.ending == "abort" and room.result() is None and room.loser is None
        fold.send(room.draft_start(BEN), BEN)
        _moves(fold, 3)
        with pytest.raises(LiveError, match="second ring"):
            room.draft_abort(ANA)
        assert fold.send(Draft(ROOM, "abort", room.version, []), ANA) is None and room.ignored == {"not now": 1}

    def test_an_accepted_takeback_undoes_the_offerer_s_last_move_and_its_reply(self):
        fold = playing()
        room = fold.room
        with pytest.raises(LiveError, match="no move to take back"):
            room.draft_takeback(ANA)
        fold.send(room.draft_move(ANA, "e3"), ANA)
        fold.send(room.draft_move(BEN, "a5"), BEN)
        with pytest.raises(LiveError, match="no takeback is offered"):
            room.draft_answer(ANA, True)
        assert fold.send(room.draft_takeback(ANA), ANA) and room.offer == 0
        with pytest.raises(LiveError, match="offered already"):
            room.draft_takeback(BEN)
        with pytest.raises(LiveError, match="no takeback is offered to you"):
            room.draft_answer(ANA, True)  # one's own offer
        assert fold.send(room.draft_answer(BEN, True), BEN)
        assert room.game.record() == "" and room.to_move_key() == ANA and room.takebacks == 1 and room.offer is None

    def test_a_declined_or_overtaken_offer_is_gone(self):
        fold = playing()
        room = fold.room
        fold.send(room.draft_move(ANA, "e3"), ANA)
        fold.send(room.draft_takeback(ANA), ANA)
        fold.send(room.draft_answer(BEN, False), BEN)
        assert room.offer is None and room.game.record() == "1.e3"
        fold.send(room.draft_takeback(ANA), ANA)
        fold.send(room.draft_move(BEN, "a5"), BEN)  # a move withdraws it
        assert room.offer is None and fold.send(Draft(ROOM, "accept", room.version, []), BEN) is None
        assert room.game.record() == "1.e3 2.a5" and room.ignored == {"not now": 1}

    def test_a_takeback_sets_both_clocks_back_and_the_offerer_s_runs_from_the_acceptance(self):
        fold = playing(clock="1+2")
        room = fold.room
        _moves(fold, 4, dt=5000, think=5000)
        before = list(room.clocks.left), list(room.clocks.spent)
        key = room.to_move_key()
        fold.send(room.draft_move(key, str(room.game.legal_moves()[0]), 9000), key, dt=9000)
        assert room.clocks.left != before[0]
        fold.send(room.draft_takeback(key), key, dt=1000)
        other = room.seats[1 - room.seat_of(key)].key
        fold.send(room.draft_answer(other, True), other, dt=7000)
        assert (room.clocks.left, room.clocks.spent, room.clocks.turn_start) == (*before, fold.time_ms)
        assert room.to_move_key() == key and room.game.ply == 4

    def test_a_gone_player_loses_once_a_second_claim_shows_they_did_not_answer(self):
        fold = playing()
        room = fold.room
        fold.send(room.draft_move(ANA, "e3"), ANA)
        with pytest.raises(LiveError, match="your turn"):
            room.draft_absent(BEN, fold.time_ms)
        assert fold.send(room.draft_absent(ANA, fold.time_ms), ANA) and room.absent_since == fold.time_ms
        with pytest.raises(LiveError, match="may still answer"):
            room.draft_absent(ANA, fold.time_ms + ABSENCE_MS - 1)
        early = Draft(ROOM, "absent", room.version, [("at", 1)])
        assert fold.send(early, ANA, dt=ABSENCE_MS - 1000) is None and room.ignored == {"too early": 1}
        assert fold.send(room.draft_absent(ANA, fold.time_ms + 1000), ANA, dt=1000)
        assert room.phase == "over" and room.ending == "absent" and room.result() == "1-0"

    def test_an_answer_or_a_move_keeps_the_game(self):
        fold = playing()
        room = fold.room
        fold.send(room.draft_move(ANA, "e3"), ANA)
        fold.send(room.draft_absent(ANA, fold.time_ms), ANA)
        with pytest.raises(LiveError, match="nobody asked"):
            room.draft_back(ANA)
        assert fold.send(room.draft_back(BEN), BEN) and room.absent_since is None
        fold.send(room.draft_absent(ANA, fold.time_ms), ANA)
        fold.send(room.draft_move(BEN, "a5"), BEN, dt=ABSENCE_MS * 2)
        assert room.absent_since is None and room.phase == "playing"
        fold.send(room.draft_absent(BEN, fold.time_ms), BEN)
        assert fold.send(room.draft_absent(BEN, fold.time_ms + ABSENCE_MS), BEN, dt=ABSENCE_MS) is None or \
            room.phase == "over"
        assert room.ending == "absent" and room.result() == "0-1"

    def test_with_days_per_move_the_clock_decides(self):
        fold = playing(clock="2d")
        room = fold.room
        fold.send(room.draft_move(ANA, "e3"), ANA)
        with pytest.raises(LiveError, match="the clock decides"):
            room.draft_absent(ANA, fold.time_ms)
        assert fold.send(Draft(ROOM, "absent", room.version, [("at", 0)]), ANA) is None
        assert room.ignored == {"not now": 1}

    @given(st.lists(st.sampled_from(["move", "move", "move", "takeback", "accept", "decline", "abort"]),
                    max_size=40), st.integers(0, 1000))
    def test_random_offers_keep_the_game_a_prefix_of_its_moves_and_every_fold_agrees(self, actions, seed):
        """Moves, offers and answers in any order: the game is always the moves played less those
        taken back (replayed from scratch, the rules accept them), and a second fold agrees."""
        fold = playing(clock="1+1")
        rng = random.Random(seed)
        stored = []
        for action in actions:
            room = fold.room
            if room.phase != "playing":
                break
            mover = room.to_move_key()
            other = room.seats[1 - room.seat_of(mover)].key
            draft = None
            try:
                if action == "move":
                    draft, key = room.draft_move(mover, str(rng.choice(room.game.legal_moves())), 500), mover
                elif action == "takeback":
                    key = rng.choice([mover, other])
                    draft = room.draft_takeback(key)
                elif action in ("accept", "decline"):
                    key = other if room.offer == room.seat_of(mover) else mover
                    draft = room.draft_answer(key, action == "accept")
                else:
                    key = mover
                    draft = room.draft_abort(key)
            except LiveError:
                continue
            data = draft.signed(key, SIG)
            assert fold.store(data, dt=700)
            stored.append((fold.seq, fold.time_ms, data))
            replay = Game()
            for move in room.game.moves:
                replay.push(move)
            assert replay.record() == room.game.record()
            assert len(room.clocks.spent) == room.game.ply
        again = playing(clock="1+1")
        for seq, time_ms, data in stored:
            again.room.apply("game", seq, time_ms, decode(data), True)
        assert again.room.game.record() == fold.room.game.record() and again.room.clocks.left == fold.room.clocks.left
        assert (again.room.phase, again.room.takebacks, again.room.offer) == (fold.room.phase, fold.room.takebacks,
                                                                            fold.room.offer)


class TestChat:
    def test_lines_named_by_seat_or_watcher_number(self):
        fold = seated()
        room = fold.room
        fold.send(room.draft_chat(CLEO, "hello"), CLEO)
        fold.send(room.draft_chat(ANA, "  hi Cleo  "), ANA)
        fold.send(room.draft_chat(MALLORY, "<script>alert(1)</script>"), MALLORY)
        fold.send(room.draft_chat(CLEO, "again"), CLEO)
        assert [(line.author, line.text) for line in room.chat] == [
            ("watcher 1", "hello"), ("Ana", "hi Cleo"), ("watcher 2", "<script>alert(1)</script>"),
            ("watcher 1", "again")]
        assert room.chat_seq == fold.seq and room.game_seq == 3

    def test_length_and_text_only(self):
        room = seated().room
        for bad in ("", " ", "x" * (MAX_CHAT + 1), "two\nlines", "nul\x00"):
            with pytest.raises(LiveError, match="a chat line is"):
                room.draft_chat(CLEO, bad)
        assert room.draft_chat(CLEO, "é" * MAX_CHAT).fields == [("text", "é" * MAX_CHAT)]
        assert len(room.draft_chat(CLEO, "🙂" * MAX_CHAT).signed(CLEO, SIG)) <= MAX_MESSAGE_BYTES

    def test_rate_limited_per_author_by_the_relays_clock(self):
        fold = seated()
        room = fold.room
        for i in range(CHAT_BURST + 2):
            fold.send(room.draft_chat(CLEO, f"line {i}"), CLEO, dt=100)
        fold.send(room.draft_chat(ANA, "me too"), ANA, dt=100)
        assert len(room.chat) == CHAT_BURST + 1 and dict(room.ignored) == {"rate limited": 2}
        with pytest.raises(LiveError, match="too fast"):
            room.draft_chat(CLEO, "more", time_ms=fold.time_ms)
        fold.send(room.draft_chat(CLEO, "later"), CLEO, dt=CHAT_WINDOW_MS)
        assert room.chat[-1].text == "later"

    def test_a_replayed_line_is_stale_and_a_forged_one_ignored(self):
        fold = seated()
        room = fold.room
        line = room.draft_chat(ANA, "gg")
        fold.send(line, ANA)
        fold.send(line, ANA)
        fold.send(room.draft_chat(ANA, "forged"), ANA, verified=False)
        fold.store(Draft(ROOM, "move", 3, [("ply", 0), ("move", "e3"), ("think", 0)]).signed(ANA, SIG), "chat")
        assert [line.text for line in room.chat] == ["gg"]
        assert dict(room.ignored) == {"stale": 1, "bad signature": 1, "malformed": 1}


class TestPresence:
    def test_heard_recently_is_connected(self):
        room = seated().room
        assert room.presence(decode(room.draft_presence("here", 10).signed(BEN, SIG)), True, 1000)
        assert room.presence(decode(room.draft_presence("here", 5).signed(CLEO, SIG)), True, 1000)
        assert not room.presence(decode(room.draft_presence("here", 5).signed(CLEO, SIG)), True, 2000)  # replay
        assert not room.presence(decode(room.draft_presence("here", 9).signed(ANA, SIG)), False, 2000)  # forged
        assert room.present(1000) == ["Ben", "a watcher"]
        assert room.connected(BEN, 1000 + PRESENCE_TIMEOUT_MS - 1)
        assert not room.connected(BEN, 1000 + PRESENCE_TIMEOUT_MS)
        room.presence(decode(room.draft_presence("gone", 11).signed(BEN, SIG)), True, 3000)
        assert room.present(3000) == ["a watcher"]


class TestWire:
    def test_subjects(self):
        assert game_subject(ROOM) == f"yinsh.room.{ROOM}.game" and chat_subject(ROOM) == f"yinsh.room.{ROOM}.chat"
        assert presence_subject(ROOM) == f"yinsh.here.{ROOM}" and room_filter(ROOM) == f"yinsh.room.{ROOM}.*"
        assert subject_kind(ROOM, chat_subject(ROOM)) == "chat" and subject_kind(ROOM, "yinsh.room.x.game") is None
        assert not valid_room("a" * 33) and not valid_room("abc.defgh") and not valid_room(None)
        with pytest.raises(LiveError):
            Room("bad name")

    def test_stream_limits(self):
        config = stream_config(3)
        assert config["subjects"] == ["yinsh.room.*.*"] and config["num_replicas"] == 3
        assert config["discard"] == "new" and config["discard_new_per_subject"] is True
        assert config["max_msg_size"] == MAX_MESSAGE_BYTES and config["storage"] == "file"
        assert config["max_consumers"] >= 10_000  # nats-server 2.15 would otherwise allow 1,000

    def test_every_kind_round_trips(self):
        values = {"colours": "random", "name": "Ana", "nonce": "nonce-of-ana", "ply": 7, "move": "e4-e10",
                  "text": "hi", "seq": 12, "clock": "3+2", "think": 1500, "at": 9}
        for kind, names in FIELDS.items():
            draft = Draft(ROOM, kind, 3, [(name, values[name]) for name in names])
            data = draft.signed(ANA, SIG)
            message = decode(data)
            assert (message.kind, message.n, message.key, message.signature) == (kind, 3, ANA, SIG)
            assert message.text(ROOM) == draft.text() and json.loads(data)["t"] == kind
        with pytest.raises(ValueError):
            Draft(ROOM, "move", 0, [("move", "e3")])

    @pytest.mark.parametrize(("data", "reason"), [
        (b"", "malformed"), (b"null", "malformed"), (b"[]", "malformed"), (b'{"v":3}', "malformed"),
        (b'{"v":true,"t":"start","n":0}', "malformed"), (b'{"v":3,"t":"dance","n":0}', "malformed"),
        (b'{"v":3,"t":"start","n":-1}', "malformed"), (b'{"v":3,"t":"start","n":1.5}', "malformed"),
        (b'{"v":3,"t":"move","n":0,"ply":0,"move":7}', "malformed"), (b'{"v":3,"t":"start","n":0}', "unsigned"),
        (b'{"v":3,"t":"start","n":0,"k":"short","s":"short"}', "malformed"), (b"[" * 2000, "malformed"),
        (b"\xc3\x28", "malformed"), (b" " * (MAX_MESSAGE_BYTES + 1), "oversized"),
    ])
    def test_what_is_not_a_message(self, data, reason):
        with pytest.raises(BadMessage) as caught:
            decode(data)
        assert caught.value.reason == reason

    @given(st.binary(max_size=300) | st.text(max_size=200).map(str.encode))
    def test_decode_refuses_anything_else_cleanly(self, data):
        try:
            message = decode(data)
        except BadMessage:
            return
        assert message.kind in FIELDS


class TestStatus:
    """What the page shows (yinsh.live.status): the testing contract's values and the buttons."""

    def test_from_waiting_to_over_for_each_person(self):
        from yinsh.live.status import live_status

        fold = Fold()
        assert live_status(fold.room, ANA, True, 0).prompt == "This room does not exist, or it has expired."
        fold.send(fold.room.draft_create(ANA, "black"), ANA)
        fold.send(fold.room.draft_join(ANA, "Ana", "nonce-of-ana"), ANA)
        ana = live_status(fold.room, ANA, True, 0)
        assert (ana.live, ana.seat, ana.actions, ana.prompt) == ("waiting", "watcher", ["leave", "chat"],
                                                                "Waiting for a second player.")
        fold.send(fold.room.draft_join(BEN, "Ben", "nonce-of-ben"), BEN)
        assert live_status(fold.room, BEN, True, 0).actions == ["start", "leave", "chat"]
        assert live_status(fold.room, CLEO, True, 0).actions == ["chat"]
        fold.send(fold.room.draft_start(ANA), ANA)
        for presence in (BEN, CLEO):
            fold.room.presence(decode(fold.room.draft_presence("here", 1).signed(presence, SIG)), True, 1000)
        ben, ana, cleo = (live_status(fold.room, k, True, 2000) for k in (BEN, ANA, CLEO))
        assert (ben.live, ben.seat, ben.prompt) == ("playing", "white", "Your move.")
        assert ben.actions == ["move", "resign", "leave", "chat"]
        assert (ana.seat, ana.actions, ana.prompt) == ("black", ["resign", "leave", "chat"], "Waiting for Ben.")
        assert (cleo.seat, cleo.watchers, cleo.actions) == ("watcher", 1, ["chat"])
        assert [(p.name, p.colour, p.connected, p.you) for p in ana.players] == [
            ("Ana", "black", False, True), ("Ben", "white", True, False)]
        assert live_status(fold.room, ANA, True, 1000 + 20_000).prompt == "Ben is disconnected: the game waits."
        assert live_status(fold.room, ANA, False, 2000).live == "reconnecting"
        fold.send(fold.room.draft_leave(BEN), BEN)
        over = live_status(fold.room, ANA, True, 2000)
        assert (over.live, over.result, over.prompt) == ("over", "0-1", "Game over: 0-1, a player left.")
        fold.send(fold.room.draft_chat(CLEO, "gg"), CLEO)
        assert live_status(fold.room, ANA, True, 2000).chat == [["watcher 1", "gg"]]
