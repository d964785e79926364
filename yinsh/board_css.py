"""The board's stylesheet and its themes: the colours of every board :mod:`yinsh.render` draws.

Colours are not in the markup: every element has a class, and :data:`BOARD_CSS` colours
them through CSS custom properties. A page (or a theme) sets the public variables
``--yinsh-board``, ``--yinsh-line``, ``--yinsh-white``, … on any ancestor to restyle the
board; left unset, a light palette is used, or a dark one under
``prefers-color-scheme: dark``, unless an ancestor's ``data-theme`` names one of
:data:`PALETTES` (``light``, ``dark``, ``high-contrast``).

>>> BOARD_CSS.startswith(".yinsh-board{"), sorted(PALETTES)
(True, ['dark', 'high-contrast', 'light'])
"""

from __future__ import annotations

from typing import Final

__all__ = ["PALETTES", "BOARD_CSS"]

PALETTES: Final[dict[str, dict[str, str]]] = {
    "light": {
        "board": "#ecdcb9", "board-edge": "#d3bc90", "board-shadow": "rgba(60,40,10,.22)",
        "line": "#8b7352", "label": "#6b5638", "grid-width": "1.4px",
        "white": "#fdfbf6", "white-line": "#2d2924", "black": "#2a2b31", "black-line": "#9d9fa8",
        "bevel-white": "rgba(0,0,0,.13)", "bevel-black": "rgba(255,255,255,.5)",
        "outline": "1.3px", "ring-edge": "9.5px", "piece-shadow": "rgba(40,25,5,.28)",
        "accent": "#127c8a", "row": "#e8910c", "remove": "#c2362b", "last": "#6d4fd8",
        "mark": "#1769c2", "hover": "rgba(18,124,138,.16)",
    },
    "dark": {
        "board": "#2c333c", "board-edge": "#414b57", "board-shadow": "rgba(0,0,0,.45)",
        "line": "#8794a3", "label": "#9aa6b4", "grid-width": "1.4px",
        "white": "#eeebe4", "white-line": "#0b0c0e", "black": "#121317", "black-line": "#b4bfcb",
        "bevel-white": "rgba(0,0,0,.16)", "bevel-black": "rgba(255,255,255,.45)",
        "outline": "1.3px", "ring-edge": "9.5px", "piece-shadow": "rgba(0,0,0,.5)",
        "accent": "#4cc9d9", "row": "#f3b446", "remove": "#ff7a6b", "last": "#ab9cff",
        "mark": "#6fb0ff", "hover": "rgba(76,201,217,.2)",
    },
    # Pure black and white, thick outlines, one strong colour (yellow) for what may be chosen.
    "high-contrast": {
        "board": "#000000", "board-edge": "#ffffff", "board-shadow": "transparent",
        "line": "#ffffff", "label": "#ffffff", "grid-width": "2px",
        "white": "#ffffff", "white-line": "#000000", "black": "#000000", "black-line": "#ffffff",
        "bevel-white": "#000000", "bevel-black": "#ffffff",
        "outline": "2.5px", "ring-edge": "12.5px", "piece-shadow": "transparent",
        "accent": "#ffd400", "row": "#00e5ff", "remove": "#ff5c5c", "last": "#ff7bf2",
        "mark": "#00e5ff", "hover": "rgba(255,212,0,.35)",
    },
}
"""The board's themes. Each entry ``name`` is the custom property ``--yb-<name>``, which a
page may override with ``--yinsh-<name>``. ``light`` is the default and ``dark`` applies
under ``prefers-color-scheme: dark``; ``data-theme="light"``, ``"dark"`` or
``"high-contrast"`` on an ancestor (the page puts it on ``<html>``) chooses one. White and
black pieces differ by more than colour: a light piece has a dark outline, a dark piece a
light outline and inner ring."""


# The order the stylesheet lists the themes and their entries in (a dict's order is CPython's only).
_THEME_ORDER: Final = ("light", "dark", "high-contrast")
_ENTRY_ORDER: Final = (
    "board", "board-edge", "board-shadow", "line", "label", "grid-width", "white", "white-line", "black",
    "black-line", "bevel-white", "bevel-black", "outline", "ring-edge", "piece-shadow", "accent", "row", "remove",
    "last", "mark", "hover",
)


