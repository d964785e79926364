/* YINSH service worker: keeps one release of the site in Cache Storage, so that the game
   (the page, the Python package, the runtime, the AI worker's files) starts without the network.

   This file is a template. `yinsh build-site` (yinsh/site/) writes dist/sw.js from it and fills
   in RELEASE: the build id, every file of the release with its SHA-256 ("files"), and apart
   ("later") the files of the computer player's runtime (Pyodide, several megabytes), which only
   a game against the computer needs, and ("live") a live room's files, which only a room needs. The development page (index.html served from the
   repository) never registers a service worker.

   - install: fetch every file of "files", check it against its SHA-256 (a host half-way
     through a deploy can serve a mix of two releases: then the install fails, the browser
     retries on a later visit and the previous release stays in use) and store it in one
     cache named after the build, with the right MIME type whatever the host sent.
   - fetch: the page and its files are answered from that cache; a file of "live" the first
     time it is asked for is fetched, checked and stored the same way; the computer player's
     runtime ("later") comes from the network (the HTTP cache) first and from this cache only
     when that fails (it is stored once the computer has started: the computer plays offline
     once it has played once); anything else goes to the network. Only same-origin GET
     requests inside this worker's scope are answered.
   - activate: a new release takes over once no tab runs the old one (the usual service worker
     life cycle: a page never sees files of two releases), then deletes the caches of older
     releases of this site, and only those.
*/
"use strict";

const RELEASE = {"build": "dev", "files": [], "later": [], "live": []};  // [url relative to this script, sha256 prefix]: filled in by yinsh/site/

const SCOPE = new URL("./", self.location.href);
const PREFIX = `yinsh:${SCOPE.pathname}:`;
const CACHE = PREFIX + RELEASE.build;
const PAGE = SCOPE.href;  // the page is kept under the URL people open: ./
const onDemand = (list) => new Map(list.map(([url, expected]) => [new URL(url, self.location.href).href, expected]));
const COMPUTER = onDemand(RELEASE.later);
const LIVE = onDemand(RELEASE.live);
const LATER = new Map([...COMPUTER, ...LIVE]);
const TYPES = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json",
  webmanifest: "application/manifest+json",
  wasm: "application/wasm",
  zip: "application/zip",
  toml: "application/toml; charset=utf-8",
  py: "text/x-python; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
};

// The MIME type a file is kept with: by its name (a page for a directory), else as the host sent it.
function typeOf(url, sent) {
  const name = new URL(url).pathname.split("/").pop();
  if (!name) return TYPES.html;
  return TYPES[name.includes(".") ? name.split(".").pop().toLowerCase() : ""] || sent || "application/octet-stream";
}

async function sha256(buffer) {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function store(cache, url, expected) {
  const key = new URL(url, self.location.href).href;
  if (await cache.match(key)) return;  // a retried install keeps what it already checked
  // The page is kept under ./ but read as ./index.html (not every host maps a folder to it).
  const source = key === PAGE ? new URL("./index.html", SCOPE).href : key;
  // The HTTP cache first (the page has just loaded most of these); if that copy is not the
  // release's, straight from the host.
  for (const mode of ["default", "reload"]) {
    const response = await fetch(source, {cache: mode, credentials: "same-origin"});
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    const body = await response.arrayBuffer();
    if ((await sha256(body)).startsWith(expected)) {
      const type = typeOf(key, response.headers.get("Content-Type"));
      await cache.put(key, new Response(body, {headers: {"Content-Type": type}}));
      return;
    }
  }
  throw new Error(`${url}: the host does not serve this release's file (a deploy in progress?)`);
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(RELEASE.files.map(([url, expected]) => store(cache, url, expected)));
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

// "keep-later": the page's computer player has started, its runtime fetched from the network
// (or before this worker controlled the page): store it now, from the HTTP cache, unless it is
// already kept. "keep-live": the same for a live room's files (a room opened before this worker
// controlled the page).
async function keep(files) {
  const cache = await caches.open(CACHE);
  await Promise.all(Array.from(files, ([url, expected]) => store(cache, url, expected)));
}

self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
  const files = event.data === "keep-later" ? COMPUTER : event.data === "keep-live" ? LIVE : null;
  if (files) event.waitUntil(keep(files).catch((error) => console.warn("YINSH:", error)));
});

async function answer(request, url) {
  const cache = await caches.open(CACHE);
  let hit;
  if (request.mode === "navigate") {
    // A page of the site (the game, embed.html, an example), whatever its query
    // (?white=human&black=ai-3) or hash; the game page is kept under ./
    hit = await cache.match(url.pathname === SCOPE.pathname + "index.html" ? PAGE : url.origin + url.pathname);
  } else {
    hit = await cache.match(request, {ignoreVary: true});
    // A name without a version (a file named from Python code): this release's copy.
    if (!hit && !url.searchParams.has("v")) hit = await cache.match(request, {ignoreSearch: true, ignoreVary: true});
  }
  if (!hit && LATER.has(url.href)) {
    try {
      await store(cache, url.href, LATER.get(url.href));
      hit = await cache.match(url.href);
    } catch (error) {
      console.warn("YINSH: not kept offline:", error);  // the network's answer, as if no worker ran
    }
  }
  return hit || fetch(request);
}

// The computer player's runtime: the network first (in practice the HTTP cache, where the
// host's headers keep these versioned files for good), this worker's cache when that fails
// (offline). Chromium keeps the code V8 compiled from a wasm module beside the response it came
// from, and reuses it for a response from the HTTP cache (passed through here untouched), not
// for one answered from Cache Storage: served from there, Pyodide's 9.6 MB module was compiled
// again on every visit, seconds on a slow machine. The page stores these files once the
// computer is ready ("keep-later"), so the first offline game finds them.
async function networkFirst(request, url) {
  // Known to be offline: straight to the cache (no request bound to fail).
  const response = self.navigator.onLine ? await fetch(request).catch(() => null) : null;
  if (response && response.ok) return response;
  const hit = await (await caches.open(CACHE)).match(url.href);
  return hit || response || fetch(request);  // neither: the network's own failure
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return;
  event.respondWith(COMPUTER.has(url.href) ? networkFirst(request, url) : answer(request, url));
});
