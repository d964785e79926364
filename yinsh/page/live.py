"""A live room at the page, browser-free: what the room shows, and the session kept in step with it.

The room itself (:class:`yinsh.live.room.Room`) is folded from the relay's stream by the page's
transport (:mod:`yinsh.web.live`); this module reads it for the page:

- :func:`room_view` says what the room's panel shows (the state line, the seats and who is
  connected, which buttons, the chat) and what ``#board[data-live]`` and ``[data-seat]`` say;
- :class:`Follower` keeps the page's :class:`~yinsh.page.session.Session` in step with the
  room: the room's moves are played into the session (drawn as the computer's are), a move
  the person here made on the board is what :meth:`Follower.outgoing` hands the transport to
  send, and a session that went another way (the turn was taken by another tab's move) is put
  back to the room's game, with a notice.

Nothing here trusts the session over the room: the room's game (every move checked by the
rules core as it was folded) is the truth, the session follows it.

>>> from yinsh.live.protocol import decode
>>> room = Room("k3JH_x-9aZ0qLw2mNb7cQe")
>>> ana, ben = "A" * 43, "B" * 43
>>> def sent(draft, key, seq):
...     return room.apply("game", seq, 1000 * seq, decode(draft.signed(key, "s" * 86)), True)
>>> _ = sent(room.draft_create(ana, "white"), ana, 1)
>>> _ = sent(room.draft_join(ana, "Ana", "nonce-ana"), ana, 2)
>>> room_view(room, ben, 0, "open").line
'Ana is waiting for a second player: Join to play.'
>>> _ = sent(room.draft_join(ben, "Ben", "nonce-ben"), ben, 3)
>>> _ = sent(room.draft_start(ben), ben, 4)
>>> view = room_view(room, ben, 0, "open")
>>> view.live, view.seat, view.line
('playing', 'black', 'Ana (White) against Ben (Black)')
"""

from __future__ import annotations

from typing import Final

from ..game import Game
from ..live.clock import Clocks, clock_text
from ..live.room import ABORT_PLIES, ABSENCE_MS, Room
from ..move import Move
from ..pgn import clock_comment
from .computer import NAMES
from .settings import REMOTE, Settings

__all__ = ["SeatView", "RoomView", "room_view", "live_settings", "Follower", "CONNECTIONS", "room_link",
           "ending_text", "kept_notice", "live_prompt", "remote_words", "PRESENCE_GRACE_MS", "RelayClock",
           "ClockView", "clock_views", "flag_due", "record_extras", "clock_alert", "LOW_TIME_MS"]

CONNECTIONS: Final = ("connecting", "open", "reconnecting", "failed")
"""How the page is connected to the relay: first connecting, open, lost and trying again, or
never reached (``failed``: the page says so in one line)."""
PRESENCE_GRACE_MS: Final = 1_500
"""How long after the page connected a seat not heard of yet is shown neither connected nor
disconnected: the page asked who is there, and the answers take a moment."""


LOW_TIME_MS: Final = 10_000
"""A real-time clock under this shows tenths, and is marked low (``data-low``)."""


class RelayClock:
    """The relay's clock as this page estimates it: every message the relay stores carries its
    own time, and the page notes when it received each. A message arrives after it was stored,
    so the smallest gap seen (this machine's clock against the relay's, plus the quickest
    delivery) is the offset; the estimate is then at most that quickest delivery late, so a
    claim made on it is never early by more."""

    __slots__ = ("offset",)

    def __init__(self) -> None:
        self.offset: int | None = None

    def note(self, stored_ms: int, received_ms: int) -> None:
        """A message stored at ``stored_ms`` (the relay's clock) was received at ``received_ms`` (this page's)."""
        gap = received_ms - stored_ms
        if self.offset is None or gap < self.offset:
            self.offset = gap

    def now(self, local_ms: int) -> int:
        """The relay's time when this page's clock says ``local_ms``."""
        return local_ms - (self.offset or 0)


class ClockView:
    """One player's clock as the page shows it: its colour, the time left (ms) and its text,
    whether it runs (its player is to move and on the clock) and whether it is low."""

    __slots__ = ("colour", "ms", "text", "running", "low")

    def __init__(self, colour: str, ms: int, running: bool, low: bool) -> None:
        self.colour = colour
        self.ms = ms
        self.text = clock_text(ms)
        self.running = running
        self.low = low


