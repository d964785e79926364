"""Learning the game and its looks, in the browser: the Rules dialog, the first-game guide and
the themes.

One page (one browser context, so one ``localStorage``) serves the module: it starts as a new
visitor's, and only the last test reloads it, to see the choices kept. Every test fails on a
console error, an uncaught error, a request leaving the origin or an error caught by the
page's own guard.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from clicks import click_point
from pages import RecordedPage, follow_link, shared_page_fixtures

from yinsh.game import Game
from yinsh.page.guide import FIRST_PICK, FIRST_TARGET, PLACE
from yinsh.page.prefs import GUIDE_KEY, THEME_COLORS, THEME_KEY, THEMES
from yinsh.record import read_records

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
BOOT_TIMEOUT_MS = 90_000
GAMES = {r.tags["Game"]: r.game for r in read_records((ROOT / "tests/data/games.ygn").read_text(encoding="utf-8"))}
MID_GAME = " ".join(f"{i + 1}.{m}" for i, m in enumerate(GAMES["Y-BraveCombo-Dumbot-2026-03-20-0237"].moves[:40]))
NINE_RINGS = "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3"


def save_screenshot(page: Any, name: str) -> Path:
    """A PNG in test-artifacts/ (as conftest's helper, without importing a conftest module)."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{re.sub(r'[^A-Za-z0-9._-]+', '_', name)}.png"
    page.screenshot(path=str(path), animations="disabled")
    return path


class LearningPage(RecordedPage):
    """One page for the module, recording what went wrong."""

    def __init__(self, browser: Any, base_url: str) -> None:
        super().__init__(browser, base_url)
        self.page.goto(f"{base_url}/index.html")
        self.wait_ready()
        self.loaded = True

    def begin_test(self) -> None:
        super().begin_test()
        self.page.set_viewport_size({"width": 1000, "height": 800})

    def wait_ready(self) -> None:
        self.page.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=BOOT_TIMEOUT_MS)

    def open_record(self, record: str) -> None:
        follow_link(self.page, "record=" + quote(record), Game.from_record(record).record())

    def guide(self) -> str:
        """The guide's line, or '' while it is hidden."""
        if self.page.get_attribute("#guide", "hidden") is not None:
            return ""
        return self.page.inner_text("#guide-text")

    def colour(self, selector: str, prop: str) -> str:
        return self.page.eval_on_selector(selector, "(e, p) => getComputedStyle(e)[p]", prop)


#: ``learning``: the shared page; the test fails on anything the browser or the page's guard reported.
shared_learning, learning = shared_page_fixtures(LearningPage, "learning")


def test_the_guide_greets_a_new_visitor_and_follows_the_turn(learning):
    page = learning.page
    stored = page.evaluate("keys => keys.map(k => localStorage.getItem(k))", [GUIDE_KEY, THEME_KEY])
    assert stored == [None, None]  # a new visitor
    assert page.is_checked("#guide-switch")
    assert learning.guide() == PLACE
    learning.open_record(NINE_RINGS)
    assert learning.guide() == PLACE
    click_point(page, "g8")  # the tenth ring: White's first ring move comes next
    page.wait_for_function("t => document.getElementById('guide-text').textContent === t", arg=FIRST_PICK)
    click_point(page, "h7")
    page.wait_for_function("t => document.getElementById('guide-text').textContent === t", arg=FIRST_TARGET)
    page.keyboard.press("Escape")


def _rules_open(page: Any) -> bool:
    return page.evaluate("document.getElementById('rules-dialog').open")


def _focused_action(page: Any) -> str | None:
    return page.evaluate("document.activeElement && document.activeElement.getAttribute('data-action')")


def test_the_rules_dialog_opens_by_click_and_by_keyboard(learning):
    page = learning.page
    rules = page.locator("button[data-action=rules]")
    rules.click()
    assert _rules_open(page)
    assert page.locator("#rules-dialog h2").inner_text() == "How to play YINSH"
    diagrams = page.locator("#rules-body figure svg")
    assert diagrams.count() >= 5
    for i in range(diagrams.count()):
        svg = diagrams.nth(i)
        assert svg.locator("[data-point]").count() == 85
        assert svg.get_attribute("role") == "img" and len(svg.get_attribute("aria-label") or "") > 20
        assert svg.bounding_box()["width"] > 100  # drawn, not collapsed
    titles = page.locator("#rules-body h3").all_inner_texts()
    for topic in ("Moving a ring", "Flipping markers", "A row of five", "Six or more in a line",
                  "Rows for both players", "The marker pool", "Common mistakes"):
        assert topic in titles
    page.keyboard.press("Escape")
    assert not _rules_open(page)
    assert _focused_action(page) == "rules"  # focus is back on the button

    rules.focus()
    page.keyboard.press("Enter")
    assert _rules_open(page)
    page.locator("#rules-dialog [data-action=close-rules]").click()
    assert not _rules_open(page)
    assert _focused_action(page) == "rules"


