#!/usr/bin/env python3
"""Copy the browser runtime (Pyodide, MicroPython, PyScript, nats.ws) from node_modules/ into static/vendor/.

Run after ``npm ci`` (``make setup`` does both). The result is generated, ignored by git,
and safe to regenerate: the old ``static/vendor/`` is removed first.

Layout produced::

    static/vendor/pyodide/   pyodide.mjs, pyodide.asm.mjs, pyodide.asm.wasm,
                             python_stdlib.zip, pyodide-lock.json, and the project's own
                             yinsh-pyodide.mjs (from static/js/: the worker's interpreter,
                             Pyodide started from a memory snapshot; it must sit beside
                             Pyodide's loader, whose folder PyScript takes Pyodide's files from)
    static/vendor/micropython/  micropython.mjs, micropython.wasm (the build PyScript runs for
                             ``type="mpy"``) and a LICENSE
    static/vendor/pyscript/  core.js, core.css and every lazily imported chunk of
                             @pyscript/core/dist (source maps left out)
    static/vendor/nats/      nats.js (nats.ws's one self-contained ES module: the live rooms'
                             client, loaded only when a room opens) and its LICENSE
    static/vendor/VERSIONS.json   the versions copied, for humans and tests

Only the standard library is used.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"
DEST = ROOT / "static" / "vendor"

# Pyodide: the ES-module loader, the Emscripten glue, the WebAssembly binary, the standard
# library and the package lock (read at start-up even when no package is loaded).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)

# MicroPython (the page's main thread): the ES-module loader and its WebAssembly binary.
MICROPYTHON_PACKAGE = "@micropython/micropython-webassembly-pyscript"
MICROPYTHON_FILES = ("micropython.mjs", "micropython.wasm")

# @pyscript/core/dist: core.js imports hashed chunks lazily (the TOML parser, the worker
# bridge, error reporting, and optional features such as py-editor or py-terminal). Chunk
# names change with every release, so everything but source maps is copied; a page only
# downloads what it imports.
PYSCRIPT_SKIP_SUFFIXES = (".map",)

# nats.ws (live rooms): only its ES module, which bundles the client, JetStream and KV.
NATS_PACKAGE = "nats.ws"
NATS_FILES = ("esm/nats.js",)
LICENSES = ("LICENSE", "LICENSE.md", "LICENSE.txt")
PYODIDE_START = ROOT / "static" / "js" / "yinsh-pyodide.mjs"


def _version(package_dir: Path) -> str:
    return json.loads((package_dir / "package.json").read_text(encoding="utf-8"))["version"]


def _copy(src: Path, dst: Path) -> int:
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)
    return dst.stat().st_size


def _licence_notice(package_dir: Path) -> str:
    """A licence file for a package that ships none: its declared licence and where the text is."""
    meta = json.loads((package_dir / "package.json").read_text(encoding="utf-8"))
    url = meta.get("repository", {}).get("url", "").removeprefix("git+").removesuffix(".git")
    return (f"{meta['name']} {meta['version']} is distributed under the {meta['license']} licence.\n"
            f"The npm package ships no licence file; the full text is the LICENSE file of {url}\n")


def vendor(node_modules: Path = NODE_MODULES, dest: Path = DEST) -> dict[str, int]:
    """Rebuild ``dest`` from ``node_modules``; return {relative path: size in bytes}."""
    pyodide = node_modules / "pyodide"
    micropython = node_modules / MICROPYTHON_PACKAGE
    core = node_modules / "@pyscript" / "core"
    nats = node_modules / NATS_PACKAGE
    for needed in (pyodide / "package.json", micropython / "package.json", core / "dist" / "core.js",
                   nats / "package.json"):
        if not needed.is_file():
            raise SystemExit(f"vendor.py: {needed} is missing; run `npm ci` first")

    if dest.exists():
        shutil.rmtree(dest)
    copied: dict[str, int] = {}

    for name in PYODIDE_FILES:
        copied[f"pyodide/{name}"] = _copy(pyodide / name, dest / "pyodide" / name)
    copied[f"pyodide/{PYODIDE_START.name}"] = _copy(PYODIDE_START, dest / "pyodide" / PYODIDE_START.name)

    for name in MICROPYTHON_FILES:
        copied[f"micropython/{name}"] = _copy(micropython / name, dest / "micropython" / name)

    for src in sorted((core / "dist").rglob("*")):
        if src.is_file() and not src.name.endswith(PYSCRIPT_SKIP_SUFFIXES):
            rel = src.relative_to(core / "dist").as_posix()
            copied[f"pyscript/{rel}"] = _copy(src, dest / "pyscript" / rel)
    for name in NATS_FILES:
        base = name.rsplit("/", 1)[-1]
        copied[f"nats/{base}"] = _copy(nats / name, dest / "nats" / base)
    for package, sub in ((pyodide, "pyodide"), (micropython, "micropython"), (core, "pyscript"), (nats, "nats")):
        licences = [name for name in LICENSES if (package / name).is_file()]
        for name in licences:
            _copy(package / name, dest / sub / name)
        if not licences:
            (dest / sub / "LICENSE").write_text(_licence_notice(package), encoding="utf-8")

    polyscript = node_modules / "polyscript"
    versions = {
        "pyodide": _version(pyodide),
        "micropython": _version(micropython),
        "@pyscript/core": _version(core),
        "nats.ws": _version(nats),
        "polyscript": _version(polyscript) if polyscript.is_dir() else None,
        "pyodide_expected_by_polyscript": (
            (polyscript / "versions" / "pyodide").read_text(encoding="utf-8").strip()
            if (polyscript / "versions" / "pyodide").is_file()
            else None
        ),
    }
    (dest / "VERSIONS.json").write_text(json.dumps(versions, indent=2) + "\n", encoding="utf-8")
    expected = versions["pyodide_expected_by_polyscript"]
    if expected and expected != versions["pyodide"]:
        print(
            f"vendor.py: warning: pyodide {versions['pyodide']} but polyscript expects {expected}",
            file=sys.stderr,
        )
    return copied


def main() -> None:
    copied = vendor()
    total = sum(copied.values())
    print(f"vendor.py: {len(copied)} files, {total / 1e6:.1f} MB into {DEST.relative_to(ROOT)}/")


if __name__ == "__main__":
    main()
