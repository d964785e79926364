"""Write the site: contents, versioned references, the page, the service worker, build.json."""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
import re
import shutil
import tempfile
import tomllib
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
from .micropython import Packed, compile_modules, files_table, pack
from .offline import registration, service_worker
from .stdlib import STDLIB_ZIP, imported_names, trim_stdlib

_INTERPRETER_LINE = re.compile(r"""^(\s*interpreter\s*=\s*)(["'])(.*?)\2""", re.M)
_SW_MARKER = re.compile(r"[ \t]*<!-- service-worker\b.*?-->\n?", re.S)
_BOARD = re.compile(r"(<!-- board:begin[^>]*-->\n)(.*?)(<!-- board:end -->)", re.S)


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
    runtime), rather than when the release is installed."""


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
                             [f for f in self.files if f.on_demand])):
            lines.append(f"  {label}: {len(kept)} files, {sum(f.size for f in kept) / 1e6:.2f} MB, "
                         f"{sum(f.gzip_size for f in kept) / 1e6:.2f} MB gzip")
        if self.stdlib_dropped:
            lines.append(f"  python_stdlib.zip without {len(self.stdlib_dropped)} packages nothing imports: "
                         + ", ".join(self.stdlib_dropped))
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


def _trim_stdlib(root: Path, builder: Collector, runtime: dict[str, dict[str, bytes]]) -> list[str]:
    """Drop from the runtime's ``python_stdlib.zip`` the packages nothing shipped imports
    (:mod:`yinsh.site.stdlib`); the names dropped."""
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
    for shipped in runtime.values():
        for rel in shipped:
            if posixpath.basename(rel) == STDLIB_ZIP:
                shipped[rel], dropped = trim_stdlib(shipped[rel], roots)
    return dropped


def _page_url(page: str) -> str:
    """The URL people open ``page`` by: ``./`` for the game page."""
    return "./" if page == PAGE else "./" + page


def _board_markup() -> str:
    from ..render import static_board_svg

    return static_board_svg()



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
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / BUILD_INFO).is_file())):
        raise BuildError(f"{out} exists and is not a site built by yinsh: refusing to replace it")

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

    # -- MicroPython's modules, precompiled and packed (micropython.py) ------------------
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

    # -- contents: what each site file holds, under which path --------------------------
    contents: dict[str, bytes] = {}  # site path → bytes
    kinds: dict[str, str] = {}
    urls: dict[str, str] = {}  # source path → URL (relative to the site root)
    runtime = {vendor: {rel: trim_lock(rel, strip_source_map(rel, (root / vendor / rel).read_bytes()))
                        for rel in builder.runtime_closure(vendor)} for vendor in sorted(builder.runtime_entries)}
    on_demand_runtimes = builder.on_demand_runtimes()
    on_demand: set[str] = set()  # site paths the offline copy keeps once first fetched
    dropped = _trim_stdlib(root, builder, runtime)
    for vendor, shipped in runtime.items():
        closure = sorted(shipped)
        digest = hashlib.sha256()
        for rel in closure:
            digest.update(rel.encode() + b"\0" + hashlib.sha256(shipped[rel]).digest())
        renamed = f"{vendor}-{digest.hexdigest()[:10]}"
        for rel in closure:
            contents[f"{renamed}/{rel}"] = shipped[rel]
            kinds[f"{renamed}/{rel}"] = "runtime"
            urls[f"{vendor}/{rel}"] = f"./{renamed}/{rel}"
            if vendor in on_demand_runtimes:
                on_demand.add(f"{renamed}/{rel}")
        for licence in ("LICENSE", "LICENSE.md", "LICENSE.txt"):
            if (root / vendor / licence).is_file():
                contents[f"{renamed}/{licence}"] = (root / vendor / licence).read_bytes()
                kinds[f"{renamed}/{licence}"] = "meta"

    hashes: dict[str, str] = {}

    def rewrite_config(data: dict[str, Any]) -> dict[str, Any]:
        data = dict(data)
        path = resolve(str(data["interpreter"]), "", "interpreter")
        if path in urls:
            data["interpreter"] = urls[path]
        return data

    def content_of(path: str) -> bytes:
        """A shipped source file as written into the site (references rewritten)."""
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
                    return (json.dumps(rewrite_config(builder.configs[path].data), indent=2) + "\n").encode()
                text, count = _INTERPRETER_LINE.subn(lambda m: m.group(1) + m.group(2) + new + m.group(2), text, 1)
                if count != 1:
                    raise BuildError(f"{path}: could not rewrite its interpreter line")
                if tomllib.loads(text).get("interpreter") != new:
                    raise BuildError(f"{path}: rewriting the interpreter changed more than the interpreter")
            if path in packed:
                if path.endswith(".json"):
                    raise BuildError(f"{path}: a MicroPython config must be TOML (its [files] are rewritten)")
                try:
                    text = files_table(text, packed[path].files)
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
        hashes[path] = sha256(data)
        kinds[path] = ("package" if path.endswith(".py") else "config" if path in builder.configs else "static")
        urls[path] = f"./{path}?v={hashes[path][:10]}"

    for path in sorted(builder.sources):
        ensure(path)
    bundles = {}  # a bundle's site path → its (versioned) URL
    for packing in packed.values():
        for path, data in packing.contents.items():
            contents[path] = data
            kinds[path] = "package"
        bundles[packing.bundle_url[2:].split("?")[0]] = packing.bundle_url

    # -- the pages ---------------------------------------------------------------------
    m = _BOARD.search(pages[PAGE])
    if not m:
        raise BuildError(f"{PAGE} lost its <!-- board:begin --> … <!-- board:end --> markers")
    pages[PAGE] = pages[PAGE][: m.start(2)] + _board_markup() + "\n" + pages[PAGE][m.end(2):]
    inline = {path: dict(rewrite_config(builder.configs[path].data), files=packed[path].files) for path in inlined}
    for page, html in pages.items():
        pages[page] = _preload_files(page, _rewrite_page(page, html, urls, hashes, rewrite_config, inline), builder,
                                     packed, contents)

    def site_url(path: str) -> str:
        if path in bundles:
            return bundles[path]
        if kinds[path] == "page":
            return _page_url(path)
        if kinds[path] in ("runtime", "meta") or not {"versioned", "image"} & builder.forms.get(path, set()):
            return "./" + path
        return urls[path]

    def fetched_as(path: str) -> list[str]:
        """The URLs the page and its workers fetch ``path`` by (the service worker's keys)."""
        if path in bundles:
            return [bundles[path]]
        forms = builder.forms.get(path, set())
        if kinds[path] == "meta" or forms == {"image"}:
            return []  # manifest icons: fetched by the browser when it installs the app, online
        return sorted({urls[path] if form == "versioned" else "./" + path for form in forms - {"image"}}
                      or {"./" + path})

    cached = {p: bool(fetched_as(p)) for p in contents}
    entries = sorted((url, sha256(c)) for p, c in contents.items() if p not in on_demand for url in fetched_as(p))
    later = sorted((url, sha256(c)) for p, c in contents.items() if p in on_demand for url in fetched_as(p))
    seed = hashlib.sha256(json.dumps([entries, later, {p: sha256(h.encode()) for p, h in pages.items()},
                                      release]).encode())
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
        kinds[page] = "page"
        cached[page] = True
        entries.append((_page_url(page), sha256(contents[page])))  # under the URL people open

    # -- the service worker -------------------------------------------------------------
    sw = service_worker(root, build, entries, later)
    contents["sw.js"] = sw.encode()
    kinds["sw.js"] = "meta"
    cached["sw.js"] = False
    if relay:
        contents[LIVE_CONFIG] = (json.dumps({"relay": relay}) + "\n").encode()
        kinds[LIVE_CONFIG] = "meta"
        cached[LIVE_CONFIG] = False
    contents[".nojekyll"] = b""  # GitHub Pages from a branch: serve __init__.py as it is
    kinds[".nojekyll"] = "meta"
    cached[".nojekyll"] = False

    digests = {p: sha256(c) for p, c in contents.items()}
    files = [SiteFile(path=p, url=site_url(p), kind=kinds[p], size=len(c), gzip_size=gzip_size(c, digests[p]),
                      sha256=digests[p], cached=cached[p], on_demand=p in on_demand)
             for p, c in sorted(contents.items())]
    summary = SiteSummary(out_dir=out, build=build, files=files, url_map=dict(sorted(urls.items())),
                          warnings=builder.warnings, stdlib_dropped=dropped)
    info = {"build": build, "release": release, "versions": _versions(root), "stdlib_dropped": dropped,
            "files": {f.path: {"url": f.url, "bytes": f.size, "gzip": f.gzip_size, "sha256": f.sha256,
                               "cached": f.cached, "on_demand": f.on_demand} for f in files}}
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
