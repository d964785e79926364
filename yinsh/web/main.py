"""The game page's glue (PyScript, main thread): DOM event → engine → redraw.

It holds no rule: what a click may do is asked of :class:`~yinsh.turn.Turn`, which reads
the legal moves; the board is drawn by :func:`~yinsh.render.board_svg`. Handlers are
attached once, to stable containers (event delegation survives every redraw), and never
let an exception escape: a wrong input gets a short hint, a bug a notice and a warning in
the console, never a traceback.

The computer player runs in a web worker (:mod:`yinsh.web.worker`), started after the page
is interactive: the page sends it a position code and gets a move back as text, so the
page stays responsive while it thinks. Every change of position bumps
:attr:`Page.generation`; an answer about an older generation is discarded, never played.

Undo and redo go through :class:`~yinsh.web.history.History` (every move is played through
it, so a new move clears the redo stack). Clicking a move of the list reviews the position
after it: the board shows the past and is not playable, the game itself is untouched; a
computer's move that arrives meanwhile is played into the game and the review stays where
it is (the list grows). The review area shows the evaluation graph
(:mod:`yinsh.web.graph`), whose values the worker computes once per record.

The rest of the page has its own modules, which this one wires in: records, links and the
saved game (:class:`~yinsh.web.keep.GameKeeper`), the Rules dialog, the guide and the theme
(:class:`~yinsh.web.learn.Learning`), the keyboard's moves along the lines and what a screen
reader is told (:mod:`yinsh.web.access`).

Testing hooks (DESIGN.md), updated after every change:

- ``<html>``: ``data-yinsh-ready`` once interactive; ``data-to-move`` (``white``, ``black``, or
  empty once the game is over); ``data-ai``: ``starting`` while the worker boots for a
  request, ``thinking`` while a computer player searches or a hint is sought, ``failed`` when
  the worker is unusable, else empty; ``data-ai-discarded``: how many answers were discarded
  because the position changed meanwhile; ``data-yinsh-ai-ready`` once the worker is up
  (``window.yinshAI`` is then its exports: ``scripts/bench_ai_web.py`` calls ``bench`` through
  it); ``data-yinsh-error`` once a handler failed; ``data-theme``, the palette applied.
- ``#board``: ``data-record``, ``data-position``, ``data-result``, ``data-phase``,
  ``data-to-move``, ``data-hint`` (the suggested move, or empty) and ``data-review`` (how many
  moves the reviewed position has played, or empty when the board shows the game); its SVG's
  ``data-point``, ``data-row``, ``data-dest`` and ``data-ring`` (:func:`~yinsh.render.board_svg`).
- The panel: every button's ``data-action``; ``data-ply`` on the moves of the list and the
  points of the evaluation graph; ``data-choice`` on the row buttons.
"""

from __future__ import annotations

import asyncio
import json

try:
    from pyodide.ffi import create_proxy, jsnull, to_js
    from pyscript import PyWorker, document, window
    from pyscript import config as PYSCRIPT_CONFIG
except ImportError:  # outside the browser: pytest still imports every module for its doctests
    create_proxy = document = window = jsnull = to_js = PyWorker = PYSCRIPT_CONFIG = None

from ..board import parse_point, point_name
from ..game import COLORS, Game
from ..move import Move, parse_row, row_name
from ..render import UNIT, board_svg, nearest_point, point_xy, ring_icon_svg
from ..state import RINGS_PER_PLAYER, pool
from ..turn import Decision, Phase, Turn, result_text
from . import (
    DELAYS,
    PLAYER_KINDS,
    REMOTE,
    STORAGE_KEY,
    VARIANTS,
    PageSetup,
    Settings,
    ai_level,
    game_url,
    open_page,
    player_label,
    settings_from_json,
    settings_to_json,
)
from .access import SHORTCUTS, START_POINT, Announcer, neighbour, point_labels, row_for_key, spoken_prompt
from .graph import eval_graph_svg
from .history import History, state_after
from .keep import ACTIONS, GameKeeper
from .learn import Learning

__all__ = ["Page", "start"]

DRAG_THRESHOLD_PX = 6
#: A touch target's size on the screen: a tap within half of it from a point is for that point
#: (the nearest one, where targets overlap, as they do on a phone: points are 34 px apart there).
TOUCH_TARGET_PX = 44
POOL_WARNING = 10
HINT_LEVEL = 3
"""The level whose move the Hint button shows."""
WORKER_URL = "./yinsh/web/worker.py"
WORKER_BOOT_SECONDS = 120.0
"""How long the worker may take to start before the page gives up on it."""
ROW_MS = 650
"""How long a row and its ring stay highlighted before a computer player removes them."""
MOVE_MS = 700
"""How long a computer's ring move shows (slide and flips) before its own rows are removed."""
PLACE_MS = 250
FOCUS_HALF = 24
"""Half the side of the keyboard focus's square around a point (SVG units: points are 50 apart)."""
GRAPHS_KEPT = 8
"""How many records' evaluation graphs the page remembers."""


def _find(element, selector: str):
    """``element.closest(selector)``, or ``None`` (JavaScript's null is ``jsnull`` in Pyodide)."""
    found = element.closest(selector) if element is not None and element is not jsnull else None
    return None if found is None or found is jsnull else found


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _warn(what: str) -> None:
    """A bug report in the console (a warning: the page itself shows a short notice)."""
    import traceback  # only now: it is not cheap to import in the browser

    window.console.warn(f"yinsh: {what}\n" + traceback.format_exc())


class WorkerFailure(Exception):
    """The computer player could not answer (the worker failed to start, or said why)."""


