"""The reference transport of live rooms: asyncio and nats-py (CPython only).

The tests and ``make bench-live`` drive rooms through it, against a real nats-server; the
page's transport (JavaScript's nats.ws, reached from MicroPython, with WebCrypto's Ed25519)
does the same steps:

1. **Read** the room from the stream by an ordered consumer on
   :func:`~yinsh.live.protocol.room_filter` from its first message, folding every message into
   the :class:`~yinsh.live.room.Room` in order: decode, verify the signature against the key
   the message names, :meth:`~yinsh.live.room.Room.apply`. Never from a core subscription: it
   also sees the publishes the stream refused. **Nothing lost**: after every reconnect, and
   whenever nothing was folded for :data:`~yinsh.live.room.QUIET_CHECK_MS`, ask the stream for
   the room's last stored sequence (:meth:`RoomClient.check`); if the room has not folded it
   (:meth:`~yinsh.live.room.Room.behind`: a message lost on the way, whatever lost it), read
   again from the last sequence folded.
2. **Send** an event as the room allows it (a ``draft_`` method), signed, published to the
   game subject with ``Nats-Expected-Last-Subject-Sequence`` set to the last sequence of that
   subject folded so far (:attr:`Room.game_seq`). If the relay refuses it ("wrong last
   sequence": something was stored meanwhile), wait until the consumer has folded what was
   stored, ask the room again (the turn may have gone: another tab's move was kept) and
   retry. Junk stored between two moves only costs such a retry, never the move.
3. **Presence**: a signed ``who`` on the room's core subject on arriving and after every
   reconnect (every page answers ``here`` at once), ``here`` every
   :data:`~yinsh.live.room.HEARTBEAT_MS`, ``gone`` on closing.

Keys are Ed25519 (``cryptography``, a test and benchmark dependency: ``pip install --group
test``); :class:`Keys` holds a seat's private key, which a returning player reuses.
"""

from __future__ import annotations

import asyncio
import base64
import os
import time
from collections.abc import Callable
from typing import Any

import nats
import nats.errors
import nats.js.errors
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.js.api import (
    AckPolicy,
    ConsumerConfig,
    DeliverPolicy,
    DiscardPolicy,
    RetentionPolicy,
    StorageType,
    StreamConfig,
)
from nats.js.errors import APIError, NotFoundError

from yinsh.live.protocol import (
    STREAM,
    BadMessage,
    Draft,
    Message,
    chat_subject,
    decode,
    game_subject,
    presence_subject,
    room_filter,
    stream_config,
    subject_kind,
)
from yinsh.live.room import HEARTBEAT_MS, QUIET_CHECK_MS, SEND_MS, LiveError, Room

__all__ = ["Keys", "verify", "RoomClient", "Refused", "ensure_stream", "new_room_name", "new_nonce", "connect"]

WRONG_LAST_SEQUENCE = 10071
"""JetStream's error code for a publish whose expected last subject sequence is not the last."""
UNGUARDED_AFTER = 3
"""Refusals in a row caused by junk alone before an event is sent without the sequence guard."""


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_room_name() -> str:
    """An unguessable room name: 128 random bits, 22 characters of base64url."""
    return _b64(os.urandom(16))


def new_nonce() -> str:
    """A join's nonce: 96 random bits."""
    return _b64(os.urandom(12))


class Keys:
    """An Ed25519 key pair: :attr:`public` names the seat, :meth:`sign` signs its events."""

    def __init__(self, private: Ed25519PrivateKey | None = None) -> None:
        self._private = private or Ed25519PrivateKey.generate()
        self.public = _b64(self._private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))

    def sign(self, text: bytes) -> str:
        """The signature of ``text``, base64url."""
        return _b64(self._private.sign(text))

    def message(self, draft: Draft) -> bytes:
        """``draft`` signed, as it goes on the wire."""
        return draft.signed(self.public, self.sign(draft.text()))


_PUBLIC_KEYS: dict[str, Ed25519PublicKey | None] = {}


