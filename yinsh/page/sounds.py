"""The page's sounds, browser-free: which ones a change makes, and what each is made of.

Sound is off until the visitor switches it on (:mod:`yinsh.page.prefs`). Then a placement, a
ring move, the markers it flips and a row removed each make a soft sound, synthesised in the
browser with the Web Audio API (:mod:`yinsh.web.audio`): no audio file, nothing fetched. What
is heard is decided here, from the turn or the move just made (:func:`decision_cues`,
:func:`move_cues`); what each sound is, as notes (:data:`SOUNDS`), and when each note starts
(:func:`schedule`).

>>> from yinsh.game import Game
>>> game = Game.from_record("1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8 11.h7-g7")
>>> move_cues(game.state, game.parse_move("e4-i8")), move_cues(Game().state, Game().parse_move("e3"))
(('move', 'flip'), ('place',))
>>> [(start, note.hz) for start, note in schedule(("move", "flip"))][:3]
[(0, 330), (150, 880), (215, 1040)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .. import state as st

if TYPE_CHECKING:
    from ..move import Move
    from ..turn import Turn

__all__ = ["CUES", "Note", "SOUNDS", "decision_cues", "move_cues", "schedule"]

CUES: Final = ("place", "move", "flip", "row", "low-time")
"""Every sound the page makes: a ring placed, a ring moved, markers flipped, a row removed, and
a live game's clock of the player here running low."""


class Note:
    """One tone: it starts ``at`` ms into its sound, lasts ``ms``, glides from ``hz`` to
    ``to_hz``, with a peak ``gain`` (0–1: all are soft) and an oscillator ``wave``."""

    __slots__ = ("at", "ms", "hz", "to_hz", "gain", "wave")

    def __init__(self, at: int, ms: int, hz: int, to_hz: int = 0, gain: float = 0.1, wave: str = "sine") -> None:
        self.at = at
        self.ms = ms
        self.hz = hz
        self.to_hz = to_hz or hz
        self.gain = gain
        self.wave = wave


SOUNDS: Final = {
    "place": (Note(0, 110, 520, 400, 0.16, "triangle"),),
    "move": (Note(0, 170, 330, 470, 0.08),),
    "flip": (Note(0, 45, 880, 0, 0.07, "triangle"), Note(65, 45, 1040, 0, 0.06, "triangle")),
    "row": (Note(0, 260, 660, 0, 0.09), Note(130, 320, 990, 0, 0.08), Note(260, 420, 1320, 0, 0.05)),
    "low-time": (Note(0, 90, 392, 0, 0.08), Note(180, 90, 392, 0, 0.08)),
}
"""The notes of each sound of :data:`CUES`."""
GAP_MS: Final = {"place": 0, "move": 150, "flip": 160, "row": 300, "low-time": 0}
"""How long after a sound begins the next one of the same change may begin."""


def schedule(cues: tuple[str, ...]) -> list[tuple[int, Note]]:
    """The notes of ``cues`` played one after the other, as (start in ms, note), in order."""
    out = []
    start = 0
    for cue in cues:
        out += [(start + note.at, note) for note in SOUNDS[cue]]
        start += GAP_MS[cue]
    return out


def move_cues(before: st.State, move: Move) -> tuple[str, ...]:
    """What ``move``, played in ``before``, sounds like: a placement, or a ring move (and
    flips, when its jump turns markers over), then one sound per row removed."""
    cues: list[str] = []
    if move.kind == "place":
        cues.append("place")
    elif move.kind == "move" and move.source is not None and move.target is not None:
        cues.append("move")
        if st.flipped(before, move.source, move.target):
            cues.append("flip")
    if move.before or move.after:
        cues.append("row")
    return tuple(cues)


def decision_cues(turn: Turn, first_ring_move: bool, removals_before: int) -> tuple[str, ...]:
    """What a person's decision just made in ``turn`` sounds like: a ring placed, the ring
    moved (``first_ring_move``: it had not moved before this decision; and flips), a row
    removed (more removals than ``removals_before``)."""
    cues: list[str] = []
    move = turn.move
    if move is not None and move.kind == "place":
        cues.append("place")
    ring_move = turn.ring_move
    if ring_move is not None and first_ring_move:
        cues.append("move")
        s = turn.state  # after the move: every marker it crossed is still there, turned over
        if st.flipped(s, ring_move[0], ring_move[1]):
            cues.append("flip")
    if len(turn.removals) > removals_before:
        cues.append("row")
    return tuple(cues)
