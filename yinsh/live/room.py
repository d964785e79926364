"""A live room as a pure state machine, folded from its stream's messages in order.

Every page in a room (each player, each watcher) folds the same messages in the same order
(the stream's) and so agrees on everything: who sits where, which game is on, every move
(each checked by the rules core before it counts), who resigned, the chat. Nothing trusts
the relay or another client: a message counts only if the transport found it signed by the
key it names (:meth:`Room.apply`'s ``verified``) and that key may do what it asks here and
now; anything else is ignored and counted in :attr:`Room.ignored`, never shown.

The room's **version** (:attr:`Room.version`) counts the events it accepted; an event is
signed for the version it applies to, so one sent again (a replay, a second tab's move for
the same turn) never counts twice. The stream's side of the same guard: a publisher sends
with the expected last sequence of the game subject set to :attr:`Room.game_seq`, the last
one it has folded (junk included), so the relay refuses a second event for one turn.

A room is folded as a **prefix** of its stream: :attr:`Room.seq` is the last stream sequence
folded, of any of the room's subjects, and a message at or below it is one folded already
(redelivered). A reader that lost its consumer (a connection dropped while messages were on
their way, a relay restarted, a node lost) reads again from ``seq + 1``, and a reader that is
unsure asks the stream for the room's last stored sequence: :meth:`Room.behind` says whether
it has folded everything up to it. Readers that folded the same prefix show the same room.

What a local player may do is asked of the room first (:meth:`Room.draft_move` and the other
``draft_`` methods): each returns the :class:`~yinsh.live.protocol.Draft` to sign and send,
or raises :class:`LiveError` saying why not.

>>> room = Room("k3JH_x-9aZ0qLw2mNb7cQe")
>>> ana, ben = "A" * 43, "B" * 43
>>> def sent(draft, key, seq):  # the relay stores it, the transport verified it
...     return room.apply("game", seq, 1000 * seq, decode(draft.signed(key, "s" * 86)), True)
>>> sent(room.draft_create(ana, "white"), ana, 1).kind
'room'
>>> sent(room.draft_join(ana, "Ana", "nonce-ana"), ana, 2) and sent(room.draft_join(ben, "Ben", "nonce-ben"), ben, 3)
<Message join n=2 name='Ben' nonce='nonce-ben' key=BBBBBBBB…>
>>> _ = sent(room.draft_start(ben), ben, 4)
>>> room.phase, room.colour_of(ana), room.seat_of(ben)
('playing', 'white', 1)
>>> e3 = room.draft_move(ana, "e3")
>>> _ = sent(e3, ana, 5)
>>> room.game.record(), room.version
('1.e3', 5)
>>> sent(e3, ana, 6) is None  # sent again: signed for version 4, it is stale
True
>>> room.ignored
{'stale': 1}
"""

from __future__ import annotations

import binascii
from typing import TYPE_CHECKING, Final

from yinsh.compat import ordered_dict
from yinsh.errors import YinshError
from yinsh.game import Game
from yinsh.live.clock import Clocks, TimeControl
from yinsh.live.protocol import (
    COLOURS,
    GAME_KINDS,
    MAX_CHAT,
    MAX_MOVE,
    MAX_NAME,
    MAX_THINK_MS,
    NONCE_LENGTH,
    BadMessage,
    Draft,
    Message,
    clean_text,
    decode,
    valid_room,
    valid_token,
)
from yinsh.state import has_row, ring_moves

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["LiveError", "Seat", "ChatLine", "Room", "CHAT_BURST", "CHAT_WINDOW_MS", "PRESENCE_TIMEOUT_MS",
           "HEARTBEAT_MS", "QUIET_CHECK_MS", "SEND_MS", "ABORT_PLIES", "ABSENCE_MS"]

