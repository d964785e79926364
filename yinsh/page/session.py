"""One game at the page, browser-free: everything between a person's input and what the page shows.

The page is one-way (docs/ARCHITECTURE.md): an input — a click turned into a
:class:`~yinsh.turn.Turn` decision, a button, a key, the computer's answer — calls a method
of :class:`Session`; :func:`yinsh.page.status.status` then says what the page shows (drawn by
:mod:`yinsh.web.view`) and ``session.computer.requests()`` (:class:`~yinsh.page.computer.ComputerPlayer`)
what the computer is to be asked (sent by :mod:`yinsh.web.client`). Nothing here touches the DOM, a
timer or the worker, so the page's logic is tested under CPython, and the module runs
unchanged on MicroPython in the page.

Every change of the position or of the players bumps :attr:`Session.generation`; an answer
of the computer carries the generation it was asked for and is dropped (counted in
:attr:`ComputerPlayer.discarded <yinsh.page.computer.ComputerPlayer.discarded>`) when the game has moved on.

>>> from yinsh.page.settings import Settings
>>> session = Session(Game(), Settings(black="ai-2"))
>>> session.click_point(parse_point("e3"))
>>> session.game.record(), [r.kind for r in session.computer.requests()]
('1.e3', ['move'])
>>> request = session.computer.requests()[0]
>>> session.computer.receive_move(request, '{"ok": true, "move": "a5"}')
>>> from yinsh.page.words import prompt
>>> session.game.record(), prompt(session.turn)
('1.e3 2.a5', 'White: place a ring on an empty point')
"""

from __future__ import annotations

from ..board import parse_point, point_name  # noqa: F401 (parse_point: the doctests)
from ..game import COLORS, Game
from ..move import Move
from ..render import Animation
from ..turn import Phase, Turn
from .access import rows_through
from .computer import GRAPHS_KEPT, NAMES, ComputerPlayer, frames_of
from .guide import guide_line
from .history import History
from .settings import REMOTE, Settings, ai_level
from .sounds import decision_cues, move_cues
from .words import INPUT_MODES, MOUSE, several_rows

__all__ = ["Session", "Motion", "NAMES", "GRAPHS_KEPT", "NOTICES_KEPT"]

NOTICES_KEPT = 2
"""How many notices the page keeps and shows, the newest."""

class Motion:
    """How the board shows the change just made, once: ``animate`` is the
    :class:`~yinsh.render.Animation` of the move (``FLIPS`` for a dragged ring); ``frames`` the
    steps of a computer's move with removals (a :class:`~yinsh.render.Picture` and how long
    each shows); ``sounds`` what is
    heard (:data:`yinsh.page.sounds.CUES`, in order). ``token`` tells one motion from the next:
    the view plays each once."""

    __slots__ = ("token", "animate", "frames", "sounds")

    def __init__(self, token: int, animate: Animation = Animation.NONE, frames: list | None = None,
                 sounds: tuple[str, ...] = ()) -> None:
        self.token = token
        self.animate = animate
        self.frames = frames or []
        self.sounds = sounds


