"""The rules panel's steps: every diagram renders and shows what its text says."""

from yinsh.lessons import MISTAKES, lessons


def test_every_step_has_a_title_text_and_a_diagram_where_one_helps():
    steps = lessons()
    titles = [s.title for s in steps]
    for topic in ("Moving a ring", "Flipping markers", "A row of five", "Six or more in a line",
                  "Rows for both players", "The marker pool", "Common mistakes"):
        assert topic in titles
    for step in steps:
        assert step.text.endswith(".")
        assert step.svg == "" or (step.svg.startswith("<svg") and step.svg.count("data-point=") == 85)


def test_the_overline_diagram_offers_its_two_windows():
    overline = next(s for s in lessons() if s.title == "Six or more in a line")
    assert 'data-row="e1-e5"' in overline.svg and 'data-row="e2-e6"' in overline.svg


def test_mistakes_are_listed_in_the_last_step():
    assert all(m in lessons()[-1].text for m in MISTAKES)
