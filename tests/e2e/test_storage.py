"""The saved game when the browser's storage fails (issue 23, item 5).

With ``localStorage`` filled to its quota, every move raised an uncaught ``QuotaExceededError``
(the page's MicroPython cannot catch an exception thrown by a JavaScript call), nothing said the
game was not being saved, and a new tab opened the older saved game as if it were the latest.
The saved time was ``Date.now()`` modulo 2³² there.
"""

from __future__ import annotations

import json
import time
from typing import Any

from pages import GamePage

FILL = """() => {
  // fill this origin's localStorage to its quota: megabytes, then one item as long as still fits
  let n = 0;
  for (;;) {
    try { localStorage.setItem("filler." + n++, "x".repeat(1 << 20)); } catch (e) { break; }
  }
  let low = 0, high = 1 << 20;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    try { localStorage.setItem("filler.last", "x".repeat(middle)); low = middle; } catch (e) { high = middle - 1; }
  }
  localStorage.setItem("filler.last", "x".repeat(low));
  return n;
}"""
EMPTY = """() => {
  for (const key of Object.keys(localStorage)) if (key.startsWith("filler.")) localStorage.removeItem(key);
}"""
NOT_SAVED = "This game is not being saved"


def saved(visit: GamePage) -> dict | None:
    text = visit.page.evaluate("localStorage.getItem('yinsh.saved')")
    return None if text is None else json.loads(text)


def test_a_full_storage_is_said_once_and_play_goes_on(chromium_browser: Any, site_url: str) -> None:
    with GamePage(chromium_browser, site_url) as visit:
        visit.open(record="1.e3 2.a5")
        before = saved(visit)
        assert before is not None and abs(before["time"] / 1000 - time.time()) < 600  # not modulo 2^32
        assert visit.page.evaluate(FILL) > 0
        visit.click_point("b5")
        visit.wait_record("1.e3 2.a5 3.b5")
        notices = visit.page.locator("#notices")
        notices.filter(has_text=NOT_SAVED).wait_for(state="visible", timeout=10_000)
        assert saved(visit) is None  # the older game was removed: no tab opens it as the latest
        visit.click_point("c6")
        visit.wait_record("1.e3 2.a5 3.b5 4.c6")
        visit.page.wait_for_timeout(300)
        assert NOT_SAVED not in notices.inner_text()  # said once
        assert visit.take_problems() == []  # no uncaught QuotaExceededError
        # a new tab (the same storage) does not open an older game as the latest
        tab = visit.context.new_page()
        tab.goto(f"{site_url}/index.html")
        tab.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=60_000)
        assert tab.get_attribute("#board", "data-record") == ""
        tab.close()
        visit.page.evaluate(EMPTY)  # room again: the next move is saved, with the right time
        visit.click_point("d6")
        visit.wait_record("1.e3 2.a5 3.b5 4.c6 5.d6")
        visit.page.wait_for_function("() => localStorage.getItem('yinsh.saved') !== null", timeout=10_000)
        after = saved(visit)
        assert after is not None and abs(after["time"] / 1000 - time.time()) < 600
        assert visit.take_problems() == []


def test_storage_switched_off_is_said_and_the_page_plays(chromium_browser: Any, site_url: str) -> None:
    with GamePage(chromium_browser, site_url) as visit:
        visit.page.add_init_script("""Object.defineProperty(window, "localStorage", {
            get() { throw new DOMException("The operation is insecure.", "SecurityError"); } });""")
        visit.open(record="1.e3 2.a5")
        notices = visit.page.locator("#notices")
        notices.filter(has_text=NOT_SAVED).wait_for(state="visible", timeout=10_000)
        visit.click_point("b5")
        visit.wait_record("1.e3 2.a5 3.b5")
        visit.page.wait_for_timeout(300)
        assert NOT_SAVED not in notices.inner_text()  # said once
        assert visit.take_problems() == []
