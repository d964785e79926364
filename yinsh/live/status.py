"""What a page shows of a live room, as plain values: browser-free, for the page's view to copy.

:func:`live_status` reads a :class:`~yinsh.live.room.Room` from one person's side (their key)
and the transport's state (connected or not) and returns everything the page draws beyond the
board itself: the testing contract's ``#board[data-live]`` and ``[data-seat]``, the players
with their colours and whether they are connected, which buttons are enabled, a one-line
prompt, and the chat. The page's view holds no rule of its own: it copies these values.

>>> from yinsh.live.protocol import decode
>>> room = Room("k3JH_x-9aZ0qLw2mNb7cQe")
>>> ana, ben = "A" * 43, "B" * 43
>>> room.apply("game", 1, 0, decode(room.draft_create(ana, "white").signed(ana, "s" * 86)), True).kind
'room'
>>> status = live_status(room, ana, connected=True, now_ms=0)
>>> status.live, status.seat, status.actions, status.prompt
('waiting', 'watcher', ['join', 'chat'], 'Take a seat to play, or watch.')
"""

from __future__ import annotations

from typing import Any, NamedTuple

from yinsh.live.room import Room

__all__ = ["LivePlayer", "LiveStatus", "live_status"]


class LivePlayer(NamedTuple("LivePlayer", [("seat", int), ("name", str), ("colour", "str | None"),
                                           ("connected", bool), ("you", bool)])):
    """A seated player: seat 0 or 1, name, ``white``/``black`` once a game started, connected, you."""

    __slots__ = ()


class LiveStatus(NamedTuple("LiveStatus", [
        ("live", str), ("seat", str), ("players", "list[LivePlayer]"), ("watchers", int), ("actions", "list[str]"),
        ("prompt", str), ("result", "str | None"), ("chat", "list[list[Any]]"), ("ignored", int)])):
    """``live``: ``waiting``, ``playing``, ``reconnecting`` or ``over`` (``#board[data-live]``);
    ``seat``: ``white``, ``black`` or ``watcher`` (``#board[data-seat]``); the players; how many
    others are connected; the actions enabled (``join``, ``start``, ``move``, ``resign``,
    ``leave``, ``chat``: a button each, ``[data-action="live-…"]``); the prompt; the result;
    the chat as ``[author, text]`` pairs (text only); how many messages were ignored."""

    __slots__ = ()


def live_status(room: Room, key: str, connected: bool, now_ms: int) -> LiveStatus:
    """The room as the page of ``key`` shows it, at the page's clock ``now_ms``."""
    seat = room.seat_of(key)
    players = []
    for i, taken in enumerate(room.seats):
        if taken is not None:
            players.append(LivePlayer(i, taken.name, room.colour_of(taken.key), room.connected(taken.key, now_ms),
                                      taken.key == key))
    seated_keys = [s.key for s in room.seats if s is not None]
    watchers = len([k for k in room.present_keys(now_ms) if k not in seated_keys])
    actions = []
    if room.phase != "new" and seat is None and room.free_seat() is not None:
        actions.append("join")
    if seat is not None:
        if room.phase in ("waiting", "over") and room.free_seat() is None:
            actions.append("start")
        if room.phase == "playing":
            if room.to_move_key() == key:
                actions.append("move")
            actions.append("resign")
        actions.append("leave")
    if room.phase != "new":
        actions.append("chat")
    live = "reconnecting" if not connected else ("waiting" if room.phase in ("new", "waiting") else room.phase)
    return LiveStatus(live, room.role_of(key), players, watchers, actions, _prompt(room, key, connected, now_ms),
                      room.result(), [[line.author, line.text] for line in room.chat],
                      sum(room.ignored.values()))


def _prompt(room: Room, key: str, connected: bool, now_ms: int) -> str:
    if not connected:
        return "Reconnecting…"
    if room.phase == "new":
        return "This room does not exist, or it has expired."
    seat = room.seat_of(key)
    if room.phase == "waiting":
        if seat is None:
            free = room.free_seat() is not None
            return "Take a seat to play, or watch." if free else "Waiting for a player to start."
        return "Waiting for a second player." if room.free_seat() is not None else "Start the game when you are ready."
    if room.phase == "over":
        if room.ending == "abort":
            return "Game aborted: no result."
        endings = {"resign": ", by resignation", "leave": ", a player left", "time": ", on time",
                   "absent": ", a player was gone"}
        ending = endings.get(room.ending or "", "")
        return f"Game over: {room.result()}{ending}."
    mover = room.to_move_key() or ""
    if mover == key:
        return "Your move."
    name = room.seats[room.seat_of(mover) or 0]
    who = name.name if name is not None else "the other player"
    if not room.connected(mover, now_ms):
        return f"{who} is disconnected: the game waits."
    return f"Waiting for {who}."