class Page:
    """The page's state: the game, the turn being built, the players and the AI worker."""

    def __init__(self) -> None:
        self.root = document.documentElement
        self.board = document.getElementById("board")
        self.banner = document.getElementById("banner")
        self.dialog = document.getElementById("new-game-dialog")
        self.live = document.getElementById("announcer")
        self.announcer = Announcer()
        self.announcements: list[str] = []
        self.flush_proxy = create_proxy(self.flush_announcements)
        self.focus_point = START_POINT
        """The point the keyboard acts on (shown with a ring while the board has focus)."""
        self.proxies: list = []  # keep the event proxies alive
        self.drag: dict | None = None
        self.suppress_click = False
        self.drawn_version: int | None = None
        self.hint_text = ""
        self.notices: list[str] = []
        self.shown: dict[str, object] = {}  # what the panel shows now, part by part
        # the computer player
        self.generation = 0
        """Grows at every change of position or players: an AI answer for an older one is stale."""
        self.ai = None
        """The worker's exports once it is up."""
        self.ai_boot: asyncio.Future | None = None
        self.ai_failed = ""
        """Why the worker is unusable, once it is."""
        self.asking: int | None = None
        """The generation a computer move is being searched for."""
        self.starting = False
        """Whether a request waits for the worker to start."""
        self.suggesting: int | None = None
        """The generation a hint is being searched for."""
        self.suggestion: tuple[int, Move] | None = None
        """The hint shown on the board, with the generation it is for."""
        self.paused = False
        """A game between two computers is paused (by the Pause button, or by Undo)."""
        self.next_ai_at = 0.0
        """When (``performance.now()``) a computer's move may be shown, at the earliest."""
        self.animation = 0
        """Grows whenever the board is redrawn: a computer move's staged drawing stops then."""
        self.discarded = 0
        self.seed = int(window.Math.random() * 1_000_000)
        self._history: History | None = None
        self.reviewing: tuple[Game, int] | None = None
        """The game being reviewed and how many of its moves are shown (see :meth:`review_index`)."""
        self.graphs: dict[str, list[float] | str] = {}
        """Evaluation graph values by record, or why there are none."""
        self.evaluating: str | None = None
        """The record whose values the worker is computing."""
        self.pending_start: tuple[Settings | None] | None = None
        """A new game waiting for the player to confirm that the game in progress may go."""
        self.confirm = document.getElementById("discard-dialog")
        self.learning = Learning(self)
        """The Rules dialog, the first-game guide and the theme."""
        self.keeper = GameKeeper(self)
        """Records, links and the game saved across visits."""
        setup = self.setup_from_url(restore=True)
        self.set_game(setup.game, setup.settings, setup.notices)

    # ---------------------------------------------------------------- players

    @property
    def players(self) -> dict[str, str]:
        return self.settings.players

    def level_of(self, color: str) -> int | None:
        return ai_level(self.players[color])

    def ai_to_move(self) -> int | None:
        """The level of the computer player to move now, if one is and it may move."""
        if self.game.result is not None:
            return None
        return self.level_of(COLORS[self.game.state.turn])

    def remote_to_move(self) -> bool:
        """Whether the player to move plays by link on another device."""
        return self.game.result is None and self.players[COLORS[self.game.state.turn]] == REMOTE

    def person_to_move(self) -> bool:
        """Whether the person at this device is to move: the game goes on and neither a
        computer player nor the opponent playing by link is to move."""
        return self.game.result is None and self.ai_to_move() is None and not self.remote_to_move()

    def both_ai(self) -> bool:
        return all(self.level_of(c) is not None for c in COLORS)

    def name_of(self, color: str) -> str:
        level = self.level_of(color)
        return color.capitalize() + ("" if level is None else f" (AI {level})")

    def stored_settings(self) -> Settings:
        try:
            return settings_from_json(window.localStorage.getItem(STORAGE_KEY) or None)
        except Exception:  # storage can be switched off
            return Settings()

    def store_settings(self, settings: Settings) -> None:
        try:
            window.localStorage.setItem(STORAGE_KEY, settings_to_json(settings))
        except Exception:
            self.notices.append("This browser does not keep settings: the choice lasts for this page only.")

    def not_here(self) -> set[str]:
        """The colours nobody plays at this device: computers, and the opponent playing by link
        (Undo goes back to, and Redo stops at, a decision made here)."""
        return {c for c in COLORS if self.level_of(c) is not None or self.players[c] == REMOTE}

    # ---------------------------------------------------------------- the game

    @property
    def history(self) -> History:
        """Undo and redo for the game shown; a game opened in any way starts with nothing to redo."""
        if self._history is None or self._history.game is not self.game:
            self._history = History(self.game)
        return self._history

    def setup_from_url(self, restore: bool = False) -> PageSetup:
        """The game, players and notices the URL asks for (at start, and when the hash
        changes); with ``restore``, the saved game when the URL asks for nothing."""
        saved = self.keeper.read_saved() if restore else None
        return open_page(str(window.location.search), str(window.location.hash), self.stored_settings(), saved)

    def set_game(self, game: Game, settings: Settings, notices: list[str]) -> None:
        """Make ``game`` the page's game, played by ``settings``' players, with ``notices``: no
        review, no turn half built, not paused; then the moves nobody chooses, and the
        computer asked for its move if it is to play (the caller draws)."""
        self.game: Game = game
        self.settings = settings
        self.notices = list(notices)
        self.reviewing = None
        self.turn = Turn(game)
        self.paused = False
        self.changed()
        self._auto_moves()

    def changed(self) -> None:
        """The position or the players changed: answers about the old ones are stale now."""
        self.generation += 1
        self.suggestion = None
        self.next_ai_at = 0.0

    def _auto_moves(self) -> None:
        """Play the moves nobody chooses (a pass when no ring can move), with a notice; then,
        when a computer player is to move, ask the worker for its move."""
        while self.turn.move is not None:
            move = self.turn.move
            if move.kind == "pass":
                name = self.turn.name
                self.notices.append(f"{name} has no ring that can move and passes.")
            self.history.play(move)
            self.turn = Turn(self.game)
            self.changed()
        self.ask_ai()

    def after_decision(self, ring_moved_before, dragged: bool) -> None:
        """Redraw after a click that changed the turn; play the move once it is complete."""
        animate: bool | str = False
        if self.turn.ring_move is not None and ring_moved_before is None:
            animate = "flips" if dragged else True  # a dragged ring is already where it goes
        move = self.turn.move
        if move is not None:
            self.notices = []
            self.history.play(move)
            if move.kind == "place":
                animate = True
            self.turn = Turn(self.game)
            self.changed()
            self._auto_moves()
            self.save_url()
        self.draw(animate=animate)

    def new_game(self, settings: Settings | None = None) -> None:
        """A fresh game, with ``settings`` (the dialog's choice) or the current ones, and a new
        seed for the computer's choices."""
        settings = self.settings if settings is None else settings
        self.seed = int(window.Math.random() * 1_000_000)
        self.show_game(Game(settings.variant), settings, [])  # type: ignore[arg-type]

    def show_game(self, game: Game, settings: Settings, notices: list[str]) -> None:
        """Show ``game``, a fresh one or one opened from elsewhere (a record), to look at or play
        on, and keep it in the URL."""
        self.hint("")
        self.set_game(game, settings, notices)
        self.save_url()
        self.draw()

    def undo(self) -> None:
        """Take back the turn being built, else the last move chosen by a person (and the
        computer's answer to it); between two computers, the last move, and pause."""
        self.leave_review()
        if self.turn.reset():
            self.hint("")
            self.draw()
            return
        if not self.history.undo(self.not_here()):
            self.hint("Nothing to undo")
            return
        self.after_history()

    def redo(self) -> None:
        """Play again what Undo took back: a person's turn and the computer's answer to it;
        between two computers, one move (and stay paused)."""
        self.leave_review()
        if not self.history.can_redo():
            self.hint("Nothing to redo")
            return
        self.turn.reset()  # a turn half built gives way to the one redone
        self.history.redo(self.not_here())
        self.after_history()

    def after_history(self) -> None:
        """After an undo or a redo: any search under way is for another position (stale), and
        between two computers the game waits for Resume."""
        if self.both_ai():
            self.paused = True
        self.turn = Turn(self.game)
        self.notices = []
        self.hint("")
        self.changed()
        self._auto_moves()
        self.save_url()
        self.draw()

    def in_progress(self) -> bool:
        """Whether starting again would throw away a game: moves played and not over."""
        return bool(self.game.moves) and self.game.result is None

    def start_new_game(self, settings: Settings | None = None) -> None:
        """Restart, or the New game dialog's Start: asks first when a game is in progress."""
        if not self.in_progress():
            self.begin(settings)
            return
        self.pending_start = (settings,)
        played = len(self.game.moves)
        document.getElementById("discard-text").textContent = (
            f"The game in progress ({played} move{'s' * (played != 1)} played) is not over. "
            "Start a new one and discard it?")
        self.confirm.showModal()

    def begin(self, settings: Settings | None) -> None:
        if settings is not None:
            self.store_settings(settings)
        self.new_game(settings)

    def on_confirm_click(self, event) -> None:
        button = _find(event.target, "button[data-action]")
        if button is None:
            return
        pending, self.pending_start = self.pending_start, None
        self.confirm.close()
        if str(button.getAttribute("data-action")) == "discard" and pending is not None:
            self.begin(pending[0])

    # ---------------------------------------------------------------- reviewing the game's past

    def review_index(self) -> int | None:
        """How many moves the board shows while the game's past is reviewed; ``None`` when the
        board shows the game itself (a game replaced or taken back meanwhile ends the review)."""
        if self.reviewing is None:
            return None
        game, index = self.reviewing
        if game is not self.game or index > len(game.moves):
            self.reviewing = None
            return None
        return index

    def show_review(self, index: int) -> None:
        """Show the position after ``index`` moves (0: the start), not playable. The game goes
        on meanwhile: a computer's move is played into it and the review stays."""
        if not self.game.moves:
            self.hint("No move to review yet.")
            return
        self.end_drag()
        self.reviewing = (self.game, max(0, min(index, len(self.game.moves))))
        self.hint("")
        self.draw()
        if _find(document.activeElement, "#moves") is not None:  # arrow keys in the list: follow
            current = document.querySelector("#moves [aria-current]")
            if current is not None and current is not jsnull:
                current.focus()

    def step_review(self, step: str) -> None:
        """``first``, ``prev``, ``next`` or ``last``: from the move shown (the game's last when
        not reviewing)."""
        count = len(self.game.moves)
        at = self.review_index()
        at = count if at is None else at
        self.show_review({"first": 0, "prev": at - 1, "next": at + 1, "last": count}[step])

    def leave_review(self) -> None:
        """Back to the game: the board as it is now, playable."""
        if self.reviewing is not None:
            self.reviewing = None
            self.hint("")
            self.draw()

    def request_graph(self, record: str) -> None:
        if self.evaluating != record:
            self.evaluating = record
            asyncio.ensure_future(self._evaluate(record))

    async def _evaluate(self, record: str) -> None:
        """The evaluation graph's values, from the worker (started if needed); kept by record."""
        result: list[float] | str
        try:
            if self.ai is None and not self.ai_failed:
                self.start_worker()
                assert self.ai_boot is not None  # start_worker made it
                await asyncio.shield(self.ai_boot)
            if self.ai is None:
                result = f"No evaluation graph: the computer player is unavailable ({self.ai_failed})."
            else:
                answer = json.loads(str(await self.ai.evaluate(record)))
                result = ([float(v) for v in answer["values"]] if answer.get("ok")
                          else f"No evaluation graph: {answer.get('error', 'no answer')}.")
        except Exception:
            _warn("the evaluation graph failed")
            result = "No evaluation graph: something went wrong."
        if self.evaluating == record:
            self.evaluating = None
        while len(self.graphs) >= GRAPHS_KEPT:
            del self.graphs[next(iter(self.graphs))]
        self.graphs[record] = result
        if self.review_index() is not None:
            self.draw_review()

    def save_url(self) -> None:
        url = game_url(str(window.location.pathname), self.players, self.game, self.settings)
        window.history.replaceState(None, "", url)
        self.keeper.autosave()

    # ---------------------------------------------------------------- the computer player

    def start_worker(self) -> None:
        """Start the AI worker (once); it boots on its own thread while the page is used."""
        if self.ai_boot is None:
            self.ai_boot = asyncio.ensure_future(self._boot_worker())

    async def _boot_worker(self):
        """The worker's exports once it has started and answered ``hello``; ``None`` (and
        :attr:`ai_failed` says why) if it could not start.

        The worker gets the page's own file list and the self-hosted interpreter (an absolute
        URL: a worker has no page to resolve against); ``sync_main_only`` because it never
        touches the page, so it needs no SharedArrayBuffer and says nothing about it.
        """
        try:
            files = dict(PYSCRIPT_CONFIG["files"])
            interpreter = str(window.URL.new(PYSCRIPT_CONFIG["interpreter"], document.baseURI).href)
            worker = PyWorker(WORKER_URL, type="pyodide", version=interpreter,
                              config={"files": files, "sync_main_only": True})

            async def ready():
                await worker.ready
                return worker.sync

            exports = await asyncio.wait_for(ready(), WORKER_BOOT_SECONDS)
            answer = json.loads(str(await exports.hello()))
            if not answer.get("ok"):
                raise WorkerFailure(answer.get("error", "no answer"))
        except Exception as exc:
            if not isinstance(exc, (WorkerFailure, asyncio.TimeoutError)):
                _warn("the AI worker did not start")
            late = isinstance(exc, asyncio.TimeoutError)
            self.ai_failed = "it did not start in time" if late else "it could not start"
            self.draw_status()
            return None
        self.ai = exports
        window.yinshAI = exports
        document.documentElement.setAttribute("data-yinsh-ai-ready", "")
        return exports

    async def worker(self):
        """The worker's exports, starting it if needed (the page says "AI starting…" meanwhile)."""
        if self.ai is None and not self.ai_failed:
            self.start_worker()
            self.starting = True
            self.draw_status()
            try:
                await asyncio.shield(self.ai_boot)
            finally:
                self.starting = False
        if self.ai is None:
            raise WorkerFailure(f"the computer player is unavailable: {self.ai_failed}")
        return self.ai

    def ask_ai(self) -> None:
        """If a computer player is to move (and may), ask the worker for its move."""
        if self.ai_to_move() is None or self.paused or self.asking == self.generation:
            return
        self.asking = self.generation
        asyncio.ensure_future(self._play_ai(self.generation))

    async def _play_ai(self, generation: int) -> None:
        color = COLORS[self.game.state.turn]
        level = self.level_of(color)
        try:
            ai = await self.worker()
            if generation != self.generation:
                return self._discard()
            self.draw_status()
            answer = json.loads(str(await ai.think(self.game.position(), level, self.seed + self.game.ply)))
            if generation != self.generation:
                return self._discard()
            if not answer.get("ok"):
                raise WorkerFailure(str(answer.get("error", "no answer")))
            move = self.game.parse_move(str(answer["move"]))  # checked like any move
            wait = self.next_ai_at - float(window.performance.now())
            if wait > 0:  # the last move's animation and the viewer's chosen pause
                await asyncio.sleep(wait / 1000)
                if generation != self.generation:
                    return self._discard()
            self.asking = None
            self.play_ai_move(move)
        except Exception as exc:
            if generation == self.generation:
                self.asking = None
                self.computer_failed(color, exc)
        finally:
            if self.asking == generation:
                self.asking = None
                self.draw_status()

    def _discard(self) -> None:
        """An answer for a position that has changed since: dropped, never played."""
        self.discarded += 1
        self.root.setAttribute("data-ai-discarded", str(self.discarded))

    def computer_failed(self, color: str, exc: Exception) -> None:
        """No traceback on the page: a notice, and the person plays that colour by hand."""
        if not isinstance(exc, WorkerFailure):
            _warn("the computer player failed")
        reason = str(exc) if isinstance(exc, WorkerFailure) else "something went wrong"
        self.notices.append(f"The computer could not move for {color.capitalize()} ({reason}). "
                            f"{color.capitalize()} is played by hand now.")
        self.settings = self.settings._replace(white="human") if color == "white" else \
            self.settings._replace(black="human")
        self.changed()
        self.save_url()
        self.draw()

    def play_ai_move(self, move: Move) -> None:
        """Play the computer's move, drawn in steps as a person's would be: the rows it removes
        first, the ring move (sliding, markers flipping), then the rows it made."""
        try:
            frames = self.ai_frames(move)
        except Exception:  # only the drawing in steps is lost: the move is played all the same
            _warn("the computer's move could not be drawn in steps")
            frames = []
        self.history.play(move)
        self.turn = Turn(self.game)
        self.changed()
        duration = sum(ms for _, ms in frames) or (PLACE_MS if move.kind == "place" else MOVE_MS)
        if self.both_ai():
            self.next_ai_at = float(window.performance.now()) + duration + self.settings.delay
        self._auto_moves()
        self.save_url()
        if frames and self.review_index() is None:  # while reviewing, the board shows the past
            self.draw(board=False)
            asyncio.ensure_future(self._show_frames(frames))
        else:
            self.draw(animate=move.kind != "pass")

    def ai_frames(self, move: Move) -> list[tuple[dict, int]]:
        """The steps of a computer's move with removals: ``board_svg`` arguments and how long
        each shows (the last step, the position after the move, is the ordinary drawing)."""
        if not move.before and not move.after:
            return []
        turn = Turn(self.game, auto_row=False)
        frames: list[tuple[dict, int]] = []

        def removal_frame(removal, last) -> None:
            frames.append(({"position": turn.state, "rows": [removal.row], "selected_row": removal.row,
                            "marked": [removal.ring], "last_move": last}, ROW_MS))
            turn.choose(Decision("row", removal.row))
            turn.choose(Decision("ring", removal.ring))

        for removal in move.before:
            removal_frame(removal, None)
        last = None
        if move.kind == "move" and move.source is not None and move.target is not None:
            turn.choose(Decision("source", move.source))
            turn.choose(Decision("target", move.target))
            last = (move.source, move.target)
            frames.append(({"position": turn.state, "last_move": last, "animate": True}, MOVE_MS))
        for removal in move.after:
            removal_frame(removal, last)
        return frames

    async def _show_frames(self, frames: list[tuple[dict, int]]) -> None:
        token = self.animation = self.animation + 1
        try:
            for kwargs, ms in frames:
                position = kwargs.pop("position")
                self.board.innerHTML = board_svg(position, **kwargs)
                self.show_focus()
                await asyncio.sleep(ms / 1000)
                if self.animation != token:
                    return  # something redrew the board meanwhile: that drawing is the truth
            self.draw()
        except Exception:
            _warn("drawing the computer's move failed")
            self.draw()

    def suggest(self) -> None:
        """The Hint button: the move level 3 would play, marked on the board, not played."""
        if self.game.result is not None:
            self.hint("The game is over.")
            return
        if self.ai_to_move() is not None:
            self.hint("It is the computer's turn.")
            return
        if self.remote_to_move():
            self.hint("It is the opponent's turn, on their own device.")
            return
        if self.suggestion is not None and self.suggestion[0] == self.generation:
            return
        if self.suggesting == self.generation:
            return
        self.suggesting = self.generation
        self.draw_status()
        asyncio.ensure_future(self._suggest(self.generation))

    async def _suggest(self, generation: int) -> None:
        try:
            ai = await self.worker()
            if generation != self.generation:
                return self._discard()
            answer = json.loads(str(await ai.think(self.game.position(), HINT_LEVEL, self.seed + self.game.ply)))
            if generation != self.generation:
                return self._discard()
            if not answer.get("ok"):
                raise WorkerFailure(str(answer.get("error", "no answer")))
            move = self.game.parse_move(str(answer["move"]))
            self.suggestion = (generation, move)
            self.hint(f"Hint: {move} (what level {HINT_LEVEL} would play)")
            self.draw()
        except Exception as exc:
            if not isinstance(exc, WorkerFailure):
                _warn("the hint failed")
            if generation == self.generation:
                self.hint(f"No hint: {exc}" if isinstance(exc, WorkerFailure) else "No hint: something went wrong.")
        finally:
            if self.suggesting == generation:
                self.suggesting = None
            self.draw_status()

    def suggested_points(self) -> list[int]:
        """The points of the hint shown now: the ring and where it goes, the rings removed."""
        if self.suggestion is None or self.suggestion[0] != self.generation:
            return []
        move = self.suggestion[1]
        points = [r.ring for r in move.before + move.after]
        points += [p for p in (move.source, move.target) if p is not None]
        return points

    # ---------------------------------------------------------------- the New game dialog

    def open_dialog(self) -> None:
        form = self.dialog.querySelector("form")
        s = self.settings
        form.elements.namedItem("white").value = s.white
        form.elements.namedItem("black").value = s.black
        for radio in form.querySelectorAll("input[name=variant]"):
            radio.checked = radio.value == s.variant
        delay = form.elements.namedItem("delay")
        delay.value = str(min(DELAYS, key=lambda d: abs(d - s.delay)))
        self.sync_dialog()
        self.dialog.showModal()

    def sync_dialog(self) -> None:
        """The pace only matters when two computers play: show it then."""
        form = self.dialog.querySelector("form")
        both = all(str(form.elements.namedItem(c).value) != "human" for c in COLORS)
        document.getElementById("setup-pace").hidden = not both

    def dialog_settings(self) -> Settings:
        form = self.dialog.querySelector("form")

        def pick(name: str, allowed, default):
            value = str(form.elements.namedItem(name).value)
            return value if value in allowed else default

        variant = next((str(r.value) for r in form.querySelectorAll("input[name=variant]") if r.checked), "standard")
        delay = str(form.elements.namedItem("delay").value)
        return Settings(
            white=pick("white", PLAYER_KINDS, "human"),
            black=pick("black", PLAYER_KINDS, "human"),
            variant=variant if variant in VARIANTS else "standard",
            delay=int(delay) if delay.isdigit() else self.settings.delay,
        )

    def on_dialog_click(self, event) -> None:
        button = _find(event.target, "button[data-action]")
        if button is None:
            return
        action = str(button.getAttribute("data-action"))
        if action == "start-game":
            settings = self.dialog_settings()
            self.dialog.close()
            self.start_new_game(settings)
        elif action == "cancel-dialog":
            self.dialog.close()

    # ---------------------------------------------------------------- wiring

    def listen(self, element, event: str, handler) -> None:
        proxy = create_proxy(self._guard(handler))
        self.proxies.append(proxy)
        element.addEventListener(event, proxy)

    def _guard(self, handler):
        def guarded(event):
            try:
                handler(event)
            except Exception:  # a bug must never leave a traceback on the page
                self.drag = None
                _warn("a handler failed")
                self.root.setAttribute("data-yinsh-error", "1")
                self.hint("Something went wrong; the board has been redrawn.")
                try:
                    self.draw()
                except Exception:
                    pass
        return guarded

    def attach(self) -> None:
        self.listen(self.board, "click", self.on_board_click)
        self.listen(self.board, "pointerdown", self.on_pointer_down)
        self.listen(self.board, "pointermove", self.on_pointer_move)
        self.listen(self.board, "pointerup", self.on_pointer_up)
        self.listen(self.board, "pointercancel", self.on_pointer_cancel)
        self.listen(document, "keydown", self.on_key)
        self.listen(self.board, "keydown", self.on_board_key)
        keys = document.getElementById("keys-dialog")
        keys.querySelector("dl").innerHTML = "".join(
            f"<dt><kbd>{_esc(k)}</kbd></dt><dd>{_esc(what)}</dd>" for k, what in SHORTCUTS)
        self.listen(keys, "click", self.on_keys_dialog_click)
        self.listen(document.getElementById("panel"), "click", self.on_panel_click)
        self.listen(self.banner, "click", self.on_panel_click)
        self.listen(self.dialog, "click", self.on_dialog_click)
        self.listen(self.dialog, "change", lambda event: self.sync_dialog())
        self.listen(self.confirm, "click", self.on_confirm_click)
        self.listen(self.confirm, "close", lambda event: setattr(self, "pending_start", None))
        hint_button = document.querySelector("#panel button[data-action=hint]")
        for event in ("pointerenter", "focus"):  # a hint is likely: get the worker going
            self.listen(hint_button, event, lambda event: self.start_worker())
        self.listen(window, "hashchange", self.on_hash_change)
        self.learning.attach()
        self.keeper.attach()

    # ---------------------------------------------------------------- events

    def board_locked(self) -> str:
        """Why the person at this device may not act on the board now, or ``""`` if they may:
        a past position is shown, or a computer player or the opponent playing by link is to move."""
        if self.review_index() is not None:
            return "This is a past position: Back to game to play on."
        if self.ai_to_move() is not None:
            return f"{self.name_of(COLORS[self.game.state.turn])} is to move: wait for it."
        if self.remote_to_move():
            return f"{COLORS[self.game.state.turn].capitalize()} plays on their own device: send them the link."
        return ""

    def not_yours(self) -> bool:
        """True (and a hint says why) when the person at this device may not act on the board."""
        reason = self.board_locked()
        if reason:
            self.hint(reason)
        return bool(reason)

    def on_board_click(self, event) -> None:
        if self.suppress_click:  # the click that ends a drag
            self.suppress_click = False
            return
        if self.not_yours():
            return
        row_el = _find(event.target, "[data-row]")
        point = self.point_at(event)
        before = self.turn.ring_move
        if row_el is not None:
            first, _, last = str(row_el.getAttribute("data-row")).partition("-")
            self.respond(self.turn.click_row(parse_row(first, last)), before)
        elif point is not None:
            self.focus_point = point
            self.respond(self.turn.click_point(point), before)
        elif self.turn.cancel():  # a click on the board beyond the points
            self.hint("")
            self.draw()

    def point_at(self, event) -> int | None:
        """The point a click or a press is for: the one under it, else the nearest one within
        TOUCH_TARGET_PX / 2 on the screen (or half a grid step on a large board). A finger is
        broad: no gap between points is dead, and an edge point answers beyond the board's edge."""
        point_el = _find(event.target, "[data-point]")
        if point_el is not None:
            return parse_point(str(point_el.getAttribute("data-point")))
        if event.clientX == 0 and event.clientY == 0:  # a click with no position (keyboard, script)
            return None
        px_per_unit = float(self.board.querySelector("svg").getScreenCTM().a) or 1.0
        within = max(0.5, TOUCH_TARGET_PX / 2 / (UNIT * px_per_unit))  # in grid steps
        return nearest_point(*self.svg_xy(event), within=within)

    def on_board_key(self, event) -> None:
        """The board's keys (the board has the focus): arrows move the focus along the lines,
        Enter and Space act on the focused point as a click would."""
        if event.ctrlKey or event.altKey or event.metaKey:
            return
        key = str(event.key)
        if key.startswith("Arrow"):
            event.preventDefault()
            event.stopPropagation()  # arrows outside the board step through the moves
            self.board.classList.add("keyboard")
            self.focus_point = neighbour(self.focus_point, key, bool(event.shiftKey))
            self.show_focus()
        elif key in ("Enter", " "):
            event.preventDefault()
            self.board.classList.add("keyboard")
            if self.not_yours():
                return
            before = self.turn.ring_move
            row = row_for_key(self.turn, self.focus_point)
            if row is not None:
                self.respond(self.turn.click_row(row), before)
            else:
                self.respond(self.turn.click_point(self.focus_point), before)

    def respond(self, hint: str | None, ring_moved_before, dragged: bool = False) -> None:
        """Show the click's hint (or clear the last one) and redraw if the turn changed."""
        self.hint(hint or "")
        if self.turn.version != self.drawn_version or self.turn.move is not None:
            self.after_decision(ring_moved_before, dragged)

    def on_hash_change(self, event) -> None:
        """A link pasted into this tab opens its game (the page's own updates fire no event)."""
        self.end_drag()
        setup = self.setup_from_url()
        self.show_game(setup.game, setup.settings, setup.notices)

    def show_shortcuts(self) -> None:
        document.getElementById("keys-dialog").showModal()

    def on_keys_dialog_click(self, event) -> None:
        if _find(event.target, "button[data-action=close-keys]") is not None:
            document.getElementById("keys-dialog").close()

    def on_key(self, event) -> None:
        target = event.target
        if _find(target, "input, textarea, select, [contenteditable], dialog[open]") is not None:
            return  # typing, or a dialog: its keys are its own
        key = str(event.key)
        if (event.ctrlKey or event.metaKey) and not event.altKey and key.lower() in ("z", "y"):
            event.preventDefault()
            self.end_drag()
            if key.lower() == "z" and not event.shiftKey:
                self.undo()
            else:
                self.redo()
            return
        if event.ctrlKey or event.metaKey or event.altKey:
            return
        in_list = _find(target, "#moves") is not None
        reviewing = self.review_index() is not None
        steps = {"ArrowLeft": "prev", "ArrowRight": "next", "Home": "first", "End": "last"}
        # the board's own arrow keys move between its points: review keys only off the board
        if key in steps and (in_list or reviewing and _find(target, "#board") is None):
            event.preventDefault()
            self.step_review(steps[key])
            return
        if key == "Escape" and reviewing:
            self.leave_review()
            return
        if key == "?":
            self.show_shortcuts()
            return
        if key == "Escape":
            if self.drag is not None:
                self.end_drag()
            if self.turn.cancel():
                self.hint("")
                self.draw()

    def on_panel_click(self, event) -> None:
        shown = _find(event.target, "[data-ply]")  # a move of the list, a point of the graph
        if shown is not None:
            self.show_review(int(str(shown.getAttribute("data-ply"))))
            return
        button = _find(event.target, "button[data-action]")
        if button is None:
            return
        action = str(button.getAttribute("data-action"))
        if self.learning.handle(action):
            return
        if action == "new-game":
            self.start_new_game()
        elif action == "setup":
            self.open_dialog()
        elif action == "undo":
            self.undo()
        elif action == "redo":
            self.redo()
        elif action == "live":
            self.leave_review()
        elif action.startswith("review-"):
            self.step_review(action.removeprefix("review-"))
        elif action == "hint":
            self.suggest()
        elif action == "choose-row" and not self.not_yours():
            first, _, last = str(button.getAttribute("data-choice")).partition("-")
            self.respond(self.turn.click_row(parse_row(first, last)), self.turn.ring_move)
        elif action == "keys":
            self.show_shortcuts()
        elif action in ACTIONS:
            self.keeper.act(action)
        elif action == "pause":
            self.paused = not self.paused
            self.changed()  # a search under way is for a game that is now paused: drop it
            if not self.paused:
                self._auto_moves()
            self.draw_status()

    # Dragging a ring: pointer events, so mouse, pen and touch alike. A press that never
    # moves further than DRAG_THRESHOLD_PX is left to the click handler.

    def on_pointer_down(self, event) -> None:
        self.suppress_click = False
        self.drag = None
        self.board.classList.remove("keyboard")
        if event.button != 0 or self.turn.phase not in (Phase.PICK_RING, Phase.MOVE_RING) or self.board_locked():
            return
        point = self.point_at(event)
        if point is None:
            return
        if point not in self.turn.movable_rings and point != self.turn.selected_ring:
            return
        self.drag = {"id": event.pointerId, "point": point, "x": event.clientX, "y": event.clientY,
                     "active": False, "ring": None, "over": None}

    def on_pointer_move(self, event) -> None:
        drag = self.drag
        if drag is None or event.pointerId != drag["id"]:
            return
        if not drag["active"]:
            if abs(event.clientX - drag["x"]) + abs(event.clientY - drag["y"]) < DRAG_THRESHOLD_PX:
                return
            self.start_drag(drag, event.pointerId)
        event.preventDefault()
        x, y = self.svg_xy(event)
        x0, y0 = point_xy(drag["point"])
        if drag["ring"] is not None:
            drag["ring"].style.transform = f"translate({x - x0:.1f}px,{y - y0:.1f}px)"
        over = nearest_point(x, y)
        over = over if over in self.turn.destinations else None
        if over != drag["over"]:
            for point, method in ((drag["over"], "remove"), (over, "add")):
                if point is not None:
                    hit = self.board.querySelector(f'[data-point="{point_name(point)}"]')
                    getattr(hit.classList, method)("drop-target")
            drag["over"] = over

    def start_drag(self, drag: dict, pointer_id) -> None:
        """The press became a drag: pick the ring (if it was not) and lift it above the others."""
        drag["active"] = True
        self.board.setPointerCapture(pointer_id)  # the board outlives every redraw
        if self.turn.selected_ring != drag["point"]:
            self.turn.cancel()
            self.turn.click_point(drag["point"])
            self.hint("")
            self.draw()
        self.board.classList.add("dragging")
        ring = self.board.querySelector(f'[data-ring="{point_name(drag["point"])}"]')
        drag["ring"] = None if ring is None or ring is jsnull else ring
        if drag["ring"] is not None:
            ring.classList.add("lifted")
            ring.parentNode.appendChild(ring)

    def on_pointer_up(self, event) -> None:
        drag = self.drag
        if drag is None or event.pointerId != drag["id"] or not drag["active"]:
            self.drag = None
            return
        self.end_drag()
        self.suppress_click = True
        x, y = self.svg_xy(event)
        target = nearest_point(x, y)
        before = self.turn.ring_move
        if target is not None and target in self.turn.destinations:
            self.respond(self.turn.click_point(target), before, dragged=True)
            return
        if target is not None and target != drag["point"]:
            self.hint(f"{point_name(drag['point'])}-{point_name(target)} is not a legal move: "
                      "drop the ring on a lit point")
        self.draw()

    def on_pointer_cancel(self, event) -> None:
        if self.drag is not None:
            self.end_drag()
            self.draw()

    def end_drag(self) -> None:
        if self.drag is not None and self.drag["active"]:
            try:
                self.board.releasePointerCapture(self.drag["id"])
            except Exception:
                pass
        self.drag = None
        self.board.classList.remove("dragging")

    def svg_xy(self, event) -> tuple[float, float]:
        svg = self.board.querySelector("svg")
        point = svg.createSVGPoint()
        point.x = event.clientX
        point.y = event.clientY
        local = point.matrixTransform(svg.getScreenCTM().inverse())
        return float(local.x), float(local.y)

    # ---------------------------------------------------------------- drawing

    def hint(self, text: str) -> None:
        if text != self.hint_text:
            self.hint_text = text
            el = document.getElementById("hint")
            el.textContent = text
            el.hidden = not text
            self.announce(text)

    def announce(self, text: str) -> None:
        """Say ``text`` to a screen reader (the one polite live region). What one event says
        (a hint, then the new prompt) is said together, once the handler is done: a second
        write would cut the first short."""
        if text:
            self.announcements.append(text)
            if len(self.announcements) == 1:
                window.queueMicrotask(self.flush_proxy)

    def flush_announcements(self) -> None:
        text = ". ".join(self.announcements)
        self.announcements = []
        self.live.textContent = text + ("\u00a0" if str(self.live.textContent) == text else "")  # said again

    def show_focus(self) -> None:
        """Ring the focused point and point ``aria-activedescendant`` at it (after a redraw, or
        when the focus moves): the board itself keeps the DOM focus, so a redraw never loses it.
        The ring is a rounded square (no piece is square), the SVG's last element, above the
        candidate rows; CSS shows it while the board has the keyboard's focus."""
        name = point_name(self.focus_point)
        svg = self.board.querySelector("svg")
        if svg is None or svg is jsnull:
            return
        ring = svg.querySelector(".focus-ring")
        if ring is None or ring is jsnull:
            side = 2 * FOCUS_HALF
            svg.insertAdjacentHTML("beforeend", f'<rect class="focus-ring" width="{side}" height="{side}" rx="9"/>')
            ring = svg.lastElementChild
        x, y = point_xy(self.focus_point)
        ring.setAttribute("x", f"{x - FOCUS_HALF:.2f}")
        ring.setAttribute("y", f"{y - FOCUS_HALF:.2f}")
        ring.setAttribute("data-point-focus", name)
        named = document.getElementById(f"yb-pt-{name}")
        if named is not None and named is not jsnull:
            self.board.setAttribute("aria-activedescendant", f"yb-pt-{name}")
        else:  # a computer move drawn in steps has no named points
            self.board.removeAttribute("aria-activedescendant")

    def draw_row_choices(self) -> None:
        """Several candidate rows: each is also a button by the prompt (the keyboard's and the
        screen reader's way to them, and a sure one on a small screen)."""
        rows = self.turn.candidate_rows if self.person_to_move() else ()
        chosen = self.turn.selected_row
        key = (rows, chosen)
        if not self._changed("row-choices", key):
            return
        box = document.getElementById("row-choices")
        box.innerHTML = "".join(
            f'<button type="button" data-action="choose-row" data-choice="{row_name(w)}" '
            f'aria-pressed="{"true" if w == chosen else "false"}">Row {row_name(w)}</button>'
            for w in rows) if len(rows) > 1 else ""
        box.hidden = len(rows) < 2

    def last_move(self) -> Move | tuple[int, int] | None:
        if self.turn.ring_move is not None:
            return self.turn.ring_move
        if self.turn.decisions and self.turn.removals:
            return None  # the board has changed since the opponent's move: do not point at it
        return self.game.moves[-1] if self.game.moves else None

    def draw(self, animate: bool | str = False, board: bool = True) -> None:
        """Redraw the board (unless a computer move is being drawn in steps), then whatever
        part of the panel changed (DOM work is what costs)."""
        turn, game = self.turn, self.game
        over = game.result is not None
        shown = self.review_index()
        if board:
            self.animation += 1  # stops a computer move's staged drawing
            if shown is not None:
                state = state_after(game, shown)
                self.board.innerHTML = board_svg(state, last_move=game.moves[shown - 1] if shown else None,
                                                 point_labels=point_labels(None, state))
            else:
                person = self.person_to_move()
                highlights: dict = turn.highlights() if person else {}
                labels = point_labels(turn if person else None, turn.state)
                self.board.innerHTML = board_svg(turn.state, last_move=self.last_move(), animate=animate,
                                                 marked=self.suggested_points(), point_labels=labels, **highlights)
            self.show_focus()
        self.drawn_version = turn.version
        board_el = self.board
        record = game.record()
        if self._changed("record", record):
            board_el.setAttribute("data-record", record)
            board_el.setAttribute("data-position", game.position())
            board_el.setAttribute("data-result", game.result or "")
        board_el.setAttribute("data-phase", turn.phase.value)
        board_el.setAttribute("data-to-move", COLORS[turn.color])
        suggestion = self.suggestion[1] if self.suggestion and self.suggestion[0] == self.generation else None
        board_el.setAttribute("data-hint", str(suggestion) if suggestion else "")
        board_el.setAttribute("data-review", "" if shown is None else str(shown))
        board_el.classList.toggle("reviewing", shown is not None)
        self.root.setAttribute("data-to-move", "" if over else COLORS[turn.color])
        if self._changed("notices", tuple(self.notices)):
            notices = document.getElementById("notices")
            notices.innerHTML = "".join(f"<p>{_esc(n)}</p>" for n in self.notices[-3:])
            notices.hidden = not self.notices
        self.draw_status()
        self.draw_row_choices()
        self.draw_pool()
        self.draw_moves()
        self.draw_review()
        self.draw_banner()
        prompt = spoken_prompt(self.shown["prompt"][0], turn if self.ai_to_move() is None else None)  # type: ignore[index]
        self.announce(self.announcer.update(game, prompt))

    def draw_status(self) -> None:
        """The prompt, the players, the AI state and the buttons: what changes while the
        computer thinks (never the board, which may be showing a computer move in steps)."""
        turn, game = self.turn, self.game
        over = game.result is not None
        level = self.ai_to_move()
        mover = COLORS[turn.color]
        thinking = level is not None and not self.paused and self.asking == self.generation
        ai_state = ("starting" if self.starting else "thinking" if thinking or self.suggesting == self.generation
                    else "failed" if self.ai_failed else "")
        if self._changed("ai", ai_state):
            self.root.setAttribute("data-ai", ai_state)
        if over:
            prompt, detail = result_text(game) or "", turn.detail
        elif level is not None and self.paused:
            prompt, detail = f"{self.name_of(mover)} to move: paused", "Press Resume to let the computers play on."
        elif self.remote_to_move():
            prompt = f"{mover.capitalize()} to move, on their own device"
            detail = "Send them the link to this game (Link for the opponent); their move comes back as a link."
        elif level is not None:
            if self.starting:
                prompt, detail = "AI starting…", f"{self.name_of(mover)} moves as soon as the computer player is up."
            else:
                prompt = f"{self.name_of(mover)} is thinking…"
                detail = ("The board stays yours to look at; Undo takes back your last move."
                          if not self.both_ai() else "Two computers play: Pause stops them, Undo takes back a move.")
        else:
            prompt, detail = turn.prompt, turn.detail
            if self.starting and self.suggesting == self.generation:
                detail = "AI starting… the hint comes as soon as the computer player is up."
        if self._changed("prompt", (prompt, detail)):
            document.getElementById("prompt").textContent = prompt
            document.getElementById("detail").textContent = detail
        self.draw_players(thinking)
        self.draw_buttons(level)
        self.learning.draw_guide(self.turn, person_to_move=self.person_to_move())
        if self._changed("send-link", self.remote_to_move()):
            document.getElementById("send-link").hidden = not self.remote_to_move()

    def draw_buttons(self, level: int | None) -> None:
        over = self.game.result is not None
        busy = self.suggesting == self.generation
        can_undo = bool(self.turn.decisions) or self.history.can_undo(self.not_here())
        can_redo = self.history.can_redo()
        key = (over, level is None, busy, self.both_ai(), self.paused, bool(self.ai_failed), can_undo, can_redo)
        if not self._changed("buttons", key):
            return
        document.querySelector("#panel button[data-action=undo]").disabled = not can_undo
        document.querySelector("#panel button[data-action=redo]").disabled = not can_redo
        hint = document.querySelector("#panel button[data-action=hint]")
        hint.hidden = self.both_ai()  # nobody to give a hint to: Pause takes its place
        hint.disabled = over or level is not None or bool(self.ai_failed)
        hint.textContent = "Thinking…" if busy else "Hint"
        hint.setAttribute("aria-busy", "true" if busy else "false")
        pause = document.querySelector("#panel button[data-action=pause]")
        pause.hidden = not self.both_ai() or over
        pause.textContent = "Resume" if self.paused else "Pause"

    def _changed(self, part: str, value) -> bool:
        """Whether ``part`` of the panel must be redrawn to show ``value`` (and remember it)."""
        if self.shown.get(part) == value:
            return False
        self.shown[part] = value
        return True

    def draw_players(self, thinking: bool = False) -> None:
        s = self.turn.state
        active = None if self.game.result is not None else COLORS[self.turn.color]
        key = (s.white_score, s.black_score, s.white_rings.bit_count(), s.black_rings.bit_count(),
               s.in_placement, s.rings_to_win, active, tuple(self.players.values()), thinking)
        if not self._changed("players", key):
            return
        for color, score in zip(COLORS, (s.white_score, s.black_score)):
            el = document.getElementById(f"player-{color}")
            el.classList.toggle("active", active == color)
            el.classList.toggle("thinking", thinking and active == color)
            el.querySelector(".kind").textContent = player_label(self.players[color])
            need = s.rings_to_win
            rings = el.querySelector(".rings")
            rings.innerHTML = "".join(ring_icon_svg(color, filled=i < score) for i in range(need))
            rings.setAttribute("aria-label", f"{score} of {need} rings removed")
            rings.setAttribute("title", f"{score} ring{'s' * (score != 1)} removed")
            left = (s.white_rings if color == "white" else s.black_rings).bit_count()
            el.querySelector(".on-board").textContent = (
                f"{left} ring{'s' * (left != 1)} on the board" if not s.in_placement
                else f"{RINGS_PER_PLAYER - left} ring{'s' * (RINGS_PER_PLAYER - left != 1)} to place"
            )

    def draw_pool(self) -> None:
        left = pool(self.turn.state)
        if not self._changed("pool", left):
            return
        document.getElementById("pool").classList.toggle("low", left <= POOL_WARNING)
        document.getElementById("pool-count").textContent = str(left)
        warning = document.getElementById("pool-warning")
        warning.hidden = left > POOL_WARNING
        if left <= POOL_WARNING:
            warning.textContent = ("The pool is empty: the game ends on rings." if left == 0 else
                                   f"Only {left} marker{'s' * (left != 1)} left: when the pool is empty the game "
                                   "ends and more rings removed wins.")

    def draw_moves(self) -> None:
        """The move list, numbered as in a record; new moves are appended, not redrawn."""
        game = self.game
        texts = [str(move) for move in game.moves]
        shown: tuple | None = self.shown.get("moves")  # type: ignore[assignment]
        if shown == (game.start_ply, texts):
            return
        self.shown["moves"] = (game.start_ply, texts)
        moves = document.getElementById("moves")
        if shown and shown[0] == game.start_ply and texts[: len(shown[1])] == shown[1]:
            moves.insertAdjacentHTML("beforeend", self._move_items(texts, len(shown[1])))
        else:
            moves.innerHTML = self._move_items(texts, 0)
        document.getElementById("moves-empty").hidden = bool(texts)

    def _move_items(self, texts: list[str], first: int) -> str:
        items = []
        for i in range(first, len(texts)):
            number = self.game.start_ply + i + 1
            color = "white" if number % 2 else "black"
            items.append(f'<li class="{color}" value="{number}"><button type="button" class="move" '
                         f'data-ply="{i + 1}" tabindex="-1"><span class="num">{number}.</span>'
                         f'<span class="mv">{_esc(texts[i])}</span></button></li>')
        return "".join(items)

    def draw_review(self) -> None:
        """The review area (the move shown, the way back, the evaluation graph) and the move
        shown marked in the list (``aria-current``, scrolled into view)."""
        shown = self.review_index()
        area = document.getElementById("review")
        opens = area.hidden and shown is not None
        area.hidden = shown is None
        self._roving_tab_stop(len(self.game.moves) if shown is None else max(shown, 1))
        current = document.querySelector("#moves [aria-current]")
        if current is not None and current is not jsnull and current.getAttribute("data-ply") != str(shown):
            current.removeAttribute("aria-current")
        if shown is None:
            return
        game = self.game
        label = "Reviewing the start" if shown == 0 else f"Reviewing move {game.start_ply + shown}"
        if self._changed("review-label", label):
            document.getElementById("review-label").textContent = label
            self.announce(label)
        document.querySelector("#review button[data-action=review-prev]").disabled = shown == 0
        document.querySelector("#review button[data-action=review-next]").disabled = shown == len(game.moves)
        record = game.record()
        values = self.graphs.get(record)
        if isinstance(values, list):
            content = eval_graph_svg(values, current=shown or None, first_number=game.start_ply + 1)
        else:
            note = values or ("No evaluation graph: the computer player is unavailable." if self.ai_failed
                              else "Evaluating the moves…")
            content = f'<p class="eval-note">{_esc(note)}</p>'
            if values is None and not self.ai_failed:
                self.request_graph(record)
        if self._changed("graph", content):
            document.getElementById("eval-graph").innerHTML = content
        button = document.querySelector(f'#moves [data-ply="{shown}"]') if shown else None
        if button is not None and button is not jsnull and button.getAttribute("aria-current") != "step":
            button.setAttribute("aria-current", "step")
            # last: the review area, now laid out, takes room from the list
            button.scrollIntoView(to_js({"block": "nearest"}, dict_converter=window.Object.fromEntries))
        if opens:  # the page or panel may scroll (a phone, a low window): the review area in
            # view above the sticky actions (its scroll-margin), on a phone the board too
            area.scrollIntoView(to_js({"block": "end"}, dict_converter=window.Object.fromEntries))

    def _roving_tab_stop(self, ply: int) -> None:
        """One Tab stop for the whole list (the move shown, else the last; arrow keys go on
        from there), instead of one per move."""
        stop = document.querySelector("#moves [tabindex='0']")
        if stop is not None and stop is not jsnull:
            if stop.getAttribute("data-ply") == str(ply):
                return
            stop.setAttribute("tabindex", "-1")
        button = document.querySelector(f'#moves [data-ply="{ply}"]')
        if button is not None and button is not jsnull:
            button.setAttribute("tabindex", "0")

    def draw_banner(self) -> None:
        text = None if self.review_index() is not None else result_text(self.game)  # not over the past
        if not self._changed("banner", text):
            return
        self.banner.hidden = text is None
        if text is not None:
            title, _, why = text.partition(": ")  # "Black wins: three rings removed (3 to 2)"
            document.getElementById("banner-title").textContent = title
            document.getElementById("banner-text").textContent = why[:1].upper() + why[1:]


def start() -> Page:
    """Build the page's state from the URL, draw it, listen, and flag ``data-yinsh-ready``;
    then start the AI worker if a computer plays (else it starts when first needed)."""
    page = Page()
    page.attach()
    page.draw()
    if page.game.moves or page.game.ply or page.settings.query():
        page.save_url()
    page.root.setAttribute("data-yinsh-ready", "")
    window.performance.mark("yinsh:ready")
    if any(page.level_of(c) is not None for c in COLORS):
        page.start_worker()
    return page
