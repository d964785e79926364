"""A live room's connection to its relay, from the page: reading, sending and presence over nats.ws.

Loaded on demand, when a room opens, with the seat's key and the relay calls of
``static/js/live.js``. It does what the reference transport :mod:`yinsh.live.client` does, from
MicroPython:

1. **Reads** the room from the stream :data:`~yinsh.live.protocol.STREAM` by an ordered consumer
   (never a core subscription: it also sees publishes the stream refused), through pulls of
   :data:`PULL_BATCH` messages that stay open until they came or :data:`PULL_EXPIRES_MS` passed
   (one request to the relay for many messages, not one a message), the messages taken from
   JavaScript as they arrive, all that came meanwhile in one answer, their signatures checked
   together — each message decoded
   (:func:`~yinsh.live.protocol.decode`), verified with WebCrypto's Ed25519 and folded
   (:meth:`~yinsh.live.room.Room.apply`, where the rules core checks every move). The room is
   folded as a prefix of the stream: a consumer starts at the message after the last one folded
   (:attr:`~yinsh.live.room.Room.seq`), and is made again after any failure and after every
   reconnect (a pull sent on a connection that was lost may have had its messages delivered to
   it: gone, though the relay counts them delivered; a request sent on it is never answered, so
   a reconnect ends the reading and the requests under way at once rather than after their
   timeouts).
2. **Nothing lost, whatever the cause**: the reader asks the stream for the room's last stored
   sequence after every reconnect, after every :data:`~yinsh.live.room.QUIET_CHECK_MS` without a
   message, and at once when another page's presence says it has read further; if the room is
   behind (:meth:`~yinsh.live.room.Room.behind`), it reads again from its last sequence.
3. **Sends** what the person here does, signed with the seat's key and guarded by the game
   subject's expected last sequence; a refusal ("wrong last sequence") waits for what was stored
   meanwhile and drafts again (two moves for one turn: one is kept); a publish without an answer
   goes again with the same ``Nats-Msg-Id`` (stored once), for as long as the page keeps trying
   while connected.
4. **Presence**: ``who`` on arriving and after every reconnect (every page answers ``here`` at
   once), ``here`` every :data:`~yinsh.live.room.HEARTBEAT_MS`, ``gone`` when the page closes.
   The connection asks for no echo: the page notes its own beats itself, so a beat costs the
   relay a delivery to each other page, none back to its sender.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ..compat import now_ms
from ..live.protocol import (
    MAX_MESSAGE_BYTES,
    STREAM,
    BadMessage,
    Message,
    chat_subject,
    decode,
    game_subject,
    presence_subject,
    room_filter,
    stream_config,
    subject_kind,
)
from ..live.room import HEARTBEAT_MS, QUIET_CHECK_MS, SEND_MS, LiveError, Room
from ..page.live import RelayClock
from .dom import create_proxy, is_none, to_js, warn, window

__all__ = ["Relay", "NATS_URL", "HELPER_URL", "PULL_BATCH", "SEND_SECONDS"]

NATS_URL = "./static/vendor/nats/nats.js"
HELPER_URL = "./static/js/live.js"
PULL_EXPIRES_MS = 30_000
"""How long a pull waits for its messages before the reader pulls again (a quiet room costs the
relay one request this often a page, and an idle heartbeat at half of it)."""
PULL_BATCH = 100
"""The messages a pull asks for: a pull stays open until this many came (or it expired)."""
TAKE_WAIT_MS = 1000
"""How long the reader waits for a message before it looks whether the stream should be asked
(a quiet spell); a reconnect or another page's hint ends the wait at once."""
SEND_SECONDS = SEND_MS / 1000
"""How long, connected, an event is tried before the page says the relay does not answer."""
UNGUARDED_AFTER = 3
"""Refusals in a row caused by junk alone before an event goes without the sequence guard."""
HINT_GRACE_MS = 500
"""How long a page that hears another has read further waits for its own reader before it asks
the stream (the message is usually on its way)."""
HINT_CHECK_MS = 1000
"""The least time between two checks asked by other pages' presence (a hostile page's beats
cannot make this page question the relay more often)."""


