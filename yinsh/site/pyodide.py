"""What the built site does for the computer's Pyodide: the modules it imports at its start, precompiled.

Pyodide's ``python_stdlib.zip`` holds the standard library as source. Zip imports cannot keep
the bytecode they compile, so every start compiles again each module it imports: about 140 of
them (``asyncio``, ``typing``, ``inspect``, ``json``, Pyodide's own ``_pyodide``, …) before a
line of the worker runs. That was most of a first visit's start: 2.1–2.4 s to a ready
interpreter in Node.js here, against 0.7–1.0 s with those modules precompiled.

So ``yinsh build-site`` starts the vendored Pyodide once, in Node.js, on the zip it ships,
imports the modules the Pyodide configs map (the computer player's worker), and replaces in the
zip the source of every standard module that start imported with its bytecode, compiled by that
same interpreter (``.pyc``, hash-based and unchecked: nothing compares it with a source that is
no longer there). The rest of the zip stays source: a module no start imports costs its compile
only if it is ever imported, and bytecode is larger than the deflated source it replaces. A
module that fails to import in Node.js (one that needs the browser) only goes uncompiled.

The result is kept under ``static/vendor/.cache/`` (the newest few), keyed by the digests of
everything it was made from, so builds of the same files (the test suite makes many) start
Node.js once.
``make setup`` installs Node.js and the runtime; without Node.js the build stops and says so.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Mapping
from pathlib import Path

from .common import VENDOR, BuildError

__all__ = ["precompile_start", "Precompiled", "WORKER_INTERPRETER"]

WORKER_INTERPRETER = "yinsh-pyodide.mjs"
"""The computer's worker module (``static/js/yinsh-pyodide.mjs``): a config it runs may map a
zip to ``"./*"``, which it unpacks into Python's working folder."""

TIMEOUT_SECONDS = 300
KEPT = 4
"""Results kept (the newest): a build whose sources changed makes a new one."""
CACHE = ".cache/pyodide"
"""Under the runtime folder: results kept between builds (``make setup`` clears it with the runtime)."""

# Runs in Node.js: the vendored Pyodide on the zip to ship, the configs' modules imported, every
# standard module then loaded from the zip compiled by this interpreter into a copy of the zip;
# and the modules of job.compile compiled into modules.zip.
_SCRIPT = r"""
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const job = JSON.parse(process.argv.at(-1));
const { loadPyodide } = await import(pathToFileURL(job.runtime + "/pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL: job.runtime + "/", stdLibURL: job.stdlib,
                                    stdout: () => {}, stderr: () => {} });
for (const [path, source] of Object.entries(job.files)) {
  const file = `${pyodide.FS.cwd()}/${path}`;
  pyodide.FS.mkdirTree(file.slice(0, file.lastIndexOf("/")));
  pyodide.FS.writeFile(file, fs.readFileSync(source));
}
pyodide.FS.writeFile("/tmp/job.json", JSON.stringify(job));
pyodide.runPython(String.raw`
import importlib
import importlib._bootstrap_external as external
import importlib.util
import json
import os
import zipfile

job = json.load(open("/tmp/job.json"))


def bytecode(source, filename):
    code = compile(source, filename, "exec", dont_inherit=True)
    return bytes(external._code_to_hash_pyc(code, importlib.util.source_hash(source), False))


failed = []
for name in job["modules"]:
    try:
        importlib.import_module(name)
    except BaseException as exc:  # a module that needs the browser: left to compile there
        failed.append(f"{name}: {type(exc).__name__}: {exc}")
json.dump(failed, open("/tmp/failed.json", "w"))
with zipfile.ZipFile("/tmp/modules.zip", "w", zipfile.ZIP_DEFLATED) as target:
    for path in job["compile"]:  # named as where the worker writes the source (its working folder)
        with open(path, "rb") as file:
            target.writestr(path + "c", bytecode(file.read(), os.path.join(os.getcwd(), path)))
`);
// unpacked as the worker does (which imports what unpacking needs)
pyodide.unpackArchive(pyodide.FS.readFile("/tmp/modules.zip"), "zip", { extractDir: "/tmp/unpacked" });
const report = pyodide.runPython(String.raw`
import json
import sys
import zipfile

archive = next(p for p in sys.path if p.endswith(".zip"))
origins = [getattr(getattr(m, "__spec__", None), "origin", None) for m in list(sys.modules.values())]
started = {f[len(archive) + 1:] for f in origins  # a frozen module's origin is "frozen": left as it is
           if isinstance(f, str) and f.startswith(archive + "/") and f.endswith(".py")}
compiled = []
with zipfile.ZipFile(archive) as source, zipfile.ZipFile("/tmp/out.zip", "w") as target:
    for info in source.infolist():
        data = source.read(info)
        if info.filename not in started:
            target.writestr(info, data, compress_type=info.compress_type)
            continue
        entry = zipfile.ZipInfo(info.filename + "c", info.date_time)
        target.writestr(entry, bytecode(data, f"{archive}/{info.filename}"), compress_type=zipfile.ZIP_DEFLATED)
        compiled.append(info.filename)
json.dumps({"compiled": sorted(compiled), "failed": json.load(open("/tmp/failed.json"))})
`);
fs.writeFileSync(job.out, pyodide.FS.readFile("/tmp/out.zip"));
fs.writeFileSync(job.bytecode, pyodide.FS.readFile("/tmp/modules.zip"));
console.log(report);
"""


