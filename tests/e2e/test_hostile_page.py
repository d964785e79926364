"""Hostile input in the browser (issue 13): the page and the embed stay responsive and keep going.

The reproductions of the issue that reach the page through a link or pasted text (the catalogue
of :func:`yinsh.bench.hostile_inputs`) are given to a running page — a link through the URL hash,
which the page reads as it reads a new visit's URL, and text through the Open record dialog —
and each must be refused with a message while no main-thread task lasts over 200 ms (Chromium's
long-task entries, which a deliberate slow task shows the observer does report; an action is
tried a second time if the first saw a long task, since other work on a busy machine can land in
its window, while these inputs used to take seconds every time). Saved data that
once stopped the page from starting is put in ``localStorage`` before a visit: the page must
start, with a fresh game and a notice.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser import WATCH_LONG_TASKS, put_paste
from pages import RecordedPage, follow_link, shared_page_fixtures

from yinsh import Game
from yinsh.bench import MOST_ROWS, hostile_inputs

ISSUE = {item.name: item for item in hostile_inputs()}
BOOT_TIMEOUT_MS = 90_000
LONG_TASK_MS = 200



def as_hash(link: str) -> str:
    """A catalogue link (``?query#hash``) as one URL hash: the page reads both alike."""
    search, _, hash_ = link.partition("#")
    return "#" + "&".join(part for part in (search.lstrip("?"), hash_) if part)


class Watched(RecordedPage):
    """A page of the site that records its long tasks."""

    path = "index.html"

    def boot(self) -> None:
        if not self.loaded:
            self.page.goto(f"{self.base_url}/{self.path}")
            self.page.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=BOOT_TIMEOUT_MS)
            self.loaded = True

    def watch(self) -> None:
        self.page.evaluate(WATCH_LONG_TASKS)

    def long_tasks(self) -> list[int]:
        """The long tasks since :meth:`watch`, in ms (after a pause: entries come in late)."""
        self.page.wait_for_timeout(300)
        return self.page.evaluate("window.__longTasks")

    def open_hash(self, fragment: str) -> None:
        self.page.evaluate("f => { location.hash = f; }", fragment)


class Embed(Watched):
    path = "embed.html"


shared_page, hostile_page = shared_page_fixtures(Watched, "hostile_page")
shared_embed, hostile_embed = shared_page_fixtures(Embed, "hostile_embed")

LINKS = [
    ("game code from a position at move 10^4400", "Could not open the game code in the link"),
    ("game code of 200 KB", "Could not read the link"),
    ("SGF '(;' + 'P0[' × 8000 in ?record=", "Could not open the record in the link"),
    ("?record=(; and garbage", "Could not open the record in the link"),
    ("White has won 3-0, no move played", "does not say it is a study"),
    ("play by link from a set-up position", "a game played by link (you=) starts from the first move"),
    ("position link: 23 rows no move could make (343,440 moves)", "is not a reachable position"),
]


def test_the_long_task_observer_reports_a_slow_task(hostile_page):
    hostile_page.boot()
    hostile_page.watch()
    # a task of the page's own (DevTools' evaluation is not one): a timer's
    hostile_page.page.evaluate("() => setTimeout(() => { const t = performance.now(); "
                               "while (performance.now() - t < 300); })")
    hostile_page.page.wait_for_function("() => window.__longTasks.some(d => d >= 300)", timeout=5_000)


def quickest(act) -> list[int]:  # type: ignore[no-untyped-def]
    """The long tasks of ``act()`` (which watches and acts), tried again if the first had one."""
    first = act()
    return first if max(first, default=0) <= LONG_TASK_MS else act()


@pytest.mark.parametrize("name, notice", LINKS, ids=[name for name, _ in LINKS])
def test_a_hostile_link_is_refused_with_a_notice_and_no_long_task(hostile_page, name, notice):
    hostile_page.boot()
    notices = hostile_page.page.locator("#notices")

    def act() -> list[int]:
        hostile_page.open_hash("#")
        hostile_page.watch()
        hostile_page.open_hash(as_hash(ISSUE[name].text))
        notices.filter(has_text=notice).wait_for(state="visible", timeout=10_000)
        return hostile_page.long_tasks()

    assert max(quickest(act), default=0) <= LONG_TASK_MS
    assert "Traceback" not in notices.inner_text()


PASTES = [
    ("SGF '(;' + 'P0[' × 8000", "The SGF value P0[…] at character 5 is never closed (is the file cut short?)."),
    ("'{' × 50,000 pasted", "is never closed: a comment runs from { to }."),
    ("a 5 MB tag", "The text is 5,000,015 characters long: at most 1,000,000 are read."),
    ("20,000 games", "The text has 40,001 lines: at most 10,000 are read."),
    ("SGF '(;P0[1 place wr'", "The SGF value P0[…] at character 5 is never closed (is the file cut short?)."),
]


