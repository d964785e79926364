"""Live rooms under random fault schedules, against a real nats-server, with nats-py clients.

A schedule (drawn by hypothesis) is a game of a few moves, each with a fault made for real before
or during it (tests/faults.py's proxy sits between every client and the relay):

- ``cut before`` / ``cut after``: the mover's connection cut when its move's ``PUB`` reaches the
  proxy, before it goes through (nothing stored), or once it went through and before the relay's
  answer comes back (stored, and the client never heard);
- ``stall``: a connection (the mover's, a tab of the other seat, the watcher's) carries nothing
  for 0.5–4 s, closing nothing, while the game goes on: then the network comes back (``resume``:
  what was held arrives late), or the connection is cut (``cut``), or what arrived meanwhile was
  dropped and the connection is cut (``drop``). Pings every second (the page's every 2 s, halved)
  so that some stalls are noticed by the client and others end first;
- ``junk``: a hostile client stores something on the room (garbage, a forged or unseated or
  out-of-turn move, a replayed event, unsigned chat, another subject) before or while the mover
  publishes;
- ``tabs``: both tabs of the mover's seat (one key, a connection each) move at once;
- ``reload``: a tab of the other seat closed and opened again (same key, new connection) during
  the move;
- ``restart`` (its own test, its own relay): the relay killed (SIGKILL) and restarted on its
  ports and store, before or during the move.

Each seat has two tabs, and there is a watcher, every one behind its own proxy; a referee (on the
relay, no proxy) says whose turn it is. After the schedule the faults stop, and every client must
show the stored game by its own means (its guard: a check after every reconnect and after every
quiet spell; nobody calls ``check()`` for it): the room folded to the last stored sequence, the
same record, version, events, seats and ignored messages as a fresh reader of the stream; every
move the relay acknowledged to a guarded publish (every attempt is recorded) counted, every move a
client was told it won counted once and as sent, no event counted twice. Every wait has a
deadline; a client stuck behind fails the step it should have moved in.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import nats.errors
import pytest
from faults import Proxy
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from live import run, seat, start_relay

from yinsh.live.client import Keys, Refused, RoomClient, connect, ensure_stream, new_room_name
from yinsh.live.protocol import STREAM, Draft, Message, chat_subject, decode, game_subject
from yinsh.live.server import Relay

pytestmark = pytest.mark.live

FAULTS = ("stall", "cut before", "cut after", "junk", "tabs", "reload", "none")
JUNK = ("bytes", "forged", "unseated", "turn", "replay", "chat", "subject")
ENDS = ("resume", "cut", "drop")
WATCHER = 4
"""The watcher's slot; slots 0 and 1 are Ana's tabs, 2 and 3 Ben's."""
STEP_SECONDS = 25.0
"""The longest a step waits for a client to have folded the game so far (a stall, a reconnect and
a quiet check take less than half)."""
SETTLE_SECONDS = 20.0
"""The longest a client may take, once the faults stopped, to fold what is stored."""
PING_SECONDS = 1.0


@dataclass(frozen=True)
class Step:
    """One move of a schedule and the fault made before or during it."""

    fault: str
    tab: int
    """Which tab of the mover's seat moves (and which of the other seat's a fault hits)."""
    target: str
    """Whose connection a stall hits: ``mover``, ``other`` (a tab of the other seat) or ``watcher``."""
    seconds: float
    end: str
    delay: float | None
    """How long after the move began the fault is made; ``None``: before the move."""
    pick: int
    """Which legal move is played (by its index, modulo their number)."""
    junk: str


def schedules(faults: tuple[str, ...], least: int, most: int) -> st.SearchStrategy[list[Step]]:
    step = st.builds(Step, fault=st.sampled_from(faults), tab=st.integers(0, 1),
                     target=st.sampled_from(("mover", "other", "watcher")),
                     seconds=st.integers(5, 40).map(lambda tenths: tenths / 10), end=st.sampled_from(ENDS),
                     delay=st.sampled_from((None, 0.0, 0.02, 0.1)), pick=st.integers(0, 999),
                     junk=st.sampled_from(JUNK))
    return st.lists(step, min_size=least, max_size=most)


