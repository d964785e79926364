"""Learning the game and its looks, without a browser: the rules panel's HTML, the first-game
guide's lines on real positions, the stored preferences, and the themes' text contrast."""

from __future__ import annotations

import doctest
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers import load

import yinsh.page.guide
import yinsh.page.prefs
import yinsh.page.rules_panel
from yinsh.board import parse_point
from yinsh.game import Game
from yinsh.lessons import MISTAKES, POOL_GAME, lessons
from yinsh.move import parse_row
from yinsh.page.guide import FIRST_PICK, FIRST_TARGET, OVERLINE, PLACE, SEVERAL_ROWS, guide_line, rows_in_reach
from yinsh.page.prefs import (
    GUIDE_KEY,
    LINK_KEYS,
    SOUND_KEY,
    THEME_COLORS,
    THEME_KEY,
    THEME_LABELS,
    THEMES,
    WELCOME_CHOICES,
    WELCOME_KEY,
    applied_theme,
    guide_on,
    guide_value,
    sound_on,
    sound_value,
    theme_choice,
    welcome_choice,
    welcome_due,
)
from yinsh.page.rules_panel import rules_html, step_id
from yinsh.render import PALETTES
from yinsh.state import WHITE, make_state
from yinsh.turn import Decision, Phase, Turn

ROOT = Path(__file__).resolve().parents[2]
INDEX = (ROOT / "index.html").read_text(encoding="utf-8")
PAGE_CSS = (ROOT / "static" / "css" / "yinsh.css").read_text(encoding="utf-8")
SCENARIOS = {r.tags["Scenario"]: r.game for r in load("scenarios.ygn")}
GAMES = {r.tags["Game"]: r.game for r in load("games.ygn")}
NOTATION_EXAMPLE = SCENARIOS["official notation example"]


@pytest.mark.parametrize("module", [yinsh.page.guide, yinsh.page.prefs, yinsh.page.rules_panel])
def test_doctests(module):
    """pytest's doctest run skips yinsh/web (its glue needs a browser); these modules do not."""
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried and not failures


def replay(game: Game, plies: int) -> Game:
    """A game after its first ``plies`` moves."""
    out = Game()
    for move in game.moves[:plies]:
        out.play(move)
    return out


# --------------------------------------------------------------------------- the rules panel


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


# --------------------------------------------------------------------------- the guide


def turn_after(game: Game, *decisions: tuple[str, str]) -> Turn:
    """The turn of ``game`` after decisions given as (kind, point or row name)."""
    turn = Turn(game)
    for kind, name in decisions:
        value = parse_row(*name.split("-")) if kind == "row" else parse_point(name)
        turn.choose(Decision(kind, value))
    return turn