def _import(url: str):
    """A JavaScript module by its URL relative to the page (``import()`` in the interpreter's
    own module would resolve against the interpreter's URL)."""
    return window.eval(f"import(new URL('{url}', document.baseURI).href)")


class Relay:
    """The relay at ``address`` as this page reads and writes the room ``room``. ``scripts``: the
    URL each of :data:`HELPER_URL` and :data:`NATS_URL` is loaded from (the built site's are
    versioned). ``changed()`` is called whenever what the page shows may have changed: the room,
    the connection, who is here.

    :attr:`connection` is one of :data:`yinsh.page.live.CONNECTIONS`; :attr:`read_all` is whether
    everything the relay stored of the room has been folded once (a room still ``new`` then does
    not exist)."""

    def __init__(self, room: Room, address: str, scripts: dict[str, str], changed) -> None:  # type: ignore[no-untyped-def]
        self.room = room
        self.address = address
        self.scripts = scripts
        self.changed = changed
        self.connection = "connecting"
        self.read_all = False
        self.closed = False
        self.key = ""
        self.key_kept = True
        """Whether the browser keeps the seat's key (storage may be off: a reload is then a watcher)."""
        self.helper: Any = None  # static/js/live.js
        self.nc: Any = None  # the nats.ws connection
        self.jetstream: Any = None
        self.manager: Any = None  # the JetStream manager (the stream's info, its last message)
        self.reconnects = 0
        self.connected_at: int | None = None
        """When the connection opened, or last came back (the page's clock)."""
        self.rereads = 0
        """How many times a check found the room behind the stream and read it again."""
        self._reconnected = asyncio.Event()  # ends the reader's pause between two tries
        self._check_soon = False  # another page's presence said it read further
        self._hinted = 0  # the furthest sequence another page said it read
        self._checked_at = 0
        self._stored = -1  # the room's last stored sequence, as the first check said
        self._answered_at = 0
        self._present: list[str] = []  # who the page last showed as here
        self._clock = 0  # presence's clock: it must grow
        self._turn_since: int | None = None  # when the turn came to this seat (the page's clock)
        self.relay_clock = RelayClock()
        """The relay's clock as this page estimates it from the stored times of what it read."""
        self._gone: str | None = None  # the signed ``gone`` sent when the page closes

    # ------------------------------------------------------------------ opening

    async def open_key(self) -> str:
        """Load the helper and the seat's key: ``""``, or the line saying why live play cannot be here."""
        try:
            self.helper = await _import(self.scripts.get(HELPER_URL, HELPER_URL))
            seat = await self.helper.seatKey()
        except Exception as exc:
            warn("no Ed25519 key", exc)
            return "This browser cannot sign moves (no Ed25519 in WebCrypto): live play is unavailable here."
        self.key = str(seat.public)
        self.key_kept = bool(seat.stored)
        return ""

    async def connect(self) -> str:
        """Connect to the relay and start reading and presence: ``""``, or the line saying why not."""
        try:
            nats = await _import(self.scripts.get(NATS_URL, NATS_URL))
            self.nc = await self.helper.connect(nats, to_js({
                "servers": self.address, "maxReconnectAttempts": -1, "reconnectTimeWait": 250,
                "reconnectJitter": 100, "reconnectJitterTLS": 100,
                "pingInterval": 2000, "maxPingOut": 2, "timeout": 4000,
                "noEcho": True}), create_proxy(self._status))  # its own beats are noted here, not sent back
            self.jetstream = self.nc.jetstream()
            self.manager = await self.nc.jetstreamManager()
        except Exception as exc:
            warn(f"no relay at {self.address}: {exc}")
            return f"No relay answers at {self.address}: live play is unavailable; everything else works."
        await self._ensure_stream()
        self.connection = "open"
        self.connected_at = now_ms()
        self.nc.subscribe(presence_subject(self.room.name), to_js({"callback": create_proxy(self._heard)}))
        window.addEventListener("pagehide", create_proxy(lambda event: self.say_gone()))
        self.task(self._read())
        self.task(self._presence())
        self._announce("who")
        return ""

    def task(self, coroutine) -> None:  # type: ignore[no-untyped-def]
        """Run ``coroutine`` in the background; a bug in it is a warning, never a traceback."""
        async def guarded():  # type: ignore[no-untyped-def]
            try:
                await coroutine
            except Exception as exc:
                warn("the live room failed", exc)
        asyncio.create_task(guarded())

    async def _ensure_stream(self) -> None:
        """Create the rooms' stream where the relay lets a page (a local relay); a locked-down
        relay has it already and refuses: nothing to do then."""
        try:
            try:
                await self.manager.streams.info(STREAM)
            except Exception:
                config = stream_config()
                config["max_age"] = float(config["max_age"]) * 1e9  # the JetStream API counts nanoseconds
                config["duplicate_window"] = float(config["duplicate_window"]) * 1e9
                await self.manager.streams.add(to_js(config))
        except Exception as exc:
            warn("the rooms' stream could not be checked", exc)

    def say_gone(self) -> None:
        """The page is closing: ``gone``, signed at the last beat, sent at once."""
        if self._gone is not None and self.connection == "open" and not self.closed:
            self._publish_presence(self._gone)

    def close(self) -> None:
        """The page leaves the room: ``gone``, and reading stops."""
        self.say_gone()
        self.closed = True

    # ------------------------------------------------------------------ the connection

    def _status(self, kind) -> None:  # type: ignore[no-untyped-def]
        """nats.ws says the connection changed (``disconnect``, ``reconnecting``, ``reconnect``, …)."""
        kind = str(kind)
        if kind in ("reconnect", "online"):  # online: the network back, the connection kept
            self.reconnects += 1  # the reader makes its consumer again and checks
            self._reconnected.set()
            if kind == "reconnect":
                self.connected_at = now_ms()
                self._set_connection("open")
            self._announce("who")
        elif kind in ("disconnect", "reconnecting", "staleConnection"):
            self._set_connection("reconnecting")
        elif kind == "closed" and not self.closed:
            self._set_connection("reconnecting")

    def _set_connection(self, state: str) -> None:
        if state != self.connection:
            self.connection = state
            self.changed()

    def connected(self) -> bool:
        return self.nc is not None and bool(self.nc.protocol.connected) and not bool(self.nc.isClosed())

    # ------------------------------------------------------------------ reading

    async def _read(self) -> None:
        """Fold the room's messages in the stream's order, for as long as the page is open (see
        the module's docstring: the consumer made again after any failure and every reconnect,
        the stream asked after every reconnect, quiet spell or hint). The page is drawn once a batch."""
        reader = None
        reconnects = self.reconnects
        check_due = True  # at once: whether the room exists, and where the stream ends
        quiet_since = now_ms()
        while not self.closed:
            if self.reconnects != reconnects:
                reconnects = self.reconnects
                self._drop(reader)
                reader = None
                check_due = True
            if check_due or self._check_soon or now_ms() - quiet_since >= QUIET_CHECK_MS:
                if self.connection == "open":
                    check_due = self._check_soon = False
                    quiet_since = now_ms()
                    try:
                        if await self._behind() and reader is not None:
                            self.rereads += 1
                            self._drop(reader)
                            reader = None
                    except Exception:  # the relay not answering yet: the next round asks again
                        check_due = True
                if self.reconnects != reconnects:  # one came while checking: start again from the top
                    continue
            try:
                if reader is None:
                    reader = await self.helper.read(self.jetstream, STREAM, to_js({
                        "filterSubjects": [room_filter(self.room.name)], "opt_start_seq": self.room.seq + 1}),
                        PULL_BATCH, PULL_EXPIRES_MS)
                msgs = await self.helper.take(reader, TAKE_WAIT_MS)
            except Exception:  # the relay gone or restarted: a new consumer from the last sequence folded
                self._drop(reader)
                reader = None
                if self.reconnects == reconnects:  # a reconnect ended it: read again at once
                    await self._pause(0.5)
                continue
            count = int(msgs.length)
            if count == 0:  # nothing came meanwhile (or a hint woke the reader)
                continue
            quiet_since = now_ms()
            try:
                changed = await self._fold([msgs[i] for i in range(count)])
            except Exception as exc:  # nothing was folded past the failure: read again from there
                warn("messages could not be read", exc)
                self._drop(reader)
                reader = None
                continue
            was = self.read_all
            self._read_all()
            if changed or self.read_all != was:
                self.changed()

    async def _pause(self, seconds: float) -> None:
        """Wait ``seconds`` before trying the relay again, or less: a reconnect ends the wait."""
        self._reconnected.clear()
        try:
            await asyncio.wait_for(self._reconnected.wait(), seconds)
        except asyncio.TimeoutError:  # noqa: UP041 (MicroPython's asyncio has its own, not the builtin)
            pass

    def _read_all(self) -> None:
        if not self.read_all and self._stored >= 0 and not self.room.behind(self._stored):
            self.read_all = True

    def _drop(self, reader) -> None:  # type: ignore[no-untyped-def]
        """Stop ``reader`` (its consumer's relay side deleted, best effort)."""
        if reader is not None:
            self.helper.stopReading(reader, self.manager, STREAM)

    async def _behind(self) -> bool:
        """Ask the stream for the room's last stored sequence: whether the room is behind it (then
        read again). The first answer also tells when everything stored has been read once."""
        self._checked_at = now_ms()
        last = int(await self.helper.lastStored(self.manager, STREAM, room_filter(self.room.name)))
        if self._stored < 0:
            self._stored = last
            self._read_all()
            if self.read_all:
                self.changed()
        return self.room.behind(last)

    async def _fold(self, msgs: list) -> bool:
        """Fold stored messages, in order; whether the room changed (an event or a chat line
        counted, or a message ignored: the panel counts them). Their signatures are checked
        together, one crossing to JavaScript a batch."""
        read: list[tuple[int, str, int, Message | str]] = []  # (sequence, kind, time, message or why junk)
        last = self.room.seq
        for msg in msgs:
            seq = int(msg.seq)
            if seq <= last:  # delivered again (a consumer made again from an earlier sequence)
                continue
            last = seq
            kind = subject_kind(self.room.name, str(msg.subject)) or "other"
            data = msg.data
            if kind == "other":
                read.append((seq, kind, 0, "subject"))
            elif int(data.length) > MAX_MESSAGE_BYTES:
                read.append((seq, kind, 0, "oversized"))
            else:
                try:
                    message = decode(str(self.helper.text(data)).encode("utf-8"))
                    read.append((seq, kind, int(str(self.helper.storedMs(msg))), message))
                except BadMessage as exc:
                    read.append((seq, kind, 0, exc.reason))
        received = now_ms()
        for _, _, time_ms, _ in read:
            if time_ms:
                self.relay_clock.note(time_ms, received)
        checks = []
        for _, _, _, item in read:
            if not isinstance(item, str):
                checks.append([item.key, item.signature, item.text(self.room.name).decode("utf-8")])
        verdicts: Any = await self.helper.verifyAll(to_js(checks)) if checks else None
        ignored = sum(self.room.ignored.values())
        changed = False
        i = 0
        for seq, kind, time_ms, item in read:
            if isinstance(item, str):
                self.room.junk(kind, seq, item)
                continue
            verified = bool(verdicts[i])
            i += 1
            changed = self.room.apply(kind, seq, time_ms, item, verified) is not None or changed
        if self.room.to_move_key() != self.key:
            self._turn_since = None
        elif self._turn_since is None:
            self._turn_since = now_ms()
        return changed or sum(self.room.ignored.values()) != ignored

    def thought_ms(self) -> int:
        """How long since the turn came to this seat on this page: what a move made now says
        its player thought (the clocks allow the rest of the turn for the network's delay)."""
        return 0 if self._turn_since is None else max(0, now_ms() - self._turn_since)

    async def until(self, done, seconds: float) -> bool:  # type: ignore[no-untyped-def]
        """Wait until ``done()`` holds (the reader folds meanwhile); whether it did in time."""
        deadline = now_ms() + seconds * 1000
        while not done():
            if now_ms() > deadline:
                return False
            await asyncio.sleep(0.02)
        return True

    # ------------------------------------------------------------------ sending

    async def send(self, build, what: str, first=None) -> str:  # type: ignore[no-untyped-def]
        """Sign and send the event ``build(room)`` drafts, guarded by the game subject's last
        sequence; on a refusal, wait for what was stored meanwhile and draft again. ``""`` once the
        room accepted it, else why not (a sentence for the page). ``first``: an attempt already
        under way (:meth:`start_move`). Time spent disconnected does not count against
        :data:`SEND_SECONDS`: a move made offline goes when the connection is back."""
        left = SEND_SECONDS * 1000
        junk_only = 0
        while left > 0 and not self.closed:
            began = now_ms()
            if first is not None:
                expected, version, pending = first
                first = None
                answer = await pending
                seq, error = int(answer.seq), str(answer.error)
            else:
                try:
                    draft = build(self.room)
                except LiveError as exc:
                    return f"Could not {what}: {exc}."
                signature = str(await self.helper.sign(draft.text().decode("utf-8")))
                data = draft.signed(self.key, signature).decode("utf-8")
                expected = self.room.game_seq
                options: dict[str, Any] = {"msgID": signature[:40], "timeout": 3000}
                if junk_only < UNGUARDED_AFTER:
                    options["expect"] = {"lastSubjectSequence": expected}
                version = self.room.version
                try:
                    ack = await self.helper.publish(self.jetstream, game_subject(self.room.name), data,
                                                    to_js(options))
                    seq, error = int(ack.seq), ""
                except Exception as exc:
                    seq, error = 0, str(exc)
            if error:
                if "wrong last sequence" in error:  # stored meanwhile: fold it, ask the room again
                    await self.until(lambda e=expected: self.room.game_seq > e, 3.0)
                    junk_only = junk_only + 1 if self.room.version == version else 0
                elif "reconnected" not in error:  # no answer (offline, the relay restarting): the same
                    await asyncio.sleep(0.3)  # message again (stored once, by its id); at once after a reconnect
                if self.connection == "open":
                    left -= now_ms() - began
                continue
            await self.until(lambda s=seq: self.room.game_seq >= s, SEND_SECONDS)
            if seq in self.room.events:
                return ""
            return f"Could not {what}: the room did not accept it."
        return f"Could not {what}: the relay does not answer."

    def start_move(self, move: str, think_ms: int, sent):  # type: ignore[no-untyped-def]
        """The first attempt to send ``move`` (thought ``think_ms``), started now in JavaScript
        (signed, then published guarded by the last sequence folded), ``sent()`` called once it
        has left (or failed to); ``None`` when the room would not take it (:meth:`send` then
        says why; ``sent`` is not called)."""
        try:
            draft = self.room.draft_move(self.key, move, think_ms)
        except LiveError:
            return None
        head = draft.signed(self.key, "").decode("utf-8")[:-2]
        options = {"timeout": 3000, "expect": {"lastSubjectSequence": self.room.game_seq}}
        return (self.room.game_seq, self.room.version, self.helper.signAndPublish(
            self.jetstream, game_subject(self.room.name), draft.text().decode("utf-8"), head, to_js(options), sent))

    async def chat(self, draft) -> str:  # type: ignore[no-untyped-def]
        """Send a chat line (not guarded: lines interleave freely): ``""``, or why it was not sent."""
        signature = str(await self.helper.sign(draft.text().decode("utf-8")))
        try:
            data = draft.signed(self.key, signature).decode("utf-8")
            await self.jetstream.publish(chat_subject(self.room.name), data,
                                         to_js({"msgID": signature[:40], "timeout": 3000}))
        except Exception as exc:
            return f"The line was not sent: {exc}"
        return ""

    # ------------------------------------------------------------------ presence

    def _heard(self, err, msg) -> None:  # type: ignore[no-untyped-def]
        if self.helper is None or is_none(msg) or msg is None:
            return
        try:
            message = decode(str(self.helper.text(msg.data)).encode("utf-8"))
        except BadMessage:
            return

        async def check():  # type: ignore[no-untyped-def]
            verified = bool(await self.helper.verify(message.key, message.signature,
                                                     message.text(self.room.name).decode("utf-8")))
            if not self.room.presence(message, verified, now_ms()):
                return
            kind = message.kind
            if kind != "gone" and int(message.get("seq")) > max(self.room.seq, self._hinted):
                self._hinted = int(message.get("seq"))
                self.task(self._hint(self._hinted))
            if message.key == self.key:
                if kind == "gone" and not self.closed:  # another tab of this seat closed: this one is here
                    self._announce("here")
            elif kind == "who" and now_ms() - self._answered_at >= 500:  # one answer for a burst of arrivals
                self._answered_at = now_ms()
                self._announce("here")
            self._show_presence()

        self.task(check())

    async def _hint(self, seq: int) -> None:
        """Another page has read the room up to ``seq``: if this page's reader has not folded it
        soon after, ask the stream now (the reader stops waiting at once)."""
        await asyncio.sleep(HINT_GRACE_MS / 1000)
        wait = HINT_CHECK_MS - (now_ms() - self._checked_at)
        if wait > 0:
            await asyncio.sleep(wait / 1000)
        if self.room.seq < seq and not self.closed:
            self._check_soon = True
            self.helper.wakeReaders()

    def _announce(self, kind: str) -> None:
        """Say ``here`` or ``who``, signed now, with a ``gone`` signed beside it for the page's
        closing (a closing page has no time to wait for WebCrypto)."""
        if self.nc is None or self.helper is None or self.connection != "open":
            return
        self._clock = max(now_ms(), self._clock + 2)
        draft, gone = self.room.draft_presence(kind, self._clock), self.room.draft_presence("gone", self._clock + 1)

        async def run():  # type: ignore[no-untyped-def]
            signed = str(await self.helper.sign(draft.text().decode("utf-8")))  # no await in a comprehension
            signed_gone = str(await self.helper.sign(gone.text().decode("utf-8")))  # on MicroPython
            self._gone = gone.signed(self.key, signed_gone).decode("utf-8")
            data = draft.signed(self.key, signed)
            self._publish_presence(data.decode("utf-8"))
            self.room.presence(decode(data), True, now_ms())  # the relay sends it to the others only
            self._show_presence()

        self.task(run())

    def _publish_presence(self, data: str) -> None:
        try:
            self.nc.publish(presence_subject(self.room.name), data)
        except Exception:  # not connected: the next beat says it
            pass

    async def _presence(self) -> None:
        """A ``here`` every :data:`~yinsh.live.room.HEARTBEAT_MS`; every second, the connection's
        state, and the page drawn when someone's presence ran out."""
        beat_at = now_ms()
        while not self.closed:
            await asyncio.sleep(1)
            self._set_connection("open" if self.connected() else "reconnecting")
            now = now_ms()
            if self.connection == "open" and now - beat_at >= HEARTBEAT_MS:
                beat_at = now
                self._announce("here")
            self._show_presence()

    def _show_presence(self) -> None:
        """Draw the page when who is here changed (someone arrived, left or ran out; a beat of
        someone shown here already changes nothing)."""
        keys = self.room.present_keys(now_ms())
        if keys != self._present:
            self._present = keys
            self.changed()