def clock_views(room: Room, relay_ms: int, at_ply: int | None = None) -> list[ClockView]:
    """White's and Black's clocks at the relay's time ``relay_ms`` (as :class:`RelayClock`
    estimates it), or as they stood after ``at_ply`` moves (a move reviewed); none when the room
    keeps no clock. Before the first start, each player's whole time; a finished game's clocks
    stand where it ended (the loser on time at 0)."""
    if room.clock.kind == "none" or room.phase == "new":
        return []
    clocks = room.clocks or Clocks(room.clock)
    whole = Clocks(room.clock).left[0]
    out = []
    for index, colour in enumerate(("white", "black")):
        if at_ply is not None:  # the moves alternate from White's first: the mover's time after each
            after = [ms for i, ms in enumerate(clocks.spent[:at_ply]) if i % 2 == index]
            out.append(ClockView(colour, after[-1] if after else whole, False, False))
            continue
        if room.phase == "playing":
            ms = clocks.remaining(index, relay_ms)
        elif room.ending == "time" and room.loser is not None and room.seat_colour(room.loser) == colour:
            ms = 0
        else:
            ms = clocks.left[index]
        running = room.phase == "playing" and clocks.to_move == index and clocks.timed()
        out.append(ClockView(colour, ms, running, room.clock.kind == "real" and ms < LOW_TIME_MS))
    return out


def record_extras(room: Room) -> tuple[dict[str, str], list[str]] | None:
    """What the room's game's saved record adds (:attr:`~yinsh.page.session.Session.record_extras`):
    the result however the game ended (a resignation, a departure, on time: the rules alone do
    not say), the time control and each move's clock (``{[%clk 0:04:12]}``)."""
    if room.game is None:
        return None
    tags: dict[str, str] = {}
    comments: list[str] = []
    if room.phase == "over" and room.ending != "rules":
        tags["Result"] = room.result() or "*"
        tags["Termination"] = {"resign": "resignation", "leave": "abandoned", "absent": "abandoned",
                               "abort": "aborted"}.get(room.ending or "", "time")
    if room.clock.kind != "none" and room.clocks is not None:
        tags["TimeControl"] = room.clock.tag()
        comments = [clock_comment(ms) for ms in room.clocks.spent]
    return (tags, comments) if tags or comments else None


CLOCK_ALERTS: Final = ((60_000, "one minute"), (10_000, "ten seconds"))
"""The moments a running real-time clock is announced (and, for the player here, sounded)."""


def clock_alert(before_ms: int, now_ms: int) -> str:
    """What to announce when a running clock went from ``before_ms`` to ``now_ms`` left:
    ``"ten seconds"`` when it crossed that mark (the lower one, when both), else ``""``."""
    crossed = [words for mark, words in CLOCK_ALERTS if before_ms > mark >= now_ms]
    return crossed[-1] if crossed else ""


def flag_due(room: Room, key: str, relay_ms: int) -> bool:
    """Whether the page whose key is ``key`` should claim the game on time now: it holds a seat,
    the other player is to move and out of time by ``relay_ms``."""
    return (room.phase == "playing" and room.clocks is not None and room.seat_of(key) is not None
            and room.to_move_key() != key and room.clocks.out_of_time(relay_ms))


class SeatView:
    """One seat as the panel shows it: its colour (in the game, or the one the host chose before
    the first start; ``""`` while it is to be drawn), the player's name (``""`` when free),
    whether their page is connected (``None``: not known yet, the page just arrived), whether it
    is this page's, and whether they are to move."""

    __slots__ = ("colour", "name", "connected", "mine", "to_move")

    def __init__(self, colour: str, name: str, connected: bool | None, mine: bool, to_move: bool) -> None:
        self.colour = colour
        self.name = name
        self.connected = connected
        self.mine = mine
        self.to_move = to_move

    def label(self) -> str:
        """``Ana (White) · you · to move``, ``free seat (Black)``, ``Ben · disconnected``."""
        colour = f" ({NAMES[self.colour]})" if self.colour else ""
        if not self.name:
            return "free seat" + colour
        parts = [self.name + colour]
        if self.mine:
            parts.append("you")
        if self.connected is False and not self.mine:
            parts.append("disconnected")
        if self.to_move:
            parts.append("to move")
        return " · ".join(parts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SeatView) and self.label() == other.label()


