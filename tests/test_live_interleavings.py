"""Live rooms under random interleavings, browser-free: publishes, refusals, duplicates, lost
deliveries, reconnects from a sequence, checks and folds, for two seats, a second tab of one
seat, a watcher and a hostile client.

A small relay in plain Python stands in for JetStream with the guarantees the transports rely
on and no more: one stream in order, a publish refused when its expected last subject sequence
is not the subject's last, one stored per ``Nats-Msg-Id``, and consumers that deliver in order
from a start sequence and count a message delivered once it left — so a delivery lost on the way
(a connection dropped mid-pull) is gone for that consumer, as it is with nats-server. Each
reader folds through :meth:`yinsh.live.room.Room.receive`, the rules core checking every move,
and follows the transports' policy: a consumer made again from ``Room.seq + 1`` after a
reconnect, and a check of the room's last stored sequence (:meth:`Room.behind`).

What must hold at every step: a reader's room is exactly the room folded from the stream's
prefix up to its :attr:`Room.seq` (so every reader that folded the same prefix shows the same
room), and nothing beyond it is folded; at the end, once deliveries stop being lost, one check
and one read bring every reader to the whole stream — no stored move skipped, none counted twice.
"""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from yinsh import pgn
from yinsh.game import Game
from yinsh.live.protocol import Draft, Message
from yinsh.live.room import LiveError, Room

ROOM = "k3JH_x-9aZ0qLw2mNb7cQe"
ANA, BEN, CLEO, MALLORY = ("A" * 43, "B" * 43, "C" * 43, "M" * 43)
GAME = Game.from_record(pgn.split_records((Path(__file__).parent / "data" / "games.ygn").read_text(encoding="utf-8"),
                                          None, None)[3])
"""A real game (45 moves, White wins 3–1): its first moves are a room's opening, so that the random
moves after them soon make rows, removals and the game's end."""


def _signature(key: str, text: bytes) -> str:
    """A stand-in for Ed25519 that only the key's holder makes here (the tests' writers)."""
    return base64.urlsafe_b64encode(hashlib.sha512(key.encode() + text).digest()).decode().rstrip("=")[:86]


def _verify(message: Message, text: bytes) -> bool:
    return message.signature == _signature(message.key, text)


def _signed(draft: Draft, key: str) -> bytes:
    return draft.signed(key, _signature(key, draft.text()))


class Refused(Exception):
    """The relay refused a publish (wrong last sequence)."""


class Stream:
    """The stream: ``(seq, subject, data)`` in order, the last sequence of each subject, the ids seen."""

    def __init__(self) -> None:
        self.messages: list[tuple[int, str, bytes]] = []
        self.last: dict[str, int] = {}
        self.ids: dict[str, int] = {}

    def publish(self, subject: str, data: bytes, expected: int | None = None, msg_id: str | None = None) -> int:
        if msg_id is not None and msg_id in self.ids:
            return self.ids[msg_id]  # a publish sent again: stored once, answered with the same sequence
        if expected is not None and self.last.get(subject, 0) != expected:
            raise Refused(f"wrong last sequence: {self.last.get(subject, 0)}")
        seq = len(self.messages) + 1
        self.messages.append((seq, subject, data))
        self.last[subject] = seq
        if msg_id is not None:
            self.ids[msg_id] = seq
        return seq

    def last_stored(self) -> int:
        return len(self.messages)


def fold_prefix(stream: Stream, upto: int) -> Room:
    """The room a perfect reader folds from the stream's first ``upto`` messages."""
    room = Room(ROOM)
    for seq, subject, data in stream.messages[:upto]:
        room.receive(subject, seq, seq * 1000, data, _verify)
    return room


def snapshot(room: Room) -> tuple:
    """Everything a page shows of a room (presence aside: it is not stored)."""
    return (room.phase, room.colours, room.creator, [(s.key, s.name) for s in room.seats if s is not None],
            [i for i, s in enumerate(room.seats) if s is None], room.games, room.white, room.ending, room.loser,
            room.version, list(room.events), room.game.record() if room.game else None, room.seq, room.game_seq,
            room.chat_seq, [(c.seq, c.author, c.text) for c in room.chat], dict(room.ignored))


