"""A live room in the page: the transport over nats.ws, WebCrypto's signatures and the room's panel.

Loaded on demand, when a room opens (``?live=…`` or "Play someone online"): a game at one
device never fetches this module, the room's model or the NATS client. It does what the
reference transport :mod:`yinsh.live.client` does, from MicroPython:

1. **Reads** the room from the stream :data:`~yinsh.live.protocol.STREAM` by an ordered
   consumer from its first message (never a core subscription: it also sees publishes the
   stream refused), each message checked before the model sees it: decoded
   (:func:`~yinsh.live.protocol.decode`), its signature verified with WebCrypto's Ed25519
   (``static/js/live-keys.js``), then folded (:meth:`~yinsh.live.room.Room.apply`), where the
   rules core checks every move. The session follows the room (:class:`~yinsh.page.live.Follower`).
2. **Sends** what the person here does (a move made on the board, Join, Start, Resign, Leave,
   a chat line) signed with the seat's key, guarded by the game subject's expected last
   sequence; a refusal ("wrong last sequence") waits for what was stored meanwhile and drafts
   again: two moves for one turn, one is kept.
3. **Presence**: a signed ``here`` every few seconds on the room's core subject, ``gone`` when
   the page closes; the panel shows who is connected.

A connection lost shows "Reconnecting…" (``#board[data-live=reconnecting]``); the consumer is
made again from the last sequence folded, so nothing played meanwhile is missed.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ..live.protocol import (
    MAX_MESSAGE_BYTES,
    MAX_NAME,
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
    valid_room,
)
from ..live.room import LiveError, Room
from ..page.live import Follower, RoomView, kept_notice, live_prompt, room_link, room_view
from .dom import create_proxy, document, element, is_none, load, store, to_js, warn, window

__all__ = ["LiveRoom", "valid_room", "NATS_URL", "KEYS_URL"]

NATS_URL = "./static/vendor/nats/nats.js"
KEYS_URL = "./static/js/live-keys.js"
NAME_KEY = "yinsh:live-name"
HEARTBEAT_S = 5
PULL_EXPIRES_MS = 2000
"""How long a pull waits for a message: then another (a reader lost with its node is noticed this
soon, a room that does not exist said to be so)."""
PULL_BATCH = 100
"""The most messages a pull asks for (a flood is read this many at a time)."""
SEND_SECONDS = 10.0
UNGUARDED_AFTER = 3


def _import(url: str):
    """A JavaScript module by its URL relative to the page (``import()`` in the interpreter's
    own module would resolve against the interpreter's URL)."""
    return window.eval(f"import(new URL('{url}', document.baseURI).href)")


def _now_ms() -> int:
    return int(window.Date.now())


def _get(name: str):
    return document.getElementById(name)


class LiveRoom:
    """The room ``name`` on the relay at ``relay``, shown in ``app``'s page. ``create``: the
    colour of the first seat when this page opens a new room (it then takes that seat).
    ``scripts``: the URL each of :data:`KEYS_URL` and :data:`NATS_URL` is loaded from (the
    built site's are versioned)."""

    def __init__(self, app, name: str, relay: str, relay_in_link: bool, create: str | None = None,
                 scripts: dict[str, str] | None = None) -> None:
        self.app = app
        self.scripts = scripts or {}
        self.session = app.session
        self.name = name
        self.relay = relay
        self.relay_in_link = relay_in_link
        self.create = create
        self.room = Room(name)
        self.connection = "connecting"
        self.key = ""
        self.follower: Follower | None = None
        self.keys: Any = None  # static/js/live-keys.js
        self.nc: Any = None  # the nats.ws connection
        self.jetstream: Any = None
        self.last_seq = 0  # the last stream sequence folded, either subject: where a new consumer starts
        self.busy = False  # an event being sent (Join, Start, …): its button waits
        self.message = ""
        self.shown: dict[str, object] = {}
        self.closed = False
        self.read_all = False  # everything the relay keeps of the room was read once
        self.gone: str | None = None  # the signed ``gone`` sent when the page closes
        self.link = room_link(str(window.location.origin) + str(window.location.pathname), name,
                              relay if relay_in_link else "")

    # ------------------------------------------------------------------ start

    def start(self) -> None:
        """Show the room's panel and connect (in the background)."""
        _get("live").hidden = False
        document.documentElement.setAttribute("data-live-room", self.name)
        link = _get("live-link")
        link.setAttribute("href", self.link)
        link.textContent = self.link
        name = _get("live-name")
        name.value = load(NAME_KEY) or ""
        share = document.querySelector('#live [data-action="live-share"]')
        share.hidden = not window.eval("typeof navigator.share === 'function'")
        self.keep_url()
        self._task(self._run())

    def _task(self, coroutine) -> None:
        async def guarded():
            try:
                await coroutine
            except Exception as exc:  # a bug: a warning and a line on the page, never a traceback
                warn("the live room failed", exc)
                self.message = "The live room stopped working: reload the page to reconnect."
                self.app.refresh()
        asyncio.create_task(guarded())

    async def _run(self) -> None:
        try:
            self.keys = await _import(self.scripts.get(KEYS_URL, KEYS_URL))
            seat = await self.keys.seatKey()
            self.key = str(seat.public)
            if not seat.stored:
                self.session.notice("This browser does not keep your seat's key: play on, but a reload "
                                            "would make you a watcher.")
        except Exception as exc:
            warn("no Ed25519 key", exc)
            self.fail("This browser cannot sign moves (no Ed25519 in WebCrypto): live play is unavailable here.")
            return
        self.follower = Follower(self.session, self.key)
        self.follower.follow(self.room)
        self.app.refresh()
        try:
            nats = await _import(self.scripts.get(NATS_URL, NATS_URL))
            self.nc = await nats.connect(to_js({
                "servers": self.relay, "maxReconnectAttempts": -1, "reconnectTimeWait": 500,
                "pingInterval": 2000, "maxPingOut": 2, "timeout": 4000}))
            self.jetstream = self.nc.jetstream()
        except Exception as exc:
            warn(f"no relay at {self.relay}: {exc}")
            self.fail(f"No relay answers at {self.relay}: live play is unavailable; everything else works.")
            return
        await self._ensure_stream()
        self.connection = "open"
        self.nc.subscribe(presence_subject(self.name), to_js({"callback": create_proxy(self._heard)}))
        window.addEventListener("pagehide", create_proxy(lambda event: self._announce("gone")))
        self._task(self._watch())
        self._task(self._read())
        self.app.refresh()
        if self.create is not None:
            colours = self.create
            if await self.send(lambda room: room.draft_create(self.key, colours), "open the room"):
                await self._join()

    def fail(self, line: str) -> None:
        """No room here (no relay, no Ed25519): the card says why in one line, and the page goes
        back to the game it showed, playable as before."""
        self.connection = "failed"
        self.closed = True
        self.draw()
        _get("live-state").textContent = line
        for selector in ("#live-seats", "#live-watchers", "#live .live-share", "#live-chat", "#live .live-actions"):
            document.querySelector(selector).hidden = True
        for target in (document.documentElement, _get("board")):
            target.removeAttribute("data-live")
        _get("board").removeAttribute("data-seat")
        self.app.live_failed()

    async def _ensure_stream(self) -> None:
        """Create the rooms' stream where the relay lets a page (a local relay); a locked-down
        relay has it already and refuses: nothing to do then."""
        try:
            manager = await self.nc.jetstreamManager()
            try:
                await manager.streams.info(STREAM)
            except Exception:
                config = stream_config()
                config["max_age"] = float(config["max_age"]) * 1e9  # the JetStream API counts nanoseconds
                config["duplicate_window"] = float(config["duplicate_window"]) * 1e9
                await manager.streams.add(to_js(config))
        except Exception as exc:
            warn("the rooms' stream could not be checked", exc)

    # ------------------------------------------------------------------ reading

    async def _read(self) -> None:
        """Fold the room's messages in the stream's order, for as long as the page is open.

        A batch at a time (``pull`` of the key helper): as many as the last message said were
        stored after it, up to :data:`PULL_BATCH`, their signatures checked together, so a room
        holding a flood of junk is read a few pulls and awaits, not several a message; with
        nothing stored, a pull waits for the next message. The page is drawn once a batch."""
        consumer = None
        batch = 1
        while not self.closed:
            try:
                if consumer is None:
                    consumer = await self.jetstream.consumers.get(STREAM, to_js({
                        "filterSubjects": [room_filter(self.name)], "opt_start_seq": self.last_seq + 1}))
                    batch = 1
                msgs = await self.keys.pull(consumer, batch, PULL_EXPIRES_MS)
            except Exception:  # the relay gone or restarted: a new consumer from the last sequence folded
                consumer = None
                await asyncio.sleep(0.5)
                continue
            count = int(msgs.length)
            if count == 0:  # nothing more stored: what the relay keeps is read
                batch = 1
                if not self.read_all and self.create is None:
                    self.read_all = True
                    self.app.refresh()
                continue
            batch = max(1, min(PULL_BATCH, int(msgs[count - 1].info.pending)))
            try:
                changed = await self._fold([msgs[i] for i in range(count)])
            except Exception as exc:
                warn("messages could not be read", exc)
                changed = False
            if changed:
                self.changed()

    async def _fold(self, msgs: list) -> bool:
        """Fold stored messages, in order; whether the room changed (an event or a chat line
        counted). Their signatures are checked together, one crossing to JavaScript a batch."""
        read: list[tuple[int, str, int, Message | str]] = []  # (sequence, kind, time, message or why junk)
        for msg in msgs:
            seq = int(msg.seq)
            if seq <= self.last_seq:
                continue
            self.last_seq = seq
            kind = subject_kind(self.name, str(msg.subject))
            if kind is None:
                continue
            data = msg.data
            if int(data.length) > MAX_MESSAGE_BYTES:
                read.append((seq, kind, 0, "oversized"))
                continue
            try:
                message = decode(str(self.keys.text(data)).encode("utf-8"))
            except BadMessage as exc:
                read.append((seq, kind, 0, exc.reason))
                continue
            read.append((seq, kind, int(float(msg.info.timestampNanos) / 1e6), message))
        checks = []
        for _, _, _, item in read:
            if not isinstance(item, str):
                checks.append([item.key, item.signature, item.text(self.name).decode("utf-8")])
        verdicts: Any = await self.keys.verifyAll(to_js(checks)) if checks else None
        changed = False
        i = 0
        for seq, kind, time_ms, item in read:
            if isinstance(item, str):
                self.room.junk(kind, seq, item)
                continue
            verified = bool(verdicts[i])
            i += 1
            changed = self.room.apply(kind, seq, time_ms, item, verified) is not None or changed
        return changed

    def changed(self) -> None:
        """The room changed: the session follows, the page is drawn."""
        if self.follower is not None:
            self.follower.follow(self.room)
        self.app.refresh()

    async def _until(self, done, seconds: float = SEND_SECONDS) -> bool:
        """Wait until ``done()`` holds (the reader folds meanwhile); whether it did in time."""
        deadline = _now_ms() + seconds * 1000
        while not done():
            if _now_ms() > deadline:
                return False
            await asyncio.sleep(0.02)
        return True

    # ------------------------------------------------------------------ sending

    async def send(self, build, what: str, first=None) -> bool:
        """Sign and send the event ``build(room)`` drafts, guarded by the game subject's last
        sequence; on a refusal, wait for what was stored meanwhile and draft again. Whether the
        room accepted it; if not, the message says why. ``first``: an attempt already under way
        (:meth:`_start_move`)."""
        deadline = _now_ms() + SEND_SECONDS * 1000
        junk_only = 0
        while _now_ms() < deadline and not self.closed:
            if first is not None:
                expected, version, pending = first
                first = None
                answer = await pending
                seq, error = int(answer.seq), str(answer.error)
            else:
                try:
                    draft = build(self.room)
                except LiveError as exc:
                    self.message = f"Could not {what}: {exc}."
                    return False
                signature = str(await self.keys.sign(draft.text().decode("utf-8")))
                data = draft.signed(self.key, signature).decode("utf-8")
                expected = self.room.game_seq
                options = {"msgID": signature[:40], "timeout": 3000}
                if junk_only < UNGUARDED_AFTER:
                    options["expect"] = {"lastSubjectSequence": expected}
                version = self.room.version
                try:
                    ack = await self.jetstream.publish(game_subject(self.name), data, to_js(options))
                    seq, error = int(ack.seq), ""
                except Exception as exc:
                    seq, error = 0, str(exc)
            if error:
                if "wrong last sequence" in error:  # stored meanwhile: fold it, ask the room again
                    await self._until(lambda e=expected: self.room.game_seq > e, 3.0)
                    junk_only = junk_only + 1 if self.room.version == version else 0
                else:  # no answer (the relay restarting): the same message again (stored once, by its id)
                    await asyncio.sleep(0.3)
                continue
            await self._until(lambda s=seq: self.room.game_seq >= s)
            if seq in self.room.events:
                return True
            self.message = f"Could not {what}: the room did not accept it."
            return False
        self.message = f"Could not {what}: the relay does not answer."
        return False

    def after_input(self) -> None:
        """Before the page is drawn: the session follows the room, and a move made here on
        the board goes to the relay."""
        follower = self.follower
        if follower is None:
            return
        follower.follow(self.room)
        move = follower.outgoing(self.room)
        if move is not None:
            follower.sent(move)
            self._task(self._send_move(move, self._start_move(move)))

    def _start_move(self, move: str):
        """The first attempt to send ``move``, started now in JavaScript (signed, then published
        guarded by the last sequence folded) so that it leaves while the page draws the move;
        ``None`` when the room would not take it (``send`` then says why)."""
        try:
            draft = self.room.draft_move(self.key, move)
        except LiveError:
            return None
        head = draft.signed(self.key, "").decode("utf-8")[:-2]
        options = {"timeout": 3000, "expect": {"lastSubjectSequence": self.room.game_seq}}
        return (self.room.game_seq, self.room.version, self.keys.signAndPublish(
            self.jetstream, game_subject(self.name), draft.text().decode("utf-8"), head, to_js(options)))

    async def _send_move(self, move: str, first=None) -> None:
        game = self.room.game
        ply = game.ply if game is not None else -1
        games = self.room.games

        def build(room: Room):
            if room.game is None or room.game.ply != ply or room.games != games:
                raise LiveError("the turn was played meanwhile")
            return room.draft_move(self.key, move)

        ok = await self.send(build, "play " + move, first)
        follower = self.follower
        assert follower is not None
        if ok:
            self.message = ""
        else:
            kept = self.room.game.moves[len(self.room.game.moves) - 1] if self.room.game and \
                self.room.game.ply > ply and self.room.games == games else None
            why = kept_notice(str(kept)) if kept is not None else self.message
            self.message = ""
            follower.refused(self.room, why)
        self.app.refresh()

    async def _join(self) -> None:
        name = self.player_name()
        nonce = str(self.keys.randomName(12))
        await self.send(lambda room: room.draft_join(self.key, name, nonce), "take a seat")

    def player_name(self) -> str:
        typed = str(_get("live-name").value).strip()[:MAX_NAME]
        name = typed or ("Player " + self.key[:4])
        store(NAME_KEY, typed)
        return name

    def act(self, action: str) -> None:
        """A button of the room's panel (``live-join``, ``live-start``, …)."""
        if action == "live-exit":  # the page without the room's link: the game kept on this device
            self.closed = True
            self._announce("gone")
            window.location.assign(str(window.location.pathname))
            return
        if action == "live-copy":
            self._task(self._copy())
            return
        if action == "live-share":
            self._task(self._share())
            return
        if self.follower is None or self.connection != "open" or self.busy:
            self.message = "Not connected to the relay yet." if not self.busy else "One moment: still sending."
            return
        key = self.key
        steps = {"live-join": None, "live-start": (lambda room: room.draft_start(key), "start"),
                 "live-resign": (lambda room: room.draft_resign(key), "resign"),
                 "live-leave": (lambda room: room.draft_leave(key), "leave the seat")}
        if action not in steps:
            return
        step = steps[action]

        async def run():
            self.busy = True
            self.message = ""
            try:
                if step is None:
                    await self._join()
                else:
                    await self.send(step[0], step[1])
            finally:
                self.busy = False
            self.changed()

        self._task(run())

    def chat(self, text: str) -> None:
        """Send a chat line (refused here first when too long or too fast, as the room counts)."""
        if self.follower is None or self.connection != "open":
            self.message = "Not connected to the relay: the line was not sent."
            return
        try:
            draft = self.room.draft_chat(self.key, text, _now_ms())
        except LiveError as exc:
            self.message = str(exc)
            return
        _get("live-chat").reset()

        async def run():
            signature = str(await self.keys.sign(draft.text().decode("utf-8")))
            try:
                await self.jetstream.publish(chat_subject(self.name), draft.signed(self.key, signature).decode("utf-8"),
                                             to_js({"msgID": signature[:40], "timeout": 3000}))
            except Exception as exc:
                self.message = f"The line was not sent: {exc}"
                self.app.refresh()

        self._task(run())

    async def _copy(self) -> None:
        try:
            await window.navigator.clipboard.writeText(self.link)
            self.message = "The room's link is copied: send it to your opponent (and to anyone who will watch)."
        except Exception:
            self.message = "Copy the room's link from the panel: this browser did not let the page copy it."
        self.app.refresh()

    async def _share(self) -> None:
        try:
            await window.navigator.share(to_js({"title": "YINSH", "text": "Play YINSH with me", "url": self.link}))
        except Exception:  # dismissed: nothing to say
            pass

    # ------------------------------------------------------------------ presence and the connection

    def _heard(self, err, msg) -> None:
        if self.keys is None or is_none(msg) or msg is None:
            return
        try:
            message = decode(str(self.keys.text(msg.data)).encode("utf-8"))
        except BadMessage:
            return

        async def check():
            verified = bool(await self.keys.verify(message.key, message.signature,
                                                   message.text(self.name).decode("utf-8")))
            if self.room.presence(message, verified, _now_ms()):
                self.app.refresh()

        self._task(check())

    def _announce(self, kind: str) -> None:
        """Say ``here`` (signed now, with a ``gone`` for one millisecond later signed beside it)
        or ``gone``: the one signed at the last beat, sent at once (a closing page has no time
        to wait for WebCrypto)."""
        if self.nc is None or self.keys is None or self.connection != "open":
            return
        if kind == "gone":
            if self.gone is not None:
                self._publish_presence(self.gone)
            return
        clock = _now_ms()
        here, gone = self.room.draft_presence("here", clock), self.room.draft_presence("gone", clock + 1)

        async def run():
            signed_here = str(await self.keys.sign(here.text().decode("utf-8")))  # no await in a comprehension
            signed_gone = str(await self.keys.sign(gone.text().decode("utf-8")))  # on MicroPython
            self.gone = gone.signed(self.key, signed_gone).decode("utf-8")
            self._publish_presence(here.signed(self.key, signed_here).decode("utf-8"))

        self._task(run())

    def _publish_presence(self, data: str) -> None:
        try:
            self.nc.publish(presence_subject(self.name), data)
        except Exception:  # not connected: the next beat says it
            pass

    async def _watch(self) -> None:
        """Every second: the connection's state; every few, a presence beat and the panel."""
        beat = 0
        while not self.closed:
            connected = bool(self.nc.protocol.connected) and not bool(self.nc.isClosed())
            state = "open" if connected else "reconnecting"
            if state != self.connection:
                self.connection = state
                self.app.refresh()
                if connected:
                    beat = 0
            if connected and beat % HEARTBEAT_S == 0:
                self._announce("here")
                self.app.refresh()  # who is connected changes with time too
            beat += 1
            await asyncio.sleep(1)

    # ------------------------------------------------------------------ the page

    def keep_url(self) -> None:
        """The address is the room's link (not the game's: the room keeps the game)."""
        window.history.replaceState(None, "", self.link)

    def view(self) -> RoomView:
        return room_view(self.room, self.key, _now_ms(), self.connection, self.read_all)

    def draw(self) -> None:
        """The room's panel and ``#board``'s ``data-live``/``data-seat``, after the page is drawn."""
        view = self.view()
        board = _get("board")
        board.setAttribute("data-live", view.live)
        board.setAttribute("data-seat", view.seat)
        document.documentElement.setAttribute("data-live", view.live)
        if self._changed("line", view.line):
            _get("live-state").textContent = view.line
        _get("live").setAttribute("data-ignored", str(view.ignored))  # counted, never shown
        message = self.message
        if self._changed("message", message):
            note = _get("live-message")
            note.textContent = message
            note.hidden = not message
        seats = [seat.label() for seat in view.seats]
        if self._changed("seats", seats):
            items = _get("live-seats")
            items.replaceChildren()
            for seat, label in zip(view.seats, seats):
                item = document.createElement("li")
                item.className = "live-seat " + (seat.colour or "unassigned") + (
                    " offline" if seat.name and not seat.connected else "")
                item.textContent = label
                items.appendChild(item)
        watchers = ", ".join(view.watchers)
        if self._changed("watchers", watchers):
            _get("live-watchers").textContent = ("Watching: " + watchers) if watchers else "No one else is watching."
        for action, shown in (("live-join", view.can_join), ("live-start", view.can_start),
                              ("live-resign", view.can_resign), ("live-leave", view.can_leave)):
            button = document.querySelector(f'#live [data-action="{action}"]')
            button.hidden = not shown
            button.disabled = self.busy
        _get("live-name-field").hidden = not view.can_join
        start = document.querySelector('#live [data-action="live-start"]')
        if self._changed("start", view.start_label):
            start.textContent = view.start_label
        chat = _get("live-chat")
        chat.hidden = not view.can_chat
        self._draw_chat(view)
        session = self.session
        prompt = live_prompt(self.room, view, session.game.to_move, session.person_to_move())
        if prompt is not None:  # the page's own words are for a game at one device or by link
            _get("prompt").textContent, _get("detail").textContent = prompt
            self.app.view.shown.pop("prompt", None)  # the page's words are written again once they apply
        _get("send-link").hidden = True
        labels = {seat.colour: seat.name + (" (you)" if seat.mine else "") for seat in view.seats
                  if seat.colour and seat.name}  # the players' card names who sits where
        for colour in ("white", "black"):
            kind = document.querySelector(f"#player-{colour} .kind")
            label = labels.get(colour) or ("seat free" if self.room.game is not None else "decided at the start")
            if str(kind.textContent) != label:
                kind.textContent = label

    def _draw_chat(self, view: RoomView) -> None:
        last = view.chat[-1][0] if view.chat else 0
        if not self._changed("chat", (len(view.chat), last)):
            return
        lines = _get("live-chat-lines")
        lines.replaceChildren()
        for _, author, text in view.chat[-50:]:
            item = document.createElement("li")
            who = document.createElement("b")
            who.textContent = author  # text, never markup
            said = document.createElement("span")
            said.textContent = text
            item.appendChild(who)
            item.appendChild(document.createTextNode(": "))
            item.appendChild(said)
            lines.appendChild(item)
        lines.hidden = not view.chat
        scroller = element(lines.parentElement)
        if scroller is not None:
            scroller.scrollTop = scroller.scrollHeight

    def _changed(self, name: str, value: object) -> bool:
        if self.shown.get(name, ...) == value:
            return False
        self.shown[name] = value
        return True