# Hypothesis draws the schedules the same way every run (derandomized, no database) and does not
# shrink a failing one (each example takes seconds of real time): it prints the schedule instead.
FAULT_SETTINGS = settings(derandomize=True, database=None, deadline=None, phases=[Phase.explicit, Phase.generate],
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


class Table:
    """One room under faults: its clients, its proxies, and what each client was told."""

    def __init__(self, relay: Relay) -> None:
        self.relay = relay
        self.name = new_room_name()
        self.keys = [Keys(), Keys(), Keys()]  # Ana's, Ben's, the watcher's
        self.mallory = Keys()
        self.proxies: list[Proxy] = []
        self.slots: list[RoomClient] = []  # Ana's two tabs, Ben's two tabs, the watcher
        self.referee: RoomClient | None = None
        self.hostile: Any = None
        self.acks: list[tuple[int, bytes, bool]] = []  # (sequence, payload, guarded): every game publish acknowledged
        self.wins: list[tuple[int, str, str]] = []  # (sequence, key, move): every move a client was told it won
        self.failures: list[str] = []
        self.stalls: dict[int, asyncio.Task[None]] = {}
        self.made: list[str] = []  # the faults made, for the summary

    @property
    def people(self) -> list[RoomClient]:
        assert self.referee is not None
        return [self.referee, *self.slots]

    async def open(self) -> None:
        nc = await connect(self.relay.url)
        await ensure_stream(nc)
        self.referee = await RoomClient(nc, self.name).open()
        self.hostile = await connect(self.relay.url)
        for _ in range(WATCHER + 1):
            self.proxies.append(await Proxy(self.relay.port).start())
        for slot in range(WATCHER + 1):
            self.slots.append(await self._client(slot))
        ana, ben = self.slots[0], self.slots[2]
        await seat(ana, ben)
        await ana.caught_up()
        await ana.start()

    async def _client(self, slot: int) -> RoomClient:
        nc = await connect(self.proxies[slot].url, ping_interval=PING_SECONDS)
        client = RoomClient(nc, self.name, self.keys[slot // 2])
        publish = client.js.publish

        async def recorded(subject: str, payload: bytes = b"", *args: Any, **kwargs: Any) -> Any:
            ack = await publish(subject, payload, *args, **kwargs)
            if subject == game_subject(self.name):
                guarded = "Nats-Expected-Last-Subject-Sequence" in (kwargs.get("headers") or {})
                self.acks.append((ack.seq, payload, guarded))
            return ack

        client.js.publish = recorded  # type: ignore[method-assign]
        return await client.open()

    async def close(self) -> None:
        for task in self.stalls.values():
            task.cancel()
        await asyncio.gather(*self.stalls.values(), return_exceptions=True)
        for client in self.people:
            await asyncio.wait_for(_closed(client), 10)
        if self.hostile is not None:
            await asyncio.wait_for(self.hostile.close(), 10)
        for proxy in self.proxies:
            await asyncio.wait_for(proxy.close(), 10)

    # -- a step ------------------------------------------------------------------------

    async def play(self, step: Step) -> None:
        """The player to move moves (by one tab, or both at once), the step's fault made around it."""
        assert self.referee is not None
        await self.referee.caught_up(STEP_SECONDS)
        room = self.referee.room
        if room.phase != "playing":
            return
        mover_seat = room.seat_of(room.to_move_key() or "")
        assert mover_seat is not None
        tabs = [2 * mover_seat, 2 * mover_seat + 1]
        slots = tabs if step.fault == "tabs" else [tabs[step.tab]]
        for slot in slots:  # a client stuck behind the stream fails here
            await self.slots[slot].wait_for(lambda r, v=room.version: r.version >= v, STEP_SECONDS)
        mover = self.slots[slots[0]]
        assert mover.room.game is not None
        legal = [str(move) for move in mover.room.game.legal_moves()]
        moves = [legal[(step.pick + i) % len(legal)] for i in range(len(slots))]
        if len(set(moves)) < len(moves):  # one legal move: one tab
            slots, moves = slots[:1], moves[:1]
        other = 2 * (1 - mover_seat) + step.tab
        sends = [self._send(self.slots[slot], move, solo=len(slots) == 1) for slot, move in zip(slots, moves)]
        fault: Any = None
        if step.fault in ("cut before", "cut after"):
            proxy = self.proxies[slots[0]]
            fired = proxy.cut_on_publish(game_subject(self.name), after=step.fault == "cut after")
            await asyncio.gather(*sends)
            self.made.append(f"cut: {fired.result()}" if fired.done() else "cut: not fired")
            proxy.disarm()
            return
        if step.fault == "stall":
            fault = self._stall({"mover": slots[0], "other": other, "watcher": WATCHER}[step.target], step)
        elif step.fault == "junk":
            fault = self._junk(step.junk, mover.room.draft_move(mover.key, moves[0]), 1 - mover_seat)
        elif step.fault == "reload":
            fault = self._reload(other)
        elif step.fault == "restart":
            fault = self._restart()
        elif step.fault == "tabs":
            self.made.append("tabs" if len(slots) == 2 else "tabs: one move")
        if fault is None:
            await asyncio.gather(*sends)
        elif step.delay is None:
            await fault
            await asyncio.gather(*sends)
        else:
            await asyncio.gather(*sends, _after(step.delay, fault))

    async def _send(self, client: RoomClient, move: str, solo: bool) -> None:
        try:
            seq = await client.move(move)
        except Refused as exc:  # the other tab's move was kept: expected when both move
            if solo:
                self.failures.append(f"{move} refused: {exc}")
            return
        except (TimeoutError, nats.errors.Error) as exc:
            self.failures.append(f"{move}: {type(exc).__name__} {exc}")
            return
        self.wins.append((seq, client.key, move))

    async def _stall(self, slot: int, step: Step) -> None:
        """Stall ``slot``'s connection for ``step.seconds`` in the background (the game goes on)."""
        proxy = self.proxies[slot]
        if slot in self.stalls and not self.stalls[slot].done():
            return  # stalled already
        self.made.append(f"stall {step.target} {step.seconds} s, {step.end}")

        async def stalled() -> None:
            proxy.stall(drop=step.end == "drop")
            try:
                await asyncio.sleep(step.seconds)
            finally:
                if step.end == "cut":
                    proxy.cut()
                proxy.resume()

        self.stalls[slot] = asyncio.create_task(stalled())

    async def _junk(self, kind: str, draft: Draft, other_seat: int) -> None:
        """A hostile client stores ``kind`` of junk on the room (``draft``: the mover's move now)."""
        assert self.referee is not None
        js = self.hostile.jetstream()
        subject = game_subject(self.name)
        if kind == "bytes":
            data = b"\xff\xfe not a message"
        elif kind == "forged":  # the mover's key named, Mallory's signature
            data = draft.signed(self.keys[1 - other_seat].public, self.mallory.sign(draft.text()))
        elif kind == "unseated":  # signed rightly, by a key with no seat
            data = self.mallory.message(draft)
        elif kind == "turn":  # the other player signs a move for the mover's turn
            data = self.keys[other_seat].message(draft)
        elif kind == "replay":  # the last event the room accepted, again
            data = (await js.get_msg(STREAM, self.referee.room.events[-1])).data
        elif kind == "chat":
            subject, data = chat_subject(self.name), b'{"v":3,"t":"chat","n":1,"text":"unsigned"}'
        else:
            subject, data = f"yinsh.room.{self.name}.other", b"another subject"
        self.made.append(f"junk {kind}")
        await js.publish(subject, data)

    async def _reload(self, slot: int) -> None:
        """Close ``slot``'s client and open a new one with the same key on a new connection."""
        if self.proxies[slot].state != "open":
            return  # offline: a reload would not reach the relay
        self.made.append("reload")
        await _closed(self.slots[slot])
        self.slots[slot] = await self._client(slot)

    async def _restart(self) -> None:
        """Kill the relay (SIGKILL) and start it again on its ports and store."""
        self.made.append("restart")
        await asyncio.to_thread(self.relay.kill)
        await asyncio.sleep(0.2)
        await asyncio.to_thread(self.relay.start)

    # -- the end -----------------------------------------------------------------------

    async def settle_and_check(self) -> None:
        """Stop the faults, let every client fold what is stored by its own means, and compare."""
        for task in self.stalls.values():
            task.cancel()
        await asyncio.gather(*self.stalls.values(), return_exceptions=True)
        for proxy in self.proxies:
            proxy.calm()
        accepted: dict[int, Message] = {}
        fresh = await RoomClient(await connect(self.relay.url), self.name,
                                 on_event=lambda message, seq: accepted.__setitem__(seq, message)).open()
        try:
            last = -1
            for _ in range(3):  # a publish held by a stall may still be stored (or refused) late
                stored = await fresh.last_stored()
                if stored == last:
                    break
                last = stored
                await _settled(fresh, last)
                await asyncio.gather(*(_settled(client, last) for client in self.people))
            self._check(fresh, accepted, last)
        finally:
            await _closed(fresh)

    def _check(self, fresh: RoomClient, accepted: dict[int, Message], last: int) -> None:
        truth = fresh.room
        assert truth.game is not None and truth.seq == last
        for i, client in enumerate(self.people):
            room = client.room
            who = f"client {i} ({'referee' if i == 0 else f'slot {i - 1}'})"
            assert room.seq == last, f"{who} folded to {room.seq}, the stream holds {last}"
            assert room.game is not None and room.game.record() == truth.game.record(), who
            assert (room.version, room.events, room.phase) == (truth.version, truth.events, truth.phase), who
            assert [s and s.key for s in room.seats] == [s and s.key for s in truth.seats], who
            assert dict(room.ignored) == dict(truth.ignored), who
        assert sorted(accepted) == truth.events and len(set(truth.events)) == len(truth.events)
        signatures = [message.signature for message in accepted.values()]
        assert len(set(signatures)) == len(signatures), "an event counted twice"
        moves = [message.get("move") for _, message in sorted(accepted.items()) if message.kind == "move"]
        assert moves == [str(move) for move in truth.game.moves if str(move) != "pass"]
        for seq, payload, guarded in self.acks:
            if guarded:  # acknowledged under the guard: it was current, so it counts
                assert seq in accepted, f"the relay acknowledged {decode(payload)} at {seq}; the room skipped it"
                assert accepted[seq].signature == decode(payload).signature
        for seq, key, move in self.wins:
            assert accepted[seq].key == key and accepted[seq].get("move") == move, (seq, key, move)
        assert len({seq for seq, _, _ in self.wins}) == len(self.wins), "two sends told they won one event"
        assert not self.failures, self.failures


async def _after(delay: float, fault: Any) -> None:
    await asyncio.sleep(delay)
    await fault


async def _settled(client: RoomClient, last: int) -> None:
    """Wait until ``client`` is connected and has folded the stream up to ``last``."""
    await client.wait_for(lambda room: client.nc.is_connected, SETTLE_SECONDS)
    await client.wait_for(lambda room: not room.behind(last), SETTLE_SECONDS)


async def _closed(client: RoomClient) -> None:
    await client.close()
    await client.nc.close()


async def _play(relay: Relay, schedule: list[Step]) -> None:
    table = Table(relay)
    try:
        await table.open()
        for step in schedule:
            await table.play(step)
        await table.settle_and_check()
        assert table.referee is not None and table.referee.room.game is not None
        print(f"{table.referee.room.game.ply} plies, {len(table.acks)} acks; {', '.join(table.made) or 'no fault'}")
    finally:
        await table.close()


@pytest.fixture(scope="module")
def relay(tmp_path_factory):
    server = start_relay(tmp_path_factory.mktemp("faults"))
    yield server
    server.stop()


@settings(FAULT_SETTINGS, max_examples=8)
@given(schedule=schedules(FAULTS, 6, 10))
def test_every_client_shows_the_stored_game_whatever_the_network_does(relay, schedule):
    run(_play(relay, schedule), 150)


@pytest.fixture(scope="module")
def restarted_relay(tmp_path_factory):
    """A relay of its own: the schedules kill and restart it."""
    server = start_relay(tmp_path_factory.mktemp("restarts"))
    yield server
    server.stop()


@settings(FAULT_SETTINGS, max_examples=4)
@given(schedule=schedules(FAULTS + ("restart",) * 3, 5, 8))
def test_every_client_shows_the_stored_game_when_the_relay_is_killed_too(restarted_relay, schedule):
    run(_play(restarted_relay, schedule), 150)