class Session:
    """The game, the turn being built, its history, who plays, the review, and the computer
    player (:attr:`computer`: its worker, its questions and answers)."""

    def __init__(self, game: Game, settings: Settings, notices: list[str] | None = None, seed: int = 0) -> None:
        self.generation = 0
        """Grows at every change of position or players: an answer for an older one is stale."""
        self.game = game
        self.settings = settings
        self.history = History(game)
        self.turn = Turn(game)
        self.notices: list[str] = []
        self.seed = seed
        """The computer's seed for this game (a new game, a new seed)."""
        self.reviewing: int | None = None
        """The number of moves of the past position shown, or ``None`` (the game as it is)."""
        self.paused = False
        """Whether two computers playing each other are paused."""
        self.result_closed = False
        """Whether the game's result was put away (it shows again after any change)."""
        self.computer = ComputerPlayer(self)
        """The computer player: the worker's state, the questions to ask, what answers do."""
        self.motion = Motion(0)
        self.message = ""
        """The answer to the last input (why a click did nothing, the hint found, …)."""
        self.guide = True
        """Whether the first-game guide is shown (the visitor's choice)."""
        self._guide_for: tuple[Turn, int, str] | None = None
        self.pointer: tuple[int, float | None, float | None, bool] | None = None
        """Where the pointer or the keyboard's focus is on the board: (point, x, y, by key),
        what the board previews (:func:`yinsh.page.preview.preview`); ``None``: off the board."""
        self.input_mode = MOUSE
        """How the person here played last: :data:`~yinsh.page.words.MOUSE`,
        :data:`~yinsh.page.words.TOUCH` (a touch screen with no mouse) or
        :data:`~yinsh.page.words.KEYBOARD`; the page's words are those of that input."""
        self.sound = False
        """Whether moves make sounds (the visitor's choice; off until switched on)."""
        self.remote_words = ""
        """What a click on the board says while a player on another device is to move, where the
        words of a game by link would be wrong (a live room's: its :class:`~yinsh.page.live.Follower`
        sets them); ``""``: a game by link's."""
        self.record_extras: tuple[dict[str, str], list[str]] | None = None
        """What a saved record adds to the game's own tags and moves, where the game is kept
        elsewhere (a live room's, set by its Follower): tags (its result, the time control) and
        a comment a move (each move's clock); ``None``: nothing."""
        self.open(game, settings, notices or [], seed)

    # ------------------------------------------------------------------ what the page tells it

    def notice(self, text: str) -> None:
        """A notice for the player: the newest :data:`NOTICES_KEPT` are kept (older ones have
        been read or no longer apply; more would push the board down)."""
        self.notices = (self.notices + [text])[-NOTICES_KEPT:]

    def say(self, text: str) -> None:
        """The answer to the last input, in place of the one before."""
        self.message = text

    def set_input_mode(self, mode: str) -> None:
        """The input the person here used last (one of :data:`~yinsh.page.words.INPUT_MODES`):
        the page's words name its gestures or keys (:attr:`input_mode`)."""
        if mode not in INPUT_MODES:
            raise ValueError(f"unknown input mode {mode!r}")
        self.input_mode = mode

    def set_guide(self, on: bool) -> None:
        """The visitor's choice: the first-game guide shown or not."""
        self.guide = on

    def set_sound(self, on: bool) -> None:
        """The visitor's choice: moves make sounds or not."""
        self.sound = on

    # ------------------------------------------------------------------ players

    @property
    def players(self) -> dict[str, str]:
        return self.settings.players

    def level_of(self, color: str) -> int | None:
        return ai_level(self.players[color])

    def computer_to_move(self) -> int | None:
        """The level of the computer player to move, if one is and the game goes on."""
        if self.game.result is not None:
            return None
        return self.level_of(self.game.to_move)

    def remote_to_move(self) -> bool:
        """Whether the player to move plays by link on another device."""
        return self.game.result is None and self.players[self.game.to_move] == REMOTE

    def person_to_move(self) -> bool:
        """Whether the person at this device is to move (the game goes on, and neither a
        computer nor the opponent playing by link is to move)."""
        return self.game.result is None and self.computer_to_move() is None and not self.remote_to_move()

    def both_computers(self) -> bool:
        return all(self.level_of(c) is not None for c in COLORS)

    def plays_computer(self) -> bool:
        """Whether a computer plays a colour (the page then starts the worker at once)."""
        return any(self.level_of(c) is not None for c in COLORS)

    def name_of(self, color: str) -> str:
        level = self.level_of(color)
        return NAMES[color] + ("" if level is None else f" (AI {level})")

    def not_here(self) -> set[str]:
        """The colours nobody plays at this device: computers, and the opponent playing by
        link (Undo goes back to, and Redo stops at, a decision made here)."""
        return {c for c in COLORS if self.level_of(c) is not None or self.players[c] == REMOTE}

    def in_progress(self) -> bool:
        """Whether starting again would throw a game away: moves played and not over."""
        return bool(self.game.moves) and self.game.result is None

    # ------------------------------------------------------------------ the game

    def open(self, game: Game, settings: Settings, notices: list[str], seed: int | None = None) -> None:
        """Make ``game`` the session's game, played by ``settings``' players, with ``notices``:
        nothing half built, nothing reviewed, not paused; then the moves nobody chooses."""
        self.game = game
        self.settings = settings
        self.history = History(game)
        self.notices = list(notices)[-NOTICES_KEPT:]
        self.message = ""
        self.reviewing = None
        self.paused = False
        if seed is not None:
            self.seed = seed
        self.turn = Turn(game)
        self._changed()
        self._auto_moves()

    def new_game(self, settings: Settings | None, seed: int) -> None:
        """A fresh game with ``settings`` (or the current ones) and a new seed for the computer."""
        settings = self.settings if settings is None else settings
        self.open(Game(settings.variant), settings, [], seed)  # type: ignore[arg-type]

    def _changed(self) -> None:
        """The position or the players changed: questions about the old ones are stale now."""
        self.generation += 1
        self.computer.forget()
        self.result_closed = False

    def play_by_hand(self, color: str) -> None:
        """``color`` is played by the person here from now on (its computer could not move)."""
        players = dict(self.players)
        players[color] = "human"
        s = self.settings
        self.settings = Settings(white=players["white"], black=players["black"], variant=s.variant, delay=s.delay)
        self._changed()

    def show_move(self, animate: Animation = Animation.NONE, frames: list | None = None,
                  sounds: tuple[str, ...] = ()) -> None:
        """The move just made shows once, as :class:`Motion` says (the view plays each token once)."""
        self.motion = Motion(self.motion.token + 1, animate, frames, sounds)

    def commit(self, move: Move) -> None:
        """Play ``move`` (checked) and everything that follows a move: what was undone can no
        longer be redone, a new turn, the moves nobody chooses, stale questions dropped."""
        self.history.play(move)
        self.turn = Turn(self.game)
        self._changed()
        self._auto_moves()

    def play_arrived(self, move: Move) -> list:
        """Play ``move``, made elsewhere (the computer's, or a live room's: checked there by the
        rules core), drawn in steps and heard; the frames it is drawn in."""
        try:
            frames = frames_of(self.game, move)
        except Exception:  # only the drawing in steps is lost: the move is played all the same
            frames = []
        sounds = move_cues(self.game.state, move)
        self.commit(move)
        self.show_move(Animation.NONE if move.kind == "pass" else Animation.SLIDE, frames, sounds)
        return frames

    def _auto_moves(self) -> None:
        """Play the moves nobody chooses (a pass when no ring can move), with a notice."""
        while self.turn.move is not None:
            if self.turn.passed:
                self.notice(f"{self.turn.name} has no ring that can move and passes.")
            self.history.play(self.turn.move)
            self.turn = Turn(self.game)
            self._changed()

    # ------------------------------------------------------------------ a person's decisions

    def board_locked(self) -> str:
        """Why the person at this device may not act on the board now, or ``""``."""
        if self.reviewing is not None:
            return "This is a past position: Back to game to play on."
        if self.computer_to_move() is not None:
            return f"{self.name_of(self.game.to_move)} is to move: wait for it."
        if self.remote_to_move():
            return self.remote_words or f"{NAMES[self.game.to_move]} plays on their own device: send them the link."
        return ""

    def locked_out(self) -> bool:
        """True (and the message says why) when the person here may not act on the board now."""
        locked = self.board_locked()
        if locked:
            self.message = locked
        return bool(locked)

    def click_point(self, point: int, dragged: bool = False) -> None:
        """A click (a tap, Enter, a ring dropped) on ``point``."""
        self._decide(lambda: self._click(point), dragged)

    def _click(self, point: int) -> str | None:
        """The turn's answer to a click on ``point``; where several rows run through it, the
        page's own words for the input used (the turn chooses none of them)."""
        turn = self.turn
        several = turn.phase is Phase.REMOVE_ROW and len(rows_through(turn, point)) > 1
        hint = turn.click_point(point)
        return several_rows(point_name(point), self.input_mode) if hint and several else hint

    def click_row(self, window: int) -> None:
        """A click on the candidate row ``window`` (on the board or its button)."""
        self._decide(lambda: self.turn.click_row(window))

    def _decide(self, act, dragged: bool = False) -> None:
        """Make a decision of the turn; once it completes a move, commit the move."""
        if self.locked_out():
            return
        turn = self.turn
        moved_before = turn.ring_move
        removed_before = len(turn.removals)
        version = turn.version
        self.message = act() or ""
        if turn.version == version and turn.move is None:
            return
        animate = Animation.NONE
        sounds = decision_cues(turn, moved_before is None, removed_before)
        if turn.ring_move is not None and moved_before is None:
            animate = Animation.FLIPS if dragged else Animation.SLIDE  # a dragged ring is already there
        move = turn.move
        if move is not None:
            self.notices = []
            if move.kind == "place":
                animate = Animation.SLIDE
            self.commit(move)
        self.show_move(animate, sounds=sounds)

    def cancel(self) -> bool:
        """Escape, or a click beyond the points: put a picked ring back, unchoose a row, put
        the game's result away."""
        if self.reviewing is None and self.turn.cancel():
            self.message = ""
            return True
        return self.close_result()

    def close_result(self) -> bool:
        """Put the game's result away (its close button, Escape, a click beside it); whether
        it was shown. The prompt still says how the game ended."""
        shown = self.game.result is not None and self.reviewing is None and not self.result_closed
        self.result_closed = True
        return shown

    def point_to(self, point: int | None, x: float | None = None, y: float | None = None,
                 by_key: bool = False) -> None:
        """The pointer is over ``point`` at ``(x, y)`` (SVG units), or the keyboard's focus is
        on it (``by_key``); ``None``: neither is on the board."""
        self.pointer = None if point is None else (point, x, y, by_key)

    def pick(self, point: int) -> None:
        """A ring starts being dragged: it is the ring picked (another one is put back)."""
        if self.turn.selected_ring != point:
            self.turn.cancel()
            self.turn.click_point(point)
            self.message = ""

    # ------------------------------------------------------------------ undo and redo

    def undo(self) -> None:
        """Take back the turn being built, else the last move a person chose (and the
        computer's answer to it); between two computers, the last move, and pause."""
        self.reviewing = None
        if self.turn.reset():
            self.message = ""
            return
        if not self.history.undo(self.not_here()):
            self.message = "Nothing to undo"
            return
        self._after_history()

    def redo(self) -> None:
        """Play again what Undo took back: a person's turn and the computer's answer to it;
        between two computers, one move (and stay paused)."""
        self.reviewing = None
        if not self.history.can_redo():
            self.message = "Nothing to redo"
            return
        self.history.redo(self.not_here())
        self._after_history()

    def _after_history(self) -> None:
        if self.both_computers():
            self.paused = True
        self.turn = Turn(self.game)
        self.notices = []
        self.message = ""
        self._changed()
        self._auto_moves()

    def toggle_pause(self) -> None:
        """Pause or resume a game between two computers (a search under way is dropped)."""
        self.paused = not self.paused
        self._changed()

    # ------------------------------------------------------------------ reviewing the past

    def review(self, index: int) -> None:
        """Show the position after ``index`` moves (0: the start), not playable. The game goes
        on meanwhile: a computer's move is played into it and the review stays."""
        if not self.game.moves:
            self.message = "No move to review yet."
            return
        self.reviewing = max(0, min(index, len(self.game.moves)))
        self.message = ""

    def step_review(self, step: str) -> None:
        """``first``, ``prev``, ``next`` or ``last``, from the move shown (the last if none)."""
        count = len(self.game.moves)
        at = count if self.reviewing is None else self.reviewing
        self.review({"first": 0, "prev": at - 1, "next": at + 1, "last": count}[step])

    def leave_review(self) -> bool:
        """Back to the game: the board as it is now, playable; whether anything changed."""
        if self.reviewing is None:
            return False
        self.reviewing = None
        self.message = ""
        return True

    def guide_line(self) -> str:
        """The guide's line for the turn being built ('' when off or nobody here is to move)."""
        if not self.guide or not self.person_to_move() or self.reviewing is not None:
            return ""
        turn = self.turn
        if self._guide_for is None or self._guide_for[0] is not turn or self._guide_for[1] != turn.version:
            self._guide_for = (turn, turn.version, guide_line(turn))
        return self._guide_for[2]
