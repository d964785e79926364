"""The board's input (PyScript, main thread): clicks, taps, drags and keys become decisions.

Every input goes one way: the point (or row) it is for is found here, the session makes the
decision (:meth:`~yinsh.page.session.Session.click_point`, which asks the
:class:`~yinsh.turn.Turn`), and the page is drawn again from the session's status — the
handlers are attached with :func:`~yinsh.web.dom.listen`, which does that after each of them.

- A click or a tap acts on the point under it, else on the nearest point within
  :data:`TOUCH_TARGET_PX` / 2 on the screen: a finger is broad, no gap between points is dead.
- In a row choice, a click on a marker that several candidate rows share takes the row whose
  middle is nearest the pointer (:func:`~yinsh.page.preview.row_at`, the row the board
  previews there), whichever shape is drawn on top.
- A ring may be dragged (pointer events: mouse, pen and touch alike); a press that moves
  less than :data:`DRAG_THRESHOLD_PX` is left to the click. The lifted ring follows the
  pointer and the lit point under it is marked (that is the only DOM this module touches:
  it must follow the pointer at once).
- Where the mouse (or a dragged ring, or the keyboard's focus) is on the board is told to the
  session (:meth:`~yinsh.page.session.Session.point_to`), which previews what acting there does.
- Keys: the arrows move the keyboard's focus from point to point along the board's lines
  (:func:`~yinsh.page.access.neighbour`), Enter and Space act on it, Escape cancels.
- The input used last sets the session's input mode, whose words the page says
  (:mod:`yinsh.page.words`): a key pressed, the keyboard's; a press on the board, the pointer's
  (touch on a touch screen with no mouse, else the mouse).
"""

from __future__ import annotations

from ..board import parse_point, point_name
from ..move import parse_row_name
from ..page.access import neighbour, row_for_key, rows_through
from ..page.preview import row_at
from ..page.session import Session
from ..page.status import status
from ..page.words import KEYBOARD, MOUSE, TOUCH
from ..render import UNIT, nearest_point, point_xy
from ..turn import Phase
from .dom import element, find, window
from .view import View

__all__ = ["BoardInput", "DRAG_THRESHOLD_PX", "TOUCH_TARGET_PX", "TOUCH_ONLY", "MODIFIER_KEYS"]

DRAG_THRESHOLD_PX = 6
TOUCH_TARGET_PX = 44
"""A touch target's size on the screen: a tap within half of it from a point is for that
point (the nearest one where targets overlap, as they do on a phone: points are 34 px apart)."""
TOUCH_ONLY = "(hover: none) and (pointer: coarse)"
"""The media query of a touch screen with no mouse: the page then says "tap" (and hides the
keyboard shortcuts' button, in yinsh.css)."""
MODIFIER_KEYS = ("Shift", "Control", "Alt", "Meta", "AltGraph", "CapsLock")
"""Keys that, pressed alone, say nothing about how the person plays (the mode stays)."""


