// The JavaScript half of a live room (loaded by yinsh/web/relay.py only when a room opens): the
// seat's key, with WebCrypto's Ed25519, and the few calls to the relay (nats.ws) that are better
// made here than crossed one by one from Python. Everything crosses to Python as text or numbers:
// keys and signatures in base64url without padding (43 and 86 characters, as
// yinsh/live/protocol.py writes them), signed texts as strings (UTF-8 here).
// The private key never leaves this browser: kept as a JWK in localStorage; if storage fails the key
// lives as long as the page, and `stored` says so.

const STORAGE_KEY = "yinsh:live-key";
const ED25519 = { name: "Ed25519" };
const encoder = new TextEncoder();

const b64 = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes)))
  .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const unb64 = (text) => Uint8Array.from(
  atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4)), (c) => c.charCodeAt(0));

let seat = null;  // {private: CryptoKey, public: base64url, stored: bool}
const publicKeys = new Map();  // base64url → CryptoKey, or null for one that is no key

async function fromStorage() {
  let jwk = null;
  try { jwk = JSON.parse(localStorage.getItem(STORAGE_KEY) || "null"); } catch (e) { return null; }
  if (!jwk || jwk.kty !== "OKP" || jwk.crv !== "Ed25519" || typeof jwk.x !== "string") return null;
  try {
    const key = await crypto.subtle.importKey("jwk", jwk, ED25519, false, ["sign"]);
    return { private: key, public: jwk.x, stored: true };
  } catch (e) {
    return null;  // a damaged key: a new one is made (this seat is lost, the page goes on)
  }
}

/** The seat's key: the one this browser kept, else a new one (kept if storage allows). */
export async function seatKey() {
  if (seat) return { public: seat.public, stored: seat.stored };
  seat = await fromStorage();
  if (!seat) {
    const pair = await crypto.subtle.generateKey(ED25519, true, ["sign", "verify"]);
    const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
    let stored = true;
    try { localStorage.setItem(STORAGE_KEY, JSON.stringify(jwk)); } catch (e) { stored = false; }
    seat = { private: pair.privateKey, public: jwk.x, stored };
  }
  return { public: seat.public, stored: seat.stored };
}

/** The seat's signature of `text`. */
export async function sign(text) {
  return b64(await crypto.subtle.sign(ED25519, seat.private, encoder.encode(text)));
}

/** Whether `signature` is `key`'s signature of `text` (false for anything that is not one). */
export async function verify(key, signature, text) {
  let publicKey = publicKeys.get(key);
  if (publicKey === undefined) {
    try {
      publicKey = await crypto.subtle.importKey("raw", unb64(key), ED25519, false, ["verify"]);
    } catch (e) {
      publicKey = null;
    }
    if (publicKeys.size > 10000) publicKeys.clear();
    publicKeys.set(key, publicKey);
  }
  if (!publicKey) return false;
  try {
    return await crypto.subtle.verify(ED25519, publicKey, unb64(signature), encoder.encode(text));
  } catch (e) {
    return false;
  }
}

/** Whether each `[key, signature, text]` of `items` is `key`'s signature of `text`: an array of
 * booleans, checked together (one answer to Python for a batch of messages). */
export async function verifyAll(items) {
  return Promise.all(Array.from(items, ([key, signature, text]) => verify(key, signature, text)));
}

