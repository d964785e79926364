"""The self-hosted browser runtimes boot: PyScript with Pyodide or MicroPython from static/vendor/,
nothing else (bench/bare*.html, the baselines of ``make bench-web``).

The ``yinsh_page`` fixture fails the test on any console error, uncaught page error or request
leaving the test server's origin, so these tests also guard "no CDN, works offline".
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"

BOOT_TIMEOUT_MS = 60_000  # a cold Pyodide boot takes ~5 s on 2 cores; leave room for slow CI


@pytest.mark.parametrize("page, interpreter", [("bare.html", "pyodide/pyodide.asm.wasm"),
                                               ("bare-mpy.html", "micropython/micropython.wasm")])
def test_bare_pyscript_page_boots_from_vendored_runtime(yinsh_page, record_property, page, interpreter):
    start = time.perf_counter()
    response = yinsh_page.open("/bench/" + page)
    assert response is not None and response.ok
    yinsh_page.wait_for_selector("html[data-bare-ready]", state="attached", timeout=BOOT_TIMEOUT_MS)
    seconds = time.perf_counter() - start

    assert yinsh_page.evaluate("document.documentElement.dataset.bareReady") == "1"
    vendor_requests = sorted(
        {
            entry["name"].split("/static/vendor/", 1)[1]
            for entry in yinsh_page.evaluate(
                "performance.getEntriesByType('resource').map(e => ({name: e.name}))"
            )
            if "/static/vendor/" in entry["name"]
        }
    )
    # The interpreter really came from our copy.
    assert interpreter in vendor_requests
    assert "pyscript/core.js" in vendor_requests

    record_property("bare_ready_seconds", round(seconds, 3))
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"{page.removesuffix('.html')}-startup.json").write_text(
        json.dumps(
            {"bare_ready_seconds_cold": round(seconds, 3), "vendor_requests": vendor_requests},
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"{page} ready {seconds:.2f} s after navigation (cold context)")


def test_server_mime_types(site_url):
    """Both runtimes need application/wasm and a JavaScript type for .mjs, whatever /etc says."""
    from urllib.request import urlopen

    expected = {
        "/static/vendor/pyodide/pyodide.mjs": "text/javascript",
        "/static/vendor/pyodide/pyodide.asm.wasm": "application/wasm",
        "/static/vendor/pyodide/pyodide-lock.json": "application/json",
        "/static/vendor/micropython/micropython.mjs": "text/javascript",
        "/static/vendor/micropython/micropython.wasm": "application/wasm",
        "/bench/bare.toml": "application/toml",
        "/worker.json": "application/json",
    }
    assert (ROOT / "bench" / "bare.toml").is_file()
    for path, mime in expected.items():
        with urlopen(site_url + path, timeout=10) as response:
            assert response.headers.get_content_type() == mime, path
