#!/usr/bin/env python3
"""The Open record dialog listing the worst pastes, in the page (headless Chromium).

    .venv/bin/python scripts/bench_paste.py [--runs 3] [--root DIR …]

For each paste of ``yinsh bench``'s hostile inputs that the dialog lists (100 games at the
limits), the text is put in the dialog's field and its ``change`` event fired, as a paste
does; the figures are those of the work until the list shows: the main thread's time as
Chromium counts it (``ThreadTime``; on a loaded machine it tracked the page's own clock) and
its longest task (the long-task observer: what a person feels). ``--root`` serves other
copies of the site (an older commit's tree, say) beside this one, each page opened once and
the runs alternated between them, so that a comparison shares the machine's load. The figures
are reported, never asserted; the target is no task over 200 ms (issue 23).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]



def pastes() -> dict[str, str]:
    from yinsh.bench import hostile_inputs

    return {item.name: item.text for item in hostile_inputs()
            if item.door == "import" and item.name.startswith("largest: 100 games")}


def serve(root: Path) -> str:
    from yinsh.serve import make_server

    server = make_server(root, 0, host="127.0.0.1", quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"


def open_dialog(browser, url: str):  # type: ignore[no-untyped-def]
    from browser import RETURNING_VISITOR

    context = browser.new_context()
    context.add_init_script(RETURNING_VISITOR)
    page = context.new_page()
    page.goto(f"{url}/index.html")
    page.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=120_000)
    page.click("#game-menu summary")
    page.click("#game-menu button[data-action=open-record]")
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    return page, cdp


def list_once(page, cdp, text: str) -> tuple[float, int, int]:  # type: ignore[no-untyped-def]
    """CPU ms, longest task ms and options listed for one paste of ``text``."""
    dialog = page.locator("#open-dialog")
    from browser import WATCH_LONG_TASKS, put_paste

    put_paste(page, text)
    page.evaluate(WATCH_LONG_TASKS)

    def thread_time() -> float:
        return next(m["value"] for m in cdp.send("Performance.getMetrics")["metrics"] if m["name"] == "ThreadTime")

    before = thread_time()
    dialog.locator("textarea").dispatch_event("change")
    dialog.locator("select[name=choice]").wait_for(state="visible", timeout=60_000)
    cpu = (thread_time() - before) * 1000
    page.wait_for_timeout(300)  # long-task entries come in late
    longest = max(page.evaluate("window.__longTasks"), default=0)
    return cpu, longest, dialog.locator("select[name=choice] option").count()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--root", type=Path, action="append", default=[], help="another copy of the site")
    parser.add_argument("--only", default="", help="only the pastes whose name holds this")
    args = parser.parse_args()

    from browser import launch_options
    from playwright.sync_api import sync_playwright

    roots = [ROOT, *args.root]
    texts = {name: text for name, text in pastes().items() if args.only in name}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(**launch_options())
        pages = [open_dialog(browser, serve(root)) for root in roots]
        figures: dict[tuple[int, str], list[tuple[float, int, int]]] = {}
        for _ in range(args.runs):
            for name, text in texts.items():
                for index, (page, cdp) in enumerate(pages):
                    figures.setdefault((index, name), []).append(list_once(page, cdp, text))
        browser.close()
    print(f"Open dialog listing, {args.runs} runs each: ThreadTime ms (median, range); longest task ms (median, range)")
    for name in texts:
        print(name)
        for index, root in enumerate(roots):
            runs = figures[(index, name)]
            cpu, longest = [r[0] for r in runs], [r[1] for r in runs]
            print(f"  {str(root):40s} thread {statistics.median(cpu):6.0f} ({min(cpu):.0f}-{max(cpu):.0f})"
                  f"  longest {statistics.median(longest):6.0f} ({min(longest)}-{max(longest)})"
                  f"  games listed {runs[-1][2]}")


if __name__ == "__main__":
    main()
