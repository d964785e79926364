"""The computer player as the page sees it, browser-free: questions, answers, moves in steps.

The page asks the computer three things (:class:`Request`): its move, a hint, and the values
of the evaluation graph; the worker (:mod:`yinsh.web.worker`) answers with JSON text, read by
:func:`answer_of`. A ring placement (the computer's, or a hint while rings are placed) needs no
search: the page answers it itself, at once, with the worker's own placement rule
(:mod:`yinsh.ai.placement`, the same choice for the same seed), so the computer's first five
moves never wait for the worker to start (:meth:`ComputerPlayer.answer_here`). A computer's
move that removes rows is drawn in steps (:func:`frames_of`), so that a person sees which row
and ring went. What the session asks and does with each answer is :class:`ComputerPlayer`.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ..game import Game
from ..move import Move
from ..render import Animation, Picture
from ..turn import Decision, Turn
from .reasons import hint_reason

if TYPE_CHECKING:
    from typing import Protocol

    from .settings import Settings

    class Table(Protocol):
        """What the computer player reads and calls of the game it plays at (the page's
        :class:`~yinsh.page.session.Session`): the game, the players, the messages."""

        game: Game
        settings: Settings
        generation: int
        seed: int
        paused: bool
        reviewing: int | None

        def computer_to_move(self) -> int | None: ...
        def remote_to_move(self) -> bool: ...
        def both_computers(self) -> bool: ...
        def play_arrived(self, move: Move) -> list: ...
        def play_by_hand(self, color: str) -> None: ...
        def say(self, text: str) -> None: ...
        def notice(self, text: str) -> None: ...

__all__ = ["Request", "ComputerPlayer", "answer_of", "frames_of", "HINT_LEVEL", "ROW_MS", "MOVE_MS", "PLACE_MS",
           "GRAPHS_KEPT", "NAMES"]

HINT_LEVEL = 3
"""The level whose move the Hint button shows."""
ROW_MS = 650
"""How long a row and its ring stay highlighted before a computer player removes them."""
MOVE_MS = 700
"""How long a computer's ring move shows (slide and flips) before its own rows are removed."""
PLACE_MS = 250
GRAPHS_KEPT = 8
"""How many records' evaluation graphs are remembered."""
NAMES = {"white": "White", "black": "Black"}


class Request:
    """A question for the computer: ``kind`` is ``move`` (the computer player's move),
    ``hint`` (the move level :data:`HINT_LEVEL` would play) or ``evaluate`` (the values of
    the evaluation graph); ``text`` is the position code (or, to evaluate, the record)."""

    __slots__ = ("kind", "generation", "text", "level", "seed", "pause_ms", "here")

    def __init__(self, kind: str, generation: int, text: str, level: int = 0, seed: int = 0,
                 pause_ms: int = 0, here: bool = False) -> None:
        self.kind = kind
        self.generation = generation
        self.text = text
        self.level = level
        self.seed = seed
        self.pause_ms = pause_ms
        """How long after the last computer move this answer may be shown, at the earliest."""
        self.here = here
        """Whether the page answers it itself (:meth:`ComputerPlayer.answer_here`): no worker needed."""

    @property
    def key(self) -> tuple:
        """The same question asked twice has the same key (the client asks it once)."""
        return (self.kind, self.generation, self.text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Request) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Request({self.kind!r}, generation={self.generation}, level={self.level})"


def answer_of(text: str) -> dict:
    """The worker's JSON answer; ``ValueError`` saying why when it is no answer.

    >>> answer_of('{"ok": true, "move": "e3"}')["move"]
    'e3'
    >>> answer_of('{"ok": false, "error": "the game is over"}')
    Traceback (most recent call last):
    ValueError: the game is over
    """
    answer = json.loads(text)
    if not isinstance(answer, dict) or not answer.get("ok"):
        error = answer.get("error", "no answer") if isinstance(answer, dict) else "no answer"
        raise ValueError(str(error))
    return answer


