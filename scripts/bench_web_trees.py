#!/usr/bin/env python3
"""The computer ready on a first visit, built sites of several trees in turn: ``bench_web`` alternated.

    .venv/bin/python scripts/bench_web_trees.py --rounds 15 main=/tmp/main-tree this=. [--repeat]

The machine's load swings more between runs than a change moves the figures, so a change is
measured against the tree before it in the same rounds. Each tree's site is built once, by
that tree's own ``scripts/bench_web.py`` (``prepare``: the site and the bare pages), and served
by this bench's server; each round visits the sites in turn (ABBA: the order flips every
round), each with a fresh profile: the game against the computer (``bench_web.visit``, its
first placement clicked as there), then the bare Pyodide page. A round's ratio is its own
computer-ready time over its own bare page's. ``--repeat`` adds each profile's repeat visit
(after the computer's start-up snapshot is kept, as ``make bench-web`` waits for it). The
service worker is not waited for: on a first visit it installs while the person plays, as it
would. Prints each round, then each tree's medians and ranges and in how many rounds it was
ahead of the first tree. Another tree is a checkout with ``static/vendor`` made
(``git worktree add /tmp/main-tree main`` and ``make setup`` there, or a copy of this one's).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_web  # noqa: E402  (beside this script)

PREPARE = "import sys; sys.path[:0] = ['scripts', 'tests']\nfrom pathlib import Path\nimport bench_web\n" \
          "bench_web.prepare(Path(sys.argv[1]))"


def build(tree: Path, out: Path) -> None:
    """``tree``'s site and bare pages in ``out``, by its own code and Python."""
    python = tree / ".venv" / "bin" / "python"
    subprocess.run([str(python if python.exists() else sys.executable), "-c", PREPARE, str(out)], cwd=tree, check=True)


def first_visit(playwright, url: str, page_name: str, repeat: bool) -> dict:
    path, kind = bench_web.PAGES[page_name]
    ai = page_name == "game-ai"
    with tempfile.TemporaryDirectory(prefix="yinsh-profile-") as directory:
        context = bench_web.profile(playwright, directory)
        context.add_init_script(bench_web.PROBE)
        page = context.pages[0] if context.pages else context.new_page()
        figures = {"first": bench_web.visit(page, url + path, kind=kind, ai=ai, wait_sw=False,
                                            wait_snapshot=repeat and ai)}
        if repeat:
            page.goto("about:blank")
            figures["repeat"] = bench_web.visit(page, url + path, kind=kind, ai=ai, wait_sw=False)
        context.close()
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", help="name=path of a checkout (the first is the reference)")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--repeat", action="store_true", help="also each profile's repeat visit")
    args = parser.parse_args(argv)
    trees = dict(arg.split("=", 1) for arg in args.trees)
    from playwright.sync_api import sync_playwright

    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="yinsh-bench-trees-") as tmp:
        traffic = bench_web.Traffic()
        servers = {}
        for name, tree in trees.items():
            build(Path(tree).resolve(), Path(tmp) / name)
            servers[name] = bench_web.start_server(Path(tmp) / name, traffic, True)
        try:
            with sync_playwright() as playwright:
                names = list(trees)
                for r in range(args.rounds):
                    for name in names if r % 2 == 0 else names[::-1]:
                        url = servers[name][1]
                        game = first_visit(playwright, url, "game-ai", args.repeat)
                        bare = first_visit(playwright, url, "bare-pyodide", args.repeat)
                        row = {"round": r, "tree": name, "load": os.getloadavg()[0],
                               "interactive": game["first"]["ready"], "ai": game["first"]["ai"],
                               "bare": bare["first"]["ready"], "ratio": game["first"]["ai"] / bare["first"]["ready"]}
                        if args.repeat:
                            row["repeat"] = game["repeat"]["ai"] / bare["repeat"]["ready"]
                        rows.append(row)
                        extra = f", repeat {row['repeat']:.2f} ×" if args.repeat else ""
                        print(f"round {r} {name}: computer ready {row['ai'] / 1000:.2f} s, "
                              f"bare {row['bare'] / 1000:.2f} s, {row['ratio']:.2f} ×, "
                              f"interactive {row['interactive'] / 1000:.2f} s{extra} (load {row['load']:.1f})",
                              flush=True)
        finally:
            for server, _ in servers.values():
                server.shutdown()
                server.server_close()
    reference = {row["round"]: row["ratio"] for row in rows if row["tree"] == names[0]}

    def spread(mine: list[dict], key: str, scale: float = 1.0) -> str:
        values = [row[key] / scale for row in mine]
        return f"{statistics.median(values):.2f} ({min(values):.2f}–{max(values):.2f})"

    for name in names:
        mine = [row for row in rows if row["tree"] == name]

        ahead = sum(row["ratio"] < reference[row["round"]] for row in mine)
        repeat = f", repeat {spread(mine, 'repeat')} ×" if args.repeat else ""
        versus = f"; ahead of {names[0]} in {ahead} of {len(mine)} rounds" if name != names[0] else ""
        print(f"{name}: first visit {spread(mine, 'ratio')} × the bare page, "
              f"computer ready {spread(mine, 'ai', 1000)} s, interactive {spread(mine, 'interactive', 1000)} s"
              f"{repeat}{versus}; load {min(r['load'] for r in mine):.1f}–{max(r['load'] for r in mine):.1f}")


if __name__ == "__main__":
    main()
