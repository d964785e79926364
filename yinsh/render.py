"""Drawing a position as SVG: a pure function from a :class:`~yinsh.picture.Picture` to text.

The page draws its board with it, and so can anything else that wants a diagram: the
result is plain SVG text, with no script and no external reference.

>>> from yinsh.game import Game
>>> svg = board_svg(Game.from_record("1.e3 2.a5"), marked=["f6"])
>>> svg.startswith("<svg") and svg.count("data-point=") == 85
True
>>> svg.count('class="ring '), 'data-ring="a5"' in svg
(2, True)

:func:`board_svg` draws one layer after the other, each a function of the picture: the board
(edge, grid, labels), what lies under the pieces, the pieces, what lies over them, the preview
of the move under the pointer (:func:`preview_layer`, which a page also draws on its own, over
a board already drawn), the points' click targets and the candidate rows' bars.

The value drawn (:class:`~yinsh.picture.Picture`, :func:`~yinsh.picture.picture`) lives in
:mod:`yinsh.picture` and the colours (:data:`~yinsh.board_css.BOARD_CSS`,
:data:`~yinsh.board_css.PALETTES`) in :mod:`yinsh.board_css`; both are importable from here
too. Colours are not in the markup: every element has a class, and the stylesheet colours it
(``standalone=True`` embeds the stylesheet, so that a diagram saved to a file looks right on
its own).

Geometry: columns are vertical; a point's row number grows upwards along its column and
the three lines through a point run at 90°, −30° and +30°. One grid step is :data:`UNIT`
user units; :func:`point_xy` and :func:`nearest_point` convert between points and
coordinates (the page uses them for dragging).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, NamedTuple

from .board import BETWEEN, BIT, COLUMNS, POINT_NAMES, POINTS, STEPS, WIDTH, WINDOWS, points_of
from .board_css import BOARD_CSS, PALETTES
from .move import Move, row_name
from .picture import Animation, Picture, Preview, picture
from .state import flipped

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from .move import Removal

__all__ = [
    "UNIT",
    "VIEWBOX",
    "BOARD_CSS",
    "PALETTES",
    "Picture",
    "Preview",
    "Animation",
    "picture",
    "board_svg",
    "preview_layer",
    "static_board_svg",
    "point_xy",
    "nearest_point",
    "ring_icon_svg",
    "escape",
]

UNIT: Final = 50.0
"""The distance between two neighbouring points, in SVG user units."""
_SIN60: Final = 0.8660254037844386

RING_RADIUS: Final = 19.0
MARKER_RADIUS: Final = 13.5
HIT_RADIUS: Final = 22.0
_ROW_HALF_WIDTH: Final = 17.0
_EDGE: Final = UNIT  # board margin beyond the outermost points
_LABEL_GAP: Final = 0.78 * UNIT  # label distance beyond the end of a line: clear of a ring there


def point_xy(point: int) -> tuple[float, float]:
    """The SVG coordinates of ``point`` (y grows downwards, as in SVG)."""
    return _XY[point]


def _xy(point: int) -> tuple[float, float]:
    c, r = divmod(point, WIDTH)
    return round(c * _SIN60 * UNIT, 2), round((c / 2 - r) * UNIT, 2)


_XY: Final = {p: _xy(p) for p in POINTS}


def nearest_point(x: float, y: float, within: float = 0.5) -> int | None:
    """The point nearest to (x, y) if it is closer than ``within`` grid steps, else ``None``."""
    best, best_d = None, (within * UNIT) ** 2
    for p in POINTS:
        px, py = _XY[p]
        d = (px - x) ** 2 + (py - y) ** 2
        if d < best_d:
            best, best_d = p, d
    return best


def _f(v: float) -> str:
    """A coordinate as short text: ``12.5``, ``-3``."""
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


# --------------------------------------------------------------------------- the static board


def _hull(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Convex hull, counter-clockwise (Andrew's monotone chain)."""
    pts = sorted(set(points))

    def cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    upper: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 1e-9:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 1e-9:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _lines() -> list[tuple[int, int, int]]:
    """Every maximal line of the grid as (step, first point, last point)."""
    out = []
    for step in STEPS:
        for p in POINTS:
            if p - step in POINT_NAMES:
                continue
            q = p
            while q + step in POINT_NAMES:
                q += step
            if q != p:
                out.append((step, p, q))
    return out


