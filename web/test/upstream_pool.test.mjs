// The gateway's upstream pool grows with open streams (src/pool.ts), against a
// real stud_server that allows only 4 streams per HTTP/2 connection
// (--max_concurrent_streams=4) with the Redis ledger (test/phones_stack.mjs):
// one gateway process with --upstream_connections=1 carries 21 open WatchHand
// streams (gRPC passed through and Connect, half each), every one receives
// the deal and then the next version, and unary calls made meanwhile through
// the same process answer within their own deadline; /metrics counts 7
// connections and 21 streams. With a fixed session the
// fifth watch would wait in the HTTP/2 client for a free stream, and so would
// every unary call. A gateway held to 2 connections refuses the seventh watch
// with RESOURCE_EXHAUSTED (3 streams each: one slot of 4 is kept for unary
// calls) and still answers unary calls.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setMaxListeners } from "node:events";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import * as pb from "../gen/stud/v1/stud_pb.js";
import { API_KEY, TENANT, startPhonesStack } from "./phones_stack.mjs";
import { startGatewayOnly } from "./harness.mjs";

const headers = { "x-stud-tenant": TENANT, "x-stud-api-key": API_KEY };
const SEATS = [1, 2, 3];
// A stalled watch or call fails at its deadline instead of hanging the test.
const WATCH_MS = 30_000;
const UNARY_MS = 10_000;
let stack;

before(async () => {
  stack = await startPhonesStack({ replicas: 1, serverArgs: ["--max_concurrent_streams=4"] });
});

after(() => stack?.stop());

function clientsOf(baseUrl) {
  return {
    grpc: createClient(pb.StudService, createGrpcTransport({ baseUrl })),
    connect: createClient(pb.StudService, createConnectTransport({ baseUrl, httpVersion: "2", useBinaryFormat: true })),
  };
}

async function deal(client) {
  const dealt = await client.newHand(
    { variant: pb.Variant.STUD, stakes: { kind: { case: "preset", value: "$15-$30" } }, seats: SEATS.map((seat) => ({ seat, stack: 20_000n })) },
    { headers, timeoutMs: UNARY_MS },
  );
  return { update: dealt.update, tickets: Object.fromEntries(dealt.seatTickets.map((t) => [t.seat, t.ticket])) };
}

async function act(client, update, tickets) {
  const order = [pb.ActionKind.SHOW, pb.ActionKind.CHECK, pb.ActionKind.CALL, pb.ActionKind.BRING_IN];
  const pick = order.map((k) => update.legalActions.find((a) => a.kind === k)).find(Boolean) ?? update.legalActions[0];
  const answer = await client.applyAction(
    { token: update.token, action: { kind: pick.kind, seat: update.toAct, amountTo: pick.amountTo }, seatTicket: tickets[update.toAct] },
    { headers, timeoutMs: UNARY_MS },
  );
  return answer.update;
}

function openWatch(client, update, ticket, signal) {
  return client
    .watchHand(
      { handId: update.publicView.handId, seatTicket: ticket, afterVersion: 0n },
      // AbortSignal.timeout's timer does not hold the test process open once the watch ends.
      { headers, signal: AbortSignal.any([signal, AbortSignal.timeout(WATCH_MS)]) },
    )
    [Symbol.asyncIterator]();
}

