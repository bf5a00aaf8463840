// The hand hint (src/pool.ts, HAND_HINT): one gateway in front of three real
// stud_server replicas (--upstream=a,b,c; one key ring, each with its
// --hand_cache and /metrics). Hands played one call at a time with the hint
// (x-stud-hand-id: the hand's id, from NewHand's answer) keep every call after
// NewHand on one replica, which finds the hand it answered still decoded: the
// replicas' stud_hand_cache_lookups_total counts at most one miss per hand.
// The same hands without the hint are spread call by call (the pool's
// placement in turn), and most calls miss. With the Redis ledger and seat
// tickets (test/phones_stack.mjs), three devices watching a hand (WatchHand)
// while they act: with the hint their streams sit on the hand's pod too, so
// the updates are built from the hand the action left kept there. Also:
// homeOf's rendezvous choice is stable and moves only the hints of an address
// that goes away.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import * as pb from "../gen/stud/v1/stud_pb.js";
import { startGatewayOnly } from "./harness.mjs";
import { API_KEY, METRICS_LISTENING, TENANT, start, startPhonesStack, stop } from "./phones_stack.mjs";
import { HAND_HINT, homeOf } from "../dist/test/pool.mjs";

const HANDS = 9;
const UNARY_MS = 10_000;
let dir;
const replicas = [];
let gateway;

// stud_server on port 0 with /metrics on port 0; both addresses from its output.
async function startReplica(keyFile) {
  const { child, address, also } = await start(
    process.env.STUD_SERVER,
    ["--listen=127.0.0.1:0", `--key_file=${keyFile}`, "--metrics_listen=127.0.0.1:0"],
    /^stud_server listening on (\S+)$/,
    "stud_server",
    "stdout",
    METRICS_LISTENING,
  );
  return { child, address, metrics: also };
}

// Hand-cache lookups by result, summed over the replicas (host:port of their /metrics).
async function lookups(metrics = replicas.map((r) => r.metrics)) {
  const total = { hit: 0, miss: 0 };
  for (const address of metrics) {
    const text = await (await fetch(`http://${address}/metrics`)).text();
    for (const m of text.matchAll(/^stud_hand_cache_lookups_total\{[^}]*result="(\w+)"[^}]*\} (\S+)$/gm)) {
      total[m[1]] += Number(m[2]);
    }
  }
  return total;
}

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "stud-affinity-"));
  const keyFile = path.join(dir, "keys");
  fs.writeFileSync(keyFile, `4:${"e7".repeat(32)}\n`);
  for (let i = 0; i < 3; i++) replicas.push(await startReplica(keyFile));
  gateway = await startGatewayOnly(replicas.map((r) => r.address).join(","), ["--workers=1", "--upstream_connections=3"]);
});

