"""A live room in the page: the room's panel, and the session kept in step with the room.

Loaded on demand, when a room opens (``?live=…`` or "Play someone online"): a game at one
device never fetches this module, the room's model or the NATS client. The relay's side
(reading the room from the stream, checking every message, sending signed events, presence,
nothing lost after any fault) is :class:`yinsh.web.relay.Relay`; what the panel and the board
say is read from the room by :func:`yinsh.page.live.room_view`; the session follows the room
(:class:`~yinsh.page.live.Follower`). This module draws the panel and turns the person's
clicks into the room's events.

A connection lost shows "Reconnecting…" (``#board[data-live=reconnecting]``); once it is back,
everything stored meanwhile is read (see :mod:`yinsh.web.relay`).
"""

from __future__ import annotations

import asyncio

from ..compat import now_ms
from ..live.protocol import MAX_NAME, valid_room
from ..live.room import ABSENCE_MS, LiveError, Room
from ..page.live import (
    Follower,
    RoomView,
    clock_alert,
    clock_views,
    flag_due,
    kept_notice,
    live_prompt,
    room_link,
    room_view,
)
from .audio import AUDIO
from .dom import document, element, load, store, to_js, warn, window
from .relay import Relay

__all__ = ["LiveRoom", "valid_room"]

NAME_KEY = "yinsh:live-name"


def _get(name: str):
    return document.getElementById(name)


