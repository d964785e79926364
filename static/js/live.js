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

// ------------------------------------------------------------------ the relay

const pulls = new Set();  // the pulls under way: a reconnect ends them (their messages may be lost)
const requests = new Set();  // how to end each request under way: a reconnect ends them too

/** `promise`, or a rejection at the next reconnect: a request sent on a connection that was lost
 * is never answered, and the reader must not wait for its timeout to read what came meanwhile. */
function untilReconnect(promise) {
  let end;
  const reconnected = new Promise((resolve, reject) => { end = () => reject(new Error("reconnected")); });
  requests.add(end);
  return Promise.race([promise, reconnected]).finally(() => requests.delete(end));
}

/** Connect to the relay with nats.ws (`nats`, the module) and report every change of the
 * connection to `onStatus(type)` ("disconnect", "reconnecting", "reconnect", "closed", …). On a
 * "reconnect" the pulls and requests under way end at once: a pull sent on the lost connection
 * may have had its messages delivered to it (lost, though the consumer counts them delivered),
 * and a request sent on it is never answered, so the reader must read again from the last
 * sequence it folded, not wait for a pull to expire or a request to time out. */
export async function connect(nats, options, onStatus) {
  const nc = await nats.connect(options);
  (async () => {
    for await (const status of nc.status()) {
      if (status.type === "reconnect") {
        stopPulls();
        for (const end of requests) end();
      }
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
    stopPulls();
    for (const end of requests) end();
    onStatus("online");
    const silent = new Promise((resolve) => setTimeout(resolve, 1000, "silent"));
    Promise.race([nc.flush(), silent]).then((answer) => {
      if (answer === "silent") nc.reconnect().catch(() => {});
    }, () => {});
  });
  return nc;
}

/** End the pulls under way at once (the reader has something to do first). */
export function stopPulls() {
  for (const messages of pulls) messages.stop();
}

/** An ordered consumer of `stream` made from `options` (its start sequence, its subjects), for
 * `pull`; rejects at a reconnect. */
export async function orderedConsumer(jetstream, stream, options) {
  return untilReconnect(jetstream.consumers.get(stream, options));
}

/** The next stored messages of `consumer` (an ordered consumer), in the stream's order, as an
 * array: one pull and one answer to Python for up to `max` of them. Ask for no more than are
 * stored (the last message's `info.pending`): the pull then ends at once; with nothing stored
 * it waits up to `expires` ms for one. An empty array: nothing came (or a reconnect ended it). */
export async function pull(consumer, max, expires) {
  const batch = [];
  const messages = await untilReconnect(
    consumer.fetch({ max_messages: max, expires, callback: (m) => { batch.push(m); } }));
  pulls.add(messages);
  try {
    const error = await messages.iterClosed;
    if (error && !batch.length) throw error;
  } finally {
    pulls.delete(messages);
  }
  return batch;
}

/** Delete the relay's side of an ordered consumer no longer read (best effort: the relay drops
 * an idle one by itself after a while). */
export function dropConsumer(manager, stream, consumer) {
  const name = consumer && consumer.currentConsumer && consumer.currentConsumer.name;
  if (name) manager.consumers.delete(stream, name).catch(() => {});
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
    leave();
    const ack = await acked;
    return { signature, seq: ack.seq, error: "" };
  } catch (e) {
    return { signature, seq: 0, error: String(e && e.message || e) };
  } finally {
    leave();
  }
}
