"""The page's layout (issue 14, items 4 and 5) on a 1280 × 800 screen with a mouse and on a
375 × 667 phone, in each theme, checked by geometry; each state is saved as a screenshot in
test-artifacts/ (layout-*.png).

- Every width (1280, 1024, 390 px): each move of the list readable whole, the longest wrapping
  between its ring move and its removals.
- Desktop: at least eight moves in view with the guide and a hint shown; a move never breaks
  inside its notation; the game's result beside the board (over none of its points), put away by
  its close button, Escape or a press elsewhere; the review's graph labelled and readable, its
  labels clear of the plot and of each other (at a phone's width too), the page not moved; no
  outline round the board; labels clear of any ring.
- Phone: a strip above the board with both scores and the pool; nothing clickable under the
  actions' bar; no shortcuts button; "Tap"; lit destinations 12 px and more; every control 44 px
  and more; in high contrast the rings differ by their fill; a question (a link's finished
  game over a game in progress) covers the result, the notices and the strip, which come back
  once it is answered.
"""

from __future__ import annotations

from typing import Any

import pytest
from games import BRAVE_COMBO
from helpers import rows_seeking_game
from pages import AI_TIMEOUT_MS, RecordedPage, save_settled_screenshot
from test_access import AXE, axe_problems

from yinsh.game import Game

THEMES = ("light", "dark", "high-contrast")
MIDGAME = Game.from_record(" ".join(f"{i + 1}.{m}" for i, m in enumerate(BRAVE_COMBO.moves[:44])))
"""Brave Combo after 44 moves: White to move; the list has moves with removals (25., 61. …)."""
LONG = Game.from_record(" ".join(f"{i + 1}.{m}" for i, m in enumerate(BRAVE_COMBO.moves[:62])))
FINAL = BRAVE_COMBO.record()

VISIBLE_MOVES_JS = """() => {
    const box = document.querySelector('.move-scroll').getBoundingClientRect();
    return [...document.querySelectorAll('#moves li')].filter(li => {
        const r = li.getBoundingClientRect();
        return r.height > 0 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
    }).length;
}"""

RESULT_OVER_POINTS_JS = """() => {
    const b = document.getElementById('banner').getBoundingClientRect();
    return [...document.querySelectorAll('#board [data-point]')].filter(p => {
        const r = p.getBoundingClientRect();
        return r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top;
    }).map(p => p.dataset.point);
}"""

COVERED_BY_BAR_JS = """() => {
    // Every clickable thing outside the bar: the part of it that shows (inside the boxes that
    // clip it) must not meet the bar.
    const bar = document.querySelector('nav.actions').getBoundingClientRect();
    const shown = e => {
        let r = e.getBoundingClientRect(), box = {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
        for (let a = e.parentElement; a; a = a.parentElement) {
            const s = getComputedStyle(a);
            if (s.overflowY !== 'visible' || s.overflowX !== 'visible') {
                const c = a.getBoundingClientRect();
                box = {top: Math.max(box.top, c.top), bottom: Math.min(box.bottom, c.bottom),
                       left: Math.max(box.left, c.left), right: Math.min(box.right, c.right)};
            }
        }
        return box;
    };
    const clickable = 'button, select, summary, input, label, [data-point], [data-row], .move-scroll';
    return [...document.querySelectorAll(clickable)].filter(e => {
        if (e.closest('nav.actions') || e.closest('dialog:not([open])') || !e.getClientRects().length) return false;
        const b = shown(e);
        return b.bottom > b.top && b.right > b.left
            && b.top < bar.bottom && b.bottom > bar.top + 0.5 && b.left < bar.right && b.right > bar.left;
    }).map(e => e.outerHTML.slice(0, 80));
}"""

