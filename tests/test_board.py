"""Geometry facts of the board."""

from yinsh.board import BETWEEN, POINTS, RAYS, WINDOWS, line_step, parse_point, point_name, points_of

P = parse_point


def test_85_points_named_a2_to_k10():
    names = [point_name(p) for p in POINTS]
    assert len(names) == 85 and names[0] == "a2" and names[-1] == "k10"
    assert "a1" not in names and "k11" not in names and "e10" in names and "f1" not in names


def test_123_five_windows_along_three_axes():
    assert len(WINDOWS) == 123
    assert (P("a2"), P("b3"), P("c4"), P("d5"), P("e6")) in WINDOWS  # the (1,1) axis
    assert not any(P("h4") in w and P("g5") in w for w in WINDOWS)  # never along (1,-1)


def test_1848_ordered_collinear_pairs():
    assert sum(len(ray) for p in POINTS for ray in RAYS[p]) == 1848


def test_lone_ring_moves():
    for name, count in (("e5", 26), ("f6", 24), ("a2", 18)):
        assert sum(len(ray) for ray in RAYS[P(name)]) == count


def test_h4_d8_is_not_a_line():
    assert line_step(P("h4"), P("d8")) is None
    assert line_step(P("e1"), P("e10")) == 1


def test_line_step_agrees_with_the_rays():
    """Two points share a line exactly when one lies on a ray of the other (the board is convex)."""
    for a in POINTS:
        along = {q: ray[0] - a for ray in RAYS[a] for q in ray}
        for b in POINTS:
            assert line_step(a, b) == along.get(b), (point_name(a), point_name(b))


def test_between_is_exclusive():
    assert points_of(BETWEEN[P("e1") << 8 | P("e5")]) == [P("e2"), P("e3"), P("e4")]
    assert BETWEEN[P("e1") << 8 | P("e2")] == 0
    assert BETWEEN[P("h4") << 8 | P("d8")] == 0  # no common line