def _palette(theme: str) -> str:
    entries = [f"--yb-{name}:var(--yinsh-{name},{PALETTES[theme][name]});" for name in _ENTRY_ORDER]
    return "\n".join("".join(entries[i:i + 3]) for i in range(0, len(entries), 3))


BOARD_CSS: Final = (
    f".yinsh-board{{\n{_palette('light')}\nfont-family:system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif}}\n"
    f"@media (prefers-color-scheme:dark){{.yinsh-board{{\n{_palette('dark')}}}}}\n"
    + "".join(f"[data-theme={theme}] .yinsh-board{{\n{_palette(theme)}}}\n" for theme in _THEME_ORDER)
    # A backslash ending a line below only wraps the source: the rule stays one line in the CSS.
    + """\
.yinsh-board .yb-bg{fill:var(--yb-board);stroke:var(--yb-board);stroke-linejoin:round}
.yinsh-board .yb-inlay{fill:var(--yb-board-edge);stroke:var(--yb-board-edge);stroke-linejoin:round}
.yinsh-board .yb-shadow{fill:var(--yb-board-shadow);stroke:var(--yb-board-shadow);stroke-linejoin:round;opacity:.6}
.yinsh-board .yb-grid{fill:none;stroke:var(--yb-line);stroke-width:var(--yb-grid-width);stroke-linecap:round}
.yinsh-board .yb-dots{fill:var(--yb-line)}
.yinsh-board .yb-labels{fill:var(--yb-label);font-size:14px;font-weight:600;\
text-anchor:middle;dominant-baseline:central;letter-spacing:.02em;user-select:none}
.yinsh-board .yb-pshadow{fill:none;stroke:var(--yb-piece-shadow);stroke-width:8px;transform:translate(1.5px,2.5px)}
.yinsh-board .yb-rline{fill:none;stroke-width:var(--yb-ring-edge)}
.yinsh-board .yb-rbody{fill:none;stroke-width:6.5px}
.yinsh-board .ring.white .yb-rline{stroke:var(--yb-white-line)}
.yinsh-board .ring.white .yb-rbody{stroke:var(--yb-white)}
.yinsh-board .ring.black .yb-rline{stroke:var(--yb-black-line)}
.yinsh-board .ring.black .yb-rbody{stroke:var(--yb-black)}
.yinsh-board .yb-mshadow{fill:var(--yb-piece-shadow)}
.yinsh-board .yb-medge,.yinsh-board .yb-mface{stroke-width:var(--yb-outline)}
.yinsh-board .marker.white .yb-mface,\
.yinsh-board .marker.black .yb-medge{fill:var(--yb-white);stroke:var(--yb-white-line)}
.yinsh-board .marker.black .yb-mface,\
.yinsh-board .marker.white .yb-medge{fill:var(--yb-black);stroke:var(--yb-black-line)}
.yinsh-board .yb-mbevel{fill:none;stroke-width:var(--yb-outline)}
.yinsh-board .marker.white .yb-mbevel{stroke:var(--yb-bevel-white)}
.yinsh-board .marker.black .yb-mbevel{stroke:var(--yb-bevel-black)}
.yinsh-board .marker.ghost{opacity:.9}
.yinsh-board .marker.ghost .yb-mshadow,.yinsh-board .marker.ghost .yb-medge{display:none}
.yinsh-board .yb-trail{stroke:var(--yb-last);stroke-width:3px;stroke-linecap:round;stroke-dasharray:2 7;opacity:.8}
.yinsh-board .yb-last{fill:var(--yb-last);opacity:.2}
.yinsh-board .yb-last-from{fill:var(--yb-last);opacity:.55}
.yinsh-board .yb-ghost-row{fill:var(--yb-last);opacity:.13}
.yinsh-board .yb-ghost-ring{fill:none;stroke:var(--yb-last);stroke-width:2px;stroke-dasharray:4 4;opacity:.75}
.yinsh-board .yb-mark{fill:none;stroke:var(--yb-mark);stroke-width:3.5px;opacity:.9}
.yinsh-board .yb-dest{fill:var(--yb-accent);stroke:var(--yb-board);stroke-width:2px}
.yinsh-board .yb-selected{fill:none;stroke:var(--yb-accent);stroke-width:3.5px}
.yinsh-board .yb-movable{fill:none;stroke:var(--yb-accent);stroke-width:2px;stroke-dasharray:3 5;opacity:.7}
.yinsh-board .yb-removable{fill:none;stroke:var(--yb-remove);stroke-width:3px;stroke-dasharray:6 4}
.yinsh-board .hit{fill:transparent;stroke:none;pointer-events:all}
.yinsh-board .hit.can{cursor:pointer}
.yinsh-board .hit.can:hover{fill:var(--yb-hover);stroke:var(--yb-accent);stroke-width:2px}
.yinsh-board .yb-row-fill{fill:var(--yb-row);opacity:.4}
.yinsh-board .yb-row-fill.selected{opacity:.62}
.yinsh-board .yb-row-fill.dim{opacity:.12}
.yinsh-board .row{fill:transparent;stroke:var(--yb-row);stroke-width:2.5px;cursor:pointer}
.yinsh-board .row.selected{stroke-width:4px}
.yinsh-board .row.dim{stroke-opacity:.4;stroke-dasharray:5 5}
.yinsh-board .yb-flipped{fill:none;stroke:var(--yb-last);stroke-width:2.2px;opacity:.9}
.yinsh-board .yb-preview{pointer-events:none}
.yinsh-board .ring.preview{opacity:.55}
.yinsh-board .yb-preview-flip{fill:none;stroke:var(--yb-accent);stroke-width:3px;stroke-dasharray:4 3}
.yinsh-board .yb-turns-white{fill:var(--yb-white);stroke:var(--yb-white-line);stroke-width:1.2px}
.yinsh-board .yb-turns-black{fill:var(--yb-black);stroke:var(--yb-black-line);stroke-width:1.2px}
.yinsh-board .yb-preview-row{fill:none;stroke:var(--yb-row);stroke-width:3px;stroke-dasharray:8 5}
.yinsh-board .yb-preview-take{fill:none;stroke:var(--yb-row);stroke-width:4.5px}
.yinsh-board .yb-preview-leave{fill:none;stroke:var(--yb-row);stroke-width:3px}
[data-theme=high-contrast] .yinsh-board .ring.black .yb-rbody{stroke-dasharray:5 3}
.yinsh-board .ring,.yinsh-board .marker{transform-box:fill-box;transform-origin:center}
.yinsh-board .ring.slide{animation:yb-slide .26s cubic-bezier(.3,.7,.4,1) both}
.yinsh-board .marker.flip{animation:yb-flip .3s ease-in-out var(--delay,0ms) both}
.yinsh-board .marker.flip.black .yb-mface,\
.yinsh-board .marker.flip.white .yb-medge{animation:yb-was-white .3s linear var(--delay,0ms) both}
.yinsh-board .marker.flip.white .yb-mface,\
.yinsh-board .marker.flip.black .yb-medge{animation:yb-was-black .3s linear var(--delay,0ms) both}
.yinsh-board .drop{animation:yb-drop .22s ease-out both}
@keyframes yb-slide{from{transform:translate(var(--dx),var(--dy))}}
@keyframes yb-flip{0%{transform:scaleX(1)}50%{transform:scaleX(0)}100%{transform:scaleX(1)}}
@keyframes yb-was-white{0%,49.9%{fill:var(--yb-white);stroke:var(--yb-white-line)}\
50%,100%{fill:var(--yb-black);stroke:var(--yb-black-line)}}
@keyframes yb-was-black{0%,49.9%{fill:var(--yb-black);stroke:var(--yb-black-line)}\
50%,100%{fill:var(--yb-white);stroke:var(--yb-white-line)}}
@keyframes yb-drop{from{transform:scale(.6);opacity:0}}
@media (prefers-reduced-motion:reduce){.yinsh-board *{animation:none!important}}
"""
)
"""The board's stylesheet (also shipped as ``static/css/board.css`` for the page)."""
