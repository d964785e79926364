"""A lean load generator for one relay (``make bench-live``, ``scripts/bench_live.py``): many rooms
playing random legal games through the room protocol, with as little Python per move as the
protocol allows, so that the relay, not the generator, is what is measured; and the same load
on a bare JetStream stream, the baseline the relay's cost per move is compared with.

Everything that is not the protocol's live traffic is done before the clock starts:

- **the games**: a pool of random legal games played through the room's model
  (:class:`~yinsh.live.room.Room`, every move checked by the rules), with rematches, as scripts of
  events (who sends what, at which room version);
- **the messages**: each room's events signed (Ed25519) by its two players' keys. A signature
  covers the room, the kind, the room's version and the fields, all known before the run (the
  first seat plays White, so no colour is drawn from a stream sequence); the stream sequences
  are not signed, they only go in the publish's ``Nats-Expected-Last-Subject-Sequence`` header.

What stays live is the protocol's traffic, per move: the player to move waits until its own
reader has folded the room's previous event (from the stream), publishes the next one guarded by
the last sequence its reader saw (and a ``Nats-Msg-Id``, sent again on no answer: stored once),
and both players' readers receive it from the stream through their own consumer, as pages do.
A reader checks each message it folds against the room's script (the same bytes, in order): a
move acknowledged by the relay that the opponent's reader never folds is *lost*, one folded
twice (or out of order) is *doubled*. Signatures and rules are not checked again in the hot path
(they were made and checked before the run; every page checks them, see :mod:`yinsh.live.client`
for the reference client, which the cluster runs use).

How the players read (:class:`Mode`):

- **push** (the default): each player's consumer is a plain push consumer (ack none, its state
  in memory), delivering to a subject of its connection, read by one subscription per connection
  and dispatched by consumer name (the delivery's reply subject names it).
- **pull, as pages read** (:class:`Puller`, the page's nats.ws reader): an ordered pull
  consumer on ``yinsh.room.<room>.*`` (ack none, one delivery, in memory, what nats.js's ordered
  consumer asks for), fetched as the page's reader fetches through nats.js: each pull asks for
  100 messages and stays open until they came or 30 s passed, with an idle heartbeat every 15 s
  (half the expiry, nats.js's), from a new inbox subscription made for that pull and removed
  after it; so a reader has one pull outstanding and makes one pull (a subscription, a request,
  an unsubscription) every 100 messages or 30 s. A reader hearing
  nothing for 5 s asks the stream for the last message of its room's game and chat subjects
  (two ``$JS.API.STREAM.MSG.GET`` requests, ``last_by_subj``; never at a move a second) and
  reads again from what it folded if the relay holds more. With **presence**, each player also
  says ``here`` (a signed message of about 180 bytes) on the core subject ``yinsh.here.<room>``
  every few seconds, and one core subscription of that subject a room receives each beat once
  (pages connect without echo: each hears only the other's beats).
  Knobs for a breakdown of what the pulls cost: no idle heartbeat, one inbox subscription per
  connection for all its readers' pulls, or a pull a message (the page's reader before, each
  pull asking for as many as the last message said were pending, 1 to 100, expiring after 2 s).
- **bare** (the baseline): nothing of the protocol. One stream (:data:`BARE_STREAM`: file
  storage, plain limits), a subject per room, one publisher a room sending a message a second
  (the room's real signed moves' lengths, as opaque bytes) guarded by
  ``Nats-Expected-Last-Subject-Sequence`` (the sequence of its own last acknowledgement) and
  waiting for the acknowledgement, and two readers a room, each a push consumer as above (the
  cheapest honest reader: no acknowledgements, no pull requests, no flow control or heartbeats,
  a subscription shared by its connection), both receiving every message.

Shared, not per room: each process holds a few connections (pages have one each).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy, RetentionPolicy, StorageType, StreamConfig
from nats.js.client import JetStreamContext
from nats.js.errors import APIError

from yinsh.live.client import WRONG_LAST_SEQUENCE, Keys, connect, new_room_name
from yinsh.live.protocol import (
    MAX_CONSUMERS,
    STREAM,
    Draft,
    chat_subject,
    decode,
    game_subject,
    presence_subject,
    room_filter,
)
from yinsh.live.room import HEARTBEAT_MS, Room

__all__ = ["Mode", "random_script", "worker_main", "ensure_bare_stream", "BARE_STREAM", "PRESENCE_SECONDS"]

SETUP_CONCURRENCY = 100
GAMES_IN_POOL = 64
"""Random games per process; each room plays one (its messages are its own: room, keys)."""
BARE_STREAM = "BENCH_BARE"
BARE_PREFIX = "bench."
PRESENCE_SECONDS = HEARTBEAT_MS / 1000
"""How often a page says ``here`` (yinsh.live.room's ``HEARTBEAT_MS``: the page's and the reference client's)."""
PULL_BATCH = 100
"""The most messages a page's pull asks for (the page's ``PULL_BATCH``)."""
STALE_SECONDS = 5.0
"""A page-like reader that heard nothing this long asks the stream for its room's last messages."""
EXPECTED = "Nats-Expected-Last-Subject-Sequence"

Script = list[tuple[int, str, list[tuple[str, object]]]]
"""A room's events in order: (seat that sends it, kind, fields); the version is the index."""


@dataclass(frozen=True)
class Mode:
    """What a run plays and how its players read (it goes to the generator's processes)."""

    name: str
    bare: bool = False
    """The baseline: bare JetStream, nothing of the protocol (push readers)."""
    reader: str = "push"
    """``push`` or ``pull`` (as pages read)."""
    presence: float = 0.0
    """Seconds between a player's presence beats; 0: none."""
    expires: float = 30.0
    """A pull's expiry, s (the page's ``PULL_EXPIRES_MS``)."""
    heartbeat: float | None = None
    """The idle heartbeat a pull asks for, s; ``None``: half the expiry (nats.js's); 0: none."""
    inbox: str = "pull"
    """``pull``: a new inbox subscription for each pull (nats.js's ``fetch``); ``shared``: one
    subscription per connection for all its readers' pulls."""
    by_pending: bool = False
    """Each pull asks for as many as the last message said were pending (1 to 100), not 100."""
    stale: float = STALE_SECONDS
    """Pull: seconds without a message before the reader asks for its room's last messages; 0: never."""

    def pull_body(self, batch: int) -> bytes:
        """A pull request, as nats.js writes it."""
        heartbeat = self.expires / 2 if self.heartbeat is None else self.heartbeat
        body: dict[str, int] = {"batch": batch, "max_bytes": 0}
        if heartbeat:
            body["idle_heartbeat"] = int(heartbeat * 1e9)
        body["expires"] = int(self.expires * 1e9)
        return json.dumps(body, separators=(",", ":")).encode()


def random_script(rng: random.Random, events: int) -> Script:
    """At least ``events`` events of a room: created, two seats, started, then random legal moves
    (rematches when a game ends), each checked by the room's model as every page checks it."""
    room = Room("scriptscriptscript00")
    keys = ("A" * 43, "B" * 43)
    script: Script = []
    seq = 0

    def send(seat: int, draft: Draft) -> None:
        nonlocal seq
        seq += 1
        accepted = room.apply("game", seq, seq, decode(draft.signed(keys[seat], "s" * 86)), True)
        assert accepted is not None, draft
        script.append((seat, draft.kind, list(draft.fields)))

    send(0, room.draft_create(keys[0], "white"))
    send(0, room.draft_join(keys[0], "Ana", "nonce-ana-0"))
    send(1, room.draft_join(keys[1], "Ben", "nonce-ben-0"))
    while len(script) < events:
        send(0, room.draft_start(keys[0]))
        while room.phase == "playing" and len(script) < events:
            mover = keys.index(room.to_move_key())  # type: ignore[arg-type]
            assert room.game is not None
            send(mover, room.draft_move(keys[mover], str(rng.choice(room.game.legal_moves()))))
    return script


async def ensure_bare_stream(nc: NATS) -> None:
    """The baseline's stream: file storage, plain limits (old messages discarded, no per-subject
    limit, no size limit), and only a consumer limit as the rooms' (nats-server refuses a
    stream's 1,001st consumer when it names none)."""
    await nc.jetstream().add_stream(StreamConfig(
        name=BARE_STREAM, subjects=[BARE_PREFIX + "*"], storage=StorageType.FILE, retention=RetentionPolicy.LIMITS,
        max_consumers=MAX_CONSUMERS))


class Player:
    """One seat's reader: how far it has folded its room's script, and the last sequence it saw."""

    __slots__ = ("room", "seat", "keys", "folded", "last_seq", "want", "waiter", "consumer")

    def __init__(self, room: LeanRoom, seat: int) -> None:
        self.room = room
        self.seat = seat
        self.keys = Keys()
        self.folded = 0
        self.last_seq = 0
        self.want = 0
        self.waiter: asyncio.Future[None] | None = None
        self.consumer = ""

    async def reached(self, events: int, timeout: float) -> None:
        """Wait until this reader has folded the first ``events`` events."""
        if self.folded >= events:
            return
        self.want = events
        self.waiter = asyncio.get_running_loop().create_future()
        try:
            await asyncio.wait_for(self.waiter, timeout)
        finally:
            self.waiter = None


def _opaque(length: int) -> bytes:
    """``length`` random bytes of base64url text (as a signed message's key and signature are)."""
    return base64.urlsafe_b64encode(os.urandom(length))[:length]


class LeanRoom:
    """A room, its two players, its signed messages, and what happened to each. ``bare``: the
    baseline's room, on :data:`BARE_STREAM`: the moves' lengths only, one publisher that is
    neither reader (its events' seat is -1), no set-up events."""

    def __init__(self, script: Script, bare: bool = False) -> None:
        self.name = new_room_name()
        self.bare = bare
        self.players = [Player(self, 0), Player(self, 1)]
        signed = [self.players[seat].keys.message(Draft(self.name, kind, i, fields))
                  for i, (seat, kind, fields) in enumerate(script)]
        if bare:
            self.stream = BARE_STREAM
            self.subject = self.filter = BARE_PREFIX + self.name
            self.data = [_opaque(len(data)) for data, (_, kind, _) in zip(signed, script) if kind == "move"]
            self.seats = [-1] * len(self.data)
            self.moves = set(range(len(self.data)))
            self.first = 0
        else:
            self.stream = STREAM
            self.subject = game_subject(self.name)
            self.filter = room_filter(self.name)
            self.data = signed
            self.seats = [seat for seat, _, _ in script]
            self.moves = {i for i, (_, kind, _) in enumerate(script) if kind == "move"}
            self.first = 4  # created, two seats, started: sent while the rooms are set up
        self.index = {data: i for i, data in enumerate(self.data)}
        self.sent = 0  # events published and acknowledged
        self.last_ack = 0  # bare: the subject's last sequence, from the publisher's own acknowledgements
        self.acked: dict[int, int] = {}  # event → stream sequence
        self.started: dict[int, float] = {}  # event → when its publish began
        self.latencies: list[float] = []
        self.doubled = 0
        self.unknown = 0  # folded bytes that are no event of this room (never expected here)
        self.refused = 0  # wrong last sequence: mostly a resend whose first attempt was stored
        self.resends = 0
        self.failed = 0
        self.heard = 0  # presence messages heard by its players

    def fold(self, player: Player, data: bytes, seq: int) -> None:
        index = player.folded
        if index < len(self.data) and data == self.data[index]:
            player.folded = index + 1
            player.last_seq = seq
            if index in self.moves and self.seats[index] != player.seat:
                started = self.started.get(index)
                if started is not None:
                    self.latencies.append(time.perf_counter() - started)
            waiter = player.waiter
            if waiter is not None and player.folded >= player.want and not waiter.done():
                waiter.set_result(None)
        elif self.index.get(data, len(self.data)) < index:
            self.doubled += 1
        else:
            self.unknown += 1

    async def publish(self, js: JetStreamContext, index: int, deadline: float) -> bool:
        """Send event ``index`` from its seat, guarded by what that seat's reader saw (bare: by
        the publisher's last acknowledgement)."""
        seat = self.seats[index]
        player = self.players[seat] if seat >= 0 else None
        headers = {} if self.bare else {"Nats-Msg-Id": f"{self.name}.{index}"}
        unanswered = False
        while time.perf_counter() < deadline:
            if player is not None:
                try:
                    await player.reached(index, max(0.1, deadline - time.perf_counter()))
                except TimeoutError:
                    break
            headers[EXPECTED] = str(player.last_seq if player is not None else self.last_ack)
            self.started.setdefault(index, time.perf_counter())
            try:
                # 5 s for an answer: a relay short of CPU is not sent the same move again and again
                ack = await js.publish(self.subject, self.data[index], timeout=5.0, headers=headers)
            except APIError as exc:
                if exc.err_code == WRONG_LAST_SEQUENCE:
                    self.refused += 1  # stored meanwhile: an earlier attempt (its answer lost)?
                    if player is None:  # bare: only its own earlier attempt can have been stored
                        last = await js.get_last_msg(self.stream, self.subject)
                        self.last_ack = last.seq or 0
                        if unanswered:
                            self.acked[index] = self.last_ack
                            return True
                        continue
                    if player.folded > index:  # yes: this very event, folded
                        self.acked[index] = player.last_seq if player.folded == index + 1 else -1
                        return True
                    await asyncio.sleep(0.05)
                    continue
                await asyncio.sleep(0.2)
                continue
            except Exception:  # no answer (a timeout, a reconnection): the same id, stored once
                self.resends += 1
                unanswered = True
                await asyncio.sleep(0.2)
                continue
            self.acked[index] = self.last_ack = ack.seq
            return True
        self.failed += 1
        return False


def _ack_tokens(reply: str) -> list[str]:
    """A delivery's reply, ``$JS.ACK.<stream>.<consumer>.<delivered>.<stream seq>.<consumer seq>.
    <time>.<pending>``, as its tokens from the stream on (a domain and an account hash before the
    stream: 12 tokens or more)."""
    tokens = reply.split(".")
    return tokens[2:] if len(tokens) == 9 else tokens[4:]


class Dispatch:
    """One subscription per connection for every push consumer delivering to it: the consumers
    share its literal subject (nats-server binds a push consumer to a literal subscription only,
    not to a wildcard one) and each delivery's reply names its consumer."""

    def __init__(self, nc: NATS, prefix: str) -> None:
        self.nc = nc
        self.js = nc.jetstream()
        self.prefix = prefix
        self.players: dict[str, Player] = {}

    async def start(self) -> None:
        await self.nc.subscribe(self.prefix, cb=self.on_msg)

    async def on_msg(self, msg: Msg) -> None:
        tokens = _ack_tokens(msg.reply)
        player = self.players.get(tokens[1])
        if player is not None and msg.subject == player.room.subject:
            player.room.fold(player, msg.data, int(tokens[3]))

    async def read(self, player: Player, tag: str) -> None:
        """A push consumer of ``player``'s room from its first message, delivering here."""
        player.consumer = tag
        self.players[tag] = player
        await self.js.add_consumer(player.room.stream, ConsumerConfig(
            name=tag, deliver_subject=self.prefix, filter_subject=player.room.filter,
            ack_policy=AckPolicy.NONE, deliver_policy=DeliverPolicy.ALL, mem_storage=True, inactive_threshold=30.0))


class Inbox:
    """One subscription per connection for its pull readers' replies (``<prefix>.<tag>``): a
    delivery's reply names its consumer (``<tag>_<serial>``), a status message (heartbeat,
    expiry) comes on the reader's own subject."""

    def __init__(self, nc: NATS, prefix: str) -> None:
        self.nc = nc
        self.prefix = prefix
        self.readers: dict[str, Puller] = {}

    async def start(self) -> None:
        await self.nc.subscribe(self.prefix + ".*", cb=self.on_msg)

    async def on_msg(self, msg: Msg) -> None:
        tag = _ack_tokens(msg.reply)[1].rsplit("_", 1)[0] if msg.reply else msg.subject.rsplit(".", 1)[1]
        reader = self.readers.get(tag)
        if reader is not None:
            reader.deliver(msg)


class Puller:
    """A player's reader as the page's (nats.ws) reads: an ordered pull consumer of its room,
    pulled a fetch at a time, made again from the last
    sequence read after a gap in its deliveries or when the relay holds more than it read."""

    def __init__(self, player: Player, nc: NATS, mode: Mode, tag: str, inbox: Inbox | None) -> None:
        self.player = player
        self.nc = nc
        self.js = nc.jetstream()
        self.mode = mode
        self.tag = tag
        self.shared = inbox
        if inbox is not None:
            inbox.readers[tag] = self
        self.consumer = ""
        self.serial = 0
        self.dseq = 0  # the consumer's last delivery (an ordered consumer checks they follow on)
        self.stream_seq = 0  # the last stream sequence read, either subject: where a new consumer starts
        self.pending = 0  # what the last message said was still stored after it
        self.want = self.got = 0  # the fetch under way: asked, delivered
        self.done: asyncio.Future[None] | None = None
        self.renew = False
        self.closed = False
        self.arrived = time.perf_counter()
        self.tasks: list[asyncio.Task[None]] = []  # the reading loop, and the quiet check's
        self.pulls = self.heartbeats = self.expired = self.resets = self.probes = 0

    def counts(self) -> dict[str, int]:
        return {"pulls": self.pulls, "heartbeats": self.heartbeats, "expired": self.expired,
                "resets": self.resets, "probes": self.probes}

    async def open(self) -> None:
        """Make the consumer (from the room's first message) and start reading."""
        await self._consumer()
        loop = asyncio.get_running_loop()
        self.tasks.append(loop.create_task(self._fetches()))
        if self.mode.stale:
            self.tasks.append(loop.create_task(self._quiet()))

    async def close(self) -> None:
        self.closed = True
        if self.done is not None and not self.done.done():
            self.done.set_result(None)
        for task in self.tasks:
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):  # stopped, or a connection already gone
                pass

    async def _consumer(self) -> None:
        """A new ordered consumer from the last sequence read, as nats.js's makes it."""
        self.serial += 1
        old, self.consumer, self.dseq = self.consumer, f"{self.tag}_{self.serial}", 0
        room = self.player.room
        await self.js.add_consumer(room.stream, ConsumerConfig(
            name=self.consumer, deliver_policy=DeliverPolicy.BY_START_SEQUENCE, opt_start_seq=self.stream_seq + 1,
            ack_policy=AckPolicy.NONE, inactive_threshold=300.0, num_replicas=1, max_deliver=1, mem_storage=True,
            filter_subjects=[room.filter]))
        if old:
            self.resets += 1
            try:
                await self.js.delete_consumer(room.stream, old)
            except Exception:  # gone already: nothing to undo
                pass

    def _inbox(self) -> str:
        return f"{self.shared.prefix}.{self.tag}" if self.shared is not None else self.nc.new_inbox()

    async def _pull(self, batch: int, inbox: str) -> None:
        self.pulls += 1
        await self.nc.publish(f"$JS.API.CONSUMER.MSG.NEXT.{self.player.room.stream}.{self.consumer}",
                              self.mode.pull_body(batch), reply=inbox)

    def _end(self) -> None:
        if self.done is not None and not self.done.done():
            self.done.set_result(None)

    async def _fetch(self, batch: int) -> int:
        """One pull of up to ``batch`` messages: over when they came, or it expired."""
        loop = asyncio.get_running_loop()
        self.want, self.got = batch, 0
        self.done = loop.create_future()
        inbox = self._inbox()
        sub: Subscription | None = None
        if self.shared is None:
            sub = await self.nc.subscribe(inbox, cb=self._on_msg)
        timer = loop.call_later(self.mode.expires + 1.0, self._end)  # the client's own limit, as nats.js's
        try:
            await self._pull(batch, inbox)
            await self.done
        finally:
            timer.cancel()
            self.done = None
            if sub is not None:
                await sub.unsubscribe()
        return self.got

    async def _fetches(self) -> None:
        """The page's reading loop: pull after pull, each of 100 (or as many as were pending)."""
        batch = 1
        while not self.closed:
            try:
                if self.renew:
                    self.renew = False
                    await self._consumer()
                    batch = 1
                got = await self._fetch(batch if self.mode.by_pending else PULL_BATCH)
            except asyncio.CancelledError:
                raise
            except Exception:  # the relay gone or restarted: a new consumer from the last sequence read
                self.renew = True
                await asyncio.sleep(0.5)
                continue
            batch = max(1, min(PULL_BATCH, self.pending)) if got else 1

    async def _quiet(self) -> None:
        """The page's quiet check: nothing came for a while, the stream is asked (whatever the pull)."""
        while not self.closed:
            await asyncio.sleep(1.0)
            if time.perf_counter() - self.arrived >= self.mode.stale:
                await self._probe()

    async def _probe(self) -> None:
        """Nothing came for a while: ask the stream for the room's last messages (game, chat)."""
        self.probes += 1
        self.arrived = time.perf_counter()
        room = self.player.room
        for subject in (room.subject, chat_subject(room.name)):
            try:
                answer = await self.nc.request(f"$JS.API.STREAM.MSG.GET.{room.stream}",
                                               json.dumps({"last_by_subj": subject}).encode(), timeout=2.0)
                seq = json.loads(answer.data).get("message", {}).get("seq", 0)
            except Exception:  # no answer now: the next probe asks again
                continue
            if seq > self.stream_seq:
                self.renew = True
                self._end()

    async def _on_msg(self, msg: Msg) -> None:
        self.deliver(msg)

    def deliver(self, msg: Msg) -> None:
        """A message of this reader's pull: a heartbeat, the pull's end (expired), or the room's."""
        status = msg.headers.get("Status") if msg.headers else None
        if status is not None:
            if status == "100":
                self.heartbeats += 1
                return
            self.expired += 1  # 408: expired (what it did not deliver is in its headers); 409: refused
            self._end()
            return
        tokens = _ack_tokens(msg.reply)
        if tokens[1] != self.consumer:
            return  # a consumer made before: its last pull's answer
        seq, dseq = int(tokens[3]), int(tokens[4])
        if dseq != self.dseq + 1:  # a gap: ordered consumers start again from what they read
            self.renew = True
            self._end()
            return
        self.dseq, self.stream_seq, self.pending = dseq, seq, int(tokens[6])
        self.arrived = time.perf_counter()
        room = self.player.room
        if msg.subject == room.subject:
            room.fold(self.player, msg.data, seq)
        self.got += 1
        if self.got >= self.want:
            self._end()


