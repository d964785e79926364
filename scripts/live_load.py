"""A lean load generator for one relay (``make bench-live``, ``scripts/bench_live.py``): many rooms
playing random legal games through the room protocol, with as little Python per move as the
protocol allows, so that the relay, not the generator, is what is measured.

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

Shared, not per room: each process holds a few connections; each player's consumer (one per
player, a plain push consumer, relay-side the same work as a page's) delivers to a subject of
its connection, read by one subscription per connection and dispatched by consumer name (the
delivery's reply subject names it).
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

from nats.aio.msg import Msg
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from nats.js.errors import APIError

from yinsh.live.client import WRONG_LAST_SEQUENCE, Keys, connect, new_room_name
from yinsh.live.protocol import STREAM, Draft, decode, game_subject, room_filter
from yinsh.live.room import Room

__all__ = ["random_script", "worker_main"]

SETUP_CONCURRENCY = 100
GAMES_IN_POOL = 64
"""Random games per process; each room plays one (its messages are its own: room, keys)."""

Script = list[tuple[int, str, list[tuple[str, object]]]]
"""A room's events in order: (seat that sends it, kind, fields); the version is the index."""


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


class LeanRoom:
    """A room, its two players, its signed messages, and what happened to each."""

    def __init__(self, script: Script) -> None:
        self.name = new_room_name()
        self.subject = game_subject(self.name)
        self.players = [Player(self, 0), Player(self, 1)]
        self.seats = [seat for seat, _, _ in script]
        self.moves = {i for i, (_, kind, _) in enumerate(script) if kind == "move"}
        self.data = [self.players[seat].keys.message(Draft(self.name, kind, i, fields))
                     for i, (seat, kind, fields) in enumerate(script)]
        self.sent = 0  # events published and acknowledged
        self.acked: dict[int, int] = {}  # event → stream sequence
        self.started: dict[int, float] = {}  # event → when its publish began
        self.latencies: list[float] = []
        self.doubled = 0
        self.unknown = 0  # folded bytes that are no event of this room (never expected here)
        self.refused = 0  # wrong last sequence: mostly a resend whose first attempt was stored
        self.resends = 0
        self.failed = 0

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
        elif data in self.data[:index]:
            self.doubled += 1
        else:
            self.unknown += 1

    async def publish(self, js, index: int, deadline: float) -> bool:  # type: ignore[no-untyped-def]
        """Send event ``index`` from its seat, guarded by what that seat's reader saw."""
        player = self.players[self.seats[index]]
        headers = {"Nats-Msg-Id": f"{self.name}.{index}"}
        while time.perf_counter() < deadline:
            try:
                await player.reached(index, max(0.1, deadline - time.perf_counter()))
            except TimeoutError:
                break
            headers["Nats-Expected-Last-Subject-Sequence"] = str(player.last_seq)
            self.started.setdefault(index, time.perf_counter())
            try:
                # 5 s for an answer: a relay short of CPU is not sent the same move again and again
                ack = await js.publish(self.subject, self.data[index], timeout=5.0, headers=headers)
            except APIError as exc:
                if exc.err_code == WRONG_LAST_SEQUENCE:
                    self.refused += 1  # stored meanwhile: an earlier attempt (its answer lost)?
                    if player.folded > index:  # yes: this very event, folded
                        self.acked[index] = player.last_seq if player.folded == index + 1 else -1
                        return True
                    await asyncio.sleep(0.05)
                    continue
                await asyncio.sleep(0.2)
                continue
            except Exception:  # no answer (a timeout, a reconnection): the same id, stored once
                self.resends += 1
                await asyncio.sleep(0.2)
                continue
            self.acked[index] = ack.seq
            return True
        self.failed += 1
        return False