class Reader:
    """A page's reading of the room: its room, and its consumer — the next stream index it
    delivers from, how many it delivered (its delivery sequence), and what it delivered that is
    not folded yet. An ordered consumer (nats.ws's, nats-py's) notices a delivery sequence that
    skips (a message delivered, then lost) when the next one comes, and starts again from the
    last message it handed over; the reader does the same."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.room = Room(ROOM)
        self.cursor = 0  # the consumer's next stream index: where the relay thinks it is
        self.delivered = 0  # the consumer's delivery sequence
        self.handed = 0  # the delivery sequence of the last message folded
        self.inflight: list[tuple[int, int, str, bytes]] = []
        self.reconnect()

    def reconnect(self) -> None:
        """A consumer made again from the message after the last one folded (what is in flight is lost)."""
        self.inflight = []
        self.cursor = self.room.seq
        self.delivered = self.handed = 0

    def deliver(self, stream: Stream, count: int) -> None:
        """The consumer sends up to ``count`` messages: from now on the relay counts them delivered."""
        for seq, subject, data in stream.messages[self.cursor:self.cursor + count]:
            self.delivered += 1
            self.inflight.append((self.delivered, seq, subject, data))
            self.cursor += 1

    def fold(self) -> None:
        for delivered, seq, subject, data in self.inflight:
            if delivered != self.handed + 1:  # a delivery lost before this one: start again
                self.reconnect()
                return
            self.handed = delivered
            self.room.receive(subject, seq, seq * 1000, data, _verify)
        self.inflight = []

    def check(self, stream: Stream) -> bool:
        """The guard: ask the stream for its last sequence; behind, read again from the last folded."""
        behind = self.room.behind(stream.last_stored())
        if behind:
            self.reconnect()
        return behind


class Writer:
    """Someone who sends: a key, and the reader whose room they draft from."""

    def __init__(self, key: str, reader: Reader) -> None:
        self.key = key
        self.reader = reader
        self.last: tuple[bytes, str, int | None] | None = None  # the last publish, to send again
        self.chat_lines = 0


class Interleavings:
    """Two seats (Ana, Ben), a second tab of Ana's seat, a watcher (Cleo) and Mallory, each reading
    the room through their own lossy consumer and sending from what their room shows."""

    def __init__(self, opening: int = 0) -> None:
        self.stream = Stream()
        self.readers = {name: Reader(key) for name, key in
                        (("ana", ANA), ("ana2", ANA), ("ben", BEN), ("cleo", CLEO), ("mallory", MALLORY))}
        self.writers = {name: Writer(self.readers[name].key, self.readers[name]) for name in self.readers}
        self.guarded: set[int] = set()  # events the relay stored past the sequence guard
        self.losing = True
        self.whole = Room(ROOM)  # the stream folded by a perfect reader, message by message
        self.prefixes = [snapshot(self.whole)]  # the room after each prefix of the stream
        for draft, key in ((lambda r: r.draft_create(ANA, "random"), ANA),
                           (lambda r: r.draft_join(ANA, "Ana", "nonce-ana-0"), ANA),
                           (lambda r: r.draft_join(BEN, "Ben", "nonce-ben-0"), BEN),
                           (lambda r: r.draft_start(BEN), BEN)):
            self._publish("game", _signed(draft(self.whole), key), self.whole.game_seq)
        for move in list(GAME.moves)[:opening]:
            if self.whole.game is not None and str(move) != "pass" and self.whole.game.ply < opening:
                mover = self.whole.to_move_key()
                assert mover is not None
                self._publish("game", _signed(self.whole.draft_move(mover, str(move)), mover), self.whole.game_seq)

    def _publish(self, subject: str, data: bytes, expected: int | None = None, msg_id: str | None = None) -> int:
        """Store through the relay (:class:`Refused` when the guard refuses), and fold it into the whole."""
        stored = self.stream.last_stored()
        seq = self.stream.publish(subject, data, expected, msg_id)
        if self.stream.last_stored() > stored:
            self.whole.receive(subject, seq, seq * 1000, data, _verify)
            self.prefixes.append(snapshot(self.whole))
        return seq

    # -- sending -----------------------------------------------------------------------

    def _send(self, writer: Writer, draft: Draft, guarded: bool, subject: str = "game") -> None:
        data = _signed(draft, writer.key)
        expected = writer.reader.room.game_seq if guarded and subject == "game" else None
        writer.last = (data, subject, expected)
        stored = self.stream.last_stored()
        try:
            seq = self._publish(subject, data, expected, msg_id=data.decode()[-42:-2])
        except Refused:
            return
        if expected is not None and seq > stored:  # not a duplicate: those pass unchecked, answered as before
            self.guarded.add(seq)

    def move(self, who: str, pick: int, guarded: bool) -> None:
        """A seat moves from what its room shows (perhaps behind: a stale move, refused or ignored)."""
        writer = self.writers[who]
        room = writer.reader.room
        if room.phase != "playing" or room.to_move_key() != writer.key:
            return
        moves = room.game.legal_moves()  # type: ignore[union-attr]
        self._send(writer, room.draft_move(writer.key, str(moves[pick % len(moves)])), guarded)

    def read_and_move(self, who: str, pick: int) -> None:
        """The usual turn: the seat's page reads what is stored (what it can: a lost delivery stops
        it there), then moves. ``who`` may be ``to-move``: a page of the seat whose turn it is."""
        if who == "to-move":
            who = "ben" if self.whole.to_move_key() == BEN else ("ana", "ana2")[pick % 2]
        reader = self.readers[who]
        reader.deliver(self.stream, 20)
        reader.fold()
        self.move(who, pick, True)

    def decide(self, who: str, action: str) -> None:
        """Resign now and then, and start the rematch."""
        writer = self.writers[who]
        room = writer.reader.room
        try:
            draft = room.draft_resign(writer.key) if action == "resign" else room.draft_start(writer.key)
        except LiveError:
            return
        if action == "resign" and (room.game is None or room.game.ply < 6):
            return  # a few moves first
        self._send(writer, draft, True)

    def chat(self, who: str) -> None:
        writer = self.writers[who]
        writer.chat_lines += 1
        self._send(writer, Draft(ROOM, "chat", writer.chat_lines, [("text", f"line {writer.chat_lines}")]),
                   False, "chat")

    def send_again(self, who: str) -> None:
        """A publish whose answer was lost, sent again with the same message id."""
        writer = self.writers[who]
        if writer.last is not None:
            data, subject, expected = writer.last
            try:
                self._publish(subject, data, expected, msg_id=data.decode()[-42:-2])
            except Refused:
                pass

    def hostile(self, kind: str) -> None:
        """Mallory stores what no page may show (or Cleo tries a seat: the room is full)."""
        room = self.readers["mallory"].room
        if kind == "junk":
            self._publish("game", b"not json")
        elif kind == "forged" and room.phase == "playing" and room.to_move_key() is not None:
            draft = room.draft_move(room.to_move_key(), str(room.game.legal_moves()[0]))  # type: ignore[arg-type, union-attr]
            self._publish("game", draft.signed(room.to_move_key(), _signature(MALLORY, draft.text())))  # type: ignore[arg-type]
        elif kind == "replayed" and self.stream.messages:
            self._publish("game", self.stream.messages[-1][2])
        elif kind == "cleo-joins":
            self._publish("game", _signed(Draft(ROOM, "join", room.version, [("name", "Cleo"),
                                                                                  ("nonce", "nonce-cleo-0")]), CLEO))
        else:
            self._publish("other", _signed(Draft(ROOM, "chat", 1, [("text", "elsewhere")]), MALLORY))

    # -- reading -----------------------------------------------------------------------

    def deliver_and_fold(self, who: str, count: int) -> None:
        reader = self.readers[who]
        reader.deliver(self.stream, count)
        reader.fold()

    def deliver(self, who: str, count: int) -> None:
        """Delivered, not yet folded (a pull's batch on its way, or its signatures being checked)."""
        self.readers[who].deliver(self.stream, count)

    def lose(self, who: str) -> None:
        """The connection drops with messages on their way: the consumer counted them delivered."""
        if self.losing:
            self.readers[who].inflight = []

    def reconnect(self, who: str) -> None:
        self.readers[who].reconnect()

    def check(self, who: str) -> None:
        self.readers[who].check(self.stream)

    # -- what must hold ----------------------------------------------------------------

    def every_reader_shows_the_prefix_it_folded(self) -> None:
        for name, reader in self.readers.items():
            assert snapshot(reader.room) == self.prefixes[reader.room.seq], name

    def teardown(self) -> None:
        """No more losses: one check and one read bring everyone to the whole stream."""
        self.losing = False
        assert snapshot(fold_prefix(self.stream, self.stream.last_stored())) == self.prefixes[-1]
        for name, reader in self.readers.items():
            reader.fold()  # what was on its way arrives
            reader.check(self.stream)
            reader.deliver(self.stream, len(self.stream.messages))
            reader.fold()
            assert not reader.room.behind(self.stream.last_stored()), name
            assert snapshot(reader.room) == self.prefixes[-1], name
            assert reader.room.events == self.whole.events, name  # no stored event skipped, none twice
        assert self.whole.events == sorted(set(self.whole.events))
        # the guard and the room agree: an event stored past the guard was drafted from the room's
        # whole game, so it counts (a stale one can only be stored unguarded, and is ignored)
        assert self.guarded <= set(self.whole.events)


READERS = ["ana", "ana2", "ben", "cleo", "mallory"]
SEATS = ["ana", "ana2", "ben"]
PICK = st.integers(0, 10_000)
STEP = st.one_of(
    # the usual turn, most often: a game goes on long enough for rows, removals and passes
    *[st.tuples(st.just("read_and_move"), st.sampled_from(["to-move", "to-move", *SEATS]), PICK)] * 6,
    st.tuples(st.just("move"), st.sampled_from(SEATS), PICK, st.booleans()),
    st.tuples(st.just("decide"), st.sampled_from(SEATS), st.sampled_from(["resign", "start"])),
    st.tuples(st.just("chat"), st.sampled_from(["cleo", "ben"])),
    st.tuples(st.just("send_again"), st.sampled_from(["ana", "ana2", "ben", "cleo"])),
    st.tuples(st.just("hostile"), st.sampled_from(["junk", "forged", "replayed", "cleo-joins", "other-subject"])),
    *[st.tuples(st.just("deliver_and_fold"), st.sampled_from(READERS), st.integers(1, 4))] * 2,
    *[st.tuples(st.just("deliver"), st.sampled_from(READERS), st.integers(1, 4))] * 2,
    *[st.tuples(st.just("lose"), st.sampled_from(READERS))] * 2,
    st.tuples(st.just("reconnect"), st.sampled_from(READERS)),
    st.tuples(st.just("check"), st.sampled_from(READERS)),
)


@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(st.sampled_from([0, 10, 30, 40]), st.lists(STEP, min_size=100, max_size=300))
def test_every_reader_converges_on_the_stream(opening: int, steps: list[tuple]) -> None:
    machine = Interleavings(opening)
    for step in steps:
        getattr(machine, step[0])(*step[1:])
        machine.every_reader_shows_the_prefix_it_folded()
    machine.teardown()


def test_a_lost_delivery_is_found_by_the_check_alone() -> None:
    """The fault behind a move that never arrived, step by step: Ben's consumer delivered Ana's
    move to a connection that was lost, and nothing else comes (Ana waits for Ben). Only the
    check finds it, and reading from the last folded sequence recovers it."""
    machine = Interleavings()
    ana, ben = machine.readers["ana"], machine.readers["ben"]
    for reader in (ana, ben):
        reader.deliver(machine.stream, 100)
        reader.fold()
    mover = ana if ana.room.to_move_key() == ANA else ben
    waiting = ben if mover is ana else ana
    machine.move("ana" if mover is ana else "ben", 0, True)
    waiting.deliver(machine.stream, 100)
    waiting.inflight = []  # lost on the way
    waiting.deliver(machine.stream, 100)
    assert waiting.inflight == []  # the consumer has nothing more: it thinks it delivered the move
    assert waiting.room.behind(machine.stream.last_stored())
    assert waiting.check(machine.stream)
    waiting.deliver(machine.stream, 100)
    waiting.fold()
    assert snapshot(waiting.room) == snapshot(fold_prefix(machine.stream, machine.stream.last_stored()))