GRAPH_LABELS_JS = """() => {
    // The evaluation graph's words and numbers: inside the graph, the sides' names (and the
    // even line's) left of the plot and clear of its edge, the move numbers under it, none
    // over another.
    const svg = document.querySelector('#eval-graph svg'), box = e => e.getBoundingClientRect();
    const whole = box(svg), plot = box(svg.querySelector('.eg-frame')), clear = 2;
    const labels = [...svg.querySelectorAll('text')].map(t => [t.textContent, box(t)]);
    const out = [];
    labels.forEach(([name, b], i) => {
        if (b.left < whole.left || b.right > whole.right || b.top < whole.top || b.bottom > whole.bottom)
            out.push(`${name} outside the graph`);
        if (['White', 'Black', 'even'].includes(name) ? b.right > plot.left - clear : b.top < plot.bottom)
            out.push(`${name} on the plot (${b.left.toFixed(1)}–${b.right.toFixed(1)} × ${b.top.toFixed(1)}–`
                     + `${b.bottom.toFixed(1)}; the plot from ${plot.left.toFixed(1)} × to ${plot.bottom.toFixed(1)})`);
        for (const [other, c] of labels.slice(i + 1))
            if (b.left < c.right && c.left < b.right && b.top < c.bottom && c.top < b.bottom)
                out.push(`${name} over ${other}`);
    });
    return out;
}"""

SMALL_CONTROLS_JS = """() => [...document.querySelectorAll(
        '#panel button, #panel select, #panel summary, .learn label, #banner button, #strip button')]
    .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
    .map(e => [e.outerHTML.slice(0, 60), e.getBoundingClientRect().height])
    .filter(([_, h]) => h < 43.5)"""


def _open(visit: RecordedPage, fragment: str, record: str) -> Any:
    page = visit.page
    if not visit.loaded:
        page.goto(f"{visit.base_url}/index.html#{fragment}")
        page.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=60_000)
        visit.loaded = True
    else:
        page.evaluate("f => { location.hash = f; }", fragment)
    page.wait_for_function("r => document.getElementById('board').dataset.record === r", arg=record)
    return page


def _theme(page: Any, theme: str) -> None:
    page.select_option("#theme-choice", theme)
    assert page.get_attribute("html", "data-theme") == theme


def _record(game: Game) -> str:
    return "record=" + game.record().replace(" ", "%20")


# --------------------------------------------------------------------------- desktop


LONGEST_MOVES = rows_seeking_game(115)
"""A game whose last move, ``h10-d6;xf10-j10xj7xc8-g8xg7`` (two rows removed after the ring's
move), is as long as moves get, beside others with removals before and after a ring move."""
CUT_MOVES_JS = """() => [...document.querySelectorAll('#moves button.move')]
    .filter(b => b.scrollWidth > b.clientWidth + 0.5 || b.closest('li').scrollWidth > b.closest('li').clientWidth + 0.5
                 || [...b.querySelectorAll('.part')].some(p => p.getClientRects().length !== 1))
    .map(b => b.textContent)"""


def test_a_short_move_list_starts_at_the_top_and_a_long_one_shows_its_last_move(chromium_browser, site_url):
    gap = "() => document.querySelector('#moves li').getBoundingClientRect().top - " \
          "document.querySelector('.move-scroll').getBoundingClientRect().top"
    last_shown = """() => { const box = document.querySelector('.move-scroll').getBoundingClientRect();
        const last = document.querySelector('#moves li:last-child').getBoundingClientRect();
        return last.bottom <= box.bottom + 1 && last.top >= box.top - 1; }"""
    short = Game.from_record("1.h4 2.c7 3.c8")
    with RecordedPage(chromium_browser, site_url, viewport={"width": 1280, "height": 800}) as visit:
        page = _open(visit, _record(short), short.record())
        assert 0 <= page.evaluate(gap) < 8, page.evaluate(gap)  # no empty space above the first moves
        page = _open(visit, _record(LONGEST_MOVES), LONGEST_MOVES.record())
        assert page.evaluate(last_shown) and page.evaluate(gap) < 0  # scrolled to the end


