"""How a game ended: one value, and the one place that words it.

``Game.outcome`` (and :func:`yinsh.state.outcome`) is an :class:`Outcome` once the game is
over, ``None`` before. Every place that tells the end of a game words it here: the page's
banner and prompt (the long form), what a screen reader hears (the short form), the
``Result`` and ``Termination`` tags of records, the command line.

>>> done = Outcome("rings", "white", (3, 1), 3)
>>> done.result, done.text(), done.text(short=True)
('1-0', 'White wins: three rings removed (3 to 1)', 'White wins 3 to 1')
>>> Outcome("markers", None, (1, 1), 3).text()
'Draw: the markers ran out with 1 ring removed each'
"""

from __future__ import annotations

from typing import Final, NamedTuple

from .compat import capitalize

__all__ = ["Outcome", "TERMINATIONS"]

TERMINATIONS: Final = ("rings", "markers", "passes")
"""How a game ends: a player removed the rings that win, the pool ran out of markers, or both
players passed in a row (the last two are won on rings removed, or drawn)."""

_WHY: Final = {"markers": "the markers ran out", "passes": "both players passed in a row"}
_WHY_SHORT: Final = {"rings": "", "markers": ": the markers ran out", "passes": ": both players passed"}


def _rings(count: int) -> str:
    return f"{count} ring{'s' * (count != 1)}"


class Outcome(NamedTuple("Outcome", [("termination", str), ("winner", "str | None"), ("score", "tuple[int, int]"),
                                     ("rings_to_win", int)])):
    """How a game ended, like python-chess's ``Outcome(termination, winner)``.

    ``termination`` is one of :data:`TERMINATIONS`; ``winner`` is ``'white'``, ``'black'`` or
    ``None`` for a draw; ``score`` the rings removed by White and by Black; ``rings_to_win``
    3 in the standard game, 1 in Blitz.
    """

    __slots__ = ()

    @property
    def result(self) -> str:
        """The result as records write it: ``'1-0'``, ``'0-1'`` or ``'1/2-1/2'``."""
        return {"white": "1-0", "black": "0-1"}.get(self.winner or "", "1/2-1/2")

    @property
    def title(self) -> str:
        """Who won, as the result banner's heading says it: ``'White wins'`` or ``'Draw'``."""
        return f"{capitalize(self.winner)} wins" if self.winner else "Draw"

    @property
    def reason(self) -> str:
        """Why, as the long form words it after the title: ``'three rings removed (3 to 1)'``.

        >>> done = Outcome("passes", "black", (1, 2), 3)
        >>> done.text() == f"{done.title}: {done.reason}"
        True
        """
        white, black = self.score
        most, least = max(white, black), min(white, black)
        if self.termination == "rings":
            need = self.rings_to_win
            return f"{'three rings' if need == 3 else _rings(need)} removed ({most} to {least})"
        why = _WHY[self.termination]
        if self.winner is None:
            return f"{why} with {_rings(white)} removed each"
        return f"{why}, {capitalize(self.winner)} removed {_rings(most)} to {least}"

    def text(self, short: bool = False) -> str:
        """The end of the game in words: a sentence for the page's banner, or with ``short``
        the few words a screen reader says (``'Draw, 1 to 1: the markers ran out'``)."""
        white, black = self.score
        most, least = max(white, black), min(white, black)
        winner = capitalize(self.winner) if self.winner else None
        if short:
            why = _WHY_SHORT[self.termination]
            return f"{winner} wins {most} to {least}{why}" if winner else f"Draw, {white} to {black}{why}"
        return f"{self.title}: {self.reason}"