def frames_of(game: Game, move: Move) -> list[tuple[Picture, int]]:
    """The steps in which a computer's ``move`` with removals is drawn: what the board shows
    and how long each shows (the last step, the position after the move, is the
    ordinary drawing). A move without removals has none.

    >>> from yinsh.state import make_state
    >>> s = make_state(["e7", "k8", "h10", "b7", "c8"], ["a5", "k10", "j11", "i11", "h11"], ["e3", "e4", "e5", "e6"])
    >>> frames = frames_of(Game.from_state(s, 40), Move.from_text("e7-e8;xe3-e7xk8"))
    >>> [ms for _, ms in frames]
    [700, 650]
    """
    if not move.before and not move.after:
        return []
    turn = Turn(game, auto_row=False)
    frames: list[tuple[Picture, int]] = []

    def removal_frame(removal, last) -> None:
        frames.append((Picture(turn.state, last, rows=(removal.row,), selected_row=removal.row,
                               marked=(removal.ring,)), ROW_MS))
        turn.choose(Decision("row", removal.row))
        turn.choose(Decision("ring", removal.ring))

    for removal in move.before:
        removal_frame(removal, None)
    last = None
    if move.kind == "move" and move.source is not None and move.target is not None:
        turn.choose(Decision("source", move.source))
        turn.choose(Decision("target", move.target))
        last = (move.source, move.target)
        frames.append((Picture(turn.state, last, animation=Animation.SLIDE), MOVE_MS))
    for removal in move.after:
        removal_frame(removal, last)
    return frames


