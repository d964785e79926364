"""Build the self-contained static site: ``yinsh build-site [DIR]`` (``make site``), ``dist/`` by default.

The result is one folder that any static server can host (GitHub Pages, a USB stick served on
``http://localhost``, an intranet): the page, the Python package, the static files and only
the runtime files the page loads, with no source map, no ``node_modules`` and no request
leaving the origin. It is read from a source checkout (``index.html`` at its root) and made
with the standard library only.

What goes in is *derived*, never listed here, so a new script, worker or config added to the
page is shipped without touching this module:

- ``index.html``: every ``src``/``href``/``config`` of a resource tag (scripts, styles,
  preloads, icons, the manifest), and the PyScript configs named by ``config=``;
- each PyScript config: its ``interpreter`` (the self-hosted runtime), its ``[files]``,
  ``[[fetch]]`` and ``[js_modules.*]``; a ``packages`` list is refused (the page uses the
  standard library only);
- the Python files shipped: string literals naming a ``.py``, ``.toml`` or ``.json`` file of
  the site (``PyWorker("./yinsh/web/worker.py", config="./worker.toml")``);
- the manifest's icons and the stylesheets' ``url(…)``;
- the runtime under ``static/vendor/<name>/``: from the files the page names, every static
  ``import`` and every sibling file a module names (``pyodide.mjs`` names
  ``pyodide.asm.wasm``, ``python_stdlib.zip``, …), and of PyScript's lazily imported
  chunks only those the page can reach (its plugins, the TOML parser; not the editor,
  terminal or package-graph chunks unless the page uses them).

Versions, so that a new release is never mixed with a cached old one:

- each runtime directory is renamed after a hash of its content
  (``static/vendor/pyodide-1a2b3c4d5e/``), so it can be cached forever (``yinsh.serve``
  sends ``immutable`` for it);
- every other file the page, a config or the manifest names gets ``?v=<hash>`` in that
  reference (the file keeps its name, so Python code that names a file keeps working);
- ``pyodide-lock.json`` keeps its ``info`` and loses its package list (the page installs
  no package), and source-map comments are dropped from the runtime's scripts;
- the service worker (``sw.js``, written from the template ``static/sw.js``) stores one
  release per cache, every file checked against the SHA-256 listed in it, and serves the
  page and its files from that cache: a page is only ever served with the files of its own
  release. PyScript's ``[files]`` keys are left exactly as written.

``index.html``'s static board (between ``<!-- board:begin`` and ``<!-- board:end -->``) and
``static/css/board.css`` are regenerated from :mod:`yinsh.render`, so a release never ships a
stale drawing; the registration of the service worker and a ``<meta name="yinsh-build">``
replace the ``<!-- service-worker … -->`` marker in ``<head>`` (the development page never
registers one). :func:`write_icons` redraws the PNG icons of ``static/icons/``.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import posixpath
import re
import shutil
import struct
import tempfile
import tomllib
import zlib
from dataclasses import dataclass, field
from html import escape as _html_escape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

__all__ = ["BuildError", "SiteFile", "SiteSummary", "build_site", "write_icons", "png", "png_pixels", "ROOT",
           "DEFAULT_OUT"]

ROOT = Path(__file__).resolve().parent.parent
"""The source checkout the site is built from (the directory holding ``index.html``)."""
DEFAULT_OUT = "dist"
PAGE = "index.html"
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

_STATIC_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*(["'])(\.{1,2}/[^"'\s]+)\1""")
_DYNAMIC_IMPORT = re.compile(r"""\bimport\(\s*(["'])(\.{1,2}/[^"'\s]+)\1\s*\)""")
_PLUGIN_ENTRY = re.compile(r"""(["']?)([\w-]+)\1\s*:\s*\(\)\s*=>\s*import\(\s*(["'])(\./[^"'\s]+)\3\s*\)""")
_CHUNK_HASH = re.compile(r"^(.*)-[A-Za-z0-9_-]{8}\.m?js$")
_SOURCE_MAP = re.compile(rb"(?:\n?//[#@] sourceMappingURL=[^\s]*\s*$)|(?:/\*[#@] sourceMappingURL=[^*]*\*/\s*$)")
_FILE_NAME = re.compile(r"[\w.-]+\.[A-Za-z0-9]+")
_CSS_URL = re.compile(r"""url\(\s*(["']?)([^"')]+)\1\s*\)|@import\s+(["'])([^"']+)\3""")
_PY_STRING_FILE = re.compile(r"""(["'])((?:\./)?(?:[\w.-]+/)*[\w.-]+\.(?:py|toml|json))\1""")
_INTERPRETER_LINE = re.compile(r"""^(\s*interpreter\s*=\s*)(["'])(.*?)\2""", re.M)
_SW_MARKER = re.compile(r"[ \t]*<!-- service-worker\b.*?-->\n?", re.S)
_BOARD = re.compile(r"(<!-- board:begin[^>]*-->\n)(.*?)(<!-- board:end -->)", re.S)
_SW_RELEASE = re.compile(r"^const RELEASE = .*?;[^\n]*$", re.M)


