"""What the site builder's parts share: where things are, the error, and small file helpers."""

from __future__ import annotations

import gzip
import hashlib
import json
import posixpath
import re
import tomllib
from html import escape as _html_escape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
"""The source checkout the site is built from (the directory holding ``index.html``)."""
DEFAULT_OUT = "dist"
PAGE = "index.html"
"""The game page; the site's other pages are the other ``*.html`` at the root (``embed.html``)
and in ``examples/``."""
EXAMPLES = "examples"
VENDOR = "static/vendor"
SW_TEMPLATE = "static/sw.js"
BUILD_INFO = "build.json"
SW_DIGEST = 32  # hex digits of each file's SHA-256 listed in sw.js
BOARD_CSS_PATH = "static/css/board.css"
BOARD_CSS_HEADER = ("/* The YINSH board (generated from yinsh.render.BOARD_CSS: "
                    "UPDATE_GOLDEN=1 pytest tests/test_render.py). */\n")
#: Files of the repository that are never part of the site, whatever names them.
NEVER_SHIPPED = {"pyproject.toml", "package.json", "package-lock.json", "Makefile"}
#: Keys that make a TOML/JSON file a PyScript config.
PYSCRIPT_KEYS = {"interpreter", "files", "fetch", "packages", "js_modules", "plugins", "sync_main_only"}
#: Attributes that make the browser fetch something, by tag.
RESOURCE_ATTRS = {
    "script": ("src", "config"),
    "link": ("href",),
    "img": ("src",),
    "source": ("src",),
    "audio": ("src",),
    "video": ("src", "poster"),
    "track": ("src",),
    "iframe": ("src",),
    "embed": ("src",),
    "object": ("data",),
}
#: ``<link rel>`` values naming an icon the device fetches when the page is installed.
INSTALL_ICON_RELS = {"apple-touch-icon", "apple-touch-icon-precomposed", "mask-icon"}
#: PyScript's lazily imported chunks, by name without the hash, and what makes a page need them.
#: A dynamic import this table does not know is shipped (an unknown chunk costs bytes, a
#: missing one breaks the page).
LAZY_CHUNKS = (
    (re.compile(r"codemirror.*|index"), "editor"),  # <script type="py-editor">
    (re.compile(r"xterm.*|mpy|py"), "terminal"),  # <script type="py" terminal>
    (re.compile(r"pyodide_graph"), "packages"),  # packages = [...] in a config
    (re.compile(r"zip"), "archives"),  # a .zip/.whl in [files]
    (re.compile(r"toml"), "toml"),  # a TOML config
)
#: What the dynamic imports of a PyScript plugin need: the plugin's own feature in use.
PLUGIN_FEATURES = {"py-editor": "editor", "py-game": "game", "py-terminal": "terminal"}

CHUNK_HASH = re.compile(r"^(.*)-[A-Za-z0-9_-]{8}\.m?js$")
_SOURCE_MAP = re.compile(rb"(?:\n?//[#@] sourceMappingURL=[^\s]*\s*$)|(?:/\*[#@] sourceMappingURL=[^*]*\*/\s*$)")
CSS_URL = re.compile(r"""url\(\s*(["']?)([^"')]+)\1\s*\)|@import\s+(["'])([^"']+)\3""")


class BuildError(ValueError):
    """The site cannot be built as asked: the message says what and where."""



def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


_GZIP_SIZES: dict[str, int] = {}


def gzip_size(data: bytes, digest: str | None = None) -> int:
    """The size of ``data`` gzip-compressed at level 6 (remembered by content: builds repeat)."""
    digest = digest or sha256(data)
    if digest not in _GZIP_SIZES:
        _GZIP_SIZES[digest] = len(gzip.compress(data, compresslevel=6, mtime=0))
    return _GZIP_SIZES[digest]


def chunk_stem(name: str) -> str:
    base = posixpath.basename(name)
    m = CHUNK_HASH.match(base)
    return m.group(1) if m else base.rsplit(".", 1)[0]


def resolve(url: str, base_dir: str, where: str) -> str | None:
    """The site path a reference points at, or None for references that fetch nothing.

    ``base_dir`` is the directory (relative to the site root) of the referencing file. An
    off-origin or root-relative URL is an error: the site must work offline under any path.
    """
    url = url.strip()
    if not url or url.startswith(("#", "data:", "blob:", "javascript:", "mailto:", "about:")):
        return None
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        raise BuildError(f"{where} refers to {url!r}, outside the site: the page must make no request off its origin")
    if parts.path.startswith("/"):
        raise BuildError(f"{where} refers to {url!r}: use a relative URL ('./…') so the site works under any path")
    if not parts.path:
        return None
    path = posixpath.normpath(posixpath.join(base_dir, parts.path))
    if path == "." or parts.path.endswith("/"):
        return None  # a directory (the page itself): nothing to ship
    if path == ".." or path.startswith("../"):
        raise BuildError(f"{where} refers to {url!r}, outside the site folder")
    return path


def relative(target: str, base_dir: str) -> str:
    rel = posixpath.relpath(target, base_dir or ".")
    return rel if rel.startswith("../") else "./" + rel


def trim_lock(path: str, data: bytes) -> bytes:
    """Pyodide's package lock without its package list (the page installs no package).

    Pyodide reads ``pyodide-lock.json`` at start-up (its ``info`` must match the runtime) and
    uses the package list only to install packages and to word the error of an import of an
    uninstalled one: 114 kB (27 kB gzip) the page never uses.
    """
    if posixpath.basename(path) != "pyodide-lock.json":
        return data
    lock = json.loads(data)
    return (json.dumps({"info": lock["info"], "packages": {}}, separators=(",", ":")) + "\n").encode()


def strip_source_map(path: str, data: bytes) -> bytes:
    if path.endswith((".js", ".mjs", ".css")):
        return _SOURCE_MAP.sub(b"\n", data).rstrip(b"\n") + b"\n"
    return data


class StartTags(HTMLParser):
    """Every start tag of an HTML document: (tag, attributes, offset, raw text)."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None], int, str]] = []
        self._line_starts = [0]
        for m in re.finditer("\n", text):
            self._line_starts.append(m.end())
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line, col = self.getpos()
        raw = self.get_starttag_text() or ""
        self.tags.append((tag, dict(attrs), self._line_starts[line - 1] + col, raw))

    handle_startendtag = handle_starttag


def set_attr(raw_tag: str, name: str, value: str) -> str:
    pattern = re.compile(r"(\s" + re.escape(name) + r"""\s*=\s*)(?:"[^"]*"|'[^']*'|[^\s"'>]+)""", re.I)
    quoted = '"' + _html_escape(value, quote=True) + '"'
    new, count = pattern.subn(lambda m: m.group(1) + quoted, raw_tag, count=1)
    assert count == 1, (raw_tag, name)
    return new


def site_pages(root: Path) -> list[str]:
    """The pages of the site in ``root``: ``index.html`` first, then the other pages."""
    others = sorted(p.relative_to(root).as_posix() for pattern in ("*.html", f"{EXAMPLES}/*.html")
                    for p in root.glob(pattern) if p.is_file())
    return [PAGE] + [p for p in others if p != PAGE]


def toml_or_json(path: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    try:
        return json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise BuildError(f"{path.name}: not a valid {path.suffix[1:].upper()} file: {exc}") from exc
