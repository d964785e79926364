"""Write the site: contents, versioned references, the page, the service worker, build.json."""

from __future__ import annotations

import hashlib
import io
import json
import os
import posixpath
import re
import shutil
import tempfile
import tomllib
import zipfile
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .collect import Collector, Config, expand_files, manifest_images, static_imports
from .common import (
    BOARD_CSS_HEADER,
    BOARD_CSS_PATH,
    BUILD_INFO,
    CSS_URL,
    DEFAULT_OUT,
    NEVER_SHIPPED,
    PAGE,
    PYSCRIPT_KEYS,
    RESOURCE_ATTRS,
    ROOT,
    VENDOR,
    BuildError,
    StartTags,
    gzip_size,
    relative,
    resolve,
    set_attr,
    sha256,
    site_pages,
    strip_source_map,
    toml_or_json,
    trim_lock,
)
from .live import LIVE_BUNDLE, LiveFiles, add_to_page, collect_live
from .micropython import Packed, compile_modules, files_table, pack
from .offline import registration, service_worker
from .pyodide import WORKER_INTERPRETER, Precompiled, precompile_start
from .stdlib import STDLIB_ZIP, imported_names, trim_stdlib

_INTERPRETER_LINE = re.compile(r"""^(\s*interpreter\s*=\s*)(["'])(.*?)\2""", re.M)
_SW_MARKER = re.compile(r"[ \t]*<!-- service-worker\b.*?-->\n?", re.S)
_BOARD = re.compile(r"(<!-- board:begin[^>]*-->\n)(.*?)(<!-- board:end -->)", re.S)
_WORKER = re.compile(r'(<script type="application/json" id="yinsh-worker">)(.*?)(</script>)', re.S)


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
    on_demand: bool = False
    """Whether the service worker keeps it only once it is first fetched (the computer player's
    runtime, a live room's files), rather than when the release is installed."""
    live: bool = False
    """Whether only a live room loads it (its modules' bundle, the NATS client, the key helper)."""


@dataclass
class SiteSummary:
    """What :func:`build_site` wrote (``str()`` is the report ``yinsh build-site`` prints)."""

    out_dir: Path
    build: str
    files: list[SiteFile]
    url_map: dict[str, str] = field(default_factory=dict)
    """Source path (relative to the checkout) → its URL in the site, for every renamed or versioned file."""
    warnings: list[str] = field(default_factory=list)
    stdlib_dropped: list[str] = field(default_factory=list)
    """Standard packages left out of the runtime's ``python_stdlib.zip`` (nothing imports them)."""
    stdlib_compiled: list[str] = field(default_factory=list)
    """Its modules shipped as bytecode (their ``.py`` names): those Pyodide's start imports."""

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
        for label, kept in (("kept offline by sw.js at install (what a first visit loads)",
                             [f for f in self.files if f.cached and not f.on_demand]),
                            ("kept offline once first used (the computer player's runtime)",
                             [f for f in self.files if f.on_demand and not f.live]),
                            ("kept offline once first used (a live room's files)",
                             [f for f in self.files if f.live])):
            lines.append(f"  {label}: {len(kept)} files, {sum(f.size for f in kept) / 1e6:.2f} MB, "
                         f"{sum(f.gzip_size for f in kept) / 1e6:.2f} MB gzip")
        if self.stdlib_dropped:
            lines.append(f"  python_stdlib.zip without {len(self.stdlib_dropped)} packages nothing imports: "
                         + ", ".join(self.stdlib_dropped))
        if self.stdlib_compiled:
            lines.append(f"  python_stdlib.zip: the {len(self.stdlib_compiled)} modules Pyodide's start imports "
                         "precompiled")
        lines += [f"  warning: {w}" for w in self.warnings]
        return "\n".join(lines)


def _versioned(url: str, target: str, base_dir: str, urls: dict[str, str], hashes: dict[str, str]) -> str:
    """How a file refers to ``target`` in the site: the runtime's renamed directory, or ``?v=``."""
    parts = urlsplit(url)
    fragment = "#" + parts.fragment if parts.fragment else ""
    if target in urls and not urls[target].startswith("./" + target + "?"):
        return relative(urls[target].removeprefix("./"), base_dir) + fragment
    query = (parts.query + "&" if parts.query else "") + "v=" + hashes[target][:10]
    return parts.path + "?" + query + fragment


