"""The board's stylesheet and themes (yinsh.board_css): every colour a theme may override,
every palette complete. The stylesheet's golden file is checked with the drawing (tests/test_render.py)."""

from __future__ import annotations

from yinsh.board_css import _ENTRY_ORDER, _THEME_ORDER, BOARD_CSS, PALETTES


class TestStylesheet:
    def test_light_and_dark_palettes(self):
        assert "@media (prefers-color-scheme:dark)" in BOARD_CSS
        for name in ("board", "line", "white", "black", "accent", "row"):
            assert f"var(--yinsh-{name}," in BOARD_CSS  # a theme may override each colour
        assert "prefers-reduced-motion" in BOARD_CSS

    def test_the_stylesheet_lists_every_palette_entry(self):
        assert set(_THEME_ORDER) == set(PALETTES)
        for theme in _THEME_ORDER:
            assert set(PALETTES[theme]) == set(_ENTRY_ORDER), theme
