"""How headless Chromium is launched here, for the browser tests and the browser benchmarks.

Playwright cannot download its own browser on these machines: Debian's ``/usr/bin/chromium``
is used when it exists, else Playwright's own. Without the background-networking flags
Chromium tries to reach Google's hosts and logs refused connections.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

SYSTEM_CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def launch_options() -> dict[str, Any]:
    """Playwright ``launch()`` keyword arguments for headless Chromium on these machines."""
    options: dict[str, Any] = {"headless": True, "args": list(CHROMIUM_ARGS)}
    if SYSTEM_CHROMIUM.exists():
        options["executable_path"] = str(SYSTEM_CHROMIUM)
    return options


RETURNING_VISITOR = "try { localStorage.getItem('yinsh:welcome') || localStorage.setItem('yinsh:welcome', 'two'); } " \
                    "catch (e) {}"
"""A context's init script that makes every visit a returning visitor's: the first visit's
question (yinsh.page.prefs.welcome_due) is answered "Two players here" unless the page stored
an answer itself. The tests of that question open their pages without it."""


#: JavaScript: start collecting the page's long tasks (once), or forget those collected so far;
#: their durations (ms) gather in ``window.__longTasks``.
WATCH_LONG_TASKS = """() => {
  if (!window.__longTasks) {
    new PerformanceObserver(list => {
      for (const entry of list.getEntries()) window.__longTasks.push(Math.round(entry.duration));
    }).observe({type: "longtask"});
  }
  window.__longTasks = [];
}"""


def put_paste(page: Any, text: str) -> None:
    """Put ``text`` in the open Open dialog's box as a paste would, after emptying it (so the
    page reads it anew); the page reads it on the ``change`` event the caller dispatches."""
    box = page.locator("#open-dialog textarea")
    box.evaluate("(e, t) => { e.value = t; }", "")
    box.dispatch_event("input")
    box.evaluate("(e, t) => { e.value = t; }", text)