def _rewrite_page(page: str, html: str, urls: dict[str, str], hashes: dict[str, str], rewrite_config: Any,
                  inline: dict[str, dict[str, Any]]) -> str:
    """``html`` of ``page`` with every reference to a shipped file versioned (other pages keep their URL)
    and the configs of ``inline`` (path → config as built) written into the tags that name them."""
    base = posixpath.dirname(page)
    out, last = [], 0
    for tag, attrs, offset, raw in StartTags(html).tags:
        new = raw
        for name in RESOURCE_ATTRS.get(tag, ()):
            value = attrs.get(name)
            if value is None:
                continue
            if tag == "script" and name == "config" and value.lstrip().startswith("{"):
                new = set_attr(new, name, json.dumps(rewrite_config(json.loads(value)), separators=(",", ":")))
                continue
            target = resolve(value, base, page)
            if tag == "script" and name == "config" and target in inline:
                new = set_attr(new, name, json.dumps(inline[target], separators=(",", ":")))
                continue
            if target and target in urls:  # a shipped file, not another page
                new = set_attr(new, name, _versioned(value, target, base, urls, hashes))
        if new != raw:
            if html[offset:offset + len(raw)] != raw:
                raise BuildError(f"{page}: could not locate the tag {raw[:60]!r} to rewrite it")
            out.append(html[last:offset])
            out.append(new)
            last = offset + len(raw)
    out.append(html[last:])
    return "".join(out)


def _preload_files(page: str, html: str, builder: Collector, packed: dict[str, Packed],
                   contents: dict[str, bytes]) -> str:
    """``html`` with preloads for what PyScript fetches one after another once it runs: what
    its module script imports statically (its core), the page's config unless the page holds
    it, and every file that config maps (a MicroPython config's bundle and its reader). The
    browser fetches them beside the interpreter instead of one after another; each link
    matches PyScript's own request (same URL, same-origin credentials), so it is answered
    from the preload. (The chunks PyScript imports later are left alone: preloading them too
    slows a repeat visit, whose parsing they hold back, more than it saves.)"""
    base = posixpath.dirname(page)
    links = []
    for tag, attrs, _, _ in StartTags(html).tags:
        src = attrs.get("src") if tag == "script" and attrs.get("type") == "module" else None
        script = resolve(src, base, page) if src else None
        if script and script in contents:
            folder = posixpath.dirname(script)
            links += [f'  <link rel="modulepreload" href="{escape(relative(chunk, base), quote=True)}">\n'
                      for chunk in static_imports(contents[script].decode("utf-8", "replace"), folder)
                      if chunk in contents]
        value = attrs.get("config") if tag == "script" else None
        if value and value.lstrip().startswith("{"):  # inline: nothing to fetch but its files
            files = expand_files(json.loads(value).get("files") or {}, page)
        else:
            path = resolve(value, base, page) if value else None
            config = builder.configs.get(path or "")
            if config is None:
                continue
            links.append(f'  <link rel="preload" href="{escape(value or "", quote=True)}" as="fetch" '
                         'crossorigin="anonymous">\n')
            files = packed[path].files if path in packed else expand_files(config.data.get("files") or {}, page)
        for source in files:
            links.append(f'  <link rel="preload" href="{escape(source, quote=True)}" as="fetch" '
                         'crossorigin="anonymous">\n')
    if not links:
        return html
    return html.replace("</head>", "".join(links) + "</head>", 1)


def _worker_start(page: str, html: str, builder: Collector, rewrite_config: Any) -> str:
    """``html`` with the computer's worker configuration, which its head names
    (``#yinsh-worker``), written in as built: the head starts the worker without asking for it."""
    m = _WORKER.search(html)
    if not m:
        return html
    named = json.loads(m.group(2))
    path = resolve(named["config"], posixpath.dirname(page), f"{page} #yinsh-worker")
    config = builder.configs.get(path or "")
    if config is None:
        raise BuildError(f"{page} #yinsh-worker names {named['config']!r}, which is not a shipped configuration")
    named["config"] = rewrite_config(config.data, path)
    text = json.dumps(named, separators=(",", ":")).replace("<", "\\u003c")
    return html[:m.start(2)] + text + html[m.end(2):]