class BoardInput:
    """The board's pointer and keyboard handlers, acting on ``session``; ``view`` is asked
    only where the screen itself is the question (where a point is, the focus)."""

    def __init__(self, session: Session, view: View) -> None:
        self.session = session
        self.view = view
        self.board = view.board
        self.drag: dict | None = None
        self.suppress_click = False
        self.pointer_mode = TOUCH if bool(window.matchMedia(TOUCH_ONLY).matches) else MOUSE
        """The input mode of a press on the board: touch on a touch screen with no mouse."""
        session.set_input_mode(self.pointer_mode)

    def attach(self, listen) -> None:
        """``listen(target, event, handler)`` attaches each handler (see :func:`yinsh.web.dom.listen`)."""
        for event, handler in (("click", self.on_click), ("pointerdown", self.on_pointer_down),
                               ("pointermove", self.on_pointer_move), ("pointerup", self.on_pointer_up),
                               ("pointercancel", self.on_pointer_cancel), ("keydown", self.on_key),
                               ("pointerleave", self.on_pointer_leave), ("focusout", self.on_blur)):
            listen(self.board, event, handler)

    # ------------------------------------------------------------------ clicks

    def on_click(self, event) -> None:
        if self.suppress_click:  # the click that ends a drag
            self.suppress_click = False
            return
        if self.session.locked_out():
            return
        point = self.point_at(event)
        row = None
        if point is not None:
            x, y = self.svg_xy(event) if event.clientX or event.clientY else (None, None)
            row = row_at(self.session.turn, point, x, y)
        else:  # a click with no position (a script's) on a row's shape: that row
            shape = find(event.target, "[data-row]")
            if shape is not None:
                row = parse_row_name(str(shape.getAttribute("data-row")))
        if row is not None:
            self.session.click_row(row)
        elif point is not None:
            self.view.focus_point = point
            self.session.click_point(point)
        else:
            self.session.cancel()  # a click on the board beyond the points

    def point_at(self, event) -> int | None:
        """The point a click or a press is for: the one under it, else the nearest one within
        TOUCH_TARGET_PX / 2 on the screen (or half a grid step on a large board)."""
        hit = find(event.target, "[data-point]")
        if hit is not None:
            return parse_point(str(hit.getAttribute("data-point")))
        if event.clientX == 0 and event.clientY == 0:  # a click with no position (keyboard, script)
            return None
        px_per_unit = float(self.board.querySelector("svg").getScreenCTM().a) or 1.0
        within = max(0.5, TOUCH_TARGET_PX / 2 / (UNIT * px_per_unit))  # in grid steps
        x, y = self.svg_xy(event)
        return nearest_point(x, y, within)

    def svg_xy(self, event) -> tuple[float, float]:
        svg = self.board.querySelector("svg")
        point = svg.createSVGPoint()
        point.x = event.clientX
        point.y = event.clientY
        local = point.matrixTransform(svg.getScreenCTM().inverse())
        return float(local.x), float(local.y)

    # ------------------------------------------------------------------ keys

    def note_key(self, event) -> None:
        """A key was pressed (on the board or anywhere on the page): the words become the
        keyboard's."""
        if str(event.key) not in MODIFIER_KEYS:
            self.session.set_input_mode(KEYBOARD)

    def on_key(self, event) -> None:
        """The board's keys (the board has the focus): arrows move the focus along the lines,
        Enter and Space act on the focused point as a click would."""
        self.note_key(event)  # the arrows go no further than the board
        if event.ctrlKey or event.altKey or event.metaKey:
            return
        key = str(event.key)
        if key.startswith("Arrow"):
            event.preventDefault()
            event.stopPropagation()  # arrows outside the board step through the moves
            self.board.classList.add("keyboard")
            self.view.focus_point = neighbour(self.view.focus_point, key, bool(event.shiftKey))
            self.view.show_focus()
            self.session.point_to(self.view.focus_point, by_key=True)
        elif key in ("Enter", " "):
            event.preventDefault()
            self.board.classList.add("keyboard")
            point = self.view.focus_point
            row = None if self.session.board_locked() else row_for_key(self.session.turn, point)
            if row is not None:
                self.session.click_row(row)
            else:
                self.session.click_point(point)
            self.session.point_to(point, by_key=True)

    def on_blur(self, event) -> None:
        """The board lost the keyboard's focus: its point is no longer previewed."""
        pointer = self.session.pointer
        if pointer is not None:
            _, _, _, by_key = pointer
            if by_key:
                self.session.point_to(None)

    # ------------------------------------------------------------------ the pointer over the board

    def on_pointer_leave(self, event) -> None:
        if self.drag is None or not self.drag["active"]:
            self.session.point_to(None)

    def hover(self, event) -> None:
        """A mouse or a pen over the board (a finger has no hover): the point under it."""
        if str(event.pointerType) == "touch":
            return
        x, y = self.svg_xy(event)
        point = nearest_point(x, y)
        before = self.session.pointer
        if point is None:
            if before is not None:
                self.session.point_to(None)
            return
        same = before is not None and before[0] == point and not before[3]  # the mouse's own, on this point
        if not same or len(rows_through(self.session.turn, point)) > 1:  # only there does it matter where
            self.session.point_to(point, x, y)

    # ------------------------------------------------------------------ dragging a ring

    def note_pointer(self) -> None:
        """A press (on the board or anywhere on the page): the words become the pointer's again."""
        self.session.set_input_mode(self.pointer_mode)

    def on_pointer_down(self, event) -> None:
        self.note_pointer()
        self.suppress_click = False
        self.drag = None
        self.board.classList.remove("keyboard")
        turn = self.session.turn
        if event.button != 0 or turn.phase not in (Phase.PICK_RING, Phase.MOVE_RING) or self.session.board_locked():
            return
        point = self.point_at(event)
        if point is None or (point not in turn.movable_rings and point != turn.selected_ring):
            return
        self.drag = {"id": event.pointerId, "point": point, "x": event.clientX, "y": event.clientY,
                     "active": False, "ring": None, "over": None}

    def on_pointer_move(self, event) -> None:
        drag = self.drag
        if drag is None or event.pointerId != drag["id"]:
            self.hover(event)
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
        over = over if over in self.session.turn.destinations else None
        if over != drag["over"]:
            self.session.point_to(over, x, y)
            for point, add in ((drag["over"], False), (over, True)):
                hit = None if point is None else element(
                    self.board.querySelector(f'[data-point="{point_name(point)}"]'))
                if hit is not None:
                    hit.classList.toggle("drop-target", add)
            drag["over"] = over

    def start_drag(self, drag: dict, pointer_id) -> None:
        """The press became a drag: pick the ring (if it was not) and lift it above the others."""
        drag["active"] = True
        self.board.setPointerCapture(pointer_id)  # the board outlives every redraw
        self.session.pick(drag["point"])
        self.view.draw(status(self.session))  # the ring picked, before it is lifted
        self.board.classList.add("dragging")
        ring = element(self.board.querySelector(f'[data-ring="{point_name(drag["point"])}"]'))
        drag["ring"] = ring
        if ring is not None:
            ring.classList.add("lifted")
            ring.parentNode.appendChild(ring)

    def on_pointer_up(self, event) -> None:
        drag = self.drag
        if drag is None or event.pointerId != drag["id"] or not drag["active"]:
            self.drag = None
            return
        self.end_drag()
        self.suppress_click = True  # the click that follows is this drop
        x, y = self.svg_xy(event)
        target = nearest_point(x, y)
        if target is not None and target in self.session.turn.destinations:
            self.session.click_point(target, dragged=True)
            return
        if target is not None and target != drag["point"]:
            self.session.say(f"{point_name(drag['point'])}-{point_name(target)} is not a legal move: "
                             "drop the ring on a lit point")

    def on_pointer_cancel(self, event) -> None:
        self.end_drag()

    def end_drag(self) -> None:
        """Forget the drag (a drop, Escape, Undo, a new game: whatever it was, it is over);
        the lifted ring goes back to its point at the next drawing."""
        if self.drag is not None and self.drag["active"]:
            try:
                self.board.releasePointerCapture(self.drag["id"])
            except Exception:
                pass
            self.view.forget_board()
        self.drag = None
        self.board.classList.remove("dragging")
