#!/usr/bin/env python3
"""Live rooms under load (``make bench-live``): rooms playing random legal games through the room
protocol (nats-py) on a local nats-server, then on a three-node cluster that loses a node mid-run;
first, the page's own figures (scripts/bench_live_page.py: a move from a click on one page to
drawn on the other, back in the seat after a reload, in a flooded room, the bytes a hotseat game
loads for live play).

**One relay: the relay's CPU a move** (``--rooms``, ``--rounds``). Each room has two players;
the player to move publishes one event a second, guarded by the expected last subject sequence
its own reader saw, and both players read every event back from the stream through their own
consumer. By default the players are *lean* (scripts/live_load.py): the random legal games and
every signed message are prepared before the clock starts (a signature covers the room, the
room's version and the move, all known beforehand; the stream's sequences only go in headers),
readers compare the bytes they fold with the room's script, and the processes (``--processes``,
one per core by default) share a few connections each (``--connections``). The figure is the
relay's CPU a move: CPU seconds of the nats-server process (user and system, all its threads,
from ``/proc``) over the run, divided by the messages published in it (a move a second a room;
now and then a rematch's start), so a machine shared with other work still measures it (that
work takes wall time, not the relay's CPU seconds). Three runs make a round, each on its own
fresh relay (an empty store, no consumer or subscription left over from another run), in an
order that turns by one each round:

- **the baseline**: bare JetStream, nothing of the protocol: a stream of its own (file
  storage, plain limits), a subject a room, one publisher a room publishing a message a second
  (the lengths of the room's real signed moves) guarded by ``Nats-Expected-Last-Subject-Sequence``
  and waiting for the acknowledgement, and two readers a room, each a push consumer with no
  acknowledgements delivering to a subscription its connection shares (the cheapest reader that
  still receives every message from the stream: no pull requests, flow control or heartbeats);
- **the protocol, push readers**: the lean players, each reading through such a push consumer;
- **the protocol, page-like readers**: each player reads as the page does (an ordered pull
  consumer fetched through nats.js, pull after pull of 100 messages, each open until they came
  or 30 s passed, with an idle heartbeat every 15 s, from an inbox subscription made for the
  pull), says it is here every ``--presence`` seconds on the room's presence subject and
  hears both players' beats through its own core subscription.

Each run prints its figures (moves, latency, lost and doubled, the relay's and the generator's
CPU and how long each waited for a CPU); the rounds end in a table, for each size, of the
relay's CPU a move for each (median and range over the rounds) and its ratio to the same
round's baseline, and whether the page-like readers stay within :data:`TARGET` × the baseline.
When they do not (or with ``--breakdown always``), the breakdown runs more rounds of steps from
the page-like readers towards push readers, each leaving one thing out (presence, the pulls'
idle heartbeat, a subscription a pull), after the page's reader before (a pull a message),
and prints what each step saves.
``--players checked`` plays through the reference client instead (yinsh.live.client: every
move signed at the time and checked by both players with the rules and Ed25519, as pages do),
one run a size, which costs the generator several times the relay's CPU. A move's latency is
the time from its publish to the opponent's reader folding it, both in one process, on one
clock. A move is *lost* when its publish was acknowledged but a reader other than its sender
never folded it, *doubled* when a reader folded it twice.

**The cluster** (``--kill``, one run per fault): checked players (ordered consumers whose idle
heartbeat is ``--cluster-heartbeat``, two missed and one is made again on a live node), a node
killed (SIGKILL) halfway or put in lame-duck mode (SIGUSR2) 5 s into a run of at least 40 s (it
closes its clients over 30 s); how long until every game moved again, and each game's longest
pause from the fault to the end of the run.

Traffic is on 127.0.0.1 only; every run is bounded by ``--seconds`` plus the set-up, and the
relays stop with the script. Figures go to standard output: this is a benchmark, never a test.

    python scripts/bench_live.py                       # the page, 3 rounds of 500 rooms for 30 s, the cluster
    python scripts/bench_live.py --skip-page --skip-cluster --rooms 200 500 --rounds 3
    python scripts/bench_live.py --skip-page --skip-cluster --rooms 500 --breakdown always
    python scripts/bench_live.py --skip-page --skip-single --kill leader leader-ldm
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import multiprocessing
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "scripts"))

from live_load import PRESENCE_SECONDS, Mode, ensure_bare_stream  # noqa: E402

from yinsh.live.client import Refused, RoomClient, connect, ensure_stream, new_room_name  # noqa: E402
from yinsh.live.protocol import STREAM  # noqa: E402
from yinsh.live.room import Room  # noqa: E402
from yinsh.live.server import Relay, find_server, free_port  # noqa: E402

SETUP_CONCURRENCY = 50


class Pair:
    """One room: its two players, the moves sent and when, what each side saw."""

    def __init__(self, players: list[RoomClient]) -> None:
        self.players = players
        self.sent: dict[int, float] = {}  # stream sequence of a move acknowledged → when move() was called
        self.pending: dict[tuple[int, int], float] = {}  # (game, ply) → when move() was called
        self.latencies: list[float] = []
        self.seen: dict[int, int] = {}  # sequence → times the opponent accepted it
        self.moves_after: list[float] = []  # when moves were seen (for the cluster's gap)
        self.errors = 0


def _watch(pair: Pair, index: int) -> None:
    me = pair.players[index]

    def on_event(message, seq) -> None:  # type: ignore[no-untyped-def]
        if message.kind != "move" or message.key == me.key:
            return
        now = time.perf_counter()
        pair.seen[seq] = pair.seen.get(seq, 0) + 1
        started = pair.pending.pop((me.room.games, message.get("ply")), None)
        if started is not None:
            pair.latencies.append(now - started)
        pair.moves_after.append(time.time())

    me.on_event = on_event


async def _setup(connections: list, index: int, heartbeat: float) -> Pair:
    name = new_room_name()
    ordered = heartbeat > 0
    ana = await RoomClient(connections[(2 * index) % len(connections)], name, heartbeat=heartbeat,
                           ordered=ordered).open()
    ben = await RoomClient(connections[(2 * index + 1) % len(connections)], name, heartbeat=heartbeat,
                           ordered=ordered).open()
    pair = Pair([ana, ben])
    _watch(pair, 0)
    _watch(pair, 1)
    await ana.create("random")
    await ana.join("Ana")
    await ben.caught_up()
    await ben.join("Ben")
    await ana.caught_up()
    await ana.start()
    await ben.wait_for(lambda room: room.phase == "playing")
    return pair


def _at_version(version: int) -> Callable[[Room], bool]:
    """Whether a room has accepted ``version`` events (a predicate for ``RoomClient.wait_for``)."""
    return lambda room: room.version >= version


async def _play(pair: Pair, until: float, rng: random.Random) -> None:
    await asyncio.sleep(rng.random())  # spread the rooms over the second
    while time.perf_counter() < until:
        tick = time.perf_counter()
        try:
            leader = max(pair.players, key=lambda c: c.room.version)
            if leader.room.phase != "playing":
                other = pair.players[0] if leader is pair.players[1] else pair.players[1]
                await other.wait_for(_at_version(leader.room.version))
                await pair.players[0].start()  # a rematch
                continue
            mover = next(c for c in pair.players if c.key == leader.room.to_move_key())
            await mover.wait_for(_at_version(leader.room.version))
            game = mover.room.game
            assert game is not None
            move = str(rng.choice(game.legal_moves()))
            started = time.perf_counter()
            pair.pending[(mover.room.games, game.ply)] = started
            seq = await mover.move(move)
            pair.sent[seq] = started
        except (Refused, TimeoutError, OSError, Exception):  # counted, and the room goes on
            pair.errors += 1
            await asyncio.sleep(0.2)
        await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - tick)))


async def _worker_main(urls: list[str], rooms: int, seconds: float, seed: int, sync: Path,
                       connections_per_worker: int, heartbeat: float) -> dict:
    from live_load import start_together

    connections = [await connect(urls[i % len(urls):] + urls[:i % len(urls)]) for i in range(connections_per_worker)]
    limit = asyncio.Semaphore(SETUP_CONCURRENCY)
    set_up_started = time.perf_counter()

    failures: dict[str, int] = {}

    async def one(i: int) -> Pair | None:
        async with limit:
            try:
                return await _setup(connections, i, heartbeat)
            except Exception as exc:
                why = f"{type(exc).__name__}: {exc}"[:120]
                failures[why] = failures.get(why, 0) + 1
                return None

    made = await asyncio.gather(*(one(i) for i in range(rooms)))
    pairs = [p for p in made if p is not None]
    set_up = time.perf_counter() - set_up_started
    await start_together(sync, seed)
    start = time.perf_counter()
    started_wall = time.time()
    cpu = time.process_time()
    until = start + seconds
    rng = random.Random(seed)
    await asyncio.gather(*(_play(p, until, random.Random(rng.random())) for p in pairs))
    cpu = time.process_time() - cpu
    ended = time.time()
    await asyncio.sleep(5)  # what is in flight arrives
    out: dict = {"rooms": len(pairs), "failed_setup": rooms - len(pairs), "why": failures, "set_up": set_up,
                 "latencies": [], "moves": 0, "lost": 0, "doubled": 0, "errors": 0, "retries": 0, "resends": 0,
                 "disagree": 0, "gaps": [], "first": [], "before": [], "start": start,
                 "client_cpu": cpu}
    for pair in pairs:
        out["latencies"] += pair.latencies
        out["moves"] += len(pair.sent)
        out["lost"] += sum(1 for seq in pair.sent if seq not in pair.seen)
        out["doubled"] += sum(n - 1 for n in pair.seen.values() if n > 1)
        out["errors"] += pair.errors
        out["retries"] += sum(c.retries for c in pair.players)
        out["resends"] += sum(c.resends for c in pair.players)
        a, b = (c.room for c in pair.players)
        out["disagree"] += a.version != b.version or (a.game is not None and b.game is not None
                                                       and a.game.record() != b.game.record())
        killed = sync / "killed"
        if killed.exists():
            # the room's longest pause from the fault to the end of the run (a move a second: 1 s
            # without a fault), its first move after the fault included
            kill_time = float(killed.read_text())
            times = [kill_time] + sorted(t for t in pair.moves_after if kill_time <= t <= ended) + [ended]
            out["gaps"].append(max(b - a for a, b in zip(times, times[1:])))
            out["first"].append(times[1] - kill_time if len(times) > 2 else float("inf"))
            # the same before the fault, from 2 s into the run: what the machine's load alone costs
            began = started_wall + 2.0
            times = [began] + sorted(t for t in pair.moves_after if began <= t < kill_time) + [kill_time]
            out["before"].append(max(b - a for a, b in zip(times, times[1:])))
    for c in connections:
        await c.close()
    return out


def _worker(args: tuple) -> dict:
    logging.getLogger("nats").setLevel(logging.CRITICAL)  # a killed node's reconnections: counted, not printed
    urls, rooms, seconds, seed, sync, conns, heartbeat, deadline = args
    return asyncio.run(asyncio.wait_for(_worker_main(urls, rooms, seconds, seed, sync, conns, heartbeat), deadline))


def _percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return float("nan")


def cpu_wait_seconds(pid: int) -> float:
    """How long the threads of process ``pid`` have waited, runnable, for a CPU (Linux's
    schedstat, summed over threads; NaN where there is none): a busy machine shows here."""
    total = 0.0
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[1]) / 1e9
            except (OSError, IndexError, ValueError):
                pass
    except OSError:
        return float("nan")
    return total


def run(urls: list[str], rooms: int, seconds: float, procs: int, seed: int, servers: list[Relay], heartbeat: float,
        kill_at: float | None = None, kill: Relay | None = None, graceful: bool = False) -> dict:
    """Play ``rooms`` rooms for ``seconds`` over ``procs`` processes; with ``kill_at``, ``kill``
    the node that many seconds into the run (SIGKILL; ``graceful``: lame-duck mode, SIGUSR2)."""
    share = [rooms // procs + (1 if i < rooms % procs else 0) for i in range(procs)]
    deadline = seconds + 600
    sync = Path(tempfile.mkdtemp(prefix="yinsh-bench-live-sync-"))
    jobs = [(urls, n, seconds, seed + i, sync, 4, heartbeat, deadline) for i, n in enumerate(share) if n]
    with multiprocessing.get_context("spawn").Pool(len(jobs)) as pool:
        pending = pool.map_async(_worker, jobs)
        while not pending.ready() and len(list(sync.glob("ready-*"))) < len(jobs):
            time.sleep(0.1)
        (sync / "go").touch()
        cpu_before = [_cpu_seconds(s.process.pid) for s in servers if s.process]
        if kill_at is not None and kill is not None:
            time.sleep(kill_at)
            (sync / "killed").write_text(repr(time.time()))
            if graceful:
                kill.lame_duck(wait=False)  # it exits once its clients are gone, 30 s later
                print(f"  {kill.name} put in lame-duck mode {kill_at:.0f} s into the run", flush=True)
            else:
                kill.kill()
                print(f"  {kill.name} killed {kill_at:.0f} s into the run", flush=True)
        results = pending.get(deadline + 60)
    shutil.rmtree(sync, ignore_errors=True)
    cpu_after = [_cpu_seconds(s.process.pid) for s in servers if s.process]
    merged: dict = {"rooms": 0, "failed_setup": 0, "latencies": [], "moves": 0, "lost": 0, "doubled": 0,
                    "errors": 0, "retries": 0, "resends": 0, "disagree": 0, "gaps": [], "first": [], "before": [],
                    "set_up": 0.0,
                    "why": {}, "client_cpu": 0.0}
    for r in results:
        for key in ("rooms", "failed_setup", "moves", "lost", "doubled", "errors", "retries", "resends",
                    "disagree"):
            merged[key] += r[key]
        merged["latencies"] += r["latencies"]
        merged["gaps"] += r["gaps"]
        merged["first"] += r["first"]
        merged["before"] += r["before"]
        merged["set_up"] = max(merged["set_up"], r["set_up"])
        merged["client_cpu"] += r["client_cpu"]
        for why, n in r["why"].items():
            merged["why"][why] = merged["why"].get(why, 0) + n
    merged["server_cpu"] = sum(after - before for before, after in zip(cpu_before, cpu_after))
    return merged


def report(title: str, r: dict, seconds: float) -> None:
    lat = [x * 1000 for x in r["latencies"]]
    print(f"\n{title}")
    print(f"  rooms playing          {r['rooms']:,} ({r['failed_setup']} failed to set up; set-up {r['set_up']:.1f} s)")
    for why, n in sorted(r["why"].items()):
        print(f"  set-up failed          {n} × {why}")
    print(f"  moves                  {r['moves']:,} in {seconds:.0f} s ({r['moves'] / seconds:,.0f}/s; "
          f"target {r['rooms']:,}/s)")
    print(f"  latency, ms            p50 {_percentile(lat, 50):.1f}  p95 {_percentile(lat, 95):.1f}  "
          f"p99 {_percentile(lat, 99):.1f}  max {max(lat) if lat else float('nan'):.1f}")
    print(f"  lost / doubled         {r['lost']} / {r['doubled']}   (rooms whose players disagree: {r['disagree']})")
    print(f"  refused, sent again    {r['retries']} (expected sequence), {r['resends']} (no answer); "
          f"moves that failed {r['errors']}")
    print(f"  CPU over the run       relay {r['server_cpu']:.1f} s, players {r['client_cpu']:.1f} s "
          f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    if r["gaps"]:
        gaps, first = sorted(r["gaps"]), sorted(r["first"])
        print(f"  after the fault        every game moved again within {first[-1]:.2f} s "
              f"(p50 {_percentile(first, 50):.2f} s, p95 {_percentile(first, 95):.2f} s); the longest pause "
              f"of a game until the end: {gaps[-1]:.2f} s (p50 {_percentile(gaps, 50):.2f} s, "
              f"p95 {_percentile(gaps, 95):.2f} s; 1 s a move)")
        before = sorted(r["before"])
        print(f"  before the fault       the longest pause of a game: {before[-1]:.2f} s (p50 "
              f"{_percentile(before, 50):.2f} s, p95 {_percentile(before, 95):.2f} s: the machine's load alone)")


async def _prepare(url: str, replicas: int) -> None:
    nc = await connect(url)
    await ensure_stream(nc, replicas)
    await nc.close()


def _lean_worker(args: tuple) -> dict:
    from live_load import worker_main

    logging.getLogger("nats").setLevel(logging.CRITICAL)
    url, rooms, seconds, seed, sync, conns, deadline, mode = args
    return asyncio.run(asyncio.wait_for(worker_main(url, rooms, seconds, seed, sync, conns, mode), deadline))


def run_lean(url: str, rooms: int, seconds: float, procs: int, seed: int, relay: Relay, connections: int,
             mode: Mode) -> dict:
    """Play ``rooms`` rooms for ``seconds`` with the lean generator (scripts/live_load.py) over
    ``procs`` processes, which prepare their games and messages before the clock starts; the
    relay's CPU is measured over those ``seconds``, from the moment every room starts."""
    share = [rooms // procs + (1 if i < rooms % procs else 0) for i in range(procs)]
    deadline = seconds + 900
    sync = Path(tempfile.mkdtemp(prefix="yinsh-bench-live-sync-"))
    jobs = [(url, n, seconds, seed + i, sync, connections, deadline, mode) for i, n in enumerate(share) if n]
    with multiprocessing.get_context("spawn").Pool(len(jobs)) as pool:
        pending = pool.map_async(_lean_worker, jobs)
        while not pending.ready() and len(list(sync.glob("ready-*"))) < len(jobs):
            time.sleep(0.1)
        pid = relay.process.pid if relay.process else -1
        cpu_before, wait_before = _cpu_seconds(pid), cpu_wait_seconds(pid)
        wall = time.perf_counter()
        (sync / "go").touch()
        time.sleep(seconds)
        cpu_after, wait_after = _cpu_seconds(pid), cpu_wait_seconds(pid)
        wall = time.perf_counter() - wall
        results = pending.get(deadline + 60)
    shutil.rmtree(sync, ignore_errors=True)
    merged: dict = {"latencies": [], "why": {}, "procs": [], "proc_waits": []}
    for r in results:
        for key, value in r.items():
            if isinstance(value, (int, float)) and key not in ("set_up", "prepare"):
                merged[key] = merged.get(key, 0) + value
        merged["latencies"] += r["latencies"]
        merged["set_up"] = max(merged.get("set_up", 0.0), r["set_up"])
        merged["prepare"] = max(merged.get("prepare", 0.0), r["prepare"])
        merged["procs"].append(r["client_cpu"] / r["client_wall"])
        merged["proc_waits"].append(r["client_wait"] / r["client_wall"])
        for why, n in r["why"].items():
            merged["why"][why] = merged["why"].get(why, 0) + n
    merged["server_cpu"] = cpu_after - cpu_before
    merged["server_wait"] = wait_after - wait_before
    merged["server_wall"] = wall
    merged["ms"] = 1000 * merged["server_cpu"] / merged["messages"] if merged.get("messages") else float("nan")
    merged["load"] = os.getloadavg()[0]
    return merged


def report_lean(r: dict, seconds: float) -> None:
    """One run's figures: the rooms, the moves and their latency, what was lost, the CPU."""
    lat = [x * 1000 for x in r["latencies"]]
    rate = r["messages"] / seconds
    print(f"  rooms playing          {r['rooms']:,} ({r['failed_setup']} failed to set up; games and messages "
          f"prepared in {r['prepare']:.1f} s, rooms set up in {r['set_up']:.1f} s)")
    for why, n in sorted(r["why"].items()):
        print(f"  set-up failed          {n} × {why}")
    print(f"  moves                  {r['moves']:,} ({r['messages']:,} messages) in {seconds:.0f} s ({rate:,.0f}/s; "
          f"target {r['rooms']:,}/s)")
    print(f"  latency, ms            p50 {_percentile(lat, 50):.1f}  p95 {_percentile(lat, 95):.1f}  "
          f"p99 {_percentile(lat, 99):.1f}  max {max(lat) if lat else float('nan'):.1f}   ({len(lat):,} moves read)")
    met = (r["messages"] >= 0.98 * r["rooms"] * seconds and _percentile(lat, 99) <= 100 and not r["lost"]
           and not r["doubled"] and not r["failed_setup"])
    print(f"  lost / doubled         {r['lost']} / {r['doubled']} (folded bytes of no event: {r['unknown']}); "
          f"refused {r['refused']} (expected sequence), sent again {r['resends']} (no answer), failed {r['errors']}: "
          f"{'met' if met else 'NOT met'} (a move a second a room, p99 <= 100 ms, 0 lost or doubled)")
    relay = r["server_cpu"] / r["server_wall"]
    print(f"  CPU                    relay {r['server_cpu']:.2f} s = {r['ms']:.3f} ms a move ({relay:.2f} core); "
          f"generator {' + '.join(f'{p:.2f}' for p in r['procs'])} core (load average {r['load']:.1f} "
          f"on {os.cpu_count()} cores)")
    print(f"  waiting for a CPU      relay {r['server_wait'] / r['server_wall']:.2f} s a second, generator "
          f"{' + '.join(f'{w:.2f}' for w in r['proc_waits'])} s a second (runnable, not running: "
          "the machine's other work; summed over threads)")
    if r.get("pulls") or r.get("presence_sent"):
        per = max(1, r["messages"])
        print(f"  the readers, a move    {r.get('pulls', 0) / per:.2f} pulls, {r.get('heartbeats', 0) / per:.2f} idle "
              f"heartbeats, {r.get('expired', 0) / per:.2f} pulls expired; presence {r['presence_sent'] / per:.2f} "
              f"sent, {r['presence_heard'] / per:.2f} heard ({r.get('probes', 0)} stale checks, "
              f"{r.get('resets', 0)} consumers made again)")


TARGET = 1.5
"""The page-like readers' relay CPU a move, at most this many times the bare baseline's."""
BASELINE = Mode("baseline", bare=True)
PUSH = Mode("protocol, push readers")


def _modes(args: argparse.Namespace) -> tuple[list[Mode], list[tuple[Mode, str]]]:
    """The runs of each round, and the breakdown's: each a step from the page-like readers
    towards push readers, with what it leaves out."""
    page = Mode("protocol, page-like readers", reader="pull", presence=args.presence)
    chain = [
        (page, f"pulls as pages make them (100 messages, open until they came or 30 s passed, an idle "
               f"heartbeat every 15 s, an inbox subscription each), presence every {args.presence:g} s"),
        (Mode("no presence", reader="pull"), "the same without presence (no beats, no presence subscriptions)"),
        (Mode("no idle heartbeat", reader="pull", heartbeat=0), "and the pulls ask for no idle heartbeat"),
        (Mode("one inbox a connection", reader="pull", heartbeat=0, inbox="shared"),
         "and no subscription made and removed a pull: one inbox subscription a connection for its readers"),
        (PUSH, "push readers (a push consumer each, ack none, delivering to a subscription of the connection)"),
    ]
    before = Mode("pulls as pending (before)", reader="pull", presence=args.presence, expires=2.0, by_pending=True)
    chain.insert(0, (before, f"the page's reader before: each pull as many as the last message said were pending "
                             f"(1-100, so a pull a message), expiring after 2 s, an idle heartbeat every 1 s; "
                             f"presence every {args.presence:g} s"))
    return [BASELINE, PUSH, page], chain


async def _prepare_lean(url: str, mode: Mode) -> None:
    nc = await connect(url)
    if mode.bare:
        await ensure_bare_stream(nc)
    else:
        await ensure_stream(nc, 1)
    await nc.close()


def _measure(args: argparse.Namespace, tmp: Path, mode: Mode, rooms: int, seed: int, label: str) -> dict | None:
    """One run on its own fresh relay (an empty store, no consumer left by another run)."""
    store = tmp / label
    relay = Relay(store, port=free_port()).start()
    try:
        asyncio.run(_prepare_lean(relay.url, mode))
        return run_lean(relay.url, rooms, args.seconds, args.procs, seed, relay, args.connections, mode)
    except Exception as exc:  # a run that fails says so and the others go on
        print(f"  the run failed: {type(exc).__name__}: {exc}"[:300], flush=True)
        return None
    finally:
        relay.stop()
        shutil.rmtree(store, ignore_errors=True)


Results = dict[tuple[int, str], list[dict | None]]
"""(rooms, mode) → each round's figures (``None``: the run failed)."""


def _rounds(args: argparse.Namespace, tmp: Path, modes: list[Mode], sizes: list[int], what: str,
            notes: dict[str, str]) -> Results:
    """``args.rounds`` rounds, each running every mode at every size once; the modes' order turns
    by one each round, so the machine's other load falls on each mode alike."""
    results: Results = {(n, m.name): [] for n in sizes for m in modes}
    for round_ in range(args.rounds):
        for rooms in sizes:
            turn = round_ % len(modes)
            for mode in modes[turn:] + modes[:turn]:
                print(f"\n{what}, round {round_ + 1}/{args.rounds}, {rooms:,} rooms, {args.seconds:.0f} s: {mode.name}"
                      f" ({notes.get(mode.name, '')}; load average {os.getloadavg()[0]:.1f})", flush=True)
                r = _measure(args, tmp, mode, rooms, args.seed + 1000 * round_,
                             f"{what.replace(' ', '-')}-{rooms}-{round_}-{modes.index(mode)}")
                if r is not None:
                    report_lean(r, args.seconds)
                results[(rooms, mode.name)].append(r)
    return results


def _median_range(values: list[float]) -> str:
    if not values:
        return "n/a"
    return f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})"