class BuildError(ValueError):
    """The site cannot be built as asked: the message says what and where."""


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class SiteFile:
    """One file of the built site."""

    path: str
    """Its path inside the site folder (POSIX)."""
    url: str
    """How the page (and the service worker) fetch it, relative to the site root."""
    kind: str
    """``page``, ``runtime``, ``package`` (Python), ``config``, ``static`` or ``meta``."""
    size: int
    gzip_size: int
    """Its size compressed as a gzip-compressing host sends it (level 6)."""
    sha256: str
    cached: bool
    """Whether the service worker keeps it (everything but ``sw.js``, licences, ``build.json``)."""


@dataclass
class SiteSummary:
    """What :func:`build_site` wrote (``str()`` is the report ``yinsh build-site`` prints)."""

    out_dir: Path
    build: str
    files: list[SiteFile]
    url_map: dict[str, str] = field(default_factory=dict)
    """Source path (relative to the checkout) → its URL in the site, for every renamed or versioned file."""
    warnings: list[str] = field(default_factory=list)

    @property
    def size(self) -> int:
        return sum(f.size for f in self.files)

    @property
    def gzip_size(self) -> int:
        return sum(f.gzip_size for f in self.files)

    def file(self, path: str) -> SiteFile:
        return next(f for f in self.files if f.path == path)

    def __str__(self) -> str:
        groups: dict[str, list[SiteFile]] = {}
        for f in self.files:
            groups.setdefault(f.kind, []).append(f)
        lines = [f"site {self.out_dir} (build {self.build}): {len(self.files)} files, "
                 f"{self.size / 1e6:.2f} MB, {self.gzip_size / 1e6:.2f} MB gzip"]
        for kind in ("page", "config", "package", "static", "runtime", "meta"):
            items = groups.get(kind, [])
            if items:
                lines.append(f"  {kind:8} {len(items):3} files {sum(f.size for f in items) / 1e3:10.1f} kB"
                             f" {sum(f.gzip_size for f in items) / 1e3:10.1f} kB gzip")
        kept = [f for f in self.files if f.cached]
        lines.append(f"  kept offline by sw.js (what a first visit loads): {len(kept)} files, "
                     f"{sum(f.size for f in kept) / 1e6:.2f} MB, {sum(f.gzip_size for f in kept) / 1e6:.2f} MB gzip")
        lines += [f"  warning: {w}" for w in self.warnings]
        return "\n".join(lines)


# --------------------------------------------------------------------------- helpers


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


_GZIP_SIZES: dict[str, int] = {}


def _gzip_size(data: bytes, digest: str | None = None) -> int:
    """The size of ``data`` gzip-compressed at level 6 (remembered by content: builds repeat)."""
    digest = digest or _sha256(data)
    if digest not in _GZIP_SIZES:
        _GZIP_SIZES[digest] = len(gzip.compress(data, compresslevel=6, mtime=0))
    return _GZIP_SIZES[digest]


def _chunk_stem(name: str) -> str:
    base = posixpath.basename(name)
    m = _CHUNK_HASH.match(base)
    return m.group(1) if m else base.rsplit(".", 1)[0]


def _resolve(url: str, base_dir: str, where: str) -> str | None:
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


def _relative(target: str, base_dir: str) -> str:
    rel = posixpath.relpath(target, base_dir or ".")
    return rel if rel.startswith("../") else "./" + rel


def _trim_lock(path: str, data: bytes) -> bytes:
    """Pyodide's package lock without its package list (the page installs no package).

    Pyodide reads ``pyodide-lock.json`` at start-up (its ``info`` must match the runtime) and
    uses the package list only to install packages and to word the error of an import of an
    uninstalled one: 114 kB (27 kB gzip) the page never uses.
    """
    if posixpath.basename(path) != "pyodide-lock.json":
        return data
    lock = json.loads(data)
    return (json.dumps({"info": lock["info"], "packages": {}}, separators=(",", ":")) + "\n").encode()


def _strip_source_map(path: str, data: bytes) -> bytes:
    if path.endswith((".js", ".mjs", ".css")):
        return _SOURCE_MAP.sub(b"\n", data).rstrip(b"\n") + b"\n"
    return data


class _StartTags(HTMLParser):
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


def _set_attr(raw_tag: str, name: str, value: str) -> str:
    pattern = re.compile(r"(\s" + re.escape(name) + r"""\s*=\s*)(?:"[^"]*"|'[^']*'|[^\s"'>]+)""", re.I)
    quoted = '"' + _html_escape(value, quote=True) + '"'
    new, count = pattern.subn(lambda m: m.group(1) + quoted, raw_tag, count=1)
    assert count == 1, (raw_tag, name)
    return new


