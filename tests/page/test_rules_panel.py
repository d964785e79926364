"""The Rules dialog's contents (yinsh.page.rules_panel): the lessons as HTML, with their diagrams."""

from __future__ import annotations

import doctest
import xml.etree.ElementTree as ET

from helpers import load

import yinsh.page.rules_panel
from yinsh.game import Game
from yinsh.lessons import MISTAKES, POOL_GAME, lessons
from yinsh.page.rules_panel import rules_html, step_id

SCENARIOS = {r.tags["Scenario"]: r.game for r in load("scenarios.ygn")}


def test_doctests():
    failures, tried = doctest.testmod(yinsh.page.rules_panel)
    assert tried and not failures


def replay(game: Game, plies: int) -> Game:
    """A game after its first ``plies`` moves."""
    out = Game()
    for move in game.moves[:plies]:
        out.play(move)
    return out


class TestRulesHtml:
    html = rules_html()
    root = ET.fromstring(f"<div>{html}</div>")  # well-formed: every tag closed, every & escaped

    def test_one_numbered_step_per_lesson_then_the_mistakes_as_a_list(self):
        titles = [step.find("h3").text for step in self.root.findall("./ol/li")]
        assert titles == [step.title for step in lessons() if step.title != "Common mistakes"]
        mistakes = self.root.find("./section[@class='rules-mistakes']")
        assert mistakes.find("h3").text == "Common mistakes"
        assert [li.text for li in mistakes.findall("./ul/li")] == list(MISTAKES)

    def test_every_heading_has_a_unique_id_that_labels_its_step(self):
        ids = [h.get("id") for h in self.root.iter("h3")]
        assert len(ids) == len(set(ids)) and step_id("Moving a ring") == "rules-moving-a-ring"
        for step in self.root.findall("./ol/li"):
            assert step.get("aria-labelledby") == step.find("h3").get("id")

    def test_the_required_diagrams_are_drawn_with_a_text_alternative(self):
        figures = {s.find("h3").text: s.find("figure") for s in self.root.findall("./ol/li")}
        for topic in ("Moving a ring", "Flipping markers", "A row of five", "Six or more in a line",
                      "Rows for both players", "The marker pool"):
            svg = figures[topic].find("svg")
            assert svg is not None, f"the step {topic!r} has no diagram"
            assert len(svg.findall(".//*[@data-point]")) == 85
            lesson = next(step for step in lessons() if step.title == topic)
            assert svg.get("role") == "img" and svg.get("aria-label") == lesson.alt
            assert lesson.alt.startswith(lesson.caption + ". ") and "rings: " in lesson.alt
            assert figures[topic].find("figcaption").text == lesson.caption

    def test_text_is_escaped(self):
        html = rules_html([lessons()[0]._replace(title="Rows & rings", text="a <b> c")], ["x > y"])
        assert "Rows &amp; rings" in html and "a &lt;b&gt; c" in html and "x &gt; y" in html


def test_the_pool_diagram_is_the_end_of_a_real_game():
    """The marker pool's diagram: the scenario that runs out of markers, before its last move."""
    game = SCENARIOS["out of markers"]
    assert replay(game, len(game.moves) - 1).position() == POOL_GAME
    step = next(s for s in lessons() if s.title == "The marker pool")
    assert "g8-g9" in step.caption and step.svg.count('class="marker ') == 51