test("one process, one base connection, a server allowing 4 streams each: 21 watches all see the next version; unary calls answer", async () => {
  const gateway = await startGatewayOnly(stack.upstreams[0], ["--workers=1", "--upstream_connections=1"]);
  const abort = new AbortController();
  setMaxListeners(64, abort.signal);
  try {
    const clients = clientsOf(gateway.gateway);
    const hands = [];
    for (let h = 0; h < 7; h++) hands.push(await deal(clients.grpc));
    const watches = [];
    for (const [h, hand] of hands.entries()) {
      for (const seat of SEATS) {
        const protocol = (h * SEATS.length + seat) % 2 === 0 ? "grpc" : "connect";
        watches.push({ h, seat, protocol, stream: openWatch(clients[protocol], hand.update, hand.tickets[seat], abort.signal) });
      }
    }
    // Every watch gets the deal while all of them are open.
    const firsts = await Promise.all(watches.map((w) => w.stream.next()));
    for (const [i, first] of firsts.entries()) {
      const w = watches[i];
      assert.equal(first.done, false, `watch ${i} (${w.protocol}, hand ${w.h}, seat ${w.seat}): the deal`);
      assert.equal(first.value.update.version, 0n);
    }
    // The pool grew: 3 watches on each connection (one slot of 4 kept for unary calls).
    const metrics = await (await fetch(`${gateway.gateway}/metrics`)).text();
    assert.equal(Number(/^stud_web_upstream_connections (\S+)$/m.exec(metrics)?.[1]), 7, "7 connections for 21 watches");
    assert.equal(Number(/^stud_web_upstream_streams (\S+)$/m.exec(metrics)?.[1]), 21, "21 streams open upstream");
    // Unary calls through both protocols while 21 streams are open: each
    // completes within its own deadline (a stalled one fails DEADLINE_EXCEEDED).
    for (let round = 0; round < 5; round++) {
      const views = await Promise.all(
        hands.map((hand, h) =>
          clients[h % 2 ? "grpc" : "connect"].getView({ token: hand.update.token, privateViewSeats: [1], seatTicket: hand.tickets[1] }, { headers, timeoutMs: UNARY_MS }),
        ),
      );
      assert.equal(views.length, hands.length);
    }
    // One action per hand, half through each protocol: each of its watches
    // receives that version.
    const moved = await Promise.all(hands.map((hand, h) => act(clients[h % 2 ? "connect" : "grpc"], hand.update, hand.tickets)));
    const nexts = await Promise.all(watches.map((w) => w.stream.next()));
    for (const [i, next] of nexts.entries()) {
      const w = watches[i];
      assert.equal(next.done, false, `watch ${i} (${w.protocol}, hand ${w.h}, seat ${w.seat}): a message`);
      assert.equal(next.value.update.version, moved[w.h].version, `watch ${i}: the next version`);
    }
    // A new hand dealt while all watches stay open.
    assert.ok((await deal(clients.connect)).update.token.length > 0);
  } finally {
    abort.abort();
    await gateway.stop();
  }
});

test("--max_upstream_connections bounds the pool: the watch past it is RESOURCE_EXHAUSTED; unary calls still answer", async () => {
  for (const protocol of ["grpc", "connect"]) {
    const gateway = await startGatewayOnly(stack.upstreams[0], ["--workers=1", "--upstream_connections=1", "--max_upstream_connections=2"]);
    const abort = new AbortController();
    try {
      const clients = clientsOf(gateway.gateway);
      const client = clients[protocol];
      const hands = [await deal(client), await deal(client), await deal(client)];
      // 2 connections x 3 streams (the fourth slot of each kept for unary calls).
      const open = [];
      for (const hand of hands.slice(0, 2)) {
        for (const seat of SEATS) open.push(openWatch(client, hand.update, hand.tickets[seat], abort.signal));
      }
      for (const first of await Promise.all(open.map((s) => s.next()))) assert.equal(first.value?.update.version, 0n, protocol);
      let refused;
      try {
        await openWatch(client, hands[2].update, hands[2].tickets[1], abort.signal).next();
      } catch (error) {
        refused = ConnectError.from(error);
      }
      assert.equal(refused?.code, Code.ResourceExhausted, `${protocol}: ${refused?.message}`);
      assert.match(refused.rawMessage, /connections to stud_server/, protocol);
      // Unary calls still go through on the reserved slots.
      const views = await Promise.all(
        hands.map((h) => client.getView({ token: h.update.token, privateViewSeats: [1], seatTicket: h.tickets[1] }, { headers, timeoutMs: UNARY_MS })),
      );
      assert.equal(views.length, 3);
      const moved = await act(client, hands[0].update, hands[0].tickets);
      for (const [i, next] of (await Promise.all(open.slice(0, 3).map((s) => s.next()))).entries()) {
        assert.equal(next.value?.update.version, moved.version, `${protocol}: watch ${i} after the refusal`);
      }
    } finally {
      abort.abort();
      await gateway.stop();
    }
  }
});