def _toml_or_json(path: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    try:
        return json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise BuildError(f"{path.name}: not a valid {path.suffix[1:].upper()} file: {exc}") from exc


# --------------------------------------------------------------------------- the builder


@dataclass
class _Config:
    path: str | None  # None for an inline config (a JSON attribute)
    data: dict[str, Any]


class _Builder:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.sources: set[str] = set()  # every file of the checkout that ships
        self.configs: dict[str, _Config] = {}
        self.features: set[str] = set()
        self.excluded_plugins: set[str] = set()
        self.runtime_entries: dict[str, set[str]] = {}  # vendor dir → files named from outside
        self.refs: dict[str, set[str]] = {}  # file → files it refers to (for versioned rewriting)
        self.forms: dict[str, set[str]] = {}  # file → how it is fetched: "versioned", "plain", "image"
        self.warnings: list[str] = []

    # ---------------------------------------------------------------- collection
    def exists(self, path: str) -> bool:
        return (self.root / path).is_file()

    def need(self, path: str, where: str, form: str = "versioned") -> None:
        """Ship ``path``, fetched as ``form``: ``versioned`` (a reference this builder rewrites
        with ``?v=``), ``plain`` (a name PyScript or Python code fetches as written) or
        ``image`` (a manifest icon, which the browser fetches when it installs the app)."""
        if not self.exists(path):
            raise BuildError(f"{where} refers to {path}, which does not exist in {self.root}"
                             + (" (run `make setup`: static/vendor/ is generated)" if path.startswith(VENDOR) else ""))
        vendor = self.vendor_dir(path)
        if vendor:
            self.runtime_entries.setdefault(vendor, set()).add(path)
            return
        self.forms.setdefault(path, set()).add(form)
        if path in self.sources:
            return
        self.sources.add(path)
        if path.endswith(".css"):
            self.scan_css(path)
        elif path.endswith(".webmanifest"):
            self.scan_manifest(path)
        elif path.endswith(".py"):
            self.scan_python(path)
        elif path.endswith((".toml", ".json")) and path not in self.configs:
            data = _toml_or_json(self.root / path)
            if PYSCRIPT_KEYS & set(data):
                self.add_config(_Config(path, data), where)

    @staticmethod
    def vendor_dir(path: str) -> str | None:
        parts = path.split("/")
        if path.startswith(VENDOR + "/") and len(parts) > 3:
            return "/".join(parts[:3])
        return None

    def scan_page(self, html: str) -> None:
        for tag, attrs, _, _ in _StartTags(html).tags:
            kind = (attrs.get("type") or "").lower()
            if tag == "script" and kind.endswith("-editor"):
                self.features.add("editor")
            if tag == "script" and (kind == "py-game" or kind.endswith("-game")):
                self.features.add("game")
            if tag == "script" and ("terminal" in attrs or kind.endswith("-terminal")):
                self.features.add("terminal")
            for name in RESOURCE_ATTRS.get(tag, ()):
                value = attrs.get(name)
                if value is None:
                    continue
                if tag == "script" and name == "config" and value.lstrip().startswith("{"):
                    try:
                        data = json.loads(value)
                    except ValueError as exc:
                        raise BuildError(f"{PAGE}: an inline config is not valid JSON: {exc}") from exc
                    self.add_config(_Config(None, data), f"{PAGE} (inline config)")
                    continue
                path = _resolve(value, "", f"{PAGE} <{tag} {name}>")
                if path:
                    # A home-screen icon (<link rel="apple-touch-icon">) is fetched by the system
                    # that installs the page, online, not by the page: versioned, not kept offline.
                    rel = (attrs.get("rel") or "").lower().split()
                    install_icon = tag == "link" and any(r in INSTALL_ICON_RELS for r in rel)
                    self.need(path, f"{PAGE} <{tag} {name}>", "image" if install_icon else "versioned")
                    self.refs.setdefault(PAGE, set()).add(path)

    def add_config(self, config: _Config, where: str) -> None:
        if config.path:
            self.configs[config.path] = config
        name = config.path or where
        base = posixpath.dirname(config.path) if config.path else ""
        data = config.data
        if config.path and config.path.endswith(".toml"):
            self.features.add("toml")
        if data.get("packages"):
            raise BuildError(f"{name}: packages = {data['packages']!r}: the page must use the standard library only "
                             "(a package would be fetched from a CDN)")
        for plugin in data.get("plugins", []) or []:
            if isinstance(plugin, str) and plugin.startswith("!"):
                self.excluded_plugins.add(plugin[1:])
        interpreter = data.get("interpreter")
        if interpreter is None:
            raise BuildError(f"{name}: no interpreter: PyScript would load Pyodide from a CDN; "
                             "name the self-hosted one (interpreter = \"./static/vendor/pyodide/pyodide.mjs\")")
        # A config's interpreter is resolved against the page (PYSCRIPT.md), the rest against the config.
        path = _resolve(str(interpreter), "", f"{name}: interpreter")
        if path:
            self.need(path, f"{name}: interpreter")
        for source, dest in _expand_files(data.get("files") or {}, name).items():
            if dest.endswith("/*") or source.endswith((".zip", ".whl", ".tar.gz", ".tgz")):
                self.features.add("archives")
            path = _resolve(source, base, f"{name} [files]")
            if path:
                self.need(path, f"{name} [files]", "plain")
        for entry in data.get("fetch") or []:
            prefix = entry.get("from", "")
            for item in entry.get("files") or []:
                path = _resolve(prefix + item, base, f"{name} [[fetch]]")
                if path:
                    self.need(path, f"{name} [[fetch]]", "plain")
        for table in (data.get("js_modules") or {}).values():
            for url in table:
                path = _resolve(url, base, f"{name} [js_modules]")
                if path:
                    self.need(path, f"{name} [js_modules]", "plain")

    def scan_python(self, path: str) -> None:
        text = (self.root / path).read_text(encoding="utf-8")
        for m in _PY_STRING_FILE.finditer(text):
            name = m.group(2)
            target = posixpath.normpath(name)  # PyScript resolves them against the page
            if target in NEVER_SHIPPED or target.startswith("../") or not self.exists(target):
                continue
            self.need(target, f"{path} (string {name!r})", "plain")

    def scan_css(self, path: str) -> None:
        text = (self.root / path).read_text(encoding="utf-8")
        for m in _CSS_URL.finditer(text):
            url = m.group(2) or m.group(4)
            target = _resolve(url, posixpath.dirname(path), f"{path} url()")
            if target:
                self.need(target, f"{path} url()")
                self.refs.setdefault(path, set()).add(target)

    def scan_manifest(self, path: str) -> None:
        try:
            data = json.loads((self.root / path).read_text(encoding="utf-8"))
        except ValueError as exc:
            raise BuildError(f"{path}: not valid JSON: {exc}") from exc
        for icon in _manifest_images(data):
            target = _resolve(icon["src"], posixpath.dirname(path), f"{path} icons")
            if target:
                self.need(target, f"{path} icons", "image")
                self.refs.setdefault(path, set()).add(target)

    # ---------------------------------------------------------------- the runtime
    def runtime_closure(self, vendor: str) -> list[str]:
        """Every file of a runtime directory the page can load, from the files it names."""
        directory = self.root / vendor
        siblings = sorted(p.relative_to(directory).as_posix() for p in directory.rglob("*")
                          if p.is_file() and not p.name.endswith(".map") and not p.name.startswith("."))
        chosen: set[str] = set()
        todo = sorted(p[len(vendor) + 1:] for p in self.runtime_entries[vendor])
        plugin_files: dict[str, str] = {}
        while todo:
            rel = todo.pop()
            if rel in chosen:
                continue
            chosen.add(rel)
            if not rel.endswith((".js", ".mjs")):
                continue
            text = (directory / rel).read_text(encoding="utf-8", errors="replace")
            here = posixpath.dirname(rel)
            for m in _PLUGIN_ENTRY.finditer(text):
                plugin_files[posixpath.normpath(posixpath.join(here, m.group(4)))] = m.group(2)
            found: list[str] = []
            for m in _STATIC_IMPORT.finditer(text):
                found.append(posixpath.normpath(posixpath.join(here, m.group(2))))
            for m in _DYNAMIC_IMPORT.finditer(text):
                target = posixpath.normpath(posixpath.join(here, m.group(2)))
                if self.wanted(rel, target, plugin_files):
                    found.append(target)
            # Files a module names otherwise (``${indexURL}pyodide.asm.wasm``, ``new URL("./x.css",
            # import.meta.url)``) are fetched at run time: shipped, unless the module is a
            # plugin whose feature the page does not use (py-terminal names xterm.css).
            feature = PLUGIN_FEATURES.get(_chunk_stem(rel))
            if feature is None or feature in self.features:
                rest = _DYNAMIC_IMPORT.sub("", _STATIC_IMPORT.sub("", text))
                named = set(_FILE_NAME.findall(rest))
                found += [s for s in siblings if s != rel and posixpath.basename(s) in named
                          and not _CHUNK_HASH.match(posixpath.basename(s))]
            todo += [f for f in found if f in siblings and f not in chosen]
        return sorted(chosen)

    def wanted(self, importer: str, target: str, plugin_files: dict[str, str]) -> bool:
        plugin = plugin_files.get(target)
        if plugin is not None:
            return plugin not in self.excluded_plugins
        importer_stem = _chunk_stem(importer)
        if importer_stem in PLUGIN_FEATURES:
            return PLUGIN_FEATURES[importer_stem] in self.features
        stem = _chunk_stem(target)
        for pattern, feature in LAZY_CHUNKS:
            if pattern.fullmatch(stem):
                return feature in self.features
        return True


def _expand_files(files: dict[str, str], where: str) -> dict[str, str]:
    """PyScript's ``[files]`` with its ``{NAME}`` templates expanded: source URL → destination."""
    templates: dict[str, str] = {}
    out: dict[str, str] = {}

    def expand(text: str) -> str:
        def one(m: re.Match[str]) -> str:
            if m.group(0) not in templates:
                raise BuildError(f"{where} [files]: unknown template {m.group(0)}")
            return templates[m.group(0)]

        return re.sub(r"\{.+?\}", one, text)

    for key, value in files.items():
        if re.fullmatch(r"\{.+\}", key):
            templates[key] = expand(str(value))
        else:
            out[expand(key)] = expand(str(value or "./"))
    return out


def _manifest_images(data: dict[str, Any]) -> list[dict[str, Any]]:
    images = list(data.get("icons") or []) + list(data.get("screenshots") or [])
    for shortcut in data.get("shortcuts") or []:
        images += list(shortcut.get("icons") or [])
    return [i for i in images if isinstance(i, dict) and i.get("src")]


# --------------------------------------------------------------------------- writing


def _versioned(url: str, target: str, base_dir: str, urls: dict[str, str], hashes: dict[str, str]) -> str:
    """How a file refers to ``target`` in the site: the runtime's renamed directory, or ``?v=``."""
    parts = urlsplit(url)
    fragment = "#" + parts.fragment if parts.fragment else ""
    if target in urls and not urls[target].startswith("./" + target + "?"):
        return _relative(urls[target].removeprefix("./"), base_dir) + fragment
    query = (parts.query + "&" if parts.query else "") + "v=" + hashes[target][:10]
    return parts.path + "?" + query + fragment


def _rewrite_page(html: str, builder: _Builder, urls: dict[str, str], hashes: dict[str, str],
                  rewrite_config: Any) -> str:
    tags = _StartTags(html).tags
    out, last = [], 0
    for tag, attrs, offset, raw in tags:
        new = raw
        for name in RESOURCE_ATTRS.get(tag, ()):
            value = attrs.get(name)
            if value is None:
                continue
            if tag == "script" and name == "config" and value.lstrip().startswith("{"):
                new = _set_attr(new, name, json.dumps(rewrite_config(json.loads(value)), separators=(",", ":")))
                continue
            target = _resolve(value, "", PAGE)
            if target:
                new = _set_attr(new, name, _versioned(value, target, "", urls, hashes))
        if new != raw:
            if html[offset:offset + len(raw)] != raw:
                raise BuildError(f"{PAGE}: could not locate the tag {raw[:60]!r} to rewrite it")
            out.append(html[last:offset])
            out.append(new)
            last = offset + len(raw)
    out.append(html[last:])
    return "".join(out)


def _board_markup() -> str:
    from .game import Game
    from .render import board_svg
    from .turn import Turn

    game = Game()
    return board_svg(game, **Turn(game).highlights())  # type: ignore[arg-type]


def _registration(build: str) -> str:
    """The ``<head>`` snippet of the built page: the build id and the service worker."""
    return f"""  <meta name="yinsh-build" content="{build}">
  <script>
    // The offline copy (written by yinsh/site.py into the built site only): once the game is
    // interactive, sw.js stores this release; a new release takes over when no tab runs this one.
    if ("serviceWorker" in navigator) (() => {{
      const html = document.documentElement;
      let started = false;
      const start = () => {{
        if (started) return;
        started = true;
        navigator.serviceWorker.register("./sw.js").then((registration) => {{
          const update = () => {{
            html.setAttribute("data-yinsh-update", "");
            dispatchEvent(new Event("yinsh:update"));
          }};
          if (registration.waiting && navigator.serviceWorker.controller) update();
          registration.addEventListener("updatefound", () => {{
            const worker = registration.installing;
            worker && worker.addEventListener("statechange", () => {{
              if (worker.state === "installed" && navigator.serviceWorker.controller) update();
            }});
          }});
        }}, (error) => console.warn("YINSH: no offline copy:", error));
      }};
      new MutationObserver(() => html.hasAttribute("data-yinsh-ready") && start())
        .observe(html, {{attributes: true, attributeFilter: ["data-yinsh-ready"]}});
      addEventListener("load", () => setTimeout(start, 15000));
    }})();
  </script>
"""


def build_site(out_dir: str | Path = DEFAULT_OUT, *, root: str | Path | None = None,
               release: str = "") -> SiteSummary:
    """Write the self-contained site into ``out_dir`` (replacing a previous build there).

    ``root`` is the source checkout (default: the one this package lives in). ``release``
    is mixed into the build id (two builds of the same files otherwise share it). Raises
    :class:`BuildError` when the page names a missing file, a URL off its origin, a package
    or no self-hosted interpreter, or when ``out_dir`` holds something that is not a site.
    """
    root = Path(root or ROOT).resolve()
    out = Path(out_dir).resolve()
    if not (root / PAGE).is_file():
        raise BuildError(f"no {PAGE} in {root}: build-site needs a source checkout of yinsh")
    if out == root or root.is_relative_to(out):
        raise BuildError(f"the site cannot be written into {out}: it holds the sources")
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / BUILD_INFO).is_file())):
        raise BuildError(f"{out} exists and is not a site built by yinsh: refusing to replace it")

    builder = _Builder(root)
    html = (root / PAGE).read_text(encoding="utf-8")
    builder.scan_page(html)
    if not builder.runtime_entries:
        raise BuildError(f"{PAGE} loads no runtime from {VENDOR}/ (run `make setup`)")
    unreferenced = sorted(
        p.relative_to(root).as_posix() for p in root.glob("*.toml")
        if p.name not in NEVER_SHIPPED and p.relative_to(root).as_posix() not in builder.configs)
    for name in unreferenced:
        try:
            if PYSCRIPT_KEYS & set(_toml_or_json(root / name)):
                builder.warnings.append(f"{name} looks like a PyScript config but nothing names it: not shipped")
        except BuildError:
            pass

    # -- contents: what each site file holds, under which path --------------------------
    contents: dict[str, bytes] = {}  # site path → bytes
    kinds: dict[str, str] = {}
    urls: dict[str, str] = {}  # source path → URL (relative to the site root)
    for vendor in sorted(builder.runtime_entries):
        closure = builder.runtime_closure(vendor)
        shipped = {rel: _trim_lock(rel, _strip_source_map(rel, (root / vendor / rel).read_bytes())) for rel in closure}
        digest = hashlib.sha256()
        for rel in closure:
            digest.update(rel.encode() + b"\0" + hashlib.sha256(shipped[rel]).digest())
        renamed = f"{vendor}-{digest.hexdigest()[:10]}"
        for rel in closure:
            contents[f"{renamed}/{rel}"] = shipped[rel]
            kinds[f"{renamed}/{rel}"] = "runtime"
            urls[f"{vendor}/{rel}"] = f"./{renamed}/{rel}"
        for licence in ("LICENSE", "LICENSE.md", "LICENSE.txt"):
            if (root / vendor / licence).is_file():
                contents[f"{renamed}/{licence}"] = (root / vendor / licence).read_bytes()
                kinds[f"{renamed}/{licence}"] = "meta"

    hashes: dict[str, str] = {}

    def rewrite_config(data: dict[str, Any]) -> dict[str, Any]:
        data = dict(data)
        path = _resolve(str(data["interpreter"]), "", "interpreter")
        if path in urls:
            data["interpreter"] = urls[path]
        return data

    def content_of(path: str) -> bytes:
        """A shipped source file as written into the site (references rewritten)."""
        raw = (root / path).read_bytes()
        if path == BOARD_CSS_PATH and raw.decode("utf-8").startswith(BOARD_CSS_HEADER):
            from .render import BOARD_CSS

            return (BOARD_CSS_HEADER + BOARD_CSS).encode()
        if path in builder.configs:
            text = raw.decode("utf-8")
            interpreter = builder.configs[path].data["interpreter"]
            target = _resolve(str(interpreter), "", path)
            if target and target in urls:
                new = urls[target]
                if path.endswith(".json"):
                    return (json.dumps(rewrite_config(builder.configs[path].data), indent=2) + "\n").encode()
                text, count = _INTERPRETER_LINE.subn(lambda m: m.group(1) + m.group(2) + new + m.group(2), text, 1)
                if count != 1:
                    raise BuildError(f"{path}: could not rewrite its interpreter line")
                if tomllib.loads(text).get("interpreter") != new:
                    raise BuildError(f"{path}: rewriting the interpreter changed more than the interpreter")
            return text.encode()
        if path.endswith(".css") and path in builder.refs:
            text = raw.decode("utf-8")
            base = posixpath.dirname(path)

            def css(m: re.Match[str]) -> str:
                url = m.group(2) or m.group(4)
                target = _resolve(url, base, path)
                if not target:
                    return m.group(0)
                return m.group(0).replace(url, _versioned(url, target, base, urls, hashes))

            return _strip_source_map(path, _CSS_URL.sub(css, text).encode())
        if path.endswith(".webmanifest"):
            data = json.loads(raw)
            base = posixpath.dirname(path)
            for image in _manifest_images(data):
                target = _resolve(image["src"], base, path)
                if target:
                    image["src"] = _versioned(image["src"], target, base, urls, hashes)
            return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()
        return _strip_source_map(path, raw)

    def ensure(path: str, chain: tuple[str, ...] = ()) -> None:
        """Write ``path`` after the files it names, so its hash covers their new names."""
        if path in hashes or builder.vendor_dir(path):
            return
        if path in chain:
            raise BuildError("files refer to each other in a circle: " + " → ".join(chain + (path,)))
        for dep in sorted(builder.refs.get(path, ())):
            ensure(dep, chain + (path,))
        data = content_of(path)
        contents[path] = data
        hashes[path] = _sha256(data)
        kinds[path] = ("package" if path.endswith(".py") else "config" if path in builder.configs else "static")
        urls[path] = f"./{path}?v={hashes[path][:10]}"

    for path in sorted(builder.sources):
        ensure(path)

    # -- the page ---------------------------------------------------------------------
    m = _BOARD.search(html)
    if not m:
        raise BuildError(f"{PAGE} lost its <!-- board:begin --> … <!-- board:end --> markers")
    page = html[: m.start(2)] + _board_markup() + "\n" + html[m.end(2):]
    page = _rewrite_page(page, builder, urls, hashes, rewrite_config)

    def site_url(path: str) -> str:
        if kinds[path] == "page":
            return "./"
        if kinds[path] in ("runtime", "meta") or not {"versioned", "image"} & builder.forms.get(path, set()):
            return "./" + path
        return urls[path]

    def fetched_as(path: str) -> list[str]:
        """The URLs the page and its workers fetch ``path`` by (the service worker's keys)."""
        forms = builder.forms.get(path, set())
        if kinds[path] == "meta" or forms == {"image"}:
            return []  # manifest icons: fetched by the browser when it installs the app, online
        return sorted({urls[path] if form == "versioned" else "./" + path for form in forms - {"image"}}
                      or {"./" + path})

    cached = {p: bool(fetched_as(p)) for p in contents}
    entries = sorted((url, _sha256(c)) for p, c in contents.items() for url in fetched_as(p))
    page_digest = hashlib.sha256(page.encode())
    seed = hashlib.sha256(json.dumps([entries, page_digest.hexdigest(), release]).encode()).hexdigest()
    build = seed[:12]
    if _SW_MARKER.search(page):
        page = _SW_MARKER.sub(lambda _: _registration(build), page, count=1)
    else:
        page = page.replace("</head>", _registration(build) + "</head>", 1)
    contents[PAGE] = page.encode()
    kinds[PAGE] = "page"
    cached[PAGE] = True
    entries.append(("./", _sha256(contents[PAGE])))  # the page, under the URL people open

    # -- the service worker -------------------------------------------------------------
    template = root / SW_TEMPLATE
    if not template.is_file():
        raise BuildError(f"{SW_TEMPLATE} (the service worker's template) is missing")
    # 128 bits of each SHA-256 are plenty to tell two releases apart, and keep sw.js small.
    release_json = json.dumps({"build": build, "files": sorted((u, d[:SW_DIGEST]) for u, d in entries)},
                              separators=(",", ":"))
    sw, count = _SW_RELEASE.subn(lambda _: f"const RELEASE = {release_json};", template.read_text(encoding="utf-8"),
                                 count=1)
    if count != 1:
        raise BuildError(f"{SW_TEMPLATE} has no `const RELEASE = …;` line to fill in")
    contents["sw.js"] = sw.encode()
    kinds["sw.js"] = "meta"
    cached["sw.js"] = False
    contents[".nojekyll"] = b""  # GitHub Pages from a branch: serve __init__.py as it is
    kinds[".nojekyll"] = "meta"
    cached[".nojekyll"] = False

    digests = {p: _sha256(c) for p, c in contents.items()}
    files = [SiteFile(path=p, url=site_url(p), kind=kinds[p], size=len(c), gzip_size=_gzip_size(c, digests[p]),
                      sha256=digests[p], cached=cached[p])
             for p, c in sorted(contents.items())]
    summary = SiteSummary(out_dir=out, build=build, files=files, url_map=dict(sorted(urls.items())),
                          warnings=builder.warnings)
    info = {"build": build, "release": release, "versions": _versions(root),
            "files": {f.path: {"url": f.url, "bytes": f.size, "gzip": f.gzip_size, "sha256": f.sha256,
                               "cached": f.cached} for f in files}}
    contents[BUILD_INFO] = (json.dumps(info, indent=1) + "\n").encode()

    # -- write: a fresh folder next to the old one, then swap --------------------------
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        for path, data in contents.items():
            target = tmp / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        os.chmod(tmp, 0o755)
        if out.exists():
            shutil.rmtree(out)
        tmp.rename(out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return summary


def _versions(root: Path) -> dict[str, Any]:
    path = root / VENDOR / "VERSIONS.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


# --------------------------------------------------------------------------- icons

ICON_BOARD = (0xEC, 0xDC, 0xB9)
ICON_WHITE = ((0x2D, 0x29, 0x24), (0xFD, 0xFB, 0xF6))  # outline, body
ICON_BLACK = ((0x0D, 0x0D, 0x10), (0x2A, 0x2B, 0x31))
#: name → (size in pixels, full-bleed background): "any" icons are a disc on transparency,
#: maskable ones and Apple's fill the square (the platform cuts its own shape).
ICONS = {
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "maskable-192.png": (192, True),
    "maskable-512.png": (512, True),
    "apple-touch-icon.png": (180, True),
}


def icon_pixels(size: int, full_bleed: bool) -> bytes:
    """RGBA rows (PNG filter byte 0 first) of the app icon: two interlocked rings on the board.

    The favicon's drawing (a 32-unit square), with analytic anti-aliasing. A full-bleed icon
    keeps its rings inside the central 80 % circle a mask may cut to.
    """
    unit = 32.0 / size
    scale = 0.78 if full_bleed else 1.0  # the rings of a maskable icon sit in the safe zone
    rings = ((12.0, 13.0, ICON_WHITE), (21.0, 20.0, ICON_BLACK))
    rows = bytearray()
    for y in range(size):
        rows.append(0)
        v = (y + 0.5) * unit
        for x in range(size):
            u = (x + 0.5) * unit
            if full_bleed:
                r, g, b, a = ICON_BOARD[0] / 255, ICON_BOARD[1] / 255, ICON_BOARD[2] / 255, 1.0
            else:
                d = ((u - 16) ** 2 + (v - 16) ** 2) ** 0.5
                a = min(1.0, max(0.0, (15 - d) / unit + 0.5))
                r, g, b = (ICON_BOARD[i] / 255 * a for i in range(3))
            cu, cv = 16 + (u - 16) / scale, 16 + (v - 16) / scale
            for x0, y0, (outline, body) in rings:
                d = ((cu - x0) ** 2 + (cv - y0) ** 2) ** 0.5
                for colour, width in ((outline, 4.4), (body, 2.6)):
                    cover = min(1.0, max(0.0, (width / 2 - abs(d - 7)) / (unit / scale) + 0.5))
                    if cover:
                        r = colour[0] / 255 * cover + r * (1 - cover)
                        g = colour[1] / 255 * cover + g * (1 - cover)
                        b = colour[2] / 255 * cover + b * (1 - cover)
                        a = cover + a * (1 - cover)
            if a > 0:
                rows += bytes((round(r / a * 255), round(g / a * 255), round(b / a * 255), round(a * 255)))
            else:
                rows += b"\0\0\0\0"
    return bytes(rows)


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def png(size: int, rows: bytes) -> bytes:
    """A PNG file (8-bit RGBA, no interlace) of ``size``×``size`` pixels from unfiltered rows.

    ``rows`` are :func:`icon_pixels`' (a 0 byte, then RGBA, per row): unfiltered rows compress
    best for these flat drawings (better than Sub, Up, Average, Paeth or a per-row choice).
    """

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def png_pixels(data: bytes) -> tuple[int, int, bytes]:
    """(width, height, unfiltered rows as :func:`icon_pixels` gives them) of an 8-bit RGBA PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        length, tag = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if tag == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if (depth, colour) != (8, 6):
                raise ValueError("only 8-bit RGBA PNG files are read")
        elif tag == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * 4
    out = bytearray()
    prev = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b = prev[i]
            c = prev[i - 4] if i >= 4 else 0
            line[i] = (line[i] + (0, a, b, (a + b) // 2, _paeth(a, b, c))[kind]) & 255
        out.append(0)
        out += line
        prev = line
    return width, height, bytes(out)


def write_icons(directory: str | Path | None = None, names: list[str] | None = None) -> list[Path]:
    """(Re)draw the PNG icons into ``directory`` (default ``static/icons/`` of the checkout)."""
    directory = Path(directory or ROOT / "static" / "icons")
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name in names or list(ICONS):
        size, full_bleed = ICONS[name]
        path = directory / name
        path.write_bytes(png(size, icon_pixels(size, full_bleed)))
        written.append(path)
    return written


if __name__ == "__main__":  # python -m yinsh.site [--icons] [DIR]
    import sys

    if sys.argv[1:2] == ["--icons"]:
        for p in write_icons(sys.argv[2] if len(sys.argv) > 2 else None):
            print(p)
    else:
        print(build_site(*sys.argv[1:2]))