class ComputerPlayer:
    """The computer player as the session sees it (``session.computer``): the worker's state,
    what to ask it, and what each answer does — a move is played into the session, a hint
    shown, graph values kept, a failure noticed. It holds the state of its questions and
    answers; the game, the players and the messages stay the session's."""

    def __init__(self, session: Table) -> None:
        self.session = session
        self.state = "off"
        """The worker: ``off``, ``starting``, ``ready`` or ``failed``."""
        self.failure = ""
        """Why the worker failed (``state == "failed"``)."""
        self.discarded = 0
        """How many answers were dropped because the game had moved on."""
        self.graphs: dict[str, list[float] | str] = {}
        """Evaluation graph values by record, or why there are none."""
        self._graph_order: list[str] = []
        self.suggestion: Move | None = None
        """The hint found for the position shown, marked on the board."""
        self.suggesting = False
        """Whether a hint is asked for and not answered yet."""
        self.pause_ms = 0
        """Between two computers: how long the last move shows before the next is played."""

    def forget(self) -> None:
        """The position or the players changed: the hint and the pause were about the old ones."""
        self.suggestion = None
        self.suggesting = False
        self.pause_ms = 0

    def ask_hint(self) -> None:
        """The Hint button: ask for the move level :data:`HINT_LEVEL` would play."""
        if self.session.game.result is not None:
            self.session.say("The game is over.")
        elif self.session.computer_to_move() is not None:
            self.session.say("It is the computer's turn.")
        elif self.session.remote_to_move():
            self.session.say("It is your opponent's turn.")
        elif self.suggestion is None:
            self.suggesting = True

    def requests(self) -> list[Request]:
        """What the computer is to be asked now (the client asks each question once)."""
        if self.state == "failed":
            return []
        out = []
        level = self.session.computer_to_move()
        seed = self.session.seed + self.session.game.ply
        generation, position = self.session.generation, self.session.game.position()
        here = self.session.game.state.in_placement
        if level is not None and not self.session.paused:
            out.append(Request("move", generation, position, level, seed, self.pause_ms, here))
        if self.suggesting:
            out.append(Request("hint", generation, position, HINT_LEVEL, seed, here=here))
        if self.session.reviewing is not None and self.session.game.moves:
            record = self.session.game.record()
            if record not in self.graphs:
                out.append(Request("evaluate", self.session.generation, record))
        return out

    def waits_for_worker(self) -> bool:
        """Whether the computer's move or hint for the position now needs the worker and it is
        not up yet (a ring placement is made here: it never waits)."""
        return self.state in ("off", "starting") and not self.session.game.state.in_placement

    def answer_here(self, request: Request) -> str:
        """The page's own answer to ``request`` (one with ``here`` set, about the game as it is: a
        ring placement), as the worker would give it: the same rule, level and seed, so the
        same move.

        >>> from yinsh.page.session import Session
        >>> from yinsh.page.settings import Settings
        >>> session = Session(Game(), Settings(white="ai-3"), seed=5)
        >>> request = session.computer.requests()[0]
        >>> request.here, answer_of(session.computer.answer_here(request))["move"]
        (True, 'e6')
        """
        from ..ai.placement import placement_move  # the page's one module of the AI, imported when a computer places

        move = placement_move(self.session.game.state, request.seed, request.level)
        return json.dumps({"ok": True, "move": str(move), "ply": self.session.game.ply})

    def set_state(self, state: str, failure: str = "") -> None:
        """The client says how the worker is: ``starting``, ``ready`` or ``failed`` (and why).
        Once it has failed, the computer's colours are played by hand and a hint is refused."""
        self.state = state
        self.failure = failure
        if state != "failed":
            return
        level = self.session.computer_to_move()
        if level is not None and not self.session.paused:
            self.failed(self.session.game.to_move, f"the computer player is unavailable: {failure}")
        if self.suggesting:
            self.suggesting = False
            self.session.say(f"No hint: the computer player is unavailable: {failure}")

    def current(self, request: Request) -> bool:
        """Whether ``request`` is about the game as it is; if not, it is counted as discarded."""
        if request.generation == self.session.generation:
            return True
        self.discarded += 1
        return False

    def receive_move(self, request: Request, text: str) -> None:
        """The computer's move for ``request`` (its JSON answer), checked like any move and
        played, drawn in steps; dropped if the game has moved on since it was asked."""
        if not self.current(request):
            return
        color = self.session.game.to_move
        try:
            move = self.session.game.parse_move(str(answer_of(text)["move"]))
        except (ValueError, KeyError) as exc:
            self.failed(color, str(exc))
            return
        frames = self.session.play_arrived(move)
        if self.session.both_computers():
            shown = sum(ms for _, ms in frames) or (PLACE_MS if move.kind == "place" else MOVE_MS)
            self.pause_ms = shown + self.session.settings.delay

    def receive_hint(self, request: Request, text: str) -> None:
        """The hint for ``request``: marked on the board, named in the message, not played."""
        if not self.current(request):
            return
        self.suggesting = False
        try:
            move = self.session.game.parse_move(str(answer_of(text)["move"]))
        except (ValueError, KeyError) as exc:
            self.session.say(f"No hint: {exc}")
            return
        self.suggestion = move
        reason = hint_reason(self.session.game.state, move)
        self.session.say(f"Hint: {move} (what level {HINT_LEVEL} would play)" + (f": {reason}." if reason else "."))

    def receive_values(self, request: Request, text: str) -> None:
        """The evaluation graph's values for the record of ``request`` (kept by record)."""
        try:
            result: list[float] | str = [float(v) for v in answer_of(text)["values"]]
        except (ValueError, KeyError, TypeError) as exc:
            result = f"No evaluation graph: {exc}."
        if request.text not in self.graphs:
            self._graph_order.append(request.text)
        self.graphs[request.text] = result
        while len(self._graph_order) > GRAPHS_KEPT:
            del self.graphs[self._graph_order.pop(0)]

    def request_failed(self, request: Request, reason: str) -> None:
        """The client could not get an answer to ``request`` (``reason`` says why)."""
        if request.kind == "evaluate":
            self.receive_values(request, json.dumps({"ok": False, "error": reason}))
        elif self.current(request):
            if request.kind == "hint":
                self.suggesting = False
                self.session.say(f"No hint: {reason}")
            else:
                self.failed(self.session.game.to_move, reason)

    def failed(self, color: str, reason: str) -> None:
        """No traceback on the page: a notice, and the person plays that colour by hand."""
        name = NAMES[color]
        self.session.notice(f"The computer could not move for {name} ({reason}). {name} is played by hand now.")
        self.session.play_by_hand(color)
