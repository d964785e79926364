// A live room's seat key, with WebCrypto's Ed25519 (loaded by yinsh/web/live.py only when a room
// opens). Everything crosses to Python as text: keys and signatures in base64url without padding
// (43 and 86 characters, as yinsh/live/protocol.py writes them), signed texts as strings (UTF-8 here).
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

/** The next stored messages of `consumer` (an ordered consumer), in the stream's order, as an
 * array: one pull and one answer to Python for up to `max` of them. Ask for no more than are
 * stored (the last message's `info.pending`): the pull then ends at once; with nothing stored
 * it waits up to `expires` ms for one. An empty array: nothing came. */
export async function pull(consumer, max, expires) {
  const batch = [];
  const messages = await consumer.fetch({ max_messages: max, expires, callback: (m) => { batch.push(m); } });
  const error = await messages.iterClosed;
  if (error && !batch.length) throw error;
  return batch;
}

/** Sign `text` and publish the message at once, while the page draws the move: `head` is the
 * message's JSON up to its signature's value. Never rejects: {signature, seq} or {signature, error}. */
export async function signAndPublish(jetstream, subject, text, head, options) {
  let signature = "";
  try {
    signature = await sign(text);
    options.msgID = signature.slice(0, 40);
    const ack = await jetstream.publish(subject, head + signature + '"}', options);
    return { signature, seq: ack.seq, error: "" };
  } catch (e) {
    return { signature, seq: 0, error: String(e && e.message || e) };
  }
}
