"""The game page's glue (PyScript, main thread): DOM event → engine → redraw.

It holds no rule: what a click may do is asked of :class:`~yinsh.turn.Turn`, which reads
the legal moves; the board is drawn by :func:`~yinsh.render.board_svg`. Handlers are
attached once, to stable containers (event delegation survives every redraw), and never
let an exception escape: a wrong input gets a short hint, a bug a notice and a warning in
the console, never a traceback.

Testing hooks (DESIGN.md): ``<html data-yinsh-ready>`` once interactive; ``#board`` carries
``data-record``, ``data-position``, ``data-phase`` and ``data-to-move`` after every change.
"""

from __future__ import annotations

try:
    from pyodide.ffi import create_proxy, jsnull
    from pyscript import document, window
except ImportError:  # outside the browser: pytest still imports every module for its doctests
    create_proxy = document = window = jsnull = None

from ..board import parse_point, point_name
from ..game import COLORS, Game
from ..move import Move, parse_row
from ..render import board_svg, nearest_point, point_xy, ring_icon_svg
from ..state import RINGS_PER_PLAYER, pool
from ..turn import Phase, Turn, result_text
from . import ai_level, game_url, open_page

__all__ = ["Page", "start"]

DRAG_THRESHOLD_PX = 6
POOL_WARNING = 10


def _find(element, selector: str):
    """``element.closest(selector)``, or ``None`` (JavaScript's null is ``jsnull`` in Pyodide)."""
    found = element.closest(selector) if element is not None and element is not jsnull else None
    return None if found is None or found is jsnull else found


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