async def _hear(room: LeanRoom, nc: NATS) -> Subscription:
    """The core subscription of a room's presence: each beat delivered once, as to the other page
    (pages connect without echo: a page does not hear its own beats)."""

    async def heard(msg: Msg) -> None:
        room.heard += 1

    return await nc.subscribe(presence_subject(room.name), cb=heard)


async def _beat(player: Player, nc: NATS, every: float, until: float, rng: random.Random) -> int:
    """A page's presence beats until ``until``: a ``here`` signed at the time, every ``every`` s."""
    sent = 0
    subject = presence_subject(player.room.name)
    beat = time.perf_counter() + rng.random() * every  # the pages' beats spread over the interval
    while True:
        await asyncio.sleep(max(0.0, min(beat, until) - time.perf_counter()))  # over with the run, not a beat later
        if beat >= until:
            return sent
        await nc.publish(subject, player.keys.message(Draft(player.room.name, "here", int(time.time() * 1000),
                                                            [("seq", player.last_seq)])))  # as far as it has read
        sent += 1
        beat += every


async def _play(room: LeanRoom, js: JetStreamContext, start: float, until: float, rng: random.Random) -> None:
    """One event a second from the first after the set-up, each when its second comes and its
    sender has read the one before (bare: when its second comes)."""
    tick = start + rng.random()  # the rooms spread over the second
    index = room.sent
    while index < len(room.data):
        await asyncio.sleep(max(0.0, tick - time.perf_counter()))
        if tick >= until:
            return
        if not await room.publish(js, index, tick + 10.0):
            return
        room.sent = index = index + 1
        tick = max(tick + 1.0, time.perf_counter() - 0.5)  # late by over half a second: no burst