def verify(message: Message, text: bytes) -> bool:
    """Whether ``message``'s signature is its key's signature of ``text``."""
    key = _PUBLIC_KEYS.get(message.key, False)
    if key is False:
        try:
            key = Ed25519PublicKey.from_public_bytes(_unb64(message.key))
        except ValueError:
            key = None
        if len(_PUBLIC_KEYS) > 100_000:
            _PUBLIC_KEYS.clear()
        _PUBLIC_KEYS[message.key] = key
    if key is None:
        return False
    try:
        key.verify(_unb64(message.signature), text)  # type: ignore[union-attr]
    except (InvalidSignature, ValueError):
        return False
    return True


async def connect(servers: str | list[str], **options: Any) -> NATS:
    """A nats-py connection that keeps reconnecting (a relay restarting, a node dying). A node
    that dies without closing its connections (a host lost, a network cut) is noticed by pings:
    one every 2 s, two unanswered and the client reconnects elsewhere (nats-py's default, one
    every 2 minutes, would leave a player stuck that long)."""
    options.setdefault("max_reconnect_attempts", -1)
    options.setdefault("reconnect_time_wait", 0.2)
    options.setdefault("connect_timeout", 2)
    options.setdefault("ping_interval", 2)
    options.setdefault("max_outstanding_pings", 2)
    return await nats.connect(servers, **options)


async def ensure_stream(nc: NATS, replicas: int = 1, timeout: float = 30.0) -> None:
    """Create the rooms' stream (:func:`~yinsh.live.protocol.stream_config`) unless it exists;
    a cluster that is still electing its leader is asked again until ``timeout``."""
    js = nc.jetstream()
    config = stream_config(replicas)
    deadline = time.monotonic() + timeout
    while True:
        try:
            try:
                await js.stream_info(STREAM)
                return
            except NotFoundError:
                pass
            await js.add_stream(StreamConfig(
                name=config["name"], subjects=config["subjects"], storage=StorageType.FILE,
                retention=RetentionPolicy.LIMITS, discard=DiscardPolicy.NEW,
                discard_new_per_subject=config["discard_new_per_subject"],
                max_msgs_per_subject=config["max_msgs_per_subject"], max_msg_size=config["max_msg_size"],
                max_bytes=config["max_bytes"], max_age=config["max_age"], num_replicas=replicas,
                max_consumers=config["max_consumers"],
                duplicate_window=config["duplicate_window"]))
            return
        except (nats.errors.TimeoutError, nats.js.errors.ServiceUnavailableError, nats.js.errors.NoStreamResponseError):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)


def _past(seq: int) -> Callable[[Room], bool]:
    """Whether a room has folded its game subject past ``seq``."""
    return lambda room: room.game_seq > seq


class Refused(Exception):
    """The room refused what was asked (the message says why), or the relay kept refusing it."""


