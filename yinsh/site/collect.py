"""What the site needs: the files the pages, their PyScript configs, stylesheets, manifest and
Python code name, and the runtime files reachable from them."""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .common import (
    CHUNK_HASH,
    CSS_URL,
    INSTALL_ICON_RELS,
    LAZY_CHUNKS,
    NEVER_SHIPPED,
    PLUGIN_FEATURES,
    PYSCRIPT_KEYS,
    RESOURCE_ATTRS,
    VENDOR,
    BuildError,
    StartTags,
    chunk_stem,
    resolve,
    toml_or_json,
)

_STATIC_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*(["'])(\.{1,2}/[^"'\s]+)\1""")
_DYNAMIC_IMPORT = re.compile(r"""\bimport\(\s*(["'])(\.{1,2}/[^"'\s]+)\1\s*\)""")
_PLUGIN_ENTRY = re.compile(r"""(["']?)([\w-]+)\1\s*:\s*\(\)\s*=>\s*import\(\s*(["'])(\./[^"'\s]+)\3\s*\)""")
_FILE_NAME = re.compile(r"[\w.-]+\.[A-Za-z0-9]+")
_PY_STRING_FILE = re.compile(r"""(["'])((?:\./)?(?:[\w.-]+/)*[\w.-]+\.(?:py|toml|json))\1""")


@dataclass
class Config:
    path: str | None  # None for an inline config (a JSON attribute)
    data: dict[str, Any]


class Collector:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.sources: set[str] = set()  # every file of the checkout that ships
        self.configs: dict[str, Config] = {}
        self.interpreters: dict[str, str] = {}  # config (path, or where an inline one is) → its runtime directory
        self.page_configs: set[str] = set()  # the configs a page names: its main thread's runtime
        self.mapped_by: dict[str, set[str]] = {}  # file → the configs whose [files] map it
        self.named_in_code: set[str] = set()  # files a string literal of Python code names
        self.features: set[str] = set()
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
            data = toml_or_json(self.root / path)
            if PYSCRIPT_KEYS & set(data):
                self.add_config(Config(path, data), where)

    @staticmethod
    def vendor_dir(path: str) -> str | None:
        parts = path.split("/")
        if path.startswith(VENDOR + "/") and len(parts) > 3:
            return "/".join(parts[:3])
        return None

    def scan_page(self, page: str, html: str, pages: set[str]) -> None:
        """Collect what ``page`` (one of ``pages``, the site's HTML pages) loads. A page may name
        another page (an ``<iframe>`` of ``embed.html``): that one ships as a page, unversioned."""
        base = posixpath.dirname(page)
        for tag, attrs, _, _ in StartTags(html).tags:
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
                where = f"{page} <{tag} {name}>"
                if tag == "script" and name == "config":
                    if base:  # PyScript resolves a config's interpreter against the page
                        raise BuildError(f"{where}: a page that runs Python must sit at the site's root")
                    if value.lstrip().startswith("{"):
                        try:
                            data = json.loads(value)
                        except ValueError as exc:
                            raise BuildError(f"{page}: an inline config is not valid JSON: {exc}") from exc
                        self.add_config(Config(None, data), f"{page} (inline config)")
                        self.page_configs.add(f"{page} (inline config)")
                        continue
                path = resolve(value, base, where)
                if path and path.endswith(".html"):
                    if path not in pages:
                        raise BuildError(f"{where} names {path}, which is not a page of the site")
                elif path:
                    # A home-screen icon (<link rel="apple-touch-icon">) is fetched by the system
                    # that installs the page, online, not by the page: versioned, not kept offline.
                    rel = (attrs.get("rel") or "").lower().split()
                    install_icon = tag == "link" and any(r in INSTALL_ICON_RELS for r in rel)
                    self.need(path, where, "image" if install_icon else "versioned")
                    self.refs.setdefault(page, set()).add(path)
                    if tag == "script" and name == "config":
                        self.page_configs.add(path)

    def add_config(self, config: Config, where: str) -> None:
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
        interpreter = data.get("interpreter")
        if interpreter is None:
            raise BuildError(f"{name}: no interpreter: PyScript would load Pyodide from a CDN; "
                             "name the self-hosted one (interpreter = \"./static/vendor/pyodide/pyodide.mjs\")")
        # A config's interpreter is resolved against the page (PyScript's rule), the rest against the config.
        path = resolve(str(interpreter), "", f"{name}: interpreter")
        if path:
            self.need(path, f"{name}: interpreter")
            vendor = self.vendor_dir(path)
            if vendor:
                self.interpreters[name] = vendor
        for source, dest in expand_files(data.get("files") or {}, name).items():
            if dest.endswith("/*") or source.endswith((".zip", ".whl", ".tar.gz", ".tgz")):
                self.features.add("archives")
            path = resolve(source, base, f"{name} [files]")
            if path:
                self.need(path, f"{name} [files]", "plain")
                self.mapped_by.setdefault(path, set()).add(name)
        for entry in data.get("fetch") or []:
            prefix = entry.get("from", "")
            for item in entry.get("files") or []:
                path = resolve(prefix + item, base, f"{name} [[fetch]]")
                if path:
                    self.need(path, f"{name} [[fetch]]", "plain")
        for table in (data.get("js_modules") or {}).values():
            for url in table:
                path = resolve(url, base, f"{name} [js_modules]")
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
            self.named_in_code.add(target)

    def scan_css(self, path: str) -> None:
        text = (self.root / path).read_text(encoding="utf-8")
        for m in CSS_URL.finditer(text):
            url = m.group(2) or m.group(4)
            target = resolve(url, posixpath.dirname(path), f"{path} url()")
            if target:
                self.need(target, f"{path} url()")
                self.refs.setdefault(path, set()).add(target)

    def scan_manifest(self, path: str) -> None:
        try:
            data = json.loads((self.root / path).read_text(encoding="utf-8"))
        except ValueError as exc:
            raise BuildError(f"{path}: not valid JSON: {exc}") from exc
        for icon in manifest_images(data):
            target = resolve(icon["src"], posixpath.dirname(path), f"{path} icons")
            if target:
                self.need(target, f"{path} icons", "image")
                self.refs.setdefault(path, set()).add(target)

    def micropython_configs(self) -> set[str]:
        """The configs (their paths) whose interpreter is MicroPython."""
        return {c for c, vendor in self.interpreters.items() if c in self.configs and vendor.endswith("/micropython")}

    def on_demand_runtimes(self) -> set[str]:
        """The runtime directories only a worker started from Python code uses (the computer
        player's Pyodide): the offline copy stores them when they are first fetched, so a
        first visit never downloads them for nothing."""
        pages = {self.interpreters[c] for c in self.page_configs if c in self.interpreters}
        return set(self.interpreters.values()) - pages

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
            feature = PLUGIN_FEATURES.get(chunk_stem(rel))
            if feature is None or feature in self.features:
                rest = _DYNAMIC_IMPORT.sub("", _STATIC_IMPORT.sub("", text))
                named = set(_FILE_NAME.findall(rest))
                found += [s for s in siblings if s != rel and posixpath.basename(s) in named
                          and not CHUNK_HASH.match(posixpath.basename(s))]
            todo += [f for f in found if f in siblings and f not in chosen]
        return sorted(chosen)

    def wanted(self, importer: str, target: str, plugin_files: dict[str, str]) -> bool:
        if target in plugin_files:
            # Every plugin ships, even one the pages' configs turn off ("!py-editor"): which
            # plugins PyScript imports depends on the config of each interpreter type (py and
            # mpy) on each page, which this builder does not follow.
            return True
        importer_stem = chunk_stem(importer)
        if importer_stem in PLUGIN_FEATURES:
            return PLUGIN_FEATURES[importer_stem] in self.features
        stem = chunk_stem(target)
        for pattern, feature in LAZY_CHUNKS:
            if pattern.fullmatch(stem):
                return feature in self.features
        return True


def static_imports(text: str, folder: str) -> list[str]:
    """The files a JavaScript module in ``folder`` imports statically (``import … from "./x.js"``)."""
    return [posixpath.normpath(posixpath.join(folder, m.group(2))) for m in _STATIC_IMPORT.finditer(text)]


def expand_files(files: dict[str, str], where: str) -> dict[str, str]:
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


def manifest_images(data: dict[str, Any]) -> list[dict[str, Any]]:
    images = list(data.get("icons") or []) + list(data.get("screenshots") or [])
    for shortcut in data.get("shortcuts") or []:
        images += list(shortcut.get("icons") or [])
    return [i for i in images if isinstance(i, dict) and i.get("src")]