def _manifest_held_back(html: str) -> str:
    """``html`` with its manifest link in ``<template id="yinsh-manifest">``, which the service
    worker's registration adds to ``<head>`` once the page is interactive (its docstring says why)."""
    for tag, attrs, offset, raw in StartTags(html).tags:
        if tag == "link" and "manifest" in (attrs.get("rel") or "").lower().split():
            return html[:offset] + f'<template id="yinsh-manifest">{raw}</template>' + html[offset + len(raw):]
    return html


def _mapped(config: Config) -> dict[str, str]:
    """A config's ``[files]`` resolved: source path → its path in the interpreter's file system."""
    assert config.path is not None
    base = posixpath.dirname(config.path)
    out = {}
    for source, dest in expand_files(config.data.get("files") or {}, config.path).items():
        path = resolve(source, base, config.path)
        if path:
            target = dest.removeprefix("./")
            out[path] = target + posixpath.basename(path) if dest.endswith("/") else target
    return out


def _prepare_stdlib(root: Path, builder: Collector,
                 runtime: dict[str, dict[str, bytes]]) -> tuple[list[str], Precompiled | None]:
    """Drop from the runtime's ``python_stdlib.zip`` the packages nothing shipped imports
    (:mod:`yinsh.site.stdlib`), and precompile what Pyodide's start imports
    (:mod:`yinsh.site.pyodide`); the names dropped, and the precompiled start."""
    roots: set[str] = set()
    for path in builder.sources:
        if path.endswith(".py"):
            package = posixpath.dirname(path).replace("/", ".")
            roots |= imported_names((root / path).read_text(encoding="utf-8"), package)
    for shipped in runtime.values():
        for rel, data in shipped.items():
            if rel.endswith((".js", ".mjs")):  # PyScript's own Python, inside its JavaScript
                roots |= imported_names(data.decode("utf-8", "replace").replace("\\n", "\n"))
    dropped: list[str] = []
    precompiled = None
    for vendor, shipped in runtime.items():
        for rel in shipped:
            if posixpath.basename(rel) == STDLIB_ZIP:
                shipped[rel], dropped = trim_stdlib(shipped[rel], roots)
                if vendor == f"{VENDOR}/pyodide":
                    precompiled = _precompile_start(root, builder, shipped[rel])
                    shipped[rel] = precompiled.data
    return dropped, precompiled


def _precompile_start(root: Path, builder: Collector, stdlib: bytes) -> Precompiled:
    """``stdlib`` with the standard modules compiled that Pyodide's start and the Pyodide
    configs' modules import, and the modules of the computer's worker compiled
    (:mod:`yinsh.site.pyodide`)."""
    files: dict[str, Path] = {}
    bundled: set[str] = set()
    worker_configs = _bundled_configs(builder)
    for config in sorted(set(builder.configs) - builder.micropython_configs()):
        for source, dest in _mapped(builder.configs[config]).items():
            if source.endswith(".py"):
                files[dest] = root / source
                if config in worker_configs:
                    bundled.add(dest)
    modules = sorted(path[:-3].replace("/", ".").removesuffix(".__init__") for path in files)
    precompiled = precompile_start(root, stdlib, files, modules, sorted(bundled))
    builder.warnings += [f"Pyodide's start not precompiled for {failure}" for failure in precompiled.failed]
    return precompiled


def _bundled_configs(builder: Collector) -> set[str]:
    """The configs of the computer's worker (:data:`WORKER_INTERPRETER` runs them): their
    modules ship precompiled, in one zip it unpacks."""
    return {path for path, config in builder.configs.items()
            if str(config.data.get("interpreter", "")).endswith("/" + WORKER_INTERPRETER)}