def _summary(args: argparse.Namespace, results: Results, modes: list[Mode], rooms: int, title: str,
             steps: bool = False) -> dict[str, float]:
    """The relay's CPU a move at ``rooms`` rooms for each mode, and its ratio to the baseline
    of the same round (medians and ranges over the rounds); ``steps``: and what each line saves
    on the one above it (the median of the rounds' differences). The median ratios by mode."""
    print(f"\n{title}: {rooms:,} rooms at a move a second, {args.seconds:.0f} s a run, {args.rounds} rounds, "
          f"{args.procs} generator processes × {args.connections} connections (load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} now, on {os.cpu_count()} cores)")
    print(f"  {'':32} {'ms of relay CPU a move':>24}   {'× the baseline':>17}" + ("   saves" if steps else ""))
    medians: dict[str, float] = {}
    base = results[(rooms, BASELINE.name)]
    for i, mode in enumerate(modes):
        runs = results[(rooms, mode.name)]
        ms = [r["ms"] for r in runs if r is not None]
        ratios = [r["ms"] / b["ms"] for r, b in zip(runs, base) if r is not None and b is not None and b["ms"] > 0]
        medians[mode.name] = statistics.median(ratios) if ratios else float("nan")
        ratio = f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})" if ratios else "n/a"
        line = f"  {mode.name:32} {_median_range(ms):>24}   {ratio:>17}"
        if steps and i > 1:
            saved = [a["ms"] - r["ms"] for a, r in zip(results[(rooms, modes[i - 1].name)], runs)
                     if a is not None and r is not None]
            line += f"   {statistics.median(saved):+.3f} ms" if saved else ""
        print(line)
    return medians