@pytest.mark.parametrize("width, height", [(1280, 800), (1024, 768), (390, 844)])
def test_every_move_in_the_list_is_readable_whole(chromium_browser, site_url, width, height):
    """No entry of the move list is cut, at any width the page supports: a move too long for its
    column wraps between its ring move and its removals, never inside one."""
    game = LONGEST_MOVES
    assert "xf10-j10xj7xc8-g8xg7" in game.record()
    with RecordedPage(chromium_browser, site_url, viewport={"width": width, "height": height}) as visit:
        page = _open(visit, _record(game), game.record())
        assert page.evaluate(CUT_MOVES_JS) == []
        last = page.locator(f'#moves [data-ply="{len(game.moves)}"]')
        assert last.inner_text().replace("\n", "").endswith("h10-d6;xf10-j10xj7xc8-g8xg7")
        save_settled_screenshot(page, f"layout-moves-{width}")


def test_desktop_moves_result_review_and_labels(chromium_browser, site_url):
    with RecordedPage(chromium_browser, site_url, viewport={"width": 1280, "height": 800}) as visit:
        page = _open(visit, _record(MIDGAME), MIDGAME.record())
        # the guide and a hint shown: still eight moves and more in view
        assert page.locator("#guide").is_visible()
        page.click("#panel button[data-action=hint]")
        page.wait_for_function("document.getElementById('board').dataset.hint", timeout=AI_TIMEOUT_MS)
        assert page.locator("#hint").is_visible()
        assert page.evaluate(VISIBLE_MOVES_JS) >= 8
        assert page.evaluate("document.documentElement.scrollHeight") <= 800  # one screen
        assert page.locator("button[data-action=keys]").is_visible()  # a mouse: the keyboard may be there too
        title = page.locator(".title h1").bounding_box()
        for theme in THEMES:
            _theme(page, theme)
            save_settled_screenshot(page, f"layout-desktop-{theme}-hint")
        _theme(page, "light")
        # a move never breaks inside its notation (here 61. d6-d8;xa4-e8xb1 in a column of its own)
        page = _open(visit, _record(LONG), LONG.record())
        parts = page.eval_on_selector_all("#moves .part",
                                          "els => els.map(e => [e.textContent, e.getClientRects().length])")
        assert any(";" in text for text, _ in parts) and all(lines == 1 for _, lines in parts), parts
        # the review: the graph labelled, readable, the page where it was
        page.click('#moves [data-ply="30"]')
        # the engine's graph: the quick estimate drawn first is replaced when its values come
        page.wait_for_function("document.getElementById('eval-graph').dataset.graph === 'engine' && "
                               "document.querySelectorAll('#eval-graph .eg-point').length === 62",
                               timeout=AI_TIMEOUT_MS)
        graph = page.locator("#eval-graph svg").bounding_box()
        assert graph["width"] >= 300 and graph["height"] >= 110
        labels = page.eval_on_selector_all("#eval-graph text", "els => els.map(e => e.textContent)")
        assert {"White", "Black", "1", "62"} <= set(labels), labels  # the sides, the first and last move
        sizes = page.eval_on_selector_all("#eval-graph text", "els => els.map(e => e.getBoundingClientRect().height)")
        assert min(sizes) >= 10  # readable: text at least 10 px tall on the screen
        assert "even" in labels and page.evaluate(GRAPH_LABELS_JS) == []
        assert page.evaluate("window.scrollY") == 0 and page.locator(".title h1").bounding_box() == title
        outline = page.eval_on_selector("#board", "e => [getComputedStyle(e.querySelector('svg')).outlineStyle, "
                                                  "getComputedStyle(e).outlineStyle]")
        assert outline == ["none", "none"]  # no debug-looking frame: a badge says it is the past
        assert "Past position" in page.eval_on_selector("#board", "e => getComputedStyle(e, '::before').content")
        for theme in THEMES:
            _theme(page, theme)
            save_settled_screenshot(page, f"layout-desktop-{theme}-review")
        _theme(page, "light")
        page.set_viewport_size({"width": 390, "height": 844})  # the same graph on a phone's width
        page.wait_for_function("innerWidth === 390")
        assert page.evaluate(GRAPH_LABELS_JS) == []
        page.set_viewport_size({"width": 1280, "height": 800})
        page.click("#review button[data-action=live]")
        # the result: beside the board, over none of its points, put away three ways
        for way in ("close", "escape", "press"):
            page = _open(visit, "n=" + way + "&record=" + FINAL.replace(" ", "%20"), FINAL)
            page.wait_for_selector("#banner", state="visible")
            assert page.evaluate(RESULT_OVER_POINTS_JS) == []
            if way == "close":
                for theme in THEMES:
                    _theme(page, theme)
                    save_settled_screenshot(page, f"layout-desktop-{theme}-result")
                _theme(page, "light")
                page.click("#banner button[data-action=close-result]")
            elif way == "escape":
                page.keyboard.press("Escape")
            else:
                page.mouse.click(5, 400)  # beside the board, on the page
            page.wait_for_selector("#banner", state="hidden")
            assert page.text_content("#prompt").startswith("Black wins")  # still said
        # labels never under pieces: clear of the thickest ring's outer edge on every point
        _theme(page, "high-contrast")
        page = _open(visit, _record(MIDGAME), MIDGAME.record())
        clash = page.evaluate("""() => {
            const svg = document.querySelector('#board svg'), unit = svg.getScreenCTM().a;
            const edge = parseFloat(getComputedStyle(svg.querySelector('.ring .yb-rline')).strokeWidth);
            const reach = (19 + edge / 2) * unit;  // a ring's outer radius on the screen
            const points = [...svg.querySelectorAll('[data-point]')].map(p => {
                const r = p.getBoundingClientRect(); return [p.dataset.point, r.x + r.width / 2, r.y + r.height / 2];
            });
            const out = [];
            for (const label of svg.querySelectorAll('.yb-labels text')) {
                const b = label.getBoundingClientRect();
                for (const [name, x, y] of points) {
                    const dx = Math.max(b.left - x, 0, x - b.right), dy = Math.max(b.top - y, 0, y - b.bottom);
                    if (Math.hypot(dx, dy) < reach) out.push(label.textContent + ' under a ring on ' + name);
                }
            }
            return out;
        }""")
        assert clash == []
        _theme(page, "light")
        assert not visit.take_problems()


