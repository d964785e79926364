#!/usr/bin/env python3
"""The work of a click and the imports of the page's modules under MicroPython, next to CPython:
``make bench-micropython``.

    .venv/bin/python scripts/bench_micropython.py [--positions 30] [--repeat 5]

The page's main thread runs the pinned MicroPython 1.27 (in Node.js here, the same WebAssembly
build as in the browser, through tests/mpy_lane/run.mjs). Over fixed mid-game positions (those
of ``yinsh bench``) it times, best of ``--repeat`` each: starting a ``Turn``, the legal moves,
the board as the page draws it, the guide's line, and two whole clicks (picking a ring; the
destination that ends the turn, with the next turn, the board and the announcement). Then the
import of each module the page's main thread loads, in a fresh interpreter. Then the time each
hostile input of ``yinsh bench`` (issue 13) takes at its door there. The figures are reported,
never asserted; the targets are every click's work within 10 ms on MicroPython
(docs/PORTABILITY.md), and no input freezing the page for 200 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the package, and the lane's helpers

TIMINGS = ROOT / "tests" / "mpy_lane" / "timings.py"
WORK = {
    "turn": "start a Turn",
    "legal_moves": "legal_moves()",
    "board": "board_svg + point names",
    "guide": "guide_line",
    "pick": "click: pick a ring",
    "move": "click: end a ring move",
    "hover": "hover: preview a move",
    "estimate": "graph: a quick estimate",
}


def _cpython_imports(modules: list[str]) -> list[list]:
    """Import times under a fresh CPython (this one has imported the package already)."""
    code = ("import json, sys; sys.path[:0] = sys.argv[1:3]; import timings; "
            "print(json.dumps(timings.import_times(sys.argv[3:])))")
    done = subprocess.run([sys.executable, "-c", code, str(TIMINGS.parent), str(ROOT), *modules],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def _ms(microseconds: list[int]) -> str:
    return f"{statistics.median(microseconds) / 1000:7.2f} {max(microseconds) / 1000:7.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=30, help="mid-game positions (default 30)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each piece of work (best counts)")
    args = parser.parse_args()

    from mpy_lane import lane, timings

    from yinsh.bench import machine, midgame_positions
    from yinsh.position import encode_position

    reason = lane.missing()
    if reason:
        raise SystemExit(f"bench_micropython.py: {reason}")
    codes = [encode_position(s, 40) for s in midgame_positions(args.positions)]
    modules = [lane.module_name(path) for path in lane.shared_modules()]
    answers = lane.run(TIMINGS, [("import_times", [modules]), ("clicks", [codes, args.repeat])])
    for answer in answers[1:]:
        if "error" in answer:
            raise SystemExit(f"bench_micropython.py: MicroPython failed:\n{answer['error']}")
    micro_imports, micro_clicks = answers[1]["value"], answers[2]["value"]
    cpython_imports = _cpython_imports(modules)
    cpython_clicks = timings.clicks(codes, args.repeat)

    node = subprocess.check_output(["node", "--version"], text=True).strip()
    print(f"MicroPython 1.27.0 (WebAssembly, Node.js {node}) next to {machine()}")
    print(f"\nA click's work over {len(micro_clicks)} mid-game positions, ms (median, max; best of {args.repeat} each)")
    print(f"{'':26s} {'MicroPython':>15s}   {'CPython':>15s}")
    for key, label in WORK.items():
        print(f"{label:26s} {_ms([c[key] for c in micro_clicks])}   {_ms([c[key] for c in cpython_clicks])}")
    print("\nImports of the page's modules in a fresh interpreter, ms (each with what it brings first)")
    print(f"{'':26s} {'MicroPython':>8s}   {'CPython':>8s}")
    for (name, micro), (_, cpython) in zip(micro_imports, cpython_imports):
        print(f"{name:26s} {micro / 1000:8.1f}   {cpython / 1000:8.1f}")
    total_micro, total_cpython = sum(t for _, t in micro_imports), sum(t for _, t in cpython_imports)
    print(f"{'all':26s} {total_micro / 1000:8.1f}   {total_cpython / 1000:8.1f}")
    _hostile()


def _hostile() -> None:
    """Each hostile input at its door under MicroPython (one run, whole ms) and CPython (best of 3)."""
    from mpy_lane import lane

    from yinsh.bench import hostile_inputs, hostile_times

    items = hostile_inputs()
    answers = lane.run(ROOT / "tests" / "mpy_lane" / "probes.py", [("hostile", [i.door, i.text]) for i in items])
    cpython = hostile_times(print_=lambda line: None)
    print("\nHostile input at its door, ms (yinsh bench's catalogue)")
    print(f"{'MicroPython':>11s} {'CPython':>8s}")
    for item, answer in zip(items, answers[1:]):
        print(f"{answer['ms']:11d} {cpython[item.name] * 1000:8.2f}  {item.door:8s} {item.name}")


if __name__ == "__main__":
    main()
