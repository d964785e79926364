"""Game records: PGN-style tag pairs followed by numbered moves in official notation.

>>> rec = read_record('[White "Ann"]\\n[Black "Bo"]\\n\\n1.e3 2.a5 3.B5')
>>> rec.tags["White"], rec.game.ply, rec.game.record()
('Ann', 3, '1.e3 2.a5 3.b5')

Two tags have a meaning for the rules: ``Variant`` (``standard`` or ``blitz``) and
``Position``, a position code the moves start from (numbered on from its ply).
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from .errors import NotationError
from .game import Game

__all__ = ["Record", "read_record", "read_records", "split_records", "write_record", "RESULTS"]

RESULTS: Final = ("1-0", "0-1", "1/2-1/2", "*")
_TAG_RE: Final = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_NUMBER_RE: Final = re.compile(r"(?:^|(?<=\s))(\d+)\.(?:\.\.)?")
_RESULT_RE: Final = re.compile(r"(?:^|\s)(1-0|0-1|1/2-1/2|\*)\s*$")


class Record(NamedTuple("Record", [("tags", "dict[str, str]"), ("game", Game)])):
    """A game read from a record, with its tag pairs."""

    __slots__ = ()


def read_records(text: str) -> list[Record]:
    """Every game in a text that may hold several records (a tag block starts each)."""
    records = [read_record(chunk) for chunk in split_records(text)]
    if not records:
        raise NotationError("the text holds no game record")
    return records


def split_records(text: str) -> list[str]:
    """The text of each game in a text that may hold several (a tag block starts each);
    a boardspace SGF file is one game. Comment lines (``#``, ``%``) and blank lines are dropped.

    >>> split_records('[White "A"]\\n1.e3\\n\\n[White "B"]\\n1.f5')
    ['[White "A"]\\n1.e3', '[White "B"]\\n1.f5']
    """
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a record: expected text")
    if text.lstrip().startswith("(;"):
        return [text]
    chunks: list[list[str]] = [[]]
    in_moves = False
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "%")):
            continue
        is_tag = stripped.startswith("[")
        if is_tag and in_moves:
            chunks.append([])
            in_moves = False
        in_moves = in_moves or not is_tag
        chunks[-1].append(stripped)
    return ["\n".join(chunk) for chunk in chunks if chunk]


def read_record(text: str) -> Record:
    """The single game a record describes: official notation, or a boardspace SGF file.

    Raises ``NotationError`` or ``IllegalMoveError``.
    """
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a record: expected text")
    if text.lstrip().startswith("(;"):
        from .sgf import read_sgf

        return read_sgf(text)
    tags: dict[str, str] = {}
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(("#", "%")):
            continue
        if stripped.startswith("["):
            m = _TAG_RE.fullmatch(stripped)
            if not m:
                raise NotationError(f"cannot read the tag pair {stripped!r}: expected [Name \"value\"]")
            tags[m[1]] = m[2].replace('\\"', '"').replace("\\\\", "\\")
        else:
            lines.append(stripped)
    game = _start(tags)
    body = re.sub(r"\{[^}]*\}", " ", " ".join(lines)).strip()
    body = _RESULT_RE.sub("", body).strip()
    parts = _NUMBER_RE.split(body)
    if len(parts) == 1:  # no move numbers: moves separated by spaces
        texts: list[tuple[int | None, str]] = [(None, t) for t in parts[0].split()]
    else:
        if parts[0].strip():
            raise NotationError(f"cannot read {parts[0].strip()!r} before the first move number")
        texts = [(int(parts[i]), parts[i + 1].strip()) for i in range(1, len(parts), 2)]
    for number, move_text in texts:
        expected = game.ply + 1
        if number is not None and number != expected:
            raise NotationError(f"move {expected}: found the number {number}. where {expected}. was expected")
        if not move_text:
            raise NotationError(f"move {expected}: the move is missing after '{expected}.'")
        game.play(move_text)
    return Record(tags, game)


def _start(tags: dict[str, str]) -> Game:
    variant = tags.get("Variant", "standard").strip().lower() or "standard"
    if variant not in ("standard", "blitz"):
        raise NotationError(f"unknown variant {tags['Variant']!r}: expected 'standard' or 'blitz'")
    if "Position" in tags:
        game = Game.from_position(tags["Position"])
        if game.variant != variant and "Variant" in tags:
            raise NotationError(f"the Position tag is a {game.variant} game but the Variant tag says {variant}")
        return game
    return Game(variant)  # type: ignore[arg-type]


def write_record(game: Game, tags: dict[str, str] | None = None) -> str:
    """The record of ``game``: tag pairs (if any), a blank line, then the numbered moves.

    ``Variant`` and ``Position`` tags are added when the game needs them to be read back.
    """
    tags = dict(tags or {})
    if game.variant != "standard":
        tags.setdefault("Variant", game.variant)
    if game.start_ply or game.start_state != Game(game.variant).start_state:
        tags["Position"] = Game.from_state(game.start_state, game.start_ply).position()
    number = game.start_ply
    moves = []
    for move in game.moves:
        number += 1
        moves.append(f"{number}.{move}")
    movetext = " ".join(moves)
    if not tags:
        return movetext
    header = "\n".join(f'[{k} "{_escape(v)}"]' for k, v in tags.items())
    return f"{header}\n\n{movetext}" if movetext else header


def _escape(value: str) -> str:
    return str(value).replace("\\", "\\\\").replace('"', '\\"')