CHAT_BURST: Final = 5
"""A chat author may write this many lines…"""
CHAT_WINDOW_MS: Final = 10_000
"""…in any window this long (the relay's timestamps: every page counts alike)."""
MAX_CHAT_LINES: Final = 200
"""The lines a room keeps for its page (the stream keeps more)."""
HEARTBEAT_MS: Final = 3_000
"""How often a page in a room says ``here`` (and at once when it connects or is asked ``who``)."""
PRESENCE_TIMEOUT_MS: Final = 10_000
"""Someone not heard of for this long (three beats missed) is no longer connected."""
QUIET_CHECK_MS: Final = 5_000
"""A reader that folded nothing for this long asks the stream for the room's last stored sequence
(and again after as long, while quiet): a message its consumer lost on the way is read again, whatever lost it."""
ABORT_PLIES: Final = 3
"""A game may be aborted (no result) while it has fewer moves than this: neither player has
placed a second ring."""
ABSENCE_MS: Final = 30_000
"""How long a player to move who is asked whether they are there (``absent``) has to answer
(``back``) or move before a second ``absent``, its own stored time showing it, wins the game."""
SEND_MS: Final = 20_000
"""How long, connected, an event is tried before its sender gives up, and then how long its reader
may take to fold it. Twice the longest a stream goes without a leader when its leader crashes
(nats-server's raft waits 4 to 9 s after the leader's last heartbeat, then campaigns for up to
0.8 s): a move made then goes once another node leads, on a machine that is busy too."""
PHASES: Final = ("new", "waiting", "playing", "over")
"""``new`` (no room yet: not created, or its messages expired), ``waiting`` (for players or a
start), ``playing``, ``over`` (a game ended; a start begins a rematch)."""


class LiveError(ValueError):
    """What the local player asked cannot be done now; the message says why, for the page."""


class Seat:
    """A taken seat: the player's public key (which signs their events), name and nonce."""

    __slots__ = ("key", "name", "nonce")

    def __init__(self, key: str, name: str, nonce: str) -> None:
        self.key = key
        self.name = name
        self.nonce = nonce

    def __repr__(self) -> str:
        return f"<Seat {self.name!r} {self.key[:8]}…>"


class ChatLine:
    """A line of chat: the stream sequence, who wrote it (a seat's name or ``watcher 3``), their
    key, the text (plain text: a page shows it as text, never as markup) and the relay's time."""

    __slots__ = ("seq", "author", "key", "text", "time_ms")

    def __init__(self, seq: int, author: str, key: str, text: str, time_ms: int) -> None:
        self.seq = seq
        self.author = author
        self.key = key
        self.text = text
        self.time_ms = time_ms

    def __repr__(self) -> str:
        return f"<ChatLine {self.author}: {self.text!r}>"


