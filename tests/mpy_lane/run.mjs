// Runs Python under the pinned MicroPython (the page's main-thread interpreter) in Node.js.
//
//     node tests/mpy_lane/run.mjs MANIFEST.json
//
// The manifest (written by tests/mpy_lane/lane.py) names the interpreter's loader, the heap, the
// files to copy into its file system ({"/lib/yinsh/board.py": "/host/path", …}), the request to
// write to /request.json and the Python to run. That Python writes /response.json, which is
// printed on stdout; what the Python prints goes to stderr. A Python exception that escapes
// exits with status 1 and its traceback.
import fs from "node:fs";
import path from "node:path";

const manifest = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const { loadMicroPython } = await import(manifest.loader);
const mp = await loadMicroPython({
  heapsize: manifest.heap,
  stdout: (line) => process.stderr.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
for (const [dest, source] of Object.entries(manifest.files)) {
  mp.FS.mkdirTree(path.posix.dirname(dest));
  mp.FS.writeFile(dest, fs.readFileSync(source));
}
mp.FS.writeFile("/request.json", JSON.stringify(manifest.request));
try {
  mp.runPython(manifest.main);
} catch (error) {
  process.stderr.write(String(error.message || error) + "\n");
  process.exit(1);
}
process.stdout.write(mp.FS.readFile("/response.json", { encoding: "utf8" }));