def _worker_bundle(config: str, mapped: dict[str, str], modules: dict[str, bytes]) -> tuple[str, bytes, str]:
    """The bundle of a worker config's modules: its site path, bytes and versioned URL."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as bundle:
        for dest in sorted(dest for source, dest in mapped.items() if source.endswith(".py")):
            bundle.writestr(zipfile.ZipInfo(dest + "c", (1980, 1, 1, 0, 0, 0)), modules[dest],  # no date: reproducible
                            compress_type=zipfile.ZIP_DEFLATED)  # a host sends a .zip as it is
    data = out.getvalue()
    path = posixpath.splitext(config)[0] + ".zip"
    return path, data, f"./{path}?v={hashlib.sha256(data).hexdigest()[:10]}"


def _page_url(page: str) -> str:
    """The URL people open ``page`` by: ``./`` for the game page."""
    return "./" if page == PAGE else "./" + page


def _board_markup() -> str:
    from ..render import static_board_svg

    return static_board_svg()



def _check_output_folder(out: Path) -> None:
    """Refuse ``out`` unless it is absent, empty or a site this command wrote: one whose
    ``build.json`` lists every file in it. Replacing the folder then deletes no file it did not
    create (a ``build.json`` of something else, or a file added to a built site, stops it)."""
    if not out.exists():
        return
    refused = f"{out} exists and is not a site built by yinsh: refusing to replace it"
    if not out.is_dir():
        raise BuildError(refused)
    found = {p.relative_to(out).as_posix(): p.is_dir() and not p.is_symlink() for p in out.rglob("*")}
    if not found:
        return
    try:
        listed = json.loads((out / BUILD_INFO).read_text(encoding="utf-8"))["files"]
        written = {BUILD_INFO, *listed}
    except (OSError, ValueError, KeyError, TypeError):
        raise BuildError(refused) from None
    others = sorted(path for path, is_folder in found.items()
                    if path not in written and not (is_folder and any(w.startswith(path + "/") for w in written)))
    if others:
        raise BuildError(f"{out} holds files that yinsh build-site did not write ({', '.join(others[:3])}"
                         f"{', …' if len(others) > 3 else ''}): refusing to replace it")


def build_site(out_dir: str | Path = DEFAULT_OUT, *, root: str | Path | None = None,
               release: str = "", relay: str = "") -> SiteSummary:
    """Write the self-contained site into ``out_dir`` (replacing a previous build there).

    ``root`` is the source checkout (default: the one this package lives in). ``release``
    is mixed into the build id (two builds of the same files otherwise share it). ``relay``:
    the live rooms' relay (``wss://…``), written to ``live.json``, which the page reads when a
    room opens (a host may edit it later: it is not part of the offline copy). Raises
    :class:`BuildError` when the page names a missing file, a URL off its origin, a package
    or no self-hosted interpreter, or when ``out_dir`` holds something that is not a site.
    """
    root = Path(root or ROOT).resolve()
    out = Path(out_dir).resolve()
    if relay and not relay_url_ok(relay):
        raise BuildError(f"the relay {relay!r} is not a ws:// or wss:// URL")
    if not (root / PAGE).is_file():
        raise BuildError(f"no {PAGE} in {root}: build-site needs a source checkout of yinsh")
    if out == root or root.is_relative_to(out):
        raise BuildError(f"the site cannot be written into {out}: it holds the sources")
    _check_output_folder(out)

    builder, pages = _collect(root)
    live = collect_live(root, builder)
    packed, inlined = _pack_micropython(root, builder)
    site = _Site(root, builder, packed)
    dropped = site.add_runtimes()
    site.add_sources()
    site.add_pages(pages, inlined)
    if live is not None:
        site.add_live(live, pages)
    build = site.seal(pages, release)
    site.add_service_worker(build, relay)
    summary = site.summary(out, build, release, dropped)
    _write(out, site.contents)
    return summary


def _collect(root: Path) -> tuple[Collector, dict[str, str]]:
    """Step 1: the pages, and every file they name (transitively), read from ``root``."""
    builder = Collector(root)
    pages = {page: (root / page).read_text(encoding="utf-8") for page in site_pages(root)}
    for page, html in pages.items():
        builder.scan_page(page, html, set(pages))
    if not builder.runtime_entries:
        raise BuildError(f"{PAGE} loads no runtime from {VENDOR}/ (run `make setup`)")
    unreferenced = sorted(
        p.relative_to(root).as_posix() for p in root.glob("*.toml")
        if p.name not in NEVER_SHIPPED and p.relative_to(root).as_posix() not in builder.configs)
    for name in unreferenced:
        try:
            if PYSCRIPT_KEYS & set(toml_or_json(root / name)):
                builder.warnings.append(f"{name} looks like a PyScript config but nothing names it: not shipped")
        except BuildError:
            pass
    return builder, pages


def _pack_micropython(root: Path, builder: Collector) -> tuple[dict[str, Packed], set[str]]:
    """Step 2: MicroPython's modules, precompiled and packed (micropython.py): the packing of
    each MicroPython config, and the configs written into their page instead of shipped."""
    mpy_configs = builder.micropython_configs()
    compiled = compile_modules(root, sorted(p for p, by in builder.mapped_by.items()
                                            if p.endswith(".py") and by & mpy_configs))
    packed = {config: pack(config, _mapped(builder.configs[config]), compiled) for config in sorted(mpy_configs)}
    for path in compiled:  # a module only MicroPython imports ships in the bundles alone
        if builder.mapped_by[path] <= mpy_configs and path not in builder.named_in_code:
            builder.sources.discard(path)
    # A packed config goes into its page's <script config='…'> as JSON, not shipped: a request
    # fewer before Python starts, and no TOML parser for PyScript to import first.
    inlined = {path for path in packed if path not in builder.named_in_code}
    builder.sources -= inlined
    if all(path in inlined for path in builder.configs if path.endswith(".toml")):
        builder.features.discard("toml")
    return packed, inlined


class _Site:
    """The site being built: what each site file holds, under which path and URL (steps 3 to 6)."""

    def __init__(self, root: Path, builder: Collector, packed: dict[str, Packed]) -> None:
        self.root = root
        self.builder = builder
        self.packed = packed
        self.contents: dict[str, bytes] = {}  # site path → bytes
        self.kinds: dict[str, str] = {}
        self.urls: dict[str, str] = {}  # source path → URL (relative to the site root)
        self.hashes: dict[str, str] = {}
        self.on_demand: set[str] = set()  # site paths the offline copy keeps once first fetched
        self.live: set[str] = set()  # … of those, a live room's files
        self.bundles: dict[str, str] = {}  # a bundle's site path → its (versioned) URL
        self.cached: dict[str, bool] = {}
        self.entries: list[tuple[str, str]] = []  # the service worker's keys: fetched at install
        self.later: list[tuple[str, str]] = []  # … and fetched once first asked for
        self.live_later: list[tuple[str, str]] = []  # … a live room's, fetched once a room opens
        self.stdlib_compiled: list[str] = []  # python_stdlib.zip's modules shipped as bytecode
        self.worker_files: dict[str, dict[str, str]] = {}  # a worker config's [files] as built

    # -- step 3: the runtimes, renamed by their contents ------------------------------

    def add_runtimes(self) -> list[str]:
        """The runtimes the pages load, trimmed; the standard library's modules dropped, its
        start precompiled, and the worker's modules with it; the names dropped."""
        root, builder = self.root, self.builder
        runtime = {vendor: {rel: trim_lock(rel, strip_source_map(rel, (root / vendor / rel).read_bytes()))
                            for rel in builder.runtime_closure(vendor)} for vendor in sorted(builder.runtime_entries)}
        on_demand_runtimes = builder.on_demand_runtimes()
        dropped, precompiled = _prepare_stdlib(root, builder, runtime)
        if precompiled is not None:
            self.stdlib_compiled = precompiled.compiled
            self.bundle_workers(precompiled.modules)
        for vendor, shipped in runtime.items():
            closure = sorted(shipped)
            digest = hashlib.sha256()
            for rel in closure:
                digest.update(rel.encode() + b"\0" + hashlib.sha256(shipped[rel]).digest())
            renamed = f"{vendor}-{digest.hexdigest()[:10]}"
            for rel in closure:
                self.contents[f"{renamed}/{rel}"] = shipped[rel]
                self.kinds[f"{renamed}/{rel}"] = "runtime"
                self.urls[f"{vendor}/{rel}"] = f"./{renamed}/{rel}"
                if vendor in on_demand_runtimes:
                    self.on_demand.add(f"{renamed}/{rel}")
            for licence in ("LICENSE", "LICENSE.md", "LICENSE.txt"):
                if (root / vendor / licence).is_file():
                    self.contents[f"{renamed}/{licence}"] = (root / vendor / licence).read_bytes()
                    self.kinds[f"{renamed}/{licence}"] = "meta"
        return dropped

    # -- step 4: the sources, each written after what it names ------------------------

    def bundle_workers(self, modules: dict[str, bytes]) -> None:
        """The computer's worker configs as built: their modules' bytecode in one zip each,
        which the worker unpacks (``"./*"``), in place of the sources (shipped only if
        something else needs them)."""
        builder = self.builder
        bundled = _bundled_configs(builder)
        packed = builder.micropython_configs() | bundled  # a module they alone map ships in their bundles
        for config in sorted(bundled):
            mapped = _mapped(builder.configs[config])
            path, data, url = _worker_bundle(config, mapped, modules)
            self.contents[path] = data
            self.kinds[path] = "package"
            self.on_demand.add(path)
            self.bundles[path] = url
            files = {source: dest for source, dest in (builder.configs[config].data.get("files") or {}).items()
                     if not source.endswith(".py")}
            self.worker_files[config] = {url: "./*", **files}
            for source in mapped:
                if source.endswith(".py") and builder.mapped_by[source] <= packed \
                        and source not in builder.named_in_code:
                    builder.sources.discard(source)

    def rewrite_config(self, data: dict[str, Any], path: str | None = None) -> dict[str, Any]:
        data = dict(data)
        if path in self.worker_files:
            data["files"] = self.worker_files[path]
        path = resolve(str(data["interpreter"]), "", "interpreter")
        if path in self.urls:
            data["interpreter"] = self.urls[path]
        return data

    def content_of(self, path: str) -> bytes:
        """A shipped source file as written into the site (references rewritten)."""
        root, builder, urls, hashes = self.root, self.builder, self.urls, self.hashes
        raw = (root / path).read_bytes()
        if path == BOARD_CSS_PATH and raw.decode("utf-8").startswith(BOARD_CSS_HEADER):
            from ..render import BOARD_CSS

            return (BOARD_CSS_HEADER + BOARD_CSS).encode()
        if path in builder.configs:
            text = raw.decode("utf-8")
            interpreter = builder.configs[path].data["interpreter"]
            target = resolve(str(interpreter), "", path)
            if target and target in urls:
                new = urls[target]
                if path.endswith(".json"):
                    return (json.dumps(self.rewrite_config(builder.configs[path].data, path), indent=2)
                            + "\n").encode()
                text, count = _INTERPRETER_LINE.subn(lambda m: m.group(1) + m.group(2) + new + m.group(2), text, 1)
                if count != 1:
                    raise BuildError(f"{path}: could not rewrite its interpreter line")
                if tomllib.loads(text).get("interpreter") != new:
                    raise BuildError(f"{path}: rewriting the interpreter changed more than the interpreter")
            if path in self.packed:
                if path.endswith(".json"):
                    raise BuildError(f"{path}: a MicroPython config must be TOML (its [files] are rewritten)")
                try:
                    text = files_table(text, self.packed[path].files)
                except BuildError as exc:
                    raise BuildError(f"{path}: {exc}") from None
            return text.encode()
        if path.endswith(".css") and path in builder.refs:
            text = raw.decode("utf-8")
            base = posixpath.dirname(path)

            def css(m: re.Match[str]) -> str:
                url = m.group(2) or m.group(4)
                target = resolve(url, base, path)
                if not target:
                    return m.group(0)
                return m.group(0).replace(url, _versioned(url, target, base, urls, hashes))

            return strip_source_map(path, CSS_URL.sub(css, text).encode())
        if path.endswith(".webmanifest"):
            data = json.loads(raw)
            base = posixpath.dirname(path)
            for image in manifest_images(data):
                target = resolve(image["src"], base, path)
                if target:
                    image["src"] = _versioned(image["src"], target, base, urls, hashes)
            return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()
        return strip_source_map(path, raw)

    def ensure(self, path: str, chain: tuple[str, ...] = ()) -> None:
        """Write ``path`` after the files it names, so its hash covers their new names."""
        if path in self.hashes or self.builder.vendor_dir(path):
            return
        if path in chain:
            raise BuildError("files refer to each other in a circle: " + " → ".join(chain + (path,)))
        for dep in sorted(self.builder.refs.get(path, ())):
            self.ensure(dep, chain + (path,))
        data = self.content_of(path)
        self.contents[path] = data
        self.hashes[path] = sha256(data)
        self.kinds[path] = ("package" if path.endswith(".py") else "config" if path in self.builder.configs
                            else "static")
        self.urls[path] = f"./{path}?v={self.hashes[path][:10]}"

    def add_sources(self) -> None:
        """The pages' sources (versioned by their hash) and MicroPython's bundles."""
        for path in sorted(self.builder.sources):
            self.ensure(path)
        for packing in self.packed.values():
            for path, data in packing.contents.items():
                self.contents[path] = data
                self.kinds[path] = "package"
            self.bundles[packing.bundle_url[2:].split("?")[0]] = packing.bundle_url

    def add_live(self, live: LiveFiles, pages: dict[str, str]) -> None:
        """A live room's files (:mod:`yinsh.site.live`): its bundle, its scripts as shipped,
        kept offline once first used; the game page names their URLs."""
        self.contents[LIVE_BUNDLE] = live.bundle
        self.kinds[LIVE_BUNDLE] = "package"
        self.bundles[LIVE_BUNDLE] = live.bundle_url
        paths = {LIVE_BUNDLE}
        for script in live.scripts:
            vendor = self.builder.vendor_dir(script)
            if vendor:  # the NATS client: its runtime directory, renamed by its content
                folder = self.urls[script].removeprefix("./").rsplit("/", 1)[0]
                paths |= {p for p in self.contents if p.startswith(folder + "/") and self.kinds[p] == "runtime"}
            else:
                paths.add(script)
        self.live |= paths
        self.on_demand |= paths
        pages[PAGE] = add_to_page(pages[PAGE], live.page_element(self.urls))

    # -- step 5: the pages, and the build id over everything ---------------------------

    def add_pages(self, pages: dict[str, str], inlined: set[str]) -> None:
        """The pages' references rewritten (``pages`` is changed in place), their configs inlined."""
        m = _BOARD.search(pages[PAGE])
        if not m:
            raise BuildError(f"{PAGE} lost its <!-- board:begin --> … <!-- board:end --> markers")
        pages[PAGE] = pages[PAGE][: m.start(2)] + _board_markup() + "\n" + pages[PAGE][m.end(2):]
        inline = {path: dict(self.rewrite_config(self.builder.configs[path].data), files=self.packed[path].files)
                  for path in inlined}
        for page, html in pages.items():
            html = _worker_start(page, html, self.builder, self.rewrite_config)
            pages[page] = _preload_files(page, _rewrite_page(page, html, self.urls, self.hashes, self.rewrite_config,
                                                             inline), self.builder, self.packed, self.contents)

    def site_url(self, path: str) -> str:
        if path in self.bundles:
            return self.bundles[path]
        if self.kinds[path] == "page":
            return _page_url(path)
        if self.kinds[path] in ("runtime", "meta") or not {"versioned", "image"} & self.builder.forms.get(path, set()):
            return "./" + path
        return self.urls[path]

    def fetched_as(self, path: str) -> list[str]:
        """The URLs the page and its workers fetch ``path`` by (the service worker's keys)."""
        if path in self.bundles:
            return [self.bundles[path]]
        forms = self.builder.forms.get(path, set())
        if self.kinds[path] == "meta" or forms == {"image"}:
            return []  # manifest icons: fetched by the browser when it installs the app, online
        return sorted({self.urls[path] if form == "versioned" else "./" + path for form in forms - {"image"}}
                      or {"./" + path})

    def seal(self, pages: dict[str, str], release: str) -> str:
        """The build id (a hash of every file the site serves, and ``release``); each page gets
        the service worker's registration and joins the site."""
        contents, on_demand = self.contents, self.on_demand
        self.cached = {p: bool(self.fetched_as(p)) for p in contents}
        self.entries = sorted((url, sha256(c)) for p, c in contents.items() if p not in on_demand
                              for url in self.fetched_as(p))
        self.later = sorted((url, sha256(c)) for p, c in contents.items() if p in on_demand and p not in self.live
                            for url in self.fetched_as(p))
        self.live_later = sorted((url, sha256(c)) for p, c in contents.items() if p in self.live
                                 for url in self.fetched_as(p))
        seed = hashlib.sha256(json.dumps([self.entries, self.later, self.live_later,
                                          {p: sha256(h.encode()) for p, h in pages.items()}, release]).encode())
        build = seed.hexdigest()[:12]
        for page, html in pages.items():
            snippet = registration(build, relative("sw.js", posixpath.dirname(page)))
            html = _manifest_held_back(html)
            marker = _SW_MARKER.search(html)
            if marker:
                html = html[:marker.start()] + snippet + html[marker.end():]
            else:
                html = html.replace("</head>", snippet + "</head>", 1)
            contents[page] = html.encode()
            self.kinds[page] = "page"
            self.cached[page] = True
            self.entries.append((_page_url(page), sha256(contents[page])))  # under the URL people open
        return build

    # -- step 6: the service worker and the summary -------------------------------------

    def add_service_worker(self, build: str, relay: str) -> None:
        """The service worker; ``live.json`` naming the relay, ``""`` when there is none (not
        cached: a host may edit it; present either way, so that a page asking finds an answer, not
        an error)."""
        sw = service_worker(self.root, build, self.entries, self.later, self.live_later)
        extra = [(LIVE_CONFIG, (json.dumps({"relay": relay}) + "\n").encode())]
        # .nojekyll: GitHub Pages serves __init__.py as it is
        for path, data in [("sw.js", sw.encode()), (".nojekyll", b""), *extra]:
            self.contents[path] = data
            self.kinds[path] = "meta"
            self.cached[path] = False

    def summary(self, out: Path, build: str, release: str, dropped: list[str]) -> SiteSummary:
        """What was built, and ``build.json`` (added to the site) saying the same."""
        digests = {p: sha256(c) for p, c in self.contents.items()}
        files = [SiteFile(path=p, url=self.site_url(p), kind=self.kinds[p], size=len(c),
                          gzip_size=gzip_size(c, digests[p]), sha256=digests[p], cached=self.cached[p],
                          on_demand=p in self.on_demand, live=p in self.live)
                 for p, c in sorted(self.contents.items())]
        summary = SiteSummary(out_dir=out, build=build, files=files, url_map=dict(sorted(self.urls.items())),
                              warnings=self.builder.warnings, stdlib_dropped=dropped,
                              stdlib_compiled=self.stdlib_compiled)
        info = {"build": build, "release": release, "versions": _versions(self.root), "stdlib_dropped": dropped,
                "stdlib_compiled": self.stdlib_compiled,
                "files": {f.path: {"url": f.url, "bytes": f.size, "gzip": f.gzip_size, "sha256": f.sha256,
                                   "cached": f.cached, "on_demand": f.on_demand, "live": f.live} for f in files}}
        self.contents[BUILD_INFO] = (json.dumps(info, indent=1) + "\n").encode()
        return summary


def _write(out: Path, contents: dict[str, bytes]) -> None:
    """Step 7: write into a fresh folder next to ``out``, then swap it in (a failure leaves
    the previous site as it was)."""
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


LIVE_CONFIG = "live.json"
"""Where a site names its live rooms' relay: ``{"relay": "wss://…"}``."""


def relay_url_ok(url: str) -> bool:
    """Whether ``url`` can name a relay: ``ws://`` or ``wss://``, a host, nothing odd.

    >>> relay_url_ok("wss://relay.example.org"), relay_url_ok("ws://127.0.0.1:9222"), relay_url_ok("http://x")
    (True, True, False)
    """
    scheme, _, rest = url.partition("://")
    return (scheme in ("ws", "wss") and bool(rest) and not rest.startswith("/") and len(url) <= 300
            and all(" " < c < "\x7f" and c not in "\"'<>\\`" for c in url))


def _versions(root: Path) -> dict[str, Any]:
    path = root / VENDOR / "VERSIONS.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
