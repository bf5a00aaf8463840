// WatchHand through the built gateway against a real stud_server with the hand
// ledger (Debian's redis-server; the stack of test/phones_stack.mjs with one
// replica): in every protocol (Connect JSON and binary over HTTP/1.1 and h2c,
// gRPC-Web binary and JSON, gRPC) a watcher receives each new version while
// the hand is played, one action at a time (so nothing is held back until the
// stream ends), leaves mid-hand without harm, and a watch opened to the end
// ends OK once the hand is complete, every version once and in order. A hand
// the watcher has no ticket for is refused with the service's details.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import * as pb from "../gen/stud/v1/stud_pb.js";
import { ErrorInfoSchema } from "../gen/google/rpc/error_details_pb.js";
import { API_KEY, TENANT, startPhonesStack } from "./phones_stack.mjs";
import { startGatewayOnly } from "./harness.mjs";

const headers = { "x-stud-tenant": TENANT, "x-stud-api-key": API_KEY };
const SEATS = [1, 2, 3];
let stack;
const clients = {};

before(async () => {
  stack = await startPhonesStack({ replicas: 1 });
  const baseUrl = stack.gateways[0];
  clients["connect+json 1.1"] = createClient(pb.StudService, createConnectTransport({ baseUrl, httpVersion: "1.1" }));
  clients["connect+proto h2c"] = createClient(pb.StudService, createConnectTransport({ baseUrl, httpVersion: "2", useBinaryFormat: true }));
  clients["grpc-web"] = createClient(pb.StudService, createGrpcWebTransport({ baseUrl, httpVersion: "1.1" }));
  clients["grpc-web+json"] = createClient(pb.StudService, createGrpcWebTransport({ baseUrl, httpVersion: "1.1", useBinaryFormat: false }));
  clients["grpc (h2c)"] = createClient(pb.StudService, createGrpcTransport({ baseUrl }));
});

after(() => stack?.stop());

async function deal(client) {
  const dealt = await client.newHand(
    { variant: pb.Variant.STUD, stakes: { kind: { case: "preset", value: "$15-$30" } }, seats: SEATS.map((seat) => ({ seat, stack: 20_000n })) },
    { headers },
  );
  return { update: dealt.update, tickets: Object.fromEntries(dealt.seatTickets.map((t) => [t.seat, t.ticket])) };
}

// One passive action by the seat to act, with its own ticket; the new update.
async function act(client, update, tickets) {
  const order = [pb.ActionKind.SHOW, pb.ActionKind.CHECK, pb.ActionKind.CALL, pb.ActionKind.BRING_IN];
  const pick = order.map((k) => update.legalActions.find((a) => a.kind === k)).find(Boolean) ?? update.legalActions[0];
  const answer = await client.applyAction(
    { token: update.token, action: { kind: pick.kind, seat: update.toAct, amountTo: pick.amountTo }, seatTicket: tickets[update.toAct] },
    { headers },
  );
  return answer.update;
}

test("every protocol: each version arrives while the hand is played; a watcher may leave mid-hand", async () => {
  for (const [name, client] of Object.entries(clients)) {
    let { update, tickets } = await deal(client);
    const abort = new AbortController();
    const watch = client
      .watchHand({ handId: update.publicView.handId, seatTicket: tickets[1], afterVersion: update.version }, { headers, signal: abort.signal })
      [Symbol.asyncIterator]();
    // after_version 0 means from the hand's first version: the deal itself comes first.
    assert.equal(update.version, 0n);
    assert.equal((await watch.next()).value?.update.version, 0n, `${name}: the deal`);
    for (let step = 0; step < 3; step++) {
      update = await act(client, update, tickets);
      const next = await watch.next();
      assert.equal(next.done, false, `${name}: a message for version ${update.version}`);
      assert.equal(next.value.update.version, update.version, `${name}: step ${step}`);
    }
    abort.abort();
    await watch.next().catch(() => undefined);
    // The hand goes on without the watcher.
    update = await act(client, update, tickets);
    assert.ok(update.version > 0n, name);
  }
});

test("a watch opened from the start ends OK at the hand's end, every version once and in order", async () => {
  const client = clients["grpc (h2c)"];
  let { update, tickets } = await deal(client);
  const handId = update.publicView.handId;
  const seen = {};
  const started = [];
  const watches = Object.entries(clients).map(async ([name, watcher]) => {
    seen[name] = [];
    let first;
    started.push(new Promise((resolve) => (first = resolve)));
    try {
      for await (const m of watcher.watchHand({ handId, seatTicket: tickets[2], afterVersion: 0n }, { headers, timeoutMs: 60_000 })) {
        seen[name].push(m.update.version);
        first();
      }
    } finally {
      first();
    }
  });
  // Every watch has the deal before the hand moves on.
  await Promise.all(started);
  for (let step = 0; step < 100 && update.publicView.phase !== pb.Phase.COMPLETE; step++) update = await act(client, update, tickets);
  assert.equal(update.publicView.phase, pb.Phase.COMPLETE);
  await Promise.all(watches);
  for (const [name, versions] of Object.entries(seen)) {
    assert.equal(new Set(versions).size, versions.length, `${name}: each version once`);
    assert.deepEqual(versions, [...versions].sort((a, b) => (a < b ? -1 : 1)), `${name}: in order`);
    assert.equal(versions.at(-1), update.version, `${name}: up to the last version`);
  }
});

test("a stream without a deadline of its own outlives the gateway's unary default", async () => {
  // A gateway whose unary default is 300 ms: a watch (no timeoutMs) still gets
  // a version sent after 1 s, through Connect and through gRPC (passed through).
  const quick = await startGatewayOnly(stack.upstreams[0], ["--default_timeout_ms=300", "--workers=1"]);
  try {
    for (const make of [
      (baseUrl) => createConnectTransport({ baseUrl, httpVersion: "1.1" }),
      (baseUrl) => createGrpcTransport({ baseUrl }),
    ]) {
      const watcher = createClient(pb.StudService, make(quick.gateway));
      const client = clients["grpc (h2c)"];
      const { update, tickets } = await deal(client);
      // after_version 0 means from the first version: the deal comes at once.
      const stream = watcher.watchHand({ handId: update.publicView.handId, seatTicket: tickets[1], afterVersion: 0n }, { headers })[Symbol.asyncIterator]();
      assert.equal((await stream.next()).value.update.version, update.version);
      const next = stream.next();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const moved = await act(client, update, tickets);
      const got = await next;
      await stream.return?.();
      assert.equal(got.done, false);
      assert.equal(got.value.update.version, moved.version);
    }
  } finally {
    await quick.stop();
  }
});

test("a refused watch keeps its code and details through every protocol", async () => {
  const { update } = await deal(clients["grpc (h2c)"]);
  for (const [name, client] of Object.entries(clients)) {
    let error;
    try {
      // A ticket of another hand is no credential for this one.
      for await (const m of client.watchHand({ handId: update.publicView.handId, seatTicket: new Uint8Array(40) }, { headers })) void m;
    } catch (e) {
      error = ConnectError.from(e);
    }
    assert.ok(error, `${name}: refused`);
    assert.notEqual(error.code, Code.Unknown, `${name}: ${error.message}`);
    assert.ok(error.findDetails(ErrorInfoSchema)[0]?.reason, `${name}: ErrorInfo from stud_server (${error.code} ${error.rawMessage})`);
  }
});