class RoomView:
    """Everything the room's panel shows, as values (the page draws them; tests read them).

    ``live`` and ``seat`` are ``#board``'s ``data-live`` (``waiting``, ``playing``,
    ``reconnecting``, ``over``) and ``data-seat`` (``white``, ``black``, ``watcher``);
    ``line`` the room's state in one sentence; ``seats`` the two seats; ``players`` what the
    players' card says under each colour (``white``, ``black``: a name, ``seat free``, ``decided
    at the start``); ``watchers`` who else is connected; ``can_join``, ``can_start``
    (``start_label``: Start or Rematch), ``can_resign``, ``can_abort``, ``can_takeback``,
    ``can_answer`` (Accept and Decline), ``can_claim``, ``can_leave`` which buttons show;
    ``offer`` the line about an offer or a question under way (``""``: none); ``can_share``
    whether the room's link is offered (once the room exists); ``chat`` the lines (author, text)."""

    __slots__ = ("live", "seat", "line", "seats", "players", "watchers", "can_join", "can_start", "start_label",
                 "can_resign", "can_abort", "can_takeback", "can_answer", "can_claim", "offer", "can_leave",
                 "can_chat", "can_share", "chat", "ignored", "end")

    def __init__(self) -> None:
        self.live = "waiting"
        self.seat = "watcher"
        self.line = ""
        self.seats: list[SeatView] = []
        self.players: dict[str, str] = {}
        self.watchers: list[str] = []
        self.can_join = self.can_start = self.can_resign = self.can_leave = self.can_chat = self.can_share = False
        self.can_abort = self.can_takeback = self.can_answer = self.can_claim = False
        self.offer = ""
        self.start_label = "Start"
        self.chat: list[tuple[int, str, str]] = []
        self.ignored = 0
        self.end = ""
        """How the last game ended, once it has (``#board[data-end]``): ``rings``, ``pool``,
        ``passes``, ``resign``, ``leave``, ``time``, ``absent``, ``abort``."""


def ending_text(room: Room) -> str:
    """How the room's last game ended, in one sentence (``""`` while none has)."""
    if room.phase != "over" or room.game is None:
        return ""
    result = room.result()
    winner = {"1-0": "white", "0-1": "black"}.get(result or "")
    names = _colour_names(room)
    if room.ending == "abort":
        return "The game was aborted: no result."
    if room.ending in _DID and room.loser is not None:
        loser_colour = "white" if room.loser == room.white else "black"
        loser = names.get(loser_colour) or NAMES[loser_colour]
        did = _DID[room.ending]
        return f"{loser} {did}: {names.get(winner or '') or NAMES.get(winner or '', '')} wins."
    if winner is None:
        return "The game is drawn."
    white, black = room.game.score
    return f"{names.get(winner) or NAMES[winner]} wins, {max(white, black)} rings to {min(white, black)}."


_DID: Final = {"resign": "resigned", "leave": "left the game", "time": "ran out of time",
               "absent": "was gone too long"}
"""What the loser did, by the room's ending."""


def _colour_names(room: Room) -> dict[str, str]:
    """The seated players' names by the colour they play (or played) in the room's game."""
    out: dict[str, str] = {}
    if room.game is None:
        return out
    for i, seat in enumerate(room.seats):
        if seat is not None:
            out["white" if i == room.white else "black"] = seat.name
    return out


