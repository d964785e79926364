"""The board drawing: a pure function from a position (and highlights) to SVG text.

Golden files: the static board inside index.html (drawn before Python starts) and
static/css/board.css are the renderer's own output. After changing the renderer, rewrite
them with ``UPDATE_GOLDEN=1 pytest tests/test_render.py``.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers import choices

from yinsh.board import POINTS, WINDOWS, parse_point, point_name
from yinsh.game import Game
from yinsh.move import Move, parse_row, row_name
from yinsh.record import read_records
from yinsh.render import (
    BOARD_CSS,
    UNIT,
    VIEWBOX,
    _row_order,
    board_svg,
    nearest_point,
    point_xy,
    ring_icon_svg,
    static_board_svg,
)
from yinsh.state import make_state
from yinsh.turn import Turn

ROOT = Path(__file__).resolve().parents[1]
SVG = "{http://www.w3.org/2000/svg}"
UPDATE = os.environ.get("UPDATE_GOLDEN", "") not in ("", "0")
REGENERATE = "UPDATE_GOLDEN=1 pytest tests/test_render.py"
BOARD_CSS_HEADER = f"/* The YINSH board (generated from yinsh.render.BOARD_CSS: {REGENERATE}). */\n"


def P(name):
    return parse_point(name)


def parse(svg: str) -> ET.Element:
    """The SVG as an element tree (standalone markup carries the namespace)."""
    if "xmlns=" not in svg[:200]:
        svg = svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
    return ET.fromstring(svg)


def elements(root: ET.Element, attr: str) -> list[ET.Element]:
    return [e for e in root.iter() if attr in e.attrib]


def brave_combo(plies: int) -> Game:
    records = read_records((ROOT / "tests/data/games.ygn").read_text())
    record = next(r for r in records if "BraveCombo" in r.tags["Game"])
    game = Game()
    for move in record.game.moves[:plies]:
        game.play(move)
    return game


class TestBoard:
    def test_every_point_is_one_element_named_in_notation(self):
        root = parse(board_svg(Game()))
        names = [e.get("data-point") for e in elements(root, "data-point")]
        assert len(names) == 85 and set(names) == {point_name(p) for p in POINTS}

    def test_points_sit_on_a_triangular_grid(self):
        # neighbours along each of the three lines are one unit apart
        for p in POINTS:
            for step in (1, 12, 13):
                if p + step in POINTS:
                    (x0, y0), (x1, y1) = point_xy(p), point_xy(p + step)
                    assert abs(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 - UNIT) < 0.05
        # a column runs straight up the page
        assert point_xy(P("e2"))[0] == point_xy(P("e9"))[0] and point_xy(P("e9"))[1] < point_xy(P("e2"))[1]

    def test_grid_lines_join_the_points(self):
        root = parse(board_svg(Game()))
        grid = next(e for e in root.iter() if e.get("class") == "yb-grid")
        segments = re.findall(r"M([-\d.]+) ([-\d.]+)L([-\d.]+) ([-\d.]+)", grid.get("d"))
        # one segment per maximal line in each of the three directions
        expected = sum(1 for step in (1, 12, 13) for p in POINTS if p - step not in POINTS and p + step in POINTS)
        assert len(segments) == expected == 33
        xy = {(round(x, 1), round(y, 1)) for x, y in map(point_xy, POINTS)}
        for x0, y0, x1, y1 in segments:
            assert (round(float(x0), 1), round(float(y0), 1)) in xy and (round(float(x1), 1), round(float(y1), 1)) in xy

    def test_coordinate_labels_round_the_edge(self):
        root = parse(board_svg(Game()))
        texts = [e.text for e in root.iter(SVG + "text")]
        assert sorted(t for t in texts if t.isalpha()) == list("abcdefghijk")
        assert sorted(int(t) for t in texts if t.isdigit()) == list(range(1, 12))
        labels_group = next(e for e in root.iter() if e.get("class") == "yb-labels")
        assert len(list(labels_group)) == len(texts)  # every text is a label: no text on pieces
        assert "<text" not in board_svg(Game(), labels=False)

    def test_view_box_holds_the_board_and_labels(self):
        x, y, w, h = map(float, VIEWBOX.split())
        for p in POINTS:
            px, py = point_xy(p)
            assert x + UNIT / 2 < px < x + w - UNIT / 2 and y + UNIT / 2 < py < y + h - UNIT / 2
        assert 0.85 < w / h < 1.15  # near square: fits a portrait phone as well as a wide window

    def test_nearest_point(self):
        for p in POINTS:
            x, y = point_xy(p)
            assert nearest_point(x + 10, y - 10) == p
        x, y = point_xy(P("a2"))
        assert nearest_point(x - UNIT, y) is None

    def test_markup_is_well_formed_and_colourless(self):
        game = brave_combo(57)
        turn = Turn(game)
        turn.click_point(P("f5"))
        svg = board_svg(turn.state, last_move=game.moves[-1], **choices(turn))
        parse(svg)
        # colours come from CSS custom properties, so themes and dark mode restyle the board
        assert not re.search(r"(fill|stroke)=\"#", svg) and "style=\"fill" not in svg
        standalone = board_svg(game, standalone=True, size=480, title="A <diagram>")
        root = parse(standalone)
        assert root.get("width") == "480" and root.find(SVG + "style") is not None
        assert root.find(SVG + "title").text == "A <diagram>"


class TestPieces:
    def setup_method(self):
        self.game = brave_combo(40)
        self.root = parse(board_svg(self.game))
        self.s = self.game.state

    def test_rings_are_hollow_outlines(self):
        rings = elements(self.root, "data-ring")
        assert len(rings) == self.s.white_rings.bit_count() + self.s.black_rings.bit_count() == 9
        for ring in rings:
            classes = [c.get("class") for c in ring]
            assert classes == ["yb-pshadow", "yb-rline", "yb-rbody"]  # outline, then body, no fill
        assert ".yb-rline{fill:none" in BOARD_CSS and ".yb-rbody{fill:none" in BOARD_CSS

    def test_markers_are_two_faced_discs(self):
        markers = elements(self.root, "data-marker")
        assert len(markers) == self.s.white_markers.bit_count() + self.s.black_markers.bit_count()
        for m in markers:
            assert [c.get("class") for c in m] == ["yb-mshadow", "yb-medge", "yb-mface", "yb-mbevel"]
            assert m.get("class") in ("marker white", "marker black")
        # the edge shows the other colour, the face this one; both outlined
        assert ".marker.white .yb-mface,.yinsh-board .marker.black .yb-medge{fill:var(--yb-white);stroke:" in BOARD_CSS

    def test_piece_colours_follow_the_state(self):
        whites = {e.get("data-marker") for e in elements(self.root, "data-marker") if "white" in e.get("class")}
        from yinsh.board import points_of

        assert whites == {point_name(p) for p in points_of(self.s.white_markers)}

    def test_ring_icon(self):
        root = parse(ring_icon_svg("black", filled=False))
        assert "empty" in root.get("class")


class TestHighlights:
    def test_last_move_is_marked(self):
        game = brave_combo(48)  # 48.g5-i7;xg3-g7xi7
        root = parse(board_svg(game))
        classes = [e.get("class") for e in root.iter()]
        assert "yb-trail" in classes and "yb-last" in classes
        assert "yb-ghost-row" in classes and "yb-ghost-ring" in classes  # removed row and ring shown
        trail = next(e for e in root.iter() if e.get("class") == "yb-trail")
        assert (float(trail.get("x1")), float(trail.get("y1"))) == point_xy(P("g5"))
        assert "yb-trail" not in board_svg(game, last_move=None)
        placed = parse(board_svg(Game.from_record("1.e3")))
        last = next(e for e in placed.iter() if e.get("class") == "yb-last")
        assert (float(last.get("cx")), float(last.get("cy"))) == point_xy(P("e3"))

    def test_destinations_selected_ring_and_movable_rings(self):
        game = Game.from_record("1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8")
        turn = Turn(game)
        turn.click_point(P("e3"))
        root = parse(board_svg(game, **choices(turn)))
        dests = [e for e in root.iter() if e.get("class") == "yb-dest"]
        assert len(dests) == 15
        assert {nearest_point(float(e.get("cx")), float(e.get("cy"))) for e in dests} == turn.destinations
        ring = next(e for e in elements(root, "data-ring") if e.get("data-ring") == "e3")
        assert "selected" in ring.get("class")
        ghost = elements(root, "data-ghost")
        assert [g.get("data-ghost") for g in ghost] == ["e3"] and "white" in ghost[0].get("class")
        can = {e.get("data-point") for e in elements(root, "data-point") if "can" in e.get("class")}
        assert can == {point_name(p) for p in turn.clickable_points}

    def test_candidate_rows_are_clickable_with_their_names(self):
        game = brave_combo(57)
        turn = Turn(game)
        turn.click_point(P("f5"))
        turn.click_point(P("f9"))
        root = parse(board_svg(turn.state, last_move=turn.ring_move, **choices(turn)))
        rows = elements(root, "data-row")
        assert sorted(r.get("data-row") for r in rows) == ["f3-f7", "f4-f8"]
        turn.click_row(parse_row("f3", "f7"))
        root = parse(board_svg(turn.state, **choices(turn)))
        selected = [r.get("data-row") for r in elements(root, "data-row") if "selected" in r.get("class")]
        assert selected == ["f3-f7"]
        halos = [e for e in root.iter() if e.get("class") == "yb-removable"]
        assert len(halos) == len(turn.removable_rings) == 4  # Black removed one ring at move 48
        # rows are drawn above the points, so a click on a row reaches the row
        order = [e.get("class") for e in root]
        assert order.index("yb-rows") > order.index("yb-hits")

    def test_row_names_and_points_may_be_given_as_text(self):
        svg = board_svg(Game(), rows=["e3-e7"], marked=["f6", "a2"], selected_ring=None)
        root = parse(svg)
        assert [r.get("data-row") for r in elements(root, "data-row")] == ["e3-e7"]
        assert len([e for e in root.iter() if e.get("class") == "yb-mark"]) == 2

    @pytest.mark.parametrize("run", [6, 7, 9])
    def test_overlapping_windows_each_keep_a_part_of_their_own(self, run):
        """Outer windows are drawn first, so every window has a point no later window covers."""
        windows = [parse_row(f"e{1 + i}", f"e{5 + i}") for i in range(run - 4)]
        order = [w for w, _ in _row_order(windows)]
        assert sorted(order) == sorted(windows)
        for k, w in enumerate(order):
            later = set().union(*(set(WINDOWS[v]) for v in order[k + 1:])) if k + 1 < len(order) else set()
            assert set(WINDOWS[w]) - later, row_name(w)

    def test_animation_classes(self):
        game = brave_combo(11)  # 11.b1-b2
        svg = board_svg(game, animate=True)
        assert 'class="ring white slide" data-ring="b2" style="--dx:0px;--dy:50px"' in svg
        s = make_state(["e1"], ["k10"], ["e2", "e3"], ["e4"], turn=1)
        flips = board_svg(s, last_move=(P("e1"), P("e5")), animate=True)
        assert flips.count(" flip") == 3 and "--delay:" in flips
        assert " slide" not in board_svg(s, last_move=(P("e1"), P("e5")), animate="flips")
        assert " flip" not in board_svg(s, last_move=(P("e1"), P("e5")))


class TestGolden:
    """The page ships the renderer's own markup and stylesheet."""

    def test_static_board_in_index_html_is_the_renderers(self):
        expected = static_board_svg()
        path = ROOT / "index.html"
        html = path.read_text(encoding="utf-8")
        m = re.search(r"(<!-- board:begin[^>]*-->\n)(.*?)(<!-- board:end -->)", html, re.S)
        assert m, "index.html lost its <!-- board:begin --> … <!-- board:end --> markers"
        if UPDATE:
            path.write_text(html[: m.start(2)] + expected + "\n" + html[m.end(2):], encoding="utf-8")
            return
        assert m.group(2).strip() == expected, f"index.html's static board is stale: {REGENERATE}"

    def test_board_css_is_the_renderers(self):
        path = ROOT / "static" / "css" / "board.css"
        expected = BOARD_CSS_HEADER + BOARD_CSS
        if UPDATE:
            path.write_text(expected, encoding="utf-8")
            return
        assert path.read_text(encoding="utf-8") == expected, f"static/css/board.css is stale: {REGENERATE}"


def test_render_accepts_a_move_or_a_pair_as_last_move():
    game = brave_combo(12)
    a = board_svg(game.state, last_move=game.moves[-1])
    b = board_svg(game.state, last_move=(game.moves[-1].source, game.moves[-1].target))
    assert a == b == board_svg(game)
    assert board_svg(game.state, last_move=Move("pass")) == board_svg(game.state, last_move=None)
