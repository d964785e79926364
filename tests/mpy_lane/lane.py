"""Running the shared modules under the pinned MicroPython in Node.js (the CPython side).

The page's main thread runs MicroPython 1.27 (the npm package
``@micropython/micropython-webassembly-pyscript``, the build PyScript runs for
``<script type="mpy">``). :func:`run` copies the modules it imports, the stubs of ``mpy/`` and
one module of calls into that interpreter's file system and returns each call's answer:
tests/test_micropython.py compares them with CPython's, scripts/bench_micropython.py times them.

:data:`ENTRY_MODULES` are the modules the page's main thread may import (every module they
import, at any depth, goes along): a new browser-free module joins the lane by its line here
and a probe in probes.py.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

from helpers import page_modules

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
LOADER = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"
STUBS = ROOT / "mpy"

ENTRY_MODULES = (
    "yinsh/__init__.py", "yinsh/turn.py", "yinsh/render.py", "yinsh/lessons.py", "yinsh/diagram.py",
    "yinsh/record.py", "yinsh/sgf.py", "yinsh/position.py", "yinsh/link.py",
    *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "yinsh" / "page").glob("*.py")),
    "yinsh/live/protocol.py", "yinsh/live/room.py", "yinsh/live/status.py", "yinsh/live/clock.py",
)
"""The modules of the page's main thread that need no browser (files of the repository): the
rules, the renderer and the whole of the page's model, :mod:`yinsh.page`."""
LANE_ONLY = ("yinsh/perft.py",)
"""Modules the probes use that the page does not (perft counts the moves of the rules)."""
HEAP = 256 * 1024 * 1024
"""MicroPython's heap: the default 1 MB is too small for perft or long games."""


def missing() -> str | None:
    """Why the lane cannot run here (no Node.js, no npm package), or ``None``."""
    if shutil.which("node") is None:
        return "Node.js is not installed: the MicroPython lane runs MicroPython in Node.js"
    if not LOADER.is_file():
        return f"{LOADER.relative_to(ROOT)} is missing: run `make setup` (npm ci)"
    return None


def shared_modules() -> list[str]:
    """Every file of the package that the page's main thread may import, sorted."""
    return sorted(page_modules(*ENTRY_MODULES))


def module_name(path: str) -> str:
    """``yinsh.page.access`` for ``yinsh/page/access.py`` (a package for its ``__init__.py``)."""
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def run(module: Path, calls: list[tuple[str, list]], timeout: float = 600,
        extra: dict[str, Path] | None = None) -> list[dict]:
    """Call ``module``'s functions under MicroPython: one answer per call, in order, each
    ``{"value": …, "ms": …}`` or ``{"error": traceback, "ms": …}``; the first item is
    ``{"import_ms": …}``, the time ``module`` took to import (its imports included).
    ``extra``: more files for its file system (absolute path there → file here).

    Raises ``RuntimeError`` with MicroPython's output when the run itself fails.
    """
    files = {f"/lib/{path}": str(ROOT / path) for path in shared_modules() + list(LANE_ONLY)}
    files.update({f"/lib/{stub.name}": str(stub) for stub in sorted(STUBS.glob("*.py"))})
    files[f"/lib/{module.name}"] = str(module)
    files.update({dest: str(source) for dest, source in (extra or {}).items()})
    manifest = {"loader": LOADER.as_uri(), "heap": HEAP, "files": files,
                "request": {"module": module.stem, "calls": calls},
                "main": (HERE / "driver.py").read_text(encoding="utf-8")}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "manifest.json"
        path.write_text(json.dumps(manifest), encoding="utf-8")
        done = subprocess.run(["node", str(HERE / "run.mjs"), str(path)], capture_output=True, text=True,
                              timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"MicroPython failed (status {done.returncode}):\n{done.stderr[-4000:]}")
    return json.loads(done.stdout)