class LiveRoom:
    """The room ``name`` on the relay at ``relay``, shown in ``app``'s page. ``create``: the
    colour of this page's seat when it opens a new room (it then takes that seat; the room's link
    is shown once both are stored, so a link opened at once finds the room and its host).
    ``scripts``: the URL each of the room's scripts is loaded from (the built site's are
    versioned)."""

    def __init__(self, app, name: str, relay: str, relay_in_link: bool, create: str | None = None,
                 scripts: dict[str, str] | None = None, clock: str = "none") -> None:
        self.app = app
        self.session = app.session
        self.name = name
        self.create = create
        self.clock = clock
        """A new room's time control (``3+2``, ``2d``, ``none``)."""
        self._claiming = False  # a claim of a win on time under way
        self._answered: int | None = None  # the question (absent_since) this page answered
        self._claim_due = False  # whether the question's time is up (the panel then offers the claim)
        self._clock_ms: dict[str, int] = {}  # each clock's time left when last drawn (its alerts)
        self.room = Room(name)
        self.relay = Relay(self.room, relay, scripts or {}, self.changed)
        self.follower: Follower | None = None
        self.busy = False  # an event being sent (Join, Start, …): its button waits
        self.message = ""
        self.shown: dict[str, object] = {}
        self.failed = False
        self.link = room_link(str(window.location.origin) + str(window.location.pathname), name,
                              relay if relay_in_link else "")

    @property
    def key(self) -> str:
        return self.relay.key

    @property
    def connection(self) -> str:
        return "failed" if self.failed else self.relay.connection

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
        if self.create is None:
            self.keep_url()
        self.relay.task(self._run())
        self.relay.task(self._tick())

    async def _run(self) -> None:
        why = await self.relay.open_key()
        if why:
            self.fail(why)
            return
        if not self.relay.key_kept:
            self.session.notice("This browser does not keep your seat's key: play on, but a reload "
                                "would make you a watcher.")
        self.follower = Follower(self.session, self.key)
        self.follower.follow(self.room)
        self.app.refresh()
        why = await self.relay.connect()
        if why:
            self.fail(why)
            return
        self.app.refresh()
        if self.create is not None:
            colours, clock = self.create, self.clock
            why = await self.relay.send(lambda room: room.draft_create(self.key, colours, clock), "open the room")
            if not why:
                why = await self._join()
            if why:
                self.message = why
            else:
                self.keep_url()  # the room exists, its host seated: now its link may be shared
            self.changed()

    def fail(self, line: str) -> None:
        """No room here (no relay, no Ed25519): the card says why in one line, and the page goes
        back to the game it showed, playable as before."""
        self.failed = True
        self.relay.close()
        self.draw()
        _get("live-state").textContent = line
        for selector in ("#live-seats", "#live-clocks", "#live-watchers", "#live-offer", "#live .live-share",
                         "#live-chat", "#live .live-actions"):
            document.querySelector(selector).hidden = True
        for colour in ("white", "black"):
            _get("strip-clock-" + colour).hidden = True
        for target in (document.documentElement, _get("board")):
            target.removeAttribute("data-live")
        _get("board").removeAttribute("data-seat")
        _get("board").removeAttribute("data-end")
        self.app.live_failed()

    def changed(self) -> None:
        """The room (or the connection, or who is here) changed: the session follows, the page is
        drawn; asked whether this player, to move, is there, the page answers at once."""
        if self.follower is not None:
            self.follower.follow(self.room)
            asked = self.room.absent_since
            if asked is not None and asked != self._answered and self.room.to_move_key() == self.key:
                self._answered = asked
                self.relay.task(self.relay.send(lambda room: room.draft_back(self.key), "answer"))
        self.app.refresh()

    # ------------------------------------------------------------------ the person's actions

    def after_input(self, draw) -> bool:  # type: ignore[no-untyped-def]
        """Before the page is drawn: the session follows the room, and a move made here on
        the board goes to the relay. Whether it went: then ``draw()`` is called once it is
        signed and sent (the page's drawing would hold the signature back for as long as it
        takes), else the caller draws."""
        follower = self.follower
        if follower is None:
            return False
        follower.follow(self.room)
        move = follower.outgoing(self.room)
        if move is None:
            return False
        follower.sent(move)
        think_ms = self.relay.thought_ms()
        first = self.relay.start_move(move, think_ms, draw)
        self.relay.task(self._send_move(move, think_ms, first))
        return first is not None

    async def _send_move(self, move: str, think_ms: int, first=None) -> None:  # type: ignore[no-untyped-def]
        game = self.room.game
        ply = game.ply if game is not None else -1
        games = self.room.games

        def build(room: Room):  # type: ignore[no-untyped-def]
            if room.game is None or room.game.ply != ply or room.games != games:
                raise LiveError("the turn was played meanwhile")
            return room.draft_move(self.key, move, think_ms)

        why = await self.relay.send(build, "play " + move, first)
        follower = self.follower
        assert follower is not None
        if why:
            room_game = self.room.game
            kept = room_game.moves[len(room_game.moves) - 1] if room_game is not None and \
                room_game.ply > ply and self.room.games == games else None
            follower.refused(self.room, kept_notice(str(kept)) if kept is not None else why)
        self.app.refresh()

    async def _join(self) -> str:
        name = self.player_name()
        nonce = str(self.relay.helper.randomName(12))
        return await self.relay.send(lambda room: room.draft_join(self.key, name, nonce), "take a seat")

    def player_name(self) -> str:
        typed = str(_get("live-name").value).strip()[:MAX_NAME]
        name = typed or ("Player " + self.key[:4])
        store(NAME_KEY, typed)
        return name

    def act(self, action: str) -> None:
        """A button of the room's panel (``live-join``, ``live-start``, …)."""
        if action == "live-exit":  # the page without the room's link: the game kept on this device
            self.relay.close()
            window.location.assign(str(window.location.pathname))
            return
        if action == "live-copy":
            self.relay.task(self._copy())
            return
        if action == "live-share":
            self.relay.task(self._share())
            return
        if self.follower is None or self.connection != "open" or self.busy:
            self.message = "Not connected to the relay yet." if not self.busy else "One moment: still sending."
            return
        key = self.key
        steps = {"live-join": None, "live-start": (lambda room: room.draft_start(key), "start"),
                 "live-resign": (lambda room: room.draft_resign(key), "resign"),
                 "live-abort": (lambda room: room.draft_abort(key), "abort the game"),
                 "live-takeback": (lambda room: room.draft_takeback(key), "offer a takeback"),
                 "live-accept": (lambda room: room.draft_answer(key, True), "accept the takeback"),
                 "live-decline": (lambda room: room.draft_answer(key, False), "decline the takeback"),
                 "live-claim": (lambda room: room.draft_absent(key, self.relay.relay_clock.now(now_ms())),
                                "claim the game"),
                 "live-leave": (lambda room: room.draft_leave(key), "leave the seat")}
        if action not in steps:
            return
        step = steps[action]

        async def run():  # type: ignore[no-untyped-def]
            self.busy = True
            self.message = ""
            try:
                if step is None:
                    self.message = await self._join()
                else:
                    self.message = await self.relay.send(step[0], step[1])
            finally:
                self.busy = False
            self.changed()

        self.relay.task(run())

    def chat(self, text: str) -> None:
        """Send a chat line (refused here first when too long or too fast, as the room counts)."""
        if self.follower is None or self.connection != "open":
            self.message = "Not connected to the relay: the line was not sent."
            return
        try:
            draft = self.room.draft_chat(self.key, text, now_ms())
        except LiveError as exc:
            self.message = str(exc)
            return
        _get("live-chat").reset()

        async def run():  # type: ignore[no-untyped-def]
            why = await self.relay.chat(draft)
            if why:
                self.message = why
                self.app.refresh()

        self.relay.task(run())

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

    # ------------------------------------------------------------------ the page

    def keep_url(self) -> None:
        """The address is the room's link (not the game's: the room keeps the game); set only
        when it is not already (this runs for every move, and ``replaceState`` is not free)."""
        if str(window.location.href) != self.link:
            window.history.replaceState(None, "", self.link)

    async def _tick(self) -> None:
        """The clocks run on the page: drawn every tenth of a second while one runs (every
        second otherwise); and once the other player is out of time, this seat claims the win
        (one claim at a time: the claim's own stored time decides, and every page folds it alike;
        one the relay stored too early is made again a tick later)."""
        while not self.relay.closed:
            running = False
            try:
                running = self._draw_clocks()
                now = self.relay.relay_clock.now(now_ms())
                if not self._claiming and flag_due(self.room, self.key, now):
                    self._claiming = True
                    self.relay.task(self._claim())
                asked = self.room.absent_since
                due = asked is not None and now - asked >= ABSENCE_MS
                if due != self._claim_due:  # the gone player's time to come back is up: offer the claim
                    self._claim_due = due
                    self.draw()
            except Exception as exc:  # the clocks are lost for a moment, never the room
                warn("the clocks could not be drawn", exc)
            await asyncio.sleep(0.1 if running else 1.0)

    async def _claim(self) -> None:
        try:
            now = self.relay.relay_clock.now(now_ms())
            await self.relay.send(lambda room: room.draft_flag(self.key, now), "claim the game on time")
        finally:
            await asyncio.sleep(1.0)  # refused (too early by the relay's clock): the next tick tries again
            self._claiming = False

    def _draw_clocks(self) -> bool:
        """Both clocks (``#live-clock-white``, ``#live-clock-black``: text, ``data-ms``,
        ``data-running``, ``data-low``); whether one runs."""
        clocks = clock_views(self.room, self.relay.relay_clock.now(now_ms()), self.session.reviewing)
        box = _get("live-clocks")
        box.hidden = not clocks
        for colour in ("white", "black"):
            _get("strip-clock-" + colour).hidden = not clocks
        for clock in clocks:
            alert = clock_alert(self._clock_ms.get(clock.colour, 0), clock.ms) if clock.running else ""
            self._clock_ms[clock.colour] = clock.ms
            if alert and self.room.clock.kind == "real":
                mine = self.room.colour_of(self.key) == clock.colour
                who = "You have " if mine else f"{clock.colour.capitalize()} has "
                self.app.view.announce(who + alert + " left.")
                if mine and self.session.sound:
                    AUDIO.play(("low-time",))
            shown = _get("live-clock-" + clock.colour)
            if self._changed("clock-" + clock.colour, (clock.text, clock.running, clock.low)):
                for target in (shown, _get("strip-clock-" + clock.colour)):  # the panel's, the phone's strip's
                    target.textContent = clock.text
                    for name, on in (("data-running", clock.running), ("data-low", clock.low)):
                        if on:
                            target.setAttribute(name, "")
                        else:
                            target.removeAttribute(name)
            shown.setAttribute("data-ms", str(clock.ms))
        return any(clock.running for clock in clocks)

    def view(self) -> RoomView:
        now = now_ms()
        return room_view(self.room, self.key, now, self.connection, self.relay.read_all,
                         self.relay.connected_at, self.relay.relay_clock.now(now))

    def draw(self) -> None:
        """The room's panel and ``#board``'s ``data-live``/``data-seat``, after the page is drawn."""
        view = self.view()
        board = _get("board")
        board.setAttribute("data-live", view.live)
        board.setAttribute("data-seat", view.seat)
        board.setAttribute("data-end", view.end)
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
                    " offline" if seat.name and seat.connected is False else "")
                item.textContent = label
                items.appendChild(item)
        if self._changed("offer", view.offer):
            offer = _get("live-offer")
            offer.textContent = view.offer
            offer.hidden = not view.offer
        watchers = ", ".join(view.watchers)
        if self._changed("watchers", watchers):
            _get("live-watchers").textContent = ("Watching: " + watchers) if watchers else "No one else is watching."
        for action, shown in (("live-join", view.can_join), ("live-start", view.can_start),
                              ("live-resign", view.can_resign), ("live-abort", view.can_abort),
                              ("live-takeback", view.can_takeback), ("live-accept", view.can_answer),
                              ("live-decline", view.can_answer), ("live-claim", view.can_claim),
                              ("live-leave", view.can_leave)):
            button = document.querySelector(f'#live [data-action="{action}"]')
            button.hidden = not shown
            button.disabled = self.busy
        _get("live-name-field").hidden = not view.can_join
        start = document.querySelector('#live [data-action="live-start"]')
        if self._changed("start", view.start_label):
            start.textContent = view.start_label
        chat = _get("live-chat")
        chat.hidden = not view.can_chat
        document.querySelector("#live .live-share").hidden = not view.can_share
        self._draw_chat(view)
        self._draw_clocks()
        session = self.session
        prompt = live_prompt(self.room, view, session.game.to_move, session.person_to_move())
        if prompt is not None:  # the page's own words are for a game at one device or by link
            _get("prompt").textContent, _get("detail").textContent = prompt
            self.app.view.shown.pop("prompt", None)  # the page's words are written again once they apply
        _get("send-link").hidden = True
        for colour, label in view.players.items():  # the players' card names who sits where
            kind = document.querySelector(f"#player-{colour} .kind")
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

