"""Undo and redo of whole turns, and the positions of a game's past (browser-free).

The page (:mod:`yinsh.web.main`) plays every move through a :class:`History`, so that a
new move clears what could be redone, and asks it to undo or redo. Against the computer,
undo goes back to the person's last decision (taking back the computer's answer with it)
and redo replays the person's turn and the answer, so both land on a person's turn; when
computers play both colours, one turn at a time. A pass is never chosen: it goes with the
move before it, back and forth.

>>> from yinsh.game import Game
>>> history = History(Game.from_record("1.e3 2.a5 3.b5 4.c6"))
>>> [str(m) for m in history.undo(computers={"black"})], history.game.record()
(['c6', 'b5'], '1.e3 2.a5')
>>> [str(m) for m in history.redo(computers={"black"})], history.game.record()
(['b5', 'c6'], '1.e3 2.a5 3.b5 4.c6')
>>> _ = history.undo(); _ = history.play("c6"); history.can_redo()
False
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..game import COLORS, Game
from ..move import Move

if TYPE_CHECKING:
    from collections.abc import Collection

__all__ = ["History"]


class History:
    """A game with a redo stack: the turns taken back, the last one on top.

    ``computers`` (for :meth:`undo`, :meth:`redo`, :meth:`can_undo`) names the colours the
    computer plays now; the players may change during a game, so it is asked each time.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self._undone: list[Move] = []

    def play(self, move: str | Move) -> Move:
        """Check and play a new move: what was taken back can no longer be redone."""
        played = self.game.play(move)
        self._undone.clear()
        return played

    def can_redo(self) -> bool:
        return bool(self._undone)

    def can_undo(self, computers: Collection[str] = ()) -> bool:
        """Whether :meth:`undo` would take anything back: a chosen move (not a pass), made by
        a person when a person plays."""
        people = set(COLORS) - set(computers)
        return any(move.kind != "pass" and (not people or self.game.mover(i) in people)
                   for i, move in enumerate(self.game.moves))

    def undo(self, computers: Collection[str] = ()) -> list[Move]:
        """Take back the last turn, then (when a person plays) every turn until a person is to
        move; returns the moves taken back, last played first. Nothing when :meth:`can_undo`
        is false."""
        if not self.can_undo(computers):
            return []
        taken = self._take_back()
        while self._computer_to_move(computers) and self.game.moves:
            taken += self._take_back()
        return taken

    def redo(self, computers: Collection[str] = ()) -> list[Move]:
        """Replay the last turn taken back, then (when a person plays) every taken-back turn
        while the computer is to move; returns the moves replayed, in order."""
        if not self._undone:
            return []
        replayed = self._replay()
        while self._undone and self._computer_to_move(computers):
            replayed += self._replay()
        return replayed

    def _computer_to_move(self, computers: Collection[str]) -> bool:
        """Whether undo and redo go on past this position: a computer is to move, a person
        plays the other colour, and the game goes on."""
        if set(computers) >= set(COLORS) or self.game.result is not None:
            return False
        return self.game.to_move in computers

    def _take_back(self) -> list[Move]:
        """One turn back: the passes at the end, then the move they followed."""
        taken: list[Move] = []
        while self.game.moves and self.game.moves[-1].kind == "pass":
            taken.append(self.game.undo())
        if self.game.moves:
            taken.append(self.game.undo())
        self._undone += taken
        return taken

    def _replay(self) -> list[Move]:
        """One turn again: a move and the passes that followed it (all played before, so
        trusted)."""
        replayed = [self._undone.pop()]
        self.game.push(replayed[0])
        while self._undone and self._undone[-1].kind == "pass":
            replayed.append(self._undone.pop())
            self.game.push(replayed[-1])
        return replayed
