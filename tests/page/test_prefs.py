"""The page's stored preferences (yinsh.page.prefs) and the themes' contrast."""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

import pytest

import yinsh.page.prefs
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
from yinsh.render import PALETTES

ROOT = Path(__file__).resolve().parents[2]
INDEX = (ROOT / "index.html").read_text(encoding="utf-8")
PAGE_CSS = (ROOT / "static" / "css" / "yinsh.css").read_text(encoding="utf-8")


def test_doctests():
    failures, tried = doctest.testmod(yinsh.page.prefs)
    assert tried and not failures


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