/** 128 random bits in base64url (a room's name), or `bytes` of them. */
export function randomName(bytes = 16) {
  return b64(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** A stored message's bytes as text (UTF-8; anything else becomes U+FFFD and fails to decode). */
export function text(data) {
  return new TextDecoder().decode(data);
}

/** When the relay stored message `m`, in milliseconds since 1970, as text: MicroPython's FFI
 * hands a JavaScript integer over in 32 bits, which wraps a date's milliseconds. */
export function storedMs(m) {
  return String(Math.floor(m.info.timestampNanos / 1e6));
}

// ------------------------------------------------------------------ the relay

const readers = new Set();  // the readers under way: a reconnect ends them (their pulls' messages may be lost)
const requests = new Set();  // how to end each request under way: a reconnect ends them too

/** `promise`, or a rejection at the next reconnect: a request sent on a connection that was lost
 * is never answered, and the reader must not wait for its timeout to read what came meanwhile. */
function untilReconnect(promise) {
  let end;
  const reconnected = new Promise((resolve, reject) => { end = () => reject(new Error("reconnected")); });
  requests.add(end);
  return Promise.race([promise, reconnected]).finally(() => requests.delete(end));
}

/** End every reader and request under way: the connection was lost, whatever they were waiting
 * for may never come. */
function endAll() {
  for (const reader of readers) stopReading(reader);
  for (const end of requests) end();
}

/** Connect to the relay with nats.ws (`nats`, the module) and report every change of the
 * connection to `onStatus(type)` ("disconnect", "reconnecting", "reconnect", "closed", …). On a
 * "reconnect" the readers and requests under way end at once: a pull sent on the lost connection
 * may have had its messages delivered to it (lost, though the consumer counts them delivered),
 * and a request sent on it is never answered, so the reader must read again from the last
 * sequence it folded, not wait for a pull to expire or a request to time out. */
export async function connect(nats, options, onStatus) {
  const nc = await nats.connect(options);
  (async () => {
    for await (const status of nc.status()) {
      if (status.type === "reconnect") endAll();
      onStatus(status.type);
    }
  })().catch(() => {});
  nc.closed().then(() => onStatus("closed"));
  // The network is back (a phone's Wi-Fi, a laptop waking) and the connection still looks open:
  // what was sent while the network was away may be lost, pulls included, so the reader reads
  // again as after a reconnect ("online"). The connection itself may be dead, and its pings
  // would find out only seconds later: the relay is asked at once, and no answer within a second
  // makes the connection again.
  addEventListener("online", () => {
    if (nc.isClosed() || !nc.protocol.connected) return;
    endAll();
    onStatus("online");
    const silent = new Promise((resolve) => setTimeout(resolve, 1000, "silent"));
    Promise.race([nc.flush(), silent]).then((answer) => {
      if (answer === "silent") nc.reconnect().catch(() => {});
    }, () => {});
  });
  return nc;
}

/** Start reading `stream` through a new ordered consumer made from `options` (its start
 * sequence, its subjects): pulls of `max` messages, each waiting up to `expires` ms, one after
 * another, every message queued for `take` as it arrives. A pull that is answered only once
 * `max` messages came or it expired costs the relay one request for many messages, and a quiet
 * room one request every `expires` ms (with the relay's idle heartbeats, at half that). Rejects
 * at a reconnect. */
export async function read(jetstream, stream, options, max, expires) {
  const consumer = await untilReconnect(jetstream.consumers.get(stream, options));
  const reader = { consumer, queue: [], wake: null, pull: null, ended: false, error: null };
  readers.add(reader);
  (async () => {
    while (!reader.ended) {
      const pending = consumer.fetch({
        max_messages: max, expires, callback: (m) => { reader.queue.push(m); wake(reader); } });
      reader.pull = await untilReconnect(pending).catch((e) => {
        pending.then((pull) => pull.stop(), () => {});  // made after the reconnect ended the reader
        throw e;
      });
      if (reader.ended) reader.pull.stop();  // stopped while the pull was being made
      const error = await reader.pull.closed();
      if (error) throw error;
    }
  })().catch((e) => { reader.error = e; }).finally(() => stopReading(reader));
  return reader;
}

/** Answer `reader`'s take under way once the messages being handed over now are all queued (a
 * microtask: after the rest of the relay's frame, so a burst is folded and drawn once). */
function wake(reader) {
  const settle = reader.wake;
  reader.wake = null;
  if (settle) queueMicrotask(settle);
}

/** The messages `reader` received since the last take, in the stream's order: at once if some
 * came, else as soon as one comes, or an empty array after `wait` ms (or at `wakeReaders`).
 * Rejects once the reader has ended and handed over everything it received. */
export function take(reader, wait) {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = () => {
      if (settled) return;  // the timer, or a wake: whichever comes first hands the messages over
      settled = true;
      clearTimeout(timer);
      if (reader.wake === settle) reader.wake = null;
      const batch = reader.queue.splice(0);
      if (batch.length || !reader.ended) resolve(batch);
      else reject(reader.error || new Error("the reading stopped"));
    };
    const timer = setTimeout(settle, wait);
    if (reader.queue.length || reader.ended) settle();
    else reader.wake = settle;
  });
}

/** Every take under way answers now (what came, or nothing): the reader has something to check. */
export function wakeReaders() {
  for (const reader of readers) wake(reader);
}

/** End `reader` (its pull stopped; what it received is still taken) and delete the relay's side
 * of its consumer (best effort: the relay drops an idle one by itself after a while). */
export function stopReading(reader, manager, stream) {
  if (!reader.ended) {
    reader.ended = true;
    readers.delete(reader);
    if (reader.pull) reader.pull.stop();
    wake(reader);
  }
  const current = reader.consumer.currentConsumer;
  if (manager && current && current.name) manager.consumers.delete(stream, current.name).catch(() => {});
}

/** The stream sequence of the last message stored on `subject` (wildcards allowed: a room's
 * subjects), or 0 when the stream holds none; rejects at a reconnect. */
export async function lastStored(manager, stream, subject) {
  try {
    return (await untilReconnect(manager.streams.getMessage(stream, { last_by_subj: subject }))).seq;
  } catch (e) {
    if (e && e.api_error && e.api_error.code === 404) return 0;
    throw e;
  }
}

/** Publish `data` on `subject` to the stream and wait for its acknowledgement; rejects at a
 * reconnect (a publish sent on the lost connection may never be answered: it is sent again, with
 * the same message id, so the relay stores it once). */
export async function publish(jetstream, subject, data, options) {
  return untilReconnect(jetstream.publish(subject, data, options));
}

/** Sign `text` and publish the message at once, before the page draws the move (`sent()`, once
 * it has left, or failed to, or after 100 ms at most): `head` is the message's JSON up to its
 * signature's value. Never rejects: {signature, seq} or {signature, error}. */
export async function signAndPublish(jetstream, subject, text, head, options, sent) {
  let signature = "";
  let done = false;
  const leave = () => { if (!done) { done = true; clearTimeout(late); sent(); } };
  const late = setTimeout(leave, 100);
  try {
    signature = await sign(text);
    options.msgID = signature.slice(0, 40);
    const acked = publish(jetstream, subject, head + signature + '"}', options);
    await null;  // nats.ws writes to the socket in a microtask, queued by now: it goes before the page draws
    leave();
    const ack = await acked;
    return { signature, seq: ack.seq, error: "" };
  } catch (e) {
    return { signature, seq: 0, error: String(e && e.message || e) };
  } finally {
    leave();
  }
}