@pytest.mark.parametrize("name, message", PASTES, ids=[name for name, _ in PASTES])
def test_hostile_pasted_text_is_explained_with_no_long_task(hostile_page, name, message):
    hostile_page.boot()
    page = hostile_page.page
    before = page.get_attribute("#board", "data-record")
    page.click("#game-menu summary")
    page.click("#game-menu button[data-action=open-record]")
    dialog = page.locator("#open-dialog")
    shown = page.locator("#open-message")

    def act() -> list[int]:
        put_paste(page, ISSUE[name].text)  # the long tasks are those of reading it
        hostile_page.watch()
        dialog.locator("textarea").dispatch_event("change")
        shown.wait_for(state="visible", timeout=10_000)
        return hostile_page.long_tasks()

    assert max(quickest(act), default=0) <= LONG_TASK_MS
    assert message in shown.inner_text()
    dialog.locator("button[data-action=open-game]").click()  # refused again, and nothing opens
    assert dialog.is_visible() and page.get_attribute("#board", "data-record") == before
    page.evaluate("() => { document.querySelector('#open-dialog textarea').value = ''; }")
    page.keyboard.press("Escape")


#: The dearest pastes within the limits for the Open dialog's list (issue 23, item 6: 100 long
#: games took 4.7 s to list on the page's MicroPython), as ``yinsh bench`` times them.
WORST_PASTES = [
    "largest: 100 games of 97 tag pairs",
    "largest: 100 games of 97 tag pairs, each line indented and ending in nine spaces",
    "largest: 100 games of 97 tag pairs of en dashes, each line ending in U+001C U+001F",
    "largest: 100 games of 97 lines left out of the moves, holding dots",
    "largest: 100 games of 100 lines, each a comment ending in a no-break space",
    "largest: 100 games of 4 shown tags of 1,000 escaped quotes",
    "largest: 100 games of 4 shown tags of 821 CJK characters",
    "largest: 100 games of 4,980 words",
]


@pytest.mark.parametrize("name", WORST_PASTES)
def test_the_worst_pastes_are_listed_with_no_long_task(hostile_page, name):
    """Each of 100 games at the limits of a paste is listed, and no task of the page's main
    thread lasts over 200 ms while the list is built. The listing must be right; the bound is
    the issue's target, met here with room to spare (scripts/bench_paste.py gives the figures)
    but a matter of the machine's speed and load: a task over it on a slower or busier machine
    marks the test as an expected failure that says how long."""
    hostile_page.boot()
    page = hostile_page.page
    page.click("#game-menu summary")
    page.click("#game-menu button[data-action=open-record]")
    dialog = page.locator("#open-dialog")
    options = dialog.locator("select[name=choice] option")

    def act() -> list[int]:
        put_paste(page, ISSUE[name].text)
        hostile_page.watch()
        dialog.locator("textarea").dispatch_event("change")
        dialog.locator("select[name=choice]").wait_for(state="visible", timeout=30_000)
        return hostile_page.long_tasks()

    try:
        longest = max(quickest(act), default=0)
        assert options.count() == 100
        assert options.nth(0).inner_text().startswith("1. ") and options.nth(99).inner_text().startswith("100. ")
        assert all(len(label) < 200 for label in options.all_inner_texts())  # long names cut short
        assert not page.locator("#open-message").is_visible()
    finally:
        page.evaluate("() => { document.querySelector('#open-dialog textarea').value = ''; }")
        dialog.locator("textarea").dispatch_event("input")
        page.keyboard.press("Escape")
    if longest > LONG_TASK_MS:
        pytest.xfail(f"a task of {longest} ms (over {LONG_TASK_MS}) while listing {name!r}")


def test_the_position_with_the_most_rows_opens_with_no_long_task(hostile_page):
    """The worst position the reachability check lets through (24 rows for the player to move,
    187,920 legal moves) opens and offers its rows at once: its first turn is not the list of
    every move (issue 23: 40 s on the page before)."""
    hostile_page.boot()
    page = hostile_page.page
    expect = Game.from_position(MOST_ROWS).record()

    def act() -> list[int]:
        follow_link(page, "#", "")
        hostile_page.watch()
        follow_link(page, as_hash(ISSUE["largest: a position link of 24 rows for the mover (187,920 moves)"].text),
                    expect)
        page.wait_for_function("() => document.getElementById('prompt').textContent"
                               " === 'White: choose a row to remove'", timeout=10_000)
        return hostile_page.long_tasks()

    assert max(quickest(act), default=0) <= LONG_TASK_MS