class Page:
    """The page's state: the game, the turn being built, and the DOM it draws into."""

    def __init__(self) -> None:
        self.root = document.documentElement
        self.board = document.getElementById("board")
        self.banner = document.getElementById("banner")
        self.proxies: list = []  # keep the event proxies alive
        self.drag: dict | None = None
        self.suppress_click = False
        self.drawn_version = None
        self.hint_text = ""
        self.notices: list[str] = []
        self.shown: dict[str, object] = {}  # what the panel shows now, part by part
        self.open_from_url()

    def open_from_url(self) -> None:
        """Open the game and players the URL asks for (at start, and when the hash changes)."""
        setup = open_page(str(window.location.search), str(window.location.hash))
        self.players = setup.players
        self.notices = list(setup.notices)
        for color in COLORS:
            level = ai_level(self.players[color])
            if level is not None:
                self.notices.append(f"Computer players arrive in a later version: {color.capitalize()} "
                                    f"(level {level}) is played by hand for now.")
        self.game: Game = setup.game
        self.turn = Turn(self.game)
        self._auto_moves()

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
                import traceback  # only now: it is not cheap to import in the browser

                self.drag = None
                window.console.warn("yinsh: " + traceback.format_exc())
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
        self.listen(document.getElementById("panel"), "click", self.on_panel_click)
        self.listen(self.banner, "click", self.on_panel_click)
        self.listen(window, "hashchange", self.on_hash_change)

    # ---------------------------------------------------------------- the game

    def _auto_moves(self) -> None:
        """Play the moves nobody chooses (a pass when no ring can move), with a notice.

        This is also where a computer player will move: when ``self.players[to_move]`` is
        ``ai-N``, send ``game.record()`` to the AI worker and play the move text it returns.
        """
        while self.turn.move is not None:
            move = self.turn.move
            if move.kind == "pass":
                name = self.turn.name
                self.notices.append(f"{name} has no ring that can move and passes.")
            self.game.play(move)
            self.turn = Turn(self.game)

    def after_decision(self, ring_moved_before, dragged: bool) -> None:
        """Redraw after a click that changed the turn; play the move once it is complete."""
        animate: bool | str = False
        if self.turn.ring_move is not None and ring_moved_before is None:
            animate = "flips" if dragged else True  # a dragged ring is already where it goes
        move = self.turn.move
        if move is not None:
            self.notices = []
            self.game.play(move)
            if move.kind == "place":
                animate = True
            self.turn = Turn(self.game)
            self._auto_moves()
            self.save_url()
        self.draw(animate=animate)

    def new_game(self) -> None:
        self.game = Game()
        self.turn = Turn(self.game)
        self.notices = []
        self.hint("")
        self.save_url()
        self.draw()

    def undo(self) -> None:
        if self.turn.reset():
            self.hint("")
            self.draw()
            return
        # a pass was never chosen: take it back together with the move before it
        chosen = [m for m in self.game.moves if m.kind != "pass"]
        if not chosen:
            self.hint("Nothing to undo")
            return
        while self.game.moves[-1].kind == "pass":
            self.game.undo()
        self.game.undo()
        self.turn = Turn(self.game)
        self.notices = []
        self.hint("")
        self.save_url()
        self.draw()

    def save_url(self) -> None:
        url = game_url(str(window.location.pathname), self.players, self.game)
        window.history.replaceState(None, "", url)

    # ---------------------------------------------------------------- events

    def on_board_click(self, event) -> None:
        if self.suppress_click:  # the click that ends a drag
            self.suppress_click = False
            return
        row_el = _find(event.target, "[data-row]")
        point_el = _find(event.target, "[data-point]")
        before = self.turn.ring_move
        if row_el is not None:
            first, _, last = str(row_el.getAttribute("data-row")).partition("-")
            self.respond(self.turn.click_row(parse_row(first, last)), before)
        elif point_el is not None:
            point = parse_point(str(point_el.getAttribute("data-point")))
            self.respond(self.turn.click_point(point), before)
        elif self.turn.cancel():  # a click on the board between the points
            self.hint("")
            self.draw()

    def respond(self, hint: str | None, ring_moved_before, dragged: bool = False) -> None:
        """Show the click's hint (or clear the last one) and redraw if the turn changed."""
        self.hint(hint or "")
        if self.turn.version != self.drawn_version or self.turn.move is not None:
            self.after_decision(ring_moved_before, dragged)

    def on_hash_change(self, event) -> None:
        """A link pasted into this tab opens its game (the page's own updates fire no event)."""
        self.end_drag()
        self.open_from_url()
        self.hint("")
        self.save_url()
        self.draw()

    def on_key(self, event) -> None:
        if event.key == "Escape":
            if self.drag is not None:
                self.end_drag()
            if self.turn.cancel():
                self.hint("")
                self.draw()

    def on_panel_click(self, event) -> None:
        button = _find(event.target, "button[data-action]")
        if button is None:
            return
        action = str(button.getAttribute("data-action"))
        if action == "new-game":
            self.new_game()
        elif action == "undo":
            self.undo()

    # Dragging a ring: pointer events, so mouse, pen and touch alike. A press that never
    # moves further than DRAG_THRESHOLD_PX is left to the click handler.

    def on_pointer_down(self, event) -> None:
        self.suppress_click = False
        self.drag = None
        if event.button != 0 or self.turn.phase not in (Phase.PICK_RING, Phase.MOVE_RING):
            return
        point_el = _find(event.target, "[data-point]")
        if point_el is None:
            return
        point = parse_point(str(point_el.getAttribute("data-point")))
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
            self.hint(f"{point_name(drag['point'])}-{point_name(target)} is not a legal move: drop the ring on a lit point")
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

    def last_move(self) -> Move | tuple[int, int] | None:
        if self.turn.ring_move is not None:
            return self.turn.ring_move
        if self.turn.decisions and self.turn.removals:
            return None  # the board has changed since the opponent's move: do not point at it
        return self.game.moves[-1] if self.game.moves else None

    def draw(self, animate: bool | str = False) -> None:
        """Redraw the board, then whatever part of the panel changed (DOM work is what costs)."""
        turn, game = self.turn, self.game
        over = game.result is not None
        self.board.innerHTML = board_svg(turn.state, last_move=self.last_move(), animate=animate,
                                         **turn.highlights())
        self.drawn_version = turn.version
        board = self.board
        record = game.record()
        if self._changed("record", record):
            board.setAttribute("data-record", record)
            board.setAttribute("data-position", game.position())
            board.setAttribute("data-result", game.result or "")
        board.setAttribute("data-phase", turn.phase.value)
        board.setAttribute("data-to-move", COLORS[turn.color])
        self.root.setAttribute("data-to-move", "" if over else COLORS[turn.color])
        prompt = (result_text(game) or "") if over else turn.prompt
        if self._changed("prompt", (prompt, turn.detail)):
            document.getElementById("prompt").textContent = prompt
            document.getElementById("detail").textContent = turn.detail
        if self._changed("notices", tuple(self.notices)):
            notices = document.getElementById("notices")
            notices.innerHTML = "".join(f"<p>{_esc(n)}</p>" for n in self.notices[-3:])
            notices.hidden = not self.notices
        self.draw_players()
        self.draw_pool()
        self.draw_moves()
        self.draw_banner()

    def _changed(self, part: str, value) -> bool:
        """Whether ``part`` of the panel must be redrawn to show ``value`` (and remember it)."""
        if self.shown.get(part) == value:
            return False
        self.shown[part] = value
        return True

    def draw_players(self) -> None:
        s = self.turn.state
        active = None if self.game.result is not None else COLORS[self.turn.color]
        key = (s.white_score, s.black_score, s.white_rings.bit_count(), s.black_rings.bit_count(),
               s.in_placement, s.rings_to_win, active, tuple(self.players.values()))
        if not self._changed("players", key):
            return
        for color, score in zip(COLORS, (s.white_score, s.black_score)):
            el = document.getElementById(f"player-{color}")
            el.classList.toggle("active", active == color)
            level = ai_level(self.players[color])
            el.querySelector(".kind").textContent = "by hand" if level is None else f"AI {level} (by hand for now)"
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
        shown = self.shown.get("moves")
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
            items.append(f'<li class="{color}" value="{number}"><span class="num">{number}.</span>'
                         f'<span class="mv">{_esc(texts[i])}</span></li>')
        return "".join(items)

    def draw_banner(self) -> None:
        text = result_text(self.game)
        if not self._changed("banner", text):
            return
        self.banner.hidden = text is None
        if text is not None:
            title, _, why = text.partition(": ")  # "Black wins: three rings removed (3 to 2)"
            document.getElementById("banner-title").textContent = title
            document.getElementById("banner-text").textContent = why[:1].upper() + why[1:]


def start() -> Page:
    """Build the page's state from the URL, draw it, listen, and flag ``data-yinsh-ready``."""
    page = Page()
    page.attach()
    page.draw()
    if page.game.moves or page.game.ply:
        page.save_url()
    page.root.setAttribute("data-yinsh-ready", "")
    window.performance.mark("yinsh:ready")
    return page