class Dispatch:
    """One subscription per connection for every consumer delivering to it: the consumers share
    its literal subject (nats-server binds a push consumer to a literal subscription only, not to
    a wildcard one) and each delivery's reply names its consumer."""

    def __init__(self, nc, prefix: str) -> None:  # type: ignore[no-untyped-def]
        self.nc = nc
        self.js = nc.jetstream()
        self.prefix = prefix
        self.players: dict[str, Player] = {}

    async def start(self) -> None:
        await self.nc.subscribe(self.prefix, cb=self.on_msg)

    async def on_msg(self, msg: Msg) -> None:
        # $JS.ACK.<stream>.<consumer>.<delivered>.<stream seq>.<consumer seq>.<time>.<pending>
        # (with a domain and an account hash before the stream: 12 tokens or more)
        tokens = msg.reply.split(".")
        if len(tokens) == 9:
            consumer, seq = tokens[3], int(tokens[5])
        else:
            consumer, seq = tokens[5], int(tokens[7])
        player = self.players.get(consumer)
        if player is not None and msg.subject.endswith(".game"):
            player.room.fold(player, msg.data, seq)

    async def read(self, player: Player, tag: str) -> None:
        """A push consumer of ``player``'s room from its first message, delivering here."""
        player.consumer = tag
        self.players[tag] = player
        await self.js.add_consumer(STREAM, ConsumerConfig(
            name=tag, deliver_subject=self.prefix, filter_subject=room_filter(player.room.name),
            ack_policy=AckPolicy.NONE, deliver_policy=DeliverPolicy.ALL, mem_storage=True, inactive_threshold=30.0))


async def _play(room: LeanRoom, dispatch: Dispatch, start: float, until: float, rng: random.Random) -> None:
    """One event a second from the fourth on (the start), each when its second comes and its
    sender has read the one before."""
    tick = start + rng.random()  # the rooms spread over the second
    index = room.sent
    while index < len(room.data):
        await asyncio.sleep(max(0.0, tick - time.perf_counter()))
        if tick >= until:
            return
        if not await room.publish(dispatch.js, index, tick + 10.0):
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


async def worker_main(url: str, rooms: int, seconds: float, seed: int, sync: Path, connections: int) -> dict:
    """``rooms`` rooms of this process: prepared, set up, then played together with the other
    processes' (``sync``: files saying ready / go), for ``seconds``. Figures as a dict."""
    prepare_started = time.perf_counter()
    rng = random.Random(seed)
    events = 4 + int(seconds) + 5
    pool = [random_script(random.Random(rng.random()), events) for _ in range(min(GAMES_IN_POOL, rooms))]
    lean = [LeanRoom(pool[i % len(pool)]) for i in range(rooms)]
    prepare = time.perf_counter() - prepare_started

    set_up_started = time.perf_counter()
    ncs = [await connect(url) for _ in range(connections)]
    dispatches = [Dispatch(nc, f"_lean.{seed}.{i}") for i, nc in enumerate(ncs)]
    for d in dispatches:
        await d.start()
    limit = asyncio.Semaphore(SETUP_CONCURRENCY)
    failures: dict[str, int] = {}

    async def open_room(i: int, room: LeanRoom) -> LeanRoom | None:
        async with limit:
            try:
                for seat, player in enumerate(room.players):
                    await dispatches[(2 * i + seat) % len(dispatches)].read(player, f"s{seed}r{i}p{seat}")
                dispatch = dispatches[(2 * i) % len(dispatches)]
                for index in range(4):  # created, two seats, started
                    if not await room.publish(dispatch.js, index, time.perf_counter() + 30):
                        raise TimeoutError(f"event {index} not sent")
                    room.sent = index + 1
                await room.players[1].reached(4, 30)
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
    until = start + seconds
    await asyncio.gather(*(_play(r, dispatches[(2 * i) % len(dispatches)], start, until,
                                 random.Random(rng.random())) for i, r in enumerate(playing)))
    cpu = time.process_time() - cpu
    waited = _waited() - waited
    wall = time.perf_counter() - start
    await asyncio.sleep(3)  # what is in flight arrives
    out: dict[str, Any] = {
        "rooms": len(playing), "failed_setup": rooms - len(playing), "why": failures, "set_up": set_up,
        "prepare": prepare, "latencies": [], "moves": 0, "lost": 0, "doubled": 0, "unknown": 0, "refused": 0,
        "resends": 0, "errors": 0, "client_cpu": cpu, "client_wall": wall, "client_wait": waited}
    for room in playing:
        moves = [i for i in room.acked if i in room.moves]
        out["moves"] += len(moves)
        opponent = {0: room.players[1], 1: room.players[0]}
        out["lost"] += sum(1 for i in moves if opponent[room.seats[i]].folded <= i)
        out["latencies"] += room.latencies
        for key in ("doubled", "unknown", "refused", "resends"):
            out[key] += getattr(room, key)
        out["errors"] += room.failed
    for nc in ncs:
        await nc.close()
    return out
