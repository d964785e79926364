"""The evaluation graph of the review area (yinsh.page.graph): its SVG over a game's moves."""

from __future__ import annotations

import doctest
import re

import yinsh.page.graph
from yinsh.page.graph import eval_graph_svg, squash


def test_doctests():
    failures, tried = doctest.testmod(yinsh.page.graph)
    assert tried and not failures


def test_the_graph_has_one_point_per_move_and_marks_the_current_one():
    values = [0.0, 0.3, -0.8, 1.5, -100.0, 100.0]
    svg = eval_graph_svg(values, current=4, first_number=11)
    assert svg.count('class="eg-point') == len(values) == len(re.findall(r'<g data-ply="\d+"', svg))
    assert re.findall(r'data-ply="(\d+)"', svg) == [str(i) for i in range(1, 7)]
    assert svg.count("eg-point current") == 1 and "<title>14. White +1.5</title>" in svg
    assert 'class="eg-current"' in svg and 'class="eg-zero"' in svg
    assert "<title>15. Black wins</title>" in svg and "<title>11. even</title>" in svg


def test_the_graph_stays_inside_its_frame_with_white_above():
    svg = eval_graph_svg([1e9, -1e9, 0.0], current=None)
    ys = [float(y) for y in re.findall(r'<circle[^>]* cy="([-\d.]+)"', svg)]
    height = float(re.search(r'viewBox="0 0 [\d.]+ ([\d.]+)"', svg)[1])
    assert all(0 < y < height for y in ys)
    assert ys[0] < ys[2] < ys[1]  # White's advantage above the zero line
    assert "eg-current" not in svg and "current" not in svg.split("eg-zero")[1]


def test_an_empty_or_one_move_graph():
    assert 'class="eg-point' not in eval_graph_svg([])
    assert eval_graph_svg([0.2], current=1).count('class="eg-point current"') == 1


def test_squash_is_monotonic_and_bounded():
    values = [-1000, -100, -3, -1, -0.1, 0, 0.1, 1, 3, 100, 1000]
    squashed = [squash(v) for v in values]
    assert squashed == sorted(squashed) and all(-1 <= s <= 1 for s in squashed)
