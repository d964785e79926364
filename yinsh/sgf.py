"""Import of boardspace.net SGF game records.

boardspace writes each player's steps as numbered actions: ``place wr E 6`` (a
ring placed), ``place w G 11`` then ``drop board G 9`` (a marker put in the ring
on g11, the ring dropped on g9), ``move C 6 C 1`` (the same in one step),
``remove w H 5 H 9`` and ``remove wr E 10`` (a row and a ring), ``pass``,
``Done``, ``Resign``. The steps of one player between the other player's steps
make one move in official notation, checked by the rules as it is played.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Final

from .errors import NotationError
from .game import Game
from .record import Record

__all__ = ["is_sgf", "read_sgf"]

_ACTION_RE: Final = re.compile(r"\bP([01])\[(\d+)\s+([^\]]*)\]")
_POINT_RE: Final = r"([A-Ka-k])\s+(\d{1,2})"
_STEP_RES: Final = (
    ("ring", re.compile(rf"place\s+[wb]r\s+{_POINT_RE}$")),
    ("marker", re.compile(rf"place\s+[wb]\s+{_POINT_RE}$")),
    ("drop", re.compile(rf"drop\s+board\s+{_POINT_RE}$")),
    ("move", re.compile(rf"move\s+{_POINT_RE}\s+{_POINT_RE}$")),
    ("row", re.compile(rf"remove\s+[wb]\s+{_POINT_RE}\s+{_POINT_RE}$")),
    ("remove", re.compile(rf"remove\s+[wb]r\s+{_POINT_RE}$")),
    ("pass", re.compile(r"pass$")),
)
_IGNORED: Final = ("done", "start", "resign", "edit")


def is_sgf(text: str) -> bool:
    """Whether ``text`` looks like an SGF record."""
    return text.lstrip().startswith("(;")


def _prop(text: str, name: str) -> str | None:
    m = re.search(rf"\b{name}\[((?:[^\]\\]|\\.)*)\]", text)
    return m[1].strip() if m else None


def _player_id(text: str, player: str) -> str | None:
    value = _prop(text, player)
    m = re.match(r'id\s+"([^"]*)"', value or "")
    return m[1] if m else None


def read_sgf(text: str) -> Record:
    """The game an SGF record from boardspace.net describes, with PGN-style tags.

    Raises ``NotationError`` for unreadable steps and ``IllegalMoveError`` for
    moves the rules refuse, naming the move number.
    """
    if not is_sgf(text):
        raise NotationError("the text is not an SGF record: it must start with '(;'")
    if _prop(text, "SU") not in (None, "Yinsh", "yinsh"):
        raise NotationError(f"the SGF record is a game of {_prop(text, 'SU')}, not YINSH")
    turns: list[tuple[str, list[str]]] = []
    for player, number, step in _ACTION_RE.findall(text):
        step = step.strip()
        if step.split(" ", 1)[0].lower() in _IGNORED:
            continue
        if not turns or turns[-1][0] != player:
            turns.append((player, []))
        turns[-1][1].append(f"{number} {step}")
    game = Game()
    for _, steps in turns:
        game.play(_notation(steps, game.ply + 1))
    return Record(_tags(text, game), game)


def _notation(steps: list[str], move_number: int) -> str:
    """One player's consecutive steps as a move in official notation."""
    before: list[str] = []
    after: list[str] = []
    action: str | None = None
    row: str | None = None
    for numbered in steps:
        number, step = numbered.split(" ", 1)
        kind, points = _step(step, move_number, number)
        removals = after if action is not None else before
        if kind == "ring":
            action = points[0]
        elif kind == "marker":
            action = points[0] + "-"
        elif kind == "drop":
            if action is None or not action.endswith("-"):
                raise NotationError(f"move {move_number}: SGF step {number} drops a ring that was not picked up")
            action += points[0]
        elif kind == "move":
            action = f"{points[0]}-{points[1]}"
        elif kind == "pass":
            action = "pass"
        elif kind == "row":
            row = f"{points[0]}-{points[1]}"
        else:  # a ring removed with the row named just before
            if row is None:
                raise NotationError(f"move {move_number}: SGF step {number} removes a ring without a row")
            removals.append(f"x{row}x{points[0]}")
            row = None
    if action is not None and action.endswith("-"):
        raise NotationError(f"move {move_number}: the ring picked up on {action[:-1]} is never dropped")
    parts = ["".join(before)] if before else []
    if action is not None:
        parts.append(action)
    if after:
        parts.append("".join(after))
    return ";".join(parts)


def _step(step: str, move_number: int, number: str) -> tuple[str, list[str]]:
    for kind, pattern in _STEP_RES:
        m = pattern.match(step)
        if m:
            groups = m.groups()
            return kind, [f"{groups[i].lower()}{groups[i + 1]}" for i in range(0, len(groups), 2)]
    raise NotationError(f"move {move_number}: cannot read the SGF step {number} {step!r}")


def _tags(text: str, game: Game) -> dict[str, str]:
    tags = {"Event": "boardspace.net"}
    if name := _prop(text, "GN"):
        tags["Game"] = name
    if date := _date(_prop(text, "DT") or ""):
        tags["Date"] = date
    white, black = _player_id(text, "P0"), _player_id(text, "P1")
    if white:
        tags["White"] = white
    if black:
        tags["Black"] = black
    winner = re.match(r"Game won by (.+)", _prop(text, "RE") or "")
    if winner and winner[1].strip() in (white, black):
        tags["Result"] = "1-0" if winner[1].strip() == white else "0-1"
    elif game.result:
        tags["Result"] = game.result
    if game.termination:
        tags["Termination"] = game.termination
    elif "Result" in tags:
        tags["Termination"] = "resignation"
    return tags


def _date(text: str) -> str | None:
    # e.g. "Fri Mar 13 19:56:26 GMT+01:00 2026"; the time zone is dropped.
    m = re.match(r"\w{3}\s+(\w{3})\s+(\d{1,2})\s+[\d:]+\s+\S+\s+(\d{4})$", text.strip())
    if not m:
        return None
    try:
        return datetime.strptime(f"{m[1]} {m[2]} {m[3]}", "%b %d %Y").strftime("%Y.%m.%d")
    except ValueError:
        return None