def lean_rounds(args: argparse.Namespace, tmp: Path) -> None:
    """The relay's CPU a move: the bare baseline, the protocol with push readers and with
    page-like readers, interleaved over rounds; then, if the page-like readers cost more than
    :data:`TARGET` × the baseline (or ``--breakdown always``), where it goes."""
    modes, chain = _modes(args)
    page = modes[2]
    described = {mode.name: why for mode, why in chain}
    notes = {BASELINE.name: "bare JetStream: a stream, a subject a room, a publisher and two push readers a room",
             PUSH.name: "the lean players, a push consumer each", page.name: described[page.name]}
    print(f"\nthe relay's CPU a move: one nats-server ({find_server()}, file storage), a fresh one each run; "
          f"{', '.join(f'{n:,}' for n in args.rooms)} rooms, {args.seconds:.0f} s a run, {args.rounds} rounds of "
          f"{', '.join(m.name for m in modes)}", flush=True)
    results = _rounds(args, tmp, modes, args.rooms, "cost a move", notes)
    over = False
    for rooms in args.rooms:
        ratios = _summary(args, results, modes, rooms, "the relay's CPU a move (CPU seconds of nats-server ÷ moves)")
        met = ratios[page.name] <= TARGET
        over = over or not met
        print(f"  target: page-like readers ≤ {TARGET:g} × the baseline: {'met' if met else 'NOT met'} "
              f"({ratios[page.name]:.2f} ×; push readers {ratios[PUSH.name]:.2f} ×)")
    if args.breakdown == "never" or (args.breakdown == "auto" and not over):
        return
    rooms = args.breakdown_rooms or max(args.rooms)
    steps = [mode for mode, _ in chain]
    print(f"\nwhere the page-like readers' cost goes: {rooms:,} rooms, {args.rounds} rounds of the baseline, "
          "the page's reader before, and each step from the page-like readers to push readers:")
    for mode, why in chain:
        print(f"  {mode.name:32} {why}")
    breakdown = _rounds(args, tmp, [BASELINE] + steps, [rooms], "breakdown",
                        notes | described)
    _summary(args, breakdown, [BASELINE] + steps, rooms, "where the page-like readers' cost goes", steps=True)