class TestGuide:
    def test_placement(self):
        assert guide_line(Turn(Game())) == PLACE
        assert guide_line(Turn(replay(NOTATION_EXAMPLE, 9))) == PLACE  # Black's last ring

    def test_first_ring_move_of_each_player(self):
        white = Turn(NOTATION_EXAMPLE)
        assert white.phase is Phase.PICK_RING and guide_line(white) == FIRST_PICK
        white.click_point(parse_point("h7"))
        assert guide_line(white) == FIRST_TARGET
        game = NOTATION_EXAMPLE.copy()
        game.play("h7-g7")
        assert guide_line(Turn(game)) == FIRST_PICK  # Black's first move too

    def test_a_row_in_reach(self):
        """The scenario "single row": White's e3-f3 completes e3-e7."""
        game = SCENARIOS["single row"]
        assert rows_in_reach(game.state, WHITE) == [parse_row("e3", "e7")]
        assert guide_line(Turn(game)) == "A row is in reach: one ring move can make five on e3-e7. Find it!"

    def test_the_opponent_threatens_a_row(self):
        game = replay(SCENARIOS["single row"], 17)  # Black to move; White threatens e3-e7
        assert game.to_move == "black"
        assert guide_line(Turn(game)) == ("White can make a row on e3-e7 next turn: block that line or flip one "
                                          "of its markers.")

    def test_a_row_made_is_a_ring_removed(self):
        turn = turn_after(SCENARIOS["single row"], ("source", "e3"), ("target", "f3"))
        assert turn.phase is Phase.REMOVE_RING  # the only row was chosen for the player
        assert guide_line(turn) == ("You made a row: you remove the row and one of your rings — that is how "
                                    "you win (ring 1 of 3).")

    def test_choosing_five_of_six_then_the_ring(self):
        turn = turn_after(SCENARIOS["overline of six"], ("source", "e3"), ("target", "f3"))
        assert turn.phase is Phase.REMOVE_ROW and guide_line(turn) == OVERLINE
        turn.choose(Decision("row", parse_row("e2", "e6")))
        assert guide_line(turn).startswith("Pick the ring to take off with the row (ring 1 of 3)")

    def test_two_crossing_rows(self):
        game = Game.from_state(make_state(["e5", "k7", "j11"], ["a2", "h3", "k10"],
                                          ["e1", "e2", "e3", "e4", "a5", "b5", "c5", "d5"]), ply=40)
        turn = turn_after(game, ("source", "e5"), ("target", "e6"))
        assert set(turn.candidate_rows) == {parse_row("e1", "e5"), parse_row("a5", "e5")}
        assert guide_line(turn) == SEVERAL_ROWS

    def test_rows_the_opponent_made_come_first(self):
        """White's e5-g7 made a row for each; Black removes f4-f8 before moving."""
        game = Game.from_state(make_state(["e5", "k7", "j11", "a2"], ["a5", "b7", "h3"],
                                          ["e1", "e2", "e3", "e4", "f6"], ["f4", "f5", "f7", "f8"]), ply=40)
        game.play("e5-g7;xe1-e5xk7")
        line = guide_line(Turn(game))
        assert line.startswith("White's move made a row of your colour: take it and one of your rings off")

    def test_the_pool_running_low(self):
        game = replay(SCENARIOS["out of markers"], 47)
        assert game.pool == 14
        assert guide_line(Turn(game)) == "Watch the pool: 14 markers left; when it runs out the game ends."

    def test_nothing_once_the_game_is_over(self):
        assert guide_line(Turn(SCENARIOS["out of markers"])) == ""

    @pytest.mark.parametrize("name", sorted(GAMES))
    def test_one_short_line_at_every_turn_of_a_real_game(self, name):
        game = Game()
        for move in GAMES[name].moves:
            line = guide_line(Turn(game))
            assert line and "\n" not in line and len(line) <= 140 and line.endswith((".", "!", ")")), line
            game.play(move)


# --------------------------------------------------------------------------- preferences


