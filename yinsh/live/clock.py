"""A live game's clocks, from the relay's timestamps alone: one rule every page computes alike.

Every message the relay stores carries the time it was stored (JetStream's own clock, neutral
between the players). A player's turn starts when the message that gave them the turn was
stored and ends when their move was stored; the time between, less a **lag allowance**, is taken
from their clock, then the increment is added. Every page — both players' and every watcher's —
folds the same stored messages in the same order and so shows the same clocks, and a finished
game's record can be checked by anyone from the same figures.

The allowance is lichess's idea, bounded the same way: the network's delay is not the player's
thinking, but a page could claim any delay, so what it may claim comes from a quota that starts
at :data:`LAG_QUOTA_START_MS`, refills by :data:`LAG_QUOTA_GAIN_MS` a move and never holds more
than :data:`LAG_QUOTA_MAX_MS`. A move says how long its player thought by their page's clock
(``think_ms``: from the turn's arrival on their page to their click); the rest of the turn is the
delay claimed, paid from the quota as far as it goes.

Each player's first move is not timed (as on lichess: the game may still be aborted then); the
clocks run from each player's second move. With days per move (``2d``), each turn has the
same time, whatever the last one used.

>>> control = TimeControl.parse("3+2")
>>> str(control), control.tag()
('3+2', '180+2')
>>> clocks = Clocks(control)
>>> clocks.start(0)
>>> clocks.move(1_000, 0) and clocks.move(3_000, 0)  # the first move of each: not timed
True
>>> clocks.remaining(0, 3_000), clocks.to_move
(180000, 0)
>>> clocks.move(13_500, 10_000)  # 10.5 s by the relay, 10 s thought: 0.5 s allowed for the delay
True
>>> clocks.remaining(0, 13_500)  # 180 - 10 + 2
172000
>>> clock_text(172_000), clock_text(9_450)
('2:52', '9.4')
"""

from __future__ import annotations

from typing import Final

from yinsh.errors import NotationError

__all__ = ["TimeControl", "Clocks", "clock_text", "PRESETS", "DAY_CHOICES",
           "LAG_QUOTA_START_MS", "LAG_QUOTA_GAIN_MS", "LAG_QUOTA_MAX_MS"]

PRESETS: Final = ("3+2", "5+3", "10+5", "15+10")
"""The real-time controls offered first: minutes each, seconds added a move."""
DAY_CHOICES: Final = (1, 2, 3, 7)
"""The days per move offered."""
MAX_MINUTES: Final = 180
MAX_INCREMENT: Final = 180
MAX_DAYS: Final = 14
LAG_QUOTA_START_MS: Final = 2_000
"""The delay a player may have allowed before their first timed move."""
LAG_QUOTA_GAIN_MS: Final = 1_000
"""What each move adds to a player's quota (a slow network costs at most this much less a move)."""
LAG_QUOTA_MAX_MS: Final = 3_000
"""The most a player's quota holds."""
DAY_MS: Final = 86_400_000


