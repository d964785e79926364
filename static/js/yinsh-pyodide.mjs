/* The computer player's worker, and its Pyodide, started from a memory snapshot when this
   browser keeps one.

   `scripts/vendor.py` copies this module beside Pyodide's own loader (static/vendor/pyodide/),
   and the worker's config (worker.json) names it as its interpreter. The page starts it as a
   module worker of its own (`new Worker(…, {type: "module", name: "yinsh-computer"})`, from a
   plain script in index.html's <head>, while the page is still parsed): no PyScript in the
   worker, so nothing of it waits for the page's main thread, which is busy starting the page's
   MicroPython at that moment. The protocol is plain strings (COMPUTER_WORKER below).

   Most of Pyodide's start is its interpreter starting and importing its own modules, the same
   work on every visit (about 1.5 s of a repeat visit's 2.5 s to the computer ready on a slow
   machine). Pyodide can start from a copy of its memory taken right after that work
   (`_makeSnapshot`, `makeMemorySnapshot`, `_loadSnapshot`: its own options, marked
   experimental), which takes a fraction of the time. So:

   - with a snapshot of this very runtime kept in Cache Storage, Pyodide starts from it;
     a snapshot Pyodide refuses (another build of it, a damaged copy) is dropped, and
     Pyodide starts as usual;
   - without one, Pyodide starts as usual, and a few seconds later a second worker of this
     module (named SNAPSHOT_WORKER) starts another Pyodide in the mode that allows a snapshot,
     takes it, keeps it and closes: the computer's own worker never runs in that mode (it
     wraps every JavaScript global the interpreter touches), and stays free meanwhile. The
     delay leaves the first visit's start alone; a visit shorter than it keeps nothing.

   The snapshot is this browser's own (about 30 MB, never sent anywhere), kept in a cache
   named after this folder, which is versioned in the built site: a new Pyodide gets a new
   snapshot, and those of this site's older ones go when it is kept (and with the offline
   copy, when the site retires it). Without Cache Storage (a page that is not a secure
   context), with storage refused (a private window) or without nested workers, Pyodide simply
   starts as usual every time, and makes no snapshot.
*/

import { loadPyodide as loadRuntime, version } from "./pyodide.mjs";

export { version };

const FOLDER = new URL("./", import.meta.url);
const CACHE_PREFIX = "yinsh-pyodide-snapshot:";
const CACHE = CACHE_PREFIX + FOLDER.pathname;
const SIBLINGS = CACHE_PREFIX + new URL("../", FOLDER).pathname;  // this site's other Pyodide folders
const KEY = new URL("./snapshot", FOLDER).href;
const SNAPSHOT_WORKER = "yinsh-pyodide-snapshot";
const SNAPSHOT_DELAY_MS = 5000;
const COMPUTER_WORKER = "yinsh-computer";

// The kept snapshot, or null; undefined when this browser keeps none here (no Cache Storage,
// or storage refused: a private window, a blocked origin), so that none is made either.
async function keptSnapshot() {
  if (typeof caches === "undefined") return undefined;
  try {
    if (!(await caches.has(CACHE))) return null;  // a first start: nothing to open (opening would make it)
    const hit = await (await caches.open(CACHE)).match(KEY);
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch (error) {
    return undefined;
  }
}

async function dropSnapshot() {
  try {
    await (await caches.open(CACHE)).delete(KEY);
  } catch (error) { /* nothing kept, nothing to drop */ }
}

export async function loadPyodide(options = {}) {
  const snapshot = await keptSnapshot();
  if (snapshot) {
    try {
      const pyodide = await loadRuntime({ ...options, indexURL: FOLDER.href, _loadSnapshot: snapshot });
      globalThis.yinshPyodideStart = "snapshot";  // the worker's hello() says so (tests)
      return pyodide;
    } catch (error) {
      console.warn("YINSH: the computer's kept start-up snapshot was not usable; starting as usual:", error);
      await dropSnapshot();
    }
  }
  const pyodide = await loadRuntime({ ...options, indexURL: FOLDER.href });
  globalThis.yinshPyodideStart = "fresh";
  if (snapshot !== undefined && typeof Worker !== "undefined") {
    setTimeout(() => {
      try {
        new Worker(import.meta.url, { type: "module", name: SNAPSHOT_WORKER });
      } catch (error) { /* no nested workers here: no snapshot */ }
    }, SNAPSHOT_DELAY_MS);
  }
  return pyodide;
}

// The second worker: a Pyodide started only to be copied, then kept, then gone.
async function makeSnapshot() {
  try {
    const pyodide = await loadRuntime({ indexURL: FOLDER.href, _makeSnapshot: true });
    const snapshot = pyodide.makeMemorySnapshot();
    for (const name of await caches.keys()) {
      if (name.startsWith(SIBLINGS) && name !== CACHE) await caches.delete(name);
    }
    await (await caches.open(CACHE)).put(KEY, new Response(snapshot, {
      headers: { "Content-Type": "application/octet-stream" },
    }));
  } catch (error) {
    console.warn("YINSH: no start-up snapshot for the computer:", error);
  } finally {
    self.close();
  }
}

if (typeof WorkerGlobalScope !== "undefined" && self.name === SNAPSHOT_WORKER) makeSnapshot();

// The computer's worker. The page posts first {files: {URL: path}} (the worker's modules, as
// worker.json maps them, URLs absolute), then {id, call, args} for each question; this worker
// answers {ready: [names]} once the modules are imported (or {failed: reason}), then
// {id, result} (a string: the functions of yinsh.web.worker answer JSON text) or {id, error}.
// The modules are fetched while Pyodide starts, and written to its file system once it is up;
// a zip mapped to "*" (or "folder/*") is unpacked there instead: the built site's worker.json
// maps one, its modules precompiled by the build (imported without compiling).
function serveComputer() {
  let functions = null;
  self.addEventListener("message", async ({ data }) => {
    if (data.files) {
      functions = startComputer(data.files);
      functions.then((found) => postMessage({ ready: Object.keys(found) }),
                     (error) => postMessage({ failed: String((error && error.message) || error) }));
      return;
    }
    const { id, call, args } = data;
    try {
      const found = await functions;
      if (!Object.hasOwn(found, call)) throw new Error(`the computer has no ${call}()`);
      postMessage({ id, result: String(found[call](...args)) });
    } catch (error) {
      postMessage({ id, error: String((error && error.message) || error) });
    }
  });
}

async function startComputer(files) {
  const fetched = Object.entries(files).map(async ([url, path]) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url} could not be loaded (${response.status})`);
    return [path, new Uint8Array(await response.arrayBuffer())];
  });
  fetched.forEach((promise) => promise.catch(() => {}));  // awaited below, all at once
  const pyodide = await loadPyodide();
  const home = pyodide.FS.cwd();  // on Python's path ("" in sys.path)
  for (const [path, data] of await Promise.all(fetched)) {
    const file = `${home}/${path}`;
    const folder = file.slice(0, file.lastIndexOf("/"));
    pyodide.FS.mkdirTree(folder);
    if (path === "*" || path.endsWith("/*")) pyodide.unpackArchive(data, "zip", { extractDir: folder });
    else pyodide.FS.writeFile(file, data);
  }
  const module = pyodide.pyimport("yinsh.web.worker");
  const found = {};
  for (const name of module.__export__.toJs()) found[name] = module[name];
  return found;
}

if (typeof WorkerGlobalScope !== "undefined" && self.name === COMPUTER_WORKER) serveComputer();