def single(args: argparse.Namespace, tmp: Path) -> None:
    """One relay: the lean players' rounds (:func:`lean_rounds`), or one run a size of the
    checked players."""
    if args.players == "lean":
        lean_rounds(args, tmp)
        return
    for rooms in args.rooms:
        relay = Relay(tmp / f"single{rooms}", port=free_port()).start()
        try:
            asyncio.run(_prepare(relay.url, 1))
            print(f"\none nats-server ({relay.binary.name}, file storage), {rooms:,} rooms, {args.seconds:.0f} s, "
                  f"{args.procs} client processes, checked players (yinsh.live.client), "
                  + (f"ordered consumers (heartbeat {args.heartbeat:g} s)" if args.heartbeat
                     else "plain push consumers"), flush=True)
            r = run([relay.url], rooms, args.seconds, args.procs, args.seed, [relay], args.heartbeat)
            report(f"one relay: {rooms:,} rooms", r, args.seconds)
        finally:
            relay.stop()


def cluster(args: argparse.Namespace, tmp: Path, fault: str) -> None:
    victim_role = "leader" if fault.startswith("leader") else "follower"
    graceful = fault.endswith("-ldm")
    ports = [free_port() for _ in range(3)]
    nodes = [Relay(tmp / f"{fault}{i}", name=f"node{i}", cluster_port=ports[i],
                   routes=[p for j, p in enumerate(ports) if j != i]) for i in range(3)]
    try:
        for node in nodes:
            node.start(wait=False)
        for node in nodes:
            node.wait_ready(60, jetstream=False)
        asyncio.run(_prepare(nodes[0].url, 3))
        leader = asyncio.run(_leader(nodes[0].url))
        meta = _meta_leader(nodes[0])
        if victim_role == "leader":
            victim = next((n for n in nodes if n.name == leader), nodes[0])
        else:  # a replica only: not the meta leader either (making consumers waits for it)
            victim = next((n for n in nodes if n.name not in (leader, meta)),
                          next(n for n in nodes if n.name != leader))
        if victim.name == meta:
            victim_role += " and the cluster's meta leader"
        print(f"\nthree nats-servers, the stream replicated on all three (R3), {args.cluster_rooms:,} rooms, "
              f"{max(args.seconds, 40.0) if graceful else args.seconds:.0f} s; a node "
              f"{'put in lame-duck mode 5 s into the run' if graceful else 'killed mid-run'}: "
              f"{victim.name}, the stream's {victim_role} "
              f"(a third of the players are connected to it); consumers' heartbeat {args.cluster_heartbeat:g} s",
              flush=True)
        # lame-duck mode closes the node's clients over 30 s after a 1 s grace: the run lasts until then
        kill_at = 5.0 if graceful else args.seconds / 2
        seconds = max(args.seconds, 40.0) if graceful else args.seconds
        r = run([n.url for n in nodes], args.cluster_rooms, seconds, args.procs, args.seed + 100, nodes,
                args.cluster_heartbeat, kill_at=kill_at, kill=victim, graceful=graceful)
        report(f"cluster: {args.cluster_rooms:,} rooms, {victim.name} (the stream's {victim_role}) "
               + ("stopped in lame-duck mode" if graceful else "killed"), r, seconds)
    finally:
        for node in nodes:
            node.stop()