after(async () => {
  await gateway?.stop();
  for (const r of replicas) await stop(r.child);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

// HANDS hands, one call at a time, each to its end; returns the calls after
// NewHand (each looks up its hand once).
async function playHands(withHint) {
  const client = createClient(pb.StudService, createGrpcTransport({ baseUrl: gateway.gateway }));
  let calls = 0;
  for (let h = 0; h < HANDS; h++) {
    const dealt = await client.newHand(
      { variant: pb.Variant.STUD, stakes: { kind: { case: "preset", value: "$1-$2" } }, seats: [1, 2, 3].map((seat) => ({ seat, stack: 500n })) },
      { timeoutMs: UNARY_MS },
    );
    let update = dealt.update;
    const headers = withHint ? { [HAND_HINT]: update.publicView.handId } : {};
    while (update.publicView.phase !== pb.Phase.COMPLETE) {
      const order = [pb.ActionKind.SHOW, pb.ActionKind.CHECK, pb.ActionKind.CALL, pb.ActionKind.BRING_IN];
      const pick = order.map((k) => update.legalActions.find((a) => a.kind === k)).find(Boolean) ?? update.legalActions[0];
      update = (
        await client.applyAction(
          { token: update.token, action: { kind: pick.kind, seat: update.toAct, amountTo: pick.amountTo } },
          { headers, timeoutMs: UNARY_MS },
        )
      ).update;
      calls++;
    }
  }
  return calls;
}

test("with the hand hint every call after NewHand reaches the replica that kept the hand", async () => {
  const before = await lookups();
  const calls = await playHands(true);
  const after = await lookups();
  const hits = after.hit - before.hit;
  const misses = after.miss - before.miss;
  console.log(`with the hint: ${calls} calls, ${hits} hits, ${misses} misses`);
  assert.equal(hits + misses, calls);
  // A hand's first call misses when its NewHand ran on another replica.
  assert.ok(misses <= HANDS, `${misses} misses for ${HANDS} hands`);
});

test("without the hint a hand's calls are spread and most miss", async () => {
  const before = await lookups();
  const calls = await playHands(false);
  const after = await lookups();
  const misses = after.miss - before.miss;
  console.log(`without the hint: ${calls} calls, ${after.hit - before.hit} hits, ${misses} misses`);
  assert.ok(misses > calls / 2, `${misses} misses of ${calls} calls`);
});

test("homeOf: the same hint, the same home; an address gone moves only its own hints", () => {
  const targets = ["10.0.0.1:50051", "10.0.0.2:50051", "10.0.0.3:50051", "10.0.0.4:50051"];
  const hints = Array.from({ length: 400 }, (_, i) => i.toString(16).padStart(32, "0"));
  const homes = hints.map((h) => homeOf(h, targets));
  assert.deepEqual(hints.map((h) => homeOf(h, [...targets].reverse())), homes, "the order of the addresses does not matter");
  const per = Object.fromEntries(targets.map((t) => [t, homes.filter((x) => x === t).length]));
  for (const n of Object.values(per)) assert.ok(n > 60 && n < 140, JSON.stringify(per));
  const left = targets.slice(1);
  for (const [i, h] of hints.entries()) {
    const now = homeOf(h, left);
    if (homes[i] !== targets[0]) assert.equal(now, homes[i], `hint ${h} moved although its home stayed`);
  }
  assert.equal(homeOf("x", []), undefined);
});

// A hand of three seats through `gateway`, each seat's device watching it
// (WatchHand with its seat ticket) and acting in turn, all with or without the
// hint; returns { actions, messages } once every watch has ended with the hand.
async function playWatched(gatewayUrl, withHint) {
  const client = createClient(pb.StudService, createGrpcTransport({ baseUrl: gatewayUrl }));
  const platform = { "x-stud-tenant": TENANT, "x-stud-api-key": API_KEY };
  const dealt = await client.newHand(
    { variant: pb.Variant.STUD, stakes: { kind: { case: "preset", value: "$1-$2" } }, seats: [1, 2, 3].map((seat) => ({ seat, stack: 500n })) },
    { headers: platform, timeoutMs: UNARY_MS },
  );
  const tickets = Object.fromEntries(dealt.seatTickets.map((t) => [t.seat, t.ticket]));
  const handId = dealt.update.publicView.handId;
  const headers = withHint ? { [HAND_HINT]: handId } : {};
  let messages = 0;
  const started = [];
  const watches = [1, 2, 3].map(async (seat) => {
    let first;
    started.push(new Promise((resolve) => (first = resolve)));
    try {
      for await (const m of client.watchHand({ handId, seatTicket: tickets[seat], afterVersion: 0n }, { headers, timeoutMs: 60_000 })) {
        messages++;
        if (m.update.version === 0n) first();
      }
    } finally {
      first();
    }
  });
  await Promise.all(started); // every device has the deal before the hand moves on
  let update = dealt.update;
  let actions = 0;
  while (update.publicView.phase !== pb.Phase.COMPLETE) {
    const order = [pb.ActionKind.SHOW, pb.ActionKind.CHECK, pb.ActionKind.CALL, pb.ActionKind.BRING_IN];
    const pick = order.map((k) => update.legalActions.find((a) => a.kind === k)).find(Boolean) ?? update.legalActions[0];
    update = (
      await client.applyAction(
        {
          token: update.token,
          expectedVersion: update.version,
          seatTicket: tickets[update.toAct],
          action: { kind: pick.kind, seat: update.toAct, amountTo: pick.amountTo },
        },
        { headers, timeoutMs: UNARY_MS },
      )
    ).update;
    actions++;
  }
  await Promise.all(watches);
  return { actions, messages };
}

test("with the hint a hand's WatchHand streams build their updates on the pod that kept the hand", async () => {
  // Three replicas on one Redis ledger, seat tickets required; one gateway in front of all three.
  const stack = await startPhonesStack({ replicas: 3, metrics: true });
  const shared = await startGatewayOnly(stack.upstreams.join(","), ["--workers=1", "--upstream_connections=3"]);
  try {
    const misses = {};
    for (const withHint of [true, false]) {
      const before = await lookups(stack.metrics);
      const { actions, messages } = await playWatched(shared.gateway, withHint);
      const after = await lookups(stack.metrics);
      misses[withHint] = after.miss - before.miss;
      console.log(
        `${withHint ? "with" : "without"} the hint: ${actions} actions, ${messages} watch messages, ` +
          `${after.hit - before.hit} hits, ${misses[withHint]} misses`,
      );
      assert.ok(actions > 5 && messages >= 3 * (actions + 1), `${actions} actions, ${messages} messages`);
    }
    assert.ok(misses.true * 4 < misses.false, JSON.stringify(misses));
  } finally {
    await shared.stop();
    await stack.stop();
  }
});