def test_bidi_controls_in_tags_show_by_their_code_in_the_list_and_the_notice(hostile_page):
    """A name that turns the text after it around cannot make a two-move game read "164 moves,
    1-0" in the Open dialog's list or in the notice of the game opened (issue 23)."""
    hostile_page.boot()
    page = hostile_page.page
    text = '[White "Ann\u202e0-1 ,sevom 461(\u202c"]\n[Black "Bo"]\n1.e3 2.a5\n\n[White "Cy"]\n1.e3'
    page.click("#game-menu summary")
    page.click("#game-menu button[data-action=open-record]")
    dialog = page.locator("#open-dialog")
    page.evaluate("t => { document.querySelector('#open-dialog textarea').value = t; }", text)
    dialog.locator("textarea").dispatch_event("change")
    choice = dialog.locator("select[name=choice]")
    choice.wait_for(state="visible")
    first = choice.locator("option").first.inner_text()
    assert "\u202e" not in first and "\\u202e" in first and "2 moves" in first
    choice.select_option("0")
    dialog.locator("button[data-action=open-game]").click()
    notices = page.locator("#notices")
    notices.filter(has_text="Opened game 1 of 2").wait_for(state="visible", timeout=10_000)
    shown = notices.inner_text()
    assert "\u202e" not in shown and "\\u202e" in shown and "2 moves" in shown


EMBED_LINKS = [
    ("SGF '(;' + 'P0[' × 8000 in embed.html", "record= cannot be read: the SGF value"),
    ("game code from a position at move 10^4400", "g= cannot be read"),
    ("game code of 200 KB", "The link cannot be read"),
    ("those 23 rows as embed.html's puzzle", "position= cannot be read"),
]


@pytest.mark.parametrize("name, error", EMBED_LINKS, ids=[name for name, _ in EMBED_LINKS])
def test_the_embed_explains_a_hostile_link_with_no_long_task(hostile_embed, name, error):
    hostile_embed.boot()
    message = hostile_embed.page.locator("#message")

    def act() -> list[int]:
        hostile_embed.open_hash("#")
        message.wait_for(state="hidden", timeout=10_000)
        hostile_embed.watch()
        hostile_embed.open_hash(as_hash(ISSUE[name].text))
        message.filter(has_text=error).wait_for(state="visible", timeout=10_000)
        return hostile_embed.long_tasks()

    assert max(quickest(act), default=0) <= LONG_TASK_MS


def test_the_embed_puzzle_on_the_position_with_the_most_rows_has_no_long_task(hostile_embed):
    hostile_embed.boot()
    page = hostile_embed.page

    def act() -> list[int]:
        hostile_embed.open_hash("#")
        page.locator("#message").wait_for(state="hidden", timeout=10_000)
        hostile_embed.watch()
        hostile_embed.open_hash(as_hash(ISSUE["largest: those 24 rows as embed.html's puzzle"].text))
        page.wait_for_function("() => document.getElementById('board').dataset.puzzle === 'solving'",
                               timeout=10_000)
        return hostile_embed.long_tasks()

    assert max(quickest(act), default=0) <= LONG_TASK_MS


def _far_game_saved() -> str:
    code = ISSUE["game code from a position at move 10^4400"].text.removeprefix("#g=")
    return json.dumps({"version": 1, "game": code, "settings": {}, "time": 1})


SAVED = {
    "a lone surrogate": ISSUE["saved game code 'G1\\ud800AA'"].text,
    "'[' × 20,000": ISSUE["saved data '[' × 20,000"].text,
    "a game from move 10^4400": _far_game_saved(),
}


@pytest.mark.parametrize("what", list(SAVED))
def test_the_page_starts_whatever_the_saved_data(chromium_browser: Any, site_url: str, what: str) -> None:
    with RecordedPage(chromium_browser, site_url) as visit:
        text = json.dumps(json.dumps(SAVED[what]))  # a JavaScript literal of the JSON text of the data
        visit.page.add_init_script(f"localStorage.setItem('yinsh.saved', JSON.parse({text}))")
        visit.page.goto(f"{site_url}/index.html")
        visit.page.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=BOOT_TIMEOUT_MS)
        visit.loaded = True
        notices = visit.page.inner_text("#notices")
        assert "Your saved game could not be read" in notices and "Traceback" not in notices
        assert visit.page.get_attribute("#board", "data-record") == ""
        assert visit.take_problems() == []