def _meta_leader(node: Relay) -> str | None:
    """The node leading the cluster's JetStream meta group (which makes every consumer)."""
    import json
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{node.http_port}/jsz", timeout=5) as answer:
            return json.load(answer).get("meta_cluster", {}).get("leader")
    except (OSError, ValueError):
        return None


async def _leader(url: str) -> str | None:
    nc = await connect(url)
    info = await nc.jetstream().stream_info(STREAM)
    await nc.close()
    return info.cluster.leader if info.cluster else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, nargs="+", default=[500],
                        help="rooms on one relay, each size run in every round (default 500; e.g. --rooms 200 500)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="lean players: rounds, each running the baseline, push readers and page-like readers "
                             "once at every size, on a fresh relay each (default 3)")
    parser.add_argument("--presence", type=float, default=PRESENCE_SECONDS,
                        help="page-like readers: seconds between a page's presence beats "
                             f"(default {PRESENCE_SECONDS:g}, the page's)")
    parser.add_argument("--breakdown", choices=("auto", "always", "never"), default="auto",
                        help="where the page-like readers' cost goes, step by step towards push readers: run when they "
                             f"cost more than {TARGET:g} × the baseline (auto, the default), always or never")
    parser.add_argument("--breakdown-rooms", type=int, default=0,
                        help="rooms for the breakdown (default: the largest of --rooms)")
    parser.add_argument("--players", choices=("lean", "checked"), default="lean",
                        help="on one relay: lean players (scripts/live_load.py: games and signed messages prepared "
                             "before the run, each reader checks the bytes it folds against the room's script; "
                             "the default) or checked players (yinsh.live.client: rules and signatures checked "
                             "per move, as pages do; the generator then needs several times the relay's CPU)")
    parser.add_argument("--connections", type=int, default=4,
                        help="lean players: connections per process (default 4), shared by its players")
    parser.add_argument("--cluster-rooms", type=int, default=300, help="rooms on the cluster (default 300)")
    parser.add_argument("--seconds", type=float, default=30, help="how long the rooms play (default 30)")
    parser.add_argument("--procs", "--processes", type=int, default=os.cpu_count() or 2,
                        help="generator processes (default: one per core; on a machine with more cores, more)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--heartbeat", type=float, default=5.0,
                        help="on one relay: the players' ordered consumers' idle heartbeat, s (default 5, nats-py's); "
                             "0: plain push consumers, no timers in the load generator")
    parser.add_argument("--cluster-heartbeat", type=float, default=0.5,
                        help="on the cluster, s (default 0.5): the ordered consumers' idle heartbeat; two missed "
                             "(its node died) and a consumer is made again on a live node")
    parser.add_argument("--skip-single", action="store_true")
    parser.add_argument("--skip-cluster", action="store_true")
    parser.add_argument("--skip-page", action="store_true",
                        help="skip the page's figures (scripts/bench_live_page.py: Chromium, two pages in a room)")
    parser.add_argument("--kill", nargs="+", choices=("follower", "leader", "leader-ldm"),
                        default=["follower", "leader", "leader-ldm"],
                        help="the cluster's faults, one run each: a node holding a replica killed (SIGKILL), the "
                             "stream's leader killed (its followers wait out nats-server's election timeout, 4-9 s, "
                             "before one takes over), the leader stopped as a planned restart should be "
                             "(lame-duck mode, SIGUSR2: it hands its leadership over first)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="yinsh-bench-live-") as tmp:
        if not args.skip_page:
            from bench_live_page import page_figures

            page_figures(tmp=Path(tmp))
        if not args.skip_single:
            single(args, Path(tmp))
        if not args.skip_cluster:
            for role in args.kill:
                cluster(args, Path(tmp), role)


if __name__ == "__main__":
    main()
