"""The page's reader of a room (``static/js/live.js``: ``read``, ``take``, ``wakeReaders``,
``stopReading``) in Node.js, against a fake nats.ws whose pulls and reconnects the test makes
happen in the order it wants: the orders a real relay makes only now and then (a reconnect while
a pull is being made, a burst in one frame). The page with a real relay is ``tests/e2e``.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from helpers import ROOT, unavailable

HARNESS = """
globalThis.addEventListener = () => {};  // the page's "online" listener: no such event here
const live = await import(process.argv.at(-1));

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A fake nats.ws: `status` reports what `emit` is given; consumers whose fetches are answered
 * when the test says so, each pull recording whether it was stopped. */
function relay() {
  const waiting = [];
  const statuses = { push: null };
  const pulls = [];
  const nc = {
    status: () => ({ [Symbol.asyncIterator]: () => ({
      next: () => new Promise((resolve) => { statuses.push = (type) => resolve({ value: { type }, done: false }); }),
    }) }),
    closed: () => new Promise(() => {}),
    isClosed: () => false,
    protocol: { connected: true },
  };
  const consumer = {
    currentConsumer: { name: "c1" },
    fetch: ({ callback }) => new Promise((resolve) => waiting.push(() => {
      let close;
      const pull = { stopped: false, deliver: callback, closing: new Promise((r) => { close = r; }),
                     stop() { this.stopped = true; close(); }, closed() { return this.closing; } };
      pulls.push(pull);
      resolve(pull);
    })),
  };
  const jetstream = { consumers: { get: async () => consumer } };
  return {
    jetstream, pulls,
    answer: () => waiting.shift()(),
    emit: (type) => statuses.push(type),
    connect: () => live.connect({ connect: async () => nc }, {}, () => {}),
  };
}

/** A reader of `r`'s stream whose first pull is open. */
async function pulling(r) {
  const reader = await live.read(r.jetstream, "S", {}, 100, 30000);
  await tick();
  r.answer();
  await tick();
  return reader;
}

const scenarios = {
  async reconnect_while_a_pull_is_made() {
    const r = relay();
    await r.connect();
    const reader = await live.read(r.jetstream, "S", {}, 100, 30000);
    await tick();
    r.emit("reconnect");
    await tick();
    const taken = await live.take(reader, 1000).then(() => "answered", (e) => e.message);
    r.answer();  // the pull the lost connection asked for is made only now
    await tick(); await tick();
    return { taken, pulls: r.pulls.length, stopped: r.pulls.map((p) => p.stopped) };
  },
  async reconnect_during_a_pull() {
    const r = relay();
    await r.connect();
    const reader = await pulling(r);
    r.pulls[0].deliver("m1");
    r.emit("reconnect");
    await tick();
    const first = await live.take(reader, 1000);
    const then = await live.take(reader, 1000).then(() => "answered", (e) => e.message);
    return { first, then, stopped: r.pulls.map((p) => p.stopped) };
  },
  async a_burst_is_taken_once() {
    const r = relay();
    const reader = await pulling(r);
    const taking = live.take(reader, 1000);
    for (const m of ["m1", "m2", "m3"]) r.pulls[0].deliver(m);  // one frame of the relay's
    const first = await taking;
    r.pulls[0].deliver("m4");
    const second = await live.take(reader, 1000);
    const woken = live.take(reader, 30000);
    live.wakeReaders();
    const third = await woken;
    live.stopReading(reader);
    return { first, second, third, stopped: r.pulls.map((p) => p.stopped) };
  },
  async a_pull_that_ends_makes_the_next() {
    const r = relay();
    const reader = await pulling(r);
    r.pulls[0].stop();  // expired
    await tick(); await tick();
    r.answer();
    await tick();
    r.pulls[1].deliver("m1");
    const taken = await live.take(reader, 1000);
    live.stopReading(reader);
    return { taken, pulls: r.pulls.length, stopped: r.pulls.map((p) => p.stopped) };
  },
  async a_move_leaves_before_the_page_draws_it() {
    await live.seatKey();  // localStorage is missing here: the key lives as long as the run
    const order = [];
    const jetstream = {
      publish: () => {  // as nats.ws does: the request is queued, and written in a microtask
        queueMicrotask(() => order.push("written"));
        return new Promise((resolve) => setTimeout(() => resolve({ seq: 7 }), 5));
      },
    };
    const answer = await live.signAndPublish(jetstream, "g", "text", '{"s":"', {}, () => order.push("sent"));
    return { order, seq: answer.seq, error: answer.error, signed: answer.signature.length };
  },
  async a_stored_time_crosses_as_text() {
    return live.storedMs({ info: { timestampNanos: parseInt("1796667600123456789", 10) } });
  },
};

const out = {};
for (const [name, scenario] of Object.entries(scenarios)) out[name] = await scenario();
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def outcomes():
    if shutil.which("node") is None:
        unavailable("Node.js is not installed")
    done = subprocess.run(["node", "--no-warnings", "--input-type=module", "-e", HARNESS,
                           (ROOT / "static" / "js" / "live.js").as_uri()], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_pull_made_after_a_reconnect_ended_its_reader_is_stopped(outcomes):
    """The lost connection's pull is made only after the reconnect: no reader takes its messages,
    so it must not stay open on the relay until it expires."""
    assert outcomes["reconnect_while_a_pull_is_made"] == {"taken": "reconnected", "pulls": 1, "stopped": [True]}


def test_a_reconnect_stops_the_pull_and_hands_over_what_came(outcomes):
    assert outcomes["reconnect_during_a_pull"] == {"first": ["m1"], "then": "the reading stopped", "stopped": [True]}


def test_a_burst_is_taken_in_one_answer_and_a_wake_answers_an_empty_one(outcomes):
    assert outcomes["a_burst_is_taken_once"] == {"first": ["m1", "m2", "m3"], "second": ["m4"], "third": [],
                                                "stopped": [True]}


def test_a_pull_that_ends_is_followed_by_the_next(outcomes):
    assert outcomes["a_pull_that_ends_makes_the_next"] == {"taken": ["m1"], "pulls": 2, "stopped": [True, True]}


def test_a_move_is_written_to_the_socket_before_the_page_is_drawn(outcomes):
    """``sent()`` draws the page (tens of ms of MicroPython): the publish must be on the socket
    first, or the other player's page waits for this one's drawing."""
    assert outcomes["a_move_leaves_before_the_page_draws_it"] == {"order": ["written", "sent"], "seq": 7,
                                                                  "error": "", "signed": 86}


def test_a_stored_time_crosses_into_micropython_whole(outcomes):
    """A relay's time of storage in milliseconds since 1970 (41 bits) goes to the page's Python as
    text: MicroPython's FFI hands a JavaScript integer over in 32 bits."""
    assert outcomes["a_stored_time_crosses_as_text"] == "1796667600123"