# --------------------------------------------------------------------------- phone


@pytest.mark.parametrize("theme", THEMES)
def test_phone_strip_bar_words_and_sizes(chromium_browser, site_url, theme):
    with RecordedPage(chromium_browser, site_url, viewport={"width": 375, "height": 667}, is_mobile=True,
                      has_touch=True, device_scale_factor=2) as visit:
        visit.page.add_init_script(f"localStorage.setItem('yinsh:theme', '{theme}')")
        page = _open(visit, _record(MIDGAME), MIDGAME.record())
        assert page.get_attribute("html", "data-theme") == theme
        # the strip: both scores and the pool, above the board
        strip, board = page.locator("#strip").bounding_box(), page.locator("#board svg").bounding_box()
        assert page.locator("#strip").is_visible() and strip["y"] + strip["height"] <= board["y"] + 1
        assert page.text_content("#strip-white .strip-score") == "1/3"
        assert page.text_content("#strip-black .strip-score") == "0/3"
        assert page.text_content("#strip-pool") == page.text_content("#pool-count")
        # touch words, no shortcuts button, every control a finger's size, nothing under the bar
        assert not page.locator("button[data-action=keys]").is_visible()
        said = page.inner_text(".status")
        assert "Tap" in said and "click" not in said.lower(), said
        assert page.evaluate(SMALL_CONTROLS_JS) == []
        assert page.evaluate(COVERED_BY_BAR_JS) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        # lit destinations 12 px across and more
        ring = page.eval_on_selector("#board .ring.movable", "e => e.dataset.ring")
        box = page.locator(f'#board [data-point="{ring}"]').bounding_box()
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_function("document.getElementById('board').dataset.phase === 'move-ring'")
        widths = page.eval_on_selector_all("#board [data-dest]", "els => els.map(e => e.getBoundingClientRect().width)")
        assert widths and min(widths) >= 12, widths
        assert page.evaluate(COVERED_BY_BAR_JS) == []
        save_settled_screenshot(page, f"layout-phone-{theme}-move")
        # high contrast: a black ring's band is striped, a white one's solid
        dashes = page.evaluate("""() => ['white', 'black'].map(c => getComputedStyle(
            document.querySelector(`#board .ring.${c} .yb-rbody`)).strokeDasharray)""")
        if theme == "high-contrast":
            assert dashes[0] == "none" and dashes[1] != "none", dashes
        # the result above the board, over none of its points; the bar still last
        page = _open(visit, "record=" + FINAL.replace(" ", "%20"), FINAL)
        page.wait_for_selector("#banner", state="visible")
        page.wait_for_timeout(400)  # it grows into place
        assert page.evaluate(RESULT_OVER_POINTS_JS) == []
        banner = page.locator("#banner").bounding_box()
        assert banner["y"] + banner["height"] <= page.locator("#board svg").bounding_box()["y"]
        assert page.evaluate(COVERED_BY_BAR_JS) == [] and page.evaluate(SMALL_CONTROLS_JS) == []
        save_settled_screenshot(page, f"layout-phone-{theme}-result")
        if AXE.is_file():
            assert axe_problems(page, AXE) == []
        page.locator("#banner button[data-action=close-result]").tap()
        page.wait_for_selector("#banner", state="hidden")
        save_settled_screenshot(page, f"layout-phone-{theme}-over")
        assert not visit.take_problems()