class TimeControl:
    """How long each player has: nothing (``none``), ``seconds`` each plus ``increment``
    seconds a move (``real``), or ``days`` per move (``days``). :meth:`parse` reads the short
    form players write (``3+2``, minutes and seconds; ``2d``; ``none``); :meth:`tag` writes the
    record's ``TimeControl`` tag (``180+2``; ``1/172800``, one move in two days; ``-``)."""

    __slots__ = ("kind", "seconds", "increment", "days")

    def __init__(self, kind: str, seconds: int = 0, increment: int = 0, days: int = 0) -> None:
        self.kind = kind
        self.seconds = seconds
        self.increment = increment
        self.days = days

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``none`` (or empty), ``M+S`` (minutes 1–180, or a fraction down to ``0.25``, a whole
        number of seconds; seconds added 0–180) or ``Nd`` (days 1–14);
        :class:`~yinsh.errors.NotationError` naming the text and the reason otherwise."""
        text = text.strip().lower()
        if text in ("", "none", "-"):
            return cls("none")
        if text.endswith("d") and text[:-1].isdigit():
            days = int(text[:-1])
            if not 1 <= days <= MAX_DAYS:
                raise NotationError(f"time control {text!r}: days per move must be 1 to {MAX_DAYS}")
            return cls("days", days=days)
        minutes, plus, increment = text.partition("+")
        whole, point, fraction = minutes.partition(".")
        if not (plus and whole.isdigit() and (not point or fraction.isdigit()) and increment.isdigit()):
            raise NotationError(f"time control {text!r}: write minutes+seconds (3+2), days per move (2d) or none")
        quarters = int(whole) * 4 + (int((fraction + "00")[:2]) * 4 // 100 if point else 0)
        if (point and (fraction + "00")[:2] not in ("00", "25", "50", "75") or fraction[2:].strip("0")) \
                or not 1 <= quarters <= MAX_MINUTES * 4 or int(increment) > MAX_INCREMENT:
            raise NotationError(f"time control {text!r}: minutes must be 1 to {MAX_MINUTES} (or 0.25, 0.5, 0.75), "
                                f"seconds added 0 to {MAX_INCREMENT}")
        seconds = quarters * 15
        return cls("real", seconds, int(increment))

    @classmethod
    def from_tag(cls, tag: str) -> TimeControl:
        """The control a record's ``TimeControl`` tag names (what :meth:`tag` writes)."""
        tag = tag.strip()
        if tag in ("", "-"):
            return cls("none")
        if tag.startswith("1/") and tag[2:].isdigit() and int(tag[2:]) % (DAY_MS // 1000) == 0:
            return cls.parse(f"{int(tag[2:]) // (DAY_MS // 1000)}d")
        seconds, plus, increment = tag.partition("+")
        if plus and seconds.isdigit() and increment.isdigit() and int(seconds) % 15 == 0:
            return cls.parse(f"{_minutes(int(seconds))}+{increment}")
        raise NotationError(f"TimeControl tag {tag!r}: not one this game writes (180+2, 1/86400 or -)")

    def tag(self) -> str:
        """The record's ``TimeControl`` tag, in seconds as PGN writes it."""
        if self.kind == "real":
            return f"{self.seconds}+{self.increment}"
        if self.kind == "days":
            return f"1/{self.days * DAY_MS // 1000}"
        return "-"

    def __str__(self) -> str:
        if self.kind == "real":
            return f"{_minutes(self.seconds)}+{self.increment}"
        if self.kind == "days":
            return f"{self.days}d"
        return "none"

    def __repr__(self) -> str:
        return f"<TimeControl {self}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TimeControl) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    def describe(self) -> str:
        """``3 minutes + 2 seconds a move``, ``2 days a move``, ``no clock``."""
        if self.kind == "real":
            added = f" + {self.increment} second{'s' if self.increment != 1 else ''} a move" if self.increment else ""
            if self.seconds < 60:
                return f"{self.seconds} seconds{added}"
            minutes = _minutes(self.seconds)
            return f"{minutes} minute{'s' if minutes != '1' else ''}{added}"
        if self.kind == "days":
            return f"{self.days} day{'s' if self.days != 1 else ''} a move"
        return "no clock"


class Clocks:
    """Both players' clocks through one game, folded from its stored messages' times.

    :meth:`start` at the game's start, :meth:`move` at each move in order; :meth:`remaining`
    gives a player's time at any moment (the player to move's running), :meth:`out_of_time`
    whether the player to move had none left at a moment. ``spent`` lists, for each move, the
    mover's time left after it (the record's ``[%clk]``: :func:`yinsh.pgn.clock_comment`; with
    days per move, what was left of the turn). Colour 0 is White, 1 Black."""

    __slots__ = ("control", "left", "quota", "turn_start", "to_move", "moves", "spent")

    def __init__(self, control: TimeControl) -> None:
        self.control = control
        base = control.seconds * 1000 if control.kind == "real" else control.days * DAY_MS
        self.left = [base, base]
        self.quota = [LAG_QUOTA_START_MS, LAG_QUOTA_START_MS]
        self.turn_start = 0
        self.to_move = 0
        self.moves = 0
        self.spent: list[int] = []

    def start(self, time_ms: int) -> None:
        """The game started (its start stored at ``time_ms``): White to move."""
        self.turn_start = time_ms
        self.to_move = 0

    def timed(self) -> bool:
        """Whether the player to move is on the clock (a clock is kept, and it is not their first move)."""
        return self.control.kind != "none" and self.moves >= 2

    def charged(self, time_ms: int, think_ms: int | None = None) -> int:
        """What the player to move would be charged for a move stored at ``time_ms`` (their
        page saying ``think_ms``; ``None``: no allowance, as for a moment no move marks)."""
        elapsed = max(0, time_ms - self.turn_start)
        if think_ms is None:
            return elapsed
        return elapsed - min(max(0, elapsed - max(0, think_ms)), self.quota[self.to_move])

    def remaining(self, colour: int, now_ms: int) -> int:
        """``colour``'s time left at ``now_ms`` (the relay's clock, or a page's estimate of it),
        never below 0; with no clock, 0."""
        if self.control.kind == "none":
            return 0
        left = self.left[colour]
        if colour == self.to_move and self.timed():
            left -= self.charged(now_ms)
        return max(0, left)

    def out_of_time(self, now_ms: int) -> bool:
        """Whether the player to move has lost on time by ``now_ms``: no move of theirs stored
        after it could be on time, whatever delay it claimed (what a claim must show)."""
        colour = self.to_move
        return self.timed() and self.charged(now_ms) - self.quota[colour] >= self.left[colour]

    def pass_turn(self) -> None:
        """The player to move passed (no ring could move: nobody chose it, nothing is charged)."""
        self.spent.append(self.left[self.to_move])
        self.to_move ^= 1

    def move(self, time_ms: int, think_ms: int) -> bool:
        """The player to move moved (stored at ``time_ms``, thought ``think_ms`` by their page):
        their clock charged and the turn passed on; ``False`` (and nothing changed) when their
        time had run out before the move was stored — the game is lost on time then."""
        colour = self.to_move
        if self.timed():
            charge = self.charged(time_ms, think_ms)
            if charge >= self.left[colour]:
                return False
            allowed = self.charged(time_ms) - charge
            self.quota[colour] = min(LAG_QUOTA_MAX_MS, self.quota[colour] - allowed + LAG_QUOTA_GAIN_MS)
            if self.control.kind == "real":
                self.left[colour] += self.control.increment * 1000 - charge
                self.spent.append(self.left[colour])
            else:  # days per move: the next turn has the whole time again
                self.spent.append(self.left[colour] - charge)
        else:
            self.spent.append(self.left[colour])
        self.moves += 1
        self.turn_start = time_ms
        self.to_move = colour ^ 1
        return True


def _minutes(seconds: int) -> str:
    """``seconds`` (a multiple of 15) as minutes the short form writes: ``3``, ``0.25``, ``1.5``."""
    quarter = ("", ".25", ".5", ".75")[seconds % 60 // 15]
    return str(seconds // 60) + quarter


def clock_text(ms: int) -> str:
    """A clock as a page shows it: ``2:52``, ``1:02:05``, tenths under 10 s (``9.4``), days
    and hours for days per move (``2d 3h``)."""
    ms = max(0, ms)
    if ms < 10_000:
        return f"{ms // 1000}.{ms % 1000 // 100}"
    seconds = ms // 1000
    if seconds >= 86_400:
        return f"{seconds // 86_400}d {seconds % 86_400 // 3600}h"
    hours, minutes, seconds = seconds // 3600, seconds % 3600 // 60, seconds % 60
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"