def _waited() -> float:
    """Seconds this process's threads have waited, runnable, for a CPU (Linux; else NaN)."""
    total = 0.0
    try:
        for task in Path("/proc/self/task").iterdir():
            total += int((task / "schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return float("nan")
    return total


async def start_together(sync: Path, seed: int) -> None:
    """Say in ``sync`` that this process's rooms are set up (``ready-<seed>``), then wait for the
    benchmark's ``go``: every process's rooms start playing together."""
    (sync / f"ready-{seed}").touch()
    while not (sync / "go").exists():
        await asyncio.sleep(0.02)


def _reader_counts(pullers: list[Puller]) -> dict[str, int]:
    total: dict[str, int] = {}
    for p in pullers:
        for key, n in p.counts().items():
            total[key] = total.get(key, 0) + n
    return total


async def worker_main(url: str, rooms: int, seconds: float, seed: int, sync: Path, connections: int,
                      mode: Mode | None = None) -> dict:
    """``rooms`` rooms of this process: prepared, set up, then played together with the other
    processes' (``sync``: files saying ready / go), for ``seconds``, as ``mode`` says (default:
    the protocol, push readers). Figures as a dict; the readers' counts are the run's, not the
    set-up's."""
    mode = mode or Mode("push")
    prepare_started = time.perf_counter()
    rng = random.Random(seed)
    events = 4 + int(seconds) + 5
    pool = [random_script(random.Random(rng.random()), events) for _ in range(min(GAMES_IN_POOL, rooms))]
    lean = [LeanRoom(pool[i % len(pool)], bare=mode.bare) for i in range(rooms)]
    prepare = time.perf_counter() - prepare_started

    set_up_started = time.perf_counter()
    ncs = [await connect(url) for _ in range(connections)]
    dispatches = [Dispatch(nc, f"_lean.{seed}.{i}") for i, nc in enumerate(ncs)]
    inboxes = [Inbox(nc, f"_pull.{seed}.{i}") for i, nc in enumerate(ncs)]
    for d in dispatches:
        await d.start()
    if mode.reader == "pull" and mode.inbox == "shared":
        for inbox in inboxes:
            await inbox.start()
    limit = asyncio.Semaphore(SETUP_CONCURRENCY)
    failures: dict[str, int] = {}
    pullers: list[Puller] = []
    hearing: list[Subscription] = []

    async def open_room(i: int, room: LeanRoom) -> LeanRoom | None:
        async with limit:
            try:
                for seat, player in enumerate(room.players):
                    c = (2 * i + seat) % len(ncs)
                    tag = f"s{seed}r{i}p{seat}"
                    if mode.reader == "pull":
                        puller = Puller(player, ncs[c], mode, tag, inboxes[c] if mode.inbox == "shared" else None)
                        pullers.append(puller)
                        await puller.open()
                    else:
                        await dispatches[c].read(player, tag)
                    if mode.presence and seat == 0:  # one subscription a room: one delivery a beat, as pages
                        hearing.append(await _hear(room, ncs[c]))  # that hear only the other's (no echo)
                dispatch = dispatches[(2 * i) % len(dispatches)]
                for index in range(room.first):  # created, two seats, started
                    if not await room.publish(dispatch.js, index, time.perf_counter() + 30):
                        raise TimeoutError(f"event {index} not sent")
                    room.sent = index + 1
                await room.players[1].reached(room.first, 30)
                return room
            except Exception as exc:
                why = f"{type(exc).__name__}: {exc}"[:120]
                failures[why] = failures.get(why, 0) + 1
                return None

    made = await asyncio.gather(*(open_room(i, r) for i, r in enumerate(lean)))
    playing = [r for r in made if r is not None]
    set_up = time.perf_counter() - set_up_started
    await start_together(sync, seed)
    start = time.perf_counter()
    cpu = time.process_time()
    waited = _waited()
    before = _reader_counts(pullers)
    heard_before = sum(r.heard for r in playing)
    until = start + seconds
    beats: list[asyncio.Task[int]] = []
    if mode.presence:
        loop = asyncio.get_running_loop()
        for i, room in enumerate(playing):
            for seat, player in enumerate(room.players):
                beats.append(loop.create_task(_beat(player, ncs[(2 * i + seat) % len(ncs)], mode.presence, until,
                                                    random.Random(rng.random()))))
    await asyncio.gather(*(_play(r, dispatches[(2 * i) % len(dispatches)].js, start, until,
                                 random.Random(rng.random())) for i, r in enumerate(playing)))
    sent = sum(await asyncio.gather(*beats))
    cpu = time.process_time() - cpu
    waited = _waited() - waited
    wall = time.perf_counter() - start
    after = _reader_counts(pullers)
    heard = sum(r.heard for r in playing) - heard_before
    await asyncio.sleep(3)  # what is in flight arrives
    out: dict[str, Any] = {
        "rooms": len(playing), "failed_setup": rooms - len(playing), "why": failures, "set_up": set_up,
        "prepare": prepare, "latencies": [], "moves": 0, "messages": 0, "lost": 0, "doubled": 0, "unknown": 0,
        "refused": 0, "resends": 0, "errors": 0, "client_cpu": cpu, "client_wall": wall, "client_wait": waited,
        "readers": 2 * len(playing), "presence_sent": sent, "presence_heard": heard}
    for key in after:
        out[key] = after[key] - before.get(key, 0)
    for room in playing:
        played = [i for i in room.acked if i >= room.first]
        out["messages"] += len(played)
        moves = [i for i in played if i in room.moves]
        out["moves"] += len(moves)
        # each acknowledged move that a reader other than its sender never folded (bare: both readers)
        out["lost"] += sum(1 for i in moves for p in room.players if p.seat != room.seats[i] and p.folded <= i)
        out["latencies"] += room.latencies
        for key in ("doubled", "unknown", "refused", "resends"):
            out[key] += getattr(room, key)
        out["errors"] += room.failed
    for p in pullers:
        await p.close()
    for sub in hearing:
        try:
            await sub.unsubscribe()
        except Exception:  # the connection may be gone: nothing to undo
            pass
    for nc in ncs:
        await nc.close()
    return out
