"""The offline copy: ``sw.js`` written from its template, and its registration in the built page."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

from .common import SW_DIGEST, SW_TEMPLATE, BuildError

_SW_RELEASE = re.compile(r"^const RELEASE = .*?;[^\n]*$", re.M)


def service_worker(root: Path, build: str, entries: Sequence[tuple[str, str]],
                   later: Sequence[tuple[str, str]] = (), live: Sequence[tuple[str, str]] = ()) -> str:
    """``sw.js`` of release ``build``: the template with its ``RELEASE`` filled in from
    ``entries``, the (URL, SHA-256) of every file the service worker keeps when it installs,
    ``later``, those it keeps once they are first fetched (the computer player's runtime),
    and ``live``, likewise (a live room's files)."""
    template = root / SW_TEMPLATE
    if not template.is_file():
        raise BuildError(f"{SW_TEMPLATE} (the service worker's template) is missing")
    # 128 bits of each SHA-256 are plenty to tell two releases apart, and keep sw.js small.
    release = json.dumps({"build": build, "files": sorted((u, d[:SW_DIGEST]) for u, d in entries),
                          "later": sorted((u, d[:SW_DIGEST]) for u, d in later),
                          "live": sorted((u, d[:SW_DIGEST]) for u, d in live)}, separators=(",", ":"))
    sw, count = _SW_RELEASE.subn(lambda _: f"const RELEASE = {release};", template.read_text(encoding="utf-8"), count=1)
    if count != 1:
        raise BuildError(f"{SW_TEMPLATE} has no `const RELEASE = …;` line to fill in")
    return sw


def registration(build: str, sw_url: str = "./sw.js") -> str:
    """The ``<head>`` snippet of the built page: the build id and the service worker.

    Once the page is interactive it registers ``sw_url``, unless it is in a frame (a diagram
    in a tutorial: the page holding it keeps the offline copy, or, on another site, none);
    when the page's head started the computer's worker (``window.yinshEarlyWorker``), only
    once that worker is up (or failed, or closed): storing the release beside Pyodide's start
    would slow it.
    When a new release has installed beside the running one it marks ``<html
    data-yinsh-update>``, fires ``yinsh:update`` and shows the page's ``#update-offer`` (if it
    has one): its button tells the waiting worker to take over, and every tab of the site
    reloads into the new release when it does. When the host has removed ``sw_url`` (a 404
    or 410 from the host itself, not a failed network), the offline copy is retired: the
    registration and this site's caches go (the computer's start-up snapshots too), and the
    next visit comes from the host. When the
    computer player's worker is up (``data-yinsh-ai-ready``) and the service worker is active,
    the page asks it to keep the worker's runtime too (``keep-later``): the service worker
    lets the network (the HTTP cache) answer for it while online, and a worker started before
    it controlled the page fetched it past it. Likewise a live
    room's files once a room is open (``data-live-room``, ``keep-live``).

    The page's manifest link waits in ``<template id="yinsh-manifest">`` (the builder puts it
    there) and goes into ``<head>`` at the same moment, with or without service workers: the
    browser's install check (the manifest, an icon, the start page asked of the service
    worker) would otherwise compete with the page's start.
    """
    return f"""  <meta name="yinsh-build" content="{build}">
  <script>
    // Once the game is interactive (or 15 s after the page loaded), and the computer's worker
    // is up if the page's head started one: the app's manifest joins <head>, and the offline
    // copy (written by yinsh/site into the built site only) starts: sw.js stores this release;
    // a new release is offered, and takes over on Reload.
    (() => {{
      const html = document.documentElement;
      const onceInteractive = [() => {{
        const kept = document.getElementById("yinsh-manifest");
        if (kept) document.head.append(kept.content), kept.remove();
      }}];
      // A page in a frame leaves the offline copy to the page holding it: the site's own
      // pages keep it themselves, and a page of another site (a tutorial holding a diagram)
      // must not make its readers keep this release, if the browser lets its frames keep
      // anything at all.
      if ("serviceWorker" in navigator && window.top === window) {{
        const worker = new URL("{sw_url}", location.href);
        const cachePrefix = "yinsh:" + new URL("./", worker).pathname + ":";
        // The computer's start-up snapshots (static/js/yinsh-pyodide.mjs) kept for this site's Pyodide.
        const snapshotPrefix = "yinsh-pyodide-snapshot:" + new URL("./", worker).pathname;
        const fromOfflineCopy = !!navigator.serviceWorker.controller;
        // A release taking over while this page runs an older one: reload into it.
        navigator.serviceWorker.addEventListener("controllerchange", () => {{
          if (fromOfflineCopy && navigator.serviceWorker.controller) location.reload();
        }});
        const offer = (registration) => {{
          html.setAttribute("data-yinsh-update", "");
          dispatchEvent(new Event("yinsh:update"));
          const box = document.getElementById("update-offer");
          const button = box && box.querySelector("button");
          if (!button) return;
          box.hidden = false;
          button.onclick = () => {{
            button.disabled = true;
            if (registration.waiting) registration.waiting.postMessage("skip-waiting");
            else location.reload();
          }};
        }};
        const retireIfRemoved = async () => {{
          try {{
            const response = await fetch(worker, {{cache: "no-store"}});
            if (response.status !== 404 && response.status !== 410) return;
            for (const registration of await navigator.serviceWorker.getRegistrations()) {{
              if (registration.scope === new URL("./", worker).href) await registration.unregister();
            }}
            for (const key of await caches.keys()) {{
              if (key.startsWith(cachePrefix) || key.startsWith(snapshotPrefix)) await caches.delete(key);
            }}
          }} catch (error) {{ /* offline: the copy stays */ }}
        }};
        onceInteractive.push(() => navigator.serviceWorker.register("{sw_url}").then((registration) => {{
          if (registration.waiting && navigator.serviceWorker.controller) offer(registration);
          registration.addEventListener("updatefound", () => {{
            const installing = registration.installing;
            installing && installing.addEventListener("statechange", () => {{
              if (installing.state === "installed" && navigator.serviceWorker.controller) offer(registration);
            }});
          }});
          // register() settles at once for a worker it knows: only a check says sw.js has gone.
          if (navigator.onLine) registration.update().catch(retireIfRemoved);
        }}, (error) => {{
          console.warn("YINSH: no offline copy:", error);
          retireIfRemoved();
        }}));
        const keep = (what) => navigator.serviceWorker.ready.then((registration) => {{
          if (registration.active) registration.active.postMessage(what);
        }});
        const asked = new Set();
        new MutationObserver(() => {{
          for (const [flag, what] of [["data-yinsh-ai-ready", "keep-later"], ["data-live-room", "keep-live"]]) {{
            if (html.hasAttribute(flag) && !asked.has(what)) asked.add(what), keep(what);
          }}
        }}).observe(html, {{attributes: true, attributeFilter: ["data-yinsh-ai-ready", "data-live-room"]}});
      }}
      let started = false;
      const start = () => {{
        if (started) return;
        started = true;
        for (const task of onceInteractive) task();
      }};
      // Storing the release fetches and writes a few megabytes: not while the computer's
      // worker starts beside the page (its Pyodide would start later), only once it is up,
      // failed or closed.
      const computer = window.yinshEarlyWorker ? window.yinshEarlyWorker.started : Promise.resolve();
      new MutationObserver(() => html.hasAttribute("data-yinsh-ready") && computer.finally(start))
        .observe(html, {{attributes: true, attributeFilter: ["data-yinsh-ready"]}});
      addEventListener("load", () => setTimeout(start, 15000));
    }})();
  </script>
"""