QUESTION_COVERS_JS = """() => {
    // While the question is open: each of the page's messages either has no box or is hidden,
    // and what is found at the middle of its box is the question (the dialog or its backdrop).
    const dialog = document.getElementById('replace-dialog');
    return ['banner', 'notices', 'update-offer', 'strip'].map(id => {
        const e = document.getElementById(id), r = e.getBoundingClientRect();
        if (!r.width || !r.height) return null;
        const shows = e.checkVisibility({visibilityProperty: true, opacityProperty: true});
        const found = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return shows || !dialog.contains(found) ? `#${id} shows (${found && found.outerHTML.slice(0, 40)})` : null;
    }).filter(Boolean);
}"""


@pytest.mark.parametrize("theme", THEMES)
def test_phone_a_question_covers_the_result(chromium_browser, site_url, theme):
    """A link to a finished game opened over a game in progress: the page shows the link's game
    and asks first; its result (and the strip) wait behind the question, then come back."""
    with RecordedPage(chromium_browser, site_url, viewport={"width": 390, "height": 844}, is_mobile=True,
                      has_touch=True, device_scale_factor=2) as visit:
        visit.page.add_init_script(f"localStorage.setItem('yinsh:theme', '{theme}')")
        _open(visit, "record=1.e3%202.a5%203.b5", "1.e3 2.a5 3.b5")  # a game in progress, saved
        page = visit.context.new_page()  # the link, opened in a tab of its own
        page.on("console", visit._on_console)
        page.on("pageerror", lambda error: visit.problems.append(f"page error: {error}"))
        page.goto(f"{visit.base_url}/index.html#record=" + FINAL.replace(" ", "%20"))
        page.wait_for_function("!!document.getElementById('replace-dialog')?.open", timeout=60_000)
        page.wait_for_function("document.getElementById('board').dataset.result")
        assert page.evaluate("document.getElementById('replace-dialog').matches(':modal')")
        assert page.get_attribute("#banner", "hidden") is None  # the link's game is over: its result waits
        page.wait_for_timeout(400)  # the result grows into place
        assert page.evaluate(QUESTION_COVERS_JS) == []
        question = page.locator("#replace-dialog").bounding_box()
        assert question["x"] >= 0 and question["x"] + question["width"] <= 390
        assert question["y"] >= 0 and question["y"] + question["height"] <= 844
        save_settled_screenshot(page, f"layout-phone-{theme}-link-question")
        # answered by the keyboard: a tap on the answer is a press beside the result, which puts it away
        page.focus("#replace-dialog button[data-action=open-link]")
        page.keyboard.press("Enter")
        page.wait_for_function("!document.getElementById('replace-dialog').open")
        page.wait_for_selector("#banner", state="visible")
        assert page.evaluate("document.getElementById('strip').checkVisibility({visibilityProperty: true})")
        assert page.text_content("#banner-title") == "Black wins"
        assert not visit.take_problems()
