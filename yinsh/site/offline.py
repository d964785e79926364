"""The offline copy: ``sw.js`` written from its template, and its registration in the built page."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .common import SW_DIGEST, SW_TEMPLATE, BuildError

_SW_RELEASE = re.compile(r"^const RELEASE = .*?;[^\n]*$", re.M)


def service_worker(root: Path, build: str, entries: list[tuple[str, str]]) -> str:
    """``sw.js`` of release ``build``: the template with its ``RELEASE`` filled in from
    ``entries``, the (URL, SHA-256) of every file the service worker keeps."""
    template = root / SW_TEMPLATE
    if not template.is_file():
        raise BuildError(f"{SW_TEMPLATE} (the service worker's template) is missing")
    # 128 bits of each SHA-256 are plenty to tell two releases apart, and keep sw.js small.
    release = json.dumps({"build": build, "files": sorted((u, d[:SW_DIGEST]) for u, d in entries)},
                         separators=(",", ":"))
    sw, count = _SW_RELEASE.subn(lambda _: f"const RELEASE = {release};", template.read_text(encoding="utf-8"), count=1)
    if count != 1:
        raise BuildError(f"{SW_TEMPLATE} has no `const RELEASE = …;` line to fill in")
    return sw


def registration(build: str, sw_url: str = "./sw.js") -> str:
    """The ``<head>`` snippet of the built page: the build id and the service worker."""
    return f"""  <meta name="yinsh-build" content="{build}">
  <script>
    // The offline copy (written by yinsh/site into the built site only): once the game is
    // interactive, sw.js stores this release; a new release takes over when no tab runs this one.
    if ("serviceWorker" in navigator) (() => {{
      const html = document.documentElement;
      let started = false;
      const start = () => {{
        if (started) return;
        started = true;
        navigator.serviceWorker.register("{sw_url}").then((registration) => {{
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