def room_view(room: Room, key: str, now_ms: int, connection: str, read_all: bool = False,
              connected_at: int | None = None, relay_ms: int | None = None) -> RoomView:
    """What the room's panel and ``#board`` show to the page whose key is ``key``, at the
    page's clock ``now_ms``, connected as ``connection`` (:data:`CONNECTIONS`); ``read_all``:
    the page has read everything the relay keeps of the room (a room still ``new`` then does
    not exist); ``connected_at``: when the page's connection opened (or last came back), at its
    clock: for :data:`PRESENCE_GRACE_MS` after, a player not heard of yet is not called
    disconnected; ``relay_ms``: the relay's clock as the page estimates it (when a gone player's
    time to answer is up; ``now_ms`` when not given)."""
    view = RoomView()
    mine = room.seat_of(key)
    started = room.game is not None
    view.seat = room.role_of(key) if started else "watcher"
    view.live = "reconnecting" if connection == "reconnecting" else (
        room.phase if room.phase in ("playing", "over") else "waiting")
    to_move = room.to_move_key()
    arriving = connected_at is not None and now_ms - connected_at < PRESENCE_GRACE_MS
    for i, seat in enumerate(room.seats):
        colour = room.seat_colour(i) or ""
        if seat is None:
            view.seats.append(SeatView(colour, "", False, False, False))
        else:
            connected: bool | None = seat.key == key or room.connected(seat.key, now_ms)
            if not connected and arriving and not room.heard(seat.key):
                connected = None
            view.seats.append(SeatView(colour, seat.name, connected, seat.key == key, seat.key == to_move))
    for colour in ("white", "black"):
        held = next((s for s in view.seats if s.colour == colour), None)
        if held is not None and held.name:
            view.players[colour] = held.name + (" (you)" if held.mine else "")
        else:
            view.players[colour] = "decided at the start" if held is None else "seat free"
    seated_names = {s.name for s in room.seats if s is not None}
    present = [name for name in room.present(now_ms) if name not in seated_names]
    unnamed = present.count("a watcher")  # watchers are numbered by their first chat line
    view.watchers = [name for name in present if name != "a watcher"]
    if unnamed:
        view.watchers.append(("1 other watcher" if unnamed == 1 else f"{unnamed} other watchers")
                             if view.watchers else ("1 watcher" if unnamed == 1 else f"{unnamed} watchers"))
    full = room.free_seat() is None
    if room.phase != "new":
        view.can_join = mine is None and not full
        view.can_start = mine is not None and full and room.phase in ("waiting", "over")
        view.start_label = "Rematch" if room.phase == "over" else "Start"
        playing = mine is not None and room.phase == "playing" and room.game is not None
        view.can_abort = playing and room.game.ply < ABORT_PLIES  # type: ignore[union-attr]
        view.can_resign = playing and not view.can_abort
        view.can_takeback = playing and room.offer is None and room.takeback_ply(mine) is not None
        view.can_answer = playing and room.offer is not None and room.offer != mine
        _absence(view, room, key, now_ms if relay_ms is None else relay_ms)
        view.can_leave = mine is not None
        view.can_chat = True
        view.can_share = room.creator != key or mine is not None  # a host's link once they are seated
    view.line = _line(room, mine, connection, read_all)
    view.chat = [(line.seq, line.author, line.text) for line in room.chat]
    view.ignored = sum(room.ignored.values())
    if room.phase == "over" and room.game is not None:
        outcome = room.game.outcome
        view.end = (_RULES_ENDS.get(outcome.termination, outcome.termination) if outcome else "") \
            if room.ending == "rules" else room.ending or ""
    return view


def _absence(view: RoomView, room: Room, key: str, relay_ms: int) -> None:
    """The offer line and the claim's button: a takeback offered, a gone player asked."""
    names = {i: seat.name for i, seat in enumerate(room.seats) if seat is not None}
    mine = room.seat_of(key)
    if room.phase != "playing":
        return
    if room.offer is not None:
        view.offer = "You offered to take back your last move." if room.offer == mine else \
            f"{names.get(room.offer, 'A player')} asks to take back their last move."
    mover = room.to_move_key()
    seat = view.seats[room.seat_of(mover or "") or 0] if mover and len(view.seats) == 2 else None
    if mine is None or mover is None or mover == key or room.clock.kind == "days" or seat is None:
        return
    if room.absent_since is None:
        view.can_claim = seat.connected is False
    elif relay_ms - room.absent_since >= ABSENCE_MS:
        view.can_claim = True
        view.offer = f"{seat.name} did not come back: you may claim the game, or keep waiting."
    else:
        view.offer = f"{seat.name} has {ABSENCE_MS // 1000} s to come back, or you may claim the game."


_RULES_ENDS: Final = {"markers": "pool"}
"""``#board[data-end]`` for a game the rules ended: the termination's name, the pool's running out as ``pool``."""