class Room:
    """One room, folded from its messages (see the module's docstring).

    Public state, for a page or a test to read: :attr:`name`, :attr:`phase`, :attr:`colours`
    (the creator's choice for the first seat), :attr:`seats` (two, ``None`` when free),
    :attr:`game` (the game in progress or the last one, a :class:`yinsh.Game`), :attr:`games`
    (how many were started), :attr:`white` (the seat playing White), :attr:`clock` (the room's
    time control) and :attr:`clocks` (the game's, from the stored messages' times), :attr:`ending`
    (``resign``, ``leave``, ``time``, ``absent``, ``abort`` or ``rules``), :attr:`loser` (the seat
    that resigned, left, ran out of time or was gone), :attr:`offer` (the seat offering to take
    back a move), :attr:`absent_since` (when the player to move was asked whether they are
    there, by the relay's clock), :attr:`takebacks` (how many were accepted in this room),
    :attr:`version`, :attr:`seq` (the last stream sequence folded, any subject of the room),
    :attr:`game_seq` and :attr:`chat_seq` (the last folded on each subject), :attr:`chat`,
    :attr:`ignored` (why messages were ignored, with counts).
    """

    def __init__(self, name: str) -> None:
        if not valid_room(name):
            raise LiveError(f"'{name}' is not a room's name")
        self.name = name
        self.phase = "new"
        self.colours = "white"
        self.creator = ""
        self.seats: list[Seat | None] = [None, None]
        self.game: Game | None = None
        self.games = 0
        self.white = 0
        self.clock = TimeControl("none")
        self.clocks: Clocks | None = None
        self.ending: str | None = None
        self.loser: int | None = None
        self.offer: int | None = None
        self.absent_since: int | None = None
        self.takebacks = 0
        self.version = 0
        self.events: list[int] = []
        """The stream sequence of each event accepted, by version: whose event won a turn."""
        self.seq = 0
        self.game_seq = 0
        self.chat_seq = 0
        self.chat: list[ChatLine] = []
        self.ignored: dict[str, int] = ordered_dict()
        self._pairing: tuple[str, str] | None = None  # the keys (white's, black's) of the last game
        self._chat_counter: dict[str, int] = {}
        self._chat_times: dict[str, list[int]] = {}
        self._watchers: list[str] = []
        self._seen: dict[str, int] = {}  # key → the page's clock when last heard of
        self._clocks: dict[str, int] = {}  # key → the latest presence clock it sent
        self._started_at = 0  # the game's start, stored at (the relay's clock)
        self._turns: list[tuple[int, int]] = []  # each ply's (stored at, think ms); think -1: a pass

    # -- reading ---------------------------------------------------------------------

    def seat_of(self, key: str) -> int | None:
        """The seat (0 or 1) whose key is ``key``, or ``None``: a returning player is
        recognised by the key their browser kept."""
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.key == key:
                return i
        return None

    def colour_of(self, key: str) -> str | None:
        """``white`` or ``black`` for a player of the game in progress or the last one, else ``None``."""
        seat = self.seat_of(key)
        if seat is None or self.game is None:
            return None
        return "white" if seat == self.white else "black"

    def role_of(self, key: str) -> str:
        """What ``key``'s page is here: ``white``, ``black`` (a seat, once a game was
        started) or ``watcher`` (``#board[data-seat]``)."""
        return self.colour_of(key) or "watcher"

    def to_move_key(self) -> str | None:
        """The key of the player whose turn it is, while a game is on."""
        if self.phase != "playing" or self.game is None:
            return None
        seat = self.seats[self.white if self.game.to_move == "white" else 1 - self.white]
        return seat.key if seat else None

    def free_seat(self) -> int | None:
        """The first free seat, or ``None`` when the room is full."""
        for i, seat in enumerate(self.seats):
            if seat is None:
                return i
        return None

    def result(self) -> str | None:
        """The last game's result (``1-0``, ``0-1``, ``1/2-1/2``) once it is over."""
        if self.phase != "over" or self.game is None:
            return None
        if self.ending == "rules":
            return self.game.result
        if self.ending == "abort":
            return None
        loser_white = self.loser == self.white
        return "0-1" if loser_white else "1-0"

    def behind(self, last_stored: int) -> bool:
        """Whether the stream holds a message of this room that is not folded yet: ``last_stored``
        is the stream sequence of the room's last stored message (0: none), as the relay says."""
        return last_stored > self.seq

    def seat_colour(self, seat: int) -> str | None:
        """The colour seat ``seat`` plays: in the game in progress or the last one; before the
        first, the one the creator chose for their seat (the other seat the other colour);
        ``None`` while the colours are to be drawn at the start."""
        if self.game is not None:
            return "white" if seat == self.white else "black"
        if self.colours not in ("white", "black"):
            return None
        return self.colours if seat == self._creators_seat() else ("black" if self.colours == "white" else "white")

    def _creators_seat(self) -> int:
        """The seat the creator's colour choice is for: theirs, else the first."""
        seat = self.seat_of(self.creator) if self.creator else None
        return 0 if seat is None else seat

    def author(self, key: str) -> str:
        """How chat names ``key``: a seat's player name, else ``watcher N`` (in the order watchers
        first wrote)."""
        seat = self.seat_of(key)
        if seat is not None:
            return self.seats[seat].name  # type: ignore[union-attr]
        if key not in self._watchers:
            self._watchers.append(key)
        return "watcher " + str(self._watchers.index(key) + 1)

    # -- folding the stream --------------------------------------------------------------

    def receive(self, subject: str, seq: int, time_ms: int, data: bytes,
                verify: Callable[[Message, bytes], bool]) -> Message | None:
        """Fold one stored message (raw bytes) with a synchronous verifier: ``verify(message,
        signed_text)`` is whether the message's key signed that text. A transport that verifies
        asynchronously (WebCrypto) calls :func:`~yinsh.live.protocol.decode`, verifies, then
        :meth:`apply` (or :meth:`junk`) itself, in the stream's order. ``subject``: ``game``,
        ``chat``, or anything else for a message stored on another subject of the room (a
        hostile client's: its sequence is folded, the message ignored)."""
        try:
            message = decode(data)
        except BadMessage as exc:
            self.junk(subject, seq, exc.reason)
            return None
        return self.apply(subject, seq, time_ms, message, verify(message, message.text(self.name)))

    def junk(self, subject: str, seq: int, reason: str) -> None:
        """Count a stored message that is not one (``malformed``, ``oversized``, ``unsigned``):
        its sequence still moves the subject's last one (and :attr:`seq`)."""
        if self._advance(subject, seq):
            self._ignore(reason)

    def apply(self, subject: str, seq: int, time_ms: int, message: Message, verified: bool) -> Message | None:
        """Fold the message stored at stream sequence ``seq`` on ``subject`` (``game`` or ``chat``)
        at the relay's ``time_ms``. ``verified``: its signature is its key's. Returns the message
        when it counted, ``None`` when it was ignored (and counted in :attr:`ignored`) or had
        been folded already (a sequence not above :attr:`seq`: redelivered)."""
        if not self._advance(subject, seq):
            return None
        if subject not in ("game", "chat"):
            return self._ignore("subject")
        if not verified:
            return self._ignore("bad signature")
        if subject == "chat":
            return self._chat(seq, time_ms, message)
        if message.kind not in GAME_KINDS:
            return self._ignore("malformed")
        if message.n != self.version:
            return self._ignore("stale")
        why = self._refusal(message, time_ms)
        if why:
            return self._ignore(why)
        self._accept(message, seq, time_ms)
        self.events.append(seq)
        self.version += 1
        return message

    def _advance(self, subject: str, seq: int) -> bool:
        """Whether the message at ``seq`` is new (above :attr:`seq`): then it is folded."""
        if seq <= self.seq:
            return False
        self.seq = seq
        if subject == "game":
            self.game_seq = seq
        elif subject == "chat":
            self.chat_seq = seq
        return True

    def _ignore(self, reason: str) -> Message | None:
        """Count a message ignored for ``reason``; ``None``, what :meth:`apply` returns then."""
        self.ignored[reason] = self.ignored.get(reason, 0) + 1
        return None

    def _refusal(self, message: Message, time_ms: int) -> str | None:
        """Why the room refuses a verified, current event stored at ``time_ms`` now, or ``None``."""
        kind, key = message.kind, message.key
        if kind == "room":
            return None if message.get("colours") in COLOURS and _control(message.get("clock")) else "malformed"
        if self.phase == "new":
            return "no room"
        seat = self.seat_of(key)
        if kind == "join":
            if seat is not None:
                return "seated already"
            if self.free_seat() is None:
                return "room full"
            if clean_text(message.get("name"), MAX_NAME) is None or not _nonce(message.get("nonce")):
                return "malformed"
            return None
        if seat is None:
            return "not seated"
        if kind == "start":
            return None if self.phase in ("waiting", "over") and self.free_seat() is None else "not now"
        if kind == "leave":
            return None
        if self.phase != "playing":
            return "not now"
        if kind == "resign":
            return None
        if kind == "flag":  # shown by its own stored time: no move of the player to move could be on time now
            return None if self.clocks is not None and self.clocks.out_of_time(time_ms) else "too early"
        if kind == "abort":
            return None if self.game is not None and self.game.ply < ABORT_PLIES else "not now"
        if kind == "takeback":
            return None if self.offer is None and self.takeback_ply(seat) is not None else "not now"
        if kind in ("accept", "decline"):
            return None if self.offer is not None and self.offer != seat else "not now"
        if kind == "absent":  # with days per move the clock decides; the first asks, the second wins
            if key == self.to_move_key() or self.clock.kind == "days":
                return "not now"
            return None if self.absent_since is None or time_ms - self.absent_since >= ABSENCE_MS else "too early"
        if kind == "back":
            return None if key == self.to_move_key() and self.absent_since is not None else "not now"
        # a move
        if key != self.to_move_key():
            return "not your turn"
        game = self.game
        assert game is not None
        text = message.get("move")
        if message.get("ply") != game.ply or len(text) > MAX_MOVE:
            return "stale" if message.get("ply") != game.ply else "illegal"
        try:
            move = game.play(text)
        except YinshError:
            return "illegal"
        game.undo()
        return None if str(move) == text else "illegal"  # the long form only: one text per move

    def _accept(self, message: Message, seq: int, time_ms: int) -> None:
        kind, key = message.kind, message.key
        if kind == "room":
            self.phase, self.colours, self.creator = "waiting", message.get("colours"), key
            self.clock = _control(message.get("clock")) or self.clock
        elif kind == "join":
            self.seats[self.free_seat() or 0] = Seat(key, clean_text(message.get("name"), MAX_NAME) or "",
                                                     message.get("nonce"))
        elif kind == "start":
            self._start(seq, time_ms)
        elif kind == "move":
            assert self.game is not None and self.clocks is not None
            if not self.clocks.move(time_ms, message.get("think")):  # stored after their time ran out
                self._end("time", self.seat_of(key))
                return
            self._turns.append((time_ms, message.get("think")))
            self.game.play(message.get("move"))
            self.offer, self.absent_since = None, None  # a move withdraws an offer and answers the question
            self._after_move()
        elif kind == "flag":
            self._end("time", self.seat_of(self.to_move_key() or ""))
        elif kind == "abort":
            self._end("abort", None)
        elif kind == "takeback":
            self.offer = self.seat_of(key)
        elif kind == "decline":
            self.offer = None
        elif kind == "accept":
            self._take_back(time_ms)
        elif kind == "absent":
            if self.absent_since is None:
                self.absent_since = time_ms
            else:
                self._end("absent", self.seat_of(self.to_move_key() or ""))
        elif kind == "back":
            self.absent_since = None
        elif kind == "resign":
            self._end("resign", self.seat_of(key))
        elif kind == "leave":
            seat = self.seat_of(key)
            if self.phase == "playing":
                self._end("leave", seat)
            self.seats[seat] = None  # type: ignore[index]

    def _start(self, seq: int, time_ms: int) -> None:
        first, second = self.seats
        assert first is not None and second is not None
        if self._pairing == (first.key, second.key):
            white = 1  # the same two players, the seats of the last game: colours swap
        elif self._pairing == (second.key, first.key):
            white = 0
        elif self.colours == "random":
            white = _draw(first.nonce, second.nonce, seq)
        else:
            chooser = self._creators_seat()
            white = chooser if self.colours == "white" else 1 - chooser
        self.white = white
        self._pairing = (self.seats[white].key, self.seats[1 - white].key)  # type: ignore[union-attr]
        self.game = Game()
        self.clocks = Clocks(self.clock)
        self.clocks.start(time_ms)
        self._started_at, self._turns = time_ms, []
        self.games += 1
        self.phase, self.ending, self.loser = "playing", None, None
        self.offer, self.absent_since = None, None
        self._after_move()

    def takeback_ply(self, seat: int | None) -> int | None:
        """How many moves the game keeps when ``seat``'s takeback is accepted: those before its
        player's last move (a forced pass is nobody's), or ``None`` when they have none."""
        if self.game is None or seat is None:
            return None
        white = seat == self.white
        moves = self.game.moves
        for ply in range(len(moves) - 1, -1, -1):
            if (ply % 2 == 0) == white and moves[ply].kind != "pass":
                return ply
        return None

    def _take_back(self, time_ms: int) -> None:
        """The offer accepted (stored at ``time_ms``): the game and both clocks as they stood
        before the offerer's last move, their turn again from now."""
        game = self.game
        ply = self.takeback_ply(self.offer)
        assert game is not None and ply is not None
        while game.ply > ply:
            game.undo()
        del self._turns[ply:]
        clocks = Clocks(self.clock)
        clocks.start(self._started_at)
        for at, think in self._turns:
            if think < 0:
                clocks.pass_turn()
            else:
                clocks.move(at, think)
        clocks.turn_start = time_ms
        self.clocks = clocks
        self.offer, self.absent_since = None, None
        self.takebacks += 1

    def _after_move(self) -> None:
        game = self.game
        assert game is not None
        # A player with no ring move passes, and only then: nobody chooses it, every page plays it.
        while game.result is None:
            state = game.state
            mine = state.black_markers if state.turn else state.white_markers
            if state.in_placement or (not has_row(mine) and ring_moves(state)):
                break  # a ring to move and no row of theirs to remove first: no forced pass (cheaply)
            moves = game.legal_moves()
            if len(moves) != 1 or str(moves[0]) != "pass":
                break
            game.push(moves[0])
            self._turns.append((0, -1))
            if self.clocks is not None:
                self.clocks.pass_turn()
        if game.result is not None:
            self._end("rules", None)

    def _end(self, ending: str, loser: int | None) -> None:
        self.phase, self.ending, self.loser = "over", ending, loser

    def _chat(self, seq: int, time_ms: int, message: Message) -> Message | None:
        if message.kind != "chat":
            return self._ignore("malformed")
        key = message.key
        if message.n <= self._chat_counter.get(key, 0):
            return self._ignore("stale")
        text = clean_text(message.get("text"), MAX_CHAT)
        if text is None:
            return self._ignore("malformed")
        times = [t for t in self._chat_times.get(key, []) if time_ms - t < CHAT_WINDOW_MS]
        if len(times) >= CHAT_BURST:
            self._chat_times[key] = times
            return self._ignore("rate limited")
        times.append(time_ms)
        self._chat_times[key] = times
        self._chat_counter[key] = message.n
        self.chat.append(ChatLine(seq, self.author(key), key, text, time_ms))
        if len(self.chat) > MAX_CHAT_LINES:
            self.chat.pop(0)
        return message

    # -- presence (core NATS, not stored) ------------------------------------------------

    def presence(self, message: Message, verified: bool, now_ms: int) -> bool:
        """Note a presence message heard at the page's clock ``now_ms``: ``here`` (every
        :data:`HEARTBEAT_MS`), ``who`` (a page that arrives asks who is there, and is there: every
        page answers ``here`` at once), ``gone`` (a page closing). ``n`` is the sender's clock,
        which must grow; whether the message counted."""
        kind = message.kind
        if not verified or kind not in ("here", "who", "gone") or message.n <= self._clocks.get(message.key, -1):
            return False
        self._clocks[message.key] = message.n
        if kind == "gone":
            self._seen.pop(message.key, None)
        else:
            self._seen[message.key] = now_ms
        return True

    def heard(self, key: str) -> bool:
        """Whether ``key``'s page was heard of at all (here, who or gone)."""
        return key in self._clocks

    def connected(self, key: str, now_ms: int) -> bool:
        """Whether ``key``'s page was heard of within :data:`PRESENCE_TIMEOUT_MS`."""
        seen = self._seen.get(key)
        return seen is not None and now_ms - seen < PRESENCE_TIMEOUT_MS

    def present_keys(self, now_ms: int) -> list[str]:
        """The keys of who is connected: the seats first, then watchers (by key)."""
        return sorted((k for k in self._seen if self.connected(k, now_ms)),
                      key=lambda k: (self.seat_of(k) is None, self.seat_of(k) or 0, k))

    def present(self, now_ms: int) -> list[str]:
        """Who is connected, by how chat names them: the seats first, then watchers."""
        return [self._label(k) for k in self.present_keys(now_ms)]

    def _label(self, key: str) -> str:
        seat = self.seat_of(key)
        if seat is not None:
            return self.seats[seat].name  # type: ignore[union-attr]
        if key in self._watchers:
            return "watcher " + str(self._watchers.index(key) + 1)
        return "a watcher"  # numbered by their first chat line: presence is not stored, so not in order

    # -- what the local player may send ------------------------------------------------

    def draft_create(self, key: str, colours: str, clock: str = "none") -> Draft:
        """Create the room: ``colours`` is the first seat's (``white``, ``black`` or ``random``),
        ``clock`` the time control of its games (``none``, ``3+2``, ``2d``:
        :meth:`~yinsh.live.clock.TimeControl.parse`)."""
        if self.phase != "new":
            raise LiveError("this room exists already")
        if colours not in COLOURS:
            raise LiveError(f"'{colours}' is not white, black or random")
        try:
            control = TimeControl.parse(clock)
        except YinshError as exc:
            raise LiveError(str(exc)) from None
        return Draft(self.name, "room", self.version, [("colours", colours), ("clock", str(control))])

    def draft_join(self, key: str, name: str, nonce: str) -> Draft:
        """Take the first free seat under ``name``; ``nonce``: fresh random letters (8–32 of
        ``A–Z a–z 0–9 _ -``) that a random colour draw mixes in."""
        if self.phase == "new":
            raise LiveError("this room does not exist (or has expired)")
        if self.seat_of(key) is not None:
            raise LiveError("you have a seat already")
        if self.free_seat() is None:
            raise LiveError("both seats are taken: you can watch")
        clean = clean_text(name, MAX_NAME)
        if clean is None:
            raise LiveError(f"a name is 1 to {MAX_NAME} characters of text")
        if not _nonce(nonce):
            raise LiveError("a nonce is 8 to 32 letters, digits, '_' or '-'")
        return Draft(self.name, "join", self.version, [("name", clean), ("nonce", nonce)])

    def draft_start(self, key: str) -> Draft:
        """Start the game (a rematch, colours swapped, after one), once both seats are taken."""
        self._seated(key)
        if self.phase == "playing":
            raise LiveError("the game is on already")
        if self.free_seat() is not None:
            raise LiveError("waiting for a second player")
        return Draft(self.name, "start", self.version, [])

    def draft_move(self, key: str, move: str, think_ms: int = 0) -> Draft:
        """Play ``move`` (any form the notation reads): checked here as it will be everywhere.
        ``think_ms``: how long this player thought, by their page's clock, from the turn's
        arrival there (the lag allowance: :class:`~yinsh.live.clock.Clocks`)."""
        self._seated(key)
        if self.phase != "playing" or self.game is None:
            raise LiveError("no game is on")
        if key != self.to_move_key():
            raise LiveError("it is not your turn")
        try:
            played = self.game.play(move)
        except YinshError as exc:
            raise LiveError(str(exc)) from None
        self.game.undo()
        return Draft(self.name, "move", self.version, [("ply", self.game.ply), ("move", str(played)),
                                                       ("think", max(0, min(int(think_ms), MAX_THINK_MS)))])

    def draft_resign(self, key: str) -> Draft:
        """Resign the game in progress."""
        self._seated(key)
        if self.phase != "playing":
            raise LiveError("no game is on")
        return Draft(self.name, "resign", self.version, [])

    def draft_flag(self, key: str, now_ms: int) -> Draft:
        """Claim the game on time: the player to move has none left by ``now_ms`` (the relay's
        clock as this page estimates it; the claim's own stored time decides)."""
        self._seated(key)
        if self.phase != "playing" or self.clocks is None:
            raise LiveError("no game is on")
        if not self.clocks.out_of_time(now_ms):
            raise LiveError("the player to move still has time")
        return Draft(self.name, "flag", self.version, [("at", max(0, int(now_ms)))])

    def draft_abort(self, key: str) -> Draft:
        """End the game with no result: only while neither player has placed a second ring."""
        self._seated(key)
        if self.phase != "playing" or self.game is None:
            raise LiveError("no game is on")
        if self.game.ply >= ABORT_PLIES:
            raise LiveError("a game can be aborted only before either player places a second ring")
        return Draft(self.name, "abort", self.version, [])

    def draft_takeback(self, key: str) -> Draft:
        """Offer to take back this player's last move (and the other's reply, if made since)."""
        self._seated(key)
        if self.phase != "playing":
            raise LiveError("no game is on")
        if self.offer is not None:
            raise LiveError("a takeback is offered already")
        if self.takeback_ply(self.seat_of(key)) is None:
            raise LiveError("you have no move to take back")
        return Draft(self.name, "takeback", self.version, [])

    def draft_answer(self, key: str, accept: bool) -> Draft:
        """Accept (``True``) or decline the other player's takeback offer."""
        self._seated(key)
        if self.phase != "playing" or self.offer is None or self.offer == self.seat_of(key):
            raise LiveError("no takeback is offered to you")
        return Draft(self.name, "accept" if accept else "decline", self.version, [])

    def draft_absent(self, key: str, now_ms: int) -> Draft:
        """Ask whether the player to move is there (first) or, :data:`ABSENCE_MS` after the
        question with no answer (by ``now_ms``, the relay's clock as this page estimates it),
        claim the game: the claim's own stored time decides."""
        self._seated(key)
        if self.phase != "playing":
            raise LiveError("no game is on")
        if key == self.to_move_key():
            raise LiveError("it is your turn")
        if self.clock.kind == "days":
            raise LiveError("with days per move, the clock decides")
        if self.absent_since is not None and now_ms - self.absent_since < ABSENCE_MS:
            raise LiveError("the other player may still answer")
        return Draft(self.name, "absent", self.version, [("at", max(0, int(now_ms)))])

    def draft_back(self, key: str) -> Draft:
        """Answer the other player's question: this player, to move, is here."""
        self._seated(key)
        if key != self.to_move_key() or self.absent_since is None:
            raise LiveError("nobody asked")
        return Draft(self.name, "back", self.version, [])

    def draft_leave(self, key: str) -> Draft:
        """Give up the seat (during a game, the game too)."""
        self._seated(key)
        return Draft(self.name, "leave", self.version, [])

    def draft_chat(self, key: str, text: str, time_ms: int | None = None) -> Draft:
        """A chat line; refused before sending when it is not text of 1 to :data:`MAX_CHAT`
        characters, or (given the relay's clock, roughly) when it would be over the rate."""
        clean = clean_text(text, MAX_CHAT)
        if clean is None:
            raise LiveError(f"a chat line is 1 to {MAX_CHAT} characters of text")
        if time_ms is not None and len([t for t in self._chat_times.get(key, [])
                                        if time_ms - t < CHAT_WINDOW_MS]) >= CHAT_BURST:
            raise LiveError("you are writing too fast: wait a few seconds")
        return Draft(self.name, "chat", self._chat_counter.get(key, 0) + 1, [("text", clean)])

    def draft_presence(self, kind: str, clock_ms: int) -> Draft:
        """``here`` (a heartbeat), ``who`` (arriving) or ``gone``; ``clock_ms`` must grow from one
        to the next. ``here`` and ``who`` say how far this page has read (:attr:`seq`): a page
        that hears of a room read further than its own asks the stream at once."""
        return Draft(self.name, kind, clock_ms, [] if kind == "gone" else [("seq", self.seq)])

    def _seated(self, key: str) -> None:
        if self.seat_of(key) is None:
            raise LiveError("only a seated player can do that")


def _control(text: object) -> TimeControl | None:
    """The time control ``text`` names in its own short form (``3+2``, ``2d``, ``none``), or ``None``."""
    try:
        control = TimeControl.parse(text) if type(text) is str else None
    except YinshError:
        return None
    return control if control is not None and str(control) == text else None


def _nonce(text: object) -> bool:
    return valid_token(text, NONCE_LENGTH)


def _draw(first: str, second: str, seq: int) -> int:
    """The seat that plays White in a random draw: both players' nonces and the stream sequence of
    the start (which neither chose) mixed by CRC-32. Every page computes the same."""
    return binascii.crc32((first + "\n" + second + "\n" + str(seq)).encode("utf-8")) >> 7 & 1