class Precompiled:
    """A ``python_stdlib.zip`` as shipped (``data``), the standard modules precompiled in it
    (their file names in the zip, ``.py``), the configs' modules that did not import, and the
    bytecode of the modules asked for (their path → ``.pyc`` bytes)."""

    def __init__(self, data: bytes, compiled: list[str], failed: list[str], modules: dict[str, bytes]) -> None:
        self.data, self.compiled, self.failed, self.modules = data, compiled, failed, modules


def _key(stdlib: bytes, files: Mapping[str, Path], modules: list[str], compile_: list[str], runtime: Path) -> str:
    digest = hashlib.sha256(_SCRIPT.encode())
    for part in (stdlib, (runtime / "pyodide.asm.wasm").read_bytes(), json.dumps([modules, compile_]).encode()):
        digest.update(hashlib.sha256(part).digest())
    for path, source in sorted(files.items()):
        digest.update(path.encode() + b"\0" + hashlib.sha256(source.read_bytes()).digest())
    return digest.hexdigest()[:24]


def _read(report: dict, stdlib: bytes, modules: bytes) -> Precompiled:
    with zipfile.ZipFile(io.BytesIO(modules)) as archive:
        compiled = {name.removesuffix("c"): archive.read(name) for name in archive.namelist()}
    return Precompiled(stdlib, report["compiled"], report["failed"], compiled)


def precompile_start(root: Path, stdlib: bytes, files: Mapping[str, Path], modules: list[str],
                     compile_: list[str]) -> Precompiled:
    """``stdlib`` (a ``python_stdlib.zip``) with the standard modules compiled that Pyodide's
    start and importing ``modules`` load, and the bytecode of ``compile_`` (paths of ``files``);
    ``files`` (path in Pyodide's working folder → the source file) are written there first."""
    runtime = root / VENDOR / "pyodide"
    if not (runtime / "pyodide.mjs").is_file():
        raise BuildError(f"no Pyodide in {runtime} (run `make setup`)")
    cache = runtime.parent.resolve() / CACHE
    key = _key(stdlib, files, modules, compile_, runtime)
    kept = {suffix: cache / f"{key}.{suffix}" for suffix in ("zip", "modules.zip", "json")}
    if all(path.is_file() for path in kept.values()):
        os.utime(kept["json"])  # the newest are kept
        return _read(json.loads(kept["json"].read_bytes()), kept["zip"].read_bytes(), kept["modules.zip"].read_bytes())
    node = shutil.which("node")
    if node is None:
        raise BuildError("Node.js is not installed: the build runs Pyodide in it to precompile the computer's "
                         "start (make setup installs it)")
    with tempfile.TemporaryDirectory(prefix="yinsh-pyc-") as tmp:
        source, out, bytecode = Path(tmp) / "python_stdlib.zip", Path(tmp) / "out.zip", Path(tmp) / "modules.zip"
        source.write_bytes(stdlib)
        job = {"runtime": str(runtime.resolve()), "stdlib": str(source), "out": str(out), "bytecode": str(bytecode),
               "files": {path: str(file) for path, file in files.items()}, "modules": modules, "compile": compile_}
        try:
            done = subprocess.run([node, "--no-warnings", "--input-type=module", "-e", _SCRIPT, json.dumps(job)],
                                  capture_output=True, text=True, timeout=TIMEOUT_SECONDS, check=False)
        except subprocess.TimeoutExpired:
            raise BuildError(f"precompiling Pyodide's start took over {TIMEOUT_SECONDS} s") from None
        if done.returncode != 0 or not out.is_file() or not bytecode.is_file():
            raise BuildError(f"precompiling Pyodide's start failed: {(done.stderr or done.stdout).strip()[-800:]}")
        report = done.stdout.strip().splitlines()[-1].encode()
        results = {"zip": out.read_bytes(), "modules.zip": bytecode.read_bytes(), "json": report}
    cache.mkdir(parents=True, exist_ok=True)
    for suffix in ("zip", "modules.zip", "json"):  # the report last: a result is whole once it is there
        partial = kept[suffix].with_name(f"{kept[suffix].name}.{os.getpid()}")
        partial.write_bytes(results[suffix])
        os.replace(partial, kept[suffix])  # whole or absent, even with builds side by side
    for old in sorted(cache.glob("*.json"), key=lambda p: p.stat().st_mtime)[:-KEPT]:  # each edit makes one
        for suffix in kept:
            old.with_name(old.name.removesuffix(".json") + "." + suffix).unlink(missing_ok=True)
    return _read(json.loads(results["json"]), results["zip"], results["modules.zip"])