def _line(room: Room, mine: int | None, connection: str, read_all: bool) -> str:
    if connection == "connecting":
        return "Connecting to the relay…"
    if connection == "failed":
        return "No relay answers: live play is unavailable here; everything else works."
    if connection == "reconnecting":
        return "Reconnecting… moves played meanwhile appear as soon as the relay answers."
    if room.phase == "new":
        if read_all and room.ignored.get("other version"):
            return ("This room was opened by another version of YINSH, which this page cannot read: open a "
                    "new one with Play someone online… in the Game menu.")
        if read_all:
            return ("This room does not exist, or has expired (a room is kept 7 days): open a new one with "
                    "Play someone online… in the Game menu.")
        return "Opening the room…"
    seated = [s for s in room.seats if s is not None]
    if room.phase == "waiting" or (room.phase == "over" and len(seated) < 2):
        if not seated:
            return "Nobody is seated yet: Join to play."
        if len(seated) == 1:
            if mine is not None:
                return "Waiting for a second player: send them the room's link."
            return f"{seated[0].name} is waiting for a second player: Join to play."
        return "Both seats are taken: either player may Start." if mine is not None else \
            "Both seats are taken: the game begins when a player starts it."
    if room.phase == "over":
        return ending_text(room) + (" Rematch: colours swap." if mine is not None else "")
    names = _colour_names(room)
    return f"{names.get('white', 'White')} (White) against {names.get('black', 'Black')} (Black)"


def live_prompt(room: Room, view: RoomView, to_move: str, person_to_move: bool) -> tuple[str, str] | None:
    """The status card's prompt and the line under it in a live room, where the page's own
    (a game at one device, or by link) would be wrong; ``None``: the page's own (the person
    here is to move, or the rules ended the game). ``to_move``: the colour to move."""
    if room.phase == "playing" and view.live != "reconnecting" and person_to_move:
        return None
    if view.live == "reconnecting":
        return "Reconnecting…", "The relay is out of reach: moves played meanwhile appear as soon as it answers."
    if room.phase == "over":
        if room.ending == "rules":
            return None
        return ending_text(room), "Either player may start a rematch (colours swap)."
    if room.phase != "playing":
        return "Live room: " + ("waiting for a second player" if room.free_seat() is not None
                                else "waiting for the start"), view.line
    names = {s.colour: s.name for s in view.seats if s.name}
    mover = names.get(to_move) or NAMES[to_move]
    if view.seat == "watcher":
        return f"{mover} ({NAMES[to_move]}) to move", "You are watching: every move appears here as it is played."
    return f"{mover} to move", "Their move appears here as soon as it is played."


def remote_words(room: Room, key: str) -> str:
    """What a click on the board says in a live room when this page may not move (a game by
    link's words would be wrong here)."""
    if room.phase == "playing":
        if room.seat_of(key) is None:
            return "You are watching: the players move on their own pages."
        mover = room.to_move_key()
        seat = room.seat_of(mover) if mover is not None else None
        name = room.seats[seat].name if seat is not None and room.seats[seat] is not None else "your opponent"  # type: ignore[union-attr]
        return f"It is {name}'s move: it appears here as soon as they play it."
    if room.phase == "over":
        return "The game is over: either player may start a rematch."
    if room.seat_of(key) is None:
        return "The game has not started: take a seat to play, or watch."
    return "The game has not started: " + ("wait for a second player." if room.free_seat() is not None
                                           else "press Start when you are ready.")


def live_settings(room: Room, key: str) -> Settings:
    """Who plays each colour at this page: the colour of ``key``'s seat by hand while the game
    is on, everything else on another device (a watcher, or a game over, moves for nobody)."""
    colour = room.colour_of(key) if room.phase == "playing" else None
    return Settings(white="human" if colour == "white" else REMOTE, black="human" if colour == "black" else REMOTE)


def room_link(base: str, name: str, relay: str = "") -> str:
    """The room's link: ``base`` (the page's address without query or hash) with ``?live=``,
    and the relay when the page was told it by its own link (the site names none).

    >>> room_link("https://example.org/yinsh/index.html", "k3JH_x-9aZ0qLw2mNb7cQe", "ws://127.0.0.1:9222")
    'https://example.org/yinsh/index.html?live=k3JH_x-9aZ0qLw2mNb7cQe&relay=ws%3A%2F%2F127.0.0.1%3A9222'
    """
    link = base + "?live=" + name
    if relay:
        link += "&relay=" + _quote(relay)
    return link