def test_the_rules_scroll_on_a_phone(learning):
    page = learning.page
    page.set_viewport_size({"width": 375, "height": 667})
    page.locator("button[data-action=rules]").click()
    box = page.locator("#rules-dialog").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375 and box["y"] >= 0 and box["y"] + box["height"] <= 667
    body = page.locator("#rules-body")
    assert body.evaluate("e => e.scrollHeight > e.clientHeight")  # the steps scroll inside the dialog
    assert _focused_action(page) == "close-rules"
    page.keyboard.press("Tab")  # on to the steps, which scroll by keyboard too
    assert page.evaluate("document.activeElement.id") == "rules-body"
    page.keyboard.press("End")
    page.wait_for_function("() => { const b = document.getElementById('rules-body');"
                           " return b.scrollTop > 0 && b.scrollTop + b.clientHeight >= b.scrollHeight - 2; }")
    last = page.locator(".rules-mistakes li").last.bounding_box()
    assert 0 <= last["y"] and last["y"] + last["height"] <= 667  # the last mistake is in view
    close = page.locator("#rules-dialog [data-action=close-rules]").bounding_box()
    assert close["y"] >= 0 and close["height"] >= 40  # the close button stays in view, large enough to tap
    page.keyboard.press("Escape")
    assert not _rules_open(page)


def test_every_theme_renders(learning):
    page = learning.page
    learning.open_record(MID_GAME)
    seen = set()
    for theme in THEMES[1:]:
        page.select_option("#theme-choice", theme)
        page.wait_for_function("t => document.documentElement.dataset.theme === t", arg=theme)
        colours = (learning.colour(".status", "backgroundColor"), learning.colour("#board .yb-bg", "fill"),
                   learning.colour("body", "color"))
        seen.add(colours)
        assert _theme_color(page) == THEME_COLORS[theme]  # the browser's bars follow the theme
        save_screenshot(page, f"theme-{theme}")
    assert len(seen) == 3, seen  # each theme changes the panel, the board and the text
    # high contrast: a dark marker has a white outline, a light one a black inner ring
    assert learning.colour("#board .marker.black .yb-mface", "stroke") == "rgb(255, 255, 255)"
    assert learning.colour("#board .marker.white .yb-mbevel", "stroke") == "rgb(0, 0, 0)"

    page.select_option("#theme-choice", "auto")  # Auto follows the system
    for scheme in ("dark", "light"):
        page.emulate_media(color_scheme=scheme)
        page.wait_for_function("t => document.documentElement.dataset.theme === t", arg=scheme)
        assert _theme_color(page) == THEME_COLORS[scheme]


def _theme_color(page: Any) -> str:
    return page.get_attribute('meta[name="theme-color"]', "content")


def test_the_choices_persist_over_a_reload(learning):
    page = learning.page
    page.select_option("#theme-choice", "high-contrast")
    page.locator("#guide button[data-action=hide-guide]").click()
    assert learning.guide() == "" and not page.is_checked("#guide-switch")
    page.reload(wait_until="domcontentloaded")
    # the script in <head> applied the theme before the page was drawn, not Python later
    assert page.get_attribute("html", "data-theme") == "high-contrast"
    assert _theme_color(page) == THEME_COLORS["high-contrast"]
    learning.wait_ready()
    assert page.input_value("#theme-choice") == "high-contrast"
    assert not page.is_checked("#guide-switch") and learning.guide() == ""
    page.check("#guide-switch")
    assert learning.guide()  # back, with a line for the game the page reopened
    page.select_option("#theme-choice", "auto")
    stored = page.evaluate("keys => keys.map(k => localStorage.getItem(k))", [GUIDE_KEY, THEME_KEY])
    assert stored == ["on", "auto"]
