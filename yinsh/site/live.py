"""A live room's files in the built site: shipped, versioned, and loaded only when a room opens.

The page opens a room with modules and scripts that a game at one device never loads
(``LIVE_MODULES`` and ``LIVE_SCRIPTS`` of ``yinsh/web/main.py``). In the built site the page's
modules come from a mounted bundle, and a package's modules must sit in the folder it was
imported from, so files written beside it later are not seen. So the builder packs the live
modules (precompiled, ``.mpy``) into a second bundle, ``live.bundle?v=<hash>``, which the page
fetches and adds to the mounted one (``mpy/bundle.py``, :func:`add`) when a room opens; the
NATS client and the key helper ship with versioned URLs too. The page learns those URLs from
``<script type="application/json" id="yinsh-live-files">`` (only the built page has it: the
development page loads the sources as they are). The offline copy keeps these files once they
are first fetched, as it keeps the computer player's runtime, and never at install.
"""

from __future__ import annotations

import ast
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from .collect import Collector
from .common import PAGE, BuildError
from .micropython import bundle_bytes, compile_modules, mpy_path

__all__ = ["LiveFiles", "collect_live", "LIVE_SOURCE", "LIVE_BUNDLE", "LIVE_FILES_ID"]

LIVE_SOURCE = "yinsh/web/main.py"
"""The module that names a live room's modules and scripts (``LIVE_MODULES``, ``LIVE_SCRIPTS``)."""
LIVE_BUNDLE = "live.bundle"
LIVE_FILES_ID = "yinsh-live-files"
"""The id of the built page's element naming the live room's files (``yinsh/web/main.py`` reads it)."""


@dataclass
class LiveFiles:
    """What a live room needs in the built site."""

    modules: list[str]
    """Python modules (source paths), packed into :data:`LIVE_BUNDLE`."""
    scripts: list[str]
    """JavaScript modules (site paths: the key helper, the NATS client), shipped versioned."""
    bundle: bytes = b""

    @property
    def bundle_url(self) -> str:
        return f"./{LIVE_BUNDLE}?v={hashlib.sha256(self.bundle).hexdigest()[:10]}"

    def page_element(self, urls: dict[str, str]) -> str:
        """The element the page reads the files' URLs from (``urls``: site path → URL)."""
        data = {"bundle": self.bundle_url, "scripts": {"./" + path: urls[path] for path in self.scripts}}
        text = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
        return f'  <script type="application/json" id="{LIVE_FILES_ID}">{text}</script>\n'


def _names(root: Path) -> dict[str, tuple[str, ...]]:
    """``LIVE_MODULES`` and ``LIVE_SCRIPTS`` as :data:`LIVE_SOURCE` assigns them (read, not
    imported: the checkout built may not be the one running)."""
    path = root / LIVE_SOURCE
    if not path.is_file():
        return {}
    found = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name in ("LIVE_MODULES", "LIVE_SCRIPTS"):
                try:
                    found[name] = tuple(str(v) for v in ast.literal_eval(node.value))
                except ValueError:
                    raise BuildError(f"{LIVE_SOURCE}: {name} is not a tuple of strings") from None
    return found


def collect_live(root: Path, builder: Collector) -> LiveFiles | None:
    """The live room's files (their scripts collected as versioned files of the site), its
    modules compiled into the bundle and kept out of the plain sources; ``None`` when the page
    names none."""
    names = _names(root)
    if not names.get("LIVE_MODULES"):
        return None
    scripts = [url.removeprefix("./") for url in names.get("LIVE_SCRIPTS", ())]
    for script in scripts:
        builder.need(script, f"{LIVE_SOURCE} LIVE_SCRIPTS")
    modules = list(names["LIVE_MODULES"])
    for module in modules:
        if not builder.exists(module):
            raise BuildError(f"{LIVE_SOURCE} LIVE_MODULES names {module}, which does not exist")
        if not builder.mapped_by.get(module):  # named in code only: it ships in the bundle alone
            builder.sources.discard(module)
    compiled = compile_modules(root, modules)
    live = LiveFiles(modules, scripts)
    live.bundle = bundle_bytes({mpy_path(m): compiled[m] for m in modules})
    return live


def add_to_page(html: str, element: str) -> str:
    """The built page with the live files' element at the end of its ``<head>``."""
    if "</head>" not in html:
        raise BuildError(f"{PAGE} has no </head> for the live room's files")
    return html.replace("</head>", element + "</head>", 1)