def _labels() -> list[tuple[float, float, str]]:
    """Coordinate labels as on the printed board: letters under the columns, numbers at the
    left ends of the number lines."""
    out = []
    for step, first, _last in _lines():
        if step == 1:  # a column: up the page
            text, (ux, uy) = COLUMNS[first // WIDTH], (0.0, -1.0)
        elif step == WIDTH:  # a number line: down and to the right
            text, (ux, uy) = str(first % WIDTH), (_SIN60, 0.5)
        else:
            continue
        x0, y0 = _XY[first]
        out.append((x0 - ux * _LABEL_GAP, y0 - uy * _LABEL_GAP, text))
    return out


def _static_parts() -> tuple[str, str]:
    """The ``viewBox`` and the markup every board shares: edge, grid, point dots, labels."""
    xs = [_XY[p][0] for p in POINTS]
    ys = [_XY[p][1] for p in POINTS]
    pad = _EDGE + 6
    x0, y0 = min(xs) - pad, min(ys) - pad
    viewbox = f"{_f(x0)} {_f(y0)} {_f(max(xs) - min(xs) + 2 * pad)} {_f(max(ys) - min(ys) + 2 * pad)}"
    hull = " ".join(f"{_f(x)},{_f(y)}" for x, y in _hull([_XY[p] for p in POINTS]))
    parts = [
        f'<polygon class="yb-shadow" points="{hull}" stroke-width="{_f(2 * _EDGE)}" transform="translate(0 5)"/>',
        f'<polygon class="yb-bg" points="{hull}" stroke-width="{_f(2 * _EDGE)}"/>',
        f'<polygon class="yb-inlay" points="{hull}" stroke-width="{_f(2 * _EDGE - 8)}"/>',
        f'<polygon class="yb-bg" points="{hull}" stroke-width="{_f(2 * _EDGE - 11)}"/>',
    ]
    d = "".join(f"M{_f(_XY[a][0])} {_f(_XY[a][1])}L{_f(_XY[b][0])} {_f(_XY[b][1])}" for _, a, b in _lines())
    parts.append(f'<path class="yb-grid" d="{d}"/>')
    dots = "".join(f'<circle cx="{_f(_XY[p][0])}" cy="{_f(_XY[p][1])}" r="2.6"/>' for p in POINTS)
    parts.append(f'<g class="yb-dots">{dots}</g>')
    labels = "".join(f'<text x="{_f(x)}" y="{_f(y)}">{t}</text>' for x, y, t in _labels())
    parts.append(f'<g class="yb-labels" aria-hidden="true">{labels}</g>')
    return viewbox, "".join(parts)


# VIEWBOX is the ``viewBox`` of every board drawn here; _BOARD the markup they share.
VIEWBOX, _BOARD = _static_parts()
_BOARD_NO_LABELS: Final = _BOARD[: _BOARD.index('<g class="yb-labels"')]

_HIT: Final = {
    p: f'cx="{_f(x)}" cy="{_f(y)}" r="{_f(HIT_RADIUS)}" data-point="{POINT_NAMES[p]}"' for p, (x, y) in _XY.items()
}


# --------------------------------------------------------------------------- pieces


def _ring(p: int, color: str, extra: str = "", style: str = "", named: bool = True) -> str:
    """A ring on ``p``; ``named``: with ``data-ring`` (a ring on the board, not a preview)."""
    x, y = _f(_XY[p][0]), _f(_XY[p][1])
    style_attr = f' style="{style}"' if style else ""
    name = f' data-ring="{POINT_NAMES[p]}"' if named else ""
    return (f'<g class="ring {color}{extra}"{name}{style_attr}>'
            f'<circle class="yb-pshadow" cx="{x}" cy="{y}" r="{_f(RING_RADIUS)}"/>'
            f'<circle class="yb-rline" cx="{x}" cy="{y}" r="{_f(RING_RADIUS)}"/>'
            f'<circle class="yb-rbody" cx="{x}" cy="{y}" r="{_f(RING_RADIUS)}"/></g>')


def _marker(p: int, color: str, extra: str = "", style: str = "", radius: float = MARKER_RADIUS,
            attr: str = "data-marker") -> str:
    x, y = _XY[p]
    fx, fy, fr = _f(x), _f(y), _f(radius)
    style_attr = f' style="{style}"' if style else ""
    return (f'<g class="marker {color}{extra}" {attr}="{POINT_NAMES[p]}"{style_attr}>'
            f'<circle class="yb-mshadow" cx="{fx}" cy="{_f(y + 2.5)}" r="{fr}"/>'
            f'<circle class="yb-medge" cx="{fx}" cy="{_f(y + 2.2)}" r="{fr}"/>'
            f'<circle class="yb-mface" cx="{fx}" cy="{fy}" r="{fr}"/>'
            f'<circle class="yb-mbevel" cx="{fx}" cy="{fy}" r="{_f(radius * 0.62)}"/></g>')


def _halo(p: int, cls: str, r: float) -> str:
    x, y = _XY[p]
    return f'<circle class="{cls}" cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}"/>'


def _capsule(window: int, half: float, shift: float = 0.0) -> str:
    """The outline of a rounded bar along a five-window (a filled path, so it has an area),
    moved ``shift`` units sideways."""
    (ax, ay), (bx, by) = _XY[WINDOWS[window][0]], _XY[WINDOWS[window][-1]]
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    ux, uy = -(by - ay) / length, (bx - ax) / length
    ax, ay, bx, by = ax + ux * shift, ay + uy * shift, bx + ux * shift, by + uy * shift
    nx, ny = ux * half, uy * half
    h = _f(half)
    return (f"M{_f(ax + nx)} {_f(ay + ny)}L{_f(bx + nx)} {_f(by + ny)}"
            f"A{h} {h} 0 0 0 {_f(bx - nx)} {_f(by - ny)}L{_f(ax - nx)} {_f(ay - ny)}"
            f"A{h} {h} 0 0 0 {_f(ax + nx)} {_f(ay + ny)}Z")


def _row_order(windows: Iterable[int]) -> list[tuple[int, float]]:
    """Candidate rows in drawing order, each with its sideways shift.

    Windows sharing a line (a run of six or more) are drawn side by side, a few units
    apart, so each shows as its own bar; the outer windows are drawn first, so that every
    window keeps a part no later window covers (its outer end, or all of it in the middle).
    """
    ordered = sorted(set(windows), key=lambda w: WINDOWS[w])
    lines: list[int] = []  # each line's first point and step, ``first << 8 | step``, in drawing order
    by_line: dict[int, list[int]] = {}
    for w in ordered:
        step = WINDOWS[w][1] - WINDOWS[w][0]
        q = WINDOWS[w][0]
        while q - step in POINT_NAMES:
            q -= step
        if q << 8 | step not in by_line:
            lines.append(q << 8 | step)
        by_line.setdefault(q << 8 | step, []).append(w)
    out = []
    for line in lines:
        group = by_line[line]
        middle = (len(group) - 1) / 2
        spread = 9.0 if len(group) > 1 else 0.0
        # Outer windows first; of two as far out, the one of lower shift first (as they come).
        out += sorted(((w, (i - middle) * spread) for i, w in enumerate(group)), key=lambda ws: (-abs(ws[1]), ws[1]))
    return out


class _LastMove(NamedTuple("_LastMove", [("source", "int | None"), ("target", "int | None"),
                                         ("removals", "tuple[Removal, ...]"), ("placed", bool)])):
    """The parts of a picture's last move that the layers draw."""

    __slots__ = ()


def _last_move(move: Move | tuple[int, int] | None) -> _LastMove:
    if isinstance(move, Move):
        return _LastMove(move.source, move.target, move.before + move.after, move.kind == "place")
    if move is not None:
        return _LastMove(move[0], move[1], (), False)
    return _LastMove(None, None, (), False)


def board_svg(shown: Picture | Any, *, labels: bool = True, standalone: bool = False, title: str | None = None,
              size: int | None = None, hits: bool = True, **what: Any) -> str:
    """The SVG markup of a :class:`~yinsh.picture.Picture`, drawn layer by layer: the board,
    what lies under the pieces (candidate rows' fill, the last move's trail, marks), the
    pieces, what lies over them (choices offered now), the preview (:func:`preview_layer`),
    the points' click targets and the candidate rows' bars.

    ``shown`` may also be a position (a ``State`` or a ``Game``) with the picture's fields as
    keywords, as :func:`picture` takes them: ``board_svg(game, marked=["e4"])``.

    - ``labels``: the coordinates around the board;
    - ``standalone``: embed :data:`BOARD_CSS` and the XML namespace, for a file on its own;
      ``size`` sets its width in pixels; ``title`` its accessible name.
    - With the picture's ``point_labels`` each point's element gets ``id="yb-pt-e4"`` (for
      ``aria-activedescendant``), ``role="button"`` and that name; the ``<svg>`` itself is
      left unnamed (``role="none"``) for its container to name.

    Every point is a ``<circle data-point="e4">`` drawn last, so a click anywhere near a
    point reaches it; candidate rows are drawn above the points. ``hits=False`` leaves these
    targets out (a board shown before the page can act on it).
    """
    shown = shown if isinstance(shown, Picture) and not what else picture(shown, **what)
    last = _last_move(shown.last_move)
    bars = _row_order(list(shown.rows))
    return "".join((
        _svg_open(shown.point_labels is not None, standalone, size, title),
        _BOARD if labels else _BOARD_NO_LABELS,
        _under_layer(shown, last, bars),
        _pieces_layer(shown, last),
        _over_layer(shown, last),
        preview_layer(shown),
        _hits_layer(shown.point_labels, set(shown.clickable)) if hits else '<g class="yb-hits"></g>',
        _rows_layer(bars, shown.selected_row),
        "</svg>",
    ))


def _svg_open(on_a_page: bool, standalone: bool, size: int | None, title: str | None) -> str:
    """The ``<svg>`` element's start: its name (or none, on a page whose points are named)."""
    if not on_a_page:
        attrs = f'class="yinsh-board" viewBox="{VIEWBOX}" role="img" aria-label="{escape(title or "YINSH board")}"'
    else:  # an img's children are hidden from assistive technology: these must not be
        attrs = f'class="yinsh-board" viewBox="{VIEWBOX}" role="none"'
    if standalone:
        width = f' width="{size}"' if size else ""
        start = f'<svg xmlns="http://www.w3.org/2000/svg" {attrs}{width}><style>{BOARD_CSS}</style>'
    else:
        start = f"<svg {attrs}>"
    return start + (f"<title>{escape(title)}</title>" if title else "")


def _under_layer(shown: Picture, last: _LastMove, bars: list[tuple[int, float]]) -> str:
    """Under the pieces: the candidate rows' fill (the markers' colours stay in view), what the
    last move did, the marked points."""
    selected = shown.selected_row
    under = [f'<path class="yb-row-fill{_row_state(w, selected)}" d="{_capsule(w, _row_half(shift), shift)}"/>'
             for w, shift in bars]
    for removal in last.removals:
        under.append(f'<path class="yb-ghost-row" d="{_capsule(removal.row, 9)}"/>')
    source, target = last.source, last.target
    if source is not None and target is not None:
        (ax, ay), (bx, by) = _XY[source], _XY[target]
        under.append(f'<line class="yb-trail" x1="{_f(ax)}" y1="{_f(ay)}" x2="{_f(bx)}" y2="{_f(by)}"/>')
        under.append(_halo(source, "yb-last-from", 7))
    if target is not None:
        under.append(_halo(target, "yb-last", RING_RADIUS + 8))
    for p in shown.marked:
        under.append(_halo(p, "yb-mark", RING_RADIUS + 9))
    return f'<g class="yb-under">{"".join(under)}</g>' if under else ""


def _pieces_layer(shown: Picture, last: _LastMove) -> str:
    """The pieces: markers, then rings; the last move's animation, when it has one."""
    state, animation = shown.position, shown.animation
    source, target = last.source, last.target
    animate = animation != Animation.NONE
    crossed = 0
    slide = ""
    if animate and source is not None and target is not None:
        crossed = BETWEEN[source << 8 | target]
        (sx, sy), (tx, ty) = _XY[source], _XY[target]
        slide = f"--dx:{_f(sx - tx)}px;--dy:{_f(sy - ty)}px" if animation == Animation.SLIDE else ""
        span = ((tx - sx) ** 2 + (ty - sy) ** 2) ** 0.5 or 1.0
    pieces = []
    for color, bits in (("white", state.white_markers), ("black", state.black_markers)):
        for p in points_of(bits):
            if crossed & BIT[p]:
                x, y = _XY[p]
                delay = int(220 * (((x - sx) ** 2 + (y - sy) ** 2) ** 0.5) / span)
                pieces.append(_marker(p, color, " flip", f"--delay:{delay}ms"))
            elif animate and p == source:
                pieces.append(_marker(p, color, " drop"))
            else:
                pieces.append(_marker(p, color))
    movable, removable, selected = set(shown.movable), set(shown.removable), shown.selected_ring
    for color, bits in (("white", state.white_rings), ("black", state.black_rings)):
        for p in points_of(bits):
            extra = ""
            style = ""
            if p in movable:
                extra += " movable"
            if p in removable:
                extra += " removable"
            if p == selected:
                extra += " selected"
            if animate and p == target:
                if slide:
                    extra += " slide"
                    style = slide
                elif last.placed and animation == Animation.SLIDE:
                    extra += " drop"
            pieces.append(_ring(p, color, extra, style))
            if p == selected:
                pieces.append(_marker(p, color, " ghost", radius=MARKER_RADIUS - 1.5, attr="data-ghost"))
    return f'<g class="yb-pieces">{"".join(pieces)}</g>'


def _over_layer(shown: Picture, last: _LastMove) -> str:
    """Over the pieces: the rings the last move removed, the markers it turned over, and the
    choices offered now."""
    state = shown.position
    over = []
    for removal in last.removals:
        if not (state.white_rings | state.black_rings) & BIT[removal.ring]:
            over.append(_halo(removal.ring, "yb-ghost-ring", RING_RADIUS))
    if last.source is not None and last.target is not None:
        turned = flipped(state, last.source, last.target)
        over += [_halo(p, "yb-flipped", MARKER_RADIUS + 2.5) for p in points_of(turned)]
    for p in shown.removable:
        over.append(_halo(p, "yb-removable", RING_RADIUS + 7))
    selected = shown.selected_ring
    if selected is not None:
        over.append(_halo(selected, "yb-selected", RING_RADIUS + 7))
    for p in shown.movable:
        if p != selected:
            over.append(_halo(p, "yb-movable", RING_RADIUS + 6))
    for p in shown.destinations:
        x, y = _XY[p]
        over.append(f'<circle class="yb-dest" data-dest="{POINT_NAMES[p]}" cx="{_f(x)}" cy="{_f(y)}" r="7"/>')
    return f'<g class="yb-over">{"".join(over)}</g>' if over else ""


def _hits_layer(point_labels: Mapping[int, str] | None, clickable: set[int]) -> str:
    """Every point's click target, drawn over the pieces; on a page, each a named button."""
    if point_labels is None:
        targets = "".join(f'<circle class="hit{" can" if p in clickable else ""}" {_HIT[p]}/>' for p in POINTS)
    else:  # every point is a button: pressing one that cannot act now explains why
        targets = "".join(
            f'<circle class="hit{" can" if p in clickable else ""}" {_HIT[p]} id="yb-pt-{POINT_NAMES[p]}" '
            f'role="button" aria-label="{escape(point_labels[p])}"/>'
            for p in POINTS
        )
    return f'<g class="yb-hits">{targets}</g>'


def _rows_layer(bars: list[tuple[int, float]], selected_row: int | None) -> str:
    """The candidate rows' bars, above everything: a click on one chooses it."""
    if not bars:
        return ""
    shapes = "".join(f'<path class="row{_row_state(w, selected_row)}" data-row="{row_name(w)}" '
                     f'd="{_capsule(w, _row_half(shift), shift)}"/>' for w, shift in bars)
    return f'<g class="yb-rows">{shapes}</g>'


def _row_state(window: int, selected: int | None) -> str:
    """A candidate row's extra classes: the one chosen, and the others once one is."""
    if selected is None:
        return ""
    return " selected" if window == selected else " dim"


def _row_half(shift: float) -> float:
    """Half the width of a candidate row's bar (narrower when it shares its line)."""
    return _ROW_HALF_WIDTH - (3 if shift else 0)


def preview_layer(shown: Picture) -> str:
    """What the picture's :class:`~yinsh.picture.Preview` would do, drawn over the pieces and
    under the points (so that it takes no click; ``""`` without a preview): a see-through ring
    of the mover's colour where the picked ring would land; a dashed circle round every marker
    it would flip, with a dot of the colour it would turn to; a dashed outline along each row
    it would make; and the candidate row a click would choose, outlined with its five markers
    ringed. A page draws it on its own too, over a board already drawn (a dragged ring stays
    lifted).

    >>> from yinsh.board import parse_point as P
    >>> from yinsh.state import make_state
    >>> s = make_state(["e2"], ["k10"], ["e3"], ["e4"])
    >>> svg = preview_layer(Picture(s, preview=Preview("white", ring=P("e5"), flips=(P("e3"), P("e4")))))
    >>> svg.count('class="yb-preview-flip"'), svg.count("yb-turns-black"), svg.count("yb-turns-white")
    (2, 1, 1)
    """
    shown_preview = shown.preview
    if shown_preview is None:
        return ""
    state = shown.position
    parts = []
    for w in shown_preview.rows:
        parts.append(f'<path class="yb-preview-row" d="{_capsule(w, _ROW_HALF_WIDTH + 3)}"/>')
    row = shown_preview.row
    if row is not None:
        parts.append(f'<path class="yb-preview-take" d="{_capsule(row, _ROW_HALF_WIDTH + 1)}"/>')
        parts += [_halo(p, "yb-preview-leave", MARKER_RADIUS + 3) for p in WINDOWS[row]]
    for p in sorted(shown_preview.flips):
        turns = "black" if state.white_markers & BIT[p] else "white"
        parts.append(_halo(p, "yb-preview-flip", MARKER_RADIUS + 3.5))
        parts.append(_halo(p, f"yb-turns-{turns}", 5))
    if shown_preview.ring is not None:
        parts.append(_ring(shown_preview.ring, shown_preview.color, " preview", named=False))
    return f'<g class="yb-preview" aria-hidden="true">{"".join(parts)}</g>'


def escape(text: str) -> str:
    """``text`` made safe inside HTML or SVG text and attribute values."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def static_board_svg() -> str:
    """The empty board the pages' HTML draws before Python starts (``index.html``,
    ``embed.html``): no click targets yet, so nothing there looks clickable, and the lightest
    markup to parse and lay out (Python draws the playable board over it).

    >>> "data-point" in static_board_svg(), static_board_svg().count("<circle")
    (False, 85)
    """
    from .game import Game

    return board_svg(Game(), hits=False)


def ring_icon_svg(color: str, filled: bool = True) -> str:
    """A small ring icon (for scores beside a player's name), coloured by the same CSS.

    >>> ring_icon_svg("white").count("<circle")
    2
    """
    state = "" if filled else " empty"
    return (f'<svg class="yinsh-board ring-icon{state}" viewBox="-12 -12 24 24" aria-hidden="true">'
            f'<g class="ring {color}"><circle class="yb-rline" r="8.5"/><circle class="yb-rbody" r="8.5"/></g></svg>')