class TestPrefs:
    @pytest.mark.parametrize("stored", [None, "", "sepia", "AUTO", "null", "{}", " light ", "High-Contrast"])
    def test_a_stored_theme_is_always_a_choice(self, stored):
        assert theme_choice(stored) in THEMES
        assert applied_theme(theme_choice(stored), True) in THEMES[1:]

    def test_auto_follows_the_system_and_the_others_do_not(self):
        assert [applied_theme(t, False) for t in THEMES] == ["light", "light", "dark", "high-contrast"]
        assert [applied_theme(t, True) for t in THEMES] == ["dark", "light", "dark", "high-contrast"]

    @pytest.mark.parametrize("stored,on", [(None, True), ("", True), ("on", True), ("off", False), (" OFF ", False),
                                           ("garbage", True)])
    def test_the_guide_is_on_until_turned_off(self, stored, on):
        assert guide_on(stored) is on
        assert guide_on(guide_value(on)) is on

    @pytest.mark.parametrize("stored,on", [(None, False), ("", False), ("on", True), (" ON ", True), ("off", False),
                                           ("loud", False), ("{}", False)])
    def test_sound_is_off_until_switched_on(self, stored, on):
        assert sound_on(stored) is on
        assert sound_on(sound_value(on)) is on

    @pytest.mark.parametrize("stored", [None, "", "garbage", "{}"])
    def test_the_first_visit_asks_unless_answered_linked_or_returning(self, stored):
        assert welcome_choice(stored) is None
        assert welcome_due(stored, {}, returning=False)
        assert welcome_due(stored, {"n": "3", "delay": "250"}, returning=False)  # says nothing about what to play
        assert not welcome_due(stored, {}, returning=True)  # a saved game or chosen players
        for key in LINK_KEYS:
            assert not welcome_due(stored, {key: ""}, returning=False), key
        for choice in WELCOME_CHOICES:
            assert welcome_choice(f" {choice.upper()} ") == choice
            assert not welcome_due(choice, {}, returning=False)
        assert {"white", "black", "record", "position", "g"} <= set(LINK_KEYS)

    def test_the_keys_are_distinct(self):
        assert len({GUIDE_KEY, THEME_KEY, SOUND_KEY, WELCOME_KEY}) == 4

    def test_the_head_script_agrees_with_the_module(self):
        """index.html sets data-theme and theme-color before Python starts: same key, same
        themes, same colours; one theme-color, not one per system scheme (it follows the theme)."""
        script = re.search(r"<head>.*?<script>(.*?)</script>", INDEX, re.S).group(1)
        assert f'"{THEME_KEY}"' in script
        colours = re.search(r"const colours = (\{.*?\});", script).group(1)
        assert json.loads(colours) == THEME_COLORS and tuple(THEME_COLORS) == THEMES[1:]
        assert "try" in script and "catch" in script  # storage switched off must not break the page
        assert len(re.findall(r'<meta name="theme-color"', INDEX)) == 1

    def test_the_theme_color_is_each_palettes_page_colour(self):
        assert {theme: palette["page-bg"] for theme, palette in page_palettes().items()} == THEME_COLORS

    def test_the_theme_menu_offers_every_choice(self):
        options = re.findall(r'<option value="([^"]+)">([^<]+)</option>',
                             re.search(r'<select id="theme-choice">(.*?)</select>', INDEX, re.S).group(1))
        assert options == [(theme, THEME_LABELS[theme]) for theme in THEMES] and set(THEME_LABELS) == set(THEMES)
        assert GUIDE_KEY != THEME_KEY


# --------------------------------------------------------------------------- contrast


def luminance(colour: str) -> float:
    value = colour.lstrip("#")
    channels = [int(value[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def page_palettes() -> dict[str, dict[str, str]]:
    """The page's custom properties per theme, read from yinsh.css."""
    out = {}
    for theme in THEMES[1:]:
        block = re.search(rf':root\[data-theme="{theme}"\] \{{(.*?)\}}', PAGE_CSS, re.S).group(1)
        out[theme] = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-f]{6})\s*;", block))
    return out


TEXT_PAIRS = [  # (text, background) of every kind of text on the page
    ("text", "page-bg"), ("text", "page-bg-2"), ("text", "panel"), ("text", "hint-bg"), ("text", "warn-bg"),
    ("muted", "page-bg"), ("muted", "page-bg-2"), ("muted", "panel"),
    ("accent-text", "accent"), ("warn", "warn-bg"), ("warn", "panel"),
]


@pytest.mark.parametrize("theme", THEMES[1:])
def test_page_text_meets_wcag_aa(theme):
    palette = page_palettes()[theme]
    assert len(palette) >= 15, f"the {theme} palette was not read from yinsh.css"
    for text, background in TEXT_PAIRS:
        ratio = contrast(palette[text], palette[background])
        assert ratio >= 4.5, f"{theme}: --{text} on --{background} is {ratio:.2f}:1, below 4.5:1"


@pytest.mark.parametrize("theme", THEMES[1:])
def test_board_labels_meet_wcag_aa_and_pieces_differ_by_outline(theme):
    palette = PALETTES[theme]
    assert contrast(palette["label"], palette["board"]) >= 4.5
    # a light piece is outlined dark, a dark piece light: the shapes differ, not only the colours
    assert luminance(palette["white"]) > luminance(palette["white-line"])
    assert luminance(palette["black"]) < luminance(palette["black-line"])


def test_high_contrast_is_black_and_white_with_thick_outlines():
    hc, light = PALETTES["high-contrast"], PALETTES["light"]
    assert {hc["board"], hc["white"], hc["black"], hc["line"]} == {"#000000", "#ffffff"}
    assert float(hc["outline"].removesuffix("px")) >= 2 * float(light["outline"].removesuffix("px")) - 0.5
    assert contrast(hc["accent"], hc["board"]) >= 7