def _quote(text: str) -> str:
    safe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~"
    return "".join(c if c in safe else "".join(f"%{b:02X}" for b in c.encode("utf-8")) for c in text)


def kept_notice(move: str) -> str:
    """What a page says when another page's move took the turn it also played."""
    return f"That turn was played on another page: the move kept is {move}."


class Follower:
    """Keeps a session in step with a room, for the page whose key is ``key``.

    :meth:`follow` after the room changed (or the person moved); :meth:`outgoing` is the move
    the person made here that the room does not have yet (the transport sends it, and
    :meth:`sent` notes it); :meth:`refused` when the relay kept another move for that turn."""

    def __init__(self, session, key: str) -> None:  # type: ignore[no-untyped-def]
        self.session = session
        self.key = key
        self.games = -1
        """The room's game the session shows (:attr:`Room.games`); -1: none yet."""
        self.sending: str | None = None
        """The move being sent (its long form), until the room folds it or refuses it."""
        self.takebacks = 0
        """The takebacks the session shows (:attr:`Room.takebacks`)."""

    def follow(self, room: Room) -> bool:
        """Bring the session to the room's game and players; whether anything changed."""
        session = self.session
        game = room.game
        settings = live_settings(room, self.key)
        session.remote_words = remote_words(room, self.key)
        session.record_extras = record_extras(room)
        if game is None or room.games != self.games:
            self.games, self.takebacks = room.games, room.takebacks
            self.sending = None
            shown = Game()
            for move in (game.moves if game is not None else ()):
                shown.push(move)
            session.open(shown, settings, [])
            return True
        if room.takebacks != self.takebacks:  # moves taken back: the session's extra moves are not to send
            self.takebacks = room.takebacks
            self._reopen(room, settings, ["A move was taken back."])
            return True
        changed = False
        ours = session.game.moves
        theirs = game.moves  # compared as moves, not as text: this runs for every message a page folds
        common = min(len(ours), len(theirs))
        differ = next((i for i in range(common) if ours[i] != theirs[i]), None)
        if differ is not None or (len(ours) > len(theirs) and not self._may_send(room, ours, theirs)):
            self._reopen(room, settings, [kept_notice(str(theirs[differ])) if differ is not None
                                          else "The room's game is shown."])
            return True
        if len(ours) < len(theirs):
            arrived = theirs[len(ours):]
            for move in arrived[:-1]:
                session.commit(move)
            session.play_arrived(arrived[-1])
            if self.sending in [str(m) for m in arrived]:
                self.sending = None
            changed = True
        elif self.sending is not None and self.sending in [str(m) for m in theirs]:
            self.sending = None
        if session.settings.players != settings.players:
            session.open(session.game, settings, session.notices)
            changed = True
        return changed

    def _may_send(self, room: Room, ours: tuple[Move, ...], theirs: tuple[Move, ...]) -> bool:
        """Whether the session's extra moves are one move of this seat for the room's turn
        (and the passes that follow it)."""
        if room.to_move_key() != self.key:
            return False
        return all(m.kind == "pass" for m in ours[len(theirs) + 1:])

    def _reopen(self, room: Room, settings: Settings, notices: list[str]) -> None:
        self.sending = None
        shown = Game()
        for move in room.game.moves:  # type: ignore[union-attr]
            shown.push(move)
        self.session.open(shown, settings, notices)

    def outgoing(self, room: Room) -> str | None:
        """The move made here that the room is to be sent, or ``None``."""
        if room.game is None or self.sending is not None or room.games != self.games:
            return None
        ours = self.session.game.moves
        if len(ours) <= len(room.game.moves) or room.to_move_key() != self.key:
            return None
        return str(ours[len(room.game.moves)])

    def sent(self, move: str) -> None:
        self.sending = move

    def refused(self, room: Room, why: str) -> None:
        """The room would not take the move being sent (``why``): the room's game is shown."""
        self._reopen(room, live_settings(room, self.key), [why])