class RoomClient:
    """One person's view of one room: the room folded from the stream, and what they send.

    ``on_event(message, seq)`` is called for every event the room accepted (a page draws it).
    """

    def __init__(self, nc: NATS, name: str, keys: Keys | None = None,
                 on_event: Callable[[Message, int], None] | None = None, heartbeat: float = 1.0,
                 ordered: bool = True, guard: float | None = 0.25) -> None:
        self.nc = nc
        self.js = nc.jetstream()
        self.room = Room(name)
        self.keys = keys or Keys()
        self.on_event = on_event
        self.heartbeat = heartbeat
        """The consumer's idle heartbeat (s): two missed (the relay restarted, its node died) and
        the ordered consumer is made again from the last sequence folded."""
        self.ordered = ordered
        """An ordered consumer (what a page uses: it survives a relay's restart). ``False``: a
        plain ephemeral push consumer without flow control or heartbeats, which costs nats-py no
        timers (two per ordered consumer: thousands of wake-ups a second for a load generator
        holding thousands of players) and does not survive a restart."""
        self.guard = guard
        """How often (s) the reader looks whether the connection reconnected or the room was quiet
        for :data:`~yinsh.live.room.QUIET_CHECK_MS` (then :meth:`check`); ``None``: never (a load
        generator's many players)."""
        self.rereads = 0
        """How many times :meth:`check` found the room behind the stream and read it again."""
        self.retries = 0
        """Publishes the relay refused (a stale expected sequence) and that were sent again."""
        self.resends = 0
        """Publishes lost on the way (no answer from the relay) and sent again."""
        self._pending: str | None = None  # the signature of the event being sent
        self._won: int | None = None  # its sequence, once the room accepted it
        self._changed = asyncio.Event()
        self._subscription: Any = None
        self._presence: Any = None
        self._heartbeat: asyncio.Task[None] | None = None
        self._guard: asyncio.Task[None] | None = None
        self._folded_at = time.monotonic()  # when a message was last folded (the quiet check's clock)
        self._turn_since: float | None = None  # when the turn came to this seat (what a move says it thought)
        self._answered = 0.0  # when a ``who`` was last answered
        self._clock = 0

    @property
    def key(self) -> str:
        return self.keys.public

    # -- reading -----------------------------------------------------------------------

    async def open(self, presence: bool = False) -> RoomClient:
        """Start folding the room from its first message; return once what was stored is read."""
        await self._subscribe()
        await self.caught_up()
        loop = asyncio.get_running_loop()
        if self.guard is not None:
            self._guard = loop.create_task(self._keep_up(self.guard))
        if presence:
            self._presence = await self.nc.subscribe(presence_subject(self.room.name), cb=self._heard)
            await self._announce("who")
            self._heartbeat = loop.create_task(self._beat())
        return self

    async def _subscribe(self) -> None:
        """A consumer of the room from the message after the last one folded."""
        start = self.room.seq + 1
        policy = {"deliver_policy": DeliverPolicy.BY_START_SEQUENCE, "opt_start_seq": start} if start > 1 else {
            "deliver_policy": DeliverPolicy.ALL}
        if self.ordered:
            self._subscription = await self.js.subscribe(room_filter(self.room.name), cb=self._fold,
                                                         ordered_consumer=True, stream=STREAM,
                                                         idle_heartbeat=self.heartbeat,
                                                         config=ConsumerConfig(**policy))  # type: ignore[arg-type]
        else:
            self._subscription = await self.js.subscribe(
                room_filter(self.room.name), cb=self._fold, stream=STREAM, manual_ack=True,
                config=ConsumerConfig(ack_policy=AckPolicy.NONE, mem_storage=True, inactive_threshold=60.0,
                                      **policy))  # type: ignore[arg-type]

    async def last_stored(self) -> int:
        """The stream sequence of the room's last stored message, any subject (0: none)."""
        try:
            return (await self.js.get_last_msg(STREAM, room_filter(self.room.name))).seq or 0
        except NotFoundError:
            return 0

    async def caught_up(self, timeout: float = SEND_MS / 1000) -> None:
        """Wait until the room has folded the last message the stream stores of it."""
        last = await self.last_stored()
        await self.wait_for(lambda room: not room.behind(last), timeout)

    async def check(self) -> bool:
        """Whether the room was behind the stream (it is read again then, from the last sequence
        folded): the guard that does not depend on why a message was missed."""
        if not self.room.behind(await self.last_stored()):
            return False
        self.rereads += 1
        old, self._subscription = self._subscription, None
        if old is not None:
            try:
                await old.unsubscribe()
            except Exception:  # the connection may be gone already: nothing to undo then
                pass
        await self._subscribe()
        return True

    async def _keep_up(self, every: float) -> None:
        """Check after every reconnect (then say ``who``), and after every quiet spell."""
        reconnects = self.nc.stats["reconnects"]
        while True:
            await asyncio.sleep(every)
            if not self.nc.is_connected:
                continue
            now = time.monotonic()
            reconnected = self.nc.stats["reconnects"] != reconnects
            if not reconnected and now - self._folded_at < QUIET_CHECK_MS / 1000:
                continue
            reconnects = self.nc.stats["reconnects"]
            self._folded_at = now
            try:
                await self.check()
                if reconnected and self._heartbeat is not None:
                    await self._announce("who")
            except Exception:  # the relay not answering yet: the next round asks again
                self._folded_at = 0.0

    async def _fold(self, msg: Msg) -> None:
        meta = msg.metadata
        kind = subject_kind(self.room.name, msg.subject) or "other"
        self._folded_at = time.monotonic()
        seq = meta.sequence.stream
        time_ms = int(meta.timestamp.timestamp() * 1000) if meta.timestamp else 0
        try:
            message = decode(msg.data)
        except BadMessage as exc:
            self.room.junk(kind, seq, exc.reason)
        else:
            event = self.room.apply(kind, seq, time_ms, message, verify(message, message.text(self.room.name)))
            if event is not None and event.signature == self._pending:
                self._won = seq
            if self.room.to_move_key() != self.key:
                self._turn_since = None
            elif self._turn_since is None:
                self._turn_since = time.monotonic()
            if event is not None and self.on_event is not None:
                self.on_event(event, seq)
        self._wake()

    def _wake(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(self, predicate: Callable[[Room], bool], timeout: float = SEND_MS / 1000) -> None:
        """Wait until ``predicate(room)`` holds; ``TimeoutError`` after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while not predicate(self.room):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"room {self.room.name}: still waiting after {timeout} s")
            try:
                await asyncio.wait_for(self._changed.wait(), min(left, 1.0))
            except TimeoutError:
                pass

    # -- sending -----------------------------------------------------------------------

    async def send(self, build: Callable[[Room], Draft], refusals: int = 50, timeout: float = SEND_MS / 1000) -> int:
        """Sign and send the event ``build(room)`` drafts, guarded by the expected last sequence;
        on a refusal by the relay, fold what was stored meanwhile and draft again. Returns the
        event's stream sequence once the room has folded and accepted it. Raises :class:`Refused`
        when the room no longer allows it (``build`` raised ``LiveError``: the message says why)
        or another event took its version.

        A flood of junk could keep moving the subject's last sequence and the guard would refuse
        every attempt: after :data:`UNGUARDED_AFTER` refusals in a row that changed nothing in the
        room (only junk was stored), the event is sent without the guard. It stays safe: the room
        counts one event per version, so the stream decides, in its order, which one is kept.
        A publish lost on the way (the relay restarting, a node dying) is sent again with the
        same ``Nats-Msg-Id`` (its signature: Ed25519 signs the same text alike), which the relay
        stores once. ``timeout`` bounds the sending, then, once the relay stored the event, the
        reading of it: a reader whose consumer died with a node is made again meanwhile."""
        deadline = time.monotonic() + timeout
        junk_only = unanswered = refused = 0
        self._pending = self._won = None
        while refused < refusals:
            if self._won is not None:  # an earlier attempt was stored and counted after all
                return self._won
            try:
                draft = build(self.room)
            except LiveError as exc:
                raise Refused(str(exc)) from None
            data = self.keys.message(draft)
            signature = decode(data).signature
            if signature != self._pending:
                self._pending, self._won = signature, None
            expected = self.room.game_seq
            headers = {"Nats-Msg-Id": signature[:40]}
            if junk_only < UNGUARDED_AFTER:
                headers["Nats-Expected-Last-Subject-Sequence"] = str(expected)
            left = max(0.1, deadline - time.monotonic())
            try:
                # 1 s for an answer, then 2 s: soon sent again when a node died, without piling
                # resends on a relay (or a client) that is only slow
                ack = await self.js.publish(game_subject(self.room.name), data,
                                            timeout=min(left, 2.0 if unanswered else 1.0), headers=headers)
            except APIError as exc:
                if exc.err_code != WRONG_LAST_SEQUENCE:
                    if exc.code != 503 or time.monotonic() > deadline:
                        raise
                    await asyncio.sleep(0.2)  # no leader for the stream now: a node died
                    continue
                self.retries += 1
                refused += 1
                version = self.room.version
                await self.wait_for(_past(expected), left)
                junk_only = junk_only + 1 if self.room.version == version else 0
                continue
            except (nats.errors.TimeoutError, nats.errors.NoRespondersError, nats.js.errors.NoStreamResponseError,
                    nats.errors.ConnectionClosedError, nats.errors.StaleConnectionError):
                if time.monotonic() > deadline:
                    raise
                self.resends += 1
                unanswered += 1
                await asyncio.sleep(0.2)
                continue
            await self.wait_for(_past(ack.seq - 1), timeout)
            if self._won is None:
                raise Refused(f"the room did not accept the {draft.kind} (stored at {ack.seq})")
            return self._won
        raise Refused(f"the relay refused the event {refusals} times")

    async def create(self, colours: str = "white", clock: str = "none") -> int:
        return await self.send(lambda room: room.draft_create(self.key, colours, clock))

    async def join(self, name: str) -> int:
        nonce = new_nonce()
        return await self.send(lambda room: room.draft_join(self.key, name, nonce))

    async def start(self) -> int:
        return await self.send(lambda room: room.draft_start(self.key))

    async def move(self, move: str) -> int:
        """Play ``move`` for this seat at the current ply, saying how long since the turn came
        here; :class:`Refused` if that turn was taken meanwhile (another tab's move kept) or the
        move is not legal. A move stored after this player's time ran out is the loss on time
        (the room's :attr:`~yinsh.live.room.Room.ending` is ``time``): not played, but counted."""
        ply = self.room.game.ply if self.room.game else 0
        since = self._turn_since if self._turn_since is not None else time.monotonic()
        think_ms = int((time.monotonic() - since) * 1000)

        def build(room: Room) -> Draft:
            if room.game is None or room.game.ply != ply:
                raise LiveError("the turn was played meanwhile")
            return room.draft_move(self.key, move, think_ms)

        return await self.send(build)

    async def flag(self) -> int:
        """Claim the game on time (the player to move has none left by this machine's clock,
        which stands for the relay's); :class:`Refused` if the room says they still have time."""
        return await self.send(lambda room: room.draft_flag(self.key, int(time.time() * 1000)))

    async def resign(self) -> int:
        return await self.send(lambda room: room.draft_resign(self.key))

    async def abort(self) -> int:
        """End the game with no result (only before either player places a second ring)."""
        return await self.send(lambda room: room.draft_abort(self.key))

    async def takeback(self) -> int:
        """Offer to take back this player's last move."""
        return await self.send(lambda room: room.draft_takeback(self.key))

    async def answer(self, accept: bool) -> int:
        """Accept or decline the other player's takeback offer."""
        return await self.send(lambda room: room.draft_answer(self.key, accept))

    async def absent(self) -> int:
        """Ask whether the player to move is there, or (``ABSENCE_MS`` later, unanswered) claim the game."""
        return await self.send(lambda room: room.draft_absent(self.key, int(time.time() * 1000)))

    async def back(self) -> int:
        """Answer the question: this player, to move, is here."""
        return await self.send(lambda room: room.draft_back(self.key))

    async def leave(self) -> int:
        return await self.send(lambda room: room.draft_leave(self.key))

    async def chat(self, text: str) -> int:
        """Send a chat line (not guarded by a sequence: lines interleave freely); its sequence."""
        draft = self.room.draft_chat(self.key, text)
        ack = await self.js.publish(chat_subject(self.room.name), self.keys.message(draft))
        await self.wait_for(lambda room: room.chat_seq >= ack.seq)
        return ack.seq

    # -- presence ----------------------------------------------------------------------

    async def _heard(self, msg: Msg) -> None:
        try:
            message = decode(msg.data)
        except BadMessage:
            return
        if not self.room.presence(message, verify(message, message.text(self.room.name)), int(time.time() * 1000)):
            return
        if message.kind == "who" and message.key != self.key and self._heartbeat is not None:
            now = time.monotonic()
            if now - self._answered > 0.5:  # one answer for a burst of arrivals (or a flood of questions)
                self._answered = now
                await self._announce("here")
        self._wake()

    async def _announce(self, kind: str) -> None:
        # the room takes a presence clock only if it grew: two announcements in one millisecond
        # (a "here" just before "gone") must not share it
        self._clock = max(int(time.time() * 1000), self._clock + 1)
        draft = self.room.draft_presence(kind, self._clock)
        await self.nc.publish(presence_subject(self.room.name), self.keys.message(draft))

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_MS / 1000)
            try:
                await self._announce("here")
            except nats.errors.ConnectionClosedError:
                return

    async def close(self) -> None:
        """Stop reading (and say ``gone`` when announcing presence)."""
        if self._guard is not None:
            self._guard.cancel()
            self._guard = None
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            self._heartbeat = None
            if self.nc.is_connected:
                await self._announce("gone")
        for sub in (self._presence, self._subscription):
            if sub is not None:
                try:
                    await sub.unsubscribe()
                except Exception:  # the connection may be gone already: nothing to undo then
                    pass
        self._presence = self._subscription = None
