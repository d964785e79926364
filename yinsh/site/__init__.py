"""Build the self-contained static site: ``yinsh build-site [DIR]`` (``make site``), ``dist/`` by default.

The result is one folder that any static server can host (GitHub Pages, a USB stick served on
``http://localhost``, an intranet): the page, the Python package, the static files and only
the runtime files the page loads, with no source map, no ``node_modules`` and no request
leaving the origin. It is read from a source checkout (``index.html`` at its root) and made
with the standard library and two compilers: ``mpy-cross`` (the MicroPython pages' bytecode,
:mod:`yinsh.site.micropython`) and the vendored Pyodide itself, run by Node.js (the computer's,
:mod:`yinsh.site.pyodide`).

What goes in is *derived*, never listed here, so a new script, worker or config added to the
page is shipped without touching this module:

- the pages: ``index.html``, the other ``*.html`` at the root (``embed.html``) and those of
  ``examples/``; in each, every ``src``/``href``/``config`` of a resource tag (scripts, styles,
  preloads, icons, the manifest, iframes of another page), and the PyScript configs named by
  ``config=`` (a page that runs Python sits at the root: PyScript resolves against the page);
- each PyScript config: its ``interpreter`` (the self-hosted runtime), its ``[files]``,
  ``[[fetch]]`` and ``[js_modules.*]``; a ``packages`` list is refused (the page uses the
  standard library only);
- the Python files shipped: string literals naming a ``.py``, ``.toml`` or ``.json`` file of
  the site (``WORKER_CONFIG = "./worker.json"``);
- the manifest's icons and the stylesheets' ``url(…)``;
- the runtime under ``static/vendor/<name>/``: from the files the page names, every static
  ``import`` and every sibling file a module names (``pyodide.mjs`` names
  ``pyodide.asm.wasm``, ``python_stdlib.zip``, …), and of PyScript's lazily imported
  chunks only those the page can reach (its plugins; the TOML parser only for a config
  still fetched as TOML; not the editor, terminal or package-graph chunks unless the page
  uses them).

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
  pages and their files from that cache: a page is only ever served with the files of its own
  release. PyScript's ``[files]`` keys are left exactly as written.

``index.html``'s static board (between ``<!-- board:begin`` and ``<!-- board:end -->``) and
``static/css/board.css`` are regenerated from :mod:`yinsh.render`, so a release never ships a
stale drawing (other pages' boards are checked by their own golden tests). A MicroPython page's
config (``pyscript.toml``, ``embed.toml``) is written into its ``<script config='…'>`` as JSON
and not shipped: one request fewer, and no TOML parser to import, before Python starts. The
computer's worker configuration that ``index.html``'s ``<head>`` names
(``<script type="application/json" id="yinsh-worker">``) is written in as built too
(``worker.json`` still ships beside it), so the head starts that worker without a request
first; its modules ship as CPython bytecode in one zip (``worker.zip``), and Pyodide's
``python_stdlib.zip`` holds as bytecode the modules Pyodide's start imports: the computer's
first answer compiles no Python (:mod:`yinsh.site.pyodide`). A live
room's modules (``LIVE_MODULES`` of ``yinsh/web/main.py``) go precompiled into a second bundle,
and its scripts (``LIVE_SCRIPTS``) ship versioned, all loaded only when a room opens
(:mod:`yinsh.site.live`). Its
manifest link waits in a ``<template>`` until the page is interactive. In every page the
registration of the service worker and a ``<meta name="yinsh-build">`` replace the
``<!-- service-worker … -->`` marker in ``<head>`` (or go before ``</head>``; the development
pages never register one). The service worker answers a navigation to any page of the
release, whatever its query.
:func:`write_icons` redraws the PNG icons of ``static/icons/``.
"""

from __future__ import annotations

from .build import SiteFile, SiteSummary, build_site
from .common import DEFAULT_OUT, ROOT, BuildError
from .icons import ICONS, icon_pixels, png, png_pixels, write_icons

__all__ = ["BuildError", "SiteFile", "SiteSummary", "build_site", "write_icons", "png", "png_pixels", "icon_pixels",
           "ICONS", "ROOT", "DEFAULT_OUT"]
